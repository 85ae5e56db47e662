//! The eventlog's binary layout, read with nom's byte-level parsers.
//!
//! GHC's `rts/include/rts/EventLogFormat.h` and the User's Guide ("Eventlog encodings")
//! define it: a header that lists every event type with its payload size (or "variable",
//! then each event carries a 16-bit length), then the events, all big-endian, each with
//! a 16-bit type and a 64-bit timestamp in nanoseconds, until the type `0xffff`. Because
//! every type's size is declared, events that hpgraph does not read are skipped without
//! being understood; only the payloads listed in [`id`] are parsed.

use nom::bytes::complete::take_till;
use nom::number::streaming::{be_u16, be_u32};
use nom::{IResult, Parser};

/// The first four bytes of every eventlog: `hdrb`, the header's begin marker.
pub const MAGIC: [u8; 4] = *b"hdrb";

const HEADER_BEGIN: u32 = u32::from_be_bytes(MAGIC);
const HET_BEGIN: u32 = u32::from_be_bytes(*b"hetb");
const HET_END: u32 = u32::from_be_bytes(*b"hete");
const ET_BEGIN: u32 = u32::from_be_bytes(*b"etb\0");
const ET_END: u32 = u32::from_be_bytes(*b"ete\0");
const HEADER_END: u32 = u32::from_be_bytes(*b"hdre");
const DATA_BEGIN: u32 = u32::from_be_bytes(*b"datb");

/// The event type that ends the data.
pub const DATA_END: u16 = 0xffff;

/// Bytes before an event's payload: its type and timestamp.
pub const EVENT_HEADER: usize = 2 + 8;

/// A header larger than this is not an eventlog's (GHC's has a few hundred types of a few
/// dozen bytes each); refusing it bounds what a hostile file can make us hold.
pub const MAX_HEADER: usize = 4 << 20;

/// Event type numbers hpgraph reads (`EVENT_*` in EventLogFormat.h).
pub mod id {
    /// A capability starts running a Haskell thread.
    pub const RUN_THREAD: u16 = 1;
    /// A capability stops running a Haskell thread.
    pub const STOP_THREAD: u16 = 2;
    /// Begins a block of events: its length, capability and end time.
    pub const BLOCK_MARKER: u16 = 18;
    /// A garbage collection starts on a capability.
    pub const GC_START: u16 = 9;
    /// A garbage collection ends on a capability.
    pub const GC_END: u16 = 10;
    /// The runtime's name and version.
    pub const RTS_IDENTIFIER: u16 = 29;
    /// The program's arguments.
    pub const PROGRAM_ARGS: u16 = 30;
    /// Wall-clock time when the run began.
    pub const WALL_CLOCK_TIME: u16 = 43;
    /// A capability's spark counters since the run began (`+RTS -lp`, in `-l`'s default).
    pub const SPARK_COUNTERS: u16 = 34;
    /// A capability's allocation counter: bytes allocated since the run began.
    pub const HEAP_ALLOCATED: u16 = 49;
    /// Heap size after a garbage collection.
    pub const HEAP_SIZE: u16 = 50;
    /// Live bytes after a garbage collection.
    pub const HEAP_LIVE: u16 = 51;
    /// A collection's figures, from the capability that led it.
    pub const GC_STATS_GHC: u16 = 53;
    /// The leader of a collection has stopped every capability.
    pub const GC_GLOBAL_SYNC: u16 = 54;
    /// A user marker (`traceMarker`): a mark's text.
    pub const USER_MARKER: u16 = 58;
    /// Bytes in allocated blocks.
    pub const BLOCKS_SIZE: u16 = 91;
    /// The non-moving collector's concurrent marking begins and ends.
    pub const CONC_MARK_BEGIN: u16 = 200;
    /// See [`CONC_MARK_BEGIN`].
    pub const CONC_MARK_END: u16 = 201;
    /// The non-moving collector's synchronisation begins and ends.
    pub const CONC_SYNC_BEGIN: u16 = 202;
    /// See [`CONC_SYNC_BEGIN`].
    pub const CONC_SYNC_END: u16 = 203;
    /// The non-moving collector's sweep ends: the end of a concurrent collection.
    pub const CONC_SWEEP_END: u16 = 205;
    /// One size class of the non-moving heap at a census (`+RTS -ln`).
    pub const NONMOVING_HEAP_CENSUS: u16 = 207;
    /// Segments of the non-moving heap given back after a collection (GHC 9.10).
    pub const NONMOVING_PRUNED_SEGMENTS: u16 = 208;
    /// Heap profiling began: its break-down and filters.
    pub const HEAP_PROF_BEGIN: u16 = 160;
    /// A cost centre: its number, label and module.
    pub const HEAP_PROF_COST_CENTRE: u16 = 161;
    /// A census begins.
    pub const HEAP_PROF_SAMPLE_BEGIN: u16 = 162;
    /// A cost-centre stack's bytes in a census.
    pub const HEAP_PROF_SAMPLE_COST_CENTRE: u16 = 163;
    /// A band's bytes by name (`-hT`, `-hy`, `-hd`, `-hi`…).
    pub const HEAP_PROF_SAMPLE_STRING: u16 = 164;
    /// A census ends.
    pub const HEAP_PROF_SAMPLE_END: u16 = 165;
    /// A biographical census begins.
    pub const HEAP_BIO_PROF_SAMPLE_BEGIN: u16 = 166;
    /// A cost-centre profiler's sample: a capability's stack at a tick.
    pub const PROF_SAMPLE_COST_CENTRE: u16 = 167;
    /// The cost-centre profiler began: its tick interval.
    pub const PROF_BEGIN: u16 = 168;
    /// An info table's provenance (`-hi`).
    pub const IPE: u16 = 169;
    /// A ticky-ticky counter's definition (`+RTS -lT`): its number and name.
    pub const TICKY_COUNTER_DEF: u16 = 210;
    /// One counter's counts since the sample before (entries, allocs, allocd).
    pub const TICKY_COUNTER_SAMPLE: u16 = 211;
    /// A ticky-ticky sample begins: the counter samples after it are its.
    pub const TICKY_BEGIN_SAMPLE: u16 = 212;
}

/// `heap profile begin`'s break-down code for `-hc` (cost-centre stacks).
pub const BREAKDOWN_COST_CENTRE_STACK: u32 = 1;
/// `heap profile begin`'s break-down code for `-hi` (info table).
pub const BREAKDOWN_INFO_TABLE: u32 = 8;

/// A payload size from the header: a fixed number of bytes, or variable (each event then
/// starts its payload with a 16-bit length).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Size {
    /// This many bytes.
    Fixed(u16),
    /// A 32-bit length, then that many bytes.
    Variable,
}

/// The outcome of reading the header from the bytes so far.
#[derive(Debug, PartialEq)]
pub enum Header {
    /// The event types and the header's length, data-begin marker included.
    Done(Vec<(u16, Size)>, usize),
    /// The bytes end inside the header.
    NeedMore,
    /// Not a valid header: the offset of the offending bytes and what was expected there.
    Bad(usize, &'static str),
}

/// Seconds from the eventlog's nanoseconds (every timestamp is one).
pub fn seconds(ns: u64) -> f64 {
    ns as f64 / 1e9
}

/// Reads the header: the begin markers, the event-type table, the end markers.
pub fn header(input: &[u8]) -> Header {
    let offset = |rest: &[u8]| input.len() - rest.len();
    let mut i = input;
    macro_rules! get {
        ($parser:expr) => {
            match $parser.parse(i) {
                Ok((rest, v)) => {
                    i = rest;
                    v
                }
                Err(_) => return Header::NeedMore,
            }
        };
    }
    macro_rules! marker {
        ($want:expr, $what:expr) => {{
            let at = offset(i);
            if get!(be_u32::<_, nom::error::Error<&[u8]>>) != $want {
                return Header::Bad(at, $what);
            }
        }};
    }
    marker!(HEADER_BEGIN, "the eventlog header's begin marker `hdrb`");
    marker!(HET_BEGIN, "the event-type table's begin marker `hetb`");
    let mut types = Vec::new();
    loop {
        let at = offset(i);
        match get!(be_u32::<_, nom::error::Error<&[u8]>>) {
            HET_END => break,
            ET_BEGIN => {}
            _ => return Header::Bad(at, "an event type (`etb`) or the table's end (`hete`)"),
        }
        let ty = get!(be_u16::<_, nom::error::Error<&[u8]>>);
        let size = match get!(be_u16::<_, nom::error::Error<&[u8]>>) {
            0xffff => Size::Variable,
            n => Size::Fixed(n),
        };
        let desc = get!(be_u32::<_, nom::error::Error<&[u8]>>) as usize;
        if desc > MAX_HEADER || i.len() < desc {
            if desc > MAX_HEADER {
                return Header::Bad(at, "an event type description of a sensible length");
            }
            return Header::NeedMore;
        }
        i = &i[desc..];
        let extra = get!(be_u32::<_, nom::error::Error<&[u8]>>) as usize;
        if extra > MAX_HEADER || i.len() < extra {
            if extra > MAX_HEADER {
                return Header::Bad(at, "an event type's extra information of a sensible length");
            }
            return Header::NeedMore;
        }
        i = &i[extra..];
        marker!(ET_END, "the event type's end marker `ete`");
        types.push((ty, size));
        if offset(i) > MAX_HEADER {
            return Header::Bad(at, "the end of the header within 4 MiB");
        }
    }
    marker!(HEADER_END, "the header's end marker `hdre`");
    marker!(DATA_BEGIN, "the data's begin marker `datb`");
    Header::Done(types, offset(i))
}

/// Payload readers. Each takes a whole payload (its declared size) and never reads past
/// it; a payload shorter than its fields is `None`, which the caller reports.
pub mod payload {
    use super::*;
    use nom::number::complete::{be_u8 as u8c, be_u16 as u16c, be_u32 as u32c, be_u64 as u64c};

    type E<'a> = nom::error::Error<&'a [u8]>;

    /// A NUL-terminated string; the last one of a payload may lack its NUL.
    fn string(i: &[u8]) -> IResult<&[u8], &[u8]> {
        let (rest, s) = take_till(|b| b == 0).parse(i)?;
        Ok((rest.get(1..).unwrap_or(rest), s))
    }

    /// The big-endian `u64` at `at`, if the payload holds it.
    pub fn u64_at(p: &[u8], at: usize) -> Option<u64> {
        u64c::<_, E>(p.get(at..)?).ok().map(|(_, v)| v)
    }

    /// The big-endian `u16` at `at`, if the payload holds it.
    pub fn u16_at(p: &[u8], at: usize) -> Option<u16> {
        u16c::<_, E>(p.get(at..)?).ok().map(|(_, v)| v)
    }

    /// The big-endian `u32` at `at`, if the payload holds it.
    pub fn u32_at(p: &[u8], at: usize) -> Option<u32> {
        u32c::<_, E>(p.get(at..)?).ok().map(|(_, v)| v)
    }

    /// `(block size, end time, capability)`.
    pub fn block_marker(p: &[u8]) -> Option<u32> {
        u32_at(p, 0)
    }

    /// `(capset, string)`: the RTS identifier.
    pub fn capset_string(p: &[u8]) -> Option<&[u8]> {
        p.get(4..)
    }

    /// `(capset, NUL-separated strings)`: the program's arguments.
    pub fn capset_strings(p: &[u8]) -> Option<Vec<&[u8]>> {
        let mut rest = p.get(4..)?;
        // A trailing NUL ends the last string rather than starting an empty one.
        if rest.last() == Some(&0) {
            rest = &rest[..rest.len() - 1];
        }
        Some(rest.split(|&b| b == 0).collect())
    }

    /// `(capset, seconds, nanoseconds)`: the wall-clock time.
    pub fn wall_clock(p: &[u8]) -> Option<(u64, u32)> {
        Some((u64_at(p, 4)?, u32_at(p, 12)?))
    }

    /// `(capset, bytes)`: heap size, live bytes, blocks size.
    pub fn capset_bytes(p: &[u8]) -> Option<u64> {
        u64_at(p, 4)
    }

    /// A collection's figures: `(capset, generation, copied, slop, fragmentation,
    /// threads, max copied, total copied, balanced copied)`; the last is missing before
    /// GHC 8.4.
    pub fn gc_stats(p: &[u8]) -> Option<crate::profile::Gc> {
        Some(crate::profile::Gc {
            generation: u16_at(p, 4)?,
            copied: u64_at(p, 6)?,
            slop: u64_at(p, 14)?,
            threads: u32_at(p, 30)?,
            balanced: u64_at(p, 50),
            ..Default::default()
        })
    }

    /// A non-moving heap census's size class: `(block size, active segments, filled
    /// segments, live blocks)`. The block size is a byte, its base-2 logarithm, in the
    /// 13-byte layout GHC wrote before 9.10; from 9.10 (14 bytes and more) two bytes of
    /// its size itself, no longer a power of two (ghc-events reads both so).
    pub fn nonmoving_census(p: &[u8]) -> Option<crate::profile::nonmoving::SizeClass> {
        const LOG_LAYOUT: usize = 13;
        let (block_size, at) = match p.len() {
            // No class is larger than a segment (2^15): a garbled larger logarithm
            // reads as the largest size a u32 holds rather than refuse the eventlog.
            LOG_LAYOUT => (1u32 << p.first()?.min(&31), 1),
            _ => (u32::from(u16_at(p, 0)?), 2),
        };
        Some(crate::profile::nonmoving::SizeClass {
            block_size,
            active_segments: u32_at(p, at)?,
            filled_segments: u32_at(p, at + 4)?,
            live_blocks: u32_at(p, at + 8)?,
        })
    }

    /// `(created, dud, overflowed, converted, GC'd, fizzled, remaining)`: a capability's
    /// spark counters; the first six are kept.
    pub fn spark_counters(p: &[u8]) -> Option<[u64; 6]> {
        let mut c = [0; 6];
        for (k, v) in c.iter_mut().enumerate() {
            *v = u64_at(p, 8 * k)?;
        }
        Some(c)
    }

    /// `(pruned segments, free segments kept)`.
    pub fn nonmoving_pruned(p: &[u8]) -> Option<(u32, u32)> {
        Some((u32_at(p, 0)?, u32_at(p, 4)?))
    }

    /// `(profile id, sampling period, break-down, filters…)`: heap profile begin.
    pub fn heap_prof_begin(p: &[u8]) -> Option<u32> {
        u32_at(p, 9)
    }

    /// A cost centre: `(id, label, module, source location, flags)`.
    pub struct CostCentre<'a> {
        /// The cost centre's number, as stacks name it.
        pub id: u32,
        /// Its label (a function name).
        pub label: &'a [u8],
        /// Its module.
        pub module: &'a [u8],
        /// Its source span (`Main.hs:6:1-46`), empty where the event stops before it.
        pub src: &'a [u8],
    }

    /// A cost-centre event's payload read, or `None` when it is too short.
    pub fn cost_centre(p: &[u8]) -> Option<CostCentre<'_>> {
        let (i, id) = u32c::<_, E>(p).ok()?;
        let (i, label) = string(i).ok()?;
        let (i, module) = string(i).ok()?;
        let src = string(i).map_or(&[][..], |(_, s)| s);
        Some(CostCentre {
            id,
            label,
            module,
            src,
        })
    }

    /// `(profile id, residency, depth, cost-centre ids…)`: the residency and the ids'
    /// bytes, innermost first.
    pub fn sample_cost_centre(p: &[u8]) -> Option<(u64, &[u8])> {
        let (i, _profile) = u8c::<_, E>(p).ok()?;
        let (i, residency) = u64c::<_, E>(i).ok()?;
        let (i, depth) = u8c::<_, E>(i).ok()?;
        let stack = i.get(..usize::from(depth) * 4)?;
        Some((residency, stack))
    }

    /// `(capability, tick count, depth, cost-centre ids…)`: the ids' bytes, innermost
    /// first.
    pub fn prof_sample(p: &[u8]) -> Option<&[u8]> {
        let (i, _capability) = u32c::<_, E>(p).ok()?;
        let (i, _tick) = u64c::<_, E>(i).ok()?;
        let (i, depth) = u8c::<_, E>(i).ok()?;
        i.get(..usize::from(depth) * 4)
    }

    /// `(profile id, residency, label)`.
    pub fn sample_string(p: &[u8]) -> Option<(u64, &[u8])> {
        let (i, _profile) = u8c::<_, E>(p).ok()?;
        let (i, residency) = u64c::<_, E>(i).ok()?;
        let (_, label) = string(i).ok()?;
        Some((residency, label))
    }

    /// `(era, time)`: a biographical sample's begin, with its own time in nanoseconds.
    pub fn bio_sample_begin(p: &[u8]) -> Option<u64> {
        u64_at(p, 8)
    }

    /// An info table's provenance (`-hi`).
    pub struct Ipe<'a> {
        /// The info table's address, as `-hi` bands name it.
        pub info: u64,
        /// The table's name.
        pub table_name: &'a [u8],
        /// Its closure description.
        pub closure_desc: &'a [u8],
        /// Its type.
        pub ty_desc: &'a [u8],
        /// Its label.
        pub label: &'a [u8],
        /// Its module.
        pub module: &'a [u8],
        /// `file:span`, as GHC prints a source location.
        pub src_loc: &'a [u8],
    }

    /// The strings after an IPE event's info-table address.
    const IPE_STRINGS: usize = 6;

    /// Where an IPE event's fields end in `p`: after its address and its six
    /// NUL-terminated strings, as GHC's own reader (ghc-events) reads them. `None` when
    /// `p` ends first. GHC 9.6 to 9.10 declare each IPE event one byte longer than
    /// this (see [`crate::input::eventlog`]), so the declared length cannot be trusted.
    pub fn ipe_end(p: &[u8]) -> Option<usize> {
        let mut at = 8;
        for _ in 0..IPE_STRINGS {
            at += memchr::memchr(0, p.get(at..)?)? + 1;
        }
        Some(at)
    }

    /// `(info, table name, closure description, type description, label, module,
    /// source location)`.
    pub fn ipe(p: &[u8]) -> Option<Ipe<'_>> {
        let (i, info) = u64c::<_, E>(p).ok()?;
        let (i, table_name) = string(i).ok()?;
        let (i, closure_desc) = string(i).ok()?;
        let (i, ty_desc) = string(i).ok()?;
        let (i, label) = string(i).ok()?;
        let (i, module) = string(i).ok()?;
        let (_, src_loc) = string(i).ok()?;
        Some(Ipe {
            info,
            table_name,
            closure_desc,
            ty_desc,
            label,
            module,
            src_loc,
        })
    }

    /// A ticky counter's definition: `(number, name)` (after its arity and argument
    /// kinds; GHC 9.4 on add its info table and JSON, not read).
    pub fn ticky_def(p: &[u8]) -> Option<(u64, &[u8])> {
        let (i, id) = u64c::<_, E>(p).ok()?;
        let (i, _arity) = u16c::<_, E>(i).ok()?;
        let (i, _kinds) = string(i).ok()?;
        let (_, name) = string(i).ok()?;
        Some((id, name))
    }

    /// A ticky counter's sample: `[number, entries, allocs, allocd]`.
    pub fn ticky_sample(p: &[u8]) -> Option<[u64; 4]> {
        Some([u64_at(p, 0)?, u64_at(p, 8)?, u64_at(p, 16)?, u64_at(p, 24)?])
    }

    /// A variable-size event's payload length.
    pub fn length(i: &[u8]) -> Option<u16> {
        u16c::<_, E>(i).ok().map(|(_, v)| v)
    }
}

/// GHC's closure types (`rts/include/rts/storage/ClosureTypes.h`, the same numbers
/// since GHC 9.0), which an IPE event gives by number.
const CLOSURE_TYPES: [&str; 66] = [
    "INVALID_OBJECT",
    "CONSTR",
    "CONSTR_1_0",
    "CONSTR_0_1",
    "CONSTR_2_0",
    "CONSTR_1_1",
    "CONSTR_0_2",
    "CONSTR_NOCAF",
    "FUN",
    "FUN_1_0",
    "FUN_0_1",
    "FUN_2_0",
    "FUN_1_1",
    "FUN_0_2",
    "FUN_STATIC",
    "THUNK",
    "THUNK_1_0",
    "THUNK_0_1",
    "THUNK_2_0",
    "THUNK_1_1",
    "THUNK_0_2",
    "THUNK_STATIC",
    "THUNK_SELECTOR",
    "BCO",
    "AP",
    "PAP",
    "AP_STACK",
    "IND",
    "IND_STATIC",
    "RET_BCO",
    "RET_SMALL",
    "RET_BIG",
    "RET_FUN",
    "UPDATE_FRAME",
    "CATCH_FRAME",
    "UNDERFLOW_FRAME",
    "STOP_FRAME",
    "BLOCKING_QUEUE",
    "BLACKHOLE",
    "MVAR_CLEAN",
    "MVAR_DIRTY",
    "TVAR",
    "ARR_WORDS",
    "MUT_ARR_PTRS_CLEAN",
    "MUT_ARR_PTRS_DIRTY",
    "MUT_ARR_PTRS_FROZEN_DIRTY",
    "MUT_ARR_PTRS_FROZEN_CLEAN",
    "MUT_VAR_CLEAN",
    "MUT_VAR_DIRTY",
    "WEAK",
    "PRIM",
    "MUT_PRIM",
    "TSO",
    "STACK",
    "TREC_CHUNK",
    "ATOMICALLY_FRAME",
    "CATCH_RETRY_FRAME",
    "CATCH_STM_FRAME",
    "WHITEHOLE",
    "SMALL_MUT_ARR_PTRS_CLEAN",
    "SMALL_MUT_ARR_PTRS_DIRTY",
    "SMALL_MUT_ARR_PTRS_FROZEN_DIRTY",
    "SMALL_MUT_ARR_PTRS_FROZEN_CLEAN",
    "COMPACT_NFDATA",
    "CONTINUATION",
    "ANN_FRAME",
];

/// An IPE event's closure description, a closure type's number, by its name; anything
/// else as written.
pub fn closure_type(desc: &[u8]) -> &[u8] {
    std::str::from_utf8(desc)
        .ok()
        .and_then(|d| d.parse::<usize>().ok())
        .and_then(|k| CLOSURE_TYPES.get(k))
        .map_or(desc, |name| name.as_bytes())
}

/// A heap-sample event as the eventlog holds it, before it becomes part of a profile:
/// what ghc-events' reading of the same file can be compared with. Times are in
/// nanoseconds.
#[derive(Debug, Clone, PartialEq, Eq)]
#[allow(missing_docs)] // ghc-events' names for ghc-events' fields, compared one to one
pub enum HeapEvent {
    SampleBegin {
        time: u64,
        era: u64,
    },
    BioSampleBegin {
        time: u64,
        era: u64,
        sample_time: u64,
    },
    SampleEnd {
        time: u64,
        era: u64,
    },
    CostCentreSample {
        time: u64,
        residency: u64,
        stack: Vec<u32>,
    },
    StringSample {
        time: u64,
        residency: u64,
        label: Vec<u8>,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event_type(id: u16, size: u16, desc: &[u8]) -> Vec<u8> {
        let mut v = b"etb\0".to_vec();
        v.extend(id.to_be_bytes());
        v.extend(size.to_be_bytes());
        v.extend((desc.len() as u32).to_be_bytes());
        v.extend(desc);
        v.extend(0u32.to_be_bytes());
        v.extend(b"ete\0");
        v
    }

    fn a_header() -> Vec<u8> {
        let mut h = b"hdrbhetb".to_vec();
        h.extend(event_type(162, 8, b"Start of heap profile sample"));
        h.extend(event_type(164, 0xffff, b"Heap profile string sample"));
        h.extend(b"hetehdredatb");
        h
    }

    #[test]
    fn reads_the_event_type_table() {
        let h = a_header();
        assert_eq!(
            header(&h),
            Header::Done(vec![(162, Size::Fixed(8)), (164, Size::Variable)], h.len())
        );
    }

    #[test]
    fn a_header_cut_anywhere_needs_more() {
        let h = a_header();
        for cut in 0..h.len() {
            assert_eq!(header(&h[..cut]), Header::NeedMore, "cut at {cut}");
        }
    }

    #[test]
    fn a_wrong_marker_is_reported_where_it_is() {
        let mut h = a_header();
        let at = h.len() - 8;
        h[at] = b'x';
        assert!(matches!(header(&h), Header::Bad(a, _) if a == at));
        assert!(matches!(header(b"HDRB"), Header::Bad(0, _)));
    }

    #[test]
    fn strings_end_at_nul_or_at_the_payload_end() {
        let p = [0, 0, 0, 7, b'f', 0, b'M', 0, b'x'];
        let cc = payload::cost_centre(&p).unwrap();
        assert_eq!((cc.id, cc.label, cc.module), (7, &b"f"[..], &b"M"[..]));
        assert_eq!(
            payload::capset_strings(b"\0\0\0\0a\0b c\0").unwrap(),
            vec![&b"a"[..], &b"b c"[..]]
        );
    }
}
