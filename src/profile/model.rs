//! What a reader ends in: a heap profile or a cost-centre profile, a type each. Both are
//! censuses of named bands over time ([`Profile`]); a cost profile's censuses count what
//! was spent since the one before (a report has one, the run's), and its bands are
//! stacks named frame by frame. The reader decides which once, by what it read; every
//! stage after it takes the type it works on, so none asks which it holds.

use std::sync::Arc;

use super::costs::{CostProfile, Measure, Pruned};
use super::hash::FxMap;
use super::{Frames, Profile};

/// A profile as its reader made it.
#[derive(Debug, Clone, PartialEq)]
pub enum Model {
    /// A heap profile: a `.hp` file, an eventlog's censuses (or its runtime's events).
    Heap(Profile),
    /// A time and allocation report, or an eventlog's cost-centre samples.
    Costs(Costs),
}

impl Model {
    /// The censuses, whichever the model: read alike for both.
    pub fn series(&self) -> &Profile {
        match self {
            Model::Heap(p) => p,
            Model::Costs(c) => &c.series,
        }
    }

    /// The censuses, to change: a cost profile's bands are then its own
    /// ([`Costs::series_mut`]).
    pub fn series_mut(&mut self) -> &mut Profile {
        match self {
            Model::Heap(p) => p,
            Model::Costs(c) => c.series_mut(),
        }
    }

    /// The censuses, whichever the model: what a stage that reads bands over time alike
    /// for both (a live view's status, `--same-scale`) takes.
    pub fn into_series(self) -> Profile {
        match self {
            Model::Heap(p) => p,
            Model::Costs(c) => c.series,
        }
    }
}

impl Default for Model {
    fn default() -> Model {
        Model::Heap(Profile::default())
    }
}

impl From<Profile> for Model {
    fn from(p: Profile) -> Model {
        Model::Heap(p)
    }
}

impl From<Costs> for Model {
    fn from(c: Costs) -> Model {
        Model::Costs(c)
    }
}

/// A cost-centre profile: its stacks counted in censuses (one for a report; eventlog
/// samples', each what was spent since the one before), with what only such a profile
/// has.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Costs {
    /// The censuses: a band per stack, named as [`super::band_name`] names it.
    pub series: Profile,
    /// What the stacks are weighed by, read once with the report.
    pub measure: Measure,
    /// Each band's frames, outermost first, by band name (a label may hold a `/`).
    pub stacks: FxMap<Box<[u8]>, Frames>,
    /// A report's tree of cost-centre stacks, which its bands were made of, with every
    /// stack's entries, ticks and bytes (those that weigh nothing too): what exports of
    /// the whole tree read (callgrind's call counts). Shared, not copied; `None` for
    /// eventlog samples.
    pub tree: Option<Arc<CostProfile>>,
    /// How the bands stand to `tree`: whether a flame graph can be read from the tree
    /// itself, without splitting a name per stack ([`crate::select::flame`]).
    pub bands_from: BandsFrom,
    /// Each frame's source span as GHC writes it (`Main.hs:6:1-46`, `<entire-module>`),
    /// by frame name (`Module.label`).
    pub sources: FxMap<Box<[u8]>, Box<[u8]>>,
    /// What `--min-share` hid ([`crate::select::prune`]), when it hid anything.
    pub pruned: Option<Pruned>,
}

/// How a cost profile's bands stand to its report's tree.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum BandsFrom {
    /// Their own: eventlog samples (no tree), or bands changed since they were read.
    #[default]
    Own,
    /// The tree's weighed stacks as the reader named them, each whole. Anything that
    /// changes the censuses (a filter, `--min-share`, any mutable use of them) makes
    /// them [`BandsFrom::Own`].
    Tree,
    /// None: the reader left them out, the job reading nothing of the report but its
    /// tree ([`crate::input::Options::bands`]); every picture is drawn from the tree.
    LeftOut,
}

impl Costs {
    /// The censuses are changing: bands read as the tree's are now their own.
    pub fn bands_changed(&mut self) {
        if self.bands_from == BandsFrom::Tree {
            self.bands_from = BandsFrom::Own;
        }
    }

    /// The censuses.
    pub fn series(&self) -> &Profile {
        &self.series
    }

    /// The censuses, to change: bands read as the tree's are then their own
    /// ([`Costs::bands_changed`]), so that no change goes unseen by a flame graph read
    /// from the tree.
    pub fn series_mut(&mut self) -> &mut Profile {
        self.bands_changed();
        &mut self.series
    }

    /// The censuses summed into one at the last time (what a stretch of them weighs,
    /// [`crate::select::flame::Stacked::weights`]), for what shows one census: a
    /// report's page. A profile with one census is returned as it is.
    pub fn one_census(mut self) -> Costs {
        let n = self.series.samples();
        if n < 2 {
            return self;
        }
        let p = self.series_mut();
        for series in p.bands.series_mut() {
            let mut w = 0.0;
            series.for_each(|_, v| w += v);
            *series = super::Series::default();
            if w != 0.0 {
                series.push(0, w);
            }
        }
        p.times = vec![p.times[n - 1]];
        self
    }
}
