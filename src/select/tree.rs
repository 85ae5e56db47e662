//! A report's flame graph read from its tree, not from its bands.
//!
//! A report's bands are its stacks, each named by its whole path of frames; the flame
//! graph made from them splits every name again and looks each frame up by its text (a
//! report of 400,000 stacks 15 deep is 6 million lookups of names), and naming the
//! bands at all is a third of the time of such a figure and most of its memory. The
//! tree already says who calls whom: a stack's frame is its caller's frame's child of
//! the same name, found by two numbers. What comes out is the graph
//! [`super::flame::shaped`] makes of the bands — the same frames, each holding the same
//! sums added in the same order. Grown from the outermost frames, within [`MAX_DEPTH`]
//! and [`MAX_GRAPH_FRAMES`], each path of the tree is one frame ([`callers`]); otherwise
//! (inverted, deeper, larger) each path is added as the bands' stacks are, frame by
//! frame, and left out past the limits as they are ([`through_stacks`]).

use super::frames::{
    Census, Direction, Flame, Frame, MAX_DEPTH, MAX_GRAPH_FRAMES, Stack, WhichCensus, ordered,
};
use crate::profile::Profile;
use crate::profile::costs::{self, CostProfile, Measure};

/// A frame's name, shared by the cost centres that have it.
type Name = std::sync::Arc<[u8]>;

/// No path, or no frame yet.
const NONE: u32 = costs::NO_PATH;

/// The tree's paths ([`costs::Paths`]), each weighed: one band each, one frame of the
/// graph each.
struct Paths {
    trie: costs::Paths,
    /// Each path's measure, summed over its stacks in the report's order.
    value: Vec<f64>,
    /// The paths that weigh anything, in the order their first such stack comes: the
    /// bands' order.
    weighed: Vec<u32>,
}

impl Paths {
    fn of(tree: &CostProfile, measure: Measure, name_of: &[u32]) -> Paths {
        let paths = tree.paths(name_of);
        let mut value = vec![0.0; paths.parent.len()];
        let mut seen = vec![false; paths.parent.len()];
        let mut weighed = Vec::new();
        for (stack, &path) in tree.stacks.iter().zip(&paths.of) {
            let v = measure.of(stack);
            if v != 0.0 {
                if !seen[path as usize] {
                    seen[path as usize] = true;
                    weighed.push(path);
                }
                value[path as usize] += v;
            }
        }
        Paths {
            trie: paths,
            value,
            weighed,
        }
    }
}

/// The flame graph of `tree` weighed by `measure`, its census the whole run of
/// `series`' times, growing either way.
pub fn flame(
    tree: &CostProfile,
    measure: Measure,
    series: &Profile,
    when: WhichCensus,
    direction: Direction,
) -> Flame {
    let (names, name_of) = tree.frame_names();
    let paths = Paths::of(tree, measure, &name_of);
    let direct = (direction == Direction::Callers)
        .then(|| callers(&paths, &names, series, when))
        .flatten();
    direct.unwrap_or_else(|| through_stacks(&paths, &names, series, when, direction))
}

/// The graph as the bands' graph makes it: each weighed path a stack of at most
/// [`MAX_DEPTH`] frames (its outermost), added to the frames one by one. For what
/// [`callers`] leaves: an inverted graph, deep stacks, a graph past its frames.
fn through_stacks(
    paths: &Paths,
    names: &[Name],
    series: &Profile,
    when: WhichCensus,
    direction: Direction,
) -> Flame {
    let mut graph = super::grow::Tree::new(direction);
    let (mut total, mut deep) = (0.0, 0);
    for &path in &paths.weighed {
        deep += usize::from(paths.trie.depth[path as usize] as usize > MAX_DEPTH);
        let mut frames: Vec<&[u8]> = Vec::new();
        let mut at = path;
        while at != NONE {
            frames.push(&names[paths.trie.name[at as usize] as usize]);
            at = paths.trie.parent[at as usize];
        }
        frames.reverse();
        frames.truncate(MAX_DEPTH);
        let bytes = paths.value[path as usize];
        total += bytes;
        let stack = Stack {
            band: &[],
            frames,
            cut: false,
            bytes,
        };
        graph.add(&stack, 1, None);
    }
    let census = Census::whole_run(when, &series.times, total);
    Flame {
        deep,
        ..graph.finish(series, census, None)
    }
}

/// The graph grown from the outermost frames, each path one frame: `None` past
/// [`MAX_DEPTH`] or [`MAX_GRAPH_FRAMES`], where frames are left out as the bands'
/// graph leaves them ([`through_stacks`]).
fn callers(paths: &Paths, names: &[Name], series: &Profile, when: WhichCensus) -> Option<Flame> {
    if paths.trie.depth.iter().any(|&d| d as usize > MAX_DEPTH) {
        return None;
    }
    // A frame a path at most: made the size it may end at, not copied as it grows.
    let mut frames = Vec::with_capacity(paths.trie.parent.len().min(MAX_GRAPH_FRAMES) + 1);
    frames.push(Frame::root());
    let mut frame_of = vec![NONE; paths.trie.parent.len()];
    let mut total = 0.0;
    let mut up: Vec<u32> = Vec::new();
    for &path in &paths.weighed {
        // The path's frames not made yet, innermost first, then made outermost first:
        // the order the bands' graph makes them in.
        up.clear();
        let mut at = path;
        while at != NONE && frame_of[at as usize] == NONE {
            up.push(at);
            at = paths.trie.parent[at as usize];
        }
        if frames.len() + up.len() > MAX_GRAPH_FRAMES {
            return None;
        }
        for &p in up.iter().rev() {
            let parent = match paths.trie.parent[p as usize] {
                NONE => 0,
                q => frame_of[q as usize] as usize,
            };
            frame_of[p as usize] = frames.len() as u32;
            frames.push(Frame {
                name: names[paths.trie.name[p as usize] as usize].to_vec(),
                parent: Some(parent),
                depth: paths.trie.depth[p as usize] as usize,
                ..Frame::root()
            });
        }
        let value = paths.value[path as usize];
        total += value;
        frames[0].bytes += value;
        let mut at = path;
        while at != NONE {
            frames[frame_of[at as usize] as usize].bytes += value;
            at = paths.trie.parent[at as usize];
        }
        frames[frame_of[path as usize] as usize].own += value;
    }
    let frames = ordered(frames);
    Some(Flame {
        job: series.job.clone(),
        date: series.date.clone(),
        value_unit: series.value_unit.clone(),
        sample_unit: series.sample_unit.clone(),
        units: series.units,
        census: Census::whole_run(when, &series.times, total),
        depth: frames.iter().map(|f| f.depth).max().unwrap_or(0),
        direction: Direction::Callers,
        before: None,
        cuts: (0, 0),
        elided: 0,
        deep: 0,
        frames,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::costs::{CostCentre, Precision, Stack};
    use crate::profile::{Costs, Model};
    use crate::select::flame::{Direction, Stacked, shaped};

    fn report(path: &str, measure: Option<Measure>, bands: bool) -> Costs {
        let file = format!("{}/fixtures/prof/{path}", env!("CARGO_MANIFEST_DIR"));
        let bytes = std::fs::read(&file).expect("a fixture");
        let options = crate::input::Options {
            measure,
            bands,
            ..Default::default()
        };
        match crate::input::prof::read(&bytes, options)
            .expect("reads")
            .profile
        {
            Model::Costs(c) => c,
            Model::Heap(_) => panic!("a report reads as costs"),
        }
    }

    /// The graph of the bands, as every other profile's is made.
    fn of_bands(costs: &Costs, direction: Direction) -> Flame {
        let mut bands = costs.clone();
        bands.bands_from = crate::profile::BandsFrom::Own;
        shaped(&bands, WhichCensus::Peak, direction)
    }

    #[test]
    fn every_report_fixture_reads_as_its_bands_draw() {
        let reports = [
            "pandoc-ghc-9.0.2/Pandoc-P.prof",
            "pandoc-ghc-9.0.2/Pandoc-pj.prof",
            "ghc-9.0.2/MapFib-p.prof",
            "ghc-9.0.2/MapFib-pa.prof",
            "ghc-9.0.2/Newline-P.prof",
            "ghc-9.6.6/MapFib-pj.prof",
            "ghc-9.10.3/Deep-pj.prof",
            "ghc-9.0.2/Newline-pj.prof",
            "ghc-9.10.3/Deep-P.prof",
            "ghc-9.10.3/MapFib-P.prof",
        ];
        let measures = [None, Some(Measure::Alloc), Some(Measure::Entries)];
        for path in reports {
            for measure in measures {
                let costs = report(path, measure, true);
                let left_out = report(path, measure, false);
                assert!(
                    left_out.series().bands.is_empty() && !costs.series().bands.is_empty(),
                    "{path}"
                );
                for direction in [Direction::Callers, Direction::Inverted] {
                    let drawn = shaped(&costs, WhichCensus::Peak, direction);
                    assert!(drawn.frames.len() > 2, "{path}");
                    let said = format!("{path} {measure:?} {direction:?}");
                    assert_eq!(drawn, of_bands(&costs, direction), "{said}");
                    assert_eq!(
                        shaped(&left_out, WhichCensus::Peak, direction),
                        drawn,
                        "{said}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_filter_or_any_change_to_the_bands_reads_them_instead() {
        let costs = report("ghc-9.0.2/MapFib-P.prof", None, true);
        let filter = crate::select::filter::Filter {
            include: vec![regex::bytes::Regex::new("fib").unwrap()],
            ..Default::default()
        };
        let kept = filter.apply_costs(costs.clone()).unwrap();
        assert!(kept.whole_tree().is_none());
        let whole = shaped(&costs, WhichCensus::Peak, Direction::Callers);
        let filtered = shaped(&kept, WhichCensus::Peak, Direction::Callers);
        assert!(filtered.census.total < whole.census.total);
        let mut touched = costs.clone();
        touched.series_mut().bands.names_mut()[0] = b"renamed".to_vec().into();
        assert!(touched.whole_tree().is_none());
    }

    /// A chain of `depth` stacks under MAIN, the deepest weighing 1 tick, and `wide`
    /// more stacks under MAIN weighing 1 each.
    fn chain(depth: usize, wide: usize) -> Costs {
        let centre = |label: &str| CostCentre {
            label: label.as_bytes().into(),
            module: b"M".as_slice().into(),
            src: b"M.hs:1:1".as_slice().into(),
        };
        let mut tree = CostProfile {
            command: b"prog".as_slice().into(),
            date: b"d".as_slice().into(),
            seconds: 1.0,
            total_ticks: 1,
            tick_us: 1000,
            total_bytes: 0,
            centres: (0..depth.max(wide) + 1)
                .map(|k| centre(&format!("f{k}")))
                .collect(),
            stacks: Vec::new(),
            precision: Precision::Counted,
        };
        let stack = |centre: usize, parent: Option<usize>, ticks: f64| Stack {
            centre: centre as u32,
            parent: parent.map(|p| p as u32),
            number: 0,
            entries: 1,
            ticks,
            bytes: 0.0,
        };
        for k in 0..depth {
            let ticks = if k + 1 == depth { 1.0 } else { 0.0 };
            tree.stacks.push(stack(k, k.checked_sub(1), ticks));
        }
        for k in 0..wide {
            tree.stacks.push(stack(k + 1, Some(0), 1.0));
        }
        let r = crate::input::prof::Read {
            profile: tree,
            warnings: Vec::new(),
        };
        match crate::input::prof::model_of(r, Default::default()).profile {
            Model::Costs(c) => c,
            Model::Heap(_) => unreachable!(),
        }
    }

    #[test]
    fn past_the_graphs_depth_or_frames_the_bands_draw_it() {
        for (depth, wide) in [
            (MAX_DEPTH, 0),
            (MAX_DEPTH + 1, 0),
            (2, MAX_GRAPH_FRAMES + 1),
        ] {
            let costs = chain(depth, wide);
            let (tree, m) = costs.whole_tree().unwrap();
            let (names, name_of) = tree.frame_names();
            let paths = Paths::of(tree, m, &name_of);
            let direct = callers(&paths, &names, &costs.series, WhichCensus::Peak);
            let within = depth <= MAX_DEPTH && wide + 2 <= MAX_GRAPH_FRAMES;
            assert_eq!(direct.is_some(), within, "{depth} {wide}");
            let drawn = shaped(&costs, WhichCensus::Peak, Direction::Callers);
            assert_eq!(drawn.deep, usize::from(depth > MAX_DEPTH));
            let bands = Flame {
                deep: drawn.deep,
                ..of_bands(&costs, Direction::Callers)
            };
            assert_eq!(drawn, bands, "{depth} {wide}");
            assert_eq!(drawn.frames[0].bytes, (wide + 1) as f64);
        }
    }
}
