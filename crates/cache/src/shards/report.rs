//! What a SHARDS pass reports: how it sampled, and per policy a curve of
//! points, each with its mini-cache and, where known, the exact value.

use serde::Serialize;

use crate::mrc::StreamPoint;

/// How the trace was sampled.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Sampling {
    /// R as asked for.
    pub rate: f64,
    /// P.
    pub modulus: u64,
    /// T = round(R * P).
    pub threshold: u64,
    /// T / P: the rate the caches are scaled by and SHARDS-adj expects.
    pub effective_rate: f64,
    /// The hash of a block address ([`super::sample::hash`]).
    pub hash: &'static str,
    /// Whether miss ratios are SHARDS-adj's (of R * N accesses) or of the
    /// sampled accesses.
    pub adjust: bool,
    /// Points whose mini-cache holds fewer blocks are not `resolved`.
    pub min_scaled_blocks: u64,
}

/// Where a point's exact miss ratio comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ExactSource {
    /// The one-pass LRU curve (Mattson's stack distances) over the whole trace.
    OnePass,
    /// The cache at full size over the whole trace, as `sim` runs it.
    Simulation,
}

/// The exact value beside a sampled one.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Exact {
    pub source: ExactSource,
    pub misses: u64,
    pub miss_ratio: f64,
    /// |sampled - exact| miss ratio.
    pub abs_error: f64,
}

/// One size of a sampled curve.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ShardsPoint {
    /// The cache at full size: bytes, blocks, sets, ways.
    pub size: u64,
    pub blocks: u64,
    pub sets: u32,
    pub ways: u32,
    /// Its mini-cache.
    pub scaled_sets: u32,
    pub scaled_ways: u32,
    pub scaled_blocks: u64,
    /// Whether the mini-cache holds at least the configured minimum of
    /// blocks: the sizes whose error the tests bound.
    pub resolved: bool,
    /// The sizes (bytes) the point may stand for: the mini-cache's `b`
    /// blocks stand for `b / R` blocks only to within a factor of
    /// `1 ± 3 / sqrt(b)` ([`super::SIZE_BAND_SIGMAS`] standard deviations of
    /// the sampled share of the blocks it holds), so that near a cliff of
    /// the curve the sampled value is the exact curve's somewhere in here.
    pub size_band: (u64, u64),
    /// Block accesses the mini-cache saw (the sample, S).
    pub sampled_accesses: u64,
    /// The mini-cache's misses.
    pub misses: u64,
    pub miss_ratio: f64,
    /// Streams of the trace, in stream order: sampled accesses, the
    /// mini-cache's misses, the stream's miss ratio (adjusted per stream).
    pub per_stream: Vec<StreamPoint>,
    /// `null` where not computed.
    pub exact: Option<Exact>,
}

/// One policy's sampled curve.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ShardsCurve {
    pub policy: String,
    pub points: Vec<ShardsPoint>,
    /// Sizes (bytes) whose mini-cache rounds to nothing at this rate.
    pub omitted: Vec<u64>,
    /// What each mini-cache's policy does on its geometry that its name
    /// does not promise (a mini-cache has fewer sets than its cache).
    pub warnings: Vec<String>,
}

/// A SHARDS pass's result.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ShardsReport {
    pub sampling: Sampling,
    /// Trace accesses, before splitting into blocks.
    pub trace_accesses: u64,
    /// Block accesses: N.
    pub block_accesses: u64,
    /// Sampled block accesses: S.
    pub sampled_block_accesses: u64,
    /// E = R * N.
    pub expected_sampled: f64,
    pub curves: Vec<ShardsCurve>,
}
