//! The suite's tables as CSV, a `scene` column first, a row per scene and
//! then the mean's (`scene` is `mean`): `organizations.csv` (Figures 6, 8,
//! 9, 10), `replication.csv` (Figure 1, and the paper's), `capacity.csv`
//! (Figure 7), `scaling.csv` (Figure 11), `sweeps.csv` and
//! `assignments.csv`. Numbers in full precision; a value not measured is
//! empty.

use std::path::{Path, PathBuf};

use gfxcache_nuca::study::Figures;
use gfxcache_nuca::OrgKind;

use super::super::csv::{header, with_figures};
use super::super::figure_values;
use super::{NucaSuite, MEAN};
use crate::report::write_csvs;

/// Writes the CSV files into `dir` and returns their paths.
pub fn write_all(r: &NucaSuite, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let files = [
        ("organizations.csv", organizations(r)),
        ("replication.csv", replication(r)),
        ("capacity.csv", capacity(r)),
        ("scaling.csv", scaling(r)),
        ("sweeps.csv", sweeps(r)),
        ("assignments.csv", assignments(r)),
    ];
    write_csvs(dir, files)
}

/// `key`, the organization's name and its figures.
fn row(key: &[&str], kind: OrgKind, f: &Figures) -> Vec<String> {
    key.iter()
        .map(|k| k.to_string())
        .chain([kind.name().to_string()])
        .chain(figure_values(f).map(|x| x.to_string()))
        .collect()
}

fn organizations(r: &NucaSuite) -> Vec<Vec<String>> {
    let mut rows = vec![with_figures(&["scene", "organization"])];
    for s in &r.scenes {
        for o in &s.report.organizations {
            rows.push(row(&[&s.scene], o.organization, &o.figures));
        }
    }
    for (k, f) in &r.mean.organizations {
        rows.push(row(&[MEAN], *k, f));
    }
    rows
}

fn replication(r: &NucaSuite) -> Vec<Vec<String>> {
    let mut rows = vec![header(&[
        "scene",
        "fragment_processors",
        "replicated_percent",
    ])];
    for s in &r.scenes {
        let p = &s.report.replication;
        rows.push(vec![
            s.scene.clone(),
            p.fps.to_string(),
            p.replicated_percent.to_string(),
        ]);
    }
    let m = &r.mean;
    rows.push(vec![
        MEAN.to_string(),
        m.replication_fps.to_string(),
        m.replicated_percent.to_string(),
    ]);
    rows.push(vec![
        "paper".to_string(),
        "4".to_string(),
        m.paper.replicated_percent.to_string(),
    ]);
    rows
}

/// Each private size's L2 requests against the private caches of the main
/// size; the mean has no count of its own.
fn capacity(r: &NucaSuite) -> Vec<Vec<String>> {
    let mut rows = vec![header(&[
        "scene",
        "tc_bytes",
        "l2_requests",
        "l2_change_percent",
    ])];
    for s in &r.scenes {
        for p in &s.report.capacity {
            let change = s.report.capacity_change(p.tc_bytes);
            rows.push(vec![
                s.scene.clone(),
                p.tc_bytes.to_string(),
                p.l2_requests.to_string(),
                change.map(|c| c.to_string()).unwrap_or_default(),
            ]);
        }
    }
    for (bytes, change) in &r.mean.capacity {
        rows.push(vec![
            MEAN.to_string(),
            bytes.to_string(),
            String::new(),
            change.to_string(),
        ]);
    }
    rows
}

fn scaling(r: &NucaSuite) -> Vec<Vec<String>> {
    let mut rows = vec![with_figures(&[
        "scene",
        "fragment_processors",
        "organization",
    ])];
    for s in &r.scenes {
        for p in &s.report.scaling {
            let fps = p.fps.to_string();
            for o in &p.rows {
                rows.push(row(&[&s.scene, &fps], o.organization, &o.figures));
            }
        }
    }
    for (fps, k, f) in &r.mean.scaling {
        rows.push(row(&[MEAN, &fps.to_string()], *k, f));
    }
    rows
}

fn sweeps(r: &NucaSuite) -> Vec<Vec<String>> {
    let mut rows = vec![with_figures(&["scene", "knob", "value", "organization"])];
    for s in &r.scenes {
        for p in &s.report.sweeps {
            rows.push(row(
                &[&s.scene, &p.knob, &p.value],
                p.organization,
                &p.figures,
            ));
        }
    }
    for (knob, value, k, f) in &r.mean.sweeps {
        rows.push(row(&[MEAN, knob, value], *k, f));
    }
    rows
}

fn assignments(r: &NucaSuite) -> Vec<Vec<String>> {
    let mut rows = vec![with_figures(&["scene", "assignment", "organization"])];
    for s in &r.scenes {
        for p in &s.report.assignments {
            for o in &p.rows {
                rows.push(row(&[&s.scene, &p.assignment], o.organization, &o.figures));
            }
        }
    }
    for (assignment, k, f) in &r.mean.assignments {
        rows.push(row(&[MEAN, assignment], *k, f));
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nuca::suite::test_suite::suite;
    use crate::nuca::FIGURE_COLUMNS;
    use crate::report::read_csv as read;

    /// Every mean row of organizations.csv is the mean of the scenes' rows
    /// of its organization, column by column.
    #[test]
    fn the_mean_row_is_the_mean_of_the_scenes() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let r = suite();
        write_all(&r, dir.path())?;
        let rows = read(&dir.path().join("organizations.csv"))?;
        let n = r.scenes[0].report.organizations.len();
        assert_eq!(rows.len(), 1 + 3 * n);
        assert_eq!(rows[0].len(), 2 + FIGURE_COLUMNS.len());
        let value = |row: &Vec<String>, c: usize| row[c].parse::<f64>().unwrap();
        for kind in OrgKind::ALL {
            let of = |scene: &str| {
                rows.iter()
                    .find(|x| x[0] == scene && x[1] == kind.name())
                    .unwrap_or_else(|| panic!("no {scene} row of {}", kind.name()))
            };
            let (a, b, mean) = (of("a<1>"), of("b"), of(MEAN));
            for (c, column) in rows[0].iter().enumerate().skip(2) {
                let expected = (value(a, c) + value(b, c)) / 2.0;
                assert!(
                    (value(mean, c) - expected).abs() < 1e-9,
                    "{} {column}: {} vs {expected}",
                    kind.name(),
                    value(mean, c)
                );
            }
        }
        // The scenes differ, so the mean is not merely one of them.
        let speedup = 2 + FIGURE_COLUMNS
            .iter()
            .position(|c| *c == "speedup_percent")
            .unwrap();
        let dtm = |scene: &str| {
            rows.iter()
                .find(|x| x[0] == scene && x[1] == "dtm-nuca")
                .map(|x| value(x, speedup))
                .unwrap()
        };
        assert_ne!(dtm("a<1>"), dtm("b"));
        Ok(())
    }

    #[test]
    fn the_other_files_end_with_the_mean() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let r = suite();
        write_all(&r, dir.path())?;
        let replication = read(&dir.path().join("replication.csv"))?;
        assert_eq!(replication.len(), 1 + 2 + 2);
        assert_eq!(replication[3][0], MEAN);
        assert_eq!(replication[4][..3], ["paper", "4", "84.6"]);
        let value = |row: &Vec<String>| row[2].parse::<f64>().unwrap();
        let mean = (value(&replication[1]) + value(&replication[2])) / 2.0;
        assert!((value(&replication[3]) - mean).abs() < 1e-9);
        for (file, means) in [
            ("capacity.csv", r.mean.capacity.len()),
            ("scaling.csv", r.mean.scaling.len()),
            ("sweeps.csv", r.mean.sweeps.len()),
            ("assignments.csv", r.mean.assignments.len()),
        ] {
            let rows = read(&dir.path().join(file))?;
            assert!(means > 0, "{file}: no mean");
            let tail = &rows[rows.len() - means..];
            assert!(tail.iter().all(|x| x[0] == MEAN), "{file}");
            assert_eq!(
                rows.iter().filter(|x| x[0] == MEAN).count(),
                means,
                "{file}"
            );
        }
        Ok(())
    }
}
