//! One rendering, start to end, as the command line asks: read each input, hand the
//! profile to the engine ([`hpgraph::engine`]), say what it noted, and write what it made
//! to its files (the picture, `--key file`'s key, the `.aux` file) or standard output.
//! What is computed or drawn is the engine's; this names, reads, prints and writes.

use anyhow::Context;

use super::Timings;
use super::naming::{Output, Plan};
use super::settings::Compare;
use hpgraph::check::{Check, report::Verdicts};
use hpgraph::engine::{self, Job, Notice, Rendered, Tally};
use hpgraph::select::aux::{self as auxfile, Aux};
use hpgraph::sink;

/// Reads one input as `plan` says, has the engine make it ([`engine::run`]: `checks`
/// judged first, a condition that cannot be judged an error, and nothing written) and
/// writes what it made.
pub(crate) fn render_one(
    job: &Job,
    plan: &Plan,
    checks: &[Check],
) -> anyhow::Result<Option<Verdicts>> {
    let name = plan.input.display();
    let mut timings = Timings::start();
    let parsed = plan.input.read(job.read)?;
    timings.lap("parse");
    // `--from mark:TEXT`: this run's markers make the window.
    let resolved = job.at_marks(&name, parsed.profile.series())?;
    let job = resolved.as_ref().unwrap_or(job);
    let aux = reused_aux(job, plan)?;
    let input = engine::Input {
        name: &name,
        parsed,
        sets: plan.sets(),
    };
    let (ready, verdicts) = engine::run(job, input, aux.as_ref(), checks, &mut say)?;
    timings.lap("select and layout");
    write(plan, &ready)?;
    timings.lap("write");
    Ok(verdicts)
}

/// Prints what the engine says of an input: a warning as `hpgraph: warning: FILE:LINE:
/// what`, a note as `hpgraph: warning: FILE: what`, and which report named a retainer
/// profile's sets.
pub(crate) fn say(name: &str, said: Notice) {
    match said {
        Notice::Warning(w) => match w.line {
            Some(line) => say!("warning: {name}:{line}: {w}"),
            None => say!("warning: {name}: {w}"),
        },
        Notice::Note(note) | Notice::SetsUnread(note) => {
            say!("warning: {name}: {note}")
        }
        Notice::SetsNamed {
            report,
            count,
            bands,
        } => say!(
            "{name}: retainer sets named from {} ({count} of {bands} bands; GHC \
             lists the sets it holds when the run ends)",
            report.display()
        ),
    }
}

/// Writes what the engine made as `plan` says: the output, then `--key file`'s key
/// beside a picture, then the `.aux` file.
pub(crate) fn write(plan: &Plan, ready: &Rendered) -> anyhow::Result<Tally> {
    plan.output.write(|w| ready.write(w))?;
    if let (Output::File(picture), Some(key)) = (&plan.output, ready.key()) {
        let path = super::naming::key_file(picture);
        sink::write_file(&path, key)
            .with_context(|| format!("{}: cannot write the key", path.display()))?;
    }
    if let (Some(path), Some(selection)) = (&plan.aux, ready.selection()) {
        sink::write_file(path, |w| auxfile::write(selection, w))
            .with_context(|| format!("{}: cannot write the .aux file", path.display()))?;
    }
    Ok(ready.drawn())
}

/// `--same-scale`: every input read for [`engine::same_scale`]. An input that cannot
/// be read is left to the rendering, which reports it.
pub(crate) fn same_scale(job: &mut Job, plans: &[Plan], axes: hpgraph::select::Axes) {
    let read = job.read;
    let profiles = (plans.iter())
        .filter_map(|plan| plan.input.read(read).ok())
        .map(|parsed| parsed.profile.into_series());
    engine::same_scale(job, profiles, axes);
}

/// `--compare`: reads both runs, has the engine compare them ([`engine::run_compare`],
/// `checks` judged on the two) and writes what it made.
pub(crate) fn compare(
    job: &Job,
    compare: &Compare,
    checks: &[Check],
) -> anyhow::Result<Option<Verdicts>> {
    let names = compare.inputs.clone().map(|input| input.display());
    let mut parsed = Vec::with_capacity(2);
    for input in &compare.inputs {
        parsed.push(input.read(job.read)?);
    }
    // `--from mark:TEXT`: each run's markers would make a window of its own; one
    // window of both is what a comparison holds.
    if job.filter.by_marks() {
        anyhow::bail!(
            "--from/--to mark:TEXT bound one run's window by its markers: with --compare \
             give times (each run's markers: hpgraph RUN --summary lists them)"
        );
    }
    let after = parsed.pop().expect("two runs");
    let before = parsed.pop().expect("two runs");
    // Each run's retainer sets, as one run's are named.
    let input = |i: usize, parsed| engine::Input {
        name: &names[i],
        parsed,
        sets: Plan::sets_of(&compare.inputs[i], compare.sets.as_deref()),
    };
    let inputs = [input(0, before), input(1, after)];
    let (compared, verdicts) = engine::run_compare(job, inputs, checks, &mut say)?;
    compare.output.write(|out| compared.write(out))?;
    Ok(verdicts)
}

/// `-p`: the `.aux` file of an earlier run, read for a picture's order, shades and
/// ranges.
pub(crate) fn reused_aux(job: &Job, plan: &Plan) -> anyhow::Result<Option<Aux>> {
    Ok(match (&plan.aux, plan.reuse_aux, &job.view) {
        (Some(path), true, view) if view.picture().is_some() => Some(engine::read_aux(path)?),
        _ => None,
    })
}
