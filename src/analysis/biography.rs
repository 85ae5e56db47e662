//! What a biographical profile (`+RTS -hb`) says is wasted. GHC splits the heap by each
//! closure's life: LAG (made, not yet used), USE (used, will be again), INHERENT_USE,
//! DRAG (used for the last time, still held) and VOID (never used). DRAG and VOID are
//! memory the program never touches again: the waste.
//!
//! Definitions (docs/stats.md repeats them):
//! * `waste`: the area under DRAG + VOID over the area under the whole heap (the same
//!   plain trapezoids the summary's shares are measured with);
//! * `waste_at_peak`: DRAG + VOID over the total at the census where the total first
//!   reaches its peak;
//! * `lag`: LAG's area over the heap's.
//!
//! A profile *restricted* to some biographies (`-hc -hbdrag,void`, `-hy -hbvoid`) holds
//! only closures of those lives, broken down by something else: its bands are who holds
//! them, and the summary ranks them as it ranks any bands.

use serde::Serialize;

use super::table::Table;
use super::window::{Window, peak};
use crate::profile::Profile;

/// The five lives GHC's census tells apart, as it names the bands.
pub const LIVES: [&str; 5] = ["LAG", "USE", "INHERENT_USE", "DRAG", "VOID"];

/// The lives that are waste.
pub const WASTE: [&str; 2] = ["DRAG", "VOID"];

/// A biographical profile's waste.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Biography {
    /// DRAG + VOID's area over the heap's, 0 to 1.
    pub waste: f64,
    /// DRAG + VOID over the total at the total's peak, 0 to 1.
    pub waste_at_peak: f64,
    /// When the total first reached its peak.
    pub peak_time: f64,
    /// LAG's area over the heap's, 0 to 1.
    pub lag: f64,
    /// What to run next to see who holds the waste.
    pub advice: String,
}

/// The waste of a profile whose bands are lives (`-hb`), over its censuses; `None` for
/// any other profile (or one with no census).
pub fn of(profile: &Profile) -> Option<Biography> {
    let names = profile.bands.names();
    let biographical = !names.is_empty()
        && names
            .iter()
            .all(|n| LIVES.iter().any(|l| l.as_bytes() == &n[..]));
    if !biographical || profile.times.is_empty() {
        return None;
    }
    let table = Table::all(profile);
    let totals = table.totals();
    let window = Window::new(&profile.times, &totals);
    let summed = |lives: &[&str]| {
        (table.summed(|name| lives.iter().any(|l| l.as_bytes() == name)))
            .unwrap_or_else(|| vec![0.0; table.rows()])
    };
    let wasted = summed(&WASTE);
    let (at, top) = peak(&totals);
    let waste = window.figures(&wasted).share;
    let waste_at_peak = if top > 0.0 { wasted[at] / top } else { 0.0 };
    Some(Biography {
        waste,
        waste_at_peak,
        peak_time: profile.times[at],
        lag: window.figures(&summed(&["LAG"])).share,
        advice: advice(waste, waste_at_peak),
    })
}

/// What to do next about `waste` of the heap (and `at_peak` of its peak).
fn advice(waste: f64, at_peak: f64) -> String {
    if waste <= 0.0 && at_peak <= 0.0 {
        "no DRAG or VOID: every closure held is used again".into()
    } else {
        "run with -hc -hbdrag,void (or -hy -hbdrag,void) to see who holds the waste".into()
    }
}

/// The lives a profile is restricted to (`drag,void` of `-hc -hbdrag,void`), from its
/// `JOB`'s RTS options, when it is broken down by something else: its bands are then
/// who holds closures of those lives.
pub fn restriction(profile: &Profile) -> Option<String> {
    if of(profile).is_some() {
        return None;
    }
    let job = String::from_utf8_lossy(&profile.job);
    job.split_whitespace()
        .map(|w| w.trim_matches('\''))
        .find_map(|w| w.strip_prefix("-hb").filter(|l| !l.is_empty()))
        .map(|l| l.to_ascii_lowercase())
}

/// Whether every life in a restriction is waste (`drag,void`, `void`).
pub fn restricted_to_waste(lives: &str) -> bool {
    lives
        .split(',')
        .all(|l| WASTE.iter().any(|w| w.eq_ignore_ascii_case(l)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::hp::parse;

    fn profile(job: &str, body: &str) -> Profile {
        parse(
            format!(
                "JOB \"{job}\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n{body}"
            )
            .as_bytes(),
        )
        .unwrap()
        .profile
    }

    #[test]
    fn waste_is_drag_and_void_by_area_and_at_the_peak() {
        let p = profile(
            "prog +RTS -hb",
            "BEGIN_SAMPLE 0\nLAG\t10\nUSE\t10\nEND_SAMPLE 0\n\
             BEGIN_SAMPLE 1\nUSE\t10\nDRAG\t20\nVOID\t10\nEND_SAMPLE 1\n\
             BEGIN_SAMPLE 2\nUSE\t20\nEND_SAMPLE 2\n",
        );
        let b = of(&p).unwrap();
        // Areas: total (20+40)/2 + (40+20)/2 = 60; waste (0+30)/2 + (30+0)/2 = 30.
        assert!((b.waste - 0.5).abs() < 1e-12, "{}", b.waste);
        assert!((b.waste_at_peak - 0.75).abs() < 1e-12);
        assert_eq!(b.peak_time, 1.0);
        // LAG: (10+0)/2 = 5 of 60.
        assert!((b.lag - 5.0 / 60.0).abs() < 1e-12);
        assert_eq!(restriction(&p), None);
    }

    #[test]
    fn a_restricted_profile_is_told_apart() {
        let p = profile(
            "prog +RTS -hc -hbdrag,void -i0.1",
            "BEGIN_SAMPLE 0\nmain/Main.CAF\t10\nEND_SAMPLE 0\n",
        );
        assert!(of(&p).is_none());
        assert_eq!(restriction(&p).as_deref(), Some("drag,void"));
        assert!(restricted_to_waste("drag,void"));
        assert!(!restricted_to_waste("lag,drag"));
    }
}
