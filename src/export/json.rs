//! `-o data.json`: the profile's numbers for scripts, in a documented, versioned layout
//! (docs/inspect.md), also served as `/profile.json` by the live view.
//!
//! Values are exact: a whole number is written as an integer (`1234`, never `1234.0`),
//! anything else as the shortest decimal that reads back as the same double. Names and
//! texts are strings; bytes that are not UTF-8 become U+FFFD.

use std::io::{self, Write};

use serde::Serialize;
use serde::ser::{SerializeMap, SerializeSeq};

use crate::analysis::Table;
use crate::units::{Number, numbers};

/// The layout's name and version, the first two keys of the document.
pub const FORMAT: &str = "hpgraph-profile";
/// The layout's version: raised when a key changes meaning or goes.
pub const VERSION: u32 = 1;

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A column's values, made dense only while it is written.
struct Values<'t, 'a>(&'t Table<'a>, usize);

impl Serialize for Values<'_, '_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        numbers(&self.0.column(self.1), s)
    }
}

struct Bands<'t, 'a>(&'t Table<'a>);

impl Serialize for Bands<'_, '_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.columns.len()))?;
        for (k, (name, _)) in self.0.columns.iter().enumerate() {
            #[derive(Serialize)]
            struct Band<'t, 'a> {
                name: String,
                values: Values<'t, 'a>,
            }
            seq.serialize_element(&Band {
                name: text(name),
                values: Values(self.0, k),
            })?;
        }
        seq.end()
    }
}

#[derive(Serialize)]
struct Mark {
    time: f64,
    text: Option<String>,
}

struct Line<'p>(&'p [(f64, f64)]);

impl Serialize for Line<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for &(t, v) in self.0 {
            seq.serialize_element(&(t, Number(v)))?;
        }
        seq.end()
    }
}

struct Document<'t, 'a>(&'t Table<'a>);

impl Serialize for Document<'_, '_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let p = self.0.profile;
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("format", FORMAT)?;
        map.serialize_entry("version", &VERSION)?;
        map.serialize_entry("job", &text(&p.job))?;
        map.serialize_entry("date", &text(&p.date))?;
        map.serialize_entry("sample_unit", &text(&p.sample_unit))?;
        map.serialize_entry("value_unit", &text(&p.value_unit))?;
        map.serialize_entry("times", &p.times)?;
        map.serialize_entry("bands", &Bands(self.0))?;
        let marks: Vec<Mark> = p
            .marks
            .iter()
            .map(|m| Mark {
                time: m.time,
                text: m.text.as_deref().map(text),
            })
            .collect();
        map.serialize_entry("marks", &marks)?;
        let heap = &p.heap;
        if !(heap.size.is_empty() && heap.live.is_empty() && heap.blocks.is_empty()) {
            struct Heap<'p>(&'p crate::profile::HeapSeries);
            impl Serialize for Heap<'_> {
                fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                    let mut map = s.serialize_map(Some(3))?;
                    map.serialize_entry("size", &Line(&self.0.size))?;
                    map.serialize_entry("live", &Line(&self.0.live))?;
                    map.serialize_entry("blocks", &Line(&self.0.blocks))?;
                    map.end()
                }
            }
            map.serialize_entry("heap", &Heap(heap))?;
        }
        map.end()
    }
}

/// Writes the table's profile as one JSON document with a final newline.
pub fn write(table: &Table, out: &mut dyn Write) -> io::Result<()> {
    let mut out = io::BufWriter::new(out);
    crate::escape::json_to(&mut out, &Document(table), false)?;
    out.write_all(b"\n")?;
    out.flush()
}
