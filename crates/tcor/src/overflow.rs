//! The baseline PB-Lists layout's overflow area: where a tile's list goes
//! on once it outgrows its room of [`BASELINE_MAX_LIST`] PMDs.
//!
//! The paper gives the baseline (Figure 3) a fixed room of 1024 PMDs per
//! tile and says nothing of longer lists. The design here is ours, after
//! the chunked tile lists of Mali's Polygon List Builder (the Mali-200/400
//! PLBU writes each tile's list in fixed-size chunks, 128 to 1024 bytes,
//! taken from a heap, finds each tile's list through a per-tile pointer
//! array, and ends a full chunk with a link to the next):
//!
//! - the first 1024 PMDs of every list stay at their Figure-3 addresses;
//! - past them, the Polygon List Builder continues the list in **chunks**
//!   of `chunk_slots` 4-byte slots ([`PbLayout::overflow_chunk_slots`], by
//!   default [`DEFAULT_OVERFLOW_CHUNK_SLOTS`]: 512 bytes, Mali's default
//!   chunk format), `chunk_slots - 1` PMDs and, in the last slot, the link
//!   to the tile's next chunk;
//! - chunks are taken from the overflow area in the order the Polygon List
//!   Builder needs them (a bump allocator), so the chunks of different
//!   tiles interleave;
//! - the overflow area starts right after the last tile's room: first the
//!   **pointer array**, one 4-byte pointer per tile ID to the tile's first
//!   chunk (16 per block), then the chunks.
//!
//! Pointer traffic: the Polygon List Builder writes a tile's pointer when it
//! takes the tile's first chunk, and a full chunk's link when it takes the
//! next, each right before the PMD write that needed the chunk; the Tile
//! Fetcher reads the pointer right before reading the tile's PMD 1024, and a
//! link right before the first PMD of the chunk it leads to. Both are
//! PB-Lists accesses ([`crate::PbAccess::pointer`]).

use serde::{Deserialize, Serialize};

use crate::binning::{Binning, TilePos};
use crate::layout::{PbLayout, BASELINE_LIST_BLOCKS, BASELINE_MAX_LIST, BLOCK_BYTES, PMD_BYTES};

/// Slots of an overflow chunk by default: 512 bytes, the default tile-list
/// chunk of the Mali-200/400 Polygon List Builder (`MALI_TILELIST_CHUNK_FORMAT`
/// 2 of its driver: 512-byte blocks), 127 PMDs and the link.
pub const DEFAULT_OVERFLOW_CHUNK_SLOTS: u32 = 128;

/// How much of one render pass's baseline PB-Lists is in the overflow area.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OverflowUsage {
    /// Tiles whose list is longer than the room of 1024 PMDs.
    pub tiles: u64,
    /// PMDs in the overflow area (written once, read once).
    pub pmds: u64,
    /// Chunks taken: each one pointer (or link) written and read.
    pub chunks: u64,
}

/// The overflow area of one render pass laid out by a baseline
/// [`PbLayout`] whose lists outgrow their room.
#[derive(Clone, Debug)]
pub struct ListOverflow {
    chunk_slots: u32,
    /// Byte address of the pointer array, and of chunk 0.
    pointers: u64,
    chunks: u64,
    /// Per traversal position, `by_tile[start[pos]..start[pos + 1]]` are its
    /// chunks in list order.
    start: Vec<u32>,
    by_tile: Vec<u32>,
    /// Chunk -> traversal position of the tile whose list it holds.
    owner: Vec<TilePos>,
    usage: OverflowUsage,
}

/// PMDs a chunk of `chunk_slots` slots holds (the last slot is the link).
fn pmds_per_chunk(chunk_slots: u32) -> u32 {
    chunk_slots - 1
}

/// Chunks a list of `len` PMDs takes in the overflow area.
pub(crate) fn chunks_of(len: u32, chunk_slots: u32) -> u32 {
    len.saturating_sub(BASELINE_MAX_LIST)
        .div_ceil(pmds_per_chunk(chunk_slots))
}

/// Byte address of the overflow area of a frame of `tiles` tiles: right
/// after the last tile's room.
pub(crate) fn overflow_base(layout: &PbLayout, tiles: u32) -> u64 {
    layout.lists_ptr + u64::from(tiles) * BASELINE_LIST_BLOCKS * BLOCK_BYTES
}

/// Byte address of the first chunk: after the pointer array.
pub(crate) fn chunks_base(layout: &PbLayout, tiles: u32) -> u64 {
    let pointer_blocks = (u64::from(tiles) * PMD_BYTES).div_ceil(BLOCK_BYTES);
    overflow_base(layout, tiles) + pointer_blocks * BLOCK_BYTES
}

impl ListOverflow {
    /// The overflow area of `b` laid out by `layout`: `None` unless the
    /// layout is the baseline's and some list outgrows its room.
    /// [`PbLayout::check`] must have accepted the pair.
    pub fn new(layout: &PbLayout, b: &Binning) -> Option<ListOverflow> {
        if layout.lists != crate::ListsLayout::Baseline || b.longest_list() <= BASELINE_MAX_LIST {
            return None;
        }
        let chunk_slots = layout.overflow_chunk_slots;
        let per = pmds_per_chunk(chunk_slots);
        let mut start = Vec::with_capacity(b.tiles() as usize + 1);
        let mut usage = OverflowUsage::default();
        let mut total = 0u32;
        for pos in 0..b.tiles() {
            start.push(total);
            let len = b.list(pos).len() as u32;
            let n = chunks_of(len, chunk_slots);
            total += n;
            if n > 0 {
                usage.tiles += 1;
                usage.pmds += u64::from(len - BASELINE_MAX_LIST);
            }
        }
        start.push(total);
        usage.chunks = u64::from(total);
        // Chunks in the order the Polygon List Builder takes them.
        let mut by_tile = vec![0u32; total as usize];
        let mut owner = Vec::with_capacity(total as usize);
        for prim in 0..b.primitives() {
            for (&pos, &slot) in b.uses(prim).iter().zip(b.slots(prim)) {
                if slot >= BASELINE_MAX_LIST && (slot - BASELINE_MAX_LIST).is_multiple_of(per) {
                    let j = (slot - BASELINE_MAX_LIST) / per;
                    by_tile[(start[pos as usize] + j) as usize] = owner.len() as u32;
                    owner.push(pos);
                }
            }
        }
        Some(ListOverflow {
            chunk_slots,
            pointers: overflow_base(layout, b.tiles()),
            chunks: chunks_base(layout, b.tiles()),
            start,
            by_tile,
            owner,
            usage,
        })
    }

    pub fn usage(&self) -> OverflowUsage {
        self.usage
    }

    /// Byte address of chunk `chunk`'s slot `slot`.
    fn slot_addr(&self, chunk: u32, slot: u32) -> u64 {
        self.chunks + (u64::from(chunk) * u64::from(self.chunk_slots) + u64::from(slot)) * PMD_BYTES
    }

    /// The `j`-th chunk of the list of the tile at `pos`, and where in it
    /// PMD `slot` (at least 1024) of that list goes.
    fn locate(&self, pos: TilePos, slot: u32) -> (u32, u32, u32) {
        let per = pmds_per_chunk(self.chunk_slots);
        let o = slot - BASELINE_MAX_LIST;
        let j = o / per;
        (
            self.by_tile[(self.start[pos as usize] + j) as usize],
            j,
            o % per,
        )
    }

    /// Byte address of PMD `slot` (at least 1024) of the list of the tile
    /// at traversal position `pos`.
    pub fn pmd_addr(&self, pos: TilePos, slot: u32) -> u64 {
        let (chunk, _, within) = self.locate(pos, slot);
        self.slot_addr(chunk, within)
    }

    /// The pointer the Polygon List Builder writes, and the Tile Fetcher
    /// reads, right before PMD `slot` of the list of tile `tile` (at `pos`):
    /// the tile's pointer before its first overflowing PMD, a chunk's link
    /// before the first PMD of the next chunk, else `None`.
    pub fn pointer_before(&self, pos: TilePos, tile: u32, slot: u32) -> Option<u64> {
        if slot < BASELINE_MAX_LIST {
            return None;
        }
        let (_, j, within) = self.locate(pos, slot);
        match (j, within) {
            (0, 0) => Some(self.pointers + u64::from(tile) * PMD_BYTES),
            (_, 0) => {
                let prev = self.by_tile[(self.start[pos as usize] + j - 1) as usize];
                Some(self.slot_addr(prev, self.chunk_slots - 1))
            }
            _ => None,
        }
    }

    /// Whether byte address `addr` is in the overflow area.
    pub fn contains(&self, addr: u64) -> bool {
        let end = self.slot_addr(self.owner.len() as u32, 0);
        (self.pointers..end).contains(&addr)
    }

    /// The last tile (traversal position) that reads the 64-byte block at
    /// byte address `addr` of the overflow area, `None` outside it: a
    /// block of the pointer array is read by its overflowing tiles (the
    /// first tile's position if none, a block nothing accesses), a block
    /// of chunks by the tiles whose chunks it holds.
    pub fn last_reader(&self, b: &Binning, addr: u64) -> Option<TilePos> {
        let addr = addr - addr % BLOCK_BYTES;
        if !self.contains(addr) {
            return None;
        }
        if addr < self.chunks {
            let first = (addr - self.pointers) / PMD_BYTES;
            let tiles = first..(first + BLOCK_BYTES / PMD_BYTES).min(u64::from(b.tiles()));
            return tiles
                .map(|t| b.position_of(t as u32))
                .filter(|&pos| self.start[pos as usize] < self.start[pos as usize + 1])
                .max()
                .or(Some(0));
        }
        let bytes = u64::from(self.chunk_slots) * PMD_BYTES;
        let first = (addr - self.chunks) / bytes;
        let last =
            ((addr + BLOCK_BYTES - 1 - self.chunks) / bytes).min(self.owner.len() as u64 - 1);
        (first..=last).map(|c| self.owner[c as usize]).max()
    }
}

/// Overflow-area use over render passes, and the Tiling Engine's L2
/// traffic to it: how often the baseline's lists outgrew their room.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OverflowCounts {
    /// Render passes with a list longer than 1024 PMDs.
    pub passes: u64,
    /// Tiles (summed over those passes) with such a list.
    pub tiles: u64,
    /// PMDs written to (and read from) the overflow area.
    pub pmds: u64,
    /// Chunks taken (one pointer write and one pointer read each).
    pub chunks: u64,
    /// 64-byte blocks of the overflow area the Tiling Engine read from or
    /// wrote to the L2.
    pub l2_blocks: u64,
}

impl OverflowCounts {
    /// One render pass's use of the area, `l2_blocks` of L2 traffic to it.
    pub fn of_pass(u: &OverflowUsage, l2_blocks: u64) -> OverflowCounts {
        OverflowCounts {
            passes: u64::from(u.tiles > 0),
            tiles: u.tiles,
            pmds: u.pmds,
            chunks: u.chunks,
            l2_blocks,
        }
    }

    pub fn add(&mut self, o: &OverflowCounts) {
        self.passes += o.passes;
        self.tiles += o.tiles;
        self.pmds += o.pmds;
        self.chunks += o.chunks;
        self.l2_blocks += o.l2_blocks;
    }

    /// The counts since `earlier`, a snapshot of the same run.
    pub fn since(&self, earlier: &OverflowCounts) -> OverflowCounts {
        OverflowCounts {
            passes: self.passes - earlier.passes,
            tiles: self.tiles - earlier.tiles,
            pmds: self.pmds - earlier.pmds,
            chunks: self.chunks - earlier.chunks,
            l2_blocks: self.l2_blocks - earlier.l2_blocks,
        }
    }
}
