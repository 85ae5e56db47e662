//! Marks under the graph: the program's marks and markers, and the garbage-collection
//! strip in its own row.

use super::*;

/// The height of the collections' strip at its fullest (a column spent wholly in GC).
pub(super) const STRIP: f64 = 6.0;

/// The space between the strip and the graph above it, and the axis below it.
const STRIP_GAP: f64 = 1.0;

/// The row the strip takes under the graph, above the time axis.
pub(super) const STRIP_ROW: f64 = STRIP + 2.0 * STRIP_GAP;

/// The strip's columns are this wide (points): the share of each one's time in GC.
const STRIP_COLUMN: f64 = 1.0;

/// Columns whose heights differ by less than this share one mark.
const SAME_HEIGHT: f64 = 0.05;

impl Frame<'_> {
    /// The time axis's height: under the graph, and under the rate panel and the
    /// collections' strip when there are.
    pub(super) fn axis_y(&self) -> f64 {
        self.y0
            - self.strip_row
            - self.rate.as_ref().map_or(0.0, |r| r.row(self.em))
            - self.samples.as_ref().map_or(0.0, |s| s.row(self.em))
    }

    /// The runtime's collections in a row of their own under the graph: each column of
    /// the graph's width a bar as tall as the share of its time spent collecting
    /// ([`crate::profile::Runtime::gc_shares`]; [`STRIP`] for all of it), darker where a
    /// major collection falls in it. More time in GC is never a shorter bar, and a column
    /// with one short pause never looks like one spent collecting.
    pub(super) fn collections(&self, items: &mut Vec<Item>) {
        if self.strip_row <= 0.0 {
            return;
        }
        let first = self.sel.first;
        let columns = ((self.graph_width / STRIP_COLUMN).floor() as usize).max(1);
        let shares = (self.profile.runtime).gc_shares(first, first + self.sel.x_range, columns);
        let width = self.graph_width / columns as f64;
        let base = self.axis_y() + STRIP_GAP;
        let mut k = 0;
        while k < shares.len() {
            let (share, major) = shares[k];
            let mut end = k + 1;
            while end < shares.len()
                && shares[end].1 == major
                && (shares[end].0 - share).abs() * STRIP < SAME_HEIGHT
            {
                end += 1;
            }
            let h = shares[k..end].iter().map(|s| s.0).fold(0.0, f64::max) * STRIP;
            if h > 0.0 {
                let x0 = self.x0 + k as f64 * width;
                let w = (end - k) as f64 * width;
                let mut p = path(
                    PathRole::Collection,
                    Point::new(x0, base),
                    &[(w, 0.0), (0.0, h), (-w, 0.0)],
                    true,
                );
                p.fill = Some(if major {
                    crate::scene::MAJOR_GC_PAINT
                } else {
                    crate::scene::MINOR_GC_PAINT
                });
                p.line_width = 0.0;
                items.push(Item::Path(p));
            }
            k = end;
        }
    }

    pub(super) fn marks(&self, items: &mut Vec<Item>) {
        for mark in &self.profile.marks {
            let m = ((mark.time - self.sel.first) / self.sel.x_range) * self.graph_width;
            let mut caret = path(
                PathRole::Mark,
                Point::new(m + self.x0 - CARET, self.axis_y()),
                &[(CARET, -CARET), (CARET, CARET)],
                true,
            );
            caret.fill = Some(Paint::Gray(1.0));
            caret.label = mark.text.as_ref().map(|t| t.to_vec());
            items.push(Item::Path(caret));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{samples, scene};
    use super::*;

    #[test]
    fn each_mark_is_a_caret_under_the_graph() {
        let mut body = samples(&[0.0, 1.0, 2.0], &[("a", &[1.0, 2.0, 3.0])]);
        body += "MARK 0.5\nMARK 1.5\n";
        let s = scene(&body, &LayoutOptions::default());
        let carets = (s.pages[0].items.iter())
            .filter(|i| matches!(i, Item::Path(p) if p.role == PathRole::Mark))
            .count();
        assert_eq!(carets, 2);
    }
}
