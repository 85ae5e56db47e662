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

use crate::profile::hash::FxMap;

/// The line the sets follow.
const TITLE: &[u8] = b"Retainer sets created during profiling:";

/// At most this many sets are read (a long run's retainer profile makes thousands).
pub const MAX_SETS: usize = 1 << 20;

/// At most this many members a set, and cost centres a member, are kept.
pub const MAX_MEMBERS: usize = 4096;

pub use crate::profile::costs::Members;

/// The retainer sets a report lists, by number; empty when it lists none.
pub fn parse(text: &[u8]) -> FxMap<u64, Members> {
    let mut sets = FxMap::default();
    let Some(at) = memchr::memmem::find(text, TITLE) else {
        return sets;
    };
    for line in text[at + TITLE.len()..].split(|&b| b == b'\n') {
        let Some((number, members)) = set(line) else {
            continue;
        };
        if sets.len() >= MAX_SETS {
            break;
        }
        sets.insert(number, members);
    }
    sets
}

/// `SET N = {<a,b>, <>}`, or `None` for any other line.
fn set(line: &[u8]) -> Option<(u64, Members)> {
    let line = std::str::from_utf8(line).ok()?.trim();
    let rest = line.strip_prefix("SET ")?;
    let (number, rest) = rest.split_once(" = {")?;
    let body = rest.strip_suffix('}')?;
    let mut members = Vec::new();
    for member in body.split(">, <") {
        if members.len() >= MAX_MEMBERS {
            break;
        }
        let member = member.trim_start_matches('<').trim_end_matches('>');
        let stack = (member.split(','))
            .filter(|c| !c.is_empty())
            .take(MAX_MEMBERS)
            .map(|c| c.as_bytes().into())
            .collect();
        members.push(stack);
    }
    Some((number.trim().parse().ok()?, members))
}

/// The set number a retainer band's name starts with (`(107)loop,main`).
pub fn number(band: &[u8]) -> Option<u64> {
    let close = band.iter().position(|&b| b == b')')?;
    std::str::from_utf8(band.strip_prefix(b"(")?.get(..close - 1)?)
        .ok()?
        .parse()
        .ok()
}

/// Whether `profile` is a retainer profile: its job ran with `-hr`.
pub fn is_retainer_profile(profile: &crate::profile::Profile) -> bool {
    (profile.job.split(|&b| b == b' ')).any(|w| w == b"-hr" || w.starts_with(b"-hr"))
}

/// Names `profile`'s bands by the retainer sets the report `text` lists: how many bands
/// were named, or `None` when it lists no sets.
pub fn attach(profile: &mut crate::profile::Profile, text: &[u8]) -> Option<usize> {
    let sets = parse(text);
    (!sets.is_empty()).then(|| name_bands(profile, &sets))
}

/// Gives each band of `profile` whose set `sets` lists its members
/// ([`crate::profile::Profile::retainer_sets`]); how many bands were named.
pub fn name_bands(profile: &mut crate::profile::Profile, sets: &FxMap<u64, Members>) -> usize {
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
        let sets = parse(text);
        assert_eq!(sets.len(), 3);
        let name = |s: &[Box<[u8]>]| s.iter().map(|c| c.to_vec()).collect::<Vec<_>>();
        assert_eq!(
            sets[&107].iter().map(|m| name(m)).collect::<Vec<_>>(),
            [
                vec![b"Main.worker.loop".to_vec(), b"Main.main".to_vec()],
                vec![b"GHC.Conc.Sync.CAF".to_vec()]
            ]
        );
        assert_eq!(sets[&4], vec![Vec::<Box<[u8]>>::new()], "the empty stack");
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
        assert!(parse(b"no sets here").is_empty());
    }

    #[test]
    fn sets_and_members_past_their_limits_are_left_out() {
        let mut text = String::from("Retainer sets created during profiling:\n");
        for k in 0..=MAX_SETS {
            text.push_str(&format!("SET {k} = {{<a>}}\n"));
        }
        assert_eq!(parse(text.as_bytes()).len(), MAX_SETS);
        let many: Vec<String> = (0..=MAX_MEMBERS).map(|k| format!("c{k}")).collect();
        let member = format!("<{}>", many.join(","));
        let members = vec![member.as_str(); MAX_MEMBERS + 1].join(", ");
        let text = format!("Retainer sets created during profiling:\nSET 1 = {{{members}}}\n");
        let sets = parse(text.as_bytes());
        assert_eq!(sets[&1].len(), MAX_MEMBERS);
        assert!(sets[&1].iter().all(|m| m.len() == MAX_MEMBERS));
    }
}
