//! Replaying a sequence of events (texture accesses by fragment processor,
//! the frame's other L2 accesses, tile ends) through every organization on
//! its machine: one pass over the input, the organizations in parallel over
//! each chunk of it (`gfxcache_cache::run::for_each_consumer`). Each organization sees
//! every access in input order whatever the thread count, so the results
//! are the same with one thread or many.

use std::convert::Infallible;

use gfxcache_cache::run::{for_each_consumer, Threads};
use serde::{Deserialize, Serialize};

use gfxcache_mem::NucaEnergy;

use crate::l2::L2Stats;
use crate::machine::{Machine, MachineCounts};
use crate::mesh::MeshStats;
use crate::organization::{DNuca, Dtm, DtmDistributed, IdealShared, Organization, Private, SNuca};
use crate::stats::NucaStats;
use crate::timing::TimingStats;
use crate::{NucaConfig, NucaError};

/// One texture access: fragment processor `fp` reads the block holding
/// byte address `addr` after `work` cycles of shader work (since its
/// context's previous texture access returned; the renderer's shader cost,
/// never fitted to the paper).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TextureAccess {
    pub fp: u32,
    pub addr: u64,
    #[serde(default)]
    pub work: u32,
}

/// One event of a replay's input, in trace order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ReplayEvent {
    /// A texture access by a fragment processor.
    Texture(TextureAccess),
    /// The frame's other L2 traffic (not texture): one access to the block
    /// holding `addr`, a write or a read. Changes the L2's contents and
    /// counts, takes no time ([`crate::l2`]).
    Other { addr: u64, write: bool },
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
    Dtm,
    /// DTM-NUCA with a distributed Affinity Table.
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

impl AnyOrganization {
    pub fn new(kind: OrgKind, config: &NucaConfig) -> Result<AnyOrganization, NucaError> {
        Ok(match kind {
            OrgKind::Private => {
                AnyOrganization::Private(Machine::new(Private::new(config)?, config)?)
            }
            OrgKind::DNuca => AnyOrganization::DNuca(Machine::new(DNuca::new(config)?, config)?),
            OrgKind::Dtm => AnyOrganization::Dtm(Machine::new(Dtm::new(config)?, config)?),
            OrgKind::DtmDist => {
                AnyOrganization::DtmDist(Machine::new(DtmDistributed::new(config)?, config)?)
            }
            OrgKind::SNuca => AnyOrganization::SNuca(Machine::new(SNuca::new(config)?, config)?),
            OrgKind::IdealShared => {
                AnyOrganization::IdealShared(Machine::new(IdealShared::new(config)?, config)?)
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
        each!(self, m => m.stats())
    }

    /// Runs `events` (whose fragment processors are in range) through
    /// this organization, blocks `block_shift` bits below byte addresses.
    pub fn run(&mut self, events: &[ReplayEvent], block_shift: u32) {
        each!(self, m => run_all(m, events, block_shift))
    }

    /// Everything the organization's run measured, on `config`.
    pub fn result(&self, config: &NucaConfig) -> OrgResult {
        each!(self, m => OrgResult {
            organization: self.kind(),
            stats: m.stats(),
            l2: m.l2_stats().clone(),
            mesh: m.mesh_stats().clone(),
            timing: m.timing_stats(),
            machine: m.counts().clone(),
            energy: NucaEnergy::of(&config.energy, &m.energy_counts(config)),
        })
    }
}

/// The hot loop, monomorphized per organization.
fn run_all<O: Organization>(m: &mut Machine<O>, events: &[ReplayEvent], block_shift: u32) {
    for e in events {
        match *e {
            ReplayEvent::Texture(a) => {
                m.texture(a.fp as usize, a.addr >> block_shift, a.work);
            }
            ReplayEvent::Other { addr, write } => m.l2_other(addr >> block_shift, write),
            ReplayEvent::TileEnd => m.tile_end(),
        }
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
    pub timing: TimingStats,
    /// Texture cache reads and fills, directory updates, bus beats.
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

/// A replay in progress: organizations fed chunk by chunk.
pub struct Replay {
    config: NucaConfig,
    block_shift: u32,
    organizations: Vec<AnyOrganization>,
    accesses: u64,
    events: u64,
}

impl Replay {
    /// Empty organizations of `kinds` (in that order) on `config`.
    pub fn new(config: &NucaConfig, kinds: &[OrgKind]) -> Result<Replay, NucaError> {
        config.check()?;
        Ok(Replay {
            config: config.clone(),
            block_shift: config.block_bytes.trailing_zeros(),
            organizations: kinds
                .iter()
                .map(|&k| AnyOrganization::new(k, config))
                .collect::<Result<_, _>>()?,
            accesses: 0,
            events: 0,
        })
    }

    /// Runs the next `events` through every organization. A texture
    /// access with a fragment processor out of range is an error naming
    /// its event's index in the whole input, and then nothing of `events`
    /// has run.
    pub fn feed(&mut self, events: &[ReplayEvent], threads: Threads) -> Result<(), NucaError> {
        let mut accesses = 0u64;
        for (i, e) in events.iter().enumerate() {
            if let ReplayEvent::Texture(a) = e {
                if a.fp as usize >= self.config.fps {
                    return Err(NucaError::FpOutOfRange {
                        index: self.events + i as u64,
                        fp: a.fp,
                        fps: self.config.fps,
                    });
                }
                accesses += 1;
            }
        }
        let shift = self.block_shift;
        for_each_consumer(&mut self.organizations, threads, |o| {
            o.run(events, shift);
            Ok::<(), Infallible>(())
        })
        .unwrap_or_else(|never| match never {});
        self.accesses += accesses;
        self.events += events.len() as u64;
        Ok(())
    }

    /// The organizations so far. For checks.
    pub fn organizations(&self) -> &[AnyOrganization] {
        &self.organizations
    }

    /// The counts so far.
    pub fn report(&self) -> ReplayReport {
        ReplayReport {
            config: self.config.clone(),
            texture_accesses: self.accesses,
            events: self.events,
            results: self
                .organizations
                .iter()
                .map(|o| o.result(&self.config))
                .collect(),
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
    Ok(run.report())
}
