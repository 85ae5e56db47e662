//! Who holds how much in a set: a retainer profile's (`-hr`) bands are retainer sets, and
//! a root profile's (`-ho`) bands are sets of roots named by their roots joined with `-`
//! (`hsc-eps-fc`). What a reader asks of either — how much does this member hold, alone or
//! shared? — is a sum over bands: a member's bytes *alone* are its own set's (the set of
//! it only), its *reachable* bytes every set's it is in. Each at its peak over the
//! censuses.

use serde::Serialize;

use crate::profile::Profile;

/// The most members a profile's sets name that are weighed; the rest are counted in
/// [`Members::left_out`]. A run's retainers are tens to thousands.
pub const MAX_MEMBERS: usize = 4096;

/// One member's figures.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Member {
    /// As the sets write it: a root's name, a retainer's stack (`<Main.worker,Main.main>`).
    pub name: String,
    /// The most its set of it alone held at a census.
    #[serde(serialize_with = "crate::units::tidy_number")]
    pub alone_peak: f64,
    /// The most every set it is in held together at a census.
    #[serde(serialize_with = "crate::units::tidy_number")]
    pub reachable_peak: f64,
    /// The bands whose sets hold it, by number: what a view of its reachable bytes
    /// stacks.
    #[serde(skip)]
    pub bands: Vec<u32>,
    /// Those of `bands` whose set is it alone.
    #[serde(skip)]
    pub alone: Vec<u32>,
}

/// Every member's figures, most reachable first.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Members {
    /// The members.
    pub members: Vec<Member>,
    /// Members past [`MAX_MEMBERS`], not weighed.
    pub left_out: usize,
    /// Bands whose set is not known (GHC's report lists the sets held when the run
    /// ends): what they held counts for no member, so a member's figures are at least
    /// these.
    pub unknown_sets: usize,
}

/// The members a profile's sets name, numbered, and each band's members by number.
pub struct Numbered {
    /// Each member's name, in the order first met (at most [`MAX_MEMBERS`]).
    pub names: Vec<String>,
    /// Each band's members, by number (none for a band whose set is not known).
    pub bands: Vec<Vec<usize>>,
    /// Members past [`MAX_MEMBERS`], not numbered.
    pub left_out: usize,
    /// Bands whose set is not known.
    pub unknown_sets: usize,
}

/// Numbers the members of `profile`'s sets; `None` for a profile whose bands are not
/// sets (neither a retainer profile with its sets named from the run's report, nor a
/// root profile).
pub fn numbered(profile: &Profile) -> Option<Numbered> {
    let sets = sets(profile)?;
    let unknown_sets = sets.iter().filter(|s| s.is_none()).count();
    let mut index: std::collections::HashMap<String, usize> = Default::default();
    let mut names: Vec<String> = Vec::new();
    let mut left_out = std::collections::HashSet::new();
    // The band a member was last added to, so that a set naming it twice holds it once.
    let mut last_in: Vec<usize> = Vec::new();
    let bands: Vec<Vec<usize>> = (sets.into_iter().enumerate())
        .map(|(b, set)| {
            let mut ids: Vec<usize> = Vec::new();
            for m in set.unwrap_or_default() {
                let next = names.len();
                let id = match index.get(&m) {
                    Some(&id) => id,
                    None if next < MAX_MEMBERS => {
                        index.insert(m.clone(), next);
                        names.push(m);
                        last_in.push(usize::MAX);
                        next
                    }
                    None => {
                        left_out.insert(m);
                        continue;
                    }
                };
                if last_in[id] != b {
                    last_in[id] = b;
                    ids.push(id);
                }
            }
            ids
        })
        .collect();
    Some(Numbered {
        names,
        bands,
        left_out: left_out.len(),
        unknown_sets,
    })
}

/// The members of `profile`'s sets and their figures, most reachable first; `None` for
/// a profile whose bands are not sets ([`numbered`]).
pub fn of(profile: &Profile) -> Option<Members> {
    let Numbered {
        names,
        bands,
        left_out,
        unknown_sets,
    } = numbered(profile)?;
    let (mut alone, mut reach) = (vec![0.0; names.len()], vec![0.0; names.len()]);
    // Census by census, each band's value to its members' sums there: the points in
    // census order (bands in their order within one), and only the members a census
    // touches weighed at it, so that empty censuses and absent members cost nothing (a
    // member's peak is at least 0, the sum where it is absent).
    let mut points: Vec<(u32, u32, f64)> = Vec::new();
    for (b, series) in profile.bands.series().iter().enumerate() {
        series.for_each(|s, v| points.push((s, b as u32, v)));
    }
    points.sort_by_key(|p| p.0);
    let (mut a, mut r) = (vec![0.0; names.len()], vec![0.0; names.len()]);
    let (mut touched, mut marked) = (Vec::new(), vec![false; names.len()]);
    for census in points.chunk_by(|x, y| x.0 == y.0) {
        for &(_, b, v) in census {
            let ids = &bands[b as usize];
            if let [only] = ids[..] {
                a[only] += v;
            }
            for &m in ids {
                if !marked[m] {
                    marked[m] = true;
                    touched.push(m);
                }
                r[m] += v;
            }
        }
        for m in touched.drain(..) {
            alone[m] = f64::max(alone[m], a[m]);
            reach[m] = f64::max(reach[m], r[m]);
            (a[m], r[m], marked[m]) = (0.0, 0.0, false);
        }
    }
    let mut holders: Vec<Vec<u32>> = vec![Vec::new(); names.len()];
    let mut own: Vec<Vec<u32>> = vec![Vec::new(); names.len()];
    for (b, ids) in bands.iter().enumerate() {
        ids.iter().for_each(|&m| holders[m].push(b as u32));
        if let [only] = ids[..] {
            own[only].push(b as u32);
        }
    }
    let mut members: Vec<Member> = (names.into_iter().zip(holders).zip(own).enumerate())
        .map(|(m, ((name, bands), own))| Member {
            name,
            alone_peak: alone[m],
            reachable_peak: reach[m],
            bands,
            alone: own,
        })
        .collect();
    members.sort_by(|x, y| {
        (y.reachable_peak.total_cmp(&x.reachable_peak)).then_with(|| x.name.cmp(&y.name))
    });
    Some(Members {
        members,
        left_out,
        unknown_sets,
    })
}

/// Each band's set, as its members' names (`None` where it is not known): a retainer
/// profile's from the run's report, a root profile's from its bands' names.
fn sets(profile: &Profile) -> Option<Vec<Option<Vec<String>>>> {
    let names = profile.bands.names();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    if !profile.retainer_sets.is_empty() {
        let stack = |m: &Vec<Box<[u8]>>| {
            let labels: Vec<String> = m.iter().map(|c| text(c)).collect();
            format!("<{}>", labels.join(","))
        };
        return Some(
            (names.iter())
                .map(|n| (profile.retainer_sets.get(n)).map(|set| set.iter().map(stack).collect()))
                .collect(),
        );
    }
    is_root_profile(&profile.job).then(|| {
        (names.iter())
            .map(|n| {
                let name = crate::select::flame::unnumbered(n);
                Some(name.split(|&b| b == b'-').map(text).collect())
            })
            .collect()
    })
}

/// Whether `job` (`JOB`, the program's command line) asked for a root profile: `-ho`
/// among its runtime options.
pub fn is_root_profile(job: &[u8]) -> bool {
    let job = String::from_utf8_lossy(job);
    let rts = job.split_once("+RTS").map_or("", |(_, rest)| rest);
    rts.split_whitespace()
        .take_while(|w| *w != "-RTS")
        .any(|w| w == "-ho")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_past_the_limit_are_counted_not_weighed() {
        let mut text = String::from(
            "JOB \"p +RTS -ho -RTS\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n\
             BEGIN_SAMPLE 0\n",
        );
        for k in 0..MAX_MEMBERS + 10 {
            text += &format!("r{k}\t{}\n", k + 1);
        }
        text += "END_SAMPLE 0\n";
        let p = crate::input::hp::parse(text.as_bytes()).unwrap().profile;
        let m = of(&p).unwrap();
        assert_eq!((m.members.len(), m.left_out), (MAX_MEMBERS, 10));
        // Most reachable first: the last root written holds the most of those weighed.
        assert_eq!(m.members[0].name, format!("r{}", MAX_MEMBERS - 1));
        assert!(
            !is_root_profile(b"p +RTS -hc -RTS -ho"),
            "-ho after -RTS is the program's"
        );
    }
}
