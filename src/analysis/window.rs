//! A stretch of the run and each band's figures over it: peak, when, mean, share, and
//! where the band heads (its trend). The one definition of these numbers: `--summary`
//! (over the run, or `--from`/`--to`'s window) computes them here, and the HTML page's
//! table computes them for its zoomed window with `figures.js`, which follows this file
//! step for step, sum for sum, so that both give the same bits on the same samples (a
//! browser test holds the page's table against `--summary=json --from --to`).
//!
//! Definitions (docs/inspect.md repeats them for users). Over the window's samples:
//! * a band is 0 at a sample where it has no value;
//! * **peak**: the largest value; **at**: the first sample time with that value;
//! * **mean**: the sum of the values over the number of samples;
//! * **share**: the band's area (plain trapezoids between sample times)
//!   over the area of the heap's total; with one sample, its value over the total;
//! * **trend**: a least-squares line through the band's values over the *last
//!   [`TREND_WINDOW`]* of the run's body (at least its last [`TREND_LEAST_SAMPLES`]
//!   samples): the window's time, less trailing censuses where the whole heap is 0 (the
//!   one GHC writes as the program exits) and less its **teardown** — where the heap's
//!   highest census within the last [`TEARDOWN_SPAN`] of the time, at least
//!   [`TEARDOWN_HIGH`] of the run's highest, is followed by a fall to at most
//!   [`TEARDOWN_FALL`] of it at the last census (a program letting its data go as it
//!   finishes, at once or over a while), the body ends at that census. Its slope is the
//!   **growth** (value units per time unit) and its R² says how much of the band's
//!   movement the line explains. The band is `growing` when the line rises across that
//!   part by more than [`TREND_CHANGE`] of the band's peak, by more than [`TREND_SHARE`]
//!   of the heap's peak (a few bytes that double are no leak), **and** the rise is told
//!   from noise: the line's slope is at least [`TREND_T`] standard errors from flat,
//!   which over `n` samples is an R² of at least `T²/(T²+n−2)` (a saw-tooth whose line
//!   happens to tilt over a few censuses is noise; over hundreds a small steady climb is
//!   not); `shrinking` when it falls likewise; else `flat`. A body of fewer than
//!   [`MIN_TREND_CENSUSES`] censuses has no trend to judge: `unjudged`, which no
//!   `--check` of a trend passes or fails.
//!
//! The thresholds were chosen on generated heaps of many shapes, teardowns, noise,
//! timings and census counts (`tests/it/shapes.rs`), and the rule's misses on them are
//! published in docs/inspect.md: a rule that passed only the runs it was written against
//! would call the next leak flat.

use serde::Serialize;

/// The part of the run's body, at its end, the trend line goes through: long enough to
/// see a slow leak past a program's phases, short enough that an early climb to a steady
/// heap is behind it.
pub const TREND_WINDOW: f64 = 0.6;
/// The fewest samples the trend line goes through, where censuses bunch early.
pub const TREND_LEAST_SAMPLES: usize = 8;
/// How much of its peak a band must gain (or lose) over the trend's part to be flagged.
pub const TREND_CHANGE: f64 = 0.05;
/// How much of the heap's peak a band must gain (or lose) over it to be flagged.
pub const TREND_SHARE: f64 = 0.01;
/// How many standard errors from flat the trend line's slope must be to be a trend: a
/// t-test of the slope, so that the R² it takes falls as the samples grow.
pub const TREND_T: f64 = 2.5;
/// The fewest censuses in the run's body for its trend to be judged: fewer, and a
/// line through the last part of them cannot tell a leak from a program's phases.
pub const MIN_TREND_CENSUSES: usize = 16;
/// A teardown begins within this last part of the time.
pub const TEARDOWN_SPAN: f64 = 1.0 / 3.0;
/// A teardown begins at a census of at least this share of the run's highest total.
pub const TEARDOWN_HIGH: f64 = 0.8;
/// A teardown ends with a last census of at most this share of where it began.
pub const TEARDOWN_FALL: f64 = 0.5;

/// The R² a least-squares line through `n` samples needs for its slope to be
/// [`TREND_T`] standard errors from flat: `t = r√(n−2)/√(1−r²)`, solved for `r²`.
pub fn needed_r2(n: usize) -> f64 {
    let t2 = TREND_T * TREND_T;
    if n <= 2 {
        1.0
    } else {
        t2 / (t2 + (n - 2) as f64)
    }
}

/// Where a band is heading at the end of the window.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Trend {
    /// Its trend line rises by enough, and explains the band's movement.
    Growing,
    /// Neither growing nor shrinking: steady, too small a change, or noise.
    Flat,
    /// Its trend line falls by enough, and explains the band's movement.
    Shrinking,
    /// Too few censuses to tell ([`MIN_TREND_CENSUSES`]).
    Unjudged,
}

impl Trend {
    /// The word the tables print.
    pub fn word(self) -> &'static str {
        match self {
            Trend::Growing => "growing",
            Trend::Flat => "flat",
            Trend::Shrinking => "shrinking",
            Trend::Unjudged => "unjudged",
        }
    }
}

/// One band's figures over a window.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Figures {
    /// Its largest value.
    pub peak: f64,
    /// When it first reached it.
    pub peak_time: f64,
    /// Its mean over the window's samples.
    pub mean: f64,
    /// Its area over the heap's area.
    pub share: f64,
    /// The trend line's slope, in value units per time unit.
    pub growth: f64,
    /// How much of the band's movement the line explains (R², 0 to 1).
    pub r2: f64,
    /// The verdict.
    pub trend: Trend,
}

/// A window: its samples' times and the whole heap's total at each, with what every
/// band's figures are measured against.
#[derive(Debug, Clone)]
pub struct Window<'a> {
    times: &'a [f64],
    /// The samples the trend line goes through.
    trend: std::ops::Range<usize>,
    /// Where the teardown the trend leaves out begins: the body's last sample.
    teardown: Option<usize>,
    /// The heap's largest total.
    heap_peak: f64,
    /// The area under the heap's total (its one value, with one sample).
    whole: f64,
    /// The trend line's samples, what every band's fit shares.
    line: crate::select::Line<'a>,
}

impl<'a> Window<'a> {
    /// The window of these samples (at least one), `totals` being the whole heap's.
    pub fn new(times: &'a [f64], totals: &[f64]) -> Window<'a> {
        let (trend, teardown) = trend_part(times, totals);
        Window {
            times,
            trend: trend.clone(),
            teardown,
            heap_peak: peak(totals).1,
            whole: weight(times, totals),
            line: crate::select::Line::over(times, trend),
        }
    }

    /// The samples' times.
    pub fn times(&self) -> &'a [f64] {
        self.times
    }

    /// How many censuses the run's body has (the window less its exit census and its
    /// teardown): whether its trend can be judged ([`MIN_TREND_CENSUSES`]).
    pub fn body(&self) -> usize {
        self.trend.end
    }

    /// The time span the trend line covers: its first and last sample's times.
    pub fn trend_span(&self) -> (f64, f64) {
        (self.times[self.trend.start], self.times[self.trend.end - 1])
    }

    /// The R² the trend line needs over this window's trend part ([`needed_r2`]).
    pub fn needed_r2(&self) -> f64 {
        needed_r2(self.trend.len())
    }

    /// The time the teardown left out of the trend begins (the body's highest census),
    /// if the run has one.
    pub fn teardown_from(&self) -> Option<f64> {
        self.teardown.map(|k| self.times[k])
    }

    /// A band's figures from its value at each of the window's samples.
    pub fn figures(&self, values: &[f64]) -> Figures {
        self.figures_of(&crate::select::present(values))
    }

    /// A band's figures from its values where they are not 0 (`(sample, value)` in
    /// order, each sample once: [`crate::select::present`]), in time proportional to
    /// them: the same bits as [`Window::figures`] of every sample's value.
    pub fn figures_of(&self, points: &[(usize, f64)]) -> Figures {
        let times = self.times;
        let n = times.len();
        let (at, peak) = peak_of(n, points);
        let part = self.trend.clone();
        let (growth, r2) = self.line.fit(points);
        let change = growth * (times[part.end - 1] - times[part.start]);
        let least = (TREND_CHANGE * peak).max(TREND_SHARE * self.heap_peak);
        let fits = r2 >= self.needed_r2();
        let trend = if self.trend.end < MIN_TREND_CENSUSES {
            Trend::Unjudged
        } else if peak > 0.0 && fits && change > least {
            Trend::Growing
        } else if peak > 0.0 && fits && change < -least {
            Trend::Shrinking
        } else {
            Trend::Flat
        };
        let whole = self.whole;
        let weight = if n > 1 {
            area_of(times, points)
        } else {
            points.first().map_or(0.0, |p| p.1)
        };
        Figures {
            peak,
            peak_time: times[at],
            mean: points.iter().fold(0.0, |s, p| s + p.1) / n as f64,
            share: if whole > 0.0 { weight / whole } else { 0.0 },
            growth,
            r2,
            trend,
        }
    }
}

/// [`peak`] of `n` values that are 0 but at `points`: the first sample with the
/// largest, a sample without a point being 0.
fn peak_of(n: usize, points: &[(usize, f64)]) -> (usize, f64) {
    let (k, m) = points.iter().fold(
        (0, f64::NEG_INFINITY),
        |(k, m), &(i, v)| {
            if v > m { (i, v) } else { (k, m) }
        },
    );
    if points.len() == n {
        return (k, m);
    }
    // The first sample without a point: where the indices stop counting up from 0.
    let zero = (0..points.len())
        .find(|&j| points[j].0 != j)
        .unwrap_or(points.len());
    if 0.0 > m || (0.0 == m && zero < k) {
        (zero, 0.0)
    } else {
        (k, m)
    }
}

/// [`trapezoids`] of values that are 0 but at `points`: the intervals either end of
/// which has a point, in order, each with the sum [`trapezoids`] makes of it.
fn area_of(times: &[f64], points: &[(usize, f64)]) -> f64 {
    let mut area = 0.0;
    for (j, &(i, v)) in points.iter().enumerate() {
        // The interval before, unless the point before ended it.
        if i > 0 && (j == 0 || points[j - 1].0 + 1 != i) {
            area += (times[i] - times[i - 1]) * (0.0 + v) / 2.0;
        }
        if i + 1 < times.len() {
            let next = points
                .get(j + 1)
                .filter(|p| p.0 == i + 1)
                .map_or(0.0, |p| p.1);
            area += (times[i + 1] - times[i]) * (v + next) / 2.0;
        }
    }
    area
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

/// The area under `values` over `times` by plain trapezoids, `(t₁ − t₀)(v₀ + v₁)/2`
/// summed in order: what shares and compared areas are measured with, written so that
/// a page's script gives the same bits. (The title's area is hp2ps's own arithmetic,
/// `select::hp2ps_area`, equal but for rounding.)
pub(crate) fn trapezoids(times: &[f64], values: &[f64]) -> f64 {
    times
        .windows(2)
        .zip(values.windows(2))
        .map(|(t, v)| (t[1] - t[0]) * (v[0] + v[1]) / 2.0)
        .sum()
}

/// What a band weighs in the share: its area, or its value when there is one sample.
fn weight(times: &[f64], values: &[f64]) -> f64 {
    if times.len() > 1 {
        trapezoids(times, values)
    } else {
        values[0]
    }
}

/// The samples the trend line goes through: from the first at or after the last
/// [`TREND_WINDOW`] of the body's time to the body's end, as long as
/// [`TREND_LEAST_SAMPLES`] remain (or all of them); with the teardown's first sample, if
/// there is one. The body is the window less trailing samples where the heap is 0 (the
/// exit census) and less its teardown.
fn trend_part(times: &[f64], totals: &[f64]) -> (std::ops::Range<usize>, Option<usize>) {
    let mut end = times.len();
    while end > 3 && totals[end - 1] == 0.0 {
        end -= 1;
    }
    let teardown = teardown(&times[..end], &totals[..end]);
    if let Some(top) = teardown {
        end = top + 1;
    }
    let (first, last) = (times[0], times[end - 1]);
    let since = last - (last - first) * TREND_WINDOW;
    let by_time = times[..end].partition_point(|&t| t < since);
    (
        by_time.min(end.saturating_sub(TREND_LEAST_SAMPLES))..end,
        teardown,
    )
}

/// The body's last sample where the samples after it are a teardown: the highest total
/// within the last [`TEARDOWN_SPAN`] of the time (its last census, where it is reached
/// more than once: a plateau ends where the fall begins), at least [`TEARDOWN_HIGH`] of
/// the run's highest, and a last census of at most [`TEARDOWN_FALL`] of it; at least
/// three samples before the teardown begins.
fn teardown(times: &[f64], totals: &[f64]) -> Option<usize> {
    let n = times.len();
    let high = peak(totals).1;
    let since = times[n - 1] - (times[n - 1] - times[0]) * TEARDOWN_SPAN;
    let from = times.partition_point(|&t| t < since);
    let top = (from..n).fold(from, |k, i| if totals[i] >= totals[k] { i } else { k });
    let tall = totals[top] > 0.0 && totals[top] >= TEARDOWN_HIGH * high;
    let falls = totals[n - 1] <= TEARDOWN_FALL * totals[top];
    (top >= 2 && top + 1 < n && tall && falls).then_some(top)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_saw_tooth_whose_line_tilts_is_noise_and_a_climb_is_a_trend() {
        let times: Vec<f64> = (0..20).map(f64::from).collect();
        // Over the last 60% (8 to 19): a saw-tooth of 100s and 900s whose line tilts up
        // by more than 5% of its peak, but explains too little of its movement.
        let mut saw: Vec<f64> = (0..20).map(|i| [100., 900.][i % 2]).collect();
        saw[19] = 900.0;
        saw[18] = 900.0;
        let climb: Vec<f64> = (0..20).map(|i| f64::from(i) * 100.0).collect();
        let totals: Vec<f64> = saw.iter().zip(&climb).map(|(a, b)| a + b).collect();
        let w = Window::new(&times, &totals);
        assert_eq!(w.trend_span(), (8.0, 19.0));
        let noise = w.figures(&saw);
        assert!(noise.growth * 11.0 > 45.0, "{noise:?}");
        assert!(noise.r2 < w.needed_r2(), "{noise:?}");
        assert_eq!(noise.trend, Trend::Flat);
        let leak = w.figures(&climb);
        assert_eq!(
            (leak.growth, leak.r2, leak.trend),
            (100.0, 1.0, Trend::Growing)
        );
    }

    /// The R² a slope needs falls as the samples grow: `T²/(T²+n−2)`, so that a line
    /// through 10 samples needs R² ≥ 0.44 and through 200 ≥ 0.03 (a t of 2.5 either way).
    #[test]
    fn the_r2_a_trend_needs_is_a_t_test_of_its_slope() {
        assert_eq!(needed_r2(2), 1.0);
        assert!((needed_r2(10) - 6.25 / 14.25).abs() < 1e-12);
        for n in [3, 10, 50, 200] {
            // r2 = needed gives t = r√(n−2)/√(1−r²) = T exactly.
            let r2 = needed_r2(n);
            let t = (r2 * (n - 2) as f64 / (1.0 - r2)).sqrt();
            assert!((t - TREND_T).abs() < 1e-9, "n = {n}: t = {t}");
        }
    }

    #[test]
    fn one_sample_weighs_by_its_value() {
        let w = Window::new(&[3.0], &[40.0]);
        let f = w.figures(&[10.0]);
        assert_eq!((f.share, f.mean, f.peak_time), (0.25, 10.0, 3.0));
        assert_eq!(f.trend, Trend::Unjudged);
    }

    /// A heap that climbs to the end of its work and then lets go (a leak whose program
    /// frees its data as it finishes, at once or over the last third of the time) is
    /// growing over its body; a fall that is shallow, or begins before the last third,
    /// is the run's own and stays in the trend.
    #[test]
    fn a_teardown_is_left_out_of_the_trend_and_only_a_teardown() {
        let times: Vec<f64> = (0..20).map(f64::from).collect();
        let climb = |fall: &[f64]| -> Vec<f64> {
            let mut v: Vec<f64> = (1..=20 - fall.len())
                .map(|i| f64::from(i as u32) * 10.0)
                .collect();
            v.extend(fall);
            v
        };
        // 10..170 by 10, then 40, 20, 5: the fall after 170 is the teardown.
        let leak = climb(&[40.0, 20.0, 5.0]);
        let w = Window::new(&times, &leak);
        assert_eq!(w.teardown_from(), Some(16.0));
        assert_eq!(w.trend_span(), (7.0, 16.0));
        assert_eq!(w.figures(&leak).trend, Trend::Growing);
        // A fall to 60% of the peak is not a letting go: the trend sees it.
        let shallow = climb(&[110.0, 105.0, 102.0]);
        assert_eq!(Window::new(&times, &shallow).teardown_from(), None);
        // A gradual one over the last fifth of the time is: 10..240, then down to 10.
        let longer: Vec<f64> = (0..30).map(f64::from).collect();
        let mut gradual: Vec<f64> = (1..=24).map(|i| f64::from(i) * 10.0).collect();
        gradual.extend([200.0, 160.0, 120.0, 80.0, 40.0, 10.0]);
        let w = Window::new(&longer, &gradual);
        assert_eq!(w.teardown_from(), Some(23.0));
        assert_eq!(w.figures(&gradual).trend, Trend::Growing);
        // A fall from halfway is the run's: its highest census in the last third is
        // far below its peak.
        let early = climb(&[95., 90., 85., 80., 75., 70., 65., 60., 55., 50.]);
        let w = Window::new(&times, &early);
        assert_eq!(w.teardown_from(), None);
        assert_eq!(w.figures(&early).trend, Trend::Shrinking);
    }

    /// A band's figures from its points alone are what the definitions give over every
    /// sample, a sample without a point being 0: peak, when, mean and share to the bit
    /// (the same sums, the zeros left out), the trend line's slope and R² as the
    /// textbook's sums over every sample give them, but for rounding.
    #[test]
    fn a_bands_points_alone_give_its_figures_over_every_sample() {
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut unit = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        for case in 0..2000 {
            let n = 1 + (unit() * 60.0) as usize;
            let mut t = unit() * 10.0;
            let times: Vec<f64> = (0..n)
                .map(|_| {
                    t += if unit() < 0.1 { 0.0 } else { unit() };
                    t
                })
                .collect();
            let dense = unit();
            let sign = if case % 7 == 0 { -1.0 } else { 1.0 };
            let values: Vec<f64> = (0..n)
                .map(|_| {
                    if unit() < dense {
                        (sign * unit() * 1000.0).round()
                    } else {
                        0.0
                    }
                })
                .collect();
            let totals: Vec<f64> = values.iter().map(|v| v.abs() + 5.0).collect();
            let w = Window::new(&times, &totals);
            let f = w.figures_of(&crate::select::present(&values));
            let what = format!("case {case}: {values:?} at {times:?}");
            let (at, top) = peak(&values);
            assert_eq!((f.peak, f.peak_time), (top, times[at]), "{what}");
            assert_eq!(f.mean, values.iter().sum::<f64>() / n as f64, "{what}");
            let weight = if n > 1 {
                trapezoids(&times, &values)
            } else {
                values[0]
            };
            let share = if w.whole > 0.0 { weight / w.whole } else { 0.0 };
            assert_eq!(f.share, share, "{what}");
            // The textbook's line through the trend part.
            let (ts, vs) = (&times[w.trend.clone()], &values[w.trend.clone()]);
            let m = ts.len() as f64;
            let (mt, mv) = (ts.iter().sum::<f64>() / m, vs.iter().sum::<f64>() / m);
            let (mut num, mut den, mut var) = (0.0, 0.0, 0.0);
            for (x, y) in ts.iter().zip(vs) {
                num += (x - mt) * (y - mv);
                den += (x - mt) * (x - mt);
                var += (y - mv) * (y - mv);
            }
            let (growth, r2) = if ts.len() < 2 || den <= 0.0 {
                (0.0, 0.0)
            } else {
                (
                    num / den,
                    if var > 0.0 {
                        (num * num / (den * var)).clamp(0.0, 1.0)
                    } else {
                        0.0
                    },
                )
            };
            let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * (1.0 + a.abs().max(b.abs()));
            assert!(
                close(f.growth, growth),
                "{what}: growth {} against {growth}",
                f.growth
            );
            assert!(close(f.r2, r2), "{what}: R² {} against {r2}", f.r2);
        }
    }
}
