//! What tile-based rendering (TBR) needs besides the immediate-mode
//! pipeline: its configuration, its counters, what a clear or a discard
//! tells the next render pass about loading a target, and the geometry of
//! one render pass kept per tile between the geometry and raster phases
//! ([`super::Pipeline::draw_tiled`] does the work).

use gfxcache_trace::binned::TileOrder;

use crate::buffers::MAX_ATTRS;
use crate::raster::Quad;

use super::{BinningConfig, BinningMode};

/// A tile-based GPU as the TCOR paper's Table I has it: 32x32 tiles in
/// Z-order, four fragment processors; exact binning.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TbrConfig {
    /// Tile side in pixels (even, so a 2x2 quad lies in one tile).
    pub tile_size: u32,
    /// The Tile Fetcher's traversal order.
    pub order: TileOrder,
    /// Fragment processors the quads of a tile are spread over, each with
    /// its own texture cache (`unit` of their `tex` records).
    pub fps: u16,
    /// Hidden-surface removal (TBDR): shade only the visible fragment of
    /// each pixel among the opaque draws (see `hsr.rs`). Same pixels.
    pub hsr: bool,
    /// Which tiles the Polygon List Builder lists a triangle in (exact
    /// when absent: configurations from before the mode existed).
    #[serde(default)]
    pub binning_mode: BinningMode,
    /// How the raster phase deals a tile's quads to the fragment
    /// processors (round-robin when absent: configurations from before
    /// the choice existed).
    #[serde(default)]
    pub fp_assignment: FpAssignment,
}

/// How the raster phase deals quads to fragment processors. The papers do
/// not say how their simulators do it, and on a DTM-NUCA which processor
/// shades which pixels decides its local hits, so it is a knob.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FpAssignment {
    /// One 4x4 stamp (a triangle's quads in one 4x4-pixel square) at a
    /// time, to processors 0, 1, 2, ... in turn, from 0 in every tile.
    #[default]
    RoundRobin,
    /// Screen-space squares of `side` pixels (a multiple of the 4-pixel
    /// stamp): block (bx, by) goes to processor
    /// `(bx + by * blocks_per_row) % fps`, `blocks_per_row` being the
    /// blocks across the render pass's targets.
    Blocks { side: u32 },
    /// A whole tile to one processor: the pass's i-th tile in traversal
    /// order to processor `i % fps`.
    Tiles,
}

impl FpAssignment {
    /// The default block side of [`FpAssignment::Blocks`]: 16 pixels, the
    /// squares immediate mode interleaves over its sampler units.
    pub const DEFAULT_BLOCK_SIDE: u32 = 16;

    /// `round-robin`, `blocks:SIDE` or `tiles` (what [`FpAssignment::parse`]
    /// reads).
    pub fn name(&self) -> String {
        match self {
            FpAssignment::RoundRobin => "round-robin".into(),
            FpAssignment::Blocks { side } => format!("blocks:{side}"),
            FpAssignment::Tiles => "tiles".into(),
        }
    }

    /// `round-robin`, `blocks` (side [`FpAssignment::DEFAULT_BLOCK_SIDE`]),
    /// `blocks:SIDE` or `tiles`; the error says what was expected.
    pub fn parse(s: &str) -> Result<Self, String> {
        let a = match s {
            "round-robin" => FpAssignment::RoundRobin,
            "tiles" => FpAssignment::Tiles,
            "blocks" => FpAssignment::Blocks {
                side: Self::DEFAULT_BLOCK_SIDE,
            },
            _ => match s.strip_prefix("blocks:") {
                Some(n) => FpAssignment::Blocks {
                    side: n.parse().map_err(|_| {
                        format!("'{s}': expected blocks:SIDE with SIDE a number of pixels")
                    })?,
                },
                None => {
                    return Err(format!(
                        "'{s}': expected round-robin, blocks, blocks:SIDE or tiles"
                    ))
                }
            },
        };
        a.check()?;
        Ok(a)
    }

    /// Why this assignment cannot be used, if it cannot: a block side must
    /// be a positive multiple of the stamp, so a stamp lies in one block.
    pub fn check(&self) -> Result<(), String> {
        match self {
            FpAssignment::Blocks { side } if *side == 0 || side % super::STAMP != 0 => {
                Err(format!(
                    "blocks of {side} pixels: expected a positive multiple of {}",
                    super::STAMP
                ))
            }
            _ => Ok(()),
        }
    }
}

impl Default for TbrConfig {
    fn default() -> Self {
        TbrConfig {
            tile_size: 32,
            order: TileOrder::ZOrder,
            fps: 4,
            hsr: false,
            binning_mode: BinningMode::Exact,
            fp_assignment: FpAssignment::RoundRobin,
        }
    }
}

impl TbrConfig {
    /// TCOR Table I's screen resolution.
    pub const TABLE_I_RESOLUTION: (u32, u32) = (1960, 768);
    /// Most fragment processors accepted (each has a 64 KiB texture cache).
    pub const MAX_FPS: u16 = 256;

    /// Why this configuration cannot be used, if it cannot.
    pub fn check(&self) -> Result<(), String> {
        self.binning().check()?;
        if !(1..=Self::MAX_FPS).contains(&self.fps) {
            return Err(format!(
                "{} fragment processors: expected 1 to {}",
                self.fps,
                Self::MAX_FPS
            ));
        }
        self.fp_assignment.check()
    }

    /// How the Polygon List Builder bins for this configuration.
    pub fn binning(&self) -> BinningConfig {
        BinningConfig {
            tile_size: self.tile_size,
            order: self.order,
            mode: self.binning_mode,
        }
    }
}

/// Counters of the tile-based mode, summed since the pipeline was made.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TbrStats {
    /// Render passes: runs of draws into the same targets, each rendered
    /// tile by tile.
    pub render_passes: u64,
    /// Tiles rendered (one `TileBegin` each).
    pub tiles: u64,
    /// Quads given to each fragment processor (index = `unit`).
    pub quads_per_fp: Vec<u64>,
    /// 64 B blocks read from memory into the tile buffers (targets neither
    /// cleared nor discarded before the render pass).
    pub loaded_blocks: u64,
    /// 64 B blocks the tile buffers wrote to memory at tile ends.
    pub flushed_blocks: u64,
    /// Covered pixels of opaque draws that hidden-surface removal took out
    /// before the depth test (many would have failed it anyway).
    pub hsr_hidden: u64,
}

/// What a render pass does with a target's old contents at tile start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum LoadOp {
    /// Read the tile from memory (nothing said otherwise).
    Load,
    /// Cleared since: the tile buffer starts at the clear value, and even
    /// an untouched tile is stored.
    Clear,
    /// Discarded ([`super::Pipeline::discard_color`]): the old contents are
    /// not needed.
    DontCare,
}

/// A triangle of the render pass: its vertices' attributes and its draw.
#[derive(Clone, Copy)]
pub(super) struct BinnedTri {
    pub(super) attrs: [[f32; MAX_ATTRS]; 3],
    pub(super) draw: u32,
}

/// The geometry of one render pass, per tile: each tile's quads in
/// submission order (draw, triangle, stamp order), with their triangle.
/// Kept between render passes so the vectors are reused.
#[derive(Default)]
pub(super) struct TileBins {
    pub(super) quads: Vec<Vec<Quad>>,
    pub(super) tris: Vec<Vec<u32>>,
    pub(super) attrs: Vec<BinnedTri>,
}

impl TileBins {
    /// Empty bins for `tiles` tiles.
    pub(super) fn reset(&mut self, tiles: usize) {
        self.quads
            .resize_with(tiles.max(self.quads.len()), Vec::new);
        self.tris.resize_with(tiles.max(self.tris.len()), Vec::new);
        self.quads.iter_mut().for_each(Vec::clear);
        self.tris.iter_mut().for_each(Vec::clear);
        self.attrs.clear();
    }
}

/// The tile grid of a `width` x `height` render pass.
#[derive(Clone, Copy, Debug)]
pub(super) struct TileGrid {
    pub(super) tile: u32,
    pub(super) tiles_x: u32,
    pub(super) tiles_y: u32,
    pub(super) width: u32,
    pub(super) height: u32,
}

impl TileGrid {
    pub(super) fn new(tile: u32, width: u32, height: u32) -> TileGrid {
        TileGrid {
            tile,
            tiles_x: width.div_ceil(tile).max(1),
            tiles_y: height.div_ceil(tile).max(1),
            width,
            height,
        }
    }

    pub(super) fn tiles(&self) -> usize {
        (self.tiles_x * self.tiles_y) as usize
    }

    /// The tile (`y * tiles_x + x`, as the Polygon List Builder numbers
    /// them) holding pixel `(x, y)`.
    pub(super) fn tile_of(&self, x: u32, y: u32) -> usize {
        ((y / self.tile) * self.tiles_x + x / self.tile) as usize
    }

    /// Pixels `[x0, x1) x [y0, y1)` of `tile`, clipped to the screen.
    pub(super) fn rect(&self, tile: u32) -> [u32; 4] {
        let (tx, ty) = (tile % self.tiles_x, tile / self.tiles_x);
        let (x0, y0) = (tx * self.tile, ty * self.tile);
        [
            x0,
            y0,
            (x0 + self.tile).min(self.width),
            (y0 + self.tile).min(self.height),
        ]
    }
}
