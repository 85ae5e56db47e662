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

/// The most pixels a PNG has: 40 million (an A4 poster at 600 dpi is 35 million) take
/// 160 MB to draw. A 20,000-pixel square would take 1.6 GB.
pub const MAX_PIXELS: f64 = 40e6;

/// Why a picture of `width` by `height` points at `dpi` is larger than hpgraph draws a
/// PNG, or `None` when it fits.
pub fn too_large(width: f64, height: f64, dpi: f64) -> Option<String> {
    let (w, h) = (width * dpi / 72.0, height * dpi / 72.0);
    (w.max(h) > MAX_SIDE as f64 || w * h > MAX_PIXELS).then(|| {
        format!(
            "a {w:.0} x {h:.0} pixel PNG is more than hpgraph draws (at most {MAX_SIDE} \
             pixels a side and {:.0} million in all): use a lower --dpi or a smaller --size",
            MAX_PIXELS / 1e6
        )
    })
}

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
    if !(w >= 1.0 && h >= 1.0) {
        return Err(io::Error::other(format!(
            "a {w} x {h} pixel image has no pixels: use a higher --dpi"
        )));
    }
    // The settings refuse a size past the bound before anything is read; this holds it
    // for a scene of any size.
    let points = |px: f32| f64::from(px) / f64::from(scale) / 96.0 * 72.0;
    if let Some(why) = too_large(points(w), points(h), dpi) {
        return Err(io::Error::other(why));
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
