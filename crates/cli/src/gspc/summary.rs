//! What `gfxcache gspc` prints without `--json`: one row per run.

use gfxcache_cache::format_size;
use gfxcache_llc::study::GspcReport;

use crate::table::{percent, thousands, Table};

/// The summary table: one row per run.
pub fn text(r: &GspcReport) -> String {
    let frames = match (r.frames, r.warmup) {
        (1, _) => "1 frame".to_string(),
        (n, 0) => format!("{n} frames"),
        (n, w) => format!("{} frames after {w} of warm-up, of {n}", n - w),
    };
    let mut out = format!(
        "GSPC study of {} ({frames}, {} LLC block accesses), {}-way, {} B blocks, {} banks\n\n",
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
