//! One profile to its output: a picture selected and laid out (with an HTML page's
//! numbers), a flame graph, or the numbers as an export writes them.

use std::io::{self, Write};

use super::model::{ProfileKind, dispatch};
use super::{Data, FlameOf, PageView, Picture, View};
use crate::analysis::page::{PageData, PageOptions};
use crate::backend::Format;
use crate::export::Table;
use crate::profile::{Costs, Model, Profile};
use crate::scene::Scene;
use crate::select::Selection;
use crate::select::aux::Aux;
use crate::select::flame::{Stacked, WhichCensus};

/// What one rendering drew: for a live view's status line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tally {
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

/// Selects and lays out a (filtered) profile as `view` says, or keeps it for a data
/// output. `aux` is an earlier run's `.aux` (`-p`). Each view is its model's own step
/// ([`ViewSteps`]); of a comparison's view, one run is rendered as the comparison makes
/// each ([`super::run`] refuses a comparison of one input before it gets here).
pub fn render<'a>(view: &'a View, model: Model, aux: Option<&Aux>) -> Rendered<'a> {
    match view {
        View::Graph(picture) => dispatch!(model, k => k.graph(picture, aux)),
        View::Flame(picture, flame) => dispatch!(model, k => k.flame_graph(picture, *flame)),
        View::Members(picture, count) => dispatch!(model, k => k.members(picture, *count, aux)),
        View::Page(page) => render_page(page, model, aux),
        View::Data(data) => render_data(data, model),
        View::Compare(compare) => render(&compare.each, model, aux),
    }
}

/// Keeps a profile for a data output, with its selection when `-m` or `-t` ask for one.
pub fn render_data(data: &Data, model: Model) -> Rendered<'_> {
    dispatch!(model, k => k.render_data(data))
}

/// Selects and lays out a profile for an HTML page, with the page's numbers.
pub fn render_page<'a>(page: &'a PageView, model: Model, aux: Option<&Aux>) -> Rendered<'a> {
    dispatch!(model, k => k.page(page, aux))
}

/// How each model is rendered in each view: the rendering's steps written once per
/// model.
pub trait ViewSteps: ProfileKind {
    /// Kept for a data output.
    fn render_data(self, data: &Data) -> Rendered<'_>;

    /// Its graph over time.
    fn graph<'a>(self, picture: &'a Picture, aux: Option<&Aux>) -> Rendered<'a>;

    /// A census's flame graph.
    fn flame_graph(self, picture: &Picture, flame: FlameOf) -> Rendered<'_>;

    /// Its graph with `count` members' panels.
    fn members<'a>(self, picture: &'a Picture, count: usize, aux: Option<&Aux>) -> Rendered<'a>;

    /// An HTML page of it.
    fn page<'a>(self, page: &'a PageView, aux: Option<&Aux>) -> Rendered<'a>;
}

impl ViewSteps for Profile {
    fn render_data(self, data: &Data) -> Rendered<'_> {
        heap_data(data, self)
    }

    fn graph<'a>(self, picture: &'a Picture, aux: Option<&Aux>) -> Rendered<'a> {
        let notes = heap_lines(picture, &self).into_iter().collect();
        figure(picture, self, aux, notes, None::<PageOf<Profile>>)
    }

    /// `--flame`'s census ([`super::subject`] refuses a heap profile's flame graph at no
    /// census: `--inverted` alone).
    fn flame_graph(self, picture: &Picture, flame: FlameOf) -> Rendered<'_> {
        let notes = heap_lines(picture, &self).into_iter().collect();
        let when = flame.at.unwrap_or(WhichCensus::Peak);
        flame_of(picture, &self, when, flame.direction, notes)
    }

    fn members<'a>(self, picture: &'a Picture, count: usize, aux: Option<&Aux>) -> Rendered<'a> {
        let mut notes: Vec<String> = heap_lines(picture, &self).into_iter().collect();
        let Some(all) = crate::analysis::members::of(&self) else {
            notes.push(super::members::NOT_SETS.to_string());
            return figure(picture, self, aux, notes, None::<PageOf<Profile>>);
        };
        let figure = super::members::figure(picture, self, all, count);
        notes.extend(repairs(picture, &figure.scene));
        Rendered::Picture {
            picture,
            scene: figure.scene,
            key: None,
            selection: figure.selection,
            page: None,
            samples: figure.samples,
            notes,
        }
    }

    /// Its graph, the page opening a census's flame graph under it.
    fn page<'a>(self, page: &'a PageView, aux: Option<&Aux>) -> Rendered<'a> {
        let notes = heap_lines(&page.graph, &self).into_iter().collect();
        let opts = page.options;
        let data = move |p: &Profile, selection: &Selection| {
            crate::analysis::page::data(p, selection, &opts)
        };
        figure(&page.graph, self, aux, notes, Some(data))
    }
}

impl ViewSteps for Costs {
    fn render_data(self, data: &Data) -> Rendered<'_> {
        costs_data(data, self)
    }

    /// A cost profile's graph is its flame graph: it has one stretch of time.
    fn graph<'a>(self, picture: &'a Picture, _: Option<&Aux>) -> Rendered<'a> {
        self.flame_graph(picture, FlameOf::default())
    }

    fn flame_graph(self, picture: &Picture, flame: FlameOf) -> Rendered<'_> {
        let notes = heap_lines(picture, self.series()).into_iter().collect();
        let when = flame.at.or(Costs::FLAME).unwrap_or(WhichCensus::Peak);
        flame_of(picture, &self, when, flame.direction, notes)
    }

    /// A cost profile has no members: its flame graph.
    fn members<'a>(self, picture: &'a Picture, _: usize, aux: Option<&Aux>) -> Rendered<'a> {
        self.graph(picture, aux)
    }

    /// What its stacks spent over the run (or the window), their censuses summed into
    /// one as a report's one census is, kept as they were for its strip of samples over
    /// time.
    fn page<'a>(self, page: &'a PageView, aux: Option<&Aux>) -> Rendered<'a> {
        let notes = heap_lines(&page.graph, self.series()).into_iter().collect();
        let over_time = (self.series().samples() > 1).then(|| self.clone());
        let summed = self.one_census();
        let opts = PageOptions {
            flame_at: page.options.flame_at.or(Costs::FLAME),
            ..page.options
        };
        let data = move |c: &Costs, selection: &Selection| {
            crate::analysis::page::costs_data(c, selection, &opts, over_time.as_ref())
        };
        figure(&page.graph, summed, aux, notes, Some(data))
    }
}

/// What a page takes of a model and its selection: its numbers.
type PageOf<K> = fn(&K, &Selection) -> PageData;

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

/// `--heap-lines` of a profile without them: said.
fn heap_lines(picture: &Picture, profile: &Profile) -> Option<String> {
    (picture.layout.heap_lines && profile.heap.size.is_empty() && profile.heap.live.is_empty())
        .then(|| {
            "--heap-lines: no heap size or live bytes in this profile (an eventlog has them, \
             a .hp file does not)"
                .to_string()
        })
}

/// The flame graph of `profile` at `when`, growing in `direction`.
fn flame_of<'a, S: Stacked>(
    picture: &'a Picture,
    profile: &S,
    when: WhichCensus,
    direction: crate::select::flame::Direction,
    mut notes: Vec<String>,
) -> Rendered<'a> {
    let flame = crate::select::flame::shaped(profile, when, direction);
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

/// A figure over time of `model`, with a page's numbers (`page`) for a page.
fn figure<'a, K: ProfileKind>(
    picture: &'a Picture,
    model: K,
    aux: Option<&Aux>,
    mut notes: Vec<String>,
    page: Option<impl FnOnce(&K, &Selection) -> PageData>,
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
    let page = page.map(|page| {
        let mut data = page(&model, &selection);
        data.view = picture.select.shares.then_some("share");
        Box::new(data)
    });
    let key = (picture.layout.key == crate::layout::KeyPlacement::Apart).then(|| {
        Box::new(crate::layout::key_figure(
            model.series(),
            &selection,
            &picture.layout,
        ))
    });
    let mut scene = if picture.select.shares {
        let (shares, drawn) = crate::select::share::shares(model.into_series(), &selection);
        crate::layout::layout(shares, &drawn, &picture.layout)
    } else {
        crate::layout::layout(model.into_series(), &selection, &picture.layout)
    };
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
    pub fn drawn(&self) -> Tally {
        match self {
            Rendered::Picture {
                selection, samples, ..
            } => Tally {
                samples: *samples,
                bands: selection.bands.len(),
            },
            Rendered::Flame {
                samples, frames, ..
            } => Tally {
                samples: *samples,
                bands: *frames,
            },
            Rendered::CostData { costs, .. } => Tally {
                samples: costs.series().samples(),
                bands: costs.series().bands.len(),
            },
            Rendered::Data {
                profile, selection, ..
            } => Tally {
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
