//! Marks under the graph: the program's marks and markers, and the garbage-collection
//! strip.

use super::*;

/// The height of the collections' strip (a major collection's mark).
pub(super) const STRIP: f64 = 6.0;

impl Frame<'_> {
    /// The runtime's collections along the bottom of the graph, on a white strip: each
    /// as wide as its pause (at least a hairline), a major one twice as tall and darker,
    /// so that a long pause shows where the heap changed. Collections closer than half a point share
    /// one mark (a major one among them makes it major: [`crate::profile::Runtime::strip`]),
    /// which bounds the marks by the graph's width.
    pub(super) fn collections(&self, items: &mut Vec<Item>) {
        const MINOR: f64 = STRIP / 2.0;
        const MAJOR: f64 = STRIP;
        const HAIRLINE: f64 = 0.4;
        let times = &self.profile.times;
        let (first, last) = (times[0], times[times.len() - 1]);
        let x = |t: f64| ((t - first) / self.sel.x_range) * self.graph_width + self.x0;
        let marks = (self.profile.runtime).strip(first, last, x, 0.5, HAIRLINE);
        if marks.is_empty() {
            return;
        }
        // A white ground under the marks, so that they show on a dark band.
        let mut ground = path(
            PathRole::Collection,
            Point::new(self.x0, self.y0),
            &[
                (self.graph_width, 0.0),
                (0.0, MAJOR + 1.0),
                (-self.graph_width, 0.0),
            ],
            true,
        );
        ground.fill = Some(Paint::Gray(1.0));
        ground.line_width = 0.0;
        items.push(Item::Path(ground));
        for (x0, x1, major) in marks {
            let h = if major { MAJOR } else { MINOR };
            let mut p = path(
                PathRole::Collection,
                Point::new(x0, self.y0),
                &[(x1 - x0, 0.0), (0.0, h), (x0 - x1, 0.0)],
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
    }

    pub(super) fn marks(&self, items: &mut Vec<Item>) {
        let times = &self.profile.times;
        for mark in &self.profile.marks {
            let m = ((mark.time - times[0]) / self.sel.x_range) * self.graph_width;
            let mut caret = path(
                PathRole::Mark,
                Point::new(m + self.x0 - CARET, self.y0),
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
