//! The study's figures as specifications over its tables
//! ([`super::tables`]), named after the paper's figures, the paper's
//! numbers beside ours where it gives them (a light bar, or a marked
//! point, labelled "paper"): Figures 1, 6 and 8-11 as grouped bars,
//! Figure 7 as curves over the private cache sizes, and our sweeps and
//! quad assignments.
//!
//! A suite's figures ([`suite_figures`]) are the paper's per-game charts
//! over the suite's tables: a group of bars per scene, the mean's group,
//! then the paper's number in light tones (Figures 1, 6, 8-11), and the
//! mean of Figure 7 over the private sizes.
//!
//! Only what the report holds is plotted: an organization the study did
//! not run has no bar, a knob it did not sweep no figure.

use gfxcache_cache::format_size;
use gfxcache_report::{Axis, Figure, Line, Panel, Paper, Scale, Stroke};

use gfxcache_cache::SuiteMean;
use gfxcache_report::Lookup;

use super::tables::{
    paper_effective_bytes, Metric, ENERGY, L2_ALL, L2_TEXTURE, LOCAL_HITS, SPEEDUP,
};
use crate::replay::OrgKind;
use crate::study::report::NucaReport;

const FIG1: &str = "With the fewest fragment processors studied, the share of texture accesses after which the block was in 1, 2, ... private caches, and the share in more than one beside the paper's (measured with 4).";

const FIG6: &str = "Change in the texture caches' L2 requests, and in the L2's accesses of every stream (texture requests and the frame's other traffic), against private caches; S-NUCA and the ideal shared cache are ours. The paper's one \"L2 accesses\" number stands beside both.";

const FIG7: &str = "L2 requests of private texture caches of each size (solid), and DTM-NUCA's and its distributed form's at the main size (dashed, flat); a private size whose point is at or below a dashed line matches it. The paper's sizes that match DTM-NUCA's are marked on its line's level.";

const FIG8: &str = "Shares of the texture accesses that hit in the requester's cache (local), in another fragment processor's (remote), and that go to the L2 and hit or miss there, per organization; the paper's local hit shares beside.";

const FIG9: &str = "Frame cycles of private caches over each organization's, minus one, in percent, beside the paper's.";

const FIG10: &str = "Change in energy on the GPU (texture caches, tables, network, L2, static), in memory (DRAM) and in all, against private caches, from our per-event energy model; the paper's total beside.";

const FIG11: &str = "Each organization's speedup over private caches with as many fragment processors, per number studied; the paper's DTM-NUCA speedups with 4 and 32 beside.";

const SWEEP: &str = "One knob changed at a time, the others at the main machine's (the main value is marked \"main\"): each swept organization's local hits, L2 texture requests and speedup against private caches.";

const ASSIGNMENTS: &str = "Each organization on frames whose quads reach the fragment processors another way, each against private caches of its own frame.";

/// The knobs with a figure, and their titles, in the figures' order.
pub const SWEEP_TITLES: [(&str, &str); 7] = [
    ("epoch", "Sweep: epoch length"),
    ("buckets", "Sweep: Affinity Table buckets"),
    ("counter_bits", "Sweep: counter bits"),
    ("page_blocks", "Sweep: blocks per page"),
    ("order", "Sweep: replay order"),
    ("context_unit", "Sweep: what a context holds"),
    ("announced_count", "Sweep: DTM-NUCA-Dist's announced count"),
];

/// The metrics of the sweeps' and the assignments' figures, a panel each.
const COMPARED: [Metric; 3] = [LOCAL_HITS, L2_TEXTURE, SPEEDUP];

/// Every organization in the order of the palette: one colour each in
/// every figure, bars and curves.
pub const ORGANIZATION_COLOURS: [&str; 6] = [
    "private",
    "d-nuca",
    "dtm-nuca",
    "dtm-nuca-dist",
    "s-nuca",
    "ideal-shared",
];

/// The palette colour of organization `kind` ([`ORGANIZATION_COLOURS`]).
fn colour_of(kind: OrgKind) -> usize {
    ORGANIZATION_COLOURS
        .iter()
        .position(|n| *n == kind.name())
        .unwrap_or(0)
}

/// A bar per organization other than private of `metric` on the main
/// frame, the paper's beside.
fn by_organization(metric: Metric, subtitle: &str) -> Panel {
    Panel::bars(
        "organizations",
        Axis::of("organization").except(&[OrgKind::Private.name()]),
        "organization",
        metric.column,
    )
    .one("ours")
    .subtitle(subtitle)
    .y_label(metric.name, Scale::Percent)
    .paper(Paper::Series {
        name: "paper".into(),
        column: metric.paper_column.into(),
        of: "ours".into(),
    })
    .reference(0.0)
}

/// Every figure: the paper's in its order (Figure 7's curves after
/// Figure 6, as the page reads them), then a figure per knob swept, then
/// the quad assignments.
pub fn figures(r: &NucaReport) -> Vec<Figure> {
    let private = OrgKind::Private.name();
    let mut out = vec![
        Figure::new(
            "fig1_replication.svg",
            "Figure 1: replication in private texture caches",
            FIG1,
            vec![
                Panel::bars(
                    "replication",
                    Axis::of("caches").format("in {}"),
                    "",
                    "share_percent",
                )
                .rows("reference", "")
                .one("ours")
                .subtitle(&format!(
                    "{} private caches: caches holding the block",
                    r.replication.fps
                ))
                .y_label("texture accesses %", Scale::Percent),
                Panel::bars(
                    "replication",
                    Axis::of("fragment_processors").format("{} caches"),
                    "",
                    "replicated_percent",
                )
                .rows("reference", "")
                .one("ours")
                .subtitle("In more than one cache")
                .y_label("texture accesses %", Scale::Percent)
                .paper(Paper::Row {
                    name: "paper (4 caches)".into(),
                    rows: vec![("reference".into(), "paper".into())],
                    column: "replicated_percent".into(),
                }),
            ],
        ),
        Figure::new(
            "fig6_l2_accesses.svg",
            "Figure 6: L2 accesses against private caches",
            FIG6,
            vec![
                by_organization(L2_TEXTURE, "Texture requests to the L2"),
                by_organization(L2_ALL, "L2 accesses of every stream"),
            ],
        ),
        Figure::new(
            "fig7_capacity.svg",
            "Figure 7: effective capacity",
            FIG7,
            vec![capacity(r)],
        ),
        Figure::new(
            "fig8_hits.svg",
            "Figure 8: where texture accesses are served",
            FIG8,
            vec![Panel::bars(
                "organizations",
                Axis::of("organization"),
                "",
                "local_hit_percent",
            )
            .one("ours")
            .measures(&[
                ("local_hit_percent", "local hit"),
                ("remote_hit_percent", "remote hit"),
                ("l2_hit_percent", "L2 hit"),
                ("l2_miss_percent", "L2 miss"),
            ])
            .subtitle("Shares of the texture accesses")
            .y_label("texture accesses %", Scale::Percent)
            .paper(Paper::Series {
                name: "paper local hit".into(),
                column: LOCAL_HITS.paper_column.into(),
                of: "ours".into(),
            })],
        ),
        Figure::new(
            "fig9_speedup.svg",
            "Figure 9: speedup over private caches",
            FIG9,
            vec![by_organization(
                SPEEDUP,
                &format!("{} fragment processors", r.config.fps),
            )],
        ),
        Figure::new(
            "fig10_energy.svg",
            "Figure 10: energy against private caches",
            FIG10,
            vec![Panel::bars(
                "organizations",
                Axis::of("organization").except(&[private]),
                "",
                ENERGY.column,
            )
            .one("ours")
            .measures(&[
                ("gpu_energy_change_percent", "GPU"),
                ("memory_energy_change_percent", "memory"),
                (ENERGY.column, "total"),
            ])
            .subtitle("Energy by part")
            .y_label(ENERGY.name, Scale::Percent)
            .paper(Paper::Series {
                name: "paper total".into(),
                column: ENERGY.paper_column.into(),
                of: "ours".into(),
            })
            .reference(0.0)],
        ),
        Figure::new(
            "fig11_scaling.svg",
            "Figure 11: speedup by number of fragment processors",
            FIG11,
            vec![Panel::bars(
                "scaling",
                Axis::of("fragment_processors").format("P = {}"),
                "organization",
                SPEEDUP.column,
            )
            .except(&[private])
            .colours(&ORGANIZATION_COLOURS)
            .subtitle("Speedup over private caches with as many fragment processors")
            .y_label(SPEEDUP.name, Scale::Percent)
            .paper(Paper::Each {
                format: "paper {}".into(),
                column: SPEEDUP.paper_column.into(),
            })
            .reference(0.0)],
        ),
    ];
    for (knob, title) in SWEEP_TITLES {
        if !r.sweeps.iter().any(|p| p.knob == knob) {
            continue;
        }
        let panels = COMPARED
            .into_iter()
            .map(|m| {
                Panel::bars(
                    "sweeps",
                    Axis::of("value").mark("main", "{} (main)"),
                    "organization",
                    m.column,
                )
                .rows("knob", knob)
                .colours(&ORGANIZATION_COLOURS)
                .subtitle(&format!("{}: {knob}", m.name))
                .y_label(m.name, Scale::Percent)
                .reference(0.0)
            })
            .collect();
        out.push(Figure::new(
            &format!("sweep_{knob}.svg"),
            title,
            SWEEP,
            panels,
        ));
    }
    let panels = COMPARED
        .into_iter()
        .map(|m| {
            Panel::bars(
                "assignments",
                Axis::of("assignment"),
                "organization",
                m.column,
            )
            .except(&[private])
            .colours(&ORGANIZATION_COLOURS)
            .subtitle(m.name)
            .y_label(m.name, Scale::Percent)
            .reference(0.0)
        })
        .collect();
    out.push(Figure::new(
        "assignments.svg",
        "Quad assignments",
        ASSIGNMENTS,
        panels,
    ));
    out
}

/// Figure 7: the private caches' L2 requests by size, and each DTM-NUCA
/// form's at the main size as a flat line across every size (dashed) in
/// its colour, the paper's matching size a point on it.
fn capacity(r: &NucaReport) -> Panel {
    let at = format_size(r.config.tc_bytes);
    let mut lines = vec![Line::new(
        "private",
        "l2_requests",
        colour_of(OrgKind::Private),
        Stroke::Solid,
    )];
    let forms = [
        (OrgKind::Dtm, "dtm_l2_requests"),
        (OrgKind::DtmDist, "dtm_dist_l2_requests"),
    ];
    for (kind, column) in forms {
        let colour = colour_of(kind);
        if r.row(kind).is_none() {
            continue;
        }
        let name = format!("{} at {at}", kind.name());
        lines.push(Line::new(&name, column, colour, Stroke::Dashed));
        if let Some(bytes) = paper_effective_bytes(&r.paper, kind) {
            let name = format!("paper: {} = private {}", kind.name(), format_size(bytes));
            lines.push(
                Line::new(&name, column, colour, Stroke::Solid)
                    .rows("paper_effective", kind.name()),
            );
        }
    }
    Panel::curves("capacity", "tc_bytes", lines)
        .subtitle("Private texture caches by size")
        .y_label("L2 requests", Scale::Ratio)
}

// ---- A suite's ------------------------------------------------------------------

/// A bar per organization of `metric` (private left out unless
/// `with_private`), a group per scene and the mean's, then the paper's.
fn by_scene(metric: Metric, subtitle: &str, with_private: bool) -> Panel {
    let panel = Panel::bars(
        "organizations",
        Axis::of("scene"),
        "organization",
        metric.column,
    )
    .colours(&ORGANIZATION_COLOURS);
    let panel = if with_private {
        panel
    } else {
        panel.except(&[OrgKind::Private.name()])
    };
    panel
        .subtitle(subtitle)
        .y_label(metric.name, Scale::Percent)
        .paper(Paper::Group {
            name: "paper".into(),
            column: metric.paper_column.into(),
        })
        .reference(0.0)
}

/// The suite's figures over its tables, in the paper's order (Figure 7's
/// mean after Figure 6).
pub fn suite_figures(scenes: &[&NucaReport]) -> Vec<Figure> {
    if scenes.is_empty() {
        return Vec::new();
    }
    let mean = NucaReport::suite_mean(scenes);
    let fig1 = Panel::bars("replication", Axis::of("scene"), "", "replicated_percent")
        .rows("reference", "")
        .one("ours")
        .subtitle(&format!(
            "In more than one of {} caches",
            mean.replication_fps
        ))
        .y_label("texture accesses %", Scale::Percent)
        .paper(Paper::GroupLookup {
            name: "paper (4 caches)".into(),
            lookup: Lookup::new("replication")
                .rows("reference", "paper")
                .column("ours", "replicated_percent"),
        });
    let fig11 = Panel::bars("scaling", Axis::of("scene"), "organization", SPEEDUP.column)
        .colours(&ORGANIZATION_COLOURS)
        .except(&[OrgKind::Private.name()])
        .subtitle("P = {}")
        .y_label(SPEEDUP.name, Scale::Percent)
        .paper(Paper::Group {
            name: "paper".into(),
            column: SPEEDUP.paper_column.into(),
        })
        .reference(0.0);
    vec![
        Figure::new(
            "fig1_replication.svg",
            "Figure 1: replication in private texture caches per scene",
            "The share of texture accesses whose block is in more than one private cache, with the fewest fragment processors studied, per scene, their mean and the paper's (with 4).",
            vec![fig1],
        ),
        Figure::new(
            "fig6_l2_accesses.svg",
            "Figure 6: L2 accesses against private caches per scene",
            "Change in the texture caches' L2 requests and in the L2's accesses of every stream against private caches, per scene, their mean and the paper's \"L2 accesses\".",
            vec![
                by_scene(L2_TEXTURE, "Texture requests to the L2", false),
                by_scene(L2_ALL, "L2 accesses of every stream", false),
            ],
        ),
        Figure::new(
            "fig7_capacity.svg",
            "Figure 7: effective capacity, mean over the scenes",
            "The scenes' mean L2 requests of private caches of each size over those at the main size (solid), and DTM-NUCA's and its distributed form's mean at the main size (dashed, flat); the paper's matching sizes marked on their level.",
            vec![mean_capacity(scenes, &mean.paper)],
        ),
        Figure::new(
            "fig8_hits.svg",
            "Figure 8: local hits per scene",
            "The share of texture accesses that hit in the requester's own cache, per organization and scene, their mean and the paper's.",
            vec![by_scene(LOCAL_HITS, "Local hits", true)],
        ),
        Figure::new(
            "fig9_speedup.svg",
            "Figure 9: speedup over private caches per scene",
            "Private caches' frame cycles over each organization's, minus one, per scene, their mean and the paper's.",
            vec![by_scene(SPEEDUP, "Speedup", false)],
        ),
        Figure::new(
            "fig10_energy.svg",
            "Figure 10: energy against private caches per scene",
            "Change in total energy (GPU and memory) against private caches, per scene, their mean and the paper's.",
            vec![by_scene(ENERGY, "Total energy", false)],
        ),
        Figure::new(
            "fig11_scaling.svg",
            "Figure 11: speedup by number of fragment processors per scene",
            "Each organization's speedup over private caches with as many fragment processors, a panel per number, per scene, their mean and the paper's (DTM-NUCA with 4 and 32).",
            vec![fig11],
        )
        .facet("fragment_processors"),
    ]
}

/// Figure 7's mean: the private caches' L2 requests as a ratio over the
/// main size's (the mean change plus one), and each DTM-NUCA form every
/// scene ran flat at its mean change (dashed) over every size, the
/// paper's matching size a point on it.
fn mean_capacity(scenes: &[&NucaReport], paper: &super::paper::PaperNumbers) -> Panel {
    let at = scenes
        .first()
        .map(|r| format_size(r.config.tc_bytes))
        .unwrap_or_default();
    let private = colour_of(OrgKind::Private);
    let mut lines =
        vec![Line::new("private", "l2_change_percent", private, Stroke::Solid).change()];
    for kind in [OrgKind::Dtm, OrgKind::DtmDist] {
        let colour = colour_of(kind);
        if !scenes.iter().all(|r| r.row(kind).is_some()) {
            continue;
        }
        let level = [("scene", "mean"), ("organization", kind.name())];
        let column = L2_TEXTURE.column;
        let name = format!("{} at {at}", kind.name());
        lines.push(
            Line::new(&name, column, colour, Stroke::Dashed)
                .level("organizations", &level, column)
                .change(),
        );
        if let Some(bytes) = paper_effective_bytes(paper, kind) {
            let name = format!("paper: {} = private {}", kind.name(), format_size(bytes));
            lines.push(
                Line::new(&name, column, colour, Stroke::Solid)
                    .rows("paper_effective", kind.name())
                    .level("organizations", &level, column)
                    .change(),
            );
        }
    }
    Panel::curves("capacity", "tc_bytes", lines)
        .rows("scene", "mean")
        .subtitle("Private texture caches by size, mean over the scenes")
        .y_label("L2 requests over private at the main size", Scale::Ratio)
}
