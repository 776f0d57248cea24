//! The transparent pass: blended materials back to front, lit like the
//! forward pass (with the shadow map), alpha-blended into the HDR target,
//! depth-tested against the main depth buffer without writing it.

use gfxcache_trace::RecordSink;

use crate::state::{Blend, CompareFunc};

use super::shaders::{MaterialShader, Mode, Program, ShadowLookup};
use super::{material_state, submit_instances, Counted, FrameRenderer, InstancePass, View};

pub(super) fn run<S: RecordSink>(r: &mut FrameRenderer<'_>, v: &View, sink: &mut Counted<'_, S>) {
    let (hdr, depth) = (r.t.hdr, r.t.depth);
    let shadow = r.passes.shadow.then(|| r.lend_depth(r.t.shadow));
    let scene = r.scene;
    let (w, h) = (r.cfg.width, r.cfg.height);
    let mut shaders = Vec::with_capacity(v.blended.len());
    for &i in &v.blended {
        let inst = &scene.instances[i];
        shaders.push(MaterialShader {
            shadow: shadow.as_ref().map(|map| ShadowLookup {
                map,
                light_vp: v.light_vp,
            }),
            ..MaterialShader::for_instance(
                Mode::Transparent,
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
        &v.blended,
        &shaders,
        InstancePass {
            vp: v.vp,
            color: &color,
            depth,
            program: Program::Transparent,
            state: &|m| {
                material_state(m, false)
                    .with_depth(CompareFunc::Less, false)
                    .with_blend(Blend::Alpha)
            },
        },
        sink,
    );
    drop(shaders);
    if let Some(t) = shadow {
        r.pipeline.replace_depth(r.t.shadow, t);
    }
}
