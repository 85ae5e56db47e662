//! `--compare`: two runs of a program, each band matched by name. The runs are GHC's
//! own: fixtures/compare holds a lazy accumulator that leaks (fixtures/programs/Leak.hs)
//! and its fix (LeakFixed.hs), each as the `.hp` file and the eventlog of one run
//! (`scripts/regen-compare-fixtures.sh`). The numbers are checked against a reading of
//! the `.hp` files written here, not against hpgraph's own.

use crate::common;
use std::collections::HashMap;

use crate::common::{Scratch, fixtures, hpgraph, svg_texts, titled_fills};
use serde_json::Value;

fn run(args: &[&str]) -> std::process::Output {
    let dir = Scratch::new("compare");
    let full: Vec<String> = args
        .iter()
        .map(|a| {
            if a.starts_with("compare/") {
                fixtures().join(a).display().to_string()
            } else {
                a.to_string()
            }
        })
        .collect();
    let full: Vec<&str> = full.iter().map(String::as_str).collect();
    hpgraph(&dir.0, &full, None)
}

fn json(args: &[&str]) -> Value {
    let out = run(args);
    crate::common::assert_ok(&out);
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Each band's peak and mean as GHC's `.hp` file gives them (`common::hp`): the `(N)`
/// prefix left out, the mean over the censuses that hold anything.
fn read_hp(name: &str) -> HashMap<String, (f64, f64)> {
    let samples: Vec<_> = (common::hp::censuses(&fixtures().join(name)).iter())
        .map(|c| c.summed(common::hp::unnumbered))
        .collect();
    let censuses = samples
        .iter()
        .filter(|s| s.values().any(|&v| v > 0.0))
        .count() as f64;
    let mut bands: HashMap<String, (f64, f64)> = HashMap::new();
    for s in &samples {
        for (n, &v) in s {
            let e = bands.entry(n.clone()).or_default();
            e.0 = e.0.max(v);
            e.1 += v / censuses;
        }
    }
    bands
}

fn band<'a>(v: &'a Value, name: &str) -> &'a Value {
    v["bands"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["name"] == name)
        .unwrap_or_else(|| panic!("no band {name}"))
}

#[test]
fn a_leak_and_its_fix_are_the_files_own_numbers() {
    let v = json(&[
        "--compare",
        "compare/Leak-hc.hp",
        "compare/LeakFixed-hc.hp",
        "--summary=json",
    ]);
    assert_eq!(v["format"], "hpgraph-compare");
    let (before, after) = (
        read_hp("compare/Leak-hc.hp"),
        read_hp("compare/LeakFixed-hc.hp"),
    );
    for (name, (peak, mean)) in &before {
        let b = band(&v, name);
        assert_eq!(b["before"]["peak"].as_f64().unwrap(), *peak, "{name}");
        assert_eq!(
            b["before"]["mean"].as_f64().unwrap(),
            mean.round(),
            "{name}"
        );
        assert!(b["before"]["peak"].is_i64(), "bytes are integers");
    }
    for (name, (peak, _)) in &after {
        assert_eq!(
            band(&v, name)["after"]["peak"].as_f64().unwrap(),
            *peak,
            "{name}"
        );
    }
    // The leak's three bands shrank to almost nothing; the runtime's own did not move.
    for leak in ["mean.step/mean.(...)/...", "main/Main.CAF"] {
        assert_eq!(band(&v, leak)["status"], "shrank", "{leak}");
    }
    assert_eq!(band(&v, "MAIN")["status"], "unchanged");
    let peak = |side: &str| v[side]["peak"].as_f64().unwrap();
    let total = |m: &HashMap<String, (f64, f64)>| m.values().map(|b| b.0).sum::<f64>();
    assert!(peak("before") <= total(&before) && peak("after") <= total(&after));
    assert!(v["change"]["peak_percent"].as_f64().unwrap() < -99.0);
}

#[test]
fn the_hp_file_and_eventlog_of_one_run_compare_unchanged() {
    let v = json(&[
        "--compare",
        "compare/Leak-hc.hp",
        "compare/Leak-hc.eventlog",
        "--summary=json",
    ]);
    let bands = v["bands"].as_array().unwrap();
    // Every band of the .hp file, its cut names standing for the eventlog's whole ones.
    assert_eq!(bands.len(), read_hp("compare/Leak-hc.hp").len());
    for b in bands {
        assert_eq!(b["status"], "unchanged", "{b}");
        assert_eq!(b["before"]["peak"], b["after"]["peak"], "{b}");
        assert_eq!(b["before"]["mean"], b["after"]["mean"], "{b}");
    }
}

#[test]
fn csv_and_json_carry_the_summarys_numbers() {
    let args = [
        "--compare",
        "compare/Leak-hc.eventlog",
        "compare/LeakFixed-hc.hp",
    ];
    let summary = json(&[&args[..], &["--summary=json"]].concat());
    let file = json(&[&args[..], &["-o", "-", "--format", "json"]].concat());
    assert_eq!(summary, file);
    let csv = run(&[&args[..], &["-o", "-", "--format", "csv"]].concat());
    let csv = String::from_utf8(csv.stdout).unwrap();
    let mut lines = csv.lines();
    assert_eq!(
        lines.next().unwrap(),
        "band,status,before_peak,before_mean,after_peak,after_mean,peak_change,mean_change"
    );
    for line in lines {
        let cells: Vec<&str> = line.split(',').collect();
        let name = cells[..cells.len() - 7].join(",");
        let name = name.trim_matches('"');
        let b = band(&summary, name);
        assert_eq!(cells[cells.len() - 7], b["status"].as_str().unwrap());
        let before_peak = cells[cells.len() - 6];
        assert_eq!(
            before_peak,
            b["before"]["peak"]
                .as_i64()
                .map_or(String::new(), |p| p.to_string())
        );
    }
    let text = run(&[&args[..], &["--summary"]].concat());
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(
        text.contains("shrank") && text.contains("mean.step/mean.(...)/..."),
        "{text}"
    );
}

#[test]
fn the_picture_has_both_runs_one_colour_per_band_in_every_format() {
    let dir = Scratch::new("compare-picture");
    let (b, a) = (
        fixtures().join("compare/Leak-hc.hp"),
        fixtures().join("compare/LeakFixed-hc.eventlog"),
    );
    let (b, a) = (b.to_str().unwrap(), a.to_str().unwrap());
    for ext in ["ps", "eps", "svg", "pdf", "png"] {
        // -t0: every band, so that small ones show in both runs.
        let out = hpgraph(
            &dir.0,
            &["--compare", b, a, "-c", "-t0", "--format", ext],
            None,
        );
        assert!(
            out.status.success(),
            "{ext}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let file = dir.path(&format!("Leak-hc-vs-LeakFixed-hc.{ext}"));
        assert!(std::fs::metadata(&file).unwrap().len() > 1000, "{ext}");
    }
    let svg = std::fs::read_to_string(dir.path("Leak-hc-vs-LeakFixed-hc.svg")).unwrap();
    let texts: Vec<String> = svg_texts(&svg).into_iter().map(|t| t.text).collect();
    let has = |what: &str| texts.iter().any(|t| t.contains(what));
    assert!(has("before: ") && has("after: "), "{texts:?}");
    assert!(
        has("mean changed most: mean.step/mean.(...)/..."),
        "the call-outs"
    );
    // A band in both runs has one fill.
    let mut fills: HashMap<String, Vec<String>> = HashMap::new();
    for (name, fill) in titled_fills(&svg) {
        fills.entry(name).or_default().push(fill);
    }
    let both = fills.get("MAIN").expect("MAIN in both runs");
    assert_eq!(both.len(), 2);
    assert_eq!(both[0], both[1]);
    // Every band in both runs, for both kinds of input and both palettes' colours: one
    // fill wherever it is drawn (#58: THUNK_1_0 was salmon above and cyan below).
    let ev = |name: &str| fixtures().join(name).display().to_string();
    for (before, after) in [
        (
            ev("compare/Leak-hc.eventlog"),
            ev("compare/LeakFixed-hc.eventlog"),
        ),
        (ev("compare/Leak-hc.hp"), ev("compare/LeakFixed-hc.hp")),
        (
            ev("eventlog/Leak-hT.eventlog"),
            ev("eventlog/MapBuild-hT.eventlog"),
        ),
    ] {
        for palette in [&["-c"][..], &["--palette", "tableau10"], &[]] {
            let mut args = vec!["--compare", &before, &after, "-t0", "-o", "all.svg"];
            args.extend_from_slice(palette);
            let out = hpgraph(&dir.0, &args, None);
            crate::common::assert_ok(&out);
            let svg = std::fs::read_to_string(dir.path("all.svg")).unwrap();
            let mut fills: HashMap<String, Vec<String>> = HashMap::new();
            for (name, fill) in titled_fills(&svg) {
                fills.entry(name).or_default().push(fill);
            }
            assert!(
                fills.values().any(|f| f.len() >= 2),
                "{before}: no band in both runs"
            );
            for (name, f) in &fills {
                assert!(
                    f.windows(2).all(|w| w[0] == w[1]),
                    "{before} {palette:?}: {name} is drawn in {f:?}"
                );
            }
        }
    }
    // Normalised time: both graphs span 0 to 100 percent.
    let out = hpgraph(
        &dir.0,
        &[
            "--compare",
            b,
            a,
            "--compare-time",
            "normalised",
            "-o",
            "n.svg",
        ],
        None,
    );
    crate::common::assert_ok(&out);
    let svg = std::fs::read_to_string(dir.path("n.svg")).unwrap();
    assert!(
        svg_texts(&svg)
            .iter()
            .any(|t| t.text.contains("% of the run"))
    );
}

#[test]
fn what_cannot_be_compared_is_refused() {
    let one = run(&["--compare", "compare/Leak-hc.hp"]);
    assert_eq!(one.status.code(), Some(2), "one run");
    let three = run(&[
        "--compare",
        "compare/Leak-hc.hp",
        "compare/Leak-hc.hp",
        "compare/Leak-hc.hp",
    ]);
    assert_eq!(three.status.code(), Some(2), "three runs");
    let hp = run(&[
        "--compare",
        "compare/Leak-hc.hp",
        "compare/Leak-hc.eventlog",
        "-o",
        "x.hp",
    ]);
    assert_eq!(hp.status.code(), Some(2), ".hp output");
    // Runs in different units.
    let dir = Scratch::new("compare-units");
    let text = std::fs::read_to_string(fixtures().join("compare/Leak-hc.hp")).unwrap();
    std::fs::write(
        dir.path("words.hp"),
        text.replace("VALUE_UNIT \"bytes\"", "VALUE_UNIT \"words\""),
    )
    .unwrap();
    let out = hpgraph(
        &dir.0,
        &[
            "--compare",
            fixtures().join("compare/Leak-hc.hp").to_str().unwrap(),
            "words.hp",
            "--summary",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("VALUE_UNIT") && err.contains("words"), "{err}");
}

/// A binary PPM's size and its RGB bytes (poppler's `pdftoppm` writes `P6`).
fn ppm(bytes: &[u8]) -> (usize, usize, &[u8]) {
    let (magic, w, h, pixels) = common::netpbm(bytes);
    assert_eq!(magic, "P6");
    (w, h, pixels)
}

/// The PDF of a comparison is its SVG's picture, colours and places alike: both drawn
/// by others (the PDF by poppler, the SVG through librsvg's PDF), at most 1% of the
/// pixels differ in colour. With the SVG's one fill per band (read above), the PDF's
/// bands have one colour in both runs too.
#[test]
fn the_pdf_of_a_comparison_is_its_svgs_picture() {
    if !common::have("pdftoppm", &["-v"]) || !common::have("rsvg-convert", &["--version"]) {
        return;
    }
    let dir = Scratch::new("compare-pdf");
    let (b, a) = (
        fixtures().join("compare/Leak-hc.eventlog"),
        fixtures().join("compare/LeakFixed-hc.eventlog"),
    );
    let (b, a) = (b.to_str().unwrap(), a.to_str().unwrap());
    for out in ["c.pdf", "c.svg"] {
        let args = [
            "--compare",
            b,
            a,
            "-t0",
            "--palette",
            "tableau10",
            "-o",
            out,
        ];
        crate::common::assert_ok(&hpgraph(&dir.0, &args, None));
    }
    let tool = |cmd: &str, args: &[&str]| {
        let ok = std::process::Command::new(cmd)
            .current_dir(&dir.0)
            .args(args)
            .status()
            .unwrap();
        assert!(ok.success(), "{cmd} {args:?}");
    };
    tool("rsvg-convert", &["-f", "pdf", "-o", "s.pdf", "c.svg"]);
    for (pdf, stem) in [("c.pdf", "ours"), ("s.pdf", "svg")] {
        tool("pdftoppm", &["-r", "72", "-singlefile", pdf, stem]);
    }
    let (ours, svg) = (
        std::fs::read(dir.path("ours.ppm")).unwrap(),
        std::fs::read(dir.path("svg.ppm")).unwrap(),
    );
    let ((pw, ph, p), (qw, qh, q)) = (ppm(&ours), ppm(&svg));
    // The two round the page to whole pixels apart: a pixel at most.
    assert!(
        pw.abs_diff(qw) <= 1 && ph.abs_diff(qh) <= 1,
        "{pw}x{ph} and {qw}x{qh}"
    );
    let (w, h) = (pw.min(qw), ph.min(qh));
    let at = |img: &[u8], width: usize, x: usize, y: usize| -> [u8; 3] {
        let i = (y * width + x) * 3;
        [img[i], img[i + 1], img[i + 2]]
    };
    let (mut differ, mut coloured) = (0, 0);
    for (x, y) in (0..h).flat_map(|y| (0..w).map(move |x| (x, y))) {
        let (c, d) = (at(p, pw, x, y), at(q, qw, x, y));
        differ += usize::from(c.iter().zip(d).any(|(a, b)| a.abs_diff(b) > 48));
        coloured += usize::from(c.iter().any(|&v| v < 200));
    }
    assert!(
        coloured > w * h / 10,
        "the bands are drawn ({coloured} pixels)"
    );
    assert!(differ * 100 <= w * h, "{differ} of {} pixels differ", w * h);
}

/// Two runs that count different things are refused in every output, the kinds named,
/// as pprof refuses profiles of different sample types: a census's live bytes and a
/// ticky interval's allocated bytes share units (bytes over seconds) but not a meaning,
/// nor do a report's allocation over the run and a census's live bytes. A condition
/// over them is not judged: the run fails, as it does when the units differ.
#[test]
fn runs_of_different_kinds_are_refused_with_the_kinds_named() {
    let heap = "compare/Leak-hc.hp";
    let ticky = fixtures().join("ticky/Run-lT-ghc-9.6.6.eventlog");
    let ticky = ticky.to_str().unwrap();
    let report = fixtures().join("prof/ghc-9.6.6/MapFib-P.prof");
    let report = report.to_str().unwrap();
    let live = "a heap profile (bytes live at each census)";
    let allocated = "a ticky-ticky profile (bytes allocated in each interval)";
    let over_the_run = "a cost-centre profile of allocation";
    for (pair, kinds, extra) in [
        ([heap, ticky], [live, allocated], &["--summary"][..]),
        ([ticky, heap], [allocated, live], &["--summary"][..]),
        ([heap, ticky], [live, allocated], &["-o", "c.svg"][..]),
        ([heap, ticky], [live, allocated], &["-o", "c.folded"][..]),
        ([heap, ticky], [live, allocated], &["-o", "c.html"][..]),
        (
            [heap, ticky],
            [live, allocated],
            &["--check", "peak <= +5%", "-o", "c.svg"][..],
        ),
        (
            [heap, report],
            [live, over_the_run],
            &["--measure", "alloc", "--summary"][..],
        ),
    ] {
        let mut args = vec!["--compare", pair[0], pair[1]];
        args.extend_from_slice(extra);
        let out = run(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            matches!(out.status.code(), Some(1 | 2)),
            "{args:?}: exit {:?}: {err}",
            out.status.code()
        );
        assert!(
            out.stdout.is_empty(),
            "{args:?}: wrote {} bytes",
            out.stdout.len()
        );
        let first = err.find(kinds[0]);
        let second = err.find(kinds[1]);
        assert!(
            first.is_some() && second.is_some() && first < second,
            "{args:?}: the kinds are not named in order: {err}"
        );
        assert!(
            err.starts_with("hpgraph: ") && err.contains("different kinds"),
            "{err}"
        );
    }
    // The runtime's statistics are alike in every eventlog: a ticky run's and a heap
    // profile's are compared.
    let stats = run(&["--compare", "compare/Leak-hc.eventlog", ticky, "--stats"]);
    crate::common::assert_ok(&stats);
}
