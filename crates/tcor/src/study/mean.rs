//! The TCOR study's mean over the scenes of a suite, as the paper averages
//! its ten games (Figures 11-24: each game's figure, then the average).
//!
//! Every figure is the arithmetic mean of the scenes' figures: a decrease,
//! a ratio over the baseline or a miss ratio is the mean of the scenes'
//! (each scene weighs the same however much traffic it makes), a count
//! the mean count per scene. A figure a scene does not have (a run it did
//! not make, a curve point past its sweep, a ratio over a baseline of 0)
//! has no mean.

use std::collections::BTreeMap;

use gfxcache_cache::suite::{mean, mean_of_all, SuiteMean};
use serde::Serialize;

use super::fetcher::{mean_sensitivity, SensitivityPoint};
use super::report::{Reductions, TcorReport, ENGINES};

/// The mean of a TCOR study over the scenes of a suite.
#[derive(Serialize, Clone, Debug)]
pub struct TcorMean {
    /// How many scenes the mean is over.
    pub scenes: u32,
    /// Table II: the mean frame's characteristics.
    pub frame: FrameMean,
    /// Section V-B's figures per (engine, Tile Cache size) run every scene
    /// made, in the first scene's order.
    pub engines: Vec<EngineMean>,
    /// The mean of the scenes' decreases versus the baseline, keyed by Tile
    /// Cache size, to set beside the paper's averages (`paper`).
    pub reductions: BTreeMap<String, Reductions>,
    pub paper: BTreeMap<String, Reductions>,
    /// The Attribute Cache curves' mean miss ratios and bounds, at each
    /// size every scene swept.
    pub curves: Vec<CurveMean>,
    /// Figures 23-24 by the fetcher's timing: the mean of the scenes'
    /// throughputs and speedups, at the points every scene measured.
    pub fetcher_sensitivity: BTreeMap<String, Vec<SensitivityPoint>>,
}

/// Table II per scene, averaged: the fields of
/// [`super::report::FrameCharacteristics`] and the report's render passes
/// and tiles.
#[derive(Serialize, Clone, Debug, Default)]
pub struct FrameMean {
    pub render_passes: f64,
    pub tiles: f64,
    pub primitives: f64,
    pub attributes: f64,
    pub tile_uses: f64,
    pub footprint_bytes: f64,
    pub largest_pass_footprint_bytes: f64,
    pub average_reuse: f64,
}

/// One Tiling Engine at one Tile Cache size, averaged over the scenes:
/// the figures of Section V-B, and each over the baseline's at the same
/// size (the mean of the scenes' ratios; `None` when a scene's baseline
/// is 0).
#[derive(Serialize, Clone, Debug)]
pub struct EngineMean {
    pub engine: String,
    pub tile_cache: String,
    pub pb_l2_accesses: f64,
    pub pb_dram_accesses: f64,
    pub dram_accesses: f64,
    pub energy_nj: f64,
    pub primitives_per_cycle: f64,
    pub pb_l2_vs_baseline: Option<f64>,
    pub pb_dram_vs_baseline: Option<f64>,
    pub dram_vs_baseline: Option<f64>,
    pub energy_vs_baseline: Option<f64>,
    pub primitives_per_cycle_vs_baseline: Option<f64>,
}

impl EngineMean {
    /// The mean of figure `f`.
    pub fn value(&self, f: EngineFigure) -> f64 {
        match f {
            EngineFigure::PbL2Accesses => self.pb_l2_accesses,
            EngineFigure::PbDramAccesses => self.pb_dram_accesses,
            EngineFigure::DramAccesses => self.dram_accesses,
            EngineFigure::EnergyNj => self.energy_nj,
            EngineFigure::PrimitivesPerCycle => self.primitives_per_cycle,
        }
    }

    /// The mean of figure `f` over the baseline's.
    pub fn vs_baseline(&self, f: EngineFigure) -> Option<f64> {
        match f {
            EngineFigure::PbL2Accesses => self.pb_l2_vs_baseline,
            EngineFigure::PbDramAccesses => self.pb_dram_vs_baseline,
            EngineFigure::DramAccesses => self.dram_vs_baseline,
            EngineFigure::EnergyNj => self.energy_vs_baseline,
            EngineFigure::PrimitivesPerCycle => self.primitives_per_cycle_vs_baseline,
        }
    }
}

#[derive(Serialize, Clone, Debug)]
pub struct CurveMean {
    pub policy: String,
    pub ways: String,
    pub points: Vec<CurvePointMean>,
}

#[derive(Serialize, Clone, Debug)]
pub struct CurvePointMean {
    pub bytes: u64,
    pub miss_ratio: f64,
    pub lower_bound_ratio: f64,
}

/// A figure of Section V-B, as a report's maps hold it by Tile Cache size
/// then engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineFigure {
    /// Parameter Buffer blocks to the L2 (Figures 14-15).
    PbL2Accesses,
    /// Parameter Buffer blocks to main memory (16-17).
    PbDramAccesses,
    /// All main-memory accesses (18-19).
    DramAccesses,
    /// Memory-hierarchy energy, nJ (20-21).
    EnergyNj,
    /// Tile Fetcher primitives per cycle (23-24).
    PrimitivesPerCycle,
}

impl EngineFigure {
    pub const ALL: [EngineFigure; 5] = [
        EngineFigure::PbL2Accesses,
        EngineFigure::PbDramAccesses,
        EngineFigure::DramAccesses,
        EngineFigure::EnergyNj,
        EngineFigure::PrimitivesPerCycle,
    ];

    /// The figure of `engine` at Tile Cache size `size` in `r`, if the
    /// study measured it.
    pub fn of(self, r: &TcorReport, size: &str, engine: &str) -> Option<f64> {
        fn count(m: &BTreeMap<String, BTreeMap<String, u64>>, s: &str, e: &str) -> Option<f64> {
            Some(*m.get(s)?.get(e)? as f64)
        }
        fn real(m: &BTreeMap<String, BTreeMap<String, f64>>, s: &str, e: &str) -> Option<f64> {
            m.get(s)?.get(e).copied()
        }
        match self {
            EngineFigure::PbL2Accesses => count(&r.pb_l2_accesses, size, engine),
            EngineFigure::PbDramAccesses => count(&r.pb_dram_accesses, size, engine),
            EngineFigure::DramAccesses => count(&r.dram_accesses, size, engine),
            EngineFigure::EnergyNj => real(&r.energy_nj, size, engine),
            EngineFigure::PrimitivesPerCycle => real(&r.primitives_per_cycle, size, engine),
        }
    }

    /// The figure of `engine` over the baseline's at the same Tile Cache
    /// size; `None` if either is missing or the baseline's is 0.
    pub fn vs_baseline(self, r: &TcorReport, size: &str, engine: &str) -> Option<f64> {
        let base = self.of(r, size, ENGINES[0]).filter(|b| *b > 0.0)?;
        Some(self.of(r, size, engine)? / base)
    }
}

impl SuiteMean for TcorReport {
    type Mean = TcorMean;

    fn suite_mean(reports: &[&TcorReport]) -> TcorMean {
        let engines = reports.first().map_or(Vec::new(), |first| {
            first
                .runs
                .iter()
                .filter_map(|run| engine_mean(reports, &run.engine, &run.tile_cache))
                .collect()
        });
        TcorMean {
            scenes: reports.len() as u32,
            frame: frame(reports),
            engines,
            reductions: reductions(reports),
            paper: super::paper::reductions(),
            curves: curves(reports),
            fetcher_sensitivity: mean_sensitivity(
                &reports
                    .iter()
                    .map(|r| &r.fetcher_sensitivity)
                    .collect::<Vec<_>>(),
            ),
        }
    }

    fn warnings(&self) -> &[String] {
        &self.warnings
    }
}

fn over(reports: &[&TcorReport], f: impl Fn(&TcorReport) -> f64) -> f64 {
    mean(reports.iter().map(|r| f(r)))
}

fn frame(reports: &[&TcorReport]) -> FrameMean {
    FrameMean {
        render_passes: over(reports, |r| r.render_passes as f64),
        tiles: over(reports, |r| r.tiles as f64),
        primitives: over(reports, |r| r.frame.primitives as f64),
        attributes: over(reports, |r| r.frame.attributes as f64),
        tile_uses: over(reports, |r| r.frame.tile_uses as f64),
        footprint_bytes: over(reports, |r| r.frame.footprint_bytes as f64),
        largest_pass_footprint_bytes: over(reports, |r| {
            r.frame.largest_pass_footprint_bytes as f64
        }),
        average_reuse: over(reports, |r| r.frame.average_reuse),
    }
}

/// `engine` at Tile Cache size `size` over the scenes, if every scene has
/// each of its figures.
fn engine_mean(reports: &[&TcorReport], engine: &str, size: &str) -> Option<EngineMean> {
    let absolute = |f: EngineFigure| -> Option<f64> {
        let v: Option<Vec<f64>> = reports.iter().map(|r| f.of(r, size, engine)).collect();
        Some(mean(v?))
    };
    let relative =
        |f: EngineFigure| mean_of_all(reports.iter().map(|r| f.vs_baseline(r, size, engine)));
    let [pb_l2, pb_dram, dram, energy, fetcher] = EngineFigure::ALL;
    Some(EngineMean {
        engine: engine.to_string(),
        tile_cache: size.to_string(),
        pb_l2_accesses: absolute(pb_l2)?,
        pb_dram_accesses: absolute(pb_dram)?,
        dram_accesses: absolute(dram)?,
        energy_nj: absolute(energy)?,
        primitives_per_cycle: absolute(fetcher)?,
        pb_l2_vs_baseline: relative(pb_l2),
        pb_dram_vs_baseline: relative(pb_dram),
        dram_vs_baseline: relative(dram),
        energy_vs_baseline: relative(energy),
        primitives_per_cycle_vs_baseline: relative(fetcher),
    })
}

/// The mean of the scenes' decreases at every Tile Cache size they all
/// have.
fn reductions(reports: &[&TcorReport]) -> BTreeMap<String, Reductions> {
    let Some(first) = reports.first() else {
        return BTreeMap::new();
    };
    first
        .reductions
        .keys()
        .filter_map(|size| {
            let all: Option<Vec<&Reductions>> =
                reports.iter().map(|r| r.reductions.get(size)).collect();
            let all = all?;
            let m = |f: fn(&Reductions) -> f64| mean(all.iter().map(|r| f(r)));
            Some((
                size.clone(),
                Reductions {
                    pb_l2_accesses: m(|r| r.pb_l2_accesses),
                    pb_dram_accesses: m(|r| r.pb_dram_accesses),
                    dram_accesses: m(|r| r.dram_accesses),
                    energy: m(|r| r.energy),
                    energy_no_l2: m(|r| r.energy_no_l2),
                    fetcher_speedup: m(|r| r.fetcher_speedup),
                },
            ))
        })
        .collect()
}

/// Every curve of the first scene that every scene swept, at the sizes
/// every scene's curve has (the fully associative curves run on to where
/// each scene's largest render pass fits, so their ends differ).
fn curves(reports: &[&TcorReport]) -> Vec<CurveMean> {
    let Some(first) = reports.first() else {
        return Vec::new();
    };
    first
        .curves
        .iter()
        .filter_map(|c| {
            let all: Option<Vec<_>> = reports
                .iter()
                .map(|r| {
                    r.curves
                        .iter()
                        .find(|d| d.policy == c.policy && d.ways == c.ways)
                })
                .collect();
            let all = all?;
            let points = c
                .points
                .iter()
                .filter_map(|p| {
                    let at: Option<Vec<_>> = all
                        .iter()
                        .map(|d| d.points.iter().find(|q| q.bytes == p.bytes))
                        .collect();
                    let at = at?;
                    Some(CurvePointMean {
                        bytes: p.bytes,
                        miss_ratio: mean(at.iter().map(|q| q.miss_ratio)),
                        lower_bound_ratio: mean(at.iter().map(|q| q.lower_bound_ratio)),
                    })
                })
                .collect();
            Some(CurveMean {
                policy: c.policy.clone(),
                ways: c.ways.clone(),
                points,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::study::report::{Curve, EngineRun, FrameCharacteristics, L2Setup, Reach};
    use crate::{FetcherTiming, SweepPoint, TileBuffers};
    use gfxcache_mem::EnergyModel;

    /// A report whose only figures are PB accesses to the L2 and to
    /// memory of the baseline and TCOR at 64 KiB, its decreases, and one
    /// curve of the points `(bytes, miss ratio)`.
    fn report(l2: [u64; 2], dram: [u64; 2], curve: &[(u64, f64)]) -> TcorReport {
        let at = |v: [u64; 2]| {
            BTreeMap::from([(
                "64KiB".to_string(),
                BTreeMap::from([("baseline".to_string(), v[0]), ("tcor".to_string(), v[1])]),
            )])
        };
        let decrease = |v: [u64; 2]| 100.0 * (v[0] as f64 - v[1] as f64) / v[0].max(1) as f64;
        let points = curve
            .iter()
            .map(|&(bytes, miss_ratio)| SweepPoint {
                bytes,
                entries: 0,
                lines: 0,
                accesses: 0,
                misses: 0,
                miss_ratio,
                lower_bound: 0,
                lower_bound_ratio: miss_ratio / 2.0,
                l2_reads: 0,
            })
            .collect();
        let real = |v: f64| {
            BTreeMap::from([(
                "64KiB".to_string(),
                BTreeMap::from([("baseline".to_string(), v), ("tcor".to_string(), v)]),
            )])
        };
        TcorReport {
            machine: None,
            trace: String::new(),
            binned: String::new(),
            scene: None,
            resolution: None,
            binning: None,
            render_passes: l2[0] / 100,
            tiles: 10,
            passes: Vec::new(),
            frame: FrameCharacteristics {
                primitives: l2[0],
                average_reuse: 2.0,
                ..FrameCharacteristics::default()
            },
            l2: L2Setup {
                bytes: 1 << 20,
                ways: 8,
                tile_buffers: TileBuffers::Memory,
                fetcher: FetcherTiming::default(),
                fetcher_sweep: Vec::new(),
                queue_depth: 0,
            },
            curves: vec![Curve {
                policy: "opt".into(),
                ways: "full".into(),
                points,
            }],
            reach: Reach {
                tolerance: 0.01,
                curves: Vec::new(),
                lru_over_opt_full: None,
            },
            lower_bound: BTreeMap::new(),
            runs: ["baseline", "tcor"].map(run).to_vec(),
            pb_l2_accesses: at(l2),
            pb_dram_accesses: at(dram),
            dram_accesses: at(l2),
            energy_nj: real(1.0),
            primitives_per_cycle: real(0.5),
            fetcher_sensitivity: BTreeMap::new(),
            reductions: BTreeMap::from([(
                "64KiB".to_string(),
                Reductions {
                    pb_l2_accesses: decrease(l2),
                    pb_dram_accesses: decrease(dram),
                    ..Reductions::default()
                },
            )]),
            paper: BTreeMap::new(),
            energy_model: EnergyModel::mobile(),
            other_l1: Vec::new(),
            frames: 1,
            warmup: 0,
            warnings: Vec::new(),
            seconds: BTreeMap::new(),
        }
    }

    fn run(engine: &str) -> EngineRun {
        EngineRun {
            engine: engine.to_string(),
            tile_cache: "64KiB".into(),
            about: String::new(),
            l2_policy: "lru".into(),
            stats: Default::default(),
            fetcher_sweep: Vec::new(),
            energy: Default::default(),
            per_frame: Vec::new(),
            mean_per_frame: Default::default(),
        }
    }

    fn engine<'a>(m: &'a TcorMean, name: &str) -> &'a EngineMean {
        m.engines.iter().find(|e| e.engine == name).unwrap()
    }

    /// Each scene weighs the same: the mean ratio is the mean of the
    /// scenes' ratios, not the ratio of the summed counts.
    #[test]
    fn ratios_are_means_of_the_scenes_ratios() {
        let a = report([1000, 500], [100, 10], &[(1024, 0.5)]);
        let b = report([100, 90], [10, 5], &[(1024, 0.3)]);
        let m = TcorReport::suite_mean(&[&a, &b]);
        assert_eq!(m.scenes, 2);
        let tcor = engine(&m, "tcor");
        assert_eq!(tcor.pb_l2_accesses, 295.0);
        assert_eq!(tcor.pb_l2_vs_baseline, Some((0.5 + 0.9) / 2.0));
        assert_ne!(tcor.pb_l2_vs_baseline, Some(590.0 / 1100.0));
        assert_eq!(engine(&m, "baseline").pb_l2_vs_baseline, Some(1.0));
        let d = m.reductions["64KiB"];
        assert!((d.pb_l2_accesses - (50.0 + 10.0) / 2.0).abs() < 1e-9);
        assert!((d.pb_dram_accesses - (90.0 + 50.0) / 2.0).abs() < 1e-9);
        assert_eq!(m.frame.primitives, 550.0);
        assert!(m.paper.contains_key("64KiB"), "the paper's averages beside");
        let c = &m.curves[0];
        assert_eq!(c.points.len(), 1);
        assert!((c.points[0].miss_ratio - 0.4).abs() < 1e-12);
        assert!((c.points[0].lower_bound_ratio - 0.2).abs() < 1e-12);
    }

    /// A ratio over a baseline of 0 has no value, so the mean has none; a
    /// curve point one scene lacks has no mean.
    #[test]
    fn what_a_scene_lacks_has_no_mean() {
        let a = report([1000, 500], [0, 0], &[(1024, 0.5), (2048, 0.25)]);
        let mut b = report([100, 90], [10, 5], &[(1024, 0.3)]);
        let m = TcorReport::suite_mean(&[&a, &b]);
        let tcor = engine(&m, "tcor");
        assert_eq!(tcor.pb_dram_vs_baseline, None);
        assert_eq!(tcor.pb_dram_accesses, 2.5);
        assert!(tcor.pb_l2_vs_baseline.is_some());
        let bytes: Vec<u64> = m.curves[0].points.iter().map(|p| p.bytes).collect();
        assert_eq!(bytes, [1024]);
        // A run one scene did not make has no mean.
        b.runs.pop();
        b.pb_l2_accesses.get_mut("64KiB").unwrap().remove("tcor");
        let m = TcorReport::suite_mean(&[&a, &b]);
        assert!(m.engines.iter().all(|e| e.engine != "tcor"));
    }
}
