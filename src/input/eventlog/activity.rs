//! What each capability was doing, as its events are read ([`Raw`]): a capability's
//! events come in its own blocks, in order, so each keeps what is open (a thread
//! running, a collection) and closes it at the event that ends it. A reader of a part
//! that starts mid-file does not know what was open when it began: an end before any
//! start there is kept, and the part before closes its open stretch with it when it
//! takes the part in ([`Raw::absorb`]).

use super::format::seconds;
use crate::profile::activity::{Activity, Capability, MAX_ACTIVITY_SPANS};

/// One kind of stretch on one capability, as read.
#[derive(Debug, Clone, Default)]
struct Track {
    /// The start of the stretch open now (nanoseconds).
    open: Option<u64>,
    /// An event of this kind was met (in a part: from then on `open` is known).
    seen: bool,
    /// In a part, an end met before any start: the stretch the part before left open.
    first_end: Option<u64>,
    /// The stretches closed, in order.
    closed: Vec<(u64, u64)>,
    /// Their whole time, kept or not.
    total: u64,
}

impl Track {
    fn start(&mut self, ns: u64) {
        self.seen = true;
        self.open = Some(ns);
    }

    /// Ends the open stretch; `false` when it was closed but not kept (no room).
    fn end(&mut self, ns: u64, part: bool, room: &mut usize) -> bool {
        let kept = match self.open.take() {
            Some(start) => self.close(start, ns, room),
            None => {
                if part && !self.seen {
                    self.first_end = Some(ns);
                }
                true
            }
        };
        self.seen = true;
        kept
    }

    /// Closes a stretch; `false` when there was no room to keep it.
    fn close(&mut self, start: u64, end: u64, room: &mut usize) -> bool {
        let end = end.max(start);
        self.total += end - start;
        if *room > 0 {
            *room -= 1;
            self.closed.push((start, end));
            true
        } else {
            false
        }
    }

    /// Takes in the same capability's track of the part that follows.
    fn absorb(&mut self, later: Track, room: &mut usize, dropped: &mut usize) {
        if let Some(end) = later.first_end
            && let Some(start) = self.open.take()
            && !self.close(start, end, room)
        {
            *dropped += 1;
        }
        let kept = later.closed.len().min(*room);
        *room -= kept;
        *dropped += later.closed.len() - kept;
        self.total += later.total;
        self.closed.extend_from_slice(&later.closed[..kept]);
        if later.seen {
            (self.open, self.seen) = (later.open, true);
        }
    }

    fn stretches(&self) -> Vec<(f64, f64)> {
        (self.closed.iter())
            .map(|&(a, b)| (seconds(a), seconds(b)))
            .collect()
    }
}

/// Each capability's running and collecting, as read.
#[derive(Debug, Clone)]
pub struct Raw {
    /// Per capability: running, collecting.
    caps: Vec<[Track; 2]>,
    /// This reads a part that starts mid-file.
    part: bool,
    /// Stretches that may still be kept ([`MAX_ACTIVITY_SPANS`] less those kept).
    room: usize,
    /// Stretches closed but not kept.
    dropped: usize,
}

impl Default for Raw {
    fn default() -> Raw {
        Raw {
            caps: Vec::new(),
            part: false,
            room: MAX_ACTIVITY_SPANS,
            dropped: 0,
        }
    }
}

/// A track's place: running Haskell code, or collecting.
pub const RUNNING: usize = 0;
/// See [`RUNNING`].
pub const COLLECTING: usize = 1;

/// The global buffer's blocks' capability: no capability's activity is in it.
const GLOBAL: u16 = 0xffff;

impl Raw {
    /// This reads a part that starts mid-file.
    pub fn begin_part(&mut self) {
        self.part = true;
    }

    fn track(&mut self, cap: u16, which: usize) -> Option<&mut Track> {
        if cap == GLOBAL {
            return None;
        }
        let k = usize::from(cap);
        if self.caps.len() <= k {
            self.caps.resize_with(k + 1, Default::default);
        }
        Some(&mut self.caps[k][which])
    }

    /// A stretch of `which` begins on capability `cap`.
    pub fn start(&mut self, cap: u16, which: usize, ns: u64) {
        if let Some(t) = self.track(cap, which) {
            t.start(ns);
        }
    }

    /// A stretch of `which` ends on capability `cap`.
    pub fn end(&mut self, cap: u16, which: usize, ns: u64) {
        let (part, mut room) = (self.part, self.room);
        if let Some(t) = self.track(cap, which)
            && !t.end(ns, part, &mut room)
        {
            self.dropped += 1;
        }
        self.room = room;
    }

    /// Takes in what the part that follows read.
    pub fn absorb(&mut self, later: Raw) {
        if self.caps.len() < later.caps.len() {
            self.caps.resize_with(later.caps.len(), Default::default);
        }
        self.dropped += later.dropped;
        for (here, there) in self.caps.iter_mut().zip(later.caps) {
            for (h, t) in here.iter_mut().zip(there) {
                h.absorb(t, &mut self.room, &mut self.dropped);
            }
        }
    }

    /// The account at the run's end (`end_ns`): what is still open runs to it.
    pub fn finish(mut self, end_ns: u64) -> Activity {
        let mut capabilities = Vec::new();
        for (k, tracks) in self.caps.iter_mut().enumerate() {
            for t in tracks.iter_mut() {
                if let Some(start) = t.open.take()
                    && !t.close(start, end_ns, &mut self.room)
                {
                    self.dropped += 1;
                }
            }
            let [running, gc] = &*tracks;
            if !running.seen && !gc.seen {
                continue;
            }
            capabilities.push(Capability {
                capability: k as u16,
                running: running.stretches(),
                gc: gc.stretches(),
                totals: (seconds(running.total), seconds(gc.total)),
            });
        }
        Activity {
            capabilities,
            dropped: self.dropped,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_part_closes_what_the_part_before_left_open() {
        let mut whole = Raw::default();
        let (mut first, mut second) = (Raw::default(), Raw::default());
        second.begin_part();
        let events = [(10, true), (20, false), (30, true), (40, false), (50, true)];
        for (k, &(ns, start)) in events.iter().enumerate() {
            for r in [&mut whole, if k < 3 { &mut first } else { &mut second }] {
                match start {
                    true => r.start(1, RUNNING, ns),
                    false => r.end(1, RUNNING, ns),
                }
            }
        }
        first.absorb(second);
        let (a, b) = (whole.finish(60), first.finish(60));
        assert_eq!(a, b);
        assert_eq!(a.capabilities[0].capability, 1);
        assert_eq!(a.capabilities[0].running.len(), 3);
        assert!((a.capabilities[0].totals.0 - 30e-9).abs() < 1e-18);
    }

    #[test]
    fn stretches_past_the_bound_are_added_up_not_kept() {
        let mut r = Raw {
            room: 1,
            ..Raw::default()
        };
        for k in 0..3 {
            r.start(0, COLLECTING, 10 * k);
            r.end(0, COLLECTING, 10 * k + 5);
        }
        let a = r.finish(100);
        assert_eq!(a.dropped, 2);
        assert_eq!(a.capabilities[0].gc.len(), 1);
        assert!((a.capabilities[0].totals.1 - 15e-9).abs() < 1e-18);
    }
}
