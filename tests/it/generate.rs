//! `--generate`: the man page renders with man(1) and lists every long option; each
//! completion script loads in its shell (bash always; zsh and fish where installed,
//! as CI installs them) and completes hpgraph's options.

use std::process::{Command, Stdio};

use crate::common::{Scratch, hpgraph};

fn generated(what: &str) -> Vec<u8> {
    let dir = Scratch::new("generate");
    let out = hpgraph(&dir.0, &["--generate", what], None);
    assert!(out.status.success() && out.stderr.is_empty(), "{what}");
    out.stdout
}

/// Every long option and every alias `--help` shows (`--color` for `--colour`), read
/// from the binary's own `--help`: an option line (`  -o, --output <FILE>`) and its
/// `[alias: …]` or `[aliases: …]` lines.
fn long_options() -> Vec<String> {
    let dir = Scratch::new("generate-help");
    let out = hpgraph(&dir.0, &["--help"], None);
    crate::common::assert_ok(&out);
    let help = String::from_utf8(out.stdout).unwrap();
    let mut options = Vec::new();
    for line in help.lines() {
        let line = line.trim_start();
        let line = match line.as_bytes() {
            [b'-', c, b',', b' ', ..] if c.is_ascii_alphanumeric() => &line[4..],
            _ => line,
        };
        if let Some(rest) = line.strip_prefix("--") {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect();
            options.push(format!("--{name}"));
        } else if let Some(aliases) = line
            .strip_prefix("[alias: ")
            .or_else(|| line.strip_prefix("[aliases: "))
        {
            let aliases = aliases.trim_end_matches(']');
            options.extend(aliases.split(", ").map(str::to_string));
        }
    }
    assert!(options.len() > 50, "{options:?}: --help lists its options");
    options
}

fn installed(tool: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Runs `script` in `shell` with the completion script in a file beside it.
fn in_shell(shell: &str, args: &[&str], completion: &[u8], script: &str) -> String {
    let dir = Scratch::new(&format!("complete-{shell}"));
    std::fs::write(dir.path("completion"), completion).unwrap();
    let out = Command::new(shell)
        .args(args)
        .arg(script)
        .current_dir(&dir.0)
        .env("HOME", &dir.0)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{shell}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn the_man_page_renders_and_lists_every_long_option() {
    let roff = generated("man");
    let text = if installed("man") {
        let out = Command::new("sh")
            .args(["-c", "man -l - 2>/dev/null"])
            .env("MANWIDTH", "200")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .and_then(|mut child| {
                use std::io::Write;
                child.stdin.take().unwrap().write_all(&roff)?;
                child.wait_with_output()
            })
            .unwrap();
        crate::common::assert_ok(&out);
        // man may hyphenate and embolden: undo the overstrikes.
        let mut text = String::new();
        for c in String::from_utf8_lossy(&out.stdout).chars() {
            if c == '\u{8}' {
                text.pop();
            } else {
                text.push(c);
            }
        }
        text.replace(['\u{2010}', '\u{2212}'], "-")
    } else {
        eprintln!("man is not installed: checking the roff source");
        String::from_utf8_lossy(&roff).replace("\\-", "-")
    };
    for option in long_options() {
        assert!(text.contains(&option), "{option} is not in the man page");
    }
    for section in [
        "SYNOPSIS",
        "OPTIONS",
        "EXAMPLES",
        "EXIT STATUS",
        "FILES",
        "HP2PS OPTION SYNTAX",
    ] {
        assert!(text.contains(section), "{section}");
    }
}

#[test]
fn the_bash_completion_loads_and_completes_options() {
    let script = generated("complete-bash");
    let out = in_shell(
        "bash",
        &["--norc", "--noprofile", "-c"],
        &script,
        "source ./completion && complete -p hpgraph && \
         COMP_WORDS=(hpgraph --pal); COMP_CWORD=1; COMP_LINE='hpgraph --pal'; COMP_POINT=13; \
         _hpgraph hpgraph --pal hpgraph; printf '%s\\n' \"${COMPREPLY[@]}\"",
    );
    assert!(out.contains("complete"), "{out}");
    assert!(out.lines().any(|l| l == "--palette"), "{out}");
}

#[test]
fn the_zsh_and_fish_completions_load_where_installed() {
    // (shell, its flags for a bare shell and a command, what loads and queries the
    // completion, what the answer must hold)
    let shells = [
        (
            "zsh",
            &["-f", "-c"][..],
            "autoload -U compinit && compinit -u && source ./completion && \
             print -r -- ${_comps[hpgraph]}",
            "_hpgraph",
        ),
        (
            "fish",
            &["--no-config", "-c"],
            "source ./completion; complete -C'hpgraph --pal'",
            "--palette",
        ),
    ];
    for (shell, flags, script, expected) in shells {
        if !installed(shell) {
            eprintln!("{shell} is not installed here");
            continue;
        }
        let completion = generated(&format!("complete-{shell}"));
        let out = in_shell(shell, flags, &completion, script);
        assert!(out.contains(expected), "{shell}: {out}");
    }
    for what in ["complete-powershell", "complete-elvish"] {
        let script = String::from_utf8(generated(what)).unwrap();
        assert!(
            script.contains("hpgraph") && script.contains("--palette"),
            "{what}"
        );
    }
}
