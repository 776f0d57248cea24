//! SVG plots, one per figure of the GSPC paper that the study reproduces:
//! bar charts of ours beside the paper's averages, drawn by
//! [`crate::report::bars`].
//!
//! Only what the report holds is plotted: a policy the study did not run is
//! left out, and a figure with nothing to show is not written at all.

use std::path::{Path, PathBuf};

use super::{find, main_size, paper_fps, FPS_POLICIES, ISO_OVERHEAD, PAPER_SIZE};
use super::{readings, REUSE_POLICIES, TABLE6};
use crate::report::bars::{Panel, Unit};
use crate::report::figure::{write_figures, Figure};
use gfxcache_cache::format_size;
use gfxcache_llc::study::paper;
use gfxcache_llc::study::report::{Epochs, GspcReport, PolicyResult};

pub use super::timelines::TIMELINE_FIGURES;

/// Every figure, in the paper's order.
pub const FIGURES: &[Figure<GspcReport, Panel>] = &[
    Figure {
        file: "fig04_stream_mix.svg",
        title: "Figure 4: LLC accesses per stream",
        caption: "The share of LLC accesses of each of the paper's groups of graphics streams (vertex: vertex attributes and indices; rest: stencil, display, shader code and anything else), ours beside the paper's averages at 8 MB (Section 2.2; Z, of which it says only \"at least 10%\", from the talk's slide 10). The page's table splits ours stream by stream.",
        reading: Some(readings::fig04),
        build: fig04,
    },
    Figure {
        file: "fig05_hit_rates.svg",
        title: "Figure 5: texture, render-target and Z hit rates",
        caption: "LLC hit rates of texture, render-target and Z accesses under Belady's OPT, DRRIP and NRU.",
        reading: None,
        build: fig05,
    },
    Figure {
        file: "fig06_rt_to_tex.svg",
        title: "Figure 6: render target to texture reuse",
        caption: "Texture hits split into inter-stream (RT to TEX) and intra-stream, normalised to OPT's texture hits, and the share of render-target lines the sampler consumes from the LLC.",
        reading: None,
        build: fig06,
    },
    Figure {
        file: "fig07_tex_epochs.svg",
        title: "Figure 7: texture hits by epoch under OPT",
        caption: "Under OPT, the share of texture hits per epoch E0, E1, E2, E>=3, and the death ratio of each of the first three epochs.",
        reading: None,
        build: fig07,
    },
    Figure {
        file: "fig08_drrip_rrpv3.svg",
        title: "Figure 8: DRRIP fills at RRPV 3",
        caption: "The share of render-target and texture fills two-bit DRRIP inserts at RRPV 3, predicting no near reuse.",
        reading: None,
        build: fig08,
    },
    Figure {
        file: "fig09_z_death.svg",
        title: "Figure 9: Z death ratios under OPT",
        caption: "The death ratio of each of the first three epochs of Z lines under OPT (the share of the lines reaching an epoch that leave the LLC without another hit), ours beside the paper's.",
        reading: Some(readings::fig09),
        build: fig09,
    },
    Figure {
        file: "fig11_t_sensitivity.svg",
        title: "Figure 11: sensitivity to t (GSPZTC)",
        caption: "Percent change in GSPZTC's LLC misses for each threshold t, relative to t = 16. The paper gives no average here, only that on average \"the four values of t experience almost the same number of LLC misses\"; the dashed marks, \"paper (bounds)\", are the bounds it states for single applications of its twelve (Section 5.1): at t = 2, at least +2 % in 3D Mark Vantage GT1, Dirt, HAWX and Unigine and more than 4 % fewer misses in Assassin's Creed; at t = 4, at least +1 % in Dirt and Unigine.",
        reading: None,
        build: fig11,
    },
    Figure {
        file: "fig12_misses_vs_drrip.svg",
        title: "Figure 12: LLC misses normalised to DRRIP",
        caption: "LLC misses of the policies of Table 6 over those of two-bit DRRIP; below 1 is fewer misses.",
        reading: Some(readings::fig12),
        build: fig12,
    },
    Figure {
        file: "fig13_gspc_rates.svg",
        title: "Figure 13: texture hit rate, RT consumption, RT and Z hit rates",
        caption: "Per policy at the main size, a panel per measure: texture hit rate, share of render-target lines consumed by the sampler from the LLC, render-target hit rate and Z hit rate. The paper's text gives only some of its values (at 8 MB), drawn beside ours: OPT's, DRRIP's and NRU's (the same measures as Figures 5 and 6), GSPC's render-target hit rate (Section 5.1) and GSPC+UCD's four (the talk's slide 44); it draws the others without stating them.",
        reading: None,
        build: fig13,
    },
    Figure {
        file: "fig14_iso_overhead.svg",
        title: "Figure 14: iso-overhead policies, misses normalised to DRRIP",
        caption: "LLC misses of policies with four state bits per block (LRU, four-bit DRRIP and GS-DRRIP, GSPC) over two-bit DRRIP's.",
        reading: None,
        build: fig14,
    },
    Figure {
        file: "fig15_17_fps.svg",
        title: "Figures 15-17: frame rate normalised to DRRIP+UCD",
        caption: "Frames per second of NRU, GS-DRRIP and GSPC (all with uncached display) over DRRIP's, at each LLC size and under each timing configuration.",
        reading: None,
        build: fig15_17,
    },
];

/// Writes every figure that has something to show into `dir`; returns the
/// paths written, in the paper's order, the timelines last.
pub fn write_all(report: &GspcReport, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut written = write_figures(report, FIGURES, dir)?;
    written.extend(write_figures(report, TIMELINE_FIGURES, dir)?);
    Ok(written)
}

/// Every figure as a specification without panels: the page's captions
/// until the figures are given as data.
pub fn captions(r: &GspcReport) -> Vec<gfxcache_report::Figure> {
    let mut all = crate::report::figure::captions(FIGURES, r);
    all.extend(crate::report::figure::captions(TIMELINE_FIGURES, r));
    all
}

// ---- The figures -------------------------------------------------------

/// Our shares summed into the paper's groups of streams, its averages
/// beside; a group we have no access of is at 0.
fn fig04(r: &GspcReport) -> Vec<Panel> {
    if r.stream_mix.is_empty() {
        return Vec::new();
    }
    let groups = paper::STREAM_GROUPS
        .iter()
        .map(|(g, _)| g.to_string())
        .collect();
    let ours = paper::STREAM_GROUPS
        .iter()
        .map(|(g, _)| Some(readings::group_share(r, g)))
        .collect();
    let theirs = paper::STREAM_GROUPS
        .iter()
        .map(|(g, _)| paper::lookup(paper::STREAM_MIX, g))
        .collect();
    vec![Panel::new(
        "Share of LLC accesses by the paper's stream groups",
        "% of accesses",
        Unit::Percent,
        groups,
    )
    .series("ours", ours)
    .paper("paper (8 MB)", theirs)]
}

fn fig05(r: &GspcReport) -> Vec<Panel> {
    let rate = |k: usize| {
        move |p: &PolicyResult| Some(100.0 * [p.hit_rate.tex, p.hit_rate.rt, p.hit_rate.z][k])
    };
    let paper = |k: usize| move |policy: &str| paper_hit_rate(policy, k);
    ["Texture", "Render target", "Z"]
        .iter()
        .enumerate()
        .map(|(k, stream)| {
            let title = format!("{stream} hit rate");
            per_size(
                r,
                REUSE_POLICIES,
                &title,
                "hit rate %",
                Unit::Percent,
                rate(k),
                paper(k),
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

/// Inter- and intra-stream texture hits over OPT's texture hits; without
/// OPT there is nothing to normalise to, so only the consumption panel shows.
fn fig06(r: &GspcReport) -> Vec<Panel> {
    let consumed = per_size(
        r,
        REUSE_POLICIES,
        "Render-target lines consumed by the sampler from the LLC",
        "% of RT lines",
        Unit::Percent,
        |p| Some(100.0 * p.rt_consumed_fraction),
        |policy| paper::lookup(paper::RT_CONSUMED, policy),
    );
    let Some(size) = main_size(r) else {
        return vec![consumed];
    };
    let opt_hits = find(r, "opt", size).map(|o| (o.tex_hits_inter + o.tex_hits_intra) as f64);
    let Some(opt_hits) = opt_hits.filter(|h| *h > 0.0) else {
        return vec![consumed];
    };
    let runs: Vec<Option<&PolicyResult>> =
        REUSE_POLICIES.iter().map(|p| find(r, p, size)).collect();
    let share = |f: fn(&PolicyResult) -> u64| -> Vec<Option<f64>> {
        runs.iter()
            .map(|p| p.map(|p| f(p) as f64 / opt_hits))
            .collect()
    };
    let paper_share = |s: f64| {
        REUSE_POLICIES
            .iter()
            .map(|p| (*p == "opt").then_some(s))
            .collect()
    };
    let inter_paper = paper::OPT_TEX_INTER_SHARE / 100.0;
    let hits = Panel::new(
        &format!("Texture hits over OPT's at {}", format_size(size)),
        "hits / OPT's texture hits",
        Unit::Ratio,
        names(REUSE_POLICIES),
    )
    .series("inter (RT->TEX)", share(|p| p.tex_hits_inter))
    .series("intra", share(|p| p.tex_hits_intra))
    .paper("paper inter", paper_share(inter_paper))
    .paper("paper intra", paper_share(1.0 - inter_paper));
    vec![hits, consumed]
}

/// Skipped when the report has no epoch analysis (OPT did not run).
fn fig07(r: &GspcReport) -> Vec<Panel> {
    let tex = &r.opt_epochs.tex;
    if !has_epochs(tex) {
        return Vec::new();
    }
    let epochs = names(&["E0", "E1", "E2", "E>=3"]);
    let share = tex
        .hit_share_by_epoch
        .iter()
        .map(|s| Some(100.0 * s))
        .collect();
    let paper_share = paper::OPT_TEX_HITS_BY_EPOCH
        .iter()
        .map(|s| Some(*s))
        .collect();
    let hits = Panel::new(
        "Texture hits by epoch",
        "% of texture hits",
        Unit::Percent,
        epochs,
    )
    .series("ours", share)
    .paper("paper", paper_share);
    vec![
        hits,
        death_panel("Texture death ratio by epoch", tex, &paper::OPT_TEX_DEATH),
    ]
}

/// Skipped when the report has no epoch analysis (OPT did not run).
fn fig09(r: &GspcReport) -> Vec<Panel> {
    let z = &r.opt_epochs.z;
    if !has_epochs(z) {
        return Vec::new();
    }
    vec![death_panel(
        "Z death ratio by epoch",
        z,
        &paper::OPT_Z_DEATH,
    )]
}

fn has_epochs(e: &Epochs) -> bool {
    e.entries.iter().any(|&n| n > 0)
}

fn death_panel(subtitle: &str, e: &Epochs, paper: &[f64; 3]) -> Panel {
    Panel::new(
        subtitle,
        "death ratio",
        Unit::Ratio,
        names(&["E0", "E1", "E2"]),
    )
    .series("ours", e.death_ratios.iter().map(|d| Some(*d)).collect())
    .paper("paper", paper.iter().map(|d| Some(*d)).collect())
}

fn fig08(r: &GspcReport) -> Vec<Panel> {
    let cats = names(&["RT fills", "TEX fills"]);
    let mut panel = Panel::new(
        "DRRIP fills at the largest RRPV",
        "% of fills",
        Unit::Percent,
        cats,
    );
    for &size in &r.sizes {
        let drrip = find(r, "drrip", size);
        let values = vec![
            drrip
                .and_then(|p| p.rt_fills_at_max_rrpv)
                .map(|f| 100.0 * f),
            drrip
                .and_then(|p| p.tex_fills_at_max_rrpv)
                .map(|f| 100.0 * f),
        ];
        panel = panel.series(format!("ours {}", format_size(size)), values);
    }
    let (rt, tex) = paper::DRRIP_RRPV3;
    vec![panel.paper("paper (8 MB)", vec![Some(rt), Some(tex)])]
}

fn fig11(r: &GspcReport) -> Vec<Panel> {
    let cats = r
        .t_sensitivity
        .iter()
        .map(|p| format!("t={}", p.t))
        .collect();
    let ours = r
        .t_sensitivity
        .iter()
        .map(|p| Some(p.change_vs_t16))
        .collect();
    let panel = Panel::new(
        "GSPZTC misses relative to t = 16",
        "% change in misses",
        Unit::Percent,
        cats,
    );
    vec![panel
        .series("ours", ours)
        .marks("paper (bounds)", t_bounds())
        .reference(0.0)]
}

/// The paper's bounds of Figure 11 as marks: `t=2`, `-4`, `below -4 % in
/// Assassin's Creed`.
fn t_bounds() -> Vec<(String, f64, String)> {
    paper::T_BOUNDS
        .iter()
        .map(|b| {
            let apps = match b.applications {
                [one] => one.to_string(),
                many => format!("{} apps", many.len()),
            };
            let side = if b.above { "at least" } else { "below" };
            let label = format!("{side} {:+.0} % in {apps}", b.change);
            (format!("t={}", b.t), b.change, label)
        })
        .collect()
}

fn fig12(r: &GspcReport) -> Vec<Panel> {
    vec![misses_panel(r, TABLE6, "Policies of Table 6")]
}

fn fig14(r: &GspcReport) -> Vec<Panel> {
    vec![misses_panel(r, ISO_OVERHEAD, "Four state bits per block")]
}

fn misses_panel(r: &GspcReport, policies: &[&str], subtitle: &str) -> Panel {
    per_size(
        r,
        policies,
        subtitle,
        "misses / DRRIP's",
        Unit::Ratio,
        |p| Some(p.misses_vs_drrip),
        |policy| paper::lookup(paper::MISSES_VS_DRRIP, policy),
    )
    .reference(1.0)
}

/// A measure of Figure 13: its name, its y axis, and a run's value.
type Measure = (&'static str, &'static str, fn(&PolicyResult) -> f64);

/// A panel per measure of Figure 13 at the main size, a bar per policy,
/// the paper's value beside where its text states one.
fn fig13(r: &GspcReport) -> Vec<Panel> {
    let Some(size) = main_size(r) else {
        return Vec::new();
    };
    let policies: Vec<&str> = std::iter::once("drrip")
        .chain(TABLE6.iter().copied())
        .collect();
    let runs: Vec<Option<&PolicyResult>> = policies.iter().map(|p| find(r, p, size)).collect();
    let measures: [Measure; 4] = [
        ("Texture hit rate", "hit rate %", |p| p.hit_rate.tex),
        (
            "Render-target lines consumed by the sampler",
            "% of RT lines",
            |p| p.rt_consumed_fraction,
        ),
        ("Render-target hit rate", "hit rate %", |p| p.hit_rate.rt),
        ("Z hit rate", "hit rate %", |p| p.hit_rate.z),
    ];
    let at = format_size(size);
    measures
        .iter()
        .enumerate()
        .map(|(k, (name, y, of))| {
            let ours = runs.iter().map(|p| p.map(|p| 100.0 * of(p))).collect();
            // Only beside a policy we ran, as in every figure.
            let theirs = policies
                .iter()
                .zip(&runs)
                .map(|(policy, run)| run.and(paper::figure13(policy)[k]))
                .collect();
            // Short names: the legend's strip and ten policies fit the page.
            Panel::new(
                &format!("{name} at {at}"),
                y,
                Unit::Percent,
                names(&policies),
            )
            .series("ours", ours)
            .paper("paper", theirs)
        })
        .collect()
}

/// A group per (configuration, size): the baseline timing at every size,
/// then each timing configuration at every size. The paper's Figure 17
/// configurations were measured at 8 MB only, so its values go there.
fn fig15_17(r: &GspcReport) -> Vec<Panel> {
    type Ours = Box<dyn Fn(&PolicyResult) -> Option<f64>>;
    let mut groups: Vec<(String, u64, Ours, Option<String>)> = Vec::new();
    for &size in &r.sizes {
        let label = format_size(size);
        let ours: Ours = Box::new(|p| Some(p.fps_vs_drrip));
        groups.push((format!("baseline {label}"), size, ours, Some(label)));
    }
    // The baseline is the first set of groups already.
    for c in r.timing_configs.iter().filter(|c| c.name != "baseline") {
        for &size in &r.sizes {
            let name = c.name.clone();
            let ours: Ours = Box::new(move |p| p.timing.get(&name).map(|t| t.fps_vs_drrip));
            let paper_config = (size == PAPER_SIZE).then(|| c.name.clone());
            groups.push((
                format!("{} {}", c.name, format_size(size)),
                size,
                ours,
                paper_config,
            ));
        }
    }
    let cats = groups.iter().map(|g| g.0.clone()).collect();
    let mut panel = Panel::new(
        "Frame rate over DRRIP's",
        "FPS / DRRIP's",
        Unit::Ratio,
        cats,
    );
    for policy in FPS_POLICIES {
        let ours: Vec<Option<f64>> = groups
            .iter()
            .map(|(_, size, f, _)| find(r, policy, *size).and_then(f))
            .collect();
        // The paper's bars only beside ours: a policy the study did not run
        // is left out, not shown by the paper's value alone.
        if ours.iter().all(Option::is_none) {
            continue;
        }
        let paper = groups
            .iter()
            .map(|(_, _, _, c)| c.as_deref().and_then(|c| paper_fps(c, policy)))
            .collect();
        panel = panel
            .series(*policy, ours)
            .paper(format!("{policy} paper"), paper);
    }
    vec![panel.reference(1.0)]
}

/// `policies` as categories with a series of ours at every size, then the
/// paper's value (measured at 8 MB).
fn per_size(
    r: &GspcReport,
    policies: &[&str],
    subtitle: &str,
    y_label: &str,
    unit: Unit,
    ours: impl Fn(&PolicyResult) -> Option<f64>,
    paper: impl Fn(&str) -> Option<f64>,
) -> Panel {
    let mut panel = Panel::new(subtitle, y_label, unit, names(policies));
    for &size in &r.sizes {
        let values = policies
            .iter()
            .map(|p| find(r, p, size).and_then(&ours))
            .collect();
        panel = panel.series(format!("ours {}", format_size(size)), values);
    }
    // The paper's bar shows only beside a policy we ran: prune keeps any
    // category with a value, and a paper-only group would invent a result.
    let ran = |p: &str| r.sizes.iter().any(|&s| find(r, p, s).is_some());
    let paper_values = policies
        .iter()
        .map(|p| if ran(p) { paper(p) } else { None })
        .collect();
    panel.paper("paper (8 MB)", paper_values)
}

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gspc::test_report::{report, report_without_opt};
    use crate::report::figure::svg_text::svg;

    #[test]
    fn every_figure_is_an_svg_with_its_title() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let written = write_all(&report(), dir.path())?;
        assert_eq!(written.len(), FIGURES.len() + TIMELINE_FIGURES.len());
        let files = FIGURES
            .iter()
            .map(|f| (f.file, f.title))
            .chain(TIMELINE_FIGURES.iter().map(|f| (f.file, f.title)));
        for (file, title) in files {
            let text = svg(dir.path(), file)?;
            assert!(text.starts_with("<svg"), "{file} is not an SVG");
            assert!(text.contains(title), "{file} lacks its title");
        }
        Ok(())
    }

    #[test]
    fn the_timeline_shows_prod_cons_rrpvs_and_read_misses() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        write_all(&report(), dir.path())?;
        let text = svg(dir.path(), "timeline_gspc.svg")?;
        for label in [
            "PROD",
            "16 CONS",
            "GSPC at RRPV 3",
            "DRRIP at RRPV 3",
            "drrip",
        ] {
            assert!(text.contains(&format!("\n{label}\n")), "{label} missing");
        }
        // No GSPC timeline, no figure.
        let mut r = report();
        r.timelines.retain(|t| t.policy != "gspc");
        let dir = tempfile::tempdir()?;
        let written = write_all(&r, dir.path())?;
        assert!(!written.iter().any(|p| p.ends_with("timeline_gspc.svg")));
        Ok(())
    }

    #[test]
    fn fig12_shows_our_policies_and_the_paper_but_no_other() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        write_all(&report(), dir.path())?;
        let text = svg(dir.path(), "fig12_misses_vs_drrip.svg")?;
        // plotters writes each <text> element's text on a line of its own.
        assert!(text.contains("\ngspc+ucd\n"));
        assert!(text.contains("\npaper (8 MB)\n"));
        assert!(text.contains("\n0.634\n"), "OPT's paper value");
        // ship-mem is in Table 6 but the report did not run it.
        assert!(!text.contains("ship-mem"));
        Ok(())
    }

    /// Without OPT: Figures 7 and 9 (OPT's epochs) are skipped; Figure 6
    /// keeps only its RT-consumption panel, as texture hits cannot be
    /// normalised to OPT's; Figures 5, 12 and 13 show the other policies.
    #[test]
    fn without_opt_the_opt_figures_are_skipped() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let written = write_all(&report_without_opt(), dir.path())?;
        let has = |f: &str| written.iter().any(|p| p.ends_with(f));
        assert!(!has("fig07_tex_epochs.svg"));
        assert!(!has("fig09_z_death.svg"));
        assert!(has("fig05_hit_rates.svg"));
        let fig06 = svg(dir.path(), "fig06_rt_to_tex.svg")?;
        assert!(!fig06.contains("over OPT"));
        assert!(!svg(dir.path(), "fig12_misses_vs_drrip.svg")?.contains("\nopt\n"));
        Ok(())
    }

    /// Figures 4, 11 and 13 carry the values the paper states (and only
    /// beside what we ran), Figure 11 its per-application bounds as marks.
    #[test]
    fn figures_4_11_and_13_show_the_papers_values() -> anyhow::Result<()> {
        use crate::report::figure::svg_text::has;
        let dir = tempfile::tempdir()?;
        write_all(&report(), dir.path())?;
        let fig04 = svg(dir.path(), "fig04_stream_mix.svg")?;
        for v in ["40.0", "34.0", "10.0", "7.0", "4.0", "5.0", "paper (8 MB)"] {
            assert!(has(&fig04, v), "fig04 lacks {v}");
        }
        for group in ["RT", "TEX", "Z", "HiZ", "vertex", "rest"] {
            assert!(has(&fig04, group), "fig04 lacks {group}");
        }
        // The report's rt, tex and z shares, grouped.
        assert!(has(&fig04, "40.0") && has(&fig04, "26.0"));
        let fig11 = svg(dir.path(), "fig11_t_sensitivity.svg")?;
        for label in [
            "at least +2 % in 4 apps",
            "below -4 % in Assassin&apos;s Creed",
            "at least +1 % in 2 apps",
            "paper (bounds)",
        ] {
            assert!(has(&fig11, label), "fig11 lacks {label}");
        }
        let fig13 = svg(dir.path(), "fig13_gspc_rates.svg")?;
        // OPT's, DRRIP's and NRU's (Figures 5, 6), GSPC's RT hit rate
        // (Section 5.1), GSPC+UCD's (slide 44).
        for v in [
            "53.4", "22.0", "18.4", "51.0", "16.0", "13.0", "59.8", "50.1", "41.5", "77.1", "58.0",
            "57.7", "33.5", "40.4", "58.1", "59.0",
        ] {
            assert!(has(&fig13, v), "fig13 lacks the paper's {v}");
        }
        for panel in ["Texture hit rate at 8MiB", "Z hit rate at 8MiB"] {
            assert!(fig13.contains(panel), "fig13 lacks {panel}");
        }
        Ok(())
    }

    /// No figure of the study is wider than the page, however many
    /// policies and sizes it shows.
    #[test]
    fn no_figure_is_wider_than_the_page() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        write_all(&report(), dir.path())?;
        let wide = crate::report::figure::svg_text::too_wide(dir.path())?;
        assert!(wide.is_empty(), "{wide:?}");
        Ok(())
    }
}
