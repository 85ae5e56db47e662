//! The HTML page of `--compare`: the picture of both runs, one above the other, a line
//! that follows the pointer through both at one time with both runs' totals there, the
//! comparison table, and a box that filters bands by regular expression in the picture
//! and the table. Self-contained and under the same policy as the profile's page: its
//! one script (`compare.js`) is named by its hash, and it builds no markup from data.

use std::fmt::Write as _;
use std::io::{self, Write};

use serde::Serialize;

use super::{Mode, STYLE, script_policy};
use crate::analysis::compare::{Comparison, Totals};
use crate::analysis::page::PageScale;
use crate::escape;
use crate::scene::{Plot, Scene};
use crate::units::{ByteUnits, Scale, human};

const SCRIPT: &str = include_str!("compare.js");

/// A comparison's page: the scene of both runs plus the numbers behind it.
pub struct ComparePage<'a> {
    /// The comparison.
    pub comparison: &'a Comparison,
    /// Each run's totals, for the line under the pointer.
    pub totals: &'a [Totals; 2],
    /// Where each run's graph is in the scene.
    pub plots: &'a [Plot],
    /// How byte counts are written.
    pub units: ByteUnits,
    /// The differential flame graph (each run's census or mean as `--flame` says, the
    /// peak census by default), drawn by the library; the page shows it under the
    /// table, each frame's bytes before and after in its title.
    pub flame: Option<&'a Scene>,
}

/// A graph as the script finds it: its box in the SVG's coordinates (y down), the time
/// at its left edge and the span across, and its run's totals.
#[derive(Serialize)]
struct Panel<'a> {
    x: f64,
    y: f64,
    w: f64,
    h: f64,
    t0: f64,
    xr: f64,
    #[serde(flatten)]
    totals: &'a Totals,
}

#[derive(Serialize)]
struct Data<'a> {
    panels: Vec<Panel<'a>>,
    scale: PageScale,
}

fn script_text() -> String {
    format!("\n{}{SCRIPT}", super::SHARED)
}

impl super::super::Backend for ComparePage<'_> {
    fn write(&self, scene: &Scene, out: &mut dyn Write) -> io::Result<()> {
        let c = self.comparison;
        let panels = self
            .plots
            .iter()
            .zip(self.totals.iter())
            .map(|(p, totals)| Panel {
                x: p.x0,
                y: scene.height - p.y0 - p.height,
                w: p.width,
                h: p.height,
                t0: p.first_time,
                xr: p.x_range,
                totals,
            })
            .collect();
        let data = Data {
            panels,
            scale: PageScale::of(
                c.units.value,
                self.units,
                c.units.time,
                c.sample_unit.as_bytes(),
            ),
        };
        let json = escape::json_in_script(&serde_json::to_string(&data).map_err(io::Error::other)?);
        let scale = Scale::new(c.units.value, self.units);
        let value = |v: f64| human(v, scale);
        let title = format!("{} vs {}", c.before.file, c.after.file);
        let mut html = String::with_capacity(json.len() + 100_000);
        let _ = write!(
            html,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <meta http-equiv=\"Content-Security-Policy\" content=\"{policy}\">\n\
             <meta name=\"generator\" content=\"hpgraph {version}\">\n\
             <title>{t} — heap profiles compared</title>\n<style>\n{STYLE}</style>\n</head>\n\
             <body>\n<h1>{t}</h1>\n",
            policy = script_policy(&script_text(), Mode::Static),
            version = env!("CARGO_PKG_VERSION"),
            t = escape::html(&title),
        );
        let percent = |p: Option<f64>| p.map_or(String::new(), |p| format!(" ({p:+.1}%)"));
        let _ = writeln!(
            html,
            "<p class=\"about\">peak {} → {}{} · mean {} → {}{}</p>",
            value(c.before.peak),
            value(c.after.peak),
            percent(c.change.peak_percent),
            value(c.before.mean),
            value(c.after.mean),
            percent(c.change.mean_percent),
        );
        html.push_str(
            "<p><label>Bands matching <input id=\"filter\" type=\"search\" \
             placeholder=\"a regular expression\" spellcheck=\"false\"></label> \
             <span id=\"filter-note\"></span></p>\n<div class=\"figure\">\n<div id=\"chart\">\n",
        );
        html.push_str(&super::super::svg::page_picture(scene));
        html.push_str("\n<div id=\"tooltip\" role=\"status\" hidden></div>\n</div>\n</div>\n");
        table(&mut html, c, &value);
        if let Some(flame) = self.flame {
            html.push_str(
                "<section id=\"diff-flame\" aria-label=\"What changed, as a flame graph\">\n\
                 <h2>What changed, by stack</h2>\n<p class=\"about\">AFTER's flame graph, each \
                 frame coloured by its change from BEFORE (red grew, blue shrank, grey the \
                 same); hover a frame for its bytes before and after. Frames only BEFORE had \
                 are there, 0 wide, with their titles.</p>\n<div class=\"figure\">\n",
            );
            html.push_str(&super::super::svg::page_picture(flame));
            html.push_str("\n</div>\n</section>\n");
        }
        let _ = write!(
            html,
            "<script type=\"application/json\" id=\"hpgraph-data\">{json}</script>\n\
             <script>{}</script>\n</body>\n</html>\n",
            script_text()
        );
        out.write_all(html.as_bytes())
    }
}

/// The comparison's table: every band of either run, the largest change in mean first.
fn table(html: &mut String, c: &Comparison, value: &dyn Fn(f64) -> String) {
    html.push_str(
        "<table id=\"comparison\">\n<caption>Every band of either run, the largest change \
         in mean first</caption>\n<thead><tr><th>status</th><th>mean before</th>\
         <th>mean after</th><th>change</th><th>peak before</th><th>peak after</th>\
         <th class=\"name\">band</th></tr></thead>\n<tbody>\n",
    );
    let side = |f: Option<crate::analysis::compare::Figures>, peak: bool| {
        f.map_or("–".to_string(), |f| {
            value(if peak { f.peak } else { f.mean })
        })
    };
    for b in &c.bands {
        let d = b.mean_change();
        let change = if d == 0.0 {
            "0".to_string()
        } else {
            format!("{}{}", if d > 0.0 { "+" } else { "−" }, value(d.abs()))
        };
        let _ = writeln!(
            html,
            "<tr class=\"{status}\" data-band=\"{name}\"><td>{status}</td><td>{}</td>\
             <td>{}</td><td>{change}</td><td>{}</td><td>{}</td>\
             <td class=\"name\">{name}</td></tr>",
            side(b.before, false),
            side(b.after, false),
            side(b.before, true),
            side(b.after, true),
            status = b.status.word(),
            name = escape::html(&b.name),
        );
    }
    html.push_str("</tbody>\n</table>\n");
}
