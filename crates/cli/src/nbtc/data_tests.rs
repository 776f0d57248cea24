//! The NBTC report through the one writer: its tables hold the report's
//! numbers, its figures draw them beside the slides', and a suite's mean
//! rows equal the design crate's own mean ([`NbtcMean`]).

use gfxcache_nbtc::study::figures::SWEEP_TITLES;
use gfxcache_nbtc::study::{NbtcMean, NbtcReport};
use gfxcache_nbtc::Mode;
use gfxcache_report::Report;

use super::suite::test_suite::suite;
use super::test_report::report;
use crate::report::data;
use crate::report::figure::svg_text::{has, svg};
use crate::report::write_all;
use gfxcache_nbtc::study::tables::CATEGORIES;

use crate::report::data::lookup::{cell, table};

#[test]
fn the_runs_table_is_the_reports_numbers() -> anyhow::Result<()> {
    let r = report();
    let runs = table(&r.tables()?, "runs");
    assert_eq!(
        runs.rows(),
        2 * 2 * 5,
        "two filters, two latencies, five designs"
    );
    let nbtc = r.frames[1].row(Mode::Nbtc, 300).unwrap();
    let on = [("filter", "bilinear"), ("latency", "300"), ("mode", "nbtc")];
    let get = |c: &str| cell(&runs, &on, c);
    let s = &nbtc.stats;
    assert_eq!(get("cycles"), s.cycles.to_string());
    assert_eq!(get("nbtc_stall_cycles"), s.nbtc_stall_cycles.to_string());
    assert_eq!(get("secondary_misses"), s.secondary_misses.to_string());
    assert_eq!(get("traffic_bytes"), s.traffic_bytes.to_string());
    assert_eq!(get("wlb_max"), s.wlb.max.to_string());
    assert_eq!(get("cycles_change_percent"), nbtc.cycles_change.to_string());
    assert_eq!(get("miss_rate_percent"), nbtc.miss_rate.to_string());
    assert_eq!(get("paper_cycles_change_percent"), "-41.64");
    assert_eq!(get("paper_traffic_change_max_percent"), "11");
    let sum: u64 = CATEGORIES
        .iter()
        .map(|c| get(c.field).parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum.to_string(), get("cycles"));
    let btc = [("filter", "bilinear"), ("latency", "300"), ("mode", "btc")];
    assert_eq!(cell(&runs, &btc, "paper_cycles_change_percent"), "");
    Ok(())
}

/// The unit's own WLB (32) is not swept: the grid's runs stand in, marked
/// `main`, in order of value.
#[test]
fn the_sweeps_table_marks_the_units_value() -> anyhow::Result<()> {
    let r = report();
    let sweeps = table(&r.tables()?, "sweeps");
    let values: Vec<String> = sweeps
        .rows_where(&[("knob", "wlb_entries"), ("mode", "nbtc")])
        .into_iter()
        .map(|row| {
            format!(
                "{}:{}",
                sweeps.cell(row, 1),
                sweeps.cell(row, sweeps.index("main").unwrap())
            )
        })
        .collect();
    assert_eq!(values, ["1:false", "8:false", "32:true"]);
    let main = r.frames[1].row(Mode::Nbtc, 300).unwrap();
    let on = [("knob", "wlb_entries"), ("value", "32"), ("mode", "nbtc")];
    assert_eq!(cell(&sweeps, &on, "cycles"), main.stats.cycles.to_string());
    let btc = [("knob", "wlb_entries"), ("value", "1"), ("mode", "btc")];
    assert_eq!(
        cell(&sweeps, &btc, "nbtc_buffer_bytes"),
        "",
        "the BTC has no such buffers"
    );
    Ok(())
}

/// The generic group-by gives what the design crate's own mean gives.
#[test]
fn the_suites_mean_rows_are_the_design_crates_mean() -> anyhow::Result<()> {
    let s = suite();
    let reports: Vec<&NbtcReport> = s.scenes.iter().map(|x| &x.report).collect();
    let mean = NbtcMean::of(&reports);
    let tables = data::suite_tables(&s)?;
    let runs = table(&tables, "runs");
    assert_eq!(runs.rows(), 3 * 2 * 2 * 5, "two scenes and the mean");
    for m in &mean.rows {
        let latency = m.latency.to_string();
        let on = [
            ("scene", "mean"),
            ("filter", m.filter.as_str()),
            ("latency", latency.as_str()),
            ("mode", m.mode.name()),
        ];
        assert_eq!(
            cell(&runs, &on, "cycles_change_percent"),
            m.cycles_change.to_string()
        );
        assert_eq!(
            cell(&runs, &on, "miss_rate_percent"),
            m.miss_rate.to_string()
        );
        assert_eq!(
            cell(&runs, &on, "traffic_change_percent"),
            m.traffic_change.to_string()
        );
        assert_eq!(cell(&runs, &on, "scenes"), m.scenes.to_string());
        assert_eq!(cell(&runs, &on, "cycles"), "", "a count is not averaged");
    }
    let sweeps = table(&tables, "sweeps");
    for p in &mean.sweeps {
        let value = p.value.to_string();
        let on = [
            ("scene", "mean"),
            ("knob", p.knob.as_str()),
            ("value", value.as_str()),
            ("mode", "nbtc"),
        ];
        assert_eq!(
            cell(&sweeps, &on, "cycles_change_percent"),
            p.cycles_change.to_string()
        );
    }
    Ok(())
}

#[test]
fn every_figure_is_an_svg_with_its_title() -> anyhow::Result<()> {
    let r = report();
    let dir = tempfile::tempdir()?;
    let figures = Report::figures(&r);
    let written = data::write_figures(dir.path(), &r.tables()?, &figures)?;
    assert_eq!(written.len(), figures.len());
    for f in figures.iter().take(4) {
        let text = svg(dir.path(), &f.file)?;
        assert!(
            text.starts_with("<svg") && text.contains(&f.title),
            "{}",
            f.file
        );
        assert_eq!(
            data::about(&figures, &f.file).map(|a| a.0),
            Some(f.title.clone())
        );
        for filter in ["nearest", "bilinear"] {
            assert!(text.contains(filter), "{} lacks {filter}", f.file);
        }
    }
    assert!(data::about(&figures, "index.html").is_none());
    Ok(())
}

/// Slide 22's stacks carry each bar's total and the slides' categories;
/// ours stand beside the slides' numbers, the NBTC's only.
#[test]
fn figures_hold_ours_and_the_slides() -> anyhow::Result<()> {
    let dir = tempfile::tempdir()?;
    let r = report();
    write_all(&r, dir.path())?;
    let stacked = svg(dir.path(), "ps_cycles.svg")?;
    for series in ["PS run", "PS stall", "BTC blocked", "nbtc", "btc-parallel"] {
        assert!(has(&stacked, series), "lacks {series}");
    }
    let nbtc = r.frames[0].row(Mode::Nbtc, 300).unwrap();
    assert!(has(
        &stacked,
        &crate::report::figure::compact(nbtc.stats.cycles as f64)
    ));
    let change = svg(dir.path(), "cycles_change.svg")?;
    let ours = r.frames[1].row(Mode::Nbtc, 50).unwrap().cycles_change;
    assert!(has(&change, &format!("{ours:.1}")), "ours {ours:.1}");
    assert!(has(&change, "-12.5") && has(&change, "-41.6"));
    assert!(has(&change, "paper nbtc") && has(&change, "prefetching"));
    assert!(!has(&change, "btc"), "the BTC is the baseline, no bar");
    let traffic = svg(dir.path(), "traffic.svg")?;
    assert!(has(&traffic, "paper (at most)") && has(&traffic, "11.0"));
    let sweep = svg(dir.path(), "sweep_wlb_entries.svg")?;
    assert!(has(&sweep, "32 (main)") && has(&sweep, "1") && has(&sweep, "8"));
    assert!(
        !dir.path().join("sweep_bab_entries.svg").exists(),
        "not swept"
    );
    assert_eq!(SWEEP_TITLES[0].0, "wlb_entries");
    Ok(())
}

/// The slides' "slightly above" is checked on our rates, and the sentence
/// follows them when the NBTC misses less.
#[test]
fn the_miss_rate_reading_follows_the_runs() {
    let mut r = report();
    let set = |r: &mut NbtcReport, nbtc: f64, btc: f64| {
        for f in &mut r.frames {
            for row in &mut f.runs {
                row.miss_rate = if row.mode == Mode::BTC { btc } else { nbtc };
            }
        }
    };
    let reading = |r: &NbtcReport| {
        let f = Report::figures(r);
        f.iter()
            .find(|f| f.file == "miss_rate.svg")
            .unwrap()
            .words()
    };
    let runs = r.frames.len() * r.latencies.len();
    set(&mut r, 2.5, 2.0);
    let s = reading(&r);
    assert!(
        s.contains(&format!("above the BTC's in all {runs} runs")),
        "{s}"
    );
    assert!(s.contains("+0.50 to +0.50 points"), "{s}");
    set(&mut r, 1.5, 2.0);
    let s = reading(&r);
    assert!(
        s.contains(&format!("at or below the BTC's in all {runs} runs")),
        "{s}"
    );
}

/// The suite's figures: the scenes, the mean and the slides' numbers.
#[test]
fn the_suites_figures_hold_the_scenes_the_mean_and_the_slides() -> anyhow::Result<()> {
    let dir = tempfile::tempdir()?;
    let r = suite();
    let figures = data::suite_figures(&r);
    let written = data::write_figures(dir.path(), &data::suite_tables(&r)?, &figures)?;
    assert_eq!(written.len(), figures.len());
    assert_eq!(figures.len(), 4 + 2, "four charts, two knobs swept");
    for f in &figures {
        let text = svg(dir.path(), &f.file)?;
        assert!(text.contains("mean"), "{} lacks the mean", f.file);
    }
    let scenes = svg(dir.path(), "cycles_change_scenes.svg")?;
    for label in [
        "a&lt;1&gt;",
        "b",
        "mean",
        "paper",
        "-12.5",
        "-41.6",
        "nbtc at 300 cycles",
    ] {
        assert!(has(&scenes, label), "lacks {label}");
    }
    let mean = r.mean.row("bilinear", Mode::Nbtc, 300).unwrap();
    assert!(has(&scenes, &format!("{:.1}", mean.cycles_change)));
    let traffic = svg(dir.path(), "traffic_change.svg")?;
    assert!(has(&traffic, "paper (at most)") && has(&traffic, "11.0"));
    let wlb = svg(dir.path(), "sweep_wlb_entries.svg")?;
    assert!(has(&wlb, "a&lt;1&gt;") && has(&wlb, "8") && has(&wlb, "32 (main)"));
    Ok(())
}

/// The page: ours beside the slides' numbers in grey italics, each figure
/// right after the table it plots, the frame when rendered, every section
/// and figure in the contents.
#[test]
fn the_page_sets_ours_beside_the_slides() -> anyhow::Result<()> {
    use crate::report::html::check::{follows, unlinked};
    let r = report();
    let (_dir, html) = crate::report::page_with(&r, &["nearest.png"])?;
    let nbtc = r.frames[0].row(Mode::Nbtc, 300).unwrap();
    let row = format!(
        "<tr><td>nearest</td><td>300</td><td>nbtc</td><td>{}</td><td>{:+.1}%</td><td class=\"paper\">-41.6%</td>",
        crate::table::thousands(nbtc.stats.cycles),
        nbtc.cycles_change
    );
    assert!(html.contains(&row), "{row}");
    assert!(html.contains("<td class=\"paper\">at most +11.0%</td>"));
    assert!(follows(&html, "Slides 22-24", "cycles_change.svg"));
    assert!(follows(
        &html,
        "Slide 22: cycles by category",
        "ps_cycles.svg"
    ));
    assert!(follows(&html, "Sweeps (ours)", "sweep_wlb_entries.svg"));
    assert!(html.contains("<td>Waiting List Buffer entries</td><td>32 (main)</td>"));
    assert!(html.contains("<img src=\"nearest.png\" alt=\"the rendered frame\">"));
    assert!(html.contains("The machine: nbtc"));
    assert!(html.contains("NBTC study: a&lt;1&gt;, 8 pixel processors"));
    assert_eq!(unlinked(&html), Vec::<String>::new());
    let (_dir, html) = crate::report::page_with(&r, &[])?;
    assert!(!html.contains("the rendered frame"), "no frame, no picture");
    Ok(())
}

/// The suite's page: the mean first, then each scene linked to its own
/// page with its frame small.
#[test]
fn the_suites_page_puts_the_mean_first_and_links_each_scene() -> anyhow::Result<()> {
    use crate::report::html::check::unlinked;
    let r = suite();
    let (dir, html) = crate::report::page_with(&r, &["a<1>/nearest.png"])?;
    let mean = html.find("Mean over the scenes").expect("a mean table");
    let scenes = html.find("Scenes: the NBTC").expect("a scenes table");
    assert!(mean < scenes);
    assert!(html.contains("<a href=\"a&lt;1&gt;/index.html\">a&lt;1&gt;</a>"));
    let m = r.mean.row("nearest", Mode::Nbtc, 300).unwrap();
    let row = format!(
        "<tr><td>nearest</td><td>300</td><td>nbtc</td><td>{:+.1}%</td><td class=\"paper\">-41.6%</td>",
        m.cycles_change
    );
    assert!(html.contains(&row), "{row}");
    assert!(html.contains("<a href=\"a&lt;1&gt;/nearest.png\"><img src=\"a&lt;1&gt;/nearest.png\""));
    assert!(!html.contains("b/nearest.png"), "b has no frame here");
    assert!(html.contains("NBTC study: the mobile suite (2 scenes)"));
    assert_eq!(unlinked(&html), Vec::<String>::new());
    let wide = crate::report::figure::svg_text::too_wide(dir.path())?;
    assert!(wide.is_empty(), "{wide:?}");
    Ok(())
}
