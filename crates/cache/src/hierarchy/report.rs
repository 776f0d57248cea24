//! What a hierarchy reports: per level and per stream, what `sim` reports
//! of one cache and what only a hierarchy has (blocks received from
//! above, back-invalidations), and the traffic that leaves the last level.

use std::collections::BTreeMap;

use serde::Serialize;

use super::config::Inclusion;
use crate::stats::ratio;

/// One level's counts (all streams, or one).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct LevelCounts {
    /// Demand accesses: the trace's block accesses at the first level,
    /// below it the misses of the level above that reach this one.
    pub accesses: u64,
    pub hits: u64,
    pub misses: u64,
    /// Lines allocated: on demand misses, and for blocks received from
    /// above that were not resident.
    pub fills: u64,
    /// Demand misses not allocated: a stream left out (`+ucd`) or the
    /// policy's bypass. An exclusive level's misses that the level above
    /// takes are not bypasses.
    pub bypasses: u64,
    /// Lines evicted to make room, counted against the evicted line's stream.
    pub evictions: u64,
    /// Dirty blocks sent down: dirty evictions, and evictions whose
    /// back-invalidated copy above was dirty.
    pub writebacks: u64,
    /// Blocks received from the level above: its dirty victims
    /// (write-backs), or every victim into an exclusive level.
    pub received: u64,
    /// Lines of the levels above invalidated because this level evicted
    /// their block (inclusive levels only), by the invalidated line's stream.
    pub back_invalidations: u64,
}

impl LevelCounts {
    pub fn miss_ratio(&self) -> f64 {
        ratio(self.misses, self.accesses)
    }

    pub(crate) fn add(&mut self, o: &LevelCounts) {
        self.accesses += o.accesses;
        self.hits += o.hits;
        self.misses += o.misses;
        self.fills += o.fills;
        self.bypasses += o.bypasses;
        self.evictions += o.evictions;
        self.writebacks += o.writebacks;
        self.received += o.received;
        self.back_invalidations += o.back_invalidations;
    }

    pub(crate) fn is_empty(&self) -> bool {
        *self == LevelCounts::default()
    }
}

/// One level of a [`HierarchyReport`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LevelReport {
    pub name: String,
    /// Capacity in bytes.
    pub size: u64,
    pub ways: u32,
    pub sets: u32,
    pub block: u32,
    pub policy: String,
    /// `null` for the first level.
    pub inclusion: Option<Inclusion>,
    #[serde(flatten)]
    pub counts: LevelCounts,
    pub miss_ratio: f64,
    /// Streams with any count, by name.
    pub per_stream: BTreeMap<&'static str, LevelCounts>,
    /// The policy's figures (DRRIP's PSEL, ...).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub report: BTreeMap<&'static str, f64>,
    /// What the policy does on this level's geometry that its name does
    /// not promise.
    pub warnings: Vec<String>,
}

/// Blocks that leave the last level for memory.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct MemoryCounts {
    /// Demand reads: misses of the last level (and of the levels above
    /// it that no level below holds), whether or not a level allocates.
    pub reads: u64,
    /// Dirty blocks written back by the last level, and writes no level
    /// allocated.
    pub writes: u64,
}

/// A hierarchy's run: every level, then memory.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HierarchyReport {
    /// The policy at every level, or the levels' policies joined by `/`.
    pub policy: String,
    pub levels: Vec<LevelReport>,
    pub memory: MemoryCounts,
    pub memory_per_stream: BTreeMap<&'static str, MemoryCounts>,
}
