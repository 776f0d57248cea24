//! The TCOR paper's published averages over its ten Android games, to print
//! beside ours. Values read from the text of Section V; none feeds a model.

/// The class of frames the paper measured, as a workload suite is named
/// (`gfxcache_render::scene::builtin::Suite`): Android games on a
/// tile-based GPU.
pub const SUITE: &str = "mobile";

use std::collections::BTreeMap;

use super::report::Reductions;

/// Decreases versus the baseline in percent, by Tile Cache size: PB
/// accesses to the L2 (Figures 14-15), PB accesses to main memory (16-17),
/// all main-memory accesses (18-19), memory-hierarchy energy with and
/// without the L2 enhancements (20-21; "around 9 %" without, for both
/// sizes), and the Tile Fetcher's speedup (23-24, "5x" on average).
pub fn reductions() -> BTreeMap<String, Reductions> {
    let mut m = BTreeMap::new();
    m.insert(
        "64KiB".to_string(),
        Reductions {
            pb_l2_accesses: 33.5,
            pb_dram_accesses: 93.0,
            dram_accesses: 13.9,
            energy: 14.1,
            energy_no_l2: 9.0,
            fetcher_speedup: 5.0,
        },
    );
    m.insert(
        "128KiB".to_string(),
        Reductions {
            pb_l2_accesses: 37.1,
            pb_dram_accesses: 94.1,
            dram_accesses: 13.3,
            energy: 13.6,
            energy_no_l2: 9.0,
            fetcher_speedup: 5.0,
        },
    );
    m
}

/// Fully associative Attribute Cache sizes at which OPT and LRU reach the
/// lower bound (Figure 11): 55 KiB and 375 KiB, 6.8 times apart.
pub const OPT_REACHES_BOUND_KIB: f64 = 55.0;
pub const LRU_REACHES_BOUND_KIB: f64 = 375.0;

/// Table II: the games' Parameter Buffer footprints (MiB) and average
/// primitive reuse (tiles per primitive), smallest and largest.
pub const FOOTPRINT_MIB: (f64, f64) = (0.12, 1.81);
pub const AVERAGE_REUSE: (f64, f64) = (1.4, 6.9);
