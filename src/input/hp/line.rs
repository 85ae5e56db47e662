//! The grammar of one record (usually one line) of a `.hp` file, written with nom.
//!
//! GHC writes one construct per line, so the grammar is line-oriented: a keyword line, or
//! `name<TAB>value` where the name is everything before the last run of blanks. That lets
//! names contain spaces (GHC #2071), which hp2ps's token lexer cannot read. Only a quoted
//! header string may run over several lines; [`record`] then reports [`Outcome::NeedMore`].

use crate::units::too_large;
use nom::{
    IResult, Parser,
    branch::alt,
    bytes::complete::{take_till, take_while},
    character::complete::{char, digit0, digit1, one_of},
    combinator::{opt, recognize},
    sequence::pair,
};

/// The four header strings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Header {
    /// `JOB`.
    Job,
    /// `DATE`.
    Date,
    /// `SAMPLE_UNIT`.
    SampleUnit,
    /// `VALUE_UNIT`.
    ValueUnit,
}

impl Header {
    /// All four, in the order hp2ps checks that they are present.
    pub const ALL: [Header; 4] = [
        Header::Job,
        Header::Date,
        Header::SampleUnit,
        Header::ValueUnit,
    ];

    /// The keyword as written in the file.
    pub fn keyword(self) -> &'static str {
        match self {
            Header::Job => "JOB",
            Header::Date => "DATE",
            Header::SampleUnit => "SAMPLE_UNIT",
            Header::ValueUnit => "VALUE_UNIT",
        }
    }
}

/// Keywords that take a time argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Timed {
    /// `BEGIN_SAMPLE`.
    BeginSample,
    /// `END_SAMPLE`.
    EndSample,
    /// `MARK`.
    Mark,
}

impl Timed {
    /// All three.
    pub const ALL: [Timed; 3] = [Timed::BeginSample, Timed::EndSample, Timed::Mark];

    /// The keyword as written in the file.
    pub fn keyword(self) -> &'static str {
        match self {
            Timed::BeginSample => "BEGIN_SAMPLE",
            Timed::EndSample => "END_SAMPLE",
            Timed::Mark => "MARK",
        }
    }
}

/// One parsed record.
#[derive(Debug, Clone, PartialEq)]
pub enum Record<'a> {
    /// A line holding only blanks.
    Blank,
    /// `JOB "…"` and friends; `""` inside the quotes already turned into `"`.
    Header(Header, Vec<u8>),
    /// `BEGIN_SAMPLE t`, `END_SAMPLE t`, `MARK t`.
    Timed(Timed, f64),
    /// `name value`.
    Point { name: &'a [u8], value: f64 },
}

/// The outcome of parsing the bytes at the start of a record.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome<'a> {
    /// A record, and the number of bytes it used (its last line's newline excluded).
    Done(Record<'a>, usize),
    /// A quoted string is still open at the end of the bytes given.
    NeedMore,
    /// The record is not valid: what was expected and what was found.
    Invalid {
        expected: &'static str,
        found: Vec<u8>,
    },
}

fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | 0x0b | 0x0c)
}

fn blanks(i: &[u8]) -> IResult<&[u8], &[u8]> {
    take_while(is_blank)(i)
}

fn word(i: &[u8]) -> IResult<&[u8], &[u8]> {
    take_till(|b| is_blank(b) || b == b'\n')(i)
}

/// A sample time: digits with an optional fraction after `.` or `,` (a localised decimal
/// comma, GHC #17877); an integer is accepted too (hp2ps insists on a `.`).
fn time_text(i: &[u8]) -> IResult<&[u8], &[u8]> {
    alt((
        recognize(pair(digit1, opt(pair(one_of(".,"), digit0)))),
        recognize(pair(one_of(".,"), digit1)),
    ))
    .parse(i)
}

/// A value: digits, optionally with a decimal fraction.
fn value_text(i: &[u8]) -> IResult<&[u8], &[u8]> {
    alt((
        recognize(pair(digit1, opt(pair(char('.'), digit0)))),
        recognize(pair(char('.'), digit1)),
    ))
    .parse(i)
}

/// The value of a number matched by [`time_text`] or [`value_text`] (ASCII digits with
/// one `.` or `,`), read as `strtod` reads it: correctly rounded.
fn to_f64(text: &[u8]) -> f64 {
    let parsed = match std::str::from_utf8(text) {
        Ok(s) if !s.contains(',') => s.parse(),
        _ => String::from_utf8_lossy(text).replace(',', ".").parse(),
    };
    parsed.unwrap_or(0.0)
}

/// What a number that is [`too_large`] was expected to be.
const BELOW_LIMIT: &str = "a number below 10^32";

/// Parses a quoted string starting at `"`: `""` stands for one quote. Returns the bytes
/// used, or `None` when the closing quote is not in `i`.
fn quoted(i: &[u8]) -> Option<(Vec<u8>, usize)> {
    let mut out = Vec::new();
    let mut k = 1;
    loop {
        let rest = i.get(k..)?;
        let q = rest.iter().position(|&b| b == b'"')?;
        out.extend_from_slice(&rest[..q]);
        k += q + 1;
        if i.get(k) == Some(&b'"') {
            out.push(b'"');
            k += 1;
        } else {
            return Some((out, k));
        }
    }
}

fn line_end(i: &[u8]) -> usize {
    memchr::memchr(b'\n', i).unwrap_or(i.len())
}

/// Keyword lookup: exact and case-sensitive, as hp2ps does it.
/// The longest keyword's length (`BEGIN_SAMPLE`).
const LONGEST_KEYWORD: usize = 12;

fn keyword(w: &[u8]) -> Option<Result<Header, Timed>> {
    let is = |k: &str| k.as_bytes() == w;
    Header::ALL
        .into_iter()
        .find(|h| is(h.keyword()))
        .map(Ok)
        .or_else(|| Timed::ALL.into_iter().find(|t| is(t.keyword())).map(Err))
}

/// The common line, `name<TAB>digits`, recognised without the general grammar. Returns
/// `None` for anything else (keywords, decimals, odd spacing), which then goes through
/// [`record`]; both agree on every line this accepts.
#[inline]
pub fn fast_point(line: &[u8]) -> Option<(&[u8], f64)> {
    let mut end = line.len();
    if end > 0 && line[end - 1] == b'\r' {
        end -= 1;
    }
    let mut i = end;
    let mut value: u64 = 0;
    let mut scale: u64 = 1;
    while i > 0 && line[i - 1].is_ascii_digit() {
        if end - i == 15 {
            return None; // beyond exact u64 → f64 in this loop; let the slow path read it
        }
        value += u64::from(line[i - 1] - b'0') * scale;
        scale *= 10;
        i -= 1;
    }
    if i == end || i == 0 || !matches!(line[i - 1], b'\t' | b' ') {
        return None;
    }
    let mut name_end = i - 1;
    while name_end > 0 && is_blank(line[name_end - 1]) {
        name_end -= 1;
    }
    let name = &line[..name_end];
    let first = *name.first()?;
    // Only a name's first word can be a keyword, and only as long as the longest: a
    // name's first word is not searched for its end past that (a profile's names are
    // mostly one word of a module's, `Data.Map.Internal.insert`, dozens of bytes long).
    let head = &name[..name.len().min(LONGEST_KEYWORD + 1)];
    if is_blank(first) || (first.is_ascii_uppercase() && keyword(word_of(head)).is_some()) {
        return None;
    }
    Some((name, value as f64))
}

fn word_of(s: &[u8]) -> &[u8] {
    let end = s.iter().position(|&b| is_blank(b)).unwrap_or(s.len());
    &s[..end]
}

/// Parses the record at the start of `input`, which runs at least to the end of its first
/// line (a header string may continue on later lines if they are included). `complete`
/// says that `input` holds everything that will come: without it, a header record whose
/// last line is not yet ended asks for more rather than being judged on part of a line.
pub fn record(input: &[u8], complete: bool) -> Outcome<'_> {
    let end = line_end(input);
    let line = &input[..end];
    let Ok((after_lead, _)) = blanks(line) else {
        unreachable!("blanks never fails")
    };
    if after_lead.is_empty() {
        return Outcome::Done(Record::Blank, end);
    }
    let lead = line.len() - after_lead.len();
    let Ok((rest, first)) = word(after_lead) else {
        unreachable!("word never fails")
    };
    match keyword(first) {
        Some(Ok(header)) => header_record(input, lead + first.len(), header, complete),
        Some(Err(timed)) => timed_record(rest, timed, end),
        None => point_record(after_lead, end),
    }
}

fn header_record(input: &[u8], at: usize, header: Header, complete: bool) -> Outcome<'_> {
    let expected = match header {
        Header::Job => "a quoted string after JOB",
        Header::Date => "a quoted string after DATE",
        Header::SampleUnit => "a quoted string after SAMPLE_UNIT",
        Header::ValueUnit => "a quoted string after VALUE_UNIT",
    };
    let Ok((rest, _)) = blanks(&input[at..]) else {
        unreachable!()
    };
    let start = input.len() - rest.len();
    if rest.first() != Some(&b'"') {
        let found = word(rest).map(|(_, w)| w.to_vec()).unwrap_or_default();
        return Outcome::Invalid { expected, found };
    }
    let Some((text, used)) = quoted(rest) else {
        return Outcome::NeedMore;
    };
    let after = start + used;
    let tail_end = after + line_end(&input[after..]);
    if tail_end == input.len() && !complete {
        return Outcome::NeedMore;
    }
    let tail = &input[after..tail_end];
    if !tail.iter().all(|&b| is_blank(b)) {
        let found = tail.iter().copied().skip_while(|&b| is_blank(b)).collect();
        return Outcome::Invalid {
            expected: "the end of the line after the quoted string",
            found,
        };
    }
    Outcome::Done(Record::Header(header, text), tail_end)
}

fn timed_record(rest: &[u8], timed: Timed, end: usize) -> Outcome<'_> {
    let expected = match timed {
        Timed::BeginSample => "a sample time after BEGIN_SAMPLE",
        Timed::EndSample => "a sample time after END_SAMPLE",
        Timed::Mark => "a time after MARK",
    };
    let Ok((rest, _)) = blanks(rest) else {
        unreachable!()
    };
    let arg = word(rest).map(|(_, w)| w).unwrap_or_default();
    match time_text(arg) {
        Ok((&[], text)) => {
            let after = &rest[arg.len()..];
            if !after.iter().all(|&b| is_blank(b)) {
                Outcome::Invalid {
                    expected: "the end of the line after the time",
                    found: after.iter().copied().skip_while(|&b| is_blank(b)).collect(),
                }
            } else if too_large(text) {
                Outcome::Invalid {
                    expected: BELOW_LIMIT,
                    found: text.to_vec(),
                }
            } else {
                Outcome::Done(Record::Timed(timed, to_f64(text)), end)
            }
        }
        _ => Outcome::Invalid {
            expected,
            found: arg.to_vec(),
        },
    }
}

/// The time on a BEGIN_SAMPLE, END_SAMPLE or MARK line as written: its second word.
pub fn time_word(line: &[u8]) -> &[u8] {
    line.split(|&b| is_blank(b))
        .filter(|w| !w.is_empty())
        .nth(1)
        .unwrap_or_default()
}

/// `name value`: the value is the last blank-separated word, the name everything before
/// the blanks in front of it.
fn point_record(line: &[u8], end: usize) -> Outcome<'_> {
    let line = {
        let mut n = line.len();
        while n > 0 && is_blank(line[n - 1]) {
            n -= 1;
        }
        &line[..n]
    };
    let Some(last_blank) = line.iter().rposition(|&b| is_blank(b)) else {
        return Outcome::Invalid {
            expected: "`name value` or a keyword",
            found: line.to_vec(),
        };
    };
    let value = &line[last_blank + 1..];
    let mut name_end = last_blank;
    while name_end > 0 && is_blank(line[name_end - 1]) {
        name_end -= 1;
    }
    let name = &line[..name_end];
    match value_text(value) {
        Ok((&[], text)) if too_large(text) => Outcome::Invalid {
            expected: BELOW_LIMIT,
            found: text.to_vec(),
        },
        Ok((&[], text)) => Outcome::Done(
            Record::Point {
                name,
                value: to_f64(text),
            },
            end,
        ),
        _ => Outcome::Invalid {
            expected: "a number at the end of the line",
            found: value.to_vec(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn done(s: &str) -> Record<'_> {
        match record(s.as_bytes(), true) {
            Outcome::Done(r, _) => r,
            other => panic!("{s:?}: {other:?}"),
        }
    }

    #[test]
    fn no_keyword_is_longer_than_the_longest() {
        let lengths = (Header::ALL.iter().map(|h| h.keyword().len()))
            .chain(Timed::ALL.iter().map(|t| t.keyword().len()));
        assert_eq!(lengths.max(), Some(LONGEST_KEYWORD));
        // A name whose first word is a keyword and more is a point; one that is a
        // keyword is not.
        assert!(fast_point(b"BEGIN_SAMPLEX.Data.Map\t5").is_some());
        assert!(fast_point(b"BEGIN_SAMPLE 5").is_none());
        assert!(fast_point(b"END_SAMPLE\t5").is_none());
    }

    #[test]
    fn keyword_lines() {
        assert_eq!(
            done("JOB \"a \"\"b\"\"\""),
            Record::Header(Header::Job, b"a \"b\"".to_vec())
        );
        assert_eq!(
            done("BEGIN_SAMPLE 0.50"),
            Record::Timed(Timed::BeginSample, 0.5)
        );
        assert_eq!(done("END_SAMPLE 3\r"), Record::Timed(Timed::EndSample, 3.0));
        assert_eq!(
            done("BEGIN_SAMPLE 0,022"),
            Record::Timed(Timed::BeginSample, 0.022)
        );
        assert_eq!(done("MARK 1."), Record::Timed(Timed::Mark, 1.0));
        assert_eq!(done("   \t\r"), Record::Blank);
    }

    #[test]
    fn name_is_everything_before_the_last_blanks() {
        assert_eq!(
            done("Map Int String\t 1234"),
            Record::Point {
                name: b"Map Int String",
                value: 1234.0
            }
        );
        assert_eq!(
            done("123\t456"),
            Record::Point {
                name: b"123",
                value: 456.0
            }
        );
        assert_eq!(
            done("JOBS 7"),
            Record::Point {
                name: b"JOBS",
                value: 7.0
            }
        );
    }

    #[test]
    fn numbers_stop_below_ten_to_the_32() {
        // The most hp2ps reads as one number (as an f64 it is 10^32).
        let nines = "9".repeat(32);
        assert_eq!(
            done(&format!("a\t{nines}")),
            Record::Point {
                name: b"a",
                value: 1e32
            }
        );
        assert!(matches!(
            done(&format!("BEGIN_SAMPLE {nines}.5")),
            Record::Timed(..)
        ));
        for line in [
            format!("a\t1{}", "0".repeat(32)),
            format!("a\t000{nines}1.0"),
            format!("MARK 1{}.0", "0".repeat(32)),
            format!("END_SAMPLE {}", "7".repeat(400)),
        ] {
            assert!(
                matches!(
                    record(line.as_bytes(), true),
                    Outcome::Invalid {
                        expected: BELOW_LIMIT,
                        ..
                    }
                ),
                "{line}"
            );
        }
    }

    #[test]
    fn a_string_left_open_needs_more_lines() {
        assert_eq!(record(b"JOB \"abc\n", true), Outcome::NeedMore);
        assert_eq!(
            record(b"JOB \"ab\ncd\"\nX", true),
            Outcome::Done(Record::Header(Header::Job, b"ab\ncd".to_vec()), 11)
        );
    }

    #[test]
    fn the_fast_path_agrees_with_the_grammar() {
        for line in [
            "(257)main\t23152",
            "(257)main\t23152\r",
            "Map Int String \t 0",
            "name 7",
            "123\t456",
            "JOBS 7",
            "JOB 7",
            "BEGIN_SAMPLE 1",
            "MARK 2",
            " lead 5",
            "x 1.5",
            "x 12345678901234567890",
            "nospace",
            "\t5",
            "a\tb",
        ] {
            if let Some((name, value)) = fast_point(line.as_bytes()) {
                assert_eq!(
                    record(line.as_bytes(), true),
                    Outcome::Done(Record::Point { name, value }, line.len()),
                    "{line:?}"
                );
            }
        }
        assert!(fast_point(b"a\t1").is_some());
        assert!(fast_point(b"JOB 7").is_none());
    }

    #[test]
    fn invalid_lines_say_what_was_expected() {
        assert!(matches!(
            record(b"JOB 12", true),
            Outcome::Invalid { expected, .. } if expected.contains("quoted string after JOB")
        ));
        assert!(matches!(record(b"foo", true), Outcome::Invalid { .. }));
        assert!(matches!(record(b"foo bar", true), Outcome::Invalid { .. }));
        assert!(matches!(
            record(b"BEGIN_SAMPLE x", true),
            Outcome::Invalid { .. }
        ));
        assert!(matches!(
            record(b"BEGIN_SAMPLE 1.0 2", true),
            Outcome::Invalid { .. }
        ));
    }
}
