//! The runtime's account as an eventlog gives it: collections (`GC_START`,
//! `GC_STATS_GHC`, `GC_END`), heap size and live bytes after each, the allocation
//! counters, the non-moving collector's synchronisations.

use super::format::{id, payload, seconds};

/// The runtime's events as they are read: each capability's buffer is written as blocks
/// of its own, so a capability's events come in order but the capabilities' blocks
/// interleave; a collection is known by the capability that led it (the one that posts
/// `GC_STATS_GHC` inside its `GC_START`/`GC_END` pair).
#[derive(Default)]
pub(crate) struct Gathering {
    runtime: crate::profile::Runtime,
    /// Per capability: the time of its open `GC_START`, in nanoseconds.
    open: Vec<Option<u64>>,
    /// Per capability: the collection it leads whose `GC_END` is still to come.
    leads: Vec<Option<usize>>,
    /// Per capability: the last collection it led (heap size and live bytes follow it).
    last: Vec<Option<usize>>,
    /// Per capability: its allocation counter's last reading.
    allocated: Vec<Option<u64>>,
    /// The start of an open synchronisation of the non-moving collector, in nanoseconds.
    sync: Option<u64>,
}

/// The slot of capability `cap` in a per-capability list, grown as needed (a `u16`
/// bounds it).
fn slot<T: Default>(list: &mut Vec<T>, cap: u16) -> &mut T {
    let k = usize::from(cap);
    if list.len() <= k {
        list.resize_with(k + 1, T::default);
    }
    &mut list[k]
}

impl Gathering {
    /// Takes one of the runtime's events from capability `cap`; `None` when its payload
    /// is too short.
    pub(super) fn event(&mut self, ty: u16, ns: u64, cap: u16, p: &[u8]) -> Option<()> {
        use crate::profile::{Allocation, MAX_ALLOCATION_READINGS, MAX_GCS};
        let rt = &mut self.runtime;
        match ty {
            id::GC_START => *slot(&mut self.open, cap) = Some(ns),
            id::GC_STATS_GHC => {
                let mut gc = payload::gc_stats(p)?;
                gc.start = seconds(slot(&mut self.open, cap).unwrap_or(ns));
                gc.end = gc.start;
                if rt.gcs.len() < MAX_GCS {
                    rt.gcs.push(gc);
                    *slot(&mut self.leads, cap) = Some(rt.gcs.len() - 1);
                    *slot(&mut self.last, cap) = Some(rt.gcs.len() - 1);
                } else {
                    rt.dropped += 1;
                    *slot(&mut self.leads, cap) = None;
                    *slot(&mut self.last, cap) = None;
                }
            }
            id::GC_END => {
                if let Some(k) = slot(&mut self.leads, cap).take() {
                    let end = seconds(ns);
                    // Ending before it began: the events are inconsistent, and the
                    // collection is left out when the runtime is finished.
                    rt.gcs[k].end = if end < rt.gcs[k].start { f64::NAN } else { end };
                }
                *slot(&mut self.open, cap) = None;
            }
            id::HEAP_ALLOCATED => {
                let bytes = payload::capset_bytes(p)?;
                *slot(&mut self.allocated, cap) = Some(bytes);
                if rt.allocation.len() < MAX_ALLOCATION_READINGS {
                    rt.allocation.push(Allocation {
                        time: seconds(ns),
                        capability: cap,
                        bytes,
                    });
                }
            }
            id::HEAP_LIVE | id::HEAP_SIZE => {
                let bytes = payload::capset_bytes(p)?;
                if let Some(k) = *slot(&mut self.last, cap) {
                    let gc = &mut rt.gcs[k];
                    match ty {
                        id::HEAP_LIVE => gc.live = Some(bytes),
                        _ => gc.heap_size = Some(bytes),
                    }
                }
            }
            id::CONC_SYNC_BEGIN => self.sync = Some(ns),
            id::CONC_SYNC_END => {
                if let Some(start) = self.sync.take()
                    && rt.syncs.len() < MAX_GCS
                {
                    rt.syncs.push((seconds(start), seconds(ns)));
                }
            }
            _ => {}
        }
        Some(())
    }

    /// The runtime's account, its lists in time order.
    pub(super) fn finish(mut self, end_ns: u64, census_in_gc: bool) -> crate::profile::Runtime {
        let mut rt = std::mem::take(&mut self.runtime);
        let read = rt.gcs.len();
        rt.gcs.retain(|g| !g.end.is_nan());
        rt.inconsistent = read - rt.gcs.len();
        rt.gcs.sort_by(|a, b| a.start.total_cmp(&b.start));
        rt.allocation.sort_by(|a, b| a.time.total_cmp(&b.time));
        rt.end = seconds(end_ns);
        rt.census_in_gc = census_in_gc;
        rt.last_allocation = (self.allocated.iter().enumerate())
            .filter_map(|(c, b)| b.map(|b| (c as u16, b)))
            .collect();
        rt
    }
}
