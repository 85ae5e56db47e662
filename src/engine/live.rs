//! The live view's page (`--serve`): the server started with its waiting page, and each
//! redraw's page and JSON made of the profile [`super::prepare`]d and handed to it. The
//! following is [`crate::live`]'s; where the picture of `-o` goes is the caller's.

use std::net::SocketAddr;

use super::{Data, Notice, OnNotice, PageView, Tally, render_data, render_page};
use crate::backend::html;
use crate::profile::Model;
use crate::serve::Server;

/// What `--serve` serves, and where.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Serve {
    /// Where.
    pub addr: SocketAddr,
    /// The live page.
    pub page: PageView,
    /// `/profile.json`.
    pub data: Data,
}

impl Serve {
    /// Serves `page`, and `data` as `/profile.json`, at `addr`.
    pub fn new(addr: SocketAddr, page: PageView, data: Data) -> Serve {
        Serve { addr, page, data }
    }

    /// Starts the server, its page saying it waits for `name` until the first redraw.
    pub fn start(&self, name: &str) -> std::io::Result<Server> {
        let mut waiting = Vec::new();
        html::waiting_page(name, &mut waiting)?;
        Server::start(self.addr, waiting, &html::policy(html::Mode::Live))
    }

    /// Makes the live page and the profile's JSON of `profile` (prepared) and hands them
    /// to `server`; the page's notes are said.
    pub fn publish(
        &self,
        server: &Server,
        name: &str,
        profile: Model,
        tell: OnNotice,
    ) -> std::io::Result<Tally> {
        let json = render_data(&self.data, profile.clone()).bytes()?;
        let page = render_page(&self.page, profile, None);
        for note in page.notes() {
            tell(name, Notice::Note(note));
        }
        let drawn = page.drawn();
        server.publish(page.bytes()?, json, drawn.samples);
        Ok(drawn)
    }
}
