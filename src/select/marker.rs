//! A window's bound given as a marker of the run (`--from 'mark:batch 3'`, hs-speedscope's
//! `--start PREFIX`): the first marker whose text starts so, or its `N`th
//! (`mark:batch#2`). A program that marks its phases with `traceMarker` is then cut at
//! its own phases, not at times read off a picture. Resolved against each run's markers
//! once it is read ([`MarkRef::time`]); a marker that is not there is an error that names
//! the texts nearest the one asked for.

use crate::profile::Mark;

/// What `--from`/`--to` write before a marker's text.
pub const PREFIX: &str = "mark:";

/// How many marker texts the error of a missing one names.
pub const NEAREST: usize = 3;

/// A marker asked for: its text's start and which of those that start so (1: the first).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MarkRef {
    /// The start of the marker's text.
    pub prefix: String,
    /// Which of the markers whose text starts so, from 1.
    pub nth: usize,
}

impl MarkRef {
    /// `mark:TEXT` or `mark:TEXT#N`; `None` when `text` does not start with `mark:`. A
    /// `#` not followed by a number from 1 is part of the text.
    pub fn parse(text: &str) -> Option<Result<MarkRef, String>> {
        let rest = text.strip_prefix(PREFIX)?;
        let (prefix, nth) = match rest.rsplit_once('#') {
            Some((p, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
                match n.parse::<usize>() {
                    Ok(n) if n >= 1 => (p, n),
                    _ => return Some(Err(format!("`{text}`: markers count from #1"))),
                }
            }
            _ => (rest, 1),
        };
        if prefix.is_empty() {
            return Some(Err(format!(
                "`{text}`: give the start of a marker's text, like mark:batch 3"
            )));
        }
        Some(Ok(MarkRef {
            prefix: prefix.to_string(),
            nth,
        }))
    }

    /// The time of the marker among `marks`; else what is wrong, naming the [`NEAREST`]
    /// texts most like the one asked for.
    pub fn time(&self, marks: &[Mark]) -> Result<f64, String> {
        fn text(m: &Mark) -> Option<std::borrow::Cow<'_, str>> {
            m.text.as_deref().map(String::from_utf8_lossy)
        }
        let starting = marks
            .iter()
            .filter(|m| text(m).is_some_and(|t| t.starts_with(&self.prefix)));
        let count = starting.clone().count();
        if let Some(m) = starting.clone().nth(self.nth - 1) {
            return Ok(m.time);
        }
        if count > 0 {
            return Err(format!(
                "{} marker(s) start with `{}`, not {}",
                count,
                crate::escape::message_name(self.prefix.as_bytes()),
                self.nth
            ));
        }
        let mut texts: Vec<String> = marks
            .iter()
            .filter_map(text)
            .map(|t| t.into_owned())
            .collect();
        if texts.is_empty() {
            return Err(format!(
                "no marker starts with `{}`: this run has no markers with text \
                 (Debug.Trace.traceMarker writes them in an eventlog)",
                crate::escape::message_name(self.prefix.as_bytes())
            ));
        }
        texts.sort();
        texts.dedup();
        texts.sort_by_key(|t| (distance(&self.prefix, t), t.clone()));
        let near: Vec<String> = texts
            .iter()
            .take(NEAREST)
            .map(|t| format!("`{}`", crate::escape::message_name(t.as_bytes())))
            .collect();
        Err(format!(
            "no marker starts with `{}`; the nearest: {}",
            crate::escape::message_name(self.prefix.as_bytes()),
            near.join(", ")
        ))
    }
}

/// How unlike `text`'s start is `wanted`: the edit distance (Levenshtein) between
/// `wanted` and `text` cut to its length, in characters.
fn distance(wanted: &str, text: &str) -> usize {
    let a: Vec<char> = wanted.chars().collect();
    let b: Vec<char> = text.chars().take(a.len()).collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, &x) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &y) in b.iter().enumerate() {
            let next = (row[j + 1] + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(x != y));
            diagonal = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marks(texts: &[(&str, f64)]) -> Vec<Mark> {
        (texts.iter())
            .map(|&(t, time)| Mark {
                time,
                text: Some(t.as_bytes().into()),
            })
            .collect()
    }

    #[test]
    fn a_marker_is_found_by_its_start_and_its_number() {
        let m = marks(&[
            ("batch 1", 1.0),
            ("batch 2", 2.0),
            ("done", 3.0),
            ("batch 3", 4.0),
        ]);
        let at = |s: &str| MarkRef::parse(s).unwrap().unwrap().time(&m);
        assert_eq!(at("mark:batch"), Ok(1.0));
        assert_eq!(at("mark:batch 2"), Ok(2.0));
        assert_eq!(at("mark:batch#3"), Ok(4.0));
        assert_eq!(at("mark:d"), Ok(3.0));
        assert!(at("mark:batch#4").unwrap_err().contains("3 marker(s)"));
        let e = at("mark:bach").unwrap_err();
        assert!(e.contains("`batch 1`") && e.contains("nearest"), "{e}");
        assert_eq!(MarkRef::parse("2.5"), None);
        assert!(MarkRef::parse("mark:").unwrap().is_err());
        assert!(MarkRef::parse("mark:a#0").unwrap().is_err());
        assert_eq!(MarkRef::parse("mark:a#b").unwrap().unwrap().prefix, "a#b");
    }
}
