//! `--binary PROG`: a `-hi` profile's address bands named from the program's symbols.
//! The fixture is a GHC 9.6.6 run of fixtures/programs/Run.hs built without
//! `-finfo-table-map` (scripts/regen-binary-fixture.sh) and the program's symbol table.
//! The references: binutils' `nm` for which symbol sits where, and GHC's own Z-decoder
//! (`GHC.Utils.Encoding.zDecodeString`, through `ghc -e`) for what a symbol's parts say.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{Scratch, fixtures, have, hpgraph};

const EVENTLOG: &str = "binary/run-hi-ghc-9.6.6.eventlog";

/// The program's symbols, unpacked into `scratch`.
fn symbols(scratch: &Scratch) -> PathBuf {
    let out = scratch.path("run.sym");
    let xz = Command::new("xz")
        .arg("-dc")
        .arg(fixtures().join("binary/run-ghc-9.6.6.sym.xz"))
        .output()
        .unwrap();
    crate::common::assert_ok(&xz);
    std::fs::write(&out, xz.stdout).unwrap();
    out
}

/// Every band's name in the profile's own order (JSON keeps it).
fn bands(dir: &Path, extra: &[&str]) -> (Vec<String>, String) {
    let log = fixtures().join(EVENTLOG);
    let mut args = vec![log.to_str().unwrap(), "--format", "json", "-o", "-"];
    args.extend_from_slice(extra);
    let out = hpgraph(dir, &args, None);
    crate::common::assert_ok(&out);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let names = (v["bands"].as_array().unwrap().iter())
        .map(|b| b["name"].as_str().unwrap().to_owned())
        .collect();
    (names, String::from_utf8_lossy(&out.stderr).into_owned())
}

/// `nm`'s `_info` symbols of `program`, by address.
fn info_symbols(program: &Path) -> BTreeMap<u64, Vec<String>> {
    let nm = Command::new("nm")
        .arg("--defined-only")
        .arg(program)
        .output()
        .unwrap();
    crate::common::assert_ok(&nm);
    let mut by_address: BTreeMap<u64, Vec<String>> = BTreeMap::new();
    for line in String::from_utf8(nm.stdout).unwrap().lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        if let [address, _, name] = f[..]
            && name.ends_with("_info")
        {
            let address = u64::from_str_radix(address, 16).unwrap();
            by_address.entry(address).or_default().push(name.to_owned());
        }
    }
    by_address
}

/// GHC's own decoding of each Z-encoded text.
fn ghc_decode(texts: &[String]) -> Vec<String> {
    let list = serde_json::to_string(texts).unwrap(); // a Haskell list of strings alike
    let expr = format!("mapM_ (putStrLn . GHC.Utils.Encoding.zDecodeString) {list}");
    let out = Command::new("ghc")
        .args(["-package", "ghc", "-e", &expr])
        .output()
        .unwrap();
    crate::common::assert_ok(&out);
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

/// A symbol's module and name, Z-encoded, as GHC lays it out: `PACKAGE_MODULE_NAME_info`
/// (or `_con_info`), `MODULE_NAME_info` for the main package, `stg_NAME_info` for the
/// runtime's own (the encoded parts hold no `_`: GHC writes it `zu`).
fn parts(symbol: &str) -> (Option<String>, String) {
    let body = symbol.strip_suffix("_info").unwrap();
    let body = body.strip_suffix("_con").unwrap_or(body);
    if let Some(rts) = body.strip_prefix("stg_") {
        return (None, rts.to_owned());
    }
    let p: Vec<&str> = body.split('_').collect();
    match p[..] {
        [_, module, name] | [module, name] => (Some(module.to_owned()), name.to_owned()),
        _ => panic!("an _info symbol laid out otherwise: {symbol}"),
    }
}

#[test]
fn every_address_16_bytes_before_an_info_symbol_is_named_from_it() {
    if !have("ghc", &["--version"]) || !have("nm", &["--version"]) || !have("xz", &["--version"]) {
        return;
    }
    let scratch = Scratch::new("binary");
    let program = symbols(&scratch);
    let (addresses, _) = bands(&scratch.0, &[]);
    let binary = program.to_str().unwrap();
    let (named, said) = bands(&scratch.0, &["--binary", binary]);
    assert_eq!(addresses.len(), named.len());
    assert!(said.contains("info tables named by their symbol"), "{said}");
    let symbols = info_symbols(&program);
    let mut expected = Vec::new();
    for (address, name) in addresses.iter().zip(&named) {
        let table = u64::from_str_radix(address.strip_prefix("0x").unwrap(), 16).unwrap();
        match symbols.get(&(table + 16)) {
            Some(syms) => {
                let (module, label) = parts(&syms[0]);
                expected.push((name.clone(), module, label));
            }
            None => assert!(
                name == address || name.starts_with("near "),
                "{address} has no symbol of its own, yet is named {name}"
            ),
        }
    }
    assert!(
        expected.len() >= 20,
        "most tables have a symbol: {}",
        expected.len()
    );
    let encoded: Vec<String> = (expected.iter())
        .flat_map(|(_, m, l)| m.iter().cloned().chain([l.clone()]))
        .collect();
    let mut decoded = ghc_decode(&encoded).into_iter();
    for (ours, module, _) in &expected {
        let module = module.as_ref().map(|_| decoded.next().unwrap());
        let label = decoded.next().unwrap();
        let theirs = module.map_or(label.clone(), |m| format!("{m}.{label}"));
        assert_eq!(ours, &theirs);
    }
    // The two largest bands, 91% of the heap, are the list's cons cells and the map's nodes.
    assert!(named.contains(&"GHC.Types.:".to_owned()), "{named:?}");
    assert!(
        named.contains(&"Data.Map.Internal.Bin".to_owned()),
        "{named:?}"
    );
}

#[test]
fn a_stripped_program_gives_a_warning_and_the_addresses() {
    if !have("strip", &["--version"]) || !have("xz", &["--version"]) {
        return;
    }
    let scratch = Scratch::new("binary-stripped");
    let program = symbols(&scratch);
    let stripped = scratch.path("stripped");
    let strip = Command::new("strip")
        .arg("-o")
        .arg(&stripped)
        .arg(&program)
        .output()
        .unwrap();
    crate::common::assert_ok(&strip);
    let (addresses, _) = bands(&scratch.0, &[]);
    let (named, said) = bands(&scratch.0, &["--binary", stripped.to_str().unwrap()]);
    assert_eq!(named, addresses);
    assert!(
        said.contains("has no symbol table (it was stripped)"),
        "{said}"
    );
    // Not a program at all: an error that names the file, and nothing written.
    let not = scratch.path("not-a-program");
    std::fs::write(&not, b"#!/bin/sh\n").unwrap();
    let log = fixtures().join(EVENTLOG);
    let out = hpgraph(
        &scratch.0,
        &[
            log.to_str().unwrap(),
            "--binary",
            not.to_str().unwrap(),
            "-o",
            "x.svg",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not-a-program: not a program"));
    assert!(!scratch.path("x.svg").exists());
}

/// A minimal ELF executable of `n` `_info` symbols, 16 bytes apart, in a code section
/// without contents (as `objcopy --only-keep-debug` leaves it).
fn elf_of_symbols(n: usize, name: &str) -> Vec<u8> {
    elf(&Layout {
        symbols: n,
        name,
        ..Layout::default()
    })
}

/// What [`elf`] lays out: `symbols` symbols from `base`, `step` bytes apart, named
/// `name` (or, `named_last`, only the last; the others `A_filler`, no `_info` label and first in name order), in
/// the code section `in_section` (1: `.text`; from 5 on, one of the `more` code
/// sections after the others, past 0xff00 sections in all counted in the first header,
/// as ELF's extended numbering has it).
struct Layout<'a> {
    symbols: usize,
    name: &'a str,
    base: u64,
    step: u64,
    more: usize,
    in_section: u16,
    named_last: bool,
}

impl Default for Layout<'_> {
    fn default() -> Self {
        Layout {
            symbols: 1,
            name: "x_info",
            base: 0x1000,
            step: 16,
            more: 0,
            in_section: 1,
            named_last: false,
        }
    }
}

fn elf(l: &Layout) -> Vec<u8> {
    let (n, base, step, more) = (l.symbols, l.base, l.step, l.more);
    let shstrtab = b"\0.text\0.symtab\0.strtab\0.shstrtab\0";
    let strtab = &[b"\0", l.name.as_bytes(), b"\0A_filler\0"].concat()[..];
    let filler = 2 + l.name.len() as u32;
    let mut symtab = vec![0u8; 24];
    for i in 0..n as u64 {
        let named = !l.named_last || i + 1 == n as u64;
        symtab.extend_from_slice(&(if named { 1 } else { filler }).to_le_bytes());
        symtab.extend_from_slice(&[0x11, 0]); // a global object
        symtab.extend_from_slice(&l.in_section.to_le_bytes());
        symtab.extend_from_slice(&(base + step * i).to_le_bytes());
        symtab.extend_from_slice(&0u64.to_le_bytes());
    }
    let (sym_off, str_off) = (64u64, 64 + symtab.len() as u64);
    let shstr_off = str_off + strtab.len() as u64;
    let sh_off = (shstr_off + shstrtab.len() as u64).next_multiple_of(8);
    let mut elf = Vec::new();
    elf.extend_from_slice(b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0");
    for (v, w) in [
        (2u64, 2),
        (62, 2),
        (1, 4),
        (0, 8),
        (0, 8),
        (sh_off, 8),
        (0, 4),
        (64, 2),
        (56, 2),
        (0, 2),
        (64, 2),
        (
            if 5 + more < 0xff00 {
                5 + more as u64
            } else {
                0
            },
            2,
        ),
        (4, 2),
    ] {
        elf.extend_from_slice(&v.to_le_bytes()[..w]);
    }
    elf.extend_from_slice(&symtab);
    elf.extend_from_slice(strtab);
    elf.extend_from_slice(shstrtab);
    elf.resize(sh_off as usize, 0);
    let text_size = step * n as u64 + 16;
    let count = if 5 + more < 0xff00 {
        0
    } else {
        5 + more as u64
    };
    // name, type, flags, addr, offset, size, link, info, align, entsize
    let sections: [[u64; 10]; 5] = [
        [0, 0, 0, 0, 0, count, 0, 0, 0, 0],
        [1, 8, 6, base, 0, text_size, 0, 0, 16, 0],
        [7, 2, 0, 0, sym_off, symtab.len() as u64, 3, 1, 8, 24],
        [15, 3, 0, 0, str_off, strtab.len() as u64, 0, 0, 1, 0],
        [23, 3, 0, 0, shstr_off, shstrtab.len() as u64, 0, 0, 1, 0],
    ];
    let code = [1, 8, 6, base, 0, text_size, 0, 0, 16, 0];
    for s in sections.into_iter().chain(std::iter::repeat_n(code, more)) {
        for (k, v) in s.iter().enumerate() {
            let width = if matches!(k, 0 | 1 | 6 | 7) { 4 } else { 8 };
            elf.extend_from_slice(&v.to_le_bytes()[..width]);
        }
    }
    elf
}

#[test]
fn symbols_past_the_limit_are_left_out_and_said() {
    use hpgraph::input::symbols::{InfoNames, MAX_SYMBOLS, Naming};
    let scratch = Scratch::new("binary-limit");
    let small = scratch.path("small");
    std::fs::write(&small, elf_of_symbols(3, "x_info")).unwrap();
    let names = InfoNames::read(&small).unwrap();
    assert_eq!((names.len(), names.cut), (3, false));
    assert_eq!(names.name(0x1000 - 16), Some(Naming::Exact("x".into())));
    // A name past MAX_SYMBOL_NAME is cut: its `_info` end is gone, so it names nothing.
    let long = scratch.path("long");
    let name = format!(
        "{}_info",
        "x".repeat(hpgraph::input::symbols::MAX_SYMBOL_NAME)
    );
    std::fs::write(&long, elf_of_symbols(1, &name)).unwrap();
    let names = InfoNames::read(&long).unwrap();
    assert_eq!((names.len(), names.name(0x1000 - 16)), (1, None));
    let big = scratch.path("big");
    std::fs::write(&big, elf_of_symbols(MAX_SYMBOLS + 1, "x_info")).unwrap();
    let names = InfoNames::read(&big).unwrap();
    assert_eq!((names.len(), names.cut), (MAX_SYMBOLS, true));
    let log = fixtures().join(EVENTLOG);
    let out = hpgraph(
        &scratch.0,
        &[
            log.to_str().unwrap(),
            "--binary",
            big.to_str().unwrap(),
            "--summary",
        ],
        None,
    );
    crate::common::assert_ok(&out);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains(&format!("more than {MAX_SYMBOLS} symbols")),
        "{said}"
    );
}

/// A program whose symbols all lie outside its code (no section marked executable holds
/// them) is not called stripped: it has a table, and the message says what it holds.
#[test]
fn symbols_none_of_them_in_code_are_not_called_stripped() {
    let scratch = Scratch::new("binary-no-code");
    let mut elf = elf_of_symbols(3, "x_info");
    // The section header table is the file's end: five headers of 64 bytes. The code
    // section's flags (at 8 in its header) lose SHF_EXECINSTR: ALLOC only.
    let text_header = elf.len() - 4 * 64;
    elf[text_header + 8] = 2;
    let program = scratch.path("data-only");
    std::fs::write(&program, &elf).unwrap();
    let log = fixtures().join(EVENTLOG);
    let out = hpgraph(
        &scratch.0,
        &[
            log.to_str().unwrap(),
            "--binary",
            program.to_str().unwrap(),
            "--summary",
        ],
        None,
    );
    crate::common::assert_ok(&out);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("has 3 symbols, none of them in its code"),
        "{said}"
    );
    assert!(!said.contains("stripped"), "{said}");
}

/// A `.hp` of one census whose bands are `names`, 8 bytes each.
fn one_census(names: impl Iterator<Item = String>) -> String {
    let mut hp = String::from(
        "JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\nBEGIN_SAMPLE 0\n",
    );
    for name in names {
        hp += &format!("{name}\t8\n");
    }
    hp + "END_SAMPLE 0\nBEGIN_SAMPLE 1\nEND_SAMPLE 1\n"
}

/// The fifth review's `--binary` cases (#77 rows 1 and 2), measured by the kernel: a
/// program of 400,000 symbols at one address named 61,440 bands, each a spelling of it
/// (case and leading zeros), in 56.6 s; a program of 150,000 code sections took 39-76 s
/// to find its symbols' sections.
#[test]
fn many_symbols_at_one_address_or_many_code_sections_are_read_within_bounds() {
    use crate::common::measure::{bounded, measured};
    let scratch = Scratch::new("binary-bounds");
    // The table at 0xabcdefabcdef0, its `_info` label 16 bytes on: twelve letters in
    // every case, each behind up to 14 zeros.
    let (table, label) = (0xa_bcde_fabc_def0_u64, 0xa_bcde_fabc_df00_u64);
    let one = elf(&Layout {
        symbols: 400_000,
        name: "Main_go_info",
        base: label,
        step: 0,
        named_last: true,
        ..Layout::default()
    });
    std::fs::write(scratch.path("one.elf"), one).unwrap();
    let hex = format!("{table:x}");
    let spellings = (0..15).flat_map(|zeros| {
        let hex = hex.clone();
        (0..1u32 << 12).map(move |case| {
            let mut letter = 0;
            let cased: String = (hex.chars())
                .map(|c| match c {
                    'a'..='f' => {
                        letter += 1;
                        match case >> (letter - 1) & 1 {
                            1 => c.to_ascii_uppercase(),
                            _ => c,
                        }
                    }
                    c => c,
                })
                .collect();
            format!("0x{}{cased}", "0".repeat(zeros))
        })
    });
    std::fs::write(scratch.path("one.hp"), one_census(spellings)).unwrap();
    let m = measured(
        &scratch.0,
        &[
            "one.hp", "--binary", "one.elf", "--format", "csv", "-o", "one.csv",
        ],
    );
    // A band's lookup is one search: linear work takes a tenth of a second, and a scan of
    // the address's symbols a band many seconds.
    let linear = std::time::Duration::from_secs(2);
    bounded(
        &m,
        "61,440 spellings of an address of 400,000 symbols",
        linear,
    );
    assert!(m.status.success(), "{}", m.stderr);
    let csv = std::fs::read_to_string(scratch.path("one.csv")).unwrap();
    let header = csv.lines().next().unwrap();
    assert_eq!(
        header.matches("Main.go").count(),
        61_440,
        "{}",
        &header[..200]
    );
    // 150,000 code sections, the symbols in one far down the list.
    let program = elf(&Layout {
        symbols: 150_000,
        more: 150_000,
        in_section: 0xfe00,
        ..Layout::default()
    });
    std::fs::write(scratch.path("sections.elf"), program).unwrap();
    let bands = (0..90_000u64).map(|k| format!("0x{:x}", 0x1000 - 16 + 16 * k));
    std::fs::write(scratch.path("sections.hp"), one_census(bands)).unwrap();
    let m = measured(
        &scratch.0,
        &[
            "sections.hp",
            "--binary",
            "sections.elf",
            "--format",
            "csv",
            "-o",
            "s.csv",
        ],
    );
    bounded(&m, "150,000 code sections", linear);
    assert!(m.status.success(), "{}", m.stderr);
    assert!(!m.stderr.contains("stripped"), "{}", m.stderr);
    let csv = std::fs::read_to_string(scratch.path("s.csv")).unwrap();
    let header = csv.lines().next().unwrap();
    assert_eq!(header.matches(",x").count(), 90_000, "{}", &header[..200]);
}

/// `--binary` of what is no program (#77 rows 3 and 4), measured by the kernel: a device
/// that never ends and a FIFO (out of memory; waiting for ever) are refused before they
/// are opened, a sparse gigabyte is mapped, not read (1,031 MB), and refused as no ELF.
#[test]
fn a_binary_of_a_device_a_fifo_or_a_sparse_gigabyte_is_refused_within_bounds() {
    use crate::common::measure::{CASE_TIME, bounded, measured};
    let scratch = Scratch::new("binary-not-a-program");
    std::fs::File::create(scratch.path("huge"))
        .unwrap()
        .set_len(1 << 30)
        .unwrap();
    let made = Command::new("mkfifo").arg(scratch.path("fifo")).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    let log = fixtures().join(EVENTLOG);
    for (program, says) in [
        ("/dev/zero", "not a regular file"),
        ("fifo", "not a regular file"),
        ("huge", "not a program --binary can read"),
    ] {
        let m = measured(
            &scratch.0,
            &[log.to_str().unwrap(), "--binary", program, "--summary"],
        );
        bounded(&m, program, CASE_TIME);
        assert!(
            matches!(m.status.code(), Some(1 | 2)),
            "{program}: {}",
            m.stderr
        );
        assert!(
            m.stderr.contains(&format!("hpgraph: {program}: {says}")),
            "{program}: {}",
            m.stderr
        );
    }
}
