//! Replaying a sequence of events (texture requests by fragment processor,
//! shader work, the frame's other L2 accesses, tile ends) through
//! organizations on their machines: one pass over the input, the runs in
//! parallel over each chunk of it (`gfxcache_cache::run::for_each_consumer`).
//! A run plays each tile in clock or trace order ([`crate::schedule`]);
//! either way its order depends on the input and its own clocks only, so
//! the results are the same with one thread or many and however the input
//! is cut into chunks.

use std::convert::Infallible;

use gfxcache_cache::run::{for_each_consumer, Threads};
use serde::{Deserialize, Serialize};

use gfxcache_mem::{NucaEnergy, NucaEnergyCounts};

use crate::bus::BusStats;
use crate::l2::L2Stats;
use crate::organization::{DNuca, Dtm, DtmDistributed, IdealShared, Organization, Private, SNuca};
use crate::schedule::{play, ReplayOrder, Scheduler, TilePlan};
use crate::stats::NucaStats;
use crate::{NucaConfig, NucaError};
use gfxcache_gpu::machine::{Machine, MachineCounts};
use gfxcache_gpu::mesh::MeshStats;
use gfxcache_gpu::DramStats;
use gfxcache_gpu::{OtherPhase, RequestWork, TimingStats};
use gfxcache_trace::Stream;

/// One texture access: fragment processor `fp` reads the block holding
/// byte address `addr`. The first block of a texture request comes after
/// `work` cycles of its fragment's shader work (since its previous request
/// returned; the renderer's shader cost, never fitted to the paper), and
/// on a fragment's first request after `tail` cycles of the processor's
/// previous fragment's work after its last request; a request's other
/// blocks follow it with `more` set and no work of their own
/// ([`crate::FpClocks::issue_more`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TextureAccess {
    pub fp: u32,
    pub addr: u64,
    #[serde(default)]
    pub work: u32,
    /// The previous fragment's work after its last request.
    #[serde(default)]
    pub tail: u32,
    /// The request continues the fragment of `fp`'s previous request
    /// (false: it opens a fragment).
    #[serde(default)]
    pub follows: bool,
    /// Another block of the request of `fp`'s previous access, which it
    /// immediately follows in the input.
    #[serde(default)]
    pub more: bool,
}

impl TextureAccess {
    /// The first block of a request of `fp` after `work` cycles of work,
    /// a fragment of its own.
    pub fn new(fp: u32, addr: u64, work: u32) -> TextureAccess {
        TextureAccess {
            fp,
            addr,
            work,
            tail: 0,
            follows: false,
            more: false,
        }
    }

    /// The shader work before the access, for the clocks.
    pub fn request_work(&self) -> RequestWork {
        RequestWork {
            tail: self.tail,
            work: self.work,
            follows: self.follows,
        }
    }
}

/// One event of a replay's input, in trace order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplayEvent {
    /// A texture access by a fragment processor.
    Texture(TextureAccess),
    /// Shader work of `fp` that ends no texture request: the fragments'
    /// work after their last request, before the tile ends.
    Work { fp: u32, work: u32 },
    /// The frame's other L2 traffic (not texture): one access of `stream`
    /// to the block holding `addr`, a write or a read, from `phase`.
    /// Changes the L2's contents and counts, and takes the time
    /// [`crate::TimingConfig::other_traffic`] gives it.
    Other {
        addr: u64,
        stream: Stream,
        write: bool,
        phase: OtherPhase,
    },
    /// A tile is done: the fragment processors synchronise
    /// ([`crate::TimingConfig::sync_tiles`]).
    TileEnd,
}

impl From<TextureAccess> for ReplayEvent {
    fn from(a: TextureAccess) -> ReplayEvent {
        ReplayEvent::Texture(a)
    }
}

/// The organizations a replay can run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OrgKind {
    /// Private texture caches (the baseline).
    Private,
    /// D-NUCA: a directory, one holder per block.
    DNuca,
    /// DTM-NUCA with the centralized Affinity Table.
    #[serde(rename = "dtm-nuca")]
    Dtm,
    /// DTM-NUCA with a distributed Affinity Table.
    #[serde(rename = "dtm-nuca-dist")]
    DtmDist,
    /// S-NUCA: bucket b in the cache of fragment processor b mod P (ours).
    SNuca,
    /// One cache of P times the capacity and ways (ours).
    IdealShared,
}

impl OrgKind {
    /// Every organization, in report order.
    pub const ALL: [OrgKind; 6] = [
        OrgKind::Private,
        OrgKind::DNuca,
        OrgKind::Dtm,
        OrgKind::DtmDist,
        OrgKind::SNuca,
        OrgKind::IdealShared,
    ];

    /// The name reports use (the serde name).
    pub fn name(self) -> &'static str {
        match self {
            OrgKind::Private => "private",
            OrgKind::DNuca => "d-nuca",
            OrgKind::Dtm => "dtm-nuca",
            OrgKind::DtmDist => "dtm-nuca-dist",
            OrgKind::SNuca => "s-nuca",
            OrgKind::IdealShared => "ideal-shared",
        }
    }
}

/// Any organization on its machine, so that a replay holds them side by
/// side and picks the model once per chunk, never per access.
pub enum AnyOrganization {
    Private(Machine<Private>),
    DNuca(Machine<DNuca>),
    Dtm(Machine<Dtm>),
    DtmDist(Machine<DtmDistributed>),
    SNuca(Machine<SNuca>),
    IdealShared(Machine<IdealShared>),
}

/// `$body` with `$m` bound to the machine, whatever the organization.
macro_rules! each {
    ($any:expr, $m:ident => $body:expr) => {
        match $any {
            AnyOrganization::Private($m) => $body,
            AnyOrganization::DNuca($m) => $body,
            AnyOrganization::Dtm($m) => $body,
            AnyOrganization::DtmDist($m) => $body,
            AnyOrganization::SNuca($m) => $body,
            AnyOrganization::IdealShared($m) => $body,
        }
    };
}

/// `org` on the GPU machine of `config` (checked).
pub fn on_machine<O: Organization>(org: O, config: &NucaConfig) -> Result<Machine<O>, NucaError> {
    config.check()?;
    Machine::new(org, &config.machine()).map_err(|e| NucaError::Config {
        field: "l2",
        value: format!(
            "{} B, {} ways, {} B blocks",
            config.l2.bytes, config.l2.ways, config.block_bytes
        ),
        expected: e.to_string(),
    })
}

/// An organization's counts on its machine, with the L2's hits and
/// misses.
pub fn machine_stats<O: Organization>(m: &Machine<O>) -> NucaStats {
    let mut s = m.organization().stats().clone();
    s.l2_hits = m.l2_stats().texture_hits;
    s.l2_misses = m.l2_stats().texture_misses;
    s
}

/// The events the energy model prices, for an organization's machine of
/// `config`.
pub fn energy_counts<O: Organization>(m: &Machine<O>, config: &NucaConfig) -> NucaEnergyCounts {
    let s = m.organization().stats();
    let l2 = m.l2_stats();
    // The ideal shared cache is one cache of every texture cache's
    // capacity.
    let tc_bytes = match m.organization().caches().len() {
        1 => config.tc_bytes * config.fps as u64,
        _ => config.tc_bytes,
    };
    NucaEnergyCounts {
        tc_bytes,
        tc_reads: m.counts().tc_reads,
        tc_fills: m.counts().tc_fills,
        at_lookups: s.at_lookups,
        at_updates: s.at_updates,
        directory_lookups: s.directory_lookups,
        directory_updates: m.counts().directory_updates,
        flit_hops: m.mesh_stats().flit_hops,
        bus_beats: m.bus_stats().busy_cycles,
        l2_bytes: config.l2.bytes,
        l2_accesses: l2.texture_requests + l2.other_accesses,
        dram_reads: l2.dram_reads,
        dram_writes: l2.dram_writes,
        cycles: m.timing_stats().cycles,
    }
}

impl AnyOrganization {
    pub fn new(kind: OrgKind, config: &NucaConfig) -> Result<AnyOrganization, NucaError> {
        Ok(match kind {
            OrgKind::Private => {
                AnyOrganization::Private(on_machine(Private::new(config)?, config)?)
            }
            OrgKind::DNuca => AnyOrganization::DNuca(on_machine(DNuca::new(config)?, config)?),
            OrgKind::Dtm => AnyOrganization::Dtm(on_machine(Dtm::new(config)?, config)?),
            OrgKind::DtmDist => {
                AnyOrganization::DtmDist(on_machine(DtmDistributed::new(config)?, config)?)
            }
            OrgKind::SNuca => AnyOrganization::SNuca(on_machine(SNuca::new(config)?, config)?),
            OrgKind::IdealShared => {
                AnyOrganization::IdealShared(on_machine(IdealShared::new(config)?, config)?)
            }
        })
    }

    pub fn kind(&self) -> OrgKind {
        match self {
            AnyOrganization::Private(_) => OrgKind::Private,
            AnyOrganization::DNuca(_) => OrgKind::DNuca,
            AnyOrganization::Dtm(_) => OrgKind::Dtm,
            AnyOrganization::DtmDist(_) => OrgKind::DtmDist,
            AnyOrganization::SNuca(_) => OrgKind::SNuca,
            AnyOrganization::IdealShared(_) => OrgKind::IdealShared,
        }
    }

    /// The organization's counts, with the L2's hits and misses.
    pub fn stats(&self) -> NucaStats {
        each!(self, m => machine_stats(m))
    }

    /// Runs `events` (whose fragment processors are in range) through
    /// this organization in input order, blocks `block_shift` bits below
    /// byte addresses.
    pub fn run(&mut self, events: &[ReplayEvent], block_shift: u32) {
        each!(self, m => run_all(m, events, block_shift))
    }

    /// Runs one tile (`tile`, planned as `plan`) in clock order.
    pub fn run_tile(
        &mut self,
        scheduler: &mut Scheduler,
        tile: &[ReplayEvent],
        plan: &TilePlan,
        block_shift: u32,
    ) {
        each!(self, m => scheduler.run(m, tile, plan, block_shift))
    }

    /// Everything the organization's run measured, on `config`.
    pub fn result(&self, config: &NucaConfig) -> OrgResult {
        each!(self, m => OrgResult {
            organization: self.kind(),
            stats: machine_stats(m),
            l2: m.l2_stats().clone(),
            mesh: m.mesh_stats().clone(),
            bus: m.bus_stats().clone(),
            dram: m.dram_stats(),
            timing: m.timing_stats(),
            machine: m.counts().clone(),
            energy: NucaEnergy::of(&config.energy, &energy_counts(m, config)),
        })
    }
}

/// The hot loop, monomorphized per organization.
fn run_all<O: Organization>(m: &mut Machine<O>, events: &[ReplayEvent], block_shift: u32) {
    for e in events {
        play(m, *e, block_shift);
    }
}

/// One organization's results in a [`ReplayReport`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OrgResult {
    pub organization: OrgKind,
    /// Where texture accesses were served, and the L2's answers.
    pub stats: NucaStats,
    pub l2: L2Stats,
    pub mesh: MeshStats,
    /// The bus to the L2: transfers, busy cycles, waits (all zero where
    /// the L2 is on the mesh).
    pub bus: BusStats,
    /// The DRAM's banks and buses: reads, their rows' states, their waits
    /// (all zero without `timing.dram_banks`).
    #[serde(default)]
    pub dram: DramStats,
    pub timing: TimingStats,
    /// Texture cache reads and fills, directory updates.
    pub machine: MachineCounts,
    /// Energy by part, from the counts and `config.energy`.
    pub energy: NucaEnergy,
}

/// What a replay found: the configuration and each organization's counts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReplayReport {
    pub config: NucaConfig,
    pub texture_accesses: u64,
    /// Input events of every kind.
    pub events: u64,
    pub results: Vec<OrgResult>,
}

impl ReplayReport {
    /// The counts of organization `kind`, if the replay ran it.
    pub fn stats(&self, kind: OrgKind) -> Option<&NucaStats> {
        self.results
            .iter()
            .find(|r| r.organization == kind)
            .map(|r| &r.stats)
    }
}

/// One organization on one configuration, in a [`Replay`].
struct Run {
    config: NucaConfig,
    org: AnyOrganization,
    scheduler: Scheduler,
}

/// A replay in progress: runs (each an organization on a configuration)
/// fed chunk by chunk. Runs in clock order see each tile once it is whole
/// (the input up to its `TileEnd`); [`Replay::finish`] plays what is left.
pub struct Replay {
    runs: Vec<Run>,
    fps: usize,
    block_shift: u32,
    /// Input after the last whole tile, not yet played by clock-order runs.
    pending: Vec<ReplayEvent>,
    /// The tiles of the input being played, and their plans (reused).
    tiles: Vec<(usize, usize)>,
    plans: Vec<TilePlan>,
    accesses: u64,
    events: u64,
}

impl Replay {
    /// Empty organizations of `kinds` (in that order) on `config`.
    pub fn new(config: &NucaConfig, kinds: &[OrgKind]) -> Result<Replay, NucaError> {
        Replay::of_runs(kinds.iter().map(|&k| (config.clone(), k)).collect())
    }

    /// Empty runs, each an organization on its own configuration (all
    /// with the same fragment processors and block size: they replay one
    /// input).
    pub fn of_runs(runs: Vec<(NucaConfig, OrgKind)>) -> Result<Replay, NucaError> {
        let Some((first, _)) = runs.first() else {
            return Err(NucaError::Config {
                field: "runs",
                value: "none".into(),
                expected: "at least one organization to replay".into(),
            });
        };
        let (fps, block_bytes) = (first.fps, first.block_bytes);
        for (config, _) in &runs {
            config.check()?;
            if config.fps != fps || config.block_bytes != block_bytes {
                return Err(NucaError::Config {
                    field: "fps",
                    value: format!("{} and {} B blocks", config.fps, config.block_bytes),
                    expected: format!(
                        "the same as every run of the replay: {fps} and {block_bytes} B blocks"
                    ),
                });
            }
        }
        Ok(Replay {
            runs: runs
                .into_iter()
                .map(|(config, kind)| {
                    let org = AnyOrganization::new(kind, &config)?;
                    Ok(Run {
                        config,
                        org,
                        scheduler: Scheduler::default(),
                    })
                })
                .collect::<Result<_, NucaError>>()?,
            fps,
            block_shift: block_bytes.trailing_zeros(),
            pending: Vec::new(),
            tiles: Vec::new(),
            plans: Vec::new(),
            accesses: 0,
            events: 0,
        })
    }

    /// Runs the next `events`. A texture access with a fragment processor
    /// out of range is an error naming its event's index in the whole
    /// input, and then nothing of `events` has run.
    pub fn feed(&mut self, events: &[ReplayEvent], threads: Threads) -> Result<(), NucaError> {
        let mut accesses = 0u64;
        for (i, e) in events.iter().enumerate() {
            let fp = match *e {
                ReplayEvent::Texture(a) => {
                    accesses += 1;
                    a.fp
                }
                ReplayEvent::Work { fp, .. } => fp,
                _ => continue,
            };
            if fp as usize >= self.fps {
                return Err(NucaError::FpOutOfRange {
                    index: self.events + i as u64,
                    fp,
                    fps: self.fps,
                });
            }
        }
        self.accesses += accesses;
        self.events += events.len() as u64;
        self.pending.extend_from_slice(events);
        let clock = self
            .runs
            .iter()
            .any(|r| r.config.timing.order == ReplayOrder::Clock);
        let whole = match clock {
            false => self.pending.len(),
            true => self
                .pending
                .iter()
                .rposition(|e| matches!(e, ReplayEvent::TileEnd))
                .map_or(0, |i| i + 1),
        };
        self.play(whole, threads);
        Ok(())
    }

    /// Plays what is left of the input (a last tile without its end).
    pub fn finish(&mut self, threads: Threads) {
        self.play(self.pending.len(), threads);
    }

    /// Plays the first `n` pending events (whole tiles, or the rest).
    fn play(&mut self, n: usize, threads: Threads) {
        if n == 0 {
            return;
        }
        let input = &self.pending[..n];
        self.tiles.clear();
        let mut start = 0;
        for (i, e) in input.iter().enumerate() {
            if matches!(e, ReplayEvent::TileEnd) {
                self.tiles.push((start, i + 1));
                start = i + 1;
            }
        }
        if start < n {
            self.tiles.push((start, n));
        }
        let clock = self
            .runs
            .iter()
            .any(|r| r.config.timing.order == ReplayOrder::Clock);
        if clock {
            if self.plans.len() < self.tiles.len() {
                self.plans.resize_with(self.tiles.len(), TilePlan::default);
            }
            for (plan, &(a, b)) in self.plans.iter_mut().zip(&self.tiles) {
                plan.build(&input[a..b], self.fps);
            }
        }
        let (shift, tiles, plans) = (self.block_shift, &self.tiles, &self.plans);
        for_each_consumer(&mut self.runs, threads, |run| {
            match run.config.timing.order {
                ReplayOrder::Trace => run.org.run(input, shift),
                ReplayOrder::Clock => {
                    for (plan, &(a, b)) in plans.iter().zip(tiles) {
                        run.org
                            .run_tile(&mut run.scheduler, &input[a..b], plan, shift);
                    }
                }
            }
            Ok::<(), Infallible>(())
        })
        .unwrap_or_else(|never| match never {});
        self.pending.drain(..n);
    }

    /// The organizations so far. For checks.
    pub fn organizations(&self) -> impl Iterator<Item = &AnyOrganization> {
        self.runs.iter().map(|r| &r.org)
    }

    /// Texture accesses and events fed so far.
    pub fn fed(&self) -> (u64, u64) {
        (self.accesses, self.events)
    }

    /// Each run's results so far, in run order (what has been played:
    /// call [`Replay::finish`] first for the whole input).
    pub fn results(&self) -> Vec<OrgResult> {
        self.runs.iter().map(|r| r.org.result(&r.config)).collect()
    }

    /// The counts so far, on the first run's configuration (what has been
    /// played: call [`Replay::finish`] first for the whole input).
    pub fn report(&self) -> ReplayReport {
        ReplayReport {
            config: self.runs[0].config.clone(),
            texture_accesses: self.accesses,
            events: self.events,
            results: self.results(),
        }
    }
}

/// Events handed to the organizations at once by [`replay`].
pub const REPLAY_CHUNK: usize = 1 << 16;

/// Runs every organization ([`OrgKind::ALL`]) over `events` (texture
/// accesses or [`ReplayEvent`]s) on `config`, in chunks of
/// [`REPLAY_CHUNK`] held in one buffer (no allocation per access).
pub fn replay<E: Into<ReplayEvent>>(
    config: &NucaConfig,
    events: impl IntoIterator<Item = E>,
    threads: Threads,
) -> Result<ReplayReport, NucaError> {
    let mut run = Replay::new(config, &OrgKind::ALL)?;
    let mut chunk = Vec::with_capacity(REPLAY_CHUNK);
    for e in events {
        chunk.push(e.into());
        if chunk.len() == REPLAY_CHUNK {
            run.feed(&chunk, threads)?;
            chunk.clear();
        }
    }
    run.feed(&chunk, threads)?;
    run.finish(threads);
    Ok(run.report())
}
