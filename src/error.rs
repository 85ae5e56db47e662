//! The library's error type: every failure names the file, and the line when there is one.

use std::fmt;
use std::io;

use crate::input;
use crate::select::aux::AuxError;

/// Something that stopped a rendering.
#[derive(Debug)]
pub enum Error {
    /// The input could not be opened, read or parsed.
    Input(input::SourceError),
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
    Write(crate::sink::WriteError),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Input(error) => error.fmt(f),
            Error::AuxRead { path, source } => {
                write!(
                    f,
                    "{path}: cannot read the .aux file that -p asks for: {source}"
                )
            }
            Error::Aux { path, error } => write!(f, "{path}:{}: {error}", error.line),
            Error::Write(error) => error.fmt(f),
        }
    }
}

/// The message of every variant already includes its cause, so no `source` is given:
/// printing the chain (`{:#}` in anyhow) would say it twice.
impl std::error::Error for Error {}

impl From<crate::sink::WriteError> for Error {
    fn from(error: crate::sink::WriteError) -> Error {
        Error::Write(error)
    }
}

impl From<input::SourceError> for Error {
    fn from(error: input::SourceError) -> Error {
        Error::Input(error)
    }
}
