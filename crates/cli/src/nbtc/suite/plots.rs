//! The suite's SVG figures ([`crate::report::bars`]), a panel per filter
//! mode: the NBTC's cycles change per scene, the mean and the slides'
//! numbers as the last group; the mean of every design's cycles change,
//! miss rate and traffic change per latency beside the slides'; and a
//! figure per knob swept, a bar per scene and the mean's. Only what the
//! reports hold is plotted.

use std::path::{Path, PathBuf};

use gfxcache_nbtc::study::mean::MeanRow;
use gfxcache_nbtc::Mode;

use super::super::{knob_title, latency_label, paper_cycles, paper_traffic};
use super::{categories, filters, latencies, modes, paper_of, NbtcSuite};
use crate::report::bars::{Panel, Unit};
use crate::report::figure::{self, write_figures, Figure};

/// The suite's figures, the slides' order.
pub const FIGURES: &[Figure<NbtcSuite, Panel>] = &[
    Figure {
        file: "cycles_change_scenes.svg",
        title: "Slide 22: NBTC pixel-shader cycles against the BTC per scene",
        caption: "The NBTC's total pixel-shader cycles over the blocking cache's, minus one, in percent, at each latency, per scene, their mean and the slides' (-12.47 % at 50 cycles, -41.64 % at 300).",
        reading: None,
        build: cycles_by_scene,
    },
    Figure {
        file: "cycles_change.svg",
        title: "Slide 22: pixel-shader cycles against the BTC, mean over the scenes",
        caption: "Each design's cycles change against the blocking cache at each latency, the mean of the scenes', beside the slides' NBTC.",
        reading: None,
        build: cycles_change,
    },
    Figure {
        file: "miss_rate.svg",
        title: "Slide 23: miss rate, mean over the scenes",
        caption: "Missing texels over texel lookups, per design and latency, the mean of the scenes'. The slides give no values.",
        reading: None,
        build: miss_rate,
    },
    Figure {
        file: "traffic_change.svg",
        title: "Slide 24: memory traffic against the BTC, mean over the scenes",
        caption: "Each design's bytes fetched from memory over the blocking cache's, minus one, in percent, the mean of the scenes'; the slides' bound (the NBTC up to 11 % above the BTC) as the last group.",
        reading: None,
        build: traffic_change,
    },
];

/// One figure per knob (ours).
pub const SWEEPS: &[Figure<NbtcSuite, Panel>] = &[
    sweep_figure(
        "sweep_wlb_entries.svg",
        "Sweep: Waiting List Buffer entries per scene",
        |r| sweep(r, "wlb_entries"),
    ),
    sweep_figure(
        "sweep_bab_entries.svg",
        "Sweep: Block Address Buffer entries per scene",
        |r| sweep(r, "bab_entries"),
    ),
    sweep_figure(
        "sweep_rb_entries.svg",
        "Sweep: Retry Buffer entries per scene",
        |r| sweep(r, "rb_entries"),
    ),
    sweep_figure(
        "sweep_block_bytes.svg",
        "Sweep: block bytes per scene",
        |r| sweep(r, "block_bytes"),
    ),
    sweep_figure(
        "sweep_hit_latency.svg",
        "Sweep: hit latency (ours) per scene",
        |r| sweep(r, "hit_latency"),
    ),
    sweep_figure(
        "sweep_filter_latency.svg",
        "Sweep: filter latency (ours) per scene",
        |r| sweep(r, "filter_latency"),
    ),
    sweep_figure(
        "sweep_issue_rate.svg",
        "Sweep: issue rates, % of the machine's (0: free shading), per scene",
        |r| sweep(r, "issue_rate"),
    ),
    sweep_figure(
        "sweep_fragments_in_flight.svg",
        "Sweep: fragments in flight per scene",
        |r| sweep(r, "fragments_in_flight"),
    ),
    sweep_figure(
        "sweep_shared_memory.svg",
        "Sweep: units sharing one DRAM (ours) per scene",
        |r| sweep(r, "shared_memory"),
    ),
];

const fn sweep_figure(
    file: &'static str,
    title: &'static str,
    build: fn(&NbtcSuite) -> Vec<Panel>,
) -> Figure<NbtcSuite, Panel> {
    Figure {
        file,
        title,
        caption: "One knob changed at a time, the NBTC's cycles against the blocking cache at each value swept, per scene and their mean.",
        reading: None,
        build,
    }
}

/// Writes every figure that has something to show into `dir`.
pub fn write_all(r: &NbtcSuite, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut written = write_figures(r, FIGURES, dir)?;
    written.extend(write_figures(r, SWEEPS, dir)?);
    Ok(written)
}

/// The title and caption of the figure written to `file`.
pub fn about(r: &NbtcSuite, file: &str) -> Option<(String, String)> {
    figure::about(FIGURES, r, file).or_else(|| figure::about(SWEEPS, r, file))
}

/// A series name for the NBTC at `latency`.
fn at(latency: u64) -> String {
    format!("nbtc at {}", latency_label(latency))
}

fn cycles_by_scene(r: &NbtcSuite) -> Vec<Panel> {
    let paper = paper_of(r);
    filters(r)
        .into_iter()
        .map(|filter| {
            let subtitle = format!("NBTC cycles against the BTC: {filter} filtering");
            let mut panel = Panel::new(&subtitle, "cycles vs BTC %", Unit::Percent, categories(r));
            for l in latencies(r) {
                let scenes = r.scenes.iter().map(|s| {
                    let f = s.report.frames.iter().find(|f| f.filter == filter)?;
                    Some(f.row(Mode::Nbtc, l)?.cycles_change)
                });
                let mean = r.mean.row(&filter, Mode::Nbtc, l).map(|m| m.cycles_change);
                panel = panel.series(at(l), scenes.chain([mean]).collect());
            }
            let lats = latencies(r);
            panel
                .paper_group("paper", |name| {
                    let l = lats.iter().find(|&&l| at(l) == name)?;
                    paper_cycles(&paper, Mode::Nbtc, *l)
                })
                .reference(0.0)
        })
        .collect()
}

/// A panel per filter mode: a group per latency, a bar per design of
/// `modes`, each `of` its mean row.
fn mean_by_latency(
    r: &NbtcSuite,
    title: &str,
    y: &str,
    modes: &[Mode],
    of: fn(&MeanRow) -> f64,
) -> Vec<Panel> {
    let lats = latencies(r);
    let groups: Vec<String> = lats.iter().map(|&l| latency_label(l)).collect();
    filters(r)
        .into_iter()
        .map(|filter| {
            let subtitle = format!("{title}: {filter} filtering, mean");
            let mut panel = Panel::new(&subtitle, y, Unit::Percent, groups.clone());
            for &m in modes {
                let values = lats
                    .iter()
                    .map(|&l| r.mean.row(&filter, m, l).map(of))
                    .collect();
                panel = panel.series(m.name(), values);
            }
            panel
        })
        .collect()
}

fn others(r: &NbtcSuite) -> Vec<Mode> {
    modes(r).into_iter().filter(|&m| m != Mode::BTC).collect()
}

fn cycles_change(r: &NbtcSuite) -> Vec<Panel> {
    let paper = paper_of(r);
    let lats = latencies(r);
    mean_by_latency(
        r,
        "PS cycles against the BTC",
        "cycles vs BTC %",
        &others(r),
        |m| m.cycles_change,
    )
    .into_iter()
    .map(|p| {
        let values = lats
            .iter()
            .map(|&l| paper_cycles(&paper, Mode::Nbtc, l))
            .collect();
        p.paper("paper nbtc", values).reference(0.0)
    })
    .collect()
}

fn miss_rate(r: &NbtcSuite) -> Vec<Panel> {
    mean_by_latency(r, "Miss rate", "texel misses %", &modes(r), |m| m.miss_rate)
}

fn traffic_change(r: &NbtcSuite) -> Vec<Panel> {
    let paper = paper_of(r);
    let modes = others(r);
    mean_by_latency(
        r,
        "Memory traffic against the BTC",
        "traffic vs BTC %",
        &modes,
        |m| m.traffic_change,
    )
    .into_iter()
    .map(|p| {
        p.paper_group("paper (at most)", |name| {
            let mode = modes.iter().find(|m| m.name() == name)?;
            paper_traffic(&paper, *mode)
        })
        .reference(0.0)
    })
    .collect()
}

/// A group per value of `knob` the mean has, a bar per scene and the
/// mean's; nothing if the knob was not swept.
fn sweep(r: &NbtcSuite, knob: &str) -> Vec<Panel> {
    let points: Vec<_> = r.mean.sweeps.iter().filter(|p| p.knob == knob).collect();
    if points.is_empty() {
        return Vec::new();
    }
    let values: Vec<String> = points.iter().map(|p| p.value.to_string()).collect();
    let subtitle = format!("NBTC cycles vs BTC % by {}", knob_title(knob));
    let mut panel = Panel::new(&subtitle, "cycles vs BTC %", Unit::Percent, values);
    for s in &r.scenes {
        let sweep = s.report.sweeps.iter().find(|x| x.knob == knob);
        let ours = points
            .iter()
            .map(|p| {
                let q = sweep?.points.iter().find(|q| q.value == p.value)?;
                Some(q.nbtc.cycles_change)
            })
            .collect();
        panel = panel.series(s.scene.as_str(), ours);
    }
    let mean = points.iter().map(|p| Some(p.cycles_change)).collect();
    vec![panel.series(super::MEAN, mean).reference(0.0)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nbtc::suite::test_suite::suite;
    use crate::report::figure::svg_text::has;

    #[test]
    fn every_figure_has_the_mean_and_the_slides() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let r = suite();
        let written = write_all(&r, dir.path())?;
        assert_eq!(written.len(), FIGURES.len() + 2);
        for fig in FIGURES {
            let svg = std::fs::read_to_string(dir.path().join(fig.file))?;
            assert!(svg.contains("mean"), "{} lacks the mean", fig.file);
            assert_eq!(
                about(&suite(), fig.file).map(|a| a.0),
                Some(fig.title.to_string())
            );
        }
        let scenes = std::fs::read_to_string(dir.path().join("cycles_change_scenes.svg"))?;
        for label in ["a&lt;1&gt;", "b", "mean", "paper", "-12.5", "-41.6"] {
            assert!(has(&scenes, label), "lacks {label}");
        }
        let mean = r.mean.row("bilinear", Mode::Nbtc, 300).unwrap();
        assert!(has(&scenes, &format!("{:.1}", mean.cycles_change)));
        let traffic = std::fs::read_to_string(dir.path().join("traffic_change.svg"))?;
        assert!(has(&traffic, "paper (at most)") && has(&traffic, "11.0"));
        let wlb = std::fs::read_to_string(dir.path().join("sweep_wlb_entries.svg"))?;
        assert!(has(&wlb, "a&lt;1&gt;") && has(&wlb, "mean") && has(&wlb, "8"));
        Ok(())
    }
}
