//! Any bytes given to the oracleGeneral reader, as a file or a stream, plain or as
//! zstd: records or an error, never a panic, never unbounded memory.
#![no_main]

use std::io::Cursor;
use std::path::Path;

use gfxcache_trace::{read_all, read_from, read_stream, Format};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let name = Path::new("fuzz.oracleGeneral");
    for zstd in [false, true] {
        if let Ok(mut r) = read_from(Cursor::new(data.to_vec()), name, Format::OracleGeneral, zstd) {
            let _ = read_all(r.as_mut());
        }
        if let Ok(mut r) = read_stream(Cursor::new(data.to_vec()), 0, name, Format::OracleGeneral, zstd) {
            let _ = read_all(r.as_mut());
        }
    }
});
