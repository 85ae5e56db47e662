//! A time and allocation report's summary: which cost centres spend (individual: the
//! stacks that end in them), which lead to the spending (inherited: every stack through
//! them, each counted once), and the hottest path from the root. Computed from the
//! profile's census (or its samples' sum, [`Costs`]), weighed as `--measure` chose.

use std::collections::HashMap;

use serde::Serialize;

use crate::profile::Costs;
use crate::profile::hash::FxMap;
use crate::select::flame::Stacked;

/// One cost centre's share of the run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Centre {
    /// `Module.label`.
    pub name: String,
    /// What the stacks ending in it weigh.
    #[serde(serialize_with = "crate::units::tidy_number")]
    pub individual: f64,
    /// What every stack through it weighs.
    #[serde(serialize_with = "crate::units::tidy_number")]
    pub inherited: f64,
}

/// A step of the hottest path.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Step {
    /// `Module.label`.
    pub name: String,
    /// What the stacks through it (by this path) weigh.
    #[serde(serialize_with = "crate::units::tidy_number")]
    pub inherited: f64,
}

/// The summary of a report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CostSummary {
    /// What the stacks are weighed by (`ticks`, `bytes`, `entries`).
    pub measure: String,
    /// The whole run's, or the window's.
    #[serde(serialize_with = "crate::units::tidy_number")]
    pub total: f64,
    /// A `-p` report's total as its header gives it, where its rows add up to another:
    /// each row's figure is estimated from its shares, which GHC rounds to 0.1%, so the
    /// rows fall short of (or past) what the run spent. `None` for a report with counts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub report_total: Option<u64>,
    /// `--from`/`--to`'s window of eventlog samples, as asked (`None`: the whole run).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window: Option<(Option<f64>, Option<f64>)>,
    /// The cost centres by individual measure, largest first (at most `top`).
    pub by_individual: Vec<Centre>,
    /// By inherited measure, largest first (at most `top`).
    pub by_inherited: Vec<Centre>,
    /// From the root, at each step the callee that weighs most, with what it weighs.
    pub hottest_path: Vec<Step>,
    /// What `--min-share` hid in `(other)` frames (`null` without it, or when nothing
    /// was under the share).
    pub pruned: Option<crate::profile::costs::Pruned>,
}

/// The summary of `profile`'s one census (or its samples' sum), `top` cost centres in
/// each list; `window` is `--from`/`--to`, which samples were cut to.
pub fn summarise(profile: &Costs, top: usize, window: (Option<f64>, Option<f64>)) -> CostSummary {
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    let stacks: Vec<(Vec<&[u8]>, f64)> = (0..profile.series().bands.len())
        .map(|k| {
            let name = &profile.series().bands.names()[k];
            let (frames, _) = profile.frames(name);
            let mut value = 0.0;
            profile.series().bands.series()[k].for_each(|_, v| value += v);
            (frames, value)
        })
        .collect();
    let mut centres: HashMap<&[u8], (f64, f64)> = HashMap::new();
    for (frames, value) in &stacks {
        if let Some(last) = frames.last() {
            centres.entry(last).or_default().0 += value;
        }
        let mut seen: Vec<&[u8]> = Vec::with_capacity(frames.len());
        for f in frames {
            if !seen.contains(f) {
                seen.push(f);
                centres.entry(f).or_default().1 += value;
            }
        }
    }
    let mut all: Vec<Centre> = (centres.into_iter())
        .map(|(name, (individual, inherited))| Centre {
            name: text(name),
            individual,
            inherited,
        })
        .collect();
    all.sort_by(|a, b| {
        b.individual
            .total_cmp(&a.individual)
            .then(a.name.cmp(&b.name))
    });
    let by_individual = all.iter().take(top).cloned().collect();
    all.sort_by(|a, b| {
        b.inherited
            .total_cmp(&a.inherited)
            .then(a.name.cmp(&b.name))
    });
    let total: f64 = stacks.iter().map(|s| s.1).sum();
    CostSummary {
        measure: text(&profile.series().value_unit),
        total,
        report_total: report_total(profile, window).filter(|&t| t as f64 != total),
        window: (window != (None, None)).then_some(window),
        by_individual,
        by_inherited: all.into_iter().take(top).collect(),
        hottest_path: hottest(&stacks)
            .into_iter()
            .map(|(f, v)| Step {
                name: text(f),
                inherited: v,
            })
            .collect(),
        pruned: profile.pruned,
    }
}

/// The header's total of a `-p` report (shares only) in the measure its stacks weigh,
/// over the whole run.
fn report_total(profile: &Costs, window: (Option<f64>, Option<f64>)) -> Option<u64> {
    use crate::profile::costs::{Measure, Precision};
    let tree = (profile.tree.as_ref()).filter(|t| t.precision == Precision::Percentages)?;
    match (profile.measure, window) {
        (Measure::Time, (None, None)) => Some(tree.total_ticks),
        (Measure::Alloc, (None, None)) => Some(tree.total_bytes),
        _ => None,
    }
}

/// From the root, the callee whose stacks weigh most, step by step.
fn hottest<'a>(stacks: &[(Vec<&'a [u8]>, f64)]) -> Vec<(&'a [u8], f64)> {
    let mut path: Vec<(&[u8], f64)> = Vec::new();
    let mut through: Vec<usize> = (0..stacks.len()).collect();
    loop {
        let d = path.len();
        let mut next: HashMap<&[u8], f64> = HashMap::new();
        for &k in &through {
            if let Some(f) = stacks[k].0.get(d) {
                *next.entry(f).or_default() += stacks[k].1;
            }
        }
        let Some((&f, &v)) = next
            .iter()
            .max_by(|a, b| a.1.total_cmp(b.1).then(b.0.cmp(a.0)))
        else {
            return path;
        };
        if v <= 0.0 {
            return path;
        }
        path.push((f, v));
        through.retain(|&k| stacks[k].0.get(d) == Some(&f));
    }
}

/// A report's entries by frame of its flame graph `flame`: each stack of the tree found
/// under its caller's frame by its name (so in one step, never named whole: a report of
/// deep stacks would otherwise name each), stacks of one frame added; 0 for a frame no
/// stack of the tree reaches (a pruned stack's `(other)`).
pub fn entries_by_frame(
    tree: &crate::profile::costs::CostProfile,
    flame: &crate::select::flame::Flame,
) -> Vec<u64> {
    let names: Vec<Vec<u8>> = tree.centres.iter().map(|c| c.name()).collect();
    let child: FxMap<(usize, &[u8]), usize> = (flame.frames.iter().enumerate().skip(1))
        .filter_map(|(k, f)| Some(((f.parent?, &f.name[..]), k)))
        .collect();
    let mut entries = vec![0u64; flame.frames.len()];
    let mut frame_of: Vec<Option<usize>> = Vec::with_capacity(tree.stacks.len());
    for stack in &tree.stacks {
        let up = match stack.parent {
            None => Some(0),
            Some(p) => frame_of.get(p as usize).copied().flatten(),
        };
        let name = &names[stack.centre as usize][..];
        let frame = up.and_then(|u| child.get(&(u, name)).copied());
        if let Some(f) = frame {
            entries[f] = entries[f].saturating_add(stack.entries);
        }
        frame_of.push(frame);
    }
    entries
}

/// One frame of a cost-centre profile's tree, as `-o x.csv` and `-o x.json` write it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TreeRow {
    /// Its number: a frame comes after its caller.
    pub id: usize,
    /// Its caller's number (`null` for the outermost frames).
    pub parent: Option<usize>,
    /// `Module.label`.
    pub name: String,
    /// What the stack ending here weighs itself.
    #[serde(serialize_with = "crate::units::tidy_number")]
    pub individual: f64,
    /// What it and its callees weigh.
    #[serde(serialize_with = "crate::units::tidy_number")]
    pub inherited: f64,
    /// Times its stack was entered, where the profile counts them (a report).
    pub entries: Option<u64>,
}

/// The profile's tree of stacks, frame by frame, callers first: each frame's own and
/// inherited measure, and its entries from the report where there is one. The flame
/// graph's frames (the root `all` left out), so a frame is a stack of the tree.
pub fn tree(profile: &Costs) -> Vec<TreeRow> {
    let flame = crate::select::flame::flame(profile, crate::select::flame::WhichCensus::Peak);
    let entries = (profile.tree.as_deref()).map(|t| entries_by_frame(t, &flame));
    (flame.frames.iter().enumerate().skip(1))
        .map(|(k, f)| TreeRow {
            id: k,
            parent: f.parent.filter(|&p| p > 0),
            name: String::from_utf8_lossy(&f.name).into_owned(),
            individual: f.own,
            inherited: f.bytes,
            entries: entries.as_ref().map(|e| e[k]),
        })
        .collect()
}
