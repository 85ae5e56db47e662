//! A cost-centre profile's tree for the page's table and its measure switch: every
//! stack the page lists, in the tree's order, with what it spends itself (GHC's
//! *individual*) and with its callees (*inherited*) in each measure the profile has —
//! a report's time, allocation and entries, or eventlog samples' ticks. The library sums
//! and ranks; the script sorts siblings, folds and unfolds rows, and weighs the flame
//! graph by the measure chosen (a row's own part of the flame is its inherited measure
//! less its listed callees', so a listed row's frame spans what GHC's inherited says).
//!
//! A report of hundreds of thousands of stacks lists the [`MAX_TREE_ROWS`] that weigh
//! most in any measure: a stack weighs at most what its caller does, so the rows kept
//! are a tree from the root. The rest are counted ([`PageTree::hidden`]) and stay in
//! their callers' inherited figures.

use serde::Serialize;

use super::{Frames, PageScale};
use crate::profile::costs::{CostProfile, Measure};
use crate::profile::{Costs, Profile};
use crate::units::{ByteUnits, TimeUnit, ValueUnit};

/// The page lists at most this many stacks (a row is about 60 bytes of the page).
pub const MAX_TREE_ROWS: usize = 5000;

/// A measure the table shows and the flame graph can be weighed by.
#[derive(Debug, Clone, Serialize)]
pub struct PageMeasure {
    /// `time`, `alloc` or `entries`, as `--measure` names it.
    pub name: &'static str,
    /// What it counts: `ticks`, `bytes`, `entries`.
    pub counts: &'static str,
    /// What follows a figure of it that its scale does not name (` ticks`; nothing
    /// after `12 MB`).
    pub after: &'static str,
    /// The table shows it as individual and inherited shares (time, allocation), or as
    /// one count per stack (entries, as GHC's report does).
    pub inherited: bool,
    /// How its numbers are written.
    pub scale: PageScale,
    /// The whole profile's (every stack's own, listed or not).
    #[serde(serialize_with = "crate::units::number")]
    pub total: f64,
}

/// The rows of the page's cost table.
#[derive(Debug, Clone, Serialize)]
pub struct PageTree {
    /// The measures, in `own`'s and `inherited`'s order.
    pub measures: Vec<PageMeasure>,
    /// The one the page opens with (`--measure`'s).
    pub chosen: usize,
    /// Each row as `[label, parent, depth]`: its cost centre's name (an index into the
    /// page's frames), its caller's row (`-1` for a root), its depth (a root's is 0).
    /// Every row comes after its caller.
    pub rows: Vec<(u32, i64, u16)>,
    /// The rows without a caller, and each row's callees, in the rows' order.
    pub roots: Vec<u32>,
    /// Each row's callees.
    pub callees: Vec<Vec<u32>>,
    /// Each row's source span, as GHC writes it (empty where the profile has none).
    pub sources: Vec<String>,
    /// `own[m][row]`: what the row's stack spends itself, in measure `m`.
    #[serde(serialize_with = "columns")]
    pub own: Vec<Vec<f64>>,
    /// `inherited[m][row]`: with every stack it calls, listed or not.
    #[serde(serialize_with = "columns")]
    pub inherited: Vec<Vec<f64>>,
    /// Stacks not listed (past [`MAX_TREE_ROWS`]).
    pub hidden: usize,
    /// Whether ticks and bytes are estimated from a `-p` report's percentages.
    pub estimated: bool,
    /// Each row's leaf in the page's flame tree and inverted tree.
    pub leaves: Vec<(u32, u32)>,
    /// Eventlog samples over time, for the strip a reader chooses a stretch on.
    pub strip: Option<super::strip::SampleStrip>,
}

fn columns<S: serde::Serializer>(v: &[Vec<f64>], s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeSeq;
    let mut seq = s.serialize_seq(Some(v.len()))?;
    for c in v {
        seq.serialize_element(&Column(c))?;
    }
    seq.end()
}

struct Column<'a>(&'a [f64]);

impl Serialize for Column<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        crate::units::numbers(self.0, s)
    }
}

impl PageTree {
    /// Each row's labels, outermost first: where its frame is in a flame graph.
    pub(super) fn paths(&self) -> Vec<Vec<u32>> {
        paths(&self.rows)
    }
}

/// Each of `rows`' labels, outermost first, as far as a flame graph shows them: a stack
/// deeper than its [`super::flame::MAX_ROWS`] rows keeps its outermost and innermost
/// frames that many (the top-down and the inverted graph's), not the middle, so that
/// the paths take `MAX_TREE_ROWS` × 2 × `MAX_ROWS` labels at most, whatever the depth.
fn paths(rows: &[(u32, i64, u16)]) -> Vec<Vec<u32>> {
    let keep = super::flame::MAX_ROWS - 1;
    let mut paths: Vec<Vec<u32>> = Vec::with_capacity(rows.len());
    for &(label, parent, _) in rows {
        let mut path = usize::try_from(parent).map_or(Vec::new(), |p| paths[p].clone());
        path.push(label);
        if path.len() > 2 * keep {
            path.remove(keep);
        }
        paths.push(path);
    }
    paths
}

/// A node while the tree is built.
struct Node {
    label: u32,
    parent: Option<u32>,
    depth: u16,
    own: Vec<f64>,
}

/// The tree of a cost-centre profile. A report whose bands are its whole tree gives
/// every measure from the tree; a filtered or pruned one, and eventlog samples, give the
/// bands' own measure. `over_time` is the samples' profile before they were summed into
/// `profile`'s one census: the strip is made of it.
pub(super) fn of(
    profile: &Costs,
    frames: &mut Frames,
    units: ByteUnits,
    over_time: Option<&Profile>,
) -> PageTree {
    let measure = profile.measure;
    let whole = profile.series().dropped_names.is_empty() && profile.pruned.is_none();
    let (nodes, leaves, measures, estimated) = match &profile.tree {
        Some(tree) if whole => (
            from_report(tree, frames),
            Vec::new(),
            vec![Measure::Time, Measure::Alloc, Measure::Entries],
            !tree.exact(),
        ),
        _ => {
            let (nodes, leaves) = from_bands(profile.series(), frames);
            (nodes, leaves, vec![measure], false)
        }
    };
    let chosen = measures.iter().position(|&m| m == measure).unwrap_or(0);
    let parents: Vec<Option<u32>> = nodes.iter().map(|n| n.parent).collect();
    let (mut tree, row_of) = finish(profile.series(), nodes, &measures, chosen, estimated, units);
    tree.sources = (tree.rows.iter())
        .map(|&(label, _, _)| {
            let name = frames.labels[label as usize].as_bytes();
            (profile.sources.get(name))
                .map_or(String::new(), |s| String::from_utf8_lossy(s).into_owned())
        })
        .collect();
    if let Some((edges, bands)) = over_time.and_then(super::strip::bins) {
        // A band's row: its leaf's, or its nearest listed caller's.
        let row_of_band: Vec<Option<u32>> = (leaves.iter())
            .map(|&leaf| {
                let mut at = leaf;
                while let Some(n) = at {
                    if row_of[n as usize] >= 0 {
                        return Some(row_of[n as usize] as u32);
                    }
                    at = parents[n as usize];
                }
                None
            })
            .collect();
        let rows = tree.rows.len();
        tree.strip = Some(super::strip::strip(edges, bands, &row_of_band, rows));
    }
    tree
}

/// A report's stacks, each a node (GHC's tree has each cost centre once under a caller).
fn from_report(tree: &CostProfile, frames: &mut Frames) -> Vec<Node> {
    let labels: Vec<u32> = (tree.centres.iter())
        .map(|c| frames.label(String::from_utf8_lossy(&c.name()).into_owned()))
        .collect();
    let mut nodes: Vec<Node> = Vec::with_capacity(tree.stacks.len());
    for s in &tree.stacks {
        let depth = s
            .parent
            .map_or(0, |p| nodes[p as usize].depth.saturating_add(1));
        nodes.push(Node {
            label: labels[s.centre as usize],
            parent: s.parent,
            depth,
            own: [Measure::Time, Measure::Alloc, Measure::Entries]
                .iter()
                .map(|m| m.of(s))
                .collect(),
        });
    }
    nodes
}

/// The bands' stacks as a tree of their frames, each band's sum its leaf's own; and
/// each band's leaf.
fn from_bands(profile: &Profile, frames: &mut Frames) -> (Vec<Node>, Vec<Option<u32>>) {
    let mut nodes: Vec<Node> = Vec::new();
    let mut leaves = Vec::with_capacity(profile.bands.len());
    let mut index = std::collections::HashMap::<(Option<u32>, u32), u32>::new();
    for k in 0..profile.bands.len() {
        let (stack, _, _) = frames.of(k);
        let mut at: Option<u32> = None;
        for label in stack {
            let next = nodes.len() as u32;
            let node = *index.entry((at, label)).or_insert(next);
            if node == next {
                let depth = at.map_or(0, |p| nodes[p as usize].depth.saturating_add(1));
                nodes.push(Node {
                    label,
                    parent: at,
                    depth,
                    own: vec![0.0],
                });
            }
            at = Some(node);
        }
        if let Some(leaf) = at {
            profile.bands.series()[k].for_each(|_, v| nodes[leaf as usize].own[0] += v);
        }
        leaves.push(at);
    }
    (nodes, leaves)
}

/// Sums, ranks and orders the nodes into the page's rows; and each node's row (`-1`
/// for a node not listed).
fn finish(
    profile: &Profile,
    nodes: Vec<Node>,
    measures: &[Measure],
    chosen: usize,
    estimated: bool,
    units: ByteUnits,
) -> (PageTree, Vec<i64>) {
    let m = measures.len();
    let mut inherited: Vec<Vec<f64>> = (0..m)
        .map(|j| nodes.iter().map(|n| n.own[j]).collect())
        .collect();
    for k in (0..nodes.len()).rev() {
        if let Some(p) = nodes[k].parent {
            for column in inherited.iter_mut() {
                column[p as usize] += column[k];
            }
        }
    }
    let totals: Vec<f64> = (0..m)
        .map(|j| nodes.iter().map(|n| n.own[j]).sum())
        .collect();
    let kept = ranked(&nodes, &inherited, &totals);
    // Rows in the tree's order: every kept node after its caller.
    let mut row_of = vec![-1i64; nodes.len()];
    let mut tree = PageTree {
        measures: (measures.iter().zip(&totals))
            .map(|(&measure, &total)| page_measure(profile, measure, total, units))
            .collect(),
        chosen,
        rows: Vec::with_capacity(kept.len()),
        roots: Vec::new(),
        callees: vec![Vec::new(); kept.len()],
        sources: Vec::with_capacity(kept.len()),
        own: vec![Vec::with_capacity(kept.len()); m],
        inherited: vec![Vec::with_capacity(kept.len()); m],
        hidden: nodes.len() - kept.len(),
        estimated,
        leaves: Vec::new(),
        strip: None,
    };
    for k in kept {
        let n = &nodes[k];
        let parent = n.parent.map_or(-1, |p| row_of[p as usize]);
        let row = tree.rows.len() as u32;
        row_of[k] = i64::from(row);
        match usize::try_from(parent) {
            Ok(p) => tree.callees[p].push(row),
            Err(_) => tree.roots.push(row),
        }
        tree.rows.push((n.label, parent, n.depth));
        for ((own, inh), (&mine, all)) in
            (tree.own.iter_mut().zip(&mut tree.inherited)).zip(n.own.iter().zip(&inherited))
        {
            own.push(mine);
            inh.push(all[k]);
        }
    }
    (tree, row_of)
}

/// The nodes listed, in the tree's order: the [`MAX_TREE_ROWS`] whose inherited share is
/// largest in some measure. A callee never weighs more than its caller, and ties go to
/// the earlier node (a caller comes first), so every kept node's caller is kept.
fn ranked(nodes: &[Node], inherited: &[Vec<f64>], totals: &[f64]) -> Vec<usize> {
    if nodes.len() <= MAX_TREE_ROWS {
        return (0..nodes.len()).collect();
    }
    let share = |k: usize| {
        (inherited.iter().zip(totals))
            .map(|(c, &t)| if t > 0.0 { c[k] / t } else { 0.0 })
            .fold(0.0, f64::max)
    };
    let mut order: Vec<(f64, usize)> = (0..nodes.len()).map(|k| (share(k), k)).collect();
    order.select_nth_unstable_by(MAX_TREE_ROWS - 1, |a, b| {
        b.0.total_cmp(&a.0).then(a.1.cmp(&b.1))
    });
    let mut kept: Vec<usize> = order[..MAX_TREE_ROWS].iter().map(|&(_, k)| k).collect();
    kept.sort_unstable();
    kept
}

/// A measure's name, unit and scale.
fn page_measure(profile: &Profile, measure: Measure, total: f64, units: ByteUnits) -> PageMeasure {
    let (counts, value, after) = match measure {
        Measure::Time => ("ticks", ValueUnit::Other, " ticks"),
        Measure::Alloc => ("bytes", ValueUnit::Bytes, ""),
        Measure::Entries => ("entries", ValueUnit::Other, " entries"),
    };
    PageMeasure {
        name: measure.name(),
        counts,
        after,
        inherited: measure != Measure::Entries,
        scale: PageScale::of(value, units, TimeUnit::Seconds, &profile.sample_unit),
        total,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(parent: Option<u32>, depth: u16, own: f64) -> Node {
        Node {
            label: 0,
            parent,
            depth,
            own: vec![own],
        }
    }

    #[test]
    fn a_deep_stacks_path_keeps_both_ends_a_flame_graph_shows() {
        // A chain 1,000 deep: each path at most twice the flame's rows, its outermost
        // and innermost frames those of the whole stack.
        let rows: Vec<(u32, i64, u16)> = (0..1000).map(|k| (k as u32, k as i64 - 1, 0)).collect();
        let keep = super::super::flame::MAX_ROWS - 1;
        let all = paths(&rows);
        assert!(all.iter().all(|p| p.len() <= 2 * keep));
        let deepest = all.last().unwrap();
        assert_eq!(deepest[..keep], (0..keep as u32).collect::<Vec<_>>()[..]);
        assert_eq!(
            deepest[keep..],
            (1000 - keep as u32..1000).collect::<Vec<_>>()[..]
        );
        assert_eq!(all[10], (0..11).collect::<Vec<u32>>());
    }

    #[test]
    fn past_the_row_limit_the_heaviest_stacks_stay_with_every_caller() {
        // A root, a chain of MAX_TREE_ROWS light stacks, and one heavy leaf deep in a
        // second chain: the heavy leaf and its callers are kept, the lightest dropped.
        let mut nodes = vec![node(None, 0, 0.0)];
        for k in 0..MAX_TREE_ROWS {
            nodes.push(node(Some(k as u32), k as u16 + 1, 1.0));
        }
        nodes.push(node(Some(0), 1, 0.0));
        let callers = nodes.len() - 1;
        nodes.push(node(Some(callers as u32), 2, 1e9));
        let mut inherited: Vec<f64> = nodes.iter().map(|n| n.own[0]).collect();
        for k in (0..nodes.len()).rev() {
            if let Some(p) = nodes[k].parent {
                inherited[p as usize] += inherited[k];
            }
        }
        let total = inherited[0];
        let kept = ranked(&nodes, &[inherited], &[total]);
        assert_eq!(kept.len(), MAX_TREE_ROWS);
        assert!(kept.contains(&(nodes.len() - 1)) && kept.contains(&callers));
        assert!(kept.contains(&0));
        for &k in &kept {
            if let Some(p) = nodes[k].parent {
                assert!(kept.contains(&(p as usize)), "{k}'s caller {p}");
            }
        }
        assert!(
            !kept.contains(&MAX_TREE_ROWS),
            "the lightest, deepest chain's end"
        );
    }
}
