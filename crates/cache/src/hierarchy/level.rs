//! One level of a hierarchy behind a trait object, so that levels of
//! different policies sit in one list ([`LevelCache`]).
//!
//! The first level runs a whole batch in [`LevelCache::probe_run`], a loop
//! monomorphized for its policy that returns only at a miss; every other
//! call is one dynamic dispatch per block that goes between levels (a
//! miss, a victim, a back-invalidation), which only misses cause.

use gfxcache_trace::{Access, Stream};

use crate::engine::Cursor;
use crate::geometry::Geometry;
use crate::outcome::{Line, Placed};
use crate::policy::Policy;
use crate::sim::Labelled;
use crate::stats::Stats;

/// What a hierarchy asks of each of its levels: the calls of
/// [`crate::Cache`]'s hit and miss paths apart ([`crate::Cache::probe`],
/// [`crate::Cache::fill`], [`crate::Cache::absorb`],
/// [`crate::Cache::invalidate`], [`crate::Cache::probe_run`]) and what a
/// report reads.
pub trait LevelCache: Send {
    /// The policy spec, e.g. `drrip:bits=4`.
    fn label(&self) -> &str;
    fn geometry(&self) -> &Geometry;
    fn stats(&self) -> &Stats;
    /// The policy's figures ([`Policy::report`]).
    fn report(&self) -> Vec<(&'static str, f64)>;
    /// What the policy does on this geometry that its name does not promise.
    fn notes(&self) -> &[String];
    /// Whether a miss of `stream` allocates here (`+ucd` leaves `display` out).
    fn allocates(&self, stream: Stream) -> bool;
    fn probe(&mut self, block: u64, stream: Stream, write: bool, unit: u16) -> bool;
    fn fill(&mut self, block: u64, stream: Stream, write: bool, unit: u16) -> Placed;
    fn absorb(&mut self, block: u64, stream: Stream, dirty: bool, unit: u16) -> Placed;
    fn invalidate(&mut self, block: u64) -> Option<Line>;
    fn probe_run(&mut self, accesses: &[Access], cursor: &mut Cursor) -> Option<(u64, Access)>;
    fn contains(&self, block: u64) -> bool;
    /// Every resident block and its dirty bit, set by set, way by way: for
    /// checks, not for the access loop.
    fn lines(&self) -> Vec<(u64, bool)>;
}

impl<P: Policy> LevelCache for Labelled<P> {
    fn label(&self) -> &str {
        &self.label
    }
    fn geometry(&self) -> &Geometry {
        self.cache.geometry()
    }
    fn stats(&self) -> &Stats {
        self.cache.stats()
    }
    fn report(&self) -> Vec<(&'static str, f64)> {
        self.cache.policy().report()
    }
    fn notes(&self) -> &[String] {
        &self.notes
    }
    fn allocates(&self, stream: Stream) -> bool {
        self.cache.allocates(stream)
    }
    #[inline]
    fn probe(&mut self, block: u64, stream: Stream, write: bool, unit: u16) -> bool {
        self.cache.probe(block, stream, write, unit)
    }
    #[inline]
    fn fill(&mut self, block: u64, stream: Stream, write: bool, unit: u16) -> Placed {
        self.cache.fill(block, stream, write, unit)
    }
    #[inline]
    fn absorb(&mut self, block: u64, stream: Stream, dirty: bool, unit: u16) -> Placed {
        self.cache.absorb(block, stream, dirty, unit)
    }
    #[inline]
    fn invalidate(&mut self, block: u64) -> Option<Line> {
        self.cache.invalidate(block)
    }
    fn probe_run(&mut self, accesses: &[Access], cursor: &mut Cursor) -> Option<(u64, Access)> {
        self.cache.probe_run(accesses, cursor)
    }
    fn contains(&self, block: u64) -> bool {
        self.cache.contains(block)
    }
    fn lines(&self) -> Vec<(u64, bool)> {
        let g = self.cache.geometry();
        (0..g.sets as usize)
            .flat_map(|s| (0..g.ways as usize).map(move |w| (s, w)))
            .filter_map(|(s, w)| self.cache.line(s, w))
            .collect()
    }
}
