//! Escaping profile text at the boundary of each output language, once: markup (HTML
//! and SVG text and quoted attributes), JSON inside a page's script element, a terminal,
//! a spreadsheet's cell and an error message's excerpt of input bytes. A profile is
//! untrusted input: its names must not become markup in the page that shows them, drive
//! the terminal that prints them nor run as formulas in the spreadsheet that opens them.
//! Every output that writes profile text goes through one of these (JSON documents
//! themselves are serde_json's; PostScript strings are the PostScript backend's, as hp2ps
//! writes them).

use std::borrow::Cow;

/// Text for HTML or XML (SVG) content or a quoted attribute (either quote).
pub fn html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    html_into(&mut out, text);
    out
}

/// [`html`], appending to `out`. A bidirectional control ([`is_bidi`]) is shown as its
/// code (`\u{202e}`): it would otherwise reverse the text after it, so that a label reads
/// as another.
pub fn html_into(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if is_bidi(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
}

/// Text for an XML document's content or quoted attribute (a JUnit report): [`html`],
/// and the characters XML 1.0 cannot hold even escaped (C0 controls other than tab,
/// line feed and carriage return; U+FFFE, U+FFFF) shown as their code, `\u{1b}`.
pub fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => {
                out.push_str(&format!("\\u{{{:x}}}", c as u32))
            }
            c => html_into(&mut out, c.encode_utf8(&mut [0; 4])),
        }
    }
    out
}

/// A JSON document made safe to sit inside a `<script>` element: every `<` written as
/// `\u003c`, which JSON reads as the same character, so that nothing in a name can end
/// the element or open a comment; and every bidirectional control ([`is_bidi`]) as the
/// text of its code (`\\u{202e}`, which JSON reads as `\u{202e}`), so that the page's
/// labels, which the script sets as text, show it rather than obey it.
pub fn json_in_script(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            // A JSON document has these characters only inside its strings.
            c if is_bidi(c) => out.push_str(&format!("\\\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// What tells each of `names`, shown together, from another that reads the same: where
/// two are one name in Unicode's composed form (NFC) but differ in their bytes (`é` as
/// one character, or as `e` and a combining accent: NFD), each that is not composed is
/// marked `(NFD)` (or `(not NFC)`, for another decomposed spelling). `None` for the rest.
pub fn look_alikes(names: &[&str]) -> Vec<Option<&'static str>> {
    use unicode_normalization::{UnicodeNormalization, is_nfc, is_nfd};
    let mut marks = vec![None; names.len()];
    if names.iter().all(|n| n.is_ascii()) {
        return marks;
    }
    let mut by_form: std::collections::HashMap<Cow<'_, str>, Vec<usize>> = Default::default();
    for (k, n) in names.iter().enumerate() {
        let form = if is_nfc(n) {
            Cow::Borrowed(*n)
        } else {
            Cow::Owned(n.nfc().collect())
        };
        by_form.entry(form).or_default().push(k);
    }
    for group in by_form.values().filter(|g| g.len() > 1) {
        for &k in group {
            if !is_nfc(names[k]) {
                let [nfd, other] = LOOK_ALIKE_MARKS;
                marks[k] = Some(if is_nfd(names[k]) { nfd } else { other });
            }
        }
    }
    marks
}

/// The marks [`look_alikes`] gives.
pub const LOOK_ALIKE_MARKS: [&str; 2] = [" (NFD)", " (not NFC)"];

/// `shown` without the mark [`look_alikes`] added to it, if any: the name as the
/// profile has it.
pub fn unmarked(shown: &str) -> &str {
    (LOOK_ALIKE_MARKS.iter())
        .find_map(|m| shown.strip_suffix(m))
        .unwrap_or(shown)
}

/// `name` with each bidirectional control ([`is_bidi`]) as the text of its code
/// (`\u{202e}`), as markup shows it ([`html`]): what a layout measures and places.
pub fn bidi_shown(name: &[u8]) -> Cow<'_, [u8]> {
    let Ok(text) = std::str::from_utf8(name) else {
        return Cow::Borrowed(name);
    };
    if !text.chars().any(is_bidi) {
        return Cow::Borrowed(name);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_bidi(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out.into_bytes())
}

/// The bidirectional controls (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to
/// U+2069): they reorder what follows them, so that a name can show as another
/// (CVE-2021-42574, "Trojan Source").
pub fn is_bidi(c: char) -> bool {
    matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Shows input bytes in a message: printable ASCII as is, the rest escaped, cut short
/// after [`EXCERPT_BYTES`].
pub fn excerpt(bytes: &[u8]) -> String {
    let mut s = String::new();
    for &b in bytes.iter().take(EXCERPT_BYTES) {
        match b {
            b' '..=b'~' => s.push(b as char),
            b'\t' => s.push_str("\\t"),
            _ => s.push_str(&format!("\\x{b:02x}")),
        }
    }
    if bytes.len() > EXCERPT_BYTES {
        s.push('…');
    }
    s
}

/// How many bytes of input an error message quotes.
pub const EXCERPT_BYTES: usize = 40;

/// The longest a name runs in a message, in characters: past it the name is cut with
/// `…` (a band of 64 KiB named in "no band matches" would fill a terminal).
pub const MESSAGE_NAME_CHARS: usize = 80;

/// A name as a message shows it: safe for a terminal ([`terminal`]) and cut at
/// [`MESSAGE_NAME_CHARS`].
pub fn message_name(name: &[u8]) -> String {
    let text = String::from_utf8_lossy(name);
    let mut cut: String = text.chars().take(MESSAGE_NAME_CHARS).collect();
    if text.chars().nth(MESSAGE_NAME_CHARS).is_some() {
        cut.push('…');
    }
    terminal(&cut).into_owned()
}

/// Whether a terminal would act on `c` rather than show it: control characters (C0,
/// DEL and C1, which start escape sequences that retitle windows, clear screens or move
/// the cursor) and the bidirectional controls (U+061C, U+200E, U+200F, U+202A to
/// U+202E, U+2066 to U+2069), which reorder what follows them so that a name can show
/// as another (CVE-2021-42574, "Trojan Source").
pub fn acts_on_terminal(c: char) -> bool {
    c.is_control() || is_bidi(c)
}

/// `s` safe to print on a terminal: every character that [`acts_on_terminal`] written
/// as `\xNN` or `\u{NN}`, as the error messages show input bytes; everything else as it
/// is.
pub fn terminal(s: &str) -> Cow<'_, str> {
    if !s.chars().any(acts_on_terminal) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x80 && c.is_control() => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c if acts_on_terminal(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// serde_json's compact or pretty output with every character that
/// [`acts_on_terminal`] written as `\uXXXX`: the same JSON to a parser, and nothing a
/// terminal acts on when it is printed (serde_json escapes C0 but writes DEL, C1 and
/// the bidirectional controls as they are). Every JSON printer uses it.
pub struct TerminalJson<F>(pub F);

impl<F: serde_json::ser::Formatter> serde_json::ser::Formatter for TerminalJson<F> {
    fn write_string_fragment<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        fragment: &str,
    ) -> std::io::Result<()> {
        let mut start = 0;
        for (i, c) in fragment.char_indices() {
            if acts_on_terminal(c) {
                w.write_all(&fragment.as_bytes()[start..i])?;
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    write!(w, "\\u{:04x}", u)?;
                }
                start = i + c.len_utf8();
            }
        }
        w.write_all(&fragment.as_bytes()[start..])
    }

    fn begin_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_array(w)
    }
    fn end_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_array(w)
    }
    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.0.begin_array_value(w, first)
    }
    fn end_array_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_array_value(w)
    }
    fn begin_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_object(w)
    }
    fn end_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_object(w)
    }
    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.0.begin_object_key(w, first)
    }
    fn begin_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_object_value(w)
    }
    fn end_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_object_value(w)
    }
}

/// Writes `value` as JSON (indented when `pretty`) through [`TerminalJson`].
pub fn json_to<T: serde::Serialize + ?Sized>(
    out: &mut dyn std::io::Write,
    value: &T,
    pretty: bool,
) -> std::io::Result<()> {
    if pretty {
        let f = TerminalJson(serde_json::ser::PrettyFormatter::new());
        value.serialize(&mut serde_json::Serializer::with_formatter(out, f))?;
    } else {
        let f = TerminalJson(serde_json::ser::CompactFormatter);
        value.serialize(&mut serde_json::Serializer::with_formatter(out, f))?;
    }
    Ok(())
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

/// A name or file as a callgrind line ends in it (`fn=(1) NAME`): the line's end is the
/// name's, so a line break or other control character is `?`, and what acts on a
/// terminal is shown as [`terminal`] shows it (`callgrind_annotate` prints names); an
/// empty name is `???`, valgrind's name for the unknown.
pub fn callgrind_name(name: &[u8]) -> String {
    let text = String::from_utf8_lossy(name);
    if text.trim().is_empty() {
        return "???".into();
    }
    let plain: String = text
        .chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    terminal(&plain).into_owned()
}

/// A frame's name as one field of a folded-stacks line (`outer;inner 123`): `;` would
/// start a new frame and a line break a new line, so each becomes `_`; other control
/// characters are shown as [`terminal`] shows them, since inferno and flamegraph.pl
/// print names to SVG and terminals. A reader takes the line's last word for its count
/// (and, in a differential file, the word before it for a second count), so a frame
/// that ends in a blank and a number (`a 12`) or in blanks has that blank as `_`, a tab
/// is `_`, and an empty or blank frame, which readers pass over, is `[blank]`.
pub fn folded_frame(name: &[u8]) -> String {
    let text = String::from_utf8_lossy(name);
    if text.trim().is_empty() {
        return "[blank]".into();
    }
    let mut plain: String = text
        .chars()
        .map(|c| {
            if matches!(c, ';' | '\n' | '\r' | '\t') {
                '_'
            } else {
                c
            }
        })
        .collect();
    // Trailing blanks, then a last word that reads as a number, lose their blank.
    let kept = plain.trim_end_matches(char::is_whitespace).len();
    let tail = "_".repeat(plain[kept..].chars().count());
    plain.replace_range(kept.., &tail);
    if let Some(at) = plain.rfind(char::is_whitespace) {
        let blank = plain[at..].chars().next().map_or(1, char::len_utf8);
        if plain[at + blank..].parse::<f64>().is_ok() {
            plain.replace_range(at..at + blank, "_");
        }
    }
    terminal(&plain).into_owned()
}

/// The `.hp` format's keywords, its header's and its samples'.
pub const HP_KEYWORDS: [&str; 7] = [
    "JOB",
    "DATE",
    "SAMPLE_UNIT",
    "VALUE_UNIT",
    "BEGIN_SAMPLE",
    "END_SAMPLE",
    "MARK",
];

/// Whether a `.hp` line's first word (up to a blank or a quote) is one of
/// [`HP_KEYWORDS`]: such a line is the format's, whatever follows.
pub fn hp_keyword_first(line: &[u8]) -> bool {
    let word = line
        .split(|b| b.is_ascii_whitespace() || *b == b'"')
        .next()
        .unwrap_or_default();
    HP_KEYWORDS.iter().any(|k| k.as_bytes() == word)
}

/// A band's name as a `.hp` line can hold it, so that hp2ps (the reason to write `.hp`)
/// and hpgraph read it back: hp2ps reads a name as one word, so each blank in it (a
/// line break would also end the line) becomes `_`; an empty name, which would leave no
/// name, is `_`; a name whose first word is a keyword (`BEGIN_SAMPLE`) would be read as
/// that keyword, so it gets a `_` before it.
pub fn hp_name(name: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    if !hp_name_changes(name) {
        return name.into();
    }
    let mut v: Vec<u8> = Vec::with_capacity(name.len() + 1);
    if hp_keyword_first(name) {
        v.push(b'_');
    }
    v.extend(name.iter().map(|&b| if hp_blank(b) { b'_' } else { b }));
    if v.is_empty() {
        v.push(b'_');
    }
    v.into()
}

/// The bytes a `.hp` line takes for spacing.
fn hp_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c)
}

/// Whether [`hp_name`] writes `name` otherwise than it is.
pub fn hp_name_changes(name: &[u8]) -> bool {
    name.is_empty() || name.iter().any(|&b| hp_blank(b)) || hp_keyword_first(name)
}

#[cfg(test)]
mod tests {
    #[test]
    fn callgrind_names_end_their_line_and_never_act_on_a_terminal() {
        assert_eq!(callgrind_name(b"Main.step"), "Main.step");
        assert_eq!(callgrind_name(b"a\nfn=(9) b\r"), "a?fn=(9) b?");
        assert_eq!(callgrind_name(b" \t"), "???");
        assert!(!callgrind_name("x\u{202e}y".as_bytes()).contains('\u{202e}'));
    }

    use super::*;

    #[test]
    fn bidirectional_controls_are_shown_in_markup_and_the_page() {
        assert_eq!(html("a\u{202e}b<"), "a\\u{202e}b&lt;");
        let json = json_in_script(&serde_json::to_string("x\u{2067}y<").unwrap());
        let read: String = serde_json::from_str(&json).unwrap();
        assert_eq!(read, "x\\u{2067}y<");
        assert_eq!(&*bidi_shown("a\u{202e}b".as_bytes()), b"a\\u{202e}b");
        assert_eq!(&*bidi_shown(b"plain\xff"), b"plain\xff");
    }

    #[test]
    fn names_that_read_the_same_are_told_apart() {
        let (nfc, nfd) = ("caf\u{e9}", "cafe\u{301}");
        assert_eq!(look_alikes(&[nfc, nfd, "x"]), [None, Some(" (NFD)"), None]);
        assert_eq!(look_alikes(&[nfd, "x"]), [None, None]);
        // The Kelvin sign is K in NFC.
        assert_eq!(look_alikes(&["K", "\u{212a}"]), [None, Some(" (not NFC)")]);
    }

    #[test]
    fn a_frame_cannot_split_a_folded_line() {
        assert_eq!(folded_frame(b"go"), "go");
        assert_eq!(folded_frame(b"a;b\nc 12\r"), "a_b_c 12_");
        // What a reader would take for a count, or pass over.
        assert_eq!(folded_frame(b"a 12"), "a_12");
        assert_eq!(folded_frame(b"a b 1e3"), "a b_1e3");
        assert_eq!(folded_frame(b"a\t12"), "a_12");
        assert_eq!(folded_frame(b"a  "), "a__");
        assert_eq!(folded_frame(b"a 12x"), "a 12x");
        assert_eq!(folded_frame(b""), "[blank]");
        assert_eq!(folded_frame(b" \t "), "[blank]");
        assert_eq!(folded_frame("x\u{a0}7".as_bytes()), "x_7");
        assert_eq!(folded_frame(b"x\x1b[2J"), "x\\x1b[2J");
    }

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
    fn names_cannot_break_out_of_html() {
        assert_eq!(
            html("<script>\"a\" & 'b'"),
            "&lt;script&gt;&quot;a&quot; &amp; &#39;b&#39;"
        );
    }

    #[test]
    fn json_cannot_end_its_script_element() {
        let json = serde_json::to_string("</script><!--").unwrap();
        let safe = json_in_script(&json);
        assert!(!safe.contains('<'));
        assert_eq!(
            serde_json::from_str::<String>(&safe).unwrap(),
            "</script><!--"
        );
    }

    #[test]
    fn excerpts_show_bytes_and_stop() {
        assert_eq!(excerpt(b"ab\tc\x00\xff"), "ab\\tc\\x00\\xff");
        assert_eq!(excerpt(&[b'x'; 50]).chars().count(), EXCERPT_BYTES + 1);
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
