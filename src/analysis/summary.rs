//! Which band is the leak: each band's peak, when it first reached it, its mean, its
//! share of the area under the graph and where it heads at the end of the window (the
//! whole run, or `--from`/`--to`'s). `--summary` prints it ([`crate::export::summary`]);
//! the page's table shows the same figures for its zoomed window. What each figure is,
//! and the trend's verdict, is defined once, in [`super::window`].

use serde::Serialize;

use super::table::Table;
use super::window::Window;
pub use super::window::{TREND_CHANGE, TREND_SHARE, TREND_T, TREND_WINDOW, Trend};
pub(crate) use super::window::{peak, trapezoids};
use crate::units::{ByteUnits, Scale, TimeUnit, human, seconds};

/// One band's figures.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BandSummary {
    /// The band, as text.
    pub name: String,
    /// Its largest value.
    #[serde(serialize_with = "crate::units::number")]
    pub peak: f64,
    /// When it first reached it.
    pub peak_time: f64,
    /// Its mean over every sample.
    pub mean: f64,
    /// Its area over all bands' area.
    pub share: f64,
    /// Where it heads at the end of the run.
    pub trend: Trend,
    /// The trend line's slope over the window, in value units per time unit.
    pub growth_per_second: f64,
    /// How well the line fits the band's values over the window (R², 0 to 1).
    pub growth_r2: f64,
    /// A retainer profile's band: its retainer set in full (each member a stack of
    /// cost-centre names, innermost first), where the run's report lists it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retainer_set: Option<Vec<Vec<String>>>,
}

/// The sum of all bands.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Total {
    /// The largest total.
    #[serde(serialize_with = "crate::units::number")]
    pub peak: f64,
    /// When the total first reached it.
    pub peak_time: f64,
    /// The mean total.
    pub mean: f64,
    /// Where the total heads at the end of the window (as a band's trend).
    pub trend: Trend,
    /// The total's trend line's slope, in value units per time unit.
    pub growth_per_second: f64,
}

/// A stretch of time, in sample units.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Span {
    /// Its first sample's time.
    pub from: f64,
    /// Its last sample's time.
    pub to: f64,
}

/// An input read in part: what was lost, where, and the censuses' span that was read.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PartRead {
    /// What was lost, where.
    #[serde(flatten)]
    pub loss: crate::profile::Loss,
    /// The first and last census read.
    pub read: Span,
}

/// The whole summary, bands sorted by share, largest first.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// The JSON layout's version: a script can refuse a layout it does not know.
    pub version: u32,
    /// `JOB`.
    pub job: String,
    /// `DATE`.
    pub date: String,
    /// `SAMPLE_UNIT`.
    pub sample_unit: String,
    /// `VALUE_UNIT`.
    pub value_unit: String,
    /// The units the two name, as the profile read them.
    #[serde(skip)]
    pub units: crate::units::Units,
    /// Whether the input was read whole: when not, every figure is of the part read
    /// (`loss` says what was not).
    pub complete: bool,
    /// What of the input was not read, and the stretch that was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loss: Option<PartRead>,
    /// How many samples.
    pub samples: usize,
    /// The first and last sample's times: the window every figure is over.
    pub window: Span,
    /// The part of it the trend line goes through (the last
    /// [`super::window::TREND_WINDOW`] of its body).
    pub trend_window: Span,
    /// Where the run's teardown, left out of the trend, begins: the time of its highest
    /// census in the last third of the time, after which the heap falls to at most half
    /// of it ([`super::window::TEARDOWN_FALL`]); `None` when the run has none.
    pub teardown_from: Option<f64>,
    /// The censuses of the run's body (the window less its exit census and teardown):
    /// under [`super::window::MIN_TREND_CENSUSES`], no trend is judged.
    pub body_censuses: usize,
    /// The R² a trend line needs for a band to be growing or shrinking: over this
    /// window's trend samples, a slope [`super::window::TREND_T`] standard errors from
    /// flat ([`super::window::needed_r2`]).
    pub trend_r2: f64,
    /// Bands the profile has; `bands` may list fewer (`--top`).
    pub band_count: usize,
    /// Every band together.
    pub total: Total,
    /// The bands, largest share first (cut at `top`).
    pub bands: Vec<BandSummary>,
    /// The runtime's headline figures over the window, when the input is an eventlog
    /// with GC events (see [`super::stats`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub runtime: Option<Headline>,
    /// The non-moving heap's censuses within the window (`+RTS -xn -ln`), a row per
    /// size class per census, block sizes in bytes as ghc-events prints them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nonmoving: Option<Vec<NonmovingRow>>,
    /// What each capability was doing over the window, in seconds: running Haskell
    /// code, collecting, idle (the scheduler's events; `+RTS -l`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub capabilities: Option<Vec<crate::profile::activity::Figures>>,
    /// The capabilities' stretches were too many to keep one by one: a window's
    /// figures cannot be told (the whole run's are exact).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub capabilities_unjudged: bool,
    /// A biographical profile's (`-hb`) waste: DRAG and VOID, never used again.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub biography: Option<super::biography::Biography>,
    /// The lives a profile broken down otherwise is restricted to (`drag,void` of `-hc
    /// -hbdrag,void`): its bands are who holds closures of those lives.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub restricted_to: Option<String>,
    /// A retainer or root profile's: each member of its sets, with what it holds alone
    /// and reachable at their peaks ([`super::members`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub members: Option<super::members::Members>,
    /// A ticky-ticky run's counters, most allocating first: the run's totals (a window
    /// does not narrow them).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ticky: Option<Vec<crate::profile::ticky::Counter>>,
    /// A ticky-ticky text report's runtime counters (`ALLOC_HEAP_tot`, …), as listed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ticky_totals: Option<Vec<crate::profile::ticky::Total>>,
}

/// One size class of the non-moving heap at one census.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NonmovingRow {
    /// The census's time, in seconds since the run began.
    pub time: f64,
    /// The class's figures.
    #[serde(flatten)]
    pub class: crate::profile::nonmoving::SizeClass,
}

/// The non-moving heap's censuses between `from` and `to` (seconds, either open), as
/// rows; `None` where the run has none.
fn nonmoving_rows(
    nonmoving: &crate::profile::nonmoving::Nonmoving,
    (from, to): (Option<f64>, Option<f64>),
) -> Option<Vec<NonmovingRow>> {
    let inside = |t: f64| from.is_none_or(|f| t >= f) && to.is_none_or(|e| t <= e);
    (!nonmoving.censuses.is_empty()).then(|| {
        (nonmoving.censuses.iter())
            .filter(|c| inside(c.time))
            .flat_map(|c| {
                (c.classes.iter()).map(|&class| NonmovingRow {
                    time: c.time,
                    class,
                })
            })
            .collect()
    })
}

/// Each capability's figures between `from` and `to` (seconds, either open: the run's
/// start and end); `None` where the run has no scheduler's events, or the window's
/// cannot be told.
fn capabilities(
    runtime: &crate::profile::Runtime,
    (from, to): (Option<f64>, Option<f64>),
) -> Option<Vec<crate::profile::activity::Figures>> {
    let activity = &runtime.activity;
    if activity.is_empty() {
        return None;
    }
    let (a, b) = (
        from.unwrap_or(0.0),
        to.unwrap_or(runtime.end).min(runtime.end),
    );
    activity.figures(a, b, from.is_none() && to.is_none())
}

/// The runtime's figures a CI job watches: what share of the time went to collecting,
/// the longest pause, what was allocated and the largest residency.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Headline {
    /// GC elapsed over Total elapsed, 0 to 1.
    pub gc_share: f64,
    /// The longest pause, in seconds.
    pub max_pause: f64,
    /// Collections, all generations.
    pub collections: u64,
    /// Bytes allocated.
    pub allocated: Option<u64>,
    /// The largest live bytes after a major collection.
    pub max_residency: Option<u64>,
}

impl Headline {
    /// The figures by their names in the JSON form, for a table's rows: `gc_share` (0 to
    /// 1), `max_pause` (seconds), `collections`, `allocated` and `max_residency` (bytes;
    /// `None` where the eventlog does not say).
    pub fn figures(&self) -> [(&'static str, Option<f64>); 5] {
        [
            ("gc_share", Some(self.gc_share)),
            ("max_pause", Some(self.max_pause)),
            ("collections", Some(self.collections as f64)),
            ("allocated", self.allocated.map(|b| b as f64)),
            ("max_residency", self.max_residency.map(|b| b as f64)),
        ]
    }

    /// The headline of a runtime's statistics.
    pub fn of(s: &super::stats::Stats) -> Headline {
        Headline {
            gc_share: if s.total_elapsed > 0.0 {
                s.gc_elapsed / s.total_elapsed
            } else {
                0.0
            },
            max_pause: s
                .generations
                .iter()
                .map(|g| g.max_pause)
                .fold(0.0, f64::max),
            collections: s.generations.iter().map(|g| g.collections).sum(),
            allocated: s.allocated,
            max_residency: s.max_residency,
        }
    }
}

/// Summarises the table's columns; `top` keeps the largest shares only; `window` is
/// `--from`/`--to`, which the runtime's figures are taken over (the table's profile is
/// already cut to it).
pub fn summarise(
    table: &Table,
    top: Option<usize>,
    runtime_window: (Option<f64>, Option<f64>),
) -> Summary {
    let profile = table.profile;
    let times = &profile.times;
    let n = times.len();
    let totals = table.totals();
    let window = Window::new(times, &totals);
    let mut bands: Vec<BandSummary> = (0..table.columns.len())
        .map(|k| {
            let f = window.figures_of(&table.columns[k].1.present(profile));
            BandSummary {
                name: String::from_utf8_lossy(&table.columns[k].0).into_owned(),
                peak: f.peak,
                peak_time: f.peak_time,
                mean: f.mean,
                share: f.share,
                trend: f.trend,
                growth_per_second: f.growth,
                growth_r2: f.r2,
                retainer_set: (table.profile.retainer_sets.get(&table.columns[k].0[..])).map(
                    |members| {
                        (members.iter())
                            .map(|m| {
                                (m.iter())
                                    .map(|c| String::from_utf8_lossy(c).into_owned())
                                    .collect()
                            })
                            .collect()
                    },
                ),
            }
        })
        .collect();
    // Largest share first; equal shares in the table's order.
    bands.sort_by(|a, b| b.share.total_cmp(&a.share));
    let band_count = bands.len();
    let whole = window.figures(&totals);
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    let (trend_from, trend_to) = window.trend_span();
    let capabilities = capabilities(&profile.runtime, runtime_window);
    Summary {
        version: 1,
        job: text(&profile.job),
        date: text(&profile.date),
        sample_unit: text(&profile.sample_unit),
        value_unit: text(&profile.value_unit),
        units: profile.units,
        complete: profile.loss.is_none(),
        loss: profile.loss.clone().map(|loss| PartRead {
            loss,
            // Read from the program's start where the input knows it (an eventlog).
            read: Span {
                from: profile.span().0,
                to: times[n - 1],
            },
        }),
        samples: n,
        window: Span {
            from: times[0],
            to: times[n - 1],
        },
        trend_window: Span {
            from: trend_from,
            to: trend_to,
        },
        teardown_from: window.teardown_from(),
        body_censuses: window.body(),
        trend_r2: window.needed_r2(),
        band_count,
        total: Total {
            peak: whole.peak,
            peak_time: whole.peak_time,
            mean: whole.mean,
            trend: whole.trend,
            growth_per_second: whole.growth,
        },
        bands: bands.into_iter().take(top.unwrap_or(usize::MAX)).collect(),
        runtime: (!profile.runtime.is_empty()).then(|| {
            Headline::of(&super::stats::stats(
                &profile.runtime,
                runtime_window.0,
                runtime_window.1,
            ))
        }),
        nonmoving: nonmoving_rows(&profile.runtime.nonmoving, runtime_window),
        capabilities_unjudged: !profile.runtime.activity.is_empty() && capabilities.is_none(),
        capabilities,
        biography: super::biography::of(profile),
        restricted_to: super::biography::restriction(profile),
        members: super::members::of(profile),
        ticky: profile.ticky.as_ref().map(|t| t.counters.clone()),
        ticky_totals: (profile.ticky.as_ref())
            .filter(|t| !t.totals.is_empty())
            .map(|t| t.totals.clone()),
    }
}

impl Summary {
    /// A value as people read it: `12.3 MB` for bytes (`12.3 MiB` in binary units).
    pub fn value_text(&self, v: f64, units: ByteUnits) -> String {
        value_text(self.units.value, v, units)
    }

    /// A sample time as people read it: `2.50 s` when the unit is seconds.
    pub fn time_text(&self, t: f64) -> String {
        time_text(self.units.time, &self.sample_unit, t)
    }

    /// What a rate is per: `/s` when times are seconds.
    pub fn per_time(&self) -> &'static str {
        match self.units.time {
            TimeUnit::Seconds => "/s",
            TimeUnit::Other => "",
        }
    }
}

/// A value that counts `value` as people read it: `12.3 MB` for bytes.
pub fn value_text(value: crate::units::ValueUnit, v: f64, units: ByteUnits) -> String {
    human(v, Scale::new(value, units))
}

/// A time in `time` as people read it: `2.50 s` when the unit is seconds, else the
/// number as it is and the unit's word, `sample_unit` (`1500 ticks`).
pub fn time_text(time: TimeUnit, sample_unit: &str, t: f64) -> String {
    if time == TimeUnit::Seconds {
        seconds(t)
    } else if sample_unit.is_empty() {
        format!("{t}")
    } else {
        format!("{t} {sample_unit}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::hp::parse;

    fn summary(body: &str) -> Summary {
        let p = parse(
            format!("JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n{body}")
                .as_bytes(),
        )
        .unwrap()
        .profile;
        summarise(&Table::all(&p), None, (None, None))
    }

    /// Censuses at 0, 1, 2… s, each with its bands' values.
    fn censuses(n: usize, bands: impl Fn(usize) -> Vec<(&'static str, u64)>) -> String {
        (0..n)
            .map(|i| {
                let lines: String = bands(i)
                    .iter()
                    .map(|(b, v)| format!("{b}\t{v}\n"))
                    .collect();
                format!("BEGIN_SAMPLE {i}\n{lines}END_SAMPLE {i}\n")
            })
            .collect()
    }

    #[test]
    fn peaks_means_shares_and_trends() {
        let body = |n| {
            censuses(n, |i| {
                vec![("leak", 10 * (i as u64 + 1)), ("flat", [50, 60][i % 2])]
            })
        };
        let s = summary(&body(16));
        // By share: the leak holds more of the area.
        let [leak, flat] = &s.bands[..] else { panic!() };
        assert_eq!((flat.name.as_str(), leak.name.as_str()), ("flat", "leak"));
        assert_eq!((leak.peak, leak.peak_time, leak.mean), (160.0, 15.0, 85.0));
        // flat reaches 60 first at 1 s.
        assert_eq!((flat.peak, flat.peak_time, flat.mean), (60.0, 1.0, 55.0));
        assert_eq!(leak.trend, Trend::Growing);
        assert_eq!(flat.trend, Trend::Flat);
        // Areas: leak 15 + 25 + … + 155 = 1275, flat 15 × 55 = 825.
        assert!((leak.share - 1275.0 / 2100.0).abs() < 1e-12);
        // Totals 60 80 80 100 … 220: the peak at 15 s.
        assert_eq!((s.total.peak, s.total.peak_time), (220.0, 15.0));
        // One census fewer is too few to tell where any band heads.
        let short = summary(&body(15));
        assert_eq!(short.bands[0].trend, Trend::Unjudged);
        assert_eq!(short.total.trend, Trend::Unjudged);
    }

    #[test]
    fn a_few_bytes_that_double_are_no_leak_and_the_fit_is_told() {
        let s = summary(&censuses(16, |i| {
            let i = i as u64;
            vec![("big", 1_000_000 * (i + 1)), ("tiny", 16 + 8 * i)]
        }));
        let by = |n: &str| s.bands.iter().find(|b| b.name == n).unwrap();
        assert_eq!(by("big").trend, Trend::Growing);
        // It grows eightfold over the window, but 136 bytes are not 1% of the heap.
        assert_eq!(by("tiny").trend, Trend::Flat);
        assert_eq!(by("big").growth_per_second, 1_000_000.0);
        assert!((by("big").growth_r2 - 1.0).abs() < 1e-12, "a straight line");
        // A saw-tooth's line explains little of it, and is no trend.
        let noisy = summary(&censuses(16, |i| vec![("b", [100, 300][i % 2])]));
        assert!(
            noisy.bands[0].growth_r2 < noisy.trend_r2,
            "{} of {}",
            noisy.bands[0].growth_r2,
            noisy.trend_r2
        );
        assert_eq!(noisy.bands[0].trend, Trend::Flat);
    }

    #[test]
    fn the_exit_census_does_not_hide_a_leak() {
        let mut body = censuses(16, |i| vec![("leak", 10 * (i as u64 + 1))]);
        body += "BEGIN_SAMPLE 15.1\nEND_SAMPLE 15.1\n";
        let s = summary(&body);
        assert_eq!(s.bands[0].trend, Trend::Growing);
    }

    #[test]
    fn absent_values_count_as_zero() {
        let s = summary(
            "BEGIN_SAMPLE 0\na\t10\nEND_SAMPLE 0\n\
             BEGIN_SAMPLE 1\nb\t4\nb\t4\nEND_SAMPLE 1\n",
        );
        let b = s.bands.iter().find(|b| b.name == "b").unwrap();
        assert_eq!((b.peak, b.mean), (8.0, 4.0));
    }
}
