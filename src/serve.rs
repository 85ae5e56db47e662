//! `--serve`: the live view's web server. It serves bytes it is handed — the page, the
//! profile's JSON — and tells browsers when they change; it knows nothing of profiles.
//!
//! Three paths, GET or HEAD only: `/` (the page), `/profile.json` (the data) and `/events`
//! (server-sent events, one per change of what is served). Everything else is 404, any
//! other method 405; nothing is read from the file system.
//!
//! HTTP is hyper's (its HTTP/1 server, on a single-threaded tokio runtime in a thread of
//! its own), so that request parsing, limits and odd clients are handled by code that the
//! Rust web stack relies on. What this module adds are bounds: a request head of at most
//! [`MAX_HEAD`] bytes (431 beyond), [`HEAD_TIMEOUT`] to send it, at most
//! [`MAX_CONNECTIONS`] connections at once (more wait to be accepted), of which at most
//! [`MAX_STREAMS`] event streams (503 beyond), [`MAX_REQUESTS_PER_CONNECTION`] requests
//! on one connection, and [`WRITE_TIMEOUT`] for a write the client does not read. Each
//! event-stream
//! client holds one small event at most: it watches a single shared value and is sent its
//! latest state, so a client that stops reading holds up nobody and never queues updates.
//! The renderer publishes without waiting for any client.
//!
//! A browser page on another site could reach a loopback server through a name it
//! controls that resolves to 127.0.0.1 (DNS rebinding); on a loopback address, requests
//! whose `Host` is not a loopback name are refused (403).

use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Empty, Full, combinators::BoxBody};
use hyper::body::{Body, Frame, Incoming};
use hyper::header::{self, HeaderValue};
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use serde::Serialize;
use tokio::sync::{Semaphore, mpsc, oneshot, watch};

/// The largest request head (request line and headers) read.
pub const MAX_HEAD: usize = 16 * 1024;
/// How long a client may take to send a request head, counted from when the server
/// starts waiting for it (a new connection, or a kept-alive one gone idle). A client
/// sends its head in one packet: a connection that sends nothing, or trickles a byte at
/// a time (slowloris), gives its place up within this, so that a full set of such
/// connections delays a new client by at most this long.
pub const HEAD_TIMEOUT: Duration = Duration::from_millis(800);
/// Connections served at once; more wait in the kernel's queue until one closes.
pub const MAX_CONNECTIONS: usize = 512;
/// Event streams open at once. A stream holds its connection for as long as the client
/// likes, so streams have a limit of their own, well under [`MAX_CONNECTIONS`]: past
/// it a client is told to come back later (503, `Retry-After`), and a full set of
/// streams still leaves room for everyone else.
pub const MAX_STREAMS: usize = 128;
/// How long a write to a client may stay blocked before the connection is closed. A
/// client that sends requests and never reads their answers (200 pipelined `GET /`)
/// would otherwise hold its connection, and with [`MAX_CONNECTIONS`] of them every
/// place, for ever. A browser on the slowest link still drains its socket within this.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(2);
/// Requests answered on one connection; the last is answered with `Connection: close`.
/// A browser opens a new connection when it needs one; a client pipelining thousands
/// of requests on one connection gets its share and then its turn ends.
pub const MAX_REQUESTS_PER_CONNECTION: usize = 100;
/// Seconds a client over [`MAX_STREAMS`] is told to wait.
const STREAM_RETRY_SECS: u32 = 5;
/// A comment on every event stream this often, so that a client gone away is noticed.
const KEEPALIVE: Duration = Duration::from_secs(15);
/// How long a browser waits before reconnecting to a stream that ended.
const RETRY_MS: u32 = 1000;

/// The state of the watched program, as the page shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// No profile yet (no file, or no complete sample).
    Waiting,
    /// The page shows the profile as it was last read.
    Live,
    /// The file was replaced or cut short, or a stream began anew: the page still shows
    /// the last run until the new one has samples.
    Restarted,
    /// The stream ended (the program exited); the last picture stays.
    Ended,
    /// The connection to the program was lost; hpgraph connects again, and the last
    /// picture stays meanwhile.
    Reconnecting,
}

/// What is being served.
struct Shown {
    page: Bytes,
    profile: Option<Bytes>,
    status: Status,
    samples: usize,
    version: u64,
    /// How the program ended, where hpgraph ran it and knows ([`Server::ended`]).
    ended: Option<Arc<str>>,
}

impl Shown {
    /// The page's status line.
    fn says(&self) -> String {
        match (&self.ended, self.status) {
            (Some(how), Status::Ended) => format!("ended · {} samples · {how}", self.samples),
            _ => self.status.says(self.samples),
        }
    }
}

/// The event a stream client is sent: enough for the page to know whether to fetch,
/// and the line it shows.
#[derive(Serialize)]
struct Event<'a> {
    server: &'a str,
    version: u64,
    status: Status,
    samples: usize,
    says: String,
}

impl Status {
    /// The page's status line for this state, `samples` read so far.
    fn says(self, samples: usize) -> String {
        match self {
            Status::Waiting => "waiting for the program to write its profile…".into(),
            Status::Restarted => "the program started again: waiting for its first samples \
                 (the last run is shown)"
                .into(),
            Status::Reconnecting => {
                "lost the program's eventlog: connecting again… (the last picture is shown)".into()
            }
            Status::Ended => format!(
                "ended · {samples} samples · the program's stream is closed (the last picture is shown)"
            ),
            Status::Live => {
                let now = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_secs() % 86_400);
                format!(
                    "live · {samples} samples · updated {:02}:{:02}:{:02} UTC",
                    now / 3600,
                    now / 60 % 60,
                    now % 60
                )
            }
        }
    }
}

/// A running server; dropping it (or [`Server::stop`]) stops it.
pub struct Server {
    addr: SocketAddr,
    shown: watch::Sender<Arc<Shown>>,
    stop: Option<oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Server {
    /// Binds `addr` and starts serving `page` (the page shown before any profile) in a
    /// thread of its own. `policy` is the pages' content security policy (the page
    /// carries it too); sent as a header it also forbids other sites to frame the page,
    /// which a page's own `<meta>` policy cannot.
    pub fn start(addr: SocketAddr, page: Vec<u8>, policy: &str) -> std::io::Result<Server> {
        let policy = HeaderValue::from_str(&format!("{policy}; frame-ancestors 'none'"))
            .map_err(std::io::Error::other)?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_io()
            .enable_time()
            .build()?;
        let listener = {
            let _guard = runtime.enter();
            let std = std::net::TcpListener::bind(addr)?;
            std.set_nonblocking(true)?;
            tokio::net::TcpListener::from_std(std)?
        };
        let addr = listener.local_addr()?;
        let (shown, _) = watch::channel(Arc::new(Shown {
            page: page.into(),
            profile: None,
            status: Status::Waiting,
            samples: 0,
            version: 1,
            ended: None,
        }));
        let (stop, stopped) = oneshot::channel();
        let site = Arc::new(Site {
            shown: shown.clone(),
            server: server_id(),
            hosts: is_loopback(&addr).then(|| loopback_hosts(addr.port())),
            streams: Arc::new(Semaphore::new(MAX_STREAMS)),
            policy,
        });
        let thread = std::thread::Builder::new()
            .name("hpgraph-serve".into())
            .spawn(move || {
                runtime.block_on(async {
                    tokio::select! {
                        () = accept(listener, site) => {}
                        _ = stopped => {}
                    }
                });
                // Event streams never end by themselves: their tasks are dropped here.
                runtime.shutdown_timeout(Duration::from_millis(200));
            })?;
        Ok(Server {
            addr,
            shown,
            stop: Some(stop),
            thread: Some(thread),
        })
    }

    /// The address actually bound (the port chosen when 0 was asked for).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Serves a new page and profile; every event stream is told.
    pub fn publish(&self, page: Vec<u8>, profile: Vec<u8>, samples: usize) {
        self.shown.send_modify(|s| {
            *s = Arc::new(Shown {
                page: page.into(),
                profile: Some(profile.into()),
                status: Status::Live,
                samples,
                version: s.version + 1,
                ended: None,
            })
        });
    }

    /// The program hpgraph ran has ended, `how` (its status, and what the page now
    /// shows): the page says so from now on, whatever was served last.
    pub fn ended(&self, how: &str) {
        self.shown.send_modify(|s| {
            *s = Arc::new(Shown {
                page: s.page.clone(),
                profile: s.profile.clone(),
                status: Status::Ended,
                samples: s.samples,
                version: s.version + 1,
                ended: Some(how.into()),
            })
        });
    }

    /// Changes the program's state, keeping what is served; streams are told of a change.
    /// A restart before anything was shown is still a wait.
    pub fn set_status(&self, status: Status) {
        self.shown.send_if_modified(|s| {
            let status = match status {
                Status::Restarted | Status::Reconnecting if s.profile.is_none() => Status::Waiting,
                status => status,
            };
            if s.status == status {
                return false;
            }
            *s = Arc::new(Shown {
                page: s.page.clone(),
                profile: s.profile.clone(),
                status,
                samples: s.samples,
                version: s.version + 1,
                ended: s.ended.clone(),
            });
            true
        });
    }

    /// Stops serving: open connections are closed.
    pub fn stop(mut self) {
        self.shutdown();
    }

    fn shutdown(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// What every connection shares.
struct Site {
    shown: watch::Sender<Arc<Shown>>,
    /// Tells one server's events from another's, so that a page that reconnects to a
    /// restarted server fetches what it serves even when the version numbers agree.
    server: String,
    /// The `Host` values accepted, when serving on a loopback address.
    hosts: Option<Vec<String>>,
    /// One permit per event stream that may open ([`MAX_STREAMS`]).
    streams: Arc<Semaphore>,
    /// The page's content security policy header.
    policy: HeaderValue,
}

fn server_id() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("{:x}-{:x}", std::process::id(), nanos)
}

fn loopback_hosts(port: u16) -> Vec<String> {
    ["127.0.0.1", "localhost", "[::1]"]
        .iter()
        .flat_map(|h| [format!("{h}:{port}"), h.to_string()])
        .collect()
}

async fn accept(listener: tokio::net::TcpListener, site: Arc<Site>) {
    let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    loop {
        let Ok(slot) = Arc::clone(&slots).acquire_owned().await else {
            return;
        };
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            // Out of file descriptors, or a connection reset before it was accepted:
            // try again shortly rather than spin.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let site = Arc::clone(&site);
        tokio::spawn(async move {
            let _slot = slot;
            let answered = std::cell::Cell::new(0);
            let service = hyper::service::service_fn(move |request| {
                let mut response = respond(&site, &request);
                answered.set(answered.get() + 1);
                if answered.get() >= MAX_REQUESTS_PER_CONNECTION {
                    // hyper closes the connection after a response that says so.
                    response
                        .headers_mut()
                        .insert(header::CONNECTION, HeaderValue::from_static("close"));
                }
                async move { Ok::<_, Infallible>(response) }
            });
            let stream = StallLimited {
                inner: stream,
                stalled: None,
            };
            let _ = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(HEAD_TIMEOUT)
                .max_header_size(MAX_HEAD)
                .max_buf_size(2 * MAX_HEAD)
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}

/// A connection whose writes fail once one has been blocked for [`WRITE_TIMEOUT`]:
/// the client stopped reading.
struct StallLimited {
    inner: tokio::net::TcpStream,
    /// When the write now blocked gives up; `None` while writes go through.
    stalled: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl StallLimited {
    /// After the inner stream's `poll`: restarts the clock on progress, starts it on a
    /// block, and turns a block past the deadline into an error.
    fn watch<T>(
        &mut self,
        cx: &mut Context<'_>,
        polled: Poll<std::io::Result<T>>,
    ) -> Poll<std::io::Result<T>> {
        if polled.is_ready() {
            self.stalled = None;
            return polled;
        }
        let deadline = self
            .stalled
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(WRITE_TIMEOUT)));
        match deadline.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(std::io::ErrorKind::TimedOut.into())),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl tokio::io::AsyncRead for StallLimited {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl tokio::io::AsyncWrite for StallLimited {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let polled = Pin::new(&mut self.inner).poll_write(cx, buf);
        self.watch(cx, polled)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        let polled = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        self.watch(cx, polled)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        let polled = Pin::new(&mut self.inner).poll_flush(cx);
        self.watch(cx, polled)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

type Reply = Response<BoxBody<Bytes, Infallible>>;

/// The paths served.
#[derive(Clone, Copy)]
enum Path {
    Page,
    Profile,
    Events,
}

impl Path {
    fn of(path: &str) -> Option<Path> {
        match path {
            "/" | "/index.html" => Some(Path::Page),
            "/profile.json" => Some(Path::Profile),
            "/events" => Some(Path::Events),
            _ => None,
        }
    }
}

fn respond(site: &Site, request: &Request<Incoming>) -> Reply {
    if let Some(hosts) = &site.hosts
        && let Some(host) = request.headers().get(header::HOST)
        && !hosts
            .iter()
            .any(|h| h.as_bytes().eq_ignore_ascii_case(host.as_bytes()))
    {
        return text(
            StatusCode::FORBIDDEN,
            "this server answers only to a loopback host name\n",
        );
    }
    let Some(path) = Path::of(request.uri().path()) else {
        return text(StatusCode::NOT_FOUND, "not found\n");
    };
    if request.method() != Method::GET && request.method() != Method::HEAD {
        let mut reply = text(StatusCode::METHOD_NOT_ALLOWED, "only GET and HEAD\n");
        reply
            .headers_mut()
            .insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
        return reply;
    }
    let shown = Arc::clone(&site.shown.borrow());
    match path {
        Path::Page => {
            let mut reply = ok(shown.page.clone(), "text/html; charset=utf-8");
            reply
                .headers_mut()
                .insert(header::CONTENT_SECURITY_POLICY, site.policy.clone());
            reply
        }
        Path::Profile => match &shown.profile {
            Some(json) => ok(json.clone(), "application/json"),
            None => {
                let mut reply = text(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "no complete sample yet: waiting for the program\n",
                );
                reply
                    .headers_mut()
                    .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
                reply
            }
        },
        Path::Events => {
            let body = if request.method() == Method::HEAD {
                Empty::new().boxed()
            } else {
                match Arc::clone(&site.streams).try_acquire_owned() {
                    Ok(permit) => events(site, permit).boxed(),
                    Err(_) => return too_many_streams(),
                }
            };
            let mut reply = Response::new(body);
            let headers = reply.headers_mut();
            headers.insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/event-stream"),
            );
            headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
            reply
        }
    }
}

fn ok(body: Bytes, kind: &'static str) -> Reply {
    let mut reply = Response::new(Full::new(body).boxed());
    let headers = reply.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    reply
}

/// The answer to a client over [`MAX_STREAMS`]: come back later, and this connection
/// closes, so that it holds no place either.
fn too_many_streams() -> Reply {
    let mut reply = text(
        StatusCode::SERVICE_UNAVAILABLE,
        "too many event streams open; try again shortly\n",
    );
    let headers = reply.headers_mut();
    headers.insert(header::RETRY_AFTER, HeaderValue::from(STREAM_RETRY_SECS));
    headers.insert(header::CONNECTION, HeaderValue::from_static("close"));
    reply
}

fn text(status: StatusCode, message: &'static str) -> Reply {
    let mut reply = ok(Bytes::from_static(message.as_bytes()), "text/plain");
    *reply.status_mut() = status;
    reply
}

/// One event stream: a task sends the latest state whenever it changes, through a
/// channel of one, so a client that does not read keeps at most one event waiting.
/// The stream holds `permit`, its place among [`MAX_STREAMS`], until it ends.
fn events(site: &Site, permit: tokio::sync::OwnedSemaphorePermit) -> EventStream {
    let (sender, receiver) = mpsc::channel::<Bytes>(1);
    let mut changes = site.shown.subscribe();
    let server = site.server.clone();
    tokio::spawn(async move {
        let _permit = permit;
        let mut first = Some(format!("retry: {RETRY_MS}\n"));
        loop {
            let event = {
                let shown = changes.borrow_and_update();
                let data = serde_json::to_string(&Event {
                    server: &server,
                    version: shown.version,
                    status: shown.status,
                    samples: shown.samples,
                    says: shown.says(),
                })
                .unwrap_or_default();
                format!("{}data: {data}\n\n", first.take().unwrap_or_default())
            };
            if sender.send(Bytes::from(event)).await.is_err() {
                return;
            }
            loop {
                tokio::select! {
                    changed = changes.changed() => match changed {
                        Ok(()) => break,
                        Err(_) => return,
                    },
                    () = tokio::time::sleep(KEEPALIVE) => {
                        if sender.send(Bytes::from_static(b": still here\n\n")).await.is_err() {
                            return;
                        }
                    }
                    () = sender.closed() => return,
                }
            }
        }
    });
    EventStream(receiver)
}

/// The body of an event stream: whatever its task sends.
struct EventStream(mpsc::Receiver<Bytes>);

impl Body for EventStream {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        self.0
            .poll_recv(cx)
            .map(|event| event.map(|e| Ok(Frame::data(e))))
    }
}

/// Whether `addr` is reachable only from this machine.
pub fn is_loopback(addr: &SocketAddr) -> bool {
    match addr.ip() {
        IpAddr::V4(ip) => ip.is_loopback(),
        IpAddr::V6(ip) => {
            ip.is_loopback() || ip.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback())
        }
    }
}

/// Reads `--serve`'s address: `HOST:PORT`, `[IPv6]:PORT`, or a port alone (on
/// 127.0.0.1). A host name is looked up; `localhost` is 127.0.0.1.
pub fn parse_addr(text: &str) -> Result<SocketAddr, String> {
    use std::net::ToSocketAddrs;
    if let Ok(port) = text.parse::<u16>() {
        return Ok(SocketAddr::from(([127, 0, 0, 1], port)));
    }
    if let Ok(addr) = text.parse::<SocketAddr>() {
        return Ok(addr);
    }
    let Some((host, port)) = text.rsplit_once(':') else {
        return Err(format!(
            "`{text}` is not an address: give HOST:PORT (127.0.0.1:8080) or a port"
        ));
    };
    if port.parse::<u16>().is_err() {
        return Err(format!("`{port}` is not a port number (0 to 65535)"));
    }
    if host.eq_ignore_ascii_case("localhost") {
        return parse_addr(&format!("127.0.0.1:{port}"));
    }
    text.to_socket_addrs()
        .map_err(|e| format!("cannot find `{host}`: {e}"))?
        .next()
        .ok_or_else(|| format!("`{host}` has no address"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_read_as_people_write_them() {
        assert_eq!(parse_addr("8080").unwrap().to_string(), "127.0.0.1:8080");
        assert_eq!(parse_addr("0").unwrap().to_string(), "127.0.0.1:0");
        assert_eq!(parse_addr("[::1]:80").unwrap().to_string(), "[::1]:80");
        assert_eq!(
            parse_addr("localhost:9").unwrap().to_string(),
            "127.0.0.1:9"
        );
        assert_eq!(parse_addr("0.0.0.0:1").unwrap().to_string(), "0.0.0.0:1");
        assert!(parse_addr("prog.hp").is_err());
        assert!(parse_addr("host:port").is_err());
        assert!(parse_addr("1.2.3.4:70000").is_err());
    }

    #[test]
    fn only_loopback_addresses_count_as_private() {
        assert!(is_loopback(&parse_addr("127.0.0.1:1").unwrap()));
        assert!(is_loopback(&parse_addr("[::1]:1").unwrap()));
        assert!(!is_loopback(&parse_addr("0.0.0.0:1").unwrap()));
        assert!(!is_loopback(&parse_addr("[::]:1").unwrap()));
        assert!(!is_loopback(&parse_addr("192.168.1.1:1").unwrap()));
    }
}
