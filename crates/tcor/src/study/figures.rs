//! The study's figures as specifications over its tables
//! ([`super::tables`]), named after the paper's: the Attribute Cache's
//! miss-ratio curves (Figures 11-13, from `curves`) and, a panel per Tile
//! Cache size, the three Tiling Engines' traffic, energy and Tile Fetcher
//! throughput (Figures 14-24, from `engines`) with the paper's averages
//! (from `reductions`) beside ours; and the suite's: the mean curves, and
//! a group of bars per scene, the mean's and the paper's.
//!
//! Only what the report holds is plotted: a curve the study did not sweep
//! has no line, a Tile Cache size without a value (or without a baseline
//! to normalise to) no panel, and a figure with nothing to show is not
//! written at all.

use gfxcache_cache::format_size;
use gfxcache_report::{Axis, Figure, Line, Lookup, Panel, Paper, Scale, Stroke};

use super::mean::EngineFigure;
use super::paper;
use super::report::{TcorReport, ENGINES};
use super::tables::figure_column;

/// The engine whose decreases the paper averages.
const TCOR: &str = ENGINES[2];
/// TCOR without its L2 enhancements, whose energy the paper gives too.
const TCOR_NO_L2: &str = ENGINES[1];

/// The policies of Figures 11 and 13, and the way counts of Figure 12.
const FULL_POLICIES: [&str; 2] = ["opt", "lru"];
const FOUR_WAY_POLICIES: [&str; 4] = ["opt", "lru", "mru", "drrip"];
const WAYS: [&str; 4] = ["1", "2", "4", "8"];

const FIG11: &str = "fig11_full.svg";
const FIG12: &str = "fig12_ways.svg";
const FIG13: &str = "fig13_4way.svg";

/// The curves figures' files, titles and captions: a scene's, then a
/// suite's (the scenes' mean).
const CURVES: [(&str, &str, &str, &str, &str); 3] = [
    (
        FIG11,
        "Figure 11: fully associative Attribute Cache",
        "Miss ratio of a fully associative Attribute Cache under OPT and LRU at each swept size (misses are every write plus every read miss, in primitives, over reads and writes), and the lower bound (LB) of the same cache.",
        "Figure 11: fully associative Attribute Cache, mean over the scenes",
        "The scenes' mean miss ratio of a fully associative Attribute Cache under OPT and LRU at each size every scene swept, and the mean lower bound (LB).",
    ),
    (
        FIG12,
        "Figure 12: Attribute Cache associativity",
        "Miss ratio under OPT (top) and LRU (below, on the same axes) with 1, 2, 4 and 8 ways, one colour per way count; the associativities the study did not sweep are left out.",
        "Figure 12: Attribute Cache associativity, mean over the scenes",
        "The scenes' mean miss ratio under OPT (top) and LRU (below, on the same axes) with 1, 2, 4 and 8 ways, one colour per way count.",
    ),
    (
        FIG13,
        "Figure 13: 4-way Attribute Cache replacement",
        "Miss ratio of a 4-way Attribute Cache under OPT, LRU, MRU and DRRIP, and the lower bound (LB) of the 4-way cache.",
        "Figure 13: 4-way Attribute Cache replacement, mean over the scenes",
        "The scenes' mean miss ratio of a 4-way Attribute Cache under OPT, LRU, MRU and DRRIP, and the mean lower bound (LB).",
    ),
];

/// A Tiling Engine figure: its file, the figure it plots, the scene's
/// title and caption, the suite's.
struct EngineFig {
    file: &'static str,
    figure: EngineFigure,
    title: &'static str,
    caption: &'static str,
    suite_title: &'static str,
    suite_caption: &'static str,
}

const ENGINE_FIGURES: [EngineFig; 5] = [
    EngineFig {
        file: "fig14_15_pb_l2.svg",
        figure: EngineFigure::PbL2Accesses,
        title: "Figures 14-15: Parameter Buffer accesses to the L2",
        caption: "Parameter Buffer blocks each Tiling Engine reads from and writes to the L2, over the baseline's, per Tile Cache size; in parentheses the blocks. Grey: the paper's average for TCOR.",
        suite_title: "Figures 14-15: Parameter Buffer accesses to the L2 per scene",
        suite_caption: "Parameter Buffer blocks each TCOR engine reads from and writes to the L2 over the baseline's, per scene and Tile Cache size, the mean of the scenes' ratios, and the paper's average for TCOR.",
    },
    EngineFig {
        file: "fig16_17_pb_dram.svg",
        figure: EngineFigure::PbDramAccesses,
        title: "Figures 16-17: Parameter Buffer accesses to main memory",
        caption: "Parameter Buffer blocks read from or written to main memory, over the baseline's, per Tile Cache size; in parentheses the blocks. Grey: the paper's average for TCOR.",
        suite_title: "Figures 16-17: Parameter Buffer accesses to main memory per scene",
        suite_caption: "Parameter Buffer blocks read from or written to main memory over the baseline's, per scene, their mean and the paper's average for TCOR; a scene whose baseline sends none has no bar.",
    },
    EngineFig {
        file: "fig18_19_dram.svg",
        figure: EngineFigure::DramAccesses,
        title: "Figures 18-19: main-memory accesses",
        caption: "Every main-memory access of the frame (L2 misses and write-backs, and tile-buffer traffic when it bypasses the L2), over the baseline's; in parentheses the accesses. Grey: the paper's average for TCOR.",
        suite_title: "Figures 18-19: main-memory accesses per scene",
        suite_caption: "Every main-memory access of the frame over the baseline's, per scene, their mean and the paper's average for TCOR.",
    },
    EngineFig {
        file: "fig20_21_energy.svg",
        figure: EngineFigure::EnergyNj,
        title: "Figures 20-21: memory-hierarchy energy",
        caption: "Dynamic energy of the L1s, the L2 and main memory, and their total, over the baseline's total, from our per-access energy model (the paper used McPAT and DRAMSim2). Grey: the paper's averages for the totals.",
        suite_title: "Figures 20-21: memory-hierarchy energy per scene",
        suite_caption: "Dynamic energy of the L1s, the L2 and main memory over the baseline's, per scene, their mean and the paper's averages (TCOR without and with its L2 enhancements), from our per-access energy model.",
    },
    EngineFig {
        file: "fig23_24_fetcher.svg",
        figure: EngineFigure::PrimitivesPerCycle,
        title: "Figures 23-24: Tile Fetcher throughput",
        caption: "Primitives the Tile Fetcher outputs per cycle (at most one) to an unbounded output queue, timed as the setup says; absolute, so the paper's speedups are in the tables above rather than here.",
        suite_title: "Figures 23-24: Tile Fetcher throughput per scene",
        suite_caption: "Primitives the Tile Fetcher outputs per cycle over the baseline's (its speedup), per scene, their mean and the paper's average.",
    },
];

/// Every file the figures may be written to, curves first, in the
/// paper's order (a scene's and a suite's are the same files).
pub const FILES: [&str; 8] = [
    FIG11,
    FIG12,
    FIG13,
    "fig14_15_pb_l2.svg",
    "fig16_17_pb_dram.svg",
    "fig18_19_dram.svg",
    "fig20_21_energy.svg",
    "fig23_24_fetcher.svg",
];

// ---- Attribute Cache curves -------------------------------------------------

/// A panel of `policies` at `ways` from `curves`, one colour each, and the
/// lower bound of `bound`'s curve (the first policy swept: a bound is the
/// cache's, whichever policy's run counted it); `mean` keeps to a suite's
/// mean rows.
fn policies_at(
    ways: &str,
    policies: &[&str],
    bound: Option<&str>,
    subtitle: &str,
    mean: bool,
) -> Panel {
    let mut lines: Vec<Line> = policies
        .iter()
        .enumerate()
        .map(|(k, policy)| {
            Line::new(&policy.to_uppercase(), "miss_ratio", k, Stroke::Solid)
                .rows("policy", policy)
                .rows("ways", ways)
        })
        .collect();
    if let Some(policy) = bound {
        lines.push(
            Line::bound("LB", "lower_bound_ratio")
                .rows("policy", policy)
                .rows("ways", ways),
        );
    }
    curves_panel(lines, subtitle, mean)
}

fn curves_panel(lines: Vec<Line>, subtitle: &str, mean: bool) -> Panel {
    let label = if mean {
        "mean miss ratio"
    } else {
        "miss ratio"
    };
    let panel = Panel::curves("curves", "bytes", lines)
        .subtitle(subtitle)
        .y_label(label, Scale::Ratio);
    if mean {
        panel.rows("scene", "mean")
    } else {
        panel
    }
}

/// A panel per policy, OPT's above LRU's, a line per way count on one y
/// axis: the gap between the policies at a way count reads across panels
/// at the same height, and the way counts read within one.
fn by_way_count(mean: bool) -> Vec<Panel> {
    ["opt", "lru"]
        .iter()
        .map(|policy| {
            let name = policy.to_uppercase();
            let lines = WAYS
                .iter()
                .enumerate()
                .map(|(k, ways)| {
                    Line::new(
                        &format!("{name} {ways}-way"),
                        "miss_ratio",
                        k,
                        Stroke::Solid,
                    )
                    .rows("policy", policy)
                    .rows("ways", ways)
                })
                .collect();
            curves_panel(lines, &format!("{name} by way count"), mean)
        })
        .collect()
}

/// Figures 11-13; `swept(policy, ways)` says whether a curve is there to
/// take the bound from, `scene` picks the scene's words or the suite's.
fn curve_figures(swept: impl Fn(&str, &str) -> bool, scene: bool) -> Vec<Figure> {
    let first =
        |ways: &str, policies: &[&'static str]| policies.iter().copied().find(|p| swept(p, ways));
    let mean = !scene;
    let panels = [
        vec![policies_at(
            "full",
            &FULL_POLICIES,
            first("full", &FULL_POLICIES),
            "Fully associative",
            mean,
        )],
        by_way_count(mean),
        vec![policies_at(
            "4",
            &FOUR_WAY_POLICIES,
            first("4", &FOUR_WAY_POLICIES),
            "4-way",
            mean,
        )],
    ];
    CURVES
        .iter()
        .zip(panels)
        .map(
            |(&(file, title, caption, suite_title, suite_caption), panels)| {
                let fig = if scene {
                    Figure::new(file, title, caption, panels)
                } else {
                    Figure::new(file, suite_title, suite_caption, panels)
                };
                if file == FIG12 {
                    fig.same_y()
                } else {
                    fig
                }
            },
        )
        .collect()
}

// ---- Tiling Engines -----------------------------------------------------------

/// The paper's decrease of `column` for TCOR, from `reductions`.
fn paper_of(column: &str) -> Lookup {
    Lookup::new("reductions")
        .on("tile_cache")
        .column(TCOR, &format!("paper_{column}"))
}

/// A scene's panel of figure `f` per Tile Cache size: each engine's value
/// over the baseline's, noted with the count, the paper's decrease for
/// TCOR beside as a value over the baseline.
fn normalised(f: EngineFigure) -> Panel {
    let column = figure_column(f);
    Panel::bars(
        "engines",
        Axis::of("engine"),
        "",
        &format!("{column}_vs_baseline"),
    )
    .one("ours")
    .subtitle("Tile Cache {}")
    .y_label("over the baseline", Scale::Ratio)
    .note(column)
    .paper(Paper::Lookup {
        name: "paper".into(),
        lookup: paper_of(column).decrease(),
    })
    .reference(1.0)
}

/// A scene's panel of the energy per Tile Cache size: each level's and
/// the total over the baseline's total, so that an engine's three level
/// bars add up to its total; the paper's totals beside.
fn energy() -> Panel {
    Panel::bars("engines", Axis::of("engine"), "", "energy_nj")
        .one("ours")
        .measures(&[
            ("energy_l1_nj", "L1s"),
            ("energy_l2_nj", "L2"),
            ("energy_dram_nj", "main memory"),
            ("energy_nj", "total"),
        ])
        .over("energy_nj", "engine", ENGINES[0])
        .subtitle("Tile Cache {}")
        .y_label("energy over the baseline's total", Scale::Ratio)
        .paper(Paper::Lookup {
            name: "paper total".into(),
            lookup: Lookup::new("reductions")
                .on("tile_cache")
                .column(TCOR_NO_L2, "paper_energy_no_l2")
                .column(TCOR, "paper_energy")
                .decrease(),
        })
        .reference(1.0)
}

/// A scene's panel of the fetcher's primitives per cycle, absolute. No
/// line at the maximum of 1: at our frames' rates it would flatten the
/// bars to nothing.
fn throughput() -> Panel {
    Panel::bars(
        "engines",
        Axis::of("engine"),
        "",
        figure_column(EngineFigure::PrimitivesPerCycle),
    )
    .one("ours")
    .subtitle("Tile Cache {}")
    .y_label("primitives per cycle", Scale::Ratio)
}

/// A suite's panel of figure `f` per Tile Cache size: a bar per TCOR
/// engine over the baseline, a group per scene and the mean's, then the
/// paper's as a last group.
fn per_scene(f: EngineFigure) -> Panel {
    let (label, paper) = match f {
        EngineFigure::EnergyNj => (
            "energy over the baseline's",
            Lookup::new("reductions")
                .on("tile_cache")
                .column(TCOR_NO_L2, "paper_energy_no_l2")
                .column(TCOR, "paper_energy")
                .decrease(),
        ),
        // The paper's speedup is a ratio already.
        EngineFigure::PrimitivesPerCycle => (
            "primitives per cycle over the baseline's",
            paper_of("fetcher_speedup"),
        ),
        _ => ("over the baseline", paper_of(figure_column(f)).decrease()),
    };
    Panel::bars(
        "engines",
        Axis::of("scene"),
        "engine",
        &format!("{}_vs_baseline", figure_column(f)),
    )
    .except(&[ENGINES[0]])
    .subtitle("Tile Cache {}")
    .y_label(label, Scale::Ratio)
    .paper(Paper::GroupLookup {
        name: "paper".into(),
        lookup: paper.rows("scene", "mean"),
    })
    .reference(1.0)
}

// ---- The figures --------------------------------------------------------------

/// A scene's figures: the curves, then the Tiling Engines'.
pub fn figures(r: &TcorReport) -> Vec<Figure> {
    let swept = |policy: &str, ways: &str| {
        r.curves
            .iter()
            .any(|c| c.policy == policy && c.ways == ways)
    };
    let mut out = curve_figures(swept, true);
    if let Some(fig11) = out.iter_mut().find(|f| f.file == FIG11) {
        fig11.reading = Some(reach_words(r));
    }
    for f in &ENGINE_FIGURES {
        let panel = match f.figure {
            EngineFigure::EnergyNj => energy(),
            EngineFigure::PrimitivesPerCycle => throughput(),
            other => normalised(other),
        };
        out.push(Figure::new(f.file, f.title, f.caption, vec![panel]).facet("tile_cache"));
    }
    out
}

/// A suite's figures, over its tables: the mean curves (of the curves
/// every scene swept), then the Tiling Engines' per scene.
pub fn suite_figures(scenes: &[&TcorReport]) -> Vec<Figure> {
    let swept = |policy: &str, ways: &str| {
        !scenes.is_empty()
            && scenes.iter().all(|r| {
                r.curves
                    .iter()
                    .any(|c| c.policy == policy && c.ways == ways)
            })
    };
    let mut out = curve_figures(swept, false);
    for f in &ENGINE_FIGURES {
        out.push(
            Figure::new(
                f.file,
                f.suite_title,
                f.suite_caption,
                vec![per_scene(f.figure)],
            )
            .facet("tile_cache"),
        );
    }
    out
}

/// Figure 11: where OPT and LRU reach the lower bound here, and in the
/// paper (55 and 375 KiB: 6.8 times); empty without the curves.
pub fn reach_words(r: &TcorReport) -> String {
    let at = |policy: &str| {
        let c = r
            .reach
            .curves
            .iter()
            .find(|c| c.policy == policy && c.ways == "full")?;
        Some(c.bytes.map_or("not within the sweep".to_string(), |b| {
            format!("at {}", format_size(b))
        }))
    };
    let (Some(opt), Some(lru)) = (at("opt"), at("lru")) else {
        return String::new();
    };
    let ratio = r.reach.lru_over_opt_full.map_or(String::new(), |x| {
        format!(": LRU needs {x:.1} times OPT's size")
    });
    let (p_opt, p_lru) = (paper::OPT_REACHES_BOUND_KIB, paper::LRU_REACHES_BOUND_KIB);
    format!(
        "Here OPT reaches the lower bound {opt} and LRU {lru}{ratio}; in the paper OPT at \
         {p_opt} KiB and LRU at {p_lru} KiB, {:.1} times.",
        p_lru / p_opt
    )
}
