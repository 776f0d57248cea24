//! The frame's render targets, allocated once when the renderer is made
//! (so every frame uses the same addresses), and the check that there is
//! room to draw into them.

use crate::pipeline::{ColorId, DepthId, Pipeline};
use crate::raster::Quad;
use crate::surface::Allocator;
use crate::target::{ColorFormat, ColorTarget, DepthFormat, DepthTarget};

use super::{FrameConfig, FrameError};

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
    pub(super) fn allocate(
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
pub(super) fn working_room(cfg: &FrameConfig) -> Result<(), FrameError> {
    let quads = u64::from(cfg.width.div_ceil(2)) * u64::from(cfg.height.div_ceil(2));
    let per_quad = std::mem::size_of::<Quad>() as u64 + if cfg.tbr.is_some() { 4 } else { 0 };
    crate::storage::room_for(quads * per_quad).map_err(|e| {
        let (w, h) = (cfg.width, cfg.height);
        FrameError::out_of_memory(format!("the quad buffer of a triangle covering {w}x{h}"), e)
    })
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
