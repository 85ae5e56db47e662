//! callgrind (`-o callgrind.out.NAME`, `-o x.callgrind`): the profile format valgrind's
//! callgrind writes, which KCacheGrind, QCachegrind and `callgrind_annotate` read
//! (valgrind's `docs/callgrind-format`). A function is a frame (a cost centre,
//! `Module.label`); its self cost is what the stacks ending in it weigh, and each call
//! from a caller to a callee carries the callee's inclusive cost on that path, and as its
//! count the times the callee's stack was entered where the profile counts entries (a
//! report; at least 1, for a call counted 0 is no call to its readers), 1 where it does
//! not (eventlog samples, a heap census). Files and lines are
//! the cost centres' source spans (`Main.hs:6:1-46` is `Main.hs`, line 6); one without a
//! span (`<entire-module>`, `<built-in>`) is file `???`, line 0, as valgrind writes
//! code it has no debug information for. Costs are whole numbers of the profile's
//! measure (`Ticks`, `Bytes`, `Entries`), at `--flame`'s census for a heap profile.

use std::collections::HashMap;
use std::io::{self, Write};

use crate::escape::callgrind_name;
use crate::profile::costs::Measure;
use crate::select::flame::{Stacked, WhichCensus, flame};

/// A name's number in callgrind's name compression (`fn=(3) name` once, `fn=(3)`
/// after): each name is written in full once.
#[derive(Default)]
struct Names(HashMap<String, usize>);

impl Names {
    fn get(&mut self, name: &str) -> String {
        let next = self.0.len() + 1;
        match self.0.get(name) {
            Some(&n) => format!("({n})"),
            None => {
                self.0.insert(name.to_string(), next);
                format!("({next}) {name}")
            }
        }
    }
}

/// The file and first line of a cost centre's source span: `Main.hs:6:1-46`,
/// `Main.hs:(18,1)-(21,16)`; `None` for one without (`<entire-module>`).
pub fn place(src: &[u8]) -> Option<(String, u32)> {
    let src = std::str::from_utf8(src).ok()?;
    let (file, span) = src.rsplit_once(':').and_then(|(head, _)| {
        // `file:line:cols` or `file:(line,col)-(line,col)`.
        if let Some((file, line)) = head.rsplit_once(':') {
            return Some((file, line));
        }
        let (file, rest) = src.split_once(":(")?;
        Some((file, rest.split(',').next()?))
    })?;
    let line = span.parse().ok()?;
    (!file.is_empty() && !file.starts_with('<')).then(|| (file.to_string(), line))
}

/// One function's costs: itself, and its calls by callee.
#[derive(Default)]
struct Function {
    own: f64,
    /// By callee: times called, inclusive cost.
    calls: HashMap<usize, (u64, f64)>,
}

/// Writes `p`'s stacks at `when` (a cost profile's whole run or window).
pub fn write<S: Stacked + ?Sized>(s: &S, when: WhichCensus, out: &mut dyn Write) -> io::Result<()> {
    let graph = flame(s, when);
    let p = s.series();
    let entries = (s.tree())
        .map(|t| crate::analysis::costs::entries_by_frame(t, &graph))
        .unwrap_or_default();
    let event = match s.measure() {
        Some(Measure::Time) => "Ticks",
        Some(Measure::Entries) => "Entries",
        Some(Measure::Alloc) | None => "Bytes",
    };
    // Functions by frame name, in the order first met.
    let mut ids: HashMap<&[u8], usize> = HashMap::new();
    let mut functions: Vec<(&[u8], Function)> = Vec::new();
    let frames = &graph.frames;
    let mut of_frame = vec![usize::MAX; frames.len()];
    for (k, frame) in frames.iter().enumerate().skip(1) {
        let f = *ids.entry(&frame.name).or_insert_with(|| {
            functions.push((&frame.name, Function::default()));
            functions.len() - 1
        });
        of_frame[k] = f;
        functions[f].1.own += frame.own;
        if let Some(parent) = frame.parent.filter(|&q| q > 0) {
            // Readers take a call counted 0 (a CAF's, which GHC does not count) for
            // no call, and its cost for the caller's own: at least 1.
            let entries = entries.get(k).copied().unwrap_or(1).max(1);
            let call = (functions[of_frame[parent]].1.calls).entry(f).or_default();
            call.0 = call.0.saturating_add(entries);
            call.1 += frame.bytes;
        }
    }
    let whole = |v: f64| v.round().max(0.0) as u64;
    let mut out = io::BufWriter::new(out);
    writeln!(out, "# callgrind format")?;
    writeln!(out, "version: 1")?;
    writeln!(out, "creator: hpgraph {}", env!("CARGO_PKG_VERSION"))?;
    writeln!(out, "cmd: {}", callgrind_name(&p.job))?;
    writeln!(out, "positions: line")?;
    writeln!(out, "events: {event}")?;
    writeln!(out, "summary: {}\n", whole(graph.census.total))?;
    let (mut files, mut names) = (Names::default(), Names::default());
    let located = |name: &[u8]| {
        s.source(name)
            .and_then(place)
            .unwrap_or_else(|| ("???".to_string(), 0))
    };
    for (name, function) in &functions {
        let (file, line) = located(name);
        writeln!(out, "fl={}", files.get(&callgrind_name(file.as_bytes())))?;
        writeln!(out, "fn={}", names.get(&callgrind_name(name)))?;
        writeln!(out, "{line} {}", whole(function.own))?;
        let mut calls: Vec<_> = function.calls.iter().collect();
        calls.sort_unstable_by_key(|c| *c.0);
        for (&callee, &(count, cost)) in calls {
            let callee = functions[callee].0;
            let (cfile, cline) = located(callee);
            writeln!(out, "cfl={}", files.get(&callgrind_name(cfile.as_bytes())))?;
            writeln!(out, "cfn={}", names.get(&callgrind_name(callee)))?;
            writeln!(out, "calls={count} {cline}")?;
            writeln!(out, "{line} {}", whole(cost))?;
        }
        writeln!(out)?;
    }
    writeln!(out, "totals: {}", whole(graph.census.total))?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn source_spans_give_a_file_and_a_line() {
        assert_eq!(place(b"Main.hs:6:1-46"), Some(("Main.hs".into(), 6)));
        assert_eq!(
            place(b"src/A B.hs:(18,1)-(21,16)"),
            Some(("src/A B.hs".into(), 18))
        );
        assert_eq!(place(b"<entire-module>"), None);
        assert_eq!(place(b"<no location info>"), None);
        assert_eq!(place(b"<built-in>"), None);
    }
}
