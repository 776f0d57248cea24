//! The suite's tables as CSV, a `scene` column first, a row per scene and
//! then the mean's (`scene` is `mean`): `runs.csv` (each design against
//! the BTC per filter mode and latency, the slides' numbers beside),
//! `sweeps.csv` (the NBTC against the BTC per knob value) and `paper.csv`
//! (each of the slides' numbers beside each scene's and the mean's).
//! Numbers in full precision; a value not given is empty.

use std::path::{Path, PathBuf};

use gfxcache_nbtc::Mode;

use super::super::csv::header;
use super::super::{paper_cycles, paper_traffic};
use super::{paper_of, NbtcSuite, MEAN};
use crate::report::write_csvs;

/// Writes the CSV files into `dir` and returns their paths.
pub fn write_all(r: &NbtcSuite, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let files = [
        ("runs.csv", runs(r)),
        ("sweeps.csv", sweeps(r)),
        ("paper.csv", paper(r)),
    ];
    write_csvs(dir, files)
}

fn or_empty(v: Option<f64>) -> String {
    v.map(|x| x.to_string()).unwrap_or_default()
}

/// `scenes` is how many scenes a mean row averages (1 for a scene's own).
fn runs(r: &NbtcSuite) -> Vec<Vec<String>> {
    let p = paper_of(r);
    let mut rows = vec![header(&[
        "scene",
        "filter",
        "latency",
        "mode",
        "cycles",
        "cycles_change_percent",
        "frame_cycles_change_percent",
        "traffic_change_percent",
        "miss_rate_percent",
        "scenes",
        "paper_cycles_change_percent",
        "paper_traffic_change_max_percent",
    ])];
    let papers = |mode: Mode, latency: u64| {
        [
            or_empty(paper_cycles(&p, mode, latency)),
            or_empty(paper_traffic(&p, mode)),
        ]
    };
    for s in &r.scenes {
        for f in &s.report.frames {
            for row in &f.runs {
                let mut out = vec![
                    s.scene.clone(),
                    f.filter.clone(),
                    row.latency.to_string(),
                    row.mode.name().to_string(),
                    row.stats.cycles.to_string(),
                ];
                out.extend(
                    [
                        row.cycles_change,
                        row.frame_cycles_change,
                        row.traffic_change,
                        row.miss_rate,
                    ]
                    .map(|x| x.to_string()),
                );
                out.push("1".into());
                out.extend(papers(row.mode, row.latency));
                rows.push(out);
            }
        }
    }
    for m in &r.mean.rows {
        let mut out = vec![
            MEAN.to_string(),
            m.filter.clone(),
            m.latency.to_string(),
            m.mode.name().to_string(),
            String::new(),
        ];
        out.extend(
            [
                m.cycles_change,
                m.frame_cycles_change,
                m.traffic_change,
                m.miss_rate,
            ]
            .map(|x| x.to_string()),
        );
        out.push(m.scenes.to_string());
        out.extend(papers(m.mode, m.latency));
        rows.push(out);
    }
    rows
}

fn sweeps(r: &NbtcSuite) -> Vec<Vec<String>> {
    let mut rows = vec![header(&[
        "scene",
        "knob",
        "value",
        "cycles_change_percent",
        "traffic_change_percent",
        "scenes",
        "nbtc_buffer_bytes",
    ])];
    for s in &r.scenes {
        for sweep in &s.report.sweeps {
            for p in &sweep.points {
                rows.push(vec![
                    s.scene.clone(),
                    sweep.knob.clone(),
                    p.value.to_string(),
                    p.nbtc.cycles_change.to_string(),
                    p.nbtc.traffic_change.to_string(),
                    "1".into(),
                    p.storage_bytes.to_string(),
                ]);
            }
        }
    }
    for p in &r.mean.sweeps {
        rows.push(vec![
            MEAN.to_string(),
            p.knob.clone(),
            p.value.to_string(),
            p.cycles_change.to_string(),
            p.traffic_change.to_string(),
            p.scenes.to_string(),
            p.storage_bytes.to_string(),
        ]);
    }
    rows
}

/// The slides' NBTC numbers beside each scene's and the mean's: cycles
/// change at 50 and 300 cycles, and the largest traffic change over the
/// latencies.
fn paper(r: &NbtcSuite) -> Vec<Vec<String>> {
    let p = paper_of(r);
    let mut rows = vec![header(&[
        "scene",
        "filter",
        "metric",
        "latency",
        "paper_percent",
        "ours_percent",
    ])];
    let who = r.scenes.iter().map(|s| s.scene.as_str()).chain([MEAN]);
    for scene in who {
        for filter in super::filters(r) {
            let nbtc: Vec<(u64, f64, f64)> = if scene == MEAN {
                r.mean
                    .rows
                    .iter()
                    .filter(|m| m.filter == filter && m.mode == Mode::Nbtc)
                    .map(|m| (m.latency, m.cycles_change, m.traffic_change))
                    .collect()
            } else {
                let s = r.scenes.iter().find(|s| s.scene == scene);
                let f = s.and_then(|s| s.report.frames.iter().find(|f| f.filter == filter));
                f.map(|f| {
                    f.runs
                        .iter()
                        .filter(|row| row.mode == Mode::Nbtc)
                        .map(|row| (row.latency, row.cycles_change, row.traffic_change))
                        .collect()
                })
                .unwrap_or_default()
            };
            for &(latency, paper) in &p.cycles_change {
                let ours = nbtc.iter().find(|x| x.0 == latency).map(|x| x.1);
                rows.push(vec![
                    scene.to_string(),
                    filter.clone(),
                    "cycles_change".into(),
                    latency.to_string(),
                    paper.to_string(),
                    or_empty(ours),
                ]);
            }
            let most = nbtc.iter().max_by(|a, b| a.2.total_cmp(&b.2));
            rows.push(vec![
                scene.to_string(),
                filter.clone(),
                "traffic_change_max".into(),
                most.map(|x| x.0.to_string()).unwrap_or_default(),
                p.traffic_change_max.to_string(),
                or_empty(most.map(|x| x.2)),
            ]);
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nbtc::suite::test_suite::suite;
    use crate::report::read_csv as read;

    /// Every mean row of runs.csv is the mean of the scenes' rows of its
    /// filter, latency and design, column by column.
    #[test]
    fn the_mean_row_is_the_mean_of_the_scenes() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let r = suite();
        write_all(&r, dir.path())?;
        let rows = read(&dir.path().join("runs.csv"))?;
        let n = r.mean.rows.len();
        assert_eq!(n, 2 * 2 * 5);
        assert_eq!(rows.len(), 1 + 3 * n);
        assert!(rows.iter().all(|x| x.len() == rows[0].len()));
        let value = |row: &Vec<String>, c: usize| row[c].parse::<f64>().unwrap();
        for m in &r.mean.rows {
            let of = |scene: &str| {
                rows.iter()
                    .find(|x| {
                        x[0] == scene
                            && x[1] == m.filter
                            && x[2] == m.latency.to_string()
                            && x[3] == m.mode.name()
                    })
                    .unwrap_or_else(|| panic!("no {scene} row of {m:?}"))
            };
            let (a, b, mean) = (of("a<1>"), of("b"), of(MEAN));
            for c in 5..9 {
                let expected = (value(a, c) + value(b, c)) / 2.0;
                assert!((value(mean, c) - expected).abs() < 1e-9, "{m:?} {c}");
            }
            assert_eq!(mean[9], "2");
        }
        let nbtc300 = rows
            .iter()
            .find(|x| x[0] == MEAN && x[2] == "300" && x[3] == "nbtc")
            .unwrap();
        assert_eq!(nbtc300[10], "-41.64");
        Ok(())
    }

    #[test]
    fn sweeps_and_paper_end_with_the_mean() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let r = suite();
        write_all(&r, dir.path())?;
        let sweeps = read(&dir.path().join("sweeps.csv"))?;
        let means = r.mean.sweeps.len();
        assert!(means > 0);
        assert!(sweeps[sweeps.len() - means..].iter().all(|x| x[0] == MEAN));
        let paper = read(&dir.path().join("paper.csv"))?;
        // (two scenes and the mean) x two filters x three numbers.
        assert_eq!(paper.len(), 1 + 3 * 2 * 3);
        let mean = paper
            .iter()
            .find(|x| x[0] == MEAN && x[1] == "bilinear" && x[3] == "50")
            .unwrap();
        let ours = r
            .mean
            .row("bilinear", Mode::Nbtc, 50)
            .unwrap()
            .cycles_change;
        assert_eq!(mean[4..], ["-12.47".to_string(), ours.to_string()]);
        Ok(())
    }
}
