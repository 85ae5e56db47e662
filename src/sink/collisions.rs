//! No output replaces another output or an input: every file one run reads and writes,
//! held apart before anything is written.
//!
//! Files are compared as the file each names, not as the text of their paths: a folder
//! is resolved through links and `..` (so `a/prog.hp` and `b/../a/prog.hp` are one), and
//! two paths that exist are one file when links (symbolic or hard) lead both to it. A
//! file written is renamed into place ([`super::write_file`]), so writing an input would
//! replace it before it is read.

use std::path::{Path, PathBuf};

/// One input of a run and the files the run writes of it.
#[derive(Debug, Clone)]
pub struct Writes<'a> {
    /// The input as a message names it (`prog.hp`, `stdin`, a socket's address).
    pub input: String,
    /// The input's file, where it is one.
    pub file: Option<&'a Path>,
    /// What is written of it: its picture or data, `.aux`, key, in that order.
    pub files: Vec<PathBuf>,
}

/// Why the run cannot go ahead, checked before anything is written: two files it
/// writes are one (`a/prog.hp b/prog.hp` both write `./prog.ps`; `-o out.aux` is both
/// a picture and its `.aux`), or a file written is one read — an input, or one of
/// `others` (each with what a message calls it: `--retainer-sets' report`). `report`
/// (`--check-report`) is written too, after the rest. `Ok` when every file is apart.
pub fn check(
    runs: &[Writes],
    others: &[(&Path, &str)],
    report: Option<&Path>,
) -> Result<(), String> {
    outputs_apart(runs)?;
    let mut written: Vec<&Path> = runs.iter().flat_map(|r| &r.files).map(|f| &**f).collect();
    if let Some(report) = report {
        if let Some(w) = written.iter().find(|w| same_file(w, report)) {
            return Err(format!(
                "--check-report {} would replace {}, which the run writes: name one of them \
                 otherwise",
                report.display(),
                w.display()
            ));
        }
        written.push(report);
    }
    let inputs = runs.iter().filter_map(|r| r.file).map(|f| (f, "the input"));
    let read: Vec<(&Path, &str)> = inputs.chain(others.iter().copied()).collect();
    match written
        .iter()
        .find_map(|w| Some((w, read.iter().find(|(r, _)| same_file(w, r))?)))
    {
        Some((w, (r, what))) => Err(format!(
            "writing {} would replace {what} {}: name another output",
            w.display(),
            r.display()
        )),
        None => Ok(()),
    }
}

/// The runs' own outputs apart from each other and from every input, named by the run
/// that would write them.
fn outputs_apart(runs: &[Writes]) -> Result<(), String> {
    let inputs: Vec<(PathBuf, &Writes)> = (runs.iter())
        .filter_map(|r| Some((r.file?, r)))
        .flat_map(|(f, r)| {
            let real = std::fs::canonicalize(f).ok();
            std::iter::once((identity(f), r)).chain(real.map(|real| (real, r)))
        })
        .collect();
    let mut seen: std::collections::HashMap<PathBuf, usize> = Default::default();
    for (k, run) in runs.iter().enumerate() {
        for path in &run.files {
            let id = identity(path);
            if let Some((_, input)) = inputs.iter().find(|(i, _)| *i == id) {
                return Err(format!(
                    "{}: writing {} would replace the input {}; name another output with -o",
                    run.input,
                    path.display(),
                    input.input
                ));
            }
            match seen.insert(id, k) {
                Some(first) if first == k => {
                    return Err(format!(
                        "{}: two of its outputs would both be {}: name the picture otherwise \
                         with -o",
                        run.input,
                        path.display()
                    ));
                }
                Some(first) => {
                    return Err(format!(
                        "{} and {} would both write {}: render them one at a time, each with -o",
                        runs[first].input,
                        run.input,
                        path.display()
                    ));
                }
                None => {}
            }
        }
    }
    Ok(())
}

/// Whether two paths name one file (whether or not it exists yet): the same folder and
/// name, or, where both exist, one file through links (symbolic or hard).
pub fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    identity(a) == identity(b)
        || matches!(
            (std::fs::metadata(a), std::fs::metadata(b)),
            (Ok(x), Ok(y)) if (x.dev(), x.ino()) == (y.dev(), y.ino())
        )
}

/// A path as the file it names: its folder resolved (links, `..`), then its name.
fn identity(path: &Path) -> PathBuf {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let dir = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    dir.join(path.file_name().unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run<'a>(input: &'a str, files: &[&str]) -> Writes<'a> {
        Writes {
            input: input.into(),
            file: Some(Path::new(input)),
            files: files.iter().map(PathBuf::from).collect(),
        }
    }

    #[test]
    fn outputs_and_inputs_are_held_apart() {
        let dir = std::env::temp_dir().join(format!("hpgraph-apart-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("a")).unwrap();
        let at = |p: &str| dir.join(p).display().to_string();
        let (a, b) = (at("a/prog.hp"), at("a/../a/other.hp"));
        std::fs::write(&a, "x").unwrap();
        let ok = [run(&a, &[&at("prog.ps")]), run(&b, &[&at("other.ps")])];
        assert_eq!(check(&ok, &[], None), Ok(()));
        let both = [run(&a, &[&at("x.ps")]), run(&b, &[&at("a/../x.ps")])];
        assert!(
            check(&both, &[], None)
                .unwrap_err()
                .contains("would both write")
        );
        let itself = [run(&a, &[&at("a/./prog.hp")])];
        let e = check(&itself, &[], None).unwrap_err();
        assert!(e.contains("would replace the input"), "{e}");
        let twice = [run(&a, &[&at("p.aux"), &at("p.aux")])];
        assert!(
            check(&twice, &[], None)
                .unwrap_err()
                .contains("would both be")
        );
        // A hard link to an input is the input.
        let link = at("link.ps");
        std::fs::hard_link(&a, &link).unwrap();
        let e = check(&[run(&b, &[&link])], &[(Path::new(&a), "the report")], None);
        assert!(e.unwrap_err().contains("would replace the report"));
        let e = check(&ok, &[], Some(Path::new(&at("other.ps")))).unwrap_err();
        assert!(e.starts_with("--check-report"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
