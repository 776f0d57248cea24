//! Throughput of one-pass miss-ratio curves over 10 million accesses and
//! about a million distinct 64-byte blocks: fully associative, and 8192
//! sets with every way count up to 64.
//!
//! Two traces, because the stack-distance tree and the block map cost what
//! the trace's locality lets them cost: `mixed` is shaped like a frame
//! (raster-order colour and depth, texture fetches wandering with small
//! steps and occasional jumps, sequential vertices, scattered other
//! traffic); `uniform` draws every block uniformly, the worst case, where
//! nearly every lookup misses the host's caches.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gfxcache_cache::{Mrc, MrcBuilder};
use gfxcache_trace::{Access, Op, Stream};

mod support {
    pub mod trace;
}
use support::trace::{access, Rng};

const N: usize = 10_000_000;
const BLOCK: u64 = 64;

fn mixed() -> Vec<Access> {
    const RT: u64 = 0x1000_0000;
    const Z: u64 = 0x2000_0000;
    const TEX: u64 = 0x4000_0000;
    const VTX: u64 = 0x8000_0000;
    const OTHER: u64 = 0xc000_0000;
    let surface = 128 << 10; // blocks: 8 MiB colour, 8 MiB depth
    let texture = 700 << 10;
    let vertices = 64 << 10;
    let other = 200 << 10;
    let mut rng = Rng::seeded(2024);
    let (mut pixel, mut texel, mut vertex) = (0u64, 0u64, 0u64);
    let mut out = Vec::with_capacity(N);
    while out.len() < N {
        match rng.below(100) {
            0..=34 => {
                let off = pixel % (surface * BLOCK);
                out.push(access(Z + off, Stream::Z, Op::Read));
                out.push(access(RT + off, Stream::Rt, Op::Write));
                pixel += 16;
            }
            35..=79 => {
                if rng.below(500) == 0 {
                    texel = rng.below(texture);
                } else {
                    texel = (texel + rng.below(8)).saturating_sub(3) % texture;
                }
                let addr = TEX + texel * BLOCK + rng.below(4) * 16;
                out.push(access(addr, Stream::Tex, Op::Read));
            }
            80..=91 => {
                out.push(access(
                    VTX + vertex % (vertices * BLOCK),
                    Stream::Vtx,
                    Op::Read,
                ));
                vertex += 16;
            }
            _ => {
                let addr = OTHER + rng.below(other) * BLOCK;
                out.push(access(addr, Stream::Other, Op::Write));
            }
        }
    }
    out.truncate(N);
    out
}

fn uniform() -> Vec<Access> {
    let mut rng = Rng::seeded(7);
    (0..N)
        .map(|_| access(rng.below(1 << 20) * BLOCK, Stream::Tex, Op::Read))
        .collect()
}

fn curves(trace: &[Access], sets: bool) -> Mrc {
    let mut m = MrcBuilder::new(BLOCK as u32).unwrap();
    if sets {
        m = m.with_sets(8192, 64).unwrap();
    }
    m.push_all(trace).unwrap();
    m.finish().unwrap()
}

/// User + system time of this thread, in seconds, at the kernel's 100 Hz
/// tick; `None` off Linux.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    let mut fields = stat.rsplit_once(')')?.1.split_whitespace().skip(11);
    let user: f64 = fields.next()?.parse().ok()?;
    let system: f64 = fields.next()?.parse().ok()?;
    Some((user + system) / 100.0)
}

/// Criterion measures wall-clock time, which on a shared machine counts
/// other processes' time too; CPU time of this thread does not, so it is
/// printed beside it (best of three passes).
fn report_cpu_time(label: &str, trace: &[Access], sets: bool) {
    let mut best: Option<f64> = None;
    for _ in 0..3 {
        let Some(t0) = cpu_seconds() else { return };
        black_box(curves(trace, sets));
        let Some(t1) = cpu_seconds() else { return };
        best = Some(best.map_or(t1 - t0, |b: f64| b.min(t1 - t0)));
    }
    if let Some(b) = best.filter(|&b| b > 0.0) {
        eprintln!(
            "{label}: {:.1} M accesses/s of CPU time (best of 3, {b:.2} s)",
            trace.len() as f64 / b / 1e6
        );
    }
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("mrc");
    g.sample_size(10)
        .warm_up_time(std::time::Duration::from_secs(2))
        .measurement_time(std::time::Duration::from_secs(15))
        .throughput(Throughput::Elements(N as u64));
    for (name, trace) in [("mixed", mixed()), ("uniform", uniform())] {
        let m = curves(&trace, false);
        eprintln!(
            "{name}: {} accesses, {} distinct blocks, miss ratio {:.3} at 16 MiB",
            m.accesses(),
            m.footprint(),
            m.misses_at_blocks((16 << 20) / BLOCK) as f64 / m.accesses() as f64
        );
        for (mode, sets) in [("full", false), ("sets8192x64", true)] {
            let label = format!("{mode}/{name}");
            report_cpu_time(&label, &trace, sets);
            g.bench_function(&label, |b| b.iter(|| curves(black_box(&trace), sets)));
        }
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
