//! The parsed heap profile: the resolved form of the `.hp` bytes.
//!
//! Nothing after the parser looks at the text format; it sees sample times, marks, header
//! strings and one compact [`Series`] per identifier. Identifiers keep the order in which
//! they first appeared, because hp2ps's tie-breaking depends on it (see `select::hash_order`).

/// Index of an identifier in [`Profile::bands`].
pub type IdentId = u32;

pub mod activity;
pub mod costs;
pub mod hash;
mod model;
pub mod names;
pub mod nonmoving;
mod provenance;
mod series;
pub mod ticky;
pub mod totals;
pub use model::{BandsFrom, Costs, Model};
pub use provenance::Provenance;
pub use series::{Points, Series};

/// A profile's bands: each identifier's name with its data points, one to one. The type
/// keeps them paired — a name is added with its series and removed with it — so that an
/// [`IdentId`] names both.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Bands {
    names: Vec<Box<[u8]>>,
    series: Vec<Series>,
}

impl Bands {
    /// How many bands.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// No band at all.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Adds a band; returns its identifier.
    pub fn push(&mut self, name: Box<[u8]>, series: Series) -> IdentId {
        self.names.push(name);
        self.series.push(series);
        (self.names.len() - 1) as IdentId
    }

    /// Every band's name, by identifier.
    pub fn names(&self) -> &[Box<[u8]>] {
        &self.names
    }

    /// Every band's data points, by identifier.
    pub fn series(&self) -> &[Series] {
        &self.series
    }

    /// The names, to rename bands in place (not to add or remove one).
    pub fn names_mut(&mut self) -> &mut [Box<[u8]>] {
        &mut self.names
    }

    /// The data points, to change them in place (not to add or remove a band).
    pub fn series_mut(&mut self) -> &mut [Series] {
        &mut self.series
    }

    /// Each band's name and data points.
    pub fn iter(&self) -> impl Iterator<Item = (&Box<[u8]>, &Series)> {
        self.names.iter().zip(&self.series)
    }

    /// Takes every band's data points, leaving each name with none: what consumes a
    /// profile band by band (the layout) frees each as it goes.
    pub fn take_series(&mut self) -> Vec<Series> {
        let empty = std::iter::repeat_with(Series::default).take(self.names.len());
        std::mem::replace(&mut self.series, empty.collect())
    }

    /// Keeps the first `n` bands; returns the names of the others.
    pub fn truncate(&mut self, n: usize) -> Vec<Box<[u8]>> {
        self.series.truncate(n);
        self.names.split_off(n.min(self.names.len()))
    }
}

impl IntoIterator for Bands {
    type Item = (Box<[u8]>, Series);
    type IntoIter = std::iter::Zip<std::vec::IntoIter<Box<[u8]>>, std::vec::IntoIter<Series>>;
    fn into_iter(self) -> Self::IntoIter {
        self.names.into_iter().zip(self.series)
    }
}

impl FromIterator<(Box<[u8]>, Series)> for Bands {
    fn from_iter<I: IntoIterator<Item = (Box<[u8]>, Series)>>(iter: I) -> Bands {
        let (names, series) = iter.into_iter().unzip();
        Bands { names, series }
    }
}

/// A profile's censuses over time: a heap profile, or the series a cost-centre
/// profile's stacks are counted in ([`Costs`]), which readers end in alike.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Profile {
    /// `JOB` string (raw bytes, as written by the runtime).
    pub job: Vec<u8>,
    /// `DATE` string.
    pub date: Vec<u8>,
    /// `SAMPLE_UNIT` string (the x axis legend).
    pub sample_unit: Vec<u8>,
    /// `VALUE_UNIT` string (the y axis legend).
    pub value_unit: Vec<u8>,
    /// The units the two strings name, read once with them ([`Profile::set_units`]):
    /// what every output writes times and values in.
    pub units: crate::units::Units,
    /// `BEGIN_SAMPLE` time of every complete sample; these define the x axis.
    pub times: Vec<f64>,
    /// `MARK`s in file order.
    pub marks: Vec<Mark>,
    /// Each identifier's name and data points, in order of first appearance.
    pub bands: Bands,
    /// The runtime's own heap measurements, when the input has them (an eventlog does).
    pub heap: HeapSeries,
    /// What the census broke the heap down by, when the input says (an eventlog does;
    /// a `.hp` file does not).
    pub breakdown: Breakdown,
    /// Where each band's closures come from, by band name, when the input says (an
    /// eventlog of a `-hi` run with info-table provenance does).
    pub provenance: std::collections::HashMap<Box<[u8]>, Provenance>,
    /// The runtime's own account of the run (its collections and allocation), when the
    /// input has it and it was asked for: an eventlog's GC events.
    pub runtime: Runtime,
    /// The names of bands a filter (`--from`/`--to`, `--include`/`--exclude`) left
    /// out: the run's stacks still, which a flame graph places a stack GHC cut by
    /// ([`crate::select::flame::placements`]), so that a window or a filter does not
    /// move it.
    pub dropped_names: Vec<Box<[u8]>>,
    /// A retainer profile's (`-hr`): each band's retainer set in full, by band name,
    /// where the run's report lists it ([`crate::input::prof::retainers`]).
    pub retainer_sets: crate::profile::hash::FxMap<Box<[u8]>, std::sync::Arc<costs::Members>>,
    /// An eventlog's cost-centre samples where it holds a heap profile too (this profile
    /// is then the heap's): what the run spent its time in, over the same time axis, which
    /// the page shows beside the heap graph. `--measure time` reads them as the profile
    /// instead ([`Model::Costs`]).
    pub cost_samples: Option<Box<Costs>>,
    /// A ticky-ticky run's counters (`+RTS -lT`): their totals, for the summary; the
    /// bands are then the counters' allocation per sample interval.
    pub ticky: Option<Box<ticky::Ticky>>,
    /// What of its input the profile does not hold, when the input was not read whole
    /// (cut, or with a stretch that does not read): every view says it, and no verdict
    /// of the whole run is given over the part.
    pub loss: Option<Loss>,
    /// Where the program started on the profile's clock, when the input knows it and no
    /// census is taken there: an eventlog's clock starts with the program, its first
    /// census comes an interval later (a `.hp` has GHC's empty census at 0 instead).
    /// Every view starts here ([`Profile::span`]), so the time before the first census
    /// is seen as not observed rather than left out.
    pub origin: Option<f64>,
    /// What its values count, set by the reader: two runs are compared only where they
    /// count the same thing (units alone do not tell a census's live bytes from a ticky
    /// interval's allocated bytes).
    pub quantity: Quantity,
}

/// What a profile's values count, as its reader knows it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Quantity {
    /// Bytes live in the heap at each census: a `.hp` file, an eventlog's heap profile
    /// or its runtime's heap readings.
    #[default]
    Live,
    /// Bytes allocated over each interval, by counter: a ticky-ticky profile.
    Allocated,
    /// What a cost-centre profile (a report, an eventlog's samples) weighs its stacks by.
    Cost(costs::Measure),
}

impl Quantity {
    /// The kind of profile, in words for a message: "a heap profile (bytes live at each
    /// census)".
    pub fn described(self) -> &'static str {
        match self {
            Quantity::Live => "a heap profile (bytes live at each census)",
            Quantity::Allocated => "a ticky-ticky profile (bytes allocated in each interval)",
            Quantity::Cost(costs::Measure::Time) => "a cost-centre profile of time (ticks)",
            Quantity::Cost(costs::Measure::Alloc) => {
                "a cost-centre profile of allocation (bytes allocated over the run)"
            }
            Quantity::Cost(costs::Measure::Entries) => "a cost-centre profile of entries",
        }
    }
}

/// An input read in part: where and how it stops being read, in the reader's terms.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Loss {
    /// What was lost, in a few words ("the eventlog ends before its end marker").
    pub what: String,
    /// The byte of the input where it was first lost, when the reader knows it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub byte: Option<u64>,
    /// The line, for a text input.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
}

impl Loss {
    /// What every view says of a profile read in part (the summary, the page): the loss,
    /// and the stretch read where the profile is over time (`from` and `to` as the view
    /// writes times).
    pub fn sentence(&self, stretch: Option<(&str, &str)>) -> String {
        match stretch {
            Some((from, to)) => format!(
                "read in part: {}: every figure is of what was read, {from} to {to}",
                self.what
            ),
            None => format!(
                "read in part: {}: every figure is of what was read",
                self.what
            ),
        }
    }
}

/// A stack's frames, outermost first ([`Costs::stacks`]).
pub type Frames = Box<[std::sync::Arc<[u8]>]>;

/// A cost-centre stack's band name: its frames innermost first, joined by `/`, as GHC's
/// `fprint_ccs` names a stack (the one rule the readers and pruning name bands by).
pub fn band_name(frames: &[std::sync::Arc<[u8]>]) -> Box<[u8]> {
    (frames.iter().rev())
        .map(|f| &**f)
        .collect::<Vec<_>>()
        .join(&b'/')
        .into()
}

/// At most this many collections are kept one by one: 64 bytes each, 64 MB in all. A
/// run with more (hours of minor collections) counts the rest in [`Runtime::dropped`]
/// and its statistics say they are left out.
pub const MAX_GCS: usize = 1_000_000;

/// At most this many readings of the capabilities' allocation counters are kept (one
/// per capability per collection).
pub const MAX_ALLOCATION_READINGS: usize = 4 * MAX_GCS;

/// One garbage collection, as the capability that led it saw it: the times `+RTS -s`
/// measures it by, and what it did. Times in seconds since the run began.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Gc {
    /// The leader's `GC_START`.
    pub start: f64,
    /// The leader's `GC_END` (the start when the end never came).
    pub end: f64,
    /// The oldest generation collected (0 for a minor collection).
    pub generation: u16,
    /// Bytes copied.
    pub copied: u64,
    /// Bytes of slop after it.
    pub slop: u64,
    /// Threads that took part (more than one: a parallel collection).
    pub threads: u32,
    /// GHC's measure of how evenly they shared the copying (`par_balanced_copied`), when
    /// the runtime writes it (GHC 8.4 and later).
    pub balanced: Option<u64>,
    /// Live bytes after it (major collections).
    pub live: Option<u64>,
    /// The heap's size after it.
    pub heap_size: Option<u64>,
}

/// A reading of one capability's spark counters, each since the run began: created,
/// dud, overflowed, converted, GC'd, fizzled (the runtime's order).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Sparks {
    /// When, in seconds since the run began.
    pub time: f64,
    /// The capability.
    pub capability: u16,
    /// The counters.
    pub counters: [u64; 6],
}

/// A reading of one capability's allocation counter: every byte it allocated so far.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Allocation {
    /// When, in seconds since the run began.
    pub time: f64,
    /// The capability.
    pub capability: u16,
    /// Bytes allocated by it since the run began.
    pub bytes: u64,
}

/// The strips' one rule, in the pictures and the page alike (`figures.js` `gcShares`,
/// held to it by vectors): for each of `columns` equal stretches of `[first, last]`,
/// the share of its time `stretches` (start, end, and a flag) cover, at most all of it,
/// and whether a flagged one falls in it. Linear in the stretches and columns.
pub fn column_shares(
    stretches: impl Iterator<Item = (f64, f64, bool)>,
    first: f64,
    last: f64,
    columns: usize,
) -> Vec<(f64, bool)> {
    let span = last - first;
    if columns == 0 || span.is_nan() || span <= 0.0 {
        return Vec::new();
    }
    let step = span / columns as f64;
    let mut out = vec![(0.0, false); columns];
    let column = |t: f64| (((t - first) / step) as usize).min(columns - 1);
    for (start, end, flag) in stretches {
        let (s, e) = (start.max(first), end.min(last));
        if start > last || end < first {
            continue;
        }
        for (k, c) in out
            .iter_mut()
            .enumerate()
            .take(column(e) + 1)
            .skip(column(s))
        {
            let (c0, c1) = (first + k as f64 * step, first + (k + 1) as f64 * step);
            c.0 += (e.min(c1) - s.max(c0)).max(0.0) / step;
            c.1 |= flag;
        }
    }
    for c in &mut out {
        c.0 = c.0.min(1.0);
    }
    out
}

/// A stretch of a concurrent (non-moving) collection's work: its start and end.
pub type Phase = (f64, f64);

/// The runtime's account of a run, from an eventlog's GC events: what `+RTS -s` is made
/// of, kept event by event so that any window can be summed.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Runtime {
    /// The collections, by start time (up to [`MAX_GCS`]).
    pub gcs: Vec<Gc>,
    /// The allocation counters' readings, by time (up to [`MAX_ALLOCATION_READINGS`]).
    pub allocation: Vec<Allocation>,
    /// The non-moving collector's synchronisations.
    pub syncs: Vec<Phase>,
    /// The non-moving collector's concurrent collections and heap censuses.
    pub nonmoving: nonmoving::Nonmoving,
    /// What each capability was doing: running, collecting, idle.
    pub activity: activity::Activity,
    /// The capabilities' spark counters (`SPARK_COUNTERS`), by time (up to
    /// [`MAX_ALLOCATION_READINGS`]; none kept for the whole run's figures alone).
    pub sparks: Vec<Sparks>,
    /// Each capability's last spark counters: the whole run's, exact.
    pub last_sparks: Vec<(u16, [u64; 6])>,
    /// The last event's time: the run's elapsed time.
    pub end: f64,
    /// Collections past [`MAX_GCS`], counted but not kept.
    pub dropped: usize,
    /// Collections whose `GC_END` came before their start, left out.
    pub inconsistent: usize,
    /// The runtime writes heap census inside its collections (a profiling runtime with
    /// heap profiling on): `+RTS -s` splits that time out as `PROF`, the events cannot.
    pub census_in_gc: bool,
    /// Each capability's last allocation reading: the whole run's allocation, exact
    /// whatever was dropped.
    pub last_allocation: Vec<(u16, u64)>,
    /// The collections added up as they were read, in place of `gcs` (which is then
    /// empty): read for the whole run's figures alone
    /// ([`crate::input::RuntimeReading::Totals`]).
    pub summed: Option<totals::Summed>,
}

impl Runtime {
    /// Whether the input had GC events at all (the non-moving collector's are apart:
    /// with none of these they make no statistics of the run).
    pub fn is_empty(&self) -> bool {
        self.gcs.is_empty()
            && (self.summed.as_ref()).is_none_or(|s| s.parts.iter().all(Vec::is_empty))
            && self.dropped == 0
            && self.last_allocation.is_empty()
    }

    /// The GC strip's one rule, in the pictures and the page alike: for each of
    /// `columns` equal stretches of `[first, last]`, the share of its time the runtime
    /// spent collecting (the collections' pauses clipped to it, at most all of it), and
    /// whether a major collection falls in it. Linear in the collections and columns.
    pub fn gc_shares(&self, first: f64, last: f64, columns: usize) -> Vec<(f64, bool)> {
        let gcs = self.gcs.iter().map(|g| (g.start, g.end, g.generation > 0));
        column_shares(gcs, first, last, columns)
    }

    /// The allocation rate over `[first, last]` in `columns` equal steps: for each step
    /// the readings cover, its middle and the bytes every capability allocated in it per
    /// second of it (of the part the readings cover, so that the run's last step is not
    /// diluted by the time after the last collection). The counters are read at
    /// collections, so the bytes a reading adds are spread evenly back to that
    /// capability's reading before it: between two readings allocation is known only
    /// as a sum. The one definition of the rate drawn over time, in the
    /// pictures and the page alike.
    pub fn allocation_rate(&self, first: f64, last: f64, columns: usize) -> Vec<(f64, f64)> {
        let span = last - first;
        if self.allocation.is_empty() || columns == 0 || span.is_nan() || span <= 0.0 {
            return Vec::new();
        }
        let step = span / columns as f64;
        let mut bytes = vec![0.0f64; columns];
        // The part of each step the readings cover: each capability's readings cover
        // the run from its start to its last reading without a gap, so the union is
        // one stretch, from the earliest start to the latest end seen in the step.
        let mut covered = vec![(f64::MAX, f64::MIN); columns];
        // Per capability: its last reading's time and counter.
        let mut seen: Vec<(f64, u64)> = Vec::new();
        for r in &self.allocation {
            let c = usize::from(r.capability);
            if seen.len() <= c {
                seen.resize(c + 1, (0.0, 0));
            }
            let (from, before) = seen[c];
            seen[c] = (r.time, r.bytes);
            let added = r.bytes.saturating_sub(before) as f64;
            // `added` spread over [from, r.time], clipped to the window.
            let from = from.min(r.time);
            let (a, b) = (from.max(first), r.time.min(last));
            if b < a {
                continue;
            }
            let whole = r.time - from;
            let col = |t: f64| (((t - first) / step) as usize).min(columns - 1);
            if whole <= 0.0 {
                bytes[col(a)] += added;
                continue;
            }
            for k in col(a)..=col(b) {
                let (lo, hi) = (first + k as f64 * step, first + (k + 1) as f64 * step);
                let (lo, hi) = (lo.max(a), hi.min(b));
                bytes[k] += added * (hi - lo).max(0.0) / whole;
                covered[k] = (covered[k].0.min(lo), covered[k].1.max(hi));
            }
        }
        let steps: Vec<(f64, f64)> = (0..columns)
            .filter_map(|k| {
                let (lo, hi) = covered[k];
                (hi > lo).then(|| (first + (k as f64 + 0.5) * step, bytes[k] / (hi - lo)))
            })
            .collect();
        // One step alone (a run of one collection) is no line: it is the rate over the
        // stretch its readings cover, from one end of it to the other.
        match (&steps[..], covered.iter().find(|c| c.1 > c.0)) {
            ([(_, rate)], Some(&(lo, hi))) => vec![(lo, *rate), (hi, *rate)],
            _ => steps,
        }
    }
}

/// What a census broke the heap down by, as far as the input tells. A flame graph splits
/// band names into frames only where they are cost-centre stacks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Breakdown {
    /// The input does not say (a `.hp` file): names are taken for what they look like.
    #[default]
    Unknown,
    /// Cost-centre stacks (`-hc`), innermost first, joined by `/`.
    CostCentreStacks,
    /// Anything else (`-hd`, `-hy`, `-hi`…): a name is one thing, whatever it holds.
    Other,
}

/// A moment the program marked: a `.hp` file's `MARK` (a time only) or an eventlog's
/// user marker (a time and its text).
#[derive(Debug, Clone, PartialEq)]
pub struct Mark {
    /// When, in sample units.
    pub time: f64,
    /// The marker's text, when the input gives marks one.
    pub text: Option<Box<[u8]>>,
}

impl Mark {
    /// A mark without text, as a `.hp` file has them.
    pub fn at(time: f64) -> Mark {
        Mark { time, text: None }
    }
}

/// A runtime line (heap size, live bytes, blocks, the allocation rate) is drawn from at
/// least this many readings, in the picture and in a page's window alike: one reading
/// is no line.
pub const LINE_READINGS: usize = 2;

/// The heap as the runtime measured it after each garbage collection, beside the census:
/// `(seconds, bytes)` in time order. Drawn as lines over the bands on request.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HeapSeries {
    /// Heap size (memory the heap holds from the system).
    pub size: Vec<(f64, f64)>,
    /// Live bytes after the collection.
    pub live: Vec<(f64, f64)>,
    /// Size of the allocated blocks.
    pub blocks: Vec<(f64, f64)>,
}

impl HeapSeries {
    /// Puts each line's points in time order: each capability's events come in order,
    /// but a threaded run's capabilities write their blocks in turn.
    pub fn sort(&mut self) {
        for line in [&mut self.size, &mut self.live, &mut self.blocks] {
            line.sort_by(|a, b| a.0.total_cmp(&b.0));
        }
    }
}

/// The most samples a profile holds. Past it, neighbouring samples are merged in pairs
/// ([`Profile::merge_samples`]), so that memory follows this bound rather than the
/// input: a compressed file a few megabytes long can expand to billions of samples. Four
/// million samples are a thousand times what a figure can show (hp2ps itself takes
/// minutes over them); with one band they take about 50 MB, and PostScript of them,
/// which keeps every point, under 400 MB to draw.
pub const MAX_SAMPLES: usize = 4_000_000;

/// The most bands a profile keeps once read. Past it, the smallest (by the total of
/// their values) are merged into one band ([`Profile::merge_smallest_bands`]): no
/// figure shows a hundred thousand bands, and selecting, ordering and summarising a
/// million of them is where such a profile's time goes.
pub const MAX_BANDS: usize = 100_000;

/// The most marks a profile keeps. A figure cannot show more (at a mark per point, ten
/// thousand fill a 40-inch axis), and a file can repeat one `MARK` line without end: a
/// 30 kB compressed `.hp` can hold forty million. Past the bound, marks that repeat an
/// earlier one exactly are dropped first, then every second one
/// ([`Profile::push_mark`]), so the marks kept stay spread over the run.
pub const MAX_MARKS: usize = 10_000;

/// The longest text a mark keeps, in bytes. An eventlog's user marker is a label a
/// program chose (`"phase 2"`); one may be 64 kB long, and ten thousand of those would
/// be 640 MB. A longer text is cut on a UTF-8 boundary and ends in `…`.
pub const MAX_MARK_TEXT: usize = 1024;

/// The most readings each of the runtime's heap lines ([`HeapSeries`]) keeps. The
/// runtime posts one per garbage collection, and a long run collects millions of times;
/// past the bound neighbouring readings are merged in pairs, each pair keeping its
/// larger value at the first one's time ([`HeapSeries::push`]), as samples are.
pub const MAX_HEAP_POINTS: usize = 100_000;

/// The band a merge past the band limit made ([`Profile::merge_smallest_bands`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MergedBands {
    /// Its index.
    pub band: IdentId,
    /// How many bands it holds.
    pub count: usize,
}

impl MergedBands {
    /// The merged band's name, saying how many it holds.
    pub fn name(count: usize) -> Box<[u8]> {
        format!("OTHER ({count} bands merged on reading)")
            .into_bytes()
            .into()
    }
}

/// What [`Profile::push_mark`] did to keep its bounds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Thinned {
    /// Marks were dropped ([`MAX_MARKS`]).
    pub marks: bool,
    /// A mark's text was cut ([`MAX_MARK_TEXT`]).
    pub mark_text: bool,
}

/// The indices of the lowest and of the highest of `values[range]` (the first of
/// each): the one thinning rule, by which a bin of samples keeps what no peak or dip may
/// lose — in the pictures' columns, the page's times and the page's levels alike.
pub fn extremes(values: &[f64], range: std::ops::Range<usize>) -> (usize, usize) {
    let (mut lo, mut hi) = (range.start, range.start);
    for k in range {
        if values[k] < values[lo] {
            lo = k;
        }
        if values[k] > values[hi] {
            hi = k;
        }
    }
    (lo, hi)
}

/// `text` cut to at most `max` bytes on a UTF-8 character boundary (where the text is
/// UTF-8 there), with `…` after it; `None` when it fits.
pub fn cut_text(text: &[u8], max: usize) -> Option<Box<[u8]>> {
    const ELLIPSIS: &[u8] = "…".as_bytes();
    if text.len() <= max {
        return None;
    }
    let mut end = max.saturating_sub(ELLIPSIS.len());
    // Back off continuation bytes (10xxxxxx) so a multi-byte character is not split.
    while end > 0 && text[end] & 0xC0 == 0x80 {
        end -= 1;
    }
    let mut cut = text[..end].to_vec();
    cut.extend_from_slice(ELLIPSIS);
    Some(cut.into())
}

/// One of the runtime's heap lines ([`HeapSeries`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeapLine {
    /// [`HeapSeries::size`].
    Size,
    /// [`HeapSeries::live`].
    Live,
    /// [`HeapSeries::blocks`].
    Blocks,
}

impl HeapSeries {
    /// Appends a reading to `line`, keeping it within [`MAX_HEAP_POINTS`]; returns
    /// whether readings were merged.
    pub fn push(&mut self, line: HeapLine, time: f64, bytes: f64) -> bool {
        let line = match line {
            HeapLine::Size => &mut self.size,
            HeapLine::Live => &mut self.live,
            HeapLine::Blocks => &mut self.blocks,
        };
        line.push((time, bytes));
        if line.len() <= MAX_HEAP_POINTS {
            return false;
        }
        *line = line
            .chunks(2)
            .map(|pair| (pair[0].0, pair.iter().map(|p| p.1).fold(f64::MIN, f64::max)))
            .collect();
        true
    }
}

impl Profile {
    /// Sets `SAMPLE_UNIT` and `VALUE_UNIT`, and the units they name: the one way either
    /// string changes once read.
    pub fn set_units(&mut self, sample_unit: Vec<u8>, value_unit: Vec<u8>) {
        self.units = crate::units::Units::of(&sample_unit, &value_unit);
        self.sample_unit = sample_unit;
        self.value_unit = value_unit;
    }

    /// The stretch every view of the profile spans: from the program's start where the
    /// input knows it ([`Profile::origin`]), else the first census, to the last census.
    /// The one place it is decided, so that the graph, its lines, the page and the
    /// collections' strip start at the same time.
    pub fn span(&self) -> (f64, f64) {
        let (first, last) = match (self.times.first(), self.times.last()) {
            (Some(&a), Some(&b)) => (a, b),
            _ => return (0.0, 0.0),
        };
        (self.origin.map_or(first, |o| o.min(first)), last)
    }

    /// Number of complete samples.
    pub fn samples(&self) -> usize {
        self.times.len()
    }

    /// The whole heap at every sample: every band's value added, bands in name order.
    /// The one place this sum is taken, so that the summary, the page, a flame graph's
    /// census and a comparison see the same bits.
    pub fn totals(&self) -> Vec<f64> {
        let mut totals = vec![0.0; self.samples()];
        for series in self.bands.series() {
            series.for_each(|s, v| totals[s as usize] += v);
        }
        totals
    }

    /// Appends a mark, keeping the profile within [`MAX_MARKS`] and its text within
    /// [`MAX_MARK_TEXT`]. Past the bound, marks equal to an earlier one (time and text)
    /// go first; if that is not enough, every second mark. Marks added later are kept
    /// one by one until the bound is passed again, so the cost stays linear in the
    /// marks read, as for samples.
    pub fn push_mark(&mut self, mut mark: Mark) -> Thinned {
        let mut thinned = Thinned::default();
        if let Some(text) = &mark.text
            && let Some(cut) = cut_text(text, MAX_MARK_TEXT)
        {
            mark.text = Some(cut);
            thinned.mark_text = true;
        }
        self.marks.push(mark);
        if self.marks.len() <= MAX_MARKS {
            return thinned;
        }
        thinned.marks = true;
        let mut seen = std::collections::HashSet::with_capacity(self.marks.len());
        self.marks
            .retain(|m| seen.insert((m.time.to_bits(), m.text.clone())));
        if self.marks.len() > MAX_MARKS / 2 {
            let kept: Vec<Mark> = std::mem::take(&mut self.marks)
                .into_iter()
                .step_by(2)
                .collect();
            self.marks = kept;
        }
        thinned
    }

    /// Keeps the profile within `limit` bands ([`MAX_BANDS`] once read): when it has
    /// more, the smallest (by the total of their values; ties to the later name) are
    /// merged into one band named `OTHER (N bands merged on reading)`, placed where the
    /// first of them was. `other` is the band an earlier merge made, if any: a live
    /// stream is bounded as it is read, again and again, and every merge after the
    /// first adds to the same band (its name counting all of them). Returns where each
    /// old band went (a merged band: to the OTHER band), or `None` when nothing changed.
    pub fn merge_smallest_bands(
        &mut self,
        limit: usize,
        other: &mut Option<MergedBands>,
    ) -> Option<Vec<IdentId>> {
        let n = self.bands.len();
        if n <= limit || limit == 0 {
            return None;
        }
        let earlier = other.map(|o| o.band as usize);
        let totals: Vec<f64> = self
            .bands
            .series()
            .iter()
            .map(|s| {
                let mut t = 0.0;
                s.for_each(|_, v| t += v);
                t
            })
            .collect();
        let mut order: Vec<usize> = (0..n).filter(|&k| Some(k) != earlier).collect();
        order.sort_by(|&a, &b| totals[b].total_cmp(&totals[a]).then(a.cmp(&b)));
        let mut merged_away = vec![false; n];
        for &k in &order[limit - 1..] {
            merged_away[k] = true;
        }
        let count = order.len() - (limit - 1) + other.map_or(0, |o| o.count);
        let mut sum = Series::sum(
            self.bands
                .series()
                .iter()
                .enumerate()
                .filter_map(|(k, s)| (merged_away[k] || Some(k) == earlier).then_some(s)),
            self.times.len(),
        );
        let place = earlier.unwrap_or_else(|| merged_away.iter().position(|&m| m).expect("some"));
        let mut bands = Bands::default();
        // Where each old band goes; the merged ones (and an earlier OTHER) are set to
        // the OTHER band once its place is known.
        let mut map = vec![IdentId::MAX; n];
        let mut band = 0;
        for (k, (name, s)) in std::mem::take(&mut self.bands).into_iter().enumerate() {
            if k == place {
                band = bands.push(MergedBands::name(count), std::mem::take(&mut sum));
            } else if !merged_away[k] {
                map[k] = bands.push(name, s);
            }
        }
        for m in map.iter_mut().filter(|m| **m == IdentId::MAX) {
            *m = band;
        }
        self.bands = bands;
        *other = Some(MergedBands { band, count });
        Some(map)
    }

    /// Keeps the profile within [`MAX_SAMPLES`]: when it has more, merges each pair of
    /// neighbouring samples into one, at the first's time, each band keeping the larger
    /// of its two values (its peaks survive; a name twice in one sample counts as its
    /// sum, as hp2ps draws it). Returns whether it merged. Samples read later are added
    /// one by one until the bound is passed again, so the start of a very long run ends
    /// up coarser than its end; the total cost stays linear in the samples read.
    pub fn merge_samples(&mut self) -> bool {
        if self.times.len() <= MAX_SAMPLES {
            return false;
        }
        while self.times.len() > MAX_SAMPLES {
            self.times = self.times.iter().step_by(2).copied().collect();
            for series in self.bands.series_mut() {
                *series = series.merged_in_pairs();
            }
            // A mark stays where it was: marks are times, not samples.
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_gc_column_says_how_much_of_its_time_went_to_collecting() {
        let gc = |start, end, generation| Gc {
            start,
            end,
            generation,
            ..Gc::default()
        };
        // Four columns of 1 s: a short minor pause in the first, a major collection
        // over all of the second and half of the third, none in the fourth.
        let rt = Runtime {
            gcs: vec![gc(0.5, 0.51, 0), gc(1.0, 2.5, 1)],
            ..Runtime::default()
        };
        let shares = rt.gc_shares(0.0, 4.0, 4);
        let close = |a: f64, b: f64| (a - b).abs() < 1e-9;
        assert!(close(shares[0].0, 0.01) && !shares[0].1);
        assert!(close(shares[1].0, 1.0) && shares[1].1);
        assert!(close(shares[2].0, 0.5) && shares[2].1);
        assert_eq!(shares[3], (0.0, false));
        // Outside the window, nothing; a window of no time, no columns.
        assert_eq!(rt.gc_shares(3.0, 4.0, 2), vec![(0.0, false); 2]);
        assert!(rt.gc_shares(1.0, 1.0, 3).is_empty());
    }

    #[test]
    fn the_allocation_rate_spreads_each_reading_back_to_its_capabilitys_last() {
        // Capability 0 read 100 bytes at 1 s and 300 at 2 s; capability 1 read 200 at
        // 2 s, its first. In [0, 1]: 100 from 0, half of 1's 200: 200 bytes/s. In
        // [1, 2]: 200 from 0, the other half of 1's: 300 bytes/s.
        let reading = |time, capability, bytes| Allocation {
            time,
            capability,
            bytes,
        };
        let runtime = Runtime {
            allocation: vec![
                reading(1.0, 0, 100),
                reading(2.0, 0, 300),
                reading(2.0, 1, 200),
            ],
            ..Runtime::default()
        };
        assert_eq!(
            runtime.allocation_rate(0.0, 2.0, 2),
            vec![(0.5, 200.0), (1.5, 300.0)]
        );
        // Past the last reading nothing is known: the step is left out, and a step the
        // readings cover in part is the rate over that part; a step alone is a line
        // across that part.
        assert_eq!(
            runtime.allocation_rate(0.0, 4.0, 2),
            vec![(0.0, 250.0), (2.0, 250.0)]
        );
        assert_eq!(
            runtime.allocation_rate(0.0, 2.0, 1),
            vec![(0.0, 250.0), (2.0, 250.0)]
        );
        assert!(runtime.allocation_rate(1.0, 1.0, 2).is_empty());
        assert!(Runtime::default().allocation_rate(0.0, 1.0, 2).is_empty());
    }

    #[test]
    fn points_come_back_in_file_order_with_repeats_after_their_sample() {
        let mut s = Series::default();
        s.push(0, 1.0);
        s.push(1, 2.0);
        s.push(1, 3.0);
        s.push(1, 4.0);
        s.push(4, 5.0);
        s.push(5, 6.0);
        s.push(5, 7.0);
        let got: Vec<_> = s.points().collect();
        assert_eq!(
            got,
            vec![
                (0, 1.0),
                (1, 2.0),
                (1, 3.0),
                (1, 4.0),
                (4, 5.0),
                (5, 6.0),
                (5, 7.0)
            ]
        );
        assert_eq!(s.len(), 7);
        let mut seen = Vec::new();
        s.for_each(|a, b| seen.push((a, b)));
        assert_eq!(seen, got);
        assert_eq!(s.total(), 28);
    }

    #[test]
    fn appending_a_later_part_equals_pushing_everything() {
        let points = [
            (0, 1.0),
            (1, 2.0),
            (1, 3.0),
            (4, 0.5),
            (5, 1.5),
            (5, 2.0),
            (6, 7.0),
        ];
        let mut whole = Series::default();
        for &(s, v) in &points {
            whole.push(s, v);
        }
        let mut first = Series::default();
        let mut second = Series::default();
        for &(s, v) in &points {
            if s < 4 {
                first.push(s, v);
            } else {
                second.push(s - 4, v);
            }
        }
        first.append(second, 4);
        assert_eq!(
            first.points().collect::<Vec<_>>(),
            whole.points().collect::<Vec<_>>()
        );
        assert_eq!(first.total(), whole.total());
        assert_eq!(first.len(), whole.len());
    }

    #[test]
    fn a_value_that_does_not_fit_four_bytes_widens_the_series_exactly() {
        let mut s = Series::default();
        s.push(0, 7.0);
        s.push(1, 4294967295.0);
        s.push(2, 4294967296.0);
        s.push(3, 0.5);
        s.push(4, 9.0);
        let want = vec![
            (0, 7.0),
            (1, 4294967295.0),
            (2, 4294967296.0),
            (3, 0.5),
            (4, 9.0),
        ];
        assert_eq!(s.points().collect::<Vec<_>>(), want);
        let mut narrow = Series::default();
        narrow.push(0, 1.0);
        narrow.append(s, 1);
        assert_eq!(narrow.points().count(), 6);
        assert_eq!(narrow.points().nth(3), Some((3, 4294967296.0)));
    }

    #[test]
    fn the_total_truncates_after_every_addition() {
        let mut s = Series::default();
        s.push(0, 1.5);
        s.push(1, 1.5);
        // (i64)(0 + 1.5) = 1, then (i64)(1 + 1.5) = 2: not 3.
        assert_eq!(s.total(), 2);
    }

    #[test]
    fn a_gap_starts_a_new_run() {
        let mut s = Series::default();
        s.push(3, 1.0);
        s.push(7, 2.0);
        s.push(8, 4.0);
        assert_eq!(
            s.points().collect::<Vec<_>>(),
            vec![(3, 1.0), (7, 2.0), (8, 4.0)]
        );
        let mut seen = Vec::new();
        s.for_each(|a, b| seen.push((a, b)));
        assert_eq!(seen, vec![(3, 1.0), (7, 2.0), (8, 4.0)]);
    }
}
