//! The non-moving collector's events as they are read ([`Raw`]), put together into the
//! model ([`crate::profile::nonmoving::Nonmoving`]) once all is read.

use super::format::seconds;
use crate::profile::MAX_GCS;
use crate::profile::nonmoving::{Census, MAX_NONMOVING_ROWS, Nonmoving, Pruned, SizeClass};

/// What the reader met of the collector, event by event, in any order (a capability's
/// blocks and the global buffer's interleave, and a parallel reader's parts are taken
/// in one after another): put in order and together once all is read ([`Raw::finish`]).
#[derive(Debug, Clone, Default)]
pub struct Raw {
    /// The census rows, by the time of their events (nanoseconds).
    pub rows: Vec<(u64, SizeClass)>,
    /// The concurrent mark's beginnings and ends and the sweeps' ends.
    pub steps: Vec<(u64, Step)>,
    /// Segments pruned.
    pub pruned: Vec<(u64, u32, u32)>,
    /// Rows past [`MAX_NONMOVING_ROWS`].
    pub dropped: usize,
}

/// A step of a concurrent collection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Step {
    /// `CONC_MARK_BEGIN`: a collection's first begins it.
    MarkBegin,
    /// `CONC_MARK_END`: the last of a collection the run ended in ends it.
    MarkEnd,
    /// `CONC_SWEEP_END`: the collection is over.
    SweepEnd,
}

impl Raw {
    /// Takes a census row, within the bound.
    pub fn row(&mut self, ns: u64, class: SizeClass) {
        if self.rows.len() < MAX_NONMOVING_ROWS {
            self.rows.push((ns, class));
        } else {
            self.dropped += 1;
        }
    }

    /// Takes a step of a concurrent collection, within the bound.
    pub fn step(&mut self, ns: u64, step: Step) {
        if self.steps.len() < MAX_GCS {
            self.steps.push((ns, step));
        }
    }

    /// Takes a pruning, within the bound.
    pub fn prune(&mut self, ns: u64, pruned: u32, free: u32) {
        if self.pruned.len() < MAX_GCS {
            self.pruned.push((ns, pruned, free));
        }
    }

    /// Takes in what a later part of the eventlog met.
    pub fn absorb(&mut self, later: Raw) {
        let room = MAX_NONMOVING_ROWS - self.rows.len().min(MAX_NONMOVING_ROWS);
        self.dropped += later.dropped + later.rows.len().saturating_sub(room);
        self.rows.extend(later.rows.into_iter().take(room));
        let room = MAX_GCS.saturating_sub(self.steps.len());
        self.steps.extend(later.steps.into_iter().take(room));
        let room = MAX_GCS.saturating_sub(self.pruned.len());
        self.pruned.extend(later.pruned.into_iter().take(room));
    }

    /// The account, in time order. A census is the rows of one pass over the size
    /// classes: the runtime writes them in ascending block size, so a block size no
    /// larger than the one before begins the next census.
    pub fn finish(mut self) -> Nonmoving {
        self.rows.sort_by_key(|r| r.0);
        self.steps.sort();
        self.pruned.sort_by_key(|p| p.0);
        let mut censuses: Vec<Census> = Vec::new();
        for (ns, class) in self.rows {
            match censuses.last_mut() {
                Some(c)
                    if c.classes
                        .last()
                        .is_some_and(|l| l.block_size < class.block_size) =>
                {
                    c.classes.push(class)
                }
                _ => censuses.push(Census {
                    time: seconds(ns),
                    classes: vec![class],
                }),
            }
        }
        let mut collections = Vec::new();
        let (mut open, mut last_mark) = (None, None);
        for (ns, step) in self.steps {
            match step {
                Step::MarkBegin => {
                    open.get_or_insert(ns);
                }
                Step::MarkEnd => last_mark = Some(ns),
                Step::SweepEnd => {
                    if let Some(start) = open.take() {
                        collections.push((seconds(start), seconds(ns)));
                    }
                }
            }
        }
        if let (Some(start), Some(end)) = (open, last_mark)
            && end >= start
        {
            collections.push((seconds(start), seconds(end)));
        }
        Nonmoving {
            censuses,
            collections,
            pruned: (self.pruned.into_iter())
                .map(|(ns, pruned, free)| Pruned {
                    time: seconds(ns),
                    pruned,
                    free,
                })
                .collect(),
            dropped: self.dropped,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::nonmoving::SEGMENT_BYTES;

    fn class(block_size: u32, live_blocks: u32) -> SizeClass {
        SizeClass {
            block_size,
            active_segments: 1,
            filled_segments: 0,
            live_blocks,
        }
    }

    #[test]
    fn rows_read_out_of_order_make_censuses_by_ascending_block_sizes() {
        let mut raw = Raw::default();
        for (ns, size) in [(30, 8), (10, 8), (11, 16), (12, 32), (31, 16)] {
            raw.row(ns, class(size, 2));
        }
        let n = raw.finish();
        let sizes: Vec<Vec<u32>> = (n.censuses.iter())
            .map(|c| c.classes.iter().map(|k| k.block_size).collect())
            .collect();
        assert_eq!(sizes, [vec![8, 16, 32], vec![8, 16]]);
        assert_eq!(n.censuses[0].live_bytes(), 2 * (8 + 16 + 32));
        assert_eq!(
            n.censuses[1].beyond_live(),
            2 * SEGMENT_BYTES - 2 * (8 + 16)
        );
    }

    #[test]
    fn a_collection_runs_from_its_first_mark_to_its_sweep_and_the_last_to_its_last_mark() {
        let mut raw = Raw::default();
        let s = 1_000_000_000;
        for (ns, step) in [
            (s, Step::MarkBegin),
            (2 * s, Step::MarkEnd),
            (3 * s, Step::MarkBegin),
            (4 * s, Step::SweepEnd),
            (5 * s, Step::MarkBegin),
            (6 * s, Step::MarkEnd),
        ] {
            raw.steps.push((ns, step));
        }
        assert_eq!(raw.finish().collections, [(1.0, 4.0), (5.0, 6.0)]);
    }

    #[test]
    fn rows_past_the_bound_are_counted_not_kept() {
        let mut raw = Raw::default();
        for k in 0..MAX_NONMOVING_ROWS + 3 {
            raw.row(k as u64, class(8, 1));
        }
        let mut later = Raw::default();
        later.row(0, class(8, 1));
        raw.absorb(later);
        let n = raw.finish();
        assert_eq!(n.dropped, 4);
        assert_eq!(n.censuses.len(), MAX_NONMOVING_ROWS);
    }
}
