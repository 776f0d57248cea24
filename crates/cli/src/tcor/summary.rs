//! What `gfxcache tcor` prints without `--json`: Section V-B's figures per
//! Tile Cache size beside the paper's, and where the Attribute Cache curves
//! reach the lower bound.

use gfxcache_cache::format_size;
use gfxcache_tcor::study::report::ENGINES;
use gfxcache_tcor::study::TcorReport;

use crate::table::{human_bytes, thousands, Table};

/// The summary: Section V-B's figures per Tile Cache size, and where the
/// Attribute Cache curves reach the lower bound.
pub fn text(r: &TcorReport) -> String {
    let f = &r.frame;
    let frames = match (r.frames, r.warmup) {
        (1, _) => String::new(),
        (n, 0) => format!(" ({n} frames)"),
        (n, w) => format!(" ({} frames after {w} of warm-up, of {n})", n - w),
    };
    let binning = r
        .binning
        .as_deref()
        .map_or(String::new(), |b| format!(", {b} binning"));
    let mut out = format!(
        "TCOR study of {}{frames}{binning}: {} render passes, {} tiles, {} primitives, {} tile uses (reuse {:.2}), largest Parameter Buffer {}\n\n",
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
    out += &engine_notes(r);
    out += &super::fetcher::runs_text(r);
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
    out += &super::fetcher::sensitivity_text(&r.fetcher_sensitivity);
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

/// TCOR's output queue and its stalls, and the baseline's overflow area
/// when its lists used it: a line each.
fn engine_notes(r: &TcorReport) -> String {
    let stalls: Vec<String> = r
        .runs
        .iter()
        .filter(|run| run.engine != ENGINES[0])
        .map(|run| {
            let s = &run.stats.engine;
            format!(
                "{} {} {}",
                thousands(s.attribute_cache_stalls),
                run.engine,
                run.tile_cache
            )
        })
        .collect();
    let mut out = format!(
        "TCOR output queue: {} primitives; Tile Fetcher stalls on locked lines: {}\n",
        r.l2.queue_depth,
        stalls.join(", ")
    );
    for run in r.runs.iter().filter(|run| run.engine == ENGINES[0]) {
        let o = &run.stats.overflow;
        if o.passes > 0 {
            out += &format!(
                "baseline {}: {} render passes outgrew 1024 PMDs per tile ({} tiles, {} PMDs in the overflow area, {} blocks of L2 traffic there)\n",
                run.tile_cache,
                thousands(o.passes),
                thousands(o.tiles),
                thousands(o.pmds),
                thousands(o.l2_blocks)
            );
        }
    }
    out
}

/// A decrease in percent as a signed change: 5.6 -> "-5.6%".
fn change(decrease: f64) -> String {
    format!("{:+.1}%", -decrease + 0.0)
}
