//! Selection: which identifiers become bands, in which order, with which shade.
//!
//! The passes run in hp2ps's order (spec §3): hash-table order, trace elements (`-t`),
//! standard deviation (`-d`), name (`-i`), `.aux` order (`-p`), then the band limit with
//! its `OTHER` band (`-m`). Each sort is hp2ps's non-stable selection sort, so ties come
//! out exactly as they do there. The result also carries the ranges and the area that
//! the title and the axes need, computed from the bands that survive.

pub mod aux;
pub mod filter;
pub mod flame;
mod frames;
mod grow;
pub mod marker;
pub mod order;
pub mod prune;
pub mod samples;
pub mod shade;
pub mod share;
mod stacked;
mod tree;

use crate::profile::{IdentId, Profile};
use aux::Aux;
use order::{hash_order, selection_sort, selection_sort_by};
pub use shade::{Shade, Shading};

/// Name order for `-i` (`-i-` is descending).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameOrder {
    /// Smallest name at the bottom, greatest on top (`-i`, `-i+`).
    Ascending,
    /// Greatest name at the bottom (`-i-`).
    Descending,
}

/// How to select and order bands.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct SelectOptions {
    /// Trace threshold in percent (`-t`): the smallest bands whose cumulative share of
    /// the total stays below it are dropped.
    pub threshold: f64,
    /// Order by standard deviation (`-d`).
    pub by_deviation: bool,
    /// Order by growth, the least-squares slope over the run (`--sort growth`): after
    /// `-d`, before `-i`.
    pub by_growth: bool,
    /// Order by name (`-i`).
    pub by_name: Option<NameOrder>,
    /// Maximum number of bands, the last one being `OTHER` (`-m`); 0 means no limit.
    pub band_limit: usize,
    /// Shades from the colour cycle or greys (`-c`).
    pub shading: Shading,
    /// The y axis also holds the runtime's heap size and live bytes over the sampled
    /// time (`--heap-lines`).
    pub heap_lines: bool,
    /// The x axis spans at least this many sample units (`--x-max`, `--same-scale`).
    pub min_x_range: f64,
    /// The y axis reaches at least this value (`--y-max`, `--same-scale`).
    pub min_y_range: f64,
    /// Stack the bands the other way up, once every order and limit is applied
    /// (`--reverse`): the largest at the bottom, where its shape reads against the axis.
    pub reverse: bool,
    /// The run's cost-centre samples beside a heap profile are drawn in a panel under
    /// the graph ([`samples`]), the time axis spanning them too (the modern style's
    /// pictures, which hp2ps's do not have).
    pub samples: bool,
    /// Each band drawn as its share of its census, every census 100% tall (`--view
    /// share`, [`share`]); the bands chosen from the bytes.
    pub shares: bool,
}

impl Default for SelectOptions {
    fn default() -> Self {
        SelectOptions {
            threshold: 1.0,
            by_deviation: false,
            by_growth: false,
            by_name: None,
            band_limit: 20,
            shading: Shading::Grey,
            heap_lines: false,
            min_x_range: 0.0,
            min_y_range: 0.0,
            reverse: false,
            samples: false,
            shares: false,
        }
    }
}

/// Where a band's data comes from.
#[derive(Debug, Clone, PartialEq)]
pub enum Source {
    /// One identifier of the profile.
    Ident(IdentId),
    /// The merged `OTHER` band: one value per sample.
    Other(Vec<f64>),
}

/// One band of the graph.
#[derive(Debug, Clone, PartialEq)]
pub struct Band {
    /// Name shown in the key.
    pub name: Box<[u8]>,
    /// hp2ps's shade for it.
    pub shade: Shade,
    /// Its data.
    pub source: Source,
}

/// The bands to draw, bottom first, with the figures the layout needs.
#[derive(Debug, Clone, PartialEq)]
pub struct Selection {
    /// Bands, bottom band (and bottom key entry) first.
    pub bands: Vec<Band>,
    /// The time at the x axis's left end: the first sample's, or the run's first
    /// cost-centre sample's where the samples' panel shows them ([`samples`]).
    pub first: f64,
    /// Time span of the x axis (never 0).
    pub x_range: f64,
    /// Height of the y axis in value units (never 0).
    pub y_range: f64,
    /// Area under the stacked bands, value units × sample units.
    pub area: f64,
    /// The cycle the bands' shades come from: a figure in hp2ps's colours draws from it.
    pub shading: Shading,
    /// The run's samples under the graph, where they are drawn.
    pub samples: Option<samples::SamplesPanel>,
}

impl Source {
    /// The data points `(sample, value)` in file order.
    pub fn points<'a>(&'a self, profile: &'a Profile) -> Box<dyn Iterator<Item = (u32, f64)> + 'a> {
        match self {
            Source::Ident(id) => Box::new(profile.bands.series()[*id as usize].points()),
            Source::Other(v) => Box::new(v.iter().enumerate().map(|(i, &v)| (i as u32, v))),
        }
    }

    /// The band's value at each sample where it is not 0 ([`present`]): the points of a
    /// sample summed (a name twice in one census), as a column of every sample sums them.
    pub fn present(&self, profile: &Profile) -> Vec<(usize, f64)> {
        let mut out: Vec<(usize, f64)> = Vec::new();
        for (s, v) in self.points(profile) {
            let s = s as usize;
            match out.last_mut() {
                Some((at, sum)) if *at == s => *sum += v,
                last => {
                    debug_assert!(last.is_none_or(|(at, _)| *at < s), "points in order");
                    out.push((s, 0.0 + v))
                }
            }
        }
        out.retain(|&(_, v)| v != 0.0);
        out
    }
}

/// Widens `opts`'s least ranges to hold `profile`'s picture: the first half of drawing
/// several profiles on one scale (`--same-scale`, `--compare`), one profile at a time so
/// that only one need be in memory. Select each again with the widened options.
pub fn widen(opts: &mut SelectOptions, profile: &Profile, axes: Axes) {
    let selection = select(profile, None, opts);
    if axes != Axes::Y {
        opts.min_x_range = opts.min_x_range.max(selection.x_range);
    }
    if axes != Axes::X {
        opts.min_y_range = opts.min_y_range.max(selection.y_range);
    }
}

/// Which of a picture's ranges pictures share (`--same-scale`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Axes {
    /// The time axis only.
    X,
    /// The value axis only.
    Y,
    /// Both.
    Both,
}

/// Profiles selected on one scale: each with the least ranges that hold them all.
pub fn on_one_scale<const N: usize>(
    profiles: [&Profile; N],
    opts: &SelectOptions,
) -> [Selection; N] {
    let mut opts = opts.clone();
    for p in profiles {
        widen(&mut opts, p, Axes::Both);
    }
    profiles.map(|p| select(p, None, &opts))
}

/// The most values a stacked picture draws: bands drawn times samples. Each band is
/// drawn at every sample (its outline is the stack below it), so `-m0` on 16,000 bands
/// each in one of 16,000 samples would be 256 million points, though the file holds
/// 16,000. hp2ps's default of 20 bands is always allowed (samples are bounded by
/// [`crate::profile::MAX_SAMPLES`]); more only as far as they fit. Past it the smallest
/// bands join `OTHER`, as `-m` does, hp2ps's flags included ([`band_cap`] says so).
pub const MAX_DRAWN_VALUES: usize = 2_000_000;

/// hp2ps's default band limit (`-m20`), always within [`MAX_DRAWN_VALUES`].
const ALWAYS_DRAWN: usize = 20;

/// The band limit `select` applies: `-m`'s (0: none), lowered to what
/// [`MAX_DRAWN_VALUES`] allows for `profile`.
fn effective_limit(profile: &Profile, asked: usize) -> usize {
    let allowed = (MAX_DRAWN_VALUES / profile.samples().max(1)).max(ALWAYS_DRAWN);
    let bands = profile.bands.len();
    if bands <= allowed || (asked != 0 && asked <= allowed) {
        asked
    } else {
        allowed
    }
}

/// `Some(bands)` when [`MAX_DRAWN_VALUES`] lowers the band limit `opts` asks for on
/// `profile` to that many: what a warning says.
pub fn band_cap(profile: &Profile, opts: &SelectOptions) -> Option<usize> {
    let limit = effective_limit(profile, opts.band_limit);
    (limit != opts.band_limit).then_some(limit)
}

/// Runs the selection passes.
pub fn select(profile: &Profile, aux: Option<&Aux>, opts: &SelectOptions) -> Selection {
    let mut table: Vec<Source> = hash_order(profile.bands.names())
        .into_iter()
        .map(Source::Ident)
        .collect();

    trace_elements(profile, &mut table, opts.threshold);
    if opts.by_deviation {
        by_deviation(profile, &mut table);
    }
    if opts.by_growth {
        by_growth(profile, &mut table);
    }
    if let Some(o) = opts.by_name {
        by_name(profile, &mut table, o);
    }
    if let Some(aux) = aux {
        by_aux(profile, &mut table, aux);
    }
    let limit = effective_limit(profile, opts.band_limit);
    if limit != 0 {
        limit_bands(profile, &mut table, limit);
    }
    if opts.reverse {
        table.reverse();
    }

    let n = profile.samples();
    let mut totals = vec![0.0f64; n];
    for src in &table {
        for (b, v) in src.points(profile) {
            totals[b as usize] += v;
        }
    }
    let aux_x = aux.map_or(0.0, |a| a.x_range);
    let aux_y = aux.map_or(0.0, |a| a.y_range);
    // The samples' panel spans every sample, before the first census and after the last.
    let beside = (profile.cost_samples.as_deref()).filter(|_| opts.samples);
    let (mut first, mut last) = profile.span();
    if let Some((a, b)) = beside.and_then(|s| samples::span(s.series())) {
        (first, last) = (first.min(a), last.max(b));
    }
    let x_range = nonzero(fmax(fmax(last - first, aux_x), opts.min_x_range));
    let samples = beside.and_then(|s| samples::panel(s, first, first + x_range));
    let highest = totals[1..]
        .iter()
        .fold(totals[0], |m, &t| if t > m { t } else { m });
    let mut y_range = nonzero(fmax(fmax(highest, aux_y), opts.min_y_range));
    // A profile without a band (an eventlog without a heap profile) is drawn as the
    // runtime's lines.
    if opts.heap_lines || profile.bands.is_empty() {
        let (first, last) = profile.span();
        let heap = &profile.heap;
        // The lines drawn: those with a line's readings in the run.
        for line in [&heap.size, &heap.live] {
            let within = || line.iter().filter(|(t, _)| (first..=last).contains(t));
            if within().nth(crate::profile::LINE_READINGS - 1).is_some() {
                within().for_each(|&(_, v)| y_range = fmax(y_range, v));
            }
        }
    }
    let area = hp2ps_area(&profile.times, &totals);

    let mut shades = shade::Shades::new(
        opts.shading,
        aux.into_iter().flat_map(|a| a.shades.iter().cloned()),
    );
    let bands = table
        .into_iter()
        .map(|source| {
            let name: Box<[u8]> = match &source {
                Source::Ident(id) => profile.bands.names()[*id as usize].clone(),
                Source::Other(_) => b"OTHER".as_slice().into(),
            };
            Band {
                shade: shades.shade_of(&name),
                name,
                source,
            }
        })
        .collect();
    Selection {
        bands,
        first,
        x_range,
        y_range,
        area,
        shading: opts.shading,
        samples,
    }
}

/// C's `max` macro: `a > b ? a : b`.
fn fmax(a: f64, b: f64) -> f64 {
    if a > b { a } else { b }
}

/// hp2ps avoids a division by zero by making an empty range 1.
fn nonzero(r: f64) -> f64 {
    if r == 0.0 { 1.0 } else { r }
}

fn ident(src: &Source) -> IdentId {
    match src {
        Source::Ident(id) => *id,
        Source::Other(_) => unreachable!("OTHER is only made by the last pass"),
    }
}

/// `-t`: sort by total (ascending) and drop the smallest bands whose cumulative share
/// stays below the threshold; the band that crosses it is kept.
fn trace_elements(profile: &Profile, table: &mut Vec<Source>, threshold: f64) {
    let mut totals: Vec<i64> = table
        .iter()
        .map(|src| profile.bands.series()[ident(src) as usize].total())
        .collect();
    selection_sort(table, &mut totals);
    let grand: f64 = totals.iter().map(|&t| t as f64).sum();
    let mut cum = 0.0;
    let mut keep_from = table.len();
    for (i, &t) in totals.iter().enumerate() {
        cum += (100.0 * t as f64) / grand;
        if cum >= threshold {
            keep_from = i;
            break;
        }
    }
    table.drain(..keep_from);
}

/// `-d`: ascending by standard deviation, smoothest band at the bottom. Absent samples
/// count as zero in the mean but are left out of the sum of squares, as in hp2ps.
fn by_deviation(profile: &Profile, table: &mut [Source]) {
    let n = profile.samples() as f64;
    let mut devs: Vec<f64> = table
        .iter()
        .map(|src| {
            let series = &profile.bands.series()[ident(src) as usize];
            let mean = series.points().fold(0.0, |s, (_, v)| s + v) / n;
            let ss = series.points().fold(0.0, |s, (_, v)| {
                let d = v - mean;
                s + d * d
            });
            (ss / (n - 1.0)).sqrt()
        })
        .collect();
    selection_sort(table, &mut devs);
}

/// `--sort growth`: ascending by least-squares slope over the whole run (absent samples
/// count as zero), the fastest-growing band on top and kept by `-m`.
fn by_growth(profile: &Profile, table: &mut [Source]) {
    let line = Line::new(&profile.times);
    let mut slopes: Vec<f64> = table
        .iter()
        .map(|src| line.fit(&src.present(profile)).0)
        .collect();
    selection_sort(table, &mut slopes);
}

/// The least-squares slope of `values` over `times` (value units a sample unit) and its
/// R² (0 when the values do not vary: a flat band is no trend).
pub fn slope(times: &[f64], values: &[f64]) -> (f64, f64) {
    Line::new(times).fit(&present(values))
}

/// A band's values where they are not 0, `(sample, value)` in sample order, each sample
/// once: what its figures are computed from, so that a band of a few points among many
/// samples costs its few.
pub fn present(values: &[f64]) -> Vec<(usize, f64)> {
    (values.iter().enumerate())
        .filter(|&(_, &v)| v != 0.0)
        .map(|(i, &v)| (i, v))
        .collect()
}

/// A least-squares line through samples at `times`, what every band's fit over the same
/// times shares computed once. The sums are arranged so that a sample where a band is 0
/// costs nothing: over `n` samples, `k` of them the band's, with `d = t − t̄` and `S = Σd`
/// over all,
///
/// * slope numerator `Σₖ d(v − v̄) − v̄(S − Σₖ d)`, denominator `Σ d²`;
/// * the band's spread `Σₖ (v − v̄)² + (n − k)v̄²`;
///
/// in exact arithmetic the sums over every sample, taken in this order so that the
/// page's script (`figures.js` `slope`) gives the same bits.
#[derive(Debug, Clone)]
pub struct Line<'a> {
    times: &'a [f64],
    part: std::ops::Range<usize>,
    mean: f64,
    spread: f64,
    den: f64,
}

impl<'a> Line<'a> {
    /// The line through every sample.
    pub fn new(times: &'a [f64]) -> Line<'a> {
        Line::over(times, 0..times.len())
    }

    /// The line through the samples `part` of `times` (a window's trend part).
    pub fn over(times: &'a [f64], part: std::ops::Range<usize>) -> Line<'a> {
        let some = &times[part.clone()];
        let mean = some.iter().fold(0.0, |s, t| s + t) / some.len().max(1) as f64;
        let (spread, den) = some.iter().fold((0.0, 0.0), |(s, q), t| {
            let d = t - mean;
            (s + d, q + d * d)
        });
        Line {
            times,
            part,
            mean,
            spread,
            den,
        }
    }

    /// The slope and R² of the band whose values are `points` ([`present`]: indices
    /// into the times, in order, each once, none 0) and 0 elsewhere; points outside
    /// the line's part are left out.
    pub fn fit(&self, points: &[(usize, f64)]) -> (f64, f64) {
        let n = self.part.len();
        if n < 2 || self.den <= 0.0 {
            return (0.0, 0.0);
        }
        let from = points.partition_point(|&(i, _)| i < self.part.start);
        let to = points.partition_point(|&(i, _)| i < self.part.end);
        let points = &points[from..to];
        let mv = points.iter().fold(0.0, |s, &(_, v)| s + v) / n as f64;
        let (mut num, mut own, mut var) = (0.0, 0.0, 0.0);
        for &(i, v) in points {
            let d = self.times[i] - self.mean;
            num += d * (v - mv);
            own += d;
            var += (v - mv) * (v - mv);
        }
        let num = num - mv * (self.spread - own);
        let var = var + (n - points.len()) as f64 * (mv * mv);
        let r2 = if var > 0.0 {
            (num * num / (self.den * var)).clamp(0.0, 1.0)
        } else {
            0.0
        };
        (num / self.den, r2)
    }
}

/// `-i`: by name, compared bytewise like `strcmp`.
fn by_name(profile: &Profile, table: &mut [Source], o: NameOrder) {
    let mut names: Vec<&[u8]> = table
        .iter()
        .map(|s| &*profile.bands.names()[ident(s) as usize])
        .collect();
    match o {
        NameOrder::Ascending => selection_sort_by(table, &mut names, |a, b| a < b),
        NameOrder::Descending => selection_sort_by(table, &mut names, |a, b| a > b),
    }
}

/// `-p`: by the ORDER key of the `.aux` file; names it does not list get 0 and sink.
fn by_aux(profile: &Profile, table: &mut [Source], aux: &Aux) {
    let keys = aux.order_keys();
    let mut k: Vec<i64> = table
        .iter()
        .map(|s| {
            keys.get(&*profile.bands.names()[ident(s) as usize])
                .copied()
                .unwrap_or(0)
        })
        .collect();
    selection_sort(table, &mut k);
}

/// `-m`: with more than `limit` bands, the bottom ones are merged into one `OTHER`
/// band at the bottom so that `limit` remain.
fn limit_bands(profile: &Profile, table: &mut Vec<Source>, limit: usize) {
    if table.len() <= limit {
        return;
    }
    let merged = table.len() - limit + 1;
    let mut other = vec![0.0; profile.samples()];
    for src in table.drain(..merged) {
        profile.bands.series()[ident(&src) as usize].for_each(|b, v| other[b as usize] += v);
    }
    table.insert(0, Source::Other(other));
}

/// The title's area: hp2ps's trapezoid rule over the per-sample totals in its own
/// arithmetic (a rectangle under the lower value plus a triangle), kept because the
/// title prints it and hp2ps's bytes depend on every rounding. The figures a reader
/// compares (`--summary`, the page) use [`crate::analysis::window`]'s plain
/// trapezoids, which a page's script can repeat bit for bit.
fn hp2ps_area(times: &[f64], m: &[f64]) -> f64 {
    let mut area = 0.0;
    for i in 1..times.len() {
        let base = times[i] - times[i - 1];
        let trap = if m[i] > m[i - 1] {
            base * m[i - 1] + (base * (m[i] - m[i - 1])) / 2.0
        } else {
            base * m[i] + (base * (m[i - 1] - m[i])) / 2.0
        };
        area += trap;
    }
    area
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::hp::parse;

    fn profile(body: &str) -> Profile {
        parse(
            format!("JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"s\"\nVALUE_UNIT \"b\"\n{body}")
                .as_bytes(),
        )
        .unwrap()
        .profile
    }

    fn names(sel: &Selection) -> Vec<String> {
        sel.bands
            .iter()
            .map(|b| String::from_utf8_lossy(&b.name).into_owned())
            .collect()
    }

    #[test]
    fn trace_threshold_keeps_the_band_that_crosses_it() {
        // Totals 1, 1, 98 of 100: a 1% threshold drops the first (cum 1% >= 1% stops at
        // it? no: 1 >= 1 holds, so it is kept) — the crossing band is always kept.
        let p = profile("BEGIN_SAMPLE 0.0\na 1\nb 1\nc 98\nEND_SAMPLE 0.0\n");
        let sel = select(&p, None, &SelectOptions::default());
        assert_eq!(sel.bands.len(), 3);
        let sel = select(
            &p,
            None,
            &SelectOptions {
                threshold: 2.5,
                ..Default::default()
            },
        );
        // cum 1, 2 < 2.5, then 100 >= 2.5: a and b go.
        assert_eq!(names(&sel), vec!["c"]);
    }

    #[test]
    fn all_zero_profile_removes_every_band() {
        let p = profile("BEGIN_SAMPLE 0.0\na 0\nEND_SAMPLE 0.0\n");
        let sel = select(&p, None, &SelectOptions::default());
        assert!(sel.bands.is_empty());
        assert_eq!(sel.y_range, 1.0);
        assert_eq!(sel.x_range, 1.0);
    }

    #[test]
    fn band_limit_merges_the_bottom_bands_into_other() {
        let p = profile(
            "BEGIN_SAMPLE 0.0\na 10\nb 20\nc 30\nd 40\nEND_SAMPLE 0.0\nBEGIN_SAMPLE 1.0\na 1\nEND_SAMPLE 1.0\n",
        );
        let sel = select(
            &p,
            None,
            &SelectOptions {
                band_limit: 3,
                ..Default::default()
            },
        );
        assert_eq!(names(&sel), vec!["OTHER", "c", "d"]);
        assert_eq!(sel.bands[0].source, Source::Other(vec![30.0, 1.0]));
    }

    #[test]
    fn area_is_the_trapezoid_rule_and_ranges_come_from_the_survivors() {
        let p = profile(
            "BEGIN_SAMPLE 0.0\nEND_SAMPLE 0.0\nBEGIN_SAMPLE 1.0\nalpha 1000\nbeta 500\nEND_SAMPLE 1.0\nBEGIN_SAMPLE 2.0\nalpha 3000\nbeta 200\ngamma 100\nEND_SAMPLE 2.0\n",
        );
        let sel = select(&p, None, &SelectOptions::default());
        assert_eq!(names(&sel), vec!["gamma", "beta", "alpha"]);
        assert_eq!(sel.area, 3150.0);
        assert_eq!(sel.y_range, 3300.0);
        assert_eq!(sel.x_range, 2.0);
        let shades: Vec<f64> = sel.bands.iter().map(|b| b.shade.number()).collect();
        assert_eq!(shades, vec![0.0, 0.2, 0.6]);
    }

    #[test]
    fn name_order_descending_puts_the_greatest_name_at_the_bottom() {
        let p = profile("BEGIN_SAMPLE 0.0\nb 10\na 20\nc 30\nEND_SAMPLE 0.0\n");
        let o = |by_name| SelectOptions {
            by_name,
            ..Default::default()
        };
        assert_eq!(
            names(&select(&p, None, &o(Some(NameOrder::Ascending)))),
            ["a", "b", "c"]
        );
        assert_eq!(
            names(&select(&p, None, &o(Some(NameOrder::Descending)))),
            ["c", "b", "a"]
        );
    }

    #[test]
    fn aux_order_sinks_unlisted_names_and_aux_shades_win() {
        let p = profile("BEGIN_SAMPLE 0.0\na 10\nb 20\nc 30\nEND_SAMPLE 0.0\n");
        let aux = crate::select::aux::parse(
            b"X_RANGE 5.00\nY_RANGE 0.00\nORDER c 1\nORDER a 2\nSHADE a 0.50\n",
        )
        .unwrap();
        let sel = select(&p, Some(&aux), &SelectOptions::default());
        assert_eq!(names(&sel), ["b", "c", "a"]);
        assert_eq!(sel.x_range, 5.0);
        let shades: Vec<f64> = sel.bands.iter().map(|b| b.shade.number()).collect();
        assert_eq!(shades, vec![0.0, 0.2, 0.5]);
    }
}
