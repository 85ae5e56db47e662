//! The pipeline's layer rules (docs/architecture.md), checked on the source: each
//! stage uses only the stages below it. A rule broken here is an import that makes a
//! stage know more than its inputs.

use std::path::{Path, PathBuf};

/// A module and the modules it must not use (outside its tests).
const RULES: &[(&str, &[&str])] = &[
    (
        "profile",
        &[
            "input", "select", "analysis", "layout", "scene", "backend", "export", "serve", "sink",
            "cli", "engine",
        ],
    ),
    (
        "units.rs",
        &[
            "input", "select", "analysis", "layout", "scene", "backend", "export", "serve", "sink",
            "cli", "engine",
        ],
    ),
    (
        "escape.rs",
        &[
            "input", "select", "analysis", "layout", "scene", "backend", "export", "serve", "sink",
            "cli", "engine",
        ],
    ),
    (
        "input",
        &[
            "select", "analysis", "layout", "scene", "backend", "export", "serve", "sink", "cli",
            "engine",
        ],
    ),
    (
        "select",
        &[
            "input", "analysis", "layout", "scene", "backend", "export", "serve", "sink", "cli",
            "engine",
        ],
    ),
    (
        "analysis",
        &[
            "input", "layout", "scene", "backend", "export", "serve", "sink", "cli", "engine",
        ],
    ),
    (
        "layout",
        &[
            "input", "analysis", "backend", "export", "serve", "sink", "cli", "engine",
        ],
    ),
    (
        "scene",
        &[
            "input", "select", "analysis", "layout", "backend", "export", "serve", "sink", "cli",
            "engine",
        ],
    ),
    (
        "backend",
        &[
            "input", "select", "profile", "layout", "export", "serve", "sink", "cli", "engine",
        ],
    ),
    (
        "export",
        &[
            "input", "layout", "scene", "backend", "serve", "sink", "cli", "engine",
        ],
    ),
    (
        "serve.rs",
        &[
            "input", "select", "analysis", "layout", "scene", "backend", "export", "sink", "cli",
            "engine",
        ],
    ),
    (
        "check",
        &[
            "input", "select", "layout", "scene", "backend", "export", "serve", "sink", "cli",
            "engine",
        ],
    ),
    (
        "live.rs",
        &[
            "select", "analysis", "layout", "scene", "backend", "export", "sink", "cli", "engine",
            "profile",
        ],
    ),
    (
        "sink",
        &[
            "input", "select", "analysis", "layout", "scene", "backend", "export", "serve", "cli",
            "engine",
        ],
    ),
    (
        "program",
        &[
            "input", "select", "analysis", "layout", "scene", "backend", "export", "serve", "sink",
            "cli", "engine", "profile", "live", "check",
        ],
    ),
];

fn sources(module: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("src")
        .join(module);
    if root.is_file() {
        return vec![root];
    }
    let mut files = Vec::new();
    let mut dirs = vec![root];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                files.push(p);
            }
        }
    }
    files
}

/// The code of a file that the library is built from: its tests and comments left out.
fn code(path: &Path) -> Vec<(usize, String)> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .enumerate()
        .take_while(|(_, l)| l.trim() != "#[cfg(test)]")
        .filter(|(_, l)| !l.trim_start().starts_with("//"))
        .map(|(k, l)| (k + 1, l.to_string()))
        .collect()
}

#[test]
fn every_stage_uses_only_the_stages_below_it() {
    let mut broken = Vec::new();
    for (module, forbidden) in RULES {
        let files = sources(module);
        assert!(!files.is_empty(), "{module}: no sources");
        for file in files {
            for (line, text) in code(&file) {
                for f in *forbidden {
                    if text.contains(&format!("crate::{f}::"))
                        || text.contains(&format!("crate::{f};"))
                    {
                        broken.push(format!(
                            "{}:{line}: {module} uses {f}: {}",
                            file.display(),
                            text.trim()
                        ));
                    }
                }
            }
        }
    }
    assert!(
        broken.is_empty(),
        "layer rules broken:\n{}",
        broken.join("\n")
    );
}

#[test]
fn the_runs_take_the_resolved_description_not_the_command_line() {
    for file in ["run.rs", "watch.rs"] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("src/cli")
            .join(file);
        for (line, text) in code(&path) {
            assert!(
                !text.contains("Args"),
                "{file}:{line} reads the command line: {}",
                text.trim()
            );
        }
    }
}

#[test]
fn the_rules_can_fail() {
    // The check itself finds an import: the layout stage does use the selection.
    let found = sources("layout")
        .iter()
        .flat_map(|f| code(f))
        .any(|(_, t)| t.contains("crate::select::"));
    assert!(found);
}

/// What a page's script must not hold, because the library owns it: a unit's name
/// (the page is handed its units), a hash (the page is handed each band's colour), the
/// rule that splits a name into frames (the page is handed each band's stack), the
/// profile's unit words compared as text, and each rule the page once repeated: thinning
/// (the library's levels choose the columns), the flame tree and its row limit (laid out
/// by the library), the strip's merging (the library's levels), the runtime lines' names
/// and widths (the scene's), the "GHC cut" texts, a window's area summed in the page.
const SCRIPT_RULES: &[(&str, &str)] = &[
    ("\"kB\"", "a unit's name"),
    ("\"MB\"", "a unit's name"),
    ("\"GB\"", "a unit's name"),
    ("\"KiB\"", "a unit's name"),
    ("\"MiB\"", "a unit's name"),
    ("\"GiB\"", "a unit's name"),
    ("\"bytes\"", "a unit compared as text"),
    ("\"seconds\"", "a unit compared as text"),
    ("Math.imul", "a hash"),
    ("charCodeAt", "a hash"),
    ("0x811c9dc5", "a hash"),
    ("16777619", "a hash"),
    ("split(\"/\")", "the rule that splits a name into frames"),
    ("split('/')", "the rule that splits a name into frames"),
    ("\\(\\d+\\)", "the rule that strips a stack's number"),
    ("\"...\"", "the rule that finds a name GHC cut"),
    ("=== \"s\"", "a time unit compared as text"),
    ("!== \"s\"", "a time unit compared as text"),
    ("bins", "thinning: the library's levels choose the columns"),
    (
        "kids",
        "a flame tree built in the page: the library lays its frames out",
    ),
    ("MAX_ROWS", "the flame graph's row limit: the library's"),
    (
        "marks.push(",
        "the collections' strip merged in the page: the library's levels",
    ),
    (
        "\"heap size\"",
        "a runtime line named in the page: the scene names it",
    ),
    (
        "\"live bytes\"",
        "a runtime line named in the page: the scene names it",
    ),
    (
        "\"blocks in use\"",
        "a runtime line named in the page: the scene names it",
    ),
    (
        "GHC cut this",
        "a note of the library's written in the page",
    ),
    (
        "function area(",
        "a window's area summed outside figures.js",
    ),
];

/// The page's scripts together stay under this many lines: the library computes, the
/// page draws. (700 until a cost profile's table and samples strip, `costs.js`, joined
/// them: it sorts and folds rows the library summed, and adds a dragged stretch's
/// samples; 900 until the allocation rate's panel, whose axis rescales with the zoom;
/// 940 until the samples beside a heap profile, whose strip, flame graph and table follow
/// the chart's window: the flame graph's drawing moved to `flame.js` to serve both;
/// 1020 until the members' and the ticky counters' tables, `lists.js`, which sort rows
/// the library weighed and narrow the bands to a member's as the filter does; 1140 until
/// an eventlog's graph started at the program's start, the stretch before its first
/// census shaded and named at every zoom.)
const MAX_SCRIPT_LINES: usize = 1150;

#[test]
fn the_pages_scripts_stay_small() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/backend/html");
    let mut lines = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "js") {
            lines += std::fs::read_to_string(&p).unwrap().lines().count();
        }
    }
    assert!(
        lines < MAX_SCRIPT_LINES,
        "the page's scripts hold {lines} lines, the limit is {MAX_SCRIPT_LINES}"
    );
}

/// The page's scripts, each with its lines (comments left out).
fn scripts() -> Vec<(PathBuf, Vec<(usize, String)>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/backend/html");
    let mut out = Vec::new();
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "js") {
            let lines = std::fs::read_to_string(&p)
                .unwrap()
                .lines()
                .enumerate()
                .filter(|(_, l)| !l.trim_start().starts_with("//"))
                .map(|(k, l)| (k + 1, l.to_string()))
                .collect();
            out.push((p, lines));
        }
    }
    out
}

fn script_breaks(lines: &[(usize, String)]) -> Vec<String> {
    let mut broken = Vec::new();
    for (line, text) in lines {
        for (needle, what) in SCRIPT_RULES {
            if text.contains(needle) {
                broken.push(format!("{line}: {what} ({needle}): {}", text.trim()));
            }
        }
    }
    broken
}

#[test]
fn the_pages_scripts_name_no_unit_hash_or_splitting_rule() {
    let scripts = scripts();
    assert!(scripts.len() >= 3, "page.js, compare.js, figures.js");
    let mut broken = Vec::new();
    for (path, lines) in &scripts {
        broken.extend(
            script_breaks(lines)
                .into_iter()
                .map(|b| format!("{}:{b}", path.display())),
        );
    }
    assert!(
        broken.is_empty(),
        "the page's script holds what the library owns:\n{}",
        broken.join("\n")
    );
}

#[test]
fn the_script_rules_can_fail() {
    // The page's script as it was: its own unit table, FNV hash and name splitting.
    let old = [
        r#"var DECIMAL = [[1e12, "TB"], [1e9, "GB"], [1e6, "MB"], [1e3, "kB"], [1, "B"]];"#,
        r#"for (var i = 0; i < name.length; i++) { h ^= name.charCodeAt(i); h = Math.imul(h, 16777619) >>> 0; }"#,
        r#"var bare = name.replace(/^\(\d+\)/, "");"#,
        r#"return { labels: bare.split("/").reverse(), cut: bare.slice(-3) === "..." };"#,
        r#"bytes = D.value_unit === "bytes";"#,
        r#"if (timeUnit !== "s") return String(t) + (timeUnit ? " " + timeUnit : "");"#,
        r#"function thinned(cols, all, bins) {"#,
        r#"var root = { name: "all", bytes: 0, own: 0, kids: new Map(), parent: null, depth: 0 };"#,
        r#"var MAX_ROWS = 60;"#,
        r#"if (m && x0 <= m[1] + 0.5) { m[1] = Math.max(m[1], x1); } else marks.push([x0, x1, major]);"#,
        r#"{ name: "heap size", points: D.heap_size, width: 1.5, dash: "none" },"#,
        r#"if (n.cut) text += " (GHC cut this name at -L: its callers are unknown)";"#,
        r#"function area(values, w) {"#,
    ]
    .iter()
    .enumerate()
    .map(|(k, l)| (k + 1, l.to_string()))
    .collect::<Vec<_>>();
    let broken = script_breaks(&old);
    for line in 1..=13 {
        assert!(
            broken.iter().any(|b| b.starts_with(&format!("{line}:"))),
            "line {line} not caught: {broken:?}"
        );
    }
}

/// The code lines of `modules` (outside their tests) that hold any of `words`.
fn lines_holding(modules: &[&str], words: &[&str]) -> Vec<String> {
    let mut found = Vec::new();
    for module in modules {
        for file in sources(module) {
            for (line, text) in code(&file) {
                if words.iter().any(|w| text.contains(w)) {
                    found.push(format!("{}:{line}: {}", file.display(), text.trim()));
                }
            }
        }
    }
    found
}

#[test]
fn colours_are_chosen_by_the_layout_alone() {
    // The scene carries the paints the layout chose (the picture's and a page's); no
    // backend and no scene code chooses one by name, palette or distance.
    let choosing = [
        "stable_index(",
        "distinct_paints(",
        "with_variants(",
        "fn lab(",
    ];
    let broken = lines_holding(&["backend", "scene"], &choosing);
    assert!(
        broken.is_empty(),
        "colour chosen outside the layout:\n{}",
        broken.join("\n")
    );
}

#[test]
fn units_are_read_once_where_the_profile_is_read() {
    // SAMPLE_UNIT and VALUE_UNIT are read into `Profile::units` by the readers (and by
    // `Profile::set_units`); every output takes the kinds from there.
    let after_input = [
        "select", "analysis", "layout", "scene", "backend", "export", "engine", "cli",
    ];
    let reading = [
        "TimeUnit::of(",
        "ValueUnit::of(",
        "Units::of(",
        "b\"seconds\"",
        "b\"bytes\"",
    ];
    let broken = lines_holding(&after_input, &reading);
    assert!(
        broken.is_empty(),
        "a unit read again:\n{}",
        broken.join("\n")
    );
}

#[test]
fn which_model_a_profile_is_asked_in_two_places() {
    // The reader says whether it made a heap or a cost-centre profile (`Model`); past
    // it, the engine matches the model in its one dispatch and in `--compare`'s pair,
    // and every stage takes the type it works on.
    let after_input = [
        "select", "analysis", "layout", "scene", "backend", "export", "check", "engine", "cli",
        "sink", "live.rs", "serve.rs",
    ];
    let asking = ["Model::Heap(", "Model::Costs("];
    let found = lines_holding(&after_input, &asking);
    let places: std::collections::BTreeSet<&str> = (found.iter())
        .map(|l| l.split(':').next().unwrap_or(""))
        .collect();
    let allowed = |f: &str| f.ends_with("engine/model.rs") || f.ends_with("engine/run.rs");
    assert!(
        places.iter().all(|f| allowed(f)) && found.len() <= 3,
        "the model asked outside the engine's dispatch and --compare's pair:\n{}",
        found.join("\n")
    );
    // And nothing asks the old way.
    assert!(lines_holding(&after_input, &["is_cost_report("]).is_empty());
}
