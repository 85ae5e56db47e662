//! The runtime's account as an eventlog gives it: collections (`GC_START`,
//! `GC_STATS_GHC`, `GC_END`), heap size and live bytes after each, the allocation
//! counters, the non-moving collector's synchronisations, collections and censuses.

use std::cmp::Ordering;

use super::activity::{COLLECTING, RUNNING};
use super::format::{id, payload, seconds};
use super::nonmoving::Step;
use super::runs::{Runs, order};
use crate::profile::totals::{Span, Summed, span_order};
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
    /// The non-moving collector's other events, as met.
    nonmoving: super::nonmoving::Raw,
    /// What each capability was doing.
    activity: super::activity::Raw,
    /// Per capability: its last spark counters.
    sparks: Vec<Option<[u64; 6]>>,
    /// Whether it is read: threads run and stopped are most of a scheduler's eventlog,
    /// and `--stats` has no use for them (stepped over, they cost a quarter of the time).
    reads_activity: bool,
    /// Read from a block in the middle of the eventlog (see [`Gathering::part`]): what it
    /// met before it knew the state the part before it left.
    part: Option<Box<Unknown>>,
    /// Where the collections' runs start, one a block ([`super::runs`]).
    gc_runs: Runs,
    /// Where the allocation readings' runs start.
    allocation_runs: Runs,
    /// The job reads the whole run's figures alone
    /// ([`crate::input::RuntimeReading::Totals`]): the collections are added up as soon
    /// as nothing more can change them, and only each capability's last allocation
    /// reading is kept.
    adding: Option<Box<Adding>>,
}

/// The collections added up as read ([`Gathering::retire`]): `runtime.gcs` then holds
/// only those some later event may still change.
#[derive(Default)]
struct Adding {
    /// The totals, and the spans: this part's first, then each later part's.
    summed: Summed,
    /// Where each part's spans' runs start, one a block ([`super::runs`]).
    runs: Vec<Runs>,
    /// Collections moved out of the list, added or left out as inconsistent.
    retired: usize,
    /// Of which left out: their `GC_END` came before their start.
    inconsistent: usize,
    /// Where each of the list's collections goes as it is added up (reused from block
    /// to block).
    place: Vec<usize>,
}

impl Adding {
    /// Takes in what a later part added up, after this one's.
    fn take_in(&mut self, later: Adding) {
        self.summed.totals.merge(&later.summed.totals);
        // Kept apart, not copied after this part's: `Summed::spans` merges them.
        self.summed.parts.extend(later.summed.parts);
        self.runs.extend(later.runs);
        self.retired += later.retired;
        self.inconsistent += later.inconsistent;
    }

    /// Adds `gc` up, or leaves it out when it ends before it starts (as the list's
    /// reading does when it is finished).
    fn take(&mut self, gc: &Gc) {
        self.retired += 1;
        if gc.end >= gc.start {
            self.summed.totals.add(gc);
            self.own().0.push(Span::from(gc));
        } else {
            self.inconsistent += 1;
        }
    }

    /// This part's spans and their runs.
    fn own(&mut self) -> (&mut Vec<Span>, &mut Runs) {
        if self.summed.parts.is_empty() {
            (self.summed.parts, self.runs) = (vec![Vec::new()], vec![Runs::default()]);
        }
        (&mut self.summed.parts[0], &mut self.runs[0])
    }
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
    /// capability's last ([`crate::input::RuntimeReading::Totals`]); what each
    /// capability was doing when `activity`.
    pub(super) fn keeping(readings: bool, activity: bool) -> Gathering {
        Gathering {
            adding: (!readings).then(Box::default),
            reads_activity: activity,
            ..Gathering::default()
        }
    }

    /// This gathering starts at a block in the middle of an eventlog, for the part
    /// before it to take in ([`Gathering::absorb`]).
    pub(super) fn begin_part(&mut self) {
        self.activity.begin_part();
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
        if let Some(adding) = &mut self.adding {
            adding.own().0.reserve((bytes / GC_BYTES).min(MAX_GCS));
            return;
        }
        let rt = &mut self.runtime;
        rt.gcs.reserve((bytes / GC_BYTES).min(MAX_GCS));
        rt.allocation
            .reserve((bytes / (GC_BYTES / 2)).min(MAX_ALLOCATION_READINGS));
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
        if self.adding.is_some() {
            self.retire();
        } else {
            self.gc_runs.begin(self.runtime.gcs.len());
            self.allocation_runs.begin(self.runtime.allocation.len());
        }
    }

    /// How many collections were read (and kept: up to [`crate::profile::MAX_GCS`]).
    pub(super) fn collections(&self) -> usize {
        self.runtime.gcs.len() + self.adding.as_ref().map_or(0, |a| a.retired)
    }

    /// Whether this gathering can take `next` in ([`Gathering::absorb`]): collections
    /// added up cannot be left out again, so when the two parts together read more than
    /// [`crate::profile::MAX_GCS`], the first reads the second's events itself.
    pub(super) fn can_take(&self, next: &Gathering) -> bool {
        self.adding.is_none() || self.collections() + next.collections() <= crate::profile::MAX_GCS
    }

    /// Adds up the collections of the list nothing more can change, and keeps the others
    /// in it: those a capability may still end or give a heap size or live bytes
    /// (`leads`, `last`), and in a part, those whose start the part before settles
    /// (`Unknown::starts`). A capability's collections are read in order, so each
    /// block's are added up at the next, but its last, which is at its next collection.
    fn retire(&mut self) {
        /// A collection's place once added up.
        const ADDED: usize = usize::MAX;
        let Some(adding) = &mut self.adding else {
            return;
        };
        let gcs = &mut self.runtime.gcs;
        let mut place = std::mem::take(&mut adding.place);
        place.clear();
        place.resize(gcs.len(), ADDED);
        let starts = self.part.iter().flat_map(|u| u.starts.iter().map(|s| s.0));
        for k in self
            .leads
            .iter()
            .chain(&self.last)
            .flatten()
            .copied()
            .chain(starts)
        {
            place[k] = k;
        }
        let (spans, runs) = adding.own();
        runs.begin(spans.len());
        let mut kept = 0;
        for k in 0..gcs.len() {
            if place[k] == ADDED {
                adding.take(&gcs[k]);
            } else {
                gcs[kept] = gcs[k];
                place[k] = kept;
                kept += 1;
            }
        }
        gcs.truncate(kept);
        for k in self.leads.iter_mut().chain(self.last.iter_mut()).flatten() {
            *k = place[*k];
        }
        if let Some(u) = &mut self.part {
            u.starts.iter_mut().for_each(|s| s.0 = place[s.0]);
        }
        adding.place = place;
    }

    /// Adds up every collection still held: nothing more is read (the reading ended, or
    /// the part that followed was taken in).
    fn retire_all(&mut self) {
        (self.leads, self.last, self.part) = (Vec::new(), Vec::new(), None);
        self.retire();
    }

    /// Whether [`Gathering::event`] takes events of type `ty`.
    pub(super) fn takes(&self, ty: u16) -> bool {
        if matches!(ty, id::RUN_THREAD | id::STOP_THREAD) {
            return self.reads_activity;
        }
        matches!(
            ty,
            id::GC_START
                | id::SPARK_COUNTERS
                | id::GC_STATS_GHC
                | id::GC_END
                | id::HEAP_ALLOCATED
                | id::HEAP_LIVE
                | id::HEAP_SIZE
                | id::CONC_SYNC_BEGIN
                | id::CONC_SYNC_END
                | id::CONC_MARK_BEGIN
                | id::CONC_MARK_END
                | id::CONC_SWEEP_END
                | id::NONMOVING_HEAP_CENSUS
                | id::NONMOVING_PRUNED_SEGMENTS
        )
    }

    /// Takes one of the runtime's events from capability `cap`; `None` when its payload
    /// is too short.
    pub(super) fn event(&mut self, ty: u16, ns: u64, cap: u16, p: &[u8]) -> Option<()> {
        // One list of the types taken: the reader's table steps over the others
        // (`Builder::gathers`), so a type handled below but not listed would be read by
        // one path and not the other; this way it is read by neither.
        if !self.takes(ty) {
            return Some(());
        }
        match ty {
            id::RUN_THREAD => self.activity.start(cap, RUNNING, ns),
            id::STOP_THREAD => self.activity.end(cap, RUNNING, ns),
            id::GC_START => {
                if self.reads_activity {
                    self.activity.start(cap, COLLECTING, ns);
                }
                self.learn(cap, OPEN);
                *slot(&mut self.open, cap) = Some(ns);
            }
            id::GC_STATS_GHC => self.gc_stats(ns, cap, payload::gc_stats(p)?),
            id::GC_END => {
                if self.reads_activity {
                    self.activity.end(cap, COLLECTING, ns);
                }
                self.gc_end(ns, cap);
            }
            id::HEAP_ALLOCATED => {
                use crate::profile::MAX_ALLOCATION_READINGS;
                let bytes = payload::capset_bytes(p)?;
                *slot(&mut self.allocated, cap) = Some(bytes);
                let rt = &mut self.runtime;
                if self.adding.is_none() && rt.allocation.len() < MAX_ALLOCATION_READINGS {
                    rt.allocation.push(Allocation {
                        time: seconds(ns),
                        capability: cap,
                        bytes,
                    });
                }
            }
            id::SPARK_COUNTERS => {
                use crate::profile::MAX_ALLOCATION_READINGS;
                let counters = payload::spark_counters(p)?;
                *slot(&mut self.sparks, cap) = Some(counters);
                let rt = &mut self.runtime;
                if self.adding.is_none() && rt.sparks.len() < MAX_ALLOCATION_READINGS {
                    rt.sparks.push(crate::profile::Sparks {
                        time: seconds(ns),
                        capability: cap,
                        counters,
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
            id::CONC_MARK_BEGIN => self.nonmoving.step(ns, Step::MarkBegin),
            id::CONC_MARK_END => self.nonmoving.step(ns, Step::MarkEnd),
            id::CONC_SWEEP_END => self.nonmoving.step(ns, Step::SweepEnd),
            id::NONMOVING_HEAP_CENSUS => self.nonmoving.row(ns, payload::nonmoving_census(p)?),
            id::NONMOVING_PRUNED_SEGMENTS => {
                let (pruned, free) = payload::nonmoving_pruned(p)?;
                self.nonmoving.prune(ns, pruned, free);
            }
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
        let room = self.collections() < MAX_GCS;
        let rt = &mut self.runtime;
        let k = if room {
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
            nonmoving,
            activity,
            sparks,
            allocated,
            part,
            gc_runs,
            allocation_runs,
            adding,
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
        self.nonmoving.absorb(nonmoving);
        self.activity.absorb(activity);
        let room = MAX_ALLOCATION_READINGS - rt.sparks.len().min(MAX_ALLOCATION_READINGS);
        rt.sparks.extend(b.sparks.iter().take(room));
        for (cap, counters) in sparks.into_iter().enumerate() {
            if counters.is_some() {
                *slot(&mut self.sparks, cap as u16) = counters;
            }
        }
        for (cap, bytes) in allocated.into_iter().enumerate() {
            if bytes.is_some() {
                *slot(&mut self.allocated, cap as u16) = bytes;
            }
        }
        if let (Some(later), Some(_)) = (adding, &self.adding) {
            // Nothing is read after the part taken in: every collection still held is
            // settled, and added up before the part's own.
            self.retire_all();
            if let Some(adding) = &mut self.adding {
                adding.take_in(*later);
            }
        }
    }

    /// The runtime's account, its lists in time order.
    pub(super) fn finish(mut self, end_ns: u64, census_in_gc: bool) -> crate::profile::Runtime {
        self.retire_all();
        let mut rt = std::mem::take(&mut self.runtime);
        rt.nonmoving = std::mem::take(&mut self.nonmoving).finish();
        rt.activity = std::mem::take(&mut self.activity).finish(end_ns);
        // Each capability's readings are in order, the capabilities' interleaved.
        rt.sparks.sort_by(|a, b| a.time.total_cmp(&b.time));
        rt.last_sparks = (self.sparks.iter().enumerate())
            .filter_map(|(c, s)| s.map(|s| (c as u16, s)))
            .collect();
        if let Some(mut adding) = self.adding.take() {
            for (part, runs) in adding.summed.parts.iter_mut().zip(&adding.runs) {
                order(part, runs, span_order);
            }
            rt.inconsistent = adding.inconsistent;
            rt.summed = Some(adding.summed);
        }
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
        rt.inconsistent += read - rt.gcs.len();
        rt.end = seconds(end_ns);
        rt.census_in_gc = census_in_gc;
        rt.last_allocation = (self.allocated.iter().enumerate())
            .filter_map(|(c, b)| b.map(|b| (c as u16, b)))
            .collect();
        rt
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::MAX_GCS;

    /// A gathering adding up, that has read `n` collections.
    fn adding(n: usize) -> Gathering {
        let mut g = Gathering::keeping(false, false);
        if let Some(a) = &mut g.adding {
            a.retired = n;
        }
        g
    }

    #[test]
    fn parts_adding_up_past_the_collections_kept_are_not_taken_in() {
        // Added up, a collection cannot be left out again: the first part reads on.
        assert!(adding(MAX_GCS / 2).can_take(&adding(MAX_GCS / 2)));
        assert!(!adding(MAX_GCS / 2).can_take(&adding(MAX_GCS / 2 + 1)));
        // A list keeps the first MAX_GCS as it takes the second in.
        let list = Gathering::keeping(true, false);
        assert!(list.can_take(&Gathering::keeping(true, false)));
        assert_eq!(adding(7).collections(), 7);
    }

    #[test]
    fn a_block_adds_up_all_but_what_a_capability_may_still_change() {
        let mut g = Gathering::keeping(false, false);
        let stats = |generation: u16| Gc {
            generation,
            copied: 10,
            ..Gc::default()
        };
        // Capability 0 leads three collections, capability 1 one that is still open.
        for (k, ns) in [100u64, 200, 300].into_iter().enumerate() {
            g.event(id::GC_START, ns, 0, &[]);
            g.gc_stats(ns + 1, 0, stats(k as u16 % 2));
            g.gc_end(ns + 5, 0);
        }
        g.event(id::GC_START, 400, 1, &[]);
        g.gc_stats(401, 1, stats(0));
        g.block();
        // Capability 0's last (a heap size may follow) and 1's (its end will) stay.
        assert_eq!(g.runtime.gcs.len(), 2);
        assert_eq!(g.collections(), 4);
        g.gc_end(410, 1);
        let rt = g.finish(500, false);
        let summed = rt.summed.expect("added up");
        let spans: Vec<Span> = summed.spans().collect();
        let starts: Vec<f64> = spans.iter().map(|s| s.start * 1e9).collect();
        assert_eq!(
            starts.iter().map(|s| s.round()).collect::<Vec<_>>(),
            [100.0, 200.0, 300.0, 400.0]
        );
        assert_eq!(spans[3].end, seconds(410));
        assert_eq!(summed.totals.copied, 40);
    }
}
