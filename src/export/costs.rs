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
    let figure = crate::units::figure;
    let seconds = |t: Option<f64>, none: &str| t.map_or(none.to_string(), crate::units::seconds);
    match s.window {
        Some((from, to)) => writeln!(
            out,
            "from {} to {}: {} {}",
            seconds(from, "the start"),
            seconds(to, "the end"),
            figure(s.total),
            s.measure
        )?,
        None => match s.report_total {
            Some(header) => writeln!(
                out,
                "the whole run: {header} {} (the report's total; its rows, each from shares \
                 GHC rounds to 0.1%, add up to {})",
                s.measure,
                figure(s.total)
            )?,
            None => writeln!(out, "the whole run: {} {}", figure(s.total), s.measure)?,
        },
    }
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
                figure(v),
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
            figure(p.weight),
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
            figure(v),
            share(v),
            " ".repeat(depth),
            escape::terminal(&step.name)
        )?;
    }
    out.flush()
}

/// A report's summary as CSV (`--summary=csv`): a header, then one row per cost centre
/// of either list (by individual measure, then those only among the inherited), with its
/// figures and shares of the total, quoted as every CSV output is.
pub fn write_summary_csv(
    s: &crate::analysis::costs::CostSummary,
    out: &mut dyn Write,
) -> io::Result<()> {
    let share = |v: f64| {
        crate::units::figure(if s.total > 0.0 {
            100.0 * v / s.total
        } else {
            0.0
        })
    };
    let unit = &s.measure;
    let mut out = io::BufWriter::new(out);
    write!(
        out,
        "cost_centre,individual_{unit},inherited_{unit},individual_percent,inherited_percent\r\n"
    )?;
    let mut seen = std::collections::HashSet::new();
    for c in s.by_individual.iter().chain(&s.by_inherited) {
        if !seen.insert(&c.name) {
            continue;
        }
        super::csv::field(&mut out, c.name.as_bytes())?;
        write!(
            out,
            ",{},{},{},{}\r\n",
            crate::units::figure(c.individual),
            crate::units::figure(c.inherited),
            share(c.individual),
            share(c.inherited)
        )?;
    }
    out.flush()
}

/// A cost-centre profile's tree as CSV (`-o x.csv`): a row per frame, callers first,
/// `id,parent,frame,individual_UNIT,inherited_UNIT,entries` (`parent` empty for the
/// outermost frames, `entries` where the report counts them), quoted as every CSV
/// output is ([`super::csv::field`]).
pub fn write_tree_csv(profile: &crate::profile::Costs, out: &mut dyn Write) -> io::Result<()> {
    let rows = crate::analysis::costs::tree(profile);
    let unit = String::from_utf8_lossy(&profile.series().value_unit);
    let mut out = io::BufWriter::new(out);
    write!(
        out,
        "id,parent,frame,individual_{unit},inherited_{unit},entries\r\n"
    )?;
    for r in rows {
        write!(out, "{},", r.id)?;
        if let Some(p) = r.parent {
            write!(out, "{p}")?;
        }
        out.write_all(b",")?;
        super::csv::field(&mut out, r.name.as_bytes())?;
        write!(
            out,
            ",{},{},",
            super::csv::number(r.individual),
            super::csv::number(r.inherited)
        )?;
        if let Some(e) = r.entries {
            write!(out, "{e}")?;
        }
        out.write_all(b"\r\n")?;
    }
    out.flush()
}

/// The layout of [`write_tree_json`]'s document.
pub const TREE_FORMAT: &str = "hpgraph-cost-tree";

/// A cost-centre profile's tree as JSON (`-o x.json`): `{"format":
/// "hpgraph-cost-tree", "version": 1, "measure", "total", "frames": [{"id", "parent",
/// "name", "individual", "inherited", "entries"}]}`, callers first.
pub fn write_tree_json(profile: &crate::profile::Costs, out: &mut dyn Write) -> io::Result<()> {
    #[derive(serde::Serialize)]
    struct Doc {
        format: &'static str,
        version: u32,
        measure: String,
        #[serde(serialize_with = "crate::units::number")]
        total: f64,
        frames: Vec<crate::analysis::costs::TreeRow>,
    }
    let frames = crate::analysis::costs::tree(profile);
    let doc = Doc {
        format: TREE_FORMAT,
        version: 1,
        measure: String::from_utf8_lossy(&profile.series().value_unit).into_owned(),
        total: (frames.iter())
            .filter(|f| f.parent.is_none())
            .map(|f| f.inherited)
            .sum(),
        frames,
    };
    escape::json_to(&mut *out, &doc, false)?;
    writeln!(out)
}
