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
use crate::profile::costs::{CostProfile, MAX_FRAMES, Measure};
use crate::profile::hash::FxMap;
use crate::profile::{Breakdown, Costs, Profile, Series};

/// A frame's name, shared by the stacks through it.
type Name = Arc<[u8]>;

/// No node: a root's parent; a path no band ends on yet.
const NONE: u32 = u32::MAX;

/// One path of frame names from an outermost frame. Stacks whose cost centres differ
/// only in their source spans name the same frames and share it.
struct Node {
    parent: u32,
    /// The frame's name (an index into the distinct names).
    name: u32,
    /// Frames on the path: 1 for an outermost one.
    depth: u32,
    /// The node on the path at depth [`MAX_FRAMES`] (itself when no deeper): where the
    /// frames a band keeps end, found without walking the path.
    anchor: u32,
    /// The hash of the whole path's names, outermost first: a cut name's tag.
    hash: u64,
    /// The band the path's stacks add to.
    band: u32,
}

#[derive(Default)]
struct Paths {
    nodes: Vec<Node>,
    children: FxMap<(u32, u32), u32>,
}

impl Paths {
    /// The path of `parent`'s with `name` after it.
    fn child(&mut self, parent: u32, name: u32, names: &[Name]) -> u32 {
        if let Some(&node) = self.children.get(&(parent, name)) {
            return node;
        }
        let id = self.nodes.len() as u32;
        let up = self.nodes.get(parent as usize);
        let depth = up.map_or(1, |n| n.depth + 1);
        let mut h = FxHasher::default();
        h.write_u64(up.map_or(0, |n| n.hash));
        h.write(&names[name as usize]);
        self.nodes.push(Node {
            parent,
            name,
            depth,
            anchor: match up {
                Some(n) if depth as usize > MAX_FRAMES => n.anchor,
                _ => id,
            },
            hash: h.finish(),
            band: NONE,
        });
        self.children.insert((parent, name), id);
        id
    }

    /// The path's outermost frames, at most `max` of them, outermost first.
    fn frames(&self, node: u32, max: usize, names: &[Name]) -> Vec<Name> {
        let mut at = node;
        if self.nodes[at as usize].depth as usize > MAX_FRAMES {
            at = self.nodes[at as usize].anchor;
        }
        while self.nodes[at as usize].depth as usize > max {
            at = self.nodes[at as usize].parent;
        }
        let mut frames = Vec::with_capacity(self.nodes[at as usize].depth as usize);
        while let Some(n) = self.nodes.get(at as usize) {
            frames.push(names[n.name as usize].clone());
            at = n.parent;
        }
        frames.reverse();
        frames
    }

    /// The path's band name (innermost first, joined by `/`) if it is at most `max`
    /// bytes, else its first `max` bytes cut and tagged with the whole path's hash; and
    /// whether it was cut. Reads no more of the path than the name keeps.
    fn name(&self, node: u32, max: usize, names: &[Name]) -> (Box<[u8]>, bool) {
        let mut name = Vec::new();
        let mut at = node;
        while let Some(n) = self.nodes.get(at as usize) {
            if !name.is_empty() {
                name.push(b'/');
            }
            name.extend_from_slice(&names[n.name as usize]);
            if name.len() > max {
                let whole = self.nodes[node as usize].hash;
                return (tagged_with(&name, max, whole), true);
            }
            at = n.parent;
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
/// units and measure, the stacks left in the tree, [`Costs::bands_left_out`].
pub(super) fn without_bands(costs: &CostProfile, measure: Option<Measure>) -> Costs {
    Costs {
        bands_left_out: true,
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
    let mut paths = Paths {
        nodes: Vec::with_capacity(costs.stacks.len()),
        children: FxMap::with_capacity_and_hasher(costs.stacks.len(), Default::default()),
    };
    p.stacks.reserve(weighed);
    let mut node_of: Vec<u32> = Vec::with_capacity(costs.stacks.len());
    let mut values: Vec<f64> = Vec::new();
    for stack in &costs.stacks {
        // The readers give a stack after its caller.
        let parent =
            (stack.parent).map_or(NONE, |s| node_of.get(s as usize).copied().unwrap_or(NONE));
        let node = paths.child(parent, name_of[stack.centre as usize], &names);
        node_of.push(node);
        let value = measure.of(stack);
        if value == 0.0 {
            continue;
        }
        let mut band = paths.nodes[node as usize].band;
        if band == NONE {
            let (name, cut) = paths.name(node, index.limit(), &names);
            index.cut |= cut;
            band = match index.get(p.bands.names(), &name) {
                Some(b) => b,
                None => {
                    let depth = paths.nodes[node as usize].depth as usize;
                    let frames = paths.frames(node, budget.limit(), &names);
                    p.stacks.insert(name.clone(), budget.keep(frames, depth));
                    values.push(0.0);
                    let b = p.bands.push(name, Series::default());
                    index.insert(p.bands.names(), b);
                    b
                }
            };
            paths.nodes[node as usize].band = band;
        }
        values[band as usize] += value;
    }
    for (b, value) in values.into_iter().enumerate() {
        p.bands.series_mut()[b].push(0, value);
    }
    (p, index.cut || budget.cut)
}
