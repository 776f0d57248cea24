//! The replacement-policy interface: one small trait, one file per policy.
//!
//! The engine ([`crate::Cache`]) owns tags, valid and dirty bits and the
//! statistics; a policy owns only its replacement state and answers four
//! questions. The engine is generic over the policy, so every call below is
//! inlined into the access loop: no dynamic dispatch per access.

use gfxcache_trace::{Access, Stream};

use crate::engine::Engine16;
use crate::error::CacheError;
use crate::geometry::Geometry;
use crate::next_use::NextUse;
use crate::spec::Params;
use std::sync::Arc;

/// What the engine tells a policy about the access under way.
#[derive(Clone, Copy, Debug)]
pub struct Ctx {
    /// Block address (byte address >> block bits).
    pub block: u64,
    pub set: usize,
    /// Bank of `set` (`set % banks`).
    pub bank: usize,
    pub stream: Stream,
    pub write: bool,
    pub unit: u16,
    /// Index of this block access in the run, from 0; the same numbering
    /// [`NextUse`] uses.
    pub seq: u64,
}

/// What a policy may need beyond its parameters and the geometry.
#[derive(Clone, Default)]
pub struct Env {
    /// Next-use indices for this trace at this block size; present when a
    /// policy with [`Policy::NEEDS_NEXT_USE`] is to run.
    pub next_use: Option<Arc<NextUse>>,
}

/// A replacement policy. The engine calls, for every block access, exactly one of:
/// - [`Policy::hit`] on a hit;
/// - [`Policy::fill`] on a miss into an invalid way (the lowest-numbered one);
/// - [`Policy::victim`] on a miss into a full set, then either
///   [`Policy::evict`] + [`Policy::fill`] on the chosen way, or
///   [`Policy::bypass`] when it answers `None`;
/// - [`Policy::bypass`] on a miss the engine does not allocate (a stream
///   marked unallocated, such as `display` under `+ucd`, or a write miss
///   under no-write-allocate).
pub trait Policy: Sized + Send + 'static {
    /// Whether [`Env::next_use`] must be computed before this policy runs.
    const NEEDS_NEXT_USE: bool = false;

    /// Builds the policy, taking its parameters from `params` (unknown keys
    /// are reported by the caller).
    fn build(params: &mut Params, geom: &Geometry, env: &Env) -> Result<Self, CacheError>;

    /// What this policy with these parameters does on `geom` that its name
    /// does not promise: a set-dueling policy without leader sets, a
    /// learning policy whose samples are too few to learn. One sentence
    /// each, for warnings; none for the ordinary case. Cheap: nothing is
    /// built. Reads the parameters as [`Policy::build`] does (the registry
    /// reports unknown ones when building).
    fn notes(_params: &mut Params, _geom: &Geometry) -> Result<Vec<String>, CacheError> {
        Ok(Vec::new())
    }

    fn hit(&mut self, ctx: &Ctx, way: usize);

    /// The set is full: the way to evict, or `None` to bypass the incoming block.
    fn victim(&mut self, ctx: &Ctx) -> Option<usize>;

    /// The incoming block now sits in `way`.
    fn fill(&mut self, ctx: &Ctx, way: usize);

    /// The resident of `way` is about to be replaced by the block of `ctx`.
    fn evict(&mut self, _ctx: &Ctx, _way: usize) {}

    /// The block of `ctx` missed and was not allocated.
    fn bypass(&mut self, _ctx: &Ctx) {}

    /// A hint, never a change of state: an access to `block` of `set` is
    /// coming soon, and the policy may [`prefetch`] what it will touch then.
    #[inline(always)]
    fn prefetch(&self, _set: usize, _block: u64) {}

    /// Runs a whole batch through the engine's 16-way loop with this
    /// policy's fixed-row kernel, when it has one (and returns `true`); the
    /// engine offers it only for 16-way, power-of-two-set caches. The kernel
    /// must behave exactly as the methods above: the reference tests run both.
    #[doc(hidden)]
    #[inline]
    fn run16(&mut self, _engine: &mut Engine16<'_>, _accesses: &[Access]) -> bool {
        false
    }

    /// Named figures a report may want (dueling counters, insertion mixes).
    fn report(&self) -> Vec<(&'static str, f64)> {
        Vec::new()
    }

    /// The RRPV of `way` of `set` and the largest RRPV, for the RRIP
    /// family; `None` for policies without RRPVs. Read by the reuse
    /// analyses ([`crate::observe`]) just after a fill, never by the engine.
    fn rrpv(&self, _set: usize, _way: usize) -> Option<(u8, u8)> {
        None
    }

    /// The reuse analyses of the run, when the policy is wrapped in
    /// [`crate::observe::Observed`]; `None` otherwise.
    fn reuse(&self) -> Option<crate::observe::Reuse> {
        None
    }
}

/// Asks the host CPU to bring `data[index]` into its caches; a no-op where
/// that cannot be asked. Never faults, even out of bounds.
#[inline(always)]
pub fn prefetch<T>(data: &[T], index: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let p = data.as_ptr().wrapping_add(index) as *const i8;
        // SAFETY: a prefetch is a hint; it never faults nor changes memory.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(p) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (data, index);
}
