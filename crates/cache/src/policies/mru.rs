//! MRU: evict the most recently used way (hit or fill). Resists cyclic
//! access patterns larger than the cache, where LRU misses every time.

use crate::error::CacheError;
use crate::geometry::Geometry;
use crate::policy::{Ctx, Env, Policy};
use crate::spec::Params;
use crate::table;

pub struct Mru {
    /// Per set: the way touched last.
    last: Vec<u32>,
}

impl Policy for Mru {
    fn build(_: &mut Params, g: &Geometry, _: &Env) -> Result<Mru, CacheError> {
        Ok(Mru {
            last: table::zeroed(g.sets as usize, "the most recent ways")?,
        })
    }

    #[inline(always)]
    fn hit(&mut self, ctx: &Ctx, way: usize) {
        self.last[ctx.set] = way as u32;
    }

    #[inline(always)]
    fn victim(&mut self, ctx: &Ctx) -> Option<usize> {
        Some(self.last[ctx.set] as usize)
    }

    #[inline(always)]
    fn fill(&mut self, ctx: &Ctx, way: usize) {
        self.last[ctx.set] = way as u32;
    }
}
