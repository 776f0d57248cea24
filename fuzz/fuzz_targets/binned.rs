//! Any bytes as a binned passes file (`render --binned`, read by
//! `gfxcache tcor --binned`): render passes or an error, never a panic, a
//! hang or an allocation the input's sizes alone ask for.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = gfxcache_tcor::binned_file::parse(data);
});
