//! Filters: the part of a profile a reader asked to see (`--include`, `--exclude`,
//! `--from`, `--to`), taken before any band is selected.
//!
//! The result is a [`Profile`] again, so that the trace threshold, the band limit, the
//! key, the area in the title and every data output follow the filtered profile as if
//! the file had held only that part. Without a filter the profile is passed on as it is,
//! which is what keeps hp2ps's flags giving hp2ps's bytes.

use regex::bytes::Regex;

use crate::profile::{Costs, HeapSeries, Mark, Profile, Series};

/// What to keep of a profile.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct Filter {
    /// A band is kept when its name matches one of these (all bands when there are none).
    pub include: Vec<Regex>,
    /// A band is dropped when its name matches one of these, even if included.
    pub exclude: Vec<Regex>,
    /// Samples taken before this time are dropped (the profile's own time unit).
    pub from: Option<f64>,
    /// Samples taken after this time are dropped.
    pub to: Option<f64>,
    /// `--from mark:TEXT`: the window starts at this marker of the run, resolved into
    /// `from` once the run is read ([`Filter::at_marks`]).
    pub from_mark: Option<super::marker::MarkRef>,
    /// `--to mark:TEXT`: the window ends at this marker.
    pub to_mark: Option<super::marker::MarkRef>,
    /// `--marks REGEX`: only the markers whose text matches are kept (eventlog2html's
    /// `-i`), for a run that marks every iteration; a mark without text (a `.hp`
    /// file's) matches nothing.
    pub marks: Option<Regex>,
    /// `--min-share`: a cost-centre profile's frames under this share of the whole, in
    /// percent, join their caller's `(other)` ([`super::prune`]).
    pub min_share: Option<f64>,
}

impl Filter {
    /// Whether a bound is a marker, which only the run's own markers resolve.
    pub fn by_marks(&self) -> bool {
        self.from_mark.is_some() || self.to_mark.is_some()
    }

    /// The filter with its marker bounds made the times of those markers among `marks`
    /// (the run's, read in file order); what is wrong when one is not there or the
    /// window would end before it starts.
    pub fn at_marks(&self, marks: &[Mark]) -> Result<Filter, String> {
        let mut out = self.clone();
        let which = |bound: &Option<super::marker::MarkRef>, flag: &str| {
            bound
                .as_ref()
                .map(|m| {
                    m.time(marks)
                        .map_err(|e| format!("{flag} mark:{}: {e}", m.prefix))
                })
                .transpose()
        };
        if let Some(t) = which(&self.from_mark, "--from")? {
            out.from = Some(t);
        }
        if let Some(t) = which(&self.to_mark, "--to")? {
            out.to = Some(t);
        }
        if let (Some(a), Some(b)) = (out.from, out.to)
            && b < a
        {
            return Err(format!(
                "--to's marker (at {b}) comes before --from's (at {a}): give them the other \
                 way round"
            ));
        }
        out.from_mark = None;
        out.to_mark = None;
        Ok(out)
    }
}

/// Why a filter leaves nothing to draw.
#[derive(Debug, Clone, PartialEq)]
pub enum Empty {
    /// No sample lies in the time window.
    NoSamples {
        /// `--from`.
        from: Option<f64>,
        /// `--to`.
        to: Option<f64>,
    },
    /// No band name passes `--include` and `--exclude`.
    NoBands,
}

impl std::fmt::Display for Empty {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Empty::NoSamples { from, to } => {
                let show =
                    |t: &Option<f64>, none: &str| t.map_or(none.to_string(), |t| format!("{t}"));
                write!(
                    f,
                    "no sample between --from {} and --to {}",
                    show(from, "the start"),
                    show(to, "the end")
                )
            }
            Empty::NoBands => write!(f, "no band name passes --include and --exclude"),
        }
    }
}

impl std::error::Error for Empty {}

impl Filter {
    /// True when the filter keeps everything.
    pub fn is_empty(&self) -> bool {
        self.include.is_empty()
            && self.exclude.is_empty()
            && self.from.is_none()
            && self.to.is_none()
            && self.min_share.is_none()
            && !self.by_marks()
            && self.marks.is_none()
    }

    /// Whether a band of this name is kept.
    pub fn keeps_name(&self, name: &[u8]) -> bool {
        (self.include.is_empty() || self.include.iter().any(|r| r.is_match(name)))
            && !self.exclude.iter().any(|r| r.is_match(name))
    }

    /// Whether `--marks` keeps this mark.
    fn keeps_mark(&self, m: &Mark) -> bool {
        self.marks
            .as_ref()
            .is_none_or(|re| m.text.as_deref().is_some_and(|t| re.is_match(t)))
    }

    fn keeps_time(&self, t: f64) -> bool {
        self.from.is_none_or(|from| t >= from) && self.to.is_none_or(|to| t <= to)
    }

    /// The part of `profile` this filter keeps. Bands left without a point in the time
    /// window are dropped, as a file holding only that window would not name them.
    /// `--min-share` prunes cost profiles only ([`Self::apply_costs`]).
    pub fn apply(&self, profile: Profile) -> Result<Profile, Empty> {
        if self.is_empty() {
            return Ok(profile);
        }
        self.window_and_names(profile)
    }

    /// [`Self::apply`] for a cost profile, pruned after (`--min-share`), so that a
    /// frame's share is of what the window spent.
    pub fn apply_costs(&self, mut costs: Costs) -> Result<Costs, Empty> {
        if self.is_empty() {
            return Ok(costs);
        }
        costs.bands_changed();
        costs.series = self.window_and_names(std::mem::take(&mut costs.series))?;
        Ok(match self.min_share {
            Some(share) => super::prune::prune(costs, share),
            None => costs,
        })
    }

    /// The samples in the window and the bands whose names pass.
    fn window_and_names(&self, profile: Profile) -> Result<Profile, Empty> {
        let window = || Empty::NoSamples {
            from: self.from,
            to: self.to,
        };
        // New sample numbers: samples in the window keep their order.
        let mut renumber: Vec<Option<u32>> = Vec::with_capacity(profile.times.len());
        let mut times = Vec::new();
        for &t in &profile.times {
            if self.keeps_time(t) {
                renumber.push(Some(times.len() as u32));
                times.push(t);
            } else {
                renumber.push(None);
            }
        }
        if times.is_empty() {
            return Err(window());
        }
        let mut bands = crate::profile::Bands::default();
        let mut dropped_names = profile.dropped_names;
        for (name, old) in profile.bands {
            if !self.keeps_name(&name) {
                dropped_names.push(name);
                continue;
            }
            let mut kept = Series::default();
            old.for_each(|s, v| {
                if let Some(s) = renumber[s as usize] {
                    kept.push(s, v);
                }
            });
            if kept.is_empty() {
                dropped_names.push(name);
            } else {
                kept.shrink_to_fit();
                bands.push(name, kept);
            }
        }
        if bands.is_empty() {
            return Err(if self.include.is_empty() && self.exclude.is_empty() {
                window()
            } else {
                Empty::NoBands
            });
        }
        let marks: Vec<Mark> = profile
            .marks
            .into_iter()
            .filter(|m| self.keeps_time(m.time) && self.keeps_mark(m))
            .collect();
        let within = |points: Vec<(f64, f64)>| -> Vec<(f64, f64)> {
            points
                .into_iter()
                .filter(|&(t, _)| self.keeps_time(t))
                .collect()
        };
        // The samples beside a heap profile keep the same window (their names are
        // stacks, not the heap's bands): none in it, none shown.
        let window_only = Filter {
            from: self.from,
            to: self.to,
            ..Filter::default()
        };
        let cost_samples = (profile.cost_samples)
            .and_then(|s| window_only.apply_costs(*s).ok())
            .map(Box::new);
        Ok(Profile {
            times,
            marks,
            bands,
            cost_samples,
            heap: HeapSeries {
                size: within(profile.heap.size),
                live: within(profile.heap.live),
                blocks: within(profile.heap.blocks),
            },
            dropped_names,
            // A window from a time starts there, not at the program's start.
            origin: profile.origin.filter(|_| self.from.is_none()),
            ..profile
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::hp::parse;

    fn profile() -> Profile {
        parse(
            b"JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n\
              MARK 0.5\n\
              BEGIN_SAMPLE 0.0\nEND_SAMPLE 0.0\n\
              BEGIN_SAMPLE 1.0\nmain\t10\nMain.CAF\t5\nEND_SAMPLE 1.0\n\
              BEGIN_SAMPLE 2.0\nmain\t20\nlib\t7\nEND_SAMPLE 2.0\n\
              MARK 2.5\n\
              BEGIN_SAMPLE 3.0\nlib\t9\nEND_SAMPLE 3.0\n",
        )
        .unwrap()
        .profile
    }

    fn points(p: &Profile, name: &str) -> Vec<(u32, f64)> {
        let k = p
            .bands
            .names()
            .iter()
            .position(|n| &n[..] == name.as_bytes())
            .unwrap();
        p.bands.series()[k].points().collect()
    }

    #[test]
    fn no_filter_is_the_same_profile() {
        assert_eq!(Filter::default().apply(profile()).unwrap(), profile());
    }

    #[test]
    fn names_are_included_then_excluded() {
        let f = Filter {
            include: vec![Regex::new("^ma|li").unwrap()],
            exclude: vec![Regex::new("^lib$").unwrap()],
            ..Filter::default()
        };
        let p = f.apply(profile()).unwrap();
        assert_eq!(
            p.bands.names(),
            vec![b"main".as_slice().into()] as Vec<Box<[u8]>>
        );
        assert_eq!(p.times, profile().times);
        assert_eq!(points(&p, "main"), vec![(1, 10.0), (2, 20.0)]);
    }

    #[test]
    fn a_window_renumbers_samples_and_keeps_its_marks() {
        let f = Filter {
            from: Some(1.5),
            to: Some(3.0),
            ..Filter::default()
        };
        let p = f.apply(profile()).unwrap();
        assert_eq!(p.times, vec![2.0, 3.0]);
        assert_eq!(p.marks, vec![Mark::at(2.5)]);
        // Main.CAF has no point after 1.5 s: it is gone.
        assert_eq!(p.bands.len(), 2);
        assert_eq!(points(&p, "main"), vec![(0, 20.0)]);
        assert_eq!(points(&p, "lib"), vec![(0, 7.0), (1, 9.0)]);
    }

    #[test]
    fn filters_that_leave_nothing_say_why() {
        let late = Filter {
            from: Some(10.0),
            ..Filter::default()
        };
        assert!(matches!(
            late.apply(profile()),
            Err(Empty::NoSamples { .. })
        ));
        let none = Filter {
            include: vec![Regex::new("nothing").unwrap()],
            ..Filter::default()
        };
        assert_eq!(none.apply(profile()), Err(Empty::NoBands));
    }
}
