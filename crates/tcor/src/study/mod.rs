//! The TCOR paper's study (Joseph, Aragón, Parcerisa and González) on a
//! tile-based frame's trace and its binned render passes: the Attribute
//! Cache miss-ratio curves with the lower bound (Section V-A), and the
//! baseline Tiling Engine, TCOR without and with its L2 enhancements
//! through the shared L2 to main memory, with energy and Tile Fetcher
//! throughput (Section V-B).
//!
//! [`run`] takes the trace, the binned passes and a [`TcorConfig`] and
//! returns a [`TcorReport`], reporting progress through a callback; it
//! writes no file and draws nothing (the command line writes `tcor.json`,
//! the CSV files, the figures and the page from the report). The six runs
//! through the L2 ([`engines`]) go first, the trace decoded once and every
//! batch fed to every run in parallel, because they also check that the
//! trace and the binned passes are of the same frame; then the curves
//! ([`curves`]), their points in parallel.
//!
//! - [`report`]: the result, one serde document; [`paper`]: the paper's
//!   published figures, shown beside ours.
//! - [`mean`]: the mean of the reports of a suite's scenes
//!   ([`gfxcache_cache::suite::SuiteMean`]), as the paper averages its
//!   games.
//! - [`tables`] and [`page`]: the report as data
//!   ([`gfxcache_report::Report`]): its tidy tables, whose columns say how
//!   a suite averages them, and its page (a scene's and a suite's), each
//!   table of the page a view of those tables.

mod curves;
mod engines;
pub mod fetcher;
pub mod figures;
pub mod mean;
pub mod page;
pub mod paper;
mod reduce;
pub mod report;
pub mod tables;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use gfxcache_cache::run::{self, Threads};
use gfxcache_cache::stats::ratio;
use gfxcache_cache::{format_size, Progress, ProgressFn, Ways};
use gfxcache_mem::EnergyModel;
use gfxcache_trace::{TraceError, TraceMeta};
use rayon::prelude::*;

use crate::binned_file::BinnedFileError;
use crate::bound::frame_lower_bound;
use crate::{
    characteristics, AttributeCacheConfig, Binning, ConfigError, FetcherStats, FetcherTiming,
    FrameL2, FrameL2Stats, FrameMismatch, L2Config, L2Policy, ListOverflow, PassTraffic, PbLayout,
    TileBuffers,
};

pub use curves::curve_set;
pub use fetcher::FetcherSweep;
pub use mean::TcorMean;
pub use reduce::by_size;
pub use report::TcorReport;

use engines::{energy, plans, Plan};
use report::*;

/// What the study runs with.
#[derive(Clone, Debug)]
pub struct TcorConfig {
    /// Capacity and ways of the shared L2 (its policy depends on the run).
    pub l2_bytes: u64,
    pub l2_ways: u32,
    pub tile_buffers: TileBuffers,
    pub timing: FetcherTiming,
    /// Other timings of the Tile Fetcher, measured on the same L2 reads.
    pub fetcher_sweep: FetcherSweep,
    /// Attribute Cache sizes of the miss-ratio curves, increasing.
    pub sizes: Vec<u64>,
    /// How close to the lower bound counts as reaching it.
    pub tolerance: f64,
    pub energy: EnergyModel,
    /// Primitives TCOR's Tile Fetcher output queue holds (see
    /// [`crate::TcorConfig::queue_depth`]): in the runs through the L2 and
    /// in the miss-ratio curves.
    pub queue_depth: usize,
    /// Frames of the trace that only warm the L2 up: statistics count from
    /// frame `warmup` on (the L2 stays warm from frame to frame).
    pub warmup: u32,
    pub threads: Threads,
    /// The machine the configuration is on, every value with its source
    /// (for the report).
    pub machine: Option<gfxcache_machine::Machine>,
}

/// The deepest output queue the study takes, far past any hardware FIFO
/// (a mistyped depth is an error rather than a huge allocation).
pub const MAX_QUEUE_DEPTH: usize = 1 << 20;

/// Why the study could not run. Each variant says what was being done;
/// its cause is its [`std::error::Error::source`], not repeated in its text.
#[derive(Debug, thiserror::Error)]
pub enum StudyError {
    /// A setting the study cannot run with: `field` names the
    /// [`TcorConfig`] field.
    #[error("{field}: {what}")]
    Config { field: &'static str, what: String },
    #[error("cannot read {}", path.display())]
    ReadBinned {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}", path.display())]
    ParseBinned {
        path: PathBuf,
        #[source]
        source: BinnedFileError,
    },
    #[error("replaying the Parameter Buffer")]
    Replay(#[source] ConfigError),
    #[error("the L2")]
    L2(#[source] ConfigError),
    #[error("Attribute Cache sweep")]
    Sweep(#[source] ConfigError),
    #[error("cannot read trace {}", path.display())]
    Open {
        path: PathBuf,
        #[source]
        source: TraceError,
    },
    #[error("{} against {passes} binned passes", path.display())]
    Read {
        path: PathBuf,
        passes: usize,
        #[source]
        source: TraceError,
    },
    #[error("{} against {passes} binned passes", path.display())]
    Mismatch {
        path: PathBuf,
        passes: usize,
        #[source]
        source: FrameMismatch,
    },
}

impl TcorConfig {
    /// Errors naming what is wrong, before anything runs.
    pub fn check(&self) -> Result<(), StudyError> {
        let bad = |field, what| Err(StudyError::Config { field, what });
        if let Err(e) = self.energy.check() {
            return bad("energy", format!("energy model: {e}"));
        }
        if !(self.tolerance >= 0.0 && self.tolerance.is_finite()) {
            return bad(
                "tolerance",
                format!("{}: expected a fraction >= 0", self.tolerance),
            );
        }
        if self.queue_depth > MAX_QUEUE_DEPTH {
            return bad(
                "queue_depth",
                format!(
                    "{}: expected at most {MAX_QUEUE_DEPTH} primitives",
                    self.queue_depth
                ),
            );
        }
        let points = self.fetcher_sweep.points(&self.timing);
        for t in std::iter::once(&self.timing).chain(&points) {
            if let Err((field, what)) = t.check() {
                let sweep = t != &self.timing;
                let field = match (sweep, field) {
                    (true, "mshrs") => "fetcher_sweep.mshrs",
                    (true, "memory_cycles") => "fetcher_sweep.memory_cycles",
                    (false, "memory_cycles") => "timing.memory_cycles",
                    (_, "l2_cycles") => "timing.l2_cycles",
                    (_, "mshrs") => "timing.mshrs",
                    (_, "targets_per_mshr") => "timing.targets_per_mshr",
                    (_, "fifo_entries") => "timing.fifo_entries",
                    _ => "timing",
                };
                return bad(field, what);
            }
        }
        for &s in &self.sizes {
            if let Err(e) = crate::config_of_size(s, Ways::Full, Default::default()) {
                return bad("sizes", format!("{}: {e}", format_size(s)));
            }
        }
        if let Err(e) = crate::L2Cache::new(self.l2(L2Policy::default())) {
            let (size, ways) = (format_size(self.l2_bytes), self.l2_ways);
            return bad("l2", format!("{size} {ways}-way: {e}"));
        }
        Ok(())
    }

    fn l2(&self, policy: L2Policy) -> L2Config {
        L2Config {
            bytes: self.l2_bytes,
            ways: self.l2_ways,
            policy,
        }
    }
}

/// Runs the whole study over `trace` and its binned passes `binned`.
/// `other_l1` are the L1s outside the Tiling Engine whose accesses count
/// in every run's energy (known when the frame was rendered; may be empty).
pub fn run(
    trace: &Path,
    binned: &Path,
    config: &TcorConfig,
    other_l1: &[OtherL1],
    progress: ProgressFn<'_>,
) -> Result<TcorReport, StudyError> {
    config.check()?;
    let mut seconds = BTreeMap::new();
    let start = Instant::now();
    let (mut passes, binnings) = read_binned(binned)?;
    seconds.insert("read_binned".to_string(), start.elapsed().as_secs_f64());
    let largest = curves::largest_useful(&binnings);
    if let Some(&size) = config.sizes.iter().find(|&&s| s > largest) {
        return Err(StudyError::Config {
            field: "sizes",
            what: format!(
                "{} is more than this frame can use: every render pass fits whole in {}, \
                 and the sweep goes at most to twice that, {}",
                format_size(size),
                format_size(curves::whole_frame_bytes(&binnings).next_multiple_of(1024)),
                format_size(largest)
            ),
        });
    }

    // The L2 runs first: they also check that the trace and the binned
    // passes are of the same frame, before the long curves.
    let start = Instant::now();
    let (engines, plans) = plans(config.queue_depth);
    let traffic: Vec<Vec<PassTraffic>> = engines
        .par_iter()
        .map(|e| binnings.iter().map(|b| PassTraffic::new(b, e)).collect())
        .collect::<Result<_, _>>()
        .map_err(StudyError::Replay)?;
    let sweep = config.fetcher_sweep.points(&config.timing);
    let (meta, stats) = simulate(trace, &traffic, &plans, config, &sweep, progress)?;
    seconds.insert("l2".to_string(), start.elapsed().as_secs_f64());

    let frames = stats.first().map_or(0, |s| s.stats.len());
    let warmup = config.warmup as usize;
    if frames <= warmup {
        return Err(StudyError::Config {
            field: "warmup",
            what: format!(
                "{warmup} frame(s) of warm-up leave no frame to count: the trace has {frames}"
            ),
        });
    }
    // The render passes of the counted frames.
    let counted: Vec<bool> = passes.iter().map(|p| p.frame as usize >= warmup).collect();
    let binnings: Vec<Binning> = binnings
        .into_iter()
        .zip(&counted)
        .filter_map(|(b, &c)| c.then_some(b))
        .collect();

    let start = Instant::now();
    let curves = curves::curves(&binnings, config, progress)?;
    seconds.insert(
        "attribute_cache_curves".to_string(),
        start.elapsed().as_secs_f64(),
    );

    let runs: Vec<EngineRun> = plans
        .iter()
        .zip(&stats)
        .map(|(p, ends)| engine_run(config, p, ends, other_l1))
        .collect();
    let first = runs.first().map(|r| r.stats).unwrap_or_default();
    let fetcher_sensitivity = fetcher::sensitivity(&sweep, &runs);
    let all_passes = std::mem::take(&mut passes);
    let (counted_passes, _): (Vec<_>, Vec<_>) = all_passes
        .into_iter()
        .partition(|p| p.frame as usize >= warmup);
    let mut report = TcorReport {
        machine: config.machine.clone(),
        trace: trace.display().to_string(),
        binned: binned.display().to_string(),
        scene: meta.scene.clone(),
        resolution: meta.resolution.map(|[w, h]| (w, h)),
        binning: report::binning_of(&meta),
        render_passes: first.render_passes,
        tiles: first.tiles,
        frame: frame_characteristics(&counted_passes),
        passes: counted_passes,
        l2: L2Setup {
            bytes: config.l2_bytes,
            ways: config.l2_ways,
            tile_buffers: config.tile_buffers,
            fetcher: config.timing,
            fetcher_sweep: sweep,
            queue_depth: config.queue_depth,
        },
        reach: curves::reach(&curves, config.tolerance),
        curves,
        lower_bound: lower_bounds(&binnings),
        pb_l2_accesses: by_size(&runs, |s| s.stats.pb_l2_accesses()),
        pb_dram_accesses: by_size(&runs, |s| s.stats.pb_memory_accesses()),
        dram_accesses: by_size(&runs, |s| s.stats.memory_accesses()),
        energy_nj: by_size(&runs, |s| s.energy.total_nj),
        primitives_per_cycle: by_size(&runs, |s| s.stats.fetcher.primitives_per_cycle),
        fetcher_sensitivity,
        reductions: BTreeMap::new(),
        paper: paper::reductions(),
        energy_model: config.energy,
        other_l1: other_l1
            .iter()
            .map(|c| L1Count {
                name: c.name.clone(),
                bytes: c.bytes,
                accesses: c.accesses(warmup..frames),
            })
            .collect(),
        runs,
        frames: frames as u32,
        warmup: config.warmup,
        warnings: Vec::new(),
        seconds,
    };
    report.reductions = reduce::reductions(&report);
    Ok(report)
}

/// One engine's run over the counted frames: `ends` are its statistics
/// at the end of each frame of the trace (more than `warmup` of them).
fn engine_run(config: &TcorConfig, p: &Plan, ends: &RunEnds, other_l1: &[OtherL1]) -> EngineRun {
    let (sweep_ends, ends) = (&ends.sweep, &ends.stats[..]);
    let warmup = config.warmup as usize;
    let zero = FrameL2Stats::default();
    let base = warmup.checked_sub(1).map_or(&zero, |i| &ends[i]);
    let stats = ends.last().unwrap_or(&zero).since(base);
    let fetcher_sweep = match (sweep_ends.last(), warmup.checked_sub(1)) {
        (None, _) => Vec::new(),
        (Some(last), None) => last.clone(),
        (Some(last), Some(i)) => last
            .iter()
            .zip(&sweep_ends[i])
            .map(|(l, b)| l.since(b))
            .collect(),
    };
    let mut prev = base;
    let per_frame: Vec<EngineFrame> = ends
        .iter()
        .enumerate()
        .skip(warmup)
        .map(|(k, end)| {
            let s = end.since(prev);
            prev = end;
            EngineFrame {
                frame: k as u32,
                pb_l2_accesses: s.pb_l2_accesses(),
                pb_dram_accesses: s.pb_memory_accesses(),
                dram_accesses: s.memory_accesses(),
                energy_nj: energy(config, p, &s, other_l1, k..k + 1).total_nj,
                primitives_per_cycle: s.fetcher.primitives_per_cycle,
            }
        })
        .collect();
    EngineRun {
        engine: p.engine.to_string(),
        tile_cache: format_size(p.tile_cache),
        about: p.about.clone(),
        l2_policy: match p.l2_policy {
            L2Policy::Lru => "lru",
            L2Policy::DeadAware => "dead-aware",
        }
        .to_string(),
        energy: energy(config, p, &stats, other_l1, warmup..ends.len()),
        stats,
        fetcher_sweep,
        mean_per_frame: EngineFrameMean::of(&per_frame),
        per_frame,
    }
}

/// LB of the two TCOR Attribute Caches, keyed by Tile Cache size.
fn lower_bounds(binnings: &[Binning]) -> BTreeMap<String, u64> {
    let mut lower_bound = BTreeMap::new();
    for (label, c) in [
        ("64KiB", AttributeCacheConfig::tcor_48k()),
        ("128KiB", AttributeCacheConfig::tcor_112k()),
    ] {
        let lb = binnings.iter().map(|b| frame_lower_bound(b, &c)).sum();
        lower_bound.insert(label.to_string(), lb);
    }
    lower_bound
}

/// The render passes of `path`, binned, with their Table II rows.
fn read_binned(path: &Path) -> Result<(Vec<PassCharacteristics>, Vec<Binning>), StudyError> {
    let bytes = std::fs::read(path).map_err(|source| StudyError::ReadBinned {
        path: path.to_path_buf(),
        source,
    })?;
    let passes = crate::binned_file::parse(&bytes).map_err(|source| StudyError::ParseBinned {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(passes
        .into_iter()
        .map(|p| {
            let row = PassCharacteristics {
                frame: p.frame_number,
                pass: p.pass,
                characteristics: characteristics(&p.binning),
                baseline_overflow: ListOverflow::new(&PbLayout::baseline(), &p.binning)
                    .map(|o| o.usage())
                    .unwrap_or_default(),
            };
            (row, p.binning)
        })
        .unzip())
}

fn frame_characteristics(passes: &[PassCharacteristics]) -> FrameCharacteristics {
    let mut f = FrameCharacteristics::default();
    for p in passes {
        let c = &p.characteristics;
        f.primitives += c.primitives;
        f.attributes += c.attributes;
        f.tile_uses += c.tile_uses;
        f.footprint_bytes += c.footprint_bytes;
        f.largest_pass_footprint_bytes = f.largest_pass_footprint_bytes.max(c.footprint_bytes);
    }
    f.average_reuse = ratio(f.tile_uses, f.primitives);
    f
}

/// A run's statistics at the end of every frame of the trace, and its Tile
/// Fetcher by each timing of the sweep.
struct RunEnds {
    stats: Vec<FrameL2Stats>,
    sweep: Vec<Vec<FetcherStats>>,
}

/// Feeds the trace to the six runs, their Tile Fetchers also timed by
/// `sweep`.
fn simulate(
    trace: &Path,
    traffic: &[Vec<PassTraffic>],
    plans: &[Plan],
    config: &TcorConfig,
    sweep: &[FetcherTiming],
    progress: ProgressFn<'_>,
) -> Result<(TraceMeta, Vec<RunEnds>), StudyError> {
    let mut l2s = plans
        .iter()
        .map(|p| {
            FrameL2::new(
                &traffic[p.traffic],
                config.l2(p.l2_policy),
                config.tile_buffers,
                config.timing,
            )
            .map(|l2| l2.with_fetcher_sweep(sweep))
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(StudyError::L2)?;
    let mut reader = gfxcache_trace::open(trace).map_err(|source| StudyError::Open {
        path: trace.to_path_buf(),
        source,
    })?;
    let meta = reader.meta().clone();
    let (path, passes) = (trace.to_path_buf(), traffic[0].len());
    let fed = run::feed(
        reader.as_mut(),
        &mut l2s,
        config.threads,
        |l2, batch| l2.batch(batch).map_err(Feed::Mismatch),
        |d, t| progress(Progress::bytes("L2", d, t)),
    );
    let stats = fed.and_then(|_| {
        l2s.into_iter()
            .map(|l2| {
                let mut ends = l2.frame_ends().to_vec();
                let mut sweep = l2.sweep_ends().to_vec();
                let sweep_now = l2.sweep_now().to_vec();
                let total = l2.finish()?;
                // Records after the last frame end (or a trace without
                // frame markers) make one more frame.
                if ends.last() != Some(&total) {
                    ends.push(total);
                    sweep.push(sweep_now);
                }
                Ok(RunEnds { stats: ends, sweep })
            })
            .collect::<Result<Vec<_>, _>>()
            .map_err(Feed::Mismatch)
    });
    match stats {
        Ok(stats) => Ok((meta, stats)),
        Err(Feed::Trace(source)) => Err(StudyError::Read {
            path,
            passes,
            source,
        }),
        Err(Feed::Mismatch(source)) => Err(StudyError::Mismatch {
            path,
            passes,
            source,
        }),
    }
}

/// What can stop the trace's pass through the L2s.
enum Feed {
    Trace(TraceError),
    Mismatch(FrameMismatch),
}

impl From<TraceError> for Feed {
    fn from(e: TraceError) -> Feed {
        Feed::Trace(e)
    }
}

impl From<FrameMismatch> for Feed {
    fn from(e: FrameMismatch) -> Feed {
        Feed::Mismatch(e)
    }
}
