//! `gfxcache tcor`: the TCOR paper's study on one frame rendered tile by
//! tile (or a tile-based trace with its binned passes), or on each scene of
//! a workload suite and their mean, into a directory of report files.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use gfxcache_cache::parse_size;
use gfxcache_cache::run::Threads;
use gfxcache_mem::EnergyModel;
use gfxcache_render::scene::builtin::Suite;
use gfxcache_render::session::{Mode, RenderRequest};
use gfxcache_render::TbrConfig;
use gfxcache_tcor::{
    FetcherModel, FetcherTiming, TileBuffers, DEFAULT_FETCHER_FIFO, DEFAULT_FETCHER_MSHRS,
    DEFAULT_FETCHER_TARGETS,
};

use gfxcache_tcor::study::report::OtherL1;
use gfxcache_tcor::study::{self, paper, FetcherSweep, StudyError, TcorConfig, TcorReport};

use crate::report::suite::{run_input, SceneDir, StudyInput};
use crate::report::Print;

use super::machines::FramePlan as Plan;
use super::render::BinningArg;

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum TileBuffersArg {
    /// Tile loads and stores go to main memory (the paper's Color Buffer).
    Memory,
    /// Through the L2 like other traffic.
    L2,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FetcherArg {
    /// Up to --fetcher-mshrs blocks outstanding, primitives output in order.
    NonBlocking,
    /// A serial wait on every block read from the L2 (the model before).
    Blocking,
}

#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  gfxcache tcor --scene racer --out tcor-racer\n  gfxcache tcor --suite mobile --out tcor-mobile"
)]
#[command(group = clap::ArgGroup::new("input").required(true).args(["trace", "scene", "suite"]))]
#[command(mut_arg("fragment_processors", |a| a.help(
    "Fragment processors, each with a texture cache (default: the machine's; TCOR Table I: four, of 64 KiB each)."
)))]
pub struct Args {
    /// A tile-based trace (`render --mode tbr --out`), with --binned.
    #[arg(requires = "binned")]
    pub trace: Option<PathBuf>,
    /// The binned passes of TRACE (`render --mode tbr --binned`).
    #[arg(long)]
    pub binned: Option<PathBuf>,
    /// Render one tile-based frame of this scene (built-in name or file)
    /// and study it; the trace, binned passes and picture are kept in
    /// --out as frame.gtr, binned.json and frame.png. The options up to
    /// --no-post shape that frame.
    #[arg(long, conflicts_with = "binned")]
    pub scene: Option<String>,
    /// Study each scene of this suite in turn (into --out/<scene>/, as
    /// --scene would), then their mean, as the paper averages its games.
    /// The paper measured mobile frames.
    #[arg(long, conflicts_with = "binned", value_parser = super::suite_parser())]
    pub suite: Option<Suite>,
    /// Frames to render along the scene's camera path, played through the
    /// L2 in order (it stays warm from frame to frame).
    #[arg(long, default_value_t = 1, conflicts_with = "trace")]
    pub frames: u32,
    /// Frames, from the first, that only warm the L2 up: every figure
    /// counts the frames after them.
    #[arg(long, default_value_t = 0)]
    pub warmup: u32,
    /// The machine the study runs on: a preset (`gfxcache machines` lists
    /// them: tcor, the paper's Table I; dtm-nuca; nbtc; mali-g78) or a TOML
    /// file of the same form. It gives the screen, the tile, the fragment
    /// processors, the renderer's vertex and texture caches, the L2 (size,
    /// ways, the Tile Fetcher's wait) and the memory latency; the flags
    /// below override its values.
    #[arg(long, default_value = "tcor", value_name = "NAME|FILE")]
    pub machine: String,
    #[command(flatten)]
    pub frame: super::machines::TiledFrameArgs,
    /// Which tiles the Polygon List Builder lists a triangle in when
    /// rendering: `exact` (those where it covers a pixel centre) or `bbox`
    /// (every tile its clipped screen bounding box overlaps). A given
    /// trace says its own (in its header).
    #[arg(long, value_enum, default_value_t = BinningArg::Exact, conflicts_with = "trace")]
    pub binning: BinningArg,
    #[command(flatten)]
    pub processors: super::FragmentProcessorsArg,
    /// Pass switches when rendering, as `render` has them.
    #[command(flatten)]
    pub passes: super::render::PassSwitches,
    /// Shared L2 capacity (default: the machine's; Table I: 1 MiB).
    #[arg(long, value_name = "SIZE")]
    pub l2_size: Option<String>,
    /// Shared L2 ways (default: the machine's; Table I: 8).
    #[arg(long)]
    pub l2_ways: Option<u32>,
    /// Where tile loads and stores go.
    #[arg(long, value_enum, default_value_t = TileBuffersArg::Memory)]
    pub tile_buffers: TileBuffersArg,
    /// Tile Fetcher wait for an L2 read, in cycles (default: the machine's
    /// L2 hit time; Table I: 12).
    #[arg(long)]
    pub l2_cycles: Option<u32>,
    /// Cycles of a memory access after an L2 miss (default: the mean of
    /// the machine's latencies; Table I: 50-100, so 75).
    #[arg(long)]
    pub memory_cycles: Option<u32>,
    /// How the Tile Fetcher waits for the blocks it reads from the L2
    /// (Figures 23-24): non-blocking, with outstanding reads and primitives
    /// output in order (the paper's Tile Fetcher), or blocking (a serial
    /// wait on each, kept to compare).
    #[arg(long, value_enum, default_value_t = FetcherArg::NonBlocking)]
    pub fetcher: FetcherArg,
    /// Non-blocking Tile Fetcher: blocks outstanding at once (MSHRs). The
    /// paper gives none; ours is the L1 data cache of gem5's standard
    /// library.
    #[arg(long, default_value_t = DEFAULT_FETCHER_MSHRS)]
    pub fetcher_mshrs: u32,
    /// Non-blocking Tile Fetcher: reads one outstanding block serves (targets
    /// per MSHR; gem5's L1 data cache: 20).
    #[arg(long, default_value_t = DEFAULT_FETCHER_TARGETS)]
    pub fetcher_targets: u32,
    /// Non-blocking Tile Fetcher: primitives in flight in its temporary FIFO
    /// (ours: as many as the output queue, 12).
    #[arg(long, default_value_t = DEFAULT_FETCHER_FIFO)]
    pub fetcher_fifo: u32,
    /// The Tile Fetcher's L2 misses and the machine's DRAM banks.
    #[command(flatten)]
    pub dram: super::machine_flags::DramArgs,
    /// Figures 23-24 again, on the same L2 reads, with the non-blocking
    /// fetcher at each of these MSHR counts (and the blocking one), at each
    /// --fetcher-sweep-memory latency.
    #[arg(long, value_delimiter = ',', default_value = "1,4,16,64")]
    pub fetcher_sweep_mshrs: Vec<u32>,
    /// Memory latencies (cycles) of the Tile Fetcher sensitivity grid.
    #[arg(long, value_delimiter = ',', default_value = "50,75,100")]
    pub fetcher_sweep_memory: Vec<u32>,
    /// Skip the Tile Fetcher sensitivity grid (Figures 23-24 at each
    /// --fetcher-sweep-mshrs count and --fetcher-sweep-memory latency).
    #[arg(long, conflicts_with_all = ["fetcher_sweep_mshrs", "fetcher_sweep_memory"])]
    pub no_fetcher_sweep: bool,
    /// Primitives TCOR's Tile Fetcher output queue holds for the Rasterizer.
    /// A primitive's Attribute Cache line stays locked (unevictable) while it
    /// waits there, and a read that finds every candidate locked stalls until
    /// the Rasterizer takes one; 0: the Rasterizer takes each primitive at
    /// once and nothing is locked. Used in the runs through the L2 and in the
    /// miss-ratio curves. The paper gives no size; the default is ATTILA's
    /// Rasterizer input (Triangle Setup) FIFO, 12 triangles.
    #[arg(long, default_value_t = gfxcache_tcor::DEFAULT_OUTPUT_QUEUE_DEPTH)]
    pub queue_depth: usize,
    /// Attribute Cache sizes of the miss-ratio curves (Figures 1, 11-13).
    #[arg(
        long,
        value_name = "SIZES",
        value_delimiter = ',',
        default_value = "4KiB,8KiB,16KiB,32KiB,48KiB,64KiB,112KiB,128KiB,256KiB,512KiB,1MiB,2MiB,4MiB"
    )]
    pub sizes: Vec<String>,
    /// Misses within this fraction of the lower bound count as reaching it.
    #[arg(long, default_value_t = 0.01, allow_negative_numbers = true)]
    pub tolerance: f64,
    /// A JSON file with the energy model's fields (see tcor.json's
    /// `energy_model` for the defaults).
    #[arg(long)]
    pub energy: Option<PathBuf>,
    /// Directory for tcor.json, the CSV files, the SVG plots and index.html.
    #[arg(long, default_value = "tcor")]
    pub out: PathBuf,
    /// Print tcor.json on stdout (and nothing else) instead of a summary.
    #[arg(long)]
    pub json: bool,
    /// Print nothing on stdout: set by callers that read the report's
    /// files (a sweep's jobs, Python), never a flag.
    #[arg(skip)]
    pub quiet: bool,
    /// Render, decode and simulate on the calling thread only; results are
    /// identical.
    #[arg(long)]
    pub single_thread: bool,
}

fn config(args: &Args, plan: &Plan) -> Result<TcorConfig> {
    let m = &plan.machine;
    let l2 =
        m.l2.as_ref()
            .with_context(|| format!("--machine {}: no [l2]: the TCOR study needs one", m.name))?;
    let l2_bytes = match &args.l2_size {
        Some(s) => parse_size(s).context("--l2-size")?,
        None => l2.bytes.value.0,
    };
    let latencies = &m.memory.latency_cycles.value;
    let memory = latencies.iter().sum::<u32>() / latencies.len().max(1) as u32;
    let mut sizes = args
        .sizes
        .iter()
        .map(|s| parse_size(s).with_context(|| format!("--sizes: '{s}'")))
        .collect::<Result<Vec<u64>>>()?;
    sizes.sort_unstable();
    sizes.dedup();
    let energy = match &args.energy {
        Some(p) => read_energy(p)?,
        None => EnergyModel::mobile(),
    };
    Ok(TcorConfig {
        l2_bytes,
        l2_ways: args.l2_ways.unwrap_or(l2.ways.value),
        tile_buffers: match args.tile_buffers {
            TileBuffersArg::Memory => TileBuffers::Memory,
            TileBuffersArg::L2 => TileBuffers::L2,
        },
        timing: FetcherTiming {
            model: match args.fetcher {
                FetcherArg::NonBlocking => FetcherModel::NonBlocking,
                FetcherArg::Blocking => FetcherModel::Blocking,
            },
            l2_cycles: args.l2_cycles.unwrap_or(l2.hit_cycles.value),
            memory_cycles: args.memory_cycles.unwrap_or(memory),
            mshrs: args.fetcher_mshrs,
            targets_per_mshr: args.fetcher_targets,
            fifo_entries: args.fetcher_fifo,
            dram_banks: args.dram.banks(m.memory.dram.value, m.gpu.clock_mhz.value),
        },
        fetcher_sweep: if args.no_fetcher_sweep {
            FetcherSweep::none()
        } else {
            FetcherSweep {
                mshrs: args.fetcher_sweep_mshrs.clone(),
                memory_cycles: args.fetcher_sweep_memory.clone(),
            }
        },
        sizes,
        tolerance: args.tolerance,
        energy,
        queue_depth: args.queue_depth,
        warmup: args.warmup,
        threads: Threads::single_if(args.single_thread),
        machine: Some(m.clone()),
    })
}

/// A study error, a setting named by the flag that sets it.
fn flagged(e: StudyError) -> anyhow::Error {
    match e {
        StudyError::Config { field, what } => anyhow::anyhow!("{}: {what}", flag(field)),
        e => e.into(),
    }
}

/// The flag that sets a [`TcorConfig`] field.
fn flag(field: &str) -> &'static str {
    match field {
        "sizes" => "--sizes",
        "tolerance" => "--tolerance",
        "l2" => "--l2-size/--l2-ways",
        "energy" => "--energy",
        "warmup" => "--warmup",
        "queue_depth" => "--queue-depth",
        "timing.l2_cycles" => "--l2-cycles",
        "timing.memory_cycles" => "--memory-cycles",
        "timing.mshrs" => "--fetcher-mshrs",
        "timing.targets_per_mshr" => "--fetcher-targets",
        "timing.fifo_entries" => "--fetcher-fifo",
        "fetcher_sweep.mshrs" => "--fetcher-sweep-mshrs",
        "fetcher_sweep.memory_cycles" => "--fetcher-sweep-memory",
        _ => "a setting",
    }
}

fn read_energy(path: &Path) -> Result<EnergyModel> {
    let text = super::read_settings("--energy", path)?;
    let m: EnergyModel = serde_json::from_str(&text).with_context(|| {
        format!(
            "{}: expected an energy model (sram_ref_pj, sram_ref_bytes, sram_exponent, dram_read_pj, dram_write_pj)",
            path.display()
        )
    })?;
    m.check()
        .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    Ok(m)
}

/// The machine, the frame and the study's configuration from `args`,
/// every setting checked, and, when a frame is to be rendered
/// (`--scene`, `--suite`), its request and warm-up: all `run` checks
/// before anything renders or reads a trace, and all [`check`] does.
fn prepare(args: &Args) -> Result<(Plan, TcorConfig)> {
    let plan = args.frame.plan(&args.machine, args.processors.given())?;
    let config = config(args, &plan)?;
    config.check().map_err(flagged)?;
    if args.trace.is_none() {
        super::check_warmup(args.warmup, args.frames)?;
        request(args, &plan)?
            .check()
            .context("the frame to render")?;
    }
    Ok((plan, config))
}

/// Whether `args` would run, without rendering or reading a trace
/// ([`prepare`]).
pub fn check(args: &Args) -> Result<()> {
    prepare(args).map(drop)
}

pub fn run(args: Args) -> Result<()> {
    let (plan, config) = prepare(&args)?;
    let others = [&args.binned, &args.energy].into_iter().flatten();
    let input = StudyInput::new(
        args.trace.as_deref(),
        others.map(PathBuf::as_path),
        args.scene.as_deref(),
        args.suite.map(|s| super::suite_of(s, paper::SUITE)),
    );
    run_input(
        &args.out,
        input,
        Print::of(args.json, args.quiet),
        |trace, progress| match &args.binned {
            Some(b) => Ok(study::run(trace, b, &config, &[], progress).map_err(flagged)?),
            None => bail!("give a TRACE with --binned, --scene or --suite"),
        },
        |at, progress| study_scene(&args, &plan, &config, at, progress),
    )
}

/// Renders `at.scene` tile by tile into its directory and studies it.
fn study_scene(
    args: &Args,
    plan: &Plan,
    config: &TcorConfig,
    at: &SceneDir,
    progress: gfxcache_cache::ProgressFn<'_>,
) -> Result<TcorReport> {
    let start = std::time::Instant::now();
    let (trace, binned, other_l1) = render(args, plan, at.scene, at.staged)?;
    let render_seconds = start.elapsed().as_secs_f64();
    let mut report = study::run(&trace, &binned, config, &other_l1, progress).map_err(flagged)?;
    report.seconds.insert("render".into(), render_seconds);
    // The files' paths once the report is in place.
    report.trace = at.placed.join("frame.gtr").display().to_string();
    report.binned = at.placed.join("binned.json").display().to_string();
    Ok(report)
}

/// Renders the tile-based frame into `dir` (the staged `--out`, or a
/// scene's directory in it): the trace, the binned passes, and the L1s
/// outside the Tiling Engine for the energy model.
fn render(
    args: &Args,
    plan: &Plan,
    scene: &str,
    dir: &Path,
) -> Result<(PathBuf, PathBuf, Vec<OtherL1>)> {
    let trace = dir.join("frame.gtr");
    let binned = dir.join("binned.json");
    let request = request(args, plan)?;
    let files = super::render::Files {
        trace: Some(trace.clone()),
        png: Some(dir.join("frame.png")),
        texture_requests: None,
        binned: Some(binned.clone()),
    };
    let scene = super::render::load_scene(scene)?;
    let done = super::render::render_to_files(&scene, &request, &files)?;
    let shapes = super::machines::tbr_caches(&plan.machine, plan.fps)
        .map_err(|e| anyhow::anyhow!("--machine: {e}"))?;
    let l1 = done
        .summary
        .render_caches
        .into_iter()
        .map(|c| OtherL1 {
            bytes: if c.cache == "vertex" {
                shapes.vertex.bytes
            } else {
                shapes.texture.bytes
            },
            name: c.cache,
            accesses_per_frame: c.accesses_per_frame,
        })
        .collect();
    Ok((trace, binned, l1))
}

/// The tile-based frame `--scene` or `--suite` renders, with its binned
/// passes, through the machine's L1s.
fn request(args: &Args, plan: &Plan) -> Result<RenderRequest> {
    let tbr = TbrConfig {
        tile_size: plan.tile_size,
        order: args.frame.order.into(),
        fps: plan.fps,
        hsr: args.frame.hsr(&plan.machine),
        binning_mode: args.binning.into(),
        ..TbrConfig::default()
    };
    Ok(RenderRequest {
        width: plan.width,
        height: plan.height,
        frames: args.frames,
        passes: args.passes.into(),
        binning: Some(tbr.binning()),
        threads: if args.single_thread { 1 } else { 2 },
        tbr_caches: Some(
            super::machines::tbr_caches(&plan.machine, plan.fps)
                .map_err(|e| anyhow::anyhow!("--machine: {e}"))?,
        ),
        ..RenderRequest::new(Mode::Tbr(tbr))
    })
}
