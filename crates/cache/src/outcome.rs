//! What one block access did, for callers that forward a cache's misses and
//! write-backs to the next level (the render caches of `gfxcache-render`).
//! The engine knows it at no cost; the batch loops ignore it.

use gfxcache_trace::Stream;

/// What [`crate::Cache::access_block`] did with a block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockOutcome {
    Hit,
    /// A miss that allocated a line; `victim` is the block it evicted and
    /// whether that block was dirty (`None` when an invalid way was free).
    Fill {
        victim: Option<(u64, bool)>,
    },
    /// A miss that allocated nothing (policy bypass, unallocated stream,
    /// write miss under no-write-allocate).
    Bypass,
}

/// One block access and what the cache did with it, in trace order: what a
/// timing model of the next level consumes ([`crate::CacheSim::access_batch_events`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockEvent {
    pub block: u64,
    pub stream: Stream,
    pub write: bool,
    pub outcome: BlockOutcome,
}
