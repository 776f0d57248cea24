//! Binned render passes: what a tile-based GPU's Polygon List Builder knows
//! once it has binned a render pass. The renderer (`gfxcache-render`) fills
//! them; the Tiling Engine models of `gfxcache-tcor` read them, in the
//! record stream ([`crate::RecordSink::binned`]) or from the JSON file
//! `render --binned` writes ([`file`]). They live here, beside the records,
//! so that neither side depends on the other.
//!
//! - [`BinnedFrame`]: the tile grid (`tiles_x` x `tiles_y` tiles of
//!   `tile_size` pixels; TCOR Table I: 32x32 tiles of a 1960x768 screen),
//!   the Tile Fetcher's traversal order ([`TileOrder`], Z-order by default)
//!   and the primitives in Polygon List Builder (program) order, each with
//!   its number of attributes and the tiles it overlaps.
//!   [`BinnedFrame::check`] says whether a frame can be binned at all.
//! - [`BinnedPass`]: one render pass's binned frame, with its frame number
//!   and pass name.
//! - [`is_tile_buffer`]: the streams a tile-based GPU keeps in on-chip tile
//!   buffers.

pub mod file;
mod order;

use serde::{Deserialize, Serialize};

use crate::record::Stream;

pub use file::{parse, read, to_json, BinnedFileError, MAX_ATTRIBUTES, MAX_TILES_PER_SIDE};
pub use order::TileOrder;

/// A tile's ID in the grid: `y * tiles_x + x`.
pub type TileId = u32;

/// One primitive as the Polygon List Builder receives it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BinnedPrimitive {
    /// Number of attributes (48 bytes each, one per 64-byte block).
    pub attributes: u32,
    /// The tiles the primitive overlaps, in any order, each once.
    pub tiles: Vec<TileId>,
}

/// A render pass after binning: the structure the tile-based renderer fills.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BinnedFrame {
    pub tiles_x: u32,
    pub tiles_y: u32,
    /// Tile side in pixels (Table I: 32). Informational: nothing that reads
    /// a binned frame depends on it.
    pub tile_size: u32,
    pub order: TileOrder,
    /// In Polygon List Builder (program) order; the index is the
    /// primitive's number everywhere.
    pub primitives: Vec<BinnedPrimitive>,
}

/// One render pass's binned frame, as the renderer hands it over and the
/// binned passes file lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BinnedPass {
    /// The number of the frame the pass belongs to.
    pub frame_number: u32,
    /// The name of the (frame) pass the render pass belongs to.
    pub pass: String,
    pub frame: BinnedFrame,
}

/// A [`BinnedFrame`] the Polygon List Builder cannot bin.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BinningError {
    #[error("tile grid {tiles_x}x{tiles_y}: expected at least one tile and at most 2^32")]
    Grid { tiles_x: u32, tiles_y: u32 },
    #[error("primitive {prim}: tile {tile} is outside the grid of {tiles} tiles")]
    TileOutOfRange { prim: usize, tile: u32, tiles: u32 },
    #[error("primitive {prim}: zero attributes (a primitive has at least one)")]
    ZeroAttributes { prim: usize },
    #[error("primitive {prim}: tile {tile} is listed twice (a primitive appears in a tile's list at most once)")]
    DuplicateTile { prim: usize, tile: u32 },
    #[error("primitive {prim}: overlaps no tile (the Polygon List Builder never receives it)")]
    NoTiles { prim: usize },
    #[error("more than 2^32 primitive-tile pairs")]
    TooLarge,
}

impl BinnedFrame {
    /// Number of tiles of the grid (0 for an empty one).
    pub fn tiles(&self) -> u64 {
        u64::from(self.tiles_x) * u64::from(self.tiles_y)
    }

    /// Whether the frame can be binned: a grid of 1 to 2^32 - 1 tiles, and
    /// every primitive with at least one attribute and at least one tile,
    /// each inside the grid and listed once; at most 2^32 - 1
    /// primitive-tile pairs in all. Allocates one word per tile.
    pub fn check(&self) -> Result<(), BinningError> {
        let tiles = self.tiles();
        if tiles == 0 || tiles > u64::from(u32::MAX) {
            return Err(BinningError::Grid {
                tiles_x: self.tiles_x,
                tiles_y: self.tiles_y,
            });
        }
        let tiles = tiles as u32;
        // Which primitive last listed each tile: finds a tile listed twice
        // without sorting or allocating per primitive.
        let mut marked = vec![u32::MAX; tiles as usize];
        let mut uses = 0u64;
        for (p, prim) in self.primitives.iter().enumerate() {
            if prim.attributes == 0 {
                return Err(BinningError::ZeroAttributes { prim: p });
            }
            if prim.tiles.is_empty() {
                return Err(BinningError::NoTiles { prim: p });
            }
            for &t in &prim.tiles {
                if t >= tiles {
                    return Err(BinningError::TileOutOfRange {
                        prim: p,
                        tile: t,
                        tiles,
                    });
                }
                if marked[t as usize] == p as u32 {
                    return Err(BinningError::DuplicateTile { prim: p, tile: t });
                }
                marked[t as usize] = p as u32;
            }
            uses += prim.tiles.len() as u64;
            if uses > u64::from(u32::MAX) {
                return Err(BinningError::TooLarge);
            }
        }
        Ok(())
    }
}

/// Whether stream `s` is tile-buffer traffic of a tile-based GPU: colour,
/// depth, stencil and HiZ live on chip during a tile and move to memory
/// only as tile loads and stores.
pub fn is_tile_buffer(s: Stream) -> bool {
    matches!(
        s,
        Stream::Rt | Stream::Display | Stream::Z | Stream::Stc | Stream::Hiz
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(prims: &[(u32, &[u32])]) -> BinnedFrame {
        BinnedFrame {
            tiles_x: 3,
            tiles_y: 3,
            tile_size: 32,
            order: TileOrder::Scanline,
            primitives: prims
                .iter()
                .map(|&(attributes, tiles)| BinnedPrimitive {
                    attributes,
                    tiles: tiles.to_vec(),
                })
                .collect(),
        }
    }

    #[test]
    fn invalid_frames_are_errors() {
        let bad = |prims: &[(u32, &[u32])]| frame(prims).check().unwrap_err();
        assert_eq!(
            bad(&[(1, &[0]), (1, &[9])]),
            BinningError::TileOutOfRange {
                prim: 1,
                tile: 9,
                tiles: 9
            }
        );
        assert_eq!(bad(&[(0, &[0])]), BinningError::ZeroAttributes { prim: 0 });
        assert_eq!(
            bad(&[(1, &[3, 5, 3])]),
            BinningError::DuplicateTile { prim: 0, tile: 3 }
        );
        assert_eq!(bad(&[(1, &[])]), BinningError::NoTiles { prim: 0 });
        let mut f = frame(&[]);
        f.tiles_x = 0;
        assert!(matches!(f.check(), Err(BinningError::Grid { .. })));
        assert!(bad(&[(1, &[9])]).to_string().contains("tile 9"));
    }

    #[test]
    fn a_tile_in_two_primitives_is_fine() {
        frame(&[(1, &[0, 4]), (2, &[4]), (1, &[8, 0])])
            .check()
            .unwrap();
        frame(&[]).check().unwrap();
    }

    #[test]
    fn tile_buffers_are_the_targets_streams() {
        let on_chip: Vec<&str> = Stream::ALL
            .iter()
            .filter(|s| is_tile_buffer(**s))
            .map(|s| s.name())
            .collect();
        assert_eq!(on_chip, ["hiz", "z", "stc", "rt", "display"]);
    }
}
