//! The suite's SVG figures, as the paper draws per-game charts: a group of
//! bars per scene, the mean's group, then the paper's number in light tones
//! (Figures 1, 6, 8-11, drawn by [`crate::report::bars`]), and the mean of
//! Figure 7 over the private sizes ([`crate::report::curves`]). Only what
//! the reports hold is plotted.

use std::path::{Path, PathBuf};

use gfxcache_cache::format_size;
use gfxcache_nuca::OrgKind;

use super::super::{
    against_private, capacity_axis, paper_effective_bytes, paper_scaling, Metric, ENERGY, L2_ALL,
    L2_TEXTURE, LOCAL_HITS, SPEEDUP,
};
use super::{categories, kind_named, kinds, mean_of, per_scene, NucaSuite};
use crate::report::bars::{Panel, Unit};
use crate::report::curves::{CurvePanel, Stroke};
use crate::report::figure::{self, write_figures, Figure};

/// The per-scene figures, in the paper's order.
pub const FIGURES: &[Figure<NucaSuite, Panel>] = &[
    Figure {
        file: "fig1_replication.svg",
        title: "Figure 1: replication in private texture caches per scene",
        caption: "The share of texture accesses whose block is in more than one private cache, with the fewest fragment processors studied, per scene, their mean and the paper's (with 4).",
        reading: None,
        build: fig1,
    },
    Figure {
        file: "fig6_l2_accesses.svg",
        title: "Figure 6: L2 accesses against private caches per scene",
        caption: "Change in the texture caches' L2 requests and in the L2's accesses of every stream against private caches, per scene, their mean and the paper's \"L2 accesses\".",
        reading: None,
        build: fig6,
    },
    Figure {
        file: "fig8_hits.svg",
        title: "Figure 8: local hits per scene",
        caption: "The share of texture accesses that hit in the requester's own cache, per organization and scene, their mean and the paper's.",
        reading: None,
        build: fig8,
    },
    Figure {
        file: "fig9_speedup.svg",
        title: "Figure 9: speedup over private caches per scene",
        caption: "Private caches' frame cycles over each organization's, minus one, per scene, their mean and the paper's.",
        reading: None,
        build: fig9,
    },
    Figure {
        file: "fig10_energy.svg",
        title: "Figure 10: energy against private caches per scene",
        caption: "Change in total energy (GPU and memory) against private caches, per scene, their mean and the paper's.",
        reading: None,
        build: fig10,
    },
    Figure {
        file: "fig11_scaling.svg",
        title: "Figure 11: speedup by number of fragment processors per scene",
        caption: "Each organization's speedup over private caches with as many fragment processors, a panel per number, per scene, their mean and the paper's (DTM-NUCA with 4 and 32).",
        reading: None,
        build: fig11,
    },
];

/// Figure 7's mean.
pub const CAPACITY: &[Figure<NucaSuite, CurvePanel>] = &[Figure {
    file: "fig7_capacity.svg",
    title: "Figure 7: effective capacity, mean over the scenes",
    caption: "The scenes' mean L2 requests of private caches of each size over those at the main size (solid), and DTM-NUCA's and its distributed form's mean at the main size (dashed, flat); the paper's matching sizes marked on their level.",
    reading: None,
    build: fig7,
}];

/// Writes every figure that has something to show into `dir`.
pub fn write_all(r: &NucaSuite, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut written = write_figures(r, &FIGURES[..2], dir)?;
    written.extend(write_figures(r, CAPACITY, dir)?);
    written.extend(write_figures(r, &FIGURES[2..], dir)?);
    Ok(written)
}

/// The title and caption of the figure written to `file`.
pub fn about(r: &NucaSuite, file: &str) -> Option<(String, String)> {
    figure::about(FIGURES, r, file).or_else(|| figure::about(CAPACITY, r, file))
}

/// A series per organization of `kinds` of `metric`, a group per scene and
/// the mean's, and the paper's group.
fn by_scene(r: &NucaSuite, kinds: &[OrgKind], metric: Metric, subtitle: &str) -> Panel {
    let mut panel = Panel::new(subtitle, metric.name, Unit::Percent, categories(r));
    for &k in kinds {
        panel = panel.series(k.name(), per_scene(r, k, metric.of));
    }
    panel
        .paper_group("paper", |name| {
            metric.paper(&r.mean.paper, kind_named(name)?)
        })
        .reference(0.0)
}

fn fig1(r: &NucaSuite) -> Vec<Panel> {
    let values = r
        .scenes
        .iter()
        .map(|s| Some(s.report.replication.replicated_percent))
        .chain([Some(r.mean.replicated_percent)])
        .collect();
    let subtitle = format!("In more than one of {} caches", r.mean.replication_fps);
    vec![Panel::new(
        &subtitle,
        "texture accesses %",
        Unit::Percent,
        categories(r),
    )
    .series("ours", values)
    .paper_group("paper (4 caches)", |_| {
        Some(r.mean.paper.replicated_percent)
    })]
}

fn fig6(r: &NucaSuite) -> Vec<Panel> {
    let kinds = against_private(kinds(r));
    vec![
        by_scene(r, &kinds, L2_TEXTURE, "Texture requests to the L2"),
        by_scene(r, &kinds, L2_ALL, "L2 accesses of every stream"),
    ]
}

fn fig8(r: &NucaSuite) -> Vec<Panel> {
    vec![by_scene(r, &kinds(r), LOCAL_HITS, "Local hits")]
}

fn fig9(r: &NucaSuite) -> Vec<Panel> {
    vec![by_scene(r, &against_private(kinds(r)), SPEEDUP, "Speedup")]
}

fn fig10(r: &NucaSuite) -> Vec<Panel> {
    vec![by_scene(
        r,
        &against_private(kinds(r)),
        ENERGY,
        "Total energy",
    )]
}

/// A panel per number of fragment processors the mean has.
fn fig11(r: &NucaSuite) -> Vec<Panel> {
    let mut fps: Vec<usize> = r.mean.scaling.iter().map(|(p, _, _)| *p).collect();
    fps.dedup();
    fps.into_iter()
        .map(|p| {
            let subtitle = format!("P = {p}");
            let mut panel = Panel::new(&subtitle, SPEEDUP.name, Unit::Percent, categories(r));
            let kinds = r
                .mean
                .scaling
                .iter()
                .filter(|(q, k, _)| *q == p && *k != OrgKind::Private)
                .map(|(_, k, f)| (*k, f.speedup_percent));
            for (k, mean) in kinds {
                let scenes = r.scenes.iter().map(|s| {
                    let point = s.report.scaling.iter().find(|x| x.fps == p)?;
                    let row = point.rows.iter().find(|row| row.organization == k)?;
                    Some(row.figures.speedup_percent)
                });
                panel = panel.series(k.name(), scenes.chain([Some(mean)]).collect());
            }
            panel
                .paper_group("paper", |name| {
                    paper_scaling(&r.mean.paper, kind_named(name)?, p)
                })
                .reference(0.0)
        })
        .collect()
}

/// The mean private curve as a ratio over the main size (the mean's
/// changes plus one), DTM-NUCA's forms flat at theirs.
fn fig7(r: &NucaSuite) -> Vec<CurvePanel> {
    let ratio = |change: f64| 1.0 + change / 100.0;
    let curve: Vec<(u64, f64)> = r
        .mean
        .capacity
        .iter()
        .map(|&(bytes, change)| (bytes, ratio(change)))
        .collect();
    let main = r.scenes.first().map(|s| s.report.config.tc_bytes);
    let at = main.map(format_size).unwrap_or_default();
    let mut panel = CurvePanel::new(
        "Private texture caches by size, mean over the scenes",
        "L2 requests over private at the main size",
    )
    .line("private", 0, Stroke::Solid, curve.clone());
    for (colour, kind) in [(1, OrgKind::Dtm), (2, OrgKind::DtmDist)] {
        let Some(f) = mean_of(r, kind) else { continue };
        let level = ratio(f.l2_texture_change_percent);
        let axis = capacity_axis(curve.iter().map(|&(b, _)| b), &r.mean.paper);
        let flat = axis.into_iter().map(|b| (b, level)).collect();
        panel = panel.line(
            format!("{} at {at}", kind.name()),
            colour,
            Stroke::Dashed,
            flat,
        );
        if let Some(bytes) = paper_effective_bytes(&r.mean.paper, kind) {
            let name = format!("paper: {} = private {}", kind.name(), format_size(bytes));
            panel = panel.line(name, colour, Stroke::Solid, vec![(bytes, level)]);
        }
    }
    vec![panel]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nuca::suite::test_suite::suite;
    use crate::report::figure::svg_text::has;

    #[test]
    fn every_figure_has_a_bar_per_scene_the_mean_and_the_paper() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let r = suite();
        let written = write_all(&r, dir.path())?;
        assert_eq!(written.len(), FIGURES.len() + CAPACITY.len());
        for fig in FIGURES {
            let svg = std::fs::read_to_string(dir.path().join(fig.file))?;
            for label in ["a&lt;1&gt;", "b", "mean"] {
                assert!(has(&svg, label), "{} lacks {label}", fig.file);
            }
            assert!(svg.contains("paper"), "{} lacks the paper", fig.file);
            assert_eq!(
                about(&suite(), fig.file).map(|a| a.0),
                Some(fig.title.to_string())
            );
        }
        let speedup = std::fs::read_to_string(dir.path().join("fig9_speedup.svg"))?;
        let mean = mean_of(&r, OrgKind::Dtm).unwrap().speedup_percent;
        assert!(has(&speedup, &format!("{mean:.1}")), "the mean's bar");
        assert!(has(&speedup, "16.9"), "the paper's bar");
        let fig11 = std::fs::read_to_string(dir.path().join("fig11_scaling.svg"))?;
        assert!(has(&fig11, "P = 4") && has(&fig11, "P = 8") && has(&fig11, "10.2"));
        let fig7 = std::fs::read_to_string(dir.path().join("fig7_capacity.svg"))?;
        assert!(has(&fig7, "paper: dtm-nuca = private 128KiB"));
        assert!(has(&fig7, "dtm-nuca at 4KiB"));
        Ok(())
    }
}
