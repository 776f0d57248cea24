//! The DTM-NUCA replay's cost per texture block access, organization by
//! organization, on the paper's machine (`NucaConfig::default`: Table I's
//! 32 fragment processors, 16 KiB 4-way texture caches, the 1 MiB L2 over
//! the bus or the mesh). The input is synthetic: each fragment processor
//! samples near its own tile of a 1 MiB texture (reuse within a tile and
//! between neighbours, as a frame's), a block or two a request, with some
//! shader work before each. The baseline the one-GPU-machine work (issue
//! 34) is measured against; the whole study is timed end to end with
//! `/usr/bin/time gfxcache nuca --suite mobile` (docs/speed-log.md).
//!
//! `cargo bench -p gfxcache-nuca --bench replay`

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use gfxcache_cache::policies::random::SplitMix64;
use gfxcache_cache::run::Threads;
use gfxcache_nuca::config::NucaConfig;
use gfxcache_nuca::replay::{OrgKind, Replay, ReplayEvent, TextureAccess};

/// Texture requests: each processor in turn, near its tile (4 KiB of a
/// 1 MiB texture, drifting as the tiles do), a second block for one
/// request in four.
fn input(fps: u32, requests: u32) -> Vec<ReplayEvent> {
    // A fixed seed gives the same input on every run.
    let mut rng = SplitMix64(7);
    let mut out = Vec::with_capacity(requests as usize * 5 / 4);
    for r in 0..requests {
        let fp = r % fps;
        let tile = u64::from(fp + (r / 4096) * fps) % 256;
        let addr = tile * 4096 + ((rng.next_u64() % 4096) & !3);
        out.push(TextureAccess::new(fp, addr, (rng.next_u64() % 20) as u32).into());
        if rng.next_u64().is_multiple_of(4) {
            let more = TextureAccess {
                more: true,
                ..TextureAccess::new(fp, addr + 64, 0)
            };
            out.push(more.into());
        }
    }
    out
}

fn organizations(c: &mut Criterion) {
    let config = NucaConfig::default();
    let events = input(config.fps as u32, 200_000);
    let mut group = c.benchmark_group("replay");
    group.throughput(Throughput::Elements(events.len() as u64));
    group.sample_size(10);
    for kind in OrgKind::ALL {
        group.bench_with_input(
            BenchmarkId::from_parameter(kind.name()),
            &kind,
            |b, &kind| {
                b.iter(|| {
                    let mut run = Replay::of_runs(vec![(config.clone(), kind)]).expect("a run");
                    run.feed(&events, Threads::One).expect("in range");
                    run.finish(Threads::One);
                    run.fed()
                })
            },
        );
    }
    group.finish();
}

criterion_group!(benches, organizations);
criterion_main!(benches);
