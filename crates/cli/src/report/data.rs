//! The one writer of a report given as data ([`gfxcache_report::Report`]):
//! each table as `<name>.csv` and `<name>.parquet`, each figure
//! specification drawn as an SVG from the tables ([`write_figures`]), and
//! a suite's tables made from its scenes' by one group-by
//! ([`gfxcache_report::suite_tables`]). A study that gives its report as
//! data writes no CSV or drawing code of its own.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use gfxcache_cache::suite::{SuiteMean, SuiteReport};
use gfxcache_report::{Figure, Kind, Paper, Report, Scale, Series, Table};
use plotters::coord::Shift;
use plotters::prelude::*;

use super::bars::{Panel, Unit};
use super::figure::{self, Legend, Plot};
use super::stacked::StackedPanel;

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
        .map(|s| Ok((s.scene.as_str(), s.report.tables()?)))
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
    page_captioned(r, shown, warnings, &r.figures())
}

/// [`page`], each figure's title and caption taken from `captions` rather
/// than from [`Report::figures`]: the hook of a study whose figures are
/// still drawn by its own writer (TCOR's `plots.rs`), which gives them as
/// figures without panels; it goes once they are specifications.
pub fn page_captioned<R: Report>(
    r: &R,
    shown: &super::Shown,
    warnings: &[String],
    captions: &[Figure],
) -> Result<String> {
    let cx = super::page::Context {
        dir: shown.dir,
        written: shown.figures,
        warnings,
        extra: Vec::new(),
    };
    super::page::render(&r.page()?, &r.tables()?, captions, cx)
}

/// The page of a suite of `r`'s scenes: the study's suite page over the
/// suite's tables, then a section linking each scene's own page with its
/// frame.
pub fn suite_page<R: Report + SuiteMean + super::StudyFiles>(
    r: &SuiteReport<R>,
    shown: &super::Shown,
) -> Result<String> {
    suite_page_captioned(r, shown, &suite_figures(r))
}

/// [`suite_page`], the figures' titles and captions from `captions` (as
/// [`page_captioned`]).
pub fn suite_page_captioned<R: Report + SuiteMean + super::StudyFiles>(
    r: &SuiteReport<R>,
    shown: &super::Shown,
    captions: &[Figure],
) -> Result<String> {
    let scenes: Vec<(&str, &R)> = r
        .scenes
        .iter()
        .map(|s| (s.scene.as_str(), &s.report))
        .collect();
    let mut page = R::suite_page(&scenes)?;
    page.title = format!(
        "{} study: the {} suite ({} scenes)",
        R::NAME.to_uppercase(),
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
    super::page::render(&page, &suite_tables(r)?, captions, cx)
}

/// A panel of either kind, drawn alike.
pub enum AnyPanel {
    Bars(Panel),
    Stacked(StackedPanel),
}

impl Plot for AnyPanel {
    fn prune(&mut self) -> bool {
        match self {
            AnyPanel::Bars(p) => p.prune(),
            AnyPanel::Stacked(p) => p.prune(),
        }
    }

    fn width(&self) -> u32 {
        match self {
            AnyPanel::Bars(p) => p.width(),
            AnyPanel::Stacked(p) => p.width(),
        }
    }

    fn legend(&self) -> Legend {
        match self {
            AnyPanel::Bars(p) => p.legend(),
            AnyPanel::Stacked(p) => p.legend(),
        }
    }

    fn fit(self, max: u32) -> Vec<Self> {
        match self {
            AnyPanel::Bars(p) => p.fit(max).into_iter().map(AnyPanel::Bars).collect(),
            AnyPanel::Stacked(p) => p.fit(max).into_iter().map(AnyPanel::Stacked).collect(),
        }
    }

    fn draw(&self, area: &DrawingArea<SVGBackend, Shift>) -> Result<()> {
        match self {
            AnyPanel::Bars(p) => p.draw(area),
            AnyPanel::Stacked(p) => p.draw(area),
        }
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

fn table<'a>(tables: &'a [Table], name: &str) -> Result<&'a Table> {
    tables
        .iter()
        .find(|t| t.name() == name)
        .with_context(|| format!("no table {name}"))
}

/// The panels `fig` asks for, each facet's in turn.
pub fn panels(fig: &Figure, tables: &[Table]) -> Result<Vec<AnyPanel>> {
    let Some(facet) = &fig.facet else {
        return fig.panels.iter().map(|p| panel(p, tables, None)).collect();
    };
    let Some(first) = fig.panels.first() else {
        return Ok(Vec::new());
    };
    let t = table(tables, &first.table)?;
    let values = distinct(t, facet, &t.rows_where(&conditions(first)));
    let mut out = Vec::new();
    for v in &values {
        for p in &fig.panels {
            out.push(panel(p, tables, Some((facet, v)))?);
        }
    }
    Ok(out)
}

fn conditions(p: &gfxcache_report::Panel) -> Vec<(&str, &str)> {
    p.rows
        .iter()
        .map(|(c, v)| (c.as_str(), v.as_str()))
        .collect()
}

/// The cells of `column` on `rows`, each once, in the order first met.
fn distinct(t: &Table, column: &str, rows: &[usize]) -> Vec<String> {
    let Some(c) = t.index(column) else {
        return Vec::new();
    };
    let mut out: Vec<String> = Vec::new();
    for &r in rows {
        let v = t.cell(r, c);
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

fn column(t: &Table, name: &str) -> Result<usize> {
    t.index(name)
        .with_context(|| format!("table {} has no column {name}", t.name()))
}

/// One panel of `p` on the rows of `facet`'s value, if any.
fn panel(
    p: &gfxcache_report::Panel,
    tables: &[Table],
    facet: Option<(&String, &String)>,
) -> Result<AnyPanel> {
    let t = table(tables, &p.table)?;
    let mut cond = conditions(p);
    if let Some((c, v)) = facet {
        cond.push((c.as_str(), v.as_str()));
    }
    let rows = t.rows_where(&cond);
    let subtitle = match facet {
        Some((_, v)) => p.subtitle.replace("{}", v),
        None => p.subtitle.clone(),
    };
    let x = column(t, &p.x.column)?;
    let mut xs = distinct(t, &p.x.column, &rows);
    if p.x.numeric_order {
        xs.sort_by(|a, b| {
            let n = |s: &str| s.parse::<f64>().unwrap_or(f64::NAN);
            n(a).total_cmp(&n(b))
        });
    }
    let mark = p.x.mark.as_deref().map(|m| column(t, m)).transpose()?;
    let labels: Vec<String> = xs
        .iter()
        .map(|v| {
            let label = p.x.format.replace("{}", v);
            let marked = mark.is_some_and(|m| {
                rows.iter()
                    .any(|&r| t.cell(r, x) == *v && t.cell(r, m) == "true")
            });
            if marked {
                p.x.marked.replace("{}", &label)
            } else {
                label
            }
        })
        .collect();
    // The series' names and, per (x, series), the row that gives the bar.
    let (names, series_col) = match &p.series {
        Series::By { column: s, except } => {
            let names: Vec<String> = distinct(t, s, &rows)
                .into_iter()
                .filter(|n| !except.contains(n))
                .collect();
            (names, Some(column(t, s)?))
        }
        Series::One { name } => (vec![name.clone()], None),
    };
    let mut at: HashMap<(String, String), usize> = HashMap::new();
    for &r in &rows {
        let s = series_col.map_or_else(|| names[0].clone(), |c| t.cell(r, c));
        at.entry((t.cell(r, x), s)).or_insert(r);
    }
    let value = |xv: &str, s: &str, col: usize| -> Option<f64> {
        let r = *at.get(&(xv.to_string(), s.to_string()))?;
        let v = t.number(r, col)?;
        Some(if p.divide == 1.0 { v } else { v / p.divide })
    };
    let measures =
        p.y.iter()
            .map(|m| Ok((m.name.as_str(), column(t, &m.column)?)))
            .collect::<Result<Vec<_>>>()?;
    let shown = |s: &str| p.series_format.replace("{}", s);
    Ok(match p.kind {
        Kind::Stacked => {
            let mut panel = StackedPanel::new(
                &subtitle,
                &p.y_label,
                labels,
                names.iter().map(|n| shown(n)).collect(),
            );
            for (name, col) in measures {
                let values = xs
                    .iter()
                    .map(|xv| names.iter().map(|s| value(xv, s, col)).collect())
                    .collect();
                panel = panel.segment(name, values);
            }
            AnyPanel::Stacked(panel)
        }
        Kind::Bars => {
            let unit = match p.scale {
                Scale::Ratio => Unit::Ratio,
                Scale::Percent => Unit::Percent,
            };
            let mut panel = Panel::new(&subtitle, &p.y_label, unit, labels);
            let col = measures
                .first()
                .map(|m| m.1)
                .context("a bar chart of no column")?;
            for s in &names {
                panel = panel.series(shown(s), xs.iter().map(|xv| value(xv, s, col)).collect());
            }
            match &p.paper {
                Some(Paper::Series {
                    name,
                    column: c,
                    of,
                }) => {
                    let c = column(t, c)?;
                    let values = xs
                        .iter()
                        .map(|xv| {
                            let r = *at.get(&(xv.clone(), of.clone()))?;
                            t.number(r, c)
                        })
                        .collect();
                    panel = panel.paper(name, values);
                }
                Some(Paper::Group { name, column: c }) => {
                    let c = column(t, c)?;
                    let raw: HashMap<String, &String> =
                        names.iter().map(|n| (shown(n), n)).collect();
                    let first = |name: &str| {
                        let s = raw.get(name)?;
                        rows.iter()
                            .filter(|&&r| series_col.is_none_or(|sc| t.cell(r, sc) == **s))
                            .find_map(|&r| t.number(r, c))
                    };
                    panel = panel.paper_group(name, first);
                }
                None => {}
            }
            if let Some(at) = p.reference {
                panel = panel.reference(at);
            }
            AnyPanel::Bars(panel)
        }
    })
}
