//! The Tile Fetcher in the TCOR writers (Figures 23-24): how it is timed,
//! in words; what each run's fetcher did (L2 reads and misses per
//! primitive, requests, memory-level parallelism, stall cycles); and TCOR's
//! throughput ratio by MSHR count and memory latency (the study's
//! `fetcher_sensitivity`), as text, CSV rows and HTML, for a scene's
//! report and for a suite's mean alike.

use std::collections::BTreeMap;

use gfxcache_tcor::study::fetcher::SensitivityPoint;
use gfxcache_tcor::study::report::{TcorReport, ENGINES};
use gfxcache_tcor::{FetcherModel, FetcherTiming};

use super::by_size;
use crate::report::html::{cell, esc, section, strings, text};
use crate::table::{thousands, Table};

/// The fetcher's timing in words.
pub fn timing_words(t: &FetcherTiming) -> String {
    let latency = format!(
        "a block read from the L2 takes {} cycles, {} more when the L2 misses",
        t.l2_cycles, t.memory_cycles
    );
    match t.model {
        FetcherModel::Blocking => format!(
            "blocking: one cycle per primitive and a wait on every block it reads; {latency}"
        ),
        FetcherModel::NonBlocking => format!(
            "non-blocking: up to {} blocks outstanding ({} reads each), {} primitives in flight, \
             output in order, at most one a cycle; {latency}",
            t.mshrs, t.targets_per_mshr, t.fifo_entries
        ),
    }
}

/// A run's fetcher: the columns of [`runs_text`] and [`runs_html`].
const RUN_COLUMNS: [&str; 9] = [
    "tile cache",
    "engine",
    "L2 reads/prim",
    "L2 misses/prim",
    "merged reads",
    "MLP",
    "FIFO stall cycles",
    "MSHR stall cycles",
    "target stall cycles",
];

fn run_rows(r: &TcorReport) -> impl Iterator<Item = Vec<String>> + '_ {
    r.runs.iter().map(|run| {
        let f = &run.stats.fetcher;
        let per_primitive = |n: u64| format!("{:.2}", n as f64 / f.primitives.max(1) as f64);
        vec![
            run.tile_cache.clone(),
            run.engine.clone(),
            per_primitive(f.l2_reads),
            per_primitive(f.l2_read_misses),
            thousands(f.merged_reads),
            format!("{:.2}", f.mlp),
            thousands(f.fifo_stall_cycles),
            thousands(f.mshr_stall_cycles),
            thousands(f.target_stall_cycles),
        ]
    })
}

/// The fetcher's timing and each run's fetcher, for the summary.
pub fn runs_text(r: &TcorReport) -> String {
    let mut t = Table::new(RUN_COLUMNS).left(0).left(1);
    for row in run_rows(r) {
        t.row(row);
    }
    format!(
        "\nTile Fetcher, {} (MLP: requests in flight while any is)\n{}",
        timing_words(&r.l2.fetcher),
        t.render()
    )
}

/// Each run's fetcher, for the page.
pub fn runs_html(r: &TcorReport) -> String {
    let rows = run_rows(r).map(|row| {
        let (key, nums) = row.split_at(2);
        key.iter()
            .map(|s| text(s))
            .chain(nums.iter().map(|s| cell(Some(s.clone()))))
            .collect()
    });
    let mut h = section("Tile Fetcher", &strings(&RUN_COLUMNS), rows);
    if !h.is_empty() {
        h += &format!(
            "<p>The Tile Fetcher is {}. MLP is the requests in flight on average while any is; \
             a read of a block already requested is merged into that request. The stall \
             cycles are those in which it could not issue a primitive or register a read: \
             its FIFO of primitives in flight was full, or no MSHR (or no target of the \
             block's MSHR) was free. TCOR's stalls on locked Attribute Cache lines are the \
             cache's, not counted here.</p>\n",
            esc(&timing_words(&r.l2.fetcher))
        );
    }
    h
}

/// A point's column: `blocking` or its MSHR count.
fn column(p: &SensitivityPoint) -> String {
    match p.mshrs {
        None => "blocking".to_string(),
        Some(1) => "1 MSHR".to_string(),
        Some(m) => format!("{m} MSHRs"),
    }
}

/// Memory latencies (rows) and columns of a size's points, in order.
fn grid(points: &[SensitivityPoint]) -> (Vec<u32>, Vec<String>) {
    let mut rows: Vec<u32> = Vec::new();
    let mut cols: Vec<String> = Vec::new();
    for p in points {
        if !rows.contains(&p.memory_cycles) {
            rows.push(p.memory_cycles);
        }
        let c = column(p);
        if !cols.contains(&c) {
            cols.push(c);
        }
    }
    (rows, cols)
}

/// A Tile Cache size's speedups: its columns (fetchers), and a row per
/// memory latency, `None` where the sweep has no point.
struct Grid {
    size: String,
    columns: Vec<String>,
    rows: Vec<(u32, Vec<Option<f64>>)>,
}

/// Per Tile Cache size: the speedup at each memory latency (rows) and
/// fetcher (columns).
fn tables(m: &BTreeMap<String, Vec<SensitivityPoint>>) -> Vec<Grid> {
    by_size(m.keys())
        .into_iter()
        .filter_map(|size| {
            let points = m.get(&size).filter(|p| !p.is_empty())?;
            let (rows, cols) = grid(points);
            let rows = rows
                .into_iter()
                .map(|memory| {
                    let at = cols.iter().map(|c| {
                        points
                            .iter()
                            .find(|p| p.memory_cycles == memory && column(p) == *c)
                            .map(|p| p.speedup)
                    });
                    (memory, at.collect())
                })
                .collect();
            Some(Grid {
                size,
                columns: cols,
                rows,
            })
        })
        .collect()
}

/// TCOR's throughput ratio by memory latency and fetcher, per Tile Cache
/// size, for a summary.
pub fn sensitivity_text(m: &BTreeMap<String, Vec<SensitivityPoint>>) -> String {
    let mut out = String::new();
    for Grid {
        size,
        columns,
        rows,
    } in tables(m)
    {
        let head = std::iter::once("memory cycles".to_string()).chain(columns);
        let mut t = Table::new(head);
        for (memory, at) in rows {
            let cells = at
                .into_iter()
                .map(|v| v.map_or("-".to_string(), |v| format!("{v:.2}x")));
            t.row(std::iter::once(memory.to_string()).chain(cells));
        }
        out += &format!(
            "\nTCOR's Tile Fetcher throughput over the baseline's by fetcher and memory latency, Tile Cache {size}\n"
        );
        out += &t.render();
    }
    out
}

/// The same for a page, under `title`.
pub fn sensitivity_html(title: &str, m: &BTreeMap<String, Vec<SensitivityPoint>>) -> String {
    let mut h = String::new();
    for Grid {
        size,
        columns,
        rows,
    } in tables(m)
    {
        let head: Vec<String> = std::iter::once("memory cycles".to_string())
            .chain(columns)
            .collect();
        let rows = rows.into_iter().map(|(memory, at)| {
            std::iter::once(text(&memory.to_string()))
                .chain(at.into_iter().map(|v| cell(v.map(|v| format!("{v:.2}")))))
                .collect()
        });
        h += &section(&format!("{title}, Tile Cache {size}"), &head, rows);
    }
    if !h.is_empty() {
        h += "<p>TCOR's Tile Fetcher throughput over the baseline's (Figures 23-24) with \
              the fetcher blocking, or non-blocking with each MSHR count, at each memory \
              latency (Table I: 50-100 cycles), measured on each run's same L2 reads.</p>\n";
    }
    h
}

/// The CSV header of [`sensitivity_rows`], after any key columns.
pub fn sensitivity_header() -> Vec<String> {
    let mut h = strings(&["tile_cache", "model", "mshrs", "memory_cycles"]);
    h.extend(ENGINES.iter().map(|e| format!("{e}_primitives_per_cycle")));
    h.push("speedup".to_string());
    h
}

/// A CSV row per point: the size, the timing, each engine's primitives
/// per cycle (empty if not measured) and the speedup.
pub fn sensitivity_rows(m: &BTreeMap<String, Vec<SensitivityPoint>>) -> Vec<Vec<String>> {
    let sizes = by_size(m.keys());
    sizes
        .iter()
        .flat_map(|size| m[size].iter().map(move |p| (size, p)))
        .map(|(size, p)| {
            let mut row = vec![
                size.clone(),
                p.model.name().to_string(),
                p.mshrs.map(|m| m.to_string()).unwrap_or_default(),
                p.memory_cycles.to_string(),
            ];
            row.extend(ENGINES.iter().map(|e| {
                p.primitives_per_cycle
                    .get(*e)
                    .map(|v| v.to_string())
                    .unwrap_or_default()
            }));
            row.push(p.speedup.to_string());
            row
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcor::test_report::report;

    #[test]
    fn the_sensitivity_is_a_grid_of_latencies_by_fetcher() {
        let r = report();
        let s = sensitivity_text(&r.fetcher_sensitivity);
        assert!(s.contains("Tile Cache 64KiB"), "{s}");
        let head = s
            .lines()
            .find(|l| l.contains("memory cycles"))
            .expect("a header");
        assert!(
            head.contains("blocking") && head.contains("16 MSHRs"),
            "{s}"
        );
        let row = s.lines().find(|l| l.starts_with("100")).expect("a 100 row");
        let p = r.fetcher_sensitivity["64KiB"]
            .iter()
            .find(|p| p.memory_cycles == 100 && p.mshrs == Some(16))
            .unwrap();
        assert!(row.contains(&format!("{:.2}x", p.speedup)), "{s}");
        let rows = sensitivity_rows(&r.fetcher_sensitivity);
        assert_eq!(rows.len(), 2 * r.fetcher_sensitivity["64KiB"].len());
        assert!(rows
            .iter()
            .all(|row| row.len() == sensitivity_header().len()));
        assert_eq!(rows[0][..4], ["64KiB", "blocking", "", "50"]);
    }

    #[test]
    fn each_run_has_its_fetcher_row() {
        let r = report();
        let s = runs_text(&r);
        assert!(
            s.contains("non-blocking: up to 16 blocks outstanding"),
            "{s}"
        );
        assert_eq!(
            s.lines().filter(|l| l.starts_with("64KiB")).count(),
            ENGINES.len()
        );
        assert!(runs_html(&r).contains("MSHR stall cycles"));
    }
}
