//! `--serve` from outside, as a browser or an attacker would see it: the address it
//! prints, the three paths, event streams while a writer appends a real GHC profile, many
//! clients, clients that misbehave, requests that are not what the server serves, and
//! SIGINT. The HTTP here is written by hand on purpose: the requests must be able to be
//! wrong in ways a client library would refuse to send.

use crate::common;

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::common::served::{Listener, Served, exchange, exchange_within, get, wait_until};
use crate::common::{Scratch, fixtures};

/// The header of a real profile and its samples, split at each BEGIN_SAMPLE.
fn samples_of(hp: &[u8]) -> (Vec<u8>, Vec<Vec<u8>>) {
    let text = String::from_utf8_lossy(hp);
    let mut parts = text.split_inclusive('\n');
    let mut header = String::new();
    let mut samples: Vec<String> = Vec::new();
    for line in parts.by_ref() {
        if line.starts_with("BEGIN_SAMPLE") {
            samples.push(line.to_string());
        } else if let Some(last) = samples.last_mut() {
            last.push_str(line);
        } else {
            header.push_str(line);
        }
    }
    (
        header.into_bytes(),
        samples.into_iter().map(String::into_bytes).collect(),
    )
}

/// The time on a sample's BEGIN_SAMPLE line.
fn begin_time(sample: &[u8]) -> f64 {
    let text = String::from_utf8_lossy(sample);
    let first = text.lines().next().unwrap();
    first["BEGIN_SAMPLE ".len()..].trim().parse().unwrap()
}

fn append(path: &Path, bytes: &[u8]) {
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .unwrap();
    f.write_all(bytes).unwrap();
}

/// The values of a JSON number array.
fn numbers(v: &serde_json::Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

#[test]
fn serves_the_page_the_data_and_an_event_per_update() {
    let dir = Scratch::new("serve-basic");
    let hp = std::fs::read(fixtures().join("profiles/ManyCC-hc.hp")).unwrap();
    let (header, samples) = samples_of(&hp);
    let live = dir.path("live.hp");
    let mut served = Served::start(
        &dir.0,
        &["--serve", "127.0.0.1:0", "--interval", "0.1", "live.hp"],
    );
    assert_eq!(served.addr.ip().to_string(), "127.0.0.1");

    // Before the file exists: the waiting page, no data yet.
    let page = get(served.addr, "/");
    assert_eq!(page.status, 200);
    assert!(page.head.contains("content-type: text/html"));
    assert!(String::from_utf8_lossy(&page.body).contains("data-live"));
    let data = get(served.addr, "/profile.json");
    assert_eq!(data.status, 503, "{}", data.head);

    let events = Listener::open(served.addr);
    wait_until("the first event", 3.0, || events.count() >= 1);
    append(&live, &header);
    append(&live, &samples[..3].concat());
    wait_until("3 samples", 5.0, || events.samples() == Some(3));
    for (k, sample) in samples.iter().enumerate().skip(3) {
        let before = events.count();
        let sent = Instant::now();
        append(&live, sample);
        wait_until("an event for the new sample", 3.0, || {
            events.samples() == Some(k as u64 + 1)
        });
        assert!(events.count() > before);
        assert!(sent.elapsed() < Duration::from_secs(3));
    }

    // The data is the `-o x.json` document of the same file, and its times are the
    // file's BEGIN_SAMPLE times.
    let served_json = get(served.addr, "/profile.json");
    assert_eq!(served_json.status, 200);
    assert!(served_json.head.contains("content-type: application/json"));
    let out = common::hpgraph(&dir.0, &["live.hp", "-o", "once.json"], None);
    crate::common::assert_ok(&out);
    assert_eq!(
        served_json.body,
        std::fs::read(dir.path("once.json")).unwrap()
    );
    let json: serde_json::Value = serde_json::from_slice(&served_json.body).unwrap();
    let times: Vec<f64> = String::from_utf8_lossy(&hp)
        .lines()
        .filter_map(|l| l.strip_prefix("BEGIN_SAMPLE "))
        .map(|t| t.trim().parse().unwrap())
        .collect();
    assert_eq!(numbers(&json["times"]), times);

    // The page is the live page of the whole profile; HEAD gives its head alone.
    let page = get(served.addr, "/");
    let text = String::from_utf8_lossy(&page.body);
    assert!(text.contains(&format!("{} samples", samples.len())));
    assert!(page.head.contains("connect-src 'self'"));
    let head = exchange(
        served.addr,
        format!(
            "HEAD / HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
            served.addr
        )
        .as_bytes(),
    );
    assert_eq!(head.status, 200);
    assert!(head.body.is_empty());

    // SIGINT: exit 0 within 3 s, event stream open or not.
    let start = Instant::now();
    served.interrupt();
    let status = loop {
        if let Some(s) = served.child.try_wait().unwrap() {
            break s;
        }
        assert!(start.elapsed() < Duration::from_secs(3), "still running");
        std::thread::sleep(Duration::from_millis(10));
    };
    assert!(status.success(), "{status:?}");
}

#[test]
fn answers_what_it_does_not_serve_with_4xx_and_goes_on() {
    let dir = Scratch::new("serve-bad");
    std::fs::copy(
        fixtures().join("profiles/ManyCC-hc.hp"),
        dir.path("live.hp"),
    )
    .unwrap();
    let served = Served::start(&dir.0, &["--serve", "live.hp"]);
    let addr = served.addr;
    wait_until("the first picture", 5.0, || {
        get(addr, "/profile.json").status == 200
    });

    let host = format!("Host: {addr}\r\n");
    let cases: Vec<(&str, Vec<u8>, u16)> = vec![
        (
            "garbage",
            b"\x16\x03\x01\x02\x00 hello\r\n\r\n".to_vec(),
            400,
        ),
        ("no method", b"/ HTTP/1.1\r\n\r\n".to_vec(), 400),
        (
            "1 MB header",
            format!(
                "GET / HTTP/1.1\r\n{host}X-Big: {}\r\n\r\n",
                "a".repeat(1 << 20)
            )
            .into_bytes(),
            431,
        ),
        (
            "100 kB request line",
            format!("GET /{} HTTP/1.1\r\n{host}\r\n", "a".repeat(100_000)).into_bytes(),
            431,
        ),
        (
            "path out of the root",
            format!("GET /../../etc/passwd HTTP/1.1\r\n{host}Connection: close\r\n\r\n")
                .into_bytes(),
            404,
        ),
        (
            "encoded path out of the root",
            format!("GET /%2e%2e/%2e%2e/etc/passwd HTTP/1.1\r\n{host}Connection: close\r\n\r\n")
                .into_bytes(),
            404,
        ),
        (
            "the watched file by name",
            format!("GET /live.hp HTTP/1.1\r\n{host}Connection: close\r\n\r\n").into_bytes(),
            404,
        ),
        (
            "POST",
            format!("POST / HTTP/1.1\r\n{host}Content-Length: 5\r\nConnection: close\r\n\r\nhello")
                .into_bytes(),
            405,
        ),
        (
            "DELETE",
            format!("DELETE /profile.json HTTP/1.1\r\n{host}Connection: close\r\n\r\n")
                .into_bytes(),
            405,
        ),
        (
            "another site's name for this address",
            b"GET / HTTP/1.1\r\nHost: attacker.example:80\r\nConnection: close\r\n\r\n".to_vec(),
            403,
        ),
    ];
    for (what, request, want) in cases {
        let reply = exchange(addr, &request);
        assert_eq!(reply.status, want, "{what}: {}", reply.head);
        assert!(
            !String::from_utf8_lossy(&reply.body).contains("root:"),
            "{what}"
        );
        // Still serving.
        assert_eq!(get(addr, "/").status, 200, "after {what}");
    }
    let post = exchange(
        addr,
        format!("POST / HTTP/1.1\r\n{host}Content-Length: 0\r\nConnection: close\r\n\r\n")
            .as_bytes(),
    );
    assert!(post.head.to_ascii_lowercase().contains("allow: get, head"));
}

#[test]
fn many_clients_and_stalled_ones_do_not_hold_anyone_up() {
    let dir = Scratch::new("serve-many");
    let hp = std::fs::read(fixtures().join("profiles/ManyCC-hc.hp")).unwrap();
    let (header, samples) = samples_of(&hp);
    let live = dir.path("live.hp");
    append(&live, &header);
    append(&live, &samples[0]);
    let served = Served::start(
        &dir.0,
        &["--serve", "--interval", "0.1", "--quiet", "live.hp"],
    );
    let addr = served.addr;
    // Clients that never read: one on the event stream, one on the page, and one that
    // never finishes its request.
    let mut stalled = Vec::new();
    for request in [
        format!("GET /events HTTP/1.1\r\nHost: {addr}\r\n\r\n"),
        format!("GET / HTTP/1.1\r\nHost: {addr}\r\n\r\n").repeat(50),
        "GET / HTTP/1.1\r\nHost: ".to_string(),
    ] {
        let mut s = TcpStream::connect(addr).unwrap();
        s.write_all(request.as_bytes()).unwrap();
        stalled.push(s);
    }
    let clients: Vec<Listener> = (0..100).map(|_| Listener::open(addr)).collect();
    wait_until("every client's first event", 5.0, || {
        clients.iter().all(|c| c.samples() == Some(1))
    });
    let rss_start = served.rss_kb();

    // Twenty seconds of growth: a sample (repeating the profile's, later in time) every
    // half second, and every client hears of each within 3 s.
    let start = Instant::now();
    let mut written = 1u64;
    let mut rss_max = rss_start;
    let last_time = begin_time(&samples[samples.len() - 1]);
    while start.elapsed() < Duration::from_secs(20) {
        let k = written as usize;
        let sample = if k < samples.len() {
            samples[k].clone()
        } else {
            // Later copies of the real samples, shifted in time.
            let round = (k / samples.len()) as f64;
            let text = String::from_utf8_lossy(&samples[k % samples.len()]).into_owned();
            let t = begin_time(text.as_bytes());
            let shifted = format!("{:.6}", t + round * (last_time + 0.01));
            text.lines()
                .map(|l| {
                    if l.starts_with("BEGIN_SAMPLE") {
                        format!("BEGIN_SAMPLE {shifted}\n")
                    } else if l.starts_with("END_SAMPLE") {
                        format!("END_SAMPLE {shifted}\n")
                    } else {
                        format!("{l}\n")
                    }
                })
                .collect::<String>()
                .into_bytes()
        };
        append(&live, &sample);
        written += 1;
        let sent = Instant::now();
        wait_until("every client's event", 3.0, || {
            clients.iter().all(|c| c.samples() == Some(written))
        });
        rss_max = rss_max.max(served.rss_kb());
        std::thread::sleep(Duration::from_millis(500).saturating_sub(sent.elapsed()));
    }
    assert!(written > 30, "only {written} samples in 20 s");
    // Memory follows the profile, not the clients or the updates: a few MB at most
    // over the start (the profile itself grows by a few kB a sample).
    assert!(
        rss_max < rss_start + 16 * 1024 && rss_max < 64 * 1024,
        "RSS went from {rss_start} kB to {rss_max} kB"
    );
    drop(stalled);
    assert_eq!(get(addr, "/").status, 200);
    assert!(
        !served.stderr.lock().unwrap().contains("panicked"),
        "{}",
        served.stderr.lock().unwrap()
    );
}

#[test]
fn follows_a_growing_eventlog_and_a_restarted_program() {
    let dir = Scratch::new("serve-eventlog");
    let log = std::fs::read(fixtures().join("eventlog/ManyCC-hc.eventlog")).unwrap();
    let live = dir.path("live.eventlog");
    let served = Served::start(
        &dir.0,
        &[
            "--serve",
            "127.0.0.1:0",
            "--interval",
            "0.1",
            "live.eventlog",
        ],
    );
    let events = Listener::open(served.addr);
    wait_until("the first event", 3.0, || events.count() >= 1);
    let first: serde_json::Value =
        serde_json::from_str(&events.events.lock().unwrap()[0].1).unwrap();
    assert_eq!(first["status"], "waiting");
    // GHC writes an eventlog in blocks; here, in pieces of any size.
    for piece in log.chunks(log.len() / 7 + 1) {
        append(&live, piece);
        std::thread::sleep(Duration::from_millis(150));
    }
    let out = common::hpgraph(&dir.0, &["live.eventlog", "-o", "once.json"], None);
    crate::common::assert_ok(&out);
    let once = std::fs::read(dir.path("once.json")).unwrap();
    wait_until("the whole eventlog", 5.0, || {
        get(served.addr, "/profile.json").body == once
    });

    // The program runs again: a new file with nothing yet, then samples.
    std::fs::write(dir.path("new.eventlog"), &log[..64]).unwrap();
    std::fs::rename(dir.path("new.eventlog"), &live).unwrap();
    wait_until("the restarted state", 5.0, || {
        let events = events.events.lock().unwrap();
        events
            .iter()
            .any(|(_, e)| e.contains("\"status\":\"restarted\""))
    });
    append(&live, &log[64..]);
    wait_until("the new run", 5.0, || {
        let events = events.events.lock().unwrap();
        events
            .last()
            .is_some_and(|(_, e)| e.contains("\"status\":\"live\""))
    });
}

#[test]
fn a_non_loopback_address_is_served_with_a_warning() {
    let dir = Scratch::new("serve-open");
    std::fs::copy(fixtures().join("profiles/ManyCC-hc.hp"), dir.path("p.hp")).unwrap();
    let served = Served::start(&dir.0, &["--serve", "0.0.0.0:0", "p.hp"]);
    assert!(
        served
            .stderr
            .lock()
            .unwrap()
            .contains("not a loopback address"),
        "{}",
        served.stderr.lock().unwrap()
    );
    let local = SocketAddr::from(([127, 0, 0, 1], served.addr.port()));
    wait_until("the first picture", 5.0, || {
        get(local, "/profile.json").status == 200
    });
    // No Host check when the address is meant to be reached from elsewhere.
    let reply = exchange(
        local,
        b"GET / HTTP/1.1\r\nHost: heap.example:80\r\nConnection: close\r\n\r\n",
    );
    assert_eq!(reply.status, 200);
}

#[test]
fn a_loopback_server_listens_on_loopback_only() {
    let dir = Scratch::new("serve-loopback");
    std::fs::copy(fixtures().join("profiles/ManyCC-hc.hp"), dir.path("p.hp")).unwrap();
    let served = Served::start(&dir.0, &["--serve", "p.hp"]);
    assert_eq!(served.addr.ip().to_string(), "127.0.0.1");
    // The kernel's table of listening sockets: this port, on 127.0.0.1 (0100007F) only.
    let Ok(table) = std::fs::read_to_string("/proc/net/tcp") else {
        return;
    };
    let port = format!("{:04X}", served.addr.port());
    // The kernel may list a socket twice when the table changes while it is read (other
    // tests open sockets meanwhile): the addresses, once each.
    let listening: std::collections::BTreeSet<&str> = table
        .lines()
        .skip(1)
        .filter_map(|l| {
            let cols: Vec<&str> = l.split_whitespace().collect();
            (cols[1].ends_with(&format!(":{port}")) && cols[3] == "0A").then_some(cols[1])
        })
        .collect();
    let listening: Vec<&str> = listening.into_iter().collect();
    assert_eq!(listening, [format!("0100007F:{port}")]);
}

#[test]
fn idle_slow_and_streaming_clients_cannot_lock_others_out() {
    let dir = Scratch::new("serve-lockout");
    std::fs::copy(fixtures().join("profiles/ManyCC-hc.hp"), dir.path("p.hp")).unwrap();
    let served = Served::start(&dir.0, &["--serve", "--quiet", "p.hp"]);
    let addr = served.addr;
    wait_until("the profile", 5.0, || {
        get(addr, "/profile.json").status == 200
    });
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));

    // 300 clients on /events, more than the streams allowed: each that is turned away
    // comes back at once, so the server always has a full set of streams.
    let (mut streams, mut turned_away) = (Vec::new(), 0);
    for _ in 0..300 {
        let mut s = TcpStream::connect(addr).unwrap();
        s.write_all(format!("GET /events HTTP/1.1\r\nHost: {addr}\r\n\r\n").as_bytes())
            .unwrap();
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let mut head = [0u8; 12];
        s.read_exact(&mut head).unwrap();
        match &head[9..12] {
            b"200" => streams.push(s),
            b"503" => turned_away += 1,
            other => panic!("/events answered {}", String::from_utf8_lossy(other)),
        }
    }
    assert!(streams.len() >= 64, "only {} streams served", streams.len());
    assert!(turned_away > 0, "300 streams all served: no limit");
    let mut over = TcpStream::connect(addr).unwrap();
    over.write_all(format!("GET /events HTTP/1.1\r\nHost: {addr}\r\n\r\n").as_bytes())
        .unwrap();
    let mut reply = String::new();
    over.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let _ = over.read_to_string(&mut reply);
    assert!(
        reply.starts_with("HTTP/1.1 503") && reply.to_ascii_lowercase().contains("retry-after: 5"),
        "{reply}"
    );

    // 300 slowloris connections, each sending its request a byte every 100 ms and
    // reopened as soon as the server drops it.
    let slow: Vec<_> = (0..3)
        .map(|_| {
            let stop = Arc::clone(&stop);
            std::thread::spawn(move || {
                let request = format!(
                    "GET / HTTP/1.1\r\nHost: {addr}\r\nX-Slow: {}\r\n",
                    "z".repeat(200)
                );
                let mut conns: Vec<(TcpStream, usize)> = Vec::new();
                let mut opened = 0;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    while conns.len() < 100 {
                        if let Ok(s) = TcpStream::connect(addr) {
                            s.set_nonblocking(true).unwrap();
                            conns.push((s, 0));
                            opened += 1;
                        }
                    }
                    conns.retain_mut(|(s, sent)| {
                        let byte = &request.as_bytes()[*sent % request.len()..][..1];
                        *sent += 1;
                        s.write(byte).is_ok()
                    });
                    std::thread::sleep(Duration::from_millis(100));
                }
                opened
            })
        })
        .collect();
    std::thread::sleep(Duration::from_secs(2));

    // Meanwhile a new client's GET / is answered within a second, every time.
    let mut slowest = Duration::ZERO;
    for _ in 0..20 {
        let asked = Instant::now();
        let reply = get(addr, "/");
        slowest = slowest.max(asked.elapsed());
        assert_eq!(reply.status, 200);
        std::thread::sleep(Duration::from_millis(200));
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let opened: usize = slow.into_iter().map(|t| t.join().unwrap()).sum();
    assert!(
        opened > 300,
        "the slow connections were never dropped ({opened} opened)"
    );
    assert!(
        slowest < Duration::from_secs(1),
        "GET / took {slowest:?} with the server under siege"
    );
    // The held streams are still live.
    drop(streams);
    assert!(!served.stderr.lock().unwrap().contains("panicked"));
}

#[test]
fn clients_that_pipeline_and_never_read_cannot_lock_others_out() {
    use hpgraph::serve::{MAX_CONNECTIONS, MAX_REQUESTS_PER_CONNECTION, WRITE_TIMEOUT};
    let dir = Scratch::new("serve-pipeline");
    std::fs::copy(fixtures().join("profiles/ManyCC-hc.hp"), dir.path("p.hp")).unwrap();
    let served = Served::start(&dir.0, &["--serve", "--quiet", "p.hp"]);
    let addr = served.addr;
    wait_until("the profile", 5.0, || {
        get(addr, "/profile.json").status == 200
    });

    // One connection gets its share of answers, then is closed.
    let many = format!("GET /nothing HTTP/1.1\r\nHost: {addr}\r\n\r\n").repeat(150);
    let reply = exchange(addr, many.as_bytes());
    let answers = String::from_utf8_lossy(&reply.body)
        .matches("HTTP/1.1 404")
        .count()
        + 1;
    assert_eq!(answers, MAX_REQUESTS_PER_CONNECTION);

    // More connections than the server serves at once, each sending 200 pipelined
    // requests for the page and never reading an answer.
    let pipelined = format!("GET / HTTP/1.1\r\nHost: {addr}\r\n\r\n").repeat(200);
    let mut held = Vec::new();
    for _ in 0..MAX_CONNECTIONS + 8 {
        let Ok(s) = TcpStream::connect(addr) else {
            continue;
        };
        s.set_nonblocking(true).unwrap();
        let _ = (&s).write(pipelined.as_bytes());
        held.push(s);
    }
    std::thread::sleep(Duration::from_millis(500));
    // A new client is answered once the stalled writes time out, not after the
    // pipeliners give up: they never do, so without the write timeout this GET waits
    // for ever. How long after the timeout it is answered depends on how busy the
    // machine is (a loaded test run has taken four timeouts), so the bound is the
    // difference between "soon" and "never", not a latency.
    let asked = Instant::now();
    let reply = exchange_within(
        addr,
        format!("GET / HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").as_bytes(),
        WRITE_TIMEOUT * 30,
    );
    let waited = asked.elapsed();
    assert_eq!(reply.status, 200);
    assert!(
        waited < WRITE_TIMEOUT * 30,
        "GET / took {waited:?} behind {} pipelining connections",
        held.len()
    );
    drop(held);
    assert!(!served.stderr.lock().unwrap().contains("panicked"));
}
