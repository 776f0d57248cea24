//! Buckets (Figure 3) and the Affinity Table's size (Section III-A).

use gfxcache_nuca::{affinity_table_bits, Buckets, NucaConfig};

/// Figure 3: 16 blocks a0..a15 in 8 pages p0..p7 (m = 2) grouped modulo 4
/// into buckets b0..b3.
#[test]
fn figure_3() {
    let g = Buckets::new(2, 4);
    let pages: Vec<u64> = (0..16).map(|a| g.page_of(a)).collect();
    assert_eq!(pages, [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7]);
    let buckets: Vec<usize> = (0..16).map(|a| g.bucket_of(a)).collect();
    assert_eq!(buckets, [0, 0, 1, 1, 2, 2, 3, 3, 0, 0, 1, 1, 2, 2, 3, 3]);
    assert_eq!(g.len(), 4);
}

/// The paper's grouping: 8 blocks a page, 32 buckets, 64-byte blocks, so
/// the bucket of byte address x is (x >> 9) & 31.
#[test]
fn paper_grouping_is_address_bits_9_to_13() {
    let c = NucaConfig::default();
    let g = Buckets::new(c.page_blocks, c.buckets);
    for addr in (0..1u64 << 20).step_by(61).chain([u64::MAX, u64::MAX / 3]) {
        assert_eq!(
            g.bucket_of(addr >> 6),
            ((addr >> 9) & 31) as usize,
            "address {addr:#x}"
        );
    }
}

/// Groupings that are not powers of two take the division path, which must
/// agree with the definition.
#[test]
fn any_grouping_is_page_mod_buckets() {
    for m in 1..=9u32 {
        for n in 1..=7u32 {
            let g = Buckets::new(m, n);
            for a in 0..500u64 {
                assert_eq!(
                    g.bucket_of(a),
                    ((a / u64::from(m)) % u64::from(n)) as usize,
                    "m {m} n {n} a {a}"
                );
            }
        }
    }
}

/// n x (P x k + ceil(log2 P)): 4,256 bits for the paper's table (32
/// buckets, 32 FPs, 4-bit counters, 5 owner bits), "0.51 KiB".
#[test]
fn table_size() {
    assert_eq!(affinity_table_bits(32, 32, 4), 4256);
    assert_eq!(NucaConfig::default().affinity_table_bits(), 4256);
    assert!((4256.0 / 8.0 / 1024.0 - 0.51f64).abs() < 0.01);
    // Figure 4's table: 8 buckets, 4 FPs (2 owner bits).
    assert_eq!(affinity_table_bits(8, 4, 4), 8 * (16 + 2));
    // ceil(log2 P) at and around powers of two.
    assert_eq!(affinity_table_bits(1, 1, 4), 4);
    assert_eq!(affinity_table_bits(1, 2, 4), 8 + 1);
    assert_eq!(affinity_table_bits(1, 5, 4), 20 + 3);
    assert_eq!(affinity_table_bits(1, 8, 4), 32 + 3);
    assert_eq!(affinity_table_bits(1, 9, 4), 36 + 4);
}

/// The paper's machine under modulo indexing keeps one bucket's blocks
/// in 8 of a texture cache's 64 sets (bucket bits 3-7 of the block
/// address share bits 3-5 with the set index): 32 of them fit. XOR-folded
/// indexing spreads them over every set.
#[test]
fn a_buckets_blocks_fill_an_eighth_of_a_modulo_cache_and_all_of_a_xor_one() {
    use gfxcache_nuca::{Buckets, NucaConfig, TcIndex, TextureCache};
    let held = |index: TcIndex| {
        let config = NucaConfig {
            tc_index: index,
            ..NucaConfig::default()
        };
        let buckets = Buckets::new(config.page_blocks, config.buckets);
        let mut c = TextureCache::new(&config.tc_geometry().unwrap());
        let blocks: Vec<u64> = (0..100_000u64)
            .filter(|&b| buckets.bucket_of(b) == buckets.bucket_of(5 * 8))
            .take(256)
            .collect();
        for &b in &blocks {
            if !c.contains(b) {
                let _ = c.access(b);
            }
        }
        blocks.iter().filter(|&&b| c.contains(b)).count()
    };
    assert_eq!(held(TcIndex::Modulo), 32);
    assert_eq!(held(TcIndex::XorFold), 256);
}
