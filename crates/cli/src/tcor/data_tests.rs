//! The TCOR report through the one writer: its tables hold the report's
//! numbers (the mean of a run's frames as columns of `engines`, not as
//! rows of `frames`), a suite's mean rows equal the design crate's own
//! mean ([`TcorMean`]) for every value both have, the figures drawn from
//! their specifications show what the report holds, and the page sets
//! ours beside the paper's with each figure after the table it plots.

use gfxcache_report::{Mean, Report};
use gfxcache_tcor::study::mean::EngineFigure;
use gfxcache_tcor::study::report::ENGINES;
use gfxcache_tcor::study::tables::figure_column;
use gfxcache_tcor::study::{TcorMean, TcorReport};

use super::suite::test_suite::suite;
use super::test_report::{report, report_without_curves, OUR_PB_L2_64K};
use crate::report::data;
use crate::report::html::check::{follows, unlinked};
use crate::report::{page_with, write_all};

use crate::report::data::lookup::{cell, table};
use crate::report::figure::svg_text::{has, svg};
use crate::report::figure::Plot;
use gfxcache_tcor::study::figures::{reach_words, FILES};

/// `v` as a cell reads it: empty for none.
fn text(v: Option<f64>) -> String {
    v.map(|v| v.to_string()).unwrap_or_default()
}

#[test]
fn the_curves_table_has_a_row_per_point() -> anyhow::Result<()> {
    let r = report();
    let curves = table(&r.tables()?, "curves");
    let points: usize = r.curves.iter().map(|c| c.points.len()).sum();
    assert_eq!(curves.rows(), points);
    assert_eq!(curves.columns().len(), 11);
    assert_eq!(curves.columns()[7], "miss_ratio");
    let p = &r.curves[1].points[2];
    let on = [("policy", "lru"), ("ways", "full"), ("bytes", "16384")];
    assert_eq!(cell(&curves, &on, "bytes"), p.bytes.to_string());
    assert_eq!(cell(&curves, &on, "misses"), p.misses.to_string());
    assert_eq!(cell(&curves, &on, "lower_bound"), p.lower_bound.to_string());
    Ok(())
}

#[test]
fn the_engines_table_has_a_run_a_row_with_the_derived_counts() -> anyhow::Result<()> {
    let r = report();
    let engines = table(&r.tables()?, "engines");
    assert_eq!(engines.rows(), r.runs.len());
    let head = engines.columns();
    assert_eq!(head[5], "pb_dram_accesses");
    assert_eq!(head[15], "primitives_per_cycle");
    assert_eq!(head[18], "fetcher_l2_requests");
    let run = &r.runs[0];
    let s = &run.stats;
    let on = [("engine", run.engine.as_str()), ("tile_cache", "64KiB")];
    let get = |c: &str| cell(&engines, &on, c);
    assert_eq!(get("pb_dram_accesses"), s.pb_memory_accesses().to_string());
    assert_eq!(get("dram_accesses"), s.memory_accesses().to_string());
    assert_ne!(s.memory_accesses(), s.l2.memory_reads + s.l2.memory_writes);
    assert_eq!(get("energy_total_nj"), run.energy.total_nj.to_string());
    assert_eq!(
        get("fetcher_l2_requests"),
        s.fetcher.l2_requests.to_string()
    );
    assert_eq!(get("fetcher_mlp"), s.fetcher.mlp.to_string());
    assert_eq!(get("pb_l2_accesses"), "10000");
    assert_eq!(
        get("pb_l2_accesses_vs_baseline"),
        "1",
        "the baseline over itself"
    );
    let tcor = [("engine", "tcor"), ("tile_cache", "64KiB")];
    assert_eq!(
        cell(&engines, &tcor, "pb_l2_accesses_vs_baseline"),
        text(EngineFigure::PbL2Accesses.vs_baseline(&r, "64KiB", "tcor"))
    );
    Ok(())
}

#[test]
fn the_fetcher_table_has_a_row_per_timing_and_size() -> anyhow::Result<()> {
    let r = report();
    let fetcher = table(&r.tables()?, "fetcher");
    let points: usize = r.fetcher_sensitivity.values().map(Vec::len).sum();
    assert_eq!(fetcher.rows(), points);
    assert_eq!(
        fetcher.columns()[..4],
        ["tile_cache", "model", "mshrs", "memory_cycles"]
    );
    let p = &r.fetcher_sensitivity["64KiB"][1];
    assert_eq!(
        fetcher.text_rows()[2][..4],
        ["64KiB", "non-blocking", "1", "50"]
    );
    assert_eq!(fetcher.text_rows()[1][2], "", "blocking: no MSHRs");
    assert_eq!(fetcher.cell(1, 7), p.speedup.to_string());
    Ok(())
}

/// Each counted frame is a row; the mean of a run's frames, which
/// `frames.csv` had as a row whose `frame` was `mean`, is in `engines`.
#[test]
fn the_frames_table_is_tidy_and_their_mean_is_the_runs() -> anyhow::Result<()> {
    let r = report();
    let tables = r.tables()?;
    let frames = table(&tables, "frames");
    assert_eq!(frames.rows(), 2 * r.runs.len());
    assert_eq!(frames.text_rows()[1][..3], ["baseline", "64KiB", "0"]);
    assert!(frames.rows_where(&[("frame", "mean")]).is_empty());
    let engines = table(&tables, "engines");
    for run in &r.runs {
        let m = &run.mean_per_frame;
        let on = [
            ("engine", run.engine.as_str()),
            ("tile_cache", run.tile_cache.as_str()),
        ];
        for (column, want) in [
            ("pb_l2_accesses", m.pb_l2_accesses),
            ("pb_dram_accesses", m.pb_dram_accesses),
            ("dram_accesses", m.dram_accesses),
            ("energy_nj", m.energy_nj),
            ("primitives_per_cycle", m.primitives_per_cycle),
        ] {
            let got = cell(&engines, &on, &format!("frame_mean_{column}"));
            assert_eq!(got, want.to_string(), "{on:?} {column}");
        }
        let energy: Vec<f64> = frames
            .rows_where(&on)
            .into_iter()
            .map(|row| {
                frames
                    .number(row, frames.index("energy_nj").unwrap())
                    .unwrap()
            })
            .collect();
        let mean = energy.iter().sum::<f64>() / energy.len() as f64;
        assert!((mean - m.energy_nj).abs() < 1e-9);
    }
    Ok(())
}

#[test]
fn the_passes_table_is_table_two_per_pass() -> anyhow::Result<()> {
    let r = report();
    let passes = table(&r.tables()?, "passes");
    assert_eq!(passes.rows(), r.passes.len());
    let row = &passes.text_rows()[2];
    assert_eq!(row[1], "shadow<0>");
    assert_eq!(row[2], "300");
    assert_eq!(row[10], "1.5");
    Ok(())
}

/// The decreases beside the paper's, the bound, where the curves reach it.
#[test]
fn the_paper_stands_beside_ours() -> anyhow::Result<()> {
    let r = report();
    let tables = r.tables()?;
    let d = table(&tables, "reductions");
    assert_eq!(d.text_rows()[1][0], "64KiB", "smallest size first");
    let at = [("tile_cache", "64KiB")];
    assert_eq!(cell(&d, &at, "pb_l2_accesses"), OUR_PB_L2_64K.to_string());
    assert_eq!(cell(&d, &at, "paper_pb_l2_accesses"), "33.5");
    assert_eq!(
        cell(&d, &[("tile_cache", "128KiB")], "paper_energy"),
        "13.6"
    );
    let reach = table(&tables, "reach");
    let opt = [("policy", "opt"), ("ways", "full")];
    assert_eq!(cell(&reach, &opt, "bytes"), "8192");
    assert_eq!(cell(&reach, &opt, "paper_bytes"), (55 * 1024).to_string());
    let drrip = [("policy", "drrip"), ("ways", "4")];
    assert_eq!(cell(&reach, &drrip, "bytes"), "", "not within the sweep");
    assert_eq!(cell(&reach, &drrip, "paper_bytes"), "");
    let lb = table(&tables, "lower_bound");
    assert_eq!(cell(&lb, &[("tile_cache", "128KiB")], "lower_bound"), "900");
    let scenes = table(&tables, "scenes");
    assert_eq!(scenes.rows(), 1);
    assert_eq!(scenes.cell(0, scenes.index("primitives").unwrap()), "1200");
    assert_eq!(
        scenes.cell(0, scenes.index("paper_average_reuse_max").unwrap()),
        "6.9"
    );
    Ok(())
}

/// The generic group-by gives what the design crate's own mean gives, for
/// every value both have; and every value column means only what every
/// scene has.
#[test]
fn the_suites_mean_rows_are_the_design_crates_mean() -> anyhow::Result<()> {
    let s = suite();
    let reports: Vec<&TcorReport> = s.scenes.iter().map(|x| &x.report).collect();
    let mean: &TcorMean = &s.mean;
    let tables = data::suite_tables(&s)?;
    let scenes = s.scenes.len();

    let engines = table(&tables, "engines");
    assert_eq!(engines.rows(), (scenes + 1) * reports[0].runs.len());
    for m in &mean.engines {
        let on = [
            ("scene", "mean"),
            ("engine", m.engine.as_str()),
            ("tile_cache", m.tile_cache.as_str()),
        ];
        for f in EngineFigure::ALL {
            let c = figure_column(f);
            assert_eq!(cell(&engines, &on, c), m.value(f).to_string(), "{on:?} {c}");
            let vs = format!("{c}_vs_baseline");
            assert_eq!(cell(&engines, &on, &vs), text(m.vs_baseline(f)), "{vs}");
        }
        assert_eq!(cell(&engines, &on, "scenes"), scenes.to_string());
    }
    assert_eq!(mean.engines.len(), reports[0].runs.len());

    let d = table(&tables, "reductions");
    for (size, m) in &mean.reductions {
        let on = [("scene", "mean"), ("tile_cache", size.as_str())];
        assert_eq!(
            cell(&d, &on, "pb_l2_accesses"),
            m.pb_l2_accesses.to_string()
        );
        assert_eq!(cell(&d, &on, "energy_no_l2"), m.energy_no_l2.to_string());
        assert_eq!(
            cell(&d, &on, "fetcher_speedup"),
            m.fetcher_speedup.to_string()
        );
        let paper = &mean.paper[size];
        assert_eq!(
            cell(&d, &on, "paper_pb_l2_accesses"),
            paper.pb_l2_accesses.to_string()
        );
        assert_eq!(
            cell(&d, &on, "paper_fetcher_speedup"),
            paper.fetcher_speedup.to_string()
        );
    }

    let fetcher = table(&tables, "fetcher");
    for (size, points) in &mean.fetcher_sensitivity {
        for p in points {
            let mshrs = p.mshrs.map(|m| m.to_string()).unwrap_or_default();
            let memory = p.memory_cycles.to_string();
            let on = [
                ("scene", "mean"),
                ("tile_cache", size.as_str()),
                ("model", p.model.name()),
                ("mshrs", mshrs.as_str()),
                ("memory_cycles", memory.as_str()),
            ];
            assert_eq!(cell(&fetcher, &on, "speedup"), p.speedup.to_string());
            for e in ENGINES {
                let column = format!("{e}_primitives_per_cycle");
                let want = text(p.primitives_per_cycle.get(e).copied());
                assert_eq!(cell(&fetcher, &on, &column), want);
            }
        }
    }

    let curves = table(&tables, "curves");
    for c in &mean.curves {
        for p in &c.points {
            let bytes = p.bytes.to_string();
            let on = [
                ("scene", "mean"),
                ("policy", c.policy.as_str()),
                ("ways", c.ways.as_str()),
                ("bytes", bytes.as_str()),
            ];
            assert_eq!(cell(&curves, &on, "miss_ratio"), p.miss_ratio.to_string());
            let lb = p.lower_bound_ratio.to_string();
            assert_eq!(cell(&curves, &on, "lower_bound_ratio"), lb);
        }
    }

    let f = &mean.frame;
    let table_two = table(&tables, "scenes");
    let on = [("scene", "mean")];
    for (column, want) in [
        ("render_passes", f.render_passes),
        ("tiles", f.tiles),
        ("primitives", f.primitives),
        ("attributes", f.attributes),
        ("tile_uses", f.tile_uses),
        ("footprint_bytes", f.footprint_bytes),
        (
            "largest_pass_footprint_bytes",
            f.largest_pass_footprint_bytes,
        ),
        ("average_reuse", f.average_reuse),
    ] {
        assert_eq!(cell(&table_two, &on, column), want.to_string(), "{column}");
    }

    // Every value column of every table is averaged only where every
    // scene has it, or is the paper's (the same in every scene), or is
    // not averaged at all.
    for t in &tables {
        for c in 0..t.columns().len() {
            let name = t.columns()[c];
            let rule = t.mean(c);
            let ok = match rule {
                Mean::Key | Mean::AverageAll => true,
                Mean::Same => {
                    name.starts_with("paper_")
                        || ["l2_policy", "bytes", "access_pj", "value", "kind", "source"]
                            .contains(&name)
                }
                Mean::Blank => [
                    "scenes",
                    "resolution",
                    "frames",
                    "warmup",
                    "binning",
                    "warnings",
                ]
                .contains(&name),
                Mean::Average | Mean::Reference => false,
            };
            assert!(ok, "{}.{name}: {rule:?}", t.name());
        }
    }
    Ok(())
}

/// A ratio over a baseline of 0 and a run one scene did not make have no
/// mean, as in [`TcorMean`].
#[test]
fn what_a_scene_lacks_has_no_mean() -> anyhow::Result<()> {
    let mut s = suite();
    let b = &mut s.scenes[1].report;
    for m in b.pb_dram_accesses.values_mut() {
        m.insert("baseline".into(), 0);
    }
    b.runs
        .retain(|run| !(run.engine == "tcor" && run.tile_cache == "128KiB"));
    let tables = data::suite_tables(&s)?;
    let engines = table(&tables, "engines");
    let on = [
        ("scene", "mean"),
        ("engine", "tcor"),
        ("tile_cache", "64KiB"),
    ];
    assert_eq!(cell(&engines, &on, "pb_dram_accesses_vs_baseline"), "");
    assert_ne!(cell(&engines, &on, "pb_l2_accesses_vs_baseline"), "");
    let gone = [
        ("scene", "mean"),
        ("engine", "tcor"),
        ("tile_cache", "128KiB"),
    ];
    assert_eq!(cell(&engines, &gone, "pb_l2_accesses"), "");
    assert_eq!(cell(&engines, &gone, "scenes"), "1");
    Ok(())
}

fn index(r: &TcorReport) -> anyhow::Result<String> {
    let dir = tempfile::tempdir()?;
    write_all(r, dir.path())?;
    Ok(std::fs::read_to_string(dir.path().join("index.html"))?)
}

#[test]
fn the_page_sets_ours_beside_the_paper() -> anyhow::Result<()> {
    let html = index(&report())?;
    assert!(
        html.contains("<td class=\"paper\">33.50%</td>"),
        "paper's PB L2 decrease"
    );
    assert!(html.contains("<td class=\"paper\">37.10%</td>"));
    assert!(
        html.contains(&format!("<td>{OUR_PB_L2_64K:.2}%</td>")),
        "ours"
    );
    // 64KiB's row comes before 128KiB's.
    let (a, b) = (html.find("<td>64KiB</td>"), html.find("<td>128KiB</td>"));
    assert!(a.is_some() && a < b);
    assert!(html.contains("<td class=\"paper\">55KiB</td>"));
    assert!(html.contains("<td class=\"paper\">375KiB</td>"));
    assert!(html.contains("6.8 times"));
    assert!(html.contains("LRU needs 4.0 times"));
    assert!(html.contains("<td>not within the sweep</td>"));
    for paper in ["0.12", "1.81", "1.4", "6.9"] {
        assert!(
            html.contains(&format!("<td class=\"paper\">{paper}</td>")),
            "{paper}"
        );
    }
    Ok(())
}

#[test]
fn the_page_has_every_section_and_figure() -> anyhow::Result<()> {
    let html = index(&report())?;
    for part in [
        "320x192, 2 render passes, 120 tiles",
        "Shared L2 of 1MiB (16 ways",
        "non-blocking: up to 16 blocks outstanding (20 reads each), 12 primitives",
        "MSHR stall cycles",
        "Tile Fetcher speedup by fetcher and memory latency, Tile Cache 64KiB",
        "Energy model",
        "Frame characteristics (Table II)",
        "Tiling Engines through the shared L2",
        "<td>dead-aware</td>",
        "tcor 128KiB: the tcor engine &lt;128KiB&gt;",
        "<td>8,000</td>",
        "Per frame",
        "Where the miss ratio reaches the lower bound",
        "<img src=\"fig11_full.svg\"",
        "<img src=\"fig20_21_energy.svg\"",
        "<b>Figure 11: fully associative Attribute Cache</b>: Miss ratio",
        "Here OPT reaches the lower bound at 8KiB",
        "Wall-clock seconds per phase",
        "l2 1.50 s",
    ] {
        assert!(html.contains(part), "{part:?} missing");
    }
    assert!(html.ends_with("</html>\n") || html.ends_with("</html>"));
    Ok(())
}

#[test]
fn the_page_escapes_the_reports_strings() -> anyhow::Result<()> {
    let html = index(&report())?;
    assert!(html.contains("city&lt;1&gt;"));
    assert!(html.contains("a&lt;b&amp;c.gtr"));
    assert!(html.contains("shadow&lt;0&gt;"));
    assert!(html.contains("vertex &lt;cache&gt;"));
    assert!(!html.contains("<cache>") && !html.contains("<1>"));
    Ok(())
}

#[test]
fn without_curves_no_curve_figures_nor_ratio() -> anyhow::Result<()> {
    let html = index(&report_without_curves())?;
    assert!(!html.contains("fig11_full.svg"));
    assert!(html.contains("fig14_15_pb_l2.svg"));
    assert!(html.contains("do not both reach it"));
    Ok(())
}

/// The frame, the contents, each figure after the table it plots.
#[test]
fn the_page_shows_the_frame_and_each_figure_after_its_table() -> anyhow::Result<()> {
    let (_dir, html) = page_with(&report(), &["frame.png"])?;
    assert!(html.contains("<img src=\"frame.png\""));
    assert!(html.contains("href=\"#the-rendered-frame\""));
    assert_eq!(unlinked(&html), Vec::<String>::new());
    for (table, figure) in [
        ("Ours versus the paper", "fig14_15_pb_l2.svg"),
        ("Ours versus the paper", "fig20_21_energy.svg"),
        ("Tile Fetcher speedup", "fig23_24_fetcher.svg"),
        ("Where the miss ratio reaches", "fig11_full.svg"),
        ("Where the miss ratio reaches", "fig13_4way.svg"),
    ] {
        assert!(follows(&html, table, figure), "{figure} not after {table}");
    }
    assert!(!html.contains("Other figures"), "every figure placed");
    let (dir, without) = page_with(&report(), &[])?;
    assert!(!without.contains("rendered frame"));
    let wide = crate::report::figure::svg_text::too_wide(dir.path())?;
    assert!(wide.is_empty(), "{wide:?}");
    Ok(())
}

/// The suite's page: the mean first beside the paper's, then each scene
/// linked to its own page, with its frame small; the figures after the
/// per-scene table.
#[test]
fn the_suites_page_puts_the_mean_first_and_links_each_scene() -> anyhow::Result<()> {
    let r = suite();
    let (dir, html) = page_with(&r, &["a<1>/frame.png"])?;
    let mean = html.find("Mean over the scenes").expect("a mean table");
    let scenes = html.find("Scenes: Table II").expect("a scenes table");
    assert!(mean < scenes);
    assert!(html.contains("<a href=\"a&lt;1&gt;/index.html\">a&lt;1&gt;</a>"));
    assert!(html.contains("<td class=\"paper\">33.50%</td>"));
    let m = r.mean.reductions["64KiB"].pb_l2_accesses;
    assert!(html.contains(&format!("<td>{m:.2}%</td>")));
    assert!(html.contains("<a href=\"a&lt;1&gt;/frame.png\"><img src=\"a&lt;1&gt;/frame.png\""));
    assert!(!html.contains("b/frame.png"), "b has no frame here");
    assert!(html.contains("TCOR study: the mobile suite (2 scenes)"));
    assert!(follows(&html, "Per scene: decreases", "fig14_15_pb_l2.svg"));
    assert!(follows(
        &html,
        "Mean Attribute Cache curves",
        "fig11_full.svg"
    ));
    assert!(html.contains("per scene and Tile Cache size, the mean of the scenes"));
    assert_eq!(unlinked(&html), Vec::<String>::new());
    let wide = crate::report::figure::svg_text::too_wide(dir.path())?;
    assert!(wide.is_empty(), "{wide:?}");
    Ok(())
}

// ---- The figures, drawn from their specifications ---------------------------

/// A scene's figures written into a new directory, with the directory.
fn scene_figures(r: &TcorReport) -> anyhow::Result<(tempfile::TempDir, Vec<String>)> {
    let dir = tempfile::tempdir()?;
    let written = data::write_figures(dir.path(), &r.tables()?, &Report::figures(r))?;
    let names = written
        .iter()
        .filter_map(|p| p.file_name()?.to_str().map(String::from))
        .collect();
    Ok((dir, names))
}

#[test]
fn every_figure_is_an_svg_with_its_title() -> anyhow::Result<()> {
    let r = report();
    let figures = Report::figures(&r);
    let (dir, written) = scene_figures(&r)?;
    assert_eq!(written, FILES);
    for f in &figures {
        let text = svg(dir.path(), &f.file)?;
        assert!(text.starts_with("<svg"), "{} is not an SVG", f.file);
        assert!(text.contains(&f.title), "{} lacks its title", f.file);
        assert_eq!(
            data::about(&figures, &f.file).map(|a| a.0),
            Some(f.title.clone())
        );
    }
    assert!(data::about(&figures, "index.html").is_none());
    Ok(())
}

/// Figure 12 draws only the associativities swept (4 here); Figure 13
/// leaves out MRU, which the report did not sweep.
#[test]
fn curve_figures_show_only_the_swept_curves() -> anyhow::Result<()> {
    let (dir, _) = scene_figures(&report())?;
    let fig11 = svg(dir.path(), "fig11_full.svg")?;
    for label in ["OPT", "LRU", "LB", "8KiB", "32KiB"] {
        assert!(has(&fig11, label), "fig11 lacks {label:?}");
    }
    assert!(!fig11.contains("DRRIP"));
    let fig12 = svg(dir.path(), "fig12_ways.svg")?;
    assert!(has(&fig12, "OPT 4-way") && has(&fig12, "LRU 4-way"));
    assert!(!fig12.contains("1-way"));
    let fig13 = svg(dir.path(), "fig13_4way.svg")?;
    assert!(has(&fig13, "DRRIP") && !fig13.contains("MRU"));
    Ok(())
}

/// Bars over the baseline with the counts as notes, one panel per Tile
/// Cache size, and the paper's 33.5 % decrease drawn as 0.665.
#[test]
fn bar_figures_normalise_to_the_baseline() -> anyhow::Result<()> {
    let (dir, _) = scene_figures(&report())?;
    let pb = svg(dir.path(), "fig14_15_pb_l2.svg")?;
    assert!(pb.contains("Tile Cache 64KiB") && pb.contains("Tile Cache 128KiB"));
    assert!(pb.contains("1.000 (10.0k)"), "baseline at 1 with its count");
    assert!(
        pb.contains("0.713 (7130)"),
        "TCOR's 7130 blocks over 10 000"
    );
    assert!(has(&pb, "0.665"), "the paper's 33.5 % at 64 KiB");
    assert!(has(&pb, "0.629"), "the paper's 37.1 % at 128 KiB");
    let energy = svg(dir.path(), "fig20_21_energy.svg")?;
    for label in ["L1s", "L2", "main memory", "paper total", "0.910"] {
        assert!(has(&energy, label), "energy lacks {label:?}");
    }
    let fetcher = svg(dir.path(), "fig23_24_fetcher.svg")?;
    assert!(has(&fetcher, "0.200") && has(&fetcher, "0.500"));
    Ok(())
}

/// Without a baseline there is nothing to normalise to: no panel.
#[test]
fn no_baseline_no_normalised_panel() -> anyhow::Result<()> {
    let mut r = report();
    r.runs.retain(|run| run.engine != "baseline");
    for m in [&mut r.pb_l2_accesses, &mut r.dram_accesses] {
        for engines in m.values_mut() {
            engines.remove("baseline");
        }
    }
    r.energy_nj.clear();
    let tables = r.tables()?;
    let figures = Report::figures(&r);
    for file in ["fig14_15_pb_l2.svg", "fig20_21_energy.svg"] {
        let fig = figures.iter().find(|f| f.file == file).unwrap();
        let mut panels = data::panels(fig, &tables)?;
        assert_eq!(panels.len(), 2, "{file}: a panel per Tile Cache size");
        assert!(panels.iter_mut().all(|p| !Plot::prune(p)), "{file}");
    }
    let (_dir, written) = scene_figures(&r)?;
    assert!(!written.iter().any(|f| f == "fig14_15_pb_l2.svg"));
    Ok(())
}

/// A Tile Cache size a figure lacks has no panel, the others theirs.
#[test]
fn a_missing_tile_cache_size_skips_only_its_panel() -> anyhow::Result<()> {
    let mut r = report();
    r.pb_dram_accesses.remove("128KiB");
    let (dir, _) = scene_figures(&r)?;
    let dram = svg(dir.path(), "fig16_17_pb_dram.svg")?;
    assert!(dram.contains("64KiB") && !dram.contains("128KiB"));
    Ok(())
}

/// Where OPT and LRU reach the bound here, beside the paper's, and the
/// sentence when LRU does not reach it within the sweep; Figure 11's
/// caption ends with it.
#[test]
fn figure_11s_caption_follows_where_the_curves_reach_the_bound() {
    let mut r = report();
    for (policy, kib) in [("opt", 32), ("lru", 128)] {
        if let Some(c) = r
            .reach
            .curves
            .iter_mut()
            .find(|c| c.policy == policy && c.ways == "full")
        {
            c.bytes = Some(kib * 1024);
        }
    }
    r.reach.lru_over_opt_full = Some(4.0);
    let s = reach_words(&r);
    assert!(
        s.contains("Here OPT reaches the lower bound at 32KiB and LRU at 128KiB: LRU needs 4.0 times OPT's size"),
        "{s}"
    );
    assert!(
        s.contains("in the paper OPT at 55 KiB and LRU at 375 KiB, 6.8 times"),
        "{s}"
    );
    let figures = Report::figures(&r);
    assert!(data::about(&figures, "fig11_full.svg").is_some_and(|(_, w)| w.ends_with(&s)));
    for c in r.reach.curves.iter_mut().filter(|c| c.policy == "lru") {
        c.bytes = None;
    }
    r.reach.lru_over_opt_full = None;
    let s = reach_words(&r);
    assert!(s.contains("and LRU not within the sweep;"), "{s}");
    assert!(reach_words(&report_without_curves()).is_empty());
}

/// A suite's bar figures: a bar per scene, the mean (the design crate's)
/// and the paper's group, a panel per Tile Cache size.
#[test]
fn every_suite_bar_figure_has_a_bar_per_scene_the_mean_and_the_paper() -> anyhow::Result<()> {
    let r = suite();
    let dir = tempfile::tempdir()?;
    let written = data::write_figures(
        dir.path(),
        &data::suite_tables(&r)?,
        &data::suite_figures(&r),
    )?;
    assert_eq!(written.len(), FILES.len());
    for file in &FILES[3..] {
        let text = svg(dir.path(), file)?;
        for name in ["a&lt;1&gt;", "b", "mean", "paper"] {
            assert!(has(&text, name), "{file} lacks {name}");
        }
        for size in ["64KiB", "128KiB"] {
            assert!(text.contains(size), "{file} lacks {size}");
        }
    }
    // The paper's 33.5 % fewer PB accesses to the L2 at 64 KiB.
    let text = svg(dir.path(), "fig14_15_pb_l2.svg")?;
    assert!(text.contains("0.665"), "the paper's bar");
    let tcor = r
        .mean
        .engines
        .iter()
        .find(|m| m.engine == "tcor" && m.tile_cache == "64KiB")
        .unwrap();
    let mean = tcor.vs_baseline(EngineFigure::PbL2Accesses).unwrap();
    assert!(text.contains(&format!("{mean:.3}")), "the mean's bar");
    let fig11 = svg(dir.path(), "fig11_full.svg")?;
    assert!(has(&fig11, "OPT") && has(&fig11, "LB"));
    Ok(())
}
