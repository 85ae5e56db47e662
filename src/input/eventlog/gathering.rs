//! The runtime's account as an eventlog gives it: collections (`GC_START`,
//! `GC_STATS_GHC`, `GC_END`), heap size and live bytes after each, the allocation
//! counters, the non-moving collector's synchronisations.

use std::cmp::Ordering;

use super::format::{id, payload, seconds};
use super::runs::{Runs, order};
use crate::profile::{Allocation, Gc};

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
    /// Read from a block in the middle of the eventlog (see [`Gathering::part`]): what it
    /// met before it knew the state the part before it left.
    part: Option<Box<Unknown>>,
    /// Where the collections' runs start, one a block ([`super::runs`]).
    gc_runs: Runs,
    /// Where the allocation readings' runs start.
    allocation_runs: Runs,
    /// Only each capability's last allocation reading is kept, not every one: the job
    /// reads the whole run's figures alone ([`crate::input::RuntimeReading::Totals`]).
    totals: bool,
}

/// What a gathering that starts in the middle of an eventlog cannot settle alone: each
/// capability's events before its first `GC_START`, `GC_END` or `GC_STATS_GHC` there
/// belong to a collection the part before opened. They are kept, in order, and settled
/// when the part before takes this one in ([`Gathering::absorb`]).
#[derive(Default)]
struct Unknown {
    /// Per capability, which of its states this part has set itself ([`OPEN`],
    /// [`LEADS`], [`LAST`]).
    known: Vec<u8>,
    /// Whether a synchronisation began or ended in this part.
    sync_known: bool,
    /// Collections whose `GC_START` may have come before the part: the collection, its
    /// capability, `GC_STATS_GHC`'s time (the start if none was open), and whether its
    /// `GC_END` came.
    starts: Vec<(usize, u16, u64, bool)>,
    /// `GC_END`s of collections led before the part: the capability and the time.
    ends: Vec<(u16, u64)>,
    /// Per capability, the last heap size and live bytes read after a collection it
    /// led before the part (the last reading is the one kept, so one of each a
    /// capability: the list is bounded by the capabilities, not the readings).
    after: Vec<[Option<u64>; 2]>,
    /// The end of a synchronisation that began before the part.
    sync_end: Option<u64>,
}

/// Lists at least this long are put in order on two threads when the runtime is
/// finished.
const SORT_APART: usize = 1 << 16;

/// The collections' order: by start, ties by every other field ([`super::runs`]).
fn by_start(a: &Gc, b: &Gc) -> Ordering {
    (a.start.total_cmp(&b.start))
        .then(a.end.total_cmp(&b.end))
        .then(a.generation.cmp(&b.generation))
        .then(a.copied.cmp(&b.copied))
        .then(a.slop.cmp(&b.slop))
        .then(a.threads.cmp(&b.threads))
        .then(a.balanced.cmp(&b.balanced))
        .then(a.live.cmp(&b.live))
        .then(a.heap_size.cmp(&b.heap_size))
}

/// The allocation readings' order: by time, ties by capability and count.
fn by_time(a: &Allocation, b: &Allocation) -> Ordering {
    (a.time.total_cmp(&b.time))
        .then(a.capability.cmp(&b.capability))
        .then(a.bytes.cmp(&b.bytes))
}

/// The capability's open `GC_START` is known.
const OPEN: u8 = 1;
/// The collection it leads is known.
const LEADS: u8 = 2;
/// The last collection it led is known.
const LAST: u8 = 4;

/// Heap size or live bytes (`ty`) after collection `gc`.
fn after(gc: &mut Gc, ty: u16, bytes: u64) {
    match ty {
        id::HEAP_LIVE => gc.live = Some(bytes),
        _ => gc.heap_size = Some(bytes),
    }
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
    /// A gathering that keeps every allocation reading (`readings`), or only each
    /// capability's last ([`crate::input::RuntimeReading::Totals`]).
    pub(super) fn keeping(readings: bool) -> Gathering {
        Gathering {
            totals: !readings,
            ..Gathering::default()
        }
    }

    /// This gathering starts at a block in the middle of an eventlog, for the part
    /// before it to take in ([`Gathering::absorb`]).
    pub(super) fn begin_part(&mut self) {
        self.part = Some(Box::default());
    }

    /// Makes room for the collections and allocation readings of `bytes` of eventlog,
    /// as many as a long run of small collections holds: a list that grows by doubling
    /// copies itself into fresh memory at each step, and on a virtual machine the page
    /// faults of those copies were a third of `--stats`' time. Room not used is never
    /// touched, so memory still follows what is read.
    pub(super) fn reserve(&mut self, bytes: usize) {
        use crate::profile::{MAX_ALLOCATION_READINGS, MAX_GCS};
        /// Fewer bytes than a collection's events take in a run of minor collections on
        /// two capabilities (GHC 9.0's: about 440).
        const GC_BYTES: usize = 256;
        let rt = &mut self.runtime;
        rt.gcs.reserve((bytes / GC_BYTES).min(MAX_GCS));
        if !self.totals {
            rt.allocation
                .reserve((bytes / (GC_BYTES / 2)).min(MAX_ALLOCATION_READINGS));
        }
    }

    /// Whether the state `what` of capability `cap` is known: always from the start of
    /// the eventlog; in a part, once an event of the part set it.
    fn known(&self, cap: u16, what: u8) -> bool {
        (self.part.as_ref()).is_none_or(|u| {
            u.known
                .get(usize::from(cap))
                .is_some_and(|&k| k & what == what)
        })
    }

    /// An event of the part set the state `what` of capability `cap`.
    fn learn(&mut self, cap: u16, what: u8) {
        if let Some(u) = &mut self.part {
            *slot(&mut u.known, cap) |= what;
        }
    }

    /// A block of events begins: each list's run so far ends.
    pub(super) fn block(&mut self) {
        self.gc_runs.begin(self.runtime.gcs.len());
        self.allocation_runs.begin(self.runtime.allocation.len());
    }

    /// Whether [`Gathering::event`] takes events of type `ty`.
    pub(super) fn takes(ty: u16) -> bool {
        matches!(
            ty,
            id::GC_START
                | id::GC_STATS_GHC
                | id::GC_END
                | id::HEAP_ALLOCATED
                | id::HEAP_LIVE
                | id::HEAP_SIZE
                | id::CONC_SYNC_BEGIN
                | id::CONC_SYNC_END
        )
    }

    /// Takes one of the runtime's events from capability `cap`; `None` when its payload
    /// is too short.
    pub(super) fn event(&mut self, ty: u16, ns: u64, cap: u16, p: &[u8]) -> Option<()> {
        // One list of the types taken: the reader's table steps over the others
        // (`Builder::wants`), so a type handled below but not listed would be read by
        // one path and not the other; this way it is read by neither.
        if !Self::takes(ty) {
            return Some(());
        }
        match ty {
            id::GC_START => {
                self.learn(cap, OPEN);
                *slot(&mut self.open, cap) = Some(ns);
            }
            id::GC_STATS_GHC => self.gc_stats(ns, cap, payload::gc_stats(p)?),
            id::GC_END => self.gc_end(ns, cap),
            id::HEAP_ALLOCATED => {
                use crate::profile::MAX_ALLOCATION_READINGS;
                let bytes = payload::capset_bytes(p)?;
                *slot(&mut self.allocated, cap) = Some(bytes);
                let rt = &mut self.runtime;
                if !self.totals && rt.allocation.len() < MAX_ALLOCATION_READINGS {
                    rt.allocation.push(Allocation {
                        time: seconds(ns),
                        capability: cap,
                        bytes,
                    });
                }
            }
            id::HEAP_LIVE | id::HEAP_SIZE => {
                let bytes = payload::capset_bytes(p)?;
                if !self.known(cap, LAST) {
                    if let Some(u) = &mut self.part {
                        slot(&mut u.after, cap)[usize::from(ty == id::HEAP_LIVE)] = Some(bytes);
                    }
                } else if let Some(k) = *slot(&mut self.last, cap) {
                    after(&mut self.runtime.gcs[k], ty, bytes);
                }
            }
            id::CONC_SYNC_BEGIN => {
                self.sync_known();
                self.sync = Some(ns);
            }
            id::CONC_SYNC_END => self.sync_end(ns),
            _ => {}
        }
        Some(())
    }

    /// A collection's figures, from the capability that leads it.
    fn gc_stats(&mut self, ns: u64, cap: u16, mut gc: Gc) {
        use crate::profile::MAX_GCS;
        let opened = self.known(cap, OPEN);
        self.learn(cap, OPEN | LEADS | LAST);
        gc.start = seconds(slot(&mut self.open, cap).unwrap_or(ns));
        gc.end = gc.start;
        let rt = &mut self.runtime;
        let k = if rt.gcs.len() < MAX_GCS {
            rt.gcs.push(gc);
            if let (false, Some(u)) = (opened, &mut self.part) {
                u.starts.push((rt.gcs.len() - 1, cap, ns, false));
            }
            Some(rt.gcs.len() - 1)
        } else {
            rt.dropped += 1;
            None
        };
        *slot(&mut self.leads, cap) = k;
        *slot(&mut self.last, cap) = k;
    }

    /// A collection ends on capability `cap`: the end of the one it leads. An end before
    /// the start is left out when the runtime is finished.
    fn gc_end(&mut self, ns: u64, cap: u16) {
        let lead = self.known(cap, LEADS);
        self.learn(cap, OPEN | LEADS);
        *slot(&mut self.open, cap) = None;
        let Some(k) = slot(&mut self.leads, cap).take() else {
            if let (false, Some(u)) = (lead, &mut self.part) {
                u.ends.push((cap, ns));
            }
            return;
        };
        self.runtime.gcs[k].end = seconds(ns);
        if let Some(u) = &mut self.part
            && let Some(s) = u.starts.iter_mut().find(|s| s.0 == k)
        {
            s.3 = true;
        }
    }

    /// Whether a synchronisation began or ended in the part before this event (always
    /// from the start of the eventlog); from now on one has.
    fn sync_known(&mut self) -> bool {
        match &mut self.part {
            Some(u) => std::mem::replace(&mut u.sync_known, true),
            None => true,
        }
    }

    /// The end of the non-moving collector's synchronisation.
    fn sync_end(&mut self, ns: u64) {
        if !self.sync_known() {
            if let Some(u) = &mut self.part {
                u.sync_end = Some(ns);
            }
        } else if let Some(start) = self.sync.take()
            && self.runtime.syncs.len() < crate::profile::MAX_GCS
        {
            self.runtime.syncs.push((seconds(start), seconds(ns)));
        }
    }

    /// Takes in the gathering of the part that follows this one: its events, settled
    /// against the state this part ends in, as if this gathering had read them itself
    /// (the bounds on what is kept counted over both).
    pub(super) fn absorb(&mut self, next: Gathering) {
        use crate::profile::{MAX_ALLOCATION_READINGS, MAX_GCS};
        let Gathering {
            runtime: b,
            allocated,
            part,
            gc_runs,
            allocation_runs,
            ..
        } = next;
        let u = part.unwrap_or_default();
        let rt = &mut self.runtime;
        for &(cap, ns) in &u.ends {
            if let Some(k) = slot(&mut self.leads, cap).take() {
                rt.gcs[k].end = seconds(ns);
            }
        }
        for (cap, read) in u.after.iter().enumerate() {
            if let Some(k) = *slot(&mut self.last, cap as u16) {
                let gc = &mut rt.gcs[k];
                (gc.heap_size, gc.live) = (read[0].or(gc.heap_size), read[1].or(gc.live));
            }
        }
        if let (Some(end), Some(start)) = (u.sync_end, self.sync.take())
            && rt.syncs.len() < MAX_GCS
        {
            rt.syncs.push((seconds(start), seconds(end)));
        }
        // The two lists are copied on two threads when long: a copy is mostly fresh
        // pages, the copy of a long run's second part a fifth of `--stats`' time.
        let (gcs, allocation) = (&mut rt.gcs, &mut rt.allocation);
        let (gc_runs_here, allocation_runs_here) = (&mut self.gc_runs, &mut self.allocation_runs);
        let copy_allocation = || {
            let room = MAX_ALLOCATION_READINGS - allocation.len().min(MAX_ALLOCATION_READINGS);
            allocation_runs_here.append(allocation.len(), allocation_runs);
            allocation.extend_from_slice(&b.allocation[..b.allocation.len().min(room)]);
        };
        let offset = gcs.len();
        let kept = b.gcs.len().min(MAX_GCS - offset);
        rt.dropped += b.gcs.len() - kept + b.dropped;
        let copy_gcs = || {
            gcs.extend_from_slice(&b.gcs[..kept]);
            gc_runs_here.append(offset, gc_runs);
        };
        if b.allocation.len().min(kept) < SORT_APART {
            copy_allocation();
            copy_gcs();
        } else {
            std::thread::scope(|s| {
                s.spawn(copy_allocation);
                copy_gcs();
            });
        }
        for &(k, cap, ns, ended) in u.starts.iter().filter(|s| s.0 < kept) {
            let gc = &mut rt.gcs[offset + k];
            gc.start = seconds(slot(&mut self.open, cap).unwrap_or(ns));
            if !ended {
                gc.end = gc.start;
            }
        }
        let room = MAX_GCS - rt.syncs.len().min(MAX_GCS);
        rt.syncs.extend(b.syncs.iter().take(room));
        for (cap, bytes) in allocated.into_iter().enumerate() {
            if bytes.is_some() {
                *slot(&mut self.allocated, cap as u16) = bytes;
            }
        }
    }

    /// The runtime's account, its lists in time order.
    pub(super) fn finish(mut self, end_ns: u64, census_in_gc: bool) -> crate::profile::Runtime {
        let mut rt = std::mem::take(&mut self.runtime);
        // Each capability's blocks are in time order, the capabilities' interleaved: two
        // lists of runs, on two threads for a long run.
        let (gcs, allocation) = (&mut rt.gcs, &mut rt.allocation);
        let (gc_runs, allocation_runs) = (&self.gc_runs, &self.allocation_runs);
        if gcs.len().min(allocation.len()) < SORT_APART {
            order(gcs, gc_runs, by_start);
            order(allocation, allocation_runs, by_time);
        } else {
            std::thread::scope(|s| {
                s.spawn(|| order(allocation, allocation_runs, by_time));
                order(gcs, gc_runs, by_start);
            });
        }
        let read = rt.gcs.len();
        rt.gcs.retain(|g| g.end >= g.start);
        rt.inconsistent = read - rt.gcs.len();
        rt.end = seconds(end_ns);
        rt.census_in_gc = census_in_gc;
        rt.last_allocation = (self.allocated.iter().enumerate())
            .filter_map(|(c, b)| b.map(|b| (c as u16, b)))
            .collect();
        rt
    }
}
