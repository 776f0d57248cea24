//! `tcor.json`: everything the TCOR study measured, one document. The CSV
//! files, the plots and `index.html` are all drawn from this.

use std::collections::BTreeMap;

use super::fetcher::SensitivityPoint;
use crate::{
    Characteristics, FetcherStats, FetcherTiming, FrameL2Stats, OverflowUsage, SweepPoint,
    TileBuffers,
};
use gfxcache_mem::{EnergyModel, MemoryEnergy};
use serde::Serialize;

/// The Tiling Engines of Section V-B, by the names `tcor.json` uses.
pub const ENGINES: [&str; 3] = ["baseline", "tcor_no_l2", "tcor"];

/// The whole study of one tile-based frame.
#[derive(Serialize, serde::Deserialize, Clone, Debug)]
pub struct TcorReport {
    /// The machine the study ran on, every value with its source.
    #[serde(default)]
    pub machine: Option<gfxcache_machine::Machine>,
    /// The trace the study read (or rendered and then read), and the
    /// binned passes beside it.
    pub trace: String,
    pub binned: String,
    /// Scene and resolution from the trace's header, when it has them.
    pub scene: Option<String>,
    pub resolution: Option<(u32, u32)>,
    /// Which tiles the Polygon List Builder listed each primitive in
    /// (`exact` or `bbox`; [`binning_of`]): what the figures are for.
    pub binning: Option<String>,
    pub render_passes: u64,
    pub tiles: u64,
    /// Table II per render pass, and for the whole frame.
    pub passes: Vec<PassCharacteristics>,
    pub frame: FrameCharacteristics,
    /// The shared L2 and how the Tile Fetcher is timed.
    pub l2: L2Setup,
    /// Attribute Cache miss-ratio curves (Figures 1, 11, 12, 13).
    pub curves: Vec<Curve>,
    /// Where each curve first reaches its lower bound and stays there.
    pub reach: Reach,
    /// LB of the two TCOR Attribute Caches (48 and 112 KiB, 4-way), in
    /// primitives, keyed by Tile Cache size (`64KiB`, `128KiB`).
    pub lower_bound: BTreeMap<String, u64>,
    /// Every (engine, Tile Cache size) run through the shared L2.
    pub runs: Vec<EngineRun>,
    /// The figures of Section V-B, keyed by Tile Cache size then engine
    /// ([`ENGINES`]): Parameter Buffer blocks to the L2 (Figures 14-15)
    /// and to main memory (16-17), all main-memory accesses (18-19),
    /// memory-hierarchy energy in nJ (20-21), Tile Fetcher primitives per
    /// cycle (23-24).
    pub pb_l2_accesses: BTreeMap<String, BTreeMap<String, u64>>,
    pub pb_dram_accesses: BTreeMap<String, BTreeMap<String, u64>>,
    pub dram_accesses: BTreeMap<String, BTreeMap<String, u64>>,
    pub energy_nj: BTreeMap<String, BTreeMap<String, f64>>,
    pub primitives_per_cycle: BTreeMap<String, BTreeMap<String, f64>>,
    /// Figures 23-24 again with each timing of `l2.fetcher_sweep`, keyed
    /// by Tile Cache size: each engine's primitives per cycle and TCOR's
    /// speedup.
    pub fetcher_sensitivity: BTreeMap<String, Vec<SensitivityPoint>>,
    /// Decreases versus the baseline in percent, keyed by Tile Cache size,
    /// to set beside the paper's (`paper` has the same keys).
    pub reductions: BTreeMap<String, Reductions>,
    pub paper: BTreeMap<String, Reductions>,
    pub energy_model: EnergyModel,
    /// L1 accesses outside the Tiling Engine (vertex and texture caches)
    /// counted in every run's energy: known when the study rendered the
    /// frame, empty for a given trace.
    pub other_l1: Vec<L1Count>,
    /// Frames in the trace (a trace without frame markers is one frame),
    /// and how many of them, from the first, only warmed the L2 up: every
    /// figure but `per_frame` counts the frames after those (the curves,
    /// the bound and `frame` the render passes of those frames).
    pub frames: u32,
    pub warmup: u32,
    /// What the reader should know about the input (printed on stderr too).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// Wall-clock seconds each phase took.
    pub seconds: BTreeMap<String, f64>,
}

/// The binning mode a trace's header records: its `binning` field, and
/// `exact` for a tile-based trace without one (the renderer records only
/// `bbox`, so that exact traces keep the header they had before the mode
/// existed); `None` when the header does not say tile-based.
pub fn binning_of(meta: &gfxcache_trace::TraceMeta) -> Option<String> {
    match meta.extra.get("binning") {
        Some(v) => Some(v.as_str().map_or_else(|| v.to_string(), str::to_string)),
        None => (meta.mode.as_deref() == Some("tbr")).then(|| "exact".to_string()),
    }
}

#[derive(Serialize, serde::Deserialize, Clone, Debug)]
pub struct PassCharacteristics {
    pub frame: u32,
    pub pass: String,
    #[serde(flatten)]
    pub characteristics: Characteristics,
    /// The baseline PB-Lists layout's overflow area in this pass: tiles
    /// whose list outgrew its room of 1024 PMDs, the PMDs and the chunks
    /// past it (the runs' `stats.overflow` add the L2 traffic there).
    pub baseline_overflow: OverflowUsage,
}

/// Table II for the whole frame: sums over its render passes, and reuse as
/// all tile uses over all primitives.
#[derive(Serialize, serde::Deserialize, Clone, Copy, Debug, Default)]
pub struct FrameCharacteristics {
    pub primitives: u64,
    pub attributes: u64,
    pub tile_uses: u64,
    pub footprint_bytes: u64,
    /// The largest render pass's footprint (one Parameter Buffer lives at
    /// a time).
    pub largest_pass_footprint_bytes: u64,
    pub average_reuse: f64,
}

#[derive(Serialize, serde::Deserialize, Clone, Debug)]
pub struct L2Setup {
    pub bytes: u64,
    pub ways: u32,
    pub tile_buffers: TileBuffers,
    pub fetcher: FetcherTiming,
    /// The other timings the Tile Fetcher was measured with, on the same
    /// L2 reads (each run's `fetcher_sweep`, `fetcher_sensitivity`).
    pub fetcher_sweep: Vec<FetcherTiming>,
    /// TCOR's Tile Fetcher output queue, in primitives: its Attribute
    /// Cache lines stay locked while their primitives wait there.
    pub queue_depth: usize,
}

/// One replacement policy at one associativity over the swept sizes.
#[derive(Serialize, serde::Deserialize, Clone, Debug)]
pub struct Curve {
    /// `opt`, `lru`, `mru`, `drrip`.
    pub policy: String,
    /// `full` or the way count.
    pub ways: String,
    pub points: Vec<SweepPoint>,
}

#[derive(Serialize, serde::Deserialize, Clone, Debug)]
pub struct Reach {
    /// Misses within this fraction of the bound count as reaching it.
    pub tolerance: f64,
    pub curves: Vec<ReachPoint>,
    /// Fully associative: LRU's size over OPT's (the paper: 375 / 55 =
    /// 6.8); `None` unless both reach the bound within the sweep.
    pub lru_over_opt_full: Option<f64>,
}

#[derive(Serialize, serde::Deserialize, Clone, Debug)]
pub struct ReachPoint {
    pub policy: String,
    pub ways: String,
    /// Attribute Cache bytes; `None`: not within the sweep.
    pub bytes: Option<u64>,
}

/// One Tiling Engine at one Tile Cache size through the shared L2.
#[derive(Serialize, serde::Deserialize, Clone, Debug)]
pub struct EngineRun {
    /// One of [`ENGINES`].
    pub engine: String,
    /// `64KiB` or `128KiB`.
    pub tile_cache: String,
    /// What the engine is, in words.
    pub about: String,
    /// `lru` or `dead-aware`.
    pub l2_policy: String,
    pub stats: FrameL2Stats,
    /// The Tile Fetcher by each timing of `l2.fetcher_sweep`, in order.
    pub fetcher_sweep: Vec<FetcherStats>,
    pub energy: MemoryEnergy,
    /// Each counted frame on its own (the L2 stays warm from frame to
    /// frame), and the mean of those rows.
    pub per_frame: Vec<EngineFrame>,
    pub mean_per_frame: EngineFrameMean,
}

/// One frame of one engine run: the figures of Section V-B.
#[derive(Serialize, serde::Deserialize, Clone, Debug)]
pub struct EngineFrame {
    /// The frame's index in the trace, from 0 (warm-up frames included).
    pub frame: u32,
    pub pb_l2_accesses: u64,
    pub pb_dram_accesses: u64,
    pub dram_accesses: u64,
    pub energy_nj: f64,
    pub primitives_per_cycle: f64,
}

/// The mean of a run's [`EngineFrame`]s, column by column.
#[derive(Serialize, serde::Deserialize, Clone, Debug, Default)]
pub struct EngineFrameMean {
    pub pb_l2_accesses: f64,
    pub pb_dram_accesses: f64,
    pub dram_accesses: f64,
    pub energy_nj: f64,
    pub primitives_per_cycle: f64,
}

impl EngineFrameMean {
    pub fn of(frames: &[EngineFrame]) -> EngineFrameMean {
        let n = frames.len().max(1) as f64;
        let mean = |f: &dyn Fn(&EngineFrame) -> f64| frames.iter().map(f).sum::<f64>() / n;
        EngineFrameMean {
            pb_l2_accesses: mean(&|f| f.pb_l2_accesses as f64),
            pb_dram_accesses: mean(&|f| f.pb_dram_accesses as f64),
            dram_accesses: mean(&|f| f.dram_accesses as f64),
            energy_nj: mean(&|f| f.energy_nj),
            primitives_per_cycle: mean(&|f| f.primitives_per_cycle),
        }
    }
}

/// Decreases versus the baseline at one Tile Cache size, in percent.
#[derive(Serialize, serde::Deserialize, Clone, Copy, Debug, Default)]
pub struct Reductions {
    pub pb_l2_accesses: f64,
    pub pb_dram_accesses: f64,
    pub dram_accesses: f64,
    pub energy: f64,
    pub energy_no_l2: f64,
    /// TCOR's Tile Fetcher throughput over the baseline's (times, not
    /// percent).
    pub fetcher_speedup: f64,
}

/// An L1 outside the Tiling Engine, for the energy model: its accesses
/// in the counted frames.
#[derive(Serialize, serde::Deserialize, Clone, Debug)]
pub struct L1Count {
    pub name: String,
    pub bytes: u64,
    pub accesses: u64,
}

/// An L1 outside the Tiling Engine as the study is given it: its accesses
/// in each frame of the trace, in order.
#[derive(Clone, Debug)]
pub struct OtherL1 {
    pub name: String,
    pub bytes: u64,
    pub accesses_per_frame: Vec<u64>,
}

impl OtherL1 {
    /// Accesses in the frames `frames` (a range of frame indices); frames
    /// it has no count for count 0.
    pub fn accesses(&self, frames: std::ops::Range<usize>) -> u64 {
        self.accesses_per_frame
            .iter()
            .skip(frames.start)
            .take(frames.len())
            .sum()
    }
}
