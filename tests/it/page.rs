//! The interactive HTML page as a file: self-contained, its policy, its key and table.
//! What it does in a browser is tested in Chromium (tests/browser, run by .ci/run).

use std::fs;

use crate::common::{Scratch, fixtures, hpgraph};

#[test]
fn the_html_page_is_one_self_contained_file() {
    let dir = Scratch::new("inspect");
    let path = fixtures().join("eventlog/Markers-hd.eventlog");
    let out = hpgraph(&dir.0, &[path.to_str().unwrap(), "-o", "m.html"], None);
    crate::common::assert_ok(&out);
    let html = fs::read_to_string(dir.path("m.html")).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    // No address but SVG's namespace name, which is never fetched.
    let addresses = html.matches("http://").count() + html.matches("https://").count();
    let namespaces = html.matches("http://www.w3.org/2000/svg").count();
    assert_eq!(addresses, namespaces, "no address to load");
    for bad in ["<link", " src=", "@import", "url(", "<iframe", "<img"] {
        assert!(!html.contains(bad), "{bad}");
    }
    assert!(
        html.contains("default-src 'none'"),
        "a policy that forbids requests"
    );
    assert!(html.contains("id=\"tooltip\""));
    // Every band of the picture is a path with its name, and has a key entry that is
    // not a path.
    let paths: Vec<&str> = html
        .split("<path ")
        .skip(1)
        .map(|p| p.split('>').next().unwrap())
        .filter_map(|tag| {
            tag.split_once("data-band=\"")
                .map(|(_, r)| r.split('"').next().unwrap())
        })
        .collect();
    let entries: Vec<&str> = html
        .split("<li data-band=\"")
        .skip(1)
        .map(|r| r.split('"').next().unwrap())
        .collect();
    assert!(entries.len() >= 3);
    let mut a = paths.clone();
    let mut b = entries.clone();
    a.sort();
    b.sort();
    assert_eq!(a, b);
    assert!(html.contains("<table id=\"summary\">"));
}

#[test]
fn the_page_carries_the_largest_bands_up_to_its_limit() {
    let dir = Scratch::new("page-rows");
    let limit = hpgraph::analysis::page::MAX_TABLE_ROWS;
    let mut hp =
        String::from("JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n");
    for t in 0..2 {
        hp += &format!("BEGIN_SAMPLE {t}\n");
        for k in 0..limit + 500 {
            hp += &format!("band{k}\t{}\n", 1000 + k);
        }
        hp += &format!("END_SAMPLE {t}\n");
    }
    fs::write(dir.path("many.hp"), &hp).unwrap();
    for (args, rows) in [
        (&["many.hp", "-o", "p.html"][..], limit),
        (&["many.hp", "-o", "p.html", "--top", "1200"], 1200),
    ] {
        let data = page_data(&dir, args);
        // The bands on their own (drawn and carried for the table and for ranking a
        // zoomed window), the largest; the rest as one sum that says how many.
        let names: Vec<&str> = data["bands"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|b| b.get("other").is_none())
            .chain(data["pool"].as_array().unwrap())
            .map(|b| b["name"].as_str().unwrap())
            .collect();
        assert_eq!(names.len(), rows, "{args:?}");
        assert!(
            names.contains(&"band1499") && !names.contains(&"band0"),
            "{args:?}"
        );
        assert_eq!(data["rest"][0], limit + 500 - rows, "{args:?}");
    }
}

/// A report of more stacks than a page lists (`analysis::page::tree::MAX_TREE_ROWS`):
/// the table keeps the heaviest, each under its caller, says how many it left out, and
/// its root's inherited figures are still the whole report's.
#[test]
fn a_reports_table_lists_its_heaviest_stacks_up_to_the_limit() {
    use hpgraph::analysis::page::tree::MAX_TREE_ROWS;
    let dir = Scratch::new("page-wide-report");
    let n = MAX_TREE_ROWS + 1000;
    let mut text = String::from(
        "\tThu Nov 26 00:00 2026 Time and Allocation Profiling Report  (Final)\n\n\t   p +RTS -P -RTS\n\n\
         \ttotal time  =        0.01 secs   (10 ticks @ 1000 us, 1 processor)\n\
         \ttotal alloc =       1,000 bytes  (excludes profiling overheads)\n\n\
         COST CENTRE MODULE SRC        no.     entries  %time %alloc   %time %alloc  ticks     bytes\n\n\
         MAIN        MAIN   <built-in>   1           0    0.0    0.0   100.0  100.0      0         0\n",
    );
    // Stack k is entered k times, spends k + 1 ticks and allocates k bytes: the
    // heaviest in every measure are the last.
    for k in 0..n {
        text.push_str(&format!(
            " f{k:<9} Main   <built-in> {:>4} {k:>11}    0.0    0.0     0.0    0.0 {:>6} {k:>9}\n",
            k + 2,
            k + 1
        ));
    }
    fs::write(dir.path("wide.prof"), &text).unwrap();
    let data = page_data(&dir, &["wide.prof", "-o", "p.html"]);
    let tree = &data["tree"];
    let rows = tree["rows"].as_array().unwrap();
    assert_eq!(rows.len(), MAX_TREE_ROWS);
    assert_eq!(tree["hidden"], n + 1 - MAX_TREE_ROWS);
    let frames = data["frames"].as_array().unwrap();
    let name = |r: &serde_json::Value| frames[r[0].as_u64().unwrap() as usize].as_str().unwrap();
    assert_eq!(name(&rows[0]), "MAIN.MAIN");
    assert!(rows[1..].iter().all(|r| r[1] == 0), "each stack under MAIN");
    // The lightest left out: f0 up to f(n - MAX_TREE_ROWS) are not listed.
    let lightest_kept = n - (MAX_TREE_ROWS - 1);
    assert!(
        rows.iter()
            .any(|r| name(r) == format!("Main.f{lightest_kept}"))
    );
    assert!(
        !rows
            .iter()
            .any(|r| name(r) == format!("Main.f{}", lightest_kept - 1))
    );
    let ticks: u64 = (1..=n as u64).sum();
    assert_eq!(
        tree["inherited"][0][0], ticks,
        "MAIN's inherited time is every stack's"
    );
    assert_eq!(tree["own"][2][1], lightest_kept, "entries");
}

/// Runs hpgraph with `args` (writing `p.html`) and reads the page's data.
fn page_data(dir: &Scratch, args: &[&str]) -> serde_json::Value {
    let out = hpgraph(&dir.0, args, None);
    crate::common::assert_ok(&out);
    let page = fs::read_to_string(dir.path("p.html")).unwrap();
    let data = &page[page.find("id=\"hpgraph-data\">").unwrap() + 18..];
    serde_json::from_str(&data[..data.find("</script>").unwrap()]).unwrap()
}
