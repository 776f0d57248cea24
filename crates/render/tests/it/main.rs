//! The integration tests of `gfxcache-render`, gathered into one test binary:
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
//! is a binary of its own beside this directory, as
//! `tests/interrupt.rs` is (it sets the stop flag).

mod ac3d;
mod ac3d_dialects;
mod binning;
mod binning_overlap;
mod builtin_frames;
mod builtin_scenes;
mod clipping;
mod common;
mod coverage;
mod dependencies;
mod determinism;
mod frame;
mod fuzz_inputs;
mod gltf;
mod layout;
mod loader_checks;
mod obj;
mod perspective;
mod pipeline;
mod pipeline_determinism;
mod presets;
mod render_caches;
mod render_to_texture;
mod sampling;
mod scene_toml;
mod scenes;
mod session;
mod shader_paths;
mod tbr;
mod texture_requests;
mod textures;
