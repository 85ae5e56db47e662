//! The non-moving collector (`+RTS -xn`) against references not ours: runs of three
//! programs on GHC 9.0.2, 9.6.6 and 9.10.3 (`fixtures/nonmoving`, made by
//! `scripts/regen-nonmoving-fixtures.sh`), each with ghc-events' reading of its
//! non-moving events beside it (`.nonmoving`, `scripts/nonmoving-oracle.hs` built on
//! the ghc-events of the same system: 0.17, 0.19, 0.20) and the runtime's own `+RTS -s`
//! (`.s`); and the corpus' GHC 8.11 run with ghc-events' printout.

use std::path::{Path, PathBuf};

use crate::common::rts::read_s;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn json(args: &[&str]) -> serde_json::Value {
    let out = crate::common::command(root()).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Every run of `fixtures/nonmoving`, with its GHC's version.
fn runs() -> Vec<(String, PathBuf)> {
    let runs = crate::common::runs_of("nonmoving", 5);
    runs.into_iter()
        .map(|(ghc, log)| (ghc.to_string(), log))
        .collect()
}

fn none_wrong(wrong: &[String]) {
    assert!(
        wrong.is_empty(),
        "{} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// A census row as ghc-events read it: time (ns), block size, active, filled, live.
type Row = (u64, u64, u64, u64, u64);

/// The oracle's census rows in time order, and how many sweeps ended.
fn oracle(path: &Path) -> (Vec<Row>, usize) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut rows = Vec::new();
    let mut sweeps = 0;
    for line in text.lines() {
        let f: Vec<u64> = line
            .split('\t')
            .skip(1)
            .map(|x| x.parse().unwrap())
            .collect();
        match line.split('\t').next() {
            Some("census") => rows.push((f[0], f[1], f[2], f[3], f[4])),
            Some("sweep-end") => sweeps += 1,
            _ => {}
        }
    }
    rows.sort_by_key(|r| r.0);
    (rows, sweeps)
}

/// The corpus' printout: `TIME: nonmoving heap census SIZE: A active segments, F filled
/// segments, L live blocks`.
fn printed(path: &Path) -> Vec<Row> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut rows: Vec<Row> = (text.lines())
        .filter_map(|l| {
            let (time, rest) = l.trim().split_once(": nonmoving heap census ")?;
            let (size, counts) = rest.split_once(": ")?;
            let n: Vec<u64> = (counts.split(", "))
                .map(|c| c.split(' ').next().unwrap().parse().unwrap())
                .collect();
            Some((time.parse().ok()?, size.parse().ok()?, n[0], n[1], n[2]))
        })
        .collect();
    rows.sort_by_key(|r| r.0);
    rows
}

/// `--summary=json`'s rows equal the oracle's, one for one and in order; each row's
/// time is its census's: the time of one of the oracle's rows (its first class's), and
/// none after the row's own (a census writes its classes over micro- to milliseconds).
fn same_rows(name: &str, got: &serde_json::Value, want: &[Row], wrong: &mut Vec<String>) {
    let got = got["nonmoving"].as_array().cloned().unwrap_or_default();
    if got.len() != want.len() {
        wrong.push(format!("{name}: {} rows vs {}", got.len(), want.len()));
        return;
    }
    let times: std::collections::HashSet<u64> = want.iter().map(|w| w.0).collect();
    for (k, (g, w)) in got.iter().zip(want).enumerate() {
        let u = |key: &str| g[key].as_u64().unwrap();
        let counts = (
            u("block_size"),
            u("active_segments"),
            u("filled_segments"),
            u("live_blocks"),
        );
        let ns = (g["time"].as_f64().unwrap() * 1e9).round() as u64;
        if counts != (w.1, w.2, w.3, w.4) || !times.contains(&ns) || ns > w.0 {
            wrong.push(format!("{name}: row {k}: {g} vs {w:?}"));
        }
    }
}

#[test]
fn every_census_is_the_one_ghc_events_reads() {
    let mut wrong = Vec::new();
    let mut rows = 0;
    for (ghc, log) in runs() {
        let name = format!("{ghc}/{}", log.file_name().unwrap().to_string_lossy());
        let (want, sweeps) = oracle(&log.with_extension("nonmoving"));
        let got = json(&["--summary=json", log.to_str().unwrap()]);
        same_rows(&name, &got, &want, &mut wrong);
        // A census follows each sweep: as many censuses as sweeps, whatever the layout.
        let mut times: Vec<f64> = (got["nonmoving"].as_array().unwrap().iter())
            .map(|r| r["time"].as_f64().unwrap())
            .collect();
        times.dedup();
        if times.len() != sweeps {
            wrong.push(format!("{name}: {} censuses, {sweeps} sweeps", times.len()));
        }
        rows += want.len();
    }
    let corpus = root().join("../shared/corpus-eventlog/nonmoving-gc-census.eventlog");
    if corpus.exists() {
        let want = printed(&corpus.with_extension("eventlog.reference"));
        assert_eq!(want.len(), 96, "the printout's census lines");
        let got = json(&["--summary=json", corpus.to_str().unwrap()]);
        same_rows("corpus", &got, &want, &mut wrong);
        rows += want.len();
    }
    assert!(rows > 1000, "{rows} rows compared");
    none_wrong(&wrong);
}

/// GHC 9.10 writes block sizes as bytes (not all powers of two); before, as their log2.
#[test]
fn both_layouts_of_the_census_are_read() {
    let sizes = |ghc: &str| -> Vec<u64> {
        let log = root().join(format!("fixtures/nonmoving/{ghc}/Leak-N2.eventlog"));
        let got = json(&["--summary=json", log.to_str().unwrap()]);
        let mut s: Vec<u64> = (got["nonmoving"].as_array().unwrap().iter())
            .map(|r| r["block_size"].as_u64().unwrap())
            .collect();
        s.sort_unstable();
        s.dedup();
        s
    };
    let old = sizes("ghc-9.6.6");
    assert_eq!(old, (3..=14).map(|k| 1u64 << k).collect::<Vec<_>>());
    let new = sizes("ghc-9.10.3");
    assert!(new.contains(&24) && new.contains(&40), "{new:?}");
}

/// The `concurrent` row and `CONC GC` line of `--stats` against `+RTS -s`. GHC 9.6 and
/// 9.10 time each concurrent collection by wall clock, from just before its first mark
/// to just after its census: equal to the events' first mark to sweep's end (the one
/// the run ends in, to its last mark) within [`PER_COLLECTION`] a collection. GHC 9.0
/// prints the process's CPU time as elapsed, which no event holds; its CPU column, the
/// mark thread's own time, is within the collections' wall-clock time. A non-threaded
/// runtime marks inside the major collection: GHC before 9.10 prints 0 there, 9.10 the
/// marking's time, which is within the major collections' time.
#[test]
fn the_concurrent_row_is_the_runtimes_own() {
    /// What the runtime's clock readings apart from the events add to a collection.
    const PER_COLLECTION: f64 = 0.0015;
    let mut wrong = Vec::new();
    let mut checked = 0;
    let stats_runs = ["ghc-9.0.2", "ghc-9.6.6", "ghc-9.10.3"].map(|ghc| {
        let dir = root().join("fixtures/stats").join(ghc);
        (ghc.to_string(), dir.join("Leak-nonmoving.eventlog"))
    });
    for (ghc, log) in runs().into_iter().chain(stats_runs) {
        let name = format!("{ghc}/{}", log.file_name().unwrap().to_string_lossy());
        let s = read_s(&log.with_extension("s"));
        let (cpu, elapsed, avg, max) = s.concurrent.expect("a concurrent row");
        let got = json(&["--stats=json", log.to_str().unwrap()]);
        let Some(ours) = got["nonmoving_concurrent"].as_array() else {
            wrong.push(format!("{name}: no concurrent row"));
            continue;
        };
        let (t, m) = (ours[0].as_f64().unwrap(), ours[1].as_f64().unwrap());
        let majors = s.gens[1].0 as f64;
        let near = |a: f64, b: f64, n: f64| (a - b).abs() <= 0.0005 + n * PER_COLLECTION;
        let mut check = |ok: bool, what: String| {
            checked += 1;
            if !ok {
                wrong.push(format!("{name}: {what}"));
            }
        };
        let gen1 = s.gens[1].2;
        match (ghc.as_str(), s.threaded) {
            ("ghc-9.0.2", true) => check(
                cpu <= t + majors * PER_COLLECTION,
                format!("the mark thread's CPU {cpu} within the wall-clock {t}"),
            ),
            ("ghc-9.10.3", _) | (_, true) => {
                check(
                    near(t, elapsed, majors),
                    format!("elapsed {t} vs {elapsed}"),
                );
                check(near(m, max, 1.0), format!("max {m} vs {max}"));
                check(
                    near(t / majors, avg, 1.0),
                    format!("avg {} vs {avg}", t / majors),
                );
            }
            (_, false) => check(
                elapsed == 0.0 && t <= gen1 + 0.0005,
                format!("non-threaded: {elapsed} printed, ours {t} within Gen 1's {gen1}"),
            ),
        }
    }
    assert!(checked >= 18, "{checked} checks");
    none_wrong(&wrong);
}

/// Without a heap profile the censuses are the picture: a band per size class that held
/// anything, its live bytes at each census, and the segments' bytes beyond them — the
/// oracle's blocks times block size, and (active + filled) × 32 KiB less those.
#[test]
fn a_run_without_a_heap_profile_draws_its_non_moving_heap() {
    let log = root().join("fixtures/nonmoving/ghc-9.10.3/Cache-N2.eventlog");
    let dir = crate::common::Scratch::new("nonmoving");
    let csv = dir.path("out.csv");
    let out = crate::common::command(root())
        .args([log.to_str().unwrap(), "-o", csv.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("the picture is the non-moving heap's censuses"),
        "{stderr}"
    );
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let table: Vec<Vec<f64>> = lines
        .map(|l| l.split(',').map(|x| x.parse().unwrap()).collect())
        .collect();
    let (rows, _) = oracle(&log.with_extension("nonmoving"));
    // The oracle's censuses: a block size no larger than the one before begins one.
    let mut censuses: Vec<Vec<Row>> = Vec::new();
    for r in rows {
        match censuses.last_mut() {
            Some(c) if c.last().unwrap().1 < r.1 => c.push(r),
            _ => censuses.push(vec![r]),
        }
    }
    assert_eq!(table.len(), censuses.len());
    for (row, census) in table.iter().zip(&censuses) {
        let mut beyond = 0.0;
        for &(_, size, active, filled, live) in census {
            let band = format!("{size}-byte blocks");
            let value = match header.iter().position(|h| *h == band) {
                Some(k) => row[k],
                None => 0.0,
            };
            assert_eq!(value, (live * size) as f64, "{band} at {}", row[0]);
            beyond += ((active + filled) * 32768).saturating_sub(live * size) as f64;
        }
        let k = header.iter().position(|h| *h == "fragmentation").unwrap();
        assert_eq!(row[k], beyond, "fragmentation at {}", row[0]);
    }
}
