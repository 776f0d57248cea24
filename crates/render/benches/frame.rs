//! Frames of the built-in scenes (all passes) rendered through the render
//! caches to their LLC stream, as `gfxcache render` does: at 480x270 for a
//! quick reading and at 1920x1080, the measure, on one thread, and
//! at 1920x1080 with the pipeline allowed two (`frame-1920x1080-2-threads`:
//! the back end shared out by bands of rows, large draws' front ends on a
//! thread of their own; the render caches stay on the calling thread here).
//! `gfxcache render --scene S --out F.gtr` under `time` gives the figure end
//! to end, with the render caches and the trace writer on a thread of their
//! own.
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
    for (w, h, threads) in [(480, 270, 1), (1920, 1080, 1), (1920, 1080, 2)] {
        let name = match threads {
            1 => format!("frame-{w}x{h}"),
            n => format!("frame-{w}x{h}-{n}-threads"),
        };
        let mut g = c.benchmark_group(name);
        g.sample_size(10);
        for b in BUILTINS {
            let scene = (b.build)();
            let cfg = FrameConfig {
                threads,
                ..FrameConfig::new(w, h)
            };
            let mut r = FrameRenderer::new(&scene, cfg).expect("renderer");
            g.bench_function(b.name, |bench| {
                bench.iter(|| {
                    let mut llc = 0u64;
                    let mut caches = RenderCaches::new(|x: Record| {
                        if matches!(x, Record::Access(_)) {
                            llc += 1;
                        }
                    });
                    r.render(0, 1, &mut |x| caches.record(x)).unwrap();
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
                r.render(0, 1, &mut |x| caches.record(x)).unwrap();
                drop(caches);
                l2
            })
        });
    }
    g.finish();
}

criterion_group!(benches, frame, tbr);
criterion_main!(benches);
