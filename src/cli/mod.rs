//! The command line: hp2ps's flags and file naming, plus everything hpgraph adds.
//!
//! [`args`] is clap's definition of the options, [`settings`] reads them once into a
//! resolved run description, and `run` and [`watch`] carry it out; [`main`] only ties
//! them together and turns errors into exit codes.

/// Prints one message on standard error as every message is printed: `hpgraph: `, then
/// the text with every character a terminal acts on written out
/// ([`hpgraph::escape::terminal`]), a newline too. The names a message carries (a file's,
/// a program's, a symbol's, a band's) reach the terminal as text, and a newline in one
/// cannot forge a line of its own. Escaped text escapes to itself, so a message whose
/// names the library wrote out already prints alike: the one boundary to the terminal.
macro_rules! say {
    ($($arg:tt)*) => {
        eprintln!("hpgraph: {}", hpgraph::escape::terminal(&format!($($arg)*)))
    };
}

pub mod args;
pub mod argv;
mod generate;
mod launch;
pub mod naming;
mod oneshot;
pub mod settings;
pub mod values;
pub mod verdict;
pub mod watch;

use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;

use clap::{CommandFactory, Parser, error::ErrorKind};

pub use args::Args;
use settings::{Run, Settings};

use hpgraph::check;

/// Runs hpgraph with the process's arguments.
pub fn main() -> ExitCode {
    let raw: Vec<OsString> = std::env::args_os().skip(1).collect();
    if launch::is_run(&raw) {
        return launch::main(raw[1..].to_vec());
    }
    let args = parse_args(raw.into_iter());
    if let Some(what) = args.generate {
        return match generate::write(what, &mut std::io::stdout().lock()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => failed(&anyhow::Error::new(e).context("cannot write")),
        };
    }
    let settings = Settings::resolve(&args)
        .unwrap_or_else(|e| usage_exit(Args::command().error(e.kind, e.message)));
    let Settings {
        mut job,
        run,
        checks,
    } = settings;
    if let Err(e) = read_binary(&mut job, args.binary.as_deref()) {
        return failed(&e);
    }
    if !matches!(run, Run::Watch { .. })
        && let Err(e) = hpgraph::sink::clean_up_on_signals()
    {
        say!("warning: cannot watch for signals: {e}");
    }
    let mut code = ExitCode::SUCCESS;
    let mut verdicts = Vec::new();
    let mut judged = |result: anyhow::Result<Option<check::report::Verdicts>>| match result {
        Ok(v) => verdicts.extend(v),
        Err(e) => code = failed(&e),
    };
    match run {
        Run::Watch { plan, live } => {
            let stop = std::sync::Arc::default();
            judged(watch::watch(
                &job,
                &live,
                &plan,
                stop,
                None,
                &checks.conditions,
            ))
        }
        Run::Compare(compare) => judged(oneshot::compare(&job, &compare, &checks.conditions)),
        Run::Render { plans, same_scale } => {
            if let Some(axes) = same_scale {
                oneshot::same_scale(&mut job, &plans, axes);
            }
            for plan in &plans {
                judged(oneshot::render_one(&job, plan, &checks.conditions));
            }
        }
    }
    if checks.any() {
        return verdict::finish(&checks, verdicts, code != ExitCode::SUCCESS);
    }
    code
}

/// `--binary`: the program's symbols, read once for the job.
fn read_binary(
    job: &mut hpgraph::engine::Job,
    binary: Option<&std::path::Path>,
) -> anyhow::Result<()> {
    if let Some(path) = binary {
        let names = hpgraph::input::symbols::InfoNames::read(path).map_err(anyhow::Error::msg)?;
        job.binary = Some(std::sync::Arc::new(names));
    }
    Ok(())
}

/// Says why a run failed, `hpgraph: ` first as every message, and gives its status. A
/// reader that closed standard output early (`hpgraph … | head`) is no failure: the run
/// ends quietly with success, as the reader wanted no more, so that `set -o pipefail`
/// scripts do not fail on it.
fn failed(e: &anyhow::Error) -> ExitCode {
    let closed_pipe = e.chain().any(|cause| {
        let io = match (
            cause.downcast_ref::<hpgraph::sink::WriteError>(),
            cause.downcast_ref::<hpgraph::error::Error>(),
        ) {
            (Some(write), _) | (_, Some(hpgraph::error::Error::Write(write))) => {
                Some(&write.source)
            }
            _ => cause.downcast_ref::<std::io::Error>(),
        };
        io.is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    });
    if closed_pipe {
        return ExitCode::SUCCESS;
    }
    let _ = std::io::stdout().flush();
    say!("{e:#}");
    ExitCode::FAILURE
}

/// Prints a usage error as every other message is printed (`hpgraph: `, not clap's
/// `error: `), with the usage line of the whole command (clap's names only the option it
/// guessed at), and exits with status 2. Help and version go out as clap writes them,
/// and a failure to write them (`--help > /dev/full`) exits 1, as any write error does.
fn usage_exit(e: clap::Error) -> ! {
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion)
        || e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    {
        if let Err(err) = e.print().and_then(|()| std::io::stdout().flush())
            && err.kind() != std::io::ErrorKind::BrokenPipe
        {
            say!("cannot write the help: {err}");
            std::process::exit(1)
        }
        std::process::exit(0)
    }
    let text = e.render().to_string();
    let text = text.strip_prefix("error: ").unwrap_or(&text);
    let usage = Args::command().render_usage().to_string();
    let mut out = String::from("hpgraph: ");
    for line in text.lines() {
        // clap's lines quote what was typed: each is written out as say! writes a message.
        if line.starts_with("Usage: ") {
            out.push_str(&usage);
        } else {
            out.push_str(&hpgraph::escape::terminal(line));
        }
        out.push('\n');
    }
    let _ = std::io::stdout().flush();
    eprint!("{out}");
    std::process::exit(2)
}

/// Parses the arguments, exiting with a usage message (status 2) when they are wrong.
fn parse_args(raw: impl Iterator<Item = OsString>) -> Args {
    let normalised = match argv::normalise(raw) {
        Ok(a) => a,
        Err(bad) => usage_exit(Args::command().error(
            ErrorKind::UnknownArgument,
            format!(
                "invalid option '{}': {}",
                hpgraph::escape::terminal(&bad.arg),
                bad.why
            ),
        )),
    };
    let named = |args: Vec<OsString>| std::iter::once(OsString::from("hpgraph")).chain(args);
    Args::try_parse_from(named(normalised.clone())).unwrap_or_else(|e| {
        // clap quotes what was typed, and a newline in it would start a line of its own
        // (clap strips an escape sequence but keeps the newline): the same words written
        // out give the same error, every character of them safe to print.
        let shown = (normalised.iter())
            .map(|a| OsString::from(hpgraph::escape::terminal(&a.to_string_lossy()).as_ref()))
            .collect();
        match Args::try_parse_from(named(shown)) {
            Err(safe) if safe.kind() == e.kind() => usage_exit(safe),
            _ => usage_exit(e),
        }
    })
}

/// Prints how long each stage took when `HPGRAPH_TIMINGS` is set (for benchmarks), and
/// on Linux the peak memory so far (which stage a run's peak is in).
pub(crate) struct Timings(pub(crate) Option<std::time::Instant>);

/// The process's peak resident memory so far, where the system says (`VmHWM`).
fn peak_memory() -> String {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    (status.lines())
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|kb| kb.trim().trim_end_matches(" kB").parse::<u64>().ok())
        .map_or(String::new(), |kb| format!(", peak {} MB", kb / 1024))
}

impl Timings {
    pub(crate) fn start() -> Self {
        Timings(std::env::var_os("HPGRAPH_TIMINGS").map(|_| std::time::Instant::now()))
    }
    pub(crate) fn lap(&mut self, stage: &str) {
        if let Some(t) = &mut self.0 {
            say!(
                "{stage}: {:.1} ms{}",
                t.elapsed().as_secs_f64() * 1e3,
                peak_memory()
            );
            *t = std::time::Instant::now();
        }
    }
}
