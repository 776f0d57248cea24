//! Every policy, by name: one line each.

use std::sync::Arc;

use crate::engine::{Cache, StreamMask};
use crate::error::CacheError;
use crate::full::{self, opt::FullOpt, queue::FullQueue, ways::FullWays, Full, FullKernel};
use crate::geometry::Geometry;
use crate::hierarchy::LevelCache;
use crate::next_use::NextUse;
use crate::observe::Observed;
use crate::policies::*;
use crate::policy::{Env, Policy};
use crate::sim::{CacheSim, Labelled};
use crate::spec::{ParamInfo, Params, PolicySpec};
use gfxcache_trace::Stream;

/// Builds the cache of one policy.
type Builder = fn(&PolicySpec, &Geometry, &Env) -> Result<Box<dyn CacheSim>, CacheError>;

/// Builds the cache of one policy as a level of a hierarchy.
type LevelBuilder = fn(&PolicySpec, &Geometry, &Env) -> Result<Box<dyn LevelCache>, CacheError>;

/// [`Policy::notes`] of one policy.
type Notes = fn(&PolicySpec, &Geometry) -> Result<Vec<String>, CacheError>;

/// The parameters one policy takes on a geometry.
type Describe = fn(&Geometry) -> Vec<ParamInfo>;

/// Checks one policy's spec on a geometry ([`PolicyInfo::check`]).
type Check = fn(&PolicySpec, &Geometry) -> Result<(), CacheError>;

/// A registered policy. Other crates register their own with
/// [`PolicyInfo::new`] (the GSPC family lives in `gfxcache-llc`).
pub struct PolicyInfo {
    pub name: &'static str,
    pub about: &'static str,
    pub needs_next_use: bool,
    build: Builder,
    build_observed: Builder,
    build_level: LevelBuilder,
    notes: Notes,
    describe: Describe,
    check: Check,
}

impl PolicyInfo {
    /// The entry of policy `P` under `name`.
    pub const fn new<P: Policy>(name: &'static str, about: &'static str) -> PolicyInfo {
        PolicyInfo {
            name,
            about,
            needs_next_use: P::NEEDS_NEXT_USE,
            build: build::<P>,
            build_observed: build::<Observed<P>>,
            build_level: build_level::<P>,
            notes: notes::<P>,
            describe: describe::<P>,
            check: check::<P>,
        }
    }

    /// This entry with `build` as its [`PolicyInfo::build`]: for a policy
    /// with a cache of its own on some geometries (the fully associative
    /// ones of [`crate::full`]), which must count exactly as the engine's.
    pub const fn with_build(self, build: Builder) -> PolicyInfo {
        PolicyInfo { build, ..self }
    }

    /// The parameters the policy takes, with their defaults on `geom`
    /// (some depend on it, e.g. DRRIP's leader sets) and their ranges: what
    /// building it from its bare name asks for.
    pub fn params(&self, geom: &Geometry) -> Vec<ParamInfo> {
        (self.describe)(geom)
    }

    /// The cache `spec` (whose name is this policy's) describes.
    pub fn build(
        &self,
        spec: &PolicySpec,
        geom: &Geometry,
        env: &Env,
    ) -> Result<Box<dyn CacheSim>, CacheError> {
        (self.build)(spec, geom, env)
    }

    /// As [`PolicyInfo::build`], with the reuse analyses of
    /// [`crate::observe`] running beside the policy ([`CacheSim::reuse`]).
    /// Slower: it never takes the 16-way kernels.
    pub fn build_observed(
        &self,
        spec: &PolicySpec,
        geom: &Geometry,
        env: &Env,
    ) -> Result<Box<dyn CacheSim>, CacheError> {
        (self.build_observed)(spec, geom, env)
    }

    /// As [`PolicyInfo::build`], as a level of a cache hierarchy
    /// ([`crate::hierarchy`]).
    pub fn build_level(
        &self,
        spec: &PolicySpec,
        geom: &Geometry,
        env: &Env,
    ) -> Result<Box<dyn LevelCache>, CacheError> {
        (self.build_level)(spec, geom, env)
    }

    /// What the policy `spec` names does on `geom` that its name does not
    /// promise ([`Policy::notes`]); the notes a cache built from them
    /// carries ([`CacheSim::notes`]). Cheap: builds nothing.
    pub fn notes(&self, spec: &PolicySpec, geom: &Geometry) -> Result<Vec<String>, CacheError> {
        (self.notes)(spec, geom)
    }

    /// Whether `spec` (whose name is this policy's) builds on `geom`, as
    /// [`PolicyInfo::build`] would say, without the cache: its parameters
    /// (known keys, each in its range) and the policy's own state, built
    /// and dropped (a few bytes a line at most), but not the cache's tags
    /// nor, for a policy that needs them, the trace's next uses. What a
    /// command checks before any work (`gfxcache sweep` before its first
    /// frame).
    pub fn check(&self, spec: &PolicySpec, geom: &Geometry) -> Result<(), CacheError> {
        (self.check)(spec, geom)
    }
}

fn describe<P: Policy>(geom: &Geometry) -> Vec<ParamInfo> {
    let spec = PolicySpec {
        name: String::new(),
        ucd: false,
        params: Vec::new(),
    };
    let mut params = Params::new(&spec);
    // Without next-use information OPT stops after taking its parameters:
    // what is asked is all that is wanted.
    let _ = P::build(&mut params, geom, &Env::default());
    let _ = P::notes(&mut params, geom);
    params.asked().to_vec()
}

fn notes<P: Policy>(spec: &PolicySpec, geom: &Geometry) -> Result<Vec<String>, CacheError> {
    P::notes(&mut Params::new(spec), geom)
}

/// The policy `spec` describes on `geom`, with its notes: every check of
/// its parameters, shared by [`build`] and [`check`].
fn policy<P: Policy>(
    spec: &PolicySpec,
    geom: &Geometry,
    env: &Env,
) -> Result<(Vec<String>, P), CacheError> {
    if P::NEEDS_NEXT_USE && env.next_use.is_none() {
        return Err(needs_next_use(spec));
    }
    let notes = notes::<P>(spec, geom)?;
    let mut params = Params::new(spec);
    let policy = P::build(&mut params, geom, env).map_err(|e| e.in_cache(spec, geom))?;
    params.finish()?;
    Ok((notes, policy))
}

fn check<P: Policy>(spec: &PolicySpec, geom: &Geometry) -> Result<(), CacheError> {
    // A policy that needs the trace's next uses is built on none (it
    // keeps a handle on them; no access reads them here).
    let env = Env {
        next_use: P::NEEDS_NEXT_USE.then(|| Arc::new(NextUse::empty())),
    };
    policy::<P>(spec, geom, &env).map(drop)
}

fn labelled<P: Policy>(
    spec: &PolicySpec,
    geom: &Geometry,
    env: &Env,
) -> Result<Labelled<P>, CacheError> {
    let (notes, policy) = policy::<P>(spec, geom, env)?;
    let unallocated = unallocated(spec);
    Ok(Labelled {
        label: spec.to_string(),
        notes,
        cache: Cache::try_new(*geom, policy, unallocated).map_err(|e| e.in_cache(spec, geom))?,
    })
}

/// The error of a policy that needs the trace's next uses, built without.
fn needs_next_use(spec: &PolicySpec) -> CacheError {
    CacheError::Policy {
        spec: spec.to_string(),
        what: "needs next-use information for the trace".into(),
    }
}

/// The streams `spec` keeps out of the cache (`+ucd`: the display).
fn unallocated(spec: &PolicySpec) -> StreamMask {
    if spec.ucd {
        StreamMask::default().with(Stream::Display)
    } else {
        StreamMask::default()
    }
}

/// LRU (`HIT_TOUCHES`) or FIFO: on one set of more than 64 ways
/// ([`full::fits`]), the fully associative queue of its own
/// ([`FullQueue`]); elsewhere the engine's.
fn build_queue<P: Policy, const HIT_TOUCHES: bool>(
    spec: &PolicySpec,
    geom: &Geometry,
    env: &Env,
) -> Result<Box<dyn CacheSim>, CacheError> {
    if !full::fits(geom) {
        return build::<P>(spec, geom, env);
    }
    build_full::<P, _>(spec, geom, |_| {
        FullQueue::<HIT_TOUCHES>::try_new(geom.ways as usize)
    })
}

/// The fully associative cache of policy `P` on `geom`: its lines are
/// what `lines` builds from the spec's parameters.
fn build_full<P: Policy, K: FullKernel + 'static>(
    spec: &PolicySpec,
    geom: &Geometry,
    lines: impl FnOnce(&mut Params) -> Result<K, CacheError>,
) -> Result<Box<dyn CacheSim>, CacheError> {
    let notes = notes::<P>(spec, geom)?;
    let mut params = Params::new(spec);
    let lines = lines(&mut params).map_err(|e| e.in_cache(spec, geom))?;
    params.finish()?;
    let label = spec.to_string();
    Ok(Box::new(Full::new(
        *geom,
        unallocated(spec),
        label,
        notes,
        lines,
    )))
}

/// OPT: on one set of more than 64 ways ([`full::fits`]), the fully
/// associative cache of its own ([`FullOpt`]); elsewhere the engine's.
fn build_opt(
    spec: &PolicySpec,
    geom: &Geometry,
    env: &Env,
) -> Result<Box<dyn CacheSim>, CacheError> {
    if !full::fits(geom) {
        return build::<opt::Opt>(spec, geom, env);
    }
    let next = env.next_use.clone().ok_or_else(|| needs_next_use(spec))?;
    build_full::<opt::Opt, _>(spec, geom, |params| {
        let bypass = opt::Opt::take_bypass(params)?;
        FullOpt::try_new(geom.ways as usize, next, bypass)
    })
}

/// The cache of policy `P`: on one set of more than 64 ways
/// ([`full::fits`]), the engine's ways and hooks over a packed index
/// ([`FullWays`]); elsewhere the engine.
fn build<P: Policy>(
    spec: &PolicySpec,
    geom: &Geometry,
    env: &Env,
) -> Result<Box<dyn CacheSim>, CacheError> {
    if !full::fits(geom) {
        return Ok(Box::new(labelled::<P>(spec, geom, env)?));
    }
    if P::NEEDS_NEXT_USE && env.next_use.is_none() {
        return Err(needs_next_use(spec));
    }
    build_full::<P, _>(spec, geom, |params| {
        FullWays::try_new(geom, P::build(params, geom, env)?)
    })
}

fn build_level<P: Policy>(
    spec: &PolicySpec,
    geom: &Geometry,
    env: &Env,
) -> Result<Box<dyn LevelCache>, CacheError> {
    Ok(Box::new(labelled::<P>(spec, geom, env)?))
}

macro_rules! policy {
    ($name:literal, $ty:ty, $about:literal) => {
        PolicyInfo::new::<$ty>($name, $about)
    };
}

/// The registry, in the order reports list policies.
pub static POLICIES: &[PolicyInfo] = &[
    policy!("lru", lru::Lru, "least recently used").with_build(build_queue::<lru::Lru, true>),
    policy!("fifo", fifo::Fifo, "first in, first out").with_build(build_queue::<fifo::Fifo, false>),
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
    policy!("opt", opt::Opt, "Belady's MIN with bypass (bypass)").with_build(build_opt),
];

pub fn find(name: &str) -> Option<&'static PolicyInfo> {
    find_in(POLICIES.iter(), name)
}

/// The entry named `name` among `registry`.
pub fn find_in<'a>(
    mut registry: impl Iterator<Item = &'a PolicyInfo>,
    name: &str,
) -> Option<&'a PolicyInfo> {
    registry.find(|p| p.name == name)
}

/// The entry `spec` names among `registry`, or an error listing the known names.
pub fn lookup<'a>(
    registry: impl Iterator<Item = &'a PolicyInfo> + Clone,
    spec: &PolicySpec,
) -> Result<&'a PolicyInfo, CacheError> {
    find_in(registry.clone(), &spec.name).ok_or_else(|| CacheError::Policy {
        spec: spec.to_string(),
        what: format!(
            "no such policy (known: {})",
            registry.map(|p| p.name).collect::<Vec<_>>().join(", ")
        ),
    })
}

/// Builds the cache a spec describes, from this crate's policies.
pub fn build_cache(
    spec: &PolicySpec,
    geom: &Geometry,
    env: &Env,
) -> Result<Box<dyn CacheSim>, CacheError> {
    lookup(POLICIES.iter(), spec)?.build(spec, geom, env)
}
