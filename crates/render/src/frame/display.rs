//! The display pass: the one writer of the displayable RGBA8 surface (the
//! `display` stream), one full-screen triangle so each of its blocks is
//! written exactly once. With post on it adds bloom level 0 (bilinear) to
//! the HDR colour and tone-maps (Reinhard); with post off it only clamps.
//! Both encode gamma 2 (square root), the inverse of the texture decode.

use gfxcache_trace::RecordSink;

use crate::pipeline::{FragmentOutput, Fragments};
use crate::sampler::{Filter, Sampler, TexView, Wrap};

use super::shaders::Program;
use super::{centres, fullscreen, screen_state, Counted, FrameRenderer, View};

/// Weight of the bloom added before tone mapping.
pub(super) const BLOOM_STRENGTH: f32 = 0.6;

/// Display value of an HDR channel (`post`: tone mapped).
pub fn encode(c: f32, post: bool) -> f32 {
    let c = c.max(0.0);
    let c = if post { c / (1.0 + c) } else { c.min(1.0) };
    c.sqrt()
}

pub(super) fn run<S: RecordSink>(r: &mut FrameRenderer<'_>, _v: &View, sink: &mut Counted<'_, S>) {
    let post = r.passes.post && !r.t.bloom.is_empty();
    let hdr_id = r.t.hdr;
    let hdr = r.lend_color(hdr_id);
    let bloom_id = r.t.bloom.first().copied();
    let bloom = bloom_id.filter(|_| post).map(|id| r.lend_color(id));
    let (w, h) = (r.cfg.width, r.cfg.height);
    let sampler = Sampler::new(Filter::Bilinear).with_wrap(Wrap::Clamp, Wrap::Clamp);
    let shader = |f: &mut Fragments<'_>, o: &mut FragmentOutput| {
        let px = f.pixels();
        let mut c = f.load(TexView::Color(&hdr), &px);
        if let Some(b) = &bloom {
            let uv = centres(&px, w, h);
            let s = f.sample_view(TexView::Color(b), &sampler, &uv);
            for (ci, si) in c.iter_mut().zip(s) {
                for k in 0..3 {
                    ci[k] += si[k] * BLOOM_STRENGTH;
                }
            }
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
    let display = r.t.display;
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
