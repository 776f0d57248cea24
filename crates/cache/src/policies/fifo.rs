//! FIFO: evict the line filled longest ago; hits do not reorder.
//!
//! The engine fills the lowest invalid way first, so a set's fill order is
//! a rotation: ways 0, 1, ..., w-1, then the oldest again. One pointer per
//! set (the way after the last fill) is the whole state. In a cache
//! hierarchy a line may be invalidated and its hole filled out of turn
//! ([`crate::Cache::invalidate`]); the oldest line then stays the next
//! victim, and the refilled way keeps its old place in the rotation.

use crate::error::CacheError;
use crate::geometry::Geometry;
use crate::policy::{Ctx, Env, Policy};
use crate::spec::Params;
use crate::table;

pub struct Fifo {
    ways: u32,
    /// Per set: the oldest fill, the next victim.
    next: Vec<u32>,
}

impl Policy for Fifo {
    fn build(_: &mut Params, g: &Geometry, _: &Env) -> Result<Fifo, CacheError> {
        Ok(Fifo {
            ways: g.ways,
            next: table::zeroed(g.sets as usize, "the FIFO pointers")?,
        })
    }

    #[inline(always)]
    fn hit(&mut self, _: &Ctx, _: usize) {}

    #[inline(always)]
    fn victim(&mut self, ctx: &Ctx) -> Option<usize> {
        Some(self.next[ctx.set] as usize)
    }

    #[inline(always)]
    fn fill(&mut self, ctx: &Ctx, way: usize) {
        // Every fill but a hole's is of the way the pointer names.
        let next = &mut self.next[ctx.set];
        if way as u32 == *next {
            let n = way as u32 + 1;
            *next = if n == self.ways { 0 } else { n };
        }
    }
}
