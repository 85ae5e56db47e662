//! An eventlog's cost-centre samples (`+RTS -p -l`, GHC 8.10 and later): at every
//! profiler tick the runtime writes one `EVENT_PROF_SAMPLE_COST_CENTRE` per capability,
//! the stack that capability is running, innermost cost centre first. Each sample is one
//! tick of time (its tick field is the run's tick count so far, not a weight).
//!
//! The samples become the shared model of a cost-centre profile over time: each census
//! holds the ticks of the samples taken since the one before (counts, summed over a
//! stretch of time rather than averaged; see [`crate::profile::Costs`]),
//! so that `--from`/`--to` keep the samples of a window and the flame graph weighs its
//! stacks by them. While there are at most [`MAX_SAMPLE_CENSUSES`] sample times, each is
//! a census of its own and a window is exact to the sample; past that, consecutive
//! samples share a census.

use crate::input::{FxMap, Warning, WarningKind};
use crate::profile::costs::Measure;
use crate::profile::{Breakdown, Costs, Profile, Series};

/// The most samples kept (one per capability per tick: at a 1 ms tick, over an hour of
/// one capability's run). Past it later samples are dropped, with a warning.
pub const MAX_SAMPLES: usize = 1 << 22;

/// The most censuses the samples make; more sample times share censuses.
pub const MAX_SAMPLE_CENSUSES: usize = 1 << 16;

/// The most distinct stacks kept (one fewer than a profile's bands); a sample of another
/// stack past it is counted in the band [`OTHER_STACKS`], with a warning.
pub const MAX_SAMPLE_STACKS: usize = crate::profile::MAX_BANDS - 1;

/// The frame that holds the samples of stacks past [`MAX_SAMPLE_STACKS`].
pub const OTHER_STACKS: &[u8] = b"(other stacks)";

/// The band of samples whose stack is empty: the runtime sampled no cost centre (its
/// own work), which is not the bucket of stacks past the limit.
pub const NO_CENTRE: &[u8] = b"(no cost centre)";

/// The samples read so far.
#[derive(Default, Clone)]
pub(super) struct Samples {
    /// Each stack as the events give it (cost-centre numbers, big-endian, innermost
    /// first) to its number.
    numbers: FxMap<Box<[u8]>, u32>,
    /// Stacks by number.
    stacks: Vec<Box<[u8]>>,
    /// `(time in nanoseconds, stack number)`, in the order read (capabilities' blocks
    /// interleave, so not in time order).
    taken: Vec<(u64, u32)>,
    /// The profiler's tick, in nanoseconds (`EVENT_PROF_BEGIN`).
    pub interval: Option<u64>,
    /// Samples dropped past [`MAX_SAMPLES`].
    dropped: u64,
    /// Samples of stacks past [`MAX_SAMPLE_STACKS`], counted as [`OTHER_STACKS`].
    others: bool,
}

impl Samples {
    /// Whether any sample was read.
    pub fn is_empty(&self) -> bool {
        self.taken.is_empty()
    }

    /// One sample: the stack `ids` (4 bytes per cost centre, innermost first) at `time`.
    pub fn push(&mut self, time: u64, ids: &[u8]) {
        if self.taken.len() >= MAX_SAMPLES {
            self.dropped += 1;
            return;
        }
        let number = match self.numbers.get(ids) {
            Some(&n) => n,
            None if self.stacks.len() >= MAX_SAMPLE_STACKS => {
                self.others = true;
                u32::MAX
            }
            None => {
                let n = self.stacks.len() as u32;
                self.stacks.push(ids.into());
                self.numbers.insert(ids.into(), n);
                n
            }
        };
        self.taken.push((time, number));
    }

    /// The profile of the samples: bands are stacks, frames `Module.label` outermost
    /// first (`name` gives a cost centre's), censuses the sample times.
    pub fn profile(mut self, name: impl Fn(u32) -> Vec<u8>, warnings: &mut Vec<Warning>) -> Costs {
        if self.dropped > 0 {
            warnings.push(Warning {
                line: None,
                kind: WarningKind::SamplesDropped(self.dropped),
            });
        }
        if self.others {
            crate::input::warn_once(warnings, WarningKind::SampleStacksMerged);
        }
        let mut p = Costs {
            series: Profile {
                breakdown: Breakdown::CostCentreStacks,
                quantity: crate::profile::Quantity::Cost(Measure::Time),
                ..Profile::default()
            },
            measure: Measure::Time,
            ..Costs::default()
        };
        p.series_mut()
            .set_units(b"seconds".to_vec(), b"ticks".to_vec());
        let mut frames_of: FxMap<u32, std::sync::Arc<[u8]>> = FxMap::default();
        let mut frame = |id: u32| {
            frames_of
                .entry(id)
                .or_insert_with(|| name(id).into())
                .clone()
        };
        // Names under the readers' one budget (each kept once, cut at a limit, a total),
        // frames as a heap stack keeps them.
        let mut index = crate::input::names::NameIndex::default();
        let mut budget = crate::input::names::FrameBudget::default();
        let mut bands: Vec<u32> = Vec::with_capacity(self.stacks.len() + 1);
        let bucket = self.stacks.len();
        for (k, ids) in self
            .stacks
            .iter()
            .map(|s| &s[..])
            .chain([&[][..]])
            .enumerate()
        {
            let frames: Vec<std::sync::Arc<[u8]>> = if k == bucket {
                vec![OTHER_STACKS.into()]
            } else if ids.is_empty() {
                vec![NO_CENTRE.into()]
            } else {
                ids.chunks_exact(4)
                    .rev()
                    .map(|c| frame(u32::from_be_bytes(c.try_into().expect("4 bytes"))))
                    .collect()
            };
            let band = crate::profile::band_name(&frames);
            let b = match index.get(p.series().bands.names(), &band) {
                Some(b) => b,
                None => {
                    let kept = index.kept(&band);
                    p.stacks.insert(kept.clone(), budget.kept(frames));
                    let b = p.series_mut().bands.push(kept, Series::default());
                    index.insert(p.series().bands.names(), b);
                    b
                }
            };
            bands.push(b);
        }
        if index.cut || budget.cut {
            crate::input::warn_once(warnings, crate::input::WarningKind::NameCut);
        }
        self.taken.sort_by_key(|&(t, _)| t);
        let per = self.taken.len().div_ceil(MAX_SAMPLE_CENSUSES).max(1);
        let mut counts: FxMap<u32, f64> = FxMap::default();
        for chunk in self.taken.chunks(per) {
            let census = p.series().times.len() as u32;
            for &(_, stack) in chunk {
                let band = bands[(stack as usize).min(bands.len() - 1)];
                *counts.entry(band).or_default() += 1.0;
            }
            let mut kept: Vec<(u32, f64)> = counts.drain().collect();
            kept.sort_unstable_by_key(|&(b, _)| b);
            for (b, ticks) in kept {
                p.series_mut().bands.series_mut()[b as usize].push(census, ticks);
            }
            p.series_mut()
                .times
                .push(super::format::seconds(chunk[chunk.len() - 1].0));
        }
        // The band of stacks past the limit, when none fell in it, is not a band.
        if !self.others {
            let last = p.series().bands.len() - 1;
            if p.series().bands.series()[last].is_empty() {
                p.stacks.remove(&p.series.bands.names()[last]);
                p.series_mut().bands.truncate(last);
            }
        }
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(stack: &[u32]) -> Vec<u8> {
        stack.iter().flat_map(|c| c.to_be_bytes()).collect()
    }

    fn name(id: u32) -> Vec<u8> {
        format!("M.f{id}").into_bytes()
    }

    fn ticks(p: &Profile) -> f64 {
        let mut sum = 0.0;
        for s in p.bands.series() {
            s.for_each(|_, v| sum += v);
        }
        sum
    }

    #[test]
    fn samples_out_of_order_are_sorted_and_each_is_one_tick() {
        let mut s = Samples::default();
        s.push(3_000, &ids(&[2, 1]));
        s.push(1_000, &ids(&[2, 1]));
        s.push(2_000, &ids(&[3]));
        let p = s.profile(name, &mut Vec::new());
        assert_eq!(p.series().times, [1e-6, 2e-6, 3e-6]);
        assert_eq!(p.series().bands.names().len(), 2);
        assert_eq!(
            &*p.series().bands.names()[0],
            b"M.f2/M.f1",
            "innermost first"
        );
        let frames: Vec<&[u8]> = p.stacks[&p.series().bands.names()[0]]
            .iter()
            .map(|f| &**f)
            .collect();
        assert_eq!(frames, [&b"M.f1"[..], b"M.f2"], "outermost first");
        assert_eq!(ticks(p.series()), 3.0);
    }

    #[test]
    fn summed_into_one_census_the_samples_weigh_alike() {
        let mut s = Samples::default();
        for t in 0..50u64 {
            s.push(t * 1000, &ids(&[(t % 4) as u32, 9]));
        }
        let p = s.profile(name, &mut Vec::new());
        assert_eq!(p.series().times.len(), 50);
        let when = crate::select::flame::WhichCensus::Peak;
        use crate::select::flame::Stacked;
        let (census, before) = p.weights(when);
        let one = p.one_census();
        assert_eq!(one.series().times.len(), 1);
        let (_, after) = one.weights(when);
        assert_eq!(before, after);
        assert_eq!(census.total, 50.0);
    }

    #[test]
    fn past_the_census_bound_samples_share_censuses() {
        let mut s = Samples::default();
        let n = MAX_SAMPLE_CENSUSES as u64 * 2 + 3;
        for t in 0..n {
            s.push(t, &ids(&[(t % 3) as u32]));
        }
        let p = s.profile(name, &mut Vec::new());
        assert!(p.series().times.len() <= MAX_SAMPLE_CENSUSES);
        assert_eq!(ticks(p.series()), n as f64, "every sample counted");
    }

    #[test]
    fn an_empty_stack_is_a_band_of_its_own_not_the_bucket_past_the_limit() {
        let mut s = Samples::default();
        s.push(0, &[]);
        s.push(1, &ids(&[1]));
        s.push(2, &[]);
        let p = s.profile(name, &mut Vec::new());
        assert!(p.stacks.contains_key(NO_CENTRE));
        assert!(
            p.series()
                .bands
                .names()
                .iter()
                .all(|n| &n[..] != OTHER_STACKS),
            "no bucket: no stack was past the limit"
        );
        let k = p
            .series()
            .bands
            .names()
            .iter()
            .position(|n| &n[..] == NO_CENTRE)
            .unwrap();
        let mut held = 0.0;
        p.series().bands.series()[k].for_each(|_, v| held += v);
        assert_eq!(held, 2.0, "both empty samples");
    }

    #[test]
    fn past_the_stack_bound_later_stacks_are_one_frame() {
        let mut s = Samples::default();
        for k in 0..MAX_SAMPLE_STACKS as u32 + 10 {
            s.push(u64::from(k), &ids(&[k]));
        }
        let mut warnings = Vec::new();
        let p = s.profile(name, &mut warnings);
        assert_eq!(p.series().bands.names().len(), MAX_SAMPLE_STACKS + 1);
        assert!(p.series().bands.names().len() <= crate::profile::MAX_BANDS);
        assert!(p.stacks.contains_key(OTHER_STACKS));
        assert_eq!(ticks(p.series()), (MAX_SAMPLE_STACKS + 10) as f64);
        assert!(matches!(warnings[0].kind, WarningKind::SampleStacksMerged));
    }

    #[test]
    fn past_the_sample_bound_later_samples_are_dropped_and_said() {
        let mut s = Samples::default();
        let stack = ids(&[1]);
        for t in 0..MAX_SAMPLES as u64 + 5 {
            s.push(t, &stack);
        }
        let mut warnings = Vec::new();
        let p = s.profile(name, &mut warnings);
        assert_eq!(ticks(p.series()), MAX_SAMPLES as f64);
        assert!(matches!(warnings[0].kind, WarningKind::SamplesDropped(5)));
    }
}
