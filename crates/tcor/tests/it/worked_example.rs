//! The paper's worked example (Section III-C7, Figures 9 and 10), replayed
//! through the Attribute Cache with LRU and with OPT.
//!
//! The setting, from the text: 3 primitives, 9 tiles, scanline order, a
//! fully associative cache with room for two primitives; every tile is
//! overlapped by exactly one primitive, so the Tile Fetcher makes 9 reads
//! and the Polygon List Builder 3 writes: 12 cache states.
//!
//! Figure 9 itself is not in our copy of the paper, so the primitives'
//! tiles are reconstructed from the narrative of Figure 10 (tiles numbered
//! 0-8 in scanline order, which is also their traversal position):
//! - "the pink primitive has an OPT Number of 3 which is greater than all
//!   the primitives in the current state of the cache" at the third write:
//!   pink is written third and its first tile is 3; yellow and blue, written
//!   first, are first read in tiles 0-2.
//! - the first L2 write is at the third write "for LRU a write-back on
//!   eviction": LRU evicts the first-written primitive, which must be the
//!   yellow one, since "when the yellow primitive is later requested by the
//!   Tile Fetcher in Tile 2, it results in an L2 read and write for the LRU
//!   since the primitive is not present and [...] the pink primitive, which
//!   is dirty, needs to be evicted". Pink being LRU's victim there means
//!   tiles 0 and 1 touched the other resident, blue; and since OPT "has
//!   retained the yellow primitive" it must have been written before blue
//!   was: Polygon List Builder order yellow, blue, pink.
//! - so yellow = {2}, blue = {0, 1, 4, ...}, pink = {3, ...}: "both
//!   policies have an L2 read and write in Tile 3" (pink's first read; OPT
//!   evicts yellow, dirty and "never accessed again"; LRU evicts blue,
//!   dirty), and "another L2 read for the LRU in Tile 4 to fetch the blue
//!   primitive" (LRU evicts yellow, now clean: no write).
//! - tiles 5-8 belong to pink or blue; the text does not say which, and
//!   it does not matter: after tile 4 both caches hold exactly pink and
//!   blue, so no later tile misses. [`PRIMARY`] is one plausible picture
//!   (blue a band from the top left to the bottom right, pink the lower
//!   left); the last test checks all 16 assignments give the same counts.
//!
//! Totals, one attribute per primitive so blocks = primitives: LRU 3 L2
//! reads and 3 L2 writes, OPT 1 L2 read and 2 L2 writes. OPT's misses
//! (3 writes + 1 read miss = 4) meet the lower bound LB = TP + (TP - CP) =
//! 3 + (3 - 2) of Section V-A; LRU's are 6.

use gfxcache_cache::Ways;
use gfxcache_tcor::{
    AttributeCache, AttributeCacheConfig, BinnedFrame, BinnedPrimitive, Binning, L2Request,
    OutputQueue, PbLayout, Replacement, Request, Section, TileOrder,
};

const YELLOW: u32 = 0;
const BLUE: u32 = 1;
const PINK: u32 = 2;

/// Owner of each tile 0-8 (scanline): B B Y / P B B / P P B.
const PRIMARY: [u32; 9] = [BLUE, BLUE, YELLOW, PINK, BLUE, BLUE, PINK, PINK, BLUE];

fn frame(owner: [u32; 9]) -> BinnedFrame {
    let tiles_of = |p: u32| (0..9).filter(|&t| owner[t as usize] == p).collect();
    BinnedFrame {
        tiles_x: 3,
        tiles_y: 3,
        tile_size: 32,
        order: TileOrder::Scanline,
        primitives: [YELLOW, BLUE, PINK]
            .iter()
            .map(|&p| BinnedPrimitive {
                attributes: 1,
                tiles: tiles_of(p),
            })
            .collect(),
    }
}

/// The twelve states of Figure 10: after each Attribute Cache access, the
/// cumulative (L2 reads, L2 writes) and the primitives cached.
fn states(owner: [u32; 9], r: Replacement) -> Vec<((u64, u64), Vec<u32>)> {
    let b = Binning::new(&frame(owner)).unwrap();
    let layout = PbLayout::interleaved();
    let mut cache = AttributeCache::new(AttributeCacheConfig {
        entries: 2,
        lines: 2,
        ways: Ways::Full,
        replacement: r,
    })
    .unwrap();
    let mut queue = OutputQueue::new(0);
    let mut l2 = |_: L2Request| {};
    let mut out = Vec::new();
    for a in layout.stream(&b) {
        if a.section != Section::PbAttributes {
            continue;
        }
        cache.access(&a, &mut queue, &mut l2);
        let s = cache.stats();
        let cached = (0..3)
            .filter(|&p| cache.lookup(layout.primitive_id(&b, p)).is_some())
            .collect();
        out.push(((s.l2_reads, s.l2_writes), cached));
    }
    assert_eq!(out.len(), 12, "3 writes and 9 reads");
    out
}

fn counts(states: &[((u64, u64), Vec<u32>)]) -> Vec<(u64, u64)> {
    states.iter().map(|s| s.0).collect()
}

#[test]
fn lru_state_by_state() {
    let s = states(PRIMARY, Replacement::Lru);
    assert_eq!(
        counts(&s),
        [
            (0, 0), // write yellow
            (0, 0), // write blue
            (0, 1), // write pink: yellow (dirty) written back
            (0, 1), // tile 0 blue: hit
            (0, 1), // tile 1 blue: hit
            (1, 2), // tile 2 yellow: L2 read, pink (dirty) written back
            (2, 3), // tile 3 pink: L2 read, blue (dirty) written back
            (3, 3), // tile 4 blue: L2 read, yellow (clean) dropped
            (3, 3),
            (3, 3),
            (3, 3),
            (3, 3),
        ]
    );
    assert_eq!(s[2].1, [BLUE, PINK]);
    assert_eq!(s[6].1, [YELLOW, PINK], "LRU retains yellow after tile 3");
    assert_eq!(s[7].1, [BLUE, PINK]);
}

#[test]
fn opt_state_by_state() {
    let s = states(PRIMARY, Replacement::Opt);
    assert_eq!(
        counts(&s),
        [
            (0, 0), // write yellow (OPT Number 2)
            (0, 0), // write blue (OPT Number 0)
            (0, 1), // write pink (OPT Number 3 > 2, 0): bypassed to the L2
            (0, 1), // tile 0 blue: hit
            (0, 1), // tile 1 blue: hit
            (0, 1), // tile 2 yellow: hit, OPT retained it
            (1, 2), // tile 3 pink: L2 read, yellow (dirty, dead) written back
            (1, 2), // tile 4 blue: hit
            (1, 2),
            (1, 2),
            (1, 2),
            (1, 2),
        ]
    );
    assert_eq!(s[2].1, [YELLOW, BLUE]);
    assert_eq!(s[6].1, [BLUE, PINK], "OPT evicts yellow in tile 3");
}

#[test]
fn opt_numbers_of_the_example() {
    let b = Binning::new(&frame(PRIMARY)).unwrap();
    assert_eq!(b.first_use(YELLOW).0, 2);
    assert_eq!(b.first_use(BLUE).0, 0);
    assert_eq!(b.first_use(PINK).0, 3);
    assert!(b.list(2)[0].opt.is_never(), "yellow is dead after tile 2");
}

#[test]
fn totals_and_the_lower_bound() {
    let b = Binning::new(&frame(PRIMARY)).unwrap();
    let layout = PbLayout::interleaved();
    let config = |r| AttributeCacheConfig {
        entries: 2,
        lines: 2,
        ways: Ways::Full,
        replacement: r,
    };
    let lru = gfxcache_tcor::replay(&b, &layout, config(Replacement::Lru)).unwrap();
    let opt = gfxcache_tcor::replay(&b, &layout, config(Replacement::Opt)).unwrap();
    assert_eq!((lru.l2_reads, lru.l2_writes), (3, 3));
    assert_eq!((opt.l2_reads, opt.l2_writes), (1, 2));
    assert_eq!((lru.reads, lru.writes, opt.reads, opt.writes), (9, 3, 9, 3));
    assert_eq!(lru.misses(), 6);
    assert_eq!(opt.misses(), 4);
    assert_eq!(opt.write_bypasses, 1);
    assert_eq!(lru.write_bypasses, 0);
    // LB = TP + (TP - CP) with TP = 3, CP = 2.
    assert_eq!(opt.misses(), 3 + (3 - 2));
}

#[test]
fn tiles_five_to_eight_do_not_change_the_counts() {
    let lru = counts(&states(PRIMARY, Replacement::Lru));
    let opt = counts(&states(PRIMARY, Replacement::Opt));
    for mask in 0..16u32 {
        let mut owner = PRIMARY;
        for k in 0..4 {
            owner[5 + k] = if mask >> k & 1 == 1 { PINK } else { BLUE };
        }
        assert_eq!(counts(&states(owner, Replacement::Lru)), lru, "{owner:?}");
        assert_eq!(counts(&states(owner, Replacement::Opt)), opt, "{owner:?}");
    }
    // The Request type is what a PMD carries: checked here so that the
    // example's write of pink has the OPT Number the text gives.
    let b = Binning::new(&frame(PRIMARY)).unwrap();
    let layout = PbLayout::interleaved();
    let pink_write = layout
        .stream(&b)
        .filter(|a| a.section == Section::PbAttributes && a.write)
        .nth(2)
        .unwrap();
    assert_eq!(Request::from_access(&pink_write).opt.0, 3);
}
