//! Running the release binary with its peak memory and time measured by the kernel
//! (`wait4`'s `ru_maxrss`), not by hpgraph: what the bounds tests hold.

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

pub struct Measured {
    pub status: std::process::ExitStatus,
    pub stderr: String,
    pub rss_kb: u64,
    pub elapsed: Duration,
}

/// Runs hpgraph in `dir` and measures its peak resident memory as the kernel counted it.
/// The kernel counts the test process's own memory at the fork too, so this can only
/// overstate: the tests make their bombs in a streaming writer to keep it small.
pub fn measured(dir: &Path, args: &[&str]) -> Measured {
    measured_from(dir, args, None)
}

/// [`measured`], with standard input read from `stdin` when given.
pub fn measured_from(dir: &Path, args: &[&str], stdin: Option<&Path>) -> Measured {
    let err_path = dir.join("stderr.txt");
    let started = Instant::now();
    let input = match stdin {
        Some(p) => Stdio::from(File::open(p).unwrap()),
        None => Stdio::null(),
    };
    let child = Command::new(env!("CARGO_BIN_EXE_hpgraph"))
        .current_dir(dir)
        .args(args)
        .stdin(input)
        .stdout(Stdio::null())
        .stderr(File::create(&err_path).unwrap())
        .spawn()
        .expect("run hpgraph");
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value; wait4 writes into both locals only.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let got = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(got, pid, "wait4");
    let elapsed = started.elapsed();
    std::mem::forget(child); // reaped above
    use std::os::unix::process::ExitStatusExt;
    Measured {
        status: std::process::ExitStatus::from_raw(status),
        stderr: std::fs::read_to_string(&err_path).unwrap(),
        rss_kb: usage.ru_maxrss as u64,
        elapsed,
    }
}

/// Holds a run to [`MAX_RSS_KB`] and `time`, and says what it took.
pub fn bounded(m: &Measured, what: &str, time: Duration) {
    eprintln!(
        "{what}: {} MB peak, {:.1} s",
        m.rss_kb / 1024,
        m.elapsed.as_secs_f64()
    );
    assert!(
        m.rss_kb < MAX_RSS_KB,
        "{what}: {} MB resident at the peak",
        m.rss_kb / 1024
    );
    assert!(m.elapsed < time, "{what}: took {:?}", m.elapsed);
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
