//! The request: what a caller asks for, in the words of the command line's options,
//! and the one place every default is decided ([`Request::job`]).
//!
//! A field left as [`Request::new`] sets it means "the default": hp2ps's look for what
//! hp2ps writes and the modern one for every format it never wrote, a palette and a key
//! that suit the style, as many bands as the key has room for, a font that reads at the
//! figure's size. The command line maps each flag to one field and calls
//! [`Request::job`], as a program using the library does, so both make the same bytes
//! for the same request (`examples/svg.rs`, and the test beside it, hold that).

use super::{Data, FlameOf, Job, OutputKind, PageView, Picture, Serve, View};
use crate::analysis::page::PageOptions;
use crate::backend::{self, Format, html, svg::TextAs};
use crate::export::{Export, ExportOptions, summary::TextOptions};
use crate::input;
use crate::layout::{KeyPlacement, LayoutOptions, Style, TitleSize, paint::Palette};
use crate::profile::costs::Measure;
use crate::scene::{Media, Orientation};
use crate::select::filter::Filter;
use crate::select::flame::{Direction, WhichCensus};
use crate::select::{NameOrder, SelectOptions, Shading};
use crate::units::ByteUnits;

/// What a caller asks for. Every field is an option of the command line's (named
/// beside it); [`Request::new`] leaves each to its default.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Request {
    /// What is written: a picture's format or a data format (`--format`, `-o`'s name).
    pub output: OutputKind,
    /// `--style`; `None`: hp2ps's for PostScript and EPS, modern for the rest.
    pub style: Option<Style>,
    /// `--palette`; `None`: hp2ps's colours in its style, tableau10 in the modern one.
    pub palette: Option<Palette>,
    /// `--key`: [`KeyPlacement::Beside`], `Below`, `None` or `Apart` (`--key file`);
    /// `None`: beside the graph, or on pages of its own past twenty bands.
    pub key: Option<KeyPlacement>,
    /// `--size`, in points; `None`: hp2ps's box (taller for panels or a comparison).
    pub size: Option<(f64, f64)>,
    /// `--font-size`, in points; `None`: hp2ps's 10, or in the modern style a size that
    /// reads at the figure's size (from 7 points on a column-wide figure).
    pub font_size: Option<f64>,
    /// `-m`: at most this many bands; `None`: as many as the key shows, at most twenty.
    pub max_bands: Option<usize>,
    /// `-t`: bands under this share of the whole, in percent, join OTHER; `None`: 1%.
    pub threshold: Option<f64>,
    /// `-M`: the key on pages of its own.
    pub multi_page: bool,
    /// `-d`: the most varying bands on top.
    pub by_deviation: bool,
    /// `--sort growth`: the steepest-growing bands on top.
    pub by_growth: bool,
    /// `-i`: by name.
    pub by_name: Option<NameOrder>,
    /// `--reverse`: the order turned over.
    pub reverse: bool,
    /// `--view share`: each band as its share of its census.
    pub shares: bool,
    /// `-c`: colour (a page is always in colour).
    pub colour: bool,
    /// Not `-y`: the census marks along the time axis.
    pub marks: bool,
    /// `--heap-lines`: the runtime's heap size and live bytes over the bands.
    pub heap_lines: bool,
    /// `--title`: the title, in place of the profile's own.
    pub title: Option<String>,
    /// `-b` (big) or `-s` (small); `Auto`: hp2ps's.
    pub title_size: TitleSize,
    /// `-g`: portrait.
    pub portrait: bool,
    /// `-e`: the EPS width, in points.
    pub eps: Option<f64>,
    /// `--dpi`: a PNG's pixels to the inch.
    pub dpi: f64,
    /// `--exact`: every point drawn, none merged to the output's resolution.
    pub exact: bool,
    /// `--outline-text`: text drawn as outlines.
    pub outline_text: bool,
    /// `--top`: rows a summary or page lists.
    pub top: Option<usize>,
    /// `--flame`: a census drawn as a flame graph.
    pub flame: Option<WhichCensus>,
    /// `--inverted`: the flame graph grows from the innermost frames.
    pub inverted: bool,
    /// `--members`: a root or retainer profile's members' panels.
    pub members: Option<usize>,
    /// `--binary-units`: KiB, MiB, GiB.
    pub binary_units: bool,
    /// `--stable-colours`: a name's colour is its own in every picture.
    pub stable_colours: bool,
    /// `-x`: the time axis at least this long.
    pub x_max: Option<f64>,
    /// `-Y`: the value axis at least this tall.
    pub y_max: Option<f64>,
    /// `--include`, `--exclude`, `--from`, `--to`, `--min-share`.
    pub filter: Filter,
    /// `--measure`: what a cost-centre report's figures weigh.
    pub measure: Option<Measure>,
    /// `--check-partial`.
    pub judge_partial: bool,
    /// `--check`: conditions are judged (they read the runtime's figures).
    pub checked: bool,
    /// `--compare`: two runs in one output ([`View::Compare`]).
    pub compare: bool,
    /// `--compare-time normalised`: a comparison's runs each on 0–100% of its time.
    pub normalised: bool,
    /// `--watch` (or `--serve`): the input is still being written.
    pub live: bool,
    /// `--serve`: the live page is served.
    pub served: bool,
    /// A text summary written to a terminal that takes colour.
    pub terminal: bool,
}

/// What a picture is drawn on: a figure in a drawing format, or an HTML page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum On {
    /// A figure in this format.
    Figure(Format),
    /// An HTML page, static or live.
    Page(html::Mode),
}

/// The font size when `--font-size` is not given: hp2ps's.
pub const FONT_SIZE: f64 = 10.0;
/// The modern style's smallest default font size, in points: what a journal prints a
/// column-wide figure's labels at.
pub const SMALL_FONT_SIZE: f64 = 7.0;
/// hp2ps's band limit: twenty bands, the last OTHER.
pub const BAND_LIMIT: usize = 20;
/// hp2ps's trace threshold, in percent.
pub const THRESHOLD: f64 = 1.0;
/// An HTML page's key is a list beside the picture, which has room for this many.
pub const PAGE_KEY_ENTRIES: usize = 20;
/// The height of a comparison's picture, its width hp2ps's: 10 inches.
pub const COMPARE_HEIGHT: f64 = 720.0;

impl Request {
    /// A request for `output` with every option at its default: what `hpgraph -o
    /// NAME.EXT` asks.
    pub fn new(output: OutputKind) -> Request {
        Request {
            output,
            style: None,
            palette: None,
            key: None,
            size: None,
            font_size: None,
            max_bands: None,
            threshold: None,
            multi_page: false,
            by_deviation: false,
            by_growth: false,
            by_name: None,
            reverse: false,
            shares: false,
            colour: false,
            marks: true,
            heap_lines: false,
            title: None,
            title_size: TitleSize::Auto,
            portrait: false,
            eps: None,
            dpi: backend::DPI,
            exact: false,
            outline_text: false,
            top: None,
            flame: None,
            inverted: false,
            members: None,
            binary_units: false,
            stable_colours: false,
            x_max: None,
            y_max: None,
            filter: Filter::default(),
            measure: None,
            judge_partial: false,
            checked: false,
            compare: false,
            normalised: false,
            live: false,
            served: false,
            terminal: false,
        }
    }

    /// The job the request asks for, every default decided.
    pub fn job(&self) -> Job {
        let view = match self.view() {
            each if self.compare => {
                View::Compare(Box::new(super::CompareView::new(each, self.normalised)))
            }
            view => view,
        };
        let mut job = Job {
            read: self.read_options(&view),
            filter: self.filter.clone(),
            view,
            binary: None,
            judge_partial: self.judge_partial,
        };
        job.settle_reading(self.checked);
        job
    }

    /// `--serve`'s page and data: the live page, and the profile's JSON.
    pub fn served(&self, addr: std::net::SocketAddr) -> Serve {
        Serve {
            addr,
            page: self.page(html::Mode::Live),
            data: self.data(Export::Json),
        }
    }

    /// The view the request asks for: the one place that asks whether the output is a
    /// page. A page lists every member and opens the flame graph under its graph;
    /// elsewhere `--members` draws the members' panels, `--flame` (or `--inverted`,
    /// which turns a flame graph over) a census's flame graph, and otherwise the graph.
    fn view(&self) -> View {
        let format = match self.output {
            OutputKind::Data(export) => return View::Data(self.data(export)),
            OutputKind::Picture(Format::Html) => {
                return View::Page(Box::new(self.page(html::Mode::Static)));
            }
            OutputKind::Picture(format) => format,
        };
        let picture = self.picture(On::Figure(format));
        match (self.members, self.flame) {
            (Some(count), _) => View::Members(picture, count),
            (None, at) if at.is_some() || self.inverted => View::Flame(
                picture,
                FlameOf {
                    at,
                    direction: self.direction(),
                },
            ),
            (None, _) => View::Graph(picture),
        }
    }

    /// An HTML page of views, static or live (`mode`).
    fn page(&self, mode: html::Mode) -> PageView {
        PageView {
            graph: self.picture(On::Page(mode)),
            options: PageOptions {
                heap_lines: self.heap_lines,
                units: self.byte_units(),
                rows: self.top,
                key_entries: self.band_limit(Some(On::Page(mode))),
                flame_at: self.flame,
                flame_inverted: self.inverted,
            },
        }
    }

    fn direction(&self) -> Direction {
        if self.inverted {
            Direction::Inverted
        } else {
            Direction::Callers
        }
    }

    /// `--size`, else hp2ps's box; a comparison's two graphs one above the other get
    /// `COMPARE_HEIGHT`, `--members`' panels each [`MEMBER_PANEL_HEIGHT`] more.
    ///
    /// [`MEMBER_PANEL_HEIGHT`]: super::members::MEMBER_PANEL_HEIGHT
    pub fn size(&self) -> (f64, f64) {
        let members = self.members.unwrap_or(0) as f64;
        self.size.unwrap_or((
            crate::scene::WIDTH,
            if self.compare {
                COMPARE_HEIGHT
            } else {
                crate::scene::HEIGHT + members * super::members::MEMBER_PANEL_HEIGHT
            },
        ))
    }

    /// `--style`, else hp2ps's look for what hp2ps writes (PostScript, EPS: its bytes)
    /// and for the numbers' selection, and the modern one for every format hp2ps never
    /// wrote.
    fn style(&self, on: Option<On>) -> Style {
        self.style.unwrap_or(match on {
            Some(On::Figure(Format::Ps | Format::Eps)) | None => Style::Hp2ps,
            Some(On::Figure(_) | On::Page(_)) => Style::Modern,
        })
    }

    /// The font size: `--font-size`, else hp2ps's 10 points; in the modern style, for a
    /// figure smaller than hp2ps's page, a point for every 35 points of its width or 16
    /// of its height, whichever is less, from [`SMALL_FONT_SIZE`] (a figure is printed
    /// at its size, so its labels should read at that size: 7 points on a 8.5 cm column
    /// or a 4 cm strip, 10 from about 12.5 cm by 5.7 cm).
    fn font_size(&self, on: Option<On>) -> f64 {
        if let Some(f) = self.font_size {
            return f;
        }
        if self.style(on) != Style::Modern || self.size.is_none() {
            return FONT_SIZE;
        }
        let (w, h) = self.size();
        (w / 35.0).min(h / 16.0).clamp(SMALL_FONT_SIZE, FONT_SIZE)
    }

    /// `-m`, else as many bands as the key shows (at most hp2ps's twenty).
    fn band_limit(&self, on: Option<On>) -> usize {
        let fitting = if let Some(On::Page(_)) = on {
            PAGE_KEY_ENTRIES
        } else if self.key == Some(KeyPlacement::Apart) {
            // A key of its own is as tall as it needs.
            BAND_LIMIT
        } else {
            let key = match self.key {
                Some(KeyPlacement::Below) => KeyPlacement::Below,
                _ => KeyPlacement::Beside,
            };
            // Compared runs: each panel's key holds what its own height does.
            let height = if self.compare {
                crate::layout::compare::panel_height(self.size(), self.font_size(on), 2)
            } else {
                self.size().1
            };
            self.style(on).key_entries(key, height, self.font_size(on))
        };
        self.max_bands.unwrap_or(BAND_LIMIT.min(fitting))
    }

    fn byte_units(&self) -> ByteUnits {
        if self.binary_units {
            ByteUnits::Binary
        } else {
            ByteUnits::Decimal
        }
    }

    /// What the input must give: marks unless they are not drawn (a data output keeps
    /// them, and so does a served profile, whose page draws them), heap lines when drawn.
    fn read_options(&self, view: &View) -> input::Options {
        let data = matches!(self.output, OutputKind::Data(_));
        input::Options {
            growing: self.live,
            measure: self.measure,
            // Decided once the job is: [`Job::settle_reading`].
            bands: true,
            runtime_reading: input::RuntimeReading::All,
            // A window bounded by markers needs the run's markers to find them.
            marks: self.marks || data || (self.live && self.served) || self.filter.by_marks(),
            heap: self.heap_lines,
            // The page's runtime panel sums the collections of the window shown.
            // --heap-lines marks each collection along the graph's bottom.
            runtime: self.heap_lines
                || self.compare
                || self.checked
                || matches!(
                    view,
                    View::Data(Data {
                        export: Export::Stats(_) | Export::Summary(_),
                        ..
                    }) | View::Page(_)
                ),
        }
    }

    fn select_options(&self, band_limit: usize, shading: Shading, samples: bool) -> SelectOptions {
        SelectOptions {
            threshold: self.threshold.unwrap_or(THRESHOLD),
            by_deviation: self.by_deviation,
            by_growth: self.by_growth,
            by_name: self.by_name,
            band_limit,
            shading,
            heap_lines: self.heap_lines,
            min_x_range: self.x_max.unwrap_or(0.0),
            min_y_range: self.y_max.unwrap_or(0.0),
            reverse: self.reverse,
            samples,
            shares: self.shares,
        }
    }

    fn data(&self, export: Export) -> Data {
        Data {
            export,
            options: ExportOptions {
                top: self.top,
                text: TextOptions {
                    colour: self.terminal,
                    units: self.byte_units(),
                },
                window: (self.filter.from, self.filter.to),
                census: self.flame,
            },
            // Every band, unless -m or -t ask for a selection (OTHER included): the
            // bands the picture would draw (its colours aside).
            select: (self.max_bands.is_some() || self.threshold.is_some())
                .then(|| self.select_options(self.band_limit(None), Shading::Grey, false)),
        }
    }

    /// How a picture in `format` is drawn. An HTML page's is read on a screen: the
    /// modern style, colour, tableau10 and the page's own key unless asked otherwise; a
    /// live one's colours follow the names, so that they stay put while the bands' order
    /// changes.
    fn picture(&self, on: On) -> Picture {
        let (format, page) = match on {
            On::Figure(format) => (format, false),
            On::Page(_) => (Format::Html, true),
        };
        let style = self.style(Some(on));
        let size = self.size();
        let band_limit = self.band_limit(Some(on));
        let shading = if self.colour || page {
            Shading::Colour
        } else {
            Shading::Grey
        };
        // A profile's page lists its key beside the picture; a comparison's page shows
        // the picture's own keys, one beside each run's graph.
        let key = match (page, self.key) {
            (true, _) if !self.compare => KeyPlacement::None,
            (_, Some(key)) => key,
            _ if self.multi_page || band_limit > BAND_LIMIT => KeyPlacement::SeparatePages,
            _ if band_limit == 0 => KeyPlacement::None,
            _ => KeyPlacement::Beside,
        };
        let layout = LayoutOptions {
            title: self.title_size,
            key,
            marks: self.marks,
            heap_lines: self.heap_lines,
            // hp2ps's colours are hp2ps's look; the modern style (and so the page) takes
            // a modern palette unless --palette says otherwise.
            palette: self.palette.unwrap_or(match style {
                Style::Modern => Palette::Tableau10,
                Style::Hp2ps => Palette::Hp2ps,
            }),
            // A live page's bands come and go: each keeps its name's colour. (Compared
            // runs share one paint per name without it: `layout::compare`.)
            stable_colours: self.stable_colours || on == On::Page(html::Mode::Live),
            size,
            grow: self.size.is_none(),
            font_size: self.font_size(Some(on)),
            style,
            byte_units: self.byte_units(),
            title_text: self.title.as_ref().map(|t| t.as_bytes().to_vec()),
            min_key_width: 0.0,
            media: Media {
                orientation: if self.portrait {
                    Orientation::Portrait
                } else {
                    Orientation::Landscape
                },
                // EPS without -e is the drawing at its own size: 9 inches wide, or as
                // --size says; so is PostScript with --size (a page of exactly that
                // size).
                eps_width: if format == Format::Eps || self.size.is_some() {
                    Some(self.eps.unwrap_or(size.0))
                } else {
                    self.eps
                },
            },
            paints: None,
            column: format.column(self.dpi).filter(|_| !self.exact),
        };
        Picture {
            format,
            // A modern figure (and so the page) shows the run's samples under its graph.
            select: self.select_options(band_limit, shading, style == Style::Modern),
            layout,
            backend: backend::Options {
                dpi: self.dpi,
                text: if self.outline_text {
                    TextAs::Outlines
                } else {
                    TextAs::Text
                },
                page: match on {
                    On::Page(mode) => mode,
                    On::Figure(_) => html::Mode::Static,
                },
            },
        }
    }
}
