//! Compressed profiles: gzip, zstd and xz, told apart by their magic bytes (not by the
//! file's name) and decompressed as they are read, so memory stays what the plain file
//! needs. The decompressed bytes go to the same readers as a plain file's.
//!
//! The decoders are well-kept crates: flate2 (gzip, pure Rust through miniz_oxide),
//! ruzstd (zstd, pure Rust) and xz2 (xz, liblzma built in).

use std::cell::Cell;
use std::io::{self, BufRead, BufReader, Read};
use std::rc::Rc;

/// The compressions read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compression {
    /// gzip (`.gz`).
    Gzip,
    /// Zstandard (`.zst`).
    Zstd,
    /// xz (`.xz`).
    Xz,
}

/// Each compression's magic bytes.
const MAGIC: [(Compression, &[u8]); 3] = [
    (Compression::Gzip, &[0x1f, 0x8b]),
    (Compression::Zstd, &[0x28, 0xb5, 0x2f, 0xfd]),
    (Compression::Xz, &[0xfd, b'7', b'z', b'X', b'Z', 0x00]),
];

/// The file name suffixes each compression is usually given.
const SUFFIXES: [(&str, Compression); 4] = [
    (".gz", Compression::Gzip),
    (".zst", Compression::Zstd),
    (".zstd", Compression::Zstd),
    (".xz", Compression::Xz),
];

/// Bytes enough to recognise every compression.
pub const PREFIX: usize = 6;

impl Compression {
    /// The compression an input starting with `prefix` (at least [`PREFIX`] bytes, or
    /// the whole input) is in, if any.
    pub fn detect(prefix: &[u8]) -> Option<Compression> {
        MAGIC
            .iter()
            .find(|(_, magic)| prefix.starts_with(magic))
            .map(|&(c, _)| c)
    }

    /// The name people know it by.
    pub fn name(self) -> &'static str {
        match self {
            Compression::Gzip => "gzip",
            Compression::Zstd => "zstd",
            Compression::Xz => "xz",
        }
    }

    /// The compression a file name's suffix (`.gz`, `.zst`, `.zstd`, `.xz`) says, and the
    /// suffix: for naming outputs after the plain file, and for a file not written yet.
    pub fn by_suffix(name: &str) -> Option<(Compression, &'static str)> {
        SUFFIXES
            .iter()
            .find(|(suffix, _)| name.ends_with(suffix))
            .map(|&(suffix, c)| (c, suffix))
    }

    /// The magic bytes that start a stream of this compression.
    fn magic(self) -> &'static [u8] {
        MAGIC
            .iter()
            .find(|&&(c, _)| c == self)
            .map(|&(_, m)| m)
            .expect("every compression has its magic")
    }

    /// A reader of the decompressed bytes of `r`. A decoder's error says which
    /// compression it was, so that a corrupt file is told from a corrupt profile.
    fn decoder<'a>(self, r: impl Read + 'a) -> io::Result<Box<dyn Read + 'a>> {
        let r = BufReader::with_capacity(64 << 10, r);
        let inner: Box<dyn Read + 'a> = match self {
            Compression::Gzip | Compression::Zstd => Box::new(Members {
                compression: self,
                member: None,
                source: Some(r),
            }),
            Compression::Xz => Box::new(xz2::bufread::XzDecoder::new_multi_decoder(r)),
        };
        Ok(inner)
    }
}

/// A gzip member or a zstd frame being decoded.
enum Member<R: BufRead> {
    Gzip(flate2::bufread::GzDecoder<R>),
    Zstd(Box<ruzstd::decoding::StreamingDecoder<R, ruzstd::decoding::FrameDecoder>>),
}

impl<R: BufRead> Member<R> {
    fn start(c: Compression, source: R) -> io::Result<Member<R>> {
        Ok(match c {
            Compression::Zstd => Member::Zstd(Box::new(
                ruzstd::decoding::StreamingDecoder::new(source)
                    .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.to_string()))?,
            )),
            _ => Member::Gzip(flate2::bufread::GzDecoder::new(source)),
        })
    }

    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Member::Gzip(d) => d.read(buf),
            Member::Zstd(d) => d.read(buf),
        }
    }

    /// The input after the member, once it is decoded whole. A zstd frame's content
    /// checksum is checked here (ruzstd leaves it to its caller; gzip's decoder checks
    /// its CRC itself).
    fn end(self) -> io::Result<R> {
        match self {
            Member::Gzip(d) => Ok(d.into_inner()),
            Member::Zstd(d) => {
                let stored = d.decoder.get_checksum_from_data();
                if stored.is_some() && stored != d.decoder.get_calculated_checksum() {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidData,
                        "the content checksum does not match the data (corrupt file)",
                    ));
                }
                Ok(d.into_inner())
            }
        }
    }
}

/// gzip members or zstd frames one after another, as `gunzip` and `zstd -d` read them
/// (`cat a.gz b.gz` is one stream); whatever follows the last one must be another one,
/// so that bytes after the end are named as such rather than taken for a cut file.
struct Members<R: BufRead> {
    compression: Compression,
    member: Option<Member<R>>,
    /// The input between members; `None` with no member once it has ended.
    source: Option<R>,
}

impl<R: BufRead> Read for Members<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            if let Some(member) = &mut self.member {
                let n = member.read(buf)?;
                if n > 0 || buf.is_empty() {
                    return Ok(n);
                }
                self.source = Some(self.member.take().expect("a member").end()?);
            }
            let Some(mut source) = self.source.take() else {
                return Ok(0);
            };
            let rest = source.fill_buf()?;
            let magic = self.compression.magic();
            if rest.is_empty() {
                return Ok(0);
            }
            if rest.len() < magic.len() && magic.starts_with(rest) {
                return Err(io::ErrorKind::UnexpectedEof.into());
            }
            if !rest.starts_with(magic) {
                let name = self.compression.name();
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("bytes after the end of the {name} stream that are not {name} data"),
                ));
            }
            self.member = Some(Member::start(self.compression, source)?);
        }
    }
}

/// Whether a decoder's error is the end of its input, however deep the decoder wrapped
/// it (ruzstd reports a cut stream as its own error around the reader's).
fn ends_early(e: &io::Error) -> bool {
    let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(err) = cause {
        if let Some(io) = err.downcast_ref::<io::Error>() {
            if io.kind() == io::ErrorKind::UnexpectedEof {
                return true;
            }
            cause = io.get_ref().map(|inner| inner as _);
        } else {
            cause = err.source();
        }
    }
    false
}

fn named(c: Compression, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("cannot decompress ({}): {e}", c.name()))
}

/// The input, decompressed if it was compressed. A compressed stream that stops before
/// its end (the file was cut) ends the input there, as a cut plain file would, and
/// [`Cut::get`] says so afterwards; any other decoder error names the compression, so
/// that a corrupt file is told from a corrupt profile.
pub struct Decompressed<'a> {
    inner: Box<dyn Read + 'a>,
    compression: Option<Compression>,
    cut: Cut,
}

/// Whether a compressed stream was found cut, readable after the reader is gone.
#[derive(Clone, Default)]
pub struct Cut(Rc<Cell<Option<Compression>>>);

impl Cut {
    /// The compression of a stream that ended early.
    pub fn get(&self) -> Option<Compression> {
        self.0.get()
    }
}

impl Decompressed<'_> {
    /// A handle on whether the stream was cut.
    pub fn cut(&self) -> Cut {
        self.cut.clone()
    }
}

impl Read for Decompressed<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match (self.inner.read(buf), self.compression) {
            (Ok(n), _) => Ok(n),
            (Err(e), Some(c)) if ends_early(&e) => {
                self.cut.0.set(Some(c));
                Ok(0)
            }
            (Err(e), Some(c)) => Err(named(c, e)),
            (Err(e), None) => Err(e),
        }
    }
}

/// Reads the first bytes of `r` (up to [`PREFIX`], fewer only at its end) and gives
/// them back with a reader of the whole input, those bytes included.
pub fn peek<'a>(mut r: impl Read + 'a) -> io::Result<(Vec<u8>, Box<dyn Read + 'a>)> {
    let mut prefix = Vec::with_capacity(PREFIX);
    let mut byte = [0u8; PREFIX];
    while prefix.len() < PREFIX {
        match r.read(&mut byte[..PREFIX - prefix.len()]) {
            Ok(0) => break,
            Ok(n) => prefix.extend_from_slice(&byte[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    let whole = io::Cursor::new(prefix.clone()).chain(r);
    Ok((prefix, Box::new(whole)))
}

/// `r` decompressed when it starts with a compression's magic bytes, else as it is.
pub fn decompressed<'a>(r: impl Read + 'a) -> io::Result<Decompressed<'a>> {
    let (prefix, whole) = peek(r)?;
    let compression = Compression::detect(&prefix);
    Ok(Decompressed {
        inner: match compression {
            Some(c) => c.decoder(whole)?,
            None => whole,
        },
        compression,
        cut: Cut::default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    const TEXT: &[u8] = b"JOB \"x\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\n";

    fn roundtrip(c: Compression, packed: Vec<u8>) {
        assert_eq!(Compression::detect(&packed), Some(c));
        let mut out = Vec::new();
        decompressed(&packed[..])
            .unwrap()
            .read_to_end(&mut out)
            .unwrap();
        assert_eq!(out, TEXT, "{c:?}");
    }

    #[test]
    fn gzip_is_read_member_by_member() {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(&TEXT[..10]).unwrap();
        let mut two = e.finish().unwrap();
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(&TEXT[10..]).unwrap();
        two.extend(e.finish().unwrap());
        roundtrip(Compression::Gzip, two);
    }

    #[test]
    fn zstd_is_read() {
        let packed =
            ruzstd::encoding::compress_to_vec(TEXT, ruzstd::encoding::CompressionLevel::Fastest);
        roundtrip(Compression::Zstd, packed);
    }

    #[test]
    fn xz_is_read() {
        let mut e = xz2::write::XzEncoder::new(Vec::new(), 6);
        e.write_all(TEXT).unwrap();
        roundtrip(Compression::Xz, e.finish().unwrap());
    }

    #[test]
    fn plain_input_passes_untouched_however_short() {
        for len in 0..TEXT.len() {
            let mut out = Vec::new();
            decompressed(&TEXT[..len])
                .unwrap()
                .read_to_end(&mut out)
                .unwrap();
            assert_eq!(out, &TEXT[..len]);
        }
    }

    #[test]
    fn a_cut_stream_ends_the_input_and_says_so() {
        let mut e = xz2::write::XzEncoder::new(Vec::new(), 6);
        e.write_all(TEXT).unwrap();
        let xz = e.finish().unwrap();
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(TEXT).unwrap();
        let gz = e.finish().unwrap();
        let zst =
            ruzstd::encoding::compress_to_vec(TEXT, ruzstd::encoding::CompressionLevel::Fastest);
        for (c, packed) in [
            (Compression::Gzip, gz),
            (Compression::Xz, xz),
            (Compression::Zstd, zst),
        ] {
            for end in PREFIX.max(13)..packed.len() - 1 {
                let mut r = decompressed(&packed[..end]).unwrap();
                let cut = r.cut();
                let mut out = Vec::new();
                match r.read_to_end(&mut out) {
                    Ok(_) => {
                        assert_eq!(cut.get(), Some(c), "{c:?} cut at {end}");
                        assert!(TEXT.starts_with(&out), "{c:?} cut at {end}");
                    }
                    Err(e) => assert!(e.to_string().contains(c.name()), "{c:?} at {end}: {e}"),
                }
            }
        }
    }

    #[test]
    fn a_corrupt_stream_is_an_error_naming_its_compression() {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(TEXT).unwrap();
        let mut packed = e.finish().unwrap();
        // The stored CRC of the data.
        let crc = packed.len() - 6;
        packed[crc] ^= 0xff;
        let mut out = Vec::new();
        let err = decompressed(&packed[..])
            .unwrap()
            .read_to_end(&mut out)
            .unwrap_err();
        assert!(err.to_string().contains("gzip"), "{err}");
    }
}
