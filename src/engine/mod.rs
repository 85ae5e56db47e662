//! The engine: a resolved run made into its typed result. The library's one path from a
//! profile to an output, whatever asks for it — the command line, the live view, the
//! server, a program using the library.
//!
//! A [`Job`] says how one profile becomes one output. [`run`] is the whole job for one
//! input as read: a retainer profile's sets named from the run's report, the filter's
//! part kept ([`subject`]), `--check` judged ([`judge`]), and [`render`] giving a
//! [`Rendered`] (a picture and its page, a flame graph, or the numbers); [`run_compare`]
//! does the same for two runs, giving a [`Compared`]. Each writes itself to any
//! [`std::io::Write`]. The engine names no file, writes none and prints nothing; every
//! default is decided in one place, [`Request::job`], which the command line and a
//! program using the library both call; the caller opens the inputs and names the
//! outputs, and what the engine would tell a reader is handed to it as it happens
//! ([`Notice`]).

use crate::analysis::page::PageOptions;
use crate::backend::{self, Format};
use crate::export::{Export, ExportOptions};
use crate::input;
use crate::layout::LayoutOptions;
use crate::profile::{Costs, Model, Profile};
use crate::select::SelectOptions;
use crate::select::filter::Filter;
use crate::select::flame::WhichCensus;

mod compare;
mod error;
mod judge;
mod live;
pub mod members;
mod model;
pub mod recorded;
mod render;
mod request;
mod run;

/// The profile a job renders, and what its reader should be told of it ([`subject`]).
#[derive(Debug)]
pub struct Subject<P = Model> {
    /// The filter's part of the profile.
    pub profile: P,
    /// Options that do nothing for this profile, said rather than refused.
    pub notes: Vec<String>,
}

/// The profile a job renders: the filter's part of it (`--include`, `--exclude`,
/// `--from`, `--to`, and for a cost profile `--min-share`), or for `--stats`, which
/// reads the runtime's events over its own window, the whole profile once it is known
/// to have them. An `Err` says why nothing can be made of it: only the input says
/// whether there is a flame graph to turn over, or a cost profile to prune.
pub fn subject(job: &Job, model: Model) -> Result<Subject, Error> {
    model::dispatch!(model, k => k.subject(job).map(|kept| Subject {
        profile: kept.profile.into(),
        notes: kept.notes,
    }))
}

/// [`subject`] of a heap profile.
fn subject_heap(job: &Job, profile: Profile) -> Result<Subject<Profile>, Error> {
    let mut notes = Vec::new();
    if let View::Flame(_, FlameOf { at: None, .. }) = job.view.of_each_run() {
        return Err(Error::unfit(
            "--inverted turns a flame graph over: use it with --flame (a heap \
                    profile's picture is its graph over time; a .prof's is its flame graph)",
        ));
    }
    if job.filter.min_share.is_some() {
        notes.push(
            "--min-share prunes cost-centre profiles (.prof, eventlog samples); a heap \
             profile's small bands are gathered with -t"
                .into(),
        );
    }
    let profile = match runtime_only(job, &profile)? {
        true if profile.bands.is_empty() => over_window(job, profile),
        true => profile,
        false => profile.filtered(&job.filter).map_err(filtered)?,
    };
    Ok(Subject { profile, notes })
}

/// [`subject`] of a cost profile.
fn subject_costs(job: &Job, costs: Costs) -> Result<Subject<Costs>, Error> {
    let costs = match runtime_only(job, costs.series())? {
        true => costs,
        false => costs.filtered(&job.filter).map_err(filtered)?,
    };
    Ok(Subject {
        profile: costs,
        notes: Vec::new(),
    })
}

/// Whether the job reads the runtime's events alone (`--stats`, or the summary of an
/// eventlog without a heap profile), over its own window: then the profile is kept
/// whole, once it is known to have them.
fn runtime_only(job: &Job, profile: &Profile) -> Result<bool, Error> {
    match job.view.of_each_run() {
        View::Data(data)
            if matches!(data.export, Export::Summary(_))
                && profile.bands.is_empty()
                && !(profile.runtime.is_empty() && profile.runtime.activity.is_empty()) =>
        {
            crate::analysis::stats::window_within(&profile.runtime, job.filter.from)
                .map_err(Error::unfit)?;
            Ok(true)
        }
        View::Data(data) if !data.export.reads_bands() => {
            if profile.runtime.is_empty() {
                return Err(Error::unfit(
                    "no runtime statistics here: they come from an eventlog's GC \
                            events (run the program with +RTS -l, which writes them; a .hp \
                            file, and an eventlog written with -l<classes> without g, has \
                            none)",
                ));
            }
            crate::analysis::stats::window_within(&profile.runtime, job.filter.from)
                .map_err(Error::unfit)?;
            Ok(true)
        }
        _ => Ok(false),
    }
}

/// An eventlog without a heap profile, summarised over `--from`/`--to`: its profile (no
/// band, as long as the run) as long as the window, whose figures are the runtime's.
fn over_window(job: &Job, mut profile: Profile) -> Profile {
    let end = profile.runtime.end;
    let (a, b) = (
        job.filter.from.unwrap_or(0.0),
        job.filter.to.unwrap_or(end).min(end),
    );
    if job.filter.from.is_some() || job.filter.to.is_some() {
        profile.times = vec![a, b.max(a)];
    }
    profile
}

/// What the filter left empty, of an input not named yet.
fn filtered(error: crate::select::filter::Empty) -> Error {
    Error::Filtered { input: None, error }
}

/// `--same-scale`: the largest ranges of all `profiles` on `axes`, each as the job
/// would draw it (filtered, then selected), become the job's least ranges, so that
/// every picture has one scale.
pub fn same_scale(
    job: &mut Job,
    profiles: impl Iterator<Item = Profile>,
    axes: crate::select::Axes,
) {
    let select = match &mut job.view {
        View::Data(Data {
            select: Some(s), ..
        }) => s,
        View::Data(_) | View::Compare(_) => return,
        view => &mut view.picture_mut().expect("a view draws a picture").select,
    };
    for profile in profiles {
        if let Ok(profile) = job.filter.apply(profile) {
            crate::select::widen(select, &profile, axes);
        }
    }
}

pub use compare::{Compared, compare};
pub use error::Error;
pub use judge::{judge, judge_change};
pub use live::Serve;
pub use model::ProfileKind;
pub use render::{Rendered, Tally, ViewSteps, render, render_data, render_page};
pub use request::Request;
pub use run::{Input, Notice, OnNotice, Ready, prepare, ready, run, run_compare};

/// How one input becomes one output.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Job {
    /// What the reader keeps.
    pub read: input::Options,
    /// The bands and times kept, before anything else.
    pub filter: Filter,
    /// What is made of the filtered profile.
    pub view: View,
    /// `--binary`: the program's symbols, naming a `-hi` profile's info tables that are
    /// only addresses (read once, for every redraw).
    pub binary: Option<std::sync::Arc<input::symbols::InfoNames>>,
    /// `--check-partial`: conditions are judged on an input that was not read whole
    /// (cut, or damaged) as on a whole one, rather than refused as "cannot be judged".
    pub judge_partial: bool,
}

impl Job {
    /// A job that makes `view` of a profile read as [`input::Options`]' defaults say,
    /// nothing filtered: the stages' options as given. [`Request::job`] is the job the
    /// command line would run, every default decided.
    pub fn new(view: View) -> Job {
        Job {
            read: input::Options::default(),
            filter: Filter::default(),
            view,
            binary: None,
            judge_partial: false,
        }
    }

    /// The job with its window's marker bounds (`--from mark:TEXT`) made the times of
    /// those markers in `profile` (one run's: each run has its own); `None` when it has
    /// none to resolve. An error names the marker that is not there and the texts
    /// nearest it.
    pub fn at_marks(&self, name: &str, profile: &Profile) -> Result<Option<Job>, Error> {
        if !self.filter.by_marks() {
            return Ok(None);
        }
        let filter =
            (self.filter.at_marks(&profile.marks)).map_err(|why| Error::unfit(why).of(name))?;
        let mut job = self.clone();
        if let View::Data(data) = &mut job.view {
            data.options.window = (filter.from, filter.to);
        }
        job.filter = filter;
        Ok(Some(job))
    }

    /// Whether what the job makes of a cost-centre report reads its stacks as bands:
    /// everything does but a figure of the whole report, which is its flame graph, read
    /// from the tree ([`crate::select::flame::shaped`]). A page lists the stacks; a filter
    /// keeps some of them; an export reads them, and so do `--check` (`checked`) and a
    /// comparison.
    pub fn reads_bands(&self, checked: bool) -> bool {
        match &self.view {
            View::Graph(_) | View::Flame(..) | View::Members(..) => {
                checked || !self.filter.is_empty()
            }
            View::Page(_) | View::Data(_) | View::Compare(_) => true,
        }
    }

    /// What the job reads of an eventlog beside the runtime's account
    /// ([`input::Options::runtime_reading`]): `--stats` (not judged: `checked`, nor
    /// compared) reads the account alone, and without `--from` or `--to` only the whole
    /// run's figures.
    pub fn runtime_reading(&self, checked: bool) -> input::RuntimeReading {
        use input::RuntimeReading;
        match &self.view {
            View::Data(d) if !checked && !d.export.reads_bands() => match d.options.window {
                (None, None) => RuntimeReading::Totals,
                _ => RuntimeReading::Account,
            },
            _ => RuntimeReading::All,
        }
    }

    /// What the reader keeps for this job: `read` as the command line asked, less what
    /// the job does not read ([`Job::reads_bands`], [`Job::runtime_reading`]).
    pub fn settle_reading(&mut self, checked: bool) {
        self.read.bands = self.reads_bands(checked);
        self.read.runtime_reading = self.runtime_reading(checked);
        // A window bounded by markers is found among the run's markers, which a reading
        // of the runtime's totals alone passes over.
        if self.filter.by_marks() {
            self.read.marks = true;
            self.read.runtime_reading = input::RuntimeReading::All;
        }
    }
}

/// What a job makes: one view of the profile — its graph over time, a census's flame
/// graph, a root or retainer profile's members, a page of views — or its numbers. Each
/// view is rendered by its own step ([`render`]), so nothing downstream asks which
/// format a picture is in to know what it draws.
#[derive(Debug, Clone)]
pub enum View {
    /// The graph over time in a drawing format (a cost-centre profile's graph is its
    /// flame graph: it has one stretch of time).
    Graph(Picture),
    /// A census as a flame graph (`--flame`, `--inverted`).
    Flame(Picture, FlameOf),
    /// A root or retainer profile's graph with this many members' panels under it
    /// (`--members`); another profile's graph, said so.
    Members(Picture, usize),
    /// An HTML page: a view of views — its graph, the flame graph it opens under it and
    /// its tables.
    Page(Box<PageView>),
    /// A data output, written from the profile (or its selection).
    Data(Data),
    /// Two runs in one output (`--compare`), each in the view the comparison holds: the
    /// graphs one over the other, the differential flame graph, a page of both, or the
    /// change's numbers. Made by [`run_compare`]; [`run`] of one input refuses it.
    Compare(Box<CompareView>),
}

impl View {
    /// The picture a view draws; `None` for the numbers.
    pub fn picture(&self) -> Option<&Picture> {
        match self {
            View::Graph(p) | View::Flame(p, _) | View::Members(p, _) => Some(p),
            View::Page(page) => Some(&page.graph),
            View::Data(_) => None,
            View::Compare(c) => c.each.picture(),
        }
    }

    /// [`View::picture`], to change.
    pub fn picture_mut(&mut self) -> Option<&mut Picture> {
        match self {
            View::Graph(p) | View::Flame(p, _) | View::Members(p, _) => Some(p),
            View::Page(page) => Some(&mut page.graph),
            View::Data(_) => None,
            View::Compare(c) => c.each.picture_mut(),
        }
    }

    /// The view each run is made in: a comparison's, or this one.
    pub fn of_each_run(&self) -> &View {
        match self {
            View::Compare(c) => &c.each,
            view => view,
        }
    }
}

/// `--compare`'s view of two runs, before and after.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct CompareView {
    /// The view both runs are made in.
    pub each: View,
    /// `--compare-time normalised`: both on 0–100% of their own time.
    pub normalised: bool,
}

impl CompareView {
    /// Two runs, each made in `each`, on their own times or `normalised`.
    pub fn new(each: View, normalised: bool) -> CompareView {
        CompareView { each, normalised }
    }
}

/// Which census a flame graph draws and which way it grows.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[non_exhaustive]
pub struct FlameOf {
    /// The census (`--flame`); `None`: the profile's own, for a cost-centre profile,
    /// which has one census (a heap profile has none to offer).
    pub at: Option<WhichCensus>,
    /// `--inverted`: from the innermost frames.
    pub direction: crate::select::flame::Direction,
}

/// An HTML page of views: its graph over time (the figure its backend writes), the flame
/// graph it opens under it ([`PageView::flame`]), and what it lists.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct PageView {
    /// The graph, drawn for the page.
    pub graph: Picture,
    /// What the page shows beside its graph, its flame graph's census among them.
    pub options: PageOptions,
}

impl PageView {
    /// The flame graph the page opens under its graph.
    pub fn flame(&self) -> FlameOf {
        FlameOf {
            at: self.options.flame_at,
            direction: if self.options.flame_inverted {
                crate::select::flame::Direction::Inverted
            } else {
                crate::select::flame::Direction::Callers
            },
        }
    }
}

/// How a picture is made: what every view shares.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Picture {
    /// Its format, which picks the backend.
    pub format: Format,
    /// Which bands, in which order.
    pub select: SelectOptions,
    /// Where everything goes on the page.
    pub layout: LayoutOptions,
    /// The backend's options.
    pub backend: backend::Options,
}

impl Picture {
    /// A figure in `format` as `select` and `layout` say: every point kept, the
    /// backend's own options: the stages' options as given, no default decided. A
    /// program that wants the command line's defaults asks a [`Request`] for its job
    /// instead.
    pub fn new(format: Format, select: SelectOptions, layout: LayoutOptions) -> Picture {
        Picture {
            format,
            select,
            layout,
            backend: backend::Options::default(),
        }
    }
}

/// How a data output is made.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Data {
    /// The format.
    pub export: Export,
    /// Its options.
    pub options: ExportOptions,
    /// With `-m` or `-t`: the selection's bands (OTHER included) rather than all.
    pub select: Option<SelectOptions>,
}

impl Data {
    /// `export`'s numbers, with its default options, of every band.
    pub fn new(export: Export) -> Data {
        Data {
            export,
            options: ExportOptions::default(),
            select: None,
        }
    }
}

impl PageView {
    /// A page of `graph` showing what `options` say beside it.
    pub fn new(graph: Picture, options: PageOptions) -> PageView {
        PageView { graph, options }
    }
}

/// What a run writes: a picture (through a backend) or the data (an export); the
/// command line's `--format`, or the output file's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputKind {
    /// A picture in this format.
    Picture(Format),
    /// The numbers in this format.
    Data(Export),
}

impl OutputKind {
    /// Every kind a file can ask for: the pictures, then the data formats.
    pub fn all() -> impl Iterator<Item = OutputKind> {
        Format::ALL
            .into_iter()
            .map(OutputKind::Picture)
            .chain(Export::FILES.into_iter().map(OutputKind::Data))
    }

    /// The kind a file name's ending asks for (case does not matter): the longest
    /// extension it ends in, so that `x.speedscope.json` is speedscope's, not JSON.
    pub fn from_file_name(name: &str) -> Option<OutputKind> {
        let name = name.to_ascii_lowercase();
        // valgrind names its files `callgrind.out.PID`, and KCacheGrind opens those.
        let base = name.rsplit(['/', '\\']).next().unwrap_or(&name);
        if base.starts_with("callgrind.out") {
            return Some(OutputKind::Data(Export::Callgrind));
        }
        OutputKind::all()
            .filter(|k| {
                name.strip_suffix(k.extension())
                    .is_some_and(|stem| stem.len() > 1 && stem.ends_with('.'))
            })
            .max_by_key(|k| k.extension().len())
    }

    /// The kind's name for `--format`.
    pub fn name(self) -> &'static str {
        match self {
            OutputKind::Picture(f) => f.extension(),
            OutputKind::Data(e) => e.name(),
        }
    }

    /// The usual file extension, which is also the kind's name on the command line.
    pub fn extension(self) -> &'static str {
        match self {
            OutputKind::Picture(f) => f.extension(),
            OutputKind::Data(e) => e.extension(),
        }
    }
}

/// Reads the `.aux` file at `path` (`-p`): an earlier run's order, shades and ranges.
pub fn read_aux(path: &std::path::Path) -> Result<crate::select::aux::Aux, crate::error::Error> {
    use crate::error::Error;
    let shown = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|source| Error::AuxRead {
        path: shown.clone(),
        source,
    })?;
    crate::select::aux::parse(&bytes).map_err(|error| Error::Aux { path: shown, error })
}
