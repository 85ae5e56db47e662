//! A leak is called a leak whatever its kind: four real programs whose heap grows to
//! the end of their work, each beside its fix (`fixtures/programs`): a memo cache never
//! evicted (`Cache.hs`, freed as the program finishes; `CacheFixed.hs` bounds it), a
//! total added up lazily (`Accumulator.hs`; `AccumulatorFixed.hs`), statistics in lazy
//! record fields (`Records.hs`; `RecordsFixed.hs`), every log line kept in an `IORef`
//! list (`Log.hs`; `LogFixed.hs`). Each is run with `-hT` and `-hc` on three GHCs
//! (`scripts/regen-leak-fixtures.sh`), each run's `.hp` and eventlog. A leak's total and
//! its largest band are `growing` in the summary's text and JSON and fail `--check`;
//! a fix's are not. (The page's table: tests/browser/table.mjs.)

use std::path::PathBuf;

use crate::common::{self, Scratch, fixtures};

const GHCS: [&str; 3] = ["ghc-9.0.2", "ghc-9.6.6", "ghc-9.10.3"];

/// Every run of `program`: its file and a name for messages.
fn runs(program: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for ghc in GHCS {
        for tag in ["hT", "hc"] {
            for ext in ["hp", "eventlog"] {
                let path = fixtures().join(format!("leak/{ghc}/{program}-{tag}.{ext}"));
                assert!(path.exists(), "{}", path.display());
                out.push(path);
            }
        }
    }
    out
}

fn summary(path: &std::path::Path) -> serde_json::Value {
    let out = common::hpgraph_ok(&fixtures(), &["--summary=json", path.to_str().unwrap()]);
    serde_json::from_slice(&out).unwrap()
}

/// `--check CONDITION`'s exit status on `path`.
fn check(path: &std::path::Path, condition: &str) -> Option<i32> {
    let dir = Scratch::new("leak-check");
    let args = [
        "--check",
        condition,
        "--summary=json",
        path.to_str().unwrap(),
    ];
    common::hpgraph(&dir.0, &args, None).status.code()
}

/// The leaks, each with its fix.
const PROGRAMS: [(&str, &str); 4] = [
    ("Cache", "CacheFixed"),
    ("Accumulator", "AccumulatorFixed"),
    ("Records", "RecordsFixed"),
    ("Log", "LogFixed"),
];

#[test]
fn every_leak_is_growing_in_every_run_of_three_ghcs() {
    for path in PROGRAMS.iter().flat_map(|(leak, _)| runs(leak)) {
        let shown = path.display();
        let s = summary(&path);
        assert_eq!(s["total"]["trend"], "growing", "{shown}: the total");
        let largest = &s["bands"][0];
        let name = largest["name"].as_str().unwrap();
        assert_eq!(largest["trend"], "growing", "{shown}: {name}");
        // The cache is freed as the program finishes: a teardown, said.
        if shown.to_string().contains("/Cache-") {
            assert!(s["teardown_from"].is_f64(), "{shown}: {s}");
        }
        // From GHC's own text: the band climbs to the teardown (a .hp's censuses).
        if path.extension().is_some_and(|e| e == "hp") {
            let censuses = common::hp::censuses(&path);
            let at = s["teardown_from"].as_f64().unwrap_or(f64::INFINITY);
            // The body: before the teardown, and before the empty census at exit.
            let body: Vec<f64> = (censuses.iter())
                .filter(|c| c.time <= at && c.total() > 0.0)
                .map(|c| c.of(name))
                .collect();
            // Its mean over the body's last quarter above its mean over the third.
            let n = body.len();
            let mean = |s: &[f64]| s.iter().sum::<f64>() / s.len() as f64;
            let (third, last) = (mean(&body[n / 2..n * 3 / 4]), mean(&body[n * 3 / 4..]));
            assert!(last > third * 1.02, "{shown}: {name} {third} → {last}");
        }
        let text = String::from_utf8(common::hpgraph_ok(
            &fixtures(),
            &["--summary", path.to_str().unwrap()],
        ))
        .unwrap();
        let total = text.lines().find(|l| l.contains("total of")).unwrap();
        assert!(total.contains("growing"), "{shown}: {total}");
        assert_eq!(check(&path, "trend(total) != growing"), Some(1), "{shown}");
        let band = format!("band('^{}$') trend != growing", regex::escape(name));
        assert_eq!(check(&path, &band), Some(1), "{shown}: {band}");
    }
}

#[test]
fn no_fix_is_growing_in_any_run() {
    for path in PROGRAMS.iter().flat_map(|(_, fix)| runs(fix)) {
        let shown = path.display();
        let s = summary(&path);
        assert_ne!(s["total"]["trend"], "growing", "{shown}: the total");
        let largest = &s["bands"][0];
        assert_ne!(largest["trend"], "growing", "{shown}: {}", largest["name"]);
        assert_eq!(check(&path, "trend(total) != growing"), Some(0), "{shown}");
    }
}
