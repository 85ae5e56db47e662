//! Bytes that keep coming: standard input, a FIFO or character device, or the eventlog
//! stream that [eventlog-socket](https://github.com/well-typed/eventlog-socket) serves on
//! a Unix or TCP socket.
//!
//! A stream is read on a thread of its own, which hands the bytes over a channel as they
//! arrive, so that the reader waiting for them never holds up a picture. eventlog-socket
//! sends each client the eventlog's header and then the events from then on, in the
//! binary format of a `.eventlog` file; when the program exits the connection closes,
//! and when it is run again a new connection gets a new header. [`connect`] keeps
//! connecting, with a growing pause between attempts ([`BACKOFF_MIN`] to
//! [`BACKOFF_MAX`]), and says when a connection is made or lost.

use std::io::Read;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::SyncSender as Sender;
use std::time::Duration;

/// The most bytes handed over at once.
pub const BLOCK: usize = 64 * 1024;
/// Blocks waiting to be read at most: a stream that arrives faster than it is drawn
/// waits in its pipe or socket, not in memory (64 blocks, 4 MiB).
pub const QUEUE: usize = 64;
/// The first pause before connecting again.
pub const BACKOFF_MIN: Duration = Duration::from_millis(100);
/// The longest pause before connecting again.
pub const BACKOFF_MAX: Duration = Duration::from_secs(5);
/// How often a blocked read looks whether it should stop.
const POLL: Duration = Duration::from_millis(200);

/// What a stream's reader reports.
#[derive(Debug)]
pub enum Event {
    /// A stream begins: a new connection, or the one stream of a pipe. What follows is
    /// a profile from its start.
    Began,
    /// Bytes, in order.
    Bytes(Vec<u8>),
    /// The stream ended: the pipe's writer closed it, or the connection closed.
    Ended,
    /// A connection could not be made or was lost; another is tried after a pause.
    Lost(String),
}

/// Where eventlog-socket serves a program's eventlog.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Endpoint {
    /// A Unix socket's path (`unix:PATH`).
    Unix(PathBuf),
    /// A TCP address (`HOST:PORT`).
    Tcp(String),
}

impl Endpoint {
    /// Reads `unix:PATH` or `HOST:PORT`.
    pub fn parse(text: &str) -> Result<Endpoint, String> {
        if let Some(path) = text.strip_prefix("unix:") {
            if path.is_empty() {
                return Err("unix: needs the socket's path, like unix:/tmp/ghc-eventlog".into());
            }
            return Ok(Endpoint::Unix(PathBuf::from(path)));
        }
        match text.rsplit_once(':') {
            Some((host, port)) if !host.is_empty() && port.parse::<u16>().is_ok() => {
                Ok(Endpoint::Tcp(text.to_string()))
            }
            _ => Err(format!(
                "`{text}` is not a socket: unix:PATH for a Unix socket, HOST:PORT for TCP"
            )),
        }
    }

    /// Connects once.
    pub fn open(&self) -> std::io::Result<Box<dyn Connection>> {
        Ok(match self {
            #[cfg(unix)]
            Endpoint::Unix(path) => Box::new(std::os::unix::net::UnixStream::connect(path)?),
            #[cfg(not(unix))]
            Endpoint::Unix(_) => {
                return Err(std::io::Error::other("Unix sockets need a Unix system"));
            }
            Endpoint::Tcp(addr) => Box::new(std::net::TcpStream::connect(addr)?),
        })
    }
}

impl std::fmt::Display for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Endpoint::Unix(p) => write!(f, "unix:{}", p.display()),
            Endpoint::Tcp(a) => write!(f, "{a}"),
        }
    }
}

/// A connected socket: read, with a timeout so that the reader can stop.
pub trait Connection: Read + Send {
    /// Makes a read return after at most `t` without data.
    fn set_timeout(&self, t: Duration) -> std::io::Result<()>;
}

#[cfg(unix)]
impl Connection for std::os::unix::net::UnixStream {
    fn set_timeout(&self, t: Duration) -> std::io::Result<()> {
        self.set_read_timeout(Some(t))
    }
}

impl Connection for std::net::TcpStream {
    fn set_timeout(&self, t: Duration) -> std::io::Result<()> {
        self.set_read_timeout(Some(t))
    }
}

/// The channel a stream's reader hands its events over: [`QUEUE`] blocks at most.
pub fn channel() -> (Sender<Event>, std::sync::mpsc::Receiver<Event>) {
    std::sync::mpsc::sync_channel(QUEUE)
}

/// Reads the stream `open` gives to its end on a thread of its own: [`Event::Began`]
/// once it is open (a FIFO opens when a writer does), its bytes, then [`Event::Ended`]
/// (also when it cannot be read further). With `again` the stream is opened anew after
/// each end: the next program to write the FIFO. The thread ends when nobody listens.
pub fn spawn<R: Read>(
    open: impl Fn() -> std::io::Result<R> + Send + 'static,
    tx: Sender<Event>,
    again: bool,
) {
    std::thread::spawn(move || {
        loop {
            let mut r = match open() {
                Ok(r) => r,
                Err(e) => {
                    let _ = tx.send(Event::Lost(e.to_string()));
                    let _ = tx.send(Event::Ended);
                    return;
                }
            };
            if tx.send(Event::Began).is_err() {
                return;
            }
            let mut buf = vec![0; BLOCK];
            loop {
                match r.read(&mut buf) {
                    Ok(0) => break,
                    Ok(n) => {
                        if tx.send(Event::Bytes(buf[..n].to_vec())).is_err() {
                            return;
                        }
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(_) => break,
                }
            }
            if tx.send(Event::Ended).is_err() || !again {
                return;
            }
        }
    });
}

/// Connects to `endpoint` again and again until `stop` is set: [`Event::Began`] for each
/// connection, its bytes, [`Event::Ended`] when it closes; [`Event::Lost`] when a
/// connection cannot be made (once per outage, then quietly until one is made).
pub fn connect(endpoint: Endpoint, tx: Sender<Event>, stop: Arc<AtomicBool>) {
    std::thread::spawn(move || {
        let mut pause = BACKOFF_MIN;
        let mut told = false;
        while !stop.load(Ordering::Relaxed) {
            match endpoint.open() {
                Ok(mut conn) => {
                    pause = BACKOFF_MIN;
                    told = false;
                    let _ = conn.set_timeout(POLL);
                    if tx.send(Event::Began).is_err() {
                        return;
                    }
                    if !pump(&mut *conn, &tx, &stop) {
                        return;
                    }
                    if tx.send(Event::Ended).is_err() {
                        return;
                    }
                }
                Err(e) => {
                    if !told && tx.send(Event::Lost(e.to_string())).is_err() {
                        return;
                    }
                    told = true;
                }
            }
            sleep_unless(pause, &stop);
            pause = (pause * 2).min(BACKOFF_MAX);
        }
    });
}

/// Hands a connection's bytes over until it closes; false when nobody listens.
fn pump(conn: &mut dyn Connection, tx: &Sender<Event>, stop: &AtomicBool) -> bool {
    let mut buf = vec![0; BLOCK];
    while !stop.load(Ordering::Relaxed) {
        match conn.read(&mut buf) {
            Ok(0) => return true,
            Ok(n) => {
                if tx.send(Event::Bytes(buf[..n].to_vec())).is_err() {
                    return false;
                }
            }
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock
                        | std::io::ErrorKind::TimedOut
                        | std::io::ErrorKind::Interrupted
                ) => {}
            Err(_) => return true,
        }
    }
    true
}

fn sleep_unless(pause: Duration, stop: &AtomicBool) {
    let step = Duration::from_millis(50);
    let mut left = pause;
    while !left.is_zero() && !stop.load(Ordering::Relaxed) {
        let s = left.min(step);
        std::thread::sleep(s);
        left -= s;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An endless stream, counting what was read of it.
    struct Endless(Arc<std::sync::atomic::AtomicUsize>);

    impl Read for Endless {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            self.0.fetch_add(buf.len(), Ordering::Relaxed);
            Ok(buf.len())
        }
    }

    #[test]
    fn a_stream_faster_than_its_reader_waits_past_the_queue() {
        let read = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let (tx, rx) = channel();
        let counted = Arc::clone(&read);
        spawn(move || Ok(Endless(Arc::clone(&counted))), tx, false);
        std::thread::sleep(Duration::from_millis(300));
        // Nobody has taken a block: at most the queue and the block in hand were read.
        let bytes = read.load(Ordering::Relaxed);
        assert!(bytes > QUEUE * BLOCK / 2, "{bytes}");
        assert!(bytes <= (QUEUE + 2) * BLOCK, "{bytes} bytes read ahead");
        drop(rx);
    }

    #[test]
    fn endpoints_read_as_help_says() {
        assert_eq!(
            Endpoint::parse("unix:/tmp/s"),
            Ok(Endpoint::Unix("/tmp/s".into()))
        );
        assert_eq!(
            Endpoint::parse("localhost:4242"),
            Ok(Endpoint::Tcp("localhost:4242".into()))
        );
        assert_eq!(
            Endpoint::parse("[::1]:4242"),
            Ok(Endpoint::Tcp("[::1]:4242".into()))
        );
        for bad in ["unix:", "localhost", ":80", "host:http", "host:70000"] {
            assert!(Endpoint::parse(bad).is_err(), "{bad}");
        }
    }
}
