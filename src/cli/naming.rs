//! Which file is read and which files are written, following hp2ps (spec §7.3).

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use hpgraph::input::prof::retainers::Sets;
pub use hpgraph::input::source::Source;
pub use hpgraph::sink::Output;

/// The extension that names an eventlog rather than the base of a `.hp` file.
const EVENTLOG: &str = ".eventlog";

/// The extension of GHC's time and allocation report: `FOO.prof` is read itself where
/// hp2ps's `FOO.prof.hp` does not exist.
const PROF: &str = ".prof";
/// The extension a `-pj` report is often kept under (and `jq`'s output written to):
/// read itself, as [`PROF`], where hp2ps's `FOO.json.hp` does not exist.
const JSON: &str = ".json";

/// The files of one rendering.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// What is read.
    pub input: Source,
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
    pub fn sets_of<'a>(input: &'a Source, named: Option<&'a Path>) -> Sets<'a> {
        match (named, input) {
            (Some(file), _) => Sets::From(file),
            (None, Source::File(path)) => Sets::Beside(path),
            _ => Sets::None,
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
        None => Source::Stdin,
        Some(a) if a == "-" => Source::Stdin,
        Some(a) => {
            let s = a.to_string_lossy();
            let no_hp = !Path::new(&format!("{s}.hp")).exists();
            let report = (s.ends_with(PROF) || s.ends_with(JSON)) && no_hp;
            if s.ends_with(EVENTLOG)
                || report
                || (no_hp && not_hp_text(Path::new(a)))
                || compression_suffix(&s).is_some()
                || hpgraph::input::path::is_stream(Path::new(a))
            {
                Source::File(PathBuf::from(a))
            } else {
                let base = match s.rfind('.') {
                    Some(dot) if &s[dot..] == ".hp" => &s[..dot],
                    _ => &s[..],
                };
                Source::File(PathBuf::from(format!("{base}.hp")))
            }
        }
    };
    plan_for(input, output, ext)
}

/// Whether `path` is a regular file whose first bytes make it an eventlog or a report,
/// not `.hp` text: read itself whatever its name (GHC's testsuite keeps reports as
/// `X.prof.sample`) where hp2ps's `PATH.hp` does not exist.
fn not_hp_text(path: &Path) -> bool {
    use hpgraph::input::Format;
    matches!(
        hpgraph::input::path::format(path),
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

/// The files of a rendering of `input`: as [`plan`] says; a socket is named as standard
/// input is (standard output, or `-o`'s file, and no `.aux`).
pub fn plan_for(input: Source, output: Option<&Path>, ext: &str) -> Plan {
    let (output, aux) = match (output, &input) {
        (Some(o), _) if o == Path::new("-") => (Output::Stdout, None),
        (Some(o), Source::File(_)) => {
            (Output::File(o.to_path_buf()), Some(o.with_extension("aux")))
        }
        (Some(o), Source::Stdin | Source::Socket(_)) => (Output::File(o.to_path_buf()), None),
        (None, Source::Stdin | Source::Socket(_)) => (Output::Stdout, None),
        (None, Source::File(p)) => {
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
    hpgraph::input::compressed::Compression::by_suffix(name).map(|(_, suffix)| suffix.len())
}

/// The compression of an input file ([`hpgraph::input::path::compression`]).
pub fn compressed(input: &Source) -> Option<hpgraph::input::compressed::Compression> {
    match input {
        Source::File(path) => hpgraph::input::path::compression(path),
        _ => None,
    }
}

/// What `plan` writes of its input, for [`hpgraph::sink::collisions`]: its picture (or data),
/// with `key` (`--key file`) the key beside the picture, and its `.aux`.
pub fn writes(plan: &Plan, key: bool) -> hpgraph::sink::collisions::Writes<'_> {
    let mut files = Vec::new();
    if let Output::File(p) = &plan.output {
        files.push(p.clone());
        if key {
            files.push(key_file(p));
        }
    }
    files.extend(plan.aux.clone());
    hpgraph::sink::collisions::Writes {
        input: plan.input.display(),
        file: plan.input.file(),
        files,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(arg: &str) -> (String, String, String) {
        let p = plan(Some(OsStr::new(arg)), None, "ps");
        let Source::File(i) = p.input else { panic!() };
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
            (Source::Stdin, Output::Stdout, None)
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
