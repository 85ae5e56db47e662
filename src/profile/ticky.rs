//! Ticky-ticky counters (`ghc -ticky`): per closure, how often it was entered, the bytes
//! its code allocated and the bytes allocated of it — allocation by closure without a
//! profiling build.

/// One counter's totals over the run (or over the window read).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Counter {
    /// The counter's name as GHC writes it: `Main.$wgo1{v r3ni} (fun)`, `sat_s3Hx{v}
    /// (Main) (fun,se) in r3B8`.
    pub name: String,
    /// Entries.
    pub entries: u64,
    /// Bytes the closure's code allocated (`Alloc`).
    pub allocs: u64,
    /// Bytes allocated of the closure itself (`Alloc'd`).
    pub allocd: u64,
}

/// One of the runtime's own counters in a text report (`51200136 ALLOC_HEAP_tot`).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Total {
    /// Its name.
    pub name: String,
    /// Its count.
    pub value: u64,
}

/// A ticky-ticky profile's counters, most allocating first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Ticky {
    /// Every counter that counted anything.
    pub counters: Vec<Counter>,
    /// A text report's runtime counters (`ALLOC_HEAP_tot`, `HEAP_CHK_ctr`, …), as listed.
    pub totals: Vec<Total>,
}

impl Ticky {
    /// The counters ordered as they are read: most allocation first, then most entries,
    /// then by name (a stable order for equal counters).
    pub fn sort(&mut self) {
        self.counters
            .sort_by(|a, b| (b.allocs, b.entries, &a.name).cmp(&(a.allocs, a.entries, &b.name)));
    }
}
