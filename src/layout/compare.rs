//! Two runs in one picture: each laid out as a figure of its own, half the height, one
//! above the other (the first on top), on the scale both share (the selection's least
//! ranges say it), with lines of text under them that call out what changed most.

use std::collections::HashMap;

use super::text::helvetica_size;
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

/// Whether a comparison of this size sets its runs side by side: a figure at least
/// twice as wide as it is tall (a slide, the full width of a page: 17 cm × 6 cm), where
/// panels one above the other would leave each graph a strip a few points tall.
pub fn side_by_side(size: (f64, f64)) -> bool {
    size.0 >= 2.0 * size.1
}

/// The height each of `runs` compared runs' panels gets in a figure of `size` with text
/// of `font_size`, before its captions are known (the engine's key limit is decided
/// from it): the captions' usual three lines, or a fourth where one wraps.
pub fn panel_height(size: (f64, f64), font_size: f64, runs: usize) -> f64 {
    let em = font_size / 10.0;
    let below = 4.0 * CAPTION_LINE * em + 2.0 * CAPTION_MARGIN * em;
    let room = (size.1 - below).max(0.0);
    if side_by_side(size) {
        room
    } else {
        room / runs.max(1) as f64
    }
}

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
    let (width, height) = opts.size;
    let left = super::BORDER_SPACE + super::GRAPH_X0 * em;
    let captions = wrapped(captions, (width - left - super::BORDER_SPACE) / em);
    let below = if captions.is_empty() {
        0.0
    } else {
        captions.len() as f64 * CAPTION_LINE * em + 2.0 * CAPTION_MARGIN * em
    };
    let weights: f64 = panels.iter().map(|p| p.weight).sum();
    let room = height - below;
    let beside = side_by_side(opts.size);
    let count = panels.len().max(1) as f64;
    // One key width for every panel, so that their graphs have one width: the scale is
    // the same on paper, not only in the numbers.
    let measured = LayoutOptions {
        size: (if beside { width / count } else { width }, height),
        ..opts.clone()
    };
    let keys = panels
        .iter()
        .map(|p| super::key_width(p.selection, &measured))
        .fold(0.0, f64::max);
    let paints = Some(std::sync::Arc::new(shared_paints(&panels, opts)));
    let scenes = panels
        .into_iter()
        .map(|p| {
            let o = LayoutOptions {
                size: if beside {
                    (width / count, room)
                } else {
                    (width, room * p.weight / weights)
                },
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
        .into_iter()
        .enumerate()
        .map(|(k, line)| {
            Item::Text(Text {
                role: TextRole::Caption,
                at: Point::new(
                    left,
                    below - CAPTION_MARGIN * em - (k as f64 + 0.75) * CAPTION_LINE * em,
                ),
                text: line,
                size: FontSize::Normal,
                anchor: Anchor::Start,
                vertical: false,
                ink: crate::scene::Paint::BLACK,
            })
        })
        .collect();
    let (mut scene, plots) = Scene::stacked(scenes, below, items, beside);
    scene.media = Media {
        orientation: opts.media.orientation,
        eps_width: Some(opts.media.eps_width.unwrap_or(width)),
    };
    (scene, plots)
}

/// `captions` as lines of at most `room` points at 10 pt: a line that does not fit is
/// broken after its `; ` clauses, then between words, and a word wider than the room
/// on its own (a long band name) shortened as a key shortens it.
fn wrapped(captions: &[Vec<u8>], room: f64) -> Vec<Vec<u8>> {
    let fits = |s: &[u8]| helvetica_size(s) <= room;
    let mut lines = Vec::new();
    for caption in captions {
        if fits(caption) {
            lines.push(caption.clone());
            continue;
        }
        let clauses = caption.split_inclusive(|&b| b == b';');
        for clause in clauses {
            let clause = clause.trim_ascii();
            let mut line: Vec<u8> = Vec::new();
            for word in clause.split(|&b| b == b' ').filter(|w| !w.is_empty()) {
                let word = if fits(word) {
                    word.to_vec()
                } else {
                    super::modern::shortened(word, room)
                };
                let mut longer = line.clone();
                if !longer.is_empty() {
                    longer.push(b' ');
                }
                longer.extend_from_slice(&word);
                if line.is_empty() || fits(&longer) {
                    line = longer;
                } else {
                    lines.push(std::mem::replace(&mut line, word));
                }
            }
            if !line.is_empty() {
                lines.push(line);
            }
        }
    }
    lines
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
