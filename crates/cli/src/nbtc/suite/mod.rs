//! The files of an NBTC study on a workload suite (`nbtc --suite`): the
//! suite's `nbtc.json` (every scene's report and the mean), the design
//! crate's tables and suite figures written by [`crate::report::data`]
//! (each scene's rows and the mean rows of one group-by; figures of the
//! mean and of each scene beside the slides' numbers), the page and the
//! summary ([`crate::report::suite::SuiteFiles`] for [`NbtcReport`]),
//! which read the design crate's mean, [`gfxcache_nbtc::study::NbtcMean`].
//! Each scene's own files are its report's, in its directory.

pub mod summary;

use gfxcache_cache::SuiteReport;
use gfxcache_nbtc::study::paper::{self, PaperNumbers};
use gfxcache_nbtc::study::NbtcReport;

/// An NBTC study on a suite.
pub type NbtcSuite = SuiteReport<NbtcReport>;

pub use crate::report::suite::MEAN;

/// The slides' numbers (every scene's report holds the same).
pub fn paper_of(r: &NbtcSuite) -> PaperNumbers {
    r.scenes
        .first()
        .map_or_else(paper::numbers, |s| s.report.paper.clone())
}

/// Each value once, in the order first met.
fn distinct<T: PartialEq>(all: impl Iterator<Item = T>) -> Vec<T> {
    let mut out = Vec::new();
    for x in all {
        if !out.contains(&x) {
            out.push(x);
        }
    }
    out
}

/// The filter modes of the mean, in its order.
pub fn filters(r: &NbtcSuite) -> Vec<String> {
    distinct(r.mean.rows.iter().map(|m| m.filter.clone()))
}

/// The latencies of the mean, in its order.
pub fn latencies(r: &NbtcSuite) -> Vec<u64> {
    distinct(r.mean.rows.iter().map(|m| m.latency))
}

#[cfg(test)]
pub(crate) mod test_suite {
    //! A suite of two scenes' studies, with the mean the design crate
    //! computes.

    use super::NbtcSuite;
    use crate::nbtc::test_report::{other_report, report};

    pub fn suite() -> NbtcSuite {
        crate::report::suite::two_scenes("mobile", report(), other_report())
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
        let figures = [
            "cycles_change_scenes.svg",
            "cycles_change.svg",
            "miss_rate.svg",
            "traffic_change.svg",
        ];
        for file in [
            "nbtc.json",
            "index.html",
            "runs.csv",
            "sweeps.csv",
            "paper.csv",
        ]
        .into_iter()
        .chain(figures)
        .chain(["sweep_wlb_entries.svg", "sweep_block_bytes.svg"])
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
            serde_json::from_str(&std::fs::read_to_string(dir.path().join("nbtc.json"))?)?;
        assert_eq!(v["suite"], "mobile");
        assert_eq!(v["scenes"][1]["scene"], "b");
        assert_eq!(v["mean"]["scenes"][0], "a<1>");
        Ok(())
    }

    #[test]
    fn the_means_axes() {
        let r = suite();
        assert_eq!(filters(&r), ["nearest", "bilinear"]);
        assert_eq!(latencies(&r), [50, 300]);
        assert_eq!(paper_of(&r), paper::numbers());
    }
}
