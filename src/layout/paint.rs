//! Turning a band's shade into a paint.

use crate::scene::Paint;

/// The paint of a shade: a grey level, or with colour on, hp2ps's packed RGB decoded as
/// hp2ps decodes it. Its truncating arithmetic is kept: it turns the 15th colour
/// (0.051000) into (0.5, 0.9, 0) rather than (0.5, 1, 0).
pub fn paint(shade: f64, colour: bool) -> Paint {
    if !colour {
        return Paint::Gray(shade);
    }
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
            assert_eq!(paint(*shade, true), Paint::Rgb(r, g, b), "shade {shade}");
        }
    }

    #[test]
    fn mono_is_the_grey_level() {
        assert_eq!(paint(0.6, false), Paint::Gray(0.6));
    }
}
