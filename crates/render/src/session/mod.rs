//! A render session: frames of a scene asked for with a small
//! [`RenderRequest`], through the caches of the request's mode, to a
//! caller's sink, with a [`RenderSummary`] of what it cost. This is what
//! `gfxcache render` runs, and what a study (or a script) calls to make its
//! frames.
//!
//! [`render`] composes, on one side of a bounded channel, the frame
//! renderer ([`FrameRenderer`]) and, on the other (the consumer side, on
//! the calling thread):
//!
//! ```text
//! stage -> pipeline tally -> caches -> output tally -> sink
//! ```
//!
//! - the **stage** ([`RecordStage`]) sees the GPU's stream first, with each
//!   binned render pass in its place; it is where a Tiling Engine model
//!   puts its Parameter Buffer traffic (`gfxcache-tcor`'s
//!   `PbTrafficStage`, which the command line passes in tile-based mode),
//!   or [`PassThrough`] for nothing. What it adds is GPU traffic like the
//!   rest: it is counted on the pipeline side and goes through the caches
//!   (which pass Parameter Buffer blocks through: they are already the
//!   Tiling Engine's L2 requests);
//! - the **caches** of the mode: the GSPC paper's render caches
//!   ([`Mode::Imr`], [`RenderCaches`](crate::RenderCaches): the LLC
//!   stream) or TCOR Table I's L1s ([`Mode::Tbr`],
//!   [`TbrCaches`](crate::TbrCaches): the L2 stream); none with
//!   [`RenderRequest::raw`] (the pipeline stream);
//! - the **sink** ([`RecordSink`]) receives the records after the caches
//!   and the binned passes in order, e.g. a trace writer.
//!
//! Both tallies count accesses per pass name and stream; with the
//! renderer's own counters (triangles, fragments, texels) they make the
//! [`RenderSummary`]. The picture of the last frame comes back as a
//! [`Picture`], the binned passes when [`RenderRequest::binning`] asks for
//! them. Progress goes to a callback on the calling thread
//! ([`RenderProgress`]: the frames and the frame graph's passes whose
//! records the sink has had), so that a one-frame render moves pass by
//! pass.
//!
//! **Threads.** With [`RenderRequest::threads`] of 2 or more the renderer
//! runs on a thread of its own and sends batches of records (with the
//! binned passes between them) in order through a bounded channel to the
//! consumer side on the calling thread, and it runs large draws' front ends
//! on a third and shares its back end out to `threads` more by bands of
//! screen rows ([`crate::frame`]); with 1 everything runs on the calling
//! thread. Neither the stage nor the sink has to be `Send`, and the sink
//! sees the same stream either way: output never depends on the thread
//! count.
//!
//! **Stopping.** A caller may ask a session to stop
//! ([`gfxcache_cache::progress::request_stop`], which the Python package
//! does on Ctrl-C): the pipeline looks at every draw and every round of
//! its back end, the consumer side at every batch of records, and the
//! session ends with [`FrameError::Interrupted`] within milliseconds
//! rather than when its frames are done; what it was writing is dropped
//! unfinished, as on any error.

mod consumer;
mod progress;
mod summary;
mod threads;

use serde::{Deserialize, Serialize};

use crate::render_caches::RenderCacheConfig;
use crate::tbr_caches::TbrCacheConfig;

use gfxcache_trace::binned::BinnedPass;
use gfxcache_trace::texreq::{TexReqHeader, TexReqSink};
use gfxcache_trace::{PassThrough, RecordSink, RecordStage, TraceMeta};

use crate::frame::{FilterOverride, FrameConfig, FrameError, FrameRenderer};
use crate::graph::Preset;
use crate::pipeline::{BinningConfig, BinningMode, FpAssignment, TbrConfig};
use crate::scene::{Passes, Scene};

use consumer::Consumer;
pub use progress::RenderProgress;
pub use summary::{
    CacheFigures, PassFigures, ProgramFigures, RenderSummary, Rw, ShaderFigures, TbrFigures,
};

/// How the GPU renders, and through which caches its stream goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Immediate mode through the GSPC paper's render caches: the trace is
    /// the LLC stream.
    Imr,
    /// Tile by tile through TCOR Table I's L1s: the trace is the L2 stream.
    Tbr(TbrConfig),
}

impl Mode {
    pub fn name(&self) -> &'static str {
        match self {
            Mode::Imr => "imr",
            Mode::Tbr(_) => "tbr",
        }
    }

    pub fn tbr(&self) -> Option<TbrConfig> {
        match self {
            Mode::Imr => None,
            Mode::Tbr(t) => Some(*t),
        }
    }

    /// The screen size of the papers: 1920x1080 (GSPC) in immediate mode,
    /// TCOR Table I's 1960x768 tile by tile.
    pub fn default_resolution(&self) -> (u32, u32) {
        match self {
            Mode::Imr => (1920, 1080),
            Mode::Tbr(_) => TbrConfig::TABLE_I_RESOLUTION,
        }
    }
}

/// Passes to leave out of those the scene has (a pass the scene lacks
/// stays out).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PassSwitches {
    pub no_shadow: bool,
    pub no_reflection: bool,
    /// One forward main pass instead of G-buffer + deferred lighting.
    pub forward: bool,
    pub no_transparent: bool,
    /// No bloom chain and no tone mapping (the display pass only clamps).
    pub no_post: bool,
    /// This frame preset instead of the scene's frame graph.
    pub preset: Option<Preset>,
    /// Every shadow map this side instead of the preset's.
    pub shadow_size: Option<u32>,
}

impl PassSwitches {
    /// The scene's passes with these switched off.
    pub fn apply(&self, mut p: Passes) -> Passes {
        p.shadow &= !self.no_shadow;
        p.reflection &= !self.no_reflection;
        p.deferred &= !self.forward;
        p.transparent &= !self.no_transparent;
        p.post &= !self.no_post;
        p
    }
}

/// Which frames to render, and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RenderRequest {
    pub mode: Mode,
    pub width: u32,
    pub height: u32,
    /// Frames along the scene's camera path (at least 1).
    pub frames: u32,
    pub passes: PassSwitches,
    /// Bin every pass's triangles as a Polygon List Builder does (in
    /// immediate mode with these tiles; tile by tile every render pass is
    /// binned with the mode's own) and return the binned passes
    /// ([`Rendered::binned`]). `None`: none returned.
    pub binning: Option<BinningConfig>,
    /// No caches: the sink gets the pipeline's own stream.
    pub raw: bool,
    /// 1: everything on the calling thread; 2 or more: see the module
    /// documentation. Results do not depend on it.
    pub threads: usize,
    /// A filter forced on every material texture and screen-space
    /// filtered read ([`FrameConfig::texture_filter`], where the rule is);
    /// the default forces none.
    #[serde(default)]
    pub texture_filter: FilterOverride,
    /// Tile by tile, the L1s in front of the L2 (the vertex cache and
    /// each fragment processor's texture cache; their `fps` is the
    /// mode's). `None`: TCOR's Table I ([`TbrCacheConfig::table_i`]).
    #[serde(skip)]
    pub tbr_caches: Option<TbrCacheConfig>,
    /// In immediate mode, the render caches in front of the LLC. `None`:
    /// the GSPC paper's ([`RenderCacheConfig::default`]).
    #[serde(skip)]
    pub imr_caches: Option<RenderCacheConfig>,
}

impl RenderRequest {
    /// One frame at the mode's default resolution, all the scene's
    /// passes, through the caches, on two threads.
    pub fn new(mode: Mode) -> RenderRequest {
        let (width, height) = mode.default_resolution();
        RenderRequest {
            mode,
            width,
            height,
            frames: 1,
            passes: PassSwitches::default(),
            binning: None,
            raw: false,
            threads: 2,
            texture_filter: FilterOverride::AsAuthored,
            tbr_caches: None,
            imr_caches: None,
        }
    }

    /// Why the request cannot be rendered, before anything is, whatever
    /// the scene: its frames, its caches and its frame configuration (the
    /// screen, shadow maps, tiles, fragment processors:
    /// [`FrameConfig::check`]).
    pub fn check(&self) -> Result<(), FrameError> {
        if self.frames == 0 {
            return Err(FrameError::Config("at least one frame".into()));
        }
        self.frame_config_of(None).check()?;
        if let Some(b) = &self.binning {
            b.check().map_err(FrameError::Config)?;
        }
        if let Some(c) = &self.tbr_caches {
            for (name, shape) in [("vertex", c.vertex), ("texture", c.texture)] {
                gfxcache_cache::Geometry::from_size(
                    shape.bytes,
                    gfxcache_cache::Ways::N(shape.ways),
                    64,
                )
                .map_err(|e| FrameError::Config(format!("the {name} cache: {e}")))?;
            }
        }
        if let Some(c) = &self.imr_caches {
            c.check().map_err(FrameError::Config)?;
        }
        Ok(())
    }

    /// The frame renderer's configuration for `scene`.
    pub fn frame_config(&self, scene: &Scene) -> FrameConfig {
        self.frame_config_of(Some(self.passes.apply(scene.passes)))
    }

    /// The frame renderer's configuration with `passes`.
    fn frame_config_of(&self, passes: Option<Passes>) -> FrameConfig {
        FrameConfig {
            passes,
            preset: self.passes.preset,
            shadow_size: self.passes.shadow_size,
            threads: self.threads.max(1),
            binning: match self.mode {
                Mode::Imr => self.binning,
                Mode::Tbr(_) => None,
            },
            tbr: self.mode.tbr(),
            texture_filter: self.texture_filter,
            ..FrameConfig::new(self.width, self.height)
        }
    }

    /// The stream the sink gets: `llc`, `l2` (tile by tile: the L1s'
    /// misses, the tile loads and stores and a Tiling Engine's traffic) or
    /// `pipeline` (raw).
    pub fn stream(&self) -> &'static str {
        match (self.raw, self.mode) {
            (true, _) => "pipeline",
            (false, Mode::Imr) => "llc",
            (false, Mode::Tbr(_)) => "l2",
        }
    }

    /// The header of a trace of this session's stream: scene, resolution,
    /// mode, frames, 64-byte blocks, and the stream and (tile by tile) the
    /// tile size, order, fragment processors, HSR and, unless exact, the
    /// binning mode (`binning`: `bbox`) and, unless round-robin, the
    /// fragment processor assignment (`fp_assignment`) as extra fields,
    /// and in either mode a forced filter (`texture_filter`: `nearest`,
    /// `bilinear` or `trilinear`). A tile-based trace without `binning`
    /// was binned exactly, one without `fp_assignment` dealt round-robin
    /// and one without `texture_filter` filtered as authored, so such
    /// traces keep the header they had before the choices existed.
    pub fn trace_meta(&self, scene: &str) -> TraceMeta {
        let mut extra = std::collections::BTreeMap::new();
        extra.insert("stream".into(), self.stream().into());
        if let Mode::Tbr(t) = self.mode {
            extra.insert("tile_size".into(), t.tile_size.into());
            extra.insert("tile_order".into(), t.order.name().into());
            extra.insert("fps".into(), t.fps.into());
            extra.insert("hsr".into(), t.hsr.into());
            if t.binning_mode != BinningMode::Exact {
                extra.insert("binning".into(), t.binning_mode.name().into());
            }
            if t.fp_assignment != FpAssignment::RoundRobin {
                extra.insert("fp_assignment".into(), t.fp_assignment.name().into());
            }
        }
        if self.texture_filter != FilterOverride::AsAuthored {
            extra.insert("texture_filter".into(), self.texture_filter.name().into());
        }
        TraceMeta {
            generator: format!("gfxcache {} render", env!("CARGO_PKG_VERSION")),
            scene: Some(scene.to_string()),
            resolution: Some([self.width, self.height]),
            mode: Some(self.mode.name().to_string()),
            block_size: Some(64),
            frames: Some(self.frames),
            extra,
        }
    }

    /// The header of a `.gtq` of this session (tile by tile only, else
    /// `None`): its fragment processors, resolution, frames and tile size
    /// (as [`RenderRequest::trace_meta`] says them) and the largest
    /// render target of `scene`'s frame ([`crate::frame::target_extent`]).
    pub fn texture_request_header(
        &self,
        scene: &Scene,
    ) -> Result<Option<TexReqHeader>, FrameError> {
        let Mode::Tbr(t) = self.mode else {
            return Ok(None);
        };
        let (w, h) = crate::frame::target_extent(scene, &self.frame_config(scene))?;
        Ok(Some(TexReqHeader {
            extent: [w, h],
            frames: self.frames,
            ..TexReqHeader::new(t.fps, self.width, self.height, t.tile_size)
        }))
    }
}

/// The last frame's picture: row-major RGBA8, 4 bytes a pixel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture {
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<u8>,
}

/// What a session made; the stage and the sink come back to be finished.
pub struct Rendered<T, S> {
    pub summary: RenderSummary,
    pub picture: Picture,
    /// With [`RenderRequest::binning`]: every binned (render) pass, in
    /// stream order.
    pub binned: Vec<BinnedPass>,
    pub stage: T,
    pub sink: S,
    /// With [`render_with_requests`]: the texture request sink, to be
    /// finished.
    pub texture_requests: Option<Box<dyn TexReqSink>>,
}

/// Renders `request.frames` frames of `scene` to `sink` through `stage`
/// and the mode's caches (see the module documentation); `progress` is
/// told the frames and passes done ([`RenderProgress`]) after each pass
/// the consumer side has taken and after each frame. Errors: a request or scene that
/// cannot be rendered, or render targets too large for the memory there is
/// ([`FrameError`]), before any frame; or, asked to stop
/// ([`gfxcache_cache::progress::request_stop`]), within milliseconds,
/// [`FrameError::Interrupted`] (the sink, the stage and the texture
/// request sink are then dropped unfinished: a trace writer puts no file
/// in place).
pub fn render<T: RecordStage, S: RecordSink>(
    scene: &Scene,
    request: &RenderRequest,
    stage: T,
    sink: S,
    progress: impl FnMut(RenderProgress),
) -> Result<Rendered<T, S>, FrameError> {
    render_with_requests(scene, request, stage, sink, None, progress)
}

/// [`render`], and with `requests` (tile-based mode only: an error in
/// immediate mode, before any frame) every texture request of the frames
/// to it as a `.gtq` file holds them
/// ([`Pipeline::set_texture_requests`](crate::pipeline::Pipeline::set_texture_requests)),
/// on the renderer's thread; it comes back in
/// [`Rendered::texture_requests`], to be finished. The records the sink
/// gets do not change.
pub fn render_with_requests<T: RecordStage, S: RecordSink>(
    scene: &Scene,
    request: &RenderRequest,
    stage: T,
    sink: S,
    requests: Option<Box<dyn TexReqSink>>,
    progress: impl FnMut(RenderProgress),
) -> Result<Rendered<T, S>, FrameError> {
    let start = std::time::Instant::now();
    request.check()?;
    if requests.is_some() && request.mode.tbr().is_none() {
        return Err(FrameError::Config(
            "texture requests are recorded tile by tile only (mode tbr), not in immediate mode"
                .into(),
        ));
    }
    let mut renderer = FrameRenderer::new(scene, request.frame_config(scene))?;
    renderer.pipeline.set_texture_requests(requests);
    let consumer = Consumer::new(request, stage, sink);
    let (frames, consumer, binned) = if request.threads >= 2 {
        threads::render_beside(&mut renderer, request, consumer, progress)?
    } else {
        threads::render_inline(&mut renderer, request, consumer, progress)?
    };
    let (consumed, stage, sink) = consumer.finish();
    let texture_requests = renderer.pipeline.take_texture_requests();
    let picture = renderer.picture_rgba()?;
    let mut summary = summary::summarize(scene, request, &renderer, &frames, &consumed);
    summary.seconds = start.elapsed().as_secs_f64();
    Ok(Rendered {
        summary,
        picture,
        binned,
        stage,
        sink,
        texture_requests,
    })
}

/// [`render`] without a stage.
pub fn render_plain<S: RecordSink>(
    scene: &Scene,
    request: &RenderRequest,
    sink: S,
    progress: impl FnMut(RenderProgress),
) -> Result<Rendered<PassThrough, S>, FrameError> {
    render(scene, request, PassThrough, sink, progress)
}
