//! Running the release binary with its peak memory and time measured by the kernel
//! (`wait4`'s `ru_maxrss`, `ru_utime` and `ru_stime`), not by hpgraph: what the bounds
//! tests hold.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use flate2::Compression;
use flate2::write::GzEncoder;

/// What a hostile input may cost at most (the reviews' bar).
pub const MAX_RSS_KB: u64 = 512 * 1024;
/// How long the bombs of the first review may take.
pub const BOMB_TIME: Duration = Duration::from_secs(60);
/// How long the cases of the third review may take.
pub const CASE_TIME: Duration = Duration::from_secs(10);

/// A run's wall-clock time is held only against a hang, at this many times its bound:
/// on a loaded two-core machine (CI runs Ghostscript, hp2ps and Chromium beside the
/// suite) the wall clock measures the machine, and the bound is of hpgraph's work.
const HANG_FACTOR: u32 = 6;

pub struct Measured {
    pub status: std::process::ExitStatus,
    pub stderr: String,
    pub rss_kb: u64,
    /// The processor time hpgraph used, its threads' user and system time together.
    pub cpu: Duration,
    pub elapsed: Duration,
}

/// Runs hpgraph in `dir` and measures its peak resident memory as the kernel counted it.
pub fn measured(dir: &Path, args: &[&str]) -> Measured {
    measured_from(dir, args, None)
}

/// Starts the program of its arguments from a process of its own and writes its wait
/// status and `ru_maxrss` to the file named first. A child started by the test process
/// itself would carry the test process's memory in its `ru_maxrss`: the kernel records
/// the memory the child had before its exec (the parent's, with vfork or fork), and the
/// test process holds every test's data (half a gigabyte in a full run). Forked from
/// Python's few megabytes instead, the figure is hpgraph's, overstated by at most those.
/// Its processor time (user and system, every thread's) follows.
/// The launcher itself ignores SIGTERM, so that a test can stop a long-running hpgraph
/// (`--watch`) by its process group and still have the figures ([`Launched::stop`]).
const LAUNCHER: &str = "\
import os, signal, sys
pid = os.fork()
if pid == 0:
    try:
        os.execv(sys.argv[2], sys.argv[2:])
    finally:
        os._exit(127)
signal.signal(signal.SIGTERM, signal.SIG_IGN)
_, status, usage = os.wait4(pid, 0)
with open(sys.argv[1], 'w') as f:
    f.write(f'{status} {usage.ru_maxrss} {usage.ru_utime + usage.ru_stime}')
";

/// [`measured`], with standard input read from `stdin` when given.
pub fn measured_from(dir: &Path, args: &[&str], stdin: Option<&Path>) -> Measured {
    launched(dir, args, stdin).finish()
}

/// hpgraph started under the launcher, measured once it ends.
pub struct Launched {
    child: std::process::Child,
    started: Instant,
    usage_path: std::path::PathBuf,
    err_path: std::path::PathBuf,
}

/// Starts hpgraph in `dir` under the launcher, in a process group of its own.
pub fn launched(dir: &Path, args: &[&str], stdin: Option<&Path>) -> Launched {
    use std::os::unix::process::CommandExt;
    let err_path = dir.join("stderr.txt");
    let usage_path = dir.join("usage.txt");
    let started = Instant::now();
    let input = match stdin {
        Some(p) => Stdio::from(File::open(p).unwrap()),
        None => Stdio::null(),
    };
    let child = Command::new("python3")
        .current_dir(dir)
        .args(["-c", LAUNCHER])
        .arg(&usage_path)
        .arg(env!("CARGO_BIN_EXE_hpgraph"))
        .args(args)
        .stdin(input)
        .stdout(Stdio::null())
        .stderr(File::create(&err_path).unwrap())
        .process_group(0)
        .spawn()
        .expect("run python3, which starts hpgraph");
    Launched {
        child,
        started,
        usage_path,
        err_path,
    }
}

impl Launched {
    /// What hpgraph has said so far.
    pub fn said(&self) -> String {
        std::fs::read_to_string(&self.err_path).unwrap_or_default()
    }

    /// Sends hpgraph SIGTERM (the launcher ignores it) and measures it.
    pub fn stop(self) -> Measured {
        let group = i32::try_from(self.child.id()).unwrap();
        unsafe { libc::kill(-group, libc::SIGTERM) };
        self.finish()
    }

    /// Waits for hpgraph to end and gives what the kernel counted.
    pub fn finish(mut self) -> Measured {
        let launched = self.child.wait().unwrap();
        let elapsed = self.started.elapsed();
        assert!(launched.success(), "the launcher failed: {launched}");
        let usage = std::fs::read_to_string(&self.usage_path).unwrap();
        std::fs::remove_file(&self.usage_path).unwrap();
        let [status, rss_kb, cpu] = usage
            .split(' ')
            .collect::<Vec<_>>()
            .try_into()
            .expect("status, peak and processor time");
        use std::os::unix::process::ExitStatusExt;
        Measured {
            status: std::process::ExitStatus::from_raw(status.parse().unwrap()),
            stderr: std::fs::read_to_string(&self.err_path).unwrap(),
            rss_kb: rss_kb.parse().unwrap(),
            cpu: Duration::from_secs_f64(cpu.parse().unwrap()),
            elapsed,
        }
    }
}

/// Holds a run to [`MAX_RSS_KB`] and `time` of processor time (its wall-clock time to
/// [`HANG_FACTOR`] times that), and says what it took.
pub fn bounded(m: &Measured, what: &str, time: Duration) {
    eprintln!(
        "{what}: {} MB peak, {:.1} s of processor time, {:.1} s elapsed",
        m.rss_kb / 1024,
        m.cpu.as_secs_f64(),
        m.elapsed.as_secs_f64()
    );
    assert!(
        m.rss_kb < MAX_RSS_KB,
        "{what}: {} MB resident at the peak",
        m.rss_kb / 1024
    );
    assert!(m.cpu < time, "{what}: took {:?} of processor time", m.cpu);
    assert!(
        m.elapsed < time * HANG_FACTOR,
        "{what}: still running after {:?}",
        m.elapsed
    );
}

/// A successful run within [`MAX_RSS_KB`] and [`BOMB_TIME`].
pub fn within_bounds(m: &Measured, what: &str) {
    bounded(m, what, BOMB_TIME);
    assert!(m.status.success(), "{what}: {}", m.stderr);
}

/// A successful run within [`MAX_RSS_KB`] and [`CASE_TIME`].
pub fn within_limits(m: &Measured, what: &str) {
    bounded(m, what, CASE_TIME);
    assert!(m.status.success(), "{what}: {}", m.stderr);
}

/// A gzip file at `path` written by `fill`.
pub fn gzip(path: &Path, fill: impl FnOnce(&mut dyn Write)) {
    let mut z = GzEncoder::new(
        BufWriter::new(File::create(path).unwrap()),
        Compression::fast(),
    );
    fill(&mut z);
    z.finish().unwrap().flush().unwrap();
}
