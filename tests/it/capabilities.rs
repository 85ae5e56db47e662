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
