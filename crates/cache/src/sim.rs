//! A cache behind a trait object, so that caches of different policies can
//! sit in one list. Dispatch happens once per batch, never per access.

use gfxcache_trace::Access;

use crate::engine::Cache;
use crate::geometry::Geometry;
use crate::policy::Policy;
use crate::stats::Stats;

pub trait CacheSim: Send {
    /// The spec this cache was built from, e.g. `drrip:bits=4`.
    fn label(&self) -> &str;
    fn geometry(&self) -> &Geometry;
    fn access_batch(&mut self, accesses: &[Access]);
    fn stats(&self) -> &Stats;
    fn report(&self) -> Vec<(&'static str, f64)>;
}

/// A [`Cache`] with its label.
pub struct Labelled<P> {
    pub label: String,
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
}
