//! Dynamic energy of a memory hierarchy, per access, for the TCOR paper's
//! Figures 20-21 (L1 caches, the L2 and main memory of a mobile tile-based
//! GPU; Table I: 32 nm, 1 V, 600 MHz, 64-byte lines).
//!
//! The paper ran McPAT (SRAM) and DRAMSim2 (DRAM); we cannot, so this model
//! stands in for them with published per-access energies, and its numbers
//! are assumptions, each a public field a study can change:
//!
//! - an SRAM access moves one 64-byte line and costs `sram_ref_pj` in an
//!   array of `sram_ref_bytes`, scaled by `(capacity / sram_ref_bytes) ^
//!   sram_exponent` (longer word and bit lines in a bigger array);
//! - a DRAM line read or write costs a fixed `dram_read_pj` / `dram_write_pj`.
//!
//! Not modelled: leakage and refresh (energy that grows with frame time, not
//! with accesses), tag arrays apart from data, read/write asymmetry in SRAM,
//! DRAM row-buffer locality, the interconnect. Sources of the defaults are
//! on [`EnergyModel::mobile`].

use serde::{Deserialize, Serialize};

/// Per-access energies; `Default` is [`EnergyModel::mobile`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct EnergyModel {
    /// Energy of one 64-byte access to an SRAM array of `sram_ref_bytes`, in pJ.
    pub sram_ref_pj: f64,
    pub sram_ref_bytes: u64,
    /// Access energy grows as (capacity / sram_ref_bytes)^sram_exponent.
    pub sram_exponent: f64,
    /// Main memory: energy of reading / writing one 64-byte line, in pJ.
    pub dram_read_pj: f64,
    pub dram_write_pj: f64,
}

impl EnergyModel {
    /// Defaults for a 32 nm, 1 V mobile GPU with LPDDR-class main memory.
    ///
    /// SRAM: M. Horowitz, "Computing's energy problem (and what we can do
    /// about it)", ISSCC 2014, DOI 10.1109/ISSCC.2014.6757323, Fig. 1.1.9
    /// ("45nm 0.9V"): a 64-bit cache read costs 10 pJ from 8 KB, 20 pJ from
    /// 32 KB, 100 pJ from 1 MB. 8 KB -> 32 KB doubles the energy for 4x the
    /// capacity, hence `sram_exponent` 0.5 (the law then gives 113 pJ at 1 MB,
    /// 13 % above the figure). A 64-byte line is 8 such words: 80 pJ, which
    /// ignores that a wide access shares its decode (so it is rather high).
    /// 45 nm 0.9 V -> 32 nm 1 V: C V^2, capacitance taken proportional to
    /// the feature size (32/45) and (1.0/0.9)^2 for the supply, x0.878:
    /// `sram_ref_pj` = 70 pJ at 8 KiB, so per line 198 pJ for a 64 KiB L1
    /// and 792 pJ for the 1 MiB L2.
    ///
    /// DRAM: Horowitz's figure gives 1.3-2.6 nJ per random 64-bit access,
    /// 20-40 pJ/bit with a row activation each. We take the low end, 20
    /// pJ/bit, for mobile memory: 512 bits = 10 240 pJ per line, read and
    /// write alike (we found no citable figure that separates them). For
    /// scale: K. T. Malladi et al., ISCA 2012 ("Towards energy-proportional
    /// datacenter memory with mobile DRAM") measure server DDR3 at 70 pJ/bit
    /// at full bus use and 3-5x lower memory power with mobile DRAM. A line
    /// from an open row shares one activation among 8 words, so 20 pJ/bit
    /// is an upper estimate; DRAM is a separate die, so no node scaling.
    pub fn mobile() -> EnergyModel {
        EnergyModel {
            sram_ref_pj: 70.0,
            sram_ref_bytes: 8 * 1024,
            sram_exponent: 0.5,
            dram_read_pj: 20.0 * 512.0,
            dram_write_pj: 20.0 * 512.0,
        }
    }

    /// Energy, in pJ, of one 64-byte access to an SRAM of `capacity_bytes`.
    pub fn sram_access_pj(&self, capacity_bytes: u64) -> f64 {
        let ratio = capacity_bytes as f64 / self.sram_ref_bytes as f64;
        self.sram_ref_pj * ratio.powf(self.sram_exponent)
    }

    /// Energy, in pJ, of `reads` and `writes` 64-byte DRAM line transfers.
    pub fn dram_pj(&self, reads: u64, writes: u64) -> f64 {
        reads as f64 * self.dram_read_pj + writes as f64 * self.dram_write_pj
    }

    /// Every energy finite and positive, the exponent finite and not
    /// negative, the reference size positive; the error names the field.
    pub fn check(&self) -> Result<(), String> {
        let energies = [
            ("sram_ref_pj", self.sram_ref_pj),
            ("dram_read_pj", self.dram_read_pj),
            ("dram_write_pj", self.dram_write_pj),
        ];
        for (name, v) in energies {
            if !(v.is_finite() && v > 0.0) {
                return Err(format!("{name}: {v} is not a positive finite energy"));
            }
        }
        if !(self.sram_exponent.is_finite() && self.sram_exponent >= 0.0) {
            let v = self.sram_exponent;
            return Err(format!("sram_exponent: {v} is not a finite exponent >= 0"));
        }
        if self.sram_ref_bytes == 0 {
            return Err("sram_ref_bytes: the reference capacity must be positive".into());
        }
        Ok(())
    }
}

impl Default for EnergyModel {
    fn default() -> EnergyModel {
        EnergyModel::mobile()
    }
}

/// Energy of a memory hierarchy over a frame, by level, in nanojoules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, serde::Deserialize)]
pub struct MemoryEnergy {
    pub l1_nj: f64,
    pub l2_nj: f64,
    pub dram_nj: f64,
    /// `l1_nj + l2_nj + dram_nj`.
    pub total_nj: f64,
}

impl MemoryEnergy {
    /// `l1`: (capacity in bytes, accesses) per L1 structure; `l2`:
    /// (capacity, accesses); DRAM reads and writes in 64-byte lines.
    pub fn of(
        model: &EnergyModel,
        l1: &[(u64, u64)],
        l2: (u64, u64),
        dram_reads: u64,
        dram_writes: u64,
    ) -> MemoryEnergy {
        let sram_nj = |(bytes, n): (u64, u64)| model.sram_access_pj(bytes) * n as f64 / 1000.0;
        let l1_nj = l1.iter().copied().map(sram_nj).sum();
        let l2_nj = sram_nj(l2);
        let dram_nj = model.dram_pj(dram_reads, dram_writes) / 1000.0;
        MemoryEnergy {
            l1_nj,
            l2_nj,
            dram_nj,
            total_nj: l1_nj + l2_nj + dram_nj,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-9 * a.abs().max(b.abs())
    }

    #[test]
    fn reference_size_costs_the_reference_energy() {
        let m = EnergyModel::mobile();
        assert_eq!(m.sram_access_pj(8192), 70.0);
        assert!(close(m.sram_access_pj(64 * 1024), 70.0 * 8f64.sqrt()));
        assert_eq!(EnergyModel::default(), m);
        assert_eq!(m.check(), Ok(()));
    }

    #[test]
    fn doubling_capacity_costs_sqrt_two_and_more_is_never_cheaper() {
        let m = EnergyModel::mobile();
        for kib in [1u64, 8, 48, 64, 1024] {
            let (one, two) = (m.sram_access_pj(kib << 10), m.sram_access_pj(kib << 11));
            assert!(close(two / one, 2f64.sqrt()), "{kib} KiB: {one} -> {two}");
        }
        // 3 KiB to 2.3 MiB in 3 KiB steps, powers of two and not.
        let sizes: Vec<u64> = (1..=800).map(|k| k * 3072).collect();
        for w in sizes.windows(2) {
            assert!(m.sram_access_pj(w[0]) < m.sram_access_pj(w[1]), "{w:?}");
        }
        let mut flat = m;
        flat.sram_exponent = 0.0;
        assert_eq!(flat.sram_access_pj(1 << 20), 70.0);
    }

    #[test]
    fn dram_energy_is_linear_in_reads_and_writes() {
        let mut m = EnergyModel::mobile();
        (m.dram_read_pj, m.dram_write_pj) = (3.0, 5.0);
        assert_eq!(m.dram_pj(0, 0), 0.0);
        assert_eq!(m.dram_pj(7, 0), 21.0);
        assert_eq!(m.dram_pj(0, 7), 35.0);
        assert_eq!(m.dram_pj(7, 11), m.dram_pj(7, 0) + m.dram_pj(0, 11));
        assert_eq!(EnergyModel::mobile().dram_pj(1000, 0), 10_240_000.0);
    }

    #[test]
    fn memory_energy_sums_each_level_and_the_total() {
        let m = EnergyModel {
            sram_ref_pj: 10.0,
            sram_ref_bytes: 1024,
            sram_exponent: 0.5,
            dram_read_pj: 1000.0,
            dram_write_pj: 2000.0,
        };
        // 4 KiB: 20 pJ; 16 KiB: 40 pJ; 1 MiB: 320 pJ.
        let e = MemoryEnergy::of(&m, &[(4096, 100), (16384, 50)], (1 << 20, 10), 3, 2);
        assert!(close(e.l1_nj, (2000.0 + 2000.0) / 1000.0), "{e:?}");
        assert!(close(e.l2_nj, 10.0 * 320.0 / 1000.0), "{e:?}");
        assert!(close(e.dram_nj, 7.0), "{e:?}");
        assert_eq!(e.total_nj, e.l1_nj + e.l2_nj + e.dram_nj);
        let none = MemoryEnergy::of(&m, &[], (1 << 20, 0), 0, 0);
        assert_eq!(none, MemoryEnergy::default());
    }

    #[test]
    fn check_names_the_bad_field() {
        let bad = |edit: fn(&mut EnergyModel), field: &str| {
            let mut m = EnergyModel::mobile();
            edit(&mut m);
            let err = m.check().expect_err(field);
            assert!(err.starts_with(field), "{field}: {err}");
        };
        bad(|m| m.sram_ref_pj = f64::NAN, "sram_ref_pj");
        bad(|m| m.dram_read_pj = -1.0, "dram_read_pj");
        bad(|m| m.dram_write_pj = 0.0, "dram_write_pj");
        bad(|m| m.dram_write_pj = f64::INFINITY, "dram_write_pj");
        bad(|m| m.sram_exponent = -0.5, "sram_exponent");
        bad(|m| m.sram_exponent = f64::NAN, "sram_exponent");
        bad(|m| m.sram_ref_bytes = 0, "sram_ref_bytes");
        let mut flat = EnergyModel::mobile();
        flat.sram_exponent = 0.0;
        assert_eq!(flat.check(), Ok(()));
    }
}
