//! `--flame`: a census as a flame graph. The reference is GHC's own `.hp` of the same
//! run: each census's lines, added up here without hpgraph's reader, must be what the
//! flame graph's frames hold — from the eventlog (full stacks) and from the `.hp`
//! (names split at `/`), for programs built by GHC 9.0.2, 9.6 and 9.10.

use crate::common;

use std::path::{Path, PathBuf};

use crate::common::{Scratch, fixtures, hpgraph, hpgraph_ok};
use hpgraph::select::flame::{WhichCensus, flame, unnumbered};

/// Every `-hc` run of every GHC the fixtures hold: `(eventlog, its .hp)`.
fn hc_runs() -> Vec<(PathBuf, PathBuf)> {
    let mut runs = Vec::new();
    for dir in ["eventlog", "eventlog-9.6", "eventlog-9.10"] {
        for entry in std::fs::read_dir(fixtures().join(dir)).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if let Some(stem) = name.strip_suffix("-hc.hp") {
                runs.push((path.with_file_name(format!("{stem}-hc.eventlog")), path));
            }
        }
    }
    runs.sort();
    assert!(runs.len() >= 12, "{runs:?}");
    runs
}

/// The censuses of a `.hp` file as GHC wrote them: each one's `(name, value)` lines.
fn censuses(hp: &Path) -> Vec<Vec<(String, f64)>> {
    (common::hp::censuses(hp).into_iter())
        .map(|c| c.lines)
        .collect()
}

fn profile_of(path: &Path) -> hpgraph::profile::Profile {
    let file = std::fs::File::open(path).unwrap();
    hpgraph::input::read_file(&file, hpgraph::input::Options::default())
        .unwrap()
        .profile
        .into_series()
}

#[test]
fn the_frames_own_bytes_add_up_to_ghcs_census() {
    for (eventlog, hp) in hc_runs() {
        let all = censuses(&hp);
        for input in [&eventlog, &hp] {
            let profile = profile_of(input);
            // The eventlog holds the censuses the .hp does (GHC writes both at once), but
            // for the empty ones a .hp can open with at 0 and close with at exit.
            let ghc = if profile.samples() + 2 == all.len() {
                assert!(all[0].is_empty() && all[all.len() - 1].is_empty());
                &all[1..all.len() - 1]
            } else {
                &all[..]
            };
            let totals: Vec<f64> = ghc.iter().map(|c| c.iter().map(|l| l.1).sum()).collect();
            assert_eq!(profile.samples(), ghc.len(), "{}", input.display());
            if totals.iter().all(|&t| t == 0.0) {
                continue;
            }
            for when in [
                WhichCensus::Peak,
                WhichCensus::End,
                WhichCensus::At(profile.times[1]),
            ] {
                let f = flame(&profile, when);
                let want = totals[f.census.sample.unwrap()];
                let own: f64 = f.frames.iter().map(|x| x.own).sum();
                assert_eq!(own, want, "{} {when:?}", input.display());
                assert_eq!(f.frames[0].bytes, want, "{}", input.display());
                // Every frame holds its callees and its own.
                let mut under = vec![0.0; f.frames.len()];
                for x in &f.frames[1..] {
                    under[x.parent.unwrap()] += x.bytes;
                }
                for (x, u) in f.frames.iter().zip(&under) {
                    assert_eq!(x.bytes, x.own + u, "{}", input.display());
                }
            }
            // The peak is GHC's largest census.
            let peak = flame(&profile, WhichCensus::Peak);
            let most = totals.iter().cloned().fold(f64::MIN, f64::max);
            assert_eq!(peak.census.total, most, "{}", input.display());
        }
        // From the eventlog every stack of the census is a path of frames, named as the
        // .hp names it (GHC cuts the .hp's names at -L; those must begin the path).
        let profile = profile_of(&eventlog);
        let f = flame(&profile, WhichCensus::Peak);
        let skip = (all.len() - profile.samples()) / 2;
        let stacks: Vec<Vec<u8>> = (1..f.frames.len())
            .filter(|&k| f.frames[k].own > 0.0)
            .map(|k| f.stack(k))
            .collect();
        for (name, value) in &all[f.census.sample.unwrap() + skip] {
            if *value == 0.0 {
                continue;
            }
            let name = unnumbered(name.as_bytes());
            let found = match name.strip_suffix(b"...") {
                Some(stem) => stacks.iter().any(|s| s.starts_with(stem)),
                None => stacks.iter().any(|s| s == name),
            };
            assert!(
                found,
                "{}: {} not among the frames",
                eventlog.display(),
                String::from_utf8_lossy(name)
            );
        }
    }
}

/// The total in the root box's title: `all: 1.2 MB (1,234,567 bytes, 100.0%)`.
fn root_bytes(svg: &str) -> f64 {
    let start = svg.find("<title>all: ").expect("a root frame");
    let rest = &svg[start..];
    let open = rest.find('(').unwrap();
    let close = rest[open..].find(" bytes").unwrap();
    rest[open + 1..open + close]
        .replace(',', "")
        .parse()
        .unwrap()
}

/// The SVG's boxes: `(left, right, bottom, top, exact value from the title)`.
fn boxes(svg: &str) -> Vec<(f64, f64, f64, f64, f64)> {
    svg.split("<path d=\"M")
        .skip(1)
        .filter_map(|p| {
            let d = &p[..p.find('"')?];
            let title = &p[p.find("<title>")? + 7..p.find("</title>")?];
            let nums: Vec<f64> = d
                .split([',', ' ', 'L', 'z'])
                .filter(|t| !t.is_empty())
                .map(|t| t.parse().unwrap())
                .collect();
            let open = title.rfind(" (")?;
            let bytes = title[open + 2..].split(" bytes").next()?.replace(',', "");
            let (xs, ys) = ([nums[0], nums[2]], [nums[1], nums[5]]);
            Some((
                xs[0],
                xs[1],
                ys[0].max(ys[1]),
                ys[0].min(ys[1]),
                bytes.parse().ok()?,
            ))
        })
        .collect()
}

#[test]
fn the_boxes_with_nothing_on_them_hold_ghcs_census() {
    // What a reader of the figure adds up: the boxes that nothing stands on.
    let dir = Scratch::new("flame-leaves");
    for (eventlog, hp) in hc_runs() {
        let all = censuses(&hp);
        let totals: Vec<f64> = all.iter().map(|c| c.iter().map(|l| l.1).sum()).collect();
        let peak = totals.iter().cloned().fold(f64::MIN, f64::max);
        if peak == 0.0 {
            continue;
        }
        for input in [&eventlog, &hp] {
            let svg = String::from_utf8(hpgraph_ok(
                &dir.0,
                &["--flame", input.to_str().unwrap(), "-o-", "--format", "svg"],
            ))
            .unwrap();
            let b = boxes(&svg);
            let on = |x: &(f64, f64, f64, f64, f64)| {
                b.iter()
                    .any(|o| (o.2 - x.3).abs() < 1e-3 && o.0.max(x.0) < o.1.min(x.1) - 1e-6)
            };
            let leaves: f64 = b.iter().filter(|x| !on(x)).map(|x| x.4).sum();
            assert_eq!(leaves, peak, "{}", input.display());
        }
    }
}

#[test]
fn every_picture_format_draws_the_census() {
    let dir = Scratch::new("flame-formats");
    let eventlog = fixtures().join("eventlog-9.10/ManyCC-hc.eventlog");
    let hp = eventlog.with_extension("hp");
    let totals: Vec<f64> = censuses(&hp)
        .iter()
        .map(|c| c.iter().map(|l| l.1).sum())
        .collect();
    let peak = totals.iter().cloned().fold(f64::MIN, f64::max);
    let input = eventlog.to_str().unwrap();
    for (ext, magic) in [
        ("svg", &b"<svg"[..]),
        ("pdf", b"%PDF"),
        ("png", b"\x89PNG"),
        ("ps", b"%!PS"),
        ("eps", b"%!PS-Adobe-2.0 EPSF"),
    ] {
        let out = dir.path(&format!("f.{ext}"));
        hpgraph_ok(&dir.0, &["--flame", input, "-o", out.to_str().unwrap()]);
        let bytes = std::fs::read(&out).unwrap();
        assert!(
            bytes.windows(magic.len()).take(200).any(|w| w == magic),
            "{ext}"
        );
    }
    let svg = std::fs::read_to_string(dir.path("f.svg")).unwrap();
    assert_eq!(root_bytes(&svg), peak);
    // The default name keeps the graph's name free; no .aux beside it.
    hpgraph_ok(&dir.0, &["--flame=end", input]);
    assert!(dir.path("ManyCC-hc.flame.ps").exists());
    assert!(!dir.path("ManyCC-hc.aux").exists());
    assert!(!dir.path("ManyCC-hc.flame.aux").exists());
    let svg = String::from_utf8(hpgraph_ok(
        &dir.0,
        &["--flame=end", input, "-o-", "--format", "svg"],
    ))
    .unwrap();
    let last = totals.iter().rev().find(|&&t| t > 0.0).unwrap();
    assert_eq!(root_bytes(&svg), *last);
}

#[test]
fn from_and_to_pick_the_peak_within_the_window() {
    let dir = Scratch::new("flame-window");
    let hp = "BEGIN_SAMPLE 0\nmain\t10\nEND_SAMPLE 0\nBEGIN_SAMPLE 1\nmain\t500\nEND_SAMPLE 1\n\
              BEGIN_SAMPLE 2\nf/main\t30\nmain\t10\nEND_SAMPLE 2\nBEGIN_SAMPLE 3\nmain\t20\nEND_SAMPLE 3\n";
    let text =
        format!("JOB \"w\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n{hp}");
    std::fs::write(dir.path("w.hp"), text).unwrap();
    let svg = |extra: &[&str]| {
        let mut args = vec!["w.hp", "-o-", "--format", "svg"];
        args.extend_from_slice(extra);
        String::from_utf8(hpgraph_ok(&dir.0, &args)).unwrap()
    };
    assert_eq!(root_bytes(&svg(&["--flame"])), 500.0);
    assert_eq!(root_bytes(&svg(&["--flame", "--from", "1.5"])), 40.0);
    assert_eq!(root_bytes(&svg(&["--flame=3"])), 20.0);
    assert_eq!(root_bytes(&svg(&["--flame=2.4s"])), 40.0);
    let window = svg(&["--flame", "--from", "1.5", "--to", "2.5"]);
    assert!(
        window.contains("<title>f/main: 30 B (30 bytes, 75.0%)</title>"),
        "{window}"
    );
}

#[test]
fn a_flame_graph_is_a_picture_of_one_run() {
    let dir = Scratch::new("flame-usage");
    let hp = fixtures().join("eventlog/Leak-hc.hp");
    let hp = hp.to_str().unwrap();
    for args in [
        vec!["--flame", "--summary", hp],
        vec!["--flame", hp, "-o", "x.csv"],
        vec!["--flame", "--compare", hp, hp, "-o", "x.hp"],
        vec!["--flame", "--inverted", hp, "-o", "x.pb.gz"],
        vec!["--flame=soon", hp],
    ] {
        let out = hpgraph(&dir.0, &args, None);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
    // --inverted alone turns a report's flame graph over (its picture without --flame);
    // a heap profile's picture is its graph over time: said once it is read, nothing
    // written.
    let out = hpgraph(&dir.0, &["--inverted", hp, "-o", "x.svg"], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("use it with --flame"));
    assert!(!dir.path("x.svg").exists());
    let report = fixtures().join("prof/ghc-9.6.6/MapFib-P.prof");
    let out = hpgraph(
        &dir.0,
        &["--inverted", report.to_str().unwrap(), "-o", "r.svg"],
        None,
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let svg = std::fs::read_to_string(dir.path("r.svg")).unwrap();
    // Inverted, the outermost frames are the cost centres that spend: the root's
    // children are GHC's leaves (Main.step), not MAIN.
    let first = svg.find("<title>Main.step").expect("Main.step's frame");
    assert!(
        !svg.contains("<title>MAIN.MAIN:") || svg.find("<title>MAIN.MAIN").unwrap() > first,
        "inverted"
    );
}

#[test]
fn ten_thousand_stacks_make_a_figure_of_the_figures_size() {
    // Many narrow callees are drawn as one box each caller: the SVG's size follows
    // what can be seen, not the number of stacks.
    let dir = Scratch::new("flame-many");
    let mut hp = String::from(
        "JOB \"many\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\nBEGIN_SAMPLE 0\n",
    );
    for i in 0..10_000 {
        hp.push_str(&format!("leaf{i}/mid{}/main\t{}\n", i % 10, 100 + i));
    }
    hp.push_str("END_SAMPLE 0\n");
    std::fs::write(dir.path("many.hp"), hp).unwrap();
    let svg = hpgraph_ok(&dir.0, &["--flame", "many.hp", "-o-", "--format", "svg"]);
    assert!(svg.len() < 400_000, "{} bytes", svg.len());
    let svg = String::from_utf8(svg).unwrap();
    let total: f64 = (0..10_000).map(|i| f64::from(100 + i)).sum();
    assert_eq!(root_bytes(&svg), total);
    assert_eq!(svg.matches("parts of mid").count(), 10);
}

#[test]
fn rows_past_the_top_are_left_out_and_said_so() {
    // 500 levels, each branching (a leaf beside the next level), cannot be named in a
    // figure even grown to MAX_GROWTH times its height: the deepest are not drawn, and
    // the caption says how many. A chain of one callee each folds into one row instead.
    let dir = Scratch::new("flame-deep");
    let mut hp = String::from(
        "JOB \"deep\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n\
         BEGIN_SAMPLE 0\n",
    );
    for i in 0..500 {
        let path: Vec<String> = (0..i).rev().map(|j| format!("/f{j}")).collect();
        hp.push_str(&format!("leaf{i}{}\t64\n", path.concat()));
    }
    hp.push_str("END_SAMPLE 0\n");
    std::fs::write(dir.path("deep.hp"), hp).unwrap();
    let svg = String::from_utf8(hpgraph_ok(
        &dir.0,
        &["--flame", "deep.hp", "-o-", "--format", "svg"],
    ))
    .unwrap();
    let height: f64 = svg
        .split("height=\"")
        .nth(1)
        .unwrap()
        .split("pt")
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        height <= 432.0 * hpgraph::layout::flame::MAX_GROWTH + 0.5,
        "{height}"
    );
    let texts = common::svg_texts(&svg);
    // The deepest level drawn, read from the frames' labels (f0 is level 2).
    let deepest = (texts.iter())
        .filter_map(|t| t.text.strip_prefix('f')?.parse::<usize>().ok())
        .max()
        .unwrap();
    // all, then f0 … f498 (f{i} at level i + 1); leaf499, f498's one callee, is in
    // its row (a chain of one callee, folded).
    let levels = 500;
    let hidden = levels - (deepest + 2);
    assert!(hidden > 300, "{hidden} hidden");
    assert!(
        (texts.iter()).any(|t| t.text
            == format!("{hidden} deeper levels are not drawn: --size with more height shows more")),
        "{hidden}: {:?}",
        texts.iter().map(|t| &t.text).collect::<Vec<_>>()
    );
    // One stack 500 deep is one chain: one row, named by its ends.
    let chain: Vec<String> = (0..500).rev().map(|j| format!("f{j}")).collect();
    std::fs::write(
        dir.path("chain.hp"),
        format!(
            "JOB \"c\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n\
             BEGIN_SAMPLE 0\n{}\t64\nEND_SAMPLE 0\n",
            chain.join("/")
        ),
    )
    .unwrap();
    let svg = hpgraph_ok(&dir.0, &["--flame", "chain.hp", "-o-", "--format", "svg"]);
    let texts = common::svg_texts(&String::from_utf8(svg).unwrap());
    assert!(
        texts.iter().any(|t| t.text == "all ... f499"),
        "{:?}",
        texts.iter().map(|t| &t.text).collect::<Vec<_>>()
    );
    assert!(!texts.iter().any(|t| t.text.contains("deeper levels")));
    // Two runs of it compared: the chain held nothing of its own in either, one row.
    let text = std::fs::read_to_string(dir.path("chain.hp")).unwrap();
    std::fs::write(dir.path("chain2.hp"), text.replace("\t64\n", "\t128\n")).unwrap();
    let args = [
        "--compare",
        "chain.hp",
        "chain2.hp",
        "--flame",
        "-o-",
        "--format",
        "svg",
    ];
    let svg = hpgraph_ok(&dir.0, &args);
    let texts = common::svg_texts(&String::from_utf8(svg).unwrap());
    assert!(texts.iter().any(|t| t.text == "all ... f499"));
}

/// A `.hp`'s censuses with their times, names without GHC's `(N)`: read from GHC's
/// text, not by hpgraph's reader.
fn timed(hp: &Path) -> Vec<(f64, Vec<(String, f64)>)> {
    (common::hp::censuses(hp).into_iter())
        .map(|c| {
            let lines = (c.lines.into_iter())
                .map(|(n, v)| (common::hp::unnumbered(&n).to_string(), v))
                .collect();
            (c.time, lines)
        })
        .collect()
}

/// The stacks with each one GHC cut at `-L` placed as docs/inspect.md says the flame
/// graph places it: a cut name `b/a/Ma...` has lost the callers past `Ma`; the whole
/// names' frames (outermost first) whose label begins with `Ma` — preferring those
/// that call `a` — must all stand on one path (`Main.CAF`), which then takes the cut
/// label's place: `b/a/Main.CAF`. With no such path, or more than 64 such frames, the
/// name stands as GHC wrote it. The whole names are `all`, every band of the run.
fn placed(names: Vec<(String, f64)>, all: &[String]) -> Vec<(String, f64)> {
    let frames = |n: &str| -> Vec<String> { n.split('/').rev().map(String::from).collect() };
    let whole: Vec<Vec<String>> = all
        .iter()
        .filter(|n| !n.ends_with("..."))
        .map(|n| frames(n))
        .collect();
    names
        .into_iter()
        .map(|(name, v)| {
            let Some(stem) = name
                .strip_suffix("...")
                .map(|s| s.rsplit('/').next().unwrap())
            else {
                return (name, v);
            };
            let cut = frames(&name);
            if stem.is_empty() {
                return (name, v);
            }
            let mut found = Vec::new();
            for w in &whole {
                for (d, label) in w.iter().enumerate() {
                    if label.starts_with(stem) {
                        found.push((w[..=d].to_vec(), w.get(d + 1) == cut.get(1)));
                    }
                }
            }
            if found.is_empty() || found.len() > 64 {
                return (name, v);
            }
            let one = |paths: Vec<&Vec<String>>| {
                let first = paths.first()?;
                paths.iter().all(|p| p == first).then(|| (*first).clone())
            };
            let calling = if cut.len() > 1 {
                one(found.iter().filter(|f| f.1).map(|f| &f.0).collect())
            } else {
                None
            };
            match calling.or_else(|| one(found.iter().map(|f| &f.0).collect())) {
                Some(mut path) => {
                    path.extend(cut[1..].iter().cloned());
                    path.reverse();
                    (path.join("/"), v)
                }
                None => (name, v),
            }
        })
        .collect()
}

/// Every band name of a run, once, in first-appearance order.
fn all_names(cs: &[(f64, Vec<(String, f64)>)]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (n, _) in cs.iter().flat_map(|c| &c.1) {
        if !out.contains(n) {
            out.push(n.clone());
        }
    }
    out
}

/// The census `peak` picks: the first of the highest totals.
fn peak_of(cs: &[(f64, Vec<(String, f64)>)]) -> &[(String, f64)] {
    let total = |c: &(f64, Vec<(String, f64)>)| c.1.iter().map(|x| x.1).sum::<f64>();
    &cs.iter()
        .fold(
            &cs[0],
            |best, c| if total(c) > total(best) { c } else { best },
        )
        .1
}

/// What the stacks named `names` hold under the frame whose stack (innermost first) is
/// `s`: the stacks that end in `s` outermost-first, i.e. whose name ends in it.
fn under(names: &[(String, f64)], s: &str) -> f64 {
    names
        .iter()
        .filter(|(n, _)| n == s || n.ends_with(&format!("/{s}")))
        .map(|x| x.1)
        .sum()
}

/// Likewise for an inverted graph: the stacks whose name starts with `s`.
fn over(names: &[(String, f64)], s: &str) -> f64 {
    names
        .iter()
        .filter(|(n, _)| n == s || n.starts_with(&format!("{s}/")))
        .map(|x| x.1)
        .sum()
}

/// The frames' titles of a flame graph's SVG, XML entities read, the job's title and
/// grouped narrow boxes left out: `(stack, notes, figures)`.
fn frame_titles(svg: &str) -> Vec<(String, String, String)> {
    svg.split("<title>")
        .skip(1)
        .map(|t| crate::common::xml_text(&t[..t.find("</title>").unwrap()]))
        .filter(|t| t.contains(": ") && !t.contains(" parts of "))
        .map(|t| {
            let (head, figures) = t.rsplit_once(": ").unwrap();
            let (stack, notes) = match head.find(" (") {
                Some(i) if !head[..i].is_empty() => (&head[..i], &head[i..]),
                _ => (head, ""),
            };
            (stack.to_string(), notes.to_string(), figures.to_string())
        })
        .collect()
}

/// The exact figure in `1.2 MB (1,234.5 bytes, 3.4%)`.
fn exact_bytes(figures: &str) -> f64 {
    let open = figures.rfind(" (").unwrap();
    figures[open + 2..]
        .split(" bytes")
        .next()
        .unwrap()
        .replace(',', "")
        .parse()
        .unwrap()
}

#[test]
fn the_mean_is_each_stacks_trapezoids_over_ghcs_censuses() {
    let dir = Scratch::new("flame-mean");
    let mut checked = 0;
    for (_, hp) in hc_runs() {
        let cs = timed(&hp);
        let span = cs[cs.len() - 1].0 - cs[0].0;
        // Each stack's mean: trapezoids between GHC's censuses over the run's time.
        let mut mean: Vec<(String, f64)> = Vec::new();
        for pair in cs.windows(2) {
            let dt = pair[1].0 - pair[0].0;
            for (name, v) in pair.iter().flat_map(|c| &c.1) {
                match mean.iter_mut().find(|(n, _)| n == name) {
                    Some(m) => m.1 += v * dt / 2.0 / span,
                    None => mean.push((name.clone(), v * dt / 2.0 / span)),
                }
            }
        }
        let total: f64 = mean.iter().map(|m| m.1).sum();
        let mean = placed(
            mean.into_iter().filter(|m| m.1 != 0.0).collect(),
            &all_names(&cs),
        );
        hpgraph_ok(
            &dir.0,
            &["--flame=mean", hp.to_str().unwrap(), "-o", "mean.svg"],
        );
        let svg = std::fs::read_to_string(dir.path("mean.svg")).unwrap();
        for (stack, notes, figures) in frame_titles(&svg) {
            let got = exact_bytes(&figures);
            let want = if stack == "all" {
                total
            } else if notes.starts_with(" (its own)") {
                mean.iter().filter(|m| m.0 == stack).map(|m| m.1).sum()
            } else {
                under(&mean, &stack)
            };
            assert!(
                (got - want).abs() <= 1e-6 * total.max(1.0),
                "{}: {stack}{notes}: {got} vs {want}",
                hp.display()
            );
            checked += 1;
        }
    }
    assert!(checked > 100, "{checked}");
}

#[test]
fn an_inverted_graph_stands_each_stack_on_what_holds_its_bytes() {
    let dir = Scratch::new("flame-inverted");
    let mut roots = 0;
    for (_, hp) in hc_runs() {
        let cs = timed(&hp);
        let census = placed(peak_of(&cs).to_vec(), &all_names(&cs));
        hpgraph_ok(
            &dir.0,
            &[
                "--flame",
                "--inverted",
                hp.to_str().unwrap(),
                "-o",
                "inv.svg",
            ],
        );
        let svg = std::fs::read_to_string(dir.path("inv.svg")).unwrap();
        for (stack, notes, figures) in frame_titles(&svg) {
            if stack == "all" || notes.starts_with(" (its own)") {
                continue;
            }
            // A bottom frame is as wide as every stack whose innermost frame it is.
            let want = over(&census, &stack);
            assert_eq!(exact_bytes(&figures), want, "{}: {stack}", hp.display());
            roots += usize::from(!stack.contains('/'));
        }
    }
    assert!(roots > 20, "{roots}");
}

#[test]
fn the_differential_graph_gives_each_frames_bytes_before_and_after() {
    let dir = Scratch::new("flame-diff");
    let runs = hc_runs();
    let (mut checked, mut gone) = (0, 0);
    // The same program under two GHCs, and two programs (frames only before).
    let pairs: Vec<(&Path, &Path)> = runs
        .iter()
        .zip(runs.iter().skip(1))
        .map(|(a, b)| (a.1.as_path(), b.1.as_path()))
        .collect();
    for (a, b) in pairs {
        let (ca, cb) = (timed(a), timed(b));
        // As --compare matches names: a whole name one run has and the other has cut at
        // -L (`GHC.IO.Handl...`) goes by the cut name, in every band of the run.
        let rename = |cut_side: &[String], whole_side: &[String]| -> Vec<(String, String)> {
            whole_side
                .iter()
                .filter(|n| !n.ends_with("...") && !cut_side.contains(n))
                .filter_map(|n| {
                    let c = cut_side.iter().find(|c| {
                        c.strip_suffix("...")
                            .is_some_and(|stem| !stem.is_empty() && n.starts_with(stem))
                    })?;
                    Some((n.clone(), c.clone()))
                })
                .collect()
        };
        let (all_a, all_b) = (all_names(&ca), all_names(&cb));
        let (to_a, to_b) = (rename(&all_b, &all_a), rename(&all_a, &all_b));
        let named = |names: &[(String, f64)], to: &[(String, String)]| -> Vec<(String, f64)> {
            let mut out: Vec<(String, f64)> = Vec::new();
            for (n, v) in names {
                let n = to
                    .iter()
                    .find(|(f, _)| f == n)
                    .map_or(n.clone(), |(_, t)| t.clone());
                match out.iter_mut().find(|(m, _)| *m == n) {
                    Some(e) => e.1 += v,
                    None => out.push((n, *v)),
                }
            }
            out
        };
        let rename_all = |all: &[String], to: &[(String, String)]| -> Vec<String> {
            let mut out: Vec<String> = Vec::new();
            for n in all {
                let n = to
                    .iter()
                    .find(|(f, _)| f == n)
                    .map_or(n.clone(), |(_, t)| t.clone());
                if !out.contains(&n) {
                    out.push(n);
                }
            }
            out
        };
        let before = placed(named(peak_of(&ca), &to_a), &rename_all(&all_a, &to_a));
        let after = placed(named(peak_of(&cb), &to_b), &rename_all(&all_b, &to_b));
        hpgraph_ok(
            &dir.0,
            &[
                "--compare",
                a.to_str().unwrap(),
                b.to_str().unwrap(),
                "--flame",
                "-o",
                "diff.svg",
            ],
        );
        let svg = std::fs::read_to_string(dir.path("diff.svg")).unwrap();
        for (stack, notes, figures) in frame_titles(&svg) {
            // "1,234 bytes before, 5,678 bytes after (+12.3%)": before first.
            let (was, rest) = figures.split_once(" bytes before, ").expect(&figures);
            let now = rest.split(" bytes after").next().unwrap();
            let number = |t: &str| t.replace(',', "").parse::<f64>().unwrap();
            let (was, now) = (number(was), number(now));
            let (want_was, want_now) = if stack == "all" {
                (
                    before.iter().map(|x| x.1).sum(),
                    after.iter().map(|x| x.1).sum(),
                )
            } else if notes.starts_with(" (its own)") {
                let own = |c: &[(String, f64)]| -> f64 {
                    c.iter().filter(|x| x.0 == stack).map(|x| x.1).sum()
                };
                (own(&before), own(&after))
            } else {
                (under(&before, &stack), under(&after, &stack))
            };
            assert_eq!(
                (was, now),
                (want_was, want_now),
                "{a:?} {b:?}: {stack}{notes}"
            );
            gone += usize::from(now == 0.0 && was > 0.0);
            checked += 1;
        }
    }
    assert!(
        checked > 100 && gone > 0,
        "{checked} frames, {gone} only before"
    );
}

/// WCAG 2's contrast ratio of two `#rrggbb` colours (or `black`).
fn contrast(a: &str, b: &str) -> f64 {
    let luminance = |c: &str| {
        let hex = if c == "black" { "#000000" } else { c };
        let channel = |k: usize| {
            let v = u8::from_str_radix(&hex[1 + 2 * k..3 + 2 * k], 16).unwrap() as f64 / 255.0;
            if v <= 0.03928 {
                v / 12.92
            } else {
                ((v + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2)
    };
    let (x, y) = (luminance(a), luminance(b));
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}

/// Every frame's label reads on its box, dark boxes (viridis's purples) as light: each
/// text's fill and the fill of the box under it, read from the SVG, are at least WCAG's
/// 4.5 : 1 apart.
#[test]
fn frame_labels_read_on_their_boxes() {
    // An attribute of a tag's text after its name (`<path `, `<text `).
    let attr = |tag: &str, name: &str| -> Option<String> {
        let tag = format!(" {tag}");
        let at = tag.find(&format!(" {name}=\""))? + name.len() + 3;
        Some(tag[at..at + tag[at..].find('"')?].to_string())
    };
    for palette in ["viridis", "tableau10", "okabe-ito"] {
        let eventlog = fixtures().join("eventlog/ManyCC-hc.eventlog");
        let out = hpgraph_ok(
            &std::env::temp_dir(),
            &[
                "--flame",
                "--style",
                "modern",
                "--palette",
                palette,
                "-o",
                "-",
                "--format",
                "svg",
                eventlog.to_str().unwrap(),
            ],
        );
        let svg = String::from_utf8(out).unwrap();
        let rects: Vec<(f64, f64, f64, f64, String)> = (svg.split("<path ").skip(1))
            .filter_map(|p| {
                let tag = &p[..p.find('>')?];
                let fill = attr(tag, "fill").filter(|f| f.starts_with('#'))?;
                let n: Vec<f64> = attr(tag, "d")?
                    .split([',', ' ', 'M', 'L', 'z'])
                    .filter(|t| !t.is_empty())
                    .map(|t| t.parse().ok())
                    .collect::<Option<_>>()?;
                (n.len() == 8).then(|| {
                    (
                        n[0].min(n[2]),
                        n[0].max(n[2]),
                        n[5].min(n[1]),
                        n[5].max(n[1]),
                        fill,
                    )
                })
            })
            .collect();
        let mut labels = 0;
        for t in svg.split("<text ").skip(1) {
            let tag = &t[..t.find('>').unwrap()];
            let (x, y) = (
                attr(tag, "x").unwrap().parse::<f64>().unwrap(),
                attr(tag, "y").unwrap().parse::<f64>().unwrap(),
            );
            // The box under the text's start, a little above its baseline: the smallest.
            let Some(under) = (rects.iter())
                .filter(|r| r.0 <= x && x <= r.1 && r.2 <= y - 3.0 && y - 3.0 <= r.3)
                .min_by(|a, b| ((a.1 - a.0) * (a.3 - a.2)).total_cmp(&((b.1 - b.0) * (b.3 - b.2))))
            else {
                continue; // the title and the caption, on the page's white
            };
            let ink = attr(tag, "fill").unwrap();
            let ratio = contrast(&ink, &under.4);
            assert!(
                ratio >= 4.5,
                "{palette}: {ink} on {} is {ratio:.2} : 1",
                under.4
            );
            labels += 1;
        }
        assert!(labels >= 10, "{palette}: {labels} labels on boxes");
    }
}

/// `--flame` takes its census after `=`: `--flame peak` reads `peak` as a second profile.
/// That is said as what it is, with the spelling that works, and nothing is written.
#[test]
fn a_census_given_apart_from_flame_is_told_to_join_it_with_equals() {
    let dir = Scratch::new("flame-apart");
    let hp = fixtures().join("eventlog/Leak-hc.hp");
    let hp = hp.to_str().unwrap();
    for (args, word) in [
        (vec![hp, "--flame", "peak", "-o", "x.svg"], "peak"),
        (vec![hp, "--flame", "2.5", "-o", "x.svg"], "2.5"),
        (vec![hp, "--flame", "mean"], "mean"),
    ] {
        let out = hpgraph(&dir.0, &args, None);
        let err = common::stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(&format!("--flame={word}")), "{args:?}: {err}");
        assert_eq!(std::fs::read_dir(&dir.0).unwrap().count(), 0, "{args:?}");
    }
    // NAME.hp, which hp2ps's rule reads for NAME, is a profile, as named.
    std::fs::copy(hp, dir.path("peak.hp")).unwrap();
    common::assert_ok(&hpgraph(&dir.0, &["peak", "--flame", "-o", "x.svg"], None));
}
