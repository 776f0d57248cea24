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
//!
//! **Stopping.** Whoever runs the renderer may ask it to stop
//! ([`gfxcache_cache::progress::request_stop`]: the Python package on
//! Ctrl-C). The pipeline looks at every draw, every front-end batch of
//! triangles and every round of the back end (a run of stamps or, tile by
//! tile, of tiles, of at most 65 536 quads): a relaxed atomic load, never
//! per quad or pixel. Once it has seen the request it
//! is [`Pipeline::stopped`] until the next [`Pipeline::begin_frame`]:
//! the draw in progress ends where it is and later draws do nothing, so
//! the frame is cut short within milliseconds, its records incomplete
//! (the frame renderer turns that into an error).

mod back_end;
mod bands;
mod binning;
mod clears;
mod front_end;
mod hsr;
mod path;
mod requests;
mod shader;
mod stats;
mod tbr;
mod tile_pass;
mod work;

pub use binning::{tcor_attributes, BinnedPass, BinningConfig, BinningMode};
pub use shader::{FragmentOutput, FragmentShader, Fragments, Variant, WritesDepth};
pub use stats::Stats;
pub use tbr::{FpAssignment, TbrConfig, TbrStats};
pub use work::{
    Opt, Options, PathCost, ProgramTallies, ProgramTally, ShaderCode, ShaderWork, Step, When,
};

use back_end::{access, StampJob};
use bands::Rounds;
use binning::Binner;
use clears::surface_blocks;
use front_end::FrontBatch;
use tbr::{LoadOp, TileBins};

use gfxcache_trace::binned::BinnedFrame;
use gfxcache_trace::texreq::{TexReqRecord, TexReqSink};
use gfxcache_trace::{Access, Marker, PassKind, Record, RecordSink};

use crate::buffers::{IndexBuffer, VertexBuffer, VertexCache};
use crate::math::Mat4;
use crate::state::{State, MAX_TARGETS};
use crate::target::{ColorTarget, DepthTarget};

/// Shader clusters (and texture samplers) fragments are spread over.
pub const FRAGMENT_UNITS: u16 = 12;
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
    /// What the draw's vertex shader outputs per vertex, as TCOR counts
    /// attributes (the position, then its scalar outputs four to a 16-byte
    /// vector: [`tcor_attributes`]): what the Polygon List Builder stores
    /// for each of its triangles. At least 1.
    pub attributes: u32,
    /// What its fragment shader runs around its texture requests (the
    /// draw's program's, `frame::Program::work`), for the texture request
    /// record ([`Pipeline::set_texture_requests`]); [`ShaderWork::NONE`]
    /// for a draw of no program.
    pub work: ShaderWork,
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
    /// Threads a draw may use (see [`Pipeline::set_threads`]).
    threads: usize,
    /// Front-end batches kept between draws (no allocation per batch).
    pool: Vec<FrontBatch>,
    /// The threads the back end's rounds are shared out to (`bands.rs`),
    /// with `threads >= 2`.
    workers: Option<rayon::ThreadPool>,
    /// The groups of a round, their buffers and scratch, and how many
    /// rounds were shared out.
    rounds: Rounds,
    shared_rounds: u64,
    /// The stamps of the batch being run, and one stamp's accesses when
    /// they go straight to the sink.
    jobs: Vec<StampJob>,
    direct: Vec<Access>,
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
    /// The texture request record's sink (see
    /// [`Pipeline::set_texture_requests`]) and the passes begun in this
    /// frame.
    requests: Option<Box<dyn TexReqSink>>,
    passes_in_frame: u32,
    /// A stop was asked for during this frame (see "Stopping" above).
    stopped: bool,
}

impl Pipeline {
    /// With `threads >= 2`, let a draw run its front end (index fetch,
    /// vertex transform, rasterization) on a thread of its own, ahead of
    /// the back end, and share the back end's work on large batches of
    /// stamps (and tile by tile, of tiles) out to `threads` threads by
    /// bands of screen rows (`bands.rs`). The back end consumes the front
    /// end's batches in triangle order and the records of the bands go out
    /// in that order, so records and pixels are the same for any thread
    /// count. If the threads cannot be started, the back end stays on the
    /// calling thread (nothing else changes).
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads;
        self.workers = (threads >= 2)
            .then(|| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .thread_name(|i| format!("gfxcache-back-end-{i}"))
                    .build()
                    .ok()
            })
            .flatten();
    }

    /// How many rounds of the back end (runs of stamps, or tile by tile of
    /// tiles) went to the threads of [`Pipeline::set_threads`] rather than
    /// running on the calling thread: how a test knows it saw them shared.
    pub fn shared_rounds(&self) -> u64 {
        self.shared_rounds
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

    pub fn new() -> Pipeline {
        Pipeline::default()
    }

    /// Tile-based mode: record every texture request the fragment shaders
    /// make to `sink` (`Some`), or none (`None`, the default), as a
    /// `.gtq` file holds them ([`gfxcache_trace::texreq`]): per shaded
    /// quad, each request of each pixel with its fragment processor,
    /// taps and the draw's shader work since the pixel's previous
    /// request ([`Draw::work`]), then each pixel's `FragmentEnd`
    /// (`requests.rs`); `PassBegin` (the pass's index in the frame) at
    /// each [`Pipeline::begin_pass`], `TileBegin`/`TileEnd` around each
    /// tile's quads, `FrameEnd`. The records follow the stamps' order, so
    /// they do not depend on the thread count; the records and pixels of
    /// the trace do not change. Immediate-mode draws record no requests.
    pub fn set_texture_requests(&mut self, sink: Option<Box<dyn TexReqSink>>) {
        self.requests = sink;
    }

    /// The sink of [`Pipeline::set_texture_requests`], taken back (to be
    /// finished).
    pub fn take_texture_requests(&mut self) -> Option<Box<dyn TexReqSink>> {
        self.requests.take()
    }

    /// One marker of the texture request record, if one is kept.
    fn request_marker(&mut self, r: TexReqRecord) {
        if let Some(q) = &mut self.requests {
            q.records(&[r]);
        }
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

    /// Whether a stop asked for ([`gfxcache_cache::progress::request_stop`])
    /// cut the current frame short: its draws since then did nothing.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Whether to stop: a stop was asked for since the frame began (seen
    /// now, or before). Cheap enough for every batch and round.
    pub(crate) fn stopping(&mut self) -> bool {
        if !self.stopped && gfxcache_cache::progress::stop_requested() {
            self.stopped = true;
        }
        self.stopped
    }

    pub fn begin_frame(&mut self, frame: u32, sink: &mut impl RecordSink) {
        self.stopped = false;
        self.frame_number = frame;
        self.passes_in_frame = 0;
        sink.record(Record::Marker(Marker::FrameBegin { frame }));
    }

    pub fn end_frame(&mut self, frame: u32, sink: &mut impl RecordSink) {
        assert!(!self.pass_open, "frame ended inside a pass");
        self.request_marker(TexReqRecord::FrameEnd { frame });
        sink.record(Record::Marker(Marker::FrameEnd { frame }));
    }

    /// Open a pass (passes do not nest).
    pub fn begin_pass(&mut self, name: &str, kind: PassKind, sink: &mut impl RecordSink) {
        assert!(!self.pass_open, "pass '{name}' begun inside another pass");
        self.pass_open = true;
        self.pass_name.clear();
        self.pass_name.push_str(name);
        let pass = self.passes_in_frame;
        self.passes_in_frame += 1;
        self.request_marker(TexReqRecord::PassBegin { pass });
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

    /// Run one draw, reporting its records to `sink`; returns the draw's
    /// own statistics (also added to [`Pipeline::stats`]). In tile-based
    /// mode ([`Pipeline::set_tbr`]) the draw is a render pass of its own
    /// ([`Pipeline::draw_tiled`]). Once [`Pipeline::stopped`], nothing.
    pub fn draw(&mut self, draw: &Draw, sink: &mut impl RecordSink) -> Stats {
        if self.stopping() {
            return Stats::default();
        }
        if self.tbr.is_some() {
            return self.draw_tiled(std::slice::from_ref(draw), sink);
        }
        let before = self.stats.clone();
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
        self.front_end_batches(draw, w, h, |p, b| p.back_end(draw, h, b, sink));
        self.stats.since(&before)
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
}
