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

/// A runtime line through `points`, and its end; `None`, and nothing drawn, for fewer
/// than two points: a reading alone is no line, and its name would label nothing (the
/// page leaves such lines out too).
pub(super) fn line(
    items: &mut Vec<Item>,
    points: &[Point],
    width: f64,
    label: &[u8],
    stroke: Paint,
) -> Option<Point> {
    if points.len() < crate::profile::LINE_READINGS {
        return None;
    }
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
    /// own ([`Frame::rate`]). Each line is named where its name is clear of every line,
    /// envelope and name ([`labels::place`]); the lines named nowhere in the graph are
    /// returned, for the lines' key.
    pub(super) fn heap_lines(&self, items: &mut Vec<Item>) -> Vec<crate::scene::RuntimeLine> {
        let (first, last) = self.profile.span();
        let heap = &self.profile.heap;
        let to_x = |t: f64| ((t - self.sel.first) / self.sel.x_range) * self.graph_width + self.x0;
        let mut ink = labels::Ink::default();
        let mut drawn = Vec::new();
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
                    ink.envelope(&outline, ENVELOPE_COLUMN);
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
            if line(items, &shown, width, label, paint).is_some() {
                ink.line(&shown, width);
                drawn.push((which, shown));
            }
        }
        // The stretch before the first census is named clear of the lines, and they
        // clear of its name.
        self.unobserved_label(items, &mut ink);
        self.line_names(items, &mut ink, drawn)
    }

    /// Each drawn line's name where [`labels::place`] finds room in the graph; the
    /// lines it finds none for.
    fn line_names(
        &self,
        items: &mut Vec<Item>,
        ink: &mut labels::Ink,
        drawn: Vec<(crate::scene::RuntimeLine, Vec<Point>)>,
    ) -> Vec<crate::scene::RuntimeLine> {
        let bounds = [
            self.x0,
            self.y0,
            self.x0 + self.graph_width,
            self.y0 + self.graph_height,
        ];
        let mut unnamed = Vec::new();
        for (which, shown) in drawn {
            let style = crate::scene::LINE_STYLES[which as usize];
            let size = self.name_size(style.name.as_bytes());
            match labels::place(ink, &shown, style.width, size, bounds) {
                Some(at) => {
                    ink.add(size.at(at));
                    items.push(text(
                        TextRole::HeapLineLabel,
                        at,
                        style.name.as_bytes().to_vec(),
                        FontSize::Normal,
                        Anchor::End,
                    ));
                }
                None => unnamed.push(which),
            }
        }
        unnamed
    }

    /// The size of `name` at the text's size, as the style measures it.
    pub(super) fn name_size(&self, name: &[u8]) -> labels::Size {
        let size = self.opts.font_size;
        labels::Size {
            width: self.opts.style.text_width(name) * self.em,
            ascent: 0.72 * size,
            descent: 0.21 * size,
        }
    }
}
