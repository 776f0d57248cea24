//! A GSPC study on a workload suite (`gspc --suite`): the suite's tables,
//! figures and page are the design crate's, written by
//! [`crate::report::data`] ([`crate::report::suite::SuiteFiles`] for
//! [`GspcReport`], in [`super`]); here are the summary, which prints the
//! design crate's own mean ([`gfxcache_llc::study::GspcMean`]), and the
//! tests' suite.

pub mod summary;

use gfxcache_cache::SuiteReport;
use gfxcache_llc::study::mean::PolicyMean;
use gfxcache_llc::study::report::GspcReport;

/// A GSPC study on a suite.
pub type GspcSuite = SuiteReport<GspcReport>;

pub use crate::report::suite::MEAN;

/// The sizes studied (every scene ran the same configuration: the
/// first's).
pub fn sizes(r: &GspcSuite) -> &[u64] {
    r.scenes.first().map_or(&[], |s| &s.report.sizes)
}

/// The main LLC size, if any size was studied.
pub fn main_size(r: &GspcSuite) -> Option<u64> {
    sizes(r).first().copied()
}

/// The mean of `policy` at `size`, if every scene ran it.
pub fn find_mean<'a>(r: &'a GspcSuite, policy: &str, size: u64) -> Option<&'a PolicyMean> {
    r.mean
        .policies
        .iter()
        .find(|p| p.policy == policy && p.size == size)
}

#[cfg(test)]
pub(crate) mod test_suite {
    //! A suite of two hand-made scene reports (the writers' test report,
    //! the second scene with other misses), with the mean the design crate
    //! computes.

    use super::GspcSuite;
    use crate::gspc::test_report::report;

    pub fn suite() -> GspcSuite {
        let mut b = report();
        b.scene = Some("b".into());
        for p in &mut b.policies {
            p.misses = p.misses * 3 / 2;
            p.misses_vs_drrip *= 0.9;
            p.fps_vs_drrip *= 1.1;
        }
        b.warnings = vec!["b is odd".into()];
        crate::report::suite::two_scenes("desktop", report(), b)
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
        let figures = crate::report::data::suite_figures(&suite());
        for expected in ["gspc.json", "policies.csv", "index.html"]
            .into_iter()
            .chain(figures.iter().map(|f| f.file.as_str()))
        {
            assert!(
                names.iter().any(|n| n == expected),
                "{expected} not written"
            );
        }
        for path in &written {
            assert!(
                std::fs::metadata(path)?.len() > 0,
                "{} empty",
                path.display()
            );
        }
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.path().join("gspc.json"))?)?;
        assert_eq!(v["suite"], "desktop");
        assert_eq!(v["scenes"][1]["scene"], "b");
        assert_eq!(v["scenes"][1]["report"]["policies"][0]["policy"], "drrip");
        assert_eq!(v["mean"]["scenes"], 2);
        assert_eq!(v["warnings"][0], "b: b is odd");
        Ok(())
    }
}
