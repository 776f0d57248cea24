//! The Parameter Buffer traffic of a render pass in the trace: what the
//! baseline Tiling Engine (TCOR Table I: a 64 KiB 4-way LRU Tile Cache,
//! the baseline PB-Lists layout, or the interleaved one when a tile's list
//! outgrows it) sends to the L2, computed by `gfxcache-tcor`'s
//! [`PassTraffic`] from the pass's binned frame.
//!
//! The Polygon List Builder's blocks (PMD and attribute write-backs) go
//! out after the pass's geometry; the Tile Fetcher's blocks of each tile
//! (reads, and the write-backs its misses cause) right after that tile's
//! `TileBegin`. A consumer studying other Tiling Engines drops the
//! `pb-list`/`pb-attr` records and puts its own at the same places
//! (`gfxcache_tcor::FrameL2` does).

use gfxcache_tcor::{
    BaselineConfig, BinnedFrame, Binning, L2Block, PassTraffic, TilePos, TilingEngine,
};
use gfxcache_trace::{Access, Op, Record};

use super::tbr::TbrStats;

/// The Tile Fetcher's L2 blocks of a render pass, by tile position.
#[derive(Default)]
pub(super) struct PbTraffic {
    fetch: Vec<(TilePos, L2Block)>,
    next: usize,
}

fn record(b: &L2Block) -> Record {
    Record::Access(Access {
        addr: b.block * gfxcache_tcor::layout::BLOCK_BYTES,
        size: gfxcache_tcor::layout::BLOCK_BYTES as u32,
        unit: 0,
        stream: b.section.stream(),
        op: if b.write { Op::Write } else { Op::Read },
    })
}

impl PbTraffic {
    /// Replays `frame`'s Parameter Buffer through the baseline Tile Cache:
    /// the Polygon List Builder's L2 blocks go to `sink` now, the Tile
    /// Fetcher's are kept for [`PbTraffic::tile`].
    pub(super) fn build(
        frame: &BinnedFrame,
        stats: &mut TbrStats,
        sink: &mut impl FnMut(Record),
    ) -> PbTraffic {
        // The renderer's grids are never empty and the Table I cache is
        // well formed, so neither can fail; should one, the pass simply
        // has no PB traffic.
        let Ok(b) = Binning::new(frame) else {
            return PbTraffic::default();
        };
        let engine = TilingEngine::Baseline(BaselineConfig::kib64());
        let Ok(traffic) = PassTraffic::new(&b, &engine) else {
            return PbTraffic::default();
        };
        stats.pb_overflow_passes += u64::from(traffic.layout_fallback);
        let (reads, writes) = traffic.l2_blocks();
        stats.pb_reads += reads;
        stats.pb_writes += writes;
        for blk in traffic.build_blocks() {
            sink(record(&blk));
        }
        PbTraffic {
            fetch: traffic.fetch_blocks().collect(),
            next: 0,
        }
    }

    /// The Tile Fetcher's L2 blocks for the tile at traversal position
    /// `pos` (positions are visited in increasing order).
    pub(super) fn tile(&mut self, pos: TilePos, sink: &mut impl FnMut(Record)) {
        while let Some((p, blk)) = self.fetch.get(self.next) {
            if *p > pos {
                break;
            }
            sink(record(blk));
            self.next += 1;
        }
    }
}
