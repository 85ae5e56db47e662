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

/// Two runs read by a program using the library, as `hpgraph --compare` reads them.
fn compared(job: &hpgraph::engine::Job, runs: [&Path; 2]) -> Result<Vec<u8>, String> {
    use hpgraph::engine::{self, Input};
    use hpgraph::input::prof::retainers::Sets;
    let names = runs.map(|p| p.display().to_string());
    let read = |k: usize| Input {
        name: &names[k],
        parsed: hpgraph::input::read_file(&std::fs::File::open(runs[k]).unwrap(), job.read)
            .unwrap(),
        sets: Sets::Beside(runs[k]),
    };
    let (made, _) = engine::run_compare(job, [read(0), read(1)], &[], &mut |_, _| {})
        .map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    made.write(&mut out).unwrap();
    Ok(out)
}

#[test]
fn a_comparison_is_a_view_the_library_makes_as_the_command_line_does() {
    use hpgraph::backend::Format;
    use hpgraph::engine::{OutputKind, Request, View};
    let runs = [
        fixtures().join("eventlog-9.6/Leak-hc.hp"),
        fixtures().join("eventlog-9.10/Leak-hc.hp"),
    ];
    let paths = [runs[0].to_str().unwrap(), runs[1].to_str().unwrap()];
    for (name, normalised) in [("cmp.svg", false), ("cmp.html", false), ("cmp.svg", true)] {
        let dir = Scratch::new("library-compare");
        let mut args = vec!["--compare", paths[0], paths[1], "-o", name];
        args.extend(normalised.then_some("--compare-time=normalised"));
        assert_ok(&hpgraph(&dir.0, &args, None));
        let cli = std::fs::read(dir.path(name)).unwrap();
        let format = [Format::Svg, Format::Html][usize::from(name.ends_with("html"))];
        let mut request = Request::new(OutputKind::Picture(format));
        (request.compare, request.normalised) = (true, normalised);
        let job = request.job();
        assert!(matches!(job.view, View::Compare(_)), "{:?}", job.view);
        let library = compared(&job, [&runs[0], &runs[1]]).unwrap();
        assert!(
            library == cli,
            "{args:?}: the library's comparison is not the command line's"
        );
    }
    // A job of one run's view is refused a comparison, and a comparison's job one run.
    let one = Request::new(OutputKind::Picture(Format::Svg)).job();
    let why = compared(&one, [&runs[0], &runs[1]]).unwrap_err();
    assert!(why.contains("--compare"), "{why}");
    let mut request = Request::new(OutputKind::Picture(Format::Svg));
    request.compare = true;
    let job = request.job();
    let input = hpgraph::engine::Input {
        name: "one",
        parsed: hpgraph::input::read_file(&std::fs::File::open(&runs[0]).unwrap(), one.read)
            .unwrap(),
        sets: hpgraph::input::prof::retainers::Sets::Beside(&runs[0]),
    };
    let refused = hpgraph::engine::run(&job, input, None, &[], &mut |_, _| {});
    assert!(
        refused.is_err_and(|e| e.to_string().contains("run_compare")),
        "one run of a comparison's job is refused"
    );
}

/// A library caller's job with a marker bound (#78) is refused until the run's markers
/// make it times (`Job::at_marks`, as the command line does), and then answers as the
/// command line: never the whole run in place of the window.
#[test]
fn a_marker_bound_is_resolved_before_the_engine_reads_the_run() {
    use hpgraph::backend::Format;
    use hpgraph::engine::{OutputKind, Request};
    let file = crate::common::fixtures().join("eventlog/Markers-hT.eventlog");
    let mut request = Request::new(OutputKind::Picture(Format::Svg));
    request.filter.from_mark = Some(
        hpgraph::select::marker::MarkRef::parse("mark:weighed")
            .unwrap()
            .unwrap(),
    );
    let job = request.job();
    let read =
        || hpgraph::input::read_file(&std::fs::File::open(&file).unwrap(), job.read).unwrap();
    let input = |parsed| hpgraph::engine::Input {
        name: "run",
        parsed,
        sets: hpgraph::input::prof::retainers::Sets::Beside(&file),
    };
    let refused = hpgraph::engine::run(&job, input(read()), None, &[], &mut |_, _| {});
    assert!(refused.is_err_and(|e| e.to_string().contains("Job::at_marks")));
    let parsed = read();
    let resolved = job
        .at_marks("run", parsed.profile.series())
        .unwrap()
        .unwrap();
    let marker = (parsed.profile.series().marks.iter())
        .find(|m| m.text.as_deref() == Some(&b"weighed"[..]))
        .unwrap()
        .time;
    assert_eq!(resolved.filter.from, Some(marker));
    assert!(hpgraph::engine::run(&resolved, input(parsed), None, &[], &mut |_, _| {}).is_ok());
}
