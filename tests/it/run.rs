//! `hpgraph run -- PROGRAM`: a real program (fixtures/programs/Run.hs) built by the
//! system's GHC four ways — plain (`-rtsopts -eventlog`), profiling (`-prof -fprof-auto
//! -rtsopts`), without `-rtsopts`, and without `-eventlog` — run through hpgraph. The references are the
//! program itself (its output run alone), GHC's own `.hp` file of the same run (the
//! bands the eventlog must read with), the process table and the file system.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::Duration;

use crate::common::served::{Listener, Served, get, wait_until};
use crate::common::{Scratch, hpgraph, stderr};

/// The three builds of the test program.
#[derive(Clone, Copy)]
enum Build {
    Plain,
    Profiled,
    NoRtsOpts,
    NoEventlog,
}

/// The program built `build`'s way (once per test run; GHC's own recompilation check
/// keeps later runs quick), or `None` where GHC is not installed outside CI.
fn program(build: Build) -> Option<PathBuf> {
    static BUILT: [OnceLock<Option<PathBuf>>; 4] = [const { OnceLock::new() }; 4];
    let (i, name, flags): (usize, &str, &[&str]) = match build {
        Build::Plain => (0, "plain", &["-rtsopts", "-eventlog"]),
        Build::Profiled => (1, "profiled", &["-prof", "-fprof-auto", "-rtsopts"]),
        Build::NoRtsOpts => (2, "noopts", &[]),
        Build::NoEventlog => (3, "nolog", &["-rtsopts"]),
    };
    BUILT[i]
        .get_or_init(|| {
            if !crate::common::have("ghc", &["--version"]) {
                return None;
            }
            let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
                .join("run-programs")
                .join(name);
            std::fs::create_dir_all(&dir).unwrap();
            let source = crate::common::fixtures().join("programs/Run.hs");
            let out = dir.join(format!("run-{name}"));
            let built = Command::new("ghc")
                .args(["-O", "-v0"])
                .args(flags)
                .arg("-outputdir")
                .arg(&dir)
                .arg(&source)
                .arg("-o")
                .arg(&out)
                .output()
                .expect("run ghc");
            assert!(
                built.status.success(),
                "ghc {flags:?}: {}",
                String::from_utf8_lossy(&built.stderr)
            );
            Some(out)
        })
        .clone()
}

fn run(
    dir: &Path,
    args: &[&str],
    program: &Path,
    program_args: &[&str],
    stdin: Option<&[u8]>,
) -> std::process::Output {
    let mut all = vec!["run"];
    all.extend_from_slice(args);
    all.push("--");
    all.push(program.to_str().unwrap());
    all.extend_from_slice(program_args);
    hpgraph(dir, &all, stdin)
}

/// The program's standard output run alone, without hpgraph or runtime options.
fn alone(program: &Path, args: &[&str], stdin: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let scratch = Scratch::new("run-alone");
    let mut child = Command::new(program)
        .args(args)
        .current_dir(&scratch.0)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap().stdout
}

/// The names of the bands of GHC's own `.hp` file (every census's lines).
fn hp_bands(hp: &Path) -> BTreeSet<String> {
    let text = std::fs::read_to_string(hp).unwrap();
    let mut inside = false;
    let mut names = BTreeSet::new();
    for line in text.lines() {
        if line.starts_with("BEGIN_SAMPLE") {
            inside = true;
        } else if line.starts_with("END_SAMPLE") {
            inside = false;
        } else if inside && let Some((name, _)) = line.rsplit_once('\t') {
            names.insert(name.to_owned());
        }
    }
    names
}

/// The band names hpgraph reads from `eventlog`, from its JSON.
fn eventlog_bands(dir: &Path, eventlog: &Path) -> BTreeSet<String> {
    let out = hpgraph(
        dir,
        &[eventlog.to_str().unwrap(), "-o", "-", "--format", "json"],
        None,
    );
    crate::common::assert_ok(&out);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    (v["bands"].as_array().unwrap().iter())
        .map(|b| b["name"].as_str().unwrap().to_owned())
        .collect()
}

/// The files in `dir`, by name; fails on a FIFO.
fn files(dir: &Path) -> BTreeSet<String> {
    use std::os::unix::fs::FileTypeExt;
    (std::fs::read_dir(dir).unwrap())
        .map(|e| {
            let e = e.unwrap();
            assert!(
                !e.file_type().unwrap().is_fifo(),
                "a FIFO left: {:?}",
                e.path()
            );
            e.file_name().to_string_lossy().into_owned()
        })
        .collect()
}

/// Fails unless `dir` holds just `names` (and no FIFO).
fn only_files(dir: &Path, names: &[&str]) {
    let want: BTreeSet<String> = names.iter().map(|n| n.to_string()).collect();
    assert_eq!(files(dir), want);
}

/// Whether a process of `program` is running (its `/proc/PID/exe`).
fn running(program: &Path) -> bool {
    let program = std::fs::canonicalize(program).unwrap();
    (std::fs::read_dir("/proc").unwrap().flatten())
        .any(|e| std::fs::read_link(e.path().join("exe")).is_ok_and(|exe| exe == program))
}

/// A copy of `program` of its own (same name, another folder), so that whether it runs
/// is not confused with another test's run of the same build.
fn own_copy(program: &Path, bin: &Scratch) -> PathBuf {
    let copy = bin.path(program.file_name().unwrap().to_str().unwrap());
    std::fs::copy(program, &copy).unwrap();
    copy
}

#[test]
fn a_plain_build_is_drawn_with_its_own_output_untouched() {
    let Some(prog) = program(Build::Plain) else {
        return;
    };
    let scratch = Scratch::new("run-plain");
    let out = run(
        &scratch.0,
        &["-o", "r.html", "-i", "0.01"],
        &prog,
        &["300000"],
        None,
    );
    crate::common::assert_ok(&out);
    assert_eq!(
        out.stdout,
        alone(&prog, &["300000"], b""),
        "the program's output"
    );
    assert!(
        stderr(&out).lines().all(|l| l.starts_with("hpgraph: ")),
        "{}",
        stderr(&out)
    );
    let page = std::fs::read_to_string(scratch.path("r.html")).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"));
    let kept = scratch.path("run-plain.eventlog");
    let ours = eventlog_bands(&scratch.0, &kept);
    let ghcs = hp_bands(&scratch.path("run-plain.hp"));
    assert!(ghcs.len() > 3, "GHC's .hp has bands: {ghcs:?}");
    assert_eq!(
        ours, ghcs,
        "the eventlog's bands are those of GHC's own .hp of the run"
    );
    // The program's own data: its map, or (on a loaded machine, whose censuses can all
    // miss the map's short life) the list of pairs it is built from.
    assert!(
        (ours.iter()).any(|b| b.contains("Data.Map.Internal.Bin") || b.contains("GHC.Tuple.(,)")),
        "{ours:?}"
    );
    only_files(
        &scratch.0,
        &["r.html", "run-plain.eventlog", "run-plain.hp"],
    );
}

/// The heap censuses of GHC's own `.hp` of a run: its samples with a band in them.
fn hp_censuses(hp: &Path) -> usize {
    let text = std::fs::read_to_string(hp).unwrap();
    let (mut censuses, mut lines) = (0, 0);
    for line in text.lines() {
        if line.starts_with("BEGIN_SAMPLE") {
            lines = 0;
        } else if line.starts_with("END_SAMPLE") {
            censuses += usize::from(lines > 0);
        } else {
            lines += 1;
        }
    }
    censuses
}

/// Without `-i` the run's censuses come at hpgraph's interval, and a run that got too
/// few to judge a trend is told the interval that gives more, as GHC's `.hp` counts them.
#[test]
fn a_short_run_is_told_how_to_get_more_censuses() {
    let Some(prog) = program(Build::Plain) else {
        return;
    };
    let scratch = Scratch::new("run-few");
    let out = run(&scratch.0, &["-o", "r.svg"], &prog, &["1000000"], None);
    crate::common::assert_ok(&out);
    let said = stderr(&out);
    assert!(said.contains(" -i0.05 "), "{said}");
    let got = hp_censuses(&scratch.path("run-plain.hp"));
    let told = format!("the run got {got} heap census");
    match got {
        0 => assert!(!said.contains("heap census"), "{said}"),
        1..20 => {
            assert!(said.contains(&told), "{got}: {said}");
            // The round interval (1, 2 or 5 times a power of ten) at or under the one that
            // would have given 40 censuses at the rate this run got.
            let told = said
                .split("A shorter interval gives more: hpgraph run -i ")
                .nth(1);
            let x: f64 = told
                .expect("an interval told")
                .split(' ')
                .next()
                .unwrap()
                .parse()
                .unwrap();
            let forty = 0.05 * got as f64 / 40.0;
            assert!(
                x <= forty * (1.0 + 1e-9) && x * 2.5 > forty,
                "{x} for {got}: {said}"
            );
            let digits = format!("{x:e}");
            assert!(
                ["1e", "2e", "5e"].iter().any(|d| digits.starts_with(d)),
                "{x}"
            );
        }
        _ => assert!(!said.contains(&told), "{said}"),
    }
    // Given more often, more come, and none is advised past twenty.
    let out = run(
        &scratch.0,
        &["-o", "r.svg", "-i", "0.002"],
        &prog,
        &["1000000"],
        None,
    );
    crate::common::assert_ok(&out);
    let more = hp_censuses(&scratch.path("run-plain.hp"));
    assert!(more > got, "{more} censuses at -i 0.002, {got} at 0.05");
    let said = stderr(&out);
    assert_eq!(more < 20, said.contains("heap census"), "{more}: {said}");
}

#[test]
fn a_profiled_build_records_cost_centres_and_time_samples() {
    let Some(prog) = program(Build::Profiled) else {
        return;
    };
    let scratch = Scratch::new("run-prof");
    let out = run(&scratch.0, &["-i", "0.01"], &prog, &["300000"], None);
    crate::common::assert_ok(&out);
    assert!(stderr(&out).contains("-hc -l -p"), "{}", stderr(&out));
    assert!(
        scratch.path("run-profiled.html").exists(),
        "the default page"
    );
    let kept = scratch.path("run-profiled.eventlog");
    let ours = eventlog_bands(&scratch.0, &kept);
    // The .hp names each stack with its number first (`(301)main`); the eventlog not.
    let ghcs: BTreeSet<String> = (hp_bands(&scratch.path("run-profiled.hp")).into_iter())
        .map(
            |b| match b.strip_prefix('(').and_then(|r| r.split_once(')')) {
                Some((n, name)) if n.bytes().all(|c| c.is_ascii_digit()) => name.to_owned(),
                _ => b,
            },
        )
        .collect();
    assert_eq!(
        ours, ghcs,
        "the eventlog's bands are those of GHC's own .hp of the run"
    );
    assert!(
        ours.iter().any(|b| b.contains("main")),
        "by cost centre: {ours:?}"
    );
    let time = hpgraph(
        &scratch.0,
        &["run-profiled.eventlog", "--measure", "time", "--summary"],
        None,
    );
    let text = String::from_utf8_lossy(&time.stdout);
    let ticks: u64 = (text.lines().next().unwrap())
        .trim_start_matches("the whole run: ")
        .trim_end_matches(" ticks")
        .parse()
        .unwrap_or_else(|_| panic!("{text}"));
    assert!(ticks > 0, "time samples in the eventlog: {text}");
}

#[test]
fn the_programs_status_and_input_are_its_own() {
    let Some(prog) = program(Build::Plain) else {
        return;
    };
    let scratch = Scratch::new("run-status");
    let out = run(
        &scratch.0,
        &["--summary"],
        &prog,
        &["1000", "exit", "3"],
        None,
    );
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("exited with status 3"),
        "{}",
        stderr(&out)
    );
    let input = b"first line\nsecond line, no newline at its end";
    let out = run(
        &scratch.0,
        &["-o", "x.svg"],
        &prog,
        &["1000", "echo"],
        Some(input),
    );
    crate::common::assert_ok(&out);
    assert_eq!(out.stdout, alone(&prog, &["1000", "echo"], input));
    assert!(out.stdout.ends_with(input));
}

#[test]
fn a_failed_check_exits_1() {
    let Some(prog) = program(Build::Plain) else {
        return;
    };
    let scratch = Scratch::new("run-check");
    // A run long enough for censuses on a loaded machine: at 300000 entries and -i 0.01,
    // one CI run ended before its first census, and a peak of no census cannot be judged.
    let out = run(
        &scratch.0,
        &["--check", "peak <= 1kB", "-i", "0.005"],
        &prog,
        &["1000000"],
        None,
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("check failed: peak"),
        "{}",
        stderr(&out)
    );
    let out = run(
        &scratch.0,
        &["--check", "peak <= 10GB", "-i", "0.005"],
        &prog,
        &["1000000"],
        None,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn a_live_run_judges_its_checks_and_exits_1_when_one_fails() {
    // `hpgraph run --watch`: each redraw judged as the program runs, the whole run's
    // record judged once it ends, and the exit status that verdict's.
    let Some(prog) = program(Build::Plain) else {
        return;
    };
    let scratch = Scratch::new("run-live-check");
    for (check, status) in [("peak <= 1kB", 1), ("peak <= 10GB", 0)] {
        let out = run(
            &scratch.0,
            &["--watch", "--check", check, "-i", "0.005"],
            &prog,
            &["1000000"],
            None,
        );
        assert_eq!(out.status.code(), Some(status), "{check}: {}", stderr(&out));
        if status == 1 {
            assert!(
                stderr(&out).contains("check failed: peak"),
                "{}",
                stderr(&out)
            );
        }
    }
}

#[test]
fn what_cannot_be_run_for_a_profile_exits_2_and_leaves_nothing() {
    let Some(prog) = program(Build::NoRtsOpts) else {
        return;
    };
    let scratch = Scratch::new("run-noopts");
    let out = run(&scratch.0, &[], &prog, &["10"], None);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("-rtsopts"), "{}", stderr(&out));
    assert!(out.stdout.is_empty(), "the program did not run");
    assert!(files(&scratch.0).is_empty(), "{:?}", files(&scratch.0));
    let out = run(&scratch.0, &[], Path::new("/bin/echo"), &["hello"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("not a program built by GHC"),
        "{}",
        stderr(&out)
    );
    assert!(
        out.stdout.is_empty(),
        "a program that is not GHC's is not run"
    );
    let Some(nolog) = program(Build::NoEventlog) else {
        return;
    };
    let out = run(&scratch.0, &[], &nolog, &["10"], None);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("ghc -eventlog -rtsopts"),
        "{}",
        stderr(&out)
    );
    assert!(out.stdout.is_empty(), "the program did not run");
    let Some(plain) = program(Build::Plain) else {
        return;
    };
    let out = run(&scratch.0, &["--by", "hy"], &plain, &["10"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("-prof"), "{}", stderr(&out));
    assert!(files(&scratch.0).is_empty(), "{:?}", files(&scratch.0));
}

/// hpgraph, started and left running (its messages read when it has ended).
fn started(dir: &Path, args: &[&str]) -> std::process::Child {
    crate::common::command(dir)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn interrupt(pid: u32) {
    // SAFETY: kill(2) with a child's pid and SIGINT has no memory effects here.
    unsafe { libc::kill(pid as libc::pid_t, libc::SIGINT) };
}

/// The plain build, a copy of its own, run through `hpgraph run` building maps until it
/// is stopped (censuses every 20 ms): the run's folder, the copy's, the copy, hpgraph.
struct Forever {
    scratch: Scratch,
    _bin: Scratch,
    prog: PathBuf,
    child: std::process::Child,
}

fn forever(tag: &str) -> Option<Forever> {
    forever_as(tag, "forever")
}

/// [`forever`] in `mode`: `forever`, or `stubborn` (which ignores SIGTERM).
fn forever_as(tag: &str, mode: &str) -> Option<Forever> {
    let prog = program(Build::Plain)?;
    let scratch = Scratch::new(tag);
    let bin = Scratch::new(&format!("{tag}-bin"));
    let prog = own_copy(&prog, &bin);
    let p = prog.to_str().unwrap();
    let child = started(&scratch.0, &["run", "-i", "0.02", "--", p, "100000", mode]);
    Some(Forever {
        scratch,
        _bin: bin,
        prog,
        child,
    })
}

/// Waits for `n` censuses in the `.hp` GHC writes beside the running program.
fn censuses_written(scratch: &Scratch, n: usize) {
    let hp = scratch.path("run-plain.hp");
    wait_until("censuses of the running program", 30.0, || {
        std::fs::read_to_string(&hp).is_ok_and(|t| t.matches("BEGIN_SAMPLE").count() >= n)
    });
}

#[test]
fn sigint_stops_the_program_and_what_was_recorded_is_drawn() {
    let Some(Forever {
        scratch,
        _bin,
        prog,
        child,
    }) = forever("run-sigint")
    else {
        return;
    };
    censuses_written(&scratch, 3);
    assert!(running(&prog));
    interrupt(child.id());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    assert!(!running(&prog), "the program is stopped");
    let page = std::fs::read_to_string(scratch.path("run-plain.html")).unwrap();
    assert!(page.contains("</html>"));
    let ours = eventlog_bands(&scratch.0, &scratch.path("run-plain.eventlog"));
    assert!(!ours.is_empty(), "the censuses before the signal are read");
    only_files(
        &scratch.0,
        &["run-plain.eventlog", "run-plain.hp", "run-plain.html"],
    );
}

/// `hpgraph run --serve` of the plain build (a copy of its own, in a folder of its own)
/// at census interval `i`, with `program_args`; the scratch folders live as long as it.
fn served_run(tag: &str, i: &str, program_args: &[&str]) -> Option<ServedRun> {
    let prog = program(Build::Plain)?;
    let scratch = Scratch::new(tag);
    let bin = Scratch::new(&format!("{tag}-bin"));
    let prog = own_copy(&prog, &bin);
    let p = prog.to_str().unwrap().to_string();
    let mut args = vec![
        "run",
        "--serve",
        "127.0.0.1:0",
        "--interval",
        "0.1",
        "-i",
        i,
        "--",
        &p,
    ];
    args.extend_from_slice(program_args);
    let served = Served::start(&scratch.0, &args);
    Some(ServedRun {
        served,
        prog,
        scratch,
        _bin: bin,
    })
}

struct ServedRun {
    served: Served,
    prog: PathBuf,
    scratch: Scratch,
    _bin: Scratch,
}

#[test]
fn served_while_it_runs_the_profile_grows() {
    // Every field bound: the scratch folders live to the end of the test.
    let Some(ServedRun {
        mut served,
        prog,
        scratch: _scratch,
        _bin,
    }) = served_run("run-serve", "0.02", &["100000", "forever"])
    else {
        return;
    };
    let censuses = |addr| {
        let reply = get(addr, "/profile.json");
        serde_json::from_slice::<serde_json::Value>(&reply.body)
            .ok()
            .and_then(|v| v["times"].as_array().map(Vec::len))
            .unwrap_or(0)
    };
    let addr = served.addr;
    wait_until("a first served census", 30.0, || censuses(addr) > 0);
    let first = censuses(addr);
    std::thread::sleep(Duration::from_millis(500));
    wait_until("more censuses served", 30.0, || censuses(addr) > first);
    served.interrupt();
    let status = served.child.wait().unwrap();
    assert_eq!(
        status.code(),
        Some(130),
        "{}",
        served.stderr.lock().unwrap()
    );
    assert!(!running(&prog), "the program is stopped");
}

/// Once the program ends, the served page is of its whole run (read from its eventlog,
/// whichever file the live view followed) and says how the program ended.
#[test]
fn served_after_the_program_ends_the_page_says_so_and_shows_the_whole_run() {
    let Some(ServedRun {
        mut served,
        scratch,
        _bin,
        ..
    }) = served_run("run-serve-end", "0.01", &["300000"])
    else {
        return;
    };
    let events = Listener::open(served.addr);
    let said = "ended · the program exited with status 0: the page shows its whole run, read \
                from run-plain.eventlog";
    let ended = || {
        let events = events.events.lock().unwrap();
        (events.iter()).find_map(|(_, e)| {
            let v: serde_json::Value = serde_json::from_str(e).ok()?;
            (v["status"] == "ended").then(|| v["says"].as_str().unwrap_or("").to_string())
        })
    };
    wait_until("the program's end on the page", 60.0, || ended().is_some());
    let says = ended().unwrap();
    let shown = says.replacen(
        &format!(" · {} samples", says.split(' ').nth(2).unwrap()),
        "",
        1,
    );
    assert_eq!(shown, said, "{says}");
    // Every census of the run: GHC's own .hp of it holds the same, with an empty census
    // at the start and at the end.
    let censuses = hp_censuses(&scratch.0.join("run-plain.hp"));
    let reply = get(served.addr, "/profile.json");
    let profile: serde_json::Value = serde_json::from_slice(&reply.body).unwrap();
    assert!(censuses > 0);
    assert_eq!(profile["times"].as_array().unwrap().len(), censuses);
    served.interrupt();
    let status = served.child.wait().unwrap();
    assert_eq!(status.code(), Some(0), "{}", served.stderr.lock().unwrap());
}

/// hpgraph killed outright takes its program with it, one that ignores SIGTERM too (the
/// system's parent-death signal was SIGTERM, and such a program outlived hpgraph).
#[test]
fn hpgraph_killed_outright_leaves_no_program_behind() {
    for mode in ["forever", "stubborn"] {
        // Each folder bound: one dropped is removed from under the run.
        let Some(Forever {
            scratch,
            _bin,
            prog,
            mut child,
        }) = forever_as(&format!("run-kill-{mode}"), mode)
        else {
            return;
        };
        // Censuses written: its main has run, and ignores SIGTERM if it is to.
        censuses_written(&scratch, 2);
        child.kill().unwrap(); // SIGKILL: no handler of hpgraph's runs
        child.wait().unwrap();
        wait_until("the program ended with hpgraph", 10.0, || !running(&prog));
    }
}

/// The pid of a running process of `program`, as [`running`] finds it.
fn pid_of(program: &Path) -> Option<u32> {
    let program = std::fs::canonicalize(program).unwrap();
    (std::fs::read_dir("/proc").unwrap().flatten())
        .find(|e| std::fs::read_link(e.path().join("exe")).is_ok_and(|exe| exe == program))
        .and_then(|e| e.file_name().to_str()?.parse().ok())
}

/// A program stopped by a signal it has no handler for (SIGTERM, from outside) ends
/// without writing out its eventlog's buffers: GHC before 9.2 keeps 2 MB of it, so the
/// file is its header and little more, while the `.hp` it writes at every census holds
/// the run. The page is drawn from what the run left, the source said, and no runtime
/// option hpgraph gave is advised.
#[test]
fn a_program_killed_outright_is_drawn_from_what_its_run_left() {
    let Some(Forever {
        scratch,
        _bin,
        prog,
        child,
    }) = forever("run-term")
    else {
        return;
    };
    censuses_written(&scratch, 5);
    let hp = scratch.path("run-plain.hp");
    let pid = pid_of(&prog).expect("the program runs");
    // SAFETY: kill(2) with the program's pid and SIGTERM has no memory effects here.
    unsafe { libc::kill(pid as libc::pid_t, libc::SIGTERM) };
    let out = child.wait_with_output().unwrap();
    let said = stderr(&out);
    assert_eq!(out.status.code(), Some(128 + 15), "{said}");
    let page = std::fs::read_to_string(scratch.path("run-plain.html")).unwrap();
    // GHC's .hp as the program left it: its complete censuses (the last may be cut).
    let text = std::fs::read_to_string(&hp).unwrap();
    let censuses = text.matches("END_SAMPLE").count();
    let eventlog = std::fs::metadata(scratch.path("run-plain.eventlog"))
        .unwrap()
        .len();
    if eventlog < 1 << 20 {
        assert!(
            said.contains("drawn from run-plain.hp, which the runtime wrote beside it"),
            "{said}"
        );
    }
    assert!(
        page.contains(&format!(" · {censuses} samples · ")),
        "the page of {censuses} censuses: {said}"
    );
    assert!(!said.contains("run the program with"), "{said}");
}

#[test]
fn no_output_replaces_the_program_and_nothing_is_touched_before_the_command_line_holds() {
    let Some(plain) = program(Build::Plain) else {
        return;
    };
    let scratch = Scratch::new("run-clobber");
    let prog = own_copy(&plain, &scratch);
    let bytes = std::fs::read(&prog).unwrap();
    // gcc's "input file is the same as output file": -o naming the program is refused.
    let out = run(
        &scratch.0,
        &["-o", prog.to_str().unwrap()],
        &prog,
        &["10"],
        None,
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("`hpgraph run`'s program"),
        "{}",
        stderr(&out)
    );
    assert!(
        std::fs::read(&prog).unwrap() == bytes,
        "the program was replaced"
    );
    // A live run follows the .hp before GHC 9.2: a command line refused after the
    // program is asked what it is keeps an earlier run's .hp.
    let hp = scratch.path("run-plain.hp");
    std::fs::write(&hp, "JOB \"earlier\"\n").unwrap();
    let live = ["--watch", "-o", "live.svg", "--from", "5", "--to", "1"];
    let out = run(&scratch.0, &live, &prog, &["10"], None);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(hp.exists(), "the earlier .hp was removed by a refused run");
    assert!(!running(&prog), "a refused run started the program");
    // -o naming the .hp the runtime will write is refused, the earlier one kept.
    let out = run(&scratch.0, &["-o", "run-plain.hp"], &prog, &["10"], None);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("the .hp file the program's runtime writes"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read(&hp).unwrap(), b"JOB \"earlier\"\n");
    // A run that goes ahead moves the earlier .hp aside, says so, and the next run's
    // goes to the next free name: no .hp is written over.
    for n in 1..=2 {
        let out = run(&scratch.0, &["--summary"], &prog, &["10"], None);
        crate::common::assert_ok(&out);
        let aside = scratch.path(&format!("run-plain.hp.~{n}~"));
        assert!(
            stderr(&out).contains(&format!("run-plain.hp moved aside to run-plain.hp.~{n}~")),
            "{}",
            stderr(&out)
        );
        if n == 1 {
            assert_eq!(std::fs::read(&aside).unwrap(), b"JOB \"earlier\"\n");
        } else {
            let earlier = std::fs::read_to_string(&aside).unwrap();
            assert!(earlier.starts_with("JOB \"run-plain"), "{earlier:.80}");
        }
        assert!(hp.exists(), "the run's own .hp is there");
    }
    // --keep naming the program (a program whose name ends in .eventlog) is refused.
    let odd = scratch.path("odd.eventlog");
    std::fs::copy(&prog, &odd).unwrap();
    let out = run(&scratch.0, &["--keep", "odd.eventlog"], &odd, &["10"], None);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("names the program"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        std::fs::read(&odd).unwrap(),
        bytes,
        "the program was replaced"
    );
}

#[test]
fn a_program_named_in_bytes_that_are_not_utf8_is_run_by_its_own_name() {
    use std::os::unix::ffi::OsStrExt;
    let Some(plain) = program(Build::Plain) else {
        return;
    };
    let scratch = Scratch::new("run-bytes");
    let name = std::ffi::OsStr::from_bytes(b"al\xff");
    let prog = scratch.0.join(name);
    std::fs::copy(&plain, &prog).unwrap();
    let out = (crate::common::command(&scratch.0))
        .args(["run", "--summary", "--"])
        .arg(&prog)
        .arg("10")
        .output()
        .unwrap();
    crate::common::assert_ok(&out);
    // The runtime was told the eventlog's path in the program's own bytes (it once got
    // U+FFFD in place of 0xff, and the run then found no eventlog).
    let mut eventlog = name.to_os_string();
    eventlog.push(".eventlog");
    assert!(
        scratch.0.join(&eventlog).exists(),
        "no {eventlog:?}: {:?}",
        files(&scratch.0)
    );
}
