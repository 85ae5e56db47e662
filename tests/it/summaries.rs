//! What a user reads off a report's `--summary` (#58): figures as GHC wrote them, without
//! the float noise of sums of percentages, in text, CSV and JSON; the CSV a table.

use crate::common::{Scratch, fixtures, hpgraph_ok};

const GHCS: [&str; 3] = ["ghc-9.0.2", "ghc-9.6.6", "ghc-9.10.3"];

/// Significant digits of a decimal number as written (`15.91` has 4).
fn significant(number: &str) -> usize {
    number
        .trim_start_matches('-')
        .replace('.', "")
        .trim_start_matches('0')
        .len()
}

/// Every decimal number (with a point) in `text`.
fn decimals(text: &str) -> Vec<&str> {
    text.split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .filter(|w| w.contains('.') && w.chars().any(|c| c.is_ascii_digit()))
        .collect()
}

/// A CSV line's fields as RFC 4180 quotes them (a name may hold commas and quotes).
fn fields(line: &str) -> Vec<String> {
    let (mut out, mut field, mut quoted, mut chars) =
        (Vec::new(), String::new(), false, line.chars().peekable());
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => out.push(std::mem::take(&mut field)),
            (c, _) => field.push(c),
        }
    }
    out.push(field);
    out
}

/// GHC's total ticks, from the report's header: `(215 ticks @ 1000 us, …)`.
fn header_ticks(report: &str) -> u64 {
    let line = report.lines().find(|l| l.contains("ticks @")).unwrap();
    let before = &line[..line.find(" ticks @").unwrap()];
    before[before.rfind('(').unwrap() + 1..]
        .trim()
        .parse()
        .unwrap()
}

#[test]
fn a_reports_summary_writes_figures_without_float_noise_and_its_csv_is_a_table() {
    let dir = Scratch::new("summaries");
    for ghc in GHCS {
        for report in ["MapFib-p.prof", "MapFib-P.prof"] {
            let path = fixtures().join(format!("prof/{ghc}/{report}"));
            if !path.exists() {
                continue;
            }
            let file = path.to_str().unwrap();
            let what = format!("{ghc}/{report}");
            let ghcs = std::fs::read_to_string(&path).unwrap();
            let text = String::from_utf8(hpgraph_ok(&dir.0, &[file, "--summary"])).unwrap();
            for n in decimals(&text) {
                assert!(significant(n) <= 12, "{what}: `{n}` in:\n{text}");
            }
            let total = format!("the whole run: {} ticks", header_ticks(&ghcs));
            assert!(text.starts_with(&total), "{what}: {text}");

            let json = hpgraph_ok(&dir.0, &[file, "--summary=json"]);
            let json: serde_json::Value = serde_json::from_slice(&json).unwrap();
            let mut figures = Vec::new();
            for list in ["by_individual", "by_inherited", "hottest_path"] {
                for c in json[list].as_array().unwrap() {
                    for key in ["individual", "inherited"] {
                        if let Some(v) = c.get(key) {
                            figures.push(v.to_string());
                        }
                    }
                }
            }
            for n in &figures {
                assert!(significant(n) <= 12, "{what}: JSON figure `{n}`");
            }

            let csv = String::from_utf8(hpgraph_ok(&dir.0, &[file, "--summary=csv"])).unwrap();
            let rows: Vec<Vec<String>> = csv.lines().map(fields).collect();
            assert_eq!(
                rows[0],
                [
                    "cost_centre",
                    "individual_ticks",
                    "inherited_ticks",
                    "individual_percent",
                    "inherited_percent"
                ],
                "{what}: the header"
            );
            assert!(rows.iter().all(|r| r.len() == 5), "{what}: a table:\n{csv}");
            // One row per cost centre of the lists, each with the JSON's figures.
            let listed: Vec<&serde_json::Value> = (json["by_individual"].as_array().unwrap())
                .iter()
                .chain(json["by_inherited"].as_array().unwrap())
                .collect();
            for c in &listed {
                let name = c["name"].as_str().unwrap();
                let row = rows
                    .iter()
                    .find(|r| r[0] == name)
                    .unwrap_or_else(|| panic!("{what}: no row for {name}"));
                assert_eq!(row[1], c["individual"].to_string(), "{what}: {name}");
                assert_eq!(row[2], c["inherited"].to_string(), "{what}: {name}");
            }
            let mut names: Vec<&str> = rows[1..].iter().map(|r| r[0].as_str()).collect();
            let count = names.len();
            names.sort();
            names.dedup();
            assert_eq!(names.len(), count, "{what}: a cost centre twice");
        }
    }
}
