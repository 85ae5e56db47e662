//! `--check` and `--check-report` on the command line: the conditions read once (a
//! condition that does not read is a usage error before anything is read or written),
//! and the run's verdicts turned into lines on stderr, the report file and the exit
//! status. Measuring and judging is [`crate::check`]'s.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::error::ErrorKind;

use super::Args;
use super::settings::UsageError;
use crate::check::report::{self, Report, ReportFormat, Verdicts};
use crate::check::{self, Check};

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

/// `--check`'s full help: the grammar, every figure and the exit statuses.
pub fn long_help() -> String {
    format!(
        "Exit 1 unless CONDITION holds (repeatable; all must hold)\n\n\
         A figure, a comparison (<=, <, >=, >, ==, !=) and a bound with its unit: bytes \
         (B, kB, MB, GB, KiB, MiB, GiB), times (µs, ms, s), shares (%), rates (MB/s). \
         The figures are --summary's and --stats' names, over --from/--to's window:\n\n\
         {}\n\
         Examples: 'peak <= 200MB', 'max_pause <= 10ms', 'allocated <= 5GB', \
         \"band('Data\\.Map') peak <= 50MB\", 'trend(total) != growing', 'waste <= 30%'.\n\n\
         With --compare BEFORE AFTER a signed bound is a change from BEFORE to AFTER: \
         'peak <= +5%' (relative), 'band(Map) mean <= +1MB', 'gc_share <= +2pp' \
         (percentage points); an unsigned bound judges AFTER.\n\n\
         The picture or data is still written. Exit status: 0 when every condition holds; \
         1 when one fails (one line each on stderr, as 'prog.hp: check failed: peak 231 MB \
         at 4.20 s > 200MB'); 2 when nothing could be checked (an unknown figure, a unit \
         that does not fit, a band the profile lacks, an input that cannot be read).",
        check::figures_help()
    )
}

/// Reads `--check` and `--check-report`; `compare` and `live` say what the run is.
pub fn resolve(args: &Args, compare: bool, live: bool) -> Result<Checks, UsageError> {
    let bad = |message: String| UsageError {
        kind: ErrorKind::ValueValidation,
        message,
    };
    let mut conditions = Vec::with_capacity(args.check.len());
    for text in &args.check {
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
    if live && !conditions.is_empty() {
        return Err(UsageError {
            kind: ErrorKind::ArgumentConflict,
            message: "--check judges a finished run: not with --watch, --serve or --connect".into(),
        });
    }
    let report = match &args.check_report {
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
/// read or judged: nothing is reported).
pub fn finish(checks: &Checks, verdicts: Vec<Verdicts>, unjudged: bool) -> ExitCode {
    if unjudged {
        return ExitCode::from(2);
    }
    for v in &verdicts {
        for line in v.failures() {
            eprintln!("hpgraph: {line}");
        }
    }
    let report = Report::of(verdicts);
    if let Some((path, format)) = &checks.report
        && let Err(e) = crate::sink::write_file(path, |w| report::write(&report, *format, w))
    {
        eprintln!(
            "hpgraph: {}: cannot write the check report: {e}",
            path.display()
        );
        return ExitCode::from(2);
    }
    if report.passed {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
