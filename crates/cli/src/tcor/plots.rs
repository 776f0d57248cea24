//! SVG plots named after the TCOR paper's figures: Attribute Cache
//! miss-ratio curves (Figures 11-13, drawn by [`crate::report::curves`])
//! and, one panel per Tile Cache size, the three Tiling Engines' traffic,
//! energy and Tile Fetcher throughput (Figures 14-24, drawn by
//! [`crate::report::bars`]) with the paper's averages beside ours.
//!
//! Only what the report holds is plotted: a curve the study did not sweep
//! is left out, a Tile Cache size without a value (or without a baseline to
//! normalise to) has no panel, and a figure with nothing to show is not
//! written at all.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::{find_curve, find_run, tile_caches, value};
use crate::report::bars::{Panel, Unit};
use crate::report::curves::{same_y, CurvePanel, Stroke};
use crate::report::figure::compact;
use crate::report::figure::{self, write_figures, Figure};
use gfxcache_cache::format_size;
use gfxcache_tcor::study::paper;
use gfxcache_tcor::study::report::{Curve, Reductions, TcorReport, ENGINES};

/// The Attribute Cache figures, in the paper's order.
pub const CURVE_FIGURES: &[Figure<TcorReport, CurvePanel>] = &[
    Figure {
        file: "fig11_full.svg",
        title: "Figure 11: fully associative Attribute Cache",
        caption: "Miss ratio of a fully associative Attribute Cache under OPT and LRU at each swept size (misses are every write plus every read miss, in primitives, over reads and writes), and the lower bound (LB) of the same cache.",
        reading: Some(reach_words),
        build: fig11,
    },
    Figure {
        file: "fig12_ways.svg",
        title: "Figure 12: Attribute Cache associativity",
        caption: "Miss ratio under OPT (top) and LRU (below, on the same axes) with 1, 2, 4 and 8 ways, one colour per way count; the associativities the study did not sweep are left out.",
        reading: None,
        build: fig12,
    },
    Figure {
        file: "fig13_4way.svg",
        title: "Figure 13: 4-way Attribute Cache replacement",
        caption: "Miss ratio of a 4-way Attribute Cache under OPT, LRU, MRU and DRRIP, and the lower bound (LB) of the 4-way cache.",
        reading: None,
        build: fig13,
    },
];

/// The Tiling Engine figures, in the paper's order.
pub const BAR_FIGURES: &[Figure<TcorReport, Panel>] = &[
    Figure {
        file: "fig14_15_pb_l2.svg",
        title: "Figures 14-15: Parameter Buffer accesses to the L2",
        caption: "Parameter Buffer blocks each Tiling Engine reads from and writes to the L2, over the baseline's, per Tile Cache size; in parentheses the blocks. Grey: the paper's average for TCOR.",
        reading: None,
        build: fig14_15,
    },
    Figure {
        file: "fig16_17_pb_dram.svg",
        title: "Figures 16-17: Parameter Buffer accesses to main memory",
        caption: "Parameter Buffer blocks read from or written to main memory, over the baseline's, per Tile Cache size; in parentheses the blocks. Grey: the paper's average for TCOR.",
        reading: None,
        build: fig16_17,
    },
    Figure {
        file: "fig18_19_dram.svg",
        title: "Figures 18-19: main-memory accesses",
        caption: "Every main-memory access of the frame (L2 misses and write-backs, and tile-buffer traffic when it bypasses the L2), over the baseline's; in parentheses the accesses. Grey: the paper's average for TCOR.",
        reading: None,
        build: fig18_19,
    },
    Figure {
        file: "fig20_21_energy.svg",
        title: "Figures 20-21: memory-hierarchy energy",
        caption: "Dynamic energy of the L1s, the L2 and main memory, and their total, over the baseline's total, from our per-access energy model (the paper used McPAT and DRAMSim2). Grey: the paper's averages for the totals.",
        reading: None,
        build: fig20_21,
    },
    Figure {
        file: "fig23_24_fetcher.svg",
        title: "Figures 23-24: Tile Fetcher throughput",
        caption: "Primitives the Tile Fetcher outputs per cycle (at most one) to an unbounded output queue, timed as the setup says; absolute, so the paper's speedups are in the tables above rather than here.",
        reading: None,
        build: fig23_24,
    },
];

/// Writes every figure that has something to show into `dir`; returns the
/// paths written, in the paper's order.
pub fn write_all(report: &TcorReport, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut written = write_figures(report, CURVE_FIGURES, dir)?;
    written.extend(write_figures(report, BAR_FIGURES, dir)?);
    Ok(written)
}

/// Every figure's title and caption as the page shows them, as figures
/// without panels: the page's captions until the figures are given as
/// specifications ([`crate::report::data::page_captioned`]).
pub fn captions(r: &TcorReport) -> Vec<gfxcache_report::Figure> {
    let mut all = figure::captions(CURVE_FIGURES, r);
    all.extend(figure::captions(BAR_FIGURES, r));
    all
}

/// Figure 11: where OPT and LRU reach the lower bound here, and in the
/// paper (55 and 375 KiB: 6.8 times).
fn reach_words(r: &TcorReport) -> String {
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

// ---- Attribute Cache curves -----------------------------------------------

const MISS_RATIO: &str = "miss ratio";

fn name(policy: &str) -> String {
    policy.to_uppercase()
}

fn miss_ratios(c: &Curve) -> Vec<(u64, f64)> {
    c.points.iter().map(|p| (p.bytes, p.miss_ratio)).collect()
}

fn bound(c: &Curve) -> Vec<(u64, f64)> {
    c.points
        .iter()
        .map(|p| (p.bytes, p.lower_bound_ratio))
        .collect()
}

/// `policies` at `ways`, one colour each, and the bound of the first swept.
fn policies_at(r: &TcorReport, ways: &str, policies: &[&str], subtitle: &str) -> CurvePanel {
    let mut panel = CurvePanel::new(subtitle, MISS_RATIO);
    for (k, policy) in policies.iter().enumerate() {
        if let Some(c) = find_curve(r, policy, ways) {
            panel = panel.line(name(policy), k, Stroke::Solid, miss_ratios(c));
        }
    }
    match policies.iter().find_map(|p| find_curve(r, p, ways)) {
        Some(c) => panel.bound("LB", bound(c)),
        None => panel,
    }
}

fn fig11(r: &TcorReport) -> Vec<CurvePanel> {
    vec![policies_at(r, "full", &["opt", "lru"], "Fully associative")]
}

/// A panel per policy, OPT's above LRU's, a line per way count on one y
/// axis: the gap between the policies at a way count reads across panels
/// at the same height, and the way counts read within one.
fn fig12(r: &TcorReport) -> Vec<CurvePanel> {
    let panels = ["opt", "lru"].map(|policy| {
        let title = format!("{} by way count", name(policy));
        let mut panel = CurvePanel::new(&title, MISS_RATIO);
        for (k, ways) in ["1", "2", "4", "8"].iter().enumerate() {
            if let Some(c) = find_curve(r, policy, ways) {
                let label = format!("{} {ways}-way", name(policy));
                panel = panel.line(label, k, Stroke::Solid, miss_ratios(c));
            }
        }
        panel
    });
    same_y(panels.into())
}

fn fig13(r: &TcorReport) -> Vec<CurvePanel> {
    let policies = ["opt", "lru", "mru", "drrip"];
    vec![policies_at(r, "4", &policies, "4-way")]
}

// ---- Tiling Engines -------------------------------------------------------

const VS_BASELINE: &str = "over the baseline";

/// The engines as the categories of a panel, in [`ENGINES`]' order.
fn engine_names() -> Vec<String> {
    ENGINES.iter().map(|e| e.to_string()).collect()
}

/// One panel per Tile Cache size: each engine's value of `ours` over the
/// baseline's, with its absolute value as the bar's note, and the paper's
/// decreases (percent, per engine) as `1 - d / 100` beside ours.
fn normalised(
    r: &TcorReport,
    ours: impl Fn(&str, &str) -> Option<f64>,
    paper: impl Fn(&Reductions) -> [Option<f64>; 3],
) -> Vec<Panel> {
    let engines = engine_names();
    tile_caches(r)
        .iter()
        .map(|size| {
            let base = ours(size, ENGINES[0]).filter(|b| *b > 0.0);
            let abs: Vec<Option<f64>> = ENGINES.iter().map(|e| ours(size, e)).collect();
            let rel: Vec<Option<f64>> = abs.iter().map(|v| Some((*v)? / base?)).collect();
            let notes = abs.iter().map(|v| v.map(compact)).collect();
            let paper = paper_bars(r, size, &rel, &paper);
            Panel::new(
                &format!("Tile Cache {size}"),
                VS_BASELINE,
                Unit::Ratio,
                engines.clone(),
            )
            .noted("ours", rel, notes)
            .paper("paper", paper)
            .reference(1.0)
        })
        .collect()
}

/// The paper's decreases at `size` as values over the baseline, only
/// beside a bar of ours (`ours`, already over the baseline).
fn paper_bars(
    r: &TcorReport,
    size: &str,
    ours: &[Option<f64>],
    paper: impl Fn(&Reductions) -> [Option<f64>; 3],
) -> Vec<Option<f64>> {
    let decreases = r.paper.get(size).map(paper).unwrap_or_default();
    decreases
        .iter()
        .zip(ours)
        .map(|(d, o)| o.and(d.map(|d| 1.0 - d / 100.0)))
        .collect()
}

/// A count of the figures' maps over the baseline's, the paper's decrease
/// for TCOR beside.
fn counts(r: &TcorReport, m: &Counts, paper: fn(&Reductions) -> f64) -> Vec<Panel> {
    let ours = |s: &str, e: &str| value(m, s, e).map(|v| v as f64);
    normalised(r, ours, |p| [None, None, Some(paper(p))])
}

type Counts = BTreeMap<String, BTreeMap<String, u64>>;

fn fig14_15(r: &TcorReport) -> Vec<Panel> {
    counts(r, &r.pb_l2_accesses, |p| p.pb_l2_accesses)
}

fn fig16_17(r: &TcorReport) -> Vec<Panel> {
    counts(r, &r.pb_dram_accesses, |p| p.pb_dram_accesses)
}

fn fig18_19(r: &TcorReport) -> Vec<Panel> {
    counts(r, &r.dram_accesses, |p| p.dram_accesses)
}

/// Per Tile Cache size: each level's energy and the total over the
/// baseline's total, so an engine's three level bars add up to its total.
fn fig20_21(r: &TcorReport) -> Vec<Panel> {
    let engines = engine_names();
    tile_caches(r)
        .iter()
        .map(|size| {
            let total = |e: &str| {
                value(&r.energy_nj, size, e)
                    .or_else(|| find_run(r, e, size).map(|x| x.energy.total_nj))
            };
            let base = total(ENGINES[0]).filter(|b| *b > 0.0);
            let over = |v: Option<f64>| Some(v? / base?);
            let level = |f: fn(&gfxcache_mem::MemoryEnergy) -> f64| {
                ENGINES
                    .iter()
                    .map(|e| over(find_run(r, e, size).map(|x| f(&x.energy))))
                    .collect()
            };
            let totals: Vec<Option<f64>> = ENGINES.iter().map(|e| over(total(e))).collect();
            let paper = paper_bars(r, size, &totals, |p| {
                [None, Some(p.energy_no_l2), Some(p.energy)]
            });
            let subtitle = format!("Tile Cache {size}");
            Panel::new(
                &subtitle,
                "energy over the baseline's total",
                Unit::Ratio,
                engines.clone(),
            )
            .series("L1s", level(|e| e.l1_nj))
            .series("L2", level(|e| e.l2_nj))
            .series("main memory", level(|e| e.dram_nj))
            .series("total", totals)
            .paper("paper total", paper)
            .reference(1.0)
        })
        .collect()
}

fn fig23_24(r: &TcorReport) -> Vec<Panel> {
    let engines = engine_names();
    tile_caches(r)
        .iter()
        .map(|size| {
            let ppc = ENGINES
                .iter()
                .map(|e| value(&r.primitives_per_cycle, size, e))
                .collect();
            let subtitle = format!("Tile Cache {size}");
            Panel::new(
                &subtitle,
                "primitives per cycle",
                Unit::Ratio,
                engines.clone(),
            )
            // No line at the maximum of 1: at our frames' rates it would
            // flatten the bars to nothing.
            .series("ours", ppc)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::figure::svg_text::svg;
    use crate::tcor::test_report::report;

    #[test]
    fn every_figure_is_an_svg_with_its_title() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let written = write_all(&report(), dir.path())?;
        assert_eq!(written.len(), CURVE_FIGURES.len() + BAR_FIGURES.len());
        let files = CURVE_FIGURES.iter().map(|f| (f.file, f.title));
        for (file, title) in files.chain(BAR_FIGURES.iter().map(|f| (f.file, f.title))) {
            let text = svg(dir.path(), file)?;
            assert!(text.starts_with("<svg"), "{file} is not an SVG");
            assert!(text.contains(title), "{file} lacks its title");
            assert_eq!(
                crate::report::data::about(&captions(&report()), file).map(|a| a.0),
                Some(title.to_string())
            );
        }
        assert!(crate::report::data::about(&captions(&report()), "index.html").is_none());
        Ok(())
    }

    /// Figure 12 draws only the associativities swept (4 here); Figure 13
    /// leaves out MRU, which the report did not sweep.
    #[test]
    fn curve_figures_show_only_the_swept_curves() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        write_all(&report(), dir.path())?;
        let fig11 = svg(dir.path(), "fig11_full.svg")?;
        for label in ["\nOPT\n", "\nLRU\n", "\nLB\n", "\n8KiB\n", "\n32KiB\n"] {
            assert!(fig11.contains(label), "fig11 lacks {label:?}");
        }
        assert!(!fig11.contains("DRRIP"));
        let fig12 = svg(dir.path(), "fig12_ways.svg")?;
        assert!(fig12.contains("\nOPT 4-way\n") && fig12.contains("\nLRU 4-way\n"));
        assert!(!fig12.contains("1-way"));
        let fig13 = svg(dir.path(), "fig13_4way.svg")?;
        assert!(fig13.contains("\nDRRIP\n") && !fig13.contains("MRU"));
        Ok(())
    }

    /// Bars over the baseline with the counts as notes, one panel per Tile
    /// Cache size, and the paper's 33.5 % decrease drawn as 0.665.
    #[test]
    fn bar_figures_normalise_to_the_baseline() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        write_all(&report(), dir.path())?;
        let pb = svg(dir.path(), "fig14_15_pb_l2.svg")?;
        assert!(pb.contains("Tile Cache 64KiB") && pb.contains("Tile Cache 128KiB"));
        assert!(pb.contains("1.000 (10.0k)"), "baseline at 1 with its count");
        assert!(
            pb.contains("0.713 (7130)"),
            "TCOR's 7130 blocks over 10 000"
        );
        assert!(pb.contains("\n0.665\n"), "the paper's 33.5 % at 64 KiB");
        assert!(pb.contains("\n0.629\n"), "the paper's 37.1 % at 128 KiB");
        let energy = svg(dir.path(), "fig20_21_energy.svg")?;
        for label in [
            "\nL1s\n",
            "\nL2\n",
            "\nmain memory\n",
            "\npaper total\n",
            "\n0.910\n",
        ] {
            assert!(energy.contains(label), "energy lacks {label:?}");
        }
        let fetcher = svg(dir.path(), "fig23_24_fetcher.svg")?;
        assert!(fetcher.contains("\n0.200\n") && fetcher.contains("\n0.500\n"));
        Ok(())
    }

    /// Without a baseline there is nothing to normalise to: no panel.
    #[test]
    fn no_baseline_no_normalised_panel() {
        let mut r = report();
        r.runs.retain(|run| run.engine != "baseline");
        for m in [&mut r.pb_l2_accesses, &mut r.dram_accesses] {
            for engines in m.values_mut() {
                engines.remove("baseline");
            }
        }
        r.energy_nj.clear();
        let mut panels = fig14_15(&r);
        assert_eq!(panels.len(), 2);
        assert!(panels
            .iter_mut()
            .all(|p| !crate::report::figure::Plot::prune(p)));
        assert!(fig20_21(&r)
            .iter_mut()
            .all(|p| !crate::report::figure::Plot::prune(p)));
    }

    /// Where OPT and LRU reach the bound here, beside the paper's, and
    /// the sentence when LRU does not reach it within the sweep.
    #[test]
    fn figure_11s_caption_follows_where_the_curves_reach_the_bound() {
        let mut r = report();
        for (policy, kib) in [("opt", 32), ("lru", 128)] {
            if let Some(c) = r
                .reach
                .curves
                .iter_mut()
                .find(|c| c.policy == policy && c.ways == "full")
            {
                c.bytes = Some(kib * 1024);
            }
        }
        r.reach.lru_over_opt_full = Some(4.0);
        let s = reach_words(&r);
        assert!(
            s.contains("Here OPT reaches the lower bound at 32KiB and LRU at 128KiB: LRU needs 4.0 times OPT's size"),
            "{s}"
        );
        assert!(
            s.contains("in the paper OPT at 55 KiB and LRU at 375 KiB, 6.8 times"),
            "{s}"
        );
        for c in r.reach.curves.iter_mut().filter(|c| c.policy == "lru") {
            c.bytes = None;
        }
        r.reach.lru_over_opt_full = None;
        let s = reach_words(&r);
        assert!(s.contains("and LRU not within the sweep;"), "{s}");
        assert!(reach_words(&crate::tcor::test_report::report_without_curves()).is_empty());
    }
}
