//! An input read in part says so in every view: `--summary` (text and JSON: `complete`,
//! what was lost, its byte, the stretch read), the page under its heading, a modern
//! figure's title row; an input read whole says nothing of the kind. The runs are real:
//! the pandoc run GHC 9.0.2 wrote with a time sample inside a census event, cut where a
//! killed program leaves it and garbled where two writers raced; the censuses read are
//! held to those of the `.hp` GHC wrote beside it in the same run.

use crate::common::{Scratch, fixtures, hpgraph, hpgraph_ok};

/// The run's eventlog, and how many censuses GHC's own `.hp` of it has (less the empty
/// ones it writes at the start and end, which the eventlog does not have).
fn run() -> (Vec<u8>, usize) {
    let dir = fixtures().join("interleaved/ghc-9.0.2");
    let eventlog = std::fs::read(dir.join("Pandoc-hc.eventlog")).unwrap();
    let hp = std::fs::read_to_string(dir.join("Pandoc-hc.hp")).unwrap();
    let censuses = hp.matches("BEGIN_SAMPLE ").count() - 2;
    (eventlog, censuses)
}

fn summary(dir: &Scratch, file: &str) -> serde_json::Value {
    let out = hpgraph_ok(&dir.0, &[file, "--summary=json", "--top", "1"]);
    serde_json::from_slice(&out).unwrap()
}

#[test]
fn a_cut_eventlogs_summary_says_what_was_read_and_where_it_stops() {
    let (eventlog, censuses) = run();
    let dir = Scratch::new("partial-cut");
    std::fs::write(dir.0.join("whole.eventlog"), &eventlog).unwrap();
    let whole = summary(&dir, "whole.eventlog");
    assert_eq!(whole["complete"], true, "{whole}");
    assert!(whole.get("loss").is_none(), "{whole}");
    assert_eq!(whole["samples"], censuses);
    let first = whole["window"]["from"].as_f64().unwrap();
    // Cut where a killed program's eventlog ends, inside its last block (which holds the
    // censuses, and a time sample written inside one of them).
    let mut stops = Vec::new();
    for k in 1..=3 {
        let cut = eventlog.len() - 300_000 + 300_000 * k / 4;
        std::fs::write(dir.0.join("cut.eventlog"), &eventlog[..cut]).unwrap();
        let s = summary(&dir, "cut.eventlog");
        assert_eq!(s["complete"], false, "cut at {cut}: {s}");
        let read = &s["loss"]["read"];
        let (from, to) = (read["from"].as_f64().unwrap(), read["to"].as_f64().unwrap());
        // Read from the program's start, where the eventlog's clock starts.
        assert_eq!(from, 0.0, "cut at {cut}");
        assert!(first > 0.0, "the first census comes after the start");
        let samples = s["samples"].as_u64().unwrap() as usize;
        assert!(samples < censuses, "cut at {cut}: {samples} censuses read");
        let what = s["loss"]["what"].as_str().unwrap();
        assert!(
            what == "the last census is cut" || what == "the eventlog ends before its end marker",
            "cut at {cut}: {what}"
        );
        stops.push(samples);
        // The text says it on its second line, with the stretch read.
        let text = String::from_utf8(hpgraph_ok(&dir.0, &["cut.eventlog", "--summary"])).unwrap();
        let said = text.lines().nth(1).unwrap();
        assert!(
            said.starts_with(&format!(
                "read in part: {what}: every figure is of what was read"
            )) && said.ends_with(&format!("to {}", hpgraph::units::seconds(to))),
            "{said}"
        );
    }
    // A later cut reads more of the run.
    assert!(stops.windows(2).all(|w| w[0] < w[1]), "{stops:?}");
}

#[test]
fn a_garbled_eventlog_says_how_many_bytes_from_where() {
    let (mut eventlog, censuses) = run();
    // Two writers racing: 400 bytes of the last block overwritten, after the events the
    // runtime wrote inside others (read apart still).
    let at = eventlog.len() - 30_000;
    eventlog[at..at + 400].fill(0xff);
    let dir = Scratch::new("partial-garbled");
    std::fs::write(dir.0.join("g.eventlog"), &eventlog).unwrap();
    let s = summary(&dir, "g.eventlog");
    assert_eq!(s["complete"], false, "{s}");
    let byte = s["loss"]["byte"].as_u64().unwrap() as usize;
    // The first byte lost is that of the event the garbage begins in (an event is at most
    // 64 kB and its header).
    assert!(
        byte <= at && at - byte < 65_560,
        "lost from byte {byte}, garbled at {at}"
    );
    let what = s["loss"]["what"].as_str().unwrap();
    let lost: usize = what.split(' ').next().unwrap().parse().unwrap();
    assert!(
        (400..400 + 65_560).contains(&lost)
            && what.ends_with(&format!("in 1 place do not read, the first at byte {byte}")),
        "{what}"
    );
    // The samples written inside censuses before the garbage are read apart still, as
    // many as in the run undamaged.
    let apart = |bytes: &[u8]| {
        let parsed = hpgraph::input::read(bytes, hpgraph::input::Options::default()).unwrap();
        (parsed.warnings.iter())
            .find_map(|w| match w.kind {
                hpgraph::input::WarningKind::ReadApart(n) => Some(n),
                _ => None,
            })
            .unwrap_or(0)
    };
    let (whole, _) = run();
    assert!(apart(&whole) > 0);
    assert_eq!(apart(&eventlog), apart(&whole));
    // The rest of the run is read past it, every census but those the garbage was in.
    let samples = s["samples"].as_u64().unwrap() as usize;
    assert!(
        samples + 1 >= censuses,
        "{samples} of {censuses} censuses read"
    );
}

#[test]
fn the_page_and_a_modern_figure_say_an_input_was_read_in_part() {
    let (eventlog, _) = run();
    let dir = Scratch::new("partial-views");
    std::fs::write(dir.0.join("whole.eventlog"), &eventlog).unwrap();
    std::fs::write(
        dir.0.join("cut.eventlog"),
        &eventlog[..eventlog.len() - 100_000],
    )
    .unwrap();
    for (file, cut) in [("whole", false), ("cut", true)] {
        let input = format!("{file}.eventlog");
        hpgraph_ok(&dir.0, &[&input, "-o", &format!("{file}.html")]);
        let page = std::fs::read_to_string(dir.0.join(format!("{file}.html"))).unwrap();
        let note = page.contains("<p id=\"loss\" class=\"loss\" role=\"note\">Read in part: ");
        assert_eq!(note, cut, "{file}: the page's note");
        for size in ["9inx6in", "8.5cmx5.5cm"] {
            let svg = format!("{file}.svg");
            hpgraph_ok(&dir.0, &[&input, "--size", size, "-o", &svg]);
            let svg = std::fs::read_to_string(dir.0.join(&svg)).unwrap();
            let said = crate::common::without_markup(&svg).contains("read in part: ");
            assert_eq!(said, cut, "{file} at {size}: the figure's title row");
        }
    }
    // Where hp2ps draws, its box holds what hp2ps's does, read in part or not.
    let out = hpgraph(
        &dir.0,
        &["cut.eventlog", "--style", "hp2ps", "-o", "c.ps"],
        None,
    );
    crate::common::assert_ok(&out);
    let ps = std::fs::read_to_string(dir.0.join("c.ps")).unwrap();
    assert!(!ps.contains("read in part"));
}
