//! Which file is read and which files are written, following hp2ps (spec §7.3).

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use crate::input::prof::retainers::Sets;
use crate::input::stream::Endpoint;

/// The extension that names an eventlog rather than the base of a `.hp` file.
const EVENTLOG: &str = ".eventlog";

/// The extension of GHC's time and allocation report: `FOO.prof` is read itself where
/// hp2ps's `FOO.prof.hp` does not exist.
const PROF: &str = ".prof";
/// The extension a `-pj` report is often kept under (and `jq`'s output written to):
/// read itself, as [`PROF`], where hp2ps's `FOO.json.hp` does not exist.
const JSON: &str = ".json";

/// Where the profile comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// Standard input (`-` or no file).
    Stdin,
    /// A file: a regular one, or a FIFO or character device read as a stream.
    File(PathBuf),
    /// The eventlog a program serves on a socket (`--connect`).
    Socket(Endpoint),
}

/// Where the picture goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Output {
    /// Standard output.
    Stdout,
    /// A file, written atomically.
    File(PathBuf),
}

/// The files of one rendering.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// What is read.
    pub input: Input,
    /// Where the output goes.
    pub output: Output,
    /// The `.aux` file written after the picture (and read with `-p`); none when reading
    /// standard input or writing standard output, as in hp2ps's filter mode.
    pub aux: Option<PathBuf>,
    /// `-p`: read the `.aux` file first, for the order, shades and ranges of an earlier run.
    pub reuse_aux: bool,
    /// `--retainer-sets`: the report naming a retainer profile's sets, in place of
    /// `STEM.prof` beside the input.
    pub sets: Option<PathBuf>,
}

impl Plan {
    /// Where a retainer profile read as this plan says takes its sets.
    pub fn sets(&self) -> Sets<'_> {
        Plan::sets_of(&self.input, self.sets.as_deref())
    }

    /// Where a retainer profile read from `input` takes its sets: `--retainer-sets`'s
    /// file, else `STEM.prof` beside a file.
    pub fn sets_of<'a>(input: &'a Input, named: Option<&'a Path>) -> Sets<'a> {
        match (named, input) {
            (Some(file), _) => Sets::From(file),
            (None, Input::File(path)) => Sets::Beside(path),
            _ => Sets::None,
        }
    }
}

impl Input {
    /// The name used in messages (`stdin`, as hp2ps says).
    pub fn display(&self) -> String {
        match self {
            Input::Stdin => "stdin".to_string(),
            Input::File(p) => p.display().to_string(),
            Input::Socket(e) => e.to_string(),
        }
    }
}

/// hp2ps naming: `FOO` and `FOO.hp` both read `FOO.hp` and write `./FOO.ps` and
/// `./FOO.aux` (in the current folder, whatever folder FOO is in). Only the last
/// `.`-suffix of the whole argument counts: `x.txt` reads `x.txt.hp`. An eventlog is
/// named in full and written as a `.hp` would be: `FOO.eventlog` writes `./FOO.ps`; so is
/// a time and allocation report (`FOO.prof`, `FOO.json`), unless `FOO.prof.hp` exists. `-` or no argument
/// reads standard input and writes standard output. `output` overrides the picture's
/// path; the `.aux` file then sits beside it. `ext` is the picture's extension (`ps`,
/// or the format asked for).
pub fn plan(arg: Option<&OsStr>, output: Option<&Path>, ext: &str) -> Plan {
    let input = match arg {
        None => Input::Stdin,
        Some(a) if a == "-" => Input::Stdin,
        Some(a) => {
            let s = a.to_string_lossy();
            let no_hp = !Path::new(&format!("{s}.hp")).exists();
            let report = (s.ends_with(PROF) || s.ends_with(JSON)) && no_hp;
            if s.ends_with(EVENTLOG)
                || report
                || (no_hp && not_hp_text(Path::new(a)))
                || compression_suffix(&s).is_some()
                || crate::input::path::is_stream(Path::new(a))
            {
                Input::File(PathBuf::from(a))
            } else {
                let base = match s.rfind('.') {
                    Some(dot) if &s[dot..] == ".hp" => &s[..dot],
                    _ => &s[..],
                };
                Input::File(PathBuf::from(format!("{base}.hp")))
            }
        }
    };
    plan_for(input, output, ext)
}

/// Whether `path` is a regular file whose first bytes make it an eventlog or a report,
/// not `.hp` text: read itself whatever its name (GHC's testsuite keeps reports as
/// `X.prof.sample`) where hp2ps's `PATH.hp` does not exist.
fn not_hp_text(path: &Path) -> bool {
    use crate::input::Format;
    matches!(
        crate::input::path::format(path),
        Some(Format::Costs | Format::Eventlog)
    )
}

/// Where `--key file` puts the key of a picture written to `picture`: beside it, `-key`
/// after its stem (`fig.pdf` → `fig-key.pdf`), so that the two sort together.
pub fn key_file(picture: &Path) -> PathBuf {
    let mut name = picture.file_stem().unwrap_or_default().to_os_string();
    name.push("-key");
    if let Some(ext) = picture.extension() {
        name.push(".");
        name.push(ext);
    }
    picture.with_file_name(name)
}

/// What to tell a user whose input `path` could not be opened, when hp2ps's naming is
/// the likely cause: the argument named a file or folder that exists, and hp2ps's rule
/// made it `NAME.hp`, which does not. Empty when there is nothing to add.
pub fn read_hint(path: &Path, error: &std::io::Error) -> String {
    if error.kind() != std::io::ErrorKind::NotFound {
        return String::new();
    }
    let Some(given) = path.to_str().and_then(|p| p.strip_suffix(".hp")) else {
        return String::new();
    };
    let given_path = Path::new(given);
    if given_path.is_dir() {
        format!("{given} is a folder; hpgraph reads one profile file (NAME or NAME.hp)")
    } else if given_path.exists() {
        format!(
            "as hp2ps does, a NAME not ending in .hp reads NAME.hp; to read {given} \
             itself, give it on standard input: hpgraph < {given}"
        )
    } else {
        String::new()
    }
}

/// The files of a rendering of `input`: as [`plan`] says; a socket is named as standard
/// input is (standard output, or `-o`'s file, and no `.aux`).
pub fn plan_for(input: Input, output: Option<&Path>, ext: &str) -> Plan {
    let (output, aux) = match (output, &input) {
        (Some(o), _) if o == Path::new("-") => (Output::Stdout, None),
        (Some(o), Input::File(_)) => (Output::File(o.to_path_buf()), Some(o.with_extension("aux"))),
        (Some(o), Input::Stdin | Input::Socket(_)) => (Output::File(o.to_path_buf()), None),
        (None, Input::Stdin | Input::Socket(_)) => (Output::Stdout, None),
        (None, Input::File(p)) => {
            let stem = p.to_string_lossy();
            let stem = compression_suffix(&stem).map_or(&stem[..], |n| &stem[..stem.len() - n]);
            let stem = stem
                .strip_suffix(EVENTLOG)
                .or_else(|| stem.strip_suffix(PROF))
                .or_else(|| stem.strip_suffix(JSON))
                .or_else(|| stem.strip_suffix(".hp"))
                .unwrap_or(stem);
            let base = stem.rsplit('/').next().unwrap_or(stem);
            (
                Output::File(PathBuf::from(format!("{base}.{ext}"))),
                Some(PathBuf::from(format!("{base}.aux"))),
            )
        }
    };
    Plan {
        input,
        output,
        aux,
        reuse_aux: false,
        sets: None,
    }
}

/// The length of a compressed file's suffix (`.gz`, `.zst`, `.xz`), if the name has one.
fn compression_suffix(name: &str) -> Option<usize> {
    crate::input::compressed::Compression::by_suffix(name).map(|(_, suffix)| suffix.len())
}

/// The compression of an input file ([`crate::input::path::compression`]).
pub fn compressed(input: &Input) -> Option<crate::input::compressed::Compression> {
    match input {
        Input::File(path) => crate::input::path::compression(path),
        _ => None,
    }
}

/// Every file `plan` writes: its picture (or data), its `.aux`, and with `key` (`--key
/// file`) the key beside the picture.
pub fn written(plan: &Plan, key: bool) -> Vec<PathBuf> {
    let mut files = Vec::new();
    if let Output::File(p) = &plan.output {
        files.push(p.clone());
        if key {
            files.push(key_file(p));
        }
    }
    files.extend(plan.aux.clone());
    files
}

/// Why `plans` cannot all be written, checked before anything is: two files one run
/// would write are one (`a/prog.hp b/prog.hp` both write `./prog.ps`; `-o out.aux` is
/// both a picture and its `.aux`; `a.hp a-key.hp --key file` both write `a-key.svg`),
/// or a file written is an input, which the rename into place would replace before it
/// is read. `None` when every file is apart.
pub fn clash(plans: &[Plan], key: bool) -> Option<String> {
    let inputs: Vec<(PathBuf, &Input)> = plans
        .iter()
        .filter_map(|p| match &p.input {
            Input::File(f) => Some((f, &p.input)),
            _ => None,
        })
        .flat_map(|(f, i)| {
            let real = std::fs::canonicalize(f).ok();
            std::iter::once((identity(f), i)).chain(real.map(|r| (r, i)))
        })
        .collect();
    let mut seen: std::collections::HashMap<PathBuf, (&Input, PathBuf)> = Default::default();
    for plan in plans {
        for path in written(plan, key) {
            let id = identity(&path);
            if let Some((_, input)) = inputs.iter().find(|(i, _)| *i == id) {
                return Some(format!(
                    "{}: writing {} would replace the input {}; name another output with -o",
                    plan.input.display(),
                    path.display(),
                    input.display()
                ));
            }
            match seen.insert(id, (&plan.input, path.clone())) {
                Some((first, _)) if first == &plan.input => {
                    return Some(format!(
                        "{}: two of its outputs would both be {}: name the picture otherwise \
                         with -o",
                        plan.input.display(),
                        path.display()
                    ));
                }
                Some((first, _)) => {
                    return Some(format!(
                        "{} and {} would both write {}: render them one at a time, each with -o",
                        first.display(),
                        plan.input.display(),
                        path.display()
                    ));
                }
                None => {}
            }
        }
    }
    None
}

/// Whether `input` can be read only once: standard input, a FIFO or device, a socket.
pub fn read_once(input: &Input) -> bool {
    match input {
        Input::Stdin | Input::Socket(_) => true,
        Input::File(f) => crate::input::path::is_stream(f),
    }
}

/// Whether two inputs are one file (the same path, or two paths to it); standard input
/// and sockets only as themselves.
pub fn same_input(a: &Input, b: &Input) -> bool {
    match (a, b) {
        (Input::File(x), Input::File(y)) => {
            x == y
                || matches!(
                    (std::fs::canonicalize(x), std::fs::canonicalize(y)),
                    (Ok(x), Ok(y)) if x == y
                )
        }
        _ => a == b,
    }
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

    fn files(arg: &str) -> (String, String, String) {
        let p = plan(Some(OsStr::new(arg)), None, "ps");
        let Input::File(i) = p.input else { panic!() };
        let Output::File(o) = p.output else { panic!() };
        (
            i.display().to_string(),
            o.display().to_string(),
            p.aux.unwrap().display().to_string(),
        )
    }

    #[test]
    fn hp2ps_file_naming() {
        assert_eq!(
            files("prof"),
            ("prof.hp".into(), "prof.ps".into(), "prof.aux".into())
        );
        assert_eq!(
            files("prof.hp"),
            ("prof.hp".into(), "prof.ps".into(), "prof.aux".into())
        );
        assert_eq!(
            files("prof.txt"),
            (
                "prof.txt.hp".into(),
                "prof.txt.ps".into(),
                "prof.txt.aux".into()
            )
        );
        assert_eq!(
            files("x.hp.hp"),
            ("x.hp.hp".into(), "x.hp.ps".into(), "x.hp.aux".into())
        );
        assert_eq!(
            files("sub/prof.hp"),
            ("sub/prof.hp".into(), "prof.ps".into(), "prof.aux".into())
        );
        assert_eq!(
            files("sub/prog.eventlog"),
            (
                "sub/prog.eventlog".into(),
                "prog.ps".into(),
                "prog.aux".into()
            )
        );
        assert_eq!(
            files("a.hp/b"),
            ("a.hp/b.hp".into(), "b.ps".into(), "b.aux".into())
        );
    }

    #[test]
    fn a_compressed_profile_is_named_in_full_and_written_as_the_plain_one() {
        for (arg, out) in [
            ("prog.hp.gz", "prog.ps"),
            ("sub/prog.eventlog.zst", "prog.ps"),
            ("prog.hp.xz", "prog.ps"),
            ("prog.gz", "prog.ps"),
        ] {
            let (i, o, aux) = files(arg);
            assert_eq!((i.as_str(), o.as_str()), (arg, out));
            assert_eq!(aux, "prog.aux");
        }
    }

    #[test]
    fn a_report_is_read_itself_unless_hp2ps_would_find_its_hp() {
        for (arg, out) in [("sub/prog.prof", "prog.ps"), ("sub/prog.json", "prog.ps")] {
            let (i, o, aux) = files(arg);
            assert_eq!(
                (i.as_str(), o.as_str(), aux.as_str()),
                (arg, out, "prog.aux")
            );
        }
    }

    #[test]
    fn filter_mode_and_output_override() {
        let p = plan(None, None, "ps");
        assert_eq!(
            (p.input, p.output, p.aux),
            (Input::Stdin, Output::Stdout, None)
        );
        let p = plan(
            Some(OsStr::new("prof.hp")),
            Some(Path::new("out/g.ps")),
            "ps",
        );
        assert_eq!(p.output, Output::File("out/g.ps".into()));
        assert_eq!(p.aux, Some("out/g.aux".into()));
        let p = plan(Some(OsStr::new("prof.hp")), Some(Path::new("-")), "ps");
        assert_eq!((p.output, p.aux), (Output::Stdout, None));
        let p = plan(Some(OsStr::new("sub/prof")), None, "svg");
        assert_eq!(p.output, Output::File("prof.svg".into()));
        assert_eq!(p.aux, Some("prof.aux".into()));
    }
}
