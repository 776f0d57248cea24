//! `gfxcache gspc`: the GSPC paper's whole LLC study on one frame, rendered
//! from a scene or read from a trace, into a directory of report files.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use gfxcache_cache::run::Threads;
use gfxcache_cache::{format_size, parse_size};
use gfxcache_mem::GpuConfig;
use gfxcache_render::session::{Mode, RenderRequest};

use crate::gspc::report::GspcReport;
use crate::gspc::study::{geometry, machines, run_study, Setup};
use crate::gspc::write;
use crate::table::{percent, thousands, Table};

#[derive(clap::Args)]
#[command(group = clap::ArgGroup::new("input").required(true).args(["trace", "scene"]))]
pub struct Args {
    /// An LLC trace to study (.gtr, .csv, .din, optionally .zst).
    pub trace: Option<PathBuf>,
    /// Render one frame of this scene (built-in name or file) and study it;
    /// the trace and picture are kept in --out as frame.gtr and frame.png.
    #[arg(long)]
    pub scene: Option<String>,
    #[arg(long, default_value_t = 1920)]
    pub width: u32,
    #[arg(long, default_value_t = 1080)]
    pub height: u32,
    /// LLC capacity of the main study.
    #[arg(long, default_value = "8MiB")]
    pub size: String,
    /// A second capacity for Figure 16 (Table 6 policies and OPT only);
    /// default twice --size; `none` to skip it.
    #[arg(long)]
    pub big_size: Option<String>,
    #[arg(long, default_value_t = 16)]
    pub ways: u32,
    #[arg(long, default_value_t = 64)]
    pub block: u32,
    #[arg(long, default_value_t = 4)]
    pub banks: u32,
    /// Shader cycles a GPU thread context works between two of its LLC
    /// accesses, in the frame-time model (an assumption: traces carry no
    /// instruction counts; see ARCHITECTURE.md).
    #[arg(long)]
    pub work_cycles: Option<u32>,
    /// Directory for gspc.json, the CSV files, the SVG plots and index.html.
    #[arg(long, default_value = "gspc")]
    pub out: PathBuf,
    /// Print gspc.json on stdout (and nothing else) instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Decode and simulate on the calling thread only; results are identical.
    #[arg(long)]
    pub single_thread: bool,
}

pub fn run(args: Args) -> Result<()> {
    let main = parse_size(&args.size)?;
    let mut sizes = vec![main];
    match args.big_size.as_deref() {
        Some("none") => {}
        Some(s) => sizes.push(parse_size(s)?),
        None => sizes.push(main.saturating_mul(2)),
    }
    let mut gpu = GpuConfig::high_end();
    if let Some(w) = args.work_cycles {
        gpu.work_cycles = w;
    }
    let setup = Setup {
        sizes,
        ways: args.ways,
        block: args.block,
        banks: args.banks,
        machines: machines(&gpu),
        threads: if args.single_thread {
            Threads::One
        } else {
            Threads::Many
        },
    };
    // Every size must make a cache of this shape before anything runs.
    for &size in &setup.sizes {
        geometry(&setup, size).with_context(|| format!("an LLC of {}", format_size(size)))?;
    }
    if setup.sizes.len() == 2 && setup.sizes[0] == setup.sizes[1] {
        bail!("--big-size equals --size ({})", format_size(main));
    }
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create {}", args.out.display()))?;
    let start = std::time::Instant::now();
    let trace = match (&args.trace, &args.scene) {
        (Some(t), _) => t.clone(),
        (None, Some(scene)) => render(&args, scene)?,
        (None, None) => bail!("give a TRACE or --scene"),
    };
    let render_seconds = args.scene.is_some().then(|| start.elapsed().as_secs_f64());

    let mut report = run_study(&trace, &setup)?;
    if let Some(s) = render_seconds {
        report.seconds.insert("render".into(), s);
    }
    write::write_all(&report, &args.out)?;
    crate::report::print_result(
        args.json,
        || write::to_json(&report),
        &text(&report),
        &args.out,
    )
}

/// Renders the frame into `--out`, returning the trace's path.
fn render(args: &Args, scene: &str) -> Result<PathBuf> {
    let trace = args.out.join("frame.gtr");
    let request = RenderRequest {
        width: args.width,
        height: args.height,
        threads: if args.single_thread { 1 } else { 2 },
        ..RenderRequest::new(Mode::Imr)
    };
    let files = super::render::Files {
        trace: Some(trace.clone()),
        png: Some(args.out.join("frame.png")),
        binned: None,
    };
    super::render::render_to_files(&super::render::load_scene(scene)?, &request, &files)?;
    Ok(trace)
}

/// The summary table: one row per run.
fn text(r: &GspcReport) -> String {
    let mut out = format!(
        "GSPC study of {} ({} LLC block accesses), {}-way, {} B blocks, {} banks\n\n",
        r.scene.as_deref().unwrap_or(&r.trace),
        thousands(r.accesses),
        r.ways,
        r.block,
        r.banks
    );
    let mut t = Table::new([
        "policy",
        "size",
        "misses",
        "vs drrip",
        "tex hit",
        "rt hit",
        "z hit",
        "rt->tex",
        "fps",
        "fps vs drrip",
    ])
    .left(0);
    for p in &r.policies {
        t.row([
            p.policy.clone(),
            format_size(p.size),
            thousands(p.misses),
            format!("{:.3}", p.misses_vs_drrip),
            percent(p.hit_rate.tex),
            percent(p.hit_rate.rt),
            percent(p.hit_rate.z),
            percent(p.rt_consumed_fraction),
            format!("{:.1}", p.fps),
            format!("{:.3}", p.fps_vs_drrip),
        ]);
    }
    out += &t.render();
    out
}
