//! Where a profile is read from: a file (a regular one, or a FIFO or device read as a
//! stream), standard input, or the socket a program serves its eventlog on. One type
//! for a one-shot reading and for a followed one ([`crate::live`]).

use std::path::{Path, PathBuf};

use super::stream::Endpoint;
use super::{Options, Parsed};

/// Where the profile comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// Standard input (`-` or no file).
    Stdin,
    /// A file: a regular one, or a FIFO or character device read as a stream.
    File(PathBuf),
    /// The eventlog a program serves on a socket (`--connect`).
    Socket(Endpoint),
}

impl Source {
    /// The name used in messages (`stdin`, as hp2ps says).
    pub fn display(&self) -> String {
        match self {
            Source::Stdin => "stdin".to_string(),
            Source::File(p) => p.display().to_string(),
            Source::Socket(e) => e.to_string(),
        }
    }

    /// The file read, where the source is one.
    pub fn file(&self) -> Option<&Path> {
        match self {
            Source::File(f) => Some(f),
            _ => None,
        }
    }

    /// Whether it can be read only once: standard input, a FIFO or device, a socket.
    pub fn is_read_once(&self) -> bool {
        match self {
            Source::Stdin | Source::Socket(_) => true,
            Source::File(f) => super::path::is_stream(f),
        }
    }

    /// Whether two sources are one file (the same path, or two paths to it); standard
    /// input and sockets only as themselves.
    pub fn is(&self, other: &Source) -> bool {
        match (self, other) {
            (Source::File(x), Source::File(y)) => {
                x == y
                    || matches!(
                        (std::fs::canonicalize(x), std::fs::canonicalize(y)),
                        (Ok(x), Ok(y)) if x == y
                    )
            }
            _ => self == other,
        }
    }

    /// Reads the whole profile: a file (a FIFO or device as a stream, to its end),
    /// standard input, or one connection to a socket, to its end.
    pub fn read(&self, options: Options) -> Result<Parsed, SourceError> {
        let path = self.display();
        let read_error = |source: std::io::Error| SourceError::Read {
            hint: self.file().map_or(String::new(), |p| read_hint(p, &source)),
            path: path.clone(),
            source,
        };
        let result = match self {
            Source::Stdin => super::read_once(std::io::stdin().lock(), options),
            Source::File(p) => super::path::read(p, options).map_err(read_error)?,
            Source::Socket(endpoint) => {
                super::read_once(endpoint.open().map_err(read_error)?, options)
            }
        };
        result.map_err(|error| SourceError::Parse { path, error })
    }
}

/// Why an input gave no profile: it could not be opened or read, or it is not a profile.
/// (The input's own error, so that reading needs nothing above it; the library's
/// [`crate::Error`] holds it.)
#[derive(Debug)]
pub enum SourceError {
    /// The input could not be opened or read.
    Read {
        /// The input, as messages name it.
        path: String,
        /// Why.
        source: std::io::Error,
        /// What to do about it, when there is more to say than `source` (empty if not).
        hint: String,
    },
    /// The input is not a profile.
    Parse {
        /// The input, as messages name it.
        path: String,
        /// What is wrong, and where.
        error: super::Error,
    },
}

impl std::fmt::Display for SourceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SourceError::Read { path, source, hint } if hint.is_empty() => {
                write!(f, "{path}: cannot read: {source}")
            }
            SourceError::Read { path, source, hint } => {
                write!(f, "{path}: cannot read: {source}; {hint}")
            }
            SourceError::Parse { path, error } => write!(f, "{path}{}", error.located()),
        }
    }
}

/// The message already includes its cause, as [`crate::Error`]'s do.
impl std::error::Error for SourceError {}

/// What to tell a user whose input `path` could not be opened, when hp2ps's naming is
/// the likely cause: the argument named a file or folder that exists, and hp2ps's rule
/// made it `NAME.hp`, which does not. Empty when there is nothing to add.
fn read_hint(path: &Path, error: &std::io::Error) -> String {
    if error.kind() != std::io::ErrorKind::NotFound {
        return String::new();
    }
    let Some(given) = path.to_str().and_then(|p| p.strip_suffix(".hp")) else {
        return String::new();
    };
    let given_path = Path::new(given);
    if given_path.is_dir() {
        format!("{given} is a folder; hpgraph reads one profile file (NAME or NAME.hp)")
    } else if given_path.exists() {
        format!(
            "as hp2ps does, a NAME not ending in .hp reads NAME.hp; to read {given} \
             itself, give it on standard input: hpgraph < {given}"
        )
    } else {
        String::new()
    }
}
