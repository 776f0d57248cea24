//! What goes in and out of an Attribute Cache: requests from the Polygon
//! List Builder and the Tile Fetcher, the blocks it asks of the L2, the
//! Tile Fetcher's output queue, and its statistics.

use std::collections::VecDeque;

use serde::Serialize;

use crate::attribute_buffer::Abp;
use crate::binning::OptNumber;
use crate::layout::PbAccess;

/// A read or write request to the Attribute Cache: the fields of a PMD.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Request {
    /// Primitive ID: the address of its first attribute.
    pub id: u64,
    pub prim: u32,
    pub attributes: u32,
    pub opt: OptNumber,
}

impl Request {
    /// The request for an access: its PMD's fields, and the primitive's
    /// number for the simulator's bookkeeping.
    pub fn from_access(a: &PbAccess) -> Request {
        let pmd = a.pmd();
        Request {
            id: pmd.primitive_id,
            prim: a.prim,
            attributes: pmd.attributes,
            opt: pmd.opt,
        }
    }
}

/// One attribute block the Attribute Cache reads from or writes to the L2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct L2Request {
    pub block: u64,
    pub write: bool,
    pub prim: u32,
}

/// An entry of the Tile Fetcher's output queue: the primitive and its ABP
/// (`None` for a primitive streamed past the cache).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Queued {
    pub id: u64,
    pub abp: Option<Abp>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadOutcome {
    Hit(Queued),
    Miss(Queued),
    /// Too many attributes to ever fit: read from the L2, not cached.
    Streamed(Queued),
    /// Every candidate is locked: nothing changed; retry after the
    /// Rasterizer consumes a queued primitive.
    Stall,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WriteOutcome {
    Allocated,
    Bypassed,
}

/// Counters of an Attribute Cache. Requests count primitives; L2 traffic
/// counts attributes, which are 64-byte blocks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct AttributeCacheStats {
    pub reads: u64,
    pub read_hits: u64,
    /// Includes `streamed_reads`.
    pub read_misses: u64,
    pub streamed_reads: u64,
    /// Times a read found every candidate locked and waited.
    pub stalls: u64,
    pub writes: u64,
    pub write_bypasses: u64,
    pub evictions: u64,
    pub dirty_evictions: u64,
    /// Attribute blocks read from the L2.
    pub l2_reads: u64,
    /// Attribute blocks written to the L2 (bypassed writes and write-backs).
    pub l2_writes: u64,
}

impl AttributeCacheStats {
    /// Misses in the paper's sense (Section V-A), in primitives: every write
    /// (a compulsory miss, allocated or bypassed) plus the read misses.
    pub fn misses(&self) -> u64 {
        self.writes + self.read_misses
    }
}

/// The Tile Fetcher's output queue to the Rasterizer.
#[derive(Clone, Debug)]
pub struct OutputQueue {
    pub(super) depth: usize,
    pub(super) q: VecDeque<Queued>,
}

impl OutputQueue {
    /// A queue the Rasterizer keeps at most `depth` primitives deep.
    pub fn new(depth: usize) -> OutputQueue {
        OutputQueue {
            depth,
            // Grown on demand past this: a huge depth is only as large as
            // the frame's reads.
            q: VecDeque::with_capacity(depth.saturating_add(1).min(1024)),
        }
    }

    pub fn depth(&self) -> usize {
        self.depth
    }

    /// The primitives waiting for the Rasterizer, oldest first (their
    /// Attribute Cache lines are locked).
    pub fn waiting(&self) -> impl Iterator<Item = &Queued> + '_ {
        self.q.iter()
    }
}
