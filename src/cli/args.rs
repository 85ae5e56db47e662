//! The command line as clap reads it: every option, its help and its spelling. Nothing
//! here decides anything; [`super::settings`] turns [`Args`] into what a run does.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{Parser, ValueEnum};

use super::generate::Generated;
use super::values::*;
use hpgraph::export::SummaryStyle;
use hpgraph::layout::Style;
use hpgraph::layout::paint::Palette;

const SHORT_AFTER_HELP: &str = "\
Examples:
  hpgraph prog.hp                 write ./prog.ps and ./prog.aux (as hp2ps does)
  hpgraph prog.eventlog -o heap.pdf
  hpgraph --summary prog.hp       which band is the leak
  hpgraph --stats prog.eventlog   +RTS -s again, for the run or --from/--to
  hpgraph --serve prog.hp         watch it grow in a browser
  hpgraph run -- ./prog ARGS      run a GHC program, draw it: ./prog.html (run --help)

--help gives every option in full, more examples and hp2ps's option syntax.";

const AFTER_HELP: &str = "\
Examples:
  hpgraph prog.hp                 write ./prog.ps and ./prog.aux (as hp2ps does)
  hpgraph run -- ./prog ARGS      run a GHC program with the runtime options its build
                                  takes, keep ./prog.eventlog, write ./prog.html
                                  (hpgraph run --help; docs/run.md)
  hpgraph -c -e8in prog           colour EPS, 8 inches wide, from prog.hp
  hpgraph -m5 -i- prog.hp         five bands (the rest merged into OTHER), names descending
  hpgraph -p prog.hp              reuse ./prog.aux: same order, shades and minimum ranges
  prog +RTS -hc -RTS; hpgraph < prog.hp > heap.ps
  hpgraph --watch prog.hp -o heap.svg   redraw heap.svg while prog runs
  hpgraph --serve prog.eventlog          the same in a browser, live: open the address it prints
  prog +RTS -hT -l -ol/dev/fd/3 -RTS 3>&1 >/dev/null | hpgraph --watch - -o heap.svg
  hpgraph --connect unix:/tmp/prog.sock --serve   from eventlog-socket's socket
  hpgraph --compare before.hp after.eventlog --summary   what a fix changed, band by band
  prog +RTS -hT -l -RTS; hpgraph prog.eventlog   an eventlog: ./prog.ps, as for prog.hp
  hpgraph prog.eventlog -o prog-ev.hp   any profile as .hp text, for hp2ps and others
  hpgraph --style modern --palette okabe-ito --size 12cmx8cm prog.hp -o fig.pdf
  hpgraph prog.hp -o heap.png            1350 x 900 pixels; --dpi 300 for print
  hpgraph --summary prog.hp              which band is the leak: peak, when, share, trend
  hpgraph --stats prog.eventlog --from 2 --to 3   the runtime's +RTS -s for that stretch
  hpgraph --compare a.eventlog b.eventlog --stats   two runs' +RTS -s side by side
  hpgraph prog.eventlog -o heap.svg --check 'peak <= 200MB' --check 'max_pause <= 10ms'
                                         exit 1 when over budget, for CI (docs/check.md)
  hpgraph --style modern --title '' --size 8.5cmx5.5cm prog.hp -o fig.pdf   for a paper
  hpgraph prog.hp -o heap.html           an interactive page: hover, hide bands, zoom
  hpgraph --include 'Data\\.Map' --from 2 prog.hp -o maps.csv   some bands, from 2 s on

hp2ps's option syntax works unchanged: -pc is -p -c, -cp is -c, -m alone is -m0,
-t alone is -t0, -i- sorts descending. Unlike hp2ps, options may follow the file,
several files are rendered in turn, and errors exit with 1 (usage errors with 2; with
--check, 1 is a condition that failed and every error exits with 2).";

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
    #[arg(long, value_parser = super::values::output_kind(), value_name = "FORMAT", help_heading = "Output and formats")]
    pub format: Option<hpgraph::engine::OutputKind>,

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
    #[arg(long, value_name = "N", default_value_t = hpgraph::backend::DPI, value_parser = dpi,
          help_heading = "Output and formats")]
    pub dpi: f64,

    /// The figure's look: hp2ps or modern [default: hp2ps for ps and eps; modern for svg,
    /// pdf, png and html]
    ///
    /// hp2ps is its picture, exactly (its PostScript bytes). modern has round tick labels
    /// with just enough decimals, byte units, no title box, and long key names shortened
    /// in the middle. --style hp2ps gives the formats hp2ps never wrote its look.
    #[arg(long, value_parser = super::values::style(), value_name = "STYLE", help_heading = "Figure")]
    pub style: Option<Style>,

    /// Band colours
    ///
    /// hp2ps: its greys, or colours with -c. okabe-ito and viridis are told apart by
    /// colour-blind readers; viridis also in greyscale print. [default: hp2ps;
    /// tableau10 with --style modern and for html]
    #[arg(long, value_parser = super::values::palette(), value_name = "NAME", help_heading = "Figure")]
    pub palette: Option<Palette>,

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

    /// Where the key goes [default: right, or pages of its own as -M and -m say]
    ///
    /// file draws the graph without a key, and the key alone in the same format
    /// beside it: -o fig.pdf writes fig.pdf and fig-key.pdf, each band's swatch and
    /// name, as tall as its rows, for a paper's caption or a slide's side.
    #[arg(long, value_name = "WHERE", help_heading = "Figure")]
    pub key: Option<KeyChoice>,

    /// The figure's size: 8cmx5cm (or 8x5cm), 6inx4in, 160mmx100mm, 400x300 (points)
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

    /// Stack the bands the other way up: the largest at the bottom, OTHER on top
    ///
    /// After every order (-d, -i, --sort) and -m; the key follows. Not with -p, whose
    /// .aux file holds the order as it was drawn.
    #[arg(long, conflicts_with = "reuse_aux", help_heading = "Figure")]
    pub reverse: bool,

    /// How the bands' heights read: bytes (stacked) or each band's share of its census
    ///
    /// `share`: every census 100% tall, each band its part of that census (eventlog2html's
    /// normalized view): what the heap is made of over the run, whatever its size. The
    /// bands, their order and the key are those of the bytes; the page has the same as
    /// its View menu. [default: stacked]
    #[arg(long, value_name = "VIEW", value_parser = ["stacked", "share"],
          conflicts_with_all = ["compare", "flame"], help_heading = "Figure")]
    pub view: Option<String>,

    /// With several files: the same ranges for all, the largest [default: both]
    ///
    /// x for the time axis only (runs of different lengths side by side), y for the
    /// values only, both for both (as hp2pretty's --uniform-scale).
    #[arg(long, value_parser = super::values::axes(), value_name = "AXES", num_args = 0..=1, require_equals = true,
          default_missing_value = "both", help_heading = "Figure")]
    pub same_scale: Option<hpgraph::select::Axes>,

    /// The y axis reaches at least BYTES: 2GB, 512MiB, 1e9
    ///
    /// A profile that goes higher keeps its own range.
    #[arg(long, value_name = "BYTES", value_parser = bytes, help_heading = "Figure")]
    pub y_max: Option<f64>,

    /// The x axis spans at least SECS from the first sample
    #[arg(long, value_name = "SECS", value_parser = seconds, help_heading = "Figure")]
    pub x_max: Option<f64>,

    /// Draw the runtime's heap size and live bytes over the bands, and its allocation rate
    ///
    /// Eventlog input; the y axis grows to hold the byte lines. The allocation rate has
    /// a panel of its own under the graph, on an axis in bytes per second. A strip under
    /// them shows each column's share of time in GC, darker where a major collection falls.
    #[arg(long, help_heading = "Figure")]
    pub heap_lines: bool,

    /// Print each band's share, peak, mean and trend instead of a picture
    ///
    /// Growing bands are leak suspects. A band's trend is a line through the last 60%
    /// of the run's body: the run less its teardown (a fall, from a high census within
    /// the last third of the time, to at most half of it at the end: a program letting
    /// its data go as it finishes). It is growing when the line rises by more than 5%
    /// of the band's peak and 1% of the heap's, and its slope is told from noise (2.5
    /// standard errors from flat); shrinking when it falls so; else flat. A body of
    /// fewer than 16 censuses is not judged (docs/inspect.md). An eventlog's summary adds
    /// what each capability was doing (running, collecting, idle) and the non-moving
    /// heap's censuses (+RTS -xn -ln). =json or =csv for scripts (with the runtime's headline figures
    /// as rows when the input is an eventlog).
    #[arg(long, value_parser = super::values::summary_style(), value_name = "FORMAT", num_args = 0..=1, require_equals = true,
          default_missing_value = "text", help_heading = "Data and inspection")]
    pub summary: Option<SummaryStyle>,

    /// Print the runtime's statistics, as +RTS -s does, from an eventlog
    ///
    /// Bytes allocated and copied, residency, collections and pauses per generation (the
    /// non-moving collector's syncs and concurrent collections too), sparks, GC and MUT
    /// elapsed time, productivity: for the whole run, or for --from/--to's window. Any
    /// eventlog has them (+RTS -l, no profiling needed). =json or =csv for scripts.
    #[arg(long, value_parser = super::values::summary_style(), value_name = "FORMAT", num_args = 0..=1, require_equals = true,
          default_missing_value = "text", conflicts_with = "summary",
          help_heading = "Data and inspection")]
    pub stats: Option<SummaryStyle>,

    /// Draw the heap as a flame graph: WHEN is peak, end, mean or a time
    ///
    /// peak (the default) is the census with the most bytes, within --from/--to when
    /// given; end is the last that holds anything; a number is the census nearest that
    /// time; mean is each stack's mean over the run (or --from/--to's stretch),
    /// integrated between censuses. Each box is a cost centre on top of its caller, as
    /// wide as the bytes its stack holds (-hc). Other break-downs give one row. In an
    /// HTML page the census is opened under the chart. Written to NAME.flame.FMT unless
    /// -o says. With -o x.pb.gz, x.folded, x.speedscope.json or callgrind.out.NAME: the
    /// stacks WHEN weighs, for pprof, inferno, speedscope and KCacheGrind.
    #[arg(long, value_name = "WHEN", num_args = 0..=1, require_equals = true,
          default_missing_value = "peak", value_parser = flame_when,
          help_heading = "Data and inspection")]
    pub flame: Option<hpgraph::select::flame::WhichCensus>,

    /// With --flame: the graph rooted at the innermost frames, their callers above
    ///
    /// Each bottom box is what holds the bytes (the cost centre, closure type or info
    /// table), as wide as every stack that ends in it; its callers stand on it.
    #[arg(long, help_heading = "Data and inspection")]
    pub inverted: bool,

    /// A root or retainer profile: a panel for each of the N members that reach most
    ///
    /// A root profile's bands (+RTS -ho) are sets of roots, a retainer profile's (-hr, its
    /// sets from the run's report) sets of retainers. Under the graph of every band, each
    /// member's panel stacks only the bands of the sets that hold it, on the same scale:
    /// its reachable bytes over time, its title its peak reachable and alone. N is 3
    /// unless given, at most 8; --summary lists every member. An HTML page always lists
    /// them: click one to see its bands.
    #[arg(long, value_name = "N", num_args = 0..=1, require_equals = true,
          default_missing_value = "3", value_parser = member_panels,
          conflicts_with_all = ["flame", "compare"], help_heading = "Data and inspection")]
    pub members: Option<usize>,

    /// A time and allocation report's (prog.prof): what a stack is weighed by
    ///
    /// time (profiler ticks; the default where the report has them), alloc (bytes
    /// allocated) or entries. GHC's +RTS -p text gives percentages only: ticks and bytes
    /// are then the run's totals times each share, to 0.05% of the run. An eventlog of
    /// +RTS -p -h… -l holds a heap profile and time samples: it draws the heap (its
    /// HTML page shows the samples under it, on one window), --measure time the samples.
    #[arg(
        long,
        value_enum,
        value_name = "MEASURE",
        help_heading = "Data and inspection"
    )]
    pub measure: Option<MeasureArg>,

    /// Order the bands by how fast they grow, the fastest on top
    ///
    /// growth is the least-squares slope of each band over the run, in bytes a second.
    #[arg(long, value_name = "ORDER", help_heading = "Data and inspection")]
    pub sort: Option<SortBy>,

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

    /// Keep only samples taken at SECS or later, or from a marker: mark:TEXT
    ///
    /// SECS in seconds; or `mark:TEXT`, the first marker of the run whose text starts
    /// with TEXT (a `traceMarker` in an eventlog), `mark:TEXT#N` the Nth of them. Each
    /// run's own markers: a marker that is not there is an error naming the nearest.
    #[arg(long, value_name = "SECS|mark:TEXT", value_parser = bound, help_heading = "Filters")]
    pub from: Option<Bound>,

    /// Keep only the markers whose text matches REGEX
    ///
    /// For a run that marks every iteration: `--marks '^batch'` draws those alone (in
    /// every picture, the page and a converted .hp). --from/--to mark:TEXT still find
    /// any of the run's markers. A .hp file's marks have no text: none matches.
    #[arg(long, value_name = "REGEX", value_parser = regex, help_heading = "Filters")]
    pub marks: Option<regex::bytes::Regex>,

    /// Keep only samples taken at SECS or earlier, or up to a marker: mark:TEXT
    #[arg(long, value_name = "SECS|mark:TEXT", value_parser = bound, help_heading = "Filters")]
    pub to: Option<Bound>,

    /// Prune a cost-centre profile: frames under PERCENT of the whole join their caller's
    /// "(other)"
    ///
    /// For time and allocation reports (prog.prof) and eventlog samples: a frame whose
    /// stack and callees weigh less than PERCENT of what the run (or --from/--to's
    /// window) spent is cut, and what it weighed is its caller's "(other)" frame, so the
    /// flame graph, its exports and the summary stay readable and keep their totals.
    /// --summary says what was hidden. Heap profiles gather small bands with -t instead.
    #[arg(long, value_name = "PERCENT", value_parser = share, help_heading = "Filters")]
    pub min_share: Option<f64>,

    /// A retainer profile's sets in full from FILE, its run's report (default: STEM.prof)
    ///
    /// A -hr profile names each band by a set's number and first members, cut; the same
    /// run's .prof lists each set whole. hpgraph reads STEM.prof beside STEM.hp or
    /// STEM.eventlog by itself; this names another file.
    #[arg(long, value_name = "FILE", help_heading = "Data and inspection")]
    pub retainer_sets: Option<PathBuf>,

    /// Name a -hi profile's info tables from the program's own symbols
    ///
    /// A heap profile by info table (+RTS -hi) of modules built without
    /// -finfo-table-map names its bands by address (0x78dcd0). PROG's symbol table names
    /// most of them (GHC.Types.:, Data.Map.Internal.Bin, ARR_WORDS); a closure local to
    /// a function, which has no symbol, after the code before it, marked as a guess
    /// (near Main.go 0x40ad08). ELF programs as built, not stripped. `hpgraph run --by
    /// hi` gives its program (docs/run.md).
    #[arg(long, value_name = "PROG", help_heading = "Data and inspection")]
    pub binary: Option<PathBuf>,

    /// Exit 1 unless CONDITION holds: 'peak <= 200MB', 'gc_share < 20%' (repeatable)
    ///
    /// The grammar, the figures and the exit statuses: `check_help`.
    #[arg(long, value_name = "CONDITION", help_heading = "Verdicts",
          long_help = check_help())]
    pub check: Vec<String>,

    /// Write every --check condition's verdict to FILE: .json, or .xml for JUnit
    ///
    /// JSON lists each condition, its value and whether it held; JUnit XML has a test
    /// case per condition (a failure for one that fails), as CI servers show tests.
    #[arg(
        long,
        value_name = "FILE",
        requires = "check",
        help_heading = "Verdicts"
    )]
    pub check_report: Option<PathBuf>,

    /// Judge --check on the part read of an input not read whole (cut, or damaged)
    ///
    /// An input that hpgraph could not read to its end — an eventlog or `.hp` cut
    /// short, bytes of an eventlog that do not read, a compressed stream cut — shows
    /// less than the run: a verdict over it is "cannot be judged" (exit 2, an error in
    /// the report), never a pass. With this flag the conditions are judged on what was
    /// read, and the report says that part was all there was.
    #[arg(long, requires = "check", help_heading = "Verdicts")]
    pub check_partial: bool,

    /// Redraw as the running program writes FILE; stop with Ctrl-C
    ///
    /// Draws at once, then again whenever the file grows by a complete sample. - follows
    /// standard input, and a FIFO is followed as a stream: the picture is written once
    /// more when the stream ends, and hpgraph exits.
    #[arg(long, help_heading = "Live view")]
    pub watch: bool,

    /// Read the eventlog a program serves on a socket (eventlog-socket)
    ///
    /// unix:PATH for a Unix socket, HOST:PORT for TCP. With --watch or --serve the
    /// picture follows the program, connecting again when the connection is lost or
    /// the program is run again; without, one connection is read to its end.
    #[arg(long, value_name = "SOCKET", value_parser = hpgraph::input::stream::Endpoint::parse,
          conflicts_with = "files", help_heading = "Live view")]
    pub connect: Option<hpgraph::input::stream::Endpoint>,

    /// Serve the profile to a browser, live (implies --watch) [default: 127.0.0.1:0]
    ///
    /// An interactive page at http://ADDR:PORT/ that updates itself, /profile.json and
    /// an event stream. Port 0 or none: a free one. Only this machine can connect
    /// unless ADDR says otherwise.
    #[arg(long, value_name = "ADDR:PORT", num_args = 0..=1, require_equals = true,
          default_missing_value = "127.0.0.1:0", value_parser = hpgraph::serve::parse_addr,
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

    /// Compare two runs: the FILEs BEFORE and AFTER, in any input formats
    ///
    /// Bands are matched by name (a .hp file's (N) stack numbers left out, a name GHC
    /// cut at -L matched to the whole names it stands for) and drawn in the same colour
    /// in both. A picture shows both runs on one scale and what changed most (.html:
    /// with one hover time and a filter box); --summary, -o x.csv and -o x.json give
    /// each band's peak and mean before and after. Without -o the output is
    /// ./BEFORE-vs-AFTER.FORMAT.
    #[arg(long, help_heading = "Comparing runs")]
    pub compare: bool,

    /// With --compare: each run on its own time, or both on 0-100% of their run
    #[arg(
        long,
        value_name = "TIME",
        default_value = "absolute",
        help_heading = "Comparing runs"
    )]
    pub compare_time: CompareTime,

    /// Print a man page or a shell's completion script, and exit
    ///
    /// man, or complete-bash, complete-zsh, complete-fish, complete-powershell,
    /// complete-elvish. README.md says where to put them.
    #[arg(long, value_name = "WHAT", hide_possible_values = true)]
    pub generate: Option<Generated>,
}

/// `--sort-name` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SortName {
    /// The greatest name on top (`-i`, `-i+`).
    Asc,
    /// The least name on top (`-i-`).
    Desc,
}

/// `--measure` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum MeasureArg {
    /// Profiler ticks.
    Time,
    /// Bytes allocated.
    Alloc,
    /// Times entered.
    Entries,
}

impl From<MeasureArg> for hpgraph::profile::costs::Measure {
    fn from(m: MeasureArg) -> Self {
        match m {
            MeasureArg::Time => Self::Time,
            MeasureArg::Alloc => Self::Alloc,
            MeasureArg::Entries => Self::Entries,
        }
    }
}

/// `--sort` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SortBy {
    /// The steepest least-squares slope on top, shrinking bands at the bottom.
    Growth,
}

/// `--compare-time` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CompareTime {
    /// Seconds since each run began.
    Absolute,
    /// Percent of each run's time, so that runs of different lengths line up.
    #[value(alias = "normalized")]
    Normalised,
}

/// `--key` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum KeyChoice {
    /// Beside the graph.
    Right,
    /// In rows under the graph.
    Below,
    /// No key.
    None,
    /// A picture of its own beside the graph's, NAME-key.EXT, for a caption.
    File,
}

/// `--check`'s full help: the grammar, every figure and the exit statuses.
fn check_help() -> String {
    format!(
        "Exit 1 unless CONDITION holds (repeatable; all must hold)\n\n\
         A figure, a comparison (<=, <, >=, >, ==, !=) and a bound with its unit: bytes \
         (B, kB, MB, GB, KiB, MiB, GiB), times (µs, ms, s), shares (%), rates (MB/s). \
         The figures are --summary's and --stats' names, over --from/--to's window:\n\n\
         {}\n\
         Examples: 'peak <= 200MB', 'max_pause <= 10ms', 'allocated <= 5GB', \
         \"band('Data\\.Map') peak <= 50MB\", 'trend(total) != growing', 'waste <= 30%'.\n\n\
         With --compare BEFORE AFTER a signed bound is a change from BEFORE to AFTER: \
         'peak <= +5%' (relative), 'band(Map) mean <= +1MB', 'gc_share <= +2pp' \
         (percentage points); an unsigned bound judges AFTER.\n\n\
         The picture or data is still written. Exit status: 0 when every condition holds; \
         1 when one fails (one line each on stderr, as 'prog.hp: check failed: peak 231 MB \
         at 4.20 s > 200MB'); 2 when nothing could be checked (an unknown figure, a unit \
         that does not fit, a band the profile lacks, an input that cannot be read).",
        hpgraph::check::figures_help()
    )
}

#[cfg(test)]
mod tests {
    use super::Args;
    use clap::CommandFactory;

    /// `argv::normalise` joins these options to the argument after them, so it must
    /// know exactly the options clap reads a value for without `=`.
    #[test]
    fn the_options_argv_joins_to_their_values_are_claps() {
        let mut claps: Vec<String> = Args::command()
            .get_arguments()
            .filter(|a| a.get_action().takes_values() && !a.is_require_equals_set())
            .filter_map(|a| a.get_long().map(|l| format!("--{l}")))
            .collect();
        claps.sort();
        let mut listed: Vec<String> = super::super::argv::TAKES_VALUE
            .iter()
            .map(|s| s.to_string())
            .collect();
        listed.sort();
        assert_eq!(listed, claps);
    }
}
