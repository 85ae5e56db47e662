//! A window between two markers (#78): `--from 'mark:…' --to 'mark:…'` is the window
//! between the markers' own times, as ghc-events reads them (`scripts/markers-oracle.hs`,
//! the `.marks` beside each eventlog): the same censuses, the same `--stats`, the same
//! flame graph of the window's mean. Real runs of fixtures/programs/Markers.hs on GHC
//! 9.0.2, 9.6.6 and 9.10.3, a heap profile by closure type and by cost centre. A marker
//! that is not there is an error that names the texts nearest it.

use crate::common::{self, Scratch, fixtures, hpgraph};

/// The markers ghc-events reads: each one's time in seconds and its text.
fn oracle(marks: &std::path::Path) -> Vec<(f64, String)> {
    std::fs::read_to_string(marks)
        .unwrap()
        .lines()
        .map(|l| {
            let (ns, text) = l.split_once('\t').unwrap();
            (ns.parse::<f64>().unwrap() / 1e9, text.to_string())
        })
        .collect()
}

#[test]
fn a_window_between_markers_is_the_window_between_their_times() {
    let dir = Scratch::new("markers");
    let mut compared = 0;
    for ghc in ["eventlog", "eventlog-9.6", "eventlog-9.10"] {
        for run in ["Markers-hT", "Markers-hc"] {
            let input = fixtures().join(format!("{ghc}/{run}.eventlog"));
            let marks = oracle(&fixtures().join(format!("{ghc}/{run}.marks")));
            assert_eq!(marks.len(), 4, "{run}: {marks:?}");
            let time = |prefix: &str| {
                marks
                    .iter()
                    .find(|(_, t)| t.starts_with(prefix))
                    .map(|m| format!("{}", m.0))
                    .unwrap()
            };
            let input = input.to_str().unwrap();
            // From the first marker's end of building to the last: every census between.
            let by_marks = ["--from", "mark:built", "--to", "mark:done"];
            let (from, to) = (time("built"), time("done"));
            let by_times = ["--from", from.as_str(), "--to", to.as_str()];
            for output in [
                &["--format", "csv", "-o", "-"][..],
                &["--stats"],
                &["--flame=mean", "--format", "svg", "-o", "-"],
                &["--summary=json"],
            ] {
                let got = hpgraph(&dir.0, &[&[input][..], &by_marks, output].concat(), None);
                let want = hpgraph(&dir.0, &[&[input][..], &by_times, output].concat(), None);
                common::assert_ok(&got);
                common::assert_ok(&want);
                assert!(!want.stdout.is_empty(), "{run} {output:?}: nothing written");
                assert_eq!(
                    String::from_utf8_lossy(&got.stdout),
                    String::from_utf8_lossy(&want.stdout),
                    "{ghc}/{run} {output:?}"
                );
                compared += 1;
            }
            // The Nth marker that starts so; the first of several.
            let nth = hpgraph(
                &dir.0,
                &[input, "--from", "mark:w#1", "--to", "mark:d", "--stats"],
                None,
            );
            common::assert_ok(&nth);
        }
    }
    assert_eq!(compared, 24);
}

#[test]
fn a_marker_that_is_not_there_names_the_nearest() {
    let dir = Scratch::new("markers-missing");
    let input = fixtures().join("eventlog-9.6/Markers-hT.eventlog");
    let out = hpgraph(
        &dir.0,
        &[
            input.to_str().unwrap(),
            "--from",
            "mark:wieghed",
            "-o",
            "x.svg",
        ],
        None,
    );
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("--from mark:wieghed")
            && said.contains("nearest")
            && said.contains("`weighed`"),
        "{said}"
    );
    assert!(
        !dir.path("x.svg").exists(),
        "no output of a window that cannot be"
    );
    // A run without markers says so; a marker past the count says how many there are.
    let plain = fixtures().join("leak/ghc-9.6.6/Cache-hT.eventlog");
    let out = hpgraph(
        &dir.0,
        &[plain.to_str().unwrap(), "--to", "mark:done", "--stats"],
        None,
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("no markers with text"));
    let out = hpgraph(
        &dir.0,
        &[input.to_str().unwrap(), "--to", "mark:done#2", "--stats"],
        None,
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("1 marker(s) start with `done`"));
    // With --compare, each run's markers would make its own window: refused.
    let out = hpgraph(
        &dir.0,
        &[
            "--compare",
            input.to_str().unwrap(),
            input.to_str().unwrap(),
            "--from",
            "mark:start",
        ],
        None,
    );
    assert!(!out.status.success());
}

/// `--marks REGEX` (eventlog2html's `-i`): only the markers whose text matches are
/// drawn and written, while a window's bounds still find any of them.
#[test]
fn marks_filtered_by_their_text() {
    let dir = Scratch::new("markers-filtered");
    for ghc in ["eventlog", "eventlog-9.6", "eventlog-9.10"] {
        let input = fixtures().join(format!("{ghc}/Markers-hT.eventlog"));
        let input = input.to_str().unwrap();
        let marks = oracle(&fixtures().join(format!("{ghc}/Markers-hT.marks")));
        let written = |extra: &[&str]| {
            let out = hpgraph(
                &dir.0,
                &[&[input, "--format", "hp", "-o", "-"][..], extra].concat(),
                None,
            );
            common::assert_ok(&out);
            String::from_utf8_lossy(&out.stdout)
                .lines()
                .filter_map(|l| l.strip_prefix("MARK ").map(str::to_string))
                .collect::<Vec<_>>()
        };
        let all = written(&[]);
        assert_eq!(all.len(), marks.len(), "{ghc}: {all:?}");
        // Those starting with `w` or `d`: "weighed" and "done (twice the work)".
        let kept = written(&["--marks", "^(w|d)"]);
        let want: Vec<String> = (marks.iter())
            .filter(|(_, t)| t.starts_with('w') || t.starts_with('d'))
            .map(|(time, _)| format!("{time}"))
            .collect();
        assert_eq!(kept, want, "{ghc}");
        // A bound by a marker the filter leaves out still finds it.
        let bounded = written(&["--marks", "^w", "--from", "mark:built"]);
        assert_eq!(bounded.len(), 1, "{ghc}: {bounded:?}");
    }
}
