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
use super::run::{reused_aux, say, write};
use super::settings::{Live, Serve};
use crate::engine::{self, Drawn, Job, Said};
use crate::input::prof::retainers::Sets;
use crate::input::{Reader, Warning, stream};
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

    /// Feeds the bytes appended to the file since the last call. Returns whether
    /// anything was read.
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
        if let Err(e) = self.take(&new) {
            eprintln!("hpgraph: {name}{e}");
            eprintln!("hpgraph: {name}: waiting for the file to be written again");
        }
        true
    }

    /// The input has ended: its last record needs no newline.
    fn end(&mut self) -> Result<(), String> {
        match self.parser.feed(&self.carry, true) {
            Ok(used) => {
                self.carry.drain(..used);
                Ok(())
            }
            Err(e) => {
                self.failed = true;
                Err(e.located())
            }
        }
    }

    /// Feeds the next bytes of the input; an error (as `: what` or `:LINE: what`) stops
    /// this reading.
    fn take(&mut self, new: &[u8]) -> Result<(), String> {
        self.offset += new.len() as u64;
        self.carry.extend_from_slice(new);
        let result = match self.parser.feed(&self.carry, false) {
            Ok(used) => {
                self.carry.drain(..used);
                if self.carry.len() > self.parser.max_record() {
                    Err(": a record longer than it can be: not a heap profile".to_string())
                } else {
                    Ok(())
                }
            }
            Err(e) => Err(e.located()),
        };
        self.failed = result.is_err();
        result
    }
}

/// Watches `plan`'s input until SIGINT, SIGTERM or SIGHUP, or until a stream ends when nothing
/// is served.
pub fn watch(job: &Job, live: &Live, plan: &Plan) -> anyhow::Result<()> {
    let name = plan.input.display();
    let stop = Arc::new(AtomicBool::new(false));
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    // A closed terminal (SIGHUP) stops it as ^C does: after the redraw being written.
    for signal in [SIGINT, SIGTERM, SIGHUP] {
        signal_hook::flag::register(signal, Arc::clone(&stop))?;
    }
    let server = live
        .serve
        .as_ref()
        .map(|s| serve(s.addr, &name))
        .transpose()?;
    let out = Out {
        job,
        file: live.to_file.then_some(plan),
        server: server.as_ref().zip(live.serve.as_ref()),
        input: plan,
        said_sets: std::cell::Cell::new(false),
    };
    // A stream's reader runs until the stream ends; a pipe or FIFO that ends while a
    // page is served is opened again for the program's next run.
    let again = server.is_some();
    let (tx, rx) = stream::channel();
    let result = match &plan.input {
        Input::File(path) if !super::naming::is_stream(path) => {
            follow_file(path, name, job, live, &out, &stop);
            Ok(())
        }
        Input::File(path) => {
            let path = path.clone();
            stream::spawn(move || File::open(&path), tx, again);
            follow_stream(rx, Kind::Pipe, name, job, live, &out, &stop)
        }
        Input::Stdin => {
            stream::spawn(|| Ok(std::io::stdin()), tx, false);
            follow_stream(rx, Kind::Pipe, name, job, live, &out, &stop)
        }
        Input::Socket(endpoint) => {
            stream::connect(endpoint.clone(), tx, Arc::clone(&stop));
            follow_stream(rx, Kind::Socket, name, job, live, &out, &stop)
        }
    };
    stop.store(true, Ordering::Relaxed);
    if let Some(server) = server {
        server.stop();
    }
    result
}

/// Follows a file that a program writes, until asked to stop.
fn follow_file(path: &Path, name: String, job: &Job, live: &Live, out: &Out, stop: &AtomicBool) {
    let (wake, woken) = mpsc::channel::<()>();
    let _watcher = notify_on_change(path, wake);
    let mut follower = Follower::new(Some(path), name, job.read, live);
    while !stop.load(Ordering::Relaxed) {
        follower.look(out.server.map(|(s, _)| s));
        follower.render_if_due(out);
        let _ = woken.recv_timeout(follower.sleep());
        while woken.try_recv().is_ok() {}
    }
    follower.finish();
}

/// What kind of stream is followed.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Standard input or a FIFO: its end is the program's.
    Pipe,
    /// eventlog-socket's socket: connected again when lost.
    Socket,
}

/// Follows a stream's events until asked to stop, or until a pipe ends when nothing is
/// served. A stream that is not a profile fails as a file would.
fn follow_stream(
    rx: mpsc::Receiver<stream::Event>,
    kind: Kind,
    name: String,
    job: &Job,
    live: &Live,
    out: &Out,
    stop: &AtomicBool,
) -> anyhow::Result<()> {
    let server = out.server.map(|(s, _)| s);
    let mut follower = Follower::new(None, name, job.read, live);
    let mut lost_said = false;
    while !stop.load(Ordering::Relaxed) {
        let event = match rx.recv_timeout(follower.sleep()) {
            Ok(e) => Some(e),
            Err(mpsc::RecvTimeoutError::Timeout) => None,
            // The reader is done (a pipe ended): a served page stays until Ctrl-C.
            Err(mpsc::RecvTimeoutError::Disconnected) if server.is_some() => {
                std::thread::sleep(TICK);
                None
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        };
        match event {
            None => {}
            Some(stream::Event::Began) => {
                if lost_said && !live.quiet {
                    eprintln!("hpgraph: {}: connected", follower.name);
                }
                lost_said = false;
                follower.restart(server);
            }
            Some(stream::Event::Bytes(bytes)) => {
                if let Some(t) = follower.tail.as_mut().filter(|t| !t.failed) {
                    if let Err(e) = t.take(&bytes) {
                        // A socket's next connection is a new stream: this one's fault
                        // ends this one only (the reader stays failed until then).
                        if kind == Kind::Pipe {
                            anyhow::bail!("{}{e}", follower.name);
                        }
                        eprintln!("hpgraph: {}{e}", follower.name);
                    }
                    follower.changed = true;
                }
            }
            Some(stream::Event::Ended) if stream_ended(&mut follower, kind, live, out, server)? => {
                break;
            }
            Some(stream::Event::Ended) => {}
            Some(stream::Event::Lost(why)) => {
                if !lost_said && !live.quiet {
                    eprintln!(
                        "hpgraph: {}: cannot connect ({why}): trying again",
                        follower.name
                    );
                }
                lost_said = true;
                if let Some(server) = server {
                    server.set_status(if follower.read_before {
                        Status::Reconnecting
                    } else {
                        Status::Waiting
                    });
                }
            }
        }
        follower.render_if_due(out);
    }
    follower.finish();
    Ok(())
}

/// A stream's end: the last picture, the status, and for a pipe not served, the end of
/// the run (`Ok(true)`), failing as the same file would where it gave no picture.
fn stream_ended(
    follower: &mut Follower,
    kind: Kind,
    live: &Live,
    out: &Out,
    server: Option<&Server>,
) -> anyhow::Result<bool> {
    if let Some(t) = follower.tail.as_mut().filter(|t| !t.failed) {
        if let Err(e) = t.end() {
            // A connection cut anywhere, its header included, is connected
            // again: only a pipe's end is the program's.
            if kind == Kind::Pipe {
                anyhow::bail!("{}{e}", follower.name);
            }
            if !live.quiet {
                eprintln!("hpgraph: {}{e}", follower.name);
            }
        }
        follower.changed = true;
    }
    // The last picture, whatever the interval: the stream has no more.
    follower.last_render = None;
    follower.render_if_due(out);
    let complete = follower.tail.as_ref().is_some_and(|t| t.parser.ended());
    let status = match kind {
        Kind::Socket if !complete => Status::Reconnecting,
        _ => Status::Ended,
    };
    if let Some(server) = server {
        server.set_status(status);
    }
    if !live.quiet {
        eprintln!(
            "hpgraph: {}: {}",
            follower.name,
            match status {
                Status::Reconnecting => "the connection was lost: connecting again",
                _ if kind == Kind::Socket => "the program ended: waiting for its next run",
                _ => "the stream ended",
            }
        );
    }
    if kind == Kind::Pipe && server.is_none() {
        // A stream that never gave a picture fails as the same file would,
        // and an empty one says so.
        match follower.tail.as_ref() {
            Some(t) if t.offset == 0 => anyhow::bail!(
                "{}: the stream ended before any byte came (is the program \
                     writing its profile there?)",
                follower.name
            ),
            Some(t) => {
                if let Err(e) = t.parser.snapshot() {
                    anyhow::bail!("{}{}", follower.name, e.located());
                }
            }
            None => anyhow::bail!("{}: contains no samples", follower.name),
        }
        return Ok(true);
    }
    Ok(false)
}

/// The state of a watch between wake-ups.
struct Follower<'a> {
    /// The file followed; `None` for a stream.
    path: Option<&'a Path>,
    name: String,
    read: crate::input::Options,
    live: &'a Live,
    tail: Option<Tail>,
    /// The file grew since the last picture.
    changed: bool,
    last_render: Option<Instant>,
    /// Samples and marks in the latest picture: growth that completes neither (part of
    /// a sample) does not need a new one.
    drawn: Option<(usize, usize)>,
    /// Warnings already printed for this reading.
    printed: Vec<Warning>,
    said_waiting: bool,
    read_before: bool,
    /// `--exec` commands still running.
    children: Vec<Child>,
}

impl<'a> Follower<'a> {
    fn new(
        path: Option<&'a Path>,
        name: String,
        read: crate::input::Options,
        live: &'a Live,
    ) -> Self {
        Follower {
            path,
            name,
            read,
            live,
            tail: None,
            changed: false,
            last_render: None,
            drawn: None,
            printed: Vec::new(),
            said_waiting: false,
            read_before: false,
            children: Vec::new(),
        }
    }

    /// Looks at the file: waits for it, starts the reading over when it was replaced or
    /// cut short, and reads what was appended.
    fn look(&mut self, server: Option<&Server>) {
        let Some(path) = self.path else {
            return;
        };
        let meta = match std::fs::metadata(path) {
            Ok(meta) => meta,
            Err(_) => {
                if !self.said_waiting && !self.live.quiet {
                    eprintln!("hpgraph: waiting for {}", self.name);
                }
                self.said_waiting = true;
                if let Some(server) = server {
                    server.set_status(Status::Waiting);
                }
                self.tail = None;
                return;
            }
        };
        self.said_waiting = false;
        let id = file_id(&meta);
        let restart = match &self.tail {
            None => true,
            Some(t) => t.id != id || meta.len() < t.offset,
        };
        if restart {
            if self.tail.is_some() && !self.live.quiet {
                eprintln!(
                    "hpgraph: {} was replaced or cut short: reading it again",
                    self.name
                );
            }
            self.restart(server);
            if let Some(t) = &mut self.tail {
                t.id = id;
            }
        }
        let t = self.tail.as_mut().expect("set above");
        if meta.len() > t.offset {
            self.changed |= t.catch_up(path, &self.name);
        }
    }

    /// Starts the reading over: a new file, a new stream. The page keeps the last
    /// picture until the new reading has one.
    fn restart(&mut self, server: Option<&Server>) {
        if let Some(server) = server
            && self.read_before
        {
            server.set_status(Status::Restarted);
        }
        self.read_before = true;
        self.tail = Some(Tail::new(FileId(0, 0), self.read));
        self.printed.clear();
        self.drawn = None;
        self.changed = true;
    }

    /// Draws when the file grew by a sample or a mark and the interval has passed.
    fn render_if_due(&mut self, out: &Out) {
        let due = self
            .last_render
            .is_none_or(|at| at.elapsed() >= self.live.interval);
        if self.changed && due {
            self.changed = false;
            if let Some(t) = self.tail.as_ref().filter(|t| !t.failed)
                && self.drawn != Some(t.parser.progress())
            {
                self.last_render = Some(Instant::now());
                self.drawn = Some(t.parser.progress());
                render(
                    self.live,
                    out,
                    t,
                    &self.name,
                    &mut self.printed,
                    &mut self.children,
                );
            }
        }
        self.children
            .retain_mut(|c| matches!(c.try_wait(), Ok(None)));
    }

    /// How long to sleep: until the next render is due, or the next look at the stop
    /// flag.
    fn sleep(&self) -> Duration {
        // Nothing waiting to be drawn: look again a tick later (a change wakes it
        // sooner). Once the interval had passed this was 1 ms: an idle watch looked at
        // its file a thousand times a second.
        if !self.changed {
            return TICK;
        }
        let until_due = self
            .last_render
            .map_or(TICK, |at| self.live.interval.saturating_sub(at.elapsed()));
        until_due.clamp(Duration::from_millis(1), TICK)
    }

    /// Waits for the `--exec` commands still running.
    fn finish(self) {
        for mut c in self.children {
            let _ = c.wait();
        }
    }
}

/// Starts the live view's server and says where it is.
fn serve(addr: std::net::SocketAddr, name: &str) -> anyhow::Result<Server> {
    let mut waiting = Vec::new();
    crate::backend::html::waiting_page(name, &mut waiting)?;
    let policy = crate::backend::html::policy(crate::backend::html::Mode::Live);
    let server = Server::start(addr, waiting, &policy)
        .map_err(|e| anyhow::anyhow!("cannot serve on {addr}: {e}"))?;
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

/// Where a watch's pictures go: the file of the plan (the `.aux` file read first with
/// `-p`), the live server, or both; the job says how the file's output is made, and
/// filters the server's profile too.
struct Out<'a> {
    job: &'a Job,
    file: Option<&'a Plan>,
    server: Option<(&'a Server, &'a Serve)>,
    /// What is read, for a retainer profile's sets (`--retainer-sets`, `STEM.prof`).
    input: &'a Plan,
    /// Whether the sets were named once, or could not be: said once, not per redraw.
    said_sets: std::cell::Cell<bool>,
}

fn render(
    live: &Live,
    out: &Out,
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
    let start = Instant::now();
    // Each warning said once; a retainer profile's sets, as a one-shot run names them,
    // read again at each redraw (GHC writes the report when the run ends), and which
    // report named them, or why none could, said once.
    let said_sets = &out.said_sets;
    let mut tell = |name: &str, said: Said| match said {
        Said::Warning(w) if printed.contains(w) => {}
        Said::Warning(w) => {
            say(name, Said::Warning(w));
            printed.push(w.clone());
        }
        Said::SetsNamed { .. } | Said::SetsUnread(_) if said_sets.get() => {}
        Said::SetsNamed { .. } | Said::SetsUnread(_) => {
            say(name, said);
            said_sets.set(true);
        }
        Said::Note(_) => say(name, said),
    };
    let input = engine::Input {
        name,
        parsed,
        sets: match out.input.sets() {
            Sets::From(file) => Sets::Awaited(file),
            sets => sets,
        },
    };
    let profile = match engine::prepare(out.job, input, &mut tell) {
        Ok(profile) => profile,
        Err(e) => return eprintln!("hpgraph: {e}"),
    };
    let mut result = Ok(None);
    if let Some((server, serve)) = out.server {
        result = publish(serve, server, name, profile.clone(), &mut tell).map(Some);
    }
    if let (Ok(_), Some(plan)) = (&result, out.file) {
        result = reused_aux(out.job, plan).and_then(|aux| {
            let ready = engine::render(&out.job.make, profile, aux.as_ref());
            for note in ready.notes() {
                tell(name, Said::Note(note));
            }
            write(plan, &ready).map(Some)
        });
    }
    match result {
        Ok(None) => {}
        Ok(Some(drawn)) => {
            if !live.quiet {
                let plural =
                    |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
                eprintln!(
                    "hpgraph: {name}: {}, {}, drawn in {:.1} ms",
                    plural(drawn.samples, "sample"),
                    plural(drawn.bands, "band"),
                    start.elapsed().as_secs_f64() * 1e3
                );
            }
            if let Some(cmd) = &live.exec {
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

/// Makes the live page and the profile's JSON (of the profile [`engine::prepare`]d)
/// and hands them to the server.
fn publish(
    serve: &Serve,
    server: &Server,
    name: &str,
    profile: crate::profile::Profile,
    tell: engine::Tell,
) -> anyhow::Result<Drawn> {
    let json = engine::render_data(&serve.data, profile.clone()).bytes()?;
    let page = engine::render_picture(&serve.page, profile, None);
    for note in page.notes() {
        tell(name, Said::Note(note));
    }
    let drawn = page.drawn();
    server.publish(page.bytes()?, json, drawn.samples);
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
