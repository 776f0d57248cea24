//! Every policy, by name: one line each.

use crate::engine::{Cache, StreamMask};
use crate::error::CacheError;
use crate::geometry::Geometry;
use crate::policies::*;
use crate::policy::{Env, Policy};
use crate::sim::{CacheSim, Labelled};
use crate::spec::{Params, PolicySpec};
use gfxcache_trace::Stream;

/// A registered policy.
pub struct PolicyInfo {
    pub name: &'static str,
    pub about: &'static str,
    pub needs_next_use: bool,
    build: fn(&PolicySpec, &Geometry, &Env) -> Result<Box<dyn CacheSim>, CacheError>,
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
pub static POLICIES: &[PolicyInfo] = &[policy!("lru", lru::Lru, "least recently used")];

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
