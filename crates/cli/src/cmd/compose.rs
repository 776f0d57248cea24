//! `gfxcache compose`: the designs composed on one GPU machine
//! (`gfxcache_compose`): every miss handling of the NBTC study as the
//! texture units of the machine's fragment processors, under every
//! placement of their texture caches of the DTM-NUCA study, on one
//! tile-based frame (rendered from a scene, or a `.gtq` file), or on each
//! scene of a workload suite and their mean, into a directory of report
//! files (`compose.json`, the tables as CSV and Parquet, the figures,
//! `index.html`); a summary on stdout (or `--json`'s one document).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use gfxcache_cache::run::Threads;
use gfxcache_compose::study::{self, page, units_on, ComposeConfig, ComposeReport};
use gfxcache_nbtc::{Mode, NbtcConfig, RequestUnit};
use gfxcache_nuca::{MergedLookups, NucaConfig, OrgKind};
use gfxcache_render::scene::builtin::Suite;
use gfxcache_render::session::{Mode as RenderMode, RenderRequest};
use gfxcache_render::TbrConfig;

use super::machines::FramePlan as Plan;
use super::nbtc::ModeArg;
use super::render::TextureFilterArg;
use crate::report::suite::{run_input, SceneDir, StudyInput};
use crate::report::Print;

#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  gfxcache compose --scene racer --width 640 --height 320 --out compose-racer\n  gfxcache compose --scene racer --l1 btc,nbtc,mshr --placements private,dtm-nuca --json\n  gfxcache compose --suite mobile --out compose-mobile"
)]
#[command(group = clap::ArgGroup::new("input").required(true).args(["requests", "scene", "suite"]))]
#[command(mut_arg("fragment_processors", |a| a.help(
    "Fragment processors, each with a texture unit and a texture cache (default: the machine's; DTM-NUCA Table I: 32)."
)))]
#[command(mut_arg("other_traffic", |a| a.help(
    "Carry the frame's other L2 traffic, and what time it takes: a rendered frame's trace is rendered too (REQUESTS take --trace). Without it, or --trace, the L2 holds texture blocks only; with --trace alone: --config's, else ours, untimed."
)))]
pub struct Args {
    /// A tile-based frame's texture requests with a request per pixel
    /// sample (`render --mode tbr --texture-requests --texture-filter
    /// bilinear`), its fragment processors the machine's.
    pub requests: Option<PathBuf>,
    /// Render one tile-based frame of this scene (built-in name or file)
    /// on the machine's fragment processors and study it; its requests
    /// and picture are kept in --out.
    #[arg(long)]
    pub scene: Option<String>,
    /// Study each scene of this suite in turn (into --out/<scene>/), then
    /// their mean. Both papers measured mobile frames.
    #[arg(long, value_parser = super::suite_parser())]
    pub suite: Option<Suite>,
    /// The machine: a preset (`gfxcache machines`) or a TOML file. It gives
    /// the fragment processors (count, threads, issue model), the texture
    /// caches, the L2, the memory latency, the mesh hop and the bus width,
    /// as `gfxcache nuca --machine` takes them, and the texture units' hit
    /// and filter times and fragments in flight, as `gfxcache nbtc
    /// --machine` takes them.
    #[arg(long, default_value = "dtm-nuca", value_name = "NAME|FILE")]
    pub machine: String,
    #[command(flatten)]
    pub frame: super::machines::TiledFrameArgs,
    #[command(flatten)]
    pub processors: super::FragmentProcessorsArg,
    /// The filter every material sampler renders with: a request is one
    /// pixel's filtered sample, 1 to 8 texels (ours: bilinear, the
    /// filter mobile games use most, as `gfxcache nbtc`'s sweeps).
    #[arg(long, value_enum, default_value_t = TextureFilterArg::Bilinear)]
    pub filter: TextureFilterArg,
    #[command(flatten)]
    pub passes: super::render::PassSwitches,
    /// A JSON file of the machine's settings as DTM-NUCA's configuration
    /// (any fields of `compose.json`'s `config.machine`: texture caches,
    /// Affinity Table, mesh, L2, timing; the others keep the machine's and
    /// our defaults). The bus flags override it.
    #[arg(long, value_name = "F.json")]
    pub config: Option<PathBuf>,
    /// A JSON file of the texture units' settings (any fields of
    /// `compose.json`'s `config.unit`: buffers, hit and filter times,
    /// fragments in flight, issue; the others keep the machine's and our
    /// defaults). Its L1 and memory are the machine's, and its mode each
    /// run's (--l1): a file setting them is refused.
    #[arg(long, value_name = "F.json")]
    pub unit: Option<PathBuf>,
    #[command(flatten)]
    pub bus: super::machine_flags::BusArgs,
    #[command(flatten)]
    pub dram: super::machine_flags::DramArgs,
    #[command(flatten)]
    pub l2: super::machine_flags::L2Args,
    #[command(flatten)]
    pub sync: super::machine_flags::SyncTilesArg,
    /// The trace of REQUESTS' frame (`render --mode tbr --out`): its other
    /// L2 traffic (vertex fetch, the Parameter Buffer, the tile buffers)
    /// goes to the machines' L2 too, a tile at a time at the tile
    /// barriers (needs synchronised tiles). Without it (and, for a
    /// rendered frame, without --other-traffic) the L2 holds texture
    /// blocks only.
    #[arg(long, requires = "requests")]
    pub trace: Option<PathBuf>,
    #[command(flatten)]
    pub other: super::machine_flags::OtherTrafficArgs,
    /// Whether DTM-NUCA's Affinity Tables count a lookup a non-blocking
    /// unit merged with a miss already on its way, as the texture access
    /// it is, and in the epoch (ours: counted, Section III-B's "every
    /// texture block access"; default: --config's).
    #[arg(long, value_enum)]
    pub merged_lookups: Option<MergedArg>,
    /// The texture units' miss handlings (the first under the first
    /// placement is the baseline).
    #[arg(long, value_enum, value_delimiter = ',', default_value = "btc,nbtc")]
    pub l1: Vec<ModeArg>,
    /// The texture caches' placements: private, d-nuca, dtm-nuca,
    /// dtm-nuca-dist, s-nuca, ideal-shared.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "private,dtm-nuca,dtm-nuca-dist",
        value_parser = parse_placement
    )]
    pub placements: Vec<OrgKind>,
    /// What a texture unit takes as one request: a pixel's sample, a
    /// fragment a pixel (the NBTC study's reading), or a quad's texture
    /// instruction, its pixels' distinct blocks, a fragment a quad with
    /// four lanes of its slowest pixel's work (DTM-NUCA's replay's, as
    /// `gfxcache nuca --request-unit quad`; fragments in flight: the
    /// machine's threads over 4). Default: the machine's
    /// `fragment.request_unit` (the dtm-nuca machine's is a quad's).
    #[arg(long, value_enum)]
    pub request_unit: Option<RequestArg>,
    /// Cycles the machine's texture units run one after another before
    /// the next (ours: 64): the placement sees their accesses in that
    /// order; shorter is closer to time order and slower.
    #[arg(long, default_value_t = gfxcache_nbtc::MACHINE_WINDOW_CYCLES)]
    pub window: u64,
    /// Directory for the report: the rendered frame, `compose.json`, the
    /// tables, the figures and `index.html` (replaced whole, only once
    /// the study has finished).
    #[arg(long, default_value = "compose-out")]
    pub out: PathBuf,
    /// Print the report as one JSON document on stdout instead of the
    /// summary.
    #[arg(long)]
    pub json: bool,
    /// Print nothing on stdout: set by callers that read the report's
    /// files, never a flag.
    #[arg(skip)]
    pub quiet: bool,
    /// Replay the runs one after another on one thread (the results are
    /// the same).
    #[arg(long)]
    pub single_thread: bool,
    /// The machine's settings as a caller made them (`gfxcache nuca
    /// --l1`: its machine, `--config` and flags), in place of those of
    /// --machine and --config; never a flag. The flags above still apply.
    #[arg(skip)]
    pub machine_settings: Option<NucaConfig>,
    /// The texture units and their miss handlings as a caller made them
    /// (`gfxcache nbtc --placements`: its machine, --unit, flags and
    /// designs), in place of --unit's and --l1's; never a flag.
    #[arg(skip)]
    pub units_settings: Option<(NbtcConfig, Vec<Mode>)>,
}

/// What a texture unit takes as one request.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum RequestArg {
    /// Each pixel's sample (or texel fetch) on its own.
    Sample,
    /// A quad's texture instruction, its pixels together.
    Quad,
}

impl RequestArg {
    fn unit(self) -> RequestUnit {
        match self {
            RequestArg::Sample => RequestUnit::Sample,
            RequestArg::Quad => RequestUnit::Quad,
        }
    }
}

/// Whether the Affinity Tables count merged lookups.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum MergedArg {
    /// Counted as the texture accesses they are.
    Counted,
    /// Only the miss that was sent counts.
    Unseen,
}

impl MergedArg {
    fn setting(self) -> MergedLookups {
        match self {
            MergedArg::Counted => MergedLookups::Counted,
            MergedArg::Unseen => MergedLookups::Unseen,
        }
    }
}

/// A placement by its report name.
pub fn parse_placement(s: &str) -> std::result::Result<OrgKind, String> {
    OrgKind::ALL
        .into_iter()
        .find(|k| k.name() == s)
        .ok_or_else(|| {
            let names: Vec<&str> = OrgKind::ALL.iter().map(|k| k.name()).collect();
            format!(
                "unknown placement {s:?}: expected one of {}",
                names.join(", ")
            )
        })
}

/// The study's settings from the machine and the flags.
fn config(args: &Args, plan: &Plan) -> Result<ComposeConfig> {
    let base = NucaConfig::default()
        .on_machine(&plan.machine, 1)
        .map_err(|e| anyhow::anyhow!("--machine: {e}"))?;
    let mut machine = match (&args.machine_settings, &args.config) {
        (Some(settings), _) => settings.clone(),
        (None, None) => base,
        (None, Some(path)) => super::merge_settings(
            "--config",
            path,
            &base,
            "the fields of compose.json's \"config\".\"machine\" (DTM-NUCA's configuration; see its defaults there)",
            &[],
        )?,
    };
    machine.fps = usize::from(plan.fps);
    args.bus.apply(&mut machine.timing);
    args.dram.apply(&mut machine.timing);
    args.l2.apply(&mut machine.l2);
    args.sync.apply(&mut machine.timing);
    args.other.apply(&mut machine.timing);
    if let Some(m) = args.merged_lookups {
        machine.merged = m.setting();
    }
    machine
        .check()
        .context("the machine (--machine, --config, the bus, L2 and tile flags)")?;
    let request_unit = args
        .request_unit
        .map_or(plan.machine.fragment.request_unit.value, RequestArg::unit);
    let base = units_on(&plan.machine, request_unit);
    const MACHINES: &str = "is not the units': the L1 is the machine's texture cache, the memory its L2 and DRAM (set them with --machine or --config)";
    let unit = match (&args.units_settings, &args.unit) {
        (Some((unit, _)), _) => *unit,
        (None, None) => base,
        (None, Some(path)) => super::merge_settings(
            "--unit",
            path,
            &base,
            "the fields of compose.json's \"config\".\"unit\" (the NBTC study's texture unit; see its defaults there)",
            &[
                ("mode", "is each run's own: set the miss handlings with --l1"),
                ("l1_bytes", MACHINES),
                ("l1_ways", MACHINES),
                ("memory_latency", MACHINES),
                ("memory", MACHINES),
            ],
        )?,
    };
    let mut modes = Vec::new();
    match &args.units_settings {
        Some((_, given)) => modes.clone_from(given),
        None => {
            for m in &args.l1 {
                if !modes.contains(&m.mode()) {
                    modes.push(m.mode());
                }
            }
        }
    }
    let mut placements = Vec::new();
    for &p in &args.placements {
        if !placements.contains(&p) {
            placements.push(p);
        }
    }
    let config = ComposeConfig {
        name: String::new(),
        machine,
        unit,
        modes,
        placements,
        window: args.window,
        request_unit,
        description: Some(plan.machine.clone()),
        threads: Threads::single_if(args.single_thread),
    };
    config.check()?;
    Ok(config)
}

fn plan(args: &Args) -> Result<Plan> {
    args.frame.plan(&args.machine, args.processors.given())
}

/// The rendered frame's texture requests and trace in a report's
/// directory.
const REQUESTS: &str = "frame.gtq.zst";
const TRACE: &str = "frame.gtr";

/// Whether a rendered frame's other L2 traffic is carried: with
/// --other-traffic.
fn renders_trace(args: &Args) -> bool {
    args.other.other_traffic.is_some()
}

/// Renders `scene`'s frame into `dir` as [`REQUESTS`], its picture
/// ([`page::PICTURE`]) and, when its other traffic is carried, its trace
/// ([`TRACE`]); returns the requests' and the trace's paths.
fn render(
    args: &Args,
    plan: &Plan,
    scene: &gfxcache_render::Scene,
    dir: &Path,
) -> Result<(PathBuf, Option<PathBuf>)> {
    let requests = dir.join(REQUESTS);
    let trace = renders_trace(args).then(|| dir.join(TRACE));
    let request = request(args, plan);
    let files = super::render::Files {
        trace: trace.clone(),
        png: Some(dir.join(page::PICTURE)),
        binned: None,
        texture_requests: Some(requests.clone()),
    };
    super::render::render_to_files(scene, &request, &files)
        .with_context(|| format!("rendering {}", scene.name))?;
    Ok((requests, trace))
}

/// The tile-based frame `--scene` or `--suite` renders.
fn request(args: &Args, plan: &Plan) -> RenderRequest {
    let tbr = TbrConfig {
        tile_size: plan.tile_size,
        order: args.frame.order.into(),
        fps: plan.fps,
        hsr: args.frame.hsr(&plan.machine),
        ..TbrConfig::default()
    };
    RenderRequest {
        width: plan.width,
        height: plan.height,
        frames: 1,
        passes: args.passes.into(),
        threads: if args.single_thread { 1 } else { 2 },
        texture_filter: args.filter.into(),
        ..RenderRequest::new(RenderMode::Tbr(tbr))
    }
}

/// The machine and the study's settings from `args`, every setting
/// checked, and the frame it would render: all `run` checks before
/// anything renders or reads a file of requests, and all [`check`] does.
fn prepare(args: &Args) -> Result<(Plan, ComposeConfig)> {
    let plan = plan(args)?;
    let config = config(args, &plan)?;
    if args.requests.is_none() {
        request(args, &plan).check()?;
    }
    let other = args.trace.is_some() || (args.requests.is_none() && renders_trace(args));
    if other && !config.machine.timing.sync_tiles {
        anyhow::bail!(
            "the frame's other L2 traffic (--trace, --other-traffic) is sent at the tile barriers: it needs synchronised tiles (--sync-tiles on)"
        );
    }
    if args.requests.is_some() && args.trace.is_none() && renders_trace(args) {
        anyhow::bail!(
            "--other-traffic with a file of requests needs the frame's trace (--trace FILE.gtr)"
        );
    }
    Ok((plan, config))
}

/// Whether `args` would run, without rendering or reading a file
/// ([`prepare`]).
pub fn check(args: &Args) -> Result<()> {
    prepare(args).map(drop)
}

pub fn run(args: Args) -> Result<()> {
    // Every setting checked before anything is rendered.
    let (plan, config) = prepare(&args)?;
    let others = [&args.trace, &args.config, &args.unit]
        .into_iter()
        .flatten();
    let input = StudyInput::new(
        args.requests.as_deref(),
        others.map(PathBuf::as_path),
        args.scene.as_deref(),
        args.suite.map(|s| super::suite_of(s, study::SUITE)),
    );
    run_input(
        &args.out,
        input,
        Print::of(args.json, args.quiet),
        |requests, progress| {
            let config = ComposeConfig {
                name: stem(requests),
                ..config.clone()
            };
            study::run(&config, requests, args.trace.as_deref(), progress)
                .with_context(|| format!("composing on {}", requests.display()))
        },
        |at, progress| study_scene(&args, &plan, &config, at, progress),
    )
}

/// Renders `at.scene`'s frame into its directory and composes on it.
fn study_scene(
    args: &Args,
    plan: &Plan,
    config: &ComposeConfig,
    at: &SceneDir,
    progress: gfxcache_cache::ProgressFn<'_>,
) -> Result<ComposeReport> {
    let scene = super::render::load_scene(at.scene)?;
    let (requests, trace) = render(args, plan, &scene, at.staged)?;
    let config = ComposeConfig {
        name: scene.name.clone(),
        ..config.clone()
    };
    let mut report = study::run(&config, &requests, trace.as_deref(), progress)
        .with_context(|| format!("composing on {}", requests.display()))?;
    report.scene = Some(scene.name);
    // The files' paths once the report is in place.
    report.requests = at.placed.join(REQUESTS);
    report.trace = trace.map(|_| at.placed.join(TRACE));
    Ok(report)
}

fn stem(path: &Path) -> String {
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    name.split('.').next().unwrap_or("").to_string()
}
