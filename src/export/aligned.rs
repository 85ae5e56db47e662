//! The aligned text tables of `--summary` and `--summary` with `--compare`: numbers
//! right-aligned, words left-aligned, the last column (a band's full name) as it is, so
//! that a long name never pushes the numbers out of line.

use std::io::{self, Write};

/// Writes `rows` (the header first) as aligned columns, two spaces apart: the columns
/// numbered in `words` left-aligned, the last as it is, the others right-aligned. Each
/// row is written in its style (an ANSI sequence, `reset` after it; none when empty).
pub fn write(
    out: &mut dyn Write,
    rows: &[(Vec<String>, &str)],
    words: &[usize],
    reset: &str,
) -> io::Result<()> {
    let columns = rows.iter().map(|(r, _)| r.len()).max().unwrap_or(0);
    let mut widths = vec![0; columns];
    for (r, _) in rows {
        for (w, cell) in widths.iter_mut().zip(r) {
            *w = (*w).max(cell.chars().count());
        }
    }
    for (cells, style) in rows {
        let mut text = String::new();
        for (k, (cell, w)) in cells.iter().zip(&widths).enumerate() {
            let pad = w - cell.chars().count();
            if k + 1 == columns {
                text.push_str(cell);
            } else if words.contains(&k) {
                text.push_str(cell);
                text.push_str(&" ".repeat(pad + 2));
            } else {
                text.push_str(&" ".repeat(pad));
                text.push_str(cell);
                text.push_str("  ");
            }
        }
        let text = text.trim_end();
        if style.is_empty() {
            writeln!(out, "{text}")?;
        } else {
            writeln!(out, "{style}{text}{reset}")?;
        }
    }
    Ok(())
}
