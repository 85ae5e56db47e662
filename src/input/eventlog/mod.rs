//! GHC eventlogs (`prog +RTS -h… -l`): binary events in, the same [`Profile`](crate::profile::Profile) as a `.hp`.
//!
//! [`Parser`] is fed bytes as they arrive, like the `.hp` parser: the header first (the
//! event-type table, which gives every event's size), then whole events; a partly written
//! event waits for the rest. Only the heap-profile events and the few that make the
//! `.hp` header are decoded ([`format::id`]); every other event is skipped by its declared
//! size, so memory follows the profile's series, not the file. `build` turns the
//! decoded events into the profile, naming bands as GHC's `.hp` of the same run names
//! them.

mod activity;
mod build;
pub mod format;
mod gathering;
mod header;
mod nonmoving;
mod resync;
mod runs;
mod samples;
pub mod split;
pub mod ticky;

use std::fmt;

use crate::input::{Parsed, WarningKind};
use format::{DATA_END, EVENT_HEADER, Size, id, payload};

pub use format::HeapEvent;
pub use header::{date_of, job_of};
pub use samples::{MAX_SAMPLE_CENSUSES, MAX_SAMPLE_STACKS, MAX_SAMPLES, OTHER_STACKS};

/// Why an eventlog could not be read.
#[derive(Debug, Clone, PartialEq)]
pub struct Error {
    /// Byte offset of the offending bytes, when there are any.
    pub offset: Option<u64>,
    /// What is wrong.
    pub kind: ErrorKind,
}

/// The kinds of [`Error`].
#[derive(Debug, Clone, PartialEq)]
pub enum ErrorKind {
    /// The header does not follow the format.
    Header(&'static str),
    /// The input ends before the header does.
    HeaderCut,
    /// An event whose type the header does not declare: its size is unknown.
    UndeclaredEvent(u16),
    /// An event that runs past the end of the block it is in.
    PastBlockEnd {
        /// The block's end, as a byte offset.
        block_end: u64,
    },
    /// A block marker whose length cannot hold the marker itself.
    BlockTooShort(u32),
    /// An event whose time is outside its block's (from the block marker's time to the
    /// block's end time): a garbled time, which would stretch the run's clock.
    TimeOutsideBlock {
        /// The event type.
        event: u16,
        /// Its time, in nanoseconds.
        time: u64,
    },
    /// A payload shorter than the fields its event type has.
    ShortPayload {
        /// The event type.
        event: u16,
        /// The payload's length.
        len: usize,
    },
    /// The eventlog holds no complete heap sample, and heap profiling was not on.
    NoHeapSamples,
    /// The runtime's account was asked for, and the eventlog has neither a heap sample
    /// nor a GC event: it was written with some classes of events only
    /// (`+RTS -l<classes>` without `g`), as GHC 8.x's test logs were.
    NoRuntimeEvents,
    /// Heap profiling was on, but the eventlog ends (cut: the program still running, or
    /// killed) before the first census.
    CutBeforeCensus,
    /// `--measure` asked cost-centre samples for what they do not count.
    SamplesWeighTime(crate::profile::costs::Measure),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ErrorKind::Header(what) => write!(f, "not a valid eventlog header: expected {what}"),
            ErrorKind::HeaderCut => write!(f, "the eventlog ends inside its header"),
            ErrorKind::UndeclaredEvent(ty) => write!(
                f,
                "event of type {ty}, which the header does not declare (corrupt eventlog)"
            ),
            ErrorKind::PastBlockEnd { block_end } => write!(
                f,
                "event runs past the end of its block at byte {block_end} (wrong block length)"
            ),
            ErrorKind::BlockTooShort(len) => {
                write!(
                    f,
                    "block marker with a length of {len} bytes (corrupt eventlog)"
                )
            }
            ErrorKind::ShortPayload { event, len } => write!(
                f,
                "event of type {event} with a payload of {len} bytes, too short for its fields"
            ),
            ErrorKind::TimeOutsideBlock { event, time } => write!(
                f,
                "event of type {event} at {:.3} s, outside its block's time (a garbled time)",
                *time as f64 / 1e9
            ),
            ErrorKind::NoHeapSamples => write!(
                f,
                "no heap profile samples in this eventlog (run the program with +RTS -hT -l)"
            ),
            ErrorKind::NoRuntimeEvents => write!(
                f,
                "no heap profile and no GC events in this eventlog (run the program with \
                 +RTS -l for the runtime's statistics and lines, +RTS -hT -l for a heap \
                 profile too; -l with classes writes GC events only with g among them)"
            ),
            ErrorKind::SamplesWeighTime(m) => write!(
                f,
                "--measure {}: an eventlog's cost-centre samples count time only (use \
                 --measure time, or read the run's report: +RTS -P or -pj writes its \
                 allocation and entries to prog.prof)",
                m.name()
            ),
            ErrorKind::CutBeforeCensus => write!(
                f,
                "the eventlog ends before the first heap census (the program is still running, or was stopped)"
            ),
        }
    }
}

impl std::error::Error for Error {}

/// A per-capability block up to this size is buffered whole to look for markers in it;
/// a larger one (GHC's are 2 MiB) is read event by event.
const MAX_BUFFERED_BLOCK: usize = 64 << 20;

/// The most bytes the reader can leave unconsumed and wait on: a block being buffered
/// whole, or the header.
pub const MAX_PENDING: usize = MAX_BUFFERED_BLOCK + format::MAX_HEADER;

/// The most bytes of definitions (cost centres' labels and modules, info tables'
/// provenance) an eventlog reader keeps, each counted with [`DEFINITION_OVERHEAD`]. A
/// real program defines a few megabytes (pandoc's libraries: about 100,000 cost centres);
/// a hostile eventlog can define millions of 64 kB labels in a small compressed file.
/// Past the bound later definitions are ignored, with one warning: a stack that names
/// one is drawn with the cost centre's number, as one defined nowhere is.
pub const MAX_NAMING_BYTES: usize = 64 << 20;

/// What one definition is counted for beyond its text: its place in the reader's tables.
pub const DEFINITION_OVERHEAD: usize = 64;

/// The longest cost-centre label, module or info-table string kept
/// ([`crate::input::names::MAX_LABEL`], a report's too).
pub const MAX_LABEL: usize = crate::input::names::MAX_LABEL;

/// Where the payload of an event of declared `size` starts in `rest`, and its length:
/// `None` until a variable-size event's length field has come.
fn extent(size: u32, rest: &[u8]) -> Option<(usize, usize)> {
    if size == VARIABLE {
        let n = rest.get(EVENT_HEADER..).and_then(payload::length)?;
        Some((EVENT_HEADER + 2, usize::from(n)))
    } else {
        Some((EVENT_HEADER, size as usize))
    }
}

/// The event sizes declared by the header, indexed by type, as far as the greatest type
/// it declares (GHC's go to about 210: a table of every 16-bit type was a megabyte of
/// fresh pages for each reader, a third of a millisecond before reading began).
#[derive(Clone)]
struct Sizes {
    declared: Vec<u32>,
    /// Per type, for the loop that reads the common events ([`plain_events`]): the
    /// payload's size and [`PLAIN_WANTED`], or [`PLAIN_NOT`].
    plain: Vec<u32>,
    /// What this eventlog's census events carry past the fields this reader knows
    /// ([`resync::Trailing`]), learned as its blocks are read.
    trailing: resync::Trailing,
}

const UNDECLARED: u32 = u32::MAX;
const VARIABLE: u32 = u32::MAX - 1;

/// A [`Sizes::plain`] entry's flag: the reader takes events of this type (the others
/// are stepped over by their size).
const PLAIN_WANTED: u32 = 1 << 16;
/// A [`Sizes::plain`] entry: events of this type are read by the general path (block
/// markers, IPE and variable-size events, undeclared types).
const PLAIN_NOT: u32 = 1 << 17;
/// A [`Sizes::plain`] entry's flag: the reader takes events of this type for the
/// runtime's account alone ([`Take::Gathered`]).
const PLAIN_GATHERED: u32 = 1 << 18;

/// What the reader does with events of a type.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Take {
    /// Steps over them by their size.
    Stepped,
    /// Gives them to the runtime's account alone ([`build::Builder::gather`]), and
    /// nothing else: in a reader of a second part, nothing is left to the first. Nine
    /// in ten of the events `--stats` takes: called straight from [`plain_events`],
    /// they cost a third less than through [`split::event`].
    Gathered,
    /// Reads them whole ([`split::event`]).
    Read,
}

impl Sizes {
    /// The header's `types`; `take` says what the reader does with each.
    fn new(types: &[(u16, Size)], take: impl Fn(u16) -> Take) -> Sizes {
        let types_up_to = types.iter().map(|&(ty, _)| usize::from(ty) + 1).max();
        let mut declared = vec![UNDECLARED; types_up_to.unwrap_or(0)];
        let mut plain = vec![PLAIN_NOT; declared.len()];
        for &(ty, size) in types {
            let k = usize::from(ty);
            declared[k] = match size {
                Size::Fixed(n) => u32::from(n),
                Size::Variable => VARIABLE,
            };
            if let Size::Fixed(n) = size
                && ![id::BLOCK_MARKER, id::IPE, DATA_END].contains(&ty)
            {
                plain[k] = u32::from(n)
                    | match take(ty) {
                        Take::Stepped => 0,
                        Take::Gathered => PLAIN_GATHERED,
                        Take::Read => PLAIN_WANTED,
                    };
            }
        }
        Sizes {
            declared,
            plain,
            trailing: resync::Trailing::default(),
        }
    }

    fn declared(&self, ty: u16) -> bool {
        self.size(ty) != UNDECLARED
    }

    /// The size declared for type `ty`: [`UNDECLARED`], [`VARIABLE`] or its payload's.
    fn size(&self, ty: u16) -> u32 {
        self.declared
            .get(usize::from(ty))
            .copied()
            .unwrap_or(UNDECLARED)
    }
}

/// Reads the fixed-size events of `buf` from `pos` on that end by `end` (the buffer's
/// end, or the block's if that comes first), each type looked up once: a long run's
/// eventlog is millions of small events, most of them of types the reader steps over
/// (the scheduler's, the collector's threads'), and the general path's checks per event
/// were most of `--stats`' reading. Returns where it stopped: before an event the
/// general path reads ([`PLAIN_NOT`]: a block marker, an IPE or variable-size event,
/// an undeclared type, the data end) or one that does not end by `end`; `Err` of the
/// place and type of an event too short for its fields.
fn plain_events(
    plain: &[u32],
    profile: &mut build::Builder,
    mut part: Option<&mut split::Part>,
    (buf, offset): (&[u8], u64),
    mut pos: usize,
    (end, window): (usize, (u64, u64)),
) -> Result<usize, (usize, ErrorKind)> {
    let mut clock = 0;
    while let Some(head) = buf
        .get(pos..pos + EVENT_HEADER)
        .filter(|_| pos + EVENT_HEADER <= end)
    {
        let ty = u16::from_be_bytes([head[0], head[1]]);
        let entry = plain.get(usize::from(ty)).copied().unwrap_or(PLAIN_NOT);
        let next = pos + EVENT_HEADER + (entry & 0xffff) as usize;
        if entry & PLAIN_NOT != 0 || next > end {
            break;
        }
        let time = u64::from_be_bytes(head[2..].try_into().expect("8 bytes"));
        if !(window.0..=window.1).contains(&time) {
            profile.clock(clock);
            return Err((pos, ErrorKind::TimeOutsideBlock { event: ty, time }));
        }
        clock = clock.max(time);
        let short = |body: &[u8]| ErrorKind::ShortPayload {
            event: ty,
            len: body.len(),
        };
        if entry & PLAIN_GATHERED != 0 {
            let body = &buf[pos + EVENT_HEADER..next];
            if profile.gather(ty, time, body).is_none() {
                profile.clock(clock);
                return Err((pos, short(body)));
            }
        } else if entry & PLAIN_WANTED != 0 {
            let body = &buf[pos + EVENT_HEADER..next];
            let at = offset + pos as u64;
            if !split::event(
                profile,
                part.as_deref_mut(),
                (ty, time, body),
                at,
                EVENT_HEADER,
            ) {
                profile.clock(clock);
                return Err((pos, short(body)));
            }
        }
        pos = next;
    }
    profile.clock(clock);
    Ok(pos)
}

enum State {
    Header,
    Data(Sizes),
    /// The data-end marker was read; anything after it is ignored.
    Ended,
    /// An event did not read after complete censuses: the rest is ignored, as a cut
    /// eventlog's would be missing.
    Broken,
}

/// Incremental eventlog reader.
pub struct Parser {
    state: State,
    /// Offset in the file of the next byte to be fed.
    offset: u64,
    /// Where the current block ends, from its block marker.
    block_end: Option<u64>,
    /// The times the current block's events are in: its marker's time to its end time
    /// (every time before the first block).
    window: (u64, u64),
    /// The end of a block being passed over unread.
    skip_until: u64,
    options: crate::input::Options,
    profile: build::Builder,
    /// Per-capability blocks already searched for markers (by [`search_blocks`]): the
    /// block's offset in the file and whether it may hold one, in file order.
    searched: Vec<(u64, bool)>,
    /// A reader of a part of the eventlog (from a block in its middle): the events it
    /// leaves to the part before ([`split`]).
    part: Option<split::Part>,
    /// The first event that did not read and was passed over with the rest of its
    /// block: named as the error if the reading fails after it.
    first_damage: Option<Error>,
}

impl Default for Parser {
    fn default() -> Self {
        Self::new()
    }
}

impl Parser {
    /// A reader at the start of an eventlog that reads everything.
    pub fn new() -> Self {
        Self::with_options(crate::input::Options::default())
    }

    /// A reader that reads what `options` ask for.
    pub fn with_options(options: crate::input::Options) -> Self {
        Parser {
            state: State::Header,
            offset: 0,
            block_end: None,
            window: (0, u64::MAX),
            skip_until: 0,
            options,
            profile: build::Builder::with_options(options),
            searched: Vec::new(),
            part: None,
            first_damage: None,
        }
    }

    fn error(&self, at: usize, kind: ErrorKind) -> Error {
        Error {
            offset: Some(self.offset + at as u64),
            kind,
        }
    }

    /// An event of `len` bytes at `at` (`pos` in the bytes fed) ends within its block,
    /// or at most `slack` past it.
    fn within_block(&self, pos: usize, at: u64, len: u64, slack: u64) -> Result<(), Error> {
        match self.block_end {
            Some(end) if at < end && at + len > end + slack => {
                Err(self.error(pos, ErrorKind::PastBlockEnd { block_end: end }))
            }
            _ => Ok(()),
        }
    }

    /// Reads the header at the start of `buf`: `Some` of its length once it is whole,
    /// `None` while more bytes may complete it.
    fn header(&mut self, buf: &[u8], eof: bool) -> Result<Option<usize>, Error> {
        match format::header(buf) {
            format::Header::Done(types, used) => {
                let profile = &self.profile;
                let sizes = Sizes::new(&types, |ty| match profile.applies(ty) {
                    true => Take::Read,
                    false if profile.gathers(ty) => Take::Gathered,
                    false => Take::Stepped,
                });
                self.profile.ends_declared = sizes.declared(id::HEAP_PROF_SAMPLE_END);
                self.state = State::Data(sizes);
                Ok(Some(used))
            }
            format::Header::NeedMore if eof || buf.len() > format::MAX_HEADER => {
                let kind = if eof {
                    ErrorKind::HeaderCut
                } else {
                    ErrorKind::Header("the end of the header within 4 MiB")
                };
                Err(self.error(buf.len(), kind))
            }
            format::Header::NeedMore => Ok(None),
            format::Header::Bad(at, what) => Err(self.error(at, ErrorKind::Header(what))),
        }
    }

    /// Consumes the complete events at the start of `buf` and returns how many bytes it
    /// used; the rest (a partly written event) must be offered again with more bytes, or
    /// with `eof` set once no more will come. An event that does not read inside a block
    /// is passed over with the rest of its block, counted
    /// ([`WarningKind::BytesLost`]); one that cannot be (no block to end it) is an error
    /// before the first complete census, and after one, the eventlog is read up to it,
    /// with a warning naming its byte ([`WarningKind::BrokenEvent`]).
    pub fn feed(&mut self, buf: &[u8], eof: bool) -> Result<usize, Error> {
        let mut used = 0;
        loop {
            let start = self.offset;
            match self.feed_events(&buf[used..], eof) {
                Ok(n) => return Ok(used + n),
                // A block that runs past the input's end is cut, not damaged: what it
                // holds before the cut is read, and the end says the cut.
                Err(e)
                    if let Some((_, end)) = self.passable(&e, start)
                        && let input_end = start + (buf.len() - used) as u64
                        && eof
                        && end > input_end =>
                {
                    self.offset = input_end;
                    return Ok(buf.len());
                }
                Err(e) if let Some((at, end)) = self.passable(&e, start) => {
                    self.first_damage.get_or_insert(e);
                    // An event of a block that does not read: the rest of its block is
                    // passed over, counted, and the next block read.
                    self.profile.lost_bytes(end - at, at);
                    if let Some(part) = self.part.as_mut() {
                        part.give_up();
                    }
                    self.skip_until = end;
                    used += (at - start) as usize;
                    self.offset = at;
                }
                Err(e) if matches!(self.state, State::Data(_)) && self.profile.progress().0 > 0 => {
                    let at = e.offset.unwrap_or(self.offset);
                    let what = e.to_string();
                    let until = self.profile.last_census();
                    self.profile
                        .warn(WarningKind::BrokenEvent { at, what, until });
                    self.state = State::Broken;
                    self.offset = start + (buf.len() - used) as u64;
                    return Ok(buf.len());
                }
                // The first damage passed over is the cause of what did not read after.
                Err(e) => return Err(self.first_damage.take().unwrap_or(e)),
            }
        }
    }

    /// Where an event that did not read is, and the end of its block, when that block's
    /// rest can be passed over: the event is in the bytes fed from `start` on, and
    /// inside a block whose marker read.
    fn passable(&self, e: &Error, start: u64) -> Option<(u64, u64)> {
        let reads_events = matches!(
            e.kind,
            ErrorKind::UndeclaredEvent(_)
                | ErrorKind::PastBlockEnd { .. }
                | ErrorKind::ShortPayload { .. }
                | ErrorKind::TimeOutsideBlock { .. }
        );
        let (at, end) = (e.offset?, self.block_end?);
        (reads_events && matches!(self.state, State::Data(_)) && at >= start && end > at)
            .then_some((at, end))
    }

    fn feed_events(&mut self, buf: &[u8], eof: bool) -> Result<usize, Error> {
        let mut pos = 0;
        if let State::Header = self.state {
            match self.header(buf, eof)? {
                Some(used) => pos = used,
                None => return Ok(0),
            }
        }
        let sizes = match &self.state {
            State::Data(sizes) => sizes,
            State::Ended | State::Broken | State::Header => {
                self.offset += buf.len() as u64;
                return Ok(buf.len());
            }
        };
        let mut ended = false;
        if self.skip_until > self.offset {
            let skip = (self.skip_until - self.offset).min(buf.len() as u64) as usize;
            if skip == buf.len() {
                self.offset += skip as u64;
                return Ok(skip);
            }
            pos = skip;
        }
        while buf.len() - pos >= 2 {
            // Up to the block's end, or the buffer's.
            let end = match self.block_end {
                Some(e) if e > self.offset + pos as u64 => buf
                    .len()
                    .min(usize::try_from(e - self.offset).unwrap_or(usize::MAX)),
                _ => buf.len(),
            };
            let window = (end, self.window_at(self.offset + pos as u64));
            let (profile, part) = (&mut self.profile, self.part.as_mut());
            pos = plain_events(&sizes.plain, profile, part, (buf, self.offset), pos, window)
                .map_err(|(at, kind)| self.error(at, kind))?;
            if buf.len() - pos < 2 {
                break;
            }
            let rest = &buf[pos..];
            let ty = u16::from_be_bytes([rest[0], rest[1]]);
            if ty == DATA_END {
                pos += 2;
                ended = true;
                break;
            }
            let size = sizes.size(ty);
            if size == UNDECLARED {
                return Err(self.error(pos, ErrorKind::UndeclaredEvent(ty)));
            }
            let Some((start, declared)) = extent(size, rest) else {
                break;
            };
            let at = self.offset + pos as u64;
            // A length that runs past its block is corruption now, not a wait for bytes
            // that never come. An IPE event may be declared a byte longer than written.
            let slack = if ty == id::IPE { IPE_SLACK } else { 0 };
            self.within_block(pos, at, (start + declared) as u64, slack)?;
            let Some(event) = rest.get(..start + declared) else {
                break;
            };
            let len = if ty == id::IPE {
                let short = ErrorKind::ShortPayload {
                    event: ty,
                    len: declared,
                };
                ipe_length(&event[start..]).ok_or_else(|| self.error(pos, short))?
            } else {
                declared
            };
            let event = &event[..start + len];
            self.within_block(pos, at, event.len() as u64, 0)?;
            let time = u64::from_be_bytes(rest[2..10].try_into().expect("8 bytes"));
            let body = &event[start..];
            if ty == id::BLOCK_MARKER {
                let block = payload::block_marker(body)
                    .ok_or_else(|| self.error(pos, ErrorKind::ShortPayload { event: ty, len }))?;
                if (block as usize) < event.len() {
                    return Err(self.error(pos, ErrorKind::BlockTooShort(block)));
                }
                self.block_end = Some(at + u64::from(block));
                self.window = (time, payload::u64_at(body, 4).unwrap_or(u64::MAX));
                self.profile.capability = payload::u16_at(body, 12).unwrap_or(0);
                self.profile.block();
                if let Some(block_time) = payload::u64_at(body, 4) {
                    self.profile.clock(block_time);
                }
                // The global buffer's blocks are read whole, and read apart again where
                // the runtime wrote one event inside another ([`resync`]).
                if self.profile.capability == GLOBAL_BUFFER {
                    // A block the input ends inside is read as far as it goes, and
                    // apart again too: the end then cuts its last event.
                    let whole = rest.get(..block as usize);
                    let cut = whole.is_none() && eof;
                    let window = resync::Window {
                        start: time,
                        end: payload::u64_at(body, 4).unwrap_or(u64::MAX),
                        cut,
                    };
                    let block_end = at + u64::from(block);
                    match whole.or(cut.then_some(rest)) {
                        Some(whole)
                            if let events = &whole[event.len()..]
                                && !resync::chains(sizes, events, window)
                                // A later GHC's census events, longer than their
                                // fields, read as they are once learned.
                                && !(resync::learns(sizes, events, window)
                                    && resync::chains(sizes, events, window))
                                && let repaired = resync::repair(sizes, events, window, block_end)
                                // Where nothing of it reads, it is read event by event,
                                // which names the first byte that does not.
                                && !repaired.events.is_empty() =>
                        {
                            let base = at + event.len() as u64;
                            let (profile, part) = (&mut self.profile, self.part.as_mut());
                            let damage = &mut self.first_damage;
                            let data_end = apply_repaired(profile, part, damage, base, repaired)?;
                            pos += whole.len();
                            if data_end {
                                ended = true;
                                break;
                            }
                            continue;
                        }
                        Some(_) => {}
                        None if !eof
                            && !self.options.growing
                            && block as usize <= MAX_BUFFERED_BLOCK =>
                        {
                            break;
                        }
                        None => {}
                    }
                }
                if let Some(skip) = self.passes_over(at, body, rest, block as usize, eof) {
                    if skip {
                        pos += (block as usize).min(rest.len());
                        self.skip_until = at + u64::from(block);
                        continue;
                    }
                } else {
                    break; // wait for the whole block
                }
            } else if let (from, to) = self.window_at(at)
                && !(from..=to).contains(&time)
            {
                let kind = ErrorKind::TimeOutsideBlock { event: ty, time };
                return Err(self.error(pos, kind));
            } else if !split::event(
                &mut self.profile,
                self.part.as_mut(),
                (ty, time, body),
                at,
                start,
            ) {
                return Err(self.error(pos, ErrorKind::ShortPayload { event: ty, len }));
            }
            pos += event.len();
        }
        if ended {
            self.profile.data_ended();
            self.state = State::Ended;
            pos = buf.len();
        }
        self.offset += pos as u64;
        Ok(pos)
    }

    /// The times an event at byte `at` must be within: its block's, or any outside a
    /// block (which GHC never writes, nor does anything but a hand-made file).
    fn window_at(&self, at: u64) -> (u64, u64) {
        match self.block_end {
            Some(end) if at < end => self.window,
            _ => (0, u64::MAX),
        }
    }

    /// Whether the block whose marker starts `rest` can be passed over unread, `None`
    /// while that cannot be told until the whole block is there. The runtime writes the
    /// heap census, cost centres and the program's details to its global buffer (blocks
    /// of capability `0xffff`), and the scheduler's, the collector's and user markers
    /// to per-capability buffers. A per-capability block is needed for heap lines, and
    /// for marks only if it may hold a marker: every marker event starts with its type
    /// (`00 3a`) and a timestamp within the block's (from its marker's time to its end
    /// time), so with at least as many leading zero bytes as the end time has. A block
    /// where no such byte sequence is followed by a timestamp in that window holds no
    /// marker; one where some is, is read event by event, which is exact. (The byte
    /// sequence alone turns up in a third of a busy threaded program's blocks, inside
    /// thread ids and such; the timestamp check leaves almost none.)
    fn passes_over(
        &self,
        at: u64,
        marker: &[u8],
        rest: &[u8],
        len: usize,
        eof: bool,
    ) -> Option<bool> {
        let (Some(end_time), Some(cap)) = (payload::u64_at(marker, 4), payload::u16_at(marker, 12))
        else {
            return Some(false);
        };
        if cap == GLOBAL_BUFFER || self.options.heap || self.options.runtime {
            return Some(false);
        }
        if !self.options.marks {
            return Some(true);
        }
        if let Ok(k) = self
            .searched
            .binary_search_by_key(&at, |&(offset, _)| offset)
        {
            return Some(!self.searched[k].1);
        }
        let start_time = u64::from_be_bytes(rest[2..10].try_into().expect("an event header"));
        match rest.get(..len) {
            Some(block) => Some(!may_hold_marker(block, start_time, end_time)),
            None if eof || len > MAX_BUFFERED_BLOCK => Some(false),
            None => None,
        }
    }

    /// Takes a result of [`search_blocks`] on the file being read, the blocks after
    /// those it had: they are passed over or read as it says, without being searched
    /// again. Blocks already read are forgotten.
    pub fn searched(&mut self, blocks: Vec<(u64, bool)>) {
        let done = self.offset;
        self.searched.retain(|&(at, _)| at >= done);
        self.searched.extend(blocks);
    }

    /// Bytes after those consumed that the reader does not need: a caller that can seek
    /// passes over them and says so with [`skipped`](Parser::skipped).
    pub fn skippable(&self) -> u64 {
        self.skip_until.saturating_sub(self.offset)
    }

    /// The caller passed over `n` of the [`skippable`](Parser::skippable) bytes.
    pub fn skipped(&mut self, n: u64) {
        self.offset += n.min(self.skippable());
    }

    /// Whether the data-end marker was read.
    pub fn ended(&self) -> bool {
        matches!(self.state, State::Ended)
    }

    /// Complete samples and marks so far (to tell whether a redraw is due).
    pub fn progress(&self) -> (usize, usize) {
        self.profile.progress()
    }

    /// The profile as it stands, for an eventlog that is still being written: the
    /// complete samples so far. The reader goes on.
    pub fn snapshot(&self) -> Result<Parsed, Error> {
        self.profile.snapshot().ok_or(Error {
            offset: None,
            kind: ErrorKind::NoHeapSamples,
        })
    }

    /// Ends the input: an eventlog cut short (the program still running, or killed) keeps
    /// its complete samples and says that the last one was dropped.
    pub fn finish(self) -> Result<Parsed, Error> {
        if let State::Header = self.state {
            return Err(self.error(0, ErrorKind::HeaderCut));
        }
        let cut = !matches!(self.state, State::Ended);
        let damage = self.first_damage;
        // Nothing to draw after damage passed over: the damage is why.
        (self.profile.finish(cut)).map_err(|kind| damage.unwrap_or(Error { offset: None, kind }))
    }
}

/// The capability number of the runtime's global buffer's blocks (the census, the
/// cost centres, the heap's size, the profiler's samples).
const GLOBAL_BUFFER: u16 = 0xffff;

/// Applies the events of a block laid out again by [`resync::repair`] (`base`: where
/// its first event is in the file), counts what was found, and keeps its first damage
/// as the error to name if nothing after it reads. A reader of a second part gives its
/// part up: the events it would leave to the first are not where the file has them.
/// Whether the block ends the data; `Err` of an event too short for its fields.
fn apply_repaired(
    profile: &mut build::Builder,
    mut part: Option<&mut split::Part>,
    first_damage: &mut Option<Error>,
    base: u64,
    repaired: resync::Repaired,
) -> Result<bool, Error> {
    if let Some(p) = part.as_deref_mut() {
        p.give_up();
    }
    for e in &repaired.events {
        let at = base + e.at as u64;
        if !split::event(
            profile,
            part.as_deref_mut(),
            (e.ty, e.time, &e.body),
            at,
            EVENT_HEADER,
        ) {
            let kind = ErrorKind::ShortPayload {
                event: e.ty,
                len: e.body.len(),
            };
            return Err(Error {
                offset: Some(at),
                kind,
            });
        }
    }
    let first_lost = repaired.first_lost.map(|(k, kind)| {
        let offset = Some(base + k as u64);
        first_damage.get_or_insert(Error { offset, kind });
        base + k as u64
    });
    profile.repaired(
        repaired.spliced,
        (repaired.lost, repaired.places),
        first_lost,
    );
    Ok(repaired.data_end)
}

/// Whether a per-capability block (its bytes, from its block marker on; its marker's
/// time and end time) may hold a user marker: some byte pair `00 3a` (the event type)
/// followed by as many zero bytes as the end time starts with and a timestamp within the
/// block's. Found by the rarer byte, `3a`: memchr's substring search would take the
/// zero bytes for rare ones, and eventlogs are full of them. A candidate cut by the
/// block's end counts (the block is then read event by event, which is exact).
fn may_hold_marker(block: &[u8], start_time: u64, end_time: u64) -> bool {
    let zeros = (end_time.leading_zeros() / 8).min(6) as usize;
    let [high, low] = id::USER_MARKER.to_be_bytes();
    let candidate = |k: usize| {
        let Some(at) = k.checked_sub(1) else {
            return false;
        };
        block[at] == high
            && block
                .get(k + 1..k + 1 + zeros)
                .is_none_or(|z| z.iter().all(|&b| b == 0))
            && block
                .get(at + 2..at + EVENT_HEADER)
                .map(|t| u64::from_be_bytes(t.try_into().expect("8 bytes")))
                .is_none_or(|t| (start_time..=end_time).contains(&t))
    };
    memchr::memchr_iter(low, block).any(candidate)
}

/// Searches the per-capability blocks of an eventlog held in memory for markers, on
/// two threads, ahead of reading them: the search is most of the time a long run's
/// eventlog takes, and it needs only each block's bytes. Walks the blocks by their
/// markers' lengths from `from` (0: from the end of the header) to the first block that
/// starts at or after `until`, and stops early where that walk meets anything else (the
/// reader, which checks everything, searches any block not listed itself). Returns where
/// the walk stopped (where to go on from, or `usize::MAX` when it cannot) and each block's
/// offset with whether it may hold a marker, in file order, for [`Parser::searched`].
pub fn search_blocks(file: &[u8], from: usize, until: usize) -> (usize, Vec<(u64, bool)>) {
    let mut pos = from;
    if pos == 0 {
        let format::Header::Done(_, used) = format::header(file) else {
            return (usize::MAX, Vec::new());
        };
        pos = used;
    }
    let mut blocks = Vec::new();
    while pos < until {
        let Some(head) = file.get(pos..pos + EVENT_HEADER + 14) else {
            pos = usize::MAX;
            break;
        };
        let ty = u16::from_be_bytes([head[0], head[1]]);
        let len = payload::u32_at(head, 10).unwrap_or(0) as usize;
        if ty != id::BLOCK_MARKER || len < head.len() || pos + len > file.len() {
            pos = usize::MAX;
            break;
        }
        if payload::u16_at(head, 22) != Some(GLOBAL_BUFFER) {
            let start = payload::u64_at(head, 2).unwrap_or(0);
            let end = payload::u64_at(head, 14).unwrap_or(u64::MAX);
            blocks.push((pos, len, start, end));
        }
        pos += len;
    }
    let search = |part: &[(usize, usize, u64, u64)]| -> Vec<(u64, bool)> {
        part.iter()
            .map(|&(at, len, start, end)| {
                (at as u64, may_hold_marker(&file[at..at + len], start, end))
            })
            .collect()
    };
    // Two halves of about the same number of bytes.
    let total: usize = blocks.iter().map(|b| b.1).sum();
    let mut half = 0;
    let mut bytes = 0;
    while half < blocks.len() && bytes < total / 2 {
        bytes += blocks[half].1;
        half += 1;
    }
    let (first, second) = blocks.split_at(half);
    let found = std::thread::scope(|s| {
        let later = s.spawn(|| search(second));
        let mut found = search(first);
        found.extend(later.join().unwrap_or_default());
        found
    });
    (pos, found)
}

/// How much longer than its fields an IPE event may be declared: GHC's runtime counts a
/// NUL after the source file that it does not write (it writes `file:span` as one string).
const IPE_SLACK: u64 = 1;

/// The length of an IPE payload declared `p.len()` bytes long: its fields' length when
/// the declaration is [`IPE_SLACK`] too long (the next event starts there), else the
/// declared length (a later runtime's extra fields are passed over). `None` when the
/// fields do not fit the declared length.
fn ipe_length(p: &[u8]) -> Option<usize> {
    let fields = payload::ipe_end(p)?;
    Some(if p.len() - fields == IPE_SLACK as usize {
        fields
    } else {
        p.len()
    })
}

/// Reads a whole eventlog held in memory.
pub fn parse(bytes: &[u8]) -> Result<Parsed, Error> {
    let mut p = Parser::new();
    let used = p.feed(bytes, true)?;
    debug_assert!(used <= bytes.len());
    p.finish()
}

/// Every heap-sample event of a whole eventlog, in file order, as read: for comparing
/// the reader with another reading of the same file (ghc-events' in the tests).
pub fn heap_events(bytes: &[u8]) -> Result<Vec<HeapEvent>, Error> {
    let mut p = Parser::new();
    p.profile.trace = Some(Vec::new());
    p.feed(bytes, true)?;
    Ok(p.profile.trace.take().unwrap_or_default())
}
