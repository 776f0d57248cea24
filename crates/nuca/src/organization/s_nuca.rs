//! S-NUCA [ours, for context] (Kim, Burger and Keckler's static NUCA, the
//! paper's Section II-D): bucket b lives in the texture cache of fragment
//! processor b mod P, always, with no table. No replication, no
//! migration.

use super::{holders, private_caches, serve_by_owner, Flow, Organization};
use crate::bucket::Buckets;
use crate::stats::{NucaStats, Outcome};
use crate::texture_cache::TextureCache;
use crate::{NucaConfig, NucaError};

pub struct SNuca {
    caches: Vec<TextureCache>,
    buckets: Buckets,
    stats: NucaStats,
}

impl SNuca {
    pub fn new(config: &NucaConfig) -> Result<SNuca, NucaError> {
        Ok(SNuca {
            caches: private_caches(config)?,
            buckets: Buckets::new(config.page_blocks, config.buckets),
            stats: NucaStats::new(config.fps),
        })
    }

    /// The fragment processor whose cache holds `block`'s bucket.
    pub fn home(&self, block: u64) -> usize {
        self.buckets.bucket_of(block) % self.caches.len()
    }
}

impl Organization for SNuca {
    const FLOW: Flow = Flow::Static;

    #[inline]
    fn access(&mut self, fp: usize, block: u64) -> Outcome {
        let home = self.home(block);
        let outcome = if home == fp && self.caches[fp].hit(block, true) {
            Outcome::LocalHit
        } else {
            serve_by_owner(&mut self.caches, fp, home, block, &mut self.stats)
        };
        let n = holders(&self.caches, block);
        self.stats.record(outcome, n);
        outcome
    }

    fn stats(&self) -> &NucaStats {
        &self.stats
    }

    fn caches(&self) -> &[TextureCache] {
        &self.caches
    }
}
