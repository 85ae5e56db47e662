//! The page's lists beside the graph that are not its bands: a root or retainer
//! profile's members (each a view of the bands whose sets hold it, which stacked are its
//! reachable bytes over time) and a ticky-ticky run's counters. The script sorts them
//! and draws the rows it is told to; every figure is the library's.

use serde::Serialize;

use super::{PageBand, PageData};
use crate::profile::Profile;
use crate::profile::ticky::Counter;

/// One member of a profile's sets, for the page.
#[derive(Debug, Clone, Serialize)]
pub struct PageMember {
    /// As the sets write it.
    pub name: String,
    /// The most its set of it alone held at a census.
    pub alone_peak: f64,
    /// The most every set it is in held together at a census.
    pub reachable_peak: f64,
    /// The page's bands whose sets hold it, as indices into its bands one by one (the
    /// drawn ones but `OTHER`, then the pool): shown alone, they stack to its reachable
    /// bytes over time.
    pub bands: Vec<u32>,
    /// Bands whose sets hold it that the page does not carry one by one (among the
    /// smaller bands' sum): its view then shows less than it holds.
    pub unshown: usize,
}

/// A profile's members for the page ([`crate::analysis::members`]), most reachable first.
#[derive(Debug, Clone, Serialize)]
pub struct PageMembers {
    /// Whether the sets are of roots (`-ho`) or of retainers (`-hr`): what the page's
    /// heading calls them.
    pub roots: bool,
    /// The members.
    pub list: Vec<PageMember>,
    /// Members past [`crate::analysis::members::MAX_MEMBERS`], not weighed.
    pub left_out: usize,
    /// Bands whose set is not known.
    pub unknown_sets: usize,
}

impl PageMembers {
    /// `profile`'s members, their bands found among the page's `bands` and `pool`;
    /// `None` for a profile whose bands are not sets.
    pub fn of(profile: &Profile, bands: &[PageBand], pool: &[PageBand]) -> Option<PageMembers> {
        let members = crate::analysis::members::of(profile)?;
        // A profile band's place among the page's bands one by one, as the script
        // lists them.
        let mut place = vec![None; profile.bands.len()];
        let individuals = bands.iter().filter(|b| !b.other).chain(pool);
        for (k, b) in individuals.enumerate() {
            if let Some(id) = b.id {
                place[id as usize] = Some(k as u32);
            }
        }
        let list = (members.members.into_iter())
            .map(|m| {
                let shown: Vec<u32> = m.bands.iter().filter_map(|&b| place[b as usize]).collect();
                PageMember {
                    unshown: m.bands.len() - shown.len(),
                    bands: shown,
                    name: m.name,
                    alone_peak: m.alone_peak,
                    reachable_peak: m.reachable_peak,
                }
            })
            .collect();
        Some(PageMembers {
            roots: profile.retainer_sets.is_empty(),
            list,
            left_out: members.left_out,
            unknown_sets: members.unknown_sets,
        })
    }
}

/// A ticky-ticky run's counters for the page: their totals over the run, most
/// allocating first (at most [`crate::input::eventlog::ticky::MAX_TICKY_COUNTERS`], a bound the
/// reader keeps).
pub fn ticky(profile: &Profile) -> Vec<Counter> {
    profile
        .ticky
        .as_ref()
        .map_or(Vec::new(), |t| t.counters.clone())
}

impl PageData {
    /// Adds the lists the profile has: its members, its ticky counters.
    pub(super) fn with_lists(mut self, profile: &Profile) -> PageData {
        self.members = PageMembers::of(profile, &self.bands, &self.pool);
        self.ticky = ticky(profile);
        self
    }
}
