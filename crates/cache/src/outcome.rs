//! What one block access did, for callers that forward a cache's misses and
//! write-backs to the next level (the render caches of `gfxcache-render`).
//! The engine knows it at no cost; the batch loops ignore it. [`Line`] and
//! [`Placed`] say the same with the victim's owner, for the cache
//! hierarchy ([`crate::hierarchy`]).

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

/// A line leaving a cache (evicted or invalidated): its block, whether it
/// was dirty, and the stream that owns it (the last to fill or write it,
/// which the engine counts its eviction and write-back against).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line {
    pub block: u64,
    pub dirty: bool,
    pub stream: Stream,
}

/// Where a block that missed, or that arrived from the level above in a
/// hierarchy, went: the engine's miss path, with the victim's owner (what
/// a hierarchy needs to pass the victim down and count it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placed {
    /// Already resident ([`crate::Cache::absorb`] only).
    Present,
    /// Allocated, evicting `victim` or filling an invalid way.
    Filled { victim: Option<Line> },
    /// Not allocated: an unallocated stream, or the policy's bypass.
    Bypassed,
}

impl Placed {
    /// As [`BlockOutcome`].
    pub fn outcome(self) -> BlockOutcome {
        match self {
            Placed::Present => BlockOutcome::Hit,
            Placed::Filled { victim } => BlockOutcome::Fill {
                victim: victim.map(|v| (v.block, v.dirty)),
            },
            Placed::Bypassed => BlockOutcome::Bypass,
        }
    }
}
