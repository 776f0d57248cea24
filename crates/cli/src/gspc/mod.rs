//! The files of a GSPC study: `gspc.json`; the tables and figures the
//! design crate gives as data (`gfxcache_llc::study::tables` and
//! `::figures`, the paper's figures and the timeline's), written as CSV,
//! Parquet and SVG by [`crate::report::data`]; `index.html`, the design
//! crate's page (`gfxcache_llc::study::page`); and the summary the command
//! prints ([`crate::report::StudyFiles`] for [`GspcReport`], through
//! [`data::DataStudy`]; [`crate::report::write_all`] writes them).
//! [`suite`] writes the study on a workload suite.

#[cfg(test)]
mod data_tests;
pub(crate) mod suite;
mod summary;

use gfxcache_llc::study::report::GspcReport;

pub use gfxcache_llc::study::runs::{FPS_POLICIES, ISO_OVERHEAD, REUSE_POLICIES, TABLE6};
pub use gfxcache_llc::study::tables::{find, main_size, paper_fps, PAPER_SIZE};

use crate::report::data;

impl data::DataStudy for GspcReport {
    const NAME: &'static str = "gspc";

    fn warnings(&self) -> &[String] {
        &self.warnings
    }

    fn summary(&self) -> String {
        summary::text(self)
    }

    fn suite_summary(r: &suite::GspcSuite) -> String {
        suite::summary::text(r)
    }
}

#[cfg(test)]
pub(crate) mod test_report {
    //! A small hand-made report the writers' tests share: made-up numbers,
    //! consistent with each other (misses_vs_drrip is misses over drrip's).

    use std::collections::BTreeMap;

    use gfxcache_llc::study::report::{
        Epochs, FrameMean, FrameResult, GspcReport, HitRates, OptEpochs, PolicyResult, StreamShare,
        TPoint, Timing, TimingConfig,
    };
    use gfxcache_llc::study::timeline::{Interval, PassSpan, Timeline, TimelinePoint};

    pub const MIB: u64 = 1024 * 1024;

    /// (policy, misses at 8 MiB); 16 MiB runs have 3/4 of these misses.
    const POLICIES: &[(&str, u64)] = &[
        ("drrip", 400_000),
        ("nru", 424_800),
        ("gspc", 352_800),
        ("gspc+ucd", 347_600),
        ("drrip+ucd", 400_000),
        ("nru+ucd", 425_000),
        ("opt", 253_600),
    ];

    /// The report with every policy above at 8 and 16 MiB.
    pub fn report() -> GspcReport {
        let policies = [8 * MIB, 16 * MIB]
            .iter()
            .flat_map(|&size| POLICIES.iter().map(move |&(p, m)| result(p, size, m)))
            .collect();
        GspcReport {
            trace: "frames/a<b&c.gfxt".into(),
            scene: Some("a<b&c".into()),
            resolution: Some((1280, 720)),
            accesses: 1_000_000,
            ways: 16,
            block: 64,
            banks: 4,
            sizes: vec![8 * MIB, 16 * MIB],
            stream_mix: vec![
                share("rt", 400_000),
                share("tex", 340_000),
                share("z", 260_000),
            ],
            policies,
            opt_epochs: opt_epochs(),
            t_sensitivity: [(2, 1.5), (4, 0.5), (8, 0.0), (16, 0.0)]
                .iter()
                .map(|&(t, c)| TPoint {
                    t,
                    misses: (360_000.0 * (1.0 + c / 100.0)) as u64,
                    change_vs_t16: c,
                })
                .collect(),
            frames: 3,
            warmup: 1,
            warnings: Vec::new(),
            timing_configs: vec![TimingConfig {
                name: "ddr3-1867".into(),
                about: "faster DRAM <fast>".into(),
            }],
            machine: Some(gfxcache_machine::Machine::preset("gspc").unwrap()),
            seconds: BTreeMap::from([("simulate".to_string(), 1.25)]),
            timelines: vec![
                timeline("gspc", &["prod", "cons"]),
                timeline("drrip", &["psel"]),
            ],
        }
    }

    /// Two frames of two passes (`gbuffer`, `lighting & <fog>`), two
    /// points each.
    fn timeline(policy: &str, state: &[&str]) -> Timeline {
        let mut passes = Vec::new();
        let mut points = Vec::new();
        for frame in 0..2u32 {
            for (k, name) in ["gbuffer", "lighting & <fog>"].iter().enumerate() {
                let first_point = points.len() as u32;
                let mut totals = Interval::default();
                for _ in 0..2 {
                    let n = points.len() as u64;
                    let interval = Interval {
                        accesses: 1000,
                        read_misses: 100 * k as u64 + n,
                        write_misses: 200 * (1 - k as u64),
                        rt_fills_by_rrpv: [150 * (1 - k as u64), 30, 0, 20],
                        tex_fills_by_rrpv: [0, 10, 0, 5],
                        z_fills_by_rrpv: [1, 2, 3, 4],
                        rt_consumed: 50 * k as u64,
                    };
                    totals.accesses += interval.accesses;
                    totals.read_misses += interval.read_misses;
                    points.push(TimelinePoint {
                        frame,
                        pass: passes.len() as u32,
                        at: 1000 * (n + 1),
                        state: state
                            .iter()
                            .enumerate()
                            .map(|(i, _)| (n * 10 + i as u64) as f64)
                            .collect(),
                        interval,
                    });
                }
                passes.push(PassSpan {
                    frame,
                    name: name.to_string(),
                    kind: "gbuffer".into(),
                    first_point,
                    points: 2,
                    totals,
                    state_end: vec![7.0; state.len()],
                    state_mean: vec![5.0; state.len()],
                });
            }
        }
        Timeline {
            policy: policy.into(),
            size: 8 * MIB,
            step: 1000,
            state: state.iter().map(|s| s.to_string()).collect(),
            passes,
            points,
        }
    }

    /// The same report without OPT's runs and epoch analyses.
    pub fn report_without_opt() -> GspcReport {
        let mut r = report();
        r.policies.retain(|p| p.policy != "opt");
        r.opt_epochs = OptEpochs::default();
        r
    }

    fn share(stream: &str, accesses: u64) -> StreamShare {
        StreamShare {
            stream: stream.into(),
            accesses,
            fraction: accesses as f64 / 1_000_000.0,
        }
    }

    fn result(policy: &str, size: u64, misses_8m: u64) -> PolicyResult {
        let scale = if size == 8 * MIB { 1.0 } else { 0.75 };
        let misses = (misses_8m as f64 * scale) as u64;
        let drrip = (400_000.0 * scale) as u64;
        let vs = misses as f64 / drrip as f64;
        let fps = 30.0 / vs;
        let rrpv = policy.contains("rrip").then_some(0.3);
        let hit_rate = HitRates {
            tex: 0.5 / vs,
            rt: 0.55,
            z: 0.6,
            all: 1.0 - misses as f64 / 1e6,
        };
        // Two counted frames (after one of warm-up), the second a little
        // slower.
        let per_frame: Vec<FrameResult> = [(1, 0.45, 1.0), (2, 0.55, 1.1)]
            .iter()
            .map(|&(frame, share, slower)| FrameResult {
                frame,
                accesses: (1e6 * share) as u64,
                misses: (misses as f64 * share) as u64,
                hit_rate,
                frame_ms: 1000.0 / fps * slower,
                fps: fps / slower,
            })
            .collect();
        PolicyResult {
            policy: policy.into(),
            size,
            accesses: 1_000_000,
            misses,
            misses_vs_drrip: vs,
            read_misses: misses * 3 / 4,
            write_misses: misses - misses * 3 / 4,
            read_misses_vs_drrip: vs,
            hit_rate,
            tex_hits_inter: 90_000,
            tex_hits_intra: 80_000,
            rt_consumed_fraction: 0.4,
            rt_fills_at_max_rrpv: rrpv,
            tex_fills_at_max_rrpv: rrpv.map(|r| r + 0.1),
            writebacks: 50_000,
            fps,
            fps_vs_drrip: 1.0 / vs,
            timing: BTreeMap::from([(
                "ddr3-1867".to_string(),
                Timing {
                    frame_ms: 1000.0 / (fps * 1.1),
                    fps: fps * 1.1,
                    fps_vs_drrip: 1.0 / vs,
                    dram_reads: misses,
                    dram_writes: 50_000,
                    dram_bandwidth_gbps: 20.0,
                    mean_read_latency_ns: 80.0,
                },
            )]),
            mean_per_frame: FrameMean::of(&per_frame),
            per_frame,
            report: BTreeMap::new(),
        }
    }

    fn opt_epochs() -> OptEpochs {
        OptEpochs {
            tex: Epochs {
                hits_by_epoch: [80, 15, 3, 2],
                hit_share_by_epoch: [0.8, 0.15, 0.03, 0.02],
                entries: [500, 100, 25, 10],
                resident: [40, 10, 5, 2],
                death_ratios: [0.8, 0.75, 0.6],
            },
            z: Epochs {
                hits_by_epoch: [60, 25, 10, 5],
                hit_share_by_epoch: [0.6, 0.25, 0.1, 0.05],
                entries: [300, 120, 75, 50],
                resident: [30, 20, 10, 5],
                death_ratios: [0.6, 0.375, 0.333],
            },
            tex_inter_share: 0.53,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::test_report::{report, report_without_opt, MIB};
    use super::*;
    use crate::report::{to_json, write_all};
    use gfxcache_report::Report;

    #[test]
    fn writes_every_file_non_empty() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let written = write_all(&report(), dir.path())?;
        let names: Vec<String> = written
            .iter()
            .filter_map(|p| p.file_name()?.to_str().map(String::from))
            .collect();
        let files = [
            "gspc.json",
            "policies.csv",
            "stream_mix.csv",
            "opt_epochs.csv",
            "t_sensitivity.csv",
            "passes.csv",
            "timeline.csv",
            "index.html",
        ]
        .map(String::from);
        for expected in files
            .into_iter()
            .chain(Report::figures(&report()).into_iter().map(|f| f.file))
        {
            assert!(names.contains(&expected), "{expected} not written");
        }
        for path in &written {
            assert!(
                std::fs::metadata(path)?.len() > 0,
                "{} empty",
                path.display()
            );
        }
        Ok(())
    }

    #[test]
    fn json_parses_back() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        write_all(&report(), dir.path())?;
        let text = std::fs::read_to_string(dir.path().join("gspc.json"))?;
        let v: serde_json::Value = serde_json::from_str(&text)?;
        assert_eq!(v["policies"][0]["policy"], "drrip");
        assert_eq!(to_json(&report())?, text);
        Ok(())
    }

    #[test]
    fn report_without_opt_still_writes() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let written = write_all(&report_without_opt(), dir.path())?;
        assert!(written.iter().any(|p| p.ends_with("index.html")));
        assert!(written
            .iter()
            .any(|p| p.ends_with("fig12_misses_vs_drrip.svg")));
        Ok(())
    }

    #[test]
    fn finds_by_policy_and_size() {
        let r = report();
        assert_eq!(find(&r, "gspc", 16 * MIB).map(|p| p.size), Some(16 * MIB));
        assert!(find(&r, "gspc", 4 * MIB).is_none());
        assert!(find(&r, "ship-mem", 8 * MIB).is_none());
    }

    #[test]
    fn finds_the_papers_frame_rates() {
        assert_eq!(paper_fps("16MiB", "gspc+ucd"), Some(1.118));
    }
}
