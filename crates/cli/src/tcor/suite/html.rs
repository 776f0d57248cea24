//! The suite's `index.html`: the mean over the scenes first, beside the
//! paper's averages, then each scene (a row per scene, linked to the
//! scene's own page, with its frame), the figures after the table they
//! plot and the mean curves last.

use gfxcache_tcor::study::mean::EngineFigure;
use gfxcache_tcor::study::report::Reductions;

use super::super::html::{mib, micro, reductions_section, times};
use super::plots::about;
use super::{TcorSuite, MEAN};
use crate::report::html::{self, warnings, Figures};
use crate::report::html::{
    cell, esc, ratio, scene_frame, scene_link, scene_seconds_table, section, strings, suite_title,
    text, Cell,
};
use crate::report::Shown;
use crate::table::{percent, thousands};

/// The whole page: the mean first, each figure after the table it plots.
pub fn page(r: &TcorSuite, shown: &Shown) -> String {
    let mut figs = Figures::new(shown.figures, |f| about(r, f));
    let mut h = setup(r);
    h += &reductions_section(
        "Mean over the scenes versus the paper, by Tile Cache size",
        &r.mean.reductions,
        &r.mean.paper,
    );
    h += &mean_engines_table(r);
    h += &crate::tcor::fetcher::sensitivity_html(
        "Mean over the scenes: Tile Fetcher speedup by fetcher and memory latency",
        &r.mean.fetcher_sensitivity,
    );
    h += &scenes_table(r, shown);
    h += &per_scene_reductions(r);
    for file in [
        "fig14_15_pb_l2.svg",
        "fig16_17_pb_dram.svg",
        "fig18_19_dram.svg",
        "fig20_21_energy.svg",
        "fig23_24_fetcher.svg",
    ] {
        h += &figs.take(file);
    }
    h += &figs.rest("Mean Attribute Cache curves");
    h += &scene_seconds_table(
        r.scenes
            .iter()
            .map(|s| (s.scene.as_str(), &s.report.seconds)),
    );
    html::page(&suite_title("TCOR", r), &h)
}

fn setup(r: &TcorSuite) -> String {
    let names: Vec<&str> = r.scenes.iter().map(|s| s.scene.as_str()).collect();
    let mut h = format!(
        "<p>The TCOR study on each scene of the {} suite ({}). The mean is the arithmetic \
         mean of the scenes' figures, as the paper averages its games: a decrease or a ratio \
         over the baseline is the mean of the scenes', so each scene weighs the same. The \
         paper's values are its averages over ten Android games (Joseph et al.), shown in \
         grey italics.</p>\n",
        esc(&r.suite),
        esc(&names.join(", "))
    );
    if let Some(s) = r.scenes.first() {
        h += &format!(
            "<p>The Tile Fetcher is {} (each scene's page says its own).</p>\n",
            esc(&crate::tcor::fetcher::timing_words(&s.report.l2.fetcher))
        );
    }
    h += &warnings(&r.warnings);
    h
}

/// Every engine run's mean, absolute and over the baseline.
fn mean_engines_table(r: &TcorSuite) -> String {
    let head = strings(&[
        "Tile Cache",
        "engine",
        "PB to L2",
        "vs baseline",
        "PB to memory",
        "vs baseline",
        "memory",
        "vs baseline",
        "energy (uJ)",
        "vs baseline",
        "prims/cycle",
        "vs baseline",
    ]);
    let rows = r.mean.engines.iter().map(|m| {
        let mut row = vec![text(&m.tile_cache), text(&m.engine)];
        for f in EngineFigure::ALL {
            let v = m.value(f);
            row.push(cell(Some(match f {
                EngineFigure::EnergyNj => micro(v),
                EngineFigure::PrimitivesPerCycle => format!("{v:.3}"),
                _ => thousands(v.round() as u64),
            })));
            row.push(cell(m.vs_baseline(f).map(ratio)));
        }
        row
    });
    section(
        "Mean over the scenes: Tiling Engines through the shared L2",
        &head,
        rows,
    )
}

/// Each scene's frame (Table II), its own page and its picture.
fn scenes_table(r: &TcorSuite, shown: &Shown) -> String {
    let head = strings(&[
        "scene",
        "resolution",
        "frames",
        "render passes",
        "primitives",
        "reuse",
        "largest PB (MiB)",
        "warnings",
        "frame",
    ]);
    let scenes = r.scenes.iter().map(|s| {
        let t = &s.report;
        let frames = match t.warmup {
            0 => t.frames.to_string(),
            w => format!("{} after {w} of warm-up", t.frames - w),
        };
        vec![
            scene_link(&s.scene),
            cell(t.resolution.map(|(w, h)| format!("{w}x{h}"))),
            cell(Some(frames)),
            cell(Some(t.render_passes.to_string())),
            cell(Some(thousands(t.frame.primitives))),
            cell(Some(format!("{:.2}", t.frame.average_reuse))),
            cell(Some(mib(t.frame.largest_pass_footprint_bytes))),
            cell(Some(t.warnings.len().to_string())),
            scene_frame(shown, &s.scene, "frame.png"),
        ]
    });
    let m = &r.mean.frame;
    let mean = vec![
        text(MEAN),
        cell(None),
        cell(None),
        cell(Some(format!("{:.1}", m.render_passes))),
        cell(Some(thousands(m.primitives.round() as u64))),
        cell(Some(format!("{:.2}", m.average_reuse))),
        cell(Some(mib(m.largest_pass_footprint_bytes.round() as u64))),
        cell(None),
        cell(None),
    ];
    section(
        "Scenes (Table II; each links to its own report)",
        &head,
        scenes.chain([mean]),
    )
}

/// Each scene's decreases at every Tile Cache size, then the mean's.
fn per_scene_reductions(r: &TcorSuite) -> String {
    let head = strings(&[
        "scene",
        "Tile Cache",
        "PB to L2",
        "PB to memory",
        "memory",
        "energy",
        "energy no L2",
        "fetcher speedup",
    ]);
    let row = |who: Cell, size: &str, d: &Reductions| {
        let pc = |v: f64| cell(Some(percent(v / 100.0)));
        vec![
            who,
            text(size),
            pc(d.pb_l2_accesses),
            pc(d.pb_dram_accesses),
            pc(d.dram_accesses),
            pc(d.energy),
            pc(d.energy_no_l2),
            cell(Some(times(d.fetcher_speedup))),
        ]
    };
    let scenes = r.scenes.iter().flat_map(|s| {
        s.report
            .reductions
            .iter()
            .map(|(size, d)| row(scene_link(&s.scene), size, d))
    });
    let means = r
        .mean
        .reductions
        .iter()
        .map(|(size, d)| row(text(MEAN), size, d));
    section(
        "Per scene: decreases versus the baseline",
        &head,
        scenes.chain(means),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcor::suite::test_suite::suite;

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
        let scenes = html.find("Scenes (Table II").expect("a scenes table");
        assert!(mean < scenes);
        assert!(html.contains("<a href=\"a&lt;1&gt;/index.html\">a&lt;1&gt;</a>"));
        assert!(html.contains("33.50%"), "the paper's PB decrease at 64 KiB");
        let mean = r.mean.reductions["64KiB"].pb_l2_accesses;
        assert!(html.contains(&percent(mean / 100.0)));
    }

    /// Each scene's frame small in its row, linked to itself; the
    /// contents; no figure wider than the page.
    #[test]
    fn shows_each_scenes_frame_the_contents_and_narrow_figures() -> anyhow::Result<()> {
        use crate::report::html::check::unlinked;
        let (dir, html) = crate::report::page_with(&suite(), &["a<1>/frame.png"])?;
        assert!(html.contains("<a href=\"a&lt;1&gt;/frame.png\"><img src=\"a&lt;1&gt;/frame.png\""));
        assert!(!html.contains("b/frame.png"), "b has no frame here");
        assert_eq!(unlinked(&html), Vec::<String>::new());
        let wide = crate::report::figure::svg_text::too_wide(dir.path())?;
        assert!(wide.is_empty(), "{wide:?}");
        Ok(())
    }
}
