//! HTML: one self-contained interactive page. The chart is the SVG picture of the scene
//! (annotated so that the page's script can find bands, ticks and marks), the numbers
//! behind it come from [`crate::analysis::page`], and a small hand-written script
//! (`html/page.js`) adds the tooltip, hiding bands from the key, zoom with the bands of
//! the window ranked, the filter box, the views, the table and a census's flame graph,
//! and the redraws they need. Nothing is loaded from elsewhere, and the page's content security policy
//! forbids it, so the file works offline and leaks nothing.

use std::fmt::Write as _;
use std::io::{self, Write};

use serde::Serialize;

use crate::analysis::page::{PageBand, PageData};
use crate::escape;
use crate::scene::Scene;

mod compare;
pub use compare::ComparePage;

/// What every page's script starts with: its ways with the document (`dom.js`), then the
/// figures it computes for a view with the library's rules (`figures.js`).
const SHARED: &str = concat!(include_str!("html/dom.js"), include_str!("html/figures.js"));
/// The page's script: the shared part, then the page's own parts.
const SCRIPT: &str = concat!(
    include_str!("html/dom.js"),
    include_str!("html/figures.js"),
    include_str!("html/costs.js"),
    include_str!("html/flame.js"),
    include_str!("html/lists.js"),
    include_str!("html/page.js")
);
const STYLE: &str = include_str!("html/page.css");

/// A page on its own, or one that follows its server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// A file: everything it shows is in it.
    Static,
    /// The page of `--serve`: it follows its server's event stream and updates itself.
    Live,
}

/// The page's content security policy: nothing from elsewhere, no request at all, and
/// no script but the page's own, named by its hash: text from a profile that reached
/// the page as markup still could not run. The live page also asks its own server for
/// updates.
pub fn policy(mode: Mode) -> String {
    script_policy(&script_element_text(), mode)
}

/// The policy of a page whose one script element holds `script`.
fn script_policy(script: &str, mode: Mode) -> String {
    use base64::Engine as _;
    use sha2::Digest as _;
    let hash = sha2::Sha256::digest(script.as_bytes());
    format!(
        "default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-{}'; \
         img-src data:{}",
        base64::engine::general_purpose::STANDARD.encode(hash),
        if mode == Mode::Live {
            "; connect-src 'self'"
        } else {
            ""
        }
    )
}

/// The text of the page's script element, exactly: what its hash is taken over.
fn script_element_text() -> String {
    format!("\n{SCRIPT}")
}

/// HTML output: the scene plus the numbers the page shows.
pub struct Html<'a> {
    /// The numbers behind the picture.
    pub data: &'a PageData,
    /// A page on its own or the live one.
    pub mode: Mode,
}

/// Where the graph is, in the SVG's coordinates (y down), and what its axes span.
#[derive(Serialize)]
struct PlotBox {
    page: usize,
    x: f64,
    y: f64,
    w: f64,
    h: f64,
    t0: f64,
    xr: f64,
    yr: f64,
    x_legend: f64,
    y_legend: f64,
    /// The axis labels' size in points.
    font: f64,
    /// The strips' row under the graph, above the time axis.
    strip: f64,
    /// Of it, the capabilities' strips (`cap_row` each), above the collections'.
    caps: f64,
    cap_row: f64,
    /// The rate panel's height, between the graph and the strip (0 without one).
    rate: f64,
    /// The row between the graph and the rate panel.
    rate_gap: f64,
}

/// A band as the script draws it: the page data's band and the scene's paint.
#[derive(Serialize)]
struct ScriptBand<'a> {
    #[serde(flatten)]
    band: &'a PageBand,
    fill: String,
}

#[derive(Serialize)]
struct ScriptData<'a> {
    #[serde(flatten)]
    data: &'a PageData,
    plot: PlotBox,
    /// The drawn bands, with the scene's paint.
    bands: Vec<ScriptBand<'a>>,
    /// The bands the picture did not draw, each with one of the picture's band colours
    /// chosen by its name, so that it keeps it when a zoomed window or a filter shows it.
    pool: Vec<ScriptBand<'a>>,
    /// The colour of a window's `OTHER`.
    other_fill: String,
    /// The runtime's lines the page has, as the scene styles them.
    lines: Vec<ScriptLine<'a>>,
    /// A minor and a major collection's mark in the GC strip (a capability's time
    /// collecting in its strip the first).
    gc_fills: [String; 2],
    /// A capability's time running Haskell code in its strip.
    running_fill: String,
    /// The shade of the graph before the first census and its names, longest first, as
    /// the picture has them ([`crate::scene::UNOBSERVED_NAMES`]).
    unobserved_fill: String,
    unobserved_names: [&'static str; 2],
    /// Each of the page data's frames' colour in a flame graph: one of the picture's,
    /// by its label.
    frame_fills: Vec<String>,
    /// The colour of each frame's label on its fill ([`crate::scene::Paint::ink`]).
    frame_inks: Vec<String>,
    /// The cost-centre samples beside a heap profile, with their frames' paints.
    #[serde(skip_serializing_if = "Option::is_none")]
    cost_samples: Option<ScriptSamples<'a>>,
    /// Their panel under the graph, as the scene lays it out ([`crate::scene::SamplesRow`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    samples_row: Option<ScriptSamplesRow<'a>>,
}

/// The scene's samples' panel for the script, its paints as colours.
fn script_samples_row(row: &crate::scene::SamplesRow) -> ScriptSamplesRow<'_> {
    ScriptSamplesRow {
        height: row.height,
        gap: row.gap,
        top: row.top,
        edges: &row.edges,
        bars: (row.bars.iter())
            .map(|b| {
                let name = String::from_utf8_lossy(&b.name).into_owned();
                (name, super::svg::colour(b.fill), &b.counts[..])
            })
            .collect(),
    }
}

/// The samples' panel as the script redraws it: the scene's, its paints as colours.
#[derive(Serialize)]
struct ScriptSamplesRow<'a> {
    height: f64,
    gap: f64,
    top: f64,
    edges: &'a [f64],
    /// Each cost centre's (and the rest's): name, colour, samples in each stretch.
    bars: Vec<(String, String, &'a [f64])>,
}

/// The page data of the cost-centre samples beside a heap profile, and each of their
/// frames' fill and ink, as the page's own frames have them.
#[derive(Serialize)]
struct ScriptSamples<'a> {
    #[serde(flatten)]
    data: &'a PageData,
    frame_fills: Vec<String>,
    frame_inks: Vec<String>,
    other_fill: String,
}

/// A runtime line: its points from the page data, its name, width and colour from the
/// scene; the allocation rate goes on its own scale.
#[derive(Serialize)]
struct ScriptLine<'a> {
    name: &'static str,
    width: f64,
    stroke: String,
    /// How its corners join, as the scene's runtime lines do (SVG's name).
    join: &'static str,
    points: &'a [(f64, f64)],
    rate: bool,
}

/// The page data's runtime lines with the scene's styles, joined by
/// [`crate::scene::RuntimeLine`]; those the page data left empty (too few readings for
/// a line) are left out.
fn script_lines<'a>(data: &'a PageData, paints: &crate::scene::PagePaints) -> Vec<ScriptLine<'a>> {
    use crate::scene::RuntimeLine;
    RuntimeLine::ALL
        .iter()
        .map(|&which| {
            let points = match which {
                RuntimeLine::HeapSize => &data.heap_size,
                RuntimeLine::Blocks => &data.heap_blocks,
                RuntimeLine::Live => &data.heap_live,
                RuntimeLine::AllocationRate => &data.allocation_rate,
            };
            let style = paints.lines[which as usize];
            ScriptLine {
                name: style.name,
                width: style.width,
                stroke: super::svg::colour(style.paint),
                join: super::svg::line_join(crate::scene::PathRole::HeapLine.join()),
                points,
                rate: which == RuntimeLine::AllocationRate,
            }
        })
        .filter(|l| !l.points.is_empty())
        .collect()
}

/// Each band's fill as the scene paints it, by name (its resolved legend).
fn fills(scene: &Scene) -> std::collections::HashMap<String, String> {
    (scene.legend.iter())
        .map(|e| {
            (
                String::from_utf8_lossy(&e.name).into_owned(),
                super::svg::colour(e.fill),
            )
        })
        .collect()
}

/// What the page's script is handed: the page data, where the graph is, and each band's
/// values with its fill as the scene paints it.
fn script_data<'a>(data: &'a PageData, scene: &'a Scene) -> ScriptData<'a> {
    let plot = scene.plot.unwrap_or(crate::scene::Plot {
        page: 0,
        x0: 0.0,
        y0: 0.0,
        width: scene.width,
        height: scene.height,
        first_time: 0.0,
        x_range: 1.0,
        y_range: 1.0,
        x_legend: 0.0,
        y_legend: 0.0,
        strip: 0.0,
        capabilities: 0.0,
        capability_row: 0.0,
        rate: 0.0,
        rate_gap: 0.0,
    });
    let bottom = (plot.page + 1) as f64 * scene.height;
    let fills = fills(scene);
    let other_fill = super::svg::colour(crate::scene::OTHER_PAINT);
    let bands: Vec<ScriptBand> = data
        .bands
        .iter()
        .map(|band| ScriptBand {
            band,
            // The page may have marked a look-alike name; the scene has it as read.
            fill: (fills.get(&band.name))
                .or_else(|| fills.get(crate::escape::unmarked(&band.name)))
                .cloned()
                .unwrap_or_else(|| other_fill.clone()),
        })
        .collect();
    // What the picture does not draw, in the paints the layout chose for the page.
    let none = crate::scene::PagePaints::default();
    let paints = scene.page_paints.as_deref().unwrap_or(&none);
    let colour = super::svg::colour;
    let or_other = |p: Option<&crate::scene::Paint>| colour(*p.unwrap_or(&paints.other));
    let pool = (data.pool.iter().enumerate())
        .map(|(k, band)| ScriptBand {
            band,
            fill: or_other(paints.pool.get(k)),
        })
        .collect();
    let fills_of = |frames: &[crate::scene::Paint], n: usize| -> (Vec<String>, Vec<String>) {
        (0..n)
            .map(|k| {
                let paint = *frames.get(k).unwrap_or(&paints.other);
                (colour(paint), colour(paint.ink()))
            })
            .unzip()
    };
    let (frame_fills, frame_inks) = fills_of(&paints.frames, data.frames.len());
    let cost_samples = data.cost_samples.as_deref().map(|samples| {
        let (frame_fills, frame_inks) = fills_of(&paints.sample_frames, samples.frames.len());
        ScriptSamples {
            data: samples,
            frame_fills,
            frame_inks,
            other_fill: other_fill.clone(),
        }
    });
    let samples_row = scene.samples.as_deref().map(script_samples_row);
    ScriptData {
        frame_fills,
        frame_inks,
        cost_samples,
        samples_row,
        pool,
        other_fill,
        lines: script_lines(data, paints),
        gc_fills: paints.gcs.map(colour),
        running_fill: colour(crate::scene::RUNNING_PAINT),
        unobserved_fill: colour(crate::scene::UNOBSERVED_PAINT),
        unobserved_names: crate::scene::UNOBSERVED_NAMES,
        data,
        plot: PlotBox {
            page: plot.page,
            x: plot.x0,
            y: bottom - plot.y0 - plot.height,
            w: plot.width,
            h: plot.height,
            t0: plot.first_time,
            xr: plot.x_range,
            yr: plot.y_range,
            x_legend: plot.x_legend,
            y_legend: plot.y_legend,
            font: scene.font_size,
            strip: plot.strip,
            caps: plot.capabilities,
            cap_row: plot.capability_row,
            rate: plot.rate,
            rate_gap: plot.rate_gap,
        },
        bands,
    }
}

impl super::Backend for Html<'_> {
    fn write(&self, scene: &Scene, out: &mut dyn Write) -> io::Result<()> {
        let data = self.data;
        let script_data = script_data(data, scene);
        // `<` written as an escape, so that nothing in a name can end the script element.
        let json =
            escape::json_in_script(&serde_json::to_string(&script_data).map_err(io::Error::other)?);

        use crate::analysis::summary::{time_text, value_text};
        let mut html = String::with_capacity(json.len() + 200_000);
        head(&mut html, &data.job, self.mode);
        let _ = if data.report {
            let of = match data.samples_span {
                Some((from, to)) => format!(
                    "cost-centre samples from {} to {}",
                    time_text(data.units_read.time, &data.sample_unit, from),
                    time_text(data.units_read.time, &data.sample_unit, to)
                ),
                None => "a time and allocation report: the whole run".into(),
            };
            writeln!(
                html,
                "<p class=\"about\">{date} · {of}, {total} {measure}</p>",
                of = escape::html(&of),
                date = escape::html(&data.date),
                total = escape::html(&value_text(data.units_read.value, data.peak.1, data.units)),
                measure = match data.units_read.value {
                    crate::units::ValueUnit::Bytes => "allocated".into(),
                    _ => escape::html(&data.value_unit),
                },
            )
        } else if script_data.bands.is_empty() && !data.heap_size.is_empty() {
            writeln!(
                html,
                "<p class=\"about\">{date} · no heap profile in this eventlog: the runtime's \
                 heap size, live bytes and allocation rate</p>",
                date = escape::html(&data.date),
            )
        } else {
            writeln!(
                html,
                "<p class=\"about\">{date} · {samples} samples · peak {peak} at {at}{waste}</p>",
                date = escape::html(&data.date),
                samples = data.samples,
                peak = escape::html(&value_text(data.units_read.value, data.peak.1, data.units)),
                at = escape::html(&time_text(
                    data.units_read.time,
                    &data.sample_unit,
                    data.peak.0
                )),
                waste = data.biography.as_ref().map_or(String::new(), |b| format!(
                    " · <span id=\"waste\" data-waste=\"{}\" data-waste-at-peak=\"{}\">\
                     waste (DRAG + VOID, never used again) {:.1}% of the heap over the run, \
                     {:.1}% at its peak: {}</span>",
                    b.waste,
                    b.waste_at_peak,
                    b.waste * 100.0,
                    b.waste_at_peak * 100.0,
                    escape::html(&b.advice)
                )),
            )
        };
        // An input read in part says so before anything it shows.
        if let Some(loss) = &data.loss {
            let mut said = escape::html(loss);
            said[..1].make_ascii_uppercase();
            let _ = writeln!(
                html,
                "<p id=\"loss\" class=\"loss\" role=\"note\">{said}.</p>"
            );
        }
        body(
            &mut html,
            &super::svg::page_picture(scene),
            &script_data.bands,
            (data.ipe, data.report, data.cost_samples.is_some()),
        );
        tail(&mut html, &json);
        out.write_all(html.as_bytes())
    }
}

/// HTML without a page's numbers: the picture alone, in a document that runs nothing.
/// What a program using the library gets for [`super::Format::Html`] when it draws a
/// scene that has no page behind it (a key, a flame graph); the interactive page is
/// [`Html`], which cannot be made without its [`PageData`].
pub struct Figure;

impl super::Backend for Figure {
    fn write(&self, scene: &Scene, out: &mut dyn Write) -> io::Result<()> {
        let title = escape::html(&String::from_utf8_lossy(&scene.title));
        let html = format!(
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; \
             style-src 'unsafe-inline'\">\n<meta name=\"generator\" content=\"hpgraph {}\">\n\
             <title>{title}</title>\n</head>\n<body>\n{}\n</body>\n</html>\n",
            env!("CARGO_PKG_VERSION"),
            super::svg::page_picture(scene),
        );
        out.write_all(html.as_bytes())
    }
}

/// The key: one entry per band, top band first, each a button that hides its band.
fn key(html: &mut String, bands: &[ScriptBand]) {
    html.push_str("<ul id=\"key\" aria-label=\"Bands: click to hide or show\">\n");
    for b in bands.iter().rev() {
        let name = escape::html(&b.band.name);
        let _ = writeln!(
            html,
            "<li data-band=\"{name}\" tabindex=\"0\" role=\"button\" aria-pressed=\"true\">\
                 <span class=\"swatch\" style=\"background:{}\"></span><span>{name}</span></li>",
            b.fill
        );
    }
    html.push_str("</ul>\n");
}

/// The page's parts under its heading: the controls, the chart and its key, the flame
/// graph's place and the table, which the script fills in.
/// A report's page (`report`) has one census: its graph over time is hidden, and the
/// flame graph the page opens with leads.
/// A heap profile with the same run's cost-centre samples beside it (`samples`) gets
/// their part after the heap's flame graph.
fn body(
    html: &mut String,
    picture: &str,
    bands: &[ScriptBand],
    (ipe, report, samples): (bool, bool, bool),
) {
    html.push_str(CONTROLS);
    html.push_str(if report {
        "<div class=\"figure\" hidden>\n<div id=\"chart\">\n"
    } else {
        "<div class=\"figure\">\n<div id=\"chart\">\n"
    });
    html.push_str(picture);
    html.push_str("\n<div id=\"tooltip\" role=\"status\" hidden></div>\n</div>\n");
    key(html, bands);
    html.push_str("</div>\n");
    html.push_str("<p id=\"runtime\" class=\"help\" hidden></p>\n");
    html.push_str(if report { REPORT_HELP } else { HELP });
    if !report {
        html.push_str(MEMBERS);
    }
    if report {
        html.push_str(STRIP);
    }
    html.push_str(FLAME);
    if samples && !report {
        html.push_str(SAMPLES);
    }
    if report {
        html.push_str(COSTS_TABLE);
        return;
    }
    html.push_str(TABLE_HEAD);
    if ipe {
        html.push_str(IPE_HEAD);
    }
    html.push_str(TABLE_TAIL);
    html.push_str(TICKY);
}

/// A root or retainer profile's members, which the script lists (`lists.js`) when the
/// page's data has them: each a button that shows the bands of the sets that hold it.
const MEMBERS: &str = "<section id=\"members\" hidden aria-label=\"The members of the sets\">\
    <h2></h2><p class=\"help\">Each member's bytes at the census where they were most: \
    reachable (in every set that holds it, alone or shared with others) and alone (in the set \
    of it only). Click a member to show only the bands of the sets that hold it: stacked, they \
    are its reachable bytes over time. Click a heading to sort.</p>\
    <p id=\"members-note\" role=\"status\"></p><div class=\"list\"><table id=\"members-table\">\
    <thead></thead><tbody></tbody></table></div></section>\n";

/// A ticky-ticky run's counters, which the script lists when the page's data has them.
const TICKY: &str = "<section id=\"ticky\" hidden aria-label=\"Ticky-ticky counters\">\
    <h2>Ticky-ticky counters over the run</h2><p class=\"help\">Per closure, as GHC's ticky \
    report counts it: the bytes its code allocated (Alloc, what the graph shows per interval), \
    the bytes allocated of the closure itself (Alloc'd) and how often it was entered, most \
    allocating first. Click a heading to sort.</p><div class=\"below\"><table id=\"ticky-table\">\
    <thead></thead><tbody></tbody></table></div></section>\n";

/// The view and the filter box.
const CONTROLS: &str = "<div class=\"controls\"><label>View <select id=\"view\">\
    <option value=\"stacked\">stacked bytes</option>\
    <option value=\"share\">share of each census (100%)</option>\
    <option value=\"lines\">lines (bands unstacked)</option></select></label> \
    <label>Filter <input id=\"filter\" type=\"search\" spellcheck=\"false\" \
    placeholder=\"regular expression\" aria-describedby=\"filter-note\"></label> \
    <span id=\"filter-note\" role=\"status\"></span></div>\n";

/// Where a census's flame graph opens.
const FLAME: &str = "<section id=\"flame\" hidden aria-label=\"Flame graph of one census\">\
    <p><span id=\"flame-title\"></span> <button id=\"flame-mean\" type=\"button\">mean of the \
    window shown</button> <label><input id=\"flame-inverted\" type=\"checkbox\"> inverted</label> \
    <button id=\"flame-close\" type=\"button\">close</button> \
    <label hidden>· weighed by <select id=\"measure\"></select></label></p>\
    <svg id=\"flame-svg\" xmlns=\"http://www.w3.org/2000/svg\" width=\"100%\"></svg>\
    <p id=\"flame-info\" role=\"status\"></p></section>\n";

/// The table's frame; the script writes its rows for the window shown.
const TABLE_HEAD: &str = "<div class=\"below\"><table id=\"summary\">\n<caption>Every band the page holds, in \
    <span id=\"table-window\">the whole run</span>: its trend line, share of the area \
    under the graph, peak and when, mean, growth (least-squares slope) with its R², and \
    the trend. Click a heading to sort.</caption>\n<thead><tr><th>trend line</th>\
    <th class=\"name\" data-sort=\"name\">band</th><th data-sort=\"share\">share</th>\
    <th data-sort=\"peak\">peak</th><th data-sort=\"at\">at</th><th data-sort=\"mean\">mean</th>\
    <th data-sort=\"growth\">growth</th><th data-sort=\"r2\">R²</th><th>trend</th>";

/// Eventlog samples over time, which the script draws.
const STRIP: &str = "<section id=\"strip\" hidden aria-label=\"Samples over time\">\
    <p class=\"help\">Samples over time: drag across them to weigh the flame graph and the \
    table by that stretch, double-click for all of them.</p>\
    <svg id=\"strip-svg\" xmlns=\"http://www.w3.org/2000/svg\" width=\"100%\"></svg></section>\n";

/// The cost-centre samples of the same run beside a heap profile: their strip, flame
/// graph and tree, which the script draws and keeps to the chart's window.
const SAMPLES: &str = "<section id=\"samples\" hidden aria-label=\"The cost-centre samples of the same run\">\
    <h2>Time: the cost-centre samples of the same run</h2>\
    <p class=\"help\">What the program was running while the heap above grew and shrank, on the \
    same clock: the panel under the heap graph shows when each cost centre ran, and a window zoomed \
    on the heap graph weighs this flame graph and table by the samples taken in it (double-click \
    the graph for the whole run).</p>\
    <p><span id=\"samples-title\"></span> <label><input id=\"samples-inverted\" \
    type=\"checkbox\"> inverted</label></p>\
    <svg id=\"samples-flame-svg\" xmlns=\"http://www.w3.org/2000/svg\" width=\"100%\"></svg>\
    <p id=\"samples-info\" role=\"status\"></p>\
    <div class=\"below\"><table id=\"samples-costs\">\n<caption>The tree of the sampled stacks: \
    the samples each took itself (individual) and with every stack it calls (inherited), as \
    shares of the window's. Click ▸ to unfold a stack's callees, a heading to sort by it.\
    </caption>\n<thead></thead>\n<tbody></tbody>\n</table></div></section>\n";

/// A cost-centre profile's table: its tree of stacks, which the script writes.
const COSTS_TABLE: &str = "<div class=\"below\"><table id=\"costs\">\n<caption>The tree of cost-centre \
    stacks, as GHC's report lists it: what each stack spends itself (individual) and with \
    every stack it calls (inherited), as shares of the run. Click ▸ to unfold a stack's \
    callees, a heading to sort callees by it; hover a figure for its count.</caption>\n\
    <thead></thead>\n<tbody></tbody>\n</table></div>\n<noscript><p>The table needs the \
    page's script; <code>hpgraph --summary</code> prints the top cost centres.</p></noscript>\n";

/// The columns of info-table provenance (`-hi`).
const IPE_HEAD: &str = "<th class=\"name\" data-sort=\"closure\">closure</th>\
    <th class=\"name\" data-sort=\"type\">type</th><th class=\"name\" data-sort=\"module\">module</th>\
    <th class=\"name\" data-sort=\"location\">source</th>";

const TABLE_TAIL: &str = "</tr></thead>\n<tbody></tbody>\n</table></div>\n<noscript><p>The table needs the \
    page's script; <code>hpgraph --summary</code> prints it.</p></noscript>\n";

const HELP: &str = "<p class=\"help\">Hover over the chart for values · click a key entry to \
    hide or show its band · drag across the chart to zoom (the key and the table then rank \
    that window's bands), double-click to see it all · click a marker under the axis, then \
    another, for the time between them · click the chart for that census's \
    flame graph <span id=\"zoom-note\" hidden>· <button id=\"reset\" type=\"button\">show the whole \
    run</button></span></p>\n";

/// What a report's page says of itself.
const REPORT_HELP: &str = "<p class=\"help\">The flame graph of the whole run: click a frame \
    to zoom into it, tick inverted for what spends at the bottom, weigh it by time, \
    allocation or entries where the profile has them · the table below is the tree of \
    stacks <span id=\"zoom-note\" hidden><button id=\"reset\" type=\"button\">\
    </button></span></p>\n";

/// Everything up to the page's heading; a live page also gets the line that tells the
/// program's state.
fn head(html: &mut String, job: &str, mode: Mode) {
    let title = escape::html(job);
    let _ = write!(
        html,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"{policy}\">\n\
         <meta name=\"generator\" content=\"hpgraph {version}\">\n\
         <title>{title} — heap profile</title>\n<style>\n{STYLE}</style>\n</head>\n{body}\n\
         <h1 class=\"job\">{title}</h1>\n",
        policy = policy(mode),
        version = env!("CARGO_PKG_VERSION"),
        body = if mode == Mode::Live {
            "<body data-live>\n<p id=\"live-status\" role=\"status\" data-status=\"waiting\">\
             connecting to hpgraph…</p>"
        } else {
            "<body>"
        },
    );
}

/// The page's data and script, and its end.
fn tail(html: &mut String, json: &str) {
    let _ = write!(
        html,
        "<script type=\"application/json\" id=\"hpgraph-data\">{json}</script>\n\
         <script>{}</script>\n</body>\n</html>\n",
        script_element_text()
    );
}

/// The live page before the program has written a complete sample: the page's frame,
/// without a chart; the script fills it in when the first profile arrives.
pub fn waiting_page(what: &str, out: &mut dyn Write) -> io::Result<()> {
    let mut html = String::new();
    head(&mut html, what, Mode::Live);
    html.push_str("<p class=\"about\">no complete sample yet</p>\n");
    body(&mut html, "", &[], (false, false, false));
    tail(&mut html, "null");
    out.write_all(html.as_bytes())
}
