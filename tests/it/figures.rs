//! The figures' backends: every picture format (PostScript and EPS beyond hp2ps's
//! bytes, SVG, PDF, PNG) drawn from the same scene — sizes, text, colours, resolution,
//! the key's places and the shared scale of several figures. What each is compared
//! with: Ghostscript's widths and rendering (scripts/check-backends.sh), pdffonts,
//! the files' own numbers, or the same figure in another format.

use crate::common;

use std::fs;

use crate::common::{
    Scratch, fixtures, hpgraph, hpgraph_ok, profile, stderr, svg_texts, titled_fills,
};

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
        crate::common::assert_ok_as(&a, format_args!("{format}"));
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
        crate::common::assert_ok_as(&out, format_args!("{args:?}"));
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
    crate::common::assert_ok(&out);
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
fn the_modern_style_takes_a_modern_palette_unless_told() {
    let dir = Scratch::new("modern-palette");
    let profile = fixtures().join("profiles/ManyCC-hc.hp");
    let profile = profile.to_str().unwrap();
    let fills = |flags: &[&str]| -> Vec<String> {
        let svg = hpgraph_ok(
            &dir.0,
            &[&[profile, "--format", "svg", "-o", "-"][..], flags].concat(),
        );
        titled_fills(&String::from_utf8(svg).unwrap())
            .into_iter()
            .map(|(_, f)| f)
            .filter(|f| f != "#d9d9d9") // OTHER's grey
            .collect()
    };
    // Tableau's ten (https://www.tableau.com/blog/colors-upgrade-tableau-10-56782).
    let tableau = [
        "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
        "#9c755f", "#79706e",
    ];
    // Ten bands or fewer: the palette's own ten (past them, lighter and darker variants,
    // tests/it/colours.rs).
    for flags in [
        &["--style", "modern", "-m10"][..],
        &["--style", "modern", "-c", "-m10"],
    ] {
        let f = fills(flags);
        assert!(
            !f.is_empty() && f.iter().all(|c| tableau.contains(&c.as_str())),
            "{flags:?}: {f:?}"
        );
    }
    // hp2ps's colours, asked for by name, are hp2ps's pure ones.
    let f = fills(&["--style", "modern", "-c", "--palette", "hp2ps"]);
    assert!(
        f.iter()
            .any(|c| c == "#ff0000" || c == "#0000ff" || c == "#00ff00"),
        "{f:?}"
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
        crate::common::assert_ok(&out);
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
        // Stable means stable: every name the two share has one fill in both.
        for (name, fill) in &shared {
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
        crate::common::assert_ok_as(&out, format_args!("{args:?}"));
    };
    run(&["Leak-hc.hp", "MapBuild-hc.hp"]);
    let (a, b) = (
        ranges(&fs::read(dir.path("Leak-hc.aux")).unwrap()),
        ranges(&fs::read(dir.path("MapBuild-hc.aux")).unwrap()),
    );
    assert!(
        a.0 != b.0 && a.1 != b.1,
        "the two profiles differ in both their own ranges: {a:?} {b:?}"
    );
    run(&["--same-scale", "Leak-hc.hp", "MapBuild-hc.hp"]);
    let want = (a.0.max(b.0), a.1.max(b.1));
    for p in ["Leak-hc", "MapBuild-hc"] {
        assert_eq!(
            ranges(&fs::read(dir.path(&format!("{p}.aux"))).unwrap()),
            want,
            "{p}"
        );
    }
    // One axis shared, the other each picture's own; the axes follow the option with
    // `=` or as the next word.
    for (axes, x, y) in [
        (&["--same-scale=x"][..], true, false),
        (&["--same-scale", "y"], false, true),
    ] {
        let mut args = axes.to_vec();
        args.extend(["Leak-hc.hp", "MapBuild-hc.hp"]);
        run(&args);
        for (p, own) in [("Leak-hc", a), ("MapBuild-hc", b)] {
            let want = (
                if x { want.0 } else { own.0 },
                if y { want.1 } else { own.1 },
            );
            assert_eq!(
                ranges(&fs::read(dir.path(&format!("{p}.aux"))).unwrap()),
                want,
                "{p} {axes:?}"
            );
        }
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
        crate::common::assert_ok_as(&out, format_args!("{extra:?}"));
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
fn in_svg_each_band_is_a_path_titled_with_its_full_name() {
    let dir = Scratch::new("svg-titles");
    let log = fixtures().join("eventlog/Leak-hc.eventlog");
    let out = hpgraph(
        &dir.0,
        &[log.to_str().unwrap(), "--format", "svg", "-o", "-"],
        None,
    );
    crate::common::assert_ok(&out);
    let svg = String::from_utf8(out.stdout).unwrap();
    let bands = hpgraph::input::eventlog::parse(&std::fs::read(&log).unwrap())
        .unwrap()
        .profile;
    // The .hp cuts this stack at 25 characters; the eventlog has it whole.
    assert!(
        bands
            .series()
            .bands
            .names()
            .iter()
            .any(|n| n.as_ref() == b"mean.(...)/mean/main/Main.CAF")
    );
    for exact in [false, true] {
        let mut args = vec![log.to_str().unwrap(), "--format", "svg", "-o", "-"];
        if exact {
            args.push("--exact");
        }
        let svg = String::from_utf8(hpgraph(&dir.0, &args, None).stdout).unwrap();
        let titled: Vec<String> = common::titled_fills(&svg)
            .into_iter()
            .map(|(title, _)| title)
            .collect();
        assert!(
            titled.iter().any(|t| t == "mean.(...)/mean/main/Main.CAF"),
            "{titled:?}"
        );
        let mut unique = titled.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), titled.len(), "one path a band");
    }
    assert!(svg.contains("<title>Leak +RTS -hc -l -A16m -kc1m -i0.02</title>"));
}

#[test]
fn in_svg_a_markers_caret_carries_its_text() {
    let dir = Scratch::new("marker-titles");
    let log = fixtures().join("eventlog/Markers-hc.eventlog");
    let out = hpgraph(
        &dir.0,
        &[log.to_str().unwrap(), "--format", "svg", "-o", "-"],
        None,
    );
    crate::common::assert_ok(&out);
    let svg = String::from_utf8(out.stdout).unwrap();
    // The program's traceMarkerIO calls, in GHC's runtime's own eventlog.
    for text in [
        "start",
        "built 20000 Kätzchen",
        "weighed",
        "done (twice the work)",
    ] {
        assert!(svg.contains(&format!("<title>{text}</title>")), "{text}");
    }
    // -y draws no carets, so no marker titles either.
    let out = hpgraph(
        &dir.0,
        &[log.to_str().unwrap(), "-y", "--format", "svg", "-o", "-"],
        None,
    );
    assert!(
        !String::from_utf8(out.stdout)
            .unwrap()
            .contains("<title>weighed</title>")
    );
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
    // The room left of the y axis for its labels grows with them, in proportion to the
    // font size: the labels are the same text, only larger.
    let plot_x = |html: &str| -> f64 {
        let at = html.find("\"plot\":{").unwrap();
        let x = &html[at..];
        let x = &x[x.find("\"x\":").unwrap() + 4..];
        x[..x.find(',').unwrap()].parse().unwrap()
    };
    let (at10, at16) = (
        plot_x(&run(&["--format", "html"])),
        plot_x(&run(&["--format", "html", "--font-size", "16"])),
    );
    assert!(at10 > 0.0);
    assert!(
        (at16 / at10 - 1.6).abs() < 1e-9,
        "{at10} pt at 10 pt, {at16} pt at 16 pt"
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
        crate::common::assert_ok(&out);
        String::from_utf8(out.stdout).unwrap()
    };
    // The x tick labels: the texts on the x axis's label's line (hp2ps's `seconds`
    // legend, or the modern style's labels, which say `s` themselves), but that legend.
    let ticks = |svg: &str| -> Vec<String> {
        let texts = svg_texts(svg);
        let axis = texts
            .iter()
            .find(|t| t.text == "seconds" || t.text.ends_with(" s"))
            .unwrap();
        texts
            .iter()
            .filter(|t| t.get("y") == axis.get("y") && t.text != "seconds")
            .map(|t| t.text.trim().trim_end_matches(" s").to_string())
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
        let mut args = vec![hp.to_str().unwrap(), "--style=hp2ps", "--format=svg"];
        args.extend(["-o", "-"]);
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
    // The x axis's labels' line: hp2ps's `seconds`, or the modern labels (`0.05 s`).
    let axis = texts
        .iter()
        .find(|(t, _)| t == "seconds" || t.ends_with(" s"))
        .unwrap()
        .1;
    let bands = hpgraph::input::hp::parse(&fs::read(&hp).unwrap())
        .unwrap()
        .profile;
    let titles = svg.matches("</path>").count();
    let below: Vec<_> = texts.iter().filter(|(_, y)| *y > axis).collect();
    assert!(below.len() >= 3, "{below:?}");
    // A key label is a band's name, GHC's `(N)` stack number left out.
    assert!(below.iter().any(|(t, _)| {
        t == "OTHER"
            || bands.bands.names().iter().any(|n| {
                let n = String::from_utf8_lossy(n);
                let plain = n
                    .split_once(')')
                    .filter(|_| n.starts_with('('))
                    .map_or(&n[..], |p| p.1);
                plain == t.as_str()
            })
    }));
    assert!(titles >= below.len(), "each listed band has its path");
}

#[test]
fn a_paper_figure_has_no_title_and_no_date_when_the_title_is_empty() {
    let dir = Scratch::new("untitled");
    let hp = fixtures().join("profiles/MapBuild-hT.hp");
    let svg = |extra: &[&str]| {
        let mut args = vec![
            hp.to_str().unwrap(),
            "--style",
            "modern",
            "--format",
            "svg",
            "-o",
            "-",
        ];
        args.extend(extra);
        String::from_utf8(hpgraph_ok(&dir.0, &args)).unwrap()
    };
    // The date the profile holds, as the figure would print it.
    let date = "Sun Nov 22 15:11 2026";
    let titled = svg(&[]);
    let untitled = svg(&["--title", ""]);
    let texts = |s: &str| -> Vec<String> { svg_texts(s).into_iter().map(|t| t.text).collect() };
    assert!(
        texts(&titled).iter().any(|t| t == date),
        "{:?}",
        texts(&titled)
    );
    assert!(
        !texts(&untitled)
            .iter()
            .any(|t| t == date || t.starts_with("MapBuild")),
        "{:?}",
        texts(&untitled)
    );
    // The graph takes the room: its highest y label stands higher on the page.
    let top = |s: &str| {
        svg_texts(s)
            .iter()
            .filter(|t| t.text.ends_with(" MB"))
            .map(|t| {
                let a = &t.attributes;
                let y = &a[a.find(" y=\"").unwrap() + 4..];
                y[..y.find('"').unwrap()].parse::<f64>().unwrap()
            })
            .fold(f64::INFINITY, f64::min)
    };
    assert!(
        top(&untitled) < top(&titled),
        "{} {}",
        top(&untitled),
        top(&titled)
    );
}

/// The `ORDER` names of an `.aux` file, bottom band first.
fn aux_order(aux: &str) -> Vec<String> {
    aux.lines()
        .filter_map(|l| l.strip_prefix("ORDER "))
        .map(|l| l[..l.rfind(' ').unwrap()].to_string())
        .collect()
}

#[test]
fn reverse_stacks_hp2ps_order_the_other_way_up_after_every_order_and_limit() {
    let dir = Scratch::new("reverse");
    fs::write(dir.path("p.hp"), profile("ManyCC-hc")).unwrap();
    // hp2ps's own orders (its .aux files): by size, by deviation, with -m5's OTHER.
    for (tag, flags) in [("default", &[][..]), ("d", &["-d"]), ("m5", &["-m5"])] {
        let theirs =
            fs::read_to_string(fixtures().join(format!("golden/ManyCC-hc/{tag}.aux"))).unwrap();
        let mut want = aux_order(&theirs);
        assert!(want.len() > 2, "{tag}: {want:?}");
        want.reverse();
        let mut args = flags.to_vec();
        args.extend(["--reverse", "p.hp"]);
        hpgraph_ok(&dir.0, &args);
        let ours = fs::read_to_string(dir.path("p.aux")).unwrap();
        assert_eq!(aux_order(&ours), want, "{tag}: the .aux's order");
        // The picture stacks them so: SVG draws the bottom band first.
        args.extend(["-o", "-", "--format", "svg"]);
        let svg = String::from_utf8(hpgraph_ok(&dir.0, &args)).unwrap();
        let drawn: Vec<String> = titled_fills(&svg).into_iter().map(|(t, _)| t).collect();
        let full: Vec<String> = want
            .iter()
            .map(|n| {
                // hp2ps cuts long names in its .aux: the title holds the whole name.
                let stem = n.trim_end_matches("...");
                drawn
                    .iter()
                    .find(|d| d.starts_with(stem))
                    .cloned()
                    .unwrap_or_default()
            })
            .collect();
        assert_eq!(drawn, full, "{tag}: the SVG's bands, bottom first");
    }
    let out = hpgraph(&dir.0, &["-p", "--reverse", "p.hp"], None);
    assert_eq!(out.status.code(), Some(2), "-p keeps the .aux's order");
}

/// The fills of an SVG's filled paths, the page's white background left out, in order.
fn fills(svg: &str) -> Vec<String> {
    svg.split("<path ")
        .skip(1)
        .filter_map(|p| {
            let tag = &p[..p.find('>')?];
            let fill = &tag[tag.find(" fill=\"")? + 7..];
            Some(fill[..fill.find('"')?].to_string())
        })
        .filter(|f| f != "white" && f != "none")
        .collect()
}

#[test]
fn key_file_is_the_graphs_key_as_a_picture_of_its_own() {
    let dir = Scratch::new("keyfile");
    fs::write(dir.path("p.hp"), profile("ManyCC-hc")).unwrap();
    for style in ["hp2ps", "modern"] {
        hpgraph_ok(
            &dir.0,
            &[
                "--style", style, "-c", "--key", "file", "p.hp", "-o", "fig.svg",
            ],
        );
        let graph = fs::read_to_string(dir.path("fig.svg")).unwrap();
        let key = fs::read_to_string(dir.path("fig-key.svg")).unwrap();
        // The graph's bands, bottom first, as it drew them.
        let bands = titled_fills(&graph);
        assert!(bands.len() > 10, "{style}: {}", bands.len());
        let texts = svg_texts(&key);
        // The top band's name on top, as in the graph: SVG's y grows downwards.
        let ys: Vec<f64> = texts
            .iter()
            .map(|t| t.get("y").unwrap().parse().unwrap())
            .collect();
        assert!(ys.windows(2).all(|w| w[1] < w[0]), "{style}: {ys:?}");
        let texts: Vec<String> = texts.into_iter().map(|t| t.text).collect();
        assert_eq!(texts.len(), bands.len(), "{style}: a name for each band");
        for ((title, fill), (name, swatch)) in bands.iter().zip(texts.iter().zip(fills(&key))) {
            // Each band's name in its colour; the modern key leaves out GHC's `(N)`.
            let unnumbered = title.trim_start_matches(|c: char| c == '(' || c.is_ascii_digit());
            let unnumbered = unnumbered.strip_prefix(')').unwrap_or(title);
            assert!(
                name == title || name == unnumbered,
                "{style}: {name} for {title}"
            );
            assert_eq!(&swatch, fill, "{style}: {name}'s swatch");
        }
        // The graph has no key of its own: no band's name is written in it.
        for t in svg_texts(&graph) {
            assert!(!texts.contains(&t.text), "{style}: {} in the graph", t.text);
        }
        // Every name ends inside the key's picture (its glyphs' x, a glyph's width on).
        let width: f64 = key
            .split(" viewBox=\"0 0 ")
            .nth(1)
            .and_then(|v| v.split(' ').next())
            .unwrap()
            .parse()
            .unwrap();
        let last_x = key
            .split("<tspan x=\"")
            .skip(1)
            .map(|t| t[..t.find('"').unwrap()].parse::<f64>().unwrap())
            .fold(0.0, f64::max);
        assert!(last_x + 5.0 <= width, "{style}: {last_x} in {width}");
    }
    for (args, why) in [
        (
            &["--key", "file", "p.hp", "-o", "-"][..],
            "beside the picture's file",
        ),
        (
            &["--key", "file", "p.hp", "-o", "p.html"],
            "a page has its own key",
        ),
        (&["--key", "file", "p.hp", "-o", "p.csv"], "not the numbers"),
    ] {
        let out = hpgraph(&dir.0, args, None);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(why), "{args:?}: {}", stderr(&out));
    }
}
