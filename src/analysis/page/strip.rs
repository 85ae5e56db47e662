//! Eventlog cost-centre samples over time, for the page's strip: the run cut into
//! [`STRIP_BINS`] equal stretches, the samples in each, and each table row's samples in
//! each. A reader drags across the strip to choose a stretch; the script adds the rows'
//! samples over the stretch's bins and the table and flame graph follow, as
//! `--from`/`--to` at the stretch's edges would give them. A stretch is whole bins: the
//! strip's edges are where a window can start and end.

use serde::Serialize;

use crate::profile::Profile;

/// The strip's stretches (fewer when the run has fewer sample times).
pub const STRIP_BINS: usize = 200;

/// The stacks the strip colours, those with the most samples of their own: each bar is
/// stacked by them in their flame graph colours (the rest grey), which says when each
/// ran. A few, so that the colours stay apart.
pub const STRIP_COLOURED: usize = 6;

/// The samples over time.
#[derive(Debug, Clone, Serialize)]
pub struct SampleStrip {
    /// The stretches' edges, in seconds: stretch `k` holds the samples taken from
    /// `edges[k]` up to but not at `edges[k + 1]`, the last one's end included.
    #[serde(serialize_with = "crate::units::numbers")]
    pub edges: Vec<f64>,
    /// The samples in each stretch.
    #[serde(serialize_with = "crate::units::numbers")]
    pub totals: Vec<f64>,
    /// Each table row's samples, as `(stretch, samples)` for the stretches that have any
    /// (a stack the table does not list counts in its nearest listed caller's row).
    pub rows: Vec<Counts>,
    /// The rows whose samples colour the bars ([`STRIP_COLOURED`] at most), most
    /// samples first.
    pub coloured: Vec<u32>,
}

/// Samples per stretch, as `(stretch, samples)` for the stretches that have any.
pub type Counts = Vec<(u32, f64)>;

/// The stretches' edges of `profile` (samples over time, more than one census) and each
/// band's samples in them, or `None` when its samples span no time.
pub(super) fn bins(profile: &Profile) -> Option<(Vec<f64>, Vec<Counts>)> {
    let (first, last) = (*profile.times.first()?, *profile.times.last()?);
    if last <= first {
        return None;
    }
    let n = STRIP_BINS.min(profile.samples());
    let mut edges: Vec<f64> = (0..n)
        .map(|k| first + (last - first) * k as f64 / n as f64)
        .collect();
    edges.push(last);
    // Each census's stretch: the interior edges at or before it.
    let bin_of: Vec<u32> = (profile.times.iter())
        .map(|&t| edges[1..n].partition_point(|&e| e <= t) as u32)
        .collect();
    let bands = (profile.bands.series().iter())
        .map(|series| {
            let mut counts: Counts = Vec::new();
            series.for_each(|s, v| match counts.last_mut() {
                Some((b, c)) if *b == bin_of[s as usize] => *c += v,
                _ => counts.push((bin_of[s as usize], v)),
            });
            counts
        })
        .collect();
    Some((edges, bands))
}

/// The strip of `edges`, each band's counts going to `row_of_band`'s row.
pub(super) fn strip(
    edges: Vec<f64>,
    bands: Vec<Counts>,
    row_of_band: &[Option<u32>],
    rows: usize,
) -> SampleStrip {
    let mut totals = vec![0.0; edges.len() - 1];
    let mut per_row: Vec<Counts> = vec![Vec::new(); rows];
    for (counts, row) in bands.into_iter().zip(row_of_band) {
        for &(b, c) in &counts {
            totals[b as usize] += c;
        }
        if let Some(r) = row {
            per_row[*r as usize].extend(counts);
        }
    }
    // A row that took in several bands' counts: one entry per stretch, in order.
    for counts in per_row.iter_mut() {
        counts.sort_unstable_by_key(|&(b, _)| b);
        counts.dedup_by(|later, kept| {
            let same = later.0 == kept.0;
            if same {
                kept.1 += later.1;
            }
            same
        });
    }
    let mut coloured: Vec<(u32, f64)> = (per_row.iter().enumerate())
        .map(|(r, counts)| (r as u32, counts.iter().map(|c| c.1).sum()))
        .filter(|&(_, n)| n > 0.0)
        .collect();
    coloured.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    coloured.truncate(STRIP_COLOURED);
    SampleStrip {
        edges,
        totals,
        rows: per_row,
        coloured: coloured.into_iter().map(|c| c.0).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::Series;

    #[test]
    fn each_census_falls_in_one_stretch_and_the_last_holds_the_end() {
        let mut p = Profile {
            times: (0..1000).map(|i| f64::from(i) * 0.001).collect(),
            ..Profile::default()
        };
        let mut s = Series::default();
        for i in 0..1000 {
            s.push(i, 1.0);
        }
        p.bands.push(b"a".to_vec().into(), s);
        let (edges, bands) = bins(&p).unwrap();
        assert_eq!(edges.len(), STRIP_BINS + 1);
        assert_eq!(*edges.last().unwrap(), 0.999);
        let total: f64 = bands[0].iter().map(|c| c.1).sum();
        assert_eq!(total, 1000.0);
        // Every census counted where its time says, by the edges the page is given.
        for (b, c) in &bands[0] {
            let (lo, hi) = (edges[*b as usize], edges[*b as usize + 1]);
            let want = p
                .times
                .iter()
                .filter(|&&t| t >= lo && (t < hi || (*b as usize == STRIP_BINS - 1 && t <= hi)))
                .count();
            assert_eq!(*c as usize, want, "stretch {b}");
        }
        let strip = strip(edges, bands, &[Some(0)], 1);
        assert_eq!(strip.totals.iter().sum::<f64>(), 1000.0);
        assert_eq!(strip.rows[0].len(), STRIP_BINS);
        assert_eq!(strip.coloured, [0]);
    }

    #[test]
    fn the_bars_are_coloured_by_the_rows_with_most_samples_and_no_more() {
        // Rows 0..10, row k with k samples in stretch 0 (row 0 none).
        let bands: Vec<Counts> = (0..10).map(|k| vec![(0, k as f64)]).collect();
        let rows: Vec<Option<u32>> = (0..10).map(Some).collect();
        let s = strip(vec![0.0, 1.0], bands, &rows, 10);
        assert_eq!(s.coloured, [9, 8, 7, 6, 5, 4]);
        assert_eq!(s.coloured.len(), STRIP_COLOURED);
    }
}
