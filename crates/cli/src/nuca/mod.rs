//! The files of a DTM-NUCA study: `nuca.json`, CSV tables, SVG plots named
//! after the paper's figures, `index.html`, and the summary the command
//! prints ([`crate::report::StudyFiles`] for [`NucaReport`];
//! [`crate::report::write_all`] writes them). The helpers here are the ones
//! every writer shares (the paper's number of an organization, a figure's
//! columns), so the CSV files, the plots and the page agree on what they
//! show. [`suite`] writes the study on a workload suite.

mod csv;
mod html;
mod plots;
pub(crate) mod suite;
mod summary;

use gfxcache_nuca::study::paper::{PaperNumbers, PAPER_ORGANIZATIONS};
use gfxcache_nuca::study::{Figures, NucaReport};
use gfxcache_nuca::OrgKind;

crate::study_files!(NucaReport, "nuca");
crate::suite_files!(NucaReport);

/// The paper's value of `kind` among `values`, given in
/// [`PAPER_ORGANIZATIONS`]' order (D-NUCA, DTM-NUCA, its distributed form).
fn paper_of(kind: OrgKind, values: &[f64; 3]) -> Option<f64> {
    PAPER_ORGANIZATIONS
        .iter()
        .position(|&k| k == kind)
        .map(|i| values[i])
}

/// The paper's Figure 11 speedup of `kind` with `fps` fragment processors:
/// it gives DTM-NUCA's and its distributed form's with 4 and with 32.
fn paper_scaling(paper: &PaperNumbers, kind: OrgKind, fps: usize) -> Option<f64> {
    let pair = match fps {
        4 => &paper.speedup_p4_percent,
        32 => &paper.speedup_p32_percent,
        _ => return None,
    };
    match kind {
        OrgKind::Dtm => Some(pair[0]),
        OrgKind::DtmDist => Some(pair[1]),
        _ => None,
    }
}

/// The paper's Figure 7 effective capacity of `kind`, in bytes: the private
/// size DTM-NUCA's 16 KiB caches match in L2 accesses.
fn paper_effective_bytes(paper: &PaperNumbers, kind: OrgKind) -> Option<u64> {
    match kind {
        OrgKind::Dtm => Some(paper.effective_kib[0] * 1024),
        OrgKind::DtmDist => Some(paper.effective_kib[1] * 1024),
        _ => None,
    }
}

/// `sizes` and the paper's Figure 7 sizes, in order: where Figure 7's
/// flat lines run, so that the paper's marks sit on them.
fn capacity_axis(sizes: impl IntoIterator<Item = u64>, paper: &PaperNumbers) -> Vec<u64> {
    let marks = [OrgKind::Dtm, OrgKind::DtmDist]
        .into_iter()
        .filter_map(|k| paper_effective_bytes(paper, k));
    let mut all: Vec<u64> = sizes.into_iter().chain(marks).collect();
    all.sort_unstable();
    all.dedup();
    all
}

/// The names of [`Figures`]' fields, as the CSV files' columns.
const FIGURE_COLUMNS: [&str; 15] = [
    "local_hit_percent",
    "remote_hit_percent",
    "l2_hit_percent",
    "l2_miss_percent",
    "l2_texture_change_percent",
    "l2_all_change_percent",
    "speedup_percent",
    "energy_change_percent",
    "gpu_energy_change_percent",
    "memory_energy_change_percent",
    "mean_latency_cycles",
    "bus_utilisation_percent",
    "bus_mean_wait_cycles",
    "fp_issue_rate",
    "fp_busy_percent",
];

/// [`Figures`]' fields in [`FIGURE_COLUMNS`]' order.
fn figure_values(f: &Figures) -> [f64; 15] {
    [
        f.local_hit_percent,
        f.remote_hit_percent,
        f.l2_hit_percent,
        f.l2_miss_percent,
        f.l2_texture_change_percent,
        f.l2_all_change_percent,
        f.speedup_percent,
        f.energy_change_percent,
        f.gpu_energy_change_percent,
        f.memory_energy_change_percent,
        f.mean_latency_cycles,
        f.bus_utilisation_percent,
        f.bus_mean_wait_cycles,
        f.fp_issue_rate,
        f.fp_busy_percent,
    ]
}

/// What a chart or a table shows of an organization's figures: its name,
/// its value, and the paper's value of it if the paper gives one.
#[derive(Clone, Copy)]
struct Metric {
    name: &'static str,
    of: fn(&Figures) -> f64,
    paper: Option<fn(&PaperNumbers) -> &[f64; 3]>,
}

/// Figure 6, texture requests: the paper's "L2 accesses" beside it.
const L2_TEXTURE: Metric = Metric {
    name: "L2 texture requests vs private %",
    of: |f| f.l2_texture_change_percent,
    paper: Some(paper_l2),
};
/// Figure 6, every stream: the paper's one "L2 accesses" number beside it
/// too, since the paper does not say which streams it counts.
const L2_ALL: Metric = Metric {
    name: "L2 accesses (all streams) vs private %",
    of: |f| f.l2_all_change_percent,
    paper: Some(paper_l2),
};
const LOCAL_HITS: Metric = Metric {
    name: "local hits %",
    of: |f| f.local_hit_percent,
    paper: Some(paper_local_hits),
};
const SPEEDUP: Metric = Metric {
    name: "speedup over private %",
    of: |f| f.speedup_percent,
    paper: Some(paper_speedup),
};
const ENERGY: Metric = Metric {
    name: "energy vs private %",
    of: |f| f.energy_change_percent,
    paper: Some(paper_energy),
};

fn paper_l2(p: &PaperNumbers) -> &[f64; 3] {
    &p.l2_accesses_percent
}

fn paper_local_hits(p: &PaperNumbers) -> &[f64; 3] {
    &p.local_hits_percent
}

fn paper_speedup(p: &PaperNumbers) -> &[f64; 3] {
    &p.speedup_percent
}

fn paper_energy(p: &PaperNumbers) -> &[f64; 3] {
    &p.energy_percent
}

impl Metric {
    fn paper(&self, paper: &PaperNumbers, kind: OrgKind) -> Option<f64> {
        paper_of(kind, (self.paper?)(paper))
    }
}

/// DTM-NUCA-Dist's figures under each reading of the announced count the
/// report holds: (reading, whether it is the main one, figures), the main
/// first; empty without the distributed table or the other reading.
fn announced_readings(r: &NucaReport) -> Vec<(String, bool, Figures)> {
    let Some(main) = r.row(OrgKind::DtmDist) else {
        return Vec::new();
    };
    let others: Vec<_> = r
        .sweeps
        .iter()
        .filter(|p| p.knob == "announced_count" && p.organization == OrgKind::DtmDist)
        .map(|p| (p.value.clone(), false, p.figures))
        .collect();
    if others.is_empty() {
        return Vec::new();
    }
    let name = r.config.announced_count.name().to_string();
    std::iter::once((name, true, main.figures))
        .chain(others)
        .collect()
}

/// The organizations other than private, in `kinds`' order: the ones with
/// a figure against it.
fn against_private(kinds: impl IntoIterator<Item = OrgKind>) -> Vec<OrgKind> {
    kinds
        .into_iter()
        .filter(|&k| k != OrgKind::Private)
        .collect()
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
        let bars = plots::FRONT
            .iter()
            .chain(plots::BACK)
            .chain(plots::ASSIGNMENTS);
        let figures = bars
            .map(|f| f.file)
            .chain(plots::CAPACITY.iter().map(|f| f.file));
        let sweeps = [
            "sweep_epoch.svg",
            "sweep_buckets.svg",
            "sweep_page_blocks.svg",
            "sweep_announced_count.svg",
        ];
        for f in CSV.into_iter().chain(figures).chain(sweeps) {
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
