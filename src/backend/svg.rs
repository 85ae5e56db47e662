//! SVG: the scene as an upright picture.
//!
//! One `<g>` per page, stacked top to bottom; a `viewBox` in points so that the picture
//! scales, and a width and height in points (scaled to `-e`'s width when given).
//!
//! Text is real text by default: small, selectable, editable, and drawn by every viewer in
//! the font it has for Helvetica. Each glyph is placed where PostScript's `show` puts it
//! (a `<tspan x>` from the second glyph on, a space riding with the glyph before it):
//! librsvg rounds every glyph's advance to a whole device unit, a point when it converts
//! to PDF, so a 50-character key label set from one `x` ended two points short of the
//! EPS's. A stand-in font narrower or wider than Helvetica then still starts each glyph
//! where Helvetica's would start. With
//! [`TextAs::Outlines`] the text is drawn as the embedded font's glyph outlines instead
//! (each glyph defined once, then placed with `<use>`, as matplotlib does): the same
//! picture in every viewer, as publishers that ask for outlined fonts want, and what the
//! PNG is rasterised from. Each string is then also kept as invisible `<text>` over its
//! glyphs, so that it can still be selected, searched and read by a screen reader.
//!
//! Strings from the profile are turned into valid XML text: invalid UTF-8 becomes
//! U+FFFD, as do control characters XML does not allow; the `svg` crate escapes `&`,
//! `<`, `>` and quotes.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{self, Write};

use svg::Document;
use svg::node::Blob;
use svg::node::element::path::Data;
use svg::node::element::{Definitions, Group, Path as SvgPath, Text as SvgText, Title, Use};

use super::font::{Font, Glyph};
use crate::scene::{Anchor, Item, Paint, Point, Scene, Text};

/// Helvetica first (the font PostScript viewers use), then its clones (Ghostscript's Nimbus
/// Sans, the PDF's TeX Gyre Heros), then fonts with its widths.
pub const FONT_FAMILY: &str =
    "Helvetica, \"Nimbus Sans\", \"TeX Gyre Heros\", Arial, \"Liberation Sans\", sans-serif";

/// SVG output.
pub struct Svg {
    /// How text is drawn.
    pub text: TextAs,
}

/// How an SVG figure's text is drawn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TextAs {
    /// `<text>` in the viewer's Helvetica or a stand-in, each glyph placed by Helvetica's widths.
    Text,
    /// The embedded font's glyph outlines, with invisible `<text>` over them.
    Outlines,
    /// The embedded font's glyph outlines for a raster image at `dpi` dots to the inch:
    /// each glyph's origin on the pixel grid, as font rasterisers place glyphs, so that
    /// every letter is drawn alike and sharp. What the PNG is drawn from.
    Raster {
        /// Pixels to the inch.
        dpi: f64,
    },
}

impl super::Backend for Svg {
    fn write(&self, scene: &Scene, out: &mut dyn Write) -> io::Result<()> {
        write!(out, "{}", document(scene, self.text))
    }
}

/// Profile bytes as XML text.
pub fn xml_text(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for c in String::from_utf8_lossy(bytes).chars() {
        match c {
            '\t' | '\n' | '\r' => out.push(' '),
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => out.push('\u{fffd}'),
            // Shown, not obeyed, as in every markup hpgraph writes (`escape::html`).
            c if crate::escape::is_bidi(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

pub(crate) fn colour(p: Paint) -> String {
    let byte = |v: f64| (v.clamp(0.0, 1.0) * 255.0).round() as u8;
    let (r, g, b) = match p {
        Paint::Gray(v) => (byte(v), byte(v), byte(v)),
        Paint::Rgb(r, g, b) => (byte(r), byte(g), byte(b)),
    };
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// A page's point in SVG coordinates: y grows downwards and pages are stacked; `bottom`
/// is the page's lower edge in SVG coordinates (its top plus its height).
fn at(p: Point, bottom: f64) -> (f32, f32) {
    (p.x as f32, (bottom - p.y) as f32)
}

fn shape(points: impl Iterator<Item = Point>, closed: bool, bottom: f64) -> Data {
    let mut data = Data::new();
    for (k, p) in points.enumerate() {
        let (x, y) = at(p, bottom);
        data = if k == 0 {
            data.move_to((x, y))
        } else {
            data.line_to((x, y))
        };
    }
    if closed { data.close() } else { data }
}

/// A closed outline as path data in relative steps to a hundredth of a point: the
/// shortest text that keeps what any screen or printer shows of an area. The steps are
/// taken between the rounded points, so rounding never adds up along the outline.
fn compact_shape(points: &[Point], bottom: f64) -> String {
    use std::fmt::Write;
    let round = |p: Point| {
        let (x, y) = at(p, bottom);
        (
            (f64::from(x) * 100.0).round() as i64,
            (f64::from(y) * 100.0).round() as i64,
        )
    };
    let mut d = String::with_capacity(points.len() * 10);
    let mut prev = (0, 0);
    for (k, &p) in points.iter().enumerate() {
        let (x, y) = round(p);
        if k == 0 {
            let _ = write!(d, "M{}", hundredths(x));
            d.push(if y < 0 { '-' } else { ' ' });
            d.push_str(&hundredths(y.abs()));
            d.push('l');
        } else {
            let (dx, dy) = (x - prev.0, y - prev.1);
            if dx == 0 && dy == 0 {
                continue;
            }
            if dx >= 0 && !d.ends_with('l') {
                d.push(' ');
            }
            if dx < 0 {
                d.push('-');
            }
            d.push_str(&hundredths(dx.abs()));
            d.push(if dy < 0 { '-' } else { ' ' });
            d.push_str(&hundredths(dy.abs()));
        }
        prev = (x, y);
    }
    d.push('z');
    d
}

/// A non-negative number of hundredths as the shortest decimal: `1.5`, `.25`, `3`.
fn hundredths(v: i64) -> String {
    let (whole, frac) = (v / 100, v % 100);
    let mut s = if whole == 0 && frac != 0 {
        String::new()
    } else {
        whole.to_string()
    };
    if frac != 0 {
        let f = format!(".{frac:02}");
        s.push_str(f.trim_end_matches('0'));
    }
    s
}

fn text(t: &Text, bottom: f64, font_size: f64) -> SvgText {
    let (x, y) = at(t.at, bottom);
    let anchor = match t.anchor {
        Anchor::Start => "start",
        Anchor::Middle => "middle",
        Anchor::End => "end",
    };
    let mut e = SvgText::new(xml_text(&t.text))
        .set("x", x)
        .set("y", y)
        .set("font-size", t.size.points_at(font_size))
        .set("xml:space", "preserve")
        .set("text-anchor", anchor);
    if t.vertical {
        e = e.set("transform", format!("rotate(-90 {x} {y})"));
    }
    e
}

/// A string as PostScript's `show` sets it: from where its anchor and its whole width
/// put the start, each glyph after the one before by the font's advance, unkerned.
struct Shown {
    text: String,
    size: f64,
    width: f64,
    /// Where the first glyph starts, in points along the baseline.
    start: f64,
    /// Each character, its glyph and where it starts, in font units from `start`.
    glyphs: Vec<(char, Glyph, f64)>,
}

fn shown(t: &Text, bottom: f64, font_size: f64) -> Shown {
    let font = Font::get();
    let text = xml_text(&t.text);
    let size = t.size.points_at(font_size);
    let width = font.width(&text, size);
    let (x, _) = at(t.at, bottom);
    let mut pen = 0.0;
    let glyphs = text
        .chars()
        .map(|c| {
            let glyph = font.glyph(c);
            pen += glyph.advance;
            (c, glyph, pen - glyph.advance)
        })
        .collect();
    Shown {
        start: round3(f64::from(x) - t.anchor.back(width)),
        text,
        size,
        width,
        glyphs,
    }
}

/// `t` with each glyph where PostScript's `show` puts it. The first glyph is placed by
/// the text's own `x`, every later one but a space by a `<tspan x>`.
fn placed(t: &Text, bottom: f64, font_size: f64) -> SvgText {
    let shown = shown(t, bottom, font_size);
    let points = shown.size / Font::get().units_per_em();
    let mut body = String::with_capacity(shown.text.len() * 24);
    let mut open = false;
    for (k, &(c, _, offset)) in shown.glyphs.iter().enumerate() {
        if k > 0 && c != ' ' {
            if open {
                body.push_str("</tspan>");
            }
            let _ = write!(
                body,
                "<tspan x=\"{}\">",
                round3(shown.start + offset * points)
            );
            open = true;
        }
        crate::escape::html_into(&mut body, c.encode_utf8(&mut [0; 4]));
    }
    if open {
        body.push_str("</tspan>");
    }
    let mut e = text(t, bottom, font_size)
        .set("x", shown.start)
        .set("text-anchor", "start");
    e.get_children_mut().clear();
    e.add(Blob::new(body))
}

/// A length to a thousandth of a point, printed without trailing digits of noise.
fn round3(v: f64) -> f64 {
    (v * 1000.0).round() / 1000.0
}

/// The document id of a glyph's definition.
fn glyph_id(glyph: u32) -> String {
    format!("hpg{glyph}")
}

/// The glyph outlines a document uses, by glyph id: each is defined once, in `<defs>`.
#[derive(Default)]
struct Glyphs {
    outlines: BTreeMap<u32, String>,
}

impl Glyphs {
    /// The id a glyph's definition gets; `None` for a glyph that draws nothing (a space).
    fn define(&mut self, id: u32) -> Option<String> {
        let d = self
            .outlines
            .entry(id)
            .or_insert_with(|| Font::get().outline(id));
        (!d.is_empty()).then(|| glyph_id(id))
    }

    fn definitions(&self) -> Definitions {
        self.outlines
            .iter()
            .filter(|(_, d)| !d.is_empty())
            .fold(Definitions::new(), |defs, (id, d)| {
                defs.add(SvgPath::new().set("id", glyph_id(*id)).set("d", d.as_str()))
            })
    }
}

/// `t` drawn as glyph outlines placed along its baseline, unkerned, from where its
/// anchor and the font's advance widths put its start (as PostScript's `stringwidth`
/// does); and the invisible text over it.
fn outlined(t: &Text, bottom: f64, font_size: f64, glyphs: &mut Glyphs) -> (Group, SvgText) {
    let shown = shown(t, bottom, font_size);
    let (x, y) = at(t.at, bottom);
    let mut transform = String::new();
    if t.vertical {
        transform = format!("rotate(-90 {x} {y}) ");
    }
    let scale = (shown.size / Font::get().units_per_em() * 1e6).round() / 1e6;
    transform.push_str(&format!("translate({} {y}) scale({scale})", shown.start));
    let mut g = Group::new().set("transform", transform);
    for &(_, glyph, offset) in &shown.glyphs {
        if let Some(id) = glyphs.define(glyph.id) {
            let mut u = Use::new().set("xlink:href", format!("#{id}"));
            if offset != 0.0 {
                u = u.set("x", round3(offset));
            }
            g = g.add(u);
        }
    }
    let hidden = text(t, bottom, font_size)
        .set("fill", "none")
        .set("stroke", "none")
        .set("textLength", round3(shown.width))
        .set("lengthAdjust", "spacingAndGlyphs");
    (g, hidden)
}

/// `t`'s glyphs for a raster image with `px` user units to the pixel: each glyph's
/// origin, where PostScript's `show` puts it, moved to the nearest pixel corner. A
/// glyph then covers the same pixels wherever it stands, and its stems and baseline
/// are not smeared over two pixels by where they happen to fall; Ghostscript draws the
/// EPS so (its glyph cache places bitmaps at whole pixels), and text drawn at
/// sub-pixel positions differed from its rendering in ten times as many places.
fn rastered(t: &Text, bottom: f64, font_size: f64, px: f64, glyphs: &mut Glyphs) -> Group {
    let shown = shown(t, bottom, font_size);
    let units = shown.size / Font::get().units_per_em();
    let scale = (units * 1e6).round() / 1e6;
    let (x, y) = at(t.at, bottom);
    let (x, y) = (f64::from(x), f64::from(y));
    let snap = |v: f64| round3((v / px).round() * px);
    let mut g = Group::new();
    for &(_, glyph, offset) in &shown.glyphs {
        let Some(id) = glyphs.define(glyph.id) else {
            continue;
        };
        let along = shown.start + offset * units;
        // Vertical text is turned a quarter left about its anchor: its baseline runs
        // up from there.
        let place = if t.vertical {
            format!(
                "translate({} {}) rotate(-90)",
                snap(x),
                snap(y - (along - x))
            )
        } else {
            format!("translate({} {})", snap(along), snap(y))
        };
        g = g.add(
            Use::new()
                .set("xlink:href", format!("#{id}"))
                .set("transform", format!("{place} scale({scale})")),
        );
    }
    g
}

/// The SVG document of a scene, as a figure on its own.
pub fn document(scene: &Scene, text: TextAs) -> String {
    tight_text(&tree(scene, false, text).to_string())
}

/// The SVG picture of the HTML page: plain text (the page's script rewrites its labels),
/// and every item given a `class` saying what it is and every band a `data-band`
/// attribute with its full name, for the page's script.
pub fn page_picture(scene: &Scene) -> String {
    tight_text(&tree(scene, true, TextAs::Text).to_string())
}

/// The class an item gets in an annotated document, for a script to find it by.
fn class_of(item: &Item) -> &'static str {
    use crate::scene::{PathRole, TextRole};
    match item {
        Item::Band(_) | Item::Area(_) => "band",
        Item::Path(p) => match p.role {
            PathRole::Tick => "tick",
            PathRole::Mark => "mark",
            PathRole::HeapLine => "heap-line",
            PathRole::Collection => "collection",
            PathRole::Capability => "capability",
            PathRole::FlameFrame => "flame-frame",
            PathRole::SampleBar => "sample",
            PathRole::Unobserved => "unobserved",
            PathRole::Axis => "axis",
            PathRole::KeySwatch => "key-swatch",
            PathRole::Frame | PathRole::TitleBox | PathRole::TitleRule => "frame",
        },
        Item::Text(t) => match t.role {
            TextRole::TickLabel => "tick-label",
            TextRole::HeapLineLabel => "heap-line",
            TextRole::PanelLabel => "panel-label",
            TextRole::KeyLabel => "key-label",
            TextRole::Caption => "caption",
            TextRole::FrameLabel => "frame-label",
            TextRole::UnobservedLabel => "unobserved",
            TextRole::AxisLegend => "axis-legend",
            TextRole::Title | TextRole::Area | TextRole::Date => "title",
        },
    }
}

/// Text is set with `xml:space="preserve"`, so that spaces count as in PostScript (the
/// date's `Jan  1` keeps both); the svg crate writes an element's text on a line of its
/// own, and those line breaks would then be spaces too. They are taken out here. Text
/// holds no `<` (the crate escapes it), so the first `</text>` after an opening tag is
/// its end.
fn tight_text(xml: &str) -> String {
    let mut out = String::with_capacity(xml.len());
    let mut rest = xml;
    while let Some(at) = rest.find("<text ") {
        let (before, from) = rest.split_at(at);
        out.push_str(before);
        let (Some(open), Some(close)) = (from.find('>'), from.find("</text>")) else {
            rest = from;
            break;
        };
        out.push_str(&from[..=open]);
        let body = &from[open + 1..close];
        let body = body.strip_prefix('\n').unwrap_or(body);
        out.push_str(body.strip_suffix('\n').unwrap_or(body));
        out.push_str("</text>");
        rest = &from[close + "</text>".len()..];
    }
    out.push_str(rest);
    out
}

fn tree(scene: &Scene, annotate: bool, text_as: TextAs) -> Document {
    let mut glyphs = Glyphs::default();
    let mut groups = Vec::new();
    let height = scene.height;
    for (k, page) in scene.pages.iter().enumerate() {
        let bottom = (k + 1) as f64 * height;
        let mut g = Group::new()
            .set("stroke", "black")
            .set("stroke-width", 0.5)
            .add(background(scene.width, height, bottom));
        for item in &page.items {
            let before = g.get_children().len();
            g = add_item(g, item, scene, bottom, text_as, annotate, &mut glyphs);
            if annotate && g.get_children().len() > before {
                g = annotated(g, item);
            }
        }
        groups.push(g);
    }
    let mut doc = root(scene);
    if text_as != TextAs::Text {
        doc = doc
            .set("xmlns:xlink", "http://www.w3.org/1999/xlink")
            .add(glyphs.definitions());
    }
    groups.into_iter().fold(doc, Document::add)
}

/// SVG's name of a way to join corners (the page's script is handed it for its lines).
pub(super) fn line_join(join: crate::scene::Join) -> &'static str {
    match join {
        crate::scene::Join::Mitre => "miter",
        crate::scene::Join::Round => "round",
    }
}

/// The document element: the drawing's size, one page under another, and the defaults
/// every element inherits.
fn root(scene: &Scene) -> Document {
    let pages = scene.pages.len().max(1) as f64;
    let scale = scene.scale();
    let (width, height) = (scene.width, scene.height);
    Document::new()
        .set("viewBox", (0.0, 0.0, width, height * pages))
        .set("width", format!("{}pt", round3(width * scale)))
        .set("height", format!("{}pt", round3(height * pages * scale)))
        .set("font-family", FONT_FAMILY)
        .set("stroke-linejoin", line_join(crate::scene::Join::Mitre))
        // PostScript's and PDF's miter limit; SVG's own (4) bevels the sharper joins
        // that they draw mitred, which in a dense band outline is the difference
        // between a black edge and a grey one.
        .set("stroke-miterlimit", crate::scene::MITRE_LIMIT)
        .set("font-kerning", "none")
        .add(Title::new(xml_text(&scene.title)))
}

/// A page's white background, as paper has.
fn background(width: f64, height: f64, bottom: f64) -> SvgPath {
    SvgPath::new()
        .set(
            "d",
            shape(
                [
                    Point::new(0.0, 0.0),
                    Point::new(width, 0.0),
                    Point::new(width, height),
                    Point::new(0.0, height),
                ]
                .into_iter(),
                true,
                bottom,
            ),
        )
        .set("fill", "white")
        .set("stroke", "none")
}

/// `g` with the elements that draw `item` (on the page whose bottom is at `bottom`)
/// added.
fn add_item(
    g: Group,
    item: &Item,
    scene: &Scene,
    bottom: f64,
    text_as: TextAs,
    annotate: bool,
    glyphs: &mut Glyphs,
) -> Group {
    let scale = scene.scale();
    match item {
        Item::Path(p) => {
            let mut pos = p.start;
            let points = std::iter::once(p.start).chain(p.steps.iter().map(|s| {
                pos = Point::new(pos.x + s.x, pos.y + s.y);
                pos
            }));
            let mut e = SvgPath::new()
                .set("d", shape(points, p.closed, bottom))
                .set("fill", p.fill.map_or("none".to_string(), colour))
                .set("stroke-width", p.line_width);
            if p.stroke != Paint::BLACK {
                e = e.set("stroke", colour(p.stroke));
            }
            if p.role.join() != crate::scene::Join::Mitre {
                e = e.set("stroke-linejoin", line_join(p.role.join()));
            }
            if let Some(label) = &p.label {
                e = e.add(Title::new(xml_text(label)));
            }
            g.add(e)
        }
        // Each band is one path with its full name as its title: a tooltip in
        // every browser, for names the key had to shorten.
        Item::Band(b) => {
            let mut e = SvgPath::new()
                .set("d", shape(b.outline(), true, bottom))
                .set("fill", colour(b.fill))
                .set("stroke-width", b.line_width);
            if b.stroke != Paint::BLACK {
                e = e.set("stroke", colour(b.stroke));
            }
            g.add(e.add(Title::new(xml_text(&b.name))))
        }
        Item::Area(a) => {
            let mut e = SvgPath::new()
                .set("d", compact_shape(&a.outline, bottom))
                .set("fill", colour(a.fill))
                .set("stroke-width", a.line_width);
            if a.stroke != Paint::BLACK {
                e = e.set("stroke", colour(a.stroke));
            }
            g.add(e.add(Title::new(xml_text(&a.name))))
        }
        Item::Text(t) => {
            // Glyphs drawn as shapes take their group's colour: black unless told.
            let ink = |group: Group| match t.ink == Paint::BLACK {
                true => group,
                false => group.set("fill", colour(t.ink)),
            };
            match text_as {
                TextAs::Raster { dpi } => {
                    let px = 72.0 / (dpi * scale);
                    g.add(ink(rastered(t, bottom, scene.font_size, px, glyphs)))
                }
                TextAs::Outlines => {
                    let (drawn, hidden) = outlined(t, bottom, scene.font_size, glyphs);
                    g.add(ink(drawn)).add(hidden)
                }
                // The page's script rewrites its labels: plain text there.
                TextAs::Text if annotate => g.add(
                    text(t, bottom, scene.font_size)
                        .set("stroke", "none")
                        .set("fill", text_fill(t.ink)),
                ),
                TextAs::Text => g.add(
                    placed(t, bottom, scene.font_size)
                        .set("stroke", "none")
                        .set("fill", text_fill(t.ink)),
                ),
            }
        }
    }
}

/// A text's `fill`: `black` as ever, or its ink's colour.
fn text_fill(ink: Paint) -> String {
    if ink == Paint::BLACK {
        "black".into()
    } else {
        colour(ink)
    }
}

/// `g` with its last child given a class, and a band's name.
fn annotated(mut g: Group, item: &Item) -> Group {
    let children = g.get_children_mut();
    let Some(last) = children.last_mut() else {
        return g;
    };
    let mut attrs = vec![("class", class_of(item).to_string())];
    match item {
        Item::Band(b) => attrs.push(("data-band", xml_text(&b.name))),
        Item::Area(a) => attrs.push(("data-band", xml_text(&a.name))),
        _ => {}
    }
    if let Some(el) = last.get_attributes_mut() {
        for (k, v) in attrs {
            el.insert(k.into(), v.into());
        }
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profile_bytes_become_valid_xml_text() {
        assert_eq!(xml_text(b"a<b>&\"c\""), "a<b>&\"c\"");
        assert_eq!(xml_text(b"bad\xff"), "bad\u{fffd}");
        assert_eq!(xml_text(b"x\x01y\tz"), "x\u{fffd}y z");
    }

    #[test]
    fn colours_are_hex() {
        assert_eq!(colour(Paint::Gray(0.0)), "#000000");
        assert_eq!(colour(Paint::Gray(1.0)), "#ffffff");
        assert_eq!(colour(Paint::Rgb(1.0, 0.5, 0.0)), "#ff8000");
    }
}
