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

/// The crate's import graph, read from its source: each file a module (`engine::render`;
/// `engine` for `engine/mod.rs`), each path it names (`crate::…`, `super::…`, and in
/// the binary's `cli` `hpgraph::…`, grouped `use` trees included) an edge to the deepest
/// module that path reaches. A module's use of its own parent or child is no edge: a
/// `mod.rs` is its children's interface, and they implement it. What it cannot see: a
/// path reached through a re-export is an edge to the module that re-exports it.
struct Graph {
    /// Each module's path, its file and the edges out of it.
    modules: Vec<(Vec<String>, String, Vec<Edge>)>,
}

/// A use of another module: its index in [`Graph::modules`], and the line of the first.
type Edge = (usize, usize);

/// `path`'s module path inside the crate: `src/engine/render.rs` is `engine::render`,
/// `src/engine/mod.rs` `engine`, `src/lib.rs` and `src/main.rs` the root.
fn module_path(relative: &str) -> Vec<String> {
    let mut parts: Vec<String> = relative
        .trim_end_matches(".rs")
        .split('/')
        .map(str::to_string)
        .collect();
    if parts
        .last()
        .is_some_and(|l| l == "mod" || l == "lib" || l == "main")
    {
        parts.pop();
    }
    parts
}

/// The code of `text` that the crate is built from: its tests, comment lines and
/// trailing comments left out; each line with its number.
fn code_of(text: &str) -> String {
    text.lines()
        .take_while(|l| l.trim() != "#[cfg(test)]")
        .map(|l| match l.trim_start().starts_with("//") {
            true => "",
            false => l.split(" // ").next().unwrap_or(l),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The paths of a `use` tree or a path written at `text[at..]`: `a::b::{c, d::*}` is
/// `a::b::c` and `a::b::d`.
fn paths_at(text: &[u8], at: &mut usize) -> Vec<Vec<String>> {
    let skip = |at: &mut usize| {
        while *at < text.len() && text[*at].is_ascii_whitespace() {
            *at += 1;
        }
    };
    skip(at);
    if *at < text.len() && text[*at] == b'{' {
        *at += 1;
        let mut all = Vec::new();
        loop {
            skip(at);
            if *at >= text.len() || text[*at] == b'}' {
                *at += 1;
                return all;
            }
            all.extend(paths_at(text, at));
            skip(at);
            if *at < text.len() && text[*at] == b',' {
                *at += 1;
            }
        }
    }
    let start = *at;
    while *at < text.len() && (text[*at].is_ascii_alphanumeric() || text[*at] == b'_') {
        *at += 1;
    }
    if start == *at {
        if *at < text.len() && text[*at] == b'*' {
            *at += 1;
        }
        return vec![Vec::new()];
    }
    let ident = String::from_utf8_lossy(&text[start..*at]).into_owned();
    if text[*at..].starts_with(b"::") {
        *at += 2;
        return paths_at(text, at)
            .into_iter()
            .map(|mut rest| {
                rest.insert(0, ident.clone());
                rest
            })
            .collect();
    }
    vec![vec![ident]]
}

impl Graph {
    /// The graph of the crate's sources under `src/`.
    fn of_crate() -> Graph {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files: Vec<(String, String)> = sources("")
            .into_iter()
            .map(|f| {
                let relative = f.strip_prefix(&root).unwrap().display().to_string();
                (relative, std::fs::read_to_string(&f).unwrap())
            })
            .collect();
        files.sort();
        Graph::of(&files)
    }

    /// The graph of `files`: each its path under `src/` and its text.
    fn of(files: &[(String, String)]) -> Graph {
        let paths: Vec<Vec<String>> = files.iter().map(|(f, _)| module_path(f)).collect();
        let index = |path: &[String]| {
            (1..=path.len())
                .rev()
                .find_map(|n| paths.iter().position(|p| p.as_slice() == &path[..n]))
        };
        let mut modules = Vec::new();
        for ((file, text), here) in files.iter().zip(&paths) {
            let in_binary = file.starts_with("cli/") || file == "main.rs";
            let code = code_of(text);
            let bytes = code.as_bytes();
            let mut edges = Vec::new();
            for prefix in ["crate::", "super::", "hpgraph::"] {
                if prefix == "hpgraph::" && !in_binary {
                    continue;
                }
                let mut from = 0;
                while let Some(found) = code[from..].find(prefix) {
                    let at_start = from + found;
                    from = at_start + prefix.len();
                    if at_start > 0
                        && (bytes[at_start - 1].is_ascii_alphanumeric()
                            || bytes[at_start - 1] == b'_')
                    {
                        continue;
                    }
                    let line = code[..at_start].matches('\n').count() + 1;
                    // The module the prefix names: the crate's root, or this one's parent
                    // (a file's module is its own; `mod.rs`'s is its folder's).
                    let mut base: Vec<String> = match prefix {
                        "super::" => {
                            let mut up = here.clone();
                            up.pop();
                            up
                        }
                        _ => Vec::new(),
                    };
                    let mut at = from;
                    for path in paths_at(bytes, &mut at) {
                        let mut full = base.clone();
                        for segment in path {
                            match segment.as_str() {
                                "super" => {
                                    full.pop();
                                }
                                _ => full.push(segment),
                            }
                        }
                        if let Some(to) = index(&full)
                            && !paths[to].is_empty()
                            && !paths[to].starts_with(here)
                            && !here.starts_with(&paths[to])
                        {
                            edges.push((to, line));
                        }
                    }
                    base.clear();
                }
            }
            edges.sort();
            edges.dedup_by_key(|e| e.0);
            modules.push((here.clone(), file.clone(), edges));
        }
        Graph { modules }
    }

    /// The graph's circles, each written `a -> b -> a` with the file and line of each
    /// step, over `group`'s nodes: a module's name for the circles between files, its
    /// top module for those between stages.
    fn circles(&self, group: impl Fn(&[String]) -> String) -> Vec<String> {
        let names: Vec<String> = self.modules.iter().map(|m| group(&m.0)).collect();
        let mut nodes: Vec<&String> = names.iter().collect();
        nodes.sort();
        nodes.dedup();
        // node -> node, with one file:line that makes the step
        let mut steps: std::collections::BTreeMap<(&str, &str), String> = Default::default();
        for (k, (_, file, edges)) in self.modules.iter().enumerate() {
            for &(to, line) in edges {
                if names[k] != names[to] {
                    steps
                        .entry((&names[k], &names[to]))
                        .or_insert_with(|| format!("src/{file}:{line}"));
                }
            }
        }
        let mut found = Vec::new();
        let mut seen = std::collections::BTreeSet::new();
        for &start in &nodes {
            // The shortest way from each successor of `start` back to it.
            let mut from: std::collections::BTreeMap<&str, &str> = Default::default();
            let mut queue = std::collections::VecDeque::from([start.as_str()]);
            let mut back = None;
            while let Some(n) = queue.pop_front() {
                for (&(a, b), _) in steps.range((n, "")..) {
                    if a != n {
                        break;
                    }
                    if b == start {
                        back = Some(n);
                        break;
                    }
                    if !from.contains_key(b) {
                        from.insert(b, n);
                        queue.push_back(b);
                    }
                }
                if back.is_some() {
                    break;
                }
            }
            let Some(mut n) = back else { continue };
            let mut ring = vec![start.as_str()];
            while n != start.as_str() {
                ring.push(n);
                n = from[n];
            }
            ring[1..].reverse();
            let mut key = ring.clone();
            key.sort();
            if !seen.insert(key) {
                continue;
            }
            ring.push(start);
            let said: Vec<String> = ring
                .windows(2)
                .map(|w| format!("{} -> {} ({})", w[0], w[1], steps[&(w[0], w[1])]))
                .collect();
            found.push(said.join(", "));
        }
        found
    }

    /// The top modules `top` reaches, directly or through others, each with the way.
    fn reached_from(&self, top: &str) -> std::collections::BTreeMap<String, String> {
        let tops: Vec<String> = self.modules.iter().map(|m| top_of(&m.0)).collect();
        let mut way: std::collections::BTreeMap<String, String> = Default::default();
        let mut queue = std::collections::VecDeque::from([top.to_string()]);
        while let Some(t) = queue.pop_front() {
            for (k, (_, file, edges)) in self.modules.iter().enumerate() {
                if tops[k] != t {
                    continue;
                }
                for &(to, line) in edges {
                    let next = &tops[to];
                    if next != top && !way.contains_key(next) {
                        let before = way.get(&t).map_or(String::new(), |w| format!("{w}, "));
                        way.insert(next.clone(), format!("{before}src/{file}:{line} -> {next}"));
                        queue.push_back(next.clone());
                    }
                }
            }
        }
        way
    }
}

/// The stage a module belongs to: its first name (`units` for `units.rs`).
fn top_of(path: &[String]) -> String {
    path.first().cloned().unwrap_or_default()
}

/// The stages from the bottom up: each may use only those before it, so that no chain
/// of uses, however long, leads back up. (The [`RULES`] narrow it further, for direct
/// uses: a backend takes the analysis' numbers, never the profile they came from.)
const LAYERS: &[&str] = &[
    "units", "escape", "profile", "program", "input", "select", "analysis", "check", "scene",
    "layout", "backend", "export", "sink", "serve", "live", "error", "engine", "cli",
];

/// Each rule broken in `graph`: a stage that uses one above it in [`LAYERS`] (which
/// also makes every indirect use go down), or uses directly one its [`RULES`] forbid.
fn rules_broken(graph: &Graph) -> Vec<String> {
    let mut broken = Vec::new();
    let rank = |top: &str| LAYERS.iter().position(|l| *l == top);
    for (from, file, edges) in &graph.modules {
        let top = top_of(from);
        for &(to, line) in edges {
            let target = top_of(&graph.modules[to].0);
            if target == top {
                continue;
            }
            let at = format!("src/{file}:{line}");
            match (rank(&top), rank(&target)) {
                (Some(a), Some(b)) if a > b => {}
                (Some(_), Some(_)) => {
                    broken.push(format!("{at}: {top} uses {target}, a stage above it"))
                }
                _ => broken.push(format!("{at}: {top} uses {target}: put both in LAYERS")),
            }
            let forbidden = RULES
                .iter()
                .find(|(m, _)| m.trim_end_matches(".rs") == top)
                .is_some_and(|(_, f)| f.contains(&target.as_str()));
            if forbidden {
                broken.push(format!("{at}: {top} uses {target}, which its rule forbids"));
            }
        }
    }
    for (module, forbidden) in RULES {
        let top = module.trim_end_matches(".rs");
        let reached = graph.reached_from(top);
        for f in *forbidden {
            if let Some(way) = reached.get(*f).filter(|_| rank(top) < rank(f)) {
                broken.push(format!("{top} reaches {f}, a stage above it: {way}"));
            }
        }
    }
    broken
}

#[test]
fn every_stage_uses_only_the_stages_below_it() {
    let graph = Graph::of_crate();
    assert!(graph.modules.len() > 100, "the crate's files are read");
    let broken = rules_broken(&graph);
    assert!(
        broken.is_empty(),
        "layer rules broken, directly or through other modules:\n{}",
        broken.join("\n")
    );
}

#[test]
fn no_import_circle_between_stages_or_files() {
    let graph = Graph::of_crate();
    let mut circles = graph.circles(top_of);
    circles.extend(graph.circles(|p| p.join("::")));
    assert!(
        circles.is_empty(),
        "import circles:\n{}",
        circles.join("\n")
    );
}

#[test]
fn the_graph_finds_circles_and_arrows_up_through_other_modules() {
    // A grouped `use` and a `super::` path, a circle between two files of one stage and
    // a stage reaching one it must not through a module that has no rule of its own.
    let files = [
        (
            "engine/mod.rs",
            "mod members;\nmod render;\npub use render::Rendered;\n",
        ),
        ("engine/members.rs", "use super::{render::Rendered, Job};\n"),
        (
            "engine/render.rs",
            "fn f() { crate::engine::members::panels(); }\n",
        ),
        ("input/mod.rs", "pub mod source;\n"),
        ("input/source.rs", "use crate::{error::Error, profile};\n"),
        ("error.rs", "use crate::select::aux::AuxError;\n"),
        ("select/mod.rs", "pub mod aux;\n"),
        (
            "select/aux.rs",
            "// crate::engine::x in a comment is no import\n",
        ),
        ("profile/mod.rs", ""),
    ]
    .map(|(f, t)| (f.to_string(), t.to_string()));
    let graph = Graph::of(&files);
    let circles = graph.circles(|p| p.join("::"));
    assert_eq!(circles.len(), 1, "{circles:?}");
    assert!(
        circles[0].starts_with("engine::members -> engine::render (src/engine/members.rs:1)"),
        "{circles:?}"
    );
    let broken = rules_broken(&graph);
    assert!(
        broken.iter().any(|b| b.starts_with(
            "input reaches select, a stage above it: src/input/source.rs:1 -> error, \
             src/error.rs:1 -> select"
        )),
        "{broken:?}"
    );
    assert!(
        broken.contains(&"src/input/source.rs:1: input uses error, a stage above it".to_string()),
        "{broken:?}"
    );
    assert!(
        !broken.iter().any(|b| b.contains("reaches engine")),
        "{broken:?}"
    );
    // Between stages: input -> error -> select, and nothing back: no circle.
    assert!(graph.circles(top_of).is_empty());
}

#[test]
fn the_runs_take_the_resolved_description_not_the_command_line() {
    for file in ["oneshot.rs", "watch.rs"] {
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
/// by the library), the strip's merging, the runtime lines' names and widths (the
/// scene's), the "GHC cut" texts, a window's area summed in the page; and markup built
/// from text (every text reaches the page through `dom.js` `el` as text).
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
        "the collections' strip merged in the page: its columns' shares are the library's",
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
    (
        "innerHTML",
        "markup built from data: text goes through `el`",
    ),
    (
        "outerHTML",
        "markup built from data: text goes through `el`",
    ),
    (
        "insertAdjacentHTML",
        "markup built from data: text goes through `el`",
    ),
    (
        "document.write",
        "markup built from data: text goes through `el`",
    ),
    (
        "createContextualFragment",
        "markup built from data: text goes through `el`",
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
/// census shaded and named at every zoom; 1150 until the collections' strip's unused
/// merged marks went. The redesign's bound: under the 1,127 lines the page had then.)
const MAX_SCRIPT_LINES: usize = 1127;

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
