//! The runtime's statistics for a run or a stretch of it: `+RTS -s`'s figures, computed
//! from an eventlog's GC events ([`crate::profile::Runtime`]) as GHC's runtime computes
//! them (docs/stats.md says how each follows, and which the events cannot give).
//!
//! * bytes allocated: each capability's allocation counter, its last reading in the
//!   window less its last before it, summed over the capabilities;
//! * bytes copied, collections and parallel collections per generation, their elapsed
//!   time, average and maximum pause: the collections that *start* in the window, each
//!   timed by the capability that led it (its `GC_START` to its `GC_END`, the very times
//!   the runtime's own statistics take);
//! * GC elapsed: the time spent collecting *within* the window (a collection that runs
//!   past the window's end counts up to it; over the whole run, the same sum);
//! * maximum residency and its sample count: the live bytes after the window's major
//!   collections; maximum slop: the largest slop after them;
//! * total memory in use: the largest heap size after a collection, in MiB (the runtime
//!   prints its peak, which can fall between two collections: then this is lower);
//! * parallel GC work balance: GHC's formula, the balanced bytes copied over the bytes
//!   copied, over the parallel collections;
//! * Total elapsed: the window's length (the run's: its last event's time); MUT elapsed:
//!   Total less GC (the runtime's INIT and EXIT are in it: the events do not mark them);
//!   the allocation rate: bytes allocated per MUT elapsed second; productivity: MUT over
//!   Total elapsed.
//!
//! * the non-moving collector's `syncs` row: its synchronisations (`CONC_SYNC_BEGIN` to
//!   `CONC_SYNC_END`), summed and the longest, averaged over the major collections as
//!   the runtime does; its `concurrent` row and `CONC GC` elapsed: the concurrent
//!   collections, each from its first `CONC_MARK_BEGIN` to its `CONC_SWEEP_END` (the one
//!   the run ends in: to its last mark's end), summed and the longest, averaged the same
//!   way. GHC 9.6 and 9.10 time them so (within a millisecond a collection: the runtime
//!   reads its clock just before the first mark and after the census); GHC 9.0's
//!   `Stats.c` reads the *process's CPU time* there under the name elapsed, which no
//!   event holds (on two capabilities about twice the wall-clock time): the text says
//!   which this is.
//!
//! Adjacent windows add up to the whole run: a collection belongs to the window it starts
//! in, and allocation is a difference of counters.

use serde::Serialize;

use crate::profile::Runtime;
use crate::profile::totals::{Span, Totals, add};

/// One generation's row of the collections table.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Generation {
    /// Collections of this generation.
    pub collections: u64,
    /// Of which parallel (more than one thread copying).
    pub parallel: u64,
    /// Their elapsed time, in seconds.
    pub elapsed: f64,
    /// The longest, in seconds.
    pub max_pause: f64,
}

impl Generation {
    /// The mean pause, in seconds.
    pub fn avg_pause(&self) -> f64 {
        if self.collections == 0 {
            0.0
        } else {
            self.elapsed / self.collections as f64
        }
    }
}

/// The statistics of a window of a run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Stats {
    /// The JSON layout's version.
    pub version: u32,
    /// The window: its start and end, in seconds since the run began.
    pub from: f64,
    /// See `from`.
    pub to: f64,
    /// Bytes allocated in the heap, when the eventlog has the allocation counters.
    pub allocated: Option<u64>,
    /// Bytes copied during GC.
    pub copied: u64,
    /// The largest live bytes after a major collection, and how many there were.
    pub max_residency: Option<u64>,
    /// How many major collections measured it.
    pub residency_samples: u64,
    /// The largest slop after a major collection.
    pub max_slop: Option<u64>,
    /// The largest heap size after a collection, in bytes.
    pub max_heap_size: Option<u64>,
    /// The collections table, generation 0 first.
    pub generations: Vec<Generation>,
    /// The non-moving collector's synchronisations, when it ran: their time and the
    /// longest (the runtime counts one per major collection).
    pub nonmoving_sync: Option<(f64, f64)>,
    /// The non-moving collector's concurrent collections, when it ran: their wall-clock
    /// time and the longest.
    pub nonmoving_concurrent: Option<(f64, f64)>,
    /// The sparks of the window, when the eventlog has the spark counters (`-l`'s
    /// default `p` class): `+RTS -s`'s `SPARKS` line.
    pub sparks: Option<SparkFigures>,
    /// Parallel GC work balance, 0 to 1, when some collection was parallel.
    pub work_balance: Option<f64>,
    /// Elapsed time in collections, in seconds.
    pub gc_elapsed: f64,
    /// The window's elapsed time, in seconds.
    pub total_elapsed: f64,
    /// `total_elapsed` less `gc_elapsed`.
    pub mut_elapsed: f64,
    /// Bytes allocated per MUT elapsed second.
    pub alloc_rate: Option<f64>,
    /// MUT over Total elapsed, 0 to 1.
    pub productivity: f64,
    /// The collection time includes the heap profiler's censuses (a profiled run with
    /// heap profiling on): `+RTS -s` prints them apart as PROF.
    pub gc_includes_census: bool,
    /// Collections past the reader's limit, not counted.
    pub collections_not_kept: usize,
    /// A sum of counters passed 2^64 - 1 and is that, at least: the eventlog's counters
    /// are 64-bit, and a hostile one's near their top add past it.
    pub saturated: bool,
}

pub use crate::profile::totals::MAX_GENERATIONS;

/// `+RTS -s`'s `SPARKS` line: its total is created, dud and overflowed together, as the
/// runtime's `Stats.c` adds them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct SparkFigures {
    /// Sparks in all.
    pub total: u64,
    /// Converted: run.
    pub converted: u64,
    /// Overflowed: the pool was full.
    pub overflowed: u64,
    /// Dud: already evaluated when sparked.
    pub dud: u64,
    /// Collected unevaluated.
    pub gcd: u64,
    /// Evaluated by another before run.
    pub fizzled: u64,
}

/// The window's sparks: each capability's counters at its last reading in the window
/// less those at its last before it (the whole run: its last).
fn sparks(runtime: &Runtime, whole: bool, a: f64, b: f64) -> Option<SparkFigures> {
    if runtime.last_sparks.is_empty() {
        return None;
    }
    let mut sum = [0u64; 6];
    let mut add = |c: [u64; 6], sign: bool| {
        for (s, v) in sum.iter_mut().zip(c) {
            *s = if sign {
                s.saturating_add(v)
            } else {
                s.saturating_sub(v)
            };
        }
    };
    if whole {
        runtime.last_sparks.iter().for_each(|&(_, c)| add(c, true));
    } else {
        let caps = runtime
            .last_sparks
            .iter()
            .map(|&(c, _)| usize::from(c) + 1)
            .max()?;
        let (mut before, mut upto) = (vec![[0u64; 6]; caps], vec![None; caps]);
        for r in runtime
            .sparks
            .iter()
            .filter(|r| usize::from(r.capability) < caps)
        {
            let c = usize::from(r.capability);
            if r.time < a {
                before[c] = r.counters;
            } else if r.time <= b {
                upto[c] = Some(r.counters);
            }
        }
        for c in 0..caps {
            add(upto[c].unwrap_or(before[c]), true);
            add(before[c], false);
        }
    }
    let [created, dud, overflowed, converted, gcd, fizzled] = sum;
    Some(SparkFigures {
        total: created.saturating_add(dud).saturating_add(overflowed),
        converted,
        overflowed,
        dud,
        gcd,
        fizzled,
    })
}

/// Whether a window starting at `from` (seconds) holds any of `runtime`'s run: the one
/// rule `--stats` shares with the picture and `--summary`, which refuse a window without
/// a sample. Its `Err` says what to do.
pub fn window_within(runtime: &Runtime, from: Option<f64>) -> Result<(), String> {
    match from {
        Some(from) if from >= runtime.end => Err(format!(
            "no part of the run between --from {from} and its end at {:.3} s: give a --from \
             before it",
            runtime.end
        )),
        _ => Ok(()),
    }
}

/// The statistics of `runtime` between `from` and `to` (seconds; the whole run when
/// both are `None`). A runtime read for the whole run's figures alone
/// ([`Runtime::summed`]) gives them, whatever the window.
pub fn stats(runtime: &Runtime, from: Option<f64>, to: Option<f64>) -> Stats {
    let whole = (from.is_none() && to.is_none()) || runtime.summed.is_some();
    let (a, b) = match whole {
        true => (0.0, runtime.end),
        false => (
            from.unwrap_or(0.0),
            to.unwrap_or(runtime.end).min(runtime.end),
        ),
    };
    let inside = |t: f64| t >= a && t <= b;
    let window = || runtime.gcs.iter().filter(|g| inside(g.start));
    let (mut totals, has_balance, gc_elapsed, generations);
    if let Some(summed) = &runtime.summed {
        totals = summed.totals.clone();
        has_balance = totals.has_balance;
        (gc_elapsed, generations) = times(&totals, summed.spans(), b);
    } else {
        totals = Totals::default();
        window().for_each(|gc| totals.add(gc));
        has_balance = runtime.gcs.iter().any(|g| g.balanced.is_some());
        (gc_elapsed, generations) = times(&totals, window().map(Span::from), b);
    }
    let mut saturated = totals.saturated;
    let allocated = allocated(runtime, whole, a, b, &mut saturated);
    let total_elapsed = b - a;
    let mut_elapsed = total_elapsed - gc_elapsed;
    let phases = |list: &[(f64, f64)]| {
        (!list.is_empty()).then(|| {
            list.iter()
                .filter(|(s, _)| inside(*s))
                .fold((0.0, 0.0), |(sum, max): (f64, f64), &(s, e)| {
                    (sum + (e - s), max.max(e - s))
                })
        })
    };
    let parallel = generations.iter().any(|g| g.parallel > 0);
    let balanced = totals.balanced;
    Stats {
        version: 1,
        from: a,
        to: b,
        allocated,
        copied: totals.copied,
        max_residency: totals.residency,
        residency_samples: totals.samples,
        max_slop: totals.slop,
        max_heap_size: totals.heap,
        nonmoving_sync: phases(&runtime.syncs),
        nonmoving_concurrent: phases(&runtime.nonmoving.collections),
        sparks: sparks(runtime, whole, a, b),
        generations,
        // The runtime prints the balance only when it is above 0.
        work_balance: (parallel && has_balance && totals.parallel_copied > 0 && balanced > 0)
            .then(|| balanced as f64 / totals.parallel_copied as f64),
        gc_elapsed,
        total_elapsed,
        mut_elapsed,
        alloc_rate: allocated
            .filter(|_| mut_elapsed > 0.0)
            .map(|bytes| bytes as f64 / mut_elapsed),
        productivity: if total_elapsed > 0.0 {
            mut_elapsed / total_elapsed
        } else {
            0.0
        },
        gc_includes_census: runtime.census_in_gc,
        collections_not_kept: runtime.dropped,
        saturated,
    }
}

/// The time in collections up to `b` and the collections table: `totals`' counts, and
/// the times of `spans` (in time order: a sum of seconds rounds at each step) added up.
/// A collection that runs past `b` counts up to it (and the next window has the rest),
/// so that GC never exceeds the window and adjacent windows' times add up.
fn times(totals: &Totals, spans: impl Iterator<Item = Span>, b: f64) -> (f64, Vec<Generation>) {
    let mut generations: Vec<Generation> = (totals.generations.iter())
        .map(|g| Generation {
            collections: g.collections,
            parallel: g.parallel,
            elapsed: 0.0,
            max_pause: g.max_pause,
        })
        .collect();
    let mut gc_elapsed = 0.0;
    for span in spans {
        let g = usize::from(span.generation).min(MAX_GENERATIONS - 1);
        if let Some(row) = generations.get_mut(g) {
            row.elapsed += span.end - span.start;
        }
        gc_elapsed += span.end.min(b) - span.start;
    }
    (gc_elapsed, generations)
}

/// Bytes allocated in `[a, b]`: per capability, its last reading in the window less its
/// last before it.
fn allocated(runtime: &Runtime, whole: bool, a: f64, b: f64, saturated: &mut bool) -> Option<u64> {
    if runtime.last_allocation.is_empty() {
        return None;
    }
    let mut sum = 0;
    if whole {
        for &(_, n) in &runtime.last_allocation {
            add(&mut sum, n, saturated);
        }
        return Some(sum);
    }
    let caps = runtime
        .last_allocation
        .iter()
        .map(|&(c, _)| usize::from(c) + 1)
        .max()
        .unwrap_or(0);
    let (mut before, mut upto) = (vec![0u64; caps], vec![None::<u64>; caps]);
    for r in &runtime.allocation {
        let c = usize::from(r.capability);
        if c >= caps {
            continue;
        }
        if r.time < a {
            before[c] = r.bytes;
        } else if r.time <= b {
            upto[c] = Some(r.bytes);
        }
    }
    for c in 0..caps {
        add(
            &mut sum,
            upto[c].map_or(0, |n| n.saturating_sub(before[c])),
            saturated,
        );
    }
    Some(sum)
}

impl Stats {
    /// The statistics in `+RTS -s`'s layout: its labels, widths and number formats, a
    /// line for each figure the eventlog gives. CPU times are not in an eventlog: their
    /// columns say `-`.
    pub fn text(&self, whole: bool) -> String {
        let mut s = String::new();
        self.bytes_text(&mut s, whole);
        self.collections_text(&mut s);
        self.times_text(&mut s);
        s
    }

    /// The text's first part: the window, and the bytes allocated, copied and resident.
    fn bytes_text(&self, s: &mut String, whole: bool) {
        use std::fmt::Write as _;
        if !whole {
            let _ = writeln!(
                s,
                "  (the window {:.3}s to {:.3}s of the run)\n",
                self.from, self.to
            );
        }
        match self.allocated {
            Some(n) => {
                let _ = writeln!(
                    s,
                    "{:>16} bytes allocated in the heap",
                    crate::units::thousands(n)
                );
            }
            None => {
                let _ = writeln!(
                    s,
                    "{:>16} bytes allocated in the heap (not in this eventlog: its runtime \
                     writes no allocation counters)",
                    "-"
                );
            }
        }
        let _ = writeln!(
            s,
            "{:>16} bytes copied during GC",
            crate::units::thousands(self.copied)
        );
        match self.max_residency {
            Some(r) => {
                let _ = writeln!(
                    s,
                    "{:>16} bytes maximum residency ({} sample(s))",
                    crate::units::thousands(r),
                    self.residency_samples
                );
            }
            None => {
                let _ = writeln!(
                    s,
                    "{:>16} bytes maximum residency (no major collection measured it here)",
                    "-"
                );
            }
        }
        if let Some(slop) = self.max_slop {
            let _ = writeln!(
                s,
                "{:>16} bytes maximum slop",
                crate::units::thousands(slop)
            );
        }
        if let Some(h) = self.max_heap_size {
            let _ = writeln!(
                s,
                "{:>16} MiB total memory in use (at least: the largest heap after a collection)",
                h / (1024 * 1024)
            );
        }
    }

    /// The collections table, a row a generation.
    fn collections_text(&self, s: &mut String) {
        use std::fmt::Write as _;
        let _ = writeln!(
            s,
            "\n                                     Tot time (elapsed)  Avg pause  Max pause"
        );
        if self.generations.len() == MAX_GENERATIONS {
            let _ = writeln!(
                s,
                "  (Gen {:>2} counts every generation from {} on)",
                MAX_GENERATIONS - 1,
                MAX_GENERATIONS - 1
            );
        }
        for (k, g) in self.generations.iter().enumerate() {
            let _ = writeln!(
                s,
                "  Gen {k:>2}     {:>5} colls, {:>5} par   {:>6}   {:>6.3}s     {:>3.4}s    {:>3.4}s",
                g.collections,
                g.parallel,
                "-",
                g.elapsed,
                g.avg_pause(),
                g.max_pause
            );
        }
        // The non-moving collector's rows: the runtime counts them by major collections.
        let majors = self.generations.get(1).map_or(0, |g| g.collections);
        let avg = |t: f64| if majors > 0 { t / majors as f64 } else { 0.0 };
        if let Some((t, max)) = self.nonmoving_sync {
            let _ = writeln!(
                s,
                "  Gen  1     {majors:>5} syncs,                      {t:>6.3}s     {:>3.4}s    {max:>3.4}s",
                avg(t)
            );
        }
        if let Some((t, max)) = self.nonmoving_concurrent {
            let _ = writeln!(
                s,
                "  Gen  1      concurrent,             {:>6}   {t:>6.3}s     {:>3.4}s    {max:>3.4}s",
                "-",
                avg(t)
            );
        }
        if let Some(b) = self.work_balance {
            let _ = writeln!(
                s,
                "\n  Parallel GC work balance: {:.2}% (serial 0%, perfect 100%)",
                b * 100.0
            );
        }
        if let Some(p) = self.sparks {
            let _ = writeln!(
                s,
                "\n  SPARKS: {} ({} converted, {} overflowed, {} dud, {} GC'd, {} fizzled)",
                p.total, p.converted, p.overflowed, p.dud, p.gcd, p.fizzled
            );
        }
    }

    /// The times, the allocation rate, productivity, and what the figures leave out.
    fn times_text(&self, s: &mut String) {
        use std::fmt::Write as _;
        let line = |s: &mut String, label: &str, t: f64| {
            let _ = writeln!(s, "  {label:<8}time  {:>7}   ({t:>7.3}s elapsed)", "-");
        };
        s.push('\n');
        line(s, "MUT", self.mut_elapsed);
        line(s, "GC", self.gc_elapsed);
        if let Some((t, _)) = self.nonmoving_concurrent {
            line(s, "CONC GC", t);
        }
        line(s, "Total", self.total_elapsed);
        if self.nonmoving_concurrent.is_some() {
            s.push_str(
                "  (concurrent, CONC GC: the non-moving collections' wall clock, first mark to\n   \
                 sweep's end, as GHC 9.6 on prints it; GHC 9.0 prints CPU time, in no event)\n",
            );
        }
        if self.gc_includes_census {
            s.push_str(
                "  (GC time includes the heap profiler's censuses, which +RTS -s prints \
                 apart as PROF)\n",
            );
        }
        if let Some(rate) = self.alloc_rate {
            let _ = writeln!(
                s,
                "\n  Alloc rate    {} bytes per MUT elapsed second",
                crate::units::thousands(rate as u64)
            );
        }
        let _ = writeln!(
            s,
            "\n  Productivity  {:.1}% of total elapsed",
            self.productivity * 100.0
        );
        if self.saturated {
            let _ = writeln!(
                s,
                "\n  (a sum passed 18,446,744,073,709,551,615, the largest 64-bit count: \
                 it is shown as that, and is at least as much)"
            );
        }
        if self.collections_not_kept > 0 {
            let _ = writeln!(
                s,
                "\n  ({} collections past the reader's limit of {} are not counted)",
                self.collections_not_kept,
                crate::profile::MAX_GCS
            );
        }
    }
}

/// Two runs' statistics side by side, each figure with its change: what `--compare
/// BEFORE AFTER --stats` prints.
pub fn compared_text(runs: [&Stats; 2], names: [&str; 2]) -> String {
    use std::fmt::Write as _;
    let [a, b] = runs;
    let change = |x: f64, y: f64| {
        if x == 0.0 {
            if y == 0.0 {
                "=".to_string()
            } else {
                "new".to_string()
            }
        } else {
            format!("{:+.1}%", (y - x) / x * 100.0)
        }
    };
    let mut rows: Vec<(String, String, String, String)> = Vec::new();
    let mut bytes = |label: &str, x: Option<u64>, y: Option<u64>| {
        let text = |v: Option<u64>| v.map_or("-".to_string(), crate::units::thousands);
        let c = match (x, y) {
            (Some(x), Some(y)) => change(x as f64, y as f64),
            _ => String::new(),
        };
        rows.push((label.to_string(), text(x), text(y), c));
    };
    bytes("bytes allocated in the heap", a.allocated, b.allocated);
    bytes("bytes copied during GC", Some(a.copied), Some(b.copied));
    bytes("bytes maximum residency", a.max_residency, b.max_residency);
    bytes("bytes maximum slop", a.max_slop, b.max_slop);
    bytes(
        "MiB total memory in use (at least)",
        a.max_heap_size.map(|h| h >> 20),
        b.max_heap_size.map(|h| h >> 20),
    );
    let gens = a.generations.len().max(b.generations.len());
    for g in 0..gens {
        let n = |s: &Stats| s.generations.get(g).map(|r| r.collections);
        bytes(&format!("Gen {g} collections"), n(a), n(b));
    }
    let mut secs = |label: &str, x: f64, y: f64| {
        rows.push((
            label.to_string(),
            format!("{x:.4}s"),
            format!("{y:.4}s"),
            change(x, y),
        ));
    };
    let max_pause = |s: &Stats| {
        s.generations
            .iter()
            .map(|g| g.max_pause)
            .fold(0.0, f64::max)
    };
    secs("longest pause", max_pause(a), max_pause(b));
    secs("GC elapsed", a.gc_elapsed, b.gc_elapsed);
    secs("MUT elapsed", a.mut_elapsed, b.mut_elapsed);
    secs("Total elapsed", a.total_elapsed, b.total_elapsed);
    rows.push((
        "Productivity (of elapsed)".to_string(),
        format!("{:.1}%", a.productivity * 100.0),
        format!("{:.1}%", b.productivity * 100.0),
        format!("{:+.1} points", (b.productivity - a.productivity) * 100.0),
    ));
    let head = (
        String::new(),
        format!("before: {}", names[0]),
        format!("after: {}", names[1]),
        "change".to_string(),
    );
    let w: [usize; 4] = [
        rows.iter().map(|r| r.0.chars().count()).max().unwrap_or(0),
        rows.iter()
            .map(|r| r.1.len())
            .chain([head.1.chars().count()])
            .max()
            .unwrap_or(0),
        rows.iter()
            .map(|r| r.2.len())
            .chain([head.2.chars().count()])
            .max()
            .unwrap_or(0),
        rows.iter().map(|r| r.3.len()).max().unwrap_or(0).max(6),
    ];
    let mut s = String::new();
    for r in std::iter::once(&head).chain(&rows) {
        let _ = writeln!(
            s,
            "{:<w0$}  {:>w1$}  {:>w2$}  {:>w3$}",
            r.0,
            r.1,
            r.2,
            r.3,
            w0 = w[0],
            w1 = w[1],
            w2 = w[2],
            w3 = w[3]
        );
    }
    s
}
