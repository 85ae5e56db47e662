//! What a run's collections add up to: everything `+RTS -s` gives of them that does
//! not depend on their order (counts, bytes, the largest of each), and each collection's
//! span, whose times are added in time order (a sum of floating-point seconds rounds at
//! each step, so its order is part of its value).
//!
//! `analysis::stats` adds up a window's collections through [`Totals::add`]; an eventlog
//! read for the whole run's figures alone ([`crate::input::RuntimeReading::Totals`])
//! adds each collection as soon as nothing more can change it, and keeps only its span
//! ([`Summed`]): 24 bytes a collection where the list keeps 88.

use std::cmp::Ordering;

use super::Gc;

/// The most generations listed, each a row: GHC's collector has two unless `+RTS -G`
/// asks for more, and an eventlog's generation is a 16-bit number, so a hostile one
/// would list 65,536 rows. Collections of later generations are counted in the last
/// row, which then stands for it and every later one.
pub const MAX_GENERATIONS: usize = 16;

/// One generation's collections, but their time.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct GenerationTotals {
    /// How many.
    pub collections: u64,
    /// Of which parallel (more than one thread copying).
    pub parallel: u64,
    /// The longest, in seconds.
    pub max_pause: f64,
}

/// What some collections add up to, in whatever order they are added.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Totals {
    /// Per generation (up to [`MAX_GENERATIONS`]), generation 0 first.
    pub generations: Vec<GenerationTotals>,
    /// Bytes copied.
    pub copied: u64,
    /// Bytes copied by the parallel collections.
    pub parallel_copied: u64,
    /// Their balanced bytes (GHC's `par_balanced_copied`).
    pub balanced: u64,
    /// Some collection carried a balance.
    pub has_balance: bool,
    /// The most live bytes after a collection, and how many measured them.
    pub residency: Option<u64>,
    /// See `residency`.
    pub samples: u64,
    /// The most slop after a collection that measured live bytes.
    pub slop: Option<u64>,
    /// The largest heap after a collection.
    pub heap: Option<u64>,
    /// A sum passed 2^64 - 1 and is that, at least.
    pub saturated: bool,
}

/// Adds `b` to `a`, saturating, and says so in `saturated`: the eventlog's counters are
/// 64-bit, and a hostile one's near their top add past it.
pub(crate) fn add(a: &mut u64, b: u64, saturated: &mut bool) {
    match a.checked_add(b) {
        Some(s) => *a = s,
        None => {
            *a = u64::MAX;
            *saturated = true;
        }
    }
}

impl Totals {
    /// Counts `gc` in.
    pub fn add(&mut self, gc: &Gc) {
        let g = usize::from(gc.generation).min(MAX_GENERATIONS - 1);
        if self.generations.len() <= g {
            self.generations.resize(g + 1, GenerationTotals::default());
        }
        let row = &mut self.generations[g];
        row.collections += 1;
        row.max_pause = row.max_pause.max(gc.end - gc.start);
        let saturated = &mut self.saturated;
        add(&mut self.copied, gc.copied, saturated);
        if gc.threads > 1 {
            row.parallel += 1;
            add(&mut self.parallel_copied, gc.copied, saturated);
            add(&mut self.balanced, gc.balanced.unwrap_or(0), saturated);
        }
        self.has_balance |= gc.balanced.is_some();
        if let Some(live) = gc.live {
            self.residency = self.residency.max(Some(live));
            self.samples += 1;
            self.slop = self.slop.max(Some(gc.slop));
        }
        self.heap = self.heap.max(gc.heap_size);
    }

    /// Counts in what `other` counted.
    pub fn merge(&mut self, other: &Totals) {
        if self.generations.len() < other.generations.len() {
            (self.generations).resize(other.generations.len(), GenerationTotals::default());
        }
        for (row, o) in self.generations.iter_mut().zip(&other.generations) {
            row.collections += o.collections;
            row.parallel += o.parallel;
            row.max_pause = row.max_pause.max(o.max_pause);
        }
        let saturated = &mut self.saturated;
        add(&mut self.copied, other.copied, saturated);
        add(&mut self.parallel_copied, other.parallel_copied, saturated);
        add(&mut self.balanced, other.balanced, saturated);
        self.saturated |= other.saturated;
        self.has_balance |= other.has_balance;
        self.residency = self.residency.max(other.residency);
        self.samples += other.samples;
        self.slop = self.slop.max(other.slop);
        self.heap = self.heap.max(other.heap);
    }
}

/// A collection's span: its start and end (seconds) and the generation it collected.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Span {
    /// The leader's `GC_START`.
    pub start: f64,
    /// The leader's `GC_END`.
    pub end: f64,
    /// The oldest generation collected.
    pub generation: u16,
}

impl From<&Gc> for Span {
    fn from(gc: &Gc) -> Span {
        Span {
            start: gc.start,
            end: gc.end,
            generation: gc.generation,
        }
    }
}

/// The spans' order: by start, ties by end, then generation (a total order, so that the
/// spans come out the same however they were put together).
pub fn span_order(a: &Span, b: &Span) -> Ordering {
    (a.start.total_cmp(&b.start))
        .then(a.end.total_cmp(&b.end))
        .then(a.generation.cmp(&b.generation))
}

/// A run's collections added up as they were read, in place of the list of them: what
/// its whole figures are made of, and no window's.
#[derive(Debug, Clone, Default)]
pub struct Summed {
    /// What they add up to.
    pub totals: Totals,
    /// Their spans, in parts (one a thread read), each in [`span_order`]:
    /// [`Summed::spans`] gives them all in that order, without a copy of the parts
    /// made one.
    pub parts: Vec<Vec<Span>>,
}

/// Equal when they add up to the same and hold the same spans, however they are parted.
impl PartialEq for Summed {
    fn eq(&self, other: &Summed) -> bool {
        self.totals == other.totals && self.spans().eq(other.spans())
    }
}

impl Summed {
    /// Every span, in [`span_order`].
    pub fn spans(&self) -> impl Iterator<Item = Span> + '_ {
        let mut rest: Vec<&[Span]> = (self.parts.iter())
            .map(Vec::as_slice)
            .filter(|p| !p.is_empty())
            .collect();
        std::iter::from_fn(move || {
            let k = (1..rest.len()).fold(0, |first, k| {
                match span_order(&rest[k][0], &rest[first][0]) {
                    Ordering::Less => k,
                    _ => first,
                }
            });
            let (&span, tail) = rest.get(k)?.split_first()?;
            if tail.is_empty() {
                rest.remove(k);
            } else {
                rest[k] = tail;
            }
            Some(span)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span(start: f64, end: f64, generation: u16) -> Span {
        Span {
            start,
            end,
            generation,
        }
    }

    #[test]
    fn parts_are_merged_in_order_and_equal_however_parted() {
        let a = vec![span(1.0, 2.0, 0), span(3.0, 4.0, 1), span(3.0, 4.0, 1)];
        let b = vec![
            span(0.5, 0.6, 0),
            span(3.0, 3.5, 0),
            span(3.0, 4.0, 0),
            span(9.0, 9.0, 0),
        ];
        let parted = Summed {
            totals: Totals::default(),
            parts: vec![a.clone(), b.clone()],
        };
        let mut all = [a, b].concat();
        all.sort_by(span_order);
        assert_eq!(parted.spans().collect::<Vec<_>>(), all);
        let whole = Summed {
            totals: Totals::default(),
            parts: vec![all],
        };
        assert_eq!(parted, whole);
        let mut other = whole.clone();
        other.parts[0].pop();
        assert_ne!(parted, other);
    }
}
