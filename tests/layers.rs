//! The pipeline's layer rules (docs/architecture.md), checked on the source: each
//! stage uses only the stages below it. A rule broken here is an import that makes a
//! stage know more than its inputs.

use std::path::{Path, PathBuf};

/// A module and the modules it must not use (outside its tests).
const RULES: &[(&str, &[&str])] = &[
    (
        "profile.rs",
        &[
            "input", "select", "analysis", "layout", "scene", "backend", "export", "serve", "sink",
            "cli",
        ],
    ),
    (
        "units.rs",
        &[
            "input", "select", "analysis", "layout", "scene", "backend", "export", "serve", "sink",
            "cli",
        ],
    ),
    (
        "escape.rs",
        &[
            "input", "select", "analysis", "layout", "scene", "backend", "export", "serve", "sink",
            "cli",
        ],
    ),
    (
        "input",
        &[
            "select", "analysis", "layout", "scene", "backend", "export", "serve", "sink", "cli",
        ],
    ),
    (
        "select",
        &[
            "input", "analysis", "layout", "scene", "backend", "export", "serve", "sink", "cli",
        ],
    ),
    (
        "analysis",
        &[
            "input", "layout", "scene", "backend", "export", "serve", "sink", "cli",
        ],
    ),
    (
        "layout",
        &[
            "input", "analysis", "backend", "export", "serve", "sink", "cli",
        ],
    ),
    (
        "scene",
        &[
            "input", "select", "analysis", "layout", "backend", "export", "serve", "sink", "cli",
        ],
    ),
    (
        "backend",
        &[
            "input", "select", "profile", "layout", "export", "serve", "sink", "cli",
        ],
    ),
    (
        "export",
        &[
            "input", "layout", "scene", "backend", "serve", "sink", "cli",
        ],
    ),
    (
        "serve.rs",
        &[
            "input", "select", "analysis", "layout", "scene", "backend", "export", "sink", "cli",
        ],
    ),
    (
        "sink.rs",
        &[
            "input", "select", "analysis", "layout", "scene", "backend", "export", "serve", "cli",
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
