//! The machines the GSPC study computes frame times on: the paper's
//! baseline (Section 4) and the two of its Figure 17.

use gfxcache_mem::{DramConfig, GpuConfig, LlcTiming};

/// A named machine the frame time is computed on.
#[derive(Clone, Debug)]
pub struct Machine {
    pub name: &'static str,
    pub about: &'static str,
    pub gpu: GpuConfig,
    pub llc: LlcTiming,
    pub dram: DramConfig,
    /// Whether runs at sizes other than the main one are timed on it too.
    pub every_size: bool,
}

/// The paper's baseline (Section 4) and the two machines of Figure 17, with
/// `gpu` as the baseline's GPU front (its `work_cycles` also the others').
pub fn machines(gpu: &GpuConfig) -> Vec<Machine> {
    let llc = LlcTiming::default();
    vec![
        Machine {
            name: "baseline",
            about: "GPU of Section 4 (96 cores x 8 threads, 12 samplers), LLC at 4 GHz (20 cycles), dual-channel DDR3-1600 15-15-15",
            gpu: gpu.clone(),
            llc: llc.clone(),
            dram: DramConfig::ddr3_1600(),
            every_size: true,
        },
        Machine {
            name: "ddr3-1867",
            about: "as baseline, DDR3-1867 10-10-10 (Figure 17, upper)",
            gpu: gpu.clone(),
            llc: llc.clone(),
            dram: DramConfig::ddr3_1867(),
            every_size: false,
        },
        Machine {
            name: "gpu-64",
            about: "as baseline, 64 cores x 8 threads and 8 samplers (Figure 17, lower)",
            gpu: GpuConfig {
                work_cycles: gpu.work_cycles,
                ..GpuConfig::less_aggressive()
            },
            llc,
            dram: DramConfig::ddr3_1600(),
            every_size: false,
        },
    ]
}
