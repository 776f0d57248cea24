//! Throughput of the frame timer over 10 million synthetic LLC accesses on
//! the paper's GPU and LLC: 60 % hits, a quarter of the misses evicting a
//! dirty line, texture, depth and colour streams with a fifth of the
//! accesses writes, lines over 256 MiB with short sequential runs (so the
//! DRAM sees row hits as well as conflicts). Outcomes are drawn up front;
//! only the timer is measured.
//!
//! Measured on the project's shared 2-core VM (one core), with
//! `CARGO_TARGET_DIR=/work/target-mem cargo bench -j1 -p gfxcache-mem --bench timer`,
//! in two runs while other jobs kept the VM's load average at 3.5-5:
//! ddr3-1600 (the default bank-parallel scheduler, whose bus calendar costs
//! about 10-15 ns a DRAM access) 50-55 M accesses/s (182-201 ms per 10 M);
//! ddr3-1600 with `Scheduler::Fcfs` 62-75 M/s; fixed 100 ns 77-86 M/s. On an
//! idle core before the calendar: FCFS about 90 M/s, fixed about 100 M/s;
//! scaled by the same ratio, bank-parallel should be about 60-65 M/s idle
//! (not measured: the VM was never idle). Target: at least 50 M/s.
//!
//! On this trace the DRAM buses are busy 34 % of the frame under FCFS and
//! 66 % under bank-parallel scheduling (2 M accesses, default GPU).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gfxcache_mem::{DramConfig, FrameTimer, GpuConfig, LlcTiming, Scheduler};
use gfxcache_trace::synth::Rng;
use gfxcache_trace::Stream;

const N: usize = 10_000_000;

struct Outcome {
    line: u64,
    stream: Stream,
    write: bool,
    hit: bool,
    writeback: Option<u64>,
}

fn outcomes() -> Vec<Outcome> {
    let mut rng = Rng::new(0x6d65_6d00);
    let mut line = 0u64;
    (0..N)
        .map(|_| {
            // Mostly the next line, sometimes a jump anywhere in 256 MiB.
            line = if rng.chance(1, 8) {
                rng.below(1 << 22)
            } else {
                (line + 1) & ((1 << 22) - 1)
            };
            let stream = match rng.below(10) {
                0..=3 => Stream::Tex,
                4..=5 => Stream::Z,
                6..=7 => Stream::Rt,
                8 => Stream::Vtx,
                _ => Stream::Other,
            };
            let write = matches!(stream, Stream::Z | Stream::Rt) && rng.chance(1, 2);
            let hit = rng.chance(3, 5);
            let writeback = (!hit && rng.chance(1, 4)).then(|| rng.below(1 << 22));
            Outcome {
                line,
                stream,
                write,
                hit,
                writeback,
            }
        })
        .collect()
}

fn run(dram: &DramConfig, trace: &[Outcome]) -> u64 {
    let mut t = FrameTimer::new(&GpuConfig::high_end(), &LlcTiming::gspc(), dram).unwrap();
    for o in trace {
        t.access(o.line, o.stream, o.write, o.hit);
        if let Some(victim) = o.writeback {
            t.writeback(victim);
        }
    }
    t.finish().frame_ps
}

fn bench(c: &mut Criterion) {
    let trace = outcomes();
    let mut group = c.benchmark_group("timer");
    group.sample_size(10);
    group.throughput(Throughput::Elements(N as u64));
    let fcfs = DramConfig {
        name: "ddr3-1600-fcfs".into(),
        scheduler: Scheduler::Fcfs,
        ..DramConfig::ddr3_1600()
    };
    for dram in [DramConfig::ddr3_1600(), fcfs, DramConfig::fixed(100.0)] {
        group.bench_function(dram.name.clone(), |b| {
            b.iter(|| run(black_box(&dram), black_box(&trace)))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
