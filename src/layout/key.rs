//! The key: beside the graph, below it, on pages of its own or in a file of its own; which
//! bands it can hold and the names it shows.

use super::*;
use crate::profile::costs;

/// The width a key beside the graph takes for `sel`'s names: the widest name (a modern
/// key's at most the room it has), the swatch and the margins.
pub fn key_width(sel: &Selection, opts: &LayoutOptions) -> f64 {
    let em = opts.font_size / 10.0;
    let widest = sel
        .bands
        .iter()
        .fold(0.0, |c, b| fmax(c, opts.style.text_width(&b.name) * em));
    let widest = match opts.style {
        Style::Hp2ps => widest,
        Style::Modern => widest.min(key_names_width(opts.size.0, em)),
    };
    widest + 3.0 * BORDER_SPACE + KEY_BOX * em
}

/// A key's row in a picture of its own, in points at 10 pt text: the swatch and a gap.
pub(super) const APART_ROW: f64 = 18.0;

/// The key as a picture of its own (`--key file`): `sel`'s bands top first, each with
/// the swatch and name the graph drawn with `opts` gives it, as tall as its rows and as
/// wide as its longest name, so that a caption can hold it.
pub fn key_figure(profile: &Profile, sel: &Selection, opts: &LayoutOptions) -> Scene {
    let f = frame(profile, sel, opts);
    let em = f.em;
    let b = KEY_BOX * em;
    let widest = f
        .key_names
        .iter()
        .fold(0.0, |w, n| fmax(w, opts.style.text_width(n) * em));
    let width = (3.0 * BORDER_SPACE + b + widest).ceil();
    let height = (2.0 * BORDER_SPACE + sel.bands.len() as f64 * APART_ROW * em).ceil();
    let mut page = Page::default();
    for (k, band) in sel.bands.iter().enumerate() {
        let slot = (sel.bands.len() - 1 - k) as f64;
        let c = height - BORDER_SPACE - (slot + 0.5) * APART_ROW * em;
        f.key_entry(
            &mut page.items,
            (k, band),
            Point::new(BORDER_SPACE, c - b / 2.0),
            b,
            Point::new(b + 2.0 * BORDER_SPACE, c - 3.5 * em),
        );
    }
    Scene {
        title: profile.job.clone(),
        date: profile.date.clone(),
        width,
        height,
        media: Media {
            eps_width: Some(width),
            ..opts.media
        },
        pages: vec![page],
        plot: None,
        font_size: opts.font_size,
        page_paints: None,
        samples: None,
        legend: Vec::new(),
    }
}

/// The names a key shows for bands named `names`: hp2ps's whole; in the modern style
/// without GHC's `(N)` numbers, shortened to the key's room. Below the graph, in either
/// style, a name takes at most half the width, less its swatch and gap.
pub(super) fn key_names(names: &[&[u8]], profile: &Profile, opts: &LayoutOptions) -> Vec<Vec<u8>> {
    let em = opts.font_size / 10.0;
    let width = opts.size.0;
    let below = (width - 2.0 * BORDER_SPACE) / 2.0 - (BELOW_BOX + 16.0) * em;
    match opts.style {
        Style::Hp2ps if opts.key == KeyPlacement::Below => {
            modern::shortened_apart(names, below / em)
        }
        Style::Hp2ps => names.iter().map(|n| n.to_vec()).collect(),
        Style::Modern => {
            // GHC's `(N)` stack numbers say nothing to a reader and take a key's room,
            // as a closure's package does before its module (`main:Main.Customer`);
            // each band's title keeps its whole name. Names that become alike (cut by
            // GHC's `-L` alike, or one module in two packages) keep them.
            // A retainer band whose set the run's report named shows the set in full.
            let sets: Vec<Option<Vec<u8>>> = (names.iter())
                .map(|n| (profile.retainer_sets.get(*n)).map(|m| costs::set_text(m).into_bytes()))
                .collect();
            let names: Vec<&[u8]> = (names.iter().zip(&sets))
                .map(|(n, set)| set.as_deref().unwrap_or(n))
                .collect();
            let plain: Vec<&[u8]> = (names.iter())
                .map(|n| crate::select::flame::shown(n))
                .collect();
            let mut seen = std::collections::HashMap::new();
            for p in &plain {
                *seen.entry(*p).or_insert(0usize) += 1;
            }
            // Measured as shown: a bidirectional control takes the room of its code.
            let shown: Vec<std::borrow::Cow<[u8]>> = (plain.iter().zip(names))
                .map(|(p, n)| crate::escape::bidi_shown(if seen[p] > 1 { n } else { p }))
                .collect();
            let names: Vec<&[u8]> = shown.iter().map(|n| &n[..]).collect();
            let room = match opts.key {
                KeyPlacement::Below => below,
                // A key of its own may be as wide as the figure it goes with.
                KeyPlacement::Apart => width - 3.0 * BORDER_SPACE - KEY_BOX * em,
                _ => key_names_width(width, em),
            };
            // Names are measured at 10 pt.
            let mut shown = modern::shortened_apart(&names, room / em);
            let text: Vec<String> = (shown.iter())
                .map(|n| String::from_utf8_lossy(n).into_owned())
                .collect();
            let refs: Vec<&str> = text.iter().map(String::as_str).collect();
            for (n, mark) in shown.iter_mut().zip(crate::escape::look_alikes(&refs)) {
                n.extend(mark.map(str::as_bytes).unwrap_or_default());
            }
            shown
        }
    }
}

/// How many of `sel`'s bands a key below the graph can list while leaving the graph
/// half the figure's height: all of them, or fewer with the smallest joined into
/// `OTHER` (`sel.bands.len()` for a key placed otherwise). `reversed`: the selection
/// was stacked the other way up, its largest bands first.
pub fn key_below_holds(
    profile: &Profile,
    sel: &Selection,
    opts: &LayoutOptions,
    reversed: bool,
) -> usize {
    let n = sel.bands.len();
    if opts.key != KeyPlacement::Below || n == 0 {
        return n;
    }
    let em = opts.font_size / 10.0;
    let big = match opts.title {
        TitleSize::Big => true,
        TitleSize::Small => false,
        TitleSize::Auto => c_len(&profile.job) > SMALL_TITLE_CHARS,
    };
    let untitled = opts.title_text.as_deref() == Some(&b""[..]);
    let room = below_room(opts.size.1, title_height(opts.style, untitled, big, em), em);
    let title_width = opts.size.0 - 2.0 * BORDER_SPACE;
    // The bands a limit of `m` keeps: the `m - 1` largest of those drawn now, and OTHER.
    let own: Vec<&[u8]> = (sel.bands.iter())
        .filter(|b| !matches!(b.source, Source::Other(_)))
        .map(|b| &b.name[..])
        .collect();
    let fits = |names: &[&[u8]]| {
        let shown = key_names(names, profile, opts);
        below_rows(&shown, title_width, em).1 <= room + BORDER_SPACE
    };
    let all: Vec<&[u8]> = sel.bands.iter().map(|b| &b.name[..]).collect();
    if fits(&all) {
        return n;
    }
    let fits_limit = |m: usize| {
        let kept = m - 1;
        let mut names: Vec<&[u8]> = if reversed {
            own.iter().take(kept).copied().collect()
        } else {
            own.iter()
                .skip(own.len().saturating_sub(kept))
                .copied()
                .collect()
        };
        names.push(b"OTHER");
        fits(&names)
    };
    // More bands take as many rows or more: the largest limit that fits is found by
    // halving, in a few measures of the names however many bands `-m` allows.
    let (mut low, mut high) = (1, n - 1);
    while low < high {
        let mid = (low + high).div_ceil(2);
        if fits_limit(mid) {
            low = mid;
        } else {
            high = mid - 1;
        }
    }
    low
}

/// `profile`'s bands selected for a picture laid out with `opts`: as `select` says, and
/// with a key below the graph, no more than its rows hold while leaving the graph half
/// the figure (the smallest joined into OTHER).
pub fn selected(
    profile: &Profile,
    aux: Option<&crate::select::aux::Aux>,
    select: &crate::select::SelectOptions,
    opts: &LayoutOptions,
) -> Selection {
    let mut sel = crate::select::select(profile, aux, select);
    // Each new selection's names are measured again: a limit's OTHER is a name too.
    for _ in 0..3 {
        let holds = key_below_holds(profile, &sel, opts, select.reverse);
        if holds >= sel.bands.len() {
            break;
        }
        let limit = crate::select::SelectOptions {
            band_limit: holds,
            ..select.clone()
        };
        sel = crate::select::select(profile, aux, &limit);
    }
    sel
}

/// A key below the graph: rows this tall, swatches this wide.
pub(super) const BELOW_ROW: f64 = 14.0;

pub(super) const BELOW_BOX: f64 = 9.0;

/// Where each entry of a key below the graph goes (top band first): its row and its x
/// from the left edge, in columns as wide as the widest entry, as many as `width`
/// holds, filled left to right; and the height the rows take. hp2ps has no key below:
/// its names are measured in Helvetica in either style.
pub(super) fn below_rows(names: &[Vec<u8>], width: f64, em: f64) -> (Vec<(usize, f64)>, f64) {
    let column = names.iter().fold(0.0, |w, name| {
        fmax(w, (BELOW_BOX + 4.0 + helvetica_size(name) + 12.0) * em)
    });
    let columns = ((width / column).floor() as usize).clamp(1, names.len().max(1));
    let places: Vec<(usize, f64)> = (0..names.len())
        .map(|slot| (slot / columns, (slot % columns) as f64 * column))
        .collect();
    let rows = names.len().div_ceil(columns);
    (places, rows as f64 * BELOW_ROW * em + BORDER_SPACE)
}

/// Modern style: the most a key name may take, a third of the figure's width less the
/// swatch; longer names are shortened in the middle.
pub(super) fn key_names_width(width: f64, em: f64) -> f64 {
    (width / 3.0 - 3.0 * BORDER_SPACE - KEY_BOX * em).max(40.0 * em)
}

impl Frame<'_> {
    /// Key entries from the bottom band up, `base` being the height the first entry is
    /// spaced from and `left` the key's left edge. On pages of its own the key starts a
    /// new page after every [`KEY_ENTRIES_PER_PAGE`] entries.
    pub(super) fn key(&self, pages: &mut Vec<Page>, base: f64, left: f64) {
        let n = self.sel.bands.len();
        let slots = if n <= KEY_ENTRIES_PER_PAGE {
            n + 1
        } else {
            KEY_ENTRIES_PER_PAGE
        };
        // Over the graph and the rows under it (the rate panel, the strip), from `base`.
        let mut dc = (self.y0 + self.graph_height - self.axis_y()) / slots as f64;
        let mut c = base;
        // A modern key whose rows the graph's height cannot space apart (a compared
        // run's panel at a column's width) takes the rows a swatch needs, its top entry
        // level with the graph's top and the rest going down beside the time axis.
        let row = KEY_ROW * self.em;
        if self.opts.style == Style::Modern && dc < row && slots <= n + 1 {
            dc = row;
            c = (self.y0 + self.graph_height - n as f64 * dc).min(base);
        }
        for (k, band) in self.sel.bands.iter().enumerate() {
            if self.opts.key == KeyPlacement::SeparatePages
                && k > 0
                && k % KEY_ENTRIES_PER_PAGE == 0
            {
                c = 0.0;
                self.new_page(pages);
            }
            c += dc;
            let items = &mut pages.last_mut().expect("a page").items;
            let b = KEY_BOX * self.em;
            self.key_entry(
                items,
                (k, band),
                Point::new(left + BORDER_SPACE, c - b / 2.0),
                b,
                Point::new(left + b + 2.0 * BORDER_SPACE, c - 5.0 * self.em),
            );
        }
    }

    /// One entry of a key: the `k`th band's swatch, `size` square from `swatch` (its
    /// bottom left), and its name starting at `label`.
    pub(super) fn key_entry(
        &self,
        items: &mut Vec<Item>,
        (k, band): (usize, &crate::select::Band),
        swatch: Point,
        size: f64,
        label: Point,
    ) {
        let mut square = path(
            PathRole::KeySwatch,
            swatch,
            &[(0.0, size), (size, 0.0), (0.0, -size)],
            true,
        );
        square.fill = Some(self.fill(k, band));
        items.push(Item::Path(square));
        items.push(text(
            TextRole::KeyLabel,
            label,
            self.key_names[k].clone(),
            FontSize::Normal,
            Anchor::Start,
        ));
    }

    /// The key in rows under the graph, top band first, left to right.
    pub(super) fn key_below(&self, page: &mut Page) {
        let em = self.em;
        let (rows, _) = below_rows(&self.key_names, self.title_width, em);
        let n = self.sel.bands.len();
        let top_row = self.under_axis() - BELOW_ROW * em;
        let b = BELOW_BOX * em;
        for (slot, &(row, x)) in rows.iter().enumerate() {
            let k = n - 1 - slot;
            let band = &self.sel.bands[k];
            let y = top_row - row as f64 * BELOW_ROW * em;
            self.key_entry(
                &mut page.items,
                (k, band),
                Point::new(BORDER_SPACE + x, y),
                b,
                Point::new(BORDER_SPACE + x + b + 4.0 * em, y + 1.0 * em),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{modern, samples, scene, texts};
    use super::*;

    #[test]
    fn the_key_names_every_band_and_tells_look_alikes_apart() {
        let body = samples(
            &[0.0, 1.0],
            &[
                ("caf\u{e9}", &[1.0, 2.0]),
                ("cafe\u{301}", &[2.0, 3.0]),
                ("x", &[5.0, 5.0]),
            ],
        );
        let key = texts(&scene(&body, &modern((648.0, 432.0))), TextRole::KeyLabel);
        assert_eq!(key.len(), 3, "{key:?}");
        let mut distinct = key.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), 3, "{key:?}");
        assert!(key.iter().any(|k| k.ends_with("(NFD)")), "{key:?}");
    }

    #[test]
    fn hp2ps_s_key_shows_names_whole() {
        let long = "Data.Map.Internal.insertWith.go/Main.buildIndex/Main.main/Main.CAF";
        let body = samples(&[0.0, 1.0], &[(long, &[1.0, 2.0])]);
        let key = texts(&scene(&body, &LayoutOptions::default()), TextRole::KeyLabel);
        assert_eq!(key, [long]);
    }
}
