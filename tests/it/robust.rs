//! Every row of the robust-input table: inputs derived from real profiles (cut, re-encoded,
//! damaged) get a picture or a clear error, never a panic and never a partial file. Where a
//! picture is expected to equal hp2ps's, it is compared with the golden output hp2ps
//! wrote for the undamaged profile.

use std::fs;
use std::time::{Duration, Instant};

use crate::common::eventlog::{self as ev, Writer};
use crate::common::{Scratch, fixtures, hpgraph, profile, stderr, without_creator};
use hpgraph::input::hp::{WarningKind, parse};

fn golden(profile: &str, tag: &str) -> Vec<u8> {
    fs::read(fixtures().join(format!("golden/{profile}/{tag}.ps"))).unwrap()
}

fn lines(b: &[u8]) -> Vec<&[u8]> {
    b.split_inclusive(|&c| c == b'\n').collect()
}

/// The lines of the last complete sample, BEGIN_SAMPLE to END_SAMPLE.
fn last_sample(hp: &[u8]) -> Vec<u8> {
    let ls = lines(hp);
    let begin = ls
        .iter()
        .rposition(|l| l.starts_with(b"BEGIN_SAMPLE"))
        .unwrap();
    ls[begin..].concat()
}

#[test]
fn an_unfinished_last_sample_cut_anywhere_leaves_the_complete_samples() {
    for name in ["Leak-hc", "ManyCC-hy", "Names-hd"] {
        let hp = profile(name);
        let whole = parse(&hp).unwrap();
        // The program goes on: a next sample starts and is cut at every byte, up to and
        // including `END_SAMPLE 99.00000`, one digit short of its time.
        let sample = last_sample(&hp);
        let body = lines(&sample);
        let next = [
            b"BEGIN_SAMPLE 99.000000\n".as_slice(),
            &body[1..body.len() - 1].concat(),
            b"END_SAMPLE 99.000000",
        ]
        .concat();
        for cut in 1..next.len() {
            let damaged = [hp.as_slice(), &next[..cut]].concat();
            let got = parse(&damaged).unwrap_or_else(|e| panic!("{name} cut at {cut}: {e}"));
            assert_eq!(got.profile, whole.profile, "{name} cut at {cut}");
            assert_eq!(got.warnings.len(), 1, "{name} cut at {cut}");
            assert_eq!(got.warnings[0].kind, WarningKind::IncompleteLastSample);
            assert_eq!(got.warnings[0].line, Some(lines(&hp).len() as u64 + 1));
        }
        // The whole END_SAMPLE line, newline or not, completes the sample.
        for end in [b"".as_slice(), b"\n", b"\r\n"] {
            let done = parse(&[hp.as_slice(), &next, end].concat()).unwrap();
            assert_eq!(done.profile.times.len(), whole.profile.times.len() + 1);
            assert!(done.warnings.is_empty());
        }
    }
}

#[test]
fn crlf_and_no_final_newline_read_the_same_in_every_fixture() {
    for entry in fs::read_dir(fixtures().join("profiles")).unwrap() {
        let hp = fs::read(entry.unwrap().path()).unwrap();
        let want = parse(&hp).unwrap();
        let crlf: Vec<u8> = lines(&hp)
            .iter()
            .flat_map(|l| [l.strip_suffix(b"\n").unwrap_or(l), b"\r\n"].concat())
            .collect();
        assert_eq!(parse(&crlf).unwrap(), want);
        assert_eq!(parse(hp.strip_suffix(b"\n").unwrap()).unwrap(), want);
    }
}

#[test]
fn decimal_commas_integer_times_and_decimal_values_are_read() {
    let hp = profile("MapBuild-hc");
    let want = parse(&hp).unwrap().profile;
    let rewrite = |f: &dyn Fn(&[u8]) -> Vec<u8>| -> Vec<u8> {
        lines(&hp).iter().flat_map(|l| f(l)).collect()
    };
    // A runtime in a locale with a decimal comma.
    let comma = rewrite(&|l| {
        if l.starts_with(b"BEGIN_SAMPLE") || l.starts_with(b"END_SAMPLE") {
            l.iter()
                .map(|&c| if c == b'.' { b',' } else { c })
                .collect()
        } else {
            l.to_vec()
        }
    });
    assert_eq!(parse(&comma).unwrap().profile, want);
    // Values with a fraction of zero are the same values.
    let decimals = rewrite(&|l| {
        if l.contains(&b'\t') {
            [l.strip_suffix(b"\n").unwrap(), b".0\n"].concat()
        } else {
            l.to_vec()
        }
    });
    assert_eq!(parse(&decimals).unwrap().profile, want);
    // Integer times read as the same times written with a fraction.
    let mut k = 0;
    let mut int = Vec::new();
    let mut frac = Vec::new();
    for l in lines(&hp) {
        if l.starts_with(b"BEGIN_SAMPLE") || l.starts_with(b"END_SAMPLE") {
            let kw = if l.starts_with(b"BEGIN") {
                "BEGIN_SAMPLE"
            } else {
                "END_SAMPLE"
            };
            int.extend(format!("{kw} {k}\n").bytes());
            frac.extend(format!("{kw} {k}.0\n").bytes());
            if kw == "END_SAMPLE" {
                k += 1;
            }
        } else {
            int.extend_from_slice(l);
            frac.extend_from_slice(l);
        }
    }
    assert_eq!(parse(&int).unwrap().profile, parse(&frac).unwrap().profile);
}

#[test]
fn a_sample_earlier_than_the_one_before_is_skipped_with_a_warning() {
    let hp = profile("Names-hy");
    let ls = lines(&hp);
    let begins: Vec<usize> = (0..ls.len())
        .filter(|&i| ls[i].starts_with(b"BEGIN_SAMPLE"))
        .collect();
    // Sample 2 again, after sample 5: its time goes back.
    let (b2, b3, b6) = (begins[2], begins[3], begins[6]);
    let mut damaged: Vec<u8> = ls[..b6].concat();
    damaged.extend(ls[b2..b3].concat());
    damaged.extend(ls[b6..].concat());
    let got = parse(&damaged).unwrap();
    assert_eq!(got.profile, parse(&hp).unwrap().profile);
    assert_eq!(got.warnings.len(), 1);
    assert!(matches!(
        got.warnings[0].kind,
        WarningKind::SampleOutOfOrder { .. }
    ));
    assert_eq!(got.warnings[0].line, Some(b6 as u64 + 1));
}

#[test]
fn no_complete_sample_is_an_error_and_writes_nothing() {
    let hp = profile("Leak-hc");
    let header: Vec<u8> = lines(&hp)[..4].concat();
    let unfinished = [header.as_slice(), b"BEGIN_SAMPLE 0.00\nx\t1\n"].concat();
    for (what, input) in [
        ("empty", Vec::new()),
        ("header only", header.clone()),
        ("unfinished", unfinished),
    ] {
        let dir = Scratch::new("robust");
        fs::write(dir.path("p.hp"), &input).unwrap();
        let out = hpgraph(&dir.0, &["p.hp"], None);
        assert_eq!(out.status.code(), Some(1), "{what}");
        assert_eq!(
            stderr(&out).lines().last(),
            Some("hpgraph: p.hp: contains no samples"),
            "{what}"
        );
        assert!(
            !dir.path("p.ps").exists() && !dir.path("p.aux").exists(),
            "{what}"
        );
    }
}

#[test]
fn missing_header_lines_warn_and_draw_empty_strings() {
    // hp2ps stops on these; with the lines present but empty it draws this golden picture.
    let hp = fs::read(fixtures().join("edge/empty_header_strings.hp")).unwrap();
    let without: Vec<u8> = lines(&hp)[4..].concat();
    let dir = Scratch::new("robust");
    let out = hpgraph(&dir.0, &[], Some(&without));
    crate::common::assert_ok(&out);
    let warnings: Vec<String> = stderr(&out).lines().map(str::to_string).collect();
    assert_eq!(
        warnings,
        ["JOB", "DATE", "SAMPLE_UNIT", "VALUE_UNIT"]
            .map(|h| format!("hpgraph: warning: stdin: {h} missing; using an empty string"))
    );
    assert_eq!(
        without_creator(&out.stdout),
        golden("empty_header_strings", "default")
    );
}

#[test]
fn malformed_input_names_file_line_what_was_expected_and_what_was_found() {
    let hp = profile("ManyCC-hc");
    let n = lines(&hp).len();
    let middle = lines(&hp)
        .iter()
        .position(|l| l.starts_with(b"BEGIN_SAMPLE 0.1"))
        .unwrap_or(n / 2);
    let insert = |extra: &[u8]| -> Vec<u8> {
        let ls = lines(&hp);
        [ls[..middle].concat(), extra.to_vec(), ls[middle..].concat()].concat()
    };
    let cases: Vec<(&str, Vec<u8>, String)> = vec![
        (
            "END_SAMPLE first",
            [b"END_SAMPLE 0.00\n".as_slice(), &hp].concat(),
            "p.hp:1: END_SAMPLE without a BEGIN_SAMPLE before it".into(),
        ),
        (
            "stray token",
            insert(b"stray\n"),
            format!(
                "p.hp:{}: expected `name value` or a keyword, found `stray`",
                middle + 1
            ),
        ),
        (
            "no value",
            insert(b"main 12 kB\n"),
            format!(
                "p.hp:{}: expected a number at the end of the line, found `kB`",
                middle + 1
            ),
        ),
        (
            "garbage",
            insert(b"\x00\x01\xfe\xff\n"),
            format!(
                "p.hp:{}: expected `name value` or a keyword, found `\\x00\\x01\\xfe\\xff`",
                middle + 1
            ),
        ),
        (
            "bad time",
            insert(b"BEGIN_SAMPLE soon\n"),
            format!(
                "p.hp:{}: expected a sample time after BEGIN_SAMPLE, found `soon`",
                middle + 1
            ),
        ),
        (
            // Beyond hp2ps's 32 digits; far enough beyond, the number reads as infinity
            // and the coordinates as `nan`, which PostScript does not know.
            "value too large",
            insert(b"main\t100000000000000000000000000000000\n"),
            format!(
                "p.hp:{}: expected a number below 10^32, found `100000000000000000000000000000000`",
                middle + 1
            ),
        ),
        (
            "time too large",
            insert(&[b"BEGIN_SAMPLE ".as_slice(), &[b'7'; 400], b".0\n"].concat()),
            format!(
                "p.hp:{}: expected a number below 10^32, found `{}…`",
                middle + 1,
                "7".repeat(40)
            ),
        ),
        (
            "bad header",
            [b"JOB 12\n".as_slice(), &hp].concat(),
            "p.hp:1: expected a quoted string after JOB, found `12`".into(),
        ),
        (
            "open string",
            [hp.as_slice(), b"DATE \"never closed\n"].concat(),
            format!(
                "p.hp:{}: quoted string not closed before the end of the input",
                n + 1
            ),
        ),
    ];
    for (what, input, message) in cases {
        let dir = Scratch::new("robust");
        fs::write(dir.path("p.hp"), &input).unwrap();
        fs::write(dir.path("p.ps"), b"an older picture").unwrap();
        let out = hpgraph(&dir.0, &["p.hp"], None);
        assert_eq!(out.status.code(), Some(1), "{what}");
        assert_eq!(
            stderr(&out).trim_end(),
            format!("hpgraph: {message}"),
            "{what}"
        );
        assert_eq!(
            fs::read(dir.path("p.ps")).unwrap(),
            b"an older picture",
            "{what}"
        );
        assert!(!dir.path("p.aux").exists(), "{what}");
        assert_eq!(
            fs::read_dir(&dir.0).unwrap().count(),
            2,
            "{what}: a file was left behind"
        );
    }
}

#[test]
fn a_huge_line_is_refused_early() {
    // 200 MB without a newline: refused once a line passes 4 MiB, not read to the end.
    let dir = Scratch::new("robust");
    let huge = vec![b'a'; 200 << 20];
    let start = Instant::now();
    let out = hpgraph(&dir.0, &[], Some(&huge));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out).trim_end(),
        "hpgraph: stdin:1: line longer than 4 MiB: this is not a heap profile"
    );
    assert!(out.stdout.is_empty());
    assert!(start.elapsed() < Duration::from_secs(20));
}

#[test]
fn hundreds_of_thousands_of_names_take_linear_time() {
    // One name per line, two samples: every selection pass sees 200,000 names. hp2ps's
    // own selection sort would need 2·10^10 comparisons here.
    let mut hp = b"JOB \"many\"\nDATE \"d\"\nSAMPLE_UNIT \"s\"\nVALUE_UNIT \"b\"\n".to_vec();
    for s in 0..2 {
        hp.extend(format!("BEGIN_SAMPLE {s}.0\n").bytes());
        for k in 0..200_000u32 {
            hp.extend(format!("(x{k}) f\t{}\n", (k * 7919 + s) % 1000 + 1).bytes());
        }
        hp.extend(format!("END_SAMPLE {s}.0\n").bytes());
    }
    let dir = Scratch::new("robust");
    fs::write(dir.path("p.hp"), &hp).unwrap();
    for flags in [&[][..], &["-d"], &["-i-"], &["-t0", "-M"]] {
        let start = Instant::now();
        let mut args = flags.to_vec();
        args.push("p.hp");
        let out = hpgraph(&dir.0, &args, None);
        crate::common::assert_ok_as(&out, format_args!("{flags:?}"));
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "{flags:?} took {:?}",
            start.elapsed()
        );
        // -p reads back the .aux of 200,000 names.
        let mut with_p = vec!["-p"];
        with_p.extend_from_slice(&args);
        crate::common::assert_ok(&hpgraph(&dir.0, &with_p, None));
    }
}

#[test]
fn names_with_spaces_and_special_bytes_are_kept_whole() {
    let hp = profile("Leak-hc");
    let name: &[u8] = b"Map Int (Maybe \\x) <&> \"q\" caf\xc3\xa9 \xff 9lives";
    let old = lines(&hp)
        .into_iter()
        .find(|l| l.contains(&b'\t'))
        .unwrap()
        .to_vec();
    let old_name = &old[..old.iter().position(|&c| c == b'\t').unwrap()];
    let damaged: Vec<u8> = lines(&hp)
        .iter()
        .flat_map(|l| {
            if l.starts_with(old_name) && l[old_name.len()] == b'\t' {
                [name, &l[old_name.len()..]].concat()
            } else {
                l.to_vec()
            }
        })
        .collect();
    let p = parse(&damaged).unwrap().profile;
    assert!(p.bands.names().iter().any(|n| &**n == name));
    let dir = Scratch::new("robust");
    // -t0 keeps even the smallest band, -m0 -M puts every name in the key.
    let out = hpgraph(&dir.0, &["-t0", "-m0", "-M"], Some(&damaged));
    crate::common::assert_ok(&out);
    let escaped: &[u8] = b"(Map Int \\(Maybe \\\\x\\) <&> \"q\" caf\xc3\xa9 \xff 9lives) show";
    assert!(
        out.stdout.windows(escaped.len()).any(|w| w == escaped),
        "key label not found whole"
    );
}

/// A `.hp` of `samples` samples of one band, made as it is read: 100 bytes, and every
/// 1000th sample a peak of 5000 (as a compressed file of a repeated sample expands).
struct Endless {
    samples: usize,
    made: usize,
    pending: Vec<u8>,
}

impl std::io::Read for Endless {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        while self.pending.len() < buf.len() && self.made < self.samples {
            if self.made == 0 {
                self.pending.extend_from_slice(
                    b"JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n",
                );
            }
            let v = if self.made % 1000 == 999 { 5000 } else { 100 };
            let t = self.made;
            self.pending.extend_from_slice(
                format!("BEGIN_SAMPLE {t}\nmain\t{v}\nEND_SAMPLE {t}\n").as_bytes(),
            );
            self.made += 1;
        }
        let n = buf.len().min(self.pending.len());
        buf[..n].copy_from_slice(&self.pending[..n]);
        self.pending.drain(..n);
        Ok(n)
    }
}

#[test]
fn past_the_sample_bound_neighbours_are_merged_keeping_each_peak() {
    use hpgraph::profile::MAX_SAMPLES;
    let samples = MAX_SAMPLES + MAX_SAMPLES / 2;
    let parsed = hpgraph::input::read(
        Endless {
            samples,
            made: 0,
            pending: Vec::new(),
        },
        Default::default(),
    )
    .unwrap();
    let p = &parsed.profile;
    assert!(
        p.series().times.len() <= MAX_SAMPLES && p.series().times.len() > MAX_SAMPLES / 2,
        "{}",
        p.series().times.len()
    );
    assert!(
        p.series().times.windows(2).all(|w| w[0] < w[1]),
        "times out of order"
    );
    assert_eq!(p.series().times[0], 0.0);
    assert!(*p.series().times.last().unwrap() > (samples - 10) as f64);
    // Every peak survives the merging: 1500 of them in the samples read, each still 5000.
    let peaks = p.series().bands.series()[0]
        .points()
        .filter(|&(_, v)| v == 5000.0)
        .count();
    assert_eq!(peaks, samples / 1000);
    assert!(
        p.series().bands.series()[0]
            .points()
            .all(|(_, v)| v == 100.0 || v == 5000.0)
    );
    assert_eq!(
        parsed
            .warnings
            .iter()
            .filter(|w| w.kind == WarningKind::SamplesMerged)
            .count(),
        1
    );
}

#[test]
fn past_the_band_bound_the_smallest_are_merged_on_reading() {
    use hpgraph::profile::MAX_BANDS;
    let n = MAX_BANDS + 50;
    let mut hp =
        String::from("JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n");
    // Band k is worth k + 1 bytes in both samples: the 51 smallest are bands 0 to 50.
    for t in 0..2 {
        hp += &format!("BEGIN_SAMPLE {t}\n");
        for k in 0..n {
            hp += &format!("b{k}\t{}\n", k + 1);
        }
        hp += &format!("END_SAMPLE {t}\n");
    }
    let parsed = hpgraph::input::parse(hp.as_bytes()).unwrap();
    let p = &parsed.profile;
    assert_eq!(p.series().bands.len(), MAX_BANDS);
    let merged = "OTHER (51 bands merged on reading)";
    assert_eq!(
        &*p.series().bands.names()[0],
        merged.as_bytes(),
        "in the first merged band's place"
    );
    assert_eq!(&*p.series().bands.names()[1], b"b51");
    let sum: f64 = (1..=51).map(f64::from).sum();
    assert_eq!(
        p.series().bands.series()[0].points().collect::<Vec<_>>(),
        [(0, sum), (1, sum)]
    );
    assert!(
        parsed
            .warnings
            .iter()
            .any(|w| w.kind == WarningKind::BandsMerged(51))
    );
    // The whole still adds up.
    let total: f64 = p
        .series()
        .bands
        .series()
        .iter()
        .flat_map(|s| s.points())
        .map(|(_, v)| v)
        .sum();
    assert_eq!(total, 2.0 * (1..=n).map(|k| k as f64).sum::<f64>());
}

/// `samples` samples of `per` names each, every name new: a stream that never repeats.
fn stream_of_new_names(samples: usize, per: usize) -> String {
    let mut hp =
        String::from("JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n");
    for t in 0..samples {
        hp += &format!("BEGIN_SAMPLE {t}\n");
        for k in 0..per {
            hp += &format!("n{t}_{k}\t{}\n", 1 + k % 5);
        }
        hp += &format!("END_SAMPLE {t}\n");
    }
    hp
}

#[test]
fn a_live_stream_of_new_names_is_bounded_as_it_is_read() {
    use hpgraph::input::Reader;
    use hpgraph::profile::MAX_BANDS;
    let (samples, per) = (40, 10_000);
    let hp = stream_of_new_names(samples, per);
    let mut reader = Reader::new();
    let bytes = hp.as_bytes();
    // Fed in pieces, as a pipe delivers it; never finished, as a live stream never is.
    let mut pos = 0;
    while pos < bytes.len() {
        let end = (pos + (1 << 16)).min(bytes.len());
        pos += reader.feed(&bytes[pos..end], false).unwrap();
        if let Ok(snap) = reader.snapshot() {
            assert!(snap.profile.series().bands.len() <= MAX_BANDS);
        }
    }
    let snap = reader.snapshot().unwrap();
    let p = &snap.profile;
    assert_eq!(p.series().bands.len(), MAX_BANDS);
    // One OTHER band, counting every band merged, and nothing lost.
    let others: Vec<_> = p
        .series()
        .bands
        .names()
        .iter()
        .filter(|n| n.starts_with(b"OTHER ("))
        .collect();
    assert_eq!(others.len(), 1, "one merged band");
    let merged = samples * per - (MAX_BANDS - 1);
    assert_eq!(
        std::str::from_utf8(others[0]).unwrap(),
        format!("OTHER ({merged} bands merged on reading)")
    );
    let total: f64 = p
        .series()
        .bands
        .series()
        .iter()
        .flat_map(|s| s.points())
        .map(|(_, v)| v)
        .sum();
    let want: f64 = (0..samples * per).map(|k| (1 + k % per % 5) as f64).sum();
    assert_eq!(total, want);
}

/// The runtime can write one event inside another: a GHC 9.0.2 `+RTS -hc -p -l` run
/// wrote a profiling sample inside a heap census's event (ghc-events refuses the file
/// too). Made here by splicing a sample event into a census event of a real run, its
/// block's length counting it: the two events are read apart, said, and every census is
/// the same run's `.hp`'s (more: tests/it/interleaved.rs).
#[test]
fn an_event_written_inside_another_is_read_apart_to_the_end() {
    let dir = Scratch::new("split-event");
    let run = fixtures().join("leak/ghc-9.0.2/Cache-hc");
    let bytes = std::fs::read(run.with_extension("eventlog")).unwrap();
    let events = ev::events(&bytes);
    // A census event (a cost-centre stack's bytes) two thirds in, and the block marker
    // before it; spliced into it, a real profiling sample event of the same runtime
    // (GHC 9.0.2 `+RTS -p -hc -l`).
    let census = (events.iter())
        .filter(|e| e.1 == ev::SAMPLE_CC)
        .nth(2 * events.iter().filter(|e| e.1 == ev::SAMPLE_CC).count() / 3)
        .unwrap();
    let block = events
        .iter()
        .rev()
        .find(|e| e.1 == ev::BLOCK_MARKER && e.0 < census.0);
    let other =
        std::fs::read(fixtures().join("prof/ghc-9.0.2/MapFib-samples-hc.eventlog")).unwrap();
    let sample = (ev::events(&other).into_iter())
        .find(|e| e.1 == ev::PROF_SAMPLE)
        .unwrap();
    let inserted = other[sample.0..sample.0 + sample.2].to_vec();
    let split = census.0 + census.2 / 2;
    let mut broken = [&bytes[..split], &inserted, &bytes[split..]].concat();
    if let Some(b) = block {
        let at = b.0 + 10;
        let len =
            u32::from_be_bytes(broken[at..at + 4].try_into().unwrap()) + inserted.len() as u32;
        broken[at..at + 4].copy_from_slice(&len.to_be_bytes());
    }
    std::fs::write(dir.path("broken.eventlog"), &broken).unwrap();
    let out = hpgraph(&dir.0, &["broken.eventlog", "-o", "broken.csv"], None);
    let err = String::from_utf8_lossy(&out.stderr);
    crate::common::assert_ok_as(&out, format_args!("{err}"));
    assert!(
        err.contains("1 event the runtime wrote inside another event")
            && err.contains("was read apart"),
        "{err}"
    );
    assert!(!err.contains("could not be read"), "{err}");
    // Every census of the run is read: the .hp's non-empty ones, in order, to the end.
    let csv = std::fs::read_to_string(dir.path("broken.csv")).unwrap();
    let kept: Vec<f64> = (csv.lines().skip(1))
        .map(|l| {
            l.split(',')
                .skip(1)
                .filter_map(|v| v.parse::<f64>().ok())
                .sum()
        })
        .collect();
    let hp: Vec<f64> = (crate::common::hp::censuses(&run.with_extension("hp")).iter())
        .map(|c| c.total())
        .filter(|&t| t > 0.0)
        .collect();
    assert_eq!(kept, hp);
}

fn corrupt(bytes: &[u8], expect: &str) {
    let dir = Scratch::new("corrupt");
    std::fs::write(dir.path("bad.eventlog"), bytes).unwrap();
    std::fs::write(dir.path("bad.ps"), b"old").unwrap();
    let out = hpgraph(&dir.0, &["bad.eventlog"], None);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("hpgraph: bad.eventlog: byte "), "{err}");
    assert!(err.contains(expect), "{err}");
    assert_eq!(std::fs::read(dir.path("bad.ps")).unwrap(), b"old");
    assert!(!dir.path("bad.aux").exists());
}

#[test]
fn a_corrupt_eventlog_fails_at_its_byte_and_writes_nothing() {
    let good = Writer::new().begin(1).string(2, b"x", 8).end(3).done();
    let header_len = Writer::new().bytes.len();

    let mut bad_marker = good.clone();
    bad_marker[header_len - 4] = b'X';
    corrupt(
        &bad_marker,
        &format!("byte {}: not a valid eventlog header", header_len - 4),
    );

    let mut undeclared = Writer::new();
    undeclared.begin(1);
    let at = undeclared.bytes.len();
    undeclared.bytes.extend(7u16.to_be_bytes());
    undeclared.bytes.extend([0; 8]);
    corrupt(&undeclared.done(), &format!("byte {at}: event of type 7"));
    // Past the greatest type the header declares (the reader's tables end there).
    let mut past = Writer::new();
    past.begin(1);
    let at = past.bytes.len();
    past.bytes.extend(0xfffeu16.to_be_bytes());
    past.bytes.extend([0; 8]);
    corrupt(&past.done(), &format!("byte {at}: event of type 65534"));

    // A block of 30 bytes: the marker (24) and then a 24-byte event that crosses its end.
    let mut block = Writer::new();
    let at = block.bytes.len();
    let mut marker = 30u32.to_be_bytes().to_vec();
    // The global buffer's capability: its blocks are always read event by event.
    marker.extend([0, 0, 0, 0, 0, 0, 0, 9, 0xff, 0xff]);
    block.event(ev::BLOCK_MARKER, 0, &marker);
    block.begin(1);
    corrupt(
        &block.done(),
        &format!(
            "byte {}: event runs past the end of its block at byte {}",
            at + 24,
            at + 30
        ),
    );

    let mut tiny = Writer::new();
    tiny.event(
        ev::BLOCK_MARKER,
        0,
        &[0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff],
    );
    corrupt(&tiny.done(), "block marker with a length of 3 bytes");

    let mut short = Writer::new();
    short.event(ev::SAMPLE_STRING, 1, &[0, 1]);
    corrupt(&short.done(), "payload of 2 bytes, too short");

    corrupt(b"hdrbhetb\0\0\0\0", "byte 8: not a valid eventlog header");

    // A length of 0xffff inside a 200-byte block: corruption at once, not a wait for
    // 64 kB that never come (which took the file for a cut one and dropped samples).
    let mut huge = Writer::new();
    let at = huge.bytes.len();
    let mut marker = 200u32.to_be_bytes().to_vec();
    marker.extend([0, 0, 0, 0, 0, 0, 0, 9, 0xff, 0xff]);
    huge.event(ev::BLOCK_MARKER, 0, &marker);
    huge.begin(1);
    let string_at = huge.bytes.len();
    huge.string(2, b"x", 8);
    huge.bytes[string_at + 10..string_at + 12].copy_from_slice(&[0xff, 0xff]);
    huge.end(3);
    huge.bytes.resize(at + 200, 0);
    corrupt(
        &huge.done(),
        &format!(
            "byte {string_at}: event runs past the end of its block at byte {}",
            at + 200
        ),
    );
}
