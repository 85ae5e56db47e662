//! A profile as `.hp` text, so that hp2ps and every older `.hp` tool can read profiles
//! from any input (an eventlog above all).
//!
//! Reading the text back gives the same profile: names keep their order of first
//! appearance (each sample lists its bands in name order, and a name's first sample is
//! where it first appeared), a name repeated in a sample keeps each value on a line of
//! its own, and times are written with as many digits as make them read back exactly.
//! hpgraph therefore draws the converted file with the same bytes as its source. The one
//! exception is a name hp2ps cannot read as one word (a blank in it, empty, a keyword
//! first): it is written as [`crate::escape::hp_name`] says, with a warning.

use std::io::{self, Write};

use crate::profile::{Points, Profile};

/// Writes `profile` as `.hp` text.
pub fn write(profile: &Profile, out: &mut dyn Write) -> io::Result<()> {
    let header: [(&str, &[u8]); 4] = [
        ("JOB", &profile.job),
        ("DATE", &profile.date),
        ("SAMPLE_UNIT", &profile.sample_unit),
        ("VALUE_UNIT", &profile.value_unit),
    ];
    for (keyword, text) in header {
        write!(out, "{keyword} \"")?;
        out.write_all(&quoted(text))?;
        out.write_all(b"\"\n")?;
    }
    let mut series: Vec<std::iter::Peekable<Points<'_>>> = profile
        .bands
        .series()
        .iter()
        .map(|s| s.points().peekable())
        .collect();
    let mut marks = profile.marks.iter().peekable();
    for (sample, &t) in profile.times.iter().enumerate() {
        while let Some(m) = marks.next_if(|m| m.time < t) {
            writeln!(out, "MARK {}", time(m.time))?;
        }
        writeln!(out, "BEGIN_SAMPLE {}", time(t))?;
        for (name, points) in profile.bands.names().iter().zip(&mut series) {
            while let Some((_, value)) = points.next_if(|&(s, _)| s as usize == sample) {
                out.write_all(&crate::escape::hp_name(name))?;
                writeln!(out, "\t{value}")?;
            }
        }
        writeln!(out, "END_SAMPLE {}", time(t))?;
    }
    for m in marks {
        writeln!(out, "MARK {}", time(m.time))?;
    }
    Ok(())
}

/// A time that reads back as the same double, with the decimal point hp2ps insists on.
fn time(t: f64) -> String {
    let s = t.to_string();
    if s.contains('.') { s } else { s + ".0" }
}

/// A header string's text: a quote is written twice, as the `.hp` grammar reads it.
fn quoted(text: &[u8]) -> Vec<u8> {
    let mut v = Vec::with_capacity(text.len());
    for &b in text {
        match b {
            b'"' => v.extend_from_slice(b"\"\""),
            b'\n' | b'\r' => v.push(b' '),
            _ => v.push(b),
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::hp::parse;

    #[test]
    fn names_a_line_cannot_hold_are_escaped_and_read_back() {
        for (name, written) in [
            (&b""[..], &b"_"[..]),
            (b" x", b"_x"),
            (b"x \t", b"x__"),
            (b"BEGIN_SAMPLE 7", b"_BEGIN_SAMPLE_7"),
            (b"MARK", b"_MARK"),
            (b"a\nb", b"a_b"),
            (b"a b", b"a_b"),
        ] {
            assert_eq!(&*crate::escape::hp_name(name), written);
            let text = [
                &b"JOB \"j\"\nBEGIN_SAMPLE 0\n"[..],
                written,
                b"\t5\nEND_SAMPLE 0\n",
            ]
            .concat();
            let p = parse(&text).unwrap().profile;
            assert_eq!(&*p.bands.names()[0], written);
        }
    }

    #[test]
    fn the_text_reads_back_as_the_same_profile() {
        let text =
            b"JOB \"a \"\"b\"\"\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n\
            MARK 0.5\nBEGIN_SAMPLE 0.25\nx\t1\ny_z\t2\nx\t3\nEND_SAMPLE 0.25\n\
            BEGIN_SAMPLE 1.125\ny_z\t4\nw\t5.5\nEND_SAMPLE 1.125\nMARK 2.0\n";
        let profile = parse(text).unwrap().profile;
        let mut out = Vec::new();
        write(&profile, &mut out).unwrap();
        assert_eq!(parse(&out).unwrap().profile, profile);
        let again = String::from_utf8(out).unwrap();
        assert!(again.contains("x\t1\nx\t3\n"), "{again}");
        assert!(again.starts_with("JOB \"a \"\"b\"\"\"\n"), "{again}");
    }

    #[test]
    fn times_keep_every_digit_and_a_decimal_point() {
        assert_eq!(time(0.880278548), "0.880278548");
        assert_eq!(time(3.0), "3.0");
        assert_eq!(time(0.1 + 0.2).parse::<f64>().unwrap(), 0.1 + 0.2);
    }
}
