//! The study's tables as CSV, for spreadsheets and scripts: `policies.csv`,
//! `frames.csv`, `stream_mix.csv`, `opt_epochs.csv`, `t_sensitivity.csv`,
//! and the timelines' `passes.csv` and `timeline.csv`. Numbers are
//! written in full precision; a value the study did not measure is empty.

use std::path::{Path, PathBuf};

use crate::report::write_csvs;
use gfxcache_llc::study::report::{Epochs, GspcReport, PolicyResult, TimingConfig};
use gfxcache_llc::study::timeline::{Interval, Timeline};

/// The epochs' names, as the paper writes them.
pub(in crate::gspc) const EPOCHS: [&str; 4] = ["E0", "E1", "E2", "E>=3"];

/// Writes the CSV files into `dir` and returns their paths.
pub fn write_all(report: &GspcReport, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let files = [
        ("policies.csv", policies(report)),
        ("frames.csv", frames(report)),
        ("stream_mix.csv", stream_mix(report)),
        ("opt_epochs.csv", opt_epochs(report)),
        ("t_sensitivity.csv", t_sensitivity(report)),
        ("passes.csv", passes(report)),
        ("timeline.csv", timeline(report)),
    ];
    write_csvs(dir, files)
}

/// One row per (policy, size) run; then one `fps_<name>` column per timing
/// configuration, so every configuration's frame rate sits beside the others.
fn policies(report: &GspcReport) -> Vec<Vec<String>> {
    let header = policies_header(&report.timing_configs);
    let rows = report.policies.iter().map(|p| policy_row(report, p));
    std::iter::once(header).chain(rows).collect()
}

/// The columns of `policies.csv`, with an `fps_<name>` column per timing
/// configuration of `timing`.
pub(in crate::gspc) fn policies_header(timing: &[TimingConfig]) -> Vec<String> {
    let mut header: Vec<String> = [
        "policy",
        "size",
        "accesses",
        "misses",
        "misses_vs_drrip",
        "read_misses",
        "write_misses",
        "read_misses_vs_drrip",
        "hit_rate_tex",
        "hit_rate_rt",
        "hit_rate_z",
        "hit_rate_all",
        "tex_hits_inter",
        "tex_hits_intra",
        "rt_consumed_fraction",
        "rt_fills_at_max_rrpv",
        "tex_fills_at_max_rrpv",
        "writebacks",
        "fps",
        "fps_vs_drrip",
    ]
    .map(String::from)
    .to_vec();
    header.extend(timing.iter().map(|c| format!("fps_{}", c.name)));
    header
}

/// One row per counted frame of every run, then the run's mean (`frame`
/// is `mean`); timing under the baseline machine.
fn frames(report: &GspcReport) -> Vec<Vec<String>> {
    let header = [
        "policy",
        "size",
        "frame",
        "accesses",
        "misses",
        "hit_rate_tex",
        "hit_rate_rt",
        "hit_rate_z",
        "hit_rate_all",
        "frame_ms",
        "fps",
    ]
    .map(String::from)
    .to_vec();
    let mut rows = vec![header];
    for p in &report.policies {
        let run = [p.policy.clone(), p.size.to_string()];
        for f in &p.per_frame {
            let counts = [f.accesses, f.misses].map(|n| n.to_string());
            let h = &f.hit_rate;
            let rates = [h.tex, h.rt, h.z, h.all, f.frame_ms, f.fps].map(|x| x.to_string());
            rows.push(
                run.iter()
                    .cloned()
                    .chain([f.frame.to_string()])
                    .chain(counts)
                    .chain(rates)
                    .collect(),
            );
        }
        let m = &p.mean_per_frame;
        let h = &m.hit_rate;
        let values = [
            m.accesses, m.misses, h.tex, h.rt, h.z, h.all, m.frame_ms, m.fps,
        ];
        rows.push(
            run.iter()
                .cloned()
                .chain(["mean".to_string()])
                .chain(values.map(|x| x.to_string()))
                .collect(),
        );
    }
    rows
}

pub(in crate::gspc) fn policy_row(report: &GspcReport, p: &PolicyResult) -> Vec<String> {
    let mut row = vec![
        p.policy.clone(),
        p.size.to_string(),
        p.accesses.to_string(),
        p.misses.to_string(),
        p.misses_vs_drrip.to_string(),
        p.read_misses.to_string(),
        p.write_misses.to_string(),
        p.read_misses_vs_drrip.to_string(),
        p.hit_rate.tex.to_string(),
        p.hit_rate.rt.to_string(),
        p.hit_rate.z.to_string(),
        p.hit_rate.all.to_string(),
        p.tex_hits_inter.to_string(),
        p.tex_hits_intra.to_string(),
        p.rt_consumed_fraction.to_string(),
        opt(p.rt_fills_at_max_rrpv),
        opt(p.tex_fills_at_max_rrpv),
        p.writebacks.to_string(),
        p.fps.to_string(),
        p.fps_vs_drrip.to_string(),
    ];
    row.extend(
        report
            .timing_configs
            .iter()
            .map(|c| opt(p.timing.get(&c.name).map(|t| t.fps))),
    );
    row
}

/// The columns of an [`Interval`], after the run's and the row's own.
const INTERVAL: [&str; 17] = [
    "accesses",
    "read_misses",
    "write_misses",
    "rt_fills_rrpv3",
    "rt_fills_rrpv2",
    "rt_fills_rrpv1",
    "rt_fills_rrpv0",
    "tex_fills_rrpv3",
    "tex_fills_rrpv2",
    "tex_fills_rrpv1",
    "tex_fills_rrpv0",
    "z_fills_rrpv3",
    "z_fills_rrpv2",
    "z_fills_rrpv1",
    "z_fills_rrpv0",
    "rt_consumed",
    "rt_fills_at_max",
];

/// An interval's cells, in [`INTERVAL`]'s order. RRPV bands are named as
/// two-bit RRPVs (the band below the largest is `rrpv2`, ...), which they
/// are for every policy that keeps a timeline by default.
fn interval_cells(i: &Interval) -> impl Iterator<Item = String> + '_ {
    [i.accesses, i.read_misses, i.write_misses]
        .into_iter()
        .chain(i.rt_fills_by_rrpv)
        .chain(i.tex_fills_by_rrpv)
        .chain(i.z_fills_by_rrpv)
        .chain([i.rt_consumed])
        .map(|n| n.to_string())
        .chain([i.rt_fills_at_max().to_string()])
}

/// The policy counters a timeline names, in a fixed set of columns: those
/// of every timeline of the report, empty where a policy has no such one.
fn state_names(report: &GspcReport) -> Vec<&str> {
    let mut names: Vec<&str> = Vec::new();
    for n in report.timelines.iter().flat_map(|t| &t.state) {
        if !names.contains(&n.as_str()) {
            names.push(n);
        }
    }
    names
}

fn state_cells<'a>(
    t: &'a Timeline,
    names: &'a [&str],
    values: &'a [f64],
) -> impl Iterator<Item = String> + 'a {
    names.iter().map(move |n| {
        t.state
            .iter()
            .position(|s| s == n)
            .and_then(|i| values.get(i))
            .map_or(String::new(), |v| v.to_string())
    })
}

/// One row per pass of every timeline: the pass's totals, and the
/// policy's counters at its end and on average over it.
fn passes(report: &GspcReport) -> Vec<Vec<String>> {
    let names = state_names(report);
    let head = ["policy", "size", "frame", "pass", "kind", "points"]
        .into_iter()
        .chain(INTERVAL)
        .map(String::from)
        .chain(names.iter().map(|n| format!("{n}_end")))
        .chain(names.iter().map(|n| format!("{n}_mean")));
    let mut rows = vec![head.collect()];
    for t in &report.timelines {
        for s in &t.passes {
            let row = [t.policy.clone(), t.size.to_string(), s.frame.to_string()]
                .into_iter()
                .chain([s.name.clone(), s.kind.clone(), s.points.to_string()])
                .chain(interval_cells(&s.totals))
                .chain(state_cells(t, &names, &s.state_end))
                .chain(state_cells(t, &names, &s.state_mean));
            rows.push(row.collect());
        }
    }
    rows
}

/// One row per point of every timeline.
fn timeline(report: &GspcReport) -> Vec<Vec<String>> {
    let names = state_names(report);
    let head = ["policy", "size", "frame", "pass", "at"]
        .into_iter()
        .chain(INTERVAL)
        .map(String::from)
        .chain(names.iter().map(|n| n.to_string()));
    let mut rows = vec![head.collect()];
    for t in &report.timelines {
        for p in &t.points {
            let pass = t
                .passes
                .get(p.pass as usize)
                .map_or("", |s| s.name.as_str());
            let row = [t.policy.clone(), t.size.to_string(), p.frame.to_string()]
                .into_iter()
                .chain([pass.to_string(), p.at.to_string()])
                .chain(interval_cells(&p.interval))
                .chain(state_cells(t, &names, &p.state));
            rows.push(row.collect());
        }
    }
    rows
}

fn stream_mix(report: &GspcReport) -> Vec<Vec<String>> {
    let header = vec!["stream".into(), "accesses".into(), "fraction".into()];
    let rows = report.stream_mix.iter().map(|s| {
        vec![
            s.stream.clone(),
            s.accesses.to_string(),
            s.fraction.to_string(),
        ]
    });
    std::iter::once(header).chain(rows).collect()
}

/// One row per (stream, epoch) of OPT's epoch analyses; E>=3 has no death
/// ratio, as the paper tracks death only out of E0, E1 and E2.
fn opt_epochs(report: &GspcReport) -> Vec<Vec<String>> {
    let header = [
        "stream",
        "epoch",
        "hits",
        "hit_share",
        "entries",
        "resident",
        "death_ratio",
    ]
    .map(String::from)
    .to_vec();
    let e = &report.opt_epochs;
    let rows = epoch_rows("tex", &e.tex).chain(epoch_rows("z", &e.z));
    std::iter::once(header).chain(rows).collect()
}

fn epoch_rows<'a>(stream: &'a str, e: &'a Epochs) -> impl Iterator<Item = Vec<String>> + 'a {
    (0..4).map(move |k| {
        vec![
            stream.to_string(),
            EPOCHS[k].to_string(),
            e.hits_by_epoch[k].to_string(),
            e.hit_share_by_epoch[k].to_string(),
            e.entries[k].to_string(),
            e.resident[k].to_string(),
            opt(e.death_ratios.get(k).copied()),
        ]
    })
}

fn t_sensitivity(report: &GspcReport) -> Vec<Vec<String>> {
    let header = vec!["t".into(), "misses".into(), "change_vs_t16".into()];
    let rows = report.t_sensitivity.iter().map(|p| {
        vec![
            p.t.to_string(),
            p.misses.to_string(),
            p.change_vs_t16.to_string(),
        ]
    });
    std::iter::once(header).chain(rows).collect()
}

/// A measured value, or an empty cell for one the study did not measure.
pub(in crate::gspc) fn opt(v: Option<f64>) -> String {
    v.map(|v| v.to_string()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gspc::test_report::report;
    use crate::report::read_csv as read;
    use anyhow::Context;

    #[test]
    fn policies_csv_has_a_row_per_run_and_the_columns() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let r = report();
        write_all(&r, dir.path())?;
        let rows = read(&dir.path().join("policies.csv"))?;
        assert_eq!(rows.len(), 1 + r.policies.len());
        let header = &rows[0];
        assert_eq!(header.len(), 20 + r.timing_configs.len());
        assert_eq!(header[0], "policy");
        assert_eq!(header[4], "misses_vs_drrip");
        assert_eq!(
            header[5..8],
            ["read_misses", "write_misses", "read_misses_vs_drrip"]
        );
        assert_eq!(header[19], "fps_vs_drrip");
        assert_eq!(header[20], "fps_ddr3-1867");
        assert!(rows.iter().all(|row| row.len() == header.len()));
        assert_eq!(rows[1][0], r.policies[0].policy);
        assert_eq!(rows[1][3], r.policies[0].misses.to_string());
        Ok(())
    }

    #[test]
    fn frames_csv_has_each_counted_frame_and_the_mean() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let r = report();
        write_all(&r, dir.path())?;
        let rows = read(&dir.path().join("frames.csv"))?;
        assert_eq!(rows[0][..3], ["policy", "size", "frame"]);
        // Per run: its two counted frames, then the mean.
        assert_eq!(rows.len(), 1 + 3 * r.policies.len());
        let drrip: Vec<&Vec<String>> = rows.iter().filter(|x| x[0] == "drrip").collect();
        assert_eq!(drrip[0][2], "1");
        assert_eq!(drrip[1][2], "2");
        assert_eq!(drrip[2][2], "mean");
        let fps = |row: &Vec<String>| row[10].parse::<f64>().unwrap();
        assert!((fps(drrip[2]) - (fps(drrip[0]) + fps(drrip[1])) / 2.0).abs() < 1e-9);
        Ok(())
    }

    #[test]
    fn passes_and_timeline_csv_have_a_row_per_pass_and_point() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let r = report();
        write_all(&r, dir.path())?;
        let passes = read(&dir.path().join("passes.csv"))?;
        let head = &passes[0];
        assert_eq!(
            head[..6],
            ["policy", "size", "frame", "pass", "kind", "points"]
        );
        // The counters of every timeline, at the end and on average.
        for c in ["prod_end", "cons_end", "psel_end", "prod_mean", "psel_mean"] {
            assert!(head.iter().any(|h| h == c), "{c}");
        }
        assert_eq!(passes.len(), 1 + 2 * 4);
        assert!(passes.iter().all(|row| row.len() == head.len()));
        let col = |name: &str| head.iter().position(|h| h == name).unwrap();
        let gspc_lighting = &passes[2];
        assert_eq!(gspc_lighting[3], "lighting & <fog>");
        assert_eq!(gspc_lighting[col("accesses")], "2000");
        // DRRIP has no PROD: an empty cell, not a zero.
        let drrip = passes.iter().find(|row| row[0] == "drrip").unwrap();
        assert_eq!(drrip[col("prod_end")], "");
        assert_eq!(drrip[col("psel_end")], "7");
        let points = read(&dir.path().join("timeline.csv"))?;
        assert_eq!(points.len(), 1 + 2 * 8);
        assert_eq!(points[1][..5], ["gspc", "8388608", "0", "gbuffer", "1000"]);
        Ok(())
    }

    #[test]
    fn unmeasured_values_are_empty_cells() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        write_all(&report(), dir.path())?;
        let rows = read(&dir.path().join("policies.csv"))?;
        let opt = rows.iter().find(|r| r[0] == "opt").context("no opt row")?;
        assert_eq!(opt[15], "");
        let epochs = read(&dir.path().join("opt_epochs.csv"))?;
        assert_eq!(epochs.len(), 1 + 8);
        assert_eq!(epochs[4][1], "E>=3");
        assert_eq!(epochs[4][6], "");
        Ok(())
    }

    #[test]
    fn small_tables_have_a_row_per_entry() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let r = report();
        write_all(&r, dir.path())?;
        let mix = read(&dir.path().join("stream_mix.csv"))?;
        assert_eq!(mix.len(), 1 + r.stream_mix.len());
        let t = read(&dir.path().join("t_sensitivity.csv"))?;
        assert_eq!(t.len(), 1 + r.t_sensitivity.len());
        assert_eq!(t[0], ["t", "misses", "change_vs_t16"]);
        Ok(())
    }
}
