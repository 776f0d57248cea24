//! OPT: Belady's MIN, the offline optimum, over next-use indices computed
//! beforehand ([`Env::next_use`], indexed by [`Ctx::seq`]).
//!
//! Each resident line keeps the index of its block's next access
//! ([`NextUse::NEVER`] if none). The victim is the resident re-used
//! furthest in the future, the lowest way among equals. With `bypass` (the
//! default) a block whose own next use is no sooner than every resident's
//! is not allocated at all (MIN with bypass, which no policy beats on miss
//! count); `bypass=false` always allocates and evicts the furthest resident.
//!
//! Up to 64 ways the victim is found by scanning the set. Above that (fully
//! associative caches) each set keeps a max-heap of `(next use, way)` with
//! lazy deletion: an entry whose way no longer holds that next use is
//! stale and skipped when it reaches the top; the heap is rebuilt from the
//! lines when it reaches twice the associativity. A miss then costs
//! O(log ways).
//!
//! MIN is optimal when every miss may allocate. Under no-write-allocate or
//! `+ucd` it is not: a line evicted before a write (or display) access
//! cannot come back at that access, so it was worth more than its next-use
//! distance said, and another policy can occasionally miss less.
//!
//! Parameters: `bypass` (default true).

use std::sync::Arc;

use gfxcache_trace::Access;

use crate::engine::{Engine16, Kernel16};
use crate::error::CacheError;
use crate::geometry::Geometry;
use crate::lanes;
use crate::next_use::NextUse;
use crate::policy::{Ctx, Env, Policy};
use crate::spec::Params;
use crate::table;

/// Up to this associativity, victims come from a scan of the set.
const SCAN_WAYS: usize = 64;

/// Next use of a way never filled; no access index reaches it (a
/// [`NextUse`] numbers fewer than `NEVER - 1` accesses).
const EMPTY: u32 = NextUse::NEVER - 1;

pub struct Opt {
    ways: usize,
    bypass: bool,
    next: Arc<NextUse>,
    /// Per line: next use of its block.
    nu: Vec<u32>,
    heaps: Option<Heaps>,
    /// `(seq, next use)` of the access [`Opt::victim`] last saw, for the
    /// fill that follows it.
    incoming: (u64, u32),
}

impl Policy for Opt {
    #[inline]
    fn run16(&mut self, engine: &mut Engine16<'_>, accesses: &[Access]) -> bool {
        engine.run(self.kernel16(), accesses)
    }

    const NEEDS_NEXT_USE: bool = true;

    fn build(p: &mut Params, g: &Geometry, env: &Env) -> Result<Opt, CacheError> {
        let bypass = Opt::take_bypass(p)?;
        let next = env.next_use.clone().ok_or_else(|| CacheError::Policy {
            spec: "opt".into(),
            what: "needs next-use information for the trace".into(),
        })?;
        let ways = g.ways as usize;
        Ok(Opt {
            ways,
            bypass,
            next,
            nu: table::filled(g.blocks(), EMPTY, "OPT's next use per line")?,
            heaps: if ways > SCAN_WAYS {
                Some(Heaps::new(g.sets as usize, ways)?)
            } else {
                None
            },
            incoming: (u64::MAX, 0),
        })
    }

    #[inline(always)]
    fn hit(&mut self, ctx: &Ctx, way: usize) {
        let slot = ctx.set * self.ways + way;
        let n = self.next.after(ctx.seq);
        debug_assert_eq!(u64::from(self.nu[slot]), ctx.seq);
        self.nu[slot] = n;
        if let Some(h) = &mut self.heaps {
            h.push(ctx.set, n, way, &self.nu);
        }
    }

    #[inline(always)]
    fn prefetch(&self, set: usize, _: u64) {
        if self.heaps.is_none() {
            let base = set * self.ways;
            crate::policy::prefetch(&self.nu, base);
            crate::policy::prefetch(&self.nu, base + self.ways - 1);
        }
    }

    #[inline(always)]
    fn victim(&mut self, ctx: &Ctx) -> Option<usize> {
        let base = ctx.set * self.ways;
        let (far, way) = match &mut self.heaps {
            None => lanes::max_first_u32(&self.nu[base..base + self.ways]),
            Some(h) => h.top(ctx.set, &self.nu[base..base + self.ways]),
        };
        let n = self.next.after(ctx.seq);
        self.incoming = (ctx.seq, n);
        if self.bypass && n >= far {
            None
        } else {
            Some(way)
        }
    }

    #[inline(always)]
    fn fill(&mut self, ctx: &Ctx, way: usize) {
        let slot = ctx.set * self.ways + way;
        let n = if self.incoming.0 == ctx.seq {
            self.incoming.1
        } else {
            self.next.after(ctx.seq)
        };
        let old = std::mem::replace(&mut self.nu[slot], n);
        if let Some(h) = &mut self.heaps {
            // The entry of `old` is still in the heap when `old == n`
            // (only possible for NEVER): it describes the new line too.
            if old != n {
                h.push(ctx.set, n, way, &self.nu);
            }
        }
    }
}

impl Opt {
    /// The `bypass` parameter (default true), for the fully associative
    /// cache of [`crate::full::opt`] too.
    pub(crate) fn take_bypass(p: &mut Params) -> Result<bool, CacheError> {
        p.take_bool("bypass", true)
    }

    /// The 16-way kernel, for scanned sets of 16 ways.
    pub(crate) fn kernel16(&mut self) -> Option<Opt16<'_>> {
        if self.ways != 16 || self.heaps.is_some() {
            return None;
        }
        Some(Opt16 {
            nu: self.nu.as_chunks_mut().0,
            next: &self.next.next,
            bypass: self.bypass,
        })
    }
}

/// [`Opt`] over 16-way rows of next uses.
pub(crate) struct Opt16<'a> {
    nu: &'a mut [[u32; 16]],
    next: &'a [u32],
    bypass: bool,
}

impl Kernel16 for Opt16<'_> {
    fn sets(&self) -> usize {
        self.nu.len()
    }

    #[inline(always)]
    unsafe fn hit(&mut self, set: usize, way: usize, seq: u64) {
        let n = self.next[seq as usize];
        // SAFETY: the caller promises `set < sets`.
        let slot = unsafe { &mut self.nu.get_unchecked_mut(set)[way] };
        debug_assert_eq!(u64::from(*slot), seq);
        *slot = n;
    }

    #[inline(always)]
    unsafe fn victim(&mut self, set: usize, seq: u64) -> Option<usize> {
        // SAFETY: as in `hit`.
        let (far, way) = lanes::max_first_u32_16(unsafe { self.nu.get_unchecked(set) });
        let n = self.next[seq as usize];
        if self.bypass && n >= far {
            None
        } else {
            Some(way)
        }
    }

    #[inline(always)]
    unsafe fn fill(&mut self, set: usize, way: usize, seq: u64) {
        let n = self.next[seq as usize];
        // SAFETY: as in `hit`.
        unsafe { self.nu.get_unchecked_mut(set)[way] = n };
    }
}

/// Per-set binary max-heaps of `next use << 32 | !way`, in one flat array of
/// `2 * ways` entries per set.
struct Heaps {
    ways: usize,
    cap: usize,
    len: Vec<u32>,
    data: Vec<u64>,
}

#[inline(always)]
fn key(next: u32, way: usize) -> u64 {
    u64::from(next) << 32 | u64::from(!(way as u32))
}

#[inline(always)]
fn unkey(k: u64) -> (u32, usize) {
    ((k >> 32) as u32, !(k as u32) as usize)
}

/// Puts `x` at `h[i]` and moves it down to its place in the max-heap `h`,
/// whose subtrees below `i` are heaps already.
#[inline(always)]
fn sift_down(h: &mut [u64], mut i: usize, x: u64) {
    let n = h.len();
    loop {
        let l = 2 * i + 1;
        if l >= n {
            break;
        }
        let c = if l + 1 < n && h[l + 1] > h[l] {
            l + 1
        } else {
            l
        };
        if h[c] <= x {
            break;
        }
        h[i] = h[c];
        i = c;
    }
    h[i] = x;
}

impl Heaps {
    fn new(sets: usize, ways: usize) -> Result<Heaps, CacheError> {
        let cap = 2 * ways;
        Ok(Heaps {
            ways,
            cap,
            len: table::zeroed(sets, "OPT's heaps")?,
            data: table::zeroed(sets * cap, "OPT's heaps")?,
        })
    }

    /// Adds `(next, way)` to `set`'s heap; `nu` are all lines' next uses,
    /// `way`'s already `next`.
    #[inline]
    fn push(&mut self, set: usize, next: u32, way: usize, nu: &[u32]) {
        if self.len[set] as usize == self.cap {
            // The rebuilt heap holds every line as it is now, `way` included.
            self.rebuild(set, &nu[set * self.ways..(set + 1) * self.ways]);
            return;
        }
        let h = &mut self.data[set * self.cap..(set + 1) * self.cap];
        let mut i = self.len[set] as usize;
        self.len[set] += 1;
        let k = key(next, way);
        while i > 0 {
            let parent = (i - 1) / 2;
            if h[parent] >= k {
                break;
            }
            h[i] = h[parent];
            i = parent;
        }
        h[i] = k;
    }

    /// The largest live `(next use, way)` of a full set; pops stale entries on the way.
    #[inline]
    fn top(&mut self, set: usize, nu: &[u32]) -> (u32, usize) {
        let h = &mut self.data[set * self.cap..(set + 1) * self.cap];
        let len = &mut self.len[set];
        loop {
            debug_assert!(*len > 0, "victim asked of a set with no lines");
            let (next, way) = unkey(h[0]);
            if nu[way] == next {
                return (next, way);
            }
            // Stale: pop it.
            *len -= 1;
            let n = *len as usize;
            if n > 0 {
                let last = h[n];
                sift_down(&mut h[..n], 0, last);
            }
        }
    }

    /// Replaces `set`'s heap by one entry per filled line.
    #[cold]
    fn rebuild(&mut self, set: usize, nu: &[u32]) {
        let h = &mut self.data[set * self.cap..(set + 1) * self.cap];
        let mut n = 0;
        for (way, &v) in nu.iter().enumerate() {
            if v != EMPTY {
                h[n] = key(v, way);
                n += 1;
            }
        }
        let h = &mut h[..n];
        for start in (0..n / 2).rev() {
            let x = h[start];
            sift_down(h, start, x);
        }
        self.len[set] = n as u32;
    }
}
