//! Input: the bytes of a heap profile, in any format hpgraph reads, to a [`Profile`].
//!
//! Each format has its reader: [`hp`] for GHC's `.hp` text, [`eventlog`] for the binary
//! eventlog of a program run with `-l`. Both are fed bytes in blocks as they arrive and
//! end in the same [`Profile`]; nothing after this stage knows which format it read.
//! [`Reader`] picks the reader by content: an eventlog starts with its header's magic
//! bytes, anything else is read as `.hp` text. Before that, [`compressed`] undoes gzip,
//! zstd or xz, also recognised by content.

pub mod compressed;
pub mod eventlog;
pub mod hp;
#[cfg(unix)]
mod mapped;
pub mod names;
pub mod path;
pub mod prof;
pub mod source;
pub use source::SourceError;
pub mod stream;
pub mod symbols;
pub mod ticky;
mod warning;

pub use warning::{Warning, WarningKind};

use std::fmt;
use std::fs::File;
use std::io::Read;

use crate::profile::{Model, Profile};

/// The formats hpgraph reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// GHC's `.hp` text.
    Hp,
    /// GHC's binary eventlog.
    Eventlog,
    /// GHC's time and allocation report (`+RTS -p`, `-P`, `-pa` text or `-pj` JSON).
    Costs,
}

impl Format {
    /// The format of an input that starts with `prefix`, or `None` while `prefix` is too
    /// short to tell (and `eof` is not set: then it is `.hp`, or nothing).
    pub fn detect(prefix: &[u8], eof: bool) -> Option<Format> {
        // A report starts with a tab (the text; spaces where it was pasted) or a brace
        // (the JSON), which a `.hp` seldom does: its first line tells.
        if matches!(prefix.first(), Some(b'\t' | b'{' | b' ')) {
            let line = memchr::memchr(b'\n', prefix).map_or(prefix.len(), |n| n + 1);
            let whole = eof || line < prefix.len() || prefix.len() >= prof::PROBE;
            let first = &prefix[..prefix.len().min(prof::PROBE)];
            return match whole {
                false => None,
                true if prof::is_report(first) || prof::json::is_report(first) => {
                    Some(Format::Costs)
                }
                true => Some(Format::Hp),
            };
        }
        // A ticky-ticky report starts with the program's command line, quoted; a `.hp`
        // with JOB.
        if prefix.first() == Some(&b'\'') {
            let whole = eof || prefix.len() >= prof::PROBE;
            return match whole {
                false => None,
                true if ticky::is_report(&prefix[..prefix.len().min(prof::PROBE)]) => {
                    Some(Format::Costs)
                }
                true => Some(Format::Hp),
            };
        }
        let magic = &eventlog::format::MAGIC;
        if prefix.len() >= magic.len() {
            Some(if prefix.starts_with(magic) {
                Format::Eventlog
            } else {
                Format::Hp
            })
        } else if eof || !magic.starts_with(prefix) {
            Some(Format::Hp)
        } else {
            None
        }
    }
}

/// How far into an input that is not an eventlog a NUL byte is looked for: `.hp` text
/// has none, and binary data (a damaged eventlog, an image) has one early.
pub const BINARY_PROBE: usize = 512;

/// The offset of the first NUL byte in the first [`BINARY_PROBE`] bytes of `prefix`:
/// where the input shows itself to be binary data rather than `.hp` text.
pub fn binary_at(prefix: &[u8]) -> Option<usize> {
    memchr::memchr(0, &prefix[..prefix.len().min(BINARY_PROBE)])
}

/// Why a profile could not be read: the error of the format's reader.
#[derive(Debug, Clone, PartialEq)]
pub enum Error {
    /// A `.hp` file; its errors carry a line.
    Hp(hp::ParseError),
    /// An eventlog; its errors carry a byte offset.
    Eventlog(eventlog::Error),
    /// A time and allocation report; its errors carry a line.
    Costs(prof::Error),
    /// Binary data that does not start as an eventlog does: a NUL byte at `offset`.
    /// `damaged_eventlog` when an eventlog's event-type table follows.
    Binary {
        /// Where the first NUL byte is.
        offset: u64,
        /// Whether an event-type table follows (a damaged eventlog header).
        damaged_eventlog: bool,
    },
}

impl Error {
    /// The error for binary input that starts with `prefix`, its first NUL at `offset`.
    fn binary(prefix: &[u8], offset: usize) -> Error {
        Error::Binary {
            offset: offset as u64,
            damaged_eventlog: prefix.get(4..8) == Some(b"hetb"),
        }
    }
}

impl Error {
    /// The input holds no complete sample (yet).
    pub fn is_no_samples(&self) -> bool {
        match self {
            Error::Hp(e) => e.kind == hp::ParseErrorKind::NoSamples,
            Error::Eventlog(e) => matches!(
                e.kind,
                eventlog::ErrorKind::NoHeapSamples | eventlog::ErrorKind::CutBeforeCensus
            ),
            Error::Binary { .. } | Error::Costs(_) => false,
        }
    }

    fn io(e: std::io::Error) -> Error {
        Error::Hp(hp::ParseError {
            line: None,
            kind: hp::ParseErrorKind::Io(e.to_string()),
        })
    }

    /// `:LINE: what` or `: byte N: what`, to follow the file's name in a message.
    pub fn located(&self) -> String {
        match self {
            Error::Hp(e) => match e.line {
                Some(line) => format!(":{line}: {e}"),
                None => format!(": {e}"),
            },
            Error::Eventlog(e) => match e.offset {
                Some(at) => format!(": byte {at}: {e}"),
                None => format!(": {e}"),
            },
            Error::Binary { offset, .. } => format!(": byte {offset}: {self}"),
            Error::Costs(e) => format!(":{}: {}", e.line, e.what),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Hp(e) => e.fmt(f),
            Error::Eventlog(e) => e.fmt(f),
            Error::Costs(e) => e.fmt(f),
            Error::Binary {
                damaged_eventlog: true,
                ..
            } => write!(
                f,
                "binary data: an eventlog whose first bytes are not `hdrb` (damaged header)"
            ),
            Error::Binary { .. } => write!(
                f,
                "binary data, not a heap profile (.hp text has no NUL bytes; an eventlog starts with `hdrb`)"
            ),
        }
    }
}

impl std::error::Error for Error {}

impl From<hp::ParseError> for Error {
    fn from(e: hp::ParseError) -> Self {
        Error::Hp(e)
    }
}

impl From<eventlog::Error> for Error {
    fn from(e: eventlog::Error) -> Self {
        Error::Eventlog(e)
    }
}

/// What a reading needs beyond the census itself. An eventlog keeps the runtime's
/// per-capability events (scheduler, collector, user markers: nearly all of a long run's
/// file) in blocks of their own; when neither marks nor heap lines are needed those
/// blocks are passed over whole, and otherwise only the blocks that can hold what is
/// needed are read event by event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Options {
    /// Read user markers (drawn as marks).
    pub marks: bool,
    /// Read the runtime's heap size and live bytes (`--heap-lines`).
    pub heap: bool,
    /// Read the runtime's collections and allocation (`--stats`): an eventlog without a
    /// heap profile is then read for them rather than refused.
    pub runtime: bool,
    /// What a cost-centre report's stacks are weighed by (`--measure`; `None`: time
    /// where it has ticks).
    pub measure: Option<crate::profile::costs::Measure>,
    /// Keep a cost-centre report's stacks as bands, each named by its whole path: what
    /// every view of a report reads but a figure of its flame graph, which reads the tree
    /// itself ([`crate::engine::Job::reads_bands`]). Naming 400,000 stacks is a third of
    /// the time of such a figure and most of its memory.
    pub bands: bool,
    /// What the job reads beside the runtime's account
    /// ([`crate::engine::Job::runtime_reading`]): everything, or for `--stats` the
    /// account alone.
    pub runtime_reading: RuntimeReading,
    /// The input is still being written (`--watch`, `--serve`, standard input read
    /// live): an eventlog's events are read as they come. Otherwise a block of the
    /// runtime's global buffer is read once it is whole, so that events the runtime wrote
    /// inside others are read apart ([`eventlog`]'s `resync`); live, such a block is
    /// read event by event, and where it does not read, the rest of it is passed over
    /// and counted as lost.
    pub growing: bool,
}

/// What an eventlog's reader keeps beside the runtime's account, for the job it reads
/// for: a long run's eventlog holds hundreds of thousands of heap and allocation
/// readings, and a `--stats` that keeps them spends a fifth of its time on their pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RuntimeReading {
    /// Everything: user markers, the heap readings as lines, every allocation reading.
    #[default]
    All,
    /// The runtime's account alone (`--stats` of a window): no user marker and no heap
    /// reading as a line (the account has the readings it needs in its collections).
    Account,
    /// The whole run's figures alone (`--stats`): as [`RuntimeReading::Account`], and of
    /// the allocation counters only each capability's last reading, which is all the
    /// whole run's allocation is.
    Totals,
}

impl Default for Options {
    /// Everything.
    fn default() -> Self {
        Options::new()
    }
}

impl Options {
    /// Everything but the runtime's collections, of a finished input ([`Default`]); a
    /// constant, so that a caller can name a reading of its own with the `with_`
    /// methods.
    pub const fn new() -> Options {
        Options {
            marks: true,
            heap: true,
            runtime: false,
            measure: None,
            bands: true,
            runtime_reading: RuntimeReading::All,
            growing: false,
        }
    }

    /// With [`Options::marks`] as given.
    pub const fn with_marks(mut self, marks: bool) -> Options {
        self.marks = marks;
        self
    }

    /// With [`Options::heap`] as given.
    pub const fn with_heap(mut self, heap: bool) -> Options {
        self.heap = heap;
        self
    }

    /// With [`Options::runtime`] as given.
    pub const fn with_runtime(mut self, runtime: bool) -> Options {
        self.runtime = runtime;
        self
    }

    /// With [`Options::runtime_reading`] as given.
    pub const fn with_runtime_reading(mut self, reading: RuntimeReading) -> Options {
        self.runtime_reading = reading;
        self
    }

    /// With [`Options::growing`] as given.
    pub const fn with_growing(mut self, growing: bool) -> Options {
        self.growing = growing;
        self
    }
}

/// A reader for either format, chosen by the first bytes it is fed.
pub enum Reader {
    /// Not enough bytes yet to tell the format.
    Undecided(Options),
    /// `.hp` text, and how many of its bytes were consumed (the first
    /// [`BINARY_PROBE`] are checked for binary data as they come).
    Hp(Box<hp::Parser>, u64),
    /// An eventlog reader.
    Eventlog(Box<eventlog::Parser>),
    /// A time and allocation report, gathered whole (within [`prof::MAX_GATHERED`])
    /// and read at its end.
    Costs(Vec<u8>, Options),
}

impl Default for Reader {
    fn default() -> Self {
        Reader::new()
    }
}

impl Reader {
    /// A reader that will pick its format from the first bytes and read everything.
    pub fn new() -> Reader {
        Reader::Undecided(Options::default())
    }

    /// A reader that reads what `options` ask for.
    pub fn with_options(options: Options) -> Reader {
        Reader::Undecided(options)
    }

    /// Consumes the complete records at the start of `buf` and returns how many bytes it
    /// used; the rest must be offered again with more bytes, or with `eof` set.
    pub fn feed(&mut self, buf: &[u8], eof: bool) -> Result<usize, Error> {
        if let Reader::Undecided(options) = *self {
            match Format::detect(buf, eof) {
                None => return Ok(0),
                Some(Format::Hp) => *self = Reader::Hp(Box::new(hp::Parser::new()), 0),
                Some(Format::Eventlog) => {
                    *self = Reader::Eventlog(Box::new(eventlog::Parser::with_options(options)))
                }
                Some(Format::Costs) => *self = Reader::Costs(Vec::new(), options),
            }
        }
        match self {
            Reader::Undecided(_) => unreachable!("decided above"),
            Reader::Hp(p, seen) => {
                if let Some(probe) = (BINARY_PROBE as u64).checked_sub(*seen)
                    && let Some(at) = binary_at(&buf[..buf.len().min(probe as usize)])
                {
                    let offset = *seen as usize + at;
                    let start = if *seen == 0 { buf } else { &[][..] };
                    return Err(Error::binary(start, offset));
                }
                let used = p.feed(buf, eof)?;
                *seen += used as u64;
                Ok(used)
            }
            Reader::Eventlog(p) => Ok(p.feed(buf, eof)?),
            Reader::Costs(bytes, _) => {
                if bytes.len() + buf.len() > prof::MAX_GATHERED {
                    return Err(Error::Costs(prof::Error {
                        line: 1 + bytes.iter().filter(|&&b| b == b'\n').count(),
                        what: format!(
                            "a report longer than {} MiB, read from a compressed file or a \
                             stream: decompress it to a file, which is read in place up to \
                             {} MiB",
                            prof::MAX_GATHERED >> 20,
                            prof::MAX_BYTES >> 20
                        ),
                    }));
                }
                bytes.extend_from_slice(buf);
                Ok(buf.len())
            }
        }
    }

    /// The format being read, once known.
    pub fn format(&self) -> Option<Format> {
        match self {
            Reader::Undecided(_) => None,
            Reader::Hp(..) => Some(Format::Hp),
            Reader::Eventlog(_) => Some(Format::Eventlog),
            Reader::Costs(..) => Some(Format::Costs),
        }
    }

    /// The most bytes a single record can take: more than this left unconsumed means the
    /// input is not a profile (the caller stops waiting for the record's end).
    pub fn max_record(&self) -> usize {
        match self {
            Reader::Eventlog(_) => eventlog::MAX_PENDING,
            _ => hp::MAX_RECORD,
        }
    }

    /// Bytes after those consumed that the reader does not need (see
    /// [`eventlog::Parser::skippable`]).
    pub fn skippable(&self) -> u64 {
        match self {
            Reader::Eventlog(p) => p.skippable(),
            _ => 0,
        }
    }

    /// The caller passed over `n` of the skippable bytes.
    pub fn skipped(&mut self, n: u64) {
        if let Reader::Eventlog(p) = self {
            p.skipped(n);
        }
    }

    /// Whether the input said it is complete: an eventlog's data-end marker, which the
    /// runtime writes as the program exits (a `.hp` file has no such mark).
    pub fn ended(&self) -> bool {
        match self {
            Reader::Eventlog(p) => p.ended(),
            _ => false,
        }
    }

    /// Complete samples and marks so far.
    pub fn progress(&self) -> (usize, usize) {
        match self {
            Reader::Undecided(_) | Reader::Costs(..) => (0, 0),
            Reader::Hp(p, _) => p.progress(),
            Reader::Eventlog(p) => p.progress(),
        }
    }

    /// The complete samples so far; the reader goes on.
    pub fn snapshot(&self) -> Result<Parsed, Error> {
        match self {
            Reader::Undecided(_) | Reader::Costs(..) => Err(Error::Hp(hp::ParseError {
                line: None,
                kind: hp::ParseErrorKind::NoSamples,
            })),
            Reader::Hp(p, _) => Ok(p.snapshot()?.into()),
            Reader::Eventlog(p) => Ok(p.snapshot()?),
        }
    }

    /// Ends the input.
    pub fn finish(self) -> Result<Parsed, Error> {
        Ok(match self {
            Reader::Undecided(_) => hp::Parser::new().finish()?.into(),
            Reader::Hp(p, _) => p.finish()?.into(),
            Reader::Eventlog(p) => p.finish()?,
            Reader::Costs(bytes, _) if ticky::is_report(&bytes[..bytes.len().min(prof::PROBE)]) => {
                ticky::read(&bytes).map_err(Error::Costs)?
            }
            Reader::Costs(bytes, options) => prof::read(&bytes, options).map_err(Error::Costs)?,
        })
    }
}

/// Reads a profile of either format held in memory.
pub fn parse(bytes: &[u8]) -> Result<Parsed, Error> {
    let mut r = Reader::new();
    r.feed(bytes, true)?;
    r.finish()
}

/// Keeps a profile being read within [`crate::profile::MAX_SAMPLES`]
/// ([`Profile::merge_samples`]), with one warning the first time: both readers call it
/// as each sample completes.
pub(crate) fn bound_samples(profile: &mut Profile, warnings: &mut Vec<Warning>) {
    if profile.merge_samples() {
        warn_once(warnings, WarningKind::SamplesMerged);
    }
}

/// Adds a warning of `kind` unless one is there already: a bound passed a million times
/// is said once.
pub(crate) fn warn_once(warnings: &mut Vec<Warning>, kind: WarningKind) {
    if !warnings.iter().any(|w| w.kind == kind) {
        warnings.push(Warning { line: None, kind });
    }
}

/// Says that every census is empty when it is, so that an empty picture is not drawn
/// silently; an eventlog that had no census at all has said so already.
pub(crate) fn warn_if_empty(profile: &Profile, warnings: &mut Vec<Warning>) {
    if profile.bands.is_empty() && !warnings.iter().any(|w| w.kind == WarningKind::NoCensus) {
        warn_once(warnings, WarningKind::EmptyCensuses);
    }
}

/// Says once what [`Profile::push_mark`] did to keep its bounds.
pub(crate) fn warn_thinned(warnings: &mut Vec<Warning>, thinned: crate::profile::Thinned) {
    if thinned.marks {
        warn_once(warnings, WarningKind::MarksThinned);
    }
    if thinned.mark_text {
        warn_once(warnings, WarningKind::MarkTextCut);
    }
}

/// How far past [`crate::profile::MAX_BANDS`] a profile being read may go before its
/// smallest bands are merged there and then. A live stream never ends, so the bound
/// cannot wait for the end; the slack keeps the merging (a sort of all bands) rare
/// when every sample brings new names.
pub const LIVE_BAND_SLACK: usize = crate::profile::MAX_BANDS / 4;

/// A reader's hold on [`crate::profile::MAX_BANDS`]: the band that earlier merges made,
/// so that every merge adds to one OTHER band whose name counts all of them.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct BandBound(pub(crate) Option<crate::profile::MergedBands>);

impl BandBound {
    /// After a sample: merges once the profile has [`LIVE_BAND_SLACK`] bands past the
    /// bound, so that a stream that never ends is bounded too. Returns whether it did.
    pub(crate) fn while_reading(
        &mut self,
        profile: &mut Profile,
        warnings: &mut Vec<Warning>,
        names: &mut names::NameIndex,
        tables: &mut [&mut FxMap<Box<[u8]>, crate::profile::IdentId>],
    ) -> bool {
        profile.bands.len() > crate::profile::MAX_BANDS + LIVE_BAND_SLACK
            && self.apply(profile, warnings, names, tables)
    }

    /// Keeps `profile` within the bound ([`Profile::merge_smallest_bands`]); the one
    /// warning counts every band merged so far. A reader's `tables` (name or stack to
    /// band) follow the bands in place and forget the merged ones: nothing is hashed or
    /// copied again. Returns whether bands were merged.
    pub(crate) fn apply(
        &mut self,
        profile: &mut Profile,
        warnings: &mut Vec<Warning>,
        names: &mut names::NameIndex,
        tables: &mut [&mut FxMap<Box<[u8]>, crate::profile::IdentId>],
    ) -> bool {
        let Some(map) = profile.merge_smallest_bands(crate::profile::MAX_BANDS, &mut self.0) else {
            return false;
        };
        let merged = self.0.map(|o| o.band);
        warnings.retain(|w| !matches!(w.kind, WarningKind::BandsMerged(_)));
        warnings.push(Warning {
            line: None,
            kind: WarningKind::BandsMerged(self.0.map_or(0, |o| o.count)),
        });
        names.renumber(&map, merged);
        for table in tables {
            table.retain(|_, id| {
                *id = map[*id as usize];
                Some(*id) != merged
            });
        }
        true
    }
}

/// Reads a profile of either format from a stream, in blocks: memory holds a block and
/// one unfinished record besides the profile.
pub fn read(r: impl Read, options: Options) -> Result<Parsed, Error> {
    let r = compressed::decompressed(r).map_err(Error::io)?;
    let cut = r.cut();
    let mut parsed = read_with(r, options, 1 << 20, |_, _| Ok(false))?;
    if let Some(c) = cut.get() {
        parsed.warnings.insert(
            0,
            Warning {
                line: None,
                kind: WarningKind::CutStream(c.name()),
            },
        );
    }
    Ok(parsed)
}

/// [`read`], reading `block` bytes at a time; `skip(r, n)` may pass over the next `n`
/// bytes of input, which the reader does not need, and says whether it did.
fn read_with<R: Read>(
    mut r: R,
    options: Options,
    block: usize,
    mut skip: impl FnMut(&mut R, u64) -> std::io::Result<bool>,
) -> Result<Parsed, Error> {
    const BLOCK: usize = 1 << 20;
    let mut reader = Reader::with_options(options);
    let mut buf = vec![0u8; BLOCK];
    let mut have = 0;
    loop {
        if have == buf.len() {
            buf.resize(buf.len() * 2, 0);
        }
        let end = buf.len().min(have + block.max(1));
        let n = match r.read(&mut buf[have..end]) {
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(Error::io(e)),
        };
        have += n;
        let eof = n == 0;
        if reader.format().is_none() && have < BINARY_PROBE && !eof {
            continue; // enough of the start to tell text from binary data
        }
        let used = reader.feed(&buf[..have], eof)?;
        buf.copy_within(used..have, 0);
        have -= used;
        if eof {
            return reader.finish();
        }
        let n = reader.skippable();
        if n > 0 && have == 0 && skip(&mut r, n).map_err(Error::io)? {
            reader.skipped(n);
        }
    }
}

/// Reads a profile file of either format. A large `.hp` file is read in two parts on
/// two threads ([`hp::read_file`]); an eventlog is streamed.
pub fn read_file(file: &File, options: Options) -> Result<Parsed, Error> {
    // As much as tells a report by its first line (a `-pj` written on one line
    // included), and more than a binary file's probe.
    let mut magic = [0u8; prof::PROBE];
    #[cfg(unix)]
    let got = {
        use std::os::unix::fs::FileExt;
        file.read_at(&mut magic, 0).unwrap_or(0)
    };
    #[cfg(not(unix))]
    let got = 0;
    if compressed::Compression::detect(&magic[..got]).is_some() {
        let first = read(file, options);
        return read_for_runtime(file, options, first, |f, o| read(f, o));
    }
    if let Some(Format::Costs) = Format::detect(&magic[..got], got < magic.len()) {
        #[cfg(unix)]
        if let Some(parsed) = mapped::read_report(file, options) {
            return parsed;
        }
        return read(file, options);
    }
    let head = &magic[..got.min(4)];
    match Format::detect(head, true) {
        Some(Format::Hp) if head.len() == 4 => {
            let probe = &magic[..got.min(BINARY_PROBE)];
            if let Some(at) = binary_at(probe) {
                return Err(Error::binary(probe, at));
            }
            Ok(hp::read_file(file)?.into())
        }
        Some(Format::Eventlog) => {
            let first = read_eventlog_file(file, options);
            read_for_runtime(file, options, first, read_eventlog_file)
        }
        _ => read(file, options),
    }
}

/// Reads a stream that cannot be read twice (standard input, a pipe, a socket) as
/// [`read_file`] reads a file: the runtime's account is gathered on the one reading (within
/// its bounds, [`crate::profile::MAX_GCS`]), and kept only where the file's second reading
/// would have been made, for an eventlog without a heap profile. What the file would not
/// have kept is dropped, so that both give the same output.
pub fn read_once(r: impl Read, options: Options) -> Result<Parsed, Error> {
    if options.runtime {
        return read(r, options);
    }
    let wide = Options {
        heap: true,
        runtime: true,
        ..options
    };
    let mut parsed = read(r, wide)?;
    if parsed.runtime_only {
        warn_no_heap_profile(&mut parsed);
    } else {
        parsed.profile.series_mut().runtime = Default::default();
        (parsed.warnings).retain(|w| !matches!(w.kind, WarningKind::InconsistentCollections(_)));
        if !options.heap {
            parsed.profile.series_mut().heap = Default::default();
            parsed
                .warnings
                .retain(|w| w.kind != WarningKind::HeapLinesMerged);
        }
    }
    Ok(parsed)
}

/// Says that an eventlog has no heap profile, and what is drawn instead.
fn warn_no_heap_profile(parsed: &mut Parsed) {
    let kind = match parsed.profile.series().bands.is_empty() {
        true => WarningKind::NoHeapProfile,
        false => WarningKind::NonmovingHeapOnly,
    };
    warn_once(&mut parsed.warnings, kind);
}

/// An eventlog without a heap profile (plain `+RTS -l`, the most common kind) still has
/// the runtime's account: when `first` found no heap sample, the file is read again
/// from its start (`read`, compressed or not) for it, and the picture is the runtime's
/// lines. Neither a heap profile nor the runtime's events: the second reading says so;
/// any other failure, the first one's.
fn read_for_runtime(
    file: &File,
    options: Options,
    first: Result<Parsed, Error>,
    read: impl Fn(&File, Options) -> Result<Parsed, Error>,
) -> Result<Parsed, Error> {
    match first {
        Err(Error::Eventlog(e))
            if e.kind == eventlog::ErrorKind::NoHeapSamples && !options.runtime =>
        {
            let again = Options {
                heap: true,
                runtime: true,
                ..options
            };
            use std::io::{Seek, SeekFrom};
            let mut from_start = file;
            from_start.seek(SeekFrom::Start(0)).map_err(Error::io)?;
            let mut parsed = read(file, again).map_err(|again| match again {
                Error::Eventlog(a) if a.kind == eventlog::ErrorKind::NoRuntimeEvents => {
                    Error::Eventlog(a)
                }
                _ => Error::Eventlog(e),
            })?;
            warn_no_heap_profile(&mut parsed);
            Ok(parsed)
        }
        other => other,
    }
}

/// Reads an eventlog file: mapped when large, else in small reads that seek over what is
/// not needed.
fn read_eventlog_file(file: &File, options: Options) -> Result<Parsed, Error> {
    {
        {
            #[cfg(unix)]
            if let Some(parsed) = mapped::read_eventlog(file, options) {
                return parsed;
            }
            // Small reads, so that a block passed over is mostly never read: only its
            // first read's worth is.
            let skip = |f: &mut &File, n: u64| {
                use std::io::{Seek, SeekFrom};
                f.seek(SeekFrom::Current(i64::try_from(n).unwrap_or(i64::MAX)))
                    .map(|_| true)
            };
            read_with(file, options, 64 << 10, skip)
        }
    }
}

/// A profile and what was noticed while reading it: a [`Model`] where the input could
/// be either, a heap [`Profile`] from a reader that only reads those (`.hp`).
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed<P = Model> {
    /// The profile read.
    pub profile: P,
    /// What was repaired or left out while reading it.
    pub warnings: Vec<Warning>,
    /// An eventlog without a heap profile, read for the runtime's account alone: the
    /// profile is as long as the run and has no band.
    pub runtime_only: bool,
}

pub use crate::profile::hash::{FxHasher, FxMap};

impl<P> Parsed<P> {
    /// What of the input was not read, every losing warning's words together (a cut
    /// after bytes that did not read says both), at the first one's byte and line.
    pub fn loss(&self) -> Option<crate::profile::Loss> {
        let mut losses = self.warnings.iter().filter_map(Warning::loss);
        let mut loss = losses.next()?;
        for more in losses {
            if !loss.what.contains(&more.what) {
                loss.what = format!("{}; {}", loss.what, more.what);
            }
            loss.byte = loss.byte.or(more.byte);
            loss.line = loss.line.or(more.line);
        }
        Some(loss)
    }
}

impl From<Parsed<Profile>> for Parsed {
    fn from(p: Parsed<Profile>) -> Parsed {
        Parsed {
            profile: Model::Heap(p.profile),
            warnings: p.warnings,
            runtime_only: p.runtime_only,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::FxHasher;
    use std::hash::Hasher;

    #[test]
    fn names_that_share_an_ending_spread_over_the_bucket_bits() {
        // hashbrown picks a bucket with the low bits. 65,536 names into 65,536 slots
        // fill about 1 - 1/e of them when the hash is good.
        let n = 1 << 16;
        let mut slots = vec![false; n];
        for k in 0..n {
            let mut h = FxHasher::default();
            h.write(format!("n{k}_7").as_bytes());
            slots[h.finish() as usize & (n - 1)] = true;
        }
        let filled = slots.iter().filter(|&&s| s).count();
        assert!(filled > n * 58 / 100, "{filled} of {n} slots");
    }
}
