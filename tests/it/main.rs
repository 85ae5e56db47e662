//! The integration tests, one binary for all (as ripgrep's `tests/integration`): each
//! module was a test binary of its own, and linking 27 copies of the library cost CI
//! more than running them. `cargo test --release --test it MODULE::` runs one module.

mod common;

mod binary;
mod bounds;
mod capabilities;
mod check;
mod cli;
mod colours;
mod compare;
mod compressed;
mod eventlog;
mod figures;
mod fixed_vs_libc;
mod flame;
mod generate;
mod golden;
mod ink;
mod inspect;
mod interleaved;
mod interop;
mod keys;
mod layers;
mod leak;
mod library;
mod limits;
mod limits_reports;
mod markers;
mod messages;
mod nonmoving;
mod page;
mod page_figures;
mod page_ticks;
mod partial;
mod prof;
mod prof_eras;
mod properties;
mod retainers;
mod robust;
mod run;
mod samples;
mod serve;
mod shapes;
mod share;
mod split;
mod stats;
mod stream;
mod summaries;
mod ticky;
mod watch;
