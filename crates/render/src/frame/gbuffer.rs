//! The G-buffer pass (deferred main pass): opaque and masked instances front
//! to back into two or three render targets (albedo, world normal (packed
//! into `[0, 1]` in a unorm target), and emissive + reflection) and the
//! D24S8 depth buffer, whose
//! stencil is set to 1 wherever geometry lands (the lighting pass skips the
//! rest). The G-buffer colour targets are not cleared: the stencil says
//! which pixels are valid, as engines do to save the bandwidth.

use gfxcache_trace::RecordSink;

use crate::state::{CompareFunc, StencilFace, StencilOp, StencilState};

use super::shaders::{MaterialShader, Mode, Program};
use super::{material_state, submit_instances, Counted, FrameRenderer, InstancePass, PassIo, View};
use crate::graph::Role;
use crate::target::ColorFormat;

/// Stencil value of geometry pixels.
pub(super) const GEOMETRY: u8 = 1;

pub(super) fn run<S: RecordSink>(
    r: &mut FrameRenderer<'_>,
    v: &View,
    io: &PassIo,
    sink: &mut Counted<'_, S>,
) {
    let depth = io
        .depth
        .expect("checked graph: the G-buffer has a depth target");
    r.pipeline.clear_depth(depth, 1.0, 0, sink);
    let refl_id = io.color_read(Role::Reflection);
    let refl = refl_id.map(|id| r.lend_color(id));
    let targets = io.color.clone();
    let pack_normal = r.pipeline.color(targets[1]).format() == ColorFormat::Rgba8;
    let scene = r.scene;
    let (w, h) = (r.cfg.width, r.cfg.height);
    let stencil = StencilState::both(
        GEOMETRY,
        StencilFace::new(CompareFunc::Always, StencilOp::Replace),
    );
    // Nothing reads the G-buffer colour where the stencil says no geometry
    // landed: a tile-based GPU need not load it.
    for &id in &targets {
        r.pipeline.discard_color(id);
    }
    let mut shaders = Vec::with_capacity(v.opaque.len());
    for &i in &v.opaque {
        let inst = &scene.instances[i];
        shaders.push(MaterialShader {
            reflection: refl.as_ref(),
            pack_normal,
            ..MaterialShader::for_instance(
                Mode::GBuffer,
                scene,
                &r.gpu,
                r.cfg.samplers(),
                inst,
                v.inv_vp,
                (w, h),
            )
        });
    }
    submit_instances(
        &mut r.pipeline,
        &r.gpu,
        scene,
        &v.opaque,
        &shaders,
        InstancePass {
            vp: v.vp,
            color: &targets,
            depth: Some(depth),
            program: &|_| Program::GBuffer,
            state: &|m| material_state(m, false).with_stencil(stencil),
        },
        sink,
    );
    if let (Some(id), Some(t)) = (refl_id, refl) {
        r.pipeline.replace_color(id, t);
    }
}
