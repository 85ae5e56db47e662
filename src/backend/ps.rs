//! PostScript and EPS, byte for byte as hp2ps writes them.
//!
//! hp2ps writes a flat list of operators with no procedures, and each kind of item has
//! its own idiom (some numbers as integers, some with six decimals, text placed with
//! `stringwidth` arithmetic). The `PathStyle` table and `write_text` hold those
//! idioms, keyed by the item's role in the scene.
//!
//! Where hp2ps's bytes would be broken PostScript (a backslash in the job, unbalanced
//! parentheses in the date, a line break in a header comment), this backend writes
//! valid PostScript instead; [`repairs`] lists those strings so the user can be told.

use std::io::{self, Write};
use std::rc::Rc;

use super::fixed::{push_f6, push_u64};

use crate::scene::{
    Anchor, Area, Band, Item, Orientation, Paint, Path, PathRole, Scene, Text, TextRole, WIDTH,
};

/// How hp2ps prints a number in a path.
#[derive(Clone, Copy)]
enum Num {
    /// `%d`.
    Int,
    /// `%f`.
    Fixed,
    /// `0` for zero, `%f` otherwise.
    ZeroAsInt,
}

/// The operator sequence of one kind of path.
struct PathStyle {
    newpath: bool,
    start: Num,
    steps: Num,
    /// Emits `setlinewidth` before the stroke.
    sets_width: bool,
    /// Decimals of a grey fill (`1.0 setgray` under a mark caret).
    gray_decimals: usize,
}

fn style(role: PathRole) -> PathStyle {
    let s = |newpath, start, steps, sets_width| PathStyle {
        newpath,
        start,
        steps,
        sets_width,
        gray_decimals: 6,
    };
    match role {
        PathRole::Frame => s(true, Num::Int, Num::ZeroAsInt, true),
        PathRole::TitleBox => s(true, Num::Fixed, Num::ZeroAsInt, true),
        PathRole::TitleRule => s(false, Num::Fixed, Num::ZeroAsInt, false),
        PathRole::Axis => s(false, Num::Fixed, Num::ZeroAsInt, true),
        PathRole::Tick => s(false, Num::Fixed, Num::Int, false),
        PathRole::KeySwatch => s(false, Num::Fixed, Num::Int, false),
        PathRole::HeapLine
        | PathRole::FlameFrame
        | PathRole::Collection
        | PathRole::Capability
        | PathRole::SampleBar
        | PathRole::Unobserved => s(true, Num::Fixed, Num::Fixed, true),
        PathRole::Mark => PathStyle {
            gray_decimals: 1,
            ..s(false, Num::Fixed, Num::Fixed, false)
        },
    }
}

/// PostScript output; `creator` goes into the `%%Creator` comment.
pub struct PostScript<'a> {
    /// What `%%Creator` names.
    pub creator: &'a str,
    /// Mark the file as Encapsulated PostScript in its first line. hp2ps's `-e` files
    /// have a bounding box but not the mark, so tools such as `epstopdf` ignore the box;
    /// asked for EPS by name (`--format eps`, `-o fig.eps`) the mark is written, while
    /// hp2ps's flags alone keep hp2ps's bytes.
    pub encapsulated: bool,
}

impl super::Backend for PostScript<'_> {
    fn write(&self, scene: &Scene, out: &mut dyn Write) -> io::Result<()> {
        write_ps(scene, self.creator, self.encapsulated, out)
    }
}

/// Output in a byte buffer handed to the writer in large blocks: most of a long
/// profile's PostScript is `%f %f lineto` lines, and `write!` per number cost more than
/// everything else together.
struct PsBuffer<'w> {
    buf: Vec<u8>,
    w: &'w mut dyn Write,
    /// Formatted x coordinates of the bands.
    xs: CurveText,
    /// Formatted top curve of the latest band: the next band's bottom curve.
    top: CurveText,
    bottom: CurveText,
}

/// The `%f` text of every value of one array, remembered by the array's address. Bands
/// share their arrays (one band's top is the next one's bottom, and all share the x
/// coordinates), so each curve is formatted once instead of twice per band. Each text
/// sits in a fixed 16-byte slot so that a line is put together with copies of constant
/// size; a value whose text is longer (beyond ±10^8) is formatted where it is used.
#[derive(Default)]
struct CurveText {
    of: Option<Rc<[f64]>>,
    slots: Vec<[u8; SLOT]>,
    /// Length of each text, or 0 when it did not fit its slot.
    lens: Vec<u8>,
}

const SLOT: usize = 16;

impl CurveText {
    fn holds(&self, values: &Rc<[f64]>) -> bool {
        self.of.as_ref().is_some_and(|v| Rc::ptr_eq(v, values))
    }

    fn fill(&mut self, values: &Rc<[f64]>) {
        self.slots.clear();
        self.lens.clear();
        let mut text = Vec::with_capacity(32);
        for &v in values.iter() {
            text.clear();
            push_f6(&mut text, v);
            let mut slot = [0u8; SLOT];
            if text.len() <= SLOT {
                slot[..text.len()].copy_from_slice(&text);
                self.lens.push(text.len() as u8);
            } else {
                self.lens.push(0);
            }
            self.slots.push(slot);
        }
        self.of = Some(values.clone());
    }
}

/// Appends `x y<op>` for point `i` of the curves `xs` and `ys`.
#[inline]
fn point_line(buf: &mut Vec<u8>, xs: &CurveText, ys: &CurveText, i: usize, op: &[u8; 8]) {
    let (xl, yl) = (xs.lens[i] as usize, ys.lens[i] as usize);
    if xl == 0 || yl == 0 {
        let (x, y) = (
            xs.of.as_ref().expect("filled")[i],
            ys.of.as_ref().expect("filled")[i],
        );
        push_f6(buf, x);
        buf.push(b' ');
        push_f6(buf, y);
        buf.extend_from_slice(op);
        return;
    }
    // Constant-size copies into a line, then one copy of the line and a cut to length.
    let mut line = [0u8; 2 * SLOT + 1 + 8];
    line[..SLOT].copy_from_slice(&xs.slots[i]);
    line[xl] = b' ';
    line[xl + 1..xl + 1 + SLOT].copy_from_slice(&ys.slots[i]);
    let end = xl + 1 + yl;
    line[end..end + 8].copy_from_slice(op);
    let start = buf.len();
    buf.extend_from_slice(&line);
    buf.truncate(start + end + 8);
}

const BLOCK: usize = 256 * 1024;

impl PsBuffer<'_> {
    fn b(&mut self, bytes: &[u8]) -> &mut Self {
        self.buf.extend_from_slice(bytes);
        self
    }
    /// `%f`.
    fn f(&mut self, x: f64) -> &mut Self {
        push_f6(&mut self.buf, x);
        self
    }
    fn num(&mut self, n: Num, v: f64) -> &mut Self {
        match n {
            Num::Int => {
                if v < 0.0 {
                    self.buf.push(b'-');
                }
                push_u64(&mut self.buf, v.abs() as u64);
                self
            }
            Num::ZeroAsInt if v == 0.0 => self.b(b"0"),
            _ => self.f(v),
        }
    }
    fn spill(&mut self) -> io::Result<()> {
        if self.buf.len() >= BLOCK {
            self.w.write_all(&self.buf)?;
            self.buf.clear();
        }
        Ok(())
    }
    fn finish(self) -> io::Result<()> {
        self.w.write_all(&self.buf)
    }
}

fn write_ps(scene: &Scene, creator: &str, encapsulated: bool, w: &mut dyn Write) -> io::Result<()> {
    let mut o = PsBuffer {
        buf: Vec::with_capacity(BLOCK + 4096),
        w,
        xs: CurveText::default(),
        top: CurveText::default(),
        bottom: CurveText::default(),
    };
    o.b(if encapsulated && scene.media.eps_width.is_some() {
        b"%!PS-Adobe-2.0 EPSF-2.0\n%%Title: "
    } else {
        b"%!PS-Adobe-2.0\n%%Title: "
    })
    .b(&comment_text(&scene.title));
    o.b(b"\n%%Creator: ").b(creator.as_bytes());
    o.b(b"\n%%CreationDate: ")
        .b(&comment_text(&scene.date))
        .b(b"\n");
    if let Some(width) = scene.media.eps_width {
        let s = width / scene.width;
        let bbox = format!(
            "%%BoundingBox: 0 0 {} {}\n",
            (scene.width * s + 0.5) as i32,
            (scene.height * s + 0.5) as i32
        );
        o.b(bbox.as_bytes()).b(b"%%EndComments\n");
        o.f(s).b(b" ").f(s).b(b" scale\n");
    } else {
        o.b(b"%%EndComments\n");
        orientation(&mut o, scene.media.orientation);
    }
    if scene.font_size == 10.0 {
        o.b(
            b"/HE10 /Helvetica findfont 10 scalefont def\n/HE12 /Helvetica findfont 12 scalefont def\n",
        );
    } else {
        // --font-size: the same two fonts, at other sizes.
        for (name, size) in [
            (&b"HE10"[..], crate::scene::FontSize::Normal),
            (b"HE12", crate::scene::FontSize::Large),
        ] {
            o.b(b"/").b(name).b(b" /Helvetica findfont ");
            o.f(size.points_at(scene.font_size)).b(b" scalefont def\n");
        }
    }
    for (k, page) in scene.pages.iter().enumerate() {
        if k > 0 {
            // hp2ps re-emits the printer-page placement even in an EPS file.
            o.b(b"showpage\n");
            orientation(&mut o, scene.media.orientation);
        }
        for item in &page.items {
            match item {
                Item::Path(p) => write_path(&mut o, p),
                Item::Text(t) => write_text(&mut o, t),
                Item::Band(b) => write_band(&mut o, b)?,
                Item::Area(a) => write_area(&mut o, a),
            }
            o.spill()?;
        }
    }
    o.b(b"showpage\n");
    o.finish()
}

fn orientation(o: &mut PsBuffer<'_>, orientation: Orientation) {
    match orientation {
        Orientation::Landscape => o
            .b(b"-90 rotate\n")
            .f(-(WIDTH + 108.0))
            .b(b" ")
            .f(72.0)
            .b(b" translate\n"),
        Orientation::Portrait => o.f(72.0).b(b" ").f(108.0).b(b" translate\n"),
    };
}

fn paint(o: &mut PsBuffer<'_>, p: Paint, gray_decimals: usize) {
    match p {
        Paint::Gray(g) if gray_decimals == 6 => o.f(g).b(b" setgray\n"),
        Paint::Gray(g) => o.b(format!("{g:.gray_decimals$} setgray\n").as_bytes()),
        Paint::Rgb(r, g, b) => o.f(r).b(b" ").f(g).b(b" ").f(b).b(b" setrgbcolor\n"),
    };
}

fn fill_and_stroke(o: &mut PsBuffer<'_>, fill: Option<Paint>, decimals: usize) {
    if let Some(p) = fill {
        o.b(b"gsave\n");
        paint(o, p, decimals);
        o.b(b"fill\ngrestore\n");
    }
    o.b(b"stroke\n");
}

fn write_path(o: &mut PsBuffer<'_>, p: &Path) {
    let st = style(p.role);
    if st.newpath {
        o.b(b"newpath\n");
    }
    o.num(st.start, p.start.x)
        .b(b" ")
        .num(st.start, p.start.y)
        .b(b" moveto\n");
    for s in &p.steps {
        o.num(st.steps, s.x)
            .b(b" ")
            .num(st.steps, s.y)
            .b(b" rlineto\n");
    }
    if p.closed {
        o.b(b"closepath\n");
    }
    if st.sets_width {
        o.f(p.line_width).b(b" setlinewidth\n");
    }
    let round = p.role.join() == crate::scene::Join::Round;
    if p.stroke == Paint::BLACK && !round {
        fill_and_stroke(o, p.fill, st.gray_decimals);
    } else {
        // Only a runtime line is coloured and joined round; what hp2ps draws keeps
        // its bytes.
        o.b(b"gsave\n");
        if round {
            o.b(b"1 setlinejoin\n");
        }
        if p.stroke != Paint::BLACK {
            paint(o, p.stroke, st.gray_decimals);
        }
        fill_and_stroke(o, p.fill, st.gray_decimals);
        o.b(b"grestore\n");
    }
}

/// An area (a band drawn at the output's resolution, which hp2ps's flags never ask for)
/// as bands are drawn: outline, fill, stroke.
fn write_area(o: &mut PsBuffer<'_>, a: &Area) {
    for (k, p) in a.outline.iter().enumerate() {
        o.f(p.x).b(b" ").f(p.y);
        o.b(if k == 0 { b" moveto\n" } else { b" lineto\n" });
    }
    o.b(b"closepath\n");
    o.f(a.line_width).b(b" setlinewidth\n");
    band_fill_and_stroke(o, a.fill, a.stroke, a.line_width);
}

/// The band's outline (see [`Band::outline`]) from cached curve texts.
fn write_band(o: &mut PsBuffer<'_>, b: &Band) -> io::Result<()> {
    if !o.xs.holds(&b.xs) {
        o.xs.fill(&b.xs);
    }
    if o.top.holds(&b.lower) {
        std::mem::swap(&mut o.top, &mut o.bottom);
    } else if !o.bottom.holds(&b.lower) {
        o.bottom.fill(&b.lower);
    }
    o.top.fill(&b.upper);
    let n = b.xs.len();
    if n == 0 {
        return Ok(());
    }
    const MOVETO: &[u8; 8] = b" moveto\n";
    const LINETO: &[u8; 8] = b" lineto\n";
    point_line(&mut o.buf, &o.xs, &o.bottom, 0, MOVETO);
    for i in 0..n {
        point_line(&mut o.buf, &o.xs, &o.bottom, i, LINETO);
        o.spill()?;
    }
    point_line(&mut o.buf, &o.xs, &o.top, n - 1, LINETO);
    for i in (0..n).rev() {
        point_line(&mut o.buf, &o.xs, &o.top, i, LINETO);
        o.spill()?;
    }
    o.b(b"closepath\n");
    band_fill_and_stroke(o, b.fill, b.stroke, b.line_width);
    Ok(())
}

/// A band's fill and outline: hp2ps's black outline as hp2ps writes it, or (the modern
/// style) a thin separator in its own colour and width, leaving the graphics state as
/// it was.
fn band_fill_and_stroke(o: &mut PsBuffer<'_>, fill: Paint, stroke: Paint, width: f64) {
    if stroke == Paint::BLACK {
        fill_and_stroke(o, Some(fill), 6);
        return;
    }
    o.b(b"gsave\n");
    paint(o, fill, 6);
    // No outline at all (a band a hair tall): PostScript's `0 setlinewidth` would still
    // draw the thinnest line a device can, which SVG, PDF and PNG do not.
    if width <= 0.0 {
        o.b(b"fill\ngrestore\nnewpath\n");
        return;
    }
    o.b(b"fill\ngrestore\ngsave\n");
    paint(o, stroke, 6);
    o.f(width).b(b" setlinewidth\nstroke\ngrestore\nnewpath\n");
}

/// Whether hp2ps escapes byte `c` in a text of this role: parentheses in the title,
/// backslashes too in key names, nothing elsewhere.
fn hp2ps_escapes(role: TextRole, c: u8) -> bool {
    match role {
        TextRole::Title => c == b'(' || c == b')',
        TextRole::KeyLabel | TextRole::Caption | TextRole::FrameLabel => {
            c == b'(' || c == b')' || c == b'\\'
        }
        _ => false,
    }
}

/// Whether hp2ps's way of writing `text` is a PostScript string that shows `text`: no
/// backslash left unescaped (it would start an escape sequence) and the parentheses
/// left unescaped balanced (else the string ends early or never).
fn hp2ps_literal_is_sound(role: TextRole, text: &[u8]) -> bool {
    let mut depth = 0i64;
    for &c in text {
        if hp2ps_escapes(role, c) {
            continue;
        }
        match c {
            b'\\' => return false,
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth < 0 {
                    return false;
                }
            }
            _ => {}
        }
    }
    depth == 0
}

/// The string literal's contents: as hp2ps writes it when that is sound, otherwise with
/// every backslash and parenthesis escaped.
fn escaped(role: TextRole, text: &[u8]) -> Vec<u8> {
    let sound = hp2ps_literal_is_sound(role, text);
    let mut out = Vec::with_capacity(text.len() + 2);
    for &c in text {
        let special = if sound {
            hp2ps_escapes(role, c)
        } else {
            matches!(c, b'(' | b')' | b'\\')
        };
        if special {
            out.push(b'\\');
        }
        out.push(c);
    }
    out
}

/// A header comment line (`%%Title`, `%%CreationDate`) must stay one line: a line break
/// in the job or date would end the comment and run the rest as PostScript.
fn comment_text(text: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    if text.iter().any(|&c| c < 0x20 && c != b'\t') {
        text.iter()
            .map(|&c| if c < 0x20 && c != b'\t' { b' ' } else { c })
            .collect::<Vec<u8>>()
            .into()
    } else {
        text.into()
    }
}

/// A string that hp2ps would write as broken or misread PostScript, and that this
/// backend writes differently so that the file is valid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repair {
    /// What the string is (`JOB`, `DATE`, …).
    pub what: &'static str,
    /// The text as the scene has it.
    pub text: Vec<u8>,
    /// What was done about it.
    pub how: &'static str,
}

/// The strings of `scene` that are written differently from hp2ps to stay valid
/// PostScript, each once.
pub fn repairs(scene: &Scene) -> Vec<Repair> {
    let mut out: Vec<Repair> = Vec::new();
    let mut add = |r: Repair| {
        if !out.contains(&r) {
            out.push(r);
        }
    };
    for (what, text) in [("JOB", &scene.title), ("DATE", &scene.date)] {
        if comment_text(text).as_ref() != text.as_slice() {
            add(Repair {
                what,
                text: text.clone(),
                how: "line breaks replaced by spaces in the header comments",
            });
        }
    }
    for page in &scene.pages {
        for item in &page.items {
            if let Item::Text(t) = item
                && !hp2ps_literal_is_sound(t.role, &t.text)
            {
                let what = match t.role {
                    TextRole::Title => "JOB",
                    TextRole::Date => "DATE",
                    TextRole::Area | TextRole::AxisLegend => "SAMPLE_UNIT or VALUE_UNIT",
                    TextRole::TickLabel => "a tick label",
                    TextRole::KeyLabel => "a name",
                    TextRole::HeapLineLabel => "a heap line's label",
                    TextRole::PanelLabel => "a panel's name",
                    TextRole::Caption => "a caption",
                    TextRole::FrameLabel => "a frame's name",
                    TextRole::UnobservedLabel => "the time before the first census",
                };
                add(Repair {
                    what,
                    text: t.text.clone(),
                    how: "backslashes and parentheses escaped",
                });
            }
        }
    }
    out
}

/// A text in its ink: black text as hp2ps writes it, in the current colour (black);
/// another ink (white on a dark flame frame) set within a `gsave`.
fn write_text(o: &mut PsBuffer<'_>, t: &Text) {
    if t.ink == Paint::BLACK {
        return write_black_text(o, t);
    }
    o.b(b"gsave
");
    paint(o, t.ink, 6);
    write_black_text(o, t);
    o.b(b"grestore
");
}

fn write_black_text(o: &mut PsBuffer<'_>, t: &Text) {
    let font: &[u8] = match t.size.points() {
        10 => b"HE10",
        _ => b"HE12",
    };
    let s = escaped(t.role, &t.text);
    let (x, y) = (t.at.x, t.at.y);
    if t.vertical {
        // Rotated legend whose end sits at `at`.
        o.b(b"gsave\n")
            .b(font)
            .b(b" setfont\n(")
            .b(&s)
            .b(b")\ndup stringwidth pop\n");
        o.f(y)
            .b(b"\nexch sub\n")
            .f(x)
            .b(b" exch\ntranslate\n90 rotate\n0 0 moveto\nshow\ngrestore\n");
        return;
    }
    o.b(font).b(b" setfont\n");
    match (t.role, t.anchor) {
        (TextRole::Area, Anchor::Start) => {
            o.f(x).b(b" ").f(y).b(b" moveto\n(").b(&s).b(b")\nshow\n");
        }
        (_, Anchor::Start) => {
            o.f(x).b(b" ").f(y).b(b" moveto\n(").b(&s).b(b") show\n");
        }
        (TextRole::TickLabel, Anchor::Middle) => {
            o.b(b"(").b(&s).b(b")\ndup stringwidth pop\n2 div\n");
            o.f(x).b(b" exch sub\n").f(y).b(b" moveto\nshow\n");
        }
        (_, Anchor::Middle) => {
            o.b(b"(").b(&s).b(b")\ndup stringwidth pop\n2 div\n");
            o.f(x).b(b"\nexch sub\n").f(y).b(b" moveto\nshow\n");
        }
        (TextRole::TickLabel, Anchor::End) => {
            o.b(b"(").b(&s).b(b")\ndup stringwidth\n2 div\n");
            o.f(y)
                .b(b" exch sub\nexch\n")
                .f(x)
                .b(b" exch sub\nexch\nmoveto\nshow\n");
        }
        (_, Anchor::End) => {
            o.b(b"(").b(&s).b(b")\ndup stringwidth pop\n");
            o.f(x).b(b"\nexch sub\n").f(y).b(b" moveto\nshow\n");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hp2ps_escaping_is_kept_where_it_is_sound() {
        // Balanced parentheses are valid unescaped: hp2ps's bytes stay.
        assert_eq!(escaped(TextRole::Date, b"Mon (1) 2024"), b"Mon (1) 2024");
        assert_eq!(escaped(TextRole::Title, b"a (b) c"), b"a \\(b\\) c");
        assert_eq!(escaped(TextRole::KeyLabel, b"f(x)\\g"), b"f\\(x\\)\\\\g");
    }

    #[test]
    fn unsound_strings_are_escaped_fully() {
        assert_eq!(escaped(TextRole::Date, b"x)y("), b"x\\)y\\(");
        assert_eq!(
            escaped(TextRole::Title, b"C:\\prog (1)"),
            b"C:\\\\prog \\(1\\)"
        );
        assert_eq!(escaped(TextRole::AxisLegend, b"(("), b"\\(\\(");
        assert!(hp2ps_literal_is_sound(TextRole::KeyLabel, b")(\\"));
        assert!(!hp2ps_literal_is_sound(TextRole::Area, b"1 x )"));
    }

    #[test]
    fn header_comments_stay_on_one_line() {
        assert_eq!(comment_text(b"a\nshowpage\r").as_ref(), b"a showpage ");
        assert_eq!(comment_text(b"a\tb").as_ref(), b"a\tb");
    }
}
