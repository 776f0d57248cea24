//! The GPU front: how many LLC accesses the GPU keeps in flight and how
//! fast it can issue them.
//!
//! A GPU hides memory latency by switching among thread contexts. The front
//! model keeps exactly that and nothing else: `cores * threads_per_core`
//! contexts, each with at most one LLC access in flight. The frame's LLC
//! accesses are dealt to the contexts round-robin in trace order (access i
//! to context i mod C); access i issues at the latest of
//!
//! - when its context is ready: access i-C's completion plus `work_cycles`
//!   of shader work (for a write, its issue plus the work: see below);
//! - access i-1's issue plus the minimum issue interval, one GPU cycle /
//!   `issues_per_cycle`;
//! - for a texture access, the previous texture access's issue plus one
//!   GPU cycle / `samplers` (each sampler sends at most one LLC request per
//!   cycle).
//!
//! Writes (render-target, depth and other write-backs from the render
//! caches) are posted: they occupy the LLC bank and, when they leave the
//! LLC, the DRAM, but their context goes on without waiting for them.
//!
//! `work_cycles` is an assumption: our LLC traces carry no instruction
//! counts, so the shader work between two LLC accesses of one context is
//! one number for the whole frame. The default, 1000 GPU cycles, puts the
//! baseline GPU's compute-bound LLC rate (768 contexts / 625 ns, about 1.2
//! accesses per ns, 79 GB/s) near what dual-channel DDR3-1600 (25.6 GB/s)
//! sustains at the 30-50 % LLC miss ratios of the paper's frames: a frame is
//! then neither all compute nor all memory, the regime in which the paper
//! saw 13 % fewer misses give 8 % more FPS. The command line can change it.
//!
//! Not modelled: the shader cores' instruction issue, texture filtering
//! work, the render caches and the on-chip interconnect (their effect is
//! folded into `work_cycles`), and dependences between accesses other than
//! "one per context".

use serde::{Deserialize, Serialize};

use crate::error::MemError;

/// The GPU's front; `Default` is [`GpuConfig::high_end`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GpuConfig {
    pub cores: u32,
    pub threads_per_core: u32,
    pub clock_ghz: f64,
    /// Texture samplers; each issues at most one LLC request per GPU cycle.
    pub samplers: u32,
    /// Shader work a context does between two of its LLC accesses, GPU cycles.
    pub work_cycles: u32,
    /// LLC requests the whole GPU can issue per GPU cycle. The default, 16,
    /// is above both the samplers' 12 and the 10 per GPU cycle that four
    /// 4 GHz LLC banks accept, so by default the contexts, the LLC banks and
    /// the DRAM bound the frame, not this.
    pub issues_per_cycle: u32,
}

impl GpuConfig {
    /// The GSPC paper's baseline GPU (section 4): 96 shader cores with 8
    /// thread contexts each (768) at 1.6 GHz, 12 texture samplers.
    pub fn high_end() -> GpuConfig {
        GpuConfig {
            cores: 96,
            threads_per_core: 8,
            clock_ghz: 1.6,
            samplers: 12,
            work_cycles: 1000,
            issues_per_cycle: 16,
        }
    }

    /// The less aggressive GPU of the paper's Figure 17 (lower panel):
    /// 64 cores x 8 threads (512 contexts), 8 samplers.
    pub fn less_aggressive() -> GpuConfig {
        GpuConfig {
            cores: 64,
            samplers: 8,
            ..GpuConfig::high_end()
        }
    }

    /// Thread contexts: the most LLC accesses in flight.
    pub fn contexts(&self) -> usize {
        self.cores as usize * self.threads_per_core as usize
    }

    /// Picoseconds in `cycles` GPU cycles, rounded to nearest.
    pub fn cycles_ps(&self, cycles: f64) -> u64 {
        (cycles * 1000.0 / self.clock_ghz).round() as u64
    }

    pub fn validate(&self) -> Result<(), MemError> {
        let bad = |what: &str, why: String| {
            Err(MemError::Config {
                part: "gpu",
                what: what.to_string(),
                why,
            })
        };
        if self.contexts() == 0 {
            return bad("cores/threads_per_core", "no thread contexts".into());
        }
        if !(self.clock_ghz.is_finite() && self.clock_ghz > 0.0) {
            return bad("clock_ghz", format!("{} is not a clock", self.clock_ghz));
        }
        if self.samplers == 0 {
            return bad("samplers", "must be positive".into());
        }
        if self.issues_per_cycle == 0 {
            return bad("issues_per_cycle", "must be positive".into());
        }
        Ok(())
    }
}

impl Default for GpuConfig {
    fn default() -> GpuConfig {
        GpuConfig::high_end()
    }
}
