//! Reports as people have them (#59): GHC 7.x and 8.0's layouts (no `SRC` column; GHC
//! 7's `(N ticks @ 20 ms)`), reports whose header lines were re-indented with spaces,
//! damaged trees, and reports named otherwise than `.prof`. The older layouts are made
//! here from GHC's own 9.x reports of one run, dropping what the older runtimes did not
//! write: the stacks read from them must be the 9.x report's, stack for stack.

use crate::common::{Scratch, fixtures, hpgraph, hpgraph_ok};

const GHCS: [&str; 3] = ["ghc-9.0.2", "ghc-9.6.6", "ghc-9.10.3"];

/// The era a layout is GHC's of.
#[derive(Clone, Copy, Debug)]
enum Era {
    /// GHC 7.x: no SRC, `(N ticks @ M ms)`.
    Seven,
    /// GHC 8.0: no SRC, `(N ticks @ U us, P processor)` as now.
    Eight,
}

/// Splits a table line into its words (the 9.x fixtures' labels and sources have no
/// blanks).
fn words(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

/// A table (header and rows) without its SRC column, laid out as GHC pads columns: the
/// label (with its indent) and module padded to their widest, numbers right-aligned.
fn without_src(header: &str, rows: &[&str]) -> Vec<String> {
    let head = words(header);
    // "COST CENTRE" is two words; SRC is the fourth.
    let numbers: Vec<&str> = head[4..].to_vec();
    let split: Vec<(String, &str, Vec<&str>)> = rows
        .iter()
        .map(|r| {
            let indent = r.len() - r.trim_start().len();
            let w = words(r);
            (
                format!("{}{}", " ".repeat(indent), w[0]),
                w[1],
                w[3..].to_vec(),
            )
        })
        .collect();
    let w1 = split.iter().map(|s| s.0.len()).chain([11]).max().unwrap();
    let w2 = split.iter().map(|s| s.1.len()).chain([6]).max().unwrap();
    let widths: Vec<usize> = (0..numbers.len())
        .map(|k| {
            let widest = split
                .iter()
                .map(|s| s.2[k].len())
                .chain([numbers[k].len()])
                .max();
            widest.unwrap() + 2
        })
        .collect();
    let line = |first: &str, module: &str, nums: &[&str]| {
        let mut l = format!("{first:<w1$} {module:<w2$}");
        for (n, w) in nums.iter().zip(&widths) {
            l += &format!("{n:>w$}");
        }
        l
    };
    let mut out = vec![line("COST CENTRE", "MODULE", &numbers), String::new()];
    out.extend(split.iter().map(|(f, m, n)| line(f, m, n)));
    out
}

/// GHC's 9.x report `text` in `era`'s layout.
fn in_era(text: &str, era: Era) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let tree = lines
        .iter()
        .position(|l| l.starts_with("COST CENTRE") && l.contains(" no. "))
        .unwrap();
    let rows: Vec<&str> = lines[tree + 2..]
        .iter()
        .copied()
        .take_while(|l| !l.trim().is_empty())
        .collect();
    // The flat table of the costliest cost centres had no SRC either.
    let flat = lines
        .iter()
        .position(|l| l.starts_with("COST CENTRE") && l.contains(" SRC ") && !l.contains(" no. "))
        .unwrap();
    let flat_rows: Vec<&str> = lines[flat + 2..]
        .iter()
        .copied()
        .take_while(|l| !l.trim().is_empty())
        .collect();
    let mut out: Vec<String> = Vec::new();
    for (k, l) in lines[..tree - 1].iter().enumerate() {
        if k == flat {
            out.extend(without_src(l, &flat_rows));
            continue;
        }
        if k > flat && k < flat + 2 + flat_rows.len() {
            continue;
        }
        let l = match era {
            Era::Seven if l.contains("ticks @") => {
                // `(255 ticks @ 1000 us, 1 processor)` → `(255 ticks @ 1 ms)`
                let at = l.find(" @ ").unwrap();
                let us: u64 = words(&l[at + 3..])[0].parse().unwrap();
                format!("{} @ {} ms)", &l[..at], us / 1000)
            }
            _ => l.to_string(),
        };
        // The flat table keeps its columns; only the tree matters to the stacks.
        out.push(l);
    }
    out.push(lines[tree - 1].to_string());
    out.extend(without_src(lines[tree], &rows));
    out.join("\n") + "\n"
}

fn folded(dir: &Scratch, file: &str) -> Vec<String> {
    let out = hpgraph_ok(&dir.0, &[file, "-o", "-", "--format", "folded"]);
    let mut lines: Vec<String> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    lines.sort();
    lines
}

#[test]
fn reports_of_ghc_7_and_8_0_read_as_the_same_runs_9x_report() {
    let dir = Scratch::new("prof-eras");
    let mut read = 0;
    for ghc in GHCS {
        for report in ["MapFib-p.prof", "MapFib-P.prof"] {
            let path = fixtures().join(format!("prof/{ghc}/{report}"));
            let text = std::fs::read_to_string(&path).unwrap();
            let want = folded(&dir, path.to_str().unwrap());
            assert!(!want.is_empty());
            for era in [Era::Seven, Era::Eight] {
                let name = format!("{ghc}-{era:?}-{report}");
                let old = in_era(&text, era);
                assert!(!old.contains(" SRC "), "{name}: the layout has no SRC");
                std::fs::write(dir.path(&name), &old).unwrap();
                let got = folded(&dir, &name);
                assert_eq!(got, want, "{name}:\n{old}");
                // The header's totals, as GHC wrote them.
                let summary = hpgraph_ok(&dir.0, &[&name, "--summary=json"]);
                let summary: serde_json::Value = serde_json::from_slice(&summary).unwrap();
                let ticks = words(old.lines().find(|l| l.contains("ticks @")).unwrap())
                    .iter()
                    .find_map(|w| w.strip_prefix('(').and_then(|n| n.parse::<f64>().ok()))
                    .unwrap();
                assert_eq!(summary["total"].as_f64(), Some(ticks), "{name}");
                read += 1;
            }
        }
    }
    assert_eq!(read, 12);
}

/// GHC before 8.0.2 could write a module that filled its column against the stack's
/// number (GHC #8811, `Language.PureScript.Parser.Declarations104457`): every row of an
/// 8.0-layout report jammed so is read as the report's own stacks. The report was
/// refused at its first such row.
#[test]
fn a_module_jammed_against_its_number_is_read_apart() {
    let dir = Scratch::new("prof-jammed");
    for ghc in GHCS {
        let path = fixtures().join(format!("prof/{ghc}/MapFib-p.prof"));
        let want = folded(&dir, path.to_str().unwrap());
        let old = in_era(&std::fs::read_to_string(&path).unwrap(), Era::Eight);
        let lines: Vec<&str> = old.lines().collect();
        let tree = lines
            .iter()
            .position(|l| l.starts_with("COST CENTRE") && l.contains(" no. "))
            .unwrap();
        let mut jammed = 0;
        let out: Vec<String> = (lines.iter().enumerate())
            .map(|(k, l)| {
                let w = words(l);
                if k < tree + 2 || w.len() < 3 || w[1].ends_with(|c: char| c.is_ascii_digit()) {
                    return l.to_string();
                }
                // The blanks between the module and the number taken out.
                let label_end = l.find(w[0]).unwrap() + w[0].len();
                let module_end = label_end + l[label_end..].find(w[1]).unwrap() + w[1].len();
                let number = module_end + l[module_end..].find(w[2]).unwrap();
                jammed += 1;
                format!("{}{}", &l[..module_end], &l[number..])
            })
            .collect();
        assert!(jammed > 10, "{ghc}: {jammed} rows jammed");
        let name = format!("{ghc}-jammed.prof");
        std::fs::write(dir.path(&name), out.join("\n") + "\n").unwrap();
        assert_eq!(folded(&dir, &name), want, "{ghc}");
    }
}

#[test]
fn a_report_with_its_header_reindented_is_read_by_its_content() {
    let dir = Scratch::new("prof-spaces");
    let path = fixtures().join("prof/ghc-9.0.2/MapFib-p.prof");
    let text = std::fs::read_to_string(&path).unwrap();
    let want = folded(&dir, path.to_str().unwrap());
    // The header's tabs become spaces, as an editor or a paste makes them.
    let spaced: String = text
        .lines()
        .map(|l| l.replacen('\t', "    ", 1))
        .collect::<Vec<_>>()
        .join("\n");
    std::fs::write(dir.path("spaced.prof"), spaced + "\n").unwrap();
    assert_eq!(folded(&dir, "spaced.prof"), want);
    // Through standard input too: detected by content, not by name.
    let out = hpgraph(
        &dir.0,
        &["-", "-o", "-", "--format", "folded"],
        Some(&std::fs::read(dir.path("spaced.prof")).unwrap()),
    );
    crate::common::assert_ok(&out);
    let mut got: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    got.sort();
    assert_eq!(got, want);
}

#[test]
fn a_tree_whose_indentation_skips_a_level_is_refused_naming_the_line() {
    let dir = Scratch::new("prof-skip");
    let text = std::fs::read_to_string(fixtures().join("prof/ghc-9.0.2/MapFib-p.prof")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let tree = lines
        .iter()
        .position(|l| l.starts_with("COST CENTRE") && l.contains(" no. "))
        .unwrap();
    // The third row is two levels under the second: give it two more spaces.
    let bad = tree + 4;
    let mut damaged: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    damaged[bad] = format!("  {}", damaged[bad]);
    std::fs::write(dir.path("skip.prof"), damaged.join("\n") + "\n").unwrap();
    let out = hpgraph(&dir.0, &["skip.prof", "-o", "x.svg"], None);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains(&format!("skip.prof:{}: indentation skips a level", bad + 1)),
        "{err}"
    );
    assert!(!dir.path("x.svg").exists());
}

#[test]
fn a_report_named_as_ghcs_testsuite_names_it_is_read_itself() {
    let dir = Scratch::new("prof-sample");
    std::fs::copy(
        fixtures().join("prof/ghc-9.0.2/MapFib-p.prof"),
        dir.path("MapFib.prof.sample"),
    )
    .unwrap();
    let out = hpgraph(&dir.0, &["MapFib.prof.sample", "--summary"], None);
    crate::common::assert_ok(&out);
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("the whole run: "));
    // Where hp2ps's NAME.hp exists, hp2ps's rule still reads it.
    std::fs::copy(
        fixtures().join("profiles/Quick-hc.hp"),
        dir.path("MapFib.prof.sample.hp"),
    )
    .unwrap();
    let out = hpgraph(&dir.0, &["MapFib.prof.sample", "--summary"], None);
    crate::common::assert_ok(&out);
    assert!(!String::from_utf8_lossy(&out.stdout).starts_with("the whole run: "));
}

#[test]
fn a_share_of_100_a_column_left_of_its_header_reads_as_100() {
    // GHC writes `100.0` one column wider than its header's `%time`: the numbers are a
    // row's last words, wherever they start.
    let dir = Scratch::new("prof-100");
    let text = std::fs::read_to_string(fixtures().join("prof/ghc-9.0.2/MapFib-p.prof")).unwrap();
    let row = text
        .lines()
        .find(|l| l.trim_start().starts_with("MAIN "))
        .unwrap();
    assert!(row.contains("100.0"), "{row}");
    let json = hpgraph_ok(
        &dir.0,
        &[
            fixtures()
                .join("prof/ghc-9.0.2/MapFib-p.prof")
                .to_str()
                .unwrap(),
            "--summary=json",
        ],
    );
    let json: serde_json::Value = serde_json::from_slice(&json).unwrap();
    // MAIN leads to everything: its inherited measure is the whole run's.
    let main = json["by_inherited"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "MAIN.MAIN")
        .unwrap();
    assert_eq!(main["inherited"], json["total"]);
}

/// `input::prof::json::MAX_STRING_SEARCH`: how far the `-pj` reader looks for the quote
/// that ends a label GHC 9.0 wrote with its quotes unescaped.
const MAX_STRING_SEARCH: usize = 4096;

/// A `-pj` label past the search limit: GHC 9.6's escaped quotes read whole (then cut at
/// `input::names::MAX_LABEL`, as every label); GHC 9.0's unescaped ones end the label at
/// its first quote, and the report still reads, every stack weighing what GHC counted
/// (#59).
#[test]
fn a_json_label_past_the_search_limit_reads_as_documented() {
    let dir = Scratch::new("prof-long-label");
    let report = fixtures().join("prof/ghc-9.0.2/MapFib-pj.prof");
    let text = std::fs::read_to_string(&report).unwrap();
    let before = "f".repeat(MAX_STRING_SEARCH / 2 + 100);
    let after = "g".repeat(MAX_STRING_SEARCH / 2 + 100);
    let want = folded(&dir, report.to_str().unwrap());
    let total = |lines: &[String]| -> u64 {
        lines
            .iter()
            .map(|l| l.rsplit_once(' ').unwrap().1.parse::<u64>().unwrap())
            .sum()
    };
    for (name, label, whole) in [
        ("escaped.json", format!("{before}\\\"q\\\"{after}"), true),
        ("unescaped.json", format!("{before}\"q\"{after}"), false),
    ] {
        let bent = text.replacen("\"label\": \"fib\"", &format!("\"label\": \"{label}\""), 1);
        assert_ne!(bent, text, "GHC's report names fib");
        std::fs::write(dir.path(name), bent).unwrap();
        let got = folded(&dir, name);
        assert_eq!(got.len(), want.len(), "{name}: every stack");
        assert_eq!(total(&got), total(&want), "{name}: every tick");
        let long = got
            .iter()
            .find(|l| l.contains(&before))
            .expect("the long label");
        let past = format!("q\"{}", &after[..1000]);
        assert_eq!(long.contains(&past), whole, "{name}: {}", &long[..80]);
        assert!(long.len() < 4096 + 200, "{name}: the label cut");
    }
}

/// A `-pj` report with its keys sorted (as `jq -S` writes it) whose figure is not a
/// number is refused with the line, as GHC's own order is (#59).
#[test]
fn a_key_sorted_report_with_a_figure_not_a_number_is_refused_with_its_line() {
    let dir = Scratch::new("prof-sorted-bad");
    let text = std::fs::read_to_string(fixtures().join("prof/ghc-9.6.6/MapFib-pj.prof")).unwrap();
    let mut report: serde_json::Value = serde_json::from_str(&text).unwrap();
    report["profile"]["children"][0]["ticks"] = serde_json::Value::String("many".into());
    fn sorted(v: serde_json::Value) -> serde_json::Value {
        match v {
            serde_json::Value::Object(map) => {
                let mut pairs: Vec<_> = map.into_iter().collect();
                pairs.sort_by(|a, b| a.0.cmp(&b.0));
                serde_json::Value::Object(pairs.into_iter().map(|(k, v)| (k, sorted(v))).collect())
            }
            serde_json::Value::Array(items) => items.into_iter().map(sorted).collect(),
            v => v,
        }
    }
    let sorted = serde_json::to_string_pretty(&sorted(report)).unwrap();
    assert!(sorted.starts_with("{\n  \"arguments\""), "keys sorted");
    let line = 1 + sorted[..sorted.find("\"many\"").unwrap()]
        .matches('\n')
        .count();
    std::fs::write(dir.path("sorted.json"), &sorted).unwrap();
    let out = hpgraph(&dir.0, &["sorted.json", "--summary"], None);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains(&format!(
            "sorted.json:{line}: \"ticks\" `\"many\"` is not a number"
        )),
        "{err}"
    );
}
