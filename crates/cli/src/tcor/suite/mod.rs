//! The files of a TCOR study on a workload suite (`tcor --suite`): the
//! suite's `tcor.json` (every scene's report and the mean), the design
//! crate's tables with a `scene` column and the `mean` rows of one
//! group-by ([`crate::report::data::suite_tables`]; a test holds them
//! equal to [`gfxcache_tcor::study::TcorMean`] for every value both
//! have), the design crate's suite figures (a bar per scene, the mean and
//! the paper's average, as the paper's per-game charts; the mean curves)
//! drawn from those tables, the design crate's suite page and the summary
//! ([`crate::report::suite::SuiteFiles`] for [`TcorReport`]). Each
//! scene's own files are its report's, in its directory.

pub mod summary;

use gfxcache_cache::SuiteReport;
use gfxcache_tcor::study::report::TcorReport;

/// A TCOR study on a suite.
pub type TcorSuite = SuiteReport<TcorReport>;

pub use crate::report::suite::MEAN;

/// Every Tile Cache size a scene ran, in order.
pub fn tile_caches(r: &TcorSuite) -> Vec<String> {
    let sizes = r.scenes.iter().flat_map(|s| super::tile_caches(&s.report));
    super::in_size_order(sizes.collect::<Vec<_>>().iter())
}

/// The scenes' binning modes (`exact`, `bbox`; what the figures are for),
/// each once in scene order, joined by `/`; `None` when no scene says.
pub fn binning(r: &TcorSuite) -> Option<String> {
    let mut modes: Vec<&str> = Vec::new();
    for m in r.scenes.iter().filter_map(|s| s.report.binning.as_deref()) {
        if !modes.contains(&m) {
            modes.push(m);
        }
    }
    (!modes.is_empty()).then(|| modes.join("/"))
}

#[cfg(test)]
pub(crate) mod test_suite {
    //! A suite of two hand-made scene reports (the writers' test report,
    //! the second with more traffic), with the mean the design crate
    //! computes.

    use super::TcorSuite;
    use crate::tcor::test_report::report;

    pub fn suite() -> TcorSuite {
        let mut b = report();
        for m in b.pb_l2_accesses.values_mut() {
            for (engine, v) in m.iter_mut() {
                if engine != "baseline" {
                    *v = *v * 4 / 5;
                }
            }
        }
        for r in b.reductions.values_mut() {
            r.pb_l2_accesses += 10.0;
        }
        b.scene = Some("b".into());
        crate::report::suite::two_scenes("mobile", report(), b)
    }
}

#[cfg(test)]
mod tests {
    use super::test_suite::suite;
    use super::*;
    use crate::report::suite::categories;
    use crate::report::write_all;

    #[test]
    fn writes_the_suites_files_non_empty() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let written = write_all(&suite(), dir.path())?;
        let names: Vec<String> = written
            .iter()
            .filter_map(|p| p.file_name()?.to_str().map(String::from))
            .collect();
        let expected = ["tcor.json", "engines.csv", "reductions.csv", "curves.csv"];
        for file in expected
            .into_iter()
            .chain(["scenes.csv", "index.html"])
            .chain(gfxcache_tcor::study::figures::FILES)
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
            serde_json::from_str(&std::fs::read_to_string(dir.path().join("tcor.json"))?)?;
        assert_eq!(v["suite"], "mobile");
        assert_eq!(v["scenes"][0]["scene"], "a<1>");
        assert_eq!(v["mean"]["scenes"], 2);
        Ok(())
    }

    #[test]
    fn sizes_and_categories() {
        let r = suite();
        assert_eq!(tile_caches(&r), ["64KiB", "128KiB"]);
        assert_eq!(categories(&r), ["a<1>", "b", "mean"]);
    }
}
