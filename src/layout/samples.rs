//! The run's cost-centre samples in a panel of their own under the heap graph
//! ([`crate::select::samples`]): a bar a stretch of the graph's time, as tall as the
//! samples taken in it, stacked by the cost centres that ran most (each in its colour,
//! named in the panel's head) and the rest grey. It shares the graph's time axis, so
//! that what ran is read under what the heap held then.

use super::*;
use crate::select::samples::SamplesPanel;

/// The share of the graphs' height the samples' panel takes…
const SHARE: f64 = 0.2;

/// …at least this much at 10 pt text…
const LEAST: f64 = 24.0;

/// …and never more than this share.
const MOST: f64 = 0.3;

/// A row of the panel's head (its name, then its key) at 10 pt text.
const HEAD_ROW: f64 = 12.0;

/// The heap graph keeps at least this share of the graphs' height: a figure too small for
/// both has no panel (its time axis still spans the samples).
const GRAPH_KEEPS: f64 = 0.5;

/// The most rows its head takes: where the key would need more, it names fewer cost
/// centres (the others' samples join the rest's grey).
const HEAD_ROWS: usize = 3;

/// A key swatch's side at 10 pt text.
const SWATCH: f64 = 7.0;

/// The grey of the samples of every cost centre the panel does not name.
const REST: Paint = paint::OTHER;

/// What the samples' panel draws, measured with the frame.
pub(super) struct Panel<'a> {
    /// The samples, from the selection.
    samples: &'a SamplesPanel,
    /// The plot's height in points.
    pub(super) height: f64,
    /// Each named cost centre's paint.
    paints: Vec<Paint>,
    /// The bars' top: the most samples a stretch holds.
    top: f64,
    /// The key's entries placed: each named centre's (and the rest's) row and left end.
    key: Vec<(usize, f64)>,
    /// How many of the named cost centres the key names and the bars colour.
    shown: usize,
    /// The rows over the plot: the name's and the key's.
    rows: usize,
}

impl<'a> Panel<'a> {
    /// The panel of `sel`'s samples under a graph `width` wide, left edge `x0`, from the
    /// graphs' height `room`; `None` where the selection has none. Its paints stay apart
    /// from the bands' (`bands`).
    pub(super) fn new(
        sel: &'a Selection,
        opts: &LayoutOptions,
        (x0, width): (f64, f64),
        room: f64,
        bands: &[Paint],
    ) -> Option<Panel<'a>> {
        let samples = sel.samples.as_ref()?;
        let em = opts.font_size / 10.0;
        let height = (room * SHARE).max(LEAST * em).min(room * MOST);
        let palette = opts.palette.extended(sel.shading);
        let mut taken = vec![false; palette.len()];
        for p in bands {
            if let Some(k) = palette.iter().position(|q| q == p) {
                taken[k] = true;
            }
        }
        let names = samples.named.iter().map(|n| &n.0[..]);
        let paints = paint::distinct_paints(names, &palette, &mut taken, opts.stable_colours);
        let top = samples.totals.iter().copied().fold(0.0, f64::max);
        let title_end = x0 + opts.style.text_width(&title(samples, opts, width)) * em + 12.0 * em;
        let key = |shown: usize| key(samples, shown, opts, (title_end, x0, width));
        let shown = (0..=samples.named.len())
            .rev()
            .find(|&k| key(k).last().is_some_and(|e| e.0 < HEAD_ROWS))?;
        let key = key(shown);
        let rows = key.last().map_or(0, |k| k.0) + 1;
        if height + (rows as f64 * HEAD_ROW + 8.0) * em > room * (1.0 - GRAPH_KEEPS) {
            return None;
        }
        Some(Panel {
            samples,
            height,
            paints,
            top: if top > 0.0 { top } else { 1.0 },
            key,
            shown,
            rows,
        })
    }

    /// The room the panel takes under the heap graph: its plot and its head's rows.
    pub(super) fn row(&self, em: f64) -> f64 {
        self.height + (self.rows as f64 * HEAD_ROW + 8.0) * em
    }
}

/// What the key calls the samples of the cost centres it does not name.
const REST_NAME: &[u8] = b"the rest";

/// Where the key's entries go when it names the first `shown` cost centres and the
/// rest: left to right after the panel's name (which ends at `title_end`), a row down
/// from `x0` when one is full (`width` wide): each entry's row and left end.
fn key(
    samples: &SamplesPanel,
    shown: usize,
    opts: &LayoutOptions,
    (title_end, x0, width): (f64, f64, f64),
) -> Vec<(usize, f64)> {
    let em = opts.font_size / 10.0;
    let entry = |name: &[u8]| (opts.style.text_width(name) + 2.0 * SWATCH) * em;
    let (mut row, mut left) = (0, title_end);
    let names = samples.named.iter().take(shown).map(|n| &n.0[..]);
    let mut places = Vec::new();
    for name in names.chain([REST_NAME]) {
        if left + entry(name) > x0 + width && left > x0 {
            (row, left) = (row + 1, x0);
        }
        places.push((row, left));
        left += entry(name) + 6.0 * em;
    }
    places
}

/// The panel's name, which says what it shows and its scale (the bars' top is the most
/// samples a stretch holds): the longest of its forms that fits `room` points at `opts`'s
/// text size, else the shortest.
fn title(samples: &SamplesPanel, opts: &LayoutOptions, room: f64) -> Vec<u8> {
    let most = samples.totals.iter().copied().fold(0.0, f64::max);
    let all = samples.samples.round();
    let forms = [
        format!("the run's samples ({all} in all, at most {most} a stretch)"),
        format!("the run's samples (at most {most} a stretch)"),
        format!("samples (at most {most} a stretch)"),
        format!("samples (max {most})"),
    ];
    let fits = |t: &String| opts.style.text_width(t.as_bytes()) * opts.font_size / 10.0 <= room;
    let last = forms[forms.len() - 1].clone();
    forms.into_iter().find(fits).unwrap_or(last).into_bytes()
}

impl Frame<'_> {
    /// The panel as a page redraws it ([`crate::scene::SamplesRow`]).
    pub(super) fn samples_row(&self) -> Option<crate::scene::SamplesRow> {
        let panel = self.samples.as_ref()?;
        let s = panel.samples;
        let named = (s.named.iter().zip(&panel.paints).take(panel.shown))
            .map(|(n, &fill)| (n.0.to_vec(), fill, n.1.clone()));
        let rest = (s.totals.iter().enumerate())
            .map(|(b, t)| {
                t - s
                    .named
                    .iter()
                    .take(panel.shown)
                    .map(|n| n.1[b])
                    .sum::<f64>()
            })
            .collect();
        let bars = named.chain([(REST_NAME.to_vec(), REST, rest)]);
        Some(crate::scene::SamplesRow {
            height: panel.height,
            gap: panel.row(self.em) - panel.height,
            top: panel.top,
            edges: s.edges.clone(),
            bars: bars
                .map(|(name, fill, counts)| crate::scene::SamplesBar { name, fill, counts })
                .collect(),
        })
    }

    /// The samples' panel's bottom: over the rate panel and the collections' strip.
    fn samples_bottom(&self) -> f64 {
        self.axis_y() + self.strip_row + self.rate.as_ref().map_or(0.0, |r| r.row(self.em))
    }

    /// Draws the samples' panel: its axis and top label, a bar a stretch stacked by the
    /// named cost centres (most samples at the bottom) and the rest, and over it its
    /// name and key.
    pub(super) fn samples(&self, items: &mut Vec<Item>) {
        let Some(panel) = &self.samples else {
            return;
        };
        let (em, bottom, h, s) = (self.em, self.samples_bottom(), panel.height, panel.samples);
        items.push(Item::Path(path(
            PathRole::Axis,
            Point::new(self.x0, bottom),
            &[(0.0, h)],
            false,
        )));
        // The bars as the page redraws them: the named cost centres', then the rest's.
        let row = self.samples_row().expect("a panel has its row");
        let x = |t: f64| ((t - self.sel.first) / self.sel.x_range) * self.graph_width + self.x0;
        let y = |n: f64| n / row.top * h;
        for (k, e) in row.edges.windows(2).enumerate() {
            let (left, right) = (x(e[0]), x(e[1]));
            let seconds = crate::units::seconds;
            let when = format!("from {} to {}", seconds(e[0]), seconds(e[1]));
            let mut at = bottom;
            for b in row.bars.iter().filter(|b| b.counts[k] >= 0.5) {
                let (n, name) = (b.counts[k], String::from_utf8_lossy(&b.name));
                let label = format!("{name}: {n} samples {when}");
                items.push(Item::Path(bar(left, at, right - left, y(n), b.fill, label)));
                at += y(n);
            }
        }
        let head = bottom + h + 4.0 * em;
        let top_row = head + (panel.rows - 1) as f64 * HEAD_ROW * em;
        // Its name heads its key (which a page keeps as the picture has it).
        items.push(text(
            TextRole::KeyLabel,
            Point::new(self.x0, top_row),
            title(s, self.opts, self.graph_width),
            FontSize::Normal,
            Anchor::Start,
        ));
        for (b, &(line, left)) in row.bars.iter().zip(&panel.key) {
            let base = top_row - line as f64 * HEAD_ROW * em;
            let swatch = bar(left, base, SWATCH * em, SWATCH * em, b.fill, String::new());
            items.push(Item::Path(Path {
                role: PathRole::KeySwatch,
                label: None,
                ..swatch
            }));
            items.push(text(
                TextRole::KeyLabel,
                Point::new(left + 1.5 * SWATCH * em, base),
                b.name.clone(),
                FontSize::Normal,
                Anchor::Start,
            ));
        }
    }
}

/// A bar of samples: `n` of one cost centre in one stretch, its title saying so.
fn bar(x: f64, y: f64, w: f64, h: f64, fill: Paint, label: String) -> Path {
    Path {
        role: PathRole::SampleBar,
        start: Point::new(x, y),
        steps: vec![Point::new(w, 0.0), Point::new(0.0, h), Point::new(-w, 0.0)],
        closed: true,
        fill: Some(fill),
        stroke: fill,
        line_width: 0.0,
        label: (!label.is_empty()).then(|| label.into_bytes()),
    }
}
