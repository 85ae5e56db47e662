//! GHC's time and allocation report as JSON (`+RTS -pj`, GHC 8.2 and later), read into a
//! [`CostProfile`].
//!
//! The file is `{"program": …, "total_time": …, "total_ticks": …, "tick_interval": …,
//! "total_alloc": …, "cost_centres": [{"id", "label", "module", "src_loc", "is_caf"}, …],
//! "profile": {"id", "entries", "alloc", "ticks", "children": […]}}`, the profile a tree of
//! nodes naming cost centres by id. GHC 9.0 writes a label's, a module's or the
//! program's `"` unescaped (it escapes only `\`), so the file need not be JSON: strings
//! are read up to the key that follows them, which GHC always writes next, and then
//! unescaped. The tree is walked without recursion, so its depth costs no stack; it
//! holds the runtime's own cost centres (`SYSTEM`, `GC`, `IDLE`, the profiler's overhead)
//! that the text report leaves out.

use std::collections::HashMap;

use super::Error;
use crate::profile::costs::{
    CostCentre, CostProfile, MAX_CENTRES, MAX_DEPTH, MAX_STACKS, Precision, Stack,
};

/// Whether `prefix` (a file's first bytes) begins GHC's JSON report: its first key is
/// `"program"` as GHC writes it, or `"arguments"` as the same keys sorted are
/// ([`super::sorted`]).
pub fn is_report(prefix: &[u8]) -> bool {
    first_key(prefix).is_some()
}

/// The report's first key, when it is one a report begins with.
fn first_key(prefix: &[u8]) -> Option<&'static str> {
    let text = prefix
        .trim_ascii_start()
        .strip_prefix(b"{")?
        .trim_ascii_start();
    ["program", "arguments"]
        .into_iter()
        .find(|k| text.strip_prefix(format!("\"{k}\"").as_bytes()).is_some())
}

/// Where `at` is in `text`, as a line number from 1.
fn line_of(text: &[u8], at: usize) -> usize {
    1 + text[..at.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
}

fn error(text: &[u8], at: usize, what: impl Into<String>) -> Error {
    Error {
        line: line_of(text, at),
        what: what.into(),
    }
}

/// Where the value of the first `"key"` at or after `from` begins: past the key, the
/// `:` and any blanks around it, however the file is spaced (GHC's own layout, `jq`'s
/// or `jq -c`'s).
fn value_at(text: &[u8], from: usize, key: &str) -> Option<usize> {
    let quoted = format!("\"{key}\"");
    let mut at = from;
    loop {
        let found = find(text, at, quoted.as_bytes())?;
        let colon = skip_blanks(text, found + quoted.len());
        if text.get(colon) == Some(&b':') {
            return Some(skip_blanks(text, colon + 1));
        }
        at = found + 1;
    }
}

/// `at` moved past blanks.
fn skip_blanks(text: &[u8], at: usize) -> usize {
    at + (text.get(at..).unwrap_or_default().iter())
        .take_while(|b| b.is_ascii_whitespace())
        .count()
}

/// Whether `"` at `at` ends a string that one of the keys `next` follows: `", "next":`,
/// spaced in any way.
fn ends_before(text: &[u8], at: usize, next: &[&str]) -> bool {
    let comma = skip_blanks(text, at + 1);
    if text.get(comma) != Some(&b',') {
        return false;
    }
    let key = skip_blanks(text, comma + 1);
    next.iter().any(|n| {
        let quoted = format!("\"{n}\"");
        text.get(key..key + quoted.len()) == Some(quoted.as_bytes())
            && text.get(skip_blanks(text, key + quoted.len())) == Some(&b':')
    })
}

/// The string after `key` (`"key": "`), read up to the `"` that one of the keys `next`
/// follows (the keys GHC writes after it), unescaped; and where the scan stops.
fn string_at(
    text: &[u8],
    from: usize,
    key: &str,
    next: &[&str],
) -> Result<(Box<[u8]>, usize), Error> {
    let open =
        value_at(text, from, key).ok_or_else(|| error(text, from, format!("no \"{key}\"")))?;
    if text.get(open) != Some(&b'"') {
        return Err(error(text, open, format!("\"{key}\" is not a string")));
    }
    let start = open + 1;
    let end = string_end(text, start, next)
        .ok_or_else(|| error(text, start, format!("\"{key}\" does not end")))?;
    Ok((unescape(&text[start..end]), end))
}

/// A string's end is looked for as GHC writes it (a `"` that one of the next keys
/// follows) on its line and within this many bytes: past them, or on a line of a file
/// written on one (`jq -c`), the search stops, and the reading costs no more than this
/// per string.
pub(super) const MAX_STRING_SEARCH: usize = 4096;

/// Where the string starting at `start` ends: at the first `"` on its line that one of
/// the keys `next` follows (GHC leaves a `"` within a label unescaped, so the next key
/// tells), else at the first unescaped `"` (a string longer than [`MAX_STRING_SEARCH`],
/// or followed by a key GHC does not write next).
fn string_end(text: &[u8], start: usize, next: &[&str]) -> Option<usize> {
    // Up to the line's end or the limit, stopping at the first quote that ends it: a
    // file on one line is not scanned to the limit for every string.
    let limit = (start + MAX_STRING_SEARCH).min(text.len());
    let ghc = (start..limit)
        .take_while(|&i| text[i] != b'\n')
        .find(|&i| text[i] == b'"' && ends_before(text, i, next));
    ghc.or_else(|| {
        let mut i = start;
        while i < text.len() {
            match text[i] {
                b'\\' => i += 2,
                b'"' => return Some(i),
                _ => i += 1,
            }
        }
        None
    })
}

/// The number after `key` (`"key": 123`), and where it ends.
fn number_at(text: &[u8], from: usize, key: &str) -> Result<(f64, usize), Error> {
    let start =
        value_at(text, from, key).ok_or_else(|| error(text, from, format!("no \"{key}\"")))?;
    number(text, start).ok_or_else(|| {
        error(
            text,
            start,
            format!("\"{key}\" is not a number of 0 or more"),
        )
    })
}

/// A number starting at `at` (after blanks or a quote: `end_time` and some totals are
/// strings), and where it ends.
fn number(text: &[u8], at: usize) -> Option<(f64, usize)> {
    let start = at
        + text[at..]
            .iter()
            .take_while(|b| b.is_ascii_whitespace() || **b == b'"')
            .count();
    let len = (text[start..].iter())
        .take_while(|b| b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'+' | b'e' | b'E'))
        .count();
    let n: f64 = std::str::from_utf8(&text[start..start + len])
        .ok()?
        .parse()
        .ok()?;
    // Every figure of a report counts something: `1e999` (infinity) or a negative
    // time would reach the pictures as `inf` or `nan` coordinates.
    (n.is_finite() && n >= 0.0).then_some((n, start + len))
}

fn find(text: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    (text.get(from..)?.windows(needle.len()))
        .position(|w| w == needle)
        .map(|p| from + p)
}

/// JSON's escapes undone (`\\`, `\"`, `\n`, `\t`, `\uXXXX`); a `"` left unescaped stays.
fn unescape(s: &[u8]) -> Box<[u8]> {
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        if s[i] != b'\\' || i + 1 == s.len() {
            out.push(s[i]);
            i += 1;
            continue;
        }
        match s[i + 1] {
            b'n' => out.push(b'\n'),
            b't' => out.push(b'\t'),
            b'r' => out.push(b'\r'),
            b'u' if i + 6 <= s.len() => {
                let code = std::str::from_utf8(&s[i + 2..i + 6])
                    .ok()
                    .and_then(|h| u32::from_str_radix(h, 16).ok());
                let c = code.and_then(char::from_u32).unwrap_or('\u{fffd}');
                out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                i += 6;
                continue;
            }
            other => out.push(other),
        }
        i += 2;
    }
    out.into()
}

/// Reads a whole JSON report: in GHC's key order as it streams, else as JSON
/// ([`super::sorted`]).
pub fn parse(text: &[u8]) -> Result<super::Read, Error> {
    if first_key(text) != Some("program") {
        return super::sorted::parse(text);
    }
    let (program, _) = string_at(text, 0, "program", &["arguments"])?;
    let (date, _) = string_at(text, 0, "end_time", &["initial_capabilities", "total_time"])?;
    let (seconds, _) = number_at(text, 0, "total_time")?;
    let (ticks, _) = number_at(text, 0, "total_ticks")?;
    let (tick_us, _) = number_at(text, 0, "tick_interval")?;
    let (bytes, _) = number_at(text, 0, "total_alloc")?;
    let list =
        find(text, 0, b"\"cost_centres\"").ok_or_else(|| error(text, 0, "no \"cost_centres\""))?;
    let tree =
        find(text, list, b"\"profile\"").ok_or_else(|| error(text, list, "no \"profile\""))?;
    let (centres, ids) = centres(&text[..tree], list)?;
    let stacks = stacks(text, tree, &ids, MAX_STACKS)?;
    Ok(super::Read {
        profile: CostProfile {
            command: program,
            date,
            seconds,
            total_ticks: ticks as u64,
            tick_us: tick_us as u64,
            total_bytes: bytes as u64,
            centres,
            stacks,
            precision: Precision::Counted,
        },
        warnings: Vec::new(),
    })
}

/// The cost centres, and each id's index among them.
fn centres(text: &[u8], mut at: usize) -> Result<(Vec<CostCentre>, HashMap<u64, u32>), Error> {
    let (mut centres, mut ids) = (Vec::new(), HashMap::new());
    while let Some(next) = value_at(text, at, "id") {
        if centres.len() >= MAX_CENTRES {
            return Err(error(
                text,
                next,
                format!("more than {MAX_CENTRES} cost centres"),
            ));
        }
        let (id, end) =
            number(text, next).ok_or_else(|| error(text, next, "\"id\" is not a number"))?;
        let (label, end) = string_at(text, end, "label", &["module"])?;
        let (module, end) = string_at(text, end, "module", &["src_loc"])?;
        let (src, end) = string_at(text, end, "src_loc", &["is_caf"])?;
        ids.insert(id as u64, centres.len() as u32);
        centres.push(CostCentre {
            label: label.into(),
            module: module.into(),
            src,
        });
        at = end;
    }
    Ok((centres, ids))
}

/// The tree of stacks after `at`, each after its parent, walked without recursion; at
/// most `max_stacks` ([`MAX_STACKS`], or a test's bound).
fn stacks(
    text: &[u8],
    at: usize,
    ids: &HashMap<u64, u32>,
    max_stacks: usize,
) -> Result<Vec<Stack>, Error> {
    let mut stacks: Vec<Stack> = Vec::new();
    let mut path: Vec<u32> = Vec::new();
    let mut i = at + b"\"profile\"".len();
    while i < text.len() {
        match text[i] {
            b'{' => {
                if stacks.len() >= max_stacks || path.len() >= MAX_DEPTH {
                    return Err(error(text, i, "a tree past its limits (stacks or depth)"));
                }
                let (id, end) = number_at(text, i, "id")?;
                let (entries, end) = number_at(text, end, "entries")?;
                let (alloc, end) = number_at(text, end, "alloc")?;
                let (ticks, end) = number_at(text, end, "ticks")?;
                let centre = *ids.get(&(id as u64)).ok_or_else(|| {
                    error(
                        text,
                        i,
                        format!("cost centre {id} is not among cost_centres"),
                    )
                })?;
                path.push(stacks.len() as u32);
                stacks.push(Stack {
                    centre,
                    parent: path.len().checked_sub(2).map(|p| path[p]),
                    number: id as u64,
                    entries: entries as u64,
                    ticks,
                    bytes: alloc,
                });
                i = end;
            }
            b'}' => {
                if path.pop().is_none() {
                    break;
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    if !path.is_empty() || stacks.is_empty() {
        return Err(error(text, text.len(), "the profile's tree ends early"));
    }
    Ok(stacks)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unescaped_quotes_and_escapes_both_read() {
        let text = br#"{
"program": "ma"in",
"arguments": ["./main"],
"end_time": "Wed Nov 25 23:56 2026",
"total_time":        0.07,
"total_ticks": 65,
"tick_interval": 1000,
"total_alloc":151610616,
"cost_centres": [
{"id": 148, "label": "MAIN", "module": "MAIN", "src_loc": "<built-in>", "is_caf": false}, {"id": 4, "label": "q"uote\\d", "module": "Main", "src_loc": "Main.hs:1:1", "is_caf": false}, {"id": 5, "label": "esc\"aped\u00e9", "module": "Main", "src_loc": "<no location info>", "is_caf": false}],
"profile": {"id": 148, "entries": 0, "alloc": 816, "ticks": 0, "children": [{"id": 4, "entries": 1, "alloc": 16, "ticks": 2, "children": [{"id": 5, "entries": 3, "alloc": 0, "ticks": 0, "children": []}
]}
,{"id": 5, "entries": 7, "alloc": 8, "ticks": 1, "children": []}
]}
}"#;
        assert!(is_report(text));
        // Past a bound on stacks (MAX_STACKS needs a file of gigabytes): an error at the
        // node past it; at the bound, the tree.
        let tree = find(text, 0, b"\"profile\"").unwrap();
        let ids: HashMap<u64, u32> = [(148, 0), (4, 1), (5, 2)].into();
        let e = stacks(text, tree, &ids, 3).expect_err("past the bound");
        assert_eq!(
            (e.line, e.what.as_str()),
            (13, "a tree past its limits (stacks or depth)")
        );
        assert_eq!(stacks(text, tree, &ids, 4).unwrap().len(), 4);
        let p = parse(text).unwrap().profile;
        assert_eq!(&*p.command, b"ma\"in");
        assert_eq!(&*p.centres[1].label, b"q\"uote\\d");
        assert_eq!(&*p.centres[2].label, "esc\"apedé".as_bytes());
        assert_eq!(p.stacks.len(), 4);
        assert_eq!(p.stacks[2].parent, Some(1));
        assert_eq!(p.stacks[3].parent, Some(0));
        assert_eq!(
            (p.stacks[3].entries, p.stacks[3].ticks, p.stacks[3].bytes),
            (7, 1.0, 8.0)
        );
        assert_eq!(
            parse(&text[..text.len() - 10]).unwrap_err().what,
            "the profile's tree ends early"
        );
    }
}
