//! DTM-NUCA with a distributed Affinity Table (Section IV-B): the request
//! flow of the centralized design ([`super::Dtm`]), with each fragment
//! processor asking its own table ([`NodeTable`]), which may disagree with
//! the others within an epoch. A request reaching a node that no longer
//! owns the bucket is still served there (ours).

use super::{Organization, TextureCaches};
use crate::bucket::Buckets;
use crate::counter::counter_max;
use crate::epoch::Epoch;
use crate::node_table::{synchronize, NodeTable};
use crate::{AnnouncedCount, CountedAccesses, EpochReset, MergedLookups, NucaConfig, NucaError};
use gfxcache_gpu::Outcome;

pub struct DtmDistributed {
    fps: TextureCaches,
    buckets: Buckets,
    tables: Vec<NodeTable>,
    epoch: Epoch,
    max: u8,
    margin_percent: u32,
    epoch_reset: EpochReset,
    announced_count: AnnouncedCount,
    counted: CountedAccesses,
    merged: MergedLookups,
    /// Per node, the buckets it announced at the last epoch's end.
    announced: Vec<u32>,
    entry_bits: u32,
}

impl DtmDistributed {
    pub fn new(config: &NucaConfig) -> Result<DtmDistributed, NucaError> {
        let fps = TextureCaches::private(config)?;
        let buckets = Buckets::new(config.page_blocks, config.buckets);
        Ok(DtmDistributed {
            tables: (0..config.fps)
                .map(|n| NodeTable::new(n, buckets.len()))
                .collect(),
            fps,
            buckets,
            epoch: Epoch::new(config.epoch),
            max: counter_max(config.counter_bits),
            margin_percent: config.margin_percent,
            epoch_reset: config.epoch_reset,
            announced_count: config.announced_count,
            counted: config.counted,
            merged: config.merged,
            announced: vec![0; config.fps],
            entry_bits: config.buckets.next_power_of_two().trailing_zeros() + config.counter_bits,
        })
    }

    /// Every node's table, by node. For checks.
    pub fn tables(&self) -> &[NodeTable] {
        &self.tables
    }

    #[inline]
    fn count(&mut self, fp: usize, b: usize) {
        self.fps.stats.at_updates += 1;
        if self.tables[fp].record(b, self.max, self.margin_percent) {
            self.fps.stats.ownership_changes += 1;
        }
    }
}

impl Organization for DtmDistributed {
    #[inline]
    fn serve(&mut self, fp: usize, block: u64) -> Outcome {
        let b = self.buckets.bucket_of(block);
        let owner = self.tables[fp].owner(b);
        if self.counted == CountedAccesses::Every {
            self.count(fp, b);
        }
        if self.fps.hit(fp, block, owner == fp) {
            return Outcome::LocalHit;
        }
        self.fps.stats.at_lookups += 1;
        if self.counted == CountedAccesses::LocalMisses {
            self.count(fp, b);
        }
        self.fps.serve_by_owner(fp, owner, block)
    }

    /// As the centralized table's ([`super::Dtm`]): in the node's own
    /// table.
    fn count_merged(&mut self, fp: usize, block: u64) -> bool {
        if self.merged == MergedLookups::Unseen {
            return false;
        }
        let b = self.buckets.bucket_of(block);
        self.count(fp, b);
        true
    }

    #[inline]
    fn after(&mut self) {
        if self.epoch.tick() {
            for (a, t) in self.announced.iter_mut().zip(&self.tables) {
                *a = t.owned();
            }
            let done = synchronize(&mut self.tables, self.epoch_reset, self.announced_count);
            self.fps.stats.epochs = self.epoch.ended();
            self.fps.stats.broadcasts += done.broadcasts;
            self.fps.stats.broadcast_buckets += done.buckets_announced;
            self.fps.stats.ownership_changes += done.ownership_changes;
        }
    }

    fn fps(&self) -> &TextureCaches {
        &self.fps
    }

    fn fps_mut(&mut self) -> &mut TextureCaches {
        &mut self.fps
    }

    fn announced(&self, node: usize) -> u32 {
        self.announced[node]
    }

    fn broadcast_entry_bits(&self) -> u32 {
        self.entry_bits
    }
}
