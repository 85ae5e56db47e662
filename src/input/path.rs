//! A profile named by a path: what its first bytes say it is, whether it is a stream,
//! and its reading. A path is looked at before it is opened: opening a FIFO would wait
//! for its writer, and its first bytes are the reading's, not ours to take.

use std::fs::File;
use std::io::Read;
use std::path::Path;

use super::compressed::{Compression, PREFIX};
use super::{Error, Format, Options, Parsed};

/// Whether `path` is a FIFO, a character device or a socket file: read as a stream, to
/// its end, never probed.
pub fn is_stream(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        std::fs::metadata(path).is_ok_and(|m| {
            let t = m.file_type();
            t.is_fifo() || t.is_char_device() || t.is_socket()
        })
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        false
    }
}

/// The format a regular file's first bytes say it is; `None` for anything else, or
/// where they do not tell.
pub fn format(path: &Path) -> Option<Format> {
    if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        return None;
    }
    let probe = super::prof::PROBE;
    let mut prefix = Vec::with_capacity(probe);
    let eof = (File::open(path).ok()?.take(probe as u64))
        .read_to_end(&mut prefix)
        .is_ok_and(|n| n < probe);
    Format::detect(&prefix, eof)
}

/// A file's compression, by its first bytes or (when it does not exist yet) by its
/// name; a stream's is its reading's to find.
pub fn compression(path: &Path) -> Option<Compression> {
    if is_stream(path) {
        return None;
    }
    let mut prefix = Vec::new();
    if let Ok(f) = File::open(path) {
        let _ = f.take(PREFIX as u64).read_to_end(&mut prefix);
        return Compression::detect(&prefix);
    }
    Compression::by_suffix(&path.to_string_lossy()).map(|(c, _)| c)
}

/// Reads the whole profile at `path`: a file (mapped where it can be), or a FIFO or
/// device as a stream, to its end. An `Err` of the opening is the caller's to name.
pub fn read(path: &Path, options: Options) -> Result<Result<Parsed, Error>, std::io::Error> {
    let file = File::open(path)?;
    Ok(if is_stream(path) {
        super::read_once(file, options)
    } else {
        super::read_file(&file, options)
    })
}
