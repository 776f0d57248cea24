//! The distributed Affinity Table (Section IV-B): every node (a fragment
//! processor with its texture cache) keeps its own table and counts only
//! its own accesses. At the start every node owns every bucket (so the
//! caches behave as private ones). At every epoch's end each node
//! broadcasts the buckets it owns with its counts, and every node adopts,
//! per bucket, the claimant with the largest count, ties to the lowest id.
//!
//! (ours) Between broadcasts a node claims a bucket when its own counter
//! saturates and beats, by the margin, the count its owner announced at
//! the last broadcast: as announced, or reset as the owner's own counter
//! was ([`AnnouncedCount`]). The functional model applies a broadcast at
//! once; the paper's lazy propagation takes time, which is the timing
//! model's business.

use crate::bucket::Bucket;
use crate::counter::{beats, bump, reset};
use crate::{AnnouncedCount, EpochReset};

/// One node's Affinity Table.
#[derive(Clone, Debug)]
pub struct NodeTable {
    node: u16,
    /// Per bucket, the owner as this node knows it.
    owners: Vec<u16>,
    /// Per bucket, this node's own access counter.
    counts: Vec<u8>,
    /// Per bucket, the count its owner announced at the last broadcast, as
    /// [`AnnouncedCount`] keeps it.
    owner_counts: Vec<u8>,
}

impl NodeTable {
    /// Node `node`'s table at the start: it owns all `buckets`.
    pub fn new(node: usize, buckets: usize) -> NodeTable {
        NodeTable {
            node: node as u16,
            owners: vec![node as u16; buckets],
            counts: vec![0; buckets],
            owner_counts: vec![0; buckets],
        }
    }

    /// The owner of bucket `b` as this node knows it.
    #[inline]
    pub fn owner(&self, b: Bucket) -> usize {
        self.owners[b] as usize
    }

    /// How many buckets this node owns as it knows them: what its epoch
    /// broadcast announces.
    pub fn owned(&self) -> u32 {
        self.owners.iter().filter(|&&o| o == self.node).count() as u32
    }

    /// This node's counter for bucket `b`.
    pub fn count(&self, b: Bucket) -> u8 {
        self.counts[b]
    }

    /// The count bucket `b`'s owner announced at the last broadcast, as
    /// [`AnnouncedCount`] keeps it.
    pub fn owner_count(&self, b: Bucket) -> u8 {
        self.owner_counts[b]
    }

    /// Counts one access of this node to bucket `b` (counters saturate at
    /// `max`); true when it makes the node claim the bucket.
    #[inline]
    pub fn record(&mut self, b: Bucket, max: u8, margin_percent: u32) -> bool {
        if !bump(&mut self.counts[b], max) {
            return false;
        }
        let claim = self.owners[b] != self.node
            && beats(self.counts[b], self.owner_counts[b], margin_percent);
        if claim {
            self.owners[b] = self.node;
        }
        self.counts[b] >>= 1;
        claim
    }
}

/// What an epoch's broadcasts did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Synchronized {
    /// Nodes that announced at least one owned bucket.
    pub broadcasts: u64,
    /// Owned buckets announced, all nodes together.
    pub buckets_announced: u64,
    /// Entries of any node's table whose owner changed.
    pub ownership_changes: u64,
}

/// An epoch's end: every node broadcasts the buckets it owns, every node
/// adopts each bucket's winning claimant and keeps its count as `announced`
/// says, and every counter resets as `epoch_reset` says.
pub fn synchronize(
    tables: &mut [NodeTable],
    epoch_reset: EpochReset,
    announced: AnnouncedCount,
) -> Synchronized {
    let mut done = Synchronized::default();
    for t in tables.iter() {
        let owned = t.owners.iter().filter(|&&o| o == t.node).count() as u64;
        done.broadcasts += u64::from(owned > 0);
        done.buckets_announced += owned;
    }
    let buckets = tables.first().map_or(0, |t| t.owners.len());
    for b in 0..buckets {
        let mut winner: Option<(u16, u8)> = None;
        for t in tables.iter() {
            if t.owners[b] == t.node && winner.is_none_or(|(_, c)| t.counts[b] > c) {
                winner = Some((t.node, t.counts[b]));
            }
        }
        let Some((w, c)) = winner else { continue };
        let kept = match announced {
            AnnouncedCount::AsAnnounced => c,
            AnnouncedCount::Halved => reset(c, epoch_reset),
        };
        for t in tables.iter_mut() {
            done.ownership_changes += u64::from(t.owners[b] != w);
            t.owners[b] = w;
            t.owner_counts[b] = kept;
        }
    }
    for t in tables.iter_mut() {
        for c in t.counts.iter_mut() {
            *c = reset(*c, epoch_reset);
        }
    }
    done
}
