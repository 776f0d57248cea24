//! Tile-based rendering of one render pass (a run of draws into the same
//! targets), reusing the immediate-mode front end and back end.
//!
//! 1. **Geometry phase**, draw by draw in submission order: `DrawBegin`,
//!    index and vertex fetch (`vidx`, `vtx`), transform, clipping and
//!    rasterization into quads as in immediate mode; every triangle that
//!    covers a pixel centre is binned by the Polygon List Builder
//!    ([`super::binning`]), and its quads are kept in the bins of the
//!    tiles they fall in. Then the render pass's binned frame goes to the
//!    sink ([`gfxcache_trace::RecordSink::binned`]), where a Tiling Engine
//!    model (`gfxcache-tcor`'s) may put its Parameter Buffer writes.
//! 2. **Raster phase**, tile by tile in the configured order: `TileBegin`
//!    (after which such a model puts the Tile Fetcher's Parameter Buffer
//!    reads of the tile), the loads of the targets
//!    whose old contents matter (`rt`/`z`/`stc` reads of the tile's
//!    blocks), then the tile's quads in submission order through the same
//!    back end as immediate mode (HiZ, early/late Z, stencil, shading,
//!    texture sampling, blending), then the stores (`rt`/`display`, and
//!    `z`/`stc` for depth targets marked stored), then `TileEnd`. Colour,
//!    depth, stencil and HiZ live in on-chip tile buffers, so the back
//!    end's own `hiz`/`z`/`stc`/`rt`/`display` records are not memory
//!    traffic and are dropped; texture reads stay, tagged with their
//!    fragment processor.
//!
//! Because each pixel sees the same fragments in the same order (draw,
//! triangle, quad) as in immediate mode, the pixels are identical. Only
//! the HiZ kill counts may differ (HiZ is conservative and its bounds
//! evolve in another order).
//!
//! **Fragment processors.** The quads of a tile are dealt, one 4x4 stamp
//! (a triangle's quads in one 4x4-pixel square) at a time, to
//! [`super::TbrConfig::fps`] processors as [`super::FpAssignment`] says:
//! round-robin from processor 0 in every tile (the default), by
//! screen-space blocks, or a whole tile to one processor; a stamp's
//! texture reads carry its processor as `unit`.
//!
//! **Which blocks.** A tile transfers the blocks of a surface whose
//! top-left pixel lies in the tile. With a tile side that is a multiple of
//! the block shape (4x4 or 8x8 pixels; Table I's 32 is) these are exactly
//! the tile's blocks; otherwise a block straddling two tiles moves with
//! the tile holding its origin, so every block still moves once per pass.

use gfxcache_trace::texreq::TexReqRecord;
use gfxcache_trace::{Access, Marker, Op, Record, RecordSink, Stream};

use crate::raster::Quad;
use crate::surface::{Surface, HIZ_TILE};

use super::back_end::{stamp, Scratch, StampSetup};
use super::bands::{Rounds, TargetRows, PARALLEL_QUADS, ROUND_QUADS};
use super::binning::Binner;
use super::front_end::FrontBatch;
use super::hsr::{self, Hsr};
use super::tbr::{BinnedTri, FpAssignment, LoadOp, TileBins, TileGrid};

use super::{access, ColorId, DepthId, Draw, Pipeline, Stats, STAMP};

/// Each block of `surface` whose top-left pixel lies in `rect`.
fn tile_blocks(surface: &Surface, rect: [u32; 4], mut f: impl FnMut(u64)) {
    let (bw, bh) = surface.format.tile_shape();
    let [x0, y0, x1, y1] = rect;
    let (x1, y1) = (x1.min(surface.width), y1.min(surface.height));
    let mut y = y0.div_ceil(bh) * bh;
    while y < y1 {
        let mut x = x0.div_ceil(bw) * bw;
        while x < x1 {
            f(surface.block_of(x, y));
            x += bw;
        }
        y += bh;
    }
}

/// What the raster phase of a render pass works from.
struct RenderPass<'a, 'd> {
    draws: &'a [Draw<'d>],
    /// Per draw: what its stamps need besides the pixels.
    setups: &'a [StampSetup<'d>],
    bins: &'a TileBins,
    /// Per draw, whether HSR may hide its fragments.
    eligible: &'a [bool],
    /// Whether HSR runs (some draw is eligible).
    hsr: bool,
    tile_size: u32,
    fps: u16,
    assignment: FpAssignment,
    /// Blocks of [`FpAssignment::Blocks`] across the targets.
    blocks_per_row: u32,
    colors: &'a [Transfer],
    depth: Transfer,
}

/// What a render pass does with one target at each tile's start and end.
#[derive(Clone, Copy, Default)]
struct Transfer {
    load: bool,
    store: bool,
}

impl Pipeline {
    /// Render `draws` (one render pass: every draw has the same colour and
    /// depth targets) tile by tile; see the module documentation. Needs
    /// tile-based mode ([`Pipeline::set_tbr`]). Returns the draws'
    /// statistics (also added to [`Pipeline::stats`]).
    pub fn draw_tiled(&mut self, draws: &[Draw], sink: &mut impl RecordSink) -> Stats {
        let cfg = self
            .tbr
            .expect("draw_tiled needs tile-based mode (Pipeline::set_tbr)");
        let before = self.stats.clone();
        let Some(first) = draws.first() else {
            return Stats::default();
        };
        if self.stopping() {
            return Stats::default();
        }
        let (w, h) = self.target_size(first);
        for d in &draws[1..] {
            assert!(
                d.color == first.color && d.depth == first.depth,
                "the draws of a render pass share their targets"
            );
            assert_eq!(self.target_size(d), (w, h), "targets changed size");
        }
        let grid = TileGrid::new(cfg.tile_size, w, h);
        let (colors, depth) = self.transfers(draws);

        // Geometry phase.
        let mut bins = std::mem::take(&mut self.bins);
        bins.reset(grid.tiles());
        let mut binner = Binner::new(cfg.binning(), w, h);
        for (k, d) in draws.iter().enumerate() {
            sink.record(Record::Marker(Marker::DrawBegin { draw: self.draws }));
            self.draws += 1;
            self.stats.draws += 1;
            self.front_end_batches(d, w, h, |p, b| {
                p.bin_batch(k as u32, d, b, &grid, &mut bins, &mut binner, sink)
            });
        }
        self.hand_over_binned(binner.finish_frame(), sink);

        // Raster phase.
        let fps = cfg.fps.max(1);
        if self.tbr_stats.quads_per_fp.len() < fps as usize {
            self.tbr_stats.quads_per_fp.resize(fps as usize, 0);
        }
        self.tbr_stats.render_passes += 1;
        let eligible: Vec<bool> = draws.iter().map(hsr::eligible).collect();
        let record = self.requests.is_some();
        let setups: Vec<StampSetup> = draws
            .iter()
            .map(|d| StampSetup::new(d, &self.colors, &self.depths, true, record))
            .collect();
        let pass = RenderPass {
            draws,
            setups: &setups,
            bins: &bins,
            eligible: &eligible,
            hsr: cfg.hsr && eligible.iter().any(|&e| e),
            tile_size: cfg.tile_size,
            fps,
            assignment: cfg.fp_assignment,
            blocks_per_row: match cfg.fp_assignment {
                FpAssignment::Blocks { side } => w.div_ceil(side),
                _ => 0,
            },
            colors: &colors,
            depth,
        };
        let order = cfg.order.sequence(grid.tiles_x, grid.tiles_y);
        let mut t0 = 0;
        while t0 < order.len() && !self.stopping() {
            let (mut t1, mut quads) = (t0, 0);
            while t1 < order.len() && quads < ROUND_QUADS {
                quads += bins.quads[order[t1] as usize].len();
                t1 += 1;
            }
            self.raster_round(&pass, &grid, (t0, &order[t0..t1]), quads, sink);
            t0 = t1;
        }
        for g in &mut self.rounds.groups {
            let scr = &mut g.scratch;
            self.stats.add(&std::mem::take(&mut scr.stats));
            self.tbr_stats.hsr_hidden += std::mem::take(&mut scr.hsr_hidden);
            for (total, n) in self
                .tbr_stats
                .quads_per_fp
                .iter_mut()
                .zip(&mut scr.quads_per_fp)
            {
                *total += std::mem::take(n);
            }
        }
        self.bins = bins;
        self.stats.since(&before)
    }

    /// The raster phase for a run of `tiles` (in traversal order, the first
    /// being the pass's `first`-th) holding `quads` quads: shared out by
    /// bands of tile rows when the pipeline has threads and the run is
    /// large, else tile after tile here; the records go out tile after
    /// tile either way.
    fn raster_round(
        &mut self,
        pass: &RenderPass,
        grid: &TileGrid,
        (first_tile, tiles): (usize, &[u32]),
        quads: usize,
        sink: &mut impl RecordSink,
    ) {
        let first = &pass.draws[0];
        let height = grid.height;
        match &self.workers {
            Some(pool) if quads >= PARALLEL_QUADS => {
                self.shared_rounds += 1;
                // A band holds whole tiles and whole HiZ tiles.
                let band_rows = lcm(grid.tile, HIZ_TILE);
                let rounds = &mut self.rounds;
                rounds.plan(
                    tiles.len(),
                    (height, band_rows),
                    pool.current_num_threads(),
                    |j| grid.rect(tiles[j])[1] / band_rows,
                    |j| pass.bins.quads[tiles[j] as usize].len() as u64,
                );
                let groups = rounds.cuts.len() - 1;
                let rows = TargetRows::split(
                    &mut self.colors,
                    &mut self.depths,
                    first.color,
                    first.depth,
                    &rounds.cuts,
                );
                Rounds::run(
                    &mut rounds.groups[..groups],
                    rows,
                    pool,
                    |j, px, out, scr| {
                        let tile = (first_tile + j, tiles[j]);
                        raster_tile(pass, tile, grid.rect(tiles[j]), px, scr, out)
                    },
                );
                for (j, &tile) in tiles.iter().enumerate() {
                    let rect = grid.rect(tile);
                    self.open_tile(pass, tile, rect, sink);
                    sink.accesses(self.rounds.accesses(j));
                    if let Some(q) = &mut self.requests {
                        q.records(self.rounds.requests(j));
                    }
                    self.close_tile(pass, tile, rect, sink);
                }
            }
            _ => {
                if self.rounds.groups.is_empty() {
                    self.rounds.groups.push(Default::default());
                }
                let mut out = std::mem::take(&mut self.direct);
                let mut scr = std::mem::take(&mut self.rounds.groups[0].scratch);
                for (j, &tile) in tiles.iter().enumerate() {
                    let rect = grid.rect(tile);
                    self.open_tile(pass, tile, rect, sink);
                    out.clear();
                    let cuts = [0, height];
                    let mut px = TargetRows::split(
                        &mut self.colors,
                        &mut self.depths,
                        first.color,
                        first.depth,
                        &cuts,
                    );
                    let t = (first_tile + j, tile);
                    scr.requests.clear();
                    raster_tile(pass, t, rect, &mut px[0], &mut scr, &mut out);
                    sink.accesses(&out);
                    if let Some(q) = &mut self.requests {
                        q.records(&scr.requests);
                    }
                    self.close_tile(pass, tile, rect, sink);
                }
                self.rounds.groups[0].scratch = scr;
                self.direct = out;
            }
        }
    }

    /// `TileBegin`, then the loads of the tile's targets.
    fn open_tile(
        &mut self,
        pass: &RenderPass,
        tile: u32,
        rect: [u32; 4],
        sink: &mut impl RecordSink,
    ) {
        self.tbr_stats.tiles += 1;
        self.request_marker(TexReqRecord::TileBegin { tile });
        sink.record(Record::Marker(Marker::TileBegin { tile }));
        self.transfer_tile(
            &pass.draws[0],
            pass.colors,
            pass.depth,
            rect,
            Op::Read,
            sink,
        );
    }

    /// The stores of the tile's targets, then `TileEnd`.
    fn close_tile(
        &mut self,
        pass: &RenderPass,
        tile: u32,
        rect: [u32; 4],
        sink: &mut impl RecordSink,
    ) {
        self.transfer_tile(
            &pass.draws[0],
            pass.colors,
            pass.depth,
            rect,
            Op::Write,
            sink,
        );
        self.request_marker(TexReqRecord::TileEnd { tile });
        sink.record(Record::Marker(Marker::TileEnd { tile }));
    }

    /// The geometry phase for one front-end batch: its reads, then each
    /// triangle binned and its quads kept per tile.
    #[allow(clippy::too_many_arguments)]
    fn bin_batch(
        &mut self,
        draw_index: u32,
        draw: &Draw,
        batch: &FrontBatch,
        grid: &TileGrid,
        bins: &mut TileBins,
        binner: &mut Binner,
        sink: &mut impl RecordSink,
    ) {
        // Binning sends nothing, so the batch's reads may all go first.
        sink.accesses(&batch.accesses);
        self.each_triangle(batch, |_, t, quads| {
            let Some(quads) = quads else {
                return;
            };
            let quads = &batch.quads[quads];
            binner.add(quads, batch.tris[t].bounds, draw.attributes);
            let tri = bins.attrs.len() as u32;
            bins.attrs.push(BinnedTri {
                attrs: batch.tris[t].attrs,
                draw: draw_index,
            });
            for q in quads {
                let k = grid.tile_of(q.x, q.y);
                bins.quads[k].push(*q);
                bins.tris[k].push(tri);
            }
        });
    }

    /// Per colour slot and for depth: whether tiles load and store the
    /// target. The load ops of the targets are consumed (back to `Load`).
    fn transfers(&mut self, draws: &[Draw]) -> (Vec<Transfer>, Transfer) {
        let first = &draws[0];
        let colors = first
            .color
            .iter()
            .enumerate()
            .map(|(slot, id)| {
                let written = draws.iter().any(|d| d.state.targets[slot].write_mask != 0);
                let op = std::mem::replace(&mut self.color_load[id.0], LoadOp::Load);
                Transfer {
                    load: written && op == LoadOp::Load,
                    store: written || op == LoadOp::Clear,
                }
            })
            .collect();
        let depth = match first.depth {
            Some(id) => {
                let uses = draws
                    .iter()
                    .any(|d| d.state.depth.enabled() || d.state.stencil.enabled);
                let writes = draws.iter().any(|d| {
                    (d.state.depth.enabled() && d.state.depth.write)
                        || (d.state.stencil.enabled && d.state.stencil.write_mask != 0)
                });
                let op = std::mem::replace(&mut self.depth_load[id.0], LoadOp::Load);
                Transfer {
                    load: uses && op == LoadOp::Load,
                    store: self.depth_store[id.0] && (writes || op == LoadOp::Clear),
                }
            }
            None => Transfer::default(),
        };
        (colors, depth)
    }

    /// The loads (`Op::Read`) or stores (`Op::Write`) of one tile: colour
    /// targets in slot order, then depth, then stencil.
    fn transfer_tile(
        &mut self,
        draw: &Draw,
        colors: &[Transfer],
        depth: Transfer,
        rect: [u32; 4],
        op: Op,
        sink: &mut impl RecordSink,
    ) {
        let wanted = |t: &Transfer| if op == Op::Read { t.load } else { t.store };
        let mut n = 0u64;
        for (id, t) in draw.color.iter().zip(colors) {
            if wanted(t) {
                let target = &self.colors[id.0];
                let stream = target.stream();
                tile_blocks(&target.surface, rect, |b| {
                    n += 1;
                    sink.record(access(b, stream, op, 0));
                });
            }
        }
        if let (Some(id), true) = (draw.depth, wanted(&depth)) {
            let target = &self.depths[id.0];
            tile_blocks(&target.surface, rect, |b| {
                n += 1;
                sink.record(access(b, Stream::Z, op, 0));
            });
            if let Some(s) = &target.stencil_surface {
                tile_blocks(s, rect, |b| {
                    n += 1;
                    sink.record(access(b, Stream::Stc, op, 0));
                });
            }
        }
        if op == Op::Read {
            self.tbr_stats.loaded_blocks += n;
        } else {
            self.tbr_stats.flushed_blocks += n;
        }
    }

    /// Switch tile-based rendering on (`Some`) or off. In tile-based mode
    /// every [`Pipeline::draw`] is a render pass of its own and
    /// [`Pipeline::draw_tiled`] renders several; clears only set the tile
    /// buffers' starting value; each render pass is binned (one
    /// [`super::BinnedPass`] per render pass, handed to the sink and kept
    /// for [`Pipeline::take_binned`]).
    pub fn set_tbr(&mut self, tbr: Option<super::TbrConfig>) {
        self.tbr = tbr;
    }

    pub fn tbr(&self) -> Option<super::TbrConfig> {
        self.tbr
    }

    /// Counters of the tile-based mode so far.
    pub fn tbr_stats(&self) -> &super::TbrStats {
        &self.tbr_stats
    }

    /// Tile-based mode: store depth target `id` at every tile end of the
    /// render passes that write it (a later pass tests against it or
    /// samples it). Unmarked depth targets never leave the chip.
    pub fn set_depth_stored(&mut self, id: DepthId, stored: bool) {
        self.depth_store[id.0] = stored;
    }

    /// Tile-based mode: the next render pass into colour target `id` does
    /// not need its old contents (a full-screen overwrite, or contents
    /// nothing reads), so its tiles are not loaded. No effect in immediate
    /// mode, and none on the pixels.
    pub fn discard_color(&mut self, id: ColorId) {
        if self.tbr.is_some() && self.color_load[id.0] == LoadOp::Load {
            self.color_load[id.0] = LoadOp::DontCare;
        }
    }

    /// Tile-based mode at a pass end: a target cleared but drawn by no
    /// render pass still holds the clear value in memory, written as an
    /// immediate-mode clear would; discards expire.
    pub(super) fn settle_load_ops(&mut self, sink: &mut impl RecordSink) {
        for i in 0..self.colors.len() {
            match self.color_load[i] {
                LoadOp::Clear => {
                    let t = &self.colors[i];
                    let stream = t.stream();
                    for b in super::surface_blocks(&t.surface) {
                        sink.record(access(b, stream, Op::Write, 0));
                    }
                }
                LoadOp::DontCare | LoadOp::Load => {}
            }
            self.color_load[i] = LoadOp::Load;
        }
        for i in 0..self.depths.len() {
            if self.depth_load[i] == LoadOp::Clear && self.depth_store[i] {
                let t = &self.depths[i];
                for b in super::surface_blocks(&t.surface) {
                    sink.record(access(b, Stream::Z, Op::Write, 0));
                }
                if let Some(s) = &t.stencil_surface {
                    for b in super::surface_blocks(s) {
                        sink.record(access(b, Stream::Stc, Op::Write, 0));
                    }
                }
            }
            self.depth_load[i] = LoadOp::Load;
        }
    }
}

/// The stamps of one tile of the raster phase (the pass's `traversal`-th),
/// dealt to the fragment processors (only the visible fragments with HSR),
/// on the rows `px` of the render pass's targets (which hold the tile).
fn raster_tile(
    pass: &RenderPass,
    (traversal, tile): (usize, u32),
    rect: [u32; 4],
    px: &mut TargetRows,
    scr: &mut Scratch,
    out: &mut Vec<Access>,
) {
    let bins = pass.bins;
    let (quads, tris) = (&bins.quads[tile as usize], &bins.tris[tile as usize]);
    if scr.quads_per_fp.len() < pass.fps as usize {
        scr.quads_per_fp.resize(pass.fps as usize, 0);
    }
    let mut kept = scr.hsr.take().filter(|h| h.tile() == pass.tile_size);
    let mut hsr: Option<&mut Hsr> = match (pass.hsr, &px.depth) {
        (true, Some(dt)) => {
            let h = kept.get_or_insert_with(|| Hsr::new(pass.tile_size));
            h.resolve(
                dt,
                rect,
                quads,
                tris,
                &bins.attrs,
                pass.draws,
                pass.eligible,
            );
            Some(h)
        }
        _ => None,
    };
    let mut next_fp = 0u16;
    let mut i = 0;
    while i < quads.len() {
        let key = (quads[i].y / STAMP, quads[i].x / STAMP);
        let mut j = i + 1;
        while j < quads.len()
            && tris[j] == tris[i]
            && (quads[j].y / STAMP, quads[j].x / STAMP) == key
        {
            j += 1;
        }
        let t = &bins.attrs[tris[i] as usize];
        let stamp_quads = match &mut hsr {
            Some(h) if pass.eligible[t.draw as usize] => {
                h.quads.clear();
                for (k, q) in quads.iter().enumerate().take(j).skip(i) {
                    let mask = h.visible(k, q);
                    scr.hsr_hidden += u64::from((q.mask & !mask).count_ones());
                    if mask != 0 {
                        h.quads.push(Quad { mask, ..*q });
                    }
                }
                &h.quads[..]
            }
            _ => &quads[i..j],
        };
        i = j;
        if stamp_quads.is_empty() {
            continue;
        }
        let fp = match pass.assignment {
            FpAssignment::RoundRobin => {
                let fp = next_fp;
                next_fp = (next_fp + 1) % pass.fps;
                fp
            }
            FpAssignment::Blocks { side } => {
                let (bx, by) = (
                    u64::from(key.1 * STAMP / side),
                    u64::from(key.0 * STAMP / side),
                );
                ((bx + by * u64::from(pass.blocks_per_row)) % u64::from(pass.fps)) as u16
            }
            FpAssignment::Tiles => (traversal % pass.fps as usize) as u16,
        };
        scr.quads_per_fp[fp as usize] += stamp_quads.len() as u64;
        stamp(
            &pass.setups[t.draw as usize],
            px,
            scr,
            stamp_quads,
            &t.attrs,
            fp,
            out,
        );
    }
    scr.hsr = kept;
}

/// The least common multiple of `a` and `b` (both positive).
fn lcm(a: u32, b: u32) -> u32 {
    let (mut x, mut y) = (a, b);
    while y != 0 {
        (x, y) = (y, x % y);
    }
    a / x * b
}
