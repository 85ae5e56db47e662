//! The eventlog reader never panics; feeding an input in two pieces (cut where the first
//! byte says, as a file read in blocks or still being written arrives, and passing over
//! what a seeking reader would pass over) gives exactly what feeding it whole gives; and
//! a profile read from an eventlog, written as `.hp` text and read back, is
//! the same profile (times, marks, names, every point), for the names `.hp` text can hold.
#![no_main]

use hpgraph::input::{Options, eventlog, hp};
use libfuzzer_sys::fuzz_target;

fn read(
    data: &[u8],
    options: Options,
    cut: usize,
) -> Result<hpgraph::input::Parsed, eventlog::Error> {
    let mut p = eventlog::Parser::with_options(options);
    let used = p.feed(&data[..cut], false)?;
    let mut rest = data[used..cut].to_vec();
    rest.extend_from_slice(&data[cut..]);
    // What a seeking caller would pass over is not fed again.
    let skip = (p.skippable() as usize).min(rest.len());
    p.skipped(skip as u64);
    p.feed(&rest[skip..], true)?;
    p.finish()
}

/// The `.hp` grammar's blanks.
fn blank(b: &u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | 0x0b | 0x0c)
}

/// Names that a `.hp` line holds as they are: no line break, no blank at either end
/// (the name ends at the last run of blanks), not empty, not a keyword.
fn plain(name: &[u8]) -> bool {
    !name.is_empty()
        && !name.iter().any(|&b| b == b'\n' || b == b'\r' || b == 0)
        && !name.first().is_some_and(|b| blank(b) || b.is_ascii_digit())
        && !name.last().is_some_and(blank)
        && !name.starts_with(b"BEGIN_SAMPLE")
        && !name.starts_with(b"END_SAMPLE")
        && !name.starts_with(b"MARK")
        && !name.starts_with(b"JOB")
        && !name.starts_with(b"DATE")
        && !name.starts_with(b"SAMPLE_UNIT")
        && !name.starts_with(b"VALUE_UNIT")
}

fuzz_target!(|data: &[u8]| {
    let whole = eventlog::parse(data);
    let cut = if data.is_empty() {
        0
    } else {
        data[0] as usize * data.len() / 256
    };
    let pieces = read(data, Options::default(), cut);
    match (&whole, &pieces) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "pieces differ from the whole"),
        (Err(a), Err(b)) => assert_eq!(a, b, "errors differ"),
        _ => panic!("one way failed, the other did not: {whole:?} vs {pieces:?}"),
    }
    let Ok(parsed) = whole else {
        return;
    };
    let p = parsed.profile.series();
    if p.bands.names().iter().all(|n| plain(n)) && p.times.iter().all(|t| t.is_finite()) {
        let mut text = Vec::new();
        hpgraph::export::hp::write(p, &mut text).unwrap();
        let back = hp::parse(&text)
            .expect("hpgraph reads the .hp text it writes")
            .profile;
        assert_eq!(back.times, p.times);
        assert_eq!(back.marks, p.marks);
        assert_eq!(back.bands.names(), p.bands.names());
        assert_eq!(back.bands.series(), p.bands.series());
    }
});
