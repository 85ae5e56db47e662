//! Which band is the leak: each band's peak, when it first reached it, its mean, its
//! share of the area under the graph and whether it is still growing at the end of the
//! run. `--summary` prints it ([`crate::export::summary`]); the page shows it as a table.
//!
//! Definitions (docs/inspect.md repeats them for users):
//! * a band is 0 at a sample where it has no value; a name given twice in one sample
//!   counts once with the sum;
//! * peak: the largest value; peak time: the first sample time with that value;
//! * mean: the sum of the values over the number of samples;
//! * share: the band's area (trapezoids between sample times, as the title's area) over
//!   the sum of all bands' areas; with a single sample, its value over the total;
//! * trend: a least-squares line through the band's values over the last quarter of the
//!   run's time (at least its last three samples); `growing` when that line rises across
//!   the window by more than 5% of the band's peak **and** by more than 1% of the peak
//!   of the whole heap (a band of a few bytes that doubles is no leak), `shrinking` when
//!   it falls by as much, else `flat`. The line's slope (value units per second) and its
//!   R² (how much of the band's variation over the window the line explains: 1 for a
//!   steady climb, near 0 for noise) are given with it. The empty census GHC's runtime
//!   writes as the program exits is left out of the window: every band drops to 0
//!   there, which says nothing about a leak.

use serde::Serialize;

use super::table::Table;
use crate::units::{ByteUnits, Scale, human, seconds};

/// The last part of the run the trend looks at.
const TREND_WINDOW: f64 = 0.25;
/// How much of its peak a band must gain (or lose) over that window to be flagged.
pub const TREND_CHANGE: f64 = 0.05;
/// How much of the whole heap's peak a band must gain (or lose) over that window to be
/// flagged.
pub const TREND_SHARE: f64 = 0.01;

/// Where a band is heading at the end of the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Trend {
    /// Its trend line rises by more than `TREND_CHANGE` (5%) of its peak.
    Growing,
    /// Neither.
    Flat,
    /// Its trend line falls by as much.
    Shrinking,
}

impl Trend {
    /// The word the table prints.
    pub fn word(self) -> &'static str {
        match self {
            Trend::Growing => "growing",
            Trend::Flat => "flat",
            Trend::Shrinking => "shrinking",
        }
    }
}

/// One band's figures.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BandSummary {
    /// The band, as text.
    pub name: String,
    /// Its largest value.
    #[serde(serialize_with = "crate::units::number")]
    pub peak: f64,
    /// When it first reached it.
    pub peak_time: f64,
    /// Its mean over every sample.
    pub mean: f64,
    /// Its area over all bands' area.
    pub share: f64,
    /// Where it heads at the end of the run.
    pub trend: Trend,
    /// The trend line's slope over the window, in value units per time unit.
    pub growth_per_second: f64,
    /// How well the line fits the band's values over the window (R², 0 to 1).
    pub growth_r2: f64,
}

/// The sum of all bands.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Total {
    /// The largest total.
    #[serde(serialize_with = "crate::units::number")]
    pub peak: f64,
    /// When the total first reached it.
    pub peak_time: f64,
    /// The mean total.
    pub mean: f64,
}

/// The whole summary, bands sorted by share, largest first.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// The JSON layout's version: a script can refuse a layout it does not know.
    pub version: u32,
    /// `JOB`.
    pub job: String,
    /// `DATE`.
    pub date: String,
    /// `SAMPLE_UNIT`.
    pub sample_unit: String,
    /// `VALUE_UNIT`.
    pub value_unit: String,
    /// How many samples.
    pub samples: usize,
    /// Bands the profile has; `bands` may list fewer (`--top`).
    pub band_count: usize,
    /// Every band together.
    pub total: Total,
    /// The bands, largest share first (cut at `top`).
    pub bands: Vec<BandSummary>,
}

/// The first index of the largest value, and that value.
pub(crate) fn peak(values: &[f64]) -> (usize, f64) {
    values.iter().enumerate().fold(
        (0, f64::NEG_INFINITY),
        |(k, m), (i, &v)| {
            if v > m { (i, v) } else { (k, m) }
        },
    )
}

/// The area under `values` over `times`: trapezoids, as the title's area.
pub(crate) fn area(times: &[f64], values: &[f64]) -> f64 {
    times
        .windows(2)
        .zip(values.windows(2))
        .map(|(t, v)| (t[1] - t[0]) * (v[0] + v[1]) / 2.0)
        .sum()
}

/// The least-squares slope of `values` over `times` in a window, and its R².
fn slope(times: &[f64], values: &[f64], window: std::ops::Range<usize>) -> (f64, f64) {
    crate::select::slope(&times[window.clone()], &values[window])
}

/// The trend window: from its first sample to the end of `times`, less trailing samples
/// where the total is 0 (the exit census), as long as three samples remain.
fn trend_window(times: &[f64], totals: &[f64]) -> std::ops::Range<usize> {
    let mut end = times.len();
    while end > 3 && totals[end - 1] == 0.0 {
        end -= 1;
    }
    let (first, last) = (times[0], times[end - 1]);
    let since = last - (last - first) * TREND_WINDOW;
    let by_time = times[..end].partition_point(|&t| t < since);
    by_time.min(end.saturating_sub(3))..end
}

/// Summarises the table's columns; `top` keeps the largest shares only.
pub fn summarise(table: &Table, top: Option<usize>) -> Summary {
    let profile = table.profile;
    let times = &profile.times;
    let n = times.len();
    let totals = table.totals();
    let window = trend_window(times, &totals);
    let span = times[window.end - 1] - times[window.start];
    let heap_peak = peak(&totals).1;
    let mut bands: Vec<(BandSummary, f64)> = (0..table.columns.len())
        .map(|k| {
            let values = table.column(k);
            let (at, peak) = peak(&values);
            let (growth, r2) = slope(times, &values, window.clone());
            let change = growth * span;
            let least = (TREND_CHANGE * peak).max(TREND_SHARE * heap_peak);
            let trend = if peak > 0.0 && change > least {
                Trend::Growing
            } else if peak > 0.0 && change < -least {
                Trend::Shrinking
            } else {
                Trend::Flat
            };
            let weight = if n > 1 {
                area(times, &values)
            } else {
                values[0]
            };
            let summary = BandSummary {
                name: String::from_utf8_lossy(&table.columns[k].0).into_owned(),
                peak,
                peak_time: times[at],
                mean: values.iter().sum::<f64>() / n as f64,
                share: 0.0,
                trend,
                growth_per_second: growth,
                growth_r2: r2,
            };
            (summary, weight)
        })
        .collect();
    let whole: f64 = bands.iter().map(|(_, w)| w).sum();
    for (b, w) in &mut bands {
        b.share = if whole > 0.0 { *w / whole } else { 0.0 };
    }
    // Largest share first; equal shares in the table's order.
    bands.sort_by(|a, b| b.0.share.total_cmp(&a.0.share));
    let band_count = bands.len();
    let (at, top_total) = peak(&totals);
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    Summary {
        version: 1,
        job: text(&profile.job),
        date: text(&profile.date),
        sample_unit: text(&profile.sample_unit),
        value_unit: text(&profile.value_unit),
        samples: n,
        band_count,
        total: Total {
            peak: top_total,
            peak_time: times[at],
            mean: totals.iter().sum::<f64>() / n as f64,
        },
        bands: bands
            .into_iter()
            .map(|(b, _)| b)
            .take(top.unwrap_or(usize::MAX))
            .collect(),
    }
}

impl Summary {
    /// A value as people read it: `12.3 MB` for bytes (`12.3 MiB` in binary units).
    pub fn value_text(&self, v: f64, units: ByteUnits) -> String {
        value_text(&self.value_unit, v, units)
    }

    /// A sample time as people read it: `2.50 s` when the unit is seconds.
    pub fn time_text(&self, t: f64) -> String {
        time_text(&self.sample_unit, t)
    }
}

/// A value in `value_unit` as people read it: `12.3 MB` for bytes.
pub fn value_text(value_unit: &str, v: f64, units: ByteUnits) -> String {
    human(v, Scale::of(value_unit.as_bytes(), units))
}

/// A time in `sample_unit` as people read it: `2.50 s` when the unit is seconds.
pub fn time_text(sample_unit: &str, t: f64) -> String {
    if sample_unit == "seconds" {
        seconds(t)
    } else {
        format!("{t}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::hp::parse;

    fn summary(body: &str) -> Summary {
        let p = parse(
            format!("JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n{body}")
                .as_bytes(),
        )
        .unwrap()
        .profile;
        summarise(&Table::all(&p), None)
    }

    #[test]
    fn peaks_means_shares_and_trends() {
        let s = summary(
            "BEGIN_SAMPLE 0\nleak\t10\nflat\t50\nEND_SAMPLE 0\n\
             BEGIN_SAMPLE 1\nleak\t20\nflat\t60\nEND_SAMPLE 1\n\
             BEGIN_SAMPLE 2\nleak\t30\nflat\t50\nEND_SAMPLE 2\n\
             BEGIN_SAMPLE 3\nleak\t40\nflat\t60\nEND_SAMPLE 3\n\
             BEGIN_SAMPLE 4\nleak\t50\nflat\t50\nEND_SAMPLE 4\n",
        );
        let [flat, leak] = &s.bands[..] else { panic!() };
        assert_eq!((flat.name.as_str(), leak.name.as_str()), ("flat", "leak"));
        assert_eq!((leak.peak, leak.peak_time, leak.mean), (50.0, 4.0, 30.0));
        // flat reaches 60 first at 1 s.
        assert_eq!((flat.peak, flat.peak_time, flat.mean), (60.0, 1.0, 54.0));
        assert_eq!(leak.trend, Trend::Growing);
        assert_eq!(flat.trend, Trend::Flat);
        // Areas: leak 10+... = 120, flat 220.
        assert!((leak.share - 120.0 / 340.0).abs() < 1e-12);
        // Totals 60 80 80 100 100: the peak first at 3 s.
        assert_eq!((s.total.peak, s.total.peak_time), (100.0, 3.0));
    }

    #[test]
    fn a_few_bytes_that_double_are_no_leak_and_the_fit_is_told() {
        let s = summary(
            "BEGIN_SAMPLE 0\nbig\t1000000\ntiny\t16\nEND_SAMPLE 0\n\
             BEGIN_SAMPLE 1\nbig\t2000000\ntiny\t24\nEND_SAMPLE 1\n\
             BEGIN_SAMPLE 2\nbig\t3000000\ntiny\t32\nEND_SAMPLE 2\n\
             BEGIN_SAMPLE 3\nbig\t4000000\ntiny\t40\nEND_SAMPLE 3\n",
        );
        let by = |n: &str| s.bands.iter().find(|b| b.name == n).unwrap();
        assert_eq!(by("big").trend, Trend::Growing);
        // It more than doubles over the window, but 24 bytes are not 1% of the heap.
        assert_eq!(by("tiny").trend, Trend::Flat);
        assert_eq!(by("big").growth_per_second, 1_000_000.0);
        assert!((by("big").growth_r2 - 1.0).abs() < 1e-12, "a straight line");
        let noisy = summary(
            "BEGIN_SAMPLE 0\nb\t100\nEND_SAMPLE 0\nBEGIN_SAMPLE 1\nb\t300\nEND_SAMPLE 1\n\
             BEGIN_SAMPLE 2\nb\t100\nEND_SAMPLE 2\nBEGIN_SAMPLE 3\nb\t300\nEND_SAMPLE 3\n",
        );
        assert!(
            noisy.bands[0].growth_r2 < 0.5,
            "{}",
            noisy.bands[0].growth_r2
        );
    }

    #[test]
    fn the_exit_census_does_not_hide_a_leak() {
        let s = summary(
            "BEGIN_SAMPLE 0\nleak\t10\nEND_SAMPLE 0\n\
             BEGIN_SAMPLE 1\nleak\t20\nEND_SAMPLE 1\n\
             BEGIN_SAMPLE 2\nleak\t30\nEND_SAMPLE 2\n\
             BEGIN_SAMPLE 3\nleak\t40\nEND_SAMPLE 3\n\
             BEGIN_SAMPLE 3.1\nEND_SAMPLE 3.1\n",
        );
        assert_eq!(s.bands[0].trend, Trend::Growing);
    }

    #[test]
    fn absent_values_count_as_zero() {
        let s = summary(
            "BEGIN_SAMPLE 0\na\t10\nEND_SAMPLE 0\n\
             BEGIN_SAMPLE 1\nb\t4\nb\t4\nEND_SAMPLE 1\n",
        );
        let b = s.bands.iter().find(|b| b.name == "b").unwrap();
        assert_eq!((b.peak, b.mean), (8.0, 4.0));
    }
}
