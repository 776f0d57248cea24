//! Fully associative OPT ([`FullOpt`]): Belady's MIN with the engine's
//! rules ([`crate::policies::opt`]: the furthest next use is the victim,
//! the lowest way among lines never used again; with `bypass`, a block
//! whose own next use is no sooner is not allocated), without a tag index
//! or a heap.
//!
//! A resident line is named by its next use: the position (block access
//! index) of the next access to its block. So an access at position `t`
//! hits exactly when some resident line's next use is `t`, and that is one
//! bit of a set of positions (`pending`, a hierarchical bitset
//! over the trace's block accesses); the victim is that set's highest
//! member, or a line never used again, found in a set of ways
//! (`never`). A hit moves its line's bit from `t` to its next
//! use; a fill sets the bit of the new line's. No block is ever hashed:
//! the test of position `t` reads the bitset in order, and what is
//! random (the bit and way of a next use) is known a dozen accesses ahead
//! and prefetched.
//!
//! It needs a word of the way per position besides the next uses' own
//! (`4 + 1/8` bytes a block access, on top of the next uses' 4).

use std::sync::Arc;

use gfxcache_trace::Stream;

use super::{Accounts, FullKernel};
use crate::engine::DIRTY;
use crate::error::CacheError;
use crate::next_use::NextUse;
use crate::outcome::BlockOutcome;
use crate::policy::prefetch;
use crate::table::filled;
use crate::way_bits::WayBits;

/// The lines of a fully associative OPT cache. See the module's
/// documentation.
pub struct FullOpt {
    bypass: bool,
    next: Arc<NextUse>,
    capacity: usize,
    /// Ways filled so far (`0..filled`, the engine's order).
    filled: usize,
    /// Per way, its block and meta byte.
    blocks: Vec<u64>,
    meta: Vec<u8>,
    /// The positions that are a resident line's next use.
    pending: WayBits,
    /// Per position in `pending`, its line's way.
    way_at: Vec<u32>,
    /// The ways whose block is never used again.
    never: WayBits,
    /// The next block access's position.
    seq: u64,
}

impl FullOpt {
    /// The lines of a cache of `capacity` (at most 2^30) blocks over the
    /// trace whose next uses are `next`; `bypass` as the policy's
    /// parameter. Or [`CacheError::OutOfMemory`].
    pub fn try_new(
        capacity: usize,
        next: Arc<NextUse>,
        bypass: bool,
    ) -> Result<FullOpt, CacheError> {
        let positions = next.len();
        Ok(FullOpt {
            bypass,
            capacity,
            filled: 0,
            blocks: filled(capacity, 0, "OPT's blocks per line")?,
            meta: filled(capacity, 0, "OPT's meta bytes per line")?,
            pending: WayBits::try_new(positions, "OPT's set of next uses")?,
            way_at: filled(positions, 0, "OPT's way per next use")?,
            never: WayBits::try_new(capacity, "OPT's lines never used again")?,
            next,
            seq: 0,
        })
    }

    /// Names the line in `way` by its next use `n`.
    #[inline(always)]
    fn expect(&mut self, way: usize, n: u32) {
        if n == NextUse::NEVER {
            self.never.insert(way);
        } else {
            self.pending.insert(n as usize);
            self.way_at[n as usize] = way as u32;
        }
    }

    /// The next use of the line MIN evicts: [`NextUse::NEVER`] while a
    /// line is never used again. Its way is looked up only if it goes
    /// ([`FullOpt::take`]): with `bypass`, most misses keep it.
    #[inline(always)]
    fn furthest(&self) -> u32 {
        if self.never.is_empty() {
            self.pending.last().expect("a full cache names its lines") as u32
        } else {
            NextUse::NEVER
        }
    }

    /// The way of the line [`FullOpt::furthest`] named `far`, taken out of
    /// the sets: the lowest way among lines never used again.
    #[inline(always)]
    fn take(&mut self, far: u32) -> usize {
        if far == NextUse::NEVER {
            let way = self.never.first().expect("a line never used again");
            self.never.remove(way);
            way
        } else {
            self.pending.remove(far as usize);
            self.way_at[far as usize] as usize
        }
    }
}

impl FullKernel for FullOpt {
    #[inline(always)]
    fn access(
        &mut self,
        acc: &mut Accounts,
        block: u64,
        stream: Stream,
        write: bool,
        _unit: u16,
    ) -> BlockOutcome {
        let t = self.seq as usize;
        self.seq += 1;
        let n = self.next.after(t as u64);
        if self.pending.contains(t) {
            let way = self.way_at[t] as usize;
            debug_assert_eq!(self.blocks[way], block);
            self.pending.remove(t);
            acc.hit(stream, write, &mut self.meta[way]);
            self.expect(way, n);
            return BlockOutcome::Hit;
        }
        if !acc.miss(stream, write) {
            return BlockOutcome::Bypass;
        }
        let (way, victim) = if self.filled < self.capacity {
            self.filled += 1;
            (self.filled - 1, None)
        } else {
            let far = self.furthest();
            if self.bypass && n >= far {
                acc.refuse(stream, write);
                return BlockOutcome::Bypass;
            }
            let way = self.take(far);
            let dirty = acc.evict(self.meta[way]);
            (way, Some((self.blocks[way], dirty)))
        };
        self.blocks[way] = block;
        self.meta[way] = acc.fill(stream, write);
        self.expect(way, n);
        BlockOutcome::Fill { victim }
    }

    fn resident(&self) -> Vec<(u64, bool)> {
        (0..self.filled)
            .map(|w| (self.blocks[w], self.meta[w] & DIRTY != 0))
            .collect()
    }

    /// Prefetches the way word of the next use of the block access a
    /// dozen ahead (which a hit or a fill then writes); `_block` is not
    /// needed, the position is.
    #[inline(always)]
    fn prefetch(&self, _block: u64) {
        let ahead = self.seq as usize + super::PREFETCH_AHEAD;
        if ahead < self.next.len() {
            let n = self.next.after(ahead as u64);
            if n != NextUse::NEVER {
                prefetch(&self.way_at, n as usize);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::engine::Cache;
    use crate::full::testing::{case, same_as_engine, trace};
    use crate::full::Full;
    use crate::next_use::NextUseBuilder;
    use crate::policies::opt::Opt;
    use crate::policy::{Env, Policy};
    use crate::spec::Params;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn counts_as_the_engines_opt((g, mask, raw) in case(), bypass in any::<bool>()) {
            let accesses = trace(&raw);
            let mut nu = NextUseBuilder::new(64);
            nu.push_all(&accesses).unwrap();
            let next = Arc::new(nu.finish());
            let env = Env { next_use: Some(next.clone()) };
            let spec = format!("opt:bypass={bypass}").parse().unwrap();
            let opt = Opt::build(&mut Params::new(&spec), &g, &env).unwrap();
            let lines = FullOpt::try_new(g.ways as usize, next, bypass).unwrap();
            let full = Full::new(g, mask, spec.to_string(), Vec::new(), lines);
            same_as_engine(Cache::new(g, opt, mask), full, &accesses);
        }
    }
}
