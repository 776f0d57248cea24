//! Render targets sampled as textures: the sampler reads a target at its
//! surface's own tiled addresses, exactly the blocks of the texels it taps,
//! and HDR values keep their range.

use std::collections::BTreeSet;

use gfxcache_render::{
    Allocator, ColorFormat, ColorTarget, DepthFormat, DepthTarget, Derivs, Filter, Sampler,
    TexView, Wrap,
};
use gfxcache_trace::{Op, Stream};

fn derivs(w: u32, h: u32) -> Derivs {
    Derivs {
        dudx: 1.0 / w as f32,
        dvdx: 0.0,
        dudy: 0.0,
        dvdy: 1.0 / h as f32,
    }
}

#[test]
fn sampling_a_colour_target_reads_exactly_the_blocks_of_its_taps() {
    let mut alloc = Allocator::default();
    let mut t = ColorTarget::new(37, 29, ColorFormat::Rgba8, &mut alloc);
    for y in 0..29 {
        for x in 0..37 {
            t.write(x, y, [x as f32 / 36.0, y as f32 / 28.0, 0.5, 1.0]);
        }
    }
    let view = TexView::Color(&t);
    let d = derivs(37, 29);
    for filter in [
        Filter::Point,
        Filter::Bilinear,
        Filter::Trilinear,
        Filter::Anisotropic,
    ] {
        let s = Sampler::new(filter).with_wrap(Wrap::Clamp, Wrap::Clamp);
        for k in 0..200u32 {
            let u = (k * 7919 % 1000) as f32 / 1000.0;
            let v = (k * 104_729 % 997) as f32 / 997.0;
            let mut want = BTreeSet::new();
            s.footprint_view(view, u, v, &d, |tap| {
                assert_eq!(tap.level, 0);
                want.insert(t.surface.block_of(tap.x, tap.y));
            });
            let mut got = Vec::new();
            s.sample_view(view, u, v, &d, 3, |a| {
                assert_eq!(
                    (a.stream, a.op, a.unit, a.size),
                    (Stream::Tex, Op::Read, 3, 64)
                );
                got.push(a.addr);
            });
            let got_set: BTreeSet<u64> = got.iter().copied().collect();
            assert_eq!(got.len(), got_set.len(), "a block reported twice");
            assert_eq!(got_set, want, "{filter:?} at ({u}, {v})");
        }
    }
}

#[test]
fn hdr_targets_keep_their_range_when_sampled() {
    let mut alloc = Allocator::default();
    let mut t = ColorTarget::new(8, 8, ColorFormat::Rgba16F, &mut alloc);
    t.clear([6.5, 0.25, 100.0, 1.0]);
    let s = Sampler::new(Filter::Bilinear).with_wrap(Wrap::Clamp, Wrap::Clamp);
    let got = s.sample_view(TexView::Color(&t), 0.4, 0.6, &derivs(8, 8), 0, |_| {});
    assert_eq!(got.color, [6.5, 0.25, 100.0, 1.0]);
}

#[test]
fn depth_targets_are_sampled_at_the_depth_surface() {
    let mut alloc = Allocator::default();
    let mut d = DepthTarget::new(16, 16, DepthFormat::D32F, &mut alloc);
    d.clear(1.0, 0);
    d.set_depth(5, 9, 0.25);
    let s = Sampler::new(Filter::Point).with_wrap(Wrap::Clamp, Wrap::Clamp);
    let mut addrs = Vec::new();
    let got = s.sample_view(
        TexView::Depth(&d),
        5.5 / 16.0,
        9.5 / 16.0,
        &derivs(16, 16),
        0,
        |a| addrs.push(a.addr),
    );
    assert_eq!(got.color[0], 0.25);
    assert_eq!(addrs, vec![d.surface.block_of(5, 9)]);
}
