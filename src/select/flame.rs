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

use crate::profile::Profile;

pub(crate) use super::frames::labels;
pub use super::frames::{
    CUT_NOTE, Census, Direction, ELIDED, Flame, Frame, MAX_DEPTH, MAX_GRAPH_FRAMES, PLACED_NOTE,
    Stack, WhichCensus, census, cut_stem, shown, unnumbered, unpackaged,
};
pub(super) use super::grow::Tree;
pub use super::stacked::Stacked;

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
pub fn stacks<S: Stacked + ?Sized>(profile: &S, when: WhichCensus) -> (Census, Vec<Stack<'_>>) {
    let (census, weights) = profile.weights(when);
    let stacks = (weights.into_iter().enumerate())
        .filter(|(_, w)| *w != 0.0)
        .map(|(band, bytes)| stack_of(profile, band, bytes))
        .collect();
    (census, stacks)
}

/// The flame graph of the census `when` picks (or of the mean over the profile's time).
pub fn flame<S: Stacked + ?Sized>(profile: &S, when: WhichCensus) -> Flame {
    shaped(profile, when, Direction::Callers)
}

/// [`flame`], growing either way.
pub fn shaped<S: Stacked + ?Sized>(profile: &S, when: WhichCensus, direction: Direction) -> Flame {
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
    when: WhichCensus,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::hp::parse;
    use crate::profile::Breakdown;

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
        let f = flame(&profile(TWO), WhichCensus::Peak);
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
        let f = flame(&profile(TWO), WhichCensus::At(0.9));
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
        assert_eq!(at(WhichCensus::End), Some(2));
        assert_eq!(at(WhichCensus::At(-5.0)), Some(0));
        assert_eq!(at(WhichCensus::At(1.6)), Some(2));
        assert_eq!(at(WhichCensus::At(99.0)), Some(2));
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
        let f = flame(&p, WhichCensus::Peak);
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
        let f = flame(&profile(TWO), WhichCensus::Mean);
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
        let f = flame(&p, WhichCensus::Peak);
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
        let f = flame(&p, WhichCensus::Peak);
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
