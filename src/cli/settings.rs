//! The run description: the command line read once, into what each stage is handed.
//!
//! [`Settings::resolve`] is the only place that reads [`Args`] for its meaning. Each
//! flag is mapped to one field of the library's [`Request`], whose [`Request::job`]
//! decides every default of the job (a page's style, colours and key, the band limit,
//! the font size); what is decided here is the command line's own: `--serve` implying
//! `--watch`, which files are read and written, which outputs get an `.aux` file, a
//! summary going to standard output, and which combinations of flags are refused.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::error::ErrorKind;

use super::args::{Args, CompareTime, KeyChoice, SortBy, SortName};
use super::naming::{self, Output, Plan, Source};
use super::values::Bound;
use hpgraph::backend::Format;
use hpgraph::engine::{FlameOf, Job, OutputKind, Request, Serve, View};
use hpgraph::export::Export;
use hpgraph::layout::{KeyPlacement, TitleSize};
use hpgraph::select::NameOrder;

/// Everything a run does, resolved.
#[derive(Debug, Clone)]
pub struct Settings {
    /// How each input becomes its output.
    pub job: Job,
    /// What the run does.
    pub run: Run,
    /// `--check`'s conditions and where their report goes.
    pub checks: super::verdict::Checks,
}

/// What a run does, each with what it needs; `cli::main` matches it once.
#[derive(Debug, Clone)]
pub enum Run {
    /// Reads, draws and writes each plan once.
    Render {
        /// One rendering per input.
        plans: Vec<Plan>,
        /// `--same-scale` with several inputs: every picture on the largest ranges of
        /// these axes.
        same_scale: Option<hpgraph::select::Axes>,
    },
    /// `--watch` or `--serve`: follows one input as it is written.
    Watch {
        /// What is followed and what is written.
        plan: Plan,
        /// How it is followed (boxed: it is the largest of the three by far).
        live: Box<Live>,
    },
    /// `--compare`: two runs in one output.
    Compare(Compare),
}

/// What `--compare` reads and writes.
#[derive(Debug, Clone)]
pub struct Compare {
    /// The runs, before then after.
    pub inputs: [Source; 2],
    /// The one output.
    pub output: Output,
    /// `--retainer-sets`: the report naming a retainer profile's sets, for both runs.
    pub sets: Option<PathBuf>,
}

/// How a profile that is still being written is followed.
#[derive(Debug, Clone)]
pub struct Live {
    /// At most one picture per interval.
    pub interval: Duration,
    /// A command run after every picture.
    pub exec: Option<String>,
    /// No status line per picture.
    pub quiet: bool,
    /// The plan's output file is written (always with `--watch`; with `--serve` only
    /// when `-o` names one).
    pub to_file: bool,
    /// `--serve`: the live page and the profile's JSON, served.
    pub serve: Option<Serve>,
}

/// A command line that asks for something impossible: clap prints it with the usage,
/// and the process exits with 2.
#[derive(Debug)]
pub struct UsageError {
    /// clap's kind of error.
    pub kind: ErrorKind,
    /// What is wrong and what to do.
    pub message: String,
}

fn usage(kind: ErrorKind, message: impl Into<String>) -> UsageError {
    UsageError {
        kind,
        message: message.into(),
    }
}

/// `--key file` draws a second picture beside the first: a static one, in a file.
fn key_file_rules(view: &View, live: bool) -> Result<(), UsageError> {
    let why = match (view.of_each_run(), view) {
        (View::Data(_), _) => Some("is drawn for a picture, not the numbers"),
        (View::Page(_), _) => Some("is for pictures: a page has its own key"),
        (View::Flame(..), _) => Some("is for the graph over time: a flame graph has none"),
        (_, View::Compare(_)) => {
            Some("is for one profile's picture: --compare has one key for both")
        }
        _ if live => Some("is drawn once: not with --watch or --serve"),
        _ => None,
    };
    match why {
        Some(why) => Err(usage(
            ErrorKind::ArgumentConflict,
            format!("--key file {why}"),
        )),
        None => Ok(()),
    }
}

impl Settings {
    /// Reads the command line for what it asks.
    pub fn resolve(args: &Args) -> Result<Settings, UsageError> {
        Settings::resolve_beside(args, &[])
    }

    /// [`Settings::resolve`] of a run that also reads the files `read` (each with what a
    /// message calls it: `hpgraph run`'s program), which no output may replace.
    pub fn resolve_beside(args: &Args, read: &[(&Path, &str)]) -> Result<Settings, UsageError> {
        let kind = output_kind(args)?;
        // `--flame peak` reads `peak` as a profile: its census goes after `=`.
        if args.flame.is_some()
            && let Some(word) = args.files.iter().find(|f| {
                // The file hp2ps's naming rule reads for it (NAME reads NAME.hp).
                let read = naming::plan(Some(f.as_os_str()), None, "ps").input;
                super::values::flame_when(&f.to_string_lossy()).is_ok()
                    && !read.file().is_some_and(Path::exists)
            })
        {
            return Err(usage(
                ErrorKind::ValueValidation,
                format!(
                    "`{word}` is read as a profile, and there is no such file: --flame takes \
                     its census after `=`, as --flame={word}",
                    word = word.to_string_lossy()
                ),
            ));
        }
        // A cost-centre profile's picture is its flame graph without --flame: whether
        // --inverted has one to turn over is known once the input is read (cli::oneshot).
        if args.flame.is_some() || args.inverted || args.members.is_some() {
            flame_rules(args, kind)?;
        }
        if let (Some(from), Some(to)) = (
            args.from.as_ref().and_then(Bound::time),
            args.to.as_ref().and_then(Bound::time),
        ) && from > to
        {
            return Err(usage(
                ErrorKind::ValueValidation,
                format!("--from {from} is after --to {to}: give the earlier time to --from"),
            ));
        }
        let live = args.watch || args.serve.is_some();
        let marked = [&args.from, &args.to]
            .iter()
            .any(|b| matches!(b, Some(Bound::Mark(_))));
        if marked && live {
            return Err(usage(
                ErrorKind::ArgumentConflict,
                "--from/--to mark:TEXT find a marker in a run read whole: a live view's \
                 markers are still to come (give times with --watch and --serve)"
                    .to_string(),
            ));
        }
        let request = request(args, kind, live);
        if kind == OutputKind::Picture(Format::Png) {
            let (w, h) = request.size();
            if let Some(why) = hpgraph::backend::png::too_large(w, h, args.dpi) {
                return Err(usage(ErrorKind::ValueValidation, why));
            }
        }
        let job = request.job();
        if args.key == Some(KeyChoice::File) {
            key_file_rules(&job.view, live)?;
        }
        let run = if args.compare {
            Run::Compare(compare(args, kind)?)
        } else {
            let mut plans = plans(args, kind, &job.view)?;
            if args.key == Some(KeyChoice::File) && plans.iter().any(|p| p.output == Output::Stdout)
            {
                return Err(usage(
                    ErrorKind::ArgumentConflict,
                    "--key file writes the key beside the picture's file (NAME-key.EXT): \
                     give the picture a file with -o, or read a named profile",
                ));
            }
            if live && matches!(kind, OutputKind::Data(Export::Stats(_))) {
                return Err(usage(
                    ErrorKind::ArgumentConflict,
                    "--stats reads a finished eventlog: not with --watch, --serve or --connect",
                ));
            }
            if live {
                let live = Box::new(live_settings(args, &request, &plans)?);
                Run::Watch {
                    plan: plans.remove(0),
                    live,
                }
            } else {
                let same_scale = args.same_scale.filter(|_| plans.len() > 1);
                if same_scale.is_some()
                    && let Some(p) = plans.iter().find(|p| p.input.is_read_once())
                {
                    return Err(usage(
                        ErrorKind::ArgumentConflict,
                        format!(
                            "--same-scale reads every input twice (once for the scale): {} is \
                             a stream, read once: save it to a file first",
                            p.input.display()
                        ),
                    ));
                }
                Run::Render { same_scale, plans }
            }
        };
        let checks = super::verdict::resolve(&args.check, args.check_report.as_ref(), args.compare)
            .map_err(|(kind, message)| UsageError { kind, message })?;
        let report = checks.report.as_ref().map(|(r, _)| r.as_path());
        let key = args.key == Some(KeyChoice::File);
        if let Some(clash) = files_clash(&run, key, args.retainer_sets.as_deref(), report, read) {
            return Err(usage(ErrorKind::ArgumentConflict, clash));
        }
        Ok(Settings { job, run, checks })
    }
}

/// Why a run cannot go ahead because one file it writes is another it reads or writes
/// ([`hpgraph::sink::collisions`]): every input, `--retainer-sets`' report, every picture, data
/// file, `.aux`, key and `--check-report`, before anything is written.
fn files_clash(
    run: &Run,
    key: bool,
    sets: Option<&Path>,
    report: Option<&Path>,
    read: &[(&Path, &str)],
) -> Option<String> {
    let writes: Vec<_> = match run {
        Run::Render { plans, .. } => plans.iter().map(|p| naming::writes(p, key)).collect(),
        Run::Watch { plan, .. } => vec![naming::writes(plan, key)],
        Run::Compare(c) => (c.inputs.iter().zip([Some(&c.output), None]))
            .map(|(input, output)| hpgraph::sink::collisions::Writes {
                input: input.display(),
                file: input.file(),
                files: match output {
                    Some(Output::File(f)) => vec![f.clone()],
                    _ => Vec::new(),
                },
            })
            .collect(),
    };
    let others: Vec<(&Path, &str)> = (sets.map(|s| (s, "--retainer-sets' report")).into_iter())
        .chain(read.iter().copied())
        .collect();
    hpgraph::sink::collisions::check(&writes, &others, report).err()
}

/// `--flame` draws a census (or a mean) as a picture or writes its stacks; with
/// `--compare`, two runs' differential graph. `--inverted` and `--members` draw.
fn flame_rules(args: &Args, kind: OutputKind) -> Result<(), UsageError> {
    if let OutputKind::Data(e) = kind
        && !e.writes_stacks()
        && args.flame.is_some()
    {
        return Err(usage(
            ErrorKind::ArgumentConflict,
            "--flame draws a picture (ps, eps, svg, pdf, png or html) or writes stacks \
             (pprof, folded, speedscope, callgrind): not with --summary or another data format",
        ));
    }
    if args.members.is_some() && !matches!(kind, OutputKind::Picture(_)) {
        return Err(usage(
            ErrorKind::ArgumentConflict,
            "--members draws a picture (ps, eps, svg, pdf, png or html); --summary and \
             --summary=json list every member's figures",
        ));
    }
    if args.inverted && !matches!(kind, OutputKind::Picture(_)) {
        return Err(usage(
            ErrorKind::ArgumentConflict,
            "--inverted draws a flame graph (ps, eps, svg, pdf, png or html); pprof, inferno, \
             speedscope and KCacheGrind invert the stacks themselves",
        ));
    }
    Ok(())
}

/// `--compare BEFORE AFTER`: two inputs, one output, no live view.
fn compare(args: &Args, kind: OutputKind) -> Result<Compare, UsageError> {
    let [before, after] = &args.files[..] else {
        return Err(usage(
            ErrorKind::WrongNumberOfValues,
            format!(
                "--compare takes two runs, BEFORE and AFTER; {} given",
                args.files.len()
            ),
        ));
    };
    if args.watch || args.serve.is_some() || args.connect.is_some() {
        return Err(usage(
            ErrorKind::ArgumentConflict,
            "--compare reads two finished runs: not with --watch, --serve or --connect",
        ));
    }
    if matches!(
        kind,
        OutputKind::Data(Export::Hp | Export::Pprof | Export::Speedscope | Export::Callgrind)
    ) {
        return Err(usage(
            ErrorKind::InvalidValue,
            format!(
                "--compare writes a picture, a summary, CSV, JSON or folded stacks: a {} \
                 file holds one run",
                kind.name()
            ),
        ));
    }
    let ext = kind.extension();
    let named = |f| naming::plan(Some(f), None, ext);
    let (b, a) = (named(before), named(after));
    let stem = |p: &Plan| match &p.output {
        Output::File(f) => f
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default(),
        Output::Stdout => "stdin".to_string(),
    };
    let summary = matches!(kind, OutputKind::Data(e) if e.is_printed());
    let output = match args.output.as_deref() {
        Some(o) if o == Path::new("-") => Output::Stdout,
        Some(o) => Output::File(o.to_path_buf()),
        None if summary => Output::Stdout,
        None => Output::File(format!("{}-vs-{}.{ext}", stem(&b), stem(&a)).into()),
    };
    if b.input.is(&a.input) && b.input.is_read_once() {
        return Err(usage(
            ErrorKind::ArgumentConflict,
            format!(
                "--compare: {} is a stream, read once: it cannot be both runs (save it to a \
                 file first)",
                b.input.display()
            ),
        ));
    }
    Ok(Compare {
        inputs: [b.input, a.input],
        output,
        sets: args.retainer_sets.clone(),
    })
}

/// The output: `--summary`, else `--format`, else the extension of `-o`'s file, else
/// PostScript.
fn output_kind(args: &Args) -> Result<OutputKind, UsageError> {
    if let Some(style) = args.summary {
        return Ok(OutputKind::Data(Export::Summary(style)));
    }
    if let Some(style) = args.stats {
        return Ok(OutputKind::Data(Export::Stats(style)));
    }
    if let Some(kind) = args.format {
        return Ok(kind);
    }
    let Some(out) = args.output.as_deref().filter(|o| *o != Path::new("-")) else {
        return Ok(OutputKind::Picture(Format::Ps));
    };
    let name = out.file_name().map(|n| n.to_string_lossy().into_owned());
    match out.extension().and_then(|e| e.to_str()) {
        None => Ok(OutputKind::Picture(Format::Ps)),
        Some(_) => OutputKind::from_file_name(name.as_deref().unwrap_or("")).ok_or_else(|| {
            let names: Vec<String> = OutputKind::all()
                .map(|k| format!(".{}", k.extension()))
                .collect();
            usage(
                ErrorKind::InvalidValue,
                format!(
                    "cannot tell the format from the name `{}`: use {} or {}, or --format",
                    out.display(),
                    names[..names.len() - 1].join(", "),
                    names[names.len() - 1]
                ),
            )
        }),
    }
}

/// The files of every rendering, and the rules they must keep.
fn plans(args: &Args, kind: OutputKind, view: &View) -> Result<Vec<Plan>, UsageError> {
    // A flame graph of a census is named apart from the graph over time:
    // `prog.flame.svg`.
    let ext = match view {
        View::Flame(_, FlameOf { at: Some(_), .. }) => format!("flame.{}", kind.extension()),
        _ => kind.extension().to_string(),
    };
    let ext = ext.as_str();
    let output = args.output.as_deref();
    let mut plans: Vec<Plan> = if let Some(endpoint) = &args.connect {
        vec![naming::plan_for(
            Source::Socket(endpoint.clone()),
            output,
            ext,
        )]
    } else if args.files.is_empty() {
        // Nothing named and nothing piped in: waiting on the keyboard for a profile
        // would look like a hang.
        if std::io::stdin().is_terminal() {
            return Err(usage(
                ErrorKind::MissingRequiredArgument,
                "no profile: name one (hpgraph prog.hp), or pipe one in (hpgraph < prog.hp)",
            ));
        }
        vec![naming::plan(None, output, ext)]
    } else {
        if args.files.len() > 1 && output.is_some() {
            return Err(usage(
                ErrorKind::ArgumentConflict,
                "--output names one file, so it takes a single input",
            ));
        }
        // One input named twice (`a.hp a.hp`, `a a.hp`) is read and drawn once.
        let mut plans: Vec<Plan> = Vec::with_capacity(args.files.len());
        for f in &args.files {
            let plan = naming::plan(Some(f), output, ext);
            if !plans.iter().any(|p| p.input.is(&plan.input)) {
                plans.push(plan);
            }
        }
        plans
    };
    // hp2ps writes an .aux beside its PostScript; a picture in another format gets one
    // only when -p asks for it (`fig.aux` beside `fig.pdf` is the name LaTeX gives
    // `fig.tex`'s own auxiliary file). A summary is read, not kept: standard output
    // unless -o names a file, and no .aux.
    let summary = matches!(kind, OutputKind::Data(e) if e.is_printed());
    let keeps_aux = args.flame.is_none()
        && (args.reuse_aux || matches!(kind, OutputKind::Picture(Format::Ps | Format::Eps)));
    for p in &mut plans {
        p.reuse_aux = args.reuse_aux;
        p.sets.clone_from(&args.retainer_sets);
        if summary && output.is_none() {
            p.output = Output::Stdout;
            p.aux = None;
        }
        if !keeps_aux {
            p.aux = None;
        }
    }
    Ok(plans)
}

/// `--watch` and `--serve`: one input followed (a file, a stream or a socket), its
/// output a file or the server.
fn live_settings(args: &Args, request: &Request, plans: &[Plan]) -> Result<Live, UsageError> {
    let [plan] = plans else {
        return Err(usage(
            ErrorKind::ArgumentConflict,
            "--watch follows one file",
        ));
    };
    if let Some(c) = naming::compressed(&plan.input) {
        return Err(usage(
            ErrorKind::ArgumentConflict,
            format!(
                "{}: --watch cannot follow a {} file, which can only be read from \
                 its start: let the program write it plain, and compress it after",
                plan.input.display(),
                c.name()
            ),
        ));
    }
    if plan.output == Output::Stdout && (args.serve.is_none() || args.output.is_some()) {
        return Err(usage(
            ErrorKind::ArgumentConflict,
            "--watch redraws a file: give it one with -o, not standard output",
        ));
    }
    Ok(Live {
        interval: Duration::from_secs_f64(args.interval),
        exec: args.exec.clone(),
        quiet: args.quiet,
        to_file: args.serve.is_none() || args.output.is_some(),
        serve: args.serve.map(|addr| request.served(addr)),
    })
}

/// The request the command line makes: one field for each flag, the defaults left to
/// the library ([`Request::job`]).
fn request(args: &Args, kind: OutputKind, live: bool) -> Request {
    let mut r = Request::new(kind);
    r.style = args.style;
    r.palette = args.palette;
    r.key = args.key.map(|k| match k {
        KeyChoice::Right => KeyPlacement::Beside,
        KeyChoice::Below => KeyPlacement::Below,
        KeyChoice::None => KeyPlacement::None,
        KeyChoice::File => KeyPlacement::Apart,
    });
    r.size = args.size;
    r.font_size = args.font_size;
    r.max_bands = args.max_bands;
    r.threshold = args.threshold;
    r.multi_page = args.multi_page;
    r.by_deviation = args.sort_deviation;
    r.by_growth = args.sort == Some(SortBy::Growth);
    r.by_name = args.sort_name.map(|s| match s {
        SortName::Asc => NameOrder::Ascending,
        SortName::Desc => NameOrder::Descending,
    });
    r.reverse = args.reverse;
    r.shares = args.view.as_deref() == Some("share");
    r.colour = args.colour;
    r.marks = !args.no_marks;
    r.heap_lines = args.heap_lines;
    r.title.clone_from(&args.title);
    r.title_size = if args.big_title {
        TitleSize::Big
    } else if args.small_title {
        TitleSize::Small
    } else {
        TitleSize::Auto
    };
    r.portrait = args.portrait;
    r.eps = args.eps;
    r.dpi = args.dpi;
    r.exact = args.exact;
    r.outline_text = args.outline_text;
    r.top = args.top;
    r.flame = args.flame;
    r.inverted = args.inverted;
    r.members = args.members;
    r.binary_units = args.binary_units;
    r.stable_colours = args.stable_colours;
    r.x_max = args.x_max;
    r.y_max = args.y_max;
    r.filter.include.clone_from(&args.include);
    r.filter.exclude.clone_from(&args.exclude);
    r.filter.from = args.from.as_ref().and_then(Bound::time);
    r.filter.to = args.to.as_ref().and_then(Bound::time);
    r.filter.from_mark = args.from.as_ref().and_then(Bound::mark);
    r.filter.to_mark = args.to.as_ref().and_then(Bound::mark);
    r.filter.marks.clone_from(&args.marks);
    r.filter.min_share = args.min_share;
    r.measure = args.measure.map(Into::into);
    r.judge_partial = args.check_partial;
    r.checked = !args.check.is_empty();
    r.compare = args.compare;
    r.normalised = args.compare_time == CompareTime::Normalised;
    r.live = live;
    r.served = args.serve.is_some();
    r.terminal = std::io::stdout().is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    r
}

#[cfg(test)]
mod tests {
    //! Each flag's resolution, in-process beside where it is resolved (ripgrep's habit):
    //! a command line read into a request and a run, nothing read or written.
    use super::*;
    use clap::Parser;
    use std::ffi::OsString;

    fn args(argv: &[&str]) -> Args {
        let normal = super::super::argv::normalise(argv.iter().map(OsString::from))
            .unwrap_or_else(|bad| panic!("{argv:?}: {}", bad.why));
        Args::try_parse_from(std::iter::once(OsString::from("hpgraph")).chain(normal))
            .unwrap_or_else(|e| panic!("{argv:?}: {e}"))
    }

    fn resolved(argv: &[&str]) -> Settings {
        Settings::resolve(&args(argv)).unwrap_or_else(|e| panic!("{argv:?}: {}", e.message))
    }

    fn refused(argv: &[&str]) -> String {
        match Settings::resolve(&args(argv)) {
            Err(e) => e.message,
            Ok(_) => panic!("{argv:?} is not refused"),
        }
    }

    #[test]
    fn the_output_is_the_summary_then_the_format_then_the_files_name_then_postscript() {
        let kind = |argv: &[&str]| output_kind(&args(argv)).unwrap();
        let picture = OutputKind::Picture;
        assert_eq!(kind(&["p.hp"]), picture(Format::Ps));
        assert_eq!(kind(&["p.hp", "-o", "-"]), picture(Format::Ps));
        assert_eq!(kind(&["p.hp", "-o", "graph"]), picture(Format::Ps));
        assert_eq!(kind(&["p.hp", "-o", "x.svg"]), picture(Format::Svg));
        assert_eq!(kind(&["p.hp", "-o", "x.PDF"]), picture(Format::Pdf));
        let format = ["p.hp", "-o", "x.svg", "--format", "png"];
        assert_eq!(kind(&format), picture(Format::Png));
        assert!(matches!(
            kind(&["p.hp", "-o", "x.svg", "--summary"]),
            OutputKind::Data(Export::Summary(_))
        ));
        let why = output_kind(&args(&["p.hp", "-o", "x.graph"]))
            .unwrap_err()
            .message;
        assert!(
            why.contains("`x.graph`") && why.contains(".svg") && why.contains("--format"),
            "{why}"
        );
    }

    #[test]
    fn serve_follows_as_watch_does_and_writes_a_file_only_when_one_is_named() {
        let live = |argv: &[&str]| match resolved(argv).run {
            Run::Watch { live, .. } => live,
            other => panic!("{argv:?} does not follow its input: {other:?}"),
        };
        let served = live(&["--serve", "p.hp"]);
        assert!(served.serve.is_some() && !served.to_file, "{served:?}");
        assert!(live(&["--serve", "p.hp", "-o", "x.svg"]).to_file);
        let watched = live(&["--watch", "p.hp"]);
        assert!(watched.serve.is_none() && watched.to_file, "{watched:?}");
        assert!(matches!(resolved(&["p.hp"]).run, Run::Render { .. }));
    }

    #[test]
    fn what_cannot_be_done_is_refused_with_what_to_do() {
        let cases: [(&[&str], &str); 5] = [
            (
                &["p.hp", "--from", "5", "--to", "1"],
                "give the earlier time to --from",
            ),
            (&["-", "--key", "file"], "give the picture a file with -o"),
            (
                &["--watch", "run.eventlog", "--stats"],
                "reads a finished eventlog",
            ),
            (&["--same-scale", "-", "q.hp"], "save it to a file first"),
            (&["p.hp", "-o", "p.hp"], "would replace the input"),
        ];
        for (argv, says) in cases {
            let why = refused(argv);
            assert!(why.contains(says), "{argv:?}: {why}");
        }
    }

    #[test]
    fn each_flag_is_one_field_of_the_request_and_the_rest_is_the_librarys() {
        let a = args(&[
            "p.hp",
            "-o",
            "x.svg",
            "--stable-colours",
            "--binary-units",
            "-m7",
            "-t2.5",
            "--title",
            "T",
            "--reverse",
            "--heap-lines",
            "-y",
            "-c",
        ]);
        let r = request(&a, output_kind(&a).unwrap(), false);
        assert!(r.stable_colours && r.binary_units && r.reverse && r.heap_lines);
        assert!(!r.marks && r.colour && !r.live);
        assert_eq!((r.max_bands, r.threshold), (Some(7), Some(2.5)));
        assert_eq!(r.title.as_deref(), Some("T"));
        // No flag: nothing decided here, so the job is the library's own for the format.
        for (argv, kind) in [
            (["p.hp", "-o", "x.svg"], OutputKind::Picture(Format::Svg)),
            (["p.hp", "-o", "x.ps"], OutputKind::Picture(Format::Ps)),
            (["p.hp", "-o", "x.html"], OutputKind::Picture(Format::Html)),
        ] {
            assert_eq!(
                format!("{:?}", resolved(&argv).job),
                format!("{:?}", Request::new(kind).job()),
                "{argv:?}"
            );
        }
    }
}
