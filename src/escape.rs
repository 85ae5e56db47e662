//! Escaping profile text for the outputs that are not markup: a terminal and a
//! spreadsheet. (Markup — HTML and SVG text and attributes — is [`crate::backend::escape`];
//! JSON is serde_json's, with `<` escaped where it sits in a page.) A profile is untrusted
//! input: its names must not drive the terminal that shows them nor run as formulas in
//! the spreadsheet that opens them.

use std::borrow::Cow;

/// `s` safe to print on a terminal: control characters (C0, DEL and C1, which start
/// escape sequences that retitle windows, clear screens or move the cursor) written as
/// `\xNN` or `\u{NN}`, as the error messages show input bytes; everything else as it is.
pub fn terminal(s: &str) -> Cow<'_, str> {
    if !s.chars().any(char::is_control) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x80 && c.is_control() => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Whether a spreadsheet would read a cell starting with these bytes as a formula
/// (OWASP's list: `=`, `+`, `-`, `@`, tab and carriage return). Such a cell is written
/// with a `'` before it, which spreadsheets show as text.
pub fn csv_formula(cell: &[u8]) -> bool {
    matches!(
        cell.first(),
        Some(b'=' | b'+' | b'-' | b'@' | b'\t' | b'\r')
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_shown_not_obeyed() {
        assert_eq!(terminal("plain (ü) text"), "plain (ü) text");
        assert_eq!(terminal("\x1b]0;title\x07x"), "\\x1b]0;title\\x07x");
        assert_eq!(
            terminal("a\x1b[2Jb\u{9b}c\td\x7f"),
            "a\\x1b[2Jb\\u{9b}c\\td\\x7f"
        );
    }

    #[test]
    fn formula_cells_are_told() {
        for f in ["=HYPERLINK(1)", "+1", "-1+1", "@SUM(A1)", "\tx", "\rx"] {
            assert!(csv_formula(f.as_bytes()), "{f}");
        }
        for f in ["name", "1", "", " =x", "a=b"] {
            assert!(!csv_formula(f.as_bytes()), "{f}");
        }
    }
}
