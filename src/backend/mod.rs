//! Backends: a [`Scene`] in, bytes out. They never see the profile; the HTML page also
//! takes the numbers behind its picture ([`crate::analysis::page::PageData`], made by [`crate::analysis`]).
//! Which backend draws a format, with which options, is decided here ([`Format::backend`])
//! and nowhere else.

pub mod fixed;
pub mod font;
pub mod html;
pub mod pdf;
pub mod png;
pub mod ps;
pub mod svg;

use std::io::{self, Write};

use crate::scene::Scene;

/// What PostScript and EPS files name as their creator.
pub const CREATOR: &str = concat!("hpgraph (version ", env!("CARGO_PKG_VERSION"), ")");

/// The backends' options, resolved from the command line once.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct Options {
    /// PNG: pixels to the inch (`--dpi`).
    pub dpi: f64,
    /// SVG: how text is drawn (`--outline-text`).
    pub text: svg::TextAs,
    /// HTML: a page on its own or one that follows its server (`--serve`).
    pub page: html::Mode,
}

/// A PNG's pixels to the inch unless asked otherwise (`--dpi`): a default figure, 9 by 6
/// inches, is 1350 by 900 pixels.
pub const DPI: f64 = 150.0;

impl Default for Options {
    fn default() -> Self {
        Options {
            dpi: DPI,
            text: svg::TextAs::Text,
            page: html::Mode::Static,
        }
    }
}

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

    /// The resolution, in points, the format draws bands at ([`crate::scene::reduce`])
    /// unless `--exact` asks for every point; `None` for the formats that keep every
    /// point, as hp2ps does. A PNG's size follows its pixels whatever its outlines hold,
    /// so it keeps eight columns a pixel at `dpi`: the finer outline keeps more of the
    /// texture that PostScript's mitred joins give a dense band's edge (on a
    /// 100,000-sample profile the PNG then differs from Ghostscript's rendering of the
    /// exact EPS in 0.66% of 3x3-pixel blocks, at a quarter point 0.84%).
    pub fn column(self, dpi: f64) -> Option<f64> {
        use crate::scene::reduce::{COLUMN, PAGE_COLUMN};
        match self {
            Format::Ps | Format::Eps => None,
            Format::Png => Some(COLUMN.min(72.0 / dpi / 8.0)),
            Format::Svg | Format::Pdf => Some(COLUMN),
            Format::Html => Some(PAGE_COLUMN),
        }
    }

    /// The format a file name's extension asks for (case does not matter).
    pub fn from_extension(ext: &str) -> Option<Format> {
        Format::ALL
            .into_iter()
            .find(|f| f.extension().eq_ignore_ascii_case(ext))
    }

    /// The backend that draws a scene in this format. HTML draws it as a document of its
    /// own ([`html::Figure`]); the interactive page, which carries the numbers behind
    /// its picture, is [`html::Html`], made with them.
    pub fn backend(self, opts: &Options) -> Box<dyn Backend> {
        match self {
            Format::Ps | Format::Eps => Box::new(ps::PostScript {
                creator: CREATOR,
                encapsulated: self == Format::Eps,
            }),
            Format::Svg => Box::new(svg::Svg { text: opts.text }),
            Format::Pdf => Box::new(pdf::Pdf { compress: true }),
            Format::Png => Box::new(png::Png { dpi: opts.dpi }),
            Format::Html => Box::new(html::Figure),
        }
    }

    /// The backend that writes a comparison of two runs in this format: the HTML page
    /// of a comparison is its own ([`html::ComparePage`]); the other formats draw its
    /// scene as any other.
    pub fn comparison_backend<'a>(
        self,
        opts: &Options,
        page: html::ComparePage<'a>,
    ) -> Box<dyn Backend + 'a> {
        match self {
            Format::Html => Box::new(page),
            _ => self.backend(opts),
        }
    }
}

/// An output format.
pub trait Backend {
    /// Writes the whole document for `scene`.
    fn write(&self, scene: &Scene, out: &mut dyn Write) -> io::Result<()>;
}
