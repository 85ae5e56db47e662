//! Properties over generated profiles: whatever the names, header strings, values and
//! options, rendering succeeds, the PostScript is well-formed (every string literal
//! closed, no stray parenthesis, header comments one line each), the SVG is well-formed
//! XML and a PDF is written. Inputs that once broke
//! something (fixtures/fuzz-regressions, found by `cargo fuzz`) are checked the same way,
//! and also fed to the parser in two pieces at every cut, which must change nothing.

use crate::common;

use hpgraph::backend::{
    Backend,
    pdf::Pdf,
    ps::PostScript,
    svg::{Svg, TextAs},
};
use hpgraph::input::hp::{Parser, parse};
use hpgraph::layout::{KeyPlacement, LayoutOptions, TitleSize};
use hpgraph::scene::{Media, Orientation};
use hpgraph::select::{NameOrder, SelectOptions};
use proptest::prelude::*;

/// Checks PostScript's lexical structure: string literals (with `\` escapes and nested
/// parentheses) close, no `)` appears outside one, and `%` comments stay on their line.
fn well_formed_postscript(ps: &[u8]) -> Result<(), String> {
    let mut i = 0;
    let mut line = 1;
    while i < ps.len() {
        match ps[i] {
            b'\n' => line += 1,
            b'%' => {
                while i < ps.len() && ps[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b')' => return Err(format!("line {line}: ')' outside a string")),
            b'(' => {
                let mut depth = 1;
                i += 1;
                while depth > 0 {
                    match ps.get(i) {
                        None => return Err(format!("line {line}: string not closed")),
                        Some(b'\\') => i += 1,
                        Some(b'(') => depth += 1,
                        Some(b')') => depth -= 1,
                        Some(b'\n') => line += 1,
                        _ => {}
                    }
                    i += 1;
                }
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    let header_end = ps
        .windows(14)
        .position(|w| w == b"%%EndComments\n")
        .ok_or("no %%EndComments")?;
    for l in ps[..header_end].split(|&c| c == b'\n') {
        if !l.is_empty() && !l.starts_with(b"%") {
            return Err(format!(
                "header line is not a comment: {:?}",
                String::from_utf8_lossy(l)
            ));
        }
    }
    Ok(())
}

fn options(bits: u8, limit: usize, threshold: f64) -> (SelectOptions, LayoutOptions) {
    let mut select = SelectOptions::default();
    select.threshold = threshold;
    select.by_deviation = bits & 1 != 0;
    select.by_name = match (bits >> 1) & 3 {
        1 => Some(NameOrder::Ascending),
        2 => Some(NameOrder::Descending),
        _ => None,
    };
    select.band_limit = limit;
    select.shading = if bits & 8 != 0 {
        hpgraph::select::Shading::Colour
    } else {
        hpgraph::select::Shading::Grey
    };
    select.heap_lines = false;
    let mut layout = LayoutOptions::default();
    layout.title = [TitleSize::Auto, TitleSize::Small, TitleSize::Big][usize::from(bits >> 6) % 3];
    layout.key = if bits & 16 != 0 || limit > 20 {
        KeyPlacement::SeparatePages
    } else if limit == 0 {
        KeyPlacement::None
    } else {
        KeyPlacement::Beside
    };
    layout.marks = bits & 32 != 0;
    layout.heap_lines = false;
    layout.palette = Default::default();
    layout.stable_colours = false;
    layout.size = (hpgraph::scene::WIDTH, hpgraph::scene::HEIGHT);
    layout.grow = false;
    layout.font_size = 10.0;
    layout.style = if bits & 128 != 0 {
        hpgraph::layout::Style::Modern
    } else {
        Default::default()
    };
    layout.byte_units = if bits & 64 != 0 {
        hpgraph::units::ByteUnits::Binary
    } else {
        hpgraph::units::ByteUnits::Decimal
    };
    layout.title_text = None;
    layout.min_key_width = 0.0;
    layout.media = Media::new(
        if bits & 4 != 0 {
            Orientation::Portrait
        } else {
            Orientation::Landscape
        },
        (bits & 2 != 0).then_some(400.0),
    );
    layout.paints = None;
    (select, layout)
}

/// Checks that SVG text is well-formed XML as far as profile strings can break it: the
/// `svg` crate's parser reads it through without an error, no `&` starts anything but an
/// entity, and no character outside XML's range appears.
fn well_formed_svg(svg: &[u8]) -> Result<(), String> {
    let text = std::str::from_utf8(svg).map_err(|e| format!("not UTF-8: {e}"))?;
    for event in svg::read(text).map_err(|e| e.to_string())? {
        if let svg::parser::Event::Error(e) = event {
            return Err(e.to_string());
        }
    }
    for (i, _) in text.match_indices('&') {
        let entity = &text.as_bytes()[i..text.len().min(i + 6)];
        if ![&b"&amp;"[..], b"&lt;", b"&gt;", b"&quot;", b"&apos;"]
            .iter()
            .any(|e| entity.starts_with(e))
        {
            return Err(format!(
                "bare & at {i}: {:?}",
                String::from_utf8_lossy(entity)
            ));
        }
    }
    if let Some(c) = text
        .chars()
        .find(|&c| (c as u32) < 0x20 && !"\t\n\r".contains(c))
    {
        return Err(format!(
            "character U+{:04X} is not allowed in XML",
            c as u32
        ));
    }
    Ok(())
}

/// Renders to PostScript, and checks that SVG (text plain and outlined) and PDF render too; panics (failing the
/// property) if anything goes wrong.
fn render(hp: &[u8], bits: u8, limit: usize, threshold: f64) -> Option<Vec<u8>> {
    let parsed = parse(hp).ok()?;
    let (select, layout) = options(bits, limit, threshold);
    let make = hpgraph::engine::View::Graph(hpgraph::engine::Picture::new(
        hpgraph::backend::Format::Ps,
        select,
        layout,
    ));
    let rendered = hpgraph::render(&make, parsed.profile.into(), None);
    let scene = rendered.scene().expect("a picture").clone();
    let mut out = Vec::new();
    PostScript {
        creator: "test",
        encapsulated: false,
    }
    .write(&scene, &mut out)
    .unwrap();
    for text in [
        TextAs::Text,
        TextAs::Outlines,
        TextAs::Raster { dpi: 150.0 },
    ] {
        let mut svg = Vec::new();
        Svg { text }.write(&scene, &mut svg).unwrap();
        well_formed_svg(&svg).unwrap();
    }
    let mut pdf = Vec::new();
    Pdf { compress: true }.write(&scene, &mut pdf).unwrap();
    assert!(pdf.starts_with(b"%PDF-"));
    // HTML without a page's numbers: the picture in a document that runs nothing.
    let mut html = Vec::new();
    hpgraph::backend::Format::Html
        .backend(&Default::default())
        .write(&scene, &mut html)
        .unwrap();
    let html = String::from_utf8(html).unwrap();
    assert!(
        html.contains("<svg") && !html.contains("<script") && html.contains("default-src 'none'")
    );
    Some(out)
}

/// Bytes that are hard on PostScript, XML and PDF: `\ ( ) < > & "`, UTF-8, invalid UTF-8.
fn text() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        Just(b"\\".to_vec()),
        Just(b"(".to_vec()),
        Just(b")".to_vec()),
        Just(b"<&>".to_vec()),
        Just(b"\"".to_vec()),
        Just(" ".as_bytes().to_vec()),
        Just("é→😀".as_bytes().to_vec()),
        Just(vec![0xff, 0xfe]),
        Just(b"%%EOF".to_vec()),
        "[a-zA-Z0-9_.:]{1,6}".prop_map(|s| s.into_bytes()),
    ];
    prop::collection::vec(piece, 1..6).prop_map(|v| v.concat())
}

fn quoted(s: &[u8]) -> Vec<u8> {
    let mut q = vec![b'"'];
    for &c in s {
        q.push(c);
        if c == b'"' {
            q.push(b'"');
        }
    }
    q.push(b'"');
    q
}

prop_compose! {
    fn profile()(
        job in text(), date in text(), units in (text(), text()),
        names in prop::collection::vec(text(), 1..30),
        samples in prop::collection::vec(
            (0u32..3, prop::collection::vec((0usize..30, 0u64..5_000_000), 0..25)), 1..25),
        marks in prop::collection::vec(0u32..30, 0..3),
    ) -> Vec<u8> {
        let mut hp = Vec::new();
        for (k, v) in [(&b"JOB"[..], &job), (b"DATE", &date), (b"SAMPLE_UNIT", &units.0), (b"VALUE_UNIT", &units.1)] {
            hp.extend_from_slice(k);
            hp.push(b' ');
            hp.extend(quoted(v));
            hp.push(b'\n');
        }
        let mut t = 0;
        for (step, points) in samples {
            t += step;
            hp.extend(format!("BEGIN_SAMPLE {t}.{:02}\n", t % 100).bytes());
            for (n, v) in points {
                // Names must not end in blanks or a number to stay one name.
                let mut name = names[n % names.len()].clone();
                name.push(b'x');
                hp.extend(name);
                hp.extend(format!("\t{v}\n").bytes());
            }
            hp.extend(format!("END_SAMPLE {t}.00\n").bytes());
        }
        for m in marks {
            hp.extend(format!("MARK {m}.5\n").bytes());
        }
        hp
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn rendering_any_profile_gives_well_formed_postscript(
        hp in profile(), bits: u8, limit in 0usize..25, threshold in 0.0f64..5.0,
    ) {
        let ps = render(&hp, bits, limit, threshold).expect("generated profiles parse");
        prop_assert!(well_formed_postscript(&ps).is_ok(), "{:?}", well_formed_postscript(&ps));
    }

    #[test]
    fn any_bytes_give_a_picture_or_an_error_never_a_panic(
        bytes in prop::collection::vec(any::<u8>(), 0..2000), bits: u8,
    ) {
        if let Some(ps) = render(&bytes, bits, 20, 1.0) {
            prop_assert!(well_formed_postscript(&ps).is_ok());
        }
    }
}

#[test]
fn fuzzer_findings_stay_fixed() {
    let dir = common::fixtures().join("fuzz-regressions");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let data = std::fs::read(entry.unwrap().path()).unwrap();
        let whole = parse(&data);
        for cut in 0..=data.len() {
            let mut p = Parser::new();
            let pieces = (|| {
                let used = p.feed(&data[..cut], false)?;
                let rest = [&data[used..cut], &data[cut..]].concat();
                p.feed(&rest, true)?;
                p.finish()
            })();
            assert_eq!(whole, pieces, "cut at {cut}");
        }
        for bits in [0, 0x5a, 0xff] {
            if let Some(ps) = render(&data, bits, 20, 1.0) {
                well_formed_postscript(&ps).unwrap();
            }
        }
        n += 1;
    }
    assert!(n > 0);
}

#[test]
fn the_svg_checker_rejects_broken_xml() {
    assert!(well_formed_svg(b"<svg><text>a &amp; b</text></svg>").is_ok());
    assert!(well_formed_svg(b"<svg><text>a & b</text></svg>").is_err());
    assert!(well_formed_svg(b"<svg><text>a \x01 b</text></svg>").is_err());
}

#[test]
fn the_checker_rejects_broken_postscript() {
    assert!(well_formed_postscript(b"%!PS\n%%EndComments\n(a) show\n").is_ok());
    assert!(well_formed_postscript(b"%!PS\n%%EndComments\n(a\\) show\n").is_err());
    assert!(well_formed_postscript(b"%!PS\n%%EndComments\n(a)) show\n").is_err());
    assert!(well_formed_postscript(b"%!PS\n%%Title: a\nb\n%%EndComments\n").is_err());
}
