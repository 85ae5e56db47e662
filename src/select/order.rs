//! The orders hp2ps puts identifiers in, reproduced exactly because ties depend on them.

/// hp2ps keeps identifiers in a 513-bucket hash table and starts every sort from the
/// table's order: buckets in turn, newest name first within a bucket.
pub const HASH_BUCKETS: i32 = 513;

/// hp2ps's string hash: `h = 3h + b` over the bytes as *signed* chars, wrapping in 32
/// bits, then made non-negative, modulo [`HASH_BUCKETS`].
pub fn hash_bucket(name: &[u8]) -> i32 {
    let mut h: i32 = 0;
    for &b in name {
        h = h.wrapping_mul(3).wrapping_add(b as i8 as i32);
    }
    if h < 0 {
        h = h.wrapping_neg();
    }
    // i32::MIN stays negative (undefined in C); keep it in range rather than crash.
    h.rem_euclid(HASH_BUCKETS)
}

/// Identifier ids (numbered in order of first appearance) in hash-table order.
pub fn hash_order(names: &[Box<[u8]>]) -> Vec<u32> {
    let mut ids: Vec<u32> = (0..names.len() as u32).collect();
    // Within a bucket the newest name comes first: each new name is pushed on the front.
    ids.sort_by_key(|&id| (hash_bucket(&names[id as usize]), std::cmp::Reverse(id)));
    ids
}

/// hp2ps's selection sort, ascending by key: for each position, the *first* strictly
/// smallest remaining key is swapped into place. It is not stable, and the permutation of
/// equal keys it leaves is part of hp2ps's output, so it is reproduced as is. A NaN key
/// never compares less than anything.
pub fn selection_sort<T, K: PartialOrd>(items: &mut [T], keys: &mut [K]) {
    if items.len() < 64 {
        quadratic(items, keys, |a, b| a < b)
    } else {
        // Nothing is less than NaN and NaN is less than nothing, so hp2ps's scan never
        // moves a NaN key and never stops on one unless it starts there: NaN items stay
        // put and the others are sorted around them.
        #[allow(clippy::eq_op)] // x == x is false exactly for NaN
        tournament(items, keys, |a, b| a < b, |k| k == k)
    }
}

/// [`selection_sort`] with the "comes before" test given, which must be a strict weak
/// order (no NaN). Below a few dozen items it scans as hp2ps does; above, a tournament
/// tree finds the same item at each step in logarithmic time (hp2ps's scan is quadratic,
/// seconds on profiles with tens of thousands of names).
pub fn selection_sort_by<T, K>(items: &mut [T], keys: &mut [K], less: impl Fn(&K, &K) -> bool) {
    if items.len() < 64 {
        quadratic(items, keys, less)
    } else {
        tournament(items, keys, less, |_| true)
    }
}

/// The selection sort's choice at each step, `argmin` over the positions not yet placed
/// with the first position winning ties, kept in a tree of winners. A swap changes two
/// leaves; placing position `i` removes it. Keys that are not `comparable` (NaN) never
/// enter the tree and their positions are skipped, which is what hp2ps's scan does.
fn tournament<T, K>(
    items: &mut [T],
    keys: &mut [K],
    less: impl Fn(&K, &K) -> bool,
    comparable: impl Fn(&K) -> bool,
) {
    debug_assert_eq!(items.len(), keys.len());
    const GONE: usize = usize::MAX;
    let n = items.len();
    let size = n.next_power_of_two();
    let mut tree = vec![GONE; 2 * size];
    for (i, leaf) in tree[size..size + n].iter_mut().enumerate() {
        if comparable(&keys[i]) {
            *leaf = i;
        }
    }
    let winner = |keys: &[K], a: usize, b: usize| -> usize {
        if a == GONE {
            return b;
        }
        if b == GONE {
            return a;
        }
        // Positions are compared only within [a < b]: b wins only if strictly smaller.
        let (first, second) = if a < b { (a, b) } else { (b, a) };
        if less(&keys[second], &keys[first]) {
            second
        } else {
            first
        }
    };
    for node in (1..size).rev() {
        tree[node] = winner(keys, tree[2 * node], tree[2 * node + 1]);
    }
    let update = |tree: &mut Vec<usize>, keys: &[K], pos: usize, leaf: usize| {
        let mut node = size + pos;
        tree[node] = leaf;
        while node > 1 {
            node /= 2;
            tree[node] = winner(keys, tree[2 * node], tree[2 * node + 1]);
        }
    };
    for i in 0..n.saturating_sub(1) {
        if !comparable(&keys[i]) {
            continue;
        }
        let m = tree[1];
        items.swap(i, m);
        keys.swap(i, m);
        update(&mut tree, keys, m, m);
        update(&mut tree, keys, i, GONE);
    }
}

/// hp2ps's own loop.
fn quadratic<T, K>(items: &mut [T], keys: &mut [K], less: impl Fn(&K, &K) -> bool) {
    debug_assert_eq!(items.len(), keys.len());
    let n = items.len();
    for i in 0..n.saturating_sub(1) {
        let mut m = i;
        for j in i + 1..n {
            if less(&keys[j], &keys[m]) {
                m = j;
            }
        }
        items.swap(i, m);
        keys.swap(i, m);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_uses_signed_bytes_and_wraps() {
        assert_eq!(hash_bucket(b""), 0);
        assert_eq!(hash_bucket(b"a"), 97);
        // 3*97 + 98 = 389
        assert_eq!(hash_bucket(b"ab"), 389);
        // A byte >= 0x80 counts negative: 0xff is -1, and |−1| = 1.
        assert_eq!(hash_bucket(&[0xff]), 1);
        // Long names wrap around 32 bits before the absolute value is taken.
        let long = vec![b'z'; 40];
        let mut h: i64 = 0;
        for _ in 0..40 {
            h = ((h * 3 + 122) as i32) as i64;
        }
        assert_eq!(hash_bucket(&long) as i64, h.abs() % 513);
    }

    #[test]
    fn hash_order_puts_the_newest_name_first_in_a_bucket() {
        // "d<+" hashes to 9*100 + 3*60 + 43 = 1123 = 2*513 + 97, the bucket of "a" (97).
        assert_eq!(hash_bucket(b"d<+"), 97);
        let names: Vec<Box<[u8]>> = vec![
            b"a".as_slice().into(),
            b"b".as_slice().into(),
            b"d<+".as_slice().into(),
        ];
        // Bucket 97 holds "d<+" (newer) then "a"; bucket 98 holds "b".
        assert_eq!(hash_order(&names), vec![2, 0, 1]);
    }

    #[test]
    fn selection_sort_is_not_stable_in_hp2ps_s_way() {
        // keys 1 1 0: step 0 swaps the first 1 with the 0, giving 0 1 1 with the two
        // ones in reverse order.
        let mut items = vec!['a', 'b', 'c'];
        let mut keys = vec![1, 1, 0];
        selection_sort(&mut items, &mut keys);
        assert_eq!(items, vec!['c', 'b', 'a']);
        assert_eq!(keys, vec![0, 1, 1]);
    }

    #[test]
    fn the_tournament_makes_the_same_swaps_as_hp2ps_s_scan() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for round in 0..300 {
            let n = 1 + (next() % 400) as usize;
            // Few distinct keys: many ties, which is where the two could part.
            let spread = 1 + next() % if round % 2 == 0 { 5 } else { 1000 };
            let keys: Vec<u64> = (0..n).map(|_| next() % spread).collect();
            let items: Vec<usize> = (0..n).collect();
            let (mut a, mut ka) = (items.clone(), keys.clone());
            let (mut b, mut kb) = (items, keys);
            quadratic(&mut a, &mut ka, |x, y| x < y);
            tournament(&mut b, &mut kb, |x, y| x < y, |_| true);
            assert_eq!(a, b, "round {round}");
            let (mut c, mut kc) = ((0..n).collect::<Vec<_>>(), kb.clone());
            let (mut d, mut kd) = (c.clone(), kb);
            quadratic(&mut c, &mut kc, |x, y| x > y);
            tournament(&mut d, &mut kd, |x, y| x > y, |_| true);
            assert_eq!(c, d, "descending, round {round}");
            // Floats with NaN keys here and there (hp2ps's -d on a single sample).
            let fk: Vec<f64> = (0..n)
                .map(|_| match next() % 4 {
                    0 => f64::NAN,
                    1 => f64::INFINITY,
                    k => (k + next() % 3) as f64,
                })
                .collect();
            let (mut e, mut ke) = ((0..n).collect::<Vec<_>>(), fk.clone());
            let (mut f, mut kf) = (e.clone(), fk);
            quadratic(&mut e, &mut ke, |x, y| x < y);
            #[allow(clippy::eq_op)]
            tournament(&mut f, &mut kf, |x, y| x < y, |k| k == k);
            assert_eq!(e, f, "NaN keys, round {round}");
        }
    }

    #[test]
    fn nan_keys_stay_where_the_scan_leaves_them() {
        let mut items = vec!['a', 'b', 'c'];
        let mut keys = vec![f64::NAN, 1.0, 0.0];
        selection_sort(&mut items, &mut keys);
        // Nothing is less than NaN, so position 0 keeps 'a'; then 0.0 < 1.0.
        assert_eq!(items, vec!['a', 'c', 'b']);
    }
}
