//! Any bytes as a texture file (SGI and DDS by their magic, PNG and JPEG
//! likewise, anything else as TGA): an image or an error, never a panic.
#![no_main]

use std::path::Path;

use gfxcache_render::scene::decode_image;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = decode_image(data, Path::new("fuzz.tga"));
});
