//! Data outputs: the profile itself written out, rather than a picture of it. They read
//! the [`Profile`](crate::profile::Profile) (through a [`Table`] of its bands, from
//! [`crate::analysis`]), never the scene.

pub mod aligned;
pub mod compare;
pub mod csv;
pub mod hp;
pub mod json;
pub mod summary;

use std::io::{self, Write};

pub use crate::analysis::Table;

/// The data formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Export {
    /// Classic `.hp` text, for hp2ps and every older tool.
    Hp,
    /// One row per sample, one column per band.
    Csv,
    /// The versioned JSON document of docs/inspect.md.
    Json,
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
pub struct ExportOptions {
    /// `--top N`: the summary lists the N largest bands.
    pub top: Option<usize>,
    /// How the summary table looks.
    pub text: summary::TextOptions,
    /// `--from` and `--to`: the window `--stats` gives the figures of (the summary's is
    /// the filtered profile's).
    pub window: (Option<f64>, Option<f64>),
}

impl Export {
    /// The formats a file name can ask for, in the order `--help` lists them.
    pub const FILES: [Export; 3] = [Export::Hp, Export::Csv, Export::Json];

    /// The usual file extension, which is also the format's name on the command line.
    pub fn extension(self) -> &'static str {
        match self {
            Export::Hp => "hp",
            Export::Csv => "csv",
            Export::Json
            | Export::Summary(SummaryStyle::Json)
            | Export::Stats(SummaryStyle::Json) => "json",
            Export::Summary(SummaryStyle::Csv) | Export::Stats(SummaryStyle::Csv) => "csv",
            Export::Summary(SummaryStyle::Text) | Export::Stats(SummaryStyle::Text) => "txt",
        }
    }

    /// The format a file name's extension asks for (case does not matter).
    pub fn from_extension(ext: &str) -> Option<Export> {
        Export::FILES
            .into_iter()
            .find(|f| f.extension().eq_ignore_ascii_case(ext))
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
            Export::Json | Export::Summary(SummaryStyle::Json) => {
                compare::write_json(comparison, out)
            }
            Export::Hp | Export::Stats(_) => Err(io::Error::other(
                "a comparison is written as a picture, a summary, CSV or JSON",
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

    /// Writes the table in this format.
    pub fn write(self, table: &Table, opts: ExportOptions, out: &mut dyn Write) -> io::Result<()> {
        match self {
            Export::Hp => hp::write(table.profile, out),
            Export::Csv => csv::write(table, out),
            Export::Json => json::write(table, out),
            Export::Summary(style) => {
                let s = crate::analysis::summarise(table, opts.top, opts.window);
                match style {
                    SummaryStyle::Text => summary::write_text(&s, opts.text, out),
                    SummaryStyle::Json => summary::write_json(&s, out),
                    SummaryStyle::Csv => summary::write_csv(&s, out),
                }
            }
            Export::Stats(style) => {
                let (from, to) = opts.window;
                let s = crate::analysis::stats::stats(&table.profile.runtime, from, to);
                match style {
                    SummaryStyle::Text => {
                        out.write_all(s.text(from.is_none() && to.is_none()).as_bytes())
                    }
                    SummaryStyle::Json => {
                        crate::escape::json_to(&mut *out, &s, true)?;
                        writeln!(out)
                    }
                    SummaryStyle::Csv => summary::write_figures_csv(&s, out),
                }
            }
        }
    }
}
