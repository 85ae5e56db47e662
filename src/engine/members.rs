//! `--members`: a root or retainer profile's figure with a panel per member under its
//! graph. A band of such a profile is a set (of roots, of retainers), so a member's
//! reachable bytes are the sum of the bands whose sets hold it: its panel stacks what
//! its set of it alone holds under what the sets it shares hold, on the whole graph's
//! scale — the stack's top is its reachable bytes over time. (A page lists the members
//! and shows a member's sets band by band.)

use super::Picture;
use crate::analysis::members::{self, Member};
use crate::layout::TitleSize;
use crate::layout::compare::{Panel, compared};
use crate::profile::{Bands, Profile, Series};
use crate::select::{Axes, Selection};

/// The most members drawn in panels of their own: more would leave each too low to
/// read; `--summary` lists every member.
pub const MAX_MEMBER_PANELS: usize = 8;

/// A member's panel's height in points at the default size: the figure grows by it for
/// each, the whole graph keeping hp2ps's height. Panels share a given `--size` in the
/// same proportion.
pub const MEMBER_PANEL_HEIGHT: f64 = 144.0;

/// What a reader is told of `--members` on a profile whose bands are not sets.
pub(super) const NOT_SETS: &str = "--members: the bands are not sets of members (a root \
    profile, +RTS -ho, or a retainer profile, -hr, with its run's report beside it): drawn \
    as usual";

/// A figure of members: its scene, the whole graph's bands (what an `.aux` file beside
/// it keeps) and the profile's count of samples.
pub(super) struct Figure {
    pub scene: crate::scene::Scene,
    pub selection: Selection,
    pub samples: usize,
}

/// The figure of `profile` with the panels of its `count` members that reach most, of
/// `all`, its members ([`members::of`]).
pub(super) fn figure(
    picture: &Picture,
    profile: Profile,
    all: members::Members,
    count: usize,
) -> Figure {
    let count = count.min(MAX_MEMBER_PANELS);
    let shown: Vec<&Member> = all.members.iter().take(count).collect();
    // The profile without its bands, which each panel's profile is with some of them.
    let mut shell = profile;
    let bands = std::mem::take(&mut shell.bands);
    let mut profiles: Vec<Profile> = (shown.iter()).map(|m| holding(&shell, &bands, m)).collect();
    let profile = Profile { bands, ..shell };
    let (samples, profile_units) = (profile.samples(), profile.units.value);
    let mut titles = vec![match &picture.layout.title_text {
        Some(t) => t.clone(),
        None => profile.job.clone(),
    }];
    profiles.insert(0, profile);
    let selections = on_one_scale(&profiles, picture);
    let scale = crate::units::Scale::new(profile_units, picture.layout.byte_units);
    let human = |v: f64| crate::units::human(v, scale);
    titles.extend(shown.iter().map(|m| {
        format!(
            "{}: reachable {} at its peak, {} alone",
            m.name,
            human(m.reachable_peak),
            human(m.alone_peak)
        )
        .into_bytes()
    }));
    // hp2ps's small title box holds 35 characters: a longer title gets the big one.
    let long = |t: &Vec<u8>| t.len() > crate::layout::SMALL_TITLE_CHARS;
    let panels_titles_long = titles.iter().any(long);
    // The whole graph as tall as hp2ps's against the members' panels.
    let whole = crate::scene::HEIGHT / MEMBER_PANEL_HEIGHT;
    let weights = std::iter::once(whole).chain(std::iter::repeat(1.0));
    let panels = (profiles
        .into_iter()
        .zip(&selections)
        .zip(titles)
        .zip(weights))
    .map(|(((profile, selection), title), weight)| Panel {
        profile,
        selection,
        title,
        weight,
    })
    .collect();
    let layout = crate::layout::LayoutOptions {
        title: match picture.layout.title {
            TitleSize::Auto if panels_titles_long => TitleSize::Big,
            t => t,
        },
        ..picture.layout.clone()
    };
    let (scene, _) = compared(panels, &[], &layout);
    Figure {
        scene,
        selection: selections[0].clone(),
        samples,
    }
}

/// What a member's panel names its two bands: the same in every panel, so each is one
/// colour in all of them.
const ALONE: &[u8] = b"alone";
const SHARED: &[u8] = b"shared";

/// `shell` (a profile without its bands) with `member`'s bytes of `bands` as two bands:
/// those of its set alone, under those of the sets it shares with others.
fn holding(shell: &Profile, bands: &Bands, member: &Member) -> Profile {
    let samples = shell.times.len();
    let sum = |ids: &mut dyn Iterator<Item = &u32>| {
        Series::sum(ids.map(|&b| &bands.series()[b as usize]), samples)
    };
    let alone = sum(&mut member.alone.iter());
    let shared = sum(&mut member.bands.iter().filter(|b| !member.alone.contains(b)));
    let kept: Bands = [(ALONE, alone), (SHARED, shared)]
        .into_iter()
        .filter(|(_, s)| !s.is_empty())
        .map(|(name, s)| (Box::from(name), s))
        .collect();
    Profile {
        bands: kept,
        ..shell.clone()
    }
}

/// Each profile selected with the least ranges that hold them all.
fn on_one_scale(profiles: &[Profile], picture: &Picture) -> Vec<Selection> {
    let mut opts = picture.select.clone();
    for p in profiles {
        crate::select::widen(&mut opts, p, Axes::Both);
    }
    let selected = |p: &Profile| crate::select::select(p, None, &opts);
    profiles.iter().map(selected).collect()
}
