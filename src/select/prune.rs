//! Pruning (`--min-share PERCENT`): a cost-centre profile's frames that weigh less than
//! that share of the whole join their caller's `(other)` frame, as Clean's and
//! convertprofile's `--min-ticks` keep a call graph readable. A stack through such a
//! frame is cut there: what it and its callees weighed is its caller's `(other)`, so
//! every frame kept weighs what it did and the total stays the same. Taken after the
//! window (`--from`/`--to`), so a frame's share is of what the window spent.

use crate::profile::hash::FxMap;
use crate::profile::{Bands, Frames, Profile, Series};

/// The frame that holds what pruning hid under a caller.
pub const OTHER: &[u8] = b"(other)";

pub use crate::profile::costs::Pruned;

/// `profile` with every frame under `min_share` percent of the whole joined into its
/// caller's [`OTHER`]; a profile that is not a cost-centre profile is returned as it is.
pub fn prune(mut profile: Profile, min_share: f64) -> Profile {
    if !profile.is_cost_report() {
        return profile;
    }
    let weights: Vec<f64> = (profile.bands.series().iter())
        .map(|s| {
            let mut w = 0.0;
            s.for_each(|_, v| w += v);
            w
        })
        .collect();
    let total: f64 = weights.iter().sum();
    let least = total * min_share / 100.0;
    // Every prefix of every stack, numbered as a trie, with what it and its callees weigh.
    let mut nodes: FxMap<(usize, &[u8]), usize> = FxMap::default();
    let mut inclusive: Vec<f64> = vec![total];
    let mut paths: Vec<Vec<usize>> = Vec::with_capacity(weights.len());
    for (name, &w) in profile.bands.names().iter().zip(&weights) {
        let frames = &profile.stacks[name];
        let mut at = 0;
        let mut path = Vec::with_capacity(frames.len());
        for f in frames.iter().map(|f| &f[..]) {
            let next = inclusive.len();
            at = *nodes.entry((at, f)).or_insert(next);
            if at == next {
                inclusive.push(0.0);
            }
            inclusive[at] += w;
            path.push(at);
        }
        paths.push(path);
    }
    // Each band's frames up to its first frame under the share, and `(other)` there.
    let other: std::sync::Arc<[u8]> = OTHER.into();
    let mut pruned = Pruned {
        min_share,
        ..Pruned::default()
    };
    let mut kept: FxMap<Box<[u8]>, usize> = FxMap::default();
    let mut groups: Vec<(Box<[u8]>, Frames, Vec<usize>)> = Vec::new();
    for (band, path) in paths.iter().enumerate() {
        let name = &profile.bands.names()[band];
        let cut = path.iter().position(|&node| inclusive[node] < least);
        let frames = &profile.stacks[name];
        let (name, frames): (Box<[u8]>, Frames) = match cut {
            None => (name.clone(), frames.clone()),
            Some(at) => {
                pruned.stacks += 1;
                pruned.weight += weights[band];
                let mut kept = frames[..at].to_vec();
                kept.push(other.clone());
                (crate::profile::band_name(&kept), kept.into())
            }
        };
        match kept.get(&name) {
            Some(&g) => groups[g].2.push(band),
            None => {
                kept.insert(name.clone(), groups.len());
                groups.push((name, frames, vec![band]));
            }
        }
    }
    if pruned.stacks == 0 {
        return profile;
    }
    let mut series = profile.bands.take_series();
    let mut bands = Bands::default();
    profile.stacks.clear();
    for (name, frames, members) in groups {
        let merged = match members[..] {
            [one] => std::mem::take(&mut series[one]),
            _ => merge(members.iter().map(|&b| &series[b])),
        };
        profile.stacks.insert(name.clone(), frames);
        bands.push(name, merged);
    }
    profile.bands = bands;
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

    fn report() -> Profile {
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

    fn weighed(p: &Profile) -> Vec<(String, f64)> {
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
            weighed(&p),
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
        assert_eq!(weighed(&all), [("(other)/M.main".to_string(), 100.0)]);
    }
}
