//! The non-moving collector's heap (`+RTS -xn`, GHC 8.10 and later), as its censuses
//! give it: after each concurrent collection, with `-ln` among the eventlog's classes,
//! the runtime writes one `NONMOVING_HEAP_CENSUS` per size class of its allocator —
//! the class's block size, its active and filled segments and its live blocks.
//!
//! Bytes live are blocks times block size. What the segments hold beyond them is the
//! segments' bytes less that: the heap the collector holds and cannot hand out again
//! until a segment frees (fragmentation, and each segment's own bitmap). GHC's census
//! counts each capability's current segment's live blocks but not the segment itself,
//! so the figure is never more than the segments hold: at least 0, and an
//! under-estimate by up to a segment per capability and class.

use super::Phase;

/// A segment of the non-moving heap, in bytes: GHC's `NONMOVING_SEGMENT_SIZE`
/// (`1 << NONMOVING_SEGMENT_BITS`, 15 from GHC 8.10 to 9.10).
pub const SEGMENT_BYTES: u64 = 1 << 15;

/// At most this many size classes' rows are kept (a census writes one per class:
/// 12 before GHC 9.10, about 25 from it): a hostile eventlog can write millions. Past
/// it later censuses are counted in [`Nonmoving::dropped`] and not kept.
pub const MAX_NONMOVING_ROWS: usize = 1_000_000;

/// One size class at one census.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct SizeClass {
    /// Its blocks' size in bytes (GHC before 9.10 writes it as its base-2 logarithm).
    pub block_size: u32,
    /// Segments with some blocks free to allocate into.
    pub active_segments: u32,
    /// Segments with every block taken.
    pub filled_segments: u32,
    /// Blocks live at the census.
    pub live_blocks: u32,
}

impl SizeClass {
    /// Bytes live in the class's blocks.
    pub fn live_bytes(&self) -> u64 {
        u64::from(self.live_blocks) * u64::from(self.block_size)
    }

    /// Bytes of the class's active and filled segments.
    pub fn segment_bytes(&self) -> u64 {
        (u64::from(self.active_segments) + u64::from(self.filled_segments)) * SEGMENT_BYTES
    }
}

/// One census: every size class the runtime wrote, in the order it wrote them (block
/// sizes ascending).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Census {
    /// When, in seconds since the run began (its first class's event).
    pub time: f64,
    /// The size classes.
    pub classes: Vec<SizeClass>,
}

impl Census {
    /// Bytes live in the non-moving heap at the census.
    pub fn live_bytes(&self) -> u64 {
        self.classes.iter().map(SizeClass::live_bytes).sum()
    }

    /// What the segments hold beyond the live bytes, class by class, at least 0 each
    /// (see the module's comment).
    pub fn beyond_live(&self) -> u64 {
        (self.classes.iter())
            .map(|c| c.segment_bytes().saturating_sub(c.live_bytes()))
            .sum()
    }
}

/// Segments given back to the operating system after a collection
/// (`NONMOVING_PRUNED_SEGMENTS`, GHC 9.10 and later).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Pruned {
    /// When, in seconds since the run began.
    pub time: f64,
    /// Segments freed.
    pub pruned: u32,
    /// Free segments kept: their megablock holds a segment still in use.
    pub free: u32,
}

/// The non-moving collector's account of a run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Nonmoving {
    /// The censuses, in time order.
    pub censuses: Vec<Census>,
    /// Its concurrent collections: from the first `CONC_MARK_BEGIN` after the sweep
    /// before to `CONC_SWEEP_END`; one the run ended in runs to its last mark's end.
    pub collections: Vec<Phase>,
    /// Segments pruned, in time order.
    pub pruned: Vec<Pruned>,
    /// Size classes' rows past [`MAX_NONMOVING_ROWS`], counted but not kept.
    pub dropped: usize,
}

/// The band of what the segments hold beyond the live bytes ([`Census::beyond_live`]):
/// the word people use for it, short enough for a key at a column's width.
pub const BEYOND_LIVE: &str = "fragmentation";

/// A size class's band: its live bytes.
pub fn class_band(block_size: u32) -> String {
    format!("{block_size}-byte blocks")
}

impl Nonmoving {
    /// The censuses as a heap profile's samples and bands, the picture of an eventlog
    /// with no heap profile of its own: a band per size class (its live bytes, for the
    /// classes that ever held any) and one of [`BEYOND_LIVE`]; `None` without a census.
    pub fn drawn(&self) -> Option<(Vec<f64>, super::Bands)> {
        use std::collections::BTreeMap;
        if self.censuses.is_empty() {
            return None;
        }
        let mut classes: BTreeMap<u32, super::Series> = BTreeMap::new();
        let mut beyond = super::Series::default();
        for (k, census) in self.censuses.iter().enumerate() {
            let k = k as u32;
            for c in census.classes.iter().filter(|c| c.live_blocks > 0) {
                (classes.entry(c.block_size).or_default()).push(k, c.live_bytes() as f64);
            }
            beyond.push(k, census.beyond_live() as f64);
        }
        let mut bands = super::Bands::default();
        for (size, series) in classes {
            bands.push(class_band(size).into_bytes().into(), series);
        }
        bands.push(BEYOND_LIVE.as_bytes().into(), beyond);
        Some((self.censuses.iter().map(|c| c.time).collect(), bands))
    }

    /// Whether the eventlog had none of the collector's events.
    pub fn is_empty(&self) -> bool {
        self.censuses.is_empty()
            && self.collections.is_empty()
            && self.pruned.is_empty()
            && self.dropped == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_picture_is_a_band_per_class_that_held_any_and_what_segments_hold_beyond() {
        let class = |block_size, live_blocks| SizeClass {
            block_size,
            active_segments: 1,
            filled_segments: 0,
            live_blocks,
        };
        let n = Nonmoving {
            censuses: vec![
                Census {
                    time: 1.0,
                    classes: vec![class(8, 0), class(16, 4)],
                },
                Census {
                    time: 2.0,
                    classes: vec![class(8, 0), class(16, 2)],
                },
            ],
            ..Nonmoving::default()
        };
        let (times, bands) = n.drawn().unwrap();
        assert_eq!(times, [1.0, 2.0]);
        let names: Vec<&[u8]> = bands.names().iter().map(|n| &**n).collect();
        assert_eq!(names, [&b"16-byte blocks"[..], BEYOND_LIVE.as_bytes()]);
        let mut beyond = Vec::new();
        bands.series()[1].for_each(|_, v| beyond.push(v));
        let segments = 2.0 * SEGMENT_BYTES as f64;
        assert_eq!(beyond, [segments - 64.0, segments - 32.0]);
        assert!(Nonmoving::default().drawn().is_none());
    }

    #[test]
    fn what_the_segments_hold_beyond_live_is_at_least_nothing_per_class() {
        let census = Census {
            time: 0.0,
            classes: vec![
                SizeClass {
                    block_size: 16,
                    active_segments: 1,
                    filled_segments: 1,
                    live_blocks: 100,
                },
                // A current segment's live blocks without the segment counted.
                SizeClass {
                    block_size: 4096,
                    active_segments: 0,
                    filled_segments: 0,
                    live_blocks: 3,
                },
            ],
        };
        assert_eq!(census.live_bytes(), 1600 + 3 * 4096);
        assert_eq!(census.beyond_live(), 2 * SEGMENT_BYTES - 1600);
    }
}
