//! A `-pj` report whose keys are not in GHC's order: what `jq -S` or a script's
//! `json.dumps(sort_keys=True)` writes of GHC's file. Its first key is not `"program"`,
//! and a node's `"children"` may come before its own `"id"`, so the streaming reader of
//! GHC's layout ([`super::json`]) cannot read it; it is JSON (a tool that rewrote it
//! parsed it, so GHC 9.0's unescaped quotes are not in it), read here with serde_json.
//! serde_json nests at most 128 levels, a tree of about 60 stacks deep: a deeper one is
//! an error that says to give GHC's own file.

use std::collections::HashMap;

use serde::Deserialize;
use serde_json::Value;

use super::Error;
use crate::profile::costs::{
    CostCentre, CostProfile, MAX_CENTRES, MAX_DEPTH, MAX_STACKS, Precision, Stack,
};

#[derive(Deserialize)]
struct Report {
    program: String,
    #[serde(default)]
    end_time: Value,
    total_time: Value,
    total_ticks: Value,
    tick_interval: Value,
    total_alloc: Value,
    cost_centres: Vec<Centre>,
    profile: Node,
}

#[derive(Deserialize)]
struct Centre {
    id: u64,
    label: String,
    module: String,
    src_loc: String,
}

#[derive(Deserialize)]
struct Node {
    id: u64,
    entries: Value,
    alloc: Value,
    ticks: Value,
    #[serde(default)]
    children: Vec<Node>,
}

/// A number, or a number written as a string (GHC writes some so), finite and 0 or
/// more: anything else is refused, as the streaming reader refuses it.
fn number(v: &Value, what: &str, text: &[u8]) -> Result<f64, Error> {
    let n = match v {
        Value::String(s) => s.trim().parse().ok(),
        v => v.as_f64(),
    };
    n.filter(|n| n.is_finite() && *n >= 0.0).ok_or_else(|| {
        let written = v.to_string();
        let shown = crate::escape::excerpt(written.as_bytes());
        Error {
            line: line_of(text, written.as_bytes()),
            what: format!("{what} `{shown}` is not a number of 0 or more"),
        }
    })
}

/// The line where `written` (a value as JSON writes it) first stands in `text`: where a
/// bad figure is (1 if it is written otherwise there).
fn line_of(text: &[u8], written: &[u8]) -> usize {
    memchr::memmem::find(text, written)
        .map_or(1, |at| 1 + memchr::memchr_iter(b'\n', &text[..at]).count())
}

fn error(what: impl Into<String>) -> Error {
    Error {
        line: 1,
        what: what.into(),
    }
}

/// Reads a whole report in any key order.
pub fn parse(text: &[u8]) -> Result<super::Read, Error> {
    let report: Report = serde_json::from_slice(text).map_err(|e| Error {
        line: e.line(),
        what: format!(
            "not GHC's JSON report in any key order ({e}); GHC's own file (+RTS -pj) reads"
        ),
    })?;
    if report.cost_centres.len() > MAX_CENTRES {
        return Err(error(format!("more than {MAX_CENTRES} cost centres")));
    }
    let mut ids = HashMap::new();
    let centres = (report.cost_centres.into_iter().enumerate())
        .map(|(k, c)| {
            ids.insert(c.id, k as u32);
            CostCentre {
                label: c.label.into_bytes().into(),
                module: c.module.into_bytes().into(),
                src: c.src_loc.into_bytes().into(),
            }
        })
        .collect();
    Ok(super::Read {
        profile: CostProfile {
            command: report.program.into_bytes().into(),
            date: match &report.end_time {
                Value::String(s) => s.clone().into_bytes().into(),
                _ => Box::default(),
            },
            seconds: number(&report.total_time, "\"total_time\"", text)?,
            total_ticks: number(&report.total_ticks, "\"total_ticks\"", text)? as u64,
            tick_us: number(&report.tick_interval, "\"tick_interval\"", text)? as u64,
            total_bytes: number(&report.total_alloc, "\"total_alloc\"", text)? as u64,
            centres,
            stacks: stacks(&report.profile, &ids, text)?,
            precision: Precision::Counted,
        },
        warnings: Vec::new(),
    })
}

/// The tree's stacks, each after its parent, walked without recursion.
fn stacks(root: &Node, ids: &HashMap<u64, u32>, text: &[u8]) -> Result<Vec<Stack>, Error> {
    let mut stacks = Vec::new();
    // Nodes to visit, with their parent's stack and depth; children pushed in reverse so
    // that they come out in the file's order.
    let mut todo: Vec<(&Node, Option<u32>, usize)> = vec![(root, None, 0)];
    while let Some((node, parent, depth)) = todo.pop() {
        if stacks.len() >= MAX_STACKS || depth >= MAX_DEPTH {
            return Err(error("a tree past its limits (stacks or depth)"));
        }
        let centre = *(ids.get(&node.id))
            .ok_or_else(|| error(format!("cost centre {} is not among cost_centres", node.id)))?;
        let me = stacks.len() as u32;
        stacks.push(Stack {
            centre,
            parent,
            number: node.id,
            entries: number(&node.entries, "\"entries\"", text)? as u64,
            ticks: number(&node.ticks, "\"ticks\"", text)?,
            bytes: number(&node.alloc, "\"alloc\"", text)?,
        });
        todo.extend(node.children.iter().rev().map(|c| (c, Some(me), depth + 1)));
    }
    Ok(stacks)
}

#[cfg(test)]
mod tests {
    /// A report with its keys sorted whose tree is `depth` stacks deep.
    fn sorted(depth: usize) -> String {
        let mut tree = String::from(r#"{"alloc": 8, "entries": 1, "id": 2, "ticks": 3}"#);
        for _ in 1..depth {
            tree = format!(
                r#"{{"alloc": 16, "children": [{tree}], "entries": "2", "id": 2, "ticks": 1}}"#
            );
        }
        format!(
            r#"{{"arguments": [], "cost_centres": [{{"id": 2, "is_caf": false, "label": "f", "module": "M", "src_loc": "M.hs:1:1"}}],
            "end_time": "Thu Nov 26 2026", "profile": {tree}, "program": "p\"q", "tick_interval": 1000,
            "total_alloc": 64, "total_ticks": "9", "total_time": 0.01}}"#
        )
    }

    #[test]
    fn keys_in_any_order_read_and_a_tree_past_serde_jsons_depth_is_an_error() {
        let text = sorted(4);
        assert!(super::super::json::is_report(text.as_bytes()));
        let p = super::super::json::parse(text.as_bytes()).unwrap().profile;
        assert_eq!(&*p.command, b"p\"q");
        assert_eq!((p.total_ticks, p.tick_us, p.total_bytes), (9, 1000, 64));
        assert_eq!(p.stacks.len(), 4);
        // Each after its parent, the deepest with its own figures.
        assert_eq!(p.stacks[3].parent, Some(2));
        assert_eq!(
            (p.stacks[3].entries, p.stacks[3].ticks, p.stacks[3].bytes),
            (1, 3.0, 8.0)
        );
        assert_eq!(p.stacks[0].entries, 2, "a count written as a string");
        // Past serde_json's nesting (two levels a stack): an error, not a crash.
        let e = super::super::json::parse(sorted(200).as_bytes()).unwrap_err();
        assert!(e.what.contains("GHC's own file"), "{}", e.what);
    }
}
