//! Draws a heap profile as SVG through the library, every option at its default: the
//! bytes `hpgraph PROFILE -o NAME.svg` writes (a test holds that), for the request and
//! its defaults are the library's ([`hpgraph::engine::Request`]), not the command line's.
//!
//! usage: cargo run --release --example svg -- prog.hp > prog.svg

use std::fs::File;
use std::io::Write;

use hpgraph::backend::Format;
use hpgraph::engine::{self, Input, OutputKind, Request};
use hpgraph::input::prof::retainers::Sets;

fn main() -> anyhow::Result<()> {
    let Some(path) = std::env::args_os().nth(1) else {
        anyhow::bail!("usage: svg PROFILE > PICTURE.svg");
    };
    let path = std::path::PathBuf::from(path);
    let name = path.display().to_string();
    let job = Request::new(OutputKind::Picture(Format::Svg)).job();
    let parsed = hpgraph::input::read_file(&File::open(&path)?, job.read)?;
    let input = Input {
        name: &name,
        parsed,
        sets: Sets::Beside(&path),
    };
    let (rendered, _) = engine::run(&job, input, None, &[], &mut |name, said| {
        eprintln!("svg: {name}: {said:?}")
    })?;
    let mut out = std::io::stdout().lock();
    rendered.write(&mut out)?;
    out.flush()?;
    Ok(())
}
