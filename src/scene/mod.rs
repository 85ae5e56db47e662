//! The scene: a backend-neutral description of the drawing, in points.
//!
//! Layout produces it; the PostScript, SVG and PDF backends only walk it. Coordinates are
//! in PostScript's convention: origin at the bottom left of the 648 × 432 pt drawing box,
//! y pointing up. Every colour is resolved and every text item carries its font size,
//! anchor and rotation, so a backend needs nothing else.
//!
//! Items also carry a *role* (what the item is: a tick, a key label…). Generic backends
//! may ignore it; the PostScript backend uses it to write each item with the exact
//! operator sequence hp2ps uses for that kind of item.

pub mod reduce;

use std::rc::Rc;

/// Width of the drawing box in points (9 in).
pub const WIDTH: f64 = 648.0;
/// Height of the drawing box in points (6 in).
pub const HEIGHT: f64 = 432.0;

/// A position in points.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    /// Across, from the left.
    pub x: f64,
    /// Up, from the bottom.
    pub y: f64,
}

impl Point {
    /// A point at `x`, `y`.
    pub const fn new(x: f64, y: f64) -> Self {
        Point { x, y }
    }
}

/// A fill colour.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Paint {
    /// Grey level, 0 black to 1 white.
    Gray(f64),
    /// Red, green and blue, each 0 to 1.
    Rgb(f64, f64, f64),
}

impl Paint {
    /// What hp2ps strokes everything with.
    pub const BLACK: Paint = Paint::Gray(0.0);
    /// White.
    pub const WHITE: Paint = Paint::Gray(1.0);

    /// Text on this paint: black or white, whichever contrasts more (WCAG's relative
    /// luminance and contrast ratio), so that a label on a dark box stays readable.
    pub fn ink(self) -> Paint {
        let linear = |c: f64| {
            if c <= 0.04045 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        let l = match self {
            Paint::Gray(g) => linear(g),
            Paint::Rgb(r, g, b) => 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b),
        };
        // Contrast with black (l + 0.05) / 0.05 against white's 1.05 / (l + 0.05).
        if (l + 0.05) * (l + 0.05) >= 0.05 * 1.05 {
            Paint::BLACK
        } else {
            Paint::WHITE
        }
    }
}

/// How the page is placed on paper (PostScript output only: other formats are upright).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Orientation {
    /// Rotated onto a portrait page (hp2ps's default).
    Landscape,
    /// Upright, offset by an inch and a half (`-g`).
    Portrait,
}

/// The output size and placement.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct Media {
    /// Placement on a printer page.
    pub orientation: Orientation,
    /// Width of an encapsulated figure in points (`-e`); the drawing box is scaled to it.
    pub eps_width: Option<f64>,
}

impl Media {
    /// A figure placed as `orientation` says, `eps_width` points wide when encapsulated.
    pub fn new(orientation: Orientation, eps_width: Option<f64>) -> Media {
        Media {
            orientation,
            eps_width,
        }
    }
}

impl Scene {
    /// Scale from drawing-box points to output points.
    pub fn scale(&self) -> f64 {
        self.media.eps_width.map_or(1.0, |w| w / self.width)
    }
}

/// Font size: hp2ps uses Helvetica at two sizes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FontSize {
    /// 10 pt: axes and key.
    Normal,
    /// 12 pt: title box.
    Large,
}

impl FontSize {
    /// The size in points, as hp2ps has it.
    pub fn points(self) -> u32 {
        match self {
            FontSize::Normal => 10,
            FontSize::Large => 12,
        }
    }

    /// The size in points when normal text is `normal` points (12 pt becomes 19.2 when
    /// 10 becomes 16, to the nearest double).
    pub fn points_at(self, normal: f64) -> f64 {
        f64::from(self.points()) * normal / 10.0
    }
}

/// Which point of the text sits at its position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Anchor {
    /// At the start of the text.
    Start,
    /// In its middle.
    Middle,
    /// At its end.
    End,
}

impl Anchor {
    /// How far the text's start lies before its position, for a text `width` wide: what
    /// a backend that places text by its start needs.
    pub fn back(self, width: f64) -> f64 {
        match self {
            Anchor::Start => 0.0,
            Anchor::Middle => width / 2.0,
            Anchor::End => width,
        }
    }
}

/// What a text item is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextRole {
    /// The job (program and its arguments).
    Title,
    /// `"<area> <value unit> x <sample unit>"`.
    Area,
    /// The date of the run.
    Date,
    /// The unit name along an axis.
    AxisLegend,
    /// A number at an axis tick.
    TickLabel,
    /// A band name in the key.
    KeyLabel,
    /// The name of a heap line, at its end.
    HeapLineLabel,
    /// The name of a panel under the graph (the allocation rate's).
    PanelLabel,
    /// A line of text under the graphs, saying what a figure shows (the bands that
    /// changed most between two runs).
    Caption,
    /// A cost centre's name in its flame graph box.
    FrameLabel,
    /// What the shaded stretch before the first census is ([`PathRole::Unobserved`]).
    UnobservedLabel,
}

/// A line of text. The bytes are the profile's own: not necessarily UTF-8.
#[derive(Debug, Clone, PartialEq)]
pub struct Text {
    /// What the text is, for backends that treat kinds apart.
    pub role: TextRole,
    /// The anchor point, on the baseline.
    pub at: Point,
    /// The text, in the profile's bytes.
    pub text: Vec<u8>,
    /// Its size.
    pub size: FontSize,
    /// Where `at` sits in it.
    pub anchor: Anchor,
    /// Turned 90° counter-clockwise (reading upwards).
    pub vertical: bool,
    /// Its colour: black, but on a box too dark for black to read (a flame graph's
    /// frame), white ([`Paint::ink`]).
    pub ink: Paint,
}

/// What a path is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathRole {
    /// The border of the drawing box.
    Frame,
    /// The box around the title.
    TitleBox,
    /// The line between the two rows of a big title.
    TitleRule,
    /// An axis line.
    Axis,
    /// A tick on an axis.
    Tick,
    /// The colour swatch of a key entry.
    KeySwatch,
    /// A caret under the x axis at a MARK time.
    Mark,
    /// The runtime's heap size or live bytes over time, drawn over the bands.
    HeapLine,
    /// A garbage collection (or the collections within a sliver of time) marked along
    /// the bottom of the graph, as wide as its pause.
    Collection,
    /// A stretch of a capability's strip under the graph: its shares of the time
    /// running Haskell code and collecting.
    Capability,
    /// A box of a flame graph: a cost centre and the bytes under its stack.
    FlameFrame,
    /// A bar of the run's samples under the graph: one cost centre's in one stretch.
    SampleBar,
    /// The stretch of the graph from the program's start to its first census (an
    /// eventlog's): shaded, so that what no census saw reads as not observed, not as
    /// an empty heap.
    Unobserved,
}

/// How a path's corners are joined.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Join {
    /// Mitred up to [`MITRE_LIMIT`], as hp2ps draws (PostScript's default).
    Mitre,
    /// Round: the ink stays within half the width of the path.
    Round,
}

/// The mitre limit every backend draws mitred corners with: PostScript's and PDF's
/// default, which SVG is told (its own, 4, bevels corners the others mitre).
pub const MITRE_LIMIT: f64 = 10.0;

impl Join {
    /// How far from its path the ink of a line `width` wide reaches at worst.
    pub fn reach(self, width: f64) -> f64 {
        match self {
            Join::Mitre => MITRE_LIMIT * width / 2.0,
            Join::Round => width / 2.0,
        }
    }
}

impl PathRole {
    /// How a path of this role joins its corners, in every backend and on the page: a
    /// runtime line's round, so that its ink keeps within half its width of the line
    /// whatever its corners (the layout keeps names that far off); all else mitred,
    /// as hp2ps draws.
    pub fn join(self) -> Join {
        match self {
            PathRole::HeapLine => Join::Round,
            _ => Join::Mitre,
        }
    }
}

/// A path made of straight steps, each relative to the point before.
#[derive(Debug, Clone, PartialEq)]
pub struct Path {
    /// What the path is.
    pub role: PathRole,
    /// Where it starts.
    pub start: Point,
    /// Relative steps `(dx, dy)`.
    pub steps: Vec<Point>,
    /// Closed back to the start.
    pub closed: bool,
    /// Fill, if any.
    pub fill: Option<Paint>,
    /// Width of the outline (every path is stroked).
    pub line_width: f64,
    /// The outline's colour: black for everything hp2ps draws; a runtime line drawn
    /// on its own scale is coloured so it is not read against the bytes axis.
    pub stroke: Paint,
    /// What the path stands for, for formats that can show it on demand (SVG's
    /// `<title>`): a user marker's text on its caret.
    pub label: Option<Vec<u8>>,
}

/// One band of the stacked graph: the area between two curves over the sample times.
/// The arrays are shared with the neighbouring bands (one band's top is the next one's
/// bottom), so a long profile is held once, not once per band.
#[derive(Debug, Clone, PartialEq)]
pub struct Band {
    /// The band's full name (the key may show it shortened), for formats that can carry
    /// it (SVG's `<title>`, a tooltip).
    pub name: Vec<u8>,
    /// The x of each point.
    pub xs: Rc<[f64]>,
    /// The band's lower edge at each x.
    pub lower: Rc<[f64]>,
    /// Its upper edge.
    pub upper: Rc<[f64]>,
    /// Its fill.
    pub fill: Paint,
    /// Its outline's width.
    pub line_width: f64,
    /// Its outline's colour: black in hp2ps's style; in the modern style a thin white
    /// separator, so that a spiky band is not drawn in black ink.
    pub stroke: Paint,
}

impl Band {
    /// The outline as hp2ps draws it: along the lower curve from the left (starting on
    /// the first point twice), up at the right, back along the upper curve.
    pub fn outline(&self) -> impl Iterator<Item = Point> + '_ {
        let n = self.xs.len();
        let first = Point::new(self.xs[0], self.lower[0]);
        let lower = (0..n).map(|i| Point::new(self.xs[i], self.lower[i]));
        let upper = std::iter::once(n - 1)
            .chain((0..n).rev())
            .map(|i| Point::new(self.xs[i], self.upper[i]));
        std::iter::once(first).chain(lower).chain(upper)
    }
}

/// A filled and outlined polygon: a band as [`crate::scene::reduce`] draws it, the region
/// between the baseline and the band's top, at the output's resolution.
#[derive(Debug, Clone, PartialEq)]
pub struct Area {
    /// The band's full name.
    pub name: Vec<u8>,
    /// The closed outline, in points.
    pub outline: Vec<Point>,
    /// Its fill.
    pub fill: Paint,
    /// Its outline's width.
    pub line_width: f64,
    /// Its outline's colour, as its band's.
    pub stroke: Paint,
}

/// One drawing item.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// A line or outline.
    Path(Path),
    /// Text.
    Text(Text),
    /// A band, drawn from every point.
    Band(Band),
    /// A band reduced to a polygon.
    Area(Area),
}

/// One page; most scenes have one, a key on pages of its own adds more.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Page {
    /// What is drawn, in order.
    pub items: Vec<Item>,
}

/// The whole drawing.
#[derive(Debug, Clone, PartialEq)]
pub struct Scene {
    /// Document title (the job), for metadata.
    pub title: Vec<u8>,
    /// Date of the run, for metadata.
    pub date: Vec<u8>,
    /// The drawing box in points: hp2ps's [`WIDTH`] x [`HEIGHT`] unless `--size`.
    pub width: f64,
    /// Its height, in points.
    pub height: f64,
    /// Page size and orientation.
    pub media: Media,
    /// The pages: the graph, then key pages.
    pub pages: Vec<Page>,
    /// Where the graph is and what its axes span, for formats that redraw it themselves
    /// (the HTML page's zoom and hidden bands); `None` when nothing was laid out.
    pub plot: Option<Plot>,
    /// The size of [`FontSize::Normal`] text in points: hp2ps's 10 unless `--font-size`.
    pub font_size: f64,
    /// What an interactive page draws beyond the picture, in the paints the layout chose
    /// for it (`None` for every other output).
    pub page_paints: Option<Box<PagePaints>>,
    /// The run's samples' panel, for a page to redraw at its zoom (`None` without one).
    pub samples: Option<Box<SamplesRow>>,
    /// The bands the picture draws over time, bottom first, each with its fill: resolved
    /// once by the layout, so that what needs a band's paint (a page's key and colours,
    /// the paints a page gives the bands it can add) reads it here, not off the drawing.
    /// Empty for a flame graph or a key of its own.
    pub legend: Vec<LegendEntry>,
}

/// One band of a picture, as its key pairs them: its name and its fill.
#[derive(Debug, Clone, PartialEq)]
pub struct LegendEntry {
    /// The band's whole name.
    pub name: Vec<u8>,
    /// Its paint.
    pub fill: Paint,
}

/// The paints of what a page draws that its picture does not: chosen by the layout
/// (`layout::paint::page_paints`) with the picture's own, so that a backend only writes
/// them down.
#[derive(Debug, Clone, PartialEq)]
pub struct PagePaints {
    /// Each band the picture left out, in the page data's order.
    pub pool: Vec<Paint>,
    /// Each flame-graph label, in the page data's order.
    pub frames: Vec<Paint>,
    /// Each label of the flame graph of the cost-centre samples beside a heap profile,
    /// in their page data's order (by name, as `frames`).
    pub sample_frames: Vec<Paint>,
    /// A window's `OTHER`.
    pub other: Paint,
    /// The runtime's lines as the picture draws them, in the order of
    /// [`RuntimeLine`]'s variants: heap size, blocks in use, live bytes, allocation rate.
    pub lines: [LineStyle; 4],
    /// A minor and a major collection's mark.
    pub gcs: [Paint; 2],
}

/// How a runtime line is drawn and named: chosen once by the layout, for the picture
/// and the page alike.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LineStyle {
    /// Its name, as the key and the end label say it.
    pub name: &'static str,
    /// Its width in points.
    pub width: f64,
    /// Its colour.
    pub paint: Paint,
}

/// The runtime's lines, in the order [`PagePaints::lines`] holds their styles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RuntimeLine {
    /// The heap's size.
    HeapSize = 0,
    /// The allocated blocks' size (GHC 9.2 and later).
    Blocks = 1,
    /// Live bytes.
    Live = 2,
    /// Bytes allocated per second: on its own scale.
    AllocationRate = 3,
}

impl RuntimeLine {
    /// Every line, in order.
    pub const ALL: [RuntimeLine; 4] = [
        RuntimeLine::HeapSize,
        RuntimeLine::Blocks,
        RuntimeLine::Live,
        RuntimeLine::AllocationRate,
    ];
}

impl Default for PagePaints {
    /// The runtime's paints, and nothing chosen for bands or frames (each then OTHER's).
    fn default() -> Self {
        PagePaints {
            pool: Vec::new(),
            frames: Vec::new(),
            sample_frames: Vec::new(),
            other: OTHER_PAINT,
            lines: LINE_STYLES,
            gcs: [MINOR_GC_PAINT, MAJOR_GC_PAINT],
        }
    }
}

impl Scene {
    /// Moves everything right by `dx` and up by `dy` points.
    pub fn shift(&mut self, dx: f64, dy: f64) {
        let up = |p: &mut Point| {
            p.x += dx;
            p.y += dy;
        };
        // A band's lower edge is the one below's upper, one array for both: lifted
        // once, so that the stack's edges stay shared (a band is a census's worth of
        // numbers, and a long run's picture holds one array a band, not two).
        // Known by address only, so that an edge no band holds any more is freed as the
        // pass goes: an edge met later was made before the pass, while every edge known
        // was alive, so it shares no address with one of them but by being it.
        let mut lifted: std::collections::HashMap<*const f64, Rc<[f64]>> = Default::default();
        let mut lift = |edge: &mut Rc<[f64]>| {
            let new = lifted
                .entry(edge.as_ptr())
                .or_insert_with(|| edge.iter().map(|y| y + dy).collect());
            *edge = new.clone();
        };
        // The bands' times are shared the same way.
        let mut moved: std::collections::HashMap<*const f64, Rc<[f64]>> = Default::default();
        let mut slide = |xs: &mut Rc<[f64]>| {
            if dx != 0.0 {
                let new = moved
                    .entry(xs.as_ptr())
                    .or_insert_with(|| xs.iter().map(|x| x + dx).collect());
                *xs = new.clone();
            }
        };
        for page in &mut self.pages {
            for item in &mut page.items {
                match item {
                    Item::Path(p) => up(&mut p.start),
                    Item::Text(t) => up(&mut t.at),
                    Item::Band(b) => {
                        slide(&mut b.xs);
                        lift(&mut b.lower);
                        lift(&mut b.upper);
                    }
                    Item::Area(a) => a.outline.iter_mut().for_each(up),
                }
            }
        }
        if let Some(plot) = &mut self.plot {
            plot.x0 += dx;
            plot.y0 += dy;
        }
    }

    /// One picture of `panels` (each a one-page scene of the same size) one above the
    /// other, first on top, or `beside` one another, first on the left, over a strip
    /// `below` points tall for `captions`. The first panel's metadata names the picture.
    /// Also where each panel's graph went.
    pub fn stacked(
        panels: Vec<Scene>,
        below: f64,
        captions: Vec<Item>,
        beside: bool,
    ) -> (Scene, Vec<Plot>) {
        let height = below
            + if beside {
                panels.iter().map(|p| p.height).fold(0.0, f64::max)
            } else {
                panels.iter().map(|p| p.height).sum::<f64>()
            };
        let mut left = 0.0;
        let mut items = Vec::new();
        let mut plots = Vec::new();
        let mut legend: Vec<LegendEntry> = Vec::new();
        let mut top = height;
        let (mut title, mut date, mut width, mut font_size, mut media) = (
            Vec::new(),
            Vec::new(),
            0.0,
            10.0,
            Media {
                orientation: Orientation::Landscape,
                eps_width: None,
            },
        );
        for (k, mut panel) in panels.into_iter().enumerate() {
            if beside {
                panel.shift(left, height - panel.height);
                left += panel.width;
            } else {
                top -= panel.height;
                panel.shift(0.0, top);
            }
            plots.extend(panel.plot);
            if k == 0 {
                title = std::mem::take(&mut panel.title);
                date = std::mem::take(&mut panel.date);
                (width, font_size, media) = (panel.width, panel.font_size, panel.media);
            }
            if beside {
                width = left;
            }
            for page in panel.pages {
                items.extend(page.items);
            }
            for entry in panel.legend {
                if !legend.iter().any(|e| e.name == entry.name) {
                    legend.push(entry);
                }
            }
        }
        items.extend(captions);
        let scene = Scene {
            title,
            date,
            width,
            height,
            media,
            pages: vec![Page { items }],
            plot: None,
            font_size,
            page_paints: None,
            samples: None,
            legend,
        };
        (scene, plots)
    }
}

/// The run's samples' panel under the graph ([`crate::select::samples`]) as a page
/// redraws it at any zoom: where it is and what each bar holds, in the paints the layout
/// chose for it (its key is the picture's).
#[derive(Debug, Clone, PartialEq)]
pub struct SamplesRow {
    /// The panel's plot height.
    pub height: f64,
    /// The row between the graph's bottom and the panel's top: its name and key.
    pub gap: f64,
    /// The panel's top: the most samples a stretch holds.
    pub top: f64,
    /// The stretches' edges, in the profile's time.
    pub edges: Vec<f64>,
    /// Each bar's cost centre (or the rest), its paint and its samples in each stretch,
    /// stacked from the bottom in this order.
    pub bars: Vec<SamplesBar>,
}

/// One cost centre's bars of a [`SamplesRow`].
#[derive(Debug, Clone, PartialEq)]
pub struct SamplesBar {
    /// The cost centre's name, or the rest's.
    pub name: Vec<u8>,
    /// Its paint.
    pub fill: Paint,
    /// Its samples in each stretch.
    pub counts: Vec<f64>,
}

/// The graph's rectangle on its page and the values at its edges: a sample at time `t`
/// with stacked value `v` sits at `x0 + (t - first_time) / x_range * width`,
/// `y0 + v / y_range * height`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Plot {
    /// Index of the page the graph is on.
    pub page: usize,
    /// Where the graph starts across.
    pub x0: f64,
    /// Where it starts up.
    pub y0: f64,
    /// Its width.
    pub width: f64,
    /// Its height.
    pub height: f64,
    /// The time at its left edge.
    pub first_time: f64,
    /// The time span across it.
    pub x_range: f64,
    /// The value span up it.
    pub y_range: f64,
    /// Room at the right end of the x axis and the top of the y axis that their legends
    /// take: no tick label goes there.
    pub x_legend: f64,
    /// The y axis legend's width.
    pub y_legend: f64,
    /// The strips' row between the graph's bottom and its time axis (0 without one):
    /// the capabilities' strips' part of it, then the collections'.
    pub strip: f64,
    /// Of [`Plot::strip`], the capabilities' strips, [`Plot::capability_row`] each.
    pub capabilities: f64,
    /// A capability's strip's row.
    pub capability_row: f64,
    /// The rate panel's plot height between the graph and the strip (0 without one).
    pub rate: f64,
    /// The row between the graph's bottom and the rate panel's top (0 without one).
    pub rate_gap: f64,
}

/// The runtime's heap size line: a dark blue, so that it reads apart from the bands
/// and the other lines.
pub const HEAP_SIZE_PAINT: Paint = Paint::Rgb(0.12, 0.35, 0.65);
/// The live bytes line: a dark green.
pub const LIVE_PAINT: Paint = Paint::Rgb(0.1, 0.5, 0.25);
/// The blocks-in-use line: a dark grey.
pub const BLOCKS_PAINT: Paint = Paint::Gray(0.3);

/// A major collection's mark in the GC strip: a dark grey, twice as tall as a minor
/// one's, so that long pauses show without a black block's ink.
pub const MAJOR_GC_PAINT: Paint = Paint::Gray(0.3);
/// A minor collection's mark.
pub const MINOR_GC_PAINT: Paint = Paint::Gray(0.65);
/// A capability's time running Haskell code in its strip: ThreadScope's green, light
/// (a figure at a column's width stays under its share of dark ink, `tests/it/ink.rs`),
/// its time collecting in [`MINOR_GC_PAINT`] above it, idle left blank.
pub const RUNNING_PAINT: Paint = Paint::Rgb(0.45, 0.75, 0.45);

/// A line's envelope: its colour three quarters of the way to white.
pub fn tint(paint: Paint) -> Paint {
    let t = |v: f64| v + (1.0 - v) * 0.75;
    match paint {
        Paint::Gray(g) => Paint::Gray(t(g)),
        Paint::Rgb(r, g, b) => Paint::Rgb(t(r), t(g), t(b)),
    }
}

/// The allocation rate's line: a dark orange, apart from the black bytes lines and
/// readable over a light band. A line on its own scale is coloured so that it is not
/// read against the bytes axis.
pub const ALLOCATION_RATE_PAINT: Paint = Paint::Rgb(0.8, 0.33, 0.0);

/// The runtime's lines, in [`RuntimeLine`]'s order: the heap size thick, the others
/// thin, each in its paint; the picture draws them so and the page is handed them.
pub const LINE_STYLES: [LineStyle; 4] = [
    LineStyle {
        name: "heap size",
        width: 1.0,
        paint: HEAP_SIZE_PAINT,
    },
    LineStyle {
        name: "blocks in use",
        width: 0.4,
        paint: BLOCKS_PAINT,
    },
    LineStyle {
        name: "live bytes",
        width: 0.75,
        paint: LIVE_PAINT,
    },
    LineStyle {
        name: "allocation rate",
        width: 0.6,
        paint: ALLOCATION_RATE_PAINT,
    },
];

/// The neutral grey of the `OTHER` band outside hp2ps's palette, in every figure (and of
/// a zoomed page's `OTHER`): lighter than every palette's grey, so it never passes for a
/// band.
pub const OTHER_PAINT: Paint = Paint::Gray(0.85);

/// The shade of the graph before the first census ([`PathRole::Unobserved`]): lighter
/// than any band's paint and [`OTHER_PAINT`], so it never reads as a band.
pub const UNOBSERVED_PAINT: Paint = Paint::Gray(0.94);

/// What the shaded stretch before the first census is called, and its shorter name
/// where that does not fit: the one wording of the picture and the page.
pub const UNOBSERVED_NAMES: [&str; 2] = ["before the first census", "no census"];
