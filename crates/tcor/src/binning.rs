//! What the Polygon List Builder derives from a binned frame.
//!
//! [`BinnedFrame`] (in `gfxcache-trace`, which the renderer fills) is the
//! input: the tile grid (`tiles_x` x `tiles_y` tiles of `tile_size` x
//! `tile_size` pixels; Table I: 32x32 tiles of a 1960x768 screen), the
//! tile traversal order ([`TileOrder`], Z-order by default as in Table I),
//! and the primitives in Polygon List Builder order (program order), each
//! with its number of attributes and the tiles it overlaps.
//!
//! [`Binning`] is what the Polygon List Builder derives from it (Section
//! III-A): per primitive, the positions in the traversal of the tiles that
//! use it, hence its OPT Number at each use (the position of the *next*
//! tile that uses it) and its last tile (the [`LastTileId`] the L2
//! enhancements of Section III-D propagate); per tile, its list of
//! primitives in Polygon List Builder order, each with the OPT Number its
//! PMD carries. All of it lives in flat arrays built once, so the
//! simulators allocate nothing per access.

use serde::{Deserialize, Serialize};

pub use gfxcache_trace::binned::{BinnedFrame, BinnedPrimitive, BinningError, TileId, TileOrder};

/// A tile's position in the traversal: the Tile Fetcher processes the tile
/// at position 0 first.
pub type TilePos = u32;

/// The OPT Number of Section III-A: the traversal position of the next tile
/// that will use a primitive, or [`OptNumber::NEVER`] when no tile will.
/// A greater OPT Number means a use farther in the future.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct OptNumber(pub u32);

impl OptNumber {
    /// No further use in this frame: farther than any tile.
    pub const NEVER: OptNumber = OptNumber(u32::MAX);

    pub fn is_never(self) -> bool {
        self == OptNumber::NEVER
    }
}

/// The traversal position of the last tile that uses a piece of the
/// Parameter Buffer; after that tile the data is dead (Section III-D).
pub type LastTileId = TilePos;

/// One entry of a tile's list: a primitive and the OPT Number its PMD in
/// that list carries (the next tile after this one that uses it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ListEntry {
    pub prim: u32,
    pub opt: OptNumber,
}

/// What the Polygon List Builder derives from a [`BinnedFrame`].
#[derive(Clone, Debug)]
pub struct Binning {
    tiles_x: u32,
    tiles_y: u32,
    order: TileOrder,
    /// Position -> tile ID.
    sequence: Vec<TileId>,
    /// Tile ID -> position.
    position: Vec<TilePos>,
    attributes: Vec<u32>,
    /// Per primitive, the index of its first attribute in PB-Attributes
    /// (attributes of all earlier primitives); one more entry at the end.
    attr_start: Vec<u64>,
    /// Per primitive, `uses[use_start[p]..use_start[p + 1]]` are the
    /// positions of the tiles that use it, ascending.
    use_start: Vec<u32>,
    uses: Vec<TilePos>,
    /// Per position, `lists[list_start[t]..list_start[t + 1]]` is the list of
    /// the tile at position `t`, in Polygon List Builder order.
    list_start: Vec<u32>,
    lists: Vec<ListEntry>,
    /// Per primitive, its index inside each of its tiles' lists, in the
    /// order of `uses` (where the Polygon List Builder appends its PMD).
    slot: Vec<u32>,
}

impl Binning {
    /// Checks the frame ([`BinnedFrame::check`]) and derives its binning.
    pub fn new(frame: &BinnedFrame) -> Result<Binning, BinningError> {
        frame.check()?;
        let tiles = frame.tiles() as u32;
        let sequence = frame.order.sequence(frame.tiles_x, frame.tiles_y);
        let mut position = vec![0; tiles as usize];
        for (pos, &t) in sequence.iter().enumerate() {
            position[t as usize] = pos as TilePos;
        }

        let n = frame.primitives.len();
        let mut attributes = Vec::with_capacity(n);
        let mut attr_start = Vec::with_capacity(n + 1);
        let mut use_start = Vec::with_capacity(n + 1);
        let mut uses: Vec<TilePos> = Vec::new();
        let mut list_len = vec![0u32; tiles as usize];
        let mut total_attrs = 0u64;
        for prim in &frame.primitives {
            attributes.push(prim.attributes);
            attr_start.push(total_attrs);
            total_attrs += u64::from(prim.attributes);
            use_start.push(uses.len() as u32);
            let from = uses.len();
            for &t in &prim.tiles {
                uses.push(position[t as usize]);
                list_len[position[t as usize] as usize] += 1;
            }
            uses[from..].sort_unstable();
        }
        attr_start.push(total_attrs);
        use_start.push(uses.len() as u32);

        let mut list_start = Vec::with_capacity(tiles as usize + 1);
        let mut acc = 0u32;
        for &len in &list_len {
            list_start.push(acc);
            acc += len;
        }
        list_start.push(acc);
        let mut fill = list_start.clone();
        let mut lists = vec![
            ListEntry {
                prim: 0,
                opt: OptNumber::NEVER
            };
            uses.len()
        ];
        let mut slot = vec![0u32; uses.len()];
        for p in 0..n {
            let (a, b) = (use_start[p] as usize, use_start[p + 1] as usize);
            for i in a..b {
                let pos = uses[i] as usize;
                let opt = if i + 1 < b {
                    OptNumber(uses[i + 1])
                } else {
                    OptNumber::NEVER
                };
                slot[i] = fill[pos] - list_start[pos];
                lists[fill[pos] as usize] = ListEntry {
                    prim: p as u32,
                    opt,
                };
                fill[pos] += 1;
            }
        }

        Ok(Binning {
            tiles_x: frame.tiles_x,
            tiles_y: frame.tiles_y,
            order: frame.order,
            sequence,
            position,
            attributes,
            attr_start,
            use_start,
            uses,
            list_start,
            lists,
            slot,
        })
    }

    pub fn tiles_x(&self) -> u32 {
        self.tiles_x
    }

    pub fn tiles_y(&self) -> u32 {
        self.tiles_y
    }

    pub fn order(&self) -> TileOrder {
        self.order
    }

    /// Number of tiles.
    pub fn tiles(&self) -> u32 {
        self.sequence.len() as u32
    }

    /// Number of primitives (TP of Section V-A).
    pub fn primitives(&self) -> u32 {
        self.attributes.len() as u32
    }

    /// The tile IDs in traversal order.
    pub fn sequence(&self) -> &[TileId] {
        &self.sequence
    }

    pub fn tile_at(&self, pos: TilePos) -> TileId {
        self.sequence[pos as usize]
    }

    pub fn position_of(&self, tile: TileId) -> TilePos {
        self.position[tile as usize]
    }

    pub fn attributes(&self, prim: u32) -> u32 {
        self.attributes[prim as usize]
    }

    /// Index of the primitive's first attribute in PB-Attributes.
    pub fn first_attribute(&self, prim: u32) -> u64 {
        self.attr_start[prim as usize]
    }

    /// The primitive owning attribute number `index` of PB-Attributes.
    pub fn primitive_of_attribute(&self, index: u64) -> u32 {
        debug_assert!(index < self.total_attributes());
        (self.attr_start.partition_point(|&s| s <= index) - 1) as u32
    }

    /// Attributes of all primitives.
    pub fn total_attributes(&self) -> u64 {
        *self
            .attr_start
            .last()
            .expect("one entry past the last primitive")
    }

    /// Positions of the tiles that use the primitive, ascending.
    pub fn uses(&self, prim: u32) -> &[TilePos] {
        let p = prim as usize;
        &self.uses[self.use_start[p] as usize..self.use_start[p + 1] as usize]
    }

    /// Where the primitive's PMD sits in the list of each tile of
    /// [`Binning::uses`], in the same order.
    pub fn slots(&self, prim: u32) -> &[u32] {
        let p = prim as usize;
        &self.slot[self.use_start[p] as usize..self.use_start[p + 1] as usize]
    }

    /// The OPT Number of the Polygon List Builder's write of the primitive:
    /// the first tile that will read it (Section III-C4).
    pub fn first_use(&self, prim: u32) -> OptNumber {
        OptNumber(self.uses(prim)[0])
    }

    /// The last tile that uses the primitive: its attributes are dead once
    /// that tile is finished.
    pub fn last_tile(&self, prim: u32) -> LastTileId {
        *self.uses(prim).last().expect("a primitive has a tile")
    }

    /// Total PMDs (tile uses of primitives).
    pub fn total_uses(&self) -> u64 {
        self.uses.len() as u64
    }

    /// The list of the tile at traversal position `pos`.
    pub fn list(&self, pos: TilePos) -> &[ListEntry] {
        let p = pos as usize;
        &self.lists[self.list_start[p] as usize..self.list_start[p + 1] as usize]
    }

    /// Length of the longest tile list.
    pub fn longest_list(&self) -> u32 {
        self.list_start
            .windows(2)
            .map(|w| w[1] - w[0])
            .max()
            .unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(order: TileOrder, prims: &[(u32, &[u32])]) -> BinnedFrame {
        BinnedFrame {
            tiles_x: 3,
            tiles_y: 3,
            tile_size: 32,
            order,
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
    fn opt_numbers_follow_the_traversal() {
        let f = frame(TileOrder::Scanline, &[(3, &[4, 0, 8]), (1, &[2])]);
        let b = Binning::new(&f).unwrap();
        assert_eq!(b.uses(0), [0, 4, 8]);
        assert_eq!(b.first_use(0), OptNumber(0));
        assert_eq!(b.last_tile(0), 8);
        assert_eq!(
            b.list(4),
            [ListEntry {
                prim: 0,
                opt: OptNumber(8)
            }]
        );
        assert_eq!(b.list(8)[0].opt, OptNumber::NEVER);
        assert_eq!(b.first_attribute(1), 3);
        assert_eq!(
            (0..4)
                .map(|i| b.primitive_of_attribute(i))
                .collect::<Vec<_>>(),
            [0, 0, 0, 1]
        );
        assert_eq!(b.total_attributes(), 4);
        assert_eq!(b.total_uses(), 4);
    }

    #[test]
    fn lists_keep_polygon_list_builder_order() {
        let f = frame(TileOrder::ZOrder, &[(1, &[0, 1]), (1, &[1]), (1, &[1, 0])]);
        let b = Binning::new(&f).unwrap();
        let pos1 = b.position_of(1);
        let prims: Vec<u32> = b.list(pos1).iter().map(|e| e.prim).collect();
        assert_eq!(prims, [0, 1, 2]);
        assert_eq!(b.slots(2), [1, 2]);
    }

    #[test]
    fn opt_numbers_are_positions_not_tile_ids() {
        // Z-order on 3x3: positions of tiles 2 and 3 are 4 and 2.
        let f = frame(TileOrder::ZOrder, &[(1, &[2, 3])]);
        let b = Binning::new(&f).unwrap();
        assert_eq!(b.uses(0), [2, 4]);
        assert_eq!(b.list(2)[0].opt, OptNumber(4));
    }

    #[test]
    fn invalid_frames_are_the_checks_errors() {
        let f = frame(TileOrder::Scanline, &[(1, &[0]), (1, &[3, 5, 3])]);
        assert_eq!(
            Binning::new(&f).unwrap_err(),
            BinningError::DuplicateTile { prim: 1, tile: 3 }
        );
    }
}
