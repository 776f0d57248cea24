//! The baseline (Section VI): each fragment processor's texture cache is
//! private; a miss reads the L2 over a bus and fills the local cache.

use super::{Organization, TextureCaches};
use crate::{NucaConfig, NucaError};
use gfxcache_gpu::Outcome;

pub struct Private {
    fps: TextureCaches,
}

impl Private {
    pub fn new(config: &NucaConfig) -> Result<Private, NucaError> {
        Ok(Private {
            fps: TextureCaches::private(config)?,
        })
    }
}

impl Organization for Private {
    #[inline]
    fn serve(&mut self, fp: usize, block: u64) -> Outcome {
        if self.fps.hit(fp, block, true) {
            return Outcome::LocalHit;
        }
        self.fps.fill(fp, block);
        Outcome::L2 { owner: None }
    }

    fn fps(&self) -> &TextureCaches {
        &self.fps
    }

    fn fps_mut(&mut self) -> &mut TextureCaches {
        &mut self.fps
    }
}
