//! The cache engine of gfxcache: set-associative caches with pluggable
//! replacement policies, Belady's OPT, and one-pass miss-ratio curves.
//!
//! A [`Cache`] owns tags, dirty bits and statistics and is generic over a
//! [`Policy`], so the access loop is monomorphized: no dynamic dispatch and
//! no allocation per access. Policies live one per file in `policies/` and
//! are found by name in [`registry`]; specs such as `drrip:bits=4` or
//! `gspc+ucd` are parsed by [`PolicySpec`]; a fully associative cache of
//! any policy runs on a cache of its own ([`full`]), which the registry
//! builds in the engine's place. [`run::simulate`] feeds a trace to many caches at once, decoding
//! it once. [`observe`] runs the reuse
//! analyses of the GSPC paper's Section 2 beside any policy. What every
//! paper's study shares lives here too: [`Progress`] reports, and
//! [`suite`], a study's report on each scene of a workload suite with the
//! mean its design crate computes.
//!
//! Depends on `gfxcache-trace` only. It knows nothing of rendering or of the
//! command line, and of the papers' designs only the generic RRIP family;
//! the GSPC policies register from `gfxcache-llc` with [`PolicyInfo::new`].

pub mod duel;
pub mod engine;
pub mod error;
pub mod full;
pub mod geometry;
pub mod hierarchy;
pub mod lanes;
pub mod mrc;
pub mod next_use;
pub mod observe;
pub mod outcome;
pub mod policies;
pub mod policy;
pub mod progress;
pub mod recency;
pub mod registry;
pub mod rrip;
pub mod run;
pub mod shards;
pub mod sim;
pub mod spec;
pub mod stats;
pub mod suite;
pub mod table;
pub mod way_bits;

pub use engine::{block_range, Cache, StreamMask};
pub use error::CacheError;
pub use geometry::{format_size, parse_size, Geometry, IndexFn, Ways, WritePolicy};
pub use mrc::{CurvePoint, MissCurve, Mrc, MrcBuilder, StackDistances, StreamPoint};
pub use next_use::{NextUse, NextUseBuilder};
pub use observe::{Observed, Reuse, RRPV_BANDS};
pub use outcome::{BlockEvent, BlockOutcome, Line, Placed};
pub use policy::{Ctx, Env, Policy};
pub use progress::{Progress, ProgressFn, ProgressUnit};
pub use registry::{build_cache, PolicyInfo, POLICIES};
pub use sim::CacheSim;
pub use spec::{ParamInfo, Params, PolicySpec};
pub use stats::{Counts, Stats};
pub use suite::{SceneReport, SuiteMean, SuiteReport};
