//! Attribute Cache miss ratios over a range of sizes (Section V-A,
//! Figures 1 and 11-13), for a frame of several render passes.
//!
//! A size is the Attribute Buffer's capacity in bytes of attributes (48
//! each). The Primitive Buffer gets one line per two entries, the ratio of
//! TCOR's 48 KiB configuration (512 lines, 1024 entries): fully
//! associative, exactly `entries / 2` lines; with `w` ways, the largest
//! power-of-two number of sets with at most `entries / 2` lines (the XOR
//! index needs a power of two), at least one set.
//!
//! Every render pass has its own Parameter Buffer and is replayed through
//! a fresh cache, the Tile Fetcher's output queue of a given depth (0: the
//! Rasterizer consumes each primitive at once) locking the lines of the
//! primitives waiting in it; the frame's accesses, misses and lower bound
//! are the sums over its passes.
//! Misses are the paper's: every write (compulsory) plus every read miss,
//! in primitives; the miss ratio divides them by reads + writes.

use gfxcache_cache::stats::ratio;
use gfxcache_cache::Ways;
use serde::Serialize;

use crate::attribute_cache::{replay_with_queue, AttributeCacheConfig};
use crate::binning::Binning;
use crate::bound::frame_lower_bound;
use crate::error::ConfigError;
use crate::layout::PbLayout;
use crate::replacement::Replacement;

/// The Attribute Cache of `bytes` of attributes with `ways` and `r`.
pub fn config_of_size(
    bytes: u64,
    ways: Ways,
    r: Replacement,
) -> Result<AttributeCacheConfig, ConfigError> {
    let entries = AttributeCacheConfig::entries_of(bytes);
    if entries < 2 {
        return Err(ConfigError::Cache(format!(
            "an Attribute Cache of {bytes} bytes holds fewer than two 48-byte attributes"
        )));
    }
    let lines = match ways {
        Ways::Full => entries / 2,
        Ways::N(0) => {
            return Err(ConfigError::Cache(
                "an Attribute Cache of 0 ways".to_string(),
            ))
        }
        Ways::N(w) => {
            let sets = (entries / 2 / w).max(1);
            w << sets.ilog2()
        }
    };
    Ok(AttributeCacheConfig {
        entries,
        lines,
        ways,
        replacement: r,
    })
}

/// One policy at one size over a frame.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct SweepPoint {
    pub bytes: u64,
    pub entries: u32,
    pub lines: u32,
    /// Reads + writes, in primitives.
    pub accesses: u64,
    pub misses: u64,
    pub miss_ratio: f64,
    /// LB of the same cache, summed over the passes.
    pub lower_bound: u64,
    pub lower_bound_ratio: f64,
    /// Attribute blocks read from the L2.
    pub l2_reads: u64,
}

/// `r` with `ways` at `bytes` over every render pass of a frame, with an
/// output queue of `queue_depth` primitives.
pub fn point(
    passes: &[Binning],
    layout: &PbLayout,
    bytes: u64,
    ways: Ways,
    r: Replacement,
    queue_depth: usize,
) -> Result<SweepPoint, ConfigError> {
    let config = config_of_size(bytes, ways, r)?;
    let (mut accesses, mut misses, mut lb, mut l2_reads) = (0u64, 0u64, 0u64, 0u64);
    for b in passes {
        let s = replay_with_queue(b, layout, config, queue_depth)?;
        accesses += s.reads + s.writes;
        misses += s.misses();
        l2_reads += s.l2_reads;
        lb += frame_lower_bound(b, &config);
    }
    let ratio = |n: u64| ratio(n, accesses);
    Ok(SweepPoint {
        bytes,
        entries: config.entries,
        lines: config.lines,
        accesses,
        misses,
        miss_ratio: ratio(misses),
        lower_bound: lb,
        lower_bound_ratio: ratio(lb),
        l2_reads,
    })
}

/// The smallest size in `points` (in increasing size) from which on the
/// misses stay within `tolerance` (a fraction, 0 = exactly) of the lower
/// bound: where a policy "reaches the lower bound" (the paper: OPT near
/// 55 KiB, LRU at 375 KiB). `None` if it never does within the sweep.
pub fn reaches_bound(points: &[SweepPoint], tolerance: f64) -> Option<u64> {
    let within = |p: &SweepPoint| p.misses as f64 <= p.lower_bound as f64 * (1.0 + tolerance);
    let from = points.iter().rposition(|p| !within(p)).map_or(0, |i| i + 1);
    points.get(from).map(|p| p.bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_give_the_presets_ratio() {
        let c = config_of_size(48 * 1024, Ways::N(4), Replacement::Opt).unwrap();
        assert_eq!((c.entries, c.lines), (1024, 512));
        let c = config_of_size(112 * 1024, Ways::N(4), Replacement::Opt).unwrap();
        // 2389 entries: 1194 lines at most, 256 sets of 4 = 1024 lines.
        assert_eq!((c.entries, c.lines), (2389, 1024));
        let c = config_of_size(112 * 1024, Ways::Full, Replacement::Lru).unwrap();
        assert_eq!(c.lines, 1194);
        // Fewer lines than ways: one set.
        let c = config_of_size(480, Ways::N(8), Replacement::Lru).unwrap();
        assert_eq!((c.entries, c.lines), (10, 8));
        assert!(config_of_size(48, Ways::Full, Replacement::Lru).is_err());
        assert!(config_of_size(4096, Ways::N(0), Replacement::Lru).is_err());
    }

    fn pt(bytes: u64, misses: u64, lb: u64) -> SweepPoint {
        SweepPoint {
            bytes,
            entries: 0,
            lines: 0,
            accesses: 100,
            misses,
            miss_ratio: 0.0,
            lower_bound: lb,
            lower_bound_ratio: 0.0,
            l2_reads: 0,
        }
    }

    #[test]
    fn reaching_the_bound_means_staying_there() {
        let p = [pt(1, 90, 80), pt(2, 80, 80), pt(4, 85, 80), pt(8, 80, 80)];
        assert_eq!(reaches_bound(&p, 0.0), Some(8));
        assert_eq!(reaches_bound(&p, 0.1), Some(2));
        assert_eq!(reaches_bound(&p, 0.125), Some(1));
        assert_eq!(reaches_bound(&p[..3], 0.0), None);
    }
}
