//! hp2ps's option syntax, turned into options clap can parse.
//!
//! hp2ps reads each `-xyz` argument letter by letter: `p` is a flag and reading goes on
//! (`-pc` is `-p -c`), while every other letter takes the rest of the argument as its
//! value or ignores it (`-cp` is just `-c`, `-m5`, `-t0.5`, `-e8in`, `-i-`). Numbers are
//! read with C's `atoi`/`atof`, which stop at the first character that does not fit.
//! clap cannot express that, so this one function rewrites such arguments into long
//! options (`-pc` → `--reuse-aux --colour`, `-m` → `--max-bands=0`) before clap sees
//! them. Long options, `-o`, `-h`, `-V` and everything after `--` pass through.

use std::ffi::OsString;

/// Long options whose value may come as the next argument: every option of
/// the command line's definition (`cli::args`) that takes a value without `=` (a test there holds the two lists
/// equal). The value is joined to its option, so clap reads it as given even where it
/// starts with `-` (`--title -x`).
pub(super) const TAKES_VALUE: &[&str] = &[
    "--eps",
    "--max-bands",
    "--threshold",
    "--output",
    "--format",
    "--dpi",
    "--style",
    "--palette",
    "--title",
    "--key",
    "--size",
    "--font-size",
    "--y-max",
    "--x-max",
    "--measure",
    "--sort",
    "--top",
    "--include",
    "--exclude",
    "--from",
    "--to",
    "--view",
    "--marks",
    "--min-share",
    "--retainer-sets",
    "--binary",
    "--check",
    "--check-report",
    "--connect",
    "--interval",
    "--exec",
    "--compare-time",
    "--generate",
];

/// An hp2ps-style option that is not valid; `arg` quotes it as hp2ps's usage text does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadOption {
    /// The argument as given.
    pub arg: String,
    /// What is wrong with it.
    pub why: String,
}

/// Rewrites hp2ps-style short options into long ones.
pub fn normalise(args: impl IntoIterator<Item = OsString>) -> Result<Vec<OsString>, BadOption> {
    let mut out = Vec::new();
    let mut args = args.into_iter().peekable();
    while let Some(arg) = args.next() {
        let Some(s) = arg.to_str().map(str::to_owned) else {
            out.push(arg);
            continue;
        };
        let s = s.as_str();
        if s == "--" {
            out.push(arg);
            out.extend(args.by_ref());
            break;
        }
        // Options whose value is optional, which clap takes only after `=`: the value
        // joins them when the next argument is one (`--serve 8080` and `--serve prog.hp`
        // both read as meant, as do `--same-scale y a.hp` and `--same-scale a.hp`).
        // The others that take a value take the next argument, whatever it is.
        let value: Option<fn(&str) -> bool> = match s {
            "--serve" => Some(looks_like_address),
            "--same-scale" => Some(|v| matches!(v, "x" | "y" | "both")),
            _ if TAKES_VALUE.contains(&s) => Some(|_| true),
            _ => None,
        };
        if s.starts_with("--") {
            // Text that is not UTF-8 is a value only where any argument is one.
            let any = TAKES_VALUE.contains(&s);
            let value =
                |next: &OsString| value.is_some_and(|is_value| next.to_str().map_or(any, is_value));
            match args.next_if(value) {
                Some(v) => {
                    let mut joined = arg.clone();
                    joined.push("=");
                    joined.push(&v);
                    out.push(joined);
                }
                None => out.push(arg),
            }
            continue;
        }
        if !s.starts_with('-') || s == "-" {
            out.push(arg);
            continue;
        }
        match s.as_bytes().get(1).copied().unwrap_or(b'-') {
            b'o' => {
                out.push(arg);
                if s == "-o"
                    && let Some(v) = args.next()
                {
                    out.push(v);
                }
            }
            b'h' | b'V' | b'q' if s.len() == 2 => out.push(arg),
            // `-e 3in`, as `--help` shows `-e, --eps <WIDTH>`: hp2ps itself knows only
            // `-e3in`, and takes `-e` alone for a width of 0, an error.
            b'e' if s == "-e" => {
                out.push(OsString::from("--eps"));
                out.extend(args.next());
            }
            // `-m 10 prog.hp`, as getopt's users write it: hp2ps reads `-m` alone (no
            // limit) and `10` as a profile. Where no file `10` or `10.hp` exists, the
            // number can only be meant as the value, and is taken as one.
            b'm' | b't' if s.len() == 2 => {
                let name = if s == "-m" { "max-bands" } else { "threshold" };
                match args.next_if(|next| next.to_str().is_some_and(is_spaced_value)) {
                    Some(v) => {
                        let v = v.to_string_lossy();
                        out.push(OsString::from(format!("--{name}={v}")));
                    }
                    None => letters(s, &mut out)?,
                }
            }
            _ => letters(s, &mut out)?,
        }
    }
    Ok(out)
}

/// A number given apart from its `-m` or `-t` that names no profile (neither `N` nor
/// `N.hp` exists).
fn is_spaced_value(s: &str) -> bool {
    !s.is_empty()
        && s.parse::<f64>().is_ok_and(|v| v >= 0.0)
        && s.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && !std::path::Path::new(s).exists()
        && !std::path::Path::new(&format!("{s}.hp")).exists()
}

/// `PORT`, `HOST:PORT` or `[IPv6]:PORT`: not a file name a profile would have.
fn looks_like_address(s: &str) -> bool {
    let port = |p: &str| !p.is_empty() && p.len() <= 5 && p.bytes().all(|b| b.is_ascii_digit());
    port(s)
        || s.rsplit_once(':')
            .is_some_and(|(host, p)| !host.is_empty() && port(p))
}

fn letters(s: &str, out: &mut Vec<OsString>) -> Result<(), BadOption> {
    // By characters, not bytes: an argument may hold any text (`-été`).
    let mut before = 0;
    for (k, letter) in s.char_indices().skip(1) {
        let rest = &s[k + letter.len_utf8()..];
        let flag = |name: &str| OsString::from(format!("--{name}"));
        let value = |name: &str, v: &str| OsString::from(format!("--{name}={v}"));
        match letter {
            'p' => {
                out.push(flag("reuse-aux"));
                before = k;
                continue;
            }
            'b' => out.push(flag("big-title")),
            's' => out.push(flag("small-title")),
            'd' => out.push(flag("sort-deviation")),
            'g' => out.push(flag("portrait")),
            'y' => out.push(flag("no-marks")),
            'c' => out.push(flag("colour")),
            'M' => out.push(flag("multi-page")),
            '?' => out.push(flag("help")),
            'i' => out.push(value(
                "sort-name",
                if rest.starts_with('-') { "desc" } else { "asc" },
            )),
            'e' => out.push(value("eps", rest)),
            'm' => {
                let n = atoi(rest);
                if n < 0 {
                    return Err(BadOption {
                        arg: s[before..].to_string(),
                        why: format!("the band limit must not be negative (got {n})"),
                    });
                }
                out.push(value("max-bands", &n.to_string()));
            }
            't' => out.push(value("threshold", &atof(rest).to_string())),
            _ => {
                let shown = if k == 1 { s } else { &s[before..] };
                return Err(BadOption {
                    arg: shown.to_string(),
                    why: format!("unknown option letter `{letter}`"),
                });
            }
        }
        break;
    }
    Ok(())
}

/// C's `atoi`: optional blanks and sign, then digits; 0 when there are none.
pub fn atoi(s: &str) -> i64 {
    let t = s.trim_start();
    let (neg, digits) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let end = digits
        .bytes()
        .position(|c| !c.is_ascii_digit())
        .unwrap_or(digits.len());
    let n = digits[..end].bytes().fold(0i64, |n, c| {
        n.saturating_mul(10).saturating_add(i64::from(c - b'0'))
    });
    if neg { -n } else { n }
}

/// C's `atof` for decimal text: the longest prefix that reads as a number; 0 when there
/// is none. (Hexadecimal floats are not accepted; nobody writes `-e0x1p8`.)
pub fn atof(s: &str) -> f64 {
    let t = s.trim_start();
    let b = t.as_bytes();
    let mut i = 0;
    if matches!(b.first(), Some(b'+' | b'-')) {
        i += 1;
    }
    let lower = t[i..].to_ascii_lowercase();
    for word in ["infinity", "inf", "nan"] {
        if lower.starts_with(word) {
            return t[..i + word.len()].parse().unwrap_or(0.0);
        }
    }
    let digits_from = |mut j: usize| {
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        j
    };
    let int_end = digits_from(i);
    let mut end = int_end;
    if b.get(end) == Some(&b'.') {
        end = digits_from(end + 1);
    }
    if end == i || (end == i + 1 && b.get(i) == Some(&b'.')) {
        return 0.0;
    }
    if matches!(b.get(end), Some(b'e' | b'E')) {
        let mut j = end + 1;
        if matches!(b.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        let k = digits_from(j);
        if k > j {
            end = k;
        }
    }
    t[..end].parse().unwrap_or(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn norm(args: &[&str]) -> Vec<String> {
        normalise(args.iter().map(OsString::from))
            .unwrap()
            .into_iter()
            .map(|a| a.into_string().unwrap())
            .collect()
    }

    #[test]
    fn p_continues_and_other_letters_take_the_rest() {
        assert_eq!(norm(&["-pc"]), ["--reuse-aux", "--colour"]);
        assert_eq!(norm(&["-cp"]), ["--colour"]);
        assert_eq!(norm(&["-bx"]), ["--big-title"]);
        assert_eq!(
            norm(&["-ppy"]),
            ["--reuse-aux", "--reuse-aux", "--no-marks"]
        );
    }

    #[test]
    fn values_are_read_like_atoi_and_atof() {
        assert_eq!(norm(&["-m"]), ["--max-bands=0"]);
        // A number apart from -m that names no file is its value.
        assert_eq!(norm(&["-m", "17", "a.hp"]), ["--max-bands=17", "a.hp"]);
        assert_eq!(norm(&["-t", "0.5"]), ["--threshold=0.5"]);
        assert_eq!(norm(&["-m", "a.hp"]), ["--max-bands=0", "a.hp"]);
        assert_eq!(norm(&["-m0"]), ["--max-bands=0"]);
        assert_eq!(norm(&["-m25"]), ["--max-bands=25"]);
        assert_eq!(norm(&["-m5x"]), ["--max-bands=5"]);
        assert_eq!(norm(&["-t"]), ["--threshold=0"]);
        assert_eq!(norm(&["-t0.5"]), ["--threshold=0.5"]);
        assert_eq!(norm(&["-t3.5abc"]), ["--threshold=3.5"]);
        assert_eq!(norm(&["-e8in"]), ["--eps=8in"]);
        assert_eq!(norm(&["-e120mm"]), ["--eps=120mm"]);
    }

    #[test]
    fn serve_takes_an_address_only_when_one_follows() {
        assert_eq!(norm(&["--serve", "8080", "p.hp"]), ["--serve=8080", "p.hp"]);
        assert_eq!(
            norm(&["--serve", "127.0.0.1:0", "p.hp"]),
            ["--serve=127.0.0.1:0", "p.hp"]
        );
        assert_eq!(norm(&["--serve", "[::1]:80"]), ["--serve=[::1]:80"]);
        assert_eq!(norm(&["--serve", "p.hp"]), ["--serve", "p.hp"]);
        assert_eq!(norm(&["--serve", "-c", "p"]), ["--serve", "--colour", "p"]);
        assert_eq!(norm(&["p.hp", "--serve"]), ["p.hp", "--serve"]);
    }

    #[test]
    fn same_scale_takes_its_axes_only_when_they_follow() {
        assert_eq!(
            norm(&["--same-scale", "y", "a.hp"]),
            ["--same-scale=y", "a.hp"]
        );
        assert_eq!(norm(&["--same-scale", "a.hp"]), ["--same-scale", "a.hp"]);
        assert_eq!(
            norm(&["--same-scale=x", "a.hp"]),
            ["--same-scale=x", "a.hp"]
        );
    }

    #[test]
    fn i_minus_is_descending_and_anything_else_ascending() {
        assert_eq!(norm(&["-i-"]), ["--sort-name=desc"]);
        assert_eq!(norm(&["-i"]), ["--sort-name=asc"]);
        assert_eq!(norm(&["-i+"]), ["--sort-name=asc"]);
        assert_eq!(norm(&["-iz"]), ["--sort-name=asc"]);
    }

    #[test]
    fn long_options_output_and_files_pass_through() {
        assert_eq!(
            norm(&[
                "-o", "-c", "prof.hp", "--colour", "--eps", "5in", "-", "--", "-b"
            ]),
            [
                "-o",
                "-c",
                "prof.hp",
                "--colour",
                "--eps=5in",
                "-",
                "--",
                "-b"
            ]
        );
        assert_eq!(norm(&["-?"]), ["--help"]);
        assert_eq!(norm(&["-h"]), ["-h"]);
    }

    #[test]
    fn unknown_letters_are_reported_as_hp2ps_quotes_them() {
        let bad = |a: &str| normalise([OsString::from(a)]).unwrap_err().arg;
        assert_eq!(bad("-x"), "-x");
        assert_eq!(bad("-l"), "-l");
        assert_eq!(bad("-px"), "px");
        assert!(normalise([OsString::from("-m-3")]).is_err());
    }

    #[test]
    fn any_text_after_a_dash_is_read_without_a_panic() {
        let bad = |a: &str| normalise([OsString::from(a)]).unwrap_err();
        assert_eq!(bad("-é").arg, "-é");
        assert!(bad("-é").why.contains("`é`"), "{:?}", bad("-é"));
        assert_eq!(bad("-pé").arg, "pé");
        assert_eq!(norm(&["-cé"]), ["--colour"]);
        assert_eq!(norm(&["-e8é"]), ["--eps=8é"]);
        // A value that starts with a dash is the value of the option before it.
        assert_eq!(norm(&["--title", "-été"]), ["--title=-été"]);
        assert_eq!(norm(&["--check", "-≥ 1"]), ["--check=-≥ 1"]);
        assert_eq!(norm(&["--include", "-é", "x.hp"]), ["--include=-é", "x.hp"]);
    }

    #[test]
    fn atof_and_atoi_stop_at_the_first_stray_character() {
        assert_eq!(atof("1e3x"), 1000.0);
        assert_eq!(atof("2.5in"), 2.5);
        assert_eq!(atof("in"), 0.0);
        assert_eq!(atof("."), 0.0);
        assert_eq!(atof(".5"), 0.5);
        assert_eq!(atof("-1"), -1.0);
        assert!(atof("inf").is_infinite());
        assert_eq!(atoi(" 42abc"), 42);
        assert_eq!(atoi("-7"), -7);
        assert_eq!(atoi("x"), 0);
    }
}
