//! A census as a flame graph: the root along the bottom, each cost centre a box on top
//! of the one that called it, as wide as the bytes under its stack.
//!
//! What is drawn follows the figure, not the census: callees narrower than
//! [`MIN_WIDTH`] are drawn as one grey box per caller that says how many it stands for,
//! and rows past the top of the drawing box are left out (the caption says how many).
//! Every box keeps its share, so the boxes of a row never add up to more than the row
//! below them. A box's full stack, bytes and share go in its label (SVG's `<title>`).

use crate::scene::{
    Anchor, FontSize, Item, Page, Paint, Path, PathRole, Point, Scene, Text, TextRole,
};
use crate::select::flame::{Direction, Flame, WhichCensus};
use crate::units::{Scale, human};

use super::LayoutOptions;
use super::paint;
use super::text::helvetica_size;

/// Boxes narrower than this many points are drawn together, one grey box per caller.
pub const MIN_WIDTH: f64 = 0.5;
/// A row is never thinner than this many ems (11 pt at 10 pt text): tall enough for a
/// frame's name. Deeper rows than the figure holds are left out, and a caption says so.
pub const LABELLED_ROW: f64 = 11.0;
/// A row is at most this many ems tall.
const FULL_ROW: f64 = 16.0;
/// A flame graph that may grow ([`LayoutOptions::grow`]) is at most this many times its
/// drawing box's height.
pub const MAX_GROWTH: f64 = 4.0;

/// The grey of a box that stands for several narrow callees.
const NARROW: Paint = Paint::Gray(0.8);
/// The grey of a frame whose callers GHC cut away at `-L`.
const CUT: Paint = Paint::Gray(0.6);
/// A differential graph's frames that held as much before: a neutral grey.
const SAME: Paint = Paint::Gray(0.85);
/// A differential graph shows at most this many frames only the run before had (0
/// bytes wide, each with its title); the caption counts the rest.
pub const MAX_GONE: usize = 2_000;

/// Lays out a flame graph in the drawing box `opts.size`.
pub fn layout(flame: &Flame, opts: &LayoutOptions) -> Scene {
    let width = opts.size.0;
    let em = opts.font_size / 10.0;
    let margin = 10.0 * em;
    let rows = flame.depth + 1;
    let height = height(rows, opts, margin, em);
    let scale = Scale::new(flame.units.value, opts.byte_units);
    let mut items = Vec::new();

    let top_line = height - margin - 12.0 * em;
    let at = Point::new(margin, top_line);
    items.extend(heading(flame, opts, (at, width - 2.0 * margin), em, scale));

    // Rows from the bottom margin up to under the title.
    let (x0, across) = (margin, width - 2.0 * margin);
    let floor = margin + 14.0 * em;
    let room = top_line - 30.0 * em - floor;
    // Rows that cannot all be named in the room: each chain of callers with one callee
    // and nothing of their own is one row, named by its first and last frames.
    let levels = Levels::of(flame, rows as f64 * LABELLED_ROW * em > room);
    let rows = levels.rows;
    let row = (room / rows as f64).clamp(LABELLED_ROW * em, FULL_ROW * em);
    let shown_rows = ((room / row + 1e-9).floor() as usize).clamp(1, rows);
    let per_byte = if flame.census.total > 0.0 {
        across / flame.census.total
    } else {
        0.0
    };
    let boxes = Boxes {
        levels,
        floor,
        row,
        per_byte,
        scale,
        em,
    };
    // Which frames are drawn, and where each one's next drawn callee goes: callees in
    // name order, then one box for the narrow ones.
    let mut drawn = vec![false; flame.frames.len()];
    let mut cursor = vec![x0; flame.frames.len()];
    let mut narrow: Vec<(f64, usize)> = vec![(0.0, 0); flame.frames.len()];
    let differential = flame.before.is_some();
    let (mut gone, mut gone_left) = (Vec::new(), 0usize);
    for (k, f) in flame.frames.iter().enumerate() {
        let parent = f.parent;
        let level = boxes.levels.level[k];
        if parent.is_some_and(|p| !drawn[p]) || level >= shown_rows {
            continue;
        }
        // A frame only the run before had: 0 bytes wide, at its caller's end, with
        // what it held in its title.
        if differential && f.bytes == 0.0 && parent.is_some() {
            if gone.len() < MAX_GONE {
                gone.push(k);
            } else {
                gone_left += 1;
            }
            continue;
        }
        let w = f.bytes * per_byte;
        if let (true, Some(p)) = (w < MIN_WIDTH, parent) {
            let n = &mut narrow[p];
            n.0 += f.bytes;
            n.1 += 1;
            continue;
        }
        let left = parent.map_or(x0, |p| cursor[p]);
        if let Some(p) = parent {
            cursor[p] += w;
        }
        drawn[k] = true;
        cursor[k] = left;
        if boxes.levels.chained[k] {
            continue; // drawn as one box with its callee
        }
        let y = floor + level as f64 * row;
        let fill = boxes.frame(flame, opts, k, left, w, &mut items);
        // What the stack holds itself, beside its callees and in a paler shade, so that
        // the boxes with nothing on top of them add up to the census.
        if f.own > 0.0 && f.own < f.bytes && level + 1 < shown_rows {
            let own = boxes.own(flame, k, (left, y), fill, &mut narrow[k]);
            cursor[k] += own.as_ref().map_or(0.0, |(w, _)| *w);
            items.extend(own.map(|(_, item)| item));
        }
    }
    items.extend(boxes.narrow(flame, &narrow, &cursor));
    items.extend(boxes.gone(flame, &gone, &cursor));
    items.extend(captions(gone_left, rows - shown_rows, width, margin));
    scene(flame, opts, (width, height), items)
}

/// How tall a graph of `rows` rows is: as tall as its rows at their full height, at most
/// the drawing box (a shallow census is a short figure, not one with a page of white
/// above it); one that may grow is tall enough for every row to be named, within its
/// bound.
fn height(rows: usize, opts: &LayoutOptions, margin: f64, em: f64) -> f64 {
    let most = opts.size.1;
    let chrome = margin + 12.0 * em + 30.0 * em + margin + 14.0 * em;
    let tall = |row: f64| chrome + rows as f64 * row * em;
    match opts.grow {
        true => tall(FULL_ROW).min(most.max(tall(LABELLED_ROW)).min(most * MAX_GROWTH)),
        false => most.min(tall(FULL_ROW)),
    }
}

/// A flame graph's scene: one page of `items`, `size` points.
fn scene(flame: &Flame, opts: &LayoutOptions, size: (f64, f64), items: Vec<Item>) -> Scene {
    Scene {
        title: flame.job.clone(),
        date: flame.date.clone(),
        width: size.0,
        height: size.1,
        media: opts.media,
        pages: vec![Page { items }],
        plot: None,
        font_size: opts.font_size,
        page_paints: None,
        samples: None,
        legend: Vec::new(),
    }
}

/// The title (the job) at `at`, and under it which census the graph weighs and how
/// much it holds, each shortened to the `room` across the figure.
fn heading(
    flame: &Flame,
    opts: &LayoutOptions,
    (at, room): (Point, f64),
    em: f64,
    scale: Scale,
) -> [Item; 2] {
    // Each line within the figure's width, shortened in the middle as a name is.
    let fit = |line: &[u8], size: f64| super::modern::shortened(line, room / (size * em));
    let title = opts.title_text.clone().unwrap_or_else(|| flame.job.clone());
    let title = Item::Text(text(
        TextRole::Title,
        at,
        fit(&title, 1.2),
        FontSize::Large,
        Anchor::Start,
    ));
    let unit = String::from_utf8_lossy(&flame.sample_unit);
    let c = &flame.census;
    let measure = String::from_utf8_lossy(&flame.value_unit);
    let which = |c: &crate::select::flame::Census| match c.when {
        _ if c.whole_run && c.from == c.to => {
            format!("the whole run ({:.2} {unit}), by {measure}", c.from)
        }
        _ if c.whole_run => format!(
            "the samples from {:.2} to {:.2} {unit}, by {measure}",
            c.from, c.to
        ),
        WhichCensus::Peak => format!("the peak census, at {:.2} {unit}", c.from),
        WhichCensus::End => format!("the last census, at {:.2} {unit}", c.from),
        WhichCensus::At(_) => format!("the census at {:.2} {unit}", c.from),
        WhichCensus::Mean => format!("the mean from {:.2} to {:.2} {unit}", c.from, c.to),
    };
    let mut about = format!(
        "{}: {} in {} frames",
        which(c),
        human(c.total, scale),
        flame.frames.len() - 1
    );
    if let Some(b) = &flame.before {
        about = format!(
            "{about}; before, {}: {} (red grew, blue shrank)",
            which(b),
            human(b.total, scale)
        );
    }
    if flame.direction == Direction::Inverted {
        about.push_str("; inverted: what holds the bytes at the bottom, its callers above");
    }
    let about = Item::Text(text(
        TextRole::Caption,
        Point::new(at.x, at.y - 16.0 * em),
        fit(about.as_bytes(), 1.0),
        FontSize::Normal,
        Anchor::Start,
    ));
    [title, about]
}

/// What a frame's title says of it beyond its name and bytes: GHC cut it, it was placed,
/// what it holds itself.
fn notes(flame: &Flame, k: usize) -> String {
    let f = &flame.frames[k];
    let parent = f.parent;
    let mut notes = String::new();
    if f.cut {
        notes.push_str(crate::select::flame::CUT_NOTE);
    }
    if f.placed && parent.is_some_and(|p| !flame.frames[p].placed) {
        notes.push_str(crate::select::flame::PLACED_NOTE);
    }
    if f.own > 0.0 && f.own < f.bytes {
        notes.push_str(&format!(" (its own {})", exact(f.own, &flame.value_unit)));
    }
    notes
}

/// The row each frame is drawn in. Where the rows cannot all be named in the figure,
/// a chain of frames each called from the one below with nothing of its own but that
/// one callee (a program's trunk, `all` → `main` → … → where it branches) is one row:
/// one box, named by the chain's first and last frames, its title the whole stack.
struct Levels {
    /// Each frame's row, from 0.
    level: Vec<usize>,
    /// The frame is drawn in its one callee's box.
    chained: Vec<bool>,
    /// The first frame of the chain each frame ends (itself where it ends none).
    head: Vec<usize>,
    /// How many rows there are.
    rows: usize,
}

impl Levels {
    /// Each frame's row: its depth, or with `fold`, its depth less the chained frames
    /// under it. In a differential graph a frame chains only where it held nothing of
    /// its own in either run (a frame only the run before had is a callee too).
    fn of(flame: &Flame, fold: bool) -> Levels {
        let n = flame.frames.len();
        let mut callees = vec![0u32; n];
        for f in &flame.frames {
            if let Some(p) = f.parent {
                callees[p] += 1;
            }
        }
        let mut chained = vec![false; n];
        let (mut level, mut head) = (vec![0; n], (0..n).collect::<Vec<_>>());
        for (k, f) in flame.frames.iter().enumerate() {
            if let Some(p) = f.parent {
                let caller = &flame.frames[p];
                let in_chain =
                    fold && callees[p] == 1 && caller.own == 0.0 && caller.own_before == 0.0;
                chained[p] = in_chain;
                level[k] = level[p] + usize::from(!in_chain);
                head[k] = if in_chain { head[p] } else { k };
            }
        }
        let rows = level.iter().max().map_or(1, |l| l + 1);
        Levels {
            level,
            chained,
            head,
            rows,
        }
    }

    /// Frame `k`'s label within `room` points: its name, or its chain's first and last
    /// names, or where they do not fit, its last (the innermost, what the chain leads
    /// to), shortened as any label is ([`fitted`]).
    fn label(&self, flame: &Flame, k: usize, room: f64, em: f64) -> Option<Vec<u8>> {
        let name = |k: usize| match k {
            0 => &b"all"[..],
            _ => &flame.frames[k].name,
        };
        match self.head[k] {
            h if h == k => fitted(name(k), room, em),
            h => Some([name(h), b" ... ", name(k)].concat())
                .filter(|both| helvetica_size(both) <= room / em)
                .or_else(|| fitted(name(k), room, em)),
        }
    }
}

/// Where a flame graph's rows are and how wide a byte is: what the boxes past the drawn
/// frames need.
struct Boxes {
    levels: Levels,
    floor: f64,
    row: f64,
    per_byte: f64,
    scale: Scale,
    em: f64,
}

impl Boxes {
    /// Frame `k`'s box at `left`, `w` wide, with its label where it fits; its fill.
    fn frame(
        &self,
        flame: &Flame,
        opts: &LayoutOptions,
        k: usize,
        left: f64,
        w: f64,
        items: &mut Vec<Item>,
    ) -> Paint {
        let (f, em, row) = (&flame.frames[k], self.em, self.row);
        let y = self.floor + self.levels.level[k] as f64 * row;
        let fill = match (f.cut, &flame.before) {
            (true, _) => CUT,
            (false, Some(b)) => change(f.before, f.bytes, b.total.max(flame.census.total)),
            (false, None) => colour(&f.name, opts),
        };
        let notes = notes(flame, k);
        let title = box_title(flame, k, &notes, f.bytes, self.scale);
        items.push(Item::Path(rect(left, y, w, row, fill, title)));
        if let Some(t) = self.levels.label(flame, k, w - 4.0 * em, em) {
            // Black, or white on a box too dark for black to read.
            let mut label = text(
                TextRole::FrameLabel,
                Point::new(left + 2.0 * em, y + (row - 7.0 * em) / 2.0),
                t,
                FontSize::Normal,
                Anchor::Start,
            );
            label.ink = fill.ink();
            items.push(Item::Text(label));
        }
        fill
    }

    /// What frame `k`'s stack holds itself, above it at `at` (its box's corner): its own
    /// box in a paler shade of `fill` and that box's width, or `None` where it is
    /// narrower than [`MIN_WIDTH`] and joins the caller's `narrow` box.
    fn own(
        &self,
        flame: &Flame,
        k: usize,
        at: (f64, f64),
        fill: Paint,
        narrow: &mut (f64, usize),
    ) -> Option<(f64, Item)> {
        let f = &flame.frames[k];
        let own = f.own * self.per_byte;
        if own < MIN_WIDTH {
            narrow.0 += f.own;
            narrow.1 += 1;
            return None;
        }
        let title = box_title(flame, k, " (its own)", f.own, self.scale);
        let (left, y) = at;
        let rect = rect(left, y + self.row, own, self.row, paler(fill), title);
        Some((own, Item::Path(rect)))
    }

    /// One box per caller for its callees narrower than [`MIN_WIDTH`], after its drawn
    /// ones (`cursor`).
    fn narrow(&self, flame: &Flame, narrow: &[(f64, usize)], cursor: &[f64]) -> Vec<Item> {
        let (floor, row, per_byte, scale) = (self.floor, self.row, self.per_byte, self.scale);
        let mut items = Vec::new();
        for (p, &(bytes, count)) in narrow.iter().enumerate() {
            if count == 0 {
                continue;
            }
            let f = &flame.frames[p];
            let title = format!(
                "{count} parts of {} narrower than {MIN_WIDTH} pt: {} ({}, {})",
                String::from_utf8_lossy(if p == 0 { b"all" } else { &f.name }),
                human(bytes, scale),
                exact(bytes, &flame.value_unit),
                share(bytes, flame.census.total)
            );
            items.push(Item::Path(rect(
                cursor[p],
                floor + (self.levels.level[p] + 1) as f64 * row,
                bytes * per_byte,
                row,
                NARROW,
                title.into_bytes(),
            )));
        }
        items
    }

    /// A 0-wide box for each frame only the run before had, at its caller's end.
    fn gone(&self, flame: &Flame, gone: &[usize], cursor: &[f64]) -> Vec<Item> {
        let (floor, row, scale) = (self.floor, self.row, self.scale);
        let mut items = Vec::new();
        for &k in gone {
            let f = &flame.frames[k];
            let p = f.parent.expect("the root is never gone");
            let title = box_title(flame, k, " (only before)", 0.0, scale);
            items.push(Item::Path(rect(
                cursor[p],
                floor + self.levels.level[k] as f64 * row,
                0.0,
                row,
                change(f.before, 0.0, 1.0),
                title,
            )));
        }
        items
    }
}

/// What the graph leaves out: frames only the run before had past [`MAX_GONE`], rows
/// past the figure's height.
fn captions(gone_left: usize, hidden_rows: usize, width: f64, margin: f64) -> Vec<Item> {
    let mut items = Vec::new();
    if gone_left > 0 {
        items.push(Item::Text(text(
            TextRole::Caption,
            Point::new(width - margin, margin),
            format!("{gone_left} more frames only the run before had are not drawn").into_bytes(),
            FontSize::Normal,
            Anchor::End,
        )));
    }
    if hidden_rows > 0 {
        items.push(Item::Text(text(
            TextRole::Caption,
            Point::new(margin, margin),
            format!(
                "{} deeper levels are not drawn: --size with more height shows more",
                hidden_rows
            )
            .into_bytes(),
            FontSize::Normal,
            Anchor::Start,
        )));
    }
    items
}

fn text(role: TextRole, at: Point, text: Vec<u8>, size: FontSize, anchor: Anchor) -> Text {
    Text {
        role,
        at,
        text,
        size,
        anchor,
        vertical: false,
        ink: Paint::BLACK,
    }
}

fn rect(x: f64, y: f64, w: f64, h: f64, fill: Paint, label: Vec<u8>) -> Path {
    Path {
        role: PathRole::FlameFrame,
        start: Point::new(x, y),
        steps: vec![Point::new(w, 0.0), Point::new(0.0, h), Point::new(-w, 0.0)],
        closed: true,
        fill: Some(fill),
        stroke: crate::scene::Paint::BLACK,
        line_width: 0.25,
        label: Some(label),
    }
}

/// The longest stack a box's title names, in bytes (a band name's limit,
/// [`crate::input::names::MAX_NAME`], is for one name; a graph has thousands of titles):
/// a deeper stack's title names the frames nearest the box, then `…`.
pub const MAX_TITLE_STACK: usize = 4096;

/// A box's title: the stack, notes, then the numbers (what a reader, or a script, looks
/// for last): `go/main: 1.2 MB (1,234,567 bytes, 12.3%)`.
fn box_title(flame: &Flame, k: usize, notes: &str, value: f64, scale: Scale) -> Vec<u8> {
    let mut title = if k == 0 {
        b"all".to_vec()
    } else {
        flame.stack_within(k, MAX_TITLE_STACK)
    };
    title.extend_from_slice(notes.as_bytes());
    let figures = match &flame.before {
        // Before first, both exact: what a reader (or a script) compares.
        Some(_) => {
            let f = &flame.frames[k];
            let was = if notes == " (its own)" {
                f.own_before
            } else {
                f.before
            };
            format!(
                ": {} before, {} after ({})",
                exact(was, &flame.value_unit),
                exact(value, &flame.value_unit),
                change_text(was, value)
            )
        }
        None => format!(
            ": {} ({}, {})",
            human(value, scale),
            exact(value, &flame.value_unit),
            share(value, flame.census.total)
        ),
    };
    title.extend_from_slice(figures.as_bytes());
    title
}

/// How a frame changed, in words: `+12.5%`, `new`, `gone`, `same`.
fn change_text(before: f64, after: f64) -> String {
    if before == after {
        "same".into()
    } else if before == 0.0 {
        "new".into()
    } else if after == 0.0 {
        "gone".into()
    } else {
        format!("{:+.1}%", 100.0 * (after - before) / before)
    }
}

/// A differential frame's colour: red for growth, blue for shrinking, stronger as the
/// change is a larger share of the larger run's heap (full at a tenth of it); grey
/// where equal.
fn change(before: f64, after: f64, total: f64) -> Paint {
    let d = after - before;
    if d == 0.0 || total <= 0.0 {
        return SAME;
    }
    let strength = (d.abs() / (0.1 * total)).clamp(0.0, 1.0);
    // From a light tint at the least change to a full hue.
    let tint = |full: f64| 1.0 - (1.0 - full) * (0.25 + 0.75 * strength);
    if d > 0.0 {
        Paint::Rgb(tint(0.84), tint(0.19), tint(0.15))
    } else {
        Paint::Rgb(tint(0.13), tint(0.4), tint(0.75))
    }
}

/// A box's colour, halfway to white: what a stack holds itself.
fn paler(paint: Paint) -> Paint {
    match paint {
        Paint::Gray(g) => Paint::Gray((g + 1.0) / 2.0),
        Paint::Rgb(r, g, b) => Paint::Rgb((r + 1.0) / 2.0, (g + 1.0) / 2.0, (b + 1.0) / 2.0),
    }
}

/// A value as the profile wrote it: `81,912,344 bytes`.
fn exact(v: f64, unit: &[u8]) -> String {
    let number = match crate::units::whole(v) {
        Some(n) => super::text::comma(n),
        None => format!("{v}"),
    };
    format!("{number} {}", String::from_utf8_lossy(unit))
}

fn share(part: f64, whole: f64) -> String {
    if whole > 0.0 {
        format!("{:.1}%", 100.0 * part / whole)
    } else {
        "0%".into()
    }
}

/// A frame's colour from its name alone, so that a cost centre has one colour in every
/// census: with `--stable-colours` (or a palette) the palette's, as its band would have;
/// else a warm colour, as flame graphs are usually drawn.
fn colour(name: &[u8], opts: &LayoutOptions) -> Paint {
    let h = paint::stable_index(name);
    if opts.stable_colours || opts.palette != paint::Palette::Hp2ps {
        let palette = if opts.palette == paint::Palette::Hp2ps {
            paint::Palette::Tableau10
        } else {
            opts.palette
        };
        return palette.nth(h, crate::select::Shading::Colour);
    }
    let (a, b) = (
        (h % 1000) as f64 / 1000.0,
        (h / 1000 % 1000) as f64 / 1000.0,
    );
    Paint::Rgb(
        (205.0 + 50.0 * a) / 255.0,
        (80.0 + 150.0 * b) / 255.0,
        (55.0 * a) / 255.0,
    )
}

/// The fewest characters of its name a shortened label keeps: fewer (`g...ed` of
/// `guardDisabled`) read as noise, and the box is left to its title.
const READABLE: usize = 5;

/// The name as it fits in `room` points: whole; else a qualified name's last part (what
/// it is: `...guardDisabled` of `Text.Pandoc.Parsing.guardDisabled`) after `...`; else
/// as much of the start of that part (of the name, unqualified) as fits before `...`,
/// [`READABLE`] characters at least (`guard...`). `None` when not even that fits: the
/// box's title names it.
fn fitted(name: &[u8], room: f64, em: f64) -> Option<Vec<u8>> {
    const GAP: &[u8] = b"...";
    let room = room / em;
    let name = &name[..super::text::c_len(name)];
    if helvetica_size(name) <= room {
        return Some(name.to_vec());
    }
    let fits = |t: &[u8]| helvetica_size(t) <= room;
    // A qualified name's last part: what the frame is (its module's start, `Text.`,
    // says nothing at a glance).
    let last = name
        .iter()
        .rposition(|&b| b == b'.')
        .filter(|&dot| dot > 0 && dot + 1 < name.len())
        .map(|dot| &name[dot + 1..]);
    if let Some(part) = last.map(|l| [GAP, l].concat()).filter(|p| fits(p)) {
        return Some(part);
    }
    let base = last.unwrap_or(name);
    let starts = |i: usize| i == base.len() || base[i] & 0xc0 != 0x80;
    let chars = |s: &[u8]| s.iter().filter(|&&b| b & 0xc0 != 0x80).count();
    let keep = (1..base.len())
        .rev()
        .find(|&k| starts(k) && fits(&[&base[..k], GAP].concat()))?;
    (chars(&base[..keep]) >= READABLE.min(chars(base))).then(|| [&base[..keep], GAP].concat())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::select::flame::flame;

    fn frames(scene: &Scene) -> Vec<&Path> {
        scene.pages[0]
            .items
            .iter()
            .filter_map(|i| match i {
                Item::Path(p) if p.role == PathRole::FlameFrame => Some(p),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn frames_only_the_run_before_had_are_kept_up_to_the_bound() {
        // BEFORE held MAX_GONE + 5 stacks AFTER has none of: MAX_GONE are drawn 0 wide
        // with their titles, and the caption counts the 5 left out.
        let run = |lines: String| {
            let text = format!(
                "JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"s\"\nVALUE_UNIT \"bytes\"\n\
                 BEGIN_SAMPLE 0\n{lines}END_SAMPLE 0\n"
            );
            crate::input::hp::parse(text.as_bytes()).unwrap().profile
        };
        let before = run((0..MAX_GONE + 5).map(|k| format!("g{k}\t1\n")).collect());
        let after = run("kept\t10\n".to_string());
        let f = crate::select::flame::differential(
            &before,
            &after,
            WhichCensus::Peak,
            crate::select::flame::Direction::Callers,
        );
        let scene = layout(&f, &LayoutOptions::default());
        let gone = frames(&scene)
            .iter()
            .filter(|p| {
                p.label
                    .as_ref()
                    .is_some_and(|l| String::from_utf8_lossy(l).contains("(only before)"))
            })
            .count();
        assert_eq!(gone, MAX_GONE);
        let said = scene.pages[0].items.iter().any(|i| {
            matches!(i, Item::Text(t) if t.text.starts_with(b"5 more frames only the run before had"))
        });
        assert!(said);
    }

    /// The flame graph of the peak census of one sample's `name\tvalue` lines, laid out.
    fn peak_of(lines: &str) -> (Flame, Scene) {
        let text = format!(
            "JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"s\"\nVALUE_UNIT \"bytes\"\n{lines}END_SAMPLE 0\n"
        );
        let p = crate::input::hp::parse(text.as_bytes()).unwrap().profile;
        let f = flame(&p, WhichCensus::Peak);
        let s = layout(&f, &LayoutOptions::default());
        (f, s)
    }

    #[test]
    fn many_narrow_callees_become_one_box_and_keep_their_width() {
        let mut body = String::from("BEGIN_SAMPLE 0\n(1)big/main\t100000\n");
        for i in 0..50_000 {
            body.push_str(&format!("f{i}/main\t1\n"));
        }
        let (_, s) = peak_of(&body);
        let boxes = frames(&s);
        // all, main, big, and one box for the 50,000 narrow ones.
        assert_eq!(boxes.len(), 4, "{}", boxes.len());
        let width = |p: &Path| p.steps[0].x;
        let main = width(boxes[1]);
        let sum = width(boxes[2]) + width(boxes[3]);
        assert!((main - sum).abs() < 1e-6, "{main} vs {sum}");
        let label = String::from_utf8_lossy(boxes[3].label.as_ref().unwrap()).into_owned();
        assert!(label.starts_with("50000 parts of main"), "{label}");
    }

    #[test]
    fn the_boxes_with_nothing_on_them_add_up_to_the_census() {
        // Stacks that hold bytes themselves and have callees, narrow callees, a cut name.
        let mut body = String::from(
            "BEGIN_SAMPLE 0\n(1)main/Main.CAF\t5000\n(2)go/main/Main.CAF\t30000\n\
             (3)MAIN\t700\n(4)h/f/Long.Module.Na...\t9000\n(5)f/Long.Module.Na...\t10\n",
        );
        for i in 0..300 {
            body.push_str(&format!("tiny{i}/go/main/Main.CAF\t{}\n", 1 + i % 3));
        }
        let (f, s) = peak_of(&body);
        let boxes: Vec<(f64, f64, f64)> = frames(&s)
            .iter()
            .map(|p| (p.start.x, p.start.x + p.steps[0].x, p.start.y))
            .collect();
        let row = frames(&s)[0].steps[1].y;
        let covered = |b: &(f64, f64, f64)| {
            boxes
                .iter()
                .any(|o| (o.2 - (b.2 + row)).abs() < 1e-6 && o.0.max(b.0) < o.1.min(b.1) - 1e-9)
        };
        let leaves: f64 = boxes
            .iter()
            .filter(|b| !covered(b))
            .map(|b| b.1 - b.0)
            .sum();
        let root = boxes[0].1 - boxes[0].0;
        assert!((leaves - root).abs() < 1e-6, "{leaves} vs {root}");
        // And the titles of those boxes give the census's bytes exactly.
        let exact: f64 = frames(&s)
            .iter()
            .zip(&boxes)
            .filter(|(_, b)| !covered(b))
            .map(|(p, _)| {
                let t = String::from_utf8_lossy(p.label.as_ref().unwrap()).into_owned();
                let open = t.rfind(" (").unwrap();
                let n = &t[open + 2..t[open..].find(" bytes").unwrap() + open];
                n.replace(',', "").parse::<f64>().unwrap()
            })
            .sum();
        assert_eq!(exact, f.census.total);
    }

    #[test]
    fn labels_fit_their_boxes() {
        assert_eq!(fitted(b"main", 100.0, 1.0), Some(b"main".to_vec()));
        let t = fitted(b"averyveryverylongname", 40.0, 1.0).unwrap();
        assert!(t.windows(3).any(|w| w == b"...") && helvetica_size(&t) <= 40.0);
        assert_eq!(fitted(b"averyveryverylongname", 3.0, 1.0), None);
        // What a frame is, before where: a qualified name keeps its last part whole.
        let room = helvetica_size(b"...guardDisabled") + 0.1;
        assert_eq!(
            fitted(b"Text.Pandoc.Parsing.guardDisabled", room, 1.0).as_deref(),
            Some(&b"...guardDisabled"[..])
        );
        // Two letters either side of `...` are no label: a start of five or none.
        let room = helvetica_size(b"guard...") + 0.1;
        assert_eq!(
            fitted(b"guardDisabled", room, 1.0).as_deref(),
            Some(&b"guard..."[..])
        );
        assert_eq!(
            fitted(b"guardDisabled", helvetica_size(b"guar...") + 0.1, 1.0),
            None
        );
        // A qualified name too long for its last part keeps that part's start, not the
        // module's (`Text....`).
        assert_eq!(
            fitted(b"Text.Pandoc.Parsing.guardDisabled", room, 1.0).as_deref(),
            Some(&b"guard..."[..])
        );
    }
}
