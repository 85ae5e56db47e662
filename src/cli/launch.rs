//! `hpgraph run [OPTIONS] -- PROGRAM [ARGS...]`: a GHC program run for its profile and
//! drawn as any eventlog is.
//!
//! The options before `--` are hpgraph's own (`-o`, `--summary`, `--serve`, `--watch`,
//! `--check`, …) and the run's (`--by`, `-i`, `--keep`); what follows is the program and
//! its arguments, untouched. The program is asked what it is ([`program::info`]), given
//! the runtime options of its build ([`program::flags`]) and run ([`program::child`]);
//! its eventlog, kept, is then the input of an ordinary run: the one engine call a
//! one-shot, `--watch` or `--serve` run makes.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use clap::CommandFactory;

use super::naming::{Output, Plan, Source};
use super::settings::{Run, Settings};
use super::{Args, failed, oneshot, parse_args, read_binary, usage_exit, verdict, watch};
use hpgraph::check::report::Verdicts;
use hpgraph::engine::Job;
use hpgraph::program::child::{self, Ended, Running};
use hpgraph::program::flags::{self, Breakdown, Request};
use hpgraph::program::info::Version;
use hpgraph::program::{SetUp, info};
use hpgraph::sink::collisions::same_file;

/// The run's own help (`hpgraph run --help`).
const HELP: &str = "\
Runs a GHC program and draws its heap profile: the runtime options it needs are chosen
from what the program is (+RTS --info), its eventlog is kept, and the picture, page or
numbers are made as for any profile.

Usage: hpgraph run [OPTIONS] -- PROGRAM [ARGS...]

The program's standard input, output and error are its own; hpgraph speaks on standard
error, after `hpgraph:`. Exit status: the program's when it failed (128 + N for signal N),
else 1 when a --check failed, else 0; 2 when the program cannot be run for a profile.

Options of the run:
  --by BREAKDOWN  The heap census's breakdown: hc, hm, hd, hy, hr, hb (profiling builds),
                  hT (any build), hi (GHC 9.2 on, builds without profiling). Default: hc
                  for a profiling build (with its time samples, -p), hT for any other
  -i SECS         Seconds of the program's own time between heap censuses. Default:
                  0.05, twice the runtime's rate, so that a second's run gets 20; a
                  run that gets fewer than 20 is told the interval that gives more
  --keep FILE     Where the eventlog is written and kept (a .eventlog file). Default:
                  PROGRAM.eventlog in the current folder
  -h, --help      This help

Every option of `hpgraph --help` that draws or reports applies: -o FILE (default
PROGRAM.html), --summary, --stats, --check COND, --serve [ADDR] (the live page while
the program runs), --watch -o FILE (redrawn as it runs).

Examples:
  hpgraph run -- ./prog 1000                 # prog.html, prog.eventlog
  hpgraph run -o heap.svg --by hy -- ./prog   # by type (a profiling build)
  hpgraph run --serve -- ./server --port 80   # the live page while it runs
  hpgraph run --check 'peak <= 200MB' -- ./prog   # for CI: exit 1 past the bound

More: docs/run.md.
";

/// The run's own options, and the rest for the drawing.
#[derive(Debug, Default)]
struct RunArgs {
    by: Option<Breakdown>,
    interval: Option<f64>,
    keep: Option<PathBuf>,
    /// hpgraph's options, for the drawing.
    rest: Vec<OsString>,
    program: OsString,
    args: Vec<OsString>,
}

/// Whether the command line is `hpgraph run … -- PROGRAM …` (or asks for its help, or
/// has no `--` where no profile is named `run`). A profile named `run` is still read as
/// before: `hpgraph run` without `--` is hp2ps's when `run` or `run.hp` exists.
pub(super) fn is_run(raw: &[OsString]) -> bool {
    raw.first().is_some_and(|a| a == "run")
        && (raw[1..]
            .iter()
            .any(|a| a == "--" || a == "--help" || a == "-h")
            || !(Path::new("run").exists() || Path::new("run.hp").exists()))
}

/// Runs `hpgraph run` (`raw` without the word `run`).
pub(super) fn main(raw: Vec<OsString>) -> ExitCode {
    let run_args = read(raw).unwrap_or_else(|e| usage(&e));
    let rts = match info::locate(&run_args.program).and_then(|p| info::probe(&p)) {
        Ok(rts) => rts,
        Err(e) => return set_up_failed(&e),
    };
    let keep = match eventlog_file(&run_args, &rts.program) {
        Ok(keep) => keep,
        Err(e) => usage(&e),
    };
    let mut args = drawing_args(&run_args, &keep, &rts.program);
    // Before 9.2 the runtime writes its eventlog in 2 MB blocks, and its .hp file at
    // every census: a live view follows the .hp file (the eventlog is drawn at the end).
    let follows_hp = (args.watch || args.serve.is_some()) && rts.version < Version(9, 2);
    if follows_hp {
        args.files[0] = sibling(&rts.program, ".hp").into_os_string();
    }
    if run_args.by == Some(Breakdown::InfoTable) && args.binary.is_none() {
        // The program names its own info tables (docs/run.md).
        args.binary = Some(rts.program.clone());
    }
    // No output replaces the program or the .hp its runtime writes; nothing is touched
    // until the command line holds.
    let hp = sibling(&rts.program, ".hp");
    if same_file(&keep, &rts.program) {
        usage(&format!(
            "--keep {} names the program: name another .eventlog file",
            keep.display()
        ));
    }
    let protected = [
        (rts.program.as_path(), "`hpgraph run`'s program"),
        (hp.as_path(), "the .hp file the program's runtime writes"),
    ];
    let mut settings = Settings::resolve_beside(&args, &protected)
        .unwrap_or_else(|e| usage_exit(Args::command().error(e.kind, e.message)));
    if let Err(e) = read_binary(&mut settings.job, args.binary.as_deref()) {
        return failed(&e);
    }
    let live = matches!(settings.run, Run::Watch { .. });
    let request = Request {
        by: run_args.by,
        interval: run_args.interval,
        eventlog: &keep,
        live,
    };
    let rts_flags = match flags::rts_flags(&rts, &request) {
        Ok(f) => f,
        Err(e) => return set_up_failed(&e),
    };
    say!(
        "running {} (GHC {}{}) with +RTS {} -RTS",
        rts.program.display(),
        rts.ghc,
        if rts.profiled() { ", profiling" } else { "" },
        (rts_flags.iter())
            .map(|f| f.to_string_lossy())
            .collect::<Vec<_>>()
            .join(" ")
    );
    // GHC starts the eventlog afresh: an earlier run's is not drawn as this one's.
    let _ = std::fs::remove_file(&keep);
    // The runtime writes its .hp over any there: an earlier one, which may be another
    // program's of the same name, is moved aside first, and said.
    if let Err(e) = move_aside(&hp) {
        return set_up_failed(&SetUp::Unstartable(rts.program.display().to_string(), e));
    }
    // The .hp the runtime writes beside it, kept to if this run's eventlog is short.
    let beside = Beside {
        hp,
        since: std::time::SystemTime::now(),
    };
    let running = match child::start(&rts.program, &rts_flags, &run_args.args) {
        Ok(r) => r,
        Err(e) => {
            return set_up_failed(&SetUp::Unstartable(
                rts.program.display().to_string(),
                e.to_string(),
            ));
        }
    };
    let name = rts.program.display().to_string();
    let interval = flags::census_interval(run_args.interval);
    finish(&name, &keep, &beside, interval, settings, running)
}

/// A run of fewer than [`flags::FEW_CENSUSES`] heap censuses is told how to get more: the
/// interval that would have given it twice as many, as a command to run.
fn tell_if_few(job: &Job, record: &Path, interval: f64, name: &str) {
    let Some((got, _)) = hpgraph::engine::recorded::censuses(job.read, record) else {
        return;
    };
    // None at all is said where it is read (the program ended before its first census).
    if got == 0 || got >= flags::FEW_CENSUSES {
        return;
    }
    say!(
        "the run got {got} heap census{}, one every {interval} s of the program's own \
         time: too few to judge a trend ({} are needed after an exit's teardown). A shorter \
         interval gives more: hpgraph run -i {} -- {}",
        if got == 1 { "" } else { "es" },
        hpgraph::analysis::window::MIN_TREND_CENSUSES,
        flags::finer_interval(interval, got),
        name
    );
}

/// The `.hp` file the runtime writes beside a heap-profiled program, and when the run
/// began: a `.hp` written since is this run's.
struct Beside {
    hp: PathBuf,
    since: std::time::SystemTime,
}

/// Waits for the program while drawing as the settings say, then gives the exit status.
fn finish(
    name: &str,
    keep: &Path,
    beside: &Beside,
    interval: f64,
    settings: Settings,
    running: Running,
) -> ExitCode {
    let Settings { job, run, checks } = settings;
    let mut drawn = Drawing::default();
    let (ended, interrupted) = match run {
        Run::Render { plans, .. } => {
            let (ended, interrupted) = wait(running);
            if let Err(e) = hpgraph::sink::clean_up_on_signals() {
                say!("warning: cannot watch for signals: {e}");
            }
            let mut read = keep.to_path_buf();
            for plan in &plans {
                let plan = recorded(&job, plan, keep, beside);
                drawn.one(&job, &plan, &checks.conditions, keep);
                if let Source::File(path) = &plan.input {
                    read = path.clone();
                }
            }
            if drawn.code == ExitCode::SUCCESS {
                tell_if_few(&job, &read, interval, name);
            }
            (ended, interrupted)
        }
        Run::Watch { plan, live } => {
            let stop = Arc::new(AtomicBool::new(false));
            let serving = live.serve.is_some();
            let ended_stop = Arc::clone(&stop);
            let program = name.to_owned();
            // Once the program ends, the served page is of its whole run: the record a
            // one-shot run would draw (the eventlog, or this run's fuller .hp), read whole.
            let finale = Arc::new(std::sync::OnceLock::new());
            let (to_finale, read, record) = (Arc::clone(&finale), job.read, keep.to_path_buf());
            let (hp, since) = (beside.hp.clone(), beside.since);
            let waiter = std::thread::spawn(move || {
                let result = wait(running);
                if !serving {
                    ended_stop.store(true, Ordering::SeqCst);
                } else if let (Ok(ended), None) = (&result.0, result.1) {
                    let fuller = hpgraph::engine::recorded::fuller_hp(read, &record, &hp, since);
                    let _ = to_finale.set(hpgraph::live::Finale {
                        record: if fuller.is_some() { hp } else { record },
                        how: format!("the program {ended}"),
                    });
                    say!(
                        "{program} {ended}: the page of its whole run is still served (Ctrl-C to stop)"
                    );
                }
                result
            });
            let conditions = &checks.conditions;
            let last = match watch::watch(&job, &live, &plan, stop, Some(finale), conditions) {
                Ok(last) => last,
                Err(e) => {
                    drawn.code = failed(&e);
                    None
                }
            };
            let (ended, interrupted) = waiter.join().unwrap_or((Ok(Ended::Exited(1)), None));
            // The whole run, drawn once it has ended from its eventlog (a live view's last
            // redraw may be of what came before the program's last events, or of its .hp).
            if live.to_file {
                let whole = Plan {
                    input: Source::File(keep.to_path_buf()),
                    ..plan.clone()
                };
                drawn.one(&job, &whole, conditions, keep);
            } else {
                // The served page's last redraw: the whole run's, once it was drawn.
                drawn.verdicts.extend(last);
            }
            tell_if_few(&job, keep, interval, name);
            (ended, interrupted)
        }
        Run::Compare(_) => unreachable!("refused when the command line is read"),
    };
    let ended = match ended {
        Ok(ended) => ended,
        Err(e) => {
            say!("{name}: cannot wait for it: {e}");
            return ExitCode::FAILURE;
        }
    };
    if ended.failed() {
        say!("{name} {ended}");
        return ExitCode::from(ended.code());
    }
    if let Some(signal) = interrupted {
        return ExitCode::from(u8::try_from(128 + signal).unwrap_or(255));
    }
    if checks.any() {
        return verdict::finish(&checks, drawn.verdicts, drawn.code != ExitCode::SUCCESS);
    }
    drawn.code
}

/// What the drawing of a run that has ended reads: its eventlog, or the `.hp` the
/// runtime wrote beside the program in this run where that holds more of it
/// ([`hpgraph::engine::recorded`]); which, and why, is said.
fn recorded(job: &Job, plan: &Plan, keep: &Path, beside: &Beside) -> Plan {
    let read = job.read;
    let Some(fuller) = hpgraph::engine::recorded::fuller_hp(read, keep, &beside.hp, beside.since)
    else {
        return plan.clone();
    };
    let short = match keep.exists() {
        true => format!(
            "{} holds {} of the run's heap censuses (the program ended before the runtime \
             wrote the rest out)",
            keep.display(),
            fuller.eventlog
        ),
        false => format!("the program wrote no eventlog ({})", keep.display()),
    };
    say!(
        "{short}, {} holds {}: drawn from {0}, which the runtime wrote beside it in \
         the same run",
        beside.hp.display(),
        fuller.hp
    );
    Plan {
        input: Source::File(beside.hp.clone()),
        ..plan.clone()
    }
}

/// The program waited for: how it ended, and the signal hpgraph was sent meanwhile.
fn wait(mut running: Running) -> (std::io::Result<Ended>, Option<i32>) {
    let ended = running.wait();
    (ended, running.interrupted())
}

/// What the drawings gave: their verdicts, and a failure's status.
struct Drawing {
    verdicts: Vec<Verdicts>,
    code: ExitCode,
}

impl Default for Drawing {
    fn default() -> Self {
        Drawing {
            verdicts: Vec::new(),
            code: ExitCode::SUCCESS,
        }
    }
}

impl Drawing {
    /// Draws the kept eventlog (or what [`recorded`] chose) as `plan` says and says
    /// where it went.
    fn one(&mut self, job: &Job, plan: &Plan, checks: &[hpgraph::check::Check], keep: &Path) {
        let read = match &plan.input {
            Source::File(path) => path.as_path(),
            _ => keep,
        };
        if !read.exists() {
            say!(
                "{}: the program wrote no eventlog: nothing to draw",
                keep.display()
            );
            self.code = ExitCode::FAILURE;
            return;
        }
        match oneshot::render_one(job, plan, checks) {
            Ok(v) => {
                self.verdicts.extend(v);
                if let Output::File(out) = &plan.output {
                    say!(
                        "wrote {} (the run's eventlog is kept in {})",
                        out.display(),
                        keep.display()
                    );
                }
            }
            Err(e) => self.code = failed(&e),
        }
    }
}

/// Reads the run's options up to `--`; the rest are hpgraph's.
fn read(raw: Vec<OsString>) -> Result<RunArgs, String> {
    let mut out = RunArgs::default();
    let mut raw = raw.into_iter();
    while let Some(arg) = raw.next() {
        let text = arg.to_string_lossy().into_owned();
        let (flag, joined) = match text.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_owned(), Some(v.to_owned())),
            _ => (text.clone(), None),
        };
        let mut value = |what: &str| -> Result<String, String> {
            joined
                .clone()
                .or_else(|| raw.next().map(|v| v.to_string_lossy().into_owned()))
                .ok_or_else(|| format!("{what} needs a value"))
        };
        match flag.as_str() {
            "--" => {
                out.program = raw.next().ok_or("give the program to run after --")?;
                out.args = raw.collect();
                return Ok(out);
            }
            "-h" | "--help" => {
                print!("{HELP}");
                std::process::exit(0)
            }
            "--by" => {
                let v = value("--by")?;
                out.by = Some(Breakdown::named(&v).ok_or_else(|| {
                    format!("--by {v}: give one of hc, hm, hd, hy, hr, hb, hT, hi")
                })?);
            }
            "--keep" => out.keep = Some(PathBuf::from(value("--keep")?)),
            "-i" => out.interval = Some(seconds(&value("-i")?)?),
            _ if text.starts_with("-i") && text.len() > 2 => {
                out.interval = Some(seconds(&text[2..])?);
            }
            _ => out.rest.push(arg),
        }
    }
    Err("give the program to run after --: hpgraph run [OPTIONS] -- PROGRAM [ARGS...]".into())
}

fn seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 && s.is_finite() => Ok(s),
        _ => Err(format!(
            "-i {text}: give the seconds between censuses, as 0.1"
        )),
    }
}

/// Where the eventlog is kept: `--keep`'s file (an `.eventlog`: GHC starts it afresh,
/// so nothing else is handed to it), else `PROGRAM.eventlog` here.
fn eventlog_file(run: &RunArgs, program: &Path) -> Result<PathBuf, String> {
    match &run.keep {
        Some(keep) if keep.extension().is_some_and(|e| e == "eventlog") => Ok(keep.clone()),
        Some(keep) => Err(format!(
            "--keep {}: name a .eventlog file (the program writes it afresh)",
            keep.display()
        )),
        None => Ok(sibling(program, ".eventlog")),
    }
}

/// At most this many earlier `.hp` files are kept aside (`NAME.hp.~1~` on): past it the
/// run is refused rather than a kept one replaced.
const MAX_KEPT_ASIDE: u32 = 1000;

/// Moves an existing `hp` to the first free `hp.~N~` (the numbered backup GNU `cp` and
/// `mv` make), saying so; nothing when there is none.
fn move_aside(hp: &Path) -> Result<(), String> {
    if std::fs::symlink_metadata(hp).is_err() {
        return Ok(());
    }
    for n in 1..=MAX_KEPT_ASIDE {
        let mut aside = hp.as_os_str().to_os_string();
        aside.push(format!(".~{n}~"));
        let aside = PathBuf::from(aside);
        if std::fs::symlink_metadata(&aside).is_ok() {
            continue;
        }
        std::fs::rename(hp, &aside).map_err(|e| {
            format!(
                "cannot move {} aside to {}: {e}",
                hp.display(),
                aside.display()
            )
        })?;
        say!(
            "{} moved aside to {}: the program's runtime writes its own .hp there",
            hp.display(),
            aside.display()
        );
        return Ok(());
    }
    Err(format!(
        "{} and {MAX_KEPT_ASIDE} earlier ones kept aside are there: remove some, as the \
         runtime would write over {0}",
        hp.display()
    ))
}

/// `PROGRAM` + `ext` in the current folder, as GHC names the files a program writes.
fn sibling(program: &Path, ext: &str) -> PathBuf {
    let mut name = program
        .file_name()
        .unwrap_or(program.as_os_str())
        .to_os_string();
    name.push(ext);
    PathBuf::from(name)
}

/// hpgraph's options for drawing the kept eventlog: the page `PROGRAM.html` unless
/// another output is asked for.
fn drawing_args(run: &RunArgs, keep: &Path, program: &Path) -> Args {
    let mut raw = run.rest.clone();
    raw.push(keep.as_os_str().to_os_string());
    let mut args = parse_args(raw.into_iter());
    if args.files.len() != 1 || args.compare || args.connect.is_some() {
        usage(
            "hpgraph run draws the program's own eventlog: give no profile, --compare or \
             --connect (draw a kept eventlog with `hpgraph FILE`)",
        );
    }
    let asked = args.output.is_some()
        || args.summary.is_some()
        || args.stats.is_some()
        || args.format.is_some()
        || args.serve.is_some();
    if !asked {
        args.output = Some(sibling(program, ".html"));
    }
    args
}

/// A command line `run` cannot take: said with the run's usage line, status 2.
fn usage(message: &str) -> ! {
    say!("{message}");
    eprintln!(
        "\nUsage: hpgraph run [OPTIONS] -- PROGRAM [ARGS...]\n\nFor more information, try 'hpgraph run --help'."
    );
    std::process::exit(2)
}

/// Says why the program cannot be run (what it wrote when asked may be in it: [`say!`]
/// writes it out as text).
fn set_up_failed(e: &SetUp) -> ExitCode {
    say!("{e}");
    ExitCode::from(2)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Past [`MAX_KEPT_ASIDE`] earlier files the run is refused and nothing moves; below
    /// it the first free number is taken and the earlier ones stay as they were.
    #[test]
    fn an_hp_is_moved_aside_to_the_first_free_number_and_never_over_one() {
        let dir = std::env::temp_dir().join(format!("hpgraph-aside-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let hp = dir.join("p.hp");
        let aside = |n: u32| dir.join(format!("p.hp.~{n}~"));
        assert_eq!(move_aside(&hp), Ok(()), "no .hp: nothing to do");
        std::fs::write(&hp, "one").unwrap();
        std::fs::write(aside(1), "kept").unwrap();
        move_aside(&hp).unwrap();
        assert!(!hp.exists());
        assert_eq!(std::fs::read_to_string(aside(1)).unwrap(), "kept");
        assert_eq!(std::fs::read_to_string(aside(2)).unwrap(), "one");
        for n in 3..=MAX_KEPT_ASIDE {
            std::fs::write(aside(n), "").unwrap();
        }
        std::fs::write(&hp, "last").unwrap();
        let e = move_aside(&hp).unwrap_err();
        assert!(e.contains("1000 earlier ones"), "{e}");
        assert_eq!(std::fs::read_to_string(&hp).unwrap(), "last");
        assert!(!aside(MAX_KEPT_ASIDE + 1).exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
