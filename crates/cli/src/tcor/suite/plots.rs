//! The suite's SVG figures, as the TCOR paper draws its per-game charts: a
//! panel per Tile Cache size with a group of bars per scene (each TCOR
//! engine over the baseline), the mean's group and the paper's average in
//! light tones (Figures 14-24), and the mean Attribute Cache curves
//! (Figures 11-13). Only what the reports hold is plotted.

use std::path::{Path, PathBuf};

use gfxcache_tcor::study::mean::{CurveMean, EngineFigure};
use gfxcache_tcor::study::report::{Reductions, ENGINES};

use super::{categories, find_mean, tile_caches, TcorSuite};
use crate::report::bars::{Panel, Unit};
use crate::report::curves::{same_y, CurvePanel, Stroke};
use crate::report::figure::{self, write_figures, Figure};

/// The mean Attribute Cache curves, in the paper's order.
pub const CURVE_FIGURES: &[Figure<TcorSuite, CurvePanel>] = &[
    Figure {
        file: "fig11_full.svg",
        title: "Figure 11: fully associative Attribute Cache, mean over the scenes",
        caption: "The scenes' mean miss ratio of a fully associative Attribute Cache under OPT and LRU at each size every scene swept, and the mean lower bound (LB).",
        reading: None,
        build: fig11,
    },
    Figure {
        file: "fig12_ways.svg",
        title: "Figure 12: Attribute Cache associativity, mean over the scenes",
        caption: "The scenes' mean miss ratio under OPT (top) and LRU (below, on the same axes) with 1, 2, 4 and 8 ways, one colour per way count.",
        reading: None,
        build: fig12,
    },
    Figure {
        file: "fig13_4way.svg",
        title: "Figure 13: 4-way Attribute Cache replacement, mean over the scenes",
        caption: "The scenes' mean miss ratio of a 4-way Attribute Cache under OPT, LRU, MRU and DRRIP, and the mean lower bound (LB).",
        reading: None,
        build: fig13,
    },
];

/// The Tiling Engine figures per scene, in the paper's order.
pub const BAR_FIGURES: &[Figure<TcorSuite, Panel>] = &[
    Figure {
        file: "fig14_15_pb_l2.svg",
        title: "Figures 14-15: Parameter Buffer accesses to the L2 per scene",
        caption: "Parameter Buffer blocks each TCOR engine reads from and writes to the L2 over the baseline's, per scene and Tile Cache size, the mean of the scenes' ratios, and the paper's average for TCOR.",
        reading: None,
        build: fig14_15,
    },
    Figure {
        file: "fig16_17_pb_dram.svg",
        title: "Figures 16-17: Parameter Buffer accesses to main memory per scene",
        caption: "Parameter Buffer blocks read from or written to main memory over the baseline's, per scene, their mean and the paper's average for TCOR; a scene whose baseline sends none has no bar.",
        reading: None,
        build: fig16_17,
    },
    Figure {
        file: "fig18_19_dram.svg",
        title: "Figures 18-19: main-memory accesses per scene",
        caption: "Every main-memory access of the frame over the baseline's, per scene, their mean and the paper's average for TCOR.",
        reading: None,
        build: fig18_19,
    },
    Figure {
        file: "fig20_21_energy.svg",
        title: "Figures 20-21: memory-hierarchy energy per scene",
        caption: "Dynamic energy of the L1s, the L2 and main memory over the baseline's, per scene, their mean and the paper's averages (TCOR without and with its L2 enhancements), from our per-access energy model.",
        reading: None,
        build: fig20_21,
    },
    Figure {
        file: "fig23_24_fetcher.svg",
        title: "Figures 23-24: Tile Fetcher throughput per scene",
        caption: "Primitives the Tile Fetcher outputs per cycle over the baseline's (its speedup), per scene, their mean and the paper's average.",
        reading: None,
        build: fig23_24,
    },
];

/// Writes every figure that has something to show into `dir`; returns the
/// paths written, curves first, in the paper's order.
pub fn write_all(r: &TcorSuite, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut written = write_figures(r, CURVE_FIGURES, dir)?;
    written.extend(write_figures(r, BAR_FIGURES, dir)?);
    Ok(written)
}

/// Every figure's title and caption as the page shows them (as
/// [`crate::tcor::plots::captions`]).
pub fn captions(r: &TcorSuite) -> Vec<gfxcache_report::Figure> {
    let mut all = figure::captions(CURVE_FIGURES, r);
    all.extend(figure::captions(BAR_FIGURES, r));
    all
}

// ---- Mean Attribute Cache curves ------------------------------------------

const MISS_RATIO: &str = "mean miss ratio";

fn find_curve<'a>(r: &'a TcorSuite, policy: &str, ways: &str) -> Option<&'a CurveMean> {
    r.mean
        .curves
        .iter()
        .find(|c| c.policy == policy && c.ways == ways)
}

fn miss_ratios(c: &CurveMean) -> Vec<(u64, f64)> {
    c.points.iter().map(|p| (p.bytes, p.miss_ratio)).collect()
}

fn bound(c: &CurveMean) -> Vec<(u64, f64)> {
    c.points
        .iter()
        .map(|p| (p.bytes, p.lower_bound_ratio))
        .collect()
}

/// `policies` at `ways`, one colour each, and the bound of the first.
fn policies_at(r: &TcorSuite, ways: &str, policies: &[&str], subtitle: &str) -> CurvePanel {
    let mut panel = CurvePanel::new(subtitle, MISS_RATIO);
    for (k, policy) in policies.iter().enumerate() {
        if let Some(c) = find_curve(r, policy, ways) {
            panel = panel.line(policy.to_uppercase(), k, Stroke::Solid, miss_ratios(c));
        }
    }
    match policies.iter().find_map(|p| find_curve(r, p, ways)) {
        Some(c) => panel.bound("LB", bound(c)),
        None => panel,
    }
}

fn fig11(r: &TcorSuite) -> Vec<CurvePanel> {
    vec![policies_at(r, "full", &["opt", "lru"], "Fully associative")]
}

/// A panel per policy, OPT's above LRU's, a line per way count on one y
/// axis: the gap between the policies at a way count reads across panels
/// at the same height, and the way counts read within one.
fn fig12(r: &TcorSuite) -> Vec<CurvePanel> {
    let panels = ["opt", "lru"].map(|policy| {
        let title = format!("{} by way count", policy.to_uppercase());
        let mut panel = CurvePanel::new(&title, MISS_RATIO);
        for (k, ways) in ["1", "2", "4", "8"].iter().enumerate() {
            if let Some(c) = find_curve(r, policy, ways) {
                let label = format!("{} {ways}-way", policy.to_uppercase());
                panel = panel.line(label, k, Stroke::Solid, miss_ratios(c));
            }
        }
        panel
    });
    same_y(panels.into())
}

fn fig13(r: &TcorSuite) -> Vec<CurvePanel> {
    vec![policies_at(
        r,
        "4",
        &["opt", "lru", "mru", "drrip"],
        "4-way",
    )]
}

// ---- Tiling Engines per scene -----------------------------------------------

/// One panel per Tile Cache size: a series per TCOR engine of figure `f`
/// over the baseline's, a group per scene and the mean's, then the paper's
/// decreases (percent, per engine; `paper`) as values over the baseline.
fn per_scene(
    r: &TcorSuite,
    f: EngineFigure,
    y_label: &str,
    paper: fn(&Reductions) -> [Option<f64>; 2],
) -> Vec<Panel> {
    tile_caches(r)
        .iter()
        .map(|size| {
            let mut panel = Panel::new(
                &format!("Tile Cache {size}"),
                y_label,
                Unit::Ratio,
                categories(r),
            );
            for engine in &ENGINES[1..] {
                let scenes = r
                    .scenes
                    .iter()
                    .map(|s| f.vs_baseline(&s.report, size, engine));
                let mean = find_mean(r, engine, size).and_then(|m| m.vs_baseline(f));
                panel = panel.series(*engine, scenes.chain([mean]).collect());
            }
            let decreases = r.mean.paper.get(size).map(paper).unwrap_or_default();
            panel
                .paper_group("paper", |engine| {
                    let k = ENGINES[1..].iter().position(|e| *e == engine)?;
                    decreases[k]
                })
                .reference(1.0)
        })
        .collect()
}

/// The paper's decrease of TCOR (percent) as a value over the baseline.
fn over_baseline(decrease: f64) -> Option<f64> {
    Some(1.0 - decrease / 100.0)
}

fn fig14_15(r: &TcorSuite) -> Vec<Panel> {
    per_scene(r, EngineFigure::PbL2Accesses, "over the baseline", |p| {
        [None, over_baseline(p.pb_l2_accesses)]
    })
}

fn fig16_17(r: &TcorSuite) -> Vec<Panel> {
    per_scene(r, EngineFigure::PbDramAccesses, "over the baseline", |p| {
        [None, over_baseline(p.pb_dram_accesses)]
    })
}

fn fig18_19(r: &TcorSuite) -> Vec<Panel> {
    per_scene(r, EngineFigure::DramAccesses, "over the baseline", |p| {
        [None, over_baseline(p.dram_accesses)]
    })
}

fn fig20_21(r: &TcorSuite) -> Vec<Panel> {
    per_scene(
        r,
        EngineFigure::EnergyNj,
        "energy over the baseline's",
        |p| [over_baseline(p.energy_no_l2), over_baseline(p.energy)],
    )
}

fn fig23_24(r: &TcorSuite) -> Vec<Panel> {
    per_scene(
        r,
        EngineFigure::PrimitivesPerCycle,
        "primitives per cycle over the baseline's",
        |p| [None, Some(p.fetcher_speedup)],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcor::suite::test_suite::suite;

    #[test]
    fn every_bar_figure_has_a_bar_per_scene_the_mean_and_the_paper() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let r = suite();
        write_all(&r, dir.path())?;
        for fig in BAR_FIGURES {
            let svg = std::fs::read_to_string(dir.path().join(fig.file))?;
            // plotters writes each label on a line of its own.
            let labels = ["\na&lt;1&gt;\n", "\nb\n", "\nmean\n", "\npaper\n"];
            for name in labels.into_iter().chain(["64KiB", "128KiB"]) {
                assert!(svg.contains(name), "{} lacks {name}", fig.file);
            }
        }
        // The paper's 33.5 % fewer PB accesses to the L2 at 64 KiB.
        let svg = std::fs::read_to_string(dir.path().join("fig14_15_pb_l2.svg"))?;
        assert!(svg.contains("0.665"), "the paper's bar");
        let tcor = find_mean(&r, "tcor", "64KiB").unwrap();
        let mean = tcor.vs_baseline(EngineFigure::PbL2Accesses).unwrap();
        assert!(svg.contains(&format!("{mean:.3}")), "the mean's bar");
        Ok(())
    }
}
