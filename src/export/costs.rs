//! A cost-centre profile's stacks as folded stacks: one line per stack with a measure,
//! frames root first as `Module.label` joined by `;` and the stack's own measure after a
//! space (`MAIN.MAIN;Main.CAF;Main.main 1168`), as `inferno-collapse-ghcprof` writes
//! them and `inferno-flamegraph` reads them: whole numbers (a measure GHC gave as a
//! percentage is rounded). Stacks whose measure is 0 are left out.

use std::io::{self, Write};

use crate::escape;
use crate::profile::costs::{CostProfile, Measure};

/// Writes `profile`'s stacks weighed by `measure`.
pub fn write_folded(
    profile: &CostProfile,
    measure: Measure,
    out: &mut dyn Write,
) -> io::Result<()> {
    let names: Vec<String> = (profile.centres.iter())
        .map(|c| escape::folded_frame(&c.name()))
        .collect();
    let mut out = io::BufWriter::new(out);
    for (k, stack) in profile.stacks.iter().enumerate() {
        let value = measure.of(stack).round();
        if value.is_nan() || value < 1.0 {
            continue;
        }
        let path = profile.path(k);
        for (d, c) in path.iter().enumerate() {
            if d > 0 {
                out.write_all(b";")?;
            }
            out.write_all(names[*c as usize].as_bytes())?;
        }
        writeln!(out, " {}", value as u64)?;
    }
    out.flush()
}

/// A report's summary as text: the cost centres by what they spend themselves and by
/// what they lead to, and the hottest path.
pub fn write_summary(
    s: &crate::analysis::costs::CostSummary,
    out: &mut dyn Write,
) -> io::Result<()> {
    let share = |v: f64| {
        if s.total > 0.0 {
            100.0 * v / s.total
        } else {
            0.0
        }
    };
    let mut out = io::BufWriter::new(out);
    writeln!(out, "the whole run: {} {}", s.total, s.measure)?;
    for (title, list, individual) in [
        (
            "by what they spend themselves (individual)",
            &s.by_individual,
            true,
        ),
        ("by what they lead to (inherited)", &s.by_inherited, false),
    ] {
        writeln!(out, "\ncost centres {title}:")?;
        for c in list {
            let v = if individual {
                c.individual
            } else {
                c.inherited
            };
            writeln!(
                out,
                "{:>14} {:5.1}%  {}",
                v,
                share(v),
                escape::terminal(&c.name)
            )?;
        }
    }
    if let Some(p) = &s.pruned {
        writeln!(
            out,
            "\npruned (--min-share {}%): {} stacks under it, {} {} ({:.1}%) together, \
             shown as (other) under their callers",
            p.min_share,
            p.stacks,
            p.weight,
            s.measure,
            share(p.weight)
        )?;
    }
    writeln!(out, "\nthe hottest path:")?;
    for (depth, step) in s.hottest_path.iter().enumerate() {
        let v = step.inherited;
        writeln!(
            out,
            "{:>14} {:5.1}%  {}{}",
            v,
            share(v),
            " ".repeat(depth),
            escape::terminal(&step.name)
        )?;
    }
    out.flush()
}
