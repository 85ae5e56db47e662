//! Golden tests: hpgraph's PostScript and `.aux` must be byte-identical to what GHC 9.0.2's
//! hp2ps wrote for the same profile and flags (`%%Creator` aside). The expected files were
//! made by the real hp2ps with `scripts/regen-fixtures.sh` and committed; nothing here is
//! compared against hpgraph's own earlier output. The one allowed difference is the
//! documented repair of a header comment that a line break in the job or date breaks
//! (`with_header_comments_repaired`; hp2ps's file then fails in Ghostscript).

use std::fs;

use crate::common::{
    Scratch, first_difference, fixtures, hpgraph, with_header_comments_repaired, without_creator,
};

struct Case {
    profile: String,
    tag: String,
    flags: Vec<String>,
    hp2ps_exit: i32,
}

fn manifest() -> Vec<Case> {
    let text = fs::read_to_string(fixtures().join("golden/MANIFEST.tsv")).expect("manifest");
    text.lines()
        .skip(1)
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            Case {
                profile: f[0].to_string(),
                tag: f[1].to_string(),
                flags: f[2].split_whitespace().map(str::to_string).collect(),
                hp2ps_exit: f[3].parse().unwrap(),
            }
        })
        .collect()
}

fn profile_path(name: &str) -> std::path::PathBuf {
    let real = fixtures().join("profiles").join(format!("{name}.hp"));
    if real.exists() {
        real
    } else {
        fixtures().join("edge").join(format!("{name}.hp"))
    }
}

/// Runs one case; returns a description of the mismatch, if any.
fn check(case: &Case) -> Option<String> {
    let dir = Scratch::new("golden");
    let file = format!("{}.hp", case.profile);
    fs::copy(profile_path(&case.profile), dir.path(&file)).unwrap();
    let mut args: Vec<&str> = case.flags.iter().map(String::as_str).collect();
    args.push(&file);
    if case.tag.starts_with("p-") {
        let first = hpgraph(&dir.0, &args, None);
        if !first.status.success() {
            return Some(format!(
                "first run failed: {}",
                String::from_utf8_lossy(&first.stderr)
            ));
        }
        args.insert(0, "-p");
    }
    let out = hpgraph(&dir.0, &args, None);
    if !out.status.success() {
        return Some(format!(
            "exit {:?}: {}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let golden = fixtures().join("golden").join(&case.profile);
    let ours = without_creator(&fs::read(dir.path(&format!("{}.ps", case.profile))).unwrap());
    let theirs =
        with_header_comments_repaired(&fs::read(golden.join(format!("{}.ps", case.tag))).unwrap());
    if ours != theirs {
        return Some(format!(
            "PostScript differs at {}",
            first_difference(&ours, &theirs)
        ));
    }
    let ours = fs::read(dir.path(&format!("{}.aux", case.profile))).unwrap();
    let theirs = fs::read(golden.join(format!("{}.aux", case.tag))).unwrap();
    if ours != theirs {
        return Some(format!(
            ".aux differs at {}",
            first_difference(&ours, &theirs)
        ));
    }
    None
}

#[test]
fn postscript_and_aux_match_hp2ps_for_every_fixture_and_flag_set() {
    let cases = manifest();
    let rendered: Vec<&Case> = cases.iter().filter(|c| c.hp2ps_exit == 0).collect();
    assert!(
        rendered.len() > 300,
        "too few golden cases: {}",
        rendered.len()
    );
    let failures: Vec<String> = std::thread::scope(|s| {
        let chunks: Vec<_> = rendered
            .chunks(rendered.len().div_ceil(4))
            .map(|chunk| {
                s.spawn(move || {
                    chunk
                        .iter()
                        .filter_map(|c| {
                            check(c).map(|why| {
                                format!("{} [{}] {:?}: {why}", c.profile, c.tag, c.flags)
                            })
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        chunks.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    assert!(
        failures.is_empty(),
        "{} of {} cases differ from hp2ps:\n{}",
        failures.len(),
        rendered.len(),
        failures.join("\n")
    );
}

/// The cases of the reference folder, run with the exact command lines recorded there.
#[test]
fn reference_cases_match_their_recorded_commands() {
    let dir = fixtures().join("hp2ps-golden");
    let mut checked = 0;
    for entry in fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("cmd") {
            continue;
        }
        let name = path.file_stem().unwrap().to_str().unwrap().to_string();
        let rc: i32 = fs::read_to_string(dir.join(format!("{name}.rc")))
            .map(|s| s.trim().parse().unwrap())
            .unwrap_or(0);
        if rc != 0 {
            continue; // hp2ps failed here; robustness tests cover what hpgraph does instead
        }
        let cmd = fs::read_to_string(&path).unwrap();
        let args: Vec<&str> = cmd.split_whitespace().skip(1).collect();
        let scratch = Scratch::new("ref");
        fs::copy(
            dir.join(format!("{name}.hp")),
            scratch.path(&format!("{name}.hp")),
        )
        .unwrap();
        let out = hpgraph(&scratch.0, &args, None);
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let ours = without_creator(&fs::read(scratch.path(&format!("{name}.ps"))).unwrap());
        let theirs = with_header_comments_repaired(&without_creator(
            &fs::read(dir.join(format!("{name}.ps"))).unwrap(),
        ));
        assert!(
            ours == theirs,
            "{name}: {}",
            first_difference(&ours, &theirs)
        );
        let ours = fs::read(scratch.path(&format!("{name}.aux"))).unwrap();
        let theirs = fs::read(dir.join(format!("{name}.aux"))).unwrap();
        assert_eq!(ours, theirs, "{name}.aux");
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} reference cases ran");
}
