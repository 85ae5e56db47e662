//! Numbers computed from a profile and the bands selected of it, for the outputs that
//! show numbers: the data exports, `--summary` and the HTML page's table and tooltips.
//! It sits below both the exports and the backends, so that neither reaches into the
//! other: the HTML backend joins a [`page::PageData`] to its scene, the exports write a
//! [`Table`] or a [`summary::Summary`].

pub mod biography;
pub mod compare;
pub mod costs;
pub mod members;
pub mod page;
pub mod stats;
pub mod summary;
pub mod table;
pub mod window;

pub use summary::{Summary, summarise};
pub use table::Table;
