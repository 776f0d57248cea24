//! The frame graph's render targets, allocated once when the renderer is
//! made (so every frame uses the same addresses), what each pass reads
//! from them, and the check that there is room to draw into them.

use crate::graph::{required, FrameGraph, PassDesc, Role, TargetFormat};
use crate::math::Mat4;
use crate::pipeline::{ColorId, DepthId, Pipeline};
use crate::raster::Quad;
use crate::surface::Allocator;
use crate::target::{ColorFormat, ColorTarget, DepthFormat, DepthTarget};

use super::{FrameConfig, FrameError, PassIo};

/// A frame graph target, owned by the pipeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TargetId {
    Color(ColorId),
    Depth(DepthId),
}

/// The frame graph's targets (one id per [`FrameGraph::targets`] entry)
/// and what the passes of the frame being rendered have drawn so far.
pub(crate) struct Targets {
    ids: Vec<TargetId>,
    pub display: ColorId,
    /// Drawn by a pass of this frame (optional reads of the others are
    /// dropped: the reflection without a mirror, a pass with no work).
    drawn: Vec<bool>,
    /// The light's view-projection of each shadow map drawn this frame.
    light_vp: Vec<Option<Mat4>>,
}

/// Targets allocated for a pipeline, each named in the error when its
/// pixels do not fit in memory.
struct TargetAlloc<'a> {
    alloc: &'a mut Allocator,
    p: &'a mut Pipeline,
    /// The screen, named in the errors.
    screen: (u32, u32),
}

impl TargetAlloc<'_> {
    fn color(
        &mut self,
        what: &str,
        (w, h): (u32, u32),
        format: ColorFormat,
    ) -> Result<ColorTarget, FrameError> {
        let (sw, sh) = self.screen;
        ColorTarget::try_new(w, h, format, self.alloc).map_err(|e| {
            let what = format!("the {what} target ({w}x{h} {format:?}, for a {sw}x{sh} screen)");
            FrameError::out_of_memory(what, e)
        })
    }

    fn add_depth(
        &mut self,
        what: &str,
        (w, h): (u32, u32),
        format: DepthFormat,
    ) -> Result<DepthId, FrameError> {
        let (sw, sh) = self.screen;
        let t = DepthTarget::try_new(w, h, format, self.alloc).map_err(|e| {
            let what = format!("the {what} target ({w}x{h} {format:?}, for a {sw}x{sh} screen)");
            FrameError::out_of_memory(what, e)
        })?;
        Ok(self.p.add_depth(t))
    }
}

impl Targets {
    /// Every target of `graph`, at addresses from `alloc` in the graph's
    /// order, owned by `p`. Tile by tile, a depth target is stored at tile
    /// end only when a later pass samples it or tests against it again.
    pub(super) fn allocate(
        graph: &FrameGraph,
        cfg: &FrameConfig,
        alloc: &mut Allocator,
        p: &mut Pipeline,
    ) -> Result<Targets, FrameError> {
        let mut a = TargetAlloc {
            alloc,
            p,
            screen: (cfg.width, cfg.height),
        };
        let mut ids = Vec::with_capacity(graph.targets.len());
        let mut display = None;
        for t in &graph.targets {
            let size = t.size.resolve(cfg.width, cfg.height);
            let id = match t.format {
                TargetFormat::Color(f) => {
                    let c = a.color(&t.name, size, f)?;
                    TargetId::Color(a.p.add_color(c))
                }
                TargetFormat::Display => {
                    let c = a.color(&t.name, size, ColorFormat::Rgba8)?;
                    let id = a.p.add_color(c.displayable());
                    display = Some(id);
                    TargetId::Color(id)
                }
                TargetFormat::Depth(f) => TargetId::Depth(a.add_depth(&t.name, size, f)?),
            };
            ids.push(id);
        }
        let display = display.ok_or_else(|| FrameError::Config("no display target".into()))?;
        for (t, id) in graph.targets.iter().zip(&ids) {
            if let TargetId::Depth(d) = id {
                let uses = graph
                    .passes
                    .iter()
                    .filter(|p| p.depth.as_ref() == Some(&t.name))
                    .count();
                let read = graph
                    .passes
                    .iter()
                    .any(|p| p.reads.iter().any(|(_, r)| *r == t.name));
                a.p.set_depth_stored(*d, read || uses > 1);
            }
        }
        let n = ids.len();
        Ok(Targets {
            ids,
            display,
            drawn: vec![false; n],
            light_vp: vec![None; n],
        })
    }

    pub fn by_name(&self, graph: &FrameGraph, name: &str) -> Option<TargetId> {
        graph.target(name).map(|(i, _)| self.ids[i])
    }

    pub fn begin_frame(&mut self) {
        self.drawn.fill(false);
        self.light_vp.fill(None);
    }

    /// Pass `p`'s targets: its outputs, and its reads of targets drawn
    /// this frame (or that its op cannot do without).
    pub fn resolve(&self, graph: &FrameGraph, p: &PassDesc) -> PassIo {
        let index = |name: &String| graph.target(name).map(|(i, _)| i).expect("checked graph");
        let color = p
            .color
            .iter()
            .map(|c| match self.ids[index(c)] {
                TargetId::Color(id) => id,
                TargetId::Depth(_) => unreachable!("checked graph: colour target"),
            })
            .collect::<Vec<_>>();
        let depth = p.depth.as_ref().map(|d| match self.ids[index(d)] {
            TargetId::Depth(id) => id,
            TargetId::Color(_) => unreachable!("checked graph: depth target"),
        });
        let mut reads = Vec::with_capacity(p.reads.len());
        let mut shadows = Vec::new();
        for (role, name) in &p.reads {
            let i = index(name);
            if !self.drawn[i] && !required(&p.op, *role) {
                continue;
            }
            match (role, self.ids[i], self.light_vp[i]) {
                (Role::Shadow, TargetId::Depth(id), Some(vp)) => shadows.push((id, vp)),
                (Role::Shadow, _, _) => {}
                (_, id, _) => reads.push((*role, id)),
            }
        }
        let encode = color.first() == Some(&self.display);
        PassIo {
            color,
            depth,
            reads,
            shadows,
            encode,
        }
    }

    /// Pass `p` has drawn its outputs; `light_vp` is its sun's
    /// view-projection when it is a shadow pass.
    pub fn drawn(&mut self, graph: &FrameGraph, p: &PassDesc, light_vp: Option<Mat4>) {
        for name in p.color.iter().chain(&p.depth) {
            if let Some((i, _)) = graph.target(name) {
                self.drawn[i] = true;
                if light_vp.is_some() {
                    self.light_vp[i] = light_vp;
                }
            }
        }
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
