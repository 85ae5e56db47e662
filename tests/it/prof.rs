//! GHC's time and allocation reports (`+RTS -p`, `-P`, `-pa`) read into the cost-centre
//! model, held to what GHC itself says: the header's totals, and the trees of runs of one
//! program (its allocation is deterministic: it has no threads) agreeing stack for stack.
//! Fixtures: `fixtures/prof/ghc-*/MapFib*.prof` of GHC 9.0.2, 9.6.6 and 9.10.3, of
//! `fixtures/prof/MapFib.hs` (`ghc -O0 -prof -fprof-auto`, then `+RTS -p`, `-P`, `-pa`,
//! `-pj`: scripts/regen-prof-fixtures.sh); one label holds a quote, a slash and a letter
//! past ASCII.

use crate::common;

use std::collections::HashMap;
use std::path::Path;

use hpgraph::input::prof::parse;
use hpgraph::profile::costs::{CostProfile, Precision};

/// The GHCs whose reports are fixtures.
const GHCS: [&str; 3] = ["ghc-9.0.2", "ghc-9.6.6", "ghc-9.10.3"];

/// Every fixture run: a folder and the program's name in it. Besides `MapFib` of three
/// GHCs, a real program: pandoc (`fixtures/prof/Pandoc.hs`, the profiled library of
/// Debian's libghc-pandoc-prof, GHC 9.0.2): a tree of 1,268 stacks, of the 7,875 cost
/// centres its JSON defines.
const RUNS: [(&str, &str); 4] = [
    ("ghc-9.0.2", "MapFib"),
    ("ghc-9.6.6", "MapFib"),
    ("ghc-9.10.3", "MapFib"),
    ("pandoc-ghc-9.0.2", "Pandoc"),
];

/// Writes `report` weighed by `measure` to `out`, the format by `out`'s name, as
/// `hpgraph REPORT --measure MEASURE -o OUT` does.
fn export(report: &Path, measure: &str, out: &Path) {
    let args = [
        report.to_str().unwrap(),
        "--measure",
        measure,
        "-o",
        out.to_str().unwrap(),
    ];
    common::hpgraph_ok(Path::new("."), &args);
}

fn dir(ghc: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/prof")
        .join(ghc)
}

fn read_of(ghc: &str, name: &str) -> CostProfile {
    let path = dir(ghc).join(name);
    let r = parse(&std::fs::read(&path).unwrap()).unwrap_or_else(|e| panic!("{ghc} {name}: {e}"));
    assert!(r.warnings.is_empty(), "{ghc} {name}: {:?}", r.warnings);
    r.profile
}

fn read(name: &str) -> CostProfile {
    read_of(GHCS[0], name)
}

/// Each stack by its path of `Module.label` names, with its entries and bytes.
fn by_path(p: &CostProfile) -> ByPath {
    (0..p.stacks.len())
        .map(|k| {
            let path = p
                .path(k)
                .iter()
                .map(|&c| p.centres[c as usize].name())
                .collect();
            (path, (p.stacks[k].entries, p.stacks[k].bytes))
        })
        .collect()
}

#[test]
fn a_counted_report_adds_up_to_its_headers_totals() {
    for ghc in GHCS {
        let p = read_of(ghc, "MapFib-P.prof");
        assert_eq!(p.precision, Precision::Counted);
        let ticks: f64 = p.stacks.iter().map(|s| s.ticks).sum();
        let bytes: f64 = p.stacks.iter().map(|s| s.bytes).sum();
        assert_eq!(ticks, p.total_ticks as f64, "{ghc}");
        assert_eq!(bytes, p.total_bytes as f64, "{ghc}");
        assert_eq!(
            p.inherited(|s| s.bytes)[0],
            p.total_bytes as f64,
            "MAIN inherits it all"
        );
        // GHC folds recursion: fib 24's 150,049 entries are one stack under main.
        let fib: Vec<Vec<u8>> = ["MAIN.MAIN", "Main.CAF", "Main.main", "Main.fib"]
            .map(|n| n.as_bytes().to_vec())
            .to_vec();
        assert_eq!(by_path(&p)[&fib].0, 150_049, "{ghc}");
        // The label with a quote, a slash and an é is one frame.
        let label = "say\"é\"/done".as_bytes();
        assert!(p.centres.iter().any(|c| &*c.label == label), "{ghc}");
    }
}

#[test]
fn runs_of_one_program_agree_stack_for_stack() {
    for ghc in GHCS {
        let p = read_of(ghc, "MapFib-P.prof");
        let total = p.total_bytes as f64;
        let counted = by_path(&p);
        let shares = read_of(ghc, "MapFib-p.prof");
        assert_eq!(shares.precision, Precision::Percentages);
        let shares = by_path(&shares);
        let every = by_path(&read_of(ghc, "MapFib-pa.prof"));
        assert_eq!(shares.len(), counted.len(), "{ghc}");
        assert!(every.len() > counted.len(), "-pa keeps every cost centre");
        for (path, (entries, bytes)) in &counted {
            assert_eq!(shares[path].0, *entries, "{ghc} {path:?}");
            assert_eq!(every[path].0, *entries, "{ghc} {path:?}");
            // A share's estimate is whole bytes, as GHC counts them.
            assert_eq!(shares[path].1.fract(), 0.0, "{ghc} {path:?}");
            // One decimal of a percentage: within 0.05% of the run's total.
            assert!(
                (shares[path].1 - bytes).abs() <= 0.0005 * total + 1.0,
                "{ghc} {path:?}"
            );
        }
    }
}

/// A `-p` report's summary gives the run's total as its header does, and says what its
/// rows (each estimated from shares GHC rounds to 0.1%) add up to where that differs.
#[test]
fn a_shares_reports_summary_gives_the_headers_total() {
    let mut differed = 0;
    for ghc in GHCS {
        let path = common::fixtures().join(format!("prof/{ghc}/MapFib-p.prof"));
        let text = std::fs::read_to_string(&path).unwrap();
        // `total alloc = 195,520,104 bytes`, read from GHC's text.
        let header = common::report_figure(&text, "total alloc");
        let dir = common::Scratch::new("shares-total");
        let args = [path.to_str().unwrap(), "--measure", "alloc"];
        let json = common::hpgraph_ok(&dir.0, &[&args[..], &["--summary=json"]].concat());
        let json: serde_json::Value = serde_json::from_slice(&json).unwrap();
        let rows = json["total"].as_f64().unwrap();
        assert!(
            (rows - header as f64).abs() <= 0.005 * header as f64,
            "{ghc}: {rows} of {header}"
        );
        let first = String::from_utf8(common::hpgraph_ok(
            &dir.0,
            &[&args[..], &["--summary"]].concat(),
        ))
        .unwrap();
        let first = first.lines().next().unwrap().to_string();
        if rows == header as f64 {
            assert!(json.get("report_total").is_none(), "{ghc}");
            assert_eq!(first, format!("the whole run: {header} bytes"), "{ghc}");
        } else {
            differed += 1;
            assert_eq!(json["report_total"].as_u64(), Some(header), "{ghc}");
            assert!(
                first.starts_with(&format!(
                    "the whole run: {header} bytes (the report's total"
                )),
                "{ghc}: {first}"
            );
            assert!(
                first.ends_with(&format!("add up to {rows})")),
                "{ghc}: {first}"
            );
        }
    }
    assert!(differed >= 1, "a report whose shares fall short");
}

/// Folded stacks as a map from stack to its summed measure, zeros left out.
fn folded_map(text: &str) -> std::collections::BTreeMap<String, u64> {
    let mut map = std::collections::BTreeMap::new();
    for line in text.lines() {
        let (stack, n) = line.rsplit_once(' ').expect("a stack and a count");
        let n: u64 = n.parse().expect("a count");
        if n > 0 {
            *map.entry(stack.to_string()).or_insert(0) += n;
        }
    }
    map
}

/// `inferno-collapse-ghcprof` (crates.io, not ours) folds the same report to the same
/// stacks with the same ticks and bytes. CI installs it; elsewhere its absence skips
/// this test, unless `CI` is set.
#[test]
fn folded_stacks_are_inferno_collapse_ghcprofs() {
    let tool = "inferno-collapse-ghcprof";
    if !common::have(tool, &["--help"]) {
        return;
    }
    let cases = RUNS.iter().flat_map(|&(ghc, program)| {
        use hpgraph::profile::costs::Measure::{Alloc, Time};
        let all =
            (program == "MapFib").then_some((ghc, format!("{program}-pa.prof"), "--bytes", Alloc));
        [
            Some((ghc, format!("{program}-P.prof"), "--ticks", Time)),
            Some((ghc, format!("{program}-P.prof"), "--bytes", Alloc)),
            all,
        ]
        .into_iter()
        .flatten()
    });
    for (ghc, name, flag, measure) in cases {
        let name = name.as_str();
        let dir = dir(ghc);
        let theirs = std::process::Command::new(tool)
            .arg(flag)
            .arg(dir.join(name))
            .output()
            .unwrap();
        crate::common::assert_ok_as(&theirs, format_args!("{tool} {flag} {name}"));
        let mut ours = Vec::new();
        hpgraph::export::costs::write_folded(&read_of(ghc, name), measure, &mut ours).unwrap();
        let (ours, theirs) = (
            folded_map(&String::from_utf8(ours).unwrap()),
            folded_map(&String::from_utf8(theirs.stdout).unwrap()),
        );
        assert!(ours.len() >= 3, "{ghc} {name}: {} stacks", ours.len());
        assert_eq!(ours, theirs, "{ghc} {name} {flag}");
        // The command line's folded export of the report is the same.
        let out =
            std::env::temp_dir().join(format!("hpgraph-prof-{}-{flag}.folded", std::process::id()));
        let measure = if flag == "--ticks" { "time" } else { "alloc" };
        export(&dir.join(name), measure, &out);
        let cli = folded_map(&std::fs::read_to_string(&out).unwrap());
        std::fs::remove_file(&out).unwrap();
        assert_eq!(
            cli, theirs,
            "hpgraph {name} --measure {measure} -o x.folded"
        );
    }
}

/// The JSON report (`-pj`) of the same program gives every stack the text report (`-P`)
/// gives, with the same entries and bytes (its allocation is deterministic), besides the
/// runtime's own cost centres, which only the JSON holds: its total is the text's plus
/// theirs.
#[test]
fn the_json_report_agrees_with_the_text_node_for_node() {
    for (ghc, program) in RUNS {
        json_agrees(ghc, program);
    }
}

fn json_agrees(ghc: &str, program: &str) {
    let bytes = std::fs::read(dir(ghc).join(format!("{program}-pj.prof"))).unwrap();
    assert!(hpgraph::input::prof::json::is_report(&bytes));
    let json = hpgraph::input::prof::json::parse(&bytes).unwrap().profile;
    let text = read_of(ghc, &format!("{program}-P.prof"));
    let (ours, theirs) = (by_path(&text), by_path(&json));
    for (path, (entries, bytes)) in &ours {
        let (e, b) = theirs
            .get(path)
            .unwrap_or_else(|| panic!("{ghc}: {path:?} not in the JSON"));
        assert_eq!((e, b), (entries, bytes), "{ghc}: {path:?}");
    }
    let runtime: f64 = (theirs.iter())
        .filter(|(path, _)| !ours.contains_key(*path))
        .map(|(_, v)| v.1)
        .sum();
    assert!(runtime > 0.0, "SYSTEM and the profiler's overhead");
    assert_eq!(text.total_bytes as f64 + runtime, json.total_bytes as f64);
    let all: f64 = json.stacks.iter().map(|s| s.bytes).sum();
    assert_eq!(all, json.total_bytes as f64);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

    /// A report cut anywhere or with bytes changed anywhere (text or JSON) reads, or is an
    /// error; it never panics.
    #[test]
    fn damaged_reports_read_or_fail_but_never_panic(
        which in 0usize..4,
        cut in 0.0f64..1.0,
        changes in proptest::collection::vec((0.0f64..1.0, proptest::prelude::any::<u8>()), 0..8),
    ) {
        let name = ["MapFib-P.prof", "MapFib-p.prof", "MapFib-pa.prof", "MapFib-pj.prof"][which];
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/prof/ghc-9.0.2").join(name);
        let mut bytes = std::fs::read(path).unwrap();
        bytes.truncate((bytes.len() as f64 * cut) as usize + 1);
        for (at, b) in changes {
            let k = ((bytes.len() - 1) as f64 * at) as usize;
            bytes[k] = b;
        }
        let _ = hpgraph::input::parse(&bytes);
        let _ = hpgraph::input::prof::parse(&bytes);
        let _ = hpgraph::input::prof::json::parse(&bytes);
    }
}

/// `go tool pprof` (not ours) reads a report's pprof export: time in ticks, the stacks'
/// ticks adding up to the report's header total; allocation in bytes likewise.
#[test]
fn pprof_reads_a_reports_stacks_with_its_totals() {
    if !common::have("go", &["version"]) {
        return;
    }
    let report =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/prof/ghc-9.0.2/MapFib-P.prof");
    let p = read("MapFib-P.prof");
    for (measure, kind, total) in [
        ("time", "time/ticks", p.total_ticks),
        ("alloc", "alloc_space/bytes", p.total_bytes),
    ] {
        let out = std::env::temp_dir().join(format!(
            "hpgraph-prof-{}-{measure}.pb.gz",
            std::process::id()
        ));
        export(&report, measure, &out);
        let raw = std::process::Command::new("go")
            .args(["tool", "pprof", "-raw"])
            .arg(&out)
            .output()
            .unwrap();
        std::fs::remove_file(&out).unwrap();
        let raw = String::from_utf8(raw.stdout).unwrap();
        let samples = raw.split("Samples:\n").nth(1).expect("pprof's samples");
        let mut lines = samples.lines();
        assert_eq!(lines.next(), Some(kind), "{measure}");
        let sum: u64 = lines
            .take_while(|l| !l.starts_with("Locations"))
            .filter_map(|l| l.trim().split(':').next()?.trim().parse::<u64>().ok())
            .sum();
        assert_eq!(sum, total, "{measure}: pprof's sum of the samples");
        // Each location's file and line: its cost centre's SRC in GHC's top table
        // (`MapFib.hs:6:1-46` is MapFib.hs, line 6).
        let text = std::fs::read_to_string(&report).unwrap();
        let top = (text
            .lines()
            .skip_while(|l| !l.starts_with("COST CENTRE"))
            .skip(2))
        .take_while(|l| !l.trim().is_empty());
        for w in top.map(|l| l.split_whitespace().collect::<Vec<_>>()) {
            let (file, line) = w[2].split_once(':').unwrap();
            let want = format!(
                " {}.{} {file}:{} ",
                w[1],
                w[0],
                line.split(':').next().unwrap()
            );
            assert!(raw.contains(&want), "{measure}: no location{want}in {raw}");
        }
    }
}

/// `--summary` of a report: each cost centre's individual ticks and bytes are what GHC's
/// own table of the costliest cost centres (at the report's top) gives, and the hottest
/// path starts at the root with the whole run.
#[test]
fn the_summary_of_a_report_is_ghcs_own_table() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/prof/ghc-9.0.2");
    // GHC's table: `label module src %time %alloc ticks bytes`, after the first header.
    let table = ghcs_table(&dir.join("MapFib-P.prof"));
    assert!(table.len() >= 3, "{table:?}");
    for (measure, column) in [("time", 1), ("alloc", 2)] {
        let out = common::hpgraph(
            Path::new("."),
            &[
                dir.join("MapFib-P.prof").to_str().unwrap(),
                "--summary=json",
                "--measure",
                measure,
            ],
            None,
        );
        crate::common::assert_ok(&out);
        let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        for row in &table {
            let want = if column == 1 { row.1 } else { row.2 };
            let got = s["by_individual"]
                .as_array()
                .unwrap()
                .iter()
                .find(|c| c["name"] == row.0.as_str());
            assert_eq!(
                got.map(|c| c["individual"].as_u64()),
                Some(Some(want)),
                "{measure}: {}",
                row.0
            );
        }
        assert_eq!(s["hottest_path"][0]["name"], "MAIN.MAIN");
        assert_eq!(s["hottest_path"][0]["inherited"], s["total"]);
    }
}

/// GHC's table of the costliest cost centres at a report's top: `Module.label`, its
/// ticks and its bytes.
fn ghcs_table(report: &Path) -> Vec<(String, u64, u64)> {
    let text = std::fs::read_to_string(report).unwrap();
    (text.lines())
        .skip_while(|l| !l.starts_with("COST CENTRE"))
        .skip(2)
        .take_while(|l| !l.trim().is_empty())
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let n = w.len();
            (
                format!("{}.{}", w[1], w[0]),
                w[n - 2].parse().unwrap(),
                w[n - 1].parse().unwrap(),
            )
        })
        .collect()
}

/// What `callgrind_annotate` (valgrind's, not ours) reads from a callgrind file: the
/// program's totals, and each function's cost (`file:function`).
fn annotated(file: &Path, inclusive: bool) -> (u64, Vec<(String, u64)>) {
    let out = std::process::Command::new("callgrind_annotate")
        .arg(format!(
            "--inclusive={}",
            if inclusive { "yes" } else { "no" }
        ))
        .arg("--threshold=100")
        .arg(file)
        .output()
        .unwrap();
    crate::common::assert_ok(&out);
    let text = String::from_utf8(out.stdout).unwrap();
    let number = |w: &str| w.replace(',', "").parse::<u64>().ok();
    let mut totals = None;
    let mut functions = Vec::new();
    for line in text.lines() {
        let Some((cost, rest)) = line.trim().split_once(' ') else {
            continue;
        };
        let Some(cost) = number(cost) else { continue };
        let Some(name) = rest.trim().split_once(')').map(|(_, n)| n.trim()) else {
            continue;
        };
        if name == "PROGRAM TOTALS" {
            totals = Some(cost);
        } else if !name.is_empty() && !name.starts_with("=>") && !name.starts_with("<=") {
            functions.push((name.to_string(), cost));
        }
    }
    (totals.expect("callgrind_annotate's totals"), functions)
}

/// `-o callgrind.out.NAME` of a report: `callgrind_annotate` reads the header's totals,
/// each cost centre of GHC's own table with its ticks or bytes as the function's self
/// cost, and the root inheriting the whole run; of eventlog samples, as many ticks as
/// ghc-events reads samples.
#[test]
fn callgrind_annotate_reads_the_callgrind_export_with_ghcs_totals() {
    if !common::have("callgrind_annotate", &["--version"]) {
        return;
    }
    let scratch = std::env::temp_dir().join(format!("hpgraph-callgrind-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    for (ghc, program) in RUNS {
        let report = dir(ghc).join(format!("{program}-P.prof"));
        let p = read_of(ghc, &format!("{program}-P.prof"));
        let table = ghcs_table(&report);
        assert!(table.len() >= 3, "{table:?}");
        for (measure, total) in [("time", p.total_ticks), ("alloc", p.total_bytes)] {
            let out = scratch.join(format!("callgrind.out.{measure}"));
            export(&report, measure, &out);
            let (totals, functions) = annotated(&out, false);
            assert_eq!(totals, total, "{ghc} {measure}: the header's total");
            for (name, ticks, bytes) in &table {
                let want = if measure == "time" { *ticks } else { *bytes };
                let got = functions
                    .iter()
                    .find(|f| f.0.ends_with(&format!(":{name}")))
                    .map(|f| f.1);
                assert_eq!(got, Some(want), "{ghc} {measure}: {name} in {functions:?}");
            }
            let (_, inclusive) = annotated(&out, true);
            assert_eq!(
                inclusive
                    .iter()
                    .find(|f| f.0.ends_with(":MAIN.MAIN"))
                    .map(|f| f.1),
                Some(total),
                "{ghc} {measure}: the root inherits the run"
            );
        }
        let eventlog = dir(ghc).join(format!("{program}-samples.eventlog"));
        let samples =
            std::fs::read_to_string(dir(ghc).join(format!("{program}-samples.samples"))).unwrap();
        let n = samples
            .lines()
            .filter(|l| l.starts_with("sample\t"))
            .count() as u64;
        let out = scratch.join("callgrind.out.samples");
        common::hpgraph_ok(
            Path::new("."),
            &[eventlog.to_str().unwrap(), "-o", out.to_str().unwrap()],
        );
        assert_eq!(annotated(&out, false).0, n, "{ghc}: the samples");
    }
    std::fs::remove_dir_all(&scratch).ok();
}

/// `--min-share`: what is hidden is what GHC's own tree says weighs under the share.
/// From the `-P` text's rows (depth by indentation, ticks in their column), every
/// stack's inherited ticks; a stack with an ancestor (or itself) under the share is
/// hidden in an `(other)`, the rest kept; the summary's hidden ticks and the folded
/// stacks' total follow.
#[test]
fn pruning_hides_what_ghcs_tree_weighs_under_the_share() {
    let mut hid = 0;
    for (ghc, program) in RUNS {
        let report = dir(ghc).join(format!("{program}-P.prof"));
        let text = std::fs::read_to_string(&report).unwrap();
        let rows: Vec<(usize, u64)> = (text.lines())
            .skip_while(|l| !(l.starts_with("COST CENTRE") && l.contains(" no. ")))
            .skip(2)
            .take_while(|l| !l.trim().is_empty())
            .map(|l| {
                let w: Vec<&str> = l.split_whitespace().collect();
                (
                    l.len() - l.trim_start().len(),
                    w[w.len() - 2].parse().unwrap(),
                )
            })
            .collect();
        // Each row's parent, then inherited ticks bottom-up.
        let mut parent = vec![None; rows.len()];
        let mut path: Vec<usize> = Vec::new();
        for (k, &(depth, _)) in rows.iter().enumerate() {
            while path.last().is_some_and(|&p| rows[p].0 >= depth) {
                path.pop();
            }
            parent[k] = path.last().copied();
            path.push(k);
        }
        let mut inherited: Vec<u64> = rows.iter().map(|r| r.1).collect();
        for k in (0..rows.len()).rev() {
            if let Some(p) = parent[k] {
                inherited[p] += inherited[k];
            }
        }
        let total: u64 = rows.iter().map(|r| r.1).sum();
        for share in [1.0, 5.0] {
            let least = total as f64 * share / 100.0;
            let hidden: u64 = (0..rows.len())
                .filter(|&k| {
                    let mut at = Some(k);
                    while let Some(a) = at {
                        if (inherited[a] as f64) < least {
                            return true;
                        }
                        at = parent[a];
                    }
                    false
                })
                .map(|k| rows[k].1)
                .sum();
            let out = common::hpgraph(
                Path::new("."),
                &[
                    report.to_str().unwrap(),
                    "--summary=json",
                    "--min-share",
                    &share.to_string(),
                ],
                None,
            );
            crate::common::assert_ok(&out);
            let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(
                s["total"], total,
                "{ghc} {program} {share}%: the total stays"
            );
            let got = s["pruned"]["weight"].as_u64().unwrap_or(0);
            assert_eq!(got, hidden, "{ghc} {program} {share}%: what was hidden");
            hid += usize::from(hidden > 0);
        }
    }
    assert!(hid >= 4, "the shares hide something in most runs: {hid}");
}

/// `--compare A.prof B.prof -o x.folded`: the two-column folded stacks
/// (`stack before after`, as inferno's difffolded writes them) hold, stack by stack,
/// what `inferno-collapse-ghcprof --ticks` folds from each report; without `-o x.folded`
/// the picture is the differential flame graph.
#[test]
fn two_reports_compare_stack_by_stack_as_inferno_folds_each() {
    let tool = "inferno-collapse-ghcprof";
    if !common::have(tool, &["--help"]) {
        return;
    }
    let (a, b) = (
        dir("ghc-9.0.2").join("MapFib-P.prof"),
        dir("ghc-9.10.3").join("MapFib-P.prof"),
    );
    let fold = |p: &Path| {
        let out = std::process::Command::new(tool)
            .arg("--ticks")
            .arg(p)
            .output()
            .unwrap();
        folded_map(&String::from_utf8(out.stdout).unwrap())
    };
    let (before, after) = (fold(&a), fold(&b));
    let scratch = std::env::temp_dir().join(format!("hpgraph-cmp-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let compare = |out: &Path| {
        common::hpgraph_ok(
            Path::new("."),
            &[
                "--compare",
                a.to_str().unwrap(),
                b.to_str().unwrap(),
                "-o",
                out.to_str().unwrap(),
            ],
        );
    };
    let out = scratch.join("d.folded");
    compare(&out);
    let text = std::fs::read_to_string(&out).unwrap();
    let mut ours: std::collections::BTreeMap<String, (u64, u64)> = Default::default();
    for line in text.lines() {
        let mut w = line.rsplitn(3, ' ');
        let (after, before, stack) = (w.next().unwrap(), w.next().unwrap(), w.next().unwrap());
        let e = ours.entry(stack.to_string()).or_default();
        e.0 += before.parse::<u64>().unwrap();
        e.1 += after.parse::<u64>().unwrap();
    }
    ours.retain(|_, v| *v != (0, 0));
    let stacks: std::collections::BTreeSet<&String> = before.keys().chain(after.keys()).collect();
    assert!(stacks.len() >= 3);
    for stack in stacks {
        let want = (
            before.get(stack).copied().unwrap_or(0),
            after.get(stack).copied().unwrap_or(0),
        );
        assert_eq!(ours.get(stack), Some(&want), "{stack}");
    }
    // The picture of two reports is their differential flame graph.
    let svg = scratch.join("d.svg");
    compare(&svg);
    let svg = std::fs::read_to_string(&svg).unwrap();
    // Its root's tooltip: both runs' totals, as inferno folds them.
    let root = format!(
        "<title>all: {} ticks before, {} ticks after",
        before.values().sum::<u64>(),
        after.values().sum::<u64>()
    );
    assert!(svg.contains(&root), "a differential flame graph: {root}");
    std::fs::remove_dir_all(&scratch).ok();
}

/// `-o x.csv` of a report: its tree, a row per frame, as GHC's own rows give it: each
/// stack's entries and individual ticks from its row, inherited ticks summed over the
/// rows under it (stacks that weigh nothing are left out).
#[test]
fn the_csv_of_a_report_is_ghcs_tree() {
    for (ghc, program) in RUNS {
        let report = dir(ghc).join(format!("{program}-P.prof"));
        let text = std::fs::read_to_string(&report).unwrap();
        let header = text
            .lines()
            .find(|l| l.starts_with("COST CENTRE") && l.contains(" no. "))
            .unwrap();
        let module_at = header.find("MODULE").unwrap();
        let src_at = header.find("SRC").unwrap();
        // GHC's rows: the path of Module.label names, entries, own ticks.
        let mut rows: Vec<(Vec<String>, u64, u64)> = Vec::new();
        let mut path: Vec<(usize, String)> = Vec::new();
        for l in (text.lines())
            .skip_while(|l| !(l.starts_with("COST CENTRE") && l.contains(" no. ")))
            .skip(2)
            .take_while(|l| !l.trim().is_empty())
        {
            let chars: Vec<char> = l.chars().collect();
            let cut = |a: usize, b: usize| chars[a..b].iter().collect::<String>();
            let depth = l.len() - l.trim_start().len();
            let name = format!(
                "{}.{}",
                cut(module_at, src_at).trim(),
                cut(depth, module_at).trim()
            );
            while path.last().is_some_and(|p| p.0 >= depth) {
                path.pop();
            }
            path.push((depth, name));
            let w: Vec<&str> = l.split_whitespace().collect();
            let n = w.len();
            rows.push((
                path.iter().map(|p| p.1.clone()).collect(),
                w[n - 7].parse().unwrap(),
                w[n - 2].parse().unwrap(),
            ));
        }
        let mut want: std::collections::BTreeMap<Vec<String>, (u64, u64, u64)> = Default::default();
        for (p, entries, ticks) in &rows {
            let e = want.entry(p.clone()).or_default();
            e.0 += entries;
            e.1 += ticks;
            for k in 1..=p.len() {
                want.entry(p[..k].to_vec()).or_default().2 += ticks;
            }
        }
        want.retain(|_, v| v.2 > 0);
        let out = common::hpgraph(
            Path::new("."),
            &[report.to_str().unwrap(), "--format", "csv", "-o", "-"],
            None,
        );
        crate::common::assert_ok(&out);
        let csv = String::from_utf8(out.stdout).unwrap();
        let mut lines = csv.lines();
        assert_eq!(
            lines.next(),
            Some("id,parent,frame,individual_ticks,inherited_ticks,entries")
        );
        let mut paths: std::collections::HashMap<u64, Vec<String>> = Default::default();
        let mut ours: std::collections::BTreeMap<Vec<String>, (u64, u64, u64)> = Default::default();
        for line in lines {
            // The frame may be quoted; the numbers around it are not.
            let (head, rest) = line.split_at(line.find(',').unwrap());
            let rest = &rest[1..];
            let (parent, rest) = rest.split_at(rest.find(',').unwrap());
            let rest = &rest[1..];
            let mut tail = rest.rsplitn(4, ',');
            let entries: u64 = tail.next().unwrap().parse().unwrap();
            let inherited: u64 = tail.next().unwrap().parse().unwrap();
            let individual: u64 = tail.next().unwrap().parse().unwrap();
            let name = tail.next().unwrap();
            let name = match name.strip_prefix('"') {
                Some(q) => q.strip_suffix('"').unwrap().replace("\"\"", "\""),
                None => name.to_string(),
            };
            let id: u64 = head.parse().unwrap();
            let mut p = match parent {
                "" => Vec::new(),
                p => paths[&p.parse::<u64>().unwrap()].clone(),
            };
            p.push(name);
            paths.insert(id, p.clone());
            ours.insert(p, (entries, individual, inherited));
        }
        assert_eq!(ours, want, "{ghc} {program}");
    }
}

/// Each stack of a report by its path of frame names: its entries and bytes.
type ByPath = HashMap<Vec<Vec<u8>>, (u64, f64)>;

/// A program's text report (`PROGRAM-P.prof`) and JSON report (`PROGRAM-pj.prof`) of
/// GHC `ghc`, each stack by its path of frame names.
fn text_and_json(ghc: &str, program: &str) -> (ByPath, ByPath) {
    let text = read_of(ghc, &format!("{program}-P.prof"));
    let bytes = std::fs::read(dir(ghc).join(format!("{program}-pj.prof"))).unwrap();
    let json = hpgraph::input::prof::json::parse(&bytes).unwrap().profile;
    (by_path(&text), by_path(&json))
}

/// GHC 9.0.2 writes a label's line breaks as they are in a text report: the row runs over
/// as many lines (`fixtures/prof/Newline.hs`). Each row reads whole, its label with its
/// breaks, as the same program's JSON report (which writes them `\n`) names it, stack for
/// stack with the same entries (the program's calls are deterministic).
#[test]
fn labels_with_line_breaks_read_whole_as_the_json_names_them() {
    let (text, json) = text_and_json("ghc-9.0.2", "Newline");
    for label in [&b"Main.two\nlines"[..], b"Main.three\nline\nlabel"] {
        assert!(
            text.keys().any(|p| p.iter().any(|n| n == label)),
            "{}",
            String::from_utf8_lossy(label)
        );
    }
    for (path, (entries, _)) in &text {
        let named: Vec<String> = path
            .iter()
            .map(|n| String::from_utf8_lossy(n).into())
            .collect();
        assert_eq!(json.get(path).map(|s| s.0), Some(*entries), "{named:?}");
    }
}

/// A program 56 levels deep (`fixtures/prof/Deep.hs`) as GHC 9.10 reports it: each stack
/// of its text report is in its JSON report (two runs; the calls are deterministic) with
/// the same entries, and their deepest stack is every level's with the runtime's and `work`'s frames.
#[test]
fn a_deep_programs_text_and_json_reports_read_alike_to_its_deepest_stack() {
    let (text, json) = text_and_json("ghc-9.10.3", "Deep");
    // The JSON lists stacks the text leaves out (nothing spent, nothing entered).
    assert!(text.len() > 100 && json.len() >= text.len());
    for (path, (entries, _)) in &text {
        assert_eq!(json.get(path).map(|s| s.0), Some(*entries), "{path:?}");
    }
    let deepest = text.keys().map(Vec::len).max().unwrap();
    // MAIN, CAF, main, 56 levels, work and its lambda.
    assert_eq!(deepest, 61, "the deepest stack's frames");
}
