//! speedscope (`-o heap.speedscope.json`): the file format speedscope documents
//! (`file-format-schema.json`), unit `bytes`. Each profile is a "sampled" profile whose
//! samples are the stacks (frame indices, outermost first) and whose weights are their
//! bytes. With `--flame=WHEN`, one profile: that census, or the mean. Without it, one
//! profile per census, thinned to at most [`MAX_PROFILES`] evenly over the run with the
//! peak census always kept, each named by its time, so that speedscope's profile
//! switcher steps through the run. An info table's source file and line (IPE), or a
//! cost centre's source span's file and first line, are its frame's.

use std::io::{self, Write};

use serde::Serialize;

use super::stacks::{FrameIndex, weighed};
use crate::profile::costs::Measure;
use crate::profile::{Costs, Profile};
use crate::select::flame::{Stack, Stacked, WhichCensus, stack_of, stacks, weights_at};

/// At most this many censuses become profiles.
pub const MAX_PROFILES: usize = 300;
/// At most about this many stacks in all the profiles: fewer censuses are kept when each
/// holds many stacks, so the file follows the census's size, not the run's.
pub const MAX_SAMPLES: usize = 2_000_000;

#[derive(Serialize)]
struct File<'a> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    shared: Shared,
    profiles: Vec<Sampled>,
    name: String,
    #[serde(rename = "activeProfileIndex")]
    active: usize,
    exporter: &'a str,
}

#[derive(Serialize)]
struct Shared {
    frames: Vec<Frame>,
}

#[derive(Serialize)]
struct Frame {
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<u32>,
}

#[derive(Serialize)]
struct Sampled {
    #[serde(rename = "type")]
    kind: &'static str,
    name: String,
    unit: &'static str,
    #[serde(rename = "startValue")]
    start: u64,
    #[serde(rename = "endValue")]
    end: u64,
    samples: Vec<Vec<usize>>,
    weights: Vec<u64>,
}

/// The shared frames: each frame name (and place) once.
#[derive(Default)]
struct Frames {
    list: Vec<Frame>,
    index: FrameIndex,
}

impl Frames {
    fn profile<S: Stacked + ?Sized>(
        &mut self,
        s: &S,
        name: String,
        stacks: &[Stack<'_>],
    ) -> Sampled {
        // What a weight counts: a heap's bytes, or a cost profile's measure (speedscope
        // has no unit for ticks or entries: plain numbers).
        let unit = match s.measure() {
            None | Some(Measure::Alloc) => "bytes",
            Some(Measure::Time | Measure::Entries) => "none",
        };
        let (mut samples, mut weights) = (Vec::new(), Vec::new());
        for (stack, bytes, place) in weighed(s.series(), stacks) {
            let mut ids = Vec::with_capacity(stack.frames.len());
            for &f in &stack.frames {
                let place = super::stacks::frame_place(s, f, &place);
                let (id, new) = self.index.id(f, &place);
                if new {
                    self.list.push(Frame {
                        name: String::from_utf8_lossy(f).into_owned(),
                        file: place.as_ref().map(|p| p.0.clone()),
                        line: place.as_ref().map(|p| p.1),
                    });
                }
                ids.push(id);
            }
            samples.push(ids);
            weights.push(bytes);
        }
        Sampled {
            kind: "sampled",
            name,
            unit,
            start: 0,
            end: weights.iter().fold(0u64, |s, &w| s.saturating_add(w)),
            samples,
            weights,
        }
    }
}

/// The censuses stepped through without `--flame`: evenly over the run, the peak
/// census among them, at most [`MAX_PROFILES`] and about [`MAX_SAMPLES`] stacks.
pub fn censuses(p: &Profile) -> Vec<usize> {
    censuses_within(p, MAX_PROFILES, MAX_SAMPLES)
}

/// [`censuses`] with the bounds given: at most `profiles`, and about `samples` stacks.
fn censuses_within(p: &Profile, profiles: usize, samples: usize) -> Vec<usize> {
    let n = p.samples();
    let bands = p.bands.names().len().max(1);
    let k = (samples / bands).clamp(1, profiles).min(n);
    let peak = crate::select::flame::census(p, WhichCensus::Peak);
    let mut picked: Vec<usize> = if k == 1 {
        vec![peak]
    } else {
        (0..k).map(|i| i * (n - 1) / (k - 1)).collect()
    };
    if !picked.contains(&peak) {
        // The nearest evenly spaced census gives way to the peak.
        let near = (0..picked.len())
            .min_by_key(|&i| picked[i].abs_diff(peak))
            .expect("at least one");
        picked[near] = peak;
        picked.sort_unstable();
    }
    picked.dedup();
    picked
}

/// A cost profile's stacks census by census in time order (an eventlog's samples as
/// they were taken; a report's one census), so that speedscope's time-order view is
/// the run's; `None` past [`MAX_SAMPLES`] stacks, where a census (or their sum) is
/// written instead.
fn in_time_order(p: &Costs) -> Option<Vec<Stack<'_>>> {
    let mut points = Vec::new();
    for (band, series) in p.series().bands.series().iter().enumerate() {
        series.for_each(|census, v| {
            if v != 0.0 {
                points.push((census, band, v));
            }
        });
        if points.len() > MAX_SAMPLES {
            return None;
        }
    }
    points.sort_unstable_by_key(|&(census, band, _)| (census, band));
    Some(
        points
            .into_iter()
            .map(|(_, band, v)| stack_of(p, band, v))
            .collect(),
    )
}

/// Writes the file of a heap profile: `when`'s census, or censuses through the run.
pub fn write(p: &Profile, when: Option<WhichCensus>, out: &mut dyn Write) -> io::Result<()> {
    write_with(p, when, None, out)
}

/// Writes the file of a cost profile: its stacks in time order where they are few
/// enough, else as [`write()`] does.
pub fn write_costs(c: &Costs, when: Option<WhichCensus>, out: &mut dyn Write) -> io::Result<()> {
    write_with(c, when, in_time_order(c), out)
}

fn write_with<S: Stacked + ?Sized>(
    s: &S,
    when: Option<WhichCensus>,
    ordered: Option<Vec<Stack<'_>>>,
    out: &mut dyn Write,
) -> io::Result<()> {
    let p = s.series();
    let unit = String::from_utf8_lossy(&p.sample_unit).into_owned();
    let mut frames = Frames::default();
    let mut profiles = Vec::new();
    let mut active = 0;
    match when {
        _ if let Some(stacks) = ordered => {
            let (from, to) = (p.times[0], p.times[p.samples() - 1]);
            let name = format!("the samples in time order, {from:.3} to {to:.3} {unit}");
            profiles.push(frames.profile(s, name, &stacks));
        }
        Some(when) => {
            let (census, stacks) = stacks(s, when);
            let name = match when {
                WhichCensus::Mean => format!("mean, {:.3} to {:.3} {unit}", census.from, census.to),
                WhichCensus::Peak => format!("peak census, {:.3} {unit}", census.from),
                WhichCensus::End => format!("last census, {:.3} {unit}", census.from),
                WhichCensus::At(_) => format!("census at {:.3} {unit}", census.from),
            };
            profiles.push(frames.profile(s, name, &stacks));
        }
        None => {
            let picked = censuses(p);
            let peak = crate::select::flame::census(p, WhichCensus::Peak);
            let weights = weights_at(p, &picked);
            for (&k, w) in picked.iter().zip(&weights) {
                let stacks: Vec<Stack<'_>> = (w.iter().enumerate())
                    .filter(|(_, v)| **v != 0.0)
                    .map(|(b, &v)| stack_of(s, b, v))
                    .collect();
                let mut name = format!("{:.3} {unit}", p.times[k]);
                if k == peak {
                    name.push_str(" (peak)");
                    active = profiles.len();
                }
                profiles.push(frames.profile(s, name, &stacks));
            }
        }
    }
    let exporter = format!("hpgraph {}", env!("CARGO_PKG_VERSION"));
    let file = File {
        schema: "https://www.speedscope.app/file-format-schema.json",
        shared: Shared {
            frames: frames.list,
        },
        profiles,
        name: String::from_utf8_lossy(&p.job).into_owned(),
        active,
        exporter: &exporter,
    };
    let mut out = io::BufWriter::new(out);
    crate::escape::json_to(&mut out, &file, false)?;
    writeln!(out)?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::hp::parse;

    fn profile(samples: usize) -> Profile {
        let mut text =
            String::from("JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n");
        for s in 0..samples {
            let v = if s == samples / 3 { 1000 } else { s };
            text.push_str(&format!(
                "BEGIN_SAMPLE {s}\n(1)go/main\t{v}\n(2)f/main\t1\nEND_SAMPLE {s}\n"
            ));
        }
        parse(text.as_bytes()).unwrap().profile
    }

    #[test]
    fn every_census_up_to_the_bound_and_the_peak_always() {
        let p = profile(10);
        assert_eq!(censuses(&p), (0..10).collect::<Vec<_>>());
        let p = profile(MAX_PROFILES * 3 + 7);
        let picked = censuses(&p);
        assert_eq!(picked.len(), MAX_PROFILES);
        assert!(picked.contains(&((MAX_PROFILES * 3 + 7) / 3)));
        assert!(picked.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn many_stacks_a_census_keep_fewer_censuses() {
        // Two bands a census: a bound of 10 stacks keeps 5 censuses of 40, the peak among
        // them; a bound under one census's stacks keeps the peak alone.
        let p = profile(40);
        let picked = censuses_within(&p, MAX_PROFILES, 10);
        assert_eq!(picked.len(), 5);
        assert!(picked.contains(&(40 / 3)));
        assert_eq!(censuses_within(&p, MAX_PROFILES, 1), vec![40 / 3]);
    }

    #[test]
    fn frames_are_shared_and_outermost_first() {
        let p = profile(2);
        let mut out = Vec::new();
        write(&p, Some(WhichCensus::Peak), &mut out).unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        let frames: Vec<&str> = (v["shared"]["frames"].as_array().unwrap().iter())
            .map(|f| f["name"].as_str().unwrap())
            .collect();
        assert_eq!(frames, ["main", "go", "f"]);
        assert_eq!(
            v["profiles"][0]["samples"],
            serde_json::json!([[0, 1], [0, 2]])
        );
        assert_eq!(v["profiles"][0]["unit"], "bytes");
    }
}
