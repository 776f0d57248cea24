//! Tone mapping. The classic display pass: the one writer of the displayable RGBA8 surface (the
//! `display` stream), one full-screen triangle so each of its blocks is
//! written exactly once. With post on it adds bloom level 0 (bilinear) to
//! the HDR colour and tone-maps (Reinhard); with post off it only clamps.
//! Both encode gamma 2 (square root), the inverse of the texture decode.
//! The presets' tone-mapping pass adds exposure from the luminance chain.

use gfxcache_trace::RecordSink;

use crate::pipeline::{FragmentOutput, Fragments};
use crate::sampler::{Sampler, TexView};

use super::shaders::Program;
use super::{centres, fullscreen, screen_state, Counted, FrameRenderer, PassIo};
use crate::graph::Role;
use crate::target::ColorTarget;

/// Weight of the bloom added before tone mapping.
pub(super) const BLOOM_STRENGTH: f32 = 0.6;

/// Display value of an HDR channel (`post`: tone mapped).
pub fn encode(c: f32, post: bool) -> f32 {
    let c = c.max(0.0);
    let c = if post { c / (1.0 + c) } else { c.min(1.0) };
    c.sqrt()
}

/// The classic display write: `source` (plus bloom level 0, bilinear)
/// tone-mapped with `tone_map`, else clamped; gamma-encoded.
pub(super) fn run<S: RecordSink>(
    r: &mut FrameRenderer<'_>,
    io: &PassIo,
    tone_map: bool,
    sink: &mut Counted<'_, S>,
) {
    let hdr_id = io.source();
    let hdr = r.lend_color(hdr_id);
    let bloom_id = io.color_read(Role::Bloom).filter(|_| tone_map);
    let bloom = bloom_id.map(|id| r.lend_color(id));
    let post = tone_map && bloom.is_some();
    let (w, h) = (r.cfg.width, r.cfg.height);
    let sampler = r.cfg.samplers().screen;
    let shader = |f: &mut Fragments<'_>, o: &mut FragmentOutput| {
        let px = f.pixels();
        let mut c = f.load(TexView::Color(&hdr), &px);
        if let Some(b) = &bloom {
            add_bloom(f, b, &sampler, &px, (w, h), &mut c);
        }
        for (oc, ci) in o.color[0].iter_mut().zip(c) {
            *oc = [
                encode(ci[0], post),
                encode(ci[1], post),
                encode(ci[2], post),
                1.0,
            ];
        }
    };
    let display = io.target();
    // Every pixel is overwritten: a tile-based GPU loads nothing.
    r.pipeline.discard_color(display);
    let slot = r.fullscreen_slot(0);
    fullscreen(
        &mut r.pipeline,
        &r.gpu,
        &[display],
        None,
        screen_state(),
        &shader,
        Program::Display,
        slot,
        sink,
    );
    r.pipeline.replace_color(hdr_id, hdr);
    if let (Some(id), Some(t)) = (bloom_id, bloom) {
        r.pipeline.replace_color(id, t);
    }
}

/// Reinhard's key value: the exposure maps the frame's average luminance
/// to middle grey.
pub(super) const KEY: f32 = 0.18;

/// Constant slot of the tone-mapping draw.
const TONE_MAP_SLOT: u64 = 48;

/// Tone mapping: `source` plus bloom level 0 (when read), exposed by the
/// frame's average luminance (the 1x1 `luminance` target, when read; one
/// texel load a pixel), Reinhard, gamma-encoded into the target.
pub(super) fn tone_map<S: RecordSink>(
    r: &mut FrameRenderer<'_>,
    io: &PassIo,
    sink: &mut Counted<'_, S>,
) {
    let src_id = io.source();
    let src = r.lend_color(src_id);
    let bloom_id = io.color_read(Role::Bloom);
    let bloom = bloom_id.map(|id| r.lend_color(id));
    let lum_id = io.color_read(Role::Luminance);
    let lum = lum_id.map(|id| r.lend_color(id));
    let (w, h) = (r.cfg.width, r.cfg.height);
    let sampler = r.cfg.samplers().screen;
    let shader = |f: &mut Fragments<'_>, o: &mut FragmentOutput| {
        let px = f.pixels();
        let mut c = f.load(TexView::Color(&src), &px);
        match &bloom {
            Some(b) => add_bloom(f, b, &sampler, &px, (w, h), &mut c),
            None => f.skip_request(),
        }
        let exposure = match &lum {
            Some(t) => f.load(TexView::Color(t), &[[0, 0]; 4]).map(|l| {
                let average = l[0].exp() - 1.0;
                KEY / average.max(1e-3)
            }),
            None => [1.0; 4],
        };
        for ((oc, ci), e) in o.color[0].iter_mut().zip(c).zip(exposure) {
            *oc = [
                encode(ci[0] * e, true),
                encode(ci[1] * e, true),
                encode(ci[2] * e, true),
                1.0,
            ];
        }
    };
    let target = io.target();
    r.pipeline.discard_color(target);
    let slot = r.fullscreen_slot(TONE_MAP_SLOT);
    fullscreen(
        &mut r.pipeline,
        &r.gpu,
        &[target],
        None,
        screen_state(),
        &shader,
        Program::ToneMap,
        slot,
        sink,
    );
    r.pipeline.replace_color(src_id, src);
    for (id, t) in [(bloom_id, bloom), (lum_id, lum)] {
        if let (Some(id), Some(t)) = (id, t) {
            r.pipeline.replace_color(id, t);
        }
    }
}

/// `c += BLOOM_STRENGTH * bloom`, the bloom target sampled at the centres
/// of the quad's pixels `px` on a `size` screen.
#[inline]
fn add_bloom(
    f: &mut Fragments<'_>,
    bloom: &ColorTarget,
    sampler: &Sampler,
    px: &[[u32; 2]; 4],
    (w, h): (u32, u32),
    c: &mut [[f32; 4]; 4],
) {
    let uv = centres(px, w, h);
    let s = f.sample_view(TexView::Color(bloom), sampler, &uv);
    for (ci, si) in c.iter_mut().zip(s) {
        for k in 0..3 {
            ci[k] += si[k] * BLOOM_STRENGTH;
        }
    }
}
