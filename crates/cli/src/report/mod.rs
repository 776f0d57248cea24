//! What the studies' report writers share (`gspc`, `tcor`): writing CSV
//! tables, the SVG figures ([`figure`], with
//! grouped bar charts in [`bars`], stacked ones in [`stacked`] and
//! miss-ratio curves in [`curves`]) and
//! the HTML page's pieces ([`html`]).
//!
//! A study's writer decides what to show ([`StudyFiles`]); this module
//! runs every study command in one shell ([`run_study`]) and only draws
//! and formats, so two studies' files look alike and are written alike:
//! whole or not at all, through [`crate::output`] and [`staged`].

pub mod bars;
pub mod curves;
pub mod data;
pub mod figure;
#[cfg(test)]
mod golden;
pub mod html;
pub mod legend;
mod lines;
pub mod page;
pub mod panels;
pub mod parquet;
pub mod series;
pub mod stacked;
pub mod staged;
pub mod suite;

use std::path::{Path, PathBuf};

use anyhow::Context;
use gfxcache_cache::ProgressFn;
use serde::Serialize;

use crate::progress::Bars;
use staged::Staged;

/// A study's report as the command line writes it: one implementation per
/// study, in the study's writer module (`gspc`, `tcor`), and every study
/// command then runs in the one shell [`run_study`].
pub trait StudyFiles: Serialize {
    /// The study's name: its command, and its JSON file (`gspc.json`).
    const NAME: &'static str;
    /// What the reader should know about the input, printed on stderr.
    fn warnings(&self) -> &[String];
    /// Writes the CSV files into `dir`; returns their paths.
    fn csv(&self, dir: &Path) -> anyhow::Result<Vec<PathBuf>>;
    /// Writes the figures into `dir`; returns their paths.
    fn figures(&self, dir: &Path) -> anyhow::Result<Vec<PathBuf>>;
    /// `index.html`, showing the figures written and the frame rendered.
    fn page(&self, shown: &Shown) -> anyhow::Result<String>;
    /// What the command prints without `--json`.
    fn summary(&self) -> String;
}

/// The shell of every study command: stages `--out` (checking that no
/// input lies inside it), runs `study` into the staged directory with
/// progress bars on stderr, prints the report's warnings, writes its files,
/// swaps the directory in, and prints the JSON document (`json`) or the
/// summary.
pub fn run_study<R: StudyFiles>(
    out: &Path,
    inputs: &[&Path],
    print: Print,
    study: impl FnOnce(&Path, ProgressFn<'_>) -> anyhow::Result<R>,
) -> anyhow::Result<()> {
    run_study_with_bars(out, inputs, print, |dir, bars| {
        study(dir, &|p| bars.show(p))
    })
}

/// [`run_study`], the study given the bars themselves (a suite's study
/// says which scene they are about).
fn run_study_with_bars<R: StudyFiles>(
    out: &Path,
    inputs: &[&Path],
    print: Print,
    study: impl FnOnce(&Path, &Bars) -> anyhow::Result<R>,
) -> anyhow::Result<()> {
    let staged = Staged::create(out, inputs)?;
    let bars = Bars::new();
    let report = study(staged.path(), &bars)?;
    drop(bars);
    for w in report.warnings() {
        eprintln!("warning: {w}");
    }
    write_all(&report, staged.path())?;
    let generator = format!("gfxcache {} {}", gfxcache_sweep::VERSION, R::NAME);
    staged.commit(&generator)?;
    match print {
        Print::Json => println!("{}", to_json(&report)?),
        Print::Summary => {
            print!("{}", report.summary());
            println!("\nReport: {}", out.join("index.html").display());
        }
        Print::Nothing => {}
    }
    Ok(())
}

/// What a study's page shows besides its report: the figures written, and
/// the report's directory, which holds the frame the study rendered, if it
/// rendered one.
pub struct Shown<'a> {
    pub dir: &'a Path,
    pub figures: &'a [PathBuf],
}

impl Shown<'_> {
    /// Whether the report's directory holds `file` (a path in the report,
    /// e.g. `frame.png` or `city/frame.png`).
    pub fn holds(&self, file: &str) -> bool {
        self.dir.join(file).is_file()
    }
}

/// What a study command prints on stdout once its report is in place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Print {
    /// The summary tables and the report's path.
    Summary,
    /// The report as one JSON document (`--json`).
    Json,
    /// Nothing: the caller reads the report's files (a sweep, Python).
    Nothing,
}

impl Print {
    /// From a command's `--json` and its `quiet` (set by callers, never a flag).
    pub fn of(json: bool, quiet: bool) -> Print {
        match (quiet, json) {
            (true, _) => Print::Nothing,
            (false, true) => Print::Json,
            (false, false) => Print::Summary,
        }
    }
}

/// The whole report as pretty-printed JSON (`<name>.json`, and `--json`).
pub fn to_json<R: StudyFiles>(report: &R) -> anyhow::Result<String> {
    serde_json::to_string_pretty(report)
        .with_context(|| format!("serialising the {} report to JSON", R::NAME))
}

/// Writes a study's directory `dir` (created if needed): the report as
/// JSON first, then the CSV files and the figures, and `index.html`, made
/// from the figures written, last. Returns every path written, in that
/// order.
pub fn write_all<R: StudyFiles>(report: &R, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)
        .with_context(|| format!("creating report directory {}", dir.display()))?;
    let json = dir.join(format!("{}.json", R::NAME));
    crate::output::write_bytes(&json, to_json(report)?.as_bytes())?;
    let mut written = vec![json];
    written.extend(report.csv(dir)?);
    let figures = report.figures(dir)?;
    written.extend(figures.iter().cloned());
    let index = dir.join("index.html");
    let shown = Shown {
        dir,
        figures: &figures,
    };
    crate::output::write_bytes(&index, report.page(&shown)?.as_bytes())?;
    written.push(index);
    Ok(written)
}

/// The page [`write_all`] makes of `report` in a directory that already
/// holds each of `pictures` (as a study's rendered frames are), and the
/// directory (for tests).
#[cfg(test)]
pub fn page_with<R: StudyFiles>(
    report: &R,
    pictures: &[&str],
) -> anyhow::Result<(tempfile::TempDir, String)> {
    let dir = tempfile::tempdir()?;
    for p in pictures {
        let path = dir.path().join(p);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(path, b"\x89PNG")?;
    }
    write_all(report, dir.path())?;
    let page = std::fs::read_to_string(dir.path().join("index.html"))?;
    Ok((dir, page))
}

/// Writes each (file name, rows) of `files` into `dir` as CSV, the header
/// row first; returns the paths written.
pub fn write_csvs<'a>(
    dir: &Path,
    files: impl IntoIterator<Item = (&'a str, Vec<Vec<String>>)>,
) -> anyhow::Result<Vec<PathBuf>> {
    files
        .into_iter()
        .map(|(name, rows)| {
            let path = dir.join(name);
            write_csv(&path, &rows)?;
            Ok(path)
        })
        .collect()
}

/// Writes `rows` to `path` as CSV, whole or not at all.
fn write_csv(path: &Path, rows: &[Vec<String>]) -> anyhow::Result<()> {
    crate::output::write_atomically(path, |tmp| {
        let mut w = ::csv::Writer::from_path(tmp)?;
        for row in rows {
            w.write_record(row)?;
        }
        Ok(w.flush()?)
    })
}

/// The records of a written CSV file, header first (for tests).
#[cfg(test)]
pub fn read_csv(path: &Path) -> anyhow::Result<Vec<Vec<String>>> {
    let mut r = ::csv::ReaderBuilder::new()
        .has_headers(false)
        .from_path(path)?;
    r.records()
        .map(|rec| Ok(rec?.iter().map(String::from).collect()))
        .collect()
}
