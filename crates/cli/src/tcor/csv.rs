//! The study's tables as CSV, for spreadsheets and scripts: `curves.csv`
//! (Figures 1 and 11-13), `engines.csv` (Figures 14-24, absolute),
//! `fetcher.csv` (Figures 23-24 by the fetcher's MSHRs and memory
//! latency), `frames.csv` (those figures frame by frame) and `passes.csv`
//! (Table II).
//! Numbers are written in full precision.

use std::path::{Path, PathBuf};

use crate::report::write_csvs;
use gfxcache_tcor::study::report::TcorReport;

/// Writes the CSV files into `dir` and returns their paths.
pub fn write_all(report: &TcorReport, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut files = vec![
        ("curves.csv", curves(report)),
        ("engines.csv", engines(report)),
        ("fetcher.csv", fetcher(report)),
        ("frames.csv", frames(report)),
        ("passes.csv", passes(report)),
    ];
    if let Some(m) = &report.machine {
        files.push(("machine.csv", crate::report::machine::rows(m)));
    }
    write_csvs(dir, files)
}

fn header(names: &[&str]) -> Vec<String> {
    names.iter().map(|s| s.to_string()).collect()
}

/// One row per timing of the fetcher's sweep at every Tile Cache size.
fn fetcher(r: &TcorReport) -> Vec<Vec<String>> {
    std::iter::once(super::fetcher::sensitivity_header())
        .chain(super::fetcher::sensitivity_rows(&r.fetcher_sensitivity))
        .collect()
}

/// One row per counted frame of every engine run, then the run's mean
/// (`frame` is `mean`).
fn frames(r: &TcorReport) -> Vec<Vec<String>> {
    let head = header(&[
        "engine",
        "tile_cache",
        "frame",
        "pb_l2_accesses",
        "pb_dram_accesses",
        "dram_accesses",
        "energy_nj",
        "primitives_per_cycle",
    ]);
    let mut rows = vec![head];
    for run in &r.runs {
        let key = [run.engine.clone(), run.tile_cache.clone()];
        for f in &run.per_frame {
            let counts = [f.pb_l2_accesses, f.pb_dram_accesses, f.dram_accesses];
            let mut row = key.to_vec();
            row.push(f.frame.to_string());
            row.extend(counts.map(|n| n.to_string()));
            row.extend([f.energy_nj, f.primitives_per_cycle].map(|x| x.to_string()));
            rows.push(row);
        }
        let m = &run.mean_per_frame;
        let mut mean = key.to_vec();
        mean.push("mean".to_string());
        let values = [
            m.pb_l2_accesses,
            m.pb_dram_accesses,
            m.dram_accesses,
            m.energy_nj,
            m.primitives_per_cycle,
        ];
        mean.extend(values.map(|x| x.to_string()));
        rows.push(mean);
    }
    rows
}

/// One row per point of every Attribute Cache curve.
fn curves(r: &TcorReport) -> Vec<Vec<String>> {
    let head = header(&[
        "policy",
        "ways",
        "bytes",
        "entries",
        "lines",
        "accesses",
        "misses",
        "miss_ratio",
        "lower_bound",
        "lower_bound_ratio",
        "l2_reads",
    ]);
    let rows = r.curves.iter().flat_map(|c| {
        c.points.iter().map(|p| {
            vec![
                c.policy.clone(),
                c.ways.clone(),
                p.bytes.to_string(),
                p.entries.to_string(),
                p.lines.to_string(),
                p.accesses.to_string(),
                p.misses.to_string(),
                p.miss_ratio.to_string(),
                p.lower_bound.to_string(),
                p.lower_bound_ratio.to_string(),
                p.l2_reads.to_string(),
            ]
        })
    });
    std::iter::once(head).chain(rows).collect()
}

/// One row per (engine, Tile Cache size) run: Parameter Buffer blocks to
/// the L2 and to main memory, all main-memory accesses, energy by level
/// and the Tile Fetcher.
fn engines(r: &TcorReport) -> Vec<Vec<String>> {
    let head = header(&[
        "engine",
        "tile_cache",
        "l2_policy",
        "pb_l2_reads",
        "pb_l2_writes",
        "pb_dram_accesses",
        "dram_reads",
        "dram_writes",
        "dram_accesses",
        "energy_l1_nj",
        "energy_l2_nj",
        "energy_dram_nj",
        "energy_total_nj",
        "fetcher_primitives",
        "fetcher_cycles",
        "primitives_per_cycle",
        "fetcher_l2_reads",
        "fetcher_l2_read_misses",
        "fetcher_l2_requests",
        "fetcher_merged_reads",
        "fetcher_fifo_stall_cycles",
        "fetcher_mshr_stall_cycles",
        "fetcher_target_stall_cycles",
        "fetcher_mlp",
        "attribute_cache_stalls",
        "overflow_passes",
        "overflow_pmds",
        "overflow_l2_blocks",
    ]);
    let rows = r.runs.iter().map(|run| {
        let s = &run.stats;
        let e = &run.energy;
        vec![
            run.engine.clone(),
            run.tile_cache.clone(),
            run.l2_policy.clone(),
            s.pb_l2_reads.to_string(),
            s.pb_l2_writes.to_string(),
            s.pb_memory_accesses().to_string(),
            s.memory_reads().to_string(),
            s.memory_writes().to_string(),
            s.memory_accesses().to_string(),
            e.l1_nj.to_string(),
            e.l2_nj.to_string(),
            e.dram_nj.to_string(),
            e.total_nj.to_string(),
            s.fetcher.primitives.to_string(),
            s.fetcher.cycles.to_string(),
            s.fetcher.primitives_per_cycle.to_string(),
            s.fetcher.l2_reads.to_string(),
            s.fetcher.l2_read_misses.to_string(),
            s.fetcher.l2_requests.to_string(),
            s.fetcher.merged_reads.to_string(),
            s.fetcher.fifo_stall_cycles.to_string(),
            s.fetcher.mshr_stall_cycles.to_string(),
            s.fetcher.target_stall_cycles.to_string(),
            s.fetcher.mlp.to_string(),
            s.engine.attribute_cache_stalls.to_string(),
            s.overflow.passes.to_string(),
            s.overflow.pmds.to_string(),
            s.overflow.l2_blocks.to_string(),
        ]
    });
    std::iter::once(head).chain(rows).collect()
}

/// Table II, one row per render pass.
fn passes(r: &TcorReport) -> Vec<Vec<String>> {
    let head = header(&[
        "frame",
        "pass",
        "primitives",
        "tiles",
        "busy_tiles",
        "attributes",
        "tile_uses",
        "pb_lists_blocks",
        "pb_attribute_blocks",
        "footprint_bytes",
        "average_reuse",
        "longest_list",
        "overflow_tiles",
        "overflow_pmds",
    ]);
    let rows = r.passes.iter().map(|p| {
        let c = &p.characteristics;
        vec![
            p.frame.to_string(),
            p.pass.clone(),
            c.primitives.to_string(),
            c.tiles.to_string(),
            c.busy_tiles.to_string(),
            c.attributes.to_string(),
            c.tile_uses.to_string(),
            c.pb_lists_blocks.to_string(),
            c.pb_attribute_blocks.to_string(),
            c.footprint_bytes.to_string(),
            c.average_reuse.to_string(),
            c.longest_list.to_string(),
            p.baseline_overflow.tiles.to_string(),
            p.baseline_overflow.pmds.to_string(),
        ]
    });
    std::iter::once(head).chain(rows).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::read_csv as read;
    use crate::tcor::test_report::report;

    #[test]
    fn curves_csv_has_a_row_per_point() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let r = report();
        write_all(&r, dir.path())?;
        let rows = read(&dir.path().join("curves.csv"))?;
        let points: usize = r.curves.iter().map(|c| c.points.len()).sum();
        assert_eq!(rows.len(), 1 + points);
        assert_eq!(rows[0].len(), 11);
        assert_eq!(rows[0][7], "miss_ratio");
        assert!(rows.iter().all(|row| row.len() == 11));
        let p = &r.curves[1].points[2];
        let row = &rows[1 + r.curves[0].points.len() + 2];
        assert_eq!((row[0].as_str(), row[1].as_str()), ("lru", "full"));
        assert_eq!(row[2], p.bytes.to_string());
        assert_eq!(row[6], p.misses.to_string());
        assert_eq!(row[8], p.lower_bound.to_string());
        Ok(())
    }

    #[test]
    fn engines_csv_has_a_row_per_run_with_derived_counts() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let r = report();
        write_all(&r, dir.path())?;
        let rows = read(&dir.path().join("engines.csv"))?;
        assert_eq!(rows.len(), 1 + r.runs.len());
        assert_eq!(rows[0][5], "pb_dram_accesses");
        assert_eq!(rows[0][15], "primitives_per_cycle");
        let run = &r.runs[0];
        let s = &run.stats;
        assert_eq!(rows[1][0], run.engine);
        assert_eq!(rows[1][1], run.tile_cache);
        assert_eq!(rows[1][5], s.pb_memory_accesses().to_string());
        assert_eq!(rows[1][8], s.memory_accesses().to_string());
        assert_ne!(s.memory_accesses(), s.l2.memory_reads + s.l2.memory_writes);
        assert_eq!(rows[1][12], run.energy.total_nj.to_string());
        assert_eq!(rows[0][18], "fetcher_l2_requests");
        assert_eq!(rows[1][18], s.fetcher.l2_requests.to_string());
        assert_eq!(rows[1][23], s.fetcher.mlp.to_string());
        assert!(rows.iter().all(|row| row.len() == rows[0].len()));
        Ok(())
    }

    #[test]
    fn fetcher_csv_has_a_row_per_timing_and_size() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let r = report();
        write_all(&r, dir.path())?;
        let rows = read(&dir.path().join("fetcher.csv"))?;
        let points: usize = r.fetcher_sensitivity.values().map(Vec::len).sum();
        assert_eq!(rows.len(), 1 + points);
        assert_eq!(
            rows[0][..4],
            ["tile_cache", "model", "mshrs", "memory_cycles"]
        );
        let p = &r.fetcher_sensitivity["64KiB"][1];
        assert_eq!(rows[2][..4], ["64KiB", "non-blocking", "1", "50"]);
        assert_eq!(rows[2][7], p.speedup.to_string());
        Ok(())
    }

    #[test]
    fn frames_csv_has_each_frame_and_the_mean() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let r = report();
        write_all(&r, dir.path())?;
        let rows = read(&dir.path().join("frames.csv"))?;
        assert_eq!(rows.len(), 1 + 3 * r.runs.len());
        assert_eq!(rows[1][..3], ["baseline", "64KiB", "0"]);
        assert_eq!(rows[3][2], "mean");
        let energy = |row: &Vec<String>| row[6].parse::<f64>().unwrap();
        assert!((energy(&rows[3]) - (energy(&rows[1]) + energy(&rows[2])) / 2.0).abs() < 1e-9);
        Ok(())
    }

    #[test]
    fn passes_csv_is_table_two_per_pass() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let r = report();
        write_all(&r, dir.path())?;
        let rows = read(&dir.path().join("passes.csv"))?;
        assert_eq!(rows.len(), 1 + r.passes.len());
        assert_eq!(rows[2][1], "shadow<0>");
        assert_eq!(rows[2][2], "300");
        assert_eq!(rows[2][10], "1.5");
        Ok(())
    }
}
