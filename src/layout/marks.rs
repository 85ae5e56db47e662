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

/// A capability's strip at its fullest (a column it spent wholly running or collecting).
const CAPABILITY_STRIP: f64 = 4.0;

/// The row each capability's strip takes, above the collections' strip.
pub(super) const CAPABILITY_ROW: f64 = CAPABILITY_STRIP + STRIP_GAP;

use crate::profile::activity::MAX_CAPABILITY_STRIPS;

/// The rows the strips take under the graph: the collections' (when the run has any)
/// and a capability's each (when its scheduler's events are read), for a picture that
/// draws the runtime's account (`heap_lines`, or one without a band).
pub(super) fn strip_rows(profile: &Profile, runtime_drawn: bool) -> (f64, usize) {
    if !runtime_drawn {
        return (0.0, 0);
    }
    let gcs = if profile.runtime.gcs.is_empty() {
        0.0
    } else {
        STRIP_ROW
    };
    let caps = (profile.runtime.activity.capabilities.len()).min(MAX_CAPABILITY_STRIPS);
    (gcs + caps as f64 * CAPABILITY_ROW, caps)
}

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
        self.capabilities(items);
        if self.strip_row <= 0.0 || self.profile.runtime.gcs.is_empty() {
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

    /// Each capability's strip, capability 0 the highest, over the collections' strip:
    /// per column of the graph's width its share of the time running Haskell code
    /// ([`crate::profile::activity::Activity::shares`]), its share collecting above
    /// that, idle left blank.
    fn capabilities(&self, items: &mut Vec<Item>) {
        let activity = &self.profile.runtime.activity;
        let first = self.sel.first;
        let columns = ((self.graph_width / STRIP_COLUMN).floor() as usize).max(1);
        let width = self.graph_width / columns as f64;
        let gcs = if self.profile.runtime.gcs.is_empty() {
            0.0
        } else {
            STRIP_ROW
        };
        for k in 0..self.capability_strips {
            let shares = activity.shares(k, first, first + self.sel.x_range, columns);
            let row = (self.capability_strips - 1 - k) as f64;
            let base = self.axis_y() + gcs + row * CAPABILITY_ROW + STRIP_GAP;
            let label = format!("capability {}", activity.capabilities[k].capability);
            let paints = [crate::scene::RUNNING_PAINT, crate::scene::MINOR_GC_PAINT];
            for (part, paint) in paints.into_iter().enumerate() {
                let mut j = 0;
                while j < shares.len() {
                    let (lo, h) = match part {
                        0 => (0.0, shares[j].0),
                        _ => (shares[j].0, shares[j].1),
                    };
                    let mut end = j + 1;
                    let same = |s: (f64, f64)| match part {
                        0 => (s.0 - h).abs() * CAPABILITY_STRIP < SAME_HEIGHT,
                        _ => ((s.0 - lo).abs() + (s.1 - h).abs()) * CAPABILITY_STRIP < SAME_HEIGHT,
                    };
                    while end < shares.len() && same(shares[end]) {
                        end += 1;
                    }
                    if h > 0.0 {
                        let x0 = self.x0 + j as f64 * width;
                        let w = (end - j) as f64 * width;
                        let (y, h) = (
                            base + lo.min(1.0) * CAPABILITY_STRIP,
                            h.min(1.0 - lo.min(1.0)) * CAPABILITY_STRIP,
                        );
                        let mut p = path(
                            PathRole::Capability,
                            Point::new(x0, y),
                            &[(w, 0.0), (0.0, h), (-w, 0.0)],
                            true,
                        );
                        p.fill = Some(paint);
                        p.line_width = 0.0;
                        p.label = Some(label.clone().into_bytes());
                        items.push(Item::Path(p));
                    }
                    j = end;
                }
            }
        }
        // Which capabilities, left of the strips, where they are as tall as two labels
        // (four or more): a shorter block's label would run into the axis's above it.
        let tall = self.capability_strips as f64 * CAPABILITY_ROW >= 20.0 * self.em;
        if let Some(last) = (activity
            .capabilities
            .get(self.capability_strips.wrapping_sub(1)))
        .filter(|_| tall)
        {
            let first = activity.capabilities[0].capability;
            let label = match self.capability_strips {
                1 => format!("cap {first}"),
                _ => format!("cap {first}-{}", last.capability),
            };
            let middle = self.axis_y() + gcs + self.capability_strips as f64 * CAPABILITY_ROW / 2.0;
            items.push(text(
                TextRole::TickLabel,
                Point::new(self.x0 - BORDER_SPACE, middle - 3.5 * self.em),
                label.into_bytes(),
                FontSize::Normal,
                Anchor::End,
            ));
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
