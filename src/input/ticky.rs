//! A ticky-ticky text report (`ghc -ticky`, `+RTS -rFILE`): the counters' table
//! (`Entries  Alloc  Alloc'd  Non-void Arguments  STG Name`) and the runtime's own
//! counters after it (`51200136 ALLOC_HEAP_tot`). It has no time: it becomes a profile
//! with the counters' totals ([`Ticky`]) and no band, which the summary lists.

use super::Parsed;
use super::prof::Error;
use crate::profile::ticky::{Counter, Ticky, Total};
use crate::profile::{Model, Profile};

/// The table's header, which names a report of this kind.
const TABLE: &[u8] = b"Alloc'd  Non-void Arguments";

/// Where the counter's name starts in the table's header.
const NAME: &str = "STG Name";

/// The line between the table and the runtime's counters.
const RULE: &str = "**************************************************";

/// Whether `prefix` (a file's first bytes) begins a ticky report: GHC writes the
/// program's command line first, each word in single quotes, then the counts.
pub fn is_report(prefix: &[u8]) -> bool {
    prefix.first() == Some(&b'\'')
        && (memchr::memmem::find(prefix, b"\nENTERS: ").is_some()
            || memchr::memmem::find(prefix, TABLE).is_some())
}

/// Reads a ticky report whole.
pub fn read(bytes: &[u8]) -> Result<Parsed, Error> {
    super::prof::within_lines(bytes).map_err(|e| Error {
        line: e.line,
        what: e.what,
    })?;
    let text = String::from_utf8_lossy(bytes);
    let lines: Vec<&str> = text.lines().collect();
    let header = (lines
        .iter()
        .position(|l| l.contains("Alloc'd") && l.contains(NAME)))
    .ok_or_else(|| Error {
        line: lines.len().max(1),
        what: "a ticky report without its table of counters (Entries Alloc Alloc'd … \
                   STG Name): the run ended before writing it?"
            .into(),
    })?;
    let column = lines[header].find(NAME).expect("found above");
    let mut ticky = Ticky::default();
    let mut at = header + 1;
    // The dashes under the header, then a row per counter up to a blank line.
    if lines.get(at).is_some_and(|l| l.starts_with("---")) {
        at += 1;
    }
    while let Some(line) = lines.get(at).filter(|l| !l.trim().is_empty()) {
        ticky.counters.push(row(line, column).ok_or_else(|| {
            Error {
                line: at + 1,
                what: "a row of the counters' table that does not read as Entries Alloc \
                   Alloc'd … STG Name"
                    .into(),
            }
        })?);
        at += 1;
        if ticky.counters.len() > super::eventlog::ticky::MAX_TICKY_COUNTERS {
            return Err(Error {
                line: at,
                what: format!(
                    "more than {} counters: a report this long is not kept",
                    super::eventlog::ticky::MAX_TICKY_COUNTERS
                ),
            });
        }
    }
    ticky.totals = runtime_counters(&lines[at..]);
    ticky
        .counters
        .retain(|c| (c.entries, c.allocs, c.allocd) != (0, 0, 0));
    ticky.sort();
    let mut profile = Profile {
        job: lines[0].trim().as_bytes().to_vec(),
        ticky: Some(Box::new(ticky)),
        quantity: crate::profile::Quantity::Allocated,
        ..Profile::default()
    };
    profile.set_units(b"seconds".to_vec(), b"bytes".to_vec());
    profile.times = vec![0.0];
    Ok(Parsed {
        profile: Model::Heap(profile),
        warnings: vec![super::Warning {
            line: None,
            kind: super::WarningKind::TickyReport,
        }],
        runtime_only: false,
    })
}

/// One row: three numbers, then (from the header's column) the name.
fn row(line: &str, column: usize) -> Option<Counter> {
    let mut numbers = line.split_whitespace().map(|n| n.parse::<u64>());
    let mut next = || numbers.next()?.ok();
    let (entries, allocs, allocd) = (next()?, next()?, next()?);
    let name = line.get(column..)?.trim_end();
    (!name.is_empty()).then(|| Counter {
        name: super::eventlog::ticky::kept_name(name.as_bytes()),
        entries,
        allocs,
        allocd,
    })
}

/// The runtime's counters after the table's closing rule: `NUMBER NAME` lines.
fn runtime_counters(rest: &[&str]) -> Vec<Total> {
    let from = rest
        .iter()
        .position(|l| l.trim() == RULE)
        .map_or(rest.len(), |k| k + 1);
    (rest[from..].iter())
        .filter_map(|l| {
            let (n, name) = l.trim().split_once(char::is_whitespace)?;
            Some(Total {
                name: super::eventlog::ticky::kept_name(name.trim().as_bytes()),
                value: n.parse().ok()?,
            })
        })
        .take(super::eventlog::ticky::MAX_TICKY_COUNTERS)
        .collect()
}
