//! The graphics-stream-aware LLC policies of Gaur, Srinivasan, Subramoney
//! and Chaudhuri, "Efficient Management of Last-level Caches in Graphics
//! Processors for 3D Scene Rendering Workloads" (MICRO'13):
//! GS-DRRIP, GSPZTC, GSPZTC+TSE and GSPC, as policies of the generic cache
//! engine of `gfxcache-cache`, registered beside its classic ones.
//!
//! [`registry`] is every policy gfxcache knows, the engine's and these;
//! commands look names up there. `+ucd` (uncached displayable colour) works
//! on any of them: the engine leaves the `display` stream unallocated.
//!
//! One policy per file in [`policies`]; the pieces they share each have a
//! file: [`class`] (the paper's four streams), [`samples`] (which sets
//! learn) and [`counters`] (the per-bank FILL/HIT/PROD/CONS counters and
//! ACC(ALL)).
//!
//! [`study`] is the paper's whole study on a trace: config in, a serde
//! report out, progress by callback (the command line's `gfxcache gspc`
//! writes its files).
//!
//! Depends on `gfxcache-trace`, `gfxcache-cache` and `gfxcache-mem` (frame
//! times) only; never on rendering or the command line.

pub mod class;
pub mod counters;
pub mod policies;
pub mod samples;
pub mod study;

use gfxcache_cache::registry::lookup;
use gfxcache_cache::{CacheError, CacheSim, Env, Geometry, PolicyInfo, PolicySpec};

/// The policies of this crate, in the order reports list them.
pub static POLICIES: &[PolicyInfo] = &[
    PolicyInfo::new::<policies::gs_drrip::GsDrrip>(
        "gs-drrip",
        "stream-aware DRRIP, a PSEL per stream (bits, psel, leaders, throttle)",
    ),
    PolicyInfo::new::<policies::gspztc::Gspztc>(
        "gspztc",
        "probabilistic Z and texture caching, Table 3 (t, counter-bits, acc-bits)",
    ),
    PolicyInfo::new::<policies::gspztc_tse::GspztcTse>(
        "gspztc-tse",
        "GSPZTC with texture sampler epochs, Table 4 (t, counter-bits, acc-bits)",
    ),
    PolicyInfo::new::<policies::gspc::Gspc>(
        "gspc",
        "stream-aware probabilistic caching, Table 5 (t, counter-bits, acc-bits, rt-hi, rt-lo)",
    ),
];

/// Every registered policy: the engine's classic ones, then this crate's.
pub fn registry() -> impl Iterator<Item = &'static PolicyInfo> + Clone {
    gfxcache_cache::POLICIES.iter().chain(POLICIES.iter())
}

/// The registered policy named `name`.
pub fn find(name: &str) -> Option<&'static PolicyInfo> {
    registry().find(|p| p.name == name)
}

/// What the policy `spec` names does on `geom` that its name does not
/// promise, one sentence each (a set-dueling policy without leader or
/// follower sets, a table policy with too few sample sets; see each
/// policy's `notes`); empty for the ordinary case. Builds nothing. The
/// caches [`build_cache`] and [`build_observed`] make carry the same
/// notes (`CacheSim::notes`).
pub fn notes(spec: &PolicySpec, geom: &Geometry) -> Result<Vec<String>, CacheError> {
    lookup(registry(), spec)?.notes(spec, geom)
}

/// Whether `spec` names a registered policy whose parameters build on
/// `geom`, as [`build_cache`] would say, without building the cache
/// ([`PolicyInfo::check`]): what commands check before any work.
pub fn check(spec: &PolicySpec, geom: &Geometry) -> Result<(), CacheError> {
    lookup(registry(), spec)?.check(spec, geom)
}

/// Builds the cache `spec` describes, from every registered policy.
pub fn build_cache(
    spec: &PolicySpec,
    geom: &Geometry,
    env: &Env,
) -> Result<Box<dyn CacheSim>, CacheError> {
    lookup(registry(), spec)?.build(spec, geom, env)
}

/// As [`build_cache`], with the reuse analyses running beside the policy.
pub fn build_observed(
    spec: &PolicySpec,
    geom: &Geometry,
    env: &Env,
) -> Result<Box<dyn CacheSim>, CacheError> {
    lookup(registry(), spec)?.build_observed(spec, geom, env)
}
