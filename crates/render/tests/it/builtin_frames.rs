//! The LLC stream of every built-in scene, rendered at reduced resolution
//! through the render caches: it has the streams the GSPC paper describes
//! and real render-to-texture reuse (blocks written as `rt` later read as
//! `tex` at the same address). What the mix looks like at 1920x1080 is
//! measured and reported in the README, not asserted here. The mobile
//! scenes also tile by tile, as the TCOR paper's GPU draws them: binned
//! passes, and the same records from two builds.

use std::collections::HashSet;
use std::hash::{DefaultHasher, Hash, Hasher};

use gfxcache_render::frame::{FrameConfig, FrameRenderer};
use gfxcache_render::scene::builtin::{Builtin, Suite, BUILTINS};
use gfxcache_render::{RenderCaches, TbrConfig};
use gfxcache_trace::binned::BinnedPass;
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
    frame.render(0, 1, &mut |r| caches.record(r)).unwrap();
    drop(caches);
    llc
}

#[test]
fn every_desktop_scene_has_the_paper_streams_and_rt_to_tex_reuse() {
    // The GSPC paper's class: a mobile frame drawn straight into the
    // display has no render target to reuse.
    assert!(Suite::Desktop.scenes().count() >= 3);
    for b in Suite::Desktop.scenes() {
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

/// Two frames of a freshly built scene tile by tile at a tenth of TCOR's
/// resolution: a hash and count of its records, its binned passes and its
/// display reads.
fn tile_based(b: &Builtin) -> (u64, u64, Vec<BinnedPass>, u64) {
    let scene = (b.build)();
    let (w, h) = TbrConfig::TABLE_I_RESOLUTION;
    let cfg = FrameConfig {
        tbr: Some(TbrConfig::default()),
        ..FrameConfig::new(w / 10, h / 10)
    };
    let mut r = FrameRenderer::new(&scene, cfg).unwrap();
    let mut hash = DefaultHasher::new();
    let mut n = 0u64;
    let mut binned = Vec::new();
    let mut display_reads = 0;
    for f in 0..2 {
        r.render(f, 2, &mut |x: Record| {
            if let Record::Access(a) = &x {
                display_reads += (a.stream == Stream::Display && a.op == Op::Read) as u64;
            }
            x.hash(&mut hash);
            n += 1;
        })
        .unwrap();
        binned.extend(r.take_binned());
    }
    (hash.finish(), n, binned, display_reads)
}

#[test]
fn mobile_frames_bin_their_passes_and_repeat() {
    let mut scenes = 0;
    for b in Suite::Mobile.scenes() {
        let (hash, n, binned, display_reads) = tile_based(b);
        let again = tile_based(b);
        assert_eq!(
            (hash, n),
            (again.0, again.1),
            "{}: two builds, different frames",
            b.name
        );
        assert_eq!(binned, again.2, "{}: two builds, different binning", b.name);
        // The main pass (forward, which draws the blended sprites too, or
        // the deferred-lite G-buffer and its light pass, which does) bins
        // primitives to tiles in both frames.
        let deferred = (b.build)().preset == gfxcache_render::Preset::MobileDeferredLite;
        // One render pass draws the whole display, blended sprites,
        // particles and interface included: it is written once a tile and
        // never read back.
        assert_eq!(display_reads, 0, "{}: the display was loaded", b.name);
        let passes: &[&[&str]] = if deferred {
            &[&["gbuffer"], &["lighting"]]
        } else {
            &[&["forward"]]
        };
        for frame in 0..2 {
            for pass in passes {
                let p = binned
                    .iter()
                    .find(|p| p.frame_number == frame && pass.contains(&p.pass.as_str()))
                    .unwrap_or_else(|| panic!("{}: frame {frame} has no {pass:?} pass", b.name));
                let uses: usize = p.frame.primitives.iter().map(|q| q.tiles.len()).sum();
                assert!(
                    !p.frame.primitives.is_empty() && uses >= p.frame.primitives.len(),
                    "{}: {} binned {} primitives to {uses} tiles",
                    b.name,
                    p.pass,
                    p.frame.primitives.len()
                );
            }
        }
        scenes += 1;
    }
    assert!(scenes >= 6, "{scenes} mobile scenes");
}
