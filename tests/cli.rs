//! The command line: hp2ps's naming and flags, filter mode, exit codes, and that an
//! error never leaves an output file behind. Expected pictures are hp2ps's, from
//! `fixtures/golden` (see `scripts/regen-fixtures.sh`).

mod common;

use std::fs;

use common::{Scratch, fixtures, hpgraph, hpgraph_ok, svg_texts, without_creator};

fn golden(profile: &str, tag: &str, ext: &str) -> Vec<u8> {
    fs::read(fixtures().join(format!("golden/{profile}/{tag}.{ext}"))).unwrap()
}

fn profile(name: &str) -> Vec<u8> {
    fs::read(fixtures().join(format!("profiles/{name}.hp"))).unwrap()
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn a_name_without_hp_reads_name_hp_and_writes_in_the_current_folder() {
    let dir = Scratch::new("cli");
    fs::create_dir(dir.path("sub")).unwrap();
    fs::write(dir.path("sub/Leak-hc.hp"), profile("Leak-hc")).unwrap();
    let out = hpgraph(&dir.0, &["sub/Leak-hc"], None);
    assert!(out.status.success(), "{}", stderr(&out));
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
    assert!(out.status.success(), "{}", stderr(&out));
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
    assert!(out.status.success(), "{}", stderr(&out));
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
    assert!(hpgraph(&dir.0, &["p.hp"], None).status.success());
    let out = hpgraph(&dir.0, &["-pc", "p.hp"], None);
    assert!(out.status.success(), "{}", stderr(&out));
    let with_p = fs::read(dir.path("p.ps")).unwrap();
    let out = hpgraph(&dir.0, &["-p", "-c", "p.hp"], None);
    assert!(out.status.success());
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
            stderr(&out).starts_with("error: "),
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
    assert!(out.status.success(), "{}", stderr(&out));
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
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        without_creator(&out.stdout),
        golden("Names-hy", "default", "ps")
    );
    let out = hpgraph(&dir.0, &[], Some(lf.strip_suffix(b"\n").unwrap()));
    assert!(out.status.success(), "{}", stderr(&out));
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
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(fs::read(dir.path("fig.svg")).unwrap().starts_with(b"<svg"));
    let out = hpgraph(&dir.0, &["p.hp", "-o", "fig.PDF"], None);
    assert!(out.status.success(), "{}", stderr(&out));
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
fn every_format_gives_the_same_bytes_twice() {
    let dir = Scratch::new("cli");
    fs::write(dir.path("p.hp"), profile("ManyCC-hd")).unwrap();
    for format in ["ps", "eps", "svg", "pdf", "png", "hp"] {
        let a = hpgraph(
            &dir.0,
            &["-c", "-M", "--format", format, "-o", "-", "p.hp"],
            None,
        );
        let b = hpgraph(
            &dir.0,
            &["-c", "-M", "--format", format, "-o", "-", "p.hp"],
            None,
        );
        assert!(a.status.success(), "{format}");
        assert_eq!(
            a.stdout, b.stdout,
            "{format} output changes from run to run"
        );
    }
}

/// A profile of `samples` samples of three bands that rise and fall.
fn long_profile(samples: usize) -> Vec<u8> {
    let mut hp =
        b"JOB \"long\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n".to_vec();
    for i in 0..samples {
        hp.extend(format!("BEGIN_SAMPLE {}.{:03}\n", i / 1000, i % 1000).as_bytes());
        for (k, name) in ["a", "b", "c"].iter().enumerate() {
            let v = 1000 + (i * (k + 3) * 7919) % 5000;
            hp.extend(format!("{name}\t{v}\n").as_bytes());
        }
        hp.extend(format!("END_SAMPLE {}.{:03}\n", i / 1000, i % 1000).as_bytes());
    }
    hp
}

#[test]
fn svg_and_pdf_follow_the_figure_not_the_samples_unless_exact() {
    let dir = Scratch::new("reduce");
    std::fs::write(dir.path("long.hp"), long_profile(20_000)).unwrap();
    let size = |args: &[&str]| {
        let out = hpgraph(&dir.0, args, None);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        out.stdout.len()
    };
    let reduced = size(&["long.hp", "--format", "svg", "-o", "-"]);
    let exact = size(&["long.hp", "--format", "svg", "--exact", "-o", "-"]);
    assert!(
        reduced * 5 < exact,
        "reduced {reduced} bytes, exact {exact}"
    );
    let reduced_pdf = size(&["long.hp", "--format", "pdf", "-o", "-"]);
    let exact_pdf = size(&["long.hp", "--format", "pdf", "--exact", "-o", "-"]);
    assert!(
        reduced_pdf < exact_pdf,
        "reduced {reduced_pdf} bytes, exact {exact_pdf}"
    );
    // PostScript keeps hp2ps's every point with or without --exact.
    let ps = hpgraph(&dir.0, &["long.hp", "-o", "-"], None).stdout;
    let ps_exact = hpgraph(&dir.0, &["long.hp", "--exact", "-o", "-"], None).stdout;
    assert_eq!(ps, ps_exact);
    // Twice the samples: the SVG hardly grows.
    std::fs::write(dir.path("longer.hp"), long_profile(40_000)).unwrap();
    let longer = size(&["longer.hp", "--format", "svg", "-o", "-"]);
    assert!(
        (longer as f64) < reduced as f64 * 1.3,
        "{reduced} then {longer}"
    );
}

/// Width and height from a PNG's header.
fn png_size(png: &[u8]) -> (u32, u32) {
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "not a PNG");
    let word = |at: usize| u32::from_be_bytes(png[at..at + 4].try_into().unwrap());
    (word(16), word(20))
}

#[test]
fn png_is_the_figure_at_the_asked_resolution_and_the_same_every_time() {
    let dir = Scratch::new("png");
    let hp = fixtures().join("profiles/ManyCC-hc.hp");
    let hp = hp.to_str().unwrap();
    let out = hpgraph(&dir.0, &["-c", hp, "-o", "a.png"], None);
    assert!(out.status.success(), "{}", stderr(&out));
    let a = std::fs::read(dir.path("a.png")).unwrap();
    assert_eq!(png_size(&a), (1350, 900), "9 x 6 in at 150 dpi");
    assert!(
        hpgraph(&dir.0, &["-c", hp, "-o", "b.png"], None)
            .status
            .success()
    );
    assert_eq!(
        a,
        std::fs::read(dir.path("b.png")).unwrap(),
        "deterministic bytes"
    );
    let out = hpgraph(
        &dir.0,
        &[hp, "--format", "png", "--dpi", "300", "-o", "-"],
        None,
    );
    assert_eq!(png_size(&out.stdout), (2700, 1800));
    let out = hpgraph(
        &dir.0,
        &[hp, "--format", "png", "--dpi", "0", "-o", "-"],
        None,
    );
    assert_eq!(
        out.status.code(),
        Some(2),
        "a resolution of 0 is a usage error"
    );
}

#[test]
fn stable_colours_give_a_name_one_fill_in_every_figure() {
    let dir = Scratch::new("stable");
    let svg = |profile: &str, extra: &[&str]| {
        let hp = fixtures().join("profiles").join(profile);
        let mut args = vec![hp.to_str().unwrap(), "--format", "svg", "-o", "-"];
        args.extend(extra);
        let out = hpgraph(&dir.0, &args, None);
        assert!(out.status.success(), "{}", stderr(&out));
        common::titled_fills(&String::from_utf8(out.stdout).unwrap())
    };
    for palette in ["hp2ps", "okabe-ito", "viridis"] {
        let a = svg(
            "ManyCC-hc.hp",
            &["-c", "--stable-colours", "--palette", palette],
        );
        let b = svg(
            "ManyCC-hc-hbdrag,void.hp",
            &["-c", "--stable-colours", "--palette", palette, "-m8", "-i"],
        );
        let fills: std::collections::HashMap<_, _> = a.iter().cloned().collect();
        let shared: Vec<_> = b.iter().filter(|(n, _)| fills.contains_key(n)).collect();
        assert!(
            shared.len() >= 3,
            "{palette}: only {} shared names",
            shared.len()
        );
        for (name, fill) in shared {
            assert_eq!(&fills[name], fill, "{palette}: {name}");
        }
        let other: Vec<_> = b.iter().filter(|(n, _)| n == "OTHER").collect();
        assert_eq!(other, vec![&("OTHER".to_string(), "#d9d9d9".to_string())]);
    }
    // Without it, hp2ps's shades, which follow the band's place.
    let plain = svg("ManyCC-hc.hp", &["-c"]);
    let moved = svg("ManyCC-hc.hp", &["-c", "-i"]);
    assert_ne!(plain, moved);
}

/// The `X_RANGE` and `Y_RANGE` lines of an `.aux` file.
fn ranges(aux: &[u8]) -> (f64, f64) {
    let text = String::from_utf8_lossy(aux);
    let get = |key: &str| -> f64 {
        let line = text.lines().find(|l| l.starts_with(key)).unwrap();
        line[key.len()..].trim().parse().unwrap()
    };
    (get("X_RANGE"), get("Y_RANGE"))
}

#[test]
fn same_scale_gives_every_picture_the_largest_ranges_and_limits_can_be_set() {
    let dir = Scratch::new("scale");
    for p in ["Leak-hc", "MapBuild-hc"] {
        fs::copy(
            fixtures().join(format!("profiles/{p}.hp")),
            dir.path(&format!("{p}.hp")),
        )
        .unwrap();
    }
    let run = |args: &[&str]| {
        let out = hpgraph(&dir.0, args, None);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    };
    run(&["Leak-hc.hp", "MapBuild-hc.hp"]);
    let (a, b) = (
        ranges(&fs::read(dir.path("Leak-hc.aux")).unwrap()),
        ranges(&fs::read(dir.path("MapBuild-hc.aux")).unwrap()),
    );
    assert_ne!(a, b, "the two profiles differ in their own ranges");
    run(&["--same-scale", "Leak-hc.hp", "MapBuild-hc.hp"]);
    let want = (a.0.max(b.0), a.1.max(b.1));
    for p in ["Leak-hc", "MapBuild-hc"] {
        assert_eq!(
            ranges(&fs::read(dir.path(&format!("{p}.aux"))).unwrap()),
            want,
            "{p}"
        );
    }
    // With filters the shared ranges are the filtered pictures' own, not the whole
    // profiles': each file drawn alone with the same filters, then together.
    let filters = ["--include", "CAF", "--to", "0.3"];
    let mut alone = Vec::new();
    for p in ["Leak-hc", "MapBuild-hc"] {
        let file = format!("{p}.hp");
        let mut args = filters.to_vec();
        args.push(&file);
        run(&args);
        alone.push(ranges(&fs::read(dir.path(&format!("{p}.aux"))).unwrap()));
    }
    let filtered = (alone[0].0.max(alone[1].0), alone[0].1.max(alone[1].1));
    assert!(
        filtered.1 < want.1,
        "the filters make the graphs lower: {filtered:?} {want:?}"
    );
    let mut args = vec!["--same-scale"];
    args.extend(filters);
    args.extend(["Leak-hc.hp", "MapBuild-hc.hp"]);
    run(&args);
    for p in ["Leak-hc", "MapBuild-hc"] {
        assert_eq!(
            ranges(&fs::read(dir.path(&format!("{p}.aux"))).unwrap()),
            filtered,
            "{p} with filters"
        );
    }
    run(&["--y-max", "512MiB", "--x-max", "30", "Leak-hc.hp"]);
    assert_eq!(
        ranges(&fs::read(dir.path("Leak-hc.aux")).unwrap()),
        (30.0, 536870912.0)
    );
    let out = hpgraph(&dir.0, &["--y-max", "2 parsecs", "Leak-hc.hp"], None);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn size_makes_the_page_exactly_that_size_in_every_format() {
    let dir = Scratch::new("size");
    let hp = fixtures().join("profiles/Leak-hc.hp");
    let hp = hp.to_str().unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec![hp, "--size", "8cmx5cm", "-o", "-"];
        args.extend(extra);
        let out = hpgraph(&dir.0, &args, None);
        assert!(out.status.success(), "{extra:?}: {}", stderr(&out));
        out.stdout
    };
    let pdf = String::from_utf8_lossy(&run(&["--format", "pdf"])).to_string();
    // pdfinfo would say "226.772 x 141.732 pts"; the box as printpdf writes it:
    assert!(
        pdf.contains("/MediaBox[0 0 226.77") && pdf.contains(" 141.73"),
        "no 8 x 5 cm MediaBox"
    );
    assert_eq!(
        png_size(&run(&["--format", "png", "--dpi", "300"])),
        (945, 591)
    );
    let svg = String::from_utf8(run(&["--format", "svg"])).unwrap();
    assert!(svg.contains("width=\"226.772pt\"") && svg.contains("height=\"141.732pt\""));
    let ps = run(&["--format", "ps"]);
    assert!(ps.windows(27).any(|w| w == b"%%BoundingBox: 0 0 227 142\n"));
    let out = hpgraph(&dir.0, &[hp, "--size", "1cmx1cm"], None);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn font_size_sets_every_text_and_the_margins_make_room() {
    let dir = Scratch::new("font-size");
    let hp = fixtures().join("profiles/Leak-hc.hp");
    let hp = hp.to_str().unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec![hp, "-o", "-"];
        args.extend(extra);
        String::from_utf8_lossy(&hpgraph_ok(&dir.0, &args)).into_owned()
    };
    let sizes = |svg: &str| {
        let mut sizes: Vec<String> = svg
            .split("font-size=\"")
            .skip(1)
            .map(|s| s[..s.find('"').unwrap()].to_string())
            .collect();
        sizes.sort();
        sizes.dedup();
        sizes
    };
    assert_eq!(sizes(&run(&["--format", "svg"])), ["10", "12"]);
    for style in ["hp2ps", "modern"] {
        let svg = run(&["--format", "svg", "--font-size", "16", "--style", style]);
        assert_eq!(sizes(&svg), ["16", "19.2"], "{style}");
    }
    let ps = run(&["--font-size", "16"]);
    assert!(ps.contains("/HE10 /Helvetica findfont 16.000000 scalefont def\n"));
    assert!(ps.contains("/HE12 /Helvetica findfont 19.200000 scalefont def\n"));
    // The room left of the y axis for its labels grows with them: 45 pt at 10 pt.
    let plot_x = |html: &str| -> f64 {
        let at = html.find("\"plot\":{").unwrap();
        let x = &html[at..];
        let x = &x[x.find("\"x\":").unwrap() + 4..];
        x[..x.find(',').unwrap()].parse().unwrap()
    };
    assert_eq!(plot_x(&run(&["--format", "html"])), 45.0);
    assert_eq!(
        plot_x(&run(&["--format", "html", "--font-size", "16"])),
        72.0
    );
    for bad in ["3", "100", "big"] {
        let out = hpgraph(&dir.0, &[hp, "--font-size", bad], None);
        assert_eq!(out.status.code(), Some(2), "{bad}");
    }
}

#[test]
fn modern_style_has_distinct_tick_labels_and_keeps_full_names_in_titles() {
    let dir = Scratch::new("modern");
    let long_name = "producer077/loop/go/step/work/more/main.final/main";
    let mut hp =
        b"JOB \"short\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n".to_vec();
    for i in 0..=10 {
        let t = format!("0.{i:02}");
        hp.extend(
            format!(
                "BEGIN_SAMPLE {t}\n{long_name}\t{}\nshort\t5000\nEND_SAMPLE {t}\n",
                1000 * (i + 1)
            )
            .as_bytes(),
        );
    }
    fs::write(dir.path("short.hp"), &hp).unwrap();
    let svg = |style: &str| {
        let out = hpgraph(
            &dir.0,
            &["short.hp", "--style", style, "--format", "svg", "-o", "-"],
            None,
        );
        assert!(out.status.success(), "{}", stderr(&out));
        String::from_utf8(out.stdout).unwrap()
    };
    // The x tick labels: the texts on the x axis's label's line, but that label.
    let ticks = |svg: &str| -> Vec<String> {
        let texts = svg_texts(svg);
        let axis = texts.iter().find(|t| t.text == "seconds").unwrap();
        texts
            .iter()
            .filter(|t| t.get("y") == axis.get("y") && t.text != "seconds")
            .map(|t| t.text.trim().to_string())
            .collect()
    };
    let old = ticks(&svg("hp2ps"));
    let mut unique = old.clone();
    unique.dedup();
    assert!(
        unique.len() < old.len(),
        "hp2ps's labels repeat on a 0.1 s run: {old:?}"
    );
    let new = ticks(&svg("modern"));
    let mut unique = new.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), new.len(), "{new:?}");
    assert!(
        new.len() >= 4 && new.contains(&"0.04".to_string()),
        "{new:?}"
    );
    let modern = svg("modern");
    assert!(modern.contains(&format!("<title>{long_name}</title>")));
    assert!(
        !svg_texts(&modern).iter().any(|t| t.text == long_name),
        "the key shortens it"
    );
    assert!(
        svg_texts(&modern)
            .iter()
            .any(|t| t.text.contains("MB") || t.text.contains("kB")),
        "byte units"
    );
    // --title replaces the job line in either style.
    let out = hpgraph(
        &dir.0,
        &[
            "short.hp",
            "--title",
            "Before the fix",
            "--format",
            "svg",
            "-o",
            "-",
        ],
        None,
    );
    let titled = String::from_utf8(out.stdout).unwrap();
    assert!(
        svg_texts(&titled)
            .iter()
            .any(|t| t.text == "Before the fix")
    );
}

#[test]
fn svg_text_keeps_its_spaces_as_postscript_does() {
    // ctime's date pads a one-digit day with a space: hp2ps shows both spaces.
    let hp = b"JOB \"a  b\"\nDATE \"Thu Jan  1 00:00 2026\"\nSAMPLE_UNIT \"seconds\"\n\
               VALUE_UNIT \"bytes\"\nBEGIN_SAMPLE 0.00\nEND_SAMPLE 0.00\nBEGIN_SAMPLE 1.00\n\
               x  y\t1200\nEND_SAMPLE 1.00\n";
    let dir = Scratch::new("svg-spaces");
    let ps = hpgraph(&dir.0, &["-"], Some(hp));
    let ps = String::from_utf8_lossy(&ps.stdout).into_owned();
    let out = hpgraph(&dir.0, &["--format", "svg", "-o", "-"], Some(hp));
    let svg = String::from_utf8_lossy(&out.stdout).into_owned();
    for text in ["Thu Jan  1 00:00 2026", "a  b", "x  y"] {
        assert!(
            ps.contains(&format!("({text})")),
            "{text} in the PostScript"
        );
        assert!(
            svg_texts(&svg)
                .iter()
                .any(|t| t.text == text && t.get("xml:space") == Some("preserve")),
            "{text} in the SVG"
        );
    }
}

#[test]
fn outline_text_draws_defined_glyphs_and_keeps_the_text_selectable() {
    let dir = Scratch::new("outline-text");
    let hp = fixtures().join("profiles/MapBuild-hc.hp");
    let svg = |extra: &[&str]| {
        let mut args = vec![hp.to_str().unwrap(), "-o", "-", "--format", "svg"];
        args.extend_from_slice(extra);
        String::from_utf8(hpgraph_ok(&dir.0, &args)).unwrap()
    };
    let (plain, outlined) = (svg(&[]), svg(&["--outline-text"]));
    assert!(!plain.contains("<use") && !plain.contains("<defs"));
    // Every placed glyph is defined once, and every definition is used.
    let ids = |marker: &str, s: &str| -> std::collections::BTreeSet<String> {
        s.split(marker)
            .skip(1)
            .map(|rest| rest[..rest.find('"').unwrap()].to_string())
            .collect()
    };
    let used = ids("xlink:href=\"#", &outlined);
    let defined = ids("id=\"", &outlined);
    assert!(used.len() > 20, "{used:?}");
    assert_eq!(used, defined);
    assert_eq!(
        outlined.matches(" id=\"hpg").count(),
        defined.len(),
        "each glyph defined once"
    );
    // The same strings as plain text, invisible over the glyphs.
    let texts = |s: &str| -> Vec<String> { svg_texts(s).into_iter().map(|t| t.text).collect() };
    assert_eq!(texts(&plain), texts(&outlined));
    assert!(
        texts(&plain)
            .iter()
            .any(|t| t == "(303)query/main/Main.CAF")
    );
    assert!(
        svg_texts(&outlined)
            .iter()
            .all(|t| t.get("fill") == Some("none")),
        "the text over the glyphs is invisible"
    );
}

#[test]
fn a_pdf_carries_only_the_glyphs_it_uses() {
    // The whole embedded font is 134 kB (64 kB deflated); a figure uses a few dozen
    // glyphs of it.
    let dir = Scratch::new("pdf-subset");
    let hp = fixtures().join("profiles/MapBuild-hc.hp");
    let pdf = hpgraph_ok(
        &dir.0,
        &[hp.to_str().unwrap(), "-o", "-", "--format", "pdf"],
    );
    assert!(pdf.starts_with(b"%PDF-"));
    assert!(pdf.len() < 30_000, "{} bytes", pdf.len());
    // A cut font's name carries a subset tag: six capitals and "+" (ISO 32000-1, 9.6.4).
    let text = String::from_utf8_lossy(&pdf);
    let at = text.find("+TeXGyreHeros-Regular").expect("the font's name");
    assert!(
        text[at - 7..at].starts_with('/')
            && text[at - 6..at].chars().all(|c| c.is_ascii_uppercase()),
        "{}",
        &text[at.saturating_sub(10)..at + 21]
    );
}

#[test]
fn a_key_below_the_graph_lists_every_band_under_the_x_axis() {
    let dir = Scratch::new("below");
    let hp = fixtures().join("profiles/MapBuild-hc.hp");
    let svg = hpgraph_ok(
        &dir.0,
        &[
            hp.to_str().unwrap(),
            "--style",
            "modern",
            "--key",
            "below",
            "--format",
            "svg",
            "-o",
            "-",
        ],
    );
    let svg = String::from_utf8(svg).unwrap();
    // (text, y) of every text element; SVG's y grows downwards.
    let texts: Vec<(String, f64)> = svg_texts(&svg)
        .into_iter()
        .map(|t| {
            (
                t.text.trim().to_string(),
                t.get("y").unwrap().parse().unwrap(),
            )
        })
        .collect();
    let axis = texts.iter().find(|(t, _)| t == "seconds").unwrap().1;
    let bands = hpgraph::input::hp::parse(&fs::read(&hp).unwrap())
        .unwrap()
        .profile;
    let titles = svg.matches("</path>").count();
    let below: Vec<_> = texts.iter().filter(|(_, y)| *y > axis).collect();
    assert!(below.len() >= 3, "{below:?}");
    assert!(
        below
            .iter()
            .any(|(t, _)| t == "OTHER" || bands.names.iter().any(|n| n.as_ref() == t.as_bytes()))
    );
    assert!(titles >= below.len(), "each listed band has its path");
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
