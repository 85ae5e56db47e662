//! `--watch`: follow a profile that a running program is still writing.
//!
//! The file is read incrementally: the parser keeps its state and the byte offset, and
//! each wake-up feeds it only the bytes appended since (an unfinished last line waits in
//! a small carry-over buffer until its end arrives). When the file has grown, and at most
//! once per interval, the complete samples so far are rendered; every picture is written
//! to a temporary file and renamed over the output, so a viewer never sees half of one.
//! The file being replaced (a new inode: the program was run again) or shrinking starts
//! the reading over; a missing file is waited for. inotify (through `notify`) wakes the
//! loop as soon as the file changes; a poll every interval is the fallback.
//!
//! With `--serve` each rendering is the live HTML page and the profile's JSON, handed to
//! the [server](crate::serve) (and the file of `-o`, when given, is written as well); the
//! server is also told when the program is waited for or has started again.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::naming::{Input, Plan};
use super::run::{Timings, draw, prepare, print_warning};
use super::{Args, OutputKind};
use crate::backend::Format;
use crate::export::Export;
use crate::input::{Reader, Warning};
use crate::serve::{Server, Status};

/// How often the stop flag is looked at while waiting.
const TICK: Duration = Duration::from_millis(50);

/// The reading position in the watched file.
struct Tail {
    parser: Reader,
    /// Bytes of the file consumed so far, carry-over included.
    offset: u64,
    /// The unfinished last line, waiting for its end.
    carry: Vec<u8>,
    /// Identity of the file being read, to notice it being replaced.
    id: FileId,
    /// A parse error stopped this reading; wait for the file to start over.
    failed: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
struct FileId(u64, u64);

fn file_id(meta: &std::fs::Metadata) -> FileId {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        FileId(meta.dev(), meta.ino())
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        FileId(0, 0)
    }
}

impl Tail {
    fn new(id: FileId, options: crate::input::Options) -> Tail {
        Tail {
            parser: Reader::with_options(options),
            offset: 0,
            carry: Vec::new(),
            id,
            failed: false,
        }
    }

    /// Feeds the bytes appended since the last call. Returns whether anything was read.
    fn catch_up(&mut self, path: &Path, name: &str) -> bool {
        if self.failed {
            return false;
        }
        let mut new = Vec::new();
        let read = File::open(path).and_then(|mut f| {
            f.seek(SeekFrom::Start(self.offset))?;
            f.read_to_end(&mut new)
        });
        if read.is_err() || new.is_empty() {
            return false;
        }
        self.offset += new.len() as u64;
        self.carry.extend_from_slice(&new);
        match self.parser.feed(&self.carry, false) {
            Ok(used) => {
                self.carry.drain(..used);
                if self.carry.len() > self.parser.max_record() {
                    eprintln!(
                        "hpgraph: {name}: a record longer than it can be: not a heap profile"
                    );
                    self.failed = true;
                }
            }
            Err(e) => {
                eprintln!("hpgraph: {name}{}", e.located());
                eprintln!("hpgraph: {name}: waiting for the file to be written again");
                self.failed = true;
            }
        }
        true
    }
}

/// Watches `plan`'s input until SIGINT or SIGTERM; returns when asked to stop.
pub fn watch(
    args: &Args,
    format: OutputKind,
    plan: &Plan,
    interval: Duration,
) -> anyhow::Result<()> {
    let Input::File(path) = &plan.input else {
        anyhow::bail!("--watch needs a file to follow, not standard input");
    };
    let name = plan.input.display();
    let stop = Arc::new(AtomicBool::new(false));
    for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        signal_hook::flag::register(signal, Arc::clone(&stop))?;
    }
    let (wake, woken) = mpsc::channel::<()>();
    let _watcher = notify_on_change(path, wake);
    let server = args.serve.map(|addr| serve(addr, &name)).transpose()?;
    // With --serve, a file only when -o asks for one.
    let to_file = server.is_none() || args.output.is_some();
    // A live page's JSON keeps the marks, whatever the picture draws.
    let read_options = if server.is_some() {
        args.read_options(OutputKind::Data(Export::Json))
    } else {
        args.read_options(format)
    };

    let mut tail: Option<Tail> = None;
    let mut changed = false;
    let mut last_render: Option<Instant> = None;
    // Samples and marks in the latest picture: growth that completes neither (part of a
    // sample) does not need a new one.
    let mut drawn: Option<(usize, usize)> = None;
    let mut printed: Vec<Warning> = Vec::new();
    let mut said_waiting = false;
    let mut read_before = false;
    let mut children: Vec<Child> = Vec::new();
    while !stop.load(Ordering::Relaxed) {
        match std::fs::metadata(path) {
            Err(_) => {
                if !said_waiting && !args.quiet {
                    eprintln!("hpgraph: waiting for {name}");
                }
                said_waiting = true;
                if let Some(server) = &server {
                    server.set_status(Status::Waiting);
                }
                tail = None;
            }
            Ok(meta) => {
                said_waiting = false;
                let id = file_id(&meta);
                let restart = match &tail {
                    None => true,
                    Some(t) => t.id != id || meta.len() < t.offset,
                };
                if restart {
                    if tail.is_some() && !args.quiet {
                        eprintln!("hpgraph: {name} was replaced or cut short: reading it again");
                    }
                    if let Some(server) = &server
                        && read_before
                    {
                        server.set_status(Status::Restarted);
                    }
                    read_before = true;
                    tail = Some(Tail::new(id, read_options));
                    printed.clear();
                    drawn = None;
                    changed = true;
                }
                let t = tail.as_mut().expect("set above");
                if meta.len() > t.offset {
                    changed |= t.catch_up(path, &name);
                }
            }
        }
        let due = last_render.is_none_or(|at| at.elapsed() >= interval);
        if changed && due {
            changed = false;
            if let Some(t) = tail.as_ref().filter(|t| !t.failed)
                && drawn != Some(t.parser.progress())
            {
                last_render = Some(Instant::now());
                drawn = Some(t.parser.progress());
                let out = Out {
                    file: to_file.then_some((format, plan)),
                    server: server.as_ref(),
                };
                render(args, out, t, &name, &mut printed, &mut children);
            }
        }
        children.retain_mut(|c| matches!(c.try_wait(), Ok(None)));
        // Sleep until the file changes, the next render is due, or the next look at the
        // stop flag.
        let until_due = last_render.map_or(TICK, |at| interval.saturating_sub(at.elapsed()));
        let _ = woken.recv_timeout(until_due.clamp(Duration::from_millis(1), TICK));
        while woken.try_recv().is_ok() {}
    }
    if let Some(server) = server {
        server.stop();
    }
    for mut c in children {
        let _ = c.wait();
    }
    Ok(())
}

/// Starts the live view's server and says where it is.
fn serve(addr: std::net::SocketAddr, name: &str) -> anyhow::Result<Server> {
    let mut waiting = Vec::new();
    crate::backend::html::waiting_page(name, &mut waiting)?;
    let server =
        Server::start(addr, waiting).map_err(|e| anyhow::anyhow!("cannot serve on {addr}: {e}"))?;
    let addr = server.addr();
    if !crate::serve::is_loopback(&addr) {
        eprintln!(
            "hpgraph: warning: serving on {addr}, which is not a loopback address: anyone \
             who can reach this machine on port {} can read the profile",
            addr.port()
        );
    }
    eprintln!("hpgraph: serving http://{addr}/");
    Ok(server)
}

/// Where a watch's pictures go: the file of the plan, the live server, or both.
struct Out<'a> {
    file: Option<(OutputKind, &'a Plan)>,
    server: Option<&'a Server>,
}

fn render(
    args: &Args,
    out: Out,
    tail: &Tail,
    name: &str,
    printed: &mut Vec<Warning>,
    children: &mut Vec<Child>,
) {
    let parsed = match tail.parser.snapshot() {
        Ok(p) => p,
        Err(e) if e.is_no_samples() => return, // not yet
        Err(e) => {
            eprintln!("hpgraph: {name}: {e}");
            return;
        }
    };
    for w in parsed.warnings {
        if !printed.contains(&w) {
            print_warning(name, &w);
            printed.push(w);
        }
    }
    let start = Instant::now();
    let mut result = Ok(None);
    if let Some(server) = out.server {
        result = publish(args, server, name, parsed.profile.clone()).map(Some);
    }
    if let (Ok(_), Some((format, plan))) = (&result, out.file) {
        result = draw(args, format, plan, parsed.profile, &mut Timings(None)).map(Some);
    }
    match result {
        Ok(None) => {}
        Ok(Some(drawn)) => {
            if !args.quiet {
                let plural =
                    |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
                eprintln!(
                    "hpgraph: {name}: {}, {}, drawn in {:.1} ms",
                    plural(drawn.samples, "sample"),
                    plural(drawn.bands, "band"),
                    start.elapsed().as_secs_f64() * 1e3
                );
            }
            if let Some(cmd) = &args.exec {
                // Not waited for: a slow command must not hold up the next picture.
                match Command::new("sh").arg("-c").arg(cmd).spawn() {
                    Ok(child) => children.push(child),
                    Err(e) => eprintln!("hpgraph: cannot run --exec command: {e}"),
                }
            }
        }
        Err(e) => eprintln!("hpgraph: {e:#}"),
    }
}

/// Makes the live page and the profile's JSON and hands them to the server.
fn publish(
    args: &Args,
    server: &Server,
    name: &str,
    profile: crate::profile::Profile,
) -> anyhow::Result<super::run::Drawn> {
    let data = prepare(
        args,
        OutputKind::Data(Export::Json),
        name,
        profile.clone(),
        None,
    )?
    .bytes(args, false)?;
    let page = prepare(args, OutputKind::Picture(Format::Html), name, profile, None)?;
    let drawn = page.drawn();
    server.publish(page.bytes(args, true)?, data, drawn.samples);
    Ok(drawn)
}

/// Wakes the loop when anything changes in the file's folder (the file itself may not
/// exist yet, or be replaced). `None` when inotify is not available: polling remains.
fn notify_on_change(path: &Path, wake: mpsc::Sender<()>) -> Option<notify::RecommendedWatcher> {
    use notify::Watcher;
    let dir: PathBuf = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let file = path.file_name()?.to_owned();
    let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        if let Ok(event) = event
            && event.paths.iter().any(|p| p.file_name() == Some(&file))
        {
            let _ = wake.send(());
        }
    })
    .ok()?;
    watcher
        .watch(&dir, notify::RecursiveMode::NonRecursive)
        .ok()?;
    Some(watcher)
}
