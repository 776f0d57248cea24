//! Any bytes as an AC3D `.ac` file: a scene or an error, never a panic.
//! The file sits in a directory that does not exist, so relative texture
//! names resolve to nothing and become checkerboards.
#![no_main]

use std::path::Path;

use gfxcache_render::scene::ac3d;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = ac3d::parse_str(&text, Path::new("/nonexistent-fuzz-dir/fuzz.ac"));
});
