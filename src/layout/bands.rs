//! The stacked bands: each band's outline over the stack below it, and its fill.

use super::*;

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
        let xs: Rc<[f64]> = times
            .iter()
            .map(|&t| ((t - self.sel.first) / self.sel.x_range) * self.graph_width + self.x0)
            .collect();
        let scale = self.graph_height / self.sel.y_range;
        let mut y = vec![0.0f64; n];
        let mut lower: Rc<[f64]> = vec![self.y0; n].into();
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
            items.push(Item::Band(Band {
                name: band.name.to_vec(),
                xs: xs.clone(),
                lower,
                upper: upper.clone(),
                fill: self.fill(k, band),
                line_width: if modern { SEPARATOR_WIDTH } else { LINE_WIDTH },
                stroke: if modern {
                    Paint::Gray(1.0)
                } else {
                    Paint::BLACK
                },
            }));
            lower = upper;
        }
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

#[cfg(test)]
mod tests {
    use super::super::testing::{samples, scene};
    use super::*;

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
}
