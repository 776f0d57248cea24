//! The deferred lighting pass: one full-screen triangle into the HDR target
//! (cleared to the sky first). The stencil test (equal to the G-buffer
//! pass's geometry value) skips sky pixels before shading. Each shaded
//! pixel loads its albedo, normal and emissive texels and its depth (the
//! G-buffer targets and the depth surface read as `tex` at the very
//! addresses the G-buffer pass wrote as `rt` and `z`), reconstructs its
//! world position, samples the shadow map and applies the sun.

use gfxcache_trace::RecordSink;

use crate::math::{Mat4, Vec3};
use crate::pipeline::{FragmentOutput, FragmentShader, Fragments};
use crate::sampler::TexView;
use crate::scene::Light;
use crate::state::{CompareFunc, StencilFace, StencilOp, StencilState};
use crate::target::{ColorTarget, DepthTarget};

use super::gbuffer::GEOMETRY;
use super::shaders::{light, shadow_factor, unit, world_of, Program, ShadowLookup};
use super::{fullscreen, screen_state, Counted, FrameRenderer, View};

struct Lighting<'a> {
    albedo: &'a ColorTarget,
    normal: &'a ColorTarget,
    emissive: &'a ColorTarget,
    depth: &'a DepthTarget,
    shadow: Option<ShadowLookup<'a>>,
    light: &'a Light,
    inv_vp: Mat4,
    width: u32,
    height: u32,
}

impl FragmentShader for Lighting<'_> {
    fn shade(&self, frag: &mut Fragments<'_>, out: &mut FragmentOutput) {
        let px = frag.pixels();
        let a = frag.load(TexView::Color(self.albedo), &px);
        let n = frag.load(TexView::Color(self.normal), &px);
        let e = frag.load(TexView::Color(self.emissive), &px);
        let d = frag.load(TexView::Depth(self.depth), &px);
        let world: [Vec3; 4] = std::array::from_fn(|i| {
            world_of(
                &self.inv_vp,
                px[i][0],
                px[i][1],
                d[i][0],
                self.width,
                self.height,
            )
        });
        let s = shadow_factor(frag, self.shadow.as_ref(), &world);
        for i in 0..4 {
            let normal = unit(Vec3::new(n[i][0], n[i][1], n[i][2]));
            let c = light(
                self.light,
                [a[i][0], a[i][1], a[i][2]],
                normal,
                s[i],
                [e[i][0], e[i][1], e[i][2]],
            );
            out.color[0][i] = [c[0], c[1], c[2], 1.0];
        }
    }
}

pub(super) fn run<S: RecordSink>(r: &mut FrameRenderer<'_>, v: &View, sink: &mut Counted<'_, S>) {
    let (hdr, depth) = (r.t.hdr, r.t.depth);
    let sky = r.scene.sky;
    r.pipeline
        .clear_color(hdr, [sky[0], sky[1], sky[2], 1.0], sink);
    let [g0, g1, g2] = r.t.gbuf;
    let (albedo, normal, emissive) = (r.lend_color(g0), r.lend_color(g1), r.lend_color(g2));
    // The depth buffer stays bound for the stencil test, so the shader reads
    // a copy (same surface, same addresses).
    let depth_copy = r.pipeline.depth(depth).clone();
    let shadow = r.passes.shadow.then(|| r.lend_depth(r.t.shadow));
    let shader = Lighting {
        albedo: &albedo,
        normal: &normal,
        emissive: &emissive,
        depth: &depth_copy,
        shadow: shadow.as_ref().map(|map| ShadowLookup {
            map,
            light_vp: v.light_vp,
        }),
        light: &r.scene.light,
        inv_vp: v.inv_vp,
        width: r.cfg.width,
        height: r.cfg.height,
    };
    let state = screen_state().with_stencil(StencilState::both(
        GEOMETRY,
        StencilFace::new(CompareFunc::Equal, StencilOp::Keep),
    ));
    let slot = r.fullscreen_slot(0);
    fullscreen(
        &mut r.pipeline,
        &r.gpu,
        &[hdr],
        Some(depth),
        state,
        &shader,
        Program::Lighting,
        slot,
        sink,
    );
    r.pipeline.replace_color(g0, albedo);
    r.pipeline.replace_color(g1, normal);
    r.pipeline.replace_color(g2, emissive);
    if let Some(t) = shadow {
        r.pipeline.replace_depth(r.t.shadow, t);
    }
}
