//! The whole pipeline never panics: read (a .hp or an eventlog), select with options the fuzzer picks, lay out,
//! check that every coordinate is finite (a `nan` is valid Rust and broken PostScript),
//! write PostScript, SVG and PDF for every input, write the .aux file and read it back for
//! a second run with -p. The PDF's streams are left uncompressed: deflate, under coverage
//! instrumentation, cost a hundred times the rest of the pipeline, and since inputs that
//! reach it bring new coverage the fuzzer kept choosing them (the property tests write
//! compressed PDFs).
#![no_main]

use hpgraph::backend::Format;
use hpgraph::backend::{
    Backend,
    pdf::Pdf,
    ps::PostScript,
    svg::{Svg, TextAs},
};
use hpgraph::engine::{Picture, View};
use hpgraph::layout::{KeyPlacement, LayoutOptions, TitleSize};
use hpgraph::scene::{Item, Media, Orientation, Point, Scene};
use hpgraph::select::{NameOrder, SelectOptions, Shading, aux as auxfile};
use hpgraph::units::ByteUnits;
use hpgraph::{input, render};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() < 4 {
        return;
    }
    let (opts, input) = data.split_at(4);
    let Ok(parsed) = input::parse(input) else {
        return;
    };
    let flags = opts[0];
    let band_limit = usize::from(opts[1] % 30);
    let mut select = SelectOptions::default();
    select.threshold = f64::from(opts[2] % 51) / 10.0;
    select.by_deviation = flags & 1 != 0;
    select.by_name = match (flags >> 1) & 3 {
        1 => Some(NameOrder::Ascending),
        2 => Some(NameOrder::Descending),
        _ => None,
    };
    select.band_limit = band_limit;
    select.shading = if flags & 8 != 0 {
        Shading::Colour
    } else {
        Shading::Grey
    };
    select.heap_lines = flags & 128 != 0;
    let mut layout = LayoutOptions::default();
    layout.title = match opts[3] % 3 {
        0 => TitleSize::Auto,
        1 => TitleSize::Small,
        _ => TitleSize::Big,
    };
    layout.key = if flags & 16 != 0 || band_limit > 20 {
        KeyPlacement::SeparatePages
    } else if band_limit == 0 {
        KeyPlacement::None
    } else {
        KeyPlacement::Beside
    };
    layout.marks = flags & 32 != 0;
    layout.heap_lines = flags & 128 != 0;
    layout.palette = hpgraph::layout::paint::Palette::NAMES[usize::from(opts[3] / 3) % 5].1;
    layout.stable_colours = (opts[3] / 15) & 1 != 0;
    // Sizes from small to large, the default among them.
    layout.size = [
        (648.0, 432.0),
        (226.77, 141.73),
        (200.0, 600.0),
        (1200.0, 300.0),
    ][usize::from(opts[3] / 30) % 4];
    // Only a flame graph grows, and this target draws none.
    layout.grow = false;
    // Text from small to large, hp2ps's 10 pt most often.
    layout.font_size = [10.0, 10.0, 4.0, 7.5, 16.0, 72.0][usize::from(opts[1] & 7) % 6];
    layout.style = if opts[2] & 128 != 0 {
        hpgraph::layout::Style::Modern
    } else {
        hpgraph::layout::Style::Hp2ps
    };
    layout.byte_units = if opts[1] & 128 != 0 {
        ByteUnits::Binary
    } else {
        ByteUnits::Decimal
    };
    layout.title_text = None;
    layout.min_key_width = 0.0;
    layout.media = Media::new(
        if flags & 64 != 0 {
            Orientation::Portrait
        } else {
            Orientation::Landscape
        },
        (flags & 128 != 0).then_some(145.0 + f64::from(opts[3]) * 4.0),
    );
    layout.paints = None;
    let make = View::Graph(Picture::new(Format::Ps, select, layout));
    let rendered = render(&make, parsed.profile.clone(), None);
    let (Some(selection), Some(scene)) = (rendered.selection(), rendered.scene()) else {
        panic!("a picture has a selection and a scene");
    };
    assert!(finite(&scene), "every coordinate is a number");
    let mut ps = Vec::new();
    PostScript {
        creator: "fuzz",
        encapsulated: false,
    }
    .write(scene, &mut ps)
    .unwrap();
    let _ = hpgraph::backend::ps::repairs(scene);
    for text in [
        TextAs::Text,
        TextAs::Outlines,
        TextAs::Raster { dpi: 150.0 },
    ] {
        Svg { text }.write(scene, &mut Vec::new()).unwrap();
    }
    Pdf { compress: false }
        .write(scene, &mut Vec::new())
        .unwrap();
    let mut aux = Vec::new();
    auxfile::write(selection, &mut aux).unwrap();
    let aux = auxfile::parse(&aux).expect("hpgraph reads back the .aux it writes");
    let again = render(&make, parsed.profile, Some(&aux));
    PostScript {
        creator: "fuzz",
        encapsulated: false,
    }
    .write(again.scene().expect("a picture"), &mut Vec::new())
    .unwrap();
});

/// No `nan` or infinity anywhere a backend would write a number.
fn finite(scene: &Scene) -> bool {
    let ok = |p: &Point| p.x.is_finite() && p.y.is_finite();
    scene
        .pages
        .iter()
        .flat_map(|p| &p.items)
        .all(|item| match item {
            Item::Path(p) => ok(&p.start) && p.steps.iter().all(ok),
            Item::Band(b) => b.outline().all(|p| ok(&p)),
            Item::Area(a) => a.outline.iter().all(ok),
            Item::Text(t) => ok(&t.at),
        })
}
