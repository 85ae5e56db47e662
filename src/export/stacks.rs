//! Folded stacks (`-o heap.folded`): Brendan Gregg's `outer;inner N` lines, one per
//! stack, the bytes it holds at `--flame`'s census (the peak by default) or its mean, as
//! whole numbers. inferno (`inferno-flamegraph`) and flamegraph.pl draw them; with
//! `--compare BEFORE AFTER` the two-column form `stack before after` that
//! `inferno-flamegraph` (and `difffolded.pl`'s output) reads for a differential graph.

use std::collections::HashMap;
use std::io::{self, Write};

use crate::profile::Profile;
use crate::select::flame::{Stack, Stacked, WhichCensus, stacks};

/// A source file and a line in it.
pub type Place = (String, u32);

/// A frame as the exports tell frames apart: its name and, with IPE, its place.
pub type FrameKey = (Vec<u8>, Option<Place>);

/// The source place of a stack's one frame where the bands are info tables (IPE) with
/// a source location; `None` for cost-centre stacks and tables without one.
pub fn place(profile: &Profile, stack: &Stack<'_>) -> Option<Place> {
    if profile.breakdown != crate::profile::Breakdown::Other {
        return None;
    }
    profile.provenance.get(stack.band)?.place()
}

/// A frame's source place: its stack's where that is one info table's (IPE), else its
/// cost centre's source span as the report or eventlog gives it (`Main.hs:6:1-46` is
/// `Main.hs`, line 6); `None` where neither says.
pub fn frame_place<S: Stacked + ?Sized>(
    profile: &S,
    frame: &[u8],
    stack: &Option<Place>,
) -> Option<Place> {
    (stack.clone()).or_else(|| profile.source(frame).and_then(super::callgrind::place))
}

/// The stacks an export writes: each with its whole bytes (those with none left out)
/// and the place of its frame where IPE gives one.
pub fn weighed<'s, 'p>(
    profile: &'p Profile,
    stacks: &'s [Stack<'p>],
) -> impl Iterator<Item = (&'s Stack<'p>, u64, Option<Place>)> {
    stacks.iter().filter_map(move |s| {
        let bytes = whole_bytes(s.bytes);
        (bytes > 0).then(|| (s, bytes, place(profile, s)))
    })
}

/// Each frame (name and place) numbered once, from 0 in the order first seen: what
/// pprof's locations and speedscope's shared frames are.
#[derive(Default)]
pub struct FrameIndex {
    index: HashMap<FrameKey, usize>,
}

impl FrameIndex {
    /// The frame's number, and whether it is new (the caller then writes it out).
    pub fn id(&mut self, frame: &[u8], place: &Option<Place>) -> (usize, bool) {
        let next = self.index.len();
        let id = *self
            .index
            .entry((frame.to_vec(), place.clone()))
            .or_insert(next);
        (id, id == next)
    }
}

/// The longest folded stack field written, in bytes: a band name's limit
/// ([`crate::profile::names::MAX_NAME`]). A stack of 512 frames of 4 KiB labels would be a
/// 2 MB line, and 600 of them a gigabyte; a longer field is cut as a band name is, ending
/// in `…#` and a hash of the whole field so that stacks cut alike stay two lines.
pub const MAX_FOLDED_STACK: usize = crate::profile::names::MAX_NAME;

/// Folded stack fields under the readers' name budget: each at most
/// [`MAX_FOLDED_STACK`] bytes, and once [`crate::profile::names::MAX_NAME_BYTES`] of them
/// are kept, each new one at most [`crate::profile::names::MAX_NAME_PAST_BUDGET`].
#[derive(Default)]
pub struct FoldedKeys {
    spent: usize,
    /// Each frame escaped once, by where its bytes are (a profile keeps a frame's name
    /// once, shared by the stacks through it).
    escaped: crate::profile::hash::FxMap<(usize, usize), std::rc::Rc<str>>,
    /// A field was cut.
    pub cut: bool,
}

impl FoldedKeys {
    /// A stack's frames as one folded field, outermost first, cut as the budget says.
    pub fn key(&mut self, stack: &Stack<'_>) -> String {
        use std::hash::Hasher as _;
        let max = if self.spent >= crate::profile::names::MAX_NAME_BYTES {
            crate::profile::names::MAX_NAME_PAST_BUDGET
        } else {
            MAX_FOLDED_STACK
        };
        let mut key = String::new();
        for (k, frame) in stack.frames.iter().enumerate() {
            if key.len() > max {
                break;
            }
            if k > 0 {
                key.push(';');
            }
            let at = (frame.as_ptr() as usize, frame.len());
            let escaped = (self.escaped.entry(at))
                .or_insert_with(|| crate::escape::folded_frame(frame).into());
            key.push_str(escaped);
        }
        if key.len() > max {
            // The band's name is cut too, and tagged with its whole name's hash: the
            // stack's, without reading each frame of it again.
            let mut whole = crate::profile::hash::FxHasher::default();
            whole.write(stack.band);
            self.cut = true;
            let cut = crate::profile::names::tagged_with(key.as_bytes(), max, whole.finish());
            key = String::from_utf8_lossy(&cut).into_owned();
        }
        self.spent += key.len();
        key
    }
}

/// What the folded writers say when they cut a stack's field.
pub fn cut_note() -> String {
    format!(
        "stacks whose folded field is longer than {} KiB (or, once {} MiB of them are \
         written, {} bytes) are cut: each ends in …# and a hash of the whole stack",
        MAX_FOLDED_STACK >> 10,
        crate::profile::names::MAX_NAME_BYTES >> 20,
        crate::profile::names::MAX_NAME_PAST_BUDGET
    )
}

/// Whether [`write_folded`] of `profile` at `when` cuts a stack's field.
pub fn folded_cut<S: Stacked + ?Sized>(profile: &S, when: WhichCensus) -> bool {
    let mut keys = FoldedKeys::default();
    for stack in &stacks(profile, when).1 {
        keys.key(stack);
    }
    keys.cut
}

/// Whole bytes: a mean's fraction is rounded (the formats count in integers).
pub fn whole_bytes(v: f64) -> u64 {
    if v.is_finite() && v > 0.0 {
        v.round().min(u64::MAX as f64) as u64
    } else {
        0
    }
}

/// Writes one line per stack that holds at least a byte, in the profile's band order.
/// Stacks whose frames come out the same (two bands named alike once their `(N)`
/// numbers are dropped) are one line, their bytes added.
pub fn write_folded<S: Stacked + ?Sized>(
    profile: &S,
    when: WhichCensus,
    out: &mut dyn Write,
) -> io::Result<()> {
    let (_, stacks) = stacks(profile, when);
    let mut order: Vec<String> = Vec::new();
    let mut bytes: HashMap<String, f64> = HashMap::new();
    let mut keys = FoldedKeys::default();
    for stack in &stacks {
        let key = keys.key(stack);
        match bytes.get_mut(&key) {
            Some(b) => *b += stack.bytes,
            None => {
                bytes.insert(key.clone(), stack.bytes);
                order.push(key);
            }
        }
    }
    let mut out = io::BufWriter::new(out);
    for key in order {
        let n = whole_bytes(bytes[&key]);
        if n > 0 {
            writeln!(out, "{key} {n}")?;
        }
    }
    out.flush()
}

/// Writes two runs' stacks as `stack before after`, each run weighed at `when` (its own
/// peak census, say): every stack of either run, BEFORE's order first, 0 where a run has
/// none. The runs' bands are named alike already ([`crate::analysis::compare::matched`]).
pub fn write_differential<S: Stacked + ?Sized>(
    runs: [&S; 2],
    when: WhichCensus,
    out: &mut dyn Write,
) -> io::Result<()> {
    let mut order: Vec<String> = Vec::new();
    let mut bytes: HashMap<String, [f64; 2]> = HashMap::new();
    let mut keys = FoldedKeys::default();
    for (side, profile) in runs.into_iter().enumerate() {
        for stack in &stacks(profile, when).1 {
            let key = keys.key(stack);
            let entry = bytes.entry(key.clone()).or_insert_with(|| {
                order.push(key);
                [0.0; 2]
            });
            entry[side] += stack.bytes;
        }
    }
    let mut out = io::BufWriter::new(out);
    for key in order {
        let [b, a] = bytes[&key].map(whole_bytes);
        if b > 0 || a > 0 {
            writeln!(out, "{key} {b} {a}")?;
        }
    }
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::hp::parse;

    fn profile(body: &str) -> Profile {
        let text =
            format!("JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n{body}");
        parse(text.as_bytes()).expect("parses").profile
    }

    #[test]
    fn lines_are_outermost_first_with_whole_bytes() {
        let p = profile(
            "BEGIN_SAMPLE 0\n(1)go/main/Main.CAF\t30\n(2)MAIN\t5\n(3)x;y/main/Main.CAF\t2\n\
             END_SAMPLE 0\n",
        );
        let mut out = Vec::new();
        write_folded(&p, WhichCensus::Peak, &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "Main.CAF;main;go 30\nMAIN 5\nMain.CAF;main;x_y 2\n"
        );
    }

    #[test]
    fn two_runs_give_both_columns() {
        let a = profile("BEGIN_SAMPLE 0\n(1)go/main\t30\n(2)MAIN\t5\nEND_SAMPLE 0\n");
        let b = profile("BEGIN_SAMPLE 0\n(7)go/main\t10\n(8)f/main\t4\nEND_SAMPLE 0\n");
        let mut out = Vec::new();
        write_differential([&a, &b], WhichCensus::Peak, &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "main;go 30 10\nMAIN 5 0\nmain;f 0 4\n"
        );
    }
}
