//! Where output goes: a file replaced atomically, or standard output.
//!
//! A file is written to a temporary file beside it and renamed over it only once the
//! whole document is written, so an error never leaves an empty or partial file behind,
//! and a viewer watching the file never sees half a picture.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

/// Size of the write buffer: output is written in large blocks.
const BUFFER: usize = 1 << 20;

/// Writes `path` atomically with what `body` writes.
pub fn write_file(
    path: &Path,
    body: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let tmp = TempFile::beside(path)?;
    let mut w = BufWriter::with_capacity(BUFFER, &tmp.file);
    body(&mut w)?;
    w.flush()?;
    drop(w);
    tmp.persist(path)
}

/// Writes to standard output through a large buffer.
pub fn write_stdout(body: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> io::Result<()> {
    let stdout = io::stdout();
    let mut w = BufWriter::with_capacity(BUFFER, stdout.lock());
    body(&mut w)?;
    w.flush()
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
        let name = target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        loop {
            let n = COUNTER.fetch_add(1, Ordering::Relaxed);
            let path = dir.join(format!(".{name}.{}.{n}.tmp", std::process::id()));
            // create_new: never follow or clobber something already there.
            match OpenOptions::new().write(true).create_new(true).open(&path) {
                Ok(file) => {
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

    fn persist(mut self, target: &Path) -> io::Result<()> {
        self.file.sync_all().ok();
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
}
