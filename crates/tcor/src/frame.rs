//! A whole frame's Parameter Buffer traffic through the baseline Tiling
//! Engine and through TCOR (Section V-B), with what each sends to the L2.
//!
//! - Baseline: the baseline PB-Lists layout (Figure 3) and one Tile Cache
//!   (Table I: 64 KiB, 4-way, LRU) for both sections; the 128 KiB variant
//!   is the same cache twice as large.
//! - TCOR: the interleaved PB-Lists layout (Figure 6), a 16 KiB LRU
//!   Primitive List Cache and a 48 KiB OPT Attribute Cache; or 16 + 112 KiB.
//!
//! Both replay the same [`ParameterBufferStream`](crate::ParameterBufferStream)
//! (each with its own layout) and hand every L2 block access, and every
//! finished tile, to an [`L2Port`]: a counter, an L2 model, or anything a
//! caller merges with the frame's other L2 traffic.

use gfxcache_cache::Ways;
use serde::Serialize;

use crate::attribute_cache::{
    AttributeCache, AttributeCacheConfig, AttributeCacheStats, L2Request, OutputQueue,
};
use crate::binning::{Binning, TilePos};
use crate::error::ConfigError;
use crate::layout::{PbAccess, PbLayout, Phase, Section};
use crate::tile_cache::{ConventionalCache, ConventionalStats, L2Block, Serves};

/// Where the Tiling Engine's L1s send their misses and write-backs.
pub trait L2Port {
    /// One 64-byte block read from or written to the L2.
    fn block(&mut self, b: L2Block);
    /// The Tile Fetcher has finished the first `done` tiles of the
    /// traversal (the L2's last-finished-tile register is `done - 1`).
    fn tiles_done(&mut self, done: u32) {
        let _ = done;
    }
    /// The stage of the blocks that follow (until the next call): called
    /// before every Parameter Buffer access.
    fn phase(&mut self, phase: Phase) {
        let _ = phase;
    }
    /// The Tile Fetcher begins its next primitive (the read of its PMD, or
    /// of the overflow-area pointer right before it): the blocks that
    /// follow, until the next call or the next tile's, are its L2 traffic.
    /// What tells the Tile Fetcher's timing which reads a primitive waits
    /// for ([`crate::fetcher`]).
    fn fetch_primitive(&mut self) {}
}

/// An [`L2Port`] that drops everything (the caches count their own L2
/// traffic).
pub struct NoL2;

impl L2Port for NoL2 {
    fn block(&mut self, _: L2Block) {}
}

/// The baseline Tiling Engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BaselineConfig {
    pub tile_cache_bytes: u64,
    pub ways: Ways,
    pub layout: PbLayout,
}

impl BaselineConfig {
    /// Table I: a 64 KiB 4-way Tile Cache, baseline layout.
    pub fn kib64() -> BaselineConfig {
        BaselineConfig {
            tile_cache_bytes: 64 * 1024,
            ways: Ways::N(4),
            layout: PbLayout::baseline(),
        }
    }

    /// The paper's larger variant: 128 KiB, 4-way.
    pub fn kib128() -> BaselineConfig {
        BaselineConfig {
            tile_cache_bytes: 128 * 1024,
            ..BaselineConfig::kib64()
        }
    }
}

/// The depth of the Tile Fetcher's output queue by default, in primitives.
///
/// The paper puts the Tile Fetcher's primitives "into a FIFO queue for the
/// Raster Pipeline to consume" (Section II-B) without giving its size. Ours
/// is the Rasterizer's input FIFO of ATTILA, the cycle-level GPU simulator
/// of the same UPC department as TEAPOT (which the paper used): the
/// Triangle Setup FIFO of its default configuration holds 12 triangles
/// (`src/bgpu/bGPU.ini` of attila-gpu/attila-sim, `[RASTERIZER]
/// SetupFIFOSize = 12`).
pub const DEFAULT_OUTPUT_QUEUE_DEPTH: usize = 12;

/// TCOR's Tiling Engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TcorConfig {
    pub list_cache_bytes: u64,
    pub list_ways: Ways,
    pub attribute_cache: AttributeCacheConfig,
    pub layout: PbLayout,
    /// Primitives the Tile Fetcher's output queue holds for the Rasterizer
    /// ([`DEFAULT_OUTPUT_QUEUE_DEPTH`] by default). A primitive's
    /// Attribute Cache line stays locked while it waits there, so no read
    /// or write can evict it; with 0 the Rasterizer consumes each primitive
    /// at once and nothing is locked at a replacement.
    pub queue_depth: usize,
}

impl TcorConfig {
    /// 16 KiB Primitive List Cache + 48 KiB Attribute Cache.
    pub fn kib64() -> TcorConfig {
        TcorConfig {
            list_cache_bytes: 16 * 1024,
            list_ways: Ways::N(4),
            attribute_cache: AttributeCacheConfig::tcor_48k(),
            layout: PbLayout::interleaved(),
            queue_depth: DEFAULT_OUTPUT_QUEUE_DEPTH,
        }
    }

    /// 16 KiB Primitive List Cache + 112 KiB Attribute Cache.
    pub fn kib128() -> TcorConfig {
        TcorConfig {
            attribute_cache: AttributeCacheConfig::tcor_112k(),
            ..TcorConfig::kib64()
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct BaselineStats {
    pub tile_cache: ConventionalStats,
    /// Dirty lines left in the Tile Cache at frame end (dead, not written).
    pub dirty_at_end: u64,
}

impl BaselineStats {
    pub fn l2_reads(&self) -> u64 {
        self.tile_cache.l2_reads()
    }

    pub fn l2_writes(&self) -> u64 {
        self.tile_cache.l2_writes()
    }

    /// Parameter Buffer accesses to the L2 (Figures 14 and 15).
    pub fn l2_accesses(&self) -> u64 {
        self.l2_reads() + self.l2_writes()
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct TcorStats {
    pub primitive_list_cache: ConventionalStats,
    pub attribute_cache: AttributeCacheStats,
    /// Dirty blocks left in both caches at frame end (dead, not written).
    pub dirty_at_end: u64,
}

impl TcorStats {
    pub fn l2_reads(&self) -> u64 {
        self.primitive_list_cache.l2_reads() + self.attribute_cache.l2_reads
    }

    pub fn l2_writes(&self) -> u64 {
        self.primitive_list_cache.l2_writes() + self.attribute_cache.l2_writes
    }

    pub fn l2_accesses(&self) -> u64 {
        self.l2_reads() + self.l2_writes()
    }
}

/// Tells `l2` about finished tiles as the stream's phase advances, and
/// where each fetched primitive begins.
struct TileClock {
    done: u32,
    /// The access before was a pointer read, whose PMD comes next.
    after_pointer: bool,
}

impl TileClock {
    fn new() -> TileClock {
        TileClock {
            done: 0,
            after_pointer: false,
        }
    }

    fn at(&mut self, a: &PbAccess, l2: &mut impl L2Port) {
        l2.phase(a.phase);
        if let Phase::Fetch(pos) = a.phase {
            self.advance(pos, l2);
            if a.section == Section::PbLists && !self.after_pointer {
                l2.fetch_primitive();
            }
        }
        self.after_pointer = a.pointer;
    }

    fn advance(&mut self, done: TilePos, l2: &mut impl L2Port) {
        if done > self.done {
            self.done = done;
            l2.tiles_done(done);
        }
    }
}

/// The baseline over a frame.
pub fn simulate_baseline(
    b: &Binning,
    config: &BaselineConfig,
    l2: &mut impl L2Port,
) -> Result<BaselineStats, ConfigError> {
    config.layout.check(b)?;
    let mut tc = ConventionalCache::new(
        config.tile_cache_bytes,
        config.ways,
        Serves::Both,
        config.layout,
    )?;
    let mut clock = TileClock::new();
    for a in config.layout.stream(b) {
        clock.at(&a, l2);
        tc.access(&a, &mut |blk| l2.block(blk));
    }
    clock.advance(b.tiles(), l2);
    Ok(BaselineStats {
        tile_cache: *tc.stats(),
        dirty_at_end: tc.dirty_lines(),
    })
}

/// TCOR over a frame.
pub fn simulate_tcor(
    b: &Binning,
    config: &TcorConfig,
    l2: &mut impl L2Port,
) -> Result<TcorStats, ConfigError> {
    config.layout.check(b)?;
    let mut plc = ConventionalCache::new(
        config.list_cache_bytes,
        config.list_ways,
        Serves::PbLists,
        config.layout,
    )?;
    let mut ac = AttributeCache::new(config.attribute_cache)?;
    let mut queue = OutputQueue::new(config.queue_depth);
    let mut clock = TileClock::new();
    for a in config.layout.stream(b) {
        clock.at(&a, l2);
        match a.section {
            Section::PbLists => plc.access(&a, &mut |blk| l2.block(blk)),
            Section::PbAttributes => ac.access(&a, &mut queue, &mut |r: L2Request| {
                l2.block(L2Block {
                    block: r.block,
                    write: r.write,
                    section: Section::PbAttributes,
                })
            }),
        }
    }
    ac.drain(&mut queue);
    clock.advance(b.tiles(), l2);
    Ok(TcorStats {
        primitive_list_cache: *plc.stats(),
        attribute_cache: *ac.stats(),
        dirty_at_end: plc.dirty_lines() + ac.dirty_attributes(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::binning::TileOrder;
    use crate::binning::{BinnedFrame, BinnedPrimitive};

    /// Counts what reaches the L2 and the finished-tile signals.
    #[derive(Default)]
    struct Count {
        reads: u64,
        writes: u64,
        done: Vec<u32>,
        primitives: u64,
    }

    impl L2Port for Count {
        fn block(&mut self, b: L2Block) {
            if b.write {
                self.writes += 1;
            } else {
                self.reads += 1;
            }
        }
        fn tiles_done(&mut self, done: u32) {
            self.done.push(done);
        }
        fn fetch_primitive(&mut self) {
            self.primitives += 1;
        }
    }

    fn frame(prims: u32, tiles_x: u32, tiles_y: u32) -> Binning {
        let tiles = tiles_x * tiles_y;
        Binning::new(&BinnedFrame {
            tiles_x,
            tiles_y,
            tile_size: 32,
            order: TileOrder::ZOrder,
            primitives: (0..prims)
                .map(|p| BinnedPrimitive {
                    attributes: 1 + p % 5,
                    tiles: (0..1 + p % 7).map(|k| (p * 13 + k * 31) % tiles).collect(),
                })
                .collect(),
        })
        .unwrap()
    }

    #[test]
    fn the_port_sees_what_the_caches_count() {
        let b = frame(3000, 62, 24);
        let mut c = Count::default();
        let s = simulate_tcor(&b, &TcorConfig::kib64(), &mut c).unwrap();
        assert_eq!((c.reads, c.writes), (s.l2_reads(), s.l2_writes()));
        assert_eq!(*c.done.last().unwrap(), b.tiles());
        assert!(c.done.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(
            c.primitives,
            b.total_uses(),
            "one per PMD the fetcher reads"
        );
        let mut c = Count::default();
        let s = simulate_baseline(&b, &BaselineConfig::kib64(), &mut c).unwrap();
        assert_eq!((c.reads, c.writes), (s.l2_reads(), s.l2_writes()));
        assert_eq!(c.primitives, b.total_uses());
        let t = &s.tile_cache;
        assert_eq!(t.pb_lists.accesses, 2 * b.total_uses());
        assert_eq!(
            t.pb_attributes.accesses,
            b.total_attributes()
                + (0..b.primitives())
                    .map(|p| u64::from(b.attributes(p)) * b.uses(p).len() as u64)
                    .sum::<u64>()
        );
    }

    #[test]
    fn everything_fits_no_l2_traffic() {
        let b = frame(20, 4, 4);
        let s = simulate_tcor(&b, &TcorConfig::kib64(), &mut NoL2).unwrap();
        assert_eq!((s.l2_reads(), s.l2_writes()), (0, 0));
        assert!(s.dirty_at_end > 0);
        // The baseline's lists, 64 blocks apart, fall in 4 of the 256 sets
        // of a 64 KiB 4-way cache: the conflict misses of Section III-B,
        // even though the whole Parameter Buffer would fit.
        let s = simulate_baseline(&b, &BaselineConfig::kib64(), &mut NoL2).unwrap();
        assert!(s.l2_accesses() > 0);
        let g = ConventionalCache::baseline_tile_cache(PbLayout::baseline());
        let sets: std::collections::BTreeSet<u64> = (0..16u64)
            .map(|t| (PbLayout::baseline().lists_ptr / 64 + t * 64) % u64::from(g.geometry().sets))
            .collect();
        assert_eq!(sets.len(), 4);
        // Interleaved, the same frame through the same cache misses nothing.
        let interleaved = BaselineConfig {
            layout: PbLayout::interleaved(),
            ..BaselineConfig::kib64()
        };
        let s = simulate_baseline(&b, &interleaved, &mut NoL2).unwrap();
        assert_eq!((s.l2_reads(), s.l2_writes()), (0, 0));
    }

    #[test]
    fn tcor_sends_less_to_the_l2_than_the_baseline_on_a_large_frame() {
        let b = frame(20_000, 62, 24);
        let base = simulate_baseline(&b, &BaselineConfig::kib64(), &mut NoL2).unwrap();
        let tcor = simulate_tcor(&b, &TcorConfig::kib64(), &mut NoL2).unwrap();
        assert!(
            tcor.l2_accesses() < base.l2_accesses(),
            "TCOR {} vs baseline {}",
            tcor.l2_accesses(),
            base.l2_accesses()
        );
        let base128 = simulate_baseline(&b, &BaselineConfig::kib128(), &mut NoL2).unwrap();
        let tcor128 = simulate_tcor(&b, &TcorConfig::kib128(), &mut NoL2).unwrap();
        assert!(base128.l2_accesses() <= base.l2_accesses());
        assert!(tcor128.l2_accesses() <= tcor.l2_accesses());
    }
}
