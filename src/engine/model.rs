//! A job's steps that each model takes its own way. [`crate::profile::Model`] is matched
//! in one place, [`dispatch`]; every step after it is written once for each model, as a
//! method of [`ProfileKind`] (and of [`super::render::ViewSteps`]), and nothing downstream
//! asks which model it holds.

use super::{Job, Subject};
use crate::check::Judged;
use crate::input::prof::retainers::{self, Named, Sets};
use crate::profile::{Costs, Model, Profile};
use crate::select::filter::{Empty, Filter};
use crate::select::flame::{Stacked, WhichCensus};

/// `$body` run on the model `$model` holds, bound to `$k` as its own type: the one
/// place the engine asks which it is.
macro_rules! dispatch {
    ($model:expr, $k:ident => $body:expr) => {
        match $model {
            crate::profile::Model::Heap($k) => $body,
            crate::profile::Model::Costs($k) => $body,
        }
    };
}
pub(super) use dispatch;

/// A model as the engine runs a job on it.
pub trait ProfileKind: Stacked + Judged + Clone + Into<Model> + 'static {
    /// What its picture is without `--flame`: a cost profile's is its flame graph (of the
    /// whole run), a heap profile's its graph over time.
    const FLAME: Option<WhichCensus>;

    /// Its censuses, to change in place.
    fn series_mut(&mut self) -> &mut Profile;

    /// Its censuses alone.
    fn into_series(self) -> Profile;

    /// A retainer profile's sets named from the run's report (`sets`); what named them.
    fn name_sets(&mut self, sets: Sets) -> Result<Option<Named>, String>;

    /// The filter's part of it: its bands and times, and a cost profile's frames under
    /// `--min-share` pruned.
    fn filtered(self, filter: &Filter) -> Result<Self, Empty>;

    /// The filter's part of it, with what a reader should be told ([`super::subject`]).
    fn subject(self, job: &Job) -> Result<Subject<Self>, super::Error>;
}

impl ProfileKind for Profile {
    const FLAME: Option<WhichCensus> = None;

    fn series_mut(&mut self) -> &mut Profile {
        self
    }

    fn into_series(self) -> Profile {
        self
    }

    fn name_sets(&mut self, sets: Sets) -> Result<Option<Named>, String> {
        retainers::name_from_report(self, sets)
    }

    fn filtered(self, filter: &Filter) -> Result<Self, Empty> {
        filter.apply(self)
    }

    fn subject(self, job: &Job) -> Result<Subject<Self>, super::Error> {
        super::subject_heap(job, self)
    }
}

impl ProfileKind for Costs {
    const FLAME: Option<WhichCensus> = Some(WhichCensus::Peak);

    fn series_mut(&mut self) -> &mut Profile {
        self.series_mut()
    }

    fn into_series(self) -> Profile {
        self.series
    }

    /// A cost profile's bands are stacks, not retainer sets.
    fn name_sets(&mut self, _: Sets) -> Result<Option<Named>, String> {
        Ok(None)
    }

    fn filtered(self, filter: &Filter) -> Result<Self, Empty> {
        filter.apply_costs(self)
    }

    fn subject(self, job: &Job) -> Result<Subject<Self>, super::Error> {
        super::subject_costs(job, self)
    }
}
