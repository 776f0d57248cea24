//! The suite's `index.html`: the mean over the scenes first, beside the
//! slides' numbers, then each scene (a row per scene, filter and latency,
//! linked to the scene's own page, with its frame), the sweeps' mean, each
//! figure after the table it plots.

use gfxcache_nbtc::Mode;

use super::super::{paper_cycles, paper_traffic, picture, share, signed, storage_line};
use super::{latencies, paper_of, NbtcSuite};
use crate::report::html::{
    self, cell, esc, paper_cell, scene_frame, scene_link, section, strings, suite_title, text,
    warnings, Cell, Figures,
};
use crate::report::Shown;
use crate::table::thousands;

/// The whole page: the mean first, each figure after the table it plots.
pub fn page(r: &NbtcSuite, shown: &Shown) -> String {
    let figures = crate::report::data::suite_figures(r);
    let mut figs = Figures::new(shown.figures, |f| crate::report::data::about(&figures, f));
    let mut h = setup(r);
    h += &mean(r);
    for file in ["cycles_change.svg", "miss_rate.svg", "traffic_change.svg"] {
        h += &figs.take(file);
    }
    h += &scenes(r, shown);
    h += &figs.take("cycles_change_scenes.svg");
    h += &sweeps(r);
    h += &figs.take_all("sweep_");
    h += &figs.rest("Other figures");
    h += &seconds(r);
    html::page(&suite_title("NBTC", r), &h)
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
    if let Some(first) = r.scenes.first() {
        h += &format!(
            "<p>The NBTC's buffers (field widths ours): {}.</p>\n",
            esc(&storage_line(&first.report.storage))
        );
    }
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

/// A row per scene, filter and latency: the NBTC against the BTC; the
/// scene's frame on its first row.
fn scenes(r: &NbtcSuite, shown: &Shown) -> String {
    let lats = latencies(r);
    let rows = r.scenes.iter().flat_map(|s| {
        let rows: Vec<Vec<Cell>> = s
            .report
            .frames
            .iter()
            .flat_map(|f| {
                lats.iter().filter_map(move |&l| {
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
            .collect();
        let picture = s.report.frames.first().map(|f| picture(&f.filter));
        rows.into_iter().enumerate().map(move |(i, mut cells)| {
            cells.push(match (i, &picture) {
                (0, Some(p)) => scene_frame(shown, &s.scene, p),
                _ => cell(None),
            });
            cells
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
            "frame",
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
            cell(Some(thousands(p.storage_bytes))),
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
            "NBTC buffers (B)",
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
        let dir = tempfile::tempdir().unwrap();
        let html = page(
            &r,
            &Shown {
                dir: dir.path(),
                figures: &[],
            },
        );
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

    /// Each scene's frame small in its row, linked to itself; the
    /// contents; no figure wider than the page.
    #[test]
    fn shows_each_scenes_frame_the_contents_and_narrow_figures() -> anyhow::Result<()> {
        use crate::report::html::check::unlinked;
        let (dir, html) = crate::report::page_with(&suite(), &["a<1>/nearest.png"])?;
        assert!(
            html.contains("<a href=\"a&lt;1&gt;/nearest.png\"><img src=\"a&lt;1&gt;/nearest.png\"")
        );
        assert!(!html.contains("b/nearest.png"), "b has no frame here");
        assert_eq!(unlinked(&html), Vec::<String>::new());
        let wide = crate::report::figure::svg_text::too_wide(dir.path())?;
        assert!(wide.is_empty(), "{wide:?}");
        Ok(())
    }
}
