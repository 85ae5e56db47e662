//! The runtime's lists put in time order once read. Each capability writes its events
//! in order, but the capabilities' blocks interleave, so a list of collections (or of
//! allocation readings) as read is a row of sorted runs, one a block, each overlapping
//! in time only the runs just before it. Merged in turn into the ordered part before
//! them, through a buffer of the part each overlaps, they are in order after about one
//! pass, in a block's worth of memory: a sort took half the list again, and on a virtual
//! machine the fresh pages cost as much as the sorting (a third of `--stats`' time on a
//! run of 200,000 collections).
//!
//! The order is total (ties broken by every other field), so that the result does not
//! depend on how the list was put together: by runs, or sorted whole when the runs are
//! not what a runtime writes (a hostile eventlog's blocks going back in time).

use std::cmp::Ordering;

/// Where a list's runs start: where its length stood at each block marker, when it had
/// grown since the one before (so no longer than the list).
#[derive(Debug, Default)]
pub(super) struct Runs(Vec<usize>);

/// How many elements, beyond four times the list's length, the runs may reach back
/// over in all before the merging gives up and the list is sorted whole (in place):
/// a runtime's runs reach back over about the list once.
const MAX_EXTRA_REACH: usize = 1 << 16;

impl Runs {
    /// A block begins with the list `len` long.
    pub fn begin(&mut self, len: usize) {
        if self.0.last().map_or(len > 0, |&last| last < len) {
            self.0.push(len);
        }
    }

    /// Takes in the runs of a list appended at `offset`: a run begins there, and at
    /// each of `later`'s starts after it.
    pub fn append(&mut self, offset: usize, later: Runs) {
        self.begin(offset);
        for start in later.0 {
            self.begin(offset + start);
        }
    }
}

/// Puts `list` in the order `cmp` (a total order), its runs (`runs`) merged in turn;
/// `false` when they reached back too far and the list was sorted whole instead.
pub(super) fn order<T: Copy>(
    list: &mut [T],
    runs: &Runs,
    cmp: impl Fn(&T, &T) -> Ordering,
) -> bool {
    let mut budget = list.len().saturating_mul(4).saturating_add(MAX_EXTRA_REACH);
    let mut buffer = Vec::new();
    let len = list.len();
    let ends = runs.0.iter().copied().chain([len]);
    let mut from = 0;
    for to in ends.filter(|&to| to <= len) {
        if to <= from {
            continue;
        }
        let run = &mut list[from..to];
        if !run.is_sorted_by(|a, b| cmp(a, b) != Ordering::Greater) {
            run.sort_unstable_by(&cmp);
        }
        if from > 0 && cmp(&list[from - 1], &list[from]) == Ordering::Greater {
            let back = list[..from].partition_point(|x| cmp(x, &list[from]) != Ordering::Greater);
            budget = match budget.checked_sub(from - back) {
                Some(left) => left,
                None => {
                    list.sort_unstable_by(&cmp);
                    return false;
                }
            };
            merge(&mut list[back..to], from - back, &mut buffer, &cmp);
        }
        from = to;
    }
    true
}

/// Merges the two sorted parts of `list`, split at `mid`, through `buffer` (which takes
/// a copy of the first part).
fn merge<T: Copy>(
    list: &mut [T],
    mid: usize,
    buffer: &mut Vec<T>,
    cmp: &impl Fn(&T, &T) -> Ordering,
) {
    buffer.clear();
    buffer.extend_from_slice(&list[..mid]);
    let (mut a, mut b, mut w) = (0, mid, 0);
    while a < buffer.len() && b < list.len() {
        // The write stays behind the second part's reading: w = a + (b - mid) < b.
        if cmp(&list[b], &buffer[a]) == Ordering::Less {
            list[w] = list[b];
            b += 1;
        } else {
            list[w] = buffer[a];
            a += 1;
        }
        w += 1;
    }
    let rest = &buffer[a..];
    list[w..w + rest.len()].copy_from_slice(rest);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A list as a runtime writes it: two capabilities' runs, interleaved by block.
    fn interleaved(blocks: usize, per: usize) -> (Vec<u64>, Runs) {
        let (mut list, mut runs) = (Vec::new(), Runs::default());
        for b in 0..blocks {
            runs.begin(list.len());
            let cap = (b % 2) as u64;
            let first = (b / 2 * per) as u64;
            list.extend((0..per as u64).map(|k| 2 * (first + k) + cap));
        }
        (list, runs)
    }

    fn sorted(list: &[u64]) -> Vec<u64> {
        let mut s = list.to_vec();
        s.sort();
        s
    }

    #[test]
    fn a_runtimes_runs_come_out_as_a_sort_puts_them() {
        let (mut list, runs) = interleaved(41, 1000);
        let want = sorted(&list);
        assert_ne!(list, want, "the runs interleave");
        assert!(order(&mut list, &runs, u64::cmp));
        assert_eq!(list, want);
    }

    #[test]
    fn runs_out_of_order_inside_and_a_list_without_markers_are_sorted() {
        let mut list: Vec<u64> = (0..5000).rev().collect();
        assert!(order(&mut list, &Runs::default(), u64::cmp));
        assert_eq!(list, (0..5000).collect::<Vec<_>>());
        let (mut list, mut runs) = interleaved(8, 100);
        list[150] = 0;
        runs.begin(list.len());
        let want = sorted(&list);
        assert!(order(&mut list, &runs, u64::cmp));
        assert_eq!(list, want);
    }

    #[test]
    fn runs_reaching_back_past_the_budget_have_the_list_sorted_whole() {
        // Each block goes back to the start: merged in turn, quadratic.
        let (mut list, mut runs) = (Vec::new(), Runs::default());
        let blocks = 400u64;
        for b in 0..blocks {
            runs.begin(list.len());
            list.extend((0..1000u64).map(|k| k * blocks + (blocks - 1 - b)));
        }
        let want = sorted(&list);
        let reach: usize = (0..blocks as usize).map(|b| b * 1000).sum();
        assert!(reach > 4 * list.len() + MAX_EXTRA_REACH);
        assert!(!order(&mut list, &runs, u64::cmp), "given up");
        assert_eq!(list, want);
    }

    #[test]
    fn appended_runs_start_at_their_offset() {
        let mut runs = Runs::default();
        runs.begin(0);
        runs.begin(5);
        runs.begin(5);
        let mut later = Runs::default();
        later.begin(3);
        runs.append(10, later);
        assert_eq!(runs.0, vec![5, 10, 13]);
    }
}
