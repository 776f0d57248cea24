//! The conventional D-NUCA the paper compares against (Section VI): a
//! directory allows one holder per block, so nothing is ever replicated; a
//! block moves only when its holder evicts it (no migration on a hit).
//! (ours) On a local miss the directory is looked up: with a holder, the
//! holder serves the block and the requester does not fill; without one,
//! the requester reads the L2, fills its own cache and is recorded; an
//! eviction clears the victim's entry.

use super::{Organization, TextureCaches};
use crate::directory::Directory;
use crate::{NucaConfig, NucaError};
use gfxcache_gpu::Outcome;

pub struct DNuca {
    fps: TextureCaches,
    directory: Directory,
}

impl DNuca {
    pub fn new(config: &NucaConfig) -> Result<DNuca, NucaError> {
        let fps = TextureCaches::private(config)?;
        let blocks = fps.caches.iter().map(|c| c.sets() * c.ways()).sum();
        Ok(DNuca {
            fps,
            directory: Directory::with_capacity(blocks),
        })
    }

    /// The directory. For checks.
    pub fn directory(&self) -> &Directory {
        &self.directory
    }
}

impl Organization for DNuca {
    #[inline]
    fn serve(&mut self, fp: usize, block: u64) -> Outcome {
        if self.fps.hit(fp, block, true) {
            return Outcome::LocalHit;
        }
        self.fps.stats.directory_lookups += 1;
        match self.directory.holder(block) {
            Some(h) => {
                let hit = self.fps.hit(h, block, true);
                // Or the block is on its way to the holder, which forwards
                // it when it arrives (a deferred fill).
                debug_assert!(
                    hit || self.fps.is_pending(h, block),
                    "the directory names the holder of {block}"
                );
                Outcome::RemoteHit { owner: h }
            }
            None => {
                if let Some(victim) = self.fps.fill(fp, block) {
                    self.directory.remove(victim);
                }
                self.directory.insert(block, fp);
                Outcome::L2 { owner: None }
            }
        }
    }

    fn returned(&mut self, fp: usize, block: u64) {
        if let Some(victim) = self.fps.fill_returned(fp, block) {
            self.directory.remove(victim);
        }
    }

    fn fps(&self) -> &TextureCaches {
        &self.fps
    }

    fn fps_mut(&mut self) -> &mut TextureCaches {
        &mut self.fps
    }
}
