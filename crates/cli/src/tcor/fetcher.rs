//! The Tile Fetcher in the TCOR summaries (Figures 23-24): what each
//! run's fetcher did (L2 reads and misses per primitive, requests,
//! memory-level parallelism, stall cycles, DRAM waits) and TCOR's throughput ratio by
//! MSHR count and memory latency (the study's `fetcher_sensitivity`), as
//! text, for a scene's report and for a suite's mean alike. Its timing in
//! words is the design crate's (`study::page::timing_words`); the tables
//! and the page have the same numbers as data.

use std::collections::BTreeMap;

use gfxcache_tcor::study::fetcher::SensitivityPoint;
use gfxcache_tcor::study::page::timing_words;
use gfxcache_tcor::study::report::TcorReport;

use super::in_size_order;
use crate::table::{thousands, Table};

/// A run's fetcher: the columns of [`runs_text`].
const RUN_COLUMNS: [&str; 10] = [
    "tile cache",
    "engine",
    "L2 reads/prim",
    "L2 misses/prim",
    "merged reads",
    "MLP",
    "FIFO stall cycles",
    "MSHR stall cycles",
    "target stall cycles",
    "DRAM wait cycles",
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
            thousands(f.dram_wait_cycles),
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
    in_size_order(m.keys())
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcor::test_report::report;
    use gfxcache_tcor::study::report::ENGINES;

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
    }
}
