//! The integration tests of `gfxcache-cli`, gathered into one test binary:
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

mod book;
mod cli;
mod common;
mod compose;
mod fps_alias;
mod gspc;
mod nbtc;
mod nuca;
mod outputs;
mod peers;
mod readme;
mod real_models;
mod render_memory;
mod render_tcor;
mod reports;
mod reproduce;
mod shaders;
mod sim;
mod suite;
mod sweep;
mod sweep_checks;
mod sweep_isolation;
mod tcor;
mod texture_requests;
