//! The capacity bound [ours, for context]: one cache of P times the
//! capacity and P times the ways of a texture cache (so the same sets),
//! shared by every fragment processor at no distance. Every hit counts as
//! local.

use super::{Organization, TextureCaches};
use crate::{NucaConfig, NucaError};
use gfxcache_gpu::Outcome;

pub struct IdealShared {
    fps: TextureCaches,
}

impl IdealShared {
    pub fn new(config: &NucaConfig) -> Result<IdealShared, NucaError> {
        Ok(IdealShared {
            fps: TextureCaches::shared(config)?,
        })
    }
}

impl Organization for IdealShared {
    #[inline]
    fn serve(&mut self, _fp: usize, block: u64) -> Outcome {
        if self.fps.hit(0, block, true) {
            return Outcome::LocalHit;
        }
        self.fps.fill(0, block);
        Outcome::L2 { owner: None }
    }

    fn fps(&self) -> &TextureCaches {
        &self.fps
    }

    fn fps_mut(&mut self) -> &mut TextureCaches {
        &mut self.fps
    }
}
