//! The files of a DTM-NUCA study on a workload suite (`nuca --suite`): the
//! suite's `nuca.json` (every scene's report and the mean), the scenes'
//! tables with a row per scene and the mean's (CSV and Parquet, made by
//! [`crate::report::data::suite_tables`]), the design crate's suite
//! figures (a bar per scene, the mean and the paper's number) and suite
//! page over them, and the summary
//! ([`crate::report::suite::SuiteFiles`] for [`NucaReport`]). Each scene's
//! own files are its report's, in its directory. The mean is
//! [`gfxcache_nuca::study::NucaMean`], computed by the design crate.

pub mod summary;

use gfxcache_cache::SuiteReport;
use gfxcache_nuca::study::{Figures, NucaReport};
use gfxcache_nuca::OrgKind;

/// A DTM-NUCA study on a suite.
pub type NucaSuite = SuiteReport<NucaReport>;

pub use crate::report::suite::MEAN;

/// The mean figures of `kind` on the main frames, if every scene ran it.
pub fn mean_of(r: &NucaSuite, kind: OrgKind) -> Option<Figures> {
    r.mean
        .organizations
        .iter()
        .find(|(k, _)| *k == kind)
        .map(|(_, f)| *f)
}

#[cfg(test)]
pub(crate) mod test_suite {
    //! A suite of two scenes' studies, with the mean the design crate
    //! computes.

    use super::NucaSuite;
    use crate::nuca::test_report::{other_report, report};

    pub fn suite() -> NucaSuite {
        crate::report::suite::two_scenes("desktop", report(), other_report())
    }
}

#[cfg(test)]
mod tests {
    use super::test_suite::suite;
    use crate::report::write_all;

    #[test]
    fn writes_the_suites_files_non_empty() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let written = write_all(&suite(), dir.path())?;
        let names: Vec<String> = written
            .iter()
            .filter_map(|p| p.file_name()?.to_str().map(String::from))
            .collect();
        let csv = [
            "organizations.csv",
            "replication.csv",
            "capacity.csv",
            "scaling.csv",
            "sweeps.csv",
            "assignments.csv",
            "organizations.parquet",
        ];
        let figures = crate::report::data::suite_figures(&suite());
        let figures = figures.iter().map(|f| f.file.as_str());
        for file in ["nuca.json", "index.html"]
            .into_iter()
            .chain(csv)
            .chain(figures)
        {
            assert!(names.iter().any(|n| n == file), "{file} not written");
        }
        for path in &written {
            assert!(
                std::fs::metadata(path)?.len() > 0,
                "{} empty",
                path.display()
            );
        }
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.path().join("nuca.json"))?)?;
        assert_eq!(v["suite"], "desktop");
        assert_eq!(v["scenes"][1]["scene"], "b");
        assert_eq!(v["mean"]["scenes"], 2);
        Ok(())
    }

    /// The mean's capacity is the mean of the scenes' changes as
    /// `NucaReport::capacity_change` computes them.
    #[test]
    fn capacity_changes_average_to_the_mean() {
        let r = suite();
        assert!(!r.mean.capacity.is_empty());
        for &(bytes, mean) in &r.mean.capacity {
            let scenes: Vec<f64> = r
                .scenes
                .iter()
                .map(|s| s.report.capacity_change(bytes).unwrap())
                .collect();
            let expected = scenes.iter().sum::<f64>() / scenes.len() as f64;
            assert!(
                (mean - expected).abs() < 1e-9,
                "{bytes}: {mean} vs {expected}"
            );
        }
        assert_eq!(crate::report::suite::categories(&r), ["a<1>", "b", "mean"]);
    }
}
