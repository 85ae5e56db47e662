//! The run's cost-centre samples beside its heap profile (`+RTS -p -hc -l`), as a
//! picture's panel under the graph shows them: the graph's time cut into equal
//! stretches, the samples taken in each, and the cost centres that ran most (the
//! innermost frame of a sampled stack: what was running) each with its samples in each
//! stretch. The panel shares the graph's time axis, so that what ran is read under what
//! the heap held then.

use crate::profile::{Costs, Profile};
use crate::select::flame::Stacked;

/// The cost centres the panel names (and colours), those with the most samples: the
/// rest are one grey. As many as the page's strip colours, so that both read alike.
pub const PANEL_NAMED: usize = 6;

/// The most stretches the panel cuts the time axis into (fewer when the samples fall at
/// fewer times): a bar each, wide enough to see.
pub const PANEL_STRETCHES: usize = 60;

/// The samples over the graph's time.
#[derive(Debug, Clone, PartialEq)]
pub struct SamplesPanel {
    /// The stretches' edges, in the profile's time: stretch `k` holds the samples from
    /// `edges[k]` up to but not at `edges[k + 1]`, the last one's end included.
    pub edges: Vec<f64>,
    /// The samples in each stretch.
    pub totals: Vec<f64>,
    /// The cost centres named, most samples first: each one's name and its samples in
    /// each stretch.
    pub named: Vec<(Box<[u8]>, Vec<f64>)>,
    /// Every sample the panel counts.
    pub samples: f64,
}

/// The time `samples` span: their first and last census.
pub fn span(samples: &Profile) -> Option<(f64, f64)> {
    Some((*samples.times.first()?, *samples.times.last()?))
}

/// The panel of `samples` over `first` to `last` (the graph's time axis, which spans
/// every sample's census); `None` without a sample in it.
pub fn panel(samples: &Costs, first: f64, last: f64) -> Option<SamplesPanel> {
    let times = &samples.series().times;
    if times.is_empty() || last.partial_cmp(&first) != Some(std::cmp::Ordering::Greater) {
        return None;
    }
    let n = PANEL_STRETCHES.min(times.len()).max(1);
    let mut edges: Vec<f64> = (0..n)
        .map(|k| first + (last - first) * k as f64 / n as f64)
        .collect();
    edges.push(last);
    let stretch_of: Vec<usize> = (times.iter())
        .map(|&t| edges[1..n].partition_point(|&e| e <= t))
        .collect();
    // Each running cost centre's samples in each stretch, in the order first met.
    let mut index: crate::profile::hash::FxMap<&[u8], usize> = Default::default();
    let mut centres: Vec<(&[u8], Vec<f64>, f64)> = Vec::new();
    let mut totals = vec![0.0; n];
    for (name, series) in samples.series().bands.iter() {
        let (frames, _) = samples.frames(name);
        let Some(&running) = frames.last() else {
            continue;
        };
        let k = *index.entry(running).or_insert_with(|| {
            centres.push((running, vec![0.0; n], 0.0));
            centres.len() - 1
        });
        series.for_each(|s, v| {
            let b = stretch_of[s as usize];
            centres[k].1[b] += v;
            centres[k].2 += v;
            totals[b] += v;
        });
    }
    let all: f64 = totals.iter().sum();
    if all <= 0.0 {
        return None;
    }
    centres.sort_by(|a, b| b.2.total_cmp(&a.2).then(a.0.cmp(b.0)));
    let named = (centres.into_iter())
        .filter(|c| c.2 > 0.0)
        .take(PANEL_NAMED)
        .map(|(name, counts, _)| (name.into(), counts))
        .collect();
    Some(SamplesPanel {
        edges,
        totals,
        named,
        samples: all,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::Series;

    fn costs(stacks: &[(&str, &[(u32, f64)])], times: &[f64]) -> Costs {
        let mut c = Costs {
            series: Profile {
                times: times.to_vec(),
                ..Profile::default()
            },
            ..Costs::default()
        };
        for (name, points) in stacks {
            let mut s = Series::default();
            for &(k, v) in *points {
                s.push(k, v);
            }
            c.series_mut().bands.push(name.as_bytes().into(), s);
        }
        c
    }

    #[test]
    fn each_census_counts_in_its_stretch_under_what_was_running() {
        // `go` ran under `main` and alone: one centre, named by the innermost frame.
        let c = costs(
            &[
                ("go/main", &[(0, 2.0), (3, 1.0)]),
                ("go", &[(1, 4.0)]),
                ("main", &[(2, 1.0), (3, 1.0)]),
            ],
            &[0.0, 1.0, 2.0, 3.0],
        );
        let p = panel(&c, 0.0, 3.0).unwrap();
        assert_eq!(p.edges, [0.0, 0.75, 1.5, 2.25, 3.0]);
        assert_eq!(p.totals, [2.0, 4.0, 1.0, 2.0]);
        assert_eq!(p.samples, 9.0);
        let names: Vec<&[u8]> = p.named.iter().map(|n| &n.0[..]).collect();
        assert_eq!(names, [&b"go"[..], b"main"]);
        assert_eq!(p.named[0].1, [2.0, 4.0, 0.0, 1.0]);
    }

    #[test]
    fn no_more_centres_are_named_than_the_panel_colours() {
        let names: Vec<String> = (0..10).map(|k| format!("c{k}")).collect();
        let points: Vec<Vec<(u32, f64)>> = (0..10).map(|k| vec![(0, k as f64 + 1.0)]).collect();
        let stacks: Vec<(&str, &[(u32, f64)])> = (names.iter().map(String::as_str))
            .zip(points.iter().map(Vec::as_slice))
            .collect();
        let p = panel(&costs(&stacks, &[0.0, 1.0]), 0.0, 1.0).unwrap();
        assert_eq!(p.named.len(), PANEL_NAMED);
        assert_eq!(&p.named[0].0[..], b"c9");
        assert_eq!(p.totals.iter().sum::<f64>(), 55.0);
    }
}
