//! What the studies' report writers share (`gspc`, `tcor`): writing CSV
//! tables, the SVG figures ([`figure`], with
//! grouped bar charts in [`bars`] and miss-ratio curves in [`curves`]) and
//! the HTML page's pieces ([`html`]).
//!
//! A study's writer decides what to show; this module only draws and
//! formats, so two studies' files look alike and are written alike: whole
//! or not at all, through [`crate::output`].

pub mod bars;
pub mod curves;
pub mod figure;
pub mod html;
pub mod staged;

use std::path::{Path, PathBuf};

use anyhow::Context;

/// A study's result on stdout once its files are written: the JSON
/// document alone (`--json`), or the summary and where the page is.
pub fn print_result(
    json: bool,
    document: impl FnOnce() -> anyhow::Result<String>,
    summary: &str,
    dir: &Path,
) -> anyhow::Result<()> {
    if json {
        println!("{}", document()?);
    } else {
        print!("{summary}");
        println!("\nReport: {}", dir.join("index.html").display());
    }
    Ok(())
}

/// Writes a study's directory `dir` (created if needed): the report as
/// JSON (`json`: file name and text) first, then the CSV files and the
/// figures their writers write, and `index.html`, made by `page` from the
/// figures written, last. Returns every path written, in that order.
pub fn write_study(
    dir: &Path,
    json: (&str, &str),
    csv: impl FnOnce(&Path) -> anyhow::Result<Vec<PathBuf>>,
    figures: impl FnOnce(&Path) -> anyhow::Result<Vec<PathBuf>>,
    page: impl FnOnce(&[PathBuf]) -> String,
) -> anyhow::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)
        .with_context(|| format!("creating report directory {}", dir.display()))?;
    let (name, text) = json;
    let json = dir.join(name);
    crate::output::write_bytes(&json, text.as_bytes())?;
    let mut written = vec![json];
    written.extend(csv(dir)?);
    let figures = figures(dir)?;
    written.extend(figures.iter().cloned());
    let index = dir.join("index.html");
    crate::output::write_bytes(&index, page(&figures).as_bytes())?;
    written.push(index);
    Ok(written)
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
