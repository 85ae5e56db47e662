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

mod axes;
mod bands;
mod distinct;
mod key;
mod labels;
mod marks;
mod rate;
mod runtime;
mod samples;
mod title;

use key::*;
pub use key::{key_below_holds, key_figure, key_width, selected};

use std::rc::Rc;

use crate::profile::{Profile, Series};
use crate::scene::reduce::reduce_curve;
use crate::scene::{
    Anchor, Area, Band, FontSize, HEIGHT, Item, Media, Page, Paint, Path, PathRole, Plot, Point,
    Scene, Text, TextRole, WIDTH,
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
            (Style::Modern, _) => ((height - 60.0 * em) / (KEY_ROW * em)).max(2.0) as usize,
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
#[non_exhaustive]
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
    /// A flame graph may grow taller than `size` (at most [`flame::MAX_GROWTH`] times)
    /// so that every row is tall enough to name its frames, as inferno grows its image
    /// with the depth: where the size is hpgraph's default, not `--size`'s.
    pub grow: bool,
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
    /// Each band's paint by name, decided for several figures at once (`--compare`'s
    /// panels: one band, one colour in both); `None`: each figure decides its own.
    pub paints: Option<std::sync::Arc<std::collections::HashMap<Vec<u8>, Paint>>>,
    /// The resolution, in points, bands are drawn at ([`crate::scene::reduce`]): where a
    /// graph has more censuses than columns, each band is reduced to its extremes in
    /// each column as it is stacked. `None` keeps every point (PostScript in hp2ps's
    /// style, `--exact`).
    pub column: Option<f64>,
}

impl LayoutOptions {
    /// The scale the modern style's value ticks are written in.
    fn scale(&self, value: crate::units::ValueUnit) -> Scale {
        Scale::new(value, self.byte_units)
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
            grow: false,
            font_size: 10.0,
            style: Style::Hp2ps,
            byte_units: ByteUnits::Decimal,
            title_text: None,
            min_key_width: 0.0,
            media: Media {
                orientation: crate::scene::Orientation::Landscape,
                eps_width: None,
            },
            paints: None,
            column: None,
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
/// The least height a modern key's entry beside the graph takes, at 10 pt text: the
/// rows [`Style::key_entries`] counts on.
const KEY_ROW: f64 = 12.0;
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
    /// The graph's bottom: hp2ps's x axis, raised by a key below the graph and by the
    /// collections' strip under it ([`Frame::axis_y`] is the axis).
    y0: f64,
    /// The collections' strip's row between the graph and its time axis
    /// ([`marks::STRIP_ROW`]), or 0 without one.
    strip_row: f64,
    /// How many capabilities' strips the row holds, above the collections' strip.
    capability_strips: usize,
    /// The runtime's rate in a panel of its own between the graph and the strip.
    rate: Option<rate::RatePanel>,
    /// The run's samples in a panel of their own between the graph and the rate panel.
    samples: Option<samples::Panel<'a>>,
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
    let legend = (sel.bands.iter().enumerate())
        .map(|(k, band)| crate::scene::LegendEntry {
            name: band.name.to_vec(),
            fill: f.fill(k, band),
        })
        .collect();
    let (pages, plot) = f.pages(series);
    let samples = f.samples_row().map(Box::new);
    Scene {
        title: profile.job.clone(),
        date: profile.date.clone(),
        width: f.width,
        height: f.height,
        media: opts.media,
        pages,
        plot: Some(plot),
        font_size: opts.font_size,
        page_paints: None,
        samples,
        legend,
    }
}

/// Measures the page: the title's height, the key's width and names, and so where the
/// graph goes.
fn frame<'a>(profile: &'a Profile, sel: &'a Selection, opts: &'a LayoutOptions) -> Frame<'a> {
    // The runtime's lines named nowhere in the graph go in the lines' key above the rate
    // panel: a narrow figure gives it the rows they need, and the graph the rest (which
    // may leave another line unnamed: at most one more try a row).
    let mut f = frame_with(profile, sel, opts, 1);
    for rows in 2..=3 {
        if f.rate.is_none() || f.lines_key_rows(&f.heap_lines(&mut Vec::new())) < rows {
            break;
        }
        f = frame_with(profile, sel, opts, rows);
    }
    f
}

/// [`frame`] with `rows` rows above the rate panel for its name and the lines' key.
fn frame_with<'a>(
    profile: &'a Profile,
    sel: &'a Selection,
    opts: &'a LayoutOptions,
    rows: usize,
) -> Frame<'a> {
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
    let key_names = key_names(&names, profile, opts);
    let y0 = match opts.key {
        KeyPlacement::Below => GRAPH_Y0 * em + below_rows(&key_names, title_width, em).1,
        _ => GRAPH_Y0 * em,
    };
    // The runtime's collections take a row of their own under the graph, where its
    // lines are drawn.
    let (strip_row, capability_strips) =
        marks::strip_rows(profile, opts.heap_lines || profile.bands.is_empty());
    // The graphs' height, the heap's and the rate panel's.
    let room = height - title_height - 2.0 * BORDER_SPACE - y0 - strip_row;
    let rate = rate::RatePanel::new(profile, opts, title_width - GRAPH_X0 * em - key_width, room)
        .map(|panel| panel.with_rows(rows));
    let rate_row = rate.as_ref().map_or(0.0, |r| r.row(em));
    // Room left of the y axis for its labels: hp2ps's, or the rate panel's widest.
    let widest = rate.as_ref().map_or(0.0, |r| r.widest(opts.style, em));
    let x0 = fmax(GRAPH_X0 * em, widest + 2.0 * BORDER_SPACE);
    let graph_width = title_width - x0 - key_width;
    let paints = band_paints(sel, opts);
    let samples = samples::Panel::new(sel, opts, (x0, graph_width), room - rate_row, &paints);
    let samples_row = samples.as_ref().map_or(0.0, |s| s.row(em));
    Frame {
        paints,
        profile,
        sel,
        opts,
        big_title,
        title_height,
        graph_width,
        graph_height: room - rate_row - samples_row,
        width,
        height,
        title_width,
        em,
        x0,
        y0: y0 + strip_row + rate_row + samples_row,
        strip_row,
        capability_strips,
        rate,
        samples,
        key_names,
    }
}

/// Each band's paint when it is not hp2ps's shade: every band its own, OTHER its grey;
/// none for hp2ps's own shades.
fn band_paints(sel: &Selection, opts: &LayoutOptions) -> Vec<Paint> {
    if let Some(given) = &opts.paints {
        return (sel.bands.iter())
            .map(|b| match b.source {
                Source::Other(_) => paint::OTHER,
                _ => given.get(&b.name[..]).copied().unwrap_or(paint::OTHER),
            })
            .collect();
    }
    if opts.palette == paint::Palette::Hp2ps && !opts.stable_colours {
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
            paint::distinct_paints(own, &palette, &mut taken, opts.stable_colours).into_iter();
        sel.bands
            .iter()
            .map(|b| match b.source {
                Source::Other(_) => paint::OTHER,
                _ => given.next().expect("a paint for each band"),
            })
            .collect()
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
            f.key(&mut pages, f.axis_y(), f.x0 + f.graph_width);
        }
        if opts.key == KeyPlacement::Below {
            f.key_below(pages.last_mut().expect("a page"));
        }
        let items = &mut pages.last_mut().expect("a page").items;
        f.unobserved(items);
        f.bands(items, series);
        // A profile without a band (an eventlog without a heap profile): the runtime's
        // lines are the picture.
        if opts.heap_lines || profile.bands.is_empty() {
            let unnamed = f.heap_lines(items);
            f.rate(items, &unnamed);
            f.collections(items);
        } else {
            f.unobserved_label(items, &mut labels::Ink::default());
        }
        f.samples(items);
        if opts.marks {
            f.marks(items);
        }
        let plot = Plot {
            page: pages.len() - 1,
            x0: f.x0,
            y0: f.y0,
            width: f.graph_width,
            height: f.graph_height,
            first_time: sel.first,
            x_range: sel.x_range,
            y_range: sel.y_range,
            x_legend: f.legend(&profile.sample_unit),
            y_legend: f.legend(&profile.value_unit),
            strip: f.strip_row,
            capabilities: f.capability_strips as f64 * marks::CAPABILITY_ROW,
            capability_row: marks::CAPABILITY_ROW,
            rate: f.rate.as_ref().map_or(0.0, |r| r.height),
            rate_gap: f.rate.as_ref().map_or(0.0, |r| r.row(f.em) - r.height),
        };
        (pages, plot)
    }
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
        ink: Paint::BLACK,
    })
}

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

/// What the layout's tests read: a scene laid out from `.hp` text, and its texts.
#[cfg(test)]
pub(crate) mod testing {
    use super::*;

    /// `body` (samples and marks) under a `.hp` header, selected and laid out.
    pub fn scene(body: &str, opts: &LayoutOptions) -> Scene {
        let text = format!(
            "JOB \"job\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n{body}"
        );
        let profile = crate::input::hp::parse(text.as_bytes())
            .expect("parses")
            .profile;
        let sel = crate::select::select(&profile, None, &Default::default());
        layout(profile, &sel, opts)
    }

    /// The texts of `role` on the scene's first page, as text, in drawing order.
    pub fn texts(scene: &Scene, role: TextRole) -> Vec<String> {
        (scene.pages[0].items.iter())
            .filter_map(|i| match i {
                Item::Text(t) if t.role == role => Some(String::from_utf8_lossy(&t.text).into()),
                _ => None,
            })
            .collect()
    }

    /// Samples at `times`, each band `(name, values)` with a value at each.
    pub fn samples(times: &[f64], bands: &[(&str, &[f64])]) -> String {
        let mut s = String::new();
        for (k, t) in times.iter().enumerate() {
            s += &format!("BEGIN_SAMPLE {t}\n");
            for (name, values) in bands {
                s += &format!("{name}\t{}\n", values[k]);
            }
            s += &format!("END_SAMPLE {t}\n");
        }
        s
    }

    /// The modern style at `size` points.
    pub fn modern(size: (f64, f64)) -> LayoutOptions {
        LayoutOptions {
            style: Style::Modern,
            size,
            ..Default::default()
        }
    }
}
