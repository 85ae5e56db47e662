//! Where output goes: a file replaced atomically, or standard output.
//!
//! A file is written to a temporary file beside it and renamed over it only once the
//! whole document is written, so an error never leaves an empty or partial file behind,
//! and a viewer watching the file never sees half a picture.
//!
//! The bytes go out in 1 MiB blocks from a thread of their own: on a long profile the
//! kernel's copying of a hundred megabytes of PostScript takes as long as producing
//! them, and this way the two overlap on two cores.

pub mod collisions;

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, channel, sync_channel};

/// Size of a block handed to the writing thread.
const BLOCK: usize = 1 << 20;
/// Blocks waiting for the writing thread, at most.
const QUEUE: usize = 2;

/// Where a document goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Output {
    /// Standard output.
    Stdout,
    /// A file, written atomically ([`write_file`]).
    File(PathBuf),
}

impl Output {
    /// Writes what `body` writes here; an error names the file (or `stdout`).
    pub fn write(
        &self,
        body: impl FnOnce(&mut dyn Write) -> io::Result<()>,
    ) -> Result<(), WriteError> {
        let (path, result) = match self {
            Output::Stdout => ("stdout".into(), write_stdout(body)),
            Output::File(path) => (path.display().to_string(), write_file(path, body)),
        };
        result.map_err(|source| WriteError { path, source })
    }
}

/// An output that could not be written: which one, and why.
#[derive(Debug)]
pub struct WriteError {
    /// The output, as messages name it (`stdout` for standard output).
    pub path: String,
    /// Why.
    pub source: io::Error,
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: cannot write: {}", self.path, self.source)
    }
}

/// The message already includes its cause, as [`crate::Error`]'s do.
impl std::error::Error for WriteError {}

/// Writes `path` atomically with what `body` writes.
///
/// Only a regular file (or a path that does not exist yet) is replaced by renaming: a
/// device, FIFO or socket (`-o /dev/null`, a named pipe) is written in place, and a
/// symbolic link is followed so that the file it points to is replaced, not the link.
pub fn write_file(
    path: &Path,
    body: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let target = match fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => match fs::canonicalize(path) {
            Ok(real) => real,
            // A dangling link: the file it names is made as any new file is, beside
            // itself and renamed into place, so that a failed write leaves none.
            Err(_) => dangling_target(path)?,
        },
        _ => path.to_path_buf(),
    };
    let existing = fs::metadata(&target).ok();
    if let Some(m) = &existing
        && !m.is_file()
    {
        let file = OpenOptions::new().write(true).open(&target)?;
        return write_through_thread(file, body);
    }
    // A read-only file is one its owner asked to keep: renaming over it would replace it
    // all the same (the directory allows it), so it is refused, as `cp` would.
    if let Some(m) = &existing
        && m.permissions().readonly()
    {
        return Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            "the file exists and is read-only; not replaced",
        ));
    }
    let tmp = TempFile::beside(&target)?;
    // The new file keeps the old one's permissions (a private 0600 picture stays private).
    if let Some(m) = &existing {
        tmp.file.set_permissions(m.permissions())?;
    }
    let file = tmp.file.try_clone()?;
    write_through_thread(file, body)?;
    tmp.persist(&target)
}

/// The most symbolic links followed to a file that does not exist yet: Linux's own
/// limit on a path's links (`MAXSYMLINKS`); past it a loop of links is refused, as the
/// kernel refuses it.
pub const MAX_LINKS: usize = 40;

/// The path a dangling symbolic link leads to, followed link by link (each relative one
/// from its own folder).
fn dangling_target(path: &Path) -> io::Result<PathBuf> {
    let mut at = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match fs::symlink_metadata(&at) {
            Ok(m) if m.file_type().is_symlink() => {
                let next = fs::read_link(&at)?;
                at = match at.parent() {
                    Some(dir) if next.is_relative() => dir.join(next),
                    _ => next,
                };
            }
            _ => return Ok(at),
        }
    }
    Err(io::Error::other(format!(
        "more than {MAX_LINKS} symbolic links lead on from here (a loop?): name the file itself"
    )))
}

/// Writes to standard output.
pub fn write_stdout(body: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> io::Result<()> {
    write_through_thread(io::stdout(), body)
}

fn write_through_thread<W: Write + Send>(
    mut dest: W,
    body: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    std::thread::scope(|s| {
        let (tx, rx) = sync_channel::<Vec<u8>>(QUEUE);
        let (back_tx, back_rx) = channel::<Vec<u8>>();
        let writer = s.spawn(move || -> io::Result<()> {
            for block in rx {
                dest.write_all(&block)?;
                let _ = back_tx.send(block);
            }
            dest.flush()
        });
        let mut w = Blocks {
            buf: Vec::with_capacity(BLOCK),
            tx: Some(tx),
            back: back_rx,
        };
        let produced = body(&mut w).and_then(|()| w.flush());
        drop(w);
        let written = writer
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("the writing thread panicked")));
        // A failed write is the cause of a failed send: report it first.
        written.and(produced)
    })
}

/// A writer that hands full blocks to the writing thread and reuses the ones it returns.
struct Blocks {
    buf: Vec<u8>,
    tx: Option<SyncSender<Vec<u8>>>,
    back: Receiver<Vec<u8>>,
}

impl Blocks {
    fn send(&mut self) -> io::Result<()> {
        let mut next = self.back.try_recv().unwrap_or_default();
        next.clear();
        next.reserve(BLOCK);
        let full = std::mem::replace(&mut self.buf, next);
        let closed = || io::Error::new(io::ErrorKind::BrokenPipe, "output closed");
        self.tx
            .as_ref()
            .ok_or_else(closed)?
            .send(full)
            .map_err(|_| closed())
    }
}

impl Write for Blocks {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        self.buf.extend_from_slice(data);
        if self.buf.len() >= BLOCK {
            self.send()?;
        }
        Ok(data.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if !self.buf.is_empty() {
            self.send()?;
        }
        Ok(())
    }
}

/// The temporary files being written, to be removed if a signal ends the process
/// ([`clean_up_on_signals`]).
static TEMPORARIES: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());

/// The longest name a temporary file borrows from its target: a file system takes
/// names of 255 bytes, and the temporary adds a dot, the process id, a counter and
/// `.tmp` to the target's.
pub const TEMPORARY_STEM: usize = 200;

/// On SIGTERM, SIGINT or SIGHUP, removes the temporary files being written, then ends
/// the process as the signal would have: a one-shot run stopped while writing a large
/// picture leaves neither a partial picture nor its temporary file. (A live view stops
/// at its own pace instead, between redraws: `cli::watch`.)
pub fn clean_up_on_signals() -> io::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGTERM, SIGINT, SIGHUP])?;
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            // The list stays locked until the process ends: a temporary is created and
            // listed under the same lock (`TempFile::beside`), so none can appear after
            // this removal.
            let held = TEMPORARIES.lock().unwrap_or_else(|e| e.into_inner());
            for path in held.iter() {
                let _ = fs::remove_file(path);
            }
            let _ = signal_hook::low_level::emulate_default_handler(signal);
            std::process::exit(128 + signal);
        }
    });
    Ok(())
}

/// A temporary file that is removed unless it is renamed into place.
struct TempFile {
    path: PathBuf,
    file: File,
    keep: bool,
}

impl TempFile {
    fn beside(target: &Path) -> io::Result<TempFile> {
        static COUNTER: AtomicU32 = AtomicU32::new(0);
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let mut name = target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut end = name.len().min(TEMPORARY_STEM);
        while !name.is_char_boundary(end) {
            end -= 1;
        }
        name.truncate(end);
        loop {
            let n = COUNTER.fetch_add(1, Ordering::Relaxed);
            let path = dir.join(format!(".{name}.{}.{n}.tmp", std::process::id()));
            // Created and listed under one lock: a signal between the two would
            // otherwise leave a file no one removes.
            let mut listed = TEMPORARIES.lock().unwrap_or_else(|e| e.into_inner());
            // create_new: never follow or clobber something already there.
            match OpenOptions::new().write(true).create_new(true).open(&path) {
                Ok(file) => {
                    listed.push(path.clone());
                    return Ok(TempFile {
                        path,
                        file,
                        keep: false,
                    });
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        }
    }

    /// Renames the file into place. A rename is atomic for every other process (a viewer
    /// sees the old file or the new one), which is the guarantee wanted here. There is
    /// no `fsync` first: that would add durability across a power cut, which hp2ps never
    /// offered, at the price of waiting for the disk (70 ms on a 100 MB picture).
    fn persist(mut self, target: &Path) -> io::Result<()> {
        fs::rename(&self.path, target)?;
        self.keep = true;
        Ok(())
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if !self.keep {
            let _ = fs::remove_file(&self.path);
        }
        if let Ok(mut t) = TEMPORARIES.lock() {
            t.retain(|p| p != &self.path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary() {
        let dir = std::env::temp_dir().join(format!("hpgraph-sink-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let target = dir.join("out.ps");
        fs::write(&target, b"old").unwrap();
        let r = write_file(&target, |w| {
            w.write_all(b"partial")?;
            Err(io::Error::other("boom"))
        });
        assert!(r.is_err());
        assert_eq!(fs::read(&target).unwrap(), b"old");
        write_file(&target, |w| w.write_all(b"new")).unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"new");
        let left: Vec<_> = fs::read_dir(&dir).unwrap().collect();
        assert_eq!(left.len(), 1, "temporary files left behind");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn an_existing_file_keeps_its_permissions_and_a_read_only_one_is_kept() {
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir().join(format!("hpgraph-mode-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let private = dir.join("private.ps");
        fs::write(&private, b"old").unwrap();
        fs::set_permissions(&private, fs::Permissions::from_mode(0o600)).unwrap();
        write_file(&private, |w| w.write_all(b"new")).unwrap();
        assert_eq!(fs::read(&private).unwrap(), b"new");
        let mode = fs::metadata(&private).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);

        let kept = dir.join("kept.ps");
        fs::write(&kept, b"old").unwrap();
        fs::set_permissions(&kept, fs::Permissions::from_mode(0o444)).unwrap();
        let err = write_file(&kept, |w| w.write_all(b"new")).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::PermissionDenied);
        assert_eq!(fs::read(&kept).unwrap(), b"old");
        assert_eq!(
            fs::read_dir(&dir).unwrap().count(),
            2,
            "a temporary file left"
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn devices_are_written_in_place_and_links_followed() {
        write_file(Path::new("/dev/null"), |w| w.write_all(b"x")).unwrap();
        let m = fs::metadata("/dev/null").unwrap();
        assert!(!m.is_file(), "/dev/null was replaced by a file");

        let dir = std::env::temp_dir().join(format!("hpgraph-link-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join("real.ps"), b"old").unwrap();
        std::os::unix::fs::symlink("real.ps", dir.join("link.ps")).unwrap();
        write_file(&dir.join("link.ps"), |w| w.write_all(b"new")).unwrap();
        assert!(
            fs::symlink_metadata(dir.join("link.ps"))
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read(dir.join("real.ps")).unwrap(), b"new");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_dangling_link_is_written_whole_or_not_at_all_and_a_loop_is_refused() {
        use std::os::unix::fs::symlink;
        let dir = std::env::temp_dir().join(format!("hpgraph-dangling-{}", std::process::id()));
        fs::create_dir_all(dir.join("sub")).unwrap();
        // dl.svg -> sub/hop.svg -> new.svg (relative to sub/): two links, then nothing.
        symlink("sub/hop.svg", dir.join("dl.svg")).unwrap();
        symlink("new.svg", dir.join("sub/hop.svg")).unwrap();
        let r = write_file(&dir.join("dl.svg"), |w| {
            w.write_all(&[b'x'; 2048])?;
            Err(io::Error::other("the disk is full"))
        });
        assert!(r.is_err());
        assert!(
            !dir.join("sub/new.svg").exists(),
            "a half-written file left"
        );
        assert_eq!(
            fs::read_dir(dir.join("sub")).unwrap().count(),
            1,
            "a temporary left"
        );
        write_file(&dir.join("dl.svg"), |w| w.write_all(b"whole")).unwrap();
        assert_eq!(fs::read(dir.join("sub/new.svg")).unwrap(), b"whole");
        assert!(
            fs::symlink_metadata(dir.join("dl.svg"))
                .unwrap()
                .file_type()
                .is_symlink()
        );
        // A loop has no file to write: refused, nothing made.
        symlink("b.svg", dir.join("a.svg")).unwrap();
        symlink("a.svg", dir.join("b.svg")).unwrap();
        let why = write_file(&dir.join("a.svg"), |w| w.write_all(b"x")).unwrap_err();
        assert!(why.to_string().contains("symbolic links"), "{why}");
        fs::remove_dir_all(&dir).unwrap();
    }
}
