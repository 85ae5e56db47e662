//! The runtime's rate in a panel of its own under the heap graph (`--heap-lines`, or an
//! eventlog without a heap profile): one quantity per axis. The panel shares the graph's
//! time axis and has a y axis of its own in bytes per second, so that the allocation
//! rate is read off an axis in its unit, not against the heap's bytes.

use super::*;

/// The share of the graphs' height the rate panel takes: the heap graph keeps most of it.
const RATE_SHARE: f64 = 0.25;

/// The panel is at least this tall at 10 pt text (two labels a line and a half apart)…
const RATE_LEAST: f64 = 20.0;

/// …and never more than this share of the graphs' height.
const RATE_MOST: f64 = 0.4;

/// The row between the heap graph and the rate panel at 10 pt text, where the panel's
/// name goes: tall enough that the panel's top label and the heap axis's `0` stay apart.
pub(super) const RATE_HEAD: f64 = 13.0;

/// A line's stroke in the lines' key, at 10 pt text.
const SWATCH: f64 = 12.0;

/// Each row of the lines' key past the first, at 10 pt text.
const KEY_ROW: f64 = 11.0;

/// The most rows of the lines' key: one a line.
const KEY_ROWS: usize = 3;

/// What the rate panel draws: worked out with the frame, before the graph's height is
/// known, since the panel takes part of it.
pub(super) struct RatePanel {
    /// The allocation rate at each step: its middle's time and bytes per second.
    points: Vec<(f64, f64)>,
    /// The rate at the panel's top: the least round value at or above the peak.
    top: f64,
    /// Its y axis's ticks and labels (`2 GB/s`).
    ticks: Vec<(f64, String)>,
    /// The plot's height in points.
    pub(super) height: f64,
    /// The rows above the plot for its name and the lines' key.
    rows: usize,
}

impl RatePanel {
    /// The panel under a graph about `graph_width` wide (it sets how finely the rate is
    /// read, not where it is drawn), from the graphs' height `room` (the
    /// heap graph's and the panel's together); `None` when the runtime's lines are not
    /// drawn or the run has no allocation to show.
    pub(super) fn new(
        profile: &Profile,
        opts: &LayoutOptions,
        graph_width: f64,
        room: f64,
    ) -> Option<RatePanel> {
        if !(opts.heap_lines || profile.bands.is_empty()) {
            return None;
        }
        let em = opts.font_size / 10.0;
        profile.times.first()?;
        let (first, last) = profile.span();
        // One reading of the rate every three points of the graph's width, and no more
        // than there are collections: the counters are read at collections, so finer
        // steps would only show how the collections fall.
        let gcs = profile.runtime.gcs.len().max(1);
        let columns = ((graph_width / 3.0).max(1.0) as usize).min(gcs);
        let points = profile.runtime.allocation_rate(first, last, columns);
        // A rate too short for a line draws none (as on the page): no panel for it.
        if points.len() < crate::profile::LINE_READINGS {
            return None;
        }
        let peak = points.iter().map(|r| r.1).fold(0.0, f64::max);
        let height = (room * RATE_SHARE)
            .max(RATE_LEAST * em)
            .min(room * RATE_MOST);
        // Labels a line and a half apart.
        let scale = opts.scale(crate::units::ValueUnit::Bytes);
        let (top, ticks) = modern::rate_ticks(peak, height, 15.0 * em, scale)?;
        Some(RatePanel {
            points,
            top,
            ticks,
            height,
            rows: 1,
        })
    }

    /// The panel with `rows` rows above it (1 to [`KEY_ROWS`]).
    pub(super) fn with_rows(self, rows: usize) -> RatePanel {
        RatePanel {
            rows: rows.clamp(1, KEY_ROWS),
            ..self
        }
    }

    /// Its widest label, in points: the y axis's labels need that room left of it.
    pub(super) fn widest(&self, style: Style, em: f64) -> f64 {
        (self.ticks.iter())
            .map(|(_, l)| style.text_width(l.as_bytes()) * em)
            .fold(0.0, f64::max)
    }

    /// The room the panel takes under the heap graph: its plot and its head row.
    pub(super) fn row(&self, em: f64) -> f64 {
        self.height + (RATE_HEAD + (self.rows - 1) as f64 * KEY_ROW) * em
    }
}

impl Frame<'_> {
    /// The rate panel's bottom: above the collections' strip, on the time axis without.
    pub(super) fn rate_bottom(&self) -> f64 {
        self.axis_y() + self.strip_row
    }

    /// Draws the rate panel: its ticks and labels on the y axis, the allocation rate in
    /// its colour, and in the row above it the lines' key (the runtime's lines named
    /// nowhere in the graph, `unnamed`) at the right and the panel's name at the left.
    pub(super) fn rate(&self, items: &mut Vec<Item>, unnamed: &[crate::scene::RuntimeLine]) {
        let Some(panel) = &self.rate else {
            return;
        };
        let (bottom, h) = (self.rate_bottom(), panel.height);
        let y = |v: f64| bottom + v / panel.top * h;
        for (v, label) in &panel.ticks {
            let label = label.clone().into_bytes();
            self.y_tick_label_at(items, y(*v), label, 3.5 * self.em);
        }
        let first = self.sel.first;
        let to_x = |t: f64| ((t - first) / self.sel.x_range) * self.graph_width + self.x0;
        let shown: Vec<Point> = (panel.points.iter())
            .map(|&(t, r)| Point::new(to_x(t), y(r)))
            .collect();
        let style = crate::scene::LINE_STYLES[crate::scene::RuntimeLine::AllocationRate as usize];
        let peak = panel.points.iter().map(|r| r.1).fold(0.0, f64::max);
        let scale = self.opts.scale(crate::units::ValueUnit::Bytes);
        let title = format!(
            "{} (peak {}/s)",
            style.name,
            crate::units::human(peak, scale)
        );
        runtime::line(items, &shown, style.width, title.as_bytes(), style.paint);
        let baseline = bottom + h + 3.5 * self.em;
        let left = self.lines_key(items, unnamed, baseline);
        // Its name with the peak where that fits before the lines' key, else the name.
        let room = left - self.x0 - 2.0 * self.em;
        let fits = |s: &str| self.name_size(s.as_bytes()).width <= room;
        let Some(name) = [title.as_str(), style.name].into_iter().find(|s| fits(s)) else {
            return;
        };
        items.push(text(
            TextRole::PanelLabel,
            Point::new(self.x0 + 2.0 * self.em, baseline),
            name.as_bytes().to_vec(),
            FontSize::Normal,
            Anchor::Start,
        ));
    }

    /// Where the lines' key puts each of `unnamed`: its row (0 the lowest, with the
    /// panel's name) and the right end of its name, from the graph's right edge
    /// leftwards, a row up when one is full; `None` past the panel's rows.
    fn lines_key_places(&self, unnamed: &[crate::scene::RuntimeLine]) -> Vec<Option<(usize, f64)>> {
        let em = self.em;
        let (edge, least) = (self.x0 + self.graph_width, self.x0 + 2.0 * em);
        let (mut row, mut right) = (0, edge);
        unnamed
            .iter()
            .map(|&which| {
                let name = crate::scene::LINE_STYLES[which as usize].name.as_bytes();
                let width = self.name_size(name).width + (3.0 + SWATCH) * em;
                if right - width < least && right < edge {
                    (row, right) = (row + 1, edge);
                }
                let place = (right - width >= least && row < KEY_ROWS).then_some((row, right));
                right -= width + 8.0 * em;
                place
            })
            .collect()
    }

    /// The rows the lines' key needs for `unnamed` (at least 1).
    pub(super) fn lines_key_rows(&self, unnamed: &[crate::scene::RuntimeLine]) -> usize {
        (self.lines_key_places(unnamed).iter().flatten())
            .map(|p| p.0 + 1)
            .fold(1, usize::max)
    }

    /// The lines' key: each line of `unnamed` as a short stroke in its style and its
    /// name ([`Frame::lines_key_places`]), on `baseline` and the rows above it, as many
    /// as the panel has. Where its lowest row's leftmost entry begins less a gap: the
    /// room left for the panel's name.
    fn lines_key(
        &self,
        items: &mut Vec<Item>,
        unnamed: &[crate::scene::RuntimeLine],
        baseline: f64,
    ) -> f64 {
        let em = self.em;
        let rows = self.rate.as_ref().map_or(1, |r| r.rows);
        let mut left = self.x0 + self.graph_width;
        for (&which, place) in unnamed.iter().zip(self.lines_key_places(unnamed)) {
            let Some((row, right)) = place.filter(|p| p.0 < rows) else {
                continue;
            };
            let style = crate::scene::LINE_STYLES[which as usize];
            let name = style.name.as_bytes();
            let start = right - self.name_size(name).width - (3.0 + SWATCH) * em;
            let y = baseline + row as f64 * KEY_ROW * em;
            // A heap line's own role: a page that redraws the lines (and names them in
            // its key) takes it away with them.
            let mut stroke = path(
                PathRole::HeapLine,
                Point::new(start, y + 3.0 * em),
                &[(SWATCH * em, 0.0)],
                false,
            );
            (stroke.stroke, stroke.line_width) = (style.paint, style.width);
            items.push(Item::Path(stroke));
            items.push(text(
                TextRole::HeapLineLabel,
                Point::new(right, y),
                name.to_vec(),
                FontSize::Normal,
                Anchor::End,
            ));
            if row == 0 {
                left = start - 4.0 * em;
            }
        }
        left
    }
}
