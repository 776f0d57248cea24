//! The reflection pass (render-to-texture): the opaque scene mirrored about
//! the mirror plane, at `reflection_scale` of the screen, into an RGBA16F
//! colour target with its own D32F depth, cleared to the sky. Reflective
//! instances (the mirror itself) are left out; pixels whose original lies
//! below the plane are discarded. Lit without shadows.

use gfxcache_trace::RecordSink;

use super::shaders::{inverse, MaterialShader, Mode, Program};
use super::{
    material_state, mirror_matrix, submit_instances, Counted, FrameRenderer, InstancePass, PassIo,
    View,
};

pub(super) fn run<S: RecordSink>(
    r: &mut FrameRenderer<'_>,
    v: &View,
    io: &PassIo,
    sink: &mut Counted<'_, S>,
) {
    let scene = r.scene;
    let Some(mirror) = scene.mirror else {
        return;
    };
    let color = io.target();
    let depth = io
        .depth
        .expect("checked graph: the reflection has a depth target");
    let sky = scene.sky;
    r.pipeline
        .clear_color(color, [sky[0], sky[1], sky[2], 1.0], &mut |x| {
            sink.record(x)
        });
    r.pipeline.clear_depth(depth, 1.0, 0, sink);
    let (w, h) = {
        let t = r.pipeline.color(color);
        (t.width(), t.height())
    };
    let vp = v.vp * mirror_matrix(&mirror);
    let inv_vp = inverse(&v.vp);
    let drawn: Vec<usize> = v
        .opaque
        .iter()
        .copied()
        .filter(|&i| !scene.material_of(&scene.instances[i]).reflective)
        .collect();
    let shaders: Vec<MaterialShader> = drawn
        .iter()
        .map(|&i| MaterialShader {
            mirror: Some(mirror.height),
            ..MaterialShader::for_instance(
                Mode::Reflection,
                scene,
                &r.gpu,
                r.cfg.samplers(),
                &scene.instances[i],
                inv_vp,
                (w, h),
            )
        })
        .collect();
    let target = [color];
    submit_instances(
        &mut r.pipeline,
        &r.gpu,
        scene,
        &drawn,
        &shaders,
        InstancePass {
            vp,
            color: &target,
            depth: Some(depth),
            program: &|_| Program::Reflection,
            state: &|m| material_state(m, true),
        },
        sink,
    );
}
