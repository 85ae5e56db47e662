//! The command line: hp2ps's flags and file naming, plus `-o`, `--help` and `--version`.

pub mod argv;
mod generate;
pub mod naming;
mod run;
pub mod watch;

use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{CommandFactory, Parser, ValueEnum, error::ErrorKind};

use crate::backend::Format;
use crate::export::{Export, ExportOptions, SummaryStyle};
use crate::input;
use crate::layout::{KeyPlacement, LayoutOptions, TitleSize};
use crate::scene::{Media, Orientation};
use crate::select::{NameOrder, SelectOptions};
use naming::{Input, Output, Plan};
use run::{read_profile, render_one};

const SHORT_AFTER_HELP: &str = "\
Examples:
  hpgraph prog.hp                 write ./prog.ps and ./prog.aux (as hp2ps does)
  hpgraph prog.eventlog -o heap.pdf
  hpgraph --summary prog.hp       which band is the leak
  hpgraph --serve prog.hp         watch it grow in a browser

--help gives every option in full, more examples and hp2ps's option syntax.";

const AFTER_HELP: &str = "\
Examples:
  hpgraph prog.hp                 write ./prog.ps and ./prog.aux (as hp2ps does)
  hpgraph -c -e8in prog           colour EPS, 8 inches wide, from prog.hp
  hpgraph -m5 -i- prog.hp         five bands (the rest merged into OTHER), names descending
  hpgraph -p prog.hp              reuse ./prog.aux: same order, shades and minimum ranges
  prog +RTS -hc -RTS; hpgraph < prog.hp > heap.ps
  hpgraph --watch prog.hp -o heap.svg   redraw heap.svg while prog runs
  hpgraph --serve prog.eventlog          the same in a browser, live: open the address it prints
  prog +RTS -hT -l -RTS; hpgraph prog.eventlog   an eventlog: ./prog.ps, as for prog.hp
  hpgraph prog.eventlog -o prog-ev.hp   any profile as .hp text, for hp2ps and others
  hpgraph --style modern --palette okabe-ito --size 12cmx8cm prog.hp -o fig.pdf
  hpgraph prog.hp -o heap.png            1350 x 900 pixels; --dpi 300 for print
  hpgraph --summary prog.hp              which band is the leak: peak, when, share, trend
  hpgraph prog.hp -o heap.html           an interactive page: hover, hide bands, zoom
  hpgraph --include 'Data\\.Map' --from 2 prog.hp -o maps.csv   some bands, from 2 s on

hp2ps's option syntax works unchanged: -pc is -p -c, -cp is -c, -m alone is -m0,
-t alone is -t0, -i- sorts descending. Unlike hp2ps, options may follow the file,
several files are rendered in turn, and errors exit with 1 (usage errors with 2).";

/// Draws GHC heap profiles (.hp files and eventlogs): hp2ps's PostScript byte for byte,
/// or EPS, SVG, PDF, PNG, an interactive page, the numbers, or a live view
#[derive(Debug, Clone, Parser)]
#[command(name = "hpgraph", version, after_help = SHORT_AFTER_HELP, after_long_help = AFTER_HELP,
          group = clap::ArgGroup::new("live").args(["watch", "serve"]).multiple(true))]
pub struct Args {
    /// Heap profiles: .hp files or eventlogs, plain or compressed
    ///
    /// FOO or FOO.hp reads FOO.hp and writes ./FOO.ps and ./FOO.aux, as hp2ps does;
    /// FOO.eventlog (or FOO.hp.gz, FOO.eventlog.zst, FOO.hp.xz: gzip, zstd and xz are
    /// read directly) names the file in full and writes ./FOO.ps. None, or -, reads
    /// standard input and writes standard output.
    #[arg(value_name = "FILE")]
    pub files: Vec<OsString>,

    /// Big title box: job and area on two rows
    #[arg(short = 'b', long, help_heading = "hp2ps options")]
    pub big_title: bool,

    /// Small title box, the job cut to 35 characters
    #[arg(short = 's', long, help_heading = "hp2ps options")]
    pub small_title: bool,

    /// Order bands by standard deviation, smoothest at the bottom
    #[arg(short = 'd', long, help_heading = "hp2ps options")]
    pub sort_deviation: bool,

    /// Order bands by name (-i- for descending)
    ///
    /// asc puts the greatest name on top (-i, -i+), desc the least (-i-).
    #[arg(short = 'i', long, value_name = "ORDER", num_args = 0..=1,
          require_equals = true, default_missing_value = "asc",
          help_heading = "hp2ps options")]
    pub sort_name: Option<SortName>,

    /// Encapsulated PostScript WIDTH wide: 8in, 120mm, 400pt or 400
    ///
    /// More than 2 inches. It scales the whole drawing, in every format: the height
    /// follows (2:3).
    #[arg(short = 'e', long, value_name = "WIDTH", value_parser = eps_width,
          help_heading = "hp2ps options")]
    pub eps: Option<f64>,

    /// Portrait page, for previewers
    #[arg(short = 'g', long, help_heading = "hp2ps options")]
    pub portrait: bool,

    /// Draw at most N bands, the smallest merged into OTHER [default: 20]
    ///
    /// 0: no limit and no key. Over 20 puts the key on pages of its own. hp2ps's form
    /// is -mN.
    #[arg(short = 'm', long, value_name = "N", help_heading = "hp2ps options")]
    pub max_bands: Option<usize>,

    /// Put the key on pages of its own
    #[arg(short = 'M', long, help_heading = "hp2ps options")]
    pub multi_page: bool,

    /// Merge bands that together make less than PERCENT of the total [default: 1]
    ///
    /// 0 to 5. hp2ps's form is -tPERCENT.
    #[arg(short = 't', long, value_name = "PERCENT", value_parser = threshold,
          help_heading = "hp2ps options")]
    pub threshold: Option<f64>,

    /// Colour instead of shades of grey
    #[arg(
        short = 'c',
        long,
        visible_alias = "color",
        help_heading = "hp2ps options"
    )]
    pub colour: bool,

    /// Do not draw MARK carets
    #[arg(short = 'y', long, help_heading = "hp2ps options")]
    pub no_marks: bool,

    /// Reuse the order, shades and ranges of the .aux file of an earlier run
    #[arg(short = 'p', long, help_heading = "hp2ps options")]
    pub reuse_aux: bool,

    /// Write to FILE (- for standard output); its extension picks the format
    ///
    /// .ps, .eps, .svg, .pdf, .png, .html for pictures; .hp, .csv or .json for the
    /// numbers. A PostScript or EPS picture gets its .aux beside it (any picture
    /// does with -p).
    #[arg(
        short = 'o',
        long,
        value_name = "FILE",
        help_heading = "Output and formats"
    )]
    pub output: Option<PathBuf>,

    /// Output format, whatever the file is called [default: from -o, else ps]
    ///
    /// Without -o the output is ./BASE.FORMAT.
    #[arg(long, value_name = "FORMAT",
          value_parser = ["ps", "eps", "svg", "pdf", "png", "html", "hp", "csv", "json"],
          help_heading = "Output and formats")]
    pub format: Option<String>,

    /// SVG, PDF, PNG: draw every point, not what the figure can show
    ///
    /// By default these formats draw each band at the figure's resolution (every
    /// quarter point's highest and lowest), so a long run makes a small file;
    /// PostScript always has every point, as hp2ps's does.
    #[arg(long, help_heading = "Output and formats")]
    pub exact: bool,

    /// SVG: text as the embedded font's glyph outlines
    ///
    /// The picture is then the same in every viewer, whatever fonts it has, as
    /// publishers that ask for outlined fonts want; the text stays selectable. By
    /// default the SVG has plain text in the viewer's Helvetica or a stand-in. PNG is
    /// always drawn from the outlines.
    #[arg(long, help_heading = "Output and formats")]
    pub outline_text: bool,

    /// PNG: pixels to the inch
    ///
    /// A default figure is 9 x 6 in: 1350 x 900 pixels at 150.
    #[arg(long, value_name = "N", default_value = "150", value_parser = dpi,
          help_heading = "Output and formats")]
    pub dpi: f64,

    /// The figure's look: hp2ps or modern [default: hp2ps; modern for html]
    ///
    /// hp2ps is its picture, exactly. modern has round tick labels with just enough
    /// decimals, byte units, no title box, and long key names shortened in the middle.
    #[arg(long, value_name = "STYLE", value_parser = style, help_heading = "Figure")]
    pub style: Option<crate::layout::Style>,

    /// Band colours: hp2ps, okabe-ito, viridis, tableau10, grey
    ///
    /// hp2ps: its greys, or colours with -c. okabe-ito and viridis are told apart by
    /// colour-blind readers; viridis also in greyscale print. [default: hp2ps;
    /// tableau10 for html]
    #[arg(long, value_name = "NAME", value_parser = palette, help_heading = "Figure")]
    pub palette: Option<crate::layout::paint::Palette>,

    /// A band's colour follows from its name, the same in every figure
    ///
    /// OTHER is always the same light grey.
    #[arg(long, visible_alias = "stable-colors", help_heading = "Figure")]
    pub stable_colours: bool,

    /// With --style modern: KiB, MiB, GiB rather than kB, MB, GB
    #[arg(long, help_heading = "Figure")]
    pub binary_units: bool,

    /// Text for the title in place of the program and its arguments
    #[arg(long, value_name = "TEXT", help_heading = "Figure")]
    pub title: Option<String>,

    /// Where the key goes: right, below or none
    ///
    /// right: beside the graph; below: in rows under it. [default: right, or pages of
    /// its own as -M and -m say]
    #[arg(long, value_name = "WHERE", value_parser = ["right", "below", "none"],
          help_heading = "Figure")]
    pub key: Option<String>,

    /// The figure's size: 8cmx5cm, 6inx4in, 160mmx100mm, 400x300 (points)
    ///
    /// For every format; the layout re-flows in it, text keeping its size.
    /// [default: 9inx6in]
    #[arg(long, value_name = "WxH", value_parser = figure_size, help_heading = "Figure")]
    pub size: Option<(f64, f64)>,

    /// Axis and key text in points, the title a fifth larger [default: 10]
    ///
    /// 4 to 72. The layout makes room for it: margins, title, key.
    #[arg(long, value_name = "PT", value_parser = font_size, help_heading = "Figure")]
    pub font_size: Option<f64>,

    /// With several files: the same x and y ranges for all, the largest
    #[arg(long, help_heading = "Figure")]
    pub same_scale: bool,

    /// The y axis reaches at least BYTES: 2GB, 512MiB, 1e9
    ///
    /// A profile that goes higher keeps its own range.
    #[arg(long, value_name = "BYTES", value_parser = bytes, help_heading = "Figure")]
    pub y_max: Option<f64>,

    /// The x axis spans at least SECS from the first sample
    #[arg(long, value_name = "SECS", value_parser = seconds, help_heading = "Figure")]
    pub x_max: Option<f64>,

    /// Draw the runtime's heap size and live bytes as lines over the bands
    ///
    /// Eventlog input; the y axis grows to hold them.
    #[arg(long, help_heading = "Figure")]
    pub heap_lines: bool,

    /// Print each band's share, peak, mean and trend instead of a picture
    ///
    /// Growing bands are leak suspects. =json for scripts.
    #[arg(long, value_name = "FORMAT", num_args = 0..=1, require_equals = true,
          default_missing_value = "text", value_parser = ["text", "json"],
          help_heading = "Data and inspection")]
    pub summary: Option<String>,

    /// With --summary (and in an HTML page's table): only the N largest bands
    #[arg(long, value_name = "N", help_heading = "Data and inspection")]
    pub top: Option<usize>,

    /// Keep only bands whose name matches REGEX (repeatable)
    ///
    /// A band is kept when any of them matches. Applied before -m and -t, for every
    /// output.
    #[arg(long, value_name = "REGEX", value_parser = regex, help_heading = "Filters")]
    pub include: Vec<regex::bytes::Regex>,

    /// Drop bands whose name matches REGEX (repeatable)
    ///
    /// Even if --include keeps them.
    #[arg(long, value_name = "REGEX", value_parser = regex, help_heading = "Filters")]
    pub exclude: Vec<regex::bytes::Regex>,

    /// Keep only samples taken at SECS or later
    #[arg(long, value_name = "SECS", value_parser = instant, help_heading = "Filters")]
    pub from: Option<f64>,

    /// Keep only samples taken at SECS or earlier
    #[arg(long, value_name = "SECS", value_parser = instant, help_heading = "Filters")]
    pub to: Option<f64>,

    /// Redraw as the running program writes FILE; stop with Ctrl-C
    ///
    /// Draws at once, then again whenever the file grows by a complete sample.
    #[arg(long, help_heading = "Live view")]
    pub watch: bool,

    /// Serve the profile to a browser, live (implies --watch) [default: 127.0.0.1:0]
    ///
    /// An interactive page at http://ADDR:PORT/ that updates itself, /profile.json and
    /// an event stream. Port 0 or none: a free one. Only this machine can connect
    /// unless ADDR says otherwise.
    #[arg(long, value_name = "ADDR:PORT", num_args = 0..=1, require_equals = true,
          default_missing_value = "127.0.0.1:0", value_parser = crate::serve::parse_addr,
          help_heading = "Live view")]
    pub serve: Option<std::net::SocketAddr>,

    /// With --watch: draw at most once every SECS seconds
    #[arg(long, value_name = "SECS", default_value = "1", value_parser = interval,
          help_heading = "Live view")]
    pub interval: f64,

    /// With --watch: run CMD after every picture, e.g. to make a viewer reload
    ///
    /// Run with sh -c, not waited for: --exec 'kill -HUP 1234'.
    #[arg(
        long,
        value_name = "CMD",
        requires = "live",
        help_heading = "Live view"
    )]
    pub exec: Option<String>,

    /// With --watch: no status line per picture
    #[arg(short = 'q', long, help_heading = "Live view")]
    pub quiet: bool,

    /// Print a man page or a shell's completion script, and exit
    ///
    /// man, or complete-bash, complete-zsh, complete-fish, complete-powershell,
    /// complete-elvish. README.md says where to put them.
    #[arg(long, value_name = "WHAT", value_parser = generate::WHAT, hide_possible_values = true)]
    pub generate: Option<String>,
}

fn style(text: &str) -> Result<crate::layout::Style, String> {
    match text {
        "hp2ps" => Ok(crate::layout::Style::Hp2ps),
        "modern" => Ok(crate::layout::Style::Modern),
        _ => Err(format!("no style `{text}`: use hp2ps or modern")),
    }
}

fn palette(text: &str) -> Result<crate::layout::paint::Palette, String> {
    let names = crate::layout::paint::Palette::NAMES;
    names
        .iter()
        .find(|(n, _)| *n == text)
        .map(|&(_, p)| p)
        .ok_or_else(|| {
            let all: Vec<&str> = names.iter().map(|(n, _)| *n).collect();
            format!("no palette `{text}`: use one of {}", all.join(", "))
        })
}

/// A size in bytes: a number (`1e9`, `1500000`) with an optional unit, decimal (`kB`,
/// `MB`, `GB`, `TB`) or binary (`KiB`, `MiB`, `GiB`, `TiB`); `B` is bytes.
pub fn bytes(text: &str) -> Result<f64, String> {
    const UNITS: [(&str, f64); 10] = [
        ("KiB", 1024.0),
        ("MiB", 1048576.0),
        ("GiB", 1073741824.0),
        ("TiB", 1099511627776.0),
        ("kB", 1e3),
        ("KB", 1e3),
        ("MB", 1e6),
        ("GB", 1e9),
        ("TB", 1e12),
        ("B", 1.0),
    ];
    let t = text.trim();
    let (number, factor) = UNITS
        .iter()
        .find_map(|&(u, f)| t.strip_suffix(u).map(|n| (n.trim(), f)))
        .unwrap_or((t, 1.0));
    match number.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(v * factor),
        _ => Err(format!(
            "`{text}` is not a size: a number above 0, optionally with B, kB, MB, GB, TB, KiB, MiB, GiB or TiB"
        )),
    }
}

/// A length with its unit (`in`, `cm`, `mm`, `pt`, or none for points), in points.
fn length(text: &str) -> Option<f64> {
    const UNITS: [(&str, f64); 4] = [
        ("in", 72.0),
        ("cm", 72.0 / 2.54),
        ("mm", 72.0 / 25.4),
        ("pt", 1.0),
    ];
    let t = text.trim();
    let (number, factor) = UNITS
        .iter()
        .find_map(|&(u, f)| t.strip_suffix(u).map(|n| (n.trim(), f)))
        .unwrap_or((t, 1.0));
    number
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite() && *v > 0.0)
        .map(|v| v * factor)
}

/// `--size WxH`: at least 2 inches by 1, at most 200 inches a side.
pub fn figure_size(text: &str) -> Result<(f64, f64), String> {
    let bad =
        || format!("`{text}` is not a size: WIDTHxHEIGHT with in, cm, mm or pt, like 8cmx5cm");
    let (w, h) = text.split_once(['x', 'X']).ok_or_else(bad)?;
    let (w, h) = (length(w).ok_or_else(bad)?, length(h).ok_or_else(bad)?);
    if w < 144.0 || h < 72.0 || w > 14_400.0 || h > 14_400.0 {
        return Err(format!(
            "`{text}` is {w:.0} x {h:.0} pt: a figure is at least 2 x 1 in (144 x 72 pt) and at most 200 in a side"
        ));
    }
    Ok((w, h))
}

fn seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 => Ok(s),
        _ => Err("a number of seconds above 0, like 2.5".into()),
    }
}

/// A band-name pattern (the `regex` crate's syntax), matched anywhere in the name.
fn font_size(text: &str) -> Result<f64, String> {
    match text.trim().trim_end_matches("pt").parse::<f64>() {
        Ok(pt) if (4.0..=72.0).contains(&pt) => Ok(pt),
        Ok(_) => Err("a font size is between 4 and 72 points".into()),
        Err(_) => Err(format!("`{text}` is not a size in points: 8, 9.5, 12pt")),
    }
}

fn regex(text: &str) -> Result<regex::bytes::Regex, String> {
    regex::bytes::Regex::new(text).map_err(|e| e.to_string())
}

/// The latest time `--from` and `--to` take: a hundred years of seconds, beyond any
/// run, and short enough to print.
const MAX_INSTANT: f64 = 1e10;

/// A time of the run, 0 or later.
fn instant(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if (0.0..=MAX_INSTANT).contains(&s) => Ok(s),
        _ => Err(format!(
            "a time in seconds from 0 to {MAX_INSTANT:e}, like 2.5"
        )),
    }
}

fn dpi(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(d) if d.is_finite() && (1.0..=2400.0).contains(&d) => Ok(d),
        _ => Err("the resolution is a number of dots per inch from 1 to 2400, like 300".into()),
    }
}

fn interval(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 => Ok(s),
        _ => Err("the interval is a number of seconds above 0, like 0.5".into()),
    }
}

/// `--sort-name` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SortName {
    Asc,
    Desc,
}

/// hp2ps's `-e` width: a number read like `atof`, in inches or millimetres when the text
/// ends in `in` or `mm`, else in points; more than 2 inches.
fn eps_width(text: &str) -> Result<f64, String> {
    let mut w = argv::atof(text);
    if text.ends_with("in") {
        w *= 72.0;
    } else if text.ends_with("mm") {
        w *= 2.834646;
    }
    if !w.is_finite() {
        return Err("the width must be a finite number".into());
    }
    if w <= 144.0 {
        return Err("the width must be more than 2in (144pt)".into());
    }
    Ok(w)
}

fn threshold(text: &str) -> Result<f64, String> {
    let t: f64 = text.parse().map_err(|_| format!("not a number: {text}"))?;
    if !(0.0..=5.0).contains(&t) {
        return Err("the threshold must be between 0 and 5 percent".into());
    }
    Ok(t)
}

impl Args {
    /// The output format: `--format`, else the extension of `-o`'s file, else PostScript.
    fn format(&self) -> Result<OutputKind, String> {
        match self.summary.as_deref() {
            Some("json") => return Ok(OutputKind::Data(Export::Summary(SummaryStyle::Json))),
            Some(_) => return Ok(OutputKind::Data(Export::Summary(SummaryStyle::Text))),
            None => {}
        }
        if let Some(f) = &self.format {
            return Ok(OutputKind::from_extension(f).expect("clap checked the name"));
        }
        let Some(out) = self
            .output
            .as_deref()
            .filter(|o| *o != std::path::Path::new("-"))
        else {
            return Ok(OutputKind::Picture(Format::Ps));
        };
        match out.extension().and_then(|e| e.to_str()) {
            None => Ok(OutputKind::Picture(Format::Ps)),
            Some(ext) => OutputKind::from_extension(ext).ok_or_else(|| {
                format!(
                    "cannot tell the format from the name `{}`: use .ps, .eps, .svg, .pdf, .png, .html, .hp, .csv or .json, or --format",
                    out.display()
                )
            }),
        }
    }

    /// The filters, applied to every profile before anything else.
    pub(crate) fn filter(&self) -> crate::select::filter::Filter {
        crate::select::filter::Filter {
            include: self.include.clone(),
            exclude: self.exclude.clone(),
            from: self.from,
            to: self.to,
        }
    }

    fn export_options(&self) -> ExportOptions {
        use std::io::IsTerminal;
        ExportOptions {
            top: self.top,
            text: crate::export::summary::TextOptions {
                colour: std::io::stdout().is_terminal()
                    && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
                binary: self.binary_units,
            },
        }
    }

    /// What the input must give: marks unless they are not drawn (an `.hp` export keeps
    /// them), heap lines when drawn.
    fn read_options(&self, format: OutputKind) -> input::Options {
        input::Options {
            marks: !self.no_marks || matches!(format, OutputKind::Data(_)),
            heap: self.heap_lines,
        }
    }

    fn options(&self, format: OutputKind) -> (SelectOptions, LayoutOptions) {
        let size = self
            .size
            .unwrap_or((crate::scene::WIDTH, crate::scene::HEIGHT));
        let html = format == OutputKind::Picture(Format::Html);
        let style = self.style.unwrap_or(if html {
            crate::layout::Style::Modern
        } else {
            crate::layout::Style::Hp2ps
        });
        // An HTML page's key is a list beside the picture, which has room for twenty.
        let fitting = if html {
            20
        } else {
            style.key_entries(size.1, self.font_size.unwrap_or(10.0))
        };
        let band_limit = self.max_bands.unwrap_or(20.min(fitting));
        // An HTML page's picture is always coloured; a live one's colours follow the
        // names, so that they stay put while the bands' order changes.
        let colour = self.colour || html;
        let stable_colours = self.stable_colours || (html && self.serve.is_some());
        let key = if html || self.key.as_deref() == Some("none") {
            KeyPlacement::None
        } else if self.key.as_deref() == Some("below") {
            KeyPlacement::Below
        } else if self.key.as_deref() == Some("right") {
            KeyPlacement::Beside
        } else if self.multi_page || band_limit > 20 {
            KeyPlacement::SeparatePages
        } else if band_limit == 0 {
            KeyPlacement::None
        } else {
            KeyPlacement::Beside
        };
        let select = SelectOptions {
            threshold: self.threshold.unwrap_or(1.0),
            by_deviation: self.sort_deviation,
            by_name: self.sort_name.map(|s| match s {
                SortName::Asc => NameOrder::Ascending,
                SortName::Desc => NameOrder::Descending,
            }),
            band_limit,
            colour,
            heap_lines: self.heap_lines,
            min_x_range: self.x_max.unwrap_or(0.0),
            min_y_range: self.y_max.unwrap_or(0.0),
        };
        let layout = LayoutOptions {
            title: if self.big_title {
                TitleSize::Big
            } else if self.small_title {
                TitleSize::Small
            } else {
                TitleSize::Auto
            },
            key,
            marks: !self.no_marks,
            colour,
            heap_lines: self.heap_lines,
            // An HTML page is read on a screen, in colour: tableau10 unless asked.
            palette: self.palette.unwrap_or(if html {
                crate::layout::paint::Palette::Tableau10
            } else {
                crate::layout::paint::Palette::Hp2ps
            }),
            stable_colours,
            size,
            font_size: self.font_size.unwrap_or(10.0),
            style,
            binary_units: self.binary_units,
            title_text: self.title.as_ref().map(|t| t.as_bytes().to_vec()),
            media: Media {
                orientation: if self.portrait {
                    Orientation::Portrait
                } else {
                    Orientation::Landscape
                },
                // EPS without -e is the drawing at its own size: 9 inches wide, or as
                // --size says; so is PostScript with --size (a page of exactly that size).
                eps_width: match (format, self.size) {
                    (OutputKind::Picture(Format::Eps), _) | (_, Some(_)) => {
                        Some(self.eps.unwrap_or(size.0))
                    }
                    _ => self.eps,
                },
            },
        };
        (select, layout)
    }
}

/// What a run writes: a picture (through a backend) or the data (an export).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputKind {
    Picture(Format),
    Data(Export),
}

impl OutputKind {
    fn from_extension(ext: &str) -> Option<OutputKind> {
        Format::from_extension(ext)
            .map(OutputKind::Picture)
            .or_else(|| Export::from_extension(ext).map(OutputKind::Data))
    }

    fn extension(self) -> &'static str {
        match self {
            OutputKind::Picture(f) => f.extension(),
            OutputKind::Data(e) => e.extension(),
        }
    }
}

/// Runs hpgraph with the process's arguments.
pub fn main() -> ExitCode {
    let args = parse_args(std::env::args_os().skip(1));
    if let Some(what) = &args.generate {
        return match generate::write(what, &mut std::io::stdout().lock()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("hpgraph: cannot write: {e}");
                ExitCode::FAILURE
            }
        };
    }
    let format = args
        .format()
        .unwrap_or_else(|e| Args::command().error(ErrorKind::InvalidValue, e).exit());
    let ext = format.extension();
    let plans: Vec<Plan> = if args.files.is_empty() {
        vec![naming::plan(None, args.output.as_deref(), ext)]
    } else {
        if args.files.len() > 1 && args.output.is_some() {
            Args::command()
                .error(
                    ErrorKind::ArgumentConflict,
                    "--output names one file, so it takes a single input",
                )
                .exit();
        }
        args.files
            .iter()
            .map(|f| naming::plan(Some(f), args.output.as_deref(), ext))
            .collect()
    };
    // A summary is read, not kept: standard output unless -o names a file.
    let plans: Vec<Plan> =
        if matches!(format, OutputKind::Data(Export::Summary(_))) && args.output.is_none() {
            plans
                .into_iter()
                .map(|p| Plan {
                    output: Output::Stdout,
                    aux: None,
                    ..p
                })
                .collect()
        } else {
            plans
        };
    // hp2ps writes an .aux beside its PostScript; a picture in another format gets one
    // only when -p asks for it (`fig.aux` beside `fig.pdf` is the name LaTeX gives
    // `fig.tex`'s own auxiliary file).
    let keeps_aux =
        args.reuse_aux || matches!(format, OutputKind::Picture(Format::Ps | Format::Eps));
    let plans: Vec<Plan> = plans
        .into_iter()
        .map(|p| Plan {
            aux: p.aux.filter(|_| keeps_aux),
            ..p
        })
        .collect();
    if let Some((a, b, path)) = naming::same_output(&plans) {
        Args::command()
            .error(
                ErrorKind::ArgumentConflict,
                format!(
                    "{} and {} would both write {}: render them one at a time, each with -o",
                    a.display(),
                    b.display(),
                    path.display()
                ),
            )
            .exit();
    }
    for plan in &plans {
        if naming::writes_over_input(plan) {
            Args::command()
                .error(
                    ErrorKind::ArgumentConflict,
                    format!(
                        "{}: the output would replace its own input; name another with -o",
                        plan.input.display()
                    ),
                )
                .exit();
        }
    }
    if args.watch || args.serve.is_some() {
        let [plan] = &plans[..] else {
            Args::command()
                .error(ErrorKind::ArgumentConflict, "--watch follows one file")
                .exit();
        };
        if plan.input == Input::Stdin {
            Args::command()
                .error(
                    ErrorKind::ArgumentConflict,
                    "--watch needs a file to follow, not standard input",
                )
                .exit();
        }
        if let Some(c) = naming::compressed(&plan.input) {
            Args::command()
                .error(
                    ErrorKind::ArgumentConflict,
                    format!(
                        "{}: --watch cannot follow a {} file, which can only be read from \
                         its start: let the program write it plain, and compress it after",
                        plan.input.display(),
                        c.name()
                    ),
                )
                .exit();
        }
        if plan.output == Output::Stdout && (args.serve.is_none() || args.output.is_some()) {
            Args::command()
                .error(
                    ErrorKind::ArgumentConflict,
                    "--watch redraws a file: give it one with -o, not standard output",
                )
                .exit();
        }
        let every = std::time::Duration::from_secs_f64(args.interval);
        return match watch::watch(&args, format, plan, every) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("hpgraph: {e:#}");
                ExitCode::FAILURE
            }
        };
    }
    let mut failed = false;
    let args = if args.same_scale && plans.len() > 1 {
        same_scale(args, format, &plans)
    } else {
        args
    };
    for plan in &plans {
        if let Err(e) = render_one(&args, format, plan) {
            let _ = std::io::stdout().flush();
            eprintln!("hpgraph: {e:#}");
            failed = true;
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// Parses the arguments, exiting with a usage message (status 2) when they are wrong.
fn parse_args(raw: impl Iterator<Item = OsString>) -> Args {
    let normalised = match argv::normalise(raw) {
        Ok(a) => a,
        Err(bad) => Args::command()
            .error(
                ErrorKind::UnknownArgument,
                format!("invalid option '{}': {}", bad.arg, bad.why),
            )
            .exit(),
    };
    Args::parse_from(std::iter::once(OsString::from("hpgraph")).chain(normalised))
}

/// `--same-scale`: the largest x and y ranges of all the inputs (as each would be drawn)
/// become every picture's least ranges. An input that cannot be read is left to the
/// rendering, which reports it.
fn same_scale(mut args: Args, format: OutputKind, plans: &[Plan]) -> Args {
    let (select_opts, _) = args.options(format);
    let (mut x, mut y) = (args.x_max.unwrap_or(0.0), args.y_max.unwrap_or(0.0));
    let filter = args.filter();
    for plan in plans {
        // The ranges of what each picture draws: the profile after --include, --exclude,
        // --from and --to, as the picture takes it.
        if let Ok(parsed) = read_profile(&plan.input, args.read_options(format))
            && let Ok(profile) = filter.apply(parsed.profile)
        {
            let sel = crate::select::select(&profile, None, &select_opts);
            x = x.max(sel.x_range);
            y = y.max(sel.y_range);
        }
    }
    args.x_max = Some(x);
    args.y_max = Some(y);
    args
}

#[cfg(test)]
mod tests {
    use super::bytes;

    #[test]
    fn figure_sizes_read_their_units() {
        let (w, h) = super::figure_size("8cmx5cm").unwrap();
        assert!((w - 226.771).abs() < 1e-3 && (h - 141.732).abs() < 1e-3);
        assert_eq!(super::figure_size("6inx4in"), Ok((432.0, 288.0)));
        assert_eq!(super::figure_size("400x300"), Ok((400.0, 300.0)));
        assert_eq!(super::figure_size("400pt x 300pt"), Ok((400.0, 300.0)));
        assert!(super::figure_size("1inx1in").is_err());
        assert!(super::figure_size("8cm").is_err());
        assert!(super::figure_size("axb").is_err());
    }

    #[test]
    fn sizes_read_decimal_and_binary_units() {
        assert_eq!(bytes("2GB"), Ok(2e9));
        assert_eq!(bytes("512MiB"), Ok(536870912.0));
        assert_eq!(bytes("1e9"), Ok(1e9));
        assert_eq!(bytes("1.5 kB"), Ok(1500.0));
        assert_eq!(bytes("300B"), Ok(300.0));
        assert!(bytes("0").is_err());
        assert!(bytes("GB").is_err());
        assert!(bytes("2 parsecs").is_err());
        assert!(bytes("inf").is_err());
    }
}
