//! An eventlog's cost-centre samples (`+RTS -p -l-au`, and `-p -hc -l`: samples beside a
//! heap profile) weighed stack by stack as ghc-events reads them: each fixture eventlog
//! of `fixtures/prof/ghc-*` has beside it (`.samples`) ghc-events' reading of its cost
//! centres and samples (scripts/samples-oracle.hs, run when
//! scripts/regen-prof-fixtures.sh made the fixture), never hpgraph's.

use std::collections::BTreeMap;

use crate::common::{Scratch, fixtures, hpgraph, samples_oracle as oracle};

/// The fixture runs: a folder, and the eventlogs in it with the arguments that read
/// their samples. Besides MapFib of three GHCs, a real program (pandoc's library,
/// fixtures/prof/Pandoc.hs, GHC 9.0.2).
const RUNS: [(&str, &str, &[&str]); 7] = [
    ("ghc-9.0.2", "MapFib-samples", &[]),
    ("ghc-9.6.6", "MapFib-samples", &[]),
    ("ghc-9.10.3", "MapFib-samples", &[]),
    // Beside a heap profile, the samples are read when a measure asks for them.
    ("ghc-9.0.2", "MapFib-samples-hc", &["--measure", "time"]),
    ("ghc-9.6.6", "MapFib-samples-hc", &["--measure", "time"]),
    ("ghc-9.10.3", "MapFib-samples-hc", &["--measure", "time"]),
    ("pandoc-ghc-9.0.2", "Pandoc-samples", &[]),
];

fn counts<'a>(samples: impl Iterator<Item = &'a (u64, String)>) -> BTreeMap<String, u64> {
    let mut map = BTreeMap::new();
    for (_, stack) in samples {
        *map.entry(stack.clone()).or_insert(0) += 1;
    }
    map
}

/// hpgraph's folded export of `eventlog` with `args`, as a map.
fn folded(eventlog: &std::path::Path, args: &[&str]) -> BTreeMap<String, u64> {
    let scratch = Scratch::new("samples");
    let out = scratch.path("s.folded");
    let mut all = vec![eventlog.to_str().unwrap(), "-o", out.to_str().unwrap()];
    all.extend_from_slice(args);
    let o = hpgraph(&scratch.0, &all, None);
    assert!(
        o.status.success(),
        "{all:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let mut map = BTreeMap::new();
    for line in std::fs::read_to_string(out).unwrap().lines() {
        let (stack, n) = line.rsplit_once(' ').unwrap();
        *map.entry(stack.to_string()).or_insert(0) += n.parse::<u64>().unwrap();
    }
    map
}

#[test]
fn samples_weigh_each_stack_as_ghc_events_reads_them_over_the_run_and_a_window() {
    for (ghc, name, args) in RUNS {
        {
            let dir = fixtures().join("prof").join(ghc);
            let eventlog = dir.join(format!("{name}.eventlog"));
            let samples = oracle(&dir.join(format!("{name}.samples")));
            assert!(
                samples.len() > 100,
                "{ghc} {name}: {} samples",
                samples.len()
            );
            let theirs = counts(samples.iter());
            assert!(theirs.len() >= 4, "{ghc} {name}: {theirs:?}");
            assert_eq!(folded(&eventlog, args), theirs, "{ghc} {name}: the run");
            // A window from a quarter to three quarters of the samples, its edges halfway
            // between two samples' times.
            let mut times: Vec<u64> = samples.iter().map(|s| s.0).collect();
            times.sort_unstable();
            let edge = |k: usize| (times[k] + times[k + 1]) / 2;
            let (from, to) = (edge(times.len() / 4), edge(times.len() * 3 / 4));
            let window = counts(samples.iter().filter(|s| s.0 >= from && s.0 <= to));
            let (f, t) = (
                format!("{}", from as f64 / 1e9),
                format!("{}", to as f64 / 1e9),
            );
            let mut args = args.to_vec();
            args.extend(["--from", &f, "--to", &t]);
            assert_eq!(folded(&eventlog, &args), window, "{ghc} {name}: {f} to {t}");
            // The summary says which stretch it weighs, and what ghc-events counts in it.
            let mut summary = vec![eventlog.to_str().unwrap(), "--summary=json"];
            summary.extend(&args);
            let out = crate::common::command(env!("CARGO_MANIFEST_DIR"))
                .args(&summary)
                .output()
                .unwrap();
            let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            let within: u64 = window.values().sum();
            assert_eq!(
                json["total"].as_u64(),
                Some(within),
                "{ghc} {name}: {f} to {t}"
            );
            assert_eq!(json["window"][0].as_f64(), Some(f.parse().unwrap()));
        }
    }
}

#[test]
fn an_eventlog_with_a_heap_profile_and_samples_draws_the_heap_unless_asked() {
    let dir = fixtures().join("prof/ghc-9.6.6");
    let scratch = Scratch::new("samples-heap");
    let eventlog = dir.join("MapFib-samples-hc.eventlog");
    let e = eventlog.to_str().unwrap();
    let o = hpgraph(&scratch.0, &[e, "-o", "heap.folded"], None);
    crate::common::assert_ok(&o);
    let heap = std::fs::read_to_string(scratch.path("heap.folded")).unwrap();
    // The heap's stacks weigh bytes: GHC's .hp names them without modules.
    assert!(!heap.contains("Main.step"), "{heap}");
    // Samples count time only; asking them for allocation says so, and writes nothing.
    let o = hpgraph(&scratch.0, &[e, "--measure", "alloc", "-o", "a.svg"], None);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("count time only"), "{err}");
    assert!(!scratch.path("a.svg").exists());
}

/// One eventlog with a heap profile and samples gives one page of both: the heap's bands,
/// and the samples of the same run (those of a `--from`/`--to` window when one is asked)
/// weighing what ghc-events reads there. `tests/browser/beside.mjs` follows a window
/// chosen on either into the other.
#[test]
fn a_heap_page_carries_the_samples_of_the_same_run_and_window() {
    for ghc in ["ghc-9.0.2", "ghc-9.6.6", "ghc-9.10.3"] {
        let dir = fixtures().join("prof").join(ghc);
        let e = dir.join("MapFib-samples-hc.eventlog");
        let samples = oracle(&dir.join("MapFib-samples-hc.samples"));
        let mut times: Vec<u64> = samples.iter().map(|s| s.0).collect();
        times.sort_unstable();
        let edge = |k: usize| (times[k] + times[k + 1]) / 2;
        let (from, to) = (edge(times.len() / 3), edge(times.len() * 2 / 3));
        let (f, t) = (
            format!("{}", from as f64 / 1e9),
            format!("{}", to as f64 / 1e9),
        );
        let scratch = Scratch::new("samples-page");
        let windows: [(&[&str], u64); 2] = [
            (&[], samples.len() as u64),
            (
                &["--from", &f, "--to", &t],
                samples.iter().filter(|s| s.0 >= from && s.0 <= to).count() as u64,
            ),
        ];
        for (args, want) in windows {
            let mut all = vec![e.to_str().unwrap(), "-o", "p.html"];
            all.extend(args);
            let o = hpgraph(&scratch.0, &all, None);
            crate::common::assert_ok(&o);
            let page = std::fs::read_to_string(scratch.path("p.html")).unwrap();
            assert!(
                page.contains("<section id=\"samples\""),
                "{ghc}: no samples' part"
            );
            let data = &page[page.find("id=\"hpgraph-data\">").unwrap() + 18..];
            let data: serde_json::Value =
                serde_json::from_str(&data[..data.find("</script>").unwrap()]).unwrap();
            assert!(
                !data["bands"].as_array().unwrap().is_empty(),
                "{ghc}: no heap"
            );
            assert!(
                data["tree"].is_null(),
                "{ghc}: the heap's page is not a cost page"
            );
            let tree = &data["cost_samples"]["tree"];
            assert_eq!(
                tree["measures"][0]["total"].as_u64(),
                Some(want),
                "{ghc} {args:?}"
            );
            let roots: u64 = (tree["roots"].as_array().unwrap().iter())
                .map(|r| {
                    tree["inherited"][0][r.as_u64().unwrap() as usize]
                        .as_u64()
                        .unwrap()
                })
                .sum();
            assert_eq!(roots, want, "{ghc} {args:?}: the tree's roots");
        }
    }
}

/// One bar of the samples' panel as its title says it: the cost centre, its samples,
/// and the stretch's times as written (seconds, rounded).
fn panel_bars(svg: &str) -> Vec<(String, u64, f64, f64)> {
    (crate::common::titled_fills(svg).into_iter())
        .filter_map(|(title, _)| {
            let (name, rest) = title.rsplit_once(": ")?;
            let (n, rest) = rest.split_once(" samples from ")?;
            let (from, to) = rest.strip_suffix(" s")?.split_once(" s to ")?;
            Some((
                name.into(),
                n.parse().ok()?,
                from.parse().ok()?,
                to.parse().ok()?,
            ))
        })
        .collect()
}

/// A modern figure of a `+RTS -p -hc -l` eventlog has the run's samples in a panel under
/// its heap graph (#60): named as such, every sample ghc-events reads counted once, each
/// cost centre named with the samples that ran in it, and each stretch holding the
/// samples taken in it (within the rounding of the times its title writes).
#[test]
fn a_figure_of_heap_and_samples_has_the_samples_panel_ghc_events_counts() {
    for ghc in ["ghc-9.0.2", "ghc-9.6.6", "ghc-9.10.3"] {
        let dir = fixtures().join("prof").join(ghc);
        let samples = oracle(&dir.join("MapFib-samples-hc.samples"));
        let scratch = Scratch::new("samples-panel");
        let e = dir.join("MapFib-samples-hc.eventlog");
        let o = hpgraph(&scratch.0, &[e.to_str().unwrap(), "-o", "s.svg"], None);
        crate::common::assert_ok(&o);
        let svg = std::fs::read_to_string(scratch.path("s.svg")).unwrap();
        let texts: Vec<String> = (crate::common::svg_texts(&svg).into_iter())
            .map(|t| t.text.replace("&#39;", "'"))
            .collect();
        let bars = panel_bars(&svg);
        assert_eq!(
            bars.iter().map(|b| b.1).sum::<u64>(),
            samples.len() as u64,
            "{ghc}: every sample once"
        );
        // Each named cost centre's samples: those whose innermost frame it is.
        let running = |stack: &str| stack.rsplit(';').next().unwrap_or("").to_string();
        for (centre, _, _, _) in bars.iter().filter(|b| b.0 != "the rest") {
            let want = samples.iter().filter(|s| running(&s.1) == *centre).count() as u64;
            let got: u64 = bars.iter().filter(|b| b.0 == *centre).map(|b| b.1).sum();
            assert_eq!(got, want, "{ghc}: {centre}");
            assert!(texts.contains(centre), "{ghc}: {centre} not in the key");
        }
        // Each stretch's samples, within the half millisecond its times are rounded to.
        let mut stretches: BTreeMap<(u64, u64), u64> = BTreeMap::new();
        for (_, n, from, to) in &bars {
            let key = ((from * 1e3).round() as u64, (to * 1e3).round() as u64);
            *stretches.entry(key).or_insert(0) += n;
        }
        let count = |a: f64, b: f64| {
            samples
                .iter()
                .filter(|s| (a..b).contains(&(s.0 as f64 / 1e6)))
                .count() as u64
        };
        for (&(from, to), &n) in &stretches {
            let (from, to) = (from as f64, to as f64);
            let (least, most) = (count(from + 0.5, to - 0.5), count(from - 0.5, to + 0.5));
            assert!(
                (least..=most).contains(&n),
                "{ghc}: {n} samples from {from} ms to {to} ms, ghc-events: {least} to {most}"
            );
        }
        assert!(
            stretches.len() >= 20,
            "{ghc}: {} stretches",
            stretches.len()
        );
        // Its name says what it shows, and its scale: the most samples a stretch holds.
        let most = stretches.values().max().unwrap();
        let name = format!(
            "the run's samples ({} in all, at most {most} a stretch)",
            samples.len()
        );
        assert!(texts.contains(&name), "{ghc}: no {name:?} in {texts:?}");
    }
}

/// The PDF says the panel's name too; the PNG has its bars, in the colour the SVG gives the
/// cost centre that ran most, under the graph; and a figure in hp2ps's style (its
/// PostScript, whose bytes are hp2ps's) has no panel.
#[test]
fn the_samples_panel_is_in_the_pdf_and_png_and_never_in_hp2ps_s_picture() {
    let dir = fixtures().join("prof/ghc-9.6.6");
    let e = dir.join("MapFib-samples-hc.eventlog");
    let scratch = Scratch::new("samples-panel-pdf");
    for out in ["s.svg", "s.png"] {
        let o = hpgraph(&scratch.0, &[e.to_str().unwrap(), "-o", out], None);
        crate::common::assert_ok(&o);
    }
    let svg = std::fs::read_to_string(scratch.path("s.svg")).unwrap();
    let fill = (crate::common::titled_fills(&svg).into_iter())
        .find(|(t, _)| t.starts_with("Main.step: "))
        .map(|(_, f)| f)
        .expect("Main.step's bars");
    let rgb: Vec<u8> = (0..3)
        .map(|k| u8::from_str_radix(&fill[1 + 2 * k..3 + 2 * k], 16).unwrap())
        .collect();
    let (w, h, pixels) = crate::common::png_pixels(&std::fs::read(scratch.path("s.png")).unwrap());
    let rows: Vec<usize> = (pixels.iter().enumerate())
        .filter(|(_, p)| p[..3] == rgb[..] && p[3] == 255)
        .map(|(k, _)| k / w)
        .collect();
    assert!(rows.len() > 500, "{} pixels of {fill}", rows.len());
    assert!(
        rows.iter().all(|&r| r > h / 2),
        "the panel's colour only under the graph, in the figure's lower half"
    );
    let o = hpgraph(&scratch.0, &[e.to_str().unwrap(), "-o", "s.ps"], None);
    crate::common::assert_ok(&o);
    let ps = std::fs::read_to_string(scratch.path("s.ps")).unwrap();
    assert!(!ps.contains("samples"), "hp2ps's picture has no panel");
    if !crate::common::have("pdftotext", &["-v"]) {
        eprintln!("pdftotext not installed: the PDF's text is not read");
        return;
    }
    let o = hpgraph(&scratch.0, &[e.to_str().unwrap(), "-o", "s.pdf"], None);
    crate::common::assert_ok(&o);
    let text = std::process::Command::new("pdftotext")
        .args([scratch.path("s.pdf").to_str().unwrap(), "-"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("the run's samples"), "{text}");
    assert!(text.contains("Main.step"), "{text}");
}
