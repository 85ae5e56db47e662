//! The stacked bands: each band's outline over the stack below it, and its fill.

use super::*;

/// The narrowest stretch before the first census that is shaded (points): less is a
/// sliver no reader sees.
const UNOBSERVED_LEAST: f64 = 0.5;

impl Frame<'_> {
    /// The stacked bands: each band's scaled values are added onto the running top.
    pub(super) fn bands(&self, items: &mut Vec<Item>, mut series: Vec<Series>) {
        let modern = self.opts.style == Style::Modern;
        // Data of identifiers that are not drawn (trace elements, merged into OTHER).
        let mut drawn = vec![false; series.len()];
        for band in &self.sel.bands {
            if let Source::Ident(id) = band.source {
                drawn[id as usize] = true;
            }
        }
        for (s, keep) in series.iter_mut().zip(drawn) {
            if !keep {
                *s = Series::default();
            }
        }
        let times = &self.profile.times;
        let n = times.len();
        let xs: Vec<f64> = times
            .iter()
            .map(|&t| ((t - self.sel.first) / self.sel.x_range) * self.graph_width + self.x0)
            .collect();
        // Drawn at a column's resolution where there are more points than columns: each
        // band's top is reduced as it is stacked, so that a long run's picture holds one
        // census's worth of numbers at a time, not one a band.
        let column = self.opts.column.filter(|&c| {
            let span = xs.last().zip(xs.first()).map_or(0.0, |(l, f)| l - f);
            n as f64 > 2.0 * ((span / c).ceil() + 1.0)
        });
        let xs: Rc<[f64]> = xs.into();
        let scale = self.graph_height / self.sel.y_range;
        let mut y = vec![0.0f64; n];
        let mut lower: Rc<[f64]> = vec![self.y0; n].into();
        let base = column.map(|c| reduce_curve(&xs, &lower, c));
        let mut areas = Vec::new();
        for (k, band) in self.sel.bands.iter().enumerate() {
            match &band.source {
                Source::Ident(id) => {
                    let data = std::mem::take(&mut series[*id as usize]);
                    for (b, v) in data.points() {
                        y[b as usize] += v * scale;
                    }
                }
                Source::Other(values) => {
                    for (b, v) in values.iter().enumerate() {
                        y[b] += v * scale;
                    }
                }
            }
            let upper: Rc<[f64]> = y.iter().map(|&v| v + self.y0).collect();
            // A modern band never as tall as its white outline (a fixed run's beside its
            // leak on one scale) is drawn without one: the outline would be all there is
            // of it, a white line over the bands below and the time axis.
            let fill = self.fill(k, band);
            let hair =
                modern && (upper.iter().zip(lower.iter())).all(|(u, l)| u - l < SEPARATOR_WIDTH);
            let band = Band {
                name: band.name.to_vec(),
                xs: xs.clone(),
                lower,
                upper: upper.clone(),
                fill,
                line_width: match (modern, hair) {
                    (true, true) => 0.0,
                    (true, false) => SEPARATOR_WIDTH,
                    (false, _) => LINE_WIDTH,
                },
                stroke: match (modern, hair) {
                    (true, true) => fill,
                    (true, false) => Paint::Gray(1.0),
                    (false, _) => Paint::BLACK,
                },
            };
            match (column, &base) {
                (Some(c), Some(base)) => areas.push(area(band, base, c)),
                _ => items.push(Item::Band(band)),
            }
            lower = upper;
        }
        // Top band first, so that each paints over the part of the ones above it that it
        // covers (see [`crate::scene::reduce`]).
        items.extend(areas.into_iter().rev().map(Item::Area));
    }

    /// The stretch from the start of the graph to the first census, where the graph
    /// starts before it (an eventlog's, at the program's start): shaded over the
    /// graph's height and named where its name fits, so that the heap no census saw
    /// reads as not observed rather than empty. Drawn under the bands and lines.
    pub(super) fn unobserved(&self, items: &mut Vec<Item>) {
        let Some(w) = self.unobserved_width() else {
            return;
        };
        let h = self.graph_height;
        let mut p = path(
            PathRole::Unobserved,
            Point::new(self.x0, self.y0),
            &[(w, 0.0), (0.0, h), (-w, 0.0)],
            true,
        );
        p.fill = Some(crate::scene::UNOBSERVED_PAINT);
        // Outlined in its own shade: no backend draws an edge to it.
        p.stroke = crate::scene::UNOBSERVED_PAINT;
        p.line_width = 0.0;
        items.push(Item::Path(p));
    }

    /// How wide the stretch before the first census is drawn, `None` where it is less
    /// than [`UNOBSERVED_LEAST`] (a profile that starts at its first census has none).
    fn unobserved_width(&self) -> Option<f64> {
        let census = *self.profile.times.first()?;
        let w =
            ((census - self.sel.first) / self.sel.x_range * self.graph_width).min(self.graph_width);
        (w >= UNOBSERVED_LEAST).then_some(w)
    }

    /// The name of the stretch before the first census ([`Frame::unobserved`]), at the
    /// top of it, else its middle, else its bottom: the first place clear of `ink` (the
    /// runtime's lines and envelopes, where they are drawn), then added to it so that the
    /// lines' names keep clear of it too. The shorter name where the longer does not
    /// fit across; none where neither fits or no place is clear.
    pub(super) fn unobserved_label(&self, items: &mut Vec<Item>, ink: &mut labels::Ink) {
        let Some(w) = self.unobserved_width() else {
            return;
        };
        // Half an em of room either side of its name.
        let room = w - 10.0 * self.em;
        let Some((name, size)) = (crate::scene::UNOBSERVED_NAMES.into_iter())
            .map(|n| (n, self.name_size(n.as_bytes())))
            .find(|(_, size)| size.width <= room)
        else {
            return;
        };
        let (x, h, font) = (
            self.x0 + 5.0 * self.em,
            self.graph_height,
            self.opts.font_size,
        );
        let baselines = [
            self.y0 + h - font * 1.2,
            self.y0 + h / 2.0,
            self.y0 + font * 0.5,
        ];
        let boxed = |y: f64| [x, y - size.descent, x + size.width, y + size.ascent];
        let Some(y) = baselines.into_iter().find(|&y| ink.clear(boxed(y))) else {
            return;
        };
        ink.add(boxed(y));
        items.push(text(
            TextRole::UnobservedLabel,
            Point::new(x, y),
            name.as_bytes().to_vec(),
            FontSize::Normal,
            Anchor::Start,
        ));
    }

    /// The paint of the `k`th band from the bottom: hp2ps's shade, unless another palette
    /// or stable colours are asked for; then `OTHER` is always the same neutral grey.
    pub(super) fn fill(&self, k: usize, band: &crate::select::Band) -> crate::scene::Paint {
        match self.paints.get(k) {
            Some(&p) => p,
            None => paint::paint(band.shade),
        }
    }
}

/// `band` as the region between the stack's reduced baseline `base` and its top
/// reduced to `column` points of resolution.
fn area(band: Band, base: &[Point], column: f64) -> Area {
    let top = reduce_curve(&band.xs, &band.upper, column);
    let mut outline = Vec::with_capacity(top.len() + base.len());
    outline.extend(base.iter().copied());
    outline.extend(top.iter().rev().copied());
    Area {
        name: band.name,
        outline,
        fill: band.fill,
        line_width: band.line_width,
        stroke: band.stroke,
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{samples, scene};
    use super::*;

    /// A band a hair tall everywhere has no white outline over the axis and the bands
    /// below; one as tall as its outline somewhere keeps it.
    #[test]
    fn a_band_thinner_than_its_outline_has_none() {
        let body = samples(
            &[0.0, 1.0, 2.0],
            &[("hair", &[1.0, 1.0, 1.0]), ("big", &[1e6, 1e6, 1e6])],
        );
        let text = format!(
            "JOB \"job\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n{body}"
        );
        let profile = crate::input::hp::parse(text.as_bytes()).unwrap().profile;
        // Every band drawn: no trace element left out.
        let select = crate::select::SelectOptions {
            threshold: 0.0,
            ..Default::default()
        };
        let sel = crate::select::select(&profile, None, &select);
        let s = layout(
            profile,
            &sel,
            &super::super::testing::modern((400.0, 300.0)),
        );
        let widths: Vec<(String, f64)> = (s.pages[0].items.iter())
            .filter_map(|i| match i {
                Item::Band(b) => {
                    Some((String::from_utf8_lossy(&b.name).into_owned(), b.line_width))
                }
                _ => None,
            })
            .collect();
        assert!(widths.contains(&("hair".to_string(), 0.0)), "{widths:?}");
        assert!(
            widths.contains(&("big".to_string(), SEPARATOR_WIDTH)),
            "{widths:?}"
        );
    }

    #[test]
    fn the_top_band_s_upper_edge_is_the_total() {
        let body = samples(
            &[0.0, 1.0, 2.0],
            &[("a", &[1.0, 2.0, 3.0]), ("b", &[4.0, 0.0, 2.0])],
        );
        let s = scene(&body, &LayoutOptions::default());
        let bands: Vec<&Band> = (s.pages[0].items.iter())
            .filter_map(|i| match i {
                Item::Band(b) => Some(b),
                _ => None,
            })
            .collect();
        assert_eq!(bands.len(), 2);
        // Stacked: each band's lower edge is the one below's upper; the top's rises and
        // falls as the totals do (5, 2, 5).
        assert_eq!(bands[1].lower, bands[0].upper);
        let top = &bands[1].upper;
        assert!(top[0] > top[1] && top[2] > top[1], "{top:?}");
        assert_eq!(top[0], top[2]);
    }

    /// A band over `n` censuses, laid out at a quarter point's resolution.
    fn at_a_column(n: usize) -> Scene {
        let times: Vec<f64> = (0..n).map(|i| i as f64).collect();
        let values: Vec<f64> = (0..n).map(|i| (i % 7) as f64).collect();
        let opts = LayoutOptions {
            column: Some(crate::scene::reduce::COLUMN),
            ..Default::default()
        };
        scene(&samples(&times, &[("a", &values)]), &opts)
    }

    #[test]
    fn a_band_of_more_censuses_than_columns_is_drawn_at_their_resolution() {
        let has = |s: &Scene, band: bool| {
            (s.pages[0].items.iter())
                .any(|i| matches!((i, band), (Item::Band(_), true) | (Item::Area(_), false)))
        };
        let few = at_a_column(100);
        assert!(has(&few, true) && !has(&few, false));
        let many = at_a_column(20_000);
        assert!(has(&many, false) && !has(&many, true));
        let area = (many.pages[0].items.iter())
            .find_map(|i| match i {
                Item::Area(a) => Some(a),
                _ => None,
            })
            .unwrap();
        // The columns' extremes: a few points a column, not a point a census.
        assert!(area.outline.len() < 20_000, "{}", area.outline.len());
    }

    /// The scene of a profile whose program started at 0, its first census at 1 s.
    fn started_before(origin: Option<f64>) -> Scene {
        let body = samples(&[1.0, 2.0, 3.0], &[("a", &[1.0, 2.0, 3.0])]);
        let text = format!(
            "JOB \"job\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n{body}"
        );
        let mut profile = crate::input::hp::parse(text.as_bytes()).unwrap().profile;
        profile.origin = origin;
        let sel = crate::select::select(&profile, None, &Default::default());
        layout(
            profile,
            &sel,
            &super::super::testing::modern((900.0, 300.0)),
        )
    }

    #[test]
    fn the_time_before_the_first_census_is_shaded_from_the_programs_start() {
        let s = started_before(Some(0.0));
        let shade: Vec<&Path> = (s.pages[0].items.iter())
            .filter_map(|i| match i {
                Item::Path(p) if p.role == PathRole::Unobserved => Some(p),
                _ => None,
            })
            .collect();
        assert_eq!(shade.len(), 1);
        let band = (s.pages[0].items.iter())
            .find_map(|i| match i {
                Item::Band(b) => Some(b),
                _ => None,
            })
            .expect("a band");
        // From the graph's left edge to the first census: a third of the 3 s axis.
        let (x0, census) = (shade[0].start.x, band.xs[0]);
        assert!((shade[0].steps[0].x - (census - x0)).abs() < 1e-9);
        assert!(((census - x0) * 3.0 - s.plot.as_ref().unwrap().width).abs() < 1e-6);
        assert_eq!(shade[0].fill, Some(crate::scene::UNOBSERVED_PAINT));
        assert_eq!(
            super::super::testing::texts(&s, TextRole::UnobservedLabel),
            [crate::scene::UNOBSERVED_NAMES[0]]
        );
        // A profile whose start is its first census (a .hp) has none.
        let hp = started_before(None);
        assert!(
            !(hp.pages[0].items.iter())
                .any(|i| matches!(i, Item::Path(p) if p.role == PathRole::Unobserved))
        );
        assert!(super::super::testing::texts(&hp, TextRole::UnobservedLabel).is_empty());
    }
}
