//! Shared by the integration tests: a cache of one of this crate's
//! policies, driven block by block, and a small deterministic RNG.

#![allow(dead_code)]

use gfxcache_cache::{Cache, Env, Geometry, Params, Policy, PolicySpec, StreamMask};
use gfxcache_trace::Stream;

/// A cache of policy `P` built from `spec` (its name is not checked), with
/// `display` unallocated under `+ucd` as the registry does.
pub fn cache<P: Policy>(spec: &str, g: Geometry) -> Cache<P> {
    let spec: PolicySpec = spec.parse().unwrap();
    let mut params = Params::new(&spec);
    let policy = P::build(&mut params, &g, &Env::default()).unwrap();
    params.finish().unwrap();
    let mask = if spec.ucd {
        StreamMask::default().with(Stream::Display)
    } else {
        StreamMask::default()
    };
    Cache::new(g, policy, mask)
}

/// `sets` x `ways` x 64 B in `banks` banks.
pub fn geometry(sets: u32, ways: u32, banks: u32) -> Geometry {
    Geometry::new(64, sets, ways)
        .unwrap()
        .with_banks(banks)
        .unwrap()
}

/// SplitMix64.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}
