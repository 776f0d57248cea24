//! Any bytes as a glTF (JSON) or GLB file: a scene or an error, never a
//! panic.
#![no_main]

use std::path::Path;

use gfxcache_render::scene::gltf;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = gltf::parse_bytes(data, Path::new("/nonexistent-fuzz-dir/fuzz.glb"));
});
