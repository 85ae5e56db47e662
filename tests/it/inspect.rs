//! `--summary`, CSV and JSON export, filters and the HTML file, checked against numbers
//! computed here from the fixtures' own lines (a few lines of reading below, not
//! hpgraph's parser), and for eventlogs against the `.hp` GHC wrote in the same run.
//! The page's behaviour in a browser is checked by tests/browser/html.mjs.

use crate::common;
use std::collections::HashMap;
use std::fs;
use std::path::PathBuf;

use crate::common::{Scratch, fixtures, hpgraph};
use serde_json::Value;

/// One sample of a `.hp` file as its lines say: time and each name's bytes (summed when a
/// name occurs twice).
struct Sample {
    time: f64,
    values: HashMap<String, f64>,
}

/// The samples and names (in order of first appearance) of a `.hp` file.
fn raw_samples(path: &std::path::Path) -> (Vec<Sample>, Vec<String>) {
    let censuses = common::hp::censuses(path);
    let samples = (censuses.iter())
        .map(|c| Sample {
            time: c.time,
            values: c.summed(|n| n).into_iter().collect(),
        })
        .collect();
    (samples, common::hp::names(&censuses))
}

fn value(s: &Sample, name: &str) -> f64 {
    s.values.get(name).copied().unwrap_or(0.0)
}

fn run_json(args: &[&str]) -> Value {
    let dir = Scratch::new("inspect");
    let out = hpgraph(&dir.0, args, None);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn profiles() -> Vec<PathBuf> {
    let mut all: Vec<PathBuf> = fs::read_dir(fixtures().join("profiles"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "hp"))
        .collect();
    all.sort();
    assert!(all.len() >= 20);
    all
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

#[test]
fn summary_peaks_times_and_means_are_the_files_own() {
    for path in profiles() {
        let (samples, names) = raw_samples(&path);
        let s = run_json(&["--summary=json", path.to_str().unwrap()]);
        let shown = path.display();
        assert_eq!(s["samples"], samples.len(), "{shown}");
        assert_eq!(s["band_count"], names.len(), "{shown}");
        let bands = s["bands"].as_array().unwrap();
        assert_eq!(bands.len(), names.len(), "{shown}");
        for b in bands {
            let name = b["name"].as_str().unwrap();
            let peak = samples.iter().map(|s| value(s, name)).fold(0.0, f64::max);
            let first = samples.iter().find(|s| value(s, name) == peak).unwrap();
            let mean = samples.iter().map(|s| value(s, name)).sum::<f64>() / samples.len() as f64;
            assert_eq!(b["peak"].as_f64().unwrap(), peak, "{shown}: {name}");
            assert_eq!(
                b["peak_time"].as_f64().unwrap(),
                first.time,
                "{shown}: {name}"
            );
            assert!(close(b["mean"].as_f64().unwrap(), mean), "{shown}: {name}");
        }
        let shares: f64 = bands.iter().map(|b| b["share"].as_f64().unwrap()).sum();
        let empty = samples.iter().all(|s| s.values.values().all(|&v| v == 0.0));
        assert!(
            samples.len() < 2 || empty || close(shares, 1.0),
            "{shown}: shares add to {shares}"
        );
        let sorted = bands
            .windows(2)
            .all(|w| w[0]["share"].as_f64() >= w[1]["share"].as_f64());
        assert!(sorted, "{shown}: bands sorted by share");
        let totals: Vec<f64> = samples.iter().map(|s| s.values.values().sum()).collect();
        let peak = totals.iter().copied().fold(0.0, f64::max);
        let at = samples[totals.iter().position(|&t| t == peak).unwrap()].time;
        assert_eq!(s["total"]["peak"].as_f64().unwrap(), peak, "{shown}");
        assert_eq!(s["total"]["peak_time"].as_f64().unwrap(), at, "{shown}");
    }
}

#[test]
fn a_band_still_growing_at_the_end_is_flagged_and_top_limits_the_rows() {
    // A server whose memo cache is never evicted, under GHC 9.0.2 (fixtures/programs).
    let path = fixtures().join("leak/ghc-9.0.2/Cache-hT.hp");
    let (samples, _) = raw_samples(&path);
    let top = run_json(&["--summary=json", "--top", "3", path.to_str().unwrap()]);
    assert_eq!(top["bands"].as_array().unwrap().len(), 3);
    assert_eq!(top["band_count"], 34);
    let s = run_json(&["--summary=json", path.to_str().unwrap()]);
    let growing: Vec<&str> = s["bands"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| b["trend"] == "growing")
        .map(|b| b["name"].as_str().unwrap())
        .collect();
    assert!(!growing.is_empty(), "{s}");
    // Checked from the lines: the program lets its cache go as it ends, a teardown the
    // summary names at the highest census of the last third of the time (at least 80%
    // of the run's highest), after which the heap falls to at most half of it; over the
    // last 60% of the body before it, each growing band ends higher than it starts.
    let total = |s: &Sample| s.values.values().sum::<f64>();
    let end = samples.iter().rposition(|s| total(s) > 0.0).unwrap() + 1;
    let run = &samples[..end];
    let (t0, tn) = (run[0].time, run[end - 1].time);
    let top = (0..end)
        .filter(|&k| run[k].time >= tn - (tn - t0) / 3.0)
        .max_by(|&a, &b| total(&run[a]).total_cmp(&total(&run[b])).then(a.cmp(&b)))
        .unwrap();
    let highest = run.iter().map(total).fold(0.0, f64::max);
    assert!(total(&run[top]) >= 0.8 * highest);
    assert!(total(&run[end - 1]) <= total(&run[top]) / 2.0);
    assert_eq!(s["teardown_from"].as_f64(), Some(run[top].time));
    let body = &run[..=top];
    let since = body[top].time - (body[top].time - t0) * 0.6;
    let part: Vec<&Sample> = body.iter().filter(|s| s.time >= since).collect();
    for name in growing {
        let (first, last) = (part[0], part[part.len() - 1]);
        assert!(value(last, name) > value(first, name), "{name}");
    }
}

#[test]
fn the_summary_table_goes_to_standard_output_plain_off_a_terminal() {
    let dir = Scratch::new("inspect");
    let path = fixtures().join("profiles/Leak-hc.hp");
    let out = hpgraph(&dir.0, &["--summary", path.to_str().unwrap()], None);
    crate::common::assert_ok(&out);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains('\x1b'), "no colour into a pipe");
    let header = text.lines().find(|l| l.contains("share")).unwrap();
    assert!(
        header.contains("peak") && header.ends_with("band"),
        "{header}"
    );
    assert!(text.contains("total of 11 bands"), "{text}");
    assert!(text.contains("(261)mean.step/mean.(...)/..."), "{text}");
    // Nothing written beside it.
    assert_eq!(fs::read_dir(&dir.0).unwrap().count(), 0);
}

/// A CSV document's rows, fields unquoted as RFC 4180 says.
fn read_csv(text: &str) -> Vec<Vec<String>> {
    let (mut rows, mut row, mut field) = (Vec::new(), Vec::new(), String::new());
    let mut chars = text.chars().peekable();
    let mut quoted = false;
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') => quoted = true,
            (false, ',') => row.push(std::mem::take(&mut field)),
            (false, '\r') => {}
            (false, '\n') => {
                row.push(std::mem::take(&mut field));
                rows.push(std::mem::take(&mut row));
            }
            (false, c) => field.push(c),
        }
    }
    rows
}

fn csv(args: &[&str]) -> Vec<Vec<String>> {
    let dir = Scratch::new("inspect");
    let mut all = args.to_vec();
    all.extend(["-o", "data.csv"]);
    let out = hpgraph(&dir.0, &all, None);
    crate::common::assert_ok(&out);
    let bytes = fs::read(dir.path("data.csv")).unwrap();
    assert!(bytes.ends_with(b"\r\n"), "lines end in CRLF");
    read_csv(&String::from_utf8(bytes).unwrap())
}

#[test]
fn every_csv_cell_is_the_files_own_number() {
    for path in profiles() {
        let (samples, names) = raw_samples(&path);
        let rows = csv(&[path.to_str().unwrap()]);
        let shown = path.display();
        let mut header = vec!["time".to_string()];
        // A name a spreadsheet would take for a formula (GHC's `->IO`) starts with `'`
        // (docs/inspect.md).
        header.extend(names.iter().map(|n| {
            if n.starts_with(['=', '+', '-', '@']) {
                format!("'{n}")
            } else {
                n.clone()
            }
        }));
        assert_eq!(rows[0], header, "{shown}");
        assert_eq!(rows.len() - 1, samples.len(), "{shown}");
        for (row, s) in rows[1..].iter().zip(&samples) {
            assert_eq!(row[0].parse::<f64>().unwrap(), s.time, "{shown}");
            for (cell, name) in row[1..].iter().zip(&names) {
                assert_eq!(
                    cell.parse::<f64>().unwrap(),
                    value(s, name),
                    "{shown}: {name}"
                );
            }
        }
    }
}

#[test]
fn names_with_commas_and_quotes_are_quoted() {
    let dir = Scratch::new("inspect");
    let hp = "JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n\
              BEGIN_SAMPLE 0.5\n(1)a,b\t10\nsay \"hi\"\t20\nEND_SAMPLE 0.5\n";
    fs::write(dir.path("q.hp"), hp).unwrap();
    let out = hpgraph(&dir.0, &["q.hp", "-o", "q.csv"], None);
    crate::common::assert_ok(&out);
    let text = fs::read_to_string(dir.path("q.csv")).unwrap();
    assert_eq!(text, "time,\"(1)a,b\",\"say \"\"hi\"\"\"\r\n0.5,10,20\r\n");
}

#[test]
fn filters_choose_the_bands_and_samples_of_the_csv() {
    let path = fixtures().join("profiles/ManyCC-hc.hp");
    let (samples, names) = raw_samples(&path);
    let include = regex::Regex::new("producer0[0-4]|main").unwrap();
    let exclude = regex::Regex::new("CAF").unwrap();
    let (from, to) = (samples[2].time, samples[samples.len() - 3].time);
    let rows = csv(&[
        path.to_str().unwrap(),
        "--include",
        "producer0[0-4]",
        "--include",
        "main",
        "--exclude",
        "CAF",
        "--from",
        &from.to_string(),
        "--to",
        &to.to_string(),
    ]);
    let kept: Vec<&Sample> = samples
        .iter()
        .filter(|s| s.time >= from && s.time <= to)
        .collect();
    // Bands that match, and have a value in the window, in order of first appearance.
    let wanted: Vec<&String> = names
        .iter()
        .filter(|n| include.is_match(n) && !exclude.is_match(n))
        .filter(|n| kept.iter().any(|s| s.values.contains_key(*n)))
        .collect();
    assert!(wanted.len() >= 2 && wanted.len() < names.len());
    assert_eq!(rows[0][1..].iter().collect::<Vec<_>>(), wanted);
    assert_eq!(rows.len() - 1, kept.len());
    for (row, s) in rows[1..].iter().zip(&kept) {
        assert_eq!(row[0].parse::<f64>().unwrap(), s.time);
        for (cell, name) in row[1..].iter().zip(&wanted) {
            assert_eq!(cell.parse::<f64>().unwrap(), value(s, name));
        }
    }
}

#[test]
fn filters_that_leave_nothing_fail_and_write_nothing() {
    let dir = Scratch::new("inspect");
    let path = fixtures().join("profiles/Leak-hc.hp");
    let p = path.to_str().unwrap();
    for (args, says) in [
        (
            vec![p, "--include", "nothing-like-this"],
            "no band name passes",
        ),
        (vec![p, "--from", "1000"], "no sample between --from 1000"),
    ] {
        let out = hpgraph(&dir.0, &args, None);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says) && err.contains("Leak-hc.hp"), "{err}");
        assert_eq!(fs::read_dir(&dir.0).unwrap().count(), 0, "{args:?}");
    }
    let bad = hpgraph(&dir.0, &[p, "--include", "("], None);
    assert_eq!(bad.status.code(), Some(2), "a bad pattern is a usage error");
}

#[test]
fn explicit_band_limits_apply_to_the_data_as_to_the_picture() {
    let path = fixtures().join("profiles/ManyCC-hc.hp");
    let rows = csv(&[path.to_str().unwrap(), "-m5", "-t0"]);
    assert_eq!(rows[0].len(), 1 + 5);
    assert_eq!(rows[0].iter().filter(|n| *n == "OTHER").count(), 1);
    let (samples, _) = raw_samples(&path);
    for (row, s) in rows[1..].iter().zip(&samples) {
        let sum: f64 = row[1..].iter().map(|c| c.parse::<f64>().unwrap()).sum();
        let all: f64 = s.values.values().sum();
        assert!(close(sum, all), "the bands and OTHER hold every byte");
    }
}

#[test]
fn json_export_holds_the_profile_in_its_documented_layout() {
    let path = fixtures().join("eventlog/Markers-hc.eventlog");
    let dir = Scratch::new("inspect");
    let out = hpgraph(&dir.0, &[path.to_str().unwrap(), "-o", "m.json"], None);
    crate::common::assert_ok(&out);
    let j: Value = serde_json::from_slice(&fs::read(dir.path("m.json")).unwrap()).unwrap();
    assert_eq!(j["format"], "hpgraph-profile");
    assert_eq!(j["version"], 1);
    assert_eq!(j["value_unit"], "bytes");
    let times = j["times"].as_array().unwrap();
    for b in j["bands"].as_array().unwrap() {
        let values = b["values"].as_array().unwrap();
        assert_eq!(values.len(), times.len());
        assert!(values.iter().all(|v| v.is_u64()), "exact byte counts");
    }
    let marks: Vec<&str> = j["marks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap())
        .collect();
    // The texts fixtures/programs/Markers.hs passes to traceMarkerIO.
    assert_eq!(
        marks,
        [
            "start",
            "built 20000 Kätzchen",
            "weighed",
            "done (twice the work)"
        ]
    );
    assert!(j["heap"]["size"].as_array().is_some_and(|s| !s.is_empty()));

    // The eventlog's samples are its .hp's non-empty ones: the same numbers.
    let (samples, _) = raw_samples(&fixtures().join("eventlog/Markers-hc.hp"));
    let live: Vec<&Sample> = samples.iter().filter(|s| !s.values.is_empty()).collect();
    assert_eq!(live.len(), times.len());
    for b in j["bands"].as_array().unwrap() {
        let name = b["name"].as_str().unwrap();
        let in_hp = |s: &Sample| {
            // The .hp prefixes (N) and may cut a stack; the eventlog does neither.
            s.values
                .iter()
                .filter(|(n, _)| {
                    *n == name || n.split_once(')').is_some_and(|(_, rest)| rest == name)
                })
                .map(|(_, v)| *v)
                .sum::<f64>()
        };
        if !live
            .iter()
            .any(|s| s.values.keys().any(|n| n.ends_with(name)))
        {
            continue; // cut in the .hp: not comparable by name
        }
        for (v, s) in b["values"].as_array().unwrap().iter().zip(&live) {
            assert_eq!(v.as_f64().unwrap(), in_hp(s), "{name}");
        }
    }
}

/// A profile whose JOB and names carry terminal escape sequences and spreadsheet formulas.
const HOSTILE_TEXT: &[u8] = b"JOB \"\x1b]0;retitled\x07job\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\n\
VALUE_UNIT \"bytes\"\nBEGIN_SAMPLE 0\n=HYPERLINK(\"http://example.invalid\")\t10\n\x1b[2Jcleared\t20\n\
+cmd|' /C calc'!A0\t5\n@SUM(A1)\t7\nplain\t3\nEND_SAMPLE 0\n";

#[test]
fn the_summary_shows_control_bytes_rather_than_sending_them_to_the_terminal() {
    let dir = Scratch::new("summary-controls");
    for args in [&["--summary", "-"][..], &["--summary=json", "-"]] {
        let out = hpgraph(&dir.0, args, Some(HOSTILE_TEXT));
        crate::common::assert_ok(&out);
        assert!(
            !out.stdout.iter().any(|&b| b == 0x1b || b == 0x07),
            "{args:?}: raw control bytes in {}",
            String::from_utf8_lossy(&out.stdout)
        );
        let text = String::from_utf8_lossy(&out.stdout);
        // Shown as the error messages show input bytes (text), or as JSON escapes.
        assert!(
            text.contains("\\x1b[2Jcleared") || text.contains("\\u001b[2Jcleared"),
            "{text}"
        );
    }
}

#[test]
fn csv_cells_a_spreadsheet_would_run_as_formulas_are_text() {
    let dir = Scratch::new("csv-formulas");
    let out = hpgraph(
        &dir.0,
        &["-", "-o", "-", "--format", "csv"],
        Some(HOSTILE_TEXT),
    );
    crate::common::assert_ok(&out);
    let csv = String::from_utf8(out.stdout).unwrap();
    let header = csv.lines().next().unwrap();
    // RFC 4180 fields, split by hand: every cell that starts with = + - @ is quoted and
    // starts with ' (OWASP's CSV injection advice); others are as they were.
    let mut cells = Vec::new();
    let (mut cell, mut quoted) = (String::new(), false);
    for c in header.chars() {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => cells.push(std::mem::take(&mut cell)),
            c => cell.push(c),
        }
    }
    cells.push(cell);
    for c in &cells {
        assert!(!c.starts_with(['=', '+', '-', '@']), "a formula cell: {c}");
    }
    for want in [
        "'=HYPERLINK(http://example.invalid)",
        "'+cmd|' /C calc'!A0",
        "'@SUM(A1)",
        "plain",
        "time",
    ] {
        assert!(cells.iter().any(|c| c == want), "{want} not in {cells:?}");
    }
}

#[test]
fn sort_growth_puts_the_steepest_band_on_top_and_keeps_it_under_m() {
    // Slopes by construction: steep +100/s, rising +10/s, flat 0, falling -10/s.
    let dir = Scratch::new("sort-growth");
    let mut hp =
        String::from("JOB \"g\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n");
    for i in 0..20 {
        hp += &format!(
            "BEGIN_SAMPLE {i}\nrising\t{}\nfalling\t{}\nflat\t1500\nsteep\t{}\nEND_SAMPLE {i}\n",
            1000 + 10 * i,
            2000 - 10 * i,
            100 * i + 1
        );
    }
    fs::write(dir.path("g.hp"), hp).unwrap();
    let header = |args: &[&str]| {
        let out = hpgraph(&dir.0, args, None);
        crate::common::assert_ok(&out);
        let text = fs::read_to_string(dir.path("g.csv")).unwrap();
        text.lines().next().unwrap().to_string()
    };
    // The selection's bands, bottom first: the steepest last, on top.
    assert_eq!(
        header(&["--sort", "growth", "-m10", "g.hp", "-o", "g.csv"]),
        "time,falling,flat,rising,steep"
    );
    // With a band limit the fastest-growing keep their own bands.
    assert_eq!(
        header(&["--sort=growth", "-m3", "g.hp", "-o", "g.csv"]),
        "time,OTHER,rising,steep"
    );
    let out = hpgraph(&dir.0, &["--sort", "size", "g.hp"], None);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn del_c1_and_bidi_controls_reach_no_terminal_from_any_printer() {
    // DEL, CSI as one C1 character (U+009B: `ESC [` to a terminal), a right-to-left
    // override and a first-strong isolate, in the JOB and in a band name.
    let evil = "a\u{7f}b\u{9b}2Jc\u{202e}d\u{2068}e";
    let hp = format!(
        "JOB \"{evil}\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n\
         BEGIN_SAMPLE 0\n{evil}\t10\nplain\t3\nEND_SAMPLE 0\nBEGIN_SAMPLE 1\n{evil}\t12\nEND_SAMPLE 1\n"
    );
    let dir = Scratch::new("summary-c1");
    let runs: [&[&str]; 3] = [
        &["--summary", "-"],
        &["--summary=json", "-"],
        &["-", "-o", "-", "--format", "json"],
    ];
    for args in runs {
        let out = hpgraph(&dir.0, args, Some(hp.as_bytes()));
        crate::common::assert_ok(&out);
        let text = String::from_utf8(out.stdout).unwrap();
        for bad in ['\u{7f}', '\u{9b}', '\u{202e}', '\u{2068}'] {
            assert!(
                !text.contains(bad),
                "{args:?}: raw U+{:04X} in {text}",
                bad as u32
            );
        }
        if args.iter().any(|a| a.contains("json")) {
            // The same strings to a JSON parser.
            let v: serde_json::Value = serde_json::from_str(&text).unwrap();
            assert_eq!(
                v["job"].as_str(),
                Some(evil),
                "{args:?}: the JOB survives as data"
            );
        }
    }
}
