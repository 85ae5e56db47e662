//! Where a runtime line's name goes: clear of every line, envelope and name drawn. At
//! the line's end (above it, then under it) where that is clear; else at steps leftwards
//! along the line; else in the lines' key, the row above the rate panel.

use super::*;

/// A name keeps this far (points) from any ink, beyond a line's reach.
const CLEAR: f64 = 1.0;

/// The most places along a line tried for its name: a bound on the work whatever the
/// figure's width (a step is half the name's width, at least [`MIN_STEP`]).
pub(super) const MAX_TRIES: usize = 200;

/// The least step leftwards between two places tried, in points.
const MIN_STEP: f64 = 4.0;

/// What a line's name must keep clear of, in the graph's coordinates.
#[derive(Default)]
pub(super) struct Ink {
    /// Line segments, each with how far its ink reaches from it.
    segments: Vec<(Point, Point, f64)>,
    /// Rectangles `[left, bottom, right, top]`: envelopes' columns and names placed.
    boxes: Vec<[f64; 4]>,
}

impl Ink {
    /// A line through `points`, `width` wide, joined as a runtime line is: its ink
    /// reaches [`crate::scene::Join::reach`] from its path.
    pub(super) fn line(&mut self, points: &[Point], width: f64) {
        let half = crate::scene::PathRole::HeapLine.join().reach(width);
        self.segments
            .extend(points.windows(2).map(|w| (w[0], w[1], half)));
        if let [p] = points {
            self.segments.push((*p, *p, half));
        }
    }

    /// An envelope's outline as [`super::runtime::envelope`] draws it (each column's
    /// highest point left to right, then its lowest right to left), columns `column`
    /// wide.
    pub(super) fn envelope(&mut self, outline: &[Point], column: f64) {
        let n = outline.len();
        for k in 0..n / 2 {
            let (high, low) = (outline[k], outline[n - 1 - k]);
            let half = column / 2.0;
            self.boxes.push([
                high.x - half,
                low.y.min(high.y),
                high.x + half,
                high.y.max(low.y),
            ]);
        }
    }

    /// A box drawn: a name placed.
    pub(super) fn add(&mut self, b: [f64; 4]) {
        self.boxes.push(b);
    }

    /// Whether `b` keeps [`CLEAR`] from everything drawn.
    pub(super) fn clear(&self, b: [f64; 4]) -> bool {
        let grown = |m: f64| [b[0] - m, b[1] - m, b[2] + m, b[3] + m];
        !self.boxes.iter().any(|o| overlaps(grown(CLEAR), *o))
            && !(self.segments.iter()).any(|&(p, q, half)| crosses(p, q, grown(CLEAR + half)))
    }
}

/// Whether two boxes `[left, bottom, right, top]` share more than an edge.
fn overlaps(a: [f64; 4], b: [f64; 4]) -> bool {
    a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]
}

/// Whether the segment from `p` to `q` passes through box `b` (Liang and Barsky's clip).
fn crosses(p: Point, q: Point, b: [f64; 4]) -> bool {
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (d, lo, hi, v) in [(q.x - p.x, b[0], b[2], p.x), (q.y - p.y, b[1], b[3], p.y)] {
        if d == 0.0 {
            if v < lo || v > hi {
                return false;
            }
            continue;
        }
        let (a, c) = ((lo - v) / d, (hi - v) / d);
        t0 = t0.max(a.min(c));
        t1 = t1.min(a.max(c));
        if t0 > t1 {
            return false;
        }
    }
    true
}

/// A name's size: its width, and how far its text rises over its baseline and falls
/// under it.
#[derive(Clone, Copy)]
pub(super) struct Size {
    pub(super) width: f64,
    pub(super) ascent: f64,
    pub(super) descent: f64,
}

impl Size {
    /// The box of the name whose baseline ends at `at`.
    pub(super) fn at(self, at: Point) -> [f64; 4] {
        [
            at.x - self.width,
            at.y - self.descent,
            at.x,
            at.y + self.ascent,
        ]
    }
}

/// The lowest and highest `y` of a line (points by `x`) between `a` and `b`, where it
/// crosses them included; `None` where the line does not reach there.
fn extent(line: &[Point], a: f64, b: f64) -> Option<(f64, f64)> {
    let at = |x: f64| {
        let k = line.partition_point(|p| p.x < x);
        match (k.checked_sub(1).map(|j| line[j]), line.get(k)) {
            (Some(p), Some(q)) if q.x > p.x => Some(p.y + (q.y - p.y) * (x - p.x) / (q.x - p.x)),
            (_, Some(q)) if q.x <= x => Some(q.y),
            _ => None,
        }
    };
    let inside = line.iter().filter(|p| p.x >= a && p.x <= b).map(|p| p.y);
    let ys: Vec<f64> = inside.chain(at(a)).chain(at(b)).collect();
    let lo = ys.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = ys.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    (lo <= hi).then_some((lo, hi))
}

/// Where a line's name goes, the right end of its baseline: at the line's end (above
/// it, then under it), else at steps leftwards along the line, each time just above or
/// under the line's stretch there, inside `bounds` and clear of `ink`; `None` where no
/// place is. The line is `width` wide.
pub(super) fn place(
    ink: &Ink,
    line: &[Point],
    width: f64,
    size: Size,
    bounds: [f64; 4],
) -> Option<Point> {
    let end = *line.last()?;
    let step = (size.width / 2.0).max(MIN_STEP);
    let inside = |b: [f64; 4]| {
        b[0] >= bounds[0] && b[1] >= bounds[1] && b[2] <= bounds[2] && b[3] <= bounds[3]
    };
    let gap = crate::scene::PathRole::HeapLine.join().reach(width) + CLEAR + 0.5;
    (0..MAX_TRIES)
        .map(|k| end.x.min(bounds[2]) - k as f64 * step)
        .take_while(|right| right - size.width >= bounds[0])
        .find_map(|right| {
            let (lo, hi) = extent(line, right - size.width, right)?;
            [hi + gap + size.descent, lo - gap - size.ascent]
                .into_iter()
                .map(|y| Point::new(right, y))
                .find(|&at| inside(size.at(at)) && ink.clear(size.at(at)))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SIZE: Size = Size {
        width: 30.0,
        ascent: 7.0,
        descent: 2.0,
    };

    #[test]
    fn a_name_goes_at_the_end_where_clear_and_along_the_line_where_not() {
        let flat = [Point::new(0.0, 50.0), Point::new(100.0, 50.0)];
        let mut ink = Ink::default();
        ink.line(&flat, 1.0);
        let bounds = [0.0, 0.0, 100.0, 100.0];
        let at = place(&ink, &flat, 1.0, SIZE, bounds).unwrap();
        assert_eq!(at.x, 100.0);
        assert!(at.y - SIZE.descent > 50.5, "{at:?}");
        // A line just above and one just under the end: the name moves left.
        let mut crowded = Ink::default();
        crowded.line(&flat, 1.0);
        crowded.line(&[Point::new(60.0, 60.0), Point::new(100.0, 60.0)], 1.0);
        crowded.line(&[Point::new(60.0, 40.0), Point::new(100.0, 40.0)], 1.0);
        let at = place(&crowded, &flat, 1.0, SIZE, bounds).unwrap();
        assert!(at.x <= 60.0 && crowded.clear(SIZE.at(at)), "{at:?}");
        // No room anywhere: none.
        let mut full = Ink::default();
        full.add([0.0, 0.0, 100.0, 100.0]);
        assert!(place(&full, &flat, 1.0, SIZE, bounds).is_none());
    }

    #[test]
    fn the_places_tried_are_bounded_on_a_wide_figure() {
        // A figure a million points wide and a line under a box everywhere but its
        // start: the search gives up after MAX_TRIES places.
        let line = [Point::new(0.0, 50.0), Point::new(1e6, 50.0)];
        let mut ink = Ink::default();
        ink.add([10.0, 0.0, 1e6, 100.0]);
        let bounds = [0.0, 0.0, 1e6, 100.0];
        assert!(place(&ink, &line, 1.0, SIZE, bounds).is_none());
        let mut near = Ink::default();
        near.add([1e6 - MIN_STEP * 20.0 + SIZE.width, 0.0, 1e6, 100.0]);
        assert!(place(&near, &line, 1.0, SIZE, bounds).is_some());
    }

    #[test]
    fn a_segment_crosses_a_box_it_passes_through() {
        let b = [0.0, 0.0, 10.0, 10.0];
        assert!(crosses(Point::new(-5.0, 5.0), Point::new(15.0, 5.0), b));
        assert!(crosses(Point::new(-5.0, -5.0), Point::new(15.0, 15.0), b));
        assert!(!crosses(Point::new(-5.0, 11.0), Point::new(15.0, 11.0), b));
        assert!(!crosses(Point::new(11.0, -5.0), Point::new(30.0, 5.0), b));
    }
}
