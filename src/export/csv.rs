//! `-o data.csv`: one row per sample, a `time` column then one column per band with its
//! full name as header, values in the profile's units (bytes). Quoting as RFC 4180 says:
//! a field holding a comma, a quote, a CR or LF is quoted, its quotes doubled; lines end
//! in CRLF. Names are written as their bytes, whatever the encoding.

use std::io::{self, Write};

use crate::analysis::Table;

/// Writes `field` as one CSV field. A field a spreadsheet would take for a formula
/// (`=HYPERLINK(…)`) gets a `'` before it and is quoted, as OWASP recommends: shown as
/// text, never run ([`crate::escape::csv_formula`]).
pub fn field(out: &mut dyn Write, field: &[u8]) -> io::Result<()> {
    let formula = crate::escape::csv_formula(field);
    if formula
        || field
            .iter()
            .any(|&b| matches!(b, b',' | b'"' | b'\r' | b'\n'))
    {
        let mut quoted = Vec::with_capacity(field.len() + 4);
        quoted.push(b'"');
        if formula {
            quoted.push(b'\'');
        }
        for &b in field {
            if b == b'"' {
                quoted.push(b'"');
            }
            quoted.push(b);
        }
        quoted.push(b'"');
        out.write_all(&quoted)
    } else {
        out.write_all(field)
    }
}

/// A number as the shortest text that reads back as the same double; whole numbers
/// without a fraction.
pub fn number(v: f64) -> String {
    match crate::units::whole(v) {
        Some(n) => n.to_string(),
        None => format!("{v}"),
    }
}

/// Writes the table as CSV.
pub fn write(table: &Table, out: &mut dyn Write) -> io::Result<()> {
    let mut out = io::BufWriter::with_capacity(1 << 16, out);
    out.write_all(b"time")?;
    for (name, _) in &table.columns {
        out.write_all(b",")?;
        field(&mut out, name)?;
    }
    out.write_all(b"\r\n")?;
    let times = &table.profile.times;
    let mut result = Ok(());
    table.for_each_row(|r, values| {
        if result.is_err() {
            return;
        }
        result = (|| {
            out.write_all(number(times[r]).as_bytes())?;
            for &v in values {
                out.write_all(b",")?;
                out.write_all(number(v).as_bytes())?;
            }
            out.write_all(b"\r\n")
        })();
    });
    result?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quoted(s: &[u8]) -> String {
        let mut out = Vec::new();
        field(&mut out, s).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn fields_are_quoted_as_rfc_4180_says() {
        assert_eq!(quoted(b"main"), "main");
        assert_eq!(quoted(b"a,b"), "\"a,b\"");
        assert_eq!(quoted(b"say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(quoted(b"\""), "\"\"\"\"");
        assert_eq!(quoted(b"two\nlines"), "\"two\nlines\"");
    }

    #[test]
    fn numbers_are_exact_and_short() {
        assert_eq!(number(1234.0), "1234");
        assert_eq!(number(0.1), "0.1");
        assert_eq!(number(2.5e20), "250000000000000000000");
    }
}
