//! A GHC program run for its profile (`hpgraph run -- PROGRAM ARGS`).
//!
//! What the program is ([`info`]: its runtime's own `--info`), the runtime options that
//! make it write an eventlog with a heap census ([`flags`]), and the run itself
//! ([`child`]: its standard streams its own, a signal sent to hpgraph sent on to it, its
//! exit status kept). What is drawn of the eventlog it writes is the engine's, as for any
//! input: this module starts, watches and ends a process, and reads no profile.

pub mod child;
pub mod flags;
pub mod info;

use std::fmt;
use std::path::PathBuf;

/// Why a program cannot be run for its profile: the run does not start (exit status 2),
/// and what to do is said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SetUp {
    /// No such program, on the path or where named.
    NotFound(String),
    /// The program could not be started or asked (why).
    Unstartable(String, String),
    /// The file has no GHC runtime in it.
    NotGhc(PathBuf),
    /// The program was linked without `-rtsopts`: it takes no profiling option.
    RtsOptsDisabled(PathBuf),
    /// A GHC before 9.4 writes an eventlog only when linked with `-eventlog`.
    NoEventlog(PathBuf, String),
    /// A breakdown the build does not allow (which, and the build that would).
    Breakdown(String),
}

impl fmt::Display for SetUp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetUp::NotFound(name) => write!(
                f,
                "{name}: no such program (name it by its path, or put it on PATH)"
            ),
            SetUp::Unstartable(name, why) => write!(f, "{name}: cannot run it: {why}"),
            SetUp::NotGhc(p) => write!(
                f,
                "{}: not a program built by GHC (no GHC runtime in it): hpgraph run \
                 profiles Haskell programs; a script that starts one can be given the \
                 program's options itself (docs/run.md)",
                p.display()
            ),
            SetUp::RtsOptsDisabled(p) => write!(
                f,
                "{}: takes no runtime options (it was linked without -rtsopts): build it \
                 with `ghc -rtsopts` (and -eventlog before GHC 9.4) and run it again",
                p.display()
            ),
            SetUp::NoEventlog(p, version) => write!(
                f,
                "{}: GHC {version} writes an eventlog only from a program linked with \
                 -eventlog (or -prof): build it with `ghc -eventlog -rtsopts`",
                p.display()
            ),
            SetUp::Breakdown(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for SetUp {}
