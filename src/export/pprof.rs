//! pprof (`-o heap.pb.gz`, `--format pprof`): the gzip'd `profile.proto` that `go tool
//! pprof`, its web UI, Grafana Pyroscope and (through `pprof -callgrind`) KCacheGrind
//! read. One sample per stack, its value the bytes the stack holds at `--flame`'s census
//! (the peak by default) or its mean, of sample type `inuse_space`/`bytes`; its
//! locations innermost first, one function per frame. An info table's source file and
//! line (IPE), or a cost centre's source span's file and first line, are its function's. The census and the program's command line are the
//! profile's comments.
//!
//! The messages are declared here with prost's derive, which writes the wire format:
//! field numbers as pprof's `proto/profile.proto` gives them.

use std::collections::HashMap;
use std::io::{self, Write};

use prost::Message;

use super::stacks::{FrameIndex, weighed};
use crate::select::flame::{Stacked, WhichCensus, stacks};

/// `perftools.profiles.Profile`, the fields hpgraph writes.
#[derive(Clone, PartialEq, Message)]
pub struct PprofProfile {
    /// What each sample's values measure.
    #[prost(message, repeated, tag = "1")]
    pub sample_type: Vec<ValueType>,
    /// The stacks and their bytes.
    #[prost(message, repeated, tag = "2")]
    pub sample: Vec<Sample>,
    /// One per frame.
    #[prost(message, repeated, tag = "4")]
    pub location: Vec<Location>,
    /// One per frame name.
    #[prost(message, repeated, tag = "5")]
    pub function: Vec<Function>,
    /// Every string, `""` first; the other fields point into it.
    #[prost(string, repeated, tag = "6")]
    pub string_table: Vec<String>,
    /// The stretch a mean is taken over, in nanoseconds (0 for one census).
    #[prost(int64, tag = "10")]
    pub duration_nanos: i64,
    /// Notes for people: the census, the program.
    #[prost(int64, repeated, tag = "13")]
    pub comment: Vec<i64>,
    /// The sample type shown first.
    #[prost(int64, tag = "14")]
    pub default_sample_type: i64,
}

/// `ValueType`: a type and its unit, as string indices.
#[derive(Clone, PartialEq, Message)]
pub struct ValueType {
    /// `inuse_space`.
    #[prost(int64, tag = "1")]
    pub r#type: i64,
    /// `bytes`.
    #[prost(int64, tag = "2")]
    pub unit: i64,
}

/// `Sample`: a stack (location ids, innermost first) and its value.
#[derive(Clone, PartialEq, Message)]
pub struct Sample {
    /// The frames, innermost first.
    #[prost(uint64, repeated, tag = "1")]
    pub location_id: Vec<u64>,
    /// Its bytes.
    #[prost(int64, repeated, tag = "2")]
    pub value: Vec<i64>,
}

/// `Location`: where a frame is; here one function.
#[derive(Clone, PartialEq, Message)]
pub struct Location {
    /// From 1.
    #[prost(uint64, tag = "1")]
    pub id: u64,
    /// The function (one: cost centres are not inlined).
    #[prost(message, repeated, tag = "4")]
    pub line: Vec<Line>,
}

/// `Line`: a function and a line in its file.
#[derive(Clone, PartialEq, Message)]
pub struct Line {
    /// The function's id.
    #[prost(uint64, tag = "1")]
    pub function_id: u64,
    /// The line, 0 when unknown.
    #[prost(int64, tag = "2")]
    pub line: i64,
}

/// `Function`: a frame's name and, with IPE, its source file and line.
#[derive(Clone, PartialEq, Message)]
pub struct Function {
    /// From 1.
    #[prost(uint64, tag = "1")]
    pub id: u64,
    /// The name shown.
    #[prost(int64, tag = "2")]
    pub name: i64,
    /// The same name (pprof shows it when asked for system names).
    #[prost(int64, tag = "3")]
    pub system_name: i64,
    /// The source file, `""` when unknown.
    #[prost(int64, tag = "4")]
    pub filename: i64,
    /// Its line.
    #[prost(int64, tag = "5")]
    pub start_line: i64,
}

/// A name as pprof's strings hold it: UTF-8, and its control characters shown as text,
/// since `go tool pprof` prints names to terminals.
fn text(name: &[u8]) -> String {
    crate::escape::terminal(&String::from_utf8_lossy(name)).into_owned()
}

/// The string table being built: each string once.
#[derive(Default)]
struct Strings {
    table: Vec<String>,
    index: HashMap<String, i64>,
}

impl Strings {
    fn new() -> Strings {
        let mut s = Strings::default();
        s.get("");
        s
    }

    fn get(&mut self, s: &str) -> i64 {
        if let Some(&k) = self.index.get(s) {
            return k;
        }
        let k = self.table.len() as i64;
        self.table.push(s.to_string());
        self.index.insert(s.to_string(), k);
        k
    }
}

/// The profile's stacks at `when` as pprof's message.
pub fn profile<S: Stacked + ?Sized>(s: &S, when: WhichCensus) -> PprofProfile {
    let (census, stacks) = stacks(s, when);
    let p = s.series();
    let mut strings = Strings::new();
    // A heap census is space in use; a time and allocation report's stacks are weighed
    // by what `--measure` chose.
    use crate::profile::costs::Measure;
    let (kind, unit) = match s.measure() {
        None => ("inuse_space", "bytes"),
        Some(Measure::Alloc) => ("alloc_space", "bytes"),
        Some(Measure::Time) => ("time", "ticks"),
        Some(Measure::Entries) => ("entries", "count"),
    };
    let sample_type = vec![ValueType {
        r#type: strings.get(kind),
        unit: strings.get(unit),
    }];
    // A location (and its function) per frame name and place.
    let mut frames = FrameIndex::default();
    let (mut location, mut function) = (Vec::new(), Vec::new());
    let mut sample = Vec::with_capacity(stacks.len());
    for (stack, bytes, place) in weighed(p, &stacks) {
        let mut ids = Vec::with_capacity(stack.frames.len());
        for &frame in stack.frames.iter().rev() {
            let place = super::stacks::frame_place(s, frame, &place);
            let (k, new) = frames.id(frame, &place);
            let id = k as u64 + 1;
            if new {
                let name = strings.get(&text(frame));
                let (file, line) = match &place {
                    Some((f, l)) => (strings.get(f), i64::from(*l)),
                    None => (0, 0),
                };
                function.push(Function {
                    id,
                    name,
                    system_name: name,
                    filename: file,
                    start_line: line,
                });
                location.push(Location {
                    id,
                    line: vec![Line {
                        function_id: id,
                        line,
                    }],
                });
            }
            ids.push(id);
        }
        sample.push(Sample {
            location_id: ids,
            value: vec![bytes.min(i64::MAX as u64) as i64],
        });
    }
    let unit = String::from_utf8_lossy(&p.sample_unit);
    let at = match census.when {
        _ if census.whole_run && census.from == census.to => {
            format!("hpgraph: the whole run, {:.3} {unit}", census.from)
        }
        _ if census.whole_run => format!(
            "hpgraph: the samples from {:.3} to {:.3} {unit}",
            census.from, census.to
        ),
        WhichCensus::Mean => format!(
            "hpgraph: each stack's mean from {:.3} to {:.3} {unit}",
            census.from, census.to
        ),
        WhichCensus::Peak => format!("hpgraph: the peak census, at {:.3} {unit}", census.from),
        WhichCensus::End => format!("hpgraph: the last census, at {:.3} {unit}", census.from),
        WhichCensus::At(_) => format!("hpgraph: the census at {:.3} {unit}", census.from),
    };
    let comment = vec![
        strings.get(&at),
        strings.get(&format!("program: {}", text(&p.job))),
    ];
    let seconds = p.units.time == crate::units::TimeUnit::Seconds;
    let duration_nanos = if seconds {
        ((census.to - census.from) * 1e9).round() as i64
    } else {
        0
    };
    PprofProfile {
        sample_type,
        sample,
        location,
        function,
        string_table: strings.table,
        duration_nanos,
        comment,
        default_sample_type: 0,
    }
}

/// Writes the gzip'd profile.
pub fn write<S: Stacked + ?Sized>(s: &S, when: WhichCensus, out: &mut dyn Write) -> io::Result<()> {
    let bytes = profile(s, when).encode_to_vec();
    let mut gz = flate2::write::GzEncoder::new(out, flate2::Compression::default());
    gz.write_all(&bytes)?;
    gz.finish()?.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::hp::parse;

    #[test]
    fn samples_are_innermost_first_and_read_back() {
        let p = parse(
            b"JOB \"prog +RTS -hc\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n\
              BEGIN_SAMPLE 0\n(1)go/main/Main.CAF\t30\n(2)f/main/Main.CAF\t4\nEND_SAMPLE 0\n",
        )
        .unwrap()
        .profile;
        let mut gz = Vec::new();
        write(&p, WhichCensus::Peak, &mut gz).unwrap();
        let mut raw = Vec::new();
        std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&gz[..]), &mut raw).unwrap();
        let back = PprofProfile::decode(&raw[..]).unwrap();
        let name = |loc: u64| {
            let f = &back.function[loc as usize - 1];
            back.string_table[f.name as usize].clone()
        };
        let first: Vec<String> = back.sample[0]
            .location_id
            .iter()
            .map(|&l| name(l))
            .collect();
        assert_eq!(first, ["go", "main", "Main.CAF"]);
        assert_eq!(back.sample[0].value, [30]);
        assert_eq!(back.sample[1].value, [4]);
        // Frames shared by both stacks are one location.
        assert_eq!(back.location.len(), 4);
        assert!(
            back.comment
                .iter()
                .any(|&c| back.string_table[c as usize].contains("prog +RTS"))
        );
    }
}
