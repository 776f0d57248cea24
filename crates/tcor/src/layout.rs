//! The Parameter Buffer in memory, and the stream of accesses the Tiling
//! Engine makes to it (Sections II-B, II-C and III-B).
//!
//! Two sections, at two predetermined addresses:
//! - **PB-Lists** (from the PB-Lists Pointer): per tile, its list of PMDs
//!   (Primitive Meta Data, 4 bytes: the Primitive ID, the number of
//!   attributes and, in TCOR, the OPT Number), 16 PMDs per 64-byte block.
//!   - baseline (Figure 3): each tile's list contiguous, with room for 1024
//!     primitives, so the next tile's list begins 64 blocks later; a list
//!     that outgrows its room goes on in chunks in an overflow area after
//!     the last tile's room (ours: [`crate::overflow`]);
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
//! In the baseline layout's overflow area, a PMD that starts a chunk has
//! a pointer access right before it (a write by the builder, a read by the
//! fetcher; [`PbAccess::pointer`]).
//!
//! One [`PbAccess`] for PB-Attributes stands for all of a primitive's
//! attributes, because the Attribute Cache works per primitive; a
//! conventional cache expands it into one block access per attribute
//! ([`PbAccess::blocks`]). The stream is an iterator over the [`Binning`]'s
//! flat arrays: nothing is allocated per access.

use serde::{Deserialize, Serialize};

use crate::binning::{Binning, LastTileId, OptNumber, TileId, TilePos};
use crate::error::ConfigError;
use crate::overflow::{self, ListOverflow, DEFAULT_OVERFLOW_CHUNK_SLOTS};

/// Cache line and memory block size.
pub const BLOCK_BYTES: u64 = 64;
/// A PMD is four bytes: sixteen per block.
pub const PMD_BYTES: u64 = 4;
pub const PMDS_PER_BLOCK: u32 = 16;
/// An attribute: 16 bytes for each of a triangle's three vertices.
pub const ATTRIBUTE_BYTES: u64 = 48;
/// Room per tile list in the baseline PB-Lists layout; longer lists go on
/// in the overflow area ([`crate::overflow`]).
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
    /// Baseline layout: 4-byte slots per chunk of the overflow area (the
    /// last one links to the next chunk), at least 2 (ours; see
    /// [`crate::overflow`]). Unused by the interleaved layout.
    #[serde(default = "default_chunk_slots")]
    pub overflow_chunk_slots: u32,
}

fn default_chunk_slots() -> u32 {
    DEFAULT_OVERFLOW_CHUNK_SLOTS
}

impl Default for PbLayout {
    /// TCOR's interleaved layout. The pointers are 1 GiB apart: the baseline
    /// layout needs 4 KiB of PB-Lists per tile, so up to 262 144 tiles.
    fn default() -> PbLayout {
        PbLayout {
            lists: ListsLayout::Interleaved,
            lists_ptr: 0x4000_0000,
            attrs_ptr: 0x8000_0000,
            overflow_chunk_slots: DEFAULT_OVERFLOW_CHUNK_SLOTS,
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

    /// Checks that the frame fits: the sections block aligned, and
    /// PB-Lists (with the baseline's overflow area) ending before
    /// PB-Attributes when it starts below it. Lists of any length fit.
    pub fn check(&self, b: &Binning) -> Result<(), ConfigError> {
        if !self.lists_ptr.is_multiple_of(BLOCK_BYTES)
            || !self.attrs_ptr.is_multiple_of(BLOCK_BYTES)
        {
            return Err(ConfigError::Layout(format!(
                "PB pointers {:#x} and {:#x} must be {BLOCK_BYTES}-byte aligned",
                self.lists_ptr, self.attrs_ptr
            )));
        }
        if self.overflow_chunk_slots < 2 {
            return Err(ConfigError::Layout(format!(
                "an overflow chunk of {} slots: it needs at least 2, a PMD and the link",
                self.overflow_chunk_slots
            )));
        }
        let end = self.lists_end(b);
        if self.lists_ptr < self.attrs_ptr && end > self.attrs_ptr {
            return Err(ConfigError::ListsOverlapAttributes {
                end,
                attrs_ptr: self.attrs_ptr,
            });
        }
        Ok(())
    }

    /// The first byte address past PB-Lists for frame `b` (the baseline's
    /// overflow area included).
    pub fn lists_end(&self, b: &Binning) -> u64 {
        let tiles = u64::from(b.tiles());
        match self.lists {
            ListsLayout::Baseline => {
                let chunks: u64 = (0..b.tiles())
                    .map(|pos| {
                        let len = b.list(pos).len() as u32;
                        u64::from(overflow::chunks_of(len, self.overflow_chunk_slots))
                    })
                    .sum();
                if chunks == 0 {
                    return overflow::overflow_base(self, b.tiles());
                }
                overflow::chunks_base(self, b.tiles())
                    + chunks * u64::from(self.overflow_chunk_slots) * PMD_BYTES
            }
            ListsLayout::Interleaved => {
                let sections = u64::from(b.longest_list()).div_ceil(u64::from(PMDS_PER_BLOCK));
                self.lists_ptr + sections * tiles * BLOCK_BYTES
            }
        }
    }

    /// Byte address of PMD number `slot` of the list of `tile`; for the
    /// baseline layout, `slot` must be within the tile's room of 1024
    /// (past it: [`ListOverflow::pmd_addr`]).
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
    /// III-D1: for the interleaved layout, `(block - pointer) mod tiles`);
    /// for the baseline layout, `addr` must be within the tiles' rooms
    /// (past them: [`ListOverflow::last_reader`]).
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

    /// The access stream of the whole frame, in time order. The layout
    /// must have passed [`PbLayout::check`] for `b`.
    pub fn stream<'a>(&self, b: &'a Binning) -> ParameterBufferStream<'a> {
        ParameterBufferStream {
            b,
            layout: *self,
            overflow: ListOverflow::new(self, b),
            state: State::Build {
                prim: 0,
                use_i: 0,
                pointed: false,
            },
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
    /// A PB-Lists access to a pointer of the baseline's overflow area (a
    /// tile's first-chunk pointer or a chunk's link) rather than to a PMD;
    /// its other fields are those of the PMD that comes right after it.
    pub pointer: bool,
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
    /// reaches its use count; `pointed` once the pointer write before PMD
    /// `use_i` (if it needs one) was made.
    Build {
        prim: u32,
        use_i: u32,
        pointed: bool,
    },
    /// Tile at `pos`, list entry `entry`; `attrs` once its PMD was read,
    /// `pointed` once the pointer read before it (if any) was made.
    Fetch {
        pos: TilePos,
        entry: u32,
        attrs: bool,
        pointed: bool,
    },
    Done,
}

/// The Parameter Buffer accesses of a frame in time order.
#[derive(Clone, Debug)]
pub struct ParameterBufferStream<'a> {
    b: &'a Binning,
    layout: PbLayout,
    /// The baseline's overflow area, when some list needs it.
    overflow: Option<ListOverflow>,
    state: State,
}

impl ParameterBufferStream<'_> {
    /// Byte address of PMD `slot` of the list of the tile at `pos`.
    #[inline]
    fn pmd_addr(&self, pos: TilePos, slot: u32) -> u64 {
        match &self.overflow {
            Some(o) if slot >= BASELINE_MAX_LIST => o.pmd_addr(pos, slot),
            _ => self.layout.pmd_addr(self.b, self.b.tile_at(pos), slot),
        }
    }

    /// The overflow-area pointer accessed right before PMD `slot` of the
    /// list of the tile at `pos`, if any.
    #[inline]
    fn pointer_before(&self, pos: TilePos, slot: u32) -> Option<u64> {
        match &self.overflow {
            Some(o) if slot >= BASELINE_MAX_LIST => {
                o.pointer_before(pos, self.b.tile_at(pos), slot)
            }
            _ => None,
        }
    }

    /// The next access of the Polygon List Builder, or `None` when it is
    /// done (the state then moves on to the Tile Fetcher).
    fn build(&mut self, prim: u32, use_i: u32, pointed: bool) -> Option<PbAccess> {
        let b = self.b;
        if prim >= b.primitives() {
            self.state = State::Fetch {
                pos: 0,
                entry: 0,
                attrs: false,
                pointed: false,
            };
            return None;
        }
        let uses = b.uses(prim);
        let id = self.layout.primitive_id(b, prim);
        if (use_i as usize) < uses.len() {
            let pos = uses[use_i as usize];
            let slot = b.slots(prim)[use_i as usize];
            let opt = uses
                .get(use_i as usize + 1)
                .map_or(OptNumber::NEVER, |&n| OptNumber(n));
            let mut a = PbAccess {
                section: Section::PbLists,
                write: true,
                phase: Phase::Build,
                addr: 0,
                id,
                prim,
                attributes: b.attributes(prim),
                opt,
                last_tile: pos,
                pointer: false,
            };
            if let Some(p) = self.pointer_before(pos, slot).filter(|_| !pointed) {
                self.state = State::Build {
                    prim,
                    use_i,
                    pointed: true,
                };
                a.addr = p;
                a.pointer = true;
                return Some(a);
            }
            self.state = State::Build {
                prim,
                use_i: use_i + 1,
                pointed: false,
            };
            a.addr = self.pmd_addr(pos, slot);
            return Some(a);
        }
        self.state = State::Build {
            prim: prim + 1,
            use_i: 0,
            pointed: false,
        };
        Some(PbAccess {
            section: Section::PbAttributes,
            write: true,
            phase: Phase::Build,
            addr: id,
            id,
            prim,
            attributes: b.attributes(prim),
            opt: b.first_use(prim),
            last_tile: b.last_tile(prim),
            pointer: false,
        })
    }

    /// The next access of the Tile Fetcher, or `None` when the tile at
    /// `pos` is done (the state then moves on to the next tile).
    fn fetch(&mut self, pos: TilePos, entry: u32, attrs: bool, pointed: bool) -> Option<PbAccess> {
        let b = self.b;
        if pos >= b.tiles() {
            self.state = State::Done;
            return None;
        }
        let Some(e) = b.list(pos).get(entry as usize) else {
            self.state = State::Fetch {
                pos: pos + 1,
                entry: 0,
                attrs: false,
                pointed: false,
            };
            return None;
        };
        let prim = e.prim;
        let mut a = PbAccess {
            section: Section::PbLists,
            write: false,
            phase: Phase::Fetch(pos),
            addr: 0,
            id: self.layout.primitive_id(b, prim),
            prim,
            attributes: b.attributes(prim),
            opt: e.opt,
            last_tile: pos,
            pointer: false,
        };
        if !attrs {
            if let Some(p) = self.pointer_before(pos, entry).filter(|_| !pointed) {
                self.state = State::Fetch {
                    pos,
                    entry,
                    attrs: false,
                    pointed: true,
                };
                a.addr = p;
                a.pointer = true;
                return Some(a);
            }
            self.state = State::Fetch {
                pos,
                entry,
                attrs: true,
                pointed: false,
            };
            a.addr = self.pmd_addr(pos, entry);
            return Some(a);
        }
        self.state = State::Fetch {
            pos,
            entry: entry + 1,
            attrs: false,
            pointed: false,
        };
        a.section = Section::PbAttributes;
        a.addr = a.id;
        a.last_tile = b.last_tile(prim);
        Some(a)
    }
}

impl Iterator for ParameterBufferStream<'_> {
    type Item = PbAccess;

    fn next(&mut self) -> Option<PbAccess> {
        loop {
            let a = match self.state {
                State::Build {
                    prim,
                    use_i,
                    pointed,
                } => self.build(prim, use_i, pointed),
                State::Fetch {
                    pos,
                    entry,
                    attrs,
                    pointed,
                } => self.fetch(pos, entry, attrs, pointed),
                State::Done => return None,
            };
            if a.is_some() {
                return a;
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
}
