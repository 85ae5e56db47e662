//! A flame graph grown stack by stack: each stack's frames added along its path (or, past
//! [`MAX_GRAPH_FRAMES`], folded into one [`ELIDED`] frame), then put in order. Both ways
//! of building a graph grow one so: [`super::flame`] from the bands, [`super::tree`]
//! from a report's tree where its shape is not the tree's own.

use super::frames::{Census, Direction, ELIDED, Flame, Frame, MAX_GRAPH_FRAMES, Stack, ordered};
use crate::profile::Profile;

/// Frames being gathered from stacks, before they are put in order.
pub(super) struct Tree<'a> {
    direction: Direction,
    cuts: (usize, usize),
    elided: usize,
    frames: Vec<Frame>,
    pub(super) children: crate::profile::hash::FxMap<(usize, &'a [u8]), usize>,
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
    pub(super) fn count(&mut self, stack: &Stack<'a>, placed: Option<usize>) {
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
