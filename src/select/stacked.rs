//! What a flame graph and the stack exports read of a profile, each model answering in
//! its own way: a heap profile's bands are split into frames by their names and weighed
//! at one census (or a stretch's mean); a cost profile's frames are read one by one and
//! its censuses summed, each counting what was spent since the one before. Nothing that
//! draws or writes stacks asks which it holds.

use super::frames::{Census, MAX_DEPTH, WhichCensus, labels, pick};
use crate::profile::costs::{CostProfile, Measure};
use crate::profile::{BandsFrom, Costs, Profile};

/// A profile a flame graph and the stack exports read.
pub trait Stacked {
    /// Its censuses.
    fn series(&self) -> &Profile;

    /// A band's frames, outermost first, and whether GHC cut its name (at `-L`).
    fn frames<'p>(&'p self, name: &'p [u8]) -> (Vec<&'p [u8]>, bool);

    /// Each band's weight at `when`, with the census (or stretch) it is taken at. The one
    /// rule the flame graph and every stack export weigh by.
    fn weights(&self, when: WhichCensus) -> (Census, Vec<f64>);

    /// What a weight counts, where it is not bytes held: a cost profile's measure.
    fn measure(&self) -> Option<Measure> {
        None
    }

    /// A report's whole tree (call counts, every stack), where there is one.
    fn tree(&self) -> Option<&CostProfile> {
        None
    }

    /// A report's tree with the measure its bands weigh, where the bands are still the
    /// tree's stacks, each whole, or left out ([`Costs::bands_from`]): a flame graph can be read
    /// from the tree.
    fn whole_tree(&self) -> Option<(&CostProfile, Measure)> {
        None
    }

    /// A frame's source span as GHC writes it, where the input gives one.
    fn source(&self, _frame: &[u8]) -> Option<&[u8]> {
        None
    }
}

impl Stacked for Profile {
    fn series(&self) -> &Profile {
        self
    }

    fn frames<'p>(&'p self, name: &'p [u8]) -> (Vec<&'p [u8]>, bool) {
        labels(name, self.breakdown)
    }

    fn weights(&self, when: WhichCensus) -> (Census, Vec<f64>) {
        heap_weights(self, when)
    }
}

impl Stacked for Costs {
    fn series(&self) -> &Profile {
        &self.series
    }

    fn frames<'p>(&'p self, name: &'p [u8]) -> (Vec<&'p [u8]>, bool) {
        match self.stacks.get(name) {
            Some(frames) => (frames.iter().map(|f| &**f).take(MAX_DEPTH).collect(), false),
            None => labels(name, self.series().breakdown),
        }
    }

    /// A stretch weighs the censuses' sum, whatever `when`: each counts what was spent
    /// since the one before (a report has one, the run's).
    fn weights(&self, when: WhichCensus) -> (Census, Vec<f64>) {
        let mut weights = vec![0.0; self.series().bands.names().len()];
        for (w, series) in weights.iter_mut().zip(self.series().bands.series()) {
            series.for_each(|_, v| *w += v);
        }
        let census = Census::whole_run(when, &self.series().times, weights.iter().sum());
        (census, weights)
    }

    fn measure(&self) -> Option<Measure> {
        Some(self.measure)
    }

    fn tree(&self) -> Option<&CostProfile> {
        self.tree.as_deref()
    }

    fn whole_tree(&self) -> Option<(&CostProfile, Measure)> {
        let tree = (self.tree.as_deref()).filter(|_| self.bands_from != BandsFrom::Own)?;
        Some((tree, self.measure))
    }

    fn source(&self, frame: &[u8]) -> Option<&[u8]> {
        self.sources.get(frame).map(|s| &**s)
    }
}

/// A heap profile's bands at the census `when` picks, or their mean over its time.
fn heap_weights(profile: &Profile, when: WhichCensus) -> (Census, Vec<f64>) {
    let n = profile.samples();
    let times = &profile.times;
    let mut weights = vec![0.0; profile.bands.names().len()];
    if when == WhichCensus::Mean && n > 1 && times[n - 1] > times[0] {
        // Trapezoids over sparse series: each sample's value counts for half the time
        // to the sample before it and half to the one after, so a band is summed over
        // its own points without a dense copy.
        let span = times[n - 1] - times[0];
        let share =
            |s: usize| (times[(s + 1).min(n - 1)] - times[s.saturating_sub(1)]) / 2.0 / span;
        for (w, series) in weights.iter_mut().zip(profile.bands.series()) {
            series.for_each(|s, v| *w += v * share(s as usize));
        }
        let total = weights.iter().sum();
        let census = Census {
            when,
            sample: None,
            from: times[0],
            to: times[n - 1],
            total,
            whole_run: false,
        };
        return (census, weights);
    }
    let totals = profile.totals();
    let sample = pick(profile, &totals, when);
    for (w, series) in weights.iter_mut().zip(profile.bands.series()) {
        series.for_each(|s, v| {
            if s as usize == sample {
                *w += v;
            }
        });
    }
    let census = Census {
        when,
        sample: Some(sample),
        from: times[sample],
        to: times[sample],
        total: totals[sample],
        whole_run: false,
    };
    (census, weights)
}
