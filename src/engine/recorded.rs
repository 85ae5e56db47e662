//! Which of a run's two records to draw: its eventlog, or the `.hp` the runtime wrote
//! beside the program in the same run. Before 9.2 the runtime writes its eventlog out in
//! 2 MB blocks and its `.hp` at every census, so a program stopped by a signal leaves
//! an eventlog of its header and first block, and a `.hp` of what it did.

use std::path::Path;

use crate::input;

/// The `.hp` holds more of the run than its eventlog: how many censuses each has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fuller {
    /// The eventlog's (0 where it reads none, or is not there).
    pub eventlog: usize,
    /// The `.hp`'s.
    pub hp: usize,
}

/// Whether `hp` is to be drawn rather than `eventlog`: it was written at `since` or
/// later (this run's), the eventlog was not read whole, and the `.hp` has more censuses.
pub fn fuller_hp(
    read: input::Options,
    eventlog: &Path,
    hp: &Path,
    since: std::time::SystemTime,
) -> Option<Fuller> {
    let this_run = std::fs::metadata(hp)
        .and_then(|m| m.modified())
        .is_ok_and(|t| t >= since);
    if !this_run {
        return None;
    }
    let from_eventlog = match censuses(read, eventlog) {
        Some((_, true)) => return None,
        Some((n, false)) => n,
        None => 0,
    };
    let (from_hp, _) = censuses(read, hp)?;
    (from_hp > from_eventlog).then_some(Fuller {
        eventlog: from_eventlog,
        hp: from_hp,
    })
}

/// The heap censuses a record holds (0 without a heap profile), and whether it was read
/// whole; `None` where it does not read.
pub fn censuses(read: input::Options, path: &Path) -> Option<(usize, bool)> {
    let file = std::fs::File::open(path).ok()?;
    let parsed = input::read_file(&file, read).ok()?;
    let heap: &crate::profile::Profile = parsed.profile.series();
    let n = if heap.bands.is_empty() {
        0
    } else {
        heap.times.len()
    };
    Some((n, parsed.loss().is_none()))
}
