//! LRU: evict the least recently used way.
//!
//! Sets of up to 64 ways keep one recency rank per way
//! ([`RecencyRanks`]); more associative ones (fully associative caches) a
//! linked recency list per set ([`RecencyList`]), O(1) whatever the
//! associativity. Both give the same evictions.

use gfxcache_trace::Access;

use crate::engine::{Engine16, Kernel16};
use crate::error::CacheError;
use crate::geometry::Geometry;
use crate::lanes;
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
    #[inline]
    fn run16(&mut self, engine: &mut Engine16<'_>, accesses: &[Access]) -> bool {
        engine.run(self.kernel16(), accesses)
    }

    fn build(_: &mut Params, g: &Geometry, _: &Env) -> Result<Lru, CacheError> {
        let (sets, ways) = (g.sets as usize, g.ways as usize);
        Ok(Lru {
            order: if ways <= RecencyRanks::MAX_WAYS {
                Order::Ranks(RecencyRanks::new(sets, ways)?)
            } else {
                Order::List(RecencyList::new(sets, ways)?)
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

impl Lru {
    /// The 16-way kernel, for sets of 16 ways kept as ranks.
    pub(crate) fn kernel16(&mut self) -> Option<Lru16<'_>> {
        match &mut self.order {
            Order::Ranks(r) => r.rows16().map(|ranks| Lru16 { ranks }),
            Order::List(_) => None,
        }
    }
}

/// [`Lru`] over 16-way rank rows.
pub(crate) struct Lru16<'a> {
    ranks: &'a mut [[u8; 16]],
}

impl Kernel16 for Lru16<'_> {
    const SEQ: bool = false;

    fn sets(&self) -> usize {
        self.ranks.len()
    }

    #[inline(always)]
    unsafe fn hit(&mut self, set: usize, way: usize, _: u64) {
        // SAFETY: the caller promises `set < sets`.
        lanes::touch16_ranks(unsafe { self.ranks.get_unchecked_mut(set) }, way);
    }

    #[inline(always)]
    unsafe fn victim(&mut self, set: usize, _: u64) -> Option<usize> {
        // SAFETY: as in `hit`.
        let row = unsafe { self.ranks.get_unchecked(set) };
        Some(lanes::eq_mask16(row, 15).trailing_zeros() as usize & 15)
    }

    #[inline(always)]
    unsafe fn fill(&mut self, set: usize, way: usize, seq: u64) {
        // SAFETY: as in `hit`.
        unsafe { self.hit(set, way, seq) }
    }
}
