//! Turning a band's shade into a paint, and the palettes beside hp2ps's.

use crate::scene::Paint;
use crate::select::{Shade, Shading};

/// The colour sets a figure can use. hp2ps's is the default and keeps its picture; the
/// others are for figures that must read well (see docs/figures.md for which suit
/// colour-blind readers and greyscale print).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Palette {
    /// hp2ps's cycles: greys, or its 27 colours with `-c`.
    #[default]
    Hp2ps,
    /// Okabe and Ito's eight colours, told apart with every common colour-vision
    /// deficiency.
    OkabeIto,
    /// Tableau's ten, the default of many plotting tools.
    Tableau10,
    /// Eight steps of viridis: dark blue to yellow, evenly brighter, so that the order
    /// survives greyscale print and colour-blindness.
    Viridis,
    /// Seven greys, dark to light, for greyscale print.
    Grey,
}

const OKABE_ITO: [u32; 8] = [
    0xE69F00, 0x56B4E9, 0x009E73, 0xF0E442, 0x0072B2, 0xD55E00, 0xCC79A7, 0x000000,
];
const TABLEAU10: [u32; 10] = [
    0x4E79A7, 0xF28E2B, 0xE15759, 0x76B7B2, 0x59A14F, 0xEDC948, 0xB07AA1, 0xFF9DA7, 0x9C755F,
    0x79706E,
];
const VIRIDIS: [u32; 8] = [
    0x440154, 0x46327E, 0x365C8D, 0x277F8E, 0x1FA187, 0x4AC16D, 0xA0DA39, 0xFDE725,
];
const GREYS: [f64; 7] = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7];

pub use crate::scene::OTHER_PAINT as OTHER;

impl Palette {
    /// The names `--palette` takes, with their palettes.
    pub const NAMES: [(&'static str, Palette); 5] = [
        ("hp2ps", Palette::Hp2ps),
        ("okabe-ito", Palette::OkabeIto),
        ("tableau10", Palette::Tableau10),
        ("viridis", Palette::Viridis),
        ("grey", Palette::Grey),
    ];

    /// How many paints the palette has (hp2ps's: as many as the cycle of `shading`).
    pub fn len(self, shading: Shading) -> usize {
        match self {
            Palette::Hp2ps => shading.cycle().len(),
            Palette::OkabeIto => OKABE_ITO.len(),
            Palette::Tableau10 => TABLEAU10.len(),
            Palette::Viridis => VIRIDIS.len(),
            Palette::Grey => GREYS.len(),
        }
    }

    /// The palette and, after it, lighter and then darker variants of each of its paints,
    /// and lighter and darker still: as many distinct paints as a picture can need
    /// before one must repeat. The first `len` are the palette itself, in its order.
    pub fn extended(self, shading: Shading) -> Vec<Paint> {
        let base: Vec<Paint> = (0..self.len(shading))
            .map(|k| self.nth(k, shading))
            .collect();
        crate::scene::with_variants(&base)
    }

    /// The palette's `k`th paint, cycling (hp2ps's from the cycle of `shading`).
    pub fn nth(self, k: usize, shading: Shading) -> Paint {
        let rgb = |c: u32| {
            let byte = |s: u32| f64::from((c >> s) & 0xff) / 255.0;
            Paint::Rgb(byte(16), byte(8), byte(0))
        };
        let k = k % self.len(shading);
        match self {
            Palette::Hp2ps => paint(shading.shade(shading.cycle()[k])),
            Palette::OkabeIto => rgb(OKABE_ITO[k]),
            Palette::Tableau10 => rgb(TABLEAU10[k]),
            Palette::Viridis => rgb(VIRIDIS[k]),
            Palette::Grey => Paint::Gray(GREYS[k]),
        }
    }
}

pub use crate::scene::stable_index;

/// The paint of a shade: a grey level, or hp2ps's packed RGB decoded as hp2ps decodes
/// it. Its truncating arithmetic is kept: it turns the 15th colour (0.051000) into
/// (0.5, 0.9, 0) rather than (0.5, 1, 0).
pub fn paint(shade: Shade) -> Paint {
    let shade = match shade {
        Shade::Grey(level) => return Paint::Gray(level),
        Shade::Packed(packed) => packed,
    };
    let component = |f: f64| {
        let i = (shade * f) as i32;
        let j = i / 100;
        f64::from(i - j * 100) / 10.0
    };
    Paint::Rgb(component(100.0), component(10000.0), component(1000000.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::select::shade::COLOUR;

    #[test]
    fn colours_decode_as_hp2ps_decodes_them() {
        let want: [(f64, f64, f64); 27] = [
            (0.0, 0.0, 0.0),
            (0.0, 0.0, 1.0),
            (0.0, 1.0, 0.0),
            (0.0, 1.0, 1.0),
            (1.0, 0.0, 0.0),
            (1.0, 0.0, 1.0),
            (1.0, 1.0, 0.0),
            (1.0, 1.0, 1.0),
            (0.0, 0.0, 0.5),
            (0.0, 0.5, 0.0),
            (0.0, 0.5, 1.0),
            (0.0, 1.0, 0.5),
            (0.5, 0.0, 0.0),
            (0.5, 0.0, 1.0),
            (0.5, 0.9, 0.0),
            (0.5, 1.0, 1.0),
            (1.0, 0.0, 0.5),
            (1.0, 0.5, 0.0),
            (1.0, 0.5, 1.0),
            (1.0, 1.0, 0.5),
            (0.0, 0.5, 0.5),
            (0.5, 0.0, 0.5),
            (0.5, 0.5, 0.0),
            (0.5, 0.5, 1.0),
            (0.5, 1.0, 0.5),
            (1.0, 0.5, 0.5),
            (0.5, 0.5, 0.5),
        ];
        for (shade, (r, g, b)) in COLOUR.iter().zip(want) {
            assert_eq!(
                paint(Shade::Packed(*shade)),
                Paint::Rgb(r, g, b),
                "shade {shade}"
            );
        }
    }

    #[test]
    fn a_name_has_one_colour_and_palettes_cycle() {
        let k = stable_index(b"main/Main.CAF");
        assert_eq!(k, stable_index(b"main/Main.CAF"));
        assert_ne!(stable_index(b"a"), stable_index(b"b"));
        assert_eq!(
            Palette::OkabeIto.nth(9, Shading::Colour),
            Palette::OkabeIto.nth(1, Shading::Grey)
        );
        assert_eq!(
            Palette::OkabeIto.nth(0, Shading::Grey),
            Paint::Rgb(230.0 / 255.0, 159.0 / 255.0, 0.0)
        );
        assert_eq!(Palette::Hp2ps.nth(2, Shading::Grey), Paint::Gray(0.6));
        assert_eq!(
            Palette::Hp2ps.nth(2, Shading::Colour),
            Paint::Rgb(0.0, 1.0, 0.0)
        );
        for (_, p) in Palette::NAMES {
            for k in 0..p.len(Shading::Colour) {
                assert_ne!(p.nth(k, Shading::Colour), OTHER, "{p:?} {k}");
            }
        }
    }

    #[test]
    fn mono_is_the_grey_level() {
        assert_eq!(paint(Shade::Grey(0.6)), Paint::Gray(0.6));
    }
}
