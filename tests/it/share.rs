//! `--view share` (#78): the heap as shares of itself. Read back from the SVG's band
//! paths and held to GHC's own `.hp` text, read here line by line: at every census the
//! bands' heights add to the graph's full height, and each band's height is its part of
//! that census's bytes (every band drawn: with hp2ps's `-t`, the trace elements it
//! leaves out of every picture are out of the stack the shares are of). Real runs of three GHCs: pandoc's library (-hT), and leak
//! programs' closure and cost-centre profiles.

use std::collections::HashMap;

use crate::common::{Scratch, fixtures, hpgraph_ok};

/// Each census of a `.hp` file: every name's bytes (summed where a name is given twice).
fn censuses(text: &str) -> Vec<HashMap<String, f64>> {
    let mut out = Vec::new();
    let mut open: Option<HashMap<String, f64>> = None;
    for line in text.lines() {
        if line.starts_with("BEGIN_SAMPLE") {
            open = Some(HashMap::new());
        } else if line.starts_with("END_SAMPLE") {
            out.extend(open.take());
        } else if let Some(census) = &mut open
            && let Some((name, bytes)) = line.rsplit_once('\t')
        {
            *census.entry(name.to_string()).or_default() += bytes.trim().parse::<f64>().unwrap();
        }
    }
    out
}

/// Each band path of an SVG (a path with a `<title>`): its name and its outline's points.
fn bands(svg: &str) -> Vec<(String, Vec<(f64, f64)>)> {
    let mut out = Vec::new();
    for piece in svg.split("<path ").skip(1) {
        let Some(title) = piece
            .split_once("<title>")
            .filter(|(head, _)| !head.contains("/>"))
            .and_then(|(_, t)| t.split_once("</title>"))
            .map(|(t, _)| t)
        else {
            continue;
        };
        let d = piece
            .split_once("d=\"")
            .unwrap()
            .1
            .split_once('"')
            .unwrap()
            .0;
        let points = d
            .split(['M', 'L', 'z', 'Z'])
            .filter_map(|p| {
                let (x, y) = p.trim().split_once(',')?;
                Some((x.parse().ok()?, y.parse().ok()?))
            })
            .collect();
        let name = title
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&apos;", "'")
            .replace("&amp;", "&");
        out.push((name, points));
    }
    out
}

#[test]
fn each_census_is_the_full_height_and_each_band_its_part_of_it() {
    let dir = Scratch::new("share");
    let runs = [
        "pandoc/ghc-9.0.2/Pandoc-hT.hp",
        "leak/ghc-9.0.2/Log-hc.hp",
        "leak/ghc-9.6.6/Cache-hT.hp",
        "leak/ghc-9.10.3/Records-hc.hp",
    ];
    let mut checked = 0;
    for run in runs {
        let input = fixtures().join(run);
        let text = std::fs::read_to_string(&input).unwrap();
        let censuses = censuses(&text);
        hpgraph_ok(
            &dir.0,
            // Every band drawn (`-t 0`: no trace elements left out), so that the stack is
            // the whole census.
            &[
                input.to_str().unwrap(),
                "--view",
                "share",
                "-t",
                "0",
                "-o",
                "s.svg",
            ],
        );
        let svg = std::fs::read_to_string(dir.path("s.svg")).unwrap();
        // A band drawn from every point: the lower edge from the left (its first point
        // twice), then the upper from the right (its last point twice).
        let bands = bands(&svg);
        assert!(bands.len() >= 3, "{run}: {} bands", bands.len());
        let n = censuses.len();
        let mut heights: Vec<(String, Vec<f64>)> = Vec::new();
        for (name, points) in &bands {
            assert_eq!(points.len(), 2 * n + 2, "{run} {name}: a point a census");
            let lower = &points[1..=n];
            let upper: Vec<(f64, f64)> = points[n + 2..].iter().rev().copied().collect();
            // SVG's y grows downwards.
            heights.push((
                name.clone(),
                (0..n).map(|i| lower[i].1 - upper[i].1).collect(),
            ));
        }
        let full: Vec<f64> = (0..n)
            .map(|i| heights.iter().map(|(_, h)| h[i]).sum())
            .collect();
        let tallest = full.iter().copied().fold(0.0, f64::max);
        assert!(tallest > 50.0, "{run}: {tallest}");
        for (i, census) in censuses.iter().enumerate() {
            let total: f64 = census.values().sum();
            if total == 0.0 {
                assert!(
                    full[i].abs() < 1e-3,
                    "{run} census {i}: empty yet {}",
                    full[i]
                );
                continue;
            }
            assert!(
                (full[i] - tallest).abs() < 1e-3,
                "{run} census {i}: {} of {tallest}",
                full[i]
            );
            for (name, h) in &heights {
                if name == "OTHER" {
                    continue;
                }
                let bytes = census.get(name).copied().unwrap_or(0.0);
                let want = bytes / total;
                assert!(
                    (h[i] / tallest - want).abs() < 1e-4,
                    "{run} census {i} {name}: {} drawn, {want} of the census",
                    h[i] / tallest
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 500, "{checked}");
}

/// The bands, their order and the key are those of the bytes picture: only heights change.
#[test]
fn the_key_is_the_bytes_pictures() {
    let dir = Scratch::new("share-key");
    let input = fixtures().join("pandoc/ghc-9.0.2/Pandoc-hT.hp");
    let key = |extra: &[&str]| {
        let args = [
            &[input.to_str().unwrap(), "--key", "file", "-o", "k.svg"][..],
            extra,
        ]
        .concat();
        hpgraph_ok(&dir.0, &args);
        std::fs::read_to_string(dir.path("k-key.svg")).unwrap()
    };
    let (bytes, shares) = (key(&[]), key(&["--view", "share"]));
    assert!(bytes.contains("<text"), "no key file");
    assert_eq!(bytes, shares);
}
