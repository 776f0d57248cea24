//! The capacity bound [ours, for context]: one cache of P times the
//! capacity and P times the ways of a texture cache (so the same sets),
//! shared by every fragment processor at no distance. Every hit counts as
//! local.

use super::{fill, Flow, Organization};
use crate::stats::{NucaStats, Outcome};
use crate::texture_cache::TextureCache;
use crate::{NucaConfig, NucaError};

pub struct IdealShared {
    cache: [TextureCache; 1],
    stats: NucaStats,
}

impl IdealShared {
    pub fn new(config: &NucaConfig) -> Result<IdealShared, NucaError> {
        config.check()?;
        let geom = config.shared_geometry().expect("checked");
        Ok(IdealShared {
            cache: [TextureCache::new(&geom)],
            stats: NucaStats::new(config.fps),
        })
    }
}

impl Organization for IdealShared {
    const FLOW: Flow = Flow::Private;

    #[inline]
    fn access(&mut self, _fp: usize, block: u64) -> Outcome {
        let outcome = if self.cache[0].hit(block, true) {
            Outcome::LocalHit
        } else {
            fill(&mut self.cache[0], block, &mut self.stats);
            Outcome::L2 { owner: None }
        };
        self.stats.record(outcome, 1);
        outcome
    }

    fn stats(&self) -> &NucaStats {
        &self.stats
    }

    fn caches(&self) -> &[TextureCache] {
        &self.cache
    }
}
