//! The transparent and particle passes: blended instances back to front,
//! lit like the forward pass (with the shadow maps), alpha-blended into
//! the colour target, depth-tested against the depth buffer without
//! writing it. Untextured blended materials (glass) show the refraction
//! copy through their tint when the pass reads one; particles fade where
//! they meet the scene when the pass reads the scene depth (soft
//! particles).

use gfxcache_trace::RecordSink;

use crate::graph::Role;
use crate::state::{Blend, CompareFunc};

use super::shaders::{MaterialShader, Mode, Program, SoftDepth};
use super::shadow::LentShadows;
use super::{material_state, submit_instances, Counted, FrameRenderer, InstancePass, PassIo, View};

pub(super) fn run<S: RecordSink>(
    r: &mut FrameRenderer<'_>,
    v: &View,
    io: &PassIo,
    particles: bool,
    sink: &mut Counted<'_, S>,
) {
    let (color, depth) = (io.target(), io.depth.expect("checked graph: depth target"));
    let instances = if particles { &v.particles } else { &v.blended };
    let shadows = LentShadows::take(r, io);
    let lookups = shadows.lookups();
    let refr_id = io.color_read(Role::Refraction);
    let refr = refr_id.map(|id| r.lend_color(id));
    // The depth buffer stays bound for the depth test: soft particles read
    // a copy (same surface, same addresses).
    let scene_depth = io
        .depth_read(Role::Depth)
        .map(|id| r.pipeline.depth(id).clone());
    let scene = r.scene;
    let (w, h) = (r.cfg.width, r.cfg.height);
    let mut shaders = Vec::with_capacity(instances.len());
    for &i in instances {
        let inst = &scene.instances[i];
        let s = MaterialShader::for_instance(
            Mode::Transparent,
            scene,
            &r.gpu,
            r.cfg.samplers(),
            inst,
            v.inv_vp,
            (w, h),
        );
        let glass = s.material.texture.is_none() && !particles;
        shaders.push(MaterialShader {
            shadows: &lookups,
            refraction: refr.as_ref().filter(|_| glass),
            soft: scene_depth.as_ref().map(|depth| SoftDepth {
                depth,
                near: v.camera.near,
                far: v.camera.far,
            }),
            encode: io.encode,
            ..s
        });
    }
    let target = [color];
    let program = if particles {
        Program::Particles
    } else {
        Program::Transparent
    };
    submit_instances(
        &mut r.pipeline,
        &r.gpu,
        scene,
        instances,
        &shaders,
        InstancePass {
            vp: v.vp,
            color: &target,
            depth: Some(depth),
            program: &|m| Program::for_material(m, program),
            state: &|m| {
                material_state(m, false)
                    .with_depth(CompareFunc::Less, false)
                    .with_blend(Blend::Alpha)
            },
        },
        sink,
    );
    drop(shaders);
    drop(lookups);
    shadows.give_back(r);
    if let (Some(id), Some(t)) = (refr_id, refr) {
        r.pipeline.replace_color(id, t);
    }
}
