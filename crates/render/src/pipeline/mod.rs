//! The immediate-mode pipeline: a draw goes from index fetch to the pixels
//! of its render targets, and reports every memory access in the order a
//! GPU would issue it.
//!
//! Order of records for one [`Pipeline::draw`]:
//!
//! 1. `DrawBegin`.
//! 2. Per triangle, in index order: the `vidx` block its indices enter (if
//!    new), a `vtx` read per vertex missing from the post-transform cache
//!    ([`crate::buffers`]), then its fragments.
//! 3. The fragments of a triangle are processed per **4x4-pixel stamp**
//!    (the unit GPU depth and colour back ends work on): its quads are
//!    grouped by stamp (stamps row by row, quads in rasterizer order inside
//!    one). A stamp lies inside one 8x8 HiZ tile and, for 32-bit depth and
//!    colour, inside one 64 B block, so per stamp and surface each 64 B block
//!    the live pixels touch is accessed once (never once per pixel or per
//!    quad). Per stamp:
//!    - early Z (the default): `hiz` read (when HiZ applies, see
//!      [`crate::hiz`]); quads whose nearest depth is behind the bound are
//!      dropped without touching Z; then `z` read, `stc` read, `z` write
//!      (if a pixel passed and writes are on), `stc` write (if a stencil op
//!      other than keep ran), `hiz` write (if the bound changed); then the
//!      shader once per quad with live pixels (its `tex` reads); then per
//!      render target `rt` read (blending or a partial write mask) and `rt`
//!      write.
//!    - late Z (the shader writes depth): shader first, then the `z`/`stc`
//!      sequence with the shader's depth (no HiZ), then `rt`.
//! 4. Accesses are 64 B and block-aligned, except `vtx` (one read of
//!    `stride` bytes per vertex).
//!
//! **Units.** Fragment work is spread over [`FRAGMENT_UNITS`] = 12 shader
//! clusters, each with its texture sampler, by screen position:
//! `unit = (x / 16 + y / 16) % 12` for the stamp at `(x, y)` (16x16-pixel
//! squares, diagonals rotating through the units so neighbouring squares
//! differ). Every access of a stamp (`hiz`, `z`, `stc`, `tex`, `rt`) carries
//! its unit; vertex fetch carries unit 0.
//!
//! **Discard.** A shader that may kill pixels ([`FragmentShader::discards`],
//! e.g. alpha-masked foliage) sets [`FragmentOutput::kill`]; like a shader
//! that writes depth it forces late Z, because depth and stencil must not be
//! written for pixels the shader has yet to decide on.
//!
//! **Render-to-texture.** [`Fragments::sample_view`] samples any
//! [`TexView`](crate::sampler::TexView) (a texture or a render target at its surface addresses) and
//! [`Fragments::load`] fetches single texels of a view (a full-screen
//! pass reading a same-size target), reporting each distinct block once per
//! quad. A colour target's writes use its [`ColorTarget::stream`] (`rt`,
//! or `display` for the displayable surface).
//!
//! The fragment shader (`shader.rs`) is a [`FragmentShader`] (any
//! `Fn(&mut Fragments, &mut FragmentOutput)` is one), called once per quad
//! through dynamic dispatch; its texture reads are buffered and handed to
//! the sink afterwards, so no access goes through dynamic dispatch.
//! Helper pixels (uncovered or killed pixels of a quad) give derivatives
//! but do not sample.

mod binning;
mod front_end;
mod hsr;
mod shader;
mod tbr;
mod tile_pass;

pub use shader::{FragmentOutput, FragmentShader, Fragments, WritesDepth};
use tbr::{LoadOp, TileBins};
pub use tbr::{TbrConfig, TbrStats};

use binning::Binner;
pub use binning::{tcor_attributes, BinnedPass, BinningConfig};

use front_end::{FrontBatch, FrontEnd, FRONT_BATCHES, FRONT_BATCH_TRIS};

use gfxcache_trace::binned::BinnedFrame;
use gfxcache_trace::{Access, Marker, Op, PassKind, Record, RecordSink, Stream};

use crate::buffers::{IndexBuffer, IndexFetch, VertexBuffer, VertexCache, MAX_ATTRS};
use crate::math::Mat4;
use crate::raster::{Quad, Rasterizer, Viewport};
use crate::state::{CompareFunc, State, StencilOp, MAX_TARGETS};
use crate::surface::{Surface, BLOCK_BYTES, HIZ_BLOCK_SHAPE, HIZ_TILE};
use crate::target::{ColorTarget, DepthTarget};

/// Shader clusters (and texture samplers) fragments are spread over.
pub const FRAGMENT_UNITS: u16 = 12;
/// Most quads of one triangle in one stamp (a clipped triangle's fan can
/// put more than four there).
const MAX_STAMP_QUADS: usize = 64;
/// Side of the stamp the depth and colour back end works on.
pub const STAMP: u32 = 4;

/// The unit that shades the stamp holding pixel `(x, y)`.
pub fn unit_of(x: u32, y: u32) -> u16 {
    ((x / 16 + y / 16) % FRAGMENT_UNITS as u32) as u16
}

/// A colour target owned by a [`Pipeline`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ColorId(pub usize);
/// A depth/stencil target owned by a [`Pipeline`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DepthId(pub usize);

/// One draw call: indexed triangles, a transform, state, targets, shader.
pub struct Draw<'a> {
    pub indices: &'a IndexBuffer,
    pub vertices: &'a VertexBuffer,
    /// Model-view-projection: object positions to clip space.
    pub mvp: Mat4,
    pub state: State,
    /// Render target slot `i` is `color[i]` (at most [`MAX_TARGETS`]).
    pub color: &'a [ColorId],
    pub depth: Option<DepthId>,
    pub shader: &'a dyn FragmentShader,
}

/// Counters of what the pipeline did (summed over draws).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub draws: u64,
    pub triangles_in: u64,
    /// Triangles not culled by facing or zero area (they may still be
    /// clipped away or cover no pixel centre).
    pub triangles_after_cull: u64,
    pub vertex_fetches: u64,
    pub vertex_cache_hits: u64,
    pub quads: u64,
    /// Covered pixels the rasterizer produced.
    pub fragments: u64,
    /// Pixels shaded (live pixels of quads given to the shader).
    pub fragments_shaded: u64,
    pub killed_hiz: u64,
    pub killed_early_z: u64,
    pub killed_late_z: u64,
    pub killed_stencil: u64,
    /// Pixels that passed every test and reached the colour stage.
    pub fragments_written: u64,
    /// Texels the shaders read (filter taps, repeats included, and loads).
    pub texels: u64,
}

impl Stats {
    /// What happened since `before` (an earlier copy of these counters).
    pub fn since(&self, before: &Stats) -> Stats {
        let (s, b) = (self, before);
        Stats {
            draws: s.draws - b.draws,
            triangles_in: s.triangles_in - b.triangles_in,
            triangles_after_cull: s.triangles_after_cull - b.triangles_after_cull,
            vertex_fetches: s.vertex_fetches - b.vertex_fetches,
            vertex_cache_hits: s.vertex_cache_hits - b.vertex_cache_hits,
            quads: s.quads - b.quads,
            fragments: s.fragments - b.fragments,
            fragments_shaded: s.fragments_shaded - b.fragments_shaded,
            killed_hiz: s.killed_hiz - b.killed_hiz,
            killed_early_z: s.killed_early_z - b.killed_early_z,
            killed_late_z: s.killed_late_z - b.killed_late_z,
            killed_stencil: s.killed_stencil - b.killed_stencil,
            fragments_written: s.fragments_written - b.fragments_written,
            texels: s.texels - b.texels,
        }
    }

    /// Shaded fragments per screen pixel for a `pixels`-pixel screen.
    pub fn overdraw(&self, pixels: u64) -> f64 {
        self.fragments_shaded as f64 / pixels.max(1) as f64
    }
}

fn access(addr: u64, stream: Stream, op: Op, unit: u16) -> Record {
    Record::Access(Access {
        addr,
        size: BLOCK_BYTES as u32,
        unit,
        stream,
        op,
    })
}

/// Distinct blocks of `surface` the live pixels of `quads` touch, in order
/// of first touch (a 4x4 stamp touches at most 4).
fn stamp_blocks(surface: &Surface, quads: &[Quad], masks: &[u8], out: &mut [u64; 16]) -> usize {
    // Every tile shape has even sides and quads sit at even pixels, so a
    // quad's four pixels share one block: one address computation per quad
    // (any live pixel gives it).
    let (tw, th) = surface.format.tile_shape();
    debug_assert!(tw % 2 == 0 && th % 2 == 0, "odd tile shape {tw}x{th}");
    let mut n = 0;
    for (q, &m) in quads.iter().zip(masks) {
        if m != 0 {
            let (x, y) = q.pixel(m.trailing_zeros() as usize);
            let b = surface.block_of(x, y);
            if !out[..n].contains(&b) {
                out[n] = b;
                n += 1;
            }
        }
    }
    n
}

fn emit_blocks(
    surface: &Surface,
    quads: &[Quad],
    masks: &[u8],
    stream: Stream,
    op: Op,
    unit: u16,
    sink: &mut impl RecordSink,
) {
    let mut blocks = [0u64; 16];
    let n = stamp_blocks(surface, quads, masks, &mut blocks);
    for &b in &blocks[..n] {
        sink.record(access(b, stream, op, unit));
    }
}

/// Every block of the visible part of `surface`, in address order.
fn surface_blocks(surface: &Surface) -> Vec<u64> {
    let (tw, th) = surface.format.tile_shape();
    let mut v: Vec<u64> = (0..surface.height.div_ceil(th))
        .flat_map(|ty| (0..surface.width.div_ceil(tw)).map(move |tx| (tx * tw, ty * th)))
        .map(|(x, y)| surface.block_of(x, y))
        .collect();
    v.sort_unstable();
    v
}

/// The software GPU's immediate-mode pipeline and the targets it owns.
#[derive(Default)]
pub struct Pipeline {
    colors: Vec<ColorTarget>,
    depths: Vec<DepthTarget>,
    draws: u32,
    pass_open: bool,
    stats: Stats,
    vcache: VertexCache,
    masks: Vec<u8>,
    outputs: Vec<FragmentOutput>,
    tex: Vec<Access>,
    texels: u64,
    /// Threads a draw may use (see [`Pipeline::set_threads`]).
    threads: usize,
    /// Front-end batches kept between draws (no allocation per batch).
    pool: Vec<FrontBatch>,
    /// Polygon List Builder (see [`Pipeline::set_binning`]): the pass being
    /// binned, its name, and the passes binned so far.
    binning: Option<BinningConfig>,
    binner: Option<Binner>,
    frame_number: u32,
    pass_name: String,
    binned: Vec<BinnedPass>,
    /// Tile-based rendering (see [`Pipeline::set_tbr`] and `tile_pass.rs`):
    /// the configuration, counters, per-render-pass tile bins, and per
    /// target what the next render pass does with its old contents and
    /// (depth) whether tiles store it.
    tbr: Option<TbrConfig>,
    tbr_stats: TbrStats,
    bins: TileBins,
    color_load: Vec<LoadOp>,
    depth_load: Vec<LoadOp>,
    depth_store: Vec<bool>,
}

impl Pipeline {
    /// Let a draw run its front end (index fetch, vertex transform,
    /// rasterization) on a second thread when `threads >= 2`. The back end
    /// consumes the front end's batches in triangle order, so records and
    /// pixels are the same for any thread count.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads;
    }

    /// Bin every triangle that covers a pixel to the screen tiles it
    /// covers, per pass, as a tile-based GPU's Polygon List Builder does
    /// ([`BinnedPass`], handed to the sink at the end of the pass, before
    /// its `PassEnd`, and kept for [`Pipeline::take_binned`]); `None` (the
    /// default) bins nothing. Records and pixels do not change.
    pub fn set_binning(&mut self, binning: Option<BinningConfig>) {
        self.binning = binning;
    }

    /// The passes binned since the last call, in pass order.
    pub fn take_binned(&mut self) -> Vec<BinnedPass> {
        std::mem::take(&mut self.binned)
    }

    /// Keeps the current pass's binned frame for [`Pipeline::take_binned`]
    /// and hands it to `sink` at this place in the stream.
    fn hand_over_binned(&mut self, frame: BinnedFrame, sink: &mut impl RecordSink) {
        self.binned.push(BinnedPass {
            frame_number: self.frame_number,
            pass: self.pass_name.clone(),
            frame,
        });
        sink.binned(self.binned.last().expect("just pushed"));
    }

    /// The back end for one front-end batch: each triangle's reads, then
    /// its stamps.
    fn back_end(&mut self, draw: &Draw, batch: &FrontBatch, sink: &mut impl RecordSink) {
        let (mut a0, mut q0) = (0, 0);
        for t in &batch.tris {
            self.stats.triangles_in += 1;
            for a in &batch.accesses[a0..t.accesses_end] {
                sink.record(Record::Access(*a));
            }
            let quads = &batch.quads[q0..t.quads_end];
            (a0, q0) = (t.accesses_end, t.quads_end);
            if t.culled {
                continue;
            }
            if let Some(b) = &mut self.binner {
                b.add(quads, tcor_attributes(draw.vertices.attr_count));
            }
            self.stats.triangles_after_cull += 1;
            self.stats.quads += t.quads as u64;
            self.stats.fragments += t.pixels as u64;
            let mut start = 0;
            while start < quads.len() {
                let key = (quads[start].y / STAMP, quads[start].x / STAMP);
                let mut end = start + 1;
                while end < quads.len() && (quads[end].y / STAMP, quads[end].x / STAMP) == key {
                    end += 1;
                }
                let unit = unit_of(quads[start].x, quads[start].y);
                self.stamp(draw, &quads[start..end], &t.attrs, unit, sink);
                start = end;
            }
        }
    }

    pub fn new() -> Pipeline {
        Pipeline::default()
    }

    pub fn add_color(&mut self, t: ColorTarget) -> ColorId {
        self.colors.push(t);
        self.color_load.push(LoadOp::Load);
        ColorId(self.colors.len() - 1)
    }

    pub fn add_depth(&mut self, t: DepthTarget) -> DepthId {
        self.depths.push(t);
        self.depth_load.push(LoadOp::Load);
        self.depth_store.push(false);
        DepthId(self.depths.len() - 1)
    }

    pub fn color(&self, id: ColorId) -> &ColorTarget {
        &self.colors[id.0]
    }

    pub fn color_mut(&mut self, id: ColorId) -> &mut ColorTarget {
        &mut self.colors[id.0]
    }

    pub fn depth(&self, id: DepthId) -> &DepthTarget {
        &self.depths[id.0]
    }

    pub fn depth_mut(&mut self, id: DepthId) -> &mut DepthTarget {
        &mut self.depths[id.0]
    }

    /// Put `t` in slot `id` and return what was there: how a frame lends a
    /// target it is about to sample to a shader while the pipeline draws
    /// into others.
    pub fn replace_color(&mut self, id: ColorId, t: ColorTarget) -> ColorTarget {
        std::mem::replace(&mut self.colors[id.0], t)
    }

    /// [`Pipeline::replace_color`] for depth/stencil targets.
    pub fn replace_depth(&mut self, id: DepthId, t: DepthTarget) -> DepthTarget {
        std::mem::replace(&mut self.depths[id.0], t)
    }

    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    pub fn reset_stats(&mut self) {
        self.stats = Stats::default();
    }

    pub fn begin_frame(&mut self, frame: u32, sink: &mut impl RecordSink) {
        self.frame_number = frame;
        sink.record(Record::Marker(Marker::FrameBegin { frame }));
    }

    pub fn end_frame(&mut self, frame: u32, sink: &mut impl RecordSink) {
        assert!(!self.pass_open, "frame ended inside a pass");
        sink.record(Record::Marker(Marker::FrameEnd { frame }));
    }

    /// Open a pass (passes do not nest).
    pub fn begin_pass(&mut self, name: &str, kind: PassKind, sink: &mut impl RecordSink) {
        assert!(!self.pass_open, "pass '{name}' begun inside another pass");
        self.pass_open = true;
        self.pass_name.clear();
        self.pass_name.push_str(name);
        sink.record(Record::Marker(Marker::PassBegin {
            name: name.to_string(),
            kind,
        }));
    }

    pub fn end_pass(&mut self, sink: &mut impl RecordSink) {
        assert!(self.pass_open, "end_pass without begin_pass");
        self.pass_open = false;
        if self.tbr.is_some() {
            self.settle_load_ops(sink);
        }
        if let Some(frame) = self.binner.take().and_then(Binner::finish) {
            self.hand_over_binned(frame, sink);
        }
        sink.record(Record::Marker(Marker::PassEnd));
    }

    /// Clear a colour target: every visible block written, in address order.
    /// In tile-based mode nothing is written: the next render pass's tile
    /// buffers start at the clear value instead of loading.
    pub fn clear_color(&mut self, id: ColorId, c: [f32; 4], sink: &mut impl RecordSink) {
        let t = &mut self.colors[id.0];
        t.clear(c);
        if self.tbr.is_some() {
            self.color_load[id.0] = LoadOp::Clear;
            return;
        }
        for b in surface_blocks(&t.surface) {
            sink.record(access(b, t.stream(), Op::Write, 0));
        }
    }

    /// Clear depth, stencil and HiZ: every visible block of each written
    /// (`z`, then `stc`, then `hiz`), in address order; in tile-based mode
    /// nothing (see [`Pipeline::clear_color`]).
    pub fn clear_depth(
        &mut self,
        id: DepthId,
        depth: f32,
        stencil: u8,
        sink: &mut impl RecordSink,
    ) {
        let t = &mut self.depths[id.0];
        t.clear(depth, stencil);
        if self.tbr.is_some() {
            self.depth_load[id.0] = LoadOp::Clear;
            return;
        }
        for b in surface_blocks(&t.surface) {
            sink.record(access(b, Stream::Z, Op::Write, 0));
        }
        if let Some(s) = &t.stencil_surface {
            for b in surface_blocks(s) {
                sink.record(access(b, Stream::Stc, Op::Write, 0));
            }
        }
        let h = &t.hiz.surface;
        let (bw, bh) = HIZ_BLOCK_SHAPE;
        for by in 0..h.tiles_y.div_ceil(bh) {
            for bx in 0..h.tiles_x.div_ceil(bw) {
                let a = h.addr_of_tile(bx * bw, by * bh);
                sink.record(access(a, Stream::Hiz, Op::Write, 0));
            }
        }
    }

    /// Run one draw, reporting its records to `sink`; returns the draw's
    /// own statistics (also added to [`Pipeline::stats`]). In tile-based
    /// mode ([`Pipeline::set_tbr`]) the draw is a render pass of its own
    /// ([`Pipeline::draw_tiled`]).
    pub fn draw(&mut self, draw: &Draw, sink: &mut impl RecordSink) -> Stats {
        if self.tbr.is_some() {
            return self.draw_tiled(std::slice::from_ref(draw), sink);
        }
        let before = self.stats;
        let (w, h) = self.target_size(draw);
        if let Some(cfg) = self.binning {
            match &mut self.binner {
                Some(b) => b.grow(w, h),
                None => self.binner = Some(Binner::new(cfg, w, h)),
            }
        }
        sink.record(Record::Marker(Marker::DrawBegin { draw: self.draws }));
        self.draws += 1;
        self.stats.draws += 1;
        self.front_end_batches(draw, w, h, |p, b| p.back_end(draw, b, sink));
        self.stats.since(&before)
    }

    /// Runs the front end of `draw` on a `w` x `h` viewport and hands each
    /// batch, in triangle order, to `consume`.
    fn front_end_batches(
        &mut self,
        draw: &Draw,
        w: u32,
        h: u32,
        mut consume: impl FnMut(&mut Pipeline, &FrontBatch),
    ) {
        let ib = draw.indices;
        let vb = draw.vertices;
        assert_eq!(ib.len() % 3, 0, "index count is not a multiple of 3");
        let raster =
            Rasterizer::new(Viewport::new(w, h)).with_cull(draw.state.cull, draw.state.front_face);
        self.vcache.invalidate();
        let (hits0, misses0) = (self.vcache.hits, self.vcache.misses);
        let mut front = FrontEnd {
            indices: ib,
            vertices: vb,
            mvp: draw.mvp,
            raster,
            ifetch: IndexFetch::default(),
            vcache: std::mem::take(&mut self.vcache),
            next: 0,
        };
        let triangles = ib.len() / 3;
        if self.threads >= 2 && triangles > FRONT_BATCH_TRIS {
            // The front end runs ahead on a scoped thread, filling batches
            // from a fixed set that the back end hands back once consumed;
            // batches arrive in triangle order.
            let vcache = std::thread::scope(|sc| {
                // Both channels live inside the scope, so a panic on this
                // side drops them and the worker stops instead of waiting.
                let (full_tx, full_rx) = std::sync::mpsc::channel::<FrontBatch>();
                let (empty_tx, empty_rx) = std::sync::mpsc::channel::<FrontBatch>();
                for _ in 0..FRONT_BATCHES {
                    let b = self.pool.pop().unwrap_or_default();
                    empty_tx.send(b).expect("receiver alive");
                }
                let worker = sc.spawn(move || {
                    while let Ok(mut b) = empty_rx.recv() {
                        let more = front.fill(&mut b);
                        if full_tx.send(b).is_err() || !more {
                            break;
                        }
                    }
                    front.vcache
                });
                for b in full_rx.iter() {
                    consume(self, &b);
                    if let Err(e) = empty_tx.send(b) {
                        self.pool.push(e.0);
                    }
                }
                worker.join().expect("front-end thread panicked")
            });
            self.vcache = vcache;
        } else {
            let mut b = self.pool.pop().unwrap_or_default();
            loop {
                let more = front.fill(&mut b);
                consume(self, &b);
                if !more {
                    break;
                }
            }
            self.pool.push(b);
            self.vcache = front.vcache;
        }
        self.stats.vertex_cache_hits += self.vcache.hits - hits0;
        self.stats.vertex_fetches += self.vcache.misses - misses0;
    }

    /// The common size of a draw's targets.
    fn target_size(&self, draw: &Draw) -> (u32, u32) {
        assert!(
            draw.color.len() <= MAX_TARGETS,
            "more than {MAX_TARGETS} targets"
        );
        let mut size = None;
        let sizes = draw
            .color
            .iter()
            .map(|c| (self.colors[c.0].width(), self.colors[c.0].height()))
            .chain(
                draw.depth
                    .map(|d| (self.depths[d.0].width(), self.depths[d.0].height())),
            );
        for s in sizes {
            if let Some(z) = size {
                assert_eq!(z, s, "targets of different sizes");
            }
            size = Some(s);
        }
        let size = size.expect("a draw needs a colour or depth target");
        if draw.state.stencil.enabled {
            let d = draw
                .depth
                .expect("stencil test without a depth/stencil target");
            assert!(
                self.depths[d.0].has_stencil(),
                "stencil test on a target without stencil"
            );
        }
        size
    }

    /// The back end for the quads of one triangle inside one 4x4 stamp.
    fn stamp(
        &mut self,
        draw: &Draw,
        quads: &[Quad],
        attrs: &[[f32; MAX_ATTRS]; 3],
        unit: u16,
        sink: &mut impl RecordSink,
    ) {
        let st = &draw.state;
        let late = draw.shader.writes_depth() || draw.shader.discards();
        let discards = draw.shader.discards();
        let depth_on = draw.depth.is_some() && st.depth.enabled();
        let stencil_on = st.stencil.enabled;
        let use_hiz = depth_on
            && !late
            && matches!(st.depth.func, CompareFunc::Less | CompareFunc::LessEqual)
            && !st.stencil.depth_fail_writes();
        let mut masks = std::mem::take(&mut self.masks);
        masks.clear();
        masks.extend(quads.iter().map(|q| q.mask));
        if use_hiz {
            let dt = &self.depths[draw.depth.expect("depth on").0];
            let (x, y) = (quads[0].x, quads[0].y);
            let hiz_block = dt.hiz.addr_of_pixel(x, y) & !(BLOCK_BYTES - 1);
            sink.record(access(hiz_block, Stream::Hiz, Op::Read, unit));
            for (q, m) in quads.iter().zip(masks.iter_mut()) {
                let nearest = (0..4)
                    .filter(|&i| q.covered(i))
                    .map(|i| dt.convert(q.depth[i]))
                    .fold(f32::INFINITY, f32::min);
                if dt.hiz.rejects(q.x, q.y, st.depth.func, nearest) {
                    self.stats.killed_hiz += m.count_ones() as u64;
                    *m = 0;
                }
            }
        }
        if masks.iter().all(|&m| m == 0) {
            self.masks = masks;
            return;
        }
        let mut outputs = std::mem::take(&mut self.outputs);
        outputs.clear();
        if !late && (depth_on || stencil_on) {
            self.depth_stencil(draw, quads, &mut masks, None, unit, sink);
        }
        for (q, &m) in quads.iter().zip(masks.iter()) {
            let mut out = FragmentOutput {
                color: [[[0.0; 4]; 4]; MAX_TARGETS],
                depth: q.depth,
                kill: 0,
            };
            if m != 0 {
                self.stats.fragments_shaded += m.count_ones() as u64;
                let mut frag = Fragments {
                    quad: q,
                    attrs: std::array::from_fn(|i| q.interpolate(i, attrs)),
                    mask: m,
                    unit,
                    tex: &mut self.tex,
                    texels: &mut self.texels,
                };
                draw.shader.shade(&mut frag, &mut out);
                for a in self.tex.drain(..) {
                    sink.record(Record::Access(a));
                }
            }
            outputs.push(out);
        }
        if discards {
            for (m, o) in masks.iter_mut().zip(&outputs) {
                *m &= !o.kill;
            }
        }
        self.stats.texels += std::mem::take(&mut self.texels);
        if late && (depth_on || stencil_on) {
            self.depth_stencil(draw, quads, &mut masks, Some(&outputs), unit, sink);
        }
        self.colour(draw, quads, &masks, &outputs, unit, sink);
        self.outputs = outputs;
        self.masks = masks;
    }

    /// Stencil and depth tests and updates for the live pixels of a stamp,
    /// with their accesses; kills the pixels that fail. `outputs` carries
    /// shader depths (late Z).
    fn depth_stencil(
        &mut self,
        draw: &Draw,
        quads: &[Quad],
        masks: &mut [u8],
        outputs: Option<&[FragmentOutput]>,
        unit: u16,
        sink: &mut impl RecordSink,
    ) {
        let st = &draw.state;
        let dt = &mut self.depths[draw.depth.expect("depth/stencil target").0];
        let depth_on = st.depth.enabled();
        let stencil_on = st.stencil.enabled;
        if depth_on && st.depth.reads() {
            emit_blocks(&dt.surface, quads, masks, Stream::Z, Op::Read, unit, sink);
        }
        if stencil_on {
            let s = dt.stencil_surface.as_ref().expect("stencil plane");
            emit_blocks(s, quads, masks, Stream::Stc, Op::Read, unit, sink);
        }
        assert!(
            masks.len() <= MAX_STAMP_QUADS,
            "{} quads in one stamp",
            masks.len()
        );
        let mut zbuf = [0u8; MAX_STAMP_QUADS];
        let mut sbuf = [0u8; MAX_STAMP_QUADS];
        let zmask = &mut zbuf[..masks.len()];
        let smask = &mut sbuf[..masks.len()];
        let mut hiz_changed = false;
        for (k, (q, m)) in quads.iter().zip(masks.iter_mut()).enumerate() {
            let face = *st.stencil.face(q.front_facing);
            for i in 0..4 {
                if *m & (1 << i) == 0 {
                    continue;
                }
                let (x, y) = q.pixel(i);
                let d = outputs.map_or(q.depth[i], |o| o[k].depth[i]);
                let s_old = dt.stencil(x, y);
                let op;
                let mut pass = false;
                if stencil_on && !st.stencil.test(&face, s_old) {
                    op = face.fail;
                    self.stats.killed_stencil += 1;
                } else if depth_on
                    && st.depth.reads()
                    && !st.depth.func.test(dt.convert(d), dt.depth(x, y))
                {
                    op = face.zfail;
                    if outputs.is_some() {
                        self.stats.killed_late_z += 1;
                    } else {
                        self.stats.killed_early_z += 1;
                    }
                } else {
                    op = face.pass;
                    pass = true;
                    if depth_on && st.depth.write {
                        hiz_changed |= dt.set_depth(x, y, d);
                        zmask[k] |= 1 << i;
                    }
                }
                if stencil_on && op != StencilOp::Keep && st.stencil.write_mask != 0 {
                    dt.set_stencil(x, y, st.stencil.update(op, s_old));
                    smask[k] |= 1 << i;
                }
                if !pass {
                    *m &= !(1 << i);
                }
            }
        }
        if zmask.iter().any(|&b| b != 0) {
            emit_blocks(&dt.surface, quads, zmask, Stream::Z, Op::Write, unit, sink);
        }
        if smask.iter().any(|&b| b != 0) {
            let s = dt.stencil_surface.as_ref().expect("stencil plane");
            emit_blocks(s, quads, smask, Stream::Stc, Op::Write, unit, sink);
        }
        if hiz_changed {
            let a = dt.hiz.addr_of_pixel(quads[0].x, quads[0].y) & !(BLOCK_BYTES - 1);
            debug_assert_eq!(quads[0].x / HIZ_TILE, (quads[0].x | (STAMP - 1)) / HIZ_TILE);
            sink.record(access(a, Stream::Hiz, Op::Write, unit));
        }
    }

    /// Blend and store the colours of the pixels that survived, per target:
    /// `rt` read (when the destination is needed), then `rt` write.
    fn colour(
        &mut self,
        draw: &Draw,
        quads: &[Quad],
        masks: &[u8],
        outputs: &[FragmentOutput],
        unit: u16,
        sink: &mut impl RecordSink,
    ) {
        let live: u32 = masks.iter().map(|m| m.count_ones()).sum();
        self.stats.fragments_written += live as u64;
        if live == 0 {
            return;
        }
        for (slot, id) in draw.color.iter().enumerate() {
            let ts = draw.state.targets[slot];
            if ts.write_mask == 0 {
                continue;
            }
            let t = &mut self.colors[id.0];
            let stream = t.stream();
            if ts.reads_destination() {
                emit_blocks(&t.surface, quads, masks, stream, Op::Read, unit, sink);
            }
            for ((q, &m), o) in quads.iter().zip(masks).zip(outputs) {
                for i in 0..4 {
                    if m & (1 << i) != 0 {
                        let (x, y) = q.pixel(i);
                        let dst = t.read(x, y);
                        t.write(x, y, ts.combine(o.color[slot][i], dst));
                    }
                }
            }
            emit_blocks(&t.surface, quads, masks, stream, Op::Write, unit, sink);
        }
    }
}
