//! What a flame graph is made of, and the rules that name its parts: the census it is
//! weighed at ([`WhichCensus`], [`Census`]), its frames and their order, the limits on its
//! size, and how a band's name splits into frames. The graph is built from bands in
//! [`super::flame`] and from a report's tree in [`super::tree`]; both, and every stack
//! export ([`super::stacked`]), speak these words, so they live below all of them.

use crate::profile::{Breakdown, Profile};

/// A closure name without its package (`GHC.Types.:` of `ghc-prim:GHC.Types.:`): the
/// part before the first `:` when it reads as a package name (letters, digits, `-`,
/// `_`, `.`) and a module's capital follows it. Any other name as it is.
pub fn unpackaged(name: &[u8]) -> &[u8] {
    let Some(colon) = name.iter().position(|&b| b == b':') else {
        return name;
    };
    let package = &name[..colon];
    let is_package = !package.is_empty()
        && package
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
        && package.iter().any(u8::is_ascii_alphabetic);
    if is_package && name.get(colon + 1).is_some_and(u8::is_ascii_uppercase) {
        &name[colon + 1..]
    } else {
        name
    }
}

/// A band's name as a reader is shown it where room is short (a key, a caption, the
/// page's key): without GHC's `(N)` stack number and a closure's package
/// (`Text.Pandoc.Parsing.ParserState` of
/// `(12)pandoc-2.17.1.1-bBC0rtgHvLLxePeF98Kfh:Text.Pandoc.Parsing.ParserState`). The
/// whole name stays in each band's title and tooltip.
pub fn shown(name: &[u8]) -> &[u8] {
    unpackaged(unnumbered(name))
}

/// A band's name without a `.hp` file's `(N)` stack number.
pub fn unnumbered(name: &[u8]) -> &[u8] {
    if name.first() == Some(&b'(')
        && let Some(close) = name.iter().position(|&b| b == b')')
        && close > 1
        && name[1..close].iter().all(u8::is_ascii_digit)
    {
        return &name[close + 1..];
    }
    name
}

/// The stem of a name GHC cut at `-L` (what is before its `...`).
pub fn cut_stem(name: &[u8]) -> Option<&[u8]> {
    name.strip_suffix(b"...").filter(|s| !s.is_empty())
}

/// Which census a flame graph shows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum WhichCensus {
    /// The census with the most bytes (the first of equals).
    Peak,
    /// The last census that holds anything: GHC's `.hp` ends with an empty one, written
    /// as the program exits.
    End,
    /// The census nearest this time, in sample units.
    At(f64),
    /// No one census: each stack's mean over the profile's time (after `--from`/`--to`),
    /// integrated between censuses by trapezoids, so that the root is the window's mean
    /// heap. A leak is a stretch of time; one census may be the wrong one.
    Mean,
}

/// What a flame graph or a stack export weighs its stacks at: one census, or a stretch
/// of time's mean.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Census {
    /// What was asked for.
    pub when: WhichCensus,
    /// The census's index among the profile's samples (`None` for the mean).
    pub sample: Option<usize>,
    /// The census's time, or where the mean's stretch starts (sample units).
    pub from: f64,
    /// The census's time again, or where the stretch ends.
    pub to: f64,
    /// The whole heap there: the census's total, or the stretch's mean total (the sum of
    /// the stacks' means).
    pub total: f64,
    /// The census is a cost-centre profile's sum over its time
    /// ([`crate::profile::Costs`]): a report's whole run (`from == to`, the run's
    /// length), or eventlog samples' from `from` to `to`; not a moment of a heap
    /// profile's.
    pub whole_run: bool,
}

impl Census {
    /// A cost profile's whole run (or its stretch of samples, `times`), holding `total`.
    pub fn whole_run(when: WhichCensus, times: &[f64], total: f64) -> Census {
        Census {
            when,
            sample: None,
            from: times.first().copied().unwrap_or(0.0),
            to: times.last().copied().unwrap_or(0.0),
            total,
            whole_run: true,
        }
    }
}

/// One band's stack as a flame graph and the stack exports read it.
#[derive(Debug, Clone, PartialEq)]
pub struct Stack<'a> {
    /// The band's full name.
    pub band: &'a [u8],
    /// Its frames, outermost first (one, the name, where the profile's bands are not
    /// cost-centre stacks).
    pub frames: Vec<&'a [u8]>,
    /// GHC cut the name at `-L`: the first frame is cut, its callers unknown.
    pub cut: bool,
    /// Its bytes at the census (or its mean), never 0.
    pub bytes: f64,
}

/// One frame: a cost centre in the stacks that lead to it.
#[derive(Debug, Clone, PartialEq)]
pub struct Frame {
    /// Its label (the root's is `all`).
    pub name: Vec<u8>,
    /// The frame it is called from (`None` for the root).
    pub parent: Option<usize>,
    /// 0 for the root, 1 for the outermost cost centres.
    pub depth: usize,
    /// What its stack and its callees hold.
    pub bytes: f64,
    /// What its stack holds itself: the band of exactly this stack.
    pub own: f64,
    /// GHC cut the name at `-L` here: the callers beyond it are unknown.
    pub cut: bool,
    /// In a differential graph ([`differential`](super::flame::differential)): what the frame held in the run
    /// before (0 otherwise, or where that run had no such frame).
    pub before: f64,
    /// Likewise, what its stack held itself before.
    pub own_before: f64,
    /// Frames of a stack GHC cut at `-L` that was placed under the frame its kept name
    /// begins ([`placements`](super::flame::placements)): where it stands is inferred, not read.
    pub placed: bool,
}

impl Frame {
    /// A graph's root frame, `all`, holding nothing yet.
    pub(super) fn root() -> Frame {
        Frame {
            name: b"all".to_vec(),
            parent: None,
            depth: 0,
            bytes: 0.0,
            own: 0.0,
            cut: false,
            before: 0.0,
            own_before: 0.0,
            placed: false,
        }
    }
}

/// Which way a flame graph grows from its root.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Direction {
    /// Outermost cost centres at the root, each callee on its caller.
    #[default]
    Callers,
    /// Inverted: the innermost frame (the cost centre, closure type or info table that
    /// holds the bytes) at the root, its callers on top; a root frame is as wide as
    /// every stack that ends in it.
    Inverted,
}

/// A census as frames, root first, each frame before its callees, callees in name order.
#[derive(Debug, Clone, PartialEq)]
pub struct Flame {
    /// The profile's `JOB`.
    pub job: Vec<u8>,
    /// Its `DATE`.
    pub date: Vec<u8>,
    /// Its `VALUE_UNIT`.
    pub value_unit: Vec<u8>,
    /// Its `SAMPLE_UNIT`.
    pub sample_unit: Vec<u8>,
    /// The units the two name.
    pub units: crate::units::Units,
    /// The census (or stretch) the frames are weighed at.
    pub census: Census,
    /// The frames; `frames[0]` is the root.
    pub frames: Vec<Frame>,
    /// The deepest frame's depth.
    pub depth: usize,
    /// Which way it grows.
    pub direction: Direction,
    /// A differential graph's run before: where it was weighed. Frames are the later
    /// run's, each with what it held before.
    pub before: Option<Census>,
    /// Stacks GHC cut at `-L`: how many were placed under their caller, and how many
    /// stand alone ([`placements`](super::flame::placements)).
    pub cuts: (usize, usize),
    /// Stacks whose deeper frames were left out as one [`ELIDED`] frame, the graph
    /// having [`MAX_GRAPH_FRAMES`] already.
    pub elided: usize,
    /// A report's stacks deeper than [`MAX_DEPTH`], drawn to their outermost frames
    /// (read from its tree: bands made of the stacks say so as they are named).
    pub deep: usize,
}

impl Flame {
    /// A frame's stack named as its band is: labels innermost first, joined by `/` (an
    /// inverted graph's frame names the innermost part of the stacks through it).
    pub fn stack(&self, k: usize) -> Vec<u8> {
        self.stack_within(k, usize::MAX)
    }

    /// [`Self::stack`], read from frame `k` towards the root only until it is longer
    /// than `max` bytes, where the rest is `…` and the whole cut to `max`: a title of
    /// 512 frames of 8 KiB names would be 4 MB, and a graph has thousands of titles.
    pub fn stack_within(&self, k: usize, max: usize) -> Vec<u8> {
        let mut labels = Vec::new();
        let (mut at, mut len, mut more) = (Some(k), 0, false);
        while let Some(i) = at.filter(|&i| i > 0) {
            if len > max {
                more = true;
                break;
            }
            labels.push(&self.frames[i].name[..]);
            len += self.frames[i].name.len() + 1;
            at = self.frames[i].parent;
        }
        if more {
            labels.push("…".as_bytes());
        }
        if self.direction == Direction::Inverted {
            labels.reverse();
        }
        let name = labels.join(&b'/');
        match crate::profile::cut_text(&name, max) {
            Some(cut) => cut.into_vec(),
            None => name,
        }
    }
}

/// The census `when` picks (the profile has at least one sample); for the mean, the
/// peak census.
pub fn census(profile: &Profile, when: WhichCensus) -> usize {
    pick(profile, &profile.totals(), when)
}

pub(super) fn pick(profile: &Profile, totals: &[f64], when: WhichCensus) -> usize {
    let n = profile.samples();
    match when {
        WhichCensus::End => (0..n).rev().find(|&i| totals[i] != 0.0).unwrap_or(n - 1),
        // The first of equal highest totals.
        WhichCensus::Peak | WhichCensus::Mean => {
            (0..n).fold(0, |best, i| if totals[i] > totals[best] { i } else { best })
        }
        WhichCensus::At(t) => {
            let after = profile.times.partition_point(|&x| x < t).min(n - 1);
            if after > 0 && (t - profile.times[after - 1]).abs() <= (profile.times[after] - t).abs()
            {
                after - 1
            } else {
                after
            }
        }
    }
}

/// The most frames a stack keeps in a flame graph, its page and the stack exports. A
/// real stack is tens of frames deep (GHC folds recursion); a band's name can be a stack
/// of millions, and a frame a millionth of a figure's height is never drawn. A deeper
/// stack keeps its outermost and innermost halves, with [`ELIDED`] between them, so
/// that both the root's and the holder's side of the graph stay right.
pub const MAX_DEPTH: usize = crate::profile::costs::MAX_FRAMES;

/// The most frames a graph holds (a frame is a stack of the tree: a report of 400,000
/// stacks has as many). An inverted graph of deep stacks has a frame for each frame of
/// each stack; past the bound, a stack's frames not in the graph yet are one
/// [`ELIDED`] frame under the last that is, holding what they held.
pub const MAX_GRAPH_FRAMES: usize = 1 << 19;

/// What a frame's description adds when GHC cut its name at `-L` (its outermost frame's
/// callers are unknown): the pictures' titles and the page say it alike.
pub const CUT_NOTE: &str = " (GHC cut this name at -L: its callers are unknown)";

/// What a frame's description adds when GHC cut its stack and [`placements`](super::flame::placements) placed it.
pub const PLACED_NOTE: &str =
    " (GHC cut this stack at -L: placed under the frame its kept name begins)";

/// The frame standing for what [`MAX_DEPTH`] left out of a deep stack.
pub const ELIDED: &[u8] = b"[deeper frames left out]";

/// A band's name split into frames, outermost first, as `breakdown` says.
pub(crate) fn labels(name: &[u8], breakdown: Breakdown) -> (Vec<&[u8]>, bool) {
    if breakdown == Breakdown::Other {
        return (vec![name], false);
    }
    let name = unnumbered(name);
    let cut = cut_stem(name).is_some();
    let depth = memchr::memchr_iter(b'/', name).count() + 1;
    let split = |b: &u8| *b == b'/';
    if depth <= MAX_DEPTH {
        let mut labels: Vec<&[u8]> = name.split(split).collect();
        labels.reverse();
        return (labels, cut);
    }
    let half = MAX_DEPTH / 2;
    let mut labels: Vec<&[u8]> = Vec::with_capacity(MAX_DEPTH);
    labels.extend(name.rsplit(split).take(half));
    labels.push(ELIDED);
    let inner = labels.len();
    labels.extend(name.split(split).take(MAX_DEPTH - inner));
    labels[inner..].reverse();
    (labels, cut)
}

/// The frames in depth-first order, callees by name. Iterative: a stack can be a hundred
/// thousand labels deep.
pub(super) fn ordered(mut frames: Vec<Frame>) -> Vec<Frame> {
    // Every frame's callees in one list, a frame's from `start[f]` to `start[f + 1]`, in
    // the order they were made (a list each is as many allocations as frames).
    let n = frames.len();
    let mut start = vec![0usize; n + 1];
    for f in &frames[1..] {
        start[f.parent.expect("only the root has none") + 1] += 1;
    }
    for k in 1..=n {
        start[k] += start[k - 1];
    }
    let mut kids = vec![0usize; n.saturating_sub(1)];
    let mut fill = start.clone();
    for (i, f) in frames.iter().enumerate().skip(1) {
        let p = f.parent.expect("only the root has none");
        kids[fill[p]] = i;
        fill[p] += 1;
    }
    for f in 0..n {
        kids[start[f]..start[f + 1]].sort_by(|&a, &b| frames[a].name.cmp(&frames[b].name));
    }
    let mut out: Vec<Frame> = Vec::with_capacity(n);
    // (old index, new index of its parent)
    let mut todo = vec![(0usize, None::<usize>)];
    while let Some((i, parent)) = todo.pop() {
        let f = Frame {
            name: std::mem::take(&mut frames[i].name),
            parent,
            ..frames[i]
        };
        let callees = &kids[start[i]..start[i + 1]];
        todo.extend(callees.iter().rev().map(|&c| (c, Some(out.len()))));
        out.push(f);
    }
    out
}
