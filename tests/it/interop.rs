//! The stack exports read by the tools they are for, not by our code: `go tool pprof`
//! (`-raw`) reads the pprof files, `inferno-flamegraph` the folded stacks, and Ajv
//! validates the speedscope files against speedscope's own schema. The expected figures
//! come from GHC's `.hp` text of each run (GHC 9.0.2, 9.6.6 and 9.10.3): the census a
//! WHEN picks, its stacks' bytes, a window's mean by trapezoids over the censuses.
//!
//! CI installs the tools (`.ci/run`); elsewhere a missing tool skips its test with a
//! note, unless `CI` is set, when it fails.

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn hpgraph() -> Command {
    crate::common::command(env!("CARGO_MANIFEST_DIR"))
}

/// GHC's `-hc` runs of three GHCs, each with the `.hp` GHC wrote and the eventlog of the
/// same run.
fn runs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut out = Vec::new();
    for dir in ["eventlog", "eventlog-9.6", "eventlog-9.10"] {
        for run in ["Leak-hc", "ManyCC-hc", "MapBuild-hc"] {
            let hp = root.join(dir).join(format!("{run}.hp"));
            if hp.exists() {
                out.push(hp);
            }
        }
    }
    assert!(out.len() >= 7, "{} runs", out.len());
    out
}

/// One census of a `.hp` file: its time and each stack's bytes by name, GHC's `(N)`
/// numbers dropped.
type Census = (f64, BTreeMap<String, u64>);

fn censuses(hp: &Path) -> Vec<Census> {
    (common::hp::censuses(hp).iter())
        .map(|c| {
            let bytes = (c.summed(common::hp::unnumbered).into_iter())
                .map(|(n, v)| (n, v as u64))
                .collect();
            (c.time, bytes)
        })
        .collect()
}

fn total(c: &Census) -> u64 {
    c.1.values().sum()
}

/// The census `--flame=peak` picks: the first of the highest totals.
fn peak(cs: &[Census]) -> &Census {
    cs.iter().fold(
        &cs[0],
        |best, c| if total(c) > total(best) { c } else { best },
    )
}

/// Each stack's mean over the censuses' time, by trapezoids.
fn mean(cs: &[Census]) -> BTreeMap<String, f64> {
    let span = cs[cs.len() - 1].0 - cs[0].0;
    let mut out = BTreeMap::new();
    for pair in cs.windows(2) {
        let dt = pair[1].0 - pair[0].0;
        for c in pair {
            for (name, &v) in &c.1 {
                *out.entry(name.clone()).or_insert(0.0) += v as f64 * dt / 2.0 / span;
            }
        }
    }
    out
}

fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hpgraph-interop-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run(cmd: &mut Command) -> Vec<u8> {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{cmd:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// `go tool pprof -raw`'s samples: each stack named as GHC names it (innermost first,
/// joined by `/`) and its value.
fn pprof_raw(file: &Path) -> BTreeMap<String, u64> {
    let text = String::from_utf8(run(Command::new("go")
        .args(["tool", "pprof", "-raw"])
        .arg(file)))
    .unwrap();
    let (samples, rest) = text.split_once("\nLocations\n").expect("-raw's locations");
    let locations: BTreeMap<u64, String> = rest
        .lines()
        .take_while(|l| !l.starts_with("Mappings"))
        .map(|l| {
            // "     6: 0x0 M=1 name :0 s=0", the name up to the last " FILE:LINE s=N".
            let (id, rest) = l.trim().split_once(": ").unwrap();
            let rest = rest.splitn(3, ' ').nth(2).unwrap();
            let name = rest.rsplitn(3, ' ').nth(2).unwrap();
            (id.parse().unwrap(), name.to_string())
        })
        .collect();
    let mut out = BTreeMap::new();
    for line in samples
        .lines()
        .skip_while(|l| !l.ends_with("/bytes"))
        .skip(1)
    {
        let (value, ids) = line.trim().split_once(": ").unwrap();
        let name: Vec<&str> = ids
            .split_whitespace()
            .map(|id| locations[&id.parse::<u64>().unwrap()].as_str())
            .collect();
        *out.entry(name.join("/")).or_default() += value.parse::<u64>().unwrap();
    }
    out
}

#[test]
fn pprof_reads_each_stack_of_the_census_ghc_wrote() {
    if !common::have("go", &["version"]) {
        return;
    }
    let dir = scratch("pprof");
    for hp in runs() {
        let cs = censuses(&hp);
        let pb = dir.join("heap.pb.gz");
        // The peak census (the default), stack for stack.
        run(hpgraph().arg(&hp).arg("-o").arg(&pb));
        let want = &peak(&cs).1;
        let got = pprof_raw(&pb);
        let want: BTreeMap<String, u64> = want
            .iter()
            .filter(|(_, v)| **v > 0)
            .map(|(k, &v)| (k.clone(), v))
            .collect();
        assert_eq!(got, want, "{}", hp.display());
        // The last census that holds anything.
        run(hpgraph().arg(&hp).arg("--flame=end").arg("-o").arg(&pb));
        let end = cs.iter().rev().find(|c| total(c) > 0).unwrap();
        assert_eq!(
            pprof_raw(&pb).values().sum::<u64>(),
            total(end),
            "{}",
            hp.display()
        );
        // The mean: each stack within a byte of its trapezoids' mean.
        run(hpgraph().arg(&hp).arg("--flame=mean").arg("-o").arg(&pb));
        let got = pprof_raw(&pb);
        for (name, want) in mean(&cs) {
            let got = got.get(&name).copied().unwrap_or(0) as f64;
            assert!(
                (got - want).abs() <= 0.5 + 1e-9,
                "{}: {name}: {got} vs {want}",
                hp.display()
            );
        }
        // The same run's eventlog: the same census total (its stacks are not cut at -L).
        let log = hp.with_extension("eventlog");
        run(hpgraph().arg(&log).arg("-o").arg(&pb));
        assert_eq!(
            pprof_raw(&pb).values().sum::<u64>(),
            total(peak(&cs)),
            "{}",
            log.display()
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// inferno's own total: the `all` frame's title, `all (1,234 bytes, 100%)`.
fn inferno_total(folded: &Path) -> u64 {
    let svg = run(Command::new("inferno-flamegraph")
        .args(["--countname", "bytes"])
        .stdin(std::fs::File::open(folded).unwrap()));
    let svg = String::from_utf8(svg).unwrap();
    let title = svg
        .split("<title>all (")
        .nth(1)
        .expect("inferno's all frame");
    title
        .split(' ')
        .next()
        .unwrap()
        .replace(',', "")
        .parse()
        .unwrap()
}

#[test]
fn inferno_draws_the_folded_stacks_of_the_census() {
    if !common::have("inferno-flamegraph", &["--help"]) {
        return;
    }
    let dir = scratch("folded");
    let runs = runs();
    for hp in &runs {
        let cs = censuses(hp);
        let folded = dir.join("heap.folded");
        run(hpgraph().arg(hp).arg("-o").arg(&folded));
        assert_eq!(inferno_total(&folded), total(peak(&cs)), "{}", hp.display());
        run(hpgraph().arg(hp).arg("--flame=end").arg("-o").arg(&folded));
        let end = cs.iter().rev().find(|c| total(c) > 0).unwrap();
        assert_eq!(inferno_total(&folded), total(end), "{}", hp.display());
    }
    // Two runs (the same program under two GHCs): the differential form, each column
    // its run's peak census; inferno's total is AFTER's.
    for pair in runs.chunks(3).take(1).flat_map(|c| c.windows(2)) {
        let (a, b) = (&pair[0], &pair[1]);
        let folded = dir.join("diff.folded");
        run(hpgraph()
            .arg("--compare")
            .arg(a)
            .arg(b)
            .arg("-o")
            .arg(&folded));
        let text = std::fs::read_to_string(&folded).unwrap();
        let (mut before, mut after) = (0u64, 0u64);
        for line in text.lines() {
            let f: Vec<&str> = line.rsplitn(3, ' ').collect();
            after += f[0].parse::<u64>().unwrap();
            before += f[1].parse::<u64>().unwrap();
        }
        assert_eq!(before, total(peak(&censuses(a))), "{}", a.display());
        assert_eq!(after, total(peak(&censuses(b))), "{}", b.display());
        assert_eq!(inferno_total(&folded), after);
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn inferno_reads_frames_that_look_like_counts_or_are_blank_as_written() {
    if !common::have("inferno-flamegraph", &["--help"]) {
        return;
    }
    // Frames a folded reader could take for a count (`a 12`, `b 1e3`), or pass over
    // (empty, blank, a tab): each band's bytes must reach inferno's total, and no line
    // be ignored or read as a differential one.
    let dir = scratch("odd-frames");
    let hp = "JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n\
              BEGIN_SAMPLE 0\n(1)a 12/main\t100\n(2)b 1e3/main\t20\n(3)x//main\t3\n\
              (4) /main\t4\n(5)c\t7/main\t5\n(6)d \t6\nEND_SAMPLE 0\n";
    std::fs::write(dir.join("odd.hp"), hp).unwrap();
    let folded = dir.join("odd.folded");
    run(hpgraph().arg(dir.join("odd.hp")).arg("-o").arg(&folded));
    let out = Command::new("inferno-flamegraph")
        .args(["--countname", "bytes"])
        .stdin(std::fs::File::open(&folded).unwrap())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && !err.contains("Ignored"), "{err}");
    assert_eq!(inferno_total(&folded), 100 + 20 + 3 + 4 + 5 + 6);
    let text = std::fs::read_to_string(&folded).unwrap();
    assert_eq!(text.lines().count(), 6, "{text}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn speedscope_files_follow_speedscope_s_schema_and_weigh_the_censuses() {
    let validator =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser/speedscope-schema.mjs");
    let modules = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser/node_modules/ajv");
    if !common::have("node", &["--version"])
        || !modules.exists() && std::env::var_os("CI").is_none()
    {
        eprintln!("skipped: node and tests/browser's modules are needed (npm ci there)");
        return;
    }
    let dir = scratch("speedscope");
    let mut files = Vec::new();
    for (k, hp) in runs().iter().enumerate() {
        let cs = censuses(hp);
        // Every census (these runs have fewer than the bound), each weighing its total,
        // the peak's the active profile.
        let file = dir.join(format!("{k}.speedscope.json"));
        run(hpgraph().arg(hp).arg("-o").arg(&file));
        let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
        let profiles = v["profiles"].as_array().unwrap();
        assert_eq!(profiles.len(), cs.len(), "{}", hp.display());
        for (p, c) in profiles.iter().zip(&cs) {
            let weights: u64 = (p["weights"].as_array().unwrap().iter())
                .map(|w| w.as_u64().unwrap())
                .sum();
            assert_eq!(weights, total(c), "{}: {}", hp.display(), p["name"]);
            let time: f64 = p["name"]
                .as_str()
                .unwrap()
                .split(' ')
                .next()
                .unwrap()
                .parse()
                .unwrap();
            assert!(
                (time - c.0).abs() < 0.001,
                "{}: {}",
                hp.display(),
                p["name"]
            );
        }
        let active = v["activeProfileIndex"].as_u64().unwrap() as usize;
        assert_eq!(total(&cs[active]), total(peak(&cs)), "{}", hp.display());
        files.push(file);
        // --flame=mean: one profile, the mean heap.
        let file = dir.join(format!("{k}-mean.speedscope.json"));
        run(hpgraph().arg(hp).arg("--flame=mean").arg("-o").arg(&file));
        let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
        assert_eq!(v["profiles"].as_array().unwrap().len(), 1);
        let weights: u64 = (v["profiles"][0]["weights"].as_array().unwrap().iter())
            .map(|w| w.as_u64().unwrap())
            .sum();
        let want: f64 = mean(&cs).values().sum();
        let stacks = v["profiles"][0]["weights"].as_array().unwrap().len() as f64;
        assert!((weights as f64 - want).abs() <= stacks, "{}", hp.display());
        files.push(file);
    }
    // IPE (GHC 9.10, -hi): frames carry the info table's source file and line.
    let ipe = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/eventlog-9.10/Leak-hi.eventlog");
    let file = dir.join("ipe.speedscope.json");
    run(hpgraph().arg(&ipe).arg("--flame").arg("-o").arg(&file));
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    assert!(
        (v["shared"]["frames"].as_array().unwrap().iter())
            .any(|f| f["file"] == "Leak.hs" && f["line"].as_u64().is_some()),
        "{v}"
    );
    files.push(file);
    // An eventlog's cost-centre samples: one profile, its samples the stacks in the order
    // ghc-events reads them (one capability: no two at one time), each one tick.
    let prof = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/prof/ghc-9.10.3");
    let file = dir.join("samples.speedscope.json");
    run(hpgraph()
        .arg(prof.join("MapFib-samples.eventlog"))
        .arg("-o")
        .arg(&file));
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    let frames: Vec<&str> = (v["shared"]["frames"].as_array().unwrap().iter())
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    let p = &v["profiles"][0];
    let ours: Vec<String> = (p["samples"].as_array().unwrap().iter())
        .map(|s| {
            let ids = s.as_array().unwrap().iter();
            let names: Vec<&str> = ids.map(|i| frames[i.as_u64().unwrap() as usize]).collect();
            names.join(";")
        })
        .collect();
    let mut theirs = common::samples_oracle(&prof.join("MapFib-samples.samples"));
    theirs.sort_by_key(|s| s.0);
    let theirs: Vec<String> = theirs.into_iter().map(|s| s.1).collect();
    assert_eq!(ours, theirs);
    assert!(p["weights"].as_array().unwrap().iter().all(|w| w == 1));
    files.push(file);
    // A report's stacks, weighed by time; each frame with its cost centre's file and
    // first line, as GHC's report writes its SRC.
    let file = dir.join("report.speedscope.json");
    run(hpgraph()
        .arg(prof.join("MapFib-P.prof"))
        .arg("-o")
        .arg(&file));
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    let step = (v["shared"]["frames"].as_array().unwrap().iter())
        .find(|f| f["name"] == "Main.step")
        .expect("Main.step");
    let text = std::fs::read_to_string(prof.join("MapFib-P.prof")).unwrap();
    let src = (text
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>()))
    .find(|w| w.len() > 2 && w[0] == "step" && w[1] == "Main")
    .map(|w| w[2].to_string())
    .unwrap();
    let (file_name, line) = src.split_once(':').unwrap();
    assert_eq!(step["file"], file_name, "{src}");
    assert_eq!(
        step["line"].to_string(),
        line.split(':').next().unwrap(),
        "{src}"
    );
    files.push(file);
    let out = Command::new("node")
        .arg(&validator)
        .args(&files)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter(|l| l.starts_with("ok "))
            .count(),
        files.len()
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// A `-pj` report as `jq` writes it (one line with `-c`, or its own indentation) reads
/// as GHC's own layout does: the same folded stacks, for each measure, for GHC 9.6.6 and
/// 9.10.3 and pandoc (GHC 9.0.2's report is not JSON: `jq` refuses its unescaped `"`).
#[test]
fn a_json_report_respaced_by_jq_reads_as_ghcs_own() {
    if !common::have("jq", &["--version"]) {
        return;
    }
    let dir = scratch("jq");
    let folded = |path: &Path| {
        let mut out = Vec::new();
        for measure in ["time", "alloc", "entries"] {
            let file = dir.join(format!("{measure}.folded"));
            run(hpgraph()
                .arg(path)
                .args(["--measure", measure, "-o"])
                .arg(&file));
            out.extend(std::fs::read(&file).unwrap());
        }
        out
    };
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/prof");
    for run in [
        "ghc-9.6.6/MapFib-pj.prof",
        "ghc-9.10.3/MapFib-pj.prof",
        "pandoc-ghc-9.0.2/Pandoc-pj.prof",
    ] {
        let original = fixtures.join(run);
        let want = folded(&original);
        assert!(!want.is_empty(), "{run}");
        // jq's own spacing, one line (`-c`), and keys sorted (`-S`: a node's children
        // before its id), as scripts rewrite reports.
        for (flags, name) in [
            (&["-c", "."][..], "compact.json"),
            (&["."][..], "jq.json"),
            (&["-S", "."][..], "sorted.json"),
            (&["-S", "-c", "."][..], "sorted-compact.json"),
        ] {
            let out = Command::new("jq")
                .args(flags)
                .arg(&original)
                .output()
                .unwrap();
            crate::common::assert_ok_as(&out, format_args!("jq {flags:?} {run}"));
            let respaced = dir.join(name);
            std::fs::write(&respaced, &out.stdout).unwrap();
            assert!(folded(&respaced) == want, "{run} through jq {flags:?}");
        }
    }
}
