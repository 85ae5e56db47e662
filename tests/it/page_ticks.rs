//! The page's axes are labelled as the pictures' are: the script's tick and label
//! functions (`figures.js` `timeAxis`, `valueTicks`, `rateAxis`), run in Node on
//! generated windows, widths and heights, give what the library's
//! (`layout::modern::time_axis`, `value_ticks`, `rate_ticks`) give on the same ones:
//! the same values and the same labels, for time (seconds, milliseconds, a clock, or
//! another unit), bytes (decimal and binary) and plain counts, and rates.

use std::path::Path;
use std::process::Command;

use hpgraph::analysis::page::PageScale;
use hpgraph::layout::modern::{rate_ticks, time_axis, value_ticks};
use hpgraph::units::{ByteUnits, Scale, TimeUnit, ValueUnit};
use serde_json::{Value, json};

/// Cases from the tests' one generator ([`crate::common::Rng`]).
struct Cases(crate::common::Rng);

impl Cases {
    fn unit(&mut self) -> f64 {
        self.0.unit()
    }
    fn between(&mut self, a: f64, b: f64) -> f64 {
        a + (b - a) * self.unit()
    }
    /// 10 to a power between `a` and `b`, times 1 to 10.
    fn magnitude(&mut self, a: f64, b: f64) -> f64 {
        10f64.powf(self.between(a, b))
    }
}

/// The scales the page writes numbers on, and the library's of the same.
fn scales() -> Vec<(Value, Scale)> {
    [
        (ValueUnit::Bytes, ByteUnits::Decimal),
        (ValueUnit::Bytes, ByteUnits::Binary),
        (ValueUnit::Other, ByteUnits::Decimal),
    ]
    .into_iter()
    .map(|(value, units)| {
        let page = PageScale::of(value, units, TimeUnit::Seconds, b"seconds");
        (
            serde_json::to_value(page).unwrap(),
            Scale::new(value, units),
        )
    })
    .collect()
}

/// Windows of a 2-hour, a 1.5-second and a 40 ms run, whole and at two zooms each;
/// then generated ones from 30 µs to days, some not in seconds.
fn windows(cases: &mut Cases) -> Vec<(f64, f64, f64, bool)> {
    let mut out = Vec::new();
    for (a, b) in [
        (0.0, 7200.0),
        (1800.0, 2700.0),
        (2000.0, 2030.0),
        (0.0, 1.5),
        (0.3, 0.9),
        (1.0, 1.02),
        (0.0, 0.04),
        (0.01, 0.02),
        (0.0312, 0.0318),
    ] {
        for target in [2.0, 4.5, 7.0] {
            out.push((a, b, target, true));
        }
    }
    while out.len() < 1200 {
        let span = cases.magnitude(-4.5, 5.3);
        let start = if cases.unit() < 0.3 {
            0.0
        } else {
            span * cases.between(0.0, 40.0)
        };
        let seconds = cases.unit() < 0.85;
        out.push((start, start + span, cases.between(2.0, 7.0), seconds));
    }
    out
}

/// Runs `script` in Node with `figures.js` loaded as `F` and `cases` as `C`; its output
/// is JSON.
pub(crate) fn node(script: &str, cases: &Value) -> Value {
    let figures = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/backend/html/figures.js");
    let dir = crate::common::Scratch::new("page-ticks");
    let input = dir.path("cases.json");
    std::fs::write(&input, cases.to_string()).unwrap();
    let program = format!(
        "const fs = require('fs');\n\
         eval(fs.readFileSync({figures:?}, 'utf8'));\n\
         const F = hpgraphFigures, C = JSON.parse(fs.readFileSync({input:?}, 'utf8'));\n\
         process.stdout.write(JSON.stringify({script}));\n"
    );
    let out = Command::new("node")
        .args(["-e", &program])
        .output()
        .expect("node runs (the browser tests need it too)");
    crate::common::assert_ok(&out);
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The library's ticks as the script's: the same labels in order, values equal but for
/// the last bits of a product.
fn same(what: &str, ours: &[(f64, String)], theirs: &Value) {
    let theirs = theirs
        .as_array()
        .unwrap_or_else(|| panic!("{what}: {theirs}"));
    let labels: Vec<&str> = theirs.iter().map(|t| t[1].as_str().unwrap()).collect();
    let want: Vec<&str> = ours.iter().map(|t| t.1.as_str()).collect();
    assert_eq!(labels, want, "{what}");
    for ((v, _), t) in ours.iter().zip(theirs) {
        let w = t[0].as_f64().unwrap();
        assert!(
            (v - w).abs() <= 1e-9 * v.abs().max(1e-12),
            "{what}: {v} and {w}"
        );
    }
}

#[test]
fn the_pages_time_labels_are_the_pictures() {
    let mut cases = Cases(crate::common::Rng(0x9e37_79b9_7f4a_7c15));
    let windows = windows(&mut cases);
    let input: Vec<Value> = (windows.iter())
        .map(|w| json!([w.0, w.1, w.2, w.3]))
        .collect();
    let got = node(
        "C.map(c => F.timeAxis(c[0], c[1], c[2], c[3]))",
        &json!(input),
    );
    let mut units = [0; 4];
    for (k, &(a, b, target, seconds)) in windows.iter().enumerate() {
        let ours = time_axis(a, b, target, seconds);
        same(
            &format!("{a}..{b} at {target} (seconds: {seconds})"),
            &ours,
            &got[k],
        );
        let last = ours.last().map_or("", |t| t.1.as_str());
        units[match () {
            _ if last.ends_with(" ms") => 0,
            _ if last.ends_with(" s") => 1,
            _ if last.ends_with('m') || last.ends_with('h') => 2,
            _ => 3,
        }] += 1;
    }
    assert!(
        units.iter().all(|&n| n >= 50),
        "every kind of label, often: {units:?}"
    );
    // The 2-hour run reads as a clock; a close zoom into the 40 ms one in milliseconds.
    let label = |a, b| time_axis(a, b, 4.5, true).pop().unwrap().1;
    assert_eq!(
        (label(0.0, 7200.0), label(0.0312, 0.0318)),
        ("2h".into(), "31.8 ms".into())
    );
    // The 40 ms run reads in milliseconds at every width, the page's and the figure's:
    // not `0.00 s 0.01 s` where its step is a hundredth.
    for k in 0..=50 {
        let target = 2.0 + f64::from(k) / 10.0;
        let labels = time_axis(0.0, 0.04, target, true);
        assert!(
            labels.iter().all(|t| t.1.ends_with(" ms")),
            "{target}: {labels:?}"
        );
    }
}

#[test]
fn the_pages_value_and_rate_labels_are_the_pictures() {
    let mut cases = Cases(crate::common::Rng(0x2545_f491_4f6c_dd1d));
    for (page, scale) in scales() {
        let mut input = Vec::new();
        let mut ours = Vec::new();
        while input.len() < 1000 {
            let top = cases.magnitude(-0.5, 12.5);
            let target = cases.between(2.0, 7.0);
            let (height, em) = (cases.between(20.0, 240.0), cases.between(0.8, 1.6));
            input.push(json!([top, target, height, em]));
            ours.push((
                value_ticks(top, target, scale),
                rate_ticks(top, height, 15.0 * em, scale),
            ));
        }
        let script = "C.cases.map(c => { const W = F.writer(C.scale); \
            return [F.valueTicks(c[0], c[1], W), F.rateAxis(c[0], c[2], c[3], W)]; })";
        let got = node(script, &json!({"scale": page, "cases": input}));
        for (k, (values, rates)) in ours.iter().enumerate() {
            let what = format!("{scale:?} {}", input[k]);
            same(&format!("values {what}"), values, &got[k][0]);
            let (top, ticks) = rates.as_ref().expect("a positive peak");
            let theirs = &got[k][1];
            assert!(
                (top - theirs["top"].as_f64().unwrap()).abs() <= 1e-9 * top,
                "{what}"
            );
            same(&format!("rates {what}"), ticks, &theirs["ticks"]);
        }
    }
}
