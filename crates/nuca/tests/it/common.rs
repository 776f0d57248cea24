//! What the tests share: small machines and random texture streams.
#![allow(dead_code)]

use gfxcache_nuca::{AnyOrganization, NucaConfig, OrgKind};
use proptest::prelude::*;

/// A machine small enough for random streams to conflict: `fps` fragment
/// processors, texture caches of `sets` x `ways` 64-byte blocks, 4
/// buckets of 2-block pages, 2-bit counters, epochs of `epoch` accesses.
pub fn small(fps: usize, sets: u64, ways: u32, epoch: u64) -> NucaConfig {
    NucaConfig {
        fps,
        tc_bytes: sets * u64::from(ways) * 64,
        tc_ways: ways,
        block_bytes: 64,
        buckets: 4,
        page_blocks: 2,
        counter_bits: 2,
        epoch,
        ..NucaConfig::default()
    }
}

/// Random small machines: 1 to 5 fragment processors, 1 to 4 sets of 1 to
/// 3 ways, 1 to 8 buckets of 1 to 4 blocks, 1- to 4-bit counters, epochs
/// of 1 to 40 accesses, margins of 0 to 60 %.
pub fn machines() -> impl Strategy<Value = NucaConfig> {
    (
        1usize..=5,
        prop_oneof![Just(1u64), Just(2), Just(4)],
        1u32..=3,
        1u32..=8,
        1u32..=4,
        1u32..=4,
        1u64..=40,
        0u32..=60,
    )
        .prop_map(
            |(fps, sets, ways, buckets, page, bits, epoch, margin)| NucaConfig {
                fps,
                tc_bytes: sets * u64::from(ways) * 64,
                tc_ways: ways,
                block_bytes: 64,
                buckets,
                page_blocks: page,
                counter_bits: bits,
                epoch,
                margin_percent: margin,
                ..NucaConfig::default()
            },
        )
}

/// A random stream of (fragment processor, block) accesses for `fps`
/// fragment processors over `blocks` distinct blocks.
pub fn stream(fps: usize, blocks: u64, len: usize) -> impl Strategy<Value = Vec<(usize, u64)>> {
    prop::collection::vec((0..fps, 0..blocks), 0..len)
}

/// A machine and a stream for it.
pub fn machine_and_stream(len: usize) -> impl Strategy<Value = (NucaConfig, Vec<(usize, u64)>)> {
    machines().prop_flat_map(move |c| {
        let fps = c.fps;
        (Just(c), stream(fps, 24, len))
    })
}

/// Each organization, empty, on `config`.
pub fn every_organization(config: &NucaConfig) -> Vec<AnyOrganization> {
    OrgKind::ALL
        .iter()
        .map(|&k| AnyOrganization::new(k, config).unwrap())
        .collect()
}

/// A deterministic pseudo-random stream (SplitMix64) of `len` accesses by
/// `fps` fragment processors over `blocks` blocks, with some locality:
/// each fragment processor walks near its own cursor.
pub fn synthetic(
    fps: u32,
    blocks: u64,
    len: usize,
    seed: u64,
) -> Vec<gfxcache_nuca::TextureAccess> {
    let mut s = seed;
    let mut next = move || {
        s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = s;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let mut cursor = vec![0u64; fps as usize];
    (0..len)
        .map(|_| {
            let fp = (next() % u64::from(fps)) as u32;
            let c = &mut cursor[fp as usize];
            *c = if next() % 16 == 0 {
                next() % blocks
            } else {
                (*c + next() % 5) % blocks
            };
            gfxcache_nuca::TextureAccess::new(fp, *c * 64 + next() % 64, (next() % 8) as u32)
        })
        .collect()
}
