//! Shared by the integration tests: a cache of one of this crate's
//! policies, driven block by block, a whole-block access, and a small
//! deterministic RNG.

#![allow(dead_code)]

use gfxcache_cache::{Cache, Env, Geometry, Params, Policy, PolicySpec, StreamMask};
use gfxcache_trace::{Access, Op, Stream};

/// A whole-block access of unit 0, as the study's trace tests write them.
pub fn block_access(addr: u64, stream: Stream, op: Op) -> Access {
    Access {
        addr,
        size: 64,
        unit: 0,
        stream,
        op,
    }
}

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

/// A stream of each of the paper's four classes, and `display` (a render
/// target that `+ucd` leaves out).
pub const CLASSES: [Stream; 5] = [
    Stream::Z,
    Stream::Tex,
    Stream::Rt,
    Stream::Display,
    Stream::Vtx,
];

/// `sets` x `ways` x 64 B in `banks` banks.
pub fn geometry(sets: u32, ways: u32, banks: u32) -> Geometry {
    Geometry::new(64, sets, ways)
        .unwrap()
        .with_banks(banks)
        .unwrap()
}

/// The seeded generator the synthetic traces use (SplitMix64). Each test
/// file compiles this module anew, and not all of them use it.
#[allow(unused_imports)]
pub use gfxcache_trace::synth::Rng;
