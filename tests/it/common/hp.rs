//! The tests' one reader of `.hp` text, as GHC writes it and hp2ps reads it, written
//! apart from hpgraph's reader so that the tests hold hpgraph to the file rather than to
//! itself. Itself held to hp2ps: each golden run's `.aux` ranges and bands are what this
//! reader finds in its `.hp` (below).
//!
//! A census is the lines between `BEGIN_SAMPLE T` and `END_SAMPLE T`, each `NAME VALUE`
//! (GHC writes a tab between them, hp2ps's examples a space), in the file's order, a
//! name written twice kept twice (hp2ps adds them up: its spec, §3.2). A census begun
//! and never ended (a cut file) is kept. GHC numbers a cost-centre stack's name `(N)`,
//! which [`unnumbered`] drops.

use std::collections::BTreeMap;
use std::path::Path;

/// One census.
#[derive(Debug, Clone, PartialEq)]
pub struct Census {
    /// `BEGIN_SAMPLE`'s time.
    pub time: f64,
    /// Each line's name and value, in the file's order.
    pub lines: Vec<(String, f64)>,
}

impl Census {
    /// Its lines' sum.
    pub fn total(&self) -> f64 {
        self.lines.iter().map(|l| l.1).sum()
    }

    /// Each name's values added up, names as `name` gives them (`|n| n` keeps GHC's,
    /// [`unnumbered`] drops its numbers).
    pub fn summed(&self, name: impl Fn(&str) -> &str) -> BTreeMap<String, f64> {
        let mut by = BTreeMap::new();
        for (n, v) in &self.lines {
            *by.entry(name(n).to_string()).or_default() += v;
        }
        by
    }

    /// The value of `band` (added up over its lines; 0 where it has none).
    pub fn of(&self, band: &str) -> f64 {
        (self.lines.iter())
            .filter(|l| l.0 == band)
            .map(|l| l.1)
            .sum()
    }
}

/// The censuses of the `.hp` file at `path`.
pub fn censuses(path: &Path) -> Vec<Census> {
    censuses_of(&String::from_utf8_lossy(&std::fs::read(path).unwrap()))
}

/// The censuses of `.hp` text.
pub fn censuses_of(text: &str) -> Vec<Census> {
    let mut out = Vec::new();
    let mut open: Option<Census> = None;
    for line in text.lines() {
        if let Some(t) = line.strip_prefix("BEGIN_SAMPLE ") {
            out.extend(open.take());
            let time = t.trim().parse().unwrap();
            open = Some(Census {
                time,
                lines: Vec::new(),
            });
        } else if line.starts_with("END_SAMPLE") {
            out.extend(open.take());
        } else if let Some(census) = open.as_mut() {
            let (name, value) = (line.rsplit_once('\t'))
                .or_else(|| line.trim_end().rsplit_once(' '))
                .unwrap_or_else(|| panic!("no value on `{line}`"));
            census
                .lines
                .push((name.to_string(), value.trim().parse().unwrap()));
        }
    }
    out.extend(open);
    out
}

/// The names in order of first appearance.
pub fn names(censuses: &[Census]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for c in censuses {
        for (n, _) in &c.lines {
            if !names.contains(n) {
                names.push(n.clone());
            }
        }
    }
    names
}

/// A name without GHC's `(N)` stack number (`(12)main/f` → `main/f`).
pub fn unnumbered(name: &str) -> &str {
    match name.strip_prefix('(').and_then(|r| r.split_once(')')) {
        Some((n, rest)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => rest,
        _ => name,
    }
}

/// hp2ps's own reading of each golden run given no option (`hp2ps NAME.hp`): its `.aux`
/// says the time range (the last census's time less the first's, 1 where that is 0),
/// every band it kept
/// (each one this reader found), and, where none was gathered into OTHER, the height:
/// the largest census total of the bands kept.
#[test]
fn the_reader_finds_what_hp2ps_found() {
    let dir = super::fixtures().join("hp2ps-golden");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let cmd = entry.unwrap().path();
        if cmd.extension().is_none_or(|e| e != "cmd") {
            continue;
        }
        let words: Vec<String> = (std::fs::read_to_string(&cmd).unwrap())
            .split_whitespace()
            .map(String::from)
            .collect();
        let aux = cmd.with_extension("aux");
        let [hp2ps, file] = &words[..] else { continue };
        if hp2ps != "hp2ps" || !aux.exists() {
            continue;
        }
        let cs = censuses(&dir.join(file));
        let aux = std::fs::read_to_string(&aux).unwrap();
        let field = |key: &str| -> Vec<String> {
            (aux.lines())
                .filter_map(|l| l.strip_prefix(key))
                .map(|v| v.trim().to_string())
                .collect()
        };
        let x: f64 = field("X_RANGE ")[0].parse().unwrap();
        let span = cs.last().map_or(0.0, |c| c.time) - cs.first().map_or(0.0, |c| c.time);
        let span = if span == 0.0 { 1.0 } else { span }; // hp2ps's rule for one census
        assert_eq!(format!("{x:.2}"), format!("{span:.2}"), "{file}: X_RANGE");
        let kept: Vec<String> = (field("ORDER ").iter())
            .map(|o| o.rsplit_once(' ').unwrap().0.to_string())
            .collect();
        let all = names(&cs);
        for k in kept.iter().filter(|k| *k != "OTHER") {
            assert!(all.contains(k), "{file}: hp2ps kept {k}, not read here");
        }
        if !kept.iter().any(|k| k == "OTHER") && !kept.is_empty() {
            let y: f64 = field("Y_RANGE ")[0].parse().unwrap();
            let top = (cs.iter())
                .map(|c| kept.iter().map(|k| c.of(k)).sum::<f64>())
                .fold(0.0, f64::max);
            let top = if top == 0.0 { 1.0 } else { top }; // and for an empty graph
            assert_eq!(format!("{y:.2}"), format!("{top:.2}"), "{file}: Y_RANGE");
        }
        checked += 1;
    }
    assert!(checked >= 5, "{checked} golden runs checked");
}
