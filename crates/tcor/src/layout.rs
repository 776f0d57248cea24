//! The Parameter Buffer in memory, and the stream of accesses the Tiling
//! Engine makes to it (Sections II-B, II-C and III-B).
//!
//! Two sections, at two predetermined addresses:
//! - **PB-Lists** (from the PB-Lists Pointer): per tile, its list of PMDs
//!   (Primitive Meta Data, 4 bytes: the Primitive ID, the number of
//!   attributes and, in TCOR, the OPT Number), 16 PMDs per 64-byte block.
//!   - baseline (Figure 3): each tile's list contiguous, with room for 1024
//!     primitives, so the next tile's list begins 64 blocks later;
//!   - interleaved (Figure 6): block `k` of every tile's list side by side,
//!     one block per tile, then block `k + 1` of every list: section `k`
//!     starts `k * tiles` blocks after the pointer. No per-tile maximum.
//! - **PB-Attributes** (from the PB-Attributes Pointer): primitives in the
//!   order they reach the Polygon List Builder, each with a variable number
//!   of attributes of 48 bytes (16 per vertex), each block aligned, so one
//!   attribute per 64-byte block. A primitive's ID is the address of its
//!   first attribute.
//!
//! The access stream ([`ParameterBufferStream`]), in time order:
//! 1. the Polygon List Builder, primitive by primitive in program order:
//!    one PMD write to the list of each tile the primitive overlaps (tiles
//!    in traversal order), then the write of its attributes (Section II-C);
//! 2. the Tile Fetcher, tile by tile in traversal order, for each PMD of
//!    the tile's list: the PMD read, then the read of its primitive's
//!    attributes (Section III-C3).
//!
//! One [`PbAccess`] for PB-Attributes stands for all of a primitive's
//! attributes, because the Attribute Cache works per primitive; a
//! conventional cache expands it into one block access per attribute
//! ([`PbAccess::blocks`]). The stream is an iterator over the [`Binning`]'s
//! flat arrays: nothing is allocated per access.

use serde::{Deserialize, Serialize};

use crate::binning::{Binning, LastTileId, OptNumber, TileId, TilePos};
use crate::error::ConfigError;

/// Cache line and memory block size.
pub const BLOCK_BYTES: u64 = 64;
/// A PMD is four bytes: sixteen per block.
pub const PMD_BYTES: u64 = 4;
pub const PMDS_PER_BLOCK: u32 = 16;
/// An attribute: 16 bytes for each of a triangle's three vertices.
pub const ATTRIBUTE_BYTES: u64 = 48;
/// Room per tile list in the baseline PB-Lists layout.
pub const BASELINE_MAX_LIST: u32 = 1024;
/// Blocks per tile list in the baseline layout (1024 PMDs / 16).
pub const BASELINE_LIST_BLOCKS: u64 = (BASELINE_MAX_LIST / PMDS_PER_BLOCK) as u64;

/// How PB-Lists lays out the tile lists.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ListsLayout {
    /// Figure 3: each list contiguous, 64 blocks apart.
    Baseline,
    /// Figure 6: the lists interleaved block by block (TCOR).
    #[default]
    Interleaved,
}

/// Where the two sections start and how PB-Lists is laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PbLayout {
    pub lists: ListsLayout,
    /// PB-Lists Pointer, block aligned.
    pub lists_ptr: u64,
    /// PB-Attributes Pointer, block aligned.
    pub attrs_ptr: u64,
}

impl Default for PbLayout {
    /// TCOR's interleaved layout. The pointers are 1 GiB apart: the baseline
    /// layout needs 4 KiB of PB-Lists per tile, so up to 262 144 tiles.
    fn default() -> PbLayout {
        PbLayout {
            lists: ListsLayout::Interleaved,
            lists_ptr: 0x4000_0000,
            attrs_ptr: 0x8000_0000,
        }
    }
}

impl PbLayout {
    pub fn baseline() -> PbLayout {
        PbLayout {
            lists: ListsLayout::Baseline,
            ..PbLayout::default()
        }
    }

    pub fn interleaved() -> PbLayout {
        PbLayout::default()
    }

    /// Checks that the frame fits: every list within the baseline's room
    /// of 1024 primitives, and the sections block aligned.
    pub fn check(&self, b: &Binning) -> Result<(), ConfigError> {
        if !self.lists_ptr.is_multiple_of(BLOCK_BYTES)
            || !self.attrs_ptr.is_multiple_of(BLOCK_BYTES)
        {
            return Err(ConfigError::Cache(format!(
                "PB pointers {:#x} and {:#x} must be {BLOCK_BYTES}-byte aligned",
                self.lists_ptr, self.attrs_ptr
            )));
        }
        if self.lists == ListsLayout::Baseline {
            for pos in 0..b.tiles() {
                let len = b.list(pos).len() as u32;
                if len > BASELINE_MAX_LIST {
                    return Err(ConfigError::ListTooLong {
                        pos,
                        len,
                        max: BASELINE_MAX_LIST,
                    });
                }
            }
        }
        Ok(())
    }

    /// Byte address of PMD number `slot` of the list of `tile`.
    pub fn pmd_addr(&self, b: &Binning, tile: TileId, slot: u32) -> u64 {
        let (blk, within) = (
            u64::from(slot / PMDS_PER_BLOCK),
            u64::from(slot % PMDS_PER_BLOCK),
        );
        let block = match self.lists {
            ListsLayout::Baseline => u64::from(tile) * BASELINE_LIST_BLOCKS + blk,
            ListsLayout::Interleaved => blk * u64::from(b.tiles()) + u64::from(tile),
        };
        self.lists_ptr + block * BLOCK_BYTES + within * PMD_BYTES
    }

    /// The tile whose list holds the PB-Lists block at `addr` (Section
    /// III-D1: for the interleaved layout, `(block - pointer) mod tiles`).
    pub fn list_tile_of(&self, b: &Binning, addr: u64) -> TileId {
        let block = (addr - self.lists_ptr) / BLOCK_BYTES;
        match self.lists {
            ListsLayout::Baseline => (block / BASELINE_LIST_BLOCKS) as TileId,
            ListsLayout::Interleaved => (block % u64::from(b.tiles())) as TileId,
        }
    }

    /// Byte address of attribute `j` of primitive `prim`.
    pub fn attribute_addr(&self, b: &Binning, prim: u32, j: u32) -> u64 {
        self.attrs_ptr + (b.first_attribute(prim) + u64::from(j)) * BLOCK_BYTES
    }

    /// The Primitive ID: the address of the primitive's first attribute.
    pub fn primitive_id(&self, b: &Binning, prim: u32) -> u64 {
        self.attribute_addr(b, prim, 0)
    }

    /// The section a byte address belongs to: whichever section starts at
    /// or below it, nearer.
    pub fn section_of(&self, addr: u64) -> Section {
        let in_attrs = addr >= self.attrs_ptr;
        let in_lists = addr >= self.lists_ptr;
        match (in_lists, in_attrs) {
            (true, true) if self.lists_ptr > self.attrs_ptr => Section::PbLists,
            (_, true) => Section::PbAttributes,
            _ => Section::PbLists,
        }
    }

    /// The access stream of the whole frame, in time order.
    pub fn stream<'a>(&self, b: &'a Binning) -> ParameterBufferStream<'a> {
        ParameterBufferStream {
            b,
            layout: *self,
            state: State::Build { prim: 0, use_i: 0 },
        }
    }
}

/// The two sections of the Parameter Buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Section {
    PbLists,
    PbAttributes,
}

impl Section {
    pub fn stream(self) -> gfxcache_trace::Stream {
        match self {
            Section::PbLists => gfxcache_trace::Stream::PbList,
            Section::PbAttributes => gfxcache_trace::Stream::PbAttr,
        }
    }
}

/// Which stage makes an access.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// The Polygon List Builder (writes).
    Build,
    /// The Tile Fetcher processing the tile at this traversal position
    /// (reads).
    Fetch(TilePos),
}

/// Primitive Meta Data: one entry of a tile's list in PB-Lists (4 bytes in
/// memory). The baseline PMD holds the Primitive ID and the number of
/// attributes; TCOR's adds the OPT Number (Figure 6). A read request to
/// the Attribute Cache carries exactly these three fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pmd {
    pub primitive_id: u64,
    pub attributes: u32,
    pub opt: OptNumber,
}

/// One access to the Parameter Buffer with everything the caches need.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PbAccess {
    pub section: Section,
    pub write: bool,
    pub phase: Phase,
    /// PB-Lists: the PMD's byte address. PB-Attributes: the address of the
    /// first attribute, which is the Primitive ID.
    pub addr: u64,
    /// The Primitive ID (the address of its first attribute), as the PMD
    /// carries it.
    pub id: u64,
    /// The primitive (its index in Polygon List Builder order).
    pub prim: u32,
    /// The primitive's number of attributes.
    pub attributes: u32,
    /// PB-Lists: the OPT Number in the PMD. PB-Attributes: the OPT Number
    /// of the request (a write: the first tile that will read the
    /// primitive; a read: the next tile after this one that will).
    pub opt: OptNumber,
    /// The last tile that will read this data: for a PMD, the tile whose
    /// list holds it; for attributes, the primitive's last tile.
    pub last_tile: LastTileId,
}

impl PbAccess {
    /// The PMD this access writes or reads (PB-Lists), or the one that
    /// caused it (PB-Attributes).
    pub fn pmd(&self) -> Pmd {
        Pmd {
            primitive_id: self.id,
            attributes: self.attributes,
            opt: self.opt,
        }
    }

    /// The 64-byte blocks this access touches: one for a PMD, one per
    /// attribute for PB-Attributes.
    pub fn blocks(&self) -> std::ops::Range<u64> {
        let first = self.addr / BLOCK_BYTES;
        match self.section {
            Section::PbLists => first..first + 1,
            Section::PbAttributes => first..first + u64::from(self.attributes),
        }
    }
}

#[derive(Clone, Copy, Debug)]
enum State {
    /// Primitive `prim`: PMD write `use_i`, or its attributes once `use_i`
    /// reaches its use count.
    Build {
        prim: u32,
        use_i: u32,
    },
    /// Tile at `pos`, list entry `entry`; `attrs` once its PMD was read.
    Fetch {
        pos: TilePos,
        entry: u32,
        attrs: bool,
    },
    Done,
}

/// The Parameter Buffer accesses of a frame in time order.
#[derive(Clone, Debug)]
pub struct ParameterBufferStream<'a> {
    b: &'a Binning,
    layout: PbLayout,
    state: State,
}

impl Iterator for ParameterBufferStream<'_> {
    type Item = PbAccess;

    fn next(&mut self) -> Option<PbAccess> {
        let b = self.b;
        loop {
            match self.state {
                State::Build { prim, use_i } => {
                    if prim >= b.primitives() {
                        self.state = State::Fetch {
                            pos: 0,
                            entry: 0,
                            attrs: false,
                        };
                        continue;
                    }
                    let uses = b.uses(prim);
                    if (use_i as usize) < uses.len() {
                        self.state = State::Build {
                            prim,
                            use_i: use_i + 1,
                        };
                        let pos = uses[use_i as usize];
                        let slot = b.slots(prim)[use_i as usize];
                        let opt = uses
                            .get(use_i as usize + 1)
                            .map_or(OptNumber::NEVER, |&n| OptNumber(n));
                        return Some(PbAccess {
                            section: Section::PbLists,
                            write: true,
                            phase: Phase::Build,
                            addr: self.layout.pmd_addr(b, b.tile_at(pos), slot),
                            id: self.layout.primitive_id(b, prim),
                            prim,
                            attributes: b.attributes(prim),
                            opt,
                            last_tile: pos,
                        });
                    }
                    self.state = State::Build {
                        prim: prim + 1,
                        use_i: 0,
                    };
                    return Some(PbAccess {
                        section: Section::PbAttributes,
                        write: true,
                        phase: Phase::Build,
                        addr: self.layout.primitive_id(b, prim),
                        id: self.layout.primitive_id(b, prim),
                        prim,
                        attributes: b.attributes(prim),
                        opt: b.first_use(prim),
                        last_tile: b.last_tile(prim),
                    });
                }
                State::Fetch { pos, entry, attrs } => {
                    if pos >= b.tiles() {
                        self.state = State::Done;
                        continue;
                    }
                    let list = b.list(pos);
                    let Some(e) = list.get(entry as usize) else {
                        self.state = State::Fetch {
                            pos: pos + 1,
                            entry: 0,
                            attrs: false,
                        };
                        continue;
                    };
                    let prim = e.prim;
                    if !attrs {
                        self.state = State::Fetch {
                            pos,
                            entry,
                            attrs: true,
                        };
                        return Some(PbAccess {
                            section: Section::PbLists,
                            write: false,
                            phase: Phase::Fetch(pos),
                            addr: self.layout.pmd_addr(b, b.tile_at(pos), entry),
                            id: self.layout.primitive_id(b, prim),
                            prim,
                            attributes: b.attributes(prim),
                            opt: e.opt,
                            last_tile: pos,
                        });
                    }
                    self.state = State::Fetch {
                        pos,
                        entry: entry + 1,
                        attrs: false,
                    };
                    return Some(PbAccess {
                        section: Section::PbAttributes,
                        write: false,
                        phase: Phase::Fetch(pos),
                        addr: self.layout.primitive_id(b, prim),
                        id: self.layout.primitive_id(b, prim),
                        prim,
                        attributes: b.attributes(prim),
                        opt: e.opt,
                        last_tile: b.last_tile(prim),
                    });
                }
                State::Done => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::binning::TileOrder;
    use crate::binning::{BinnedFrame, BinnedPrimitive};

    fn binning() -> Binning {
        // 2x2 tiles, scanline; p0 (2 attributes) on tiles 0 and 3, p1 (1)
        // on tile 3.
        Binning::new(&BinnedFrame {
            tiles_x: 2,
            tiles_y: 2,
            tile_size: 32,
            order: TileOrder::Scanline,
            primitives: vec![
                BinnedPrimitive {
                    attributes: 2,
                    tiles: vec![3, 0],
                },
                BinnedPrimitive {
                    attributes: 1,
                    tiles: vec![3],
                },
            ],
        })
        .unwrap()
    }

    #[test]
    fn baseline_lists_are_64_blocks_apart() {
        let b = binning();
        let l = PbLayout::baseline();
        assert_eq!(l.pmd_addr(&b, 0, 0), l.lists_ptr);
        assert_eq!(l.pmd_addr(&b, 0, 5), l.lists_ptr + 20);
        assert_eq!(l.pmd_addr(&b, 0, 16), l.lists_ptr + 64);
        assert_eq!(l.pmd_addr(&b, 2, 0), l.lists_ptr + 2 * 64 * 64);
        assert_eq!(l.list_tile_of(&b, l.pmd_addr(&b, 3, 17)), 3);
    }

    #[test]
    fn interleaved_lists_put_one_block_per_tile_in_each_section() {
        let b = binning();
        let l = PbLayout::interleaved();
        assert_eq!(l.pmd_addr(&b, 0, 0), l.lists_ptr);
        assert_eq!(l.pmd_addr(&b, 1, 0), l.lists_ptr + 64);
        assert_eq!(l.pmd_addr(&b, 3, 15), l.lists_ptr + 3 * 64 + 60);
        // PMD 16 of tile 1: section 1 starts after 4 blocks.
        assert_eq!(l.pmd_addr(&b, 1, 16), l.lists_ptr + 5 * 64);
        assert_eq!(l.list_tile_of(&b, l.pmd_addr(&b, 1, 16)), 1);
    }

    #[test]
    fn attributes_are_one_per_block_in_program_order() {
        let b = binning();
        let l = PbLayout::default();
        assert_eq!(l.primitive_id(&b, 0), l.attrs_ptr);
        assert_eq!(l.attribute_addr(&b, 0, 1), l.attrs_ptr + 64);
        assert_eq!(l.primitive_id(&b, 1), l.attrs_ptr + 128);
    }

    #[test]
    fn the_stream_is_builder_writes_then_fetcher_reads() {
        let b = binning();
        let l = PbLayout::interleaved();
        let s: Vec<PbAccess> = l.stream(&b).collect();
        let short: Vec<(Section, bool, Phase, u32, OptNumber, u32)> = s
            .iter()
            .map(|a| (a.section, a.write, a.phase, a.prim, a.opt, a.last_tile))
            .collect();
        use Phase::*;
        use Section::*;
        let n = OptNumber::NEVER;
        assert_eq!(
            short,
            [
                (PbLists, true, Build, 0, OptNumber(3), 0),
                (PbLists, true, Build, 0, n, 3),
                (PbAttributes, true, Build, 0, OptNumber(0), 3),
                (PbLists, true, Build, 1, n, 3),
                (PbAttributes, true, Build, 1, OptNumber(3), 3),
                (PbLists, false, Fetch(0), 0, OptNumber(3), 0),
                (PbAttributes, false, Fetch(0), 0, OptNumber(3), 3),
                (PbLists, false, Fetch(3), 0, n, 3),
                (PbAttributes, false, Fetch(3), 0, n, 3),
                (PbLists, false, Fetch(3), 1, n, 3),
                (PbAttributes, false, Fetch(3), 1, n, 3),
            ]
        );
        // Every access names its primitive by ID; for PB-Attributes the ID is
        // the address.
        assert!(s.iter().all(|a| a.id == l.primitive_id(&b, a.prim)));
        assert!(s
            .iter()
            .filter(|a| a.section == PbAttributes)
            .all(|a| a.addr == a.id));
        // Writes and reads of the same PMD agree on its address.
        assert_eq!(s[1].addr, s[7].addr);
        assert_eq!(s[3].addr, s[9].addr);
        assert_eq!(s[3].addr, s[1].addr + 4);
        assert_eq!(s[2].blocks().count(), 2);
        // The PMD read for tile 0 asks for primitive 0 next in tile 3.
        assert_eq!(
            s[5].pmd(),
            Pmd {
                primitive_id: l.attrs_ptr,
                attributes: 2,
                opt: OptNumber(3)
            }
        );
        assert_eq!(
            s[4].blocks(),
            (l.attrs_ptr / 64 + 2)..(l.attrs_ptr / 64 + 3)
        );
    }

    #[test]
    fn baseline_rejects_a_list_longer_than_1024() {
        let f = BinnedFrame {
            tiles_x: 1,
            tiles_y: 1,
            tile_size: 32,
            order: TileOrder::Scanline,
            primitives: vec![
                BinnedPrimitive {
                    attributes: 1,
                    tiles: vec![0],
                };
                1025
            ],
        };
        let b = Binning::new(&f).unwrap();
        assert_eq!(
            PbLayout::baseline().check(&b),
            Err(ConfigError::ListTooLong {
                pos: 0,
                len: 1025,
                max: 1024
            })
        );
        assert_eq!(PbLayout::interleaved().check(&b), Ok(()));
    }
}
