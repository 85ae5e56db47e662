//! Blocks of the runtime's global buffer whose events do not chain to the block's end,
//! read apart again.
//!
//! GHC's runtime writes the heap census, the cost centres, the heap's size and the
//! cost-centre profiler's samples to one global buffer. In a non-threaded runtime its
//! lock is no lock, and the profiler's timer writes its sample (`PROF_SAMPLE_COST_CENTRE`)
//! from the ticker's thread whenever a tick comes: in GHC 9.0 a busy `-hc -p -l` run has
//! one written *inside* a census event in about half its runs. The inner event is whole;
//! the outer one goes on after it. Read by the declared lengths, the block goes wrong at
//! the outer event and everything after it is garbage.
//!
//! A block's length is written when the buffer is flushed, so it counts every byte, the
//! inner event's too: a block read right ends exactly at its end. [`chains`] tells that
//! with one walk (every healthy block, a type lookup an event). A block that does not is
//! laid out again by [`repair`]: at the first event whose declared reading does not lead
//! to the block's end, an inner event is looked for inside it — a declared type, a time
//! within the block's, fields that fit — such that the outer event, its bytes joined
//! around it, is well formed and the events after it chain to the end. Where no such
//! reading exists (bytes truly lost: two writers racing on one byte), the bytes up to the
//! next place from which the events chain to the end are passed over and counted.

use super::format::{DATA_END, EVENT_HEADER, id};
use super::{ErrorKind, Sizes, UNDECLARED, VARIABLE};

/// The most places in one block where an inner event is looked for before the rest of
/// the block's damage is only passed over: each look tries every byte of an event (up
/// to 64 kB), and a hostile block could be damaged at each of its events.
pub const MAX_SPLICE_TRIES: usize = 256;

/// One event of a block laid out again: where it starts in the block, its type, its time
/// and its payload (joined from two pieces when another was written inside it).
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Event {
    pub at: usize,
    /// Its whole length in the block (for an outer event, without the inner one).
    pub len: usize,
    pub ty: u16,
    pub time: u64,
    pub body: Vec<u8>,
}

/// A damaged block's events as they were meant, and what could not be read of it.
#[derive(Debug, Default, PartialEq)]
pub(super) struct Repaired {
    pub events: Vec<Event>,
    /// Events found written inside another, and read apart.
    pub spliced: usize,
    /// Bytes passed over, in how many places, and where the first of them is in the
    /// block with what is wrong there.
    pub lost: u64,
    pub places: usize,
    pub first_lost: Option<(usize, ErrorKind)>,
    /// The block ends with the data-end marker.
    pub data_end: bool,
}

/// What is wrong with the event at `r` of `b`, a block that ends at `block_end` in the
/// file.
fn cause(sizes: &Sizes, b: &[u8], r: usize, block_end: u64) -> ErrorKind {
    let past = ErrorKind::PastBlockEnd { block_end };
    let Some(ty) = b.get(r..r + 2).map(|t| u16::from_be_bytes([t[0], t[1]])) else {
        return past;
    };
    if sizes.size(ty) == UNDECLARED || ty == id::BLOCK_MARKER {
        return ErrorKind::UndeclaredEvent(ty);
    }
    match extent(sizes, b, r) {
        None => past,
        Some((start, len)) => ErrorKind::ShortPayload {
            event: ty,
            len: len - start,
        },
    }
}

/// The window of time a block's events are in: its marker's time to its end time; and
/// whether the input ends inside the block (`cut`: its bytes end where the input does).
#[derive(Debug, Clone, Copy)]
pub(super) struct Window {
    pub start: u64,
    pub end: u64,
    pub cut: bool,
}

impl Window {
    fn holds(self, t: u64) -> bool {
        (self.start..=self.end).contains(&t)
    }
}

/// The event at `r` of `b`, as its type and header declare it: its payload's start and
/// its whole length; `None` when its type is not declared, it is a block marker, or it
/// runs past `b`'s end.
fn extent(sizes: &Sizes, b: &[u8], r: usize) -> Option<(usize, usize)> {
    let ty = u16::from_be_bytes(b.get(r..r + 2)?.try_into().ok()?);
    if ty == id::BLOCK_MARKER || ty == DATA_END {
        return None;
    }
    let (start, len) = match sizes.size(ty) {
        UNDECLARED => return None,
        VARIABLE => {
            let n = u16::from_be_bytes(
                b.get(r + EVENT_HEADER..r + EVENT_HEADER + 2)?
                    .try_into()
                    .ok()?,
            );
            let start = EVENT_HEADER + 2;
            let n = usize::from(n);
            let payload = b.get(r + start..r + start + n)?;
            let n = if ty == id::IPE {
                super::ipe_length(payload)?
            } else {
                n
            };
            (start, n)
        }
        n => (EVENT_HEADER, n as usize),
    };
    (r + start + len <= b.len()).then_some((start, start + len))
}

fn time_at(b: &[u8], r: usize) -> Option<u64> {
    Some(u64::from_be_bytes(
        b.get(r + 2..r + EVENT_HEADER)?.try_into().ok()?,
    ))
}

/// Whether `b` ends its chain at `r`: its end, the data-end marker that is its last two
/// bytes, or in a block the input's end cuts, the event it cuts ([`cut_at`]).
fn ends(sizes: &Sizes, b: &[u8], r: usize, w: Window) -> bool {
    r == b.len()
        || (r + 2 == b.len() && b[r..] == DATA_END.to_be_bytes())
        || (w.cut && cut_at(sizes, b, r, w))
}

/// Whether the event at `r` is the one the input's end cuts: it runs past `b`'s end, and
/// what of it is there starts as an event does (a declared type, a time in the block's).
fn cut_at(sizes: &Sizes, b: &[u8], r: usize, w: Window) -> bool {
    let Some(ty) = b.get(r..r + 2).map(|t| u16::from_be_bytes([t[0], t[1]])) else {
        return r <= b.len(); // a type cut in two
    };
    sizes.size(ty) != UNDECLARED
        && ty != id::BLOCK_MARKER
        && time_at(b, r).is_none_or(|t| w.holds(t))
        && extent(sizes, b, r).is_none()
}

/// Where the event at `r` ends if it is plausible: declared, within `b`, its time within
/// the block's and its fields as its type has them.
fn step(sizes: &Sizes, b: &[u8], r: usize, w: Window) -> Option<usize> {
    let (start, len) = extent(sizes, b, r)?;
    let ty = u16::from_be_bytes([b[r], b[r + 1]]);
    let time = time_at(b, r)?;
    (w.holds(time) && well_formed(sizes, ty, &b[r + start..r + len])).then_some(r + len)
}

/// Whether the events of `b` (a block's bytes after its marker; `w` its window), read
/// by their declared lengths, are plausible and end exactly at its end. (Lengths alone
/// do not tell: a reading gone wrong often falls back into step with the events after a
/// few of them, as a misread instruction stream does.)
///
/// A block that chains fixes what its [`CHECKED`] types carry past their fields, where
/// not yet known, at nothing ([`Trailing`]).
pub(super) fn chains(sizes: &Sizes, b: &[u8], w: Window) -> bool {
    let mut r = 0;
    let mut seen = [false; 4];
    while !ends(sizes, b, r, w) {
        if let Some(k) = b
            .get(r..r + 2)
            .and_then(|t| checked(u16::from_be_bytes([t[0], t[1]])))
        {
            seen[k] = true;
        }
        match step(sizes, b, r, w) {
            Some(next) => r = next,
            None => return false,
        }
    }
    for (k, _) in seen.iter().enumerate().filter(|(_, s)| **s) {
        if sizes.trailing.get(k).is_none() {
            sizes.trailing.set(k, 0);
        }
    }
    true
}

/// The census event types whose length their fields fix, in [`Trailing`]'s order: the
/// census's samples (by stack and by name), the profiler's samples, the cost centres.
const CHECKED: [u16; 4] = [
    id::HEAP_PROF_SAMPLE_COST_CENTRE,
    id::PROF_SAMPLE_COST_CENTRE,
    id::HEAP_PROF_SAMPLE_STRING,
    id::HEAP_PROF_COST_CENTRE,
];

/// Where `ty` is in [`CHECKED`].
fn checked(ty: u16) -> Option<usize> {
    CHECKED.iter().position(|&c| c == ty)
}

/// The bytes past the fields this reader knows of each [`CHECKED`] type that this
/// eventlog's events carry: none in every GHC to 9.10, but a later GHC may add a field at
/// the end of one (as ghc-events reads an event by its declared length, whatever it
/// holds past the fields it knows). Taken as none until the eventlog shows otherwise: a
/// block that chains with the type's events exact fixes it at none ([`chains`]); a block
/// that does not, where most of the type's events found in it, two at least, are as
/// much longer, teaches that length ([`learns`]). An event written inside another makes
/// the outer one longer by the inner one's length alone, where its neighbours are not:
/// it teaches nothing, and is still found and read apart.
#[derive(Debug, Default, Clone)]
pub(super) struct Trailing(std::cell::Cell<[Option<u16>; 4]>);

impl Trailing {
    fn get(&self, k: usize) -> Option<u16> {
        self.0.get()[k]
    }

    fn set(&self, k: usize, n: u16) {
        let mut all = self.0.get();
        all[k] = Some(n);
        self.0.set(all);
    }
}

/// The bytes of a payload `p` of the [`CHECKED`] type `k` past the fields GHC writes for
/// it, or `None` where the fields do not fit in it.
fn excess(k: usize, p: &[u8]) -> Option<usize> {
    let nul_after = |from: usize, n: usize| {
        let mut at = from;
        for _ in 0..n {
            at += p.get(at..)?.iter().position(|&c| c == 0)? + 1;
        }
        Some(at)
    };
    let end = match CHECKED[k] {
        id::HEAP_PROF_SAMPLE_COST_CENTRE => 10 + 4 * usize::from(*p.get(9)?),
        id::PROF_SAMPLE_COST_CENTRE => 13 + 4 * usize::from(*p.get(12)?),
        id::HEAP_PROF_SAMPLE_STRING => nul_after(9, 1)?,
        _ => nul_after(4, 3)? + 1, // three names, then the flags' byte
    };
    p.len().checked_sub(end)
}

/// Whether a payload of type `ty` has the fields GHC writes for it, and past them the
/// bytes this eventlog's events of the type carry ([`Trailing`]), for the types whose
/// length their fields fix ([`CHECKED`]). Any other type's payload is taken as it is.
fn well_formed(sizes: &Sizes, ty: u16, p: &[u8]) -> bool {
    let Some(k) = checked(ty) else {
        return true;
    };
    let Some(e) = excess(k, p) else {
        return false;
    };
    e == usize::from(sizes.trailing.get(k).unwrap_or(0))
}

/// Whether `b` (a block that does not chain; `w` its window) teaches what a [`CHECKED`]
/// type not yet known carries past its fields ([`Trailing`]): of the events of the type
/// found anywhere in it (its type, a time in the block's, a declared length within it,
/// its fields fitting), most, two at least, are as much longer. The block is searched,
/// not read in order, so that the event written into may be the first of its kind: the
/// outer event is then longer by the inner one, one vote among many. What it learns
/// stays for the rest of the eventlog; the block is then checked again, and read apart
/// if it must be.
pub(super) fn learns(sizes: &Sizes, b: &[u8], w: Window) -> bool {
    let unknown = |k: &usize| sizes.trailing.get(*k).is_none();
    if !(0..CHECKED.len()).any(|k| unknown(&k)) {
        return false;
    }
    // Per type: each length past the fields found, with how many events had it.
    let mut seen: [Vec<(usize, usize)>; 4] = Default::default();
    for r in 0..b.len().saturating_sub(EVENT_HEADER) {
        let ty = u16::from_be_bytes([b[r], b[r + 1]]);
        let Some(k) = checked(ty).filter(unknown) else {
            continue;
        };
        if !time_at(b, r).is_some_and(|t| w.holds(t)) {
            continue;
        }
        let Some(e) =
            extent(sizes, b, r).and_then(|(start, len)| excess(k, &b[r + start..r + len]))
        else {
            continue;
        };
        let lengths = &mut seen[k];
        match lengths.iter().position(|&(x, _)| x == e) {
            Some(i) => lengths[i].1 += 1,
            None if lengths.len() < MAX_LENGTHS_SEEN => lengths.push((e, 1)),
            None => {}
        }
    }
    let mut learned = false;
    for (k, lengths) in seen.iter().enumerate() {
        let all: usize = lengths.iter().map(|l| l.1).sum();
        let most = lengths.iter().max_by_key(|l| l.1);
        if let Some(&(e, n)) = most
            && e > 0
            && n >= 2
            && 2 * n > all
            && let Ok(e) = u16::try_from(e)
        {
            sizes.trailing.set(k, e);
            learned = true;
        }
    }
    learned
}

/// The most distinct lengths past a type's fields [`learns`] counts in one block: the
/// true one comes among the first; odd finds are not weighed past these.
const MAX_LENGTHS_SEEN: usize = 16;

/// Per place in `b`, whether the events read from there by their declared lengths are
/// plausible and end exactly at `b`'s end, and how many read plausibly from there (up
/// to [`TRUSTED`]; worked out from the end back, once).
fn chaining(sizes: &Sizes, b: &[u8], w: Window) -> (Vec<bool>, Vec<u8>) {
    let mut good = vec![false; b.len() + 1];
    let mut runs = vec![TRUSTED; b.len() + 1];
    good[b.len()] = true;
    for r in (0..b.len()).rev() {
        if ends(sizes, b, r, w) {
            good[r] = true;
            continue;
        }
        let next = step(sizes, b, r, w);
        good[r] = next.is_some_and(|next| good[next]);
        runs[r] = next.map_or(0, |next| runs[next].saturating_add(1).min(TRUSTED));
    }
    (good, runs)
}

/// After an event found written inside another, this many events that read plausibly
/// (or the block's end) make the reading taken: the block need not chain to its end
/// from there, so that bytes truly lost later in the block (two writers racing) leave
/// the inner events before them still read apart. Garbage reads as a few plausible
/// events at most (a type, a time within the block's, fields that fit, each time).
const TRUSTED: u8 = 32;

/// The event read at `r` by its declared length, if it is plausible: its time within
/// the block's and its fields as its type has them.
fn plausible(sizes: &Sizes, b: &[u8], r: usize, w: Window) -> Option<Event> {
    let (start, len) = extent(sizes, b, r)?;
    let ty = u16::from_be_bytes([b[r], b[r + 1]]);
    let time = time_at(b, r).filter(|&t| w.holds(t))?;
    let body = &b[r + start..r + len];
    well_formed(sizes, ty, body).then(|| Event {
        at: r,
        len,
        ty,
        time,
        body: body.to_vec(),
    })
}

/// Events read after a place bytes were lost at, for the reading to go on from there:
/// few, so that damage every few events still loses only the damaged ones.
const RESUME: usize = 3;

/// Whether the events from `r` on read plausibly for `n` events, or to the end.
fn reads_for(sizes: &Sizes, b: &[u8], mut r: usize, w: Window, n: usize) -> bool {
    for _ in 0..n {
        if ends(sizes, b, r, w) {
            return true;
        }
        match plausible(sizes, b, r, w) {
            Some(e) => r += e.len,
            None => return false,
        }
    }
    true
}

/// An event at `r` with another written whole inside it: the outer event (its bytes
/// joined around the inner one), the inner one, and where the outer ends in `b`. The
/// first such reading that `follows` accepts the place after of.
fn splice(
    sizes: &Sizes,
    b: &[u8],
    r: usize,
    w: Window,
    follows: &mut dyn FnMut(usize) -> bool,
) -> Option<(Event, Event, usize)> {
    // The longest an outer event can be: a variable-size one's header and 64 kB.
    let last = b.len().min(r + EVENT_HEADER + 2 + usize::from(u16::MAX));
    for s in r + 1..last {
        let Some(inner) = plausible(sizes, b, s, w) else {
            continue;
        };
        let m = inner.len;
        // The outer event's bytes with the inner one taken out.
        let head = &b[r..s];
        let tail = &b[s + m..];
        let byte = |k: usize| -> Option<u8> {
            if k < head.len() {
                Some(head[k])
            } else {
                tail.get(k - head.len()).copied()
            }
        };
        let (Some(t0), Some(t1)) = (byte(0), byte(1)) else {
            continue;
        };
        let ty = u16::from_be_bytes([t0, t1]);
        let (start, len) = match sizes.size(ty) {
            UNDECLARED => continue,
            _ if ty == id::BLOCK_MARKER || ty == DATA_END || ty == id::IPE => continue,
            VARIABLE => {
                let (Some(h), Some(l)) = (byte(EVENT_HEADER), byte(EVENT_HEADER + 1)) else {
                    continue;
                };
                (EVENT_HEADER + 2, usize::from(u16::from_be_bytes([h, l])))
            }
            n => (EVENT_HEADER, n as usize),
        };
        let whole = start + len;
        // The inner event starts inside the outer one, and the outer ends within `b`.
        if s - r >= whole || r + whole + m > b.len() {
            continue;
        }
        let bytes: Vec<u8> = head
            .iter()
            .chain(&tail[..whole - head.len()])
            .copied()
            .collect();
        let time = u64::from_be_bytes(bytes[2..EVENT_HEADER].try_into().expect("8 bytes"));
        let body = bytes[start..].to_vec();
        if !w.holds(time) || !well_formed(sizes, ty, &body) {
            continue;
        }
        let end = r + whole + m;
        if follows(end) {
            let outer = Event {
                at: r,
                len: whole,
                ty,
                time,
                body,
            };
            return Some((outer, inner, end));
        }
    }
    None
}

/// What [`read_to_good`] reads with: the block, its window, where its events chain
/// from, and the looks for an inner event left.
struct Reading<'a> {
    sizes: &'a Sizes,
    b: &'a [u8],
    w: Window,
    good: Vec<bool>,
    /// How many events read plausibly from each place ([`chaining`]).
    runs: Vec<u8>,
    tries: usize,
}

/// How many events written inside others, one after another in a block, are looked for
/// to explain one stretch that does not read (each must be found to explain the one
/// before it).
const MAX_NESTED: usize = 4;

/// The events from `r` on, up to a place from which they chain to the block's end, with
/// the inner events found on the way (in file order, each outer event before its inner
/// one): the declared reading is followed as far as it reads plausibly, and the event
/// written around another is one of the last [`LOOKBACK`] read before it stops (the
/// garbage after a misread outer event can itself read for an event or two). After
/// one, the events must chain to the end or read plausibly for [`TRUSTED`] events, or
/// (`depth` more times) be explained so again. `None` where no such reading is found.
fn read_to_good(x: &mut Reading, r: usize, depth: usize) -> Option<(Vec<Event>, usize, usize)> {
    let (mut read, q) = read_on(x.sizes, x.b, x.w, r, Some(&x.good));
    if x.good[q] || ends(x.sizes, x.b, q, x.w) {
        return Some((read, q, 0));
    }
    for j in (read.len().saturating_sub(LOOKBACK)..=read.len()).rev() {
        if x.tries >= MAX_SPLICE_TRIES {
            return None;
        }
        x.tries += 1;
        let at = read.get(j).map_or(q, |e| e.at);
        let mut after = None;
        let (sizes, b, w) = (x.sizes, x.b, x.w);
        let found = {
            let mut follows = |end: usize| {
                if x.good[end] || x.runs[end] >= TRUSTED {
                    after = Some((Vec::new(), end, 0));
                    true
                } else if depth > 0 {
                    after = read_to_good(x, end, depth - 1);
                    after.is_some()
                } else {
                    false
                }
            };
            splice(sizes, b, at, w, &mut follows)
        };
        if let (Some((outer, inner, _)), Some((rest, end, spliced))) = (found, after) {
            read.truncate(j);
            read.push(outer);
            read.push(inner);
            read.extend(rest);
            return Some((read, end, spliced + 1));
        }
    }
    None
}

/// The events of a damaged block `b` (its bytes after its marker; `w` its window), laid
/// out as they were meant where that can be found ([`read_to_good`]), the rest passed
/// over and counted: where no reading explains a stretch, the last event read before it
/// is taken as the damaged one (its length led into what does not read), and the bytes
/// from it to the next place the events read from again are lost.
pub(super) fn repair(sizes: &Sizes, b: &[u8], w: Window, block_end: u64) -> Repaired {
    let (good, runs) = chaining(sizes, b, w);
    let mut x = Reading {
        sizes,
        b,
        w,
        good,
        runs,
        tries: 0,
    };
    let mut out = Repaired::default();
    let mut r = 0;
    while !ends(sizes, b, r, w) {
        if x.good[r] {
            // From here the declared lengths are right: read them as they are.
            out.events.extend(read_on(sizes, b, w, r, None).0);
            break;
        }
        if let Some((events, end, spliced)) = read_to_good(&mut x, r, MAX_NESTED) {
            out.events.extend(events);
            out.spliced += spliced;
            r = end;
            continue;
        }
        // Lost: on from the damaged event to the next place events read from.
        let (mut read, q) = read_on(sizes, b, w, r, None);
        // An event that starts as one does (a declared type, a time in the block's)
        // but whose fields do not fit is the damaged one; else the last one read,
        // whose length led into what does not start as an event.
        let starts_so = (b.get(q..q + 2).map(|t| u16::from_be_bytes([t[0], t[1]])))
            .is_some_and(|ty| sizes.size(ty) != UNDECLARED && ty != id::BLOCK_MARKER)
            && time_at(b, q).is_some_and(|t| w.holds(t));
        let damaged = match starts_so {
            true => q,
            false => read.pop().map_or(r, |e| e.at),
        };
        out.events.extend(read);
        r = damaged + 1;
        while !(ends(sizes, b, r, w) || x.good[r] || reads_for(sizes, b, r, w, RESUME)) {
            r += 1;
        }
        out.lost += (r - damaged) as u64;
        out.places += 1;
        (out.first_lost).get_or_insert_with(|| (damaged, cause(sizes, b, damaged, block_end)));
    }
    out.data_end = r + 2 == b.len();
    out
}

/// The events that read plausibly from `r` on, up to the first that does not, the
/// block's end, or (given `good`) a place from which they chain to it; and where the
/// reading stopped.
fn read_on(
    sizes: &Sizes,
    b: &[u8],
    w: Window,
    mut r: usize,
    good: Option<&[bool]>,
) -> (Vec<Event>, usize) {
    let mut read = Vec::new();
    while !ends(sizes, b, r, w) && !good.is_some_and(|g| g[r]) {
        let Some(e) = plausible(sizes, b, r, w) else {
            break;
        };
        r += e.len;
        read.push(e);
    }
    (read, r)
}

/// How many events read before the declared reading stops may be the one another was
/// written inside.
const LOOKBACK: usize = 4;
