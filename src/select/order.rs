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
    selection_sort_by(items, keys, |a, b| a < b)
}

/// [`selection_sort`] with the "comes before" test given.
pub fn selection_sort_by<T, K>(items: &mut [T], keys: &mut [K], less: impl Fn(&K, &K) -> bool) {
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
    fn nan_keys_stay_where_the_scan_leaves_them() {
        let mut items = vec!['a', 'b', 'c'];
        let mut keys = vec![f64::NAN, 1.0, 0.0];
        selection_sort(&mut items, &mut keys);
        // Nothing is less than NaN, so position 0 keeps 'a'; then 0.0 < 1.0.
        assert_eq!(items, vec!['a', 'c', 'b']);
    }
}
