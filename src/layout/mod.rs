//! Layout: profile and selection in, [`Scene`] out.
//!
//! Places everything as hp2ps does (spec §4): the frame and title box, the axes with
//! their 1-2-5 ticks, the key (beside the graph or on pages of its own), the stacked
//! bands and the marks. All arithmetic follows hp2ps's order of operations, because the
//! PostScript backend prints these numbers and they must come out to the same digits.
//! Layout knows nothing of output formats.

pub mod compare;
pub mod flame;
pub mod modern;
pub mod paint;
pub mod text;
pub mod ticks;

use std::rc::Rc;

use crate::profile::{Profile, Series};
use crate::scene::{
    Anchor, Band, FontSize, HEIGHT, Item, Media, Page, Paint, Path, PathRole, Plot, Point, Scene,
    Text, TextRole, WIDTH,
};
use crate::select::{Selection, Source};
use crate::units::{ByteUnits, Scale};
use text::{c_len, comma, helvetica_size, string_size};

/// Which title box to draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TitleSize {
    /// Big when the job is longer than [`SMALL_TITLE_CHARS`], else small.
    Auto,
    /// One row (`-s`).
    Small,
    /// Two rows (`-b`).
    Big,
}

/// Where the key goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyPlacement {
    /// At the right of the graph, which gives it the room it needs.
    Beside,
    /// On pages of their own before the graph (`-M`, or a band limit over 20).
    SeparatePages,
    /// In rows under the graph, which gives up the height they need (`--key below`).
    Below,
    /// No key (`-m0`).
    None,
    /// In a picture of its own ([`key_figure`], `--key file`), for a caption: the graph
    /// takes the key's room.
    Apart,
}

/// The look of a figure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Style {
    /// hp2ps's picture, exactly.
    #[default]
    Hp2ps,
    /// For papers and READMEs: ticks at round values with just enough decimals, byte
    /// units, the title without a box, key names shortened in the middle to fit.
    Modern,
}

impl Style {
    /// How many bands a key shows before the smallest join OTHER, in a figure `height`
    /// points tall with `font_size` point text. Beside the graph: hp2ps's twenty, or for
    /// a modern key the entries that fit one under another (a 12 pt row each at 10 pt
    /// text, below the room the title and x axis take), so that a small figure's key
    /// stays legible. Below it: twenty, fewer once the names are known
    /// ([`key_below_holds`]).
    pub fn key_entries(self, key: KeyPlacement, height: f64, font_size: f64) -> usize {
        let em = font_size / 10.0;
        match (self, key) {
            (Style::Hp2ps, _) | (_, KeyPlacement::Below) => 20,
            (Style::Modern, _) => ((height - 60.0 * em) / (12.0 * em)).max(2.0) as usize,
        }
    }
}

impl Style {
    /// The width of `s` at 10 pt as the style measures it: hp2ps's estimate in its own
    /// style (its layout depends on it), Helvetica's widths in the modern one.
    fn text_width(self, s: &[u8]) -> f64 {
        match self {
            Style::Hp2ps => string_size(s),
            Style::Modern => helvetica_size(s),
        }
    }
}

/// The height the title takes: in the modern style one row (its title is shortened to
/// fit), or none but a margin for the top label when `untitled` (`--title ''`); in
/// hp2ps's, its box of two rows when `big`, else one.
fn title_height(style: Style, untitled: bool, big: bool, em: f64) -> f64 {
    match style {
        Style::Modern if untitled => 8.0 * em,
        Style::Hp2ps if big => 40.0 * em,
        _ => 20.0 * em,
    }
}

/// The height a key below the graph may take in a figure `height` tall under a title
/// `title` tall: what leaves the graph half the figure.
fn below_room(height: f64, title: f64, em: f64) -> f64 {
    height / 2.0 - title - 2.0 * BORDER_SPACE - GRAPH_Y0 * em - BORDER_SPACE
}

/// Layout choices. The default is hp2ps's: landscape, key beside the graph, marks, greys.
#[derive(Debug, Clone, PartialEq)]
pub struct LayoutOptions {
    /// The title box (`-b`, `-s`).
    pub title: TitleSize,
    /// Where the key goes.
    pub key: KeyPlacement,
    /// Draw MARK carets (off with `-y`).
    pub marks: bool,
    /// Draw the runtime's heap size and live bytes as lines (`--heap-lines`).
    pub heap_lines: bool,
    /// Where band colours come from (`--palette`); hp2ps's keeps its shades.
    pub palette: paint::Palette,
    /// A band's colour follows from its name (`--stable-colours`).
    pub stable_colours: bool,
    /// The drawing box in points (`--size`); the layout re-flows in it, text keeping
    /// its size.
    pub size: (f64, f64),
    /// The size of axis and key text in points (`--font-size`), hp2ps's 10; the title is
    /// a fifth larger. Every measure made for text (margins, key rows, swatches) follows.
    pub font_size: f64,
    /// hp2ps's picture or the modern one.
    pub style: Style,
    /// Modern style: byte units in powers of 1024 (KiB, MiB) rather than 1000.
    pub byte_units: ByteUnits,
    /// Text in place of the job in the title (`--title`).
    pub title_text: Option<Vec<u8>>,
    /// A key beside the graph is at least this wide, in points: figures stacked one
    /// above the other keep graphs of one width (0: as wide as its names need).
    pub min_key_width: f64,
    /// Page size, orientation and EPS width.
    pub media: Media,
}

impl LayoutOptions {
    /// The scale the modern style's value ticks are written in.
    fn scale(&self, value_unit: &[u8]) -> Scale {
        Scale::of(value_unit, self.byte_units)
    }
}

impl Default for LayoutOptions {
    fn default() -> Self {
        LayoutOptions {
            title: TitleSize::Auto,
            key: KeyPlacement::Beside,
            marks: true,
            heap_lines: false,
            palette: paint::Palette::Hp2ps,
            stable_colours: false,
            size: (WIDTH, HEIGHT),
            font_size: 10.0,
            style: Style::Hp2ps,
            byte_units: ByteUnits::Decimal,
            title_text: None,
            min_key_width: 0.0,
            media: Media {
                orientation: crate::scene::Orientation::Landscape,
                eps_width: None,
            },
        }
    }
}

/// The job is cut to this many bytes in a small title box, and a longer job picks the
/// big box unless one is asked for.
pub const SMALL_TITLE_CHARS: usize = 35;
/// The job is cut to this many bytes in a big title box.
pub const BIG_TITLE_CHARS: usize = 80;

const BORDER_SPACE: f64 = 5.0;
const LINE_WIDTH: f64 = 0.5;
/// The modern style's white separator between bands, in points: thin enough that a spiky
/// band keeps its colour at a column's width, as the page draws it.
pub const SEPARATOR_WIDTH: f64 = 0.25;
const TITLE_TEXT_SPACE: f64 = 6.0;
const GRAPH_X0: f64 = 45.0;
const GRAPH_Y0: f64 = 20.0;
const KEY_BOX: f64 = 14.0;
const KEY_ENTRIES_PER_PAGE: usize = 20;
const TICK_TARGET: f64 = 7.0;
const LEGEND_FUDGE: f64 = 15.0;
const TICK_LENGTH: f64 = 4.0;
const CARET: f64 = 4.0;

/// Page geometry shared by the drawing steps.
struct Frame<'a> {
    profile: &'a Profile,
    sel: &'a Selection,
    opts: &'a LayoutOptions,
    big_title: bool,
    title_height: f64,
    graph_width: f64,
    graph_height: f64,
    /// The drawing box.
    width: f64,
    height: f64,
    title_width: f64,
    /// Text size relative to hp2ps's: every text measure is multiplied by it.
    em: f64,
    /// Left of the y axis: room for its labels.
    x0: f64,
    /// Height of the x axis: hp2ps's, raised by a key below the graph.
    y0: f64,
    /// Names as the key shows them, bottom band first.
    key_names: Vec<Vec<u8>>,
    /// Each band's paint when it is not hp2ps's shade: distinct within the picture.
    paints: Vec<crate::scene::Paint>,
}

/// Lays out a profile's selected bands. The profile is consumed: each identifier's data
/// is freed as soon as its band is stacked, which keeps the peak memory of a long
/// profile near the size of its data rather than twice that.
pub fn layout(mut profile: Profile, sel: &Selection, opts: &LayoutOptions) -> Scene {
    let series = profile.bands.take_series();
    let f = frame(&profile, sel, opts);
    let (pages, plot) = f.pages(series);
    Scene {
        title: profile.job.clone(),
        date: profile.date.clone(),
        width: f.width,
        height: f.height,
        media: opts.media,
        pages,
        plot: Some(plot),
        font_size: opts.font_size,
    }
}

/// The width a key beside the graph takes for `sel`'s names: the widest name (a modern
/// key's at most the room it has), the swatch and the margins.
pub fn key_width(sel: &Selection, opts: &LayoutOptions) -> f64 {
    let em = opts.font_size / 10.0;
    let widest = sel
        .bands
        .iter()
        .fold(0.0, |c, b| fmax(c, opts.style.text_width(&b.name) * em));
    let widest = match opts.style {
        Style::Hp2ps => widest,
        Style::Modern => widest.min(key_names_width(opts.size.0, em)),
    };
    widest + 3.0 * BORDER_SPACE + KEY_BOX * em
}

/// A key's row in a picture of its own, in points at 10 pt text: the swatch and a gap.
const APART_ROW: f64 = 18.0;

/// The key as a picture of its own (`--key file`): `sel`'s bands top first, each with
/// the swatch and name the graph drawn with `opts` gives it, as tall as its rows and as
/// wide as its longest name, so that a caption can hold it.
pub fn key_figure(profile: &Profile, sel: &Selection, opts: &LayoutOptions) -> Scene {
    let f = frame(profile, sel, opts);
    let em = f.em;
    let b = KEY_BOX * em;
    let widest = f
        .key_names
        .iter()
        .fold(0.0, |w, n| fmax(w, opts.style.text_width(n) * em));
    let width = (3.0 * BORDER_SPACE + b + widest).ceil();
    let height = (2.0 * BORDER_SPACE + sel.bands.len() as f64 * APART_ROW * em).ceil();
    let mut page = Page::default();
    for (k, band) in sel.bands.iter().enumerate() {
        let slot = (sel.bands.len() - 1 - k) as f64;
        let c = height - BORDER_SPACE - (slot + 0.5) * APART_ROW * em;
        f.key_entry(
            &mut page.items,
            (k, band),
            Point::new(BORDER_SPACE, c - b / 2.0),
            b,
            Point::new(b + 2.0 * BORDER_SPACE, c - 3.5 * em),
        );
    }
    Scene {
        title: profile.job.clone(),
        date: profile.date.clone(),
        width,
        height,
        media: Media {
            eps_width: Some(width),
            ..opts.media
        },
        pages: vec![page],
        plot: None,
        font_size: opts.font_size,
    }
}

/// The names a key shows for bands named `names`: hp2ps's whole; in the modern style
/// without GHC's `(N)` numbers, shortened to the key's room. Below the graph, in either
/// style, a name takes at most half the width, less its swatch and gap.
fn key_names(names: &[&[u8]], opts: &LayoutOptions) -> Vec<Vec<u8>> {
    let em = opts.font_size / 10.0;
    let width = opts.size.0;
    let below = (width - 2.0 * BORDER_SPACE) / 2.0 - (BELOW_BOX + 16.0) * em;
    match opts.style {
        Style::Hp2ps if opts.key == KeyPlacement::Below => {
            modern::shortened_apart(names, below / em)
        }
        Style::Hp2ps => names.iter().map(|n| n.to_vec()).collect(),
        Style::Modern => {
            // GHC's `(N)` stack numbers say nothing to a reader and take a key's room;
            // each band's title keeps its whole name. Names that GHC cut (`-L`) alike
            // are told apart by their numbers alone: those keep them.
            let plain: Vec<&[u8]> = (names.iter())
                .map(|n| crate::select::flame::unnumbered(n))
                .collect();
            let mut seen = std::collections::HashMap::new();
            for p in &plain {
                *seen.entry(*p).or_insert(0usize) += 1;
            }
            let names: Vec<&[u8]> = (plain.iter().zip(names))
                .map(|(p, n)| if seen[p] > 1 { *n } else { *p })
                .collect();
            let room = match opts.key {
                KeyPlacement::Below => below,
                // A key of its own may be as wide as the figure it goes with.
                KeyPlacement::Apart => width - 3.0 * BORDER_SPACE - KEY_BOX * em,
                _ => key_names_width(width, em),
            };
            // Names are measured at 10 pt.
            let mut shown = modern::shortened_apart(&names, room / em);
            let text: Vec<String> = (shown.iter())
                .map(|n| String::from_utf8_lossy(n).into_owned())
                .collect();
            let refs: Vec<&str> = text.iter().map(String::as_str).collect();
            for (n, mark) in shown.iter_mut().zip(crate::escape::look_alikes(&refs)) {
                n.extend(mark.map(str::as_bytes).unwrap_or_default());
            }
            shown
        }
    }
}

/// How many of `sel`'s bands a key below the graph can list while leaving the graph
/// half the figure's height: all of them, or fewer with the smallest joined into
/// `OTHER` (`sel.bands.len()` for a key placed otherwise). `reversed`: the selection
/// was stacked the other way up, its largest bands first.
pub fn key_below_holds(
    profile: &Profile,
    sel: &Selection,
    opts: &LayoutOptions,
    reversed: bool,
) -> usize {
    let n = sel.bands.len();
    if opts.key != KeyPlacement::Below || n == 0 {
        return n;
    }
    let em = opts.font_size / 10.0;
    let big = match opts.title {
        TitleSize::Big => true,
        TitleSize::Small => false,
        TitleSize::Auto => c_len(&profile.job) > SMALL_TITLE_CHARS,
    };
    let untitled = opts.title_text.as_deref() == Some(&b""[..]);
    let room = below_room(opts.size.1, title_height(opts.style, untitled, big, em), em);
    let title_width = opts.size.0 - 2.0 * BORDER_SPACE;
    // The bands a limit of `m` keeps: the `m - 1` largest of those drawn now, and OTHER.
    let own: Vec<&[u8]> = (sel.bands.iter())
        .filter(|b| !matches!(b.source, Source::Other(_)))
        .map(|b| &b.name[..])
        .collect();
    let fits = |names: &[&[u8]]| {
        let shown = key_names(names, opts);
        below_rows(&shown, title_width, em).1 <= room + BORDER_SPACE
    };
    let all: Vec<&[u8]> = sel.bands.iter().map(|b| &b.name[..]).collect();
    if fits(&all) {
        return n;
    }
    let fits_limit = |m: usize| {
        let kept = m - 1;
        let mut names: Vec<&[u8]> = if reversed {
            own.iter().take(kept).copied().collect()
        } else {
            own.iter()
                .skip(own.len().saturating_sub(kept))
                .copied()
                .collect()
        };
        names.push(b"OTHER");
        fits(&names)
    };
    // More bands take as many rows or more: the largest limit that fits is found by
    // halving, in a few measures of the names however many bands `-m` allows.
    let (mut low, mut high) = (1, n - 1);
    while low < high {
        let mid = (low + high).div_ceil(2);
        if fits_limit(mid) {
            low = mid;
        } else {
            high = mid - 1;
        }
    }
    low
}

/// `profile`'s bands selected for a picture laid out with `opts`: as `select` says, and
/// with a key below the graph, no more than its rows hold while leaving the graph half
/// the figure (the smallest joined into OTHER).
pub fn selected(
    profile: &Profile,
    aux: Option<&crate::select::aux::Aux>,
    select: &crate::select::SelectOptions,
    opts: &LayoutOptions,
) -> Selection {
    let mut sel = crate::select::select(profile, aux, select);
    // Each new selection's names are measured again: a limit's OTHER is a name too.
    for _ in 0..3 {
        let holds = key_below_holds(profile, &sel, opts, select.reverse);
        if holds >= sel.bands.len() {
            break;
        }
        let limit = crate::select::SelectOptions {
            band_limit: holds,
            ..select.clone()
        };
        sel = crate::select::select(profile, aux, &limit);
    }
    sel
}

/// Measures the page: the title's height, the key's width and names, and so where the
/// graph goes.
fn frame<'a>(profile: &'a Profile, sel: &'a Selection, opts: &'a LayoutOptions) -> Frame<'a> {
    let big_title = match opts.title {
        TitleSize::Big => true,
        TitleSize::Small => false,
        TitleSize::Auto => c_len(&profile.job) > SMALL_TITLE_CHARS,
    };
    // Multiplying by 1 is exact: hp2ps's own sizes give its numbers unchanged.
    let em = opts.font_size / 10.0;
    // `--title ''` in the modern style: no title and no date (a paper's caption says
    // what the figure is); the graph takes their room, less a margin for its top label.
    let untitled = opts.title_text.as_deref() == Some(&b""[..]);
    let title_height = title_height(opts.style, untitled, big_title, em);
    let (width, height) = opts.size;
    let title_width = width - 2.0 * BORDER_SPACE;
    let key_width = match opts.key {
        KeyPlacement::Beside => fmax(key_width(sel, opts), opts.min_key_width),
        _ => 0.0,
    };
    let names: Vec<&[u8]> = sel.bands.iter().map(|b| &b.name[..]).collect();
    let key_names = key_names(&names, opts);
    let y0 = match opts.key {
        KeyPlacement::Below => GRAPH_Y0 * em + below_rows(&key_names, title_width, em).1,
        _ => GRAPH_Y0 * em,
    };
    let x0 = GRAPH_X0 * em;
    // Paints other than hp2ps's own shades: every band its own, OTHER its grey.
    let paints = if opts.palette == paint::Palette::Hp2ps && !opts.stable_colours {
        Vec::new()
    } else {
        let palette = opts.palette.extended(sel.shading);
        let mut taken = Vec::new();
        let own: Vec<&[u8]> = sel
            .bands
            .iter()
            .filter(|b| !matches!(b.source, Source::Other(_)))
            .map(|b| &b.name[..])
            .collect();
        let mut given =
            crate::scene::distinct_paints(own, &palette, &mut taken, opts.stable_colours)
                .into_iter();
        sel.bands
            .iter()
            .map(|b| match b.source {
                Source::Other(_) => paint::OTHER,
                _ => given.next().expect("a paint for each band"),
            })
            .collect()
    };
    Frame {
        paints,
        profile,
        sel,
        opts,
        big_title,
        title_height,
        graph_width: title_width - x0 - key_width,
        graph_height: height - title_height - 2.0 * BORDER_SPACE - y0,
        width,
        height,
        title_width,
        em,
        x0,
        y0,
        key_names,
    }
}

impl Frame<'_> {
    /// Draws everything: the title, the key (on its own pages, beside or below the
    /// graph), the axes, the bands, heap lines and marks; and says where the graph is.
    fn pages(&self, series: Vec<Series>) -> (Vec<Page>, Plot) {
        let (f, opts, profile, sel) = (self, self.opts, self.profile, self.sel);
        let mut pages = vec![Page::default()];
        f.title_block(&mut pages);
        if opts.key == KeyPlacement::SeparatePages {
            f.key(&mut pages, 0.0, f.x0);
            f.new_page(&mut pages);
        }
        let items = &mut pages.last_mut().expect("a page").items;
        f.x_axis(items);
        f.y_axis(items);
        if opts.key == KeyPlacement::Beside {
            f.key(&mut pages, f.y0, f.x0 + f.graph_width);
        }
        if opts.key == KeyPlacement::Below {
            f.key_below(pages.last_mut().expect("a page"));
        }
        let items = &mut pages.last_mut().expect("a page").items;
        f.bands(items, series);
        // A profile without a band (an eventlog without a heap profile): the runtime's
        // lines are the picture.
        if opts.heap_lines || profile.bands.is_empty() {
            f.heap_lines(items);
            f.collections(items);
        }
        if opts.marks {
            f.marks(items);
        }
        let plot = Plot {
            page: pages.len() - 1,
            x0: f.x0,
            y0: f.y0,
            width: f.graph_width,
            height: f.graph_height,
            first_time: profile.times[0],
            x_range: sel.x_range,
            y_range: sel.y_range,
            x_legend: f.legend(&profile.sample_unit),
            y_legend: f.legend(&profile.value_unit),
        };
        (pages, plot)
    }
}

/// A key below the graph: rows this tall, swatches this wide.
const BELOW_ROW: f64 = 14.0;
const BELOW_BOX: f64 = 9.0;

/// Where each entry of a key below the graph goes (top band first): its row and its x
/// from the left edge, in columns as wide as the widest entry, as many as `width`
/// holds, filled left to right; and the height the rows take. hp2ps has no key below:
/// its names are measured in Helvetica in either style.
fn below_rows(names: &[Vec<u8>], width: f64, em: f64) -> (Vec<(usize, f64)>, f64) {
    let column = names.iter().fold(0.0, |w, name| {
        fmax(w, (BELOW_BOX + 4.0 + helvetica_size(name) + 12.0) * em)
    });
    let columns = ((width / column).floor() as usize).clamp(1, names.len().max(1));
    let places: Vec<(usize, f64)> = (0..names.len())
        .map(|slot| (slot / columns, (slot % columns) as f64 * column))
        .collect();
    let rows = names.len().div_ceil(columns);
    (places, rows as f64 * BELOW_ROW * em + BORDER_SPACE)
}

/// Modern style: the most a key name may take, a third of the figure's width less the
/// swatch; longer names are shortened in the middle.
fn key_names_width(width: f64, em: f64) -> f64 {
    (width / 3.0 - 3.0 * BORDER_SPACE - KEY_BOX * em).max(40.0 * em)
}

fn fmax(a: f64, b: f64) -> f64 {
    if a > b { a } else { b }
}

fn text(role: TextRole, at: Point, t: Vec<u8>, size: FontSize, anchor: Anchor) -> Item {
    Item::Text(Text {
        role,
        at,
        text: t,
        size,
        anchor,
        vertical: false,
    })
}

/// A runtime line is drawn as an envelope when it has more readings than columns of
/// this many points.
const ENVELOPE_COLUMN: f64 = 1.0;

/// The envelope of a line (points by x) in columns `column` wide across `width` from
/// `x0`: its outline (each column's highest point left to right, then the lowest right
/// to left) and the line through each column's last point; `None` when the line has no
/// more points than columns, and is drawn as it is.
fn envelope(
    points: &[Point],
    x0: f64,
    width: f64,
    column: f64,
) -> Option<(Vec<Point>, Vec<Point>)> {
    let columns = (width / column).ceil().max(1.0) as usize;
    if points.len() <= columns {
        return None;
    }
    // (x, lowest, highest, last) of each column that has points.
    let mut cols: Vec<(f64, f64, f64, Point)> = Vec::new();
    let mut at = usize::MAX;
    for &p in points {
        let k = (((p.x - x0) / column).floor().max(0.0) as usize).min(columns - 1);
        match cols.last_mut() {
            Some(c) if k == at => {
                c.1 = c.1.min(p.y);
                c.2 = c.2.max(p.y);
                c.3 = p;
            }
            _ => {
                at = k;
                cols.push((x0 + (k as f64 + 0.5) * column, p.y, p.y, p));
            }
        }
    }
    let mut outline: Vec<Point> = cols.iter().map(|c| Point::new(c.0, c.2)).collect();
    outline.extend(cols.iter().rev().map(|c| Point::new(c.0, c.1)));
    let last = cols.iter().map(|c| c.3).collect();
    Some((outline, last))
}

/// The height of the collections' strip (a major collection's mark).
const STRIP: f64 = 6.0;

/// An open line through `points` (on the graph's coordinates), `label` as its title;
/// its last point, or `None` when there is nothing to draw.
/// `points` as a path takes them: the first, then each as a step from the one before.
fn relative(points: &[Point]) -> Option<(Point, Vec<Point>)> {
    let (&start, rest) = points.split_first()?;
    let mut prev = start;
    let steps = rest
        .iter()
        .map(|&p| {
            let step = Point::new(p.x - prev.x, p.y - prev.y);
            prev = p;
            step
        })
        .collect();
    Some((start, steps))
}

fn line(
    items: &mut Vec<Item>,
    points: &[Point],
    width: f64,
    label: &[u8],
    stroke: Paint,
) -> Option<Point> {
    let (start, steps) = relative(points)?;
    let end = *points.last()?;
    items.push(Item::Path(Path {
        role: PathRole::HeapLine,
        start,
        steps,
        closed: false,
        fill: None,
        stroke,
        line_width: width,
        label: Some(label.to_vec()),
    }));
    Some(end)
}

fn path(role: PathRole, start: Point, steps: &[(f64, f64)], closed: bool) -> Path {
    Path {
        role,
        start,
        steps: steps.iter().map(|&(x, y)| Point::new(x, y)).collect(),
        closed,
        fill: None,
        stroke: Paint::BLACK,
        line_width: LINE_WIDTH,
        label: None,
    }
}

impl Frame<'_> {
    /// The room an axis legend takes at the end of its axis.
    fn legend(&self, unit: &[u8]) -> f64 {
        self.opts.style.text_width(unit) * self.em + LEGEND_FUDGE * self.em
    }

    /// The baseline of the title's first row.
    fn title_row(&self) -> f64 {
        self.height - 20.0 * self.em - BORDER_SPACE + TITLE_TEXT_SPACE * self.em
    }

    /// The baseline of the labels under the x axis: hp2ps's; in the modern style, for
    /// small text, lower, so that a tick (its length whatever the text's size) ends
    /// above the label's digits with a gap.
    fn under_axis(&self) -> f64 {
        let hp2ps = GRAPH_Y0 * self.em - BORDER_SPACE;
        let drop = match self.opts.style {
            Style::Hp2ps => hp2ps,
            Style::Modern => fmax(hp2ps, TICK_LENGTH + 10.0 * self.em),
        };
        self.y0 - drop
    }

    fn new_page(&self, pages: &mut Vec<Page>) {
        pages.push(Page::default());
        self.title_block(pages);
    }

    /// The frame, the title box and its three texts.
    fn title_block(&self, pages: &mut [Page]) {
        if self.opts.style == Style::Modern {
            return self.modern_title(pages);
        }
        let items = &mut pages.last_mut().expect("a page").items;
        let th = self.title_height;
        items.push(Item::Path(path(
            PathRole::Frame,
            Point::new(0.0, 0.0),
            &[(0.0, self.height), (self.width, 0.0), (0.0, -self.height)],
            true,
        )));
        let box_y = self.height - th - BORDER_SPACE;
        items.push(Item::Path(path(
            PathRole::TitleBox,
            Point::new(BORDER_SPACE, box_y),
            &[(0.0, th), (self.title_width, 0.0), (0.0, -th)],
            true,
        )));
        let p = self.profile;
        let upper_row = self.title_row();
        let area = self.area_text();
        let (job_chars, lower_row) = if self.big_title {
            items.push(Item::Path(path(
                PathRole::TitleRule,
                Point::new(BORDER_SPACE, self.height - 20.0 * self.em - BORDER_SPACE),
                &[(self.title_width, 0.0)],
                false,
            )));
            (BIG_TITLE_CHARS, box_y + TITLE_TEXT_SPACE * self.em)
        } else {
            (SMALL_TITLE_CHARS, upper_row)
        };
        let job = match &self.opts.title_text {
            Some(t) => t.clone(),
            None => p.job[..c_len(&p.job).min(job_chars)].to_vec(),
        };
        let left = BORDER_SPACE + TITLE_TEXT_SPACE;
        items.push(text(
            TextRole::Title,
            Point::new(left, upper_row),
            job,
            FontSize::Large,
            Anchor::Start,
        ));
        items.push(if self.big_title {
            text(
                TextRole::Area,
                Point::new(left, lower_row),
                area,
                FontSize::Large,
                Anchor::Start,
            )
        } else {
            text(
                TextRole::Area,
                Point::new(self.title_width / 2.0, upper_row),
                area,
                FontSize::Large,
                Anchor::Middle,
            )
        });
        items.push(text(
            TextRole::Date,
            Point::new(
                self.title_width + BORDER_SPACE - TITLE_TEXT_SPACE,
                lower_row,
            ),
            p.date.clone(),
            FontSize::Large,
            Anchor::End,
        ));
    }

    /// Modern style: no frame and no box; the title (the job, or `--title`) at the left
    /// and the date at the right, on one line.
    fn modern_title(&self, pages: &mut [Page]) {
        if self.opts.title_text.as_deref() == Some(&b""[..]) {
            return;
        }
        let items = &mut pages.last_mut().expect("a page").items;
        let row = self.title_row();
        let title = self
            .opts
            .title_text
            .clone()
            .unwrap_or_else(|| self.profile.job.clone());
        // The title's text is 12 pt (times em), the widths table's 10 pt.
        let room = (self.width - 4.0 * BORDER_SPACE - helvetica_size(&self.profile.date) * self.em)
            / (1.2 * self.em);
        let title = modern::shortened(&title, room.max(20.0));
        items.push(text(
            TextRole::Title,
            Point::new(BORDER_SPACE, row),
            title,
            FontSize::Large,
            Anchor::Start,
        ));
        items.push(text(
            TextRole::Date,
            Point::new(self.width - BORDER_SPACE, row),
            self.profile.date.clone(),
            FontSize::Normal,
            Anchor::End,
        ));
    }

    /// "<area> <value unit> x <sample unit>".
    fn area_text(&self) -> Vec<u8> {
        let mut t = comma(self.sel.area as i64).into_bytes();
        t.push(b' ');
        t.extend_from_slice(&self.profile.value_unit);
        t.extend_from_slice(b" x ");
        t.extend_from_slice(&self.profile.sample_unit);
        t
    }

    fn x_axis(&self, items: &mut Vec<Item>) {
        let gw = self.graph_width;
        items.push(Item::Path(path(
            PathRole::Axis,
            Point::new(self.x0, self.y0),
            &[(gw, 0.0)],
            false,
        )));
        // The modern style writes seconds on the labels (`0.05 s`): no legend takes a
        // label's place at the axis's end.
        let seconds_in_labels = self.opts.style == Style::Modern
            && crate::units::TimeUnit::of(&self.profile.sample_unit)
                == crate::units::TimeUnit::Seconds;
        if !seconds_in_labels {
            items.push(text(
                TextRole::AxisLegend,
                Point::new(self.x0 + gw, self.under_axis()),
                self.profile.sample_unit.clone(),
                FontSize::Normal,
                Anchor::End,
            ));
        }
        let times = &self.profile.times;
        let (first, last) = (times[0], times[times.len() - 1]);
        let x_range = self.sel.x_range;
        if self.opts.style == Style::Modern {
            let t = gw / x_range;
            let legend = if seconds_in_labels {
                -1.0
            } else {
                self.legend(&self.profile.sample_unit)
            };
            // As many labels as the axis holds at this text size, each with most of an
            // em between it and the next (less reads as one run of text): from one every 20 points
            // (at 10 pt), fewer while the labels (`0.05 s`, `1h 30m`) are wider than
            // their steps leave room for.
            let mut target = (gw / (20.0 * self.em)).clamp(2.0, 2.0 * TICK_TARGET);
            let (ticks, widest) = loop {
                // A run of many minutes reads as a clock (`1h 30m`), its labels their
                // own unit.
                let clock = seconds_in_labels
                    .then(|| modern::clock_ticks(first, first + x_range, target))
                    .flatten();
                // Steps under a hundredth of a second read as milliseconds (`20 ms`,
                // `0.05 ms`), shorter than `0.00005 s`.
                let ms = seconds_in_labels
                    && ticks::ceil_125(x_range / target).is_some_and(|step| step < 0.009);
                let (k, unit) = if ms { (1e3, " ms") } else { (1.0, " s") };
                let ticks: Vec<(f64, String)> = match clock {
                    Some(ticks) => ticks,
                    None => modern::time_ticks(first * k, (first + x_range) * k, target)
                        .into_iter()
                        .map(|(v, mut l)| {
                            if seconds_in_labels {
                                l.push_str(unit);
                            }
                            (v / k, l)
                        })
                        .collect(),
                };
                let widest = (ticks.iter())
                    .map(|(_, l)| helvetica_size(l.as_bytes()) * self.em)
                    .fold(0.0, f64::max);
                let spacing = match ticks.as_slice() {
                    [a, b, ..] => (b.0 - a.0) * t,
                    _ => f64::INFINITY,
                };
                if spacing >= widest + 8.0 * self.em || target <= 1.0 {
                    break (ticks, widest);
                }
                target = (target * 0.75).max(1.0);
            };
            for (v, label) in ticks {
                let x = (v - first) * t;
                // Within the graph (clear of a legend) and, centred, within the figure.
                if x < gw - legend && x + self.x0 + widest / 2.0 <= self.width {
                    self.x_tick(items, x + self.x0, label.into_bytes());
                }
            }
            return;
        }
        let Some(inc) = ticks::round_125(x_range / TICK_TARGET) else {
            return;
        };
        let t = gw / x_range;
        let legend = self.legend(&self.profile.sample_unit);
        let mut i = first;
        while i < last {
            let x = (i - first) * t;
            if x < gw - legend {
                self.x_tick(items, x + self.x0, format!("{i:.1}").into_bytes());
            }
            let next = i + inc;
            if next <= i {
                break; // the increment is lost in the time's precision
            }
            i = next;
        }
    }

    /// A tick under the x axis at `at` and its label.
    fn x_tick(&self, items: &mut Vec<Item>, at: f64, label: Vec<u8>) {
        items.push(Item::Path(path(
            PathRole::Tick,
            Point::new(at, self.y0),
            &[(0.0, -TICK_LENGTH)],
            false,
        )));
        items.push(text(
            TextRole::TickLabel,
            Point::new(at, self.under_axis()),
            label,
            FontSize::Normal,
            Anchor::Middle,
        ));
    }

    /// A tick left of the y axis at height `at` and its label.
    fn y_tick(&self, items: &mut Vec<Item>, at: f64, label: Vec<u8>) {
        self.y_tick_label_at(items, at, label, 0.0);
    }

    /// A tick on the y axis at `at` and its label, its baseline `drop` points under it
    /// (hp2ps's: on it).
    fn y_tick_label_at(&self, items: &mut Vec<Item>, at: f64, label: Vec<u8>, drop: f64) {
        items.push(Item::Path(path(
            PathRole::Tick,
            Point::new(self.x0, at),
            &[(-TICK_LENGTH, 0.0)],
            false,
        )));
        items.push(text(
            TextRole::TickLabel,
            Point::new(self.x0 - BORDER_SPACE, at - drop),
            label,
            FontSize::Normal,
            Anchor::End,
        ));
    }

    fn y_axis(&self, items: &mut Vec<Item>) {
        let gh = self.graph_height;
        items.push(Item::Path(path(
            PathRole::Axis,
            Point::new(self.x0, self.y0),
            &[(0.0, gh)],
            false,
        )));
        // The modern style's byte labels say their unit (`20 MB`): the axis needs no
        // legend, and its top is free for labels.
        let units_in_labels = self.opts.style == Style::Modern
            && self.opts.scale(&self.profile.value_unit) != crate::units::Scale::Plain;
        if !units_in_labels {
            items.push(Item::Text(Text {
                role: TextRole::AxisLegend,
                at: Point::new(self.x0 - BORDER_SPACE, self.y0 + gh),
                text: self.profile.value_unit.clone(),
                size: FontSize::Normal,
                anchor: Anchor::End,
                vertical: true,
            }));
        }
        let y_range = self.sel.y_range;
        if self.opts.style == Style::Modern {
            let t = gh / y_range;
            // Labels keep clear of the legend, or (units in the labels) only of the
            // axis's top edge by half a label.
            let room = if units_in_labels {
                gh + 4.0 * self.em
            } else {
                gh - self.legend(&self.profile.value_unit)
            };
            // As many labels as the axis holds two lines of text apart (the least 1-2-5
            // step that keeps them so), at most fourteen; a line and a half apart where
            // two lines would leave fewer than four (a short axis).
            let scale = self.opts.scale(&self.profile.value_unit);
            let at_least = |lines: f64| {
                let target = (gh / (lines * 10.0 * self.em)).clamp(2.0, 2.0 * TICK_TARGET);
                modern::value_ticks(y_range, target, scale)
            };
            let mut ticks = at_least(2.0);
            if ticks.len() < 4 {
                ticks = at_least(1.5);
            }
            for (v, label) in ticks {
                let y = v * t;
                if y <= room {
                    // Centred on its tick: the baseline a little under it.
                    self.y_tick_label_at(items, y + self.y0, label.into_bytes(), 3.5 * self.em);
                }
            }
            return;
        }
        let Some(inc) = ticks::round_125(fmax(y_range / TICK_TARGET, 1.0)) else {
            return;
        };
        let (divisor, suffix) = if inc >= 1e6 {
            (1e6, "M")
        } else if inc >= 1e3 {
            (1e3, "k")
        } else {
            (1.0, "")
        };
        let t = gh / y_range;
        let legend = self.legend(&self.profile.value_unit);
        let mut i = 0.0;
        while i <= y_range {
            let y = i * t;
            if y < gh - legend {
                let n = if divisor == 1.0 {
                    (i + 0.5) as i64
                } else {
                    (i / divisor + 0.5) as i64
                };
                self.y_tick(
                    items,
                    y + self.y0,
                    format!("{}{suffix}", comma(n)).into_bytes(),
                );
            }
            let next = i + inc;
            if next <= i {
                break;
            }
            i = next;
        }
    }

    /// Key entries from the bottom band up, `base` being the height the first entry is
    /// spaced from and `left` the key's left edge. On pages of its own the key starts a
    /// new page after every [`KEY_ENTRIES_PER_PAGE`] entries.
    fn key(&self, pages: &mut Vec<Page>, base: f64, left: f64) {
        let n = self.sel.bands.len();
        let slots = if n <= KEY_ENTRIES_PER_PAGE {
            n + 1
        } else {
            KEY_ENTRIES_PER_PAGE
        };
        let dc = self.graph_height / slots as f64;
        let mut c = base;
        for (k, band) in self.sel.bands.iter().enumerate() {
            if self.opts.key == KeyPlacement::SeparatePages
                && k > 0
                && k % KEY_ENTRIES_PER_PAGE == 0
            {
                c = 0.0;
                self.new_page(pages);
            }
            c += dc;
            let items = &mut pages.last_mut().expect("a page").items;
            let b = KEY_BOX * self.em;
            self.key_entry(
                items,
                (k, band),
                Point::new(left + BORDER_SPACE, c - b / 2.0),
                b,
                Point::new(left + b + 2.0 * BORDER_SPACE, c - 5.0 * self.em),
            );
        }
    }

    /// One entry of a key: the `k`th band's swatch, `size` square from `swatch` (its
    /// bottom left), and its name starting at `label`.
    fn key_entry(
        &self,
        items: &mut Vec<Item>,
        (k, band): (usize, &crate::select::Band),
        swatch: Point,
        size: f64,
        label: Point,
    ) {
        let mut square = path(
            PathRole::KeySwatch,
            swatch,
            &[(0.0, size), (size, 0.0), (0.0, -size)],
            true,
        );
        square.fill = Some(self.fill(k, band));
        items.push(Item::Path(square));
        items.push(text(
            TextRole::KeyLabel,
            label,
            self.key_names[k].clone(),
            FontSize::Normal,
            Anchor::Start,
        ));
    }

    /// The key in rows under the graph, top band first, left to right.
    fn key_below(&self, page: &mut Page) {
        let em = self.em;
        let (rows, _) = below_rows(&self.key_names, self.title_width, em);
        let n = self.sel.bands.len();
        let top_row = self.under_axis() - BELOW_ROW * em;
        let b = BELOW_BOX * em;
        for (slot, &(row, x)) in rows.iter().enumerate() {
            let k = n - 1 - slot;
            let band = &self.sel.bands[k];
            let y = top_row - row as f64 * BELOW_ROW * em;
            self.key_entry(
                &mut page.items,
                (k, band),
                Point::new(BORDER_SPACE + x, y),
                b,
                Point::new(BORDER_SPACE + x + b + 4.0 * em, y + 1.0 * em),
            );
        }
    }

    /// The stacked bands: each band's scaled values are added onto the running top.
    fn bands(&self, items: &mut Vec<Item>, mut series: Vec<Series>) {
        let modern = self.opts.style == Style::Modern;
        // Data of identifiers that are not drawn (trace elements, merged into OTHER).
        let mut drawn = vec![false; series.len()];
        for band in &self.sel.bands {
            if let Source::Ident(id) = band.source {
                drawn[id as usize] = true;
            }
        }
        for (s, keep) in series.iter_mut().zip(drawn) {
            if !keep {
                *s = Series::default();
            }
        }
        let times = &self.profile.times;
        let n = times.len();
        let xs: Rc<[f64]> = times
            .iter()
            .map(|&t| ((t - times[0]) / self.sel.x_range) * self.graph_width + self.x0)
            .collect();
        let scale = self.graph_height / self.sel.y_range;
        let mut y = vec![0.0f64; n];
        let mut lower: Rc<[f64]> = vec![self.y0; n].into();
        for (k, band) in self.sel.bands.iter().enumerate() {
            match &band.source {
                Source::Ident(id) => {
                    let data = std::mem::take(&mut series[*id as usize]);
                    for (b, v) in data.points() {
                        y[b as usize] += v * scale;
                    }
                }
                Source::Other(values) => {
                    for (b, v) in values.iter().enumerate() {
                        y[b] += v * scale;
                    }
                }
            }
            let upper: Rc<[f64]> = y.iter().map(|&v| v + self.y0).collect();
            items.push(Item::Band(Band {
                name: band.name.to_vec(),
                xs: xs.clone(),
                lower,
                upper: upper.clone(),
                fill: self.fill(k, band),
                line_width: if modern { SEPARATOR_WIDTH } else { LINE_WIDTH },
                stroke: if modern {
                    Paint::Gray(1.0)
                } else {
                    Paint::BLACK
                },
            }));
            lower = upper;
        }
    }

    /// The paint of the `k`th band from the bottom: hp2ps's shade, unless another palette
    /// or stable colours are asked for; then `OTHER` is always the same neutral grey.
    fn fill(&self, k: usize, band: &crate::select::Band) -> crate::scene::Paint {
        match self.paints.get(k) {
            Some(&p) => p,
            None => paint::paint(band.shade),
        }
    }

    /// Heap size (a thick line), blocks in use and live bytes (thin ones) over the
    /// sampled time, on the bands' scale: how much of the heap the census accounts for,
    /// and how much the runtime holds beyond it. Then the allocation rate, on its own
    /// scale (its peak at the graph's top, said in its label) and in colour, so that it
    /// is not read against the bytes axis.
    fn heap_lines(&self, items: &mut Vec<Item>) {
        let times = &self.profile.times;
        let (first, last) = (times[0], times[times.len() - 1]);
        let heap = &self.profile.heap;
        let to_x = |t: f64| ((t - first) / self.sel.x_range) * self.graph_width + self.x0;
        let mut ends: Vec<(f64, f64, &[u8])> = Vec::new();
        for (points, width, label, paint) in [
            (
                &heap.size,
                1.0,
                &b"heap size"[..],
                crate::scene::HEAP_SIZE_PAINT,
            ),
            (
                &heap.blocks,
                0.4,
                &b"blocks in use"[..],
                crate::scene::BLOCKS_PAINT,
            ),
            (
                &heap.live,
                0.75,
                &b"live bytes"[..],
                crate::scene::LIVE_PAINT,
            ),
        ] {
            let shown: Vec<Point> = points
                .iter()
                .filter(|(t, _)| (first..=last).contains(t))
                .map(|&(t, v)| {
                    Point::new(to_x(t), v / self.sel.y_range * self.graph_height + self.y0)
                })
                .collect();
            // A line that moves faster than the figure can show (more readings than
            // points across) is drawn as its envelope, lightly, and the line through
            // each column's last reading on top.
            let shown = match envelope(&shown, self.x0, self.graph_width, ENVELOPE_COLUMN) {
                Some((outline, last)) => {
                    let (start, steps) = relative(&outline).expect("an envelope has points");
                    items.push(Item::Path(Path {
                        role: PathRole::HeapLine,
                        start,
                        steps,
                        closed: true,
                        fill: Some(crate::scene::tint(paint)),
                        stroke: crate::scene::tint(paint),
                        line_width: 0.1,
                        label: Some(
                            [
                                label,
                                &b": lowest and highest in each stretch of the figure"[..],
                            ]
                            .concat(),
                        ),
                    }));
                    last
                }
                None => shown,
            };
            let Some(end) = line(items, &shown, width, label, paint) else {
                continue;
            };
            // Above the end, and above the collections' strip.
            ends.push((end.x, (end.y + 2.0).max(self.y0 + STRIP + 2.0), label));
        }
        // The labels at the lines' ends, each a line of text above the one below it, so
        // that two lines ending together do not print one label over the other.
        ends.sort_by(|a, b| a.1.total_cmp(&b.1));
        let row = 10.0 * self.opts.font_size / 10.0;
        let mut floor = f64::MIN;
        for (x, y, label) in ends {
            let y = y.max(floor);
            floor = y + row;
            items.push(text(
                TextRole::HeapLineLabel,
                Point::new(x, y),
                label.to_vec(),
                FontSize::Normal,
                Anchor::End,
            ));
        }
        // One reading of the rate every three points of the graph's width, and no more
        // than there are collections: the counters are read at collections, so finer
        // steps would only show how the collections fall.
        let gcs = self.profile.runtime.gcs.len().max(1);
        let columns = ((self.graph_width / 3.0).max(1.0) as usize).min(gcs);
        let rate = self.profile.runtime.allocation_rate(first, last, columns);
        let peak = rate.iter().map(|r| r.1).fold(0.0, f64::max);
        if peak <= 0.0 {
            return;
        }
        let shown: Vec<Point> = rate
            .iter()
            .map(|&(t, r)| Point::new(to_x(t), r / peak * self.graph_height + self.y0))
            .collect();
        let scale = self.opts.scale(b"bytes");
        let label = format!(
            "allocation rate (peak {}/s)",
            crate::units::human(peak, scale)
        );
        line(
            items,
            &shown,
            0.6,
            label.as_bytes(),
            crate::scene::ALLOCATION_RATE_PAINT,
        );
        // The label in the graph's top left corner, the rate's peak being the top.
        items.push(text(
            TextRole::HeapLineLabel,
            Point::new(self.x0 + 4.0, self.y0 + self.graph_height - 10.0),
            label.into_bytes(),
            FontSize::Normal,
            Anchor::Start,
        ));
    }

    /// The runtime's collections along the bottom of the graph, on a white strip: each
    /// as wide as its pause (at least a hairline), a major one twice as tall and darker,
    /// so that a long pause shows where the heap changed. Collections closer than half a point share
    /// one mark (a major one among them makes it major), which bounds the marks by the
    /// graph's width.
    fn collections(&self, items: &mut Vec<Item>) {
        const MINOR: f64 = STRIP / 2.0;
        const MAJOR: f64 = STRIP;
        const HAIRLINE: f64 = 0.4;
        let times = &self.profile.times;
        let (first, last) = (times[0], times[times.len() - 1]);
        let x = |t: f64| ((t - first) / self.sel.x_range) * self.graph_width + self.x0;
        let mut marks: Vec<(f64, f64, bool)> = Vec::new();
        for gc in &self.profile.runtime.gcs {
            if !(first..=last).contains(&gc.start) {
                continue;
            }
            let (x0, x1) = (x(gc.start), x(gc.end.min(last)).max(x(gc.start) + HAIRLINE));
            let major = gc.generation > 0;
            match marks.last_mut() {
                Some(m) if x0 <= m.1 + 0.5 => {
                    m.1 = m.1.max(x1);
                    m.2 |= major;
                }
                _ => marks.push((x0, x1, major)),
            }
        }
        if marks.is_empty() {
            return;
        }
        // A white ground under the marks, so that they show on a dark band.
        let mut ground = path(
            PathRole::Collection,
            Point::new(self.x0, self.y0),
            &[
                (self.graph_width, 0.0),
                (0.0, MAJOR + 1.0),
                (-self.graph_width, 0.0),
            ],
            true,
        );
        ground.fill = Some(Paint::Gray(1.0));
        ground.line_width = 0.0;
        items.push(Item::Path(ground));
        for (x0, x1, major) in marks {
            let h = if major { MAJOR } else { MINOR };
            let mut p = path(
                PathRole::Collection,
                Point::new(x0, self.y0),
                &[(x1 - x0, 0.0), (0.0, h), (x0 - x1, 0.0)],
                true,
            );
            p.fill = Some(if major {
                crate::scene::MAJOR_GC_PAINT
            } else {
                crate::scene::MINOR_GC_PAINT
            });
            p.line_width = 0.0;
            items.push(Item::Path(p));
        }
    }

    fn marks(&self, items: &mut Vec<Item>) {
        let times = &self.profile.times;
        for mark in &self.profile.marks {
            let m = ((mark.time - times[0]) / self.sel.x_range) * self.graph_width;
            let mut caret = path(
                PathRole::Mark,
                Point::new(m + self.x0 - CARET, self.y0),
                &[(CARET, -CARET), (CARET, CARET)],
                true,
            );
            caret.fill = Some(Paint::Gray(1.0));
            caret.label = mark.text.as_ref().map(|t| t.to_vec());
            items.push(Item::Path(caret));
        }
    }
}
