//! Two runs in one picture: each laid out as a figure of its own, half the height, one
//! above the other (the first on top), on the scale both share (the selection's least
//! ranges say it), with lines of text under them that call out what changed most.

use std::collections::HashMap;

use super::{KeyPlacement, LayoutOptions, TitleSize, layout, paint};
use crate::profile::Profile;
use crate::scene::{Anchor, FontSize, Item, Media, Point, Scene, Text, TextRole};
use crate::select::{Selection, Source};

/// One run's figure: its profile, the bands drawn of it, its title (the file's name).
pub struct Panel<'a> {
    /// The run.
    pub profile: Profile,
    /// Its bands.
    pub selection: &'a Selection,
    /// What the panel's title says in place of the job.
    pub title: Vec<u8>,
    /// Its share of the height, against the others' (two runs compared: 1 each).
    pub weight: f64,
}

/// A caption line's height, in points at 10 pt text.
const CAPTION_LINE: f64 = 14.0;
/// Space above and below the captions.
const CAPTION_MARGIN: f64 = 6.0;

/// Lays out `panels` one above the other in `opts.size`, each as tall as its weight
/// says, `captions` under them. The
/// picture is its own page (as `--size` makes it): PostScript gets a page of exactly
/// its size. Also where each panel's graph is, for a page that follows the pointer.
pub fn compared(
    panels: Vec<Panel>,
    captions: &[Vec<u8>],
    opts: &LayoutOptions,
) -> (Scene, Vec<crate::scene::Plot>) {
    let em = opts.font_size / 10.0;
    let below = if captions.is_empty() {
        0.0
    } else {
        captions.len() as f64 * CAPTION_LINE * em + 2.0 * CAPTION_MARGIN * em
    };
    let (width, height) = opts.size;
    let weights: f64 = panels.iter().map(|p| p.weight).sum();
    let room = height - below;
    // One key width for every panel, so that their graphs have one width: the scale is
    // the same on paper, not only in the numbers.
    let keys = panels
        .iter()
        .map(|p| super::key_width(p.selection, opts))
        .fold(0.0, f64::max);
    let paints = Some(std::sync::Arc::new(shared_paints(&panels, opts)));
    let scenes = panels
        .into_iter()
        .map(|p| {
            let o = LayoutOptions {
                size: (width, room * p.weight / weights),
                min_key_width: keys,
                // The title is the file's name, short: one row unless -b asks for two.
                title: match opts.title {
                    TitleSize::Auto => TitleSize::Small,
                    t => t,
                },
                title_text: Some(p.title),
                // Every panel's key beside or below its own graph.
                key: match opts.key {
                    KeyPlacement::SeparatePages => KeyPlacement::Beside,
                    k => k,
                },
                media: Media {
                    eps_width: None,
                    ..opts.media
                },
                paints: paints.clone(),
                ..opts.clone()
            };
            layout(p.profile, p.selection, &o)
        })
        .collect();
    let items = captions
        .iter()
        .enumerate()
        .map(|(k, line)| {
            Item::Text(Text {
                role: TextRole::Caption,
                at: Point::new(
                    super::BORDER_SPACE + super::GRAPH_X0 * em,
                    below - CAPTION_MARGIN * em - (k as f64 + 0.75) * CAPTION_LINE * em,
                ),
                text: line.clone(),
                size: FontSize::Normal,
                anchor: Anchor::Start,
                vertical: false,
                ink: crate::scene::Paint::BLACK,
            })
        })
        .collect();
    let (mut scene, plots) = Scene::stacked(scenes, below, items);
    scene.media = Media {
        orientation: opts.media.orientation,
        eps_width: Some(opts.media.eps_width.unwrap_or(width)),
    };
    (scene, plots)
}

/// One paint per band name over every panel, each distinct from the others, from the
/// palette the options name (hp2ps's colours or greys included): a band found in both
/// runs is one colour in both, as the key of either says.
fn shared_paints(panels: &[Panel], opts: &LayoutOptions) -> HashMap<Vec<u8>, crate::scene::Paint> {
    let mut names: Vec<&[u8]> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for p in panels {
        for b in &p.selection.bands {
            if !matches!(b.source, Source::Other(_)) && seen.insert(&b.name[..]) {
                names.push(&b.name[..]);
            }
        }
    }
    let shading = panels.first().map(|p| p.selection.shading);
    let palette = opts.palette.extended(shading.unwrap_or_default());
    let paints = paint::distinct_paints(
        names.iter().copied(),
        &palette,
        &mut Vec::new(),
        opts.stable_colours,
    );
    names.into_iter().map(<[u8]>::to_vec).zip(paints).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two runs of more censuses than columns stacked: each panel's bands are reduced
    /// on its own graph. (Reduced after stacking, every panel's bands were drawn down
    /// to the top panel's baseline, a block of colour over the panels between.)
    #[test]
    fn each_panel_s_reduced_bands_stand_on_its_own_graph() {
        let body = |scale: f64| {
            let times: Vec<f64> = (0..20_000).map(|i| i as f64).collect();
            let values: Vec<f64> = (0..20_000).map(|i| scale * (i % 13) as f64).collect();
            super::super::testing::samples(&times, &[("a", &values), ("b", &values)])
        };
        let profile = |scale| {
            let text = format!(
                "JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n{}",
                body(scale)
            );
            crate::input::hp::parse(text.as_bytes()).unwrap().profile
        };
        let (one, two) = (profile(1.0), profile(2.0));
        let sel = |p: &Profile| crate::select::select(p, None, &Default::default());
        let (s1, s2) = (sel(&one), sel(&two));
        let panel = |profile, selection| Panel {
            profile,
            selection,
            title: b"t".to_vec(),
            weight: 1.0,
        };
        let opts = LayoutOptions {
            column: Some(crate::scene::reduce::COLUMN),
            ..Default::default()
        };
        let (scene, plots) = compared(vec![panel(one, &s1), panel(two, &s2)], &[], &opts);
        let areas: Vec<&crate::scene::Area> = (scene.pages.iter().flat_map(|p| &p.items))
            .filter_map(|i| match i {
                Item::Area(a) => Some(a),
                _ => None,
            })
            .collect();
        assert_eq!(areas.len(), 4);
        for area in areas {
            let low = area.outline.iter().map(|p| p.y).fold(f64::MAX, f64::min);
            let high = area.outline.iter().map(|p| p.y).fold(f64::MIN, f64::max);
            let on = plots
                .iter()
                .find(|p| (low - p.y0).abs() < 1e-6)
                .unwrap_or_else(|| panic!("a band from {low} stands on no panel's axis"));
            assert!(high <= on.y0 + on.height + 1e-6, "{high} above its panel");
        }
    }
}
