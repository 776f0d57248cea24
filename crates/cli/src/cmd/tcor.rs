//! `gfxcache tcor`: the TCOR paper's study on one frame rendered tile by
//! tile (or a tile-based trace with its binned passes), into a directory of
//! report files.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use gfxcache_cache::run::Threads;
use gfxcache_cache::{format_size, parse_size};
use gfxcache_mem::EnergyModel;
use gfxcache_render::session::{Mode, RenderRequest};
use gfxcache_render::{TbrCacheConfig, TbrConfig};
use gfxcache_tcor::{FetcherTiming, TileBuffers};

use crate::table::{human_bytes, thousands, Table};
use crate::tcor::report::{L1Count, TcorReport, ENGINES};
use crate::tcor::study::{run_study, Setup};
use crate::tcor::write;

use super::render::OrderArg;

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum TileBuffersArg {
    /// Tile loads and stores go to main memory (the paper's Color Buffer).
    Memory,
    /// Through the L2 like other traffic.
    L2,
}

#[derive(clap::Args)]
#[command(group = clap::ArgGroup::new("input").required(true).args(["trace", "scene"]))]
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
    /// Screen size (TCOR Table I: 1960x768).
    #[arg(long, default_value_t = 1960)]
    pub width: u32,
    #[arg(long, default_value_t = 768)]
    pub height: u32,
    #[arg(long, default_value_t = 32)]
    pub tile_size: u32,
    #[arg(long, value_enum, default_value_t = OrderArg::ZOrder)]
    pub order: OrderArg,
    /// Fragment processors, each with a 64 KiB texture cache.
    #[arg(long, default_value_t = 4)]
    pub fps: u16,
    /// Hidden-surface removal (TBDR) when rendering.
    #[arg(long)]
    pub hsr: bool,
    /// Pass switches when rendering, as `render` has them.
    #[command(flatten)]
    pub passes: super::render::PassSwitches,
    /// Shared L2 capacity and ways (Table I: 1 MiB, 8-way).
    #[arg(long, default_value = "1MiB")]
    pub l2_size: String,
    #[arg(long, default_value_t = 8)]
    pub l2_ways: u32,
    /// Where tile loads and stores go.
    #[arg(long, value_enum, default_value_t = TileBuffersArg::Memory)]
    pub tile_buffers: TileBuffersArg,
    /// Tile Fetcher wait for an L2 read, and extra when the L2 misses
    /// (Table I: 12, and 50-100 cycles).
    #[arg(long, default_value_t = 12)]
    pub l2_cycles: u32,
    #[arg(long, default_value_t = 75)]
    pub memory_cycles: u32,
    /// Attribute Cache sizes of the miss-ratio curves (Figures 1, 11-13).
    #[arg(
        long,
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
    /// Render, decode and simulate on the calling thread only; results are
    /// identical.
    #[arg(long)]
    pub single_thread: bool,
}

fn setup(args: &Args) -> Result<Setup> {
    let l2_bytes = parse_size(&args.l2_size).context("--l2-size")?;
    let mut sizes = args
        .sizes
        .iter()
        .map(|s| parse_size(s).with_context(|| format!("--sizes: '{s}'")))
        .collect::<Result<Vec<u64>>>()?;
    sizes.sort_unstable();
    sizes.dedup();
    for &s in &sizes {
        gfxcache_tcor::config_of_size(s, gfxcache_cache::Ways::Full, Default::default())
            .with_context(|| format!("--sizes: {}", format_size(s)))?;
    }
    if !(args.tolerance >= 0.0 && args.tolerance.is_finite()) {
        bail!("--tolerance {}: expected a fraction >= 0", args.tolerance);
    }
    gfxcache_tcor::L2Cache::new(gfxcache_tcor::L2Config {
        bytes: l2_bytes,
        ways: args.l2_ways,
        policy: Default::default(),
    })
    .with_context(|| format!("--l2-size {} --l2-ways {}", args.l2_size, args.l2_ways))?;
    let energy = match &args.energy {
        Some(p) => read_energy(p)?,
        None => EnergyModel::mobile(),
    };
    Ok(Setup {
        l2_bytes,
        l2_ways: args.l2_ways,
        tile_buffers: match args.tile_buffers {
            TileBuffersArg::Memory => TileBuffers::Memory,
            TileBuffersArg::L2 => TileBuffers::L2,
        },
        timing: FetcherTiming {
            l2_cycles: args.l2_cycles,
            memory_cycles: args.memory_cycles,
        },
        sizes,
        tolerance: args.tolerance,
        energy,
        threads: if args.single_thread {
            Threads::One
        } else {
            Threads::Many
        },
    })
}

fn read_energy(path: &Path) -> Result<EnergyModel> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
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

pub fn run(args: Args) -> Result<()> {
    let setup = setup(&args)?;
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create {}", args.out.display()))?;
    let start = std::time::Instant::now();
    let (trace, binned, other_l1) = match (&args.trace, &args.binned, &args.scene) {
        (Some(t), Some(b), _) => (t.clone(), b.clone(), Vec::new()),
        (None, _, Some(scene)) => render(&args, scene)?,
        _ => bail!("give a TRACE with --binned, or --scene"),
    };
    let render_seconds = args.scene.is_some().then(|| start.elapsed().as_secs_f64());
    let mut report = run_study(&trace, &binned, &setup, other_l1)?;
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

/// Renders the tile-based frame into `--out`: the trace, the binned
/// passes, and the L1s outside the Tiling Engine for the energy model.
fn render(args: &Args, scene: &str) -> Result<(PathBuf, PathBuf, Vec<L1Count>)> {
    let trace = args.out.join("frame.gtr");
    let binned = args.out.join("binned.json");
    let tbr = TbrConfig {
        tile_size: args.tile_size,
        order: args.order.into(),
        fps: args.fps,
        hsr: args.hsr,
    };
    let request = RenderRequest {
        width: args.width,
        height: args.height,
        passes: args.passes.into(),
        binning: Some(tbr.binning()),
        threads: if args.single_thread { 1 } else { 2 },
        ..RenderRequest::new(Mode::Tbr(tbr))
    };
    let files = super::render::Files {
        trace: Some(trace.clone()),
        png: Some(args.out.join("frame.png")),
        binned: Some(binned.clone()),
    };
    let scene = super::render::load_scene(scene)?;
    let done = super::render::render_to_files(&scene, &request, &files)?;
    let shapes = TbrCacheConfig::table_i(args.fps);
    let l1 = done
        .summary
        .render_caches
        .into_iter()
        .map(|c| L1Count {
            bytes: if c.cache == "vertex" {
                shapes.vertex.bytes
            } else {
                shapes.texture.bytes
            },
            name: c.cache,
            accesses: c.accesses,
        })
        .collect();
    Ok((trace, binned, l1))
}

/// The summary: Section V-B's figures per Tile Cache size, and where the
/// Attribute Cache curves reach the lower bound.
fn text(r: &TcorReport) -> String {
    let f = &r.frame;
    let mut out = format!(
        "TCOR study of {}: {} render passes, {} tiles, {} primitives, {} tile uses (reuse {:.2}), largest Parameter Buffer {}\n\n",
        r.scene.as_deref().unwrap_or(&r.trace),
        r.render_passes,
        thousands(r.tiles),
        thousands(f.primitives),
        thousands(f.tile_uses),
        f.average_reuse,
        human_bytes(f.largest_pass_footprint_bytes),
    );
    let mut t = Table::new([
        "tile cache",
        "engine",
        "PB to L2",
        "PB to memory",
        "memory",
        "energy (uJ)",
        "prims/cycle",
    ])
    .left(0)
    .left(1);
    for run in &r.runs {
        let s = &run.stats;
        t.row([
            run.tile_cache.clone(),
            run.engine.clone(),
            thousands(s.pb_l2_accesses()),
            thousands(s.pb_memory_accesses()),
            thousands(s.memory_accesses()),
            format!("{:.1}", run.energy.total_nj / 1000.0),
            format!("{:.3}", s.fetcher.primitives_per_cycle),
        ]);
    }
    out += &t.render();
    let mut t = Table::new([
        "tile cache",
        "",
        "PB to L2",
        "PB to memory",
        "memory",
        "energy",
        "energy no L2",
        "fetcher",
    ])
    .left(0)
    .left(1);
    for (size, ours) in &r.reductions {
        for (who, v) in [("ours", Some(ours)), ("paper", r.paper.get(size))] {
            let Some(v) = v else { continue };
            t.row([
                size.clone(),
                who.to_string(),
                change(v.pb_l2_accesses),
                change(v.pb_dram_accesses),
                change(v.dram_accesses),
                change(v.energy),
                change(v.energy_no_l2),
                format!("{:.2}x", v.fetcher_speedup),
            ]);
        }
    }
    out += &format!(
        "\nTCOR against the {} (fetcher: throughput ratio)\n",
        ENGINES[0]
    );
    out += &t.render();
    out += &format!(
        "\nAttribute Cache reaches the lower bound (within {:.1}%):",
        r.reach.tolerance * 100.0
    );
    for p in &r.reach.curves {
        let at = p.bytes.map_or("beyond the sweep".to_string(), format_size);
        out += &format!("\n  {:<5} {:>4} ways: {at}", p.policy, p.ways);
    }
    if let Some(x) = r.reach.lru_over_opt_full {
        out += &format!("\n  fully associative LRU needs {x:.1}x OPT's size (paper: 6.8x)");
    }
    out.push('\n');
    out
}

/// A decrease in percent as a signed change: 5.6 -> "-5.6%".
fn change(decrease: f64) -> String {
    format!("{:+.1}%", -decrease + 0.0)
}
