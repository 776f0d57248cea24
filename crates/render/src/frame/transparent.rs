//! The transparent pass: blended materials back to front, lit like the
//! forward pass (with the shadow map), alpha-blended into the HDR target,
//! depth-tested against the main depth buffer without writing it.

use gfxcache_trace::Record;

use crate::pipeline::Draw;
use crate::state::{Blend, CompareFunc};

use super::shaders::{MaterialShader, Mode, Program, ShadowLookup};
use super::{material_state, submit, Counted, FrameRenderer, View};

pub(super) fn run<S: FnMut(Record)>(
    r: &mut FrameRenderer<'_>,
    v: &View,
    sink: &mut Counted<'_, S>,
) {
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
    let draws: Vec<Draw> = v
        .blended
        .iter()
        .zip(&shaders)
        .map(|(&i, shader)| {
            let inst = &scene.instances[i];
            let mat = &scene.materials[scene.meshes[inst.mesh].material];
            let mesh = &r.gpu.meshes[inst.mesh];
            Draw {
                indices: &mesh.indices,
                vertices: &mesh.vertices,
                mvp: v.vp * inst.transform,
                state: material_state(mat, false)
                    .with_depth(CompareFunc::Less, false)
                    .with_blend(Blend::Alpha),
                color: &color,
                depth: Some(depth),
                shader,
            }
        })
        .collect();
    let programs: Vec<_> = v
        .blended
        .iter()
        .map(|&i| (Program::Transparent, i as u64))
        .collect();
    submit(&mut r.pipeline, &r.gpu.heap, &draws, &programs, sink);
    drop(draws);
    drop(shaders);
    if let Some(t) = shadow {
        r.pipeline.replace_depth(r.t.shadow, t);
    }
}
