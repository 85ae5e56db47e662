//! `--watch` and `--serve`: a profile a running program is still writing, followed by
//! [`hpgraph::live`], each redraw made by the engine ([`engine::ready`]: the profile
//! prepared and `--check` judged as a one-shot run does, then the picture of `-o` and
//! the served page) and what happened said on stderr. A check's verdict is said when it
//! changes; the last redraw's verdicts are the run's, for its exit status.
//!
//! With `--serve` each redraw is the live HTML page and the profile's JSON, handed to
//! the [server](hpgraph::serve) (and the file of `-o`, when given, is written as well); the
//! server is also told when the program is waited for or has started again.

use std::process::{Child, Command};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::naming::Plan;
use super::oneshot::{reused_aux, say, write};
use super::settings::Live;
use hpgraph::check::{Check, report::Verdicts};
use hpgraph::engine::{self, Job, Notice, Serve, Tally};
use hpgraph::input::Parsed;
use hpgraph::input::prof::retainers::Sets;
use hpgraph::live::{self, Event, Follow, Viewer};
use hpgraph::serve::Server;

/// Watches `plan`'s input until SIGINT, SIGTERM or SIGHUP, until a stream ends when
/// nothing is served, or until `stop` is set (`hpgraph run`: the program ended). A
/// `finale`, once set (`hpgraph run --serve`: the program ended), is drawn and served
/// until stopped. `checks` are judged at each redraw; the verdicts of the last are
/// returned (`None` without checks, or before anything was drawn).
pub fn watch(
    job: &Job,
    live: &Live,
    plan: &Plan,
    stop: Arc<AtomicBool>,
    finale: Option<Arc<std::sync::OnceLock<live::Finale>>>,
    checks: &[Check],
) -> anyhow::Result<Option<Verdicts>> {
    let name = plan.input.display();
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    // A closed terminal (SIGHUP) stops it as ^C does: after the redraw being written.
    for signal in [SIGINT, SIGTERM, SIGHUP] {
        signal_hook::flag::register(signal, Arc::clone(&stop))?;
    }
    let server = (live.serve.as_ref()).map(|s| serve(s, &name)).transpose()?;
    let mut out = Destinations {
        job,
        live,
        name: &name,
        file: live.to_file.then_some(plan),
        server: server.as_ref().zip(live.serve.as_ref()),
        input: plan,
        said_sets: false,
        children: Vec::new(),
        checks,
        verdicts: None,
    };
    let follow = Follow {
        source: plan.input.clone(),
        read: job.read,
        interval: live.interval,
        server: server.as_ref(),
        stop: Arc::clone(&stop),
        finale,
    };
    let result = live::follow(follow, &mut out).map_err(|e| anyhow::anyhow!("{name}{e}"));
    for mut child in std::mem::take(&mut out.children) {
        let _ = child.wait();
    }
    let verdicts = out.verdicts.take();
    drop(out);
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    if let Some(server) = server {
        server.stop();
    }
    result.map(|()| verdicts)
}

/// Where a watch's pictures go: the file of the plan (the `.aux` file read first with
/// `-p`), the live server, or both; the job says how the file's output is made, and
/// filters the server's profile too.
struct Destinations<'a> {
    job: &'a Job,
    live: &'a Live,
    name: &'a str,
    file: Option<&'a Plan>,
    server: Option<(&'a Server, &'a Serve)>,
    /// What is read, for a retainer profile's sets (`--retainer-sets`, `STEM.prof`).
    input: &'a Plan,
    /// Whether the sets were named once, or could not be: said once, not per redraw.
    said_sets: bool,
    /// `--exec` commands still running.
    children: Vec<Child>,
    /// `--check`'s conditions, judged at each redraw.
    checks: &'a [Check],
    /// The last redraw's verdicts.
    verdicts: Option<Verdicts>,
}

impl Viewer for Destinations<'_> {
    fn redraw(&mut self, parsed: Parsed) {
        let start = Instant::now();
        let name = self.name;
        let result = self.draw(parsed);
        match result {
            Ok(None) => {}
            Ok(Some(drawn)) => {
                if !self.live.quiet {
                    let plural = |n: usize, what: &str| {
                        format!("{n} {what}{}", if n == 1 { "" } else { "s" })
                    };
                    say!(
                        "{name}: {}, {}, drawn in {:.1} ms",
                        plural(drawn.samples, "sample"),
                        plural(drawn.bands, "band"),
                        start.elapsed().as_secs_f64() * 1e3
                    );
                }
                if let Some(cmd) = &self.live.exec {
                    // Not waited for: a slow command must not hold up the next picture.
                    match Command::new("sh").arg("-c").arg(cmd).spawn() {
                        Ok(child) => self.children.push(child),
                        Err(e) => say!("cannot run --exec command: {e}"),
                    }
                }
            }
            Err(e) => say!("{e:#}"),
        }
        self.children
            .retain_mut(|c| matches!(c.try_wait(), Ok(None)));
    }

    fn tell(&mut self, event: Event) {
        if self.live.quiet && event.is_status() {
            return;
        }
        let name = self.name;
        match event {
            Event::Waiting => say!("waiting for {name}"),
            Event::Replaced => {
                say!("{name} was replaced or cut short: reading it again")
            }
            Event::Broken { error, waits } => {
                say!("{name}{error}");
                if waits {
                    say!("{name}: waiting for the file to be written again");
                }
            }
            Event::Cut(error) => say!("{name}{error}"),
            Event::Connected => say!("{name}: connected"),
            Event::Lost(why) => say!("{name}: cannot connect ({why}): trying again"),
            Event::Ended(what) | Event::Unreadable(what) => say!("{name}: {what}"),
        }
    }
}

impl Destinations<'_> {
    /// The engine's redraw: the profile prepared once, then the served page and the
    /// picture of `-o`. What was drawn, `None` where nothing was.
    fn draw(&mut self, parsed: Parsed) -> anyhow::Result<Option<Tally>> {
        let name = self.name;
        // A retainer profile's sets, as a one-shot run names them, read again at each
        // redraw (GHC writes the report when the run ends); which report named them, or
        // why none could, said once.
        let said_sets = &mut self.said_sets;
        let mut tell = |name: &str, said: Notice| match said {
            Notice::SetsNamed { .. } | Notice::SetsUnread(_) if *said_sets => {}
            Notice::SetsNamed { .. } | Notice::SetsUnread(_) => {
                say(name, said);
                *said_sets = true;
            }
            _ => say(name, said),
        };
        let input = engine::Input {
            name,
            parsed,
            sets: match self.input.sets() {
                Sets::From(file) => Sets::Awaited(file),
                sets => sets,
            },
        };
        let ready = engine::ready(self.job, input, self.checks, &mut tell);
        let engine::Ready {
            model: profile,
            verdicts,
        } = ready?;
        if let Some(verdicts) = verdicts {
            let before = self.verdicts.replace(verdicts);
            say_verdicts(
                self.name,
                self.live.quiet,
                self.verdicts.as_ref(),
                before.as_ref(),
            );
        }
        let mut drawn = None;
        if let Some((server, serve)) = self.server {
            drawn = Some(serve.publish(server, name, profile.clone(), &mut tell)?);
        }
        if let Some(plan) = self.file {
            let aux = reused_aux(self.job, plan)?;
            let ready = engine::render(&self.job.view, profile, aux.as_ref());
            for note in ready.notes() {
                tell(name, Notice::Note(note));
            }
            drawn = Some(write(plan, &ready)?);
        }
        Ok(drawn)
    }
}

/// Says a redraw's verdicts, `now`, when which conditions hold differs from `before`
/// (the first redraw's always): each failure, or (unless `quiet`) that every condition holds so far.
fn say_verdicts(name: &str, quiet: bool, now: Option<&Verdicts>, before: Option<&Verdicts>) {
    let Some(now) = now else { return };
    // Which conditions hold, and whether any could be judged: a peak that grows past
    // its bound is said once, not at every redraw its figure changes.
    let state = |v: &Verdicts| {
        let held: Vec<bool> = v.conditions.iter().map(|o| o.passed).collect();
        (v.unjudged.is_some(), held)
    };
    if before.is_some_and(|b| state(b) == state(now)) {
        return;
    }
    let lines: Vec<String> = now.failures().collect();
    if lines.is_empty() {
        if !quiet {
            say!("{name}: every check holds so far");
        }
        return;
    }
    for line in lines {
        say!("{line} (so far)");
    }
}

/// Starts the live view's server and says where it is.
fn serve(serve: &Serve, name: &str) -> anyhow::Result<Server> {
    let server =
        (serve.start(name)).map_err(|e| anyhow::anyhow!("cannot serve on {}: {e}", serve.addr))?;
    let addr = server.addr();
    if !hpgraph::serve::is_loopback(&addr) {
        say!(
            "warning: serving on {addr}, which is not a loopback address: anyone \
             who can reach this machine on port {} can read the profile",
            addr.port()
        );
    }
    say!("serving http://{addr}/");
    Ok(server)
}
