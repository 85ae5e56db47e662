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
