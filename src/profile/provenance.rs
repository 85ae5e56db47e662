//! Where an info table comes from (IPE): what `-hi` bands are named by.

/// An info table's provenance (IPE), as GHC's runtime wrote it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Provenance {
    /// The closure's type (`THUNK_1_0`, `CONSTR`…), by its number in GHC's
    /// `ClosureTypes.h`.
    pub closure: Box<[u8]>,
    /// The Haskell type (`Double`, `[Int]`).
    pub ty: Box<[u8]>,
    /// The binding it belongs to.
    pub label: Box<[u8]>,
    /// The module.
    pub module: Box<[u8]>,
    /// `File.hs:line:columns`.
    pub location: Box<[u8]>,
}

impl Provenance {
    /// The source file and line of `File.hs:line:columns`, for tools that show a
    /// function's place (pprof, speedscope); `None` when the location is not of that
    /// form (code built without `-finfo-table-map` has none).
    pub fn place(&self) -> Option<(String, u32)> {
        let text = std::str::from_utf8(&self.location).ok()?;
        let mut parts = text.split(':');
        let file = parts.next().filter(|f| !f.is_empty())?;
        let line = parts.next()?.parse().ok()?;
        Some((file.to_string(), line))
    }
}
