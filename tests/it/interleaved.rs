//! Eventlogs whose runtime wrote one event inside another (GHC 9.0's profiling timer
//! writes its time sample from its own thread into the global buffer, whatever event the
//! program is writing there), and eventlogs truly damaged: the first are read whole, as
//! if the events had been written apart; the second are read past the damage, and the
//! loss said. The files are real runs of three GHCs (fixtures/eventlog*) with the
//! runtime's interleaving laid into them at every kind of place; the reading they are
//! held to is that of the same file undamaged (itself held to GHC's own `.hp` by
//! `eventlog.rs`).

use std::path::PathBuf;

use hpgraph::input::{self, Options, WarningKind, eventlog};

use crate::common::eventlog::{
    BLOCK_MARKER, GC_END, HEAP_SIZE, SAMPLE_CC, SAMPLE_STRING, Writer, block_of, prof_sample,
    splice, time_of,
};
use crate::common::fixtures;

/// The fixture eventlogs of the three GHCs whose name ends so.
fn runs(ending: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for dir in ["eventlog", "eventlog-9.6", "eventlog-9.10"] {
        for entry in std::fs::read_dir(fixtures().join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.to_string_lossy().ends_with(ending) {
                found.push(path);
            }
        }
    }
    found.sort();
    assert!(found.len() >= 3, "{ending}: {found:?}");
    found
}

/// A block's marker: its offset, length and capability.
type Block = (usize, usize, u16);
/// An event: its offset, type and whole length.
type Event = (usize, u16, usize);

/// Every block of a real eventlog: its marker's offset, length and capability, walked
/// by the markers' lengths; and each event in it, `(offset, type, length)`, read as
/// GHC's `EventLogFormat.h` lays them out, an IPE event as ghc-events reads it (its
/// strings to their NULs: GHC 9.6 on declare it a byte long).
fn blocks(bytes: &[u8]) -> Vec<(Block, Vec<Event>)> {
    let u16_at = |i: usize| u16::from_be_bytes([bytes[i], bytes[i + 1]]);
    let u32_at = |i: usize| u32::from_be_bytes(bytes[i..i + 4].try_into().unwrap());
    let (mut sizes, mut i) = (std::collections::HashMap::new(), 8);
    while &bytes[i..i + 4] == b"etb\0" {
        sizes.insert(u16_at(i + 4), u16_at(i + 6));
        i += 8;
        i += 4 + u32_at(i) as usize;
        i += 4 + u32_at(i) as usize;
        i += 4;
    }
    i += 12;
    let mut out = Vec::new();
    while i + 2 <= bytes.len() && u16_at(i) == BLOCK_MARKER {
        let (len, cap) = (u32_at(i + 10) as usize, u16_at(i + 22));
        let mut evs = Vec::new();
        let mut e = i + 24;
        while e + 2 <= i + len && u16_at(e) != 0xffff {
            let ty = u16_at(e);
            let n = match sizes[&ty] {
                _ if ty == 169 => {
                    let mut at = e + 12 + 8;
                    for _ in 0..6 {
                        at += bytes[at..].iter().position(|&c| c == 0).unwrap() + 1;
                    }
                    at - e
                }
                0xffff => 12 + usize::from(u16_at(e + 10)),
                n => 10 + usize::from(n),
            };
            evs.push((e, ty, n));
            e += n;
        }
        out.push(((i, len, cap), evs));
        i += len;
    }
    out
}

/// Events of `ty` in the global buffer's blocks, each `(offset, length)`, up to `n`
/// spread over the file.
fn global(bytes: &[u8], ty: u16, n: usize) -> Vec<(usize, usize)> {
    let found: Vec<_> = (blocks(bytes).into_iter())
        .filter(|b| b.0.2 == 0xffff)
        .flat_map(|b| b.1)
        .filter(|e| e.1 == ty)
        .map(|e| (e.0, e.2))
        .collect();
    let step = (found.len() / n).max(1);
    found.into_iter().step_by(step).take(n).collect()
}

fn warnings(bytes: &[u8]) -> Vec<WarningKind> {
    let parsed = input::read(bytes, Options::default()).expect("reads");
    parsed.warnings.into_iter().map(|w| w.kind).collect()
}

/// Places inside an event of `len` bytes where a write from another thread can land:
/// within its type, its time, its length, its fields, before its last byte.
fn places(len: usize) -> Vec<usize> {
    let mut k = vec![1, 2, 5, 9, 10, 11, 12, 13, len / 2, len - 1];
    k.retain(|&k| k < len);
    k.dedup();
    k
}

fn read_apart(ending: &str, ty: u16) {
    let mut cases = 0;
    for path in runs(ending) {
        let bytes = std::fs::read(&path).unwrap();
        let whole = eventlog::heap_events(&bytes).unwrap();
        for (at, len) in global(&bytes, ty, 4) {
            for k in places(len) {
                let inner = prof_sample(time_of(&bytes, at), 7, 1);
                let spliced = splice(&bytes, at, k, &inner);
                let read = eventlog::heap_events(&spliced)
                    .unwrap_or_else(|e| panic!("{}: {k} into byte {at}: {e}", path.display()));
                assert!(
                    read == whole,
                    "{}: a sample {k} bytes into the event at byte {at}: the censuses differ",
                    path.display()
                );
                let said = warnings(&spliced);
                assert!(
                    said.contains(&WarningKind::ReadApart(1)),
                    "{}: {said:?}",
                    path.display()
                );
                assert!(
                    !said
                        .iter()
                        .any(|w| matches!(w, WarningKind::BytesLost { .. })),
                    "{}: {k} into {at}: {said:?}",
                    path.display()
                );
                cases += 1;
            }
        }
    }
    assert!(cases > 50, "{cases} cases");
}

#[test]
fn a_time_sample_written_inside_a_cost_centre_census_event_is_read_apart() {
    read_apart("-hc.eventlog", SAMPLE_CC);
}

#[test]
fn a_time_sample_written_inside_a_string_census_event_is_read_apart() {
    read_apart("-hT.eventlog", SAMPLE_STRING);
}

#[test]
fn two_samples_written_inside_events_of_one_block_are_both_read_apart() {
    for path in runs("-hy.eventlog") {
        let bytes = std::fs::read(&path).unwrap();
        let whole = eventlog::heap_events(&bytes).unwrap();
        let found = global(&bytes, SAMPLE_STRING, usize::MAX);
        if found.len() < 6 {
            continue;
        }
        // Two events of one census, the later spliced first so the earlier's place holds.
        let [(a, alen), (b, blen)] = [found[1], found[found.len().min(6) - 1]];
        let once = splice(&bytes, b, blen / 2, &prof_sample(time_of(&bytes, b), 9, 1));
        let twice = splice(&once, a, alen - 3, &prof_sample(time_of(&bytes, a), 8, 1));
        let read = eventlog::heap_events(&twice).unwrap();
        assert!(read == whole, "{}: the censuses differ", path.display());
        assert!(warnings(&twice).contains(&WarningKind::ReadApart(2)));
    }
}

#[test]
fn a_sample_written_inside_a_heap_size_event_leaves_the_runtime_figures_whole() {
    for path in runs("-hT.eventlog") {
        let bytes = std::fs::read(&path).unwrap();
        let Some(&(at, _)) = global(&bytes, HEAP_SIZE, 3).get(1) else {
            continue;
        };
        let spliced = splice(&bytes, at, 6, &prof_sample(time_of(&bytes, at), 3, 1));
        let dir = crate::common::Scratch::new("spliced");
        std::fs::write(dir.path("whole.eventlog"), &bytes).unwrap();
        std::fs::write(dir.path("spliced.eventlog"), &spliced).unwrap();
        let stats = |name: &str| {
            let out = crate::common::hpgraph(&dir.0, &["--stats", name], None);
            crate::common::assert_ok(&out);
            out.stdout
        };
        assert_eq!(
            stats("spliced.eventlog"),
            stats("whole.eventlog"),
            "{}",
            path.display()
        );
    }
}

/// Where the event at `at` of `len` bytes loses one byte of its middle (two writers
/// racing on one byte of the buffer), and its block's length with it.
fn lose_a_byte(bytes: &[u8], at: usize, len: usize) -> Vec<u8> {
    let block = block_of(bytes, at);
    let mut out = bytes.to_vec();
    out.remove(at + len / 2);
    let n = u32::from_be_bytes(out[block + 10..block + 14].try_into().unwrap());
    out[block + 10..block + 14].copy_from_slice(&(n - 1).to_be_bytes());
    out
}

fn begins(events: &[eventlog::HeapEvent]) -> usize {
    (events.iter())
        .filter(|e| matches!(e, eventlog::HeapEvent::SampleBegin { .. }))
        .count()
}

#[test]
fn a_byte_lost_in_a_census_loses_that_event_alone_and_says_so() {
    for path in runs("-hc.eventlog") {
        let bytes = std::fs::read(&path).unwrap();
        let whole = eventlog::heap_events(&bytes).unwrap();
        let found = global(&bytes, SAMPLE_CC, usize::MAX);
        let Some(&(at, len)) = found.get(found.len() / 3) else {
            continue;
        };
        let damaged = lose_a_byte(&bytes, at, len);
        let read = eventlog::heap_events(&damaged).unwrap();
        // Every census is there; one band's reading in one of them is lost.
        assert_eq!(begins(&read), begins(&whole), "{}", path.display());
        assert_eq!(read.len() + 1, whole.len(), "{}", path.display());
        let said = warnings(&damaged);
        let lost = said.iter().find_map(|w| match w {
            WarningKind::BytesLost { bytes, first, .. } => Some((*bytes, *first)),
            _ => None,
        });
        let (n, first) = lost.unwrap_or_else(|| panic!("{}: {said:?}", path.display()));
        assert_eq!(first, at as u64, "{}", path.display());
        assert_eq!(n, len as u64 - 1, "{}", path.display());
    }
}

#[test]
fn an_event_that_does_not_read_in_a_capabilitys_block_loses_that_block_alone() {
    for path in runs("-hT.eventlog") {
        let bytes = std::fs::read(&path).unwrap();
        let whole = eventlog::heap_events(&bytes).unwrap();
        // An event a third into the largest block of a capability.
        let (_, evs) = (blocks(&bytes).into_iter())
            .filter(|b| b.0.2 != 0xffff && b.1.len() > 3)
            .max_by_key(|b| b.0.1)
            .expect("a capability's block");
        let at = evs[evs.len() / 3].0;
        let mut damaged = bytes.clone();
        damaged[at..at + 2].copy_from_slice(&0x7777u16.to_be_bytes());
        let read = eventlog::heap_events(&damaged).unwrap();
        assert!(
            read == whole,
            "{}: the censuses are in other blocks",
            path.display()
        );
        let said = warnings(&damaged);
        assert!(
            said.iter()
                .any(|w| matches!(w, WarningKind::BytesLost { first, .. } if *first == at as u64)),
            "{}: {said:?}",
            path.display()
        );
    }
}

/// Every real run but the one kept for its interleaving is read as written; that one,
/// a run of pandoc's library on GHC 9.0.2, has events read apart and none lost.
#[test]
fn no_undamaged_eventlog_is_read_apart_or_said_to_lose_bytes() {
    let every = crate::common::fixture_eventlogs();
    assert!(every.len() > 100, "{} eventlogs", every.len());
    for path in every {
        if path.to_string_lossy().contains("interleaved") {
            let parsed =
                input::read(&std::fs::read(&path).unwrap()[..], Options::default()).unwrap();
            let said: Vec<_> = parsed.warnings.into_iter().map(|w| w.kind).collect();
            assert!(
                said.iter()
                    .any(|w| matches!(w, WarningKind::ReadApart(n) if *n > 0)),
                "{said:?}"
            );
            assert!(
                !said
                    .iter()
                    .any(|w| matches!(w, WarningKind::BytesLost { .. })),
                "{said:?}"
            );
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let Ok(parsed) = input::read(&bytes[..], Options::default()) else {
            continue;
        };
        for w in parsed.warnings {
            assert!(
                !matches!(
                    w.kind,
                    WarningKind::ReadApart(_) | WarningKind::BytesLost { .. }
                ),
                "{}: {w}",
                path.display()
            );
        }
    }
}

/// A figure of GHC's `+RTS -s` text: the number before `what` on the line that has it.
fn printed(s: &str, what: &str) -> f64 {
    let line = s
        .lines()
        .find(|l| l.contains(what))
        .unwrap_or_else(|| panic!("{what}"));
    line.split_whitespace()
        .next()
        .unwrap()
        .replace(',', "")
        .parse()
        .unwrap()
}

/// `--stats` of the real run whose runtime wrote events inside others is its `+RTS -s`,
/// figure by figure, as for an undamaged run: every collection and every byte counted
/// (they were lost with the censuses after the first break before).
#[test]
fn the_interleaved_runs_statistics_are_its_rts_s() {
    let log = fixtures().join("interleaved/ghc-9.0.2/Pandoc-hc.eventlog");
    let s = std::fs::read_to_string(log.with_extension("s")).unwrap();
    let out = crate::common::hpgraph(&fixtures(), &["--stats=json", log.to_str().unwrap()], None);
    crate::common::assert_ok(&out);
    let got: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for (key, what) in [
        ("allocated", "bytes allocated in the heap"),
        ("copied", "bytes copied during GC"),
        ("max_residency", "bytes maximum residency"),
        ("max_slop", "bytes maximum slop"),
    ] {
        assert_eq!(got[key].as_f64(), Some(printed(&s, what)), "{key}");
    }
    for (g, line) in s
        .lines()
        .filter(|l| l.trim_start().starts_with("Gen "))
        .enumerate()
    {
        let f: Vec<&str> = line.split_whitespace().collect();
        // Gen  0  2979 colls,  0 par  0.350s  0.354s  0.0001s  0.0010s
        let ours = &got["generations"][g];
        assert_eq!(ours["collections"].as_u64(), f[2].parse().ok(), "gen {g}");
        let secs = |t: &str| t.trim_end_matches('s').parse::<f64>().unwrap();
        assert!(
            (ours["elapsed"].as_f64().unwrap() - secs(f[7])).abs() <= 0.0005,
            "gen {g}"
        );
        assert!(
            (ours["max_pause"].as_f64().unwrap() - secs(f[9])).abs() <= 0.00005,
            "gen {g}"
        );
    }
}

/// A block damaged at more places than [`resync`]'s looks for an inner event
/// (`MAX_SPLICE_TRIES` a block, each trying every byte of an event) is still read, past
/// them, each place passed over and counted, every census kept.
#[test]
fn a_block_damaged_past_the_looks_it_gets_is_read_and_every_place_counted() {
    // One block of the global buffer: 20 censuses of 100 bands each.
    let mut w = Writer::new();
    let block = w.bytes.len();
    let mut marker = 0u32.to_be_bytes().to_vec();
    marker.extend(1_000_000u64.to_be_bytes());
    marker.extend(0xffffu16.to_be_bytes());
    w.event(BLOCK_MARKER, 0, &marker);
    let mut t = 10;
    for _ in 0..20 {
        w.begin(t);
        for band in 0..100 {
            t += 10;
            w.string(t, format!("band{band:03}").as_bytes(), 8 * (band + 1));
        }
        t += 10;
        w.end(t);
    }
    let len = (w.bytes.len() - block) as u32;
    w.bytes[block + 10..block + 14].copy_from_slice(&len.to_be_bytes());
    let bytes = w.done();
    let whole = eventlog::heap_events(&bytes).unwrap();
    // Every fifth band's event a byte short: 400 places.
    let hit: Vec<(usize, usize)> = (blocks(&bytes).into_iter())
        .flat_map(|b| b.1)
        .filter(|e| e.1 == SAMPLE_STRING)
        .step_by(5)
        .map(|e| (e.0, e.2))
        .collect();
    assert_eq!(hit.len(), 400);
    let mut damaged = bytes.clone();
    for &(at, len) in hit.iter().rev() {
        damaged = lose_a_byte(&damaged, at, len);
    }
    let read = eventlog::heap_events(&damaged).unwrap();
    assert_eq!(begins(&read), begins(&whole));
    assert_eq!(read.len(), whole.len() - hit.len());
    let said = warnings(&damaged);
    let lost = said.iter().find_map(|w| match w {
        WarningKind::BytesLost { places, first, .. } => Some((*places, *first)),
        _ => None,
    });
    assert_eq!(lost, Some((hit.len(), hit[0].0 as u64)), "{said:?}");
}

/// A program killed, or an eventlog still being written, ends inside a global block; in
/// one the runtime interleaved, the reading goes as far as the cut and says it was cut,
/// nothing lost: a real run of each GHC with a time sample written inside a census
/// event, cut at places after it in its block, reads as the same run without the sample
/// cut at the same place.
#[test]
fn an_interleaved_block_the_input_ends_inside_is_read_to_the_cut() {
    let mut cases = 0;
    for path in runs("-hc.eventlog") {
        let bytes = std::fs::read(&path).unwrap();
        for (at, len) in global(&bytes, SAMPLE_CC, 3) {
            let block = block_of(&bytes, at);
            let block_end = block
                + u32::from_be_bytes(bytes[block + 10..block + 14].try_into().unwrap()) as usize;
            let inner = prof_sample(time_of(&bytes, at), 7, 1);
            let spliced = splice(&bytes, at, len / 2, &inner);
            let after = at + len;
            let mut cuts = vec![
                after,
                after + 1,
                after + 11,
                (after + block_end) / 2,
                block_end - 1,
            ];
            cuts.retain(|&c| c < block_end);
            for cut in cuts {
                let plain = eventlog::heap_events(&bytes[..cut])
                    .unwrap_or_else(|e| panic!("{}: cut at {cut}: {e}", path.display()));
                let read = eventlog::heap_events(&spliced[..cut + inner.len()])
                    .unwrap_or_else(|e| panic!("{}: spliced, cut at {cut}: {e}", path.display()));
                assert!(
                    read == plain,
                    "{}: a sample inside the event at byte {at}, cut at {cut}: {} heap events \
                     read, {} without the sample",
                    path.display(),
                    read.len(),
                    plain.len()
                );
                // Before the first whole census there is nothing to draw, with the
                // sample or without.
                let Ok(parsed) = input::read(&spliced[..cut + inner.len()], Options::default())
                else {
                    assert!(input::read(&bytes[..cut], Options::default()).is_err());
                    continue;
                };
                let said: Vec<_> = parsed.warnings.into_iter().map(|w| w.kind).collect();
                assert!(
                    said.contains(&WarningKind::ReadApart(1))
                        && said.iter().any(|w| matches!(
                            w,
                            WarningKind::EventlogCut | WarningKind::IncompleteLastSample
                        ))
                        && !said
                            .iter()
                            .any(|w| matches!(w, WarningKind::BytesLost { .. })),
                    "{}: cut at {cut}: {said:?}",
                    path.display()
                );
                cases += 1;
            }
        }
    }
    assert!(cases > 20, "{cases} cases");
}

/// A time garbled in a capability's block (a bit flipped high in a collection's end)
/// would stretch the run's clock by days: the event is outside its block's time (its
/// marker's to its end), so the rest of that block is passed over and counted, and
/// `--stats` of the run is no longer than the run undamaged. Real runs of three GHCs.
#[test]
fn a_time_outside_its_block_is_damage_not_the_runs_clock() {
    let dir = crate::common::Scratch::new("interleaved-time");
    let elapsed = |bytes: &[u8]| {
        std::fs::write(dir.path("t.eventlog"), bytes).unwrap();
        let out = crate::common::hpgraph_ok(&dir.0, &["t.eventlog", "--stats=json"]);
        let s: serde_json::Value = serde_json::from_slice(&out).unwrap();
        s["total_elapsed"].as_f64().unwrap()
    };
    let mut cases = 0;
    for path in runs("-hT.eventlog") {
        let bytes = std::fs::read(&path).unwrap();
        let Some(at) = (blocks(&bytes).into_iter())
            .filter(|b| b.0.2 != 0xffff)
            .flat_map(|b| b.1)
            .find(|e| e.1 == GC_END)
            .map(|e| e.0)
        else {
            continue;
        };
        let whole = elapsed(&bytes);
        let mut garbled = bytes.clone();
        garbled[at + 3] ^= 0x40; // 2^54 ns later: 208 days
        assert!(time_of(&garbled, at) > time_of(&bytes, at) + (1 << 53));
        let damaged = elapsed(&garbled);
        assert!(
            damaged <= whole,
            "{}: {damaged} s of {whole} s",
            path.display()
        );
        let said = warnings(&garbled);
        assert!(
            said.iter()
                .any(|w| matches!(w, WarningKind::BytesLost { .. })),
            "{}: {said:?}",
            path.display()
        );
        cases += 1;
    }
    assert!(cases >= 3, "{cases} runs");
}

/// A later GHC's census events, longer than the fields hpgraph knows (#80: learned from
/// the eventlog, `resync::Trailing`), with a time sample written inside one of them, are
/// still read apart: the bytes past the fields do not hide the inner event, nor the inner
/// event teach a longer layout, even where the first event of its kind in the run is the
/// one written into (nothing learned yet).
#[test]
fn a_sample_written_inside_a_later_ghcs_longer_census_event_is_read_apart() {
    let mut cases = 0;
    let every = ["ghc-9.0.2", "ghc-9.6.6", "ghc-9.10.3"]
        .into_iter()
        .flat_map(|ghc| [(ghc, "Cache-hT", SAMPLE_STRING), (ghc, "Log-hc", SAMPLE_CC)]);
    for (ghc, run, ty) in every {
        let path = fixtures().join(format!("leak/{ghc}/{run}.eventlog"));
        let plain = std::fs::read(&path).unwrap();
        let bytes = crate::common::eventlog::grown(&plain, 6, true);
        let whole = eventlog::heap_events(&bytes).unwrap();
        assert_eq!(
            whole,
            eventlog::heap_events(&plain).unwrap(),
            "{ghc} {run}: grown"
        );
        for (at, len) in global(&bytes, ty, 6) {
            for k in places(len) {
                let inner = prof_sample(time_of(&bytes, at), 7, 1);
                let spliced = splice(&bytes, at, k, &inner);
                let read = eventlog::heap_events(&spliced).unwrap();
                let said = warnings(&spliced);
                let lost = said
                    .iter()
                    .any(|w| matches!(w, WarningKind::BytesLost { .. }));
                assert!(
                    read == whole,
                    "{ghc} {run}: {k} into byte {at}: the censuses differ: {said:?}"
                );
                assert!(
                    said.contains(&WarningKind::ReadApart(1)),
                    "{ghc} {run}: {said:?}"
                );
                assert!(!lost, "{ghc} {run}: {k} into {at}: {said:?}");
                cases += 1;
            }
        }
    }
    assert!(cases > 50, "{cases} cases");
}
