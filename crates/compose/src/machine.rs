//! A DTM-NUCA organization on the GPU machine of a DTM-NUCA configuration
//! (its fragment processors, texture caches, mesh, bus, L2 and latencies),
//! as the memory the NBTC's texture units run on.

use gfxcache_nbtc::UnitMachine;
use gfxcache_nuca::replay::on_machine;
use gfxcache_nuca::{
    DNuca, Dtm, DtmDistributed, IdealShared, NucaConfig, NucaError, OrgKind, Private, SNuca,
};

/// Organization `kind` on the machine of `config` (checked), for
/// [`gfxcache_nbtc::Replay::on_machines`].
pub fn unit_machine(kind: OrgKind, config: &NucaConfig) -> Result<Box<dyn UnitMachine>, NucaError> {
    let c = config;
    Ok(match kind {
        OrgKind::Private => Box::new(on_machine(Private::new(c)?, c)?),
        OrgKind::DNuca => Box::new(on_machine(DNuca::new(c)?, c)?),
        OrgKind::Dtm => Box::new(on_machine(Dtm::new(c)?, c)?),
        OrgKind::DtmDist => Box::new(on_machine(DtmDistributed::new(c)?, c)?),
        OrgKind::SNuca => Box::new(on_machine(SNuca::new(c)?, c)?),
        OrgKind::IdealShared => Box::new(on_machine(IdealShared::new(c)?, c)?),
    })
}
