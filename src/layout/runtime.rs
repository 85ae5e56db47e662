//! The runtime's heap lines (`--heap-lines`): heap size, live bytes and blocks in use,
//! with an envelope where a line is denser than the figure.

use super::*;

/// A runtime line is drawn as an envelope when it has more readings than columns of
/// this many points.
pub(super) const ENVELOPE_COLUMN: f64 = 1.0;

/// The envelope of a line (points by x) in columns `column` wide across `width` from
/// `x0`: its outline (each column's highest point left to right, then the lowest right
/// to left) and the line through each column's last point; `None` when the line has no
/// more points than columns, and is drawn as it is.
pub(super) fn envelope(
    points: &[Point],
    x0: f64,
    width: f64,
    column: f64,
) -> Option<(Vec<Point>, Vec<Point>)> {
    let columns = (width / column).ceil().max(1.0) as usize;
    if points.len() <= columns {
        return None;
    }
    // (x, lowest, highest, last) of each column that has points.
    let mut cols: Vec<(f64, f64, f64, Point)> = Vec::new();
    let mut at = usize::MAX;
    for &p in points {
        let k = (((p.x - x0) / column).floor().max(0.0) as usize).min(columns - 1);
        match cols.last_mut() {
            Some(c) if k == at => {
                c.1 = c.1.min(p.y);
                c.2 = c.2.max(p.y);
                c.3 = p;
            }
            _ => {
                at = k;
                cols.push((x0 + (k as f64 + 0.5) * column, p.y, p.y, p));
            }
        }
    }
    let mut outline: Vec<Point> = cols.iter().map(|c| Point::new(c.0, c.2)).collect();
    outline.extend(cols.iter().rev().map(|c| Point::new(c.0, c.1)));
    let last = cols.iter().map(|c| c.3).collect();
    Some((outline, last))
}

pub(super) fn line(
    items: &mut Vec<Item>,
    points: &[Point],
    width: f64,
    label: &[u8],
    stroke: Paint,
) -> Option<Point> {
    let (start, steps) = relative(points)?;
    let end = *points.last()?;
    items.push(Item::Path(Path {
        role: PathRole::HeapLine,
        start,
        steps,
        closed: false,
        fill: None,
        stroke,
        line_width: width,
        label: Some(label.to_vec()),
    }));
    Some(end)
}

impl Frame<'_> {
    /// Heap size (a thick line), blocks in use and live bytes (thin ones) over the
    /// sampled time, on the bands' scale: how much of the heap the census accounts for,
    /// and how much the runtime holds beyond it. The allocation rate has a panel of its
    /// own ([`Frame::rate`]).
    pub(super) fn heap_lines(&self, items: &mut Vec<Item>) {
        let times = &self.profile.times;
        let (first, last) = (times[0], times[times.len() - 1]);
        let heap = &self.profile.heap;
        let to_x = |t: f64| ((t - first) / self.sel.x_range) * self.graph_width + self.x0;
        let mut ends: Vec<(f64, f64, &[u8])> = Vec::new();
        use crate::scene::{LINE_STYLES, RuntimeLine};
        for (points, which) in [
            (&heap.size, RuntimeLine::HeapSize),
            (&heap.blocks, RuntimeLine::Blocks),
            (&heap.live, RuntimeLine::Live),
        ] {
            let style = LINE_STYLES[which as usize];
            let (width, label, paint) = (style.width, style.name.as_bytes(), style.paint);
            let shown: Vec<Point> = points
                .iter()
                .filter(|(t, _)| (first..=last).contains(t))
                .map(|&(t, v)| {
                    Point::new(to_x(t), v / self.sel.y_range * self.graph_height + self.y0)
                })
                .collect();
            // A line that moves faster than the figure can show (more readings than
            // points across) is drawn as its envelope, lightly, and the line through
            // each column's last reading on top.
            let shown = match envelope(&shown, self.x0, self.graph_width, ENVELOPE_COLUMN) {
                Some((outline, last)) => {
                    let (start, steps) = relative(&outline).expect("an envelope has points");
                    items.push(Item::Path(Path {
                        role: PathRole::HeapLine,
                        start,
                        steps,
                        closed: true,
                        fill: Some(crate::scene::tint(paint)),
                        stroke: crate::scene::tint(paint),
                        line_width: 0.1,
                        label: Some(
                            [
                                label,
                                &b": lowest and highest in each stretch of the figure"[..],
                            ]
                            .concat(),
                        ),
                    }));
                    last
                }
                None => shown,
            };
            let Some(end) = line(items, &shown, width, label, paint) else {
                continue;
            };
            // Above the end and the graph's bottom edge; under the end where a label
            // above it would rise out of the graph into the title.
            let top = self.y0 + self.graph_height - 8.0 * self.em;
            let y = (end.y + 2.0).max(self.y0 + 2.0);
            let y = if y > top { end.y - 10.0 * self.em } else { y };
            ends.push((end.x, y, label));
        }
        self.end_labels(items, ends);
    }

    /// The labels at the lines' ends, each a line of text above the one below it, so
    /// that two lines ending together do not print one label over the other.
    fn end_labels(&self, items: &mut Vec<Item>, mut ends: Vec<(f64, f64, &[u8])>) {
        ends.sort_by(|a, b| a.1.total_cmp(&b.1));
        let row = 10.0 * self.opts.font_size / 10.0;
        let mut floor = f64::MIN;
        for (x, y, label) in ends {
            let y = y.max(floor);
            floor = y + row;
            items.push(text(
                TextRole::HeapLineLabel,
                Point::new(x, y),
                label.to_vec(),
                FontSize::Normal,
                Anchor::End,
            ));
        }
    }
}
