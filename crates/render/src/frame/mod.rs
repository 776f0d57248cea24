//! A whole frame, the way a modern game renders one: a list of passes, each
//! a set of draws through the immediate-mode [`Pipeline`], with render
//! targets that later passes read back as textures.
//!
//! [`FrameRenderer::render`] emits, for frame `i` of `n`: `FrameBegin`, the
//! passes below in this order (each between `PassBegin`/`PassEnd` with its
//! [`PassKind`]; a pass switched off emits nothing), `FrameEnd`.
//!
//! | pass (name)          | kind              | targets written (format)                    | reads as `tex`                         | streams |
//! |----------------------|-------------------|---------------------------------------------|----------------------------------------|---------|
//! | `shadow`             | Shadow            | shadow map (D32F, `shadow_size`²)           | masked materials' textures             | vidx vtx hiz z (tex) shader |
//! | `reflection`         | RenderToTexture   | reflection (RGBA16F) + depth (D32F), `reflection_scale` of the screen | material textures | vidx vtx hiz z rt tex shader |
//! | `gbuffer` (deferred) | GBuffer           | albedo (RGBA8), normal (RGBA16F), emissive+reflection (RGBA16F), depth D24S8 with stencil = 1 on geometry | material textures, shadow-less; reflection target | vidx vtx hiz z stc rt tex shader |
//! | `lighting` (deferred)| Lighting          | HDR colour (RGBA16F), cleared to the sky    | the three G-buffer targets, the depth surface, the shadow map | vidx vtx stc rt tex shader |
//! | `forward` (forward)  | Forward           | HDR colour (RGBA16F) + depth D24S8          | material textures, shadow map, reflection | vidx vtx hiz z stc (clear only) rt tex shader |
//! | `transparent`        | Transparent       | HDR colour, blended (depth test, no writes) | material textures, shadow map          | vidx vtx hiz z rt tex shader |
//! | `post`               | Post              | bloom chain (RGBA16F, halving `bloom_levels` times) | HDR colour, bloom levels         | vidx vtx rt tex shader |
//! | `display`            | Display           | the displayable RGBA8 surface (`display` stream) | HDR colour (+ bloom level 0 with post) | vidx vtx display tex shader |
//!
//! - **Shadow**: depth only, from the sun, with an orthographic projection
//!   fitted around the scene's bounding sphere; every opaque and masked
//!   instance. Later passes compare against it with one point tap per pixel.
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
//! discarded (the G-buffer, the display target and the blend-free bloom
//! steps are discarded: nothing reads their old contents), colour is
//! stored at tile end, and depth only for the shadow map and the main
//! depth buffer (sampled or tested by later passes). The pixels are those
//! of immediate mode.

mod config;
mod display;
mod draws;
mod forward;
mod gbuffer;
mod lighting;
mod post;
mod reflection;
pub mod shaders;
mod shadow;
mod summary;
mod targets;
mod transparent;
pub mod upload;
mod view;

use gfxcache_trace::binned::BinnedPass;
use gfxcache_trace::{PassKind, RecordSink};

use crate::pipeline::{ColorId, DepthId, Pipeline, TbrStats};
use crate::scene::{Passes, Scene};
use crate::storage::TooLarge;
use crate::surface::Allocator;
use crate::target::{ColorFormat, ColorTarget, DepthFormat, DepthTarget};

pub use config::{FrameConfig, FrameError, MAX_SIZE};
pub(crate) use draws::{
    centres, fullscreen, screen_state, submit, submit_instances, Counted, InstancePass,
};
pub use summary::{add_stats, FrameSummary, PassSummary, StreamCounts};
use targets::working_room;
pub(crate) use targets::Targets;
pub(crate) use view::{material_state, mirror_matrix, View};

use upload::GpuScene;

/// Renders frames of one scene; see the module documentation.
pub struct FrameRenderer<'s> {
    pub(crate) scene: &'s Scene,
    pub(crate) cfg: FrameConfig,
    pub(crate) passes: Passes,
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
    /// Upload `scene` and allocate every target (addresses from a fresh
    /// [`Allocator`]).
    pub fn new(scene: &'s Scene, cfg: FrameConfig) -> Result<FrameRenderer<'s>, FrameError> {
        cfg.check()?;
        let mut alloc = Allocator::default();
        let gpu = GpuScene::upload(scene, &mut alloc)?;
        let mut p = Pipeline::new();
        p.set_threads(cfg.threads);
        p.set_binning(cfg.binning);
        p.set_tbr(cfg.tbr);
        let t = Targets::allocate(&cfg, &mut alloc, &mut p)?;
        // Tile-based mode keeps depth on chip unless a later pass needs it:
        // the shadow map is sampled, the main depth sampled (lighting) and
        // tested again (lighting's stencil, transparent's depth test). The
        // reflection's depth dies with its pass.
        p.set_depth_stored(t.shadow, true);
        p.set_depth_stored(t.depth, true);
        working_room(&cfg)?;
        // Stand-ins live in their own address space: they are never drawn.
        let mut scratch = Allocator::new(0);
        Ok(FrameRenderer {
            scene,
            passes: cfg.passes.unwrap_or(scene.passes),
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

    /// The passes in effect (the configuration's, else the scene's).
    pub fn passes(&self) -> Passes {
        self.passes
    }

    /// The passes binned since the last call (with [`FrameConfig::binning`]),
    /// in pass order.
    pub fn take_binned(&mut self) -> Vec<BinnedPass> {
        self.pipeline.take_binned()
    }

    /// The last frame's picture: row-major RGBA8, `width * height` pixels.
    pub fn picture(&self) -> Vec<[u8; 4]> {
        self.pipeline.color(self.t.display).to_rgba8()
    }

    /// The last frame's picture as bytes, or an error when there is no
    /// memory for them.
    pub fn picture_rgba(&self) -> Result<crate::session::Picture, FrameError> {
        let (width, height) = (self.cfg.width, self.cfg.height);
        let rgba = self
            .pipeline
            .color(self.t.display)
            .try_rgba8_bytes()
            .map_err(|_| {
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

    /// A colour target by role, for tests and tools: `albedo`, `normal`,
    /// `emissive`, `hdr`, `reflection`, `display`.
    pub fn color_target(&self, name: &str) -> Option<&ColorTarget> {
        let id = match name {
            "albedo" => self.t.gbuf[0],
            "normal" => self.t.gbuf[1],
            "emissive" => self.t.gbuf[2],
            "hdr" => self.t.hdr,
            "reflection" => self.t.refl,
            "display" => self.t.display,
            _ => return None,
        };
        Some(self.pipeline.color(id))
    }

    /// A depth target by role: `shadow`, `depth` (main), `reflection`.
    pub fn depth_target(&self, name: &str) -> Option<&DepthTarget> {
        let id = match name {
            "shadow" => self.t.shadow,
            "depth" => self.t.depth,
            "reflection" => self.t.refl_depth,
            _ => return None,
        };
        Some(self.pipeline.depth(id))
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
    pub fn render(&mut self, frame: u32, frames: u32, sink: &mut impl RecordSink) -> FrameSummary {
        let view = self.view(frame, frames);
        let mut out = Vec::new();
        self.pipeline.begin_frame(frame, sink);
        let p = self.passes;
        if p.shadow {
            self.pass(
                "shadow",
                PassKind::Shadow,
                &view,
                sink,
                &mut out,
                shadow::run,
            );
        }
        if view.reflection {
            self.pass(
                "reflection",
                PassKind::RenderToTexture,
                &view,
                sink,
                &mut out,
                reflection::run,
            );
        }
        if p.deferred {
            self.pass(
                "gbuffer",
                PassKind::GBuffer,
                &view,
                sink,
                &mut out,
                gbuffer::run,
            );
            self.pass(
                "lighting",
                PassKind::Lighting,
                &view,
                sink,
                &mut out,
                lighting::run,
            );
        } else {
            self.pass(
                "forward",
                PassKind::Forward,
                &view,
                sink,
                &mut out,
                forward::run,
            );
        }
        if p.transparent && !view.blended.is_empty() {
            self.pass(
                "transparent",
                PassKind::Transparent,
                &view,
                sink,
                &mut out,
                transparent::run,
            );
        }
        if p.post && !self.t.bloom.is_empty() {
            self.pass("post", PassKind::Post, &view, sink, &mut out, post::run);
        }
        self.pass(
            "display",
            PassKind::Display,
            &view,
            sink,
            &mut out,
            display::run,
        );
        self.pipeline.end_frame(frame, sink);
        FrameSummary {
            frame,
            width: self.cfg.width,
            height: self.cfg.height,
            passes: out,
        }
    }

    /// One pass between its markers, with its counters.
    fn pass<S: RecordSink>(
        &mut self,
        name: &'static str,
        kind: PassKind,
        view: &View,
        sink: &mut S,
        out: &mut Vec<PassSummary>,
        body: fn(&mut FrameRenderer<'s>, &View, &mut Counted<'_, S>),
    ) {
        self.pipeline.reset_stats();
        let mut c = Counted::new(sink);
        self.pipeline.begin_pass(name, kind, &mut c);
        body(self, view, &mut c);
        self.pipeline.end_pass(&mut c);
        out.push(PassSummary {
            name,
            kind,
            stats: *self.pipeline.stats(),
            accesses: c.counts,
        });
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
