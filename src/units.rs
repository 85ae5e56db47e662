//! Units for people: byte counts as kB, MB, GB (or KiB, MiB, GiB), plain numbers as k, M,
//! G, shared by the modern figure style's ticks and the summary table.

pub const DECIMAL: [(f64, &str); 5] = [
    (1e12, "TB"),
    (1e9, "GB"),
    (1e6, "MB"),
    (1e3, "kB"),
    (1.0, "B"),
];
pub const BINARY: [(f64, &str); 5] = [
    (1_099_511_627_776.0, "TiB"),
    (1_073_741_824.0, "GiB"),
    (1_048_576.0, "MiB"),
    (1024.0, "KiB"),
    (1.0, "B"),
];
pub const PLAIN: [(f64, &str); 5] = [(1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k"), (1.0, "")];

/// The largest unit `v` reaches, and its name: B, kB, MB… (KiB, MiB… with `binary`;
/// k, M, G for values that are not bytes).
pub fn unit_for(v: f64, bytes: bool, binary: bool) -> (f64, &'static str) {
    let units = match (bytes, binary) {
        (true, true) => &BINARY,
        (true, false) => &DECIMAL,
        (false, _) => &PLAIN,
    };
    units
        .iter()
        .copied()
        .find(|&(u, _)| v.abs() >= u)
        .unwrap_or((1.0, units[units.len() - 1].1))
}

/// `v` in the largest unit it reaches with three significant digits: `12.3 MB`,
/// `512 B`, `1.20 GB`; `bytes` false gives `12.3k` for counts that are not bytes.
pub fn human(v: f64, bytes: bool, binary: bool) -> String {
    let (unit, name) = unit_for(v, bytes, binary);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn human_units_keep_three_digits() {
        assert_eq!(human(12_345_678.0, true, false), "12.3 MB");
        assert_eq!(human(512.0, true, false), "512 B");
        assert_eq!(human(1_200_000_000.0, true, false), "1.20 GB");
        assert_eq!(human(999_999.0, true, false), "1000 kB");
        assert_eq!(human(1536.0, true, true), "1.50 KiB");
        assert_eq!(human(0.0, true, false), "0 B");
        assert_eq!(human(12_300.0, false, false), "12.3k");
    }

    #[test]
    fn seconds_have_decimals_for_their_size() {
        assert_eq!(seconds(0.0523), "0.052 s");
        assert_eq!(seconds(2.5), "2.50 s");
        assert_eq!(seconds(125.4), "125 s");
    }
}
