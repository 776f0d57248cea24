//! LRU: evict the least recently used way.

use crate::error::CacheError;
use crate::geometry::Geometry;
use crate::policy::{Ctx, Env, Policy};
use crate::recency::RecencyList;
use crate::spec::Params;

pub struct Lru {
    order: RecencyList,
}

impl Policy for Lru {
    fn build(_: &mut Params, g: &Geometry, _: &Env) -> Result<Lru, CacheError> {
        Ok(Lru {
            order: RecencyList::new(g.sets as usize, g.ways as usize),
        })
    }

    #[inline(always)]
    fn hit(&mut self, ctx: &Ctx, way: usize) {
        self.order.touch(ctx.set, way);
    }

    #[inline(always)]
    fn victim(&mut self, ctx: &Ctx) -> Option<usize> {
        self.order.least_recent(ctx.set)
    }

    #[inline(always)]
    fn fill(&mut self, ctx: &Ctx, way: usize) {
        self.order.touch(ctx.set, way);
    }
}
