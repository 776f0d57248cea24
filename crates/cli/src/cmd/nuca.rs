//! `gfxcache nuca`: the DTM-NUCA paper's study on one frame rendered tile
//! by tile with its texture requests (or on given request and trace
//! files), or on each scene of a workload suite and their mean, into a
//! directory of report files.
//!
//! Rendering a scene makes the main frame (`frame.gtq.zst`, `frame.gtr`,
//! `frame.png`) with `--fragment-processors` fragment processors and `--fp-assignment`,
//! one frame per other count of `--scaling` (`p<N>.*`, Figure 11) and one
//! per other quad assignment of `--assignments` (`<name>.*`); the study
//! (`gfxcache_nuca::study`) replays them.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use gfxcache_cache::parse_size;
use gfxcache_cache::run::Threads;
use gfxcache_machine::IssueModel;
use gfxcache_nuca::study::{self, paper, FrameFiles, NucaReport, NucaStudyConfig, Sweeps};
use gfxcache_nuca::{
    AnnouncedCount, ContextUnit, NucaConfig, OrgKind, ReplayOrder, RequestUnit, TcIndex,
};
use gfxcache_render::scene::builtin::Suite;
use gfxcache_render::session::{Mode, RenderRequest};
use gfxcache_render::{FpAssignment, TbrConfig};

use crate::report::suite::{run_input, SceneDir, StudyInput};
use crate::report::Print;

use super::machine_flags::{BusArgs, DramArgs, L2Args, SyncTilesArg};
use super::machines::FramePlan as Plan;
use super::render::parse_fp_assignment;

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum OrderOfReplay {
    /// Each tile's requests by the fragment processors' simulated clocks.
    Clock,
    /// As the renderer listed them.
    Trace,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ContextUnitArg {
    /// A fragment: its requests one after another, each after the
    /// previous one's data; a new fragment on the context free first.
    Fragment,
    /// A request: each on the next context in turn, a fragment's requests
    /// overlapping (earlier versions' rule).
    Request,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum IndexArg {
    /// The block address modulo the sets.
    Modulo,
    /// The block address cut into set-index-wide pieces, XORed together.
    XorFold,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum AnnouncedArg {
    /// The count as the owner broadcast it.
    AsAnnounced,
    /// The count reset as the owner's own counter was at the epoch's end.
    Halved,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum UnitArg {
    /// A quad's texture instruction, its pixels together.
    Quad,
    /// Each pixel's sample (a quad's texel fetch stays one), as the
    /// renderer's own texture caches count.
    Pixel,
    /// Each of the renderer's requests (a pixel's sample or texel fetch),
    /// as the NBTC's pixel processors and `compose` take them.
    Sample,
}

#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  gfxcache nuca --scene racer --out nuca-racer\n  gfxcache nuca --suite mobile --no-sweeps --out nuca-mobile"
)]
#[command(group = clap::ArgGroup::new("input").required(true).args(["requests", "scene", "suite"]))]
#[command(mut_arg("fragment_processors", |a| a.help(
    "Fragment processors, each with a texture cache (default: the machine's; DTM-NUCA Table I: 32)."
)))]
pub struct Args {
    /// A tile-based frame's texture requests (`render --mode tbr
    /// --texture-requests`); with --trace, its L2 traffic.
    pub requests: Option<PathBuf>,
    /// The trace of REQUESTS' frame (`render --mode tbr --out`): the other
    /// L2 traffic. Without it the L2 holds texture blocks only.
    #[arg(long, requires = "requests")]
    pub trace: Option<PathBuf>,
    #[command(flatten)]
    pub other: super::machine_flags::OtherTrafficArgs,
    /// Render one tile-based frame of this scene (built-in name or file)
    /// and study it; its files are kept in --out.
    #[arg(long)]
    pub scene: Option<String>,
    /// Study each scene of this suite in turn (into --out/<scene>/), then
    /// their mean, as the paper averages its games. The paper measured
    /// mobile frames.
    #[arg(long, value_parser = super::suite_parser())]
    pub suite: Option<Suite>,
    /// The machine the study runs on: a preset (`gfxcache machines` lists
    /// them: dtm-nuca, the paper's Table I; tcor; nbtc; mali-g78) or a TOML
    /// file of the same form. It gives the screen, the tile, the fragment
    /// processors (count, threads, issue model), the texture caches, the
    /// L2, the memory latency, the mesh hop and the bus width; --config and
    /// the flags below override its values.
    #[arg(long, default_value = "dtm-nuca", value_name = "NAME|FILE")]
    pub machine: String,
    #[command(flatten)]
    pub frame: super::machines::TiledFrameArgs,
    #[command(flatten)]
    pub processors: super::FragmentProcessorsArg,
    /// How a tile's quads reach the fragment processors when rendering:
    /// `round-robin`, `blocks[:SIDE]` or `tiles` (see `render --help`).
    #[arg(long, default_value = "round-robin", value_parser = parse_fp_assignment)]
    pub fp_assignment: FpAssignment,
    #[command(flatten)]
    pub passes: super::render::PassSwitches,
    /// Figure 11: other numbers of fragment processors, each a frame of
    /// its own (comma-separated; `none` for none). Figure 1 uses the
    /// fewest.
    #[arg(long, value_delimiter = ',', default_value = "4,8,16")]
    pub scaling: Vec<String>,
    /// Other quad assignments to render and study (comma-separated;
    /// `none` for none).
    #[arg(long, value_delimiter = ',', default_value = "blocks,tiles")]
    pub assignments: Vec<String>,
    /// Figure 7: private texture cache sizes.
    #[arg(
        long,
        value_name = "SIZES",
        value_delimiter = ',',
        default_value = "16KiB,32KiB,64KiB,128KiB,256KiB,512KiB"
    )]
    pub private_sizes: Vec<String>,
    /// Sweep values of the Affinity Table's epoch (texture accesses).
    #[arg(long, value_delimiter = ',', default_value = "5000,10000,40000,80000")]
    pub sweep_epoch: Vec<u64>,
    /// Sweep values of the bucket count.
    #[arg(long, value_delimiter = ',', default_value = "8,16,64,128")]
    pub sweep_buckets: Vec<u32>,
    /// Sweep values of the counter width (bits).
    #[arg(long, value_delimiter = ',', default_value = "2,3,6,8")]
    pub sweep_counter_bits: Vec<u32>,
    /// Sweep values of the page size (blocks).
    #[arg(long, value_delimiter = ',', default_value = "1,2,4,16,32")]
    pub sweep_page_blocks: Vec<u32>,
    /// Skip the sweeps of the Affinity Table's knobs (--sweep-epoch,
    /// --sweep-buckets, --sweep-counter-bits, --sweep-page-blocks) and the
    /// replay in the other order.
    #[arg(long)]
    pub no_sweeps: bool,
    /// A JSON file of the model's settings (any fields of `nuca.json`'s
    /// `config`; the others keep the machine's and our defaults). The
    /// flags below override it.
    #[arg(long, value_name = "F.json")]
    pub config: Option<PathBuf>,
    /// Texture cache capacity, each fragment processor's (default:
    /// --config's, else the machine's; Table I: 16 KiB).
    #[arg(long, value_name = "SIZE")]
    pub tc_size: Option<String>,
    /// Texture cache ways (default: --config's, else the machine's; Table
    /// I: 4).
    #[arg(long)]
    pub tc_ways: Option<u32>,
    /// Texture cache set index (default: --config's, else ours, modulo).
    #[arg(long, value_enum)]
    pub tc_index: Option<IndexArg>,
    /// Affinity Table buckets (default: --config's, else Table I's 32).
    #[arg(long)]
    pub buckets: Option<u32>,
    /// Blocks per Affinity Table page (default: --config's, else Table
    /// I's 8).
    #[arg(long)]
    pub page_blocks: Option<u32>,
    /// Affinity Table counter bits (default: --config's, else Table I's
    /// 4).
    #[arg(long)]
    pub counter_bits: Option<u32>,
    /// Affinity Table epoch in texture requests (default: --config's,
    /// else Table I's 20000).
    #[arg(long)]
    pub epoch: Option<u64>,
    /// DTM-NUCA-Dist: the owner's count that a node's saturated counter
    /// must beat to claim a bucket between broadcasts, as the owner
    /// announced it or halved as its own counter was (default: --config's,
    /// else ours, as-announced; the study runs the other reading too).
    #[arg(long, value_enum)]
    pub announced_count: Option<AnnouncedArg>,
    #[command(flatten)]
    pub bus: BusArgs,
    #[command(flatten)]
    pub dram: DramArgs,
    #[command(flatten)]
    pub l2: L2Args,
    /// Thread contexts per fragment processor, each with one request in
    /// flight (default: --config's, else the machine's threads over the
    /// pixels of a request: 384 / 4 = 96 on dtm-nuca).
    #[arg(long)]
    pub contexts: Option<u32>,
    /// What a context holds (default: --config's, else ours, a fragment).
    #[arg(long, value_enum)]
    pub context_unit: Option<ContextUnitArg>,
    #[command(flatten)]
    pub sync: SyncTilesArg,
    /// Replay order within a tile (default: --config's, else ours, clock).
    #[arg(long, value_enum)]
    pub replay_order: Option<OrderOfReplay>,
    /// The fragment processors' issue rates in percent of the machine's
    /// (its issue model's every rate scaled; default 100); 0: shading
    /// takes no time.
    #[arg(long, value_name = "PERCENT")]
    pub issue_rate: Option<u32>,
    /// What a texture cache sees as one request (default: the machine's
    /// `fragment.request_unit`; the dtm-nuca machine's is a quad's).
    #[arg(long, value_enum)]
    pub request_unit: Option<UnitArg>,
    /// Run the organizations on the composed GPU machine instead, with
    /// the NBTC study's texture units as each fragment processor's L1,
    /// under each of these miss handlings (the first under private
    /// caches is the baseline): `gfxcache compose --l1 MODES --placements`
    /// every organization, on this command's machine, --config and
    /// flags, the frame rendered with each sampler's own filter, into
    /// compose's report (`compose.json`). Without it: DTM-NUCA's replay,
    /// its texture caches blocking.
    #[arg(long, value_enum, value_delimiter = ',', conflicts_with_all = REPLAY_ONLY)]
    pub l1: Vec<super::nbtc::ModeArg>,
    /// Directory for nuca.json, the CSV files, the SVG plots and
    /// index.html.
    #[arg(long, default_value = "nuca")]
    pub out: PathBuf,
    /// Print nuca.json on stdout (and nothing else) instead of a summary.
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

/// The flags of DTM-NUCA's replay and its other frames, which the
/// composed machine (`--l1`) does not take.
const REPLAY_ONLY: [&str; 12] = [
    "scaling",
    "assignments",
    "private_sizes",
    "sweep_epoch",
    "sweep_buckets",
    "sweep_counter_bits",
    "sweep_page_blocks",
    "contexts",
    "context_unit",
    "replay_order",
    "issue_rate",
    "fp_assignment",
];

/// `gfxcache compose`'s arguments for `--l1`: every organization under
/// each of its miss handlings, on this command's machine and settings
/// (its `--config` and flags, as the replay would take them), the frame
/// rendered as this command renders it (each sampler's own filter).
pub fn composed(args: &Args) -> Result<super::compose::Args> {
    let plan = args.frame.plan(&args.machine, args.processors.given())?;
    let request_unit = match args.request_unit {
        None => None,
        Some(UnitArg::Quad) => Some(super::compose::RequestArg::Quad),
        Some(UnitArg::Sample) => Some(super::compose::RequestArg::Sample),
        Some(UnitArg::Pixel) => anyhow::bail!(
            "--request-unit pixel is DTM-NUCA's replay's reading: with --l1 the texture units take `sample` or `quad`"
        ),
    };
    Ok(super::compose::Args {
        requests: args.requests.clone(),
        scene: args.scene.clone(),
        suite: args.suite,
        machine: args.machine.clone(),
        frame: args.frame.clone(),
        processors: args.processors,
        filter: super::render::TextureFilterArg::AsAuthored,
        passes: args.passes,
        config: args.config.clone(),
        unit: None,
        bus: args.bus,
        dram: args.dram,
        l2: args.l2.clone(),
        sync: args.sync,
        trace: args.trace.clone(),
        other: args.other,
        merged_lookups: None,
        l1: args.l1.clone(),
        placements: OrgKind::ALL.to_vec(),
        request_unit,
        window: gfxcache_nbtc::MACHINE_WINDOW_CYCLES,
        out: args.out.clone(),
        json: args.json,
        quiet: args.quiet,
        single_thread: args.single_thread,
        machine_settings: Some(config(args, &plan)?),
        units_settings: None,
    })
}

impl Args {
    fn threads(&self) -> Threads {
        Threads::single_if(self.single_thread)
    }
}

/// What a texture cache sees as one request: --request-unit, else the
/// machine's.
fn request_unit(args: &Args, plan: &Plan) -> RequestUnit {
    match args.request_unit {
        Some(UnitArg::Quad) => RequestUnit::Quad,
        Some(UnitArg::Pixel) => RequestUnit::Pixel,
        Some(UnitArg::Sample) => RequestUnit::Sample,
        None => plan.machine.fragment.request_unit.value.into(),
    }
}

/// The model's configuration: the machine's, then --config's fields, then
/// the flags.
fn config(args: &Args, plan: &Plan) -> Result<NucaConfig> {
    let base = NucaConfig::default()
        .on_machine(&plan.machine, request_unit(args, plan).pixels())
        .map_err(|e| anyhow::anyhow!("--machine: {e}"))?;
    let mut m = match &args.config {
        None => base,
        Some(path) => super::merge_settings(
            "--config",
            path,
            &base,
            "the fields of nuca.json's \"config\" (see its defaults there)",
            &[],
        )?,
    };
    m.fps = usize::from(plan.fps);
    if let Some(s) = &args.tc_size {
        m.tc_bytes = parse_size(s).context("--tc-size")?;
    }
    let set = |field: &mut u32, v: Option<u32>| {
        if let Some(v) = v {
            *field = v;
        }
    };
    set(&mut m.tc_ways, args.tc_ways);
    if let Some(i) = args.tc_index {
        m.tc_index = match i {
            IndexArg::Modulo => TcIndex::Modulo,
            IndexArg::XorFold => TcIndex::XorFold,
        };
    }
    set(&mut m.buckets, args.buckets);
    set(&mut m.page_blocks, args.page_blocks);
    set(&mut m.counter_bits, args.counter_bits);
    set(&mut m.timing.contexts, args.contexts);
    if let Some(u) = args.context_unit {
        m.timing.context_unit = match u {
            ContextUnitArg::Fragment => ContextUnit::Fragment,
            ContextUnitArg::Request => ContextUnit::Request,
        };
    }
    args.sync.apply(&mut m.timing);
    if let Some(e) = args.epoch {
        m.epoch = e;
    }
    args.other.apply(&mut m.timing);
    if let Some(a) = args.announced_count {
        m.announced_count = match a {
            AnnouncedArg::AsAnnounced => AnnouncedCount::AsAnnounced,
            AnnouncedArg::Halved => AnnouncedCount::Halved,
        };
    }
    args.bus.apply(&mut m.timing);
    args.dram.apply(&mut m.timing);
    args.l2.apply(&mut m.l2);
    if let Some(o) = args.replay_order {
        m.timing.order = match o {
            OrderOfReplay::Clock => ReplayOrder::Clock,
            OrderOfReplay::Trace => ReplayOrder::Trace,
        };
    }
    m.check().context("the configuration")?;
    Ok(m)
}

/// The fragment processors' issue model: the machine's, scaled by
/// --issue-rate (0: none).
fn issue(args: &Args, plan: &Plan) -> Result<Option<IssueModel>> {
    let m = plan.machine.issue_model();
    Ok(match args.issue_rate {
        None => Some(m),
        Some(0) => None,
        Some(p) => {
            let scaled = m.scaled(f64::from(p) / 100.0);
            scaled
                .check()
                .map_err(|e| anyhow::anyhow!("--issue-rate {p}: {e}"))?;
            Some(scaled)
        }
    })
}

/// `--scaling`'s counts other than the main one.
fn scaling(args: &Args, plan: &Plan) -> Result<Vec<u16>> {
    let mut out = Vec::new();
    for s in args.scaling.iter().filter(|s| s.as_str() != "none") {
        let n: u16 = s.trim().parse().ok().filter(|&n| n > 0).with_context(|| {
            format!("--scaling: '{s}': expected a number of fragment processors")
        })?;
        if n != plan.fps && !out.contains(&n) {
            out.push(n);
        }
    }
    Ok(out)
}

/// `--assignments`' other than the main one, by name.
fn assignments(args: &Args) -> Result<Vec<FpAssignment>> {
    let mut out = Vec::new();
    for s in args.assignments.iter().filter(|s| s.as_str() != "none") {
        let a = parse_fp_assignment(s).map_err(|e| anyhow::anyhow!("--assignments: {e}"))?;
        if a != args.fp_assignment && !out.contains(&a) {
            out.push(a);
        }
    }
    Ok(out)
}

fn study_config(args: &Args, plan: &Plan, frame: FrameFiles) -> Result<NucaStudyConfig> {
    let mut sizes = args
        .private_sizes
        .iter()
        .map(|s| parse_size(s).with_context(|| format!("--private-sizes: '{s}'")))
        .collect::<Result<Vec<u64>>>()?;
    sizes.sort_unstable();
    sizes.dedup();
    let sweeps = if args.no_sweeps {
        Sweeps::none()
    } else {
        Sweeps {
            epoch: args.sweep_epoch.clone(),
            buckets: args.sweep_buckets.clone(),
            counter_bits: args.sweep_counter_bits.clone(),
            page_blocks: args.sweep_page_blocks.clone(),
            ..Sweeps::default()
        }
    };
    Ok(NucaStudyConfig {
        config: config(args, plan)?,
        machine: Some(plan.machine.clone()),
        issue: issue(args, plan)?,
        assignment: args.fp_assignment.name(),
        organizations: OrgKind::ALL.to_vec(),
        private_sizes: sizes,
        sweeps,
        request_unit: request_unit(args, plan),
        threads: args.threads(),
        ..NucaStudyConfig::new(frame)
    })
}

/// The machine and the frames from `args`, every setting checked: the
/// study's configuration with every frame it would render (the other
/// processor counts and quad assignments too), and, when frames are to be
/// rendered (`--scene`, `--suite`), each frame's request. All `run`
/// checks before anything renders or reads a file of requests, and all
/// [`check`] does.
fn prepare(args: &Args) -> Result<Plan> {
    let plan = args.frame.plan(&args.machine, args.processors.given())?;
    let none = || FrameFiles {
        requests: PathBuf::new(),
        trace: None,
    };
    let mut probe = study_config(args, &plan, none())?;
    let scaling = scaling(args, &plan)?;
    let assignments = assignments(args)?;
    if args.requests.is_none() {
        probe.scaling = scaling.iter().map(|&n| (usize::from(n), none())).collect();
        probe.assignments = assignments.iter().map(|a| (a.name(), none())).collect();
        let frames = std::iter::once((plan.fps, args.fp_assignment))
            .chain(scaling.iter().map(|&n| (n, args.fp_assignment)))
            .chain(assignments.iter().map(|&a| (plan.fps, a)));
        for (fps, assignment) in frames {
            request(args, &plan, fps, assignment)?
                .check()
                .with_context(|| {
                    format!(
                        "the frame of {fps} fragment processors, {} assignment",
                        assignment.name()
                    )
                })?;
        }
    }
    probe.check()?;
    Ok(plan)
}

/// Whether `args` would run, without rendering or reading a file
/// ([`prepare`]).
pub fn check(args: &Args) -> Result<()> {
    if !args.l1.is_empty() {
        return super::compose::check(&composed(args)?);
    }
    prepare(args).map(drop)
}

pub fn run(args: Args) -> Result<()> {
    if !args.l1.is_empty() {
        return super::compose::run(composed(&args)?);
    }
    // Every setting checked before anything is rendered.
    let plan = prepare(&args)?;
    let others = [&args.trace, &args.config].into_iter().flatten();
    let input = StudyInput::new(
        args.requests.as_deref(),
        others.map(PathBuf::as_path),
        args.scene.as_deref(),
        args.suite.map(|s| super::suite_of(s, paper::SUITE)),
    );
    run_input(
        &args.out,
        input,
        Print::of(args.json, args.quiet),
        |requests, progress| {
            let frame = FrameFiles {
                requests: requests.to_path_buf(),
                trace: args.trace.clone(),
            };
            let config = study_config(&args, &plan, frame)?;
            Ok(study::run(&config, progress)?)
        },
        |at, progress| study_scene(&args, &plan, at, progress),
    )
}

/// Renders `at.scene`'s frames into its directory and studies them.
fn study_scene(
    args: &Args,
    plan: &Plan,
    at: &SceneDir,
    progress: gfxcache_cache::ProgressFn<'_>,
) -> Result<NucaReport> {
    let start = std::time::Instant::now();
    let scene = super::render::load_scene(at.scene)?;
    let frame = render(
        args,
        plan,
        &scene,
        at.staged,
        "frame",
        plan.fps,
        args.fp_assignment,
        true,
    )?;
    let mut config = study_config(args, plan, frame)?;
    for n in scaling(args, plan)? {
        let f = render(
            args,
            plan,
            &scene,
            at.staged,
            &format!("p{n}"),
            n,
            args.fp_assignment,
            false,
        )?;
        config.scaling.push((usize::from(n), f));
    }
    for a in assignments(args)? {
        let name = a.name().replace(':', "-");
        let f = render(args, plan, &scene, at.staged, &name, plan.fps, a, false)?;
        config.assignments.push((a.name(), f));
    }
    let render_seconds = start.elapsed().as_secs_f64();
    let mut report = study::run(&config, progress)?;
    report.seconds.insert("render".into(), render_seconds);
    report.scene = Some(scene.name.clone());
    // The files' paths once the report is in place.
    report.requests = at.placed.join("frame.gtq.zst").display().to_string();
    report.trace = Some(at.placed.join("frame.gtr").display().to_string());
    Ok(report)
}

/// Renders one tile-based frame of `scene` with `fps` fragment processors
/// and `assignment` into `dir` as `<stem>.gtq.zst` and `<stem>.gtr` (and
/// the picture, with `png`).
#[allow(clippy::too_many_arguments)]
fn render(
    args: &Args,
    plan: &Plan,
    scene: &gfxcache_render::Scene,
    dir: &Path,
    stem: &str,
    fps: u16,
    assignment: FpAssignment,
    png: bool,
) -> Result<FrameFiles> {
    let frame = study::frame_files_in(dir, stem);
    let request = request(args, plan, fps, assignment)?;
    let files = super::render::Files {
        trace: frame.trace.clone(),
        png: png.then(|| dir.join(format!("{stem}.png"))),
        binned: None,
        texture_requests: Some(frame.requests.clone()),
    };
    super::render::render_to_files(scene, &request, &files)
        .with_context(|| format!("rendering {} with {fps} fragment processors", scene.name))?;
    Ok(frame)
}

/// The tile-based frame of `fps` fragment processors under `assignment`
/// that `--scene` or `--suite` renders, through the machine's L1s.
fn request(args: &Args, plan: &Plan, fps: u16, assignment: FpAssignment) -> Result<RenderRequest> {
    let tbr = TbrConfig {
        tile_size: plan.tile_size,
        order: args.frame.order.into(),
        fps,
        hsr: args.frame.hsr(&plan.machine),
        fp_assignment: assignment,
        ..TbrConfig::default()
    };
    Ok(RenderRequest {
        width: plan.width,
        height: plan.height,
        frames: 1,
        passes: args.passes.into(),
        threads: if args.single_thread { 1 } else { 2 },
        tbr_caches: Some(
            super::machines::tbr_caches(&plan.machine, fps)
                .map_err(|e| anyhow::anyhow!("--machine: {e}"))?,
        ),
        ..RenderRequest::new(Mode::Tbr(tbr))
    })
}
