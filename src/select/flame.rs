//! The heap at one census as a tree of cost-centre stacks: what a flame graph draws.
//!
//! A cost-centre stack's band is named by its labels, innermost first, joined by `/`
//! (GHC's `fprint_ccs`, which the eventlog reader follows): `go/f/main/Main.CAF`. The tree
//! is those names split at `/` and read outermost first, so `Main.CAF` is a child of the
//! root and `go` a leaf. Every band adds its bytes to each frame on its path and holds
//! them itself (`own`) at its last one; a frame's width is what its stack and everything
//! it calls hold, so the frames' `own` bytes add up to the census's total. A `.hp` name
//! GHC cut at `-L` (it ends in `...`) has lost its outermost labels: its first frame is
//! marked `cut`, the callers beyond it unknown. A profile broken down by anything but
//! cost-centre stacks (an eventlog says which) gives one level: a name is one frame.

use crate::profile::{Breakdown, Profile};

pub use super::stacked::Stacked;

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
pub enum When {
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
    pub when: When,
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
    pub fn whole_run(when: When, times: &[f64], total: f64) -> Census {
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

/// Each band's value at each of `samples` (indices into the profile's samples), in one
/// pass over the bands: `result[k][band]`. For exports that step through the run.
pub fn weights_at(profile: &Profile, samples: &[usize]) -> Vec<Vec<f64>> {
    let bands = profile.bands.names().len();
    let mut slot = vec![usize::MAX; profile.samples()];
    for (k, &s) in samples.iter().enumerate() {
        slot[s] = k;
    }
    let mut out = vec![vec![0.0; bands]; samples.len()];
    for (b, series) in profile.bands.series().iter().enumerate() {
        series.for_each(|s, v| {
            if let Some(&k) = slot.get(s as usize)
                && k != usize::MAX
            {
                out[k][b] += v;
            }
        });
    }
    out
}

/// A band's stack with its bytes: its frames as [`stacks`] gives them.
pub fn stack_of<S: Stacked + ?Sized>(profile: &S, band: usize, bytes: f64) -> Stack<'_> {
    let name = &profile.series().bands.names()[band];
    let (frames, cut) = profile.frames(name);
    Stack {
        band: name,
        frames,
        cut,
        bytes,
    }
}

/// Every band's stack with its bytes at `when`, bands without any left out, in the
/// profile's band order.
pub fn stacks<S: Stacked + ?Sized>(profile: &S, when: When) -> (Census, Vec<Stack<'_>>) {
    let (census, weights) = profile.weights(when);
    let stacks = (weights.into_iter().enumerate())
        .filter(|(_, w)| *w != 0.0)
        .map(|(band, bytes)| stack_of(profile, band, bytes))
        .collect();
    (census, stacks)
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
    /// In a differential graph ([`differential`]): what the frame held in the run
    /// before (0 otherwise, or where that run had no such frame).
    pub before: f64,
    /// Likewise, what its stack held itself before.
    pub own_before: f64,
    /// Frames of a stack GHC cut at `-L` that was placed under the frame its kept name
    /// begins ([`placements`]): where it stands is inferred, not read.
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
    /// stand alone ([`placements`]).
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
pub fn census(profile: &Profile, when: When) -> usize {
    pick(profile, &profile.totals(), when)
}

pub(super) fn pick(profile: &Profile, totals: &[f64], when: When) -> usize {
    let n = profile.samples();
    match when {
        When::End => (0..n).rev().find(|&i| totals[i] != 0.0).unwrap_or(n - 1),
        // The first of equal highest totals.
        When::Peak | When::Mean => {
            (0..n).fold(0, |best, i| if totals[i] > totals[best] { i } else { best })
        }
        When::At(t) => {
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

/// What a frame's description adds when GHC cut its stack and [`placements`] placed it.
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

/// The flame graph of the census `when` picks (or of the mean over the profile's time).
pub fn flame<S: Stacked + ?Sized>(profile: &S, when: When) -> Flame {
    shaped(profile, when, Direction::Callers)
}

/// [`flame`], growing either way.
pub fn shaped<S: Stacked + ?Sized>(profile: &S, when: When, direction: Direction) -> Flame {
    if let Some((tree, measure)) = profile.whole_tree() {
        return super::tree::flame(tree, measure, profile.series(), when, direction);
    }
    let (census, stacks) = stacks(profile, when);
    let mut tree = Tree::new(direction);
    tree.children.reserve(stacks.len() * 2);
    for (stack, placed) in place_cut(profile.series(), stacks) {
        tree.count(&stack, placed);
        tree.add(&stack, 1, placed);
    }
    tree.finish(profile.series(), census, None)
}

/// AFTER's flame graph with what each frame held in BEFORE: the two runs' stacks (named
/// alike already, [`crate::analysis::compare::matched`]) each weighed at `when` (each
/// run's own peak census, say). A frame only BEFORE had is kept, 0 bytes wide, so that
/// what went away is still there to read.
pub fn differential<S: Stacked + ?Sized>(
    before: &S,
    after: &S,
    when: When,
    direction: Direction,
) -> Flame {
    let (was, old) = stacks(before, when);
    let (census, new) = stacks(after, when);
    let mut tree = Tree::new(direction);
    for (stack, placed) in place_cut(after.series(), new) {
        tree.count(&stack, placed);
        tree.add(&stack, 1, placed);
    }
    for (stack, placed) in place_cut(before.series(), old) {
        tree.count(&stack, placed);
        tree.add(&stack, 0, placed);
    }
    tree.finish(after.series(), census, Some(was))
}

/// At most this many frames whose label begins as a cut label's stem are weighed
/// when placing it ([`placements`]); past that, the stem says too little.
pub const MAX_PLACES: usize = 64;

/// Where a band GHC cut at `-L` stands ([`placements`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Placed<'a> {
    /// Its frames, outermost first: the inferred path, then its own kept ones.
    pub frames: Vec<&'a [u8]>,
    /// How many of them are inferred: its own start at this index.
    pub inferred: usize,
}

/// Where each band GHC cut at `-L` (its outermost kept label `Ma...`) stands, by band:
/// the frames it is placed on and how many of them are inferred, or `None` where it
/// stands as GHC wrote it (or was not cut). The profile's whole stacks (every band's,
/// at any census, so that a band stands in one place all run long) whose frames have a
/// label beginning with the stem (`Main.CAF`) — preferring those that call the cut
/// stack's next frame — must all stand on one path; the cut label is then that path.
/// Linear in the frames but for a sort: the labels are looked up in order, at most
/// [`MAX_PLACES`] for each cut band. The flame graph's only: exports keep GHC's stacks.
pub fn placements(profile: &Profile) -> Vec<Option<Placed<'_>>> {
    let all: Vec<(Vec<&[u8]>, bool)> = profile
        .bands
        .names()
        .iter()
        .map(|n| labels(n, profile.breakdown))
        .collect();
    if !all.iter().any(|(_, cut)| *cut) {
        return vec![None; all.len()];
    }
    // The whole stacks: every band's, and those a filter left out (the run's still).
    let whole: Vec<Vec<&[u8]>> = all
        .iter()
        .filter(|(_, cut)| !cut)
        .map(|(frames, _)| frames.clone())
        .chain(
            (profile.dropped_names.iter())
                .map(|n| labels(n, profile.breakdown))
                .filter(|(_, cut)| !cut)
                .map(|(frames, _)| frames),
        )
        .collect();
    // Every label of every whole stack, with where it is: (label, stack, position).
    let mut index: Vec<(&[u8], usize, usize)> = Vec::new();
    for (k, frames) in whole.iter().enumerate() {
        index.extend(frames.iter().enumerate().map(|(d, &l)| (l, k, d)));
    }
    index.sort_unstable();
    /// The one path all of `paths` are, if they are one.
    fn one<'p>(paths: &[&[&'p [u8]]]) -> Option<Vec<&'p [u8]>> {
        let first = paths.first()?;
        paths.iter().all(|p| p == first).then(|| first.to_vec())
    }
    all.iter()
        .map(|(frames, cut)| {
            if !cut {
                return None;
            }
            let stem = cut_stem(frames.first().copied()?)?;
            let from = index.partition_point(|(l, _, _)| *l < stem);
            let found: Vec<&(&[u8], usize, usize)> = index[from..]
                .iter()
                .take_while(|(l, _, _)| l.starts_with(stem))
                .take(MAX_PLACES + 1)
                .collect();
            if found.is_empty() || found.len() > MAX_PLACES {
                return None;
            }
            let path = |&&(_, k, d): &&(&[u8], usize, usize)| &whole[k][..=d];
            let next = frames.get(1).copied();
            let calling: Vec<&[&[u8]]> = found
                .iter()
                .filter(|&&&(_, k, d)| next.is_some() && whole[k].get(d + 1).copied() == next)
                .map(path)
                .collect();
            let every: Vec<&[&[u8]]> = found.iter().map(path).collect();
            let mut placed = one(&calling).or_else(|| one(&every))?;
            let inferred = placed.len();
            placed.extend_from_slice(&frames[1..]);
            Some(Placed {
                frames: placed,
                inferred,
            })
        })
        .collect()
}

/// `stacks` (of `profile`) with each band GHC cut placed as [`placements`] says, and the
/// index of each one's first frame past the inferred path.
fn place_cut<'a>(profile: &'a Profile, stacks: Vec<Stack<'a>>) -> Vec<(Stack<'a>, Option<usize>)> {
    // Only a name GHC cut is placed: without one (a report's stacks never are), the
    // stacks stand as they are.
    if !profile.bands.names().iter().any(|n| cut_stem(n).is_some()) {
        return stacks.into_iter().map(|s| (s, None)).collect();
    }
    let places = placements(profile);
    let by_name: crate::profile::hash::FxMap<&[u8], usize> =
        (profile.bands.names().iter().enumerate())
            .map(|(k, n)| (&n[..], k))
            .collect();
    stacks
        .into_iter()
        .map(
            |mut s| match by_name.get(s.band).and_then(|&k| places[k].clone()) {
                Some(placed) => {
                    s.frames = placed.frames;
                    s.cut = false;
                    (s, Some(placed.inferred))
                }
                None => (s, None),
            },
        )
        .collect()
}

/// Frames being gathered from stacks, before they are put in order.
pub(super) struct Tree<'a> {
    direction: Direction,
    cuts: (usize, usize),
    elided: usize,
    frames: Vec<Frame>,
    children: crate::profile::hash::FxMap<(usize, &'a [u8]), usize>,
}

impl<'a> Tree<'a> {
    pub(super) fn new(direction: Direction) -> Tree<'a> {
        Tree {
            direction,
            cuts: (0, 0),
            elided: 0,
            frames: vec![Frame::root()],
            children: Default::default(),
        }
    }

    /// Counts a stack GHC cut, placed or alone.
    fn count(&mut self, stack: &Stack<'a>, placed: Option<usize>) {
        if placed.is_some() {
            self.cuts.0 += 1;
        } else if stack.cut {
            self.cuts.1 += 1;
        }
    }

    /// Adds a stack's bytes to the frames on its path: to `bytes` for `side` 1 (the
    /// graph's own run), to `before` for 0.
    pub(super) fn add(&mut self, stack: &Stack<'a>, side: usize, placed: Option<usize>) {
        let value = stack.bytes;
        let n = stack.frames.len();
        let path: Box<dyn Iterator<Item = (usize, &&'a [u8])>> = match self.direction {
            Direction::Callers => Box::new(stack.frames.iter().enumerate()),
            Direction::Inverted => Box::new(stack.frames.iter().enumerate().rev()),
        };
        let mut at = 0;
        let credit = |f: &mut Frame| {
            if side == 1 {
                f.bytes += value
            } else {
                f.before += value
            }
        };
        credit(&mut self.frames[0]);
        for (d, &label) in path {
            // Past the graph's bound, a new frame is the one that stands for the rest.
            let full = self.frames.len() >= MAX_GRAPH_FRAMES;
            let label = if full && !self.children.contains_key(&(at, label)) {
                self.elided += 1;
                ELIDED
            } else {
                label
            };
            at = match self.children.get(&(at, label)) {
                Some(&c) => c,
                None => {
                    let depth = self.frames[at].depth + 1;
                    self.frames.push(Frame {
                        name: label.to_vec(),
                        parent: Some(at),
                        depth,
                        bytes: 0.0,
                        own: 0.0,
                        // The cut label is the outermost GHC kept.
                        cut: stack.cut && d == 0,
                        before: 0.0,
                        own_before: 0.0,
                        placed: placed.is_some_and(|from| d >= from),
                    });
                    self.children.insert((at, label), self.frames.len() - 1);
                    self.frames.len() - 1
                }
            };
            credit(&mut self.frames[at]);
            if label == ELIDED && full {
                break;
            }
        }
        if n > 0 {
            let f = &mut self.frames[at];
            if side == 1 {
                f.own += value;
            } else {
                f.own_before += value;
            }
        }
    }

    pub(super) fn finish(self, profile: &Profile, census: Census, before: Option<Census>) -> Flame {
        let frames = ordered(self.frames);
        Flame {
            job: profile.job.clone(),
            date: profile.date.clone(),
            value_unit: profile.value_unit.clone(),
            sample_unit: profile.sample_unit.clone(),
            units: profile.units,
            census,
            depth: frames.iter().map(|f| f.depth).max().unwrap_or(0),
            direction: self.direction,
            before,
            cuts: self.cuts,
            elided: self.elided,
            deep: 0,
            frames,
        }
    }
}

/// What a reader of `flame` should be told: a graph of one level (the profile is not
/// broken down by cost-centre stacks), stacks GHC cut at `-L`, frames left out.
pub fn advice(flame: &Flame) -> Option<String> {
    let elided = (flame.elided > 0).then(|| {
        format!(
            "the graph holds at most {MAX_GRAPH_FRAMES} frames: the deeper frames of {} \
             stacks are left out, each stack's as one frame {}",
            flame.elided,
            String::from_utf8_lossy(ELIDED)
        )
    });
    let deep = (flame.deep > 0).then(|| {
        format!(
            "{} stacks are deeper than {MAX_DEPTH} frames: each is drawn to its outermost \
             {MAX_DEPTH}, holding what its deeper frames do",
            flame.deep
        )
    });
    let said: Vec<String> = [cut_advice(flame), elided, deep]
        .into_iter()
        .flatten()
        .collect();
    (!said.is_empty()).then(|| said.join("; "))
}

/// [`advice`] on the profile's cuts.
fn cut_advice(flame: &Flame) -> Option<String> {
    let (placed, cut) = flame.cuts;
    if flame.depth == 1 && flame.frames.len() > 2 {
        Some(
            "every band is one frame: a flame graph of callers needs cost-centre stacks \
             (a profiling build run with +RTS -hc)"
                .into(),
        )
    } else if cut + placed > 0 {
        Some(format!(
            "{} stacks were cut by GHC at its -L limit: {placed} placed under the frame their \
             kept name begins (their titles say so), {cut} standing alone (grey: callers \
             unknown). Run the program with a larger +RTS -L (say -L200) for whole stacks, or \
             profile to an eventlog (+RTS -l), whose stacks are whole",
            cut + placed
        ))
    } else {
        None
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::hp::parse;

    fn profile(body: &str) -> Profile {
        let text =
            format!("JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n{body}");
        parse(text.as_bytes()).expect("parses").profile
    }

    const TWO: &str = "BEGIN_SAMPLE 0\n(1)main/Main.CAF\t10\nEND_SAMPLE 0\n\
        BEGIN_SAMPLE 1\n(1)main/Main.CAF\t10\n(2)go/main/Main.CAF\t30\n(3)MAIN\t5\n\
        (4)h/f/Long.Module.Na...\t7\nEND_SAMPLE 1\n\
        BEGIN_SAMPLE 2\n(1)main/Main.CAF\t1\nEND_SAMPLE 2\n";

    #[test]
    fn frames_nest_outermost_first_and_own_bytes_add_up() {
        let f = flame(&profile(TWO), When::Peak);
        assert_eq!(
            (f.census.sample, f.census.from, f.census.total),
            (Some(1), 1.0, 52.0)
        );
        let find = |name: &[u8]| f.frames.iter().position(|x| x.name == name).unwrap();
        let caf = find(b"Main.CAF");
        let main = find(b"main");
        let go = find(b"go");
        assert_eq!(f.frames[main].parent, Some(caf));
        assert_eq!(f.frames[go].parent, Some(main));
        assert_eq!((f.frames[caf].bytes, f.frames[caf].own), (40.0, 0.0));
        assert_eq!((f.frames[main].bytes, f.frames[main].own), (40.0, 10.0));
        assert_eq!(f.stack(go), b"go/main/Main.CAF");
        let own: f64 = f.frames.iter().map(|x| x.own).sum();
        assert_eq!(own, f.census.total);
        assert_eq!(f.frames[0].bytes, f.census.total);
        // Cut at -L: the outermost label GHC kept is marked.
        let cut = find(b"Long.Module.Na...");
        assert!(f.frames[cut].cut && f.frames[cut].depth == 1);
        assert!(!f.frames[main].cut);
        assert_eq!(f.depth, 3);
    }

    #[test]
    fn siblings_are_in_name_order() {
        let f = flame(&profile(TWO), When::At(0.9));
        assert_eq!(f.census.sample, Some(1));
        let roots: Vec<&Frame> = f.frames.iter().filter(|x| x.depth == 1).collect();
        let names: Vec<&[u8]> = roots.iter().map(|x| &x.name[..]).collect();
        assert_eq!(names, [&b"Long.Module.Na..."[..], b"MAIN", b"Main.CAF"]);
        let bytes: Vec<f64> = roots.iter().map(|x| x.bytes).collect();
        assert_eq!(bytes, [7.0, 5.0, 40.0]);
        // Pre-order: each frame after its parent.
        for (i, x) in f.frames.iter().enumerate() {
            assert!(x.parent.is_none_or(|p| p < i));
        }
    }

    #[test]
    fn end_and_times_pick_their_census() {
        let p = profile(TWO);
        let at = |w| flame(&p, w).census.sample;
        assert_eq!(at(When::End), Some(2));
        assert_eq!(at(When::At(-5.0)), Some(0));
        assert_eq!(at(When::At(1.6)), Some(2));
        assert_eq!(at(When::At(99.0)), Some(2));
    }

    #[test]
    fn a_stack_ghc_cut_stands_under_the_frame_its_kept_name_begins() {
        // `Ma...` can only be Main.CAF; `m...` could be main or mk, but only main calls
        // `g`, the cut stack's next frame, in a whole stack; `x...` begins nothing.
        let p = profile(
            "BEGIN_SAMPLE 0\n(1)go/main/Main.CAF\t10\n(2)f/mk/Main.CAF\t1\n\
             (3)h/g/main/Ma...\t4\n(4)k/g/m...\t2\n(5)q/x...\t3\n(6)g/main/Main.CAF\t1\n\
             END_SAMPLE 0\n",
        );
        let placed = placements(&p);
        let path = |k: usize| {
            placed[k]
                .as_ref()
                .map(|p| (p.frames.join(&b'/'), p.inferred))
        };
        assert_eq!(path(2), Some((b"Main.CAF/main/g/h".to_vec(), 1)));
        assert_eq!(path(3), Some((b"Main.CAF/main/g/k".to_vec(), 2)));
        assert_eq!(path(4), None);
        assert_eq!((path(0), path(1)), (None, None));
        let f = flame(&p, When::Peak);
        assert_eq!(f.cuts, (2, 1));
        let h = f.frames.iter().position(|x| x.name == b"h").unwrap();
        assert!(f.frames[h].placed && f.stack(h) == b"h/g/main/Main.CAF");
        // A window that leaves out the whole stacks does not move it: a filter keeps
        // their names.
        let only = crate::select::filter::Filter {
            include: vec![regex::bytes::Regex::new("^\\(3\\)").unwrap()],
            ..Default::default()
        }
        .apply(p)
        .unwrap();
        assert_eq!(
            placements(&only)[0].as_ref().map(|p| p.frames.join(&b'/')),
            Some(b"Main.CAF/main/g/h".to_vec())
        );
    }

    #[test]
    fn a_stem_that_begins_too_many_frames_places_nothing() {
        let mut body = String::from("BEGIN_SAMPLE 0\n(1)z/a...\t1\n");
        for k in 0..=MAX_PLACES {
            body.push_str(&format!("({})a{k}\t1\n", k + 2));
        }
        body.push_str("END_SAMPLE 0\n");
        assert_eq!(placements(&profile(&body))[0], None);
    }

    #[test]
    fn the_mean_integrates_between_censuses() {
        // Samples at 0, 1, 2. main/Main.CAF: 10, 10, 1: trapezoids (10 + 10) / 2 +
        // (10 + 1) / 2 = 15.5 over 2 s. go: 0, 30, 0: 30 over 2 s.
        let f = flame(&profile(TWO), When::Mean);
        assert_eq!(f.census.sample, None);
        assert_eq!((f.census.from, f.census.to), (0.0, 2.0));
        let find = |name: &[u8]| f.frames.iter().position(|x| x.name == name).unwrap();
        assert_eq!(f.frames[find(b"go")].bytes, 15.0);
        assert_eq!(f.frames[find(b"main")].own, 7.75);
        let all = (15.5 + 30.0 + 5.0 + 7.0) / 2.0;
        assert_eq!(f.census.total, all);
        assert_eq!(f.frames[0].bytes, all);
    }

    #[test]
    fn other_break_downs_are_one_level() {
        let mut p = profile(TWO);
        p.breakdown = Breakdown::Other;
        let f = flame(&p, When::Peak);
        assert_eq!(f.depth, 1);
        assert!(f.frames.iter().any(|x| x.name == b"(2)go/main/Main.CAF"));
    }

    #[test]
    fn a_deep_stack_keeps_both_ends_within_the_depth_limit() {
        // 5,000 frames (a name of 29 kB, within the reader's name limit).
        let name: Vec<String> = (0..5_000).map(|i| format!("f{i}")).collect();
        let p = profile(&format!(
            "BEGIN_SAMPLE 0\n{}\t8\nEND_SAMPLE 0\n",
            name.join("/")
        ));
        let f = flame(&p, When::Peak);
        assert_eq!(f.depth, MAX_DEPTH);
        let leaf = f.frames.last().unwrap();
        assert_eq!((leaf.own, &leaf.name[..]), (8.0, &b"f0"[..]));
        assert_eq!(f.frames[1].name, b"f4999");
        let elided = f.frames.iter().position(|x| x.name == ELIDED).unwrap();
        assert_eq!(f.frames[elided].depth, MAX_DEPTH / 2 + 1);
        assert_eq!(
            f.frames[elided - 1].name,
            format!("f{}", 5_000 - MAX_DEPTH / 2).as_bytes()
        );
        assert_eq!(
            f.frames[elided + 1].name,
            format!("f{}", MAX_DEPTH / 2 - 2).as_bytes()
        );
        // One frame short of the limit is kept whole.
        let whole = labels(b"a/b/c", Breakdown::CostCentreStacks).0;
        assert_eq!(whole, [&b"c"[..], b"b", b"a"]);
    }
}
