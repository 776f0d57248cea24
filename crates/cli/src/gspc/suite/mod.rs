//! The files of a GSPC study on a workload suite (`gspc --suite`): the
//! suite's `gspc.json` (every scene's report and the mean), CSV files with
//! a row per scene and the mean's, figures with a bar per scene and the
//! mean (the paper's per-application charts with their average), the
//! page, and the summary ([`crate::report::suite::SuiteFiles`] for
//! [`GspcReport`]). Each scene's own files are its report's, in its
//! directory. The mean is [`gfxcache_llc::study::GspcMean`], computed
//! by the design crate.

pub mod plots;
pub mod summary;

use gfxcache_cache::SuiteReport;
use gfxcache_llc::study::mean::PolicyMean;
use gfxcache_llc::study::report::{GspcReport, PolicyResult, TimingConfig};

/// A GSPC study on a suite.
pub type GspcSuite = SuiteReport<GspcReport>;

pub use crate::report::suite::{categories, MEAN};

/// The sizes studied (every scene ran the same configuration: the
/// first's).
pub fn sizes(r: &GspcSuite) -> &[u64] {
    r.scenes.first().map_or(&[], |s| &s.report.sizes)
}

/// The main LLC size, if any size was studied.
pub fn main_size(r: &GspcSuite) -> Option<u64> {
    sizes(r).first().copied()
}

/// The timing configurations every scene ran under (the first's).
pub fn timing_configs(r: &GspcSuite) -> &[TimingConfig] {
    r.scenes.first().map_or(&[], |s| &s.report.timing_configs)
}

/// The mean of `policy` at `size`, if every scene ran it.
pub fn find_mean<'a>(r: &'a GspcSuite, policy: &str, size: u64) -> Option<&'a PolicyMean> {
    r.mean
        .policies
        .iter()
        .find(|p| p.policy == policy && p.size == size)
}

/// For each scene in order and then the mean, `scene(run)` of `policy`
/// at `size` and `mean(run)` of its mean: a row of a per-scene chart or
/// table.
pub fn per_scene<T>(
    r: &GspcSuite,
    policy: &str,
    size: u64,
    scene: impl Fn(&PolicyResult) -> Option<T>,
    mean: impl Fn(&PolicyMean) -> Option<T>,
) -> Vec<Option<T>> {
    r.scenes
        .iter()
        .map(|s| super::find(&s.report, policy, size).and_then(&scene))
        .chain(std::iter::once(find_mean(r, policy, size).and_then(mean)))
        .collect()
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
    use super::*;
    use crate::report::write_all;

    #[test]
    fn writes_the_suites_files_non_empty() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let written = write_all(&suite(), dir.path())?;
        let names: Vec<String> = written
            .iter()
            .filter_map(|p| p.file_name()?.to_str().map(String::from))
            .collect();
        for expected in ["gspc.json", "policies.csv", "index.html"]
            .into_iter()
            .chain(plots::FIGURES.iter().map(|f| f.file))
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

    #[test]
    fn a_row_per_scene_then_the_mean() {
        let r = suite();
        let row = per_scene(
            &r,
            "gspc",
            8 << 20,
            |p| Some(p.misses),
            |m| Some(m.misses as u64),
        );
        assert_eq!(row.len(), 3);
        let (a, b) = (row[0].unwrap(), row[1].unwrap());
        assert_eq!(row[2], Some((a + b) / 2));
        assert_eq!(categories(&r), ["a<1>", "b", "mean"]);
    }
}
