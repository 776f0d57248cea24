//! The centralized Affinity Table (Sections III-A, III-B, IV-A, Figure 4):
//! one entry per bucket with its owner and one k-bit saturating counter per
//! fragment processor.
//!
//! - The first fragment processor to access a bucket owns it.
//! - Every counted access by fragment processor p to bucket b increments
//!   `cnt[b][p]`. When that saturates, the bucket's counters are all halved
//!   (the saturated one too), and p takes the bucket over if its count
//!   beats the owner's by the margin ([`crate::counter::beats`], on the
//!   counts before halving: "the saturating counter must be greater than
//!   the one from the current owner plus a percentage").
//! - At an epoch's end every bucket's owner is re-decided (the largest
//!   count, ties to the lowest id; a bucket whose counts are all zero
//!   keeps its owner) and the counters reset ([`crate::EpochReset`]).

use crate::bucket::Bucket;
use crate::counter::{argmax, beats, bump, counter_max, reset};
use crate::EpochReset;

/// An owner field with no owner yet.
const NONE: u16 = u16::MAX;

/// The size in bits of an Affinity Table of `buckets` entries for `fps`
/// fragment processors with `counter_bits`-bit counters: n x (P x k +
/// ceil(log2 P)), a counter per fragment processor and an owner field per
/// bucket. 4,256 bits (0.51 KiB) for the paper's 32 buckets, 32 FPs and
/// 4-bit counters.
pub fn affinity_table_bits(buckets: u32, fps: usize, counter_bits: u32) -> u64 {
    let owner_bits = u64::from(usize::BITS - fps.saturating_sub(1).leading_zeros());
    u64::from(buckets) * (fps as u64 * u64::from(counter_bits) + owner_bits)
}

/// The centralized Affinity Table.
#[derive(Clone, Debug)]
pub struct AffinityTable {
    fps: usize,
    max: u8,
    margin_percent: u32,
    epoch_reset: EpochReset,
    /// Per bucket, its owner or [`NONE`].
    owners: Vec<u16>,
    /// Per bucket, `fps` counters.
    counters: Vec<u8>,
    ownership_changes: u64,
}

impl AffinityTable {
    /// An empty table: no bucket owned, every counter zero. `fps` at most
    /// [`crate::config::MAX_FPS`], `counter_bits` 1 to 8.
    pub fn new(
        buckets: usize,
        fps: usize,
        counter_bits: u32,
        margin_percent: u32,
        epoch_reset: EpochReset,
    ) -> AffinityTable {
        assert!(fps > 0 && fps <= crate::config::MAX_FPS);
        AffinityTable {
            fps,
            max: counter_max(counter_bits),
            margin_percent,
            epoch_reset,
            owners: vec![NONE; buckets],
            counters: vec![0; buckets * fps],
            ownership_changes: 0,
        }
    }

    /// The owner of bucket `b`, if any fragment processor has accessed it.
    #[inline]
    pub fn owner(&self, b: Bucket) -> Option<usize> {
        let o = self.owners[b];
        (o != NONE).then_some(o as usize)
    }

    /// Fragment processor `fp`'s counter for bucket `b`.
    pub fn counter(&self, b: Bucket, fp: usize) -> u8 {
        self.counters[b * self.fps + fp]
    }

    /// Bucket `b`'s counters, one per fragment processor.
    pub fn counters(&self, b: Bucket) -> &[u8] {
        &self.counters[b * self.fps..][..self.fps]
    }

    /// Times a bucket passed from one owner to another (a first owner is
    /// not a change).
    pub fn ownership_changes(&self) -> u64 {
        self.ownership_changes
    }

    /// A request of fragment processor `fp` for bucket `b` arriving at the
    /// table: returns the owner it retrieves (`fp` itself when nobody owned
    /// the bucket), then counts the access, which may hand the bucket to
    /// `fp` for the requests that follow.
    #[inline]
    pub fn request(&mut self, b: Bucket, fp: usize) -> usize {
        if self.owners[b] == NONE {
            self.owners[b] = fp as u16;
        }
        let seen = self.owners[b] as usize;
        self.count(b, fp);
        seen
    }

    /// Counts one access of `fp` to bucket `b` (which has an owner): the
    /// saturation, halving and takeover rule.
    #[inline]
    fn count(&mut self, b: Bucket, fp: usize) {
        let row = &mut self.counters[b * self.fps..][..self.fps];
        if !bump(&mut row[fp], self.max) {
            return;
        }
        let owner = self.owners[b] as usize;
        if owner != fp && beats(row[fp], row[owner], self.margin_percent) {
            self.owners[b] = fp as u16;
            self.ownership_changes += 1;
        }
        for c in row.iter_mut() {
            *c >>= 1;
        }
    }

    /// The end of an epoch: every bucket's owner re-decided from its
    /// counters, then the counters reset.
    pub fn end_epoch(&mut self) {
        for (b, row) in self.counters.chunks_exact_mut(self.fps).enumerate() {
            if let Some(best) = argmax(row) {
                if self.owners[b] != best as u16 {
                    if self.owners[b] != NONE {
                        self.ownership_changes += 1;
                    }
                    self.owners[b] = best as u16;
                }
            }
            for c in row.iter_mut() {
                *c = reset(*c, self.epoch_reset);
            }
        }
    }
}
