//! Where a fragment processor's texture access is served: its own texture
//! cache, another processor's over the interconnect, or the L2. A
//! placement is the functional part of a texture cache organization
//! (private caches, S-NUCA, D-NUCA, DTM-NUCA centralized or distributed,
//! one ideal shared cache): it decides, fills and evicts; the machine
//! ([`crate::machine`]) sends the messages that decision takes and times
//! them.
//!
//! The organizations are DTM-NUCA's study's (`gfxcache-nuca`), each in a
//! file of its own there with one line that makes it a [`Placement`].

use serde::{Deserialize, Serialize};

use crate::texture_cache::TextureCache;

/// Where one texture access was served.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The requester's own texture cache (the ideal shared cache's every
    /// hit: it has no distance).
    LocalHit,
    /// The texture cache of fragment processor `owner`, over the network.
    RemoteHit { owner: usize },
    /// The L2. `owner` is `Some(o)` when the request went to fragment
    /// processor `o`, which missed, read the L2, filled its own cache and
    /// forwarded the block; `None` when the requester read the L2 itself
    /// and filled its own cache (the shared cache, for the ideal one).
    L2 { owner: Option<usize> },
}

/// How a placement's requests travel, for the machine's timing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// No mesh: a local probe, then the L2 (private caches, the ideal
    /// shared cache).
    Private,
    /// D-NUCA: a local miss asks the directory at the centre router.
    Directory,
    /// Centralized DTM-NUCA: a local miss asks the Affinity Table at the
    /// centre router, which also counts local hits.
    Central,
    /// Distributed DTM-NUCA: a local miss goes straight to the owner the
    /// node's own table names; epochs end in broadcasts.
    Distributed,
    /// S-NUCA: a block homed elsewhere is asked for at its home with no
    /// local probe.
    Static,
}

/// Running totals of what a placement did beside serving, which send
/// messages off the critical path: the machine compares them before and
/// after each access.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideEvents {
    /// Blocks evicted from texture caches by fills (D-NUCA notifies its
    /// directory of each).
    pub evictions: u64,
    /// Accesses counted in a centralized table (a local hit's count
    /// update is a message to the table).
    pub table_updates: u64,
    /// Epochs ended (the distributed tables broadcast at each).
    pub epochs: u64,
    /// Buckets that passed from one owner to another (DTM-NUCA; for the
    /// distributed tables, every change of any node's view): no message
    /// of its own, but what the tables' counts decided.
    #[serde(default)]
    pub ownership_changes: u64,
}

/// What a placement served so far, by where: every access is one of a
/// local hit, a remote hit or an L2 request.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Served {
    pub accesses: u64,
    pub local_hits: u64,
    pub remote_hits: u64,
    pub l2_requests: u64,
    /// The part of `l2_requests` an owner made for the requester.
    pub l2_requests_by_owner: u64,
    /// Lookups that found their block on its way to the requester (a
    /// non-blocking L1's secondary misses, [`Placement::merged`]): not
    /// accesses, whatever the placement's tables do with them.
    #[serde(default)]
    pub merged_lookups: u64,
}

/// One placement of the texture caches. Block addresses are byte
/// addresses shifted by the block size; `fp` must be below the machine's
/// fragment processors (the replay checks its input).
pub trait Placement {
    /// How its requests travel.
    const FLOW: Flow;

    /// Serves one texture access of fragment processor `fp` to `block`:
    /// probes, fills, evicts, updates its tables, counts, and says where
    /// it was served.
    fn access(&mut self, fp: usize, block: u64) -> Outcome;

    /// [`Placement::access`] for a texture unit that fills its own cache
    /// when the block returns (the NBTC's L1): the decision, the tables
    /// and any other cache's fill are made now, but a block `fp`'s own
    /// cache is to take is taken at [`Placement::returned`]. By default
    /// the access itself (the block taken now).
    fn access_deferred(&mut self, fp: usize, block: u64) -> Outcome {
        self.access(fp, block)
    }

    /// The block of `fp`'s [`Placement::access_deferred`] has returned:
    /// `fp`'s own cache takes it if that access put it there (and it is
    /// not there already). By default nothing (it was taken at the
    /// access).
    fn returned(&mut self, _fp: usize, _block: u64) {}

    /// A lookup of `fp` that missed its own cache but found `block` on
    /// its way there (a non-blocking L1 merged it with the miss already
    /// sent): nothing is served, filled or evicted; the placement's
    /// tables may count it as the access it is. By default nothing.
    fn merged(&mut self, _fp: usize, _block: u64) {}

    /// What it did beside serving, so far.
    fn side_events(&self) -> SideEvents;

    /// What it served, so far.
    fn served(&self) -> Served;

    /// The texture caches, by fragment processor (the ideal shared cache:
    /// its one cache).
    fn caches(&self) -> &[TextureCache];

    /// Whether `fp`'s texture cache holds `block` (the ideal shared
    /// cache: the one cache): a probe that changes nothing.
    fn holds(&self, fp: usize, block: u64) -> bool {
        let caches = self.caches();
        caches[if caches.len() == 1 { 0 } else { fp }].contains(block)
    }

    /// Buckets node `node` announced in its last epoch broadcast (only the
    /// distributed Affinity Table broadcasts).
    fn announced(&self, _node: usize) -> u32 {
        0
    }

    /// Bits of one announced bucket: its id and its count.
    fn broadcast_entry_bits(&self) -> u32 {
        0
    }
}
