//! The suite's SVG figures, as the GSPC paper draws its per-application
//! charts: a group of bars per scene, then the mean's group, then the
//! paper's average in light tones (drawn by [`crate::report::bars`]).
//! Only what the reports hold is plotted, as for one scene.

use std::path::{Path, PathBuf};

use gfxcache_cache::format_size;
use gfxcache_llc::study::mean::PolicyMean;
use gfxcache_llc::study::paper;
use gfxcache_llc::study::report::PolicyResult;

use super::super::{paper_fps, FPS_POLICIES, ISO_OVERHEAD, PAPER_SIZE, REUSE_POLICIES, TABLE6};
use super::{categories, main_size, per_scene, sizes, timing_configs, GspcSuite};
use crate::report::bars::{Panel, Unit};
use crate::report::figure::{write_figures, Figure};

/// Every figure, in the paper's order.
pub const FIGURES: &[Figure<GspcSuite, Panel>] = &[
    Figure {
        file: "fig05_hit_rates.svg",
        title: "Figure 5: texture, render-target and Z hit rates per scene",
        caption: "LLC hit rates of texture, render-target and Z accesses under Belady's OPT, DRRIP and NRU at the main size, per scene, their mean, and the paper's average.",
        reading: None,
        build: fig05,
    },
    Figure {
        file: "fig06_rt_consumed.svg",
        title: "Figure 6: render targets consumed by the sampler per scene",
        caption: "The share of render-target lines the sampler consumes from the LLC at the main size, per scene, their mean, and the paper's average.",
        reading: None,
        build: fig06,
    },
    Figure {
        file: "fig11_t_sensitivity.svg",
        title: "Figure 11: sensitivity to t (GSPZTC) per scene",
        caption: "Percent change in GSPZTC's LLC misses for each threshold t, relative to t = 16, per scene and their mean. The paper gives no average (on average \"the four values of t experience almost the same number of LLC misses\"), only bounds for single applications: at t = 2, at least +2 % in four of its twelve and more than 4 % fewer in one; at t = 4, at least +1 % in two (Section 5.1).",
        reading: None,
        build: fig11,
    },
    Figure {
        file: "fig12_misses_vs_drrip.svg",
        title: "Figure 12: LLC misses normalised to DRRIP per scene",
        caption: "LLC misses of the policies of Table 6 over those of two-bit DRRIP, per scene, the mean of the scenes' ratios, and the paper's average over its 52 frames at 8 MB; below 1 is fewer misses.",
        reading: None,
        build: fig12,
    },
    Figure {
        file: "fig14_iso_overhead.svg",
        title: "Figure 14: iso-overhead policies per scene",
        caption: "LLC misses of policies with four state bits per block over two-bit DRRIP's at the main size, per scene, their mean and the paper's average.",
        reading: None,
        build: fig14,
    },
    Figure {
        file: "fig15_17_fps.svg",
        title: "Figures 15-17: frame rate normalised to DRRIP+UCD per scene",
        caption: "Frames per second of NRU, GS-DRRIP and GSPC (all with uncached display) over DRRIP's, per scene, their mean and the paper's average: one panel per LLC size and timing configuration.",
        reading: None,
        build: fig15_17,
    },
];

/// Writes every figure that has something to show into `dir`; returns the
/// paths written, in the paper's order.
pub fn write_all(r: &GspcSuite, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    write_figures(r, FIGURES, dir)
}

/// Every figure as a specification without panels (the page's captions,
/// as [`crate::gspc::plots::captions`]).
pub fn captions(r: &GspcSuite) -> Vec<gfxcache_report::Figure> {
    crate::report::figure::captions(FIGURES, r)
}

/// What a per-scene panel shows of a run: the scene's figure and the
/// mean's.
struct Metric<'a> {
    scene: &'a dyn Fn(&PolicyResult) -> Option<f64>,
    mean: &'a dyn Fn(&PolicyMean) -> Option<f64>,
}

/// A series per policy at `size`, a group per scene and the mean's, then
/// the paper's value of each policy (`paper`) as the last group.
fn by_scene(
    r: &GspcSuite,
    policies: &[&str],
    size: u64,
    head: (&str, &str, Unit),
    metric: Metric,
    paper: Paper,
) -> Panel {
    let (subtitle, y_label, unit) = head;
    let mut panel = Panel::new(subtitle, y_label, unit, categories(r));
    for policy in policies {
        let values = per_scene(r, policy, size, metric.scene, metric.mean);
        panel = panel.series(*policy, values);
    }
    panel.paper_group(paper.label, paper.value)
}

/// The paper's group of a per-scene panel: its label, and the paper's
/// value of a policy.
struct Paper<'a> {
    label: &'a str,
    value: &'a dyn Fn(&str) -> Option<f64>,
}

/// The label of the paper's group of its averages at 8 MB.
const PAPER_8MB: &str = "paper (8 MB)";

fn fig05(r: &GspcSuite) -> Vec<Panel> {
    let Some(size) = main_size(r) else {
        return Vec::new();
    };
    let at = format_size(size);
    ["Texture", "Render target", "Z"]
        .iter()
        .enumerate()
        .map(|(k, stream)| {
            let pick = |h: &gfxcache_llc::study::report::HitRates| [h.tex, h.rt, h.z][k] * 100.0;
            let title = format!("{stream} hit rate at {at}");
            by_scene(
                r,
                REUSE_POLICIES,
                size,
                (&title, "hit rate %", Unit::Percent),
                Metric {
                    scene: &|p| Some(pick(&p.hit_rate)),
                    mean: &|m| Some(pick(&m.hit_rate)),
                },
                Paper {
                    label: PAPER_8MB,
                    value: &|policy| paper_hit_rate(policy, k),
                },
            )
        })
        .collect()
}

/// The paper's Figure 5 rate of stream `k` (tex, rt, z) for `policy`.
fn paper_hit_rate(policy: &str, k: usize) -> Option<f64> {
    paper::HIT_RATES
        .iter()
        .find(|(p, _)| *p == policy)
        .and_then(|(_, rates)| rates[k])
}

fn fig06(r: &GspcSuite) -> Vec<Panel> {
    let Some(size) = main_size(r) else {
        return Vec::new();
    };
    let title = format!(
        "Render-target lines consumed from the LLC at {}",
        format_size(size)
    );
    vec![by_scene(
        r,
        REUSE_POLICIES,
        size,
        (&title, "% of RT lines", Unit::Percent),
        Metric {
            scene: &|p| Some(100.0 * p.rt_consumed_fraction),
            mean: &|m| Some(100.0 * m.rt_consumed_fraction),
        },
        Paper {
            label: PAPER_8MB,
            value: &|policy| paper::lookup(paper::RT_CONSUMED, policy),
        },
    )]
}

/// A series per threshold; the paper gives no per-threshold average.
fn fig11(r: &GspcSuite) -> Vec<Panel> {
    let mut panel = Panel::new(
        "GSPZTC misses relative to t = 16",
        "% change in misses",
        Unit::Percent,
        categories(r),
    );
    for t in r.mean.t_sensitivity.iter().map(|p| p.t) {
        let scenes = r.scenes.iter().map(|s| {
            let p = s.report.t_sensitivity.iter().find(|p| p.t == t);
            p.map(|p| p.change_vs_t16)
        });
        let mean = r.mean.t_sensitivity.iter().find(|p| p.t == t);
        let values = scenes.chain([mean.map(|p| p.change_vs_t16)]).collect();
        panel = panel.series(format!("t={t}"), values);
    }
    vec![panel.reference(0.0)]
}

fn misses_vs_drrip(r: &GspcSuite, policies: &[&str], size: u64, subtitle: &str) -> Panel {
    let title = format!("{subtitle} at {}", format_size(size));
    by_scene(
        r,
        policies,
        size,
        (&title, "misses / DRRIP's", Unit::Ratio),
        Metric {
            scene: &|p| Some(p.misses_vs_drrip),
            mean: &|m| Some(m.misses_vs_drrip),
        },
        Paper {
            label: PAPER_8MB,
            value: &|policy| paper::lookup(paper::MISSES_VS_DRRIP, policy),
        },
    )
    .reference(1.0)
}

fn fig12(r: &GspcSuite) -> Vec<Panel> {
    sizes(r)
        .iter()
        .map(|&size| misses_vs_drrip(r, TABLE6, size, "Policies of Table 6"))
        .collect()
}

fn fig14(r: &GspcSuite) -> Vec<Panel> {
    main_size(r)
        .map(|size| misses_vs_drrip(r, ISO_OVERHEAD, size, "Four state bits per block"))
        .into_iter()
        .collect()
}

/// A panel per (timing configuration, size): the baseline machine at
/// every size, then each other configuration at every size it ran; the
/// paper measured those at 8 MB only.
fn fig15_17(r: &GspcSuite) -> Vec<Panel> {
    let mut panels = Vec::new();
    for &size in sizes(r) {
        let label = format_size(size);
        panels.push(by_scene(
            r,
            FPS_POLICIES,
            size,
            (&format!("baseline {label}"), "FPS / DRRIP's", Unit::Ratio),
            Metric {
                scene: &|p| Some(p.fps_vs_drrip),
                mean: &|m| Some(m.fps_vs_drrip),
            },
            Paper {
                label: "paper",
                value: &|policy| paper_fps(&label, policy),
            },
        ));
    }
    for c in timing_configs(r).iter().filter(|c| c.name != "baseline") {
        for &size in sizes(r) {
            let name = c.name.as_str();
            let title = format!("{name} {}", format_size(size));
            panels.push(by_scene(
                r,
                FPS_POLICIES,
                size,
                (&title, "FPS / DRRIP's", Unit::Ratio),
                Metric {
                    scene: &|p| p.timing.get(name).map(|t| t.fps_vs_drrip),
                    mean: &|m| m.timing.get(name).map(|t| t.fps_vs_drrip),
                },
                Paper {
                    label: "paper",
                    value: &|policy| {
                        (size == PAPER_SIZE)
                            .then(|| paper_fps(name, policy))
                            .flatten()
                    },
                },
            ));
        }
    }
    panels.into_iter().map(|p| p.reference(1.0)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gspc::suite::test_suite::suite;

    #[test]
    fn every_figure_has_a_bar_per_scene_the_mean_and_the_paper() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let written = write_all(&suite(), dir.path())?;
        assert_eq!(written.len(), FIGURES.len());
        for (path, fig) in written.iter().zip(FIGURES) {
            let svg = std::fs::read_to_string(path)?;
            assert!(svg.contains(fig.title), "{}", fig.file);
            // plotters writes each label on a line of its own.
            for name in ["\na&lt;1&gt;\n", "\nb\n", "\nmean\n"] {
                assert!(svg.contains(name), "{} lacks {name}", fig.file);
            }
        }
        let fig12 = std::fs::read_to_string(dir.path().join("fig12_misses_vs_drrip.svg"))?;
        assert!(fig12.contains("\npaper (8 MB)\n"));
        assert!(fig12.contains("0.869"), "the paper's GSPC+UCD");
        Ok(())
    }
}
