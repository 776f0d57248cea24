//! SVG plots named after the DTM-NUCA paper's figures, the paper's numbers
//! beside ours where it gives them (a light bar, or a marked point,
//! labelled "paper"): Figures 1, 6 and 8-11 as grouped bars
//! ([`crate::report::bars`]), Figure 7 as a curve over the private cache
//! sizes ([`crate::report::curves`]), and our sweeps and quad assignments.
//!
//! Only what the report holds is plotted: an organization the study did
//! not run has no bar, a knob it did not sweep no figure.

use std::path::{Path, PathBuf};

use gfxcache_cache::format_size;
use gfxcache_nuca::study::{Figures, NucaReport};
use gfxcache_nuca::OrgKind;

use super::{
    against_private, capacity_axis, paper_effective_bytes, paper_scaling, Metric, ENERGY, L2_ALL,
    L2_TEXTURE, LOCAL_HITS, SPEEDUP,
};
use crate::report::bars::{Panel, Unit};
use crate::report::curves::{CurvePanel, Stroke};
use crate::report::figure::{self, write_figures, Figure};

/// The paper's figures before Figure 7.
pub const FRONT: &[Figure<NucaReport, Panel>] = &[
    Figure {
        file: "fig1_replication.svg",
        title: "Figure 1: replication in private texture caches",
        caption: "With the fewest fragment processors studied, the share of texture accesses after which the block was in 1, 2, ... private caches, and the share in more than one beside the paper's (measured with 4).",
        reading: None,
        build: fig1,
    },
    Figure {
        file: "fig6_l2_accesses.svg",
        title: "Figure 6: L2 accesses against private caches",
        caption: "Change in the texture caches' L2 requests, and in the L2's accesses of every stream (texture requests and the frame's other traffic), against private caches; S-NUCA and the ideal shared cache are ours. The paper's one \"L2 accesses\" number stands beside both.",
        reading: None,
        build: fig6,
    },
];

/// Figure 7.
pub const CAPACITY: &[Figure<NucaReport, CurvePanel>] = &[Figure {
    file: "fig7_capacity.svg",
    title: "Figure 7: effective capacity",
    caption: "L2 requests of private texture caches of each size (solid), and DTM-NUCA's and its distributed form's at the main size (dashed, flat); a private size whose point is at or below a dashed line matches it. The paper's sizes that match DTM-NUCA's are marked on its line's level.",
    reading: None,
    build: fig7,
}];

/// The paper's figures after Figure 7.
pub const BACK: &[Figure<NucaReport, Panel>] = &[
    Figure {
        file: "fig8_hits.svg",
        title: "Figure 8: where texture accesses are served",
        caption: "Shares of the texture accesses that hit in the requester's cache (local), in another fragment processor's (remote), and that go to the L2 and hit or miss there, per organization; the paper's local hit shares beside.",
        reading: None,
        build: fig8,
    },
    Figure {
        file: "fig9_speedup.svg",
        title: "Figure 9: speedup over private caches",
        caption: "Frame cycles of private caches over each organization's, minus one, in percent, beside the paper's.",
        reading: None,
        build: fig9,
    },
    Figure {
        file: "fig10_energy.svg",
        title: "Figure 10: energy against private caches",
        caption: "Change in energy on the GPU (texture caches, tables, network, L2, static), in memory (DRAM) and in all, against private caches, from our per-event energy model; the paper's total beside.",
        reading: None,
        build: fig10,
    },
    Figure {
        file: "fig11_scaling.svg",
        title: "Figure 11: speedup by number of fragment processors",
        caption: "Each organization's speedup over private caches with as many fragment processors, per number studied; the paper's DTM-NUCA speedups with 4 and 32 beside.",
        reading: None,
        build: fig11,
    },
];

/// One figure per knob the study sweeps (ours).
pub const SWEEPS: &[Figure<NucaReport, Panel>] = &[
    Figure {
        file: "sweep_epoch.svg",
        title: "Sweep: epoch length",
        caption: SWEEP_CAPTION,
        reading: None,
        build: |r| sweep(r, "epoch"),
    },
    Figure {
        file: "sweep_buckets.svg",
        title: "Sweep: Affinity Table buckets",
        caption: SWEEP_CAPTION,
        reading: None,
        build: |r| sweep(r, "buckets"),
    },
    Figure {
        file: "sweep_counter_bits.svg",
        title: "Sweep: counter bits",
        caption: SWEEP_CAPTION,
        reading: None,
        build: |r| sweep(r, "counter_bits"),
    },
    Figure {
        file: "sweep_page_blocks.svg",
        title: "Sweep: blocks per page",
        caption: SWEEP_CAPTION,
        reading: None,
        build: |r| sweep(r, "page_blocks"),
    },
    Figure {
        file: "sweep_order.svg",
        title: "Sweep: replay order",
        caption: SWEEP_CAPTION,
        reading: None,
        build: |r| sweep(r, "order"),
    },
    Figure {
        file: "sweep_announced_count.svg",
        title: "Sweep: DTM-NUCA-Dist's announced count",
        caption: SWEEP_CAPTION,
        reading: None,
        build: |r| sweep(r, "announced_count"),
    },
];

/// The quad assignments (ours).
pub const ASSIGNMENTS: &[Figure<NucaReport, Panel>] = &[Figure {
    file: "assignments.svg",
    title: "Quad assignments",
    caption: "Each organization on frames whose quads reach the fragment processors another way, each against private caches of its own frame.",
    reading: None,
    build: assignments,
}];

const SWEEP_CAPTION: &str = "One knob changed at a time, the others at the main machine's (the main value is marked \"main\"): each swept organization's local hits, L2 texture requests and speedup against private caches.";

/// Writes every figure that has something to show into `dir`; returns the
/// paths written, in the paper's order, then ours.
pub fn write_all(r: &NucaReport, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut written = write_figures(r, FRONT, dir)?;
    written.extend(write_figures(r, CAPACITY, dir)?);
    written.extend(write_figures(r, BACK, dir)?);
    written.extend(write_figures(r, SWEEPS, dir)?);
    written.extend(write_figures(r, ASSIGNMENTS, dir)?);
    Ok(written)
}

/// The title and caption of the figure written to `file`.
pub fn about(r: &NucaReport, file: &str) -> Option<(String, String)> {
    [FRONT, BACK, SWEEPS, ASSIGNMENTS]
        .iter()
        .find_map(|list| figure::about(list, r, file))
        .or_else(|| figure::about(CAPACITY, r, file))
}

/// The organizations of the main frame with a figure against private.
fn compared(r: &NucaReport) -> Vec<OrgKind> {
    against_private(r.organizations.iter().map(|row| row.organization))
}

fn names(kinds: &[OrgKind]) -> Vec<String> {
    kinds.iter().map(|k| k.name().to_string()).collect()
}

/// A bar per organization of `kinds` of `metric`, the paper's beside.
fn by_organization(r: &NucaReport, kinds: &[OrgKind], metric: Metric, subtitle: &str) -> Panel {
    let ours = kinds
        .iter()
        .map(|&k| r.row(k).map(|row| (metric.of)(&row.figures)))
        .collect();
    let paper = kinds.iter().map(|&k| metric.paper(&r.paper, k)).collect();
    Panel::new(subtitle, metric.name, Unit::Percent, names(kinds))
        .series("ours", ours)
        .paper("paper", paper)
        .reference(0.0)
}

fn fig1(r: &NucaReport) -> Vec<Panel> {
    let p = &r.replication;
    let caches: Vec<String> = (1..p.in_caches_percent.len())
        .map(|n| format!("in {n}"))
        .collect();
    let shares = p
        .in_caches_percent
        .iter()
        .skip(1)
        .map(|&v| Some(v))
        .collect();
    let subtitle = format!("{} private caches: caches holding the block", p.fps);
    let spread =
        Panel::new(&subtitle, "texture accesses %", Unit::Percent, caches).series("ours", shares);
    let replicated = Panel::new(
        "In more than one cache",
        "texture accesses %",
        Unit::Percent,
        vec![format!("{} caches", p.fps)],
    )
    .series("ours", vec![Some(p.replicated_percent)])
    .paper("paper (4 caches)", vec![Some(r.paper.replicated_percent)]);
    vec![spread, replicated]
}

fn fig6(r: &NucaReport) -> Vec<Panel> {
    let kinds = compared(r);
    vec![
        by_organization(r, &kinds, L2_TEXTURE, "Texture requests to the L2"),
        by_organization(r, &kinds, L2_ALL, "L2 accesses of every stream"),
    ]
}

fn fig7(r: &NucaReport) -> Vec<CurvePanel> {
    let private: Vec<(u64, f64)> = r
        .capacity
        .iter()
        .map(|p| (p.tc_bytes, p.l2_requests as f64))
        .collect();
    let at = format_size(r.config.tc_bytes);
    let mut panel = CurvePanel::new("Private texture caches by size", "L2 requests").line(
        "private",
        0,
        Stroke::Solid,
        private,
    );
    for (colour, kind) in [(1, OrgKind::Dtm), (2, OrgKind::DtmDist)] {
        let Some(row) = r.row(kind) else { continue };
        let level = row.result.stats.l2_requests as f64;
        let axis = capacity_axis(r.capacity.iter().map(|p| p.tc_bytes), &r.paper);
        let flat = axis.into_iter().map(|b| (b, level)).collect();
        let name = format!("{} at {at}", kind.name());
        panel = panel.line(name, colour, Stroke::Dashed, flat);
        if let Some(bytes) = paper_effective_bytes(&r.paper, kind) {
            let name = format!("paper: {} = private {}", kind.name(), format_size(bytes));
            panel = panel.line(name, colour, Stroke::Solid, vec![(bytes, level)]);
        }
    }
    vec![panel]
}

fn fig8(r: &NucaReport) -> Vec<Panel> {
    let kinds: Vec<OrgKind> = r.organizations.iter().map(|row| row.organization).collect();
    let of = |f: fn(&Figures) -> f64| {
        kinds
            .iter()
            .map(|&k| r.row(k).map(|row| f(&row.figures)))
            .collect::<Vec<_>>()
    };
    let paper = kinds
        .iter()
        .map(|&k| LOCAL_HITS.paper(&r.paper, k))
        .collect();
    vec![Panel::new(
        "Shares of the texture accesses",
        "texture accesses %",
        Unit::Percent,
        names(&kinds),
    )
    .series("local hit", of(|f| f.local_hit_percent))
    .series("remote hit", of(|f| f.remote_hit_percent))
    .series("L2 hit", of(|f| f.l2_hit_percent))
    .series("L2 miss", of(|f| f.l2_miss_percent))
    .paper("paper local hit", paper)]
}

fn fig9(r: &NucaReport) -> Vec<Panel> {
    let kinds = compared(r);
    let subtitle = format!("{} fragment processors", r.config.fps);
    vec![by_organization(r, &kinds, SPEEDUP, &subtitle)]
}

fn fig10(r: &NucaReport) -> Vec<Panel> {
    let kinds = compared(r);
    let of = |f: fn(&Figures) -> f64| {
        kinds
            .iter()
            .map(|&k| r.row(k).map(|row| f(&row.figures)))
            .collect::<Vec<_>>()
    };
    let paper = kinds.iter().map(|&k| ENERGY.paper(&r.paper, k)).collect();
    vec![
        Panel::new("Energy by part", ENERGY.name, Unit::Percent, names(&kinds))
            .series("GPU", of(|f| f.gpu_energy_change_percent))
            .series("memory", of(|f| f.memory_energy_change_percent))
            .series("total", of(|f| f.energy_change_percent))
            .paper("paper total", paper)
            .reference(0.0),
    ]
}

fn fig11(r: &NucaReport) -> Vec<Panel> {
    let fps: Vec<usize> = r.scaling.iter().map(|p| p.fps).collect();
    let categories = fps.iter().map(|p| format!("P = {p}")).collect();
    let kinds = against_private(
        r.scaling
            .iter()
            .flat_map(|p| p.rows.iter().map(|row| row.organization))
            .fold(Vec::new(), |mut kinds, k| {
                if !kinds.contains(&k) {
                    kinds.push(k);
                }
                kinds
            }),
    );
    let mut panel = Panel::new(
        "Speedup over private caches with as many fragment processors",
        SPEEDUP.name,
        Unit::Percent,
        categories,
    );
    for &k in &kinds {
        let values = r
            .scaling
            .iter()
            .map(|p| {
                let row = p.rows.iter().find(|row| row.organization == k)?;
                Some(row.figures.speedup_percent)
            })
            .collect();
        panel = panel.series(k.name(), values);
    }
    for &k in &kinds {
        let paper = fps.iter().map(|&p| paper_scaling(&r.paper, k, p)).collect();
        panel = panel.paper(format!("paper {}", k.name()), paper);
    }
    vec![panel.reference(0.0)]
}

/// The machine's value of `knob`, as the sweeps write values.
fn main_value(r: &NucaReport, knob: &str) -> Option<String> {
    let m = &r.config;
    Some(match knob {
        "epoch" => m.epoch.to_string(),
        "buckets" => m.buckets.to_string(),
        "counter_bits" => m.counter_bits.to_string(),
        "page_blocks" => m.page_blocks.to_string(),
        "order" => m.timing.order.name().to_string(),
        "tc_index" => m.tc_index.name().to_string(),
        "announced_count" => m.announced_count.name().to_string(),
        _ => return None,
    })
}

/// The values of `knob` swept and the machine's, in order (numbers by
/// value), each with whether it is the machine's.
pub(super) fn knob_values(r: &NucaReport, knob: &str) -> Vec<(String, bool)> {
    let main = main_value(r, knob);
    let mut values: Vec<String> = Vec::new();
    let swept = r.sweeps.iter().filter(|p| p.knob == knob);
    for v in swept.map(|p| p.value.clone()).chain(main.clone()) {
        if !values.contains(&v) {
            values.push(v);
        }
    }
    values.sort_by_key(|v| (v.parse::<u64>().unwrap_or(u64::MAX), v.clone()));
    values
        .into_iter()
        .map(|v| {
            let is_main = main.as_deref() == Some(v.as_str());
            (v, is_main)
        })
        .collect()
}

/// The organizations swept on `knob`, in the order first met.
pub(super) fn swept_organizations(r: &NucaReport, knob: &str) -> Vec<OrgKind> {
    let mut kinds = Vec::new();
    for p in r.sweeps.iter().filter(|p| p.knob == knob) {
        if !kinds.contains(&p.organization) {
            kinds.push(p.organization);
        }
    }
    kinds
}

/// The figures of `kind` with `knob` at `value`: the sweep's, or the main
/// run's at the machine's value.
pub(super) fn swept(
    r: &NucaReport,
    knob: &str,
    (value, is_main): &(String, bool),
    kind: OrgKind,
) -> Option<Figures> {
    if *is_main {
        return r.row(kind).map(|row| row.figures);
    }
    r.sweeps
        .iter()
        .find(|p| p.knob == knob && &p.value == value && p.organization == kind)
        .map(|p| p.figures)
}

/// A panel per metric, a group per value of `knob`, a bar per organization
/// swept; nothing if the knob was not swept.
fn sweep(r: &NucaReport, knob: &str) -> Vec<Panel> {
    let kinds = swept_organizations(r, knob);
    if kinds.is_empty() {
        return Vec::new();
    }
    let values = knob_values(r, knob);
    let categories: Vec<String> = values
        .iter()
        .map(|(v, main)| {
            if *main {
                format!("{v} (main)")
            } else {
                v.clone()
            }
        })
        .collect();
    [LOCAL_HITS, L2_TEXTURE, SPEEDUP]
        .into_iter()
        .map(|metric| {
            let subtitle = format!("{}: {knob}", metric.name);
            let mut panel = Panel::new(&subtitle, metric.name, Unit::Percent, categories.clone());
            for &k in &kinds {
                let ours = values
                    .iter()
                    .map(|v| swept(r, knob, v, k).map(|f| (metric.of)(&f)))
                    .collect();
                panel = panel.series(k.name(), ours);
            }
            panel.reference(0.0)
        })
        .collect()
}

fn assignments(r: &NucaReport) -> Vec<Panel> {
    let names: Vec<String> = r.assignments.iter().map(|p| p.assignment.clone()).collect();
    let kinds = compared(r);
    [LOCAL_HITS, L2_TEXTURE, SPEEDUP]
        .into_iter()
        .map(|metric| {
            let mut panel = Panel::new(metric.name, metric.name, Unit::Percent, names.clone());
            for &k in &kinds {
                let ours = r
                    .assignments
                    .iter()
                    .map(|p| {
                        let row = p.rows.iter().find(|row| row.organization == k)?;
                        Some((metric.of)(&row.figures))
                    })
                    .collect();
                panel = panel.series(k.name(), ours);
            }
            panel.reference(0.0)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nuca::test_report::report;
    use crate::report::figure::svg_text::{has, svg};

    #[test]
    fn every_figure_is_an_svg_with_its_title() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let written = write_all(&report(), dir.path())?;
        let fixed = FRONT.iter().chain(BACK).chain(ASSIGNMENTS);
        let files = fixed
            .map(|f| (f.file, f.title))
            .chain(CAPACITY.iter().map(|f| (f.file, f.title)));
        for (file, title) in files {
            let text = svg(dir.path(), file)?;
            assert!(text.starts_with("<svg"), "{file} is not an SVG");
            assert!(text.contains(title), "{file} lacks its title");
            assert_eq!(about(&report(), file).map(|a| a.0), Some(title.to_string()));
        }
        // The sweeps swept: epoch, buckets, page_blocks, order and
        // announced_count.
        assert_eq!(written.len(), 1 + FRONT.len() + BACK.len() + 1 + 5);
        assert!(about(&report(), "index.html").is_none());
        Ok(())
    }

    /// Each organization's bar with our value, the paper's beside.
    #[test]
    fn bar_figures_hold_ours_and_the_papers() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let r = report();
        write_all(&r, dir.path())?;
        let dtm = r.row(OrgKind::Dtm).unwrap().figures;
        let checks: [(&str, f64, &[f64]); 4] = [
            (
                "fig6_l2_accesses.svg",
                dtm.l2_texture_change_percent,
                &[-46.2, -41.8, -33.3],
            ),
            ("fig8_hits.svg", dtm.local_hit_percent, &[27.5, 66.3, 73.9]),
            (
                "fig9_speedup.svg",
                dtm.speedup_percent,
                &[-22.0, 16.9, 15.7],
            ),
            (
                "fig10_energy.svg",
                dtm.energy_change_percent,
                &[4.0, -6.9, -7.6],
            ),
        ];
        for (file, ours, paper) in checks {
            let text = svg(dir.path(), file)?;
            assert!(
                has(&text, &format!("{ours:.1}")),
                "{file} lacks ours {ours:.1}"
            );
            for v in paper {
                assert!(
                    has(&text, &format!("{v:.1}")),
                    "{file} lacks the paper's {v}"
                );
            }
            assert!(text.contains("paper"), "{file} lacks the paper's legend");
            for k in compared(&r) {
                assert!(has(&text, k.name()), "{file} lacks {}", k.name());
            }
        }
        let hits = svg(dir.path(), "fig8_hits.svg")?;
        for series in ["local hit", "remote hit", "L2 hit", "L2 miss", "private"] {
            assert!(has(&hits, series), "fig8 lacks {series}");
        }
        let fig1 = svg(dir.path(), "fig1_replication.svg")?;
        assert!(has(
            &fig1,
            &format!("{:.1}", r.replication.replicated_percent)
        ));
        assert!(has(&fig1, "84.6") && has(&fig1, "paper (4 caches)"));
        Ok(())
    }

    /// Figure 11 marks the paper's speedups at P = 4 (studied here) and
    /// not at 32 (not studied); Figure 7 marks the paper's sizes.
    #[test]
    fn scaling_and_capacity_mark_the_papers_values() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let r = report();
        write_all(&r, dir.path())?;
        let fig11 = svg(dir.path(), "fig11_scaling.svg")?;
        assert!(has(&fig11, "P = 4") && has(&fig11, "P = 8"));
        assert!(
            has(&fig11, "10.2") && has(&fig11, "7.0"),
            "the paper at P = 4"
        );
        assert!(has(&fig11, "paper dtm-nuca") && has(&fig11, "paper dtm-nuca-dist"));
        assert!(
            !has(&fig11, "paper d-nuca"),
            "the paper has no D-NUCA scaling"
        );
        let fig7 = svg(dir.path(), "fig7_capacity.svg")?;
        for label in [
            "private",
            "dtm-nuca at 4KiB",
            "dtm-nuca-dist at 4KiB",
            "paper: dtm-nuca = private 128KiB",
            "paper: dtm-nuca-dist = private 64KiB",
            "2KiB",
            "16KiB",
        ] {
            assert!(has(&fig7, label), "fig7 lacks {label:?}");
        }
        Ok(())
    }

    #[test]
    fn sweeps_put_the_main_value_among_the_swept() -> anyhow::Result<()> {
        let r = report();
        let epoch = knob_values(&r, "epoch");
        assert_eq!(
            epoch,
            [("500".to_string(), false), ("2000".to_string(), true)]
        );
        let main = &epoch[1];
        assert_eq!(
            swept(&r, "epoch", main, OrgKind::Dtm),
            Some(r.row(OrgKind::Dtm).unwrap().figures)
        );
        assert_eq!(knob_values(&r, "order")[0], ("clock".to_string(), true));
        assert!(sweep(&r, "counter_bits").is_empty());
        let dir = tempfile::tempdir()?;
        write_all(&r, dir.path())?;
        let text = svg(dir.path(), "sweep_epoch.svg")?;
        assert!(has(&text, "2000 (main)") && has(&text, "500"));
        assert!(has(&text, "dtm-nuca") && has(&text, "dtm-nuca-dist"));
        let a = svg(dir.path(), "assignments.svg")?;
        assert!(has(&a, "tiles") && has(&a, "round-robin"));
        Ok(())
    }
}
