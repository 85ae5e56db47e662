//! Text measures and number formats of the hp2ps layout.

/// hp2ps's width estimate of printable ASCII, in units of [`FUDGE`] points, indexed from
/// 0x20 (space). It is not Helvetica's real metrics: the layout depends on it (key width,
/// where axis ticks stop), so it is reproduced, not improved.
const WIDTHS: [u8; 95] = [
    3, 1, 1, 3, 3, 3, 3, 1, 3, 3, 2, 3, 1, 3, 1, 3, // space ! " # $ % & ' ( ) * + , - . /
    4, 4, 4, 4, 4, 4, 4, 4, 4, 4, // 0-9
    1, 1, 3, 3, 3, 2, 3, // : ; < = > ? @
    5, 5, 5, 5, 5, 5, 5, 5, 1, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5,
    5, // A-Z (I = 1)
    2, 3, 2, 1, 3, 1, // [ \ ] ^ _ `
    3, 3, 3, 3, 3, 3, 3, 3, 1, 2, 3, 1, 5, 3, 3, 3, 3, 2, 3, 2, 3, 3, 3, 3, 3,
    3, // a-z (i=1 j=2 l=1 m=5 r=2 t=2)
    2, 1, 2, 2, // { | } ~
];

/// Points per width unit: hp2ps's `2.834646 * 0.6`, evaluated in double as it does.
pub const FUDGE: f64 = 2.834646 * 0.6;

/// Helvetica's advance widths of printable ASCII in thousandths of an em, indexed from
/// 0x20: the embedded TeX Gyre Heros's (a test holds them to the font), which the PDF
/// embeds, SVG and PNG draw, and PostScript's Helvetica matches. The modern style and
/// flame graphs measure with these: hp2ps's estimate ([`string_size`]) is a fifth too wide
/// for digits and capitals, and cut `MVAR_CLEAN` that fitted.
pub const HELVETICA: [u16; 95] = [
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278,
    278, // space to /
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, // 0-9
    278, 278, 584, 584, 584, 556, 1015, // : to @
    667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667,
    611, 722, 667, 944, 667, 667, 611, // A-Z
    278, 278, 278, 469, 556, 333, // [ to `
    556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500,
    278, 556, 500, 722, 500, 500, 500, // a-z
    334, 260, 334, 584, // { to ~
];

/// One byte's width in points at 10 pt, in Helvetica: a UTF-8 character counts once (at
/// its first byte, as wide as a digit), control bytes not at all.
pub fn helvetica_width(b: u8) -> f64 {
    let thousandths = match b {
        0x20..=0x7e => HELVETICA[(b - 0x20) as usize],
        0xc0..=0xff => 556,
        _ => 0,
    };
    f64::from(thousandths) / 100.0
}

/// The width of `s` in points at 10 pt, in Helvetica, up to a NUL byte as
/// [`string_size`] stops.
pub fn helvetica_size(s: &[u8]) -> f64 {
    s.iter()
        .take_while(|&&b| b != 0)
        .map(|&b| helvetica_width(b))
        .sum()
}

/// Width hp2ps reads for a byte outside 0x20–0x7E. In C that read is out of bounds; the
/// GHC 9.0.2 binary finds these neighbouring constants for 0x16–0x1D and 0 elsewhere.
/// (0x14 reads the `-t` threshold; it is taken as 0 here.)
fn stray_width(b: u8) -> f64 {
    match b {
        0x16 => 432.0,
        0x17 => 648.0,
        0x18 => 5.0,
        0x19 => 0.5,
        0x1a => 638.0,
        0x1b => 6.0,
        0x1c => 45.0,
        0x1d => 20.0,
        _ => 0.0,
    }
}

/// hp2ps's `StringSize`: the estimated width of `s` in points. The text stops at a NUL
/// byte, as a C string does.
pub fn string_size(s: &[u8]) -> f64 {
    let mut r = 0.0;
    for &b in s.iter().take_while(|&&b| b != 0) {
        r += byte_width(b);
    }
    r * FUDGE
}

/// One byte's share of [`string_size`], before the [`FUDGE`] factor.
pub fn byte_width(b: u8) -> f64 {
    match b {
        0x20..=0x7e => f64::from(WIDTHS[(b - 0x20) as usize]),
        _ => stray_width(b),
    }
}

/// hp2ps's `CommaPrint`: an integer with commas between groups of three digits.
pub fn comma(n: i64) -> String {
    if n < 0 {
        // hp2ps prints what is under a thousand through an `int` cast.
        return (n as i32).to_string();
    }
    crate::units::thousands(n as u64)
}

/// `strlen`: the length up to the first NUL.
pub fn c_len(s: &[u8]) -> usize {
    s.iter().position(|&b| b == 0).unwrap_or(s.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_follow_hp2ps_s_table() {
        // The spec's worked example: "gamma" is 3+3+5+5+3 = 19 units.
        assert_eq!(string_size(b"gamma"), 19.0 * FUDGE);
        // hp2ps's basic.ps draws the x axis 531.685036 long: 593 minus this key width.
        assert_eq!(
            format!("{:.6}", 593.0 - (string_size(b"gamma") + 29.0)),
            "531.685036"
        );
        assert_eq!(string_size(b"I"), FUDGE);
        assert_eq!(string_size(b"W"), 5.0 * FUDGE);
        assert_eq!(string_size(b"~"), 2.0 * FUDGE);
        assert_eq!(string_size(b"0123456789"), 40.0 * FUDGE);
        assert_eq!(
            string_size(b"ijlmrt"),
            (1 + 2 + 1 + 5 + 2 + 2) as f64 * FUDGE
        );
        assert_eq!(string_size(b"!\"',.:;^`|"), 10.0 * FUDGE);
        assert_eq!(string_size(b"*?[]{}~"), 14.0 * FUDGE);
    }

    #[test]
    fn non_ascii_bytes_count_zero_and_nul_ends_the_string() {
        assert_eq!(string_size("é".as_bytes()), 0.0);
        assert_eq!(string_size(b"ab\0cd"), string_size(b"ab"));
    }

    #[test]
    fn fudge_is_the_double_product() {
        assert_eq!(FUDGE, 1.7007876000000002);
    }

    #[test]
    fn comma_groups_thousands() {
        assert_eq!(comma(0), "0");
        assert_eq!(comma(999), "999");
        assert_eq!(comma(1000), "1,000");
        assert_eq!(comma(3150), "3,150");
        assert_eq!(comma(1_000_005), "1,000,005");
        assert_eq!(comma(12_345_678_901), "12,345,678,901");
    }
}
