//! Any bytes as a Wavefront OBJ file: a scene or an error, never a panic
//! (tobj panics on some inputs, which `scene::obj` checks for first).
#![no_main]

use std::path::Path;

use gfxcache_render::scene::obj;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = obj::parse_str(&text, Path::new("/nonexistent-fuzz-dir/fuzz.obj"));
});
