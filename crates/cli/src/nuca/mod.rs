//! The files of a DTM-NUCA study: `nuca.json`, the tables, figures and
//! page the design crate gives as data (`gfxcache_nuca::study::tables`,
//! `::figures` and `::page`), written as CSV, Parquet, SVG and
//! `index.html` by [`crate::report::data`], and the summary the command
//! prints ([`crate::report::StudyFiles`] for [`NucaReport`];
//! [`crate::report::write_all`] writes them). The helpers the summary
//! shares with the page (the paper's number of an organization, the
//! charts' metrics) are the design crate's, so that they agree on what
//! they show. [`suite`] writes the study on a workload suite.

#[cfg(test)]
mod data_tests;
pub(crate) mod suite;
pub(crate) mod summary;

pub(crate) use gfxcache_nuca::study::tables::{
    announced_readings, paper_effective_bytes, paper_scaling, Metric, ENERGY, L2_TEXTURE,
    LOCAL_HITS, SPEEDUP,
};
use gfxcache_nuca::study::NucaReport;

use crate::report::data;

impl data::DataStudy for NucaReport {
    const NAME: &'static str = "nuca";

    fn warnings(&self) -> &[String] {
        &self.warnings
    }

    fn summary(&self) -> String {
        summary::text(self)
    }

    fn suite_summary(r: &suite::NucaSuite) -> String {
        suite::summary::text(r)
    }
}

/// A signed percentage for tables: `-41.8%`, `+16.9%`.
fn signed(v: f64) -> String {
    format!("{:+.1}%", v + 0.0)
}

/// A share for tables: `66.3%`.
fn share(v: f64) -> String {
    format!("{v:.1}%")
}

#[cfg(test)]
pub(crate) mod test_report {
    //! Reports the writers' tests share, made by the study itself on small
    //! synthetic frames (as `crates/nuca/tests/it/study.rs` makes them): a
    //! main frame of 8 fragment processors with every organization, one of
    //! 4 for Figures 1 and 11, another quad assignment, and a few sweeps.

    use std::path::Path;
    use std::sync::OnceLock;

    use gfxcache_cache::progress::quiet;
    use gfxcache_nuca::study::{self, FrameFiles, NucaReport, NucaStudyConfig, Sweeps};
    use gfxcache_nuca::{NucaConfig, OrgKind};
    use gfxcache_trace::texreq::{synth, TexReqWriter};

    /// The synthetic frame of `gfxcache_trace::texreq::synth`, written.
    fn write_frame(path: &Path, fps: u16, tiles: u32, seed: u64) {
        let mut w = TexReqWriter::create(path, &synth::header(fps, tiles)).unwrap();
        for r in &synth::frame(fps, tiles, seed) {
            w.write(r).unwrap();
        }
        w.finish().unwrap();
    }

    fn files(path: &Path) -> FrameFiles {
        FrameFiles {
            requests: path.to_path_buf(),
            trace: None,
        }
    }

    /// The study of the frames of `seed`, named `scene`.
    fn study(seed: u64, scene: &str) -> NucaReport {
        let dir = tempfile::tempdir().unwrap();
        let frame = |name: &str, fps: u16, seed: u64| {
            let path = dir.path().join(name);
            write_frame(&path, fps, 40, seed);
            files(&path)
        };
        let config = NucaStudyConfig {
            config: NucaConfig {
                fps: 8,
                epoch: 2000,
                tc_bytes: 4096,
                ..NucaConfig::default()
            },
            scaling: vec![(4, frame("p4.gtq", 4, seed))],
            assignments: vec![("tiles".into(), frame("tiles.gtq", 8, seed + 1))],
            private_sizes: vec![2048, 4096, 8192, 16384],
            sweeps: Sweeps {
                epoch: vec![500],
                buckets: vec![16],
                counter_bits: vec![],
                page_blocks: vec![4],
                trace_order: true,
                context_unit: true,
                tc_index: true,
                announced_count: true,
                organizations: vec![OrgKind::Dtm, OrgKind::DtmDist],
            },
            ..NucaStudyConfig::new(frame("p8.gtq", 8, seed))
        };
        let mut report = study::run(&config, &quiet).unwrap();
        report.scene = Some(scene.into());
        // Fixed times, so that the report's files are the same every run
        // (`report::golden` pins them).
        for s in report.seconds.values_mut() {
            *s = 0.25;
        }
        report.requests = format!("{scene}/frame.gtq.zst");
        report
    }

    /// The report of scene `a<1>` (a name to escape), made once.
    pub fn report() -> NucaReport {
        static REPORT: OnceLock<NucaReport> = OnceLock::new();
        REPORT.get_or_init(|| study(1, "a<1>")).clone()
    }

    /// Another scene's report (other frames), made once.
    pub fn other_report() -> NucaReport {
        static REPORT: OnceLock<NucaReport> = OnceLock::new();
        REPORT.get_or_init(|| study(7, "b")).clone()
    }
}

#[cfg(test)]
mod tests {
    use super::test_report::report;
    use super::*;
    use crate::report::{to_json, write_all};
    use gfxcache_nuca::study::tables::paper_of;
    use std::path::PathBuf;

    const CSV: [&str; 6] = [
        "organizations.csv",
        "replication.csv",
        "capacity.csv",
        "scaling.csv",
        "sweeps.csv",
        "assignments.csv",
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
        let r = report();
        let written = write_all(&r, dir.path())?;
        let names = names(&written);
        assert_eq!(names.first().map(String::as_str), Some("nuca.json"));
        assert_eq!(names.last().map(String::as_str), Some("index.html"));
        let figures = [
            "fig1_replication.svg",
            "fig6_l2_accesses.svg",
            "fig7_capacity.svg",
            "fig8_hits.svg",
            "fig9_speedup.svg",
            "fig10_energy.svg",
            "fig11_scaling.svg",
            "assignments.svg",
        ];
        let sweeps = [
            "sweep_epoch.svg",
            "sweep_buckets.svg",
            "sweep_page_blocks.svg",
            "sweep_announced_count.svg",
        ];
        let parquet = CSV.map(|c| c.replace(".csv", ".parquet"));
        let parquet = parquet.iter().map(String::as_str);
        for f in CSV.into_iter().chain(parquet).chain(figures).chain(sweeps) {
            assert!(names.iter().any(|n| n == f), "{f} not written");
        }
        assert!(
            !names.iter().any(|n| n == "sweep_counter_bits.svg"),
            "no counter_bits sweep, no figure"
        );
        for path in &written {
            assert!(
                std::fs::metadata(path)?.len() > 0,
                "{} empty",
                path.display()
            );
        }
        let json = std::fs::read_to_string(dir.path().join("nuca.json"))?;
        assert_eq!(to_json(&r)?, json);
        Ok(())
    }

    #[test]
    fn paper_numbers_by_organization() {
        use gfxcache_nuca::OrgKind;
        let p = report().paper;
        assert_eq!(paper_of(OrgKind::Dtm, &p.speedup_percent), Some(16.9));
        assert_eq!(paper_of(OrgKind::DNuca, &p.local_hits_percent), Some(27.5));
        assert_eq!(paper_of(OrgKind::SNuca, &p.speedup_percent), None);
        assert_eq!(paper_scaling(&p, OrgKind::DtmDist, 32), Some(15.7));
        assert_eq!(paper_scaling(&p, OrgKind::Dtm, 8), None);
        assert_eq!(paper_effective_bytes(&p, OrgKind::Dtm), Some(128 * 1024));
        assert_eq!(signed(-0.0), "+0.0%");
        assert_eq!(signed(-41.84), "-41.8%");
    }
}
