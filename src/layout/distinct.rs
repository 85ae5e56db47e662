//! Key names a reader can tell apart. Shortening a long name to a key's room keeps its
//! ends; names that differ only in the middle (`producer012/producers/…` and
//! `producer033/producers/…`) would then read the same. Each such name shows instead the
//! part that tells it from the others, and closure names drop the package their module
//! is in, which a key has no room for (`Main.Customer` of `main:Main.Customer`).

use super::text::{c_len, helvetica_size};
#[cfg(test)]
use crate::select::flame::unpackaged;

const GAP: &[u8] = b"...";

/// Gives each group of names whose `shown` forms are the same the part of its name that
/// differs from the most alike other of the group, in `width` points (at 10 pt): the
/// name's start through that part when it fits (`producer012/...`), else that part with
/// what context fits around it (`...r012/pro...`).
pub fn told_apart(names: &[&[u8]], shown: &mut [Vec<u8>], width: f64) {
    let mut groups: std::collections::HashMap<&[u8], Vec<usize>> = Default::default();
    for (k, s) in shown.iter().enumerate() {
        groups.entry(&s[..]).or_default().push(k);
    }
    let groups: Vec<Vec<usize>> = groups.into_values().filter(|g| g.len() > 1).collect();
    for group in groups {
        let names: Vec<&[u8]> = group
            .iter()
            .map(|&k| &names[k][..c_len(names[k])])
            .collect();
        let (first, last) = differing(&names);
        for (j, &k) in group.iter().enumerate() {
            let name = names[j];
            let end = (name.len() - last[j]).max(first[j] + 1).min(name.len());
            let start = first[j].min(end.saturating_sub(1));
            if let Some(label) = window(name, start, end, width) {
                shown[k] = label;
            }
        }
    }
}

/// For each name, how many bytes it shares at its start, and at its end, with the most
/// alike other name: neighbours in sorted order, so that a group of any size takes
/// `n log n` comparisons.
fn differing(names: &[&[u8]]) -> (Vec<usize>, Vec<usize>) {
    let shared = |key: &dyn Fn(&[u8]) -> Vec<u8>| {
        let keys: Vec<Vec<u8>> = names.iter().map(|n| key(n)).collect();
        let mut order: Vec<usize> = (0..names.len()).collect();
        order.sort_by(|&a, &b| keys[a].cmp(&keys[b]));
        let mut most = vec![0; names.len()];
        for w in order.windows(2) {
            let (a, b) = (&keys[w[0]], &keys[w[1]]);
            let common = a.iter().zip(b.iter()).take_while(|(x, y)| x == y).count();
            most[w[0]] = most[w[0]].max(common);
            most[w[1]] = most[w[1]].max(common);
        }
        most
    };
    let first = shared(&|n: &[u8]| n.to_vec());
    let last = shared(&|n: &[u8]| n.iter().rev().copied().collect());
    (first, last)
}

/// `name` shortened to `width` so as to show its bytes `start..end`; `None` when not one
/// byte of them fits.
fn window(name: &[u8], start: usize, end: usize, width: f64) -> Option<Vec<u8>> {
    let n = name.len();
    let starts_char = |i: usize| i == 0 || i >= n || name[i] & 0xc0 != 0x80;
    let build = |a: usize, e: usize| {
        let mut v = Vec::with_capacity(e - a + 2 * GAP.len());
        // A cut at a module's dot shows the `...` alone (`...Encoding.CAF`, not
        // `....Encoding.CAF`): four dots read as neither the name nor the cut.
        let mut shown = &name[a..e];
        if a > 0 {
            v.extend_from_slice(GAP);
            shown = shown
                .strip_prefix(b".")
                .filter(|s| !s.is_empty())
                .unwrap_or(shown);
        }
        if e < n {
            shown = shown
                .strip_suffix(b".")
                .filter(|s| !s.is_empty())
                .unwrap_or(shown);
        }
        v.extend_from_slice(shown);
        if e < n {
            v.extend_from_slice(GAP);
        }
        v
    };
    let fits = |a: usize, e: usize| helvetica_size(&build(a, e)) <= width;
    // From the start through the part, and on to the end of its word where that fits.
    let mut e = end;
    while !starts_char(e) {
        e += 1;
    }
    if fits(0, e) {
        let word = (e..n).find(|&i| b"/.".contains(&name[i])).unwrap_or(n);
        let e = if fits(0, word) { word } else { e };
        return Some(build(0, e));
    }
    // The part alone, cut to what fits, then context on both sides in turn.
    let (mut a, mut e) = (start, start + 1);
    while !starts_char(a) {
        a -= 1;
    }
    while !starts_char(e) {
        e += 1;
    }
    if !fits(a, e) {
        return None;
    }
    let next = |i: usize| (i + 1..=n).find(|&j| starts_char(j)).unwrap_or(n);
    let prev = |i: usize| (0..i).rev().find(|&j| starts_char(j)).unwrap_or(0);
    while e < end && fits(a, next(e)) {
        e = next(e);
    }
    loop {
        let grown_left = a > 0 && fits(prev(a), e);
        if grown_left {
            a = prev(a);
        }
        let grown_right = e < n && fits(a, next(e));
        if grown_right {
            e = next(e);
        }
        if !grown_left && !grown_right {
            break;
        }
    }
    Some(build(a, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cut_at_a_module_s_dot_shows_three_dots_not_four() {
        let name = b"GHC.IO.Encoding.CAF";
        let w = window(name, 6, name.len(), helvetica_size(b"....Encoding.CAF")).unwrap();
        assert_eq!(String::from_utf8_lossy(&w), "...Encoding.CAF");
        let w = window(name, 3, 7, helvetica_size(b"....IO....")).unwrap();
        assert!(
            !w.windows(4).any(|d| d == b"...."),
            "{}",
            String::from_utf8_lossy(&w)
        );
    }

    #[test]
    fn packages_are_dropped_before_modules() {
        assert_eq!(unpackaged(b"main:Main.Customer"), b"Main.Customer");
        assert_eq!(unpackaged(b"ghc-prim:GHC.Types.:"), b"GHC.Types.:");
        assert_eq!(
            unpackaged(b"containers-0.6.7:Data.Map.Internal.Bin"),
            b"Data.Map.Internal.Bin"
        );
        for kept in [
            &b"THUNK_1_0"[..],
            b":",
            b"ARR_WORDS",
            b"a b:C",
            b"123:Main.x",
        ] {
            assert_eq!(unpackaged(kept), kept);
        }
    }

    #[test]
    fn names_that_read_alike_show_what_differs() {
        let names: Vec<Vec<u8>> = (0..12)
            .map(|k| format!("producer{k:03}/producers/main/Main.CAF").into_bytes())
            .collect();
        let refs: Vec<&[u8]> = names.iter().map(|n| &n[..]).collect();
        let width = helvetica_size(b"produce...ucers...");
        let mut shown: Vec<Vec<u8>> = vec![b"produce...ucers...".to_vec(); 12];
        told_apart(&refs, &mut shown, width);
        let mut seen = shown.clone();
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), 12, "{shown:?}");
        for (s, k) in shown.iter().zip(0..) {
            let text = String::from_utf8_lossy(s);
            assert!(text.contains(&format!("{k:03}")[1..]), "{text}");
            assert!(helvetica_size(s) <= width, "{text}");
        }
        // With room, the start through the differing word.
        let mut shown = vec![b"x".to_vec(); 2];
        told_apart(&refs[..2], &mut shown, 200.0);
        assert_eq!(shown[0], b"producer000...");
    }
}
