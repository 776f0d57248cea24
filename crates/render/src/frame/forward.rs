//! The forward main pass (deferred off): opaque and masked instances front
//! to back, lit directly (sun, shadow map, reflection) into the HDR target,
//! which is first cleared to the sky, with the D24S8 depth buffer.

use gfxcache_trace::RecordSink;

use super::shaders::{MaterialShader, Mode, Program, ShadowLookup};
use super::{material_state, submit_instances, Counted, FrameRenderer, InstancePass, View};

pub(super) fn run<S: RecordSink>(r: &mut FrameRenderer<'_>, v: &View, sink: &mut Counted<'_, S>) {
    let (hdr, depth) = (r.t.hdr, r.t.depth);
    let sky = r.scene.sky;
    r.pipeline
        .clear_color(hdr, [sky[0], sky[1], sky[2], 1.0], sink);
    r.pipeline.clear_depth(depth, 1.0, 0, sink);
    let refl = v.reflection.then(|| r.lend_color(r.t.refl));
    let shadow = r.passes.shadow.then(|| r.lend_depth(r.t.shadow));
    let scene = r.scene;
    let (w, h) = (r.cfg.width, r.cfg.height);
    let mut shaders = Vec::with_capacity(v.opaque.len());
    for &i in &v.opaque {
        let inst = &scene.instances[i];
        shaders.push(MaterialShader {
            shadow: shadow.as_ref().map(|map| ShadowLookup {
                map,
                light_vp: v.light_vp,
            }),
            reflection: refl.as_ref(),
            ..MaterialShader::for_instance(
                Mode::Forward,
                scene,
                &r.gpu,
                &r.cfg.sampler,
                inst,
                v.inv_vp,
                (w, h),
            )
        });
    }
    let color = [hdr];
    submit_instances(
        &mut r.pipeline,
        &r.gpu,
        scene,
        &v.opaque,
        &shaders,
        InstancePass {
            vp: v.vp,
            color: &color,
            depth,
            program: Program::Forward,
            state: &|m| material_state(m, false),
        },
        sink,
    );
    drop(shaders);
    if let Some(t) = refl {
        r.pipeline.replace_color(r.t.refl, t);
    }
    if let Some(t) = shadow {
        r.pipeline.replace_depth(r.t.shadow, t);
    }
}
