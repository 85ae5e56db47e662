//! `--check`: conditions over the figures hpgraph already computes — a profile's peak and
//! its bands' (the summary's, [`crate::analysis::summary`]), the runtime's (`--stats`'s,
//! [`crate::analysis::stats`]), a biographical profile's waste
//! ([`crate::analysis::biography`]) — judged on one run or, with `--compare`, on the
//! change between two. A pipeline acts on the verdict: each condition holds or fails, and
//! a condition that cannot be judged (a figure the profile lacks, a band no name matches)
//! is a usage error before anything is written.
//!
//! [`parse`] reads a condition, [`judge`] measures it, [`report`] writes the verdicts
//! for people (one line a failure), for scripts (JSON) and for CI servers (JUnit XML).

use regex::bytes::Regex;

use crate::analysis::summary::Trend;

mod grammar;
mod judge;
pub mod report;

pub use grammar::parse;
pub use judge::{Judged, Measured, Outcome, Run, Unjudged, judge, judge_change};

/// One condition, as read.
#[derive(Debug, Clone)]
pub struct Check {
    /// The condition as written (trimmed).
    pub text: String,
    subject: Subject,
    op: Op,
    bound: Bound,
    /// The bound as written: `200MB`, `+5%`.
    written: String,
    /// Whether the bound was written in a unit of bytes (which a profile counting
    /// something else cannot be judged by).
    in_bytes: bool,
}

impl Check {
    /// Whether it bounds a change between two runs (`+5%`, `-1MB`): it needs
    /// `--compare`.
    pub fn is_change(&self) -> bool {
        matches!(self.bound, Bound::Change(_))
    }
}

/// What a condition measures.
#[derive(Debug, Clone)]
enum Subject {
    /// A figure of the whole run.
    Run(Figure),
    /// A figure of the bands a pattern matches, summed.
    Band {
        pattern: Regex,
        source: String,
        figure: BandFigure,
    },
    /// Where the total, or some bands, head.
    Trend(Target),
}

#[derive(Debug, Clone)]
enum Target {
    Total,
    Band(Regex, String),
}

impl Subject {
    fn kind(&self) -> Kind {
        match self {
            Subject::Run(f) => f.kind(),
            Subject::Band { figure, .. } => figure.kind(),
            Subject::Trend(_) => Kind::Trend,
        }
    }

    /// Whether it measures the profile's own values (its bands' amounts, in
    /// `VALUE_UNIT`), rather than the runtime's bytes.
    fn counts_values(&self) -> bool {
        matches!(
            self,
            Subject::Run(Figure::Peak | Figure::Mean)
                | Subject::Band {
                    figure: BandFigure::Peak | BandFigure::Mean,
                    ..
                }
        )
    }

    /// As messages name it: `peak`, `band('Data\.Map') mean`, `trend(total)`.
    fn name(&self) -> String {
        match self {
            Subject::Run(f) => f.name().to_string(),
            Subject::Band { source, figure, .. } => format!("band('{source}') {}", figure.name()),
            Subject::Trend(Target::Total) => "trend(total)".into(),
            Subject::Trend(Target::Band(_, source)) => format!("trend(band('{source}'))"),
        }
    }
}

/// What a figure counts, which says which units its bound may be written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// The profile's values: bytes (`VALUE_UNIT "bytes"`) or its own unit.
    Value,
    /// Seconds.
    Time,
    /// A share, 0 to 1.
    Share,
    /// A count.
    Count,
    /// Bytes per second.
    Rate,
    /// Growing, flat or shrinking.
    Trend,
}

impl Kind {
    fn noun(self) -> &'static str {
        match self {
            Kind::Value => "an amount (bytes)",
            Kind::Time => "a time",
            Kind::Share => "a share",
            Kind::Count => "a count",
            Kind::Rate => "a rate",
            Kind::Trend => "a trend",
        }
    }

    fn example(self, change: bool) -> &'static str {
        match (self, change) {
            (Kind::Value, false) => "in bytes: 200MB, 1.5GiB, 123456B",
            (Kind::Value, true) => "as a change in bytes (+1MB) or in percent (+5%)",
            (Kind::Time, false) => "with its unit: 10ms, 250µs, 2s",
            (Kind::Time, true) => "as a change in time (+2ms) or in percent (+5%)",
            (Kind::Share, false) => "in percent: 20%",
            (Kind::Share, true) => "in percentage points (+2pp) or relative percent (+5%)",
            (Kind::Count, false) => "as a plain number: 500",
            (Kind::Count, true) => "as a change in number (+10) or in percent (+5%)",
            (Kind::Rate, false) => "with its unit: 500MB/s",
            (Kind::Rate, true) => "as a change in rate (+50MB/s) or in percent (+5%)",
            (Kind::Trend, _) => "as growing, flat or shrinking",
        }
    }
}

macro_rules! figures {
    ($enum:ident, $table:ident: $( $v:ident $name:literal $kind:ident $what:literal ),* $(,)?) => {
        /// A figure by its name in `--summary=json` or `--stats=json`.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        enum $enum { $( $v ),* }

        /// Every figure: its name, what it counts, and what it is (for `--help` and the
        /// message that names an unknown one).
        const $table: &[($enum, &str, Kind, &str)] = &[ $( ($enum::$v, $name, Kind::$kind, $what) ),* ];

        impl $enum {
            fn name(self) -> &'static str {
                $table.iter().find(|f| f.0 == self).map_or("", |f| f.1)
            }
            fn kind(self) -> Kind {
                $table.iter().find(|f| f.0 == self).map_or(Kind::Count, |f| f.2)
            }
            fn named(name: &str) -> Result<$enum, String> {
                $table.iter().find(|f| f.1 == name).map(|f| f.0).ok_or_else(|| unknown(name, $table.iter().map(|f| f.1)))
            }
        }
    };
}

figures!(Figure, FIGURES:
    Peak "peak" Value "the largest total of the heap profile",
    Mean "mean" Value "the mean total over the censuses",
    PeakTime "peak_time" Time "when the total first reached its peak",
    Samples "samples" Count "how many censuses",
    GcShare "gc_share" Share "GC elapsed over total elapsed (eventlog)",
    MaxPause "max_pause" Time "the longest collection (eventlog)",
    Collections "collections" Count "collections, every generation (eventlog)",
    Allocated "allocated" Value "bytes allocated (eventlog)",
    MaxResidency "max_residency" Value "the largest live bytes after a major collection (eventlog)",
    Copied "copied" Value "bytes copied by the collector (eventlog)",
    MaxSlop "max_slop" Value "the largest slop (eventlog)",
    MaxHeapSize "max_heap_size" Value "the largest heap after a collection (eventlog)",
    GcElapsed "gc_elapsed" Time "time spent collecting (eventlog)",
    TotalElapsed "total_elapsed" Time "the run's (or window's) length (eventlog)",
    MutElapsed "mut_elapsed" Time "total less GC (eventlog)",
    AllocRate "alloc_rate" Rate "bytes allocated per MUT second (eventlog)",
    Productivity "productivity" Share "MUT over total elapsed (eventlog)",
    Waste "waste" Share "DRAG + VOID over the heap, by area (-hb)",
    WasteAtPeak "waste_at_peak" Share "DRAG + VOID over the total at its peak (-hb)",
    Lag "lag" Share "LAG over the heap, by area (-hb)",
    TotalTime "total_time" Time "the run's time (a .prof's header; allocated is its total alloc)",
    Ticks "ticks" Count "the run's ticks (a .prof's header)",
);

figures!(BandFigure, BAND_FIGURES:
    Peak "peak" Value "the bands' largest sum",
    Mean "mean" Value "their mean sum",
    PeakTime "peak_time" Time "when it first reached its peak",
    Share "share" Share "their area over the heap's (a .prof's: what stacks through them spend)",
    Growth "growth_per_second" Rate "their trend line's slope over the last 60% of the run's body",
    Trend "trend" Trend "growing, flat or shrinking",
);

/// The message for a name no figure has: the names there are.
fn unknown<'a>(name: &str, names: impl Iterator<Item = &'a str>) -> String {
    let names: Vec<&str> = names.collect();
    format!(
        "`{}` is no figure hpgraph knows: {}",
        crate::escape::terminal(name),
        names.join(", ")
    )
}

/// The figures, for `--help`: one line each.
pub fn figures_help() -> String {
    let mut out = String::new();
    for (_, name, _, what) in FIGURES {
        out.push_str(&format!("  {name:<15} {what}\n"));
    }
    out.push_str("  band(RE) FIGURE  the bands RE matches, summed: ");
    let names: Vec<&str> = BAND_FIGURES.iter().map(|f| f.1).collect();
    out.push_str(&names.join(", "));
    out.push_str("\n  trend(total), trend(band(RE))  growing, flat or shrinking\n");
    out
}

/// A comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Le,
    Lt,
    Ge,
    Gt,
    Eq,
    Ne,
}

impl Op {
    fn holds<T: PartialOrd>(self, a: T, b: T) -> bool {
        match self {
            Op::Le => a <= b,
            Op::Lt => a < b,
            Op::Ge => a >= b,
            Op::Gt => a > b,
            Op::Eq => a == b,
            Op::Ne => a != b,
        }
    }

    fn text(self) -> &'static str {
        match self {
            Op::Le => "<=",
            Op::Lt => "<",
            Op::Ge => ">=",
            Op::Gt => ">",
            Op::Eq => "==",
            Op::Ne => "!=",
        }
    }

    /// What a failure shows: the relation that holds instead.
    fn negated(self) -> &'static str {
        match self {
            Op::Le => ">",
            Op::Lt => ">=",
            Op::Ge => "<",
            Op::Gt => "<=",
            Op::Eq => "!=",
            Op::Ne => "==",
        }
    }
}

/// A bound, in its figure's own unit.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Bound {
    /// A level the figure is compared with.
    Level(f64),
    /// A change between two runs the figure's change is compared with.
    Change(Change),
    /// A trend.
    Trend(Trend),
}

/// A change between two runs.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Change {
    /// After over before, less 1 (`+5%` is 0.05).
    Relative(f64),
    /// After less before, in the figure's unit.
    Absolute(f64),
}
