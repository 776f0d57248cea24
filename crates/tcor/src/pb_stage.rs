//! A Tiling Engine's Parameter Buffer traffic put into a tile-based
//! frame's record stream, where it happens: the stage between the renderer
//! (which bins each render pass and renders it tile by tile, but models no
//! Parameter Buffer) and whatever takes the GPU's stream (its L1s, a trace
//! writer).
//!
//! The renderer hands each render pass's binned frame over in stream order,
//! after the pass's geometry and before its first `TileBegin`
//! ([`RecordSink::binned`]). The stage replays it through the engine
//! ([`PassTraffic`]; by default TCOR Table I's baseline, a 64 KiB 4-way LRU
//! Tile Cache with the baseline PB-Lists layout, a tile's list going on in
//! the overflow area past its room of 1024 PMDs, [`crate::overflow`]) and
//! puts the L2 blocks in the stream as `pb-list` /
//! `pb-attr` accesses (64 B, unit 0):
//!
//! - the Polygon List Builder's blocks (PMD and attribute write-backs)
//!   right where the binned pass arrives, after the pass's geometry;
//! - each tile's Tile Fetcher blocks (reads, and the write-backs its misses
//!   cause) right after that tile's `TileBegin`.
//!
//! Everything else passes through unchanged and in order. The k-th
//! `TileBegin` after a binned pass must be the k-th tile of its traversal;
//! a stream that disagrees with its binned passes is a [`FrameMismatch`]
//! from [`PbTrafficStage::finish`], and the stage adds nothing more after
//! it.

use serde::Serialize;

use gfxcache_trace::binned::{BinnedPass, TileId};
use gfxcache_trace::{Access, Marker, Op, Record, RecordSink, RecordStage};

use crate::binning::Binning;
use crate::frame::BaselineConfig;
use crate::frame_l2::{FrameMismatch, PassTraffic, TilingEngine};
use crate::layout::BLOCK_BYTES;
use crate::overflow::OverflowCounts;
use crate::tile_cache::L2Block;

/// What the stage put into the stream.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PbTrafficStats {
    /// Binned render passes replayed.
    pub render_passes: u64,
    /// Parameter Buffer blocks read from and written to the L2.
    pub pb_reads: u64,
    pub pb_writes: u64,
    /// Lists that outgrew the baseline PB-Lists room (1024 PMDs per tile)
    /// and went on in the overflow area: render passes, tiles, PMDs,
    /// chunks, and the L2 blocks (reads and writes above) that were there.
    pub pb_overflow: OverflowCounts,
}

/// The render pass whose tiles are being rendered.
struct Current {
    traffic: PassTraffic,
    /// Tiles begun so far.
    tiles: u32,
    next_fetch: usize,
}

/// Puts a Tiling Engine's Parameter Buffer traffic into a tile-based
/// frame's record stream (see the module documentation).
pub struct PbTrafficStage {
    engine: TilingEngine,
    current: Option<Current>,
    stats: PbTrafficStats,
    /// Records and binned passes seen, for errors.
    seen: u64,
    error: Option<FrameMismatch>,
}

impl PbTrafficStage {
    /// The traffic of `engine`.
    pub fn new(engine: TilingEngine) -> PbTrafficStage {
        PbTrafficStage {
            engine,
            current: None,
            stats: PbTrafficStats::default(),
            seen: 0,
            error: None,
        }
    }

    /// TCOR Table I's baseline Tiling Engine (64 KiB Tile Cache): the
    /// Parameter Buffer traffic of `render --mode tbr`'s traces.
    pub fn baseline() -> PbTrafficStage {
        PbTrafficStage::new(TilingEngine::Baseline(BaselineConfig::kib64()))
    }

    /// What the stage added so far.
    pub fn stats(&self) -> &PbTrafficStats {
        &self.stats
    }

    /// The statistics, once the whole stream went through: an error if the
    /// stream and its binned passes disagreed (or the last render pass was
    /// left unfinished).
    pub fn finish(mut self) -> Result<PbTrafficStats, FrameMismatch> {
        self.end_pass();
        match self.error {
            Some(e) => Err(e),
            None => Ok(self.stats),
        }
    }

    fn fail(&mut self, what: String) {
        if self.error.is_none() {
            self.error = Some(FrameMismatch {
                record: self.seen,
                what,
            });
        }
        self.current = None;
    }

    /// Checks that the current render pass rendered every tile.
    fn end_pass(&mut self) {
        if let Some(c) = &self.current {
            let tiles = c.traffic.tiles();
            if c.tiles != tiles {
                let what = format!(
                    "a render pass of {tiles} tiles ended after {} of them",
                    c.tiles
                );
                self.fail(what);
            }
        }
        self.current = None;
    }

    fn tile_begin(&mut self, tile: TileId, out: &mut impl RecordSink) {
        let Some(c) = &mut self.current else {
            if self.error.is_none() {
                self.fail(format!("TileBegin {tile} before any binned render pass"));
            }
            return;
        };
        let pos = c.tiles;
        match c.traffic.sequence.get(pos as usize) {
            Some(&t) if t == tile => {}
            expected => {
                let what = match expected {
                    Some(t) => {
                        format!("tile {tile} where the traversal has tile {t} at position {pos}")
                    }
                    None => format!("tile {tile} after all {pos} tiles of the render pass"),
                };
                self.fail(what);
                return;
            }
        }
        c.tiles += 1;
        while let Some((p, blk)) = c.traffic.fetch.get(c.next_fetch) {
            if *p > pos {
                break;
            }
            out.record(record(&blk.l2_block()));
            c.next_fetch += 1;
        }
    }
}

impl RecordStage for PbTrafficStage {
    #[inline]
    fn record(&mut self, r: Record, out: &mut impl RecordSink) {
        let tile = match &r {
            Record::Marker(Marker::TileBegin { tile }) => Some(*tile),
            _ => None,
        };
        out.record(r);
        if let Some(tile) = tile {
            self.tile_begin(tile, out);
        }
        self.seen += 1;
    }

    fn binned(&mut self, pass: &BinnedPass, out: &mut impl RecordSink) {
        out.binned(pass);
        self.end_pass();
        if self.error.is_some() {
            return;
        }
        let traffic = Binning::new(&pass.frame)
            .map_err(|e| e.to_string())
            .and_then(|b| PassTraffic::new(&b, &self.engine).map_err(|e| e.to_string()));
        let traffic = match traffic {
            Ok(t) => t,
            Err(e) => return self.fail(format!("binned render pass {}: {e}", pass.pass)),
        };
        let (reads, writes) = traffic.l2_blocks();
        self.stats.render_passes += 1;
        self.stats.pb_reads += reads;
        self.stats.pb_writes += writes;
        self.stats.pb_overflow.add(&traffic.overflow);
        for blk in traffic.build_blocks() {
            out.record(record(&blk));
        }
        self.current = Some(Current {
            traffic,
            tiles: 0,
            next_fetch: 0,
        });
    }
}

/// An L2 block as a trace access.
fn record(b: &L2Block) -> Record {
    Record::Access(Access {
        addr: b.block * BLOCK_BYTES,
        size: BLOCK_BYTES as u32,
        unit: 0,
        stream: b.section.stream(),
        op: if b.write { Op::Write } else { Op::Read },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use gfxcache_trace::binned::{BinnedFrame, BinnedPrimitive, TileOrder};
    use gfxcache_trace::{Staged, Stream};

    /// 2x2 tiles in scanline order; `n` one-attribute primitives, each on
    /// one tile in turn (or all on tile 0): more attributes than the 64 KiB
    /// Tile Cache holds, so the builder writes back and the fetcher reads.
    fn pass_of(n: u32, one_tile: bool) -> BinnedPass {
        BinnedPass {
            frame_number: 0,
            pass: "main".into(),
            frame: BinnedFrame {
                tiles_x: 2,
                tiles_y: 2,
                tile_size: 32,
                order: TileOrder::Scanline,
                primitives: (0..n)
                    .map(|p| BinnedPrimitive {
                        attributes: 1,
                        tiles: vec![if one_tile { 0 } else { p % 4 }],
                    })
                    .collect(),
            },
        }
    }

    fn pass() -> BinnedPass {
        pass_of(3000, false)
    }

    fn tile(tile: u32) -> [Record; 2] {
        [
            Record::Marker(Marker::TileBegin { tile }),
            Record::Marker(Marker::TileEnd { tile }),
        ]
    }

    fn is_pb(r: &Record) -> bool {
        matches!(r, Record::Access(a) if matches!(a.stream, Stream::PbList | Stream::PbAttr))
    }

    #[test]
    fn blocks_go_where_the_engine_sends_them() {
        let p = pass();
        let b = Binning::new(&p.frame).unwrap();
        let traffic =
            PassTraffic::new(&b, &TilingEngine::Baseline(BaselineConfig::kib64())).unwrap();
        let mut out = Vec::new();
        let mut s = Staged::new(PbTrafficStage::baseline(), |r| out.push(r));
        s.record(Record::Access(Access::read(0, Stream::Vtx)));
        s.binned(&p);
        for t in 0..4 {
            for r in tile(t) {
                s.record(r);
            }
        }
        let stats = s.stage.finish().unwrap();
        let build: Vec<Record> = traffic.build_blocks().map(|b| record(&b)).collect();
        assert!(!build.is_empty());
        assert_eq!(out[0], Record::Access(Access::read(0, Stream::Vtx)));
        assert_eq!(out[1..1 + build.len()], build[..]);
        let mut at = 1 + build.len();
        for t in 0..4u32 {
            assert_eq!(out[at], tile(t)[0]);
            at += 1;
            for (pos, blk) in traffic.fetch_blocks() {
                if pos == t {
                    assert_eq!(out[at], record(&blk));
                    at += 1;
                }
            }
            assert_eq!(out[at], tile(t)[1]);
            at += 1;
        }
        assert_eq!(at, out.len());
        let (reads, writes) = traffic.l2_blocks();
        assert_eq!(
            stats,
            PbTrafficStats {
                render_passes: 1,
                pb_reads: reads,
                pb_writes: writes,
                pb_overflow: OverflowCounts::default(),
            }
        );
        assert_eq!(
            out.iter().filter(|r| is_pb(r)).count() as u64,
            reads + writes
        );
        assert!(reads > 0 && writes > 0);
    }

    #[test]
    fn an_overflowing_list_is_counted() {
        let mut s = Staged::new(PbTrafficStage::baseline(), |_| {});
        s.binned(&pass_of(1100, true));
        for t in 0..4 {
            for r in tile(t) {
                s.record(r);
            }
        }
        let stats = s.stage.finish().unwrap();
        // Tile 0 lists 1100 PMDs: 76 in one 127-PMD chunk of the overflow
        // area, which the baseline uses instead of switching layouts.
        let o = stats.pb_overflow;
        assert_eq!((o.passes, o.tiles, o.pmds, o.chunks), (1, 1, 76, 1));
        let b = Binning::new(&pass_of(1100, true).frame).unwrap();
        let traffic =
            PassTraffic::new(&b, &TilingEngine::Baseline(BaselineConfig::kib64())).unwrap();
        assert_eq!(o, traffic.overflow);
        assert_eq!(stats.render_passes, 1);
    }

    #[test]
    fn a_stream_that_disagrees_with_its_passes_is_an_error() {
        let run = |records: &[Record], binned: bool| {
            let mut s = Staged::new(PbTrafficStage::baseline(), |_| {});
            if binned {
                s.binned(&pass());
            }
            for r in records {
                s.record(r.clone());
            }
            s.stage.finish()
        };
        let e = run(&tile(0), false).unwrap_err();
        assert!(e.to_string().contains("before any binned"), "{e}");
        let e = run(&tile(1), true).unwrap_err();
        assert!(
            e.to_string()
                .contains("tile 1 where the traversal has tile 0"),
            "{e}"
        );
        let e = run(&tile(0), true).unwrap_err();
        assert!(e.to_string().contains("ended after 1 of them"), "{e}");
        let all: Vec<Record> = (0..4).flat_map(tile).chain(tile(0)).collect();
        let e = run(&all, true).unwrap_err();
        assert!(e.to_string().contains("after all 4 tiles"), "{e}");
        assert_eq!(e.record, 8);
    }
}
