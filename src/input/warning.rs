//! What a reader lets through but the user should know about: a line it repaired or
//! left out, a bound it kept, a census it could not take. Each says what to do.

use std::fmt;

use super::hp::Header;
use super::{eventlog, names};

/// Something the parser let through but the user should know about.
#[derive(Debug, Clone, PartialEq)]
pub struct Warning {
    /// Line it concerns, if any.
    pub line: Option<u64>,
    /// What happened.
    pub kind: WarningKind,
}

/// The kinds of [`Warning`].
#[derive(Debug, Clone, PartialEq)]
pub enum WarningKind {
    /// The input ends inside a sample (the program is still running, or was killed).
    IncompleteLastSample,
    /// A `BEGIN_SAMPLE` time lower than the one before; the sample is skipped.
    SampleOutOfOrder {
        /// The sample's time.
        time: f64,
        /// The time before it.
        previous: f64,
    },
    /// A header line never appeared; its string is empty.
    MissingHeader(Header),
    /// A compressed file ends before its compressed stream does: read up to there.
    CutStream(&'static str),
    /// An eventlog event that does not read (at this byte: what is wrong), after
    /// complete censuses: the eventlog is read up to it.
    BrokenEvent {
        /// Its byte offset in the file.
        at: u64,
        /// What is wrong with it.
        what: String,
        /// The last complete census's time before it, in seconds.
        until: Option<f64>,
    },
    /// Events of an eventlog's global buffer that the runtime wrote inside another event
    /// (GHC 9.0's profiling timer, from its own thread), read apart: nothing lost.
    ReadApart(usize),
    /// Bytes of an eventlog that could not be read, passed over to where its events read
    /// again: the events in them are lost, the rest is read.
    BytesLost {
        /// How many bytes.
        bytes: u64,
        /// In how many places.
        places: usize,
        /// The first one's byte offset in the file.
        first: u64,
    },
    /// An eventlog that ends before its data-end marker, between events: the program was
    /// still running, or was stopped (a cut inside a census says
    /// [`WarningKind::IncompleteLastSample`]).
    EventlogCut,
    /// Heap profiling was on, but the program ended before its first census.
    NoCensus,
    /// More than [`crate::profile::MAX_SAMPLES`] samples: neighbouring ones merged.
    SamplesMerged,
    /// More than [`crate::profile::MAX_BANDS`] bands: this many of the smallest merged.
    BandsMerged(usize),
    /// More than [`crate::profile::MAX_MARKS`] marks: repeated ones dropped, then every
    /// second one.
    MarksThinned,
    /// A mark's text longer than [`crate::profile::MAX_MARK_TEXT`] was cut.
    MarkTextCut,
    /// More than [`crate::profile::MAX_HEAP_POINTS`] readings of a heap line:
    /// neighbouring ones merged.
    HeapLinesMerged,
    /// A time and allocation report ends inside its tree: the rows before are read.
    CutReport(String),
    /// An eventlog's definitions (cost centres, info tables) passed
    /// [`eventlog::MAX_NAMING_BYTES`]: later ones were not kept.
    NamingDropped,
    /// A name or label longer than [`eventlog::MAX_LABEL`] bytes was cut.
    LabelCut,
    /// Collections that ended before they began, left out of the runtime's figures.
    InconsistentCollections(usize),
    /// A band's name was cut ([`names::MAX_NAME`], [`names::MAX_NAME_BYTES`]).
    NameCut,
    /// Every census is empty: the picture has no band.
    EmptyCensuses,
    /// An eventlog with no heap profile: the picture is the runtime's lines.
    NoHeapProfile,
    /// An eventlog with no heap profile but the non-moving heap's censuses: they are
    /// the picture.
    NonmovingHeapOnly,
    /// More than [`eventlog::MAX_SAMPLES`] cost-centre samples: this many later ones
    /// dropped.
    SamplesDropped(u64),
    /// More than [`eventlog::MAX_SAMPLE_STACKS`] sampled stacks: the later ones' samples
    /// counted together.
    SampleStacksMerged,
    /// More ticky-ticky counters, samples or readings than a profile keeps: the rest
    /// count in the totals only.
    TickyCut,
    /// A ticky-ticky text report has no time: its picture has no band.
    TickyReport,
}

impl Warning {
    /// Whether the input was not read whole: bytes passed over, a cut, events that did
    /// not read. A verdict of the whole run cannot be given over it (`--check`).
    pub fn loses_data(&self) -> bool {
        self.loss().is_some()
    }

    /// What of the input this warning says was not read, in the few words a caption
    /// has room for; `None` for a warning that loses nothing of the input.
    pub fn loss(&self) -> Option<crate::profile::Loss> {
        let (what, byte) = match &self.kind {
            WarningKind::IncompleteLastSample => match self.line {
                Some(line) => (format!("the last census, from line {line}, is cut"), None),
                None => ("the last census is cut".to_owned(), None),
            },
            WarningKind::EventlogCut => {
                ("the eventlog ends before its end marker".to_owned(), None)
            }
            WarningKind::CutStream(what) => (format!("the {what} stream is cut"), None),
            WarningKind::BrokenEvent { at, .. } => {
                (format!("byte {at} on does not read"), Some(*at))
            }
            WarningKind::BytesLost {
                bytes,
                places,
                first,
            } => (
                format!(
                    "{bytes} {} in {places} {} do not read, the first at byte {first}",
                    plural(*bytes, "byte", "bytes"),
                    plural(*places as u64, "place", "places")
                ),
                Some(*first),
            ),
            WarningKind::CutReport(_) => ("the report is cut".to_owned(), None),
            _ => return None,
        };
        Some(crate::profile::Loss {
            what,
            byte,
            line: self.line,
        })
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            WarningKind::IncompleteLastSample => write!(f, "incomplete last sample ignored"),
            k @ (WarningKind::SamplesMerged
            | WarningKind::BandsMerged(_)
            | WarningKind::MarksThinned
            | WarningKind::MarkTextCut
            | WarningKind::SamplesDropped(_)
            | WarningKind::SampleStacksMerged
            | WarningKind::TickyCut
            | WarningKind::HeapLinesMerged
            | WarningKind::NamingDropped
            | WarningKind::LabelCut
            | WarningKind::NameCut) => limit(k, f),
            WarningKind::SampleOutOfOrder { time, previous } => write!(
                f,
                "sample time {time} is lower than the previous one ({previous}); sample skipped"
            ),
            WarningKind::MissingHeader(h) => {
                write!(f, "{} missing; using an empty string", h.keyword())
            }
            WarningKind::BrokenEvent { at, what, until } => {
                write!(
                    f,
                    "byte {at}: {what}: the rest of the eventlog does not read"
                )?;
                if let Some(t) = until {
                    write!(f, "; the censuses stop at {t:.2} s")?;
                }
                write!(f, ", and figures of the whole run are incomplete")
            }
            WarningKind::EventlogCut => write!(
                f,
                "the eventlog ends before its end marker (the program was still running, or \
                 was stopped): what it recorded is read, and figures of the whole run are \
                 incomplete"
            ),
            WarningKind::ReadApart(n) => write!(
                f,
                "{n} {} the runtime wrote inside another event (its profiling timer \
                 writes from a thread of its own) {} read apart: nothing of them was lost",
                plural(*n as u64, "event", "events"),
                plural(*n as u64, "was", "were")
            ),
            WarningKind::BytesLost {
                bytes,
                places,
                first,
            } => write!(
                f,
                "{bytes} {} in {places} {} could not be read (the first at byte \
                 {first}): the events in them are lost, the rest of the eventlog is read; \
                 figures of the whole run are incomplete",
                plural(*bytes, "byte", "bytes"),
                plural(*places as u64, "place", "places")
            ),
            WarningKind::CutStream(what) => write!(
                f,
                "the {what} stream ends early (the file was cut): read as far as it goes"
            ),
            WarningKind::CutReport(what) => write!(f, "{what}: the stacks before it are read"),
            WarningKind::InconsistentCollections(n) => write!(
                f,
                "{n} collections end (GC_END) before they begin: left out of the runtime's \
                 figures"
            ),
            WarningKind::TickyReport => write!(
                f,
                "a ticky-ticky report (+RTS -r) has totals, not times: --summary lists its \
                 counters; for them over time, run with +RTS -lT and read the eventlog"
            ),
            WarningKind::NoHeapProfile => write!(
                f,
                "no heap profile in this eventlog: the picture is the runtime's heap size, \
                 live bytes and allocation rate (run the program with +RTS -hT -l for what the heap holds)"
            ),
            WarningKind::NonmovingHeapOnly => write!(
                f,
                "no heap profile in this eventlog: the picture is the non-moving heap's \
                 censuses (+RTS -ln), bytes live by block size and what the segments hold \
                 beyond them (run the program with +RTS -hT -l for what the heap holds)"
            ),
            WarningKind::EmptyCensuses => write!(
                f,
                "every census is empty: the picture has no band (did the program run long \
                 enough to hold anything, and does the profiling flag select anything?)"
            ),
            WarningKind::NoCensus => write!(
                f,
                "the program ended before its first heap census (-iSECS); a shorter interval takes more"
            ),
        }
    }
}

/// What a warning of a limit reached says: which limit, and what was done to stay within
/// it (the other kinds are [`Warning`]'s own to say).
fn limit(kind: &WarningKind, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    match kind {
        WarningKind::SamplesMerged => write!(
            f,
            "more than {} samples: neighbouring samples merged in pairs, each band keeping \
                 its larger value, so that memory stays bounded",
            crate::profile::MAX_SAMPLES
        ),
        WarningKind::BandsMerged(n) => write!(
            f,
            "more than {} bands: the {n} smallest merged into one band as the profile was read",
            crate::profile::MAX_BANDS
        ),
        WarningKind::MarksThinned => write!(
            f,
            "more than {} marks: repeated marks dropped, then every second one, so that \
                 memory stays bounded",
            crate::profile::MAX_MARKS
        ),
        WarningKind::MarkTextCut => write!(
            f,
            "a marker's text is longer than {} bytes: cut",
            crate::profile::MAX_MARK_TEXT
        ),
        WarningKind::SamplesDropped(n) => write!(
            f,
            "more than {} cost-centre samples: the last {n} dropped, so that memory \
                 stays bounded (read a window of the run with --from/--to)",
            eventlog::MAX_SAMPLES
        ),
        WarningKind::TickyCut => write!(
            f,
            "more than {} ticky counters, {} samples or {} readings: the rest are left out \
             of the graph (the totals count every one), so that memory stays bounded",
            eventlog::ticky::MAX_TICKY_COUNTERS,
            eventlog::ticky::MAX_TICKY_SAMPLES,
            eventlog::ticky::MAX_TICKY_READINGS
        ),
        WarningKind::SampleStacksMerged => write!(
            f,
            "more than {} distinct sampled stacks: the samples of later ones are \
                 counted as one frame, {:?}",
            eventlog::MAX_SAMPLE_STACKS,
            String::from_utf8_lossy(eventlog::OTHER_STACKS)
        ),
        WarningKind::HeapLinesMerged => write!(
            f,
            "more than {} heap readings: neighbouring readings merged in pairs, each \
                 keeping the larger value",
            crate::profile::MAX_HEAP_POINTS
        ),
        WarningKind::NamingDropped => write!(
            f,
            "the eventlog defines more than {} MiB of cost centres and info tables: \
                 later definitions ignored (their bands are named by number)",
            eventlog::MAX_NAMING_BYTES >> 20
        ),
        WarningKind::LabelCut => write!(
            f,
            "a cost centre, info table or band name is longer than {} bytes: cut",
            eventlog::MAX_LABEL
        ),
        WarningKind::NameCut => write!(
            f,
            "band names longer than {} KiB, or read after {} MiB of names, were cut: each \
                 ends in …# and a hash of the whole name, so that names cut alike stay apart \
                 (a stack keeps at most {} frames, and {} once {} million are kept)",
            names::MAX_NAME >> 10,
            names::MAX_NAME_BYTES >> 20,
            crate::profile::costs::MAX_FRAMES,
            names::MAX_FRAMES_PAST_BUDGET,
            names::MAX_FRAMES_TOTAL >> 20
        ),
        _ => Ok(()),
    }
}

/// `one` for 1, else `many`.
fn plural(n: u64, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 { one } else { many }
}
