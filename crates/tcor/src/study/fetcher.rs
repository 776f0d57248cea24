//! How Figures 23-24's Tile Fetcher throughput ratio depends on the
//! fetcher's timing: each run's fetched primitives and their L2 reads
//! timed again by other MSHR counts and memory latencies (Table I's
//! 50-100 cycles), and by the blocking fetcher, without simulating the L2
//! again (`FrameL2::with_fetcher_sweep`).

use std::collections::BTreeMap;

use gfxcache_cache::suite::mean;
use serde::Serialize;

use super::report::{EngineRun, ENGINES};
use crate::{FetcherModel, FetcherTiming};

/// The timings of the sweep: at each memory latency, the blocking fetcher
/// and the non-blocking one with each MSHR count (everything else as the
/// study's fetcher).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FetcherSweep {
    pub mshrs: Vec<u32>,
    pub memory_cycles: Vec<u32>,
}

impl Default for FetcherSweep {
    /// 1 to 64 MSHRs by fours, at Table I's 50, 75 and 100 cycles.
    fn default() -> FetcherSweep {
        FetcherSweep {
            mshrs: vec![1, 4, 16, 64],
            memory_cycles: vec![50, 75, 100],
        }
    }
}

impl FetcherSweep {
    /// No sweep.
    pub fn none() -> FetcherSweep {
        FetcherSweep {
            mshrs: Vec::new(),
            memory_cycles: Vec::new(),
        }
    }

    /// The timings, memory latency by memory latency: blocking first, then
    /// each MSHR count; the rest of each is `base`'s.
    pub fn points(&self, base: &FetcherTiming) -> Vec<FetcherTiming> {
        let mut out = Vec::new();
        for &memory_cycles in &self.memory_cycles {
            let at = FetcherTiming {
                memory_cycles,
                ..*base
            };
            out.push(at.blocking());
            out.extend(self.mshrs.iter().map(|&mshrs| FetcherTiming {
                model: FetcherModel::NonBlocking,
                mshrs,
                ..at
            }));
        }
        out
    }
}

/// One timing of the sweep at one Tile Cache size.
#[derive(Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub struct SensitivityPoint {
    pub model: FetcherModel,
    /// `None` for the blocking fetcher.
    pub mshrs: Option<u32>,
    pub memory_cycles: u32,
    /// Primitives per cycle, by engine ([`ENGINES`]).
    pub primitives_per_cycle: BTreeMap<String, f64>,
    /// TCOR's over the baseline's (0 without a baseline).
    pub speedup: f64,
}

impl SensitivityPoint {
    fn of(t: &FetcherTiming) -> SensitivityPoint {
        SensitivityPoint {
            model: t.model,
            mshrs: (t.model == FetcherModel::NonBlocking).then_some(t.mshrs),
            memory_cycles: t.memory_cycles,
            primitives_per_cycle: BTreeMap::new(),
            speedup: 0.0,
        }
    }

    /// Whether `o` is the same timing.
    fn same_timing(&self, o: &SensitivityPoint) -> bool {
        (self.model, self.mshrs, self.memory_cycles) == (o.model, o.mshrs, o.memory_cycles)
    }
}

/// The sweep's points by Tile Cache size, each run's fetcher in
/// `fetcher_sweep` in the order of `points`.
pub fn sensitivity(
    points: &[FetcherTiming],
    runs: &[EngineRun],
) -> BTreeMap<String, Vec<SensitivityPoint>> {
    let mut out: BTreeMap<String, Vec<SensitivityPoint>> = BTreeMap::new();
    if points.is_empty() {
        return out;
    }
    for run in runs {
        let at = out
            .entry(run.tile_cache.clone())
            .or_insert_with(|| points.iter().map(SensitivityPoint::of).collect());
        for (p, s) in at.iter_mut().zip(&run.fetcher_sweep) {
            p.primitives_per_cycle
                .insert(run.engine.clone(), s.primitives_per_cycle);
        }
    }
    for p in out.values_mut().flatten() {
        let get = |e: &str| p.primitives_per_cycle.get(e).copied().unwrap_or(0.0);
        let (base, tcor) = (get(ENGINES[0]), get(ENGINES[2]));
        p.speedup = if base == 0.0 { 0.0 } else { tcor / base };
    }
    out
}

/// The mean over a suite's scenes: at each size, each point of the first
/// scene that every scene measured, its throughputs and speedups the mean
/// of the scenes' (each scene weighs the same).
pub fn mean_sensitivity(
    scenes: &[&BTreeMap<String, Vec<SensitivityPoint>>],
) -> BTreeMap<String, Vec<SensitivityPoint>> {
    let Some(first) = scenes.first() else {
        return BTreeMap::new();
    };
    let mut out = BTreeMap::new();
    for (size, points) in first.iter() {
        let mean_points = points
            .iter()
            .filter_map(|p| {
                let all: Option<Vec<&SensitivityPoint>> = scenes
                    .iter()
                    .map(|s| s.get(size)?.iter().find(|q| q.same_timing(p)))
                    .collect();
                let all = all?;
                let engines = p.primitives_per_cycle.keys().filter_map(|e| {
                    let v: Option<Vec<f64>> = all
                        .iter()
                        .map(|q| q.primitives_per_cycle.get(e).copied())
                        .collect();
                    Some((e.clone(), mean(v?)))
                });
                Some(SensitivityPoint {
                    primitives_per_cycle: engines.collect(),
                    speedup: mean(all.iter().map(|q| q.speedup)),
                    ..p.clone()
                })
            })
            .collect();
        out.insert(size.clone(), mean_points);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_points_are_blocking_then_each_mshr_count_at_each_latency() {
        let sweep = FetcherSweep {
            mshrs: vec![1, 16],
            memory_cycles: vec![50, 100],
        };
        let base = FetcherTiming::default();
        let p = sweep.points(&base);
        let got: Vec<(FetcherModel, u32, u32)> = p
            .iter()
            .map(|t| (t.model, t.mshrs, t.memory_cycles))
            .collect();
        use FetcherModel::*;
        assert_eq!(
            got,
            [
                (Blocking, 16, 50),
                (NonBlocking, 1, 50),
                (NonBlocking, 16, 50),
                (Blocking, 16, 100),
                (NonBlocking, 1, 100),
                (NonBlocking, 16, 100),
            ]
        );
        assert!(p.iter().all(|t| t.l2_cycles == base.l2_cycles
            && t.fifo_entries == base.fifo_entries
            && t.targets_per_mshr == base.targets_per_mshr));
        assert!(FetcherSweep::none().points(&base).is_empty());
    }

    fn point(mshrs: Option<u32>, base: f64, tcor: f64) -> SensitivityPoint {
        SensitivityPoint {
            model: if mshrs.is_some() {
                FetcherModel::NonBlocking
            } else {
                FetcherModel::Blocking
            },
            mshrs,
            memory_cycles: 75,
            primitives_per_cycle: BTreeMap::from([
                ("baseline".to_string(), base),
                ("tcor".to_string(), tcor),
            ]),
            speedup: tcor / base,
        }
    }

    /// The mean speedup is the mean of the scenes' speedups, and a point
    /// one scene lacks has no mean.
    #[test]
    fn the_mean_is_over_the_points_every_scene_has() {
        let a = BTreeMap::from([(
            "64KiB".to_string(),
            vec![point(None, 0.1, 0.2), point(Some(16), 0.5, 0.5)],
        )]);
        let b = BTreeMap::from([("64KiB".to_string(), vec![point(None, 0.1, 0.4)])]);
        let m = mean_sensitivity(&[&a, &b]);
        let p = &m["64KiB"];
        assert_eq!(p.len(), 1);
        assert!((p[0].speedup - 3.0).abs() < 1e-12);
        assert!((p[0].primitives_per_cycle["tcor"] - 0.3).abs() < 1e-12);
    }
}
