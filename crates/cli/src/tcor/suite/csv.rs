//! The suite's tables as CSV, a `scene` column first, a row per scene and
//! then the mean's (`scene` is `mean`): `engines.csv` (Figures 14-24 per
//! engine and Tile Cache size, absolute and over the baseline),
//! `reductions.csv` (TCOR's decreases, and the paper's averages),
//! `fetcher.csv` (Figures 23-24 by the fetcher's MSHRs and memory
//! latency), `curves.csv` (the Attribute Cache curves' miss ratios and bounds) and
//! `scenes.csv` (Table II per scene). Numbers in full precision; a value
//! not measured is empty.

use std::path::{Path, PathBuf};

use gfxcache_tcor::study::mean::EngineFigure;
use gfxcache_tcor::study::report::Reductions;

use super::{TcorSuite, MEAN};
use crate::report::write_csvs;

/// Writes the CSV files into `dir` and returns their paths.
pub fn write_all(r: &TcorSuite, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let files = [
        ("engines.csv", engines(r)),
        ("reductions.csv", reductions(r)),
        ("fetcher.csv", fetcher(r)),
        ("curves.csv", curves(r)),
        ("scenes.csv", scenes(r)),
    ];
    write_csvs(dir, files)
}

fn header(names: &[&str]) -> Vec<String> {
    names.iter().map(|s| s.to_string()).collect()
}

fn opt(v: Option<f64>) -> String {
    v.map(|v| v.to_string()).unwrap_or_default()
}

/// Per scene and engine run, then per engine run's mean: each figure and
/// each over the baseline's.
fn engines(r: &TcorSuite) -> Vec<Vec<String>> {
    let mut head = header(&["scene", "engine", "tile_cache"]);
    let names = [
        "pb_l2_accesses",
        "pb_dram_accesses",
        "dram_accesses",
        "energy_nj",
        "primitives_per_cycle",
    ];
    head.extend(names.iter().map(|n| n.to_string()));
    head.extend(names.iter().map(|n| format!("{n}_vs_baseline")));
    let mut rows = vec![head];
    for s in &r.scenes {
        for run in &s.report.runs {
            let (e, size) = (run.engine.as_str(), run.tile_cache.as_str());
            let mut row = vec![s.scene.clone(), run.engine.clone(), run.tile_cache.clone()];
            row.extend(EngineFigure::ALL.map(|f| opt(f.of(&s.report, size, e))));
            row.extend(EngineFigure::ALL.map(|f| opt(f.vs_baseline(&s.report, size, e))));
            rows.push(row);
        }
    }
    for m in &r.mean.engines {
        let mut row = vec![MEAN.to_string(), m.engine.clone(), m.tile_cache.clone()];
        let absolute = [
            m.pb_l2_accesses,
            m.pb_dram_accesses,
            m.dram_accesses,
            m.energy_nj,
            m.primitives_per_cycle,
        ];
        row.extend(absolute.map(|v| v.to_string()));
        let relative = [
            m.pb_l2_vs_baseline,
            m.pb_dram_vs_baseline,
            m.dram_vs_baseline,
            m.energy_vs_baseline,
            m.primitives_per_cycle_vs_baseline,
        ];
        row.extend(relative.map(opt));
        rows.push(row);
    }
    rows
}

/// Per scene and Tile Cache size, then the mean's and the paper's.
fn reductions(r: &TcorSuite) -> Vec<Vec<String>> {
    let head = header(&[
        "scene",
        "tile_cache",
        "pb_l2_accesses",
        "pb_dram_accesses",
        "dram_accesses",
        "energy",
        "energy_no_l2",
        "fetcher_speedup",
    ]);
    let row = |who: &str, size: &str, d: &Reductions| {
        let values = [
            d.pb_l2_accesses,
            d.pb_dram_accesses,
            d.dram_accesses,
            d.energy,
            d.energy_no_l2,
            d.fetcher_speedup,
        ];
        [who.to_string(), size.to_string()]
            .into_iter()
            .chain(values.map(|v| v.to_string()))
            .collect::<Vec<String>>()
    };
    let scenes = r.scenes.iter().flat_map(|s| {
        s.report
            .reductions
            .iter()
            .map(|(size, d)| row(&s.scene, size, d))
    });
    let means = r.mean.reductions.iter().map(|(size, d)| row(MEAN, size, d));
    let paper = r.mean.paper.iter().map(|(size, d)| row("paper", size, d));
    std::iter::once(head)
        .chain(scenes)
        .chain(means)
        .chain(paper)
        .collect()
}

/// Every timing of the fetcher's sweep per scene, then the mean's.
fn fetcher(r: &TcorSuite) -> Vec<Vec<String>> {
    use crate::tcor::fetcher::{sensitivity_header, sensitivity_rows};
    let mut head = header(&["scene"]);
    head.extend(sensitivity_header());
    let keyed = |who: &str, m| {
        sensitivity_rows(m).into_iter().map({
            let who = who.to_string();
            move |row| std::iter::once(who.clone()).chain(row).collect::<Vec<_>>()
        })
    };
    let scenes = r
        .scenes
        .iter()
        .flat_map(|s| keyed(&s.scene, &s.report.fetcher_sensitivity));
    let mean = keyed(MEAN, &r.mean.fetcher_sensitivity);
    std::iter::once(head).chain(scenes).chain(mean).collect()
}

/// Every point of every curve per scene, then the mean curves' points.
fn curves(r: &TcorSuite) -> Vec<Vec<String>> {
    let head = header(&[
        "scene",
        "policy",
        "ways",
        "bytes",
        "miss_ratio",
        "lower_bound_ratio",
    ]);
    let row = |scene: &str, policy: &str, ways: &str, p: (u64, f64, f64)| {
        vec![
            scene.to_string(),
            policy.to_string(),
            ways.to_string(),
            p.0.to_string(),
            p.1.to_string(),
            p.2.to_string(),
        ]
    };
    let mut rows = vec![head];
    for s in &r.scenes {
        for c in &s.report.curves {
            for p in &c.points {
                let point = (p.bytes, p.miss_ratio, p.lower_bound_ratio);
                rows.push(row(&s.scene, &c.policy, &c.ways, point));
            }
        }
    }
    for c in &r.mean.curves {
        for p in &c.points {
            let point = (p.bytes, p.miss_ratio, p.lower_bound_ratio);
            rows.push(row(MEAN, &c.policy, &c.ways, point));
        }
    }
    rows
}

/// Table II per scene (its counted frames), then the mean.
fn scenes(r: &TcorSuite) -> Vec<Vec<String>> {
    let head = header(&[
        "scene",
        "render_passes",
        "tiles",
        "primitives",
        "attributes",
        "tile_uses",
        "footprint_bytes",
        "largest_pass_footprint_bytes",
        "average_reuse",
    ]);
    let scenes = r.scenes.iter().map(|s| {
        let (t, f) = (&s.report, &s.report.frame);
        let counts = [
            t.render_passes,
            t.tiles,
            f.primitives,
            f.attributes,
            f.tile_uses,
            f.footprint_bytes,
            f.largest_pass_footprint_bytes,
        ];
        std::iter::once(s.scene.clone())
            .chain(counts.map(|n| n.to_string()))
            .chain([f.average_reuse.to_string()])
            .collect()
    });
    let m = &r.mean.frame;
    let mean = [
        m.render_passes,
        m.tiles,
        m.primitives,
        m.attributes,
        m.tile_uses,
        m.footprint_bytes,
        m.largest_pass_footprint_bytes,
        m.average_reuse,
    ];
    let mean = std::iter::once(MEAN.to_string())
        .chain(mean.map(|v| v.to_string()))
        .collect();
    std::iter::once(head).chain(scenes).chain([mean]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::read_csv as read;
    use crate::tcor::suite::test_suite::suite;

    #[test]
    fn engines_csv_has_a_row_per_scene_and_run_then_the_means() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let r = suite();
        write_all(&r, dir.path())?;
        let rows = read(&dir.path().join("engines.csv"))?;
        let runs = r.scenes[0].report.runs.len();
        assert_eq!(rows.len(), 1 + 3 * runs);
        assert!(rows.iter().all(|row| row.len() == 13));
        assert_eq!(rows[0][8], "pb_l2_accesses_vs_baseline");
        let value = |row: &Vec<String>, k: usize| row[k].parse::<f64>().unwrap();
        // The first run is the baseline: 1 over itself.
        assert_eq!(value(&rows[1], 8), 1.0);
        let mean = &rows[1 + 2 * runs];
        assert_eq!(mean[0], "mean");
        let expected = (value(&rows[1], 3) + value(&rows[1 + runs], 3)) / 2.0;
        assert!((value(mean, 3) - expected).abs() < 1e-9);
        Ok(())
    }

    #[test]
    fn reductions_end_with_the_mean_and_the_paper() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let r = suite();
        write_all(&r, dir.path())?;
        let rows = read(&dir.path().join("reductions.csv"))?;
        assert_eq!(rows.len(), 1 + 2 * 2 + 2 + 2);
        let at = |who: &str| {
            rows.iter()
                .find(|x| x[0] == who && x[1] == "64KiB")
                .map(|x| x[2].parse::<f64>().unwrap())
                .unwrap()
        };
        assert!((at("mean") - (at("a<1>") + at("b")) / 2.0).abs() < 1e-9);
        assert_eq!(at("paper"), 33.5);
        let scenes = read(&dir.path().join("scenes.csv"))?;
        assert_eq!(scenes.len(), 1 + 2 + 1);
        assert_eq!(scenes[3][0], "mean");
        Ok(())
    }

    #[test]
    fn fetcher_csv_has_each_scenes_points_then_the_means() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let r = suite();
        write_all(&r, dir.path())?;
        let rows = read(&dir.path().join("fetcher.csv"))?;
        let points: usize = r.mean.fetcher_sensitivity.values().map(Vec::len).sum();
        assert_eq!(rows.len(), 1 + 3 * points);
        assert_eq!(rows[0][..2], ["scene", "tile_cache"]);
        let speedup = |who: &str| {
            rows.iter()
                .find(|x| x[0] == who && x[1] == "64KiB" && x[3] == "16" && x[4] == "75")
                .map(|x| x[8].parse::<f64>().unwrap())
                .unwrap()
        };
        assert!((speedup("mean") - (speedup("a<1>") + speedup("b")) / 2.0).abs() < 1e-9);
        Ok(())
    }
}
