//! Ticky-ticky counters from an eventlog (`ghc -ticky`, `+RTS -lT`): GHC 9.6.6 and
//! 9.10.3 runs of fixtures/programs/Run.hs, each beside ghc-events' reading of it
//! (`.oracle`, scripts/ticky-oracle.hs), and the corpus's older run beside ghc-events'
//! printout. Every counter's totals, and its allocation at every sample, are the
//! oracle's sums.

use std::collections::BTreeMap;
use std::path::Path;

use crate::common::eventlog::{TICKY_BEGIN, TICKY_DEF, TICKY_SAMPLE, Writer};
use crate::common::{Scratch, fixtures, hpgraph, svg_texts};

/// ghc-events' reading: each counter's name and totals, and its allocation per sample.
struct Oracle {
    totals: BTreeMap<String, [u64; 3]>,
    /// Per sample (in order), each counter's allocation where it allocated.
    samples: Vec<BTreeMap<String, u64>>,
}

fn oracle(path: &Path) -> Oracle {
    let text = std::fs::read_to_string(path).unwrap();
    let names: BTreeMap<&str, &str> = (text.lines())
        .filter_map(|l| l.strip_prefix("def\t"))
        .map(|l| l.split_once('\t').unwrap())
        .collect();
    let mut totals: BTreeMap<String, [u64; 3]> = BTreeMap::new();
    let mut samples: Vec<BTreeMap<String, u64>> = Vec::new();
    for line in text.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        match f[0] {
            "begin" => samples.push(BTreeMap::new()),
            "sample" => {
                let name = names[f[1]].to_owned();
                let counts: Vec<u64> = f[2..5].iter().map(|n| n.parse().unwrap()).collect();
                let t = totals.entry(name.clone()).or_default();
                for k in 0..3 {
                    t[k] += counts[k];
                }
                if counts[1] > 0 {
                    let last = samples.last_mut().expect("a sample before its counters");
                    *last.entry(name).or_default() += counts[1];
                }
            }
            _ => {}
        }
    }
    totals.retain(|_, t| *t != [0; 3]);
    Oracle { totals, samples }
}

fn json(dir: &Path, args: &[&str]) -> serde_json::Value {
    let out = hpgraph(dir, args, None);
    crate::common::assert_ok(&out);
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Our summary's counters: name to totals, in the order listed.
fn listed(summary: &serde_json::Value) -> Vec<(String, [u64; 3])> {
    (summary["ticky"].as_array().unwrap().iter())
        .map(|c| {
            let n = |k: &str| c[k].as_u64().unwrap();
            (
                c["name"].as_str().unwrap().to_owned(),
                [n("entries"), n("allocs"), n("allocd")],
            )
        })
        .collect()
}

#[test]
fn each_counters_sums_are_ghc_events_and_each_sample_its_allocation() {
    let scratch = Scratch::new("ticky");
    for ghc in ["9.6.6", "9.10.3"] {
        let log = fixtures().join(format!("ticky/Run-lT-ghc-{ghc}.eventlog"));
        let want = oracle(&fixtures().join(format!("ticky/Run-lT-ghc-{ghc}.oracle")));
        let log = log.to_str().unwrap();
        let summary = json(&scratch.0, &[log, "--summary=json"]);
        let ours = listed(&summary);
        assert_eq!(
            ours.iter().cloned().collect::<BTreeMap<_, _>>(),
            want.totals,
            "{ghc}"
        );
        // Most allocating first.
        assert!(
            ours.windows(2).all(|w| w[0].1[1] >= w[1].1[1]),
            "{ghc}: {ours:?}"
        );
        // The graph: a census per sample, each band a counter's allocation in it.
        let data = json(&scratch.0, &[log, "--format", "json", "-o", "-"]);
        let times = data["times"].as_array().unwrap();
        assert_eq!(
            times.len(),
            want.samples.len(),
            "{ghc}: a census per sample"
        );
        for band in data["bands"].as_array().unwrap() {
            let name = band["name"].as_str().unwrap();
            for (k, v) in band["values"].as_array().unwrap().iter().enumerate() {
                let v = v.as_f64().unwrap_or(0.0) as u64;
                assert_eq!(
                    v,
                    want.samples[k].get(name).copied().unwrap_or(0),
                    "{ghc} {name} @{k}"
                );
            }
        }
        let drawn: u64 = want.samples.iter().flat_map(|s| s.values()).sum();
        assert!(drawn > 10_000_000, "{ghc}: the run allocated");
    }
}

#[test]
fn the_picture_names_the_largest_allocator() {
    let scratch = Scratch::new("ticky-svg");
    let log = fixtures().join("ticky/Run-lT-ghc-9.6.6.eventlog");
    let want = oracle(&fixtures().join("ticky/Run-lT-ghc-9.6.6.oracle"));
    let largest = (want.totals.iter()).max_by_key(|(_, t)| t[1]).unwrap().0;
    let out = hpgraph(&scratch.0, &[log.to_str().unwrap(), "-o", "t.svg"], None);
    crate::common::assert_ok(&out);
    let svg = std::fs::read_to_string(scratch.path("t.svg")).unwrap();
    let texts: Vec<String> = svg_texts(&svg).into_iter().map(|t| t.text).collect();
    assert!(texts.iter().any(|t| t == largest), "{largest} in {texts:?}");
}

#[test]
fn an_older_run_without_samples_gives_its_totals() {
    // ghc-events' own example file: counters, and no sample begins.
    let scratch = Scratch::new("ticky-old");
    let log = fixtures().join("corpus-eventlog/ticky-ticky.eventlog");
    let reference =
        std::fs::read_to_string(fixtures().join("corpus-eventlog/ticky-ticky.eventlog.reference"))
            .unwrap();
    let mut names = BTreeMap::new();
    let mut totals: BTreeMap<String, [u64; 3]> = BTreeMap::new();
    for line in reference.lines() {
        if let Some((_, rest)) = line.split_once(": ticky counter definition ") {
            let (id, rest) = rest.split_once(", ").unwrap();
            let name = rest
                .split_once("name: ")
                .unwrap()
                .1
                .rsplit_once(", itbl")
                .unwrap()
                .0;
            names.insert(id.to_owned(), name.to_owned());
        }
    }
    for line in reference.lines() {
        if let Some((_, rest)) = line.split_once(": ticky counter sample ") {
            let (id, rest) = rest.split_once(": entry count: ").unwrap();
            let nums: Vec<u64> = (rest.split(", "))
                .map(|f| f.split_whitespace().next().unwrap().parse().unwrap())
                .collect();
            let t = totals.entry(names[id].clone()).or_default();
            for k in 0..3 {
                t[k] += nums[k];
            }
        }
    }
    assert!(!totals.is_empty());
    let summary = json(&scratch.0, &[log.to_str().unwrap(), "--summary=json"]);
    assert_eq!(
        listed(&summary).into_iter().collect::<BTreeMap<_, _>>(),
        totals
    );
}

fn sample(w: &mut Writer, time: u64, id: u64, allocs: u64) {
    let p: Vec<u8> = [id, 1, allocs, 0]
        .iter()
        .flat_map(|v| v.to_be_bytes())
        .collect();
    w.event(TICKY_SAMPLE, time, &p);
}

fn define(w: &mut Writer, time: u64, id: u64, name: &str) {
    let mut p = id.to_be_bytes().to_vec();
    p.extend(0u16.to_be_bytes());
    p.push(0); // no argument kinds
    p.extend(name.as_bytes());
    p.push(0);
    w.event(TICKY_DEF, time, &p);
}

#[test]
fn counters_samples_and_readings_past_their_limits_are_totals_only() {
    use hpgraph::input::eventlog::ticky::{
        MAX_TICKY_COUNTERS, MAX_TICKY_READINGS, MAX_TICKY_SAMPLES,
    };
    let scratch = Scratch::new("ticky-limits");
    let cases: [(&str, usize, usize); 3] = [
        ("counters", 1, MAX_TICKY_COUNTERS + 1),
        ("samples", MAX_TICKY_SAMPLES + 2, 1),
        ("readings", MAX_TICKY_READINGS / 4 + 1, 4),
    ];
    for (what, samples, counters) in cases {
        let mut w = Writer::new();
        for s in 0..samples as u64 {
            w.event(TICKY_BEGIN, 1000 * (s + 1), &[]);
            for c in 0..counters as u64 {
                sample(&mut w, 1000 * (s + 1), c, 8);
            }
        }
        for c in 0..counters as u64 {
            define(&mut w, 1000 * (samples as u64 + 1), c, &format!("c{c}"));
        }
        let path = scratch.path(&format!("{what}.eventlog"));
        std::fs::write(&path, w.done()).unwrap();
        let out = hpgraph(
            &scratch.0,
            &[path.to_str().unwrap(), "--summary=json"],
            None,
        );
        assert!(
            out.status.success(),
            "{what}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(
            said.contains("ticky counters"),
            "{what}: the limit is said: {said}"
        );
        let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let kept = listed(&summary);
        let expected = counters.min(MAX_TICKY_COUNTERS);
        assert_eq!(kept.len(), expected, "{what}");
        // Past the samples' or readings' limit a counter's totals still count every one.
        if counters <= MAX_TICKY_COUNTERS {
            assert!(
                kept.iter().all(|(_, t)| t[1] == 8 * samples as u64),
                "{what}"
            );
        }
    }
}

/// The counters' table of a text report as the file lays it out: the three numbers
/// first, the name from the header's `STG Name` column (GHC pads the columns before it).
fn table(report: &str) -> BTreeMap<String, [u64; 3]> {
    let lines: Vec<&str> = report.lines().collect();
    let header = lines.iter().position(|l| l.contains("STG Name")).unwrap();
    let column = lines[header].find("STG Name").unwrap();
    let mut rows = BTreeMap::new();
    for line in lines[header + 2..]
        .iter()
        .take_while(|l| !l.trim().is_empty())
    {
        let n: Vec<u64> = (line.split_whitespace().take(3))
            .map(|n| n.parse().unwrap())
            .collect();
        if n != [0, 0, 0] {
            rows.insert(line[column..].trim_end().to_owned(), [n[0], n[1], n[2]]);
        }
    }
    rows
}

#[test]
fn a_text_reports_rows_are_its_table_and_the_eventlogs_sums() {
    let scratch = Scratch::new("ticky-text");
    for ghc in ["9.6.6", "9.10.3"] {
        let path = fixtures().join(format!("ticky/Run-r-ghc-{ghc}.ticky"));
        let report = std::fs::read_to_string(&path).unwrap();
        let summary = json(&scratch.0, &[path.to_str().unwrap(), "--summary=json"]);
        let ours: BTreeMap<String, [u64; 3]> = listed(&summary).into_iter().collect();
        assert_eq!(ours, table(&report), "{ghc}");
        // The runtime's counters after the table, as listed.
        let totals = summary["ticky_totals"].as_array().unwrap();
        let heap = totals
            .iter()
            .find(|t| t["name"] == "ALLOC_HEAP_tot")
            .unwrap();
        let line = (report.lines())
            .find(|l| l.trim_end().ends_with(" ALLOC_HEAP_tot"))
            .unwrap();
        assert_eq!(
            heap["value"].as_u64().unwrap(),
            line.split_whitespace()
                .next()
                .unwrap()
                .parse::<u64>()
                .unwrap()
        );
        // The -lT run of the same program (ghc-events' reading): the same counters; its
        // last interval after the last sample is not written (GHC 9.6 stops short).
        let lt = oracle(&fixtures().join(format!("ticky/Run-lT-ghc-{ghc}.oracle")));
        for (name, sums) in &lt.totals {
            let text = ours.get(name).unwrap_or_else(|| panic!("{ghc}: {name}"));
            assert!(
                (0..3).all(|k| text[k] >= sums[k]),
                "{ghc} {name}: {text:?} {sums:?}"
            );
        }
        if ghc == "9.10.3" {
            assert_eq!(
                ours, lt.totals,
                "GHC 9.10 writes the whole run to the eventlog"
            );
        }
    }
}

#[test]
fn a_text_report_past_the_counters_limit_is_refused() {
    use hpgraph::input::eventlog::ticky::MAX_TICKY_COUNTERS;
    let scratch = Scratch::new("ticky-text-limit");
    let mut report = String::from("'./p' +RTS '-rp.ticky'\n\nENTERS: 1\n\n");
    report += "    Entries       Alloc     Alloc'd  Non-void Arguments      STG Name\n";
    report += &"-".repeat(80);
    report += "\n";
    let column = report.lines().nth(4).unwrap().find("STG Name").unwrap();
    for k in 0..=MAX_TICKY_COUNTERS {
        let numbers = format!("{:>11}{:>12}{:>12}   0", 1, 8, 0);
        report += &format!("{numbers:<column$}f{k}{{v}} (Main) (fun)\n");
    }
    let path = scratch.path("p.ticky");
    std::fs::write(&path, &report).unwrap();
    let out = hpgraph(&scratch.0, &[path.to_str().unwrap(), "--summary"], None);
    assert_eq!(out.status.code(), Some(1));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains(&format!("more than {MAX_TICKY_COUNTERS} counters")),
        "{said}"
    );
    // One row fewer reads, every counter named as written.
    let shorter: String = report
        .lines()
        .take(report.lines().count() - 1)
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&path, shorter).unwrap();
    let summary = json(&scratch.0, &[path.to_str().unwrap(), "--summary=json"]);
    let kept = listed(&summary);
    assert_eq!(kept.len(), MAX_TICKY_COUNTERS);
    assert!(kept.iter().any(|(n, _)| n == "f0{v} (Main) (fun)"));
}

#[test]
fn names_and_runtime_counters_past_their_limits_are_cut() {
    use hpgraph::input::eventlog::ticky::{MAX_TICKY_COUNTERS, MAX_TICKY_NAME};
    let scratch = Scratch::new("ticky-text-names");
    let mut report = String::from("'./p' +RTS '-rp.ticky'\n\nENTERS: 1\n\n");
    report += "    Entries       Alloc     Alloc'd  Non-void Arguments      STG Name\n";
    report += &"-".repeat(80);
    report += "\n";
    let column = report.lines().nth(4).unwrap().find("STG Name").unwrap();
    let long = "\u{3bb}".repeat(MAX_TICKY_NAME); // 2 bytes each: twice the limit
    let numbers = format!("{:>11}{:>12}{:>12}   0", 1, 8, 0);
    report += &format!("{numbers:<column$}{long}\n\n");
    report += &"*".repeat(50);
    report += "\n";
    for k in 0..=MAX_TICKY_COUNTERS {
        report += &format!("{:>11} RUNTIME_{k}\n", k + 1);
    }
    let path = scratch.path("p.ticky");
    std::fs::write(&path, &report).unwrap();
    let summary = json(&scratch.0, &[path.to_str().unwrap(), "--summary=json"]);
    let kept = listed(&summary);
    assert_eq!(kept.len(), 1);
    assert_eq!(
        kept[0].0.len(),
        MAX_TICKY_NAME,
        "cut at the limit, on a character"
    );
    assert!(long.starts_with(&kept[0].0));
    let totals = summary["ticky_totals"].as_array().unwrap();
    assert_eq!(totals.len(), MAX_TICKY_COUNTERS);
    assert_eq!(totals[0]["name"], "RUNTIME_0");
}
