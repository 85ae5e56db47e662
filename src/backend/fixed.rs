//! C's `%f` (six decimals), fast and exact.
//!
//! The PostScript output is mostly coordinates printed with `%f`, millions of them on a
//! long profile, and general float formatting dominated the run time. A double is
//! `m × 2^e` with a 53-bit `m`, so `|x| × 10^6` is an exact rational whose integer part
//! and remainder fit in 128 bits for every value the layout produces; rounding that
//! half-to-even gives exactly what glibc's `printf("%f")` prints. Values too large for
//! that (beyond about 3·10^32) fall back to the standard formatter, which is also exact.

/// Appends `x` formatted as C's `printf("%f", x)`.
pub fn push_f6(out: &mut Vec<u8>, x: f64) {
    if !x.is_finite() {
        // glibc spells these in lower case and keeps the sign of a NaN.
        let neg = x.is_sign_negative();
        out.extend_from_slice(match (x.is_nan(), neg) {
            (true, false) => b"nan",
            (true, true) => b"-nan",
            (false, false) => b"inf",
            (false, true) => b"-inf",
        });
        return;
    }
    let bits = x.to_bits();
    let neg = bits >> 63 == 1;
    let exp_bits = ((bits >> 52) & 0x7ff) as i32;
    let frac = bits & ((1u64 << 52) - 1);
    let (m, e) = if exp_bits == 0 {
        (frac, -1074)
    } else {
        (frac | (1u64 << 52), exp_bits - 1075)
    };
    let Some(n) = scaled_micro(m, e) else {
        out.extend_from_slice(format!("{x:.6}").as_bytes());
        return;
    };
    if neg {
        out.push(b'-');
    }
    push_micro(out, n);
}

/// `round_half_even(m × 2^e × 10^6)`, or `None` when it may not fit in 128 bits.
fn scaled_micro(m: u64, e: i32) -> Option<u128> {
    const MICRO: u128 = 1_000_000;
    let p = u128::from(m) * MICRO; // < 2^73
    if e >= 0 {
        if e > 54 {
            return None;
        }
        return Some(p << e);
    }
    let s = (-e) as u32;
    if s >= 100 {
        return Some(0); // below 2^-27 × 10^6: far under half a millionth
    }
    let q = p >> s;
    let r = p & ((1u128 << s) - 1);
    let half = 1u128 << (s - 1);
    Some(if r > half || (r == half && q & 1 == 1) {
        q + 1
    } else {
        q
    })
}

const PAIRS: &[u8; 200] = b"0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839\
4041424344454647484950515253545556575859\
6061626364656667686970717273747576777879\
8081828384858687888990919293949596979899";

/// Writes `n / 10^6` as `integer.ffffff`.
fn push_micro(out: &mut Vec<u8>, n: u128) {
    let frac = if let Ok(n) = u64::try_from(n) {
        // The usual case, without 128-bit division.
        push_u64(out, n / 1_000_000);
        (n % 1_000_000) as u32
    } else {
        out.extend_from_slice((n / 1_000_000).to_string().as_bytes());
        (n % 1_000_000) as u32
    };
    let mut f = [b'.', 0, 0, 0, 0, 0, 0];
    let (a, b, c) = (frac / 10_000, (frac / 100) % 100, frac % 100);
    for (k, v) in [a, b, c].into_iter().enumerate() {
        let i = v as usize * 2;
        f[1 + 2 * k] = PAIRS[i];
        f[2 + 2 * k] = PAIRS[i + 1];
    }
    out.extend_from_slice(&f);
}

/// Appends the decimal digits of `n`.
pub fn push_u64(out: &mut Vec<u8>, mut n: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    while n >= 100 {
        let k = (n % 100) as usize * 2;
        n /= 100;
        i -= 2;
        buf[i] = PAIRS[k];
        buf[i + 1] = PAIRS[k + 1];
    }
    if n >= 10 {
        let k = n as usize * 2;
        i -= 2;
        buf[i] = PAIRS[k];
        buf[i + 1] = PAIRS[k + 1];
    } else {
        i -= 1;
        buf[i] = b'0' + n as u8;
    }
    out.extend_from_slice(&buf[i..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f6(x: f64) -> String {
        let mut v = Vec::new();
        push_f6(&mut v, x);
        String::from_utf8(v).unwrap()
    }

    #[test]
    fn known_values() {
        assert_eq!(f6(0.0), "0.000000");
        assert_eq!(f6(-0.0), "-0.000000");
        assert_eq!(f6(531.6850356), "531.685036");
        assert_eq!(f6(-756.0), "-756.000000");
        assert_eq!(f6(0.5), "0.500000");
        assert_eq!(f6(1e-7), "0.000000");
        assert_eq!(f6(-1e-7), "-0.000000");
        assert_eq!(f6(f64::MIN_POSITIVE / 4.0), "0.000000");
        assert_eq!(f6(f64::NAN), "nan");
        assert_eq!(f6(f64::NEG_INFINITY), "-inf");
        assert_eq!(f6(1e300), format!("{:.6}", 1e300));
    }

    #[test]
    fn exact_ties_round_to_even() {
        // 0.0000005 is not exact in binary, but these are: 2^-21 = 0.000000476837158203125.
        assert_eq!(f6(0.5 / 1048576.0), "0.000000");
        // x.xxxxxx5 exactly: 1.0000005 is not representable; use k/2^7 with seven decimals.
        assert_eq!(f6(0.0078125), "0.007812"); // 2^-7 = 0.0078125: tie, 2 is even
        assert_eq!(f6(0.0234375), "0.023438"); // 3 × 2^-7: tie, rounds 7 up to 8
    }
}
