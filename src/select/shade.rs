//! Band shades: which fill each band gets, as hp2ps hands them out.
//!
//! A shade is one number: a grey level, or with `-c` an RGB colour packed in decimal
//! digits (decoded in `layout::paint`). Shades are handed out on first use from a fixed
//! cycle; shades read from an `.aux` file are used first and do not advance the cycle.

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

/// The name → shade table. hp2ps searches a list; a map gives the same answers (the
/// first shade a name was given) without the quadratic cost on profiles with very many
/// bands.
pub struct Shades {
    table: HashMap<Box<[u8]>, f64>,
    cycle: &'static [f64],
    next: usize,
}

impl Shades {
    /// An empty table drawing from the mono or the colour cycle, seeded with `known`
    /// shades (from an `.aux` file).
    pub fn new(colour: bool, known: impl IntoIterator<Item = (Box<[u8]>, f64)>) -> Self {
        let mut table = HashMap::new();
        for (name, shade) in known {
            table.entry(name).or_insert(shade);
        }
        Shades {
            table,
            cycle: if colour { &COLOUR } else { &MONO },
            next: 0,
        }
    }

    /// The shade of `name`: the first one it was given, or the next from the cycle.
    pub fn shade_of(&mut self, name: &[u8]) -> f64 {
        if let Some(&s) = self.table.get(name) {
            return s;
        }
        let s = self.cycle[self.next % self.cycle.len()];
        self.next += 1;
        self.table.insert(name.into(), s);
        s
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
        let mut s = Shades::new(false, known);
        assert_eq!(s.shade_of(b"a"), 0.0);
        assert_eq!(s.shade_of(b"x"), 0.25);
        assert_eq!(s.shade_of(b"b"), 0.2);
        assert_eq!(s.shade_of(b"a"), 0.0);
        for i in 0..8 {
            s.shade_of(format!("n{i}").as_bytes());
        }
        // The eleventh new name starts the cycle again.
        assert_eq!(s.shade_of(b"z"), 0.0);
    }
}
