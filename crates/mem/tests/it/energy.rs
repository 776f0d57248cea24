//! The energy model's laws over arbitrary valid models and counts.

use gfxcache_mem::{EnergyModel, MemoryEnergy};
use proptest::prelude::*;

fn model() -> impl Strategy<Value = EnergyModel> {
    (
        0.1..1e4f64,
        1u64..(1 << 24),
        0.0..1.5f64,
        1.0..1e5f64,
        1.0..1e5f64,
    )
        .prop_map(
            |(sram_ref_pj, sram_ref_bytes, sram_exponent, dram_read_pj, dram_write_pj)| {
                EnergyModel {
                    sram_ref_pj,
                    sram_ref_bytes,
                    sram_exponent,
                    dram_read_pj,
                    dram_write_pj,
                }
            },
        )
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

proptest! {
    #[test]
    fn valid_models_pass_check(m in model()) {
        prop_assert_eq!(m.check(), Ok(()));
    }

    #[test]
    fn sram_energy_never_falls_with_capacity(m in model(), a in 1u64..(1 << 30), b in 1u64..(1 << 30)) {
        let (small, big) = (a.min(b), a.max(b));
        prop_assert!(m.sram_access_pj(small) <= m.sram_access_pj(big));
        prop_assert!(close(m.sram_access_pj(m.sram_ref_bytes), m.sram_ref_pj));
    }

    #[test]
    fn totals_add_up_and_split_over_frames(
        m in model(),
        l1 in prop::collection::vec((1u64..(1 << 20), 0u64..1_000_000), 0..6),
        l2 in (1u64..(1 << 24), 0u64..1_000_000),
        reads in 0u64..1_000_000,
        writes in 0u64..1_000_000,
    ) {
        let e = MemoryEnergy::of(&m, &l1, l2, reads, writes);
        prop_assert_eq!(e.total_nj, e.l1_nj + e.l2_nj + e.dram_nj);
        prop_assert!(e.l1_nj >= 0.0 && e.l2_nj >= 0.0 && e.dram_nj >= 0.0);
        // Two half-frames (counts split) cost what the whole frame costs.
        let half = |n: u64| n / 2;
        let l1_a: Vec<_> = l1.iter().map(|&(c, n)| (c, half(n))).collect();
        let l1_b: Vec<_> = l1.iter().map(|&(c, n)| (c, n - half(n))).collect();
        let a = MemoryEnergy::of(&m, &l1_a, (l2.0, half(l2.1)), half(reads), half(writes));
        let b = MemoryEnergy::of(
            &m, &l1_b, (l2.0, l2.1 - half(l2.1)), reads - half(reads), writes - half(writes),
        );
        prop_assert!(close(a.l1_nj + b.l1_nj, e.l1_nj), "{a:?} {b:?} {e:?}");
        prop_assert!(close(a.l2_nj + b.l2_nj, e.l2_nj), "{a:?} {b:?} {e:?}");
        prop_assert!(close(a.dram_nj + b.dram_nj, e.dram_nj), "{a:?} {b:?} {e:?}");
    }
}

/// The DTM-NUCA energy is the sum of counts times per-event energies,
/// checked against a hand computation with round numbers.
#[test]
fn nuca_energy_is_counts_times_per_event_energies() {
    use gfxcache_mem::{NucaEnergy, NucaEnergyCounts, NucaEnergyModel};
    let model = NucaEnergyModel {
        memory: EnergyModel {
            sram_ref_pj: 10.0,
            sram_ref_bytes: 1024,
            sram_exponent: 0.5,
            dram_read_pj: 1000.0,
            dram_write_pj: 3000.0,
        },
        at_lookup_pj: 1.0,
        at_update_pj: 2.0,
        directory_lookup_pj: 4.0,
        directory_update_pj: 8.0,
        router_pj_per_flit: 3.0,
        link_pj_per_flit: 2.0,
        bus_pj_per_beat: 7.0,
        gpu_static_pj_per_cycle: 0.5,
    };
    assert_eq!(model.check(), Ok(()));
    let counts = NucaEnergyCounts {
        tc_bytes: 4096, // 20 pJ a line
        tc_reads: 30,
        tc_fills: 20,
        at_lookups: 10,
        at_updates: 100,
        directory_lookups: 5,
        directory_updates: 3,
        flit_hops: 40,
        bus_beats: 6,
        l2_bytes: 16384, // 40 pJ a line
        l2_accesses: 25,
        dram_reads: 4,
        dram_writes: 2,
        cycles: 2000,
    };
    let e = NucaEnergy::of(&model, &counts);
    // By hand, in pJ: TC 50 x 20 = 1000; tables 10 + 200 + 20 + 24 = 254;
    // network 40 x 5 + 6 x 7 = 242; L2 25 x 40 = 1000; static 1000;
    // DRAM 4000 + 6000 = 10000.
    let want = [1.0, 0.254, 0.242, 1.0, 1.0, 3.496, 10.0, 13.496];
    let got = [
        e.texture_caches_nj,
        e.tables_nj,
        e.network_nj,
        e.l2_nj,
        e.static_nj,
        e.gpu_nj,
        e.memory_nj,
        e.total_nj,
    ];
    for (g, w) in got.iter().zip(want) {
        assert!(close(*g, w), "{got:?} vs {want:?}");
    }
    assert_eq!(
        NucaEnergy::of(&model, &NucaEnergyCounts::default()),
        NucaEnergy::default()
    );
    assert_eq!(NucaEnergyModel::default().check(), Ok(()));
    let mut bad = model;
    bad.link_pj_per_flit = -1.0;
    assert!(bad.check().unwrap_err().starts_with("link_pj_per_flit"));
    bad = model;
    bad.memory.dram_read_pj = 0.0;
    assert!(bad.check().unwrap_err().starts_with("memory.dram_read_pj"));
}
