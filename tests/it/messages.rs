//! Names reach the terminal as text: a file, program or option whose name holds an
//! escape sequence (CSI, OSC ended by BEL) or a newline is written out in every message
//! path, so that no name clears the screen, retitles the window or forges a line of
//! hpgraph's own. The reference is the terminal's: no ESC or BEL byte may reach it, and
//! every line hpgraph writes is one of its messages (GNU `cat -A` shows the same bytes).

use std::ffi::OsString;
use std::os::unix::fs::PermissionsExt;
use std::process::{Output, Stdio};
use std::time::Duration;

use crate::common::{Scratch, command, fixtures};

/// CSI (clear the screen), OSC ended by BEL (retitle the window), then a newline that
/// would start a forged message.
const HOSTILE: &str = "a\x1b[2J\x1b]0;pwned\x07\nhpgraph: forged";

/// The path `dir/PREFIX HOSTILE SUFFIX`.
fn hostile(dir: &Scratch, prefix: &str, suffix: &str) -> OsString {
    dir.path(&format!("{prefix}{HOSTILE}{suffix}"))
        .into_os_string()
}

fn run(dir: &Scratch, args: &[OsString]) -> Output {
    command(&dir.0)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .unwrap()
}

/// What a message path printed holds no byte a terminal acts on, and no line of it is
/// the forged one: the name is there, written out.
fn safe(what: &str, stderr: &[u8]) {
    let text = String::from_utf8_lossy(stderr);
    assert!(
        !stderr.iter().any(|&b| b == 0x1b || b == 0x07),
        "{what}: a control byte reached the terminal: {text:?}"
    );
    assert!(
        !text.lines().any(|l| l.starts_with("hpgraph: forged")),
        "{what}: a name forged a line: {text:?}"
    );
    assert!(
        text.contains(r"a\x1b[2J\x1b]0;pwned\x07\x0ahpgraph: forged"),
        "{what}: the name is not written out: {text:?}"
    );
}

fn os(s: &str) -> OsString {
    OsString::from(s)
}

#[test]
fn every_message_path_writes_names_out() {
    let dir = Scratch::new("messages");
    let basic = fixtures().join("edge/basic.hp").into_os_string();
    // A profile cut short under a hostile name: read, with a warning naming it.
    let cut = hostile(&dir, "", ".hp");
    let truncated = std::fs::read(fixtures().join("edge/truncated.hp")).unwrap();
    std::fs::write(&cut, &truncated).unwrap();
    // A script under a hostile name: not a program built by GHC.
    let script = hostile(&dir, "", "");
    std::fs::write(&script, "#!/bin/sh\necho hi\n").unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let ticky = fixtures()
        .join("ticky/Run-lT-ghc-9.6.6.eventlog")
        .into_os_string();
    let cases: Vec<(&str, Vec<OsString>, &[i32])> = vec![
        (
            "a missing input",
            vec![hostile(&dir, "", ".missing.hp")],
            &[1],
        ),
        (
            "a warning",
            vec![cut.clone(), os("-o"), dir.path("w.svg").into()],
            &[0],
        ),
        (
            "an output that cannot be written",
            vec![basic.clone(), os("-o"), hostile(&dir, "no/", ".svg")],
            &[1],
        ),
        (
            "a missing --binary",
            vec![basic.clone(), os("--binary"), hostile(&dir, "no/", "")],
            &[1],
        ),
        (
            "hpgraph run of a script",
            vec![os("run"), os("--"), script.clone()],
            &[1, 2],
        ),
        (
            "two kinds compared",
            vec![os("--compare"), cut.clone(), ticky, os("--summary")],
            &[1],
        ),
        (
            "an unknown option",
            vec![os(&format!("--{HOSTILE}")), basic.clone()],
            &[2],
        ),
        (
            "a condition that does not parse",
            vec![basic.clone(), os("--check"), os(HOSTILE)],
            &[2],
        ),
    ];
    for (what, args, codes) in cases {
        let out = run(&dir, &args);
        let code = out.status.code().unwrap();
        assert!(
            codes.contains(&code),
            "{what}: exit {code}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            String::from_utf8_lossy(&out.stderr).starts_with("hpgraph: "),
            "{what}: {:?}",
            out.stderr
        );
        safe(what, &out.stderr);
    }
}

#[test]
fn a_watched_file_is_named_safely_while_it_is_waited_for() {
    let dir = Scratch::new("messages-watch");
    let watched = hostile(&dir, "", ".hp");
    let mut child = command(&dir.0)
        .arg("--watch")
        .arg(&watched)
        .arg("-o")
        .arg(dir.path("w.svg"))
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    let mut said = Vec::new();
    let mut err = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        use std::io::Read;
        let mut buf = [0u8; 4096];
        let mut all = Vec::new();
        while let Ok(n) = err.read(&mut buf) {
            if n == 0 {
                break;
            }
            all.extend_from_slice(&buf[..n]);
            if all.windows(7).any(|w| w == b"waiting") && all.ends_with(b"\n") {
                break;
            }
        }
        all
    });
    while !reader.is_finished() && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    let _ = child.wait();
    said.extend(reader.join().unwrap());
    assert!(
        String::from_utf8_lossy(&said).contains("waiting"),
        "no wait said: {:?}",
        String::from_utf8_lossy(&said)
    );
    safe("--watch of a file not there yet", &said);
}
