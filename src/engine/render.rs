//! One profile to its output: a picture selected and laid out (with an HTML page's
//! numbers), a flame graph, or the numbers as an export writes them.

use std::io::{self, Write};

use super::{Data, Make, Picture};
use crate::analysis::page::PageData;
use crate::backend::Format;
use crate::export::Table;
use crate::profile::Profile;
use crate::scene::Scene;
use crate::select::Selection;
use crate::select::aux::Aux;
use crate::select::flame::When;

/// What one rendering drew: for a live view's status line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Drawn {
    /// The profile's samples.
    pub samples: usize,
    /// Bands drawn (frames, for a flame graph; bands written, for the numbers).
    pub bands: usize,
}

/// A profile made ready to be written: [`render`]'s result.
pub enum Rendered<'a> {
    /// A figure over time, or an HTML page of it.
    Picture {
        /// How it is made.
        picture: &'a Picture,
        /// The figure.
        scene: Scene,
        /// `--key file`: the key as a picture of its own.
        key: Option<Box<Scene>>,
        /// The bands drawn, for the `.aux` file.
        selection: Selection,
        /// The numbers behind an HTML page.
        page: Option<Box<PageData>>,
        /// The profile's samples.
        samples: usize,
        /// What a reader should be told.
        notes: Vec<String>,
    },
    /// A census as a flame graph (`--flame`).
    Flame {
        /// How it is made.
        picture: &'a Picture,
        /// The flame graph.
        scene: Scene,
        /// The profile's samples.
        samples: usize,
        /// How many frames the census has.
        frames: usize,
        /// What a reader should be told.
        notes: Vec<String>,
    },
    /// The numbers, in an export's format.
    Data {
        /// How they are written.
        data: &'a Data,
        /// The (filtered) profile.
        profile: Box<Profile>,
        /// With `-m` or `-t`: the selection's bands (OTHER included) rather than all.
        selection: Option<Selection>,
        /// What a reader should be told.
        notes: Vec<String>,
    },
}

/// Selects and lays out a (filtered) profile as `make` says, or keeps it for a data
/// output. `aux` is an earlier run's `.aux` (`-p`).
pub fn render<'a>(make: &'a Make, profile: Profile, aux: Option<&Aux>) -> Rendered<'a> {
    match make {
        Make::Picture(picture) => render_picture(picture, profile, aux),
        Make::Data(data) => render_data(data, profile),
    }
}

/// Keeps a profile for a data output, with its selection when `-m` or `-t` ask for one.
pub fn render_data(data: &Data, profile: Profile) -> Rendered<'_> {
    Rendered::Data {
        data,
        notes: data
            .export
            .caveat(&profile, data.options.census)
            .into_iter()
            .collect(),
        selection: data
            .select
            .as_ref()
            .map(|opts| crate::select::select(&profile, None, opts)),
        profile: Box::new(profile),
    }
}

/// Selects and lays out a profile for a picture, with the HTML page's numbers.
pub fn render_picture<'a>(
    picture: &'a Picture,
    profile: Profile,
    aux: Option<&Aux>,
) -> Rendered<'a> {
    // The page of eventlog samples shows what they spent over the run (or the window):
    // their censuses summed into one, as a report's one census is, and kept as they were
    // for its strip of samples over time.
    let over_time = (picture.format == Format::Html && profile.is_cost_report())
        .then(|| (profile.samples() > 1).then(|| profile.clone()))
        .flatten();
    let profile = if picture.format == Format::Html && profile.is_cost_report() {
        crate::select::flame::one_census(profile)
    } else {
        profile
    };
    let samples = profile.samples();
    let mut notes = Vec::new();
    if picture.layout.heap_lines && profile.heap.size.is_empty() && profile.heap.live.is_empty() {
        notes.push(
            "--heap-lines: no heap size or live bytes in this profile (an eventlog has them, \
             a .hp file does not)"
                .to_string(),
        );
    }
    // A cost-centre report's picture is its flame graph: it has one census, of stacks.
    let flame = (picture.flame).or_else(|| profile.is_cost_report().then_some(When::Peak));
    if let (Some(when), false) = (flame, picture.format == Format::Html) {
        let flame = crate::select::flame::shaped(&profile, when, picture.direction);
        notes.extend(crate::select::flame::advice(&flame));
        let scene = crate::layout::flame::layout(&flame, &picture.layout);
        notes.extend(repairs(picture, &scene));
        return Rendered::Flame {
            picture,
            scene,
            samples,
            frames: flame.frames.len(),
            notes,
        };
    }
    if let Some(bands) = crate::select::band_cap(&profile, &picture.select) {
        notes.push(format!(
            "{} bands over {samples} samples are more than a picture draws ({} values): \
             the {bands} largest drawn, the rest in OTHER (-m{bands} says so without this \
             warning)",
            profile.bands.len(),
            crate::select::MAX_DRAWN_VALUES
        ));
    }
    let selection = crate::layout::selected(&profile, aux, &picture.select, &picture.layout);
    // The HTML page carries the numbers behind its picture; they are taken before the
    // layout consumes the profile.
    let page = picture.page.as_ref().map(|opts| {
        let opts = crate::analysis::page::PageOptions {
            flame_at: flame,
            ..*opts
        };
        Box::new(crate::analysis::page::data(
            &profile,
            &selection,
            &opts,
            over_time.as_ref(),
        ))
    });
    let key = (picture.layout.key == crate::layout::KeyPlacement::Apart).then(|| {
        Box::new(crate::layout::key_figure(
            &profile,
            &selection,
            &picture.layout,
        ))
    });
    let mut scene = crate::layout::layout(profile, &selection, &picture.layout);
    if let Some(column) = picture.column {
        crate::scene::reduce::reduce(&mut scene, column);
    }
    // What the page draws beyond the picture takes its paints from the layout too.
    if let Some(page) = &page {
        let pool = page.pool.iter().map(|b| b.name.as_bytes());
        let frames = page.frames.iter().map(|f| f.as_bytes());
        let mut paints = crate::layout::paint::page_paints(&scene, pool, frames);
        if let Some(samples) = &page.cost_samples {
            let frames = samples.frames.iter().map(|f| f.as_bytes());
            paints.sample_frames = crate::layout::paint::page_paints(&scene, [], frames).frames;
        }
        scene.page_paints = Some(Box::new(paints));
    }
    notes.extend(repairs(picture, &scene));
    Rendered::Picture {
        picture,
        scene,
        key,
        selection,
        page,
        samples,
        notes,
    }
}

/// PostScript: which strings are written otherwise than hp2ps would, to stay valid.
pub(super) fn repairs(picture: &Picture, scene: &Scene) -> Vec<String> {
    if !matches!(picture.format, Format::Ps | Format::Eps) {
        return Vec::new();
    }
    crate::backend::ps::repairs(scene)
        .into_iter()
        .map(|r| {
            format!(
                "{} `{}` would be broken PostScript as hp2ps writes it; {}",
                r.what,
                crate::escape::excerpt(&r.text),
                r.how
            )
        })
        .collect()
}

impl Rendered<'_> {
    /// Writes the output.
    pub fn write(&self, out: &mut dyn Write) -> io::Result<()> {
        match self {
            Rendered::Data {
                data,
                profile,
                selection,
                ..
            } => {
                let table = match selection {
                    Some(s) => Table::selected(profile, s.clone()),
                    None => Table::all(profile),
                };
                data.export.write(&table, data.options, out)
            }
            // The page carries its numbers by type: only a page has them.
            Rendered::Picture {
                page: Some(data),
                scene,
                picture,
                ..
            } => crate::backend::Backend::write(
                &crate::backend::html::Html {
                    data,
                    mode: picture.backend.page,
                },
                scene,
                out,
            ),
            Rendered::Picture { picture, scene, .. } | Rendered::Flame { picture, scene, .. } => {
                picture.format.backend(&picture.backend).write(scene, out)
            }
        }
    }

    /// `--key file`'s picture of the key, to be written by what this returns.
    pub fn key(&self) -> Option<impl FnOnce(&mut dyn Write) -> io::Result<()> + '_> {
        match self {
            Rendered::Picture {
                picture,
                key: Some(key),
                ..
            } => Some(move |out: &mut dyn Write| {
                picture.format.backend(&picture.backend).write(key, out)
            }),
            _ => None,
        }
    }

    /// The figure (or flame graph) drawn; `None` for the numbers.
    pub fn scene(&self) -> Option<&Scene> {
        match self {
            Rendered::Picture { scene, .. } | Rendered::Flame { scene, .. } => Some(scene),
            Rendered::Data { .. } => None,
        }
    }

    /// The selection a picture drew, for the `.aux` file.
    pub fn selection(&self) -> Option<&Selection> {
        match self {
            Rendered::Picture { selection, .. } => Some(selection),
            Rendered::Flame { .. } | Rendered::Data { .. } => None,
        }
    }

    /// What a reader should be told of this output (without `hpgraph: warning:`).
    pub fn notes(&self) -> &[String] {
        match self {
            Rendered::Picture { notes, .. }
            | Rendered::Flame { notes, .. }
            | Rendered::Data { notes, .. } => notes,
        }
    }

    /// What was drawn.
    pub fn drawn(&self) -> Drawn {
        match self {
            Rendered::Picture {
                selection, samples, ..
            } => Drawn {
                samples: *samples,
                bands: selection.bands.len(),
            },
            Rendered::Flame {
                samples, frames, ..
            } => Drawn {
                samples: *samples,
                bands: *frames,
            },
            Rendered::Data {
                profile, selection, ..
            } => Drawn {
                samples: profile.samples(),
                bands: selection
                    .as_ref()
                    .map_or(profile.bands.len(), |s| s.bands.len()),
            },
        }
    }

    /// The output in memory.
    pub fn bytes(&self) -> io::Result<Vec<u8>> {
        let mut out = Vec::new();
        self.write(&mut out)?;
        Ok(out)
    }
}
