//! What each capability did (`--summary=json`'s `"capabilities"`) against ghc-events'
//! reading of the same runs: a concurrent program (`fixtures/programs/Workers.hs`:
//! forkIO'd workers, sparks) on two and four capabilities, and with the scheduler's
//! events alone (`-l-as`: no collection, no heap figure), on GHC 9.0.2, 9.6.6 and 9.10.3 (`fixtures/capabilities`, made by
//! `scripts/regen-capability-fixtures.sh`; `scripts/capabilities-oracle.hs` built on the
//! ghc-events of each system), over the whole run and over its middle third. Read in
//! two parts, split at every block, they are the same (`split.rs`).

use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn runs() -> Vec<PathBuf> {
    let runs = crate::common::runs_of("capabilities", 3);
    runs.into_iter().map(|(_, log)| log).collect()
}

/// The oracle's reading: the window (nanoseconds; the whole run when absent), the
/// run's end, and per capability its time running and collecting.
struct Oracle {
    window: Option<(u64, u64)>,
    end: u64,
    caps: Vec<(u64, u64, u64)>,
}

fn oracle(path: &Path) -> Oracle {
    let mut o = Oracle {
        window: None,
        end: 0,
        caps: Vec::new(),
    };
    for line in std::fs::read_to_string(path).unwrap().lines() {
        let f: Vec<&str> = line.split('\t').collect();
        let n = |k: usize| f[k].parse::<u64>().unwrap();
        match f[0] {
            "window" => o.window = Some((n(1), n(2))),
            "end" => o.end = n(1),
            "cap" => o.caps.push((n(1), n(2), n(3))),
            _ => {}
        }
    }
    o
}

fn summary(log: &Path, window: Option<(u64, u64)>) -> serde_json::Value {
    let mut cmd = crate::common::command(root());
    cmd.arg("--summary=json").arg(log);
    if let Some((a, b)) = window {
        // Nanoseconds as seconds, every digit kept.
        let s = |ns: u64| format!("{}.{:09}", ns / 1_000_000_000, ns % 1_000_000_000);
        cmd.args(["--from", &s(a), "--to", &s(b)]);
    }
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{}", crate::common::stderr(&out));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Running and collecting equal the oracle's sums to the nanosecond (seconds in a
/// double: a few of its last digits), idle the window's rest. The whole run ends where
/// its last block does (the runtime was still writing; ghc-events keeps no block's end
/// time): after the last event, by under [`LAST_BLOCK`].
#[test]
fn each_capabilitys_time_is_the_one_ghc_events_sums() {
    const NS: f64 = 2e-9;
    /// How long after its last event a run's last block may end.
    const LAST_BLOCK: f64 = 1e-3;
    let mut wrong = Vec::new();
    let mut checked = 0;
    for log in runs() {
        for reading in ["caps", "window.caps"] {
            let o = oracle(&log.with_extension(reading));
            let got = summary(&log, o.window);
            let name = format!("{} ({reading})", log.display());
            let caps = got["capabilities"].as_array().cloned().unwrap_or_default();
            if caps.len() != o.caps.len() {
                wrong.push(format!(
                    "{name}: {} capabilities vs {}",
                    caps.len(),
                    o.caps.len()
                ));
                continue;
            }
            let (a, b) = o.window.unwrap_or((0, o.end));
            let span = (b - a) as f64 * 1e-9;
            for (c, &(cap, running, gc)) in caps.iter().zip(&o.caps) {
                let f = |k: &str| c[k].as_f64().unwrap();
                let (r, g) = (running as f64 * 1e-9, gc as f64 * 1e-9);
                checked += 1;
                if c["capability"].as_u64() != Some(cap)
                    || (f("running") - r).abs() > NS
                    || (f("gc") - g).abs() > NS
                    || match o.window {
                        Some(_) => (f("idle") - (span - r - g)).abs() > NS,
                        None => !(-NS..LAST_BLOCK).contains(&(f("idle") - (span - r - g))),
                    }
                {
                    wrong.push(format!("{name}: {c} vs cap {cap}: {r} {g}, span {span}"));
                }
            }
        }
    }
    assert!(checked >= 40, "{checked} capabilities checked");
    assert!(
        wrong.is_empty(),
        "{} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// `--stats`' `SPARKS` line against `+RTS -s`'s of the same run: each capability's last
/// spark counters added up (the total created, dud and overflowed together), for every
/// threaded run here, in `fixtures/stats` and `fixtures/nonmoving`; a run of the
/// scheduler's events alone (`-l-as`) has no statistics.
#[test]
fn the_sparks_line_is_the_runtimes_own() {
    let printed = |s: &Path| -> Option<[u64; 6]> {
        let text = std::fs::read_to_string(s).unwrap();
        let line = text
            .lines()
            .find_map(|l| l.trim().strip_prefix("SPARKS: "))?;
        let n: Vec<u64> = (line.split(|c: char| !c.is_ascii_digit()))
            .filter(|w| !w.is_empty())
            .map(|w| w.parse().unwrap())
            .collect();
        Some([n[0], n[1], n[2], n[3], n[4], n[5]])
    };
    let mut compared = 0;
    let logs = (crate::common::runs_of("capabilities", 3).into_iter())
        .chain(crate::common::runs_of("stats", 12))
        .chain(crate::common::runs_of("nonmoving", 5));
    for (_, log) in logs {
        let Some(want) = printed(&log.with_extension("s")) else {
            continue;
        };
        let out = crate::common::command(root())
            .args(["--stats=json", log.to_str().unwrap()])
            .output()
            .unwrap();
        let name = log.display();
        if log.to_string_lossy().ends_with("-s.eventlog") {
            // The scheduler's events alone: no collection, so no statistics at all.
            assert!(!out.status.success(), "{name}: no runtime statistics");
            continue;
        }
        let got: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let g = &got["sparks"];
        let ours = ["total", "converted", "overflowed", "dud", "gcd", "fizzled"]
            .map(|k| g[k].as_u64().unwrap_or_else(|| panic!("{name}: no {k}")));
        assert_eq!(
            ours, want,
            "{name}: SPARKS (total, converted, overflowed, dud, GC'd, fizzled)"
        );
        compared += 1;
        // Two windows that meet add up to the run (its counters are cumulative).
        let end = got["to"].as_f64().unwrap();
        let half = |a: f64, b: f64| -> u64 {
            let (a, b) = (format!("{a}"), format!("{b}"));
            let out = crate::common::command(root())
                .args([
                    "--stats=json",
                    log.to_str().unwrap(),
                    "--from",
                    &a,
                    "--to",
                    &b,
                ])
                .output()
                .unwrap();
            let part: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            part["sparks"]["total"].as_u64().unwrap()
        };
        let middle = end * 0.4;
        assert_eq!(
            half(0.0, middle) + half(middle + 1e-9, end),
            want[0],
            "{name}: halves"
        );
    }
    assert!(compared >= 12, "{compared} runs compared");
}
