//! The eventlog reader against references it did not make: GHC's own `.hp` of the same
//! run (fixtures/eventlog, written by scripts/regen-fixtures.sh), and ghc-events' reading
//! of the public eventlogs in fixtures/corpus-eventlog (`*.reference`).

use crate::common;

use std::path::{Path, PathBuf};

use crate::common::eventlog::{self as ev, Writer};
use crate::common::{Scratch, fixtures, hpgraph, without_creator};
use hpgraph::input::{self, WarningKind, eventlog, hp};
use hpgraph::profile::Profile;

fn files(dir: &str, ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(fixtures().join(dir))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    v.sort();
    assert!(!v.is_empty(), "no .{ext} files in fixtures/{dir}");
    v
}

type Sample = Vec<(Vec<u8>, u64)>;

/// Each sample's (name, value) pairs, in no particular order.
fn samples(p: &Profile) -> Vec<Sample> {
    let mut s: Vec<Sample> = vec![Vec::new(); p.times.len()];
    for (name, series) in p.bands.names().iter().zip(p.bands.series()) {
        for (i, v) in series.points() {
            s[i as usize].push((name.to_vec(), v as u64));
        }
    }
    for x in &mut s {
        x.sort();
    }
    s
}

/// The naming rule: the `.hp` has a `(N)` prefix that the eventlog's name lacks, and
/// cuts a long cost-centre stack to `-L` characters ending in `...`.
fn same_name(hp: &[u8], ev: &[u8]) -> bool {
    fn unprefixed(n: &[u8]) -> &[u8] {
        if n.first() == Some(&b'(')
            && let Some(close) = n.iter().position(|&b| b == b')')
            && close > 1
            && n[1..close].iter().all(u8::is_ascii_digit)
        {
            return &n[close + 1..];
        }
        n
    }
    let (hp, ev) = (unprefixed(hp), unprefixed(ev));
    hp == ev
        || (hp.ends_with(b"...") && ev.starts_with(&hp[..hp.len() - 3]))
        || named_info_table(hp).is_some_and(|base| base == ev)
}

/// A `-hi` band of the .hp renamed by [`ipe_names`]: `name 0xADDR`, which the eventlog
/// names `name` (or `name 0xADDR` when another table has that name).
fn named_info_table(hp: &[u8]) -> Option<&[u8]> {
    let at = hp.windows(3).rposition(|w| w == b" 0x")?;
    Some(&hp[..at])
}

/// The runs of three GHCs: 9.0.2's (fixtures/eventlog), 9.6's and 9.10's; and a run of
/// pandoc's library whose runtime wrote events inside others (fixtures/interleaved, with its
/// `+RTS -s`), which must read as whole as the rest.
fn runs() -> Vec<PathBuf> {
    let interleaved = fixtures().join("interleaved/ghc-9.0.2/Pandoc-hc.eventlog");
    ["eventlog", "eventlog-9.6", "eventlog-9.10"]
        .into_iter()
        .flat_map(|dir| files(dir, "eventlog"))
        .chain([interleaved])
        .collect()
}

/// The band names of a `-hi` run's info tables, from ghc-events' reading of its IPE
/// events (`X.ipe`, written by scripts/ipe-oracle.hs when the fixture was made), by
/// address as the .hp writes it: `label (file:line:col)` as docs/eventlog.md says, the
/// table's name when it has no label, its module when it has no location.
fn ipe_names(eventlog: &Path) -> std::collections::HashMap<Vec<u8>, Vec<u8>> {
    let Ok(text) = std::fs::read(eventlog.with_extension("ipe")) else {
        return Default::default();
    };
    let mut names = std::collections::HashMap::new();
    for line in text.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        let f: Vec<&[u8]> = line.split(|&b| b == b'\t').collect();
        let (addr, table, label, module, loc) = (f[0], f[1], f[4], f[5], f[6]);
        let mut name = if label.is_empty() { table } else { label }.to_vec();
        name.extend_from_slice(b" (");
        name.extend_from_slice(if loc.is_empty() || loc == b":" {
            module
        } else {
            loc
        });
        name.push(b')');
        names.insert([b"0x", addr].concat(), name);
    }
    names
}

/// Whether two samples have the same bands and values: names equal first, then names
/// that [`same_name`] pairs (so that a loose pairing never takes an exact one's band).
fn same_sample(hp: &Sample, ev: &Sample) -> bool {
    let mut left: Vec<&(Vec<u8>, u64)> = ev.iter().collect();
    let mut unpaired = Vec::new();
    for entry in hp {
        match left.iter().position(|e| *e == entry) {
            Some(k) => {
                left.swap_remove(k);
            }
            None => unpaired.push(entry),
        }
    }
    hp.len() == ev.len()
        && unpaired.into_iter().all(|(name, value)| {
            match left
                .iter()
                .position(|(n, v)| v == value && same_name(name, n))
            {
                Some(k) => {
                    left.swap_remove(k);
                    true
                }
                None => false,
            }
        })
}

fn shown(s: &Sample) -> String {
    s.iter()
        .map(|(n, v)| format!("{}={v}", String::from_utf8_lossy(n)))
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn each_fixture_eventlog_gives_the_non_empty_samples_of_its_runs_hp() {
    let (mut compared, mut named) = (0, 0);
    for path in runs() {
        let bytes = std::fs::read(&path).unwrap();
        let hp_path = path.with_extension("hp");
        let mut from_hp = hp::parse(&std::fs::read(&hp_path).unwrap())
            .unwrap()
            .profile;
        // -hi: the .hp names each band by its info table's address; the eventlog by the
        // table's provenance, as ghc-events reads it.
        let ipe = ipe_names(&path);
        for name in from_hp.bands.names_mut() {
            if let Some(n) = ipe.get(&name[..]) {
                *name = [&n[..], b" ", name].concat().into();
                named += 1;
            }
        }
        // The runtime writes an empty sample to the .hp at start and at exit, and none
        // to the eventlog.
        let want: Vec<Sample> = samples(&from_hp)
            .into_iter()
            .filter(|s| !s.is_empty())
            .collect();
        if want.is_empty() {
            // The program ended before the first census: the .hp has only the runtime's
            // empty first and last samples, and so does the eventlog's profile.
            let parsed = eventlog::parse(&bytes).unwrap();
            let p = &parsed.profile;
            assert!(p.series().bands.is_empty(), "{}", path.display());
            assert_eq!(p.series().times.len(), 2, "{}", path.display());
            assert_eq!(p.series().times[0], 0.0);
            assert!(
                p.series().times[1] > 0.0 && p.series().times[1] < 1.0,
                "{:?}",
                p.series().times
            );
            assert_eq!(
                parsed.warnings.iter().map(|w| &w.kind).collect::<Vec<_>>(),
                [&WarningKind::NoCensus]
            );
            continue;
        }
        let from_eventlog = eventlog::parse(&bytes)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            .profile;
        let got = samples(from_eventlog.series());
        assert_eq!(
            got.len(),
            want.len(),
            "{}: number of samples",
            path.display()
        );
        for (k, (g, w)) in got.iter().zip(&want).enumerate() {
            assert!(
                same_sample(w, g),
                "{} sample {k}:\n  .hp:      {}\n  eventlog: {}",
                path.display(),
                shown(w),
                shown(g)
            );
        }
        assert_eq!(
            from_eventlog.series().job,
            from_hp.job,
            "{}: JOB",
            path.display()
        );
        compared += 1;
    }
    assert!(compared >= 60, "only {compared} runs compared");
    assert!(named >= 20, "only {named} -hi bands named from IPE events");
}

/// ghc-events prints each heap event as `TIME: text`; ours in the same words.
/// GHC's `.hp` of each run starts at the program's start (its empty census at 0); the
/// eventlog has no census there. Its picture and page start there too, the stretch
/// before the first census shaded as not observed, and the page's runtime line is of
/// the whole run.
#[test]
fn every_view_of_an_eventlog_starts_where_its_runs_hp_does() {
    let dir = Scratch::new("eventlog-start");
    let mut checked = 0;
    for path in runs() {
        let name = path.display().to_string();
        let hp = hp::parse(&std::fs::read(path.with_extension("hp")).unwrap()).unwrap();
        let starts = hp.profile.times[0];
        let log = eventlog::parse(&std::fs::read(&path).unwrap()).unwrap();
        if log.profile.series().bands.is_empty() {
            continue; // no census: nothing before one
        }
        let (first, last) = (
            log.profile.series().times[0],
            *log.profile.series().times.last().unwrap(),
        );
        if first == last {
            // A biographical run (-hb) writes every census out at its exit, at one time:
            // its views span its censuses, none placed in the run.
            continue;
        }
        assert!(first > starts, "{name}: the first census {first} s");
        let out = hpgraph(&dir.0, &[path.to_str().unwrap(), "-o", "p.html"], None);
        crate::common::assert_ok_as(&out, format_args!("{name}"));
        let page = std::fs::read_to_string(dir.path("p.html")).unwrap();
        let data = &page[page.find("id=\"hpgraph-data\">").unwrap() + 18..];
        let data: serde_json::Value =
            serde_json::from_str(&data[..data.find("</script>").unwrap()]).unwrap();
        assert_eq!(data["plot"]["t0"], starts, "{name}: the page's axis");
        assert_eq!(data["times"][0], first, "{name}: the first census");
        assert!(page.contains("class=\"unobserved\""), "{name}: the shade");
        assert!(page.contains("The whole run"), "{name}: the runtime's line");
        let out = hpgraph(&dir.0, &[path.to_str().unwrap(), "-o", "p.svg"], None);
        crate::common::assert_ok_as(&out, format_args!("{name}"));
        let svg = std::fs::read_to_string(dir.path("p.svg")).unwrap();
        assert!(
            svg.contains("fill=\"#f0f0f0\""),
            "{name}: the picture's shade"
        );
        checked += 1;
    }
    assert!(checked >= 6, "{checked} runs");
}

fn ghc_events_line(e: &eventlog::HeapEvent) -> String {
    use eventlog::HeapEvent::*;
    match e {
        SampleBegin { time, era } => format!("{time}: start heap prof sample {era}"),
        BioSampleBegin {
            time,
            era,
            sample_time,
        } => format!("{time}: start heap prof sample {era} at time {sample_time}"),
        SampleEnd { time, era } => format!("{time}: end prof sample {era}"),
        CostCentreSample {
            time,
            residency,
            stack,
        } => format!(
            "{time}: heap prof sample 0, residency {residency}, cost centre stack {}",
            stack
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        StringSample {
            time,
            residency,
            label,
        } => format!(
            "{time}: heap prof sample 0, residency {residency}, label {}",
            String::from_utf8_lossy(label)
        ),
    }
}

#[test]
fn the_public_eventlogs_heap_events_are_ghc_events_reading_of_them() {
    let mut with_samples = 0;
    for path in files("corpus-eventlog", "eventlog") {
        let reference = std::fs::read_to_string(path.with_extension("eventlog.reference"))
            .expect("every corpus eventlog has its .reference");
        let want: Vec<String> = reference
            .lines()
            .filter(|l| {
                let text = l.split_once(": ").map_or("", |(_, t)| t);
                text.starts_with("start heap prof sample")
                    || text.starts_with("end prof sample")
                    || text.starts_with("heap prof sample")
            })
            .map(str::to_string)
            .collect();
        let got: Vec<String> = eventlog::heap_events(&std::fs::read(&path).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            .iter()
            .map(ghc_events_line)
            .collect();
        assert_eq!(got, want, "{}", path.display());
        let parsed = eventlog::parse(&std::fs::read(&path).unwrap());
        if want.is_empty() {
            let err = parsed.unwrap_err();
            assert_eq!(err.kind, eventlog::ErrorKind::NoHeapSamples);
        } else {
            assert!(parsed.unwrap().profile.series().samples() > 0);
            with_samples += 1;
        }
    }
    assert_eq!(
        with_samples, 6,
        "sleep.h, .hC, .hd, .hm, .hy and biographical"
    );
}

#[test]
fn an_eventlog_without_heap_samples_draws_the_runtimes_lines_or_says_how_to_make_one() {
    let dir = Scratch::new("no-heap");
    // GHC 8.2.2's hello world, +RTS -l: no heap profile, but the runtime's heap size
    // and live bytes, which are drawn, with a word on how to get a heap profile.
    let src = fixtures().join("corpus-eventlog/hello-ghc-8.2.2.eventlog");
    std::fs::copy(&src, dir.path("hello.eventlog")).unwrap();
    let out = hpgraph(&dir.0, &["hello.eventlog"], None);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "hpgraph: warning: hello.eventlog: no heap profile in this eventlog: the picture is \
         the runtime's heap size, live bytes and allocation rate (run the program with \
         +RTS -hT -l for what the heap holds)\n"
    );
    assert!(dir.path("hello.ps").exists());
    // An eventlog with neither: the error says what to do, and nothing is written.
    std::fs::write(
        dir.path("empty.eventlog"),
        common::eventlog::Writer::new().args(&["empty"]).done(),
    )
    .unwrap();
    let out = hpgraph(&dir.0, &["empty.eventlog"], None);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "hpgraph: empty.eventlog: no heap profile and no GC events in this eventlog (run \
         the program with +RTS -l for the runtime's statistics and lines, +RTS -hT -l for \
         a heap profile too; -l with classes writes GC events only with g among them)\n"
    );
    assert!(!dir.path("empty.ps").exists());
    assert!(!dir.path("empty.aux").exists());
}

#[test]
fn an_eventlog_renders_as_its_name_says_and_from_standard_input() {
    let dir = Scratch::new("eventlog-naming");
    let src = fixtures().join("eventlog/Leak-hc.eventlog");
    std::fs::copy(&src, dir.path("Leak-hc.eventlog")).unwrap();
    let out = hpgraph(&dir.0, &["Leak-hc.eventlog"], None);
    crate::common::assert_ok(&out);
    let ps = std::fs::read(dir.path("Leak-hc.ps")).unwrap();
    assert!(dir.path("Leak-hc.aux").exists());
    let piped = hpgraph(&dir.0, &["-"], Some(&std::fs::read(&src).unwrap()));
    crate::common::assert_ok(&piped);
    assert_eq!(piped.stdout, ps, "a file and standard input draw the same");
    for flags in [&["-c", "-m3"][..], &["-d", "-i-"], &["-t3", "-y", "-g"]] {
        let mut args = flags.to_vec();
        args.extend(["Leak-hc.eventlog", "-o", "x.svg"]);
        let out = hpgraph(&dir.0, &args, None);
        crate::common::assert_ok_as(&out, format_args!("{args:?}"));
    }
}

fn run_tz(dir: &Path, tz: &str, args: &[&str]) -> std::process::Output {
    crate::common::command(dir)
        .env("TZ", tz)
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn converted_to_hp_the_header_is_the_runs_own_and_the_picture_the_same() {
    let dir = Scratch::new("convert");
    for path in files("eventlog", "eventlog") {
        let name = path.file_stem().unwrap().to_str().unwrap().to_string();
        if name.starts_with("Quick") {
            continue; // no census: nothing to draw
        }
        let log = dir.path(&format!("{name}.eventlog"));
        std::fs::copy(&path, &log).unwrap();
        let log = log.to_str().unwrap();
        // The fixtures were made with TZ=UTC; the DATE is local time.
        let out = run_tz(&dir.0, "UTC", &[log, "-o", "conv.hp"]);
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let converted = std::fs::read(dir.path("conv.hp")).unwrap();
        let original = std::fs::read(path.with_extension("hp")).unwrap();
        let header = |b: &[u8]| {
            b.split(|&c| c == b'\n')
                .take(4)
                .map(<[u8]>::to_vec)
                .collect::<Vec<_>>()
        };
        assert_eq!(
            header(&converted),
            header(&original),
            "{name}: JOB, DATE, units"
        );
        // The eventlog's own picture starts at the program's start, which a .hp has no
        // way to say (GHC's empty census at 0 would be drawn as an empty heap): from its
        // first census on, the two are the same (markers before it, which the window
        // leaves out and the .hp keeps, not drawn in either).
        let text = String::from_utf8_lossy(&converted).into_owned();
        let first = (text.lines())
            .find_map(|l| l.strip_prefix("BEGIN_SAMPLE "))
            .expect("a census");
        for flags in [&[][..], &["-c", "-m5", "-d"]] {
            let mut a = flags.to_vec();
            a.extend([log, "--from", first, "--no-marks", "-o", "direct.ps"]);
            crate::common::assert_ok(&run_tz(&dir.0, "UTC", &a));
            let mut b = flags.to_vec();
            b.extend(["conv.hp", "--no-marks", "-o", "via-hp.ps"]);
            crate::common::assert_ok(&run_tz(&dir.0, "UTC", &b));
            assert_eq!(
                std::fs::read(dir.path("direct.ps")).unwrap(),
                std::fs::read(dir.path("via-hp.ps")).unwrap(),
                "{name} {flags:?}: the eventlog from its first census and its .hp draw the same bytes"
            );
        }
    }
    let shifted = run_tz(
        &dir.0,
        "XYZ-9",
        &[
            fixtures()
                .join("eventlog/Leak-hc.eventlog")
                .to_str()
                .unwrap(),
            "-o",
            "tz.hp",
        ],
    );
    crate::common::assert_ok(&shifted);
    let utc = std::fs::read_to_string(fixtures().join("eventlog/Leak-hc.hp")).unwrap();
    let tz = std::fs::read_to_string(dir.path("tz.hp")).unwrap();
    let hour = |s: &str| -> u32 {
        let date = s.lines().nth(1).unwrap();
        date[date.find(':').unwrap() - 2..date.find(':').unwrap()]
            .trim()
            .parse()
            .unwrap()
    };
    assert_eq!((hour(&utc) + 9) % 24, hour(&tz), "DATE follows TZ");
}

#[test]
fn the_hp_output_never_replaces_its_input() {
    let dir = Scratch::new("convert-self");
    let hp = fixtures().join("profiles/Quick-hc.hp");
    std::fs::copy(&hp, dir.path("q.hp")).unwrap();
    let out = hpgraph(&dir.0, &["q.hp", "--format", "hp"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("would replace the input"));
    assert_eq!(
        std::fs::read(dir.path("q.hp")).unwrap(),
        std::fs::read(&hp).unwrap()
    );
}

/// Every complete sample before the cut, and only those; or the clear error.
#[test]
fn an_eventlog_cut_anywhere_gives_its_complete_samples_or_the_clear_error() {
    let (mut cuts, mut partial) = (0, 0);
    for path in files("eventlog", "eventlog") {
        let bytes = std::fs::read(&path).unwrap();
        let Ok(full) = eventlog::parse(&bytes).map(|p| p.profile) else {
            continue; // no census (Quick): every cut fails as the whole does
        };
        let full_samples = samples(full.series());
        // Evenly over the file, and densely near its end, where the runtime's heap events
        // land (they are written in blocks, the last one at exit).
        let len = bytes.len();
        let offsets = (0..len)
            .step_by(len / 120 + 1)
            .chain((len.saturating_sub(3000)..len).step_by(11));
        for at in offsets {
            cuts += 1;
            match eventlog::parse(&bytes[..at]) {
                Ok(parsed) => {
                    let got = samples(parsed.profile.series());
                    assert!(got.len() <= full_samples.len());
                    assert_eq!(
                        &full_samples[..got.len()],
                        &got[..],
                        "{} cut at {at}",
                        path.display()
                    );
                    assert_eq!(
                        &full.series().times[..got.len()],
                        &parsed.profile.series().times[..]
                    );
                    if got.len() < full_samples.len() {
                        partial += 1;
                        // Cut after the last complete sample or inside a later one:
                        // either is said, once.
                        let cut = |w: &&hpgraph::input::Warning| {
                            w.kind == WarningKind::IncompleteLastSample
                                || w.kind == WarningKind::EventlogCut
                        };
                        assert!(
                            parsed.warnings.iter().filter(cut).count() == 1
                                && parsed.warnings.iter().all(|w| cut(&w)),
                            "{:?}",
                            parsed.warnings
                        );
                    }
                }
                Err(e) => assert!(
                    matches!(
                        e.kind,
                        eventlog::ErrorKind::CutBeforeCensus
                            | eventlog::ErrorKind::NoHeapSamples
                            | eventlog::ErrorKind::HeaderCut
                    ),
                    "{} cut at {at}: {e}",
                    path.display()
                ),
            }
        }
    }
    assert!(cuts > 10_000, "{cuts} cuts");
    assert!(partial > 1000, "{partial} cuts kept only some samples");
}

#[test]
fn fed_in_pieces_an_eventlog_reads_as_a_whole() {
    for path in files("eventlog", "eventlog").into_iter().step_by(5) {
        let bytes = std::fs::read(&path).unwrap();
        let whole = eventlog::parse(&bytes);
        for piece in [1, 7, 100, 4096] {
            let mut r = input::Reader::new();
            let mut pending: Vec<u8> = Vec::new();
            for chunk in bytes.chunks(piece) {
                pending.extend_from_slice(chunk);
                let used = r.feed(&pending, false).unwrap();
                pending.drain(..used);
            }
            r.feed(&pending, true).unwrap();
            let pieces = r.finish().map_err(|e| match e {
                input::Error::Eventlog(e) => e,
                other => panic!("{other}"),
            });
            assert_eq!(pieces, whole, "{} in pieces of {piece}", path.display());
        }
    }
}

#[test]
fn a_cut_eventlog_warns_as_a_cut_hp_does() {
    let dir = Scratch::new("cut-eventlog");
    let bytes = std::fs::read(fixtures().join("eventlog/Leak-hc.eventlog")).unwrap();
    let all = eventlog::parse(&bytes).unwrap().profile.series().samples();
    // The runtime writes heap events in blocks, late in the file: cut inside the last
    // sample's events, found from the end.
    let cut = (0..bytes.len())
        .rev()
        .find(|&at| {
            eventlog::parse(&bytes[..at]).is_ok_and(|p| p.profile.series().samples() == all - 1)
        })
        .unwrap();
    std::fs::write(dir.path("cut.eventlog"), &bytes[..cut]).unwrap();
    let out = hpgraph(&dir.0, &["cut.eventlog"], None);
    crate::common::assert_ok(&out);
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "hpgraph: warning: cut.eventlog: incomplete last sample ignored\n"
    );
}

#[test]
fn labels_are_bytes_and_markers_keep_their_text() {
    let log = Writer::new()
        .args(&["./prog", "+RTS", "-hd", "-l"])
        .marker(5, "phase \u{2713}")
        .begin(1_000_000_000)
        .string(1_000_000_001, b"caf\xe9 \xff\xfe", 4096)
        .string(1_000_000_002, b"plain", 16)
        .end(1_000_000_003)
        .marker(1_500_000_000, "second")
        .begin(2_000_000_000)
        .string(2_000_000_001, b"caf\xe9 \xff\xfe", 8192)
        .end(2_000_000_002)
        .done();
    let p = eventlog::parse(&log).unwrap().profile;
    assert_eq!(p.series().bands.names()[0].as_ref(), b"caf\xe9 \xff\xfe");
    assert_eq!(p.series().times, vec![1.0, 2.0]);
    let times: Vec<f64> = p.series().marks.iter().map(|m| m.time).collect();
    assert_eq!(times, vec![5e-9, 1.5]);
    assert_eq!(
        p.series().marks[0].text.as_deref(),
        Some("phase \u{2713}".as_bytes())
    );
    // Without the RTS identifier or cost centres nothing says the runtime profiles: the
    // JOB of a non-profiling runtime is the program's name alone.
    assert_eq!(p.series().job, b"prog");
    let dir = Scratch::new("bytes");
    std::fs::write(dir.path("odd.eventlog"), &log).unwrap();
    let out = hpgraph(&dir.0, &["odd.eventlog", "-o", "odd.hp"], None);
    crate::common::assert_ok(&out);
    let text = std::fs::read(dir.path("odd.hp")).unwrap();
    // The bytes as they are, but the blank, which hp2ps would read as the name's end.
    assert!(text.windows(9).any(|w| w == b"caf\xe9_\xff\xfe\t4"));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot be written as .hp"));
    let ps = hpgraph(&dir.0, &["odd.eventlog", "-o", "-"], None);
    crate::common::assert_ok(&ps);
    assert!(
        without_creator(&ps.stdout)
            .windows(4)
            .any(|w| w == b"caf\xe9")
    );
}

#[test]
fn binary_data_that_is_not_an_eventlog_is_refused_as_such() {
    let mut damaged = Writer::new().begin(1).string(2, b"x", 8).end(3).done();
    damaged[3] = b'c'; // hdrc
    let dir = Scratch::new("binary");
    for (name, bytes, expect) in [
        (
            "damaged.eventlog",
            damaged,
            "byte 11: binary data: an eventlog whose first bytes are not `hdrb`",
        ),
        (
            "image.hp",
            b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec(),
            "byte 8: binary data, not a heap profile",
        ),
    ] {
        std::fs::write(dir.path(name), &bytes).unwrap();
        for stdin in [false, true] {
            let out = if stdin {
                hpgraph(&dir.0, &["-o", "x.svg"], Some(&bytes))
            } else {
                hpgraph(&dir.0, &[name, "-o", "x.svg"], None)
            };
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{name}: {err}");
            assert!(err.contains(expect), "{name} (stdin {stdin}): {err}");
            assert!(!dir.path("x.svg").exists());
        }
    }
}

/// An IPE event as GHC 9.6 to 9.10 write it: declared `extra` bytes longer than its
/// fields (1: the runtime's miscount; more: fields of a later runtime).
fn ipe_event(w: &mut Writer, info: u64, strings: [&str; 6], extra: usize) {
    let mut p = info.to_be_bytes().to_vec();
    for s in strings {
        p.extend(s.as_bytes());
        p.push(0);
    }
    let fields = p.len();
    w.bytes.extend(ev::IPE.to_be_bytes());
    w.bytes.extend(1u64.to_be_bytes());
    w.bytes.extend(((fields + extra) as u16).to_be_bytes());
    w.bytes.extend(&p);
    if extra > 1 {
        w.bytes.extend(vec![0xaa; extra]); // a later runtime's fields, passed over
    }
}

#[test]
fn ipe_events_declared_longer_than_written_are_read_as_ghc_reads_them() {
    for extra in [0, 1, 4] {
        let mut begin = vec![0u8];
        begin.extend(100_000_000u64.to_be_bytes());
        begin.extend(8u32.to_be_bytes());
        begin.extend([0; 7]);
        let mut w = Writer::new();
        w.event(ev::PROF_BEGIN, 0, &begin);
        ipe_event(
            &mut w,
            0x40a088,
            ["main_info", "21", "IO ()", "main", "Main", "T.hs:5:1-30"],
            extra,
        );
        ipe_event(
            &mut w,
            0x40a100,
            ["f_info", "15", "Int", "f", "Main", "T.hs:7:1"],
            extra,
        );
        let log = w
            .begin(10)
            .string(11, b"0x40a088", 64)
            .string(12, b"0x40a100", 32)
            .end(13)
            .done();
        let p = eventlog::parse(&log)
            .unwrap_or_else(|e| panic!("declared {extra} longer: {e}"))
            .profile;
        assert_eq!(
            p.series().bands.names()[0].as_ref(),
            b"main (T.hs:5:1-30)",
            "{extra}"
        );
        assert_eq!(
            p.series().bands.names()[1].as_ref(),
            b"f (T.hs:7:1)",
            "{extra}"
        );
    }
}

#[test]
fn info_table_samples_are_named_by_their_provenance() {
    let mut ipe = 0x40a088u64.to_be_bytes().to_vec();
    for s in ["main_info", "21", "IO ()", "main", "Main", "Test.hs:5:1-30"] {
        ipe.extend(s.as_bytes());
        ipe.push(0);
    }
    let mut begin = vec![0u8];
    begin.extend(100_000_000u64.to_be_bytes());
    begin.extend(8u32.to_be_bytes());
    begin.extend([0; 7]);
    let log = Writer::new()
        .event(ev::PROF_BEGIN, 0, &begin)
        .event(ev::IPE, 1, &ipe)
        .begin(10)
        .string(11, b"0x40a088", 64)
        .string(12, b"0x999", 32)
        .end(13)
        .done();
    let p = eventlog::parse(&log).unwrap().profile;
    assert_eq!(
        p.series().bands.names()[0].as_ref(),
        b"main (Test.hs:5:1-30)"
    );
    assert_eq!(
        p.series().bands.names()[1].as_ref(),
        b"0x999",
        "no provenance: the address stays"
    );
}

fn read_with(bytes: &[u8], marks: bool, heap: bool) -> Profile {
    let mut p =
        eventlog::Parser::with_options(input::Options::new().with_marks(marks).with_heap(heap));
    p.feed(bytes, true).unwrap();
    p.finish().unwrap().profile.into_series()
}

#[test]
fn passing_over_the_runtimes_own_blocks_loses_no_marker_and_no_sample() {
    let mut with_markers = 0;
    for path in runs() {
        let bytes = std::fs::read(&path).unwrap();
        if eventlog::parse(&bytes).is_err() {
            continue;
        }
        // Reading every block event by event (heap lines need all of them) is the
        // reference for the marker search.
        let everything = read_with(&bytes, true, true);
        let marks = read_with(&bytes, true, false);
        let census = read_with(&bytes, false, false);
        assert_eq!(marks.marks, everything.marks, "{}", path.display());
        assert_eq!(census.bands.series(), everything.bands.series());
        assert_eq!(census.times, everything.times);
        assert!(census.marks.is_empty() && census.heap.size.is_empty());
        assert!(!everything.heap.size.is_empty(), "{}", path.display());
        with_markers += usize::from(!everything.marks.is_empty());
    }
    assert!(
        with_markers >= 10,
        "the Markers runs have markers: {with_markers}"
    );
}

#[test]
fn a_marker_is_found_behind_lookalike_bytes_in_a_capabilitys_block() {
    // A capability's block (cap 0) from time 1,000 to 9,000 ns: an event whose payload
    // holds the bytes a marker starts with but a timestamp outside the block, then a
    // real marker. The look-alike must not hide the marker, and a block with only the
    // look-alike is passed over.
    for real in [true, false] {
        let mut w = Writer::new();
        let at = w.bytes.len();
        let mut decoy = vec![0u8, 0, 0, 0, 0, 0, 0, 0, 5]; // residency, then the label
        decoy.extend(ev::USER_MARKER.to_be_bytes());
        decoy.extend(0xffff_ffffu64.to_be_bytes()); // far past the block's end
        decoy.push(0);
        let mut block = Writer { bytes: Vec::new() };
        block.event(ev::SAMPLE_STRING, 2000, &decoy);
        if real {
            block.marker(3000, "found");
        }
        let len = 24 + block.bytes.len();
        let mut marker = (len as u32).to_be_bytes().to_vec();
        marker.extend(9000u64.to_be_bytes());
        marker.extend(0u16.to_be_bytes());
        w.event(ev::BLOCK_MARKER, 1000, &marker);
        w.bytes.extend(&block.bytes);
        assert_eq!(w.bytes.len(), at + len);
        let log = w.begin(10_000).string(10_001, b"x", 8).end(10_002).done();
        let p = read_with(&log, true, false);
        let want: Vec<&[u8]> = if real { vec![b"found"] } else { vec![] };
        assert_eq!(
            p.marks
                .iter()
                .map(|m| m.text.as_deref().unwrap_or_default())
                .collect::<Vec<_>>(),
            want
        );
    }
}

/// A block of capability 0 from `start` to `end` ns holding `fillers` events of type
/// 200 (3 bytes each, the runtime's own events as far as hpgraph cares) and, after
/// them, the markers.
fn capability_block(w: &mut Writer, start: u64, end: u64, fillers: usize, markers: &[&str]) {
    let mut block = Writer { bytes: Vec::new() };
    for k in 0..fillers {
        block.event(200, start + (k as u64 % 10), &[0, 0x3a, 0]);
    }
    for (k, m) in markers.iter().enumerate() {
        block.marker(start + 1 + k as u64, m);
    }
    let len = 24 + block.bytes.len();
    let mut marker = (len as u32).to_be_bytes().to_vec();
    marker.extend(end.to_be_bytes());
    marker.extend(0u16.to_be_bytes());
    w.event(ev::BLOCK_MARKER, start, &marker);
    w.bytes.extend(&block.bytes);
}

#[test]
fn a_large_eventlog_file_reads_as_its_bytes_do() {
    // Over the size from which files are mapped rather than streamed: blocks of many
    // sizes, one larger than the reader's window, samples between them, markers in some.
    let mut w = Writer::new();
    let mut t = 1_000_000u64;
    for k in 0..300 {
        let fillers = if k == 150 { 1_800_000 } else { 2_000 + k * 50 };
        let markers: &[&str] = if k % 37 == 0 { &["phase"] } else { &[] };
        capability_block(&mut w, t, t + 100, fillers, markers);
        w.begin(t + 200)
            .string(t + 201, format!("band{}", k % 7).as_bytes(), 100 + k as u64);
        w.end(t + 202);
        t += 1000;
    }
    let bytes = w.done();
    assert!(
        bytes.len() > 20 << 20,
        "{} bytes: too small to be mapped",
        bytes.len()
    );
    let dir = Scratch::new("mapped");
    std::fs::write(dir.path("big.eventlog"), &bytes).unwrap();
    let file = std::fs::File::open(dir.path("big.eventlog")).unwrap();
    for (marks, heap) in [(true, false), (false, false), (true, true)] {
        let options = input::Options::new().with_marks(marks).with_heap(heap);
        let mapped = input::read_file(&file, options).unwrap();
        let whole = read_with(&bytes, marks, heap);
        assert_eq!(
            *mapped.profile.series(),
            whole,
            "marks {marks}, heap {heap}"
        );
        assert_eq!(mapped.profile.series().times.len(), 300);
        assert_eq!(
            mapped.profile.series().marks.len(),
            if marks { 9 } else { 0 }
        );
    }
    // Cut inside the large block: the samples before it, and the warning of a cut file.
    std::fs::write(dir.path("cut.eventlog"), &bytes[..bytes.len() / 2]).unwrap();
    let file = std::fs::File::open(dir.path("cut.eventlog")).unwrap();
    let cut = input::read_file(&file, input::Options::default()).unwrap();
    let whole = eventlog::parse(&bytes[..bytes.len() / 2]).unwrap();
    assert_eq!(cut.profile, whole.profile);
}

/// Forward compatibility (#80): an eventlog of a later GHC whose events carry fields
/// after those hpgraph reads (its fixed-size events, and its census events whose fields
/// fix their length), and a type it has never seen, reads as the eventlog GHC 9.0, 9.6
/// and 9.10 wrote: the same censuses, the same runtime figures, no warning. ghc-events
/// reads an event by its declared size in the same way.
#[test]
fn events_grown_past_their_known_fields_and_new_types_read_as_before() {
    let dir = Scratch::new("eventlog-grown");
    let mut read = 0;
    for ghc in ["ghc-9.0.2", "ghc-9.6.6", "ghc-9.10.3"] {
        for (run, census) in [
            ("Cache-hT", false),
            ("Log-hc", false),
            ("Cache-hT", true),
            ("Log-hc", true),
        ] {
            let path = fixtures().join(format!("leak/{ghc}/{run}.eventlog"));
            let bytes = std::fs::read(&path).unwrap();
            let name = format!("{ghc}-{run}-{census}-grown.eventlog");
            std::fs::write(dir.path(&name), ev::grown(&bytes, 6, census)).unwrap();
            for args in [&["--format", "csv", "-o", "-"][..], &["--stats"]] {
                let want = hpgraph(
                    &dir.0,
                    &[&[path.to_str().unwrap()][..], args].concat(),
                    None,
                );
                let got = hpgraph(&dir.0, &[&[name.as_str()][..], args].concat(), None);
                common::assert_ok(&want);
                common::assert_ok(&got);
                assert_eq!(
                    String::from_utf8_lossy(&got.stdout),
                    String::from_utf8_lossy(&want.stdout),
                    "{name} {args:?}"
                );
                assert_eq!(
                    String::from_utf8_lossy(&got.stderr).replace(&name, "X"),
                    String::from_utf8_lossy(&want.stderr).replace(path.to_str().unwrap(), "X"),
                    "{name} {args:?}: what it says"
                );
            }
            read += 1;
        }
    }
    assert_eq!(read, 12);
}
