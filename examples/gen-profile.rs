//! Writes a synthetic but realistic heap profile to standard output, for benchmarks.
//!
//! usage: cargo run --release --example gen-profile -- SAMPLES BANDS IDS SEED > big.hp
//!        … SAMPLES BANDS IDS SEED --eventlog big.eventlog [--filler N] > big.hp
//!
//! With `--eventlog` the same run is also written as a GHC eventlog, as a program run
//! with `+RTS -hc -l` writes both files: cost-centre definitions, and each sample as
//! cost-centre-stack events, with N other events a sample (default 200: thread runs and
//! stops, garbage collections with heap size and live bytes, as the runtime's scheduler
//! and collector write them) that a reader must skip. The eventlog's band names are the
//! `.hp`'s without the `(N)` prefix, as GHC's are.
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

/// A cost-centre stack: its `.hp` name and its cost centres (indexes into the table of
/// `module.function` labels), innermost first.
fn name(rng: &mut Rng, k: usize) -> (String, Vec<u32>) {
    let depth = 1 + rng.below(2) as usize;
    let mut s = format!("({})", 100 + k);
    let mut stack = Vec::new();
    for d in 0..depth {
        if d > 0 {
            s.push('/');
        }
        let m = rng.below(MODULES.len() as u64) as usize;
        let f = rng.below(FUNCTIONS.len() as u64) as usize;
        s.push_str(&format!("{}.{}", MODULES[m], FUNCTIONS[f]));
        stack.push((m * FUNCTIONS.len() + f) as u32 + 1);
    }
    (s, stack)
}

/// Writes GHC's eventlog layout (EventLogFormat.h): a header declaring every event type
/// used, then events in blocks, each block led by a marker holding its length and
/// capability. As in the runtime, the census, cost centres and program details go to the
/// global buffer (capability 0xffff) and the scheduler's and collector's events to
/// capability 0's.
struct Eventlog<W: Write> {
    out: W,
    global: Vec<u8>,
    cap: Vec<u8>,
}

const GLOBAL: u16 = 0xffff;

const TYPES: &[(u16, u16, &str)] = &[
    (1, 4, "Run thread"),
    (2, 10, "Stop thread"),
    (9, 0, "Starting GC"),
    (10, 0, "Finished GC"),
    (18, 14, "Block marker"),
    (29, 0xffff, "RTS name and version"),
    (30, 0xffff, "Program arguments"),
    (43, 16, "Wall clock time"),
    (50, 12, "Current heap size"),
    (51, 12, "Current heap live data"),
    (160, 0xffff, "Start of heap profile"),
    (161, 0xffff, "Cost center definition"),
    (162, 8, "Start of heap profile sample"),
    (163, 0xffff, "Heap profile cost-centre sample"),
    (165, 8, "End of heap profile sample"),
];

impl<W: Write> Eventlog<W> {
    fn new(mut out: W) -> io::Result<Self> {
        out.write_all(b"hdrbhetb")?;
        for &(id, size, desc) in TYPES {
            out.write_all(b"etb\0")?;
            out.write_all(&id.to_be_bytes())?;
            out.write_all(&size.to_be_bytes())?;
            out.write_all(&(desc.len() as u32).to_be_bytes())?;
            out.write_all(desc.as_bytes())?;
            out.write_all(&0u32.to_be_bytes())?;
            out.write_all(b"ete\0")?;
        }
        out.write_all(b"hetehdredatb")?;
        Ok(Eventlog {
            out,
            global: Vec::with_capacity(1 << 20),
            cap: Vec::with_capacity(2 << 20),
        })
    }

    /// An event of the census or the program (global buffer).
    fn event(&mut self, ty: u16, time: u64, payload: &[u8]) -> io::Result<()> {
        self.post(GLOBAL, ty, time, payload)
    }

    /// A scheduler's or collector's event (capability 0's buffer).
    fn cap_event(&mut self, ty: u16, time: u64, payload: &[u8]) -> io::Result<()> {
        self.post(0, ty, time, payload)
    }

    fn post(&mut self, cap: u16, ty: u16, time: u64, payload: &[u8]) -> io::Result<()> {
        let variable = TYPES.iter().any(|t| t.0 == ty && t.1 == 0xffff);
        // The runtime's buffers: 2 MiB a capability, 1 MiB here for the global one.
        let limit = if cap == GLOBAL { 1 << 20 } else { 2 << 20 };
        let len = if cap == GLOBAL {
            self.global.len()
        } else {
            self.cap.len()
        };
        if len + payload.len() + 12 > limit {
            self.flush_block(cap, time)?;
        }
        let block = if cap == GLOBAL {
            &mut self.global
        } else {
            &mut self.cap
        };
        block.extend(ty.to_be_bytes());
        block.extend(time.to_be_bytes());
        if variable {
            block.extend((payload.len() as u16).to_be_bytes());
        }
        block.extend(payload);
        Ok(())
    }

    fn flush_block(&mut self, cap: u16, end: u64) -> io::Result<()> {
        let block = if cap == GLOBAL {
            &mut self.global
        } else {
            &mut self.cap
        };
        let mut marker = 18u16.to_be_bytes().to_vec();
        marker.extend(0u64.to_be_bytes());
        marker.extend((24 + block.len() as u32).to_be_bytes());
        marker.extend(end.to_be_bytes());
        marker.extend(cap.to_be_bytes());
        self.out.write_all(&marker)?;
        self.out.write_all(block)?;
        block.clear();
        Ok(())
    }

    fn finish(mut self, end: u64) -> io::Result<()> {
        self.flush_block(0, end)?;
        self.flush_block(GLOBAL, end)?;
        self.out.write_all(&0xffffu16.to_be_bytes())?;
        self.out.flush()
    }
}

fn main() -> io::Result<()> {
    let raw: Vec<String> = std::env::args().skip(1).collect();
    let (numbers, options) = raw.split_at(raw.len().min(4));
    let args: Vec<u64> = numbers
        .iter()
        .map(|a| a.parse().expect("SAMPLES BANDS IDS SEED are numbers"))
        .collect();
    let [samples, bands, ids, seed] = args[..] else {
        eprintln!("usage: gen-profile SAMPLES BANDS IDS SEED [--eventlog FILE [--filler N]]");
        std::process::exit(2);
    };
    let mut eventlog_path = None;
    let mut filler = 200u64;
    let mut opts = options.iter();
    while let Some(o) = opts.next() {
        match o.as_str() {
            "--eventlog" => eventlog_path = opts.next().cloned(),
            "--filler" => {
                filler = opts
                    .next()
                    .and_then(|n| n.parse().ok())
                    .expect("--filler N")
            }
            _ => panic!("unknown option {o}"),
        }
    }
    let (bands, ids) = (bands as usize, (ids as usize).max(bands as usize));
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let (names, stacks): (Vec<String>, Vec<Vec<u32>>) = (0..ids).map(|k| name(&mut rng, k)).unzip();
    let mut log = match &eventlog_path {
        None => None,
        Some(path) => {
            let file = BufWriter::with_capacity(1 << 20, std::fs::File::create(path)?);
            let mut log = Eventlog::new(file)?;
            log.event(29, 0, b"\0\0\0\0GHC-9.0.2 rts_p")?;
            log.event(30, 0, b"\0\0\0\0bench\0+RTS\0-hc\0-i0.01\0-l\0-RTS")?;
            let mut clock = 0u32.to_be_bytes().to_vec();
            clock.extend(1_767_225_600u64.to_be_bytes());
            clock.extend(0u32.to_be_bytes());
            log.event(43, 0, &clock)?;
            let mut begin = vec![0u8];
            begin.extend(10_000_000u64.to_be_bytes());
            begin.extend(1u32.to_be_bytes());
            begin.extend([0u8; 7]);
            log.event(160, 0, &begin)?;
            for (m, module) in MODULES.iter().enumerate() {
                for (f, function) in FUNCTIONS.iter().enumerate() {
                    let mut cc = ((m * FUNCTIONS.len() + f) as u32 + 1)
                        .to_be_bytes()
                        .to_vec();
                    cc.extend(
                        format!("{module}.{function}\0{module}\0{module}.hs:1:1\0").as_bytes(),
                    );
                    cc.push(0);
                    log.event(161, 0, &cc)?;
                }
            }
            Some(log)
        }
    };
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
        let ns = (t * 1e9) as u64;
        if let Some(log) = &mut log {
            // What the scheduler and the collector write between two censuses.
            for k in 0..filler {
                let at = ns.saturating_sub((filler - k) * 1000);
                match k % 8 {
                    0 => log.cap_event(1, at, &7u32.to_be_bytes())?,
                    1 => log.cap_event(2, at, &[0, 0, 0, 7, 0, 3, 0, 0, 0, 0])?,
                    2 => log.cap_event(9, at, &[])?,
                    3 => log.cap_event(10, at, &[])?,
                    4 | 5 => {
                        let mut p = 0u32.to_be_bytes().to_vec();
                        p.extend((k * 4096).to_be_bytes());
                        log.cap_event(if k % 8 == 4 { 50 } else { 51 }, at, &p)?
                    }
                    _ => log.cap_event(1, at, &8u32.to_be_bytes())?,
                }
            }
            log.event(162, ns, &0u64.to_be_bytes())?;
        }
        writeln!(w, "BEGIN_SAMPLE {t:.6}")?;
        for (k, size) in live.iter_mut() {
            // A random walk of roughly ±5% a step, between one closure and 5 MB.
            let step = (*size / 20).max(16);
            let delta = rng.below(2 * step + 1) as i64 - step as i64;
            *size = (*size as i64 + delta).clamp(16, 5_000_000) as u64;
            writeln!(w, "{}\t{}", names[*k], *size)?;
            if let Some(log) = &mut log {
                let stack = &stacks[*k];
                let mut p = vec![0u8];
                p.extend(size.to_be_bytes());
                p.push(stack.len() as u8);
                for cc in stack {
                    p.extend(cc.to_be_bytes());
                }
                log.event(163, ns, &p)?;
            }
        }
        writeln!(w, "END_SAMPLE {t:.6}")?;
        if let Some(log) = &mut log {
            log.event(165, ns, &0u64.to_be_bytes())?;
        }
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
    if let Some(log) = log {
        log.finish((t * 1e9) as u64)?;
    }
    w.flush()
}
