//! A minimal eventlog writer for hand-made edge cases, following GHC's
//! `EventLogFormat.h` (the same layout the runtime writes; the real files in
//! fixtures/eventlog check the reader against the runtime itself).

#![allow(dead_code)]

pub const SAMPLE_BEGIN: u16 = 162;
pub const SAMPLE_CC: u16 = 163;
pub const SAMPLE_STRING: u16 = 164;
pub const SAMPLE_END: u16 = 165;
pub const COST_CENTRE: u16 = 161;
pub const PROF_BEGIN: u16 = 160;
pub const USER_MARKER: u16 = 58;
pub const PROGRAM_ARGS: u16 = 30;
pub const BLOCK_MARKER: u16 = 18;
pub const IPE: u16 = 169;
pub const HEAP_SIZE: u16 = 50;
pub const GC_START: u16 = 9;
pub const GC_END: u16 = 10;
pub const HEAP_ALLOCATED: u16 = 49;
pub const GC_STATS_GHC: u16 = 53;
pub const HEAP_LIVE: u16 = 51;
/// The non-moving collector's synchronisation begins and ends.
pub const CONC_SYNC_BEGIN: u16 = 202;
pub const CONC_SYNC_END: u16 = 203;
/// A time sample (`+RTS -p -l`): a capability's cost-centre stack at a tick.
pub const PROF_SAMPLE: u16 = 167;
/// The cost-centre profiler began: its tick interval.
pub const PROF_SAMPLING: u16 = 168;

/// The event types a hand-made eventlog declares: id, size (`None`: variable).
pub const TYPES: &[(u16, Option<u16>)] = &[
    (BLOCK_MARKER, Some(14)),
    (PROGRAM_ARGS, None),
    (USER_MARKER, None),
    (PROF_BEGIN, None),
    (COST_CENTRE, None),
    (SAMPLE_BEGIN, Some(8)),
    (SAMPLE_CC, None),
    (SAMPLE_STRING, None),
    (SAMPLE_END, Some(8)),
    (IPE, None),
    (HEAP_SIZE, Some(12)),
    (GC_START, Some(0)),
    (GC_END, Some(0)),
    (HEAP_ALLOCATED, Some(12)),
    (GC_STATS_GHC, Some(50)),
    (HEAP_LIVE, Some(12)),
    (CONC_SYNC_BEGIN, Some(0)),
    (CONC_SYNC_END, Some(0)),
    (PROF_SAMPLE, None),
    (PROF_SAMPLING, Some(8)),
    (200, Some(3)),
    (TICKY_DEF, None),
    (TICKY_SAMPLE, Some(32)),
    (TICKY_BEGIN, Some(0)),
];

/// Ticky-ticky counters (`+RTS -lT`): a definition, a counter's sample, a sample begins.
pub const TICKY_DEF: u16 = 210;
pub const TICKY_SAMPLE: u16 = 211;
pub const TICKY_BEGIN: u16 = 212;

pub struct Writer {
    pub bytes: Vec<u8>,
}

impl Writer {
    pub fn new() -> Writer {
        let mut b = b"hdrbhetb".to_vec();
        for &(id, size) in TYPES {
            b.extend(b"etb\0");
            b.extend(id.to_be_bytes());
            b.extend(size.unwrap_or(0xffff).to_be_bytes());
            let desc = format!("type {id}");
            b.extend((desc.len() as u32).to_be_bytes());
            b.extend(desc.as_bytes());
            b.extend(0u32.to_be_bytes());
            b.extend(b"ete\0");
        }
        b.extend(b"hetehdredatb");
        Writer { bytes: b }
    }

    pub fn event(&mut self, ty: u16, time: u64, payload: &[u8]) -> &mut Self {
        self.bytes.extend(ty.to_be_bytes());
        self.bytes.extend(time.to_be_bytes());
        let fixed = TYPES.iter().find(|t| t.0 == ty).and_then(|t| t.1);
        if fixed.is_none() {
            self.bytes.extend((payload.len() as u16).to_be_bytes());
        }
        self.bytes.extend(payload);
        self
    }

    pub fn args(&mut self, args: &[&str]) -> &mut Self {
        let mut p = 0u32.to_be_bytes().to_vec();
        for a in args {
            p.extend(a.as_bytes());
            p.push(0);
        }
        self.event(PROGRAM_ARGS, 0, &p)
    }

    pub fn begin(&mut self, time: u64) -> &mut Self {
        self.event(SAMPLE_BEGIN, time, &0u64.to_be_bytes())
    }

    pub fn end(&mut self, time: u64) -> &mut Self {
        self.event(SAMPLE_END, time, &0u64.to_be_bytes())
    }

    pub fn string(&mut self, time: u64, label: &[u8], bytes: u64) -> &mut Self {
        let mut p = vec![0u8];
        p.extend(bytes.to_be_bytes());
        p.extend(label);
        p.push(0);
        self.event(SAMPLE_STRING, time, &p)
    }

    pub fn marker(&mut self, time: u64, text: &str) -> &mut Self {
        self.event(USER_MARKER, time, text.as_bytes())
    }

    pub fn done(&mut self) -> Vec<u8> {
        let mut b = self.bytes.clone();
        b.extend(0xffffu16.to_be_bytes());
        b
    }
}

/// Every event of a real eventlog, read as GHC's `EventLogFormat.h` lays them out (not
/// by hpgraph's reader): each one's byte offset, type and whole length, in file order
/// (a block marker is an event like the others, the events of its block after it).
pub fn events(bytes: &[u8]) -> Vec<(usize, u16, usize)> {
    let u16_at = |i: usize| u16::from_be_bytes([bytes[i], bytes[i + 1]]);
    let u32_at = |i: usize| u32::from_be_bytes(bytes[i..i + 4].try_into().unwrap());
    assert_eq!(&bytes[..8], b"hdrbhetb");
    let (mut sizes, mut i) = (std::collections::HashMap::new(), 8);
    while &bytes[i..i + 4] == b"etb\0" {
        sizes.insert(u16_at(i + 4), u16_at(i + 6));
        i += 8;
        i += 4 + u32_at(i) as usize; // the description
        i += 4 + u32_at(i) as usize; // the extra information
        assert_eq!(&bytes[i..i + 4], b"ete\0");
        i += 4;
    }
    assert_eq!(&bytes[i..i + 12], b"hetehdredatb");
    i += 12;
    let mut out = Vec::new();
    while u16_at(i) != 0xffff {
        let ty = u16_at(i);
        let len = match sizes[&ty] {
            0xffff => 2 + 8 + 2 + usize::from(u16_at(i + 10)),
            n => 2 + 8 + usize::from(n),
        };
        out.push((i, ty, len));
        i += len;
    }
    out
}

/// Whether `ty` is declared of variable size in the header of `bytes`.
pub fn events_variable(bytes: &[u8], ty: u16) -> bool {
    let u16_at = |i: usize| u16::from_be_bytes([bytes[i], bytes[i + 1]]);
    let u32_at = |i: usize| u32::from_be_bytes(bytes[i..i + 4].try_into().unwrap());
    let mut i = 8;
    while &bytes[i..i + 4] == b"etb\0" {
        if u16_at(i + 4) == ty {
            return u16_at(i + 6) == 0xffff;
        }
        i += 8;
        i += 4 + u32_at(i) as usize;
        i += 4 + u32_at(i) as usize + 4;
    }
    false
}

/// `bytes` (a real eventlog) with `inner` (a whole event's bytes) written `k` bytes into
/// the event at `outer`, as GHC 9.0's profiling timer writes its sample from its own
/// thread into the global buffer: the block that holds it grows by the inner event, its
/// marker's length with it, as the runtime's flush counts the buffer's bytes.
pub fn splice(bytes: &[u8], outer: usize, k: usize, inner: &[u8]) -> Vec<u8> {
    let block = block_of(bytes, outer);
    let mut out = bytes[..outer + k].to_vec();
    out.extend(inner);
    out.extend(&bytes[outer + k..]);
    let len = u32::from_be_bytes(out[block + 10..block + 14].try_into().unwrap());
    out[block + 10..block + 14].copy_from_slice(&(len + inner.len() as u32).to_be_bytes());
    out
}

/// A cost-centre profiler's time sample (`PROF_SAMPLE_COST_CENTRE`, variable size) at
/// `time`: capability 0, tick `tick`, a stack of the one cost centre `cc`.
pub fn prof_sample(time: u64, tick: u64, cc: u32) -> Vec<u8> {
    let mut p = 0u32.to_be_bytes().to_vec();
    p.extend(tick.to_be_bytes());
    p.push(1);
    p.extend(cc.to_be_bytes());
    let mut e = PROF_SAMPLE.to_be_bytes().to_vec();
    e.extend(time.to_be_bytes());
    e.extend((p.len() as u16).to_be_bytes());
    e.extend(p);
    e
}

/// The time of the event at `at`.
pub fn time_of(bytes: &[u8], at: usize) -> u64 {
    u64::from_be_bytes(bytes[at + 2..at + 10].try_into().unwrap())
}

/// The block marker of the block that holds byte `at`, found by walking the blocks by
/// their lengths (as they are read whatever their events are).
pub fn block_of(bytes: &[u8], at: usize) -> usize {
    let data = bytes
        .windows(4)
        .position(|w| w == b"datb")
        .expect("a data section")
        + 4;
    let mut block = data;
    loop {
        assert_eq!(
            u16::from_be_bytes([bytes[block], bytes[block + 1]]),
            BLOCK_MARKER
        );
        let len = u32::from_be_bytes(bytes[block + 10..block + 14].try_into().unwrap()) as usize;
        if at < block + len {
            return block;
        }
        block += len;
    }
}

/// `bytes` (a real eventlog) as a later GHC could write it: every fixed-size type but the
/// block marker declared `extra` bytes longer and each of its events carrying them, and
/// a type this GHC never wrote declared and written at the start of every block; with
/// `census`, every census event whose fields fix its length (the samples by stack and by
/// name, the profiler's samples, the cost centres) `extra` bytes longer too, NULs among
/// them; each block's length grown by what its events gained.
pub fn grown(bytes: &[u8], extra: u16, census: bool) -> Vec<u8> {
    const NEW_TYPE: u16 = 250;
    let u16_at = |i: usize| u16::from_be_bytes([bytes[i], bytes[i + 1]]);
    let u32_at = |i: usize| u32::from_be_bytes(bytes[i..i + 4].try_into().unwrap());
    let mut out = b"hdrbhetb".to_vec();
    let mut i = 8;
    while &bytes[i..i + 4] == b"etb\0" {
        let (ty, size) = (u16_at(i + 4), u16_at(i + 6));
        let end = i + 8 + 4 + u32_at(i + 8) as usize;
        let end = end + 4 + u32_at(end) as usize + 4;
        out.extend(&bytes[i..i + 6]);
        let grows = size != 0xffff && ty != BLOCK_MARKER;
        out.extend((if grows { size + extra } else { size }).to_be_bytes());
        out.extend(&bytes[i + 8..end]);
        i = end;
    }
    out.extend(b"etb\0");
    out.extend(NEW_TYPE.to_be_bytes());
    out.extend(3u16.to_be_bytes());
    out.extend(8u32.to_be_bytes());
    out.extend(b"new type");
    out.extend(0u32.to_be_bytes());
    out.extend(b"ete\0");
    out.extend(b"hetehdredatb");
    let junk = vec![0xa5; usize::from(extra)];
    let mut block = None;
    for (at, ty, len) in events(bytes) {
        let event = &bytes[at..at + len];
        let start = out.len();
        if ty == BLOCK_MARKER {
            block = Some(start);
            out.extend(event);
            out.extend(NEW_TYPE.to_be_bytes());
            out.extend(time_of(bytes, at).to_be_bytes());
            out.extend([1, 2, 3]);
        } else if census && [SAMPLE_CC, SAMPLE_STRING, COST_CENTRE, PROF_SAMPLE].contains(&ty) {
            let n = u16::from_be_bytes([event[10], event[11]]);
            out.extend(&event[..10]);
            out.extend((n + extra).to_be_bytes());
            out.extend(&event[12..]);
            out.extend((0..extra).map(|k| if k % 2 == 0 { 0 } else { 0xa5 }));
        } else if events_variable(bytes, ty) {
            out.extend(event);
        } else {
            out.extend(event);
            out.extend(&junk);
        }
        let gained = (out.len() - start - len) as u32;
        if let Some(b) = block.filter(|&b| b != start || ty == BLOCK_MARKER) {
            let size = u32::from_be_bytes(out[b + 10..b + 14].try_into().unwrap());
            out[b + 10..b + 14].copy_from_slice(&(size + gained).to_be_bytes());
        }
    }
    out.extend(0xffffu16.to_be_bytes());
    out
}
