//! Keys a reader can tell apart (the modern style): every fixture profile and eventlog of
//! three GHCs, drawn from 6 cm to 30 cm wide with the key beside and below the graph,
//! shows no two key entries that read the same, and no closure's package before its
//! module (`Main.Customer`, not `main:Main.Customer`). The entries are read from the SVG
//! as a reader sees them: each text beside a swatch.

use crate::common;

use std::path::PathBuf;

use crate::common::{Scratch, fixtures, hpgraph};

fn inputs() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in ["eventlog", "eventlog-9.6", "eventlog-9.10"] {
        for e in std::fs::read_dir(fixtures().join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "hp" || x == "eventlog") {
                out.push(p);
            }
        }
    }
    out.sort();
    assert!(out.len() > 150, "{}", out.len());
    out
}

/// A profile whose stacks differ only in their first label's last digits, and a closure
/// profile of one module in two packages: what shortening at the ends cannot tell apart.
fn alike(dir: &Scratch) -> Vec<PathBuf> {
    let mut producers =
        String::from("JOB \"manycc\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n");
    let mut packages = producers.clone();
    for t in 0..4 {
        producers.push_str(&format!("BEGIN_SAMPLE {t}\n"));
        packages.push_str(&format!("BEGIN_SAMPLE {t}\n"));
        for k in 0..16 {
            let v = 1000 * (k + 1) * (t + 1);
            producers.push_str(&format!(
                "(1{k:02})producer{:03}/producers/loop/go/main/Main.CAF\t{v}\n",
                k * 7
            ));
        }
        packages.push_str(&format!(
            "main:Main.Customer\t{}\nother-1.0:Main.Customer\t{}\nghc-prim:GHC.Types.:\t99\n",
            50 * (t + 1),
            70
        ));
        producers.push_str(&format!("END_SAMPLE {t}\n"));
        packages.push_str(&format!("END_SAMPLE {t}\n"));
    }
    let (a, b) = (dir.path("producers.hp"), dir.path("packages.hp"));
    std::fs::write(&a, producers).unwrap();
    std::fs::write(&b, packages).unwrap();
    vec![a, b]
}

/// The fill attribute of an SVG element's line.
fn fill_of(line: &str) -> Option<String> {
    let f = line.split(" fill=\"").nth(1)?;
    Some(f[..f.find('"')?].to_string())
}

/// The texts of an SVG that stand beside a swatch (a filled square drawn just before
/// them), each with the swatch's fill: the key's entries, top first.
fn swatched(svg: &str) -> Vec<(String, String)> {
    let lines: Vec<&str> = svg.lines().collect();
    (lines.windows(2))
        .filter(|w| {
            w[0].starts_with("<path d=\"M")
                && w[0].contains(" z\" fill=\"")
                && !w[0].contains("fill=\"white\"")
                && w[1].starts_with("<text ")
        })
        .map(|w| {
            let text = common::without_markup(&w[1][w[1].find('>').unwrap() + 1..]);
            let fill = fill_of(w[0]).unwrap_or_default();
            (fill, text.trim_end_matches("</text>").to_string())
        })
        .collect()
}

/// The key's entries, top first, as a reader sees them.
fn key_entries(svg: &str) -> Vec<String> {
    swatched(svg).into_iter().map(|(_, text)| text).collect()
}

#[test]
fn no_two_key_entries_read_the_same_and_no_package_leads() {
    let package = regex::Regex::new(r"^[A-Za-z0-9._-]*[A-Za-z][A-Za-z0-9._-]*:[A-Z]").unwrap();
    let dir = Scratch::new("keys");
    let mut wrong = Vec::new();
    let mut keys = 0;
    for input in alike(&dir).into_iter().chain(inputs()) {
        for width in ["6cm", "8.5cm", "12cm", "30cm"] {
            for key in ["right", "below"] {
                let size = format!("{width}x5.5cm");
                let out = hpgraph(
                    &dir.0,
                    &[
                        input.to_str().unwrap(),
                        "--style",
                        "modern",
                        "--size",
                        &size,
                        "--key",
                        key,
                        "-o",
                        "k.svg",
                    ],
                    None,
                );
                if !out.status.success() {
                    // Profiles without a census draw no key (and say so).
                    continue;
                }
                let svg = std::fs::read_to_string(dir.path("k.svg")).unwrap();
                let entries = key_entries(&svg);
                keys += 1;
                let mut sorted = entries.clone();
                sorted.sort();
                for w in sorted.windows(2) {
                    if w[0] == w[1] {
                        wrong.push(format!(
                            "{} at {size}, key {key}: `{}` twice",
                            input.display(),
                            w[0]
                        ));
                    }
                }
                // One module in two packages keeps them: they tell the two apart.
                let told =
                    |e: &&String| !input.ends_with("packages.hp") || e.starts_with("ghc-prim");
                for e in entries.iter().filter(|e| package.is_match(e)).filter(told) {
                    wrong.push(format!(
                        "{} at {size}: `{e}` keeps its package",
                        input.display()
                    ));
                }
            }
        }
    }
    assert!(keys > 1000, "{keys} keys read");
    wrong.dedup();
    assert!(
        wrong.is_empty(),
        "{} keys:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// Each key entry with its band's full name: the swatch's fill (drawn just before the
/// entry) is the fill of the band's path, whose `<title>` names it; entries whose fill
/// two bands share are left out.
fn entries_with_names(svg: &str) -> Vec<(String, String)> {
    let lines: Vec<&str> = svg.lines().collect();
    let mut bands: std::collections::HashMap<String, Vec<String>> = Default::default();
    for w in lines.windows(2) {
        if w[0].starts_with("<path d=\"M") && w[1].starts_with("<title>") {
            let name = common::without_markup(w[1].trim_end_matches("</title>"));
            let fill = fill_of(w[0]).unwrap_or_default();
            bands.entry(fill).or_default().push(common::xml_text(&name));
        }
    }
    (swatched(svg).into_iter())
        .filter_map(|(fill, entry)| match &bands.get(&fill)?[..] {
            [name] => Some((common::xml_text(&entry), name.clone())),
            _ => None,
        })
        .collect()
}

/// #79: a `-hc` key at a column's width keeps each stack's innermost frame (its first
/// label: the cost centre that holds the memory) whole wherever the entry is as long as
/// that frame: `writeHtml5String/...`, not `writeHtm.../runI...`; and GHC's own cut at
/// `-L` characters (`writeHtml5String/runI...`: a frame cut short) is never shown cut
/// again. Real runs: pandoc's library and the leak programs of three GHCs, from their
/// `.hp` and their eventlogs.
#[test]
fn a_stacks_key_entry_keeps_its_innermost_frame_whole() {
    let mut inputs = vec![
        fixtures().join("interleaved/ghc-9.0.2/Pandoc-hc.hp"),
        fixtures().join("pandoc/ghc-9.0.2/Pandoc-hc.hp"),
        fixtures().join("pandoc/ghc-9.0.2/Pandoc200-hc.hp"),
    ];
    for ghc in ["ghc-9.0.2", "ghc-9.6.6", "ghc-9.10.3"] {
        for run in ["Log-hc", "Cache-hc", "Records-hc", "Accumulator-hc"] {
            for ext in ["hp", "eventlog"] {
                inputs.push(fixtures().join(format!("leak/{ghc}/{run}.{ext}")));
            }
        }
    }
    let dir = Scratch::new("keys-frames");
    let (mut checked, mut cut_by_ghc) = (0, 0);
    let mut wrong = Vec::new();
    for input in &inputs {
        for size in ["8.5cmx5.5cm", "8.5cmx9cm", "17cmx6cm"] {
            for key in ["right", "below"] {
                let out = hpgraph(
                    &dir.0,
                    &[
                        input.to_str().unwrap(),
                        "--size",
                        size,
                        "--key",
                        key,
                        "-o",
                        "k.svg",
                    ],
                    None,
                );
                common::assert_ok(&out);
                let svg = std::fs::read_to_string(dir.path("k.svg")).unwrap();
                for (entry, name) in entries_with_names(&svg) {
                    // The stack without GHC's number: `(2889)render/...` is `render/...`.
                    let stack = name
                        .split_once(')')
                        .filter(|_| name.starts_with('('))
                        .map_or(&name[..], |s| s.1);
                    let Some((frame, _)) = stack.split_once('/') else {
                        continue;
                    };
                    checked += 1;
                    cut_by_ghc += usize::from(stack.ends_with("..."));
                    if entry.chars().count() >= frame.chars().count() && !entry.starts_with(frame) {
                        wrong.push(format!(
                            "{} at {size}, key {key}: `{entry}` for `{stack}`",
                            input.display()
                        ));
                    }
                }
            }
        }
    }
    assert!(
        checked > 300 && cut_by_ghc > 100,
        "{checked} stacks, {cut_by_ghc} cut by GHC"
    );
    assert!(
        wrong.is_empty(),
        "{} entries:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
