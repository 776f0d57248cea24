//! The mean over a suite's scenes: each figure's percent changes (and
//! miss rates) averaged over the scenes that have them, the way the
//! slides' benchmark averages would be read.

use gfxcache_cache::SuiteMean;
use serde::{Deserialize, Serialize};

use crate::config::Mode;
use crate::study::report::NbtcReport;

/// One design at one latency on one filter mode, over the scenes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MeanRow {
    pub filter: String,
    pub mode: Mode,
    pub latency: u64,
    pub cycles_change: f64,
    pub frame_cycles_change: f64,
    pub traffic_change: f64,
    pub miss_rate: f64,
    /// Scenes averaged.
    pub scenes: usize,
}

/// One sweep point's NBTC cycles change over the scenes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MeanSweepPoint {
    pub knob: String,
    pub value: u64,
    /// The NBTC's buffers at this value, bytes (the same in every scene).
    pub storage_bytes: u64,
    pub cycles_change: f64,
    pub traffic_change: f64,
    pub scenes: usize,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NbtcMean {
    pub scenes: Vec<String>,
    pub rows: Vec<MeanRow>,
    pub sweeps: Vec<MeanSweepPoint>,
}

fn mean(v: &[f64]) -> f64 {
    if v.is_empty() {
        0.0
    } else {
        v.iter().sum::<f64>() / v.len() as f64
    }
}

impl SuiteMean for NbtcReport {
    type Mean = NbtcMean;

    fn suite_mean(reports: &[&NbtcReport]) -> NbtcMean {
        NbtcMean::of(reports)
    }

    fn warnings(&self) -> &[String] {
        &self.warnings
    }
}

impl NbtcMean {
    /// The mean of `reports`, in the first report's order of rows.
    pub fn of(reports: &[&NbtcReport]) -> NbtcMean {
        let mut rows = Vec::new();
        let mut sweeps = Vec::new();
        if let Some(first) = reports.first() {
            for f in &first.frames {
                for r in &f.runs {
                    let same: Vec<_> = reports
                        .iter()
                        .filter_map(|rep| rep.frames.iter().find(|g| g.filter == f.filter))
                        .filter_map(|g| g.row(r.mode, r.latency))
                        .collect();
                    let m = |get: fn(&crate::study::RunRow) -> f64| {
                        mean(&same.iter().map(|r| get(r)).collect::<Vec<_>>())
                    };
                    rows.push(MeanRow {
                        filter: f.filter.clone(),
                        mode: r.mode,
                        latency: r.latency,
                        cycles_change: m(|r| r.cycles_change),
                        frame_cycles_change: m(|r| r.frame_cycles_change),
                        traffic_change: m(|r| r.traffic_change),
                        miss_rate: m(|r| r.miss_rate),
                        scenes: same.len(),
                    });
                }
            }
            for s in &first.sweeps {
                for p in &s.points {
                    let same: Vec<_> = reports
                        .iter()
                        .filter_map(|rep| rep.sweeps.iter().find(|t| t.knob == s.knob))
                        .filter_map(|t| t.points.iter().find(|q| q.value == p.value))
                        .collect();
                    sweeps.push(MeanSweepPoint {
                        knob: s.knob.clone(),
                        value: p.value,
                        storage_bytes: p.storage_bytes,
                        cycles_change: mean(
                            &same
                                .iter()
                                .map(|q| q.nbtc.cycles_change)
                                .collect::<Vec<_>>(),
                        ),
                        traffic_change: mean(
                            &same
                                .iter()
                                .map(|q| q.nbtc.traffic_change)
                                .collect::<Vec<_>>(),
                        ),
                        scenes: same.len(),
                    });
                }
            }
        }
        NbtcMean {
            scenes: reports.iter().map(|r| r.name.clone()).collect(),
            rows,
            sweeps,
        }
    }

    pub fn row(&self, filter: &str, mode: Mode, latency: u64) -> Option<&MeanRow> {
        self.rows
            .iter()
            .find(|r| r.filter == filter && r.mode == mode && r.latency == latency)
    }
}
