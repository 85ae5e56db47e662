//! The page's multi-resolution forms: what its script draws at any zoom, prepared here so
//! that choosing it is a look-up (a level, then two binary searches), not a computation.
//!
//! * **The series**: level `k` cuts the kept samples into bins of `2^k` and keeps, per
//!   bin, the samples where the drawn stack is lowest and highest (so no peak or dip of
//!   the drawn total is lost), in time order. A window of `c` samples drawn `w` pixels
//!   wide takes the finest level with at most `w` of them in it. Hiding a band does not
//!   choose other samples: the levels follow the picture's stack.

use serde::Serialize;

/// The series' levels stop once one has at most this many samples.
pub const COARSEST: usize = 256;

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
}
