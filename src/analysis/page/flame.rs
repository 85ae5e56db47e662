//! The page's flame graphs, laid out once: every stack the page carries as one tree of
//! frames (and its inverted twin), in the order the graph draws them. For a census the
//! script adds each band's value at its leaf, sums the tree from its end (every node
//! comes after its parent) and places the frames in this order, scaled to its width:
//! no tree is built, sorted or cut in the browser, as inferno's `flamegraph.js` draws
//! what its library laid out.
//!
//! A node's callees follow it, sorted by their label; a node's subtree is the run of
//! nodes up to its `end`. Stacks deeper than [`MAX_ROWS`] rows end at the last row, whose
//! frame then stands for everything under it.

use serde::Serialize;

/// The rows a page's flame graph draws at most, its root included.
pub const MAX_ROWS: usize = 60;

/// A frame of the tree, serialised as `[frame, parent, end, flags, depth]`: its label (an
/// index into the page's frames), its caller's node, the node after its subtree,
/// [`CUT`] / [`PLACED`], and its row (the root's is 0).
#[derive(Debug, Clone, Copy, Serialize, PartialEq)]
pub struct Node(pub u32, pub u32, pub u32, pub u8, pub u16);

/// GHC cut this stack at `-L`: this outermost frame's callers are unknown.
pub const CUT: u8 = 1;
/// GHC cut this stack and the library placed it under the frame its kept name begins.
pub const PLACED: u8 = 2;

/// One laid-out tree: the root is node 0.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Tree {
    /// The nodes, each after its caller and its earlier-sorted siblings' subtrees.
    pub nodes: Vec<Node>,
    /// Each stack's leaf: the node its value is its own of.
    pub leaves: Vec<u32>,
}

/// A stack as the page's bands hold it: frame labels outermost first (indices), whether
/// GHC cut it, and from which frame a placed stack is its own.
pub struct Stack<'a> {
    /// The labels, outermost first.
    pub frames: &'a [u32],
    /// GHC cut its name.
    pub cut: bool,
    /// Where a cut stack was placed ([`crate::select::flame::placements`]).
    pub placed: Option<usize>,
}

/// A node while the tree is built: its label, flags and callees by label.
struct Building {
    frame: u32,
    flags: u8,
    kids: Vec<usize>,
}

/// The tree of `stacks` (inverted: each entered from its innermost frame), its
/// callees sorted by `labels`.
pub fn tree(stacks: &[Stack], labels: &[String], inverted: bool) -> Tree {
    let mut nodes = vec![Building {
        frame: u32::MAX,
        flags: 0,
        kids: Vec::new(),
    }];
    let mut ends = Vec::with_capacity(stacks.len());
    let mut index = std::collections::HashMap::<(usize, u32), usize>::new();
    for s in stacks {
        let n = s.frames.len();
        let mut at = 0;
        for k in 0..n.min(MAX_ROWS - 1) {
            let d = if inverted { n - 1 - k } else { k };
            let f = s.frames[d];
            let flags = if s.cut && d == 0 { CUT } else { 0 }
                | if s.placed == Some(d) { PLACED } else { 0 };
            at = *index.entry((at, f)).or_insert_with(|| {
                nodes.push(Building {
                    frame: f,
                    flags: 0,
                    kids: Vec::new(),
                });
                let new = nodes.len() - 1;
                nodes[at].kids.push(new);
                new
            });
            nodes[at].flags |= flags;
        }
        ends.push(at);
    }
    for k in 0..nodes.len() {
        let mut kids = std::mem::take(&mut nodes[k].kids);
        kids.sort_by(|&a, &b| {
            labels[nodes[a].frame as usize].cmp(&labels[nodes[b].frame as usize])
        });
        nodes[k].kids = kids;
    }
    order(&nodes, &ends)
}

/// The nodes in drawing order (a walk that visits callees by label), with each node's
/// parent and subtree end as positions in that order.
fn order(nodes: &[Building], ends: &[usize]) -> Tree {
    let mut position = vec![0u32; nodes.len()];
    let mut out: Vec<Node> = Vec::with_capacity(nodes.len());
    // (node, its parent's position); a node's end is set when the walk leaves it.
    let mut stack: Vec<(usize, u32, bool)> = vec![(0, 0, false)];
    while let Some((k, parent, leaving)) = stack.pop() {
        if leaving {
            let at = position[k] as usize;
            out[at].2 = out.len() as u32;
            continue;
        }
        position[k] = out.len() as u32;
        let frame = if k == 0 { 0 } else { nodes[k].frame };
        let depth = if k == 0 {
            0
        } else {
            out[parent as usize].4 + 1
        };
        out.push(Node(frame, parent, 0, nodes[k].flags, depth));
        stack.push((k, parent, true));
        for &kid in nodes[k].kids.iter().rev() {
            stack.push((kid, position[k], false));
        }
    }
    Tree {
        nodes: out,
        leaves: ends.iter().map(|&e| position[e]).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels() -> Vec<String> {
        ["main", "b", "a", "c"].map(String::from).to_vec()
    }

    #[test]
    fn callees_follow_their_caller_sorted_by_label_and_subtrees_are_runs() {
        // main/b, main/a/c, main/a: the leaves of the second and third differ.
        let stacks = [
            Stack {
                frames: &[0, 1],
                cut: false,
                placed: None,
            },
            Stack {
                frames: &[0, 2, 3],
                cut: false,
                placed: None,
            },
            Stack {
                frames: &[0, 2],
                cut: true,
                placed: None,
            },
        ];
        let (labels, t) = (labels(), tree(&stacks, &labels(), false));
        let names: Vec<&str> = t.nodes[1..]
            .iter()
            .map(|n| labels[n.0 as usize].as_str())
            .collect();
        assert_eq!(names, ["main", "a", "c", "b"]);
        assert_eq!(
            t.nodes[0].2 as usize,
            t.nodes.len(),
            "the root's subtree is all"
        );
        assert_eq!(
            t.nodes[1],
            Node(0, 0, 5, CUT, 1),
            "main: cut, as the third stack's outermost"
        );
        assert_eq!(t.nodes[2], Node(2, 1, 4, 0, 2));
        assert_eq!(t.nodes[3], Node(3, 2, 4, 0, 3));
        assert_eq!(t.leaves, [4, 3, 2]);
    }

    #[test]
    fn inverted_trees_start_at_the_innermost_frame_and_deep_stacks_stop_at_the_last_row() {
        let deep: Vec<u32> = (0..200).map(|k| k % 4).collect();
        let stacks = [
            Stack {
                frames: &[0, 1],
                cut: false,
                placed: Some(1),
            },
            Stack {
                frames: &deep,
                cut: false,
                placed: None,
            },
        ];
        let t = tree(&stacks, &labels(), true);
        assert_eq!(labels()[t.nodes[t.leaves[0] as usize].0 as usize], "main");
        let first = t.nodes.iter().position(|n| n.3 == PLACED).unwrap();
        assert_eq!(labels()[t.nodes[first].0 as usize], "b");
        let mut depth = 0;
        let mut at = t.leaves[1] as usize;
        assert_eq!(usize::from(t.nodes[at].4), MAX_ROWS - 1, "its row");
        while at != 0 {
            at = t.nodes[at].1 as usize;
            depth += 1;
        }
        assert_eq!(depth, MAX_ROWS - 1, "the root and MAX_ROWS - 1 frames");
    }
}
