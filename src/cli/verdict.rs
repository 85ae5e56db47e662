//! `--check` and `--check-report` on the command line: the conditions read once (a
//! condition that does not read is a usage error before anything is read or written),
//! and the run's verdicts turned into lines on stderr, the report file and the exit
//! status. Measuring and judging is [`hpgraph::check`]'s.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::error::ErrorKind;

use hpgraph::check::report::{self, Report, ReportFormat, Verdicts};
use hpgraph::check::{self, Check};

/// The conditions and where their report goes.
#[derive(Debug, Clone, Default)]
pub struct Checks {
    /// `--check`, in the order given.
    pub conditions: Vec<Check>,
    /// `--check-report`: the file and its format.
    pub report: Option<(PathBuf, ReportFormat)>,
}

impl Checks {
    /// Whether any condition is to be judged.
    pub fn any(&self) -> bool {
        !self.conditions.is_empty()
    }
}

/// Reads `--check`'s conditions and `--check-report`'s file; `compare` says what the
/// run is. (A live view judges them at each redraw, and its last redraw's verdicts are
/// the run's.) A condition that does not read, or does not fit the run, is a usage
/// error: clap's kind and what to do.
pub fn resolve(
    check: &[String],
    check_report: Option<&PathBuf>,
    compare: bool,
) -> Result<Checks, (ErrorKind, String)> {
    let bad = |message: String| (ErrorKind::ValueValidation, message);
    let mut conditions = Vec::with_capacity(check.len());
    for text in check {
        let c = check::parse(text).map_err(|e| bad(format!("--check: {e}")))?;
        if c.is_change() && !compare {
            return Err(bad(format!(
                "--check '{}' bounds a change between two runs: give them with --compare \
                 BEFORE AFTER, or write the bound unsigned",
                c.text
            )));
        }
        conditions.push(c);
    }
    let report = match check_report {
        None => None,
        Some(path) => match ReportFormat::of(&path.to_string_lossy()) {
            Some(f) => Some((path.clone(), f)),
            None => {
                return Err(bad(format!(
                    "--check-report {}: name a .json file (every verdict) or a .xml file \
                     (JUnit, for CI servers)",
                    path.display()
                )));
            }
        },
    };
    Ok(Checks { conditions, report })
}

/// Says what the verdicts are and writes their report; the run's exit status: 0 when
/// every condition held, 1 when one failed, 2 when `unjudged` (an input could not be
/// read or judged: nothing is reported) or an input was not read whole (its conditions
/// "cannot be judged", errors in the report).
pub fn finish(checks: &Checks, verdicts: Vec<Verdicts>, unjudged: bool) -> ExitCode {
    if unjudged {
        return ExitCode::from(2);
    }
    for v in &verdicts {
        for line in v.failures() {
            say!("{line}");
        }
    }
    let report = Report::of(verdicts);
    if let Some((path, format)) = &checks.report
        && let Err(e) = hpgraph::sink::write_file(path, |w| report::write(&report, *format, w))
    {
        say!("{}: cannot write the check report: {e}", path.display());
        return ExitCode::from(2);
    }
    if report.inputs.iter().any(|v| v.unjudged.is_some()) {
        ExitCode::from(2)
    } else if report.passed {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
