//! Every list that grows with the input has a bound: the bombs of the security review,
//! each a small compressed file that expands to hundreds of megabytes of one repeated
//! record, run through the release binary with its peak memory measured by the kernel
//! (`wait4`'s `ru_maxrss`), not by hpgraph.

use crate::common::Scratch;
use crate::common::eventlog::{self, Writer};
use crate::common::measure::{gzip, measured, within_bounds};

const HP_HEADER: &str = "JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n\
    BEGIN_SAMPLE 0\na\t10\nEND_SAMPLE 0\nBEGIN_SAMPLE 1\na\t20\nEND_SAMPLE 1\n";

#[test]
fn forty_million_marks_draw_in_bounded_memory() {
    let dir = Scratch::new("bounds-marks");
    let bomb = dir.path("marks.hp.gz");
    gzip(&bomb, |w| {
        w.write_all(HP_HEADER.as_bytes()).unwrap();
        let block = "MARK 0.5\n".repeat(100_000);
        for _ in 0..400 {
            w.write_all(block.as_bytes()).unwrap();
        }
    });
    for format in ["svg", "pdf"] {
        let out = format!("out.{format}");
        let m = measured(&dir.0, &["marks.hp.gz", "-o", &out]);
        within_bounds(&m, &format!("40 M marks to {format}"));
        assert!(m.stderr.contains("marks"), "says it thinned: {}", m.stderr);
        assert_eq!(m.stderr.matches("marks:").count(), 1, "once: {}", m.stderr);
        let size = std::fs::metadata(dir.path(&out)).unwrap().len();
        assert!(
            size < 1 << 20,
            "{format}: {size} bytes for one distinct mark"
        );
    }
}

#[test]
fn distinct_marks_past_the_bound_are_thinned_across_the_run() {
    use hpgraph::profile::MAX_MARKS;
    let mut hp = String::from(HP_HEADER);
    let n = 3 * MAX_MARKS + 7;
    for k in 0..n {
        hp += &format!("MARK {}\n", k as f64 / n as f64);
    }
    let parsed = hpgraph::input::parse(hp.as_bytes()).unwrap();
    let marks = &parsed.profile.series().marks;
    assert!(marks.len() <= MAX_MARKS && marks.len() > MAX_MARKS / 4);
    // Spread over the run: the first mark stays, and some come from its last tenth.
    assert_eq!(marks[0].time, 0.0);
    assert!(marks.iter().any(|m| m.time > 0.9));
    assert!(marks.windows(2).all(|w| w[0].time < w[1].time));
}

#[test]
fn twenty_thousand_long_user_markers_are_cut_and_bounded() {
    let dir = Scratch::new("bounds-markers");
    let bomb = dir.path("markers.eventlog.gz");
    let text = "m".repeat(65_000);
    gzip(&bomb, |w| {
        let mut log = Writer::new();
        log.event(eventlog::PROF_BEGIN, 0, &[0u8; 13])
            .begin(1)
            .string(1, b"x", 10)
            .end(1)
            .begin(2)
            .string(2, b"x", 20)
            .end(2);
        w.write_all(&log.bytes).unwrap();
        for k in 0..20_000u64 {
            let mut one = Writer { bytes: Vec::new() };
            one.marker(k, &format!("{k}{text}"));
            w.write_all(&one.bytes).unwrap();
        }
        w.write_all(&0xffffu16.to_be_bytes()).unwrap();
    });
    for format in ["svg", "html"] {
        let out = format!("out.{format}");
        let m = measured(&dir.0, &["markers.eventlog.gz", "-o", &out]);
        within_bounds(&m, &format!("20,000 markers of 65 kB to {format}"));
        assert!(m.stderr.contains("cut"), "{}", m.stderr);
        assert!(m.stderr.contains("marks"), "{}", m.stderr);
    }
}

#[test]
fn twenty_thousand_long_cost_centres_are_cut_and_bounded() {
    let dir = Scratch::new("bounds-ccs");
    let bomb = dir.path("ccs.eventlog.gz");
    let label = "c".repeat(65_000);
    gzip(&bomb, |w| {
        let mut log = Writer::new();
        // Heap profile begin, broken down by cost-centre stack (1).
        log.event(
            eventlog::PROF_BEGIN,
            0,
            &[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1],
        );
        w.write_all(&log.bytes).unwrap();
        for k in 0..20_000u32 {
            let mut p = k.to_be_bytes().to_vec();
            p.extend(format!("{k}{label}").as_bytes()[..65_000].iter());
            p.push(0);
            p.extend(b"M\0S\0\0");
            let mut one = Writer { bytes: Vec::new() };
            one.event(eventlog::COST_CENTRE, 0, &p);
            w.write_all(&one.bytes).unwrap();
        }
        let mut tail = Writer { bytes: Vec::new() };
        for t in 1..3u64 {
            // A stack of 200 of the long cost centres.
            let mut p = vec![0u8];
            p.extend((t * 100).to_be_bytes());
            p.push(200);
            for k in 0..200u32 {
                p.extend(k.to_be_bytes());
            }
            tail.begin(t).event(eventlog::SAMPLE_CC, t, &p).end(t);
        }
        w.write_all(&tail.bytes).unwrap();
        w.write_all(&0xffffu16.to_be_bytes()).unwrap();
    });
    for format in ["svg", "html"] {
        let out = format!("out.{format}");
        let m = measured(&dir.0, &["ccs.eventlog.gz", "-o", &out]);
        within_bounds(&m, &format!("20,000 cost centres of 65 kB to {format}"));
        assert!(m.stderr.contains("cut"), "{}", m.stderr);
        // Cut to 4 kB each they still pass MAX_NAMING_BYTES (64 MiB) at about 16,000.
        assert!(
            m.stderr.contains("later definitions ignored"),
            "{}",
            m.stderr
        );
    }
    let m = measured(&dir.0, &["ccs.eventlog.gz", "--flame", "-o", "flame.svg"]);
    within_bounds(&m, "a flame graph of them");
}

#[test]
fn forty_million_heap_readings_are_merged_in_bounded_memory() {
    use hpgraph::profile::MAX_HEAP_POINTS;
    let dir = Scratch::new("bounds-heap");
    let bomb = dir.path("heap.eventlog.gz");
    gzip(&bomb, |w| {
        let mut log = Writer::new();
        log.event(eventlog::PROF_BEGIN, 0, &[0u8; 13])
            .begin(1)
            .string(1, b"x", 10)
            .end(1);
        w.write_all(&log.bytes).unwrap();
        let mut block = Writer { bytes: Vec::new() };
        for k in 0..100_000u64 {
            let mut p = 0u32.to_be_bytes().to_vec();
            p.extend((1000 + k % 7).to_be_bytes());
            block.event(eventlog::HEAP_SIZE, 2 + k, &p);
        }
        for _ in 0..400 {
            w.write_all(&block.bytes).unwrap();
        }
        let mut tail = Writer { bytes: Vec::new() };
        tail.begin(1_000_000)
            .string(1_000_000, b"x", 20)
            .end(1_000_000);
        w.write_all(&tail.bytes).unwrap();
        w.write_all(&0xffffu16.to_be_bytes()).unwrap();
    });
    let m = measured(
        &dir.0,
        &["heap.eventlog.gz", "--heap-lines", "-o", "out.svg"],
    );
    within_bounds(&m, "40 M heap readings");
    assert!(m.stderr.contains("heap readings"), "{}", m.stderr);
    let m = measured(&dir.0, &["heap.eventlog.gz", "-o", "out.json"]);
    within_bounds(&m, "40 M heap readings to JSON");
    let json = std::fs::read_to_string(dir.path("out.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let size = v["heap"]["size"].as_array().expect("the heap size line");
    assert!(size.len() <= MAX_HEAP_POINTS, "{} readings", size.len());
    // Each merged reading keeps the larger of the pair: the top survives.
    assert!(
        size.iter().any(|p| p[1].as_f64() == Some(1006.0)),
        "the peak kept"
    );
}

#[test]
fn five_million_new_names_read_in_bounded_memory() {
    let dir = Scratch::new("bounds-names");
    let bomb = dir.path("names.hp.gz");
    gzip(&bomb, |w| {
        w.write_all(HP_HEADER.as_bytes()).unwrap();
        for t in 2..502 {
            let sample: String = (0..10_000)
                .map(|k| format!("n{t}_{k}\t{}\n", 1 + k % 5))
                .collect();
            write!(w, "BEGIN_SAMPLE {t}\n{sample}END_SAMPLE {t}\n").unwrap();
        }
    });
    let m = measured(&dir.0, &["names.hp.gz", "-o", "out.svg"]);
    within_bounds(&m, "5 M distinct names");
    // Five million names and the header's one, less the 99,999 kept beside OTHER.
    assert!(
        m.stderr.contains("the 4900002 smallest merged"),
        "{}",
        m.stderr
    );
}

#[test]
fn a_million_and_a_half_collections_read_in_bounded_memory() {
    // Past MAX_GCS collections are counted, not kept; past MAX_ALLOCATION_READINGS the
    // allocation counters' readings are not kept (the run's total stays exact: each
    // capability's last reading); past MAX_PAGE_GCS the page carries none and says so.
    use hpgraph::analysis::page::MAX_PAGE_GCS;
    use hpgraph::profile::{MAX_ALLOCATION_READINGS, MAX_GCS};
    const N: u64 = 1_500_000;
    assert!(N as usize > MAX_GCS && 2 * N as usize > MAX_ALLOCATION_READINGS / 2);
    let dir = Scratch::new("bounds-gcs");
    let bomb = dir.path("gcs.eventlog.gz");
    gzip(&bomb, |w| {
        let log = Writer::new();
        w.write_all(&log.bytes).unwrap();
        let mut block = Writer { bytes: Vec::new() };
        let mut k = 0u64;
        while k < N {
            block.bytes.clear();
            for _ in 0..10_000 {
                let t = 1_000 * (k + 1);
                let mut stats = 0u32.to_be_bytes().to_vec();
                stats.extend((u16::from(k.is_multiple_of(10))).to_be_bytes());
                stats.extend(64u64.to_be_bytes()); // copied
                stats.extend(8u64.to_be_bytes()); // slop
                stats.extend(0u64.to_be_bytes()); // fragmentation
                stats.extend(1u32.to_be_bytes()); // threads
                stats.extend(64u64.to_be_bytes());
                stats.extend(64u64.to_be_bytes());
                let mut allocated = 0u32.to_be_bytes().to_vec();
                allocated.extend((4096 * (k + 1)).to_be_bytes());
                block
                    .event(eventlog::GC_START, t, &[])
                    .event(eventlog::GC_STATS_GHC, t + 100, &stats)
                    .event(eventlog::GC_END, t + 200, &[])
                    .event(eventlog::HEAP_ALLOCATED, t + 300, &allocated);
                k += 1;
            }
            w.write_all(&block.bytes).unwrap();
        }
        w.write_all(&0xffffu16.to_be_bytes()).unwrap();
    });
    let m = measured(
        &dir.0,
        &["gcs.eventlog.gz", "--stats=json", "-o", "stats.json"],
    );
    within_bounds(&m, "1.5 M collections, --stats");
    let stats: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path("stats.json")).unwrap()).unwrap();
    assert_eq!(
        stats["collections_not_kept"].as_u64(),
        Some(N - MAX_GCS as u64),
        "{stats}"
    );
    assert_eq!(
        stats["allocated"].as_u64(),
        Some(4096 * N),
        "the run's total stays exact"
    );
    let m = measured(&dir.0, &["gcs.eventlog.gz", "-o", "page.html"]);
    within_bounds(&m, "1.5 M collections, the page");
    let page = std::fs::read_to_string(dir.path("page.html")).unwrap();
    assert!(
        N as usize > MAX_PAGE_GCS && page.contains("\"too_many\":true"),
        "the page says so"
    );
    let m = measured(&dir.0, &["gcs.eventlog.gz", "-o", "lines.svg"]);
    within_bounds(&m, "1.5 M collections, a picture");
}
