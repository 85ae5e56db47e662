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
        with_variants(&base)
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

/// A band's place in a palette from its name alone (FNV-1a, the same on every machine and
/// in every run), so that a cost centre has one colour in every figure. Two names can
/// share a colour: a palette has only so many.
pub fn stable_index(name: &[u8]) -> usize {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in name {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    (h % 1_000_003) as usize
}

/// Gives each name a paint of `palette`. When `stable` (`--stable-colours`), its own:
/// [`stable_index`] into the palette, whatever else the picture holds, so that a name
/// has one fill in every figure, profile and panel; two names of one picture can then
/// share one (a palette has only so many), which the key and each band's title tell
/// apart. Otherwise one that no other name here has (`kept_apart`, in order). `taken`
/// marks the palette's paints already used in the picture, and is updated.
pub fn distinct_paints<'a>(
    names: impl IntoIterator<Item = &'a [u8]>,
    palette: &[Paint],
    taken: &mut Vec<bool>,
    stable: bool,
) -> Vec<Paint> {
    if !stable || palette.is_empty() {
        return kept_apart(names, palette, taken, false);
    }
    taken.resize(palette.len(), false);
    (names.into_iter())
        .map(|name| {
            let k = stable_index(name) % palette.len();
            taken[k] = true;
            palette[k]
        })
        .collect()
}

/// Gives each name a paint of `palette` that no other name here has: its preferred one
/// (its [`stable_index`] when `by_name`, else the next in order) when free, else the
/// next free one after it far enough from those taken, deterministically. `taken` marks
/// the palette's paints already used in the picture, and is updated. Past the palette's
/// size paints repeat, as they must: a palette long enough for the picture's bands (see
/// `layout::paint::Palette::extended`) makes that rare.
fn kept_apart<'a>(
    names: impl IntoIterator<Item = &'a [u8]>,
    palette: &[Paint],
    taken: &mut Vec<bool>,
    by_name: bool,
) -> Vec<Paint> {
    let n = palette.len();
    if n == 0 {
        return names.into_iter().map(|_| OTHER).collect();
    }
    taken.resize(n, false);
    let lab: Vec<(f64, f64, f64)> = palette.iter().map(|&p| lab(p)).collect();
    let other = self::lab(OTHER);
    let mut next = 0;
    names
        .into_iter()
        .map(|name| {
            let want = if by_name {
                stable_index(name) % n
            } else {
                next % n
            };
            // How far a paint is from every paint taken so far and from OTHER's grey,
            // a band of most pictures (CIE76 ΔE).
            let apart = |k: usize, taken: &[bool]| {
                let far = |b: (f64, f64, f64)| {
                    let a = lab[k];
                    ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2) + (a.2 - b.2).powi(2)).sqrt()
                };
                (0..n)
                    .filter(|&j| taken[j])
                    .map(|j| far(lab[j]))
                    .fold(far(other), f64::min)
            };
            let free = (0..n).map(|d| (want + d) % n).filter(|&k| !taken[k]);
            // The first free paint far enough from the others (MIN_DELTA_E: told apart
            // at a glance), else the free one farthest from them, else (all taken) the
            // wanted.
            let k = free
                .clone()
                .find(|&k| apart(k, taken) >= MIN_DELTA_E)
                .or_else(|| free.max_by(|&a, &b| apart(a, taken).total_cmp(&apart(b, taken))))
                .unwrap_or(want);
            taken[k] = true;
            next = k + 1;
            palette[k]
        })
        .collect()
}

/// How far apart (CIE76 ΔE) two bands' paints are kept where the palette allows. At 8
/// a comparison of pandoc's closure types drew `STACK` and `THUNK_1_0` in two pale pinks
/// a reader took for one; 12 keeps 20 bands of tableau10 and its shades apart (39 of
/// its 50 paints can be, OTHER's grey among them).
pub const MIN_DELTA_E: f64 = 12.0;

/// A paint in CIE L*a*b* (D65), from sRGB.
fn lab(p: Paint) -> (f64, f64, f64) {
    let (r, g, b) = match p {
        Paint::Gray(v) => (v, v, v),
        Paint::Rgb(r, g, b) => (r, g, b),
    };
    let lin = |c: f64| {
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    let (r, g, b) = (lin(r), lin(g), lin(b));
    let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
    let y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
    let f = |t: f64| {
        if t > 0.008856 {
            t.cbrt()
        } else {
            7.787 * t + 16.0 / 116.0
        }
    };
    (
        116.0 * f(y) - 16.0,
        500.0 * (f(x) - f(y)),
        200.0 * (f(y) - f(z)),
    )
}

/// `base`, then lighter and darker variants of each of its paints, then lighter and
/// darker still: as many distinct paints as a picture can need before one repeats. The
/// first are `base` itself, in its order; a variant that lands on a paint already there
/// (black stays black) is left out.
pub fn with_variants(base: &[Paint]) -> Vec<Paint> {
    let mut all: Vec<Paint> = Vec::with_capacity(base.len() * 5);
    for mix in [0.0, 0.45, -0.35, 0.7, -0.6] {
        for &p in base {
            let v = shade_of(p, mix);
            if !all.contains(&v) {
                all.push(v);
            }
        }
    }
    all
}

/// `p` mixed towards white (`mix` > 0) or black (`mix` < 0) by that share.
fn shade_of(p: Paint, mix: f64) -> Paint {
    let f = |c: f64| {
        let v = if mix >= 0.0 {
            c + (1.0 - c) * mix
        } else {
            c * (1.0 + mix)
        };
        (v * 1000.0).round() / 1000.0
    };
    match p {
        Paint::Gray(g) => Paint::Gray(f(g)),
        Paint::Rgb(r, g, b) => Paint::Rgb(f(r), f(g), f(b)),
    }
}

/// The paints a page gives what its picture does not draw, chosen here as the drawn
/// bands' are: each of `pool` (bands the page can show when a window or filter asks)
/// a paint no drawn band has, the drawn ones' own first, then their lighter and darker
/// variants, each to one band by its name; each flame-graph label of `frames` one of
/// the same, by its name; and the runtime's lines' and collections' paints.
pub fn page_paints<'a>(
    scene: &crate::scene::Scene,
    pool: impl IntoIterator<Item = &'a [u8]>,
    frames: impl IntoIterator<Item = &'a [u8]>,
) -> crate::scene::PagePaints {
    use crate::scene;
    let mut drawn: Vec<Paint> = Vec::new();
    for p in scene.legend.iter().map(|e| e.fill) {
        if p != OTHER && !drawn.contains(&p) {
            drawn.push(p);
        }
    }
    let variants = with_variants(&drawn);
    let mut taken = vec![false; variants.len()];
    for t in taken.iter_mut().take(drawn.len()) {
        *t = true;
    }
    let pool = kept_apart(pool, &variants, &mut taken, true);
    let by_name = |name: &[u8]| match variants.len() {
        0 => OTHER,
        n => variants[stable_index(name) % n],
    };
    // A cost centre the samples' panel names keeps its colour in every flame graph.
    let named =
        (scene.samples.iter()).flat_map(|row| &row.bars[..row.bars.len().saturating_sub(1)]);
    let named: Vec<(&[u8], Paint)> = named.map(|b| (&b.name[..], b.fill)).collect();
    let paint = |name: &[u8]| {
        (named.iter().find(|(n, _)| *n == name)).map_or_else(|| by_name(name), |(_, p)| *p)
    };
    scene::PagePaints {
        pool,
        frames: frames.into_iter().map(paint).collect(),
        ..Default::default()
    }
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
