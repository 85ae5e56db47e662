//! What each capability was doing over a run — running Haskell code, collecting, idle —
//! as its scheduler's events give it (ThreadScope's view): running from each
//! `RUN_THREAD` to the `STOP_THREAD` after it on that capability, collecting from its
//! `GC_START` to its `GC_END`, idle the rest. A stretch the run ends in runs to its end.

/// At most this many stretches are kept, of every capability together (16 bytes each,
/// 64 MB in all): a scheduler's eventlog is mostly threads run and stopped, millions in
/// a long run. Past it the whole run's figures stay exact (each capability's totals are
/// added up as read), but a window's cannot be told ([`Activity::figures`]).
pub const MAX_ACTIVITY_SPANS: usize = 4_000_000;

/// At most this many capabilities' strips are drawn, in the pictures and the page (the
/// rest are in `--summary`): a 64-capability run's would be taller than the graph.
pub const MAX_CAPABILITY_STRIPS: usize = 16;

/// A stretch of time, in seconds since the run began: its start and end.
pub type Stretch = (f64, f64);

/// One capability's account.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Capability {
    /// Its number.
    pub capability: u16,
    /// Its stretches running Haskell code, in time order.
    pub running: Vec<Stretch>,
    /// Its stretches collecting, in time order.
    pub gc: Vec<Stretch>,
    /// Its whole time running and collecting, of every stretch read (kept or not).
    pub totals: (f64, f64),
}

/// The capabilities' account of a run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Activity {
    /// The capabilities that ran or collected, by number.
    pub capabilities: Vec<Capability>,
    /// Stretches past [`MAX_ACTIVITY_SPANS`], counted in the totals but not kept.
    pub dropped: usize,
}

/// One capability's figures over a window, in seconds.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Figures {
    /// The capability.
    pub capability: u16,
    /// Time running Haskell code.
    pub running: f64,
    /// Time collecting.
    pub gc: f64,
    /// The rest of the window.
    pub idle: f64,
}

/// The time of `stretches` inside `[a, b]`.
fn inside(stretches: &[Stretch], a: f64, b: f64) -> f64 {
    // In time order and apart: those ending before `a` are passed over at once.
    let first = stretches.partition_point(|s| s.1 < a);
    (stretches[first..].iter())
        .take_while(|s| s.0 <= b)
        .map(|s| (s.1.min(b) - s.0.max(a)).max(0.0))
        // From 0, not `sum`'s -0: a capability idle all the window runs for 0 s.
        .fold(0.0, |sum, t| sum + t)
}

impl Activity {
    /// Whether the eventlog had no capability's activity (no scheduler's event).
    pub fn is_empty(&self) -> bool {
        self.capabilities.is_empty()
    }

    /// Each capability's figures over `[a, b]` (`whole`: the run, `[0, end]`); `None`
    /// for a window when stretches were not kept: they cannot be told.
    pub fn figures(&self, a: f64, b: f64, whole: bool) -> Option<Vec<Figures>> {
        if !whole && self.dropped > 0 {
            return None;
        }
        let span = (b - a).max(0.0);
        Some(
            (self.capabilities.iter())
                .map(|c| {
                    let (running, gc) = match whole {
                        true => c.totals,
                        false => (inside(&c.running, a, b), inside(&c.gc, a, b)),
                    };
                    Figures {
                        capability: c.capability,
                        running,
                        gc,
                        idle: (span - running - gc).max(0.0),
                    }
                })
                .collect(),
        )
    }

    /// For capability `k` (its place in [`Activity::capabilities`]) and each of
    /// `columns` equal stretches of `[first, last]`, the shares of its time running and
    /// collecting: the strips' one rule ([`super::column_shares`]).
    pub fn shares(&self, k: usize, first: f64, last: f64, columns: usize) -> Vec<(f64, f64)> {
        let Some(c) = self.capabilities.get(k) else {
            return Vec::new();
        };
        let of = |s: &[Stretch]| {
            super::column_shares(s.iter().map(|&(a, b)| (a, b, false)), first, last, columns)
        };
        (of(&c.running).into_iter().zip(of(&c.gc)))
            .map(|(r, g)| (r.0, g.0))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn activity() -> Activity {
        Activity {
            capabilities: vec![Capability {
                capability: 0,
                running: vec![(0.0, 1.0), (2.0, 3.0)],
                gc: vec![(1.0, 1.5)],
                totals: (2.0, 0.5),
            }],
            dropped: 0,
        }
    }

    #[test]
    fn a_window_counts_the_stretches_inside_it_and_idle_is_the_rest() {
        let f = activity().figures(0.5, 2.5, false).unwrap();
        assert_eq!((f[0].running, f[0].gc, f[0].idle), (1.0, 0.5, 0.5));
        let whole = activity().figures(0.0, 4.0, true).unwrap();
        assert_eq!(
            (whole[0].running, whole[0].gc, whole[0].idle),
            (2.0, 0.5, 1.5)
        );
    }

    #[test]
    fn a_window_cannot_be_told_once_stretches_were_dropped() {
        let a = Activity {
            dropped: 1,
            ..activity()
        };
        assert!(a.figures(0.5, 2.5, false).is_none());
        assert!(a.figures(0.0, 4.0, true).is_some());
    }

    #[test]
    fn each_column_has_its_shares_of_running_and_collecting() {
        let s = activity().shares(0, 0.0, 4.0, 4);
        assert_eq!(s, [(1.0, 0.0), (0.0, 0.5), (1.0, 0.0), (0.0, 0.0)]);
        assert!(activity().shares(1, 0.0, 4.0, 4).is_empty());
    }
}
