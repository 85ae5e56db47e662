//! `--watch`: a writer thread appends a real profile in random chunks (cutting lines and
//! samples anywhere) while hpgraph follows it; the output read at any moment is a whole,
//! well-formed picture, the last one equals a one-shot rendering of the final file, a
//! file cut short and written again is followed, and SIGINT ends the watcher with 0.

use crate::common;

use std::fs;
use std::io::Write;
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::common::eventlog::Writer;
use crate::common::{Scratch, fixtures};

struct Rng(u64);
impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// Appends `data` to `path` in random chunks over about `secs` seconds.
fn write_slowly(path: std::path::PathBuf, data: Vec<u8>, secs: f64, seed: u64) {
    let mut rng = Rng(seed);
    let mut pos = 0;
    let chunks = 40u64;
    while pos < data.len() {
        let n = 1 + rng.below((data.len() as u64 / chunks * 2).max(2)) as usize;
        let end = (pos + n).min(data.len());
        let mut f = fs::OpenOptions::new()
            .append(true)
            .create(true)
            .open(&path)
            .unwrap();
        f.write_all(&data[pos..end]).unwrap();
        drop(f);
        pos = end;
        std::thread::sleep(Duration::from_secs_f64(
            secs / chunks as f64 * rng.below(200) as f64 / 100.0,
        ));
    }
}

fn whole_svg(bytes: &[u8]) -> bool {
    let text = String::from_utf8_lossy(bytes);
    text.starts_with("<svg")
        && text.trim_end().ends_with("</svg>")
        && svg::read(&text)
            .map(|events| {
                events
                    .into_iter()
                    .all(|e| !matches!(e, svg::parser::Event::Error(_)))
            })
            .unwrap_or(false)
}

fn one_shot(dir: &std::path::Path, name: &str) -> Vec<u8> {
    let out = crate::common::command(dir)
        .args([name, "-o", "-", "--format", "svg"])
        .output()
        .unwrap();
    crate::common::assert_ok(&out);
    out.stdout
}

fn wait_for(what: &str, limit: Duration, mut ok: impl FnMut() -> bool) {
    let start = Instant::now();
    while !ok() {
        assert!(start.elapsed() < limit, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn watching_a_growing_profile_gives_whole_pictures_and_follows_restarts() {
    let dir = Scratch::new("watch");
    let live = dir.path("live.hp");
    let out = dir.path("live.svg");
    let mut watcher = crate::common::command(&dir.0)
        .args([
            "--watch",
            "--interval",
            "0.1",
            "--quiet",
            "live.hp",
            "-o",
            "live.svg",
        ])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();

    let first = fs::read(fixtures().join("profiles/ManyCC-hc.hp")).unwrap();
    let writer = {
        let (live, first) = (live.clone(), first.clone());
        std::thread::spawn(move || write_slowly(live, first, 3.0, 7))
    };
    let mut reads = 0;
    let mut renders = std::collections::HashSet::new();
    while !writer.is_finished() {
        if let Ok(bytes) = fs::read(&out) {
            reads += 1;
            assert!(
                whole_svg(&bytes),
                "a read saw a partial or malformed picture"
            );
            renders.insert(bytes);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    writer.join().unwrap();
    assert!(reads > 20, "only {reads} reads");
    assert!(
        renders.len() >= 3,
        "only {} distinct pictures",
        renders.len()
    );
    let want = one_shot(&dir.0, "live.hp");
    wait_for("the final picture", Duration::from_secs(5), || {
        fs::read(&out).ok() == Some(want.clone())
    });

    // The program runs again: the file is cut short and rewritten.
    fs::write(&live, b"").unwrap();
    let second = fs::read(fixtures().join("profiles/Names-hy.hp")).unwrap();
    write_slowly(live.clone(), second, 1.0, 11);
    let want = one_shot(&dir.0, "live.hp");
    wait_for(
        "the rewritten file's picture",
        Duration::from_secs(5),
        || fs::read(&out).ok() == Some(want.clone()),
    );

    // SIGINT: the watcher finishes and exits with 0.
    // SAFETY: kill(2) with a child's pid and SIGINT has no memory effects here.
    unsafe { libc::kill(watcher.id() as libc::pid_t, libc::SIGINT) };
    let start = Instant::now();
    loop {
        if let Some(status) = watcher.try_wait().unwrap() {
            assert!(status.success(), "exit status {status}");
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(3),
            "the watcher did not stop"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_file_that_does_not_exist_yet_is_waited_for() {
    let dir = Scratch::new("watch");
    let mut watcher = crate::common::command(&dir.0)
        .args(["--watch", "--interval", "0.1", "later.hp", "-o", "later.ps"])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    assert!(!dir.path("later.ps").exists());
    fs::copy(fixtures().join("profiles/Leak-hc.hp"), dir.path("later.hp")).unwrap();
    let want = fs::read(fixtures().join("golden/Leak-hc/default.ps")).unwrap();
    wait_for("the picture", Duration::from_secs(5), || {
        fs::read(dir.path("later.ps"))
            .map(|b| common::without_creator(&b))
            .ok()
            == Some(want.clone())
    });
    // SAFETY: as above.
    unsafe { libc::kill(watcher.id() as libc::pid_t, libc::SIGTERM) };
    assert!(watcher.wait().unwrap().success());
    let err = watcher.stderr.take().map(|mut e| {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut e, &mut s).unwrap();
        s
    });
    assert!(err.unwrap().contains("waiting for later.hp"));
}

#[test]
fn watch_needs_a_file_in_and_a_file_out() {
    let dir = Scratch::new("watch");
    for args in [
        &["--watch"][..],
        &["--watch", "-"],
        &["--watch", "x.hp", "-o", "-"],
        &["--watch", "a.hp", "b.hp"],
    ] {
        let out = crate::common::command(&dir.0)
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn watching_a_growing_eventlog_waits_for_partly_written_events() {
    let dir = Scratch::new("watch-eventlog");
    let live = dir.path("live.eventlog");
    let mut watcher = crate::common::command(&dir.0)
        .args([
            "--watch",
            "--interval",
            "0.1",
            "--quiet",
            "live.eventlog",
            "-o",
            "live.svg",
        ])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Forty samples of three bands, written in chunks that cut events anywhere.
    let mut w = Writer::new();
    w.args(&["./live", "+RTS", "-hT", "-l"]);
    for k in 0..40u64 {
        let t = (k + 1) * 100_000_000;
        w.begin(t);
        for (b, name) in [&b"ARR_WORDS"[..], b"THUNK", b"FUN_2_0"].iter().enumerate() {
            w.string(t + 1, name, 1000 + k * 100 * (b as u64 + 1));
        }
        w.end(t + 2);
    }
    let log = w.done();
    let writer = {
        let (live, log) = (live.clone(), log.clone());
        std::thread::spawn(move || write_slowly(live, log, 2.0, 5))
    };
    let mut renders = std::collections::HashSet::new();
    while !writer.is_finished() {
        if let Ok(bytes) = fs::read(dir.path("live.svg")) {
            assert!(
                whole_svg(&bytes),
                "a read saw a partial or malformed picture"
            );
            renders.insert(bytes);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    writer.join().unwrap();
    assert!(
        renders.len() >= 3,
        "only {} distinct pictures",
        renders.len()
    );
    let want = one_shot(&dir.0, "live.eventlog");
    wait_for("the final picture", Duration::from_secs(5), || {
        fs::read(dir.path("live.svg")).ok() == Some(want.clone())
    });

    // The program runs again, and this time it is a real one.
    fs::write(&live, b"").unwrap();
    let real = fs::read(fixtures().join("eventlog/ManyCC-hc.eventlog")).unwrap();
    write_slowly(live.clone(), real, 1.0, 3);
    let want = one_shot(&dir.0, "live.eventlog");
    wait_for(
        "the real eventlog's picture",
        Duration::from_secs(5),
        || fs::read(dir.path("live.svg")).ok() == Some(want.clone()),
    );
    // SAFETY: kill(2) with a child's pid and SIGINT has no memory effects here.
    unsafe { libc::kill(watcher.id() as libc::pid_t, libc::SIGINT) };
    assert!(watcher.wait().unwrap().success());
}

/// A retainer profile followed live takes its sets from the run's report beside it, as
/// a one-shot run does (#56): in `--watch`'s pictures and in what `--serve` serves.
#[test]
fn a_watched_or_served_retainer_profile_names_its_sets() {
    let dir = Scratch::new("watch-sets");
    for ext in ["hp", "prof"] {
        fs::copy(
            fixtures().join(format!("prof/ghc-9.0.2/Leak-hr.{ext}")),
            dir.path(&format!("r.{ext}")),
        )
        .unwrap();
    }
    // The one-shot picture's set texts: what every path must show.
    let one = crate::common::command(&dir.0)
        .args(["r.hp", "--style", "modern", "-o", "-", "--format", "svg"])
        .output()
        .unwrap();
    crate::common::assert_ok(&one);
    let one = String::from_utf8(one.stdout).unwrap();
    let sets = |svg: &str| -> Vec<String> {
        (common::svg_texts(svg).into_iter())
            .map(|t| t.text)
            .filter(|t| t.starts_with("{&lt;"))
            .collect()
    };
    assert!(!sets(&one).is_empty(), "the one-shot key names a set");
    let mut watcher = crate::common::command(&dir.0)
        .args([
            "--watch",
            "--interval",
            "0.1",
            "r.hp",
            "--style",
            "modern",
            "-o",
            "w.svg",
        ])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for("the watched picture", Duration::from_secs(10), || {
        fs::read(dir.path("w.svg")).is_ok_and(|b| whole_svg(&b))
    });
    // SAFETY: signalling our own child.
    unsafe { libc::kill(watcher.id() as libc::pid_t, libc::SIGTERM) };
    assert!(watcher.wait().unwrap().success());
    let watched = fs::read_to_string(dir.path("w.svg")).unwrap();
    assert_eq!(
        sets(&watched),
        sets(&one),
        "--watch names the sets the one-shot run names"
    );

    // The live page as it is served: its data's sets, JSON in a script (`<` escaped).
    let mut served = common::served::Served::start(&dir.0, &["--serve", "127.0.0.1:0", "r.hp"]);
    let mut page = String::new();
    common::served::wait_until("the served page's sets", 10.0, || {
        page = String::from_utf8_lossy(&common::served::get(served.addr, "/").body).into_owned();
        page.contains("\"set\":\"")
    });
    // The one-shot page's sets: the served page's must be the same.
    let page_sets = |page: &str| -> Vec<String> {
        let mut sets: Vec<String> = page
            .split("\"set\":\"")
            .skip(1)
            .map(|rest| rest[..rest.find('"').unwrap()].to_string())
            .collect();
        sets.sort();
        sets
    };
    let html = crate::common::command(&dir.0)
        .args(["r.hp", "-o", "-", "--format", "html"])
        .output()
        .unwrap();
    let html = String::from_utf8(html.stdout).unwrap();
    assert!(!page_sets(&html).is_empty(), "the one-shot page names sets");
    assert_eq!(
        page_sets(&page),
        page_sets(&html),
        "the served page names the sets"
    );
    served.interrupt();
}

/// The served page of a growing `+RTS -p -hc -l` eventlog carries the run's samples so
/// far (#60): the row of its samples under the graph is drawn while the file grows, holds
/// more samples as it does, and ends with every sample ghc-events reads in the file.
#[test]
fn a_served_eventlog_with_samples_draws_its_strip_as_it_grows() {
    let dir = Scratch::new("serve-samples");
    let src = fixtures().join("prof/ghc-9.10.3");
    let log = fs::read(src.join("MapFib-samples-hc.eventlog")).unwrap();
    let all = common::samples_oracle(&src.join("MapFib-samples-hc.samples")).len() as u64;
    let live = dir.path("live.eventlog");
    fs::write(&live, b"").unwrap();
    let mut served =
        common::served::Served::start(&dir.0, &["--serve", "127.0.0.1:0", "live.eventlog"]);
    // The samples in the served page's strip, `None` while it has none.
    let strip_samples = |addr| -> Option<u64> {
        let page = common::served::get(addr, "/").body;
        let page = String::from_utf8_lossy(&page);
        let data = &page[page.find("id=\"hpgraph-data\">")? + 18..];
        let data: serde_json::Value =
            serde_json::from_str(&data[..data.find("</script>")?]).ok()?;
        let totals = data["cost_samples"]["tree"]["strip"]["totals"]
            .as_array()?
            .clone();
        let sum = |v: &[serde_json::Value]| -> u64 {
            v.iter().map(|v| v.as_f64().unwrap_or(0.0) as u64).sum()
        };
        // The row the page draws under its graph holds them too, bar by bar.
        let bars = data["samples_row"]["bars"].as_array()?;
        let drawn: u64 = (bars.iter()).map(|b| sum(b[2].as_array().unwrap())).sum();
        assert_eq!(
            drawn,
            sum(&totals),
            "the served row's bars hold the samples"
        );
        Some(sum(&totals))
    };
    let writer = {
        let (live, log) = (live.clone(), log.clone());
        std::thread::spawn(move || write_slowly(live, log, 3.0, 11))
    };
    let mut seen = std::collections::BTreeSet::new();
    while !writer.is_finished() {
        if let Some(n) = strip_samples(served.addr) {
            seen.insert(n);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    writer.join().unwrap();
    common::served::wait_until("every sample in the strip", 10.0, || {
        strip_samples(served.addr) == Some(all)
    });
    assert!(
        seen.iter().any(|&n| n > 0 && n < all),
        "the strip was drawn while the file grew, with fewer samples than at the end: {seen:?}"
    );
    served.interrupt();
}

#[test]
fn a_watched_runs_checks_are_judged_at_each_redraw_and_its_last_gives_the_exit_status() {
    // A stream watched to its end: each redraw judged by the one-shot run's rule (GHC's
    // own .hp: Leak-hc peaks at 71 MB), the failure said as it happens, and the status
    // that of the last redraw: 1 when a check failed, 0 when every one held.
    let dir = Scratch::new("watch-check");
    let hp = fs::read(fixtures().join("profiles/Leak-hc.hp")).unwrap();
    let watched = |check: &str| {
        let args = ["--watch", "-", "-o", "x.svg", "--check", check];
        common::hpgraph(&dir.0, &args, Some(&hp))
    };
    let one_shot = |check: &str| {
        let args = ["-", "-o", "y.svg", "--check", check];
        common::hpgraph(&dir.0, &args, Some(&hp))
    };
    for (check, status) in [("peak <= 1MB", 1), ("peak <= 1GB", 0)] {
        let live = watched(check);
        let said = String::from_utf8_lossy(&live.stderr).into_owned();
        assert_eq!(live.status.code(), Some(status), "{check}: {said}");
        assert_eq!(one_shot(check).status.code(), Some(status), "{check}");
        match status {
            1 => assert!(
                said.contains("check failed: peak") && said.contains("(so far)"),
                "{said}"
            ),
            _ => assert!(said.contains("every check holds so far"), "{said}"),
        }
        assert!(whole_svg(&fs::read(dir.path("x.svg")).unwrap()));
    }
}

/// A watched file that jumps by a gigabyte (a sparse one: no disk) or grows by a long
/// line without end is read a chunk at a time, as `tail -f` reads: the watcher says
/// what is wrong, waits for the file to be written again, and stays within the bounds
/// the kernel counts (it once read the growth whole, twice over, and aborted at 1 GB).
#[test]
fn a_file_that_jumps_by_a_gigabyte_is_read_in_bounded_chunks() {
    use crate::common::measure::{MAX_RSS_KB, launched};
    let start = fs::read(fixtures().join("edge/basic.hp")).unwrap();
    for (what, grow) in [
        ("a sparse gigabyte", None),
        ("64 MiB of one line", Some(64usize << 20)),
    ] {
        let dir = Scratch::new("watch-jump");
        let hp = dir.path("w.hp");
        fs::write(&hp, &start).unwrap();
        let run = launched(&dir.0, &["--watch", "w.hp", "-o", "out.svg"], None);
        let out = dir.path("out.svg");
        wait_for("the first picture", Duration::from_secs(20), || {
            out.exists()
        });
        match grow {
            None => fs::File::options()
                .write(true)
                .open(&hp)
                .unwrap()
                .set_len(1 << 30)
                .unwrap(),
            Some(n) => fs::OpenOptions::new()
                .append(true)
                .open(&hp)
                .unwrap()
                .write_all(&vec![b'a'; n])
                .unwrap(),
        }
        wait_for(what, Duration::from_secs(20), || {
            run.said()
                .contains("waiting for the file to be written again")
        });
        let m = run.stop();
        eprintln!(
            "{what}: {} MB peak, {:.1} s of processor time",
            m.rss_kb / 1024,
            m.cpu.as_secs_f64()
        );
        assert!(m.rss_kb < MAX_RSS_KB, "{what}: {} MB", m.rss_kb / 1024);
        assert!(m.cpu < Duration::from_secs(20), "{what}: {:?}", m.cpu);
        assert!(
            matches!(m.status.code(), Some(0..=2)),
            "{what}: {:?}: {}",
            m.status,
            m.stderr
        );
        assert!(m.stderr.contains("hpgraph: w.hp"), "{}", m.stderr);
        // The picture of what was read before stays whole.
        assert!(whole_svg(&fs::read(&out).unwrap()), "{what}");
    }
}
