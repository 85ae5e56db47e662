//! A program using the library and the command line make the same bytes for the same
//! request: the defaults are the library's ([`hpgraph::engine::Request`]), so a caller
//! who sets no option gets what `hpgraph FILE -o NAME.svg` draws, not another look.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{Scratch, assert_ok, fixtures, hpgraph};

/// `examples/svg.rs`, built beside the binary by `cargo test`.
fn example() -> PathBuf {
    let bin = Path::new(env!("CARGO_BIN_EXE_hpgraph"));
    bin.parent().unwrap().join("examples").join("svg")
}

#[test]
fn the_library_with_no_options_set_draws_the_command_lines_svg() {
    let inputs = [
        "eventlog/Leak-hc.hp",
        "eventlog-9.6/Leak-hT.hp",
        "eventlog-9.10/Leak-hr.hp",
        "eventlog/Leak-hT.eventlog",
        "prof/ghc-9.6.6/MapFib-P.prof",
    ];
    for input in inputs {
        let path = fixtures().join(input);
        let path = path.to_str().unwrap();
        let dir = Scratch::new("library");
        assert_ok(&hpgraph(&dir.0, &[path, "-o", "cli.svg"], None));
        let cli = std::fs::read(dir.path("cli.svg")).unwrap();
        let library = Command::new(example())
            .arg(path)
            .output()
            .expect("run examples/svg");
        assert_ok(&library);
        // The command line's defaults are the modern look's, not hp2ps's greys.
        // (Tableau's first colour, #4E79A7, fills a heap profile's largest band.)
        assert!(
            input.ends_with(".prof")
                || String::from_utf8_lossy(&cli)
                    .to_ascii_lowercase()
                    .contains("#4e79a7"),
            "{input}: no tableau10 fill in the command line's picture"
        );
        assert!(
            library.stdout == cli,
            "{input}: the library's SVG is not the command line's"
        );
    }
}
