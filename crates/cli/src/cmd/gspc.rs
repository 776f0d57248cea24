//! `gfxcache gspc`: the GSPC paper's whole LLC study on one frame, rendered
//! from a scene or read from a trace, or on each scene of a workload suite
//! and their mean, into a directory of report files.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use gfxcache_cache::run::Threads;
use gfxcache_cache::{format_size, parse_size};
use gfxcache_llc::study::{self, machines, paper, GspcConfig, GspcReport, TimelineConfig};
use gfxcache_machine::Machine;
use gfxcache_render::scene::builtin::Suite;
use gfxcache_render::session::{Mode, RenderRequest};

use crate::report::suite::{run_input, SceneDir, StudyInput};
use crate::report::Print;

#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  gfxcache gspc --scene atrium --out gspc-atrium\n  gfxcache gspc --suite desktop --width 1280 --height 720 --out gspc-desktop\n  gfxcache gspc frame.gtr --size 4MiB --big-size none --out gspc-frame"
)]
#[command(group = clap::ArgGroup::new("input").required(true).args(["trace", "scene", "suite"]))]
pub struct Args {
    /// An LLC trace to study: .gtr, .csv, .din, .oracleGeneral or
    /// .oracleGeneral.bin, each optionally .zst-compressed.
    pub trace: Option<PathBuf>,
    /// Render one frame of this scene (built-in name or file) and study it;
    /// the trace and picture are kept in --out as frame.gtr and frame.png.
    #[arg(long)]
    pub scene: Option<String>,
    /// Study each scene of this suite in turn (into --out/<scene>/, as
    /// --scene would), then their mean, as the paper averages its
    /// applications. The paper measured desktop frames.
    #[arg(long, value_parser = super::suite_parser())]
    pub suite: Option<Suite>,
    /// Frames to render along the scene's camera path, played through the
    /// caches in order (they stay warm from frame to frame).
    #[arg(long, default_value_t = 1, conflicts_with = "trace")]
    pub frames: u32,
    /// Frames, from the first, that only warm the caches up: every figure
    /// counts the frames after them (each frame is timed on its own).
    #[arg(long, default_value_t = 0)]
    pub warmup: u32,
    /// The machine the study runs on: a preset (`gfxcache machines` lists
    /// them: gspc, the paper's Section 4) or a TOML file of the same form.
    /// It gives the screen, the render caches the frames are rendered
    /// through, the LLC (size, ways, block, banks, clock and latencies),
    /// the GPU front of the frame time (cores, threads, samplers, work
    /// between accesses) and the DRAM; the flags below override its values.
    #[arg(long, default_value = "gspc", value_name = "NAME|FILE")]
    pub machine: String,
    /// Screen width of the rendered frames (default: the machine's).
    #[arg(long)]
    pub width: Option<u32>,
    /// Screen height of the rendered frames (default: the machine's).
    #[arg(long)]
    pub height: Option<u32>,
    /// LLC capacity of the main study (default: the machine's LLC, `l2`).
    #[arg(long, value_name = "SIZE")]
    pub size: Option<String>,
    /// A second capacity for Figure 16 (Table 6 policies and OPT only);
    /// default twice --size; `none` to skip it.
    #[arg(long, value_name = "SIZE|none")]
    pub big_size: Option<String>,
    /// LLC ways (default: the machine's; the paper: 16).
    #[arg(long)]
    pub ways: Option<u32>,
    /// LLC block bytes (default: the machine's; the paper: 64).
    #[arg(long)]
    pub block: Option<u32>,
    /// LLC banks (default: the machine's; the paper: 4); per-bank policy
    /// state depends on it.
    #[arg(long)]
    pub banks: Option<u32>,
    /// Shader cycles a GPU thread context works between two of its LLC
    /// accesses, in the frame-time model (default: the machine's
    /// `frame_time.work_cycles`; an assumption: traces carry no
    /// instruction counts; see ARCHITECTURE.md).
    #[arg(long)]
    pub work_cycles: Option<u32>,
    /// Directory for gspc.json, the CSV files, the SVG plots and index.html.
    #[arg(long, default_value = "gspc")]
    pub out: PathBuf,
    /// Print gspc.json on stdout (and nothing else) instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Print nothing on stdout: set by callers that read the report's
    /// files (a sweep's jobs, Python), never a flag.
    #[arg(skip)]
    pub quiet: bool,
    /// Decode and simulate on the calling thread only; results are identical.
    #[arg(long)]
    pub single_thread: bool,
    /// Runs at --size that keep a timeline of what they learn pass by pass
    /// (counters such as GSPC's PROD and CONS, and the insertion RRPVs of
    /// render-target, texture and Z fills), comma-separated policy specs of
    /// the study; `--timeline none` for none.
    #[arg(long, value_delimiter = ',', default_value = "gspc,drrip,gspztc-tse")]
    pub timeline: Vec<String>,
    /// Trace accesses between two timeline points (a point is also taken at
    /// every pass start and frame end).
    #[arg(long, default_value_t = 32768)]
    pub timeline_step: u64,
    #[command(flatten)]
    pub passes: super::render::PassSwitches,
}

/// The study's configuration from `args`, every setting checked, and,
/// when frames are to be rendered (`--scene`, `--suite`), the frames'
/// request and warm-up: all `run` checks before anything renders or
/// reads a trace, and all [`check`] does.
fn config(args: &Args) -> Result<GspcConfig> {
    let described = Machine::resolve(&args.machine).context("--machine")?;
    let mut base = study::baseline(&described).context("--machine")?;
    // `baseline` has required it.
    let llc = described
        .require(described.l2.as_ref(), "l2", "the GSPC study's LLC is it")
        .context("--machine")?;
    let main = match &args.size {
        Some(s) => parse_size(s)?,
        None => llc.bytes.value.0,
    };
    let mut sizes = vec![main];
    match args.big_size.as_deref() {
        Some("none") => {}
        Some(s) => sizes.push(parse_size(s)?),
        None => sizes.push(main.saturating_mul(2)),
    }
    if let Some(w) = args.work_cycles {
        base.gpu.work_cycles = w;
    }
    let config = GspcConfig {
        sizes,
        ways: args.ways.unwrap_or(llc.ways.value),
        block: args.block.unwrap_or(llc.block.value),
        banks: args.banks.unwrap_or(llc.banks.value),
        machines: machines(&base),
        description: Some(described),
        warmup: args.warmup,
        timeline: TimelineConfig {
            policies: args
                .timeline
                .iter()
                .filter(|p| *p != "none")
                .cloned()
                .collect(),
            step: args.timeline_step,
        },
        threads: Threads::single_if(args.single_thread),
    };
    // Every size must make a cache of this shape before anything runs; a
    // repeated size is named by its flags.
    if config.sizes.len() == 2 && config.sizes[0] == config.sizes[1] {
        config
            .geometry(main)
            .with_context(|| format!("an LLC of {}", format_size(main)))?;
        bail!("--big-size equals --size ({})", format_size(main));
    }
    config.check()?;
    if args.trace.is_none() {
        super::check_warmup(args.warmup, args.frames)?;
        request(args, &config)?
            .check()
            .context("the frames to render")?;
    }
    Ok(config)
}

/// Whether `args` would run, without rendering or reading a trace
/// ([`config`]).
pub fn check(args: &Args) -> Result<()> {
    config(args).map(drop)
}

pub fn run(args: Args) -> Result<()> {
    let config = config(&args)?;
    let input = StudyInput::new(
        args.trace.as_deref(),
        [],
        args.scene.as_deref(),
        args.suite.map(|s| super::suite_of(s, paper::SUITE)),
    );
    run_input(
        &args.out,
        input,
        Print::of(args.json, args.quiet),
        |trace, progress| {
            let mut report = study::run(trace, &config, progress)?;
            report.warnings.extend(trace_caches(&config));
            Ok(report)
        },
        |at, progress| study_scene(&args, &config, at, progress),
    )
}

/// What a study of a given trace should say of its render caches: they are
/// the ones that made the trace (`gfxcache render`'s are the GSPC paper's),
/// so a machine whose render caches differ does not apply them.
fn trace_caches(config: &GspcConfig) -> Option<String> {
    let machine = config.description.as_ref()?;
    let theirs = super::machines::imr_caches(machine).ok();
    (theirs != Some(gfxcache_render::RenderCacheConfig::default())).then(|| {
        format!(
            "the trace's render caches are those that made it: machine {}'s render caches \
             (render_caches, texture_cache) apply only to frames gspc renders (--scene, --suite)",
            machine.name
        )
    })
}

/// Renders the frames of `at.scene` into its directory and studies them.
fn study_scene(
    args: &Args,
    config: &GspcConfig,
    at: &SceneDir,
    progress: gfxcache_cache::ProgressFn<'_>,
) -> Result<GspcReport> {
    let start = std::time::Instant::now();
    let trace = render(args, config, at.scene, at.staged)?;
    let render_seconds = start.elapsed().as_secs_f64();
    let mut report = study::run(&trace, config, progress)?;
    report.seconds.insert("render".into(), render_seconds);
    // The frame's path once the report is in place.
    report.trace = at.placed.join("frame.gtr").display().to_string();
    Ok(report)
}

/// Renders the frames into `dir` (the staged `--out`, or a scene's
/// directory in it), returning the trace's path.
fn render(args: &Args, config: &GspcConfig, scene: &str, dir: &Path) -> Result<PathBuf> {
    let trace = dir.join("frame.gtr");
    let request = request(args, config)?;
    let files = super::render::Files {
        trace: Some(trace.clone()),
        png: Some(dir.join("frame.png")),
        texture_requests: None,
        binned: None,
    };
    super::render::render_to_files(&super::render::load_scene(scene)?, &request, &files)?;
    Ok(trace)
}

/// The frames `--scene` or `--suite` renders: at the machine's screen
/// unless the flags say otherwise, through its render caches.
fn request(args: &Args, config: &GspcConfig) -> Result<RenderRequest> {
    let machine = config
        .description
        .as_ref()
        .expect("the gspc command's configuration describes its machine");
    let [w, h] = machine.gpu.screen.value;
    Ok(RenderRequest {
        width: args.width.unwrap_or(w),
        height: args.height.unwrap_or(h),
        frames: args.frames,
        threads: if args.single_thread { 1 } else { 2 },
        passes: args.passes.into(),
        imr_caches: Some(super::machines::imr_caches(machine).context("--machine")?),
        ..RenderRequest::new(Mode::Imr)
    })
}
