//! The files of a composed study (`gfxcache compose`): `compose.json`, the
//! tables and figures the design crate gives as data
//! (`gfxcache_compose::study::tables` and `::figures`), written by
//! [`crate::report::data`], `index.html`, and the summary the command
//! prints, for one frame and for a suite of scenes and their mean
//! ([`crate::report::data::DataStudy`] for [`ComposeReport`]).

use gfxcache_cache::SuiteReport;
use gfxcache_compose::study::tables::MEASURES;
use gfxcache_compose::ComposeReport;
use gfxcache_report::Format;

use crate::report::data;
use crate::report::page::format;
use crate::table::Table;

/// A composed study on a suite.
pub type ComposeSuite = SuiteReport<ComposeReport>;

impl data::DataStudy for ComposeReport {
    const NAME: &'static str = "compose";

    fn warnings(&self) -> &[String] {
        &self.warnings
    }

    fn summary(&self) -> String {
        text(self)
    }

    fn suite_summary(r: &ComposeSuite) -> String {
        suite_text(r)
    }
}

/// The columns of the summaries' tables: the pair, then the measures
/// shown (a column of [`MEASURES`], its heading, and how the pages write
/// it).
const SHOWN: [(&str, &str, Format); 10] = [
    ("speedup", "speedup", Format::decimals(3)),
    (
        "placement_speedup",
        "vs first placement",
        Format::decimals(3),
    ),
    ("interaction", "interaction", Format::decimals(3)),
    ("local_percent", "local", Format::Share),
    ("remote_percent", "remote", Format::Share),
    ("l2_percent", "L2", Format::Share),
    ("stall_percent", "stalled", Format::Share),
    ("l2_hit_rate_percent", "L2 hit rate", Format::Share),
    ("bus_mean_wait_cycles", "bus wait/transfer", Format::Fixed2),
    ("dram_mean_wait_cycles", "DRAM wait/read", Format::Fixed2),
];

/// A table of `keys` columns (left-aligned), then `first` numbers and
/// [`SHOWN`]'s.
fn table(keys: &[&str], first: &[&str]) -> Table {
    let headings = keys
        .iter()
        .chain(first)
        .copied()
        .chain(SHOWN.iter().map(|(_, h, _)| *h));
    let mut t = Table::new(headings);
    for i in 0..keys.len() {
        t = t.left(i);
    }
    t
}

/// The shown measures of `get` (a measure's value by its column).
fn shown(get: impl Fn(&str) -> Option<f64>) -> impl Iterator<Item = String> {
    SHOWN
        .into_iter()
        .map(move |(c, _, how)| get(c).map_or_else(|| "-".into(), |v| format(how, &v.to_string())))
}

/// A run's measure by its column.
fn measure(run: &gfxcache_compose::ComposedRun, column: &str) -> Option<f64> {
    MEASURES
        .iter()
        .find(|(c, _, _)| *c == column)
        .map(|(_, _, of)| of(run))
}

/// The report as a table: per run, the frame's cycles and speedups, where
/// the placement served the accesses, the units' stalls, the L2's hits.
pub fn text(r: &ComposeReport) -> String {
    let mut t = table(&["L1", "placement"], &["frame cycles"]);
    for run in &r.runs {
        let keys = [
            run.mode.clone(),
            run.placement.name().to_string(),
            run.frame_cycles.to_string(),
        ];
        t.row(keys.into_iter().chain(shown(|c| measure(run, c))));
    }
    let base = r.runs.first();
    let traffic = r.runs.iter().map(|run| {
        let keys = vec![run.mode.clone(), run.placement.name().to_string()];
        (keys, &run.machine.l2, &run.machine.dram)
    });
    let timed = match r.trace {
        Some(_) => crate::nuca::summary::timed_traffic(
            &r.config.machine.timing,
            &["L1", "placement"],
            traffic,
        ),
        None => String::new(),
    };
    format!(
        "{}: {} runs on {} fragment processors (baseline: {} under {})\n{}{}",
        r.name,
        r.runs.len(),
        r.config.machine.fps,
        base.map_or("", |b| b.mode.as_str()),
        base.map_or("", |b| b.placement.name()),
        t.render(),
        timed
    )
}

/// What `--suite` prints: the mean over the scenes, then per scene and
/// placement each miss handling's speedup over the baseline and, for
/// every miss handling but the first, its interaction with the placement.
pub fn suite_text(r: &ComposeSuite) -> String {
    let names: Vec<&str> = r.scenes.iter().map(|s| s.scene.as_str()).collect();
    let mut mean = table(&["L1", "placement"], &[]);
    for m in &r.mean.runs {
        let keys = [m.mode.clone(), m.placement.name().to_string()];
        mean.row(keys.into_iter().chain(shown(|c| m.get(c))));
    }
    format!(
        "Composed study of the {} suite ({} scenes: {})\n\nMean over the scenes\n{}\nEach scene\n{}",
        r.suite,
        r.scenes.len(),
        names.join(", "),
        mean.render(),
        per_scene(r).render()
    )
}

/// A row per scene and placement: each miss handling's speedup, then each
/// other miss handling's interaction.
fn per_scene(r: &ComposeSuite) -> Table {
    let Some(first) = r.scenes.first() else {
        return Table::new(["scene"]);
    };
    let c = &first.report.config;
    let modes: Vec<&str> = c.modes.iter().map(|m| m.name()).collect();
    let headings = ["scene".to_string(), "placement".to_string()]
        .into_iter()
        .chain(modes.iter().map(|m| format!("{m} speedup")))
        .chain(modes.iter().skip(1).map(|m| format!("{m} interaction")));
    let mut t = Table::new(headings).left(0).left(1);
    for s in &r.scenes {
        for &p in &c.placements {
            let run = |m: &str| s.report.run(m, p);
            let cells =
                [s.scene.clone(), p.name().to_string()]
                    .into_iter()
                    .chain(modes.iter().map(|m| {
                        run(m).map_or_else(|| "-".into(), |x| format!("{:.3}", x.speedup))
                    }))
                    .chain(modes.iter().skip(1).map(|m| {
                        run(m).map_or_else(|| "-".into(), |x| format!("{:.3}", x.interaction))
                    }));
            t.row(cells);
        }
    }
    t
}

#[cfg(test)]
pub(crate) mod test_report {
    //! Reports the writers' tests share, made by the study itself on small
    //! synthetic frames (as `crates/compose/tests/it.rs` makes them): 4
    //! fragment processors, the blocking cache and the NBTC under private
    //! caches and the distributed DTM-NUCA.

    use std::sync::OnceLock;

    use gfxcache_cache::progress::quiet;
    use gfxcache_compose::study::{self, ComposeConfig};
    use gfxcache_compose::ComposeReport;
    use gfxcache_nuca::{NucaConfig, OrgKind};
    use gfxcache_trace::texreq::{synth, TexReqWriter};

    use super::ComposeSuite;

    /// The study of the frame of `seed`, named `scene`.
    fn study(seed: u64, scene: &str) -> ComposeReport {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("frame.gtq");
        let mut w = TexReqWriter::create(&path, &synth::header(4, 16)).unwrap();
        for r in &synth::frame(4, 16, seed) {
            w.write(r).unwrap();
        }
        w.finish().unwrap();
        let base = ComposeConfig::default();
        let config = ComposeConfig {
            name: scene.into(),
            machine: NucaConfig {
                fps: 4,
                tc_bytes: 2048,
                epoch: 500,
                ..base.machine.clone()
            },
            placements: vec![OrgKind::Private, OrgKind::DtmDist],
            ..base
        };
        let mut report = study::run(&config, &path, None, &quiet).unwrap();
        // A fixed time and path, so that the report's files are the same
        // every run (`report::golden` pins them).
        report.seconds = 0.25;
        report.requests = "frame.gtq".into();
        report
    }

    /// The report of scene `a<1>` (a name to escape), made once.
    pub fn report() -> ComposeReport {
        static REPORT: OnceLock<ComposeReport> = OnceLock::new();
        REPORT.get_or_init(|| study(1, "a<1>")).clone()
    }

    /// The suite of two scenes' studies, with the mean the design crate
    /// computes.
    pub fn suite() -> ComposeSuite {
        crate::report::suite::two_scenes("mobile", report(), study(2, "b"))
    }
}

#[cfg(test)]
mod tests {
    use super::test_report::{report, suite};
    use super::*;
    use gfxcache_nuca::OrgKind;

    #[test]
    fn the_summaries_list_every_run() {
        let r = report();
        let t = text(&r);
        assert!(
            t.starts_with("a<1>: 4 runs on 4 fragment processors (baseline: btc under private)")
        );
        for run in &r.runs {
            let line = format!("{:<5} {}", run.mode, run.placement.name());
            assert!(t.contains(&line), "{line} in\n{t}");
        }
        let s = suite_text(&suite());
        assert!(s.starts_with("Composed study of the mobile suite (2 scenes: a<1>, b)"));
        // The mean's two miss handlings, then a row a scene.
        assert_eq!(s.matches("dtm-nuca-dist").count(), 2 + 2, "{s}");
        assert!(
            s.contains("btc speedup  nbtc speedup  nbtc interaction"),
            "{s}"
        );
        let b = suite().scenes[1].report.clone();
        let nbtc = b.run("nbtc", OrgKind::DtmDist).unwrap();
        let row = format!(
            "b      dtm-nuca-dist  {:>11.3}  {:>12.3}  {:>16.3}",
            b.run("btc", OrgKind::DtmDist).unwrap().speedup,
            nbtc.speedup,
            nbtc.interaction
        );
        assert!(s.contains(&row), "{row} in\n{s}");
    }
}
