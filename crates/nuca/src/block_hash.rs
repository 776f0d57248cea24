//! A hasher for maps keyed by block address (the directory, the copies
//! count): one multiplication, since block addresses are not chosen by an
//! adversary and SipHash's cost showed in every access.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Fibonacci hashing of a `u64` key: the key times 2^64 / phi, whose high
/// bits (the ones the map uses) mix every key bit.
#[derive(Clone, Copy, Debug, Default)]
pub struct BlockHasher(u64);

impl Hasher for BlockHasher {
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }

    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    #[inline]
    fn write_u64(&mut self, key: u64) {
        self.0 = (self.0 ^ key).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// A map keyed by block address.
pub type BlockMap<V> = HashMap<u64, V, BuildHasherDefault<BlockHasher>>;

/// An empty [`BlockMap`] with room for `n` entries.
pub fn block_map<V>(n: usize) -> BlockMap<V> {
    BlockMap::with_capacity_and_hasher(n, Default::default())
}
