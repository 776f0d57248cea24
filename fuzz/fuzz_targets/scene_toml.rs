//! Any bytes as a scene TOML file: a scene or an error, never a panic.
//! Model paths resolve under a directory that does not exist.
#![no_main]

use std::path::Path;

use gfxcache_render::scene::toml_scene;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = toml_scene::from_bytes(data, Path::new("/nonexistent-fuzz-dir/fuzz.toml"));
});
