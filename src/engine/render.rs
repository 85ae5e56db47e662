//! One profile to its output: a picture selected and laid out (with an HTML page's
//! numbers), a flame graph, or the numbers as an export writes them.

use std::io::{self, Write};

use super::model::{Modelled, dispatch};
use super::{Data, Make, Picture};
use crate::analysis::page::{PageData, PageOptions};
use crate::backend::Format;
use crate::export::Table;
use crate::profile::{Costs, Model, Profile};
use crate::scene::Scene;
use crate::select::Selection;
use crate::select::aux::Aux;
use crate::select::flame::{Stacked, When};

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
    /// A cost profile's numbers, in an export's format.
    CostData {
        /// How they are written.
        data: &'a Data,
        /// The (filtered) profile.
        costs: Box<Costs>,
        /// What a reader should be told.
        notes: Vec<String>,
    },
    /// A heap profile's numbers, in an export's format.
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
pub fn render<'a>(make: &'a Make, model: Model, aux: Option<&Aux>) -> Rendered<'a> {
    match make {
        Make::Picture(picture) => render_picture(picture, model, aux),
        Make::Data(data) => render_data(data, model),
    }
}

/// Keeps a profile for a data output, with its selection when `-m` or `-t` ask for one.
pub fn render_data(data: &Data, model: Model) -> Rendered<'_> {
    dispatch!(model, k => k.render_data(data))
}

/// Selects and lays out a profile for a picture, with the HTML page's numbers.
pub fn render_picture<'a>(picture: &'a Picture, model: Model, aux: Option<&Aux>) -> Rendered<'a> {
    dispatch!(model, k => k.render_picture(picture, aux))
}

/// How each model is rendered: the rendering's steps written once per model.
pub trait Rendering: Modelled {
    /// Kept for a data output.
    fn render_data(self, data: &Data) -> Rendered<'_>;

    /// Selected and laid out for a picture (with an HTML page's numbers).
    fn render_picture<'a>(self, picture: &'a Picture, aux: Option<&Aux>) -> Rendered<'a>;
}

impl Rendering for Profile {
    fn render_data(self, data: &Data) -> Rendered<'_> {
        heap_data(data, self)
    }

    fn render_picture<'a>(self, picture: &'a Picture, aux: Option<&Aux>) -> Rendered<'a> {
        heap_picture(picture, self, aux)
    }
}

impl Rendering for Costs {
    fn render_data(self, data: &Data) -> Rendered<'_> {
        costs_data(data, self)
    }

    fn render_picture<'a>(self, picture: &'a Picture, aux: Option<&Aux>) -> Rendered<'a> {
        costs_picture(picture, self, aux)
    }
}

/// [`render_data`] of a heap profile.
fn heap_data(data: &Data, profile: Profile) -> Rendered<'_> {
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

/// [`render_data`] of a cost profile: its tree, stacks or summary, every band (`-m` and
/// `-t` choose a heap profile's bands).
fn costs_data(data: &Data, costs: Costs) -> Rendered<'_> {
    Rendered::CostData {
        data,
        notes: (data.export.caveat(&costs, data.options.census))
            .into_iter()
            .collect(),
        costs: Box::new(costs),
    }
}

/// [`render_picture`] of a heap profile: its graph over time, or with `--flame` a
/// census's flame graph (which a page opens under its graph).
fn heap_picture<'a>(picture: &'a Picture, profile: Profile, aux: Option<&Aux>) -> Rendered<'a> {
    let mut notes: Vec<String> = heap_lines(picture, &profile).into_iter().collect();
    let html = picture.format == Format::Html;
    if let Some(count) = picture.members.filter(|_| !html) {
        match crate::analysis::members::of(&profile) {
            Some(all) => {
                let figure = super::members::figure(picture, profile, all, count);
                notes.extend(repairs(picture, &figure.scene));
                return Rendered::Picture {
                    picture,
                    scene: figure.scene,
                    key: None,
                    selection: figure.selection,
                    page: None,
                    samples: figure.samples,
                    notes,
                };
            }
            None => notes.push(super::members::NOT_SETS.to_string()),
        }
    }
    match picture.flame {
        Some(when) if !html => flame(picture, &profile, when, notes),
        _ => figure(picture, profile, aux, notes, |p, selection, opts| {
            crate::analysis::page::data(p, selection, opts)
        }),
    }
}

/// [`render_picture`] of a cost profile: its flame graph; a page shows what its stacks
/// spent over the run (or the window), their censuses summed into one as a report's one
/// census is, kept as they were for its strip of samples over time.
fn costs_picture<'a>(picture: &'a Picture, costs: Costs, aux: Option<&Aux>) -> Rendered<'a> {
    let notes = heap_lines(picture, &costs).into_iter().collect();
    if picture.format != Format::Html {
        let when = picture.flame.or(Costs::FLAME).unwrap_or(When::Peak);
        return flame(picture, &costs, when, notes);
    }
    let over_time = (costs.samples() > 1).then(|| costs.clone());
    let summed = costs.one_census();
    figure(picture, summed, aux, notes, |c, selection, opts| {
        crate::analysis::page::costs_data(c, selection, opts, over_time.as_ref())
    })
}

/// `--heap-lines` of a profile without them: said.
fn heap_lines(picture: &Picture, profile: &Profile) -> Option<String> {
    (picture.layout.heap_lines && profile.heap.size.is_empty() && profile.heap.live.is_empty())
        .then(|| {
            "--heap-lines: no heap size or live bytes in this profile (an eventlog has them, \
             a .hp file does not)"
                .to_string()
        })
}

/// The flame graph of `profile` at `when`.
fn flame<'a, S: Stacked>(
    picture: &'a Picture,
    profile: &S,
    when: When,
    mut notes: Vec<String>,
) -> Rendered<'a> {
    let flame = crate::select::flame::shaped(profile, when, picture.direction);
    notes.extend(crate::select::flame::advice(&flame));
    let scene = crate::layout::flame::layout(&flame, &picture.layout);
    notes.extend(repairs(picture, &scene));
    Rendered::Flame {
        picture,
        scene,
        samples: profile.series().samples(),
        frames: flame.frames.len(),
        notes,
    }
}

/// A figure over time of `model`, with its page's numbers (`page`) for HTML.
fn figure<'a, K: Modelled>(
    picture: &'a Picture,
    model: K,
    aux: Option<&Aux>,
    mut notes: Vec<String>,
    page: impl FnOnce(&K, &Selection, &PageOptions) -> PageData,
) -> Rendered<'a> {
    let profile = model.series();
    let samples = profile.samples();
    if let Some(bands) = crate::select::band_cap(profile, &picture.select) {
        notes.push(format!(
            "{} bands over {samples} samples are more than a picture draws ({} values): \
             the {bands} largest drawn, the rest in OTHER (-m{bands} says so without this \
             warning)",
            profile.bands.len(),
            crate::select::MAX_DRAWN_VALUES
        ));
    }
    let selection = crate::layout::selected(profile, aux, &picture.select, &picture.layout);
    // The HTML page carries the numbers behind its picture; they are taken before the
    // layout consumes the profile.
    let page = picture.page.as_ref().map(|opts| {
        let opts = PageOptions {
            flame_at: picture.flame.or(K::FLAME),
            ..*opts
        };
        Box::new(page(&model, &selection, &opts))
    });
    let key = (picture.layout.key == crate::layout::KeyPlacement::Apart).then(|| {
        Box::new(crate::layout::key_figure(
            model.series(),
            &selection,
            &picture.layout,
        ))
    });
    let mut scene = crate::layout::layout(model.into_series(), &selection, &picture.layout);
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
            Rendered::CostData { data, costs, .. } => {
                data.export.write_costs(costs, data.options, out)
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
            Rendered::Data { .. } | Rendered::CostData { .. } => None,
        }
    }

    /// The selection a picture drew, for the `.aux` file.
    pub fn selection(&self) -> Option<&Selection> {
        match self {
            Rendered::Picture { selection, .. } => Some(selection),
            Rendered::Flame { .. } | Rendered::Data { .. } | Rendered::CostData { .. } => None,
        }
    }

    /// What a reader should be told of this output (without `hpgraph: warning:`).
    pub fn notes(&self) -> &[String] {
        match self {
            Rendered::Picture { notes, .. }
            | Rendered::Flame { notes, .. }
            | Rendered::Data { notes, .. }
            | Rendered::CostData { notes, .. } => notes,
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
            Rendered::CostData { costs, .. } => Drawn {
                samples: costs.samples(),
                bands: costs.bands.len(),
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
