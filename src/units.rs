//! How numbers are written: for people, byte counts as kB, MB, GB (or KiB, MiB, GiB)
//! and plain numbers as k, M, G (the modern figure style's ticks, the summary table);
//! for data, whole numbers without a fraction (every data format and the page); and how
//! large a number read from a file may be.

/// Decimal byte units, largest first.
pub const DECIMAL: [(f64, &str); 5] = [
    (1e12, "TB"),
    (1e9, "GB"),
    (1e6, "MB"),
    (1e3, "kB"),
    (1.0, "B"),
];
/// Binary byte units, largest first.
pub const BINARY: [(f64, &str); 5] = [
    (1_099_511_627_776.0, "TiB"),
    (1_073_741_824.0, "GiB"),
    (1_048_576.0, "MiB"),
    (1024.0, "KiB"),
    (1.0, "B"),
];
/// The size in bytes of a byte unit as people write it: one of [`DECIMAL`] or [`BINARY`],
/// whatever its case (`kB`, `KB`, `mib`). Sizes on the command line and bounds in
/// `--check` read their units here.
pub fn byte_unit(text: &str) -> Option<f64> {
    (DECIMAL.iter().chain(&BINARY))
        .find(|(_, u)| u.eq_ignore_ascii_case(text))
        .map(|(size, _)| *size)
}
/// A size in bytes as people write it: a number above 0 (`1e9`, `1500000`) with an
/// optional [`byte_unit`] (`B` is bytes). `None` for anything else.
pub fn size(text: &str) -> Option<f64> {
    let t = text.trim();
    let number = t.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let unit = &t[number.len()..];
    let factor = if unit.is_empty() {
        Some(1.0)
    } else {
        byte_unit(unit)
    };
    let v = number
        .trim()
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite() && *v > 0.0)?;
    Some(v * factor?)
}

/// The units a length on paper may end in, with their size in points.
const LENGTHS: [(&str, f64); 4] = [
    ("in", 72.0),
    ("cm", 72.0 / 2.54),
    ("mm", 72.0 / 25.4),
    ("pt", 1.0),
];

/// The length unit `text` ends in (`in`, `cm`, `mm`, `pt`), as its size in points.
pub fn length_unit(text: &str) -> Option<f64> {
    let t = text.trim();
    (LENGTHS.iter()).find_map(|&(u, f)| t.ends_with(u).then_some(f))
}

/// A length above 0 in points; a number without a unit counts in `bare` points (1 when
/// `None`).
pub fn length(text: &str, bare: Option<f64>) -> Option<f64> {
    let t = text.trim();
    let (number, factor) = (LENGTHS.iter())
        .find_map(|&(u, f)| t.strip_suffix(u).map(|n| (n.trim(), f)))
        .unwrap_or((t, bare.unwrap_or(1.0)));
    let v = number
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite() && *v > 0.0)?;
    Some(v * factor)
}

/// Units for values that are not bytes.
pub const PLAIN: [(f64, &str); 5] = [(1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k"), (1.0, "")];

/// How byte counts are written for people (`--binary-units`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ByteUnits {
    /// kB, MB, GB: powers of 1000.
    #[default]
    Decimal,
    /// KiB, MiB, GiB: powers of 1024.
    Binary,
}

/// The unit of a profile's sample times, read once from its `SAMPLE_UNIT`: what the
/// outputs write times and rates with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TimeUnit {
    /// Seconds (`SAMPLE_UNIT "seconds"`, and every eventlog): `2.50 s`, `MB/s`.
    Seconds,
    /// Anything else: the number as it is, with the profile's own word.
    #[default]
    Other,
}

/// What a profile's values count, read once from its `VALUE_UNIT`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ValueUnit {
    /// Bytes (`VALUE_UNIT "bytes"`, and every eventlog): written in kB or KiB.
    Bytes,
    /// Anything else: plain numbers with k, M, G.
    #[default]
    Other,
}

impl ValueUnit {
    /// What values in `value_unit` count.
    pub fn of(value_unit: &[u8]) -> ValueUnit {
        if value_unit == b"bytes" {
            ValueUnit::Bytes
        } else {
            ValueUnit::Other
        }
    }
}

/// A profile's units, each read once, where the profile is read (its header strings
/// stay as written, for the outputs that print them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Units {
    /// Of its sample times.
    pub time: TimeUnit,
    /// Of its values.
    pub value: ValueUnit,
}

impl Units {
    /// The units `SAMPLE_UNIT` and `VALUE_UNIT` name.
    pub fn of(sample_unit: &[u8], value_unit: &[u8]) -> Units {
        Units {
            time: TimeUnit::of(sample_unit),
            value: ValueUnit::of(value_unit),
        }
    }
}

impl TimeUnit {
    /// The unit of times in `sample_unit`.
    pub fn of(sample_unit: &[u8]) -> TimeUnit {
        if sample_unit == b"seconds" {
            TimeUnit::Seconds
        } else {
            TimeUnit::Other
        }
    }
}

/// The units a profile's values are written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scale {
    /// The values are bytes (`VALUE_UNIT "bytes"`).
    Bytes(ByteUnits),
    /// Anything else: plain numbers with k, M, G.
    Plain,
}

impl Scale {
    /// The scale of values that count `value`, bytes written in `units`.
    pub fn new(value: ValueUnit, units: ByteUnits) -> Scale {
        match value {
            ValueUnit::Bytes => Scale::Bytes(units),
            ValueUnit::Other => Scale::Plain,
        }
    }

    /// Its units, largest first, the last of size 1.
    pub fn units(self) -> &'static [(f64, &'static str); 5] {
        match self {
            Scale::Bytes(ByteUnits::Binary) => &BINARY,
            Scale::Bytes(ByteUnits::Decimal) => &DECIMAL,
            Scale::Plain => &PLAIN,
        }
    }
}

/// The largest unit `v` reaches on `scale`, and its name: B, kB, MB… (KiB, MiB… in
/// binary units; k, M, G for values that are not bytes).
pub fn unit_for(v: f64, scale: Scale) -> (f64, &'static str) {
    let units = scale.units();
    units
        .iter()
        .copied()
        .find(|&(u, _)| v.abs() >= u)
        .unwrap_or((1.0, units[units.len() - 1].1))
}

/// `v` in the largest unit it reaches with three significant digits: `12.3 MB`,
/// `512 B`, `1.20 GB`; on a plain scale `12.3k` for counts that are not bytes.
pub fn human(v: f64, scale: Scale) -> String {
    // -0 (a difference of equal values, a negated 0) is written as 0, not `-0 B`.
    let v = v + 0.0;
    let (unit, name) = unit_for(v, scale);
    let bytes = scale != Scale::Plain;
    let x = v / unit;
    // Three significant digits, but a whole number of bytes has no decimals.
    let decimals = if (unit == 1.0 && x.fract() == 0.0) || x.abs() >= 99.95 {
        0
    } else if x.abs() >= 9.995 {
        1
    } else {
        2
    };
    let space = if name.is_empty() || !bytes { "" } else { " " };
    format!("{x:.decimals$}{space}{name}")
}

/// A time in seconds with enough decimals for its size: `0.052 s`, `2.50 s`, `125 s`.
pub fn seconds(t: f64) -> String {
    // -0 is written as 0, as in [`human`].
    let t = t + 0.0;
    let decimals = if t.abs() >= 100.0 {
        0
    } else if t.abs() >= 10.0 {
        1
    } else if t.abs() >= 1.0 || t == 0.0 {
        2
    } else {
        3
    };
    format!("{t:.decimals$} s")
}

/// `v` as an integer when it is a whole number a double holds exactly: byte counts are
/// written without a fraction (`1234`, not `1234.0`) in every data format.
pub fn whole(v: f64) -> Option<i64> {
    (v.fract() == 0.0 && v.abs() < 9_007_199_254_740_992.0).then_some(v as i64)
}

/// The significant digits a [`figure`] keeps: more than any profile's input carries
/// (GHC writes at most a few), fewer than the 17 that show a sum's float noise
/// (`15.910000000000002` for 15.91 built from a report's percentages).
pub const FIGURE_DIGITS: usize = 12;

/// `v` rounded to [`FIGURE_DIGITS`] significant digits: the value a report's figure was
/// before arithmetic on binary fractions blurred its last bits.
pub fn tidy(v: f64) -> f64 {
    if !v.is_finite() || v == 0.0 || whole(v).is_some() {
        return v;
    }
    format!("{:.*e}", FIGURE_DIGITS - 1, v).parse().unwrap_or(v)
}

/// A figure as text: a [`whole`] number as an integer, else [`tidy`] in the fewest
/// digits that read back as it (`15.91`, not `15.910000000000002`).
pub fn figure(v: f64) -> String {
    let v = tidy(v);
    match whole(v) {
        Some(n) => n.to_string(),
        None => format!("{v}"),
    }
}

/// Serialises a value as [`figure`] writes it: an integer when whole, else a [`tidy`]
/// double.
pub fn tidy_number<S: serde::Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
    number(&tidy(*v), s)
}

/// Serialises a value as an integer when it is a [`whole`] number, else as a double.
pub fn number<S: serde::Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
    match whole(*v) {
        Some(n) => s.serialize_i64(n),
        None => s.serialize_f64(*v),
    }
}

/// A list of numbers, each as [`number`] writes it.
pub fn numbers<S: serde::Serializer>(values: &[f64], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(values.iter().map(|&v| Number(v)))
}

/// A value that serialises as [`number`] writes it.
pub struct Number(pub f64);

impl serde::Serialize for Number {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        number(&self.0, s)
    }
}

/// The most digits before the point a number read from a file may have.
pub const MAX_DIGITS: usize = 32;

/// Whether a number as written (digits with one `.` or `,`) is 10^32 or more: times,
/// values and the numbers of an `.aux` file must stay below. hp2ps reads at most 32
/// digits, so nothing it reads is this large; without a bound, a long enough number reads
/// as infinity and the picture's coordinates become `nan`, which is not PostScript. The
/// digits are counted because no `f64` lies between 32 nines and 10^32.
pub fn too_large(number: &[u8]) -> bool {
    let whole = number.split(|&b| b == b'.' || b == b',').next();
    whole
        .unwrap_or_default()
        .iter()
        .skip_while(|&&b| b == b'0')
        .count()
        > MAX_DIGITS
}

/// `n` with a comma between each three digits, as the runtime prints its counters and
/// hp2ps its exact areas: `1,234,567`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (k, c) in digits.chars().enumerate() {
        if k > 0 && (digits.len() - k).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_are_written_with_commas() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(215_777_368), "215,777,368");
    }

    #[test]
    fn human_units_keep_three_digits() {
        let (kb, kib) = (
            Scale::Bytes(ByteUnits::Decimal),
            Scale::Bytes(ByteUnits::Binary),
        );
        assert_eq!(human(12_345_678.0, kb), "12.3 MB");
        assert_eq!(human(512.0, kb), "512 B");
        assert_eq!(human(1_200_000_000.0, kb), "1.20 GB");
        assert_eq!(human(999_999.0, kb), "1000 kB");
        assert_eq!(human(1536.0, kib), "1.50 KiB");
        assert_eq!(human(0.0, kb), "0 B");
        assert_eq!(human(12_300.0, Scale::Plain), "12.3k");
    }

    #[test]
    fn seconds_have_decimals_for_their_size() {
        assert_eq!(seconds(0.0523), "0.052 s");
        assert_eq!(seconds(2.5), "2.50 s");
        assert_eq!(seconds(125.4), "125 s");
    }
}
