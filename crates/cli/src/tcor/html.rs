//! `index.html`: the TCOR study on one self-contained page, built from the
//! pieces in [`crate::report::html`]: the setup and the frame, Table II,
//! our decreases beside the paper's and the figures that plot them, the
//! engines' absolute numbers, the Tile Fetcher, where the curves reach the
//! lower bound and the curves.
//!
//! Every string from the report goes through [`esc`].

use std::collections::BTreeMap;
use std::fmt::Write as _;

use gfxcache_tcor::TileBuffers;

use super::{by_size, find_run, plots, tile_caches};
use crate::report::html::{self, warnings, Figures};
use crate::report::html::{
    cell, esc, frame, h2, paper_cell, ratio, scene, seconds_table, section, strings, text,
};
use crate::report::Shown;
use crate::table::{percent, thousands};
use gfxcache_cache::format_size;
use gfxcache_tcor::study::paper;
use gfxcache_tcor::study::report::{Reductions, TcorReport, ENGINES};

/// The whole page: the setup and the frame, then each table with the
/// figures that plot it right after it.
pub fn page(r: &TcorReport, shown: &Shown) -> String {
    let title = format!("TCOR study: {}", esc(&heading(r)));
    let mut figs = Figures::new(shown.figures, |f| plots::about(r, f));
    let mut h = setup(r);
    if shown.holds("frame.png") {
        let what = scene(r.scene.as_deref(), &r.trace, r.resolution);
        let last = match r.frames {
            1 => String::new(),
            n => format!(" (the last of the {n} frames)"),
        };
        h += &frame(
            "frame.png",
            &format!(
                "{}{last}, as rendered tile by tile for this study.",
                esc(&what)
            ),
        );
    }
    h += &energy_model(r);
    h += &table_two(r);
    h += &reductions_table(r);
    for file in [
        "fig14_15_pb_l2.svg",
        "fig16_17_pb_dram.svg",
        "fig18_19_dram.svg",
        "fig20_21_energy.svg",
    ] {
        h += &figs.take(file);
    }
    h += &engines_table(r);
    h += &super::fetcher::runs_html(r);
    h += &super::fetcher::sensitivity_html(
        "Tile Fetcher speedup by fetcher and memory latency",
        &r.fetcher_sensitivity,
    );
    h += &figs.take("fig23_24_fetcher.svg");
    h += &frames_table(r);
    h += &reach_section(r);
    for file in ["fig11_full.svg", "fig12_ways.svg", "fig13_4way.svg"] {
        h += &figs.take(file);
    }
    h += &lower_bound_table(r);
    h += &figs.rest("Other figures");
    if let Some(m) = &r.machine {
        h += &crate::report::machine::section(m);
    }
    h += &seconds_table(&r.seconds);
    html::page(&title, &h)
}

/// Scene (or trace), resolution, render passes, tiles and the binning
/// mode, for the title.
fn heading(r: &TcorReport) -> String {
    format!(
        "{}, {} render passes, {} tiles{}",
        scene(r.scene.as_deref(), &r.trace, r.resolution),
        thousands(r.render_passes),
        thousands(r.tiles),
        r.binning
            .as_deref()
            .map_or(String::new(), |b| format!(", {b} binning"))
    )
}

fn setup(r: &TcorReport) -> String {
    let l2 = &r.l2;
    let buffers = match l2.tile_buffers {
        TileBuffers::Memory => "go to main memory without the L2",
        TileBuffers::L2 => "go through the L2",
    };
    format!(
        "<p>Trace <code>{}</code>, binned render passes <code>{}</code>. \
         Shared L2 of {} ({} ways, 64-byte lines); tile loads and stores {buffers}. \
         The Tile Fetcher outputs at most one primitive per cycle to an unbounded output \
         queue (the paper's throughput experiment), {}. \
         TCOR's Tile Fetcher output queue holds {} primitives, whose Attribute Cache \
         lines stay locked while they wait{}.{}</p>\n\
         <p>The paper's values (Joseph, Aragón, Parcerisa and González: averages over \
         ten Android games on the simulated GPU of its Table I) are shown in grey \
         italics beside ours, which come from {}.</p>\n",
        esc(&r.trace),
        esc(&r.binned),
        esc(&format_size(l2.bytes)),
        l2.ways,
        esc(&super::fetcher::timing_words(&l2.fetcher)),
        l2.queue_depth,
        stalls(r),
        overflow(r),
        frames(r),
    ) + &warnings(&r.warnings)
}

/// TCOR's stalls on locked lines, in words.
fn stalls(r: &TcorReport) -> String {
    let runs: Vec<String> = r
        .runs
        .iter()
        .filter(|run| run.engine == ENGINES[2])
        .map(|run| {
            let n = run.stats.engine.attribute_cache_stalls;
            format!("{n} at {}", esc(&run.tile_cache))
        })
        .collect();
    if runs.is_empty() {
        return String::new();
    }
    format!(
        " (the Tile Fetcher stalled because every candidate line was locked: {})",
        runs.join(", ")
    )
}

/// How much the baseline's lists used its overflow area, in words (nothing
/// when they never outgrew their room).
fn overflow(r: &TcorReport) -> String {
    let Some(o) = r
        .runs
        .iter()
        .find(|run| run.engine == ENGINES[0])
        .map(|run| run.stats.overflow)
        .filter(|o| o.passes > 0)
    else {
        return String::new();
    };
    format!(
        " In {} render passes the baseline's lists outgrew their room of 1024 PMDs per tile \
         and went on in its overflow area: {} tiles, {} PMDs.",
        o.passes, o.tiles, o.pmds
    )
}

/// Which frames the figures count, in words.
fn frames(r: &TcorReport) -> String {
    match (r.frames, r.warmup) {
        (1, _) => "one frame".to_string(),
        (n, 0) => format!("{n} frames played in order through an L2 that stays warm"),
        (n, w) => format!(
            "the last {} of {n} frames played in order through an L2 that stays warm \
             (the first {w} only warm it up)",
            n - w
        ),
    }
}

/// Each counted frame of every engine run, then the run's mean.
fn frames_table(r: &TcorReport) -> String {
    if r.frames - r.warmup < 2 {
        return String::new();
    }
    let head = strings(&[
        "engine",
        "Tile Cache",
        "frame",
        "PB to L2",
        "PB to memory",
        "memory",
        "energy (nJ)",
        "primitives/cycle",
    ]);
    let rows = r.runs.iter().flat_map(|run| {
        let key = [text(&run.engine), text(&run.tile_cache)];
        let each = key.clone();
        let frames = run.per_frame.iter().map(move |f| {
            let mut row = each.to_vec();
            row.push(text(&f.frame.to_string()));
            let counts = [f.pb_l2_accesses, f.pb_dram_accesses, f.dram_accesses];
            row.extend(counts.map(|n| cell(Some(thousands(n)))));
            row.push(cell(Some(format!("{:.1}", f.energy_nj))));
            row.push(cell(Some(format!("{:.3}", f.primitives_per_cycle))));
            row
        });
        let m = &run.mean_per_frame;
        let mut mean = key.to_vec();
        mean.push(text("mean"));
        let counts = [m.pb_l2_accesses, m.pb_dram_accesses, m.dram_accesses];
        mean.extend(counts.map(|x| cell(Some(format!("{x:.0}")))));
        mean.push(cell(Some(format!("{:.1}", m.energy_nj))));
        mean.push(cell(Some(format!("{:.3}", m.primitives_per_cycle))));
        frames.chain(std::iter::once(mean))
    });
    section("Per frame", &head, rows)
}

/// The energy model's numbers and the L1s outside the Tiling Engine that
/// every run's energy counts.
fn energy_model(r: &TcorReport) -> String {
    let m = &r.energy_model;
    let mut h = format!(
        "{}<p>Dynamic energy per 64-byte access: SRAM {} pJ at {}, \
         scaled by (capacity / {})<sup>{}</sup> ({} pJ for the {} L2); main memory {} pJ per \
         line read, {} pJ per line written. Leakage, refresh and the interconnect are \
         not modelled.</p>\n",
        h2("Energy model"),
        num(m.sram_ref_pj),
        esc(&format_size(m.sram_ref_bytes)),
        esc(&format_size(m.sram_ref_bytes)),
        num(m.sram_exponent),
        num(m.sram_access_pj(r.l2.bytes)),
        esc(&format_size(r.l2.bytes)),
        num(m.dram_read_pj),
        num(m.dram_write_pj),
    );
    let rows = r.other_l1.iter().map(|c| {
        vec![
            text(&c.name),
            text(&format_size(c.bytes)),
            cell(Some(thousands(c.accesses))),
            cell(Some(num(m.sram_access_pj(c.bytes)))),
        ]
    });
    let head = strings(&[
        "L1 outside the Tiling Engine",
        "size",
        "accesses",
        "pJ per access",
    ]);
    h += &section("Other L1s in every run's energy", &head, rows);
    h
}

/// Table II per render pass and for the frame, the paper's ranges over its
/// games beside the frame's row.
fn table_two(r: &TcorReport) -> String {
    let head = strings(&[
        "render pass",
        "primitives",
        "tiles",
        "busy tiles",
        "attributes",
        "tile uses (PMDs)",
        "PB footprint MiB",
        "average reuse",
        "longest list",
        "paper footprint MiB",
        "paper reuse",
    ]);
    let passes = r.passes.iter().map(|p| {
        let c = &p.characteristics;
        vec![
            text(&format!("frame {} {}", p.frame, p.pass)),
            cell(Some(thousands(c.primitives))),
            cell(Some(thousands(c.tiles))),
            cell(Some(thousands(c.busy_tiles))),
            cell(Some(thousands(c.attributes))),
            cell(Some(thousands(c.tile_uses))),
            cell(Some(mib(c.footprint_bytes))),
            cell(Some(format!("{:.2}", c.average_reuse))),
            cell(Some(thousands(u64::from(c.longest_list)))),
            paper_cell(None),
            paper_cell(None),
        ]
    });
    let f = &r.frame;
    let (fp_lo, fp_hi) = paper::FOOTPRINT_MIB;
    let (re_lo, re_hi) = paper::AVERAGE_REUSE;
    let frame = vec![
        text("whole frame"),
        cell(Some(thousands(f.primitives))),
        cell(Some(thousands(r.tiles))),
        cell(None),
        cell(Some(thousands(f.attributes))),
        cell(Some(thousands(f.tile_uses))),
        cell(Some(mib(f.footprint_bytes))),
        cell(Some(format!("{:.2}", f.average_reuse))),
        cell(None),
        paper_cell(Some(format!("{fp_lo}–{fp_hi}"))),
        paper_cell(Some(format!("{re_lo}–{re_hi}"))),
    ];
    let mut h = section(
        "Frame characteristics (Table II)",
        &head,
        passes.chain(std::iter::once(frame)),
    );
    let _ = writeln!(
        h,
        "<p>Every render pass has its own Parameter Buffer, one at a time: the largest \
         pass's footprint is {} MiB. The paper's columns are the smallest and largest of \
         its games.</p>",
        mib(f.largest_pass_footprint_bytes)
    );
    h
}

/// Our decreases versus the baseline beside the paper's, per Tile Cache
/// size: each row one figure pair of Section V-B.
fn reductions_table(r: &TcorReport) -> String {
    reductions_section(
        "Ours versus the paper, by Tile Cache size",
        &r.reductions,
        &r.paper,
    )
}

/// The table of [`reductions_table`] with `title`, of decreases `ours`
/// (a scene's, or the mean over a suite's scenes) beside `paper`.
pub(in crate::tcor) fn reductions_section(
    title: &str,
    ours: &BTreeMap<String, Reductions>,
    paper: &BTreeMap<String, Reductions>,
) -> String {
    let sizes = by_size(ours.keys().chain(paper.keys()));
    let mut head = vec!["decrease versus the baseline".to_string()];
    for s in &sizes {
        head.push(format!("ours {s}"));
        head.push(format!("paper {s}"));
    }
    let in_percent = |v: f64| percent(v / 100.0);
    type Metric = (&'static str, fn(&Reductions) -> f64, fn(f64) -> String);
    let metrics: [Metric; 6] = [
        (
            "PB accesses to the L2 (Figures 14-15)",
            |x| x.pb_l2_accesses,
            in_percent,
        ),
        (
            "PB accesses to main memory (16-17)",
            |x| x.pb_dram_accesses,
            in_percent,
        ),
        (
            "main-memory accesses (18-19)",
            |x| x.dram_accesses,
            in_percent,
        ),
        ("memory-hierarchy energy (20-21)", |x| x.energy, in_percent),
        (
            "energy without the L2 enhancements (20-21)",
            |x| x.energy_no_l2,
            in_percent,
        ),
        (
            "Tile Fetcher speedup, times (23-24)",
            |x| x.fetcher_speedup,
            times,
        ),
    ];
    let rows = metrics.iter().map(|(name, get, fmt)| {
        let mut row = vec![text(name)];
        for s in &sizes {
            row.push(cell(ours.get(s).map(|x| fmt(get(x)))));
            row.push(paper_cell(paper.get(s).map(|x| fmt(get(x)))));
        }
        row
    });
    let mut h = section(title, &head, rows);
    if !h.is_empty() {
        h += "<p>Decreases are TCOR's (with its L2 enhancements unless the row says \
              otherwise) versus the baseline Tiling Engine; the speedup is TCOR's \
              Tile Fetcher throughput over the baseline's. The paper's energy without \
              the L2 enhancements is its \"around 9 %\" for both sizes, its speedup \
              the \"5x\" of its text.</p>\n";
    }
    h
}

/// Every run's absolute numbers, then what each engine is.
fn engines_table(r: &TcorReport) -> String {
    let head = strings(&[
        "Tile Cache",
        "engine",
        "L2 policy",
        "PB L2 reads",
        "PB L2 writes",
        "PB main memory",
        "memory reads",
        "memory writes",
        "memory accesses",
        "L1 µJ",
        "L2 µJ",
        "memory µJ",
        "total µJ",
        "fetched primitives",
        "fetcher cycles",
        "primitives per cycle",
    ]);
    let runs = tile_caches(r)
        .into_iter()
        .flat_map(|size| ENGINES.iter().filter_map(move |e| find_run(r, e, &size)))
        .chain(
            r.runs
                .iter()
                .filter(|x| !ENGINES.contains(&x.engine.as_str())),
        );
    let rows = runs.map(|x| {
        let (s, e) = (&x.stats, &x.energy);
        vec![
            text(&x.tile_cache),
            text(&x.engine),
            text(&x.l2_policy),
            cell(Some(thousands(s.pb_l2_reads))),
            cell(Some(thousands(s.pb_l2_writes))),
            cell(Some(thousands(s.pb_memory_accesses()))),
            cell(Some(thousands(s.memory_reads()))),
            cell(Some(thousands(s.memory_writes()))),
            cell(Some(thousands(s.memory_accesses()))),
            cell(Some(micro(e.l1_nj))),
            cell(Some(micro(e.l2_nj))),
            cell(Some(micro(e.dram_nj))),
            cell(Some(micro(e.total_nj))),
            cell(Some(thousands(s.fetcher.primitives))),
            cell(Some(thousands(s.fetcher.cycles))),
            cell(Some(ratio(s.fetcher.primitives_per_cycle))),
        ]
    });
    let mut h = section("Tiling Engines through the shared L2", &head, rows);
    let mut items = String::new();
    for x in &r.runs {
        let _ = writeln!(
            items,
            "<li><b>{} {}</b>: {}</li>",
            esc(&x.engine),
            esc(&x.tile_cache),
            esc(&x.about)
        );
    }
    if !items.is_empty() {
        h += &format!("<ul>\n{items}</ul>\n");
    }
    h
}

/// Where each curve reaches the lower bound, the paper's fully associative
/// sizes beside.
fn reach_section(r: &TcorReport) -> String {
    let reach = &r.reach;
    let paper_kib = |p: &str, w: &str| match (p, w) {
        ("opt", "full") => Some(paper::OPT_REACHES_BOUND_KIB),
        ("lru", "full") => Some(paper::LRU_REACHES_BOUND_KIB),
        _ => None,
    };
    let rows = reach.curves.iter().map(|c| {
        vec![
            text(&c.policy),
            text(&c.ways),
            cell(Some(
                c.bytes.map_or("not within the sweep".into(), format_size),
            )),
            paper_cell(paper_kib(&c.policy, &c.ways).map(|k| format!("{k} KiB"))),
        ]
    });
    let head = strings(&["policy", "ways", "reaches the bound at", "paper"]);
    let title = format!(
        "Where the miss ratio reaches the lower bound (within {} %)",
        num(100.0 * reach.tolerance)
    );
    let mut h = section(&title, &head, rows);
    let paper_ratio = paper::LRU_REACHES_BOUND_KIB / paper::OPT_REACHES_BOUND_KIB;
    let ours = match reach.lru_over_opt_full {
        Some(x) => format!("LRU needs {x:.1} times OPT's size"),
        None => {
            "OPT and LRU do not both reach it within the sweep, so there is no ratio".to_string()
        }
    };
    let _ = writeln!(
        h,
        "<p>Fully associative: {ours} (paper: {} KiB / {} KiB = {paper_ratio:.1} times).</p>",
        paper::LRU_REACHES_BOUND_KIB,
        paper::OPT_REACHES_BOUND_KIB,
    );
    h
}

/// The lower bounds of TCOR's two Attribute Caches.
fn lower_bound_table(r: &TcorReport) -> String {
    let lb = by_size(r.lower_bound.keys()).into_iter().map(|size| {
        vec![
            text(&size),
            cell(r.lower_bound.get(&size).map(|&n| thousands(n))),
        ]
    });
    section(
        "Lower bound of TCOR's Attribute Caches (48 and 112 KiB, 4-way)",
        &strings(&["Tile Cache", "LB, primitive misses"]),
        lb,
    )
}

// ---- Formatting -------------------------------------------------------------

/// Bytes in MiB, 3 decimals (the paper's Table II is in MiB).
pub(in crate::tcor) fn mib(bytes: u64) -> String {
    format!("{:.3}", bytes as f64 / (1024.0 * 1024.0))
}

/// nJ as µJ, 2 decimals.
pub(in crate::tcor) fn micro(nj: f64) -> String {
    format!("{:.2}", nj / 1000.0)
}

pub(in crate::tcor) fn times(v: f64) -> String {
    format!("{v:.2}")
}

/// A model number as short as it reads: `70`, `0.5`, `198.0`.
fn num(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::write_all;
    use crate::tcor::test_report::{report, report_without_curves, OUR_PB_L2_64K};

    fn index(r: &TcorReport) -> anyhow::Result<String> {
        let dir = tempfile::tempdir()?;
        write_all(r, dir.path())?;
        Ok(std::fs::read_to_string(dir.path().join("index.html"))?)
    }

    #[test]
    fn sets_ours_beside_the_paper() -> anyhow::Result<()> {
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
        // 64KiB's columns come before 128KiB's.
        let (a, b) = (html.find("ours 64KiB"), html.find("ours 128KiB"));
        assert!(a.is_some() && a < b);
        assert!(html.contains("55 KiB") && html.contains("375 KiB"));
        assert!(html.contains("6.8 times"));
        assert!(html.contains("LRU needs 4.0 times"));
        assert!(html.contains("0.12–1.81") && html.contains("1.4–6.9"));
        Ok(())
    }

    #[test]
    fn has_every_section_and_figure() -> anyhow::Result<()> {
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
            "<li><b>tcor 128KiB</b>: the tcor engine &lt;128KiB&gt;</li>",
            "<td>8,000</td>",
            "Where the miss ratio reaches the lower bound",
            "<img src=\"fig11_full.svg\"",
            "<img src=\"fig20_21_energy.svg\"",
            "Wall-clock seconds per phase",
        ] {
            assert!(html.contains(part), "{part:?} missing");
        }
        assert!(html.ends_with("</html>\n"));
        Ok(())
    }

    #[test]
    fn escapes_the_report_strings() -> anyhow::Result<()> {
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

    #[test]
    fn formats_numbers() {
        assert_eq!(mib(1024 * 1024 + 512 * 1024), "1.500");
        assert_eq!(micro(12_345.0), "12.35");
        assert_eq!(num(70.0), "70");
        assert_eq!(num(0.5), "0.5");
        assert_eq!(num(197.99), "198.0");
    }

    /// The frame, the contents, each figure after the table it plots.
    #[test]
    fn shows_the_frame_the_contents_and_figures_beside_their_tables() -> anyhow::Result<()> {
        use crate::report::html::check::{follows, unlinked};
        let (_dir, html) = crate::report::page_with(&report(), &["frame.png"])?;
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
        let (_dir, without) = crate::report::page_with(&report(), &[])?;
        assert!(!without.contains("rendered frame"));
        Ok(())
    }

    /// No figure is wider than the page.
    #[test]
    fn no_figure_is_wider_than_the_page() -> anyhow::Result<()> {
        let (dir, _) = crate::report::page_with(&report(), &[])?;
        let wide = crate::report::figure::svg_text::too_wide(dir.path())?;
        assert!(wide.is_empty(), "{wide:?}");
        Ok(())
    }
}
