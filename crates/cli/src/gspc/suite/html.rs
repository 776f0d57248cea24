//! The suite's `index.html`: the mean over the scenes first, beside the
//! paper's averages, then each scene (a row per scene, linked to the
//! scene's own page), then the figures.

use gfxcache_cache::format_size;
use gfxcache_llc::study::paper;
use gfxcache_llc::study::report::GspcReport;

use super::super::{find, paper_fps, FPS_POLICIES, PAPER_SIZE, TABLE6};
use super::plots::FIGURES;
use super::{find_mean, main_size, sizes, timing_configs, GspcSuite, MEAN};
use crate::report::figure::about;
use crate::report::html::{self, warnings, Figures};
use crate::report::html::{
    cell, esc, paper_cell, ratio, scene_frame, scene_link, scene_seconds_table, section, strings,
    suite_title, text,
};
use crate::report::Shown;
use crate::table::{percent, thousands};

/// The whole page: the mean first, each figure after the table it plots.
pub fn page(r: &GspcSuite, shown: &Shown) -> String {
    let mut figs = Figures::new(shown.figures, |f| about(FIGURES, r, f));
    let mut h = setup(r);
    h += &mean_misses_table(r);
    h += &figs.take("fig14_iso_overhead.svg");
    h += &mean_rates_table(r);
    h += &figs.take("fig05_hit_rates.svg");
    h += &figs.take("fig06_rt_consumed.svg");
    h += &mean_fps_table(r);
    h += &scenes_table(r, shown);
    if let Some(size) = main_size(r) {
        let title = format!(
            "Per scene: LLC misses over DRRIP's at {}",
            format_size(size)
        );
        h += &per_scene_table(
            r,
            &title,
            TABLE6,
            size,
            |p| p.misses_vs_drrip,
            |m| m.misses_vs_drrip,
        );
        h += &figs.take("fig12_misses_vs_drrip.svg");
        let title = format!(
            "Per scene: LLC read misses over DRRIP's at {} (write misses, whole lines \
             written back by the render caches, fetch nothing from memory)",
            format_size(size)
        );
        h += &per_scene_table(
            r,
            &title,
            TABLE6,
            size,
            |p| p.read_misses_vs_drrip,
            |m| m.read_misses_vs_drrip,
        );
        let title = format!(
            "Per scene: frame rate over DRRIP's at {}",
            format_size(size)
        );
        h += &per_scene_table(
            r,
            &title,
            FPS_POLICIES,
            size,
            |p| p.fps_vs_drrip,
            |m| m.fps_vs_drrip,
        );
        h += &figs.take("fig15_17_fps.svg");
    }
    h += &figs.rest("Other figures");
    h += &scene_seconds_table(
        r.scenes
            .iter()
            .map(|s| (s.scene.as_str(), &s.report.seconds)),
    );
    html::page(&suite_title("GSPC", r), &h)
}

fn setup(r: &GspcSuite) -> String {
    let names: Vec<&str> = r.scenes.iter().map(|s| s.scene.as_str()).collect();
    let first = r.scenes.first().map(|s| &s.report);
    let shape = first.map_or(String::new(), |f| {
        format!(
            "; LLC of {} ({} ways, {}-byte blocks, {} banks)",
            sizes(r)
                .iter()
                .map(|&s| format_size(s))
                .collect::<Vec<_>>()
                .join(", "),
            f.ways,
            f.block,
            f.banks
        )
    });
    let mut h = format!(
        "<p>The GSPC study on each scene of the {} suite ({}){shape}. The mean is the \
         arithmetic mean of the scenes' figures, as the paper averages its applications: a \
         ratio is the mean of the scenes' ratios, so each scene weighs the same. The paper's \
         values are its averages over 52 DirectX frames at 8 MB (Gaur et al., MICRO'13), \
         shown in grey italics.</p>\n",
        esc(&r.suite),
        esc(&names.join(", "))
    );
    h += &warnings(&r.warnings);
    h
}

fn mean_misses_table(r: &GspcSuite) -> String {
    let mut head = vec!["policy".to_string()];
    for &s in sizes(r) {
        let l = format_size(s);
        head.push(format!("misses {l}"));
        head.push(format!("vs DRRIP {l}"));
    }
    head.push("paper (8 MB)".into());
    let main = main_size(r).unwrap_or(0);
    let rows = r.mean.policies.iter().filter(|m| m.size == main).map(|m| {
        let mut row = vec![text(&m.policy)];
        for &s in sizes(r) {
            let at = find_mean(r, &m.policy, s);
            row.push(cell(at.map(|m| thousands(m.misses.round() as u64))));
            row.push(cell(at.map(|m| ratio(m.misses_vs_drrip))));
        }
        row.push(paper_cell(
            paper::lookup(paper::MISSES_VS_DRRIP, &m.policy).map(ratio),
        ));
        row
    });
    section(
        "Mean over the scenes: LLC misses normalised to DRRIP",
        &head,
        rows,
    )
}

fn mean_rates_table(r: &GspcSuite) -> String {
    let Some(size) = main_size(r) else {
        return String::new();
    };
    let head = strings(&[
        "policy",
        "TEX",
        "RT",
        "Z",
        "all",
        "RT consumed",
        "paper TEX",
        "paper RT",
        "paper Z",
        "paper RT consumed",
    ]);
    let rows = r.mean.policies.iter().filter(|m| m.size == size).map(|m| {
        let h = &m.hit_rate;
        let paper_rates = paper::HIT_RATES.iter().find(|(n, _)| *n == m.policy);
        let mut row = vec![text(&m.policy)];
        let ours = [h.tex, h.rt, h.z, h.all, m.rt_consumed_fraction];
        row.extend(ours.map(|v| cell(Some(percent(v)))));
        row.extend((0..3).map(|k| {
            let v = paper_rates.and_then(|(_, v)| v[k]);
            paper_cell(v.map(|v| percent(v / 100.0)))
        }));
        let consumed = paper::lookup(paper::RT_CONSUMED, &m.policy);
        row.push(paper_cell(consumed.map(|v| percent(v / 100.0))));
        row
    });
    let title = format!(
        "Mean over the scenes: hit rates and RT consumption at {} (Figures 5, 6, 13)",
        format_size(size)
    );
    section(&title, &head, rows)
}

fn mean_fps_table(r: &GspcSuite) -> String {
    let mut head = strings(&["policy", "size", "FPS", "vs DRRIP", "paper"]);
    for c in timing_configs(r) {
        head.push(format!("{} vs DRRIP", c.name));
        head.push(format!("{} paper", c.name));
    }
    let rows = r.mean.policies.iter().map(|m| {
        let label = format_size(m.size);
        let mut row = vec![
            text(&m.policy),
            text(&label),
            cell(Some(format!("{:.2}", m.fps))),
            cell(Some(ratio(m.fps_vs_drrip))),
            paper_cell(paper_fps(&label, &m.policy).map(ratio)),
        ];
        for c in timing_configs(r) {
            row.push(cell(m.timing.get(&c.name).map(|t| ratio(t.fps_vs_drrip))));
            let paper = (m.size == PAPER_SIZE).then(|| paper_fps(&c.name, &m.policy));
            row.push(paper_cell(paper.flatten().map(ratio)));
        }
        row
    });
    section(
        "Mean over the scenes: frame rate normalised to DRRIP (Figures 15-17)",
        &head,
        rows,
    )
}

/// Each scene: what was studied, its own page and its frame.
fn scenes_table(r: &GspcSuite, shown: &Shown) -> String {
    let head = strings(&[
        "scene",
        "resolution",
        "frames",
        "LLC accesses",
        "warnings",
        "frame",
    ]);
    let rows = r.scenes.iter().map(|s| {
        let g: &GspcReport = &s.report;
        let frames = match g.warmup {
            0 => g.frames.to_string(),
            w => format!("{} after {w} of warm-up", g.frames - w),
        };
        vec![
            scene_link(&s.scene),
            cell(g.resolution.map(|(w, h)| format!("{w}x{h}"))),
            cell(Some(frames)),
            cell(Some(thousands(g.accesses))),
            cell(Some(g.warnings.len().to_string())),
            scene_frame(shown, &s.scene, "frame.png"),
        ]
    });
    section("Scenes (each links to its own report)", &head, rows)
}

/// A row per scene and the mean's of `policies` at `size`: the scene's
/// figure (`scene`) and the mean's (`mean`).
fn per_scene_table(
    r: &GspcSuite,
    title: &str,
    policies: &[&str],
    size: u64,
    scene: impl Fn(&gfxcache_llc::study::report::PolicyResult) -> f64,
    mean: impl Fn(&gfxcache_llc::study::mean::PolicyMean) -> f64,
) -> String {
    let mut head = vec!["scene".to_string()];
    head.extend(policies.iter().map(|p| p.to_string()));
    let scenes = r.scenes.iter().map(|s| {
        let mut row = vec![scene_link(&s.scene)];
        row.extend(
            policies
                .iter()
                .map(|p| cell(find(&s.report, p, size).map(|p| ratio(scene(p))))),
        );
        row
    });
    let mut mean_row = vec![text(MEAN)];
    mean_row.extend(
        policies
            .iter()
            .map(|p| cell(find_mean(r, p, size).map(|m| ratio(mean(m))))),
    );
    section(title, &head, scenes.chain([mean_row]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gspc::suite::test_suite::suite;

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
        let scenes = html.find("Scenes (each").expect("a scenes table");
        assert!(mean < scenes);
        assert!(html.contains("<a href=\"a&lt;1&gt;/index.html\">a&lt;1&gt;</a>"));
        assert!(html.contains("<a href=\"b/index.html\">b</a>"));
        assert!(html.contains("0.869"), "the paper's GSPC+UCD");
        assert!(html.contains("b: b is odd"));
        let gspc = find_mean(&r, "gspc", 8 << 20).unwrap();
        assert!(html.contains(&ratio(gspc.misses_vs_drrip)));
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
