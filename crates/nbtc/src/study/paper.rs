//! The slides' numbers (Hong et al. 2013, slides 21-23: mRPsim, 8 pixel
//! processors, the Taiji benchmark with nearest, bilinear and trilinear
//! filtering, 32 KB 4-way L1 of 32 B blocks, 32-entry buffers).

use serde::{Deserialize, Serialize};

/// The class of frames the slides measured: Taiji, a mobile benchmark.
pub const SUITE: &str = "mobile";

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PaperNumbers {
    /// Pixel-shader cycles of the NBTC against the BTC, percent, per DRAM
    /// latency the slides state (50 and 300 cycles; 100 and 200 are only
    /// drawn).
    pub cycles_change: Vec<(u64, f64)>,
    /// The NBTC's memory traffic over the BTC's, at most, percent.
    pub traffic_change_max: f64,
    /// The scale of the slides' miss-rate chart, percent (no values are
    /// given: "the NBTC's miss rate increased slightly").
    pub miss_rate_axis_max: f64,
    /// The scale of the slides' total-cycles chart, million cycles a frame.
    pub cycles_axis_max_millions: f64,
}

pub fn numbers() -> PaperNumbers {
    PaperNumbers {
        cycles_change: vec![(50, -12.47), (300, -41.64)],
        traffic_change_max: 11.0,
        miss_rate_axis_max: 8.0,
        cycles_axis_max_millions: 15.0,
    }
}
