//! The conventional caches of the Tiling Engine, on the engine of
//! `gfxcache-cache` (`Cache<Lru>`, 64-byte lines, write-back):
//! - the baseline **Tile Cache** (Table I: 64 KiB, 4-way, LRU), one cache
//!   for both PB-Lists and PB-Attributes, one block access per PMD and per
//!   attribute;
//! - TCOR's **Primitive List Cache** (Section III-C1: 16 KiB, LRU; 4 ways
//!   as the Tile Cache, the paper gives no other), for PB-Lists only.
//!
//! Both index sets by block address modulo the set count, which is what
//! makes the baseline PB-Lists layout (lists 64 blocks apart) crowd a few
//! sets (Section III-B).
//!
//! L2 traffic, in 64-byte blocks: a read miss reads its block from the L2;
//! a dirty victim is written back. A write miss allocates the line without
//! reading it: the Polygon List Builder writes a fresh Parameter Buffer
//! whose old contents are dead, as Figure 10 counts no L2 read for a write
//! (per-byte valid bits would be needed for partly written PMD blocks, and
//! are assumed). Dirty lines still cached at the end of the frame are not
//! written: the Parameter Buffer is dead then ([`ConventionalCache::dirty_lines`]
//! says how many there are).

use gfxcache_cache::policies::lru::Lru;
use gfxcache_cache::{
    BlockOutcome, Cache, Env, Geometry, Params, Policy, PolicySpec, StreamMask, Ways,
};
use serde::Serialize;

use crate::error::ConfigError;
use crate::layout::{PbAccess, PbLayout, Section, BLOCK_BYTES};

/// One block the Tiling Engine's L1s read from or write to the L2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct L2Block {
    pub block: u64,
    pub write: bool,
    pub section: Section,
}

/// Counters of a conventional cache for one section, in block accesses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SectionStats {
    pub accesses: u64,
    pub hits: u64,
    pub misses: u64,
    /// Blocks read from the L2 (read misses).
    pub l2_reads: u64,
    /// Blocks written back to the L2, counted against the victim's section.
    pub l2_writes: u64,
}

/// Counters of a conventional cache, per section.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ConventionalStats {
    pub pb_lists: SectionStats,
    pub pb_attributes: SectionStats,
}

impl ConventionalStats {
    pub fn section(&self, s: Section) -> &SectionStats {
        match s {
            Section::PbLists => &self.pb_lists,
            Section::PbAttributes => &self.pb_attributes,
        }
    }

    fn section_mut(&mut self, s: Section) -> &mut SectionStats {
        match s {
            Section::PbLists => &mut self.pb_lists,
            Section::PbAttributes => &mut self.pb_attributes,
        }
    }

    pub fn l2_reads(&self) -> u64 {
        self.pb_lists.l2_reads + self.pb_attributes.l2_reads
    }

    pub fn l2_writes(&self) -> u64 {
        self.pb_lists.l2_writes + self.pb_attributes.l2_writes
    }
}

/// Which sections a [`ConventionalCache`] serves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Serves {
    /// Both: the baseline Tile Cache.
    Both,
    /// PB-Lists only: the Primitive List Cache.
    PbLists,
}

/// An LRU cache of 64-byte lines over the Parameter Buffer.
pub struct ConventionalCache {
    cache: Cache<Lru>,
    serves: Serves,
    /// Where the sections are, to tell a victim's section by its address.
    layout: PbLayout,
    stats: ConventionalStats,
}

impl ConventionalCache {
    pub fn new(
        bytes: u64,
        ways: Ways,
        serves: Serves,
        layout: PbLayout,
    ) -> Result<ConventionalCache, ConfigError> {
        let geom = Geometry::from_size(bytes, ways, BLOCK_BYTES as u32)
            .map_err(|e| ConfigError::Cache(e.to_string()))?;
        let spec: PolicySpec = "lru".parse().expect("lru is a policy");
        let lru = Lru::build(&mut Params::new(&spec), &geom, &Env::default())
            .map_err(|e| ConfigError::Cache(e.to_string()))?;
        Ok(ConventionalCache {
            cache: Cache::new(geom, lru, StreamMask::default()),
            serves,
            layout,
            stats: ConventionalStats::default(),
        })
    }

    /// The baseline Tile Cache of Table I: 64 KiB, 4-way, both sections.
    pub fn baseline_tile_cache(layout: PbLayout) -> ConventionalCache {
        ConventionalCache::new(64 * 1024, Ways::N(4), Serves::Both, layout)
            .expect("a valid geometry")
    }

    /// TCOR's Primitive List Cache: 16 KiB, 4-way, PB-Lists only.
    pub fn primitive_list_cache(layout: PbLayout) -> ConventionalCache {
        ConventionalCache::new(16 * 1024, Ways::N(4), Serves::PbLists, layout)
            .expect("a valid geometry")
    }

    pub fn geometry(&self) -> &Geometry {
        self.cache.geometry()
    }

    pub fn stats(&self) -> &ConventionalStats {
        &self.stats
    }

    /// Dirty lines still cached (not written back: dead at frame end).
    pub fn dirty_lines(&self) -> u64 {
        let g = *self.cache.geometry();
        let mut n = 0;
        for set in 0..g.sets as usize {
            for way in 0..g.ways as usize {
                if let Some((_, true)) = self.cache.line(set, way) {
                    n += 1;
                }
            }
        }
        n
    }

    /// One Parameter Buffer access: every block it touches. Accesses to a
    /// section this cache does not serve are ignored.
    pub fn access(&mut self, a: &PbAccess, l2: &mut impl FnMut(L2Block)) {
        if self.serves == Serves::PbLists && a.section != Section::PbLists {
            return;
        }
        for block in a.blocks() {
            self.access_block(block, a.section, a.write, l2);
        }
    }

    fn access_block(
        &mut self,
        block: u64,
        section: Section,
        write: bool,
        l2: &mut impl FnMut(L2Block),
    ) {
        let outcome = self.cache.access_block(block, section.stream(), write, 0);
        let s = self.stats.section_mut(section);
        s.accesses += 1;
        let victim = match outcome {
            BlockOutcome::Hit => {
                s.hits += 1;
                return;
            }
            BlockOutcome::Fill { victim } => victim,
            BlockOutcome::Bypass => None,
        };
        s.misses += 1;
        // The victim's write-back first, then the fill, as the Attribute
        // Cache does.
        if let Some((v, true)) = victim {
            let vs = self.section_of(v);
            self.stats.section_mut(vs).l2_writes += 1;
            l2(L2Block {
                block: v,
                write: true,
                section: vs,
            });
        }
        if !write {
            self.stats.section_mut(section).l2_reads += 1;
            l2(L2Block {
                block,
                write: false,
                section,
            });
        }
    }

    /// The section of a block, from its address.
    fn section_of(&self, block: u64) -> Section {
        self.layout.section_of(block * BLOCK_BYTES)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::binning::OptNumber;
    use crate::layout::Phase;

    fn acc(section: Section, write: bool, addr: u64, attributes: u32) -> PbAccess {
        PbAccess {
            section,
            write,
            phase: Phase::Build,
            addr,
            id: 0,
            prim: 0,
            attributes,
            opt: OptNumber::NEVER,
            last_tile: 0,
            pointer: false,
        }
    }

    #[test]
    fn pmds_share_a_block_and_write_misses_read_nothing() {
        let layout = PbLayout::interleaved();
        // One set of one way: every other block evicts.
        let mut c = ConventionalCache::new(64, Ways::N(1), Serves::Both, layout).unwrap();
        let mut l2 = Vec::new();
        for i in 0..16 {
            c.access(
                &acc(Section::PbLists, true, layout.lists_ptr + 4 * i, 1),
                &mut |b| l2.push(b),
            );
        }
        let s = c.stats().pb_lists;
        assert_eq!((s.accesses, s.hits, s.misses, s.l2_reads), (16, 15, 1, 0));
        assert!(l2.is_empty());
        // Two attributes: the dirty PMD block is written back (counted
        // against PB-Lists), each attribute block read.
        c.access(
            &acc(Section::PbAttributes, false, layout.attrs_ptr, 2),
            &mut |b| l2.push(b),
        );
        let s = c.stats();
        assert_eq!(s.pb_lists.l2_writes, 1);
        assert_eq!(s.pb_attributes.l2_reads, 2);
        assert_eq!(s.pb_attributes.accesses, 2);
        assert_eq!(
            l2[0],
            L2Block {
                block: layout.lists_ptr / 64,
                write: true,
                section: Section::PbLists
            }
        );
        assert_eq!(l2.len(), 3);
        assert_eq!(c.dirty_lines(), 0);
    }

    #[test]
    fn the_primitive_list_cache_ignores_attributes() {
        let layout = PbLayout::interleaved();
        let mut c = ConventionalCache::primitive_list_cache(layout);
        assert_eq!(c.geometry().sets * c.geometry().ways * 64, 16 * 1024);
        c.access(
            &acc(Section::PbAttributes, true, layout.attrs_ptr, 3),
            &mut |_| {},
        );
        assert_eq!(c.stats().pb_attributes.accesses, 0);
        c.access(
            &acc(Section::PbLists, true, layout.lists_ptr, 1),
            &mut |_| {},
        );
        assert_eq!(c.stats().pb_lists.accesses, 1);
        assert_eq!(c.dirty_lines(), 1);
        let t = ConventionalCache::baseline_tile_cache(PbLayout::baseline());
        assert_eq!(
            (t.geometry().sets, t.geometry().ways),
            (256, 4),
            "64 KiB, 4-way, 64 B lines"
        );
    }

    #[test]
    fn sections_by_address() {
        let l = PbLayout::default();
        assert_eq!(l.section_of(l.lists_ptr), Section::PbLists);
        assert_eq!(l.section_of(l.attrs_ptr + 64), Section::PbAttributes);
        let swapped = PbLayout {
            lists_ptr: l.attrs_ptr,
            attrs_ptr: l.lists_ptr,
            ..l
        };
        assert_eq!(swapped.section_of(swapped.lists_ptr + 64), Section::PbLists);
        assert_eq!(swapped.section_of(swapped.attrs_ptr), Section::PbAttributes);
    }
}
