//! Fully associative caches against a lean hash-and-list loop (issue 35):
//! the engine's fully associative LRU, FIFO, random, SRRIP, DRRIP and OPT
//! at 4,096, 131,072 and 1,048,576 blocks of 64 bytes, and beside them
//! [`Lean`], the design of libCacheSim's LRU written as tight as we can:
//! an open-addressing table sized to the cache (linear probing, at most
//! half full, backward-shift deletion) over packed nodes holding a block
//! and its intrusive recency links. No statistics but the misses, no
//! write-back, no streams: the floor a fully associative LRU can be
//! measured against.
//!
//! The trace is `policies`'s frame-shaped synthetic one (10 M accesses).
//! Before timing, each size checks that the lean loop misses exactly as
//! the engine's LRU does. `opt` includes computing the next-use indices.
//!
//! Run: `cargo bench -p gfxcache-cache --bench full`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gfxcache_cache::engine::block_range;
use gfxcache_cache::{build_cache, Env, Geometry, PolicySpec, Ways};
use gfxcache_trace::Access;

mod support {
    pub mod frame;
    pub mod run;
    pub mod trace;
}
use support::frame::frame_trace;
use support::run::{footprint, run_opt, time_cache};

const BLOCK_SHIFT: u32 = 6;
const NIL: u32 = u32::MAX;

/// A block and its recency links.
#[derive(Clone, Copy)]
struct Node {
    block: u64,
    newer: u32,
    older: u32,
}

/// A fully associative LRU cache of `capacity` blocks: libCacheSim's
/// design, lean.
struct Lean {
    /// Node index per slot, `NIL` when empty; a power of two at least
    /// twice the capacity.
    slots: Vec<u32>,
    shift: u32,
    nodes: Vec<Node>,
    capacity: usize,
    newest: u32,
    oldest: u32,
    misses: u64,
}

impl Lean {
    fn new(capacity: usize) -> Lean {
        let size = (capacity * 2).next_power_of_two();
        Lean {
            slots: vec![NIL; size],
            shift: 64 - size.trailing_zeros(),
            nodes: Vec::with_capacity(capacity),
            capacity,
            newest: NIL,
            oldest: NIL,
            misses: 0,
        }
    }

    #[inline(always)]
    fn home(&self, block: u64) -> usize {
        (block.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> self.shift) as usize
    }

    /// The slot holding `block`, or the empty slot where it would go.
    #[inline(always)]
    fn find(&self, block: u64) -> (usize, bool) {
        let mask = self.slots.len() - 1;
        let mut i = self.home(block);
        loop {
            let n = self.slots[i];
            if n == NIL {
                return (i, false);
            }
            if self.nodes[n as usize].block == block {
                return (i, true);
            }
            i = (i + 1) & mask;
        }
    }

    #[inline(always)]
    fn unlink(&mut self, n: u32) {
        let Node { newer, older, .. } = self.nodes[n as usize];
        match newer {
            NIL => self.newest = older,
            m => self.nodes[m as usize].older = older,
        }
        match older {
            NIL => self.oldest = newer,
            m => self.nodes[m as usize].newer = newer,
        }
    }

    #[inline(always)]
    fn push_newest(&mut self, n: u32) {
        self.nodes[n as usize].newer = NIL;
        self.nodes[n as usize].older = self.newest;
        match self.newest {
            NIL => self.oldest = n,
            m => self.nodes[m as usize].newer = n,
        }
        self.newest = n;
    }

    /// Empties `slot`, moving back the entries after it that may not be
    /// found otherwise (linear probing's deletion without tombstones).
    fn remove_slot(&mut self, mut slot: usize) {
        let mask = self.slots.len() - 1;
        let mut j = slot;
        loop {
            j = (j + 1) & mask;
            let n = self.slots[j];
            if n == NIL {
                break;
            }
            let home = self.home(self.nodes[n as usize].block);
            // Whether `home` lies cyclically in (slot, j]: then it stays.
            let stays = if slot <= j {
                slot < home && home <= j
            } else {
                slot < home || home <= j
            };
            if !stays {
                self.slots[slot] = n;
                slot = j;
            }
        }
        self.slots[slot] = NIL;
    }

    #[inline(always)]
    fn access(&mut self, block: u64) {
        let (slot, hit) = self.find(block);
        if hit {
            let n = self.slots[slot];
            if self.newest != n {
                self.unlink(n);
                self.push_newest(n);
            }
            return;
        }
        self.misses += 1;
        let n = if self.nodes.len() < self.capacity {
            self.nodes.push(Node {
                block,
                newer: NIL,
                older: NIL,
            });
            (self.nodes.len() - 1) as u32
        } else {
            let victim = self.oldest;
            let (at, found) = self.find(self.nodes[victim as usize].block);
            debug_assert!(found);
            self.remove_slot(at);
            self.unlink(victim);
            self.nodes[victim as usize].block = block;
            victim
        };
        // The removal may have moved entries: look for the empty slot again.
        let (slot, _) = self.find(block);
        self.slots[slot] = n;
        self.push_newest(n);
    }

    fn run(&mut self, trace: &[Access]) -> u64 {
        for a in trace {
            let (first, last) = block_range(a, BLOCK_SHIFT);
            for block in first..=last {
                self.access(block);
            }
        }
        self.misses
    }
}

fn full(c: &mut Criterion) {
    let trace = frame_trace();
    let mut group = c.benchmark_group("full");
    group.throughput(Throughput::Elements(trace.len() as u64));
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(8));
    let footprint = footprint(&trace);
    for blocks in [4096usize, 131_072, 1_048_576] {
        let g = Geometry::from_size((blocks as u64) << BLOCK_SHIFT, Ways::Full, 64).unwrap();
        let lru: PolicySpec = "lru".parse().unwrap();
        let mut engine = build_cache(&lru, &g, &Env::default()).unwrap();
        engine.access_batch(&trace);
        let lean = Lean::new(blocks).run(&trace);
        assert_eq!(
            lean,
            engine.stats().total().misses,
            "the lean loop is LRU at {blocks} blocks"
        );
        eprintln!("{blocks} blocks: {lean} LRU misses");
        group.bench_function(format!("lean-lru/{blocks}"), |b| {
            b.iter(|| black_box(Lean::new(blocks).run(black_box(&trace))))
        });
        for name in ["lru", "fifo", "random", "srrip", "drrip"] {
            let spec: PolicySpec = name.parse().unwrap();
            group.bench_function(format!("{name}/{blocks}"), |b| {
                time_cache(b, &spec, &g, &trace)
            });
        }
        group.bench_function(format!("opt/{blocks}"), |b| {
            b.iter(|| black_box(run_opt(black_box(&trace), &g, footprint)))
        });
    }
    group.finish();
}

criterion_group!(benches, full);
criterion_main!(benches);
