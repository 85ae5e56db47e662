//! Large files read through a memory map, as ripgrep reads a large file: the bytes are
//! read where the page cache holds them rather than copied out first. Pages behind the
//! reader are given back as it goes, so that memory follows the profile, not the file.
//!
//! As for ripgrep, a file cut shorter by another program while it is read makes the
//! system stop hpgraph (SIGBUS); a file that only grows is read as far as it was when it
//! was mapped.

use std::fs::File;

use super::{Error, Options, Parsed, eventlog, prof};

/// Files from this size on are read through a memory map.
const MAP_MIN: u64 = 4 << 20;
/// How much of a mapped file the reader is offered at a time.
const MAP_WINDOW: usize = 16 << 20;
/// How far behind the reader the map's pages are given back, at the least.
const MAP_RELEASE: usize = 32 << 20;

/// How much of a mapped text a part's reader is offered at a time.
const TEXT_WINDOW: usize = 4 << 20;
/// How far behind a text's reader its map's pages are let go of: a `.hp` profile's
/// reading keeps only its model, so each thread holds about this much of the file.
const TEXT_RELEASE: usize = 1 << 20;

/// `file` mapped, when it is a regular file of at least [`MAP_MIN`] and at most `max`
/// bytes that the system lets map.
pub(super) fn map(file: &File, max: u64) -> Option<memmap2::Mmap> {
    let meta = file.metadata().ok()?;
    if !meta.is_file() || meta.len() < MAP_MIN || meta.len() > max {
        return None;
    }
    // SAFETY: the map is read only, through `&[u8]`, while the file is open; what
    // another process writes to the file meanwhile is read as the bytes it finds (a
    // growing file is read as far as it was when mapped).
    let map = unsafe { memmap2::Mmap::map(file) }.ok()?;
    let _ = map.advise(memmap2::Advice::Sequential);
    Some(map)
}

/// Lets go of the pages of `map` from `from` to `until` (page-aligned), which the reader
/// has read and does not touch again: memory follows what is read, not the file.
fn let_go(map: &memmap2::Mmap, from: usize, until: usize) {
    // SAFETY: the map is a shared, read-only map of the file: DONTNEED drops these
    // pages from this process's map, and a page let go of is read again from the file
    // if it is touched (the reader does not). Refused advice leaves them where they are.
    let _ = unsafe {
        map.unchecked_advise_range(memmap2::UncheckedAdvice::DontNeed, from, until - from)
    };
}

/// A time and allocation report, parsed where the page cache holds it. `None` when it
/// cannot be mapped, or is past [`prof::MAX_BYTES`] (the stream's reading says so).
/// The map is let go of once the text is read, before the model is made: the file and
/// what was made of it are not held together.
pub(super) fn read_report(file: &File, options: Options) -> Option<Result<Parsed, Error>> {
    let map = map(file, prof::MAX_BYTES as u64)?;
    if super::ticky::is_report(&map[..map.len().min(prof::PROBE)]) {
        return Some(super::ticky::read(&map).map_err(Error::Costs));
    }
    // SAFETY: sysconf reads a constant of the system.
    let page = usize::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).unwrap_or(0);
    let mut released = 0;
    let mut release = |offset: usize| {
        // Whole pages before `offset`, not let go of yet.
        let end = offset.checked_div(page).unwrap_or(0) * page;
        if end > released {
            let_go(&map, released, end);
            released = end;
        }
    };
    let report = prof::read_report_releasing(&map, &mut release);
    drop(map);
    Some(
        report
            .map(|r| prof::model_of(r, options))
            .map_err(Error::Costs),
    )
}

/// Offers `feed` the bytes of `map` from `from` to `until` a window at a time (the last
/// as the end of its input), each time from where it stopped, letting go of the pages
/// behind it: where the page cache holds them, without the copy a read makes (a tenth
/// of a wide `.hp` profile's reading), and without holding the file.
pub(super) fn feed_text<E>(
    map: &memmap2::Mmap,
    (from, until): (usize, usize),
    mut feed: impl FnMut(&[u8], bool) -> Result<usize, E>,
) -> Result<(), E> {
    let (mut pos, mut window) = (from, TEXT_WINDOW);
    // Whole pages of this part only: the part before may still be reading its last.
    let mut released = from.next_multiple_of(TEXT_RELEASE);
    loop {
        let end = until.min(pos + window);
        let eof = end == until;
        let used = feed(&map[pos..end], eof)?;
        if eof {
            return Ok(());
        }
        pos += used;
        // A line longer than the window: offer more at once.
        window = if used == 0 { window * 2 } else { TEXT_WINDOW };
        let behind = pos - pos % TEXT_RELEASE;
        if behind > released {
            let_go(map, released, behind);
            released = behind;
        }
    }
}

/// Reads an eventlog file: searched where the page cache holds it, blocks passed over
/// never touched; for the runtime's account (whose events are in every block), in two
/// parts on two threads ([`eventlog::split`]). `None` when the file cannot be mapped
/// (too small to be worth it, not a regular file, or the system refuses): it is then
/// read as a stream.
pub(super) fn read_eventlog(file: &File, options: Options) -> Option<Result<Parsed, Error>> {
    let map = map(file, u64::MAX)?;
    // Markers are searched for ahead of the reader only where the blocks are not read
    // whole anyway (see eventlog::search_blocks).
    let search = options.marks && !options.heap && !options.runtime;
    let release = |from: usize, until: usize| let_go(&map, from, until);
    let feed = |parser: &mut eventlog::Parser, from: usize, until: usize, eof: bool| {
        feed(&map, parser, (from, until, eof), search, &release)
    };
    if options.runtime
        && let Some(parsed) = eventlog::split::read(&map, options, None, &feed)
    {
        return Some(parsed.map_err(Error::from));
    }
    let mut parser = eventlog::Parser::with_options(options);
    let read = feed(&mut parser, 0, map.len(), true).and_then(|_| parser.finish());
    Some(read.map_err(Error::from))
}

/// Offers `parser` the bytes of `file` from `from` to `until` (the end of its input when
/// `eof`) a window at a time, passing over what it does not need, searching the blocks
/// ahead for markers when `search`, and giving back the pages behind it (`release`).
/// Returns where it stopped: `until`, or before a record that does not end by then.
pub fn feed(
    file: &[u8],
    parser: &mut eventlog::Parser,
    (from, until, eof): (usize, usize, bool),
    search: bool,
    release: &dyn Fn(usize, usize),
) -> Result<usize, eventlog::Error> {
    // Where the search for markers ahead of the reader has got to (0: from the header).
    let mut searched = if search { from } else { usize::MAX };
    let (mut pos, mut window) = (from, MAP_WINDOW);
    let mut released = from - from % (64 << 10);
    loop {
        let end = until.min(pos + window);
        if searched < end {
            let (next, blocks) = eventlog::search_blocks(file, searched, end);
            parser.searched(blocks);
            searched = next;
        }
        let last = end == until;
        let used = parser.feed(&file[pos..end], last && eof)?;
        pos += used;
        if last && (eof || pos == until || (used == 0 && parser.skippable() == 0)) {
            // Let go of the rest behind it here, on this reader's thread: the unmap
            // after the parts are read is one thread's work, a millisecond for a
            // long run's eventlog read in two.
            let behind = pos - pos % (64 << 10);
            if behind > released {
                release(released, behind);
            }
            return Ok(pos);
        }
        let skip = (parser.skippable() as usize).min(until - pos);
        parser.skipped(skip as u64);
        pos += skip;
        // A record longer than the window: offer more at once.
        window = if used == 0 && skip == 0 {
            window * 2
        } else {
            MAP_WINDOW
        };
        let behind = pos - pos % (64 << 10);
        if behind - released >= MAP_RELEASE {
            release(released, behind);
            released = behind;
        }
    }
}
