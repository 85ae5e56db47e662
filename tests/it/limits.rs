//! The third review's cases (#42), each generated here and run through the release
//! binary with its peak memory and time measured by the kernel: deep stacks, long
//! names, many sparse bands and `--compare` within the limits; the runtime's figures
//! sane on inconsistent or huge counters; outputs that never replace one another or an
//! input; temporaries removed on signals; what a name can do to a page or a `.hp`.

use crate::common;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::Scratch;
use crate::common::eventlog::{self, Writer};
use crate::common::measure::{
    CASE_TIME, Measured, bounded, gzip, measured, measured_from, within_limits,
};

const HP_HEADER: &str = "JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n";

/// A `-hc` stack of `frames` frames, all `label`: 2 bytes a frame.
fn deep(frames: usize, label: &str) -> String {
    let mut s = String::with_capacity(frames * (label.len() + 1));
    for k in 0..frames {
        if k > 0 {
            s.push('/');
        }
        s.push_str(label);
    }
    s
}

fn failed_with(m: &Measured, code: i32, what: &str, says: &str) {
    bounded(m, what, CASE_TIME);
    assert_eq!(m.status.code(), Some(code), "{what}: {}", m.stderr);
    assert!(m.stderr.contains(says), "{what}: {}", m.stderr);
}

fn size(dir: &Scratch, name: &str) -> u64 {
    std::fs::metadata(dir.path(name)).map_or(0, |m| m.len())
}

#[test]
fn stacks_of_two_million_frames_are_drawn_within_the_depth_limit() {
    let dir = Scratch::new("limits-deep");
    gzip(&dir.path("deep.hp.gz"), |w| {
        w.write_all(HP_HEADER.as_bytes()).unwrap();
        for s in 0..2 {
            writeln!(w, "BEGIN_SAMPLE {s}").unwrap();
            for (b, label) in ["a", "b", "c", "d", "e", "f"].iter().enumerate() {
                writeln!(w, "({b}){}\t{}", deep(2_000_000, label), 100 + b).unwrap();
            }
            writeln!(w, "END_SAMPLE {s}").unwrap();
        }
    });
    let m = measured(&dir.0, &["deep.hp.gz", "--flame", "-o", "f.svg"]);
    within_limits(&m, "six 2M-frame stacks, --flame");
    let m = measured(&dir.0, &["deep.hp.gz", "-o", "p.html"]);
    within_limits(&m, "six 2M-frame stacks, the page");
    assert!(
        size(&dir, "p.html") < 8 << 20,
        "{} bytes",
        size(&dir, "p.html")
    );
    let m = measured(
        &dir.0,
        &[
            "--compare",
            "deep.hp.gz",
            "deep.hp.gz",
            "--flame",
            "-o",
            "c.svg",
        ],
    );
    within_limits(&m, "six 2M-frame stacks, --compare --flame");
    // One whole 2M-frame stack and 40 cut at -L whose stems begin its frames.
    let mut hp = String::from(HP_HEADER);
    hp += &format!("BEGIN_SAMPLE 0\n(1){}\t100\n", deep(2_000_000, "a"));
    for k in 0..40 {
        hp += &format!("({})g{k}/a/a...\t{}\n", k + 2, k + 1);
    }
    hp += "END_SAMPLE 0\n";
    std::fs::write(dir.path("cut.hp"), hp).unwrap();
    for out in ["f.svg", "p.html"] {
        let m = measured(&dir.0, &["cut.hp", "--flame", "-o", out]);
        within_limits(&m, &format!("a 2M-frame stack and 40 cut ones, {out}"));
    }
    assert!(
        size(&dir, "p.html") < 8 << 20,
        "{} bytes",
        size(&dir, "p.html")
    );
}

#[test]
fn long_names_are_cut_and_kept_once() {
    let dir = Scratch::new("limits-names");
    gzip(&dir.path("names.hp.gz"), |w| {
        w.write_all(HP_HEADER.as_bytes()).unwrap();
        w.write_all(b"BEGIN_SAMPLE 0\n").unwrap();
        let long = "x".repeat(4_000_000 - 10);
        for k in 0..150 {
            writeln!(w, "{k}{long}\t{}", k + 1).unwrap();
        }
        w.write_all(b"END_SAMPLE 0\n").unwrap();
    });
    for args in [
        &["names.hp.gz", "-o", "n.ps"][..],
        &["names.hp.gz", "--summary"],
        &["names.hp.gz", "-o", "n.svg"],
    ] {
        let m = measured(&dir.0, args);
        within_limits(&m, &format!("150 names of 4 MB: {args:?}"));
        assert!(m.stderr.contains("were cut"), "{}", m.stderr);
    }
    // 150 names cut at 64 KiB, each in the key and the title: not gigabytes.
    assert!(
        size(&dir, "n.svg") < 64 << 20,
        "{} bytes",
        size(&dir, "n.svg")
    );
}

/// A cost-centre definition: its number, label, module and source.
fn cost_centre(id: u32, label: &str) -> Vec<u8> {
    let mut p = id.to_be_bytes().to_vec();
    p.extend(label.as_bytes());
    p.extend(b"\0M\0S\0\0");
    p
}

#[test]
fn stacks_named_from_long_cost_centres_fit_the_naming_budget() {
    let dir = Scratch::new("limits-stacks");
    gzip(&dir.path("stacks.eventlog.gz"), |w| {
        let mut log = Writer::new();
        log.event(
            eventlog::PROF_BEGIN,
            0,
            &[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1],
        );
        for cc in 0..20u32 {
            let label = format!("{cc}{}", "c".repeat(4096 - 3));
            log.event(eventlog::COST_CENTRE, 0, &cost_centre(cc, &label));
        }
        w.write_all(&log.bytes).unwrap();
        // 8,000 distinct stacks 16 deep: k in base 20.
        for t in 1..=8u64 {
            let mut sample = Writer { bytes: Vec::new() };
            sample.begin(t);
            for j in 0..1000u64 {
                let mut k = (t - 1) * 1000 + j;
                let mut p = vec![0u8];
                p.extend(100u64.to_be_bytes());
                p.push(16);
                for _ in 0..16 {
                    p.extend(((k % 20) as u32).to_be_bytes());
                    k /= 20;
                }
                sample.event(eventlog::SAMPLE_CC, t, &p);
            }
            sample.end(t);
            w.write_all(&sample.bytes).unwrap();
        }
        w.write_all(&0xffffu16.to_be_bytes()).unwrap();
    });
    let m = measured(&dir.0, &["stacks.eventlog.gz", "-o", "s.ps"]);
    within_limits(&m, "8,000 stacks of 64 kB names");
    assert!(m.stderr.contains("were cut"), "{}", m.stderr);
}

#[test]
fn many_bands_each_in_one_of_many_samples_stay_sparse() {
    let dir = Scratch::new("limits-sparse");
    let mut hp = String::from(HP_HEADER);
    for s in 0..16_000 {
        hp += &format!("BEGIN_SAMPLE {s}\nband{s}\t{}\nEND_SAMPLE {s}\n", s + 1);
    }
    std::fs::write(dir.path("sparse.hp"), hp).unwrap();
    let m = measured(
        &dir.0,
        &["--compare", "sparse.hp", "sparse.hp", "--summary"],
    );
    within_limits(&m, "16,000 sparse bands, --compare --summary");
    for out in ["s.svg", "s.html", "s.ps", "s.png", "s.pdf"] {
        let m = measured(&dir.0, &["sparse.hp", "-m0", "-o", out]);
        within_limits(&m, &format!("16,000 sparse bands, -m0, {out}"));
        assert!(
            m.stderr.contains("more than a picture draws"),
            "{}",
            m.stderr
        );
    }
    let m = measured(
        &dir.0,
        &["--compare", "sparse.hp", "sparse.hp", "-o", "c.html"],
    );
    within_limits(&m, "16,000 sparse bands, --compare, the page");
}

/// A root profile (`-ho`) of 4,095 sets of twelve roots in its first census and 2,000,000
/// empty ones after (#77, row 12): its summary, members and page took 29–31 s (the
/// censuses times the members), its members' picture 0.8–1.1 GB (a band's every census
/// in every panel, reduced only once all were stacked).
#[test]
fn a_root_profile_of_millions_of_empty_censuses_is_read_by_what_it_holds() {
    let dir = Scratch::new("limits-roots");
    gzip(&dir.path("roots.hp.gz"), |w| {
        w.write_all(b"JOB \"x +RTS -ho -RTS\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\n")
            .unwrap();
        w.write_all(b"VALUE_UNIT \"bytes\"\nBEGIN_SAMPLE 0.00\n")
            .unwrap();
        for set in 1u32..4096 {
            let roots: Vec<String> = (0..12)
                .filter(|r| set >> r & 1 == 1)
                .map(|r| format!("r{r}"))
                .collect();
            writeln!(w, "{}\t{}", roots.join("-"), 100 + set).unwrap();
        }
        w.write_all(b"END_SAMPLE 0.00\n").unwrap();
        for census in 1..2_000_000u32 {
            let t = f64::from(census) / 100.0;
            write!(w, "BEGIN_SAMPLE {t:.2}\nEND_SAMPLE {t:.2}\n").unwrap();
        }
    });
    for args in [
        &["roots.hp.gz", "--summary"][..],
        &["roots.hp.gz", "--members", "-o", "m.svg"],
        &["roots.hp.gz", "--members=8", "-o", "m.pdf"],
        &["roots.hp.gz", "--members", "-o", "m.html"],
        &["roots.hp.gz", "-o", "p.html"],
        &["roots.hp.gz", "--sort", "growth", "-o", "g.svg"],
    ] {
        let m = measured(&dir.0, args);
        within_limits(
            &m,
            &format!("4,095 root sets over 2,000,000 censuses, {args:?}"),
        );
    }
    // Twelve roots, each a member, the most reached first: r11 alone is the set of it
    // only (100 + 2048 bytes); it reaches every set that holds it, the upper half of
    // 1..4096.
    let out = common::command(&dir.0)
        .args(["roots.hp.gz", "--summary"])
        .output()
        .unwrap();
    common::assert_ok(&out);
    let summary = String::from_utf8_lossy(&out.stdout);
    let reachable: u64 = (2048..4096u64).map(|set| 100 + set).sum();
    let line = format!("2.15 kB    {:.2} MB  r11", reachable as f64 / 1e6);
    let members = summary.split("member\n").nth(1).unwrap_or_default();
    assert!(members.starts_with(&line), "{line}: {summary}");
}

/// 40,000 bands, each in one census of 400,000 (#77, row 13): the summary filled every
/// band in at every census (66–71 s); each band's figures are now made from its points.
#[test]
fn a_census_of_many_bands_among_many_empty_ones_is_summed_by_its_points() {
    let dir = Scratch::new("limits-one-census");
    gzip(&dir.path("one.hp.gz"), |w| {
        w.write_all(HP_HEADER.as_bytes()).unwrap();
        for census in 0..400_000u32 {
            let t = f64::from(census) / 100.0;
            writeln!(w, "BEGIN_SAMPLE {t:.2}").unwrap();
            if census == 200_000 {
                for band in 0..40_000u32 {
                    writeln!(w, "b{band}\t{}", 8 + band).unwrap();
                }
            }
            writeln!(w, "END_SAMPLE {t:.2}").unwrap();
        }
    });
    for args in [
        &["one.hp.gz", "--summary"][..],
        &["one.hp.gz", "--sort", "growth", "--summary"],
        &["one.hp.gz", "-o", "one.html"],
        &["one.hp.gz", "-o", "one.svg"],
    ] {
        let m = measured(&dir.0, args);
        within_limits(
            &m,
            &format!("40,000 bands in one of 400,000 censuses, {args:?}"),
        );
    }
}

#[test]
fn cut_names_of_thousands_of_lengths_match_in_linear_time() {
    let dir = Scratch::new("limits-cuts");
    gzip(&dir.path("cut.hp.gz"), |w| {
        w.write_all(HP_HEADER.as_bytes()).unwrap();
        w.write_all(b"BEGIN_SAMPLE 0\n").unwrap();
        for l in 1..6000 {
            writeln!(w, "{}c...\t1", "a".repeat(l)).unwrap();
        }
        w.write_all(b"END_SAMPLE 0\n").unwrap();
    });
    gzip(&dir.path("whole.hp.gz"), |w| {
        w.write_all(HP_HEADER.as_bytes()).unwrap();
        w.write_all(b"BEGIN_SAMPLE 0\n").unwrap();
        let stem = "a".repeat(6000);
        for k in 0..6000 {
            writeln!(w, "{stem}{k}\t1").unwrap();
        }
        w.write_all(b"END_SAMPLE 0\n").unwrap();
    });
    let m = measured(
        &dir.0,
        &["--compare", "cut.hp.gz", "whole.hp.gz", "--summary"],
    );
    within_limits(
        &m,
        "6,000 cut names of 6,000 lengths against 6,000 whole ones",
    );
}

/// A `GC_STATS_GHC` payload: generation, bytes copied.
fn gc_stats(generation: u16, copied: u64) -> Vec<u8> {
    let mut p = 0u32.to_be_bytes().to_vec();
    p.extend(generation.to_be_bytes());
    p.extend(copied.to_be_bytes());
    p.extend(8u64.to_be_bytes()); // slop
    p.extend(0u64.to_be_bytes()); // fragmentation
    p.extend(1u32.to_be_bytes()); // threads
    p.extend(copied.to_be_bytes());
    p.extend(copied.to_be_bytes());
    p
}

/// A plain eventlog of collections, each `(start, stats at, end, generation, copied)`
/// in nanoseconds.
fn collections(path: &Path, gcs: &[(u64, u64, u64, u16, u64)]) {
    let mut log = Writer::new();
    for &(start, at, end, generation, copied) in gcs {
        log.event(eventlog::GC_START, start, &[])
            .event(eventlog::GC_STATS_GHC, at, &gc_stats(generation, copied))
            .event(eventlog::GC_END, end, &[]);
    }
    log.event(eventlog::GC_START, 2_000_000_000, &[]);
    std::fs::write(path, log.done()).unwrap();
}

#[test]
fn the_runtime_s_figures_stay_sane() {
    let dir = Scratch::new("limits-runtime");
    // A collection that ends before it begins is left out, with a warning.
    collections(
        &dir.path("back.eventlog"),
        &[
            (1_000_000, 1_000_100, 600_000, 0, 64),
            (3_000_000, 3_000_100, 3_500_000, 1, 64),
        ],
    );
    let m = measured(&dir.0, &["back.eventlog", "--stats", "-o", "s.txt"]);
    within_limits(&m, "GC_END before GC_START");
    assert!(m.stderr.contains("before they begin"), "{}", m.stderr);
    let text = std::fs::read_to_string(dir.path("s.txt")).unwrap();
    assert!(
        !text.contains(" -0") && !text.contains("time   -"),
        "{text}"
    );
    // One rule for windows: one past the run is refused, a reversed one is a usage error.
    let m = measured(
        &dir.0,
        &["back.eventlog", "--stats", "--from", "100", "--to", "200"],
    );
    failed_with(&m, 1, "a window past the run", "no part of the run");
    for mode in [&["--stats"][..], &["--summary"], &["-o", "x.svg"]] {
        let mut args = vec!["back.eventlog", "--from", "0.08", "--to", "0.02"];
        args.extend(mode);
        let m = measured(&dir.0, &args);
        failed_with(&m, 2, "a reversed window", "is after --to");
    }
    // Counters near the top of 64 bits: the sum saturates and says so.
    let big = u64::MAX / 2;
    let gcs: Vec<_> = (0..4u64)
        .map(|k| (k * 1000 + 1000, k * 1000 + 1100, k * 1000 + 1200, 0, big))
        .collect();
    collections(&dir.path("big.eventlog"), &gcs);
    let m = measured(&dir.0, &["big.eventlog", "--stats", "-o", "big.txt"]);
    within_limits(&m, "counters near u64::MAX");
    let text = std::fs::read_to_string(dir.path("big.txt")).unwrap();
    assert!(
        text.contains("18,446,744,073,709,551,615 bytes copied"),
        "{text}"
    );
    assert!(text.contains("a sum passed"), "{text}");
    // Generation 65535: counted, not listed.
    collections(&dir.path("gens.eventlog"), &[(1000, 1100, 1200, 65535, 64)]);
    let m = measured(&dir.0, &["gens.eventlog", "--stats=csv", "-o", "g.csv"]);
    within_limits(&m, "generation 65535");
    let csv = std::fs::read_to_string(dir.path("g.csv")).unwrap();
    assert!(csv.lines().count() < 200, "{} lines", csv.lines().count());
    let m = measured(&dir.0, &["gens.eventlog", "--stats", "-o", "g.txt"]);
    within_limits(&m, "generation 65535, text");
    let text = std::fs::read_to_string(dir.path("g.txt")).unwrap();
    assert!(text.contains("counts every generation"), "{text}");
}

#[test]
fn values_past_64_bits_are_clamped_with_a_warning() {
    let dir = Scratch::new("limits-huge");
    let huge = format!("9{}", "0".repeat(31));
    let hp =
        format!("{HP_HEADER}BEGIN_SAMPLE 0\n(1)a/main\t{huge}\n(2)b/main\t{huge}\nEND_SAMPLE 0\n");
    std::fs::write(dir.path("huge.hp"), hp).unwrap();
    for out in ["h.pb.gz", "h.folded", "h.speedscope.json"] {
        let m = measured(&dir.0, &["huge.hp", "-o", out]);
        within_limits(&m, out);
        assert!(m.stderr.contains("64-bit"), "{out}: {}", m.stderr);
    }
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path("h.speedscope.json")).unwrap()).unwrap();
    let profile = &json["profiles"][0];
    let end = profile["endValue"].as_u64().unwrap();
    let weights: Vec<u64> = (profile["weights"].as_array().unwrap().iter())
        .map(|w| w.as_u64().unwrap())
        .collect();
    assert!(weights.iter().all(|&w| w <= end), "{end} below {weights:?}");
}

/// Starts hpgraph in `dir`, its output and errors to `out()`.
fn spawn(dir: &Path, args: &[&str], out: fn() -> Stdio) -> std::process::Child {
    crate::common::command(dir)
        .args(args)
        .stdin(Stdio::null())
        .stdout(out())
        .stderr(out())
        .spawn()
        .unwrap()
}

/// Runs hpgraph, killing it after `limit`: `None` when it had to be killed.
fn exits_within(dir: &Path, args: &[&str], limit: Duration) -> Option<std::process::Output> {
    let mut child = spawn(dir, args, Stdio::piped);
    let started = Instant::now();
    while started.elapsed() < limit {
        if child.try_wait().unwrap().is_some() {
            return Some(child.wait_with_output().unwrap());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().ok();
    child.wait().ok();
    None
}

#[test]
fn no_output_replaces_another_or_an_input() {
    let dir = Scratch::new("limits-outputs");
    let hp = common::fixtures().join("profiles/Quick-hc.hp");
    for name in ["a.hp", "a-key.hp"] {
        std::fs::copy(&hp, dir.path(name)).unwrap();
    }
    let gz = dir.path("p-key.gz");
    gzip(&gz, |w| w.write_all(&std::fs::read(&hp).unwrap()).unwrap());
    let before = std::fs::read(&gz).unwrap();
    for (args, says) in [
        (
            &["a.hp", "a-key.hp", "--format", "svg", "--key", "file"][..],
            "would both write",
        ),
        (
            &["p-key.gz", "-o", "p.gz", "--format", "svg", "--key", "file"],
            "would replace the input",
        ),
        (
            &["a.hp", "-o", "out.aux", "--format", "ps"],
            "would both be",
        ),
        (&["--compare", "a.hp", "a-key.hp", "-o", "a.hp.svg"], ""),
        (
            &[
                "--compare",
                "a.hp",
                "a-key.hp",
                "-o",
                "a-key.hp",
                "--format",
                "svg",
            ],
            "would replace the input",
        ),
        (&["--compare", "-", "-"], "read once"),
    ] {
        let m = measured(&dir.0, args);
        if says.is_empty() {
            within_limits(&m, "a compared picture beside its inputs");
            continue;
        }
        failed_with(&m, 2, &format!("{args:?}"), says);
    }
    assert_eq!(
        std::fs::read(&gz).unwrap(),
        before,
        "the input is untouched"
    );
    for never in ["a.svg", "a-key.svg", "p.gz", "out.aux"] {
        assert!(!dir.path(never).exists(), "{never} was written");
    }
    // --same-scale reads every input twice: not standard input.
    let m = measured_from(
        &dir.0,
        &["--same-scale", "-", "a.hp", "--format", "svg"],
        Some(&hp),
    );
    failed_with(&m, 2, "--same-scale with standard input", "read once");
    // One FIFO given twice is refused, not waited on for ever.
    let fifo = dir.path("f");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let out = exits_within(&dir.0, &["--compare", "f", "f"], CASE_TIME).expect("no hang");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    // A name of 254 bytes: the temporary beside it still fits the file system.
    let long = format!("{}.svg", "n".repeat(250));
    let m = measured(&dir.0, &["a.hp", "-o", &long]);
    within_limits(&m, "a 254-byte output name");
    assert!(dir.path(&long).exists());
    // Help that cannot be written is a failure.
    let full = crate::common::command(env!("CARGO_MANIFEST_DIR"))
        .arg("--help")
        .stdout(std::fs::File::create("/dev/full").unwrap())
        .status()
        .unwrap();
    assert_eq!(full.code(), Some(1));
}

/// The temporary files in `dir`.
fn temporaries(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".tmp"))
        .collect()
}

/// Starts hpgraph, waits until it is writing a temporary file, sends `signal`, and
/// returns its exit status.
fn signalled_while_writing(dir: &Path, args: &[&str], signal: i32) -> std::process::ExitStatus {
    let mut child = spawn(dir, args, Stdio::null);
    let started = Instant::now();
    while temporaries(dir).is_empty() {
        assert!(started.elapsed() < CASE_TIME, "no temporary file appeared");
        assert!(child.try_wait().unwrap().is_none(), "ended before writing");
        std::thread::sleep(Duration::from_millis(5));
    }
    // SAFETY: signalling our own child.
    unsafe { libc::kill(child.id() as libc::pid_t, signal) };
    child.wait().unwrap()
}

#[test]
fn a_signal_leaves_no_temporary_file() {
    let dir = Scratch::new("limits-signals");
    // Slow enough to write (4 million points of PostScript) that a signal comes while
    // the temporary is there.
    let mut slow = std::io::BufWriter::new(std::fs::File::create(dir.path("slow.hp")).unwrap());
    slow.write_all(HP_HEADER.as_bytes()).unwrap();
    for s in 0..200_000 {
        writeln!(slow, "BEGIN_SAMPLE {s}").unwrap();
        for b in 0..20 {
            writeln!(slow, "band{b}\t{}", (s * 7 + b * 13) % 1000).unwrap();
        }
        writeln!(slow, "END_SAMPLE {s}").unwrap();
    }
    slow.flush().unwrap();
    drop(slow);
    for signal in [libc::SIGTERM, libc::SIGINT, libc::SIGHUP] {
        // The signal can come as the finished file is renamed into place: then the run
        // ends whole, which is also no partial output. Try again until one is cut short.
        let cut = (0..5).any(|_| {
            let status = signalled_while_writing(&dir.0, &["slow.hp", "-o", "x.ps"], signal);
            assert!(temporaries(&dir.0).is_empty(), "{:?}", temporaries(&dir.0));
            if status.success() {
                std::fs::remove_file(dir.path("x.ps")).expect("a finished run's picture");
                return false;
            }
            assert!(!dir.path("x.ps").exists());
            true
        });
        assert!(
            cut,
            "signal {signal} never came while the picture was written"
        );
    }
    let status =
        signalled_while_writing(&dir.0, &["--watch", "slow.hp", "-o", "w.ps"], libc::SIGHUP);
    assert!(status.code().is_some(), "stopped, not killed: {status:?}");
    assert!(temporaries(&dir.0).is_empty(), "{:?}", temporaries(&dir.0));
}

#[test]
fn a_png_past_its_pixel_limit_is_a_usage_error() {
    let dir = Scratch::new("limits-png");
    let hp = common::fixtures().join("profiles/Quick-hc.hp");
    let hp = hp.to_str().unwrap();
    for args in [
        &[hp, "--size", "14400x14400", "--dpi", "100", "-o", "x.png"][..],
        &[hp, "--dpi", "2222", "-o", "x.png"],
    ] {
        let m = measured(&dir.0, args);
        failed_with(&m, 2, "a PNG too large", "more than hpgraph draws");
        assert!(!dir.path("x.png").exists());
    }
}

#[test]
fn names_a_hp_line_cannot_hold_are_written_so_they_read_back() {
    let dir = Scratch::new("limits-hp-names");
    let mut log = Writer::new();
    log.event(eventlog::PROF_BEGIN, 0, &[0u8; 13]);
    for t in 1..3u64 {
        log.begin(t);
        for name in [&b""[..], b" lead", b"BEGIN_SAMPLE 7", b"trail\t"] {
            log.string(t, name, 10 * t);
        }
        log.end(t);
    }
    std::fs::write(dir.path("odd.eventlog"), log.done()).unwrap();
    let m = measured(&dir.0, &["odd.eventlog", "-o", "odd.hp"]);
    within_limits(&m, "odd names to .hp");
    assert!(
        m.stderr.contains("cannot be written as .hp"),
        "{}",
        m.stderr
    );
    let m = measured(&dir.0, &["odd.hp", "-o", "back.json"]);
    within_limits(&m, "the .hp read back");
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path("back.json")).unwrap()).unwrap();
    assert_eq!(json["bands"].as_array().map(Vec::len), Some(4), "{json}");
    // hp2ps reads it too (where it is installed; CI installs it).
    if Command::new("hp2ps").arg("-?").output().is_ok() {
        let out = Command::new("hp2ps")
            .current_dir(&dir.0)
            .arg("odd.hp")
            .output()
            .unwrap();
        common::assert_ok(&out);
    } else {
        assert!(std::env::var_os("CI").is_none(), "hp2ps is needed");
    }
}

#[test]
fn a_name_cannot_reverse_or_hide_in_the_picture_or_page() {
    let dir = Scratch::new("limits-bidi");
    let hp = format!(
        "{HP_HEADER}BEGIN_SAMPLE 0\nevil\u{202e}gnp.exe\t10\ncaf\u{e9}\t20\ncafe\u{301}\t30\n\
         END_SAMPLE 0\nBEGIN_SAMPLE 1\nevil\u{202e}gnp.exe\t10\ncaf\u{e9}\t20\ncafe\u{301}\t30\n\
         END_SAMPLE 1\n"
    );
    std::fs::write(dir.path("names.hp"), hp).unwrap();
    for out in ["n.svg", "n.html"] {
        let m = measured(&dir.0, &["names.hp", "--style", "modern", "-o", out]);
        within_limits(&m, out);
        let text = std::fs::read_to_string(dir.path(out)).unwrap();
        assert!(!text.contains('\u{202e}'), "{out}: the control is obeyed");
        // What a reader sees: the text without its markup (the SVG places each glyph).
        let seen = common::without_markup(&text);
        assert!(
            seen.contains("evil\\u{202e}gnp"),
            "{out}: the control is shown"
        );
        assert!(seen.contains("(NFD)"), "{out}: look-alikes told apart");
    }
    // On the page each keeps its own colour from the picture, not OTHER's.
    let page = std::fs::read_to_string(dir.path("n.html")).unwrap();
    let field = |after: &str, key: &str| -> String {
        let at = page.find(after).expect(after) + after.len();
        let from = page[at..].find(key).expect(key) + at + key.len();
        page[from..from + 7].to_string()
    };
    let other = field("\"other_fill\"", ":\"");
    let nfc = field("\"name\":\"caf\u{e9}\"", "\"fill\":\"");
    let nfd = field("\"name\":\"cafe\u{301} (NFD)\"", "\"fill\":\"");
    assert!(
        nfc != nfd && nfc != other && nfd != other,
        "{nfc} {nfd} {other}"
    );
}

#[test]
fn standard_input_gives_what_the_file_gives() {
    let dir = Scratch::new("limits-stdin");
    let plain = common::fixtures().join("stats/ghc-9.0.2/Leak-G3.eventlog");
    let by_name = measured(&dir.0, &[plain.to_str().unwrap(), "-o", "file.svg"]);
    within_limits(&by_name, "a plain eventlog by name");
    let piped = measured_from(&dir.0, &["-o", "stdin.svg"], Some(&plain));
    within_limits(&piped, "a plain eventlog on standard input");
    assert_eq!(
        std::fs::read(dir.path("file.svg")).unwrap(),
        std::fs::read(dir.path("stdin.svg")).unwrap()
    );
}

#[test]
fn a_band_limit_apart_from_its_option_is_taken_as_meant() {
    let dir = Scratch::new("limits-m");
    let hp = common::fixtures().join("profiles/ManyCC-hc.hp");
    std::fs::copy(&hp, dir.path("prog.hp")).unwrap();
    let m = measured(&dir.0, &["-m", "10", "prog.hp"]);
    within_limits(&m, "-m 10 prog.hp");
    let aux = std::fs::read_to_string(dir.path("prog.aux")).unwrap();
    assert_eq!(aux.lines().filter(|l| l.starts_with("ORDER ")).count(), 10);
    // A file named 10 is read as hp2ps would: -m alone, then the profile 10.
    std::fs::copy(&hp, dir.path("10.hp")).unwrap();
    let m = measured(&dir.0, &["-m", "10"]);
    within_limits(&m, "-m then a profile named 10");
    assert!(dir.path("10.ps").exists());
}

/// A report deeper than `profile::costs::MAX_DEPTH` cost centres, as text (a row more
/// indented than the last, one past the limit) and as `-pj` JSON (children nested one
/// past it): an error naming the line (the byte offset for JSON), in bounded time and
/// memory, and nothing written.
#[test]
fn reports_past_the_depth_limit_are_errors_naming_where() {
    use hpgraph::profile::costs::MAX_DEPTH;
    let dir = Scratch::new("deep-report");
    let depth = MAX_DEPTH + 1;
    // Text: the tree's header puts MODULE past the deepest row's indentation.
    let label = depth + 8;
    let mut text = String::from(
        "\tThu Nov 26 00:00 2026 Time and Allocation Profiling Report  (Final)\n\n\t   p +RTS -P -RTS\n\n\
         \ttotal time  =        0.01 secs   (10 ticks @ 1000 us, 1 processor)\n\
         \ttotal alloc =       1,000 bytes  (excludes profiling overheads)\n\n",
    );
    text.push_str(&format!(
        "{:<label$}MODULE SRC        no.     entries  %time %alloc   %time %alloc  ticks     bytes\n\n",
        "COST CENTRE"
    ));
    for k in 0..depth {
        text.push_str(&format!(
            "{:<label$}Main   <built-in> {k:>4}           1    0.0    0.0     0.0    0.0      0         1\n",
            format!("{:k$}f", "")
        ));
    }
    std::fs::write(dir.path("deep.prof"), &text).unwrap();
    let m = measured(&dir.0, &["deep.prof", "-o", "deep.svg"]);
    // The row past the limit: the header's 9 lines, then MAX_DEPTH rows.
    let line = 9 + MAX_DEPTH + 1;
    failed_with(
        &m,
        1,
        "a text report too deep",
        &format!("deep.prof:{line}:"),
    );
    assert!(m.stderr.contains("deeper than"), "{}", m.stderr);
    assert_eq!(size(&dir, "deep.svg"), 0);
    // JSON.
    let mut json = String::from(
        "{\"program\": \"p\", \"end_time\": \"d\", \"total_time\": 0.01, \"total_ticks\": 10, \
         \"tick_interval\": 1000, \"total_alloc\": 1, \
         \"cost_centres\": [{\"id\": 1, \"label\": \"f\", \"module\": \"Main\", \"src_loc\": \"<built-in>\", \"is_caf\": false}],\n\
         \"profile\": ",
    );
    for _ in 0..depth {
        json.push_str("{\"id\": 1, \"entries\": 1, \"alloc\": 1, \"ticks\": 0, \"children\": [");
    }
    json.push_str(&"]}".repeat(depth));
    json.push_str("}\n");
    std::fs::write(dir.path("deep.json.prof"), &json).unwrap();
    let m = measured(&dir.0, &["deep.json.prof", "-o", "deep2.svg"]);
    failed_with(&m, 1, "a JSON report too deep", "past its limits");
    assert_eq!(size(&dir, "deep2.svg"), 0);
}

/// A report longer than `input::prof::MAX_GATHERED` through standard input (a stream,
/// read whole before its tree is parsed) is refused as it passes the bound, not read
/// into memory past it.
#[test]
fn a_report_past_the_byte_bound_is_refused_as_it_passes_it() {
    let limit = hpgraph::input::prof::MAX_GATHERED;
    let dir = Scratch::new("long-report");
    let mut child = crate::common::command(&dir.0)
        .args(["-", "-o", "long.svg"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        let head = "\tThu Nov 26 00:00 2026 Time and Allocation Profiling Report  (Final)\n\n";
        if stdin.write_all(head.as_bytes()).is_err() {
            return;
        }
        let filler = vec![b' '; 1 << 20];
        let mut sent = head.len();
        while sent <= limit + (1 << 20) {
            if stdin.write_all(&filler).is_err() {
                return; // hpgraph stopped reading: what the test wants
            }
            sent += filler.len();
        }
    });
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(&format!("longer than {} MiB", limit >> 20)),
        "{stderr}"
    );
    assert_eq!(size(&dir, "long.svg"), 0);
}

/// A `-pj` report listing more than `profile::costs::MAX_CENTRES` cost centres (one
/// past the limit), all on its first line, is an error naming where, in bounded time and
/// memory, and nothing is written.
#[test]
fn a_report_past_the_cost_centre_limit_is_an_error() {
    use hpgraph::profile::costs::MAX_CENTRES;
    let dir = Scratch::new("many-centres");
    let mut json = String::with_capacity(100 * (MAX_CENTRES + 1));
    json.push_str(
        "{\"program\": \"p\", \"end_time\": \"d\", \"total_time\": 0.01, \"total_ticks\": 10, \
         \"tick_interval\": 1000, \"total_alloc\": 1, \"cost_centres\": [",
    );
    for k in 0..=MAX_CENTRES {
        if k > 0 {
            json.push_str(", ");
        }
        json.push_str(&format!(
            "{{\"id\": {k}, \"label\": \"f{k}\", \"module\": \"Main\", \"src_loc\": \"<built-in>\", \"is_caf\": false}}"
        ));
    }
    json.push_str("],\n\"profile\": {\"id\": 0, \"entries\": 1, \"alloc\": 1, \"ticks\": 0, \"children\": []}}\n");
    std::fs::write(dir.path("many.prof"), &json).unwrap();
    let m = measured(&dir.0, &["many.prof", "-o", "many.svg"]);
    // All on one line (GHC's spacing): read as a report all the same.
    failed_with(
        &m,
        1,
        "a report of too many cost centres",
        &format!("many.prof:1: more than {MAX_CENTRES} cost centres"),
    );
    assert_eq!(size(&dir, "many.svg"), 0);
}

/// A picture past the file size limit (`ulimit -f`): the kernel's SIGXFSZ killed hpgraph
/// and left the output's temporary file; now the write fails, is said, and is cleaned up.
#[test]
fn a_write_past_the_file_size_limit_is_said_and_leaves_nothing() {
    use std::os::unix::process::CommandExt;
    let dir = Scratch::new("xfsz");
    let mut cmd = crate::common::command(&dir.0);
    cmd.arg(common::fixtures().join("profiles/ManyCC-hc.hp"))
        .args(["-o", "big.svg"]);
    // SAFETY: setrlimit(2) touches only the child's own limits, between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: 8192,
                rlim_max: 8192,
            };
            libc::setrlimit(libc::RLIMIT_FSIZE, &limit);
            Ok(())
        });
    }
    let out = cmd.output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let said = common::stderr(&out);
    assert!(said.starts_with("hpgraph: big.svg: cannot write"), "{said}");
    let left: Vec<_> = std::fs::read_dir(&dir.0).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
}
