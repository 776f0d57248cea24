//! The forward main pass: opaque and masked instances front to back, lit
//! directly (sun, shadow maps, reflection) into one colour target, which
//! is first cleared to the sky, with a depth buffer. With more lights than
//! the sun each draw runs the many-light program and reads the frame's
//! light constants (the scenes carry one sun, so they add no light).
//! With `blended` the blended instances and then the particles follow,
//! back to front, blended without depth writes, in the same pass: a
//! mobile engine's one main pass, which a tile-based GPU renders as one
//! render pass (its colour never leaves the chip in between).

use gfxcache_trace::RecordSink;

use super::shaders::{MaterialShader, Mode, Program};
use super::shadow::LentShadows;
use super::{material_state, submit_instances, Counted, FrameRenderer, InstancePass, PassIo, View};
use crate::graph::Role;
use crate::scene::{AlphaMode, Material};
use crate::state::{Blend, CompareFunc};

pub(super) fn run<S: RecordSink>(
    r: &mut FrameRenderer<'_>,
    v: &View,
    io: &PassIo,
    lights: u32,
    blended: bool,
    sink: &mut Counted<'_, S>,
) {
    let (color, depth) = (io.target(), io.depth.expect("checked graph: depth target"));
    let sky = r.scene.sky;
    let clear = if io.encode {
        sky.map(super::shaders::encode)
    } else {
        sky
    };
    r.pipeline
        .clear_color(color, [clear[0], clear[1], clear[2], 1.0], sink);
    r.pipeline.clear_depth(depth, 1.0, 0, sink);
    let refl_id = io.color_read(Role::Reflection);
    let refl = refl_id.map(|id| r.lend_color(id));
    let shadows = LentShadows::take(r, io);
    let lookups = shadows.lookups();
    let scene = r.scene;
    let (w, h) = (r.cfg.width, r.cfg.height);
    let mut drawn = v.opaque.clone();
    if blended {
        drawn.extend(&v.blended);
        drawn.extend(&v.particles);
    }
    let mut shaders = Vec::with_capacity(drawn.len());
    for &i in &drawn {
        let inst = &scene.instances[i];
        let material = scene.material_of(inst);
        let mode = if material.alpha == AlphaMode::Blend {
            Mode::Transparent
        } else {
            Mode::Forward
        };
        shaders.push(MaterialShader {
            shadows: &lookups,
            reflection: refl.as_ref(),
            encode: io.encode,
            ..MaterialShader::for_instance(
                mode,
                scene,
                &r.gpu,
                &r.cfg.sampler,
                inst,
                v.inv_vp,
                (w, h),
            )
        });
    }
    let target = [color];
    let opaque = if lights > 0 {
        Program::ForwardLights
    } else {
        Program::Forward
    };
    let program = |m: &Material| match (m.alpha, m.particle) {
        (AlphaMode::Blend, true) => Program::Particles,
        (AlphaMode::Blend, false) => Program::Transparent,
        _ => opaque,
    };
    submit_instances(
        &mut r.pipeline,
        &r.gpu,
        scene,
        &drawn,
        &shaders,
        InstancePass {
            vp: v.vp,
            color: &target,
            depth: Some(depth),
            program: &program,
            state: &|m| {
                let s = material_state(m, false);
                if m.alpha == AlphaMode::Blend {
                    s.with_depth(CompareFunc::Less, false)
                        .with_blend(Blend::Alpha)
                } else {
                    s
                }
            },
        },
        sink,
    );
    drop(shaders);
    drop(lookups);
    shadows.give_back(r);
    if let (Some(id), Some(t)) = (refl_id, refl) {
        r.pipeline.replace_color(id, t);
    }
}
