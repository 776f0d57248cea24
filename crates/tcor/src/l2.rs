//! The L2 with TCOR's enhancements (Section III-D), and the baseline L2.
//!
//! The L2 (Table I: 1 MiB, 8-way, 64-byte lines) is shared by the Tile
//! Cache and the other L1s (texture, vertex, instruction caches) of the
//! same frame. TCOR adds to each line:
//! - a 2-bit **PB type**: PB-Lists, PB-Attributes or neither;
//! - a 12-bit **last tile ID**: the last tile that will read the line. For
//!   PB-Lists it follows from the block address (the tile whose list it
//!   is); for PB-Attributes the Polygon List Builder stores it in the 16
//!   unused bytes of the attribute's block;
//!
//! and to the control logic the **last-finished-tile register** (NULL at
//! first, incremented each time the Tile Fetcher finishes a tile). A
//! Parameter Buffer line whose last tile has finished is **dead**.
//!
//! Replacement ([`L2Policy::DeadAware`]): an invalid line if any, else a
//! dead Parameter Buffer line, else a non-Parameter-Buffer line, else a
//! live Parameter Buffer line, the least recently used within each class.
//! A dead line is dropped even if dirty: no write-back to main memory.
//! [`L2Policy::Lru`] is the baseline: plain LRU, every dirty victim
//! written back.
//!
//! Tile IDs here are traversal positions ([`crate::TilePos`]), so "the
//! register has passed the line's last tile" is one comparison; the paper
//! increments the register in traversal order, which is the same thing.
//!
//! Writes that miss allocate without reading main memory: the L1s write
//! whole blocks (write-backs, and the Attribute Cache's bypassed writes of
//! a whole attribute block).
//!
//! [`PbL2Port`] connects an [`L2Cache`] to [`crate::simulate_baseline`] /
//! [`crate::simulate_tcor`], deriving each block's PB type and last tile
//! from the frame's layout and binning; other traffic of the frame enters
//! through [`L2Cache::access`] with [`LineKind::NonPb`].

use serde::Serialize;

use crate::binning::{Binning, LastTileId};
use crate::error::ConfigError;
use crate::frame::L2Port;
use crate::layout::{PbLayout, Section, BLOCK_BYTES};
use crate::overflow::ListOverflow;
use crate::tile_cache::L2Block;

/// The PB type field of an L2 line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum LineKind {
    NonPb,
    PbLists,
    PbAttributes,
}

impl From<Section> for LineKind {
    fn from(s: Section) -> LineKind {
        match s {
            Section::PbLists => LineKind::PbLists,
            Section::PbAttributes => LineKind::PbAttributes,
        }
    }
}

/// Replacement policy of the L2.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum L2Policy {
    /// Baseline: LRU.
    Lru,
    /// TCOR: dead PB > non-PB > live PB, LRU within each class.
    #[default]
    DeadAware,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct L2Config {
    pub bytes: u64,
    pub ways: u32,
    pub policy: L2Policy,
}

impl Default for L2Config {
    /// Table I: 1 MiB, 8-way, TCOR's policy.
    fn default() -> L2Config {
        L2Config {
            bytes: 1 << 20,
            ways: 8,
            policy: L2Policy::DeadAware,
        }
    }
}

/// Counters of the L2, in 64-byte blocks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct L2Stats {
    pub pb_accesses: u64,
    pub pb_hits: u64,
    pub other_accesses: u64,
    pub other_hits: u64,
    /// Read misses: blocks read from main memory.
    pub memory_reads: u64,
    /// Dirty victims written back to main memory.
    pub memory_writes: u64,
    /// Victims that were dead Parameter Buffer lines.
    pub dead_evictions: u64,
    /// Of those, dirty ones dropped without a write-back.
    pub dead_dirty_dropped: u64,
    /// Parameter Buffer blocks read from or written to main memory.
    pub pb_memory_reads: u64,
    pub pb_memory_writes: u64,
}

impl L2Stats {
    /// The events since `earlier`, a snapshot of the same L2.
    pub fn since(&self, earlier: &L2Stats) -> L2Stats {
        L2Stats {
            pb_accesses: self.pb_accesses - earlier.pb_accesses,
            pb_hits: self.pb_hits - earlier.pb_hits,
            other_accesses: self.other_accesses - earlier.other_accesses,
            other_hits: self.other_hits - earlier.other_hits,
            memory_reads: self.memory_reads - earlier.memory_reads,
            memory_writes: self.memory_writes - earlier.memory_writes,
            dead_evictions: self.dead_evictions - earlier.dead_evictions,
            dead_dirty_dropped: self.dead_dirty_dropped - earlier.dead_dirty_dropped,
            pb_memory_reads: self.pb_memory_reads - earlier.pb_memory_reads,
            pb_memory_writes: self.pb_memory_writes - earlier.pb_memory_writes,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Line {
    valid: bool,
    dirty: bool,
    kind: LineKind,
    last_tile: LastTileId,
    block: u64,
    stamp: u64,
}

const INVALID: Line = Line {
    valid: false,
    dirty: false,
    kind: LineKind::NonPb,
    last_tile: 0,
    block: 0,
    stamp: 0,
};

pub struct L2Cache {
    config: L2Config,
    sets: u64,
    lines: Vec<Line>,
    /// Tiles the Tile Fetcher has finished: the last-finished-tile register
    /// plus one (0 = NULL).
    tiles_done: u32,
    clock: u64,
    stats: L2Stats,
}

impl L2Cache {
    pub fn new(config: L2Config) -> Result<L2Cache, ConfigError> {
        let blocks = config.bytes / BLOCK_BYTES;
        if config.ways == 0
            || blocks == 0
            || !config.bytes.is_multiple_of(BLOCK_BYTES)
            || !blocks.is_multiple_of(u64::from(config.ways))
        {
            return Err(ConfigError::Cache(format!(
                "L2 of {} bytes cannot be split into sets of {} ways of {BLOCK_BYTES} bytes",
                config.bytes, config.ways
            )));
        }
        Ok(L2Cache {
            sets: blocks / u64::from(config.ways),
            lines: vec![INVALID; blocks as usize],
            config,
            tiles_done: 0,
            clock: 0,
            stats: L2Stats::default(),
        })
    }

    pub fn stats(&self) -> &L2Stats {
        &self.stats
    }

    pub fn config(&self) -> &L2Config {
        &self.config
    }

    /// The Tile Fetcher finished the first `done` tiles of the traversal.
    pub fn set_tiles_done(&mut self, done: u32) {
        self.tiles_done = self.tiles_done.max(done);
    }

    /// The last-finished-tile register: `None` (NULL) before the first.
    pub fn last_finished_tile(&self) -> Option<LastTileId> {
        self.tiles_done.checked_sub(1)
    }

    fn is_dead(&self, l: &Line) -> bool {
        l.kind != LineKind::NonPb && l.last_tile < self.tiles_done
    }

    /// Eviction class: lower goes first.
    fn class(&self, l: &Line) -> u8 {
        match self.config.policy {
            L2Policy::Lru => 0,
            L2Policy::DeadAware if self.is_dead(l) => 0,
            L2Policy::DeadAware if l.kind == LineKind::NonPb => 1,
            L2Policy::DeadAware => 2,
        }
    }

    /// Whether `block` is cached.
    pub fn contains(&self, block: u64) -> bool {
        let set = (block % self.sets) as usize;
        let w = self.config.ways as usize;
        self.lines[set * w..(set + 1) * w]
            .iter()
            .any(|l| l.valid && l.block == block)
    }

    /// One block access. `last_tile` matters for Parameter Buffer kinds
    /// only. Returns whether it hit.
    pub fn access(
        &mut self,
        block: u64,
        write: bool,
        kind: LineKind,
        last_tile: LastTileId,
    ) -> bool {
        self.clock += 1;
        let pb = kind != LineKind::NonPb;
        if pb {
            self.stats.pb_accesses += 1;
        } else {
            self.stats.other_accesses += 1;
        }
        let w = self.config.ways as usize;
        let base = (block % self.sets) as usize * w;
        if let Some(i) =
            (base..base + w).find(|&i| self.lines[i].valid && self.lines[i].block == block)
        {
            let l = &mut self.lines[i];
            l.stamp = self.clock;
            l.dirty |= write;
            l.kind = kind;
            l.last_tile = last_tile;
            if pb {
                self.stats.pb_hits += 1;
            } else {
                self.stats.other_hits += 1;
            }
            return true;
        }
        let slot = match (base..base + w).find(|&i| !self.lines[i].valid) {
            Some(i) => i,
            None => {
                let v = (base..base + w)
                    .min_by_key(|&i| (self.class(&self.lines[i]), self.lines[i].stamp))
                    .expect("a set has ways");
                self.evict(v);
                v
            }
        };
        if !write {
            self.stats.memory_reads += 1;
            if pb {
                self.stats.pb_memory_reads += 1;
            }
        }
        self.lines[slot] = Line {
            valid: true,
            dirty: write,
            kind,
            last_tile,
            block,
            stamp: self.clock,
        };
        false
    }

    fn evict(&mut self, i: usize) {
        let l = self.lines[i];
        let dead = self.is_dead(&l);
        if dead {
            self.stats.dead_evictions += 1;
        }
        if l.dirty {
            if dead && self.config.policy == L2Policy::DeadAware {
                self.stats.dead_dirty_dropped += 1;
            } else {
                self.stats.memory_writes += 1;
                if l.kind != LineKind::NonPb {
                    self.stats.pb_memory_writes += 1;
                }
            }
        }
        self.lines[i] = INVALID;
    }
}

/// An [`L2Port`] feeding the Tiling Engine's L2 traffic to an
/// [`L2Cache`], with each block's PB type and last tile.
pub struct PbL2Port<'a> {
    pub l2: &'a mut L2Cache,
    pub binning: &'a Binning,
    pub layout: PbLayout,
    /// The baseline layout's overflow area for `binning`
    /// ([`ListOverflow::new`]).
    pub overflow: Option<&'a ListOverflow>,
}

impl PbL2Port<'_> {
    /// The last tile that reads a Parameter Buffer block.
    pub fn last_tile_of(&self, b: &L2Block) -> LastTileId {
        last_tile(self.binning, &self.layout, self.overflow, b)
    }
}

/// The last tile (traversal position) that reads Parameter Buffer block
/// `b` of a frame laid out by `layout` (with `overflow`, its overflow area
/// if it has one): the L2 line's last-tile field.
pub fn last_tile(
    binning: &Binning,
    layout: &PbLayout,
    overflow: Option<&ListOverflow>,
    b: &L2Block,
) -> LastTileId {
    let addr = b.block * BLOCK_BYTES;
    if let Some(pos) = overflow.and_then(|o| o.last_reader(binning, addr)) {
        return pos;
    }
    match b.section {
        Section::PbLists => binning.position_of(layout.list_tile_of(binning, addr)),
        Section::PbAttributes => {
            let index = (addr - layout.attrs_ptr) / BLOCK_BYTES;
            binning.last_tile(binning.primitive_of_attribute(index))
        }
    }
}

impl L2Port for PbL2Port<'_> {
    fn block(&mut self, b: L2Block) {
        let last = self.last_tile_of(&b);
        self.l2.access(b.block, b.write, b.section.into(), last);
    }

    fn tiles_done(&mut self, done: u32) {
        self.l2.set_tiles_done(done);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One set of `ways` ways.
    fn l2(ways: u32, policy: L2Policy) -> L2Cache {
        L2Cache::new(L2Config {
            bytes: u64::from(ways) * BLOCK_BYTES,
            ways,
            policy,
        })
        .unwrap()
    }

    #[test]
    fn eviction_priority_dead_then_non_pb_then_live_pb() {
        let mut c = l2(4, L2Policy::DeadAware);
        c.access(1, true, LineKind::PbAttributes, 5); // live until tile 5 done
        c.access(2, false, LineKind::NonPb, 0);
        c.access(3, true, LineKind::PbLists, 0); // dead once tile 0 is done
        c.access(4, false, LineKind::NonPb, 0);
        c.set_tiles_done(1);
        assert_eq!(c.last_finished_tile(), Some(0));
        // Block 3 is dead: it goes first although it is not the LRU line,
        // and, dirty, it is dropped.
        c.access(5, false, LineKind::NonPb, 0);
        assert!(!c.contains(3));
        assert_eq!(
            (c.stats().dead_dirty_dropped, c.stats().memory_writes),
            (1, 0)
        );
        // Then non-PB lines, LRU first (2, then 4), before the live PB line 1
        // although it is the least recently used.
        c.access(6, false, LineKind::NonPb, 0);
        assert!(!c.contains(2) && c.contains(1));
        c.access(7, false, LineKind::NonPb, 0);
        assert!(!c.contains(4) && c.contains(1));
        // Only non-PB lines newer than it and live PB: LRU among non-PB.
        c.access(8, false, LineKind::NonPb, 0);
        assert!(!c.contains(5) && c.contains(1));
    }

    #[test]
    fn live_pb_is_evicted_last_and_written_back() {
        let mut c = l2(2, L2Policy::DeadAware);
        c.access(1, true, LineKind::PbAttributes, 3);
        c.access(2, true, LineKind::PbAttributes, 4);
        c.access(3, false, LineKind::PbLists, 9);
        assert!(!c.contains(1));
        assert_eq!(c.stats().memory_writes, 1);
        assert_eq!(c.stats().pb_memory_writes, 1);
        // Tiles 0-4 done: block 2 (last tile 4) is dead now.
        c.set_tiles_done(5);
        c.access(4, false, LineKind::NonPb, 0);
        assert!(!c.contains(2) && c.contains(3));
        assert_eq!(c.stats().dead_dirty_dropped, 1);
    }

    #[test]
    fn the_register_starts_null() {
        let mut c = l2(1, L2Policy::DeadAware);
        assert_eq!(c.last_finished_tile(), None);
        c.access(1, true, LineKind::PbLists, 0);
        // Tile 0 not finished: block 1 is live and written back.
        c.access(2, false, LineKind::NonPb, 0);
        assert_eq!(
            (c.stats().memory_writes, c.stats().dead_dirty_dropped),
            (1, 0)
        );
    }

    #[test]
    fn the_baseline_l2_is_lru_and_writes_dead_lines_back() {
        let mut c = l2(2, L2Policy::Lru);
        c.access(1, false, LineKind::NonPb, 0);
        c.access(2, true, LineKind::PbLists, 0);
        c.set_tiles_done(1);
        c.access(1, false, LineKind::NonPb, 0); // hit
        c.access(3, false, LineKind::NonPb, 0); // evicts 2 (LRU), dirty
        assert!(!c.contains(2) && c.contains(1));
        let s = c.stats();
        assert_eq!(
            (s.memory_writes, s.dead_dirty_dropped, s.dead_evictions),
            (1, 0, 1)
        );
        assert_eq!((s.other_hits, s.memory_reads), (1, 2));
    }

    #[test]
    fn shapes_are_checked() {
        assert!(L2Cache::new(L2Config::default()).is_ok());
        assert!(L2Cache::new(L2Config {
            bytes: 3 * 64,
            ways: 2,
            policy: L2Policy::Lru
        })
        .is_err());
    }
}
