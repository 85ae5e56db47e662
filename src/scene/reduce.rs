//! Output-resolution drawing, for the formats that need not keep hp2ps's every point
//! (SVG, PDF, PNG, …).
//!
//! A band of a long profile has far more points than a figure has device pixels: 100,000
//! samples across 600 points of width. [`reduce_curve`] keeps, in each column `column` points
//! wide, a curve's lowest and highest point, in their order along the curve (and the
//! curve's own first and last points), so that no peak or dip is lost at that resolution
//! and the size of the output follows the figure's, not the sample count.
//!
//! Layout reduces each stacked band as it stacks it (`LayoutOptions::column`), one
//! band's numbers at a time, where there are more points than columns: the band becomes
//! an [`crate::scene::Area`], the region between the baseline and its top curve, drawn
//! top band first, so that each band paints over the part of the ones above it that it
//! covers. What shows is the same picture as the bands drawn between
//! their two curves, and each curve is written once rather than twice (as the top of one
//! band and the bottom of the next).

use crate::scene::Point;

/// Device pixels of a figure at 300 dpi are 0.24 pt wide; a column of a quarter point
/// keeps every pixel column's extremes at that resolution and below.
pub const COLUMN: f64 = 0.25;

/// A page's script redraws its bands from the page's data as soon as it runs, at the
/// screen's resolution; the picture the file carries is what a reader without the
/// script sees, and a point's columns keep it a fraction of the page's size.
pub const PAGE_COLUMN: f64 = 1.0;

/// The points of the curve `(xs[i], ys[i])` (x not decreasing) that keep, in every
/// column `column` wide, its lowest and highest point, in curve order, and the curve's
/// first and last points. Within a column narrower than a device pixel, the segment
/// between the two is what the pixels show of the curve there.
pub fn reduce_curve(xs: &[f64], ys: &[f64], column: f64) -> Vec<Point> {
    let n = xs.len().min(ys.len());
    let mut out = Vec::new();
    if n == 0 {
        return out;
    }
    let x0 = xs[0];
    let col = |x: f64| ((x - x0) / column).floor();
    let mut start = 0;
    while start < n {
        let c = col(xs[start]);
        let mut end = start + 1;
        while end < n && col(xs[end]) == c {
            end += 1;
        }
        let (low, high) = crate::profile::extremes(ys, start..end);
        let mut keep = [
            low,
            high,
            if start == 0 { 0 } else { low },
            if end == n { n - 1 } else { high },
        ];
        keep.sort_unstable();
        let mut last = usize::MAX;
        for i in keep {
            if i != last {
                out.push(Point::new(xs[i], ys[i]));
                last = i;
            }
        }
        start = end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_column_keeps_its_extremes_in_order() {
        let xs: Vec<f64> = (0..10).map(|i| i as f64 * 0.1).collect();
        let ys = [5.0, 9.0, 1.0, 4.0, 3.0, 7.0, 2.0, 8.0, 6.0, 5.0];
        let got: Vec<(f64, f64)> = reduce_curve(&xs, &ys, 0.5)
            .iter()
            .map(|p| ((p.x * 10.0).round(), p.y))
            .collect();
        // Columns [0, 0.5) and [0.5, 1): extremes, each once, in curve order, and the
        // curve's two ends.
        assert_eq!(
            got,
            vec![
                (0.0, 5.0),
                (1.0, 9.0),
                (2.0, 1.0),
                (6.0, 2.0),
                (7.0, 8.0),
                (9.0, 5.0)
            ]
        );
    }

    #[test]
    fn a_curve_sparser_than_the_columns_is_kept_whole() {
        let xs = [0.0, 1.0, 2.0, 3.0];
        let ys = [1.0, 2.0, 0.5, 4.0];
        assert_eq!(reduce_curve(&xs, &ys, 0.25).len(), 4);
    }

    #[test]
    fn peaks_survive_any_column_width() {
        let xs: Vec<f64> = (0..100_000).map(|i| i as f64 * 0.006).collect();
        let ys: Vec<f64> = (0..100_000)
            .map(|i| if i == 31_337 { 1e6 } else { (i % 17) as f64 })
            .collect();
        for w in [0.25, 1.0, 10.0] {
            let r = reduce_curve(&xs, &ys, w);
            assert!(r.len() < 4 * (600.0 / w) as usize + 8);
            assert!(r.iter().any(|p| p.y == 1e6), "lost the peak at {w}");
            assert_eq!(r.first().unwrap().x, 0.0);
            assert_eq!(r.last().unwrap().x, xs[99_999]);
        }
    }
}
