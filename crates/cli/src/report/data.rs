//! The one writer of a report given as data ([`gfxcache_report::Report`]):
//! each table as `<name>.csv` and `<name>.parquet`, each figure
//! specification drawn as an SVG from the tables ([`write_figures`], its
//! panels made by [`super::panels`]), the page and the book's markdown, and
//! a suite's tables made from its scenes' by one group-by
//! ([`gfxcache_report::suite_tables`]). A study that gives its report as
//! data writes no CSV or drawing code of its own.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use gfxcache_cache::suite::{SuiteMean, SuiteReport};
use gfxcache_report::{Figure, Report, Table};

use super::figure;
pub use super::panels::{panels, AnyPanel};

/// Writes each of `tables` into `dir` as CSV and Parquet; returns the
/// paths written, each table's CSV then its Parquet.
pub fn write_tables(dir: &Path, tables: &[Table]) -> Result<Vec<PathBuf>> {
    let mut written = Vec::new();
    for t in tables {
        written.extend(super::write_csvs(
            dir,
            [(format!("{}.csv", t.name()).as_str(), t.text_rows())],
        )?);
        let pq = dir.join(format!("{}.parquet", t.name()));
        let bytes = super::parquet::to_parquet(t)
            .with_context(|| format!("writing {} as Parquet", t.name()))?;
        crate::output::write_bytes(&pq, &bytes)?;
        written.push(pq);
    }
    Ok(written)
}

/// The suite's tables: each of the scenes' reports' tables with a `scene`
/// column and the mean rows.
pub fn suite_tables<R: Report + SuiteMean>(r: &SuiteReport<R>) -> Result<Vec<Table>> {
    let scenes = r
        .scenes
        .iter()
        .map(|s| Ok((s.scene.as_str(), R::suite_tables_of(s.report.tables()?))))
        .collect::<Result<Vec<_>>>()?;
    Ok(gfxcache_report::suite_tables(&scenes)?)
}

/// The figures of a suite, over its tables ([`suite_tables`]).
pub fn suite_figures<R: Report + SuiteMean>(r: &SuiteReport<R>) -> Vec<Figure> {
    let scenes: Vec<&R> = r.scenes.iter().map(|s| &s.report).collect();
    R::suite_figures(&scenes)
}

/// The page of `r`, a study given as data, in the report's directory
/// `shown.dir` with the figures `shown.figures` written.
pub fn page<R: Report>(r: &R, shown: &super::Shown, warnings: &[String]) -> Result<String> {
    let cx = super::page::Context {
        dir: shown.dir,
        written: shown.figures,
        warnings,
        extra: Vec::new(),
    };
    super::page::render(&r.page()?, &r.tables()?, &r.figures(), cx)
}

/// Each scene of `r` by name, with its report.
fn scene_reports<R: SuiteMean>(r: &SuiteReport<R>) -> Vec<(&str, &R)> {
    r.scenes
        .iter()
        .map(|s| (s.scene.as_str(), &s.report))
        .collect()
}

/// The page of a suite of `r`'s scenes: the study's suite page over the
/// suite's tables, then a section linking each scene's own page with its
/// frame.
pub fn suite_page<R: Report + SuiteMean + super::StudyFiles>(
    r: &SuiteReport<R>,
    shown: &super::Shown,
) -> Result<String> {
    let scenes = scene_reports(r);
    let mut page = R::suite_page(&scenes)?;
    // The study as its own page names it ("DTM-NUCA study: ..."), else
    // as the command does.
    let study = page
        .title
        .split_once(" study:")
        .map_or_else(|| R::NAME.to_uppercase(), |(s, _)| s.to_string());
    page.title = format!(
        "{study} study: the {} suite ({} scenes)",
        r.suite,
        r.scenes.len()
    );
    let pictures = r
        .scenes
        .iter()
        .map(|s| Ok(Report::page(&s.report)?.picture.map(|p| p.file)))
        .collect::<Result<Vec<_>>>()?;
    let each: Vec<(&str, Option<&str>, usize)> = r
        .scenes
        .iter()
        .zip(&pictures)
        .map(|(s, p)| {
            (
                s.scene.as_str(),
                p.as_deref(),
                super::StudyFiles::warnings(&s.report).len(),
            )
        })
        .collect();
    let cx = super::page::Context {
        dir: shown.dir,
        written: shown.figures,
        warnings: &r.warnings,
        extra: vec![super::page::scenes_section(shown.dir, &each)],
    };
    super::page::render(&page, &suite_tables(r)?, &suite_figures(r), cx)
}

/// The suite's page as markdown for the book ([`super::page::markdown`]),
/// its figures written into `images`, which the markdown names as
/// `link/<file>` (the directory as the book's chapter sees it).
pub fn suite_markdown<R: Report + SuiteMean>(
    r: &SuiteReport<R>,
    images: &Path,
    link: &str,
) -> Result<String> {
    let scenes = scene_reports(r);
    let tables = suite_tables(r)?;
    let figures = suite_figures(r);
    std::fs::create_dir_all(images)
        .with_context(|| format!("cannot create {}", images.display()))?;
    let written = write_figures(images, &tables, &figures)?;
    super::page::markdown(&R::suite_page(&scenes)?, &tables, &figures, &written, link)
}

/// A study whose report is data: all the command line adds to its
/// [`Report`] is its name, its warnings and the summaries it prints. Its
/// files and pages, scene and suite, are then this writer's alone
/// ([`super::StudyFiles`] and [`super::suite::SuiteFiles`] for any such
/// study, below).
pub trait DataStudy: Report + SuiteMean + serde::Serialize {
    /// The study's name: its command, and its JSON file (`nbtc.json`).
    const NAME: &'static str;
    /// What the reader should know about the input.
    fn warnings(&self) -> &[String];
    /// What the command prints without `--json`.
    fn summary(&self) -> String;
    /// What the command prints for a suite without `--json`.
    fn suite_summary(r: &SuiteReport<Self>) -> String;
}

impl<R: DataStudy> super::StudyFiles for R {
    const NAME: &'static str = <R as DataStudy>::NAME;

    fn warnings(&self) -> &[String] {
        DataStudy::warnings(self)
    }

    fn csv(&self, dir: &Path) -> Result<Vec<PathBuf>> {
        write_tables(dir, &self.tables()?)
    }

    fn figures(&self, dir: &Path) -> Result<Vec<PathBuf>> {
        write_figures(dir, &self.tables()?, &Report::figures(self))
    }

    fn page(&self, shown: &super::Shown) -> Result<String> {
        page(self, shown, DataStudy::warnings(self))
    }

    fn summary(&self) -> String {
        DataStudy::summary(self)
    }
}

impl<R: DataStudy> super::suite::SuiteFiles for R {
    fn suite_csv(r: &SuiteReport<R>, dir: &Path) -> Result<Vec<PathBuf>> {
        write_tables(dir, &suite_tables(r)?)
    }

    fn suite_figures(r: &SuiteReport<R>, dir: &Path) -> Result<Vec<PathBuf>> {
        write_figures(dir, &suite_tables(r)?, &suite_figures(r))
    }

    fn suite_page(r: &SuiteReport<R>, shown: &super::Shown) -> Result<String> {
        suite_page(r, shown)
    }

    fn suite_summary(r: &SuiteReport<R>) -> String {
        R::suite_summary(r)
    }
}

/// Writes every figure of `figures` that has something to show into
/// `dir`, drawn from `tables`; returns the paths written, in order.
pub fn write_figures(dir: &Path, tables: &[Table], figures: &[Figure]) -> Result<Vec<PathBuf>> {
    let mut written = Vec::new();
    for fig in figures {
        let panels = panels(fig, tables).with_context(|| format!("plotting {}", fig.file))?;
        if let Some(path) = figure::write_panels(dir, &fig.file, &fig.title, panels)? {
            written.push(path);
        }
    }
    Ok(written)
}

/// The title and words of the figure of `figures` written to `file`.
pub fn about(figures: &[Figure], file: &str) -> Option<(String, String)> {
    let f = figures.iter().find(|f| f.file == file)?;
    Some((f.title.clone(), f.words()))
}

/// What the studies' data tests look up in their tables.
#[cfg(test)]
pub mod lookup {
    use gfxcache_report::Table;

    /// The table named `name` of `tables`.
    pub fn table(tables: &[Table], name: &str) -> Table {
        tables
            .iter()
            .find(|t| t.name() == name)
            .unwrap_or_else(|| panic!("no table {name}"))
            .clone()
    }

    /// The cell of `column` on the one row where each of `on` holds.
    pub fn cell(t: &Table, on: &[(&str, &str)], column: &str) -> String {
        let rows = t.rows_where(on);
        assert_eq!(rows.len(), 1, "{on:?} in {}", t.name());
        let c = t
            .index(column)
            .unwrap_or_else(|| panic!("no column {column} in {}", t.name()));
        t.cell(rows[0], c)
    }
}
