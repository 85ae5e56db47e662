//! The embedded font, TeX Gyre Heros (shipped in `fonts/`, GUST Font License): a Helvetica
//! made from URW's Nimbus Sans, which is what Ghostscript and most viewers draw for
//! PostScript's Helvetica. The PDF embeds it; SVG and PNG draw its glyph outlines, so that
//! a figure's text has the same shapes and widths in every format and on every machine,
//! whatever fonts a viewer has.

use std::fmt::Write;
use std::sync::OnceLock;

use skrifa::instance::{LocationRef, Size};
use skrifa::outline::{DrawSettings, OutlinePen};
use skrifa::{FontRef, GlyphId, MetadataProvider};

/// The font file.
pub const FONT: &[u8] = include_bytes!("../../fonts/texgyreheros-regular.otf");

/// The parsed font, with the two tables text needs.
pub struct Font {
    font: FontRef<'static>,
    units_per_em: f64,
}

/// One character's glyph: which outline, and how far it moves the pen, in font units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Glyph {
    /// Its index in the font.
    pub id: u32,
    /// Its advance, in font units.
    pub advance: f64,
}

impl Font {
    /// The embedded font, parsed once.
    pub fn get() -> &'static Font {
        static FONT_ONCE: OnceLock<Font> = OnceLock::new();
        FONT_ONCE.get_or_init(|| {
            let font = FontRef::new(FONT).expect("the embedded font is a valid OpenType file");
            let units = font
                .metrics(Size::unscaled(), LocationRef::default())
                .units_per_em;
            Font {
                font,
                units_per_em: f64::from(units.max(1)),
            }
        })
    }

    /// Font units to the em, which glyph measures are in.
    pub fn units_per_em(&self) -> f64 {
        self.units_per_em
    }

    /// The glyph for `c`: the font's `.notdef` (an empty box) for a character it lacks.
    pub fn glyph(&self, c: char) -> Glyph {
        let id = self.font.charmap().map(c).unwrap_or(GlyphId::NOTDEF);
        let advance = self
            .font
            .glyph_metrics(Size::unscaled(), LocationRef::default())
            .advance_width(id)
            .unwrap_or(0.0);
        Glyph {
            id: id.to_u32(),
            advance: f64::from(advance),
        }
    }

    /// The width of `text` set at `size` points, unkerned, as PostScript's `stringwidth`
    /// measures it.
    pub fn width(&self, text: &str, size: f64) -> f64 {
        let units: f64 = text.chars().map(|c| self.glyph(c).advance).sum();
        units * size / self.units_per_em
    }

    /// A glyph's outline as SVG path data in font units, y pointing down (SVG's way), in
    /// relative steps of whole units: a thousandth of an em is finer than any printer.
    pub fn outline(&self, id: u32) -> String {
        let mut pen = PathData::default();
        if let Some(glyph) = self.font.outline_glyphs().get(GlyphId::new(id)) {
            let settings = DrawSettings::unhinted(Size::unscaled(), LocationRef::default());
            // A glyph the font cannot draw is left empty rather than failing the figure.
            if glyph.draw(settings, &mut pen).is_err() {
                return String::new();
            }
        }
        pen.d
    }
}

/// SVG path data from a glyph's outline.
#[derive(Default)]
struct PathData {
    d: String,
    /// The pen's position, in whole font units, y down.
    at: (i64, i64),
    /// Where the outline being drawn started: closing it takes the pen back there.
    start: (i64, i64),
}

impl PathData {
    /// Appends `command` with its points as steps from the segment's start (SVG's
    /// relative commands), and moves the pen to the last point. Every point is rounded
    /// before the steps are taken, so rounding never adds up along an outline.
    fn step(&mut self, command: char, points: &[(f32, f32)]) {
        self.d.push(command);
        let round = |(x, y): (f32, f32)| (x.round() as i64, -(y.round() as i64));
        for &p in points {
            let p = round(p);
            number(&mut self.d, p.0 - self.at.0);
            number(&mut self.d, p.1 - self.at.1);
        }
        if let Some(&last) = points.last() {
            self.at = round(last);
        }
    }
}

/// `v` after the path data, with a separating space when the sign does not separate it.
fn number(d: &mut String, v: i64) {
    if v >= 0 && d.ends_with(|c: char| c.is_ascii_digit()) {
        d.push(' ');
    }
    let _ = write!(d, "{v}");
}

impl OutlinePen for PathData {
    fn move_to(&mut self, x: f32, y: f32) {
        self.step('m', &[(x, y)]);
        self.start = self.at;
    }

    fn line_to(&mut self, x: f32, y: f32) {
        self.step('l', &[(x, y)]);
    }

    fn quad_to(&mut self, cx0: f32, cy0: f32, x: f32, y: f32) {
        self.step('q', &[(cx0, cy0), (x, y)]);
    }

    fn curve_to(&mut self, cx0: f32, cy0: f32, cx1: f32, cy1: f32, x: f32, y: f32) {
        self.step('c', &[(cx0, cy0), (cx1, cy1), (x, y)]);
    }

    fn close(&mut self) {
        self.d.push('z');
        self.at = self.start;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_are_helveticas() {
        // Helvetica's AFM: "A" is 667 units, a space 278, "1" 556.
        let font = Font::get();
        assert_eq!(font.units_per_em(), 1000.0);
        assert!((font.width("A 1", 10.0) - (6.67 + 2.78 + 5.56)).abs() < 1e-9);
    }

    #[test]
    fn the_layouts_helvetica_widths_are_the_fonts() {
        // The layout measures without the font (it knows no output format); its table
        // must be what every format then draws.
        let font = Font::get();
        for b in 0x20u8..0x7f {
            let want = font.width(&char::from(b).to_string(), 10.0);
            let have = crate::layout::text::helvetica_width(b);
            assert!(
                (want - have).abs() < 1e-9,
                "{:?}: {want} {have}",
                char::from(b)
            );
        }
    }

    #[test]
    fn outlines_are_relative_path_data() {
        let font = Font::get();
        let d = font.outline(font.glyph('l').id);
        // The letter l is one closed box, starting from the origin.
        assert!(d.starts_with('m') && d.ends_with('z'), "{d}");
        assert_eq!(d.matches('z').count(), 1, "{d}");
        assert_eq!(font.outline(font.glyph(' ').id), "");
    }
}
