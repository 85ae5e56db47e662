//! The page's multi-resolution forms: what its script draws at any zoom, prepared here so
//! that choosing it is a look-up (a level, then two binary searches), not a computation.
//!
//! * **The series**: level `k` cuts the kept samples into bins of `2^k` and keeps, per
//!   bin, the samples where the drawn stack is lowest and highest (so no peak or dip of
//!   the drawn total is lost), in time order. A window of `c` samples drawn `w` pixels
//!   wide takes the finest level with at most `w` of them in it. Hiding a band does not
//!   choose other samples: the levels follow the picture's stack.
//! * **The collections' strip**: level `k` merges the collections that start within
//!   `span / (STRIP_BASE · 2^k)` of the mark before, by the pictures' own rule
//!   ([`crate::profile::Runtime::strip`]); the script takes the coarsest level whose
//!   joins are under half a pixel in its window.

use serde::Serialize;

use crate::profile::Runtime;

/// The series' levels stop once one has at most this many samples.
pub const COARSEST: usize = 256;

/// The strip's coarsest level joins collections within the run's span over this many.
pub const STRIP_BASE: f64 = 256.0;

/// The strip's levels stop at this many (a join of 2^-26 of the span is below any
/// clock's resolution), or earlier, once a level merges nothing.
pub const MAX_STRIP_LEVELS: usize = 26;

/// One level of the series.
#[derive(Debug, Clone, Serialize)]
pub struct Level {
    /// The samples per bin.
    pub bin: u32,
    /// The kept samples' indices at this level, in time order.
    pub samples: Vec<u32>,
}

/// The series' levels over `totals` (the drawn stack at each kept sample), coarser
/// each: level 0, every sample, is implied.
pub fn series(totals: &[f64]) -> Vec<Level> {
    let n = totals.len();
    let mut levels = Vec::new();
    let mut bin = 4usize;
    while n > COARSEST && n.div_ceil(bin) * 2 < n {
        let mut samples = Vec::with_capacity(2 * n / bin + 2);
        for start in (0..n).step_by(bin) {
            let end = (start + bin).min(n);
            let (lo, hi) = crate::profile::extremes(totals, start..end);
            let mut picks = [lo.min(hi), lo.max(hi)];
            // The first and last samples stay, so that every level spans the run.
            if start == 0 {
                picks[0] = 0;
            }
            if end == n {
                picks[1] = n - 1;
            }
            samples.push(picks[0] as u32);
            if picks[1] != picks[0] {
                samples.push(picks[1] as u32);
            }
        }
        let done = samples.len() <= COARSEST;
        levels.push(Level {
            bin: bin as u32,
            samples,
        });
        if done {
            break;
        }
        bin *= 2;
    }
    levels
}

/// One level of the collections' strip.
#[derive(Debug, Clone, Serialize)]
pub struct StripLevel {
    /// Collections within this many seconds of a mark join it.
    pub join: f64,
    /// The marks: start, end (seconds) and whether a major collection is among them.
    pub marks: Vec<(f64, f64, bool)>,
}

/// The strip's levels over `[first, last]`, coarsest first; the last one merges nothing
/// (or is the finest there is room for).
pub fn strip(runtime: &Runtime, first: f64, last: f64) -> Vec<StripLevel> {
    let span = last - first;
    let shown = (runtime.gcs.iter())
        .filter(|g| (first..=last).contains(&g.start))
        .count();
    if shown == 0 || span.is_nan() || span <= 0.0 {
        return Vec::new();
    }
    let mut levels = Vec::new();
    let mut join = span / STRIP_BASE;
    for _ in 0..MAX_STRIP_LEVELS {
        // A hairline is four fifths of a join, as in the pictures (0.4 of 0.5 points).
        let marks = runtime.strip(first, last, |t| t, join, 0.8 * join);
        let done = marks.len() == shown;
        levels.push(StripLevel { join, marks });
        if done {
            break;
        }
        join /= 2.0;
    }
    levels
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_level_keeps_its_bins_extremes_and_both_ends() {
        let n: usize = 10_000;
        let mut totals: Vec<f64> = (0..n).map(|i| (i % 13) as f64).collect();
        totals[4321] = 1e9;
        totals[7777] = -1.0;
        let levels = series(&totals);
        assert!(levels.len() > 3);
        for l in &levels {
            assert!(l.samples.windows(2).all(|w| w[0] < w[1]), "in time order");
            assert!(l.samples.len() <= 2 * n.div_ceil(l.bin as usize));
            for must in [0, 4321, 7777, n as u32 - 1] {
                assert!(l.samples.contains(&must), "bin {}: {must}", l.bin);
            }
        }
        assert!(levels.last().unwrap().samples.len() <= COARSEST);
        // Each level halves the one before, about.
        for w in levels.windows(2) {
            assert_eq!(w[1].bin, 2 * w[0].bin);
        }
        assert!(
            series(&totals[..COARSEST]).is_empty(),
            "few samples: level 0 only"
        );
    }

    #[test]
    fn the_strip_merges_less_at_each_level_and_ends_with_every_collection() {
        let mut rt = Runtime::default();
        for k in 0..1000 {
            let start = k as f64 * 0.01 + if k % 2 == 0 { 0.0 } else { 0.004 };
            rt.gcs.push(crate::profile::Gc {
                start,
                end: start + 0.001,
                generation: u16::from(k % 100 == 0),
                ..Default::default()
            });
        }
        let levels = strip(&rt, 0.0, 10.0);
        assert!(levels.len() > 2);
        assert!(
            levels
                .windows(2)
                .all(|w| w[0].marks.len() <= w[1].marks.len())
        );
        assert_eq!(levels.last().unwrap().marks.len(), 1000);
        // A major collection is never merged away: every level has ten major marks
        // or more than one collection per mark.
        for l in &levels {
            let majors = l.marks.iter().filter(|m| m.2).count();
            assert!((1..=10).contains(&majors), "{majors}");
            assert!(l.marks.len() <= (STRIP_BASE as usize) << levels.len());
        }
        assert_eq!(
            levels[levels.len() - 1]
                .marks
                .iter()
                .filter(|m| m.2)
                .count(),
            10
        );
    }

    #[test]
    fn collections_closer_than_any_level_stop_the_levels_at_their_limit() {
        let mut rt = Runtime::default();
        for start in [0.0, 1e-12, 1.0] {
            rt.gcs.push(crate::profile::Gc {
                start,
                end: start,
                ..Default::default()
            });
        }
        let levels = strip(&rt, 0.0, 1.0);
        assert_eq!(levels.len(), MAX_STRIP_LEVELS);
        assert!(
            levels.iter().all(|l| l.marks.len() == 2),
            "the two first share a mark"
        );
    }
}
