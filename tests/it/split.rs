//! An eventlog read in two parts on two threads (for the runtime's account, as a large
//! file's `--stats` is read) gives what one pass gives: the profile, the runtime's
//! account, every warning and every error, wherever the second part begins.

use hpgraph::input::{self, Options, Parsed, RuntimeReading, eventlog};

use crate::common::eventlog::{
    BLOCK_MARKER, CONC_SYNC_BEGIN, CONC_SYNC_END, GC_END, GC_START, GC_STATS_GHC, HEAP_ALLOCATED,
    HEAP_LIVE, HEAP_SIZE, USER_MARKER, Writer,
};

/// What one pass over `bytes` gives.
fn one_pass(bytes: &[u8], options: Options) -> Result<Parsed, String> {
    input::read(bytes, options).map_err(|e| format!("{e:?}"))
}

/// What two parts give, the second from the first block at or after `middle`; `None`
/// where the file is not split there.
fn in_two(bytes: &[u8], options: Options, middle: usize) -> Option<Result<Parsed, String>> {
    let feed = |p: &mut eventlog::Parser, from: usize, until: usize, eof: bool| {
        p.feed(&bytes[from..until], eof).map(|used| from + used)
    };
    let read = eventlog::split::read(bytes, options, Some(middle), &feed)?;
    Some(read.map_err(|e| format!("{:?}", input::Error::from(e))))
}

const RUNTIME: Options = Options::new().with_heap(false).with_runtime(true);

/// What `--stats` alone has read: the runtime's account, without marks or heap readings.
const STATS_ALONE: Options = RUNTIME.with_runtime_reading(RuntimeReading::Account);

/// What `--stats` of the whole run has read: as [`STATS_ALONE`], and each capability's
/// last allocation reading rather than every one.
const STATS_TOTALS: Options = RUNTIME.with_runtime_reading(RuntimeReading::Totals);

/// Every split of `bytes` at a tenth of its length after another gives the one pass's
/// result; how many were split.
fn agrees_at_every_tenth(name: &str, bytes: &[u8], options: Options) -> usize {
    let whole = one_pass(bytes, options);
    let mut split = 0;
    for tenth in 1..10 {
        if let Some(two) = in_two(bytes, options, bytes.len() * tenth / 10) {
            assert!(two == whole, "{name} split at {tenth}/10 with {options:?}");
            split += 1;
        }
    }
    split
}

/// The offsets of the blocks of `bytes`, from the end of its header, by their markers'
/// lengths (GHC's layout: a block marker's payload starts with its block's length).
fn blocks(bytes: &[u8]) -> Vec<usize> {
    let data = bytes
        .windows(12)
        .position(|w| w == b"hetehdredatb")
        .unwrap()
        + 12;
    let mut at = data;
    let mut found = Vec::new();
    while bytes.get(at..at + 2) == Some(&BLOCK_MARKER.to_be_bytes()[..])
        && let Some(len) = bytes.get(at + 10..at + 14)
    {
        found.push(at);
        at += u32::from_be_bytes(len.try_into().unwrap()) as usize;
    }
    found
}

/// Splitting `bytes` at each of its blocks gives the one pass's result.
fn agrees_at_every_block(name: &str, bytes: &[u8], options: Options) {
    let whole = one_pass(bytes, options);
    for at in blocks(bytes).into_iter().filter(|&at| at < bytes.len()) {
        let two = in_two(bytes, options, at).expect("a run of blocks");
        assert!(two == whole, "{name} split at byte {at} with {options:?}");
    }
}

#[test]
fn every_fixture_eventlog_reads_the_same_in_two_parts() {
    let (mut files, mut splits) = (0, 0);
    for path in crate::common::fixture_eventlogs() {
        let bytes = std::fs::read(&path).unwrap();
        let name = path.display().to_string();
        for heap in [false, true] {
            splits += agrees_at_every_tenth(&name, &bytes, RUNTIME.with_heap(heap));
        }
        splits += agrees_at_every_tenth(&name, &bytes, STATS_ALONE);
        splits += agrees_at_every_tenth(&name, &bytes, STATS_TOTALS);
        // GHC's own runs (the edge cases are made to be broken).
        // (What each capability did and the non-moving heap's events are read too: a
        // part that begins with a thread running is closed by the part before.)
        if [
            "fixtures/eventlog",
            "fixtures/stats",
            "fixtures/capabilities",
            "fixtures/nonmoving",
        ]
        .iter()
        .any(|d| name.contains(d))
        {
            agrees_at_every_block(&name, &bytes, RUNTIME);
            agrees_at_every_block(&name, &bytes, STATS_ALONE);
            agrees_at_every_block(&name, &bytes, STATS_TOTALS);
        }
        files += 1;
    }
    assert!(files > 100, "{files} eventlogs");
    // Most are many blocks long: the two parts were really read apart.
    assert!(splits > files * 10, "{splits} splits of {files} eventlogs");
}

#[test]
fn a_cut_or_broken_second_part_reads_as_in_one_pass() {
    let path = "fixtures/stats/ghc-9.6.6";
    let mut checked = 0;
    for entry in std::fs::read_dir(path).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "eventlog") {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let name = path.display().to_string();
        // Cut short (a run still writing, or killed): no data-end marker.
        agrees_at_every_tenth(&name, &bytes[..bytes.len() * 4 / 5], RUNTIME);
        // A byte gone wrong in the second half: an event type nothing declared, or a
        // block's length running past the file.
        for at in [bytes.len() * 3 / 4, bytes.len() * 9 / 10] {
            for byte in [0xfe, 0x00] {
                let mut broken = bytes.clone();
                broken[at] = byte;
                agrees_at_every_tenth(&name, &broken, RUNTIME);
            }
        }
        checked += 1;
    }
    assert!(checked >= 3, "{checked} eventlogs");
}

/// An eventlog of one capability's blocks: collections, and after them `left` heap
/// readings, which the second part leaves to the first.
fn blocks_with(left: usize) -> Vec<u8> {
    let mut w = Writer::new();
    let mut time = 0;
    let mut block = |w: &mut Writer, events: &mut dyn FnMut(&mut Writer, &mut u64)| {
        let at = w.bytes.len();
        w.event(BLOCK_MARKER, time, &[0; 14]);
        events(w, &mut time);
        let len = (w.bytes.len() - at) as u32;
        w.bytes[at + 10..at + 14].copy_from_slice(&len.to_be_bytes());
        // Its end time, as the runtime writes it when it flushes the block: after its
        // last event (a collection's end, 20 ns after its start).
        w.bytes[at + 14..at + 22].copy_from_slice(&(time + 20).to_be_bytes());
    };
    for _ in 0..20 {
        block(&mut w, &mut |w, t| {
            for _ in 0..50 {
                *t += 1000;
                w.event(GC_START, *t, &[]);
                let mut stats = vec![0u8; 50];
                stats[4..6].copy_from_slice(&1u16.to_be_bytes());
                w.event(GC_STATS_GHC, *t + 10, &stats);
                w.event(GC_END, *t + 20, &[]);
            }
        });
    }
    let per_block = 50_000;
    for _ in 0..left.div_ceil(per_block) {
        block(&mut w, &mut |w, t| {
            for k in 0..per_block as u64 {
                *t += 1;
                let mut p = 0u32.to_be_bytes().to_vec();
                p.extend((k * 8).to_be_bytes());
                w.event(HEAP_SIZE, *t, &p);
            }
        });
    }
    w.done()
}

#[test]
fn the_runtime_read_alone_is_a_whole_readings_and_keeps_no_mark_or_heap_line() {
    let mut read = 0;
    for path in crate::common::fixture_eventlogs() {
        let bytes = std::fs::read(&path).unwrap();
        let name = path.display();
        match (one_pass(&bytes, RUNTIME), one_pass(&bytes, STATS_ALONE)) {
            (Ok(whole), Ok(alone)) => {
                // (What each capability did is not read for the account alone.)
                let whole_account = hpgraph::profile::Runtime {
                    activity: Default::default(),
                    ..whole.profile.series().runtime.clone()
                };
                assert!(alone.profile.series().runtime == whole_account, "{name}");
                let heap = &alone.profile.series().heap;
                assert!(heap.size.is_empty() && heap.live.is_empty(), "{name}");
                assert!(
                    heap.blocks.is_empty() && alone.profile.series().marks.is_empty(),
                    "{name}"
                );
                read += usize::from(!whole.profile.series().heap.size.is_empty());
            }
            (Err(a), Err(b)) => assert_eq!(a, b, "{name}"),
            // The scheduler's events alone: no statistics to read for the account.
            (Ok(whole), Err(b))
                if whole.profile.series().runtime.is_empty() && b.contains("NoRuntimeEvents") => {}
            (a, b) => panic!("{name}: {:?} and {:?}", a.err(), b.err()),
        }
    }
    assert!(read > 20, "{read} eventlogs have heap readings");
}

#[test]
fn the_whole_runs_figures_read_alone_are_those_of_every_reading() {
    use hpgraph::analysis::stats::stats;
    use hpgraph::profile::Runtime;
    use hpgraph::profile::totals::{Span, Totals};
    let mut read = 0;
    for path in crate::common::fixture_eventlogs() {
        let bytes = std::fs::read(&path).unwrap();
        let name = path.display();
        match (one_pass(&bytes, RUNTIME), one_pass(&bytes, STATS_TOTALS)) {
            (Ok(every), Ok(totals)) => {
                let (every, totals) = (
                    &every.profile.series().runtime,
                    &totals.profile.series().runtime,
                );
                assert_eq!(totals.is_empty(), every.is_empty(), "{name}");
                assert!(
                    stats(totals, None, None) == stats(every, None, None),
                    "{name}"
                );
                // The collections added up as read: each one's span, in order, and
                // what they all add up to; nothing else changed but the lists.
                let summed = totals.summed.as_ref().expect("added up");
                let spans: Vec<Span> = every.gcs.iter().map(Span::from).collect();
                assert!(summed.spans().collect::<Vec<_>>() == spans, "{name}");
                let mut all = Totals::default();
                every.gcs.iter().for_each(|gc| all.add(gc));
                assert!(summed.totals == all, "{name}");
                assert!(
                    totals.gcs.is_empty() && totals.allocation.is_empty(),
                    "{name}"
                );
                let rest = Runtime {
                    gcs: Vec::new(),
                    allocation: Vec::new(),
                    summed: totals.summed.clone(),
                    activity: Default::default(),
                    sparks: Vec::new(),
                    ..every.clone()
                };
                assert!(*totals == rest, "{name}");
                read += usize::from(every.allocation.len() > 1);
            }
            (Err(a), Err(b)) => assert_eq!(a, b, "{name}"),
            // The scheduler's events alone: no statistics to read for the account.
            (Ok(whole), Err(b))
                if whole.profile.series().runtime.is_empty() && b.contains("NoRuntimeEvents") => {}
            (a, b) => panic!("{name}: {:?} and {:?}", a.err(), b.err()),
        }
    }
    assert!(read > 50, "{read} eventlogs have allocation readings");
}

#[test]
fn past_the_events_a_second_part_may_leave_the_first_reads_on_alone() {
    let past = eventlog::split::MAX_LEFT * 2 + 100_000;
    let bytes = blocks_with(past);
    for options in [RUNTIME, RUNTIME.with_heap(true)] {
        let whole = one_pass(&bytes, options);
        let parsed = whole.as_ref().expect("a runtime's account");
        assert!(parsed.profile.series().runtime.gcs.len() == 1000);
        assert!(in_two(&bytes, options, bytes.len() / 2) == Some(whole.clone()));
        // Within the bound, the second part is taken in.
        let within = blocks_with(eventlog::split::MAX_LEFT / 2);
        assert!(in_two(&within, options, within.len() / 2) == Some(one_pass(&within, options)));
    }
}

/// Two capabilities' blocks of `per_block` events each, in turn, holding collections
/// led by either (each capability's `GC_START`, the leader's figures, both ends, both
/// allocation counters, heap size, live bytes after a major one), the non-moving
/// collector's synchronisations and markers: every state a part can begin in.
fn two_capabilities(per_block: usize) -> Vec<u8> {
    let mut events: [Vec<(u16, u64, Vec<u8>)>; 2] = [Vec::new(), Vec::new()];
    let capset = |bytes: u64| [0u32.to_be_bytes().to_vec(), bytes.to_be_bytes().to_vec()].concat();
    for gc in 0..60u64 {
        let (leader, other) = ((gc % 3 == 1) as usize, (gc % 3 != 1) as usize);
        let t = 1_000_000 * (gc + 1);
        let mut stats = vec![0u8; 50];
        stats[4..6].copy_from_slice(&((gc % 4 == 0) as u16).to_be_bytes());
        stats[6..14].copy_from_slice(&(gc * 100).to_be_bytes());
        events[leader].push((GC_START, t, vec![]));
        events[other].push((GC_START, t + 5, vec![]));
        events[leader].push((GC_STATS_GHC, t + 40, stats));
        events[other].push((GC_END, t + 50, vec![]));
        events[leader].push((GC_END, t + 60, vec![]));
        for (cap, list) in events.iter_mut().enumerate() {
            list.push((HEAP_ALLOCATED, t + 70, capset(gc * 1000 + cap as u64)));
        }
        events[leader].push((HEAP_SIZE, t + 80, capset(4096 * gc)));
        if gc % 4 == 0 {
            events[leader].push((HEAP_LIVE, t + 90, capset(1024 * gc)));
        }
        if gc % 5 == 2 {
            events[0].push((CONC_SYNC_BEGIN, t + 100, vec![]));
            events[0].push((USER_MARKER, t + 200, format!("gc {gc}").into_bytes()));
            events[0].push((CONC_SYNC_END, t + 300, vec![]));
        }
    }
    let mut w = Writer::new();
    let mut chunks: Vec<_> = events.iter().map(|e| e.chunks(per_block)).collect();
    loop {
        let mut any = false;
        for (cap, chunk) in chunks.iter_mut().enumerate() {
            let Some(chunk) = chunk.next() else { continue };
            any = true;
            let at = w.bytes.len();
            let mut marker = vec![0u8; 14];
            marker[12..14].copy_from_slice(&(cap as u16).to_be_bytes());
            w.event(BLOCK_MARKER, chunk[0].1, &marker);
            for (ty, time, payload) in chunk {
                w.event(*ty, *time, payload);
            }
            let len = (w.bytes.len() - at) as u32;
            w.bytes[at + 10..at + 14].copy_from_slice(&len.to_be_bytes());
            let end = chunk.last().unwrap().1;
            w.bytes[at + 14..at + 22].copy_from_slice(&end.to_be_bytes());
        }
        if !any {
            break;
        }
    }
    w.done()
}

#[test]
fn a_collection_cut_by_the_parts_anywhere_is_read_whole() {
    for per_block in 1..=7 {
        let bytes = two_capabilities(per_block);
        let whole = one_pass(&bytes, RUNTIME).expect("a runtime's account");
        let rt = &whole.profile.series().runtime;
        assert_eq!((rt.gcs.len(), rt.syncs.len()), (60, 12));
        assert!(
            rt.gcs
                .iter()
                .all(|g| g.end > g.start && g.heap_size.is_some())
        );
        for options in [RUNTIME, RUNTIME.with_heap(true), STATS_ALONE, STATS_TOTALS] {
            agrees_at_every_block(&format!("{per_block} a block"), &bytes, options);
        }
        // Cut short, within a collection's events.
        for cut in [
            bytes.len() / 2 + 7,
            bytes.len() * 3 / 4 + 3,
            bytes.len() - 40,
        ] {
            for options in [RUNTIME, STATS_TOTALS] {
                let name = format!("{per_block} a block, cut");
                agrees_at_every_block(&name, &bytes[..cut], options);
            }
        }
    }
}

#[test]
fn collections_ending_before_they_start_are_left_out_of_the_totals_too() {
    use hpgraph::analysis::stats::stats;
    let mut w = Writer::new();
    let mut t = 0;
    for gc in 0..30u64 {
        t += 1000;
        let mut stats = vec![0u8; 50];
        stats[6..14].copy_from_slice(&(gc + 1).to_be_bytes());
        w.event(GC_START, t, &[]);
        w.event(GC_STATS_GHC, t + 10, &stats);
        // Every seventh ends before it starts (a hostile or broken eventlog).
        let end = if gc % 7 == 3 { t - 500 } else { t + 20 };
        w.event(GC_END, end, &[]);
    }
    let bytes = w.done();
    let every = one_pass(&bytes, RUNTIME).expect("a runtime's account");
    let totals = one_pass(&bytes, STATS_TOTALS).expect("a runtime's account");
    let (a, b) = (
        &every.profile.series().runtime,
        &totals.profile.series().runtime,
    );
    assert_eq!((a.gcs.len(), a.inconsistent), (26, 4));
    assert_eq!(b.inconsistent, 4);
    assert_eq!(every.warnings, totals.warnings);
    assert!(stats(a, None, None) == stats(b, None, None));
    assert_eq!(
        stats(b, None, None).copied,
        (1..=30).sum::<u64>() - (4 + 11 + 18 + 25)
    );
}
