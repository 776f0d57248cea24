//! A frame of the synthetic heavy scene (all passes) rendered to a counting
//! sink, and through the render caches. Small resolutions and a reduced
//! terrain keep a benchmark run short; `examples/frame_speed.rs` measures
//! the full 1920x1080 load.

#[path = "support/heavy.rs"]
mod heavy;

use criterion::{criterion_group, criterion_main, Criterion};
use gfxcache_render::frame::{FrameConfig, FrameRenderer};
use gfxcache_render::RenderCaches;
use gfxcache_trace::Record;

fn frame(c: &mut Criterion) {
    let scene = heavy::heavy_scene(128);
    let mut g = c.benchmark_group("frame");
    g.sample_size(10);
    let cfg = FrameConfig {
        shadow_size: 1024,
        ..FrameConfig::new(480, 270)
    };
    let mut r = FrameRenderer::new(&scene, cfg).expect("renderer");
    g.bench_function("heavy-480x270-pipeline", |b| {
        b.iter(|| {
            let mut n = 0u64;
            r.render(0, 1, &mut |x| {
                if matches!(x, Record::Access(_)) {
                    n += 1;
                }
            });
            n
        })
    });
    g.bench_function("heavy-480x270-render-caches", |b| {
        b.iter(|| {
            let mut n = 0u64;
            let mut caches = RenderCaches::new(|x: Record| {
                if matches!(x, Record::Access(_)) {
                    n += 1;
                }
            });
            r.render(0, 1, &mut |x| caches.record(x));
            drop(caches);
            n
        })
    });
    g.finish();
}

criterion_group!(benches, frame);
criterion_main!(benches);
