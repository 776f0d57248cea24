//! Frames of the built-in scenes (all passes) rendered through the render
//! caches to their LLC stream, as `gfxcache render` does: at 480x270 for a
//! quick reading and at 1920x1080, the measure (target: under 20 s
//! per frame). `gfxcache render --scene S --out F.gtr` under `time` gives
//! the same figure end to end, with the render caches on a second thread.
//!
//! The `tbr-1960x768` group renders each scene tile by tile at TCOR's Table
//! I resolution through Table I's L1s (`render --mode tbr`; the TCOR issue's
//! measure, with `gfxcache tcor --scene S` timing the whole study).
//!
//! `cargo bench -p gfxcache-render --bench frame [-- 1920x1080 | tbr]`

use criterion::{criterion_group, criterion_main, Criterion};
use gfxcache_render::frame::{FrameConfig, FrameRenderer};
use gfxcache_render::scene::builtin::BUILTINS;
use gfxcache_render::{RenderCaches, TbrCacheConfig, TbrCaches, TbrConfig};
use gfxcache_trace::Record;
use gfxcache_trace::RecordSink;

fn frame(c: &mut Criterion) {
    for (w, h) in [(480, 270), (1920, 1080)] {
        let mut g = c.benchmark_group(format!("frame-{w}x{h}"));
        g.sample_size(10);
        for b in BUILTINS {
            let scene = (b.build)();
            let mut r = FrameRenderer::new(&scene, FrameConfig::new(w, h)).expect("renderer");
            g.bench_function(b.name, |bench| {
                bench.iter(|| {
                    let mut llc = 0u64;
                    let mut caches = RenderCaches::new(|x: Record| {
                        if matches!(x, Record::Access(_)) {
                            llc += 1;
                        }
                    });
                    r.render(0, 1, &mut |x| caches.record(x));
                    drop(caches);
                    llc
                })
            });
        }
        g.finish();
    }
}

fn tbr(c: &mut Criterion) {
    let (w, h) = TbrConfig::TABLE_I_RESOLUTION;
    let mut g = c.benchmark_group(format!("tbr-{w}x{h}"));
    g.sample_size(10);
    for b in BUILTINS {
        let scene = (b.build)();
        let cfg = FrameConfig {
            tbr: Some(TbrConfig::default()),
            ..FrameConfig::new(w, h)
        };
        let mut r = FrameRenderer::new(&scene, cfg).expect("renderer");
        g.bench_function(b.name, |bench| {
            bench.iter(|| {
                let mut l2 = 0u64;
                let shapes = TbrCacheConfig::table_i(TbrConfig::default().fps);
                let mut caches = TbrCaches::new(&shapes, |x: Record| {
                    if matches!(x, Record::Access(_)) {
                        l2 += 1;
                    }
                });
                r.render(0, 1, &mut |x| caches.record(x));
                drop(caches);
                l2
            })
        });
    }
    g.finish();
}

criterion_group!(benches, frame, tbr);
criterion_main!(benches);
