//! The LLC stream of every built-in scene, rendered at reduced resolution
//! through the render caches: it has the streams the GSPC paper describes
//! and real render-to-texture reuse (blocks written as `rt` later read as
//! `tex` at the same address). What the mix looks like at 1920x1080 is
//! measured and reported in the README, not asserted here.

use std::collections::HashSet;

use gfxcache_render::frame::{FrameConfig, FrameRenderer};
use gfxcache_render::scene::builtin::BUILTINS;
use gfxcache_render::RenderCaches;
use gfxcache_trace::{Access, Op, Record, RecordSink, Stream};

fn llc_stream(name: &str, width: u32, height: u32) -> Vec<Access> {
    let b = BUILTINS.iter().find(|b| b.name == name).unwrap();
    let scene = (b.build)();
    let mut cfg = FrameConfig::new(width, height);
    cfg.shadow_size = Some(512);
    let mut frame = FrameRenderer::new(&scene, cfg).unwrap();
    let mut llc = Vec::new();
    let mut caches = RenderCaches::new(|r| {
        if let Record::Access(a) = r {
            llc.push(a)
        }
    });
    frame.render(0, 1, &mut |r| caches.record(r));
    drop(caches);
    llc
}

#[test]
fn every_builtin_has_the_paper_streams_and_rt_to_tex_reuse() {
    assert!(BUILTINS.len() >= 3);
    for b in BUILTINS {
        let llc = llc_stream(b.name, 320, 180);
        let mut counts = [0u64; Stream::COUNT];
        for a in &llc {
            counts[a.stream.index()] += 1;
        }
        for s in [
            Stream::Vidx,
            Stream::Vtx,
            Stream::Hiz,
            Stream::Z,
            Stream::Stc,
            Stream::Rt,
            Stream::Tex,
            Stream::Display,
            Stream::Shader,
        ] {
            assert!(
                counts[s.index()] > 0,
                "{}: no {s} accesses in the LLC stream",
                b.name
            );
        }
        // RT -> TEX: a tex read of a block the LLC saw written as rt before.
        let mut written_rt = HashSet::new();
        let mut consumed = HashSet::new();
        for a in &llc {
            let block = a.addr >> 6;
            match (a.stream, a.op) {
                (Stream::Rt, Op::Write) => {
                    written_rt.insert(block);
                }
                (Stream::Tex, Op::Read) if written_rt.contains(&block) => {
                    consumed.insert(block);
                }
                _ => {}
            }
        }
        let share = consumed.len() as f64 / written_rt.len().max(1) as f64;
        eprintln!(
            "{}: {:.1}% of rt-written blocks read as tex",
            b.name,
            100.0 * share
        );
        assert!(
            share > 0.5,
            "{}: only {} of {} rt-written blocks read back as tex",
            b.name,
            consumed.len(),
            written_rt.len()
        );
    }
}
