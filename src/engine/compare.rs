//! Two runs to one output: a picture of both on one scale with what changed (and, on a
//! page, the differential flame graph), the comparison's numbers, the differential
//! folded stacks or flame graph, or both runs' runtime statistics.

use std::io::{self, Write};

use super::{Data, Picture, ProfileKind, View};
use crate::analysis::compare::{self as cmp, Comparison, Totals};
use crate::analysis::stats::{self, Stats};
use crate::export::{Export, SummaryStyle};
use crate::profile::Profile;
use crate::scene::{Plot, Scene};
use crate::select::flame::{Direction, Stacked, WhichCensus};

/// Two runs made ready to be written: [`compare()`]'s result.
pub enum Compared<'a> {
    /// Both runs' stacks, each weighed at `when`, as differential folded stacks.
    Folded {
        /// The runs, their bands named alike.
        runs: Box<[Box<dyn Stacked>; 2]>,
        /// Where each run's stacks are weighed.
        when: WhichCensus,
    },
    /// What changed by stack, as AFTER's flame graph coloured by change.
    Flame {
        /// How it is made.
        picture: &'a Picture,
        /// The flame graph.
        scene: Box<Scene>,
    },
    /// The comparison's numbers (a summary, CSV or JSON).
    Data {
        /// How they are written.
        data: &'a Data,
        /// The comparison.
        comparison: Box<Comparison>,
    },
    /// Both runs one above the other on one scale, with what changed most; a page
    /// carries the table and the differential flame graph too.
    Picture {
        /// How it is made.
        picture: &'a Picture,
        /// The figure.
        scene: Box<Scene>,
        /// The comparison, for the page.
        comparison: Box<Comparison>,
        /// Each run's totals, for the page.
        totals: Box<[Totals; 2]>,
        /// Where each run's graph is in the scene.
        plots: Vec<Plot>,
        /// The page's differential flame graph.
        flame: Option<Box<Scene>>,
    },
    /// Both runs' runtime statistics side by side (`--stats`).
    Stats {
        /// Text, JSON or CSV.
        style: SummaryStyle,
        /// Each run's, before then after.
        runs: Box<[Stats; 2]>,
        /// The runs' names.
        names: [String; 2],
    },
}

/// Compares two runs as `view` says: `runs` are their names and profiles, before then
/// after, filtered as the job says, except for `--stats`, which reads the runtime's
/// events over `window` (`--from`, `--to`) itself. `normalised` puts both on 0-100% of
/// their time. An `Err` says which runs cannot be compared, and why.
pub fn compare<'a, K: ProfileKind>(
    view: &'a View,
    window: (Option<f64>, Option<f64>),
    runs: [(String, K); 2],
    normalised: bool,
) -> Result<Compared<'a>, super::Error> {
    compared(view, window, runs, normalised).map_err(super::Error::Compare)
}

/// [`compare`], its refusal said in words naming the runs.
fn compared<'a, K: ProfileKind>(
    view: &'a View,
    window: (Option<f64>, Option<f64>),
    runs: [(String, K); 2],
    normalised: bool,
) -> Result<Compared<'a>, String> {
    let [(before_name, mut before), (after_name, mut after)] = runs;
    // Each run is made in the comparison's view of each.
    let view = view.of_each_run();
    if let View::Data(data) = view
        && let Export::Stats(style) = data.export
    {
        let (from, to) = data.options.window;
        let one = |name: &str, p: &Profile| -> Result<Stats, String> {
            if p.runtime.is_empty() {
                return Err(format!(
                    "{name}: no runtime statistics here: they come from an eventlog's GC \
                     events (run the program with +RTS -l, which writes them; a .hp file has \
                     none)"
                ));
            }
            stats::window_within(&p.runtime, from).map_err(|e| format!("{name}: {e}"))?;
            Ok(stats::stats(&p.runtime, from, to))
        };
        let runs = Box::new([
            one(&before_name, before.series())?,
            one(&after_name, after.series())?,
        ]);
        let names = [before_name, after_name];
        return Ok(Compared::Stats { style, runs, names });
    }
    comparable(
        view,
        [&before_name, &after_name],
        before.series(),
        after.series(),
    )?;
    cmp::matched(before.series_mut(), after.series_mut());
    if let View::Data(data) = view
        && data.export == Export::Folded
    {
        let when = data.options.census.unwrap_or(WhichCensus::Peak);
        let runs: Box<[Box<dyn Stacked>; 2]> = Box::new([Box::new(before), Box::new(after)]);
        return Ok(Compared::Folded { runs, when });
    }
    // Two cost-centre profiles (reports, samples) have one stretch of time each: what
    // changed is the differential flame graph, as one report's picture is its flame graph.
    let flame = match view {
        View::Flame(picture, flame) => flame
            .at
            .or(K::FLAME)
            .map(|at| (picture, at, flame.direction)),
        View::Graph(picture) | View::Members(picture, _) => {
            K::FLAME.map(|at| (picture, at, Direction::Callers))
        }
        View::Page(_) | View::Data(_) | View::Compare(_) => None,
    };
    if let Some((picture, when, direction)) = flame {
        let scene = Box::new(differential_flame(
            &before, &after, when, direction, picture,
        ));
        return Ok(Compared::Flame { picture, scene });
    }
    let comparison = cmp::compare(
        before.series(),
        after.series(),
        [&before_name, &after_name],
        window,
    )
    .map_err(|e| format!("{before_name} and {after_name}: {e}"))?;
    let comparison = Box::new(comparison);
    let (picture, flame) = match view {
        View::Data(data) => return Ok(Compared::Data { data, comparison }),
        // The page shows what changed by stack too, drawn as --flame draws it.
        View::Page(page) => {
            let flame = page.flame();
            let when = flame.at.unwrap_or(WhichCensus::Peak);
            let scene = differential_flame(&before, &after, when, flame.direction, &page.graph);
            (&page.graph, Some(Box::new(scene)))
        }
        View::Graph(picture) | View::Flame(picture, _) | View::Members(picture, _) => {
            (picture, None)
        }
        View::Compare(_) => {
            return Err(
                "a comparison's runs are each made in one view, not in another comparison".into(),
            );
        }
    };
    let (before, after) = (before.into_series(), after.into_series());
    let (before, after) = if normalised {
        (cmp::normalised(before), cmp::normalised(after))
    } else {
        (before, after)
    };
    let totals = Box::new([cmp::totals_of(&before), cmp::totals_of(&after)]);
    let (scene, plots) = compared_picture(
        picture,
        &comparison,
        [before, after],
        [&before_name, &after_name],
    );
    Ok(Compared::Picture {
        picture,
        scene: Box::new(scene),
        comparison,
        totals,
        plots,
        flame,
    })
}

/// Whether two runs can be compared in `view`: in every output but `--stats` (the
/// runtime's events, alike in every eventlog) they must count one thing in one unit,
/// refused alike in a picture, numbers, stacks and a verdict, with the kinds named.
pub(super) fn comparable(
    view: &View,
    names: [&str; 2],
    before: &Profile,
    after: &Profile,
) -> Result<(), String> {
    if let View::Data(data) = view
        && let Export::Stats(_) = data.export
    {
        return Ok(());
    }
    cmp::same_units(before, after).map_err(|e| {
        let [b, a] = names.map(crate::escape::terminal);
        format!("{b} and {a}: {e}")
    })
}

/// What changed between two runs as a flame graph of `when`'s stacks, laid out for
/// `picture`: its own output with `--flame`, or under a comparison page's table.
fn differential_flame<S: Stacked>(
    before: &S,
    after: &S,
    when: WhichCensus,
    direction: Direction,
    picture: &Picture,
) -> Scene {
    let flame = crate::select::flame::differential(before, after, when, direction);
    crate::layout::flame::layout(&flame, &picture.layout)
}

/// Both runs one above the other on the scale both need, with what changed most.
fn compared_picture(
    picture: &Picture,
    comparison: &Comparison,
    runs: [Profile; 2],
    names: [&str; 2],
) -> (Scene, Vec<Plot>) {
    let [before, after] = runs;
    let [b, a] = crate::select::on_one_scale([&before, &after], &picture.select);
    let captions = cmp::callouts(comparison, picture.layout.byte_units);
    let panels = vec![
        crate::layout::compare::Panel {
            profile: before,
            selection: &b,
            title: format!("before: {}", names[0]).into_bytes(),
            weight: 1.0,
        },
        crate::layout::compare::Panel {
            profile: after,
            selection: &a,
            title: format!("after: {}", names[1]).into_bytes(),
            weight: 1.0,
        },
    ];
    let captions: Vec<Vec<u8>> = captions.into_iter().map(String::into_bytes).collect();
    crate::layout::compare::compared(panels, &captions, &picture.layout)
}

impl Compared<'_> {
    /// Writes the output.
    pub fn write(&self, out: &mut dyn Write) -> io::Result<()> {
        match self {
            Compared::Folded { runs, when } => {
                let [before, after] = &**runs;
                crate::export::stacks::write_differential([&**before, &**after], *when, out)
            }
            Compared::Flame { picture, scene } => {
                picture.format.backend(&picture.backend).write(scene, out)
            }
            Compared::Data { data, comparison } => {
                data.export.write_comparison(comparison, data.options, out)
            }
            Compared::Stats { style, runs, names } => {
                let [b, a] = &**runs;
                crate::export::compare::write_stats([b, a], [&names[0], &names[1]], *style, out)
            }
            Compared::Picture {
                picture,
                scene,
                comparison,
                totals,
                plots,
                flame,
            } => {
                let page = crate::backend::html::ComparePage {
                    comparison,
                    totals,
                    plots,
                    units: picture.layout.byte_units,
                    flame: flame.as_deref(),
                };
                picture
                    .format
                    .comparison_backend(&picture.backend, page)
                    .write(scene, out)
            }
        }
    }
}
