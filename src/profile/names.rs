//! What a name the model holds may be: how long a label or a band's name, how many
//! bytes of names a reader keeps, how a name past its limit is cut so that names cut
//! alike stay apart, and how names are matched by a pattern. The readers keep names
//! within these (`input::names`); the exports that join names (folded stacks) and the
//! retainer sets hold to the same.

/// The longest cost-centre label, module or info-table string kept, in bytes, by every
/// reader (GHC's are names from source code, rarely past a hundred); a band's name, a
/// stack of such labels, is cut at sixteen times as much ([`MAX_NAME`]). A longer one is
/// cut and ends in `…`.
pub const MAX_LABEL: usize = 4096;

/// The longest band name kept, in bytes: sixteen of an eventlog's longest labels
/// ([`MAX_LABEL`]), far past any name a figure, key or table can
/// show.
pub const MAX_NAME: usize = 64 << 10;

/// The most bytes of band names a reader keeps whole (each up to [`MAX_NAME`]). A real
/// profile's names take a few megabytes; a hostile one's, at the band limit, 6 GiB.
pub const MAX_NAME_BYTES: usize = 32 << 20;

/// How long a band name first read after [`MAX_NAME_BYTES`] was spent may be.
pub const MAX_NAME_PAST_BUDGET: usize = 256;

/// `name` (at least its first `max` bytes) cut to at most `max` bytes, ending in `…#`
/// and `whole`, the hash of the whole name: for a reader that hashes a name as it grows
/// and never holds it whole.
pub fn tagged_with(name: &[u8], max: usize, whole: u64) -> Box<[u8]> {
    let tag = format!("#{whole:016x}");
    let mut cut = crate::profile::cut_text(name, max - tag.len())
        .unwrap_or_else(|| name.into())
        .into_vec();
    cut.extend_from_slice(tag.as_bytes());
    cut.into()
}

/// The most a band-name pattern's compiled program may take, in bytes: the `regex`
/// crate's own default, named here so that it is decided once.
pub const MAX_PATTERN_BYTES: usize = 10 << 20;

/// The most a band-name pattern's search may cache of its lazy automaton, in bytes. A
/// large program (`\w{200}`, `\w` being hundreds of Unicode ranges) fills the `regex`
/// crate's default 2 MiB again and again over long names and falls back to a search a
/// hundred times slower: 150 names of 64 KiB took 28 s; with room, 0.1 s.
pub const MAX_PATTERN_CACHE: usize = 64 << 20;

/// A band-name pattern (the `regex` crate's syntax), built within [`MAX_PATTERN_BYTES`]
/// and [`MAX_PATTERN_CACHE`]: what `--include`, `--exclude` and `--check`'s `band()`
/// match names with.
pub fn pattern(text: &str) -> Result<regex::bytes::Regex, regex::Error> {
    regex::bytes::RegexBuilder::new(text)
        .size_limit(MAX_PATTERN_BYTES)
        .dfa_size_limit(MAX_PATTERN_CACHE)
        .build()
}

/// A budget for names made from frames (a stack's band name, innermost first, joined by
/// `/`): each at most [`MAX_NAME`] bytes, and once [`MAX_NAME_BYTES`] of them are made,
/// each new one at most [`MAX_NAME_PAST_BUDGET`]; a longer one cut and tagged with a
/// hash of its whole frames. For what renames bands after reading (pruning), so that
/// its names stay within what the readers kept.
#[derive(Default)]
pub struct NameBudget {
    spent: usize,
    /// A name was cut.
    pub cut: bool,
}

impl NameBudget {
    /// The band name of `frames` (outermost first), within the budget.
    pub fn name(&mut self, frames: &[std::sync::Arc<[u8]>]) -> Box<[u8]> {
        use std::hash::Hasher as _;
        let max = if self.spent >= MAX_NAME_BYTES {
            MAX_NAME_PAST_BUDGET
        } else {
            MAX_NAME
        };
        let mut name = Vec::new();
        for f in frames.iter().rev() {
            if name.len() > max {
                break;
            }
            if !name.is_empty() {
                name.push(b'/');
            }
            name.extend_from_slice(f);
        }
        let name: Box<[u8]> = if name.len() > max {
            let mut whole = crate::profile::hash::FxHasher::default();
            for f in frames {
                whole.write(f);
                whole.write_u8(b'/');
            }
            self.cut = true;
            tagged_with(&name, max, whole.finish())
        } else {
            name.into()
        };
        self.spent += name.len();
        name
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_past_the_program_limit_are_refused() {
        assert!(pattern(r"\w{200}\d").is_ok());
        let e = pattern(r"\w{400}\d").expect_err("past MAX_PATTERN_BYTES");
        assert!(e.to_string().contains("size limit"), "{e}");
    }
}
