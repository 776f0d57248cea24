//! The bloom and luminance chains. Bloom: A bright pass keeps what exceeds 1 in the HDR
//! colour, at half resolution (bilinear, so each pixel reads a 2x2 of the
//! HDR target); a chain of bilinear downsamples halves it `bloom_levels - 1`
//! more times; then each level is added (additive blending, so the
//! destination is read) into the level above it, back up to level 0, which
//! the display pass composites.

use gfxcache_trace::RecordSink;

use crate::pipeline::{ColorId, FragmentOutput, Fragments};
use crate::sampler::TexView;
use crate::state::Blend;

use super::shaders::Program;
use super::{centres, fullscreen, screen_state, Counted, FrameRenderer, PassIo};

/// HDR values above this bloom.
pub(super) const THRESHOLD: f32 = 1.0;

/// Draw `dst` from `src` sampled bilinearly at `dst`'s pixel centres,
/// through `op`.
#[allow(clippy::too_many_arguments)]
pub(super) fn resample<S: RecordSink>(
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
    let sampler = r.cfg.samplers().screen;
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

/// Log luminance, offset so that black is 0 (kept in a half float).
fn log_luminance(c: [f32; 4]) -> [f32; 4] {
    let y = 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
    [(1.0 + y).ln(), 0.0, 0.0, 1.0]
}

/// The bloom chain into the pass's targets (level 0 first) from `source`.
pub(super) fn bloom<S: RecordSink>(
    r: &mut FrameRenderer<'_>,
    io: &PassIo,
    sink: &mut Counted<'_, S>,
) {
    let levels = &io.color;
    let source = io.source();
    resample(
        r,
        source,
        levels[0],
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

/// Constant slot of the luminance chain's first draw (after the bloom
/// chain's).
const LUMINANCE_SLOTS: u64 = 32;

/// The luminance chain: log luminance of `source` into the first target,
/// each next one a bilinear downsample of the one before (the last, 1x1,
/// is the frame's average for exposure).
pub(super) fn luminance<S: RecordSink>(
    r: &mut FrameRenderer<'_>,
    io: &PassIo,
    sink: &mut Counted<'_, S>,
) {
    let levels = &io.color;
    let source = io.source();
    let slot = LUMINANCE_SLOTS;
    resample(
        r,
        source,
        levels[0],
        Blend::Off,
        Program::Luminance,
        slot,
        log_luminance,
        sink,
    );
    for k in 1..levels.len() {
        resample(
            r,
            levels[k - 1],
            levels[k],
            Blend::Off,
            Program::Downsample,
            slot + k as u64,
            copy,
            sink,
        );
    }
}
