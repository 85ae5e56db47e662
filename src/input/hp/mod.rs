//! Parsing: `.hp` bytes in, [`Profile`] out.
//!
//! [`Parser`] is fed bytes as they arrive (a file read in large blocks, stdin, or a file
//! that is still growing) and keeps only what the profile needs: a name table and one
//! compact series per identifier. Data points are attributed to samples as hp2ps does it
//! (spec §1.3): a point counts for the sample being read, or for the next one if it lies
//! between samples. A sample's points are kept aside until its `END_SAMPLE`, so that an
//! unfinished last sample can be dropped whole, as if the file ended before it.

mod line;

use std::fmt;
use std::io::Read;

pub use line::{Header, Timed};
use line::{Outcome, Record};

pub use crate::input::{Parsed, Warning, WarningKind};
use crate::profile::{IdentId, Mark, Profile, Series};

/// Lines longer than this are not heap profile lines; refusing them bounds memory.
pub const MAX_RECORD: usize = 4 << 20;

/// Why a profile could not be read. `line` is 1-based.
#[derive(Debug, Clone, PartialEq)]
pub struct ParseError {
    /// Line of the offending record, if the error has one.
    pub line: Option<u64>,
    /// What is wrong.
    pub kind: ParseErrorKind,
}

/// The kinds of [`ParseError`].
#[derive(Debug, Clone, PartialEq)]
pub enum ParseErrorKind {
    /// A record that does not fit the grammar.
    Syntax {
        /// What the grammar wants there.
        expected: &'static str,
        /// What the line has.
        found: Vec<u8>,
    },
    /// `END_SAMPLE` with no open sample.
    EndWithoutBegin,
    /// A quoted string still open at the end of the input.
    UnterminatedString,
    /// A line longer than [`MAX_RECORD`].
    LineTooLong,
    /// No complete sample in the input.
    NoSamples,
    /// The first line is no record of a heap profile: another kind of file.
    NotAProfile(Vec<u8>),
    /// Reading the input failed.
    Io(String),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ParseErrorKind::Syntax { expected, found } => {
                if found.is_empty() {
                    write!(f, "expected {expected}, found the end of the line")
                } else {
                    write!(
                        f,
                        "expected {expected}, found `{}`",
                        crate::escape::excerpt(found)
                    )
                }
            }
            ParseErrorKind::EndWithoutBegin => {
                write!(f, "END_SAMPLE without a BEGIN_SAMPLE before it")
            }
            ParseErrorKind::UnterminatedString => {
                write!(f, "quoted string not closed before the end of the input")
            }
            ParseErrorKind::LineTooLong => write!(
                f,
                "line longer than {} MiB: this is not a heap profile",
                MAX_RECORD >> 20
            ),
            ParseErrorKind::NoSamples => write!(f, "contains no samples"),
            // The report a retainer profile's run writes beside its .hp lists the sets
            // only: what to give instead is the .hp, with this file naming its bands.
            ParseErrorKind::NotAProfile(line) if line.starts_with(b"Retainer Profiling") => {
                write!(
                    f,
                    "a retainer profile's report (+RTS -hr): it lists the retainer sets, not \
                     the heap over time; give the same run's .hp or eventlog, and this file \
                     names its bands (beside it as STEM.prof, or --retainer-sets FILE)"
                )
            }
            ParseErrorKind::NotAProfile(line) => write!(
                f,
                "not a profile hpgraph reads: `{}` begins none (a .hp file starts with JOB, \
                 DATE, SAMPLE_UNIT, VALUE_UNIT or BEGIN_SAMPLE; an eventlog with `hdrb`; a \
                 time and allocation report, +RTS -p or -P, with its date and command line; \
                 its JSON, -pj, with `{{`)",
                crate::escape::excerpt(line)
            ),
            ParseErrorKind::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ParseError {}

/// Incremental `.hp` parser.
#[derive(Default)]
pub struct Parser {
    /// Line number of the next byte to be consumed.
    line: u64,
    profile: Profile,
    ids: crate::input::names::NameIndex,
    /// Names that have a point in a completed sample; later ones may still be dropped.
    committed_names: usize,
    seen: [bool; 4],
    /// Time of the open sample, if one is open.
    open: Option<f64>,
    /// Line of the open sample's BEGIN_SAMPLE (or of its first point).
    open_line: u64,
    /// The open sample came out of order and will be dropped at its END_SAMPLE.
    skip: bool,
    last_begin: f64,
    /// The open sample's time as written, to recognise an END_SAMPLE line cut short.
    begin_text: Vec<u8>,
    /// Points of the sample being read (or, between samples, of the next one).
    pending: Vec<(IdentId, f64)>,
    pending_line: u64,
    warnings: Vec<Warning>,
    /// For each id, the id that followed it in the latest sample (see `intern`).
    successor: Vec<IdentId>,
    /// The id that started the latest sample.
    first_guess: IdentId,
    /// Time of the first BEGIN_SAMPLE read, to check the seam of a file read in parts.
    first_begin: Option<f64>,
    /// The hold on the band limit.
    bands: crate::input::BandBound,
}

/// Whether a line starts with one of the `.hp` format's keywords: a line that does is a
/// damaged profile's, whatever follows.
fn starts_with_keyword(line: &[u8]) -> bool {
    crate::escape::hp_keyword_first(line)
}

/// No identifier.
const NO_ID: IdentId = IdentId::MAX;

impl Parser {
    /// A parser at the start of a file.
    pub fn new() -> Self {
        Parser {
            line: 1,
            first_guess: NO_ID,
            ..Default::default()
        }
    }

    /// Consumes the complete records at the start of `buf` and returns how many bytes it
    /// used. The rest (an unfinished last line) must be offered again with more bytes, or
    /// with `eof` set once no more will come.
    pub fn feed(&mut self, buf: &[u8], eof: bool) -> Result<usize, ParseError> {
        let mut pos = 0;
        // One pass over the block finds the line ends (per-line searches cost more than
        // the rest of a typical line's work).
        let mut ends = memchr::memchr_iter(b'\n', buf);
        let mut next_end = ends.next();
        while pos < buf.len() {
            while next_end.is_some_and(|e| e < pos) {
                next_end = ends.next();
            }
            let rest = &buf[pos..];
            if let Some(end) = next_end
                && let Some((name, value)) = line::fast_point(&buf[pos..end])
            {
                self.point(name, value);
                self.line += 1;
                pos = end + 1;
                continue;
            }
            // Without a newline in `rest` its last line may still grow.
            let complete = |used: usize| used < rest.len() || eof;
            match line::record(rest, eof) {
                Outcome::Done(rec, used) if complete(used) => {
                    let text = &rest[..used];
                    if let Record::Timed(Timed::BeginSample, _) = rec {
                        self.begin_text.clear();
                        self.begin_text.extend_from_slice(line::time_word(text));
                    }
                    // A program killed while writing `END_SAMPLE 11.637399` can leave
                    // `END_SAMPLE 11.6`: a valid line, but a cut one, and its sample
                    // is as unfinished as one without END_SAMPLE. Only a time that is a
                    // strict prefix of BEGIN_SAMPLE's counts as cut; any other stands.
                    if used == rest.len()
                        && let Record::Timed(Timed::EndSample, _) = rec
                        && let end = line::time_word(text)
                        && end.len() < self.begin_text.len()
                        && self.begin_text.starts_with(end)
                    {
                        self.unfinished_line();
                        pos = buf.len();
                        continue;
                    }
                    self.apply(rec)?;
                    // `used` stops before the newline that ends the record.
                    self.line += count_newlines(text) + u64::from(used < rest.len());
                    pos += (used + 1).min(rest.len());
                }
                Outcome::Invalid { expected, found } if complete(line_len(rest)) => {
                    if line_len(rest) < rest.len() {
                        // Before any record of a profile, a line that is none is the
                        // sign of another kind of file, not of a damaged profile.
                        if self.read_nothing() && !starts_with_keyword(rest) {
                            return Err(self.error(ParseErrorKind::NotAProfile(
                                rest[..line_len(rest)].to_vec(),
                            )));
                        }
                        return Err(self.error(ParseErrorKind::Syntax { expected, found }));
                    }
                    self.unfinished_line();
                    pos = buf.len();
                }
                Outcome::NeedMore if eof => {
                    return Err(self.error(ParseErrorKind::UnterminatedString));
                }
                _ => {
                    if rest.len() > MAX_RECORD {
                        return Err(self.error(ParseErrorKind::LineTooLong));
                    }
                    break;
                }
            }
        }
        Ok(pos)
    }

    /// No header, sample, point or mark read yet.
    fn read_nothing(&self) -> bool {
        !self.seen.iter().any(|&s| s)
            && self.profile.times.is_empty()
            && self.profile.marks.is_empty()
            && self.pending.is_empty()
            && self.open.is_none()
    }

    /// The input ends in the middle of a line: whatever sample that line belonged to is
    /// incomplete, and `finish` says so.
    fn unfinished_line(&mut self) {
        if self.open.is_none() && self.pending.is_empty() {
            self.open_line = self.line;
            self.open = Some(self.last_begin);
        }
    }

    fn error(&self, kind: ParseErrorKind) -> ParseError {
        ParseError {
            line: Some(self.line),
            kind,
        }
    }

    fn apply(&mut self, rec: Record<'_>) -> Result<(), ParseError> {
        match rec {
            Record::Blank => {}
            Record::Header(h, text) => {
                let slot = match h {
                    Header::Job => &mut self.profile.job,
                    Header::Date => &mut self.profile.date,
                    Header::SampleUnit => &mut self.profile.sample_unit,
                    Header::ValueUnit => &mut self.profile.value_unit,
                };
                *slot = text;
                self.seen[h as usize] = true;
                let p = &mut self.profile;
                p.units = crate::units::Units::of(&p.sample_unit, &p.value_unit);
            }
            Record::Timed(Timed::BeginSample, t) => {
                self.first_begin.get_or_insert(t);
                if self.open.is_none() && self.pending.is_empty() {
                    self.open_line = self.line;
                }
                if t < self.last_begin {
                    self.warnings.push(Warning {
                        line: Some(self.line),
                        kind: WarningKind::SampleOutOfOrder {
                            time: t,
                            previous: self.last_begin,
                        },
                    });
                    self.skip = true;
                } else {
                    self.last_begin = t;
                }
                self.open = Some(t);
            }
            Record::Timed(Timed::EndSample, _) => {
                let Some(t) = self.open.take() else {
                    return Err(self.error(ParseErrorKind::EndWithoutBegin));
                };
                if std::mem::take(&mut self.skip) {
                    self.drop_pending();
                } else {
                    self.commit(t);
                }
            }
            Record::Timed(Timed::Mark, t) => {
                let thinned = self.profile.push_mark(Mark::at(t));
                crate::input::warn_thinned(&mut self.warnings, thinned);
            }
            Record::Point { name, value } => self.point(name, value),
        }
        Ok(())
    }

    fn point(&mut self, name: &[u8], value: f64) {
        if self.pending.is_empty() {
            if self.open.is_none() {
                self.open_line = self.line;
            }
            self.pending_line = self.line;
        }
        let id = self.intern(name);
        self.pending.push((id, value));
    }

    /// The id of `name`, guessed first from the previous sample: the runtime writes the
    /// names of a sample in much the same order every time, so the name that followed
    /// the previous line's name last time is usually this one. A right guess costs one
    /// comparison instead of a hash.
    fn intern(&mut self, name: &[u8]) -> IdentId {
        let prev = self.pending.last().map_or(NO_ID, |&(id, _)| id);
        let guess = if prev == NO_ID {
            self.first_guess
        } else {
            self.successor.get(prev as usize).copied().unwrap_or(NO_ID)
        };
        let id = match self.profile.bands.names().get(guess as usize) {
            Some(n) if **n == *name => guess,
            _ => self.lookup(name),
        };
        if prev == NO_ID {
            self.first_guess = id;
        } else {
            self.successor[prev as usize] = id;
        }
        id
    }

    fn lookup(&mut self, name: &[u8]) -> IdentId {
        if let Some(id) = self.ids.get(self.profile.bands.names(), name) {
            return id;
        }
        let kept = self.ids.kept(name);
        if kept.len() < name.len() {
            crate::input::warn_once(&mut self.warnings, WarningKind::NameCut);
        }
        let id = self.profile.bands.push(kept, Series::default());
        self.ids.insert(self.profile.bands.names(), id);
        self.successor.push(NO_ID);
        id
    }

    fn commit(&mut self, time: f64) {
        let sample = self.profile.times.len() as u32;
        for &(id, v) in &self.pending {
            self.profile.bands.series_mut()[id as usize].push(sample, v);
        }
        self.pending.clear();
        self.profile.times.push(time);
        self.committed_names = self.profile.bands.len();
        self.bound_samples();
        if self.bands.while_reading(
            &mut self.profile,
            &mut self.warnings,
            &mut self.ids,
            &mut [],
        ) {
            self.forget_guesses();
        }
    }

    /// After bands were merged (between samples: nothing is pending), the ids the
    /// guesses hold are stale.
    fn forget_guesses(&mut self) {
        self.committed_names = self.profile.bands.len();
        self.successor = vec![NO_ID; self.profile.bands.len()];
        self.first_guess = NO_ID;
    }

    /// Merges samples past [`crate::profile::MAX_SAMPLES`], saying so once.
    fn bound_samples(&mut self) {
        crate::input::bound_samples(&mut self.profile, &mut self.warnings);
    }

    /// Forgets the points of a sample that will not be drawn, and the names only it used.
    fn drop_pending(&mut self) {
        self.pending.clear();
        if self.profile.bands.len() == self.committed_names {
            return; // no new names: nothing more to undo (and no walk over all names)
        }
        let removed = self.profile.bands.truncate(self.committed_names);
        self.ids.truncate(&removed, self.committed_names);
        self.successor.truncate(self.committed_names);
        for s in &mut self.successor {
            if *s as usize >= self.committed_names {
                *s = NO_ID;
            }
        }
        if self.first_guess as usize >= self.committed_names {
            self.first_guess = NO_ID;
        }
    }

    /// Complete samples and marks read so far: what a picture of the profile shows.
    pub fn progress(&self) -> (usize, usize) {
        (self.profile.times.len(), self.profile.marks.len())
    }

    /// The profile as it stands, for a file that is still being written: the complete
    /// samples so far, without the sample being read and the names only it has used.
    /// Unlike [`finish`](Parser::finish) the parser goes on; an open sample is normal
    /// here and gives no warning.
    pub fn snapshot(&self) -> Result<Parsed<Profile>, ParseError> {
        if self.profile.times.is_empty() {
            return Err(ParseError {
                line: None,
                kind: ParseErrorKind::NoSamples,
            });
        }
        let mut profile = self.profile.clone();
        profile.bands.truncate(self.committed_names);
        let mut warnings = self.warnings.clone();
        warnings.extend(self.missing_headers());
        self.bands.clone().apply(
            &mut profile,
            &mut warnings,
            &mut Default::default(),
            &mut [],
        );
        Ok(Parsed {
            profile,
            warnings,
            runtime_only: false,
        })
    }

    fn missing_headers(&self) -> impl Iterator<Item = Warning> + '_ {
        Header::ALL
            .into_iter()
            .filter(|&h| !self.seen[h as usize])
            .map(|h| Warning {
                line: None,
                kind: WarningKind::MissingHeader(h),
            })
    }

    /// Ends the input: drops an unfinished last sample and checks the header.
    pub fn finish(mut self) -> Result<Parsed<Profile>, ParseError> {
        if self.open.is_some() || !self.pending.is_empty() {
            let line = if self.open.is_some() {
                self.open_line
            } else {
                self.pending_line
            };
            self.warnings.push(Warning {
                line: Some(line),
                kind: WarningKind::IncompleteLastSample,
            });
            self.drop_pending();
        }
        if self.profile.times.is_empty() {
            return Err(ParseError {
                line: None,
                kind: ParseErrorKind::NoSamples,
            });
        }
        let missing: Vec<Warning> = self.missing_headers().collect();
        self.warnings.extend(missing);
        crate::input::warn_if_empty(&self.profile, &mut self.warnings);
        // A file read in two parts is joined whole: bound it here too.
        self.bound_samples();
        if self.bands.apply(
            &mut self.profile,
            &mut self.warnings,
            &mut self.ids,
            &mut [],
        ) {
            self.forget_guesses();
        }
        for s in self.profile.bands.series_mut() {
            s.shrink_to_fit();
        }
        Ok(Parsed {
            profile: self.profile,
            warnings: self.warnings,
            runtime_only: false,
        })
    }
}

fn line_len(b: &[u8]) -> usize {
    memchr::memchr(b'\n', b).unwrap_or(b.len())
}

fn count_newlines(b: &[u8]) -> u64 {
    memchr::memchr_iter(b'\n', b).count() as u64
}

/// Parses a whole profile held in memory.
pub fn parse(bytes: &[u8]) -> Result<Parsed<Profile>, ParseError> {
    let mut p = Parser::new();
    p.feed(bytes, true)?;
    p.finish()
}

/// Parses a profile from a reader, in blocks, never holding more than a block and one
/// unfinished line.
pub fn read(r: impl Read) -> Result<Parsed<Profile>, ParseError> {
    let mut p = Parser::new();
    feed_all(&mut p, r)?;
    p.finish()
}

fn io_error(e: std::io::Error) -> ParseError {
    ParseError {
        line: None,
        kind: ParseErrorKind::Io(e.to_string()),
    }
}

/// Feeds everything `r` yields to `p`, then tells it the input has ended.
fn feed_all(p: &mut Parser, mut r: impl Read) -> Result<(), ParseError> {
    const BLOCK: usize = 1 << 20;
    let mut buf = vec![0u8; BLOCK];
    let mut have = 0;
    loop {
        if have == buf.len() {
            buf.resize(buf.len() * 2, 0);
        }
        let n = match r.read(&mut buf[have..]) {
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(io_error(e)),
        };
        have += n;
        let eof = n == 0;
        let used = p.feed(&buf[..have], eof)?;
        buf.copy_within(used..have, 0);
        have -= used;
        if eof {
            return Ok(());
        }
    }
}

/// Files at least this large are read in two parts at once, one per core.
const PARALLEL_MIN: u64 = 8 << 20;

/// Parses a profile file. A large file is cut after an `END_SAMPLE` line near its
/// middle and the two parts are parsed on two threads, then joined; the result, and
/// any message, is the same as from [`read`] (on any error, or when the second part
/// would start earlier in time than the first ends, the file is read again in one go
/// so that the first error in file order is the one reported).
pub fn read_file(file: &std::fs::File) -> Result<Parsed<Profile>, ParseError> {
    #[cfg(unix)]
    if let Ok(meta) = file.metadata()
        && meta.is_file()
        && meta.len() >= PARALLEL_MIN
        && let Some(map) = crate::input::mapped::map(file, u64::MAX)
        && let Some(cut) = parts::find_cut(&map)
        && let Some(p) = parts::read_in_two(&map, cut)
    {
        return p.finish();
    }
    read(file)
}

#[cfg(unix)]
mod parts {
    use super::{NO_ID, Parser};
    use crate::profile::{MergedBands, Series};

    /// The offset just after the first `END_SAMPLE` line at or after the middle.
    pub(super) fn find_cut(file: &[u8]) -> Option<usize> {
        const WINDOW: usize = 4 << 20;
        let from = file.len() / 2;
        let buf = &file[from..file.len().min(from + WINDOW)];
        let mut at = 0;
        while let Some(k) = memchr::memmem::find(&buf[at..], b"\nEND_SAMPLE") {
            let line = at + k + 1;
            let after = buf.get(line + b"END_SAMPLE".len())?;
            if matches!(after, b' ' | b'\t') {
                let nl = memchr::memchr(b'\n', &buf[line..])?;
                let cut = from + line + nl + 1;
                return (cut < file.len()).then_some(cut);
            }
            at = line;
        }
        None
    }

    /// Parses `[0, cut)` and `[cut, len)` of the mapped file on two threads and joins
    /// them, or `None` when the parts cannot be joined into what one pass would give.
    pub(super) fn read_in_two(map: &memmap2::Mmap, cut: usize) -> Option<Parser> {
        let part = |from, until| {
            let mut p = Parser::new();
            crate::input::mapped::feed_text(map, (from, until), |bytes, eof| p.feed(bytes, eof))
                .map(|()| p)
        };
        let (first, second) = std::thread::scope(|s| {
            let second = s.spawn(|| part(cut, map.len()));
            (part(0, cut), second.join())
        });
        join(first.ok()?, second.ok()?.ok()?)
    }

    /// `a` followed by `b`, as if read in one pass. `a` ends just after an `END_SAMPLE`
    /// line, so it has no open sample and no pending points.
    fn join(mut a: Parser, b: Parser) -> Option<Parser> {
        if a.open.is_some() || !a.pending.is_empty() {
            return None;
        }
        if let Some(t) = b.first_begin
            && t < a.last_begin
        {
            return None; // the seam goes back in time: one pass will say where
        }
        let lines_before = a.line - 1;
        let samples_before = a.profile.times.len() as u32;
        for (k, seen) in b.seen.iter().enumerate() {
            if *seen {
                a.seen[k] = true;
                let (to, from) = match k {
                    0 => (&mut a.profile.job, &b.profile.job),
                    1 => (&mut a.profile.date, &b.profile.date),
                    2 => (&mut a.profile.sample_unit, &b.profile.sample_unit),
                    _ => (&mut a.profile.value_unit, &b.profile.value_unit),
                };
                to.clone_from(from);
            }
        }
        a.profile.times.extend_from_slice(&b.profile.times);
        for mark in b.profile.marks {
            let thinned = a.profile.push_mark(mark);
            crate::input::warn_thinned(&mut a.warnings, thinned);
        }
        let mut map = Vec::with_capacity(b.profile.bands.len());
        for (k, name) in b.profile.bands.names().iter().enumerate() {
            // The second part's band of merged bands joins the first part's.
            let id = match (b.bands.0, &mut a.bands.0) {
                (Some(theirs), Some(ours)) if theirs.band as usize == k => {
                    ours.count += theirs.count;
                    a.profile.bands.names_mut()[ours.band as usize] = MergedBands::name(ours.count);
                    ours.band
                }
                (Some(theirs), None) if theirs.band as usize == k => {
                    let id = a.profile.bands.push(name.clone(), Series::default());
                    a.successor.push(NO_ID);
                    a.bands.0 = Some(MergedBands {
                        band: id,
                        count: theirs.count,
                    });
                    id
                }
                _ => a.lookup(name),
            };
            map.push(id);
            if k + 1 == b.committed_names {
                a.committed_names = a.profile.bands.len();
            }
        }
        for (k, (_, series)) in b.profile.bands.into_iter().enumerate() {
            a.profile.bands.series_mut()[map[k] as usize].append(series, samples_before);
        }
        a.pending = b
            .pending
            .iter()
            .map(|&(id, v)| (map[id as usize], v))
            .collect();
        a.open = b.open;
        a.open_line = b.open_line + lines_before;
        a.pending_line = b.pending_line + lines_before;
        a.skip = b.skip;
        if b.first_begin.is_some() {
            a.last_begin = b.last_begin;
        }
        a.warnings.extend(b.warnings.into_iter().map(|mut w| {
            w.line = w.line.map(|l| l + lines_before);
            w
        }));
        a.line += b.line - 1;
        a.successor.iter_mut().for_each(|s| *s = NO_ID);
        a.first_guess = NO_ID;
        Some(a)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_keywords_escape_knows_are_the_readers() {
        let mut ours: Vec<&str> = (Header::ALL.map(Header::keyword).into_iter())
            .chain(Timed::ALL.map(Timed::keyword))
            .collect();
        let mut theirs = crate::escape::HP_KEYWORDS.to_vec();
        ours.sort_unstable();
        theirs.sort_unstable();
        assert_eq!(ours, theirs);
    }

    const BASIC: &str = "JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n\
        BEGIN_SAMPLE 0.00\nEND_SAMPLE 0.00\nBEGIN_SAMPLE 1.00\na\t10\nb\t20\nEND_SAMPLE 1.00\n\
        MARK 1.5\nBEGIN_SAMPLE 2.00\na\t30\na\t5\nEND_SAMPLE 2.00\n";

    #[test]
    fn reads_samples_marks_and_series() {
        let p = parse(BASIC.as_bytes()).unwrap();
        assert!(p.warnings.is_empty(), "{:?}", p.warnings);
        let prof = p.profile;
        assert_eq!(prof.times, vec![0.0, 1.0, 2.0]);
        assert_eq!(prof.marks, vec![Mark::at(1.5)]);
        assert_eq!(
            prof.bands.names(),
            vec![b"a".to_vec().into(), b"b".to_vec().into()]
        );
        let a: Vec<_> = prof.bands.series()[0].points().collect();
        assert_eq!(a, vec![(1, 10.0), (2, 30.0), (2, 5.0)]);
    }

    #[test]
    fn a_point_between_samples_counts_for_the_next_one() {
        let src = "BEGIN_SAMPLE 0.0\nEND_SAMPLE 0.0\nx 4\nBEGIN_SAMPLE 1.0\nEND_SAMPLE 1.0\n";
        let prof = parse(src.as_bytes()).unwrap().profile;
        assert_eq!(
            prof.bands.series()[0].points().collect::<Vec<_>>(),
            vec![(1, 4.0)]
        );
    }

    #[test]
    fn an_unfinished_last_sample_is_dropped_with_its_new_names() {
        let src = format!("{BASIC}BEGIN_SAMPLE 3.0\na 1\nnew 2\n");
        let p = parse(src.as_bytes()).unwrap();
        assert_eq!(p.profile, parse(BASIC.as_bytes()).unwrap().profile);
        assert_eq!(p.warnings[0].kind, WarningKind::IncompleteLastSample);
        assert_eq!(p.warnings[0].line, Some(16));
    }

    #[test]
    fn feeding_in_any_chunks_gives_the_same_profile() {
        let whole = parse(BASIC.as_bytes()).unwrap();
        for chunk in 1..BASIC.len() {
            let got = read(Chunked(BASIC.as_bytes(), chunk)).unwrap();
            assert_eq!(got, whole, "chunk {chunk}");
        }
    }

    struct Chunked<'a>(&'a [u8], usize);
    impl Read for Chunked<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.1.min(self.0.len()).min(buf.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    #[test]
    fn errors_carry_the_line() {
        let e = parse(b"JOB \"x\"\nBEGIN_SAMPLE 0.0\nfoo\n").unwrap_err();
        assert_eq!(e.line, Some(3));
        assert_eq!(
            e.to_string(),
            "expected `name value` or a keyword, found `foo`"
        );
        let e = parse(b"\n\nEND_SAMPLE 1.0\n").unwrap_err();
        assert_eq!(e.line, Some(3));
        assert_eq!(e.kind, ParseErrorKind::EndWithoutBegin);
    }

    #[test]
    fn multi_line_strings_keep_line_numbers_right() {
        let e = parse(b"JOB \"a\nb\"\nDATE \"x\"\nzzz\n").unwrap_err();
        assert_eq!(e.line, Some(4));
        let p = parse(b"JOB \"a\nb\"\nBEGIN_SAMPLE 0.0\nEND_SAMPLE 0.0\n").unwrap();
        assert_eq!(p.profile.job, b"a\nb");
    }

    #[cfg(unix)]
    #[test]
    fn a_large_file_read_in_two_parts_gives_what_one_pass_gives() {
        // About 9 MB: past the size where the file is read in two parts. Names appear
        // and vanish, one repeats within a sample, a point sits between samples, the
        // last sample is unfinished, and a header line comes late.
        let mut hp = String::from("JOB \"big\"\nDATE \"d\"\nSAMPLE_UNIT \"s\"\n");
        for s in 0..60_000u32 {
            if s == 45_000 {
                hp.push_str("VALUE_UNIT \"bytes\"\nMARK 1.5\nstray\t9\n");
            }
            hp.push_str(&format!("BEGIN_SAMPLE {}.{:02}\n", s / 100, s % 100));
            for k in 0..8 {
                let id = (s / 5000 + k) % 20;
                hp.push_str(&format!("cost centre {id}\t{}\n", (s * 7 + k) % 1000));
            }
            if s % 1000 == 0 {
                hp.push_str(&format!("cost centre 3\t{s}\n"));
            }
            hp.push_str(&format!("END_SAMPLE {}.{:02}\n", s / 100, s % 100));
        }
        hp.push_str("BEGIN_SAMPLE 999.0\nonly in the unfinished sample\t5\n");
        assert!(hp.len() as u64 > PARALLEL_MIN);
        let path =
            std::env::temp_dir().join(format!("hpgraph-two-parts-{}.hp", std::process::id()));
        std::fs::write(&path, &hp).unwrap();
        let file = std::fs::File::open(&path).unwrap();
        let map = crate::input::mapped::map(&file, u64::MAX).expect("mapped");
        let cut = parts::find_cut(&map).expect("a place to cut");
        assert!(parts::read_in_two(&map, cut).is_some(), "joined");
        drop(map);
        let two = read_file(&file).unwrap();
        std::fs::remove_file(&path).unwrap();
        let one = parse(hp.as_bytes()).unwrap();
        assert_eq!(two.warnings, one.warnings);
        assert_eq!(two.profile.bands.names(), one.profile.bands.names());
        assert_eq!(two.profile.times, one.profile.times);
        assert_eq!(
            (&two.profile.job, &two.profile.value_unit),
            (&one.profile.job, &one.profile.value_unit)
        );
        assert_eq!(two.profile.marks, one.profile.marks);
        for (a, b) in two
            .profile
            .bands
            .series()
            .iter()
            .zip(one.profile.bands.series())
        {
            assert_eq!(
                a.points().collect::<Vec<_>>(),
                b.points().collect::<Vec<_>>()
            );
            assert_eq!(a.total(), b.total());
        }
    }

    #[test]
    fn a_snapshot_holds_the_complete_samples_and_parsing_goes_on() {
        let mut p = Parser::new();
        let cut = BASIC.find("a\t30").unwrap() + 3; // inside the last sample
        let used = p.feed(&BASIC.as_bytes()[..cut], false).unwrap();
        let snap = p.snapshot().unwrap();
        assert_eq!(snap.profile.times, vec![0.0, 1.0]);
        assert!(snap.warnings.is_empty());
        p.feed(&BASIC.as_bytes()[used..], true).unwrap();
        assert_eq!(p.finish().unwrap(), parse(BASIC.as_bytes()).unwrap());
    }

    #[test]
    fn no_samples_is_an_error() {
        let e = parse(b"JOB \"x\"\n").unwrap_err();
        assert_eq!(e.kind, ParseErrorKind::NoSamples);
    }
}
