//! S-NUCA [ours, for context] (Kim, Burger and Keckler's static NUCA, the
//! paper's Section II-D): bucket b lives in the texture cache of fragment
//! processor b mod P, always, with no table. No replication, no
//! migration.

use super::{Organization, TextureCaches};
use crate::bucket::Buckets;
use crate::{NucaConfig, NucaError};
use gfxcache_gpu::Outcome;

pub struct SNuca {
    fps: TextureCaches,
    buckets: Buckets,
}

impl SNuca {
    pub fn new(config: &NucaConfig) -> Result<SNuca, NucaError> {
        Ok(SNuca {
            fps: TextureCaches::private(config)?,
            buckets: Buckets::new(config.page_blocks, config.buckets),
        })
    }

    /// The fragment processor whose cache holds `block`'s bucket.
    pub fn home(&self, block: u64) -> usize {
        self.buckets.bucket_of(block) % self.fps.caches.len()
    }
}

impl Organization for SNuca {
    #[inline]
    fn serve(&mut self, fp: usize, block: u64) -> Outcome {
        let home = self.home(block);
        if home == fp && self.fps.hit(fp, block, true) {
            return Outcome::LocalHit;
        }
        self.fps.serve_by_owner(fp, home, block)
    }

    fn fps(&self) -> &TextureCaches {
        &self.fps
    }

    fn fps_mut(&mut self) -> &mut TextureCaches {
        &mut self.fps
    }
}
