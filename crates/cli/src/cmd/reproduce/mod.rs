//! `gfxcache reproduce`: each paper's study on every scene of the suite of
//! the class of frames it measured, on the paper's machine, as the book's
//! result chapters show it; and the composed study (`compose`, DTM-NUCA's
//! placements under the NBTC's miss handlings) on the suite both papers
//! measured.
//!
//! A paper's run is a sweep file of its own (`crates/cli/reproduce/<paper>.toml`,
//! and `<paper>-quick.toml` for `--quick`, built into the program and
//! written into `--out` beside its results): the sweep runs each scene's
//! study in a worker, keeping each result in its store the moment it ends,
//! so that a run stopped at any point and started again runs only what
//! has no result, and a changed model (a new build) runs everything again.
//! Then the scenes' reports, read back from the store, make the suite's
//! report (`DIR/<paper>/suite/`, as `--suite` writes it), and its page's
//! tables and figures become the book's markdown (`BOOK/<paper>.md`, its
//! figures in `BOOK/<paper>/`), which the chapters include: no number in a
//! result chapter is typed by hand. Run for every paper, it also writes
//! the suites' shader work ([`workload`], `BOOK/workload.md`), which the
//! machines chapter includes.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use gfxcache_cache::suite::{SceneReport, SuiteMean, SuiteReport};
use gfxcache_report::Report;
use gfxcache_sweep::{Experiment, Job, Store};
use serde::de::DeserializeOwned;
use serde::Serialize;

mod workload;

use super::print_json;
use crate::report::suite::{run_suite, SuiteFiles, SuiteRun};
use crate::report::{data, Print, StudyFiles};
use crate::table::Table as TextTable;

#[derive(clap::Args)]
#[command(after_help = "Examples:\n  \
gfxcache reproduce --quick --out out/reproduce-quick\n  \
gfxcache reproduce --paper nbtc --out out/reproduce --book docs/src/results\n\n\
Each paper's experiment is a sweep file (crates/cli/reproduce/<paper>.toml), \
written into DIR/<paper>/ before it runs.")]
pub struct Args {
    /// The runs' directory: DIR/<paper>/ holds the paper's experiment
    /// (experiment.toml), its sweep (sweep/: the frames and each scene's
    /// result, kept as they end) and its suite's report (suite/). Started
    /// again on the same DIR, a run does only what has no result.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Where the book's pieces go: BOOK/<paper>.md, the suite page's
    /// tables and figures as markdown, and BOOK/<paper>/, its figures. The
    /// chapters in BOOK's parent directory include them (an mdBook
    /// include of results/<paper>.md). Without --paper, also
    /// BOOK/workload.md, each suite's shader work at its paper's frame.
    /// Default: DIR/book.
    #[arg(long, value_name = "BOOK")]
    pub book: Option<PathBuf>,
    /// Small frames (320x180 desktop, about a fifth of the paper's screen
    /// for mobile): a check in minutes that every table and figure is
    /// made, not the results.
    #[arg(long)]
    pub quick: bool,
    /// Only these papers, comma-separated (default: all four, and the
    /// designs composed on one machine, `compose`).
    #[arg(long, value_enum, value_delimiter = ',')]
    pub paper: Vec<Paper>,
    /// Jobs run side by side (default: one per core).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Print what was written as one JSON document on stdout, instead of
    /// a table.
    #[arg(long)]
    pub json: bool,
}

/// A paper whose results the book shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Paper {
    Gspc,
    Tcor,
    Nuca,
    Nbtc,
    /// Not a paper: the DTM-NUCA and NBTC designs composed on one machine
    /// (`gfxcache compose`).
    Compose,
}

impl Paper {
    pub const ALL: [Paper; 5] = [
        Paper::Gspc,
        Paper::Tcor,
        Paper::Nuca,
        Paper::Nbtc,
        Paper::Compose,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Paper::Gspc => "gspc",
            Paper::Tcor => "tcor",
            Paper::Nuca => "nuca",
            Paper::Nbtc => "nbtc",
            Paper::Compose => "compose",
        }
    }

    /// The sweep file of the paper's run (`--quick`'s with `quick`).
    pub fn experiment(self, quick: bool) -> &'static str {
        match (self, quick) {
            (Paper::Gspc, false) => include_str!("../../../reproduce/gspc.toml"),
            (Paper::Gspc, true) => include_str!("../../../reproduce/gspc-quick.toml"),
            (Paper::Tcor, false) => include_str!("../../../reproduce/tcor.toml"),
            (Paper::Tcor, true) => include_str!("../../../reproduce/tcor-quick.toml"),
            (Paper::Nuca, false) => include_str!("../../../reproduce/nuca.toml"),
            (Paper::Nuca, true) => include_str!("../../../reproduce/nuca-quick.toml"),
            (Paper::Nbtc, false) => include_str!("../../../reproduce/nbtc.toml"),
            (Paper::Nbtc, true) => include_str!("../../../reproduce/nbtc-quick.toml"),
            (Paper::Compose, false) => include_str!("../../../reproduce/compose.toml"),
            (Paper::Compose, true) => include_str!("../../../reproduce/compose-quick.toml"),
        }
    }

    /// The suite of the class of frames the paper measured.
    fn suite(self) -> &'static str {
        match self {
            Paper::Gspc => gfxcache_llc::study::paper::SUITE,
            Paper::Tcor => gfxcache_tcor::study::paper::SUITE,
            Paper::Nuca => gfxcache_nuca::study::paper::SUITE,
            Paper::Nbtc => gfxcache_nbtc::study::paper::SUITE,
            Paper::Compose => gfxcache_compose::study::SUITE,
        }
    }
}

/// What one paper's run wrote.
#[derive(Serialize)]
pub struct Reproduced {
    pub paper: Paper,
    pub suite: String,
    pub scenes: usize,
    /// The frames' size, `WxH`.
    pub resolution: String,
    /// The suite's page.
    pub report: PathBuf,
    /// The book's markdown.
    pub book: PathBuf,
}

pub fn run(args: Args) -> Result<()> {
    let json = args.json;
    let done = output(args)?;
    if json {
        print_json(&done)
    } else {
        print!("{}", text(&done));
        Ok(())
    }
}

/// Runs each paper asked for in turn; a paper that fails does not stop
/// the others, and the error names every one that failed.
pub fn output(args: Args) -> Result<Vec<Reproduced>> {
    let papers = if args.paper.is_empty() {
        Paper::ALL.to_vec()
    } else {
        args.paper.clone()
    };
    let book = args.book.clone().unwrap_or_else(|| args.out.join("book"));
    let mut done = Vec::new();
    let mut failed = Vec::new();
    for (i, &paper) in papers.iter().enumerate() {
        eprintln!(
            "reproduce: {} ({}/{}){}",
            paper.name(),
            i + 1,
            papers.len(),
            if args.quick { ", quick" } else { "" }
        );
        let run = match paper {
            Paper::Gspc => one::<gfxcache_llc::study::GspcReport>(paper, &args, &book),
            Paper::Tcor => one::<gfxcache_tcor::study::TcorReport>(paper, &args, &book),
            Paper::Nuca => one::<gfxcache_nuca::study::NucaReport>(paper, &args, &book),
            Paper::Nbtc => one::<gfxcache_nbtc::study::NbtcReport>(paper, &args, &book),
            Paper::Compose => one::<gfxcache_compose::ComposeReport>(paper, &args, &book),
        };
        match run {
            Ok(r) => done.push(r),
            Err(e) => {
                eprintln!("error: reproduce {}: {e:#}", paper.name());
                failed.push(paper.name());
            }
        }
    }
    // With every paper, the suites' shader work the machines chapter
    // shows.
    if args.paper.is_empty() {
        let scratch = args.out.join("workload");
        std::fs::create_dir_all(&scratch)
            .with_context(|| format!("cannot create {}", scratch.display()))?;
        match workload::write(args.quick, &book, &scratch) {
            Ok(path) => eprintln!("reproduce: shader work in {}", path.display()),
            Err(e) => {
                eprintln!("error: reproduce the shader work: {e:#}");
                failed.push("the shader work");
            }
        }
    }
    if !failed.is_empty() {
        bail!(
            "{} failed; every finished scene is kept in {}, and a run started again does \
             only what is left",
            failed.join(", "),
            args.out.display()
        );
    }
    Ok(done)
}

/// One paper's run: its sweep, its suite's report, its book pages.
fn one<R>(paper: Paper, args: &Args, book: &Path) -> Result<Reproduced>
where
    R: SuiteFiles + Report + SuiteMean + DeserializeOwned + Clone,
{
    let dir = args.out.join(paper.name());
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let file = dir.join("experiment.toml");
    crate::output::write_bytes(&file, paper.experiment(args.quick).as_bytes())?;
    let store_dir = dir.join("sweep");
    super::sweep::output(super::sweep::Args {
        experiment: file.clone(),
        out: Some(store_dir.clone()),
        jobs: args.jobs,
        oversubscribe: false,
        max_jobs: crate::sweep::DEFAULT_MAX_JOBS,
        json: true,
    })?;
    let exp = Experiment::read(&file)?;
    let store = Store::open(&store_dir)
        .with_context(|| format!("cannot open the sweep directory {}", store_dir.display()))?;
    let jobs = exp.jobs();
    let scenes: Vec<&str> = jobs.iter().map(|j| j.frame.scene.as_str()).collect();
    let suite = SuiteRun {
        name: paper.suite(),
        scenes: scenes.clone(),
        paper: paper.suite(),
    };
    let report_dir = dir.join("suite");
    let mut reports = Vec::with_capacity(jobs.len());
    run_suite::<R>(&report_dir, &suite, &[], Print::Nothing, |at, _| {
        let job = &jobs[reports.len()];
        let report: R = stored_report(&store, job, at.staged)?;
        reports.push(SceneReport {
            scene: at.scene.to_string(),
            report: report.clone(),
        });
        Ok(report)
    })?;
    let suite_report = SuiteReport::new(paper.suite(), reports, Vec::new())?;
    let images = book.join(paper.name());
    let link = format!(
        "{}/{}",
        book.file_name().and_then(|n| n.to_str()).unwrap_or("."),
        paper.name()
    );
    let f = &exp.frames[0];
    let resolution = format!("{}x{}", f.width, f.height);
    let mut md = provenance(paper, args.quick, &suite_report, &resolution);
    md += &data::suite_markdown(&suite_report, &images, &link)?;
    let page = book.join(format!("{}.md", paper.name()));
    crate::output::write_bytes(&page, md.as_bytes())?;
    Ok(Reproduced {
        paper,
        suite: paper.suite().to_string(),
        scenes: scenes.len(),
        resolution,
        report: report_dir.join("index.html"),
        book: page,
    })
}

/// The report `job` keeps in `store`, its files copied into `dir` (the
/// suite's scene directory), with the sweep's picture of the frame when
/// the study's page shows a frame it did not render itself (GSPC reads
/// the sweep's trace; the others render their own frames).
fn stored_report<R: StudyFiles + Report + DeserializeOwned>(
    store: &Store,
    job: &Job,
    dir: &Path,
) -> Result<R> {
    let from = store.report_dir(job);
    if store.load(job).is_none() {
        bail!(
            "{}: the sweep kept no whole result for this scene",
            from.display()
        );
    }
    copy_files(&from, dir)?;
    let json = from.join(format!("{}.json", R::NAME));
    let text = std::fs::read_to_string(&json)
        .with_context(|| format!("cannot read {}", json.display()))?;
    let report: R = serde_json::from_str(&text)
        .with_context(|| format!("{}: not a {} report of this build", json.display(), R::NAME))?;
    if let Some(p) = Report::page(&report)?.picture {
        let (picture, to) = (
            store.frame_dir(&job.frame).join(crate::sweep::PICTURE),
            dir.join(&p.file),
        );
        if picture.is_file() && !to.exists() {
            std::fs::copy(&picture, &to).with_context(|| {
                format!("cannot copy {} to {}", picture.display(), to.display())
            })?;
        }
    }
    Ok(report)
}

/// Copies the files of `from` (and of its directories, in turn) into `to`.
fn copy_files(from: &Path, to: &Path) -> Result<()> {
    for entry in
        std::fs::read_dir(from).with_context(|| format!("cannot read {}", from.display()))?
    {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            std::fs::create_dir_all(&target)
                .with_context(|| format!("cannot create {}", target.display()))?;
            copy_files(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), &target).with_context(|| {
                format!(
                    "cannot copy {} to {}",
                    entry.path().display(),
                    target.display()
                )
            })?;
        }
    }
    Ok(())
}

/// The first lines of a paper's book page: what made it.
fn provenance<R: SuiteMean>(
    paper: Paper,
    quick: bool,
    r: &SuiteReport<R>,
    resolution: &str,
) -> String {
    let command = if quick {
        format!("gfxcache reproduce --quick --paper {}", paper.name())
    } else {
        format!("gfxcache reproduce --paper {}", paper.name())
    };
    let mut s = format!(
        "<!-- Written by `{command}`: do not edit. -->\n\n\
         *Made by `{command}` (gfxcache {}) from `crates/cli/reproduce/{}{}.toml`: \
         the {} suite's {} scenes at {resolution}.*\n\n",
        gfxcache_sweep::VERSION,
        paper.name(),
        if quick { "-quick" } else { "" },
        r.suite,
        r.scenes.len(),
    );
    if quick {
        s += "**A quick run on small frames: it checks that every table and figure is made; \
              its numbers are not the results.**\n\n";
    }
    s
}

/// The table printed without `--json`.
fn text(done: &[Reproduced]) -> String {
    let mut t = TextTable::new(["paper", "suite", "scenes", "frames", "report", "book"]);
    for d in done {
        t.row([
            d.paper.name().to_string(),
            d.suite.clone(),
            d.scenes.to_string(),
            d.resolution.clone(),
            d.report.display().to_string(),
            d.book.display().to_string(),
        ]);
    }
    t.render()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A report read back from its JSON is the report: written again, the
    /// same bytes (what a suite made from the sweep's stored reports
    /// rests on).
    fn round_trip<R: StudyFiles + DeserializeOwned>(r: &R) {
        let text = crate::report::to_json(r).unwrap();
        let back: R = serde_json::from_str(&text).unwrap();
        assert_eq!(crate::report::to_json(&back).unwrap(), text, "{}", R::NAME);
    }

    #[test]
    fn every_studys_report_reads_back_from_its_json() {
        round_trip(&crate::gspc::test_report::report());
        round_trip(&crate::tcor::test_report::report());
        round_trip(&crate::nuca::test_report::report());
        round_trip(&crate::nbtc::test_report::report());
        round_trip(&crate::compose::test_report::report());
    }

    #[test]
    fn every_papers_experiment_reads_and_names_its_suite() {
        let dir = tempfile::tempdir().unwrap();
        for paper in Paper::ALL {
            for quick in [false, true] {
                let file = dir.path().join(format!("{}-{quick}.toml", paper.name()));
                std::fs::write(&file, paper.experiment(quick)).unwrap();
                let exp = Experiment::read(&file).unwrap();
                let jobs = exp.jobs();
                let suite = gfxcache_render::scene::builtin::Suite::ALL
                    .into_iter()
                    .find(|s| s.name() == paper.suite())
                    .unwrap();
                let scenes: Vec<&str> = jobs.iter().map(|j| j.frame.scene.as_str()).collect();
                assert_eq!(scenes, suite.scenes().map(|b| b.name).collect::<Vec<_>>());
                assert!(jobs.iter().all(|j| j.kind.study().name() == paper.name()));
            }
        }
    }
}
