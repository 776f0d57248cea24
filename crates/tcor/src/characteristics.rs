//! The scene characteristics of the TCOR paper's Table II for a binned
//! frame: its Parameter Buffer footprint and the average primitive reuse
//! (tiles per primitive), with the counts behind them.
//!
//! The footprint counts the 64-byte blocks the frame's Parameter Buffer
//! really fills: for PB-Lists, `ceil(list length / 16)` blocks per tile (16
//! four-byte PMDs per block; the same under both layouts, which differ in
//! where the blocks lie, not in how many are written), and for
//! PB-Attributes one block per attribute (48 bytes, block aligned).

use serde::Serialize;

use crate::binning::Binning;
use crate::layout::{BLOCK_BYTES, PMDS_PER_BLOCK};

/// Table II's columns for one frame, and what they are made of.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct Characteristics {
    pub primitives: u64,
    pub tiles: u64,
    /// Tiles with at least one primitive.
    pub busy_tiles: u64,
    pub attributes: u64,
    /// PMDs written, one per (primitive, tile it overlaps).
    pub tile_uses: u64,
    pub pb_lists_blocks: u64,
    pub pb_attribute_blocks: u64,
    /// Parameter Buffer footprint in bytes (both sections).
    pub footprint_bytes: u64,
    /// Average primitive reuse: tiles per primitive.
    pub average_reuse: f64,
    pub longest_list: u32,
}

/// The characteristics of `b`.
pub fn characteristics(b: &Binning) -> Characteristics {
    let lists = (0..b.tiles()).map(|pos| b.list(pos).len() as u64);
    let (mut busy, mut list_blocks) = (0u64, 0u64);
    for len in lists {
        busy += u64::from(len > 0);
        list_blocks += len.div_ceil(u64::from(PMDS_PER_BLOCK));
    }
    let prims = u64::from(b.primitives());
    let attrs = b.total_attributes();
    let uses = b.total_uses();
    Characteristics {
        primitives: prims,
        tiles: u64::from(b.tiles()),
        busy_tiles: busy,
        attributes: attrs,
        tile_uses: uses,
        pb_lists_blocks: list_blocks,
        pb_attribute_blocks: attrs,
        footprint_bytes: (list_blocks + attrs) * BLOCK_BYTES,
        average_reuse: if prims == 0 {
            0.0
        } else {
            uses as f64 / prims as f64
        },
        longest_list: b.longest_list(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::binning::TileOrder;
    use crate::binning::{BinnedFrame, BinnedPrimitive};

    #[test]
    fn counts_by_hand() {
        // 2 x 2 tiles; 17 one-tile primitives in tile 0 (two list blocks),
        // one 3-attribute primitive over tiles 1 and 3. Tile 2 is empty.
        let mut primitives: Vec<BinnedPrimitive> = (0..17)
            .map(|_| BinnedPrimitive {
                attributes: 2,
                tiles: vec![0],
            })
            .collect();
        primitives.push(BinnedPrimitive {
            attributes: 3,
            tiles: vec![3, 1],
        });
        let f = BinnedFrame {
            tiles_x: 2,
            tiles_y: 2,
            tile_size: 32,
            order: TileOrder::Scanline,
            primitives,
        };
        let c = characteristics(&Binning::new(&f).unwrap());
        assert_eq!(c.primitives, 18);
        assert_eq!(c.tiles, 4);
        assert_eq!(c.busy_tiles, 3);
        assert_eq!(c.attributes, 17 * 2 + 3);
        assert_eq!(c.tile_uses, 19);
        assert_eq!(c.pb_lists_blocks, 2 + 1 + 1);
        assert_eq!(c.footprint_bytes, (4 + 37) * 64);
        assert_eq!(c.average_reuse, 19.0 / 18.0);
        assert_eq!(c.longest_list, 17);
    }
}
