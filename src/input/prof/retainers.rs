//! Retainer sets named in full. A retainer profile (`+RTS -hr`) names each band by a
//! set's number and its members' innermost labels, cut (`(107)loop,main`); the same run
//! writes the sets whole at the end of `prog.prof`:
//!
//! ```text
//! Retainer sets created during profiling:
//! SET 107 = {<Main.worker.loop,Main.main>, <SYSTEM.SYSTEM>}
//! ```
//!
//! each member a retainer's cost-centre stack, innermost first (`<>` the empty stack).
//! GHC lists the sets its table holds when the run ends, and numbers sets afresh as the
//! run goes: a band of an earlier census can bear the number of a different set. A band
//! is named only by a set whose members' innermost labels are the band's own
//! ([`agrees`]); the others keep their name alone.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::profile::hash::FxMap;

/// The line the sets follow.
const TITLE: &[u8] = b"Retainer sets created during profiling:";

/// At most this many sets are read (a long run's retainer profile makes thousands).
pub const MAX_SETS: usize = 1 << 20;

/// At most this many members a set, and cost centres a member, are kept.
pub const MAX_MEMBERS: usize = 4096;

/// The most bytes of labels a set keeps (a band name's limit,
/// [`crate::input::names::MAX_NAME`]); members past it are one member [`LEFT_OUT`].
/// Each label is cut at [`crate::input::names::MAX_LABEL`].
pub const MAX_SET_BYTES: usize = crate::input::names::MAX_NAME;

/// Once the sets kept take this many bytes of labels (the readers' name budget,
/// [`crate::input::names::MAX_NAME_BYTES`]), each new one keeps at most
/// [`crate::input::names::MAX_NAME_PAST_BUDGET`].
pub const MAX_SETS_BYTES: usize = crate::input::names::MAX_NAME_BYTES;

/// The one label of the member that stands for the members a set left out.
pub const LEFT_OUT: &[u8] = "…".as_bytes();

pub use crate::profile::costs::Members;

/// The retainer sets a report lists, by number; empty when it lists none. Only the
/// sets `wanted` says yes to are kept, each within [`MAX_SET_BYTES`] and all within
/// [`MAX_SETS_BYTES`]: a report may list a million sets, a profile's bands name a few.
pub fn parse(text: &[u8], wanted: impl Fn(u64) -> bool) -> FxMap<u64, Arc<Members>> {
    let mut sets = FxMap::default();
    let Some(at) = memchr::memmem::find(text, TITLE) else {
        return sets;
    };
    let mut spent = 0;
    for line in text[at + TITLE.len()..].split(|&b| b == b'\n') {
        if sets.len() >= MAX_SETS {
            break;
        }
        let max = if spent >= MAX_SETS_BYTES {
            crate::input::names::MAX_NAME_PAST_BUDGET
        } else {
            MAX_SET_BYTES
        };
        let Some((number, members, bytes)) = set(line, &wanted, max) else {
            continue;
        };
        spent += bytes;
        sets.insert(number, members.into());
    }
    sets
}

/// `SET N = {<a,b>, <>}`, or `None` for any other line.
fn set(line: &[u8], wanted: impl Fn(u64) -> bool, max: usize) -> Option<(u64, Members, usize)> {
    let line = std::str::from_utf8(line).ok()?.trim();
    let rest = line.strip_prefix("SET ")?;
    let (number, rest) = rest.split_once(" = {")?;
    let number = number.trim().parse().ok().filter(|&n| wanted(n))?;
    let body = rest.strip_suffix('}')?;
    let label = |c: &str| -> Box<[u8]> {
        crate::profile::cut_text(c.as_bytes(), crate::input::names::MAX_LABEL)
            .unwrap_or_else(|| c.as_bytes().into())
    };
    let (mut members, mut bytes) = (Vec::new(), 0);
    for member in body.split(">, <") {
        let member = member.trim_start_matches('<').trim_end_matches('>');
        let labels = || {
            (member.split(','))
                .filter(|c| !c.is_empty())
                .take(MAX_MEMBERS)
        };
        let size: usize = labels()
            .map(|c| c.len().min(crate::input::names::MAX_LABEL) + 1)
            .sum();
        if members.len() >= MAX_MEMBERS || bytes + size > max {
            members.push(vec![LEFT_OUT.into()]);
            break;
        }
        bytes += size;
        members.push(labels().map(label).collect());
    }
    Some((number, members, bytes))
}

/// The set number a retainer band's name starts with (`(107)loop,main`).
pub fn number(band: &[u8]) -> Option<u64> {
    let close = band.iter().position(|&b| b == b')')?;
    std::str::from_utf8(band.strip_prefix(b"(")?.get(..close - 1)?)
        .ok()?
        .parse()
        .ok()
}

/// Whether the report `text` lists any set (none of them kept).
fn lists_sets(text: &[u8]) -> bool {
    let any = std::cell::Cell::new(false);
    parse(text, |_| {
        any.set(true);
        false
    });
    any.get()
}

/// Whether `profile` is a retainer profile: its job ran with `-hr`.
pub fn is_retainer_profile(profile: &crate::profile::Profile) -> bool {
    (profile.job.split(|&b| b == b' ')).any(|w| w == b"-hr" || w.starts_with(b"-hr"))
}

/// Names `profile`'s bands by the retainer sets the report `text` lists: how many bands
/// were named, or `None` when it lists no sets.
pub fn attach(profile: &mut crate::profile::Profile, text: &[u8]) -> Option<usize> {
    let numbers: FxMap<u64, ()> = (profile.bands.names().iter())
        .filter_map(|n| Some((number(n)?, ())))
        .collect();
    let sets = parse(text, |n| numbers.contains_key(&n));
    if sets.is_empty() && !lists_sets(text) {
        return None;
    }
    (!sets.is_empty()).then(|| name_bands(profile, &sets))
}

/// Where a retainer profile's sets are looked for.
#[derive(Debug, Clone, Copy)]
pub enum Sets<'a> {
    /// `STEM.prof` beside the profile's file `STEM.hp` or `STEM.eventlog`, where it is
    /// there and lists them; nothing is said where it is not.
    Beside(&'a Path),
    /// `--retainer-sets FILE`: a file that cannot be read, or lists no set, is an error.
    From(&'a Path),
    /// `--retainer-sets FILE` of a profile still being written: read as [`Sets::From`],
    /// but the run writes its report when it ends, so what is wrong is said, not refused.
    Awaited(&'a Path),
    /// Nowhere: the profile came from a stream.
    None,
}

/// The report that named a retainer profile's sets ([`name_from_report`]).
#[derive(Debug, Clone)]
pub struct Named {
    /// The report.
    pub report: PathBuf,
    /// How many bands it named.
    pub count: usize,
}

/// A retainer profile (`-hr`) takes its bands' retainer sets in full from the same run's
/// report, as `sets` says where; the bands keep GHC's names. Which report named them,
/// if one did; an `Err` (naming the report) only for a file named ([`Sets::From`],
/// [`Sets::Awaited`]). A report is read
/// whole only up to the readers' bound ([`super::MAX_BYTES`]).
pub fn name_from_report(
    profile: &mut crate::profile::Profile,
    sets: Sets,
) -> Result<Option<Named>, String> {
    let (report, named) = match sets {
        Sets::From(file) | Sets::Awaited(file) => (file.to_path_buf(), true),
        Sets::Beside(path) if is_retainer_profile(profile) => {
            let report = path.with_extension("prof");
            if report == path {
                return Ok(None);
            }
            (report, false)
        }
        _ => return Ok(None),
    };
    let shown = report.display();
    let max = super::MAX_BYTES;
    let text = match std::fs::metadata(&report).map(|m| (m.is_file(), m.len())) {
        Ok((true, len)) if len <= max as u64 => std::fs::read(&report),
        Ok((true, _)) if named => return Err(format!("{shown}: longer than {max} bytes")),
        Ok((false, _)) if named => {
            return Err(format!(
                "{shown}: not a file: --retainer-sets reads the .prof the -hr run wrote \
                 beside its .hp"
            ));
        }
        Err(e) if named => Err(e),
        _ => return Ok(None),
    };
    let text = match text {
        Ok(text) => text,
        Err(e) if named => return Err(format!("{shown}: cannot read the retainer sets: {e}")),
        Err(_) => return Ok(None),
    };
    match attach(profile, &text) {
        Some(count) => Ok(Some(Named { report, count })),
        None if named => Err(format!(
            "{shown}: no retainer sets here (a retainer profile's run, +RTS -hr, lists \
             them at the end of its .prof)"
        )),
        None => Ok(None),
    }
}

/// Gives each band of `profile` whose set `sets` lists its members
/// ([`crate::profile::Profile::retainer_sets`]); how many bands were named.
pub fn name_bands(profile: &mut crate::profile::Profile, sets: &FxMap<u64, Arc<Members>>) -> usize {
    let mut named = 0;
    for name in profile.bands.names() {
        if let Some(members) = number(name).and_then(|n| sets.get(&n))
            && agrees(name, members)
        {
            profile.retainer_sets.insert(name.clone(), members.clone());
            named += 1;
        }
    }
    named
}

/// Whether a band's name (`(N)label,label`) lists `members`' innermost labels in order:
/// GHC's own naming of that set (the empty stack is `MAIN`). A member's innermost cost
/// centre is `Module.label`, and a label may hold dots, so a label agrees when the name
/// ends in it. GHC cuts a long name at `-L` characters (25 unless told), marked with
/// `...` in some runtimes and unmarked in others (`(99)SYSTEM,generateText,m`): a cut
/// name agrees when every label but its last agrees whole and its last begins one.
pub fn agrees(band: &[u8], members: &Members) -> bool {
    let Some(close) = band.iter().position(|&b| b == b')') else {
        return false;
    };
    let labels = &band[close + 1..];
    let (labels, marked) = match labels.strip_suffix(b"...") {
        Some(kept) => (kept, true),
        None => (labels, false),
    };
    let pieces: Vec<&[u8]> = labels.split(|&b| b == b',').collect();
    if pieces.len() > members.len() {
        return false;
    }
    fn innermost(member: &[Box<[u8]>]) -> &[u8] {
        member.first().map_or(b"MAIN", |n| n)
    }
    let whole = |piece: &[u8], name: &[u8]| {
        name == piece
            || (name.len() > piece.len()
                && name.ends_with(piece)
                && name[name.len() - piece.len() - 1] == b'.')
    };
    // The last piece of a cut name: the start of the label (after any module's dot).
    let begins = |piece: &[u8], name: &[u8]| {
        (0..name.len())
            .filter(|&j| j == 0 || name[j - 1] == b'.')
            .any(|j| name[j..].starts_with(piece))
    };
    let last = pieces.len() - 1;
    let leading = (pieces[..last].iter().zip(members)).all(|(p, m)| whole(p, innermost(m)));
    let tail = innermost(&members[last]);
    let exact = pieces.len() == members.len() && whole(pieces[last], tail);
    leading
        && (exact
            || (marked && memchr::memmem::find(tail, pieces[last]).is_some())
            || (!marked && begins(pieces[last], tail)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_read_with_their_members_innermost_first() {
        let text = b"...\nRetainer sets created during profiling:\n\
            SET 2 = {<SYSTEM.SYSTEM>}\n\
            SET 4 = {<>}\n\
            SET 107 = {<Main.worker.loop,Main.main>, <GHC.Conc.Sync.CAF>}\n";
        let sets = parse(text, |_| true);
        assert_eq!(sets.len(), 3);
        let name = |s: &[Box<[u8]>]| s.iter().map(|c| c.to_vec()).collect::<Vec<_>>();
        assert_eq!(
            sets[&107].iter().map(|m| name(m)).collect::<Vec<_>>(),
            [
                vec![b"Main.worker.loop".to_vec(), b"Main.main".to_vec()],
                vec![b"GHC.Conc.Sync.CAF".to_vec()]
            ]
        );
        assert_eq!(*sets[&4], vec![Vec::<Box<[u8]>>::new()], "the empty stack");
        assert_eq!(number(b"(107)loop,main"), Some(107));
        // A band names the set it agrees with: the same labels, innermost first.
        assert!(agrees(b"(107)worker.loop,CAF", &sets[&107]));
        assert!(agrees(b"(107)worker.loop,CA...", &sets[&107]));
        assert!(
            !agrees(b"(107)SYSTEM,mean", &sets[&107]),
            "a number used again"
        );
        assert!(agrees(b"(4)MAIN", &sets[&4]));
        // GHC's cut at -L without a mark: the labels joined, cut anywhere.
        assert!(agrees(b"(107)worker.loop,C", &sets[&107]));
        assert!(agrees(b"(107)worker.lo", &sets[&107]));
        assert!(
            agrees(b"(107)loop,CAF", &sets[&107]),
            "a label after its dots"
        );
        assert!(
            !agrees(b"(107)worker.loop,X", &sets[&107]),
            "a cut that disagrees"
        );
        assert!(
            !agrees(b"(107)orker.loop,CAF", &sets[&107]),
            "not the label's start"
        );
        assert!(
            !agrees(b"(107)worker.loop,CAF,more", &sets[&107]),
            "more labels than the set"
        );
        assert_eq!(number(b"loop"), None);
        assert!(parse(b"no sets here", |_| true).is_empty());
    }

    #[test]
    fn sets_and_members_past_their_limits_are_left_out() {
        let mut text = String::from("Retainer sets created during profiling:\n");
        for k in 0..=MAX_SETS {
            text.push_str(&format!("SET {k} = {{<a>}}\n"));
        }
        assert_eq!(parse(text.as_bytes(), |_| true).len(), MAX_SETS);
        let many: Vec<String> = (0..=MAX_MEMBERS).map(|k| format!("c{k}")).collect();
        let member = format!("<{}>", many.join(","));
        let members = vec![member.as_str(); MAX_MEMBERS + 1].join(", ");
        let text = format!("Retainer sets created during profiling:\nSET 1 = {{{members}}}\n");
        let sets = parse(text.as_bytes(), |_| true);
        let set = &sets[&1];
        assert_eq!(**set.last().unwrap(), [LEFT_OUT.into()], "members left out");
        let kept = &set[..set.len() - 1];
        assert!(kept.iter().all(|m| m.len() == MAX_MEMBERS));
        let bytes: usize = kept.iter().flatten().map(|l| l.len() + 1).sum();
        assert!(bytes <= MAX_SET_BYTES && bytes + 2 * MAX_MEMBERS > MAX_SET_BYTES / 2);
        // Short members: at most MAX_MEMBERS of them, then the one that says so.
        let members = vec!["<a>"; MAX_MEMBERS + 1].join(", ");
        let text = format!("Retainer sets created during profiling:\nSET 1 = {{{members}}}\n");
        let sets = parse(text.as_bytes(), |_| true);
        assert_eq!(sets[&1].len(), MAX_MEMBERS + 1);
        assert_eq!(*sets[&1][MAX_MEMBERS], [LEFT_OUT.into()]);
    }

    #[test]
    fn labels_are_cut_and_sets_past_the_budget_are_short() {
        let label = "l".repeat(3 * crate::input::names::MAX_LABEL);
        let set = |k: usize| format!("SET {k} = {{<M.{label}>, <M.{label}>, <M.{label}>}}\n");
        let mut text = String::from("Retainer sets created during profiling:\n");
        let whole = MAX_SETS_BYTES / (3 * crate::input::names::MAX_LABEL) + 2;
        for k in 0..whole + 10 {
            text.push_str(&set(k));
        }
        let sets = parse(text.as_bytes(), |_| true);
        assert!(
            sets[&0]
                .iter()
                .all(|m| m[0].len() <= crate::input::names::MAX_LABEL)
        );
        assert_eq!(sets[&0].len(), 3, "three members of cut labels fit");
        // Past the budget a set keeps no member of 4 KiB: only the one that says so.
        assert_eq!(*sets[&(whole as u64 + 9)], vec![vec![LEFT_OUT.into()]]);
        // Only the sets asked for are kept.
        assert_eq!(parse(text.as_bytes(), |n| n == 5).len(), 1);
    }
}
