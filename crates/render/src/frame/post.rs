//! The post pass: bloom. A bright pass keeps what exceeds 1 in the HDR
//! colour, at half resolution (bilinear, so each pixel reads a 2x2 of the
//! HDR target); a chain of bilinear downsamples halves it `bloom_levels - 1`
//! more times; then each level is added (additive blending, so the
//! destination is read) into the level above it, back up to level 0, which
//! the display pass composites.

use gfxcache_trace::RecordSink;

use crate::pipeline::{ColorId, FragmentOutput, Fragments};
use crate::sampler::{Filter, Sampler, TexView, Wrap};
use crate::state::Blend;

use super::shaders::Program;
use super::{centres, fullscreen, screen_state, Counted, FrameRenderer, View};

/// HDR values above this bloom.
pub(super) const THRESHOLD: f32 = 1.0;

/// Draw `dst` from `src` sampled bilinearly at `dst`'s pixel centres,
/// through `op`.
#[allow(clippy::too_many_arguments)]
fn resample<S: RecordSink>(
    r: &mut FrameRenderer<'_>,
    src: ColorId,
    dst: ColorId,
    blend: Blend,
    program: Program,
    slot: u64,
    op: fn([f32; 4]) -> [f32; 4],
    sink: &mut Counted<'_, S>,
) {
    let source = r.lend_color(src);
    let (w, h) = {
        let t = r.pipeline.color(dst);
        (t.width(), t.height())
    };
    let sampler = Sampler::new(Filter::Bilinear).with_wrap(Wrap::Clamp, Wrap::Clamp);
    let shader = |f: &mut Fragments<'_>, o: &mut FragmentOutput| {
        let uv = centres(&f.pixels(), w, h);
        let c = f.sample_view(TexView::Color(&source), &sampler, &uv);
        for (oc, ci) in o.color[0].iter_mut().zip(c) {
            *oc = op(ci);
        }
    };
    let slot = r.fullscreen_slot(slot);
    if blend == Blend::Off {
        // A full-screen overwrite: a tile-based GPU loads nothing.
        r.pipeline.discard_color(dst);
    }
    fullscreen(
        &mut r.pipeline,
        &r.gpu,
        &[dst],
        None,
        screen_state().with_blend(blend),
        &shader,
        program,
        slot,
        sink,
    );
    r.pipeline.replace_color(src, source);
}

fn bright(c: [f32; 4]) -> [f32; 4] {
    [
        (c[0] - THRESHOLD).max(0.0),
        (c[1] - THRESHOLD).max(0.0),
        (c[2] - THRESHOLD).max(0.0),
        1.0,
    ]
}

fn copy(c: [f32; 4]) -> [f32; 4] {
    c
}

pub(super) fn run<S: RecordSink>(r: &mut FrameRenderer<'_>, _v: &View, sink: &mut Counted<'_, S>) {
    let levels = r.t.bloom.clone();
    let Some(&first) = levels.first() else {
        return;
    };
    resample(
        r,
        r.t.hdr,
        first,
        Blend::Off,
        Program::Bright,
        1,
        bright,
        sink,
    );
    for k in 1..levels.len() {
        resample(
            r,
            levels[k - 1],
            levels[k],
            Blend::Off,
            Program::Downsample,
            1 + k as u64,
            copy,
            sink,
        );
    }
    for k in (1..levels.len()).rev() {
        let slot = 1 + (levels.len() + k) as u64;
        resample(
            r,
            levels[k],
            levels[k - 1],
            Blend::Additive,
            Program::Upsample,
            slot,
            copy,
            sink,
        );
    }
}
