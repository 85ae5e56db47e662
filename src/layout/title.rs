//! The title: hp2ps's box with the job, date and area, or the modern style's line.

use super::*;

impl Frame<'_> {
    /// The baseline of the title's first row.
    pub(super) fn title_row(&self) -> f64 {
        self.height - 20.0 * self.em - BORDER_SPACE + TITLE_TEXT_SPACE * self.em
    }

    pub(super) fn new_page(&self, pages: &mut Vec<Page>) {
        pages.push(Page::default());
        self.title_block(pages);
    }

    /// The frame, the title box and its three texts.
    pub(super) fn title_block(&self, pages: &mut [Page]) {
        if self.opts.style == Style::Modern {
            return self.modern_title(pages);
        }
        let items = &mut pages.last_mut().expect("a page").items;
        let th = self.title_height;
        items.push(Item::Path(path(
            PathRole::Frame,
            Point::new(0.0, 0.0),
            &[(0.0, self.height), (self.width, 0.0), (0.0, -self.height)],
            true,
        )));
        let box_y = self.height - th - BORDER_SPACE;
        items.push(Item::Path(path(
            PathRole::TitleBox,
            Point::new(BORDER_SPACE, box_y),
            &[(0.0, th), (self.title_width, 0.0), (0.0, -th)],
            true,
        )));
        let p = self.profile;
        let upper_row = self.title_row();
        let area = self.area_text();
        let (job_chars, lower_row) = if self.big_title {
            items.push(Item::Path(path(
                PathRole::TitleRule,
                Point::new(BORDER_SPACE, self.height - 20.0 * self.em - BORDER_SPACE),
                &[(self.title_width, 0.0)],
                false,
            )));
            (BIG_TITLE_CHARS, box_y + TITLE_TEXT_SPACE * self.em)
        } else {
            (SMALL_TITLE_CHARS, upper_row)
        };
        let job = match &self.opts.title_text {
            Some(t) => t.clone(),
            None => p.job[..c_len(&p.job).min(job_chars)].to_vec(),
        };
        let left = BORDER_SPACE + TITLE_TEXT_SPACE;
        items.push(text(
            TextRole::Title,
            Point::new(left, upper_row),
            job,
            FontSize::Large,
            Anchor::Start,
        ));
        items.push(if self.big_title {
            text(
                TextRole::Area,
                Point::new(left, lower_row),
                area,
                FontSize::Large,
                Anchor::Start,
            )
        } else {
            text(
                TextRole::Area,
                Point::new(self.title_width / 2.0, upper_row),
                area,
                FontSize::Large,
                Anchor::Middle,
            )
        });
        items.push(text(
            TextRole::Date,
            Point::new(
                self.title_width + BORDER_SPACE - TITLE_TEXT_SPACE,
                lower_row,
            ),
            p.date.clone(),
            FontSize::Large,
            Anchor::End,
        ));
    }

    /// Modern style: no frame and no box; the title (the job, or `--title`) at the left
    /// and the date at the right, on one line.
    pub(super) fn modern_title(&self, pages: &mut [Page]) {
        if self.opts.title_text.as_deref() == Some(&b""[..]) {
            return;
        }
        let items = &mut pages.last_mut().expect("a page").items;
        let row = self.title_row();
        let title = self
            .opts
            .title_text
            .clone()
            .unwrap_or_else(|| self.profile.job.clone());
        // The title's text is 12 pt (times em), the widths table's 10 pt.
        let room = |right: &[u8]| {
            (self.width - 4.0 * BORDER_SPACE - helvetica_size(right) * self.em) / (1.2 * self.em)
        };
        // A profile read in part says so where the date is, before it (a figure passed on
        // keeps it); where the two would shorten the title, the loss alone.
        let right = match &self.profile.loss {
            Some(loss) => {
                let said = format!("read in part: {}", loss.what).into_bytes();
                let mut both = said.clone();
                both.extend_from_slice(b" - ");
                both.extend_from_slice(&self.profile.date);
                if helvetica_size(&title) <= room(&both) {
                    both
                } else {
                    said
                }
            }
            // A title given in place of the job (`--title`, a compared run's file) is
            // what the figure is named by: where the date would shorten it, no date.
            None if self.opts.title_text.is_some()
                && helvetica_size(&title) > room(&self.profile.date) =>
            {
                Vec::new()
            }
            None => self.profile.date.clone(),
        };
        let room = room(&right);
        let title = modern::shortened(&title, room.max(20.0));
        items.push(text(
            TextRole::Title,
            Point::new(BORDER_SPACE, row),
            title,
            FontSize::Large,
            Anchor::Start,
        ));
        items.push(text(
            TextRole::Date,
            Point::new(self.width - BORDER_SPACE, row),
            right,
            FontSize::Normal,
            Anchor::End,
        ));
    }

    /// "<area> <value unit> x <sample unit>".
    pub(super) fn area_text(&self) -> Vec<u8> {
        let mut t = comma(self.sel.area as i64).into_bytes();
        t.push(b' ');
        t.extend_from_slice(&self.profile.value_unit);
        t.extend_from_slice(b" x ");
        t.extend_from_slice(&self.profile.sample_unit);
        t
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{samples, scene, texts};
    use super::*;

    #[test]
    fn the_title_box_holds_the_job_the_date_and_the_area() {
        let body = samples(&[0.0, 2.0], &[("a", &[10.0, 10.0])]);
        let s = scene(&body, &LayoutOptions::default());
        assert_eq!(texts(&s, TextRole::Title), ["job"]);
        assert_eq!(texts(&s, TextRole::Date), ["d"]);
        // 10 bytes for 2 seconds.
        let area = texts(&s, TextRole::Area);
        assert!(area[0].starts_with("20 "), "{area:?}");
    }
}
