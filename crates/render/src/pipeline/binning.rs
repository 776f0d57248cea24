//! The Polygon List Builder of a tile-based GPU, watching the pipeline:
//! every triangle that survives culling is binned to the screen tiles it
//! overlaps, with the number of attributes it carries, into a
//! [`BinnedFrame`] per pass (`gfxcache-trace`'s, which TCOR's Parameter
//! Buffer models in `gfxcache-tcor` read).
//!
//! Which tiles a triangle overlaps ([`BinningMode`]), both in sample
//! space (pixel centres), after clipping and culling:
//!
//! - **Exact** (the default): the tiles where it covers at least one pixel
//!   centre, which is what the rasterizer's quads say (a quad is 2x2
//!   pixels at even coordinates, so with an even tile size it lies in one
//!   tile). A triangle that covers no pixel centre is in no list, as it
//!   produces no fragment in any tile.
//! - **Bounding box**: every tile that the pixels whose centres lie in its
//!   screen-space bounding box fall in (the box of its clipped screen
//!   triangles, cut to the viewport; [`crate::raster::TriangleStats::bounds`]),
//!   the cheap test of Antochi et al. ("Efficient tile-aware bounding-box
//!   overlap test for tile-based rendering", 2004, which TCOR cites). A
//!   superset of the exact tiles: a long thin diagonal triangle is listed
//!   in tiles it never touches, where the rasterizer makes no fragment of
//!   it but the Tile Fetcher still reads its PMD and attributes.
//!
//! The TCOR paper does not say which test its Polygon List Builder uses
//! ("appends it to each list of every tile it overlaps", Section II): the
//! default is the exact one, what "overlaps" says, whose traces are those
//! from before the bounding-box mode existed.
//!
//! Attributes are counted as TCOR does (48 bytes each: one 16-byte vector
//! per vertex): the clip-space position, plus the scalar outputs of the
//! draw's vertex shader packed four to a vector ([`tcor_attributes`]),
//! which each draw says ([`super::Draw::attributes`]; the frame's come
//! from their shader program's outputs).

pub use gfxcache_trace::binned::BinnedPass;
use gfxcache_trace::binned::{BinnedFrame, BinnedPrimitive, TileOrder};

use crate::raster::Quad;

/// Which tiles a triangle is listed in (see the module documentation).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum BinningMode {
    /// The tiles where it covers a pixel centre.
    #[default]
    #[serde(rename = "exact")]
    Exact,
    /// The tiles its clipped screen-space bounding box overlaps.
    #[serde(rename = "bbox")]
    BoundingBox,
}

impl BinningMode {
    /// Both modes, the default first.
    pub const ALL: [BinningMode; 2] = [BinningMode::Exact, BinningMode::BoundingBox];

    /// `exact` or `bbox`: the name in arguments, trace headers and reports.
    pub const fn name(self) -> &'static str {
        match self {
            BinningMode::Exact => "exact",
            BinningMode::BoundingBox => "bbox",
        }
    }

    /// The mode called `name` ([`BinningMode::name`]).
    pub fn from_name(name: &str) -> Option<BinningMode> {
        Self::ALL.into_iter().find(|m| m.name() == name)
    }
}

/// How to bin: tile side in pixels (even), the Tile Fetcher's order and
/// which tiles a triangle is listed in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BinningConfig {
    pub tile_size: u32,
    pub order: TileOrder,
    /// Exact when absent (configurations from before the mode existed).
    #[serde(default)]
    pub mode: BinningMode,
}

impl Default for BinningConfig {
    /// TCOR Table I: 32x32 tiles in Z-order, exact overlap.
    fn default() -> Self {
        BinningConfig {
            tile_size: 32,
            order: TileOrder::ZOrder,
            mode: BinningMode::Exact,
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

/// TCOR's attribute count of a triangle whose vertex shader outputs
/// `scalars` floats besides the position: the position, then the scalars
/// four to a 16-byte vector.
pub const fn tcor_attributes(scalars: u32) -> u32 {
    1 + scalars.div_ceil(4)
}

/// The pass being binned.
pub(super) struct Binner {
    tile: u32,
    tiles_x: u32,
    tiles_y: u32,
    order: TileOrder,
    mode: BinningMode,
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
            mode: cfg.mode,
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

    /// Bins one triangle, drawn as `quads` within `bounds` (the
    /// rasterizer's [`crate::raster::TriangleStats::bounds`]); a triangle
    /// listed in no tile is left out.
    pub(super) fn add(&mut self, quads: &[Quad], bounds: Option<[u32; 4]>, attributes: u32) {
        assert!(attributes >= 1, "a draw's attributes include its position");
        let tiles = match self.mode {
            BinningMode::Exact => self.covered_tiles(quads),
            BinningMode::BoundingBox => bounds.map_or_else(Vec::new, |b| self.box_tiles(b)),
        };
        if !tiles.is_empty() {
            self.prims.push(BinnedPrimitive { attributes, tiles });
        }
    }

    /// The tiles of `quads` with a covered pixel, in quad order, each once.
    fn covered_tiles(&mut self, quads: &[Quad]) -> Vec<u32> {
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
        tiles
    }

    /// The tiles holding pixels `[x0, x1] x [y0, y1]`, row by row.
    fn box_tiles(&self, [x0, y0, x1, y1]: [u32; 4]) -> Vec<u32> {
        let (tx0, tx1) = (x0 / self.tile, x1 / self.tile);
        let (ty0, ty1) = (y0 / self.tile, y1 / self.tile);
        debug_assert!(
            tx1 < self.tiles_x && ty1 < self.tiles_y,
            "bounds off the grid"
        );
        (ty0..=ty1)
            .flat_map(|ty| (tx0..=tx1).map(move |tx| ty * self.tiles_x + tx))
            .collect()
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
