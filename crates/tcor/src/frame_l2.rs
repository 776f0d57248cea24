//! A tile-based frame's L2 with a chosen Tiling Engine (Section V-B:
//! Figures 14-19 and 23-24).
//!
//! The frame is the trace `render --mode tbr` writes (what reaches the L2:
//! vertex and texture cache misses, tile loads and stores, the baseline
//! Tiling Engine's Parameter Buffer blocks) and the binned frame of each of
//! its render passes. The trace's own `pb-list`/`pb-attr` records are
//! dropped and replaced by what the chosen [`TilingEngine`] sends to the
//! L2, at the same places: the Polygon List Builder's blocks right before
//! a render pass's first `TileBegin`, the Tile Fetcher's blocks of a tile
//! right after its `TileBegin`. Everything then goes through one
//! [`L2Cache`], so Parameter Buffer lines compete with the frame's texture
//! and vertex lines as in the paper.
//!
//! - Render pass k of the trace is the k-th run of tiles; it must have as
//!   many tiles as binned frame k, in its traversal order (a mismatch is an
//!   error naming the record).
//! - Tile IDs count through the frame: render pass k's tiles come after
//!   every earlier pass's, so the last-finished-tile register only grows
//!   and the Parameter Buffer lines of finished render passes are dead
//!   (every render pass reuses the same Parameter Buffer addresses).
//! - Tile-buffer traffic (`rt`, `display`, `z`, `stc`, `hiz`) goes to main
//!   memory without the L2, as the Color Buffer does in the paper's
//!   Figure 2 ([`TileBuffers::Memory`]), or through it
//!   ([`TileBuffers::L2`]).
//! - The Tile Fetcher's throughput with an unbounded output queue
//!   ([`crate::fetcher`]): each render pass's fetched primitives with the
//!   blocks each read from the L2 and whether the L2 hit, in the order the
//!   L2 saw them, are timed once the pass is done, by the configured
//!   [`FetcherTiming`] and by any others asked for
//!   ([`FrameL2::with_fetcher_sweep`]) without simulating the L2 again.
//!   The fetcher's figures at a `FrameEnd` count the render passes done by
//!   then.

use serde::Serialize;

use gfxcache_cache::block_range;
use gfxcache_trace::binned::is_tile_buffer;
use gfxcache_trace::{Access, Batch, Marker, Stream};

use crate::binning::{Binning, LastTileId, TileId, TilePos};
use crate::error::ConfigError;
use crate::fetcher::{self, FetchTrace, FetcherStats, FetcherTiming};
use crate::frame::{simulate_baseline, simulate_tcor, BaselineConfig, L2Port, TcorConfig};
use crate::l2::{last_tile, L2Cache, L2Config, L2Stats, LineKind};
use crate::layout::{PbLayout, Phase, Section, BLOCK_BYTES};
use crate::overflow::{ListOverflow, OverflowCounts};
use crate::tile_cache::L2Block;

/// The Tiling Engine whose Parameter Buffer traffic the L2 sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TilingEngine {
    Baseline(BaselineConfig),
    Tcor(TcorConfig),
}

/// Where tile loads and stores go.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TileBuffers {
    /// To main memory directly (the paper's Color Buffer).
    #[default]
    Memory,
    /// Through the L2, as non-Parameter-Buffer lines.
    L2,
}

/// One Parameter Buffer block on its way to the L2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PbBlock {
    block: u64,
    write: bool,
    section: Section,
    /// Within its render pass.
    last_tile: LastTileId,
}

impl PbBlock {
    pub(crate) fn l2_block(&self) -> L2Block {
        L2Block {
            block: self.block,
            write: self.write,
            section: self.section,
        }
    }
}

/// Accesses to the Tiling Engine's L1s, for the energy model.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct EngineCounts {
    /// PB-Lists block accesses (the baseline Tile Cache, or TCOR's
    /// Primitive List Cache).
    pub lists_accesses: u64,
    /// PB-Attributes accesses in attributes (the baseline Tile Cache's
    /// blocks, or the Attribute Buffer's entries).
    pub attribute_accesses: u64,
    /// Primitives the Tile Fetcher read (one PMD each).
    pub primitives_fetched: u64,
    /// Times TCOR's Tile Fetcher stalled on a read because every candidate
    /// line of the Attribute Cache was locked (its primitive waiting in the
    /// output queue); 0 for the baseline and with queue depth 0.
    pub attribute_cache_stalls: u64,
}

impl EngineCounts {
    fn add(&mut self, o: &EngineCounts) {
        self.lists_accesses += o.lists_accesses;
        self.attribute_accesses += o.attribute_accesses;
        self.primitives_fetched += o.primitives_fetched;
        self.attribute_cache_stalls += o.attribute_cache_stalls;
    }

    fn since(&self, e: &EngineCounts) -> EngineCounts {
        EngineCounts {
            lists_accesses: self.lists_accesses - e.lists_accesses,
            attribute_accesses: self.attribute_accesses - e.attribute_accesses,
            primitives_fetched: self.primitives_fetched - e.primitives_fetched,
            attribute_cache_stalls: self.attribute_cache_stalls - e.attribute_cache_stalls,
        }
    }
}

/// A render pass's Parameter Buffer traffic from one Tiling Engine.
pub struct PassTraffic {
    build: Vec<PbBlock>,
    pub(crate) fetch: Vec<(TilePos, PbBlock)>,
    /// Where each fetched primitive's blocks begin in `fetch`, in the
    /// order the Tile Fetcher outputs them.
    fetch_primitives: Vec<usize>,
    /// The tiles in traversal order.
    pub(crate) sequence: Vec<TileId>,
    pub counts: EngineCounts,
    /// The baseline layout's overflow area in this pass: lists longer than
    /// their room of 1024 PMDs, and the L2 blocks the engine moved there
    /// (all zero without such lists, and for the interleaved layout).
    pub overflow: OverflowCounts,
}

/// Collects an engine's L2 blocks by phase, with their last tiles.
struct Collect<'a> {
    binning: &'a Binning,
    layout: PbLayout,
    overflow: Option<&'a ListOverflow>,
    phase: Phase,
    out: PassTraffic,
}

impl L2Port for Collect<'_> {
    fn block(&mut self, b: L2Block) {
        let blk = PbBlock {
            block: b.block,
            write: b.write,
            section: b.section,
            last_tile: last_tile(self.binning, &self.layout, self.overflow, &b),
        };
        if let Some(o) = self.overflow {
            self.out.overflow.l2_blocks += u64::from(o.contains(b.block * BLOCK_BYTES));
        }
        match self.phase {
            Phase::Build => self.out.build.push(blk),
            Phase::Fetch(pos) => self.out.fetch.push((pos, blk)),
        }
    }

    fn phase(&mut self, phase: Phase) {
        self.phase = phase;
    }

    fn fetch_primitive(&mut self) {
        self.out.fetch_primitives.push(self.out.fetch.len());
    }
}

impl PassTraffic {
    /// Replays render pass `b` through `engine`.
    pub fn new(b: &Binning, engine: &TilingEngine) -> Result<PassTraffic, ConfigError> {
        let layout = match engine {
            TilingEngine::Baseline(c) => c.layout,
            TilingEngine::Tcor(c) => c.layout,
        };
        layout.check(b)?;
        let overflow = ListOverflow::new(&layout, b);
        let mut port = Collect {
            binning: b,
            layout,
            overflow: overflow.as_ref(),
            phase: Phase::Build,
            out: PassTraffic {
                build: Vec::new(),
                fetch: Vec::new(),
                fetch_primitives: Vec::new(),
                sequence: b.sequence().to_vec(),
                counts: EngineCounts::default(),
                overflow: OverflowCounts::of_pass(
                    &overflow
                        .as_ref()
                        .map(ListOverflow::usage)
                        .unwrap_or_default(),
                    0,
                ),
            },
        };
        let attribute_accesses = b.total_attributes()
            + (0..b.primitives())
                .map(|p| u64::from(b.attributes(p)) * b.uses(p).len() as u64)
                .sum::<u64>();
        let (lists_accesses, stalls) = match engine {
            TilingEngine::Baseline(c) => {
                let s = simulate_baseline(b, c, &mut port)?;
                (s.tile_cache.pb_lists.accesses, 0)
            }
            TilingEngine::Tcor(c) => {
                let s = simulate_tcor(b, c, &mut port)?;
                (
                    s.primitive_list_cache.pb_lists.accesses,
                    s.attribute_cache.stalls,
                )
            }
        };
        let mut out = port.out;
        out.counts = EngineCounts {
            lists_accesses,
            attribute_accesses,
            primitives_fetched: b.total_uses(),
            attribute_cache_stalls: stalls,
        };
        Ok(out)
    }

    /// The Polygon List Builder's L2 blocks, in order.
    pub fn build_blocks(&self) -> impl Iterator<Item = L2Block> + '_ {
        self.build.iter().map(PbBlock::l2_block)
    }

    /// The Tile Fetcher's L2 blocks in order, with the traversal position
    /// of the tile that sent each.
    pub fn fetch_blocks(&self) -> impl Iterator<Item = (TilePos, L2Block)> + '_ {
        self.fetch.iter().map(|(pos, b)| (*pos, b.l2_block()))
    }

    /// The primitives the Tile Fetcher outputs, in order, each with the
    /// index in [`PassTraffic::fetch_blocks`] of its first block (a
    /// primitive without L2 traffic has the next one's).
    pub fn fetch_primitives(&self) -> &[usize] {
        &self.fetch_primitives
    }

    /// Parameter Buffer blocks sent to the L2: (reads, writes).
    pub fn l2_blocks(&self) -> (u64, u64) {
        let all = self.build.iter().chain(self.fetch.iter().map(|(_, b)| b));
        all.fold((0, 0), |(r, w), b| {
            (r + u64::from(!b.write), w + u64::from(b.write))
        })
    }

    pub(crate) fn tiles(&self) -> u32 {
        self.sequence.len() as u32
    }
}

/// The trace and the binned frames disagree.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("record {record}: {what}")]
pub struct FrameMismatch {
    /// Index of the record (accesses and markers) in the trace.
    pub record: u64,
    pub what: String,
}

/// What the L2 and main memory saw over the frame.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, serde::Deserialize)]
pub struct FrameL2Stats {
    pub render_passes: u64,
    pub tiles: u64,
    /// Parameter Buffer blocks the Tiling Engine read from and wrote to
    /// the L2 (Figures 14-15 add them).
    pub pb_l2_reads: u64,
    pub pb_l2_writes: u64,
    pub l2: L2Stats,
    /// Tile-buffer blocks moved to and from main memory without the L2.
    pub tile_buffer_reads: u64,
    pub tile_buffer_writes: u64,
    /// The trace's own Parameter Buffer records (dropped).
    pub trace_pb_records: u64,
    pub engine: EngineCounts,
    pub fetcher: FetcherStats,
    /// The baseline's lists past their room of 1024 PMDs: the render passes,
    /// tiles and PMDs that used the overflow area, and the engine's L2
    /// blocks there.
    pub overflow: OverflowCounts,
}

impl FrameL2Stats {
    /// What happened since `earlier`, a snapshot of the same run taken
    /// before (at the end of a frame): every count is the difference.
    pub fn since(&self, earlier: &FrameL2Stats) -> FrameL2Stats {
        FrameL2Stats {
            render_passes: self.render_passes - earlier.render_passes,
            tiles: self.tiles - earlier.tiles,
            pb_l2_reads: self.pb_l2_reads - earlier.pb_l2_reads,
            pb_l2_writes: self.pb_l2_writes - earlier.pb_l2_writes,
            l2: self.l2.since(&earlier.l2),
            tile_buffer_reads: self.tile_buffer_reads - earlier.tile_buffer_reads,
            tile_buffer_writes: self.tile_buffer_writes - earlier.tile_buffer_writes,
            trace_pb_records: self.trace_pb_records - earlier.trace_pb_records,
            engine: self.engine.since(&earlier.engine),
            fetcher: self.fetcher.since(&earlier.fetcher),
            overflow: self.overflow.since(&earlier.overflow),
        }
    }

    pub fn pb_l2_accesses(&self) -> u64 {
        self.pb_l2_reads + self.pb_l2_writes
    }

    /// Parameter Buffer blocks read from or written to main memory
    /// (Figures 16-17).
    pub fn pb_memory_accesses(&self) -> u64 {
        self.l2.pb_memory_reads + self.l2.pb_memory_writes
    }

    pub fn memory_reads(&self) -> u64 {
        self.l2.memory_reads + self.tile_buffer_reads
    }

    pub fn memory_writes(&self) -> u64 {
        self.l2.memory_writes + self.tile_buffer_writes
    }

    /// Every main-memory access (Figures 18-19).
    pub fn memory_accesses(&self) -> u64 {
        self.memory_reads() + self.memory_writes()
    }
}

/// The frame's L2, fed the trace batch by batch.
pub struct FrameL2<'a> {
    passes: &'a [PassTraffic],
    l2: L2Cache,
    tile_buffers: TileBuffers,
    /// The Tile Fetcher's timing, then those of the sweep.
    timings: Vec<FetcherTiming>,
    /// The current render pass's fetched primitives and their L2 reads,
    /// timed when the pass is done.
    fetched: FetchTrace,
    /// The next primitive of the pass to begin in `fetched`.
    next_primitive: usize,
    /// The fetcher over the sweep's timings so far, and at each `FrameEnd`.
    sweep: Vec<FetcherStats>,
    sweep_ends: Vec<Vec<FetcherStats>>,
    pass: usize,
    /// Tiles begun in the current render pass.
    tile: u32,
    /// Tiles of the render passes before the current one.
    offset: u32,
    next_fetch: usize,
    in_tile: bool,
    record: u64,
    stats: FrameL2Stats,
    /// The statistics at each `FrameEnd` marker so far.
    frame_ends: Vec<FrameL2Stats>,
}

impl<'a> FrameL2<'a> {
    pub fn new(
        passes: &'a [PassTraffic],
        l2: L2Config,
        tile_buffers: TileBuffers,
        timing: FetcherTiming,
    ) -> Result<FrameL2<'a>, ConfigError> {
        Ok(FrameL2 {
            passes,
            l2: L2Cache::new(l2)?,
            tile_buffers,
            timings: vec![timing],
            fetched: FetchTrace::new(),
            next_primitive: 0,
            sweep: Vec::new(),
            sweep_ends: Vec::new(),
            pass: 0,
            tile: 0,
            offset: 0,
            next_fetch: 0,
            in_tile: false,
            record: 0,
            stats: FrameL2Stats::default(),
            frame_ends: Vec::new(),
        })
    }

    /// Also times the Tile Fetcher by each of `timings`, on the same L2
    /// reads ([`FrameL2::sweep_ends`], [`FrameL2::sweep_now`]).
    pub fn with_fetcher_sweep(mut self, timings: &[FetcherTiming]) -> FrameL2<'a> {
        self.timings.truncate(1);
        self.timings.extend_from_slice(timings);
        self.sweep = vec![FetcherStats::default(); timings.len()];
        self
    }

    /// The next records of the trace.
    pub fn batch(&mut self, batch: &Batch) -> Result<(), FrameMismatch> {
        let mut m = 0;
        for (i, a) in batch.accesses.iter().enumerate() {
            while let Some((at, marker)) = batch.markers.get(m) {
                if *at > i {
                    break;
                }
                self.marker(marker)?;
                m += 1;
            }
            self.access(a);
        }
        for (_, marker) in &batch.markers[m..] {
            self.marker(marker)?;
        }
        Ok(())
    }

    fn mismatch(&self, what: String) -> FrameMismatch {
        FrameMismatch {
            record: self.record,
            what,
        }
    }

    fn access(&mut self, a: &Access) {
        self.record += 1;
        let write = a.op.is_write();
        let (first, last) = block_range(a, BLOCK_BYTES.trailing_zeros());
        match a.stream {
            Stream::PbList | Stream::PbAttr => self.stats.trace_pb_records += 1,
            s if is_tile_buffer(s) && self.tile_buffers == TileBuffers::Memory => {
                let n = last - first + 1;
                if write {
                    self.stats.tile_buffer_writes += n;
                } else {
                    self.stats.tile_buffer_reads += n;
                }
            }
            _ => {
                for block in first..=last {
                    self.l2.access(block, write, LineKind::NonPb, 0);
                }
            }
        }
    }

    fn marker(&mut self, m: &Marker) -> Result<(), FrameMismatch> {
        match *m {
            Marker::TileBegin { tile } => self.tile_begin(tile)?,
            Marker::TileEnd { tile } => self.tile_end(tile)?,
            Marker::FrameEnd { .. } => {
                self.frame_ends.push(self.stats_now());
                self.sweep_ends.push(self.sweep.clone());
            }
            _ => {}
        }
        self.record += 1;
        Ok(())
    }

    fn tile_begin(&mut self, tile: TileId) -> Result<(), FrameMismatch> {
        if self.in_tile {
            return Err(self.mismatch(format!("TileBegin {tile} inside another tile")));
        }
        let passes = self.passes;
        let Some(p) = passes.get(self.pass) else {
            return Err(self.mismatch(format!(
                "a render pass beyond the {} binned frames",
                passes.len()
            )));
        };
        let pos = self.tile;
        if p.sequence[pos as usize] != tile {
            return Err(self.mismatch(format!(
                "render pass {}: tile {tile} where its traversal has tile {} at position {pos}",
                self.pass, p.sequence[pos as usize]
            )));
        }
        if pos == 0 {
            for b in &p.build {
                self.pb(b, false);
            }
            self.stats.render_passes += 1;
            self.stats.overflow.add(&p.overflow);
            self.stats.engine.add(&p.counts);
        }
        self.l2.set_tiles_done(self.offset + pos);
        while let Some((at, b)) = p.fetch.get(self.next_fetch) {
            if *at > pos {
                break;
            }
            self.begin_primitives(p, self.next_fetch);
            self.pb(b, true);
            self.next_fetch += 1;
        }
        self.in_tile = true;
        self.stats.tiles += 1;
        Ok(())
    }

    fn tile_end(&mut self, tile: TileId) -> Result<(), FrameMismatch> {
        if !self.in_tile {
            return Err(self.mismatch(format!("TileEnd {tile} outside a tile")));
        }
        self.in_tile = false;
        self.tile += 1;
        let tiles = self.passes[self.pass].tiles();
        if self.tile == tiles {
            self.time_fetcher();
            self.offset += tiles;
            self.l2.set_tiles_done(self.offset);
            self.pass += 1;
            self.tile = 0;
            self.next_fetch = 0;
        }
        Ok(())
    }

    fn pb(&mut self, b: &PbBlock, fetch: bool) {
        let hit = self.l2.access(
            b.block,
            b.write,
            b.section.into(),
            self.offset + b.last_tile,
        );
        if b.write {
            self.stats.pb_l2_writes += 1;
        } else {
            self.stats.pb_l2_reads += 1;
            if fetch {
                self.fetched.read(b.block, hit);
            }
        }
    }

    /// Begins in `fetched` the primitives of `p` whose blocks begin at or
    /// before its fetch block `upto` (those without L2 traffic included).
    fn begin_primitives(&mut self, p: &PassTraffic, upto: usize) {
        while let Some(&start) = p.fetch_primitives.get(self.next_primitive) {
            if start > upto {
                break;
            }
            self.fetched.begin_primitive();
            self.next_primitive += 1;
        }
    }

    /// The render pass is done: times its Tile Fetcher.
    fn time_fetcher(&mut self) {
        let p = &self.passes[self.pass];
        self.begin_primitives(p, usize::MAX);
        let main = fetcher::time(&self.fetched, &self.timings[0]);
        self.stats.fetcher.add(&main);
        for (s, t) in self.sweep.iter_mut().zip(&self.timings[1..]) {
            s.add(&fetcher::time(&self.fetched, t));
        }
        self.fetched.clear();
        self.next_primitive = 0;
    }

    /// The statistics (since the start) at the end of each frame so far,
    /// one per `FrameEnd` marker: [`FrameL2Stats::since`] of two gives a
    /// frame, or the frames after a warm-up.
    pub fn frame_ends(&self) -> &[FrameL2Stats] {
        &self.frame_ends
    }

    /// The Tile Fetcher by each timing of the sweep (in the order given to
    /// [`FrameL2::with_fetcher_sweep`]) at each `FrameEnd` marker so far,
    /// beside [`FrameL2::frame_ends`].
    pub fn sweep_ends(&self) -> &[Vec<FetcherStats>] {
        &self.sweep_ends
    }

    /// The Tile Fetcher by each timing of the sweep so far.
    pub fn sweep_now(&self) -> &[FetcherStats] {
        &self.sweep
    }

    /// The statistics so far.
    fn stats_now(&self) -> FrameL2Stats {
        let mut s = self.stats;
        s.l2 = *self.l2.stats();
        s
    }

    /// The statistics, once the whole trace went in.
    pub fn finish(self) -> Result<FrameL2Stats, FrameMismatch> {
        if self.in_tile || self.tile != 0 || self.pass != self.passes.len() {
            return Err(self.mismatch(format!(
                "the trace ends after {} of {} binned render passes{}",
                self.pass,
                self.passes.len(),
                if self.tile > 0 || self.in_tile {
                    format!(" and {} tiles of the next", self.tile)
                } else {
                    String::new()
                }
            )));
        }
        Ok(self.stats_now())
    }
}
