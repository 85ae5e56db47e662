//! One rendering, start to end: read a profile, filter it, make the output ready
//! ([`prepare`]: a picture selected and laid out, or a table of the data), and write it
//! to its file, standard output or memory (for `--serve`).

use std::fs::File;
use std::io::{self, Write};

use anyhow::Context;

use super::naming::{Input, Output, Plan};
use super::settings::{Compare, Data, Job, Make, Picture};
use crate::analysis::page::PageData;
use crate::backend::Format;
use crate::error::Error;
use crate::export::{Export, Table};
use crate::input::{self, Parsed};
use crate::profile::Profile;
use crate::scene::Scene;
use crate::select::Selection;
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

/// Reads, draws and writes one input as `plan` says.
pub(crate) fn render_one(job: &Job, plan: &Plan) -> anyhow::Result<()> {
    let name = plan.input.display();
    let mut timings = Timings::start();
    let parsed = read_profile(&plan.input, job.read)?;
    timings.lap("parse");
    for w in &parsed.warnings {
        print_warning(&name, w);
    }
    draw(job, plan, parsed.profile, &mut timings)?;
    Ok(())
}

/// Prints a parser warning as `hpgraph: warning: FILE:LINE: what`.
pub(crate) fn print_warning(name: &str, w: &input::Warning) {
    match w.line {
        Some(line) => eprintln!("hpgraph: warning: {name}:{line}: {w}"),
        None => eprintln!("hpgraph: warning: {name}: {w}"),
    }
}

/// What one rendering drew.
pub(crate) struct Drawn {
    pub samples: usize,
    pub bands: usize,
}

/// Prepares a profile for `plan`'s output, writes it, then the `.aux` file (read first
/// when the plan reuses it).
pub(crate) fn draw(
    job: &Job,
    plan: &Plan,
    profile: Profile,
    timings: &mut Timings,
) -> anyhow::Result<Drawn> {
    let aux = match (&plan.aux, plan.reuse_aux, &job.make) {
        (Some(path), true, Make::Picture(_)) => Some(read_aux(path)?),
        _ => None,
    };
    let name = plan.input.display();
    let profile = match &job.make {
        // --stats reads the runtime's events over its own window, not the bands.
        Make::Data(data) if !data.export.reads_bands() => {
            if profile.runtime.is_empty() {
                anyhow::bail!(
                    "{name}: no runtime statistics here: they come from an eventlog's GC \
                     events (run the program with +RTS -l, which writes them; a .hp file, \
                     and an eventlog written with -l<classes> without g, has none)"
                );
            }
            crate::analysis::stats::window_within(&profile.runtime, job.filter.from)
                .map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
            profile
        }
        _ => filtered(job, &name, profile)?,
    };
    let ready = prepare(&job.make, &name, profile, aux.as_ref());
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
    Ok(ready.drawn())
}

/// The profile after `--include`, `--exclude`, `--from` and `--to`.
pub(crate) fn filtered(job: &Job, name: &str, profile: Profile) -> anyhow::Result<Profile> {
    job.filter
        .apply(profile)
        .map_err(|e| anyhow::anyhow!("{name}: {e}"))
}

/// An output made ready to be written.
pub(crate) enum Prepared<'a> {
    Picture {
        picture: &'a Picture,
        scene: Scene,
        /// `--key file`: the key as a picture of its own.
        key: Option<Box<Scene>>,
        selection: Selection,
        /// The numbers behind an HTML page.
        page: Option<Box<PageData>>,
        samples: usize,
    },
    /// A census as a flame graph (`--flame`).
    Flame {
        picture: &'a Picture,
        scene: Scene,
        samples: usize,
        /// How many frames the census has.
        frames: usize,
    },
    Data {
        data: &'a Data,
        profile: Box<Profile>,
        /// With `-m` or `-t`: the selection's bands (OTHER included) rather than all.
        selection: Option<Selection>,
    },
}

/// Selects and lays out a (filtered) profile, or keeps it for a data output.
pub(crate) fn prepare<'a>(
    make: &'a Make,
    name: &str,
    profile: Profile,
    aux: Option<&Aux>,
) -> Prepared<'a> {
    match make {
        Make::Picture(picture) => prepare_picture(picture, name, profile, aux),
        Make::Data(data) => {
            if let Some(w) = data.export.caveat(&profile) {
                eprintln!("hpgraph: warning: {name}: {w}");
            }
            prepare_data(data, profile)
        }
    }
}

/// Keeps a profile for a data output, with its selection when `-m` or `-t` ask for one.
pub(crate) fn prepare_data(data: &Data, profile: Profile) -> Prepared<'_> {
    Prepared::Data {
        data,
        selection: data
            .select
            .as_ref()
            .map(|opts| crate::select::select(&profile, None, opts)),
        profile: Box::new(profile),
    }
}

/// Selects and lays out a profile for a picture, with the HTML page's numbers.
pub(crate) fn prepare_picture<'a>(
    picture: &'a Picture,
    name: &str,
    profile: Profile,
    aux: Option<&Aux>,
) -> Prepared<'a> {
    let samples = profile.samples();
    if picture.layout.heap_lines && profile.heap.size.is_empty() && profile.heap.live.is_empty() {
        eprintln!(
            "hpgraph: warning: {name}: --heap-lines: no heap size or live bytes in this \
             profile (an eventlog has them, a .hp file does not)"
        );
    }
    if let (Some(when), false) = (picture.flame, picture.format == Format::Html) {
        let flame = crate::select::flame::shaped(&profile, when, picture.direction);
        if let Some(advice) = crate::select::flame::advice(&flame) {
            eprintln!("hpgraph: warning: {name}: {advice}");
        }
        let scene = crate::layout::flame::layout(&flame, &picture.layout);
        warn_of_repairs(picture, name, &scene);
        return Prepared::Flame {
            picture,
            scene,
            samples,
            frames: flame.frames.len(),
        };
    }
    if let Some(bands) = crate::select::band_cap(&profile, &picture.select) {
        eprintln!(
            "hpgraph: warning: {name}: {} bands over {samples} samples are more than a \
             picture draws ({} values): the {bands} largest drawn, the rest in OTHER \
             (-m{bands} says so without this warning)",
            profile.bands.len(),
            crate::select::MAX_DRAWN_VALUES
        );
    }
    let selection = crate::layout::selected(&profile, aux, &picture.select, &picture.layout);
    // The HTML page carries the numbers behind its picture; they are taken before the
    // layout consumes the profile.
    let page = picture
        .page
        .as_ref()
        .map(|opts| Box::new(crate::analysis::page::data(&profile, &selection, opts)));
    let key = (picture.layout.key == crate::layout::KeyPlacement::Apart).then(|| {
        Box::new(crate::layout::key_figure(
            &profile,
            &selection,
            &picture.layout,
        ))
    });
    let mut scene = crate::layout::layout(profile, &selection, &picture.layout);
    if let Some(column) = picture.column {
        crate::scene::reduce::reduce(&mut scene, column);
    }
    warn_of_repairs(picture, name, &scene);
    Prepared::Picture {
        picture,
        scene,
        key,
        selection,
        page,
        samples,
    }
}

/// PostScript: says which strings are written otherwise than hp2ps would, to stay valid.
fn warn_of_repairs(picture: &Picture, name: &str, scene: &Scene) {
    if matches!(picture.format, Format::Ps | Format::Eps) {
        for r in crate::backend::ps::repairs(scene) {
            eprintln!(
                "hpgraph: warning: {name}: {} `{}` would be broken PostScript as hp2ps writes it; {}",
                r.what,
                crate::escape::excerpt(&r.text),
                r.how
            );
        }
    }
}

impl Prepared<'_> {
    /// Writes the output.
    pub(crate) fn write(&self, out: &mut dyn Write) -> io::Result<()> {
        match self {
            Prepared::Data {
                data,
                profile,
                selection,
            } => {
                let table = match selection {
                    Some(s) => Table::selected(profile, s.clone()),
                    None => Table::all(profile),
                };
                data.export.write(&table, data.options, out)
            }
            Prepared::Picture {
                picture,
                scene,
                page,
                ..
            } => picture
                .format
                .backend(&picture.backend, page.as_deref())?
                .write(scene, out),
            Prepared::Flame { picture, scene, .. } => picture
                .format
                .backend(&picture.backend, None)?
                .write(scene, out),
        }
    }

    /// `--key file`'s picture of the key, to be written by `key`.
    fn key(&self) -> Option<impl FnOnce(&mut dyn Write) -> io::Result<()> + '_> {
        match self {
            Prepared::Picture {
                picture,
                key: Some(key),
                ..
            } => Some(move |out: &mut dyn Write| {
                picture
                    .format
                    .backend(&picture.backend, None)?
                    .write(key, out)
            }),
            _ => None,
        }
    }

    /// The selection a picture drew, for the `.aux` file.
    fn selection(&self) -> Option<&Selection> {
        match self {
            Prepared::Picture { selection, .. } => Some(selection),
            Prepared::Flame { .. } | Prepared::Data { .. } => None,
        }
    }

    pub(crate) fn drawn(&self) -> Drawn {
        match self {
            Prepared::Picture {
                selection, samples, ..
            } => Drawn {
                samples: *samples,
                bands: selection.bands.len(),
            },
            Prepared::Flame {
                samples, frames, ..
            } => Drawn {
                samples: *samples,
                bands: *frames,
            },
            Prepared::Data {
                profile, selection, ..
            } => Drawn {
                samples: profile.samples(),
                bands: selection
                    .as_ref()
                    .map_or(profile.bands.len(), |s| s.bands.len()),
            },
        }
    }

    /// The output in memory.
    pub(crate) fn bytes(&self) -> io::Result<Vec<u8>> {
        let mut out = Vec::new();
        self.write(&mut out)?;
        Ok(out)
    }
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

/// What changed between two runs as a flame graph of `when`'s stacks, laid out for
/// `picture`: its own output with `--flame`, or under a comparison page's table.
fn differential_flame(
    before: &Profile,
    after: &Profile,
    when: crate::select::flame::When,
    picture: &Picture,
) -> Scene {
    let flame = crate::select::flame::differential(before, after, when, picture.direction);
    crate::layout::flame::layout(&flame, &picture.layout)
}

/// `--compare`: reads both runs, filters them, names their bands alike and writes the
/// comparison as the job says: a picture of both runs on one scale, or its numbers.
pub(crate) fn compare(job: &Job, compare: &Compare) -> anyhow::Result<()> {
    use crate::analysis::compare as cmp;
    if let Make::Data(data) = &job.make
        && let Export::Stats(style) = data.export
    {
        return compare_stats(job, compare, data, style);
    }
    let mut runs = Vec::with_capacity(2);
    for input in &compare.inputs {
        let name = input.display();
        let parsed = read_profile(input, job.read)?;
        for w in &parsed.warnings {
            print_warning(&name, w);
        }
        runs.push((name.clone(), filtered(job, &name, parsed.profile)?));
    }
    let (after_name, after) = runs.pop().expect("two runs");
    let (before_name, before) = runs.pop().expect("two runs");
    let (before, after) = cmp::matched(before, after);
    let plan = Plan {
        input: compare.inputs[0].clone(),
        output: compare.output.clone(),
        aux: None,
        reuse_aux: false,
    };
    if let Make::Data(data) = &job.make
        && data.export == Export::Folded
    {
        let when = data
            .options
            .census
            .unwrap_or(crate::select::flame::When::Peak);
        write_output(&plan, |out| {
            crate::export::stacks::write_differential([&before, &after], when, out)
        })?;
        return Ok(());
    }
    if let Make::Picture(picture) = &job.make
        && let Some(when) = picture.flame
        && picture.format != Format::Html
    {
        let scene = differential_flame(&before, &after, when, picture);
        write_output(&plan, |out| {
            picture
                .format
                .backend(&picture.backend, None)?
                .write(&scene, out)
        })?;
        return Ok(());
    }
    let window = (job.filter.from, job.filter.to);
    let comparison = cmp::compare(&before, &after, [&before_name, &after_name], window)
        .map_err(|e| anyhow::anyhow!("{before_name} and {after_name}: {e}"))?;
    match &job.make {
        Make::Data(data) => write_output(&plan, |out| {
            data.export.write_comparison(&comparison, data.options, out)
        })?,
        Make::Picture(picture) => {
            // The page shows what changed by stack too, drawn as --flame draws it.
            let flame = (picture.format == Format::Html).then(|| {
                let when = picture.flame.unwrap_or(crate::select::flame::When::Peak);
                differential_flame(&before, &after, when, picture)
            });
            let (mut before, mut after) = (before, after);
            if compare.normalised {
                before = cmp::normalised(before);
                after = cmp::normalised(after);
            }
            let totals = [cmp::totals_of(&before), cmp::totals_of(&after)];
            let (scene, plots) = compared_picture(
                picture,
                &comparison,
                [before, after],
                [&before_name, &after_name],
            );
            let page = crate::backend::html::ComparePage {
                comparison: &comparison,
                totals: &totals,
                plots: &plots,
                units: picture.layout.byte_units,
                flame,
            };
            write_output(&plan, |w| {
                picture
                    .format
                    .comparison_backend(&picture.backend, page)?
                    .write(&scene, w)
            })?;
        }
    }
    Ok(())
}

/// `--compare BEFORE AFTER --stats`: both runs' runtime statistics side by side.
fn compare_stats(
    job: &Job,
    compare: &Compare,
    data: &Data,
    style: crate::export::SummaryStyle,
) -> anyhow::Result<()> {
    use crate::analysis::stats;
    let (from, to) = data.options.window;
    let mut runs = Vec::with_capacity(2);
    let mut names = Vec::with_capacity(2);
    for input in &compare.inputs {
        let name = input.display();
        let parsed = read_profile(input, job.read)?;
        if parsed.profile.runtime.is_empty() {
            anyhow::bail!(
                "{name}: no runtime statistics here: they come from an eventlog's GC events \
                 (run the program with +RTS -l, which writes them; a .hp file has none)"
            );
        }
        stats::window_within(&parsed.profile.runtime, from)
            .map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
        runs.push(stats::stats(&parsed.profile.runtime, from, to));
        names.push(name);
    }
    let plan = Plan {
        input: compare.inputs[0].clone(),
        output: compare.output.clone(),
        aux: None,
        reuse_aux: false,
    };
    write_output(&plan, |out| match style {
        crate::export::SummaryStyle::Text => out.write_all(
            stats::compared_text([&runs[0], &runs[1]], [&names[0], &names[1]]).as_bytes(),
        ),
        crate::export::SummaryStyle::Json => {
            let both = serde_json::json!({ "before": runs[0], "after": runs[1] });
            crate::escape::json_to(&mut *out, &both, true)?;
            writeln!(out)
        }
        crate::export::SummaryStyle::Csv => {
            let both = serde_json::json!({ "before": runs[0], "after": runs[1] });
            crate::export::summary::write_figures_csv(&both, out)
        }
    })?;
    Ok(())
}

/// Both runs one above the other on the scale both need, with what changed most.
fn compared_picture(
    picture: &Picture,
    comparison: &crate::analysis::compare::Comparison,
    runs: [Profile; 2],
    names: [&str; 2],
) -> (Scene, Vec<crate::scene::Plot>) {
    let [before, after] = runs;
    let [b, a] = crate::select::on_one_scale([&before, &after], &picture.select);
    let captions = crate::analysis::compare::callouts(comparison, picture.layout.byte_units);
    let panels = vec![
        crate::layout::compare::Panel {
            profile: before,
            selection: &b,
            title: format!("before: {}", names[0]).into_bytes(),
        },
        crate::layout::compare::Panel {
            profile: after,
            selection: &a,
            title: format!("after: {}", names[1]).into_bytes(),
        },
    ];
    let captions: Vec<Vec<u8>> = captions.into_iter().map(String::into_bytes).collect();
    let (mut scene, plots) = crate::layout::compare::compared(panels, &captions, &picture.layout);
    if let Some(column) = picture.column {
        crate::scene::reduce::reduce(&mut scene, column);
    }
    (scene, plots)
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
