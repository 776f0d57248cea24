//! The baseline (Section VI): each fragment processor's texture cache is
//! private; a miss reads the L2 over a bus and fills the local cache.

use super::{fill, holders, private_caches, Flow, Organization};
use crate::stats::{NucaStats, Outcome};
use crate::texture_cache::TextureCache;
use crate::{NucaConfig, NucaError};

pub struct Private {
    caches: Vec<TextureCache>,
    stats: NucaStats,
}

impl Private {
    pub fn new(config: &NucaConfig) -> Result<Private, NucaError> {
        Ok(Private {
            caches: private_caches(config)?,
            stats: NucaStats::new(config.fps),
        })
    }
}

impl Organization for Private {
    const FLOW: Flow = Flow::Private;

    #[inline]
    fn access(&mut self, fp: usize, block: u64) -> Outcome {
        let outcome = if self.caches[fp].hit(block, true) {
            Outcome::LocalHit
        } else {
            fill(&mut self.caches[fp], block, &mut self.stats);
            Outcome::L2 { owner: None }
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
