//! The conventional D-NUCA the paper compares against (Section VI): a
//! directory allows one holder per block, so nothing is ever replicated; a
//! block moves only when its holder evicts it (no migration on a hit).
//! (ours) On a local miss the directory is looked up: with a holder, the
//! holder serves the block and the requester does not fill; without one,
//! the requester reads the L2, fills its own cache and is recorded; an
//! eviction clears the victim's entry.

use super::{fill, holders, private_caches, Flow, Organization};
use crate::directory::Directory;
use crate::stats::{NucaStats, Outcome};
use crate::texture_cache::TextureCache;
use crate::{NucaConfig, NucaError};

pub struct DNuca {
    caches: Vec<TextureCache>,
    directory: Directory,
    stats: NucaStats,
}

impl DNuca {
    pub fn new(config: &NucaConfig) -> Result<DNuca, NucaError> {
        let caches = private_caches(config)?;
        let blocks = caches.iter().map(|c| c.sets() * c.ways()).sum();
        Ok(DNuca {
            caches,
            directory: Directory::with_capacity(blocks),
            stats: NucaStats::new(config.fps),
        })
    }

    /// The directory. For checks.
    pub fn directory(&self) -> &Directory {
        &self.directory
    }
}

impl Organization for DNuca {
    const FLOW: Flow = Flow::Directory;

    #[inline]
    fn access(&mut self, fp: usize, block: u64) -> Outcome {
        let outcome = if self.caches[fp].hit(block, true) {
            Outcome::LocalHit
        } else {
            self.stats.directory_lookups += 1;
            match self.directory.holder(block) {
                Some(h) => {
                    let hit = self.caches[h].hit(block, true);
                    debug_assert!(hit, "the directory names the holder of {block}");
                    Outcome::RemoteHit { owner: h }
                }
                None => {
                    if let Some(victim) = fill(&mut self.caches[fp], block, &mut self.stats) {
                        self.directory.remove(victim);
                    }
                    self.directory.insert(block, fp);
                    Outcome::L2 { owner: None }
                }
            }
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
