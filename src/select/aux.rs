//! The `.aux` file: the ranges, band order and shades of one rendering, written after
//! every file-mode run and read back with `-p` so that related graphs share a scale, an
//! order and colours (spec §5).
//!
//! hp2ps reads it with its token lexer, so it cannot read back a name that contains a
//! space or starts with a digit; this reader is line-oriented like the `.hp` parser and
//! reads back everything the writer writes.

use std::collections::HashMap;
use std::fmt;
use std::io::{self, Write};

use super::Selection;

/// What an `.aux` file says.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Aux {
    /// Minimum x range (`X_RANGE`).
    pub x_range: f64,
    /// Minimum y range (`Y_RANGE`).
    pub y_range: f64,
    /// `ORDER name k` lines; the first line for a name wins.
    pub order: Vec<(Box<[u8]>, i64)>,
    /// `SHADE name s` lines, in file order.
    pub shades: Vec<(Box<[u8]>, f64)>,
}

impl Aux {
    /// The ORDER key of each name (0 for names the file does not list).
    pub fn order_keys(&self) -> HashMap<&[u8], i64> {
        let mut m = HashMap::new();
        for (name, k) in &self.order {
            m.entry(&**name).or_insert(*k);
        }
        m
    }
}

/// A line of an `.aux` file that could not be read.
#[derive(Debug, Clone, PartialEq)]
pub struct AuxError {
    /// 1-based line number.
    pub line: u64,
    /// What was expected there.
    pub expected: &'static str,
}

impl fmt::Display for AuxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "expected {}", self.expected)
    }
}

impl std::error::Error for AuxError {}

fn trim(b: &[u8]) -> &[u8] {
    let is_blank = |c: &u8| c.is_ascii_whitespace();
    let start = b.iter().position(|c| !is_blank(c)).unwrap_or(b.len());
    let end = b
        .iter()
        .rposition(|c| !is_blank(c))
        .map_or(start, |e| e + 1);
    &b[start..end]
}

/// Splits `name value` at the last run of blanks.
fn name_and_value(rest: &[u8]) -> Option<(&[u8], &[u8])> {
    let rest = trim(rest);
    let cut = rest.iter().rposition(|c| c.is_ascii_whitespace())?;
    Some((trim(&rest[..cut]), &rest[cut + 1..]))
}

fn number(b: &[u8]) -> Option<f64> {
    let s = std::str::from_utf8(b).ok()?;
    if s.is_empty() || !s.bytes().all(|c| c.is_ascii_digit() || c == b'.') {
        return None;
    }
    if crate::units::too_large(b) {
        return None;
    }
    s.parse().ok()
}

/// Reads an `.aux` file.
pub fn parse(bytes: &[u8]) -> Result<Aux, AuxError> {
    let mut aux = Aux::default();
    for (i, line) in bytes.split(|&b| b == b'\n').enumerate() {
        let line_no = i as u64 + 1;
        let err = |expected| AuxError {
            line: line_no,
            expected,
        };
        let line = trim(line);
        if line.is_empty() {
            continue;
        }
        let (key, rest) = match line.iter().position(|c| c.is_ascii_whitespace()) {
            Some(p) => (&line[..p], &line[p..]),
            None => (line, &[][..]),
        };
        match key {
            b"X_RANGE" | b"Y_RANGE" => {
                let v = number(trim(rest)).ok_or(err("a number after the range keyword"))?;
                if key == b"X_RANGE" {
                    aux.x_range = v;
                } else {
                    aux.y_range = v;
                }
            }
            b"ORDER" => {
                let (name, k) = name_and_value(rest)
                    .filter(|(n, _)| !n.is_empty())
                    .ok_or(err("a name and an integer after ORDER"))?;
                let k = std::str::from_utf8(k)
                    .ok()
                    .and_then(|k| k.parse::<i64>().ok())
                    .ok_or(err("a name and an integer after ORDER"))?;
                aux.order.push((name.into(), k));
            }
            b"SHADE" => {
                let (name, s) = name_and_value(rest)
                    .filter(|(n, _)| !n.is_empty())
                    .ok_or(err("a name and a number after SHADE"))?;
                let s = number(s).ok_or(err("a name and a number after SHADE"))?;
                aux.shades.push((name.into(), s));
            }
            _ => return Err(err("X_RANGE, Y_RANGE, ORDER or SHADE")),
        }
    }
    Ok(aux)
}

/// Writes the `.aux` file of a selection, byte for byte as hp2ps does.
pub fn write(sel: &Selection, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "X_RANGE {:.2}", sel.x_range)?;
    writeln!(out, "Y_RANGE {:.2}", sel.y_range)?;
    for (k, band) in sel.bands.iter().enumerate() {
        out.write_all(b"ORDER ")?;
        out.write_all(&band.name)?;
        writeln!(out, " {}", k + 1)?;
    }
    for band in &sel.bands {
        out.write_all(b"SHADE ")?;
        out.write_all(&band.name)?;
        writeln!(out, " {:.2}", band.shade.number())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_hp2ps_writes() {
        let a = parse(
            b"X_RANGE 2.00\nY_RANGE 3300.00\nORDER gamma 1\nORDER a b 2\nORDER gamma 9\nSHADE gamma 0.00\nSHADE a b 0.20\n",
        )
        .unwrap();
        assert_eq!(a.x_range, 2.0);
        assert_eq!(a.y_range, 3300.0);
        assert_eq!(a.order_keys()[b"gamma".as_slice()], 1);
        assert_eq!(a.order_keys()[b"a b".as_slice()], 2);
        assert_eq!(a.shades[1], (b"a b".as_slice().into(), 0.2));
    }

    #[test]
    fn bad_lines_name_their_line() {
        assert_eq!(parse(b"X_RANGE 1.0\nORDER x\n").unwrap_err().line, 2);
        assert_eq!(parse(b"FOO 1\n").unwrap_err().line, 1);
        // An edited file's number too long to draw with (see units::too_large).
        let huge = format!("X_RANGE 1.0\nY_RANGE {}.00\n", "9".repeat(400));
        assert_eq!(parse(huge.as_bytes()).unwrap_err().line, 2);
    }
}
