//! A leak is called a leak: a server whose memo cache is never evicted
//! (`fixtures/programs/Cache.hs`, freed as the program finishes) and the same server
//! with the cache bounded (`CacheFixed.hs`), each run with `-hT` and `-hc` on three GHCs
//! (`scripts/regen-leak-fixtures.sh`), each run's `.hp` and eventlog. The leak's total
//! and its largest band are `growing` in the summary's text and JSON and fail `--check`;
//! the fix's are not. (The page's table: tests/browser/table.mjs.)

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

#[test]
fn the_leak_is_growing_in_every_run_of_three_ghcs() {
    for path in runs("Cache") {
        let shown = path.display();
        let s = summary(&path);
        assert_eq!(s["total"]["trend"], "growing", "{shown}: the total");
        let largest = &s["bands"][0];
        let name = largest["name"].as_str().unwrap();
        assert_eq!(largest["trend"], "growing", "{shown}: {name}");
        // The program frees its cache as it finishes: a teardown, said.
        assert!(s["teardown_from"].is_f64(), "{shown}: {s}");
        // From GHC's own text: the band climbs to the teardown (a .hp's censuses).
        if path.extension().is_some_and(|e| e == "hp") {
            let censuses = common::hp::censuses(&path);
            let at = s["teardown_from"].as_f64().unwrap();
            let body: Vec<f64> = (censuses.iter())
                .filter(|c| c.time <= at)
                .map(|c| c.of(name))
                .collect();
            let (first, last) = (body[body.len() * 3 / 4], body[body.len() - 1]);
            assert!(last > first * 1.02, "{shown}: {name} {first} → {last}");
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
fn the_fix_is_not_growing_in_any_run() {
    for path in runs("CacheFixed") {
        let shown = path.display();
        let s = summary(&path);
        assert_ne!(s["total"]["trend"], "growing", "{shown}: the total");
        let largest = &s["bands"][0];
        assert_ne!(largest["trend"], "growing", "{shown}: {}", largest["name"]);
        assert_eq!(check(&path, "trend(total) != growing"), Some(0), "{shown}");
    }
}
