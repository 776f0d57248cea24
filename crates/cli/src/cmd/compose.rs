//! `gfxcache compose`: the designs composed on one GPU machine
//! (`gfxcache_compose`): every miss handling of the NBTC study as the
//! texture units of the machine's fragment processors, under every
//! placement of their texture caches of the DTM-NUCA study, on one
//! tile-based frame (rendered from a scene, or a `.gtq` file). A table on
//! stdout (or `--json`'s one document); `compose.json` in `--out`.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use gfxcache_cache::run::Threads;
use gfxcache_compose::study::{self, ComposeConfig, ComposeReport};
use gfxcache_nbtc::NbtcConfig;
use gfxcache_nuca::{NucaConfig, OrgKind};
use gfxcache_render::session::{Mode as RenderMode, RenderRequest};
use gfxcache_render::TbrConfig;

use super::machines::FramePlan as Plan;
use super::nbtc::ModeArg;
use super::print_json;
use super::render::{OrderArg, TextureFilterArg};
use crate::progress::Bars;
use crate::table::{percent, Table};

#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  gfxcache compose --scene racer --width 640 --height 320 --out compose-racer\n  gfxcache compose --scene racer --l1 btc,nbtc,mshr --placements private,dtm-nuca --json"
)]
#[command(group = clap::ArgGroup::new("input").required(true).args(["requests", "scene"]))]
#[command(mut_arg("fragment_processors", |a| a.help(
    "Fragment processors, each with a texture unit and a texture cache (default: the machine's; DTM-NUCA Table I: 32)."
)))]
pub struct Args {
    /// A tile-based frame's texture requests with a request per pixel
    /// sample (`render --mode tbr --texture-requests --texture-filter
    /// bilinear`), its fragment processors the machine's.
    pub requests: Option<PathBuf>,
    /// Render one tile-based frame of this scene (built-in name or file)
    /// on the machine's fragment processors and study it; its requests
    /// are kept in --out.
    #[arg(long)]
    pub scene: Option<String>,
    /// The machine: a preset (`gfxcache machines`) or a TOML file. It
    /// gives the fragment processors (count, threads, issue model), the
    /// texture caches, the L2, the memory latency, the mesh hop and the
    /// bus width, as `gfxcache nuca --machine` takes them, and the texture
    /// units' hit and filter times and fragments in flight, as `gfxcache
    /// nbtc --machine` takes them.
    #[arg(long, default_value = "dtm-nuca", value_name = "NAME|FILE")]
    pub machine: String,
    /// Screen width (default: the machine's).
    #[arg(long)]
    pub width: Option<u32>,
    /// Screen height (default: the machine's).
    #[arg(long)]
    pub height: Option<u32>,
    /// Tile side in pixels (default: the machine's).
    #[arg(long)]
    pub tile_size: Option<u32>,
    /// Tile traversal order.
    #[arg(long, value_enum, default_value_t = OrderArg::ZOrder)]
    pub order: OrderArg,
    #[command(flatten)]
    pub processors: super::FragmentProcessorsArg,
    /// The filter every material sampler renders with: a request is one
    /// pixel's filtered sample, 1 to 8 texels (ours: bilinear, the
    /// filter mobile games use most, as `gfxcache nbtc`'s sweeps).
    #[arg(long, value_enum, default_value_t = TextureFilterArg::Bilinear)]
    pub filter: TextureFilterArg,
    #[command(flatten)]
    pub passes: super::render::PassSwitches,
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
    /// Cycles the machine's texture units run one after another before
    /// the next (ours: 64): the placement sees their accesses in that
    /// order; shorter is closer to time order and slower.
    #[arg(long, default_value_t = gfxcache_nbtc::MACHINE_WINDOW_CYCLES)]
    pub window: u64,
    /// Directory for the rendered requests and `compose.json`.
    #[arg(long, default_value = "compose-out")]
    pub out: PathBuf,
    /// Print one JSON document on stdout instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Replay the runs one after another on one thread (the results are
    /// the same).
    #[arg(long)]
    pub single_thread: bool,
}

/// A placement by its report name.
fn parse_placement(s: &str) -> std::result::Result<OrgKind, String> {
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
    let mut machine = NucaConfig::default()
        .on_machine(&plan.machine, 1)
        .map_err(anyhow::Error::msg)?;
    machine.fps = usize::from(plan.fps);
    let unit = NbtcConfig::default().on_machine(&plan.machine);
    let mut modes = Vec::new();
    for m in &args.l1 {
        if !modes.contains(&m.mode()) {
            modes.push(m.mode());
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
        threads: Threads::single_if(args.single_thread),
    };
    config.check()?;
    Ok(config)
}

fn plan(args: &Args) -> Result<Plan> {
    Plan::of(
        &args.machine,
        args.width,
        args.height,
        args.tile_size,
        args.processors.given(),
    )
}

/// Renders `--scene`'s frame into `--out` as `frame.gtq.zst`.
fn render(args: &Args, plan: &Plan, scene: &str) -> Result<(String, PathBuf)> {
    let scene = super::render::load_scene(scene)?;
    let requests = args.out.join("frame.gtq.zst");
    let tbr = TbrConfig {
        tile_size: plan.tile_size,
        order: args.order.into(),
        fps: plan.fps,
        ..TbrConfig::default()
    };
    let request = RenderRequest {
        width: plan.width,
        height: plan.height,
        frames: 1,
        passes: args.passes.into(),
        threads: if args.single_thread { 1 } else { 2 },
        texture_filter: args.filter.into(),
        ..RenderRequest::new(RenderMode::Tbr(tbr))
    };
    let files = super::render::Files {
        trace: None,
        png: None,
        binned: None,
        texture_requests: Some(requests.clone()),
    };
    super::render::render_to_files(&scene, &request, &files)
        .with_context(|| format!("rendering {}", scene.name))?;
    Ok((scene.name, requests))
}

pub fn run(args: Args) -> Result<()> {
    let plan = plan(&args)?;
    let mut config = config(&args, &plan)?;
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("creating {}", args.out.display()))?;
    let report_path = args.out.join("compose.json");
    crate::output::check_paths(
        &[("--out", Some(&report_path))],
        &[("REQUESTS", args.requests.as_deref())],
    )?;
    let (name, requests) = match (&args.scene, &args.requests) {
        (Some(scene), _) => render(&args, &plan, scene)?,
        (None, Some(path)) => (stem(path), path.clone()),
        (None, None) => unreachable!("clap requires an input"),
    };
    config.name = name;
    let bars = Bars::new();
    let report = study::run(&config, &requests, &|p| bars.show(p))
        .with_context(|| format!("composing on {}", requests.display()))?;
    drop(bars);
    let json = serde_json::to_vec_pretty(&report)?;
    crate::output::write_bytes(&report_path, &json)?;
    if args.json {
        return print_json(&report);
    }
    println!("{}", text(&report).trim_end());
    Ok(())
}

fn stem(path: &Path) -> String {
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    name.split('.').next().unwrap_or("").to_string()
}

/// The report as a table: per run, the frame's cycles and speedup, where
/// the placement served the accesses, the units' stalls, the L2's hits.
pub fn text(r: &ComposeReport) -> String {
    let mut t = Table::new([
        "L1",
        "placement",
        "frame cycles",
        "speedup",
        "local",
        "remote",
        "L2",
        "stalled",
        "L2 hit rate",
        "bus wait/transfer",
    ])
    .left(0)
    .left(1);
    for run in &r.runs {
        t.row([
            run.mode.clone(),
            run.placement.name().to_string(),
            run.frame_cycles.to_string(),
            format!("{:.3}", run.speedup),
            percent(run.local_share()),
            percent(run.remote_share()),
            percent(run.l2_share()),
            percent(run.stall_share()),
            percent(run.l2_hit_rate()),
            format!("{:.2}", run.machine.bus.mean_wait_cycles()),
        ]);
    }
    let base = r.runs.first();
    format!(
        "{}: {} runs on {} fragment processors (baseline: {} under {})\n{}",
        r.name,
        r.runs.len(),
        r.config.machine.fps,
        base.map_or("", |b| b.mode.as_str()),
        base.map_or("", |b| b.placement.name()),
        t.render()
    )
}
