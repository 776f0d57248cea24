//! The Polygon List Builder of a tile-based GPU, watching the pipeline:
//! every triangle that survives culling is binned to the screen tiles it
//! covers, with the number of attributes it carries, into a
//! [`BinnedFrame`] per pass (`gfxcache-trace`'s, which TCOR's Parameter
//! Buffer models in `gfxcache-tcor` read).
//!
//! Overlap is exact in sample space: a triangle is in a tile's list when it
//! covers at least one pixel centre of that tile, which is what the
//! rasterizer's quads say (a quad is 2x2 pixels at even coordinates, so
//! with an even tile size it lies in one tile). A bounding-box binner would
//! list more tiles; a triangle that covers no pixel centre anywhere is in
//! no list, as it would produce no fragment in any tile.
//!
//! Attributes are counted as TCOR does (48 bytes each: one 16-byte vector
//! per vertex): the clip-space position, plus the vertex's scalar
//! attributes packed four to a vector.

pub use gfxcache_trace::binned::BinnedPass;
use gfxcache_trace::binned::{BinnedFrame, BinnedPrimitive, TileOrder};

use crate::raster::Quad;

/// How to bin: tile side in pixels (even) and the Tile Fetcher's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BinningConfig {
    pub tile_size: u32,
    pub order: TileOrder,
}

impl Default for BinningConfig {
    /// TCOR Table I: 32x32 tiles in Z-order.
    fn default() -> Self {
        BinningConfig {
            tile_size: 32,
            order: TileOrder::ZOrder,
        }
    }
}

impl BinningConfig {
    /// Why these tiles cannot be binned to, if they cannot.
    pub fn check(&self) -> Result<(), String> {
        if self.tile_size < 2 || !self.tile_size.is_multiple_of(2) {
            return Err(format!(
                "tile size {}: expected an even number of pixels, at least 2",
                self.tile_size
            ));
        }
        Ok(())
    }
}

/// TCOR's attribute count of a triangle whose vertices carry `scalars`
/// float attributes besides the position.
pub fn tcor_attributes(scalars: u32) -> u32 {
    1 + scalars.div_ceil(4)
}

/// The pass being binned.
pub(super) struct Binner {
    tile: u32,
    tiles_x: u32,
    tiles_y: u32,
    order: TileOrder,
    prims: Vec<BinnedPrimitive>,
    /// Per tile, the last primitive that listed it (dedups a primitive's tiles).
    marked: Vec<u32>,
}

impl Binner {
    /// A binner for a `width` x `height` target.
    pub(super) fn new(cfg: BinningConfig, width: u32, height: u32) -> Binner {
        assert!(
            cfg.tile_size >= 2 && cfg.tile_size.is_multiple_of(2),
            "tile size {} must be even",
            cfg.tile_size
        );
        let tiles_x = width.div_ceil(cfg.tile_size).max(1);
        let tiles_y = height.div_ceil(cfg.tile_size).max(1);
        Binner {
            tile: cfg.tile_size,
            tiles_x,
            tiles_y,
            order: cfg.order,
            prims: Vec::new(),
            marked: vec![u32::MAX; (tiles_x * tiles_y) as usize],
        }
    }

    /// Widens the grid when a later draw of the pass renders to a larger
    /// target, renumbering the tiles already listed.
    pub(super) fn grow(&mut self, width: u32, height: u32) {
        let tiles_x = width.div_ceil(self.tile).max(self.tiles_x);
        let tiles_y = height.div_ceil(self.tile).max(self.tiles_y);
        if (tiles_x, tiles_y) == (self.tiles_x, self.tiles_y) {
            return;
        }
        let old_x = self.tiles_x;
        for p in &mut self.prims {
            for t in &mut p.tiles {
                *t = (*t / old_x) * tiles_x + *t % old_x;
            }
        }
        self.tiles_x = tiles_x;
        self.tiles_y = tiles_y;
        self.marked = vec![u32::MAX; (tiles_x * tiles_y) as usize];
    }

    /// Bins one triangle from its quads; a triangle with none is in no list.
    pub(super) fn add(&mut self, quads: &[Quad], attributes: u32) {
        let id = self.prims.len() as u32;
        let mut tiles = Vec::new();
        for q in quads.iter().filter(|q| q.mask != 0) {
            let t = (q.y / self.tile) * self.tiles_x + q.x / self.tile;
            let m = &mut self.marked[t as usize];
            if *m != id {
                *m = id;
                tiles.push(t);
            }
        }
        if !tiles.is_empty() {
            self.prims.push(BinnedPrimitive { attributes, tiles });
        }
    }

    /// The binned pass, or `None` when no triangle covered a pixel.
    pub(super) fn finish(self) -> Option<BinnedFrame> {
        (!self.prims.is_empty()).then(|| self.finish_frame())
    }

    /// The binned pass, even without primitives: a tile-based render pass
    /// still renders (loads, clears, stores) every tile of its grid.
    pub(super) fn finish_frame(self) -> BinnedFrame {
        BinnedFrame {
            tiles_x: self.tiles_x,
            tiles_y: self.tiles_y,
            tile_size: self.tile,
            order: self.order,
            primitives: self.prims,
        }
    }
}
