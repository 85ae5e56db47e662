//! The readers' table of band names: each name kept once (in the profile's bands, the
//! index holding only their numbers), and the bytes all of them take bounded.
//!
//! A band's name is the file's to choose: a `.hp` line may hold a 4 MiB name, an
//! eventlog's stack a thousand 4 KiB labels, and a profile may have a hundred thousand
//! bands. A name longer than [`MAX_NAME`] is cut, and once the names kept take
//! [`MAX_NAME_BYTES`], each new one is cut at [`MAX_NAME_PAST_BUDGET`]. A cut name ends
//! in `…#` and a hash of the whole name, so that two names cut alike stay two bands.

use std::hash::Hasher;

use hashbrown::HashTable;

use crate::input::FxHasher;
use crate::profile::IdentId;

pub use crate::profile::names::{
    MAX_LABEL, MAX_NAME, MAX_NAME_BYTES, MAX_NAME_PAST_BUDGET, tagged_with,
};

/// Band names to their numbers, by hash; the names are the profile's.
#[derive(Default, Clone)]
pub(crate) struct NameIndex {
    table: HashTable<IdentId>,
    /// Bytes of the names kept.
    spent: usize,
    /// A name was cut, by its length or by the budget.
    pub cut: bool,
}

fn hash(name: &[u8]) -> u64 {
    let mut h = FxHasher::default();
    h.write(name);
    h.finish()
}

/// `name` cut to at most `max` bytes, ending in `…#` and its whole hash.
fn tagged(name: &[u8], max: usize) -> Box<[u8]> {
    tagged_with(name, max, hash(name))
}

impl NameIndex {
    /// An index with room for `bands` names: a reader that knows how many bands it may
    /// make (a report's stacks) spares the table's growth, which hashes every name
    /// again at each step.
    pub fn with_capacity(bands: usize) -> NameIndex {
        NameIndex {
            table: HashTable::with_capacity(bands),
            ..NameIndex::default()
        }
    }

    /// The number of the band named `name` (as read) among `names`, if it has one.
    pub fn get(&self, names: &[Box<[u8]>], name: &[u8]) -> Option<IdentId> {
        if name.len() > MAX_NAME {
            return self.find(names, &tagged(name, MAX_NAME));
        }
        self.find(names, name).or_else(|| {
            // Read first past the budget: kept cut.
            (name.len() > MAX_NAME_PAST_BUDGET && self.spent >= MAX_NAME_BYTES)
                .then(|| self.find(names, &tagged(name, MAX_NAME_PAST_BUDGET)))
                .flatten()
        })
    }

    fn find(&self, names: &[Box<[u8]>], name: &[u8]) -> Option<IdentId> {
        (self.table)
            .find(hash(name), |&id| *names[id as usize] == *name)
            .copied()
    }

    /// The longest name a new band keeps whole now.
    pub fn limit(&self) -> usize {
        if self.spent >= MAX_NAME_BYTES {
            MAX_NAME_PAST_BUDGET
        } else {
            MAX_NAME
        }
    }

    /// The name a new band read as `name` is kept as: itself, or cut.
    pub fn kept(&mut self, name: &[u8]) -> Box<[u8]> {
        let max = self.limit();
        if name.len() <= max {
            return name.into();
        }
        self.cut = true;
        tagged(name, max)
    }

    /// Indexes band `id`, just pushed onto `names` with a name [`Self::kept`] gave.
    pub fn insert(&mut self, names: &[Box<[u8]>], id: IdentId) {
        let name = &names[id as usize];
        self.spent += name.len();
        self.table
            .insert_unique(hash(name), id, |&k| hash(&names[k as usize]));
    }

    /// Forgets the bands from `keep` on (their names were taken off the profile).
    pub fn truncate(&mut self, removed: &[Box<[u8]>], keep: usize) {
        self.spent -= removed.iter().map(|n| n.len()).sum::<usize>();
        self.table.retain(|id| (*id as usize) < keep);
    }

    /// Follows a merge of the smallest bands: `map` takes each old number to its new
    /// one, and the bands mapped to `merged` are forgotten.
    pub fn renumber(&mut self, map: &[IdentId], merged: Option<IdentId>) {
        self.table.retain(|id| {
            *id = map[*id as usize];
            Some(*id) != merged
        });
    }
}

/// The most frames all of a reader's stacks keep together (16 bytes each: 64 MiB).
/// Deep stacks of a report share their callers' frames in its tree, but as bands each
/// lists its own: 30 chains 4,000 deep would list 240 million.
pub const MAX_FRAMES_TOTAL: usize = 2 << 20;

/// How many frames a stack first read after [`MAX_FRAMES_TOTAL`] keeps (outermost first).
pub const MAX_FRAMES_PAST_BUDGET: usize = 16;

/// The frames the stacks of one profile keep, bounded as their names are: each at most
/// [`crate::profile::costs::MAX_FRAMES`] (what a flame graph draws), all together
/// [`MAX_FRAMES_TOTAL`], then [`MAX_FRAMES_PAST_BUDGET`] each.
#[derive(Default)]
pub(crate) struct FrameBudget {
    spent: usize,
    /// A stack kept fewer frames than it has.
    pub cut: bool,
}

impl FrameBudget {
    /// The most frames a new stack keeps now.
    pub fn limit(&self) -> usize {
        if self.spent >= MAX_FRAMES_TOTAL {
            MAX_FRAMES_PAST_BUDGET
        } else {
            crate::profile::costs::MAX_FRAMES
        }
    }

    /// `frames` (outermost first) as a stack keeps them.
    pub fn kept(&mut self, mut frames: Vec<std::sync::Arc<[u8]>>) -> crate::profile::Frames {
        let whole = frames.len();
        frames.truncate(self.limit());
        self.keep(frames, whole)
    }

    /// The outermost frames of a stack `whole` frames deep, at most [`Self::limit`]
    /// of them, as the stack keeps them: for a reader that never lists a deep stack whole.
    pub fn keep(
        &mut self,
        frames: Vec<std::sync::Arc<[u8]>>,
        whole: usize,
    ) -> crate::profile::Frames {
        self.cut |= whole > frames.len();
        self.spent += frames.len();
        frames.into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_past_their_limits_are_cut() {
        let deep =
            || vec![std::sync::Arc::<[u8]>::from(&b"f"[..]); crate::profile::costs::MAX_FRAMES + 1];
        let mut budget = FrameBudget::default();
        assert_eq!(budget.kept(deep()).len(), crate::profile::costs::MAX_FRAMES);
        assert!(budget.cut);
        let mut kept = 0;
        while budget.spent < MAX_FRAMES_TOTAL {
            kept += budget.kept(deep()).len();
        }
        assert!(kept + crate::profile::costs::MAX_FRAMES >= MAX_FRAMES_TOTAL);
        assert_eq!(
            budget.kept(deep()).len(),
            MAX_FRAMES_PAST_BUDGET,
            "past the budget"
        );
    }

    fn add(index: &mut NameIndex, names: &mut Vec<Box<[u8]>>, name: &[u8]) -> IdentId {
        if let Some(id) = index.get(names, name) {
            return id;
        }
        names.push(index.kept(name));
        let id = (names.len() - 1) as IdentId;
        index.insert(names, id);
        id
    }

    #[test]
    fn long_names_are_cut_and_stay_apart() {
        let mut index = NameIndex::default();
        let mut names = Vec::new();
        let a = [b"x".repeat(MAX_NAME), b"a".to_vec()].concat();
        let b = [b"x".repeat(MAX_NAME), b"b".to_vec()].concat();
        let (ia, ib) = (
            add(&mut index, &mut names, &a),
            add(&mut index, &mut names, &b),
        );
        assert_ne!(ia, ib);
        assert!(names.iter().all(|n| n.len() <= MAX_NAME));
        assert_eq!(add(&mut index, &mut names, &a), ia);
        assert_eq!(add(&mut index, &mut names, b"short"), 2);
        assert_eq!(add(&mut index, &mut names, b"short"), 2);
        assert!(index.cut);
    }

    #[test]
    fn past_the_budget_new_names_are_short() {
        let mut index = NameIndex::default();
        let mut names = Vec::new();
        let whole = MAX_NAME_BYTES / MAX_NAME + 3;
        for k in 0..whole + 50 {
            let name = format!("{k}{}", "y".repeat(MAX_NAME - 10));
            let id = add(&mut index, &mut names, name.as_bytes());
            assert_eq!(
                add(&mut index, &mut names, name.as_bytes()),
                id,
                "found again"
            );
        }
        let kept: usize = names.iter().map(|n| n.len()).sum();
        assert!(kept <= MAX_NAME_BYTES + MAX_NAME + 50 * MAX_NAME_PAST_BUDGET);
        assert!(names.last().unwrap().len() <= MAX_NAME_PAST_BUDGET);
        // A name kept whole before the budget was spent is still found whole.
        let first = format!("0{}", "y".repeat(MAX_NAME - 10));
        assert_eq!(index.get(&names, first.as_bytes()), Some(0));
    }
}
