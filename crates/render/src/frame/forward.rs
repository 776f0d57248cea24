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

use super::shaders::{MaterialShader, Mode, Program, ShadowLookup};
use super::shadow::LentShadows;
use super::ui::{self, Hud, HudShader};
use super::upload::GpuScene;
use super::{instance_draws, material_state, submit, Counted, FrameConfig, FrameRenderer};
use super::{InstancePass, PassIo, View};
use crate::graph::Role;
use crate::math::Mat4;
use crate::pipeline::{ColorId, DepthId, Draw};
use crate::scene::{AlphaMode, Material, Scene};
use crate::state::{Blend, CompareFunc};
use crate::target::ColorTarget;

/// What a pass draws of the scene into its target, after anything of its
/// own (the deferred light pass's full-screen draw).
pub(super) struct Drawn {
    /// The opaque and masked instances, lit forward by the sun and `lights`
    /// more lights.
    pub opaque: bool,
    pub lights: u32,
    /// Then the blended instances and the particles.
    pub blended: bool,
    /// Then the interface (the scene's own, else the HUD of this many
    /// quads).
    pub ui: Option<u32>,
}

/// The instances of a [`Drawn`] with their shaders, and the HUD's, owned
/// here so that the draws can borrow them.
pub(super) struct SceneDraws<'a> {
    scene: &'a Scene,
    gpu: &'a GpuScene,
    /// The HUD's program and constant slot.
    hud_slot: (Program, u64),
    drawn: Vec<usize>,
    shaders: Vec<MaterialShader<'a>>,
    hud: Option<(&'a Hud, HudShader<'a>)>,
    opaque_program: Program,
}

impl<'a> SceneDraws<'a> {
    /// Lit with `shadows` (and `reflection`, for reflective materials).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn new(
        scene: &'a Scene,
        gpu: &'a GpuScene,
        cfg: &'a FrameConfig,
        hud_slot: (Program, u64),
        v: &View,
        io: &PassIo,
        shadows: &'a [ShadowLookup<'a>],
        reflection: Option<&'a ColorTarget>,
        d: &Drawn,
    ) -> SceneDraws<'a> {
        let mut drawn = Vec::new();
        if d.opaque {
            drawn.extend(&v.opaque);
        }
        if d.blended {
            drawn.extend(&v.blended);
            drawn.extend(&v.particles);
        }
        let mut shaders = Vec::with_capacity(drawn.len() + v.interface.len());
        for &i in &drawn {
            let inst = &scene.instances[i];
            let mode = if scene.material_of(inst).alpha == AlphaMode::Blend {
                Mode::Transparent
            } else {
                Mode::Forward
            };
            shaders.push(MaterialShader {
                shadows,
                reflection,
                encode: io.encode,
                ..MaterialShader::for_instance(
                    mode,
                    scene,
                    gpu,
                    cfg.samplers(),
                    inst,
                    v.inv_vp,
                    (cfg.width, cfg.height),
                )
            });
        }
        if d.ui.is_some() {
            for &i in &v.interface {
                drawn.push(i);
                shaders.push(ui::interface_shader(scene, gpu, cfg, v, io, i));
            }
        }
        // A scene without an interface of its own gets the HUD, last.
        let hud =
            d.ui.filter(|_| v.interface.is_empty())
                .and_then(|quads| Hud::of(gpu, quads))
                .map(|h| (h, h.shader(cfg.samplers().screen)));
        let opaque_program = if d.lights > 0 {
            Program::ForwardLights
        } else {
            Program::Forward
        };
        SceneDraws {
            scene,
            gpu,
            hud_slot,
            drawn,
            shaders,
            hud,
            opaque_program,
        }
    }

    /// The draws into `color` with `depth` under view-projection `vp`,
    /// appended to `draws` with their programs and constant slots.
    pub(super) fn append(
        &'a self,
        vp: Mat4,
        color: &'a [ColorId],
        depth: DepthId,
        draws: &mut Vec<Draw<'a>>,
        programs: &mut Vec<(Program, u64)>,
    ) {
        let opaque = self.opaque_program;
        let program = |m: &Material| {
            let own = match (m.interface, m.alpha, m.particle) {
                (true, _, _) => Program::Ui,
                (false, AlphaMode::Blend, true) => Program::Particles,
                (false, AlphaMode::Blend, false) => Program::Transparent,
                _ => opaque,
            };
            Program::for_material(m, own)
        };
        let state = |m: &Material| {
            if m.interface {
                ui::interface_state(m)
            } else if m.alpha == AlphaMode::Blend {
                material_state(m, false)
                    .with_depth(CompareFunc::Less, false)
                    .with_blend(Blend::Alpha)
            } else {
                material_state(m, false)
            }
        };
        let pass = InstancePass {
            vp,
            color,
            depth: Some(depth),
            program: &program,
            state: &state,
        };
        let (d, p) = instance_draws(self.gpu, self.scene, &self.drawn, &self.shaders, &pass);
        draws.extend(d);
        programs.extend(p);
        if let Some((hud, shader)) = &self.hud {
            draws.push(hud.draw(shader, color, Some(depth)));
            programs.push(self.hud_slot);
        }
    }
}

pub(super) fn run<S: RecordSink>(
    r: &mut FrameRenderer<'_>,
    v: &View,
    io: &PassIo,
    d: Drawn,
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
    let hud_slot = ui::hud_program(r);
    let scene = r.scene;
    let target = [color];
    let drawn = SceneDraws::new(
        scene,
        &r.gpu,
        &r.cfg,
        hud_slot,
        v,
        io,
        &lookups,
        refl.as_ref(),
        &d,
    );
    let (mut draws, mut programs) = (Vec::new(), Vec::new());
    drawn.append(v.vp, &target, depth, &mut draws, &mut programs);
    submit(&mut r.pipeline, &r.gpu.heap, &draws, &programs, sink);
    drop(draws);
    drop(drawn);
    drop(lookups);
    shadows.give_back(r);
    if let (Some(id), Some(t)) = (refl_id, refl) {
        r.pipeline.replace_color(id, t);
    }
}
