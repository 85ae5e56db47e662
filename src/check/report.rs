//! The verdicts written out: one line a failure for people, and `--check-report`'s file
//! for machines: JSON (every condition, its value, pass or fail) or JUnit XML (one test
//! case a condition, which CI servers show as tests).

use std::io::{self, Write};

use serde::Serialize;

use super::Outcome;
use crate::escape;

/// The verdicts of one input (or of two runs compared).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Verdicts {
    /// The input, or `BEFORE → AFTER` for two runs.
    pub input: String,
    /// One verdict a condition, in the order they were given.
    pub conditions: Vec<Outcome>,
    /// Why none of the conditions could be judged on this input (it was not read
    /// whole): each is then an error, neither held nor failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unjudged: Option<String>,
}

impl Verdicts {
    /// Every condition of `checks` refused on `input` for `why`: "cannot be judged".
    pub fn unjudged(input: &str, checks: &[super::Check], why: String) -> Verdicts {
        let conditions = (checks.iter())
            .map(|c| Outcome::unjudged(c, &why))
            .collect();
        Verdicts {
            input: input.to_string(),
            conditions,
            unjudged: Some(why),
        }
    }

    /// Whether every condition holds.
    pub fn passed(&self) -> bool {
        self.unjudged.is_none() && self.conditions.iter().all(|o| o.passed)
    }

    /// One line a failed condition, for standard error:
    /// `prog.hp: check failed: peak 231 MB at 4.20 s > 200MB`.
    pub fn failures(&self) -> impl Iterator<Item = String> + '_ {
        let said = match &self.unjudged {
            Some(why) => format!("{}: cannot be judged: {why}", self.input),
            None => String::new(),
        };
        let unjudged = (self.unjudged.is_some()).then(|| escape::terminal(&said).into_owned());
        let failed = (self.conditions.iter())
            .filter(|o| !o.passed && self.unjudged.is_none())
            .map(|o| {
                escape::terminal(&format!("{}: check failed: {}", self.input, o.message))
                    .into_owned()
            });
        unjudged.into_iter().chain(failed)
    }
}

/// A report of every input's verdicts.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// The JSON layout's version.
    pub version: u32,
    /// Whether every condition of every input holds.
    pub passed: bool,
    /// Each input's verdicts.
    pub inputs: Vec<Verdicts>,
}

impl Report {
    /// The report of these verdicts.
    pub fn of(inputs: Vec<Verdicts>) -> Report {
        Report {
            version: 1,
            passed: inputs.iter().all(Verdicts::passed),
            inputs,
        }
    }
}

/// A report's format, by its file's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReportFormat {
    /// `.json`.
    Json,
    /// `.xml`: JUnit's.
    JUnit,
}

impl ReportFormat {
    /// The format a file name asks for; `None` for any other ending.
    pub fn of(name: &str) -> Option<ReportFormat> {
        let name = name.to_ascii_lowercase();
        if name.ends_with(".json") {
            Some(ReportFormat::Json)
        } else if name.ends_with(".xml") {
            Some(ReportFormat::JUnit)
        } else {
            None
        }
    }
}

/// Writes `report` in `format`.
pub fn write(report: &Report, format: ReportFormat, out: &mut dyn Write) -> io::Result<()> {
    match format {
        ReportFormat::Json => {
            escape::json_to(out, report, true)?;
            writeln!(out)
        }
        ReportFormat::JUnit => junit(report, out),
    }
}

/// JUnit XML as Ant's JUnit task writes it and CI servers read it: a `testsuite` per
/// input, a `testcase` per condition, a `failure` for one that fails (its message the
/// line printed on standard error); the measured value of one that holds in its
/// `system-out`. Times are 0: a condition takes no time to judge.
fn junit(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    let failures = |v: &Verdicts| match v.unjudged {
        Some(_) => 0,
        None => v.conditions.iter().filter(|o| !o.passed).count(),
    };
    let errors = |v: &Verdicts| match v.unjudged {
        Some(_) => v.conditions.len(),
        None => 0,
    };
    let tests: usize = report.inputs.iter().map(|v| v.conditions.len()).sum();
    let failed: usize = report.inputs.iter().map(failures).sum();
    let errored: usize = report.inputs.iter().map(errors).sum();
    writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#)?;
    writeln!(
        out,
        r#"<testsuites name="hpgraph --check" tests="{tests}" failures="{failed}" errors="{errored}" time="0">"#
    )?;
    for (id, v) in report.inputs.iter().enumerate() {
        let name = escape::xml(&v.input);
        writeln!(
            out,
            r#"  <testsuite name="{name}" id="{id}" tests="{}" failures="{}" errors="{}" skipped="0" time="0">"#,
            v.conditions.len(),
            failures(v),
            errors(v)
        )?;
        for o in &v.conditions {
            let message = escape::xml(&o.message);
            write!(
                out,
                r#"    <testcase classname="hpgraph.check.{name}" name="{}" time="0">"#,
                escape::xml(&o.condition)
            )?;
            if v.unjudged.is_some() {
                write!(
                    out,
                    r#"<error type="cannot be judged" message="{message}">{message}</error>"#
                )?;
            } else if o.passed {
                write!(out, "<system-out>{message}</system-out>")?;
            } else {
                write!(
                    out,
                    r#"<failure type="check" message="{message}">{message}</failure>"#
                )?;
            }
            writeln!(out, "</testcase>")?;
        }
        writeln!(out, "  </testsuite>")?;
    }
    writeln!(out, "</testsuites>")
}
