//! `--summary`: the [summary](crate::analysis::summary) of a profile's bands as an
//! aligned table for people or as JSON for scripts.

use std::io::{self, Write};

use crate::analysis::summary::{Summary, Trend};
use crate::units::ByteUnits;

/// How the table is printed.
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct TextOptions {
    /// ANSI colours and bold (a terminal that wants them).
    pub colour: bool,
    /// How byte counts are written.
    pub units: ByteUnits,
}

/// The summary as an aligned table: numbers right-aligned, the full name last.
pub fn write_text(s: &Summary, opts: TextOptions, out: &mut dyn Write) -> io::Result<()> {
    let value = |v: f64| s.value_text(v, opts.units);
    let time = |t: f64| crate::escape::terminal(&s.time_text(t)).into_owned();
    // The trend's slope per time unit, signed, and how well the line fits.
    // No line is drawn through too few censuses: its slope and fit are not shown.
    let judged = s.total.trend != Trend::Unjudged;
    let growth = |g: f64| {
        if !judged {
            return "-".to_string();
        }
        let sign = if g < 0.0 { "-" } else { "+" };
        let per = s.per_time();
        format!("{sign}{}{per}", value(g.abs()))
    };
    let header = [
        "share", "peak", "at", "mean", "trend", "growth", "R²", "band",
    ];
    let (bold, red, reset) = if opts.colour {
        ("\x1b[1m", "\x1b[31m", "\x1b[0m")
    } else {
        ("", "", "")
    };
    let mut rows = vec![(header.map(String::from).to_vec(), bold)];
    rows.extend(s.bands.iter().map(|b| {
        let cells = vec![
            format!("{:.1}%", b.share * 100.0),
            value(b.peak),
            time(b.peak_time),
            value(b.mean),
            b.trend.word().to_string(),
            growth(b.growth_per_second),
            match judged {
                true => format!("{:.2}", b.growth_r2),
                false => "-".to_string(),
            },
            crate::escape::terminal(&b.name).into_owned(),
        ];
        (cells, if b.trend == Trend::Growing { red } else { "" })
    }));
    let others = s.band_count - s.bands.len();
    let total = vec![
        String::new(),
        value(s.total.peak),
        time(s.total.peak_time),
        value(s.total.mean),
        s.total.trend.word().to_string(),
        growth(s.total.growth_per_second),
        String::new(),
        if others > 0 {
            format!("total of {} bands ({others} not shown)", s.band_count)
        } else {
            format!("total of {} bands", s.band_count)
        },
    ];
    rows.push((
        total,
        if s.total.trend == Trend::Growing {
            red
        } else {
            bold
        },
    ));
    writeln!(out, "{}", crate::escape::terminal(&s.job))?;
    write_loss(s, &time, out)?;
    write_runtime(s, &value, out)?;
    write_nonmoving(s, &value, &time, out)?;
    write_capabilities(s, out)?;
    write_lives(s, &time, out)?;
    if s.band_count == 0 && s.ticky.is_some() {
        return write_ticky(s, &value, (bold, reset), out);
    }
    if s.band_count == 0 && (s.runtime.is_some() || s.capabilities.is_some()) && s.samples <= 2 {
        return writeln!(
            out,
            "no heap profile in this eventlog: the runtime's figures only (run the \
             program with +RTS -hT -l for what the heap holds)"
        );
    }
    if s.band_count == 0 {
        // What the picture shows too: censuses, but nothing in them.
        return writeln!(
            out,
            "{} censuses, every one empty: nothing was profiled",
            s.samples
        );
    }
    // The teardown left out of the trend is said, so that a reader knows what it judged.
    let body = match s.teardown_from {
        Some(t) => format!(" before the teardown from {}", time(t)),
        None => String::new(),
    };
    if s.total.trend == Trend::Unjudged {
        writeln!(
            out,
            "{} samples, {} to {}, {} bands; too few censuses for a trend ({} before the \
             exit and teardown, {} needed; censuses more often, +RTS -i, give more): none \
             is judged",
            s.samples,
            time(s.window.from),
            time(s.window.to),
            s.band_count,
            s.body_censuses,
            crate::analysis::window::MIN_TREND_CENSUSES
        )?;
    } else {
        writeln!(
            out,
            "{} samples, {} to {}, {} bands; trend over the last {}%{body}, {} to {}, \
             where its line explains R² ≥ {:.2}",
            s.samples,
            time(s.window.from),
            time(s.window.to),
            s.band_count,
            (crate::analysis::window::TREND_WINDOW * 100.0).round(),
            time(s.trend_window.from),
            time(s.trend_window.to),
            s.trend_r2
        )?;
    }
    writeln!(out)?;
    // Words (the trend) left-aligned, numbers right-aligned.
    super::aligned::write(out, &rows, &[4], reset)?;
    write_members(s, &value, (bold, reset), out)?;
    write_ticky(s, &value, (bold, reset), out)
}

/// The most ticky counters the text lists when `--top` lists fewer bands.
const TICKY_ROWS: usize = 20;

/// A ticky-ticky run's counters, most allocating first (as many as the bands' rows, at
/// least [`TICKY_ROWS`]).
fn write_ticky(
    s: &Summary,
    value: &dyn Fn(f64) -> String,
    (bold, reset): (&str, &str),
    out: &mut dyn Write,
) -> io::Result<()> {
    let Some(counters) = &s.ticky else {
        return Ok(());
    };
    writeln!(
        out,
        "\nticky-ticky counters over the whole run, by what their code allocated: entries, \
         bytes allocated by the code (alloc) and of the closure (alloc'd)"
    )?;
    let head = ["entries", "alloc", "alloc'd", "counter"]
        .map(String::from)
        .to_vec();
    let mut rows = vec![(head, bold)];
    let shown = counters.len().min(s.bands.len().max(TICKY_ROWS));
    rows.extend(counters[..shown].iter().map(|c| {
        let name = crate::escape::terminal(&c.name).into_owned();
        let cells = vec![
            c.entries.to_string(),
            value(c.allocs as f64),
            value(c.allocd as f64),
        ];
        (cells.into_iter().chain([name]).collect(), "")
    }));
    super::aligned::write(out, &rows, &[], reset)?;
    if shown < counters.len() {
        writeln!(out, "({} counters not shown)", counters.len() - shown)?;
    }
    Ok(())
}

/// A retainer or root profile's members: what each holds alone and reachable, at their
/// peaks, most reachable first (at most as many as the bands' rows, `--top`).
fn write_members(
    s: &Summary,
    value: &dyn Fn(f64) -> String,
    (bold, reset): (&str, &str),
    out: &mut dyn Write,
) -> io::Result<()> {
    let Some(m) = &s.members else {
        return Ok(());
    };
    writeln!(
        out,
        "\nwho holds how much, at its peak: alone (its set of it only) and reachable (every \
         set it is in)"
    )?;
    let head = ["alone", "reachable", "member"].map(String::from).to_vec();
    let mut rows = vec![(head, bold)];
    rows.extend((m.members.iter().take(s.bands.len().max(1))).map(|m| {
        let name = crate::escape::terminal(&m.name).into_owned();
        (vec![value(m.alone_peak), value(m.reachable_peak), name], "")
    }));
    super::aligned::write(out, &rows, &[], reset)?;
    let shown = m.members.len().min(s.bands.len().max(1));
    if shown < m.members.len() || m.left_out > 0 {
        writeln!(
            out,
            "({} members not shown)",
            m.members.len() - shown + m.left_out
        )?;
    }
    if m.unknown_sets > 0 {
        writeln!(
            out,
            "{} bands' sets are not in the run's report (it lists those held when the run \
             ends): what they held counts for no member",
            m.unknown_sets
        )?;
    }
    Ok(())
}

/// The runtime's headline figures on a line, where the input has them.
fn write_runtime(
    s: &Summary,
    value: &dyn Fn(f64) -> String,
    out: &mut dyn Write,
) -> io::Result<()> {
    let Some(r) = &s.runtime else {
        return Ok(());
    };
    let bytes = |b: Option<u64>| b.map_or("-".to_string(), |b| value(b as f64));
    writeln!(
        out,
        "runtime: {:.1}% of elapsed time in GC, {} collections, longest pause {}, \
         {} allocated, {} maximum residency",
        r.gc_share * 100.0,
        r.collections,
        crate::units::seconds(r.max_pause),
        bytes(r.allocated),
        bytes(r.max_residency),
    )
}

/// The non-moving heap on a line, where the run wrote its censuses: how many, and at
/// the census of most live bytes, those and what the segments held beyond them.
fn write_nonmoving(
    s: &Summary,
    value: &dyn Fn(f64) -> String,
    time: &dyn Fn(f64) -> String,
    out: &mut dyn Write,
) -> io::Result<()> {
    let Some(rows) = s.nonmoving.as_deref().filter(|r| !r.is_empty()) else {
        return Ok(());
    };
    // (time, live, segments) per census, rows being a census's classes one after another.
    let mut censuses: Vec<(f64, u64, u64)> = Vec::new();
    for r in rows {
        match censuses.last_mut() {
            Some(c) if c.0 == r.time => {
                c.1 += r.class.live_bytes();
                c.2 += r.class.segment_bytes();
            }
            _ => censuses.push((r.time, r.class.live_bytes(), r.class.segment_bytes())),
        }
    }
    let peak = censuses
        .iter()
        .fold(censuses[0], |a, &c| if c.1 > a.1 { c } else { a });
    let beyond: u64 = (rows.iter())
        .filter(|r| r.time == peak.0)
        .map(|r| r.class.segment_bytes().saturating_sub(r.class.live_bytes()))
        .sum();
    writeln!(
        out,
        "non-moving heap: {} censuses; most live {} at {}, its segments holding {} more \
         (fragmentation: {:.0}% of them)",
        censuses.len(),
        value(peak.1 as f64),
        time(peak.0),
        value(beyond as f64),
        if peak.2 > 0 {
            beyond as f64 * 100.0 / peak.2 as f64
        } else {
            0.0
        },
    )
}

/// What each capability was doing, on a line: its shares of the window running Haskell
/// code, collecting and idle.
fn write_capabilities(s: &Summary, out: &mut dyn Write) -> io::Result<()> {
    if s.capabilities_unjudged {
        return writeln!(
            out,
            "capabilities: too many threads run to keep one by one; the whole run's \
             figures are exact (give no --from/--to)"
        );
    }
    let Some(caps) = s.capabilities.as_deref().filter(|c| !c.is_empty()) else {
        return Ok(());
    };
    let share = |x: f64, c: &crate::profile::activity::Figures| {
        let whole = c.running + c.gc + c.idle;
        if whole > 0.0 { x * 100.0 / whole } else { 0.0 }
    };
    let each: Vec<String> = (caps.iter())
        .map(|c| {
            format!(
                "{} {:.0}/{:.0}/{:.0}",
                c.capability,
                share(c.running, c),
                share(c.gc, c),
                share(c.idle, c)
            )
        })
        .collect();
    writeln!(
        out,
        "capabilities, % of the time running/collecting/idle: {}",
        each.join(", ")
    )
}

/// What of the input was not read, first: every figure below is of the part that was.
fn write_loss(s: &Summary, time: &dyn Fn(f64) -> String, out: &mut dyn Write) -> io::Result<()> {
    let Some(part) = &s.loss else {
        return Ok(());
    };
    let (from, to) = (time(part.read.from), time(part.read.to));
    let sentence = part.loss.sentence(Some((&from, &to)));
    writeln!(out, "{}", crate::escape::terminal(&sentence))
}

/// A biographical profile's waste, or the lives a profile is restricted to, on a line.
fn write_lives(s: &Summary, time: &dyn Fn(f64) -> String, out: &mut dyn Write) -> io::Result<()> {
    if let Some(b) = &s.biography {
        writeln!(
            out,
            "waste (DRAG + VOID, never used again): {:.1}% of the heap over the run, {:.1}% \
             at its peak at {}; lag {:.1}%: {}",
            b.waste * 100.0,
            b.waste_at_peak * 100.0,
            time(b.peak_time),
            b.lag * 100.0,
            b.advice
        )?;
    }
    if let Some(lives) = &s.restricted_to {
        let what = if crate::analysis::biography::restricted_to_waste(lives) {
            "every byte here is waste (never used again): the bands are who holds it, \
             largest share first"
        } else {
            "only closures of those lives are counted"
        };
        writeln!(
            out,
            "restricted to {} (-hb{}): {what}",
            crate::escape::terminal(lives),
            crate::escape::terminal(lives)
        )?;
    }
    Ok(())
}

/// The summary as JSON, one document with a final newline.
pub fn write_json(s: &Summary, out: &mut dyn Write) -> io::Result<()> {
    crate::escape::json_to(&mut *out, s, true)?;
    writeln!(out)
}

/// The summary as CSV (RFC 4180, as `-o x.csv`): one table whose first column says
/// what a row is. `runtime` rows come first, one per headline figure (`gc_share` 0 to
/// 1, `max_pause` in seconds, `collections`, `allocated` and `max_residency` in bytes)
/// with its number in `value`, and for a biographical profile `biography` rows (`waste`,
/// `waste_at_peak`, `lag`, 0 to 1); then a `band` row per band and the `total`, with the
/// table's columns (`at` in the profile's time unit, `growth_per_second` in its units
/// per second; the total's trend is the whole heap's). Empty cells are figures the row
/// does not have.
pub fn write_csv(s: &Summary, out: &mut dyn Write) -> io::Result<()> {
    use super::csv::{field, number};
    let mut out = io::BufWriter::new(out);
    out.write_all(b"kind,name,value,share,peak,at,mean,trend,growth_per_second,r2\r\n")?;
    if let Some(r) = &s.runtime {
        for (name, value) in r.figures() {
            let value = value.map_or(String::new(), number);
            write!(out, "runtime,{name},{value},,,,,,,\r\n")?;
        }
    }
    if let Some(b) = &s.biography {
        for (name, value) in [
            ("waste", b.waste),
            ("waste_at_peak", b.waste_at_peak),
            ("lag", b.lag),
        ] {
            write!(out, "biography,{name},{},,,,,,,\r\n", number(value))?;
        }
    }
    for m in s.members.iter().flat_map(|m| &m.members) {
        for (kind, v) in [
            ("member_alone_peak", m.alone_peak),
            ("member_reachable_peak", m.reachable_peak),
        ] {
            write!(out, "{kind},")?;
            field(&mut out, m.name.as_bytes())?;
            write!(out, ",{},,,,,,,\r\n", number(v))?;
        }
    }
    for c in s.ticky.iter().flatten() {
        for (kind, v) in [
            ("ticky_entries", c.entries),
            ("ticky_allocs", c.allocs),
            ("ticky_allocd", c.allocd),
        ] {
            write!(out, "{kind},")?;
            field(&mut out, c.name.as_bytes())?;
            write!(out, ",{v},,,,,,,\r\n")?;
        }
    }
    for b in &s.bands {
        out.write_all(b"band,")?;
        field(&mut out, b.name.as_bytes())?;
        write!(
            out,
            ",,{},{},{},{},{},{},{}\r\n",
            number(b.share),
            number(b.peak),
            number(b.peak_time),
            number(b.mean),
            b.trend.word(),
            number(b.growth_per_second),
            number(b.growth_r2),
        )?;
    }
    write!(
        out,
        "total,,,,{},{},{},{},{},\r\n",
        number(s.total.peak),
        number(s.total.peak_time),
        number(s.total.mean),
        s.total.trend.word(),
        number(s.total.growth_per_second),
    )?;
    out.flush()
}

/// Any figures as CSV: a `figure,value` row per number, named by its path in the JSON
/// form (`generations.0.collections`), so that a spreadsheet reads what `=json` gives.
pub fn write_figures_csv(figures: &impl serde::Serialize, out: &mut dyn Write) -> io::Result<()> {
    fn rows(path: &str, v: &serde_json::Value, out: &mut dyn Write) -> io::Result<()> {
        let key = |k: &str| {
            if path.is_empty() {
                k.to_string()
            } else {
                format!("{path}.{k}")
            }
        };
        match v {
            serde_json::Value::Object(m) => m.iter().try_for_each(|(k, v)| rows(&key(k), v, out)),
            serde_json::Value::Array(a) => {
                (a.iter().enumerate()).try_for_each(|(k, v)| rows(&key(&k.to_string()), v, out))
            }
            serde_json::Value::Null => Ok(()),
            other => {
                super::csv::field(out, path.as_bytes())?;
                out.write_all(b",")?;
                let text = match other {
                    serde_json::Value::String(s) => s.clone(),
                    v => v.to_string(),
                };
                super::csv::field(out, text.as_bytes())?;
                out.write_all(b"\r\n")
            }
        }
    }
    let value = serde_json::to_value(figures).map_err(io::Error::other)?;
    let mut out = io::BufWriter::new(out);
    out.write_all(b"figure,value\r\n")?;
    rows("", &value, &mut out)?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{Table, summarise};
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

    #[test]
    fn the_table_is_aligned_and_plain_off_a_terminal() {
        let s = summary("BEGIN_SAMPLE 0\nmain\t1234567\nEND_SAMPLE 0\n");
        let mut out = Vec::new();
        write_text(&s, TextOptions::default(), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(!text.contains('\x1b'));
        assert!(
            text.contains("100.0%  1.23 MB  0.00 s  1.23 MB  unjudged       -   -  main"),
            "{text}"
        );
    }
}
