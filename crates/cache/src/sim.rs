//! A cache behind a trait object, so that caches of different policies can
//! sit in one list. Dispatch happens once per batch, never per access.

use gfxcache_trace::Access;

use crate::engine::{block_range, Cache};
use crate::geometry::Geometry;
use crate::observe::Reuse;
use crate::outcome::BlockEvent;
use crate::policy::Policy;
use crate::stats::Stats;

pub trait CacheSim: Send {
    /// The spec this cache was built from, e.g. `drrip:bits=4`.
    fn label(&self) -> &str;
    fn geometry(&self) -> &Geometry;
    fn access_batch(&mut self, accesses: &[Access]);
    fn stats(&self) -> &Stats;
    fn report(&self) -> Vec<(&'static str, f64)>;
    /// As [`CacheSim::access_batch`], appending what happened to every block
    /// access to `events` (cleared first). Goes block by block: slower.
    fn access_batch_events(&mut self, accesses: &[Access], events: &mut Vec<BlockEvent>);
    /// The reuse analyses, for caches built observed
    /// ([`crate::PolicyInfo::build_observed`]).
    fn reuse(&self) -> Option<Reuse>;
    /// What the policy does on this geometry that its name does not
    /// promise ([`crate::Policy::notes`]), for warnings.
    fn notes(&self) -> &[String];
}

/// A [`Cache`] with its label.
pub struct Labelled<P> {
    pub label: String,
    /// [`CacheSim::notes`].
    pub notes: Vec<String>,
    pub cache: Cache<P>,
}

impl<P: Policy> CacheSim for Labelled<P> {
    fn label(&self) -> &str {
        &self.label
    }
    fn geometry(&self) -> &Geometry {
        self.cache.geometry()
    }
    fn access_batch(&mut self, accesses: &[Access]) {
        self.cache.access_all(accesses);
    }
    fn stats(&self) -> &Stats {
        self.cache.stats()
    }
    fn report(&self) -> Vec<(&'static str, f64)> {
        self.cache.policy().report()
    }
    fn access_batch_events(&mut self, accesses: &[Access], events: &mut Vec<BlockEvent>) {
        events.clear();
        let shift = self.cache.geometry().block_shift();
        for a in accesses {
            let (first, last) = block_range(a, shift);
            let write = a.op.is_write();
            for block in first..=last {
                let outcome = self.cache.access_block(block, a.stream, write, a.unit);
                events.push(BlockEvent {
                    block,
                    stream: a.stream,
                    write,
                    outcome,
                });
            }
        }
    }
    fn reuse(&self) -> Option<Reuse> {
        self.cache.policy().reuse()
    }
    fn notes(&self) -> &[String] {
        &self.notes
    }
}
