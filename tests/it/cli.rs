//! The command line's own rules: hp2ps's naming and flags, filter mode, exit codes,
//! which format and which files a run writes, and that an error never leaves an output
//! file behind. Expected pictures are hp2ps's, from `fixtures/golden` (see
//! `scripts/regen-fixtures.sh`). The figures themselves are tests/it/figures.rs's, the page
//! tests/it/page.rs's.

use crate::common;

use std::fs;

use crate::common::{Scratch, fixtures, hpgraph, hpgraph_ok, profile, stderr, without_creator};

fn golden(profile: &str, tag: &str, ext: &str) -> Vec<u8> {
    fs::read(fixtures().join(format!("golden/{profile}/{tag}.{ext}"))).unwrap()
}

#[test]
fn a_name_without_hp_reads_name_hp_and_writes_in_the_current_folder() {
    let dir = Scratch::new("cli");
    fs::create_dir(dir.path("sub")).unwrap();
    fs::write(dir.path("sub/Leak-hc.hp"), profile("Leak-hc")).unwrap();
    let out = hpgraph(&dir.0, &["sub/Leak-hc"], None);
    crate::common::assert_ok(&out);
    let ps = fs::read(dir.path("Leak-hc.ps")).unwrap();
    assert_eq!(without_creator(&ps), golden("Leak-hc", "default", "ps"));
    assert_eq!(
        fs::read(dir.path("Leak-hc.aux")).unwrap(),
        golden("Leak-hc", "default", "aux")
    );
}

#[test]
fn filter_mode_reads_stdin_writes_stdout_and_no_aux() {
    let dir = Scratch::new("cli");
    let out = hpgraph(&dir.0, &["-c"], Some(&profile("MapBuild-hy")));
    crate::common::assert_ok(&out);
    assert_eq!(
        without_creator(&out.stdout),
        golden("MapBuild-hy", "c", "ps")
    );
    assert_eq!(
        fs::read_dir(&dir.0).unwrap().count(),
        0,
        "filter mode wrote a file"
    );
    let dash = hpgraph(&dir.0, &["-", "-c"], Some(&profile("MapBuild-hy")));
    assert_eq!(dash.stdout, out.stdout);
}

#[test]
fn options_may_follow_the_file_and_output_may_be_named() {
    let dir = Scratch::new("cli");
    fs::write(dir.path("p.hp"), profile("ManyCC-hc")).unwrap();
    let out = hpgraph(&dir.0, &["p.hp", "-m5", "-o", "out/graph.ps"], None);
    assert!(
        !out.status.success(),
        "a missing output folder must be an error"
    );
    assert!(stderr(&out).contains("out/graph.ps"), "{}", stderr(&out));
    fs::create_dir(dir.path("out")).unwrap();
    let out = hpgraph(&dir.0, &["p.hp", "-m5", "-o", "out/graph.ps"], None);
    crate::common::assert_ok(&out);
    let ps = fs::read(dir.path("out/graph.ps")).unwrap();
    assert_eq!(without_creator(&ps), golden("ManyCC-hc", "m5", "ps"));
    assert_eq!(
        fs::read(dir.path("out/graph.aux")).unwrap(),
        golden("ManyCC-hc", "m5", "aux")
    );
    let stdout = hpgraph(&dir.0, &["-m5", "p.hp", "-o", "-"], None);
    assert_eq!(
        without_creator(&stdout.stdout),
        golden("ManyCC-hc", "m5", "ps")
    );
}

#[test]
fn several_files_render_in_turn_and_one_failure_does_not_stop_the_rest() {
    let dir = Scratch::new("cli");
    fs::write(dir.path("a.hp"), profile("Leak-hy")).unwrap();
    fs::write(dir.path("b.hp"), profile("Names-hd")).unwrap();
    let out = hpgraph(&dir.0, &["-g", "a", "missing.hp", "b.hp"], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("missing.hp"), "{}", stderr(&out));
    assert_eq!(
        without_creator(&fs::read(dir.path("a.ps")).unwrap()),
        golden("Leak-hy", "g", "ps")
    );
    assert_eq!(
        without_creator(&fs::read(dir.path("b.ps")).unwrap()),
        golden("Names-hd", "g", "ps")
    );
    assert!(!dir.path("missing.ps").exists());
}

#[test]
fn hp2ps_option_clusters_work() {
    let dir = Scratch::new("cli");
    fs::write(dir.path("p.hp"), profile("Names-hc")).unwrap();
    // -pc is -p -c (p reads on); the first run makes the .aux that -p reads.
    crate::common::assert_ok(&hpgraph(&dir.0, &["p.hp"], None));
    let out = hpgraph(&dir.0, &["-pc", "p.hp"], None);
    crate::common::assert_ok(&out);
    let with_p = fs::read(dir.path("p.ps")).unwrap();
    let out = hpgraph(&dir.0, &["-p", "-c", "p.hp"], None);
    crate::common::assert_ok(&out);
    assert_eq!(fs::read(dir.path("p.ps")).unwrap(), with_p);
}

#[test]
fn usage_errors_exit_2_and_write_nothing() {
    let dir = Scratch::new("cli");
    fs::write(dir.path("p.hp"), profile("Leak-hc")).unwrap();
    for args in [
        &["-x", "p.hp"][..],
        &["-l", "p.hp"],
        &["-t6", "p.hp"],
        &["-e2in", "p.hp"],
        &["-e", "p.hp"],
        &["-m-3", "p.hp"],
        &["--no-such-flag", "p.hp"],
        &["-o", "x.ps", "p.hp", "p.hp"],
    ] {
        let out = hpgraph(&dir.0, args, None);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).starts_with("hpgraph: "),
            "{args:?}: {}",
            stderr(&out)
        );
        if args[0].starts_with("-x") || args[0].starts_with("--no") {
            assert!(
                stderr(&out).contains("Usage: hpgraph"),
                "{args:?}: {}",
                stderr(&out)
            );
        }
        assert!(!dir.path("p.ps").exists(), "{args:?} wrote output");
    }
}

#[test]
fn help_and_version_exit_0() {
    let dir = Scratch::new("cli");
    let help = hpgraph(&dir.0, &["--help"], None);
    assert_eq!(help.status.code(), Some(0));
    let text = String::from_utf8_lossy(&help.stdout);
    for flag in [
        "--colour",
        "--eps",
        "--max-bands",
        "--threshold",
        "--reuse-aux",
        "-M",
    ] {
        assert!(text.contains(flag), "--help does not mention {flag}");
    }
    let qm = hpgraph(&dir.0, &["-?"], None);
    assert_eq!(qm.status.code(), Some(0));
    let v = hpgraph(&dir.0, &["--version"], None);
    assert_eq!(v.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&v.stdout).starts_with("hpgraph "));
}

#[test]
fn a_bad_profile_names_file_and_line_and_leaves_the_old_output_alone() {
    let dir = Scratch::new("cli");
    let mut bad = profile("Leak-hc");
    bad.extend_from_slice(b"BEGIN_SAMPLE 99.0\nthis line has no value\n");
    fs::write(dir.path("p.hp"), &bad).unwrap();
    fs::write(dir.path("p.ps"), b"previous picture").unwrap();
    let out = hpgraph(&dir.0, &["p.hp"], None);
    assert_eq!(out.status.code(), Some(1));
    let line = bad.iter().filter(|&&b| b == b'\n').count();
    let want =
        format!("hpgraph: p.hp:{line}: expected a number at the end of the line, found `value`");
    assert_eq!(stderr(&out).trim(), want);
    assert_eq!(fs::read(dir.path("p.ps")).unwrap(), b"previous picture");
    assert!(!dir.path("p.aux").exists());
    let names: Vec<_> = fs::read_dir(&dir.0)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 2, "left behind: {names:?}");
}

#[test]
fn a_missing_input_or_aux_is_an_error_naming_the_path() {
    let dir = Scratch::new("cli");
    let out = hpgraph(&dir.0, &["nothing"], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).starts_with("hpgraph: nothing.hp: "),
        "{}",
        stderr(&out)
    );
    fs::write(dir.path("p.hp"), profile("Leak-hc")).unwrap();
    let out = hpgraph(&dir.0, &["-p", "p.hp"], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).starts_with("hpgraph: p.aux: "),
        "{}",
        stderr(&out)
    );
    assert!(!dir.path("p.ps").exists());
}

#[test]
fn an_unfinished_last_sample_is_dropped_with_a_warning() {
    // A running program's profile: a complete real profile plus the start of a sample,
    // cut in the middle of a line. The picture is hp2ps's for the complete part.
    let dir = Scratch::new("cli");
    let mut hp = profile("ManyCC-hd");
    let complete_lines = hp.iter().filter(|&&b| b == b'\n').count();
    hp.extend_from_slice(b"BEGIN_SAMPLE 99.00\n<main:Main.mk>\t1234\n<main:Main.f0");
    fs::write(dir.path("p.hp"), &hp).unwrap();
    let out = hpgraph(&dir.0, &["p.hp"], None);
    crate::common::assert_ok(&out);
    assert_eq!(
        stderr(&out).trim(),
        format!(
            "hpgraph: warning: p.hp:{}: incomplete last sample ignored",
            complete_lines + 1
        )
    );
    assert_eq!(
        without_creator(&fs::read(dir.path("p.ps")).unwrap()),
        golden("ManyCC-hd", "default", "ps")
    );
}

#[test]
fn crlf_and_a_missing_final_newline_change_nothing() {
    let dir = Scratch::new("cli");
    let lf = profile("Names-hy");
    let crlf: Vec<u8> = lf
        .split_inclusive(|&b| b == b'\n')
        .flat_map(|l| {
            let body = l.strip_suffix(b"\n").unwrap_or(l);
            [body, b"\r\n"].concat()
        })
        .collect();
    let out = hpgraph(&dir.0, &[], Some(&crlf));
    crate::common::assert_ok(&out);
    assert_eq!(
        without_creator(&out.stdout),
        golden("Names-hy", "default", "ps")
    );
    let out = hpgraph(&dir.0, &[], Some(lf.strip_suffix(b"\n").unwrap()));
    crate::common::assert_ok(&out);
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
    assert_eq!(
        without_creator(&out.stdout),
        golden("Names-hy", "default", "ps")
    );
}

#[test]
fn the_format_comes_from_format_or_the_output_name() {
    let dir = Scratch::new("cli");
    fs::write(dir.path("p.hp"), profile("Leak-hc")).unwrap();
    let out = hpgraph(&dir.0, &["p.hp", "-o", "fig.svg"], None);
    crate::common::assert_ok(&out);
    assert!(fs::read(dir.path("fig.svg")).unwrap().starts_with(b"<svg"));
    let out = hpgraph(&dir.0, &["p.hp", "-o", "fig.PDF"], None);
    crate::common::assert_ok(&out);
    assert!(fs::read(dir.path("fig.PDF")).unwrap().starts_with(b"%PDF-"));
    // --format names the file after the input, as hp2ps names its .ps.
    assert!(
        hpgraph(&dir.0, &["--format", "pdf", "p"], None)
            .status
            .success()
    );
    assert!(fs::read(dir.path("p.pdf")).unwrap().starts_with(b"%PDF-"));
    assert!(
        hpgraph(&dir.0, &["--format=svg", "p"], None)
            .status
            .success()
    );
    assert!(dir.path("p.svg").exists());
    // EPS by name is marked EPSF and boxed at the drawing's size.
    assert!(
        hpgraph(&dir.0, &["p.hp", "-o", "fig.eps"], None)
            .status
            .success()
    );
    let eps = fs::read(dir.path("fig.eps")).unwrap();
    assert!(eps.starts_with(b"%!PS-Adobe-2.0 EPSF-2.0\n"));
    assert!(
        eps.windows(27)
            .any(|w| w == b"%%BoundingBox: 0 0 648 432\n")
    );
    // --format wins over the extension; stdout works for every format.
    let out = hpgraph(&dir.0, &["p.hp", "--format", "svg", "-o", "-"], None);
    assert!(out.stdout.starts_with(b"<svg"));
    // An extension that names no format is a usage error.
    let out = hpgraph(&dir.0, &["p.hp", "-o", "fig.gif"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("fig.gif"));
    assert!(!dir.path("fig.gif").exists());
}
#[test]
fn two_inputs_that_would_write_the_same_file_are_refused_before_anything_is_written() {
    let dir = Scratch::new("same-output");
    let hp = fixtures().join("eventlog/Leak-hc.hp");
    let log = fixtures().join("eventlog/Leak-hc.eventlog");
    for sub in ["a", "b"] {
        std::fs::create_dir_all(dir.path(sub)).unwrap();
        std::fs::copy(&hp, dir.path(&format!("{sub}/prog.hp"))).unwrap();
    }
    std::fs::copy(&hp, dir.path("prog.hp")).unwrap();
    std::fs::copy(&log, dir.path("prog.eventlog")).unwrap();
    for args in [
        &["a/prog.hp", "b/prog.hp"][..],
        &["prog.hp", "prog.eventlog"],
        &["prog.hp", "a/prog.hp", "--format", "svg"],
    ] {
        let out = hpgraph(&dir.0, args, None);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains(args[0]) && err.contains(args[1]),
            "{args:?}: {err}"
        );
        for written in ["prog.ps", "prog.aux", "prog.svg"] {
            assert!(!dir.path(written).exists(), "{args:?} wrote {written}");
        }
    }
    // The same file twice writes its picture twice: nothing is lost.
    hpgraph_ok(&dir.0, &["prog.hp", "prog.hp"]);
}

#[cfg(unix)]
#[test]
fn an_existing_output_keeps_its_permissions_and_a_read_only_one_is_left_alone() {
    use std::os::unix::fs::PermissionsExt;
    let dir = Scratch::new("output-modes");
    let hp = fixtures().join("eventlog/Leak-hc.hp");
    let hp = hp.to_str().unwrap();
    std::fs::write(dir.path("private.svg"), b"old").unwrap();
    std::fs::set_permissions(
        dir.path("private.svg"),
        std::fs::Permissions::from_mode(0o600),
    )
    .unwrap();
    hpgraph_ok(&dir.0, &[hp, "-o", "private.svg"]);
    let meta = std::fs::metadata(dir.path("private.svg")).unwrap();
    assert_eq!(meta.permissions().mode() & 0o777, 0o600);
    assert!(meta.len() > 1000);

    std::fs::write(dir.path("kept.svg"), b"old").unwrap();
    std::fs::set_permissions(dir.path("kept.svg"), std::fs::Permissions::from_mode(0o444)).unwrap();
    let out = hpgraph(&dir.0, &[hp, "-o", "kept.svg"], None);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("kept.svg") && err.contains("read-only"),
        "{err}"
    );
    assert_eq!(std::fs::read(dir.path("kept.svg")).unwrap(), b"old");
}

#[test]
fn an_aux_file_is_written_beside_postscript_only_unless_p_asks() {
    let dir = Scratch::new("aux-beside");
    let hp = fixtures().join("eventlog/Leak-hc.hp");
    let hp = hp.to_str().unwrap();
    for (out, aux) in [
        ("fig.ps", true),
        ("fig.eps", true),
        ("fig.pdf", false),
        ("fig.svg", false),
        ("fig.png", false),
    ] {
        let _ = std::fs::remove_file(dir.path("fig.aux"));
        hpgraph_ok(&dir.0, &[hp, "-o", out]);
        assert_eq!(dir.path("fig.aux").exists(), aux, "{out}");
    }
    // -p reads the .aux of an earlier run and writes it again, in any format.
    hpgraph_ok(&dir.0, &[hp, "-o", "fig.ps"]);
    hpgraph_ok(&dir.0, &["-p", hp, "-o", "fig.pdf"]);
    assert!(dir.path("fig.aux").exists());
}

#[test]
fn eps_widths_and_times_read_as_help_says() {
    let dir = Scratch::new("small-options");
    let hp = fixtures().join("eventlog/Leak-hc.hp");
    let hp = hp.to_str().unwrap();
    // `-e 3in` as `--help` writes it, the same as hp2ps's `-e3in`.
    hpgraph_ok(&dir.0, &["-e", "3in", hp, "-o", "a.eps"]);
    hpgraph_ok(&dir.0, &["-e3in", hp, "-o", "b.eps"]);
    assert_eq!(
        without_creator(&std::fs::read(dir.path("a.eps")).unwrap()),
        without_creator(&std::fs::read(dir.path("b.eps")).unwrap())
    );
    let help = String::from_utf8(hpgraph_ok(&dir.0, &["--help"])).unwrap();
    assert!(help.contains("More than 2 inches"), "{help}");
    for (args, says) in [
        (&["--eps", "2in"][..], "more than 2in"),
        (&["--from", "1e308"], "from 0 to 1e10"),
        (&["--to", "1e11"], "from 0 to 1e10"),
    ] {
        let mut all = args.to_vec();
        all.push(hp);
        let out = hpgraph(&dir.0, &all, None);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says) && err.len() < 400, "{args:?}: {err}");
    }
}

#[test]
fn the_rough_edges_a_new_user_meets() {
    let dir = Scratch::new("cli-edges");
    fs::write(dir.path("p.hp"), profile("Leak-hc")).unwrap();
    fs::write(dir.path("notes.md"), "# Notes\n\nSome text.\n").unwrap();
    fs::create_dir_all(dir.path("folder")).unwrap();

    // A misspelt option: one prefix, and the whole command's usage.
    let out = hpgraph(&dir.0, &["--colr", "p.hp"], None);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.starts_with("hpgraph: ") && err.contains("'--color'"),
        "{err}"
    );
    assert!(err.contains("Usage: hpgraph [OPTIONS] [FILE]..."), "{err}");

    // hp2ps's naming explained where it bites, with what to do.
    let out = hpgraph(&dir.0, &["notes.md"], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("hpgraph < notes.md"),
        "{}",
        stderr(&out)
    );
    let out = hpgraph(&dir.0, &["folder"], None);
    assert!(
        stderr(&out).contains("folder is a folder"),
        "{}",
        stderr(&out)
    );

    // Another kind of file is called that, not a damaged profile.
    let out = hpgraph(&dir.0, &["-"], Some(b"# Notes\n\nSome text.\n"));
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains(":1: not a profile hpgraph reads"),
        "{}",
        stderr(&out)
    );
    // The hint names every input hpgraph reads.
    for kind in [".hp", "eventlog", "+RTS -p", "-pj"] {
        assert!(stderr(&out).contains(kind), "{kind}: {}", stderr(&out));
    }
    // A retainer profile's report alone is called that, with what to give beside it.
    let report = fixtures().join("prof/ghc-9.0.2/Leak-hr.prof");
    let out = hpgraph(&dir.0, &[report.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("a retainer profile's report (+RTS -hr)")
            && stderr(&out).contains("--retainer-sets"),
        "{}",
        stderr(&out)
    );

    // Censuses that are all empty say so, from either format, and the summary agrees.
    let empty = b"JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n\
        BEGIN_SAMPLE 0\nEND_SAMPLE 0\nBEGIN_SAMPLE 1\nEND_SAMPLE 1\n";
    let mut log = common::eventlog::Writer::new();
    log.event(common::eventlog::PROF_BEGIN, 0, &[0; 13])
        .begin(1)
        .end(1)
        .begin(2)
        .end(2);
    for input in [&empty[..], &log.done()] {
        let out = hpgraph(&dir.0, &["-", "-o", "e.svg"], Some(input));
        crate::common::assert_ok(&out);
        assert!(
            stderr(&out).contains("every census is empty"),
            "{}",
            stderr(&out)
        );
        let out = hpgraph(&dir.0, &["--summary", "-"], Some(input));
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("2 censuses, every one empty"), "{text}");
    }

    // One input named twice is drawn once.
    let once = hpgraph(&dir.0, &["--summary", "p.hp"], None);
    let twice = hpgraph(&dir.0, &["--summary", "p.hp", "p.hp", "p"], None);
    crate::common::assert_ok(&twice);
    assert_eq!(once.stdout, twice.stdout);
}

#[test]
fn a_reader_that_closes_standard_output_early_ends_the_run_quietly() {
    use std::io::Read;
    use std::process::Stdio;
    let dir = Scratch::new("cli-pipe");
    // Large enough in every format to outgrow a pipe's buffer (64 kB on Linux), so that
    // hpgraph is still writing when the reader goes.
    let mut hp =
        String::from("JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n");
    for t in 0..3000 {
        hp += &format!("BEGIN_SAMPLE {t}\n");
        for k in 0..20 {
            hp += &format!("band{k}\t{}\n", 1000 + (t * 7 + k * 13) % 500);
        }
        hp += &format!("END_SAMPLE {t}\n");
    }
    fs::write(dir.path("p.hp"), hp).unwrap();
    for format in ["svg", "json", "csv", "ps"] {
        let whole = hpgraph(&dir.0, &["p.hp", "-o", "-", "--format", format], None);
        assert!(
            whole.stdout.len() > 256 << 10,
            "{format}: {} bytes",
            whole.stdout.len()
        );
        for _ in 0..3 {
            let mut child = crate::common::command(&dir.0)
                .args(["p.hp", "-o", "-", "--format", format])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            let mut first = [0u8; 10];
            child.stdout.take().unwrap().read_exact(&mut first).unwrap();
            // stdout is closed here, as `head -c10` closes it.
            let out = child.wait_with_output().unwrap();
            crate::common::assert_ok_as(&out, format_args!("{format}"));
            assert!(out.stderr.is_empty(), "{format}: {}", stderr(&out));
        }
    }
}

/// `hpgraph` alone at a terminal has no profile to wait for: it says how to give one and
/// exits 2, as a usage error does, rather than wait on the keyboard (#58).
#[test]
fn no_arguments_on_a_terminal_print_usage_and_exit_2() {
    use std::os::fd::{FromRawFd, OwnedFd};
    let (mut leader, mut follower) = (0, 0);
    // SAFETY: openpty writes the two descriptors it opens; no name, settings or size.
    let opened = unsafe {
        libc::openpty(
            &mut leader,
            &mut follower,
            std::ptr::null_mut(),
            std::ptr::null(),
            std::ptr::null(),
        )
    };
    assert_eq!(opened, 0, "a pseudo-terminal");
    // SAFETY: both descriptors were just opened and are owned here alone.
    let (leader, follower) =
        unsafe { (OwnedFd::from_raw_fd(leader), OwnedFd::from_raw_fd(follower)) };
    let dir = Scratch::new("cli-terminal");
    let mut child = crate::common::command(&dir.0)
        .stdin(std::process::Stdio::from(follower))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > std::time::Duration::from_secs(10) {
            let _ = child.kill();
            panic!("hpgraph waited on the terminal");
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let out = child.wait_with_output().unwrap();
    drop(leader);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("Usage:") && err.contains("no profile"),
        "{err}"
    );
    assert!(
        std::fs::read_dir(&dir.0).unwrap().next().is_none(),
        "wrote a file"
    );
}

/// The formats hp2ps never wrote take the modern style unless `--style hp2ps` asks for
/// hp2ps's look: the default SVG, PDF and PNG are `--style modern`'s, byte for byte;
/// PostScript and EPS stay hp2ps's (its golden bytes, `golden.rs`), and so does the
/// default of `--style hp2ps`.
#[test]
fn formats_hp2ps_never_wrote_are_modern_by_default() {
    let dir = Scratch::new("default-style");
    let hp = fixtures().join("profiles/ManyCC-hc.hp");
    let hp = hp.to_str().unwrap();
    for format in ["svg", "pdf", "png", "ps", "eps"] {
        let out = |style: &[&str]| {
            let args = [&[hp, "--format", format, "-o", "-"][..], style].concat();
            without_creator(&hpgraph_ok(&dir.0, &args))
        };
        let (default, modern, old) = (
            out(&[]),
            out(&["--style", "modern"]),
            out(&["--style", "hp2ps"]),
        );
        if matches!(format, "ps" | "eps") {
            assert_eq!(default, old, "{format}: hp2ps's look by default");
            assert_ne!(default, modern, "{format}");
        } else {
            assert_eq!(default, modern, "{format}: the modern style by default");
            assert_ne!(default, old, "{format}");
        }
    }
}
