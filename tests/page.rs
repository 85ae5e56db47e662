//! The interactive HTML page as a file: self-contained, its policy, its key and table.
//! What it does in a browser is tested in Chromium (tests/browser, run by .ci/run).

mod common;

use std::fs;

use common::{Scratch, fixtures, hpgraph};

#[test]
fn the_html_page_is_one_self_contained_file() {
    let dir = Scratch::new("inspect");
    let path = fixtures().join("eventlog/Markers-hd.eventlog");
    let out = hpgraph(&dir.0, &[path.to_str().unwrap(), "-o", "m.html"], None);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
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
        let out = hpgraph(&dir.0, args, None);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let page = fs::read_to_string(dir.path("p.html")).unwrap();
        let data = &page[page.find("id=\"hpgraph-data\">").unwrap() + 18..];
        let data: serde_json::Value =
            serde_json::from_str(&data[..data.find("</script>").unwrap()]).unwrap();
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
