//! Data outputs: the profile itself written out, rather than a picture of it. They read
//! the [`Profile`](crate::profile::Profile), never the scene.

pub mod hp;

use std::io::{self, Write};

use crate::profile::Profile;

/// The data formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Export {
    /// Classic `.hp` text, for hp2ps and every older tool.
    Hp,
}

impl Export {
    /// Every data format, in the order `--help` lists them.
    pub const ALL: [Export; 1] = [Export::Hp];

    /// The usual file extension, which is also the format's name on the command line.
    pub fn extension(self) -> &'static str {
        match self {
            Export::Hp => "hp",
        }
    }

    /// The format a file name's extension asks for (case does not matter).
    pub fn from_extension(ext: &str) -> Option<Export> {
        Export::ALL
            .into_iter()
            .find(|f| f.extension().eq_ignore_ascii_case(ext))
    }

    /// Writes `profile` in this format.
    pub fn write(self, profile: &Profile, out: &mut dyn Write) -> io::Result<()> {
        match self {
            Export::Hp => hp::write(profile, out),
        }
    }
}
