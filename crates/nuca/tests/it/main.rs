//! The integration tests of `gfxcache-nuca`, gathered into one test binary:
//! each module below was a file of its own under `tests/` and says in
//! its opening comment what it tests. One binary per crate means one
//! link of the crate and its dependencies instead of one per file,
//! which is most of the time `cargo test --workspace` spends building.
//!
//! The tests of all modules run as threads of one process, so none of
//! them may change process-wide state (the stop flag of
//! `gfxcache_cache::progress`, the registry of temporaries of
//! `gfxcache_trace::atomic`, environment variables, the current
//! directory, signal handlers, the global rayon pool); a test that must
//! is a binary of its own beside this directory.

mod affinity_table;
mod buckets;
mod bus;
mod common;
mod config;
mod dram;
mod input;
mod organizations;
mod other_traffic;
mod replay;
mod study;
mod timing;
