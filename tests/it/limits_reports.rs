//! The fourth review's cases (#57), each generated here and run through the release
//! binary with its peak memory and time measured by the kernel: what a report's figures,
//! an option's text or a file named twice can do.

use std::path::Path;

use crate::common::Scratch;
use crate::common::measure::{CASE_TIME, Measured, bounded, measured, within_limits};

fn failed_with(m: &Measured, code: i32, what: &str, says: &str) {
    bounded(m, what, CASE_TIME);
    assert_eq!(m.status.code(), Some(code), "{what}: {}", m.stderr);
    assert!(m.stderr.contains(says), "{what}: {}", m.stderr);
}

fn fixture(path: &str) -> std::path::PathBuf {
    crate::common::fixtures().join(path)
}

/// GHC 9.0.2's `-p` report of MapFib with the individual `%time` of its tree's first
/// row (MAIN: entries, `%time`, `%alloc`, then the inherited two) replaced by `figure`,
/// in place: the columns before it stay where the header puts them.
fn report_with_time(figure: &str) -> Vec<u8> {
    let text = std::fs::read_to_string(fixture("prof/ghc-9.0.2/MapFib-p.prof")).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let header = lines
        .iter()
        .position(|l| l.contains("COST CENTRE") && l.contains("no."))
        .expect("the tree's header");
    let row = (header + 1..lines.len())
        .find(|&k| !lines[k].trim().is_empty())
        .unwrap();
    // The words' spans, from the row's end: the fourth is the individual %time.
    let line = &lines[row];
    let mut spans = Vec::new();
    let mut end = line.trim_end().len();
    while spans.len() < 4 {
        let start = line[..end].rfind(' ').map_or(0, |k| k + 1);
        spans.push((start, end));
        end = line[..start].trim_end().len();
    }
    let (start, end) = spans[3];
    lines[row] = format!("{}{figure}{}", &line[..start], &line[end..]);
    (lines.join("\n") + "\n").into_bytes()
}

#[test]
fn non_finite_or_negative_figures_in_a_report_are_refused_with_the_line() {
    let dir = Scratch::new("limits4-figures");
    for (figure, name) in [("NaN", "nan"), ("inf", "inf"), ("-5.0", "neg")] {
        let file = format!("{name}.prof");
        std::fs::write(dir.path(&file), report_with_time(figure)).unwrap();
        let m = measured(&dir.0, &[&file, "-o", "x.svg"]);
        failed_with(&m, 1, figure, &format!("{file}:"));
        assert!(
            m.stderr.contains("is not a share"),
            "{figure}: {}",
            m.stderr
        );
        assert!(
            !dir.path("x.svg").exists(),
            "{figure}: a picture was written"
        );
    }
    // A -pj report's totals: 1e999 ticks, an infinite or negative total time.
    let json = std::fs::read_to_string(fixture("prof/ghc-9.0.2/MapFib-pj.prof")).unwrap();
    for (from, to) in [
        ("\"total_ticks\": ", "\"total_ticks\": 1e999, \"was\": "),
        ("\"total_time\": ", "\"total_time\": -5, \"was\": "),
    ] {
        let bent = json.replacen(from, to, 1);
        assert_ne!(bent, json, "{from} is in GHC's report");
        std::fs::write(dir.path("bent.json"), &bent).unwrap();
        let m = measured(&dir.0, &["bent.json", "--summary"]);
        failed_with(&m, 1, to, "is not a number of 0 or more");
        // Under --check, an input that cannot be read cannot be judged: 2, never a pass.
        let m = measured(&dir.0, &["bent.json", "--check", "total_time < 1s"]);
        failed_with(&m, 2, to, "is not a number of 0 or more");
    }
}

#[test]
fn a_number_column_of_escapes_is_quoted_escaped_and_cut() {
    let dir = Scratch::new("limits4-escapes");
    let hostile = format!("\x1b]0;pwned\x07\x1b[2J\u{202e}{}", "9".repeat(200));
    std::fs::write(dir.path("e.prof"), report_with_time(&hostile)).unwrap();
    let m = measured(&dir.0, &["e.prof", "--summary"]);
    failed_with(&m, 1, "escapes in a number", "e.prof:");
    assert!(
        !m.stderr.contains('\x1b') && !m.stderr.contains('\x07') && !m.stderr.contains('\u{202e}'),
        "{:?}",
        m.stderr
    );
    assert!(
        m.stderr.len() < 400,
        "{} bytes: {:?}",
        m.stderr.len(),
        m.stderr
    );
}

#[test]
fn an_option_value_of_any_text_after_a_dash_reads_without_a_panic() {
    let dir = Scratch::new("limits4-argv");
    let hp = fixture("profiles/Quick-hc.hp");
    let hp = hp.to_str().unwrap();
    for args in [
        &[hp, "--title", "-été", "-o", "t.svg"][..],
        &[hp, "--include", "-é", "-o", "i.svg"],
        &[hp, "--check", "-≥ 1"],
        &[hp, "-é"],
        &[hp, "-cé", "-o", "c.svg"],
        &["-€"],
    ] {
        let m = measured(&dir.0, args);
        bounded(&m, &format!("{args:?}"), CASE_TIME);
        let code = m.status.code();
        assert!(
            matches!(code, Some(0..=2)),
            "{args:?}: exit {code:?}: {}",
            m.stderr
        );
        assert!(!m.stderr.contains("panicked"), "{args:?}: {}", m.stderr);
    }
    // A title that starts with a dash is the title: the picture's text, tags aside.
    let svg = std::fs::read_to_string(dir.path("t.svg")).unwrap();
    let text: String = svg
        .split('<')
        .filter_map(|part| part.split_once('>').map(|(_, text)| text))
        .collect();
    assert!(text.contains("-été"), "the title is in the picture: {text}");
}

#[test]
fn names_in_messages_are_cut() {
    let dir = Scratch::new("limits4-names");
    let mut hp =
        String::from("JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n");
    for s in 0..2 {
        hp += &format!("BEGIN_SAMPLE {s}\n");
        for b in 0..8 {
            hp += &format!("{}{b}\t{}\n", "n".repeat(64 << 10), 100 + b);
        }
        hp += &format!("END_SAMPLE {s}\n");
    }
    std::fs::write(dir.path("long.hp"), hp).unwrap();
    let m = measured(&dir.0, &["long.hp", "--check", "band('nomatch') peak <= 1"]);
    failed_with(&m, 2, "no band matches", "no band of");
    assert!(
        m.stderr.len() < 4096,
        "{} bytes on standard error",
        m.stderr.len()
    );
}

#[test]
fn retainer_sets_that_are_not_a_file_are_an_error() {
    let dir = Scratch::new("limits4-sets");
    let hp = fixture("prof/ghc-9.0.2/Leak-hr.hp");
    std::fs::copy(&hp, dir.path("r.hp")).unwrap();
    std::fs::create_dir(dir.path("folder")).unwrap();
    let fifo = dir.path("fifo");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    for sets in ["folder", "/dev/zero", "/dev/null", "fifo"] {
        let m = measured(&dir.0, &["r.hp", "--retainer-sets", sets, "-o", "r.svg"]);
        failed_with(&m, 1, sets, "not a file");
        assert!(!dir.path("r.svg").exists(), "{sets}: a picture was written");
    }
    // --compare reads them too: a missing file is an error there as well.
    let m = measured(
        &dir.0,
        &[
            "--compare",
            "r.hp",
            "r.hp",
            "--retainer-sets",
            "missing.prof",
            "-o",
            "c.svg",
        ],
    );
    failed_with(&m, 1, "--compare with missing sets", "missing.prof");
}

/// A symbolic link at `link` to `target`.
fn link(target: &Path, link: &Path) {
    std::os::unix::fs::symlink(target, link).unwrap();
}

#[test]
fn no_output_through_a_link_or_a_report_path_replaces_an_input() {
    let dir = Scratch::new("limits4-files");
    std::fs::copy(fixture("prof/ghc-9.0.2/Leak-hr.hp"), dir.path("r.hp")).unwrap();
    std::fs::copy(fixture("prof/ghc-9.0.2/Leak-hr.prof"), dir.path("s.prof")).unwrap();
    std::fs::copy(fixture("prof/ghc-9.0.2/Leak-hr.prof"), dir.path("s.json")).unwrap();
    link(&dir.path("s.prof"), &dir.path("sets-link"));
    link(&dir.path("r.hp"), &dir.path("input-link"));
    link(&dir.path("r.hp"), &dir.path("input-link.json"));
    let kept = |name: &str| std::fs::read(dir.path(name)).unwrap();
    let (hp, sets) = (kept("r.hp"), kept("s.prof"));
    let sets_json = kept("s.json");
    for args in [
        &[
            "r.hp",
            "--retainer-sets",
            "s.json",
            "--check",
            "peak > 0",
            "--check-report",
            "s.json",
        ][..],
        &[
            "--compare",
            "r.hp",
            "r.hp",
            "--retainer-sets",
            "s.prof",
            "-o",
            "s.prof",
            "--format",
            "json",
        ],
        &[
            "r.hp",
            "--retainer-sets",
            "sets-link",
            "-o",
            "s.prof",
            "--format",
            "svg",
        ],
        &[
            "r.hp",
            "--retainer-sets",
            "s.prof",
            "-o",
            "sets-link",
            "--format",
            "svg",
        ],
        &[
            "r.hp",
            "--check",
            "peak > 0",
            "--check-report",
            "input-link.json",
        ],
        &["r.hp", "-o", "input-link", "--format", "svg"],
        &[
            "r.hp",
            "-o",
            "x.json",
            "--format",
            "svg",
            "--check",
            "peak > 0",
            "--check-report",
            "x.json",
        ],
    ] {
        let m = measured(&dir.0, args);
        failed_with(&m, 2, &format!("{args:?}"), "would");
        assert_eq!(kept("r.hp"), hp, "{args:?}: the input changed");
        assert_eq!(kept("s.prof"), sets, "{args:?}: the sets changed");
        assert_eq!(kept("s.json"), sets_json, "{args:?}: the sets changed");
        assert!(!dir.path("x.json").exists(), "{args:?}: wrote x.json");
    }
    // Apart, the same run goes ahead.
    let m = measured(
        &dir.0,
        &["r.hp", "--retainer-sets", "sets-link", "-o", "r.svg"],
    );
    within_limits(&m, "sets through a link, a picture apart");
}

#[test]
fn ticks_and_bytes_are_never_compared_in_any_output() {
    let dir = Scratch::new("limits4-mixed");
    let prof = fixture("prof/ghc-9.0.2/MapFib-p.prof");
    let hp = fixture("profiles/Quick-hc.hp");
    let (prof, hp) = (prof.to_str().unwrap(), hp.to_str().unwrap());
    for tail in [
        &["-o", "x.folded"][..],
        &["--flame", "-o", "x.svg"],
        &["-o", "x.svg"],
        &["--summary"],
        &["-o", "x.json"],
    ] {
        let mut args = vec!["--compare", prof, hp];
        args.extend_from_slice(tail);
        let m = measured(&dir.0, &args);
        failed_with(&m, 1, &format!("{tail:?}"), "different units");
    }
    for never in ["x.folded", "x.svg", "x.json"] {
        assert!(!dir.path(never).exists(), "{never} was written");
    }
}

/// A `-pj` report of `chains` chains under MAIN, each `depth` cost centres deep with
/// labels of `label` bytes, every node a tick: GHC's layout (keys in its order).
fn deep_json(chains: usize, depth: usize, label: usize) -> String {
    let mut centres = vec![
        r#"{"id": 0, "label": "MAIN", "module": "MAIN", "src_loc": "<built-in>", "is_caf": false}"#
            .to_string(),
    ];
    for k in 1..=chains + depth {
        let name = format!("{k}{}", "l".repeat(label.saturating_sub(8)));
        centres.push(format!(
            r#"{{"id": {k}, "label": "{name}", "module": "M", "src_loc": "M.hs:1:1", "is_caf": false}}"#
        ));
    }
    let node =
        |id: usize| format!(r#"{{"id": {id}, "entries": 1, "alloc": 8, "ticks": 1, "children": ["#);
    let mut tree = node(0);
    for c in 1..=chains {
        if c > 1 {
            tree.push_str(", ");
        }
        tree.push_str(&node(c));
        for d in 0..depth {
            tree.push_str(&node(chains + 1 + d));
        }
        tree.push_str(&"]}".repeat(depth + 1));
    }
    tree.push_str("]}");
    format!(
        "{{\n\"program\": \"deep\",\n\"arguments\": [\"deep\"],\n\"rts_arguments\": [\"-pj\"],\n\
         \"end_time\": \"Thu Nov 26 14:10 2026\",\n\"initial_capabilities\": 0,\n\
         \"total_time\":        1.00,\n\"total_ticks\": {},\n\"tick_interval\": 1000,\n\
         \"total_alloc\":100,\n\"cost_centres\": [\n{}],\n\"profile\": {}}}\n",
        chains * (depth + 1) + 1,
        centres.join(", "),
        tree
    )
}

#[test]
fn deep_reports_keep_their_names_and_frames_within_the_budget() {
    let dir = Scratch::new("limits4-deep");
    std::fs::write(dir.path("three.json"), deep_json(3, 4000, 10)).unwrap();
    let m = measured(&dir.0, &["three.json", "-o", "three.svg"]);
    within_limits(&m, "three chains 4,000 deep, to SVG");
    assert!(m.stderr.contains("were cut"), "said: {}", m.stderr);
    for out in ["three.folded", "-"] {
        let m = measured(&dir.0, &["three.json", "-o", out, "--format", "folded"]);
        within_limits(&m, &format!("three chains 4,000 deep, folded to {out}"));
    }
    let m = measured(&dir.0, &["three.json", "--summary"]);
    within_limits(&m, "three chains 4,000 deep, --summary");
    // A chain of 300 levels of 19 kB labels.
    std::fs::write(dir.path("long.json"), deep_json(1, 300, 19 << 10)).unwrap();
    let m = measured(&dir.0, &["long.json", "--summary"]);
    within_limits(&m, "300 levels of 19 kB labels, --summary");
}
