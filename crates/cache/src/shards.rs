//! Miss-ratio curves of any policy by spatial sampling: SHARDS (Waldspurger,
//! Park, Garthwaite and Ahmad, "Efficient MRC Construction with SHARDS",
//! FAST 2015) with miniature simulations (Waldspurger, Saemundsson, Ahmad
//! and Park, "Cache Modeling and Optimization using Miniature
//! Simulations", USENIX ATC 2017).
//!
//! SHARDS samples blocks, not accesses: a block is in the sample iff
//! hash(block) mod P < T, so the sample is every access to a fraction
//! R = T / P of the blocks ([`SpatialSampler`]). A cache of S blocks sees
//! the sample about as a cache of R * S blocks sees the trace, so each
//! size of the curve is simulated as a mini-cache scaled by R
//! ([`mini_cache`]: R times the sets, the same ways) fed only the sample,
//! through the engine and any policy of a registry; its miss ratio is its
//! misses over the sampled block accesses S. SHARDS-adj (the FAST paper's
//! adjustment, also libCacheSim's) corrects for a sample that is larger or
//! smaller than expected, which a few hot blocks cause: it counts E - S more
//! hits, E = R * N the expected sample of N block accesses, so the miss
//! ratio is misses / E (at most 1). One pass over the trace feeds every
//! mini-cache of every policy ([`ShardsPass`]), in parallel, and, for
//! comparison, the whole trace to the exact one-pass LRU curve (plain `lru`
//! at fully associative sizes or one set count) or to every cache at full
//! size (`exact`).
//!
//! Settings the method leaves open, each a field of [`ShardsConfig`]: the
//! rate R (default 0.01, ours: the project's 8 MiB, 16-way LLC then keeps
//! 82 sets in its mini-cache, and a 1080p frame's 7 M block accesses leave a
//! sample of 70 K), the modulus P (2^24, as libCacheSim's SHARDS sampler),
//! the hash (SplitMix64's, [`sample::hash`]), SHARDS-adj (on by default),
//! the scaling of a set-associative cache (its sets) and the smallest
//! mini-cache whose point counts as resolved (256 blocks by default, ours:
//! a point's sampling error shrinks with the blocks its mini-cache holds,
//! and the error measured on frames is in `docs/src/sim.md`).

mod pass;
mod report;
pub mod sample;
mod scale;

pub use pass::{next_uses, ShardsPass, ShardsPlan};
pub use report::{Exact, ExactSource, Sampling, ShardsCurve, ShardsPoint, ShardsReport};
pub use sample::SpatialSampler;
pub use scale::mini_cache;

use gfxcache_trace::TraceError;
use serde::Serialize;

use crate::error::CacheError;
use crate::geometry::{Geometry, Ways};
use crate::next_use::NextUseError;

/// Standard deviations of the sampling's size error a point's
/// [`ShardsPoint::size_band`] spans (ours: three, so that a sampled value
/// outside its band is a surprise, not a chance).
pub const SIZE_BAND_SIGMAS: f64 = 3.0;

/// The hash [`ShardsReport`] names.
pub const HASH: &str = "splitmix64";

/// How a SHARDS pass samples and scales.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ShardsConfig {
    /// R, the share of blocks sampled: above 0, at most 1.
    pub rate: f64,
    /// P: the hash is taken modulo P, and T = round(R * P).
    pub modulus: u64,
    /// SHARDS-adj: miss ratios of the expected sample R * N rather than of
    /// the sample's size.
    pub adjust: bool,
    /// A point is resolved when its mini-cache holds at least this many
    /// blocks.
    pub min_scaled_blocks: u64,
}

impl Default for ShardsConfig {
    fn default() -> ShardsConfig {
        ShardsConfig {
            rate: 0.01,
            modulus: 1 << 24,
            adjust: true,
            min_scaled_blocks: 256,
        }
    }
}

/// Why a SHARDS pass could not run.
#[derive(Debug, thiserror::Error)]
pub enum ShardsError {
    #[error("SHARDS: {0}")]
    Config(String),
    #[error(transparent)]
    Cache(#[from] CacheError),
    #[error(transparent)]
    Trace(#[from] TraceError),
    #[error(transparent)]
    NextUse(#[from] NextUseError),
}

/// Caches of `ways` ways (or fully associative) of `block`-byte blocks at
/// every power-of-two set count (fully associative: block count) from 1
/// to the first that holds `footprint` blocks: the sizes of a curve.
pub fn power_of_two_sizes(
    block: u32,
    ways: Ways,
    footprint: u64,
) -> Result<Vec<Geometry>, CacheError> {
    let mut sizes = Vec::new();
    let mut n = 1u64;
    loop {
        let g = match ways {
            Ways::Full => Geometry::new(block, 1, u32::try_from(n).unwrap_or(u32::MAX))?,
            Ways::N(w) => Geometry::new(block, u32::try_from(n).unwrap_or(u32::MAX), w)?,
        };
        let blocks = g.blocks() as u64;
        sizes.push(g);
        if blocks >= footprint || n >= 1 << 31 {
            return Ok(sizes);
        }
        n *= 2;
    }
}
