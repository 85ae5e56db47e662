//! The library's error type: every failure names the file, and the line when there is one.

use std::fmt;
use std::io;

use crate::input;
use crate::select::aux::AuxError;

/// Something that stopped a rendering.
#[derive(Debug)]
pub enum Error {
    /// The input could not be opened or read.
    Read {
        /// The input, as messages name it.
        path: String,
        /// Why.
        source: io::Error,
        /// What to do about it, when there is more to say than `source` (empty if not).
        hint: String,
    },
    /// The input is not a heap profile.
    Parse {
        /// The input, as messages name it.
        path: String,
        /// What is wrong, and where.
        error: input::Error,
    },
    /// The `.aux` file asked for with `-p` could not be opened or read.
    AuxRead {
        /// The `.aux` file.
        path: String,
        /// Why.
        source: io::Error,
    },
    /// The `.aux` file is not valid.
    Aux {
        /// The `.aux` file.
        path: String,
        /// What is wrong, and on which line.
        error: AuxError,
    },
    /// The output could not be written.
    Write {
        /// The output.
        path: String,
        /// Why.
        source: io::Error,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Read { path, source, hint } if hint.is_empty() => {
                write!(f, "{path}: cannot read: {source}")
            }
            Error::Read { path, source, hint } => {
                write!(f, "{path}: cannot read: {source}; {hint}")
            }
            Error::Parse { path, error } => write!(f, "{path}{}", error.located()),
            Error::AuxRead { path, source } => {
                write!(
                    f,
                    "{path}: cannot read the .aux file that -p asks for: {source}"
                )
            }
            Error::Aux { path, error } => write!(f, "{path}:{}: {error}", error.line),
            Error::Write { path, source } => write!(f, "{path}: cannot write: {source}"),
        }
    }
}

/// The message of every variant already includes its cause, so no `source` is given:
/// printing the chain (`{:#}` in anyhow) would say it twice.
impl std::error::Error for Error {}
