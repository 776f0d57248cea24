//! The suite's `index.html`: the mean over the scenes first, beside the
//! paper's numbers, each figure after the table it plots, then each scene
//! (a row per scene, linked to the scene's own page, with its frame).

use gfxcache_cache::format_size;
use gfxcache_nuca::OrgKind;

use super::super::html::{figures_table, main_cells};
use super::super::{against_private, paper_scaling, share, signed};
use super::{NucaSuite, MEAN};
use crate::report::html::{self, warnings, Figures};
use crate::report::html::{
    cell, esc, paper_cell, scene_frame, scene_link, scene_seconds_table, section, strings,
    suite_title, text, Cell,
};
use crate::report::Shown;

/// The whole page: the mean first, each figure after the table it plots.
pub fn page(r: &NucaSuite, shown: &Shown) -> String {
    let figures = crate::report::data::suite_figures(r);
    let mut figs = Figures::new(shown.figures, |f| crate::report::data::about(&figures, f));
    let mut h = setup(r);
    h += &figures_table(
        "Mean over the scenes: Figures 6, 8, 9, 10 against private caches",
        &r.mean.organizations,
        &r.mean.paper,
    );
    for file in [
        "fig6_l2_accesses.svg",
        "fig8_hits.svg",
        "fig9_speedup.svg",
        "fig10_energy.svg",
    ] {
        h += &figs.take(file);
    }
    h += &replication(r);
    h += &figs.take("fig1_replication.svg");
    h += &capacity(r);
    h += &figs.take("fig7_capacity.svg");
    h += &scaling(r);
    h += &figs.take("fig11_scaling.svg");
    h += &scenes(r, shown);
    h += &figs.rest("Other figures");
    h += &scene_seconds_table(
        r.scenes
            .iter()
            .map(|s| (s.scene.as_str(), &s.report.seconds)),
    );
    html::page(&suite_title("DTM-NUCA", r), &h)
}

fn setup(r: &NucaSuite) -> String {
    let names: Vec<&str> = r.scenes.iter().map(|s| s.scene.as_str()).collect();
    let mut h = format!(
        "<p>The DTM-NUCA study on each scene of the {} suite ({}). The mean is the \
         arithmetic mean of the scenes' figures, as the paper averages its games, so each \
         scene weighs the same. The paper's numbers are shown in grey italics.</p>\n",
        esc(&r.suite),
        esc(&names.join(", "))
    );
    h += &warnings(&r.warnings);
    h
}

/// Figure 1 per scene, the mean and the paper's.
fn replication(r: &NucaSuite) -> String {
    let scenes = r.scenes.iter().map(|s| {
        let p = &s.report.replication;
        vec![
            scene_link(&s.scene),
            cell(Some(p.fps.to_string())),
            cell(Some(share(p.replicated_percent))),
            paper_cell(None),
        ]
    });
    let m = &r.mean;
    let mean = vec![
        text(MEAN),
        cell(Some(m.replication_fps.to_string())),
        cell(Some(share(m.replicated_percent))),
        paper_cell(Some(share(m.paper.replicated_percent))),
    ];
    section(
        "Figure 1: texture accesses to replicated blocks",
        &strings(&[
            "scene",
            "private caches",
            "in more than one",
            "paper (4 caches)",
        ]),
        scenes.chain([mean]),
    )
}

/// Figure 7: each private size's L2 requests against the main size's, per
/// scene and the mean.
fn capacity(r: &NucaSuite) -> String {
    let sizes: Vec<u64> = r.mean.capacity.iter().map(|(b, _)| *b).collect();
    let mut head = vec!["scene".to_string()];
    head.extend(sizes.iter().map(|&b| format_size(b)));
    let scenes = r.scenes.iter().map(|s| {
        let mut row = vec![scene_link(&s.scene)];
        row.extend(
            sizes
                .iter()
                .map(|&b| cell(s.report.capacity_change(b).map(signed))),
        );
        row
    });
    let mut mean = vec![text(MEAN)];
    mean.extend(r.mean.capacity.iter().map(|&(_, c)| cell(Some(signed(c)))));
    section(
        "Figure 7: private L2 requests by size against the main size",
        &head,
        scenes.chain([mean]),
    )
}

/// Figure 11's mean, the paper's beside.
fn scaling(r: &NucaSuite) -> String {
    let rows = r
        .mean
        .scaling
        .iter()
        .filter(|(_, k, _)| *k != OrgKind::Private)
        .map(|(fps, k, f)| {
            vec![
                text(&fps.to_string()),
                text(k.name()),
                cell(Some(signed(f.speedup_percent))),
                paper_cell(paper_scaling(&r.mean.paper, *k, *fps).map(signed)),
                cell(Some(signed(f.l2_texture_change_percent))),
                cell(Some(share(f.local_hit_percent))),
            ]
        });
    section(
        "Figure 11: mean by number of fragment processors",
        &strings(&[
            "fragment processors",
            "organization",
            "speedup",
            "paper",
            "L2 texture requests",
            "local hits",
        ]),
        rows,
    )
}

/// A row per scene and organization: its main figures, linked to its
/// page, the scene's frame on its first row.
fn scenes(r: &NucaSuite, shown: &Shown) -> String {
    let kinds = against_private(r.mean.organizations.iter().map(|(k, _)| *k));
    let rows = r.scenes.iter().flat_map(|s| {
        let rows: Vec<Vec<Cell>> = kinds
            .iter()
            .filter_map(|&k| {
                let f = s.report.row(k)?.figures;
                let mut cells: Vec<Cell> = vec![scene_link(&s.scene), text(k.name())];
                cells.extend(main_cells(&f));
                cells.push(cell(Some(s.report.warnings.len().to_string())));
                Some(cells)
            })
            .collect();
        rows.into_iter().enumerate().map(|(i, mut cells)| {
            cells.push(match i {
                0 => scene_frame(shown, &s.scene, "frame.png"),
                _ => cell(None),
            });
            cells
        })
    });
    section(
        "Scenes (each links to its own report)",
        &strings(&[
            "scene",
            "organization",
            "local hits",
            "L2 texture requests",
            "speedup",
            "energy",
            "warnings",
            "frame",
        ]),
        rows,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nuca::suite::mean_of;
    use crate::nuca::suite::test_suite::suite;

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
        let scenes = html.find("Scenes (each links").expect("a scenes table");
        assert!(mean < scenes);
        assert!(html.contains("<a href=\"a&lt;1&gt;/index.html\">a&lt;1&gt;</a>"));
        let dtm = mean_of(&r, OrgKind::Dtm).unwrap();
        let row = format!(
            "<tr><td>dtm-nuca</td><td>{}</td><td class=\"paper\">66.3%</td>",
            share(dtm.local_hit_percent)
        );
        assert!(html.contains(&row), "{row}");
        assert!(html.contains("<td class=\"paper\">84.6%</td>"));
        assert!(html.contains(&share(r.mean.replicated_percent)));
        assert!(html.ends_with("</html>\n"));
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
