//! `gfxcache render`: render frames of a scene through the software GPU and
//! its render caches, write the LLC stream as a trace and the last frame as
//! a PNG, and summarize what it cost.
//!
//! With `--threads 2` or more, the render caches and the trace writer run on
//! their own thread, fed batches of records in order through a bounded
//! channel (and the renderer runs draws' front ends on another, see
//! `gfxcache_render::frame`), so the output is the same for every thread
//! count.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::mpsc;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use gfxcache_render::frame::{add_stats, FrameConfig, FrameRenderer, StreamCounts};
use gfxcache_render::pipeline::BinningConfig;
use gfxcache_render::{
    RenderCacheStats, RenderCaches, Scene, Stats, TbrCacheConfig, TbrCaches, TbrConfig,
};
use gfxcache_tcor::{PbTrafficStage, PbTrafficStats};
use gfxcache_trace::binned::BinnedPass;
use gfxcache_trace::{Marker, Record, RecordSink, RecordStage, Stream, TraceMeta, TraceWrite};
use serde::Serialize;

use super::print_json;
use crate::progress;
use crate::table::{percent, thousands, Table};

#[derive(clap::Args, Clone)]
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
    /// Write the LLC stream (or with --raw the pipeline stream) here; the
    /// format comes from the extension (.gtr recommended).
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
    /// --mode tbr: fragment processors, each with its own texture cache.
    #[arg(long, default_value_t = 4)]
    pub fps: u16,
    /// --mode tbr: hidden-surface removal (TBDR): shade only the visible
    /// fragment of each pixel among opaque draws. Same picture.
    #[arg(long)]
    pub hsr: bool,
    /// Write the unfiltered pipeline stream instead of the render caches'
    /// misses and write-backs.
    #[arg(long)]
    pub raw: bool,
    /// Print one JSON document on stdout instead of tables.
    #[arg(long)]
    pub json: bool,
    /// Threads: 2 or more run each large draw's front end (fetch,
    /// rasterization) ahead of its back end, and the render caches and the
    /// trace writer behind them. Results do not depend on it.
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    #[command(flatten)]
    pub passes: PassSwitches,
}

/// Passes a frame may leave out (every command that renders takes these).
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub struct PassSwitches {
    #[arg(long)]
    pub no_shadow: bool,
    #[arg(long)]
    pub no_reflection: bool,
    /// One forward main pass instead of G-buffer + deferred lighting.
    #[arg(long)]
    pub forward: bool,
    #[arg(long)]
    pub no_transparent: bool,
    /// No bloom chain and no tone mapping (the display pass only clamps).
    #[arg(long)]
    pub no_post: bool,
}

/// How the Tile Fetcher walks the tiles (TCOR Table I: Z-order).
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum OrderArg {
    Scanline,
    ZOrder,
    Hilbert,
}

impl From<OrderArg> for gfxcache_tcor::TileOrder {
    fn from(o: OrderArg) -> Self {
        match o {
            OrderArg::Scanline => Self::Scanline,
            OrderArg::ZOrder => Self::ZOrder,
            OrderArg::Hilbert => Self::Hilbert,
        }
    }
}

#[derive(Serialize, Default, Clone, Copy)]
struct Rw {
    reads: u64,
    writes: u64,
}

fn by_stream(c: &StreamCounts) -> std::collections::BTreeMap<&'static str, Rw> {
    Stream::ALL
        .iter()
        .filter(|s| c.of(**s) > 0)
        .map(|s| {
            (
                s.name(),
                Rw {
                    reads: c.reads[s.index()],
                    writes: c.writes[s.index()],
                },
            )
        })
        .collect()
}

#[derive(Serialize)]
struct PassOut {
    name: String,
    kind: &'static str,
    draws: u64,
    triangles_in: u64,
    fragments_shaded: u64,
    texels: u64,
    pipeline_accesses: u64,
    llc_accesses: u64,
    pipeline: std::collections::BTreeMap<&'static str, Rw>,
    llc: std::collections::BTreeMap<&'static str, Rw>,
}

#[derive(Serialize)]
struct CacheOut {
    cache: String,
    accesses: u64,
    hits: u64,
    misses: u64,
    writebacks: u64,
    hit_rate: f64,
}

#[derive(Serialize)]
struct Output {
    scene: String,
    mode: String,
    width: u32,
    height: u32,
    frames: u32,
    raw: bool,
    threads: usize,
    passes: Vec<String>,
    triangles_in: u64,
    triangles_after_cull: u64,
    fragments: u64,
    fragments_shaded: u64,
    /// Fragments shaded by the main and transparent passes per screen pixel.
    overdraw: f64,
    texels_sampled: u64,
    pipeline_accesses: u64,
    llc_accesses: u64,
    per_pass: Vec<PassOut>,
    pipeline: std::collections::BTreeMap<&'static str, Rw>,
    llc: std::collections::BTreeMap<&'static str, Rw>,
    render_caches: Vec<CacheOut>,
    out: Option<String>,
    png: Option<String>,
    seconds: f64,
    /// With `--binned`: Table II of TCOR for each binned pass.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    binned: Vec<super::binned::BinnedOut>,
    /// With `--mode tbr`: what the tiles did.
    #[serde(skip_serializing_if = "Option::is_none")]
    tbr: Option<TbrOut>,
}

/// The tile-based mode's figures.
#[derive(Serialize)]
struct TbrOut {
    tile_size: u32,
    order: &'static str,
    fps: u16,
    hsr: bool,
    render_passes: u64,
    tiles: u64,
    quads_per_fp: Vec<u64>,
    /// Hit rate of each fragment processor's texture cache (empty with
    /// `--raw`: no caches ran).
    texture_hit_rate_per_fp: Vec<f64>,
    loaded_blocks: u64,
    flushed_blocks: u64,
    pb_l2_reads: u64,
    pb_l2_writes: u64,
    /// Render passes whose PB-Lists overflowed the baseline layout (their
    /// PB traffic uses the interleaved layout).
    pb_overflow_passes: u64,
    /// With `--hsr`: covered pixels of opaque draws taken out before the
    /// depth test (many would have failed it anyway).
    hsr_hidden: u64,
}

fn hit_rate(s: &RenderCacheStats) -> f64 {
    if s.accesses > 0 {
        s.hits as f64 / s.accesses as f64
    } else {
        0.0
    }
}

/// What the consumer side (render caches, trace writer) reports.
struct Consumed {
    /// Pipeline-side counts per pass name (with the Parameter Buffer
    /// traffic in tbr mode).
    pipeline: PassTally,
    /// LLC-side counts per pass name, in order of first appearance; the
    /// frame-end flush lands in `(flush)`.
    per_pass: PassTally,
    caches: Vec<(String, RenderCacheStats)>,
    /// `--mode tbr`: each fragment processor's texture cache.
    tex_per_fp: Vec<RenderCacheStats>,
    /// `--mode tbr`: the Parameter Buffer traffic put in the stream.
    pb: Option<PbTrafficStats>,
}

/// The consumer: records in, through the render caches (unless raw), to the
/// trace writer and the LLC counters.
/// What the render caches hand their LLC stream to.
type LlcSink = Box<dyn FnMut(Record)>;

struct Consumer {
    /// `--mode tbr`: the baseline Tiling Engine's Parameter Buffer traffic
    /// put in the stream, in front of the L1s (which pass it through).
    stage: Option<PbTrafficStage>,
    inner: Inner,
}

/// The caches (unless raw) in front of the trace writer and the counters.
struct Inner {
    /// What the pipeline (and the stage) send, per pass.
    pipeline: PassTally,
    caches: Option<Caches>,
    state: Rc<RefCell<Sink>>,
}

impl RecordSink for Inner {
    fn record(&mut self, r: Record) {
        self.pipeline.take(&r);
        match &mut self.caches {
            Some(Caches::Imr(c)) => c.record(r),
            Some(Caches::Tbr(c)) => c.record(r),
            None => self.state.borrow_mut().take(r),
        }
    }
}

/// An item for the consumer thread: records, or a binned pass in place.
enum Item {
    Records(Vec<Record>),
    Binned(Box<BinnedPass>),
}

/// The renderer's sink on its own thread: batches of records, binned
/// passes in place, to the consumer thread.
struct Batcher {
    batch: Vec<Record>,
    tx: mpsc::SyncSender<Item>,
    sent_ok: bool,
}

impl Batcher {
    fn send(&mut self, item: Item) {
        if self.sent_ok {
            self.sent_ok = self.tx.send(item).is_ok();
        }
    }

    fn flush(&mut self) {
        if !self.batch.is_empty() {
            let full = std::mem::replace(&mut self.batch, Vec::with_capacity(BATCH));
            self.send(Item::Records(full));
        }
    }
}

impl RecordSink for Batcher {
    fn record(&mut self, r: Record) {
        self.batch.push(r);
        if self.batch.len() >= BATCH {
            self.flush();
        }
    }

    fn binned(&mut self, pass: &BinnedPass) {
        self.flush();
        self.send(Item::Binned(Box::new(pass.clone())));
    }
}

impl RecordSink for Consumer {
    fn record(&mut self, r: Record) {
        match &mut self.stage {
            Some(s) => s.record(r, &mut self.inner),
            None => self.inner.record(r),
        }
    }

    fn binned(&mut self, pass: &BinnedPass) {
        if let Some(s) = &mut self.stage {
            s.binned(pass, &mut self.inner);
        }
    }
}

/// The caches between the renderer and the trace: the GSPC paper's render
/// caches (imr) or TCOR Table I's L1s (tbr).
enum Caches {
    Imr(Box<RenderCaches<LlcSink>>),
    Tbr(Box<TbrCaches<LlcSink>>),
}

struct Sink {
    writer: Option<Box<dyn TraceWrite>>,
    error: Option<anyhow::Error>,
    tally: PassTally,
}

/// Accesses per pass name, in order of first appearance; those outside
/// passes in `(flush)`.
struct PassTally {
    per_pass: Vec<(String, StreamCounts)>,
    current: usize,
}

impl PassTally {
    fn new() -> PassTally {
        PassTally {
            per_pass: vec![("(flush)".to_string(), StreamCounts::default())],
            current: 0,
        }
    }

    fn take(&mut self, r: &Record) {
        match r {
            Record::Access(a) => self.per_pass[self.current].1.add(a),
            Record::Marker(Marker::PassBegin { name, .. }) => {
                self.current = match self.per_pass.iter().position(|p| &p.0 == name) {
                    Some(i) => i,
                    None => {
                        self.per_pass.push((name.clone(), StreamCounts::default()));
                        self.per_pass.len() - 1
                    }
                };
            }
            Record::Marker(Marker::PassEnd) => self.current = 0,
            _ => {}
        }
    }

    fn of(&self, name: &str) -> StreamCounts {
        self.per_pass
            .iter()
            .find(|p| p.0 == name)
            .map(|p| p.1)
            .unwrap_or_default()
    }
}

impl Sink {
    fn take(&mut self, r: Record) {
        self.tally.take(&r);
        if self.error.is_some() {
            return;
        }
        if let Some(w) = &mut self.writer {
            let res = match &r {
                Record::Access(a) => w.write_access(a),
                Record::Marker(m) => w.write_marker(m),
            };
            if let Err(e) = res {
                self.error = Some(e.into());
            }
        }
    }
}

impl Consumer {
    /// The consumer for `args`, with its trace writer (if `--out`).
    fn new(args: &Args, meta: &TraceMeta) -> Result<Consumer> {
        let writer = match &args.out {
            Some(path) => Some(
                gfxcache_trace::create(path, meta)
                    .with_context(|| format!("cannot create {}", path.display()))?,
            ),
            None => None,
        };
        let state = Rc::new(RefCell::new(Sink {
            writer,
            error: None,
            tally: PassTally::new(),
        }));
        let caches = (!args.raw).then(|| {
            let st = state.clone();
            let f: LlcSink = Box::new(move |r| st.borrow_mut().take(r));
            if args.tbr() {
                Caches::Tbr(Box::new(TbrCaches::new(
                    &TbrCacheConfig::table_i(args.fps),
                    f,
                )))
            } else {
                Caches::Imr(Box::new(RenderCaches::new(f)))
            }
        });
        Ok(Consumer {
            stage: args.tbr().then(PbTrafficStage::baseline),
            inner: Inner {
                pipeline: PassTally::new(),
                caches,
                state,
            },
        })
    }

    /// Counters, and the trace finished (renamed into place).
    fn finish(self, out: Option<&Path>) -> Result<Consumed> {
        let pb = match self.stage {
            Some(s) => Some(s.finish().context("the Parameter Buffer traffic")?),
            None => None,
        };
        let Inner {
            pipeline,
            caches: consumer_caches,
            state,
        } = self.inner;
        let (caches, tex_per_fp) = match &consumer_caches {
            Some(Caches::Imr(c)) => (
                c.stats()
                    .into_iter()
                    .map(|(n, s)| (n.to_string(), s))
                    .collect(),
                Vec::new(),
            ),
            Some(Caches::Tbr(c)) => {
                let tex = c.texture_stats();
                let mut v = vec![("vertex".to_string(), c.vertex_stats())];
                v.extend(
                    tex.iter()
                        .enumerate()
                        .map(|(i, s)| (format!("tex-fp{i}"), *s)),
                );
                (v, tex)
            }
            None => (Vec::new(), Vec::new()),
        };
        drop(consumer_caches);
        let mut s = state.borrow_mut();
        if let Some(e) = s.error.take() {
            return Err(e);
        }
        if let (Some(w), Some(path)) = (s.writer.take(), out) {
            w.finish()
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        let per_pass = std::mem::replace(&mut s.tally, PassTally::new());
        Ok(Consumed {
            pipeline,
            per_pass,
            caches,
            tex_per_fp,
            pb,
        })
    }
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
        if (self.tbr() || self.binned.is_some())
            && (self.tile_size < 2 || !self.tile_size.is_multiple_of(2))
        {
            bail!(
                "--tile-size {}: expected an even number of pixels, at least 2",
                self.tile_size
            );
        }
        if self.hsr && !self.tbr() {
            bail!("--hsr: hidden-surface removal needs --mode tbr");
        }
        if self.tbr() && !(1..=TbrConfig::MAX_FPS).contains(&self.fps) {
            bail!(
                "--fps {}: expected 1 to {} fragment processors",
                self.fps,
                TbrConfig::MAX_FPS
            );
        }
        Ok(())
    }
}

pub fn run(args: Args) -> Result<()> {
    args.check()?;
    let scene = gfxcache_render::scene::resolve(&args.scene)?;
    for w in &scene.warnings {
        eprintln!("warning: {}: {w}", scene.name);
    }
    let out = render_scene(&scene, &args)?;
    if args.json {
        print_json(&out)
    } else {
        print!("{}", text(&out));
        Ok(())
    }
}

/// Renders `args.scene` into `args.out` / `args.png` (and `args.binned`)
/// without printing a summary: how other commands (`gspc`, `tcor`) make
/// their frame. Returns each render cache's name and accesses.
pub fn render_quietly(args: &Args) -> Result<Vec<(String, u64)>> {
    args.check()?;
    let scene = gfxcache_render::scene::resolve(&args.scene)?;
    for w in &scene.warnings {
        eprintln!("warning: {}: {w}", scene.name);
    }
    let out = render_scene(&scene, args)?;
    Ok(out
        .render_caches
        .into_iter()
        .map(|c| (c.cache, c.accesses))
        .collect())
}

fn config(scene: &Scene, args: &Args) -> FrameConfig {
    let mut p = scene.passes;
    let off = args.passes;
    p.shadow &= !off.no_shadow;
    p.reflection &= !off.no_reflection;
    p.deferred &= !off.forward;
    p.transparent &= !off.no_transparent;
    p.post &= !off.no_post;
    let (w, h) = args.resolution();
    FrameConfig {
        passes: Some(p),
        threads: args.threads.max(1),
        binning: args.binned.is_some().then(|| BinningConfig {
            tile_size: args.tile_size,
            order: args.tile_order.into(),
        }),
        tbr: args.tbr().then(|| TbrConfig {
            tile_size: args.tile_size,
            order: args.tile_order.into(),
            fps: args.fps,
            hsr: args.hsr,
        }),
        ..FrameConfig::new(w, h)
    }
}

/// Records per batch handed to the consumer thread.
const BATCH: usize = 1 << 16;

fn render_scene(scene: &Scene, args: &Args) -> Result<Output> {
    let start = Instant::now();
    let cfg = config(scene, args);
    let mut renderer = FrameRenderer::new(scene, cfg)?;
    let meta = TraceMeta {
        generator: format!("gfxcache {} render", env!("CARGO_PKG_VERSION")),
        scene: Some(scene.name.clone()),
        resolution: Some([cfg.width, cfg.height]),
        mode: Some(args.mode.clone()),
        block_size: Some(64),
        frames: Some(args.frames),
        extra: trace_extra(args),
    };
    let bar = progress::count("rendering", args.frames as u64);
    let mut summaries = Vec::new();
    let consumed = if cfg.threads >= 2 {
        let (tx, rx) = mpsc::sync_channel::<Item>(4);
        let (ready_tx, ready_rx) = mpsc::channel::<Result<()>>();
        let targs = args.clone();
        let handle = std::thread::spawn(move || -> Result<Consumed> {
            let mut c = match Consumer::new(&targs, &meta) {
                Ok(c) => {
                    let _ = ready_tx.send(Ok(()));
                    c
                }
                Err(e) => {
                    let _ = ready_tx.send(Err(e));
                    return Err(anyhow::anyhow!("no consumer"));
                }
            };
            for item in rx {
                match item {
                    Item::Records(batch) => {
                        for r in batch {
                            c.record(r);
                        }
                    }
                    Item::Binned(p) => c.binned(&p),
                }
            }
            c.finish(targs.out.as_deref())
        });
        ready_rx
            .recv()
            .map_err(|_| anyhow::anyhow!("the render-cache thread stopped"))??;
        let mut batcher = Batcher {
            batch: Vec::with_capacity(BATCH),
            tx,
            sent_ok: true,
        };
        for f in 0..args.frames {
            summaries.push(renderer.render(f, args.frames, &mut batcher));
            bar.inc(1);
        }
        batcher.flush();
        drop(batcher);
        handle
            .join()
            .map_err(|_| anyhow::anyhow!("the render-cache thread panicked"))??
    } else {
        let mut c = Consumer::new(args, &meta)?;
        for f in 0..args.frames {
            summaries.push(renderer.render(f, args.frames, &mut c));
            bar.inc(1);
        }
        c.finish(args.out.as_deref())?
    };
    bar.finish_and_clear();
    if let Some(png) = &args.png {
        write_png(png, cfg.width, cfg.height, &renderer.picture())?;
    }
    let binned = match &args.binned {
        Some(path) => super::binned::write(path, &renderer.take_binned())?,
        None => Vec::new(),
    };
    let mut out = summarize(scene, args, &renderer, &summaries, consumed, start);
    out.binned = binned;
    Ok(out)
}

/// What the trace header says about its stream beyond the standard fields.
fn trace_extra(args: &Args) -> std::collections::BTreeMap<String, serde_json::Value> {
    let stream = match (args.raw, args.tbr()) {
        (true, _) => "pipeline",
        (false, false) => "llc",
        // The L1s' misses, the tile flushes and the Tiling Engine's
        // traffic: what a tile-based GPU's L2 is asked for.
        (false, true) => "l2",
    };
    let mut m = std::collections::BTreeMap::new();
    m.insert("stream".into(), stream.into());
    if args.tbr() {
        m.insert("tile_size".into(), args.tile_size.into());
        let order: gfxcache_tcor::TileOrder = args.tile_order.into();
        m.insert("tile_order".into(), order.name().into());
        m.insert("fps".into(), args.fps.into());
        m.insert("hsr".into(), args.hsr.into());
    }
    m
}

fn write_png(path: &Path, w: u32, h: u32, pixels: &[[u8; 4]]) -> Result<()> {
    let bytes: Vec<u8> = pixels.iter().flatten().copied().collect();
    crate::output::write_atomically(path, |tmp| {
        image::save_buffer_with_format(
            tmp,
            &bytes,
            w,
            h,
            image::ExtendedColorType::Rgba8,
            image::ImageFormat::Png,
        )
        .map_err(Into::into)
    })
}

fn summarize(
    scene: &Scene,
    args: &Args,
    r: &FrameRenderer<'_>,
    frames: &[gfxcache_render::frame::FrameSummary],
    consumed: Consumed,
    start: Instant,
) -> Output {
    let mut stats = Stats::default();
    let mut pipeline = StreamCounts::default();
    // Per pass name, in order of first appearance.
    let mut passes: Vec<(String, &'static str, Stats, StreamCounts)> = Vec::new();
    for f in frames {
        for p in &f.passes {
            add_stats(&mut stats, &p.stats);
            match passes.iter_mut().find(|x| x.0 == p.name) {
                Some(x) => add_stats(&mut x.2, &p.stats),
                None => passes.push((
                    p.name.to_string(),
                    p.kind.name(),
                    p.stats,
                    consumed.pipeline.of(p.name),
                )),
            }
        }
    }
    for (_, c) in &consumed.pipeline.per_pass {
        pipeline.merge(c);
    }
    let mut llc = StreamCounts::default();
    for (_, c) in &consumed.per_pass.per_pass {
        llc.merge(c);
    }
    let llc_of = |name: &str| consumed.per_pass.of(name);
    let mut per_pass: Vec<PassOut> = passes
        .iter()
        .map(|(name, kind, s, c)| {
            let l = llc_of(name);
            PassOut {
                name: name.clone(),
                kind,
                draws: s.draws,
                triangles_in: s.triangles_in,
                fragments_shaded: s.fragments_shaded,
                texels: s.texels,
                pipeline_accesses: c.total(),
                llc_accesses: l.total(),
                pipeline: by_stream(c),
                llc: by_stream(&l),
            }
        })
        .collect();
    let flush = llc_of("(flush)");
    if flush.total() > 0 {
        per_pass.push(PassOut {
            name: "(flush)".into(),
            kind: "other",
            draws: 0,
            triangles_in: 0,
            fragments_shaded: 0,
            texels: 0,
            pipeline_accesses: 0,
            llc_accesses: flush.total(),
            pipeline: Default::default(),
            llc: by_stream(&flush),
        });
    }
    let (width, height) = (r.config().width, r.config().height);
    let pixels = width as u64 * height as u64 * frames.len() as u64;
    // Overdraw counts the screen-sized geometry passes only (the shadow map
    // and the reflection have their own resolutions; full-screen passes
    // shade each pixel once by construction).
    let screen_shaded: u64 = passes
        .iter()
        .filter(|x| matches!(x.0.as_str(), "gbuffer" | "forward" | "transparent"))
        .map(|x| x.2.fragments_shaded)
        .sum();
    let p = r.passes();
    let on: Vec<String> = [
        ("shadow", p.shadow),
        ("reflection", p.reflection && scene.mirror.is_some()),
        ("gbuffer", p.deferred),
        ("lighting", p.deferred),
        ("forward", !p.deferred),
        ("transparent", p.transparent),
        ("post", p.post),
        ("display", true),
    ]
    .iter()
    .filter(|x| x.1)
    .map(|x| x.0.to_string())
    .collect();
    let pb = consumed.pb.unwrap_or_default();
    let tbr = match (r.tbr_stats(), r.config().tbr) {
        (Some(t), Some(c)) => Some(TbrOut {
            tile_size: c.tile_size,
            order: c.order.name(),
            fps: c.fps,
            hsr: c.hsr,
            render_passes: t.render_passes,
            tiles: t.tiles,
            quads_per_fp: t.quads_per_fp.clone(),
            texture_hit_rate_per_fp: consumed.tex_per_fp.iter().map(hit_rate).collect(),
            loaded_blocks: t.loaded_blocks,
            flushed_blocks: t.flushed_blocks,
            pb_l2_reads: pb.pb_reads,
            pb_l2_writes: pb.pb_writes,
            pb_overflow_passes: pb.pb_overflow_passes,
            hsr_hidden: t.hsr_hidden,
        }),
        _ => None,
    };
    Output {
        scene: scene.name.clone(),
        mode: args.mode.clone(),
        width,
        height,
        frames: args.frames,
        raw: args.raw,
        threads: args.threads.max(1),
        passes: on,
        triangles_in: stats.triangles_in,
        triangles_after_cull: stats.triangles_after_cull,
        fragments: stats.fragments,
        fragments_shaded: stats.fragments_shaded,
        overdraw: screen_shaded as f64 / pixels.max(1) as f64,
        texels_sampled: stats.texels,
        pipeline_accesses: pipeline.total(),
        llc_accesses: llc.total(),
        per_pass,
        pipeline: by_stream(&pipeline),
        llc: by_stream(&llc),
        render_caches: consumed
            .caches
            .iter()
            .map(|(name, s)| CacheOut {
                cache: name.clone(),
                accesses: s.accesses,
                hits: s.hits,
                misses: s.misses,
                writebacks: s.writebacks,
                hit_rate: hit_rate(s),
            })
            .collect(),
        out: args.out.as_ref().map(|p| p.display().to_string()),
        png: args.png.as_ref().map(|p| p.display().to_string()),
        seconds: start.elapsed().as_secs_f64(),
        binned: Vec::new(),
        tbr,
    }
}

fn text(o: &Output) -> String {
    // Tile-based frames go through L1s only: what leaves them is the L2's
    // request stream (the `llc` fields of the JSON).
    let level = if o.mode == "tbr" { "L2" } else { "LLC" };
    let mut s = format!(
        "scene {}  {}x{}  {}  {} frame(s)  passes: {}\n\
         triangles {} in, {} after culling; fragments {} ({} shaded, overdraw {:.2}); texels sampled {}\n\
         accesses: pipeline {}, {level} {}{}  ({:.2} s)\n\n",
        o.scene,
        o.width,
        o.height,
        o.mode,
        o.frames,
        o.passes.join(" "),
        thousands(o.triangles_in),
        thousands(o.triangles_after_cull),
        thousands(o.fragments),
        thousands(o.fragments_shaded),
        o.overdraw,
        thousands(o.texels_sampled),
        thousands(o.pipeline_accesses),
        thousands(o.llc_accesses),
        if o.raw { " (raw: trace holds the pipeline stream)" } else { "" },
        o.seconds,
    );
    let mut t = Table::new([
        "pass",
        "kind",
        "draws",
        "triangles",
        "shaded",
        "pipeline",
        level,
    ])
    .left(1);
    for p in &o.per_pass {
        t.row([
            p.name.clone(),
            p.kind.to_string(),
            thousands(p.draws),
            thousands(p.triangles_in),
            thousands(p.fragments_shaded),
            thousands(p.pipeline_accesses),
            thousands(p.llc_accesses),
        ]);
    }
    s.push_str(&t.render());
    s.push('\n');
    let (lr, lw) = (format!("{level} R"), format!("{level} W"));
    let mut t = Table::new([
        "stream",
        "pipeline R",
        "pipeline W",
        lr.as_str(),
        lw.as_str(),
    ]);
    for st in Stream::ALL {
        let p = o.pipeline.get(st.name()).copied().unwrap_or_default();
        let l = o.llc.get(st.name()).copied().unwrap_or_default();
        if p.reads + p.writes + l.reads + l.writes > 0 {
            t.row([
                st.name().to_string(),
                thousands(p.reads),
                thousands(p.writes),
                thousands(l.reads),
                thousands(l.writes),
            ]);
        }
    }
    s.push_str(&t.render());
    if !o.render_caches.is_empty() {
        s.push('\n');
        let mut t = Table::new([
            "render cache",
            "accesses",
            "hits",
            "hit rate",
            "write-backs",
        ]);
        for c in &o.render_caches {
            t.row([
                c.cache.to_string(),
                thousands(c.accesses),
                thousands(c.hits),
                percent(c.hit_rate),
                thousands(c.writebacks),
            ]);
        }
        s.push_str(&t.render());
    }
    if let Some(t) = &o.tbr {
        s.push_str(&format!(
            "\ntiles: {} in {} render passes ({}x{} pixels, {} order); blocks loaded {}, flushed {}; \
             Parameter Buffer to L2: {} reads, {} writes{}\n",
            thousands(t.tiles),
            thousands(t.render_passes),
            t.tile_size,
            t.tile_size,
            t.order,
            thousands(t.loaded_blocks),
            thousands(t.flushed_blocks),
            thousands(t.pb_l2_reads),
            thousands(t.pb_l2_writes),
            if t.pb_overflow_passes > 0 {
                format!(
                    " ({} render passes overflowed the baseline lists: interleaved layout)",
                    t.pb_overflow_passes
                )
            } else {
                String::new()
            },
        ));
        if t.hsr {
            s.push_str(&format!(
                "hidden-surface removal: {} covered pixels taken out before the depth test\n",
                thousands(t.hsr_hidden)
            ));
        }
        let mut tb = Table::new(["fragment processor", "quads", "texture hit rate"]);
        for (i, q) in t.quads_per_fp.iter().enumerate() {
            let rate = t
                .texture_hit_rate_per_fp
                .get(i)
                .map_or("-".to_string(), |r| percent(*r));
            tb.row([format!("fp{i}"), thousands(*q), rate]);
        }
        s.push_str(&tb.render());
    }
    s.push_str(&super::binned::table(&o.binned));
    for (what, f) in [("trace", &o.out), ("picture", &o.png)] {
        if let Some(f) = f {
            s.push_str(&format!("wrote {what} {f}\n"));
        }
    }
    s
}

#[cfg(test)]
mod tests;
