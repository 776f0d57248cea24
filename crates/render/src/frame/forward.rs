//! The forward main pass: opaque and masked instances front to back, lit
//! directly (sun, shadow maps, reflection) into one colour target, which
//! is first cleared to the sky, with a depth buffer. With more lights than
//! the sun each draw runs the many-light program and reads the frame's
//! light constants (the scenes carry one sun, so they add no light).
//! With `blended` the blended instances and then the particles follow,
//! back to front, blended without depth writes, in the same pass: a
//! mobile engine's one main pass, which a tile-based GPU renders as one
//! render pass (its colour never leaves the chip in between). With `ui`
//! the interface follows in the same pass (see [`super::ui`]).

use gfxcache_trace::RecordSink;

use super::shaders::{MaterialShader, Mode, Program};
use super::shadow::LentShadows;
use super::ui::{self, Hud};
use super::{instance_draws, material_state, submit, Counted, FrameRenderer, InstancePass};
use super::{PassIo, View};
use crate::graph::Role;
use crate::scene::{AlphaMode, Material};
use crate::state::{Blend, CompareFunc};

/// What a forward pass draws besides the opaque instances.
pub(super) struct Forward {
    /// Lights besides the sun.
    pub lights: u32,
    /// Then the blended instances and the particles.
    pub blended: bool,
    /// Then the interface (the scene's own, else the HUD of this many
    /// quads).
    pub ui: Option<u32>,
}

pub(super) fn run<S: RecordSink>(
    r: &mut FrameRenderer<'_>,
    v: &View,
    io: &PassIo,
    f: Forward,
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
    if f.blended {
        drawn.extend(&v.blended);
        drawn.extend(&v.particles);
    }
    let mut shaders = Vec::with_capacity(drawn.len() + v.interface.len());
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
    if f.ui.is_some() {
        for &i in &v.interface {
            drawn.push(i);
            shaders.push(ui::interface_shader(scene, &r.gpu, &r.cfg, v, io, i));
        }
    }
    let target = [color];
    let opaque = if f.lights > 0 {
        Program::ForwardLights
    } else {
        Program::Forward
    };
    let program = |m: &Material| match (m.interface, m.alpha, m.particle) {
        (true, _, _) => Program::Ui,
        (false, AlphaMode::Blend, true) => Program::Particles,
        (false, AlphaMode::Blend, false) => Program::Transparent,
        _ => opaque,
    };
    let state = |m: &Material| {
        let s = material_state(m, false);
        if m.interface {
            ui::interface_state(m)
        } else if m.alpha == AlphaMode::Blend {
            s.with_depth(CompareFunc::Less, false)
                .with_blend(Blend::Alpha)
        } else {
            s
        }
    };
    let pass = InstancePass {
        vp: v.vp,
        color: &target,
        depth: Some(depth),
        program: &program,
        state: &state,
    };
    let (mut draws, mut programs) = instance_draws(&r.gpu, scene, &drawn, &shaders, &pass);
    // A scene without an interface of its own gets the HUD, last.
    let hud =
        f.ui.filter(|_| v.interface.is_empty())
            .and_then(|quads| Hud::of(&r.gpu, quads));
    let hud_shader = hud.map(Hud::shader);
    if let (Some(hud), Some(shader)) = (hud, &hud_shader) {
        draws.push(hud.draw(shader, &target, Some(depth)));
        programs.push(ui::hud_program(r));
    }
    submit(&mut r.pipeline, &r.gpu.heap, &draws, &programs, sink);
    drop(draws);
    drop(shaders);
    drop(lookups);
    shadows.give_back(r);
    if let (Some(id), Some(t)) = (refl_id, refl) {
        r.pipeline.replace_color(id, t);
    }
}
