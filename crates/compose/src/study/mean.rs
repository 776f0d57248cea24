//! The mean over a suite's scenes: each run's measures
//! ([`super::tables::MEASURES`]: speedups, shares, waits) averaged over
//! the scenes, each scene weighing the same, as the suite's `runs` table
//! has them.

use std::collections::BTreeMap;

use gfxcache_cache::suite::{mean, SuiteMean};
use gfxcache_nuca::OrgKind;
use serde::{Deserialize, Serialize};

use super::tables::MEASURES;
use super::ComposeReport;

/// One miss handling under one placement, over the scenes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MeanRun {
    pub mode: String,
    pub placement: OrgKind,
    /// Each of [`MEASURES`] by its column's name.
    pub measures: BTreeMap<String, f64>,
    /// Scenes averaged.
    pub scenes: usize,
}

impl MeanRun {
    /// The mean of the measure in `column`.
    pub fn get(&self, column: &str) -> Option<f64> {
        self.measures.get(column).copied()
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ComposeMean {
    pub scenes: Vec<String>,
    /// In the first scene's order of runs.
    pub runs: Vec<MeanRun>,
}

impl ComposeMean {
    /// The mean of `reports`, in the first report's order of runs.
    pub fn of(reports: &[&ComposeReport]) -> ComposeMean {
        let runs = reports.first().map_or_else(Vec::new, |first| {
            first
                .runs
                .iter()
                .map(|run| {
                    let same: Vec<_> = reports
                        .iter()
                        .filter_map(|r| r.run(&run.mode, run.placement))
                        .collect();
                    MeanRun {
                        mode: run.mode.clone(),
                        placement: run.placement,
                        measures: MEASURES
                            .iter()
                            .map(|(name, _, of)| {
                                (name.to_string(), mean(same.iter().map(|r| of(r))))
                            })
                            .collect(),
                        scenes: same.len(),
                    }
                })
                .collect()
        });
        ComposeMean {
            scenes: reports.iter().map(|r| r.name.clone()).collect(),
            runs,
        }
    }

    /// The mean run of `mode` (by name) under `placement`.
    pub fn run(&self, mode: &str, placement: OrgKind) -> Option<&MeanRun> {
        self.runs
            .iter()
            .find(|r| r.mode == mode && r.placement == placement)
    }
}

impl SuiteMean for ComposeReport {
    type Mean = ComposeMean;

    fn suite_mean(reports: &[&ComposeReport]) -> ComposeMean {
        ComposeMean::of(reports)
    }

    fn warnings(&self) -> &[String] {
        &self.warnings
    }
}
