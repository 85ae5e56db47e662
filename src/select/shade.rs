//! Band shades: which fill each band gets, as hp2ps hands them out.
//!
//! hp2ps writes a shade as one number (in its PostScript and `.aux` files): a grey
//! level, or with `-c` an RGB colour packed in decimal digits. Here the number carries
//! which of the two it is ([`Shade`]), decided once, when the selection hands shades
//! out; the layout decodes it (`layout::paint`) without being told about `-c`. Shades
//! are handed out on first use from a fixed cycle; shades read from an `.aux` file are
//! used first and do not advance the cycle.

use std::collections::HashMap;

/// Grey levels for monochrome output, in the order hp2ps uses them.
pub const MONO: [f64; 10] = [0.0, 0.2, 0.6, 0.3, 0.9, 0.4, 1.0, 0.7, 0.5, 0.8];

/// Packed colours for `-c`: red in the hundredths, green in the ten-thousandths, blue in
/// the millionths, each digit pair 00, 05 or 10 (0, ½ or 1).
pub const COLOUR: [f64; 27] = [
    0.000000, 0.000010, 0.001000, 0.001010, 0.100000, 0.100010, 0.101000, 0.101010, 0.000005,
    0.000500, 0.000510, 0.001005, 0.050000, 0.050010, 0.051000, 0.051010, 0.100005, 0.100500,
    0.100510, 0.101005, 0.000505, 0.050005, 0.050500, 0.050510, 0.051005, 0.100505, 0.050505,
];

/// Which of hp2ps's cycles shades come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Shading {
    /// Grey levels ([`MONO`]).
    #[default]
    Grey,
    /// Packed colours ([`COLOUR`], `-c`).
    Colour,
}

impl Shading {
    /// The cycle's shades, in the order hp2ps hands them out.
    pub fn cycle(self) -> &'static [f64] {
        match self {
            Shading::Grey => &MONO,
            Shading::Colour => &COLOUR,
        }
    }

    /// The shade this shading makes of a number (from the cycle or an `.aux` file).
    pub fn shade(self, number: f64) -> Shade {
        match self {
            Shading::Grey => Shade::Grey(number),
            Shading::Colour => Shade::Packed(number),
        }
    }
}

/// A band's fill as hp2ps names it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Shade {
    /// A grey level, 0 black to 1 white.
    Grey(f64),
    /// An RGB colour packed in decimal digits, as [`COLOUR`]'s.
    Packed(f64),
}

impl Shade {
    /// The number hp2ps writes for the shade.
    pub fn number(self) -> f64 {
        match self {
            Shade::Grey(n) | Shade::Packed(n) => n,
        }
    }
}

/// The name → shade table. hp2ps searches a list; a map gives the same answers (the
/// first shade a name was given) without the quadratic cost on profiles with very many
/// bands.
pub struct Shades {
    table: HashMap<Box<[u8]>, f64>,
    shading: Shading,
    next: usize,
}

impl Shades {
    /// An empty table drawing from the grey or the colour cycle, seeded with `known`
    /// shades (from an `.aux` file, read as this shading's).
    pub fn new(shading: Shading, known: impl IntoIterator<Item = (Box<[u8]>, f64)>) -> Self {
        let mut table = HashMap::new();
        for (name, shade) in known {
            table.entry(name).or_insert(shade);
        }
        Shades {
            table,
            shading,
            next: 0,
        }
    }

    /// The shade of `name`: the first one it was given, or the next from the cycle.
    pub fn shade_of(&mut self, name: &[u8]) -> Shade {
        if let Some(&s) = self.table.get(name) {
            return self.shading.shade(s);
        }
        let cycle = self.shading.cycle();
        let s = cycle[self.next % cycle.len()];
        self.next += 1;
        self.table.insert(name.into(), s);
        self.shading.shade(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cycle_repeats_and_known_names_keep_their_shade() {
        let known: [(Box<[u8]>, f64); 2] = [
            (b"x".as_slice().into(), 0.25),
            (b"x".as_slice().into(), 0.75),
        ];
        let mut s = Shades::new(Shading::Grey, known);
        assert_eq!(s.shade_of(b"a"), Shade::Grey(0.0));
        assert_eq!(s.shade_of(b"x"), Shade::Grey(0.25));
        assert_eq!(s.shade_of(b"b"), Shade::Grey(0.2));
        assert_eq!(s.shade_of(b"a"), Shade::Grey(0.0));
        for i in 0..8 {
            s.shade_of(format!("n{i}").as_bytes());
        }
        // The eleventh new name starts the cycle again.
        assert_eq!(s.shade_of(b"z"), Shade::Grey(0.0));
        let mut c = Shades::new(Shading::Colour, []);
        assert_eq!(c.shade_of(b"a"), Shade::Packed(0.0));
        assert_eq!(c.shade_of(b"b"), Shade::Packed(0.000010));
    }
}
