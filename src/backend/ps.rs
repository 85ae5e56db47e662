//! PostScript and EPS, byte for byte as hp2ps writes them.
//!
//! hp2ps writes a flat list of operators with no procedures, and each kind of item has
//! its own idiom (some numbers as integers, some with six decimals, text placed with
//! `stringwidth` arithmetic). The [`PathStyle`] table and [`write_text`] hold those
//! idioms, keyed by the item's role in the scene.

use std::io::{self, Write};

use crate::scene::{
    Anchor, Band, HEIGHT, Item, Orientation, Paint, Path, PathRole, Scene, Text, TextRole, WIDTH,
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
        PathRole::Mark => PathStyle {
            gray_decimals: 1,
            ..s(false, Num::Fixed, Num::Fixed, false)
        },
    }
}

/// PostScript output; `creator` goes into the `%%Creator` comment.
pub struct PostScript<'a> {
    pub creator: &'a str,
}

impl super::Backend for PostScript<'_> {
    fn write(&self, scene: &Scene, out: &mut dyn Write) -> io::Result<()> {
        write_ps(scene, self.creator, out)
    }
}

fn write_ps(scene: &Scene, creator: &str, out: &mut dyn Write) -> io::Result<()> {
    let w = out;
    w.write_all(b"%!PS-Adobe-2.0\n%%Title: ")?;
    w.write_all(&scene.title)?;
    writeln!(w, "\n%%Creator: {creator}")?;
    w.write_all(b"%%CreationDate: ")?;
    w.write_all(&scene.date)?;
    w.write_all(b"\n")?;
    if let Some(width) = scene.media.eps_width {
        let s = width / WIDTH;
        writeln!(
            w,
            "%%BoundingBox: 0 0 {} {}",
            (WIDTH * s + 0.5) as i32,
            (HEIGHT * s + 0.5) as i32
        )?;
        writeln!(w, "%%EndComments\n{s:.6} {s:.6} scale")?;
    } else {
        w.write_all(b"%%EndComments\n")?;
        orientation(w, scene.media.orientation)?;
    }
    w.write_all(
        b"/HE10 /Helvetica findfont 10 scalefont def\n/HE12 /Helvetica findfont 12 scalefont def\n",
    )?;
    for (k, page) in scene.pages.iter().enumerate() {
        if k > 0 {
            // hp2ps re-emits the printer-page placement even in an EPS file.
            w.write_all(b"showpage\n")?;
            orientation(w, scene.media.orientation)?;
        }
        for item in &page.items {
            match item {
                Item::Path(p) => write_path(w, p)?,
                Item::Text(t) => write_text(w, t)?,
                Item::Band(b) => write_band(w, b)?,
            }
        }
    }
    w.write_all(b"showpage\n")
}

fn orientation(w: &mut dyn Write, o: Orientation) -> io::Result<()> {
    match o {
        Orientation::Landscape => writeln!(
            w,
            "-90 rotate\n{:.6} {:.6} translate",
            -(WIDTH + 108.0),
            72.0
        ),
        Orientation::Portrait => writeln!(w, "{:.6} {:.6} translate", 72.0, 108.0),
    }
}

fn num(w: &mut dyn Write, n: Num, v: f64) -> io::Result<()> {
    match n {
        Num::Int => write!(w, "{}", v as i64),
        Num::ZeroAsInt if v == 0.0 => w.write_all(b"0"),
        _ => write!(w, "{v:.6}"),
    }
}

fn paint(w: &mut dyn Write, p: Paint, gray_decimals: usize) -> io::Result<()> {
    match p {
        Paint::Gray(g) => writeln!(w, "{g:.gray_decimals$} setgray"),
        Paint::Rgb(r, g, b) => writeln!(w, "{r:.6} {g:.6} {b:.6} setrgbcolor"),
    }
}

fn fill_and_stroke(w: &mut dyn Write, fill: Option<Paint>, decimals: usize) -> io::Result<()> {
    if let Some(p) = fill {
        w.write_all(b"gsave\n")?;
        paint(w, p, decimals)?;
        w.write_all(b"fill\ngrestore\n")?;
    }
    w.write_all(b"stroke\n")
}

fn write_path(w: &mut dyn Write, p: &Path) -> io::Result<()> {
    let st = style(p.role);
    if st.newpath {
        w.write_all(b"newpath\n")?;
    }
    num(w, st.start, p.start.x)?;
    w.write_all(b" ")?;
    num(w, st.start, p.start.y)?;
    w.write_all(b" moveto\n")?;
    for s in &p.steps {
        num(w, st.steps, s.x)?;
        w.write_all(b" ")?;
        num(w, st.steps, s.y)?;
        w.write_all(b" rlineto\n")?;
    }
    if p.closed {
        w.write_all(b"closepath\n")?;
    }
    if st.sets_width {
        writeln!(w, "{:.6} setlinewidth", p.line_width)?;
    }
    fill_and_stroke(w, p.fill, st.gray_decimals)
}

fn write_band(w: &mut dyn Write, b: &Band) -> io::Result<()> {
    let mut pts = b.outline();
    if let Some(p) = pts.next() {
        writeln!(w, "{:.6} {:.6} moveto", p.x, p.y)?;
    }
    for p in pts {
        writeln!(w, "{:.6} {:.6} lineto", p.x, p.y)?;
    }
    w.write_all(b"closepath\n")?;
    fill_and_stroke(w, Some(b.fill), 6)
}

/// Which characters a role's text escapes. hp2ps escapes parentheses in the title,
/// backslashes too in key names, and nothing elsewhere.
fn escaped(role: TextRole, text: &[u8]) -> Vec<u8> {
    let special = |c: u8| match role {
        TextRole::Title => c == b'(' || c == b')',
        TextRole::KeyLabel => c == b'(' || c == b')' || c == b'\\',
        _ => false,
    };
    let mut out = Vec::with_capacity(text.len() + 2);
    for &c in text {
        if special(c) {
            out.push(b'\\');
        }
        out.push(c);
    }
    out
}

fn write_text(w: &mut dyn Write, t: &Text) -> io::Result<()> {
    let font = t.size.points();
    let s = escaped(t.role, &t.text);
    let (x, y) = (t.at.x, t.at.y);
    if t.vertical {
        // Rotated legend whose end sits at `at`.
        writeln!(w, "gsave\nHE{font} setfont")?;
        string(w, &s)?;
        return writeln!(
            w,
            "\ndup stringwidth pop\n{y:.6}\nexch sub\n{x:.6} exch\ntranslate\n90 rotate\n0 0 moveto\nshow\ngrestore"
        );
    }
    writeln!(w, "HE{font} setfont")?;
    match (t.role, t.anchor) {
        (TextRole::Area, Anchor::Start) => {
            writeln!(w, "{x:.6} {y:.6} moveto")?;
            string(w, &s)?;
            w.write_all(b"\nshow\n")
        }
        (_, Anchor::Start) => {
            writeln!(w, "{x:.6} {y:.6} moveto")?;
            string(w, &s)?;
            w.write_all(b" show\n")
        }
        (TextRole::TickLabel, Anchor::Middle) => {
            string(w, &s)?;
            writeln!(
                w,
                "\ndup stringwidth pop\n2 div\n{x:.6} exch sub\n{y:.6} moveto\nshow"
            )
        }
        (_, Anchor::Middle) => {
            string(w, &s)?;
            writeln!(
                w,
                "\ndup stringwidth pop\n2 div\n{x:.6}\nexch sub\n{y:.6} moveto\nshow"
            )
        }
        (TextRole::TickLabel, Anchor::End) => {
            string(w, &s)?;
            writeln!(
                w,
                "\ndup stringwidth\n2 div\n{y:.6} exch sub\nexch\n{x:.6} exch sub\nexch\nmoveto\nshow"
            )
        }
        (_, Anchor::End) => {
            string(w, &s)?;
            writeln!(
                w,
                "\ndup stringwidth pop\n{x:.6}\nexch sub\n{y:.6} moveto\nshow"
            )
        }
    }
}

fn string(w: &mut dyn Write, s: &[u8]) -> io::Result<()> {
    w.write_all(b"(")?;
    w.write_all(s)?;
    w.write_all(b")")
}
