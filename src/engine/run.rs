//! One job, start to end, the same on every path: the one-shot command line, `--watch`,
//! `--serve`, `--compare` and a program using the library. A profile as read becomes
//! what the job makes of it in one call ([`run`], [`run_compare`]): the retainer sets
//! named from the run's report, the filter's part kept, the conditions judged, the
//! output rendered. What a reader should be told is handed to the caller as it happens
//! ([`Notice`]); what to print, and where the output goes, is the caller's.

use std::path::Path;

use super::model::{ProfileKind, dispatch};
use super::{Compared, Error, Job, Rendered, compare, judge, judge_change, render};
use crate::check::{Check, report::Verdicts};
use crate::input::prof::retainers::Sets;
use crate::input::symbols::{self, InfoNames};
use crate::input::{Parsed, Warning};
use crate::profile::{Model, Profile};
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
pub enum Notice<'a> {
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
pub type OnNotice<'t> = &'t mut dyn FnMut(&str, Notice);

/// The profile a job renders of `input`: its warnings said, what of the input it does
/// not hold kept in it (every view says so), a retainer profile's sets named, the
/// filter's part kept ([`super::subject`]). An `Err` says why nothing can be made of it,
/// naming the input or the report at fault.
pub fn prepare(job: &Job, input: Input, tell: OnNotice) -> Result<Model, Error> {
    let Input { name, parsed, sets } = input;
    // A window bounded by markers is a window of this run only once its markers make it
    // times: taken as no bound at all, every path would answer for the whole run.
    if job.filter.by_marks() {
        return Err(Error::unfit(
            "the window is bounded by markers not yet found: make the job of this run \
             with Job::at_marks (the command line does) before the engine reads it",
        )
        .of(name));
    }
    for w in &parsed.warnings {
        tell(name, Notice::Warning(w));
    }
    let loss = parsed.loss();
    dispatch!(parsed.profile, k => {
        let mut k = k;
        k.series_mut().loss = loss;
        prepared(job, name, k, sets, tell).map(Into::into)
    })
}

/// [`prepare`] of one model.
fn prepared<K: ProfileKind>(
    job: &Job,
    name: &str,
    mut model: K,
    sets: Sets,
    tell: OnNotice,
) -> Result<K, Error> {
    if let Some(binary) = &job.binary {
        name_info_tables(name, model.series_mut(), binary, tell);
    }
    match model.name_sets(sets) {
        Ok(Some(named)) => {
            let bands = model.series().bands.len();
            let (report, count) = (&named.report, named.count);
            tell(
                name,
                Notice::SetsNamed {
                    report,
                    count,
                    bands,
                },
            );
        }
        Ok(None) => {}
        Err(e) if matches!(sets, Sets::Awaited(_)) => tell(name, Notice::SetsUnread(&e)),
        Err(e) => return Err(Error::Sets(e)),
    }
    let kept = model.subject(job).map_err(|e| e.of(name))?;
    for note in &kept.notes {
        tell(name, Notice::Note(note));
    }
    Ok(kept.profile)
}

/// `--binary`: a `-hi` profile's address bands named from the program's symbols
/// ([`symbols::name_bands`]), and what could not be named said.
fn name_info_tables(name: &str, profile: &mut Profile, binary: &InfoNames, tell: OnNotice) {
    let program = binary.path.display();
    if binary.is_empty() {
        let note = match binary.in_table {
            0 => format!(
                "--binary {program} has no symbol table (it was stripped): its info tables \
                 stay addresses; give the program as built, before strip, or build with \
                 -finfo-table-map (GHC 9.2 on) for names in the eventlog itself"
            ),
            n => format!(
                "--binary {program} has {n} symbols, none of them in its code (a section \
                 marked executable): its info tables stay addresses; give the program the \
                 profile is of, as built"
            ),
        };
        return tell(name, Notice::Note(&note));
    }
    if binary.cut {
        let note = format!(
            "--binary {program} has more than {} symbols: the rest are left out, and \
             tables among them stay addresses",
            symbols::MAX_SYMBOLS
        );
        tell(name, Notice::Note(&note));
    }
    let named = symbols::name_bands(profile, binary);
    let note = match named {
        symbols::Named {
            exact: 0,
            near: 0,
            left: 0,
        } => "--binary names the bands of a profile by info table (+RTS -hi): this one \
              has no band named by an address"
            .to_owned(),
        symbols::Named {
            near: 0, left: 0, ..
        } => return,
        symbols::Named { exact, near, left } => format!(
            "--binary {program}: {exact} info tables named by their symbol, {near} by the \
             symbol before them (a guess, shown `near NAME ADDRESS`: a closure local to \
             that code), {left} left as addresses (no symbol near them)"
        ),
    };
    tell(name, Notice::Note(&note));
}

/// `input` made into what `job` asks, with `checks` judged on it first (a condition that
/// cannot be judged is an error, and nothing is rendered). `aux` is an earlier run's
/// `.aux` (`-p`). The rendering's own notes are said before it is returned.
pub fn run<'a>(
    job: &'a Job,
    input: Input,
    aux: Option<&Aux>,
    checks: &[Check],
    tell: OnNotice,
) -> Result<(Rendered<'a>, Option<Verdicts>), Error> {
    let name = input.name;
    if let super::View::Compare(_) = job.view {
        return Err(Error::unfit(
            "--compare reads two runs: engine::run_compare makes a comparison",
        )
        .of(name));
    }
    let Ready { model, verdicts } = ready(job, input, checks, tell)?;
    let rendered = render(&job.view, model, aux);
    for note in rendered.notes() {
        tell(name, Notice::Note(note));
    }
    Ok((rendered, verdicts))
}

/// The profile a job renders of an input, and its conditions' verdicts: [`ready`].
#[derive(Debug)]
pub struct Ready {
    /// The profile, [`prepare`]d.
    pub model: Model,
    /// The verdicts of the conditions (`None` without any); each "cannot be judged"
    /// where the input was not read whole and `--check-partial` does not accept a part.
    pub verdicts: Option<Verdicts>,
}

/// `input` [`prepare`]d and `checks` judged on it: the first half of [`run`], which a
/// live view makes at every redraw before it draws the page and the file (each redraw's
/// verdicts are the run's so far; the last one's, the run's).
pub fn ready(job: &Job, input: Input, checks: &[Check], tell: OnNotice) -> Result<Ready, Error> {
    let name = input.name;
    let unread = super::judge::unread(job, &input.parsed).filter(|_| !checks.is_empty());
    let model = prepare(job, input, tell)?;
    let verdicts = match unread {
        Some(why) => Some(Verdicts::unjudged(name, checks, why)),
        None => judge(job, checks, name, &model)?,
    };
    Ok(Ready { model, verdicts })
}

/// A job whose view is a comparison ([`super::View::Compare`]): two runs, each prepared
/// as one run is ([`prepare`]), `checks` judged on the change from `before` to `after`,
/// and the two drawn or written side by side in the comparison's view of each (its
/// `normalised`: each on 0–100% of its own time). Two cost profiles are compared as
/// such (their differential flame graph); otherwise, as two runs' censuses. A job of
/// another view is refused: it makes one run's output ([`run`]).
pub fn run_compare<'a>(
    job: &'a Job,
    [before, after]: [Input; 2],
    checks: &[Check],
    tell: OnNotice,
) -> Result<(Compared<'a>, Option<Verdicts>), Error> {
    let super::View::Compare(view) = &job.view else {
        return Err(Error::unfit(
            "a comparison's job compares two runs: ask for one with --compare \
             (Request::compare), or make one run's output with engine::run",
        ));
    };
    let normalised = view.normalised;
    let names = [before.name.to_string(), after.name.to_string()];
    let unread = [&before, &after]
        .iter()
        .find_map(|i| super::judge::unread(job, &i.parsed).map(|why| format!("{}: {why}", i.name)))
        .filter(|_| !checks.is_empty());
    let runs = [prepare(job, before, tell)?, prepare(job, after, tell)?];
    let judged = if unread.is_some() { &[][..] } else { checks };
    let (made, verdicts) = match runs {
        [Model::Costs(b), Model::Costs(a)] => {
            compared(job, names.clone(), [b, a], normalised, judged)
        }
        [b, a] => compared(
            job,
            names.clone(),
            [b.into_series(), a.into_series()],
            normalised,
            judged,
        ),
    }?;
    let verdicts = match unread {
        Some(why) => Some(Verdicts::unjudged(
            &format!("{} → {}", names[0], names[1]),
            checks,
            why,
        )),
        None => verdicts,
    };
    Ok((made, verdicts))
}

/// [`run_compare`] of two runs of one model.
fn compared<'a, K: ProfileKind>(
    job: &'a Job,
    [bn, an]: [String; 2],
    [b, a]: [K; 2],
    normalised: bool,
    checks: &[Check],
) -> Result<(Compared<'a>, Option<Verdicts>), Error> {
    // Refused before a condition is judged: a verdict over two kinds is no verdict.
    super::compare::comparable(job.view.of_each_run(), [&bn, &an], b.series(), a.series())
        .map_err(Error::Compare)?;
    let verdicts = judge_change(job, checks, (&bn, &b), (&an, &a))?;
    let window = (job.filter.from, job.filter.to);
    let compared = compare(
        job.view.of_each_run(),
        window,
        [(bn, b), (an, a)],
        normalised,
    )?;
    Ok((compared, verdicts))
}
