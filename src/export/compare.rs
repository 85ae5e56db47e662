//! `--compare`'s numbers: the comparison of two runs (see [`crate::analysis::compare`])
//! as an aligned table for people, as JSON (`--summary=json`, `-o x.json`) or as CSV
//! (`-o x.csv`), each holding the same figures; and two runs' runtime statistics
//! (`--compare BEFORE AFTER --stats`) side by side.

use std::io::{self, Write};

use super::summary::TextOptions;
use crate::analysis::compare::{BandChange, Comparison, Figures, Status};
use crate::units::{Scale, human};

/// The change in percent, as people read it.
fn percent(p: Option<f64>) -> String {
    match p {
        Some(p) => format!("{p:+.1}%"),
        None => "new".to_string(),
    }
}

/// The comparison as a table: the headline, then a row per band, the largest change in
/// mean first.
pub fn write_text(c: &Comparison, opts: TextOptions, out: &mut dyn Write) -> io::Result<()> {
    let scale = Scale::new(c.units.value, opts.units);
    let value = |v: f64| human(v, scale);
    let signed = |v: f64| {
        if v > 0.0 {
            format!("+{}", human(v, scale))
        } else if v < 0.0 {
            format!("-{}", human(-v, scale))
        } else {
            "0".to_string()
        }
    };
    let term = |s: &str| crate::escape::terminal(s).into_owned();
    writeln!(
        out,
        "before: {} ({})",
        term(&c.before.file),
        term(&c.before.job)
    )?;
    writeln!(
        out,
        "after:  {} ({})",
        term(&c.after.file),
        term(&c.after.job)
    )?;
    writeln!(
        out,
        "peak {} -> {} ({}), mean {} -> {} ({}), area {} -> {} {} x {} ({})",
        value(c.before.peak),
        value(c.after.peak),
        percent(c.change.peak_percent),
        value(c.before.mean),
        value(c.after.mean),
        percent(c.change.mean_percent),
        human(c.before.area, Scale::Plain),
        human(c.after.area, Scale::Plain),
        term(&c.value_unit),
        term(&c.sample_unit),
        percent(c.change.area_percent),
    )?;
    if let (Some(a), Some(b)) = (&c.before.runtime, &c.after.runtime) {
        let bytes = |v: Option<u64>| v.map_or("-".to_string(), |v| value(v as f64));
        writeln!(
            out,
            "runtime: GC {:.1}% -> {:.1}% of elapsed time, longest pause {} -> {}, \
             allocated {} -> {}, maximum residency {} -> {}",
            a.gc_share * 100.0,
            b.gc_share * 100.0,
            crate::units::seconds(a.max_pause),
            crate::units::seconds(b.max_pause),
            bytes(a.allocated),
            bytes(b.allocated),
            bytes(a.max_residency),
            bytes(b.max_residency),
        )?;
    }
    writeln!(out)?;
    let header = [
        "status",
        "mean before",
        "mean after",
        "change",
        "peak before",
        "peak after",
        "band",
    ];
    let side = |f: Option<Figures>, pick: fn(Figures) -> f64| {
        f.map_or("-".to_string(), |f| value(pick(f)))
    };
    let (bold, red, green, reset) = if opts.colour {
        ("\x1b[1m", "\x1b[31m", "\x1b[32m", "\x1b[0m")
    } else {
        ("", "", "", "")
    };
    let mut rows = vec![(header.map(String::from).to_vec(), bold)];
    rows.extend(c.bands.iter().map(|b: &BandChange| {
        let style = match b.status {
            Status::Grew | Status::New => red,
            Status::Shrank | Status::Gone => green,
            Status::Unchanged => "",
        };
        let cells = vec![
            b.status.word().to_string(),
            side(b.before, |f| f.mean),
            side(b.after, |f| f.mean),
            signed(b.mean_change()),
            side(b.before, |f| f.peak),
            side(b.after, |f| f.peak),
            term(&b.name),
        ];
        (cells, style)
    }));
    super::aligned::write(out, &rows, &[0], reset)
}

/// The comparison as one JSON document (the layout of docs/compare.md).
pub fn write_json(c: &Comparison, out: &mut dyn Write) -> io::Result<()> {
    crate::escape::json_to(&mut *out, c, true)?;
    writeln!(out)
}

/// The comparison as CSV: a row per band (RFC 4180, as `-o x.csv` writes profiles).
/// When both runs are eventlogs with GC events, rows of status `runtime` come first, one
/// per headline figure (`gc_share` 0 to 1, `max_pause` in seconds, `collections`,
/// `allocated` and `max_residency` in bytes), the figure's name in `band`, the runs'
/// figures in `before_peak` and `after_peak` and their difference in `peak_change`, so
/// that a CI job can fail a change that doubles GC time.
pub fn write_csv(c: &Comparison, out: &mut dyn Write) -> io::Result<()> {
    let mut out = io::BufWriter::new(out);
    out.write_all(
        b"band,status,before_peak,before_mean,after_peak,after_mean,peak_change,mean_change\r\n",
    )?;
    if let (Some(b), Some(a)) = (&c.before.runtime, &c.after.runtime) {
        for ((name, before), (_, after)) in b.figures().into_iter().zip(a.figures()) {
            let text = |v: Option<f64>| v.map_or(String::new(), super::csv::number);
            let change = before.zip(after).map(|(b, a)| a - b);
            write!(
                out,
                "{name},runtime,{},,{},,{},\r\n",
                text(before),
                text(after),
                text(change)
            )?;
        }
    }
    let n = |v: Option<f64>| v.map_or(String::new(), |v| super::csv::number(v.round()));
    for b in &c.bands {
        super::csv::field(&mut out, b.name.as_bytes())?;
        write!(
            out,
            ",{},{},{},{},{},{},{}\r\n",
            b.status.word(),
            n(b.before.map(|f| f.peak)),
            n(b.before.map(|f| f.mean)),
            n(b.after.map(|f| f.peak)),
            n(b.after.map(|f| f.mean)),
            n(Some(b.peak_change())),
            n(Some(b.mean_change())),
        )?;
    }
    out.flush()
}
/// Two runs' runtime statistics side by side, before then after: `+RTS -s`'s text with
/// each figure's change, or JSON (`{"before": …, "after": …}`) or its CSV.
pub fn write_stats(
    runs: [&crate::analysis::stats::Stats; 2],
    names: [&str; 2],
    style: super::SummaryStyle,
    out: &mut dyn Write,
) -> io::Result<()> {
    use super::SummaryStyle;
    let both = || serde_json::json!({ "before": runs[0], "after": runs[1] });
    match style {
        SummaryStyle::Text => {
            out.write_all(crate::analysis::stats::compared_text(runs, names).as_bytes())
        }
        SummaryStyle::Json => {
            crate::escape::json_to(&mut *out, &both(), true)?;
            writeln!(out)
        }
        SummaryStyle::Csv => super::summary::write_figures_csv(&both(), out),
    }
}
