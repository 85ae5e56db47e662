//! `--check`'s verdicts against figures read from references we did not write: GHC's own
//! `.hp` text (read here), the `+RTS -s` text of the same run (`fixtures/stats`), and a
//! published JUnit schema. A budget just above a figure holds (exit 0), just below it
//! fails (exit 1); a condition that cannot be judged exits 2 and writes nothing.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common;
use crate::common::{Scratch, fixtures, hpgraph};

/// The censuses of a `.hp` file as GHC wrote them: each sample's time and its bands.
fn censuses(path: &Path) -> Vec<(f64, Vec<(String, f64)>)> {
    (common::hp::censuses(path).into_iter())
        .map(|c| (c.time, c.lines))
        .collect()
}

fn totals(c: &[(f64, Vec<(String, f64)>)]) -> Vec<f64> {
    c.iter().map(|(_, b)| b.iter().map(|x| x.1).sum()).collect()
}

fn of_band(c: &[(f64, Vec<(String, f64)>)], name: &str) -> Vec<f64> {
    (c.iter())
        .map(|(_, b)| b.iter().filter(|x| x.0 == name).map(|x| x.1).sum())
        .collect()
}

fn max(v: &[f64]) -> f64 {
    v.iter().copied().fold(f64::NEG_INFINITY, f64::max)
}

/// The area under `values` by plain trapezoids (docs/stats.md's definition of a share).
fn area(times: &[f64], values: &[f64]) -> f64 {
    (times.windows(2).zip(values.windows(2)))
        .map(|(t, v)| (t[1] - t[0]) * (v[0] + v[1]) / 2.0)
        .sum()
}

/// Runs hpgraph on `input` with a picture in a scratch folder and these conditions.
fn checked(input: &Path, conditions: &[String]) -> Output {
    let dir = Scratch::new("check");
    let mut args = vec![
        input.to_str().unwrap().to_string(),
        "-o".into(),
        "x.svg".into(),
    ];
    for c in conditions {
        args.push("--check".into());
        args.push(c.clone());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    hpgraph(&dir.0, &args, None)
}

/// That `condition` on `input` exits with `code`, and says so.
fn verdict(input: &Path, condition: String, code: i32, wrong: &mut Vec<String>) {
    let out = checked(input, std::slice::from_ref(&condition));
    let got = out.status.code();
    if got != Some(code) {
        wrong.push(format!(
            "{}: `{condition}` exited {got:?}, not {code}: {}",
            input.display(),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    if code == 1 && !String::from_utf8_lossy(&out.stderr).contains("check failed: ") {
        wrong.push(format!(
            "{}: `{condition}`: no failure line",
            input.display()
        ));
    }
}

const GHCS: [&str; 3] = ["eventlog", "eventlog-9.6", "eventlog-9.10"];

#[test]
fn peak_budgets_flip_at_the_peak_ghcs_hp_file_gives() {
    let mut wrong = Vec::new();
    for dir in GHCS {
        for mode in ["Leak-hT", "Leak-hc", "Leak-hy", "Leak-hb"] {
            let hp = fixtures().join(dir).join(format!("{mode}.hp"));
            let c = censuses(&hp);
            let peak = max(&totals(&c));
            // The eventlog of the same run holds the same censuses.
            for input in [hp.clone(), hp.with_extension("eventlog")] {
                verdict(&input, format!("peak <= {peak}B"), 0, &mut wrong);
                verdict(&input, format!("peak < {peak}B"), 1, &mut wrong);
                verdict(&input, format!("peak <= {}B", peak - 1.0), 1, &mut wrong);
                verdict(&input, format!("peak >= {}kB", peak / 1e3), 0, &mut wrong);
            }
            let mean = totals(&c).iter().sum::<f64>() / c.len() as f64;
            verdict(&hp, format!("mean <= {}B", mean + 0.5), 0, &mut wrong);
            verdict(&hp, format!("mean <= {}B", mean - 0.5), 1, &mut wrong);
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn band_budgets_sum_the_bands_a_pattern_matches() {
    let mut wrong = Vec::new();
    for dir in GHCS {
        let hp = fixtures().join(dir).join("Leak-hT.hp");
        let c = censuses(&hp);
        // The largest band, and every band whose name holds a `:` (GHC's constructors).
        let mut names: Vec<String> = c
            .iter()
            .flat_map(|x| x.1.iter().map(|b| b.0.clone()))
            .collect();
        names.sort();
        names.dedup();
        let biggest = (names.iter())
            .max_by(|a, b| max(&of_band(&c, a)).total_cmp(&max(&of_band(&c, b))))
            .unwrap();
        let peak = max(&of_band(&c, biggest));
        let exact = format!("band('^{}$') peak", regex::escape(biggest));
        for input in [hp.clone(), hp.with_extension("eventlog")] {
            verdict(&input, format!("{exact} <= {peak}B"), 0, &mut wrong);
            verdict(&input, format!("{exact} <= {}B", peak - 1.0), 1, &mut wrong);
        }
        let colons: Vec<&String> = names.iter().filter(|n| n.contains(':')).collect();
        assert!(colons.len() > 1, "{dir}: {names:?}");
        let summed: Vec<f64> = (0..c.len())
            .map(|k| colons.iter().map(|n| of_band(&c, n)[k]).sum())
            .collect();
        let peak = max(&summed);
        verdict(&hp, format!("band(:) peak <= {peak}B"), 0, &mut wrong);
        verdict(
            &hp,
            format!("band(:) peak <= {}B", peak - 1.0),
            1,
            &mut wrong,
        );
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

fn stats_runs() -> Vec<PathBuf> {
    let mut runs = Vec::new();
    for ghc in ["ghc-9.0.2", "ghc-9.6.6", "ghc-9.10.3"] {
        for run in ["Leak-plain", "MapBuild-plain", "Leak-G3", "MapBuild-N2"] {
            runs.push(
                fixtures()
                    .join("stats")
                    .join(ghc)
                    .join(format!("{run}.eventlog")),
            );
        }
    }
    runs
}

#[test]
fn runtime_budgets_flip_at_the_figures_rts_s_printed() {
    let mut wrong = Vec::new();
    for log in stats_runs() {
        let s = common::rts::read_s(&log.with_extension("s"));
        let a = s.allocated as f64;
        verdict(&log, format!("allocated <= {a}B"), 0, &mut wrong);
        verdict(&log, format!("allocated <= {}B", a - 1.0), 1, &mut wrong);
        let (r, _) = s.residency.unwrap();
        verdict(&log, format!("max_residency <= {r}B"), 0, &mut wrong);
        verdict(&log, format!("max_residency < {r}B"), 1, &mut wrong);
        let n: u64 = s.gens.iter().map(|g| g.0).sum();
        verdict(&log, format!("collections == {n}"), 0, &mut wrong);
        verdict(&log, format!("collections <= {}", n - 1), 1, &mut wrong);
        // -s prints pauses to 0.1 ms and elapsed times to 1 ms: bounds outside that.
        let pause = s.gens.iter().map(|g| g.4).fold(0.0, f64::max);
        verdict(
            &log,
            format!("max_pause <= {}ms", (pause + 5e-5) * 1e3),
            0,
            &mut wrong,
        );
        verdict(
            &log,
            format!("max_pause <= {}µs", (pause - 5e-5) * 1e6),
            1,
            &mut wrong,
        );
        let (gc, total) = (s.gc + s.prof, s.total);
        let hi = (gc + 0.0015) / (total - 0.0015);
        let lo = (gc - 0.0015) / (total + 0.0015);
        verdict(&log, format!("gc_share <= {}%", hi * 100.0), 0, &mut wrong);
        if lo > 0.0 {
            verdict(&log, format!("gc_share <= {}%", lo * 100.0), 1, &mut wrong);
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Runs `--compare BEFORE AFTER` with one condition; its exit status.
fn compared(before: &Path, after: &Path, condition: &str) -> Output {
    let dir = Scratch::new("check-compare");
    hpgraph(
        &dir.0,
        &[
            "--compare",
            before.to_str().unwrap(),
            after.to_str().unwrap(),
            "-o",
            "c.svg",
            "--check",
            condition,
        ],
        None,
    )
}

#[test]
fn regressions_flip_at_the_change_the_two_runs_show() {
    let dir = fixtures().join("compare");
    let (fixed, leak) = (dir.join("LeakFixed-hc.hp"), dir.join("Leak-hc.hp"));
    let (b, a) = (
        max(&totals(&censuses(&fixed))),
        max(&totals(&censuses(&leak))),
    );
    let rel = (a / b - 1.0) * 100.0;
    let mut wrong = Vec::new();
    let mut expect = |before: &Path, after: &Path, condition: String, code: i32| {
        let out = compared(before, after, &condition);
        if out.status.code() != Some(code) {
            wrong.push(format!(
                "`{condition}`: {:?}, not {code}: {}",
                out.status.code(),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    };
    // The leak grows the peak: a relative bound just above the growth holds.
    assert!(rel > 5.0, "{rel}");
    expect(&fixed, &leak, format!("peak <= +{}%", rel + 0.01), 0);
    expect(&fixed, &leak, format!("peak <= +{}%", rel - 0.01), 1);
    expect(&fixed, &leak, format!("peak <= +{}B", a - b), 0);
    expect(&fixed, &leak, format!("peak <= +{}B", a - b - 1.0), 1);
    // The other way round, the peak falls.
    expect(&leak, &fixed, format!("peak <= -{}B", a - b), 0);
    expect(&leak, &fixed, format!("peak <= -{}B", a - b + 1.0), 1);
    // Unsigned, a bound judges the second run.
    expect(&fixed, &leak, format!("peak <= {a}B"), 0);
    expect(&fixed, &leak, format!("peak <= {b}B"), 1);
    // The eventlogs of the same runs, and one of each.
    let (fixed_ev, leak_ev) = (
        fixed.with_extension("eventlog"),
        leak.with_extension("eventlog"),
    );
    expect(&fixed_ev, &leak, format!("peak <= +{}%", rel + 0.01), 0);
    expect(&fixed, &leak_ev, format!("peak <= +{}%", rel - 0.01), 1);
    // The runtime's allocation, from +RTS -s of two runs.
    let stats = fixtures().join("stats/ghc-9.6.6");
    let (p, q) = (stats.join("MapBuild-plain"), stats.join("Leak-plain"));
    let (ab, aa) = (
        common::rts::read_s(&p.with_extension("s")).allocated as f64,
        common::rts::read_s(&q.with_extension("s")).allocated as f64,
    );
    let grew = (aa / ab - 1.0) * 100.0;
    let (pe, qe) = (p.with_extension("eventlog"), q.with_extension("eventlog"));
    let sign = if grew < 0.0 { "-" } else { "+" };
    expect(
        &pe,
        &qe,
        format!("allocated <= {sign}{}%", grew.abs() + 0.001),
        i32::from(grew < 0.0),
    );
    expect(
        &pe,
        &qe,
        format!("allocated <= {sign}{}%", grew.abs() - 0.001),
        i32::from(grew >= 0.0),
    );
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn waste_is_drag_and_void_over_the_heap_by_area() {
    let mut wrong = Vec::new();
    let mut hps: Vec<PathBuf> = GHCS
        .iter()
        .map(|d| fixtures().join(d).join("Leak-hb.hp"))
        .collect();
    for p in ["ManyCC-hb", "MapBuild-hb", "Names-hb"] {
        hps.push(fixtures().join("profiles").join(format!("{p}.hp")));
    }
    for hp in hps {
        let c = censuses(&hp);
        let times: Vec<f64> = c.iter().map(|x| x.0).collect();
        let total = totals(&c);
        let wasted: Vec<f64> = (0..c.len())
            .map(|k| of_band(&c, "DRAG")[k] + of_band(&c, "VOID")[k])
            .collect();
        let whole = area(&times, &total);
        let waste = area(&times, &wasted) / whole;
        let top = total.iter().position(|&t| t == max(&total)).unwrap();
        let at_peak = wasted[top] / total[top];
        let dir = Scratch::new("waste");
        let out = hpgraph(&dir.0, &[hp.to_str().unwrap(), "--summary=json"], None);
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let b = &json["biography"];
        let near = |x: &serde_json::Value, want: f64| (x.as_f64().unwrap() - want).abs() < 1e-9;
        if !near(&b["waste"], waste) || !near(&b["waste_at_peak"], at_peak) {
            wrong.push(format!(
                "{}: {b} vs waste {waste}, at peak {at_peak}",
                hp.display()
            ));
        }
        let lag = area(&times, &of_band(&c, "LAG")) / whole;
        if !near(&b["lag"], lag) {
            wrong.push(format!("{}: lag {} vs {lag}", hp.display(), b["lag"]));
        }
        verdict(
            &hp,
            format!("waste <= {}%", waste * 100.0 + 1e-6),
            0,
            &mut wrong,
        );
        if waste > 0.0 {
            verdict(
                &hp,
                format!("waste <= {}%", waste * 100.0 - 1e-6),
                1,
                &mut wrong,
            );
        }
        verdict(
            &hp,
            format!("waste_at_peak >= {}%", at_peak * 100.0 - 1e-6),
            0,
            &mut wrong,
        );
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn a_profile_restricted_to_drag_and_void_is_said_to_be_waste() {
    let mut restricted: Vec<PathBuf> = ["Leak", "ManyCC", "MapBuild"]
        .iter()
        .map(|p| {
            fixtures()
                .join("profiles")
                .join(format!("{p}-hc-hbdrag,void.hp"))
        })
        .collect();
    // A run of each GHC, its .hp and its eventlog (whose JOB is the program's arguments).
    for dir in GHCS {
        let hp = fixtures().join(dir).join("Leak-hc-hbdrag,void.hp");
        restricted.extend([hp.with_extension("eventlog"), hp]);
    }
    for hp in restricted {
        let dir = Scratch::new("restricted");
        let out = hpgraph(&dir.0, &[hp.to_str().unwrap(), "--summary"], None);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains("restricted to drag,void (-hbdrag,void): every byte here is waste"),
            "{text}"
        );
        let json = hpgraph(&dir.0, &[hp.to_str().unwrap(), "--summary=json"], None);
        let json: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
        assert_eq!(json["restricted_to"], "drag,void");
        assert!(json["biography"].is_null());
        // Its waste is every band: --check names why `waste` is not its figure.
        let out = checked(&hp, &["waste <= 10%".into()]);
        assert_eq!(out.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&out.stderr).contains("restricted to drag,void"));
    }
}

/// The JUnit schema CI servers read reports by (Jenkins' `junit-10.xsd`, as published in
/// pytest's source distribution on PyPI; `.ci/run` fetches it to `target/`).
fn junit_schema() -> Option<PathBuf> {
    let path = std::env::var_os("HPGRAPH_JUNIT_XSD")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target/junit-10.xsd"));
    let there = path.is_file();
    assert!(
        there || std::env::var_os("CI").is_none(),
        "the JUnit schema is needed: {}",
        path.display()
    );
    there.then_some(path)
}

/// The JUnit report at `report`, once xmllint has found it valid by the schema `xsd`.
fn valid_junit(xsd: &Path, report: &Path) -> String {
    let valid = std::process::Command::new("xmllint")
        .args(["--noout", "--schema"])
        .arg(xsd)
        .arg(report)
        .output()
        .expect("xmllint");
    let xml = std::fs::read_to_string(report).unwrap();
    assert!(
        valid.status.success(),
        "{}\n{xml}",
        String::from_utf8_lossy(&valid.stderr)
    );
    xml
}

#[test]
fn the_junit_report_is_valid_by_the_published_schema_and_escapes_every_name() {
    let Some(xsd) = junit_schema() else {
        eprintln!("skipped: no JUnit schema (.ci/run fetches it)");
        return;
    };
    let dir = Scratch::new("junit");
    // A hostile input name: markup, quotes, a control character.
    let name = "a<b>&\"c'\u{1}.hp";
    std::fs::copy(fixtures().join("eventlog/Leak-hT.hp"), dir.path(name)).unwrap();
    let out = hpgraph(
        &dir.0,
        &[
            name,
            "-o",
            "x.svg",
            "--check",
            "peak <= 1GB",
            "--check",
            "peak < 1kB",
            "--check",
            "band('<[&]>|ARR_WORDS') share >= 0%",
            "--check-report",
            "r.xml",
        ],
        None,
    );
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let xml = valid_junit(&xsd, &dir.path("r.xml"));
    assert!(xml.contains(r#"tests="3" failures="1""#), "{xml}");
    assert_eq!(xml.matches("<failure ").count(), 1, "{xml}");
    // The JSON report says the same, value by value.
    let out = hpgraph(
        &dir.0,
        &[
            name,
            "-o",
            "y.svg",
            "--check",
            "peak < 1kB",
            "--check-report",
            "r.json",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path("r.json")).unwrap()).unwrap();
    let c = &json["inputs"][0]["conditions"][0];
    let peak = max(&totals(&censuses(&dir.path(name))));
    assert_eq!(
        (c["passed"].as_bool(), c["value"].as_f64()),
        (Some(false), Some(peak))
    );
    assert_eq!(json["passed"], false);
}

#[test]
fn a_condition_that_cannot_be_judged_exits_2_and_writes_nothing() {
    let hp = fixtures().join("eventlog/Leak-hT.hp");
    let hp = hp.to_str().unwrap();
    // More bands than a message lists (NAMES_SHOWN, 8): it says how many it left out.
    let many = fixtures().join("eventlog/ManyCC-hc.hp");
    let c = censuses(&many);
    let mut names: Vec<&String> = c.iter().flat_map(|x| x.1.iter().map(|b| &b.0)).collect();
    names.sort();
    names.dedup();
    let left_out = format!("and {} more", names.len() - 8);
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec![hp, "--check", "peek <= 2MB"],
            "no figure hpgraph knows",
        ),
        (
            vec![hp, "--check", "peak <= 2ms"],
            "write its bound in bytes",
        ),
        (vec![hp, "--check", "gc_share < 20"], "in percent"),
        (vec![hp, "--check", "max_pause <= 10"], "with its unit"),
        (
            vec![hp, "--check", "peak <= 2 parsecs"],
            "no unit hpgraph knows",
        ),
        (vec![hp, "--check", "peak <= +5%"], "--compare BEFORE AFTER"),
        (
            vec![hp, "--check", "trend(total) < growing"],
            "with == or !=",
        ),
        (vec![hp, "--check", "peak 200MB"], "no comparison"),
        (
            vec![hp, "--check", "band('(') peak <= 1MB"],
            "regex parse error",
        ),
        (
            vec![hp, "--check", "band('no such band') peak <= 1MB"],
            "no band of",
        ),
        (vec![hp, "--check", "gc_share < 20%"], "+RTS -l"),
        (vec![hp, "--check", "waste < 20%"], "biographical"),
        (
            vec![many.to_str().unwrap(), "--check", "band(zzz) mean <= 1MB"],
            &left_out,
        ),
        (
            vec![hp, "--check", "peak <= 1GB", "--check-report", "r.txt"],
            ".json file",
        ),
        (
            vec![
                hp,
                "-o",
                "x.json",
                "--check",
                "peak <= 1GB",
                "--check-report",
                "x.json",
            ],
            "would replace",
        ),
        (vec!["missing.hp", "--check", "peak <= 1GB"], "missing.hp"),
    ];
    for (args, said) in cases {
        let dir = Scratch::new("unjudged");
        let mut all = args.clone();
        if !args.contains(&"-o") {
            all.extend(["-o", "x.svg"]);
        }
        if !args.contains(&"--check-report") {
            all.extend(["--check-report", "r.json"]);
        }
        let out = hpgraph(&dir.0, &all, None);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(said), "{args:?}: `{said}` not in: {err}");
        let left: Vec<_> = std::fs::read_dir(&dir.0).unwrap().collect();
        assert!(left.is_empty(), "{args:?} wrote {left:?}");
    }
}

#[test]
fn a_failed_condition_still_writes_the_output() {
    let dir = Scratch::new("still-written");
    let hp = fixtures().join("eventlog/Leak-hT.hp");
    let out = hpgraph(
        &dir.0,
        &[
            hp.to_str().unwrap(),
            "-o",
            "x.svg",
            "--check",
            "peak <= 1kB",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("check failed: peak ") && err.contains(" > 1kB"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        std::fs::read_to_string(dir.path("x.svg"))
            .unwrap()
            .contains("</svg>")
    );
    // With the summary on standard output: printed, then judged.
    let out = hpgraph(
        &dir.0,
        &[hp.to_str().unwrap(), "--summary", "--check", "peak <= 1kB"],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("total of"));
}

#[test]
fn a_window_judges_the_censuses_within_it() {
    let mut wrong = Vec::new();
    for dir in GHCS {
        let hp = fixtures().join(dir).join("Leak-hc.hp");
        let c = censuses(&hp);
        // A window that leaves out the whole run's peak.
        let all = totals(&c);
        let top = all.iter().position(|&t| t == max(&all)).unwrap();
        let (from, to) = if top + 2 < c.len() {
            (c[top + 1].0, c[c.len() - 1].0)
        } else {
            (c[1].0, c[top - 1].0)
        };
        let inside: Vec<f64> = (c.iter().filter(|x| x.0 >= from && x.0 <= to))
            .map(|x| x.1.iter().map(|b| b.1).sum())
            .collect();
        let peak = max(&inside);
        let window = |condition: String, code: i32, wrong: &mut Vec<String>| {
            let dir = Scratch::new("check-window");
            let (f, t) = (from.to_string(), to.to_string());
            let out = hpgraph(
                &dir.0,
                &[
                    hp.to_str().unwrap(),
                    "-o",
                    "x.svg",
                    "--from",
                    &f,
                    "--to",
                    &t,
                    "--check",
                    &condition,
                ],
                None,
            );
            if out.status.code() != Some(code) {
                wrong.push(format!(
                    "{}: {condition} from {f} to {t}: {:?}",
                    hp.display(),
                    out.status
                ));
            }
        };
        window(format!("peak <= {peak}B"), 0, &mut wrong);
        window(format!("peak <= {}B", peak - 1.0), 1, &mut wrong);
        // The whole run's peak lies outside, above it.
        assert!(max(&totals(&c)) > peak, "{}", hp.display());
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn a_reports_budgets_flip_at_its_header_and_its_top_table() {
    let mut wrong = Vec::new();
    for ghc in ["ghc-9.0.2", "ghc-9.6.6", "ghc-9.10.3"] {
        let prof = fixtures().join("prof").join(ghc).join("MapFib-P.prof");
        let text = std::fs::read_to_string(&prof).unwrap();
        let time = crate::common::report_header(&text, "total time");
        let secs: f64 = time.split_whitespace().next().unwrap().parse().unwrap();
        let ticks: u64 = time
            .split('(')
            .nth(1)
            .unwrap()
            .split_whitespace()
            .next()
            .unwrap()
            .parse()
            .unwrap();
        let alloc = crate::common::report_figure(&text, "total alloc");
        verdict(&prof, format!("ticks == {ticks}"), 0, &mut wrong);
        verdict(&prof, format!("ticks <= {}", ticks - 1), 1, &mut wrong);
        verdict(&prof, format!("allocated <= {alloc}B"), 0, &mut wrong);
        verdict(&prof, format!("allocated <= {}B", alloc - 1), 1, &mut wrong);
        verdict(&prof, format!("total_time <= {secs}s"), 0, &mut wrong);
        verdict(&prof, format!("total_time < {secs}s"), 1, &mut wrong);
        // `step` is a leaf called from one place: the top table's ticks are every
        // stack's that ends in it.
        let row = text.lines().find(|l| l.starts_with("step ")).unwrap();
        let fields: Vec<&str> = row.split_whitespace().collect();
        let step: f64 = fields[fields.len() - 2].parse().unwrap();
        let share = step / ticks as f64 * 100.0;
        verdict(
            &prof,
            format!("band('^Main\\.step/') share <= {}%", share + 1e-6),
            0,
            &mut wrong,
        );
        verdict(
            &prof,
            format!("band('^Main\\.step/') share <= {}%", share - 1e-6),
            1,
            &mut wrong,
        );
        // Figures a report has not are said to be so.
        verdict(&prof, "peak <= 1MB".into(), 2, &mut wrong);
        verdict(&prof, "gc_share <= 10%".into(), 2, &mut wrong);
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// An input that was not read whole — an eventlog cut before its end (the program
/// killed), one with bytes that do not read, a `.hp` cut inside a census — shows less
/// than the run: every condition over it "cannot be judged" (exit 2, the reason on
/// stderr, an error in the JUnit and JSON reports), however the part read measures;
/// `--check-partial` judges that part.
#[test]
fn a_verdict_over_an_input_not_read_whole_cannot_be_judged() {
    let Some(xsd) = junit_schema() else {
        eprintln!("skipped: no JUnit schema (.ci/run fetches it)");
        return;
    };
    let dir = Scratch::new("unread");
    let log = std::fs::read(fixtures().join("eventlog/Leak-hT.eventlog")).unwrap();
    // Cut inside its last block (GHC 9.0 writes the census in 2 MB blocks, the last at
    // exit: cut earlier, a short run has no census to draw), after most censuses.
    std::fs::write(dir.path("cut.eventlog"), &log[..log.len() - 300]).unwrap();
    // A .hp cut inside a census.
    let hp = std::fs::read(fixtures().join("eventlog/Leak-hT.hp")).unwrap();
    let text = String::from_utf8_lossy(&hp);
    let at = text.match_indices("END_SAMPLE").nth(3).unwrap().0;
    std::fs::write(dir.path("cut.hp"), &hp[..at + 5]).unwrap();
    for input in ["cut.eventlog", "cut.hp"] {
        // Conditions the part read passes and fails alike.
        let args = [
            input,
            "-o",
            "x.svg",
            "--check",
            "peak <= 1TB",
            "--check",
            "peak < 1kB",
            "--check-report",
        ];
        let out = hpgraph(&dir.0, &[&args[..], &["r.xml"]].concat(), None);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{input}: {err}");
        assert!(
            err.contains("cannot be judged") && err.contains("--check-partial"),
            "{err}"
        );
        assert!(!err.contains("check failed"), "{err}");
        assert!(
            dir.path("x.svg").exists(),
            "{input}: the picture of what was read"
        );
        let xml = valid_junit(&xsd, &dir.path("r.xml"));
        assert!(
            xml.contains(r#"tests="2" failures="0" errors="2""#),
            "{xml}"
        );
        assert_eq!(xml.matches("<error ").count(), 2, "{xml}");
        assert_eq!(xml.matches("<system-out>").count(), 0, "{xml}");
        let out = hpgraph(&dir.0, &[&args[..], &["r.json"]].concat(), None);
        assert_eq!(out.status.code(), Some(2));
        let json: serde_json::Value =
            serde_json::from_slice(&std::fs::read(dir.path("r.json")).unwrap()).unwrap();
        assert_eq!(json["passed"], false);
        let unjudged = json["inputs"][0]["unjudged"].as_str().unwrap_or_default();
        assert!(unjudged.contains("not read whole"), "{json}");
        assert!(
            json["inputs"][0]["conditions"]
                .as_array()
                .unwrap()
                .iter()
                .all(|c| c["passed"] == false)
        );
        // Accepted as a part: judged on it, one condition holding and one failing.
        let partial = [&args[..7], &["--check-partial"]].concat();
        let out = hpgraph(&dir.0, &partial, None);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{input}: {err}");
        assert_eq!(err.matches("check failed").count(), 1, "{err}");
    }
    // The whole run is judged as ever.
    std::fs::write(dir.path("whole.eventlog"), &log).unwrap();
    let out = hpgraph(
        &dir.0,
        &["whole.eventlog", "-o", "y.svg", "--check", "peak <= 1TB"],
        None,
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A real run too short for a trend (MapBuild: three censuses in its eventlog, five in
/// GHC's `.hp` of it): every trend is `unjudged` in the summary, and a check of one
/// cannot be judged, read from either file; a check of its peak is judged.
#[test]
fn a_run_of_too_few_censuses_has_no_trend_to_judge() {
    let fixtures = crate::common::fixtures().join("eventlog");
    let scratch = crate::common::Scratch::new("check-few");
    let dir = scratch.0.clone();
    for file in ["MapBuild-hT.eventlog", "MapBuild-hT.hp"] {
        std::fs::copy(fixtures.join(file), dir.join(file)).unwrap();
        let p = file;
        let json = crate::common::hpgraph_ok(&dir, &[p, "--summary=json"]);
        let s: serde_json::Value = serde_json::from_slice(&json).unwrap();
        assert_eq!(s["total"]["trend"], "unjudged", "{file}");
        assert!(
            (s["bands"].as_array().unwrap().iter()).all(|b| b["trend"] == "unjudged"),
            "{file}"
        );
        // The text says why, on its line of the samples, and shows no slope.
        let text = String::from_utf8(crate::common::hpgraph_ok(&dir, &[p, "--summary"])).unwrap();
        let line = (text.lines())
            .find(|l| l.contains(" samples, "))
            .unwrap_or_default();
        assert!(
            line.contains("too few censuses for a trend"),
            "{file}: {text}"
        );
        let total = text.lines().find(|l| l.contains("total of")).unwrap();
        assert!(
            total.contains("unjudged") && !total.contains("B/s"),
            "{file}: {total}"
        );
        for c in ["trend(total) != growing", "band('GHC.Types') trend == flat"] {
            let out = crate::common::hpgraph(&dir, &[p, "--check", c], None);
            let said = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{file} {c}: {said}");
            assert!(said.contains("too few censuses for a trend"), "{said}");
        }
        let out = crate::common::hpgraph(&dir, &[p, "--check", "peak <= 1GB"], None);
        assert_eq!(out.status.code(), Some(0), "{file}");
    }
}
