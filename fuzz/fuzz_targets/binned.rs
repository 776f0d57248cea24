//! Any bytes as a binned passes file (`render --binned`, read by
//! `gfxcache tcor --binned`): render passes or an error, never a panic, a
//! hang or an allocation the input's sizes alone ask for; and every pass
//! the format accepts bins (`gfxcache-tcor`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(passes) = gfxcache_trace::binned::parse(data) {
        for p in &passes {
            gfxcache_tcor::Binning::new(&p.frame).expect("a checked frame bins");
        }
    }
});
