//! Data outputs: the profile itself written out, rather than a picture of it. They read
//! the [`Profile`](crate::profile::Profile) (through a [`Table`] of its bands, from
//! [`crate::analysis`]), never the scene.

pub mod aligned;
pub mod callgrind;
pub mod compare;
pub mod costs;
pub mod csv;
pub mod hp;
pub mod json;
pub mod pprof;
pub mod speedscope;
pub mod stacks;
pub mod summary;

use std::io::{self, Write};

pub use crate::analysis::Table;
use crate::profile::Costs;
use crate::select::flame::{Stacked, WhichCensus};

/// The data formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Export {
    /// Classic `.hp` text, for hp2ps and every older tool.
    Hp,
    /// One row per sample, one column per band.
    Csv,
    /// The versioned JSON document of docs/inspect.md.
    Json,
    /// pprof's gzip'd `profile.proto`: `go tool pprof`, Pyroscope, KCacheGrind (through
    /// `pprof -callgrind`) read it.
    Pprof,
    /// Brendan Gregg's folded stacks (`outer;inner bytes`), for inferno and
    /// flamegraph.pl; two runs' differential form with `--compare`.
    Folded,
    /// speedscope's JSON file format.
    Speedscope,
    /// valgrind's callgrind format, for KCacheGrind and `callgrind_annotate`.
    Callgrind,
    /// `--summary`: the leak table, for people or (`--summary=json`) for scripts.
    Summary(SummaryStyle),
    /// `--stats`: the runtime's statistics in `+RTS -s`'s layout, or as JSON.
    Stats(SummaryStyle),
}

/// How `--summary` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SummaryStyle {
    /// An aligned table for people.
    Text,
    /// JSON for scripts.
    Json,
    /// CSV for spreadsheets and scripts: the same figures as rows.
    Csv,
}

/// Choices the data outputs take from the command line.
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct ExportOptions {
    /// `--top N`: the summary lists the N largest bands.
    pub top: Option<usize>,
    /// How the summary table looks.
    pub text: summary::TextOptions,
    /// `--from` and `--to`: the window `--stats` gives the figures of (the summary's is
    /// the filtered profile's).
    pub window: (Option<f64>, Option<f64>),
    /// `--flame`'s WHEN: the census (or mean) the stack exports weigh at. Without it,
    /// pprof and folded stacks take the peak census and speedscope every census.
    pub census: Option<crate::select::flame::WhichCensus>,
}

impl Export {
    /// The formats a file name can ask for, in the order `--help` lists them.
    pub const FILES: [Export; 7] = [
        Export::Hp,
        Export::Csv,
        Export::Json,
        Export::Pprof,
        Export::Folded,
        Export::Speedscope,
        Export::Callgrind,
    ];

    /// The usual file extension, which is also the format's name on the command line.
    pub fn extension(self) -> &'static str {
        match self {
            Export::Hp => "hp",
            Export::Csv => "csv",
            Export::Pprof => "pb.gz",
            Export::Folded => "folded",
            Export::Speedscope => "speedscope.json",
            Export::Callgrind => "callgrind",
            Export::Json
            | Export::Summary(SummaryStyle::Json)
            | Export::Stats(SummaryStyle::Json) => "json",
            Export::Summary(SummaryStyle::Csv) | Export::Stats(SummaryStyle::Csv) => "csv",
            Export::Summary(SummaryStyle::Text) | Export::Stats(SummaryStyle::Text) => "txt",
        }
    }

    /// The format's name for `--format`: its extension, or what its users call it
    /// where the extension has two parts (`pprof`, `speedscope`).
    pub fn name(self) -> &'static str {
        match self {
            Export::Pprof => "pprof",
            Export::Speedscope => "speedscope",
            other => other.extension(),
        }
    }

    /// Whether it writes the stacks of one census or window (`--flame`'s WHEN, the
    /// peak by default) rather than the profile over time.
    pub fn writes_stacks(self) -> bool {
        matches!(
            self,
            Export::Pprof | Export::Folded | Export::Speedscope | Export::Callgrind
        )
    }

    /// Writes a comparison of two runs (`--compare`) in this format: the summary's text
    /// or JSON, CSV, or (`-o x.json`) JSON. A `.hp` file holds one run, which the command
    /// line says before anything is read; here it is an error, not a guess.
    pub fn write_comparison(
        self,
        comparison: &crate::analysis::compare::Comparison,
        opts: ExportOptions,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        match self {
            Export::Summary(SummaryStyle::Text) => compare::write_text(comparison, opts.text, out),
            Export::Csv | Export::Summary(SummaryStyle::Csv) => compare::write_csv(comparison, out),
            Export::Folded => Err(io::Error::other(
                "two runs' folded stacks are written from their profiles",
            )),
            Export::Json | Export::Summary(SummaryStyle::Json) => {
                compare::write_json(comparison, out)
            }
            Export::Hp
            | Export::Stats(_)
            | Export::Pprof
            | Export::Speedscope
            | Export::Callgrind => Err(io::Error::other(
                "a comparison is written as a picture, a summary, CSV, JSON or folded stacks",
            )),
        }
    }

    /// Whether the output is read rather than kept (`--summary`, `--stats`): it goes to
    /// standard output unless `-o` names a file.
    pub fn is_printed(self) -> bool {
        matches!(self, Export::Summary(_) | Export::Stats(_))
    }

    /// Whether it reads the profile's bands (so that `--include`, `--exclude` and the
    /// time window filter them); `--stats` reads the runtime's events, over its own
    /// window.
    pub fn reads_bands(self) -> bool {
        !matches!(self, Export::Stats(_))
    }

    /// What a warning says of writing `profile` in this format: names a `.hp` line
    /// cannot hold as they are, or values past what the format writes: pprof
    /// counts in signed 64-bit integers, folded stacks and speedscope in unsigned ones,
    /// and a larger value is written as the largest (a census's total bounds every
    /// stack's); and folded stacks too long to write whole ([`stacks::MAX_FOLDED_STACK`])
    /// at `census` (the peak unless given). `None` when they fit, or the format writes
    /// numbers as they are.
    pub fn caveat<S: Stacked + ?Sized>(
        self,
        profile: &S,
        census: Option<WhichCensus>,
    ) -> Option<String> {
        let overflow = self.overflow(profile.series());
        if self == Export::Folded
            && stacks::folded_cut(profile, census.unwrap_or(WhichCensus::Peak))
        {
            let cut = stacks::cut_note();
            return Some(overflow.map_or(cut.clone(), |o| format!("{o}; {cut}")));
        }
        overflow
    }

    /// [`Self::caveat`]'s names and values.
    fn overflow(self, profile: &crate::profile::Profile) -> Option<String> {
        if self == Export::Hp {
            let n = (profile.bands.names().iter())
                .filter(|n| crate::escape::hp_name_changes(n))
                .count();
            return (n > 0).then(|| {
                format!(
                    "{n} band names cannot be written as .hp lines as they are (empty, blank \
                     at an end, with a line break, or beginning with a keyword): written with _ \
                     in their place, as hpgraph and hp2ps read them back"
                )
            });
        }
        let (limit, kind) = match self {
            Export::Pprof => (i64::MAX as f64, "signed"),
            Export::Folded | Export::Speedscope | Export::Callgrind => {
                (u64::MAX as f64, "unsigned")
            }
            _ => return None,
        };
        let peak = profile.totals().into_iter().fold(0.0, f64::max);
        (peak >= limit).then(|| {
            format!(
                "values up to {peak:e} bytes pass the {kind} 64-bit counts this format \
                 holds: larger ones are written as {limit:e}"
            )
        })
    }

    /// Writes a heap profile's table in this format.
    pub fn write(self, table: &Table, opts: ExportOptions, out: &mut dyn Write) -> io::Result<()> {
        let (p, census) = (table.profile, opts.census.unwrap_or(WhichCensus::Peak));
        match self {
            Export::Csv => csv::write(table, out),
            Export::Json => json::write(table, out),
            Export::Speedscope => speedscope::write(p, opts.census, out),
            Export::Summary(style) => {
                let s = crate::analysis::summarise(table, opts.top, opts.window);
                match style {
                    SummaryStyle::Text => summary::write_text(&s, opts.text, out),
                    SummaryStyle::Json => summary::write_json(&s, out),
                    SummaryStyle::Csv => summary::write_csv(&s, out),
                }
            }
            Export::Hp => hp::write(p, out),
            Export::Pprof => pprof::write(p, census, out),
            Export::Folded => stacks::write_folded(p, census, out),
            Export::Callgrind => callgrind::write(p, census, out),
            Export::Stats(style) => write_stats(p, style, opts, out),
        }
    }

    /// Writes a cost-centre profile in this format: its numbers are its tree, not a row
    /// per census, and its summary is of its cost centres.
    pub fn write_costs(
        self,
        c: &Costs,
        opts: ExportOptions,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        let census = opts.census.unwrap_or(WhichCensus::Peak);
        match self {
            Export::Csv => costs::write_tree_csv(c, out),
            Export::Json => costs::write_tree_json(c, out),
            Export::Speedscope => speedscope::write_costs(c, opts.census, out),
            Export::Summary(style) => {
                let top = opts.top.unwrap_or(20);
                let s = crate::analysis::costs::summarise(c, top, opts.window);
                match style {
                    SummaryStyle::Text => costs::write_summary(&s, out),
                    SummaryStyle::Json => {
                        crate::escape::json_to(&mut *out, &s, true)?;
                        writeln!(out)
                    }
                    SummaryStyle::Csv => costs::write_summary_csv(&s, out),
                }
            }
            Export::Hp => hp::write(c.series(), out),
            Export::Pprof => pprof::write(c, census, out),
            Export::Folded => stacks::write_folded(c, census, out),
            Export::Callgrind => callgrind::write(c, census, out),
            Export::Stats(style) => write_stats(c.series(), style, opts, out),
        }
    }
}

/// `--stats`: the runtime's statistics over `--from`/`--to`, in `style`.
fn write_stats(
    profile: &crate::profile::Profile,
    style: SummaryStyle,
    opts: ExportOptions,
    out: &mut dyn Write,
) -> io::Result<()> {
    let (from, to) = opts.window;
    let s = crate::analysis::stats::stats(&profile.runtime, from, to);
    match style {
        SummaryStyle::Text => out.write_all(s.text(from.is_none() && to.is_none()).as_bytes()),
        SummaryStyle::Json => {
            crate::escape::json_to(&mut *out, &s, true)?;
            writeln!(out)
        }
        SummaryStyle::Csv => summary::write_figures_csv(&s, out),
    }
}
