//! A whole frame, the way a game renders one: the passes of a
//! [`FrameGraph`] in order, each a set of draws through the immediate-mode
//! [`Pipeline`] (or tile by tile), with render targets that later passes
//! read back as textures.
//!
//! [`FrameRenderer::render`] emits, for frame `i` of `n`: `FrameBegin`, the
//! graph's passes in order (each between `PassBegin`/`PassEnd` with its
//! name and [`PassKind`]), `FrameEnd`. A pass with nothing to draw emits
//! nothing: the reflection without a mirror plane, transparent or particle
//! passes without such instances. The graph comes from the configuration's
//! [`Preset`], else the scene's own graph, else the scene's preset
//! ([`crate::graph`] describes the ops and the presets).
//!
//! The classic preset is the renderer's original frame:
//!
//! | pass (name)          | kind              | targets written (format)                    | reads as `tex`                         | streams |
//! |----------------------|-------------------|---------------------------------------------|----------------------------------------|---------|
//! | `shadow`             | Shadow            | shadow map (D32F, 2048² at 1080 lines)      | masked materials' textures             | vidx vtx hiz z (tex) shader |
//! | `reflection`         | RenderToTexture   | reflection (RGBA16F) + depth (D32F), `reflection_scale` of the screen | material textures | vidx vtx hiz z rt tex shader |
//! | `gbuffer` (deferred) | GBuffer           | albedo (RGBA8), normal (RGBA16F), emissive+reflection (RGBA16F), depth D24S8 with stencil = 1 on geometry | material textures, shadow-less; reflection target | vidx vtx hiz z stc rt tex shader |
//! | `lighting` (deferred)| Lighting          | HDR colour (RGBA16F), cleared to the sky    | the three G-buffer targets, the depth surface, the shadow map | vidx vtx stc rt tex shader |
//! | `forward` (forward)  | Forward           | HDR colour (RGBA16F) + depth D24S8          | material textures, shadow map, reflection | vidx vtx hiz z stc (clear only) rt tex shader |
//! | `transparent`        | Transparent       | HDR colour, blended (depth test, no writes) | material textures, shadow map          | vidx vtx hiz z rt tex shader |
//! | `post`               | Post              | bloom chain (RGBA16F, halving `bloom_levels` times) | HDR colour, bloom levels         | vidx vtx rt tex shader |
//! | `display`            | Display           | the displayable RGBA8 surface (`display` stream) | HDR colour (+ bloom level 0 with post) | vidx vtx display tex shader |
//!
//! - **Shadow**: depth only, from the sun, with an orthographic projection
//!   fitted around the scene's bounding sphere (one cascade) or around a
//!   slice of the camera's depth range (cascades); every opaque and masked
//!   instance. Later passes compare against it with one point tap per
//!   pixel, in the nearest cascade that holds the pixel.
//! - **Reflection**: the opaque scene mirrored about the [`Mirror`](crate::scene::Mirror) plane
//!   (geometry transformed by the reflection, winding flipped), lit without
//!   shadows; pixels whose original lay below the plane are discarded.
//!   Reflective materials sample it at their screen position. Skipped
//!   without a mirror.
//! - **Main**: opaque and masked materials front to back (masked ones
//!   discard by alpha, which forces late Z). Deferred writes the G-buffer
//!   and marks geometry pixels in the stencil; forward lights directly.
//! - **Lighting**: one full-screen triangle; the stencil test (equal 1)
//!   skips sky pixels; it loads albedo, normal, emissive and depth at its
//!   pixel (the depth surface's own addresses: the blocks written as `z`
//!   are read as `tex`), reconstructs the world position and samples the
//!   shadow map.
//! - **Transparent**: blended materials back to front (instance centres'
//!   view depth), alpha blending, depth test without writes.
//! - **Post**: bright pass (HDR above 1) into half resolution, a bilinear
//!   downsample chain, then additive upsampling back to level 0.
//! - **Display**: the only writer of the displayable surface. It always
//!   runs (with post off it is a plain copy): tone mapping (Reinhard, plus
//!   bloom with post on) and gamma encoding of the HDR colour into the
//!   RGBA8 display target, one full-screen triangle, so every block of the
//!   display surface is written exactly once per frame, as `display`. That
//!   surface is the picture ([`FrameRenderer::picture`]).
//!
//! Every draw also reads its shader's code and a constant block (`shader`
//! stream), see [`shaders`]. All targets are allocated once, when the
//! renderer is made, after the scene's buffers and textures, so every frame
//! uses the same addresses, as a game's render targets do.
//!
//! **Threads.** With [`FrameConfig::threads`] of 2 or more, every draw of
//! more than 4096 triangles runs its front end (index fetch, post-transform
//! cache, rasterizer, stamp sort) on a scoped thread that fills a fixed set
//! of recycled batches of 256 triangles (bounded memory) a few batches
//! ahead, while this thread runs the back end (HiZ, depth/stencil, shading,
//! colour) on them in triangle order, sharing large batches of stamps out
//! to `threads` threads by bands of screen rows ([`Pipeline::set_threads`]).
//! The front end reads no target and owns all its state, and a band's
//! stamps touch only its own rows, so records and pixels are the same for
//! any thread count. The command line also runs the render caches on
//! another thread.
//!
//! **Tile-based mode.** With [`FrameConfig::tbr`] every pass's draws into
//! the same targets are one render pass (`submit` ->
//! [`Pipeline::draw_tiled`]; each full-screen draw, e.g. each bloom step,
//! is one of its own), rendered tile by tile with on-chip tile buffers:
//! clears cost nothing, targets are loaded at tile start unless cleared or
//! discarded (the G-buffer, the display target and the blend-free
//! full-screen steps are discarded: nothing reads their old contents),
//! colour is stored at tile end, and depth only for depth targets a later
//! pass samples or tests again (the shadow maps, the main depth buffer).
//! The pixels are those of immediate mode.

mod code;
mod config;
mod display;
mod draws;
mod effects;
mod forward;
mod gbuffer;
mod io;
mod lighting;
mod post;
mod program;
mod reflection;
mod samplers;
pub mod shaders;
mod shadow;
mod summary;
mod targets;
mod transparent;
mod ui;
pub mod upload;
mod view;

use gfxcache_trace::binned::BinnedPass;
use gfxcache_trace::RecordSink;

use crate::graph::{FrameGraph, Op, PassDesc, Preset, PresetParams};
use crate::pipeline::{ColorId, DepthId, Pipeline, TbrStats};
use crate::scene::{Passes, Scene};
use crate::storage::TooLarge;
use crate::surface::Allocator;
use crate::target::{ColorFormat, ColorTarget, DepthFormat, DepthTarget};

pub use config::{FrameConfig, FrameError, MAX_SIZE};
pub(crate) use draws::{
    centres, fullscreen, instance_draws, screen_state, submit, submit_instances, Counted,
    InstancePass,
};
pub(crate) use io::PassIo;
pub use samplers::{FilterOverride, Samplers};
pub use summary::{FrameSummary, PassSummary, StreamCounts};
use targets::working_room;
pub(crate) use targets::{TargetId, Targets};
pub(crate) use view::{material_state, mirror_matrix, View};

use upload::GpuScene;

/// Renders frames of one scene; see the module documentation.
pub struct FrameRenderer<'s> {
    pub(crate) scene: &'s Scene,
    pub(crate) cfg: FrameConfig,
    pub(crate) passes: Passes,
    pub(crate) graph: FrameGraph,
    pub(crate) gpu: GpuScene,
    pub(crate) pipeline: Pipeline,
    pub(crate) t: Targets,
    /// Stand-ins put in a target's slot while that target is lent to a
    /// shader (the pipeline owns targets; a pass samples some and draws
    /// into others).
    spare_color: ColorTarget,
    spare_depth: DepthTarget,
}

impl<'s> FrameRenderer<'s> {
    /// Upload `scene` and allocate every target of its frame graph
    /// (addresses from a fresh [`Allocator`]).
    pub fn new(scene: &'s Scene, cfg: FrameConfig) -> Result<FrameRenderer<'s>, FrameError> {
        cfg.check()?;
        let passes = cfg.passes.unwrap_or(scene.passes);
        let graph = frame_graph(scene, &cfg, passes)?;
        let mut alloc = Allocator::default();
        let gpu = GpuScene::upload(scene, &graph, (cfg.width, cfg.height), &mut alloc)?;
        let mut p = Pipeline::new();
        p.set_threads(cfg.threads);
        p.set_binning(cfg.binning);
        p.set_tbr(cfg.tbr);
        let t = Targets::allocate(&graph, &cfg, &mut alloc, &mut p)?;
        working_room(&cfg)?;
        // Stand-ins live in their own address space: they are never drawn.
        let mut scratch = Allocator::new(0);
        Ok(FrameRenderer {
            scene,
            passes,
            graph,
            cfg,
            gpu,
            pipeline: p,
            t,
            spare_color: ColorTarget::new(1, 1, ColorFormat::Rgba8, &mut scratch),
            spare_depth: DepthTarget::new(1, 1, DepthFormat::D32F, &mut scratch),
        })
    }

    pub fn config(&self) -> &FrameConfig {
        &self.cfg
    }

    /// The pass switches in effect (the configuration's, else the scene's).
    pub fn passes(&self) -> Passes {
        self.passes
    }

    /// The frame graph being rendered.
    pub fn graph(&self) -> &FrameGraph {
        &self.graph
    }

    /// The passes binned since the last call (with [`FrameConfig::binning`]),
    /// in pass order.
    pub fn take_binned(&mut self) -> Vec<BinnedPass> {
        self.pipeline.take_binned()
    }

    /// The last frame's picture: row-major RGBA8, `width * height` pixels.
    pub fn picture(&self) -> Vec<[u8; 4]> {
        self.display_target().to_rgba8()
    }

    /// The last frame's picture as bytes, or an error when there is no
    /// memory for them.
    pub fn picture_rgba(&self) -> Result<crate::session::Picture, FrameError> {
        let (width, height) = (self.cfg.width, self.cfg.height);
        let rgba = self.display_target().try_rgba8_bytes().map_err(|_| {
            let bytes = 4 * u64::from(width) * u64::from(height);
            let what = format!("the picture ({width}x{height})");
            FrameError::out_of_memory(what, TooLarge { bytes })
        })?;
        Ok(crate::session::Picture {
            width,
            height,
            rgba,
        })
    }

    /// The displayable colour target (its surface gives the `display`
    /// addresses).
    pub fn display_target(&self) -> &ColorTarget {
        self.pipeline.color(self.t.display)
    }

    /// A colour target by its name in the frame graph (classic: `albedo`,
    /// `normal`, `emissive`, `hdr`, `reflection`, `display`, `bloom0`...).
    pub fn color_target(&self, name: &str) -> Option<&ColorTarget> {
        match self.t.by_name(&self.graph, name)? {
            TargetId::Color(id) => Some(self.pipeline.color(id)),
            TargetId::Depth(_) => None,
        }
    }

    /// A depth target by its name in the frame graph (classic: `shadow`,
    /// `depth`, `reflection-depth`).
    pub fn depth_target(&self, name: &str) -> Option<&DepthTarget> {
        match self.t.by_name(&self.graph, name)? {
            TargetId::Depth(id) => Some(self.pipeline.depth(id)),
            TargetId::Color(_) => None,
        }
    }

    /// Take a colour target out of the pipeline to lend it to a shader.
    pub(crate) fn lend_color(&mut self, id: ColorId) -> ColorTarget {
        self.pipeline.replace_color(id, self.spare_color.clone())
    }

    pub(crate) fn lend_depth(&mut self, id: DepthId) -> DepthTarget {
        self.pipeline.replace_depth(id, self.spare_depth.clone())
    }

    /// Render frame `frame` of `frames` (the camera path's position), all
    /// records to `sink` in issue order.
    ///
    /// Asked to stop ([`gfxcache_cache::progress::request_stop`]) while it
    /// runs, the frame is cut short within a round of the pipeline (see
    /// [`Pipeline`]'s "Stopping"): the error is
    /// [`FrameError::Interrupted`], the records the sink had are not a
    /// whole frame (no `FrameEnd`) and the targets hold part of it.
    pub fn render(
        &mut self,
        frame: u32,
        frames: u32,
        sink: &mut impl RecordSink,
    ) -> Result<FrameSummary, FrameError> {
        let view = self.view(frame, frames);
        let mut out = Vec::new();
        self.pipeline.begin_frame(frame, sink);
        self.t.begin_frame();
        let passes = std::mem::take(&mut self.graph.passes);
        for p in &passes {
            if self.pipeline.stopping() {
                break;
            }
            if self.has_work(p, &view) {
                let io = self.t.resolve(&self.graph, p);
                let sun = match p.op {
                    Op::Shadow { cascade, cascades } => Some(view.sun(cascade, cascades)),
                    _ => None,
                };
                self.pass(p, &view, &io, sink, &mut out);
                self.t.drawn(&self.graph, p, sun);
            }
        }
        self.graph.passes = passes;
        if self.pipeline.stopped() {
            return Err(FrameError::interrupted());
        }
        self.pipeline.end_frame(frame, sink);
        Ok(FrameSummary {
            frame,
            width: self.cfg.width,
            height: self.cfg.height,
            passes: out,
        })
    }

    /// Whether pass `p` draws anything this frame.
    fn has_work(&self, p: &PassDesc, v: &View) -> bool {
        match p.op {
            Op::Reflection => v.reflection,
            Op::Transparent => !v.blended.is_empty(),
            Op::Particles => !v.particles.is_empty(),
            _ => true,
        }
    }

    /// One pass between its markers, with its counters.
    fn pass<S: RecordSink>(
        &mut self,
        p: &PassDesc,
        view: &View,
        io: &PassIo,
        sink: &mut S,
        out: &mut Vec<PassSummary>,
    ) {
        self.pipeline.reset_stats();
        let mut c = Counted::new(sink);
        self.pipeline.begin_pass(&p.name, p.kind, &mut c);
        self.run_op(&p.op, view, io, &mut c);
        self.pipeline.end_pass(&mut c);
        out.push(PassSummary {
            name: p.name.clone(),
            kind: p.kind,
            stats: self.pipeline.stats().clone(),
            accesses: c.counts,
        });
    }

    fn run_op<S: RecordSink>(&mut self, op: &Op, v: &View, io: &PassIo, sink: &mut Counted<'_, S>) {
        match *op {
            Op::Shadow { cascade, cascades } => {
                shadow::run(self, v, io, v.sun(cascade, cascades), sink)
            }
            Op::Reflection => reflection::run(self, v, io, sink),
            Op::GBuffer => gbuffer::run(self, v, io, sink),
            Op::Forward {
                lights,
                blended,
                ui,
            } => {
                let d = forward::Drawn {
                    opaque: true,
                    lights,
                    blended,
                    ui,
                };
                forward::run(self, v, io, d, sink)
            }
            Op::Lighting { clear, blended, ui } => {
                let d = forward::Drawn {
                    opaque: false,
                    lights: 0,
                    blended,
                    ui,
                };
                lighting::run(self, v, io, clear, d, sink)
            }
            Op::Sky => effects::sky(self, v, io, sink),
            Op::Ssao { taps } => effects::ssao(self, v, io, taps, sink),
            Op::Blur { axis, taps } => effects::blur(self, io, axis, taps, sink),
            Op::Copy => effects::copy(self, io, sink),
            Op::Transparent => transparent::run(self, v, io, false, sink),
            Op::Particles => transparent::run(self, v, io, true, sink),
            Op::Luminance => post::luminance(self, io, sink),
            Op::Bloom => post::bloom(self, io, sink),
            Op::DepthOfField { taps } => effects::depth_of_field(self, v, io, taps, sink),
            Op::MotionBlur { taps } => effects::motion_blur(self, v, io, taps, sink),
            Op::ToneMap => display::tone_map(self, io, sink),
            Op::Fxaa => effects::fxaa(self, io, sink),
            Op::Ui { quads } => ui::run(self, v, io, quads, sink),
            Op::Display { tone_map } => display::run(self, io, tone_map, sink),
        }
    }

    /// Tile-based mode's counters so far (`None` in immediate mode).
    pub fn tbr_stats(&self) -> Option<&TbrStats> {
        self.cfg.tbr.map(|_| self.pipeline.tbr_stats())
    }

    /// Constant slot of full-screen draw `k`.
    pub(crate) fn fullscreen_slot(&self, k: u64) -> u64 {
        self.scene.instances.len() as u64 + k
    }
}

/// The graph a frame of `scene` runs under `cfg`: the configuration's
/// preset, else the scene's own graph, else the scene's preset; with the
/// pass switches `passes` applied, and checked.
/// The largest width and height of the screen and every render target
/// of `scene`'s frame graph under `cfg` (a shadow map or an upscaled
/// target can be larger than the screen): every pixel the frame shades
/// lies inside it.
pub fn target_extent(scene: &Scene, cfg: &FrameConfig) -> Result<(u32, u32), FrameError> {
    cfg.check()?;
    let passes = cfg.passes.unwrap_or(scene.passes);
    let graph = frame_graph(scene, cfg, passes)?;
    Ok(graph
        .targets
        .iter()
        .map(|t| t.size.resolve(cfg.width, cfg.height))
        .fold((cfg.width, cfg.height), |(w, h), (tw, th)| {
            (w.max(tw), h.max(th))
        }))
}

fn frame_graph(scene: &Scene, cfg: &FrameConfig, passes: Passes) -> Result<FrameGraph, FrameError> {
    let params = PresetParams {
        shadow_size: cfg.shadow_size,
        reflection_scale: cfg.reflection_scale,
        bloom_levels: cfg.bloom_levels,
        passes,
    };
    let preset = cfg.preset.unwrap_or(scene.preset);
    // The forward switch (deferred off where the scene has it on) is the
    // classic preset's: the others have their own main pass.
    let forward_asked = !passes.deferred && scene.passes.deferred;
    if forward_asked && preset != Preset::Classic && (cfg.preset.is_some() || scene.graph.is_none())
    {
        return Err(FrameError::Config(format!(
            "the forward switch changes the classic preset only; {preset} has its own main pass"
        )));
    }
    let graph = match (&cfg.preset, &scene.graph) {
        (None, Some(g)) => crate::graph::switch_off(g.clone(), &passes),
        _ => preset.graph(&params),
    };
    graph
        .check()
        .map_err(|e| FrameError::Config(format!("frame graph: {e}")))?;
    Ok(graph)
}
