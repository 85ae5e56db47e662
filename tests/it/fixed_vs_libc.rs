//! The fast `%f` formatter must print exactly what C's `printf("%f")` prints. Checked
//! against glibc's own `snprintf` on millions of values: coordinates like the layout's,
//! exact ties, and random bit patterns over the whole range it handles itself.

use std::ffi::CStr;

use hpgraph::backend::fixed::push_f6;

fn libc_f6(x: f64) -> String {
    let mut buf = [0 as libc::c_char; 512];
    // SAFETY: the buffer is large enough for any finite double up to ~1e300 with "%f"
    // truncated by snprintf's size argument, and the format takes exactly one double.
    unsafe {
        libc::snprintf(buf.as_mut_ptr(), buf.len(), c"%f".as_ptr(), x);
        CStr::from_ptr(buf.as_ptr()).to_string_lossy().into_owned()
    }
}

fn ours(x: f64) -> String {
    let mut v = Vec::new();
    push_f6(&mut v, x);
    String::from_utf8(v).unwrap()
}

fn check(x: f64, bad: &mut Vec<String>) {
    let (a, b) = (ours(x), libc_f6(x));
    if a != b && bad.len() < 20 {
        bad.push(format!("{x:e}: ours {a}, libc {b}"));
    }
}

#[test]
fn matches_glibc_on_millions_of_values() {
    let mut rng = crate::common::Rng(0x1234_5678_9abc_def1);
    let mut bad = Vec::new();
    for _ in 0..2_000_000 {
        // Page coordinates as the layout makes them.
        check(rng.unit() * 648.0, &mut bad);
        check(rng.unit() * 1e6 - 5e5, &mut bad);
    }
    for _ in 0..1_000_000 {
        // Any bit pattern whose magnitude is below 1e30.
        let x = f64::from_bits(rng.next());
        if x.is_finite() && x.abs() < 1e30 {
            check(x, &mut bad);
        }
    }
    for k in 0..1_000_000u64 {
        // Exact ties at the seventh decimal: odd multiples of 2^-7 .. 2^-20 scaled.
        let x = (2 * k + 1) as f64 / 128.0;
        check(x, &mut bad);
        check(-x / 1024.0, &mut bad);
        // Values whose sixth decimal sits on .5 in decimal but not in binary.
        check(k as f64 / 1e6 + 5e-7, &mut bad);
    }
    for x in [
        0.0,
        -0.0,
        1e-300,
        5e-324,
        2.5e-7,
        1e15,
        123_456_789.123_456_79,
        1e29,
    ] {
        check(x, &mut bad);
    }
    assert!(bad.is_empty(), "differs from glibc:\n{}", bad.join("\n"));
}
