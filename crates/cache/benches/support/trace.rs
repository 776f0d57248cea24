//! What the benchmarks' traces share: a seeded generator and a record.

use gfxcache_trace::{Access, Op, Stream};

/// The project's SplitMix64, with the benchmarks' own mappings (kept so
/// their sequences, and so the traces, stay as they were).
pub struct Rng(gfxcache_trace::synth::Rng);

impl Rng {
    pub fn seeded(seed: u64) -> Rng {
        Rng(gfxcache_trace::synth::Rng::new(seed))
    }

    pub fn next(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform in [0, 1).
    #[allow(dead_code)] // `mrc.rs` has no use for it
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A 16-byte access at `addr`.
pub fn access(addr: u64, stream: Stream, op: Op) -> Access {
    Access {
        addr,
        size: 16,
        unit: 0,
        stream,
        op,
    }
}
