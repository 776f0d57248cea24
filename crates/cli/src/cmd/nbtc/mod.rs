//! `gfxcache nbtc`: the NBTC slides' study on one tile-based frame per
//! filter mode (or on a given texture request file), or on each scene of
//! a workload suite and their mean, into a directory of report files.
//!
//! Rendering a scene makes one frame per `--filters` mode, forced on the
//! frame's filtered texture reads (`RenderRequest::texture_filter`, as
//! `render --texture-filter` does; exact loads stay exact) into
//! `<filter>.gtq.zst`, and the first's picture into `<filter>.png`, with `--pixel-processors` fragment processors (the
//! slides' 8 pixel processors); the study (`gfxcache_nbtc::study`) replays
//! each through every design at every latency. The machine (`--machine`,
//! the `nbtc` preset by default) gives the screen, the tile, the pixel
//! processors and the latencies ([`Plan`]); the texture unit is
//! `NbtcConfig::default()` on the machine, then `--unit F.json`'s fields,
//! then the flags (`unit.rs`; the sweeps' flags: `sweeps.rs`); every
//! setting is checked, naming its flag, before anything is rendered.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use gfxcache_cache::run::Threads;
use gfxcache_machine::Machine;
use gfxcache_mem::DramPreset;
use gfxcache_nbtc::study::{self, paper, FilterFrame, NbtcReport, NbtcStudyConfig};
use gfxcache_nbtc::{Mode, NbtcConfig};
use gfxcache_nuca::OrgKind;
use gfxcache_render::frame::FilterOverride;
use gfxcache_render::scene::builtin::Suite;
use gfxcache_render::session::{Mode as RenderMode, RenderRequest};
use gfxcache_render::{FpAssignment, TbrConfig};

use crate::report::suite::{run_input, SceneDir, StudyInput};
use crate::report::Print;

use super::render::{parse_fp_assignment, TextureFilterArg};

mod sweeps;
mod unit;

use sweeps::sweeps;
use unit::{check_unit, unit};

/// Where the units' blocks come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum MemoryArg {
    /// Each unit its own path: the latency alone (the slides').
    Private,
    /// One LPDDR3-1600 the units share (ours).
    Shared,
}

/// A DRAM preset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum DramArg {
    /// Two 32-bit LPDDR3-1600 channels (the mobile studies').
    #[value(name = "lpddr3-1600")]
    Lpddr3_1600,
    /// Two 64-bit DDR3-1600 channels, 15-15-15 (GSPC's baseline).
    #[value(name = "ddr3-1600")]
    Ddr3_1600,
    /// Two 64-bit DDR3-1867 channels, 10-10-10.
    #[value(name = "ddr3-1867")]
    Ddr3_1867,
}

impl DramArg {
    pub(crate) fn preset(self) -> DramPreset {
        match self {
            DramArg::Lpddr3_1600 => DramPreset::Lpddr3_1600,
            DramArg::Ddr3_1600 => DramPreset::Ddr3_1600,
            DramArg::Ddr3_1867 => DramPreset::Ddr3_1867,
        }
    }
}

/// A texture cache design.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ModeArg {
    /// The blocking cache, a request's missing blocks fetched one after
    /// another (the baseline; always run).
    Btc,
    /// The blocking cache, a request's missing blocks fetched at once.
    BtcParallel,
    /// The non-blocking texture cache.
    Nbtc,
    /// A conventional non-blocking cache (gem5/Emerald): --mshrs x
    /// --mshr-targets.
    Mshr,
    /// Igehy's prefetching texture cache (GPGPU-Sim's tex_cache):
    /// --fragment-fifo, --request-fifo, --rob.
    Prefetching,
}

impl ModeArg {
    /// The design with its default sizes.
    pub fn mode(self) -> Mode {
        match self {
            ModeArg::Btc => Mode::BTC,
            ModeArg::BtcParallel => Mode::Blocking { serial: false },
            ModeArg::Nbtc => Mode::Nbtc,
            ModeArg::Mshr => Mode::mshr(),
            ModeArg::Prefetching => Mode::prefetching(),
        }
    }
}

#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  gfxcache nbtc --scene racer --out nbtc-racer\n  gfxcache nbtc --suite mobile --latencies 50,300 --no-sweeps --out nbtc-mobile"
)]
#[command(group = clap::ArgGroup::new("input").required(true).args(["requests", "scene", "suite"]))]
pub struct Args {
    /// A tile-based frame's texture requests (`render --mode tbr
    /// --texture-requests`), studied as rendered (filter `as-authored`).
    pub requests: Option<PathBuf>,
    /// Render one tile-based frame of this scene (built-in name or file)
    /// per --filters mode and study them; the frames are kept in --out.
    #[arg(long)]
    pub scene: Option<String>,
    /// Study each scene of this suite in turn (into --out/<scene>/), then
    /// their mean. The slides measured a mobile benchmark (Taiji).
    #[arg(long, value_parser = super::suite_parser())]
    pub suite: Option<Suite>,
    /// The filter modes to render a frame in, each forced on the frame's
    /// filtered texture reads as `render --texture-filter` forces it (the
    /// slides: nearest, bilinear and trilinear; `as-authored` for the
    /// samplers' own).
    /// (Default: nearest,bilinear,trilinear; with --placements, one
    /// frame: bilinear.)
    #[arg(long, value_enum, value_delimiter = ',', conflicts_with = "requests")]
    pub filters: Vec<TextureFilterArg>,
    /// The machine the study runs on: a preset (`gfxcache machines` lists
    /// them: nbtc, the slides'; dtm-nuca; tcor; mali-g78) or a TOML file of
    /// the same form. It gives the screen, the tile, the pixel processors
    /// (their count, fragments in flight and issue model), the L1 and its
    /// hit time, the filter time, the latencies and the shared DRAM; the
    /// flags below override its values.
    #[arg(long, default_value = "nbtc", value_name = "NAME|FILE")]
    pub machine: String,
    #[command(flatten)]
    pub frame: super::machines::TiledFrameArgs,
    /// Pixel processors, each with its texture unit (default: the machine's; the
    /// slides: 8); the tile-based renderer's fragment processors.
    #[arg(long)]
    pub pixel_processors: Option<u16>,
    /// How a tile's quads reach the pixel processors when rendering:
    /// `round-robin`, `blocks[:SIDE]` or `tiles` (see `render --help`).
    #[arg(long, default_value = "round-robin", value_parser = parse_fp_assignment)]
    pub fp_assignment: FpAssignment,
    #[command(flatten)]
    pub passes: super::render::PassSwitches,
    /// A JSON file of texture unit settings (any fields of `nbtc.json`'s
    /// `unit` but `mode` and `memory_latency`, which are each run's:
    /// --modes and --latencies), e.g. `{"field_bits": {"coordinate": 11}}`
    /// for the widths behind the buffers' storage cost. It overrides the
    /// machine's; the flags below override it.
    #[arg(long, value_name = "F.json")]
    pub unit: Option<PathBuf>,
    /// L1 texture cache size (default: the machine's; the slides: 32KiB).
    #[arg(long, value_name = "SIZE")]
    pub l1_size: Option<String>,
    /// L1 texture cache ways (default: the machine's; the slides: 4).
    #[arg(long)]
    pub l1_ways: Option<u32>,
    /// L1 block bytes (default: the machine's; the slides: 32).
    #[arg(long)]
    pub block_bytes: Option<u32>,
    /// Retry Buffer entries (default: --unit's, else the slides' 32).
    #[arg(long)]
    pub rb_entries: Option<u32>,
    /// Waiting List Buffer entries (default: --unit's, else the slides'
    /// 32).
    #[arg(long)]
    pub wlb_entries: Option<u32>,
    /// Block Address Buffer entries (default: --unit's, else the slides'
    /// 32).
    #[arg(long)]
    pub bab_entries: Option<u32>,
    /// A miss during a block's fetch does not find its sent BAB entry and
    /// sends the block again; the sent entry keeps its BAB room until the
    /// block returns (ours: the miss joins the sent entry).
    #[arg(long)]
    pub bab_forgets_sent: bool,
    /// Cycles of a lookup that hits (default: the machine's texture cache hit
    /// time; nbtc: 1, ours).
    #[arg(long)]
    pub hit_latency: Option<u64>,
    /// Cycles of the texture filter (default: the machine's; nbtc: 4, ours).
    #[arg(long)]
    pub filter_latency: Option<u64>,
    /// The pixel processors' issue rates in percent of the machine's
    /// (its issue model's every rate scaled; default 100); 0: shading
    /// takes no time.
    #[arg(long, value_name = "PERCENT")]
    pub issue_rate: Option<u32>,
    /// Fragments a pixel processor keeps in flight (default: the machine's
    /// threads; nbtc: 128, Mali-400's).
    #[arg(long)]
    pub fragments_in_flight: Option<u32>,
    /// The MSHR cache's MSHRs (default 32, ours: the BAB's entries).
    #[arg(long)]
    pub mshrs: Option<u32>,
    /// Targets per MSHR of the MSHR cache (default 20, gem5's).
    #[arg(long)]
    pub mshr_targets: Option<u32>,
    /// The prefetching cache's fragment FIFO entries (default 128,
    /// GPGPU-Sim's Fermi).
    #[arg(long)]
    pub fragment_fifo: Option<u32>,
    /// The prefetching cache's request FIFO entries (default 4, GPGPU-Sim's
    /// Fermi).
    #[arg(long)]
    pub request_fifo: Option<u32>,
    /// The prefetching cache's reorder buffer entries (default 128,
    /// GPGPU-Sim's Fermi).
    #[arg(long)]
    pub rob: Option<u32>,
    /// Each unit's own memory path (`private`, the slides'; default:
    /// --unit's, else private) or one DRAM the units share (`shared`,
    /// ours: LPDDR3-1600; a block also waits for its bank and bus behind
    /// every unit's requests).
    #[arg(long, value_enum)]
    pub memory: Option<MemoryArg>,
    /// The units' clock in MHz on a shared memory, which turns DRAM time
    /// into cycles (default: the machine's; nbtc: 500, ours).
    #[arg(long, value_name = "MHZ")]
    pub memory_clock_mhz: Option<u32>,
    /// The DRAM the units share (default: the machine's; nbtc: lpddr3-1600, ours).
    #[arg(long, value_enum)]
    pub memory_dram: Option<DramArg>,
    /// Memory latencies in cycles (default: the machine's; the slides: 50, 100,
    /// 200, 300); 0 adds the ideal memory, a block filled at its lookup,
    /// where every design is the same (the zero-latency bound).
    #[arg(long, value_delimiter = ',')]
    pub latencies: Option<Vec<u64>>,
    /// Put each pixel processor's L1 in these placements of the GPU
    /// machine's texture caches instead of its own L1 and memory path
    /// (private, d-nuca, dtm-nuca, dtm-nuca-dist, s-nuca, ideal-shared)
    /// and run the designs there: `gfxcache compose --placements P` with
    /// this command's machine (it needs an L2: `--machine dtm-nuca`),
    /// unit settings and --modes, a request a pixel's sample as this
    /// study takes them, on one frame (one of --filters), into compose's
    /// report (`compose.json`).
    #[arg(
        long,
        value_delimiter = ',',
        value_parser = super::compose::parse_placement,
        conflicts_with_all = OWN_MEMORY_ONLY
    )]
    pub placements: Vec<OrgKind>,
    /// The designs (the BTC is the baseline and is run whether listed or
    /// not).
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        default_value = "btc,btc-parallel,nbtc,mshr,prefetching"
    )]
    pub modes: Vec<ModeArg>,
    /// Sweep values of the Waiting List Buffer's entries (`none` for no
    /// sweep; default 1,2,4,8,16,32,64).
    #[arg(long, value_delimiter = ',')]
    pub sweep_wlb: Option<Vec<String>>,
    /// Sweep values of the Block Address Buffer's entries (default
    /// 8,16,32,64).
    #[arg(long, value_delimiter = ',')]
    pub sweep_bab: Option<Vec<String>>,
    /// Sweep values of whether the BAB keeps a sent block until its fill:
    /// 1 keeps it, 0 forgets it (default 1,0).
    #[arg(long, value_delimiter = ',')]
    pub sweep_bab_merges: Option<Vec<String>>,
    /// Sweep values of the Retry Buffer's entries (default 4,8,16,32,64).
    #[arg(long, value_delimiter = ',')]
    pub sweep_rb: Option<Vec<String>>,
    /// Sweep values of the block bytes (default 16,32,64,128).
    #[arg(long, value_delimiter = ',')]
    pub sweep_block: Option<Vec<String>>,
    /// Sweep values of the hit latency (default 1,2,4).
    #[arg(long, value_delimiter = ',')]
    pub sweep_hit: Option<Vec<String>>,
    /// Sweep values of the filter latency (default 1,4,8).
    #[arg(long, value_delimiter = ',')]
    pub sweep_filter_latency: Option<Vec<String>>,
    /// Sweep values of the issue rates, percent of the machine's
    /// (default 0,25,50,100,200,400; 0: shading takes no time).
    #[arg(long, value_delimiter = ',')]
    pub sweep_issue_rate: Option<Vec<String>>,
    /// Sweep values of the fragments in flight (default 1,8,32,128).
    #[arg(long, value_delimiter = ',')]
    pub sweep_fragments: Option<Vec<String>>,
    /// Sweep values of whether the units share one DRAM: 0 private paths,
    /// 1 shared (default 0,1).
    #[arg(long, value_delimiter = ',')]
    pub sweep_shared_memory: Option<Vec<String>>,
    /// The memory latency of the sweeps (default: the longest of
    /// --latencies, the slides' 300 on the nbtc machine).
    #[arg(long)]
    pub sweep_latency: Option<u64>,
    /// The frame the sweeps run on (default bilinear, or the first of
    /// --filters without it; a given frame's is `as-authored`).
    #[arg(long, value_enum)]
    pub sweep_on: Option<TextureFilterArg>,
    /// Skip the sweeps of the texture unit's knobs (every --sweep-* flag's
    /// values).
    #[arg(long)]
    pub no_sweeps: bool,
    /// Directory for nbtc.json, the CSV files, the SVG plots and
    /// index.html (and the frames rendered).
    #[arg(long, default_value = "nbtc")]
    pub out: PathBuf,
    /// Print nbtc.json on stdout (and nothing else) instead of a summary.
    #[arg(long)]
    pub json: bool,
    /// Print nothing on stdout: set by callers that read the report's
    /// files (a sweep's jobs, Python), never a flag.
    #[arg(skip)]
    pub quiet: bool,
    /// Render and replay on the calling thread only; results are
    /// identical.
    #[arg(long)]
    pub single_thread: bool,
}

/// The flags of the units' own L1 and memory path, and of the study's
/// latencies and sweeps on it, which a placement (`--placements`) does
/// not take: the machine's texture caches, L2 and DRAM are the L1 and
/// memory there.
const OWN_MEMORY_ONLY: [&str; 19] = [
    "l1_size",
    "l1_ways",
    "block_bytes",
    "memory",
    "memory_clock_mhz",
    "memory_dram",
    "latencies",
    "fp_assignment",
    "sweep_wlb",
    "sweep_bab",
    "sweep_bab_merges",
    "sweep_rb",
    "sweep_block",
    "sweep_hit",
    "sweep_filter_latency",
    "sweep_issue_rate",
    "sweep_fragments",
    "sweep_shared_memory",
    "sweep_latency",
];

/// `gfxcache compose`'s arguments for `--placements`: the designs (the
/// BTC first, the baseline) under each placement, with this command's
/// machine, texture unit and designs, a request a pixel's sample, on the
/// one frame of --filters (bilinear by default).
pub fn composed(args: &Args) -> Result<super::compose::Args> {
    let plan = Plan::of(args)?;
    if plan.machine.l2.is_none() {
        bail!(
            "--placements: machine {} has no [l2]: a placement's texture caches share the GPU machine's L2 (give --machine dtm-nuca, or a machine file with an [l2])",
            plan.machine.name
        );
    }
    let filter = match args.filters[..] {
        [] => TextureFilterArg::Bilinear,
        [one] => one,
        _ => bail!("--placements studies one frame: give one filter with --filters"),
    };
    let unit = unit(args, &plan.machine)?;
    let mut designs = vec![Mode::BTC];
    for m in modes(args) {
        if !designs.contains(&m) {
            designs.push(m);
        }
    }
    Ok(super::compose::Args {
        requests: args.requests.clone(),
        scene: args.scene.clone(),
        suite: args.suite,
        machine: args.machine.clone(),
        frame: args.frame.clone(),
        processors: super::FragmentProcessorsArg {
            fragment_processors: args.pixel_processors,
            fps: None,
        },
        filter,
        passes: args.passes,
        config: None,
        unit: args.unit.clone(),
        bus: Default::default(),
        dram: Default::default(),
        l2: Default::default(),
        sync: Default::default(),
        trace: None,
        other: Default::default(),
        merged_lookups: None,
        l1: Vec::new(),
        placements: args.placements.clone(),
        request_unit: Some(super::compose::RequestArg::Sample),
        window: gfxcache_nbtc::MACHINE_WINDOW_CYCLES,
        out: args.out.clone(),
        json: args.json,
        quiet: args.quiet,
        single_thread: args.single_thread,
        machine_settings: None,
        units_settings: Some((unit, designs)),
    })
}

impl Args {
    fn threads(&self) -> Threads {
        Threads::single_if(self.single_thread)
    }

    /// The filter modes of the frames studied, each once.
    fn frame_filters(&self) -> Vec<TextureFilterArg> {
        if self.requests.is_some() {
            return vec![TextureFilterArg::AsAuthored];
        }
        let given = if self.filters.is_empty() {
            &[
                TextureFilterArg::Nearest,
                TextureFilterArg::Bilinear,
                TextureFilterArg::Trilinear,
            ][..]
        } else {
            &self.filters[..]
        };
        let mut out = Vec::new();
        for &f in given {
            if !out.contains(&f) {
                out.push(f);
            }
        }
        out
    }
}

/// A filter mode's name: the frame's, its file's and the report's.
fn filter_name(filter: TextureFilterArg) -> &'static str {
    FilterOverride::from(filter).name()
}

/// The designs of --modes, each once, with the MSHR and prefetching
/// caches' sizes.
fn modes(args: &Args) -> Vec<Mode> {
    let mut out = Vec::new();
    for m in &args.modes {
        let mode = match m.mode() {
            Mode::Mshr { mshrs, targets } => Mode::Mshr {
                mshrs: args.mshrs.unwrap_or(mshrs),
                targets: args.mshr_targets.unwrap_or(targets),
            },
            Mode::Prefetching {
                fragment_fifo,
                request_fifo,
                rob,
            } => Mode::Prefetching {
                fragment_fifo: args.fragment_fifo.unwrap_or(fragment_fifo),
                request_fifo: args.request_fifo.unwrap_or(request_fifo),
                rob: args.rob.unwrap_or(rob),
            },
            other => other,
        };
        if !out.contains(&mode) {
            out.push(mode);
        }
    }
    out
}

/// The machine and the frame settings it gives, with the flags that
/// override them.
pub(super) struct Plan {
    pub(super) machine: Machine,
    width: u32,
    height: u32,
    tile_size: u32,
    pixel_processors: u16,
    latencies: Vec<u64>,
}

impl Plan {
    fn of(args: &Args) -> Result<Plan> {
        let machine = Machine::resolve(&args.machine).context("--machine")?;
        let [w, h] = machine.gpu.screen.value;
        let latencies = args.latencies.clone().unwrap_or_else(|| {
            let l = &machine.memory.latency_cycles.value;
            l.iter().map(|&c| u64::from(c)).collect()
        });
        Ok(Plan {
            width: args.frame.width.unwrap_or(w),
            height: args.frame.height.unwrap_or(h),
            tile_size: match args.frame.tile_size {
                Some(t) => t,
                None => machine.tile().context("--machine")?,
            },
            pixel_processors: args
                .pixel_processors
                .unwrap_or(machine.fragment.processors.value),
            latencies,
            machine,
        })
    }
}

/// The study's configuration from the arguments, every setting checked,
/// each error naming its flag.
fn study_config(args: &Args, plan: &Plan) -> Result<NbtcStudyConfig> {
    let unit = unit(args, &plan.machine)?;
    let mut latencies = plan.latencies.clone();
    latencies.sort_unstable();
    latencies.dedup();
    if latencies.is_empty() {
        bail!("--latencies: expected at least one memory latency");
    }
    for &l in &latencies {
        let at = NbtcConfig {
            memory_latency: l,
            ..unit
        };
        at.check().with_context(|| format!("--latencies: {l}"))?;
    }
    let modes = modes(args);
    for &mode in &modes {
        check_unit(&NbtcConfig { mode, ..unit }, None)?;
    }
    let filters = args.frame_filters();
    let longest = latencies.last().copied().unwrap_or(300);
    let config = NbtcStudyConfig {
        name: String::new(),
        machine: Some(plan.machine.clone()),
        unit,
        sweeps: sweeps(args, &unit, &filters, longest)?,
        latencies,
        modes,
        threads: args.threads(),
    };
    config.check().context("the study")?;
    Ok(config)
}

/// The render settings' own checks (the renderer's are its).
fn check_render(plan: &Plan) -> Result<()> {
    if plan.width == 0 || plan.height == 0 {
        bail!(
            "--width, --height: {}x{}: expected at least 1 pixel each",
            plan.width,
            plan.height
        );
    }
    crate::cmd::render::check_tile_size(plan.tile_size)?;
    if !(1..=TbrConfig::MAX_FPS).contains(&plan.pixel_processors) {
        bail!(
            "--pixel-processors {}: expected 1 to {}",
            plan.pixel_processors,
            TbrConfig::MAX_FPS
        );
    }
    Ok(())
}

/// The machine, the frames and the study's configuration from `args`,
/// every setting checked, and, when frames are to be rendered (`--scene`,
/// `--suite`), each filter mode's request: all `run` checks before
/// anything renders or reads a file of requests, and all [`check`] does.
fn prepare(args: &Args) -> Result<(Plan, NbtcStudyConfig)> {
    let plan = Plan::of(args)?;
    let config = study_config(args, &plan)?;
    check_render(&plan)?;
    if args.requests.is_none() {
        for filter in args.frame_filters() {
            request(args, &plan, filter)
                .check()
                .with_context(|| format!("the frame of {} filtering", filter_name(filter)))?;
        }
    }
    Ok((plan, config))
}

/// Whether `args` would run, without rendering or reading a file
/// ([`prepare`]).
pub fn check(args: &Args) -> Result<()> {
    if !args.placements.is_empty() {
        return super::compose::check(&composed(args)?);
    }
    prepare(args).map(drop)
}

pub fn run(args: Args) -> Result<()> {
    if !args.placements.is_empty() {
        return super::compose::run(composed(&args)?);
    }
    // Every setting checked before anything is rendered.
    let (plan, config) = prepare(&args)?;
    let input = StudyInput::new(
        args.requests.as_deref(),
        args.unit.as_deref(),
        args.scene.as_deref(),
        args.suite.map(|s| super::suite_of(s, paper::SUITE)),
    );
    run_input(
        &args.out,
        input,
        Print::of(args.json, args.quiet),
        |requests, progress| {
            let frame = FilterFrame {
                filter: filter_name(TextureFilterArg::AsAuthored).to_string(),
                requests: requests.to_path_buf(),
            };
            let config = NbtcStudyConfig {
                name: requests.display().to_string(),
                ..config.clone()
            };
            Ok(study::run(&config, &[frame], progress)?)
        },
        |at, progress| study_scene(&args, &plan, &config, at, progress),
    )
}

/// Renders `at.scene`'s frame in each filter mode into its directory and
/// studies them.
fn study_scene(
    args: &Args,
    plan: &Plan,
    config: &NbtcStudyConfig,
    at: &SceneDir,
    progress: gfxcache_cache::ProgressFn<'_>,
) -> Result<NbtcReport> {
    let scene = super::render::load_scene(at.scene)?;
    let frames = args
        .frame_filters()
        .into_iter()
        .enumerate()
        .map(|(i, filter)| render(args, plan, &scene, at.staged, filter, i == 0))
        .collect::<Result<Vec<FilterFrame>>>()?;
    let config = NbtcStudyConfig {
        name: scene.name.clone(),
        ..config.clone()
    };
    Ok(study::run(&config, &frames, progress)?)
}

/// Renders one tile-based frame of `scene` with every material sampler in
/// `filter` into `dir` as `<filter>.gtq.zst` (and `<filter>.png`, with
/// `png`).
fn render(
    args: &Args,
    plan: &Plan,
    scene: &gfxcache_render::Scene,
    dir: &Path,
    filter: TextureFilterArg,
    png: bool,
) -> Result<FilterFrame> {
    let name = filter_name(filter);
    let requests = dir.join(format!("{name}.gtq.zst"));
    let request = request(args, plan, filter);
    let files = super::render::Files {
        trace: None,
        png: png.then(|| dir.join(format!("{name}.png"))),
        binned: None,
        texture_requests: Some(requests.clone()),
    };
    super::render::render_to_files(scene, &request, &files)
        .with_context(|| format!("rendering {} with {name} filtering", scene.name))?;
    Ok(FilterFrame {
        filter: name.to_string(),
        requests,
    })
}

/// The tile-based frame `--scene` or `--suite` renders in `filter`.
fn request(args: &Args, plan: &Plan, filter: TextureFilterArg) -> RenderRequest {
    let tbr = TbrConfig {
        tile_size: plan.tile_size,
        order: args.frame.order.into(),
        fps: plan.pixel_processors,
        hsr: args.frame.hsr(&plan.machine),
        fp_assignment: args.fp_assignment,
        ..TbrConfig::default()
    };
    RenderRequest {
        width: plan.width,
        height: plan.height,
        frames: 1,
        passes: args.passes.into(),
        threads: if args.single_thread { 1 } else { 2 },
        texture_filter: filter.into(),
        ..RenderRequest::new(RenderMode::Tbr(tbr))
    }
}
