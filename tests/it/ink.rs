//! Ink, as a reader's eye meets it: a modern figure at a paper column's width draws its
//! bands without black outlines (at most a thin white separator, read from the SVG), and
//! stays mostly colour: of the pixels poppler renders from its PDF, at most 4% are dark,
//! spiky `-hT` profiles and many-band `-hc` ones of three GHCs alike. hp2ps's style keeps
//! hp2ps's black outlines (its bytes are hp2ps's).

use crate::common;

use std::path::PathBuf;
use std::process::Command;

use crate::common::{Scratch, fixtures, hpgraph_ok};

/// The profiles: spiky closure-type ones and many-band cost-centre ones, three GHCs.
fn profiles() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in ["eventlog", "eventlog-9.6", "eventlog-9.10"] {
        for run in ["Leak-hT", "MapBuild-hT", "ManyCC-hc", "Leak-hc"] {
            let hp = fixtures().join(dir).join(format!("{run}.hp"));
            if hp.exists() {
                out.push(hp);
            }
        }
    }
    assert!(out.len() >= 8, "{out:?}");
    out
}

/// The share of a PGM's pixels darker than a quarter grey.
fn dark_share(pgm: &[u8]) -> f64 {
    let (magic, _, _, pixels) = crate::common::netpbm(pgm);
    assert_eq!(magic, "P5");
    pixels.iter().filter(|&&p| p < 64).count() as f64 / pixels.len() as f64
}

/// The share of dark pixels in the figure hpgraph draws of `input` at a column's width
/// with `flags`: as a PDF, rendered in grey by poppler at 150 dpi.
fn dark_share_at_a_column(dir: &Scratch, input: &str, flags: &[&str]) -> f64 {
    let mut args = vec![input, "--size", "8.5cmx5.5cm", "-o", "f.pdf"];
    args.extend(flags);
    hpgraph_ok(&dir.0, &args);
    let out = Command::new("pdftoppm")
        .args(["-gray", "-r", "150", "-singlefile"])
        .arg(dir.path("f.pdf"))
        .arg(dir.path("f"))
        .output()
        .unwrap();
    crate::common::assert_ok(&out);
    dark_share(&std::fs::read(dir.path("f.pgm")).unwrap())
}

#[test]
fn modern_bands_are_separated_in_white_not_outlined_in_black() {
    let dir = Scratch::new("ink-svg");
    for hp in profiles() {
        let hp = hp.to_str().unwrap();
        hpgraph_ok(
            &dir.0,
            &[
                hp,
                "--style",
                "modern",
                "--size",
                "8.5cmx5.5cm",
                "-o",
                "m.svg",
            ],
        );
        let svg = std::fs::read_to_string(dir.path("m.svg")).unwrap();
        let bands = common::titled_fills(&svg).len();
        // Every band path: a white stroke no wider than 0.35 pt.
        let paths: Vec<&str> = svg
            .split("<path ")
            .skip(1)
            .filter(|p| p.contains("<title>") && p[..p.find('>').unwrap()].contains(" fill=\"#"))
            .map(|p| &p[..p.find('>').unwrap()])
            .collect();
        assert!(!paths.is_empty() && paths.len() >= bands - 1, "{hp}");
        for tag in &paths {
            let width: f64 = tag
                .split(" stroke-width=\"")
                .nth(1)
                .and_then(|w| w.split('"').next())
                .and_then(|w| w.parse().ok())
                .unwrap_or(f64::MAX);
            assert!(tag.contains(" stroke=\"#ffffff\""), "{hp}: {tag:.120}");
            assert!(width <= 0.35, "{hp}: a separator {width} pt wide");
        }
        // hp2ps's style keeps its black outlines.
        hpgraph_ok(
            &dir.0,
            &[
                hp,
                "--style",
                "hp2ps",
                "--size",
                "8.5cmx5.5cm",
                "-o",
                "h.svg",
            ],
        );
        let svg = std::fs::read_to_string(dir.path("h.svg")).unwrap();
        assert!(!svg.contains("stroke=\"#ffffff\""), "{hp}");
    }
}

#[test]
fn a_column_wide_modern_figure_is_at_most_four_percent_dark() {
    if Command::new("pdftoppm").arg("-v").output().is_err() {
        assert!(
            std::env::var_os("CI").is_none(),
            "pdftoppm (poppler-utils) is needed"
        );
        eprintln!("skipped: pdftoppm is not installed");
        return;
    }
    let dir = Scratch::new("ink-pixels");
    let mut worst = (0.0, String::new());
    let mut hp2ps_darker = 0;
    for hp in profiles() {
        let name = hp.display().to_string();
        let share =
            |style: &str| dark_share_at_a_column(&dir, hp.to_str().unwrap(), &["--style", style]);
        let modern = share("modern");
        if modern > worst.0 {
            worst = (modern, name.clone());
        }
        assert!(
            modern <= 0.04,
            "{name}: {:.1}% of the pixels dark",
            modern * 100.0
        );
        // The measure can fail: hp2ps's black outlines are darker.
        hp2ps_darker += usize::from(share("hp2ps") > modern);
    }
    assert!(hp2ps_darker >= 4, "{hp2ps_darker}");
    eprintln!("darkest: {:.2}% ({})", worst.0 * 100.0, worst.1);
}

#[test]
fn runtime_lines_are_coloured_and_dense_ones_drawn_as_their_envelope() {
    // Plain eventlogs of three GHCs at a column's width: the heap size, blocks and live
    // bytes are coloured, not black; a line with more readings than the figure has
    // points across is drawn as a light envelope under the line; the figure stays at
    // most 4% dark.
    let dir = Scratch::new("ink-lines");
    let mut envelopes = 0;
    for ghc in ["ghc-9.0.2", "ghc-9.6.6", "ghc-9.10.3"] {
        for run in ["MapBuild-N2", "Leak-N2"] {
            let log = fixtures()
                .join("stats")
                .join(ghc)
                .join(format!("{run}.eventlog"));
            let log = log.to_str().unwrap();
            hpgraph_ok(
                &dir.0,
                &[
                    log,
                    "--style",
                    "modern",
                    "--size",
                    "8.5cmx5.5cm",
                    "-o",
                    "l.svg",
                ],
            );
            let svg = std::fs::read_to_string(dir.path("l.svg")).unwrap();
            for name in ["heap size", "live bytes"] {
                let at = svg
                    .find(&format!("<title>{name}</title>"))
                    .unwrap_or_else(|| panic!("{ghc} {run}: no {name} line"));
                let tag = &svg[svg[..at].rfind("<path ").unwrap()..at];
                assert!(
                    tag.contains(" stroke=\"#") && !tag.contains(" stroke=\"#000000\""),
                    "{ghc} {run}: {name} is drawn in black: {tag:.200}"
                );
            }
            envelopes += svg.matches("lowest and highest in each stretch").count();
            if Command::new("pdftoppm").arg("-v").output().is_ok() {
                let dark = dark_share_at_a_column(&dir, log, &["--style", "modern"]);
                assert!(dark <= 0.04, "{ghc} {run}: {:.1}% dark", dark * 100.0);
            }
        }
    }
    assert!(envelopes > 0, "no line was dense enough for an envelope");
}
