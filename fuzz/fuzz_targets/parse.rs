//! The parser never panics, and feeding a profile in two pieces (as a file read in
//! blocks, or one still being written, arrives) gives exactly what one piece gives.
#![no_main]

use hpgraph::input::hp::{Parser, parse};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let whole = parse(data);
    let cut = if data.is_empty() {
        0
    } else {
        data[0] as usize * data.len() / 256
    };
    let mut p = Parser::new();
    let pieces = (|| {
        let used = p.feed(&data[..cut], false)?;
        let mut rest = data[used..cut].to_vec();
        rest.extend_from_slice(&data[cut..]);
        p.feed(&rest, true)?;
        p.finish()
    })();
    match (&whole, &pieces) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "pieces differ from the whole"),
        (Err(a), Err(b)) => assert_eq!(a, b, "errors differ"),
        _ => panic!("one way failed, the other did not: {whole:?} vs {pieces:?}"),
    }
});
