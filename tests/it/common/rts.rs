//! `+RTS -s` as the runtime prints it, read from its text: the oracle for every runtime
//! figure (`--stats`, `--check`).

use std::path::Path;

/// What `+RTS -s` printed, read from its text.
#[derive(Debug, Default)]
pub struct Printed {
    pub allocated: u64,
    pub copied: u64,
    pub residency: Option<(u64, u64)>,
    pub slop: Option<u64>,
    pub mib_in_use: u64,
    /// Per generation: collections, parallel, elapsed, avg pause, max pause.
    pub gens: Vec<(u64, u64, f64, f64, f64)>,
    pub balance: Option<f64>,
    /// The non-moving collector's syncs: count, elapsed, avg, max.
    pub syncs: Option<(u64, f64, f64, f64)>,
    /// The non-moving collector's concurrent row: CPU, "elapsed", avg, max.
    pub concurrent: Option<(f64, f64, f64, f64)>,
    /// A threaded runtime's: it prints `TASKS:`.
    pub threaded: bool,
    pub init: f64,
    pub mut_: f64,
    pub gc: f64,
    pub prof: f64,
    pub exit: f64,
    pub total: f64,
}

pub fn number(s: &str) -> u64 {
    s.trim()
        .replace(',', "")
        .parse()
        .unwrap_or_else(|_| panic!("a number: {s:?}"))
}

pub fn seconds(s: &str) -> f64 {
    s.trim()
        .trim_end_matches('s')
        .trim()
        .parse()
        .unwrap_or_else(|_| panic!("seconds: {s:?}"))
}

pub fn read_s(path: &Path) -> Printed {
    let text = std::fs::read_to_string(path).unwrap();
    let mut p = Printed::default();
    for line in text.lines() {
        let t = line.trim();
        if let Some(n) = t.strip_suffix(" bytes allocated in the heap") {
            p.allocated = number(n);
        } else if let Some(n) = t.strip_suffix(" bytes copied during GC") {
            p.copied = number(n);
        } else if let Some((n, rest)) = t.split_once(" bytes maximum residency (") {
            p.residency = Some((number(n), number(rest.trim_end_matches(" sample(s))"))));
        } else if let Some(n) = t.strip_suffix(" bytes maximum slop") {
            p.slop = Some(number(n));
        } else if let Some((n, _)) = t.split_once(" MiB total memory in use") {
            p.mib_in_use = number(n);
        } else if t.starts_with("Gen ") && t.contains(" colls, ") {
            // Gen  0       201 colls,   201 par    0.046s   0.214s     0.0011s    0.0155s
            let f: Vec<&str> = t.split_whitespace().collect();
            let k: usize = f[1].parse().unwrap();
            assert_eq!(k, p.gens.len(), "{t}");
            p.gens.push((
                number(f[2]),
                number(f[4]),
                seconds(f[7]),
                seconds(f[8]),
                seconds(f[9]),
            ));
        } else if t.starts_with("Gen ") && t.contains(" syncs,") {
            // Gen  1         5 syncs,                       0.002s     0.0004s    0.0006s
            let f: Vec<&str> = t.split_whitespace().collect();
            p.syncs = Some((number(f[2]), seconds(f[4]), seconds(f[5]), seconds(f[6])));
        } else if t.starts_with("Gen ") && t.contains(" concurrent,") {
            // Gen  1      concurrent,              0.165s   0.362s     0.0402s    0.1560s
            let f: Vec<&str> = t.split_whitespace().collect();
            p.concurrent = Some((seconds(f[3]), seconds(f[4]), seconds(f[5]), seconds(f[6])));
        } else if t.starts_with("TASKS:") {
            p.threaded = true;
        } else if let Some(rest) = t.strip_prefix("Parallel GC work balance: ") {
            p.balance = Some(rest.split('%').next().unwrap().parse().unwrap());
        } else if let Some((label, rest)) = t.split_once(" time ").filter(|(label, _)| {
            ["INIT", "MUT", "GC", "PROF", "EXIT", "Total"].contains(&label.trim())
        }) && let Some((_, elapsed)) = rest.split_once('(')
        {
            let v = seconds(elapsed.trim_end_matches(" elapsed)"));
            match label.trim() {
                "INIT" => p.init = v,
                "MUT" => p.mut_ = v,
                "GC" => p.gc = v,
                "PROF" => p.prof = v,
                "EXIT" => p.exit = v,
                "Total" => p.total = v,
                _ => {}
            }
        }
    }
    p
}
