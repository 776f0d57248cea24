//! The files of an NBTC study: `nbtc.json`, the tables and figures the
//! design crate gives as data (`gfxcache_nbtc::study::tables` and
//! `::figures`), written as CSV, Parquet and SVG by
//! [`crate::report::data`], `index.html`, and the summary the command
//! prints ([`crate::report::StudyFiles`] for [`NbtcReport`];
//! [`crate::report::write_all`] writes them). [`suite`] writes the study
//! on a workload suite.

#[cfg(test)]
mod data_tests;
pub(crate) mod suite;
mod summary;

pub(crate) use gfxcache_nbtc::study::page::storage_line;
pub(crate) use gfxcache_nbtc::study::tables::{
    knob_points, paper_cycles, paper_traffic, KnobPoint,
};
use gfxcache_nbtc::study::NbtcReport;

use crate::report::data;

impl data::DataStudy for NbtcReport {
    const NAME: &'static str = "nbtc";

    fn warnings(&self) -> &[String] {
        &self.warnings
    }

    fn summary(&self) -> String {
        summary::text(self)
    }

    fn suite_summary(r: &suite::NbtcSuite) -> String {
        suite::summary::text(r)
    }
}

/// Whether the NBTC's buffers cost a different amount at some of
/// `points` (a buffer's or the block size's sweep).
pub(super) fn storage_varies(points: &[KnobPoint]) -> bool {
    points
        .windows(2)
        .any(|w| w[0].storage_bytes != w[1].storage_bytes)
}

/// A value as a category: `32 (main)` for the unit's.
pub(super) fn value_label(value: u64, main: bool) -> String {
    if main {
        format!("{value} (main)")
    } else {
        value.to_string()
    }
}

/// A signed percentage for tables: `-41.6%`, `+3.0%`.
pub(super) fn signed(v: f64) -> String {
    format!("{:+.1}%", v + 0.0)
}

/// A share for tables: `6.3%`.
pub(super) fn share(v: f64) -> String {
    format!("{v:.2}%")
}

#[cfg(test)]
pub(crate) mod test_report {
    //! Reports the writers' tests share, made by the study itself on small
    //! synthetic frames (as `crates/nbtc/tests/it/study.rs` makes them): a
    //! nearest and a bilinear frame of 8 pixel processors, every design at
    //! 50 and 300 cycles, two sweeps on the bilinear frame.

    use std::sync::OnceLock;

    use gfxcache_cache::progress::quiet;
    use gfxcache_nbtc::study::{self, FilterFrame, NbtcReport, NbtcStudyConfig, Sweeps};
    use gfxcache_trace::texreq::{synth, TexReqWriter};

    /// The study of the frames of `seed`, named `scene`.
    fn study(seed: u64, scene: &str) -> NbtcReport {
        let dir = tempfile::tempdir().unwrap();
        let frames: Vec<FilterFrame> = ["nearest", "bilinear"]
            .iter()
            .enumerate()
            .map(|(i, filter)| {
                let path = dir.path().join(format!("{filter}.gtq"));
                let mut w = TexReqWriter::create(&path, &synth::header(8, 4)).unwrap();
                for r in &synth::frame(8, 4, seed + i as u64) {
                    w.write(r).unwrap();
                }
                w.finish().unwrap();
                FilterFrame {
                    filter: filter.to_string(),
                    requests: path,
                }
            })
            .collect();
        let config = NbtcStudyConfig {
            name: scene.into(),
            latencies: vec![50, 300],
            sweeps: Sweeps {
                wlb_entries: vec![1, 8],
                block_bytes: vec![32, 64],
                ..Sweeps::none()
            },
            ..NbtcStudyConfig::default()
        };
        let mut report = study::run(&config, &frames, &quiet).unwrap();
        // A fixed time, so that the report's files are the same every run
        // (`report::golden` pins them).
        report.seconds = 0.25;
        report
    }

    /// The report of scene `a<1>` (a name to escape), made once.
    pub fn report() -> NbtcReport {
        static REPORT: OnceLock<NbtcReport> = OnceLock::new();
        REPORT.get_or_init(|| study(1, "a<1>")).clone()
    }

    /// Another scene's report (other frames), made once.
    pub fn other_report() -> NbtcReport {
        static REPORT: OnceLock<NbtcReport> = OnceLock::new();
        REPORT.get_or_init(|| study(7, "b")).clone()
    }
}

#[cfg(test)]
mod tests {
    use super::test_report::report;
    use super::*;
    use crate::report::{to_json, write_all};
    use gfxcache_nbtc::study::tables::{knob_title, CATEGORIES};
    use gfxcache_nbtc::Mode;
    use std::path::PathBuf;

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
        assert_eq!(names.first().map(String::as_str), Some("nbtc.json"));
        assert_eq!(names.last().map(String::as_str), Some("index.html"));
        let csv = ["runs.csv", "sweeps.csv", "paper.csv", "runs.parquet"];
        let figures = [
            "ps_cycles.svg",
            "cycles_change.svg",
            "miss_rate.svg",
            "traffic.svg",
        ];
        let sweeps = ["sweep_wlb_entries.svg", "sweep_block_bytes.svg"];
        for f in csv.into_iter().chain(figures).chain(sweeps) {
            assert!(names.iter().any(|n| n == f), "{f} not written");
        }
        assert!(
            !names.iter().any(|n| n == "sweep_bab_entries.svg"),
            "no BAB sweep, no figure"
        );
        for path in &written {
            assert!(
                std::fs::metadata(path)?.len() > 0,
                "{} empty",
                path.display()
            );
        }
        let json = std::fs::read_to_string(dir.path().join("nbtc.json"))?;
        assert_eq!(to_json(&r)?, json);
        Ok(())
    }

    #[test]
    fn the_slides_numbers_belong_to_the_nbtc() {
        let p = report().paper;
        assert_eq!(paper_cycles(&p, Mode::Nbtc, 50), Some(-12.47));
        assert_eq!(paper_cycles(&p, Mode::Nbtc, 300), Some(-41.64));
        assert_eq!(paper_cycles(&p, Mode::Nbtc, 100), None);
        assert_eq!(paper_cycles(&p, Mode::BTC, 50), None);
        assert_eq!(paper_traffic(&p, Mode::Nbtc), Some(11.0));
        assert_eq!(paper_traffic(&p, Mode::mshr()), None);
        assert_eq!(signed(-0.0), "+0.0%");
        assert_eq!(signed(-41.64), "-41.6%");
    }

    /// Every category is counted once: they sum to the cycles.
    #[test]
    fn the_categories_add_up_to_the_cycles() {
        let r = report();
        for row in r.frames.iter().flat_map(|f| &f.runs) {
            let sum: u64 = CATEGORIES.iter().map(|c| (c.of)(&row.stats)).sum();
            assert_eq!(sum, row.stats.cycles, "{:?}", row.mode);
        }
    }

    /// The main WLB value (32) is not swept here: the main grid's NBTC at
    /// 300 cycles stands in for it, marked.
    #[test]
    fn a_knobs_points_hold_the_main_value() {
        let r = report();
        let wlb = r.sweeps.iter().find(|s| s.knob == "wlb_entries").unwrap();
        let points = knob_points(&r, wlb);
        let values: Vec<(u64, bool)> = points.iter().map(|p| (p.value, p.main)).collect();
        assert_eq!(values, [(1, false), (8, false), (32, true)]);
        let main = r.frames[1].row(Mode::Nbtc, 300).unwrap();
        assert_eq!(points[2].nbtc, main);
        let block = r.sweeps.iter().find(|s| s.knob == "block_bytes").unwrap();
        let values: Vec<(u64, bool)> = knob_points(&r, block)
            .iter()
            .map(|p| (p.value, p.main))
            .collect();
        assert_eq!(values, [(32, true), (64, false)]);
        assert_eq!(value_label(32, true), "32 (main)");
        assert_eq!(knob_title("rb_entries"), "Retry Buffer entries");
    }

    /// Every knob has its figure, alone and on a suite.
    #[test]
    fn every_knob_has_a_sweep_figure() {
        use gfxcache_nbtc::study::figures::SWEEP_TITLES;
        use gfxcache_nbtc::study::tables::KNOBS;
        for k in &KNOBS {
            assert!(SWEEP_TITLES.iter().any(|(knob, _)| *knob == k.knob));
        }
        assert_eq!(SWEEP_TITLES.len(), KNOBS.len());
    }
}
