//! Wall time of what `gfxcache render` does on the synthetic heavy scene:
//! render a frame, run its records through the render caches on a second
//! thread (batches through a channel, as the command line does), count the
//! LLC stream.
//!
//! `cargo run --release -p gfxcache-render --example frame_speed -- [W H [GRID [FRAMES]]]`

#[path = "../benches/support/heavy.rs"]
mod heavy;

use std::sync::mpsc;
use std::time::Instant;

use gfxcache_render::frame::{FrameConfig, FrameRenderer};
use gfxcache_render::RenderCaches;
use gfxcache_trace::Record;

fn main() {
    let a: Vec<u32> = std::env::args()
        .skip(1)
        .filter_map(|s| s.parse().ok())
        .collect();
    let (w, h) = (
        a.first().copied().unwrap_or(1920),
        a.get(1).copied().unwrap_or(1080),
    );
    let grid = a.get(2).copied().unwrap_or(384);
    let frames = a.get(3).copied().unwrap_or(1);
    let t0 = Instant::now();
    let scene = heavy::heavy_scene(grid);
    let mut r = FrameRenderer::new(&scene, FrameConfig::new(w, h)).expect("renderer");
    let setup = t0.elapsed().as_secs_f64();
    let (tx, rx) = mpsc::sync_channel::<Vec<Record>>(4);
    // With FRAME_SPEED_OUT=F.gtr the LLC stream is also written, as
    // `gfxcache render --out` does.
    let out = std::env::var("FRAME_SPEED_OUT").ok();
    let consumer = std::thread::spawn(move || {
        let mut llc = 0u64;
        let mut writer = out.map(|p| {
            let meta = gfxcache_trace::TraceMeta {
                generator: "frame_speed".into(),
                ..Default::default()
            };
            gfxcache_trace::create(std::path::Path::new(&p), &meta).expect("create the trace")
        });
        let mut caches = RenderCaches::new(|r: Record| {
            if let Some(w) = &mut writer {
                match &r {
                    Record::Access(a) => w.write_access(a),
                    Record::Marker(m) => w.write_marker(m),
                }
                .expect("write the trace");
            }
            if matches!(r, Record::Access(_)) {
                llc += 1;
            }
        });
        for batch in rx {
            for rec in batch {
                caches.record(rec);
            }
        }
        drop(caches);
        if let Some(w) = writer {
            w.finish().expect("finish the trace");
        }
        llc
    });
    let t1 = Instant::now();
    let mut batch = Vec::with_capacity(1 << 16);
    let mut pipeline = 0u64;
    let mut stats = Vec::new();
    for f in 0..frames {
        let s = r.render(f, frames, &mut |rec| {
            batch.push(rec);
            if batch.len() >= 1 << 16 {
                tx.send(std::mem::replace(&mut batch, Vec::with_capacity(1 << 16)))
                    .expect("consumer alive");
            }
        });
        pipeline += s.accesses().total();
        stats.push(s);
    }
    tx.send(batch).expect("consumer alive");
    drop(tx);
    let render = t1.elapsed().as_secs_f64();
    let llc = consumer.join().expect("consumer");
    let total = t1.elapsed().as_secs_f64();
    if let Ok(path) = std::env::var("FRAME_SPEED_RAW") {
        // Raw RGBA8 of the last frame, for looking at it.
        let bytes: Vec<u8> = r.picture().iter().flatten().copied().collect();
        std::fs::write(path, bytes).expect("write the picture");
    }
    let st = stats[0].stats();
    println!(
        "{w}x{h}, {} triangles/view, {frames} frame(s): setup {setup:.2} s, render {render:.2} s, render+caches {total:.2} s ({:.2} s/frame)",
        scene.triangle_count(),
        total / frames as f64
    );
    println!(
        "pipeline accesses {pipeline}, LLC accesses {llc}, fragments shaded {}, texels {}",
        st.fragments_shaded, st.texels
    );
    for p in &stats[0].passes {
        println!(
            "  {:<12} draws {:>5} tris {:>8} shaded {:>9} accesses {:>10}",
            p.name,
            p.stats.draws,
            p.stats.triangles_in,
            p.stats.fragments_shaded,
            p.accesses.total()
        );
    }
}
