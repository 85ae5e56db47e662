//! GHC's time and allocation report, the text `+RTS -p`, `-P` and `-pa` write
//! (`prog.prof`), read into a [`CostProfile`].
//!
//! The report is a header (date, command line, `total time`, `total alloc`), a table of
//! the costliest cost centres, and the tree: one row per cost-centre stack under a header
//! `COST CENTRE MODULE SRC no. entries %time %alloc %time %alloc [ticks bytes]`. A row's
//! depth is its leading spaces. GHC pads each column to its widest value, counted in
//! characters, so the header's words say where the name, module and source columns
//! start; a source may hold spaces (`<no location info>`), and numbers may be wider than
//! their column, so the numbers are taken as the row's last words, as many as the header
//! has after `SRC`. `-p` gives percentages only: the stacks' ticks and bytes are then the
//! run's totals times each share ([`Precision::Percentages`]).
//!
//! A file cut in the middle of its tree gives the rows before the cut, with a warning
//! naming the line; anything else malformed is an error naming the line.

pub mod json;
mod model;
pub mod retainers;
pub mod sorted;

pub use model::profile;

use std::hash::Hasher as _;

use std::sync::mpsc::{self, Receiver, Sender};

use hashbrown::HashTable;

use super::FxHasher;

use crate::profile::costs::{
    CostCentre, CostProfile, MAX_CENTRES, MAX_DEPTH, MAX_STACKS, Precision, Stack,
};

/// A report's first line is recognised within this many bytes.
pub const PROBE: usize = 4096;

/// A report is read whole, up to this many bytes (the text of 400,000 stacks is 73 MB),
/// in place where it is a file.
pub const MAX_BYTES: usize = 1 << 30;

/// A report that is not a file to read in place (compressed, or from standard input, a
/// FIFO or a socket) is gathered into memory, up to this many bytes: 1.3 times the text
/// of 400,000 stacks. A 0.6 MB `.prof.gz` can hold 600 MB of text.
pub const MAX_GATHERED: usize = 96 << 20;

/// The most lines a text report (a `.prof` or a ticky report) is read with: each costs
/// its place in the line index (16 bytes), a blank one too. 400,000 stacks are 410,000
/// lines; past this a file is refused, not indexed (90 MiB of blank lines gathered from
/// a 92 kB `.gz` once held 1.2 GB).
pub const MAX_LINES: usize = 8 << 20;

/// Refused, before a line is indexed, when `text` has more than [`MAX_LINES`] lines.
pub(crate) fn within_lines(text: &[u8]) -> Result<(), Error> {
    match memchr::memchr_iter(b'\n', text).nth(MAX_LINES - 1) {
        Some(_) => Err(error(
            MAX_LINES + 1,
            format!(
                "more than {MAX_LINES} lines, more than any report GHC writes has (400,000 \
                 stacks are 410,000 lines): not read"
            ),
        )),
        None => Ok(()),
    }
}

/// What the first line of a report says.
const TITLE: &[u8] = b"Time and Allocation Profiling Report";

/// Whether `prefix` (a file's first bytes) begins a text report: a first line that
/// starts with blanks (GHC's tab, or the spaces an editor or a paste made of it) and
/// holds the title.
pub fn is_report(prefix: &[u8]) -> bool {
    let line = prefix.split(|&b| b == b'\n').next().unwrap_or_default();
    matches!(line.first(), Some(b'\t' | b' ')) && line.windows(TITLE.len()).any(|w| w == TITLE)
}

/// A report that cannot be read: where, and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// The line, from 1.
    pub line: usize,
    /// What is wrong there.
    pub what: String,
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.what)
    }
}

/// A report read, and what a reader should be told about it.
#[derive(Debug, Clone, PartialEq)]
pub struct Read {
    /// The profile.
    pub profile: CostProfile,
    /// Lines that could not be read where the file ends early: (line, what).
    pub warnings: Vec<(usize, String)>,
}

fn error(line: usize, what: impl Into<String>) -> Error {
    Error {
        line,
        what: what.into(),
    }
}

/// The header's figures.
#[derive(Default)]
struct Header {
    date: Box<[u8]>,
    command: Box<[u8]>,
    seconds: f64,
    ticks: u64,
    tick_us: u64,
    bytes: u64,
}

/// Reads a whole report.
pub fn parse(text: &[u8]) -> Result<Read, Error> {
    parse_within(text, MAX_STACKS, &mut |_| {})
}

/// What is told, as a report is read, that the text before a byte offset will not be
/// read again: a caller holding it mapped can let its pages go (a 73 MB report's pages
/// were half of what reading it held at its peak).
pub type Release<'r> = &'r mut dyn FnMut(usize);

/// Reads a whole report of at most `max_stacks` stacks (past it, an error naming the
/// row): [`MAX_STACKS`], or a bound a test can pass without gigabytes of text.
fn parse_within(text: &[u8], max_stacks: usize, release: Release) -> Result<Read, Error> {
    within_lines(text)?;
    let mut lines: Vec<&[u8]> = Vec::with_capacity(text.len() / 64);
    let mut start = 0;
    for end in memchr::memchr_iter(b'\n', text) {
        lines.push(&text[start..end]);
        start = end + 1;
    }
    lines.push(&text[start..]);
    let header = header(&lines)?;
    let at = (lines.iter())
        .position(|l| {
            l.starts_with(b"COST CENTRE") && contains(l, b" no. ") && contains(l, b"entries")
        })
        .ok_or_else(|| {
            error(
                lines.len(),
                "no tree of cost-centre stacks (a `COST CENTRE … no. entries` line)",
            )
        })?;
    let columns = Columns::of(lines[at]).ok_or_else(|| {
        error(
            at + 1,
            "the tree's header lacks MODULE, or the numbers after it",
        )
    })?;
    // Sized for a row per line: growing tables of 100,000s rehash and copy again and
    // again.
    let rows = lines.len() - at;
    let mut tree = Tree {
        stacks: Vec::with_capacity(rows),
        // A row's cost centre may be its own (a source span of its own).
        centres: Vec::with_capacity(rows.min(MAX_CENTRES)),
        index: HashTable::with_capacity(rows.min(MAX_CENTRES)),
        // Only `-p` has no counts, only shares.
        shares: Vec::with_capacity(if columns.counted { 0 } else { rows }),
        max_stacks,
        ..Tree::default()
    };
    let cut = !text.ends_with(b"\n");
    let mut warnings = Vec::new();
    // The rows: after blank lines, up to the next blank line.
    let blank = |l: &[u8]| l.iter().all(u8::is_ascii_whitespace);
    let first = at + 1 + (lines[at + 1..].iter()).take_while(|l| blank(l)).count();
    let last = first + (lines[first..].iter()).take_while(|l| !blank(l)).count();
    let last_line = lines.len();
    let rows = Rows {
        columns: &columns,
        text,
        lines: &lines,
    };
    rows.read(first..last, release, |k, cooked| {
        let number = k + 1;
        match cooked.and_then(|row| tree.add(row, number)) {
            Ok(()) => Ok(()),
            // The last line of a file cut short: keep what came before it.
            Err(e) if cut && k + 1 == last_line => {
                warnings.push((number, format!("the file ends inside a row ({})", e.what)));
                Ok(())
            }
            Err(e) => Err(e),
        }
    })?;
    if tree.stacks.is_empty() {
        return Err(error(at + 1, "the tree of cost-centre stacks is empty"));
    }
    Ok(Read {
        profile: tree.finish(header, columns.counted),
        warnings,
    })
}

/// Rows from this many on are read on several threads.
const PARALLEL_ROWS: usize = 20_000;

/// Each thread reads this many rows at a time, and they are taken into the tree before
/// the next are read: what is read and not yet taken in is what reading holds beside
/// the tree (400,000 rows read at once were 58 MB, a third of a large report's peak).
const BLOCK_ROWS: usize = 1 << 15;

/// A row read (or the error that ends its block's rows), with its first line's index
/// and how many lines it took.
type CookedRow<'a> = (usize, usize, Result<Cooked<'a>, Error>);

/// A block's rows read.
type Block<'a> = Vec<CookedRow<'a>>;

/// A report's tree's rows: its text split into lines, and where its columns are.
struct Rows<'t, 'a> {
    columns: &'t Columns,
    text: &'a [u8],
    lines: &'t [&'a [u8]],
}

impl<'a> Rows<'_, 'a> {
    /// The rows from line `k` to `end`, each with its first line's index and how many
    /// lines it took; a block's first error ends its rows.
    fn cook(&self, range: std::ops::Range<usize>) -> Block<'a> {
        let mut out = Vec::with_capacity(range.len());
        self.cook_into(range, &mut out);
        out
    }

    /// [`Self::cook`] into `out`, which is empty.
    fn cook_into(&self, range: std::ops::Range<usize>, out: &mut Block<'a>) {
        out.reserve(range.len());
        let mut k = range.start;
        while k < range.end {
            let (cooked, used) = cook_row(self.columns, self.text, self.lines, k);
            let failed = cooked.is_err();
            out.push((k, used, cooked));
            k += used;
            if failed {
                break;
            }
        }
    }

    /// The rows `range` read and their numbers parsed, each given to `each` with its
    /// first line's index, in order, up to the first error (which `each` is given too)
    /// or the first error `each` returns; `release` is told of the text behind each
    /// block taken in. A large report's blocks of rows are read on as many threads as
    /// the machine has (at most 8), each thread a block at a time, every n-th, while the
    /// tree is put together from the blocks read, in order: a thread holds at most one
    /// block read and one being read, in lists that go back to it once taken in (a list
    /// freed and another made for each block had every block's pages faulted in again:
    /// a fifth of the time). A row whose label holds line breaks spans lines
    /// ([`cook_row`]); where one crosses from a block into the next, the next is read
    /// again from where it ends.
    fn read(
        &self,
        range: std::ops::Range<usize>,
        release: Release,
        mut each: impl FnMut(usize, Result<Cooked<'a>, Error>) -> Result<(), Error>,
    ) -> Result<(), Error> {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(8));
        if threads < 2 || range.len() < PARALLEL_ROWS {
            for (k, _, row) in self.cook(range) {
                each(k, row)?;
            }
            return Ok(());
        }
        let blocks = range.len().div_ceil(BLOCK_ROWS);
        let (start, end) = (range.start, range.end);
        let block = move |b: usize| start + b * BLOCK_ROWS..(start + (b + 1) * BLOCK_ROWS).min(end);
        std::thread::scope(|scope| {
            // Each thread's blocks read, and its lists given back.
            let (read, back): (Vec<Receiver<Block<'a>>>, Vec<Sender<Block<'a>>>) = (0..threads)
                .map(|t| {
                    let (tx, rx) = mpsc::sync_channel(1);
                    let (give_back, given) = mpsc::channel::<Block<'a>>();
                    scope.spawn(move || {
                        for b in (t..blocks).step_by(threads) {
                            let mut rows = given.try_recv().unwrap_or_default();
                            self.cook_into(block(b), &mut rows);
                            if tx.send(rows).is_err() {
                                break;
                            }
                        }
                    });
                    (rx, give_back)
                })
                .unzip();
            let mut next = start;
            for b in 0..blocks {
                let span = block(b);
                let mut rows = match read[b % threads].recv() {
                    Ok(rows) if rows.first().is_none_or(|r| r.0 == next) => rows,
                    // A row of the block before ran into this one: read on from its end.
                    _ => self.cook(next..span.end),
                };
                for (k, used, row) in rows.drain(..) {
                    let failed = row.is_err();
                    each(k, row)?;
                    if failed {
                        return Ok(());
                    }
                    next = k + used;
                }
                // The thread may have read its last block already.
                let _ = back[b % threads].send(rows);
                if let Some(line) = self.lines.get(next) {
                    release(line.as_ptr() as usize - self.text.as_ptr() as usize);
                }
            }
            Ok(())
        })
    }
}

/// At most this many lines make one row: a cost centre's label may hold line breaks
/// (an `SCC` pragma's text, which GHC writes as it is), each a line of the report.
pub const MAX_ROW_LINES: usize = 16;

/// What a row without all its numbers is told.
const FEWER_NUMBERS: &str = "a row with fewer numbers than the header's";

/// The row starting at line `k`, and how many lines it takes: one, or, where the line
/// lacks numbers, as many as make a whole row when read with their line breaks (GHC
/// pads a label counting its line breaks as characters, so the columns stay where the
/// header puts them, counted from the row's first line).
fn cook_row<'a>(
    columns: &Columns,
    text: &'a [u8],
    lines: &[&'a [u8]],
    k: usize,
) -> (Result<Cooked<'a>, Error>, usize) {
    let first = columns.cook(lines[k], k + 1);
    match &first {
        Err(e) if e.what.starts_with(FEWER_NUMBERS) => {}
        _ => return (first, 1),
    }
    let offset = |line: &[u8]| line.as_ptr() as usize - text.as_ptr() as usize;
    let start = offset(lines[k]);
    for j in k + 1..lines.len().min(k + MAX_ROW_LINES) {
        if lines[j].iter().all(u8::is_ascii_whitespace) {
            break;
        }
        let span = &text[start..offset(lines[j]) + lines[j].len()];
        if let Ok(row) = columns.cook(span, k + 1) {
            return (Ok(row), j - k + 1);
        }
    }
    (first, 1)
}

fn contains(line: &[u8], word: &[u8]) -> bool {
    line.windows(word.len()).any(|w| w == word)
}

/// The header: the date before the title, the command line, and the totals.
fn header(lines: &[&[u8]]) -> Result<Header, Error> {
    let first = lines.first().copied().unwrap_or_default();
    let Some(title) = first.windows(TITLE.len()).position(|w| w == TITLE) else {
        return Err(error(1, "not GHC's time and allocation report"));
    };
    let mut h = Header {
        date: first[..title].trim_ascii().into(),
        ..Header::default()
    };
    let mut rest = lines
        .iter()
        .enumerate()
        .skip(1)
        .filter(|(_, l)| !l.trim_ascii().is_empty());
    if let Some((_, l)) = rest.next() {
        h.command = l.trim_ascii().into();
    }
    for (k, line) in rest.take(2) {
        let words: Vec<&str> = std::str::from_utf8(line)
            .map_err(|_| error(k + 1, "a header line that is not UTF-8"))?
            .split_whitespace()
            .collect();
        let number = |w: &str| w.trim_start_matches('(').replace(',', "");
        match words.as_slice() {
            [
                "total",
                "time",
                "=",
                secs,
                "secs",
                ticks,
                "ticks",
                "@",
                us,
                unit,
                ..,
            ] => {
                h.seconds = number(secs)
                    .parse()
                    .ok()
                    .filter(|v: &f64| v.is_finite() && *v >= 0.0)
                    .ok_or_else(|| error(k + 1, "total time"))?;
                h.ticks = number(ticks)
                    .parse()
                    .map_err(|_| error(k + 1, "total ticks"))?;
                // GHC 8.0 on: `@ 1000 us, 1 processor`; GHC 7: `@ 20 ms`.
                let scale = if unit.starts_with("ms") { 1000 } else { 1 };
                h.tick_us = number(us)
                    .parse::<u64>()
                    .map_err(|_| error(k + 1, "the tick interval"))?
                    .saturating_mul(scale);
            }
            ["total", "alloc", "=", bytes, ..] => {
                h.bytes = number(bytes)
                    .parse()
                    .map_err(|_| error(k + 1, "total alloc"))?;
            }
            _ => {}
        }
    }
    Ok(h)
}

/// Where the tree's columns start, in characters, and how many numbers end a row.
struct Columns {
    module: usize,
    /// Where `SRC` starts: GHC writes it from 8.2 on (7.x and 8.0 have no such column).
    src: Option<usize>,
    numbers: usize,
    /// The rows have `ticks` and `bytes` (`-P`).
    counted: bool,
}

/// A row, split.
struct Row<'a> {
    depth: usize,
    label: &'a [u8],
    module: &'a [u8],
    src: &'a [u8],
    /// The row's last words, as many as the header has number columns (`count`).
    numbers: [&'a str; MAX_NUMBERS],
    count: usize,
}

/// The most number columns a tree's header may have (GHC writes 6, or 8 with `-P`).
const MAX_NUMBERS: usize = 12;

impl Columns {
    fn of(header: &[u8]) -> Option<Columns> {
        let text = std::str::from_utf8(header).ok()?;
        let column = |word: &str| {
            let byte = text.find(word)?;
            Some(text[..byte].chars().count())
        };
        let numbers_at = match text.find(" SRC") {
            Some(b) => b + 4,
            None => text.find(" MODULE")? + 7,
        };
        let after: Vec<&str> = text[numbers_at..].split_whitespace().collect();
        let module = column(" MODULE")? + 1;
        let src = match text.contains(" SRC") {
            true => Some(column(" SRC")? + 1),
            false => None,
        };
        // The numbers a row must end with: `no.`, `entries` and four shares at least.
        let apart = src.is_none_or(|src| module < src);
        (apart && (6..=MAX_NUMBERS).contains(&after.len())).then_some(Columns {
            module,
            src,
            numbers: after.len(),
            counted: after.contains(&"ticks") && after.contains(&"bytes"),
        })
    }

    fn row<'a>(&self, line: &'a [u8], number: usize) -> Result<Row<'a>, Error> {
        let text =
            std::str::from_utf8(line).map_err(|_| error(number, "a row that is not UTF-8"))?;
        // Columns count characters: in an ASCII row they are bytes.
        let last = self.src.unwrap_or(self.module);
        let ascii = text.as_bytes()[..last.min(text.len())].is_ascii();
        let byte = |chars: usize| match ascii {
            true => chars.min(text.len()),
            false => text
                .char_indices()
                .nth(chars)
                .map_or(text.len(), |(b, _)| b),
        };
        let module_at = byte(self.module);
        // Without SRC, what is left of the row once its numbers are taken is the module.
        let src_at = self.src.map_or(module_at, byte);
        let depth = text.len() - text.trim_start_matches(' ').len();
        if depth >= module_at {
            return Err(error(number, "a row with no cost centre before its module"));
        }
        // The numbers are the row's last words: taken from its end.
        // Whitespace is ASCII: a byte position found is a character boundary.
        let tail = text[src_at..].trim_end();
        let bytes = tail.as_bytes();
        let mut numbers = [""; MAX_NUMBERS];
        let mut found = 0;
        let mut end = tail.len();
        while found < self.numbers {
            let Some(space) = bytes[..end].iter().rposition(u8::is_ascii_whitespace) else {
                break;
            };
            numbers[self.numbers - 1 - found] = &tail[space + 1..end];
            found += 1;
            end = space;
            while end > 0 && bytes[end - 1].is_ascii_whitespace() {
                end -= 1;
            }
        }
        // GHC before 8.0.2 could write a module that fills its column against the
        // stack's number (GHC #8811: `Language.PureScript.Parser.Declarations104457`).
        // Its reports have no SRC: there, a row one number short whose module ends in
        // digits has them as its `no.`, as ghc-prof reads it. (A module whose own name
        // ends in digits is then cut before them: no column tells the two apart.)
        let mut jammed = None;
        if found + 1 == self.numbers && self.src.is_none() {
            let word = tail[..end].trim();
            let module = word.trim_end_matches(|c: char| c.is_ascii_digit());
            if !module.is_empty() && module.len() < word.len() && !module.contains(' ') {
                numbers[0] = &word[module.len()..];
                found += 1;
                jammed = Some(module);
            }
        }
        if found < self.numbers {
            return Err(error(number, format!("{FEWER_NUMBERS} {}", self.numbers)));
        }
        let (module, src) = match self.src {
            Some(_) => (text[module_at..src_at].trim(), tail[..end].trim()),
            None => (jammed.unwrap_or(tail[..end].trim()), ""),
        };
        Ok(Row {
            depth,
            label: text[depth..module_at].trim_end().as_bytes(),
            module: module.as_bytes(),
            src: src.as_bytes(),
            numbers,
            count: self.numbers,
        })
    }
}

/// A row read, its numbers parsed and its cost centre hashed: all that can be done of a
/// row before the rows above it are placed.
struct Cooked<'a> {
    depth: usize,
    label: &'a [u8],
    module: &'a [u8],
    src: &'a [u8],
    /// [`centre_hash`] of the three.
    hash: u64,
    number: u64,
    entries: u64,
    /// `ticks` and `bytes` when the report has them (`-P`).
    counts: Option<(f64, f64)>,
    /// Individual `%time` and `%alloc`.
    shares: (f64, f64),
}

impl Columns {
    fn cook<'a>(&self, line: &'a [u8], number: usize) -> Result<Cooked<'a>, Error> {
        let row = self.row(line, number)?;
        let n = &row.numbers;
        // The column is quoted as every input is in a message: escaped and cut short.
        let shown = |k: usize| crate::escape::excerpt(n[k].as_bytes());
        let int = |k: usize, what: &str| -> Result<u64, Error> {
            n[k].parse()
                .map_err(|_| error(number, format!("{what} `{}` is not a count", shown(k))))
        };
        // A share is a finite figure of 0 or more: `NaN` and `inf` parse as numbers but
        // would reach the pictures as `nan` coordinates.
        let real = |k: usize, what: &str| -> Result<f64, Error> {
            n[k].parse()
                .ok()
                .filter(|v: &f64| v.is_finite() && *v >= 0.0)
                .ok_or_else(|| {
                    error(
                        number,
                        format!("{what} `{}` is not a share (a number, 0 or more)", shown(k)),
                    )
                })
        };
        let counts = if row.count >= 8 {
            Some((int(6, "ticks")? as f64, int(7, "bytes")? as f64))
        } else {
            None
        };
        Ok(Cooked {
            depth: row.depth,
            label: row.label,
            module: row.module,
            src: row.src,
            hash: centre_hash(row.label, row.module, row.src),
            number: int(0, "no.")?,
            entries: int(1, "entries")?,
            counts,
            shares: (real(2, "%time")?, real(3, "%alloc")?),
        })
    }
}

/// A cost centre's hash, by its three parts.
fn centre_hash(label: &[u8], module: &[u8], src: &[u8]) -> u64 {
    let mut h = FxHasher::default();
    for part in [label, module, src] {
        h.write(part);
        h.write_u8(0xff);
    }
    h.finish()
}

/// The tree as it is read: the stacks, the cost centres each once, and the path of
/// (depth, stack) from the root to the last row.
#[derive(Default)]
struct Tree {
    stacks: Vec<Stack>,
    /// Individual `%time` and `%alloc` of each stack, for `-p`.
    shares: Vec<(f64, f64)>,
    centres: Vec<CostCentre>,
    /// The cost centres by label, module and source: indices into `centres`.
    index: HashTable<u32>,
    path: Vec<(usize, u32)>,
    /// Each label and module once.
    strings: crate::profile::hash::FxMap<Box<[u8]>, std::sync::Arc<[u8]>>,
    /// The most stacks read ([`MAX_STACKS`]).
    max_stacks: usize,
}

impl Tree {
    fn add(&mut self, row: Cooked, line: usize) -> Result<(), Error> {
        if self.stacks.len() >= self.max_stacks {
            return Err(error(
                line,
                format!("more than {} cost-centre stacks", self.max_stacks),
            ));
        }
        while self.path.last().is_some_and(|&(d, _)| d >= row.depth) {
            self.path.pop();
        }
        // GHC indents a callee one space past its caller: more is a damaged tree, whose
        // rows would be hung under the wrong callers.
        if let Some(&(d, _)) = self.path.last()
            && row.depth > d + 1
        {
            return Err(error(line, "indentation skips a level"));
        }
        if self.path.len() >= MAX_DEPTH {
            return Err(error(
                line,
                format!("a stack deeper than {MAX_DEPTH} cost centres"),
            ));
        }
        let centre = self.centre(&row, line)?;
        let (ticks, bytes) = row.counts.unwrap_or((0.0, 0.0));
        let stack = Stack {
            centre,
            parent: self.path.last().map(|&(_, s)| s),
            number: row.number,
            entries: row.entries,
            ticks,
            bytes,
        };
        // What a `-p` row's figures are estimated from; `-P`'s rows are counted.
        if row.counts.is_none() {
            self.shares.push(row.shares);
        }
        self.path.push((row.depth, self.stacks.len() as u32));
        self.stacks.push(stack);
        Ok(())
    }

    fn centre(&mut self, row: &Cooked, line: usize) -> Result<u32, Error> {
        let key = row.hash;
        let centres = &self.centres;
        let same = |&k: &u32| {
            let c = &centres[k as usize];
            (&*c.label, &*c.module, &*c.src) == (row.label, row.module, row.src)
        };
        if let Some(&k) = self.index.find(key, same) {
            return Ok(k);
        }
        if self.centres.len() >= MAX_CENTRES {
            return Err(error(line, format!("more than {MAX_CENTRES} cost centres")));
        }
        let k = self.centres.len() as u32;
        let mut shared = |text: &[u8]| match self.strings.get(text) {
            Some(kept) => kept.clone(),
            None => {
                let kept: std::sync::Arc<[u8]> = text.into();
                self.strings.insert(text.into(), kept.clone());
                kept
            }
        };
        let (label, module) = (shared(row.label), shared(row.module));
        self.centres.push(CostCentre {
            label,
            module,
            src: row.src.into(),
        });
        let centres = &self.centres;
        let rehash = |&k: &u32| {
            let c = &centres[k as usize];
            centre_hash(&c.label, &c.module, &c.src)
        };
        self.index.insert_unique(key, k, rehash);
        Ok(k)
    }

    fn finish(mut self, h: Header, counted: bool) -> CostProfile {
        if !counted {
            // A share of 0.1% is no count: each estimate is a whole tick or byte (the
            // rows' sum then falls short of the header's total by what GHC's rounding
            // of each share to 0.1% lost, as the shares' sum falls short of 100).
            for (s, (time, alloc)) in self.stacks.iter_mut().zip(&self.shares) {
                s.ticks = (time / 100.0 * h.ticks as f64).round();
                s.bytes = (alloc / 100.0 * h.bytes as f64).round();
            }
        }
        CostProfile {
            command: h.command,
            date: h.date,
            seconds: h.seconds,
            total_ticks: h.ticks,
            tick_us: h.tick_us,
            total_bytes: h.bytes,
            centres: self.centres,
            stacks: self.stacks,
            precision: if counted {
                Precision::Counted
            } else {
                Precision::Percentages
            },
        }
    }
}

/// A report, text or JSON, read into the shared model ([`profile`]) as `options` say
/// (its measure, whether its stacks are named as bands); the rows a cut file lost
/// become warnings.
pub fn read(bytes: &[u8], options: super::Options) -> Result<super::Parsed, Error> {
    Ok(model_of(read_report(bytes)?, options))
}

/// A report, text or JSON, read: its tree and what a cut file lost. Nothing of it
/// borrows `bytes`, which the caller can let go of before the model is made.
pub fn read_report(bytes: &[u8]) -> Result<Read, Error> {
    read_report_releasing(bytes, &mut |_| {})
}

/// [`read_report`], telling `release` of the text read as it goes (a text report's
/// rows; JSON is read whole first).
pub fn read_report_releasing(bytes: &[u8], release: Release) -> Result<Read, Error> {
    if json::is_report(bytes) {
        json::parse(bytes)
    } else {
        parse_within(bytes, MAX_STACKS, release)
    }
}

/// The shared model of a report read ([`read_report`]), weighed by `options.measure`,
/// its stacks named as bands where `options.bands` asks.
pub fn model_of(r: Read, options: super::Options) -> super::Parsed {
    let mut costs = r.profile;
    let labels_cut = model::cut_labels(&mut costs);
    let tree = std::sync::Arc::new(costs);
    let (model, cut) = match options.bands {
        true => model::profile_and_cut(&tree, options.measure),
        false => (model::without_bands(&tree, options.measure), false),
    };
    let mut parsed = super::Parsed {
        profile: crate::profile::Model::Costs(crate::profile::Costs {
            tree: Some(tree.clone()),
            ..model
        }),
        warnings: Vec::new(),
        runtime_only: false,
    };
    if labels_cut {
        super::warn_once(&mut parsed.warnings, super::WarningKind::LabelCut);
    }
    if cut {
        super::warn_once(&mut parsed.warnings, super::WarningKind::NameCut);
    }
    for (line, what) in r.warnings {
        parsed.warnings.push(super::Warning {
            line: Some(line as u64),
            kind: super::WarningKind::CutReport(what),
        });
    }
    parsed
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: &str = "\tWed Nov 25 23:56 2026 Time and Allocation Profiling Report  (Final)

\t   main +RTS -P -RTS

\ttotal time  =        0.05 secs   (50 ticks @ 1000 us, 1 processor)
\ttotal alloc = 151,575,736 bytes  (excludes profiling overheads)

COST CENTRE MODULE SRC              %time %alloc  ticks     bytes

step        Main   Main.hs:6:1-46    92.0   95.5     46 144783008


                                                                             individual      inherited
COST CENTRE  MODULE                SRC                    no.     entries  %time %alloc   %time %alloc  ticks     bytes

MAIN         MAIN                  <built-in>             148           0    0.0    0.0   100.0  100.0      0       816
 CAF         Main                  <entire-module>        295           0    0.0    0.0   100.0  100.0      0        16
  main       Main                  Main.hs:(18,1)-(21,16) 296           1    0.0    0.0   100.0  100.0      0      1168
   fib       Main                  Main.hs:12:1-60        302      150049    2.0    1.3     2.0    1.3      1   1942272
   main.m    Main                  Main.hs:19:7-22        298           1    0.0    0.0    98.0   98.7      0         0
    step     Main                  <no location info>     300 12345678901   92.0   95.5    92.0   95.5     46 144783008
 CAF         GHC.IO.Handle.FD      <entire-module>        242           0    0.0    0.0     0.0    0.0      0     34816
";

    /// `MAX_STACKS` is reached only by a report of gigabytes: the same check with a
    /// smaller bound stops at the row past it, naming its line, and a report exactly at
    /// the bound reads.
    #[test]
    fn a_report_past_its_stack_bound_is_an_error_naming_the_row() {
        let e = parse_within(P.as_bytes(), 4, &mut |_| {}).expect_err("past the bound");
        assert_eq!(e.line, 20, "main.m, the fifth stack");
        assert!(
            e.what.contains("more than 4 cost-centre stacks"),
            "{}",
            e.what
        );
        assert_eq!(
            parse_within(P.as_bytes(), 7, &mut |_| {})
                .unwrap()
                .profile
                .stacks
                .len(),
            7
        );
    }

    #[test]
    fn a_p_report_reads_as_its_tree() {
        assert!(is_report(P.as_bytes()));
        let r = parse(P.as_bytes()).unwrap();
        let p = &r.profile;
        assert!(r.warnings.is_empty());
        assert_eq!(&*p.command, b"main +RTS -P -RTS");
        assert_eq!(&*p.date, b"Wed Nov 25 23:56 2026");
        assert_eq!(
            (p.seconds, p.total_ticks, p.tick_us, p.total_bytes),
            (0.05, 50, 1000, 151_575_736)
        );
        assert_eq!(p.stacks.len(), 7);
        assert!(p.exact());
        let names: Vec<Vec<u8>> = p
            .path(5)
            .iter()
            .map(|&c| p.centres[c as usize].name())
            .collect();
        assert_eq!(
            names,
            [
                &b"MAIN.MAIN"[..],
                b"Main.CAF",
                b"Main.main",
                b"Main.main.m",
                b"Main.step"
            ]
        );
        let step = p.stacks[5];
        assert_eq!(
            (step.entries, step.ticks, step.bytes),
            (12_345_678_901, 46.0, 144_783_008.0)
        );
        assert_eq!(&*p.centres[step.centre as usize].src, b"<no location info>");
        assert_eq!(p.stacks[6].parent, Some(0), "a CAF of the root");
        let bytes = p.inherited(|s| s.bytes);
        assert_eq!(
            bytes[0],
            816.0 + 16.0 + 1168.0 + 1_942_272.0 + 144_783_008.0 + 34816.0
        );
    }

    #[test]
    fn percentages_give_shares_of_the_totals_and_a_cut_file_its_rows() {
        let p = P
            .replace("  ticks     bytes\n\nMAIN", "\n\nMAIN")
            .lines()
            .map(|l| {
                if l.len() > 100 && !l.starts_with("COST") {
                    l[..l.len() - 17].trim_end().to_string()
                } else {
                    l.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join("\n");
        let r = parse(p.as_bytes()).unwrap();
        assert_eq!(r.profile.precision, Precision::Percentages);
        assert_eq!(r.profile.stacks[3].ticks, 2.0 / 100.0 * 50.0);
        let cut = &P[..P.len() - 40];
        let r = parse(cut.as_bytes()).unwrap();
        assert_eq!(r.profile.stacks.len(), 6);
        assert_eq!(r.warnings.len(), 1);
        assert_eq!(r.warnings[0].0, 22, "the last row, cut");
    }

    #[test]
    fn malformed_rows_are_errors_naming_their_line() {
        let bad = P.replace("     46 144783008\n CAF", "     4x 144783008\n CAF");
        let e = parse(bad.as_bytes()).unwrap_err();
        assert_eq!(e.line, 21, "the row of step");
        assert!(e.what.contains("ticks"), "{e}");
        assert_eq!(parse(b"JOB \"x\"\n").unwrap_err().line, 1);
    }

    /// The header of the test report `P` and its `MAIN` row, for rows to follow.
    fn head_and_main() -> String {
        let (head, _) = P.split_at(P.find("MAIN ").unwrap());
        let mut text = head.to_string();
        text.push_str(
            "MAIN         MAIN                  <built-in>             148           0    0.0    0.0   100.0  100.0      0       816\n",
        );
        text
    }

    /// A row whose label holds a line break, its first line the last of a block read on
    /// one thread and its second the first of the next block: the next block is read
    /// again from where the row ends, and every row stands where one thread puts it. The
    /// text behind each block is released as it is taken in, at line starts, in order.
    #[test]
    fn a_row_across_two_blocks_reads_whole_and_the_text_behind_is_released() {
        let mut text = head_and_main();
        let rows = BLOCK_ROWS + 100;
        // The MAIN row is the first of block 0: row k is its line k + 1.
        let across = BLOCK_ROWS - 2;
        for k in 0..rows {
            let depth = 1 + k % 5;
            // Columns as the header places them, counted from the row's first line with
            // its line break: MODULE at 13, SRC at 35.
            let label = match k == across {
                true => format!("{:depth$}g\nh{:pad$}", "", "", pad = 13 - depth - 3),
                false => format!("{:<13}", format!("{:depth$}f{k}", "")),
            };
            text.push_str(&format!(
                "{label}{:<22}Main.hs:{k}:1-9 {k:>9}           1    0.0    0.0     0.0    0.0      1      8\n",
                "Main",
            ));
        }
        let mut released = Vec::new();
        let r = parse_within(text.as_bytes(), MAX_STACKS, &mut |o| released.push(o)).unwrap();
        assert_eq!(r.profile.stacks.len(), rows + 1);
        let label = |k: usize| &*r.profile.centres[r.profile.stacks[k + 1].centre as usize].label;
        assert_eq!(label(across), b"g\nh");
        assert_eq!(label(across + 1), format!("f{}", across + 1).as_bytes());
        assert_eq!(label(rows - 1), format!("f{}", rows - 1).as_bytes());
        for (k, s) in r.profile.stacks.iter().enumerate().skip(1) {
            let depth = 1 + (k - 1) % 5;
            let parent = if depth == 1 { 0 } else { k - 1 };
            assert_eq!(s.parent, Some(parent as u32), "row {k}");
        }
        if std::thread::available_parallelism().map_or(1, |n| n.get()) > 1 {
            assert!(!released.is_empty());
        }
        assert!(released.windows(2).all(|w| w[0] < w[1]), "{released:?}");
        assert!(
            released
                .iter()
                .all(|&o| o <= text.len() && text.as_bytes()[o - 1] == b'\n')
        );
    }

    /// A report of more rows than [`PARALLEL_ROWS`] is read on several threads: the
    /// same tree as one thread reads, a bad row's line named as ever, a cut last row a
    /// warning.
    #[test]
    fn a_large_report_reads_alike_on_threads() {
        let mut text = head_and_main();
        let rows = PARALLEL_ROWS * 2 + 7;
        for k in 0..rows {
            let depth = 1 + k % 5;
            // Columns as the header places them: MODULE at 13, SRC at 35.
            let label = format!("{:depth$}f{k}", "");
            text.push_str(&format!(
                "{label:<13}{:<22}Main.hs:{k}:1-9 {k:>9}           1    0.0    0.0     0.0    0.0      {}      {}\n",
                "Main",
                k % 3,
                k * 8,
            ));
        }
        let r = parse(text.as_bytes()).unwrap();
        assert_eq!(r.profile.stacks.len(), rows + 1);
        let ticks: f64 = r.profile.stacks.iter().map(|s| s.ticks).sum();
        let last = &r.profile.centres[r.profile.stacks[rows].centre as usize];
        assert_eq!(&*last.label, format!("f{}", rows - 1).as_bytes());
        assert_eq!(&*last.module, b"Main");
        assert_eq!(ticks, (0..rows).map(|k| (k % 3) as f64).sum::<f64>());
        // A row's parent is the row above it one level out, across the threads' chunks.
        for (k, s) in r.profile.stacks.iter().enumerate().skip(1) {
            let depth = 1 + (k - 1) % 5;
            let parent = if depth == 1 { 0 } else { k - 1 };
            assert_eq!(s.parent, Some(parent as u32), "row {k}");
        }
        // A bad row far into the file.
        let lines: Vec<&str> = text.lines().collect();
        let bad_at = lines.len() - 100;
        let mut bad = lines.clone();
        let broken = bad[bad_at].replace("Main.hs", "Main.hs x");
        let broken = broken.replacen("      1    0.0", "      q    0.0", 1);
        bad[bad_at] = &broken;
        let e = parse((bad.join("\n") + "\n").as_bytes()).unwrap_err();
        assert_eq!(e.line, bad_at + 1, "{e}");
        // Cut inside its last row.
        let cut = &text[..text.len() - 30];
        let r = parse(cut.as_bytes()).unwrap();
        assert_eq!(r.profile.stacks.len(), rows);
        assert_eq!(r.warnings[0].0, lines.len());
    }
}
