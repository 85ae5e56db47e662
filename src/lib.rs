//! hpgraph renders GHC heap profiles (`.hp` files and eventlogs), as GHC's `hp2ps` does and faster.
//!
//! The pipeline runs one way:
//!
//! ```text
//! bytes ─input→ Profile ─filter→ Profile ─select→ Selection ─layout→ Scene ─backend→ bytes ─sink→ file
//!                                   └─analysis (Table, Summary, PageData)─export→ bytes ─sink→ file
//! ```
//!
//! * [`input`] reads a `.hp` file or an eventlog into a [`profile::Profile`]: times,
//!   marks, header strings and one compact series per identifier.
//! * [`select`] filters the profile ([`select::filter`]), picks and orders the bands
//!   (trace threshold, deviation or name order, `.aux` reuse in [`select::aux`], band
//!   limit with `OTHER`) and computes ranges and area.
//! * [`analysis`] computes the numbers the data outputs and the page show: bands as
//!   columns, the leak summary, the page's thinned values.
//! * [`layout`] places everything on the page as a backend-neutral [`scene::Scene`],
//!   its bands at the output's resolution ([`scene::reduce`]) as it stacks them.
//! * [`backend`] turns a scene into a document (the HTML page also takes its numbers);
//!   [`export`] writes the data outputs (`.hp`, CSV, JSON, the summary).
//! * [`sink`] writes a document atomically, or [`serve`] shows it to browsers as it
//!   changes (`--serve`).
//! * [`engine`] runs the pipeline: a resolved run ([`engine::Job`]) and a profile to its
//!   typed result in one call ([`engine::run`]): a [`engine::Rendered`] or [`engine::Compared`], which writes itself.
//! * [`live`] follows a profile a running program is still writing, for `--watch` and
//!   `--serve`.
//! * [`escape`] is the one escape per output language, [`units`] how numbers are
//!   written, [`error`] the errors a run reports.
//!
//! docs/architecture.md states which module may use which.
//!
//! ```
//! let hp = b"JOB \"demo\"\nDATE \"today\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n\
//!            BEGIN_SAMPLE 0.00\nEND_SAMPLE 0.00\nBEGIN_SAMPLE 1.00\nmain\t1200\nEND_SAMPLE 1.00\n";
//! let profile = hpgraph::input::parse(hp).unwrap().profile;
//! let view = hpgraph::engine::View::Graph(hpgraph::engine::Picture::new(
//!     hpgraph::backend::Format::Svg,
//!     Default::default(),
//!     hpgraph::layout::LayoutOptions::default(),
//! ));
//! let rendered = hpgraph::render(&view, profile, None);
//! assert_eq!(rendered.selection().unwrap().bands.len(), 1);
//! assert_eq!(rendered.scene().unwrap().pages.len(), 1);
//! let svg = rendered.bytes().unwrap();
//! assert!(String::from_utf8(svg).unwrap().contains("</svg>"));
//! ```

#![deny(missing_docs)]

pub mod analysis;
pub mod backend;
pub mod check;
pub mod engine;
pub mod error;
pub mod escape;
pub mod export;
pub mod input;
pub mod layout;
pub mod live;
pub mod profile;
pub mod program;
pub mod scene;
pub mod select;
pub mod serve;
pub mod sink;
pub mod units;

pub use error::Error;

pub use engine::render;
