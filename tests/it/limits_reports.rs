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

/// A report's ticks and a census's bytes: refused in every output, as two kinds of
/// profile (what they count is told before their units are).
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
        failed_with(&m, 1, &format!("{tail:?}"), "different kinds of profile");
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
    std::fs::write(dir.path("deep.json"), deep_json(30, 4000, 10)).unwrap();
    let m = measured(&dir.0, &["deep.json", "-o", "deep.svg"]);
    within_limits(&m, "30 chains 4,000 deep, to SVG");
    // The figure is read from the tree, whose stacks are not named: it says what it
    // leaves out.
    assert!(
        m.stderr.contains("stacks are deeper than 512 frames"),
        "said: {}",
        m.stderr
    );
    for out in ["deep.folded", "deep.csv", "deep.json.out", "deep.html"] {
        let format = out.rsplit('.').next().unwrap();
        let format = if format == "out" { "json" } else { format };
        let m = measured(&dir.0, &["deep.json", "-o", out, "--format", format]);
        within_limits(&m, &format!("30 chains 4,000 deep, to {out}"));
        assert!(m.stderr.contains("were cut"), "{out} said: {}", m.stderr);
    }
    let m = measured(&dir.0, &["deep.json", "--summary"]);
    within_limits(&m, "30 chains 4,000 deep, --summary");
    let m = measured(
        &dir.0,
        &["deep.json", "--min-share", "1", "-o", "pruned.svg"],
    );
    within_limits(&m, "30 chains 4,000 deep, --min-share 1");
    // A chain of 300 levels of 19 kB labels.
    std::fs::write(dir.path("long.json"), deep_json(1, 300, 19 << 10)).unwrap();
    let m = measured(&dir.0, &["long.json", "--summary"]);
    within_limits(&m, "300 levels of 19 kB labels, --summary");
}

/// A `-pj` report of `callers` stacks under MAIN, each calling one chain of `depth` cost
/// centres labelled `label` bytes long (the same chain under every caller).
fn wide_json(callers: usize, depth: usize, label: usize) -> String {
    let centre = |id: usize, label: &str| {
        format!(
            r#"{{"id": {id}, "label": "{label}", "module": "M", "src_loc": "M.hs:1:1", "is_caf": false}}"#
        )
    };
    let mut centres = vec![centre(0, "MAIN")];
    for d in 1..=depth {
        centres.push(centre(d, &format!("{d}{}", "L".repeat(label))));
    }
    let node =
        |id: usize| format!(r#"{{"id": {id}, "entries": 1, "alloc": 8, "ticks": 1, "children": ["#);
    let chain: String = (1..=depth).map(node).collect::<String>() + &"]}".repeat(depth);
    let mut under = Vec::new();
    for c in 0..callers {
        centres.push(centre(depth + 1 + c, &format!("caller{c}")));
        under.push(format!("{}{chain}]}}", node(depth + 1 + c)));
    }
    format!(
        "{{\"program\": \"wide\", \"arguments\": [], \"rts_arguments\": [\"-pj\"], \
         \"end_time\": \"x\", \"initial_capabilities\": 0, \"total_time\": 1.00, \
         \"total_ticks\": 1000, \"tick_interval\": 1000, \"total_alloc\": 100, \
         \"cost_centres\": [{}], \"profile\": {}{}]}}}}\n",
        centres.join(", "),
        node(0),
        under.join(", ")
    )
}

/// A label of a megabyte under 600 callers: every stack names it, and every view that
/// names a stack (folded lines, titles, tables) would write it 600 times. Labels are cut
/// at 4 KiB, as an eventlog's are; a folded line of many long frames is cut at 64 KiB.
#[test]
fn long_labels_under_many_callers_are_cut_once() {
    let dir = Scratch::new("limits4-wide");
    std::fs::write(dir.path("wide.json"), wide_json(600, 1, 1 << 20)).unwrap();
    for out in ["w.folded", "w.svg", "w.csv", "w.html", "-"] {
        let m = measured(
            &dir.0,
            &[
                "wide.json",
                "-o",
                out,
                "--format",
                if out == "-" {
                    "json"
                } else {
                    out.rsplit('.').next().unwrap()
                },
            ],
        );
        within_limits(&m, &format!("a 1 MB label under 600 callers, to {out}"));
        assert!(
            m.stderr.contains("longer than 4096 bytes: cut"),
            "{}",
            m.stderr
        );
    }
    let m = measured(&dir.0, &["wide.json", "--summary"]);
    within_limits(&m, "a 1 MB label under 600 callers, --summary");
    for out in ["w.folded", "w.svg", "w.csv", "w.html"] {
        let size = std::fs::metadata(dir.path(out)).unwrap().len();
        assert!(size < 16 << 20, "{out}: {size} bytes");
    }
    // 40 callers over a chain of 64 labels of 4 KiB: each folded line would be 256 KiB.
    std::fs::write(dir.path("long.json"), wide_json(40, 64, 4000)).unwrap();
    let m = measured(&dir.0, &["long.json", "-o", "long.folded"]);
    within_limits(&m, "lines of 64 frames of 4 kB, folded");
    assert!(
        m.stderr.contains("folded field is longer than 64 KiB"),
        "{}",
        m.stderr
    );
    let text = std::fs::read_to_string(dir.path("long.folded")).unwrap();
    // Each stack is a line (each weighs a tick): MAIN, and each caller with its chain.
    assert_eq!(text.lines().count(), 1 + 40 * 65);
    let mut stacks: Vec<&str> = text
        .lines()
        .map(|l| l.rsplit_once(' ').unwrap().0)
        .collect();
    assert!(stacks.iter().all(|s| s.len() <= 64 << 10));
    stacks.sort_unstable();
    stacks.dedup();
    assert_eq!(stacks.len(), 1 + 40 * 65, "lines cut alike stay apart");
    assert!(stacks.iter().any(|s| s.len() > 60 << 10 && s.contains('…')));
}

/// Eventlog time samples: stacks 255 deep of 4 KiB cost centres, as a heap census's.
#[test]
fn sample_stacks_fit_the_naming_budget() {
    use crate::common::eventlog::{self, Writer};
    let dir = Scratch::new("limits4-samples");
    let mut log = Writer::new();
    log.event(eventlog::PROF_SAMPLING, 0, &1000u64.to_be_bytes());
    for cc in 0..20u32 {
        let mut p = cc.to_be_bytes().to_vec();
        p.extend(format!("{cc}{}", "c".repeat(4093)).as_bytes());
        p.extend(b"\0M\0S\0\0");
        log.event(eventlog::COST_CENTRE, 0, &p);
    }
    for t in 0..400u64 {
        let mut p = 0u32.to_be_bytes().to_vec();
        p.extend(t.to_be_bytes());
        p.push(255);
        for d in 0..255u64 {
            p.extend((((t * 7 + d) % 20) as u32).to_be_bytes());
        }
        log.event(eventlog::PROF_SAMPLE, t * 1_000_000, &p);
    }
    std::fs::write(dir.path("s.eventlog"), log.done()).unwrap();
    for out in ["s.svg", "s.html", "s.folded"] {
        let m = measured(&dir.0, &["s.eventlog", "-o", out]);
        within_limits(
            &m,
            &format!("400 sample stacks 255 deep of 4 KiB names, {out}"),
        );
        assert!(m.stderr.contains("were cut"), "{}", m.stderr);
    }
}

/// Compressed reports: gathered into memory within `MAX_GATHERED` (96 MiB), then refused
/// saying what to do. A 0.5 MB `.gz` holds 500 MB of report.
#[test]
fn compressed_reports_are_gathered_within_their_bound() {
    let dir = Scratch::new("limits4-gz");
    let header = std::fs::read_to_string(fixture("prof/ghc-9.0.2/MapFib-P.prof")).unwrap();
    let (head, _) = header.split_at(header.find("MAIN ").unwrap());
    crate::common::measure::gzip(&dir.path("rows.prof.gz"), |w| {
        w.write_all(head.as_bytes()).unwrap();
        let row = " CAF Main <entire-module> 2 1 0.0 0.0 0.0 0.0 1 8\n".repeat(1000);
        w.write_all(b"MAIN MAIN <built-in> 1 0 0.0 0.0 100.0 100.0 0 8\n")
            .unwrap();
        for _ in 0..3000 {
            w.write_all(row.as_bytes()).unwrap();
        }
    });
    crate::common::measure::gzip(&dir.path("label.json.gz"), |w| {
        w.write_all(b"{\"program\": \"").unwrap();
        let chunk = "x".repeat(1 << 20);
        for _ in 0..400 {
            w.write_all(chunk.as_bytes()).unwrap();
        }
        w.write_all(b"\", \"profile\": {}}").unwrap();
    });
    crate::common::measure::gzip(&dir.path("sorted.json.gz"), |w| {
        w.write_all(b"{\"arguments\": [").unwrap();
        for _ in 0..100_000_000 {
            w.write_all(b"0,").unwrap();
        }
        w.write_all(b"0], \"cost_centres\": []}").unwrap();
    });
    for file in ["rows.prof.gz", "label.json.gz", "sorted.json.gz"] {
        let m = measured(&dir.0, &[file, "-o", "x.svg"]);
        failed_with(&m, 1, file, "decompress it to a file");
        assert!(!dir.path("x.svg").exists());
    }
}

/// 1,200 retainer sets of 4 KiB members, 40 of them naming a band of a `-hr` profile of
/// 500 censuses: each set kept once, within its limits, whatever the output.
#[test]
fn retainer_sets_are_kept_once_within_their_limits() {
    let dir = Scratch::new("limits4-sets");
    let mut report = std::fs::read_to_string(fixture("prof/ghc-9.0.2/MapFib-p.prof")).unwrap();
    report += "\nRetainer sets created during profiling:\n";
    for n in 1..=1200 {
        let member = |k: usize| format!("<M.s{n}m{k}{}>", "a".repeat(4000));
        let members: Vec<String> = (0..2).map(member).collect();
        report += &format!("SET {n} = {{{}}}\n", members.join(", "));
    }
    std::fs::write(dir.path("sets.prof"), report).unwrap();
    let mut hp = String::from(
        "JOB \"prog +RTS -hr -RTS\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n",
    );
    for s in 0..500 {
        hp += &format!("BEGIN_SAMPLE {s}\n");
        for b in 1..=40 {
            hp += &format!(
                "{}\t{}\n",
                &format!("({b})s{b}m0aaaaaaaaaaaaaaaaaaaaaa")[..25],
                1000 + b * s
            );
        }
        hp += &format!("END_SAMPLE {s}\n");
    }
    std::fs::write(dir.path("sets.hp"), hp).unwrap();
    for out in ["x.html", "x.svg", "x.json"] {
        let m = measured(
            &dir.0,
            &["sets.hp", "--retainer-sets", "sets.prof", "-o", out],
        );
        within_limits(&m, &format!("1,200 sets of 4 KiB members, {out}"));
        assert!(m.stderr.contains("40 of 40 bands"), "{}", m.stderr);
        let size = std::fs::metadata(dir.path(out)).unwrap().len();
        assert!(size < 32 << 20, "{out}: {size} bytes");
    }
    let m = measured(
        &dir.0,
        &["sets.hp", "--retainer-sets", "sets.prof", "--summary=json"],
    );
    within_limits(&m, "1,200 sets of 4 KiB members, --summary=json");
}

/// Inverted flame graphs of many deep stacks: a frame per frame of each stack, up to the
/// graph's bound, then the rest of each stack as one frame.
#[test]
fn inverted_graphs_are_bounded_as_the_others() {
    let dir = Scratch::new("limits4-inverted");
    let mut text = String::new();
    text +=
        "JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\nBEGIN_SAMPLE 0\n";
    for b in 0..2400 {
        let frames: Vec<String> = (0..400).map(|d| format!("f{b}x{d}")).collect();
        text += &format!("{}\t100\n", frames.join("/"));
    }
    text += "END_SAMPLE 0\n";
    std::fs::write(dir.path("deep.hp"), text).unwrap();
    // 512 chains of 128 levels: 65,536 stacks, 4 million frames inverted.
    std::fs::write(dir.path("wide.prof"), chains_prof(512, 128)).unwrap();
    for (input, args) in [
        ("wide.prof", &["--inverted", "-o", "w.svg"][..]),
        ("wide.prof", &["--inverted", "-o", "w.html"][..]),
        ("deep.hp", &["--flame", "--inverted", "-o", "d.svg"][..]),
    ] {
        let m = measured(&dir.0, &[&[input][..], args].concat());
        within_limits(&m, &format!("{input} {args:?}"));
    }
    let m = measured(&dir.0, &["wide.prof", "--inverted", "-o", "w.svg"]);
    assert!(
        m.stderr.contains("the graph holds at most 524288 frames"),
        "{}",
        m.stderr
    );
}

/// A `-P` text report of `chains` chains of `depth` cost centres under MAIN, each
/// stack a tick and 8 bytes, its columns as GHC lays them out.
fn chains_prof(chains: usize, depth: usize) -> String {
    let mut rows = vec![("MAIN".to_string(), "MAIN", 0)];
    for c in 0..chains {
        for d in 0..depth {
            rows.push((format!("c{c}d{d}"), "Main", d + 1));
        }
    }
    let width = rows.iter().map(|r| r.0.len() + r.2).max().unwrap() + 1;
    let mut text = format!(
        "\tSat Nov 28 09:00 2026 Time and Allocation Profiling Report  (Final)\n\n\t   \
         chains +RTS -P -RTS\n\n\ttotal time  =        0.07 secs   ({} ticks @ 1000 us, 1 \
         processor)\n\ttotal alloc =     {} bytes  (excludes profiling overheads)\n\n\
         {:<width$} MODULE SRC              no.     entries  %time %alloc   %time %alloc  \
         ticks     bytes\n\n",
        rows.len(),
        rows.len() * 8,
        "COST CENTRE"
    );
    for (n, (name, module, depth)) in rows.iter().enumerate() {
        let indented = format!("{}{name}", " ".repeat(*depth));
        text += &format!(
            "{indented:<width$} {module:<6} M.hs:1:1 {:>8} {:>11}    0.0    0.0     0.0    0.0      1         8\n",
            n + 1,
            1
        );
    }
    text
}

/// Two `--check band(…)` of a large Unicode pattern over 150 names of 64 KiB: the
/// pattern's search given room to run as an automaton, not a thousand times slower.
#[test]
fn patterns_over_long_names_match_in_bounded_time() {
    let dir = Scratch::new("limits4-regex");
    let mut hp =
        String::from("JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n");
    for s in 0..3 {
        hp += &format!("BEGIN_SAMPLE {s}\n");
        for b in 0..150 {
            hp += &format!("{b:03}{}\t{}\n", "a".repeat((64 << 10) - 10), 100 + s);
        }
        hp += &format!("END_SAMPLE {s}\n");
    }
    std::fs::write(dir.path("long.hp"), hp).unwrap();
    let m = measured(
        &dir.0,
        &[
            "long.hp",
            "--check",
            r"band('\w{200}\d') peak < 1MB",
            "--check",
            r"band('\w{190}\d') peak < 1MB",
        ],
    );
    failed_with(
        &m,
        2,
        "two band() of \\w{200}",
        "no band of long.hp matches",
    );
    let m = measured(
        &dir.0,
        &["long.hp", "--include", r"\w{200}\d", "-o", "x.svg"],
    );
    failed_with(&m, 1, "--include \\w{200}", "no band");
}

/// `hpgraph run` of a program of a sparse gigabyte: it is searched for the runtime's text
/// a block at a time, not read whole, and refused as no program GHC built.
#[test]
fn a_sparse_gigabyte_to_run_is_refused_within_bounds() {
    use std::os::unix::fs::PermissionsExt;
    let scratch = Scratch::new("run-sparse");
    let program = scratch.path("huge");
    std::fs::File::create(&program)
        .unwrap()
        .set_len(1 << 30)
        .unwrap();
    std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
    let m = measured(&scratch.0, &["run", "--", program.to_str().unwrap()]);
    let what = "hpgraph run of a sparse gigabyte";
    failed_with(&m, 2, what, "not a program built by GHC");
}

/// Reports of blank lines: 90 MiB of them gathered from a 92 kB `.gz` held 1.2 GB (a
/// `.prof`) and 0.9 GB (a ticky report) for their line index. Refused past `MAX_LINES`.
#[test]
fn reports_of_blank_lines_are_refused_within_bounds() {
    let scratch = Scratch::new("blank-lines");
    for (name, real) in [
        ("blank.prof.gz", "prof/ghc-9.0.2/MapFib-P.prof"),
        ("blank.ticky.gz", "ticky/Run-r-ghc-9.6.6.ticky"),
    ] {
        let report = std::fs::read(fixture(real)).unwrap();
        let path = scratch.path(name);
        crate::common::measure::gzip(&path, |w| {
            w.write_all(&report).unwrap();
            let blank = vec![b'\n'; 1 << 20];
            for _ in 0..90 {
                w.write_all(&blank).unwrap();
            }
        });
        let m = measured(&scratch.0, &[path.to_str().unwrap(), "--summary"]);
        failed_with(&m, 1, name, "lines, more than any report GHC writes");
    }
}
