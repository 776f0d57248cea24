//! SVG plots named after the slides' charts, a panel per filter mode, the
//! slides' numbers beside ours where they give them (a light bar labelled
//! "paper"): slide 22's total pixel-shader cycles stacked by category
//! ([`crate::report::stacked`]) and its cycles change against the BTC,
//! slide 23's miss rate and slide 24's memory traffic as grouped bars
//! ([`crate::report::bars`]), and a figure per knob swept (ours).
//!
//! Only what the report holds is plotted: a design the study did not run
//! has no bar, a knob it did not sweep no figure.

use std::path::{Path, PathBuf};

use gfxcache_nbtc::study::{FilterReport, NbtcReport, RunRow};
use gfxcache_nbtc::Mode;

use super::{
    knob_points, knob_title, latency_label, paper_cycles, paper_traffic, value_label, CATEGORIES,
};
use crate::report::bars::{Panel, Unit};
use crate::report::figure::{self, write_figures, Figure};
use crate::report::stacked::StackedPanel;

/// Slide 22's chart.
pub const STACKED: &[Figure<NbtcReport, StackedPanel>] = &[Figure {
    file: "ps_cycles.svg",
    title: "Slide 22: total pixel-shader cycles",
    caption: "Per filter mode and memory latency, each design's cycles summed over the pixel processors (the slides' \"total PS cycles\"), cut into the cycles the shader ran (PS run), waited with every fragment in flight waiting for a texture result (PS stall), and the texture unit refused a request because the Waiting List Buffer was full (NBTC stall), then our finer causes: a cycle a request was accepted (issue), the blocking cache busy with a miss (BTC blocked), no room for a missing block (miss queue full: the BAB, an MSHR or target, the reorder buffer or request FIFO), the Retry Buffer full, an all-hit request losing the MUX, and the drain (no fragment left: the cycle the last result returns, and with a BAB that forgets sent blocks the wait for a second fetch nobody needs). The slides draw the BTC and the NBTC on an axis to 15 M cycles a frame and give no bar's value.",
    reading: None,
    build: ps_cycles,
}];

/// Slides 22-24's other charts.
pub const FIGURES: &[Figure<NbtcReport, Panel>] = &[
    Figure {
        file: "cycles_change.svg",
        title: "Slide 22: pixel-shader cycles against the BTC",
        caption: "Each design's total pixel-shader cycles over the blocking cache's (serial fetches) at the same latency on the same frame, minus one, in percent; the slides' NBTC at 50 cycles (-12.47 %) and 300 cycles (-41.64 %) beside.",
        reading: None,
        build: cycles_change,
    },
    Figure {
        file: "miss_rate.svg",
        title: "Slide 23: miss rate",
        caption: "Missing texels (primary and secondary misses) over texel lookups, per design and latency. The slides give no values (their axis runs to 8 %) and say the NBTC's miss rate is \"slightly\" above the BTC's, since a lookup of a block still on its way misses again.",
        reading: Some(miss_rate_words),
        build: miss_rate,
    },
    Figure {
        file: "traffic.svg",
        title: "Slide 24: memory traffic",
        caption: "Bytes fetched from memory (block requests x block size), per design and latency, and the change against the BTC; the slides' bound, the NBTC up to 11 % above the BTC, beside as the last group.",
        reading: None,
        build: traffic,
    },
];

/// One figure per knob the study can sweep (ours).
pub const SWEEPS: &[Figure<NbtcReport, Panel>] = &[
    sweep_figure(
        "sweep_wlb_entries.svg",
        "Sweep: Waiting List Buffer entries",
        |r| sweep(r, "wlb_entries"),
    ),
    sweep_figure(
        "sweep_bab_entries.svg",
        "Sweep: Block Address Buffer entries",
        |r| sweep(r, "bab_entries"),
    ),
    sweep_figure("sweep_rb_entries.svg", "Sweep: Retry Buffer entries", |r| {
        sweep(r, "rb_entries")
    }),
    sweep_figure("sweep_block_bytes.svg", "Sweep: block bytes", |r| {
        sweep(r, "block_bytes")
    }),
    sweep_figure("sweep_hit_latency.svg", "Sweep: hit latency (ours)", |r| {
        sweep(r, "hit_latency")
    }),
    sweep_figure(
        "sweep_filter_latency.svg",
        "Sweep: filter latency (ours)",
        |r| sweep(r, "filter_latency"),
    ),
    sweep_figure(
        "sweep_issue_rate.svg",
        "Sweep: issue rates, % of the machine's (0: free shading)",
        |r| sweep(r, "issue_rate"),
    ),
    sweep_figure(
        "sweep_fragments_in_flight.svg",
        "Sweep: fragments in flight",
        |r| sweep(r, "fragments_in_flight"),
    ),
    sweep_figure(
        "sweep_shared_memory.svg",
        "Sweep: units sharing one DRAM (ours)",
        |r| sweep(r, "shared_memory"),
    ),
];

const fn sweep_figure(
    file: &'static str,
    title: &'static str,
    build: fn(&NbtcReport) -> Vec<Panel>,
) -> Figure<NbtcReport, Panel> {
    Figure {
        file,
        title,
        caption: SWEEP_CAPTION,
        reading: None,
        build,
    }
}

const SWEEP_CAPTION: &str = "One knob changed at a time on one frame at one latency, the others at the unit's values (the unit's own marked \"main\"): the NBTC's total pixel-shader cycles and memory traffic against the blocking cache. The blocking cache has the same value of the knob, except for the NBTC's buffers, which it lacks.";

/// Writes every figure that has something to show into `dir`; returns the
/// paths written, the slides' order, then ours.
pub fn write_all(r: &NbtcReport, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut written = write_figures(r, STACKED, dir)?;
    written.extend(write_figures(r, FIGURES, dir)?);
    written.extend(write_figures(r, SWEEPS, dir)?);
    Ok(written)
}

/// The title and caption of the figure written to `file`.
pub fn about(r: &NbtcReport, file: &str) -> Option<(&'static str, String)> {
    figure::about(STACKED, r, file)
        .or_else(|| figure::about(FIGURES, r, file))
        .or_else(|| figure::about(SWEEPS, r, file))
}

/// The slide 23's claim checked here: in how many runs (filter and
/// latency) the NBTC's miss rate is above the BTC's, and by how much.
fn miss_rate_words(r: &NbtcReport) -> String {
    let gaps: Vec<f64> = r
        .frames
        .iter()
        .flat_map(|f| {
            r.latencies.iter().filter_map(|&l| {
                let (n, b) = (f.row(Mode::Nbtc, l)?, f.row(Mode::BTC, l)?);
                Some(n.miss_rate - b.miss_rate)
            })
        })
        .collect();
    if gaps.is_empty() {
        return String::new();
    }
    let above = gaps.iter().filter(|&&g| g > 0.0).count();
    let (lo, hi) = gaps
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &g| {
            (lo.min(g), hi.max(g))
        });
    let n = gaps.len();
    let runs = if n == 1 { "run" } else { "runs" };
    let side = match above {
        0 => format!("at or below the BTC's in all {n} {runs}"),
        a if a == n => format!("above the BTC's in all {n} {runs}"),
        a => format!("above the BTC's in {a} of {n} runs"),
    };
    format!("Here the NBTC's miss rate is {side} (NBTC minus BTC: {lo:+.2} to {hi:+.2} points).")
}

fn latencies(r: &NbtcReport) -> Vec<String> {
    r.latencies.iter().map(|&l| latency_label(l)).collect()
}

/// Per latency of the report, `of` the row of `mode` on `f`.
fn per_latency(
    r: &NbtcReport,
    f: &FilterReport,
    mode: Mode,
    of: impl Fn(&RunRow) -> f64,
) -> Vec<Option<f64>> {
    r.latencies
        .iter()
        .map(|&l| f.row(mode, l).map(&of))
        .collect()
}

/// A panel per filter mode: a group per latency, a bar per design of
/// `modes`, each `of` its row.
fn by_latency(
    r: &NbtcReport,
    title: &str,
    y: &str,
    unit: Unit,
    modes: &[Mode],
    of: fn(&RunRow) -> f64,
) -> Vec<Panel> {
    r.frames
        .iter()
        .map(|f| {
            let subtitle = format!("{title}: {} filtering", f.filter);
            let mut panel = Panel::new(&subtitle, y, unit, latencies(r));
            for &m in modes {
                panel = panel.series(m.name(), per_latency(r, f, m, of));
            }
            panel
        })
        .collect()
}

/// The designs other than the baseline.
fn against_btc(r: &NbtcReport) -> Vec<Mode> {
    r.modes
        .iter()
        .copied()
        .filter(|&m| m != Mode::BTC)
        .collect()
}

fn ps_cycles(r: &NbtcReport) -> Vec<StackedPanel> {
    let names: Vec<String> = r.modes.iter().map(|m| m.name().to_string()).collect();
    r.frames
        .iter()
        .map(|f| {
            let subtitle = format!("Total PS cycles: {} filtering", f.filter);
            let mut panel = StackedPanel::new(&subtitle, "cycles", latencies(r), names.clone());
            for c in &CATEGORIES {
                let values = r
                    .latencies
                    .iter()
                    .map(|&l| {
                        r.modes
                            .iter()
                            .map(|&m| f.row(m, l).map(|row| (c.of)(&row.stats) as f64))
                            .collect()
                    })
                    .collect();
                panel = panel.segment(c.name, values);
            }
            panel
        })
        .collect()
}

fn cycles_change(r: &NbtcReport) -> Vec<Panel> {
    r.frames
        .iter()
        .map(|f| {
            let subtitle = format!("PS cycles against the BTC: {} filtering", f.filter);
            let mut panel = Panel::new(&subtitle, "cycles vs BTC %", Unit::Percent, latencies(r));
            for m in against_btc(r) {
                panel = panel.series(m.name(), per_latency(r, f, m, |row| row.cycles_change));
            }
            let paper = r
                .latencies
                .iter()
                .map(|&l| paper_cycles(&r.paper, Mode::Nbtc, l))
                .collect();
            panel.paper("paper nbtc", paper).reference(0.0)
        })
        .collect()
}

fn miss_rate(r: &NbtcReport) -> Vec<Panel> {
    by_latency(
        r,
        "Miss rate",
        "texel misses %",
        Unit::Percent,
        &r.modes,
        |row| row.miss_rate,
    )
}

fn traffic(r: &NbtcReport) -> Vec<Panel> {
    let mib = |row: &RunRow| row.stats.traffic_bytes as f64 / f64::from(1u32 << 20);
    let bytes = by_latency(r, "Memory traffic", "MiB", Unit::Ratio, &r.modes, mib);
    let modes = against_btc(r);
    let changes = by_latency(
        r,
        "Memory traffic against the BTC",
        "traffic vs BTC %",
        Unit::Percent,
        &modes,
        |row| row.traffic_change,
    )
    .into_iter()
    .map(|p| {
        p.paper_group("paper (at most)", |name| {
            let mode = modes.iter().find(|m| m.name() == name)?;
            paper_traffic(&r.paper, *mode)
        })
        .reference(0.0)
    });
    bytes
        .into_iter()
        .zip(changes)
        .flat_map(|(a, b)| [a, b])
        .collect()
}

/// A sweep figure's panel: its y axis and what of a run it shows.
type Metric = (&'static str, fn(&RunRow) -> f64);

/// The NBTC's cycles and traffic against the BTC at each value of `knob`,
/// a panel each; nothing if the knob was not swept.
fn sweep(r: &NbtcReport, knob: &str) -> Vec<Panel> {
    let Some(s) = r.sweeps.iter().find(|s| s.knob == knob) else {
        return Vec::new();
    };
    let points = knob_points(r, s);
    let categories: Vec<String> = points
        .iter()
        .map(|p| value_label(p.value, p.main))
        .collect();
    let title = knob_title(knob);
    let at = format!("{} filtering, {}", s.filter, latency_label(s.latency));
    let metrics: [Metric; 2] = [
        ("cycles vs BTC %", |row| row.cycles_change),
        ("traffic vs BTC %", |row| row.traffic_change),
    ];
    metrics
        .into_iter()
        .map(|(y, of)| {
            let subtitle = format!("NBTC {y} by {title} ({at})");
            let values = points.iter().map(|p| Some(of(p.nbtc))).collect();
            Panel::new(&subtitle, y, Unit::Percent, categories.clone())
                .series("nbtc", values)
                .reference(0.0)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nbtc::test_report::report;
    use crate::report::figure::svg_text::{has, svg};

    #[test]
    fn every_figure_is_an_svg_with_its_title() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let written = write_all(&report(), dir.path())?;
        let files = STACKED
            .iter()
            .map(|f| (f.file, f.title))
            .chain(FIGURES.iter().map(|f| (f.file, f.title)));
        for (file, title) in files {
            let text = svg(dir.path(), file)?;
            assert!(text.starts_with("<svg"), "{file} is not an SVG");
            assert!(text.contains(title), "{file} lacks its title");
            assert_eq!(about(&report(), file).map(|a| a.0), Some(title));
            for filter in ["nearest", "bilinear"] {
                assert!(text.contains(filter), "{file} lacks {filter}");
            }
        }
        assert_eq!(written.len(), STACKED.len() + FIGURES.len() + 2);
        assert!(about(&report(), "index.html").is_none());
        Ok(())
    }

    /// Slide 22's stacks: a bar per design and latency carrying its total,
    /// and the slides' categories in the legend.
    #[test]
    fn ps_cycles_stack_each_designs_categories() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let r = report();
        write_all(&r, dir.path())?;
        let text = svg(dir.path(), "ps_cycles.svg")?;
        for series in ["PS run", "PS stall", "BTC blocked"] {
            assert!(has(&text, series), "lacks {series}");
        }
        let nbtc = r.frames[0].row(Mode::Nbtc, 300).unwrap();
        let label = crate::report::figure::compact(nbtc.stats.cycles as f64);
        assert!(has(&text, "nbtc") && has(&text, "btc-parallel"));
        assert!(has(&text, &label), "lacks {label}");
        Ok(())
    }

    /// Ours beside the slides' numbers, the NBTC's only.
    #[test]
    fn bars_hold_ours_and_the_slides() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let r = report();
        write_all(&r, dir.path())?;
        let change = svg(dir.path(), "cycles_change.svg")?;
        let nbtc = r.frames[1].row(Mode::Nbtc, 50).unwrap().cycles_change;
        assert!(has(&change, &format!("{nbtc:.1}")), "ours {nbtc:.1}");
        assert!(has(&change, "-12.5") && has(&change, "-41.6"));
        assert!(has(&change, "paper nbtc") && has(&change, "prefetching"));
        assert!(!has(&change, "btc"), "the BTC is the baseline, no bar");
        let traffic = svg(dir.path(), "traffic.svg")?;
        assert!(has(&traffic, "paper (at most)") && has(&traffic, "11.0"));
        let miss = svg(dir.path(), "miss_rate.svg")?;
        let rate = r.frames[0].row(Mode::BTC, 300).unwrap().miss_rate;
        assert!(has(&miss, &format!("{rate:.1}")) && has(&miss, "btc"));
        Ok(())
    }

    #[test]
    fn sweeps_mark_the_main_value() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let r = report();
        write_all(&r, dir.path())?;
        let text = svg(dir.path(), "sweep_wlb_entries.svg")?;
        assert!(has(&text, "32 (main)") && has(&text, "1") && has(&text, "8"));
        assert!(text.contains("Waiting List Buffer entries"));
        assert!(sweep(&r, "bab_entries").is_empty());
        Ok(())
    }

    /// The slides' "slightly above" is checked on our rates, and the
    /// sentence follows them when the NBTC misses less.
    #[test]
    fn the_miss_rate_caption_follows_the_runs() {
        let mut r = report();
        let set = |r: &mut NbtcReport, nbtc: f64, btc: f64| {
            for f in &mut r.frames {
                for row in &mut f.runs {
                    row.miss_rate = if row.mode == Mode::BTC { btc } else { nbtc };
                }
            }
        };
        set(&mut r, 2.5, 2.0);
        let runs = r.frames.len() * r.latencies.len();
        let s = miss_rate_words(&r);
        assert!(
            s.contains(&format!("above the BTC's in all {runs} runs")),
            "{s}"
        );
        assert!(s.contains("+0.50 to +0.50 points"), "{s}");
        set(&mut r, 1.5, 2.0);
        let s = miss_rate_words(&r);
        assert!(
            s.contains(&format!("at or below the BTC's in all {runs} runs")),
            "{s}"
        );
        assert!(s.contains("-0.50 to -0.50"), "{s}");
    }
}
