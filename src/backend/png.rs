//! PNG: the SVG picture rasterised in-process by resvg, for READMEs, slides and chat.
//!
//! The SVG draws its text as the embedded font's glyph outlines, so no font of the system
//! is looked at (resvg is built without text support) and the same scene gives the same
//! bytes on every machine. The image is `dpi` pixels to the inch of the picture's size
//! in points: 1350 x 900 for a default figure at 150 dpi.

use std::io::{self, Write};
use std::sync::OnceLock;

use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg;

use crate::scene::Scene;

/// PNG output at `dpi` pixels to the inch.
pub struct Png {
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

/// The options usvg reads the SVG with, made once.
fn options() -> &'static usvg::Options<'static> {
    static OPTIONS: OnceLock<usvg::Options<'static>> = OnceLock::new();
    OPTIONS.get_or_init(usvg::Options::default)
}

/// The PNG bytes of a scene.
pub fn image(scene: &Scene, dpi: f64) -> io::Result<Vec<u8>> {
    let svg = super::svg::document(scene, super::svg::TextAs::Outlines);
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
