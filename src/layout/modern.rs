//! The `modern` figure style's choices, apart from the geometry: ticks at round values
//! labelled with just enough decimals, byte units, and names shortened in the middle.

use super::text::string_size;
use super::ticks::round_125;
use crate::units::unit_for;

/// Ticks from `first` to `last` (the x axis: sample times), about `target` of them, at
/// multiples of a 1-2-5 step, each labelled with the fewest decimals that tell the step
/// apart: `0.02 0.04 0.06`, never `0.0 0.0 0.1`.
pub fn time_ticks(first: f64, last: f64, target: f64) -> Vec<(f64, String)> {
    let Some(step) = round_125((last - first) / target) else {
        return Vec::new();
    };
    let decimals = decimals(step);
    let mut out = Vec::new();
    let mut k = (first / step).ceil();
    loop {
        let v = k * step;
        if v > last + step * 1e-9 || out.len() > 1000 {
            break;
        }
        out.push((v, format!("{v:.decimals$}")));
        k += 1.0;
    }
    out
}

/// The decimals a 1-2-5 step needs: 0 from 1 up, 1 for 0.1 to 0.5, 2 for 0.01 to 0.05…
fn decimals(step: f64) -> usize {
    let mut d = 0;
    let mut s = step;
    while s < 0.999_999 && d < 12 {
        s *= 10.0;
        d += 1;
    }
    d
}

/// Ticks from 0 to `top` (the y axis), about `target` of them: the unit is the largest
/// that `top` reaches (B, kB, MB, GB, or KiB, MiB, GiB with `binary`; k, M, G when the
/// values are not bytes), the step a 1-2-5 multiple of it, the labels with just enough
/// decimals: `0 MB 2.5 MB 5 MB` is never written `0M 2M 5M`.
pub fn value_ticks(top: f64, target: f64, bytes: bool, binary: bool) -> Vec<(f64, String)> {
    let (unit, name) = unit_for(top, bytes, binary);
    let Some(step) = round_125(top / unit / target) else {
        return Vec::new();
    };
    let decimals = decimals(step);
    let space = if name.is_empty() { "" } else { " " };
    (0..)
        .map(|k| k as f64 * step)
        .take_while(|&v| v * unit <= top * (1.0 + 1e-9))
        .take(1000)
        .map(|v| (v * unit, format!("{v:.decimals$}{space}{name}")))
        .collect()
}

/// `name` as it fits in `width` points at the key's size: whole if it fits, else its
/// first and last parts around `...`. A cost-centre stack (`a/b/c/d`) keeps whole labels
/// at both ends, taken in turn from the end and from the start after the first, so that
/// stacks that differ near either end stay apart (`mk/f30/.../main/Main.CAF`).
pub fn shortened(name: &[u8], width: f64) -> Vec<u8> {
    shortened_from(name, width, false)
}

/// Every name of a key shortened to `width`, still told apart where they can be: names
/// that would come out the same keep labels from their start alone instead
/// (`mk/f30/...` rather than `mk/.../Main.CAF`).
pub fn shortened_apart(names: &[&[u8]], width: f64) -> Vec<Vec<u8>> {
    let first: Vec<Vec<u8>> = names.iter().map(|n| shortened(n, width)).collect();
    names
        .iter()
        .zip(&first)
        .map(|(name, short)| {
            let twins = first.iter().filter(|s| *s == short).count();
            if twins > 1 {
                shortened_from(name, width, true)
            } else {
                short.clone()
            }
        })
        .collect()
}

fn shortened_from(name: &[u8], width: f64, head_first: bool) -> Vec<u8> {
    if string_size(name) <= width {
        return name.to_vec();
    }
    const GAP: &[u8] = b"...";
    let parts: Vec<&[u8]> = name.split(|&b| b == b'/').collect();
    if parts.len() > 2 {
        let join = |head: usize, tail: usize| {
            let mut v: Vec<u8> = parts[..head].join(&b'/');
            v.push(b'/');
            v.extend_from_slice(GAP);
            for p in &parts[parts.len() - tail..] {
                v.push(b'/');
                v.extend_from_slice(p);
            }
            v
        };
        let (mut head, mut tail) = (1, 0);
        let mut best = None;
        loop {
            // In turn from the end and the start; or, head first, labels from the start
            // alone.
            let (h, t) = if head_first {
                (head + 1, 0)
            } else if tail < head {
                (head, tail + 1)
            } else {
                (head + 1, tail)
            };
            if h + t >= parts.len() {
                break;
            }
            let v = join(h, t);
            if string_size(&v) > width {
                break;
            }
            (head, tail) = (h, t);
            best = Some(v);
        }
        if let Some(v) = best {
            return v;
        }
    }
    // Characters from both ends, the end a little favoured (it says where).
    let n = name.len();
    for keep in (2..n).rev() {
        let head = keep / 2;
        let tail = keep - head;
        let mut v = name[..head].to_vec();
        v.extend_from_slice(GAP);
        v.extend_from_slice(&name[n - tail..]);
        if string_size(&v) <= width {
            return v;
        }
    }
    GAP.to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(t: &[(f64, String)]) -> Vec<&str> {
        t.iter().map(|(_, l)| l.as_str()).collect()
    }

    #[test]
    fn a_short_run_has_distinct_time_labels() {
        let t = time_ticks(0.0, 0.1, 7.0);
        assert_eq!(labels(&t), ["0.00", "0.02", "0.04", "0.06", "0.08", "0.10"]);
        let t = time_ticks(0.013, 0.11, 7.0);
        assert_eq!(labels(&t)[0], "0.02");
        let t = time_ticks(0.0, 340.0, 7.0);
        assert_eq!(labels(&t), ["0", "50", "100", "150", "200", "250", "300"]);
        for (first, last) in [(0.0, 0.1), (0.0, 0.003), (1.0, 1.0001), (0.0, 12345.0)] {
            let t = time_ticks(first, last, 7.0);
            let mut l = labels(&t);
            l.dedup();
            assert_eq!(l.len(), t.len(), "{first}..{last}: {t:?}");
        }
    }

    #[test]
    fn byte_ticks_have_units_and_just_enough_decimals() {
        let t = value_ticks(71_082_648.0, 7.0, true, false);
        // 71 MB / 7 rounds up to a step of 20 MB, as hp2ps's 1-2-5 rounding does.
        assert_eq!(labels(&t), ["0 MB", "20 MB", "40 MB", "60 MB"]);
        let t = value_ticks(3_500_000.0, 7.0, true, false);
        assert_eq!(labels(&t)[1], "0.5 MB");
        let t = value_ticks(512.0 * 1_048_576.0, 7.0, true, true);
        assert_eq!(labels(&t)[1], "50 MiB");
        let t = value_ticks(800.0, 7.0, true, false);
        assert_eq!(labels(&t)[1], "200 B");
        let t = value_ticks(2_000_000.0, 7.0, false, false);
        assert_eq!(labels(&t)[1], "0.2 M");
    }

    #[test]
    fn long_names_are_shortened_in_the_middle() {
        let name = b"producer077/loop/go/step/main.final/main";
        let short = shortened(name, string_size(b"producer077/loop/.../main") + 0.1);
        assert_eq!(short, b"producer077/loop/.../main");
        let a = shortened(b"mk/f30/main.fs/main.lists/main/Main.CAF", 120.0);
        let b = shortened(b"mk/f29/main.fs/main.lists/main/Main.CAF", 120.0);
        assert_ne!(a, b, "{}", String::from_utf8_lossy(&a));
        let names: [&[u8]; 3] = [
            b"mk/f30/main.fs/main.lists/main/Main.CAF",
            b"mk/f29/main.fs/main.lists/main/Main.CAF",
            b"main/Main.CAF",
        ];
        let narrow = string_size(b"mk/f30/main.fs/...") + 1.0;
        let short = shortened_apart(&names, narrow);
        assert_eq!(short[0], b"mk/f30/main.fs/...");
        assert_ne!(short[0], short[1]);
        assert_eq!(short[2], b"main/Main.CAF");
        assert_eq!(shortened(b"short", 100.0), b"short");
        let s = shortened(b"averyveryverylongnamewithoutslashes", 60.0);
        assert!(string_size(&s) <= 60.0 && s.windows(3).any(|w| w == b"..."));
    }
}
