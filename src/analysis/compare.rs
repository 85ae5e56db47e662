//! Two runs of a program compared band by band: which bands are new, gone, grew, shrank
//! or stayed, and by how much.
//!
//! Bands are matched by name across the runs, whatever their format. A `.hp` file's
//! cost-centre stacks carry a `(N)` prefix that numbers the stack within one build (and
//! changes between builds) and that an eventlog's names lack: it is left out. GHC cuts a
//! `.hp` file's stack names at `-L` characters, ending them in `...`; an eventlog's are
//! whole: a cut name matches every whole name of the other run that starts with what is
//! before its `...`, and those become one band of the cut name. [`matched`] renames both
//! profiles' bands so, merging bands that become one; everything after it (selection,
//! the figures, these numbers) sees the same names in both runs.
//!
//! Definitions (docs/compare.md repeats them):
//! * peak: a band's largest value; mean: the sum of its values over the run's censuses
//!   that found anything (0 where the band has no value; the empty censuses GHC's
//!   runtime writes as a program starts and exits are left out, so that a run's `.hp`
//!   file and its eventlog, which has no such census, agree); byte-seconds: the area
//!   under the whole heap (plain trapezoids, as the summary measures shares);
//! * a band is *new* when the first run never has it (or only at 0), *gone* when the
//!   second never has it; else it *grew* or *shrank* when its mean changed by more than
//!   [`CHANGE`] of its mean before and by more than [`NOISE`] of the larger run's peak
//!   total, and is *unchanged* otherwise.

use std::collections::HashMap;
use std::sync::Arc;

use serde::Serialize;

use super::summary::{peak, trapezoids};
use crate::profile::costs::Members;
use crate::profile::{Profile, Series};
use crate::units::{ByteUnits, Scale, human};

/// A change in a band's mean smaller than this share of its mean before is no change.
pub const CHANGE: f64 = 0.05;
/// A change in a band's mean smaller than this share of the larger peak total is no
/// change: a band of a few bytes that doubled says nothing.
pub const NOISE: f64 = 0.001;

use crate::select::flame::cut_stem;
pub use crate::select::flame::unnumbered;

/// Both profiles with their bands named alike: `(N)` numbers left out, a whole name
/// that a cut name of the other run stands for renamed to the cut name, and bands that
/// end up with one name merged (summed sample by sample).
pub fn matched(before: &mut Profile, after: &mut Profile) {
    let names = |p: &Profile| -> Vec<Vec<u8>> {
        p.bands
            .names()
            .iter()
            .map(|n| unnumbered(n).to_vec())
            .collect()
    };
    let (mut b, mut a) = (names(before), names(after));
    absorb(&b, &mut a);
    absorb(&a, &mut b);
    rename(before, b);
    rename(after, a);
}

/// Renames each whole name of `whole_side` that a cut name of `cut_side` stands for (and
/// that `cut_side` does not have whole) to that cut name.
fn absorb(cut_side: &[Vec<u8>], whole_side: &mut [Vec<u8>]) {
    // Stems by their length and a hash of their bytes. A whole name's prefixes are
    // hashed as it is read, byte by byte, and looked up at the lengths stems have: each
    // name costs its own length, however many lengths the stems have (GHC cuts at one
    // `-L`, a hostile file at thousands), so matching is linear in the names' bytes.
    let mut stems: HashMap<(usize, u64), &Vec<u8>> = HashMap::new();
    let mut lengths: Vec<bool> = Vec::new();
    for n in cut_side {
        if let Some(s) = cut_stem(n) {
            stems.entry((s.len(), prefix_hash(s))).or_insert(n);
            if lengths.len() <= s.len() {
                lengths.resize(s.len() + 1, false);
            }
            lengths[s.len()] = true;
        }
    }
    if stems.is_empty() {
        return;
    }
    let whole: std::collections::HashSet<&[u8]> = cut_side.iter().map(|n| &n[..]).collect();
    for name in whole_side.iter_mut() {
        if cut_stem(name).is_some() || whole.contains(&name[..]) {
            continue;
        }
        let mut h = 0u64;
        let mut cut = None;
        for (i, &b) in name.iter().enumerate() {
            h = step(h, b);
            let l = i + 1;
            if l >= lengths.len() {
                break;
            }
            if lengths[l]
                && let Some(&c) = stems.get(&(l, h))
                && cut_stem(c) == Some(&name[..l])
            {
                cut = Some(c);
                break;
            }
        }
        if let Some(cut) = cut {
            *name = cut.to_vec();
        }
    }
}

/// A polynomial hash, one byte at a time, so that every prefix's costs one step.
fn step(h: u64, b: u8) -> u64 {
    h.wrapping_mul(0x100_0000_01b3)
        .wrapping_add(u64::from(b) + 1)
}

/// [`step`] over all of `bytes`.
fn prefix_hash(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0, |h, &b| step(h, b))
}

/// Gives band `k` the name `names[k]`, merging bands that share one (in the order of
/// their first appearance).
fn rename(p: &mut Profile, names: Vec<Vec<u8>>) {
    let samples = p.times.len();
    let mut index: HashMap<Vec<u8>, usize> = HashMap::new();
    // Each new name's series, and its retainer set where every band merged into it had
    // that one set (GHC numbers sets afresh: one name may stand for several).
    type Group = (Vec<u8>, Vec<Series>, Option<Arc<Members>>);
    let mut groups: Vec<Group> = Vec::new();
    let old_sets = std::mem::take(&mut p.retainer_sets);
    let old = std::mem::take(&mut p.bands);
    for (name, (old_name, series)) in names.into_iter().zip(old) {
        let set = old_sets.get(&old_name).cloned();
        match index.get(&name) {
            Some(&k) => {
                let group = &mut groups[k];
                group.1.push(series);
                if group.2 != set {
                    group.2 = None;
                }
            }
            None => {
                index.insert(name.clone(), groups.len());
                groups.push((name, vec![series], set));
            }
        }
    }
    for (name, mut parts, set) in groups {
        let series = if parts.len() == 1 {
            parts.pop().expect("one")
        } else {
            Series::sum(&parts, samples)
        };
        if let Some(set) = set {
            p.retainer_sets.insert(name.clone().into(), set);
        }
        p.bands.push(name.into(), series);
    }
}

/// Where a band went from one run to the other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Only the second run has it.
    New,
    /// Only the first run has it.
    Gone,
    /// Its mean rose.
    Grew,
    /// Its mean fell.
    Shrank,
    /// Neither, as [`CHANGE`] and [`NOISE`] tell.
    Unchanged,
}

impl Status {
    /// The word the table prints.
    pub fn word(self) -> &'static str {
        match self {
            Status::New => "new",
            Status::Gone => "gone",
            Status::Grew => "grew",
            Status::Shrank => "shrank",
            Status::Unchanged => "unchanged",
        }
    }
}

/// A band's figures in one run.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Figures {
    /// Its largest value.
    #[serde(serialize_with = "whole")]
    pub peak: f64,
    /// Its mean over the run's samples.
    #[serde(serialize_with = "whole")]
    pub mean: f64,
}

/// One band in both runs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BandChange {
    /// The band, as both runs name it.
    pub name: String,
    /// In the first run; `None` when it never appears there.
    pub before: Option<Figures>,
    /// In the second run.
    pub after: Option<Figures>,
    /// What happened to it.
    pub status: Status,
}

impl BandChange {
    /// The change in mean, after less before.
    pub fn mean_change(&self) -> f64 {
        self.after.map_or(0.0, |f| f.mean) - self.before.map_or(0.0, |f| f.mean)
    }

    /// The change in peak, after less before.
    pub fn peak_change(&self) -> f64 {
        self.after.map_or(0.0, |f| f.peak) - self.before.map_or(0.0, |f| f.peak)
    }
}

/// One run's headline figures.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunFigures {
    /// The input, as messages name it.
    pub file: String,
    /// `JOB`.
    pub job: String,
    /// How many samples.
    pub samples: usize,
    /// From the first sample to the last, in sample units.
    pub duration: f64,
    /// The largest total.
    #[serde(serialize_with = "whole")]
    pub peak: f64,
    /// The mean total, over the censuses that found anything.
    #[serde(serialize_with = "whole")]
    pub mean: f64,
    /// The area under the total: value units × sample units (byte-seconds).
    #[serde(serialize_with = "whole")]
    pub area: f64,
    /// The runtime's headline figures over the window (`--from`, `--to`; the whole run
    /// without them), when the input is an eventlog with GC events.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub runtime: Option<super::summary::Headline>,
}

/// The headline change, in percent of the first run's figure (`None` from 0 to more;
/// 0 to 0 is no change: two reports have no area, one stretch each).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Change {
    /// Peak total.
    pub peak_percent: Option<f64>,
    /// Mean total.
    pub mean_percent: Option<f64>,
    /// Area under the total.
    pub area_percent: Option<f64>,
}

/// Two runs compared.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Comparison {
    /// The layout's name, for scripts.
    pub format: &'static str,
    /// The layout's version.
    pub version: u32,
    /// `VALUE_UNIT`, the same in both runs.
    pub value_unit: String,
    /// `SAMPLE_UNIT`, the same in both runs.
    pub sample_unit: String,
    /// The units the two name.
    #[serde(skip)]
    pub units: crate::units::Units,
    /// The first run.
    pub before: RunFigures,
    /// The second run.
    pub after: RunFigures,
    /// The headline change.
    pub change: Change,
    /// Every band of either run, the largest change in mean first.
    pub bands: Vec<BandChange>,
}

fn whole<S: serde::Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
    // Bytes are integers: a mean is rounded to the byte.
    crate::units::number(&v.round(), s)
}

/// Why two runs cannot be compared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mismatch {
    /// They count different things: live bytes and allocated bytes share a unit but
    /// not a meaning (pprof refuses profiles of different sample types alike).
    Kind {
        /// The first run's.
        before: crate::profile::Quantity,
        /// The second run's.
        after: crate::profile::Quantity,
    },
    /// They count one thing in different units.
    Unit {
        /// Which unit: `VALUE_UNIT` or `SAMPLE_UNIT`.
        unit: &'static str,
        /// The first run's.
        before: String,
        /// The second run's.
        after: String,
    },
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Mismatch::Kind { before, after } => write!(
                f,
                "different kinds of profile: the first is {}, the second {}; compare two \
                 runs of one kind (the same profiling flags)",
                before.described(),
                after.described()
            ),
            Mismatch::Unit {
                unit,
                before,
                after,
            } => write!(
                f,
                "the runs are measured in different units ({unit} `{}` and `{}`): they \
                 cannot share a scale",
                crate::escape::terminal(before),
                crate::escape::terminal(after)
            ),
        }
    }
}

/// Each band's name and figures over `censuses` ([`figures`]), from its points alone: a
/// profile of many bands each in a few of many samples has no dense bands × samples copy.
fn columns(p: &Profile, censuses: usize) -> Vec<(Vec<u8>, Option<Figures>)> {
    let samples = p.times.len();
    (p.bands.iter())
        .map(|(name, series)| {
            let mut points: Vec<(u32, f64)> = Vec::with_capacity(series.len());
            series.for_each(|s, v| points.push((s, v)));
            // 0 where the band has no point, the sum where a sample has it twice.
            points.sort_by_key(|&(s, _)| s);
            let mut values: Vec<f64> = Vec::with_capacity(points.len() + 1);
            for (k, &(s, v)) in points.iter().enumerate() {
                match k.checked_sub(1).map(|j| points[j].0) {
                    Some(prev) if prev == s => *values.last_mut().expect("one") += v,
                    _ => values.push(v),
                }
            }
            if values.len() < samples {
                values.push(0.0);
            }
            (name.to_vec(), figures(&values, censuses))
        })
        .collect()
}

/// How many censuses found anything: what means are taken over.
fn censuses(totals: &[f64]) -> usize {
    totals.iter().filter(|&&t| t != 0.0).count().max(1)
}

fn run_figures(file: &str, p: &Profile, window: (Option<f64>, Option<f64>)) -> RunFigures {
    let totals = p.totals();
    RunFigures {
        file: file.to_string(),
        job: String::from_utf8_lossy(&p.job).into_owned(),
        samples: p.times.len(),
        duration: {
            let (from, to) = p.span();
            to - from
        },
        peak: peak(&totals).1.max(0.0),
        mean: totals.iter().sum::<f64>() / censuses(&totals) as f64,
        area: trapezoids(&p.times, &totals),
        runtime: (!p.runtime.is_empty()).then(|| {
            super::summary::Headline::of(&super::stats::stats(&p.runtime, window.0, window.1))
        }),
    }
}

fn figures(values: &[f64], censuses: usize) -> Option<Figures> {
    let peak = peak(values).1;
    (peak > 0.0).then(|| Figures {
        peak,
        mean: values.iter().sum::<f64>() / censuses as f64,
    })
}

/// Whether two runs count the same thing in the same units: a census's live bytes and a
/// ticky interval's allocated bytes, or bytes over seconds and ticks over one stretch,
/// cannot be set side by side in any output (a picture, numbers, stacks or a verdict).
pub fn same_units(before: &Profile, after: &Profile) -> Result<(), Mismatch> {
    if before.quantity != after.quantity {
        return Err(Mismatch::Kind {
            before: before.quantity,
            after: after.quantity,
        });
    }
    for (unit, b, a) in [
        ("VALUE_UNIT", &before.value_unit, &after.value_unit),
        ("SAMPLE_UNIT", &before.sample_unit, &after.sample_unit),
    ] {
        if b != a {
            return Err(Mismatch::Unit {
                unit,
                before: String::from_utf8_lossy(b).into_owned(),
                after: String::from_utf8_lossy(a).into_owned(),
            });
        }
    }
    Ok(())
}

/// Compares two runs whose bands [`matched`] named alike. `files` name them; `window`
/// (`--from`, `--to`) is the stretch the runtime's headline figures are taken over, as
/// the bands' figures are over the samples the filter kept.
pub fn compare(
    before: &Profile,
    after: &Profile,
    files: [&str; 2],
    window: (Option<f64>, Option<f64>),
) -> Result<Comparison, Mismatch> {
    same_units(before, after)?;
    let (cb, ca) = (
        columns(before, censuses(&before.totals())),
        columns(after, censuses(&after.totals())),
    );
    let (rb, ra) = (
        run_figures(files[0], before, window),
        run_figures(files[1], after, window),
    );
    let noise = NOISE * rb.peak.max(ra.peak);
    let mut order: Vec<Vec<u8>> = Vec::new();
    let mut figs: HashMap<Vec<u8>, (Option<Figures>, Option<Figures>)> = HashMap::new();
    for (side, cols) in [(0, cb), (1, ca)] {
        for (name, f) in cols {
            let entry = figs.entry(name.clone()).or_insert_with(|| {
                order.push(name);
                (None, None)
            });
            if side == 0 {
                entry.0 = f;
            } else {
                entry.1 = f;
            }
        }
    }
    let mut bands: Vec<BandChange> = order
        .into_iter()
        .filter_map(|name| {
            let (b, a) = figs[&name];
            let status = match (b, a) {
                (None, None) => return None,
                (None, Some(_)) => Status::New,
                (Some(_), None) => Status::Gone,
                (Some(b), Some(a)) => {
                    let d = a.mean - b.mean;
                    if d.abs() <= CHANGE * b.mean || d.abs() <= noise {
                        Status::Unchanged
                    } else if d > 0.0 {
                        Status::Grew
                    } else {
                        Status::Shrank
                    }
                }
            };
            Some(BandChange {
                name: String::from_utf8_lossy(&name).into_owned(),
                before: b,
                after: a,
                status,
            })
        })
        .collect();
    bands.sort_by(|x, y| y.mean_change().abs().total_cmp(&x.mean_change().abs()));
    let percent = |b: f64, a: f64| match (b, a) {
        (0.0, 0.0) => Some(0.0),
        (0.0, _) => None,
        _ => Some((a - b) / b * 100.0),
    };
    Ok(Comparison {
        format: "hpgraph-compare",
        version: 1,
        value_unit: String::from_utf8_lossy(&before.value_unit).into_owned(),
        sample_unit: String::from_utf8_lossy(&before.sample_unit).into_owned(),
        units: before.units,
        change: Change {
            peak_percent: percent(rb.peak, ra.peak),
            mean_percent: percent(rb.mean, ra.mean),
            area_percent: percent(rb.area, ra.area),
        },
        before: rb,
        after: ra,
        bands,
    })
}

/// The run on 0-100% of its time (`--compare-time normalised`): runs of different
/// lengths line up. Marks and heap lines move with the samples.
pub fn normalised(mut p: Profile) -> Profile {
    if p.times.is_empty() {
        return p;
    }
    // The run from the program's start where the input knows it, as every view has it.
    let (first, last) = p.span();
    let span = last - first;
    let at = |t: f64| {
        if span > 0.0 {
            (t - first) / span * 100.0
        } else {
            0.0
        }
    };
    for t in &mut p.times {
        *t = at(*t);
    }
    for m in &mut p.marks {
        m.time = at(m.time);
    }
    p.origin = p.origin.map(at);
    for line in [&mut p.heap.size, &mut p.heap.live, &mut p.heap.blocks] {
        for (t, _) in line.iter_mut() {
            *t = at(*t);
        }
    }
    let value_unit = std::mem::take(&mut p.value_unit);
    p.set_units(b"% of the run".to_vec(), value_unit);
    p
}

/// What a picture of the comparison calls out, a line each: the headline change, and
/// the bands whose mean and whose peak changed most.
pub fn callouts(c: &Comparison, units: ByteUnits) -> Vec<String> {
    let scale = Scale::new(c.units.value, units);
    let signed = |v: f64| {
        let sign = if v < 0.0 { "-" } else { "+" };
        format!("{sign}{}", human(v.abs(), scale))
    };
    let percent = |p: Option<f64>| p.map_or(String::new(), |p| format!(" ({p:+.0}%)"));
    let mut lines = vec![format!(
        "peak {} -> {}{}; mean {} -> {}{}",
        human(c.before.peak, scale),
        human(c.after.peak, scale),
        percent(c.change.peak_percent),
        human(c.before.mean, scale),
        human(c.after.mean, scale),
        percent(c.change.mean_percent),
    )];
    let most = |key: fn(&BandChange) -> f64| {
        c.bands
            .iter()
            .filter(|b| key(b) != 0.0)
            .max_by(|x, y| key(x).abs().total_cmp(&key(y).abs()))
    };
    // Named as a key names them: without GHC's `(N)` and a closure's package (its unit
    // id of 22 characters a Debian-built library has), which a caption has no room for.
    let name = |b: &BandChange| {
        String::from_utf8_lossy(crate::select::flame::shown(b.name.as_bytes())).into_owned()
    };
    if let Some(b) = most(BandChange::mean_change) {
        lines.push(format!(
            "mean changed most: {} {} ({})",
            name(b),
            signed(b.mean_change()),
            b.status.word()
        ));
    }
    if let Some(b) = most(BandChange::peak_change) {
        lines.push(format!(
            "peak changed most: {} {}",
            name(b),
            signed(b.peak_change())
        ));
    }
    lines
}

/// One run's totals over its times, thinned as a page's values are
/// ([`super::page::MAX_TIMES`]), for a page that shows both runs' totals under the
/// pointer.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Totals {
    /// Sample times kept.
    pub times: Vec<f64>,
    /// The total at each.
    #[serde(serialize_with = "crate::units::numbers")]
    pub totals: Vec<f64>,
}

/// The totals of a run, thinned.
pub fn totals_of(p: &Profile) -> Totals {
    let all = p.totals();
    let keep = super::page::kept(&p.times, &all);
    Totals {
        times: keep.iter().map(|&i| p.times[i]).collect(),
        totals: keep.iter().map(|&i| all[i]).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::hp::parse;

    fn profile(body: &str) -> Profile {
        parse(
            format!("JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n{body}")
                .as_bytes(),
        )
        .unwrap()
        .profile
    }

    #[test]
    fn numbers_and_cuts_are_matched_across_runs() {
        let hp = profile(
            "BEGIN_SAMPLE 0\n(12)main/Main.CAF\t100\n(14)mk/f01/main.fs/main.l...\t30\n\
             END_SAMPLE 0\n",
        );
        let ev = profile(
            "BEGIN_SAMPLE 0\nmain/Main.CAF\t100\nmk/f01/main.fs/main.lists/A\t10\n\
             mk/f01/main.fs/main.lists/B\t20\nMAIN\t5\nEND_SAMPLE 0\n",
        );
        let (mut hp, mut ev) = (hp, ev);
        matched(&mut hp, &mut ev);
        let names = |p: &Profile| -> Vec<String> {
            p.bands
                .names()
                .iter()
                .map(|n| String::from_utf8_lossy(n).into_owned())
                .collect()
        };
        assert_eq!(names(&hp), ["main/Main.CAF", "mk/f01/main.fs/main.l..."]);
        assert_eq!(
            names(&ev),
            ["main/Main.CAF", "mk/f01/main.fs/main.l...", "MAIN"]
        );
        let c = compare(&hp, &ev, ["a.hp", "a.eventlog"], (None, None)).unwrap();
        let cut = c.bands.iter().find(|b| b.name.ends_with("...")).unwrap();
        assert_eq!(cut.status, Status::Unchanged, "30 = 10 + 20");
        let main = c.bands.iter().find(|b| b.name == "MAIN").unwrap();
        assert_eq!(main.status, Status::New);
    }

    #[test]
    fn a_leak_and_its_fix() {
        let leak = profile(
            "BEGIN_SAMPLE 0\nleak\t100\nflat\t50\nEND_SAMPLE 0\n\
             BEGIN_SAMPLE 1\nleak\t300\nflat\t50\nEND_SAMPLE 1\n",
        );
        let fixed = profile(
            "BEGIN_SAMPLE 0\nleak\t10\nflat\t51\nEND_SAMPLE 0\n\
             BEGIN_SAMPLE 2\nleak\t10\nflat\t50\nnew\t7\nEND_SAMPLE 2\n",
        );
        let c = compare(&leak, &fixed, ["leak.hp", "fixed.hp"], (None, None)).unwrap();
        let by = |n: &str| c.bands.iter().find(|b| b.name == n).unwrap();
        assert_eq!(by("leak").status, Status::Shrank);
        assert_eq!(by("leak").before.unwrap().mean, 200.0);
        assert_eq!(by("flat").status, Status::Unchanged);
        assert_eq!(by("new").status, Status::New);
        assert_eq!(c.bands[0].name, "leak", "the largest change first");
        assert_eq!((c.before.peak, c.after.peak), (350.0, 67.0));
        // Areas: (150 + 350) / 2 * 1 = 250; (61 + 67) / 2 * 2 = 128.
        assert_eq!((c.before.area, c.after.area), (250.0, 128.0));
        assert_eq!(c.change.area_percent, Some((128.0 - 250.0) / 250.0 * 100.0));
    }

    #[test]
    fn runs_in_different_units_are_refused() {
        let a = profile("BEGIN_SAMPLE 0\nx\t1\nEND_SAMPLE 0\n");
        let mut b = a.clone();
        let sample_unit = b.sample_unit.clone();
        b.set_units(sample_unit, b"words".to_vec());
        let e = compare(&a, &b, ["a", "b"], (None, None)).unwrap_err();
        assert!(
            matches!(
                e,
                Mismatch::Unit {
                    unit: "VALUE_UNIT",
                    ..
                }
            ),
            "{e:?}"
        );
        // Counting another thing is refused first, in the same units.
        b.quantity = crate::profile::Quantity::Allocated;
        let e = compare(&a, &b, ["a", "b"], (None, None)).unwrap_err();
        assert!(matches!(e, Mismatch::Kind { .. }), "{e:?}");
    }
}
