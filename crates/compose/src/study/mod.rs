//! The composed study: on one frame's texture requests (a `.gtq` file,
//! rendered with a request per pixel sample, up to 8 texels), every miss
//! handling of the texture units under every placement of their texture
//! caches, on one GPU machine. Each run is one (miss handling, placement)
//! pair; the first pair is the baseline every speedup is measured
//! against (by default the blocking cache on private caches, the
//! machine both papers start from).
//!
//! What is composed, and our readings where the papers meet (each is a
//! setting or stated in `docs/src/compose.md`):
//!
//! - The texture units are the NBTC's (`gfxcache-nbtc`): their buffers,
//!   hit time H, filter time F, fragments in flight and issue model are
//!   [`ComposeConfig::unit`]'s; their own L1 and memory latency are not
//!   used. The L1 of fragment processor p is p's texture cache in the
//!   placement; its size, ways and block are the machine's
//!   ([`ComposeConfig::machine`], DTM-NUCA's configuration).
//! - A texel hit is an access of the placement (once per block a
//!   request): DTM-NUCA's tables count it. A missing block sent is an
//!   access the placement serves from the owner's cache or the L2; the
//!   placement decides where the block goes when it is sent, and the
//!   block is back when the machine's messages (mesh, bus, L2 bank, DRAM
//!   latency) bring it.
//! - The units of a machine run in step, [`ComposeConfig::window`]
//!   cycles at a time ([`gfxcache_nbtc::MACHINE_WINDOW_CYCLES`]).
//! - A request is a pixel's sample, as the NBTC study's units take it,
//!   or, with [`ComposeConfig::request_unit`] `quad`, a quad's texture
//!   instruction: a quad is one fragment of its unit, its request k the
//!   distinct blocks of its pixels' requests k, as DTM-NUCA's replay
//!   takes it ([`gfxcache_nbtc::quad`]).
//! - With the machine's `timing.sync_tiles` (DTM-NUCA's replay's setting,
//!   on by default) a tile's end is a barrier: every unit finishes its
//!   fragments of the tile, and all start the next at the cycle the last
//!   one finished ([`gfxcache_nbtc::MachineReplay`]); the wait is each
//!   unit's tile wait.
//! - With the frame's trace (a tile-based `.gtr`, [`run`]'s `trace`),
//!   its other L2 traffic (vertex fetch, the Parameter Buffer, the tile
//!   buffers) goes to the L2 too, a tile at a time at the tile barriers
//!   (synchronised tiles are needed): the binning pass before a tile
//!   changes the L2's contents only; the tile's accesses up to its last
//!   texture access in the trace (its loads, the Tile Fetcher's reads)
//!   leave the other units' port from the tile's start, and those after
//!   it (the flush) from its end. Whether they take the L2's banks and
//!   DRAM is the machine's `timing.other_traffic`, as in DTM-NUCA's
//!   replay ([`gfxcache_gpu::Machine::tile_begins`]); no unit waits for
//!   them, but a tile waits for its tile buffer.
//!
//! The report is data ([`gfxcache_report::Report`]): the `runs` table (a
//! row per pair, [`tables`]), its figures ([`figures`]), the page
//! ([`page`]) and the mean over a suite's scenes ([`mean`]).

pub mod figures;
pub mod mean;
pub mod page;
pub mod tables;

use std::path::{Path, PathBuf};

use gfxcache_cache::progress::{Progress, ProgressFn};
use gfxcache_cache::run::Threads;
use gfxcache_cache::stats::ratio;
use gfxcache_gpu::MachineReport;
use gfxcache_machine::Machine;
use gfxcache_nbtc::study::{feed_file, StudyError};
use gfxcache_nbtc::{
    MachineReplay, Mode, NbtcConfig, Replay, RequestUnit, UnitStats, MACHINE_WINDOW_CYCLES,
};
use gfxcache_nuca::{InputError, TileTrace};
use gfxcache_nuca::{NucaConfig, NucaError, OrgKind};
use gfxcache_trace::texreq::TexReqReader;
use serde::{Deserialize, Serialize};

use crate::machine::unit_machine;

/// The suite of the frames both composed papers measured.
pub const SUITE: &str = "mobile";

/// Everything the composed study runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ComposeConfig {
    /// The frame's name in the report.
    pub name: String,
    /// The GPU machine: fragment processors, texture caches, Affinity
    /// Table, mesh, bus, L2 and latencies (DTM-NUCA's configuration;
    /// Table I by default).
    pub machine: NucaConfig,
    /// The texture units' knobs (the NBTC's configuration on the
    /// `dtm-nuca` machine preset by default: H 2, F 4, the machine's 384
    /// threads over the pixels of its request unit in flight (96 quads),
    /// Bifrost's issue model, the slides' 32-entry buffers).
    pub unit: NbtcConfig,
    /// The miss handlings run (the first, under the first placement, is
    /// the baseline).
    pub modes: Vec<Mode>,
    /// The placements run.
    pub placements: Vec<OrgKind>,
    /// Cycles a machine's units run one after another before the next.
    pub window: u64,
    /// What a unit takes as one request: a pixel's sample (the NBTC
    /// study's reading) or a quad's texture instruction (DTM-NUCA's
    /// replay's); by default the machine's `fragment.request_unit` (the
    /// dtm-nuca machine's: a quad's).
    pub request_unit: RequestUnit,
    /// The machine's description, every value with its source, for the
    /// report (the values the study runs with are `machine`'s and
    /// `unit`'s).
    pub description: Option<Machine>,
    /// Runs in parallel (the results do not depend on it).
    #[serde(skip)]
    pub threads: Threads,
}

impl Default for ComposeConfig {
    fn default() -> ComposeConfig {
        let preset = Machine::preset("dtm-nuca").expect("the dtm-nuca preset");
        let request_unit = preset.fragment.request_unit.value;
        ComposeConfig {
            name: String::new(),
            machine: NucaConfig::default(),
            unit: units_on(&preset, request_unit),
            modes: vec![Mode::BTC, Mode::Nbtc],
            placements: vec![OrgKind::Private, OrgKind::Dtm, OrgKind::DtmDist],
            window: MACHINE_WINDOW_CYCLES,
            request_unit,
            description: Some(preset),
            threads: Threads::Many,
        }
    }
}

/// The texture units of `machine` taking `request_unit`'s requests: the
/// NBTC's configuration on the machine, with its threads over the pixels
/// of a request in flight (a quad fragment is four threads).
pub fn units_on(machine: &Machine, request_unit: RequestUnit) -> NbtcConfig {
    let mut unit = NbtcConfig::default().on_machine(machine);
    unit.fragments_in_flight = (unit.fragments_in_flight / request_unit.pixels()).max(1);
    unit
}

/// What stops the composed study.
#[derive(Debug, thiserror::Error)]
pub enum ComposeError {
    #[error("compose config: {0}")]
    Invalid(String),
    #[error(transparent)]
    Machine(#[from] NucaError),
    #[error(transparent)]
    Study(#[from] StudyError),
    #[error(transparent)]
    Input(#[from] InputError),
}

impl ComposeConfig {
    /// `Ok` when the study can run, else what is wrong, by field.
    pub fn check(&self) -> Result<(), ComposeError> {
        let bad = |what: String| Err(ComposeError::Invalid(what));
        if self.modes.is_empty() {
            return bad("modes: none: expected at least one miss handling".into());
        }
        if self.placements.is_empty() {
            return bad("placements: none: expected at least one placement".into());
        }
        if self.window == 0 {
            return bad("window = 0: expected at least 1 cycle".into());
        }
        if self.unit.block_bytes != self.machine.block_bytes {
            return bad(format!(
                "unit.block_bytes = {}: expected the machine's block, {} bytes",
                self.unit.block_bytes, self.machine.block_bytes
            ));
        }
        self.machine.check()?;
        self.unit.check().map_err(StudyError::from)?;
        Ok(())
    }

    /// The runs, in report order: each miss handling under each placement.
    pub fn pairs(&self) -> Vec<(Mode, OrgKind)> {
        let mut pairs = Vec::new();
        for &mode in &self.modes {
            for &placement in &self.placements {
                pairs.push((mode, placement));
            }
        }
        pairs
    }
}

/// One miss handling under one placement over the frame.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ComposedRun {
    /// The miss handling's name (`btc`, `nbtc`, ...).
    pub mode: String,
    pub placement: OrgKind,
    /// The slowest unit's cycles: the frame's fragment time.
    pub frame_cycles: u64,
    /// The baseline's frame cycles over this run's.
    pub speedup: f64,
    /// The same miss handling's frame cycles under the first placement
    /// over this run's: what the placement gains with this L1.
    pub placement_speedup: f64,
    /// This run's `placement_speedup` over the first miss handling's
    /// under the same placement: above 1, the L1 and the placement gain
    /// more together than each alone (their speedups multiplied); 1 for
    /// the first miss handling.
    pub interaction: f64,
    /// Every unit's counts summed (cycles too).
    pub total: UnitStats,
    /// Where the placement served the accesses; what the L2, mesh and bus
    /// carried.
    pub machine: MachineReport,
}

impl ComposedRun {
    /// The share of the placement's accesses its processor's own cache
    /// served.
    pub fn local_share(&self) -> f64 {
        ratio(self.machine.served.local_hits, self.machine.served.accesses)
    }

    /// The L2's hit rate on the texture caches' requests.
    pub fn l2_hit_rate(&self) -> f64 {
        let l2 = &self.machine.l2;
        ratio(l2.texture_hits, l2.texture_requests)
    }

    /// The share of the placement's accesses served by a remote texture
    /// cache.
    pub fn remote_share(&self) -> f64 {
        ratio(
            self.machine.served.remote_hits,
            self.machine.served.accesses,
        )
    }

    /// The share of the placement's accesses that read the L2.
    pub fn l2_share(&self) -> f64 {
        ratio(
            self.machine.served.l2_requests,
            self.machine.served.accesses,
        )
    }

    /// The units' cycles stalled on the texture unit (waiting for
    /// results, its buffers full, the blocking cache busy) and drained,
    /// over all cycles ([`UnitStats::stall_share`]).
    pub fn stall_share(&self) -> f64 {
        self.total.stall_share()
    }

    /// The share of the frame's cycles the bus to the L2 was held.
    pub fn bus_utilisation(&self) -> f64 {
        self.machine.bus.utilisation(self.frame_cycles)
    }
}

/// The composed study of one frame.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ComposeReport {
    pub name: String,
    /// The scene rendered, when the frame was rendered for the study (its
    /// picture is `frame.png` beside the report).
    pub scene: Option<String>,
    pub requests: PathBuf,
    /// The frame's trace, whose other L2 traffic the machines carried.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trace: Option<PathBuf>,
    pub config: ComposeConfig,
    /// In [`ComposeConfig::pairs`] order; the first is the baseline.
    pub runs: Vec<ComposedRun>,
    /// What the reader should know about the frame or the runs.
    pub warnings: Vec<String>,
    pub seconds: f64,
}

impl ComposeReport {
    /// The run of `mode` (by name) under `placement`.
    pub fn run(&self, mode: &str, placement: OrgKind) -> Option<&ComposedRun> {
        self.runs
            .iter()
            .find(|r| r.mode == mode && r.placement == placement)
    }
}

/// The phase of [`run`]'s progress: bytes of the request file replayed.
pub const REPLAYING: &str = "replaying the composed machines";

/// Runs every pair of `config` over the texture requests in `requests`,
/// with the other L2 traffic of the frame's `trace`, if given.
pub fn run(
    config: &ComposeConfig,
    requests: &Path,
    trace: Option<&Path>,
    progress: ProgressFn<'_>,
) -> Result<ComposeReport, ComposeError> {
    config.check()?;
    let start = std::time::Instant::now();
    let pairs = config.pairs();
    let runs = pairs
        .iter()
        .map(|&(mode, placement)| {
            let unit = NbtcConfig {
                mode,
                ..config.unit
            };
            Ok((unit, unit_machine(placement, &config.machine)?))
        })
        .collect::<Result<Vec<_>, NucaError>>()?;
    let how = MachineReplay {
        window: config.window,
        sync_tiles: config.machine.timing.sync_tiles,
        request_unit: config.request_unit,
    };
    let mut replay = Replay::on_machines(runs, how).map_err(StudyError::from)?;
    if let Some(path) = trace {
        let header = *TexReqReader::open(requests)
            .map_err(|source| StudyError::Read {
                path: requests.to_path_buf(),
                source,
            })?
            .header();
        let mut tiles = TileTrace::open(path, &header, requests)?;
        let block_bytes = config.machine.block_bytes;
        let source = move |tile| {
            tiles
                .tile_traffic(tile, block_bytes)
                .map_err(|e| e.to_string())
        };
        replay = replay
            .with_other_traffic(Box::new(source))
            .map_err(StudyError::from)?;
    }
    let total = std::fs::metadata(requests).map_or(0, |m| m.len());
    let replaying = |read: u64| progress(Progress::bytes(REPLAYING, read.min(total), total));
    replaying(0);
    let results = feed_file(requests, replay, config.threads, &replaying)?;
    replaying(total);
    let baseline = results.first().map_or(0, |r| r.frame_cycles);
    // Results are in `pairs` order: each miss handling's placements in
    // turn, so a run's first placement is at the start of its group.
    let per_mode = config.placements.len();
    let frames: Vec<u64> = results.iter().map(|r| r.frame_cycles).collect();
    let placement_speedup = |i: usize| ratio(frames[i - i % per_mode], frames[i]);
    let warnings = warnings(&results);
    let runs = pairs
        .iter()
        .zip(results)
        .enumerate()
        .map(|(i, (&(mode, placement), r))| ComposedRun {
            mode: mode.name().to_string(),
            placement,
            speedup: ratio(baseline, r.frame_cycles),
            placement_speedup: placement_speedup(i),
            interaction: over(placement_speedup(i), placement_speedup(i % per_mode)),
            frame_cycles: r.frame_cycles,
            total: r.total,
            machine: r.machine.expect("a run on a machine reports it"),
        })
        .collect();
    Ok(ComposeReport {
        name: config.name.clone(),
        scene: None,
        requests: requests.to_path_buf(),
        trace: trace.map(Path::to_path_buf),
        config: config.clone(),
        runs,
        warnings,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// `a / b`, 0 when `b` is.
fn over(a: f64, b: f64) -> f64 {
    if b == 0.0 {
        0.0
    } else {
        a / b
    }
}

/// What the reader should know: a frame with no texture requests.
fn warnings(results: &[gfxcache_nbtc::RunResult]) -> Vec<String> {
    let requests = results.first().map_or(0, |r| r.total.requests);
    if requests == 0 {
        vec!["the frame has no texture requests: every run is empty".into()]
    } else {
        Vec::new()
    }
}
