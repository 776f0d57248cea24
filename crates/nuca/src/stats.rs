//! What the functional models count: where each texture access was served
//! and what the mechanism did meanwhile. The L2's hits and misses come
//! from the machine around the organization ([`crate::machine`]); latency,
//! traffic and energy are reported beside these counts
//! ([`crate::OrgResult`]).

use gfxcache_gpu::Outcome;
use serde::{Deserialize, Serialize};

/// The counts of one organization over a replay. Every texture access is
/// exactly one of a local hit, a remote hit or an L2 request.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct NucaStats {
    /// Texture block accesses replayed.
    pub texture_accesses: u64,
    pub local_hits: u64,
    pub remote_hits: u64,
    /// Accesses served by the L2 (its hits and misses come with the L2
    /// model).
    pub l2_requests: u64,
    /// The L2's answers to `l2_requests` (the machine's L2, [`crate::l2`]):
    /// `l2_hits + l2_misses == l2_requests`.
    pub l2_hits: u64,
    pub l2_misses: u64,
    /// The part of `l2_requests` a remote owner made for the requester.
    pub l2_requests_by_owner: u64,
    /// Figure 1: entry `i` counts the accesses after whose service the
    /// block was in `i` texture caches (`fps + 1` entries; the ideal
    /// shared cache is one cache).
    pub replication: Vec<u64>,
    /// Blocks evicted from texture caches by fills.
    pub evictions: u64,
    /// Buckets passing from one owner to another (DTM-NUCA; for the
    /// distributed table, every change of any node's view).
    pub ownership_changes: u64,
    /// Epochs ended (DTM-NUCA).
    pub epochs: u64,
    /// Distributed DTM-NUCA: broadcast packets sent at epoch ends (one per
    /// node that owns at least one bucket) and the owned buckets they
    /// announced in all.
    pub broadcasts: u64,
    pub broadcast_buckets: u64,
    /// D-NUCA: directory lookups (one per local miss).
    pub directory_lookups: u64,
    /// DTM-NUCA: Affinity Table lookups for an owner (one per local miss).
    pub at_lookups: u64,
    /// DTM-NUCA: accesses counted in the Affinity Table.
    pub at_updates: u64,
    /// Lookups a non-blocking texture unit merged with a miss already on
    /// its way ([`gfxcache_gpu::Placement::merged`]; never in DTM-NUCA's
    /// own replay, whose caches block): not texture accesses. Whether the
    /// Affinity Table counts them is [`crate::MergedLookups`].
    #[serde(default)]
    pub merged_lookups: u64,
}

impl NucaStats {
    /// Empty counts for `fps` fragment processors.
    pub fn new(fps: usize) -> NucaStats {
        NucaStats {
            replication: vec![0; fps + 1],
            ..NucaStats::default()
        }
    }

    /// Counts one access served as `outcome`, after which its block was in
    /// `holders` texture caches.
    #[inline]
    pub fn record(&mut self, outcome: Outcome, holders: usize) {
        self.texture_accesses += 1;
        match outcome {
            Outcome::LocalHit => self.local_hits += 1,
            Outcome::RemoteHit { .. } => self.remote_hits += 1,
            Outcome::L2 { owner } => {
                self.l2_requests += 1;
                self.l2_requests_by_owner += u64::from(owner.is_some());
            }
        }
        self.replication[holders] += 1;
    }
}
