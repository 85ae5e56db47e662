//! One rendering, start to end, as the command line asks: read each input, hand the
//! profile to the engine ([`crate::engine`]), say what it noted, and write what it made
//! to its files (the picture, `--key file`'s key, the `.aux` file) or standard output.
//! What is computed or drawn is the engine's; this names, reads, prints and writes.

use std::fs::File;
use std::io::{self, Write};

use anyhow::Context;

use super::naming::{Input, Output, Plan};
use super::settings::Compare;
use crate::check::{Check, report::Verdicts};
use crate::engine::{self, Data, Drawn, Job, Make};
use crate::error::Error;
use crate::input::{self, Parsed};
use crate::profile::Profile;
use crate::select::aux::{self as auxfile, Aux};
use crate::sink;

/// Prints how long each stage took when `HPGRAPH_TIMINGS` is set (for benchmarks).
pub(crate) struct Timings(pub(crate) Option<std::time::Instant>);

impl Timings {
    pub(crate) fn start() -> Self {
        Timings(std::env::var_os("HPGRAPH_TIMINGS").map(|_| std::time::Instant::now()))
    }
    pub(crate) fn lap(&mut self, stage: &str) {
        if let Some(t) = &mut self.0 {
            eprintln!(
                "hpgraph: {stage}: {:.1} ms",
                t.elapsed().as_secs_f64() * 1e3
            );
            *t = std::time::Instant::now();
        }
    }
}

/// Reads, draws and writes one input as `plan` says, judging `checks` on it first (a
/// condition that cannot be judged is an error, and nothing is written).
pub(crate) fn render_one(
    job: &Job,
    plan: &Plan,
    checks: &[Check],
) -> anyhow::Result<Option<Verdicts>> {
    let name = plan.input.display();
    let mut timings = Timings::start();
    let parsed = read_profile(&plan.input, job.read)?;
    timings.lap("parse");
    for w in &parsed.warnings {
        print_warning(&name, w);
    }
    let mut profile = parsed.profile;
    name_retainer_sets(plan, &mut profile, true)?;
    let (_, verdicts) = draw(job, plan, profile, &mut timings, checks)?;
    Ok(verdicts)
}

/// A retainer profile (`-hr`) read from `STEM.hp` or `STEM.eventlog` takes its bands'
/// retainer sets in full from the same run's report: `--retainer-sets FILE`, or
/// `STEM.prof` where it is beside it and lists them; stderr says which file named them.
/// The bands keep GHC's names. A file named with the option that cannot be read, or
/// lists no set, is an error; `STEM.prof` is only looked for.
/// `say`: print which file named the sets (a live view says it once). Whether any set
/// was named.
pub(crate) fn name_retainer_sets(
    plan: &Plan,
    profile: &mut Profile,
    say: bool,
) -> anyhow::Result<bool> {
    use crate::input::prof::{MAX_BYTES, retainers};
    let named = plan.sets.is_some();
    let report = match (&plan.sets, &plan.input) {
        (Some(file), _) => file.clone(),
        (None, Input::File(path)) if retainers::is_retainer_profile(profile) => {
            let report = path.with_extension("prof");
            if report == *path {
                return Ok(false);
            }
            report
        }
        _ => return Ok(false),
    };
    let shown = report.display();
    // A report is read whole only up to the readers' bound (`input::prof::MAX_BYTES`).
    let size = std::fs::metadata(&report).map(|m| (m.is_file(), m.len()));
    let text = match size {
        Ok((true, len)) if len <= MAX_BYTES as u64 => std::fs::read(&report),
        Ok((true, _)) if named => anyhow::bail!("{shown}: longer than {MAX_BYTES} bytes"),
        Ok((false, _)) if named => anyhow::bail!(
            "{shown}: not a file: --retainer-sets reads the .prof the -hr run wrote beside \
             its .hp"
        ),
        Err(e) if named => Err(e),
        _ => return Ok(false),
    };
    let text = match text {
        Ok(text) => text,
        Err(e) if named => anyhow::bail!("{shown}: cannot read the retainer sets: {e}"),
        Err(_) => return Ok(false),
    };
    let Some(count) = retainers::attach(profile, &text) else {
        anyhow::ensure!(
            !named,
            "{shown}: no retainer sets here (a retainer profile's run, +RTS -hr, lists them \
             at the end of its .prof)"
        );
        return Ok(false);
    };
    if say {
        eprintln!(
            "hpgraph: {}: retainer sets named from {shown} ({count} of {} bands; GHC lists \
             the sets it holds when the run ends)",
            plan.input.display(),
            profile.bands.len()
        );
    }
    Ok(true)
}

/// Prints a parser warning as `hpgraph: warning: FILE:LINE: what`.
pub(crate) fn print_warning(name: &str, w: &input::Warning) {
    match w.line {
        Some(line) => eprintln!("hpgraph: warning: {name}:{line}: {w}"),
        None => eprintln!("hpgraph: warning: {name}: {w}"),
    }
}

/// Prints what the engine noted of an output as `hpgraph: warning: FILE: what`.
pub(crate) fn print_notes(name: &str, notes: &[String]) {
    for note in notes {
        eprintln!("hpgraph: warning: {name}: {note}");
    }
}

/// Prepares a profile for `plan`'s output, judges `checks` on it, writes it, then the
/// `.aux` file (read first when the plan reuses it).
pub(crate) fn draw(
    job: &Job,
    plan: &Plan,
    profile: Profile,
    timings: &mut Timings,
    checks: &[Check],
) -> anyhow::Result<(Drawn, Option<Verdicts>)> {
    let aux = match (&plan.aux, plan.reuse_aux, &job.make) {
        (Some(path), true, Make::Picture(_)) => Some(read_aux(path)?),
        _ => None,
    };
    let name = plan.input.display();
    let profile = filtered(job, &name, profile)?;
    let verdicts = engine::judge(job, checks, &name, &profile).map_err(anyhow::Error::msg)?;
    let ready = engine::render(&job.make, profile, aux.as_ref());
    print_notes(&name, ready.notes());
    timings.lap("select and layout");
    write_output(plan, |w| ready.write(w))?;
    if let (Output::File(picture), Some(key)) = (&plan.output, ready.key()) {
        let path = super::naming::key_file(picture);
        sink::write_file(&path, key)
            .with_context(|| format!("{}: cannot write the key", path.display()))?;
    }
    timings.lap("write");
    if let (Some(path), Some(selection)) = (&plan.aux, ready.selection()) {
        sink::write_file(path, |w| auxfile::write(selection, w))
            .with_context(|| format!("{}: cannot write the .aux file", path.display()))?;
    }
    Ok((ready.drawn(), verdicts))
}

/// The profile the job renders ([`engine::kept`]), or why none, naming the input.
pub(crate) fn filtered(job: &Job, name: &str, profile: Profile) -> anyhow::Result<Profile> {
    let kept = engine::kept(job, profile).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
    print_notes(name, &kept.notes);
    Ok(kept.profile)
}

/// `--same-scale`: the largest ranges of all the inputs on `axes` (as each would be
/// drawn: filtered, then selected) become every picture's least ranges. An input that
/// cannot be read is left to the rendering, which reports it.
pub(crate) fn same_scale(job: &mut Job, plans: &[Plan], axes: crate::select::Axes) {
    let select = match &mut job.make {
        Make::Picture(p) => &mut p.select,
        Make::Data(Data {
            select: Some(s), ..
        }) => s,
        Make::Data(_) => return,
    };
    for plan in plans {
        if let Ok(parsed) = read_profile(&plan.input, job.read)
            && let Ok(profile) = job.filter.apply(parsed.profile)
        {
            crate::select::widen(select, &profile, axes);
        }
    }
}

/// `--compare`: reads both runs, keeps what the job renders of each, judges `checks` on
/// the two, and writes what the engine makes of them.
pub(crate) fn compare(
    job: &Job,
    compare: &Compare,
    checks: &[Check],
) -> anyhow::Result<Option<Verdicts>> {
    let mut runs = Vec::with_capacity(2);
    for input in &compare.inputs {
        let name = input.display();
        let parsed = read_profile(input, job.read)?;
        for w in &parsed.warnings {
            print_warning(&name, w);
        }
        let mut profile = parsed.profile;
        // Each run's retainer sets, as one run's are named.
        let plan = Plan {
            input: input.clone(),
            output: Output::Stdout,
            aux: None,
            reuse_aux: false,
            sets: compare.sets.clone(),
        };
        name_retainer_sets(&plan, &mut profile, true)?;
        let profile = filtered(job, &name, profile)?;
        runs.push((name, profile));
    }
    let after = runs.pop().expect("two runs");
    let before = runs.pop().expect("two runs");
    let window = (job.filter.from, job.filter.to);
    let verdicts = engine::judge_change(job, checks, (&before.0, &before.1), (&after.0, &after.1))
        .map_err(anyhow::Error::msg)?;
    let compared = engine::compare(&job.make, window, [before, after], compare.normalised)
        .map_err(|e| anyhow::anyhow!(e))?;
    let plan = Plan {
        input: compare.inputs[0].clone(),
        output: compare.output.clone(),
        aux: None,
        reuse_aux: false,
        sets: None,
    };
    write_output(&plan, |out| compared.write(out))?;
    Ok(verdicts)
}

/// Writes the output of `plan` atomically (or to standard output).
pub(crate) fn write_output(
    plan: &Plan,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), Error> {
    match &plan.output {
        Output::Stdout => sink::write_stdout(write).map_err(|source| Error::Write {
            path: "stdout".into(),
            source,
        }),
        Output::File(path) => sink::write_file(path, write).map_err(|source| Error::Write {
            path: path.display().to_string(),
            source,
        }),
    }
}

/// Reads a whole profile: a file (a FIFO or device as a stream, to its end), standard
/// input, or one connection to a socket, to its end.
pub(crate) fn read_profile(input: &Input, options: input::Options) -> Result<Parsed, Error> {
    let path = input.display();
    let read_error = |source: std::io::Error| Error::Read {
        hint: match input {
            Input::File(p) => super::naming::read_hint(p, &source),
            _ => String::new(),
        },
        path: path.clone(),
        source,
    };
    let result = match input {
        Input::Stdin => input::read_once(std::io::stdin().lock(), options),
        Input::File(p) => {
            let file = File::open(p).map_err(read_error)?;
            if super::naming::is_stream(p) {
                input::read_once(file, options)
            } else {
                input::read_file(&file, options)
            }
        }
        Input::Socket(endpoint) => input::read_once(endpoint.open().map_err(read_error)?, options),
    };
    result.map_err(|error| Error::Parse { path, error })
}

fn read_aux(path: &std::path::Path) -> Result<Aux, Error> {
    let shown = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|source| Error::AuxRead {
        path: shown.clone(),
        source,
    })?;
    auxfile::parse(&bytes).map_err(|error| Error::Aux { path: shown, error })
}
