//! The live view's reading: a profile a running program is still writing, followed and
//! handed to a [`Viewer`] each time it has grown by a sample or a mark (at most once per
//! interval). What the view makes of it (the engine's picture, the served page) and what
//! it says of what happened ([`Event`]) are the caller's: `--watch` and `--serve` are one
//! [`follow`] and one view.
//!
//! A file is read incrementally: the parser keeps its state and the byte offset, and
//! each wake-up feeds it only the bytes appended since (an unfinished last line waits in
//! a small carry-over buffer until its end arrives). The file being replaced (a new
//! inode: the program was run again) or shrinking starts the reading over; a missing
//! file is waited for. inotify (through `notify`) wakes the loop as soon as the file
//! changes; a poll every interval is the fallback. A stream (standard input, a FIFO,
//! eventlog-socket's socket) is read by [`crate::input::stream`]'s thread; a socket's
//! next connection, and with a server a FIFO's next writer, starts the reading over.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

pub use crate::input::source::Source;
use crate::input::stream;
use crate::input::{Options, Parsed, Reader, Warning};
use crate::serve::{Server, Status};

/// How often the stop flag is looked at while waiting.
const TICK: Duration = Duration::from_millis(50);

/// The most of a followed file's growth held at once.
pub const GROWTH_CHUNK: usize = 1 << 20;

/// How a profile is followed.
pub struct Follow<'a> {
    /// What.
    pub source: Source,
    /// What the reader keeps.
    pub read: Options,
    /// At most one redraw per interval.
    pub interval: Duration,
    /// The live page's server, told when the program is waited for, has started again,
    /// or has ended. A pipe that ends while a page is served is opened again.
    pub server: Option<&'a Server>,
    /// Set (by a signal) to end the follow after the redraw being made.
    pub stop: Arc<AtomicBool>,
    /// Set when the program hpgraph ran has ended (`hpgraph run --serve`): its record is
    /// then read once more, whole, and the page told how the program ended.
    pub finale: Option<Arc<std::sync::OnceLock<Finale>>>,
}

/// The end of a program hpgraph ran: what holds its whole run, and how it ended.
#[derive(Debug, Clone)]
pub struct Finale {
    /// The run's complete record (its eventlog), read whole once the program ended:
    /// what was followed may be another file (the `.hp` of a GHC before 9.2) or lack
    /// the runtime's last events.
    pub record: PathBuf,
    /// How the program ended, as the page says it ("exited with status 0").
    pub how: String,
}

/// What happened to the followed profile, for the view to say.
#[derive(Debug, Clone, Copy)]
pub enum Event<'a> {
    /// The file does not exist (yet): it is waited for. Once a wait.
    Waiting,
    /// The file was replaced or cut short: read again from its start.
    Replaced,
    /// The profile does not read (`: what` or `:LINE: what`): this reading stops; a
    /// file's (`waits`) until the file is written again, a socket's until the next
    /// connection.
    Broken {
        /// What is wrong, located.
        error: &'a str,
        /// A file is waited for to be written again.
        waits: bool,
    },
    /// A socket's connection was cut inside the profile (`: what`): connected again.
    Cut(&'a str),
    /// A socket connected after one was lost.
    Connected,
    /// A connection could not be made or was lost (why): tried again. Once until the
    /// next connection.
    Lost(&'a str),
    /// The stream ended: what happens next.
    Ended(&'a str),
    /// What was read so far makes no profile (why).
    Unreadable(&'a str),
}

impl Event<'_> {
    /// Whether this is a status a quiet view leaves unsaid (not a fault of the profile).
    pub fn is_status(&self) -> bool {
        !matches!(self, Event::Broken { .. } | Event::Unreadable(_))
    }
}

/// What a follow hands what it reads to.
pub trait Viewer {
    /// The profile as read so far; its warnings are the ones not handed before in this
    /// reading.
    fn redraw(&mut self, parsed: Parsed);
    /// What happened.
    fn tell(&mut self, event: Event);
}

/// Follows `follow`'s source until its stop flag is set, or until a pipe ends when
/// nothing is served. An `Err` (`: what` or `:LINE: what`, to follow the input's name)
/// is a pipe whose profile does not read: it fails as the same file would.
pub fn follow(follow: Follow, view: &mut dyn Viewer) -> Result<(), String> {
    let again = follow.server.is_some();
    let (tx, rx) = stream::channel();
    match &follow.source {
        // A FIFO's writer's end is the program's: it is read as a stream, to its end.
        Source::File(path) if !crate::input::path::is_stream(path) => {
            follow_file(path, &follow, view);
            Ok(())
        }
        Source::File(path) => {
            let path = path.clone();
            stream::spawn(move || File::open(&path), tx, again);
            follow_stream(rx, Kind::Pipe, &follow, view)
        }
        Source::Stdin => {
            stream::spawn(|| Ok(std::io::stdin()), tx, false);
            follow_stream(rx, Kind::Pipe, &follow, view)
        }
        Source::Socket(endpoint) => {
            stream::connect(endpoint.clone(), tx, Arc::clone(&follow.stop));
            follow_stream(rx, Kind::Socket, &follow, view)
        }
    }
}

/// The reading position in the followed file or stream.
struct Tail {
    parser: Reader,
    /// Bytes consumed so far, carry-over included.
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
    fn new(id: FileId, options: Options) -> Tail {
        Tail {
            parser: Reader::with_options(options),
            offset: 0,
            carry: Vec::new(),
            id,
            failed: false,
        }
    }

    /// Feeds the bytes appended to the file since the last call, [`GROWTH_CHUNK`] at a
    /// time as `tail -f` reads: a file that jumps by a gigabyte costs a chunk and the
    /// reader's longest record ([`Reader::max_record`]), never its growth. Returns
    /// whether anything was read.
    fn catch_up(&mut self, path: &Path, view: &mut dyn Viewer) -> bool {
        if self.failed {
            return false;
        }
        let Ok(mut file) = File::open(path) else {
            return false;
        };
        if file.seek(SeekFrom::Start(self.offset)).is_err() {
            return false;
        }
        let mut chunk = vec![0u8; GROWTH_CHUNK];
        let mut read = false;
        while let Ok(n @ 1..) = file.read(&mut chunk) {
            read = true;
            if let Err(error) = self.take(&chunk[..n]) {
                view.tell(Event::Broken {
                    error: &error,
                    waits: true,
                });
                break;
            }
        }
        read
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

/// Follows a file that a program writes, until asked to stop.
fn follow_file(path: &Path, follow: &Follow, view: &mut dyn Viewer) {
    let (wake, woken) = mpsc::channel::<()>();
    let _watcher = notify_on_change(path, wake);
    let mut follower = Follower::new(follow);
    while !follow.stop.load(Ordering::Relaxed) {
        if let Some(finale) = follow.finale.as_ref().and_then(|f| f.get()) {
            follower.finish(finale, view);
            // The whole run stays served until asked to stop.
            while !follow.stop.load(Ordering::Relaxed) {
                std::thread::sleep(TICK);
            }
            break;
        }
        follower.look(path, view);
        follower.redraw_if_due(view);
        let _ = woken.recv_timeout(follower.sleep());
        while woken.try_recv().is_ok() {}
    }
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
    follow: &Follow,
    view: &mut dyn Viewer,
) -> Result<(), String> {
    let mut follower = Follower::new(follow);
    let mut lost_said = false;
    while !follow.stop.load(Ordering::Relaxed) {
        let event = match rx.recv_timeout(follower.sleep()) {
            Ok(e) => Some(e),
            Err(mpsc::RecvTimeoutError::Timeout) => None,
            // The reader is done (a pipe ended): a served page stays until Ctrl-C.
            Err(mpsc::RecvTimeoutError::Disconnected) if follow.server.is_some() => {
                std::thread::sleep(TICK);
                None
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        };
        match event {
            None => {}
            Some(stream::Event::Began) => {
                if lost_said {
                    view.tell(Event::Connected);
                }
                lost_said = false;
                follower.restart();
            }
            Some(stream::Event::Bytes(bytes)) => {
                if let Some(t) = follower.tail.as_mut().filter(|t| !t.failed) {
                    if let Err(error) = t.take(&bytes) {
                        // A socket's next connection is a new stream: this one's fault
                        // ends this one only (the reader stays failed until then).
                        if kind == Kind::Pipe {
                            return Err(error);
                        }
                        let waits = false;
                        view.tell(Event::Broken {
                            error: &error,
                            waits,
                        });
                    }
                    follower.changed = true;
                }
            }
            Some(stream::Event::Ended) if follower.stream_ended(kind, view)? => break,
            Some(stream::Event::Ended) => {}
            Some(stream::Event::Lost(why)) => {
                if !lost_said {
                    view.tell(Event::Lost(&why));
                }
                lost_said = true;
                follower.set_status(if follower.read_before {
                    Status::Reconnecting
                } else {
                    Status::Waiting
                });
            }
        }
        follower.redraw_if_due(view);
    }
    Ok(())
}

/// The state of a follow between wake-ups.
struct Follower<'a> {
    follow: &'a Follow<'a>,
    tail: Option<Tail>,
    /// The input grew since the last redraw.
    changed: bool,
    last_redraw: Option<Instant>,
    /// Samples and marks in the latest redraw: growth that completes neither (part of
    /// a sample) does not need a new one.
    drawn: Option<(usize, usize)>,
    /// Warnings already handed to the view in this reading.
    told: Vec<Warning>,
    said_waiting: bool,
    read_before: bool,
}

impl<'a> Follower<'a> {
    fn new(follow: &'a Follow<'a>) -> Self {
        Follower {
            follow,
            tail: None,
            changed: false,
            last_redraw: None,
            drawn: None,
            told: Vec::new(),
            said_waiting: false,
            read_before: false,
        }
    }

    fn set_status(&self, status: Status) {
        if let Some(server) = self.follow.server {
            server.set_status(status);
        }
    }

    /// Looks at the file: waits for it, starts the reading over when it was replaced or
    /// cut short, and reads what was appended.
    fn look(&mut self, path: &Path, view: &mut dyn Viewer) {
        let meta = match std::fs::metadata(path) {
            Ok(meta) => meta,
            Err(_) => {
                if !self.said_waiting {
                    view.tell(Event::Waiting);
                }
                self.said_waiting = true;
                self.set_status(Status::Waiting);
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
            if self.tail.is_some() {
                view.tell(Event::Replaced);
            }
            self.restart();
            if let Some(t) = &mut self.tail {
                t.id = id;
            }
        }
        let t = self.tail.as_mut().expect("set above");
        if meta.len() > t.offset {
            self.changed |= t.catch_up(path, view);
        }
    }

    /// Starts the reading over: a new file, a new stream. The page keeps the last
    /// picture until the new reading has one.
    fn restart(&mut self) {
        if self.read_before {
            self.set_status(Status::Restarted);
        }
        self.read_before = true;
        self.tail = Some(Tail::new(FileId(0, 0), self.follow.read));
        self.told.clear();
        self.drawn = None;
        self.changed = true;
    }

    /// Redraws when the input grew by a sample or a mark and the interval has passed.
    fn redraw_if_due(&mut self, view: &mut dyn Viewer) {
        let due = (self.last_redraw).is_none_or(|at| at.elapsed() >= self.follow.interval);
        if !(self.changed && due) {
            return;
        }
        self.changed = false;
        let Some(t) = self.tail.as_ref().filter(|t| !t.failed) else {
            return;
        };
        if self.drawn == Some(t.parser.progress()) {
            return;
        }
        self.last_redraw = Some(Instant::now());
        self.drawn = Some(t.parser.progress());
        match t.parser.snapshot() {
            Ok(mut parsed) => {
                parsed.warnings.retain(|w| !self.told.contains(w));
                self.told.extend(parsed.warnings.iter().cloned());
                view.redraw(parsed);
            }
            Err(e) if e.is_no_samples() => {} // not yet
            Err(e) => view.tell(Event::Unreadable(&e.to_string())),
        }
    }

    /// How long to sleep: until the next redraw is due, or the next look at the stop
    /// flag.
    fn sleep(&self) -> Duration {
        // Nothing waiting to be drawn: look again a tick later (a change wakes it
        // sooner). Once the interval had passed this was 1 ms: an idle watch looked at
        // its file a thousand times a second.
        if !self.changed {
            return TICK;
        }
        let until_due =
            (self.last_redraw).map_or(TICK, |at| self.follow.interval.saturating_sub(at.elapsed()));
        until_due.clamp(Duration::from_millis(1), TICK)
    }

    /// The program hpgraph ran has ended: its record is read whole, as a one-shot run
    /// reads it, and drawn whatever the interval; the page says how the program ended
    /// and that it shows the whole run.
    fn finish(&mut self, finale: &Finale, view: &mut dyn Viewer) {
        // Read as a one-shot run reads its input.
        let read = Source::File(finale.record.clone()).read(self.follow.read);
        let file = (finale.record.file_name()).map_or_else(
            || finale.record.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let shows = match read {
            Ok(mut parsed) => {
                parsed.warnings.retain(|w| !self.told.contains(w));
                view.redraw(parsed);
                format!("the page shows its whole run, read from {file}")
            }
            Err(error) => {
                view.tell(Event::Unreadable(&error.to_string()));
                format!("{file} does not read: the last picture is shown")
            }
        };
        let how = format!("{}: {shows}", finale.how);
        if let Some(server) = self.follow.server {
            server.ended(&how);
        }
        view.tell(Event::Ended(&how));
    }

    /// A stream's end: the last redraw, the status, and for a pipe not served, the end
    /// of the follow (`Ok(true)`), failing as the same file would where it gave no
    /// profile.
    fn stream_ended(&mut self, kind: Kind, view: &mut dyn Viewer) -> Result<bool, String> {
        if let Some(t) = self.tail.as_mut().filter(|t| !t.failed) {
            if let Err(e) = t.end() {
                // A connection cut anywhere, its header included, is connected
                // again: only a pipe's end is the program's.
                if kind == Kind::Pipe {
                    return Err(e);
                }
                view.tell(Event::Cut(&e));
            }
            self.changed = true;
        }
        // The last redraw, whatever the interval: the stream has no more.
        self.last_redraw = None;
        self.redraw_if_due(view);
        let complete = self.tail.as_ref().is_some_and(|t| t.parser.ended());
        let status = match kind {
            Kind::Socket if !complete => Status::Reconnecting,
            _ => Status::Ended,
        };
        self.set_status(status);
        view.tell(Event::Ended(match status {
            Status::Reconnecting => "the connection was lost: connecting again",
            _ if kind == Kind::Socket => "the program ended: waiting for its next run",
            _ => "the stream ended",
        }));
        if kind == Kind::Pipe && self.follow.server.is_none() {
            // A stream that never gave a profile fails as the same file would, and an
            // empty one says so.
            return match self.tail.as_ref() {
                Some(t) if t.offset == 0 => Err(": the stream ended before any byte came \
                                                 (is the program writing its profile there?)"
                    .into()),
                Some(t) => t.parser.snapshot().map(|_| true).map_err(|e| e.located()),
                None => Err(": contains no samples".into()),
            };
        }
        Ok(false)
    }
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
