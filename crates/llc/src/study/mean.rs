//! The GSPC study's mean over the scenes of a suite, as the paper averages
//! its applications (Figures 4-17: each application's figure, then the
//! average).
//!
//! Every figure is the arithmetic mean of the scenes' figures: a ratio
//! (misses or frame rate over DRRIP's, a hit rate, a share) is the mean of
//! the scenes' ratios, not the ratio of summed counts, so each scene weighs
//! the same however many accesses it makes; a count is the mean count per
//! scene. A run is averaged when every scene has it (a suite runs one
//! configuration, so all of them do); a figure a scene does not have (a
//! policy without RRPVs) has no mean.

use std::collections::BTreeMap;

use gfxcache_cache::suite::{mean, mean_of_all, SuiteMean};
use serde::Serialize;

use super::report::{GspcReport, HitRates, PolicyResult};

/// The mean of a GSPC study over the scenes of a suite.
#[derive(Serialize, Clone, Debug)]
pub struct GspcMean {
    /// How many scenes the mean is over.
    pub scenes: u32,
    /// One entry per (policy, size) run every scene made, in the first
    /// scene's order.
    pub policies: Vec<PolicyMean>,
    /// Share of LLC accesses per stream (Figure 4); a stream a scene does
    /// not access has a share of 0 there.
    pub stream_mix: Vec<StreamShareMean>,
    /// OPT's epoch analyses at the main size (Figures 7 and 9).
    pub opt_epochs: OptEpochsMean,
    /// GSPZTC's change in misses relative to `t = 16` (Figure 11), for each
    /// `t` every scene ran.
    pub t_sensitivity: Vec<TPointMean>,
}

/// One (policy, size) run, averaged over the scenes. The fields are those
/// of [`PolicyResult`] of the same name.
#[derive(Serialize, Clone, Debug)]
pub struct PolicyMean {
    pub policy: String,
    pub size: u64,
    pub accesses: f64,
    pub misses: f64,
    pub misses_vs_drrip: f64,
    pub read_misses: f64,
    pub write_misses: f64,
    pub read_misses_vs_drrip: f64,
    pub hit_rate: HitRates,
    pub tex_hits_inter: f64,
    pub tex_hits_intra: f64,
    pub rt_consumed_fraction: f64,
    pub rt_fills_at_max_rrpv: Option<f64>,
    pub tex_fills_at_max_rrpv: Option<f64>,
    pub writebacks: f64,
    pub fps: f64,
    pub fps_vs_drrip: f64,
    /// Per timing configuration that ran in every scene.
    pub timing: BTreeMap<String, TimingMean>,
}

#[derive(Serialize, Clone, Debug)]
pub struct TimingMean {
    pub frame_ms: f64,
    pub fps: f64,
    pub fps_vs_drrip: f64,
}

#[derive(Serialize, Clone, Debug)]
pub struct StreamShareMean {
    pub stream: String,
    pub fraction: f64,
}

#[derive(Serialize, Clone, Debug, Default)]
pub struct EpochsMean {
    pub hit_share_by_epoch: [f64; 4],
    pub death_ratios: [f64; 3],
}

#[derive(Serialize, Clone, Debug, Default)]
pub struct OptEpochsMean {
    pub tex: EpochsMean,
    pub z: EpochsMean,
    pub tex_inter_share: f64,
}

#[derive(Serialize, Clone, Debug)]
pub struct TPointMean {
    pub t: u32,
    pub change_vs_t16: f64,
}

impl SuiteMean for GspcReport {
    type Mean = GspcMean;

    fn suite_mean(reports: &[&GspcReport]) -> GspcMean {
        let Some(first) = reports.first() else {
            return GspcMean {
                scenes: 0,
                policies: Vec::new(),
                stream_mix: Vec::new(),
                opt_epochs: OptEpochsMean::default(),
                t_sensitivity: Vec::new(),
            };
        };
        let policies = first
            .policies
            .iter()
            .filter_map(|p| {
                let runs: Option<Vec<&PolicyResult>> =
                    reports.iter().map(|r| find(r, &p.policy, p.size)).collect();
                Some(policy_mean(&runs?))
            })
            .collect();
        GspcMean {
            scenes: reports.len() as u32,
            policies,
            stream_mix: stream_mix(reports),
            opt_epochs: opt_epochs(reports),
            t_sensitivity: t_sensitivity(reports),
        }
    }

    fn warnings(&self) -> &[String] {
        &self.warnings
    }
}

fn find<'a>(r: &'a GspcReport, policy: &str, size: u64) -> Option<&'a PolicyResult> {
    r.policies
        .iter()
        .find(|p| p.policy == policy && p.size == size)
}

/// The mean of `f` over `items`.
fn over<T>(items: &[T], f: impl Fn(&T) -> f64) -> f64 {
    mean(items.iter().map(f))
}

/// One run's mean over the scenes (`runs`: one per scene, at least one).
fn policy_mean(runs: &[&PolicyResult]) -> PolicyMean {
    let first = runs[0];
    let timing = first
        .timing
        .keys()
        .filter_map(|name| {
            let t: Option<Vec<_>> = runs.iter().map(|p| p.timing.get(name)).collect();
            let t = t?;
            Some((
                name.clone(),
                TimingMean {
                    frame_ms: over(&t, |t| t.frame_ms),
                    fps: over(&t, |t| t.fps),
                    fps_vs_drrip: over(&t, |t| t.fps_vs_drrip),
                },
            ))
        })
        .collect();
    PolicyMean {
        policy: first.policy.clone(),
        size: first.size,
        accesses: over(runs, |p| p.accesses as f64),
        misses: over(runs, |p| p.misses as f64),
        misses_vs_drrip: over(runs, |p| p.misses_vs_drrip),
        read_misses: over(runs, |p| p.read_misses as f64),
        write_misses: over(runs, |p| p.write_misses as f64),
        read_misses_vs_drrip: over(runs, |p| p.read_misses_vs_drrip),
        hit_rate: HitRates {
            tex: over(runs, |p| p.hit_rate.tex),
            rt: over(runs, |p| p.hit_rate.rt),
            z: over(runs, |p| p.hit_rate.z),
            all: over(runs, |p| p.hit_rate.all),
        },
        tex_hits_inter: over(runs, |p| p.tex_hits_inter as f64),
        tex_hits_intra: over(runs, |p| p.tex_hits_intra as f64),
        rt_consumed_fraction: over(runs, |p| p.rt_consumed_fraction),
        rt_fills_at_max_rrpv: mean_of_all(runs.iter().map(|p| p.rt_fills_at_max_rrpv)),
        tex_fills_at_max_rrpv: mean_of_all(runs.iter().map(|p| p.tex_fills_at_max_rrpv)),
        writebacks: over(runs, |p| p.writebacks as f64),
        fps: over(runs, |p| p.fps),
        fps_vs_drrip: over(runs, |p| p.fps_vs_drrip),
        timing,
    }
}

/// Every stream some scene accesses, in the order first met.
fn stream_mix(reports: &[&GspcReport]) -> Vec<StreamShareMean> {
    let mut streams: Vec<&str> = Vec::new();
    for s in reports.iter().flat_map(|r| &r.stream_mix) {
        if !streams.contains(&s.stream.as_str()) {
            streams.push(&s.stream);
        }
    }
    streams
        .into_iter()
        .map(|stream| StreamShareMean {
            stream: stream.to_string(),
            fraction: over(reports, |r| {
                r.stream_mix
                    .iter()
                    .find(|s| s.stream == stream)
                    .map_or(0.0, |s| s.fraction)
            }),
        })
        .collect()
}

fn opt_epochs(reports: &[&GspcReport]) -> OptEpochsMean {
    let epochs = |f: fn(&GspcReport) -> &super::report::Epochs| EpochsMean {
        hit_share_by_epoch: std::array::from_fn(|k| over(reports, |r| f(r).hit_share_by_epoch[k])),
        death_ratios: std::array::from_fn(|k| over(reports, |r| f(r).death_ratios[k])),
    };
    OptEpochsMean {
        tex: epochs(|r| &r.opt_epochs.tex),
        z: epochs(|r| &r.opt_epochs.z),
        tex_inter_share: over(reports, |r| r.opt_epochs.tex_inter_share),
    }
}

fn t_sensitivity(reports: &[&GspcReport]) -> Vec<TPointMean> {
    reports[0]
        .t_sensitivity
        .iter()
        .filter_map(|p| {
            let changes: Option<Vec<f64>> = reports
                .iter()
                .map(|r| {
                    let q = r.t_sensitivity.iter().find(|q| q.t == p.t)?;
                    Some(q.change_vs_t16)
                })
                .collect();
            Some(TPointMean {
                t: p.t,
                change_vs_t16: mean(changes?),
            })
        })
        .collect()
}
