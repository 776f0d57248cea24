//! DTM-NUCA with the centralized Affinity Table (Sections III and IV-A).
//!
//! A texture access of fragment processor p to a block of bucket b probes
//! p's cache first. A hit is served there; if p does not own b, the hit
//! leaves the LRU order alone, so a copy left behind by an ownership change
//! ages out. A miss asks the Affinity Table for b's owner: another owner's
//! cache serves the block, or, missing too, reads the L2, fills its own
//! cache and forwards the block; if p owns b (or nobody did, and p becomes
//! the first owner) p reads the L2 and fills its own cache (ours).
//! Which accesses the table counts is [`CountedAccesses`], and whether
//! it counts a non-blocking L1's merged lookups [`MergedLookups`]. Every
//! `epoch` texture accesses (and counted merged lookups) the table
//! re-decides its owners.

use super::{Organization, TextureCaches};
use crate::affinity_table::AffinityTable;
use crate::bucket::Buckets;
use crate::epoch::Epoch;
use crate::{CountedAccesses, MergedLookups, NucaConfig, NucaError};
use gfxcache_gpu::Outcome;

pub struct Dtm {
    fps: TextureCaches,
    buckets: Buckets,
    table: AffinityTable,
    epoch: Epoch,
    counted: CountedAccesses,
    merged: MergedLookups,
}

impl Dtm {
    pub fn new(config: &NucaConfig) -> Result<Dtm, NucaError> {
        let fps = TextureCaches::private(config)?;
        let buckets = Buckets::new(config.page_blocks, config.buckets);
        Ok(Dtm {
            table: AffinityTable::new(
                buckets.len(),
                config.fps,
                config.counter_bits,
                config.margin_percent,
                config.epoch_reset,
            ),
            fps,
            buckets,
            epoch: Epoch::new(config.epoch),
            counted: config.counted,
            merged: config.merged,
        })
    }

    /// The Affinity Table. For checks.
    pub fn table(&self) -> &AffinityTable {
        &self.table
    }
}

impl Organization for Dtm {
    #[inline]
    fn serve(&mut self, fp: usize, block: u64) -> Outcome {
        let b = self.buckets.bucket_of(block);
        let mut seen = None;
        if self.counted == CountedAccesses::Every {
            self.fps.stats.at_updates += 1;
            seen = Some(self.table.request(b, fp));
        }
        // Nobody owns b only when the table has not counted this access;
        // then p is about to become its first owner.
        let owns = seen.or_else(|| self.table.owner(b)).is_none_or(|o| o == fp);
        if self.fps.hit(fp, block, owns) {
            return Outcome::LocalHit;
        }
        self.fps.stats.at_lookups += 1;
        let owner = match seen {
            Some(o) => o,
            None => {
                self.fps.stats.at_updates += 1;
                self.table.request(b, fp)
            }
        };
        self.fps.serve_by_owner(fp, owner, block)
    }

    /// A merged lookup missed its own cache, so it counts under either
    /// [`CountedAccesses`]; the block's miss has found the bucket an
    /// owner already.
    fn count_merged(&mut self, fp: usize, block: u64) -> bool {
        if self.merged == MergedLookups::Unseen {
            return false;
        }
        self.fps.stats.at_updates += 1;
        self.table.request(self.buckets.bucket_of(block), fp);
        true
    }

    #[inline]
    fn after(&mut self) {
        if self.epoch.tick() {
            self.table.end_epoch();
            self.fps.stats.epochs = self.epoch.ended();
        }
        self.fps.stats.ownership_changes = self.table.ownership_changes();
    }

    fn fps(&self) -> &TextureCaches {
        &self.fps
    }

    fn fps_mut(&mut self) -> &mut TextureCaches {
        &mut self.fps
    }
}
