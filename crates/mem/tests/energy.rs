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
