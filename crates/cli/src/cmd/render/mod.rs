//! `gfxcache render`: render frames of a scene through the software GPU and
//! its caches (`gfxcache_render::session`), write the stream after them as
//! a trace and the last frame as a PNG, and summarize what it cost.
//!
//! This module is arguments and files only: the arguments make a
//! [`RenderRequest`]; the sink is the trace writer, with `gfxcache-tcor`'s
//! baseline Tiling Engine ([`PbTrafficStage`]) as the session's stage in
//! tile-based mode, so that the trace carries its Parameter Buffer traffic;
//! the session renders (on as many threads as `--threads` says, with the
//! same output for any count); then the picture, the binned passes and the
//! summary (`output.rs`) are written. With `--texture-requests` (tile by
//! tile only) a [`TexReqWriter`] is the session's texture request sink
//! (`session::render_with_requests`) and is finished after the trace.

mod output;

use gfxcache_render::frame::FilterOverride;
use gfxcache_render::Preset;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use gfxcache_render::pipeline::{BinningConfig, BinningMode};
use gfxcache_render::session::{self, Mode, Picture, RenderRequest, RenderSummary};
use gfxcache_render::{FpAssignment, Scene, TbrConfig};
use gfxcache_tcor::{PbTrafficStage, PbTrafficStats};
use gfxcache_trace::binned::TileOrder;
use gfxcache_trace::texreq::{TexReqBehind, TexReqSink, TexReqWriter};
use gfxcache_trace::{
    PassThrough, Record, RecordSink, RecordStage, TraceError, TraceMeta, TraceWrite,
};

use super::binned::BinnedOut;
use super::print_json;
use crate::progress;
use output::{text, Output};

#[derive(clap::Args, Clone)]
#[command(
    after_help = "Examples:\n  gfxcache render --scene city --out city.gtr --png city.png\n  gfxcache render --scene racer --mode tbr --fragment-processors 8 --texture-requests racer.gtq.zst --out racer.gtr"
)]
#[command(mut_arg("fragment_processors", |a| a.help(
    "--mode tbr: fragment processors, each with its own texture cache (default 4; refused in immediate mode, which has none to count)."
)))]
pub struct Args {
    /// A built-in scene name (see `gfxcache scenes`) or a scene file.
    #[arg(long)]
    pub scene: String,
    /// Pipeline mode: `imr` (immediate mode, through the GSPC paper's
    /// render caches) or `tbr` (tile-based, through TCOR Table I's L1s).
    #[arg(long, default_value = "imr")]
    pub mode: String,
    /// Screen width (default 1920 in imr, TCOR Table I's 1960 in tbr).
    #[arg(long)]
    pub width: Option<u32>,
    /// Screen height (default 1080 in imr, TCOR Table I's 768 in tbr).
    #[arg(long)]
    pub height: Option<u32>,
    /// Frames along the scene's camera path.
    #[arg(long, default_value_t = 1)]
    pub frames: u32,
    /// Write the LLC stream (or with --raw the pipeline stream) here: .gtr
    /// (recommended: it keeps the markers), .csv, .din, .oracleGeneral or
    /// .oracleGeneral.bin, each optionally .zst-compressed (the format
    /// comes from the name).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Write the last frame's picture here as PNG.
    #[arg(long)]
    pub png: Option<PathBuf>,
    /// Bin every pass's triangles to screen tiles, as a tile-based GPU's
    /// Polygon List Builder does, and write the binned passes here as JSON
    /// (per pass: the tile grid, the traversal order and each primitive's
    /// attribute count and tiles; what `gfxcache-tcor` reads).
    #[arg(long)]
    pub binned: Option<PathBuf>,
    /// Tile side in pixels (even) for --mode tbr and --binned.
    #[arg(long, default_value_t = 32)]
    pub tile_size: u32,
    /// Tile traversal order for --mode tbr and --binned.
    #[arg(long = "order", alias = "tile-order", value_enum, default_value_t = OrderArg::ZOrder)]
    pub tile_order: OrderArg,
    /// Which tiles the Polygon List Builder lists a triangle in, for
    /// --mode tbr and --binned: `exact` (those where it covers a pixel
    /// centre) or `bbox` (every tile its clipped screen bounding box
    /// overlaps).
    #[arg(long, value_enum, default_value_t = BinningArg::Exact)]
    pub binning: BinningArg,
    #[command(flatten)]
    pub processors: super::FragmentProcessorsArg,
    /// --mode tbr: how a tile's quads reach the fragment processors:
    /// `round-robin` (one 4x4 stamp at a time, from processor 0 in every
    /// tile), `blocks[:SIDE]` (screen-space squares of SIDE pixels, a
    /// multiple of 4, default 16; block (bx, by) to processor
    /// (bx + by * blocks across) % P, of P fragment processors) or `tiles`
    /// (the pass's i-th tile in traversal order to processor i % P).
    #[arg(long, default_value = "round-robin", value_parser = parse_fp_assignment)]
    pub fp_assignment: FpAssignment,
    /// --mode tbr: hidden-surface removal (TBDR): shade only the visible
    /// fragment of each pixel among opaque draws. Same picture.
    #[arg(long)]
    pub hsr: bool,
    /// --mode tbr: write every texture request of the fragment processors
    /// here (`.gtq`, zstd-compressed when the name ends in `.zst`, e.g.
    /// `frame.gtq.zst`): per fragment and request its processor, pixel,
    /// filter, texel addresses in tap order and the shader operations by
    /// class its program ran on the fragment's path since its previous
    /// request, with pass, tile and frame markers. The trace does not
    /// change.
    #[arg(long, value_name = "FILE")]
    pub texture_requests: Option<PathBuf>,
    /// Force one filter on every material texture and every screen-space
    /// filtered read (bloom, blurs, copies, FXAA, ...): `nearest` (1
    /// texel), `bilinear` (4, on the level the LOD selects) or
    /// `trilinear` (8: two levels); texel loads, shadow map lookups and
    /// SSAO's depth and normal taps stay exact reads. Changes the trace,
    /// the picture and the texture requests; `as-authored` keeps each
    /// sampler's own.
    #[arg(long, value_enum, default_value_t = TextureFilterArg::AsAuthored)]
    pub texture_filter: TextureFilterArg,
    /// Write the unfiltered pipeline stream instead of the render caches'
    /// misses and write-backs.
    #[arg(long)]
    pub raw: bool,
    /// Print one JSON document on stdout instead of tables.
    #[arg(long)]
    pub json: bool,
    /// Threads: 2 or more run each large draw's front end (fetch,
    /// rasterization) ahead of its back end, share the back end (depth,
    /// shading, colour) out to this many threads by bands of screen rows,
    /// and run the render caches and the trace writer behind them. Results
    /// do not depend on it.
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    #[command(flatten)]
    pub passes: PassSwitches,
}

/// Passes a frame may leave out (every command that renders takes these).
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub struct PassSwitches {
    /// Skip the shadow-map passes (the frame is lit without shadows).
    #[arg(long)]
    pub no_shadow: bool,
    /// Skip the reflection passes.
    #[arg(long)]
    pub no_reflection: bool,
    /// One forward main pass instead of G-buffer + deferred lighting.
    #[arg(long)]
    pub forward: bool,
    /// Skip the transparent (blended) draws.
    #[arg(long)]
    pub no_transparent: bool,
    /// No bloom chain and no tone mapping (the display pass only clamps).
    #[arg(long)]
    pub no_post: bool,
    /// Render this frame preset instead of the scene's own frame
    /// (classic, dx11-deferred, dx9-forward, mobile-forward,
    /// mobile-deferred-lite).
    #[arg(long)]
    pub preset: Option<Preset>,
    /// Every shadow map this many pixels a side (default: the preset's,
    /// which follows the screen height).
    #[arg(long)]
    pub shadow_size: Option<u32>,
}

impl From<PassSwitches> for session::PassSwitches {
    fn from(p: PassSwitches) -> Self {
        session::PassSwitches {
            no_shadow: p.no_shadow,
            no_reflection: p.no_reflection,
            forward: p.forward,
            no_transparent: p.no_transparent,
            no_post: p.no_post,
            preset: p.preset,
            shadow_size: p.shadow_size,
        }
    }
}

/// The filter forced on the frame's samplers ([`FilterOverride`]).
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextureFilterArg {
    /// Each sampler's own filter (materials anisotropic, screen-space
    /// reads bilinear).
    AsAuthored,
    /// The nearest texel of the nearest level: 1 texel a request.
    Nearest,
    /// 2x2 texels of the level the LOD selects: 4.
    Bilinear,
    /// 2x2 texels in each of the two levels around the LOD, blended: 8
    /// (4 where there is one level to read).
    Trilinear,
}

impl From<TextureFilterArg> for FilterOverride {
    fn from(f: TextureFilterArg) -> Self {
        match f {
            TextureFilterArg::AsAuthored => Self::AsAuthored,
            TextureFilterArg::Nearest => Self::Nearest,
            TextureFilterArg::Bilinear => Self::Bilinear,
            TextureFilterArg::Trilinear => Self::Trilinear,
        }
    }
}

/// How the Tile Fetcher walks the tiles (TCOR Table I: Z-order).
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum OrderArg {
    Scanline,
    ZOrder,
    Hilbert,
}

/// Which tiles the Polygon List Builder lists a triangle in.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinningArg {
    /// The tiles where the triangle covers a pixel centre.
    Exact,
    /// Every tile its clipped screen-space bounding box overlaps.
    Bbox,
}

impl From<BinningArg> for BinningMode {
    fn from(b: BinningArg) -> Self {
        match b {
            BinningArg::Exact => Self::Exact,
            BinningArg::Bbox => Self::BoundingBox,
        }
    }
}

impl From<OrderArg> for TileOrder {
    fn from(o: OrderArg) -> Self {
        match o {
            OrderArg::Scanline => Self::Scanline,
            OrderArg::ZOrder => Self::ZOrder,
            OrderArg::Hilbert => Self::Hilbert,
        }
    }
}

pub fn parse_fp_assignment(s: &str) -> Result<FpAssignment, String> {
    FpAssignment::parse(s)
}

impl Args {
    /// Whether `--mode tbr` was asked for (`--mode` is checked by
    /// [`Args::check`]).
    pub fn tbr(&self) -> bool {
        self.mode == "tbr"
    }

    /// The screen size: the flags, else the mode's default.
    pub fn resolution(&self) -> (u32, u32) {
        let (w, h) = if self.tbr() {
            TbrConfig::TABLE_I_RESOLUTION
        } else {
            (1920, 1080)
        };
        (self.width.unwrap_or(w), self.height.unwrap_or(h))
    }

    /// Errors naming what was expected, before anything is rendered.
    pub fn check(&self) -> Result<()> {
        if !matches!(self.mode.as_str(), "imr" | "tbr") {
            bail!("unknown --mode '{}' (expected imr or tbr)", self.mode);
        }
        if self.frames == 0 {
            bail!("--frames must be at least 1");
        }
        if self.tbr() || self.binned.is_some() {
            check_tile_size(self.tile_size)?;
        }
        if self.hsr && !self.tbr() {
            bail!("--hsr: hidden-surface removal needs --mode tbr");
        }
        if self.binning != BinningArg::Exact && !self.tbr() && self.binned.is_none() {
            bail!("--binning: binning needs --mode tbr or --binned");
        }
        if self.texture_requests.is_some() && !self.tbr() {
            bail!(
                "--texture-requests: texture requests are recorded tile by tile only (--mode tbr)"
            );
        }
        if self.fp_assignment != FpAssignment::RoundRobin && !self.tbr() {
            bail!("--fp-assignment: fragment processors need --mode tbr");
        }
        let (processors, flag) = self.fragment_processors();
        match processors {
            Some(_) if !self.tbr() => bail!(
                "{flag}: fragment processors need --mode tbr (immediate mode renders \
                 through the GSPC paper's render caches and has none to count)"
            ),
            Some(n) if !(1..=TbrConfig::MAX_FPS).contains(&n) => bail!(
                "{flag} {n}: expected 1 to {} fragment processors",
                TbrConfig::MAX_FPS
            ),
            _ => {}
        }
        Ok(())
    }

    /// `--fragment-processors` (or `--fps`) if given, and the flag given.
    fn fragment_processors(&self) -> (Option<u16>, &'static str) {
        self.processors.given()
    }

    /// The session these arguments ask for.
    pub fn request(&self) -> RenderRequest {
        let mode = if self.tbr() {
            Mode::Tbr(TbrConfig {
                tile_size: self.tile_size,
                order: self.tile_order.into(),
                fps: self
                    .fragment_processors()
                    .0
                    .unwrap_or(TbrConfig::default().fps),
                hsr: self.hsr,
                binning_mode: self.binning.into(),
                fp_assignment: self.fp_assignment,
            })
        } else {
            Mode::Imr
        };
        let (width, height) = self.resolution();
        RenderRequest {
            mode,
            width,
            height,
            frames: self.frames,
            passes: self.passes.into(),
            binning: self.binned.is_some().then(|| BinningConfig {
                tile_size: self.tile_size,
                order: self.tile_order.into(),
                mode: self.binning.into(),
            }),
            raw: self.raw,
            threads: self.threads,
            texture_filter: self.texture_filter.into(),
            tbr_caches: None,
            imr_caches: None,
        }
    }

    fn files(&self) -> Files {
        Files {
            trace: self.out.clone(),
            png: self.png.clone(),
            binned: self.binned.clone(),
            texture_requests: self.texture_requests.clone(),
        }
    }
}

/// Where a session's outputs go (each optional).
#[derive(Clone, Debug, Default)]
pub struct Files {
    /// The stream after the caches, as a trace (format by extension).
    pub trace: Option<PathBuf>,
    /// The last frame's picture, as PNG.
    pub png: Option<PathBuf>,
    /// The binned passes, as JSON (with a `binning` in the request).
    pub binned: Option<PathBuf>,
    /// Tile by tile: the texture requests (`.gtq`, `.gtq.zst`).
    pub texture_requests: Option<PathBuf>,
}

/// A session rendered into its files.
pub struct Done {
    pub summary: RenderSummary,
    /// Tile by tile: the baseline Tiling Engine's Parameter Buffer traffic
    /// the trace carries.
    pub pb: Option<PbTrafficStats>,
    /// With binned passes: TCOR's Table II for each.
    pub binned: Vec<BinnedOut>,
}

/// The built-in scene or scene file `spec`, its warnings on stderr.
pub fn load_scene(spec: &str) -> Result<Scene> {
    let scene = gfxcache_render::scene::resolve(spec)?;
    for w in &scene.warnings {
        eprintln!("warning: {}: {w}", scene.name);
    }
    Ok(scene)
}

pub fn run(args: Args) -> Result<()> {
    let out = output(&args)?;
    if args.json {
        print_json(&out.json())
    } else {
        print!("{}", text(&out));
        Ok(())
    }
}

/// Renders as `args` say into their files, and gives the summary as
/// `--json` prints it.
pub fn summary(args: &Args) -> Result<serde_json::Value> {
    let out = output(args)?;
    serde_json::to_value(out.json()).context("cannot serialise the render summary")
}

/// Whether `args` would render, without the scene or any file: the
/// flags ([`Args::check`]) and the request they make
/// ([`RenderRequest::check`]: the screen, shadow maps, tiles, fragment
/// processors), as [`summary`] checks them before anything renders.
pub fn check(args: &Args) -> Result<()> {
    args.check()?;
    args.request().check()?;
    Ok(())
}

fn output(args: &Args) -> Result<Output> {
    check(args)?;
    // Before any work: outputs apart from each other and from the scene
    // file, each writable where it is asked for.
    crate::output::check_paths(
        &[
            ("--out", args.out.as_deref()),
            ("--png", args.png.as_deref()),
            ("--binned", args.binned.as_deref()),
            ("--texture-requests", args.texture_requests.as_deref()),
        ],
        &[("--scene", Some(Path::new(&args.scene)))],
    )?;
    let scene = load_scene(&args.scene)?;
    render_scene(&scene, args)
}

fn render_scene(scene: &Scene, args: &Args) -> Result<Output> {
    let start = Instant::now();
    let done = render_to_files(scene, &args.request(), &args.files())?;
    Ok(Output {
        done,
        out: args.out.as_ref().map(|p| p.display().to_string()),
        png: args.png.as_ref().map(|p| p.display().to_string()),
        texture_requests: (args.texture_requests.as_ref()).map(|p| p.display().to_string()),
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// Renders `scene` as `request` says into `files` (a progress bar on
/// stderr): the trace of the stream after the caches (tile by tile with
/// the baseline Tiling Engine's Parameter Buffer traffic), the picture and
/// the binned passes, each written whole or not at all.
pub fn render_to_files(scene: &Scene, request: &RenderRequest, files: &Files) -> Result<Done> {
    let meta = request.trace_meta(&scene.name);
    let sink = TraceSink::create(files.trace.as_deref(), &meta)?;
    let requests = match &files.texture_requests {
        Some(path) => {
            let header = request
                .texture_request_header(scene)?
                .context("--texture-requests is for a tile-based frame (--mode tbr)")?;
            let w = TexReqWriter::create(path, &header)
                .with_context(|| format!("cannot create {}", path.display()))?;
            // Encoded and compressed beside the renderer.
            let behind = TexReqBehind::new(Box::new(w));
            Some((path, Box::new(behind) as Box<dyn TexReqSink>))
        }
        None => None,
    };
    let (requests_path, requests) = requests.unzip();
    let (parts, pb) = match request.mode {
        Mode::Imr => (
            session_with(scene, request, PassThrough, sink, requests)?.0,
            None,
        ),
        Mode::Tbr(_) => {
            let baseline = PbTrafficStage::baseline();
            let (parts, stage) = session_with(scene, request, baseline, sink, requests)?;
            let pb = stage
                .finish()
                .context("the baseline Tiling Engine's Parameter Buffer traffic")?;
            (parts, Some(pb))
        }
    };
    parts.sink.finish()?;
    if let (Some(path), Some(q)) = (requests_path, parts.texture_requests) {
        q.finish()
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if let Some(path) = &files.png {
        write_png(path, &parts.picture)?;
    }
    let binned = match &files.binned {
        Some(path) => super::binned::write(path, &parts.binned)?,
        None => Vec::new(),
    };
    Ok(Done {
        summary: parts.summary,
        pb,
        binned,
    })
}

/// What a session gave back, the stage apart.
struct Parts {
    summary: RenderSummary,
    picture: Picture,
    binned: Vec<gfxcache_trace::binned::BinnedPass>,
    sink: TraceSink,
    texture_requests: Option<Box<dyn TexReqSink>>,
}

fn session_with<T: RecordStage>(
    scene: &Scene,
    request: &RenderRequest,
    stage: T,
    sink: TraceSink,
    requests: Option<Box<dyn TexReqSink>>,
) -> Result<(Parts, T)> {
    // Made at the first report, which knows how many passes there are.
    let mut bar: Option<indicatif::ProgressBar> = None;
    let r = session::render_with_requests(scene, request, stage, sink, requests, |p| {
        let label = match p.frames {
            1 => "rendering".to_string(),
            n => format!("frame {}/{n}", (p.frames_done + 1).min(n)),
        };
        let bar = bar.get_or_insert_with(|| progress::passes(&label, p.passes));
        bar.set_message(label);
        bar.set_position(p.passes_done);
    })?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let parts = Parts {
        summary: r.summary,
        picture: r.picture,
        binned: r.binned,
        sink: r.sink,
        texture_requests: r.texture_requests,
    };
    Ok((parts, r.stage))
}

/// The trace writer as a session's sink: keeps the first write error (and
/// writes nothing after it) for [`TraceSink::finish`].
pub struct TraceSink {
    writer: Option<(PathBuf, Box<dyn TraceWrite>)>,
    error: Option<TraceError>,
}

impl TraceSink {
    /// A writer of `path` (`<path>.partial` until finished), or a sink
    /// that drops everything.
    pub fn create(path: Option<&Path>, meta: &TraceMeta) -> Result<TraceSink> {
        let writer = match path {
            Some(p) => Some((
                p.to_path_buf(),
                gfxcache_trace::create(p, meta)
                    .with_context(|| format!("cannot create {}", p.display()))?,
            )),
            None => None,
        };
        Ok(TraceSink {
            writer,
            error: None,
        })
    }

    /// The first write error, or the trace finished (renamed into place).
    pub fn finish(self) -> Result<()> {
        if let Some(e) = self.error {
            return Err(e.into());
        }
        if let Some((path, w)) = self.writer {
            w.finish()
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        Ok(())
    }
}

impl RecordSink for TraceSink {
    #[inline]
    fn record(&mut self, r: Record) {
        let Some((_, w)) = &mut self.writer else {
            return;
        };
        if self.error.is_some() {
            return;
        }
        let res = match &r {
            Record::Access(a) => w.write_access(a),
            Record::Marker(m) => w.write_marker(m),
        };
        if let Err(e) = res {
            self.error = Some(e);
        }
    }
}

/// Writes `picture` to `path` as PNG (through a `.partial` file).
pub fn write_png(path: &Path, picture: &Picture) -> Result<()> {
    crate::output::write_atomically(path, |tmp| {
        image::save_buffer_with_format(
            tmp,
            &picture.rgba,
            picture.width,
            picture.height,
            image::ExtendedColorType::Rgba8,
            image::ImageFormat::Png,
        )
        .map_err(Into::into)
    })
}

#[cfg(test)]
mod tests;

/// Largest tile side `--tile-size` takes. Tile-based GPUs bin 16 to a few
/// hundred pixels a side (Mali 16, PowerVR 32, Adreno's GMEM bins up to a
/// few hundred); a tile's buffers are allocated whole, so a larger one
/// would only spend memory.
pub(crate) const MAX_TILE_SIZE: u32 = 1024;

/// `--tile-size`'s value, refused before anything renders unless it is an
/// even number of pixels from 2 to [`MAX_TILE_SIZE`].
pub(crate) fn check_tile_size(tile_size: u32) -> Result<()> {
    if tile_size < 2 || !tile_size.is_multiple_of(2) || tile_size > MAX_TILE_SIZE {
        bail!(
            "--tile-size {tile_size}: expected an even number of pixels from 2 to {MAX_TILE_SIZE}"
        );
    }
    Ok(())
}
