//! Helpers shared by the integration tests: fixture paths, scratch folders, running the
//! built binary.

#![allow(dead_code)]

pub mod eventlog;
pub mod hp;
pub mod measure;
pub mod rts;
pub mod served;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};

pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

/// The bytes of `fixtures/profiles/NAME.hp`: the real programs' `.hp` files.
pub fn profile(name: &str) -> Vec<u8> {
    std::fs::read(fixtures().join(format!("profiles/{name}.hp"))).unwrap()
}

/// What a run of the binary said on standard error.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A scratch folder, removed when dropped.
pub struct Scratch(pub PathBuf);

impl Scratch {
    pub fn new(tag: &str) -> Scratch {
        static N: AtomicU32 = AtomicU32::new(0);
        let dir = std::env::temp_dir().join(format!(
            "hpgraph-test-{tag}-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The binary, to run in `dir` with nothing on its standard input: the one way every
/// test starts hpgraph (a test that needs a pipe, a signal or a file for an output
/// stream sets it on this).
pub fn command(dir: impl AsRef<Path>) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hpgraph"));
    cmd.current_dir(dir).stdin(Stdio::null());
    cmd
}

/// Runs hpgraph in `dir` with `args`, optionally feeding `stdin`.
pub fn hpgraph(dir: &Path, args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut cmd = command(dir);
    cmd.args(args).stdout(Stdio::piped()).stderr(Stdio::piped());
    cmd.stdin(if stdin.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    });
    let mut child = cmd.spawn().expect("run hpgraph");
    if let Some(input) = stdin {
        use std::io::Write;
        let mut s = child.stdin.take().unwrap();
        let input = input.to_vec();
        std::thread::spawn(move || {
            let _ = s.write_all(&input);
        });
    }
    child.wait_with_output().expect("wait for hpgraph")
}

/// What hpgraph, run in `dir` with `args`, writes on standard output; the test fails,
/// showing hpgraph's messages, unless it succeeds.
pub fn hpgraph_ok(dir: &Path, args: &[&str]) -> Vec<u8> {
    let out = hpgraph(dir, args, None);
    assert!(
        out.status.success(),
        "hpgraph {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// `(title, fill)` of every filled SVG path that has a `<title>` (a band, by its full
/// name, or a mark's caret by its text), in document order.
pub fn titled_fills(svg: &str) -> Vec<(String, String)> {
    svg.split("<path ")
        .skip(1)
        .filter_map(|p| {
            let tag = &p[..p.find('>')?];
            let fill = &tag[tag.find(" fill=\"#")? + 7..];
            let fill = &fill[..fill.find('"')?];
            let title = &p[p.find("<title>")? + 7..p.find("</title>")?];
            (!tag.ends_with('/')).then(|| (title.to_string(), fill.to_string()))
        })
        .collect()
}

/// One `<text>` of an SVG: its start tag's attributes and what it reads, the tags inside
/// it (a `<tspan>` for each placed glyph) taken out; entities are left as written.
pub struct SvgText {
    pub attributes: String,
    pub text: String,
}

impl SvgText {
    /// The value of attribute `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        let at = self.attributes.find(&format!(" {name}=\""))? + name.len() + 3;
        let rest = &self.attributes[at..];
        Some(&rest[..rest.find('"')?])
    }
}

/// An XML text's characters: its entities read (`&#39;` as `'`, `&amp;` as `&`).
pub fn xml_text(xml: &str) -> String {
    (xml.replace("&lt;", "<").replace("&gt;", ">"))
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// What a reader sees of markup: its text without its tags.
pub fn without_markup(markup: &str) -> String {
    let (mut text, mut in_tag) = (String::new(), false);
    for c in markup.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    text
}

/// Asserts that a command succeeded, showing its standard error where it did not.
pub fn assert_ok(out: &Output) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// [`assert_ok`] of a command the failure names as `what` (its flags, its input).
pub fn assert_ok_as(out: &Output, what: std::fmt::Arguments) {
    assert!(
        out.status.success(),
        "{what}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Every `<text>` of an SVG, in document order.
pub fn svg_texts(svg: &str) -> Vec<SvgText> {
    svg.split("<text ")
        .skip(1)
        .map(|t| {
            let open = t.find('>').unwrap();
            let body = &t[open + 1..t.find("</text>").unwrap()];
            let text = without_markup(body);
            SvgText {
                attributes: format!(" {}", &t[..open]),
                text,
            }
        })
        .collect()
}

/// PostScript without the `%%Creator` line, the one line allowed to differ from hp2ps.
pub fn without_creator(ps: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(ps.len());
    for line in ps.split_inclusive(|&b| b == b'\n') {
        if !line.starts_with(b"%%Creator") {
            out.extend_from_slice(line);
        }
    }
    out
}

/// The first differing line of two texts, for a readable failure.
pub fn first_difference(ours: &[u8], theirs: &[u8]) -> String {
    let a: Vec<&[u8]> = ours.split(|&b| b == b'\n').collect();
    let b: Vec<&[u8]> = theirs.split(|&b| b == b'\n').collect();
    for (i, (x, y)) in a.iter().zip(&b).enumerate() {
        if x != y {
            return format!(
                "line {}: ours {:?}, hp2ps {:?}",
                i + 1,
                String::from_utf8_lossy(x),
                String::from_utf8_lossy(y)
            );
        }
    }
    format!("lengths differ: ours {} lines, hp2ps {}", a.len(), b.len())
}

/// hp2ps's PostScript with the one repair hpgraph makes to it on purpose: a line break (or
/// other control character) inside the job or date would end a header comment and run
/// the rest as PostScript, so in the header hpgraph writes a space instead. Applied to
/// hp2ps's bytes this changes nothing unless such a comment was broken.
pub fn with_header_comments_repaired(ps: &[u8]) -> Vec<u8> {
    let end = ps
        .windows(14)
        .position(|w| w == b"%%EndComments\n")
        .unwrap_or(0);
    let mut out = Vec::with_capacity(ps.len());
    for (i, &c) in ps[..end].iter().enumerate() {
        let continued = c == b'\n' && ps.get(i + 1).is_some_and(|&n| n != b'%') && i + 1 < end;
        if continued || (c < 0x20 && c != b'\t' && c != b'\n') {
            out.push(b' ');
        } else {
            out.push(c);
        }
    }
    out.extend_from_slice(&ps[end..]);
    out
}

/// ghc-events' reading of an eventlog's cost-centre samples (a `.samples` file of
/// scripts/samples-oracle.hs): each sample's time (ns) and stack, root first, as
/// `Module.label` names joined by `;` (inferno's folded form).
pub fn samples_oracle(path: &std::path::Path) -> Vec<(u64, String)> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut names = std::collections::BTreeMap::new();
    let mut samples = Vec::new();
    for line in text.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        match f[0] {
            "cc" => {
                names.insert(f[1].to_string(), format!("{}.{}", f[2], f[3]));
            }
            "sample" => {
                let stack: Vec<&str> = f[4].split(',').filter(|s| !s.is_empty()).collect();
                let folded: Vec<&str> = stack.iter().rev().map(|id| names[*id].as_str()).collect();
                samples.push((f[1].parse().unwrap(), folded.join(";")));
            }
            _ => {}
        }
    }
    samples
}

/// A small deterministic generator (xorshift64): the same generated cases on every run.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Whether `tool` is installed (it starts with `args`; `callgrind_annotate --version`
/// exits 255): CI installs the tools the tests read our output with; elsewhere a
/// missing one skips its test with a note, unless `CI` is set, when it fails.
pub fn have(tool: &str, args: &[&str]) -> bool {
    let ok = Command::new(tool).args(args).output().is_ok();
    if !ok {
        assert!(
            std::env::var_os("CI").is_none(),
            "{tool} is needed (.ci/run installs it)"
        );
        eprintln!("skipped: {tool} is not installed");
    }
    ok
}

/// A binary netpbm image as poppler's `pdftoppm` writes it (`P5` grey, `P6` RGB, no
/// comments): its magic, width, height and pixel bytes.
pub fn netpbm(bytes: &[u8]) -> (String, usize, usize, &[u8]) {
    let mut fields = Vec::new();
    let mut at = 0;
    while fields.len() < 4 {
        while bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        let start = at;
        while !bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        fields.push(String::from_utf8_lossy(&bytes[start..at]).into_owned());
    }
    let (w, h): (usize, usize) = (fields[1].parse().unwrap(), fields[2].parse().unwrap());
    let depth = if fields[0] == "P6" { 3 } else { 1 };
    let magic = fields.swap_remove(0);
    (magic, w, h, &bytes[at + 1..at + 1 + w * h * depth])
}

/// A field of a GHC report's header line, read from GHC's text: `report_header(text,
/// "total alloc")` is `195,520,104 bytes  (excludes profiling overheads)`.
pub fn report_header<'a>(text: &'a str, label: &str) -> &'a str {
    let line = (text.lines())
        .find(|l| l.trim_start().starts_with(label))
        .unwrap();
    line.split_once('=').unwrap().1.trim()
}

/// A report header's first figure, its commas left out: `total alloc`'s bytes.
pub fn report_figure(text: &str, label: &str) -> u64 {
    let first = report_header(text, label)
        .split_whitespace()
        .next()
        .unwrap();
    first.replace(',', "").parse().unwrap()
}

/// A PNG's width, height and RGBA pixels, row by row: 8-bit RGB or RGBA, not interlaced
/// (what hpgraph's PNG backend writes). Panics on anything else.
pub fn png_pixels(png: &[u8]) -> (usize, usize, Vec<[u8; 4]>) {
    use std::io::Read;
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "not a PNG");
    let (mut at, mut idat, mut head) = (8, Vec::new(), None);
    while at + 8 <= png.len() {
        let len = u32::from_be_bytes(png[at..at + 4].try_into().unwrap()) as usize;
        let (kind, data) = (&png[at + 4..at + 8], &png[at + 8..at + 8 + len]);
        match kind {
            b"IHDR" => head = Some((be(&data[0..4]), be(&data[4..8]), data[8], data[9], data[12])),
            b"IDAT" => idat.extend_from_slice(data),
            _ => {}
        }
        at += 12 + len;
    }
    let (w, h, depth, colour, interlace) = head.expect("an IHDR chunk");
    assert!(
        depth == 8 && (colour == 2 || colour == 6) && interlace == 0,
        "{depth} {colour}"
    );
    let bpp = if colour == 6 { 4 } else { 3 };
    let mut raw = Vec::new();
    flate2::read::ZlibDecoder::new(&idat[..])
        .read_to_end(&mut raw)
        .unwrap();
    let stride = w * bpp;
    let mut prev = vec![0u8; stride];
    let mut pixels = Vec::with_capacity(w * h);
    for row in raw.chunks(stride + 1).take(h) {
        let (filter, line) = (row[0], &row[1..]);
        let mut cur = vec![0u8; stride];
        for i in 0..stride {
            let (a, b) = (if i >= bpp { cur[i - bpp] } else { 0 }, prev[i]);
            let c = if i >= bpp { prev[i - bpp] } else { 0 };
            let p = i16::from(a) + i16::from(b) - i16::from(c);
            let paeth = [a, b, c]
                .into_iter()
                .min_by_key(|&v| (p - i16::from(v)).abs())
                .unwrap();
            cur[i] = line[i].wrapping_add(match filter {
                0 => 0,
                1 => a,
                2 => b,
                3 => ((u16::from(a) + u16::from(b)) / 2) as u8,
                _ => paeth,
            });
        }
        pixels.extend(
            cur.chunks(bpp)
                .map(|p| [p[0], p[1], p[2], if bpp == 4 { p[3] } else { 255 }]),
        );
        prev = cur;
    }
    (w, h, pixels)
}

fn be(b: &[u8]) -> usize {
    u32::from_be_bytes(b.try_into().unwrap()) as usize
}

/// Every eventlog under fixtures/, in order: the runs of three GHCs, the public ones of
/// GHC 8.2 to 9.x, the hand-made and damaged ones.
/// The three GHCs the runs of `fixtures/<set>/ghc-<version>` were made with.
pub const GHCS: [&str; 3] = ["ghc-9.0.2", "ghc-9.6.6", "ghc-9.10.3"];

/// The eventlogs of `fixtures/SET/GHC` for each of [`GHCS`], sorted, each with its GHC;
/// at least `least` a GHC.
pub fn runs_of(set: &str, least: usize) -> Vec<(&'static str, PathBuf)> {
    let mut out = Vec::new();
    for ghc in GHCS {
        let dir = fixtures().join(set).join(ghc);
        let mut logs: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "eventlog"))
            .collect();
        logs.sort();
        assert!(logs.len() >= least, "{set}/{ghc}: {} runs", logs.len());
        out.extend(logs.into_iter().map(|l| (ghc, l)));
    }
    out
}

pub fn fixture_eventlogs() -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut dirs = vec![fixtures()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "eventlog") {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}
