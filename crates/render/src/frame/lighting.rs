//! The deferred lighting pass: one full-screen triangle into the HDR target
//! (cleared to the sky first, or left for a sky pass). The stencil test (equal to the G-buffer
//! pass's geometry value) skips sky pixels before shading. Each shaded
//! pixel loads its albedo, normal and emissive texels and its depth (the
//! G-buffer targets and the depth surface read as `tex` at the very
//! addresses the G-buffer pass wrote as `rt` and `z`), reconstructs its
//! world position, samples the shadow maps (and the ambient occlusion,
//! which darkens the albedo) and applies the sun. A thin G-buffer has no
//! emissive target.

use gfxcache_trace::RecordSink;

use crate::graph::Role;
use crate::math::{Mat4, Vec3};
use crate::pipeline::{FragmentOutput, FragmentShader, Fragments, Opt, Options};
use crate::sampler::{Sampler, TexView};
use crate::scene::Light;
use crate::state::{CompareFunc, StencilFace, StencilOp, StencilState};
use crate::target::{ColorFormat, ColorTarget, DepthTarget};

use super::forward::{Drawn, SceneDraws};
use super::gbuffer::GEOMETRY;
use super::shaders::{encode, light, shadow_factor, unit, world_of, Program, ShadowLookup};
use super::shadow::LentShadows;
use super::ui;
use super::{centres, screen_state, submit, Counted, FrameRenderer, PassIo, View};
use crate::pipeline::Draw;

struct Lighting<'a> {
    albedo: &'a ColorTarget,
    normal: &'a ColorTarget,
    emissive: Option<&'a ColorTarget>,
    ao: Option<&'a ColorTarget>,
    depth: &'a DepthTarget,
    shadows: &'a [ShadowLookup<'a>],
    light: &'a Light,
    inv_vp: Mat4,
    width: u32,
    height: u32,
    /// The normal target is unorm: normals are stored as `n / 2 + 1 / 2`.
    packed_normal: bool,
    encode: bool,
    /// The ambient occlusion's sampler ([`Samplers::screen`](super::Samplers::screen)).
    screen: Sampler,
}

impl FragmentShader for Lighting<'_> {
    fn options(&self) -> Options {
        Options::NONE
            .with(Opt::Encode, self.encode)
            .with(Opt::PackNormal, self.packed_normal)
            .with(Opt::Shadowed, !self.shadows.is_empty())
            .with(Opt::Cascades, self.shadows.len() > 1)
    }

    fn shade(&self, frag: &mut Fragments<'_>, out: &mut FragmentOutput) {
        let px = frag.pixels();
        let a = frag.load(TexView::Color(self.albedo), &px);
        let n = frag.load(TexView::Color(self.normal), &px);
        let e = match self.emissive {
            Some(t) => frag.load(TexView::Color(t), &px),
            None => {
                frag.skip_request();
                [[0.0; 4]; 4]
            }
        };
        let d = frag.load(TexView::Depth(self.depth), &px);
        let ao = match self.ao {
            Some(t) => {
                let uv = centres(&px, self.width, self.height);
                frag.sample_view(TexView::Color(t), &self.screen, &uv)
                    .map(|c| c[0])
            }
            None => {
                frag.skip_request();
                [1.0; 4]
            }
        };
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
        let s = shadow_factor(frag, self.shadows, &world);
        for i in 0..4 {
            let m = if self.packed_normal {
                n[i].map(|v| v * 2.0 - 1.0)
            } else {
                n[i]
            };
            let normal = unit(Vec3::new(m[0], m[1], m[2]));
            let albedo = [a[i][0] * ao[i], a[i][1] * ao[i], a[i][2] * ao[i]];
            let mut c = light(
                self.light,
                albedo,
                normal,
                s[i],
                [e[i][0], e[i][1], e[i][2]],
            );
            if self.encode {
                c = c.map(encode);
            }
            out.color[0][i] = [c[0], c[1], c[2], 1.0];
        }
    }
}

/// The G-buffer lit: `clear` first clears the target to the sky (the
/// stencil test leaves sky pixels alone), else a sky pass fills them; then
/// what `then` draws of the scene (no opaque instances), in the same pass.
pub(super) fn run<S: RecordSink>(
    r: &mut FrameRenderer<'_>,
    v: &View,
    io: &PassIo,
    clear: bool,
    then: Drawn,
    sink: &mut Counted<'_, S>,
) {
    let (hdr, depth) = (io.target(), io.depth.expect("checked graph: depth target"));
    if clear {
        let sky = r.scene.sky;
        let sky = if io.encode { sky.map(encode) } else { sky };
        r.pipeline
            .clear_color(hdr, [sky[0], sky[1], sky[2], 1.0], sink);
    }
    let need = |role| io.color_read(role).expect("checked graph: a G-buffer read");
    let (g0, g1) = (need(Role::Albedo), need(Role::Normal));
    let g2 = io.color_read(Role::Emissive);
    let ao_id = io.color_read(Role::Ao);
    let (albedo, normal) = (r.lend_color(g0), r.lend_color(g1));
    let emissive = g2.map(|id| r.lend_color(id));
    let ao = ao_id.map(|id| r.lend_color(id));
    let packed_normal = normal.format() == ColorFormat::Rgba8;
    // The depth buffer stays bound for the stencil test, so the shader reads
    // a copy (same surface, same addresses).
    let depth_id = io.depth_read(Role::Depth).unwrap_or(depth);
    let depth_copy = r.pipeline.depth(depth_id).clone();
    let shadows = LentShadows::take(r, io);
    let lookups = shadows.lookups();
    let shader = Lighting {
        albedo: &albedo,
        normal: &normal,
        emissive: emissive.as_ref(),
        ao: ao.as_ref(),
        depth: &depth_copy,
        shadows: &lookups,
        light: &r.scene.light,
        inv_vp: v.inv_vp,
        width: r.cfg.width,
        height: r.cfg.height,
        packed_normal,
        encode: io.encode,
        screen: r.cfg.samplers().screen,
    };
    let state = screen_state().with_stencil(StencilState::both(
        GEOMETRY,
        StencilFace::new(CompareFunc::Equal, StencilOp::Keep),
    ));
    let slot = r.fullscreen_slot(0);
    let hud_slot = ui::hud_program(r);
    let target = [hdr];
    let scene = r.scene;
    let drawn = SceneDraws::new(
        scene, &r.gpu, &r.cfg, hud_slot, v, io, &lookups, None, &then,
    );
    let mut draws = vec![Draw {
        indices: &r.gpu.fullscreen_ib,
        vertices: &r.gpu.fullscreen_vb,
        mvp: Mat4::IDENTITY,
        state,
        color: &target,
        depth: Some(depth),
        shader: &shader,
        attributes: Program::Lighting.attributes(),
        work: Program::Lighting.work(0),
    }];
    let mut programs = vec![(Program::Lighting, slot)];
    drawn.append(v.vp, &target, depth, &mut draws, &mut programs);
    submit(&mut r.pipeline, &r.gpu.heap, &draws, &programs, sink);
    drop(draws);
    drop(drawn);
    drop(lookups);
    shadows.give_back(r);
    r.pipeline.replace_color(g0, albedo);
    r.pipeline.replace_color(g1, normal);
    if let (Some(id), Some(t)) = (g2, emissive) {
        r.pipeline.replace_color(id, t);
    }
    if let (Some(id), Some(t)) = (ao_id, ao) {
        r.pipeline.replace_color(id, t);
    }
}
