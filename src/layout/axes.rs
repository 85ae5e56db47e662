//! The axes: their lines, ticks, tick labels and legends, in hp2ps's arithmetic or the
//! modern style's.

use super::*;

impl Frame<'_> {
    /// The room an axis legend takes at the end of its axis.
    pub(super) fn legend(&self, unit: &[u8]) -> f64 {
        self.opts.style.text_width(unit) * self.em + LEGEND_FUDGE * self.em
    }

    /// The baseline of the labels under the x axis: hp2ps's; in the modern style, for
    /// small text, lower, so that a tick (its length whatever the text's size) ends
    /// above the label's digits with a gap.
    pub(super) fn under_axis(&self) -> f64 {
        let hp2ps = GRAPH_Y0 * self.em - BORDER_SPACE;
        let drop = match self.opts.style {
            Style::Hp2ps => hp2ps,
            Style::Modern => fmax(hp2ps, TICK_LENGTH + 10.0 * self.em),
        };
        self.axis_y() - drop
    }

    pub(super) fn x_axis(&self, items: &mut Vec<Item>) {
        let gw = self.graph_width;
        items.push(Item::Path(path(
            PathRole::Axis,
            Point::new(self.x0, self.axis_y()),
            &[(gw, 0.0)],
            false,
        )));
        // The modern style writes seconds on the labels (`0.05 s`): no legend takes a
        // label's place at the axis's end.
        let seconds_in_labels = self.opts.style == Style::Modern
            && self.profile.units.time == crate::units::TimeUnit::Seconds;
        if !seconds_in_labels {
            items.push(text(
                TextRole::AxisLegend,
                Point::new(self.x0 + gw, self.under_axis()),
                self.profile.sample_unit.clone(),
                FontSize::Normal,
                Anchor::End,
            ));
        }
        let times = &self.profile.times;
        let (first, last) = (self.sel.first, times[times.len() - 1]);
        let x_range = self.sel.x_range;
        if self.opts.style == Style::Modern {
            let t = gw / x_range;
            let legend = if seconds_in_labels {
                -1.0
            } else {
                self.legend(&self.profile.sample_unit)
            };
            let placed = |(ticks, widest): (Vec<(f64, String)>, f64)| -> Vec<(f64, String)> {
                // Within the graph (clear of a legend) and, centred, within the figure.
                (ticks.into_iter())
                    .filter(|(v, _)| {
                        let x = (v - first) * t;
                        x < gw - legend && x + self.x0 + widest / 2.0 <= self.width
                    })
                    .collect()
            };
            let mut ticks = placed(self.time_labels(first, x_range, t, seconds_in_labels));
            // At least four labels wherever four fit.
            if ticks.len() < 4
                && let Some(fours) =
                    modern::time_axis_in_fours(first, first + x_range, seconds_in_labels)
            {
                let widest = self.widest(&fours);
                let fours = placed((fours, widest));
                if fours.len() >= 4 && (fours[1].0 - fours[0].0) * t >= widest + 8.0 * self.em {
                    ticks = fours;
                }
            }
            for (v, label) in ticks {
                self.x_tick(items, (v - first) * t + self.x0, label.into_bytes());
            }
            return;
        }
        let Some(inc) = ticks::round_125(x_range / TICK_TARGET) else {
            return;
        };
        let t = gw / x_range;
        let legend = self.legend(&self.profile.sample_unit);
        let mut i = first;
        while i < last {
            let x = (i - first) * t;
            if x < gw - legend {
                self.x_tick(items, x + self.x0, format!("{i:.1}").into_bytes());
            }
            let next = i + inc;
            if next <= i {
                break; // the increment is lost in the time's precision
            }
            i = next;
        }
    }

    /// The modern time axis's ticks and their widest label: as many labels as the axis
    /// holds at this text size, each with most of an em between it and the next (less
    /// reads as one run of text): from one every 20 points (at 10 pt), fewer while the
    /// labels (`0.05 s`, `1h 30m`) are wider than their steps leave room for.
    fn time_labels(
        &self,
        first: f64,
        x_range: f64,
        t: f64,
        seconds: bool,
    ) -> (Vec<(f64, String)>, f64) {
        let mut target = (self.graph_width / (20.0 * self.em)).clamp(2.0, 2.0 * TICK_TARGET);
        loop {
            let ticks = modern::time_axis(first, first + x_range, target, seconds);
            let widest = self.widest(&ticks);
            let spacing = match ticks.as_slice() {
                [a, b, ..] => (b.0 - a.0) * t,
                _ => f64::INFINITY,
            };
            if spacing >= widest + 8.0 * self.em || target <= 1.0 {
                return (ticks, widest);
            }
            target = (target * 0.75).max(1.0);
        }
    }

    /// The widest of `ticks`' labels, in points.
    fn widest(&self, ticks: &[(f64, String)]) -> f64 {
        (ticks.iter())
            .map(|(_, l)| helvetica_size(l.as_bytes()) * self.em)
            .fold(0.0, f64::max)
    }

    /// A tick under the x axis at `at` and its label.
    pub(super) fn x_tick(&self, items: &mut Vec<Item>, at: f64, label: Vec<u8>) {
        items.push(Item::Path(path(
            PathRole::Tick,
            Point::new(at, self.axis_y()),
            &[(0.0, -TICK_LENGTH)],
            false,
        )));
        items.push(text(
            TextRole::TickLabel,
            Point::new(at, self.under_axis()),
            label,
            FontSize::Normal,
            Anchor::Middle,
        ));
    }

    /// A tick left of the y axis at height `at` and its label.
    pub(super) fn y_tick(&self, items: &mut Vec<Item>, at: f64, label: Vec<u8>) {
        self.y_tick_label_at(items, at, label, 0.0);
    }

    /// A tick on the y axis at `at` and its label, its baseline `drop` points under it
    /// (hp2ps's: on it).
    pub(super) fn y_tick_label_at(
        &self,
        items: &mut Vec<Item>,
        at: f64,
        label: Vec<u8>,
        drop: f64,
    ) {
        items.push(Item::Path(path(
            PathRole::Tick,
            Point::new(self.x0, at),
            &[(-TICK_LENGTH, 0.0)],
            false,
        )));
        items.push(text(
            TextRole::TickLabel,
            Point::new(self.x0 - BORDER_SPACE, at - drop),
            label,
            FontSize::Normal,
            Anchor::End,
        ));
    }

    pub(super) fn y_axis(&self, items: &mut Vec<Item>) {
        let gh = self.graph_height;
        // From the time axis: past the collections' strip, when there is one. With a
        // rate panel, its axis and the graph's are two, apart by the panel's head row.
        let apart = self.rate.is_some() || self.samples.is_some();
        let lower = match &self.rate {
            Some(panel) => self.strip_row + panel.height,
            None if apart => self.strip_row,
            None => gh + self.strip_row,
        };
        if lower > 0.0 {
            items.push(Item::Path(path(
                PathRole::Axis,
                Point::new(self.x0, self.axis_y()),
                &[(0.0, lower)],
                false,
            )));
        }
        if apart {
            items.push(Item::Path(path(
                PathRole::Axis,
                Point::new(self.x0, self.y0),
                &[(0.0, gh)],
                false,
            )));
        }
        // The modern style's byte labels say their unit (`20 MB`): the axis needs no
        // legend, and its top is free for labels.
        let units_in_labels = self.opts.style == Style::Modern
            && (self.opts.scale(self.profile.units.value) != crate::units::Scale::Plain
                || self.shares());
        if !units_in_labels {
            items.push(Item::Text(Text {
                role: TextRole::AxisLegend,
                at: Point::new(self.x0 - BORDER_SPACE, self.y0 + gh),
                text: self.profile.value_unit.clone(),
                size: FontSize::Normal,
                anchor: Anchor::End,
                vertical: true,
                ink: Paint::BLACK,
            }));
        }
        let y_range = self.sel.y_range;
        if self.opts.style == Style::Modern {
            self.modern_y_labels(items, units_in_labels);
            return;
        }
        let Some(inc) = ticks::round_125(fmax(y_range / TICK_TARGET, 1.0)) else {
            return;
        };
        let (divisor, suffix) = if inc >= 1e6 {
            (1e6, "M")
        } else if inc >= 1e3 {
            (1e3, "k")
        } else {
            (1.0, "")
        };
        let t = gh / y_range;
        let legend = self.legend(&self.profile.value_unit);
        let mut i = 0.0;
        while i <= y_range {
            let y = i * t;
            if y < gh - legend {
                let n = if divisor == 1.0 {
                    (i + 0.5) as i64
                } else {
                    (i / divisor + 0.5) as i64
                };
                self.y_tick(
                    items,
                    y + self.y0,
                    format!("{}{suffix}", comma(n)).into_bytes(),
                );
            }
            let next = i + inc;
            if next <= i {
                break;
            }
            i = next;
        }
    }

    /// The picture is of each band's share of its census (`--view share`): its axis
    /// says per cent in each label.
    fn shares(&self) -> bool {
        self.profile.value_unit == crate::select::share::VALUE_UNIT
    }

    /// The modern style's value labels: round values, as many as the axis holds apart.
    fn modern_y_labels(&self, items: &mut Vec<Item>, units_in_labels: bool) {
        let (gh, y_range) = (self.graph_height, self.sel.y_range);
        let t = gh / y_range;
        // Labels keep clear of the legend, or (units in the labels) only of the
        // axis's top edge by half a label.
        let room = if units_in_labels {
            gh + 4.0 * self.em
        } else {
            gh - self.legend(&self.profile.value_unit)
        };
        // As many labels as the axis holds two lines of text apart (the least 1-2-5
        // step that keeps them so), at most fourteen; a line and a half apart where
        // two lines would leave fewer than four (a short axis).
        let scale = self.opts.scale(self.profile.units.value);
        let at_least = |lines: f64| {
            let target = (gh / (lines * 10.0 * self.em)).clamp(2.0, 2.0 * TICK_TARGET);
            modern::value_ticks(y_range, target, scale)
        };
        let mut ticks = at_least(2.0);
        if ticks.len() < 4 {
            ticks = at_least(1.5);
        }
        // From the top down, a label a line under the one above it or more: an axis a
        // few points tall (a compared run's panel at a column's width) keeps its top
        // label, the scale, where `0` would run into it.
        let mut above = f64::INFINITY;
        let mut placed = Vec::new();
        for (v, label) in ticks.into_iter().rev() {
            let y = v * t;
            if y <= room && above - y >= 10.0 * self.em {
                above = y;
                placed.push((y, label));
            }
        }
        let percent = if self.shares() { "%" } else { "" };
        for (y, label) in placed.into_iter().rev() {
            let label = label + percent;
            // Centred on its tick: the baseline a little under it.
            self.y_tick_label_at(items, y + self.y0, label.into_bytes(), 3.5 * self.em);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{modern, samples, scene, texts};
    use super::*;

    #[test]
    fn tick_labels_rise_along_both_axes_and_reach_the_peak() {
        let times = [0.0, 0.3, 0.6, 0.9, 1.26];
        let body = samples(
            &times,
            &[("a", &[0.0, 2e6, 4e6, 6e6, 8e6]), ("b", &[1e6; 5])],
        );
        let s = scene(&body, &modern((241.0, 156.0)));
        let labels = texts(&s, TextRole::TickLabel);
        let number = |l: &String| -> Option<f64> { l.split(' ').next()?.parse().ok() };
        let time: Vec<f64> = labels
            .iter()
            .filter(|l| l.ends_with(" s"))
            .filter_map(number)
            .collect();
        let bytes: Vec<f64> = labels
            .iter()
            .filter(|l| l.ends_with("MB"))
            .filter_map(number)
            .collect();
        assert!(time.len() >= 3, "{labels:?}");
        assert!(time.windows(2).all(|w| w[0] < w[1]), "{labels:?}");
        assert!(bytes.windows(2).all(|w| w[0] < w[1]), "{labels:?}");
        // The top label is at 60% of the peak (9 MB) or more.
        assert!(*bytes.last().unwrap() >= 0.6 * 9.0, "{labels:?}");
    }
}
