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

use std::collections::HashMap;

use crate::profile::{Breakdown, Profile};

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

/// Each band's weight at `when` (its value at the census, or its mean over the
/// profile's time) with the census it is taken at. The one rule the flame graph and
/// every stack export weigh by.
pub fn weights(profile: &Profile, when: When) -> (Census, Vec<f64>) {
    let n = profile.samples();
    let times = &profile.times;
    let mut weights = vec![0.0; profile.bands.names().len()];
    if when == When::Mean && n > 1 && times[n - 1] > times[0] {
        // Trapezoids over sparse series: each sample's value counts for half the time
        // to the sample before it and half to the one after, so a band is summed over
        // its own points without a dense copy.
        let span = times[n - 1] - times[0];
        let share =
            |s: usize| (times[(s + 1).min(n - 1)] - times[s.saturating_sub(1)]) / 2.0 / span;
        for (w, series) in weights.iter_mut().zip(profile.bands.series()) {
            series.for_each(|s, v| *w += v * share(s as usize));
        }
        let total = weights.iter().sum();
        let census = Census {
            when,
            sample: None,
            from: times[0],
            to: times[n - 1],
            total,
        };
        return (census, weights);
    }
    let totals = profile.totals();
    let sample = pick(profile, &totals, when);
    for (w, series) in weights.iter_mut().zip(profile.bands.series()) {
        series.for_each(|s, v| {
            if s as usize == sample {
                *w += v;
            }
        });
    }
    let census = Census {
        when,
        sample: Some(sample),
        from: times[sample],
        to: times[sample],
        total: totals[sample],
    };
    (census, weights)
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
pub fn stack_of(profile: &Profile, band: usize, bytes: f64) -> Stack<'_> {
    let name = &profile.bands.names()[band];
    let (frames, cut) = labels(name, profile.breakdown);
    Stack {
        band: name,
        frames,
        cut,
        bytes,
    }
}

/// Every band's stack with its bytes at `when`, bands without any left out, in the
/// profile's band order.
pub fn stacks(profile: &Profile, when: When) -> (Census, Vec<Stack<'_>>) {
    let (census, weights) = weights(profile, when);
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
}

impl Flame {
    /// A frame's stack named as its band is: labels innermost first, joined by `/` (an
    /// inverted graph's frame names the innermost part of the stacks through it).
    pub fn stack(&self, k: usize) -> Vec<u8> {
        let mut labels = Vec::new();
        let mut at = Some(k);
        while let Some(i) = at {
            if i == 0 {
                break;
            }
            labels.push(&self.frames[i].name[..]);
            at = self.frames[i].parent;
        }
        if self.direction == Direction::Inverted {
            labels.reverse();
        }
        labels.join(&b'/')
    }
}

/// The census `when` picks (the profile has at least one sample); for the mean, the
/// peak census.
pub fn census(profile: &Profile, when: When) -> usize {
    pick(profile, &profile.totals(), when)
}

fn pick(profile: &Profile, totals: &[f64], when: When) -> usize {
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

/// The frames of a band's name, outermost first, and whether GHC cut the name.
pub(crate) fn labels(name: &[u8], breakdown: Breakdown) -> (Vec<&[u8]>, bool) {
    if breakdown == Breakdown::Other {
        return (vec![name], false);
    }
    let name = unnumbered(name);
    let cut = cut_stem(name).is_some();
    let mut labels: Vec<&[u8]> = name.split(|&b| b == b'/').collect();
    labels.reverse();
    (labels, cut)
}

/// The flame graph of the census `when` picks (or of the mean over the profile's time).
pub fn flame(profile: &Profile, when: When) -> Flame {
    shaped(profile, when, Direction::Callers)
}

/// [`flame`], growing either way.
pub fn shaped(profile: &Profile, when: When, direction: Direction) -> Flame {
    let (census, stacks) = stacks(profile, when);
    let mut tree = Tree::new(direction);
    for stack in &stacks {
        tree.add(stack, 1);
    }
    tree.finish(profile, census, None)
}

/// AFTER's flame graph with what each frame held in BEFORE: the two runs' stacks (named
/// alike already, [`crate::analysis::compare::matched`]) each weighed at `when` (each
/// run's own peak census, say). A frame only BEFORE had is kept, 0 bytes wide, so that
/// what went away is still there to read.
pub fn differential(before: &Profile, after: &Profile, when: When, direction: Direction) -> Flame {
    let (was, old) = stacks(before, when);
    let (census, new) = stacks(after, when);
    let mut tree = Tree::new(direction);
    for stack in &new {
        tree.add(stack, 1);
    }
    for stack in &old {
        tree.add(stack, 0);
    }
    tree.finish(after, census, Some(was))
}

/// Frames being gathered from stacks, before they are put in order.
struct Tree<'a> {
    direction: Direction,
    frames: Vec<Frame>,
    children: HashMap<(usize, &'a [u8]), usize>,
}

impl<'a> Tree<'a> {
    fn new(direction: Direction) -> Tree<'a> {
        Tree {
            direction,
            frames: vec![Frame {
                name: b"all".to_vec(),
                parent: None,
                depth: 0,
                bytes: 0.0,
                own: 0.0,
                cut: false,
                before: 0.0,
                own_before: 0.0,
            }],
            children: HashMap::new(),
        }
    }

    /// Adds a stack's bytes to the frames on its path: to `bytes` for `side` 1 (the
    /// graph's own run), to `before` for 0.
    fn add(&mut self, stack: &Stack<'a>, side: usize) {
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
                    });
                    self.children.insert((at, label), self.frames.len() - 1);
                    self.frames.len() - 1
                }
            };
            credit(&mut self.frames[at]);
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

    fn finish(self, profile: &Profile, census: Census, before: Option<Census>) -> Flame {
        let frames = ordered(self.frames);
        Flame {
            job: profile.job.clone(),
            date: profile.date.clone(),
            value_unit: profile.value_unit.clone(),
            sample_unit: profile.sample_unit.clone(),
            census,
            depth: frames.iter().map(|f| f.depth).max().unwrap_or(0),
            direction: self.direction,
            before,
            frames,
        }
    }
}

/// What a reader of `flame` should be told: a graph of one level (the profile is not
/// broken down by cost-centre stacks), or stacks GHC cut at `-L`.
pub fn advice(flame: &Flame) -> Option<String> {
    let cut = flame.frames.iter().filter(|f| f.cut).count();
    if flame.depth == 1 && flame.frames.len() > 2 {
        Some(
            "every band is one frame: a flame graph of callers needs cost-centre stacks \
             (a profiling build run with +RTS -hc)"
                .into(),
        )
    } else if cut > 0 {
        let (n, were) = if cut == 1 {
            ("1 stack".to_string(), "was")
        } else {
            (format!("{cut} stacks"), "were")
        };
        Some(format!(
            "{n} {were} cut by GHC at its -L limit (grey: the callers are unknown): run the \
             program with a larger +RTS -L (say -L200) for whole stacks, or profile to an \
             eventlog (+RTS -l), whose stacks are whole"
        ))
    } else {
        None
    }
}

/// The frames in depth-first order, callees by name. Iterative: a stack can be a hundred
/// thousand labels deep.
fn ordered(mut frames: Vec<Frame>) -> Vec<Frame> {
    let mut kids: Vec<Vec<usize>> = vec![Vec::new(); frames.len()];
    for (i, f) in frames.iter().enumerate().skip(1) {
        kids[f.parent.expect("only the root has none")].push(i);
    }
    for k in &mut kids {
        k.sort_by(|&a, &b| frames[a].name.cmp(&frames[b].name));
    }
    let mut out: Vec<Frame> = Vec::with_capacity(frames.len());
    // (old index, new index of its parent)
    let mut todo = vec![(0usize, None::<usize>)];
    while let Some((i, parent)) = todo.pop() {
        let f = Frame {
            name: std::mem::take(&mut frames[i].name),
            parent,
            ..frames[i]
        };
        todo.extend(kids[i].iter().rev().map(|&c| (c, Some(out.len()))));
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
    fn a_deep_stack_does_not_recurse() {
        let name: Vec<String> = (0..200_000).map(|i| format!("f{i}")).collect();
        let p = profile(&format!(
            "BEGIN_SAMPLE 0\n{}\t8\nEND_SAMPLE 0\n",
            name.join("/")
        ));
        let f = flame(&p, When::Peak);
        assert_eq!(f.depth, 200_000);
        assert_eq!(f.frames.last().unwrap().own, 8.0);
    }
}
