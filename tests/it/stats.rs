//! `--stats` against `+RTS -s` of the same run: every eventlog in `fixtures/stats/ghc-*`
//! (GHC 9.0.2, 9.6.6 and 9.10.3; plain, threaded `-N2` with and without `-qg`,
//! non-moving, `-G3`, profiled `-hc`) was written with `+RTS -l -s`, and the runtime's own
//! `-s` text is kept beside it (`NAME.s`). Counters must be equal; elapsed times equal
//! to the precision GHC prints them with. The oracle is GHC's text, read here.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::rts::{number, read_s};

fn hpgraph() -> Command {
    crate::common::command(env!("CARGO_MANIFEST_DIR"))
}

fn runs() -> Vec<(PathBuf, PathBuf)> {
    let runs = crate::common::runs_of("stats", 12).into_iter();
    runs.map(|(_, l)| (l.clone(), l.with_extension("s")))
        .collect()
}

fn stats(log: &Path, window: &[&str]) -> serde_json::Value {
    let out = hpgraph()
        .arg("--stats=json")
        .arg(log)
        .args(window)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}: {}",
        log.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Within what GHC's printing rounds away (half a unit of its last digit), and a
/// millisecond for the clock readings the runtime takes apart from its events.
fn near(ours: f64, printed: f64, digits: i32) -> bool {
    (ours - printed).abs() <= 0.5 * 10f64.powi(-digits) + 1e-9
}

#[test]
fn every_figure_is_the_runtimes_own() {
    let mut wrong = Vec::new();
    let mut checked = 0;
    for (log, s) in runs() {
        let want = read_s(&s);
        let got = stats(&log, &[]);
        let name = format!(
            "{}/{}",
            log.parent().unwrap().file_name().unwrap().to_string_lossy(),
            log.file_name().unwrap().to_string_lossy()
        );
        let mut check = |ok: bool, what: String| {
            checked += 1;
            if !ok {
                wrong.push(format!("{name}: {what}"));
            }
        };
        let u = |k: &str| got[k].as_u64();
        let f = |k: &str| got[k].as_f64().unwrap();
        check(
            u("allocated") == Some(want.allocated),
            format!("allocated {:?} vs {}", u("allocated"), want.allocated),
        );
        check(
            u("copied") == Some(want.copied),
            format!("copied {:?} vs {}", u("copied"), want.copied),
        );
        let residency = u("max_residency").map(|r| (r, u("residency_samples").unwrap()));
        check(
            residency == want.residency,
            format!("residency {residency:?} vs {:?}", want.residency),
        );
        check(
            u("max_slop") == want.slop,
            format!("slop {:?} vs {:?}", u("max_slop"), want.slop),
        );
        let mib = u("max_heap_size").unwrap() / (1 << 20);
        check(
            mib <= want.mib_in_use && mib + 2 >= want.mib_in_use,
            format!("MiB in use {mib} vs {}", want.mib_in_use),
        );
        let gens = got["generations"].as_array().unwrap();
        check(
            gens.len() == want.gens.len(),
            format!("{} generations vs {}", gens.len(), want.gens.len()),
        );
        for (g, (w, ours)) in want.gens.iter().zip(gens).enumerate() {
            let collections = ours["collections"].as_u64().unwrap();
            let elapsed = ours["elapsed"].as_f64().unwrap();
            let max = ours["max_pause"].as_f64().unwrap();
            check(
                collections == w.0 && ours["parallel"].as_u64() == Some(w.1),
                format!("gen {g}: {collections} colls vs {}", w.0),
            );
            check(
                near(elapsed, w.2, 3),
                format!("gen {g}: elapsed {elapsed} vs {}", w.2),
            );
            let avg = if collections == 0 {
                0.0
            } else {
                elapsed / collections as f64
            };
            check(
                near(avg, w.3, 4),
                format!("gen {g}: avg pause {avg} vs {}", w.3),
            );
            check(
                near(max, w.4, 4),
                format!("gen {g}: max pause {max} vs {}", w.4),
            );
        }
        if let Some((count, elapsed, avg, max)) = want.syncs {
            let sync = got["nonmoving_sync"].as_array().expect("the syncs row");
            let (t, m) = (sync[0].as_f64().unwrap(), sync[1].as_f64().unwrap());
            check(
                count == want.gens[1].0,
                format!("syncs counted by major collections: {count}"),
            );
            check(
                near(t, elapsed, 3),
                format!("syncs elapsed {t} vs {elapsed}"),
            );
            check(
                near(t / count as f64, avg, 4),
                format!("syncs avg vs {avg}"),
            );
            check(near(m, max, 4), format!("syncs max {m} vs {max}"));
        } else {
            check(
                got["nonmoving_sync"].is_null(),
                "no syncs row without the non-moving collector".into(),
            );
        }
        let balance = got["work_balance"].as_f64().map(|b| b * 100.0);
        check(
            match (balance, want.balance) {
                (Some(b), Some(w)) => near(b, w, 2),
                (None, None) => true,
                _ => false,
            },
            format!("balance {balance:?} vs {:?}", want.balance),
        );
        // The runtime's heap census happens inside its collections: -s prints it apart.
        check(
            (f("gc_elapsed") - want.gc - want.prof).abs() <= 0.0015,
            format!(
                "GC elapsed {} vs {} + PROF {}",
                f("gc_elapsed"),
                want.gc,
                want.prof
            ),
        );
        check(
            got["gc_includes_census"].as_bool()
                == Some(want.prof > 0.0 || log.to_string_lossy().ends_with("-hc.eventlog")),
            "says whether GC includes the census".into(),
        );
        // The last event comes a little before the runtime's own last clock reading.
        check(
            (f("total_elapsed") - want.total).abs() <= 0.0015,
            format!("Total elapsed {} vs {}", f("total_elapsed"), want.total),
        );
        // MUT elapsed holds the runtime's INIT and EXIT, which the events do not mark.
        let mut_ = want.mut_ + want.init + want.exit;
        check(
            (f("mut_elapsed") - mut_).abs() <= 0.003,
            format!(
                "MUT elapsed {} vs {} (with INIT and EXIT)",
                f("mut_elapsed"),
                mut_
            ),
        );
    }
    assert!(
        wrong.is_empty(),
        "{} of {checked} figures differ from +RTS -s:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    assert!(checked > 500, "{checked}");
}

#[test]
fn adjacent_windows_add_up_to_the_whole_run() {
    for (log, _) in runs().into_iter().step_by(5) {
        let whole = stats(&log, &[]);
        let end = whole["to"].as_f64().unwrap();
        let cuts = [0.0, end * 0.3, end * 0.55, end];
        let mut allocated = 0;
        let mut collections = 0;
        let mut copied = 0;
        let mut sparks = [0; 2];
        for w in cuts.windows(2) {
            // A window ends where the next begins: a collection starting exactly there is
            // counted once, in the later window.
            let to = format!("{}", w[1] - if w[1] < end { 1e-9 } else { 0.0 });
            let part = stats(&log, &["--from", &format!("{}", w[0]), "--to", &to]);
            allocated += part["allocated"].as_u64().unwrap();
            copied += part["copied"].as_u64().unwrap();
            for (k, field) in ["total", "converted"].iter().enumerate() {
                sparks[k] += part["sparks"][field].as_u64().unwrap_or(0);
            }
            collections += part["generations"]
                .as_array()
                .unwrap()
                .iter()
                .map(|g| g["collections"].as_u64().unwrap())
                .sum::<u64>();
        }
        let all: u64 = whole["generations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["collections"].as_u64().unwrap())
            .sum();
        assert_eq!(
            allocated,
            whole["allocated"].as_u64().unwrap(),
            "{}",
            log.display()
        );
        assert_eq!(
            copied,
            whole["copied"].as_u64().unwrap(),
            "{}",
            log.display()
        );
        assert_eq!(collections, all, "{}", log.display());
        let whole_sparks = ["total", "converted"].map(|f| whole["sparks"][f].as_u64().unwrap_or(0));
        assert_eq!(sparks, whole_sparks, "{}: sparks", log.display());
    }
}

#[test]
fn a_hp_file_is_refused_with_what_to_do() {
    let hp = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/profiles/Leak-hc.hp");
    let out = hpgraph().arg("--stats").arg(&hp).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("hpgraph: ") && err.contains("+RTS -l"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn a_plain_eventlog_gives_its_statistics() {
    // No heap profile in these runs: the picture is refused, the statistics are not.
    let log = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/stats/ghc-9.6.6/MapBuild-plain.eventlog");
    let out = hpgraph().arg("--stats").arg(&log).output().unwrap();
    crate::common::assert_ok(&out);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("bytes allocated in the heap") && text.contains("Productivity"),
        "{text}"
    );
}

#[test]
fn an_eventlog_without_a_heap_profile_draws_the_runtimes_lines() {
    // Plain +RTS -l, threaded and not, on three GHCs: a picture, not an error.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/stats");
    let dir = std::env::temp_dir().join(format!("hpgraph-runtime-lines-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for ghc in ["ghc-9.0.2", "ghc-9.6.6", "ghc-9.10.3"] {
        for run in ["MapBuild-plain", "MapBuild-N2"] {
            let log = root.join(ghc).join(format!("{run}.eventlog"));
            let svg = dir.join(format!("{ghc}-{run}.svg"));
            let out = hpgraph().arg(&log).arg("-o").arg(&svg).output().unwrap();
            assert!(
                out.status.success(),
                "{}: {}",
                log.display(),
                String::from_utf8_lossy(&out.stderr)
            );
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(err.contains("no heap profile in this eventlog"), "{err}");
            let text = std::fs::read_to_string(&svg).unwrap();
            assert!(
                text.contains("heap size") && text.contains("live bytes"),
                "{ghc} {run}"
            );
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_allocation_rate_drawn_adds_up_to_the_runs_allocation() {
    // The rate the pictures and the page draw, taken over the whole run, is the bytes
    // `+RTS -s` says the run allocated: each step's rate times its length, summed. The
    // last step reaches past the last reading (the counters are read at collections),
    // which the sum counts at the step's rate: hence a margin of 1%, well
    // under a capability's share (a rate that missed or doubled one is 50% off).
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/stats");
    let dir = std::env::temp_dir().join(format!("hpgraph-rate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for ghc in ["ghc-9.0.2", "ghc-9.6.6", "ghc-9.10.3"] {
        for run in ["MapBuild-plain", "MapBuild-N2", "Leak-N2"] {
            let log = root.join(ghc).join(format!("{run}.eventlog"));
            let printed = read_s(&log.with_extension("s"));
            let html = dir.join(format!("{ghc}-{run}.html"));
            let out = hpgraph().arg(&log).arg("-o").arg(&html).output().unwrap();
            crate::common::assert_ok(&out);
            let page = std::fs::read_to_string(&html).unwrap();
            let json = page
                .split_once(r#"id="hpgraph-data">"#)
                .and_then(|(_, rest)| rest.split_once("</script>"))
                .map(|(json, _)| json)
                .expect("the page's data");
            let data: serde_json::Value = serde_json::from_str(json).unwrap();
            let lines = data["lines"].as_array().unwrap();
            let rate = lines.iter().find(|l| l["rate"] == true).expect("the rate");
            let rate: Vec<(f64, f64)> = rate["points"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| (p[0].as_f64().unwrap(), p[1].as_f64().unwrap()))
                .collect();
            let times = data["times"].as_array().unwrap();
            let (first, last) = (
                times[0].as_f64().unwrap(),
                times[times.len() - 1].as_f64().unwrap(),
            );
            assert!(
                first < 0.01 && last > printed.total * 0.9,
                "{ghc} {run}: the whole run"
            );
            assert!(rate.len() > 5, "{ghc} {run}: {} steps", rate.len());
            // The steps' middles lie on a grid of equal steps from `first`.
            let step = rate
                .windows(2)
                .map(|w| w[1].0 - w[0].0)
                .fold(f64::MAX, f64::min);
            let sum: f64 = rate.iter().map(|&(_, r)| r * step).sum();
            let allocated = printed.allocated as f64;
            assert!(
                (sum - allocated).abs() <= allocated * 0.01,
                "{ghc} {run}: the rate adds up to {sum:.0} bytes, -s says {allocated}"
            );
            // Every picture format draws it, in its colour, with its peak in its label.
            for ext in ["svg", "ps", "pdf"] {
                let file = dir.join(format!("{ghc}-{run}.{ext}"));
                let out = hpgraph().arg(&log).arg("-o").arg(&file).output().unwrap();
                crate::common::assert_ok(&out);
                let bytes = std::fs::read(&file).unwrap();
                let text = String::from_utf8_lossy(&bytes);
                if ext == "svg" {
                    assert!(text.contains("allocation rate (peak "), "{ghc} {run}");
                    assert!(
                        text.contains(r##"stroke="#cc5400""##),
                        "{ghc} {run}: its colour"
                    );
                } else if ext == "ps" {
                    assert!(
                        text.contains("(allocation rate (peak "),
                        "{ghc} {run}: {ext}"
                    );
                }
            }
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_summary_heads_with_the_runtimes_figures() {
    // What a CI job can fail a change on: the GC share, the longest pause, allocation
    // and residency, here against the runtime's own -s of each run.
    for (log, s) in runs().into_iter().step_by(3) {
        let want = read_s(&s);
        let out = hpgraph().arg("--summary=json").arg(&log).output().unwrap();
        crate::common::assert_ok(&out);
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let r = &json["runtime"];
        assert_eq!(
            r["allocated"].as_u64(),
            Some(want.allocated),
            "{}",
            log.display()
        );
        assert_eq!(
            r["max_residency"].as_u64(),
            want.residency.map(|r| r.0),
            "{}",
            log.display()
        );
        let collections: u64 = want.gens.iter().map(|g| g.0).sum();
        assert_eq!(
            r["collections"].as_u64(),
            Some(collections),
            "{}",
            log.display()
        );
        let max_pause = want.gens.iter().map(|g| g.4).fold(0.0, f64::max);
        assert!(
            near(r["max_pause"].as_f64().unwrap(), max_pause, 4),
            "{}",
            log.display()
        );
        // The share as time, to the precision -s prints its times with.
        let gc = r["gc_share"].as_f64().unwrap() * want.total;
        assert!(
            (gc - want.gc - want.prof).abs() <= 0.002,
            "{}: GC share {} of {} s vs {} + {}",
            log.display(),
            r["gc_share"],
            want.total,
            want.gc,
            want.prof
        );
        // The CSV's runtime rows hold the same figures.
        let out = hpgraph().arg("--summary=csv").arg(&log).output().unwrap();
        crate::common::assert_ok(&out);
        let csv = String::from_utf8(out.stdout).unwrap();
        let row = |name: &str| -> f64 {
            let prefix = format!("runtime,{name},");
            let line = csv
                .lines()
                .find(|l| l.starts_with(&prefix))
                .unwrap_or_else(|| panic!("{}: no {name} row in\n{csv}", log.display()));
            line[prefix.len()..]
                .split(',')
                .next()
                .unwrap()
                .parse()
                .unwrap()
        };
        assert_eq!(row("allocated"), want.allocated as f64, "{}", log.display());
        assert_eq!(row("collections"), collections as f64, "{}", log.display());
        assert!(near(row("max_pause"), max_pause, 4), "{}", log.display());
        assert!(csv.starts_with("kind,name,value,share,peak,at,mean,trend,"));
        assert!(csv.lines().any(|l| l.starts_with("total,")), "{csv}");
    }
}

/// The GC strip's bars, each a column's share of its time in GC: in the strip's own row,
/// their time in GC together no more than `+RTS -s`'s GC elapsed (the strip covers the
/// censuses' stretch of the run), dark ones exactly when the run had major collections.
#[test]
fn heap_lines_draw_the_share_of_time_in_gc_under_the_graph() {
    use hpgraph::scene::{Item, PathRole};
    for (log, s) in runs().into_iter().step_by(2) {
        let want = read_s(&s);
        let options = hpgraph::input::Options::new().with_runtime(true);
        let parsed =
            hpgraph::input::read_file(&std::fs::File::open(&log).unwrap(), options).unwrap();
        let profile = parsed.profile;
        let mut select = hpgraph::select::SelectOptions::default();
        select.heap_lines = true;
        let selection = hpgraph::select::select(profile.series(), None, &select);
        let mut layout = hpgraph::layout::LayoutOptions::default();
        layout.heap_lines = true;
        let scene = hpgraph::layout::layout(profile.into_series(), &selection, &layout);
        let plot = scene.plot.expect("a graph");
        let bars: Vec<&hpgraph::scene::Path> = scene.pages[0]
            .items
            .iter()
            .filter_map(|i| match i {
                Item::Path(p) if p.role == PathRole::Collection => Some(p),
                _ => None,
            })
            .collect();
        let name = log.display();
        assert!(plot.strip > 0.0 && !bars.is_empty(), "{name}");
        assert!(
            bars.len() as f64 <= plot.width + 1.0,
            "{name}: {} bars",
            bars.len()
        );
        let full = plot.strip - 2.0;
        let mut in_gc = 0.0;
        for b in &bars {
            let (w, h) = (b.steps[0].x, b.steps[1].y);
            // The strip's row is under the graph and the rate panel, on the time axis.
            let axis = plot.y0 - plot.rate_gap - plot.rate - plot.strip;
            assert!(
                b.start.y >= axis && b.start.y + h <= axis + plot.strip,
                "{name}"
            );
            assert!(h > 0.0 && h <= full + 1e-9, "{name}: {h}");
            in_gc += h / full * w / plot.width * plot.x_range;
        }
        // Merged columns take the tallest's height: up to a twentieth of a point more.
        let slack = 0.05 / full * plot.x_range;
        assert!(
            in_gc <= want.gc + want.prof + slack + 0.002,
            "{name}: the strip shows {in_gc:.4} s in GC, +RTS -s {:.4} s",
            want.gc + want.prof
        );
        let majors = bars
            .iter()
            .filter(|p| p.fill == Some(hpgraph::scene::MAJOR_GC_PAINT));
        let major_collections: u64 = want.gens.iter().skip(1).map(|g| g.0).sum();
        assert_eq!(majors.count() > 0, major_collections > 0, "{name}");
    }
}

#[test]
fn two_runs_side_by_side_are_each_runs_own_figures() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/stats");
    let (a, b) = (
        root.join("ghc-9.0.2/MapBuild-N2.eventlog"),
        root.join("ghc-9.10.3/MapBuild-N2.eventlog"),
    );
    let out = hpgraph()
        .args(["--compare", "--stats=json"])
        .arg(&a)
        .arg(&b)
        .output()
        .unwrap();
    crate::common::assert_ok(&out);
    let both: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(both["before"], stats(&a, &[]));
    assert_eq!(both["after"], stats(&b, &[]));
    let text = hpgraph()
        .args(["--compare", "--stats"])
        .arg(&a)
        .arg(&b)
        .output()
        .unwrap();
    let text = String::from_utf8(text.stdout).unwrap();
    let allocated = text
        .lines()
        .find(|l| l.starts_with("bytes allocated"))
        .unwrap();
    // 215,777,368 before, 208,605,056 after: -3.3%, read from each run's -s.
    let want = |s: &Path| read_s(&s.with_extension("s")).allocated;
    let (x, y) = (want(&a) as f64, want(&b) as f64);
    assert!(
        allocated.ends_with(&format!("{:+.1}%", (y - x) / x * 100.0)),
        "{allocated}"
    );
}

#[test]
fn compare_heads_with_both_runs_runtime_figures() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/stats");
    let (a, b) = (
        root.join("ghc-9.0.2/Leak-hc.eventlog"),
        root.join("ghc-9.10.3/Leak-hc.eventlog"),
    );
    let out = hpgraph()
        .args(["--compare", "--summary=json"])
        .arg(&a)
        .arg(&b)
        .output()
        .unwrap();
    crate::common::assert_ok(&out);
    let c: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for (run, log) in [("before", &a), ("after", &b)] {
        let want = read_s(&log.with_extension("s"));
        let r = &c[run]["runtime"];
        assert_eq!(r["allocated"].as_u64(), Some(want.allocated), "{run}");
        assert_eq!(
            r["max_residency"].as_u64(),
            want.residency.map(|r| r.0),
            "{run}"
        );
    }
    // In CSV, the runtime's rows: each run's -s figure and their difference.
    let out = hpgraph()
        .args(["--compare", "--summary=csv"])
        .arg(&a)
        .arg(&b)
        .output()
        .unwrap();
    crate::common::assert_ok(&out);
    let csv = String::from_utf8(out.stdout).unwrap();
    let line = csv
        .lines()
        .find(|l| l.starts_with("allocated,runtime,"))
        .unwrap_or_else(|| panic!("no allocated row in\n{csv}"));
    let cells: Vec<&str> = line.split(',').collect();
    let (before, after) = (
        read_s(&a.with_extension("s")).allocated,
        read_s(&b.with_extension("s")).allocated,
    );
    assert_eq!(cells[2], before.to_string(), "{line}");
    assert_eq!(cells[4], after.to_string(), "{line}");
    assert_eq!(
        cells[6],
        (after as i64 - before as i64).to_string(),
        "{line}"
    );
    // With --from/--to the headline is the window's: each run's figures those
    // --stats gives for the same window.
    let out = hpgraph()
        .args([
            "--compare",
            "--summary=json",
            "--from",
            "0.4",
            "--to",
            "1.1",
        ])
        .arg(&a)
        .arg(&b)
        .output()
        .unwrap();
    crate::common::assert_ok(&out);
    let c: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for (run, log) in [("before", &a), ("after", &b)] {
        let alone = stats(log, &["--from", "0.4", "--to", "1.1"]);
        let r = &c[run]["runtime"];
        assert_eq!(r["allocated"], alone["allocated"], "{run}");
        assert_ne!(
            r["allocated"].as_u64(),
            Some(read_s(&log.with_extension("s")).allocated),
            "{run}: the window's, not the run's"
        );
        let collections: u64 = (alone["generations"].as_array().unwrap().iter())
            .map(|g| g["collections"].as_u64().unwrap())
            .sum();
        assert_eq!(r["collections"].as_u64(), Some(collections), "{run}");
    }
}

#[test]
fn eventlogs_of_ghc_8_give_what_they_have_by_ghc_events_reading() {
    // GHC 8.2 to 8.11's eventlogs beside ghc-events' reading of them: the counters are
    // those ghc-events prints (the last allocation reading per capability, the bytes
    // copied, the largest live data after a collection, the collections' stats); a log
    // with no GC event at all is refused with how to write one that has them.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/corpus-eventlog");
    let mut with_stats = 0;
    for name in [
        "hello-ghc-8.2.2",
        "sleep.h",
        "sleep.hy",
        "unicode",
        "trace-binary-event",
        "nonmoving-gc-census",
        "biographical-samples",
    ] {
        let log = root.join(format!("{name}.eventlog"));
        let reference = std::fs::read_to_string(log.with_extension("eventlog.reference")).unwrap();
        let (mut allocated, mut copied, mut live, mut collections) =
            (std::collections::BTreeMap::new(), 0u64, None::<u64>, 0u64);
        for line in reference.lines() {
            let cap = line
                .split_once(": cap ")
                .map(|(_, r)| r.split(':').next().unwrap());
            if let Some((_, rest)) = line.split_once("allocated on heap capset ") {
                let n = rest.split(": ").nth(1).unwrap().split(' ').next().unwrap();
                allocated.insert(cap.unwrap().to_string(), number(n));
            } else if let Some((_, rest)) = line.split_once("GC stats for heap capset ") {
                let n = rest
                    .split(", ")
                    .nth(1)
                    .unwrap()
                    .trim_end_matches(" bytes copied");
                copied += number(n);
                collections += 1;
            } else if let Some((_, rest)) = line.split_once("live data in heap capset ") {
                let n = number(rest.split(": ").nth(1).unwrap().trim_end_matches(" bytes"));
                live = Some(live.map_or(n, |l: u64| l.max(n)));
            }
        }
        let out = hpgraph().arg("--stats=json").arg(&log).output().unwrap();
        if collections == 0 {
            assert_eq!(out.status.code(), Some(1), "{name}");
            assert!(out.stdout.is_empty(), "{name}");
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(
                err.contains("GC events") && err.contains("+RTS -l"),
                "{name}: {err}"
            );
            continue;
        }
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(
            json["allocated"].as_u64(),
            Some(allocated.values().sum::<u64>()),
            "{name}"
        );
        assert_eq!(json["copied"].as_u64(), Some(copied), "{name}");
        let ours: u64 = (json["generations"].as_array().unwrap().iter())
            .map(|g| g["collections"].as_u64().unwrap())
            .sum();
        assert_eq!(ours, collections, "{name}");
        if let Some(live) = live {
            assert!(json["max_residency"].as_u64().unwrap() <= live, "{name}");
        }
        with_stats += 1;
    }
    assert!(with_stats >= 4, "{with_stats}");
}
