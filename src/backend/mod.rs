//! Backends: a [`Scene`] in, bytes out. They never see the profile.

pub mod fixed;
pub mod font;
pub mod html;
pub mod pdf;
pub mod png;
pub mod ps;
pub mod svg;

use std::io::{self, Write};

use crate::scene::Scene;

/// The output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// PostScript, hp2ps's output (the default).
    Ps,
    /// Encapsulated PostScript: PostScript with a bounding box, for documents.
    Eps,
    /// SVG, for the web.
    Svg,
    /// PDF with an embedded font, for pdflatex and paper submission systems.
    Pdf,
    /// PNG, rasterised from the SVG with the embedded font, for READMEs and slides.
    Png,
    /// A self-contained interactive page: the SVG chart, tooltips, zoom, the summary.
    Html,
}

impl Format {
    /// Every format, in the order `--help` lists them.
    pub const ALL: [Format; 6] = [
        Format::Ps,
        Format::Eps,
        Format::Svg,
        Format::Pdf,
        Format::Png,
        Format::Html,
    ];

    /// The usual file extension, which is also the format's name on the command line.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Ps => "ps",
            Format::Eps => "eps",
            Format::Svg => "svg",
            Format::Pdf => "pdf",
            Format::Png => "png",
            Format::Html => "html",
        }
    }

    /// Whether the format keeps every point of a band, as hp2ps does. The others are
    /// drawn at output resolution ([`crate::layout::reduce`]) unless `--exact` asks.
    pub fn keeps_every_point(self) -> bool {
        matches!(self, Format::Ps | Format::Eps)
    }

    /// The format a file name's extension asks for (case does not matter).
    pub fn from_extension(ext: &str) -> Option<Format> {
        Format::ALL
            .into_iter()
            .find(|f| f.extension().eq_ignore_ascii_case(ext))
    }
}

/// An output format.
pub trait Backend {
    /// Writes the whole document for `scene`.
    fn write(&self, scene: &Scene, out: &mut dyn Write) -> io::Result<()>;
}
