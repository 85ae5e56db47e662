//! One job, start to end, the same on every path: the one-shot command line, `--watch`,
//! `--serve`, `--compare` and a program using the library. A profile as read becomes
//! what the job makes of it in one call ([`run`], [`run_compare`]): the retainer sets
//! named from the run's report, the filter's part kept, the conditions judged, the
//! output rendered. What a reader should be told is handed to the caller as it happens
//! ([`Said`]); what to print, and where the output goes, is the caller's.

use std::path::Path;

use super::{Compared, Job, Rendered, compare, judge, judge_change, kept, render};
use crate::check::{Check, report::Verdicts};
use crate::input::prof::retainers::{self, Sets};
use crate::input::{Parsed, Warning};
use crate::profile::Profile;
use crate::select::aux::Aux;

/// One input as the engine takes it.
#[derive(Debug)]
pub struct Input<'a> {
    /// How messages name it (its file's name, `-` for standard input).
    pub name: &'a str,
    /// The profile as read, with the reader's warnings.
    pub parsed: Parsed,
    /// Where a retainer profile's sets are looked for.
    pub sets: Sets<'a>,
}

/// What the engine tells a reader of an input, as it happens.
#[derive(Debug)]
pub enum Said<'a> {
    /// The reader's warning (with its line where it has one).
    Warning(&'a Warning),
    /// An option that does nothing for this profile, or a limit reached: said rather
    /// than refused.
    Note(&'a str),
    /// A retainer profile's sets were named from `report`: `count` of its `bands`.
    SetsNamed {
        /// The report.
        report: &'a Path,
        /// How many bands it named.
        count: usize,
        /// The profile's bands.
        bands: usize,
    },
    /// The sets of a profile still being written could not be named yet: why
    /// ([`Sets::Awaited`]).
    SetsUnread(&'a str),
}

/// Someone told what the engine says of an input: the input's name and what.
pub type Tell<'t> = &'t mut dyn FnMut(&str, Said);

/// The profile a job renders of `input`: its warnings said, a retainer profile's sets
/// named, the filter's part kept ([`kept`]). An `Err` says why nothing can be made of
/// it, naming the input or the report at fault.
pub fn prepare(job: &Job, input: Input, tell: Tell) -> Result<Profile, String> {
    let Input { name, parsed, sets } = input;
    for w in &parsed.warnings {
        tell(name, Said::Warning(w));
    }
    let mut profile = parsed.profile;
    match retainers::name_from_report(&mut profile, sets) {
        Ok(Some(named)) => {
            let bands = profile.bands.len();
            let (report, count) = (&named.report, named.count);
            tell(
                name,
                Said::SetsNamed {
                    report,
                    count,
                    bands,
                },
            );
        }
        Ok(None) => {}
        Err(e) if matches!(sets, Sets::Awaited(_)) => tell(name, Said::SetsUnread(&e)),
        Err(e) => return Err(e),
    }
    let kept = kept(job, profile).map_err(|e| format!("{name}: {e}"))?;
    for note in &kept.notes {
        tell(name, Said::Note(note));
    }
    Ok(kept.profile)
}

/// `input` made into what `job` asks, with `checks` judged on it first (a condition that
/// cannot be judged is an error, and nothing is rendered). `aux` is an earlier run's
/// `.aux` (`-p`). The rendering's own notes are said before it is returned.
pub fn run<'a>(
    job: &'a Job,
    input: Input,
    aux: Option<&Aux>,
    checks: &[Check],
    tell: Tell,
) -> Result<(Rendered<'a>, Option<Verdicts>), String> {
    let name = input.name;
    let profile = prepare(job, input, tell)?;
    let verdicts = judge(job, checks, name, &profile).map_err(|e| e.to_string())?;
    let rendered = render(&job.make, profile, aux);
    for note in rendered.notes() {
        tell(name, Said::Note(note));
    }
    Ok((rendered, verdicts))
}

/// `--compare`: two runs, each prepared as one run is ([`prepare`]), `checks` judged on
/// the change from `before` to `after`, and the two drawn or written side by side
/// (`normalised`: each as shares of its own peak).
pub fn run_compare<'a>(
    job: &'a Job,
    [before, after]: [Input; 2],
    normalised: bool,
    checks: &[Check],
    tell: Tell,
) -> Result<(Compared<'a>, Option<Verdicts>), String> {
    let before = (before.name.to_string(), prepare(job, before, tell)?);
    let after = (after.name.to_string(), prepare(job, after, tell)?);
    let verdicts = judge_change(job, checks, (&before.0, &before.1), (&after.0, &after.1))
        .map_err(|e| e.to_string())?;
    let window = (job.filter.from, job.filter.to);
    let compared = compare(&job.make, window, [before, after], normalised)?;
    Ok((compared, verdicts))
}
