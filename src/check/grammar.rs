//! `--check`'s grammar, read with nom: a figure, a comparison and a bound.
//!
//! ```text
//! check    = subject op bound
//! subject  = band "(" PATTERN ")" band-figure      band('Data\.Map') peak
//!          | "trend(" ("total" | band "(" PATTERN ")") ")"
//!          | figure                                  peak, gc_share, waste …
//! op       = "<=" | "<" | ">=" | ">" | "==" | "=" | "!="
//! bound    = [+|-] NUMBER [unit] | growing | flat | shrinking
//! unit     = B kB MB GB TB KiB MiB GiB TiB | ns µs us ms s min | % pp | a byte unit "/s"
//! ```
//!
//! A PATTERN is a regular expression in quotes (`'…'` or `"…"`, nothing escaped but by
//! the expression itself) or bare up to its balancing `)`. A signed bound (`+5%`,
//! `-1MB`) is a change between two runs (`--compare`); an unsigned one a level. The
//! names and units are checked against each other here, before any profile is read.

use nom::branch::alt;
use nom::bytes::complete::{tag, take_till, take_while, take_while1};
use nom::character::complete::{char, multispace0, one_of};
use nom::combinator::{all_consuming, consumed, map, opt, recognize, value};
use nom::sequence::{delimited, preceded};
use nom::{IResult, Parser};

use super::{Bound, Change, Check, Figure, Kind, Op, Subject, Target};
use crate::analysis::summary::Trend;

type Res<'a, T> = IResult<&'a str, T>;

/// Reads one condition; `Err` says what is wrong with it, naming what was expected.
pub fn parse(text: &str) -> Result<Check, String> {
    let (subject, op, (written, bound)) = match all_consuming(condition).parse(text) {
        Ok((_, c)) => c,
        Err(_) => return Err(syntax_error(text)),
    };
    let named = |e: String| format!("'{}': {e}", crate::escape::terminal(text.trim()));
    let subject = subject.resolve().map_err(named)?;
    let (bound, in_bytes) = bound.fit(subject.kind(), op).map_err(named)?;
    Ok(Check {
        text: text.trim().to_string(),
        subject,
        op,
        bound,
        written: written.to_string(),
        in_bytes,
    })
}

/// The reasons a condition does not read, most useful first.
fn syntax_error(text: &str) -> String {
    let t = text.trim();
    if t.is_empty() {
        return "an empty condition: write one as `peak <= 200MB`".into();
    }
    if !["<", ">", "=", "≤", "≥"].iter().any(|o| t.contains(o)) {
        return format!(
            "`{}`: no comparison: write the figure, then <=, <, >=, >, == or !=, then a \
             bound (`peak <= 200MB`)",
            crate::escape::terminal(t)
        );
    }
    format!(
        "`{}` does not read as FIGURE OP BOUND (`peak <= 200MB`, `band('Data\\.Map') \
         mean <= 50MB`, `trend(total) != growing`, `peak <= +5%` with --compare)",
        crate::escape::terminal(t)
    )
}

/// A subject as read, its names not yet looked up.
#[derive(Clone)]
enum Read<'a> {
    Figure(&'a str),
    Band(&'a str, &'a str),
    TrendOfTotal,
    TrendOfBand(&'a str),
}

impl Read<'_> {
    fn resolve(self) -> Result<Subject, String> {
        let regex = |p: &str| {
            crate::profile::names::pattern(p)
                .map(|r| (r, p.to_string()))
                .map_err(|e| format!("band('{}'): {e}", crate::escape::terminal(p)))
        };
        Ok(match self {
            Read::Figure(name) => Subject::Run(Figure::named(name)?),
            Read::Band(p, name) => {
                let (pattern, source) = regex(p)?;
                Subject::Band {
                    pattern,
                    source,
                    figure: super::BandFigure::named(name)?,
                }
            }
            Read::TrendOfTotal => Subject::Trend(Target::Total),
            Read::TrendOfBand(p) => {
                let (pattern, source) = regex(p)?;
                Subject::Trend(Target::Band(pattern, source))
            }
        })
    }
}

fn ws<'a, O>(
    inner: impl Parser<&'a str, Output = O, Error = nom::error::Error<&'a str>>,
) -> impl Parser<&'a str, Output = O, Error = nom::error::Error<&'a str>> {
    delimited(multispace0, inner, multispace0)
}

fn condition(i: &str) -> Res<'_, (Read<'_>, Op, (&str, ReadBound))> {
    (ws(subject), ws(op), ws(consumed(bound))).parse(i)
}

fn name(i: &str) -> Res<'_, &str> {
    take_while1(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '.')(i)
}

/// A pattern in quotes, or bare up to the `)` that balances the one before it.
fn pattern(i: &str) -> Res<'_, &str> {
    alt((
        delimited(char('\''), take_till(|c| c == '\''), char('\'')),
        delimited(char('"'), take_till(|c| c == '"'), char('"')),
        balanced,
    ))
    .parse(i)
}

fn balanced(i: &str) -> Res<'_, &str> {
    let mut depth = 0usize;
    for (k, c) in i.char_indices() {
        match c {
            '(' => depth += 1,
            ')' if depth == 0 => return Ok((&i[k..], &i[..k])),
            ')' => depth -= 1,
            _ => {}
        }
    }
    Err(nom::Err::Error(nom::error::Error::new(
        i,
        nom::error::ErrorKind::Char,
    )))
}

fn band_call(i: &str) -> Res<'_, &str> {
    preceded(
        (tag("band"), multispace0, char('(')),
        nom::sequence::terminated(ws(pattern), char(')')),
    )
    .parse(i)
}

fn subject(i: &str) -> Res<'_, Read<'_>> {
    alt((
        map((band_call, ws(name)), |(p, n)| Read::Band(p, n)),
        preceded(
            (tag("trend"), multispace0, char('(')),
            nom::sequence::terminated(
                ws(alt((
                    value(Read::TrendOfTotal, tag("total")),
                    map(band_call, Read::TrendOfBand),
                ))),
                char(')'),
            ),
        ),
        map(name, Read::Figure),
    ))
    .parse(i)
}

fn op(i: &str) -> Res<'_, Op> {
    alt((
        value(Op::Le, alt((tag("<="), tag("≤")))),
        value(Op::Ge, alt((tag(">="), tag("≥")))),
        value(Op::Ne, alt((tag("!="), tag("≠")))),
        value(Op::Eq, alt((tag("=="), tag("=")))),
        value(Op::Lt, tag("<")),
        value(Op::Gt, tag(">")),
    ))
    .parse(i)
}

/// A bound as read, its unit not yet fitted to the figure.
#[derive(Clone)]
enum ReadBound {
    Number {
        sign: Option<char>,
        number: f64,
        unit: String,
    },
    Trend(Trend),
}

fn number(i: &str) -> Res<'_, f64> {
    let digits = |i| take_while1(|c: char| c.is_ascii_digit())(i);
    let (rest, text) = recognize((
        digits,
        opt((char('.'), take_while(|c: char| c.is_ascii_digit()))),
        opt((one_of("eE"), opt(one_of("+-")), digits)),
    ))
    .parse(i)?;
    match text.parse::<f64>() {
        Ok(n) if n.is_finite() => Ok((rest, n)),
        _ => Err(nom::Err::Error(nom::error::Error::new(
            i,
            nom::error::ErrorKind::Float,
        ))),
    }
}

fn bound(i: &str) -> Res<'_, ReadBound> {
    alt((
        value(ReadBound::Trend(Trend::Growing), tag("growing")),
        value(ReadBound::Trend(Trend::Shrinking), tag("shrinking")),
        value(ReadBound::Trend(Trend::Flat), tag("flat")),
        map(
            (
                opt(one_of("+-")),
                number,
                multispace0,
                take_while(|c: char| c.is_alphabetic() || c == '%' || c == '/'),
            ),
            |(sign, number, _, unit)| ReadBound::Number {
                sign,
                number,
                unit: unit.to_string(),
            },
        ),
    ))
    .parse(i)
}

/// A unit's name and what it is: bytes, seconds, a share, bytes per second.
fn unit(text: &str) -> Option<Unit> {
    let bytes = crate::units::byte_unit;
    if let Some(per) = text.strip_suffix("/s") {
        return bytes(per).map(Unit::BytesPerSecond);
    }
    Some(match text {
        "" => Unit::None,
        "%" => Unit::Percent,
        "pp" => Unit::Points,
        "ns" => Unit::Seconds(1e-9),
        "us" | "µs" | "μs" => Unit::Seconds(1e-6),
        "ms" => Unit::Seconds(1e-3),
        "s" => Unit::Seconds(1.0),
        "min" => Unit::Seconds(60.0),
        t => Unit::Bytes(bytes(t)?),
    })
}

impl ReadBound {
    /// The bound in the figure's own unit (bytes, seconds, a share from 0 to 1, a count,
    /// bytes per second), or why its unit does not fit the figure.
    /// With it, whether it was written in a unit of bytes.
    fn fit(self, kind: Kind, op: Op) -> Result<(Bound, bool), String> {
        let (sign, number, text) = match self {
            ReadBound::Trend(t) if kind == Kind::Trend => {
                return match op {
                    Op::Eq | Op::Ne => Ok((Bound::Trend(t), false)),
                    _ => Err(format!(
                        "a trend is growing, flat or shrinking: compare it with == or != \
                         (`trend(total) != {}`)",
                        t.word()
                    )),
                };
            }
            ReadBound::Trend(t) => {
                return Err(format!(
                    "`{}` is a trend's word; this figure is {} (a trend is \
                     `trend(total)` or `band(RE) trend`)",
                    t.word(),
                    kind.noun()
                ));
            }
            ReadBound::Number { .. } if kind == Kind::Trend => {
                return Err(
                    "a trend is growing, flat or shrinking, not a number (`trend(total) \
                     != growing`)"
                        .into(),
                );
            }
            ReadBound::Number { sign, number, unit } => (sign, number, unit),
        };
        let Some(u) = unit(&text) else {
            return Err(format!(
                "`{}` is no unit hpgraph knows: bytes are B, kB, MB, GB, KiB, MiB, GiB; \
                 times ns, µs, ms, s; shares %; rates MB/s",
                crate::escape::terminal(&text)
            ));
        };
        let signed = match sign {
            Some('-') => -number,
            _ => number,
        };
        let bound = match (sign.is_some(), u) {
            (true, Unit::Percent) => Bound::Change(Change::Relative(signed / 100.0)),
            (true, u) => Bound::Change(Change::Absolute(u.fit(kind, signed, true)?)),
            (false, u) => Bound::Level(u.fit(kind, signed, false)?),
        };
        Ok((bound, matches!(u, Unit::Bytes(_) | Unit::BytesPerSecond(_))))
    }
}

/// A bound's unit as written.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Unit {
    /// None: a plain number.
    None,
    /// Bytes, times this many.
    Bytes(f64),
    /// Seconds, times this many.
    Seconds(f64),
    /// `%`: a share, or signed, a change relative to the first run.
    Percent,
    /// `pp`: percentage points, a share's change.
    Points,
    /// Bytes per second, times this many.
    BytesPerSecond(f64),
}

impl Unit {
    /// `number` of this unit in `kind`'s own unit, or why the unit does not fit it.
    fn fit(self, kind: Kind, number: f64, change: bool) -> Result<f64, String> {
        let wrong = || {
            Err(format!(
                "the figure is {}: write its bound {}",
                kind.noun(),
                kind.example(change)
            ))
        };
        match (kind, self) {
            (Kind::Value | Kind::Count, Unit::None) => Ok(number),
            (Kind::Value, Unit::Bytes(m)) => Ok(number * m),
            (Kind::Time, Unit::Seconds(m)) => Ok(number * m),
            (Kind::Share, Unit::Percent) if !change => Ok(number / 100.0),
            (Kind::Share, Unit::Points) if change => Ok(number / 100.0),
            (Kind::Rate, Unit::BytesPerSecond(m)) => Ok(number * m),
            _ => wrong(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{BandFigure, Bound, Change, Figure, Op, Subject, Target};
    use super::parse;

    fn level(text: &str) -> f64 {
        match parse(text).unwrap().bound {
            Bound::Level(v) => v,
            b => panic!("{text}: {b:?}"),
        }
    }

    #[test]
    fn units_as_people_write_them() {
        assert_eq!(level("peak <= 200MB"), 200e6);
        assert_eq!(level("peak <= 123456B"), 123456.0);
        assert_eq!(level("peak <= 123456"), 123456.0);
        assert_eq!(level("peak<=1.5GiB"), 1.5 * 1024.0 * 1024.0 * 1024.0);
        assert_eq!(level("peak <= 2 kB"), 2e3);
        assert_eq!(level("max_pause <= 10ms"), 10e-3);
        assert_eq!(level("max_pause <= 250µs"), 250e-6);
        assert_eq!(level("max_pause <= 250us"), 250e-6);
        assert_eq!(level("total_elapsed < 2s"), 2.0);
        assert_eq!(level("gc_share < 20%"), 0.2);
        assert_eq!(level("alloc_rate <= 1.5GB/s"), 1.5e9);
        assert_eq!(level("collections == 1e3"), 1000.0);
    }

    #[test]
    fn changes_are_signed() {
        let c = parse("peak <= +5%").unwrap();
        assert_eq!(c.bound, Bound::Change(Change::Relative(0.05)));
        assert!(c.is_change());
        let c = parse("band(Map) mean <= -1MB").unwrap();
        assert_eq!(c.bound, Bound::Change(Change::Absolute(-1e6)));
        let c = parse("gc_share <= +2pp").unwrap();
        assert_eq!(c.bound, Bound::Change(Change::Absolute(0.02)));
        assert!(parse("gc_share <= 2pp").is_err(), "points are a change");
    }

    #[test]
    fn subjects_and_comparisons() {
        let c = parse("band('Data\\.Map') peak ≤ 50MB").unwrap();
        let Subject::Band {
            pattern, figure, ..
        } = &c.subject
        else {
            panic!()
        };
        assert!(pattern.is_match(b"Data.Map.Internal") && !pattern.is_match(b"DataXMap"));
        assert_eq!((*figure, c.op), (BandFigure::Peak, Op::Le));
        // A bare pattern runs to its balancing parenthesis.
        let c = parse("band(f(x)|g) share > 1%").unwrap();
        let Subject::Band { source, .. } = &c.subject else {
            panic!()
        };
        assert_eq!(source, "f(x)|g");
        let c = parse("trend(total) != growing").unwrap();
        assert!(matches!(c.subject, Subject::Trend(Target::Total)));
        assert_eq!(c.op, Op::Ne);
        let c = parse(r#"trend(band("MAIN")) == flat"#).unwrap();
        assert!(matches!(c.subject, Subject::Trend(Target::Band(..))));
        let c = parse("  waste   <=30%  ").unwrap();
        assert!(matches!(c.subject, Subject::Run(Figure::Waste)));
        assert_eq!(c.text, "waste   <=30%");
        assert_eq!(parse("peak = 1MB").unwrap().op, Op::Eq);
    }

    #[test]
    fn what_does_not_read_is_said() {
        for (bad, said) in [
            ("peek <= 1MB", "no figure"),
            ("peak <= 1ms", "bytes"),
            ("gc_share < 20", "percent"),
            ("max_pause < 10", "unit"),
            ("peak <= 3 furlongs", "no unit"),
            ("trend(total) < growing", "=="),
            ("peak == growing", "trend"),
            ("trend(total) == 5", "not a number"),
            ("peak <=", "does not read"),
            ("", "empty"),
            ("band('x' peak <= 1MB", "does not read"),
            ("peak <= 1e999MB", "does not read"),
        ] {
            let e = parse(bad).unwrap_err();
            assert!(e.contains(said), "{bad}: {e}");
        }
    }
}
