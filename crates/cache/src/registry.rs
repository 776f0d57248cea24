//! Every policy, by name: one line each.

use crate::engine::{Cache, StreamMask};
use crate::error::CacheError;
use crate::geometry::Geometry;
use crate::policies::*;
use crate::policy::{Env, Policy};
use crate::sim::{CacheSim, Labelled};
use crate::spec::{Params, PolicySpec};
use gfxcache_trace::Stream;

/// Builds the cache of one policy.
type Builder = fn(&PolicySpec, &Geometry, &Env) -> Result<Box<dyn CacheSim>, CacheError>;

/// A registered policy.
pub struct PolicyInfo {
    pub name: &'static str,
    pub about: &'static str,
    pub needs_next_use: bool,
    build: Builder,
}

fn build<P: Policy>(
    spec: &PolicySpec,
    geom: &Geometry,
    env: &Env,
) -> Result<Box<dyn CacheSim>, CacheError> {
    let mut params = Params::new(spec);
    let policy = P::build(&mut params, geom, env)?;
    params.finish()?;
    let unallocated = if spec.ucd {
        StreamMask::default().with(Stream::Display)
    } else {
        StreamMask::default()
    };
    Ok(Box::new(Labelled {
        label: spec.to_string(),
        cache: Cache::new(*geom, policy, unallocated),
    }))
}

macro_rules! policy {
    ($name:literal, $ty:ty, $about:literal) => {
        PolicyInfo {
            name: $name,
            about: $about,
            needs_next_use: <$ty>::NEEDS_NEXT_USE,
            build: build::<$ty>,
        }
    };
}

/// The registry, in the order reports list policies.
pub static POLICIES: &[PolicyInfo] = &[
    policy!("lru", lru::Lru, "least recently used"),
    policy!("fifo", fifo::Fifo, "first in, first out"),
    policy!("mru", mru::Mru, "most recently used"),
    policy!("random", random::Random, "uniformly random victim (seed)"),
    policy!("nru", nru::Nru, "not recently used (1-bit RRIP)"),
    policy!("srrip", srrip::Srrip, "static RRIP (bits)"),
    policy!("brrip", brrip::Brrip, "bimodal RRIP (bits, throttle)"),
    policy!(
        "drrip",
        drrip::Drrip,
        "dynamic RRIP, set dueling (bits, psel, leaders, throttle)"
    ),
    policy!(
        "ship-mem",
        ship_mem::ShipMem,
        "SHiP with 16 KB region signatures (bits, init)"
    ),
    policy!("opt", opt::Opt, "Belady's MIN with bypass (bypass)"),
];

pub fn find(name: &str) -> Option<&'static PolicyInfo> {
    POLICIES.iter().find(|p| p.name == name)
}

/// Builds the cache a spec describes.
pub fn build_cache(
    spec: &PolicySpec,
    geom: &Geometry,
    env: &Env,
) -> Result<Box<dyn CacheSim>, CacheError> {
    let info = find(&spec.name).ok_or_else(|| CacheError::Policy {
        spec: spec.to_string(),
        what: format!(
            "no such policy (known: {})",
            POLICIES
                .iter()
                .map(|p| p.name)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    })?;
    if info.needs_next_use && env.next_use.is_none() {
        return Err(CacheError::Policy {
            spec: spec.to_string(),
            what: "needs next-use information for the trace".into(),
        });
    }
    (info.build)(spec, geom, env)
}
