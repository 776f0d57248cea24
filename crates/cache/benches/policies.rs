//! Throughput of the replacement policies: an 8 MiB, 16-way cache of 64-byte
//! lines (the GSPC paper's LLC, 4 banks) over a 10-million-access trace
//! shaped like a frame's LLC traffic, built in memory from a seeded RNG.
//!
//! The trace: texture reads over 64 MiB with Zipf-like reuse (a few hot
//! texels and mip levels, a long cold tail) in short spatial runs; colour
//! and depth read-modify-writes sweeping two 8 MiB surfaces in raster
//! order; vertex reads over 2 MiB; displayable colour written once. At
//! 8 MiB LRU hits 35.5 % of it, SRRIP 34.3 %, DRRIP 34.2 %, SHiP-mem 32.3 %.
//!
//! `opt` includes computing the next-use indices (one pass over the trace),
//! as a run of `opt` must.
//!
//! Run: `cargo bench -p gfxcache-cache --bench policies`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gfxcache_cache::{build_cache, Env, Geometry, PolicySpec, Ways};

mod support {
    pub mod frame;
    pub mod run;
    pub mod trace;
}
use support::frame::frame_trace;
use support::run::{footprint, run_opt, time_cache};

fn geometry() -> Geometry {
    Geometry::from_size(8 << 20, Ways::N(16), 64)
        .unwrap()
        .with_banks(4)
        .unwrap()
}

fn policies(c: &mut Criterion) {
    let trace = frame_trace();
    let g = geometry();
    let mut group = c.benchmark_group("policies");
    group.throughput(Throughput::Elements(trace.len() as u64));
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(8));
    for name in ["lru", "srrip", "drrip", "ship-mem"] {
        let spec: PolicySpec = name.parse().unwrap();
        // Print the hit rate once, so the trace's shape can be checked.
        let mut c = build_cache(&spec, &g, &Env::default()).unwrap();
        c.access_batch(&trace);
        eprintln!(
            "{name}: hit rate {:.1}%",
            100.0 * c.stats().total().hit_rate()
        );
        group.bench_function(name, |b| time_cache(b, &spec, &g, &trace));
    }
    let footprint = footprint(&trace);
    group.bench_function("opt", |b| {
        b.iter(|| black_box(run_opt(black_box(&trace), &g, footprint)))
    });
    group.finish();
}

criterion_group!(benches, policies);
criterion_main!(benches);
