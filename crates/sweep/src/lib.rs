//! Experiments at scale (issue 22): a sweep file (`EXP.toml`) names the
//! axes of an experiment (scenes or suites, resolutions, frames and
//! warm-up, pipeline mode and preset, cache geometries, policies, the
//! studies to run on each point); this crate checks it, naming the file,
//! line and key of anything wrong ([`exp`]), and expands it into jobs,
//! each with a key that is stable across runs and changes when anything
//! the job depends on changes ([`jobs`]), so that a result store can keep
//! every finished job and a resumed sweep runs only the others.
//!
//! Then the result store ([`store`]: each finished job's result on disk,
//! written atomically; a resumed sweep runs only the jobs without one),
//! and the schedule ([`run`]: each frame rendered once, the jobs in
//! parallel, failures reported while the others go on) with the rendering
//! and the work given by the caller: `gfxcache_cli::sweep` composes them
//! from the commands, for `gfxcache sweep` and for Python.
//!
//! Depends on `cache` (sizes, policy specs), `llc` (the policy registry)
//! and `render` (built-in scenes, suites, presets) to check names; never
//! on `cli`, and it never prints.

pub mod error;
pub mod exp;
pub mod inputs;
pub mod jobs;
mod parse;
pub mod run;
pub mod store;

pub use error::SweepError;
pub use exp::{Experiment, FramePoint, Geometry, Input, PipelineMode, StudyKind};
pub use jobs::{Job, JobKind, COMMIT, LONG_VERSION, SOURCES, VERSION};
pub use run::{
    ensure_frame, run, run_one, run_pending, Failure, RunSummary, FRAMES, JOBS_ENDED, JOBS_FAILED,
};
pub use store::{Owner, Store, StoreLock, REPORT, REPORT_MANIFEST};
