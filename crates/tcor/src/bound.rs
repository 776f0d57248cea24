//! The lower bound on Attribute Cache misses of Section V-A.
//!
//! Every primitive's attributes are written exactly once by the Polygon
//! List Builder (a compulsory miss each) and read at least once by the
//! Tile Fetcher. At the end of binning at most CP primitives can be in the
//! cache, so at least TP - CP of them miss on their first read. With TP
//! primitives and room for CP:
//!
//! ```text
//! LB = TP + max(TP - CP, 0)
//! ```
//!
//! for any associativity and replacement policy, in primitives: compare it
//! with [`AttributeCacheStats::misses`] (writes + read misses).
//!
//! Primitives have a variable number of attributes, so CP here is the most
//! primitives the cache can hold at once: no more than its lines, and no
//! more than the primitives with the fewest attributes that fit together in
//! the Attribute Buffer ([`capacity_in_primitives`]).
//!
//! The same argument counted in attributes (= 64-byte blocks), with A
//! attributes in all and E Attribute Buffer entries: every attribute is
//! written once, and at the end of binning at most E are cached, so at
//! least A - E attributes are read from the L2: attributes written plus
//! L2 attribute reads >= A + max(A - E, 0) ([`lower_bound_in_attributes`]).

use crate::attribute_cache::{AttributeCacheConfig, AttributeCacheStats};
use crate::binning::Binning;

/// LB = TP + max(TP - CP, 0).
pub fn lower_bound(tp: u64, cp: u64) -> u64 {
    tp + tp.saturating_sub(cp)
}

/// CP: the most of this frame's primitives the cache can hold at once.
pub fn capacity_in_primitives(b: &Binning, config: &AttributeCacheConfig) -> u64 {
    let mut sizes: Vec<u32> = (0..b.primitives()).map(|p| b.attributes(p)).collect();
    sizes.sort_unstable();
    let mut room = u64::from(config.entries);
    let mut cp = 0u64;
    for s in sizes {
        if u64::from(s) > room || cp == u64::from(config.lines) {
            break;
        }
        room -= u64::from(s);
        cp += 1;
    }
    cp
}

/// LB of a frame for a cache, in primitives.
pub fn frame_lower_bound(b: &Binning, config: &AttributeCacheConfig) -> u64 {
    lower_bound(u64::from(b.primitives()), capacity_in_primitives(b, config))
}

/// The bound in attributes: A + max(A - E, 0), to compare with
/// [`attribute_misses`].
pub fn lower_bound_in_attributes(b: &Binning, config: &AttributeCacheConfig) -> u64 {
    lower_bound(b.total_attributes(), u64::from(config.entries))
}

/// Misses counted in attributes: every attribute written (allocated or
/// bypassed) plus every attribute read from the L2.
pub fn attribute_misses(b: &Binning, stats: &AttributeCacheStats) -> u64 {
    b.total_attributes() + stats.l2_reads
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_papers_example_numbers() {
        // 1000 primitives, room for 128: at least 872 read misses.
        assert_eq!(lower_bound(1000, 128), 1000 + 872);
        assert_eq!(lower_bound(100, 128), 100);
        assert_eq!(lower_bound(3, 2), 4);
    }
}
