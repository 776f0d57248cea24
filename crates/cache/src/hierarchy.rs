//! Multi-level cache hierarchies, as ChampSim, gem5 and Dinero IV model
//! them: levels of set-associative caches between the trace and memory,
//! each with its own geometry, policy and inclusion policy.
//!
//! The first level sees every block access of the trace. A level that
//! misses asks the level below before it fills, as a cache with miss
//! handling does: the levels below answer (and make their own fills,
//! evictions and back-invalidations) first, then this level fills and its
//! victim goes down after. Every level is write-back and write-allocate,
//! as the engine's default: a write dirties the first level that keeps
//! the block, and the levels below see a read for it. A dirty victim goes
//! down as a write-back; a write-back that hits marks its line dirty and
//! leaves the replacement state alone (as ChampSim's LRU); one that misses
//! allocates the line dirty, fetching nothing (a whole line is written).
//! Memory takes the last level's misses and dirty victims.
//!
//! A level below the first has an [`Inclusion`] with respect to the levels
//! above it:
//! - [`Inclusion::Inclusive`]: it allocates on every miss from above, and a
//!   block it evicts is invalidated in every level above
//!   (back-invalidation); a dirty copy there makes the eviction's
//!   write-back. Invariant: every block of a level above is in it. It may
//!   not leave a stream unallocated (`+ucd`).
//! - [`Inclusion::NonInclusive`] (NINE, the default): it allocates on every
//!   miss from above, evicts without back-invalidation.
//! - [`Inclusion::Exclusive`]: a miss from above that a level above will
//!   keep is passed down and not allocated here; a hit hands the block up
//!   (it leaves this level, dirty or not, and lands dirty in the first
//!   level above that keeps it); the level above sends it every victim,
//!   clean or dirty, which it allocates. Invariant: no block of the level
//!   directly above is in it. A miss no level above keeps (a stream left
//!   out above) it serves as an ordinary cache. A block the level above
//!   allocates from above it (a write-back that misses there, a victim)
//!   is dropped from the exclusive levels right below, whose copy is
//!   older (a dirty copy's dirt goes with the block).
//!
//! A block a level does not keep (its stream unallocated, or the policy's
//! bypass) goes back down like a victim when no level above keeps it.
//!
//! An invalidated line leaves a hole that the next miss to its set fills
//! before the policy is asked for a victim ([`crate::Cache::invalidate`]).
//! Every level has the same block size.
//!
//! Per level and stream the hierarchy counts demand accesses, hits and
//! misses, fills, bypasses, evictions, write-backs, blocks received from
//! above and back-invalidations ([`LevelCounts`]); memory counts reads and
//! writes.
//!
//! Cost: the first level runs each batch in a loop monomorphized for its
//! policy, returning only at a miss ([`crate::Cache::probe_run`]); each
//! block that goes between levels (a miss, a victim, a back-invalidation)
//! costs one dynamic call per level it reaches ([`LevelCache`]), so that
//! any policy of a registry may sit at any level. Nothing is allocated per
//! access.

mod config;
mod level;
mod model;
mod report;

pub use config::{
    parse_levels, HierarchyConfig, HierarchyError, HierarchyFile, Inclusion, LevelConfig,
    LevelDefaults, LevelSpec, WaysField,
};
pub use level::LevelCache;
pub use model::Hierarchy;
pub use report::{HierarchyReport, LevelCounts, LevelReport, MemoryCounts};
