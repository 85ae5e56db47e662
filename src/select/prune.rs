//! Pruning (`--min-share PERCENT`): a cost-centre profile's frames that weigh less than
//! that share of the whole join their caller's `(other)` frame, as Clean's and
//! convertprofile's `--min-ticks` keep a call graph readable. A stack through such a
//! frame is cut there: what it and its callees weighed is its caller's `(other)`, so
//! every frame kept weighs what it did and the total stays the same. Taken after the
//! window (`--from`/`--to`), so a frame's share is of what the window spent.

use crate::profile::hash::FxMap;
use crate::profile::{Bands, Costs, Frames, Series};

/// The frame that holds what pruning hid under a caller.
pub const OTHER: &[u8] = b"(other)";

pub use crate::profile::costs::Pruned;

/// `profile` with every frame under `min_share` percent of the whole joined into its
/// caller's [`OTHER`].
pub fn prune(profile: Costs, min_share: f64) -> Costs {
    let weights: Vec<f64> = (profile.series().bands.series().iter())
        .map(|s| {
            let mut w = 0.0;
            s.for_each(|_, v| w += v);
            w
        })
        .collect();
    let total: f64 = weights.iter().sum();
    let least = total * min_share / 100.0;
    // Every prefix of every stack, numbered as a trie, with what it and its callees
    // weigh. Frames are numbered by their text, found first by where it is (a profile
    // keeps a frame's name once): keys of two numbers keep the trie of millions small.
    let mut by_place: FxMap<usize, u32> = FxMap::default();
    let mut by_text: FxMap<&[u8], u32> = FxMap::default();
    let mut nodes: FxMap<(u32, u32), u32> = FxMap::default();
    let mut inclusive: Vec<f64> = vec![total];
    let mut paths: Vec<Vec<u32>> = Vec::with_capacity(weights.len());
    for (name, &w) in profile.series().bands.names().iter().zip(&weights) {
        let frames = &profile.stacks[name];
        let mut at = 0;
        let mut path = Vec::with_capacity(frames.len());
        for f in frames.iter() {
            let next = by_text.len() as u32;
            let id = *by_place
                .entry(f.as_ptr() as usize)
                .or_insert_with(|| *by_text.entry(&f[..]).or_insert(next));
            let next = inclusive.len() as u32;
            at = *nodes.entry((at, id)).or_insert(next);
            if at == next {
                inclusive.push(0.0);
            }
            inclusive[at as usize] += w;
            path.push(at);
        }
        paths.push(path);
    }
    // Where each band's stack is cut: at its first frame under the share.
    let cuts: Vec<Option<usize>> = (paths.iter())
        .map(|path| {
            path.iter()
                .position(|&node| inclusive[node as usize] < least)
        })
        .collect();
    if cuts.iter().all(Option::is_none) {
        return profile;
    }
    drop((paths, nodes, by_text, by_place, inclusive));
    regroup(profile, &cuts, &weights, min_share)
}

/// `profile`'s bands cut where `cuts` says, each with `(other)` at its cut, bands cut
/// alike joined. Names, frames and series are moved, not copied: a profile of many
/// deep stacks holds hundreds of megabytes of them.
fn regroup(mut profile: Costs, cuts: &[Option<usize>], weights: &[f64], min_share: f64) -> Costs {
    let other: std::sync::Arc<[u8]> = OTHER.into();
    let mut pruned = Pruned {
        min_share,
        ..Pruned::default()
    };
    let mut stacks = std::mem::take(&mut profile.stacks);
    profile.bands_changed();
    let old = std::mem::take(&mut profile.series.bands);
    let mut names = crate::profile::names::NameBudget::default();
    let hash = |name: &[u8]| {
        use std::hash::Hasher as _;
        let mut h = crate::profile::hash::FxHasher::default();
        h.write(name);
        h.finish()
    };
    let mut kept: hashbrown::HashTable<usize> = hashbrown::HashTable::new();
    let mut groups: Vec<(Box<[u8]>, Frames, Vec<Series>)> = Vec::new();
    for (band, (name, series)) in old.into_iter().enumerate() {
        let frames = stacks.remove(&name).unwrap_or_default();
        let (name, frames): (Box<[u8]>, Frames) = match cuts[band] {
            None => (name, frames),
            Some(at) => {
                pruned.stacks += 1;
                pruned.weight += weights[band];
                let mut kept = frames[..at].to_vec();
                kept.push(other.clone());
                (names.name(&kept), kept.into())
            }
        };
        let h = hash(&name);
        match kept.find(h, |&g| groups[g].0 == name) {
            Some(&g) => groups[g].2.push(series),
            None => {
                kept.insert_unique(h, groups.len(), |&g| hash(&groups[g].0));
                groups.push((name, frames, vec![series]));
            }
        }
    }
    let mut bands = Bands::default();
    for (name, frames, mut members) in groups {
        let merged = match members.len() {
            1 => members.pop().unwrap_or_default(),
            _ => merge(members.iter()),
        };
        profile.stacks.insert(name.clone(), frames);
        bands.push(name, merged);
    }
    profile.series.bands = bands;
    profile.pruned = Some(pruned);
    profile
}

/// Several series added census by census (a cost profile's counts).
fn merge<'a>(parts: impl Iterator<Item = &'a Series>) -> Series {
    let mut points: Vec<(u32, f64)> = Vec::new();
    for s in parts {
        s.for_each(|c, v| points.push((c, v)));
    }
    points.sort_unstable_by_key(|&(c, _)| c);
    let mut merged = Series::default();
    let mut k = 0;
    while k < points.len() {
        let (c, mut v) = points[k];
        k += 1;
        while k < points.len() && points[k].0 == c {
            v += points[k].1;
            k += 1;
        }
        merged.push(c, v);
    }
    merged
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::costs::{CostCentre, CostProfile, Precision, Stack};

    fn report() -> Costs {
        let centre = |l: &str| CostCentre {
            label: l.as_bytes().into(),
            module: b"M".as_slice().into(),
            src: b"<built-in>".as_slice().into(),
        };
        let stack = |centre, parent, ticks| Stack {
            centre,
            parent,
            number: 0,
            entries: 1,
            ticks,
            bytes: 0.0,
        };
        let costs = CostProfile {
            command: b"p".as_slice().into(),
            date: b"d".as_slice().into(),
            seconds: 1.0,
            total_ticks: 100,
            tick_us: 1000,
            total_bytes: 0,
            centres: ["main", "big", "small", "tiny", "leaf"]
                .map(centre)
                .to_vec(),
            // main 0 > big 90, small 6 > tiny 3 > leaf 1
            stacks: vec![
                stack(0, None, 0.0),
                stack(1, Some(0), 90.0),
                stack(2, Some(0), 6.0),
                stack(3, Some(2), 3.0),
                stack(4, Some(3), 1.0),
            ],
            precision: Precision::Counted,
        };
        crate::input::prof::profile(&costs, None)
    }

    fn weighed(p: &crate::profile::Profile) -> Vec<(String, f64)> {
        let mut out: Vec<(String, f64)> = (p.bands.iter())
            .map(|(n, s)| {
                let mut w = 0.0;
                s.for_each(|_, v| w += v);
                (String::from_utf8_lossy(n).into_owned(), w)
            })
            .collect();
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    }

    #[test]
    fn frames_under_the_share_join_their_callers_other() {
        let p = prune(report(), 5.0);
        assert_eq!(
            weighed(p.series()),
            [
                ("(other)/M.small/M.main".to_string(), 4.0),
                ("M.big/M.main".to_string(), 90.0),
                ("M.small/M.main".to_string(), 6.0),
            ]
        );
        let pruned = p.pruned.unwrap();
        assert_eq!((pruned.stacks, pruned.weight), (2, 4.0));
        // The frames of the new band end in (other), outermost first.
        let frames: Vec<&[u8]> = p.stacks["(other)/M.small/M.main".as_bytes()]
            .iter()
            .map(|f| &**f)
            .collect();
        assert_eq!(frames, [&b"M.main"[..], b"M.small", OTHER]);
    }

    #[test]
    fn a_share_nothing_is_under_keeps_the_profile() {
        let p = report();
        assert_eq!(prune(p.clone(), 0.5), p);
        // Everything but the root under 100%: all of it is the root's other.
        let all = prune(report(), 100.0);
        assert_eq!(
            weighed(all.series()),
            [("(other)/M.main".to_string(), 100.0)]
        );
    }
}
