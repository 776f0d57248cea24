//! The NBTC replay's cost per texture request, design by design, on the
//! slides' machine (`NbtcConfig::default`: 8 pixel processors, 32 KiB
//! 4-way L1 of 32 B blocks, 100 cycles of memory): a private memory per
//! unit, and one DRAM shared by the units (the lockstep windows). The
//! input is `gfxcache_trace::texreq::synth`'s frame (one bilinear request
//! a pixel, random shader work around it). The baseline the one-GPU-machine
//! work (issue 34) is measured against; the whole study is timed end to
//! end with `/usr/bin/time gfxcache nbtc --suite mobile`
//! (docs/speed-log.md).
//!
//! `cargo bench -p gfxcache-nbtc --bench unit`

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use gfxcache_cache::run::Threads;
use gfxcache_nbtc::{Mode, NbtcConfig, Replay};
use gfxcache_trace::texreq::synth;

fn designs(c: &mut Criterion) {
    let records = synth::frame(8, 48, 11);
    let mut group = c.benchmark_group("unit");
    group.throughput(Throughput::Elements(records.len() as u64));
    group.sample_size(10);
    let modes = [
        ("btc", Mode::BTC),
        ("nbtc", Mode::Nbtc),
        ("mshr", Mode::mshr()),
        ("prefetching", Mode::prefetching()),
    ];
    for shared in [false, true] {
        for (name, mode) in modes {
            let mut config = NbtcConfig {
                mode,
                ..NbtcConfig::default()
            };
            config.share_memory(shared);
            let id = format!("{name}/{}", if shared { "shared" } else { "private" });
            group.bench_with_input(BenchmarkId::from_parameter(id), &config, |b, config| {
                b.iter(|| {
                    let mut run =
                        Replay::with_processors(std::slice::from_ref(config), 8).expect("a run");
                    run.feed(&records, Threads::One).expect("a frame");
                    run.finish(Threads::One).unwrap()
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, designs);
criterion_main!(benches);
