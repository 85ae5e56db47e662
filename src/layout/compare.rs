//! Two runs in one picture: each laid out as a figure of its own, half the height, one
//! above the other (the first on top), on the scale both share (the selection's least
//! ranges say it), with lines of text under them that call out what changed most.

use super::{KeyPlacement, LayoutOptions, TitleSize, layout};
use crate::profile::Profile;
use crate::scene::{Anchor, FontSize, Item, Media, Point, Scene, Text, TextRole};
use crate::select::Selection;

/// One run's figure: its profile, the bands drawn of it, its title (the file's name).
pub struct Panel<'a> {
    /// The run.
    pub profile: Profile,
    /// Its bands.
    pub selection: &'a Selection,
    /// What the panel's title says in place of the job.
    pub title: Vec<u8>,
}

/// A caption line's height, in points at 10 pt text.
const CAPTION_LINE: f64 = 14.0;
/// Space above and below the captions.
const CAPTION_MARGIN: f64 = 6.0;

/// Lays out `panels` one above the other in `opts.size`, `captions` under them. The
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
    let each = (height - below) / panels.len().max(1) as f64;
    // One key width for every panel, so that their graphs have one width: the scale is
    // the same on paper, not only in the numbers.
    let keys = panels
        .iter()
        .map(|p| super::key_width(p.selection, opts))
        .fold(0.0, f64::max);
    let scenes = panels
        .into_iter()
        .map(|p| {
            let o = LayoutOptions {
                size: (width, each),
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
