//! An eventlog's ticky-ticky counters (`ghc -ticky`, `+RTS -lT`, GHC 9.4 on). At every
//! sample (the heap profile's interval, `-i`) the runtime writes
//! `TICKY_COUNTER_BEGIN_SAMPLE`, then for each counter that counted anything since the
//! sample before one `TICKY_COUNTER_SAMPLE` (its entries, the bytes its code allocated,
//! the bytes allocated of it) and sets it back to zero. The counters' definitions (a
//! number and GHC's name for the closure) come at the end of the run.
//!
//! They become a profile over time as a heap census does: a band per counter, its value
//! at each sample the bytes its code allocated since the sample before; and the
//! counters' totals ([`Ticky`]), which the summary lists.

use crate::input::{FxMap, Warning, WarningKind};
use crate::profile::ticky::{Counter, Ticky};
use crate::profile::{Breakdown, Profile, Series};

/// The most counters kept (one per closure of the modules built with `-ticky`).
pub const MAX_TICKY_COUNTERS: usize = 1 << 15;

/// The most samples drawn; later ones still count in the totals.
pub const MAX_TICKY_SAMPLES: usize = 1 << 16;

/// The most readings (a counter's allocation at a sample) kept for the graph; later ones
/// still count in the totals.
pub const MAX_TICKY_READINGS: usize = 1 << 20;

/// The longest counter name kept, in bytes (its readable part comes first).
pub const MAX_TICKY_NAME: usize = 1024;

/// A counter's name as kept, in both forms of the counters: read as UTF-8 (what is not
/// is replaced), cut at [`MAX_TICKY_NAME`] bytes on a character's boundary.
pub fn kept_name(name: &[u8]) -> String {
    // A character is at most 4 bytes: what lies past that cannot be kept.
    let mut text =
        String::from_utf8_lossy(&name[..name.len().min(MAX_TICKY_NAME + 4)]).into_owned();
    let mut end = text.len().min(MAX_TICKY_NAME);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.truncate(end);
    text
}

/// A counter as read.
#[derive(Clone, Default)]
struct Slot {
    id: u64,
    name: Option<Box<str>>,
    /// Entries, allocs, allocd.
    totals: [u64; 3],
}

/// The counters read so far.
#[derive(Clone, Default)]
pub(super) struct Collected {
    slots: FxMap<u64, u32>,
    counters: Vec<Slot>,
    /// Each sample's time, in nanoseconds.
    times: Vec<u64>,
    /// (sample, counter, bytes its code allocated), in the order read.
    readings: Vec<(u32, u32, u64)>,
    /// A limit was reached: what went past it is not drawn.
    cut: bool,
    /// Past the samples' limit: later counts are totals only.
    over: bool,
}

impl Collected {
    /// Whether no counter was read.
    pub fn is_empty(&self) -> bool {
        self.counters.is_empty()
    }

    /// Whether a sample began: the counters then make a graph over time.
    pub fn sampled(&self) -> bool {
        !self.times.is_empty()
    }

    /// A sample begins at `time`.
    pub fn begin(&mut self, time: u64) {
        if self.times.len() < MAX_TICKY_SAMPLES {
            self.times.push(time);
        } else {
            (self.cut, self.over) = (true, true);
        }
    }

    /// One counter's counts since the sample before.
    pub fn sample(&mut self, [id, entries, allocs, allocd]: [u64; 4]) {
        let Some(slot) = self.slot(id) else { return };
        let totals = &mut self.counters[slot as usize].totals;
        for (t, v) in totals.iter_mut().zip([entries, allocs, allocd]) {
            *t = t.saturating_add(v);
        }
        // Counts before the first sample, or past the samples' limit, are totals only.
        let Some(sample) = self.times.len().checked_sub(1) else {
            return;
        };
        if self.over || allocs == 0 {
        } else if self.readings.len() < MAX_TICKY_READINGS {
            self.readings.push((sample as u32, slot, allocs));
        } else {
            self.cut = true;
        }
    }

    /// A counter's definition.
    pub fn define(&mut self, id: u64, name: &[u8]) {
        let Some(slot) = self.slot(id) else { return };
        self.counters[slot as usize].name = Some(kept_name(name).into());
    }

    fn slot(&mut self, id: u64) -> Option<u32> {
        if let Some(&slot) = self.slots.get(&id) {
            return Some(slot);
        }
        if self.counters.len() == MAX_TICKY_COUNTERS {
            self.cut = true;
            return None;
        }
        let slot = self.counters.len() as u32;
        self.slots.insert(id, slot);
        self.counters.push(Slot {
            id,
            ..Slot::default()
        });
        Some(slot)
    }

    /// The counters as a profile over time: a band per counter that allocated in a
    /// sample, and their totals. A counter without a definition (the run was cut before
    /// the runtime wrote them) is named by its number.
    pub fn profile(self, warnings: &mut Vec<Warning>) -> Profile {
        if self.cut {
            crate::input::warn_once(warnings, WarningKind::TickyCut);
        }
        let mut p = Profile {
            breakdown: Breakdown::Other,
            quantity: crate::profile::Quantity::Allocated,
            ..Profile::default()
        };
        p.set_units(b"seconds".to_vec(), b"bytes".to_vec());
        p.times = self
            .times
            .iter()
            .map(|&t| super::format::seconds(t))
            .collect();
        let names: Vec<String> = (self.counters.iter())
            .map(|c| {
                c.name
                    .as_deref()
                    .map_or_else(|| format!("0x{:x}", c.id), str::to_owned)
            })
            .collect();
        let mut band_of: Vec<Option<u32>> = vec![None; self.counters.len()];
        let mut taken = std::collections::HashSet::new();
        for &(sample, slot, allocs) in &self.readings {
            let band = *band_of[slot as usize].get_or_insert_with(|| {
                let c = &self.counters[slot as usize];
                // A name taken is told apart by the counter's number, then by a count:
                // `x`, `x` and `x 0x2` are three bands, never two alike.
                let base = &names[slot as usize];
                let mut name = base.clone();
                for k in 1.. {
                    if taken.insert(name.clone()) {
                        break;
                    }
                    name = match k {
                        1 => format!("{base} 0x{:x}", c.id),
                        _ => format!("{base} 0x{:x} #{k}", c.id),
                    };
                }
                p.bands.push(name.into_bytes().into(), Series::default())
            });
            p.bands.series_mut()[band as usize].push(sample, allocs as f64);
        }
        let mut ticky = Ticky {
            counters: (self.counters.iter().zip(names))
                .filter(|(c, _)| c.totals != [0; 3])
                .map(|(c, name)| Counter {
                    name,
                    entries: c.totals[0],
                    allocs: c.totals[1],
                    allocd: c.totals[2],
                })
                .collect(),
            totals: Vec::new(),
        };
        ticky.sort();
        p.ticky = Some(Box::new(ticky));
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_named_alike_are_bands_named_apart() {
        let mut ticky = Collected::default();
        for (id, name) in [(1, "x"), (2, "x"), (3, "x 0x2"), (4, "x 0x2"), (5, "x")] {
            ticky.define(id, name.as_bytes());
        }
        ticky.begin(0);
        for id in 1..=5 {
            ticky.sample([id, 1, 8, 0]);
        }
        let profile = ticky.profile(&mut Vec::new());
        let names: std::collections::BTreeSet<_> = profile.bands.names().iter().collect();
        assert_eq!(names.len(), 5, "{names:?}");
    }
}
