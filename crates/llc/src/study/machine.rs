//! The machines the GSPC study computes frame times on: a described
//! machine's (`gfxcache machines gspc`: the paper's baseline of Section 4)
//! and the two of the paper's Figure 17 made from it.
//!
//! What the frame time takes from a described machine
//! ([`gfxcache_machine::Machine`]), key by key:
//!
//! - the GPU front ([`GpuConfig`]): `fragment.processors` cores of
//!   `fragment.threads` contexts at `gpu.clock_mhz`, `fragment.samplers`
//!   texture samplers (none: one a core), and `frame_time.work_cycles` and
//!   `frame_time.requests_per_cycle`;
//! - the LLC's timing ([`LlcTiming`]): `l2.clock_mhz` (none: the GPU's),
//!   `l2.hit_cycles` as the load-to-use round trip, `l2.tag_cycles` and
//!   `l2.busy_cycles` (its banks and size are the simulated LLC's);
//! - the DRAM ([`DramConfig`]): `memory.dram`.
//!
//! Figure 17's two machines are the baseline with DDR3-1867 10-10-10, and
//! with 64 cores and 8 samplers, as the paper states them.

use gfxcache_machine::{Machine as Described, MachineError};
use gfxcache_mem::{DramConfig, DramPreset, GpuConfig, LlcTiming};

/// A named machine the frame time is computed on.
#[derive(Clone, Debug)]
pub struct Machine {
    pub name: &'static str,
    pub about: String,
    pub gpu: GpuConfig,
    pub llc: LlcTiming,
    pub dram: DramConfig,
    /// Whether runs at sizes other than the main one are timed on it too.
    pub every_size: bool,
}

/// The baseline's GPU front, LLC timing and DRAM from `described` (the
/// module's list of keys); an error names a key the frame time needs and
/// the machine lacks.
pub fn baseline(described: &Described) -> Result<Machine, MachineError> {
    let why = "the GSPC study's frame time needs it";
    let f = &described.fragment;
    let time = described.require(described.frame_time.as_ref(), "frame_time", why)?;
    let l2 = described.require(described.l2.as_ref(), "l2", why)?;
    let tag = described.require(l2.tag_cycles.as_ref(), "l2.tag_cycles", why)?;
    let busy = described.require(l2.busy_cycles.as_ref(), "l2.busy_cycles", why)?;
    let gpu_mhz = described.gpu.clock_mhz.value;
    let llc_mhz = l2.clock_mhz.as_ref().map_or(gpu_mhz, |c| c.value);
    let banks = l2.banks.value;
    Ok(Machine {
        name: "baseline",
        about: described.about.clone(),
        gpu: GpuConfig {
            cores: u32::from(f.processors.value),
            threads_per_core: f.threads.value,
            clock_ghz: f64::from(gpu_mhz) / 1000.0,
            samplers: described.samplers(),
            work_cycles: time.work_cycles.value,
            issues_per_cycle: time.requests_per_cycle.value,
        },
        llc: LlcTiming {
            banks,
            bank_bytes: l2.bytes.value.0 / u64::from(banks),
            clock_ghz: f64::from(llc_mhz) / 1000.0,
            load_to_use_cycles: l2.hit_cycles.value,
            tag_cycles: tag.value,
            bank_busy_cycles: busy.value,
        },
        dram: described.memory.dram.value.config(),
        every_size: true,
    })
}

/// `baseline` and the two machines of Figure 17 made from it.
pub fn machines(baseline: &Machine) -> Vec<Machine> {
    vec![
        baseline.clone(),
        Machine {
            name: "ddr3-1867",
            about: "as baseline, DDR3-1867 10-10-10 (Figure 17, upper)".into(),
            dram: DramPreset::Ddr3_1867.config(),
            every_size: false,
            ..baseline.clone()
        },
        Machine {
            name: "gpu-64",
            about: "as baseline, 64 cores x 8 threads and 8 samplers (Figure 17, lower)".into(),
            gpu: GpuConfig {
                cores: 64,
                samplers: 8,
                ..baseline.gpu.clone()
            },
            every_size: false,
            ..baseline.clone()
        },
    ]
}
