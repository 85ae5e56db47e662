//! No two bands in one picture share a colour, with any palette: a collision moves the
//! later band to a free one; past the palette, lighter and darker variants. With stable
//! colours a name has its own colour in every picture, whatever else it holds. Measured
//! on the scene's paints (what every backend writes) for every fixture profile, as
//! CIE76 ΔE in Lab.

use std::path::Path;

use hpgraph::layout::paint::Palette;
use hpgraph::scene::{Item, Paint};

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

fn delta_e(a: Paint, b: Paint) -> f64 {
    let (p, q) = (lab(a), lab(b));
    ((p.0 - q.0).powi(2) + (p.1 - q.1).powi(2) + (p.2 - q.2).powi(2)).sqrt()
}

fn band_paints(file: &Path, palette: Palette, stable: bool, limit: usize) -> Vec<(Vec<u8>, Paint)> {
    let profile = hpgraph::input::read_file(
        &std::fs::File::open(file).unwrap(),
        hpgraph::input::Options::default(),
    )
    .unwrap()
    .profile;
    let mut select = hpgraph::select::SelectOptions::default();
    select.band_limit = limit;
    let selection = hpgraph::select::select(profile.series(), None, &select);
    let mut layout = hpgraph::layout::LayoutOptions::default();
    layout.palette = palette;
    layout.stable_colours = stable;
    let scene = hpgraph::layout::layout(profile.into_series(), &selection, &layout);
    scene.pages[0]
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Band(b) => Some((b.name.clone(), b.fill)),
            Item::Area(a) => Some((a.name.clone(), a.fill)),
            _ => None,
        })
        .filter(|(_, p)| *p != hpgraph::scene::OTHER_PAINT)
        .collect()
}

fn fixtures() -> Vec<std::path::PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/profiles");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "hp"))
        .collect();
    files.sort();
    files
}

#[test]
fn no_two_bands_share_a_colour_and_twelve_are_told_apart() {
    let mut checked = 0;
    for file in fixtures() {
        for palette in [Palette::Tableau10, Palette::OkabeIto, Palette::Viridis] {
            {
                let stable = false;
                // Up to 12 bands: every pair at least ΔE 8 apart.
                let few = band_paints(&file, palette, stable, 12);
                for (i, (n, a)) in few.iter().enumerate() {
                    for (m, b) in &few[i + 1..] {
                        let d = delta_e(*a, *b);
                        assert!(
                            d >= 8.0,
                            "{} {palette:?} stable={stable}: {} and {} are ΔE {d:.1} apart",
                            file.display(),
                            String::from_utf8_lossy(n),
                            String::from_utf8_lossy(m)
                        );
                        checked += 1;
                    }
                }
                // Twenty bands (past every palette's size): still no two the same; in
                // tableau10, the modern style's default, every pair ΔE 12 apart and
                // apart from OTHER's grey too.
                let many = band_paints(&file, palette, stable, 20);
                if palette == Palette::Tableau10 {
                    let other = hpgraph::scene::OTHER_PAINT;
                    for (i, (n, a)) in many.iter().enumerate() {
                        for (m, b) in many[i + 1..].iter().chain([&(b"OTHER".to_vec(), other)]) {
                            let d = delta_e(*a, *b);
                            assert!(
                                d >= 12.0,
                                "{}: {} and {} are ΔE {d:.1} apart",
                                file.display(),
                                String::from_utf8_lossy(n),
                                String::from_utf8_lossy(m)
                            );
                        }
                    }
                }
                for (i, (n, a)) in many.iter().enumerate() {
                    assert!(
                        many[i + 1..].iter().all(|(_, b)| b != a),
                        "{} {palette:?} stable={stable}: {} shares its colour",
                        file.display(),
                        String::from_utf8_lossy(n)
                    );
                }
            }
        }
    }
    assert!(checked > 1000, "{checked}");
}

#[test]
fn a_stable_colour_is_its_names_in_every_picture() {
    // Every name has one fill whatever else the picture holds: in pictures of 3, 12 and
    // 20 bands of one profile, and in every profile that has it (the closure types of
    // the -hT fixtures, the cost centres several -hc runs share).
    let mut seen: std::collections::HashMap<(Vec<u8>, &str), (Paint, String)> = Default::default();
    let mut compared = 0;
    for file in fixtures() {
        for (palette, label) in [
            (Palette::Tableau10, "tableau10"),
            (Palette::OkabeIto, "okabe-ito"),
            (Palette::Hp2ps, "hp2ps"),
        ] {
            for limit in [3, 12, 20] {
                for (name, paint) in band_paints(&file, palette, true, limit) {
                    let here = format!("{} -m{limit}", file.display());
                    match seen.get(&(name.clone(), label)) {
                        Some((before, there)) => {
                            assert_eq!(
                                *before,
                                paint,
                                "{label}: {} is {before:?} in {there} and {paint:?} in {here}",
                                String::from_utf8_lossy(&name)
                            );
                            compared += 1;
                        }
                        None => {
                            seen.insert((name, label), (paint, here));
                        }
                    }
                }
            }
        }
    }
    assert!(compared > 500, "{compared}");
}
