//! The NBTC study (issue 21): per filter mode (a frame rendered with
//! every material sampler in that mode), per memory latency, the cycles
//! of every texture cache design against the blocking cache, with the
//! stall breakdown, miss rates and memory traffic; sweeps of the buffer
//! sizes, the block size and each timing value that is ours; the slides'
//! numbers beside. Config in ([`NbtcStudyConfig`]), [`NbtcReport`] out,
//! progress by callback; the frames are `.gtq` files the caller renders.

pub mod figures;
pub mod mean;
pub mod page;
pub mod paper;
pub mod report;
pub mod tables;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use gfxcache_cache::progress::{Progress, ProgressFn};
use gfxcache_cache::run::Threads;
use gfxcache_trace::texreq::{TexReqReader, TexReqRecord};
use gfxcache_trace::TraceError;
use serde::{Deserialize, Serialize};

use gfxcache_machine::{Machine, RequestUnit};

use crate::config::{Mode, NbtcConfig};
use crate::error::NbtcError;
use crate::event::UnitEvent;
use crate::replay::{Replay, RunResult};
use crate::storage::Storage;
pub use mean::NbtcMean;
pub use report::{change, FilterReport, NbtcReport, RunRow, Sweep, SweepPoint};

/// Records read and fed to the units at a time.
pub const CHUNK: usize = 1 << 16;

/// One frame's texture requests, rendered in one filter mode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FilterFrame {
    pub filter: String,
    pub requests: PathBuf,
}

/// The knobs swept, on the frame of filter `filter` at latency `latency`
/// (an empty list sweeps nothing).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Sweeps {
    /// Bilinear by default: the filter mobile games use most (ours).
    pub filter: String,
    /// 300 cycles by default: the slides' longest latency, where the
    /// buffers matter most.
    pub latency: u64,
    pub wlb_entries: Vec<u32>,
    pub bab_entries: Vec<u32>,
    /// 1: the BAB keeps a sent block until its fill (ours), 0: it forgets
    /// it once sent.
    pub bab_merges_sent: Vec<u32>,
    pub rb_entries: Vec<u32>,
    pub block_bytes: Vec<u32>,
    pub hit_latency: Vec<u64>,
    pub filter_latency: Vec<u64>,
    /// The pixel processors' issue rates, percent of the unit's
    /// ([`gfxcache_machine::IssueModel::scaled`]); 0: shading takes no
    /// time, the texture-bound limit.
    pub issue_rate: Vec<u32>,
    pub fragments_in_flight: Vec<u32>,
    /// 0: each unit its own memory path (the slides'), 1: the units share
    /// one DRAM ([`NbtcConfig::share_memory`]).
    pub shared_memory: Vec<u32>,
}

impl Default for Sweeps {
    fn default() -> Sweeps {
        Sweeps {
            filter: "bilinear".into(),
            latency: 300,
            wlb_entries: vec![1, 2, 4, 8, 16, 32, 64],
            bab_entries: vec![8, 16, 32, 64],
            bab_merges_sent: vec![1, 0],
            rb_entries: vec![4, 8, 16, 32, 64],
            block_bytes: vec![16, 32, 64, 128],
            hit_latency: vec![1, 2, 4],
            filter_latency: vec![1, 4, 8],
            issue_rate: vec![0, 25, 50, 100, 200, 400],
            fragments_in_flight: vec![1, 8, 32, 128],
            shared_memory: vec![0, 1],
        }
    }
}

/// A swept knob: its name, its values, how a value sets it.
type Knob = (&'static str, Vec<u64>, fn(&mut NbtcConfig, u64));

/// Which sweeps change the blocking cache too (the buffers' do not: its
/// runs would repeat the main grid's).
const BOTH_MODES: [&str; 6] = [
    "block_bytes",
    "hit_latency",
    "filter_latency",
    "issue_rate",
    "fragments_in_flight",
    "shared_memory",
];

impl Sweeps {
    pub fn none() -> Sweeps {
        Sweeps {
            wlb_entries: vec![],
            bab_entries: vec![],
            bab_merges_sent: vec![],
            rb_entries: vec![],
            block_bytes: vec![],
            hit_latency: vec![],
            filter_latency: vec![],
            issue_rate: vec![],
            fragments_in_flight: vec![],
            shared_memory: vec![],
            ..Sweeps::default()
        }
    }

    /// Each knob with its values and how a value sets it.
    fn knobs(&self) -> Vec<Knob> {
        let w = |v: &[u32]| v.iter().map(|&x| u64::from(x)).collect::<Vec<u64>>();
        vec![
            ("wlb_entries", w(&self.wlb_entries), |c, v| {
                c.wlb_entries = v as u32
            }),
            ("bab_entries", w(&self.bab_entries), |c, v| {
                c.bab_entries = v as u32
            }),
            ("bab_merges_sent", w(&self.bab_merges_sent), |c, v| {
                c.bab_merges_sent = v != 0
            }),
            ("rb_entries", w(&self.rb_entries), |c, v| {
                c.rb_entries = v as u32
            }),
            ("block_bytes", w(&self.block_bytes), |c, v| {
                c.block_bytes = v as u32
            }),
            ("hit_latency", self.hit_latency.clone(), |c, v| {
                c.hit_latency = v
            }),
            ("filter_latency", self.filter_latency.clone(), |c, v| {
                c.filter_latency = v
            }),
            ("issue_rate", w(&self.issue_rate), |c, v| {
                c.issue = match v {
                    0 => None,
                    _ => c.issue.map(|m| m.scaled(v as f64 / 100.0)),
                }
            }),
            (
                "fragments_in_flight",
                w(&self.fragments_in_flight),
                |c, v| c.fragments_in_flight = v as u32,
            ),
            ("shared_memory", w(&self.shared_memory), |c, v| {
                c.share_memory(v != 0)
            }),
        ]
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NbtcStudyConfig {
    /// The scene or file the frames come from (for the report).
    pub name: String,
    /// The machine the unit is on (its values and their sources, for the
    /// report): the `nbtc` preset by default.
    pub machine: Option<Machine>,
    /// The texture unit (its `mode` and `memory_latency` are each run's):
    /// the machine's ([`NbtcConfig::on_machine`]).
    pub unit: NbtcConfig,
    /// The machine's latencies: the slides' 50, 100, 200 and 300 cycles.
    pub latencies: Vec<u64>,
    /// The designs; the blocking cache with serial fetches is the
    /// baseline and is run whether listed or not.
    pub modes: Vec<Mode>,
    pub sweeps: Sweeps,
    #[serde(skip)]
    pub threads: Threads,
}

impl Default for NbtcStudyConfig {
    fn default() -> NbtcStudyConfig {
        let machine = Machine::preset("nbtc").expect("the nbtc preset");
        NbtcStudyConfig {
            name: String::new(),
            unit: NbtcConfig::default().on_machine(&machine),
            latencies: machine
                .memory
                .latency_cycles
                .value
                .iter()
                .map(|&l| u64::from(l))
                .collect(),
            machine: Some(machine),
            modes: vec![
                Mode::BTC,
                Mode::Blocking { serial: false },
                Mode::Nbtc,
                Mode::mshr(),
                Mode::prefetching(),
            ],
            sweeps: Sweeps::default(),
            threads: Threads::Many,
        }
    }
}

/// What stops a study.
#[derive(Debug, thiserror::Error)]
pub enum StudyError {
    #[error(transparent)]
    Config(#[from] NbtcError),
    #[error("nbtc study: {0}")]
    Invalid(String),
    #[error("reading {path}")]
    Read {
        path: PathBuf,
        #[source]
        source: TraceError,
    },
    #[error("replaying {path}")]
    Replay {
        path: PathBuf,
        #[source]
        source: NbtcError,
    },
}

impl NbtcStudyConfig {
    /// The designs run: the baseline first, then the others listed.
    pub fn modes_run(&self) -> Vec<Mode> {
        let mut modes = vec![Mode::BTC];
        modes.extend(self.modes.iter().copied().filter(|&m| m != Mode::BTC));
        modes
    }

    fn at(&self, mode: Mode, latency: u64) -> NbtcConfig {
        NbtcConfig {
            mode,
            memory_latency: latency,
            ..self.unit
        }
    }

    /// Every configuration of the main grid and of the sweeps is usable.
    pub fn check(&self) -> Result<(), StudyError> {
        if self.latencies.is_empty() {
            return Err(StudyError::Invalid("no latency to run".into()));
        }
        for &l in &self.latencies {
            for m in self.modes_run() {
                self.at(m, l).check()?;
            }
        }
        for (knob, values, set) in self.sweeps.knobs() {
            for v in values {
                for c in self.sweep_configs(set, v) {
                    c.check()
                        .map_err(|e| StudyError::Invalid(format!("sweep of {knob} at {v}: {e}")))?;
                }
            }
        }
        Ok(())
    }

    /// A sweep point's NBTC and blocking configurations.
    fn sweep_configs(&self, set: fn(&mut NbtcConfig, u64), value: u64) -> [NbtcConfig; 2] {
        let mut nbtc = self.at(Mode::Nbtc, self.sweeps.latency);
        set(&mut nbtc, value);
        let mut btc = self.at(Mode::BTC, self.sweeps.latency);
        set(&mut btc, value);
        [nbtc, btc]
    }
}

/// Distinct configurations in first-seen order.
#[derive(Default)]
struct Runs {
    configs: Vec<NbtcConfig>,
    index: HashMap<String, usize>,
}

impl Runs {
    fn add(&mut self, c: NbtcConfig) -> usize {
        let key = serde_json::to_string(&c).expect("a config serializes");
        *self.index.entry(key).or_insert_with(|| {
            self.configs.push(c);
            self.configs.len() - 1
        })
    }
}

/// The pixel processors a frame's requests name (the highest + 1): units
/// that share a memory must all be there from the first cycle. (A
/// processor below the highest that shades nothing holds its run at cycle
/// 0 until the frame's end, so that run keeps the frame's input: only
/// frames smaller than a few tiles do that.)
fn processors_in(path: &Path) -> Result<usize, TraceError> {
    let mut reader = TexReqReader::open(path)?;
    let mut processors = 0;
    while let Some(r) = reader.read_record()? {
        if let Some((fp, _)) = UnitEvent::of_record(&r) {
            processors = processors.max(fp + 1);
        }
    }
    Ok(processors)
}

/// A read error of the frame at `path`.
fn read_error(path: &Path) -> impl Fn(TraceError) -> StudyError + Copy + '_ {
    move |source| StudyError::Read {
        path: path.to_path_buf(),
        source,
    }
}

/// A replay error of the frame at `path`.
fn replay_error(path: &Path) -> impl Fn(NbtcError) -> StudyError + Copy + '_ {
    move |source| StudyError::Replay {
        path: path.to_path_buf(),
        source,
    }
}

/// Replays one frame's requests through every configuration, telling
/// `read_so_far` the bytes of the file read after each chunk.
pub fn replay_file(
    path: &Path,
    configs: &[NbtcConfig],
    threads: Threads,
    read_so_far: &(dyn Fn(u64) + Sync),
) -> Result<Vec<RunResult>, StudyError> {
    let (read, replay_error) = (read_error(path), replay_error(path));
    let replay = if Replay::shares_memory(configs) {
        let processors = processors_in(path).map_err(read)?;
        Replay::with_processors(configs, processors)
    } else {
        Replay::new(configs)
    }
    .map_err(replay_error)?;
    feed_file(path, replay, threads, read_so_far)
}

/// Feeds one frame's requests to `replay` (its runs built by the caller,
/// e.g. on GPU machines, [`Replay::on_machines`]) and finishes it,
/// telling `read_so_far` the bytes of the file read after each chunk.
pub fn feed_file(
    path: &Path,
    mut replay: Replay,
    threads: Threads,
    read_so_far: &(dyn Fn(u64) + Sync),
) -> Result<Vec<RunResult>, StudyError> {
    let (read, replay_error) = (read_error(path), replay_error(path));
    let mut reader = TexReqReader::open(path).map_err(read)?;
    // Fills `chunk` with the next records; false once the input ended.
    let next = |reader: &mut TexReqReader, chunk: &mut Vec<TexReqRecord>| {
        chunk.clear();
        while chunk.len() < CHUNK {
            match reader.read_record()? {
                Some(r) => chunk.push(r),
                None => return Ok(false),
            }
        }
        Ok::<bool, TraceError>(true)
    };
    match threads {
        Threads::One => {
            let mut chunk = Vec::with_capacity(CHUNK);
            loop {
                let more = next(&mut reader, &mut chunk).map_err(read)?;
                read_so_far(reader.file_bytes_read());
                replay.feed(&chunk, threads).map_err(replay_error)?;
                if !more {
                    break;
                }
            }
        }
        // The frame is decoded a chunk ahead on a thread of its own; the
        // chunks and their order are the same either way.
        Threads::Many => std::thread::scope(|scope| {
            let (full, filled) = std::sync::mpsc::sync_channel::<Vec<TexReqRecord>>(1);
            let (empty, emptied) = std::sync::mpsc::channel::<Vec<TexReqRecord>>();
            let decoder = scope.spawn(move || {
                let mut chunk = Vec::with_capacity(CHUNK);
                loop {
                    let more = next(&mut reader, &mut chunk)?;
                    read_so_far(reader.file_bytes_read());
                    if full.send(std::mem::take(&mut chunk)).is_err() || !more {
                        return Ok(());
                    }
                    chunk = emptied.recv().unwrap_or_else(|_| Vec::with_capacity(CHUNK));
                }
            });
            for chunk in filled {
                replay.feed(&chunk, threads).map_err(replay_error)?;
                let _ = empty.send(chunk);
            }
            decoder
                .join()
                .expect("the frame decoder does not panic")
                .map_err(read)
        })?,
    }
    replay.finish(threads).map_err(replay_error)
}

/// The phase of [`run`]'s progress: bytes of the frames' request files
/// replayed, over every frame.
pub const REPLAYING: &str = "replaying frames";

/// Runs the study on `frames` (one per filter mode).
pub fn run(
    config: &NbtcStudyConfig,
    frames: &[FilterFrame],
    progress: ProgressFn<'_>,
) -> Result<NbtcReport, StudyError> {
    config.check()?;
    if frames.is_empty() {
        return Err(StudyError::Invalid("no frame to study".into()));
    }
    let start = std::time::Instant::now();
    let modes = config.modes_run();
    let mut report = NbtcReport {
        name: config.name.clone(),
        machine: config.machine.clone(),
        unit: config.unit,
        storage: Storage::of(&config.at(Mode::Nbtc, config.unit.memory_latency)),
        latencies: config.latencies.clone(),
        modes: modes.clone(),
        frames: Vec::new(),
        sweeps: Vec::new(),
        paper: paper::numbers(),
        warnings: Vec::new(),
        runs: 0,
        seconds: 0.0,
    };
    if let Some(m) = config
        .machine
        .as_ref()
        .filter(|m| m.fragment.request_unit.value != RequestUnit::Sample)
    {
        report.warnings.push(format!(
            "machine {}'s texture units take a {}'s requests (fragment.request_unit); this \
             study's units take each pixel's sample, the slides' reading: `gfxcache compose` \
             runs the units on the machine's",
            m.name,
            m.fragment.request_unit.value.name()
        ));
    }
    // Progress in bytes of the frames' request files, replayed one after
    // another: a bar with a pace and a time left.
    let lengths: Vec<u64> = frames
        .iter()
        .map(|f| std::fs::metadata(&f.requests).map_or(0, |m| m.len()))
        .collect();
    let total: u64 = lengths.iter().sum();
    for (i, frame) in frames.iter().enumerate() {
        let before: u64 = lengths[..i].iter().sum();
        let replaying = |read: u64| {
            progress(Progress::bytes(
                REPLAYING,
                (before + read).min(total),
                total,
            ))
        };
        replaying(0);
        let mut runs = Runs::default();
        let grid: Vec<(Mode, u64, usize)> = config
            .latencies
            .iter()
            .flat_map(|&l| modes.iter().map(move |&m| (m, l)))
            .map(|(m, l)| (m, l, runs.add(config.at(m, l))))
            .collect();
        let sweep_here = frame.filter == config.sweeps.filter;
        let mut sweeps = Vec::new();
        if sweep_here {
            for (knob, values, set) in config.sweeps.knobs() {
                let points: Vec<(u64, usize, usize)> = values
                    .iter()
                    .map(|&v| {
                        let [nbtc, btc] = config.sweep_configs(set, v);
                        let btc = if BOTH_MODES.contains(&knob) {
                            btc
                        } else {
                            config.at(Mode::BTC, config.sweeps.latency)
                        };
                        (v, runs.add(nbtc), runs.add(btc))
                    })
                    .collect();
                if !points.is_empty() {
                    sweeps.push((knob, points));
                }
            }
        }
        let results = replay_file(&frame.requests, &runs.configs, config.threads, &replaying)?;
        report.runs += runs.configs.len();
        if results[0].total.requests == 0 {
            report.warnings.push(format!(
                "the {} frame ({}) has no texture request: every design takes the same cycles",
                frame.filter,
                frame.requests.display()
            ));
        }
        let btc_at = |l: u64| {
            &results[grid
                .iter()
                .find(|g| g.0 == Mode::BTC && g.1 == l)
                .unwrap()
                .2]
        };
        let first = &results[0].total;
        report.frames.push(FilterReport {
            filter: frame.filter.clone(),
            pixel_processors: results[0].units.len(),
            requests: first.requests,
            texel_lookups: first.texel_lookups,
            runs: grid
                .iter()
                .map(|&(_, l, i)| RunRow::of(&results[i], btc_at(l)))
                .collect(),
        });
        for (knob, points) in sweeps {
            report.sweeps.push(Sweep {
                knob: knob.to_string(),
                filter: frame.filter.clone(),
                latency: config.sweeps.latency,
                points: points
                    .into_iter()
                    .map(|(value, n, b)| SweepPoint {
                        value,
                        storage_bytes: Storage::of(&results[n].config).bytes,
                        nbtc: RunRow::of(&results[n], &results[b]),
                        btc: RunRow::of(&results[b], &results[b]),
                    })
                    .collect(),
            });
        }
    }
    progress(Progress::bytes(REPLAYING, total, total));
    report.seconds = start.elapsed().as_secs_f64();
    Ok(report)
}
