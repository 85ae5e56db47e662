//! A running `hpgraph --serve` and a hand-written HTTP client for it: the requests must
//! be able to be wrong in ways a client library would refuse to send.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::process::{Child, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A running `hpgraph --serve`, killed when dropped.
pub struct Served {
    pub child: Child,
    pub addr: SocketAddr,
    pub stderr: Arc<Mutex<String>>,
}

impl Served {
    pub fn start(dir: &Path, args: &[&str]) -> Served {
        let mut child = super::command(dir)
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
        let stderr = Arc::new(Mutex::new(String::new()));
        let mut addr = None;
        for line in lines.by_ref() {
            let line = line.unwrap();
            stderr.lock().unwrap().push_str(&(line.clone() + "\n"));
            if let Some(url) = line.strip_prefix("hpgraph: serving http://") {
                addr = Some(url.trim_end_matches('/').parse().unwrap());
                break;
            }
        }
        let addr = addr.unwrap_or_else(|| panic!("no address in {}", stderr.lock().unwrap()));
        let rest = Arc::clone(&stderr);
        std::thread::spawn(move || {
            for line in lines.map_while(Result::ok) {
                rest.lock().unwrap().push_str(&(line + "\n"));
            }
        });
        Served {
            child,
            addr,
            stderr,
        }
    }

    pub fn interrupt(&mut self) {
        // SAFETY: kill(2) with a child's pid and SIGINT has no memory effects here.
        unsafe { libc::kill(self.child.id() as libc::pid_t, libc::SIGINT) };
    }

    /// Resident memory in kB, from /proc.
    pub fn rss_kb(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .unwrap_or_default();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or(0)
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A response as read off the wire.
pub struct Reply {
    pub status: u16,
    pub head: String,
    pub body: Vec<u8>,
}

/// Sends `request` as it is and reads the response until the server closes.
pub fn exchange(addr: SocketAddr, request: &[u8]) -> Reply {
    exchange_within(addr, request, Duration::from_secs(10))
}

/// [`exchange`], waiting up to `patience` for each read.
pub fn exchange_within(addr: SocketAddr, request: &[u8], patience: Duration) -> Reply {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(patience)).unwrap();
    // The server may answer and close before it has read all of a huge request.
    let _ = s.write_all(request);
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    let end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no response head in {:?}", String::from_utf8_lossy(&raw)));
    let head = String::from_utf8_lossy(&raw[..end]).into_owned();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    Reply {
        status,
        head,
        body: raw[end + 4..].to_vec(),
    }
}

pub fn get(addr: SocketAddr, path: &str) -> Reply {
    exchange(
        addr,
        format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").as_bytes(),
    )
}

/// A client of `/events`: a thread collects the `data:` lines it receives.
pub struct Listener {
    pub events: Arc<Mutex<Vec<(Instant, String)>>>,
}

impl Listener {
    pub fn open(addr: SocketAddr) -> Listener {
        let mut s = TcpStream::connect(addr).unwrap();
        s.write_all(format!("GET /events HTTP/1.1\r\nHost: {addr}\r\n\r\n").as_bytes())
            .unwrap();
        let events = Arc::new(Mutex::new(Vec::new()));
        let got = Arc::clone(&events);
        std::thread::spawn(move || {
            // Chunk-size lines come between events; `data:` lines are whole.
            for line in BufReader::new(s).lines().map_while(Result::ok) {
                if let Some(data) = line.strip_prefix("data: ") {
                    got.lock().unwrap().push((Instant::now(), data.to_string()));
                }
            }
        });
        Listener { events }
    }

    /// The number of samples in the latest event.
    pub fn samples(&self) -> Option<u64> {
        let events = self.events.lock().unwrap();
        let (_, last) = events.last()?;
        let v: serde_json::Value = serde_json::from_str(last).unwrap();
        v["samples"].as_u64()
    }

    pub fn count(&self) -> usize {
        self.events.lock().unwrap().len()
    }
}

/// Waits up to `secs` for `ok`, failing the test with `what`.
pub fn wait_until(what: &str, secs: f64, mut ok: impl FnMut() -> bool) {
    let start = Instant::now();
    while !ok() {
        assert!(
            start.elapsed().as_secs_f64() < secs,
            "timed out waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}
