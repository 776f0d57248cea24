//! What the study gives: per filter mode, each design at each latency
//! against the blocking cache; the sweeps; the slides' numbers.

use gfxcache_machine::Machine;
use serde::{Deserialize, Serialize};

use crate::config::{Mode, NbtcConfig};
use crate::replay::RunResult;
use crate::stats::UnitStats;
use crate::storage::Storage;
use crate::study::paper::PaperNumbers;

/// Percent change of `ours` over `base` (0 when `base` is 0).
pub fn change(ours: u64, base: u64) -> f64 {
    if base == 0 {
        0.0
    } else {
        (ours as f64 / base as f64 - 1.0) * 100.0
    }
}

/// One design at one latency over a frame.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunRow {
    pub mode: Mode,
    pub latency: u64,
    /// Every pixel processor's counts summed (`cycles` is the processors'
    /// cycles together: the slides' "total PS cycles").
    pub stats: UnitStats,
    /// The slowest processor's cycles.
    pub frame_cycles: u64,
    /// Missing texels over texel lookups, percent.
    pub miss_rate: f64,
    /// Against the blocking cache (serial fetches) at the same latency on
    /// the same frame, percent.
    pub cycles_change: f64,
    pub frame_cycles_change: f64,
    pub traffic_change: f64,
    /// Shader operations (each once) a pixel processor issued a cycle:
    /// every processor's over their cycles together (DTM-NUCA's Table II
    /// gives 7-14 % for its 32 FPs).
    #[serde(default)]
    pub fp_issue_rate: f64,
    /// Share of the cycles the shader neither ran nor issued a request,
    /// percent: stalled on texture results and the cache's buffers.
    #[serde(default)]
    pub stall_share: f64,
}

impl RunRow {
    pub fn of(r: &RunResult, btc: &RunResult) -> RunRow {
        let s = &r.total;
        RunRow {
            mode: r.config.mode,
            latency: r.config.memory_latency,
            stats: *s,
            frame_cycles: r.frame_cycles,
            miss_rate: if s.texel_lookups == 0 {
                0.0
            } else {
                s.misses() as f64 / s.texel_lookups as f64 * 100.0
            },
            cycles_change: change(s.cycles, btc.total.cycles),
            frame_cycles_change: change(r.frame_cycles, btc.frame_cycles),
            traffic_change: change(s.traffic_bytes, btc.total.traffic_bytes),
            fp_issue_rate: gfxcache_cache::stats::ratio(s.instructions, s.cycles),
            stall_share: 100.0 * s.stall_share(),
        }
    }
}

/// One frame, rendered with every material sampler in one filter mode.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FilterReport {
    /// `nearest`, `bilinear`, `trilinear` or `as-authored`.
    pub filter: String,
    pub pixel_processors: usize,
    pub requests: u64,
    pub texel_lookups: u64,
    /// Per design and latency, in the study's order (modes within
    /// latencies).
    pub runs: Vec<RunRow>,
}

impl FilterReport {
    pub fn row(&self, mode: Mode, latency: u64) -> Option<&RunRow> {
        self.runs
            .iter()
            .find(|r| r.mode == mode && r.latency == latency)
    }
}

/// One value of a swept knob: the NBTC and the blocking cache.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepPoint {
    pub value: u64,
    /// The NBTC's three buffers at this value, bytes ([`Storage`]).
    pub storage_bytes: u64,
    pub nbtc: RunRow,
    pub btc: RunRow,
}

/// A knob swept on one frame at one latency, the rest at the study's
/// values.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sweep {
    /// `wlb_entries`, `bab_entries`, `rb_entries`, `block_bytes`,
    /// `hit_latency`, `filter_latency`, `issue_rate`,
    /// `fragments_in_flight`.
    pub knob: String,
    pub filter: String,
    pub latency: u64,
    pub points: Vec<SweepPoint>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NbtcReport {
    /// The scene (or file) the frames come from.
    pub name: String,
    /// The machine the unit is on, every value with its source.
    #[serde(default)]
    pub machine: Option<Machine>,
    /// The unit's configuration (its mode is each run's own).
    pub unit: NbtcConfig,
    /// What the NBTC's buffers cost at `unit`'s sizes.
    pub storage: Storage,
    pub latencies: Vec<u64>,
    pub modes: Vec<Mode>,
    pub frames: Vec<FilterReport>,
    pub sweeps: Vec<Sweep>,
    pub paper: PaperNumbers,
    /// What the reader should know about the input.
    pub warnings: Vec<String>,
    /// Distinct unit configurations replayed, over all frames.
    pub runs: usize,
    pub seconds: f64,
}
