//! The numbers behind the interactive HTML page: the drawn bands' values at the times the
//! page can show, the other bands it can rank in a window or a filter (and the sum of the
//! rest), marks, heap lines and the heap's peak. The HTML backend joins them to
//! the scene (which says where the graph is and how each band is painted); this side
//! never sees the scene, the backend never sees the profile.
//!
//! A page redraws its chart, key, table and flame graph in the browser when a band is
//! hidden, a time range zoomed, a view chosen or a census clicked, so it carries values,
//! not only outlines. A long profile is thinned to [`MAX_TIMES`]
//! sample times: the run is cut into equal time bins and each bin keeps the samples where
//! the stack is highest and lowest, so no peak or dip of the total is lost and every
//! value kept is a real sample's.

use serde::Serialize;

pub mod flame;
pub mod levels;
pub mod lists;
pub mod strip;
pub mod tree;

use super::table::Table;
use crate::profile::{Costs, Profile};
use crate::select::Selection;
use crate::select::flame::Stacked;
use crate::units::ByteUnits;

/// Profiles with more samples than this are thinned.
pub const MAX_TIMES: usize = 4000;

/// The page carries at most this many bands on their own, the largest (drawn ones
/// first), unless `--top` says otherwise or [`MAX_POOL_VALUES`] is reached: its table
/// lists them and a zoomed window or a filter ranks them; the rest travel as one sum,
/// whose count the table gives. A profile of a million names would otherwise make a
/// page of a hundred megabytes that no browser lays out; `--summary` and the JSON export
/// have them all.
pub const MAX_TABLE_ROWS: usize = 1000;

/// The bands a page carries beyond the drawn ones hold at most this many values in all
/// (bands × kept times): a page of a million numbers is about 8 MB.
pub const MAX_POOL_VALUES: usize = 1_000_000;

/// One band's values at the kept times.
#[derive(Debug, Clone, Serialize)]
pub struct PageBand {
    /// Its name, as text.
    pub name: String,
    /// Its name as a picture's key shows it (`select::flame::shown`: no `(N)`, no
    /// package), where that differs from `name` and tells it from the others: the key
    /// lists it, the whole name on hover.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shown: Option<String>,
    /// Its value at each of the page's times.
    #[serde(serialize_with = "crate::units::numbers")]
    pub values: Vec<f64>,
    /// The selection's `OTHER`: bands merged by the band limit, not a band of its own.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub other: bool,
    /// Where its closures come from (`-hi` with info-table provenance).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ipe: Option<PageIpe>,
    /// Its frames in a flame graph, outermost first, as indices into
    /// [`PageData::frames`]: its name split as [`crate::select::flame`] splits it.
    #[serde(skip)]
    pub stack: Vec<u32>,
    /// GHC cut its name at `-L`: its outermost frame's callers are unknown.
    #[serde(skip)]
    pub cut: bool,
    /// GHC cut its name, and the library placed it under the frame its kept name begins
    /// ([`crate::select::flame::placements`]): `stack` is the placed one and its frames
    /// from this index on are its own.
    #[serde(skip)]
    pub placed: Option<usize>,
    /// Its leaf in [`PageFlame::tree`] and in [`PageFlame::inverted`] (not for `OTHER`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub leaf: Option<(u32, u32)>,
    /// A retainer profile's band: its retainer set in full, as the run's report writes
    /// it (its tooltip says it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub set: Option<String>,
    /// The profile's band it is (not for `OTHER` or the rest's sum): what a member's
    /// view ([`lists::PageMembers`]) finds it by, and what puts a zoom's equal shares in
    /// the summary's order (`figures.js` `windowKey`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<u32>,
}

/// The frames' labels, each once: a band's [`PageBand::stack`] points into them.
struct Frames<'p> {
    labels: Vec<String>,
    index: std::collections::HashMap<String, u32>,
    /// Where each band GHC cut stands, by band.
    places: Vec<Option<crate::select::flame::Placed<'p>>>,
    /// The profile whose bands' frames these are.
    stacked: &'p dyn Stacked,
}

impl<'p> Frames<'p> {
    fn new(stacked: &'p dyn Stacked) -> Frames<'p> {
        Frames {
            labels: Vec::new(),
            index: std::collections::HashMap::new(),
            places: crate::select::flame::placements(stacked.series()),
            stacked,
        }
    }

    /// The `k`th band's stack, whether GHC cut it, and where it was placed.
    fn of(&mut self, k: usize) -> (Vec<u32>, bool, Option<usize>) {
        let (labels, cut, placed) = match &self.places[k] {
            Some(p) => (p.frames.clone(), false, Some(p.inferred)),
            None => {
                let stacked = self.stacked;
                let (labels, cut) = stacked.frames(&stacked.series().bands.names()[k]);
                (labels, cut, None)
            }
        };
        let stack = labels
            .into_iter()
            .map(|l| self.label(String::from_utf8_lossy(l).into_owned()))
            .collect();
        (stack, cut, placed)
    }

    /// The index of a label, added when it is new.
    fn label(&mut self, l: String) -> u32 {
        if let Some(&k) = self.index.get(&l) {
            return k;
        }
        let k = self.labels.len() as u32;
        self.labels.push(l.clone());
        self.index.insert(l, k);
        k
    }
}

/// A band's info-table provenance, as text: what the table's IPE columns show.
#[derive(Debug, Clone, Serialize)]
pub struct PageIpe {
    /// The closure type (`THUNK_1_0`).
    pub closure: String,
    /// The Haskell type.
    #[serde(rename = "type")]
    pub ty: String,
    /// The module.
    pub module: String,
    /// The source location.
    pub location: String,
}

/// A band's retainer set in full, where the run's report named it.
fn set_of(profile: &Profile, name: &[u8]) -> Option<String> {
    (profile.retainer_sets.get(name)).map(|m| crate::profile::costs::set_text(m))
}

/// A band's provenance, when the profile has it.
fn ipe_of(profile: &Profile, name: &[u8]) -> Option<PageIpe> {
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    profile.provenance.get(name).map(|p| PageIpe {
        closure: text(&p.closure),
        ty: text(&p.ty),
        module: text(&p.module),
        location: text(&p.location),
    })
}

/// A mark and its text.
#[derive(Debug, Clone, Serialize)]
pub struct PageMark {
    /// When, in sample units.
    pub time: f64,
    /// The marker's text, when it has one.
    pub text: Option<String>,
}

/// What the page shows beside the picture.
#[derive(Debug, Clone, Serialize)]
pub struct PageData {
    /// The view the page opens in, where not the stacked bytes (`--view share`: `share`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub view: Option<&'static str>,
    /// `JOB`.
    pub job: String,
    /// `DATE`.
    pub date: String,
    /// `SAMPLE_UNIT`.
    pub sample_unit: String,
    /// `VALUE_UNIT`.
    pub value_unit: String,
    /// The units the two name, as the profile read them.
    #[serde(skip)]
    pub units_read: crate::units::Units,
    /// The number of samples in the profile (the page may keep fewer).
    pub samples: usize,
    /// The sample times kept (see [`MAX_TIMES`]).
    pub times: Vec<f64>,
    /// The drawn bands, bottom first, `OTHER` included (the backend writes them with
    /// their paint).
    #[serde(skip)]
    pub bands: Vec<PageBand>,
    /// The profile's other bands, each on its own, largest first (up to
    /// [`MAX_TABLE_ROWS`] with the drawn ones, and [`MAX_POOL_VALUES`] values): what a
    /// zoomed window or a filter ranks with the drawn ones. The backend writes them with
    /// a colour of the picture's.
    #[serde(skip)]
    pub pool: Vec<PageBand>,
    /// The sum of the bands left out of `pool`, and how many they are.
    pub rest: Option<(usize, PageBand)>,
    /// How many entries the key shows, `OTHER` included.
    pub key_entries: usize,
    /// The whole heap (every band of the profile, drawn or not) at each kept time.
    #[serde(serialize_with = "crate::units::numbers")]
    pub totals: Vec<f64>,
    /// Every frame label the bands' stacks name.
    pub frames: Vec<String>,
    /// The flame graphs' frames, laid out ([`flame`]).
    pub flame: PageFlame,
    /// A cost-centre profile's tree of stacks: the table and the measures ([`tree`]).
    pub tree: Option<tree::PageTree>,
    /// Eventlog cost-centre samples: the first and last sample times they were taken
    /// over (the run, or `--from`/`--to`'s window), which the page sums into one census.
    pub samples_span: Option<(f64, f64)>,
    /// What of the input was not read, and the stretch that was ([`Loss::sentence`]):
    /// the page says it under its heading.
    ///
    /// [`Loss::sentence`]: crate::profile::Loss::sentence
    #[serde(skip)]
    pub loss: Option<String>,
    /// The series at coarser resolutions ([`levels::series`]).
    pub levels: Vec<levels::Level>,
    /// `--flame`: the census whose flame graph the page opens with.
    pub flame_at: Option<f64>,
    /// `--flame=mean`: the page opens its flame graph on the window's mean.
    pub flame_mean: bool,
    /// `--inverted`: the page's flame graph opens inverted.
    pub flame_inverted: bool,
    /// Some band has info-table provenance: the table has its columns.
    pub ipe: bool,
    /// A cost-centre profile's one census ([`costs_data`]): the page
    /// shows its flame graph and table, not a graph over time.
    pub report: bool,
    /// The trend's rule ([`super::window`]), which the page applies to its window.
    pub trend: TrendRule,
    /// The readings a runtime line needs ([`crate::profile::LINE_READINGS`]), which the
    /// page asks of a line within its window.
    pub line_readings: usize,
    /// Marks within the run.
    pub marks: Vec<PageMark>,
    /// Heap size and live bytes, when the profile has them and they are drawn.
    #[serde(skip)]
    pub heap_size: Vec<(f64, f64)>,
    /// Live bytes, as `heap_size` holds heap size.
    #[serde(skip)]
    pub heap_live: Vec<(f64, f64)>,
    /// The allocated blocks' size (GHC 9.2 and later), likewise.
    #[serde(skip)]
    pub heap_blocks: Vec<(f64, f64)>,
    /// The allocation rate in bytes per second ([`crate::profile::Runtime::allocation_rate`]
    /// at [`PAGE_RATE_COLUMNS`] steps), likewise: drawn on its own scale.
    #[serde(skip)]
    pub allocation_rate: Vec<(f64, f64)>,
    /// How byte counts are written.
    #[serde(skip)]
    pub units: ByteUnits,
    /// The values' units, largest first, and whether a space goes before one: what the
    /// page writes its numbers with.
    pub scale: PageScale,
    /// The heap's peak (every band of the filtered profile): when, and how much.
    #[serde(skip)]
    pub peak: (f64, f64),
    /// The runtime's collections and allocation, when the input is an eventlog.
    pub runtime: Option<PageRuntime>,
    /// A biographical profile's waste over the run, said under the title.
    #[serde(skip)]
    pub biography: Option<crate::analysis::biography::Biography>,
    /// The cost-centre samples of the same run beside a heap profile
    /// ([`Profile::cost_samples`]): their own page's numbers (tree, flame graph, strip),
    /// which the page shows under the heap graph, a window chosen in one being the
    /// other's. The backend writes them with their frames' paints.
    #[serde(skip)]
    pub cost_samples: Option<Box<PageData>>,
    /// A root or retainer profile's members, each a view of its sets' bands.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub members: Option<lists::PageMembers>,
    /// A ticky-ticky run's counters over the run, most allocating first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ticky: Vec<crate::profile::ticky::Counter>,
    /// The most rows a list's table shows: `--top`, else [`MAX_TABLE_ROWS`].
    pub table_rows: usize,
}

/// The page's flame graphs, laid out: the script weighs and places them.
#[derive(Debug, Clone, Default, Serialize)]
pub struct PageFlame {
    /// The rows drawn at most ([`flame::MAX_ROWS`]).
    pub rows: usize,
    /// Callers at the bottom.
    pub tree: flame::Tree,
    /// The inverted graph: what spends at the bottom.
    pub inverted: flame::Tree,
    /// What a frame's description adds when [`flame::CUT`] and when [`flame::PLACED`].
    pub notes: [&'static str; 2],
}

/// A page carries the runtime's collections one by one up to this many (about 30 bytes
/// each): past it, its panel points to `--stats`.
pub const MAX_PAGE_GCS: usize = 50_000;

/// The runtime's account as the page sums it over a window ([`super::stats`]'s rules,
/// in `figures.js`).
#[derive(Debug, Clone, Serialize)]
pub struct PageRuntime {
    /// Each collection: its start and end (seconds) and generation, by start.
    pub gcs: Vec<(f64, f64, u16)>,
    /// Bytes allocated by every capability up to each reading of a counter: the
    /// window's allocation is the difference across it.
    pub allocated: Vec<(f64, f64)>,
    /// The run's end.
    pub end: f64,
    /// What the line says its figures of the run (from its start to `end`) are, shown
    /// until a stretch is chosen: the whole run only when the input was read whole.
    pub heading: &'static str,
    /// Collections past [`MAX_PAGE_GCS`]: then `gcs` is empty.
    pub too_many: bool,
    /// What each capability was doing, for its strip (the first
    /// [`crate::profile::activity::MAX_CAPABILITY_STRIPS`]; none past
    /// [`MAX_PAGE_STRETCHES`] stretches in all).
    pub capabilities: Vec<PageCapability>,
}

/// A page carries the capabilities' stretches one by one up to this many in all (about
/// 30 bytes each): past it, the page draws no capability's strip (`--summary` has their
/// figures).
pub const MAX_PAGE_STRETCHES: usize = 200_000;

/// A capability's stretches, as the GC strip's collections are (start, end, 0), for the
/// strips' one rule (`figures.js` `gcShares`).
#[derive(Debug, Clone, Serialize)]
pub struct PageCapability {
    /// Its number.
    pub capability: u16,
    /// Running Haskell code.
    pub running: Vec<(f64, f64, u16)>,
    /// Collecting.
    pub gc: Vec<(f64, f64, u16)>,
}

impl PageCapability {
    /// The strips of `activity` a page carries.
    fn all(activity: &crate::profile::activity::Activity) -> Vec<PageCapability> {
        use crate::profile::activity::MAX_CAPABILITY_STRIPS;
        let caps = &activity.capabilities[..activity.capabilities.len().min(MAX_CAPABILITY_STRIPS)];
        let stretches: usize = caps.iter().map(|c| c.running.len() + c.gc.len()).sum();
        if stretches > MAX_PAGE_STRETCHES || activity.dropped > 0 {
            return Vec::new();
        }
        let flat = |s: &[(f64, f64)]| s.iter().map(|&(a, b)| (a, b, 0)).collect();
        (caps.iter())
            .map(|c| PageCapability {
                capability: c.capability,
                running: flat(&c.running),
                gc: flat(&c.gc),
            })
            .collect()
    }
}

impl PageRuntime {
    fn of(rt: &crate::profile::Runtime, read_whole: bool) -> Option<PageRuntime> {
        if rt.is_empty() && rt.activity.is_empty() {
            return None;
        }
        let too_many = rt.gcs.len() > MAX_PAGE_GCS || rt.allocation.len() > 4 * MAX_PAGE_GCS;
        let mut seen: Vec<u64> = Vec::new();
        let mut sum = 0u64;
        let allocated = if too_many {
            Vec::new()
        } else {
            rt.allocation
                .iter()
                .map(|r| {
                    let c = usize::from(r.capability);
                    if seen.len() <= c {
                        seen.resize(c + 1, 0);
                    }
                    sum = sum - seen[c] + r.bytes;
                    seen[c] = r.bytes;
                    (r.time, sum as f64)
                })
                .collect()
        };
        Some(PageRuntime {
            gcs: if too_many {
                Vec::new()
            } else {
                rt.gcs
                    .iter()
                    .map(|g| (g.start, g.end, g.generation))
                    .collect()
            },
            allocated,
            end: rt.end,
            heading: match read_whole {
                true => "The whole run",
                false => "What was read of the run (it was not read whole)",
            },
            too_many,
            capabilities: PageCapability::all(&rt.activity),
        })
    }
}

/// The trend's thresholds, as [`super::window`] defines them.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct TrendRule {
    /// The part of the window at its end the trend line goes through.
    pub window: f64,
    /// [`super::window::TREND_CHANGE`].
    pub change: f64,
    /// [`super::window::TREND_SHARE`].
    pub share: f64,
    /// [`super::window::TREND_LEAST_SAMPLES`].
    pub samples: usize,
    /// [`super::window::TREND_T`].
    pub t: f64,
    /// [`super::window::TEARDOWN_SPAN`].
    pub span: f64,
    /// [`super::window::TEARDOWN_HIGH`].
    pub high: f64,
    /// [`super::window::TEARDOWN_FALL`].
    pub fall: f64,
    /// [`super::window::MIN_TREND_CENSUSES`].
    pub least: usize,
}

impl TrendRule {
    /// The library's rule ([`super::window`]'s constants).
    pub const LIBRARY: TrendRule = TrendRule {
        window: super::window::TREND_WINDOW,
        change: super::window::TREND_CHANGE,
        share: super::window::TREND_SHARE,
        samples: super::window::TREND_LEAST_SAMPLES,
        t: super::window::TREND_T,
        span: super::window::TEARDOWN_SPAN,
        high: super::window::TEARDOWN_HIGH,
        fall: super::window::TEARDOWN_FALL,
        least: super::window::MIN_TREND_CENSUSES,
    };
}

/// How the page writes numbers, from [`crate::units`]: values on a scale of units, and
/// times in seconds or in the profile's own unit. The script is handed the units as
/// parsed, never a unit's name to compare.
#[derive(Debug, Clone, Serialize)]
pub struct PageScale {
    /// Each unit's size and name, largest first, the last of size 1.
    pub units: Vec<(f64, &'static str)>,
    /// Whether a space separates a number from its unit (`12 MB`, but `12k`).
    pub space: bool,
    /// Times are seconds ([`crate::units::TimeUnit::Seconds`]): written with decimals
    /// by their size, and growth per second.
    pub seconds: bool,
    /// The word written after a time: `s`, or the profile's own unit.
    pub time: String,
}

impl PageScale {
    /// The scale of values that count `value`, bytes written in `units`, over times in
    /// `time` (`sample_unit` as the profile names it).
    pub fn of(
        value: crate::units::ValueUnit,
        units: ByteUnits,
        time: crate::units::TimeUnit,
        sample_unit: &[u8],
    ) -> PageScale {
        let scale = crate::units::Scale::new(value, units);
        let seconds = time == crate::units::TimeUnit::Seconds;
        PageScale {
            units: scale.units().to_vec(),
            space: scale != crate::units::Scale::Plain,
            seconds,
            time: if seconds {
                "s".into()
            } else {
                String::from_utf8_lossy(sample_unit).into_owned()
            },
        }
    }
}

/// The allocation rate's steps on the page, at most: about a screen's width of them in
/// the whole run (fewer when there are fewer collections, at which the counters are
/// read). A zoomed window shows the same steps.
pub const PAGE_RATE_COLUMNS: usize = 2000;

/// What the page shows beyond the picture, resolved from the command line.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
#[non_exhaustive]
pub struct PageOptions {
    /// Heap size and live bytes (`--heap-lines`).
    pub heap_lines: bool,
    /// How byte counts are written.
    pub units: ByteUnits,
    /// The table's rows: `--top`, else [`MAX_TABLE_ROWS`].
    pub rows: Option<usize>,
    /// How many entries the key shows, `OTHER` included (the band limit).
    pub key_entries: usize,
    /// `--flame`'s census, opened under the chart.
    pub flame_at: Option<crate::select::flame::WhichCensus>,
    /// `--inverted`: that flame graph inverted.
    pub flame_inverted: bool,
}

/// The sample indices a page keeps: all of them, or per time bin the lowest and highest
/// total, in time order.
pub(crate) fn kept(times: &[f64], totals: &[f64]) -> Vec<usize> {
    let n = times.len();
    if n <= MAX_TIMES {
        return (0..n).collect();
    }
    let bins = MAX_TIMES / 2;
    let (first, span) = (times[0], times[n - 1] - times[0]);
    let mut keep = Vec::with_capacity(MAX_TIMES + 2);
    let mut i = 0;
    for b in 0..bins {
        let end = if b + 1 == bins {
            n
        } else {
            let edge = first + span * (b + 1) as f64 / bins as f64;
            i + times[i..].partition_point(|&t| t < edge)
        };
        if end > i {
            let (lo, hi) = crate::profile::extremes(totals, i..end);
            // The first and last samples always stay, so the page spans the whole run.
            let mut picks = vec![lo, hi];
            if b == 0 {
                picks.push(0);
            }
            if b + 1 == bins {
                picks.push(n - 1);
            }
            picks.sort_unstable();
            picks.dedup();
            keep.extend(picks);
        }
        i = end;
    }
    keep
}

/// The page's numbers for a heap profile and the bands drawn of it, with the run's
/// cost-centre samples beside it where the eventlog has them.
pub fn data(profile: &Profile, selection: &Selection, opts: &PageOptions) -> PageData {
    let mut data = of(profile, selection, opts, |_| None).with_lists(profile);
    data.cost_samples = samples_beside(profile, opts).map(Box::new);
    data.lay_out_flames();
    data
}

/// The page's numbers for a cost-centre profile, its censuses summed into one
/// ([`Costs::one_census`]), with its table of stacks; `over_time` is the profile before
/// they were summed (eventlog samples), which the strip a stretch is chosen on is made of.
pub fn costs_data(
    costs: &Costs,
    selection: &Selection,
    opts: &PageOptions,
    over_time: Option<&Costs>,
) -> PageData {
    let units = opts.units;
    let mut data = of(costs, selection, opts, |frames| {
        Some(tree::of(costs, frames, units, over_time.map(|c| &c.series)))
    });
    data.report = true;
    // Eventlog samples: what they spent over the run (or the window), summed as a
    // report's one census is.
    data.samples_span = costs.tree.is_none().then(|| {
        let times = &over_time.unwrap_or(costs).series().times;
        (times[0], times[times.len() - 1])
    });
    // Samples summed into one census: the stretch read is the samples'.
    if let (Some(loss), Some((from, to))) = (&costs.series().loss, data.samples_span) {
        let time = |t| super::summary::time_text(costs.series().units.time, &data.sample_unit, t);
        data.loss = Some(loss.sentence(Some((&time(from), &time(to)))));
    }
    data.lay_out_flames();
    data
}

/// What both pages have: the bands drawn, the pool, the lines and the run's figures;
/// `tree` makes a cost profile's table of stacks, its frames among the page's.
fn of<'p>(
    stacked: &'p dyn Stacked,
    selection: &Selection,
    opts: &PageOptions,
    tree: impl FnOnce(&mut Frames<'p>) -> Option<tree::PageTree>,
) -> PageData {
    let profile = stacked.series();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    let drawn = Table::selected(profile, selection.clone());
    let keep = kept(&profile.times, &drawn.totals());
    let heap = profile.totals();
    let mut frames = Frames::new(stacked);
    let (mut pool, rest) = pool(profile, selection, &keep, opts, &mut frames);
    let flame_at = opts
        .flame_at
        .map(|when| profile.times[crate::select::flame::census(profile, when)]);
    let mut bands = drawn_bands(profile, &drawn, &keep, &mut frames);
    let tree = tree(&mut frames);
    tell_apart(&mut bands, &mut pool);
    let (first, last) = profile.span();
    let line = |points: &[(f64, f64)]| -> Vec<(f64, f64)> {
        // Without a band (an eventlog without a heap profile) the lines are the picture.
        if !opts.heap_lines && !profile.bands.is_empty() {
            return Vec::new();
        }
        let line: Vec<(f64, f64)> = (points.iter().copied())
            .filter(|(t, _)| (first..=last).contains(t))
            .collect();
        // Too few readings for a line: none.
        if line.len() < crate::profile::LINE_READINGS {
            return Vec::new();
        }
        line
    };
    let levels = {
        let mut stack = vec![0.0; keep.len()];
        for b in &bands {
            stack.iter_mut().zip(&b.values).for_each(|(d, v)| *d += v);
        }
        levels::series(&stack)
    };
    PageData {
        view: None,
        levels,
        flame: PageFlame::default(),
        tree,
        samples_span: None,
        loss: profile.loss.as_ref().map(|loss| {
            let time =
                |t| super::summary::time_text(profile.units.time, &text(&profile.sample_unit), t);
            loss.sentence((profile.samples() > 1).then_some((&time(first), &time(last))))
        }),
        job: text(&profile.job),
        date: text(&profile.date),
        sample_unit: text(&profile.sample_unit),
        value_unit: text(&profile.value_unit),
        units_read: profile.units,
        samples: profile.samples(),
        times: keep.iter().map(|&i| profile.times[i]).collect(),
        bands,
        pool,
        rest,
        key_entries: opts.key_entries,
        totals: keep.iter().map(|&i| heap[i]).collect(),
        frames: frames.labels,
        flame_at,
        flame_mean: opts.flame_at == Some(crate::select::flame::WhichCensus::Mean),
        flame_inverted: opts.flame_inverted,
        ipe: !profile.provenance.is_empty(),
        report: false,
        trend: TrendRule::LIBRARY,
        line_readings: crate::profile::LINE_READINGS,
        marks: (profile.marks.iter())
            .map(|m| PageMark {
                time: m.time,
                text: m.text.as_deref().map(text),
            })
            .collect(),
        heap_size: line(&profile.heap.size),
        heap_live: line(&profile.heap.live),
        heap_blocks: line(&profile.heap.blocks),
        allocation_rate: {
            let columns = PAGE_RATE_COLUMNS.min(profile.runtime.gcs.len().max(1));
            line(&profile.runtime.allocation_rate(first, last, columns))
        },
        units: opts.units,
        scale: PageScale::of(
            profile.units.value,
            opts.units,
            profile.units.time,
            &profile.sample_unit,
        ),
        peak: {
            let (at, most) = super::window::peak(&heap);
            (profile.times[at], most)
        },
        runtime: PageRuntime::of(&profile.runtime, profile.loss.is_none()),
        biography: crate::analysis::biography::of(profile),
        cost_samples: None,
        members: None,
        ticky: Vec::new(),
        table_rows: opts.rows.unwrap_or(MAX_TABLE_ROWS),
    }
}

/// The page's numbers for the cost-centre samples beside a heap profile, as a page of
/// those samples alone has them: summed over the run into one census (a stretch of the
/// strip weighs its own), with the tree, the flame graph's frames and the strip.
fn samples_beside(profile: &Profile, opts: &PageOptions) -> Option<PageData> {
    let over_time = profile.cost_samples.as_deref()?;
    let summed = over_time.clone().one_census();
    let selection = crate::select::select(summed.series(), None, &Default::default());
    let opts = PageOptions {
        heap_lines: false,
        flame_at: None,
        flame_inverted: false,
        ..*opts
    };
    Some(costs_data(&summed, &selection, &opts, Some(over_time)))
}

/// Names that read the same are told apart wherever the page shows them.
fn tell_apart(bands: &mut [PageBand], pool: &mut [PageBand]) {
    let shown: Vec<String> = bands
        .iter()
        .chain(pool.iter())
        .map(|b| b.name.clone())
        .collect();
    let refs: Vec<&str> = shown.iter().map(String::as_str).collect();
    let marks = crate::escape::look_alikes(&refs);
    // As a key shows them, where that leaves each its own (one module in two packages
    // keeps both packages).
    let plain: Vec<&[u8]> = refs
        .iter()
        .map(|n| crate::select::flame::shown(n.as_bytes()))
        .collect();
    let mut seen: std::collections::HashMap<&[u8], usize> = Default::default();
    for p in &plain {
        *seen.entry(p).or_default() += 1;
    }
    let all = bands.iter_mut().chain(pool.iter_mut());
    for ((b, mark), p) in all.zip(marks).zip(&plain) {
        if !b.other && seen[p] == 1 && p.len() < b.name.len() {
            let mut s = String::from_utf8_lossy(p).into_owned();
            s.extend(mark);
            b.shown = Some(s);
        }
        b.name.extend(mark);
    }
}

/// The drawn bands at the kept samples, bottom first, `OTHER` included.
fn drawn_bands(
    profile: &Profile,
    drawn: &Table,
    keep: &[usize],
    frames: &mut Frames,
) -> Vec<PageBand> {
    (0..drawn.columns.len())
        .map(|k| {
            let all = drawn.column(k);
            let name = &drawn.columns[k].0;
            let (other, (stack, cut, placed)) = match drawn.columns[k].1 {
                crate::select::Source::Ident(id) => (false, frames.of(id as usize)),
                crate::select::Source::Other(_) => (true, (Vec::new(), false, None)),
            };
            PageBand {
                name: String::from_utf8_lossy(name).into_owned(),
                shown: None,
                values: keep.iter().map(|&i| all[i]).collect(),
                other,
                ipe: ipe_of(profile, name),
                stack,
                cut,
                placed,
                leaf: None,
                set: set_of(profile, name),
                id: match drawn.columns[k].1 {
                    crate::select::Source::Ident(id) => Some(id),
                    crate::select::Source::Other(_) => None,
                },
            }
        })
        .collect()
}

impl PageData {
    /// The bands the page ranks, weighs and lists one by one: the drawn ones but
    /// `OTHER`, then the pool, then the rest's sum.
    fn individuals_mut(&mut self) -> impl Iterator<Item = &mut PageBand> {
        (self.bands.iter_mut().filter(|b| !b.other))
            .chain(self.pool.iter_mut())
            .chain(self.rest.iter_mut().map(|r| &mut r.1))
    }

    /// Lays out the flame graphs of every band the page weighs ([`flame`]) and gives
    /// each band its leaves.
    fn lay_out_flames(&mut self) {
        let labels = std::mem::take(&mut self.frames);
        // A cost table's rows are stacks of the same frames: the measure switch weighs
        // the flame graph by them.
        let paths = self.tree.as_ref().map_or(Vec::new(), tree::PageTree::paths);
        let (tree, inverted) = {
            let stacks: Vec<flame::Stack> = (self.bands.iter().filter(|b| !b.other))
                .chain(&self.pool)
                .chain(self.rest.iter().map(|r| &r.1))
                .map(|b| flame::Stack {
                    frames: &b.stack,
                    cut: b.cut,
                    placed: b.placed,
                })
                .chain(paths.iter().map(|p| flame::Stack {
                    frames: p,
                    cut: false,
                    placed: None,
                }))
                .collect();
            (
                flame::tree(&stacks, &labels, false),
                flame::tree(&stacks, &labels, true),
            )
        };
        let bands = self.individuals_mut().count();
        for (k, b) in self.individuals_mut().enumerate() {
            b.leaf = Some((tree.leaves[k], inverted.leaves[k]));
        }
        if let Some(t) = &mut self.tree {
            t.leaves = (bands..tree.leaves.len())
                .map(|k| (tree.leaves[k], inverted.leaves[k]))
                .collect();
        }
        self.frames = labels;
        self.flame = PageFlame {
            rows: flame::MAX_ROWS,
            tree,
            inverted,
            notes: [
                crate::select::flame::CUT_NOTE,
                crate::select::flame::PLACED_NOTE,
            ],
        };
    }
}

/// The bands not drawn on their own, largest first (by the sum of their values), as
/// many as the page carries, and the sum of the others.
fn pool(
    profile: &Profile,
    selection: &Selection,
    keep: &[usize],
    opts: &PageOptions,
    frames: &mut Frames,
) -> (Vec<PageBand>, Option<(usize, PageBand)>) {
    use crate::select::Source;
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    let mut drawn = vec![false; profile.bands.len()];
    for b in &selection.bands {
        if let Source::Ident(id) = b.source {
            drawn[id as usize] = true;
        }
    }
    // By the sum of their values, as `-t` weighs bands: linear in the points.
    let mut others: Vec<(usize, i64)> = (0..profile.bands.len())
        .filter(|&k| !drawn[k])
        .map(|k| (k, profile.bands.series()[k].total()))
        .collect();
    others.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let on_their_own = drawn.iter().filter(|&&d| d).count();
    let room = (MAX_POOL_VALUES / keep.len().max(1)).min(
        opts.rows
            .unwrap_or(MAX_TABLE_ROWS)
            .saturating_sub(on_their_own),
    );
    // Where each sample goes among the kept ones: a band's points are read once.
    let mut slot = vec![usize::MAX; profile.samples()];
    for (j, &i) in keep.iter().enumerate() {
        slot[i] = j;
    }
    let at_kept = |ids: &[usize]| {
        let mut values = vec![0.0; keep.len()];
        for &k in ids {
            profile.bands.series()[k].for_each(|s, v| {
                if let Some(x) = values.get_mut(slot[s as usize]) {
                    *x += v;
                }
            });
        }
        values
    };
    let pool = others
        .iter()
        .take(room)
        .map(|&(k, _)| {
            let (stack, cut, placed) = frames.of(k);
            PageBand {
                name: text(&profile.bands.names()[k]),
                shown: None,
                values: at_kept(&[k]),
                other: false,
                ipe: ipe_of(profile, &profile.bands.names()[k]),
                stack,
                cut,
                placed,
                leaf: None,
                set: set_of(profile, &profile.bands.names()[k]),
                id: Some(k as u32),
            }
        })
        .collect();
    let left: Vec<usize> = others.iter().skip(room).map(|&(k, _)| k).collect();
    if left.is_empty() {
        return (pool, None);
    }
    let name = format!("{} smaller bands", left.len());
    let rest = PageBand {
        stack: vec![frames.label(name.clone())],
        name,
        shown: None,
        values: at_kept(&left),
        other: true,
        ipe: None,
        cut: false,
        placed: None,
        leaf: None,
        set: None,
        id: None,
    };
    (pool, Some((left.len(), rest)))
}

#[cfg(test)]
mod tests {
    use super::kept;
    use crate::profile::{Profile, Series};

    #[test]
    fn the_bands_carried_stop_at_the_values_limit_and_the_rest_is_one_sum() {
        let (samples, bands) = (4000usize, 400usize);
        let mut p = Profile {
            times: (0..samples).map(|i| i as f64).collect(),
            ..Profile::default()
        };
        for k in 0..bands {
            let name: Box<[u8]> = format!("band{k}").into_bytes().into();
            let mut s = Series::default();
            for i in 0..samples {
                s.push(i as u32, (1 + k) as f64);
            }
            p.bands.push(name, s);
        }
        let selection = crate::select::select(&p, None, &crate::select::SelectOptions::default());
        let opts = super::PageOptions {
            key_entries: 20,
            ..Default::default()
        };
        let d = super::data(&p, &selection, &opts);
        let room = super::MAX_POOL_VALUES / d.times.len();
        assert!(d.times.len() * (bands - 19) > super::MAX_POOL_VALUES);
        assert_eq!(d.pool.len(), room);
        // The largest first, none drawn twice.
        assert_eq!(d.pool[0].name, format!("band{}", bands - 20));
        let (left, rest) = d.rest.expect("a sum of the rest");
        assert_eq!(left, bands - 19 - room);
        let want: f64 = (1..=left).map(|k| k as f64).sum();
        assert!(rest.values.iter().all(|&v| v == want));
    }

    #[test]
    fn thinning_keeps_every_bins_extremes_and_both_ends() {
        let n = 100_000;
        let times: Vec<f64> = (0..n).map(|i| i as f64 * 0.01).collect();
        let mut totals: Vec<f64> = (0..n).map(|i| (i % 7) as f64).collect();
        totals[54_321] = 1e9;
        totals[77_777] = -1.0;
        let k = kept(&times, &totals);
        assert!(k.len() <= super::MAX_TIMES + 2);
        assert!(k.windows(2).all(|w| w[0] < w[1]));
        for must in [0, 54_321, 77_777, n - 1] {
            assert!(k.contains(&must), "{must}");
        }
        let few: Vec<f64> = (0..10).map(f64::from).collect();
        assert_eq!(kept(&few, &few), (0..10).collect::<Vec<_>>());
    }
}
