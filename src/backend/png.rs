//! PNG: the SVG picture rasterised in-process by resvg, for READMEs, slides and chat.
//!
//! The SVG draws its text as the embedded font's glyph outlines, so no font of the system
//! is looked at (resvg is built without text support) and the same scene gives the same
//! bytes on every machine; each glyph's origin is on the pixel grid, as font rasterisers
//! (Ghostscript's among them) place glyphs ([`super::svg::TextAs::Raster`]). The image is `dpi` pixels to the inch of the picture's size
//! in points: 1350 x 900 for a default figure at 150 dpi.

use std::io::{self, Write};
use std::sync::OnceLock;

use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg;

use crate::scene::{Item, Scene};

/// PNG output at `dpi` pixels to the inch.
pub struct Png {
    /// Pixels to the inch.
    pub dpi: f64,
}

/// The largest image hpgraph makes, in pixels a side: enough for a poster at 600 dpi,
/// and a bound on the memory an absurd `--dpi` could ask for.
pub const MAX_SIDE: u32 = 20_000;

impl super::Backend for Png {
    fn write(&self, scene: &Scene, out: &mut dyn Write) -> io::Result<()> {
        out.write_all(&image(scene, self.dpi)?)
    }
}

/// How much wider than the scene says a PNG draws every line, in pixels. Ghostscript,
/// which is how most people see hp2ps's PostScript, grows every fill and stroke by a
/// fraction of a pixel, so that hp2ps's half-point rules, one pixel at 150 dpi, come out
/// solid black; resvg draws the exact width, which at that size is a grey smear over
/// two pixel rows, and a dense band outline paler than the EPS's. Over the fixtures and
/// the public profiles (130 figures, grey and colour) the share of 3x3-pixel blocks
/// that differ from Ghostscript's antialiased EPS is, on average and at worst: 0.32% and
/// 1.29% with no gain, 0.24% and 0.55% at 0.2 px, 0.04% and 0.32% at 0.3 px, 0.05% and
/// 0.33% at 0.4 px, 0.08% and 0.52% at 0.5 px. At print resolutions 0.3 px is a few
/// hundredths of a point.
const LINE_GAIN: f64 = 0.3;

/// `scene` with every line `LINE_GAIN` pixels wider at `dpi`.
fn weighted(scene: &Scene, dpi: f64) -> Scene {
    let gain = LINE_GAIN * 72.0 / dpi;
    let mut scene = scene.clone();
    for item in scene.pages.iter_mut().flat_map(|p| p.items.iter_mut()) {
        let width = match item {
            Item::Path(p) => &mut p.line_width,
            Item::Band(b) => &mut b.line_width,
            Item::Area(a) => &mut a.line_width,
            Item::Text(_) => continue,
        };
        if *width > 0.0 {
            *width += gain;
        }
    }
    scene
}

/// The options usvg reads the SVG with, made once.
fn options() -> &'static usvg::Options<'static> {
    static OPTIONS: OnceLock<usvg::Options<'static>> = OnceLock::new();
    OPTIONS.get_or_init(usvg::Options::default)
}

/// The PNG bytes of a scene.
pub fn image(scene: &Scene, dpi: f64) -> io::Result<Vec<u8>> {
    let svg = super::svg::document(&weighted(scene, dpi), super::svg::TextAs::Raster { dpi });
    let tree = usvg::Tree::from_str(&svg, options())
        .map_err(|e| io::Error::other(format!("cannot rasterise the picture: {e}")))?;
    // usvg measures in CSS pixels, 96 to the inch.
    let scale = (dpi / 96.0) as f32;
    let size = tree.size();
    let side = |v: f32| (v * scale).round();
    let (w, h) = (side(size.width()), side(size.height()));
    if !(w >= 1.0 && h >= 1.0 && w <= MAX_SIDE as f32 && h <= MAX_SIDE as f32) {
        return Err(io::Error::other(format!(
            "a {w} x {h} pixel image is more than hpgraph makes (at most {MAX_SIDE} a side): use a lower --dpi"
        )));
    }
    let mut pixmap = Pixmap::new(w as u32, h as u32)
        .ok_or_else(|| io::Error::other("cannot allocate the image"))?;
    resvg::render(
        &tree,
        Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    pixmap
        .encode_png()
        .map_err(|e| io::Error::other(format!("cannot encode the PNG: {e}")))
}
