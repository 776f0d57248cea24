//! The suite's tables as CSV: the per-scene files' tables with a `scene`
//! column first, a row per scene, then the mean's rows (`scene` is
//! `mean`). `policies.csv` (every run), `stream_mix.csv` (Figure 4),
//! `opt_epochs.csv` (Figures 7, 9) and `t_sensitivity.csv` (Figure 11).
//! Numbers in full precision; a value the mean does not have (a count of
//! a share, a fraction of a policy without RRPVs) is empty.

use std::path::{Path, PathBuf};

use gfxcache_llc::study::mean::{EpochsMean, PolicyMean};

use super::super::csv::{opt, policies_header, policy_row, EPOCHS};
use super::{timing_configs, GspcSuite, MEAN};
use crate::report::write_csvs;

/// Writes the CSV files into `dir` and returns their paths.
pub fn write_all(r: &GspcSuite, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let files = [
        ("policies.csv", policies(r)),
        ("stream_mix.csv", stream_mix(r)),
        ("opt_epochs.csv", opt_epochs(r)),
        ("t_sensitivity.csv", t_sensitivity(r)),
    ];
    write_csvs(dir, files)
}

/// `row` with the scene's name in front.
fn scene_row(scene: &str, row: Vec<String>) -> Vec<String> {
    std::iter::once(scene.to_string()).chain(row).collect()
}

fn header(names: &[&str]) -> Vec<String> {
    names.iter().map(|s| s.to_string()).collect()
}

/// Every run of every scene, then every run's mean.
fn policies(r: &GspcSuite) -> Vec<Vec<String>> {
    let head = scene_row("scene", policies_header(timing_configs(r)));
    let scenes = r.scenes.iter().flat_map(|s| {
        s.report
            .policies
            .iter()
            .map(|p| scene_row(&s.scene, policy_row(&s.report, p)))
    });
    let means = r.mean.policies.iter().map(|m| mean_row(r, m));
    std::iter::once(head).chain(scenes).chain(means).collect()
}

fn mean_row(r: &GspcSuite, m: &PolicyMean) -> Vec<String> {
    let h = &m.hit_rate;
    let mut row = vec![MEAN.to_string(), m.policy.clone(), m.size.to_string()];
    let values = [
        m.accesses,
        m.misses,
        m.misses_vs_drrip,
        m.read_misses,
        m.write_misses,
        m.read_misses_vs_drrip,
        h.tex,
        h.rt,
        h.z,
        h.all,
        m.tex_hits_inter,
        m.tex_hits_intra,
        m.rt_consumed_fraction,
    ];
    row.extend(values.map(|v| v.to_string()));
    row.push(opt(m.rt_fills_at_max_rrpv));
    row.push(opt(m.tex_fills_at_max_rrpv));
    row.extend([m.writebacks, m.fps, m.fps_vs_drrip].map(|v| v.to_string()));
    row.extend(
        timing_configs(r)
            .iter()
            .map(|c| opt(m.timing.get(&c.name).map(|t| t.fps))),
    );
    row
}

fn stream_mix(r: &GspcSuite) -> Vec<Vec<String>> {
    let head = header(&["scene", "stream", "accesses", "fraction"]);
    let scenes = r.scenes.iter().flat_map(|s| {
        s.report.stream_mix.iter().map(|m| {
            let row = vec![
                m.stream.clone(),
                m.accesses.to_string(),
                m.fraction.to_string(),
            ];
            scene_row(&s.scene, row)
        })
    });
    let means = r.mean.stream_mix.iter().map(|m| {
        scene_row(
            MEAN,
            vec![m.stream.clone(), String::new(), m.fraction.to_string()],
        )
    });
    std::iter::once(head).chain(scenes).chain(means).collect()
}

/// Hit shares and death ratios per (stream, epoch); E>=3 has no death
/// ratio.
fn opt_epochs(r: &GspcSuite) -> Vec<Vec<String>> {
    let head = header(&["scene", "stream", "epoch", "hit_share", "death_ratio"]);
    let rows = |scene: &str, stream: &str, share: [f64; 4], death: [f64; 3]| {
        let scene = scene.to_string();
        let stream = stream.to_string();
        (0..4).map(move |k| {
            vec![
                scene.clone(),
                stream.clone(),
                EPOCHS[k].to_string(),
                share[k].to_string(),
                opt(death.get(k).copied()),
            ]
        })
    };
    let mut out = vec![head];
    for s in &r.scenes {
        let e = &s.report.opt_epochs;
        out.extend(rows(
            &s.scene,
            "tex",
            e.tex.hit_share_by_epoch,
            e.tex.death_ratios,
        ));
        out.extend(rows(
            &s.scene,
            "z",
            e.z.hit_share_by_epoch,
            e.z.death_ratios,
        ));
    }
    let m = &r.mean.opt_epochs;
    let mean = |stream, e: &EpochsMean| rows(MEAN, stream, e.hit_share_by_epoch, e.death_ratios);
    out.extend(mean("tex", &m.tex));
    out.extend(mean("z", &m.z));
    out
}

fn t_sensitivity(r: &GspcSuite) -> Vec<Vec<String>> {
    let head = header(&["scene", "t", "misses", "change_vs_t16"]);
    let scenes = r.scenes.iter().flat_map(|s| {
        s.report.t_sensitivity.iter().map(|p| {
            let row = vec![
                p.t.to_string(),
                p.misses.to_string(),
                p.change_vs_t16.to_string(),
            ];
            scene_row(&s.scene, row)
        })
    });
    let means = r.mean.t_sensitivity.iter().map(|p| {
        scene_row(
            MEAN,
            vec![p.t.to_string(), String::new(), p.change_vs_t16.to_string()],
        )
    });
    std::iter::once(head).chain(scenes).chain(means).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gspc::suite::test_suite::suite;
    use crate::report::read_csv as read;

    #[test]
    fn policies_csv_has_a_row_per_scene_and_run_then_the_means() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let r = suite();
        write_all(&r, dir.path())?;
        let rows = read(&dir.path().join("policies.csv"))?;
        let runs = r.scenes[0].report.policies.len();
        assert_eq!(rows.len(), 1 + 3 * runs);
        assert_eq!(rows[0][..3], ["scene", "policy", "size"]);
        assert!(rows.iter().all(|row| row.len() == rows[0].len()));
        assert_eq!(rows[1][0], "a<1>");
        assert_eq!(rows[1 + runs][0], "b");
        let mean = &rows[1 + 2 * runs];
        assert_eq!(mean[..2], ["mean", "drrip"]);
        let misses = |row: &Vec<String>| row[4].parse::<f64>().unwrap();
        let expected = (misses(&rows[1]) + misses(&rows[1 + runs])) / 2.0;
        assert!((misses(mean) - expected).abs() < 1e-9);
        // The header's timing column is filled in the mean's row too.
        assert_eq!(rows[0][21], "fps_ddr3-1867");
        assert!(!mean[21].is_empty());
        Ok(())
    }

    #[test]
    fn small_tables_end_with_the_means() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let r = suite();
        write_all(&r, dir.path())?;
        let t = read(&dir.path().join("t_sensitivity.csv"))?;
        assert_eq!(t.len(), 1 + 3 * r.mean.t_sensitivity.len());
        assert_eq!(t.last().unwrap()[0], "mean");
        let e = read(&dir.path().join("opt_epochs.csv"))?;
        assert_eq!(e.len(), 1 + 3 * 8);
        assert_eq!(e[4][2], "E>=3");
        assert_eq!(e[4][4], "");
        Ok(())
    }
}
