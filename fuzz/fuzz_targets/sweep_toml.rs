//! Any bytes as a sweep file (`gfxcache sweep EXP.toml`): a checked
//! experiment whose frame points and jobs are counted as they are made,
//! or an error naming the file, never a panic. `Experiment::parse` only:
//! no scene file is read or hashed (a relative scene file is found under
//! a directory that does not exist, and is never opened).
#![no_main]

use std::path::Path;

use gfxcache_sweep::exp::MAX_FRAME_POINTS;
use gfxcache_sweep::{Experiment, SweepError};
use libfuzzer_sys::fuzz_target;

/// Jobs made to compare with their count, at most.
const MADE: u64 = 4096;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let file = Path::new("/nonexistent-fuzz-dir/exp.toml");
    match Experiment::parse(&text, file) {
        Ok(e) => {
            assert!(e.frame_count() as u64 <= MAX_FRAME_POINTS);
            let n = e.job_count();
            if n <= MADE {
                let jobs = e.jobs();
                assert_eq!(jobs.len() as u64, n);
                for j in jobs.iter().take(8) {
                    let _ = (j.key(), j.slug());
                }
            }
        }
        Err(e) => {
            let at = match &e {
                SweepError::Toml { file, .. }
                | SweepError::Value { file, .. }
                | SweepError::Input { file, .. } => file,
            };
            assert_eq!(at, file, "{e}");
        }
    }
});
