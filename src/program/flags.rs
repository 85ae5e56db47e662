//! The runtime options a run is given: a heap census by the breakdown asked for (or the
//! build's best), written with the runtime's own events to the eventlog hpgraph reads,
//! and for a profiling build the time samples beside it.

use std::ffi::OsString;
use std::path::Path;

use super::SetUp;
use super::info::{Rts, Version};

/// A heap census's breakdown (`-h` and its letter).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Breakdown {
    /// `-hc`: by cost-centre stack (profiling builds).
    CostCentre,
    /// `-hm`: by module (profiling builds).
    Module,
    /// `-hd`: by closure description (profiling builds).
    Description,
    /// `-hy`: by type (profiling builds).
    Type,
    /// `-hr`: by retainer set (profiling builds).
    Retainer,
    /// `-hb`: by biography (profiling builds).
    Biography,
    /// `-hT`: by closure type (any build).
    ClosureType,
    /// `-hi`: by info table (GHC 9.2 on, builds without profiling).
    InfoTable,
}

impl Breakdown {
    /// Every breakdown, with its letters as `--by` takes them.
    pub const ALL: [(&'static str, Breakdown); 8] = [
        ("hc", Breakdown::CostCentre),
        ("hm", Breakdown::Module),
        ("hd", Breakdown::Description),
        ("hy", Breakdown::Type),
        ("hr", Breakdown::Retainer),
        ("hb", Breakdown::Biography),
        ("hT", Breakdown::ClosureType),
        ("hi", Breakdown::InfoTable),
    ];

    /// The breakdown `--by` names (`hc`, `-hc`), if any.
    pub fn named(text: &str) -> Option<Breakdown> {
        let text = text.strip_prefix('-').unwrap_or(text);
        Self::ALL.iter().find(|(n, _)| *n == text).map(|(_, b)| *b)
    }

    /// Its letters (`hc`).
    pub fn letters(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(_, b)| *b == self)
            .map_or("hT", |(n, _)| n)
    }

    fn needs_profiling(self) -> bool {
        !matches!(self, Breakdown::ClosureType | Breakdown::InfoTable)
    }
}

/// Seconds of the program's own time between heap censuses where the run does not say
/// (`-i`): a second of it gets 20, which is enough to judge a trend
/// ([`crate::analysis::window::MIN_TREND_CENSUSES`] after an exit's teardown), where the
/// runtime's own 0.1 s gives a short program too few. Each census is a major
/// collection: a long run with a large heap spends twice the runtime default's time in
/// them, which `-i 0.1` gives back.
pub const CENSUS_INTERVAL: f64 = 0.05;

/// The census interval of a run: the one `-i` gave, else [`CENSUS_INTERVAL`].
pub fn census_interval(given: Option<f64>) -> f64 {
    given.unwrap_or(CENSUS_INTERVAL)
}

/// A run with fewer heap censuses than this is told how to get more: its trend's body
/// would be under [`crate::analysis::window::MIN_TREND_CENSUSES`] after a teardown.
pub const FEW_CENSUSES: usize = 20;

/// The interval to suggest to a run that got `got` censuses at `interval` seconds: the
/// round interval (1, 2 or 5 times a power of ten) at or under the one that would have
/// given twice [`FEW_CENSUSES`], no finer than a millisecond.
pub fn finer_interval(interval: f64, got: usize) -> f64 {
    let wanted = interval * got.max(1) as f64 / (2 * FEW_CENSUSES) as f64;
    let mut best = 0.001;
    for exp in -3..=1 {
        for m in [1.0, 2.0, 5.0] {
            // Divided, so that 0.005 is the literal's value.
            let v = if exp < 0 {
                m / 10f64.powi(-exp)
            } else {
                m * 10f64.powi(exp)
            };
            if v <= wanted * (1.0 + 1e-9) {
                best = v;
            }
        }
    }
    best
}

/// What the run is asked to record.
#[derive(Debug, Clone, PartialEq)]
pub struct Request<'a> {
    /// `--by`: the breakdown, or the build's best.
    pub by: Option<Breakdown>,
    /// `-i`: seconds between censuses, or the runtime's own (0.1 s).
    pub interval: Option<f64>,
    /// Where the eventlog is written (and kept).
    pub eventlog: &'a Path,
    /// A live view follows the run: the eventlog is flushed each second where the
    /// runtime can (GHC 9.2 on), not only when its buffers fill.
    pub live: bool,
}

/// The breakdown a run of `rts` gets: the one asked for when the build allows it, else
/// by cost centre for a profiling build, by closure type for any other.
pub fn breakdown(rts: &Rts, by: Option<Breakdown>) -> Result<Breakdown, SetUp> {
    let name = rts.program.display();
    match by {
        None if rts.profiled() => Ok(Breakdown::CostCentre),
        None => Ok(Breakdown::ClosureType),
        Some(b) if b.needs_profiling() && !rts.profiled() => Err(SetUp::Breakdown(format!(
            "{name}: --by {} needs a profiling build (ghc -prof -fprof-auto -rtsopts); this \
             one is not: use --by hT{}",
            b.letters(),
            if rts.version >= Version(9, 2) {
                " or --by hi"
            } else {
                ""
            }
        ))),
        Some(Breakdown::InfoTable) if rts.version < Version(9, 2) => {
            Err(SetUp::Breakdown(format!(
                "{name}: --by hi needs GHC 9.2 or later; this program's is {}",
                rts.ghc
            )))
        }
        Some(Breakdown::InfoTable) if rts.profiled() => Err(SetUp::Breakdown(format!(
            "{name}: --by hi needs a build without profiling (ghc -rtsopts{}): use --by hc \
             or another cost-centre breakdown",
            if rts.version < Version(9, 4) {
                " -eventlog"
            } else {
                ""
            }
        ))),
        Some(b) => Ok(b),
    }
}

/// The runtime options for `request` on `rts` (between `+RTS` and `-RTS`), the eventlog's
/// path in its own bytes: a program named in bytes that are not UTF-8 is told its own
/// name, not a replacement character.
pub fn rts_flags(rts: &Rts, request: &Request) -> Result<Vec<OsString>, SetUp> {
    if !rts.eventlog() {
        return Err(SetUp::NoEventlog(rts.program.clone(), rts.ghc.clone()));
    }
    let by = breakdown(rts, request.by)?;
    let mut flags: Vec<OsString> = vec![format!("-{}", by.letters()).into(), "-l".into()];
    if rts.profiled() {
        // The time samples, to the eventlog beside the heap (and the .prof report).
        flags.push("-p".into());
    }
    flags.push(format!("-i{}", census_interval(request.interval)).into());
    if request.live && rts.version >= Version(9, 2) {
        flags.push("--eventlog-flush-interval=1".into());
    }
    let mut eventlog = OsString::from("-ol");
    eventlog.push(request.eventlog);
    flags.push(eventlog);
    Ok(flags)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn rts(way: &str, ghc: &str, version: Version) -> Rts {
        Rts {
            program: PathBuf::from("./prog"),
            ghc: ghc.into(),
            version,
            way: way.into(),
        }
    }

    #[test]
    fn each_build_gets_its_best_and_refuses_what_it_cannot() {
        let plain = rts("rts_l", "9.0.2", Version(9, 0));
        let prof = rts("rts_p", "9.0.2", Version(9, 0));
        let log = Path::new("prog.eventlog");
        let req = |by| Request {
            by,
            interval: None,
            eventlog: log,
            live: false,
        };
        assert_eq!(
            rts_flags(&plain, &req(None)).unwrap(),
            ["-hT", "-l", "-i0.05", "-olprog.eventlog"]
        );
        assert_eq!(
            rts_flags(&prof, &req(None)).unwrap(),
            ["-hc", "-l", "-p", "-i0.05", "-olprog.eventlog"]
        );
        let e = rts_flags(&plain, &req(Some(Breakdown::Type))).unwrap_err();
        assert!(e.to_string().contains("-prof"), "{e}");
        let e = rts_flags(&plain, &req(Some(Breakdown::InfoTable))).unwrap_err();
        assert!(e.to_string().contains("9.2"), "{e}");
        let e = rts_flags(&rts("rts_v", "9.0.2", Version(9, 0)), &req(None)).unwrap_err();
        assert!(e.to_string().contains("-eventlog"), "{e}");
        let new = rts("rts_thr", "9.6.6", Version(9, 6));
        let live = Request {
            by: Some(Breakdown::InfoTable),
            interval: Some(0.5),
            eventlog: log,
            live: true,
        };
        assert_eq!(
            rts_flags(&new, &live).unwrap(),
            [
                "-hi",
                "-l",
                "-i0.5",
                "--eventlog-flush-interval=1",
                "-olprog.eventlog"
            ]
        );
        assert_eq!(Breakdown::named("-hy"), Some(Breakdown::Type));
        assert_eq!(Breakdown::named("hx"), None);
    }

    #[test]
    fn a_run_of_few_censuses_is_told_a_round_interval_that_gives_forty() {
        // 5 censuses at 0.05 s: 40 would come at 0.00625 s, the round one under is 0.005.
        assert_eq!(finer_interval(0.05, 5), 0.005);
        assert_eq!(finer_interval(0.1, 10), 0.02);
        assert_eq!(finer_interval(0.2, 8), 0.02);
        // Never finer than a millisecond, even for a run with no census at all.
        assert_eq!(finer_interval(0.05, 0), 0.001);
        assert_eq!(finer_interval(0.01, 1), 0.001);
    }
}
