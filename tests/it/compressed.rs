//! Compressed input: real GHC profiles compressed by the system's own gzip, xz and zstd
//! (independent implementations of the formats) render exactly as the plain files, from
//! a file or standard input, named as the plain file; a compressed file cut short renders
//! what the system's decompressor gets out of it; --watch refuses a compressed file.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use crate::common::{Scratch, fixtures, hpgraph};

/// The tools found on this machine, with their file suffixes.
fn tools() -> Vec<(&'static str, &'static str)> {
    let found: Vec<_> = [("gzip", "gz"), ("xz", "xz"), ("zstd", "zst")]
        .into_iter()
        .filter(|(tool, _)| {
            Command::new(tool)
                .arg("--version")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success())
        })
        .collect();
    // CI installs all three; elsewhere gzip and xz at least are everywhere.
    assert!(found.len() >= 2, "gzip and xz are needed: {found:?}");
    if found.len() < 3 {
        eprintln!("compressed: zstd is not installed here, not compared");
    }
    found
}

/// What `tool args` writes for `input` on its standard input (all of it, even when the
/// tool then fails), and whether it succeeded.
fn pipe(tool: &str, args: &[&str], input: &[u8]) -> (Vec<u8>, bool) {
    let mut child = Command::new(tool)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    (out.stdout, out.status.success())
}

/// `tool -c` of `bytes`.
fn compress(tool: &str, bytes: &[u8]) -> Vec<u8> {
    let (packed, ok) = pipe(tool, &["-c", "-q"], bytes);
    assert!(ok, "{tool} failed");
    packed
}

/// What `tool -dc` gets out of `packed` (all it can, even when it then fails).
fn decompress(tool: &str, packed: &[u8]) -> Vec<u8> {
    pipe(tool, &["-d", "-c", "-q"], packed).0
}

const PROFILES: [&str; 4] = [
    "profiles/ManyCC-hc.hp",
    "profiles/MapBuild-hc.hp",
    "eventlog/ManyCC-hd.eventlog",
    "eventlog/Leak-hT.eventlog",
];

fn plain_name(profile: &str) -> String {
    Path::new(profile)
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned()
}

#[test]
fn compressed_profiles_render_exactly_as_the_plain_ones() {
    let dir = Scratch::new("compressed");
    for profile in PROFILES {
        let bytes = std::fs::read(fixtures().join(profile)).unwrap();
        let name = plain_name(profile);
        std::fs::write(dir.path(&name), &bytes).unwrap();
        let base = name.rsplit_once('.').unwrap().0;
        for flags in [&[][..], &["-c", "-m5"][..], &["--format", "svg"][..]] {
            let mut args = vec![name.as_str(), "-o", "plain.ps"];
            args.extend(flags);
            let out = hpgraph(&dir.0, &args, None);
            crate::common::assert_ok_as(&out, format_args!("{profile}"));
            let plain = std::fs::read(dir.path("plain.ps")).unwrap();
            for (tool, suffix) in tools() {
                let packed = compress(tool, &bytes);
                let file = format!("{name}.{suffix}");
                std::fs::write(dir.path(&file), &packed).unwrap();
                let mut args = vec![file.as_str(), "-o", "packed.ps"];
                args.extend(flags);
                let out = hpgraph(&dir.0, &args, None);
                crate::common::assert_ok_as(&out, format_args!("{file} {flags:?}"));
                assert!(
                    out.stderr.is_empty(),
                    "{file}: {}",
                    String::from_utf8_lossy(&out.stderr)
                );
                assert_eq!(
                    std::fs::read(dir.path("packed.ps")).unwrap(),
                    plain,
                    "{file} {flags:?}"
                );
                // From standard input, and named as the plain file.
                let mut args = vec!["-", "-o", "-"];
                args.extend(flags);
                let out = hpgraph(&dir.0, &args, Some(&packed));
                assert_eq!(out.stdout, plain, "stdin {file} {flags:?}");
                if flags.is_empty() {
                    let _ = std::fs::remove_file(dir.path(&format!("{base}.ps")));
                    let out = hpgraph(&dir.0, &[&file], None);
                    crate::common::assert_ok(&out);
                    assert_eq!(
                        std::fs::read(dir.path(&format!("{base}.ps"))).unwrap(),
                        plain,
                        "{file} writes ./{base}.ps"
                    );
                }
            }
        }
    }
}

#[test]
fn a_cut_compressed_file_renders_what_it_holds_with_a_warning() {
    let dir = Scratch::new("compressed-cut");
    let mut rendered = std::collections::HashMap::new();
    for profile in PROFILES {
        let bytes = std::fs::read(fixtures().join(profile)).unwrap();
        for (tool, _) in tools() {
            let packed = compress(tool, &bytes);
            for cut in [packed.len() / 3, packed.len() * 2 / 3, packed.len() - 7] {
                let part = &packed[..cut];
                let held = decompress(tool, part);
                let ours = hpgraph(&dir.0, &["-", "-o", "-"], Some(part));
                let theirs = hpgraph(&dir.0, &["-", "-o", "-"], Some(&held));
                let err = String::from_utf8_lossy(&ours.stderr);
                assert_eq!(
                    ours.status.code(),
                    theirs.status.code(),
                    "{profile} {tool} cut at {cut}: {err}"
                );
                assert_eq!(ours.stdout, theirs.stdout, "{profile} {tool} cut at {cut}");
                if ours.status.success() {
                    assert!(err.contains("stream ends early"), "{profile} {tool}: {err}");
                    *rendered.entry(tool).or_insert(0) += 1;
                }
            }
        }
    }
    // gzip and xz decode as they go: a cut file still has whole samples in it.
    for tool in ["gzip", "xz"] {
        assert!(
            rendered.get(tool).is_some_and(|&n| n > 0),
            "{tool}: {rendered:?}"
        );
    }
}

#[test]
fn watch_refuses_a_compressed_file() {
    let dir = Scratch::new("compressed-watch");
    let bytes = std::fs::read(fixtures().join(PROFILES[0])).unwrap();
    std::fs::write(dir.path("p.hp.gz"), compress("gzip", &bytes)).unwrap();
    for args in [
        &["--watch", "p.hp.gz"][..],
        &["--serve", "p.hp.gz"],
        &["--watch", "later.hp.xz"],
    ] {
        let out = hpgraph(&dir.0, args, None);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("cannot follow a"), "{args:?}: {err}");
    }
}

/// Whether the system's decompressor accepts `packed` whole (exit 0).
fn accepted(tool: &str, packed: &[u8]) -> bool {
    pipe(tool, &["-d", "-c", "-q"], packed).1
}

#[test]
fn a_damaged_stream_is_an_error_where_the_systems_decompressor_says_so() {
    let dir = Scratch::new("compressed-damaged");
    let bytes = std::fs::read(fixtures().join("profiles/ManyCC-hc.hp")).unwrap();
    for (tool, _) in tools() {
        let packed = if tool == "zstd" {
            // With a content checksum, which zstd writes by default.
            pipe(tool, &["-c", "-q", "--check"], &bytes).0
        } else {
            compress(tool, &bytes)
        };
        // The last bytes of each format's trailer: gzip's size, xz's stream footer,
        // zstd's content checksum. Then bytes that are not the format after its end.
        let mut checksum = packed.clone();
        let at = packed.len() - if tool == "xz" { 14 } else { 2 };
        checksum[at] ^= 0x5a;
        let mut trailing = packed.clone();
        trailing.extend(b"not compressed\n");
        let mut twice = packed.clone();
        twice.extend(&packed);
        for (what, damaged) in [
            ("checksum", checksum),
            ("trailing bytes", trailing),
            ("two streams", twice),
        ] {
            let out = hpgraph(&dir.0, &["-", "-o", "x.svg"], Some(&damaged));
            let err = String::from_utf8_lossy(&out.stderr);
            let theirs = accepted(tool, &damaged);
            assert_eq!(
                out.status.success(),
                theirs,
                "{tool} {what}: {tool} says {theirs}; we: {err}"
            );
            if !theirs {
                assert_eq!(out.status.code(), Some(1), "{tool} {what}: {err}");
                assert!(
                    err.contains(&format!("cannot decompress ({tool})")),
                    "{tool} {what}: {err}"
                );
                assert!(
                    !err.contains("ends early"),
                    "{tool} {what}: taken for a cut file: {err}"
                );
            }
        }
    }
}
