//! LRU: evict the least recently used way.
//!
//! Sets of up to 64 ways keep one recency rank per way
//! ([`RecencyRanks`]); more associative ones (fully associative caches) a
//! linked recency list per set ([`RecencyList`]), O(1) whatever the
//! associativity. Both give the same evictions.

use crate::error::CacheError;
use crate::geometry::Geometry;
use crate::policy::{Ctx, Env, Policy};
use crate::recency::{RecencyList, RecencyRanks};
use crate::spec::Params;

pub struct Lru {
    order: Order,
}

enum Order {
    Ranks(RecencyRanks),
    List(RecencyList),
}

impl Policy for Lru {
    fn build(_: &mut Params, g: &Geometry, _: &Env) -> Result<Lru, CacheError> {
        let (sets, ways) = (g.sets as usize, g.ways as usize);
        Ok(Lru {
            order: if ways <= RecencyRanks::MAX_WAYS {
                Order::Ranks(RecencyRanks::new(sets, ways))
            } else {
                Order::List(RecencyList::new(sets, ways))
            },
        })
    }

    #[inline(always)]
    fn hit(&mut self, ctx: &Ctx, way: usize) {
        match &mut self.order {
            Order::Ranks(r) => r.touch(ctx.set, way),
            Order::List(l) => l.touch(ctx.set, way),
        }
    }

    #[inline(always)]
    fn prefetch(&self, set: usize, _: u64) {
        if let Order::Ranks(r) = &self.order {
            r.prefetch(set);
        }
    }

    #[inline(always)]
    fn victim(&mut self, ctx: &Ctx) -> Option<usize> {
        match &self.order {
            Order::Ranks(r) => Some(r.least_recent(ctx.set)),
            Order::List(l) => l.least_recent(ctx.set),
        }
    }

    #[inline(always)]
    fn fill(&mut self, ctx: &Ctx, way: usize) {
        self.hit(ctx, way);
    }
}
