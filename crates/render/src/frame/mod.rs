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
//! - **Reflection**: the opaque scene mirrored about the [`Mirror`] plane
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
//! more than 256 triangles runs its front end (index fetch, post-transform
//! cache, rasterizer, stamp sort) on a scoped thread that fills a fixed set
//! of recycled batches of 256 triangles (bounded memory) a few batches
//! ahead, while this thread runs the back end (HiZ, depth/stencil, shading,
//! colour) on them in triangle order ([`Pipeline::set_threads`]). The front
//! end reads no target and owns all its state, so records and pixels are
//! the same for any thread count. The command line also runs the render
//! caches on another thread.
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

mod display;
mod forward;
mod gbuffer;
mod lighting;
mod post;
mod reflection;
pub mod shaders;
mod shadow;
mod transparent;
pub mod upload;

use gfxcache_trace::binned::BinnedPass;
use gfxcache_trace::{Access, Marker, PassKind, Record, RecordSink, Stream};

use crate::math::{Mat4, Vec3};
use crate::pipeline::{
    BinningConfig, ColorId, DepthId, Draw, Pipeline, Stats, TbrConfig, TbrStats,
};
use crate::raster::{CullMode, FrontFace, Quad};
use crate::sampler::{Filter, Sampler};
use crate::scene::{AlphaMode, Material, Mirror, Passes, Scene};
use crate::state::State;
use crate::storage::{human, TooLarge};
use crate::surface::Allocator;
use crate::target::{ColorFormat, ColorTarget, DepthFormat, DepthTarget};

use shaders::{inverse, Program, ShaderHeap};
use upload::GpuScene;

/// Largest screen or shadow-map side accepted.
pub const MAX_SIZE: u32 = 16384;

/// How to render frames.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrameConfig {
    pub width: u32,
    pub height: u32,
    /// `None`: the scene's own [`Scene::passes`].
    pub passes: Option<Passes>,
    /// Side of the square shadow map.
    pub shadow_size: u32,
    /// Reflection target size relative to the screen, in `(0, 1]`.
    pub reflection_scale: f32,
    /// Bloom levels below full resolution (0 = no bloom chain).
    pub bloom_levels: u32,
    /// How material textures are filtered.
    pub sampler: Sampler,
    /// See the module documentation.
    pub threads: usize,
    /// Bin each pass's triangles to screen tiles as a tile-based GPU's
    /// Polygon List Builder would ([`FrameRenderer::take_binned`]); `None`
    /// bins nothing. Records and pixels do not depend on it.
    pub binning: Option<BinningConfig>,
    /// Render tile by tile, as a tile-based GPU does (`None`: immediate
    /// mode). Each pass's draws into the same targets become one render
    /// pass ([`Pipeline::draw_tiled`]), binned with this configuration's
    /// tiles and order whatever [`FrameConfig::binning`] says. The pixels
    /// are those of immediate mode.
    pub tbr: Option<TbrConfig>,
}

impl Default for FrameConfig {
    fn default() -> FrameConfig {
        FrameConfig {
            width: 1920,
            height: 1080,
            passes: None,
            shadow_size: 2048,
            reflection_scale: 0.5,
            bloom_levels: 5,
            sampler: Sampler::new(Filter::Anisotropic).with_max_aniso(16),
            threads: 1,
            binning: None,
            tbr: None,
        }
    }
}

impl FrameConfig {
    /// The default configuration at `width` x `height`.
    pub fn new(width: u32, height: u32) -> FrameConfig {
        FrameConfig {
            width,
            height,
            ..FrameConfig::default()
        }
    }

    fn check(&self) -> Result<(), FrameError> {
        let bad = |m: String| Err(FrameError::Config(m));
        if !(1..=MAX_SIZE).contains(&self.width) || !(1..=MAX_SIZE).contains(&self.height) {
            return bad(format!(
                "resolution {}x{} out of range (1 to {MAX_SIZE} per side)",
                self.width, self.height
            ));
        }
        if !(1..=MAX_SIZE).contains(&self.shadow_size) {
            return bad(format!("shadow map size {} out of range", self.shadow_size));
        }
        if !(self.reflection_scale > 0.0 && self.reflection_scale <= 1.0) {
            return bad(format!(
                "reflection scale {} not in (0, 1]",
                self.reflection_scale
            ));
        }
        if let Some(t) = &self.tbr {
            t.check().map_err(FrameError::Config)?;
        }
        if let Some(b) = &self.binning {
            b.check().map_err(FrameError::Config)?;
        }
        if self.bloom_levels > 12 {
            return bad(format!("{} bloom levels (at most 12)", self.bloom_levels));
        }
        Ok(())
    }
}

/// Why a frame cannot be rendered.
#[derive(Debug, thiserror::Error)]
pub enum FrameError {
    #[error("bad frame configuration: {0}")]
    Config(String),
    #[error("bad scene: {0}")]
    Scene(String),
    /// A table the frame needs (a render target, its HiZ, the picture) is
    /// larger than the memory there is.
    #[error("out of memory: {what} needs {}; try a smaller resolution", human(*bytes))]
    OutOfMemory { what: String, bytes: u64 },
}

impl FrameError {
    fn out_of_memory(what: String, e: TooLarge) -> FrameError {
        FrameError::OutOfMemory {
            what,
            bytes: e.bytes,
        }
    }
}

/// Accesses per stream, reads and writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StreamCounts {
    pub reads: [u64; Stream::COUNT],
    pub writes: [u64; Stream::COUNT],
}

impl StreamCounts {
    #[inline]
    pub fn add(&mut self, a: &Access) {
        if a.op.is_write() {
            self.writes[a.stream.index()] += 1;
        } else {
            self.reads[a.stream.index()] += 1;
        }
    }

    pub fn merge(&mut self, o: &StreamCounts) {
        for s in 0..Stream::COUNT {
            self.reads[s] += o.reads[s];
            self.writes[s] += o.writes[s];
        }
    }

    /// Reads plus writes of `s`.
    pub fn of(&self, s: Stream) -> u64 {
        self.reads[s.index()] + self.writes[s.index()]
    }

    pub fn total(&self) -> u64 {
        self.reads.iter().chain(&self.writes).sum()
    }
}

/// What one pass did.
#[derive(Clone, Debug, PartialEq)]
pub struct PassSummary {
    pub name: &'static str,
    pub kind: PassKind,
    pub stats: Stats,
    /// Pipeline-side accesses (before the render caches).
    pub accesses: StreamCounts,
}

/// What one frame did.
#[derive(Clone, Debug, PartialEq)]
pub struct FrameSummary {
    pub frame: u32,
    pub width: u32,
    pub height: u32,
    pub passes: Vec<PassSummary>,
}

impl FrameSummary {
    /// Pipeline counters summed over the passes.
    pub fn stats(&self) -> Stats {
        let mut t = Stats::default();
        for p in &self.passes {
            add_stats(&mut t, &p.stats);
        }
        t
    }

    /// Pipeline-side accesses summed over the passes.
    pub fn accesses(&self) -> StreamCounts {
        let mut t = StreamCounts::default();
        for p in &self.passes {
            t.merge(&p.accesses);
        }
        t
    }

    pub fn pass(&self, name: &str) -> Option<&PassSummary> {
        self.passes.iter().find(|p| p.name == name)
    }
}

/// `t += s`, field by field.
pub fn add_stats(t: &mut Stats, s: &Stats) {
    t.draws += s.draws;
    t.triangles_in += s.triangles_in;
    t.triangles_after_cull += s.triangles_after_cull;
    t.vertex_fetches += s.vertex_fetches;
    t.vertex_cache_hits += s.vertex_cache_hits;
    t.quads += s.quads;
    t.fragments += s.fragments;
    t.fragments_shaded += s.fragments_shaded;
    t.killed_hiz += s.killed_hiz;
    t.killed_early_z += s.killed_early_z;
    t.killed_late_z += s.killed_late_z;
    t.killed_stencil += s.killed_stencil;
    t.fragments_written += s.fragments_written;
    t.texels += s.texels;
}

/// The frame's render targets, all owned by the pipeline.
pub(crate) struct Targets {
    pub shadow: DepthId,
    pub refl: ColorId,
    pub refl_depth: DepthId,
    /// Albedo, normal, emissive.
    pub gbuf: [ColorId; 3],
    pub depth: DepthId,
    pub hdr: ColorId,
    pub bloom: Vec<ColorId>,
    pub display: ColorId,
}

/// Targets allocated for a pipeline, each named in the error when its
/// pixels do not fit in memory.
struct TargetAlloc<'a> {
    alloc: &'a mut Allocator,
    p: &'a mut Pipeline,
}

impl TargetAlloc<'_> {
    fn color(
        &mut self,
        what: &str,
        (w, h): (u32, u32),
        format: ColorFormat,
    ) -> Result<ColorTarget, FrameError> {
        ColorTarget::try_new(w, h, format, self.alloc).map_err(|e| {
            FrameError::out_of_memory(format!("the {what} target ({w}x{h} {format:?})"), e)
        })
    }

    fn add_color(
        &mut self,
        what: &str,
        size: (u32, u32),
        format: ColorFormat,
    ) -> Result<ColorId, FrameError> {
        let t = self.color(what, size, format)?;
        Ok(self.p.add_color(t))
    }

    fn add_depth(
        &mut self,
        what: &str,
        (w, h): (u32, u32),
        format: DepthFormat,
    ) -> Result<DepthId, FrameError> {
        let t = DepthTarget::try_new(w, h, format, self.alloc).map_err(|e| {
            FrameError::out_of_memory(format!("the {what} ({w}x{h} {format:?})"), e)
        })?;
        Ok(self.p.add_depth(t))
    }
}

impl Targets {
    /// Every target of the frame, at addresses from `alloc` in a fixed
    /// order, owned by `p`.
    fn allocate(
        cfg: &FrameConfig,
        alloc: &mut Allocator,
        p: &mut Pipeline,
    ) -> Result<Targets, FrameError> {
        let mut a = TargetAlloc { alloc, p };
        let (w, h) = (cfg.width, cfg.height);
        let s = cfg.shadow_size;
        let shadow = a.add_depth("shadow map", (s, s), DepthFormat::D32F)?;
        let rw = ((w as f32 * cfg.reflection_scale).round() as u32).max(1);
        let rh = ((h as f32 * cfg.reflection_scale).round() as u32).max(1);
        let refl = a.add_color("reflection", (rw, rh), ColorFormat::Rgba16F)?;
        let refl_depth = a.add_depth("reflection's depth buffer", (rw, rh), DepthFormat::D32F)?;
        let gbuf = [
            a.add_color("albedo", (w, h), ColorFormat::Rgba8)?,
            a.add_color("normal", (w, h), ColorFormat::Rgba16F)?,
            a.add_color("emissive", (w, h), ColorFormat::Rgba16F)?,
        ];
        let depth = a.add_depth("depth buffer", (w, h), DepthFormat::D24S8)?;
        let hdr = a.add_color("HDR colour", (w, h), ColorFormat::Rgba16F)?;
        let mut bloom = Vec::new();
        for size in sizes_halving(w, h, cfg.bloom_levels) {
            bloom.push(a.add_color("bloom", size, ColorFormat::Rgba16F)?);
        }
        let display = a.color("display", (w, h), ColorFormat::Rgba8)?;
        let display = a.p.add_color(display.displayable());
        Ok(Targets {
            shadow,
            refl,
            refl_depth,
            gbuf,
            depth,
            hdr,
            bloom,
            display,
        })
    }
}

/// Whether there is room, besides the targets, for the largest buffer a
/// draw needs: the quads of one triangle covering the screen (the front
/// end sorts a triangle's quads before the back end takes them; tile by
/// tile, a render pass keeps all its quads, with their triangle, until its
/// tiles are rendered).
fn working_room(cfg: &FrameConfig) -> Result<(), FrameError> {
    let quads = u64::from(cfg.width.div_ceil(2)) * u64::from(cfg.height.div_ceil(2));
    let per_quad = std::mem::size_of::<Quad>() as u64 + if cfg.tbr.is_some() { 4 } else { 0 };
    crate::storage::room_for(quads * per_quad).map_err(|e| {
        let (w, h) = (cfg.width, cfg.height);
        FrameError::out_of_memory(format!("the quad buffer of a triangle covering {w}x{h}"), e)
    })
}

/// Per-frame values the passes share.
pub(crate) struct View {
    pub vp: Mat4,
    pub inv_vp: Mat4,
    pub light_vp: Mat4,
    /// Opaque and masked instances, front to back.
    pub opaque: Vec<usize>,
    /// Blended instances, back to front.
    pub blended: Vec<usize>,
    pub reflection: bool,
}

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

fn sizes_halving(w: u32, h: u32, n: u32) -> Vec<(u32, u32)> {
    let mut v = Vec::new();
    let (mut w, mut h) = (w, h);
    for _ in 0..n {
        w = (w / 2).max(1);
        h = (h / 2).max(1);
        v.push((w, h));
    }
    v
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

    fn view(&self, frame: u32, frames: u32) -> View {
        let scene = self.scene;
        let cam = scene.camera.at(frame, frames);
        let aspect = self.cfg.width as f32 / self.cfg.height as f32;
        let vp = Mat4::perspective(cam.fov_y, aspect, cam.near, cam.far)
            * Mat4::look_at(cam.eye, cam.target, cam.up);
        let light_vp = light_matrix(scene);
        // View depth of each instance's centre: sort keys.
        let depth_of = |i: usize| {
            let inst = &scene.instances[i];
            let c = inst
                .transform
                .transform_point(self.gpu.meshes[inst.mesh].center);
            let v = Mat4::look_at(cam.eye, cam.target, cam.up).transform(c);
            -v.z
        };
        let mut opaque = Vec::new();
        let mut blended = Vec::new();
        for (i, inst) in scene.instances.iter().enumerate() {
            let m = &scene.materials[scene.meshes[inst.mesh].material];
            if m.alpha == AlphaMode::Blend {
                blended.push((depth_of(i), i));
            } else {
                opaque.push((depth_of(i), i));
            }
        }
        // Stable sorts on total orders: ties keep scene order.
        opaque.sort_by(|a, b| a.0.total_cmp(&b.0));
        blended.sort_by(|a, b| b.0.total_cmp(&a.0));
        View {
            vp,
            inv_vp: inverse(&vp),
            light_vp,
            opaque: opaque.into_iter().map(|x| x.1).collect(),
            blended: blended.into_iter().map(|x| x.1).collect(),
            reflection: self.passes.reflection && scene.mirror.is_some(),
        }
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
        let mut c = Counted {
            sink,
            counts: StreamCounts::default(),
        };
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

    /// One draw with its shader fetches after its `DrawBegin`.
    pub(crate) fn draw<S: RecordSink>(
        pipeline: &mut Pipeline,
        heap: &ShaderHeap,
        draw: &Draw,
        program: Program,
        slot: u64,
        sink: &mut Counted<'_, S>,
    ) {
        let programs = [(program, slot)];
        let mut fetches = ShaderFetches {
            heap,
            programs: programs.iter(),
            sink,
        };
        pipeline.draw(draw, &mut fetches);
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

/// The draws of one pass into the same targets, each with its shader
/// program and constant slot (`programs[k]` for `draws[k]`): in immediate
/// mode [`FrameRenderer::draw`] one after the other; in tile-based mode one
/// render pass ([`Pipeline::draw_tiled`]), each draw's shader fetches after
/// its `DrawBegin` in the geometry phase.
pub(crate) fn submit<S: RecordSink>(
    pipeline: &mut Pipeline,
    heap: &ShaderHeap,
    draws: &[Draw],
    programs: &[(Program, u64)],
    sink: &mut Counted<'_, S>,
) {
    debug_assert_eq!(draws.len(), programs.len());
    if pipeline.tbr().is_none() {
        for (d, &(program, slot)) in draws.iter().zip(programs) {
            FrameRenderer::draw(pipeline, heap, d, program, slot, sink);
        }
        return;
    }
    let mut fetches = ShaderFetches {
        heap,
        programs: programs.iter(),
        sink,
    };
    pipeline.draw_tiled(draws, &mut fetches);
}

/// Where a pass draws its scene instances, and with what state.
pub(crate) struct InstancePass<'a> {
    pub vp: Mat4,
    pub color: &'a [ColorId],
    pub depth: DepthId,
    pub program: Program,
    /// The fixed-function state of an instance's draw, from its material.
    pub state: &'a dyn Fn(&Material) -> State,
}

/// [`submit`]s one draw per scene instance of `instances` (each with its
/// index as its constant slot) with `shaders[k]` for `instances[k]`: the
/// draws of the main, transparent and reflection passes.
pub(crate) fn submit_instances<S: RecordSink>(
    pipeline: &mut Pipeline,
    gpu: &GpuScene,
    scene: &Scene,
    instances: &[usize],
    shaders: &[shaders::MaterialShader<'_>],
    pass: InstancePass<'_>,
    sink: &mut Counted<'_, S>,
) {
    debug_assert_eq!(instances.len(), shaders.len());
    let draws: Vec<Draw> = instances
        .iter()
        .zip(shaders)
        .map(|(&i, shader)| {
            let inst = &scene.instances[i];
            let mesh = &gpu.meshes[inst.mesh];
            Draw {
                indices: &mesh.indices,
                vertices: &mesh.vertices,
                mvp: pass.vp * inst.transform,
                state: (pass.state)(shader.material),
                color: pass.color,
                depth: Some(pass.depth),
                shader,
            }
        })
        .collect();
    let programs: Vec<_> = instances
        .iter()
        .map(|&i| (pass.program, i as u64))
        .collect();
    submit(pipeline, &gpu.heap, &draws, &programs, sink);
}

/// A sink that counts what goes through it.
pub(crate) struct Counted<'a, S: RecordSink> {
    sink: &'a mut S,
    pub counts: StreamCounts,
}

impl<S: RecordSink> RecordSink for Counted<'_, S> {
    #[inline]
    fn record(&mut self, r: Record) {
        if let Record::Access(a) = &r {
            self.counts.add(a);
        }
        self.sink.record(r)
    }

    fn binned(&mut self, pass: &BinnedPass) {
        self.sink.binned(pass)
    }
}

/// A sink that puts each draw's shader fetches right after its
/// `DrawBegin`: the next of `programs` for each.
struct ShaderFetches<'a, 'p, S: RecordSink, P: Iterator<Item = &'p (Program, u64)>> {
    heap: &'a ShaderHeap,
    programs: P,
    sink: &'a mut S,
}

impl<'p, S: RecordSink, P: Iterator<Item = &'p (Program, u64)>> RecordSink
    for ShaderFetches<'_, 'p, S, P>
{
    #[inline]
    fn record(&mut self, r: Record) {
        let begin = matches!(r, Record::Marker(Marker::DrawBegin { .. }));
        self.sink.record(r);
        if begin {
            if let Some(&(program, slot)) = self.programs.next() {
                self.heap.fetch(program, slot, self.sink);
            }
        }
    }

    fn binned(&mut self, pass: &BinnedPass) {
        self.sink.binned(pass)
    }
}

/// The sun's view-projection: orthographic, looking along the light,
/// fitted around the scene's bounding sphere.
fn light_matrix(scene: &Scene) -> Mat4 {
    let (lo, hi) = scene
        .bounds()
        .unwrap_or((Vec3::new(-1.0, -1.0, -1.0), Vec3::new(1.0, 1.0, 1.0)));
    let center = (lo + hi) * 0.5;
    let r = ((hi - lo).length() * 0.5).max(1e-3);
    let dir = shaders::unit(scene.light.direction);
    let dir = if dir.length() == 0.0 {
        Vec3::new(0.0, -1.0, 0.0)
    } else {
        dir
    };
    let up = if dir.y.abs() > 0.99 {
        Vec3::new(0.0, 0.0, 1.0)
    } else {
        Vec3::new(0.0, 1.0, 0.0)
    };
    let eye = center - dir * (2.0 * r);
    Mat4::orthographic(-r, r, -r, r, r * 0.5, r * 3.5) * Mat4::look_at(eye, center, up)
}

/// The fixed-function state of a material's draws; `mirrored` flips the
/// winding (the reflection pass).
pub(crate) fn material_state(m: &Material, mirrored: bool) -> State {
    State {
        cull: if m.double_sided {
            CullMode::None
        } else {
            CullMode::Back
        },
        front_face: if mirrored {
            FrontFace::Cw
        } else {
            FrontFace::Ccw
        },
        ..State::default()
    }
}

/// The reflection about the horizontal plane `y = mirror.height`.
pub(crate) fn mirror_matrix(m: &Mirror) -> Mat4 {
    Mat4::translation(Vec3::new(0.0, m.height, 0.0))
        * Mat4::scale(Vec3::new(1.0, -1.0, 1.0))
        * Mat4::translation(Vec3::new(0.0, -m.height, 0.0))
}

/// One full-screen triangle into `color` (and `depth`, for its stencil).
#[allow(clippy::too_many_arguments)]
pub(crate) fn fullscreen<S: RecordSink>(
    pipeline: &mut Pipeline,
    gpu: &GpuScene,
    color: &[ColorId],
    depth: Option<DepthId>,
    state: State,
    shader: &dyn crate::pipeline::FragmentShader,
    program: Program,
    slot: u64,
    sink: &mut Counted<'_, S>,
) {
    let draw = Draw {
        indices: &gpu.fullscreen_ib,
        vertices: &gpu.fullscreen_vb,
        mvp: Mat4::IDENTITY,
        state,
        color,
        depth,
        shader,
    };
    FrameRenderer::draw(pipeline, &gpu.heap, &draw, program, slot, sink);
}

/// The state of full-screen passes: no depth test, no culling.
pub(crate) fn screen_state() -> State {
    State {
        depth: crate::state::DepthState::DISABLED,
        cull: CullMode::None,
        ..State::default()
    }
}

/// Normalized coordinates of the centres of a quad's pixels on a `w` x `h`
/// target.
pub(crate) fn centres(px: &[[u32; 2]; 4], w: u32, h: u32) -> [[f32; 2]; 4] {
    px.map(|[x, y]| [(x as f32 + 0.5) / w as f32, (y as f32 + 0.5) / h as f32])
}
