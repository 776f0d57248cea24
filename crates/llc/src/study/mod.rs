//! The GSPC paper's LLC study (Gaur et al. MICRO'13, Sections 2 and 5) on
//! one trace: every policy of the paper at two LLC sizes, the reuse
//! analyses of its Section 2, and frame rates on the three machines of its
//! Figures 15-17.
//!
//! [`run`] takes the trace and a [`GspcConfig`] and returns a
//! [`GspcReport`], reporting progress through a callback; it writes no
//! file and draws nothing (the command line writes `gspc.json`, the CSV
//! files, the figures and the page from the report). Every run (a policy
//! at an LLC size) is a cache built observed ([`gfxcache_cache::observe`])
//! with one frame timer per machine behind it; the trace is read once for
//! the next uses OPT needs and once more for the runs, each batch fed to
//! every run in parallel.
//!
//! - [`runs`]: which runs the study makes (the policy lists of the paper's
//!   figures).
//! - [`machine`]: the machines the frame time is computed on.
//! - [`report`]: the result, one serde document.
//! - [`paper`]: the paper's published averages, shown beside ours.
//! - [`timeline`]: what chosen runs learned pass by pass (GSPC's PROD and
//!   CONS, the RRPVs of render-target fills), sampled along the frame.
//! - [`mean`]: the mean of the reports of a suite's scenes
//!   ([`gfxcache_cache::suite::SuiteMean`]), as the paper averages its
//!   applications.

mod assemble;
pub mod figures;
pub mod machine;
pub mod mean;
pub mod page;
pub mod paper;
pub mod readings;
pub mod report;
pub mod runs;
pub mod tables;
mod timed;
pub mod timeline;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use gfxcache_cache::run::{self, RunError, Threads};
use gfxcache_cache::{CacheError, Env, Geometry, PolicySpec, Progress, ProgressFn, Ways};
use gfxcache_mem::{FrameTimer, LlcTiming, MemError};
use gfxcache_trace::TraceError;

pub use machine::{baseline, machines, Machine};
pub use mean::GspcMean;
pub use report::GspcReport;
pub use timeline::TimelineConfig;

use runs::{main_specs, other_specs};
use timed::Run;

/// What the study runs on.
#[derive(Clone, Debug)]
pub struct GspcConfig {
    /// LLC capacities in bytes; the first is the main one (every run), the
    /// others get the Table 6 policies and OPT only (Figure 16).
    pub sizes: Vec<u64>,
    pub ways: u32,
    pub block: u32,
    pub banks: u32,
    pub machines: Vec<Machine>,
    /// The described machine the study runs on, every value with its
    /// source, for the report (`machine.csv`, the page's section); the
    /// timing `machines` are made from it ([`machine::baseline`]).
    pub description: Option<gfxcache_machine::Machine>,
    /// Frames of the trace that only warm the caches up: statistics count
    /// from frame `warmup` on (the caches stay warm from frame to frame;
    /// each frame is timed on its own).
    pub warmup: u32,
    /// The runs at the main size that keep a timeline.
    pub timeline: TimelineConfig,
    pub threads: Threads,
}

/// Why the study could not run. Each variant says what was being done;
/// its cause is its [`std::error::Error::source`], not repeated in its text.
#[derive(Debug, thiserror::Error)]
pub enum StudyError {
    #[error("{0}")]
    Config(String),
    #[error("an LLC of {size}")]
    Geometry {
        size: String,
        #[source]
        source: CacheError,
    },
    #[error(transparent)]
    Policy(#[from] CacheError),
    #[error("timing machine {machine}")]
    Machine {
        machine: &'static str,
        #[source]
        source: MemError,
    },
    #[error("cannot read trace {}", path.display())]
    Open {
        path: PathBuf,
        #[source]
        source: TraceError,
    },
    #[error("cannot compute next uses of {}", path.display())]
    NextUse {
        path: PathBuf,
        #[source]
        source: RunError,
    },
    #[error("cannot simulate {}", path.display())]
    Simulate {
        path: PathBuf,
        #[source]
        source: TraceError,
    },
}

impl GspcConfig {
    /// The LLC of `size` bytes in the study's shape.
    pub fn geometry(&self, size: u64) -> Result<Geometry, CacheError> {
        Geometry::from_size(size, Ways::N(self.ways), self.block)?.with_banks(self.banks)
    }

    /// Errors naming what is wrong, before anything runs: every size must
    /// make a cache of the study's shape, and no size may repeat.
    pub fn check(&self) -> Result<(), StudyError> {
        if self.sizes.is_empty() {
            return Err(StudyError::Config("no LLC size to study".into()));
        }
        for (i, &size) in self.sizes.iter().enumerate() {
            self.geometry(size).map_err(|source| StudyError::Geometry {
                size: gfxcache_cache::format_size(size),
                source,
            })?;
            if self.sizes[..i].contains(&size) {
                return Err(StudyError::Config(format!(
                    "the LLC size {} is studied twice",
                    gfxcache_cache::format_size(size)
                )));
            }
        }
        let main = main_specs();
        for p in &self.timeline.policies {
            if !main.contains(p) {
                return Err(StudyError::Config(format!(
                    "timeline of {p}: not a run of the study (one of {})",
                    main.join(", ")
                )));
            }
        }
        if self.timeline.step == 0 {
            return Err(StudyError::Config(
                "a timeline step of 0 accesses: expected at least 1".into(),
            ));
        }
        for (i, &size) in self.sizes.iter().enumerate() {
            self.timers(i, size)?;
        }
        Ok(())
    }

    /// The frame timers of the runs at `sizes[i]` (`size` bytes): one per
    /// machine timed there (every machine at the main size).
    fn timers(&self, i: usize, size: u64) -> Result<Vec<(&'static str, FrameTimer)>, StudyError> {
        self.machines
            .iter()
            .filter(|m| i == 0 || m.every_size)
            .map(|m| {
                // The timed LLC is the simulated one: its banks and size.
                let llc = LlcTiming {
                    banks: self.banks,
                    bank_bytes: size / u64::from(self.banks.max(1)),
                    ..m.llc.clone()
                };
                FrameTimer::new(&m.gpu, &llc, &m.dram)
                    .map(|t| (m.name, t))
                    .map_err(|source| StudyError::Machine {
                        machine: m.name,
                        source,
                    })
            })
            .collect()
    }
}

fn open(trace: &Path) -> Result<Box<dyn gfxcache_trace::TraceRead>, StudyError> {
    gfxcache_trace::open(trace).map_err(|source| StudyError::Open {
        path: trace.to_path_buf(),
        source,
    })
}

/// Runs the whole study over `trace`, reporting progress to `progress`.
pub fn run(
    trace: &Path,
    config: &GspcConfig,
    progress: ProgressFn<'_>,
) -> Result<GspcReport, StudyError> {
    config.check()?;
    let announced = open(trace)?.meta().frames;
    if let Some(frames) = announced.filter(|&n| n <= config.warmup) {
        return Err(no_frame_left(config.warmup, frames as usize));
    }
    let mut seconds = BTreeMap::new();
    let start = Instant::now();
    let env = Env {
        next_use: Some(Arc::new(next_use(trace, config, progress)?)),
    };
    seconds.insert("next_use".to_string(), start.elapsed().as_secs_f64());

    let mut runs = plan(config, &env)?;
    let start = Instant::now();
    let mut reader = open(trace)?;
    let meta = reader.meta().clone();
    run::feed(
        reader.as_mut(),
        &mut runs,
        config.threads,
        |r, batch| {
            r.batch(batch);
            Ok::<(), TraceError>(())
        },
        |d, t| progress(Progress::bytes("simulating", d, t)),
    )
    .map_err(|source| StudyError::Simulate {
        path: trace.to_path_buf(),
        source,
    })?;
    runs.iter_mut().for_each(Run::finish);
    seconds.insert("simulate".to_string(), start.elapsed().as_secs_f64());

    let frames = runs.first().map_or(0, |r| r.frames.len());
    if frames <= config.warmup as usize {
        return Err(no_frame_left(config.warmup, frames));
    }
    Ok(assemble::report(trace, &meta, config, runs, seconds))
}

fn no_frame_left(warmup: u32, frames: usize) -> StudyError {
    StudyError::Config(format!(
        "a warm-up of {warmup} frame(s) leaves no frame to count: the trace has {frames}"
    ))
}

/// The next-use indices of `trace`, for OPT.
fn next_use(
    trace: &Path,
    config: &GspcConfig,
    progress: ProgressFn<'_>,
) -> Result<gfxcache_cache::NextUse, StudyError> {
    let mut reader = open(trace)?;
    run::next_use(reader.as_mut(), config.block, config.threads, |d, t| {
        progress(Progress::bytes("next uses", d, t))
    })
    .map_err(|source| StudyError::NextUse {
        path: trace.to_path_buf(),
        source,
    })
}

/// Every run of the study, built and with its timers, before the trace.
fn plan(config: &GspcConfig, env: &Env) -> Result<Vec<Run>, StudyError> {
    let mut runs = Vec::new();
    for (i, &size) in config.sizes.iter().enumerate() {
        let geom = config.geometry(size)?;
        let specs = if i == 0 { main_specs() } else { other_specs() };
        for s in &specs {
            let spec: PolicySpec = s.parse()?;
            let cache = crate::build_observed(&spec, &geom, env)?;
            let timers = config.timers(i, size)?;
            let run = Run::new(spec, size, cache, timers);
            runs.push(if i == 0 && config.timeline.policies.contains(s) {
                run.with_timeline(config.timeline.step)
            } else {
                run
            });
        }
    }
    Ok(runs)
}
