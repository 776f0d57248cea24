//! The DTM-NUCA report through the one writer: its tables hold the
//! report's numbers, its figures draw them beside the paper's, and a
//! suite's mean rows equal the design crate's own mean ([`NucaMean`]).

use gfxcache_cache::suite::SuiteMean;
use gfxcache_nuca::study::figures::SWEEP_TITLES;
use gfxcache_nuca::study::tables::{figure_values, FIGURE_COLUMNS};
use gfxcache_nuca::study::{Figures, NucaReport};
use gfxcache_nuca::OrgKind;
use gfxcache_report::{Report, Table};

use super::suite::test_suite::suite;
use super::test_report::report;
use crate::report::data;
use crate::report::figure::svg_text::{has, svg};
use crate::report::write_all;
use gfxcache_nuca::study::tables::{knob_values, swept};

use crate::report::data::lookup::{cell, table};

#[test]
fn the_organizations_table_is_the_reports_numbers() -> anyhow::Result<()> {
    let r = report();
    let t = table(&r.tables()?, "organizations");
    assert_eq!(t.rows(), r.organizations.len());
    let dtm = r.row(OrgKind::Dtm).unwrap();
    let get = |c: &str| cell(&t, &[("organization", "dtm-nuca")], c);
    let s = &dtm.result.stats;
    assert_eq!(get("local_hits"), s.local_hits.to_string());
    assert_eq!(get("remote_hits"), s.remote_hits.to_string());
    assert_eq!(get("l2_texture_requests"), s.l2_requests.to_string());
    assert_eq!(get("cycles"), dtm.result.timing.cycles.to_string());
    assert_eq!(get("epochs"), s.epochs.to_string());
    assert_eq!(
        get("speedup_percent"),
        dtm.figures.speedup_percent.to_string()
    );
    assert_eq!(
        get("energy_total_nj"),
        dtm.result.energy.total_nj.to_string()
    );
    assert_eq!(get("mesh_flit_hops"), dtm.result.mesh.flit_hops.to_string());
    let bus = &dtm.result.bus;
    assert_eq!(get("bus_transfers"), bus.transfers.to_string());
    assert_eq!(get("bus_busy_cycles"), bus.busy_cycles.to_string());
    assert_eq!(get("bus_queue_cycles"), bus.queue_cycles.to_string());
    assert_eq!(get("bus_max_wait_cycles"), bus.max_wait_cycles.to_string());
    assert_eq!(
        get("bus_utilisation_percent"),
        dtm.figures.bus_utilisation_percent.to_string()
    );
    for (c, v) in FIGURE_COLUMNS.iter().zip(figure_values(&dtm.figures)) {
        assert_eq!(get(c), v.to_string(), "{c}");
    }
    assert_eq!(get("paper_local_hit_percent"), "66.3");
    assert_eq!(get("paper_speedup_percent"), "16.9");
    assert_eq!(
        cell(&t, &[("organization", "s-nuca")], "paper_speedup_percent"),
        "",
        "the paper has no S-NUCA"
    );
    // The shares add up to every access.
    let shares: f64 = [
        "local_hit_percent",
        "remote_hit_percent",
        "l2_hit_percent",
        "l2_miss_percent",
    ]
    .iter()
    .map(|c| get(c).parse::<f64>().unwrap())
    .sum();
    assert!((shares - 100.0).abs() < 1e-9, "{shares}");
    Ok(())
}

#[test]
fn the_figures_tables_have_a_row_per_point() -> anyhow::Result<()> {
    let r = report();
    let tables = r.tables()?;
    let replication = table(&tables, "replication");
    assert_eq!(
        replication.columns()[..3],
        ["fragment_processors", "caches", "share_percent"]
    );
    assert_eq!(replication.rows(), r.replication.fps + 1, "and the paper's");
    let on = [("caches", "2")];
    assert_eq!(
        cell(&replication, &on, "share_percent"),
        r.replication.in_caches_percent[2].to_string()
    );
    let paper = [("reference", "paper")];
    assert_eq!(cell(&replication, &paper, "replicated_percent"), "84.6");
    assert_eq!(cell(&replication, &paper, "fragment_processors"), "4");

    // The private sizes, then the paper's 64KiB and 128KiB, not studied.
    let capacity = table(&tables, "capacity");
    assert_eq!(capacity.rows(), r.capacity.len() + 2);
    assert_eq!(capacity.cell(0, 0), "2048");
    let dtm = r.row(OrgKind::Dtm).unwrap().result.stats.l2_requests;
    let dtm_col = capacity.index("dtm_l2_requests").unwrap();
    assert!((0..capacity.rows()).all(|i| capacity.cell(i, dtm_col) == dtm.to_string()));
    let at = [("tc_bytes", "131072")];
    assert_eq!(cell(&capacity, &at, "paper_effective"), "dtm-nuca");
    assert_eq!(cell(&capacity, &at, "l2_requests"), "");
    assert_eq!(
        cell(&capacity, &[("tc_bytes", "4096")], "l2_change_percent"),
        "0"
    );

    let scaling = table(&tables, "scaling");
    let runs: usize = r.scaling.iter().map(|p| p.rows.len()).sum();
    assert_eq!(scaling.rows(), runs);
    assert_eq!(
        scaling.columns()[..3],
        ["fragment_processors", "organization", "local_hit_percent"]
    );
    let dtm4 = r.scaling[0]
        .rows
        .iter()
        .find(|x| x.organization == OrgKind::Dtm)
        .unwrap();
    let on = [("fragment_processors", "4"), ("organization", "dtm-nuca")];
    assert_eq!(
        cell(&scaling, &on, "speedup_percent"),
        dtm4.figures.speedup_percent.to_string()
    );
    assert_eq!(cell(&scaling, &on, "paper_speedup_percent"), "10.2");

    let assignments = table(&tables, "assignments");
    assert!(!assignments
        .rows_where(&[("assignment", "tiles")])
        .is_empty());
    assert!(!assignments
        .rows_where(&[("assignment", "round-robin")])
        .is_empty());
    Ok(())
}

/// Every sweep's run, and the main run at the machine's value, marked
/// `main`, in order of value.
#[test]
fn the_sweeps_table_holds_the_main_value() -> anyhow::Result<()> {
    let r = report();
    let sweeps = table(&r.tables()?, "sweeps");
    assert_eq!(sweeps.columns()[..3], ["knob", "value", "organization"]);
    for p in &r.sweeps {
        let on = [
            ("knob", p.knob.as_str()),
            ("value", p.value.as_str()),
            ("organization", p.organization.name()),
        ];
        assert_eq!(
            cell(&sweeps, &on, "speedup_percent"),
            p.figures.speedup_percent.to_string()
        );
        assert_eq!(cell(&sweeps, &on, "main"), "false");
    }
    let main = [
        ("knob", "epoch"),
        ("value", "2000"),
        ("organization", "dtm-nuca"),
    ];
    assert_eq!(cell(&sweeps, &main, "main"), "true");
    let dtm = r.row(OrgKind::Dtm).unwrap().figures;
    assert_eq!(
        cell(&sweeps, &main, "local_hit_percent"),
        dtm.local_hit_percent.to_string()
    );
    let values: Vec<String> = sweeps
        .rows_where(&[("knob", "epoch"), ("organization", "dtm-nuca")])
        .into_iter()
        .map(|i| sweeps.cell(i, 1))
        .collect();
    assert_eq!(values, ["500", "2000"]);

    let epoch = knob_values(&r, "epoch");
    assert_eq!(
        epoch,
        [("500".to_string(), false), ("2000".to_string(), true)]
    );
    assert_eq!(swept(&r, "epoch", &epoch[1], OrgKind::Dtm), Some(dtm));
    assert_eq!(knob_values(&r, "order")[0], ("clock".to_string(), true));
    Ok(())
}

/// The mean rows of the suite's `table` for (key columns, value), each
/// with its figures, and NucaMean's figures of the same rows.
fn assert_figures(t: &Table, on: &[(&str, &str)], f: &Figures) {
    let mut on = on.to_vec();
    on.insert(0, ("scene", "mean"));
    for (c, v) in FIGURE_COLUMNS.iter().zip(figure_values(f)) {
        assert_eq!(cell(t, &on, c), v.to_string(), "{} {on:?} {c}", t.name());
    }
}

/// The generic group-by gives what the design crate's own mean gives,
/// for every row that mean has.
#[test]
fn the_suites_mean_rows_are_the_design_crates_mean() -> anyhow::Result<()> {
    let s = suite();
    let reports: Vec<&NucaReport> = s.scenes.iter().map(|x| &x.report).collect();
    let mean = NucaReport::suite_mean(&reports);
    let tables = data::suite_tables(&s)?;

    let organizations = table(&tables, "organizations");
    assert!(!mean.organizations.is_empty());
    for (k, f) in &mean.organizations {
        assert_figures(&organizations, &[("organization", k.name())], f);
        let on = [("scene", "mean"), ("organization", k.name())];
        assert_eq!(cell(&organizations, &on, "scenes"), "2");
        assert_eq!(cell(&organizations, &on, "cycles"), "", "not averaged");
    }
    let dtm = |scene: &str| {
        let on = [("scene", scene), ("organization", "dtm-nuca")];
        cell(&organizations, &on, "speedup_percent")
    };
    assert_ne!(dtm("a<1>"), dtm("b"), "the scenes differ");

    let scaling = table(&tables, "scaling");
    assert!(!mean.scaling.is_empty());
    for (fps, k, f) in &mean.scaling {
        let fps = fps.to_string();
        let on = [
            ("fragment_processors", fps.as_str()),
            ("organization", k.name()),
        ];
        assert_figures(&scaling, &on, f);
    }
    let sweeps = table(&tables, "sweeps");
    assert!(!mean.sweeps.is_empty());
    for (knob, value, k, f) in &mean.sweeps {
        let on = [
            ("knob", knob.as_str()),
            ("value", value.as_str()),
            ("organization", k.name()),
        ];
        assert_figures(&sweeps, &on, f);
    }
    let assignments = table(&tables, "assignments");
    assert!(!mean.assignments.is_empty());
    for (a, k, f) in &mean.assignments {
        let on = [("assignment", a.as_str()), ("organization", k.name())];
        assert_figures(&assignments, &on, f);
    }
    let capacity = table(&tables, "capacity");
    assert!(!mean.capacity.is_empty());
    for (bytes, change) in &mean.capacity {
        let b = bytes.to_string();
        let on = [("scene", "mean"), ("tc_bytes", b.as_str())];
        assert_eq!(
            cell(&capacity, &on, "l2_change_percent"),
            change.to_string()
        );
        assert_eq!(cell(&capacity, &on, "l2_requests"), "", "not averaged");
    }
    // Figure 1: the mean of the scenes' shares in more than one, then the
    // paper's, once.
    let replication = table(&tables, "replication");
    let fps = mean.replication_fps.to_string();
    let on = [
        ("scene", "mean"),
        ("fragment_processors", fps.as_str()),
        ("caches", "1"),
    ];
    assert_eq!(
        cell(&replication, &on, "replicated_percent"),
        mean.replicated_percent.to_string()
    );
    let paper = [("scene", "paper")];
    assert_eq!(
        cell(&replication, &paper, "replicated_percent"),
        mean.paper.replicated_percent.to_string()
    );
    let last = replication.rows() - 1;
    assert_eq!(replication.cell(last, 0), "paper", "the paper's row last");
    Ok(())
}

#[test]
fn every_figure_is_an_svg_with_its_title() -> anyhow::Result<()> {
    let r = report();
    let dir = tempfile::tempdir()?;
    let figures = Report::figures(&r);
    let written = data::write_figures(dir.path(), &r.tables()?, &figures)?;
    // The sweeps swept with a figure: epoch, buckets, page_blocks, order,
    // context_unit and announced_count (tc_index has none).
    assert_eq!(figures.len(), 7 + 6 + 1);
    assert_eq!(written.len(), figures.len());
    for f in &figures {
        let text = svg(dir.path(), &f.file)?;
        assert!(text.starts_with("<svg"), "{} is not an SVG", f.file);
        let title = f.title.replace('\'', "&apos;");
        assert!(text.contains(&title), "{} lacks its title", f.file);
        assert_eq!(
            data::about(&figures, &f.file).map(|a| a.0),
            Some(f.title.clone())
        );
    }
    assert!(data::about(&figures, "index.html").is_none());
    assert!(figures.iter().all(|f| f.file != "sweep_counter_bits.svg"));
    assert_eq!(SWEEP_TITLES[0].0, "epoch");
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
        let kinds = r.organizations.iter().map(|x| x.organization);
        for k in kinds.filter(|&k| k != OrgKind::Private) {
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

/// Figure 11 marks the paper's speedups at P = 4 (studied here) and not
/// at 32 (not studied); Figure 7 marks the paper's sizes.
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
fn sweep_figures_mark_the_main_value() -> anyhow::Result<()> {
    let dir = tempfile::tempdir()?;
    write_all(&report(), dir.path())?;
    let text = svg(dir.path(), "sweep_epoch.svg")?;
    assert!(has(&text, "2000 (main)") && has(&text, "500"));
    assert!(has(&text, "dtm-nuca") && has(&text, "dtm-nuca-dist"));
    let a = svg(dir.path(), "assignments.svg")?;
    assert!(has(&a, "tiles") && has(&a, "round-robin"));
    assert!(!has(&a, "private"), "private is the baseline, no bar");
    Ok(())
}

/// A suite's figures: a bar per scene, the mean and the paper's for each
/// of the paper's per-game charts, and Figure 7's mean with the paper's
/// sizes marked.
#[test]
fn every_suite_figure_has_a_bar_per_scene_the_mean_and_the_paper() -> anyhow::Result<()> {
    let r = suite();
    let dir = tempfile::tempdir()?;
    let figures = data::suite_figures(&r);
    let written = data::write_figures(dir.path(), &data::suite_tables(&r)?, &figures)?;
    assert_eq!(written.len(), figures.len());
    for fig in figures.iter().filter(|f| f.file != "fig7_capacity.svg") {
        let text = svg(dir.path(), &fig.file)?;
        for label in ["a&lt;1&gt;", "b", "mean"] {
            assert!(has(&text, label), "{} lacks {label}", fig.file);
        }
        assert!(text.contains("paper"), "{} lacks the paper", fig.file);
        assert!(text.contains(&fig.title), "{} lacks its title", fig.file);
    }
    let speedup = svg(dir.path(), "fig9_speedup.svg")?;
    let dtm = r
        .mean
        .organizations
        .iter()
        .find(|(k, _)| *k == OrgKind::Dtm);
    let mean = dtm.unwrap().1.speedup_percent;
    assert!(has(&speedup, &format!("{mean:.1}")), "the mean's bar");
    assert!(has(&speedup, "16.9"), "the paper's bar");
    let fig11 = svg(dir.path(), "fig11_scaling.svg")?;
    assert!(has(&fig11, "P = 4") && has(&fig11, "P = 8") && has(&fig11, "10.2"));
    let fig7 = svg(dir.path(), "fig7_capacity.svg")?;
    assert!(has(&fig7, "paper: dtm-nuca = private 128KiB"));
    assert!(has(&fig7, "dtm-nuca at 4KiB"));
    Ok(())
}

// ---- The pages ------------------------------------------------------------------

fn index(r: &NucaReport) -> anyhow::Result<String> {
    let dir = tempfile::tempdir()?;
    write_all(r, dir.path())?;
    Ok(std::fs::read_to_string(dir.path().join("index.html"))?)
}

/// A share as the page writes one: `66.3%`.
fn share(v: f64) -> String {
    format!("{v:.1}%")
}

#[test]
fn the_page_sets_ours_beside_the_paper() -> anyhow::Result<()> {
    let r = report();
    let html = index(&r)?;
    let dtm = r.row(OrgKind::Dtm).unwrap().figures;
    let ours = format!(
        "<tr><td>dtm-nuca</td><td>{}</td><td class=\"paper\">66.3%</td>",
        share(dtm.local_hit_percent)
    );
    assert!(html.contains(&ours), "{ours} missing");
    for paper in ["-41.8%", "+16.9%", "-6.9%", "+10.2%"] {
        let c = format!("<td class=\"paper\">{paper}</td>");
        assert!(html.contains(&c), "{c} missing");
    }
    let speedup = format!("{:+.1}%", dtm.speedup_percent + 0.0);
    assert!(html.contains(&format!(
        "<td>{speedup}</td><td class=\"paper\">+16.9%</td>"
    )));
    // What no table holds, in words: the paper's replication and
    // effective capacities.
    assert!(html.contains("the paper&#39;s, with 4: 84.6%"));
    assert!(html.contains("The paper&#39;s, with 16KiB caches: 128KiB."));
    assert!(html.contains("The paper&#39;s, with 16KiB caches: 64KiB."));
    Ok(())
}

#[test]
fn the_page_has_every_section_figure_warning_and_the_machine() -> anyhow::Result<()> {
    let r = report();
    let html = index(&r)?;
    let parts = [
        "DTM-NUCA study: a&lt;1&gt;, 8 fragment processors",
        "Figures 6, 8, 9, 10",
        "Figure 1: replication with 4 private caches",
        "<td>in 2 cache(s)</td>",
        "Figure 7: private texture caches by size",
        "dtm-nuca with 4KiB caches: 14,756 L2 requests",
        "Figure 11: by number of fragment processors",
        "Counts on the main frame",
        "The bus to the L2 (ours)",
        "DTM-NUCA-Dist: the announced count a claim must beat (ours)",
        "<td>as-announced (main)</td>",
        "<td>halved</td>",
        "Energy by part",
        "dtm-nuca&#39;s GPU energy: texture caches",
        "<td>2000 (main)</td>",
        "Quad assignments (ours)",
        "<td>tiles</td>",
        "<img src=\"fig7_capacity.svg\"",
        "<img src=\"sweep_epoch.svg\"",
        "The model configuration",
        "&quot;counter_bits&quot;: 4",
        "no trace of the frame",
        "Wall-clock seconds per phase",
    ];
    for part in parts {
        assert!(html.contains(part), "{part:?} missing");
    }
    assert!(!html.contains("<1>"));
    assert!(html.ends_with("</html>\n") || html.ends_with("</html>"));
    Ok(())
}

/// The frame, the contents, each figure after the table it plots, and
/// no figure wider than the page.
#[test]
fn the_page_shows_the_frame_the_contents_and_figures_beside_their_tables() -> anyhow::Result<()> {
    use crate::report::html::check::{follows, unlinked};
    let (_dir, html) = crate::report::page_with(&report(), &["frame.png"])?;
    assert!(html.contains("<img src=\"frame.png\""));
    assert!(html.contains("href=\"#the-rendered-frame\""));
    assert_eq!(unlinked(&html), Vec::<String>::new());
    for (table, figure) in [
        ("Figures 6, 8, 9, 10", "fig8_hits.svg"),
        ("Figure 1: replication", "fig1_replication.svg"),
        ("Figure 7: private texture caches", "fig7_capacity.svg"),
        ("Figure 11: by number", "fig11_scaling.svg"),
        ("Energy by part", "fig10_energy.svg"),
        ("Sweeps (ours)", "sweep_epoch.svg"),
        ("Quad assignments", "assignments.svg"),
    ] {
        assert!(follows(&html, table, figure), "{figure} not after {table}");
    }
    assert!(!html.contains("Other figures"), "every figure placed");
    let (dir, without) = crate::report::page_with(&report(), &[])?;
    assert!(!without.contains("rendered frame"));
    let wide = crate::report::figure::svg_text::too_wide(dir.path())?;
    assert!(wide.is_empty(), "{wide:?}");
    Ok(())
}

/// The suite's page: the mean first beside the paper's, then each scene
/// linked to its own page with its frame small; no figure wider than the
/// page.
#[test]
fn the_suites_page_puts_the_mean_first_and_links_each_scene() -> anyhow::Result<()> {
    use crate::report::html::check::{follows, unlinked};
    let r = suite();
    let (dir, html) = crate::report::page_with(&r, &["a<1>/frame.png"])?;
    let mean = html.find("Mean over the scenes").expect("a mean table");
    let scenes = html
        .find("Scenes: each organization")
        .expect("a scenes table");
    assert!(mean < scenes);
    assert!(html.contains("<a href=\"a&lt;1&gt;/index.html\">a&lt;1&gt;</a>"));
    let dtm = r
        .mean
        .organizations
        .iter()
        .find(|(k, _)| *k == OrgKind::Dtm);
    let row = format!(
        "<tr><td>dtm-nuca</td><td>{}</td><td class=\"paper\">66.3%</td>",
        share(dtm.unwrap().1.local_hit_percent)
    );
    assert!(html.contains(&row), "{row}");
    assert!(html.contains("The paper&#39;s, with 4 caches: 84.6%."));
    assert!(html.contains(&share(r.mean.replicated_percent)));
    assert!(html.contains("<a href=\"a&lt;1&gt;/frame.png\"><img src=\"a&lt;1&gt;/frame.png\""));
    assert!(!html.contains("b/frame.png"), "b has no frame here");
    assert!(html.contains("DTM-NUCA study: the desktop suite (2 scenes)"));
    for (table, figure) in [
        ("Mean over the scenes", "fig10_energy.svg"),
        ("Figure 1: texture accesses", "fig1_replication.svg"),
        ("Figure 7: private L2 requests", "fig7_capacity.svg"),
        ("Figure 11: mean", "fig11_scaling.svg"),
    ] {
        assert!(follows(&html, table, figure), "{figure} not after {table}");
    }
    assert_eq!(unlinked(&html), Vec::<String>::new());
    let wide = crate::report::figure::svg_text::too_wide(dir.path())?;
    assert!(wide.is_empty(), "{wide:?}");
    Ok(())
}
