//! What a program is, as its own runtime says: `PROGRAM +RTS -i1 --info -RTS` prints the
//! runtime's build (GHC version, way) and exits before `main` runs.
//!
//! The runtime option before `--info` is one a program linked without `-rtsopts`
//! refuses ("Most RTS options are disabled"), so the one question also tells whether
//! the profiling options will be taken. Before anything is run, the file is looked at for
//! GHC's runtime: a program that is not GHC's is never started with `+RTS` arguments.

use std::ffi::OsStr;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::SetUp;

/// How long a program may take to answer `--info` (it answers before `main`).
const PROBE_TIMEOUT: Duration = Duration::from_secs(10);

/// Once the program has exited, how long its pipes may stay quiet before what came
/// through is taken as its whole answer: a process it left behind may hold them open.
const PIPE_GRACE: Duration = Duration::from_millis(500);

/// Text only GHC's runtime holds, looked for in the file before it is run.
const RTS_MARK: &[u8] = b"Most RTS options are disabled";

/// How much of the program is held at once while it is searched for the runtime's text: a
/// program of any size (a sparse gigabyte) costs this, not its size.
pub const SEARCH_BLOCK: usize = 1 << 20;

/// The most of the program's answer read: `--info` is a few hundred bytes.
const INFO_MAX: u64 = 64 * 1024;

/// A GHC version, major and minor (`9.0.2` is `9.0`): what decides the options.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Version(pub u32, pub u32);

/// A GHC program's runtime, as `--info` gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rts {
    /// The program's path.
    pub program: PathBuf,
    /// `GHC version`, as written (`9.0.2`).
    pub ghc: String,
    /// The version's major and minor numbers.
    pub version: Version,
    /// `RTS way`: `rts_v`, `rts_l`, `rts_thr_p`, …
    pub way: String,
}

impl Rts {
    /// A profiling build (`-prof`): cost-centre breakdowns and time samples.
    pub fn profiled(&self) -> bool {
        self.way_has("p")
    }

    /// Whether the runtime can write an eventlog: always from GHC 9.4, before it only
    /// the eventlog, debug and profiling ways.
    pub fn eventlog(&self) -> bool {
        self.version >= Version(9, 4) || ["l", "debug", "p"].iter().any(|w| self.way_has(w))
    }

    fn way_has(&self, part: &str) -> bool {
        self.way.split('_').skip(1).any(|p| p == part)
    }
}

/// Finds `name` as the shell would: a name with a `/` is a path, any other is looked
/// for on `PATH`.
pub fn locate(name: &OsStr) -> Result<PathBuf, SetUp> {
    let not_found = || SetUp::NotFound(name.to_string_lossy().into_owned());
    let path = Path::new(name);
    if name.as_encoded_bytes().contains(&b'/') {
        return path
            .is_file()
            .then(|| path.to_path_buf())
            .ok_or_else(not_found);
    }
    let dirs = std::env::var_os("PATH").ok_or_else(not_found)?;
    std::env::split_paths(&dirs)
        .map(|dir| dir.join(name))
        .find(|p| is_executable(p))
        .ok_or_else(not_found)
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Whether the file at `path` holds `mark`, read [`SEARCH_BLOCK`] at a time (the last
/// bytes of each block kept, so that a mark across two is found).
fn holds(path: &Path, mark: &[u8]) -> std::io::Result<bool> {
    let mut file = std::fs::File::open(path)?;
    let finder = memchr::memmem::Finder::new(mark);
    let mut buf = vec![0; SEARCH_BLOCK + mark.len()];
    let mut kept = 0;
    loop {
        let n = file.read(&mut buf[kept..])?;
        if n == 0 {
            return Ok(false);
        }
        let end = kept + n;
        if finder.find(&buf[..end]).is_some() {
            return Ok(true);
        }
        kept = mark.len().saturating_sub(1).min(end);
        buf.copy_within(end - kept..end, 0);
    }
}

/// Asks the program at `program` what it is (see the module's text).
pub fn probe(program: &Path) -> Result<Rts, SetUp> {
    let name = program.display().to_string();
    let ghcs =
        holds(program, RTS_MARK).map_err(|e| SetUp::Unstartable(name.clone(), e.to_string()))?;
    if !ghcs {
        return Err(SetUp::NotGhc(program.to_path_buf()));
    }
    let (status, out, err) = ask(program).map_err(|e| SetUp::Unstartable(name.clone(), e))?;
    if String::from_utf8_lossy(&err).contains("RTS options are disabled") {
        return Err(SetUp::RtsOptsDisabled(program.to_path_buf()));
    }
    let text = String::from_utf8_lossy(&out);
    match parse(&text) {
        Some((ghc, way)) if status => Ok(Rts {
            program: program.to_path_buf(),
            version: version(&ghc),
            ghc,
            way,
        }),
        _ => Err(SetUp::Unstartable(
            name,
            format!(
                "it did not say what it is (+RTS --info): {}",
                String::from_utf8_lossy(&err).trim()
            ),
        )),
    }
}

/// Runs the program with `+RTS -i1 --info -RTS`, nothing on its standard input, and
/// gives whether it succeeded, its standard output and its standard error. The probe is
/// bounded end to end by [`PROBE_TIMEOUT`]: a program that does not exit in time is
/// stopped with its process group, and a pipe still held once it has exited (a wrapper
/// script's background child keeps it open) is read until it has been quiet for
/// [`PIPE_GRACE`], within the deadline: what came through by then is the answer.
fn ask(program: &Path) -> Result<(bool, Vec<u8>, Vec<u8>), String> {
    use std::os::unix::process::CommandExt;
    use std::sync::mpsc;
    let mut child = Command::new(program)
        .args(["+RTS", "-i1", "--info", "-RTS"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // Its own group, so that what it started is stopped with it.
        .process_group(0)
        .spawn()
        .map_err(|e| e.to_string())?;
    let started = Instant::now();
    let deadline = started + PROBE_TIMEOUT;
    // Each pipe's bytes as they come, tagged 0 (out) or 1 (err); a reader that ends
    // drops its sender, so both gone is both pipes closed.
    let (tx, rx) = mpsc::channel::<(usize, Vec<u8>)>();
    let read = |which: usize, r: Option<Box<dyn Read + Send>>, tx: mpsc::Sender<_>| {
        std::thread::spawn(move || {
            let Some(mut r) = r.map(|r| r.take(INFO_MAX)) else {
                return;
            };
            let mut buf = vec![0u8; 8192];
            while let Ok(n @ 1..) = r.read(&mut buf) {
                if tx.send((which, buf[..n].to_vec())).is_err() {
                    return;
                }
            }
        });
    };
    read(0, child.stdout.take().map(|o| Box::new(o) as _), tx.clone());
    read(1, child.stderr.take().map(|e| Box::new(e) as _), tx);
    let stop = |child: &mut std::process::Child| {
        // The group first (its children), then the program itself.
        if let Ok(pid) = i32::try_from(child.id()) {
            unsafe { libc::kill(-pid, libc::SIGKILL) };
        }
        let _ = child.kill();
        let _ = child.wait();
    };
    let mut got = [Vec::new(), Vec::new()];
    let mut status = None;
    let mut pipes_open = true;
    while status.is_none() || pipes_open {
        let now = Instant::now();
        if now >= deadline {
            if status.is_none() {
                stop(&mut child);
                return Err("it did not answer +RTS --info within 10 s".into());
            }
            // It answered and exited; what it left running holds the pipes.
            break;
        }
        if status.is_none() {
            status = child.try_wait().map_err(|e| e.to_string())?;
        }
        let wait = match status {
            None => Duration::from_millis(10),
            Some(_) => (deadline - now).min(PIPE_GRACE),
        };
        match rx.recv_timeout(wait) {
            Ok((which, bytes)) => got[which].extend_from_slice(&bytes),
            // Exited, and nothing more came for a while: what is left holds the pipes.
            Err(mpsc::RecvTimeoutError::Timeout) if status.is_some() => break,
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                pipes_open = false;
                if status.is_none() {
                    status = Some(child.wait().map_err(|e| e.to_string())?);
                }
            }
        }
    }
    let [out, err] = got;
    Ok((status.is_some_and(|s| s.success()), out, err))
}

/// The `GHC version` and `RTS way` of `--info`'s list of pairs (`,("RTS way", "rts_l")`).
pub fn parse(text: &str) -> Option<(String, String)> {
    let mut ghc = None;
    let mut way = None;
    let mut saw_rts = false;
    for line in text.lines() {
        let Some((key, value)) = pair(line) else {
            continue;
        };
        match key {
            "GHC RTS" => saw_rts = value == "YES",
            "GHC version" => ghc = Some(value.to_owned()),
            "RTS way" => way = Some(value.to_owned()),
            _ => {}
        }
    }
    saw_rts.then_some(())?;
    Some((ghc?, way?))
}

/// One `("key", "value")` of the list.
fn pair(line: &str) -> Option<(&str, &str)> {
    let rest = line
        .trim_start()
        .trim_start_matches(['[', ','])
        .trim_start();
    let rest = rest.strip_prefix("(\"")?;
    let (key, rest) = rest.split_once("\", \"")?;
    let value = rest.strip_suffix("\")")?;
    Some((key, value))
}

/// `9.0.2` as `9.0`; what does not read as 0.0.
fn version(text: &str) -> Version {
    let mut parts = text.split('.').map(|p| p.parse::<u32>().unwrap_or(0));
    Version(parts.next().unwrap_or(0), parts.next().unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_runtimes_mark_is_found_across_blocks_and_a_sparse_file_held_a_block_at_a_time() {
        let dir = std::env::temp_dir().join(format!("hpgraph-holds-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // The mark across the first block's end, and nowhere else.
        let mut bytes = vec![b'x'; SEARCH_BLOCK - 5];
        bytes.extend_from_slice(RTS_MARK);
        bytes.extend_from_slice(&[b'y'; 100]);
        let across = dir.join("across");
        std::fs::write(&across, &bytes).unwrap();
        assert!(holds(&across, RTS_MARK).unwrap());
        bytes[SEARCH_BLOCK - 1] = b'!';
        std::fs::write(&across, &bytes).unwrap();
        assert!(!holds(&across, RTS_MARK).unwrap());
        // 64 MiB of holes (64 blocks): searched to its end a block at a time.
        let sparse = dir.join("sparse");
        std::fs::File::create(&sparse)
            .unwrap()
            .set_len(1 << 26)
            .unwrap();
        assert!(!holds(&sparse, RTS_MARK).unwrap());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// GHC 9.0.2's own answer, as a program built with `-eventlog` gives it.
    const INFO: &str = " [(\"GHC RTS\", \"YES\")\n ,(\"GHC version\", \"9.0.2\")\n ,(\"RTS way\", \"rts_l\")\n ,(\"Tables next to code\", \"YES\")\n ]\n";

    #[test]
    fn info_reads_version_and_way() {
        let (ghc, way) = parse(INFO).unwrap();
        assert_eq!((ghc.as_str(), way.as_str()), ("9.0.2", "rts_l"));
        assert_eq!(version(&ghc), Version(9, 0));
        assert!(parse("hello\n").is_none());
    }

    #[test]
    fn an_answer_past_info_max_is_read_as_far_as_it() {
        // A program that answers with more than INFO_MAX bytes is read that far, and no
        // further (the rest may meet a closed pipe: whether it then succeeds is a race).
        let script = format!("#!/bin/sh\nhead -c {} /dev/zero\n", INFO_MAX + 1000);
        let (_, out, _) = asked("info", &script).unwrap();
        assert_eq!(out.len() as u64, INFO_MAX);
    }

    #[test]
    fn a_child_left_holding_the_pipes_does_not_hold_the_probe() {
        // A wrapper that answers, then leaves a background child with its pipes open:
        // the answer is read once the pipes go quiet, not when the child ends.
        let script = format!("#!/bin/sh\nprintf '%s' '{INFO}'\nsleep 30 &\nexit 0\n");
        let started = Instant::now();
        let (ok, out, _) = asked("held", &script).unwrap();
        let took = started.elapsed();
        assert!(ok);
        assert!(parse(&String::from_utf8_lossy(&out)).is_some(), "{out:?}");
        assert!(took < PROBE_TIMEOUT / 2, "the probe took {took:?}");
    }

    /// [`ask`] of a shell script of `text`, in a folder of its own (`tag`). A test beside
    /// this one may fork while the script is still open for writing (ETXTBSY until it
    /// execs): asked again a few times.
    fn asked(tag: &str, text: &str) -> Result<(bool, Vec<u8>, Vec<u8>), String> {
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir().join(format!("hpgraph-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let program = dir.join("script");
        std::fs::write(&program, text).unwrap();
        std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
        let mut answer = ask(&program);
        for _ in 0..20 {
            match &answer {
                Err(e) if e.contains("busy") => {
                    std::thread::sleep(Duration::from_millis(50));
                    answer = ask(&program);
                }
                _ => break,
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
        answer
    }

    #[test]
    fn ways_say_profiling_and_eventlog() {
        let rts = |way: &str, ghc: &str| Rts {
            program: PathBuf::new(),
            ghc: ghc.into(),
            version: version(ghc),
            way: way.into(),
        };
        assert!(rts("rts_thr_p", "9.0.2").profiled());
        assert!(!rts("rts_l", "9.0.2").profiled());
        assert!(rts("rts_l", "9.0.2").eventlog());
        assert!(rts("rts_thr_debug", "9.0.2").eventlog());
        assert!(!rts("rts_v", "9.0.2").eventlog());
        assert!(!rts("rts_thr", "9.2.8").eventlog());
        assert!(rts("rts_v", "9.4.8").eventlog());
    }
}
