//! The files of a TCOR study: `tcor.json`; the tables and figures the
//! design crate gives as data (`gfxcache_tcor::study::tables` and
//! `::figures`), written as CSV, Parquet and SVG by
//! [`crate::report::data`]; `index.html`, the design crate's page
//! (`gfxcache_tcor::study::page`); and the summary the command prints
//! ([`crate::report::StudyFiles`] for [`TcorReport`];
//! [`crate::report::write_all`] writes them). [`suite`] writes the study
//! on a workload suite. The Tile Cache sizes in order and the words on
//! the Tile Fetcher are the design crate's.

#[cfg(test)]
mod data_tests;
mod fetcher;
pub(crate) mod suite;
mod summary;

use gfxcache_tcor::study::report::TcorReport;
pub(crate) use gfxcache_tcor::study::tables::{in_size_order, tile_caches};

use crate::report::data;

impl data::DataStudy for TcorReport {
    const NAME: &'static str = "tcor";

    fn warnings(&self) -> &[String] {
        &self.warnings
    }

    fn summary(&self) -> String {
        summary::text(self)
    }

    fn suite_summary(r: &suite::TcorSuite) -> String {
        suite::summary::text(r)
    }
}

#[cfg(test)]
pub(crate) mod test_report {
    //! A small hand-made report the writers' tests share: made-up numbers,
    //! consistent with each other (the figures' maps are drawn from the
    //! runs, as the study draws them).

    use std::collections::BTreeMap;

    use gfxcache_mem::{EnergyModel, MemoryEnergy};
    use gfxcache_tcor::study::fetcher::{sensitivity, FetcherSweep};
    use gfxcache_tcor::{
        Characteristics, FetcherStats, FetcherTiming, FrameL2Stats, SweepPoint, TileBuffers,
    };

    use gfxcache_tcor::study::by_size;
    use gfxcache_tcor::study::paper;
    use gfxcache_tcor::study::report::{
        Curve, EngineFrame, EngineFrameMean, EngineRun, FrameCharacteristics, L1Count, L2Setup,
        PassCharacteristics, Reach, ReachPoint, Reductions, TcorReport, ENGINES,
    };

    pub const KIB: u64 = 1024;

    /// Our decrease in PB accesses to the L2 at 64 KiB, as the page shows it.
    pub const OUR_PB_L2_64K: f64 = 28.7;

    /// The report: five curves (OPT and LRU fully associative, OPT, LRU and
    /// DRRIP at 4 ways) of four sizes, six runs.
    pub fn report() -> TcorReport {
        let curves = vec![
            curve("opt", "full", 0.50),
            curve("lru", "full", 0.70),
            curve("opt", "4", 0.55),
            curve("lru", "4", 0.75),
            curve("drrip", "4", 0.72),
        ];
        let sweep = FetcherSweep::default().points(&FetcherTiming::default());
        let runs: Vec<EngineRun> = ["64KiB", "128KiB"]
            .iter()
            .flat_map(|&size| ENGINES.iter().map(move |&e| run(e, size)))
            .collect();
        let count = |f: fn(&FrameL2Stats) -> u64| by_size(&runs, |r| f(&r.stats));
        let reductions = BTreeMap::from([
            (
                "64KiB".to_string(),
                Reductions {
                    pb_l2_accesses: OUR_PB_L2_64K,
                    pb_dram_accesses: 81.4,
                    dram_accesses: 6.2,
                    energy: 7.9,
                    energy_no_l2: 4.1,
                    fetcher_speedup: 2.5,
                },
            ),
            ("128KiB".to_string(), Reductions::default()),
        ]);
        TcorReport {
            machine: None,
            trace: "frames/a<b&c.gtr".into(),
            binned: "frames/binned.json".into(),
            scene: Some("city<1>".into()),
            resolution: Some((320, 192)),
            binning: Some("exact".into()),
            render_passes: 2,
            tiles: 120,
            passes: vec![pass(0, "main", 900, 3.0), pass(0, "shadow<0>", 300, 1.5)],
            frame: FrameCharacteristics {
                primitives: 1200,
                attributes: 6000,
                tile_uses: 3150,
                footprint_bytes: 400 * KIB,
                largest_pass_footprint_bytes: 300 * KIB,
                average_reuse: 2.625,
            },
            l2: L2Setup {
                bytes: 1024 * KIB,
                ways: 16,
                tile_buffers: TileBuffers::Memory,
                fetcher: FetcherTiming::default(),
                fetcher_sweep: sweep.clone(),
                queue_depth: 12,
            },
            reach: Reach {
                tolerance: 0.01,
                curves: curves
                    .iter()
                    .map(|c| ReachPoint {
                        policy: c.policy.clone(),
                        ways: c.ways.clone(),
                        bytes: (c.policy != "drrip").then_some(if c.policy == "opt" {
                            8 * KIB
                        } else {
                            32 * KIB
                        }),
                    })
                    .collect(),
                lru_over_opt_full: Some(4.0),
            },
            curves,
            lower_bound: BTreeMap::from([("64KiB".into(), 1000), ("128KiB".into(), 900)]),
            pb_l2_accesses: count(FrameL2Stats::pb_l2_accesses),
            pb_dram_accesses: count(FrameL2Stats::pb_memory_accesses),
            dram_accesses: count(FrameL2Stats::memory_accesses),
            energy_nj: by_size(&runs, |r| r.energy.total_nj),
            primitives_per_cycle: by_size(&runs, |r| r.stats.fetcher.primitives_per_cycle),
            fetcher_sensitivity: sensitivity(&sweep, &runs),
            runs,
            reductions,
            paper: paper::reductions(),
            energy_model: EnergyModel::mobile(),
            other_l1: vec![L1Count {
                name: "vertex <cache>".into(),
                bytes: 16 * KIB,
                accesses: 5000,
            }],
            frames: 2,
            warmup: 0,
            warnings: Vec::new(),
            seconds: BTreeMap::from([("l2".to_string(), 1.5)]),
        }
    }

    /// The same report with no curves (and so nothing reaching the bound).
    pub fn report_without_curves() -> TcorReport {
        let mut r = report();
        r.curves.clear();
        r.reach.curves.clear();
        r.reach.lru_over_opt_full = None;
        r
    }

    /// Sizes 4, 8, 16, 32 KiB; misses fall to the bound at 0.4.
    fn curve(policy: &str, ways: &str, first: f64) -> Curve {
        let points = (0..4)
            .map(|i| {
                let accesses = 10_000;
                let ratio = (first / f64::from(1 << i)).max(0.4);
                let lb = 4_000 - 100 * i;
                SweepPoint {
                    bytes: (4 * KIB) << i,
                    entries: ((4 * KIB) << i) as u32 / 48,
                    lines: ((2 * KIB) << i) as u32 / 48,
                    accesses,
                    misses: (ratio * accesses as f64) as u64,
                    miss_ratio: ratio,
                    lower_bound: lb,
                    lower_bound_ratio: lb as f64 / accesses as f64,
                    l2_reads: 123 + i,
                }
            })
            .collect();
        Curve {
            policy: policy.into(),
            ways: ways.into(),
            points,
        }
    }

    fn pass(frame: u32, name: &str, primitives: u64, reuse: f64) -> PassCharacteristics {
        PassCharacteristics {
            frame,
            pass: name.into(),
            characteristics: Characteristics {
                primitives,
                tiles: 60,
                busy_tiles: 50,
                attributes: primitives * 5,
                tile_uses: (primitives as f64 * reuse) as u64,
                pb_lists_blocks: 200,
                pb_attribute_blocks: primitives * 5 * 48 / 64,
                footprint_bytes: primitives * 256,
                average_reuse: reuse,
                longest_list: 77,
            },
            baseline_overflow: Default::default(),
        }
    }

    /// An engine's run: TCOR sends fewer PB blocks, the L2 enhancements
    /// fewer to main memory, and the fetcher waits less.
    fn run(engine: &str, size: &str) -> EngineRun {
        let k = if size == "64KiB" { 1.0 } else { 0.9 };
        let (pb, pb_mem, ppc) = match engine {
            "baseline" => (10_000.0, 2_000.0, 0.2),
            "tcor_no_l2" => (7_130.0, 800.0, 0.5),
            _ => (7_130.0, 372.0, 0.5),
        };
        let mut stats = FrameL2Stats {
            render_passes: 2,
            tiles: 120,
            pb_l2_reads: (0.8 * pb * k) as u64,
            pb_l2_writes: (0.2 * pb * k) as u64,
            tile_buffer_reads: 3_000,
            tile_buffer_writes: 3_000,
            ..FrameL2Stats::default()
        };
        stats.l2.pb_memory_reads = (0.5 * pb_mem * k) as u64;
        stats.l2.pb_memory_writes = (0.5 * pb_mem * k) as u64;
        stats.l2.memory_reads = 20_000 + stats.l2.pb_memory_reads;
        stats.l2.memory_writes = 5_000 + stats.l2.pb_memory_writes;
        let fetcher = |ppc: f64| FetcherStats {
            primitives: 3_150,
            l2_reads: (0.8 * pb * k) as u64,
            l2_read_misses: (0.5 * pb_mem * k) as u64,
            l2_requests: (0.7 * pb * k) as u64,
            merged_reads: (0.1 * pb * k) as u64,
            cycles: (3_150.0 / ppc) as u64,
            primitives_per_cycle: ppc,
            fifo_stall_cycles: 100,
            mshr_stall_cycles: 2_000,
            target_stall_cycles: 3,
            request_cycles: 30_000,
            busy_cycles: 5_000,
            mlp: 6.0,
            dram_wait_cycles: 0,
        };
        stats.fetcher = fetcher(ppc);
        // The sweep's points (5 per memory latency): slower with less
        // parallelism and a longer latency, TCOR less so.
        let fetcher_sweep = (0..15)
            .map(|i| {
                let (latency, parallel) = (i / 5, i % 5);
                let slow = if engine == "baseline" { 0.1 } else { 0.05 };
                fetcher(ppc * (1.0 - slow * f64::from(latency)) * (0.5 + 0.1 * f64::from(parallel)))
            })
            .collect();
        let l1 = 100.0;
        let l2 = pb * k * 0.05 + 300.0;
        let dram = (stats.memory_accesses() as f64) * 0.01;
        // Two frames, the second a little heavier.
        let per_frame: Vec<EngineFrame> = [(0, 0.45), (1, 0.55)]
            .iter()
            .map(|&(frame, share)| EngineFrame {
                frame,
                pb_l2_accesses: (stats.pb_l2_accesses() as f64 * share) as u64,
                pb_dram_accesses: (stats.pb_memory_accesses() as f64 * share) as u64,
                dram_accesses: (stats.memory_accesses() as f64 * share) as u64,
                energy_nj: (l1 + l2 + dram) * share,
                primitives_per_cycle: ppc,
            })
            .collect();
        EngineRun {
            engine: engine.into(),
            tile_cache: size.into(),
            about: format!("the {engine} engine <{size}>"),
            l2_policy: if engine == "tcor" {
                "dead-aware"
            } else {
                "lru"
            }
            .into(),
            stats,
            fetcher_sweep,
            energy: MemoryEnergy {
                l1_nj: l1,
                l2_nj: l2,
                dram_nj: dram,
                total_nj: l1 + l2 + dram,
            },
            mean_per_frame: EngineFrameMean::of(&per_frame),
            per_frame,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::test_report::{report, report_without_curves};
    use super::*;
    use crate::report::{to_json, write_all};
    use gfxcache_tcor::study::tables::value;
    use std::path::PathBuf;

    /// Every table, each written as CSV and Parquet.
    const TABLES: [&str; 10] = [
        "scenes",
        "passes",
        "reductions",
        "engines",
        "fetcher",
        "frames",
        "curves",
        "reach",
        "lower_bound",
        "other_l1",
    ];

    fn csv() -> Vec<String> {
        TABLES.iter().map(|t| format!("{t}.csv")).collect()
    }
    const CURVE_FIGURES: [&str; 3] = ["fig11_full.svg", "fig12_ways.svg", "fig13_4way.svg"];
    const BAR_FIGURES: [&str; 5] = [
        "fig14_15_pb_l2.svg",
        "fig16_17_pb_dram.svg",
        "fig18_19_dram.svg",
        "fig20_21_energy.svg",
        "fig23_24_fetcher.svg",
    ];

    fn names(written: &[PathBuf]) -> Vec<String> {
        written
            .iter()
            .filter_map(|p| p.file_name()?.to_str().map(String::from))
            .collect()
    }

    #[test]
    fn writes_every_file_non_empty_json_first_html_last() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let written = write_all(&report(), dir.path())?;
        let names = names(&written);
        assert_eq!(names.first().map(String::as_str), Some("tcor.json"));
        assert_eq!(names.last().map(String::as_str), Some("index.html"));
        let parquet = TABLES.iter().map(|t| format!("{t}.parquet"));
        let figures = CURVE_FIGURES
            .iter()
            .chain(&BAR_FIGURES)
            .map(|f| f.to_string());
        for f in csv().into_iter().chain(parquet).chain(figures) {
            assert!(names.contains(&f), "{f} not written");
        }
        assert_eq!(
            names.len(),
            2 + 2 * TABLES.len() + CURVE_FIGURES.len() + BAR_FIGURES.len()
        );
        for path in &written {
            assert!(path.starts_with(dir.path()));
            let len = std::fs::metadata(path)?.len();
            assert!(len > 0, "{} empty", path.display());
        }
        for f in CURVE_FIGURES.iter().chain(&BAR_FIGURES) {
            let text = std::fs::read_to_string(dir.path().join(f))?;
            assert!(text.starts_with("<svg"), "{f} is not an SVG");
        }
        Ok(())
    }

    #[test]
    fn json_parses_back_with_the_schema_keys() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        write_all(&report(), dir.path())?;
        let text = std::fs::read_to_string(dir.path().join("tcor.json"))?;
        assert_eq!(to_json(&report())?, text);
        let v: serde_json::Value = serde_json::from_str(&text)?;
        for key in [
            "pb_l2_accesses",
            "pb_dram_accesses",
            "lower_bound",
            "curves",
        ] {
            assert!(v.get(key).is_some(), "{key} missing");
        }
        assert_eq!(v["pb_l2_accesses"]["64KiB"]["baseline"], 10_000);
        assert_eq!(v["lower_bound"]["128KiB"], 900);
        assert_eq!(v["curves"][0]["points"][1]["bytes"], 8192);
        Ok(())
    }

    #[test]
    fn no_curves_no_curve_figures_and_no_failure() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let written = names(&write_all(&report_without_curves(), dir.path())?);
        for f in CURVE_FIGURES {
            assert!(!written.iter().any(|n| n == f), "{f} written");
            assert!(!dir.path().join(f).exists());
        }
        for f in BAR_FIGURES.iter().map(|f| f.to_string()).chain(csv()) {
            assert!(written.contains(&f), "{f} not written");
        }
        Ok(())
    }

    #[test]
    fn sizes_in_order() {
        let r = report();
        assert_eq!(tile_caches(&r), ["64KiB", "128KiB"]);
        let labels = ["1MiB", "x", "512KiB", "4KiB", "512KiB"].map(String::from);
        assert_eq!(in_size_order(&labels), ["4KiB", "512KiB", "1MiB", "x"]);
        assert_eq!(value(&r.pb_l2_accesses, "64KiB", "tcor"), Some(7130));
        assert!(value(&r.pb_l2_accesses, "32KiB", "tcor").is_none());
    }
}
