//! The hash the profile's maps of names use.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// FxHash (the rustc hasher), with a finaliser: names are hashed once per data line,
/// where SipHash would cost a third of the reading. It is not keyed: a file made to
/// collide on purpose is possible (docs/security.md says so); names that merely look
/// alike, as generated ones do, spread as they should.
#[derive(Default, Clone, Copy)]
pub struct FxHasher(u64);

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        const K: u64 = 0x51_7c_c1_b7_27_22_0a_95;
        let mut h = self.0;
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let w = u64::from_le_bytes(c.try_into().expect("8 bytes"));
            h = (h.rotate_left(5) ^ w).wrapping_mul(K);
        }
        for &b in chunks.remainder() {
            h = (h.rotate_left(5) ^ b as u64).wrapping_mul(K);
        }
        self.0 = h;
    }
    /// Murmur3's finaliser: the multiply above mixes only upwards, so the low bits that
    /// pick a bucket would depend on little more than a name's last bytes, and names
    /// that share an ending (`n1_7`, `n2_7`…, as a hostile file can make millions of)
    /// would share buckets.
    fn finish(&self) -> u64 {
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }
}

/// A hash map keyed by names, hashed with [`FxHasher`].
pub type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;
