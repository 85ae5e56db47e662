//! Writes a synthetic but realistic heap profile to standard output, for benchmarks.
//!
//! usage: cargo run --release --example gen-profile -- SAMPLES BANDS IDS SEED > big.hp
//!
//! IDS cost-centre-stack names in GHC's `-hc` style (`(1234)Module.fn/caller/...`); at
//! any time about BANDS of them are live. Each live band's size is a random walk; bands
//! die and are replaced by others, so bands appear and vanish over the run. Times grow
//! by a jittered 0.01 s, printed like the runtime prints them.

use std::collections::VecDeque;
use std::io::{self, BufWriter, Write};

/// xorshift64*: small, fast, and the same sequence on every machine for a given seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const MODULES: &[&str] = &[
    "Main",
    "Data.Map.Internal",
    "Data.IntMap.Internal",
    "GHC.Base",
    "Parser.Lexer",
    "Parser.Syntax",
    "Compiler.Core",
    "Compiler.Simplify",
    "Data.Text.Internal",
    "Util",
];
const FUNCTIONS: &[&str] = &[
    "go", "insert", "lookup", "foldr", "step", "parse", "render", "simplify", "mapM", "loop",
    "collect", "sat_s1", "eval", "unify", "build",
];

fn name(rng: &mut Rng, k: usize) -> String {
    let depth = 1 + rng.below(2) as usize;
    let mut s = format!("({})", 100 + k);
    for d in 0..depth {
        if d > 0 {
            s.push('/');
        }
        let m = MODULES[rng.below(MODULES.len() as u64) as usize];
        let f = FUNCTIONS[rng.below(FUNCTIONS.len() as u64) as usize];
        s.push_str(&format!("{m}.{f}"));
    }
    s
}

fn main() -> io::Result<()> {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("SAMPLES BANDS IDS SEED are numbers"))
        .collect();
    let [samples, bands, ids, seed] = args[..] else {
        eprintln!("usage: gen-profile SAMPLES BANDS IDS SEED");
        std::process::exit(2);
    };
    let (bands, ids) = (bands as usize, (ids as usize).max(bands as usize));
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let names: Vec<String> = (0..ids).map(|k| name(&mut rng, k)).collect();
    // Live bands: (name index, current size in bytes).
    let mut live: Vec<(usize, u64)> = (0..bands).map(|k| (k, 1000 + rng.below(100_000))).collect();
    // Names not live now, in the order they will be revived.
    let mut dead: VecDeque<usize> = (bands..ids).collect();

    let out = io::stdout();
    let mut w = BufWriter::with_capacity(1 << 20, out.lock());
    writeln!(w, "JOB \"bench +RTS -hc -i0.01 -RTS\"")?;
    writeln!(w, "DATE \"Thu Jan  1 00:00 2026\"")?;
    writeln!(w, "SAMPLE_UNIT \"seconds\"")?;
    writeln!(w, "VALUE_UNIT \"bytes\"")?;
    let mut t = 0.0f64;
    for _ in 0..samples {
        writeln!(w, "BEGIN_SAMPLE {t:.6}")?;
        for (k, size) in live.iter_mut() {
            // A random walk of roughly ±5% a step, between one closure and 5 MB.
            let step = (*size / 20).max(16);
            let delta = rng.below(2 * step + 1) as i64 - step as i64;
            *size = (*size as i64 + delta).clamp(16, 5_000_000) as u64;
            writeln!(w, "{}\t{}", names[*k], *size)?;
        }
        writeln!(w, "END_SAMPLE {t:.6}")?;
        // About one band in a hundred dies each sample and another takes its place.
        for slot in live.iter_mut() {
            if rng.below(100) == 0
                && let Some(revived) = dead.pop_front()
            {
                dead.push_back(slot.0);
                *slot = (revived, 1000 + rng.below(100_000));
            }
        }
        t += 0.01 + rng.below(1000) as f64 * 1e-6;
    }
    w.flush()
}
