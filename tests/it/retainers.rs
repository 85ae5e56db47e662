//! Retainer profiles (`+RTS -hr`) named in full from the same run's report, on every
//! path: the one-shot pictures, data and page, `--retainer-sets`, `--compare`, and a
//! program calling the library's engine (`--watch` and `--serve`: `watch.rs`).

use crate::common;

/// The GHCs whose retainer runs are fixtures.
const GHCS: [&str; 3] = ["ghc-9.0.2", "ghc-9.6.6", "ghc-9.10.3"];

fn dir(ghc: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/prof")
        .join(ghc)
}

/// The texts of an SVG's key that are retainer sets (`{<…>, …}`), sorted.
fn set_texts(svg: &str) -> Vec<String> {
    let mut sets: Vec<String> = (common::svg_texts(svg).into_iter())
        .map(|t| t.text)
        .filter(|t| t.starts_with("{&lt;"))
        .collect();
    sets.sort();
    sets
}

/// `--compare` of two retainer runs names each run's sets as a one-shot run does, in
/// both panels' keys; a program calling the engine ([`hpgraph::engine::run`]) with the
/// file's path gets the one-shot picture's sets too.
#[test]
fn compared_runs_and_library_callers_name_the_sets() {
    for ghc in GHCS {
        let scratch = common::Scratch::new("retainer-paths");
        for ext in ["hp", "prof"] {
            std::fs::copy(
                dir(ghc).join(format!("Leak-hr.{ext}")),
                scratch.path(&format!("r.{ext}")),
            )
            .unwrap();
        }
        let modern = ["--style", "modern", "--format", "svg", "-o", "-"];
        let one = common::hpgraph_ok(&scratch.0, &[&["r.hp"][..], &modern].concat());
        let one = String::from_utf8(one).unwrap();
        let sets = set_texts(&one);
        assert!(!sets.is_empty(), "{ghc}: the one-shot key names a set");
        let compare = [&["--compare", "r.hp", "r.hp"][..], &modern].concat();
        let cmp = String::from_utf8(common::hpgraph_ok(&scratch.0, &compare)).unwrap();
        // Each panel's key: the one-shot's sets twice.
        let twice: Vec<String> = {
            let mut t: Vec<String> = sets.iter().chain(&sets).cloned().collect();
            t.sort();
            t
        };
        assert_eq!(set_texts(&cmp), twice, "{ghc}: --compare's keys");

        // The library: the engine with the path, as the command line calls it.
        let path = scratch.path("r.hp");
        let bytes = std::fs::read(&path).unwrap();
        let parsed = hpgraph::input::parse(&bytes).unwrap();
        let mut layout = hpgraph::layout::LayoutOptions::default();
        layout.style = hpgraph::layout::Style::Modern;
        let job =
            hpgraph::engine::Job::new(hpgraph::engine::View::Graph(hpgraph::engine::Picture::new(
                hpgraph::backend::Format::Svg,
                Default::default(),
                layout,
            )));
        let mut said = Vec::new();
        let input = hpgraph::engine::Input {
            name: "r.hp",
            parsed,
            sets: hpgraph::input::prof::retainers::Sets::Beside(&path),
        };
        let mut tell = |_: &str, s: hpgraph::engine::Notice| said.push(format!("{s:?}"));
        let (rendered, _) = hpgraph::engine::run(&job, input, None, &[], &mut tell).unwrap();
        let svg = String::from_utf8(rendered.bytes().unwrap()).unwrap();
        assert_eq!(set_texts(&svg), sets, "{ghc}: the library's picture");
        assert!(said.iter().any(|s| s.starts_with("SetsNamed")), "{said:?}");
    }
}

/// A retainer profile (`-hr`) with its run's report beside it (one stem): each band
/// whose set the report lists gets it in full in `--summary=json` (`retainer_set`), as
/// the report's `SET N = {<…>, …}` line gives it — where GHC's own band name in the
/// `.hp` (`(N)label,label`) is those members' innermost labels, for GHC numbers sets
/// afresh as the run goes and a number can name another set earlier; stderr says which
/// file named the sets.
#[test]
fn retainer_sets_are_named_in_full_from_the_runs_report() {
    for ghc in GHCS {
        let hp = dir(ghc).join("Leak-hr.hp");
        let report = std::fs::read_to_string(dir(ghc).join("Leak-hr.prof")).unwrap();
        let listed: std::collections::HashMap<String, Vec<Vec<String>>> = (report.lines())
            .filter_map(|l| {
                let (n, body) = l.strip_prefix("SET ")?.split_once(" = {")?;
                let members = (body.strip_suffix('}')?.split(">, <"))
                    .map(|m| {
                        let m = m.trim_start_matches('<').trim_end_matches('>');
                        m.split(',')
                            .filter(|c| !c.is_empty())
                            .map(String::from)
                            .collect()
                    })
                    .collect();
                Some((n.to_string(), members))
            })
            .collect();
        assert!(listed.len() >= 5, "{ghc}: {listed:?}");
        let out = crate::common::command(env!("CARGO_MANIFEST_DIR"))
            .arg(&hp)
            .arg("--summary=json")
            .output()
            .unwrap();
        crate::common::assert_ok(&out);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("retainer sets named from") && err.contains("Leak-hr.prof"),
            "{err}"
        );
        let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let mut named = 0;
        for band in s["bands"].as_array().unwrap() {
            let name = band["name"].as_str().unwrap();
            let (number, labels) = name[1..].split_once(')').unwrap();
            let got: Option<Vec<Vec<String>>> =
                serde_json::from_value(band["retainer_set"].clone()).unwrap();
            // GHC numbers sets afresh as the run goes: the report's set of this number is
            // this band's when its members' innermost labels are the band's labels.
            // GHC cuts a long name at -L without a mark: then the last label only
            // begins its member's (after the module's dot), and members may follow.
            let agrees = |members: &Vec<Vec<String>>| {
                let ls: Vec<&str> = labels.split(',').collect();
                let inner = |m: &Vec<String>| m.first().cloned().unwrap_or("MAIN".into());
                let whole = |l: &str, m: &Vec<String>| {
                    let inner = inner(m);
                    inner == l || inner.ends_with(&format!(".{l}"))
                };
                let begins = |l: &str, m: &Vec<String>| {
                    let inner = inner(m);
                    inner.starts_with(l)
                        || inner
                            .match_indices('.')
                            .any(|(k, _)| inner[k + 1..].starts_with(l))
                };
                let last = ls.len() - 1;
                ls.len() <= members.len()
                    && ls[..last].iter().zip(members).all(|(l, m)| whole(l, m))
                    && ((ls.len() == members.len() && whole(ls[last], &members[last]))
                        || begins(ls[last], &members[last]))
            };
            let want = listed.get(number).filter(|m| agrees(m));
            if labels.ends_with("...") {
                continue; // cut by -L: its labels cannot be read whole
            }
            assert_eq!(got.as_ref(), want, "{ghc}: {name}");
            named += usize::from(got.is_some());
        }
        assert!(named >= 5, "{ghc}: {named} bands named");
        // The modern key shows a named band's set as the report writes it; the page's
        // tooltip has it; each band's title keeps GHC's name.
        let sets: Vec<(String, String)> = (s["bands"].as_array().unwrap().iter())
            .filter(|b| !b["retainer_set"].is_null())
            .map(|b| {
                let name = b["name"].as_str().unwrap().to_string();
                let number = &name[1..name.find(')').unwrap()];
                let line = (report.lines())
                    .find(|l| l.starts_with(&format!("SET {number} = {{")))
                    .unwrap();
                (name, line.split_once(" = ").unwrap().1.to_string())
            })
            .collect();
        let scratch = common::Scratch::new("retainer-key");
        let svg = scratch.path("k.svg");
        let args = [
            hp.to_str().unwrap(),
            "--style",
            "modern",
            "--size",
            "30cmx20cm",
            "-o",
        ];
        let out = crate::common::command(env!("CARGO_MANIFEST_DIR"))
            .args(args)
            .arg(&svg)
            .output()
            .unwrap();
        crate::common::assert_ok(&out);
        let svg = std::fs::read_to_string(&svg).unwrap();
        let texts: Vec<String> = common::svg_texts(&svg)
            .into_iter()
            .map(|t| t.text)
            .collect();
        let page = scratch.path("k.html");
        let out = crate::common::command(env!("CARGO_MANIFEST_DIR"))
            .arg(&hp)
            .arg("-o")
            .arg(&page)
            .output()
            .unwrap();
        crate::common::assert_ok(&out);
        let page = std::fs::read_to_string(&page).unwrap();
        let mut keyed = 0;
        for (name, set) in &sets {
            // The bands drawn on their own (the smallest may be in OTHER), titled so.
            if svg.contains(&format!("<title>{}</title>", hpgraph::escape::html(name))) {
                let shown = hpgraph::escape::html(set);
                assert!(
                    texts.contains(&shown),
                    "{ghc}: {name}'s key shows {set}: {texts:?}"
                );
                keyed += 1;
            }
            let json = serde_json::to_string(set).unwrap().replace('<', "\\u003c");
            assert!(
                page.contains(&format!("\"set\":{json}")),
                "{ghc}: {name}'s set in the page"
            );
        }
        assert!(keyed >= 1, "{ghc}: no named band in the key");
    }
}

/// `--retainer-sets FILE` names the sets from a report of another name, as the stem's
/// `.prof` beside the profile would; a file that cannot be read, or lists no set, is an
/// error naming it, and nothing is written.
#[test]
fn retainer_sets_from_a_report_of_another_name() {
    let scratch = common::Scratch::new("retainer-sets");
    let run = |args: &[&str]| {
        crate::common::command(&scratch.0)
            .args(args)
            .output()
            .unwrap()
    };
    let named = |out: &std::process::Output| -> Vec<(String, String)> {
        let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        (s["bands"].as_array().unwrap().iter())
            .filter(|b| !b["retainer_set"].is_null())
            .map(|b| (b["name"].to_string(), b["retainer_set"].to_string()))
            .collect()
    };
    for ghc in GHCS {
        let hp = dir(ghc).join("Leak-hr.hp");
        let beside = named(&run(&[hp.to_str().unwrap(), "--summary=json"]));
        assert!(beside.len() >= 5, "{ghc}: {beside:?}");
        std::fs::copy(&hp, scratch.path("run.hp")).unwrap();
        std::fs::copy(dir(ghc).join("Leak-hr.prof"), scratch.path("sets.txt")).unwrap();
        assert!(named(&run(&["run.hp", "--summary=json"])).is_empty());
        let out = run(&["run.hp", "--retainer-sets", "sets.txt", "--summary=json"]);
        assert_eq!(named(&out), beside, "{ghc}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("named from sets.txt"));
    }
    for (file, says) in [
        ("none.prof", "none.prof: cannot read"),
        ("run.hp", "run.hp: no retainer sets"),
    ] {
        let out = run(&["run.hp", "--retainer-sets", file, "-o", "x.svg"]);
        assert_eq!(out.status.code(), Some(1));
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(says),
            "{file}"
        );
        assert!(!scratch.path("x.svg").exists());
    }
}

/// Each member's alone and reachable peaks as `--summary=json` gives them.
fn members_of(
    dir: &std::path::Path,
    args: &[&str],
) -> std::collections::BTreeMap<String, (f64, f64)> {
    let out = common::hpgraph(dir, args, None);
    common::assert_ok(&out);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    (v["members"]["members"].as_array().unwrap().iter())
        .map(|m| {
            let f = |k: &str| m[k].as_f64().unwrap();
            (
                m["name"].as_str().unwrap().to_string(),
                (f("alone_peak"), f("reachable_peak")),
            )
        })
        .collect()
}

/// Each member's peaks, summed here from the censuses and each band's set (`set_of`:
/// `None` where it is not known).
fn summed(
    censuses: &[common::hp::Census],
    set_of: impl Fn(&str) -> Option<Vec<String>>,
) -> std::collections::BTreeMap<String, (f64, f64)> {
    let mut peaks: std::collections::BTreeMap<String, (f64, f64)> = Default::default();
    for c in censuses {
        let mut here: std::collections::BTreeMap<String, (f64, f64)> = Default::default();
        for (name, v) in &c.lines {
            let Some(set) = set_of(name) else { continue };
            for m in &set {
                let e = here.entry(m.clone()).or_default();
                e.1 += v;
                if set.len() == 1 {
                    e.0 += v;
                }
            }
        }
        for (m, (a, r)) in here {
            let e = peaks.entry(m).or_default();
            (e.0, e.1) = (e.0.max(a), e.1.max(r));
        }
    }
    peaks
}

/// A root profile (`+RTS -ho`: a band a set of roots, named by its roots joined with `-`):
/// each root's bytes held alone and reachable at their peaks, exact — the design's own
/// example (`hsc` holds 80 alone, 232 reachable), then a generated profile summed here.
#[test]
fn a_root_profiles_members_hold_what_their_sets_add_up_to() {
    let dir = common::Scratch::new("roots");
    let head =
        "JOB \"prog +RTS -ho -RTS\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n";
    let example = format!(
        "{head}BEGIN_SAMPLE 0\nhsc\t80\nhsc-eps\t48\nhsc-fc\t72\nhsc-eps-fc\t32\nEND_SAMPLE 0\n"
    );
    std::fs::write(dir.path("example.hp"), example).unwrap();
    let m = members_of(&dir.0, &["example.hp", "--summary=json"]);
    assert_eq!(m["hsc"], (80.0, 232.0));
    assert_eq!(m["eps"], (0.0, 80.0));
    assert_eq!(m["fc"], (0.0, 104.0));
    // Six roots, every non-empty set of them written at every census (zeros too).
    let roots = ["hsc", "eps", "fc", "ic", "tc", "rn"];
    let mut rng = common::Rng(0x5eed);
    let mut text = head.to_string();
    for s in 0..40 {
        text += &format!("BEGIN_SAMPLE {s}\n");
        for set in 1..64u32 {
            let name: Vec<&str> = (0..6)
                .filter(|k| set & (1 << k) != 0)
                .map(|k| roots[k])
                .collect();
            text += &format!("{}\t{}\n", name.join("-"), rng.next() % 5000);
        }
        text += &format!("END_SAMPLE {s}\n");
    }
    std::fs::write(dir.path("roots.hp"), &text).unwrap();
    let want = summed(&common::hp::censuses_of(&text), |n| {
        Some(n.split('-').map(String::from).collect())
    });
    assert_eq!(members_of(&dir.0, &["roots.hp", "--summary=json"]), want);
    // Without -ho, the same bands are no sets.
    std::fs::write(dir.path("plain.hp"), text.replace("-ho ", "")).unwrap();
    let out = common::hpgraph(&dir.0, &["plain.hp", "--summary=json"], None);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v.get("members").is_none());
}

/// A retainer profile's members (each retainer of the sets the run's report names): on
/// three GHCs' `-hr` runs, each member's peaks are the sums here of the `.hp`'s censuses
/// by the `.prof`'s sets, and reachable ≥ alone ≥ 0, at most the profile's peak.
#[test]
fn a_retainer_profiles_members_hold_what_the_reports_sets_add_up_to() {
    for ghc in GHCS {
        let d = dir(ghc);
        let report = std::fs::read_to_string(d.join("Leak-hr.prof")).unwrap();
        let sets: std::collections::BTreeMap<String, Vec<String>> = (report.lines())
            .filter_map(|l| {
                let (n, set) = l.strip_prefix("SET ")?.split_once(" = {")?;
                let set = set.strip_suffix('}')?;
                let members = set
                    .split(">, <")
                    .map(|m| format!("<{}>", m.trim_matches(['<', '>'])));
                Some((n.to_string(), members.collect()))
            })
            .collect();
        let censuses = common::hp::censuses(&d.join("Leak-hr.hp"));
        let want = summed(&censuses, |name| {
            let n = name.strip_prefix('(')?.split_once(')')?.0;
            sets.get(n).cloned()
        });
        let hp = d.join("Leak-hr.hp");
        let got = members_of(&d, &[hp.to_str().unwrap(), "--summary=json"]);
        assert_eq!(got, want, "{ghc}");
        let peak = censuses.iter().map(|c| c.total()).fold(0.0, f64::max);
        for (m, (alone, reach)) in &got {
            assert!(
                0.0 <= *alone && alone <= reach && *reach <= peak,
                "{ghc} {m}"
            );
        }
        assert!(got.len() >= 3, "{ghc}: {got:?}");
    }
}

/// `--members`: under the graph of every band, a panel for each member that reaches
/// most, titled with its peaks — the design's example (`hsc` 232 B reachable, 80 B
/// alone; `fc` 104 B, `eps` 80 B, neither alone) read from the SVG's text — its two
/// bands one colour in every panel; on three GHCs' `-hr` runs the panels are the members
/// that reach most by the sums here of the `.hp` and the `.prof`'s sets. A profile whose
/// bands are not sets is drawn as usual, with a warning; a data format is refused.
#[test]
fn members_panels_name_each_members_peaks() {
    let work = common::Scratch::new("member-panels");
    let head =
        "JOB \"prog +RTS -ho -RTS\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n";
    let census = |s: u32, k: u32| {
        format!(
            "BEGIN_SAMPLE {s}\nhsc\t{}\nhsc-eps\t{}\nhsc-fc\t{}\nhsc-eps-fc\t{}\nEND_SAMPLE {s}\n",
            80 / k,
            48 / k,
            72 / k,
            32 / k
        )
    };
    std::fs::write(
        work.path("example.hp"),
        format!("{head}{}{}{}", census(0, 2), census(1, 1), census(2, 4)),
    )
    .unwrap();
    let out = common::hpgraph(&work.0, &["example.hp", "--members", "-o", "m.svg"], None);
    common::assert_ok(&out);
    let svg = std::fs::read_to_string(work.path("m.svg")).unwrap();
    let texts: Vec<String> = common::svg_texts(&svg)
        .into_iter()
        .map(|t| t.text)
        .collect();
    let titles: Vec<&String> = texts.iter().filter(|t| t.contains(": reachable")).collect();
    assert_eq!(
        titles,
        [
            "hsc: reachable 232 B at its peak, 80 B alone",
            "fc: reachable 104 B at its peak, 0 B alone",
            "eps: reachable 80 B at its peak, 0 B alone",
        ],
        "{texts:?}"
    );
    // hsc's panel has both bands, the others only what they share: one colour each.
    let fills = common::titled_fills(&svg);
    let fill = |name: &str| -> std::collections::BTreeSet<String> {
        (fills.iter().filter(|(t, _)| t == name))
            .map(|(_, f)| f.clone())
            .collect()
    };
    assert_eq!(fills.iter().filter(|(t, _)| t == "shared").count(), 3);
    assert_eq!(fills.iter().filter(|(t, _)| t == "alone").count(), 1);
    assert_eq!((fill("shared").len(), fill("alone").len()), (1, 1));
    assert_ne!(fill("shared"), fill("alone"));
    for ghc in GHCS {
        let d = dir(ghc);
        let hp = d.join("Leak-hr.hp");
        let want = members_of(&d, &[hp.to_str().unwrap(), "--summary=json"]);
        let mut most: Vec<(&String, f64)> = want.iter().map(|(m, p)| (m, p.1)).collect();
        most.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(b.0)));
        let svg = work.path(&format!("{ghc}.svg"));
        let args = [
            hp.to_str().unwrap(),
            "--members=2",
            "-o",
            svg.to_str().unwrap(),
        ];
        common::assert_ok(&common::hpgraph(&d, &args, None));
        let svg = std::fs::read_to_string(svg).unwrap();
        let named: Vec<String> = (common::svg_texts(&svg).into_iter())
            .filter_map(|t| Some(t.text.split_once(": reachable")?.0.to_string()))
            .collect();
        let names: Vec<String> = most[..2]
            .iter()
            .map(|m| m.0.replace('>', "&gt;").replace('<', "&lt;"))
            .collect();
        assert_eq!(named, names, "{ghc}");
    }
    std::fs::write(
        work.path("plain.hp"),
        format!("{}{}", head.replace("-ho ", ""), census(0, 1)),
    )
    .unwrap();
    let out = common::hpgraph(&work.0, &["plain.hp", "--members", "-o", "p.svg"], None);
    common::assert_ok(&out);
    assert!(String::from_utf8_lossy(&out.stderr).contains("--members: the bands are not sets"));
    let out = common::hpgraph(&work.0, &["example.hp", "--members", "-o", "m.csv"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(!work.path("m.csv").exists());
}
