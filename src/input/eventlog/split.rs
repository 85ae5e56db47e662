//! An eventlog held in memory, read in two parts on two threads for the runtime's
//! account (`--stats`, `--summary`, the page): every collection's events are in every
//! capability's blocks, so none can be passed over, and one reader reading them all was
//! most of such a run's time.
//!
//! The first part is read as always. The second, from the first block at or after the
//! middle, is read by a reader that gathers the runtime's account on its own — what it
//! cannot settle alone, a collection the first part opened, it keeps for later
//! (`gathering::Unknown`) — and leaves every other event it meets (the census, marks,
//! heap lines, the program's details) to the first part's reader, by its place in the
//! file. The first then takes the second in: settles the account, applies those events in
//! file order, and ends where the second ended. The result is the one pass's, warnings
//! and errors included: where the second part meets anything the first would have met
//! differently (an error, more events to leave than [`MAX_LEFT`]), the first reads on by
//! itself from the middle. Each fixture eventlog is read both ways in the tests.

use super::build::Builder;
use super::format::{self, EVENT_HEADER, id, payload};
use super::{Error, Parser, State};
use crate::input::{Options, Parsed};

/// The most events a second part leaves to the first: past it, the second part's reading
/// is given up and the first reads on by itself (an eventlog whose second half holds
/// millions of census samples is read in one pass, as before).
pub const MAX_LEFT: usize = 1 << 20;

/// An event the second part leaves to the first: where it is in the file, where its
/// payload starts in it and how long that is, and the capability whose block holds it.
struct Left {
    at: u64,
    len: u32,
    capability: u16,
    start: u8,
}

/// What a reader of a second part keeps for the first.
#[derive(Default)]
pub(super) struct Part {
    /// Where the part starts in the file.
    from: u64,
    /// The events it leaves to the first part, in file order.
    left: Vec<Left>,
    /// More than [`MAX_LEFT`] were met: the part cannot be taken in.
    overflowed: bool,
}

/// How a first part's reader took a second in.
#[derive(Debug, PartialEq, Eq)]
enum Taken {
    /// As if it had read the second part itself.
    Whole,
    /// Not at all: it is as it was, and reads on from where it stopped.
    Refused,
    /// An event left to it did not read: it is changed, and the file must be read again
    /// in one pass (which says where, as it would have).
    Failed,
}

/// Takes one event (not a block marker) into `profile`: the whole of it, or for the
/// reader of a second `part`, the runtime's account's share, leaving the rest to the
/// first part. `false` when its payload is too short for its fields.
pub(super) fn event(
    profile: &mut Builder,
    part: Option<&mut Part>,
    (ty, time, body): (u16, u64, &[u8]),
    at: u64,
    start: usize,
) -> bool {
    let Some(part) = part else {
        return profile.event(ty, time, body);
    };
    profile.clock(time);
    if profile.gather(ty, time, body).is_none() {
        return false;
    }
    if profile.applies(ty) {
        if part.left.len() < MAX_LEFT {
            part.left.push(Left {
                at,
                len: body.len() as u32,
                capability: profile.capability,
                start: start as u8,
            });
        } else {
            part.overflowed = true;
        }
    }
    true
}

impl Part {
    /// The part cannot be taken in: the first part reads it again by itself.
    pub(super) fn give_up(&mut self) {
        self.overflowed = true;
    }
}

impl Parser {
    /// A reader of the same eventlog from the block that starts at `offset`, for this
    /// reader to take in once it has read up to there; `None` before the header is read
    /// or when the runtime's account is not gathered.
    fn part_from(&self, offset: u64, len: usize) -> Option<Parser> {
        let State::Data(sizes) = &self.state else {
            return None;
        };
        let mut profile = Builder::with_options(self.options);
        let part = profile.gathering.as_mut()?;
        part.begin_part();
        part.reserve(len);
        profile.ends_declared = self.profile.ends_declared;
        Some(Parser {
            state: State::Data(sizes.clone()),
            offset,
            profile,
            part: Some(Part {
                from: offset,
                ..Part::default()
            }),
            ..Parser::with_options(self.options)
        })
    }

    /// Takes in `second`, a reader of the part of `file` that starts where this one
    /// stopped.
    fn take(&mut self, second: Parser, file: &[u8]) -> Taken {
        let usable = (second.part.as_ref()).is_some_and(|p| !p.overflowed && p.from == self.offset)
            && match (&self.profile.gathering, &second.profile.gathering) {
                (Some(g), Some(h)) => g.can_take(h),
                _ => true,
            };
        if !usable || !matches!(self.state, State::Data(_)) {
            return Taken::Refused;
        }
        let Parser {
            profile,
            part,
            state,
            offset,
            block_end,
            ..
        } = second;
        let (reached, capability) = (profile.reached(), profile.capability);
        self.profile.clock(reached);
        // The runtime's account and the events left are apart: each settled on a thread.
        let mut gathering = self.profile.gathering.take();
        let applied = std::thread::scope(|s| {
            let gathered = s.spawn(|| {
                if let (Some(g), Some(h)) = (&mut gathering, profile.gathering) {
                    g.absorb(*h);
                }
            });
            let left = part.map(|p| p.left).unwrap_or_default();
            let applied = left.iter().all(|left| self.apply_left(left, file));
            let _ = gathered.join();
            applied
        });
        self.profile.gathering = gathering;
        if !applied {
            return Taken::Failed;
        }
        self.profile.capability = capability;
        if matches!(state, State::Ended) {
            self.profile.data_ended();
        }
        (self.state, self.offset, self.block_end) = (state, offset, block_end);
        Taken::Whole
    }

    /// Applies an event the second part left, where `file` holds it; `false` when it
    /// does not read.
    fn apply_left(&mut self, left: &Left, file: &[u8]) -> bool {
        let at = left.at as usize;
        let start = at + usize::from(left.start);
        let (Some(head), Some(body)) = (
            file.get(at..at + EVENT_HEADER),
            file.get(start..start + left.len as usize),
        ) else {
            return false;
        };
        let ty = u16::from_be_bytes([head[0], head[1]]);
        let time = payload::u64_at(head, 2).unwrap_or(0);
        self.profile.capability = left.capability;
        self.profile.apply(ty, time, body).is_some()
    }
}

/// The first block of `file` that starts at or after `middle`, walking the blocks by
/// their markers' lengths from `from` (the end of the header); `None` where the walk
/// meets anything but a block before it.
fn block_at(file: &[u8], from: usize, middle: usize) -> Option<usize> {
    let mut pos = from;
    while pos < middle {
        let head = file.get(pos..pos + EVENT_HEADER + 4)?;
        let ty = u16::from_be_bytes([head[0], head[1]]);
        let len = payload::u32_at(head, EVENT_HEADER)? as usize;
        if ty != id::BLOCK_MARKER || len < head.len() || pos + len > file.len() {
            return None;
        }
        pos += len;
    }
    (pos < file.len()).then_some(pos)
}

/// Reads `file`, a whole eventlog, in two parts on two threads, the second from the
/// first block at or after `middle` (the middle of the file where `None`); `feed(parser,
/// from, until, eof)` offers `parser` the bytes from `from` to `until` and returns where
/// it stopped. `None` when the file cannot be split (the runtime's account is not asked
/// for, or the file is not a run of blocks up to there): the caller reads it in one pass.
pub fn read<F>(
    file: &[u8],
    options: Options,
    middle: Option<usize>,
    feed: &F,
) -> Option<Result<Parsed, Error>>
where
    F: Fn(&mut Parser, usize, usize, bool) -> Result<usize, Error> + Sync,
{
    let format::Header::Done(_, header) = format::header(file) else {
        return None;
    };
    let split = block_at(file, header, middle.unwrap_or(file.len() / 2))?;
    let mut first = Parser::with_options(options);
    if let Err(e) = first.feed(&file[..header], false) {
        return Some(Err(e));
    }
    let mut second = first.part_from(split as u64, file.len() - split)?;
    if let Some(g) = &mut first.profile.gathering {
        g.reserve(file.len());
    }
    let (reached, second) = std::thread::scope(|s| {
        let later = s.spawn(move || {
            let read = feed(&mut second, split, file.len(), true);
            read.map(|_| second)
        });
        (feed(&mut first, header, split, false), later.join())
    });
    let reached = match reached {
        Ok(at) => at,
        Err(e) => return Some(Err(e)),
    };
    let taken = match second {
        Ok(Ok(second)) if reached == split => first.take(second, file),
        _ => Taken::Refused,
    };
    match taken {
        Taken::Whole => Some(first.finish()),
        Taken::Refused => {
            Some(feed(&mut first, reached, file.len(), true).and_then(|_| first.finish()))
        }
        Taken::Failed => None,
    }
}
