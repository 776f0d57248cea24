//! Next-use indices against brute force, on random traces with many
//! distinct blocks (so that the builder's tables grow several times), blocks
//! beyond 32 bits mixed with ordinary ones, accesses spanning many blocks,
//! and the trace fed in uneven batches.

use gfxcache_cache::{NextUse, NextUseBuilder};
use gfxcache_trace::{Access, Stream};
use std::collections::HashMap;

/// xorshift64.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// A trace of `n` accesses over `footprint` blocks of 64 bytes; with `wide`,
/// some blocks lie beyond 2^32 (and some near the top of the address space).
fn trace(seed: u64, n: usize, footprint: u64, wide: bool) -> Vec<Access> {
    let mut r = Rng(seed);
    let mut prev = 0u64;
    (0..n)
        .map(|_| {
            let x = r.next();
            if !x.is_multiple_of(4) {
                let block = x % footprint;
                prev = match (wide, x >> 60) {
                    (true, 0..=3) => (block + (1 << 32)) * 64 + x % 64,
                    (true, 4) => u64::MAX - block * 64,
                    (true, 5) => (u64::from(u32::MAX) - block % 8) * 64,
                    _ => block * 64 + x % 64,
                };
            }
            let mut a = Access::read(prev, Stream::Tex);
            a.size = match (x >> 40) % 1000 {
                0 => 64 * 700,
                1..=100 => (x >> 20) as u32 % 300,
                _ => (x >> 20) as u32 % 65,
            };
            a
        })
        .collect()
}

/// Next uses from a backward scan.
fn brute_force(trace: &[Access]) -> Vec<u32> {
    let blocks: Vec<u64> = trace
        .iter()
        .flat_map(|a| {
            let end = a.addr.saturating_add(u64::from(a.size.max(1)) - 1);
            (a.addr >> 6)..=(end >> 6)
        })
        .collect();
    let mut seen = HashMap::new();
    let mut next = vec![NextUse::NEVER; blocks.len()];
    for (i, &b) in blocks.iter().enumerate().rev() {
        if let Some(j) = seen.insert(b, i as u32) {
            next[i] = j;
        }
    }
    next
}

fn check(seed: u64, n: usize, footprint: u64, wide: bool) {
    let t = trace(seed, n, footprint, wide);
    let want = brute_force(&t);
    let mut b = NextUseBuilder::new(64);
    let mut r = Rng(seed ^ 0x5555);
    let mut rest = &t[..];
    while !rest.is_empty() {
        let k = (r.next() % 3000) as usize % (rest.len() + 1);
        let (now, later) = rest.split_at(k.max(1).min(rest.len()));
        b.push_all(now).unwrap();
        rest = later;
    }
    b.push_all(&[]).unwrap();
    let nu = b.finish();
    assert_eq!(nu.len(), want.len());
    for (i, &w) in want.iter().enumerate() {
        assert_eq!(nu.after(i as u64), w, "seed {seed}, access {i}");
    }
}

#[test]
fn many_distinct_blocks() {
    check(1, 400_000, 1 << 20, false);
    check(2, 200_000, 3_000, false);
}

#[test]
fn blocks_beyond_32_bits() {
    check(3, 300_000, 1 << 19, true);
    check(4, 100_000, 500, true);
}
