//! The files of an NBTC study: `nbtc.json`, CSV tables, SVG plots named
//! after the slides' charts, `index.html`, and the summary the command
//! prints ([`crate::report::StudyFiles`] for [`NbtcReport`];
//! [`crate::report::write_all`] writes them). The helpers here are the
//! ones every writer shares (the slides' number of a design at a latency,
//! the cycle categories, the swept knobs), so the CSV files, the plots and
//! the page agree on what they show. [`suite`] writes the study on a
//! workload suite.

mod csv;
mod html;
mod plots;
pub(crate) mod suite;
mod summary;

use gfxcache_cache::format_size;
use gfxcache_nbtc::study::paper::PaperNumbers;
use gfxcache_nbtc::study::{NbtcReport, RunRow, Sweep};
use gfxcache_nbtc::{MemoryPath, Mode, NbtcConfig, Storage, UnitStats};

use crate::table::thousands;

crate::study_files!(NbtcReport, "nbtc");
crate::suite_files!(NbtcReport);

/// The slides' change in pixel-shader cycles of `mode` against the BTC at
/// `latency`: they give the NBTC's at 50 and 300 cycles only.
fn paper_cycles(paper: &PaperNumbers, mode: Mode, latency: u64) -> Option<f64> {
    if mode != Mode::Nbtc {
        return None;
    }
    paper
        .cycles_change
        .iter()
        .find(|(l, _)| *l == latency)
        .map(|(_, v)| *v)
}

/// The slides' bound on the NBTC's memory traffic over the BTC's ("up to
/// 11 % more"); no other design has one.
fn paper_traffic(paper: &PaperNumbers, mode: Mode) -> Option<f64> {
    (mode == Mode::Nbtc).then_some(paper.traffic_change_max)
}

/// A cycle category of [`UnitStats`]: its field, its name in the charts
/// (the slides' words where they have one) and its count.
pub(super) struct Category {
    pub field: &'static str,
    pub name: &'static str,
    pub of: fn(&UnitStats) -> u64,
}

/// Every cycle category, in the slides' stacking order (PS run, PS stall,
/// NBTC stall) and then ours; they sum to `cycles`.
pub(super) const CATEGORIES: [Category; 9] = [
    Category {
        field: "run_cycles",
        name: "PS run",
        of: |s| s.run_cycles,
    },
    Category {
        field: "issue_cycles",
        name: "issue",
        of: |s| s.issue_cycles,
    },
    Category {
        field: "ps_stall_cycles",
        name: "PS stall",
        of: |s| s.ps_stall_cycles,
    },
    Category {
        field: "nbtc_stall_cycles",
        name: "NBTC stall (WLB full)",
        of: |s| s.nbtc_stall_cycles,
    },
    Category {
        field: "blocked_cycles",
        name: "BTC blocked",
        of: |s| s.blocked_cycles,
    },
    Category {
        field: "miss_queue_full_cycles",
        name: "miss queue full",
        of: |s| s.miss_queue_full_cycles,
    },
    Category {
        field: "rb_full_cycles",
        name: "RB full",
        of: |s| s.rb_full_cycles,
    },
    Category {
        field: "mux_conflict_cycles",
        name: "MUX conflict",
        of: |s| s.mux_conflict_cycles,
    },
    Category {
        field: "drain_cycles",
        name: "drain",
        of: |s| s.drain_cycles,
    },
];

/// A count of [`UnitStats`]: its field and how to read it.
pub(super) type Count = (&'static str, fn(&UnitStats) -> u64);

/// The other counts of [`UnitStats`], by field.
pub(super) const COUNTS: [Count; 10] = [
    ("requests", |s| s.requests),
    ("texel_lookups", |s| s.texel_lookups),
    ("hits", |s| s.hits),
    ("primary_misses", |s| s.primary_misses),
    ("secondary_misses", |s| s.secondary_misses),
    ("memory_requests", |s| s.memory_requests),
    ("traffic_bytes", |s| s.traffic_bytes),
    ("all_hit_requests", |s| s.all_hit_requests),
    ("memory_wait_cycles", |s| s.memory_wait_cycles),
    ("instructions", |s| s.instructions),
];

/// A knob the study sweeps: its name in the report and in the charts.
pub(super) struct Knob {
    pub knob: &'static str,
    pub title: &'static str,
}

pub(super) const KNOBS: [Knob; 9] = [
    Knob {
        knob: "wlb_entries",
        title: "Waiting List Buffer entries",
    },
    Knob {
        knob: "bab_entries",
        title: "Block Address Buffer entries",
    },
    Knob {
        knob: "rb_entries",
        title: "Retry Buffer entries",
    },
    Knob {
        knob: "block_bytes",
        title: "block bytes",
    },
    Knob {
        knob: "hit_latency",
        title: "hit latency (cycles, ours)",
    },
    Knob {
        knob: "filter_latency",
        title: "filter latency (cycles, ours)",
    },
    Knob {
        knob: "issue_rate",
        title: "issue rates, % of the machine's (0: shading takes no time)",
    },
    Knob {
        knob: "fragments_in_flight",
        title: "fragments in flight per pixel processor",
    },
    Knob {
        knob: "shared_memory",
        title: "units sharing one DRAM (0: each its own path; ours)",
    },
];

/// The unit's value of `knob`.
fn main_value(unit: &NbtcConfig, knob: &str) -> Option<u64> {
    Some(match knob {
        "wlb_entries" => u64::from(unit.wlb_entries),
        "bab_entries" => u64::from(unit.bab_entries),
        "rb_entries" => u64::from(unit.rb_entries),
        "block_bytes" => u64::from(unit.block_bytes),
        "hit_latency" => unit.hit_latency,
        "filter_latency" => unit.filter_latency,
        "issue_rate" => 100,
        "fragments_in_flight" => u64::from(unit.fragments_in_flight),
        "shared_memory" => u64::from(unit.memory != MemoryPath::Private),
        _ => return None,
    })
}

/// A value of a swept knob: the NBTC's run at it (against the BTC at the
/// same value, or at the main one for the buffers, which it lacks) and
/// whether it is the unit's own value.
pub(super) struct KnobPoint<'a> {
    pub value: u64,
    pub main: bool,
    pub nbtc: &'a RunRow,
    /// The NBTC's buffers at this value, bytes.
    pub storage_bytes: u64,
}

/// The points of `sweep` in order of value, with the main grid's NBTC run
/// at the unit's value when the sweep leaves it out and the grid has it.
pub(super) fn knob_points<'a>(r: &'a NbtcReport, sweep: &'a Sweep) -> Vec<KnobPoint<'a>> {
    let main = main_value(&r.unit, &sweep.knob);
    let mut points: Vec<KnobPoint> = sweep
        .points
        .iter()
        .map(|p| KnobPoint {
            value: p.value,
            main: Some(p.value) == main,
            nbtc: &p.nbtc,
            storage_bytes: p.storage_bytes,
        })
        .collect();
    let grid = r
        .frames
        .iter()
        .find(|f| f.filter == sweep.filter)
        .and_then(|f| f.row(Mode::Nbtc, sweep.latency));
    if let (Some(value), Some(nbtc)) = (main, grid) {
        if !points.iter().any(|p| p.value == value) {
            points.push(KnobPoint {
                value,
                main: true,
                nbtc,
                storage_bytes: r.storage.bytes,
            });
        }
    }
    points.sort_by_key(|p| p.value);
    points
}

/// Whether the NBTC's buffers cost a different amount at some of
/// `points` (a buffer's or the block size's sweep).
pub(super) fn storage_varies(points: &[KnobPoint]) -> bool {
    points
        .windows(2)
        .any(|w| w[0].storage_bytes != w[1].storage_bytes)
}

/// What the NBTC's buffers cost, in a line: `RB 32 x 124 bits, WLB 32 x
/// 552 bits, BAB 32 x 28 bits = 2,816 B, 8.59% of the L1's 32KiB data
/// array`.
pub(super) fn storage_line(s: &Storage) -> String {
    let buffers: Vec<String> = [("RB", &s.rb), ("WLB", &s.wlb), ("BAB", &s.bab)]
        .iter()
        .map(|(name, b)| format!("{name} {} x {} bits", b.entries, b.entry_bits))
        .collect();
    format!(
        "{} = {} B, {} of the L1's {} data array",
        buffers.join(", "),
        thousands(s.bytes),
        share(s.share_of_l1),
        format_size(s.l1_data_bytes)
    )
}

/// A value as a category: `32 (main)` for the unit's.
pub(super) fn value_label(value: u64, main: bool) -> String {
    if main {
        format!("{value} (main)")
    } else {
        value.to_string()
    }
}

/// The title of `knob` in the charts.
pub(super) fn knob_title(knob: &str) -> &str {
    KNOBS
        .iter()
        .find(|k| k.knob == knob)
        .map_or(knob, |k| k.title)
}

/// A latency as a category.
pub(super) fn latency_label(latency: u64) -> String {
    format!("{latency} cycles")
}

/// A signed percentage for tables: `-41.6%`, `+3.0%`.
pub(super) fn signed(v: f64) -> String {
    format!("{:+.1}%", v + 0.0)
}

/// The picture of the frame of filter mode `filter` in a report's
/// directory, as `gfxcache nbtc --scene` renders the first mode's.
pub(super) fn picture(filter: &str) -> String {
    format!("{filter}.png")
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
        let csv = ["runs.csv", "sweeps.csv", "paper.csv"];
        let figures = plots::STACKED
            .iter()
            .map(|f| f.file)
            .chain(plots::FIGURES.iter().map(|f| f.file));
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
        for k in &KNOBS {
            let file = format!("sweep_{}.svg", k.knob);
            assert!(plots::SWEEPS.iter().any(|f| f.file == file), "{file}");
            assert!(
                suite::plots::SWEEPS.iter().any(|f| f.file == file),
                "{file}"
            );
        }
        assert_eq!(plots::SWEEPS.len(), KNOBS.len());
        assert_eq!(suite::plots::SWEEPS.len(), KNOBS.len());
    }
}
