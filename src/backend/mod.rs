//! Backends: a [`Scene`] in, bytes out. They never see the profile.

pub mod fixed;
pub mod ps;

use std::io::{self, Write};

use crate::scene::Scene;

/// An output format.
pub trait Backend {
    /// Writes the whole document for `scene`.
    fn write(&self, scene: &Scene, out: &mut dyn Write) -> io::Result<()>;
}
