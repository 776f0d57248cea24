//! What a texture unit sees of its L1 and of the memory behind it: a tag
//! check, a hit, a block sent and when it is back, a block filled. The
//! unit's miss handling (blocking, NBTC, MSHR, prefetching) is the same
//! over either port:
//!
//! - [`OwnL1`]: the unit's own L1 on its memory path (the slides'
//!   machine): a hit refreshes the LRU order, a block sent is back
//!   `memory_latency` cycles later (a shared DRAM may delay it,
//!   [`crate::replay`]), and the L1 is filled when it returns.
//! - [`PlacedL1`]: the unit's processor's texture cache in a placement of
//!   the GPU machine ([`gfxcache_gpu::Machine`]: private caches, S-NUCA,
//!   D-NUCA, DTM-NUCA centralized or distributed, one ideal shared
//!   cache). Every texel hit is an access of the placement (its tables
//!   count it, its messages are sent); a lookup merged with a block
//!   already sent is told to the placement, whose tables may count it; a
//!   block sent is an access the
//!   placement serves from the owner's cache or the L2, deciding where it
//!   is served and filling any other processor's cache at the send, and
//!   it is back when the machine's messages bring it. The unit's own cache
//!   takes the block when it returns, as the NBTC's L1 does
//!   ([`gfxcache_gpu::Placement::access_deferred`]): filled at the send,
//!   a block waiting hundreds of cycles for a busy bus would age out of a
//!   small cache before its data came back (measured: twice the L2
//!   requests on a 32-processor frame).

use gfxcache_gpu::{Machine, Placement, TextureCache};

/// A texture unit's L1 and memory.
pub trait L1Port {
    /// The L1 is a cache of a placement on the GPU machine.
    const PLACEMENT: bool;

    /// The tag check: changes nothing.
    fn contains(&self, block: u64) -> bool;

    /// A texel's lookup that hit, at cycle `now`.
    fn hit(&mut self, block: u64, now: u64);

    /// A texel's lookup at cycle `now` that found `block` on its way to
    /// the L1 (a secondary miss, merged with the miss already sent): a
    /// placement's tables may count it (`gfxcache_nuca::MergedLookups`).
    fn merged(&mut self, block: u64, now: u64);

    /// A block filled at its lookup (an ideal memory, the prefetching
    /// cache's tag taken at the miss); nothing in a placement, which fills
    /// at the return.
    fn fill_at_lookup(&mut self, block: u64);

    /// The block has returned at cycle `now`: filled into the unit's L1.
    fn fill_at_return(&mut self, block: u64, now: u64);

    /// A missing block sent at cycle `now`: when it is back.
    fn send(&mut self, block: u64, now: u64) -> u64;
}

/// The unit's own L1 and a memory path of fixed latency.
pub struct OwnL1 {
    pub cache: TextureCache,
    pub latency: u64,
}

impl L1Port for OwnL1 {
    const PLACEMENT: bool = false;

    #[inline]
    fn contains(&self, block: u64) -> bool {
        self.cache.contains(block)
    }

    #[inline]
    fn hit(&mut self, block: u64, _now: u64) {
        let _ = self.cache.hit(block, true);
    }

    #[inline]
    fn merged(&mut self, _block: u64, _now: u64) {}

    #[inline]
    fn fill_at_lookup(&mut self, block: u64) {
        self.cache.fill_unless_present(block);
    }

    #[inline]
    fn fill_at_return(&mut self, block: u64, _now: u64) {
        self.cache.fill_unless_present(block);
    }

    #[inline]
    fn send(&mut self, _block: u64, now: u64) -> u64 {
        now + self.latency
    }
}

/// Fragment processor `fp`'s texture cache in a placement on the GPU
/// machine.
pub struct PlacedL1<'m, P> {
    pub machine: &'m mut Machine<P>,
    pub fp: usize,
}

impl<P: Placement> L1Port for PlacedL1<'_, P> {
    const PLACEMENT: bool = true;

    #[inline]
    fn contains(&self, block: u64) -> bool {
        self.machine.organization().holds(self.fp, block)
    }

    #[inline]
    fn hit(&mut self, block: u64, now: u64) {
        let (_outcome, _) = self.machine.access_at(self.fp, block, now);
        debug_assert_eq!(_outcome, gfxcache_gpu::Outcome::LocalHit);
    }

    #[inline]
    fn merged(&mut self, block: u64, now: u64) {
        self.machine.merged_at(self.fp, block, now);
    }

    #[inline]
    fn fill_at_lookup(&mut self, _block: u64) {}

    #[inline]
    fn fill_at_return(&mut self, block: u64, now: u64) {
        self.machine.returned(self.fp, block, now);
    }

    #[inline]
    fn send(&mut self, block: u64, now: u64) -> u64 {
        self.machine.send_at(self.fp, block, now).1
    }
}
