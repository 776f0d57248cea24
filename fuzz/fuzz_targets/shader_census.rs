//! Any bytes as a GLSL shader for the census: a count or a reason it was
//! not counted, never a panic (the shim's, naga's front end's or the
//! counter's; naga runs on a thread of its own, whose panic aborts here).
#![no_main]

use gfxcache_shaders::{count_source, Define, Stage};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let defines = [Define {
        name: "HIGHP_OR_DEFAULT".into(),
        value: "highp".into(),
    }];
    let _ = count_source(&text, Stage::Fragment, &defines);
    let _ = count_source(&text, Stage::Vertex, &[]);
});
