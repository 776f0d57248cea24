//! Dynamic energy of the texture cache organizations of the DTM-NUCA paper
//! (Figure 10: energy split into the GPU's part and main memory's), from
//! event counts. The paper ran McPAT for the GPU (its L2 included) and
//! DRAMSim2 for memory; we cannot, so every per-event energy here is an
//! assumption with its source, a public field a study can change:
//!
//! - texture cache reads and fills, the L2 and DRAM: [`EnergyModel`]'s
//!   per-line SRAM law and DRAM line energy (`EnergyModel::mobile`);
//! - the Affinity Table and D-NUCA's directory: small SRAM arrays, fixed
//!   energies per lookup and per update, derived below from the same law;
//! - the mesh: energy per flit per hop, router and link apart; the bus of
//!   the private baseline: energy per 128-bit beat;
//! - time-proportional GPU energy (leakage, clocks): `gpu_static_pj_per_cycle`,
//!   0 by default, so that no unsourced power figure enters a result
//!   unasked.
//!
//! GPU part: texture caches, tables, network, bus, L2 and static energy;
//! memory part: DRAM (the McPAT / DRAMSim2 split the paper used). Not
//! modelled: leakage unless asked, tag arrays apart from data, the
//! fragment processors' arithmetic.

use serde::{Deserialize, Serialize};

use crate::energy::EnergyModel;

/// Per-event energies; `Default` is [`NucaEnergyModel::mobile`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NucaEnergyModel {
    /// SRAM per 64-byte line by capacity (texture caches, L2) and DRAM per
    /// line.
    pub memory: EnergyModel,
    /// One Affinity Table lookup (an owner read) and one update (a counter
    /// read-modify-write), in pJ, for the centralized table and each node's
    /// copy alike.
    pub at_lookup_pj: f64,
    pub at_update_pj: f64,
    /// One D-NUCA directory lookup and one update (insert or removal), pJ.
    pub directory_lookup_pj: f64,
    pub directory_update_pj: f64,
    /// One flit through one router, and over one link, in pJ.
    pub router_pj_per_flit: f64,
    pub link_pj_per_flit: f64,
    /// One 128-bit beat on the bus between the texture caches and the L2,
    /// in pJ.
    pub bus_pj_per_beat: f64,
    /// GPU energy per cycle that does not depend on the accesses (leakage,
    /// clock tree), in pJ. 0 unless a study sets it.
    pub gpu_static_pj_per_cycle: f64,
}

impl NucaEnergyModel {
    /// Defaults for the paper's machine (P = 32, 16 KiB texture caches,
    /// 1 MiB L2, 128-bit flits), all ours:
    ///
    /// - SRAM and DRAM: [`EnergyModel::mobile`] (Horowitz, ISSCC 2014,
    ///   scaled to 32 nm 1 V): a 64-bit word costs 70 / 8 = 8.75 pJ from 8
    ///   KiB, times sqrt(capacity / 8 KiB); a 16 KiB texture cache line 99
    ///   pJ, a 1 MiB L2 line 792 pJ, a DRAM line 10.24 nJ.
    /// - Affinity Table: 32 entries of 32 x 4 + 5 = 133 bits, 532 bytes;
    ///   a 64-bit word there costs 8.75 x sqrt(532 / 8192) = 2.2 pJ and an
    ///   entry is about two words: a lookup 5 pJ, an update (read and
    ///   write) 10 pJ.
    /// - Directory: one entry per texture cache line, 32 x 256 entries of
    ///   about 32 bits (tag and holder), 32 KiB: a 64-bit word costs 8.75 x
    ///   sqrt(4) = 17.5 pJ per lookup or update.
    /// - Mesh: the working spec's "order of 10 pJ per flit per hop at
    ///   128-bit flits" (the range DSENT-style router and 1 mm link models
    ///   give at 22-32 nm), split 6 pJ router, 4 pJ link; the split is ours.
    /// - Bus: 10 pJ per 128-bit beat, one mesh hop's worth (a bus spanning
    ///   the fragment processors is no shorter than a mesh link).
    pub fn mobile() -> NucaEnergyModel {
        NucaEnergyModel {
            memory: EnergyModel::mobile(),
            at_lookup_pj: 5.0,
            at_update_pj: 10.0,
            directory_lookup_pj: 17.5,
            directory_update_pj: 17.5,
            router_pj_per_flit: 6.0,
            link_pj_per_flit: 4.0,
            bus_pj_per_beat: 10.0,
            gpu_static_pj_per_cycle: 0.0,
        }
    }

    /// Every energy finite and not negative (the memory model's own rules
    /// for it); the error names the field.
    pub fn check(&self) -> Result<(), String> {
        self.memory.check().map_err(|e| format!("memory.{e}"))?;
        let energies = [
            ("at_lookup_pj", self.at_lookup_pj),
            ("at_update_pj", self.at_update_pj),
            ("directory_lookup_pj", self.directory_lookup_pj),
            ("directory_update_pj", self.directory_update_pj),
            ("router_pj_per_flit", self.router_pj_per_flit),
            ("link_pj_per_flit", self.link_pj_per_flit),
            ("bus_pj_per_beat", self.bus_pj_per_beat),
            ("gpu_static_pj_per_cycle", self.gpu_static_pj_per_cycle),
        ];
        for (name, v) in energies {
            if !(v.is_finite() && v >= 0.0) {
                return Err(format!("{name}: {v} is not a finite energy >= 0"));
            }
        }
        Ok(())
    }
}

impl Default for NucaEnergyModel {
    fn default() -> NucaEnergyModel {
        NucaEnergyModel::mobile()
    }
}

/// The events one organization's run counted, for [`NucaEnergy::of`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct NucaEnergyCounts {
    /// Capacity of one texture cache, bytes (the ideal shared cache's
    /// whole capacity for it).
    pub tc_bytes: u64,
    /// Texture cache lookups (local probes and remote reads) and fills.
    pub tc_reads: u64,
    pub tc_fills: u64,
    pub at_lookups: u64,
    pub at_updates: u64,
    pub directory_lookups: u64,
    pub directory_updates: u64,
    /// Flits times links crossed; every hop passes one router and one link.
    pub flit_hops: u64,
    /// 128-bit beats on the bus to the L2.
    pub bus_beats: u64,
    pub l2_bytes: u64,
    pub l2_accesses: u64,
    pub dram_reads: u64,
    pub dram_writes: u64,
    /// The run's cycles (for the static energy).
    pub cycles: u64,
}

/// Energy of one organization's run, by part, in nanojoules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct NucaEnergy {
    pub texture_caches_nj: f64,
    /// Affinity Tables and directory.
    pub tables_nj: f64,
    /// Mesh routers and links, and the bus.
    pub network_nj: f64,
    pub l2_nj: f64,
    pub static_nj: f64,
    /// Everything on the GPU: the five parts above.
    pub gpu_nj: f64,
    /// Main memory: DRAM.
    pub memory_nj: f64,
    pub total_nj: f64,
}

impl NucaEnergy {
    /// The energy of `counts` under `model`.
    pub fn of(model: &NucaEnergyModel, c: &NucaEnergyCounts) -> NucaEnergy {
        let nj = |n: u64, pj: f64| n as f64 * pj / 1000.0;
        let texture_caches_nj = nj(
            c.tc_reads + c.tc_fills,
            model.memory.sram_access_pj(c.tc_bytes),
        );
        let tables_nj = nj(c.at_lookups, model.at_lookup_pj)
            + nj(c.at_updates, model.at_update_pj)
            + nj(c.directory_lookups, model.directory_lookup_pj)
            + nj(c.directory_updates, model.directory_update_pj);
        let network_nj = nj(
            c.flit_hops,
            model.router_pj_per_flit + model.link_pj_per_flit,
        ) + nj(c.bus_beats, model.bus_pj_per_beat);
        let l2_nj = nj(c.l2_accesses, model.memory.sram_access_pj(c.l2_bytes));
        let static_nj = nj(c.cycles, model.gpu_static_pj_per_cycle);
        let gpu_nj = texture_caches_nj + tables_nj + network_nj + l2_nj + static_nj;
        let memory_nj = model.memory.dram_pj(c.dram_reads, c.dram_writes) / 1000.0;
        NucaEnergy {
            texture_caches_nj,
            tables_nj,
            network_nj,
            l2_nj,
            static_nj,
            gpu_nj,
            memory_nj,
            total_nj: gpu_nj + memory_nj,
        }
    }
}
