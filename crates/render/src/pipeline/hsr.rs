//! Hidden-surface removal of a tile-based deferred renderer (TBDR,
//! `TbrConfig::hsr`): before shading a tile, the depths of its opaque
//! fragments are resolved on chip, and only the fragment that ends up
//! visible in each pixel is shaded.
//!
//! A draw takes part when its fragments' fate depends on depth alone: the
//! depth test is less or less-equal with depth writes, the shader neither
//! discards nor writes depth, no colour target blends or keeps old bits,
//! and stencil is off or cannot fail and only keeps or replaces. Per pixel
//! the resolve runs the depth test over those fragments in submission
//! order from the tile's stored depth; the last one to pass is the
//! visible one (the first of equal depths under less, the last under
//! less-equal), exactly the fragment whose colour immediate mode leaves
//! there. Other draws are rendered as usual, in order: they can only make
//! a visible fragment fail its depth test or draw over it, as they would
//! in immediate mode, so the pixels do not change; fewer fragments are
//! shaded and fewer textures read.

use crate::raster::Quad;
use crate::state::{CompareFunc, StencilFace, StencilOp};
use crate::target::DepthRows;

use super::tbr::BinnedTri;
use super::Draw;

/// Whether `d`'s fragments can be culled by hidden-surface removal.
pub(super) fn eligible(d: &Draw) -> bool {
    let st = &d.state;
    let stencil_ok = |f: &StencilFace| {
        f.func == CompareFunc::Always
            && f.fail == StencilOp::Keep
            && f.zfail == StencilOp::Keep
            && matches!(f.pass, StencilOp::Keep | StencilOp::Replace)
    };
    d.depth.is_some()
        && st.depth.write
        && matches!(st.depth.func, CompareFunc::Less | CompareFunc::LessEqual)
        && !d.shader.writes_depth()
        && !d.shader.discards()
        && st.targets[..d.color.len()]
            .iter()
            .all(|t| !t.reads_destination())
        && (!st.stencil.enabled || (stencil_ok(&st.stencil.front) && stencil_ok(&st.stencil.back)))
}

/// The resolved tile: per pixel, the index (in the tile's quad list) of
/// the quad holding its visible fragment.
pub(super) struct Hsr {
    tile: u32,
    origin: (u32, u32),
    depth: Vec<f32>,
    winner: Vec<u32>,
    /// The culled copy of the quads of one stamp, handed to the back end.
    pub(super) quads: Vec<Quad>,
}

const NONE: u32 = u32::MAX;

impl Hsr {
    pub(super) fn new(tile: u32) -> Hsr {
        let n = (tile * tile) as usize;
        Hsr {
            tile,
            origin: (0, 0),
            depth: vec![0.0; n],
            winner: vec![NONE; n],
            quads: Vec::new(),
        }
    }

    /// The tile side this resolve is for.
    pub(super) fn tile(&self) -> u32 {
        self.tile
    }

    fn index(&self, x: u32, y: u32) -> usize {
        ((y - self.origin.1) * self.tile + (x - self.origin.0)) as usize
    }

    /// Resolve the tile at `rect` whose quads are `quads` (with their
    /// triangles `tris`), from the depths `dt` (rows holding the tile)
    /// holds now.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn resolve(
        &mut self,
        dt: &DepthRows,
        rect: [u32; 4],
        quads: &[Quad],
        tris: &[u32],
        attrs: &[BinnedTri],
        draws: &[Draw],
        eligible: &[bool],
    ) {
        let [x0, y0, x1, y1] = rect;
        self.origin = (x0, y0);
        self.winner.fill(NONE);
        for y in y0..y1 {
            for x in x0..x1 {
                let i = self.index(x, y);
                self.depth[i] = dt.depth(x, y);
            }
        }
        for (k, (q, &t)) in quads.iter().zip(tris).enumerate() {
            let draw = attrs[t as usize].draw as usize;
            if !eligible[draw] {
                continue;
            }
            let func = draws[draw].state.depth.func;
            for p in 0..4 {
                if q.covered(p) {
                    let (x, y) = q.pixel(p);
                    let i = self.index(x, y);
                    let d = dt.convert(q.depth[p]);
                    if func.test(d, self.depth[i]) {
                        self.depth[i] = d;
                        self.winner[i] = k as u32;
                    }
                }
            }
        }
    }

    /// Quad `k` of the tile with only its visible pixels.
    pub(super) fn visible(&self, k: usize, q: &Quad) -> u8 {
        let mut m = 0;
        for p in 0..4 {
            if q.covered(p) {
                let (x, y) = q.pixel(p);
                if self.winner[self.index(x, y)] == k as u32 {
                    m |= 1 << p;
                }
            }
        }
        m
    }
}
