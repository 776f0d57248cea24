//! The timelines' figure: what GSPC learns along the frame, pass by pass
//! (its PROD and CONS, the insertion RRPVs of render-target fills, and read
//! misses), drawn by [`crate::report::series`] with the pass starts marked.

use crate::report::figure::Figure;
use crate::report::series::SeriesPanel;
use gfxcache_llc::study::report::GspcReport;
use gfxcache_llc::study::timeline::{Interval, Timeline};

/// What the timelines show: why a policy wins or loses, pass by pass.
pub const TIMELINE_FIGURES: &[Figure<GspcReport, SeriesPanel>] = &[Figure {
    file: "timeline_gspc.svg",
    title: "What GSPC learns along the frame",
    caption: "Along the trace (x: LLC accesses; grey lines: pass starts, numbered as in the pass table; black: frame ends): GSPC's PROD and CONS summed over the banks, with 8 and 16 times CONS, the thresholds a render-target fill is compared with (PROD above 16 CONS: RRPV 3; above 8 CONS: RRPV 2; else 0); the share of each interval's render-target fills inserted at each RRPV; and read misses per 1000 accesses of the runs with a timeline.",
    reading: None,
    build: timeline_gspc,
}];

fn timeline<'a>(r: &'a GspcReport, policy: &str) -> Option<&'a Timeline> {
    r.timelines.iter().find(|t| t.policy == policy)
}

/// Millions of accesses at each point of `t`, with `y` of the point.
fn along(t: &Timeline, y: impl Fn(usize) -> Option<f64>) -> Vec<(f64, f64)> {
    (0..t.points.len())
        .filter_map(|i| y(i).map(|v| (t.points[i].at as f64 / 1e6, v)))
        .collect()
}

/// Pass starts (numbered from 1, as the page's pass table) and frame ends.
fn marks(t: &Timeline) -> (Vec<(f64, String)>, Vec<f64>) {
    let start = |k: usize| {
        let first = t.passes[k].first_point as usize;
        let before = first.checked_sub(1).map_or(0, |i| t.points[i].at);
        before as f64 / 1e6
    };
    let passes = (0..t.passes.len())
        .map(|k| (start(k), (k + 1).to_string()))
        .collect();
    let frames = (1..t.passes.len())
        .filter(|&k| t.passes[k].frame != t.passes[k - 1].frame)
        .map(start)
        .collect();
    (passes, frames)
}

fn timeline_gspc(r: &GspcReport) -> Vec<SeriesPanel> {
    let Some(g) = timeline(r, "gspc") else {
        return Vec::new();
    };
    let x = "LLC accesses (millions)";
    let state = |name: &str| g.state.iter().position(|n| n == name);
    let (marks, frames) = marks(g);
    let mut counters = SeriesPanel::new("GSPC's PROD and CONS, summed over the banks", x, "count");
    if let (Some(prod), Some(cons)) = (state("prod"), state("cons")) {
        let s = |k: usize, times: f64| along(g, |i| Some(g.points[i].state[k] * times));
        counters = counters
            .series("PROD", 0, s(prod, 1.0))
            .series("CONS", 1, s(cons, 1.0))
            .series("8 CONS", 2, s(cons, 8.0))
            .series("16 CONS", 3, s(cons, 16.0));
    }
    let share = |t: &Timeline, band: usize| {
        along(t, |i| {
            let iv: &Interval = &t.points[i].interval;
            let fills: u64 = iv.rt_fills_by_rrpv.iter().sum();
            (fills > 0).then(|| 100.0 * iv.rt_fills_by_rrpv[band] as f64 / fills as f64)
        })
    };
    let mut rrpv = SeriesPanel::new(
        "Render-target fills by insertion RRPV",
        x,
        "% of the interval's RT fills",
    )
    .series("GSPC at RRPV 3", 0, share(g, 0))
    .series("GSPC at RRPV 2", 1, share(g, 1))
    .series("GSPC at RRPV 0", 2, share(g, 3));
    if let Some(d) = timeline(r, "drrip") {
        rrpv = rrpv.series("DRRIP at RRPV 3", 3, share(d, 0));
    }
    let mut misses = SeriesPanel::new(
        "Read misses per 1000 LLC accesses",
        x,
        "read misses / 1000 accesses",
    );
    for (k, t) in r.timelines.iter().enumerate() {
        let per_k = along(t, |i| {
            let iv = &t.points[i].interval;
            (iv.accesses > 0).then(|| 1000.0 * iv.read_misses as f64 / iv.accesses as f64)
        });
        misses = misses.series(t.policy.as_str(), k, per_k);
    }
    [counters, rrpv, misses]
        .into_iter()
        .map(|p| p.marks(marks.clone(), frames.clone()))
        .collect()
}
