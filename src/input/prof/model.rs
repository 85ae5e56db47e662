//! A report's tree as the shared model's bands: one census, at the run's end, whose
//! bands are the stacks with anything to weigh, each named GHC's way (`Module.label`
//! frames innermost first, joined by `/`) with its frames kept one by one
//! ([`Costs::stacks`]), so that the flame graph, its exports and the page read it as
//! they read a heap profile's census.
//!
//! A report's tree shares its callers' frames; bands list their own. Listing each
//! stack's whole path would cost the sum of the stacks' depths (30 chains 4,000 deep:
//! 240 million frames, gigabytes of names), so the paths are a trie walked once, parent
//! before child: a stack finds its band in one step, and only what a band keeps (a name
//! within the readers' budget, at most [`MAX_FRAMES`] frames) is ever written out.

use std::hash::Hasher as _;
use std::sync::Arc;

use crate::input::FxHasher;
use crate::input::names::{FrameBudget, MAX_LABEL, NameIndex, tagged_with};
use crate::profile::costs::{self, CostProfile, MAX_FRAMES, Measure};
use crate::profile::hash::FxMap;
use crate::profile::{BandsFrom, Breakdown, Costs, Profile, Series};

/// A frame's name, shared by the stacks through it.
type Name = Arc<[u8]>;

/// No path: an outermost path's parent; a path no band ends on yet.
const NONE: u32 = costs::NO_PATH;

/// What a band is made of a path ([`crate::profile::costs::Paths`]) needs beside it.
struct Node {
    /// The node on the path at depth [`MAX_FRAMES`] (itself when no deeper): where the
    /// frames a band keeps end, found without walking the path.
    anchor: u32,
    /// The hash of the whole path's names, outermost first: a cut name's tag.
    hash: u64,
    /// The band the path's stacks add to.
    band: u32,
}

/// The report's paths with what each band needs of its own.
struct Paths {
    trie: costs::Paths,
    nodes: Vec<Node>,
}

impl Paths {
    fn of(costs: &CostProfile, name_of: &[u32], names: &[Name]) -> Paths {
        let paths = costs.paths(name_of);
        let mut nodes: Vec<Node> = Vec::with_capacity(paths.parent.len());
        for (id, (&parent, &name)) in paths.parent.iter().zip(&paths.name).enumerate() {
            let up = nodes.get(parent as usize);
            let mut h = FxHasher::default();
            h.write_u64(up.map_or(0, |n| n.hash));
            h.write(&names[name as usize]);
            let anchor = match up {
                Some(n) if paths.depth[id] as usize > MAX_FRAMES => n.anchor,
                _ => id as u32,
            };
            nodes.push(Node {
                anchor,
                hash: h.finish(),
                band: NONE,
            });
        }
        Paths { trie: paths, nodes }
    }

    /// The path's outermost frames, at most `max` of them, outermost first.
    fn frames(&self, node: u32, max: usize, names: &[Name]) -> Vec<Name> {
        let p = &self.trie;
        let mut at = node;
        if p.depth[at as usize] as usize > MAX_FRAMES {
            at = self.nodes[at as usize].anchor;
        }
        while p.depth[at as usize] as usize > max {
            at = p.parent[at as usize];
        }
        let mut frames = Vec::with_capacity(p.depth[at as usize] as usize);
        while at != NONE {
            frames.push(names[p.name[at as usize] as usize].clone());
            at = p.parent[at as usize];
        }
        frames.reverse();
        frames
    }

    /// The path's band name (innermost first, joined by `/`) if it is at most `max`
    /// bytes, else its first `max` bytes cut and tagged with the whole path's hash; and
    /// whether it was cut. Reads no more of the path than the name keeps.
    fn name(&self, node: u32, max: usize, names: &[Name]) -> (Box<[u8]>, bool) {
        let p = &self.trie;
        let mut name = Vec::new();
        let mut at = node;
        while at != NONE {
            if !name.is_empty() {
                name.push(b'/');
            }
            name.extend_from_slice(&names[p.name[at as usize] as usize]);
            if name.len() > max {
                let whole = self.nodes[node as usize].hash;
                return (tagged_with(&name, max, whole), true);
            }
            at = p.parent[at as usize];
        }
        (name.into(), false)
    }
}

/// The shared model of a cost-centre profile, weighed by `measure` (time where the
/// profile has ticks, else allocation). Stacks that name the same frames are one band.
pub fn profile(costs: &CostProfile, measure: Option<Measure>) -> Costs {
    profile_and_cut(costs, measure).0
}

/// Cuts `costs`' labels, modules and sources longer than the eventlog reader's
/// [`MAX_LABEL`] as it cuts its own (a label of a megabyte under 600 callers would
/// otherwise be written 600 times by every view that names a stack); whether any was.
/// A label shared by many cost centres is cut once and still shared.
pub(super) fn cut_labels(costs: &mut CostProfile) -> bool {
    let mut cut: FxMap<*const u8, Name> = FxMap::default();
    let mut any = false;
    let mut shorten = |text: &mut Name| {
        if text.len() > MAX_LABEL {
            let short = cut.entry(text.as_ptr()).or_insert_with(|| {
                crate::profile::cut_text(text, MAX_LABEL).map_or_else(|| text.clone(), Name::from)
            });
            *text = short.clone();
            any = true;
        }
    };
    for c in &mut costs.centres {
        shorten(&mut c.label);
        shorten(&mut c.module);
        if let Some(src) = crate::profile::cut_text(&c.src, MAX_LABEL) {
            c.src = src;
        }
    }
    any
}

/// An empty model of `costs` weighed by `measure`: its header and units.
fn empty_model(costs: &CostProfile, measure: Measure) -> Costs {
    let mut p = Profile {
        job: costs.command.to_vec(),
        date: costs.date.to_vec(),
        times: vec![costs.seconds],
        breakdown: Breakdown::CostCentreStacks,
        quantity: crate::profile::Quantity::Cost(measure),
        ..Profile::default()
    };
    let unit: &[u8] = match measure {
        Measure::Time => b"ticks",
        Measure::Alloc => b"bytes",
        Measure::Entries => b"entries",
    };
    p.set_units(b"seconds".to_vec(), unit.to_vec());
    Costs {
        series: p,
        measure,
        ..Costs::default()
    }
}

/// What a report's stacks are weighed by: `measure` where one is asked for, else time
/// where the report has ticks, else allocation.
fn measure_of(costs: &CostProfile, measure: Option<Measure>) -> Measure {
    measure.unwrap_or(if costs.stacks.iter().any(|s| s.ticks > 0.0) {
        Measure::Time
    } else {
        Measure::Alloc
    })
}

/// The model of `costs` without its bands ([`crate::input::Options::bands`]): its header,
/// units and measure, the stacks left in the tree ([`BandsFrom::LeftOut`]).
pub(super) fn without_bands(costs: &CostProfile, measure: Option<Measure>) -> Costs {
    Costs {
        bands_from: BandsFrom::LeftOut,
        ..empty_model(costs, measure_of(costs, measure))
    }
}

/// [`profile`], and whether a band's name or frames were cut to the readers' budget
/// ([`crate::input::names`]).
pub(super) fn profile_and_cut(costs: &CostProfile, measure: Option<Measure>) -> (Costs, bool) {
    let measure = measure_of(costs, measure);
    let mut p = empty_model(costs, measure);
    let (names, name_of) = costs.frame_names();
    for (centre, &n) in costs.centres.iter().zip(&name_of) {
        let name = &*names[n as usize];
        if !p.sources.contains_key(name) {
            p.sources.insert(name.into(), centre.src.clone());
        }
    }
    // Names and frames under the readers' one budget (each kept once, cut at a limit, a
    // total).
    // Room for as many paths as there are stacks, and as many bands as weigh anything:
    // growing tables of 100,000s hash their keys again at each step (and a table made
    // too large is touched all over by keys spread over it).
    let weighed = (costs.stacks.iter())
        .filter(|s| measure.of(s) != 0.0)
        .count();
    let mut index = NameIndex::with_capacity(weighed);
    let mut budget = FrameBudget::default();
    let mut paths = Paths::of(costs, &name_of, &names);
    p.stacks.reserve(weighed);
    let mut values: Vec<f64> = Vec::new();
    for (stack, &node) in costs.stacks.iter().zip(&paths.trie.of) {
        let value = measure.of(stack);
        if value == 0.0 {
            continue;
        }
        let mut band = paths.nodes[node as usize].band;
        if band == NONE {
            let (name, cut) = paths.name(node, index.limit(), &names);
            index.cut |= cut;
            band = match index.get(p.series().bands.names(), &name) {
                Some(b) => b,
                None => {
                    let depth = paths.trie.depth[node as usize] as usize;
                    let frames = paths.frames(node, budget.limit(), &names);
                    p.stacks.insert(name.clone(), budget.keep(frames, depth));
                    values.push(0.0);
                    let b = p.series_mut().bands.push(name, Series::default());
                    index.insert(p.series().bands.names(), b);
                    b
                }
            };
            paths.nodes[node as usize].band = band;
        }
        values[band as usize] += value;
    }
    for (b, value) in values.into_iter().enumerate() {
        p.series_mut().bands.series_mut()[b].push(0, value);
    }
    let p = Costs {
        bands_from: BandsFrom::Tree,
        ..p
    };
    (p, index.cut || budget.cut)
}
