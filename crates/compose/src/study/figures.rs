//! The composed study's figures as specifications over its `runs` table
//! ([`super::tables`]): a group per placement, a bar per miss handling
//! (each in the colour the NBTC study gives it): the frame's speedup over
//! the baseline, each placement's speedup over the first placement under
//! the same L1 (the figure that answers whether a non-blocking L1 makes a
//! placement's remote hits cheaper to wait for), where the accesses were
//! served, and the stalls and bus waits behind them. A suite's figures
//! draw the mean rows and each scene.

use gfxcache_nbtc::study::figures::DESIGN_COLOURS;
use gfxcache_report::{Axis, Figure, Panel, Scale};

use super::ComposeReport;

const SPEEDUP: &str = "The frame's fragment time (the slowest unit's cycles) of the baseline pair (the first miss handling under the first placement) over each run's: each design alone (a miss handling under the first placement, a placement under the first miss handling) and each composed pair.";

const PLACEMENT_SPEEDUP: &str = "Each placement's frame time against the first placement's under the same miss handling: what the placement gains with that L1. A placement whose bar is higher under a non-blocking L1 than under the blocking cache has remote hits (and L2 requests) that the non-blocking L1 waits for at a lower cost: the two designs gain more together than their speedups multiplied.";

const SERVED: &str = "Where the placement served the texture caches' accesses: the processor's own cache (local), another processor's over the mesh (remote) or the L2.";

const STALLS: &str = "The units' cycles the shader neither ran nor issued (waiting for texture results, buffers full, the blocking cache busy, the drain) over all their cycles, and the mean cycles a transfer waited for the bus to the L2.";

/// The placements of `r`'s runs, in its order.
fn placements(r: &ComposeReport) -> Vec<&'static str> {
    r.config.placements.iter().map(|p| p.name()).collect()
}

/// Bars of `y` from `runs`: a group per placement, a bar per miss
/// handling.
fn by_placement(y: &str, subtitle: &str, label: &str, scale: Scale) -> Panel {
    Panel::bars("runs", Axis::of("placement"), "l1", y)
        .colours(&DESIGN_COLOURS)
        .subtitle(subtitle)
        .y_label(label, scale)
}

/// The figures of one frame's report.
pub fn figures(r: &ComposeReport) -> Vec<Figure> {
    figures_of(r, None)
}

/// The figures, of the rows `scene` names if given (a suite's mean).
fn figures_of(r: &ComposeReport, scene: Option<&str>) -> Vec<Figure> {
    let rows = |p: Panel| match scene {
        Some(s) => p.rows("scene", s),
        None => p,
    };
    let of = match scene {
        Some(s) => format!(", {s}"),
        None => String::new(),
    };
    let first = placements(r).first().copied().unwrap_or_default();
    let segments = [
        ("local_percent", "local"),
        ("remote_percent", "remote"),
        ("l2_percent", "L2"),
    ];
    vec![
        Figure::new(
            "speedup.svg",
            "Each miss handling under each placement against the baseline",
            SPEEDUP,
            vec![rows(
                by_placement(
                    "speedup",
                    &format!("Frame speedup over the baseline{of}"),
                    "speedup",
                    Scale::Ratio,
                )
                .around(1.0),
            )],
        ),
        Figure::new(
            "placement_speedup.svg",
            &format!("Each placement against {first} caches under the same L1"),
            PLACEMENT_SPEEDUP,
            vec![rows(
                Panel::bars(
                    "runs",
                    Axis::of("placement").except(&[first]),
                    "l1",
                    "placement_speedup",
                )
                .colours(&DESIGN_COLOURS)
                .subtitle(&format!("Speedup over {first} under the same L1{of}"))
                .y_label("speedup", Scale::Ratio)
                .around(1.0),
            )],
        ),
        Figure::new(
            "served.svg",
            "Where the accesses were served",
            SERVED,
            vec![rows(
                Panel::stacked("runs", Axis::of("placement"), "l1", &segments)
                    .subtitle(&format!("Accesses served{of}"))
                    .y_label("% of accesses", Scale::Percent),
            )],
        ),
        Figure::new(
            "stalls.svg",
            "The units' stalls and the bus's waits",
            STALLS,
            vec![
                rows(by_placement(
                    "stall_percent",
                    &format!("Cycles stalled{of}"),
                    "% of unit cycles",
                    Scale::Percent,
                )),
                rows(by_placement(
                    "bus_mean_wait_cycles",
                    &format!("Mean bus wait{of}"),
                    "cycles a transfer",
                    Scale::Ratio,
                )),
            ],
        ),
    ]
}

const SCENES: &str = "Each placement's frame time against the first placement's under the same miss handling, a panel per miss handling, per scene and the mean over the scenes.";

/// The figures of a suite: the mean's, then each placement's speedup per
/// scene, a panel per miss handling.
pub fn suite_figures(scenes: &[&ComposeReport]) -> Vec<Figure> {
    let Some(first) = scenes.first() else {
        return Vec::new();
    };
    let mut out = figures_of(first, Some("mean"));
    let base = placements(first).first().copied().unwrap_or_default();
    out.push(
        Figure::new(
            "placement_speedup_scenes.svg",
            &format!("Each placement against {base} caches under the same L1, per scene"),
            SCENES,
            vec![
                Panel::bars("runs", Axis::of("scene"), "placement", "placement_speedup")
                    .except(&[base])
                    .colours(&gfxcache_nuca::study::figures::ORGANIZATION_COLOURS)
                    .subtitle("Speedup over the first placement under {}")
                    .y_label("speedup", Scale::Ratio)
                    .around(1.0),
            ],
        )
        .facet("l1"),
    );
    out
}
