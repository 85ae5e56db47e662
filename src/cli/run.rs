//! One rendering, start to end: read a profile, filter it, make the output ready
//! ([`prepare`]: a picture selected and laid out, or a table of the data), and write it
//! to its file, standard output or memory (for `--serve`).

use std::fs::File;
use std::io::{self, Write};

use anyhow::Context;

use super::naming::{Input, Output, Plan};
use super::{Args, OutputKind};
use crate::auxfile::{self, Aux};
use crate::backend::{
    Backend, Format,
    html::Html,
    pdf::Pdf,
    png::Png,
    ps::PostScript,
    svg::{Svg, TextAs},
};
use crate::error::Error;
use crate::export::{Export, Table, page::PageData};
use crate::input::{self, Parsed};
use crate::profile::Profile;
use crate::scene::Scene;
use crate::select::Selection;
use crate::sink;

/// Prints how long each stage took when `HPGRAPH_TIMINGS` is set (for benchmarks).
pub(crate) struct Timings(pub(crate) Option<std::time::Instant>);

impl Timings {
    pub(crate) fn start() -> Self {
        Timings(std::env::var_os("HPGRAPH_TIMINGS").map(|_| std::time::Instant::now()))
    }
    pub(crate) fn lap(&mut self, stage: &str) {
        if let Some(t) = &mut self.0 {
            eprintln!(
                "hpgraph: {stage}: {:.1} ms",
                t.elapsed().as_secs_f64() * 1e3
            );
            *t = std::time::Instant::now();
        }
    }
}

/// Reads, draws and writes one input as `plan` says.
pub(crate) fn render_one(args: &Args, format: OutputKind, plan: &Plan) -> anyhow::Result<()> {
    let name = plan.input.display();
    let mut timings = Timings::start();
    let parsed = read_profile(&plan.input, args.read_options(format))?;
    timings.lap("parse");
    for w in &parsed.warnings {
        print_warning(&name, w);
    }
    draw(args, format, plan, parsed.profile, &mut timings)?;
    Ok(())
}

/// Prints a parser warning as `hpgraph: warning: FILE:LINE: what`.
pub(crate) fn print_warning(name: &str, w: &input::Warning) {
    match w.line {
        Some(line) => eprintln!("hpgraph: warning: {name}:{line}: {w}"),
        None => eprintln!("hpgraph: warning: {name}: {w}"),
    }
}

/// What one rendering drew.
pub(crate) struct Drawn {
    pub samples: usize,
    pub bands: usize,
}

/// Prepares a profile for `plan`'s output, writes it, then the `.aux` file.
pub(crate) fn draw(
    args: &Args,
    format: OutputKind,
    plan: &Plan,
    profile: Profile,
    timings: &mut Timings,
) -> anyhow::Result<Drawn> {
    let aux = match (&plan.aux, args.reuse_aux, format) {
        (Some(path), true, OutputKind::Picture(_)) => Some(read_aux(path)?),
        _ => None,
    };
    let ready = prepare(args, format, &plan.input.display(), profile, aux.as_ref())?;
    timings.lap("select and layout");
    write_output(plan, |w| ready.write(args, false, w))?;
    timings.lap("write");
    if let (Some(path), Some(selection)) = (&plan.aux, ready.selection()) {
        sink::write_file(path, |w| auxfile::write(selection, w))
            .with_context(|| format!("{}: cannot write the .aux file", path.display()))?;
    }
    Ok(ready.drawn())
}

/// An output made ready to be written.
pub(crate) enum Prepared {
    Picture {
        format: Format,
        scene: Scene,
        selection: Selection,
        /// The numbers behind an HTML page.
        page: Option<Box<PageData>>,
        samples: usize,
    },
    Data {
        export: Export,
        profile: Profile,
        /// With `-m` or `-t`: the selection's bands (OTHER included) rather than all.
        selection: Option<Selection>,
    },
}

/// Filters the profile, then selects and lays it out, or keeps it for a data output.
pub(crate) fn prepare(
    args: &Args,
    format: OutputKind,
    name: &str,
    profile: Profile,
    aux: Option<&Aux>,
) -> anyhow::Result<Prepared> {
    let profile = args
        .filter()
        .apply(profile)
        .map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
    let samples = profile.samples();
    let format = match format {
        OutputKind::Picture(f) => f,
        OutputKind::Data(export) => {
            // Every band, unless -m or -t ask for a selection (OTHER included).
            let selection = (args.max_bands.is_some() || args.threshold.is_some()).then(|| {
                let (select_opts, _) = args.options(OutputKind::Data(export));
                crate::select::select(&profile, None, &select_opts)
            });
            return Ok(Prepared::Data {
                export,
                profile,
                selection,
            });
        }
    };
    if args.heap_lines && profile.heap.size.is_empty() && profile.heap.live.is_empty() {
        eprintln!(
            "hpgraph: warning: {name}: --heap-lines: no heap size or live bytes in this \
             profile (an eventlog has them, a .hp file does not)"
        );
    }
    let (select_opts, layout_opts) = args.options(OutputKind::Picture(format));
    let selection = crate::select::select(&profile, aux, &select_opts);
    // The HTML page carries the numbers behind its picture; they are taken before the
    // layout consumes the profile.
    let page = (format == Format::Html).then(|| {
        Box::new(crate::export::page::data(
            &profile,
            &selection,
            args.heap_lines,
            args.binary_units,
            args.top,
        ))
    });
    let mut scene = crate::layout::layout(profile, &selection, &layout_opts);
    if let Some(column) = format.column(args.dpi).filter(|_| !args.exact) {
        crate::layout::reduce::reduce(&mut scene, column);
    }
    if matches!(format, Format::Ps | Format::Eps) {
        for r in crate::backend::ps::repairs(&scene) {
            eprintln!(
                "hpgraph: warning: {name}: {} `{}` would be broken PostScript as hp2ps writes it; {}",
                r.what,
                crate::input::hp::shown(&r.text),
                r.how
            );
        }
    }
    Ok(Prepared::Picture {
        format,
        scene,
        selection,
        page,
        samples,
    })
}

impl Prepared {
    /// Writes the output; `live` makes an HTML page follow its server (`--serve`).
    pub(crate) fn write(&self, args: &Args, live: bool, out: &mut dyn Write) -> io::Result<()> {
        match self {
            Prepared::Data {
                export,
                profile,
                selection,
            } => {
                let table = match selection {
                    Some(s) => Table::selected(profile, s.clone()),
                    None => Table::all(profile),
                };
                export.write(&table, args.export_options(), out)
            }
            Prepared::Picture {
                format,
                scene,
                page,
                ..
            } => {
                let creator = format!("hpgraph (version {})", env!("CARGO_PKG_VERSION"));
                let backend: Box<dyn Backend + '_> = match format {
                    Format::Ps | Format::Eps => Box::new(PostScript {
                        creator: &creator,
                        encapsulated: *format == Format::Eps,
                    }),
                    Format::Svg => Box::new(Svg {
                        text: if args.outline_text {
                            TextAs::Outlines
                        } else {
                            TextAs::Text
                        },
                    }),
                    Format::Pdf => Box::new(Pdf { compress: true }),
                    Format::Png => Box::new(Png { dpi: args.dpi }),
                    Format::Html => Box::new(Html {
                        data: page.as_ref().expect("made for HTML by prepare"),
                        live,
                    }),
                };
                backend.write(scene, out)
            }
        }
    }

    /// The selection a picture drew, for the `.aux` file.
    fn selection(&self) -> Option<&Selection> {
        match self {
            Prepared::Picture { selection, .. } => Some(selection),
            Prepared::Data { .. } => None,
        }
    }

    pub(crate) fn drawn(&self) -> Drawn {
        match self {
            Prepared::Picture {
                selection, samples, ..
            } => Drawn {
                samples: *samples,
                bands: selection.bands.len(),
            },
            Prepared::Data {
                profile, selection, ..
            } => Drawn {
                samples: profile.samples(),
                bands: selection
                    .as_ref()
                    .map_or(profile.names.len(), |s| s.bands.len()),
            },
        }
    }

    /// The output in memory.
    pub(crate) fn bytes(&self, args: &Args, live: bool) -> io::Result<Vec<u8>> {
        let mut out = Vec::new();
        self.write(args, live, &mut out)?;
        Ok(out)
    }
}

/// Writes the output of `plan` atomically (or to standard output).
pub(crate) fn write_output(
    plan: &Plan,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), Error> {
    match &plan.output {
        Output::Stdout => sink::write_stdout(write).map_err(|source| Error::Write {
            path: "stdout".into(),
            source,
        }),
        Output::File(path) => sink::write_file(path, write).map_err(|source| Error::Write {
            path: path.display().to_string(),
            source,
        }),
    }
}

pub(crate) fn read_profile(input: &Input, options: input::Options) -> Result<Parsed, Error> {
    let path = input.display();
    let result = match input {
        Input::Stdin => input::read(std::io::stdin().lock(), options),
        Input::File(p) => {
            let file = File::open(p).map_err(|source| Error::Read {
                path: path.clone(),
                source,
            })?;
            input::read_file(&file, options)
        }
    };
    result.map_err(|error| Error::Parse { path, error })
}

fn read_aux(path: &std::path::Path) -> Result<Aux, Error> {
    let shown = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|source| Error::AuxRead {
        path: shown.clone(),
        source,
    })?;
    auxfile::parse(&bytes).map_err(|error| Error::Aux { path: shown, error })
}
