//! PDF: the scene as pages with selectable text in an embedded font.
//!
//! Paper submission systems reject PDFs whose fonts are not embedded, so the text is set
//! in the embedded Helvetica ([`super::font`]), cut to the glyphs the figure uses, and
//! the PDF and the EPS of a figure agree in shapes as well as widths. Centred and
//! right-aligned labels are placed with the font's widths, so they sit where
//! PostScript's `stringwidth` puts them. Each scene page is a PDF page of the
//! drawing's size (scaled to `-e`'s width when given). No clock goes into the file: the
//! same scene gives the same bytes.

use std::io::{self, Write};

use printpdf::{
    Color, FontId, Greyscale, Line, LineJoinStyle, LinePoint, Mm, Op, PaintMode, ParsedFont,
    PdfDocument, PdfFontHandle, PdfPage, PdfSaveOptions, Point as PdfPoint, Polygon, PolygonRing,
    Pt, Rgb, TextItem, TextMatrix, WindingOrder,
};

use super::svg::xml_text;
use crate::scene::{Item, Paint, Point, Scene, Text};

/// PDF output.
pub struct Pdf {
    /// Deflate the streams (font and page contents). Always on for files people keep; the
    /// fuzz target turns it off because compression, under coverage instrumentation, costs
    /// a hundred times the rest of the pipeline and is not our code.
    pub compress: bool,
}

impl super::Backend for Pdf {
    fn write(&self, scene: &Scene, out: &mut dyn Write) -> io::Result<()> {
        out.write_all(&document(scene, self.compress)?)
    }
}

fn colour(p: Paint) -> Color {
    match p {
        Paint::Gray(g) => Color::Greyscale(Greyscale {
            percent: g as f32,
            icc_profile: None,
        }),
        Paint::Rgb(r, g, b) => Color::Rgb(Rgb {
            r: r as f32,
            g: g as f32,
            b: b as f32,
            icc_profile: None,
        }),
    }
}

/// A drawing-box point on the page, scaled.
fn pt(p: Point, scale: f64) -> PdfPoint {
    PdfPoint {
        x: Pt((p.x * scale) as f32),
        y: Pt((p.y * scale) as f32),
    }
}

fn shape(
    points: impl Iterator<Item = Point>,
    closed: bool,
    fill: Option<Paint>,
    stroke: Paint,
    width: f64,
    scale: f64,
) -> Vec<Op> {
    let points: Vec<LinePoint> = points
        .map(|p| LinePoint {
            p: pt(p, scale),
            bezier: false,
        })
        .collect();
    let mut ops = vec![
        Op::SetOutlineColor {
            col: colour(stroke),
        },
        Op::SetOutlineThickness {
            pt: Pt((width * scale) as f32),
        },
    ];
    match fill {
        Some(f) => {
            ops.push(Op::SetFillColor { col: colour(f) });
            ops.push(Op::DrawPolygon {
                polygon: Polygon {
                    rings: vec![PolygonRing { points }],
                    // A width of 0 is no outline (as in the SVG and PostScript), not
                    // PDF's thinnest line a device can draw: the strips' bars had
                    // black hairlines round them.
                    mode: if width > 0.0 {
                        PaintMode::FillStroke
                    } else {
                        PaintMode::Fill
                    },
                    winding_order: WindingOrder::NonZero,
                },
            });
        }
        None => ops.push(Op::DrawLine {
            line: Line {
                points,
                is_closed: closed,
            },
        }),
    }
    ops
}

fn text(t: &Text, font: &FontId, scale: f64, font_size: f64) -> Vec<Op> {
    let s = xml_text(&t.text);
    let size = t.size.points_at(font_size);
    let back = t.anchor.back(super::font::Font::get().width(&s, size));
    // Along the baseline: to the right, or upwards for vertical text.
    let (x, y, angle) = if t.vertical {
        (t.at.x, t.at.y - back, 90.0)
    } else {
        (t.at.x - back, t.at.y, 0.0)
    };
    let origin = pt(Point::new(x, y), scale);
    vec![
        Op::StartTextSection,
        Op::SetFillColor { col: colour(t.ink) },
        Op::SetFont {
            font: PdfFontHandle::External(font.clone()),
            size: Pt((size * scale) as f32),
        },
        Op::SetTextMatrix {
            matrix: TextMatrix::TranslateRotate(origin.x, origin.y, angle),
        },
        Op::ShowText {
            items: vec![TextItem::Text(s)],
        },
        Op::EndTextSection,
    ]
}

/// The embedded font's PostScript name.
const FONT_NAME: &str = "TeXGyreHeros-Regular";

/// The embedded font cut down to the glyphs `scene`'s text uses (and `.notdef`), with a
/// Unicode `cmap` for them: a figure's PDF then carries a few kB of font rather than the
/// whole 134 kB file. printpdf subsets only with its text-layout feature, which brings a
/// layout engine and the system's font configuration along; allsorts (its own font
/// library) does the cutting here. The whole font if cutting fails.
///
/// With the font, the name the PDF gives it: a cut font's name carries a tag of six
/// capitals and `+` (ISO 32000-1, 9.6.4), which preflight tools and `pdffonts` read as
/// "subset"; the tag follows from the glyphs kept, so the same figure gives the same
/// bytes.
fn font_for(scene: &Scene) -> (Vec<u8>, String) {
    use allsorts::binary::read::ReadScope;
    use allsorts::font_data::FontData;
    use allsorts::subset::{CmapTarget, SubsetProfile, subset};
    use std::collections::BTreeSet;

    let font = super::font::Font::get();
    let mut ids = BTreeSet::from([0u16]);
    for item in scene.pages.iter().flat_map(|page| &page.items) {
        if let Item::Text(t) = item {
            ids.extend(
                xml_text(&t.text)
                    .chars()
                    .filter_map(|c| u16::try_from(font.glyph(c).id).ok()),
            );
        }
    }
    let ids: Vec<u16> = ids.into_iter().collect();
    let cut = ReadScope::new(super::font::FONT)
        .read::<FontData<'_>>()
        .ok()
        .and_then(|data| data.table_provider(0).ok())
        .and_then(|provider| {
            subset(
                &provider,
                &ids,
                &SubsetProfile::Minimal,
                CmapTarget::Unicode,
            )
            .ok()
        });
    match cut {
        Some(bytes) => {
            // FNV-1a over the glyph ids, spelt in base 26.
            let mut hash = ids.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, id| {
                (h ^ u64::from(*id)).wrapping_mul(0x0100_0000_01b3)
            });
            let tag: String = (0..6)
                .map(|_| {
                    let letter = char::from(b'A' + (hash % 26) as u8);
                    hash /= 26;
                    letter
                })
                .collect();
            (bytes, format!("{tag}+{FONT_NAME}"))
        }
        None => (super::font::FONT.to_vec(), FONT_NAME.to_string()),
    }
}

/// The PDF bytes of a scene.
pub fn document(scene: &Scene, compress: bool) -> io::Result<Vec<u8>> {
    let scale = scene.scale();
    let mut doc = PdfDocument::new(&xml_text(&scene.title));
    let (font, name) = font_for(scene);
    let mut parsed = ParsedFont::from_bytes(&font, 0, &mut Vec::new())
        .ok_or_else(|| io::Error::other("the embedded font cannot be read"))?;
    parsed.font_name = Some(name);
    let id = doc.add_font(&parsed);
    let width = Mm::from(Pt((scene.width * scale) as f32));
    let height = Mm::from(Pt((scene.height * scale) as f32));
    let pages = scene
        .pages
        .iter()
        .map(|page| {
            let mut ops = Vec::new();
            for item in &page.items {
                match item {
                    Item::Path(p) => {
                        let mut pos = p.start;
                        let points = std::iter::once(p.start).chain(p.steps.iter().map(|s| {
                            pos = Point::new(pos.x + s.x, pos.y + s.y);
                            pos
                        }));
                        let round = p.role.join() == crate::scene::Join::Round;
                        if round {
                            ops.push(Op::SetLineJoinStyle {
                                join: LineJoinStyle::Round,
                            });
                        }
                        ops.extend(shape(
                            points,
                            p.closed,
                            p.fill,
                            p.stroke,
                            p.line_width,
                            scale,
                        ));
                        if round {
                            ops.push(Op::SetLineJoinStyle {
                                join: LineJoinStyle::Miter,
                            });
                        }
                    }
                    Item::Band(b) => ops.extend(shape(
                        b.outline(),
                        true,
                        Some(b.fill),
                        b.stroke,
                        b.line_width,
                        scale,
                    )),
                    Item::Area(a) => ops.extend(shape(
                        a.outline.iter().copied(),
                        true,
                        Some(a.fill),
                        a.stroke,
                        a.line_width,
                        scale,
                    )),
                    Item::Text(t) => ops.extend(text(t, &id, scale, scene.font_size)),
                }
            }
            PdfPage::new(width, height, ops)
        })
        .collect();
    let opts = PdfSaveOptions {
        optimize: compress,
        subset_fonts: true,
        ..Default::default()
    };
    Ok(doc.with_pages(pages).save(&opts, &mut Vec::new()))
}
