//! `gspc.json`: everything the GSPC study measured, one document. The CSV
//! files, the plots and `index.html` are all drawn from this.

use std::collections::BTreeMap;

use serde::Serialize;

/// The whole study of one trace (one frame or several).
#[derive(Serialize, serde::Deserialize, Clone, Debug)]
pub struct GspcReport {
    /// The trace the study read (or rendered and then read).
    pub trace: String,
    /// Scene and resolution from the trace's header, when it has them.
    pub scene: Option<String>,
    pub resolution: Option<(u32, u32)>,
    /// Block accesses the LLC saw (accesses spanning two blocks count twice).
    pub accesses: u64,
    /// LLC geometry shared by every run but its size.
    pub ways: u32,
    pub block: u32,
    pub banks: u32,
    /// The sizes studied, bytes; the first is the main one.
    pub sizes: Vec<u64>,
    /// Share of LLC accesses per stream (Figure 4), streams with accesses only.
    pub stream_mix: Vec<StreamShare>,
    /// One entry per (policy, size) run.
    pub policies: Vec<PolicyResult>,
    /// Epoch analyses under Belady's OPT at the main size (Figures 7 and 9).
    pub opt_epochs: OptEpochs,
    /// GSPZTC misses for each threshold `t`, relative to `t = 16` (Figure 11).
    pub t_sensitivity: Vec<TPoint>,
    /// Frames in the trace (a trace without frame markers is one frame),
    /// and how many of them, from the first, only warmed the caches up:
    /// every figure but `per_frame` counts the frames after those.
    pub frames: u32,
    pub warmup: u32,
    /// What the reader should know about the input (printed on stderr
    /// too), e.g. a trace without stream tags.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// What the chosen runs learned pass by pass ([`super::timeline`]).
    pub timelines: Vec<super::timeline::Timeline>,
    /// The timing configurations FPS was computed under, by name.
    pub timing_configs: Vec<TimingConfig>,
    /// The described machine the study ran on, every value with its
    /// source (`machine.csv`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machine: Option<gfxcache_machine::Machine>,
    /// Wall-clock seconds each phase took.
    pub seconds: BTreeMap<String, f64>,
}

#[derive(Serialize, serde::Deserialize, Clone, Debug)]
pub struct StreamShare {
    pub stream: String,
    pub accesses: u64,
    pub fraction: f64,
}

/// Hit rates of the three streams the paper follows, and of all accesses.
#[derive(Serialize, serde::Deserialize, Clone, Copy, Debug, Default)]
pub struct HitRates {
    pub tex: f64,
    pub rt: f64,
    pub z: f64,
    pub all: f64,
}

/// One policy at one LLC size.
#[derive(Serialize, serde::Deserialize, Clone, Debug)]
pub struct PolicyResult {
    /// The spec, e.g. `gspc+ucd` or `gspztc:t=4`.
    pub policy: String,
    /// LLC capacity, bytes.
    pub size: u64,
    pub accesses: u64,
    pub misses: u64,
    /// `misses` over the misses of `drrip` at the same size (Figures 12, 14).
    pub misses_vs_drrip: f64,
    /// `misses` split into reads, which fetch the block from memory, and
    /// writes (the render caches write whole lines back, so a write miss
    /// fetches nothing); `read_misses` over DRRIP's read misses.
    pub read_misses: u64,
    pub write_misses: u64,
    pub read_misses_vs_drrip: f64,
    pub hit_rate: HitRates,
    /// Texture hits on render-target lines (RT -> TEX) and all others (Figure 6).
    pub tex_hits_inter: u64,
    pub tex_hits_intra: u64,
    /// Render-target lines consumed by the sampler from the LLC (Figures 6, 13).
    pub rt_consumed_fraction: f64,
    /// Fraction of RT and TEX fills inserted at the largest RRPV (Figure 8);
    /// `None` for policies without RRPVs.
    pub rt_fills_at_max_rrpv: Option<f64>,
    pub tex_fills_at_max_rrpv: Option<f64>,
    /// Dirty lines written back to memory.
    pub writebacks: u64,
    /// Frames per second under the baseline timing configuration.
    pub fps: f64,
    /// `fps` over that of `drrip` (`drrip+ucd` for `+ucd` specs, as the
    /// paper's Section 5.3 compares) at the same size (Figures 15, 16).
    pub fps_vs_drrip: f64,
    /// Frame time and FPS under every timing configuration that ran:
    /// the mean frame time and, over all counted frames, frames per
    /// second, DRAM traffic, bandwidth and read latency.
    pub timing: BTreeMap<String, Timing>,
    /// Each counted frame on its own (timing under the baseline machine).
    pub per_frame: Vec<FrameResult>,
    /// The arithmetic mean of `per_frame`'s columns, as the paper averages
    /// its frames.
    pub mean_per_frame: FrameMean,
    /// The policy's own figures (dueling counters, learned probabilities).
    pub report: BTreeMap<String, f64>,
}

/// One frame of one run: its LLC counts and, under the baseline machine,
/// its time (each frame is timed on its own; the cache stays warm).
#[derive(Serialize, serde::Deserialize, Clone, Debug)]
pub struct FrameResult {
    /// The frame's index in the trace, from 0 (warm-up frames included).
    pub frame: u32,
    pub accesses: u64,
    pub misses: u64,
    pub hit_rate: HitRates,
    pub frame_ms: f64,
    pub fps: f64,
}

/// The mean of a run's [`FrameResult`]s, column by column.
#[derive(Serialize, serde::Deserialize, Clone, Debug, Default)]
pub struct FrameMean {
    pub accesses: f64,
    pub misses: f64,
    pub hit_rate: HitRates,
    pub frame_ms: f64,
    pub fps: f64,
}

impl FrameMean {
    pub fn of(frames: &[FrameResult]) -> FrameMean {
        let n = frames.len().max(1) as f64;
        let mean = |f: &dyn Fn(&FrameResult) -> f64| frames.iter().map(f).sum::<f64>() / n;
        FrameMean {
            accesses: mean(&|f| f.accesses as f64),
            misses: mean(&|f| f.misses as f64),
            hit_rate: HitRates {
                tex: mean(&|f| f.hit_rate.tex),
                rt: mean(&|f| f.hit_rate.rt),
                z: mean(&|f| f.hit_rate.z),
                all: mean(&|f| f.hit_rate.all),
            },
            frame_ms: mean(&|f| f.frame_ms),
            fps: mean(&|f| f.fps),
        }
    }
}

#[derive(Serialize, serde::Deserialize, Clone, Debug)]
pub struct Timing {
    pub frame_ms: f64,
    pub fps: f64,
    pub fps_vs_drrip: f64,
    pub dram_reads: u64,
    pub dram_writes: u64,
    pub dram_bandwidth_gbps: f64,
    pub mean_read_latency_ns: f64,
}

#[derive(Serialize, serde::Deserialize, Clone, Debug)]
pub struct TimingConfig {
    pub name: String,
    pub about: String,
}

/// Epoch analyses of one stream's lines.
#[derive(Serialize, serde::Deserialize, Clone, Debug, Default)]
pub struct Epochs {
    /// Hits by the epoch the line was in: E0, E1, E2, E>=3.
    pub hits_by_epoch: [u64; 4],
    /// Share of those hits per epoch.
    pub hit_share_by_epoch: [f64; 4],
    /// Lines that entered each epoch (|E_k|).
    pub entries: [u64; 4],
    /// Lines still in each epoch at the end of the frame.
    pub resident: [u64; 4],
    /// Death ratios of E0, E1, E2: (|E_k| - |E_k+1|) / |E_k|.
    pub death_ratios: [f64; 3],
}

#[derive(Serialize, serde::Deserialize, Clone, Debug, Default)]
pub struct OptEpochs {
    pub tex: Epochs,
    pub z: Epochs,
    /// Share of OPT's texture hits that are inter-stream (RT -> TEX).
    pub tex_inter_share: f64,
}

#[derive(Serialize, serde::Deserialize, Clone, Debug)]
pub struct TPoint {
    pub t: u32,
    pub misses: u64,
    /// Percent change in misses relative to `t = 16`.
    pub change_vs_t16: f64,
}
