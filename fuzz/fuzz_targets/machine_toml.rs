//! Any bytes as a machine TOML file (`--machine FILE`): a checked machine
//! whose issue model and sourced values can be used, or an error, never a
//! panic.
#![no_main]

use std::path::Path;

use gfxcache_machine::Machine;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(m) = Machine::parse(&text, Path::new("fuzz.toml")) {
        let _ = m.issue_model();
        let _ = m.values();
    }
});
