//! Measuring a condition's figure on a run (or two) and judging it against its bound.
//! Each figure is the one `--summary`, `--stats` or the biographical summary gives, over
//! the same window, so that a verdict can be read back in their output.

use serde::Serialize;

use super::{Bound, Change, Check, Figure, Kind, Subject, Target};
use crate::analysis::biography;
use crate::analysis::stats::{Stats, stats};
use crate::analysis::summary::{Headline, Trend};
use crate::analysis::table::Table;
use crate::analysis::window::Window;
use crate::profile::{Costs, Profile};
use crate::units::{ByteUnits, Scale, ValueUnit, human};

/// A run a condition is judged on.
#[derive(Clone, Copy)]
pub struct Run<'a> {
    /// The input, as messages name it.
    pub name: &'a str,
    /// The profile, already cut to `--from`/`--to` and the bands kept.
    pub of: &'a dyn Judged,
    /// `--from`/`--to`: the window the runtime's figures are taken over.
    pub window: (Option<f64>, Option<f64>),
}

impl<'a> Run<'a> {
    /// `of`, named `name`, judged over `window`.
    pub fn new(name: &'a str, of: &'a dyn Judged, window: (Option<f64>, Option<f64>)) -> Self {
        Run { name, of, window }
    }

    /// Its censuses.
    pub fn profile(&self) -> &'a Profile {
        self.of.censuses()
    }
}

/// A profile's figures as its model has them: a heap profile's bands over its censuses;
/// a cost-centre profile's share spent in a band, and its report's totals.
pub trait Judged {
    /// Its censuses.
    fn censuses(&self) -> &Profile;

    /// The figure `check` reads on `run` (which holds this); `None` when a band pattern
    /// matches nothing and `lenient` says that is a zero (the other run of a comparison
    /// may have it).
    fn figure(&self, check: &Check, run: Run, lenient: bool) -> Result<Option<Measured>, Unjudged>;
}

impl Judged for Profile {
    fn censuses(&self) -> &Profile {
        self
    }

    fn figure(&self, check: &Check, run: Run, lenient: bool) -> Result<Option<Measured>, Unjudged> {
        if check.in_bytes && check.subject.counts_values() && self.units.value != ValueUnit::Bytes {
            return Err(Unjudged(format!(
                "{}: its values are `{}`, not bytes: write `{}`'s bound as a plain number",
                run.name,
                crate::escape::terminal(&String::from_utf8_lossy(&self.value_unit)),
                check.text
            )));
        }
        measure(check, run, lenient)
    }
}

impl Judged for Costs {
    fn censuses(&self) -> &Profile {
        &self.series
    }

    fn figure(&self, check: &Check, run: Run, lenient: bool) -> Result<Option<Measured>, Unjudged> {
        match &check.subject {
            Subject::Run(f) => self.run_figure(*f, run).map(Some),
            Subject::Band {
                pattern,
                figure: super::BandFigure::Share,
                ..
            } => match spent(self.series(), pattern) {
                Some(share) => Ok(Some(plain(share))),
                None if lenient => Ok(None),
                None => Err(no_band(check, &[run])),
            },
            _ => Err(not_heap(run, &check.subject.name())),
        }
    }
}

impl Costs {
    /// A figure of the whole run: a report's own totals (its header's), or the runtime's
    /// where the samples came with an eventlog's.
    fn run_figure(&self, f: Figure, run: Run) -> Result<Measured, Unjudged> {
        if let Some(report) = self
            .tree
            .as_deref()
            .filter(|_| self.series().runtime.is_empty())
        {
            return match f {
                Figure::TotalTime => Ok(plain(report.seconds)),
                Figure::Ticks => Ok(plain(report.total_ticks as f64)),
                Figure::Allocated => Ok(plain(report.total_bytes as f64)),
                _ => Err(Unjudged(format!(
                    "{}: {} is not a time and allocation report's figure: a .prof has \
                     total_time, ticks, allocated and band(RE) share",
                    run.name,
                    f.name()
                ))),
            };
        }
        match f {
            Figure::Peak | Figure::Mean | Figure::PeakTime | Figure::Samples => {
                Err(not_heap(run, f.name()))
            }
            _ => run_figure(f, run),
        }
    }
}

/// A figure with nothing beside its value.
fn plain(value: f64) -> Measured {
    Measured {
        value,
        trend: None,
        at: None,
    }
}

/// Why a cost-centre profile has no `what`.
fn not_heap(run: Run, what: &str) -> Unjudged {
    Unjudged(format!(
        "{}: {what} is a heap profile's figure, and this is a cost-centre profile \
         (.prof or eventlog samples): its figures are total_time, ticks, allocated \
         and band(RE) share",
        run.name
    ))
}

/// Why a condition cannot be judged on a run: a usage error, said before anything is
/// written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unjudged(pub String);

impl std::fmt::Display for Unjudged {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A condition's verdict.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Outcome {
    /// The condition as written.
    pub condition: String,
    /// What it measured: `peak`, `band('Data\.Map') mean`, `trend(total)`.
    pub figure: String,
    /// The figure's unit: `bytes` (or the profile's own), `seconds`, `share` (0 to 1),
    /// `count`, `bytes/s` or `trend`.
    pub unit: String,
    /// Its value (in the run judged, or the second run), `None` for a trend.
    pub value: Option<f64>,
    /// A trend's verdict.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trend: Option<Trend>,
    /// With `--compare`: its value in the first run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub before: Option<f64>,
    /// When it was reached, for a peak.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<f64>,
    /// Whether the condition holds.
    pub passed: bool,
    /// One line for people: `peak 231 MB at 4.20 s > 200MB`.
    pub message: String,
}

impl Outcome {
    /// `check` not judged, for `why`: neither held nor failed (its report marks it an
    /// error).
    pub fn unjudged(check: &Check, why: &str) -> Outcome {
        Outcome {
            condition: check.text.clone(),
            figure: String::new(),
            unit: String::new(),
            value: None,
            trend: None,
            before: None,
            at: None,
            passed: false,
            message: format!("cannot be judged: {why}"),
        }
    }
}

/// A figure measured on one run.
#[derive(Debug, Clone, Copy)]
pub struct Measured {
    value: f64,
    trend: Option<(Trend, f64)>,
    at: Option<f64>,
}

/// Judges `check` on `run`: a level bound against the figure (a change bound needs two
/// runs, [`judge_change`]).
pub fn judge(check: &Check, run: Run) -> Result<Outcome, Unjudged> {
    if check.is_change() {
        return Err(Unjudged(format!(
            "`{}` bounds a change ({}): compare two runs with --compare BEFORE AFTER",
            check.text, check.written
        )));
    }
    let m = run.of.figure(check, run, false)?.expect("a band matched");
    Ok(outcome(check, run, m, None))
}

/// Judges `check` on two runs: a change bound against the change from `before` to
/// `after`, a level bound against `after`.
pub fn judge_change(check: &Check, before: Run, after: Run) -> Result<Outcome, Unjudged> {
    let b = before.of.figure(check, before, true)?;
    let a = after.of.figure(check, after, true)?;
    // A band a run has not is nothing there, and heads nowhere.
    let zero = Measured {
        value: 0.0,
        trend: (check.subject.kind() == Kind::Trend).then_some((Trend::Flat, 0.0)),
        at: None,
    };
    let (b, a) = match (b, a) {
        (None, None) => return Err(no_band(check, &[before, after])),
        (b, a) => (b.unwrap_or(zero), a.unwrap_or(zero)),
    };
    if !check.is_change() {
        return Ok(outcome(check, after, a, None));
    }
    Ok(outcome(check, after, a, Some(b)))
}

fn outcome(check: &Check, run: Run, m: Measured, before: Option<Measured>) -> Outcome {
    let kind = check.subject.kind();
    let values = check.subject.counts_values();
    let show = |v: f64| shown(kind, run.profile(), values, v);
    let at = m.at.map(|t| format!(" at {}", crate::units::seconds(t)));
    let (passed, said) = match (check.bound, before) {
        (Bound::Trend(want), _) => {
            let (got, growth) = m.trend.expect("a trend");
            let passed = (got == want) == (check.op == super::Op::Eq);
            let rate = format!("{}/s", human(growth, scale(run.profile(), true)));
            (
                passed,
                format!("{} ({rate} over the trend's part of the run)", got.word()),
            )
        }
        (Bound::Level(bound), _) => (
            check.op.holds(m.value, bound),
            format!("{}{}", show(m.value), at.unwrap_or_default()),
        ),
        (Bound::Change(change), Some(b)) => {
            let (by, bound, text) = match change {
                Change::Relative(r) => {
                    let rel = relative(b.value, m.value);
                    (rel, r, percent_change(rel))
                }
                Change::Absolute(x) => {
                    let d = m.value - b.value;
                    let size = match kind {
                        Kind::Share => format!("{:.1}pp", d.abs() * 100.0),
                        _ => show(d.abs()),
                    };
                    (d, x, signed(&size, d))
                }
            };
            let passed = check.op.holds(by, bound);
            let said = format!("{text} ({} → {})", show(b.value), show(m.value));
            (passed, said)
        }
        (Bound::Change(_), None) => unreachable!("a change is judged on two runs"),
    };
    let relation = if passed {
        check.op.text()
    } else {
        check.op.negated()
    };
    Outcome {
        condition: check.text.clone(),
        figure: check.subject.name(),
        unit: unit_name(kind, run.profile(), values),
        value: m.trend.is_none().then_some(m.value),
        trend: m.trend.map(|t| t.0),
        before: before.map(|b| b.value),
        at: m.at,
        passed,
        message: format!(
            "{} {said} {relation} {}",
            check.subject.name(),
            check.written
        ),
    }
}

/// After over before, less 1; from 0, no change or an infinite one.
fn relative(before: f64, after: f64) -> f64 {
    if before == 0.0 {
        if after == 0.0 {
            0.0
        } else {
            f64::INFINITY * after.signum()
        }
    } else {
        after / before - 1.0
    }
}

fn percent_change(r: f64) -> String {
    if r.is_infinite() {
        "from 0".into()
    } else {
        format!("{:+.1}%", r * 100.0)
    }
}

fn signed(text: &str, d: f64) -> String {
    format!("{}{text}", if d < 0.0 { "-" } else { "+" })
}

/// The scale of a figure's amounts: the profile's values for its bands' figures
/// (`values`), bytes for the runtime's.
fn scale(p: &Profile, values: bool) -> Scale {
    match values {
        true => Scale::new(p.units.value, ByteUnits::Decimal),
        false => Scale::Bytes(ByteUnits::Decimal),
    }
}

/// A value of `kind` as people read it.
fn shown(kind: Kind, p: &Profile, values: bool, v: f64) -> String {
    match kind {
        Kind::Value => human(v, scale(p, values)),
        Kind::Time => duration(v),
        Kind::Share => format!("{:.2}%", v * 100.0),
        Kind::Count => format!("{v}"),
        Kind::Rate => format!("{}/s", human(v, Scale::Bytes(ByteUnits::Decimal))),
        Kind::Trend => String::new(),
    }
}

/// A duration in the unit that suits it: `2.50 s`, `9.48 ms`, `120 µs`.
fn duration(t: f64) -> String {
    let a = t.abs();
    if a >= 1.0 || a == 0.0 {
        crate::units::seconds(t)
    } else if a >= 1e-3 {
        format!("{:.3} ms", t * 1e3)
    } else {
        format!("{:.1} µs", t * 1e6)
    }
}

fn unit_name(kind: Kind, p: &Profile, values: bool) -> String {
    match kind {
        Kind::Value if values && p.units.value != ValueUnit::Bytes => {
            String::from_utf8_lossy(&p.value_unit).into_owned()
        }
        Kind::Value => "bytes".into(),
        Kind::Time => "seconds".into(),
        Kind::Share => "share".into(),
        Kind::Count => "count".into(),
        Kind::Rate => "bytes/s".into(),
        Kind::Trend => "trend".into(),
    }
}

/// A heap profile's figure on one run ([`Judged::figure`]).
fn measure(check: &Check, run: Run, lenient: bool) -> Result<Option<Measured>, Unjudged> {
    let figure_of = |values: &[f64]| {
        let p = run.profile();
        let totals = p.totals();
        Window::new(&p.times, &totals).figures(values)
    };
    // A trend over too few censuses is no verdict either way.
    let trend_of = |f: &crate::analysis::window::Figures| match f.trend {
        Trend::Unjudged => Err(Unjudged(format!(
            "`{}`: the run has too few censuses for a trend ({} before its exit and \
             teardown, {} needed); give the program more time, or censuses more often \
             (+RTS -i)",
            check.text,
            {
                let p = run.profile();
                Window::new(&p.times, &p.totals()).body()
            },
            crate::analysis::window::MIN_TREND_CENSUSES
        ))),
        t => Ok(Some((t, f.growth))),
    };
    Ok(Some(match &check.subject {
        Subject::Run(f) => return run_figure(*f, run).map(Some),
        Subject::Band {
            pattern, figure, ..
        } => {
            heap(run, &check.subject.name())?;
            let Some(values) = matching(run.profile(), pattern) else {
                return if lenient {
                    Ok(None)
                } else {
                    Err(no_band(check, &[run]))
                };
            };
            let f = figure_of(&values);
            use super::BandFigure as B;
            match figure {
                B::Peak => Measured {
                    value: f.peak,
                    trend: None,
                    at: Some(f.peak_time),
                },
                B::Mean => plain(f.mean),
                B::PeakTime => plain(f.peak_time),
                B::Share => plain(f.share),
                B::Growth => plain(f.growth),
                B::Trend => Measured {
                    value: f.growth,
                    trend: trend_of(&f)?,
                    at: None,
                },
            }
        }
        Subject::Trend(target) => {
            heap(run, &check.subject.name())?;
            let values = match target {
                Target::Total => run.profile().totals(),
                Target::Band(pattern, _) => match matching(run.profile(), pattern) {
                    Some(v) => v,
                    None if lenient => return Ok(None),
                    None => return Err(no_band(check, &[run])),
                },
            };
            let f = figure_of(&values);
            Measured {
                value: f.growth,
                trend: trend_of(&f)?,
                at: None,
            }
        }
    }))
}

/// The sum of the bands whose names `pattern` matches, at every census; `None` when it
/// matches none.
fn matching(p: &Profile, pattern: &regex::bytes::Regex) -> Option<Vec<f64>> {
    Table::all(p).summed(|name| pattern.is_match(name))
}

/// The share of a cost-centre profile's measure (time, or `--measure`'s) spent in the
/// stacks a frame of which `pattern` matches, over every census; `None` when it matches
/// no stack.
fn spent(p: &Profile, pattern: &regex::bytes::Regex) -> Option<f64> {
    let table = Table::all(p);
    let all: f64 = table.totals().iter().sum();
    let matched: f64 = table.summed(|name| pattern.is_match(name))?.iter().sum();
    Some(if all > 0.0 { matched / all } else { 0.0 })
}

/// How many band names a message lists.
const NAMES_SHOWN: usize = 8;

fn no_band(check: &Check, runs: &[Run]) -> Unjudged {
    let run = runs[runs.len() - 1];
    let names = run.profile().bands.names();
    let mut listed: Vec<String> = (names.iter().take(NAMES_SHOWN))
        .map(|n| crate::escape::message_name(n))
        .collect();
    if names.len() > NAMES_SHOWN {
        listed.push(format!("and {} more", names.len() - NAMES_SHOWN));
    }
    let which: Vec<&str> = runs.iter().map(|r| r.name).collect();
    Unjudged(format!(
        "`{}`: no band of {} matches; its bands: {}",
        check.text,
        which.join(" or "),
        listed.join(", ")
    ))
}

/// That `run` has a heap census, which `what` measures.
fn heap(run: Run, what: &str) -> Result<(), Unjudged> {
    if run.profile().times.is_empty() || run.profile().bands.names().is_empty() {
        return Err(Unjudged(format!(
            "{}: {what} is a heap profile's figure, and this input has no heap census \
             (run the program with +RTS -hT, -hc … to make one)",
            run.name
        )));
    }
    Ok(())
}

fn run_figure(f: Figure, run: Run) -> Result<Measured, Unjudged> {
    let p = run.profile();
    Ok(match f {
        Figure::TotalTime | Figure::Ticks => {
            return Err(Unjudged(format!(
                "{}: {} is a time and allocation report's figure (+RTS -p or -pj)",
                run.name,
                f.name()
            )));
        }
        Figure::Peak | Figure::Mean | Figure::PeakTime | Figure::Samples => {
            heap(run, f.name())?;
            let totals = p.totals();
            let t = Window::new(&p.times, &totals).figures(&totals);
            match f {
                Figure::Peak => Measured {
                    value: t.peak,
                    trend: None,
                    at: Some(t.peak_time),
                },
                Figure::Mean => plain(t.mean),
                Figure::PeakTime => plain(t.peak_time),
                _ => plain(p.times.len() as f64),
            }
        }
        Figure::Waste | Figure::WasteAtPeak | Figure::Lag => {
            let b = biographical(run, f)?;
            match f {
                Figure::Waste => plain(b.waste),
                Figure::WasteAtPeak => Measured {
                    value: b.waste_at_peak,
                    trend: None,
                    at: Some(b.peak_time),
                },
                _ => plain(b.lag),
            }
        }
        _ => plain(runtime_figure(f, &runtime(run, f)?).ok_or_else(|| {
            Unjudged(format!(
                "{}: {} is not in this eventlog (its allocation counters or major \
                 collections are missing)",
                run.name,
                f.name()
            ))
        })?),
    })
}

fn biographical(run: Run, f: Figure) -> Result<biography::Biography, Unjudged> {
    biography::of(run.profile()).ok_or_else(|| {
        let why = match biography::restriction(run.profile()) {
            Some(l) if biography::restricted_to_waste(&l) => format!(
                "it is restricted to {l} (-hb{l}): every byte it holds is waste, and its \
                 bands are who holds it"
            ),
            // JOB's text: shown as text on a terminal, never obeyed.
            Some(l) => format!(
                "it is restricted to {} and broken down otherwise",
                crate::escape::terminal(&l)
            ),
            None => "its bands are not LAG, USE, DRAG and VOID".into(),
        };
        Unjudged(format!(
            "{}: {} is a biographical profile's figure (+RTS -hb); {why}",
            run.name,
            f.name()
        ))
    })
}

fn runtime(run: Run, f: Figure) -> Result<Stats, Unjudged> {
    if run.profile().runtime.is_empty() {
        return Err(Unjudged(format!(
            "{}: {} comes from an eventlog's GC events (+RTS -l), which this input has not",
            run.name,
            f.name()
        )));
    }
    crate::analysis::stats::window_within(&run.profile().runtime, run.window.0)
        .map_err(|e| Unjudged(format!("{}: {e}", run.name)))?;
    Ok(stats(&run.profile().runtime, run.window.0, run.window.1))
}

/// A runtime figure, by its name in `--stats=json` (or the summary's headline).
fn runtime_figure(f: Figure, s: &Stats) -> Option<f64> {
    let h = Headline::of(s);
    Some(match f {
        Figure::GcShare => h.gc_share,
        Figure::MaxPause => h.max_pause,
        Figure::Collections => h.collections as f64,
        Figure::Allocated => s.allocated? as f64,
        Figure::MaxResidency => s.max_residency? as f64,
        Figure::Copied => s.copied as f64,
        Figure::MaxSlop => s.max_slop? as f64,
        Figure::MaxHeapSize => s.max_heap_size? as f64,
        Figure::GcElapsed => s.gc_elapsed,
        Figure::TotalElapsed => s.total_elapsed,
        Figure::MutElapsed => s.mut_elapsed,
        Figure::AllocRate => s.alloc_rate?,
        Figure::Productivity => s.productivity,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn profile(body: &str) -> Profile {
        crate::input::hp::parse(
            format!("JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n{body}")
                .as_bytes(),
        )
        .unwrap()
        .profile
    }

    #[test]
    fn a_band_one_run_has_not_is_nothing_there() {
        let climb = |band: &str| {
            (0..16)
                .map(|t| {
                    format!(
                        "BEGIN_SAMPLE {t}\n{band}\t{}\nEND_SAMPLE {t}\n",
                        10 * (t + 1)
                    )
                })
                .collect::<String>()
        };
        let (before, after) = (profile(&climb("a")), profile(&climb("b")));
        let run = |p| Run::new("x", p, (None, None));
        let judged =
            |c: &str| judge_change(&super::super::parse(c).unwrap(), run(&before), run(&after));
        let o = judged("trend(band(b)) == flat").unwrap();
        assert_eq!(o.trend, Some(Trend::Growing));
        let o = judged("trend(band(a)) == flat").unwrap();
        assert!(o.passed, "gone, it is flat: {}", o.message);
        let o = judged("band(b) peak <= +15B").unwrap();
        assert!(!o.passed, "new, from 0 to 160: {}", o.message);
        assert!(judged("band(c) peak <= 1MB").is_err());
    }

    /// Fifteen censuses are too few for a trend: no verdict, whichever is asked.
    #[test]
    fn a_trend_of_too_few_censuses_cannot_be_judged() {
        let p = profile(
            &(0..15)
                .map(|t| format!("BEGIN_SAMPLE {t}\na\t{}\nEND_SAMPLE {t}\n", 10 * (t + 1)))
                .collect::<String>(),
        );
        for c in [
            "trend(total) == growing",
            "trend(band(a)) != growing",
            "band(a) trend == flat",
        ] {
            let e = judge(
                &super::super::parse(c).unwrap(),
                Run::new("x", &p, (None, None)),
            )
            .expect_err(c);
            assert!(e.0.contains("too few censuses for a trend"), "{c}: {}", e.0);
        }
        // Their peak is judged still.
        let o = judge(
            &super::super::parse("peak <= 1MB").unwrap(),
            Run::new("x", &p, (None, None)),
        );
        assert!(o.unwrap().passed);
    }

    #[test]
    fn a_jobs_text_in_a_message_drives_no_terminal() {
        let p = crate::input::hp::parse(
            b"JOB \"p +RTS -hc -hblag\x1b]0;owned\x07\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\n\
              VALUE_UNIT \"bytes\"\nBEGIN_SAMPLE 0\nmain\t1\nEND_SAMPLE 0\n",
        )
        .unwrap()
        .profile;
        let run = Run::new("x", &p, (None, None));
        let e = judge(&super::super::parse("waste <= 10%").unwrap(), run).unwrap_err();
        assert!(e.0.contains("restricted to lag"), "{e}");
        assert!(!e.0.chars().any(crate::escape::acts_on_terminal), "{e:?}");
    }
}
