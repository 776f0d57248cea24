//! Timing for gfxcache: turns the LLC outcome of every access of one
//! rendered frame into a frame time and frames per second, so that fewer
//! LLC misses become a shorter frame (the GSPC paper's Figures 15-17).
//!
//! Three parts, one file each, driven by [`FrameTimer`] (`frame.rs`):
//!
//! - [`GpuConfig`] (`gpu.rs`), the GPU front: `cores * threads_per_core`
//!   thread contexts, each with at most one LLC access in flight, issue the
//!   frame's accesses in trace order, round-robin, doing `work_cycles` of
//!   shader work between two of their accesses. Latency is hidden exactly
//!   as far as the contexts allow; writes are posted.
//! - [`LlcTiming`] (`llc.rs`): banks that take one lookup per LLC cycle and
//!   a fixed load-to-use latency; a miss adds the DRAM's time.
//! - [`DramConfig`] and [`Dram`] (`dram.rs`): channels of banks with open
//!   rows (tCAS, tRCD, tRP, tRAS), data buses that carry one line per burst
//!   time; each bank serves its requests in arrival order and a channel's
//!   bus takes whichever bank's data is ready first
//!   ([`Scheduler::BankParallel`], the default), or everything strictly
//!   first-come first-served ([`Scheduler::Fcfs`]); or a fixed latency with
//!   infinite bandwidth for sweeps.
//!
//! [`MissQueue`] (`miss_queue.rs`) is the non-blocking caches' shared
//! part: outstanding block requests (MSHRs), one entry per missing block,
//! answered after a latency. The NBTC's Block Address Buffer and TCOR's
//! Tile Fetcher use it.
//!
//! Beside the timing, [`EnergyModel`] (`energy.rs`) gives the dynamic energy
//! of a memory hierarchy from its access counts ([`MemoryEnergy`]: L1s, L2,
//! DRAM, for the TCOR paper's Figures 20-21), with documented per-access
//! energies standing in for McPAT and DRAMSim2; [`NucaEnergyModel`]
//! (`nuca_energy.rs`) adds what the DTM-NUCA paper's texture cache
//! organizations spend beside it (Affinity Tables, directory, mesh flits,
//! bus beats) and gives [`NucaEnergy`] by part, GPU and memory.
//!
//! ```
//! use gfxcache_mem::{DramConfig, FrameTimer, GpuConfig, LlcTiming};
//! use gfxcache_trace::Stream;
//!
//! let (gpu, llc, dram) = (GpuConfig::high_end(), LlcTiming::gspc(), DramConfig::ddr3_1600());
//! let mut timer = FrameTimer::new(&gpu, &llc, &dram)?;
//! timer.access(0x1000 / 64, Stream::Tex, false, false); // a texture read that missed
//! timer.writeback(0x80_0000 / 64); // its fill evicted a dirty line
//! timer.access(0x1000 / 64, Stream::Tex, false, true); // and hit afterwards
//! let frame = timer.finish();
//! assert_eq!((frame.llc_misses, frame.dram_writes), (1, 1));
//! assert!(frame.fps > 0.0);
//! # Ok::<(), gfxcache_mem::MemError>(())
//! ```
//!
//! Presets carry the papers' values: [`GpuConfig::high_end`] (96 x 8
//! contexts at 1.6 GHz, 12 samplers) and [`GpuConfig::less_aggressive`]
//! (64 x 8, 8 samplers); [`LlcTiming::gspc`] (4 banks of 2 MB, 20 cycles at
//! 4 GHz); [`DramConfig::ddr3_1600`] (15-15-15, dual channel, 8 banks),
//! [`DramConfig::ddr3_1867`] (10-10-10), [`DramConfig::lpddr3_1600`] and
//! [`DramConfig::fixed`]. Every constant is a public field, so a study can
//! change any of them.
//!
//! The model's assumptions, stated where they are made: no DRAM refresh,
//! no read/write turnaround, no tFAW/tRRD, no row-hit-first reordering
//! among one bank's requests (banks overlap, each in arrival order), no
//! model of shader instructions beyond `work_cycles` per access (our traces
//! carry none), whole-line writes (a write miss reads nothing from DRAM).
//! Time is integer picoseconds, so results are deterministic.
//!
//! Depends on `gfxcache-trace` (for [`Stream`](gfxcache_trace::Stream))
//! only. It never depends on the cache engine: it is told hits and misses,
//! it does not compute them.

#![forbid(unsafe_code)]

pub mod dram;
pub mod energy;
pub mod error;
pub mod frame;
pub mod gpu;
pub mod llc;
pub mod miss_queue;
pub mod nuca_energy;

pub use dram::{Dram, DramConfig, DramPreset, DramStats, LineMap, Scheduler};
pub use energy::{EnergyModel, MemoryEnergy};
pub use error::MemError;
pub use frame::{FrameTimer, FrameTiming};
pub use gpu::GpuConfig;
pub use llc::{Llc, LlcTiming};
pub use miss_queue::{MissQueue, MissRefused, UNLIMITED_TARGETS};
pub use nuca_energy::{NucaEnergy, NucaEnergyCounts, NucaEnergyModel};

/// Bytes in the LLC line that every part of this crate moves, as in the
/// GSPC paper (64-byte blocks).
pub const LINE_BYTES: u64 = 64;
