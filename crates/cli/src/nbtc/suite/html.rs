//! The suite's `index.html`: the mean over the scenes first, beside the
//! slides' numbers, then each scene (a row per scene, filter and latency,
//! linked to the scene's own page), the sweeps' mean, then the figures.

use std::path::PathBuf;

use gfxcache_nbtc::Mode;

use super::super::{paper_cycles, paper_traffic, share, signed};
use super::plots::about;
use super::{latencies, paper_of, NbtcSuite};
use crate::report::html::{
    cell, esc, figures_section, paper_cell, scene_link, section, strings, suite_head, text,
    warnings, TAIL,
};

/// The whole page.
pub fn page(r: &NbtcSuite, figures: &[PathBuf]) -> String {
    let mut h = suite_head("NBTC", r);
    h += &setup(r);
    h += &mean(r);
    h += &scenes(r);
    h += &sweeps(r);
    h += &figures_section(figures, about);
    h += &seconds(r);
    h += TAIL;
    h
}

fn setup(r: &NbtcSuite) -> String {
    let names: Vec<&str> = r.scenes.iter().map(|s| s.scene.as_str()).collect();
    let mut h = format!(
        "<p>The NBTC study on each scene of the {} suite ({}). The mean is the arithmetic \
         mean of the scenes' changes and miss rates, so each scene weighs the same. The \
         slides' numbers (the Taiji benchmark) are shown in grey italics.</p>\n",
        esc(&r.suite),
        esc(&names.join(", "))
    );
    h += &warnings(&r.warnings);
    h
}

/// Every design at every latency on every filter mode, the mean's.
fn mean(r: &NbtcSuite) -> String {
    let p = paper_of(r);
    let rows = r.mean.rows.iter().map(|m| {
        vec![
            text(&m.filter),
            text(&m.latency.to_string()),
            text(m.mode.name()),
            cell(Some(signed(m.cycles_change))),
            paper_cell(paper_cycles(&p, m.mode, m.latency).map(signed)),
            cell(Some(signed(m.frame_cycles_change))),
            cell(Some(share(m.miss_rate))),
            cell(Some(signed(m.traffic_change))),
            paper_cell(paper_traffic(&p, m.mode).map(|v| format!("at most {}", signed(v)))),
            cell(Some(m.scenes.to_string())),
        ]
    });
    section(
        "Mean over the scenes: each design against the blocking cache",
        &strings(&[
            "filter",
            "latency",
            "design",
            "PS cycles vs BTC",
            "paper",
            "frame cycles vs BTC",
            "miss rate",
            "traffic vs BTC",
            "paper",
            "scenes",
        ]),
        rows,
    )
}

/// A row per scene, filter and latency: the NBTC against the BTC.
fn scenes(r: &NbtcSuite) -> String {
    let lats = latencies(r);
    let rows = r.scenes.iter().flat_map(|s| {
        let lats = lats.clone();
        s.report.frames.iter().flat_map(move |f| {
            lats.clone().into_iter().filter_map(move |l| {
                let row = f.row(Mode::Nbtc, l)?;
                Some(vec![
                    scene_link(&s.scene),
                    text(&f.filter),
                    text(&l.to_string()),
                    cell(Some(signed(row.cycles_change))),
                    cell(Some(signed(row.frame_cycles_change))),
                    cell(Some(share(row.miss_rate))),
                    cell(Some(signed(row.traffic_change))),
                    cell(Some(s.report.warnings.len().to_string())),
                ])
            })
        })
    });
    section(
        "Scenes: the NBTC against the BTC (each links to its own report)",
        &strings(&[
            "scene",
            "filter",
            "latency",
            "PS cycles vs BTC",
            "frame cycles vs BTC",
            "miss rate",
            "traffic vs BTC",
            "warnings",
        ]),
        rows,
    )
}

/// The mean of each sweep point.
fn sweeps(r: &NbtcSuite) -> String {
    let rows = r.mean.sweeps.iter().map(|p| {
        vec![
            text(&p.knob),
            text(&p.value.to_string()),
            cell(Some(signed(p.cycles_change))),
            cell(Some(signed(p.traffic_change))),
            cell(Some(p.scenes.to_string())),
        ]
    });
    section(
        "Sweeps (ours), mean over the scenes: the NBTC against the BTC",
        &strings(&[
            "knob",
            "value",
            "PS cycles vs BTC",
            "traffic vs BTC",
            "scenes",
        ]),
        rows,
    )
}

/// Each scene's distinct configurations and seconds.
fn seconds(r: &NbtcSuite) -> String {
    let rows = r.scenes.iter().map(|s| {
        vec![
            scene_link(&s.scene),
            cell(Some(s.report.runs.to_string())),
            cell(Some(format!("{:.2}", s.report.seconds))),
        ]
    });
    section(
        "Wall-clock seconds of each scene's study",
        &strings(&["scene", "configurations", "seconds"]),
        rows,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nbtc::suite::test_suite::suite;

    #[test]
    fn the_mean_comes_first_then_each_scene_linked() {
        let r = suite();
        let html = page(&r, &[]);
        let mean = html.find("Mean over the scenes").expect("a mean table");
        let scenes = html.find("Scenes: the NBTC").expect("a scenes table");
        assert!(mean < scenes);
        assert!(html.contains("<a href=\"a&lt;1&gt;/index.html\">a&lt;1&gt;</a>"));
        let m = r.mean.row("nearest", Mode::Nbtc, 300).unwrap();
        let row = format!(
            "<tr><td>nearest</td><td>300</td><td>nbtc</td><td>{}</td><td class=\"paper\">-41.6%</td>",
            signed(m.cycles_change)
        );
        assert!(html.contains(&row), "{row}");
        assert!(html.contains("<td class=\"paper\">at most +11.0%</td>"));
        assert!(html.contains("Sweeps (ours), mean over the scenes"));
        assert!(html.ends_with("</html>\n"));
    }
}
