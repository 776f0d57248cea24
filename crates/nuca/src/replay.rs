//! Replaying a sequence of texture accesses through every organization:
//! one pass over the input, the organizations in parallel over each chunk
//! of it (`gfxcache_cache::run::for_each_consumer`). Each organization sees
//! every access in input order whatever the thread count, so the results
//! are the same with one thread or many.

use std::convert::Infallible;

use gfxcache_cache::run::{for_each_consumer, Threads};
use serde::{Deserialize, Serialize};

use crate::organization::{DNuca, Dtm, DtmDistributed, IdealShared, Organization, Private, SNuca};
use crate::stats::NucaStats;
use crate::{NucaConfig, NucaError};

/// One texture access: fragment processor `fp` reads the block holding
/// byte address `addr`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TextureAccess {
    pub fp: u32,
    pub addr: u64,
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

/// Any organization, so that a replay holds them side by side and picks the
/// model once per chunk, never per access.
pub enum AnyOrganization {
    Private(Private),
    DNuca(DNuca),
    Dtm(Dtm),
    DtmDist(DtmDistributed),
    SNuca(SNuca),
    IdealShared(IdealShared),
}

impl AnyOrganization {
    pub fn new(kind: OrgKind, config: &NucaConfig) -> Result<AnyOrganization, NucaError> {
        Ok(match kind {
            OrgKind::Private => AnyOrganization::Private(Private::new(config)?),
            OrgKind::DNuca => AnyOrganization::DNuca(DNuca::new(config)?),
            OrgKind::Dtm => AnyOrganization::Dtm(Dtm::new(config)?),
            OrgKind::DtmDist => AnyOrganization::DtmDist(DtmDistributed::new(config)?),
            OrgKind::SNuca => AnyOrganization::SNuca(SNuca::new(config)?),
            OrgKind::IdealShared => AnyOrganization::IdealShared(IdealShared::new(config)?),
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

    pub fn stats(&self) -> &NucaStats {
        match self {
            AnyOrganization::Private(o) => o.stats(),
            AnyOrganization::DNuca(o) => o.stats(),
            AnyOrganization::Dtm(o) => o.stats(),
            AnyOrganization::DtmDist(o) => o.stats(),
            AnyOrganization::SNuca(o) => o.stats(),
            AnyOrganization::IdealShared(o) => o.stats(),
        }
    }

    /// Runs `accesses` (whose fragment processors are in range) through
    /// this organization, blocks `block_shift` bits below byte addresses.
    pub fn run(&mut self, accesses: &[TextureAccess], block_shift: u32) {
        match self {
            AnyOrganization::Private(o) => run_all(o, accesses, block_shift),
            AnyOrganization::DNuca(o) => run_all(o, accesses, block_shift),
            AnyOrganization::Dtm(o) => run_all(o, accesses, block_shift),
            AnyOrganization::DtmDist(o) => run_all(o, accesses, block_shift),
            AnyOrganization::SNuca(o) => run_all(o, accesses, block_shift),
            AnyOrganization::IdealShared(o) => run_all(o, accesses, block_shift),
        }
    }
}

/// The hot loop, monomorphized per organization.
fn run_all<O: Organization>(o: &mut O, accesses: &[TextureAccess], block_shift: u32) {
    for a in accesses {
        o.access(a.fp as usize, a.addr >> block_shift);
    }
}

/// One organization's counts in a [`ReplayReport`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrgResult {
    pub organization: OrgKind,
    pub stats: NucaStats,
}

/// What a replay found: the configuration and each organization's counts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplayReport {
    pub config: NucaConfig,
    pub texture_accesses: u64,
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
        })
    }

    /// Runs the next `accesses` through every organization. An access with
    /// a fragment processor out of range is an error naming its index in
    /// the whole input, and then nothing of `accesses` has run.
    pub fn feed(&mut self, accesses: &[TextureAccess], threads: Threads) -> Result<(), NucaError> {
        if let Some(i) = accesses
            .iter()
            .position(|a| a.fp as usize >= self.config.fps)
        {
            return Err(NucaError::FpOutOfRange {
                index: self.accesses + i as u64,
                fp: accesses[i].fp,
                fps: self.config.fps,
            });
        }
        let shift = self.block_shift;
        for_each_consumer(&mut self.organizations, threads, |o| {
            o.run(accesses, shift);
            Ok::<(), Infallible>(())
        })
        .unwrap_or_else(|never| match never {});
        self.accesses += accesses.len() as u64;
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
            results: self
                .organizations
                .iter()
                .map(|o| OrgResult {
                    organization: o.kind(),
                    stats: o.stats().clone(),
                })
                .collect(),
        }
    }
}

/// Accesses handed to the organizations at once by [`replay`].
pub const REPLAY_CHUNK: usize = 1 << 16;

/// Runs every organization ([`OrgKind::ALL`]) over `accesses` on `config`,
/// in chunks of [`REPLAY_CHUNK`] held in one buffer (no allocation per
/// access).
pub fn replay(
    config: &NucaConfig,
    accesses: impl IntoIterator<Item = TextureAccess>,
    threads: Threads,
) -> Result<ReplayReport, NucaError> {
    let mut run = Replay::new(config, &OrgKind::ALL)?;
    let mut chunk = Vec::with_capacity(REPLAY_CHUNK);
    for a in accesses {
        chunk.push(a);
        if chunk.len() == REPLAY_CHUNK {
            run.feed(&chunk, threads)?;
            chunk.clear();
        }
    }
    run.feed(&chunk, threads)?;
    Ok(run.report())
}
