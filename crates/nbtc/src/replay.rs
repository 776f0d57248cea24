//! Many runs of the texture units over one frame's requests, streamed:
//! each run is a configuration, each has one [`TextureUnit`] per pixel
//! processor, and every unit of every run reads the same window of its
//! processor's input ([`UnitInput`]). On a private memory the units are
//! independent (each has its own L1 and memory path), so they run in
//! parallel; the units of a run that share a DRAM, or that are the texture
//! units of a GPU machine ([`UnitMachine`]), run in step, a window at a
//! time, and runs go in parallel. The window of input keeps only what some
//! unit still needs, so a frame is never held whole.
//!
//! On a GPU machine whose tiles synchronise its fragment processors
//! ([`MachineReplay::sync_tiles`], DTM-NUCA's `timing.sync_tiles`), each
//! tile end of the frame is a barrier in every unit's input: a unit that
//! has finished its fragments of the tile waits, and when every unit of
//! the machine has, they all pass it at the cycle the last one finished
//! (as DTM-NUCA's replay's `FpClocks::tile_end`), the wait counted as
//! each unit's tile wait.
//!
//! The frame's other L2 traffic ([`Replay::with_other_traffic`]) comes a
//! tile at a time from its source, at each tile's begin record, and needs
//! synchronised tiles: before a machine's units run a tile, its binning
//! pass changes the L2 and its start traffic leaves the other units' port
//! from the tile's start ([`gfxcache_gpu::Machine::tile_begins`]); at the
//! barrier that ends it, its end traffic leaves from the barrier's cycle,
//! and the next tile starts when its tile buffer is free too
//! ([`gfxcache_gpu::Machine::tile_ends`]). A barrier waits for the next
//! tile's traffic to be read.

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use gfxcache_cache::run::Threads;
use gfxcache_trace::texreq::TexReqRecord;

use std::collections::VecDeque;

use gfxcache_gpu::{Machine, MachineReport, Placement, TileTraffic};
use gfxcache_mem::{Dram, LINE_BYTES};

use crate::config::{MemoryPath, NbtcConfig, MAX_TEXELS};
use crate::error::NbtcError;
use crate::event::{UnitEvent, UnitInput};
use crate::quad::{QuadGatherer, RequestUnit};
use crate::stats::UnitStats;
use crate::texture_unit::{Progress, TextureUnit};

/// One configuration over a frame: each pixel processor's unit, and
/// their sum.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunResult {
    pub config: NbtcConfig,
    /// Per pixel processor, by its number in the input.
    pub units: Vec<UnitStats>,
    /// Every count summed over the units (`cycles` too: the processors'
    /// cycles together, the figure the stall breakdown divides).
    pub total: UnitStats,
    /// The slowest unit's cycles: the frame's pixel-shading time when the
    /// processors start together and nothing else waits.
    pub frame_cycles: u64,
    /// On a GPU machine: where its placement served the accesses and what
    /// its L2, mesh and bus carried.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machine: Option<MachineReport>,
}

/// A GPU machine whose fragment processors' texture units are a run's:
/// each unit's L1 is its processor's texture cache in the machine's
/// placement, and the machine is its memory ([`crate::PlacedL1`]).
pub trait UnitMachine: Send {
    /// Runs `unit`, fragment processor `fp`'s, on `input` up to cycle
    /// `horizon` at the latest.
    fn advance(
        &mut self,
        unit: &mut TextureUnit,
        input: &UnitInput,
        horizon: u64,
        fp: usize,
    ) -> Progress;
    /// Its fragment processors.
    fn fps(&self) -> usize;
    /// The block its caches move.
    fn block_bytes(&self) -> u32;
    fn report(&self) -> MachineReport;
    /// A tile begins at cycle `at`: its other L2 traffic before and at its
    /// start ([`Machine::tile_begins`]).
    fn tile_begins(&mut self, at: u64, tile: &TileTraffic);
    /// The tile ends at cycle `done`: its traffic at its end; returns when
    /// the next tile starts ([`Machine::tile_ends`]).
    fn tile_ends(&mut self, done: u64, tile: &TileTraffic) -> u64;
}

impl<P: Placement + Send> UnitMachine for Machine<P> {
    fn advance(
        &mut self,
        unit: &mut TextureUnit,
        input: &UnitInput,
        horizon: u64,
        fp: usize,
    ) -> Progress {
        unit.advance_placed(input, horizon, self, fp)
    }

    fn fps(&self) -> usize {
        Machine::fps(self)
    }

    fn block_bytes(&self) -> u32 {
        Machine::block_bytes(self)
    }

    fn report(&self) -> MachineReport {
        Machine::report(self)
    }

    fn tile_begins(&mut self, at: u64, tile: &TileTraffic) {
        Machine::tile_begins(self, at, tile);
    }

    fn tile_ends(&mut self, done: u64, tile: &TileTraffic) -> u64 {
        Machine::tile_ends(self, done, tile)
    }
}

/// Where a replay's other L2 traffic comes from: called with each tile's
/// number at its begin record, in the frame's order, then once with
/// `None` at the frame's end for the binning traffic after its last tile
/// (an empty tile's worth). An error is the source's message, which
/// names the file and what was expected.
pub type TileTrafficSource = Box<dyn FnMut(Option<u32>) -> Result<TileTraffic, String> + Send>;

/// The frame's other L2 traffic read so far, a tile's at a time, kept
/// until every run has ended the tile.
struct TrafficQueue {
    /// Tiles from the `first`-th of the frame.
    tiles: VecDeque<TileTraffic>,
    first: usize,
    /// The source has given its last.
    ended: bool,
}

impl TrafficQueue {
    /// The `k`-th tile's traffic of the frame, if read (and kept).
    fn get(&self, k: usize) -> Option<&TileTraffic> {
        k.checked_sub(self.first).and_then(|i| self.tiles.get(i))
    }
}

/// A tile with no other traffic, for a tile end before any tile began.
static NO_TRAFFIC: TileTraffic = TileTraffic {
    binning: Vec::new(),
    start: Vec::new(),
    end: Vec::new(),
};

/// The cycles the units of a GPU machine run one after another before the
/// next (ours: 64). Their accesses reach the placement in that order, not
/// cycle by cycle: a placement's tables see at most a window's accesses
/// of one processor before another's, and the machine's links, bus and
/// banks are reserved on calendars, so an access placed later but asking
/// earlier waits only for the cycles already taken. Shorter is closer to
/// time order and slower.
pub const MACHINE_WINDOW_CYCLES: u64 = 64;

/// How the units of a GPU machine run together.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MachineReplay {
    /// The cycles the units run one after another before the next
    /// ([`MACHINE_WINDOW_CYCLES`] by default).
    pub window: u64,
    /// A tile's end waits for every fragment processor to finish the tile.
    pub sync_tiles: bool,
    /// What a unit takes as one request: a pixel's sample, or a quad's
    /// texture instruction ([`crate::quad`]).
    #[serde(default)]
    pub request_unit: RequestUnit,
}

impl Default for MachineReplay {
    fn default() -> MachineReplay {
        MachineReplay {
            window: MACHINE_WINDOW_CYCLES,
            sync_tiles: false,
            request_unit: RequestUnit::Sample,
        }
    }
}

/// A run's GPU machine and the window its units run in step.
struct OnMachine {
    machine: Box<dyn UnitMachine>,
    horizon: u64,
    window: u64,
    /// The unit to run next in this window: units run in their order, and
    /// one short of input holds back the rest, so that the placement sees
    /// the same order of accesses however the input is cut.
    next: usize,
    /// Tiles whose other traffic began and ended on the machine.
    tiles_begun: usize,
    tiles_ended: usize,
}

struct Slot {
    unit: TextureUnit,
    done: bool,
    /// Waiting at its input's next tile end.
    at_tile_end: bool,
}

/// The DRAM the units of a run share ([`MemoryPath::SharedDram`]), and
/// the window the units run in step: each unit runs to `horizon`, then the
/// blocks every unit sent meet the DRAM in the order they were sent and
/// learn how long they wait. A window is the memory latency long, so no
/// block sent in it returns before its wait is known.
struct SharedMemory {
    dram: Dram,
    horizon: u64,
    window: u64,
    cycle_ps: u64,
    /// The window's blocks: (cycle sent, processor, block); kept for reuse.
    sent: Vec<(u64, usize, u64)>,
}

/// One configuration: a unit per pixel processor.
struct Run {
    units: Vec<Slot>,
    shared: Option<SharedMemory>,
    machine: Option<OnMachine>,
}

impl Run {
    fn new(config: &NbtcConfig) -> Result<Run, NbtcError> {
        let shared = match config.memory {
            MemoryPath::Private => None,
            MemoryPath::SharedDram { clock_mhz, dram } => Some(SharedMemory {
                dram: Dram::new(&dram.config()).expect("a preset is usable"),
                horizon: 0,
                window: config.memory_latency.max(1),
                cycle_ps: 1_000_000 / u64::from(clock_mhz),
                sent: Vec::new(),
            }),
        };
        Ok(Run {
            units: Vec::new(),
            shared,
            machine: None,
        })
    }

    fn advance(&mut self, inputs: &[UnitInput], traffic: Option<&TrafficQueue>, threads: Threads) {
        let step = |(s, input): (&mut Slot, &UnitInput)| {
            if !s.done {
                s.done = s.unit.advance(input);
            }
        };
        if let Some(on) = &mut self.machine {
            return advance_on_machine(&mut self.units, on, inputs, traffic);
        }
        match (&mut self.shared, threads) {
            (Some(shared), _) => advance_shared(&mut self.units, shared, inputs),
            (None, Threads::Many) => self
                .units
                .par_iter_mut()
                .zip(inputs)
                .with_max_len(1)
                .for_each(step),
            (None, Threads::One) => self.units.iter_mut().zip(inputs).for_each(step),
        }
    }
}

/// Runs units that share a memory window by window, as far as the input
/// allows.
fn advance_shared(units: &mut [Slot], shared: &mut SharedMemory, inputs: &[UnitInput]) {
    loop {
        let mut waiting = false;
        for (s, input) in units.iter_mut().zip(inputs) {
            if s.done {
                continue;
            }
            match s.unit.advance_until(input, shared.horizon) {
                Progress::Done => s.done = true,
                Progress::NeedsInput => waiting = true,
                Progress::AtHorizon => {}
                Progress::AtTileEnd => unreachable!("only a machine's units see tile ends"),
            }
        }
        // A unit short of input may still send in this window.
        if waiting || units.iter().all(|s| s.done) {
            return;
        }
        shared.sent.clear();
        for (fp, s) in units.iter_mut().enumerate() {
            shared
                .sent
                .extend(s.unit.take_sent().map(|(cycle, block)| (cycle, fp, block)));
        }
        shared.sent.sort_unstable();
        for &(cycle, fp, block) in &shared.sent {
            let unit = &mut units[fp].unit;
            let line = (block << unit.block_shift()) / LINE_BYTES;
            let (_, waited) = shared
                .dram
                .access_wait(cycle * shared.cycle_ps, line, false);
            let by = waited.div_ceil(shared.cycle_ps);
            if by > 0 {
                unit.delay_sent(block, cycle, by);
            }
        }
        shared.horizon += shared.window;
    }
}

/// Runs the units of a GPU machine window by window, as far as the input
/// allows. When every unit that is not done waits at a tile end, they
/// pass it together at the latest unit's cycle (or later, when the
/// machine's next tile waits for its tile buffer) and the window runs
/// again from there. With the frame's other traffic, a tile's is sent
/// before its units run it and at its end.
fn advance_on_machine(
    units: &mut [Slot],
    on: &mut OnMachine,
    inputs: &[UnitInput],
    traffic: Option<&TrafficQueue>,
) {
    if let (Some(q), 0) = (traffic, on.tiles_begun) {
        match q.get(0) {
            Some(tile) => {
                on.machine.tile_begins(0, tile);
                on.tiles_begun = 1;
            }
            None if q.ended => {}
            None => return,
        }
    }
    loop {
        while on.next < units.len() {
            let fp = on.next;
            let s = &mut units[fp];
            if !s.done && !s.at_tile_end {
                match on.machine.advance(&mut s.unit, &inputs[fp], on.horizon, fp) {
                    Progress::Done => s.done = true,
                    Progress::NeedsInput => return,
                    Progress::AtHorizon => {}
                    Progress::AtTileEnd => s.at_tile_end = true,
                }
            }
            on.next += 1;
        }
        if units.iter().all(|s| s.done) {
            return;
        }
        on.next = 0;
        if units.iter().all(|s| s.done || s.at_tile_end) {
            let waiting = units.iter().filter(|s| s.at_tile_end);
            let last = waiting.map(|s| s.unit.now()).max().unwrap_or(0);
            let Some(start) = pass_tile_traffic(on, traffic, last) else {
                return;
            };
            for s in units.iter_mut().filter(|s| s.at_tile_end) {
                s.unit.pass_tile_end(start);
                s.at_tile_end = false;
            }
        } else {
            on.horizon += on.window;
        }
    }
}

/// The machine's side of a tile end its units reached by cycle `last`:
/// the ending tile's traffic, then the next's once it has been read.
/// Returns when the next tile starts, or `None` while its traffic is yet
/// to be read.
fn pass_tile_traffic(on: &mut OnMachine, traffic: Option<&TrafficQueue>, last: u64) -> Option<u64> {
    let Some(q) = traffic else {
        return Some(last);
    };
    let next = q.get(on.tiles_begun);
    if next.is_none() && !q.ended {
        return None;
    }
    let ending = match on.tiles_begun {
        0 => &NO_TRAFFIC,
        k => q.get(k - 1).unwrap_or(&NO_TRAFFIC),
    };
    let start = on.machine.tile_ends(last, ending);
    on.tiles_ended = on.tiles_begun;
    if let Some(next) = next {
        on.machine.tile_begins(start, next);
        on.tiles_begun += 1;
    }
    Some(start)
}

/// `record`, the `index`-th of the frame, is one a unit can take: of one
/// of the `processors` (when they are fixed), a request of 1 to 8 texels.
fn check_record(
    record: &TexReqRecord,
    index: u64,
    processors: Option<usize>,
) -> Result<(), NbtcError> {
    let (fp, len) = match record {
        TexReqRecord::Request(r) => (r.fp, Some(r.len)),
        TexReqRecord::FragmentEnd { fp, .. } => (*fp, None),
        _ => return Ok(()),
    };
    match processors {
        Some(processors) if usize::from(fp) >= processors => Err(NbtcError::Processor {
            record: index,
            fp: usize::from(fp),
            processors,
        }),
        _ => match len.filter(|&l| l == 0 || usize::from(l) > MAX_TEXELS) {
            Some(len) => Err(NbtcError::RecordTexels { record: index, len }),
            None => Ok(()),
        },
    }
}

/// A gathered quad's event into its processor's input: the gatherer
/// makes requests of 1 to 8 texels of a checked processor, which every
/// input takes.
fn push_gathered(inputs: &mut [UnitInput], fp: usize, event: UnitEvent) {
    let pushed = inputs[fp].push(event);
    debug_assert!(pushed.is_ok(), "a gathered request of 1 to 8 texels");
}

/// The runs, fed a frame's records in order.
pub struct Replay {
    configs: Vec<NbtcConfig>,
    inputs: Vec<UnitInput>,
    runs: Vec<Run>,
    /// The pixel processors, when fixed before the frame.
    processors: Option<usize>,
    /// Each tile end of the frame is a barrier in every unit's input.
    sync_tiles: bool,
    /// With quad requests: the quads being gathered.
    quads: Option<QuadGatherer>,
    /// The frame's other L2 traffic, on machines only, and where it
    /// comes from.
    traffic: Option<TrafficQueue>,
    traffic_source: Option<TileTrafficSource>,
    records: u64,
}

impl Replay {
    /// Runs of `configs` (at least one, each usable), with a unit per
    /// pixel processor as the frame names them. Configurations on a shared
    /// memory need [`Replay::with_processors`].
    pub fn new(configs: &[NbtcConfig]) -> Result<Replay, NbtcError> {
        if configs.is_empty() {
            return Err(NbtcError::Config {
                field: "runs",
                value: "none".into(),
                expected: "at least one configuration to replay".into(),
            });
        }
        let runs = configs
            .iter()
            .map(|c| {
                c.check()?;
                Run::new(c)
            })
            .collect::<Result<Vec<Run>, NbtcError>>()?;
        Ok(Replay {
            configs: configs.to_vec(),
            inputs: Vec::new(),
            runs,
            processors: None,
            sync_tiles: false,
            quads: None,
            traffic: None,
            traffic_source: None,
            records: 0,
        })
    }

    /// Runs of `configs` with units for pixel processors 0 to
    /// `processors` - 1 from the start; a record of another is an error.
    pub fn with_processors(configs: &[NbtcConfig], processors: usize) -> Result<Replay, NbtcError> {
        let mut replay = Replay::new(configs)?;
        replay.add_processors(processors)?;
        replay.processors = Some(processors);
        Ok(replay)
    }

    /// One run of `config`'s miss handling on the texture units of
    /// `machine`: [`Replay::on_machines`] of one.
    pub fn on_machine(
        config: &NbtcConfig,
        machine: Box<dyn UnitMachine>,
        how: MachineReplay,
    ) -> Result<Replay, NbtcError> {
        Replay::on_machines(vec![(*config, machine)], how)
    }

    /// Runs of each configuration's miss handling on the texture units of
    /// its machine (at least one; every machine with the same fragment
    /// processors), one unit per fragment processor, the units of a
    /// machine running in step `how.window` cycles at a time and the runs
    /// in parallel: each unit's L1 is its processor's texture cache in the
    /// machine's placement. A configuration's L1 and memory are not used,
    /// but its block must be its machine's. With `how.sync_tiles`, every
    /// tile end of the frame waits for all the machine's units.
    pub fn on_machines(
        runs: Vec<(NbtcConfig, Box<dyn UnitMachine>)>,
        how: MachineReplay,
    ) -> Result<Replay, NbtcError> {
        let MachineReplay {
            window,
            sync_tiles,
            request_unit,
        } = how;
        let fps = runs.first().map_or(0, |(_, m)| m.fps());
        if window == 0 {
            return Err(NbtcError::Config {
                field: "window",
                value: "0".into(),
                expected: "at least 1 cycle".into(),
            });
        }
        for (config, machine) in &runs {
            if config.block_bytes != machine.block_bytes() {
                return Err(NbtcError::Config {
                    field: "block_bytes",
                    value: config.block_bytes.to_string(),
                    expected: format!("the machine's block, {} bytes", machine.block_bytes()),
                });
            }
            if machine.fps() != fps {
                return Err(NbtcError::Config {
                    field: "machines",
                    value: format!("{} and {fps} fragment processors", machine.fps()),
                    expected: "machines of the same fragment processors".into(),
                });
            }
        }
        let (configs, machines): (Vec<NbtcConfig>, Vec<Box<dyn UnitMachine>>) = runs
            .into_iter()
            .map(|(config, machine)| {
                let private = NbtcConfig {
                    memory: MemoryPath::Private,
                    ..config
                };
                (private, machine)
            })
            .unzip();
        let mut replay = Replay::new(&configs)?;
        for (run, machine) in replay.runs.iter_mut().zip(machines) {
            run.machine = Some(OnMachine {
                machine,
                horizon: 0,
                window,
                next: 0,
                tiles_begun: 0,
                tiles_ended: 0,
            });
        }
        replay.add_processors(fps)?;
        replay.processors = Some(fps);
        replay.sync_tiles = sync_tiles;
        if request_unit == RequestUnit::Quad {
            let first = replay.configs[0];
            if let Some(c) = replay.configs.iter().find(|c| c.issue != first.issue) {
                return Err(NbtcError::Config {
                    field: "issue",
                    value: format!("{:?} and {:?}", c.issue, first.issue),
                    expected: "one issue model for every run of quad requests (a quad's work is its slowest pixel's under it)".into(),
                });
            }
            replay.quads = Some(QuadGatherer::new(first.issue, first.block_bytes));
        }
        Ok(replay)
    }

    /// The frame's other L2 traffic from `source`, sent on every run's
    /// machine a tile at a time (the module's docs). Needs runs on
    /// machines whose tiles are synchronised: their tile ends are when a
    /// tile's traffic is sent.
    pub fn with_other_traffic(mut self, source: TileTrafficSource) -> Result<Replay, NbtcError> {
        if self.runs.iter().any(|r| r.machine.is_none()) || !self.sync_tiles {
            return Err(NbtcError::Config {
                field: "sync_tiles",
                value: self.sync_tiles.to_string(),
                expected: "runs on GPU machines whose tile ends synchronise their fragment processors, to send the frame's other L2 traffic at its tiles' starts and ends".into(),
            });
        }
        self.traffic_source = Some(source);
        self.traffic = Some(TrafficQueue {
            tiles: VecDeque::new(),
            first: 0,
            ended: false,
        });
        Ok(self)
    }

    /// Whether any configuration shares a memory between its units.
    pub fn shares_memory(configs: &[NbtcConfig]) -> bool {
        configs.iter().any(|c| c.memory != MemoryPath::Private)
    }

    /// Records read so far.
    pub fn records(&self) -> u64 {
        self.records
    }

    fn add_processors(&mut self, fps: usize) -> Result<(), NbtcError> {
        while self.inputs.len() < fps {
            self.inputs.push(UnitInput::new());
            for (run, c) in self.runs.iter_mut().zip(&self.configs) {
                run.units.push(Slot {
                    unit: TextureUnit::new(c)?,
                    done: false,
                    at_tile_end: false,
                });
            }
        }
        Ok(())
    }

    /// Runs the next `records` of the frame as far as they allow. A
    /// request with no texel or more than 8 is an error naming its
    /// record's index in the whole input.
    pub fn feed(&mut self, records: &[TexReqRecord], threads: Threads) -> Result<(), NbtcError> {
        if self.processors.is_none() && Replay::shares_memory(&self.configs) {
            return Err(NbtcError::SharedNeedsProcessors);
        }
        for (i, record) in records.iter().enumerate() {
            let index = self.records + i as u64;
            check_record(record, index, self.processors)?;
            if let Some(quads) = &mut self.quads {
                let inputs = &mut self.inputs;
                quads.record(record, &mut |fp, e| push_gathered(inputs, fp, e));
            }
            if let (Some(q), Some(source), TexReqRecord::TileBegin { tile }) =
                (&mut self.traffic, &mut self.traffic_source, record)
            {
                q.tiles
                    .push_back(source(Some(*tile)).map_err(NbtcError::OtherTraffic)?);
            }
            if self.sync_tiles && matches!(record, TexReqRecord::TileEnd { .. }) {
                self.inputs.iter_mut().for_each(UnitInput::tile_end);
                continue;
            }
            if self.quads.is_some() {
                continue;
            }
            let Some((fp, event)) = UnitEvent::of_record(record) else {
                continue;
            };
            if self.processors.is_none() {
                self.add_processors(fp + 1)?;
            }
            self.inputs[fp].push(event)?;
        }
        self.records += records.len() as u64;
        self.advance(threads);
        self.discard();
        Ok(())
    }

    fn advance(&mut self, threads: Threads) {
        let inputs = &self.inputs;
        let traffic = self.traffic.as_ref();
        match threads {
            Threads::Many => self
                .runs
                .par_iter_mut()
                .with_max_len(1)
                .for_each(|r| r.advance(inputs, traffic, threads)),
            Threads::One => self
                .runs
                .iter_mut()
                .for_each(|r| r.advance(inputs, traffic, threads)),
        }
    }

    /// Forgets the input no unit needs any more.
    fn discard(&mut self) {
        if let Some(q) = &mut self.traffic {
            let ended = self.runs.iter().filter_map(|r| r.machine.as_ref());
            let ended = ended.map(|on| on.tiles_ended).min().unwrap_or(0);
            while q.first < ended && q.tiles.pop_front().is_some() {
                q.first += 1;
            }
        }
        for (fp, input) in self.inputs.iter_mut().enumerate() {
            let (event, fragment) = self
                .runs
                .iter()
                .map(|r| r.units[fp].unit.first_needed())
                .fold((usize::MAX, usize::MAX), |(e, f), (ue, uf)| {
                    (e.min(ue), f.min(uf))
                });
            input.discard_before(event, fragment);
        }
    }

    /// Runs what is left of the frame and gives each configuration's
    /// result, in the order of `configs`; the error of the other
    /// traffic's source, if it has one and fails.
    pub fn finish(mut self, threads: Threads) -> Result<Vec<RunResult>, NbtcError> {
        if let Some(quads) = &mut self.quads {
            let inputs = &mut self.inputs;
            quads.flush(&mut |fp, e| push_gathered(inputs, fp, e));
        }
        for input in &mut self.inputs {
            input.finish();
        }
        if let (Some(q), Some(source)) = (&mut self.traffic, &mut self.traffic_source) {
            let rest = source(None).map_err(NbtcError::OtherTraffic)?;
            q.tiles.push_back(rest);
            q.ended = true;
        }
        self.advance(threads);
        let results = self
            .configs
            .iter()
            .zip(&self.runs)
            .map(|(config, run)| {
                let units: Vec<UnitStats> = run
                    .units
                    .iter()
                    .map(|s| {
                        debug_assert!(s.done, "a finished input runs to its end");
                        s.unit.stats()
                    })
                    .collect();
                let mut total = UnitStats::default();
                for u in &units {
                    total.add(u);
                }
                RunResult {
                    config: *config,
                    frame_cycles: units.iter().map(|u| u.cycles).max().unwrap_or(0),
                    units,
                    total,
                    machine: run.machine.as_ref().map(|on| on.machine.report()),
                }
            })
            .collect();
        Ok(results)
    }
}
