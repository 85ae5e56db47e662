//! `-hi` bands named from the program itself (`--binary PROG`).
//!
//! A heap profile by info table (`+RTS -hi`, GHC 9.2 on) names each band by the table's
//! address (`0x78dcd0`) unless the module was built with `-finfo-table-map`, whose IPE
//! events the eventlog reader names it from. Without them, the program's own symbol
//! table still knows most tables: with tables next to code (GHC's default on x86-64
//! and AArch64) an info table is the [`INFO_TABLE_BYTES`] just before its `_info` label,
//! so the band `0x78dcd0` is `ghczmprim_GHCziTypes_ZC_con_info` at `0x78dce0`, Z-decoded
//! `GHC.Types.:`. A closure local to a module (a thunk, a lambda) has no symbol of its
//! own: it is named after the `_info` symbol before it, within [`GUESS_REACH`], as
//! `near Main.go 0x40ad08` — a guess, marked as one.
//!
//! The binary is untrusted input as a profile is: its symbols are read with the
//! `object` crate (ELF only), at most [`MAX_SYMBOLS`] of them, each name cut at
//! [`MAX_SYMBOL_NAME`] bytes.

use std::path::{Path, PathBuf};

use crate::profile::Profile;

/// ELF's flag of a section that holds code.
const SHF_EXECINSTR: u64 = 0x4;

/// The size of a standard info table (`StgInfoTable`) on a 64-bit target with tables
/// next to code: the band's address is its start, the `_info` label its end.
pub const INFO_TABLE_BYTES: u64 = 16;

/// How far after the nearest `_info` symbol a table without one may be and still be
/// guessed to belong to it (a module's local closures follow their parent's code).
pub const GUESS_REACH: u64 = 64 * 1024;

/// The most symbols kept from one binary (a statically linked GHC program has about
/// 50,000; a very large one a few hundred thousand): 40 MB of them at most.
pub const MAX_SYMBOLS: usize = 1 << 20;

/// The longest symbol name kept, in bytes (Z-encoded names of deep modules are long).
pub const MAX_SYMBOL_NAME: usize = 1024;

/// A program's code symbols, by address.
#[derive(Debug, Clone)]
pub struct InfoNames {
    /// The program, for messages.
    pub path: PathBuf,
    symbols: Vec<(u64, Box<str>)>,
    /// Symbols past [`MAX_SYMBOLS`] were left out.
    pub cut: bool,
    /// How many symbols the program's table holds, in code or not: none is a stripped
    /// program; some, none of them in code, is not (what to do differs).
    pub in_table: usize,
}

/// What a table's address is named.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Naming {
    /// Its own `_info` symbol, decoded.
    Exact(String),
    /// The `_info` symbol before it, decoded: a guess.
    Near(String),
}

/// How many bands [`name_bands`] named.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Named {
    /// By their own symbol.
    pub exact: usize,
    /// By the symbol before them (a guess).
    pub near: usize,
    /// Bands named by an address that no symbol names.
    pub left: usize,
}

impl InfoNames {
    /// Reads `path`'s symbol table.
    pub fn read(path: &Path) -> Result<InfoNames, String> {
        Self::read_at_most(path, MAX_SYMBOLS)
    }

    /// [`InfoNames::read`], keeping at most `limit` symbols.
    pub fn read_at_most(path: &Path, limit: usize) -> Result<InfoNames, String> {
        use object::{
            Object, ObjectSection, ObjectSymbol, SectionFlags, SectionKind, SymbolKind,
            SymbolSection,
        };
        let shown = path.display();
        // Asked before opening: a FIFO's open waits for a writer, a device never ends.
        let meta = std::fs::metadata(path).map_err(|e| format!("{shown}: cannot read: {e}"))?;
        if !meta.is_file() {
            return Err(format!(
                "{shown}: not a regular file: --binary reads the program's own file, for its \
                 symbol table"
            ));
        }
        let opened = std::fs::File::open(path).map_err(|e| format!("{shown}: cannot read: {e}"))?;
        // Mapped: the symbol table is read where it is, not the whole program (a sparse
        // gigabyte costs the pages touched); a file too small to map is read.
        let mapped = super::mapped::map(&opened, u64::MAX);
        let read;
        let data: &[u8] = match &mapped {
            Some(map) => map,
            None => {
                read = std::fs::read(path).map_err(|e| format!("{shown}: cannot read: {e}"))?;
                &read
            }
        };
        let file = object::File::parse(data).map_err(|e| {
            format!("{shown}: not a program --binary can read (an ELF executable): {e}")
        })?;
        // GHC's `_info` labels are data symbols (OBJECT) in the code section, C functions
        // function symbols: every symbol of the code is kept, by its section. A section
        // is code by its flag, which a symbols-only copy (`objcopy --only-keep-debug`)
        // keeps though its contents are gone.
        let code: Vec<_> = (file.sections())
            .filter(|s| {
                s.kind() == SectionKind::Text
                    || matches!(s.flags(), SectionFlags::Elf { sh_flags } if sh_flags & SHF_EXECINSTR != 0)
            })
            .map(|s| s.index().0)
            .collect();
        // In index order, as the sections are listed: a symbol's section is looked up.
        debug_assert!(code.is_sorted());
        let mut symbols = Vec::new();
        let mut cut = false;
        let mut in_table = 0;
        for symbol in file.symbols() {
            in_table += 1;
            let in_code = matches!(symbol.section(), SymbolSection::Section(i) if code.binary_search(&i.0).is_ok());
            if !in_code
                || !matches!(
                    symbol.kind(),
                    SymbolKind::Text | SymbolKind::Data | SymbolKind::Unknown
                )
            {
                continue;
            }
            let Ok(name) = symbol.name() else { continue };
            if symbols.len() == limit {
                cut = true;
                break;
            }
            let mut end = name.len().min(MAX_SYMBOL_NAME);
            while !name.is_char_boundary(end) {
                end -= 1;
            }
            symbols.push((symbol.address(), name[..end].into()));
        }
        let mut names = InfoNames::of(path, symbols, cut);
        names.in_table = in_table;
        Ok(names)
    }

    /// The names of `symbols`, one per address decided once: its `_info` label where it
    /// has one (the first in order), else its first name. A band's lookup is then one
    /// binary search, however many symbols share its address.
    fn of(path: &Path, mut symbols: Vec<(u64, Box<str>)>, cut: bool) -> InfoNames {
        symbols.sort_unstable_by(|(a, x), (b, y)| {
            (a.cmp(b))
                .then_with(|| (!x.ends_with("_info")).cmp(&!y.ends_with("_info")))
                .then_with(|| x.cmp(y))
        });
        symbols.dedup_by_key(|(address, _)| *address);
        let in_table = symbols.len();
        InfoNames {
            path: path.to_path_buf(),
            symbols,
            cut,
            in_table,
        }
    }

    /// Whether no symbol of the program's code was kept (see [`InfoNames::in_table`]
    /// for whether it has a table at all).
    pub fn is_empty(&self) -> bool {
        self.symbols.is_empty()
    }

    /// How many addresses were kept (each with its one name).
    pub fn len(&self) -> usize {
        self.symbols.len()
    }

    /// What the info table at `table` is named, if anything.
    pub fn name(&self, table: u64) -> Option<Naming> {
        let label = table.checked_add(INFO_TABLE_BYTES)?;
        let from = self.symbols.partition_point(|(a, _)| *a < label);
        if let Some((_, name)) =
            (self.symbols.get(from)).filter(|(a, n)| *a == label && n.ends_with("_info"))
        {
            return Some(Naming::Exact(decode_symbol(name)));
        }
        let (before, name) = self.symbols[..from].last()?;
        (name.ends_with("_info") && label - before <= GUESS_REACH)
            .then(|| Naming::Near(decode_symbol(name)))
    }
}

/// Names `profile`'s bands that are info-table addresses (`0x…`) from `names`. A name
/// already taken keeps its address too, as the eventlog reader's IPE names do.
pub fn name_bands(profile: &mut Profile, names: &InfoNames) -> Named {
    let mut named = Named::default();
    let mut taken: std::collections::HashSet<Box<[u8]>> =
        profile.bands.names().iter().cloned().collect();
    for band in profile.bands.names_mut() {
        let Some(table) = address(band) else { continue };
        let mut new = match names.name(table) {
            Some(Naming::Exact(name)) => {
                named.exact += 1;
                name.into_bytes()
            }
            Some(Naming::Near(name)) => {
                named.near += 1;
                format!("near {name} {}", String::from_utf8_lossy(band)).into_bytes()
            }
            None => {
                named.left += 1;
                continue;
            }
        };
        if taken.contains(&new[..]) {
            new.push(b' ');
            new.extend_from_slice(band);
        }
        taken.insert(new.clone().into());
        *band = new.into();
    }
    named
}

/// The address a `-hi` band is named by (`0x78dcd0`).
fn address(band: &[u8]) -> Option<u64> {
    let hex = std::str::from_utf8(band).ok()?.strip_prefix("0x")?;
    u64::from_str_radix(hex, 16).ok()
}

/// An `_info` symbol as a Haskell name: `ghczmprim_GHCziTypes_ZC_con_info` is
/// `GHC.Types.:`, `Main_zdwgo_info` `Main.$wgo`, the runtime's `stg_ARR_WORDS_info`
/// `ARR_WORDS`. The package (the first of three parts) is left out, as `-hT` and IPE
/// names leave it.
pub fn decode_symbol(symbol: &str) -> String {
    let body = symbol.strip_suffix("_info").unwrap_or(symbol);
    let body = (body
        .strip_suffix("_con")
        .or_else(|| body.strip_suffix("_static")))
    .unwrap_or(body);
    if let Some(rts) = body.strip_prefix("stg_") {
        return rts.to_owned();
    }
    let parts: Vec<&str> = body.split('_').collect();
    match parts.as_slice() {
        [_package, module, name @ ..] if !name.is_empty() => {
            format!("{}.{}", z_decode(module), z_decode(&name.join("_")))
        }
        [module, name] => format!("{}.{}", z_decode(module), z_decode(name)),
        _ => z_decode(body),
    }
}

/// GHC's Z-decoding (`GHC.Utils.Encoding`): `zi` is `.`, `zd` `$`, `ZC` `:`, `Z3T`
/// `(,,)`, `z3bbU` the character U+3BB, and so on. What does not decode is kept as
/// written.
pub fn z_decode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        rest = &rest[c.len_utf8()..];
        if c != 'z' && c != 'Z' {
            out.push(c);
            continue;
        }
        let Some(next) = rest.chars().next() else {
            out.push(c);
            break;
        };
        if let Some((decoded, used)) = escape(c, rest) {
            out.push_str(&decoded);
            rest = &rest[used..];
        } else {
            out.push(c);
            out.push(next);
            rest = &rest[next.len_utf8()..];
        }
    }
    out
}

/// One escape after `z` or `Z` (`rest` follows it): what it stands for and how many
/// bytes of `rest` it took.
fn escape(lead: char, rest: &str) -> Option<(String, usize)> {
    let next = rest.chars().next()?;
    let one = |c: char| Some((c.to_string(), 1));
    match (lead, next) {
        ('z', 'z') => one('z'),
        ('z', 'a') => one('&'),
        ('z', 'b') => one('|'),
        ('z', 'c') => one('^'),
        ('z', 'd') => one('$'),
        ('z', 'e') => one('='),
        ('z', 'g') => one('>'),
        ('z', 'h') => one('#'),
        ('z', 'i') => one('.'),
        ('z', 'l') => one('<'),
        ('z', 'm') => one('-'),
        ('z', 'n') => one('!'),
        ('z', 'p') => one('+'),
        ('z', 'q') => one('\''),
        ('z', 'r') => one('\\'),
        ('z', 's') => one('/'),
        ('z', 't') => one('*'),
        ('z', 'u') => one('_'),
        ('z', 'v') => one('%'),
        ('Z', 'Z') => one('Z'),
        ('Z', 'L') => one('('),
        ('Z', 'R') => one(')'),
        ('Z', 'M') => one('['),
        ('Z', 'N') => one(']'),
        ('Z', 'C') => one(':'),
        ('Z', 'S') => one(' '),
        (_, d) if d.is_ascii_digit() => numbered(lead, rest),
        _ => None,
    }
}

/// `Z3T` (a tuple), `Z3H` (an unboxed tuple), `z3bbU` (a character by its hex code).
fn numbered(lead: char, rest: &str) -> Option<(String, usize)> {
    let digits = rest.bytes().take_while(u8::is_ascii_hexdigit).count();
    let end = rest.as_bytes().get(digits).copied();
    match (lead, end) {
        ('z', Some(b'U')) => {
            let c = char::from_u32(u32::from_str_radix(&rest[..digits], 16).ok()?)?;
            Some((c.to_string(), digits + 1))
        }
        ('Z', _) => {
            let decimal = rest.bytes().take_while(u8::is_ascii_digit).count();
            let n: usize = rest[..decimal].parse().ok().filter(|n| *n <= 64)?;
            let commas = ",".repeat(n.saturating_sub(1));
            match rest.as_bytes().get(decimal) {
                Some(b'T') => Some((format!("({commas})"), decimal + 1)),
                Some(b'H') if n == 0 => Some(("(# #)".into(), decimal + 1)),
                Some(b'H') => Some((format!("(#{commas}#)"), decimal + 1)),
                _ => None,
            }
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_of_many_symbols_has_one_name_decided_once() {
        // 400,000 symbols at one address (a hostile binary), its one _info label among them.
        let label = 0x40_0010;
        let mut symbols: Vec<(u64, Box<str>)> = (0..400_000)
            .map(|k| (label, format!("s{k}").into()))
            .collect();
        symbols.insert(123_456, (label, "Main_go_info".into()));
        symbols.push((label + 0x100, "Main_other_closure".into()));
        let names = InfoNames::of(Path::new("prog"), symbols, false);
        assert_eq!(names.len(), 2, "one name per address");
        let table = label - INFO_TABLE_BYTES;
        assert_eq!(names.name(table), Some(Naming::Exact("Main.go".into())));
        // A table after it, past a symbol that is no _info label: none is guessed from it.
        assert_eq!(names.name(label + 0x200 - INFO_TABLE_BYTES), None);
        assert_eq!(
            names.name(label + 0x80 - INFO_TABLE_BYTES),
            Some(Naming::Near("Main.go".into()))
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_binary_that_is_no_regular_file_is_refused_before_it_is_opened() {
        let dir = std::env::temp_dir().join(format!("hpgraph-binary-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        let mut refused = vec![Path::new("/dev/zero").to_path_buf(), dir.clone()];
        if made.is_ok_and(|s| s.success()) {
            refused.push(fifo); // opening it would wait for a writer for ever
        }
        for path in refused {
            let why = InfoNames::read(&path).unwrap_err();
            assert!(why.contains("not a regular file"), "{why}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn symbols_decode_as_ghc_encodes_them() {
        // Examples of GHC's own Note [Z-encoding] (GHC.Utils.Encoding).
        for (encoded, decoded) in [
            ("Trak", "Trak"),
            ("foozuwib", "foo_wib"),
            ("zg", ">"),
            ("zg1", ">1"),
            ("foozh", "foo#"),
            ("foozhzh", "foo##"),
            ("foozhzh1", "foo##1"),
            ("fooZZ", "fooZ"),
            ("ZCzp", ":+"),
            ("Z0T", "()"),
            ("Z5T", "(,,,,)"),
            ("Z3H", "(#,,#)"),
            ("z3bbU", "\u{3bb}"),
        ] {
            assert_eq!(z_decode(encoded), decoded, "{encoded}");
        }
        assert_eq!(
            decode_symbol("ghczmprim_GHCziTypes_ZC_con_info"),
            "GHC.Types.:"
        );
        assert_eq!(
            decode_symbol("ghczmprim_GHCziTypes_Dzh_con_info"),
            "GHC.Types.D#"
        );
        assert_eq!(decode_symbol("stg_ARR_WORDS_info"), "ARR_WORDS");
        assert_eq!(decode_symbol("Main_zdwgo_info"), "Main.$wgo");
        assert_eq!(
            decode_symbol("containerszm0zi6zi7_DataziMapziInternal_Bin_con_info"),
            "Data.Map.Internal.Bin"
        );
        // What does not decode stays as written, whatever it holds.
        assert_eq!(z_decode("z"), "z");
        assert_eq!(z_decode("zQ"), "zQ");
        assert_eq!(z_decode("Z99999999999T"), "Z99999999999T");
        assert_eq!(
            z_decode("z0d800U"),
            "z0d800U",
            "a surrogate is no character"
        );
    }
}
