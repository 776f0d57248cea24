//! A sweep's tidy tables, made from its result store alone (so a resumed
//! sweep ends with the table an unbroken one ends with): every row carries
//! its job's axes as columns (study, scene, mode, resolution, frames,
//! warm-up, preset, flags, job).
//!
//! - `sweep.csv`: `sim` and `mrc`, one row per job x policy (or curve
//!   point) x stream, `all` first: the cache's geometry, the policy, the
//!   counts and the miss ratio.
//! - `studies/<study>-<table>.csv`: each study's own CSV tables (as its
//!   report writes them), every job's rows one after another.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, Result};
use gfxcache_sweep::{Job, JobKind, Store};
use serde_json::Value;

use super::REPORT;

/// One value of a table.
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    Text(String),
    Int(i64),
    Num(f64),
    Empty,
}

impl Cell {
    /// A CSV field: an integer, a number, text, or empty.
    pub fn parse(field: &str) -> Cell {
        if field.is_empty() {
            Cell::Empty
        } else if let Ok(i) = field.parse::<i64>() {
            Cell::Int(i)
        } else if let Some(x) = field.parse::<f64>().ok().filter(|x| x.is_finite()) {
            Cell::Num(x)
        } else {
            Cell::Text(field.to_string())
        }
    }

    fn of_json(v: &Value) -> Cell {
        match v {
            Value::Number(n) => n
                .as_i64()
                .map(Cell::Int)
                .or_else(|| n.as_f64().map(Cell::Num))
                .unwrap_or(Cell::Empty),
            Value::String(s) => Cell::Text(s.clone()),
            Value::Bool(b) => Cell::Text(b.to_string()),
            _ => Cell::Empty,
        }
    }

    fn text(s: impl Into<String>) -> Cell {
        Cell::Text(s.into())
    }

    pub fn to_field(&self) -> String {
        match self {
            Cell::Text(s) => s.clone(),
            Cell::Int(i) => i.to_string(),
            Cell::Num(x) => x.to_string(),
            Cell::Empty => String::new(),
        }
    }
}

/// Rows under named columns; a column is added when a row first has it,
/// and rows without it hold [`Cell::Empty`] there.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    pub columns: Vec<String>,
    pub rows: Vec<Vec<Cell>>,
}

impl Table {
    pub fn push(&mut self, row: Vec<(String, Cell)>) {
        let mut cells = vec![Cell::Empty; self.columns.len()];
        for (name, cell) in row {
            let i = match self.columns.iter().position(|c| *c == name) {
                Some(i) => i,
                None => {
                    self.columns.push(name);
                    for r in &mut self.rows {
                        r.push(Cell::Empty);
                    }
                    cells.push(Cell::Empty);
                    self.columns.len() - 1
                }
            };
            cells[i] = cell;
        }
        self.rows.push(cells);
    }

    /// The column `name`'s cells, if there is one.
    pub fn column(&self, name: &str) -> Option<impl Iterator<Item = &Cell>> {
        let i = self.columns.iter().position(|c| c == name)?;
        Some(self.rows.iter().map(move |r| &r[i]))
    }

    /// The table as CSV text.
    pub fn to_csv(&self) -> Result<Vec<u8>> {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.write_record(&self.columns)?;
        for r in &self.rows {
            w.write_record(r.iter().map(Cell::to_field))?;
        }
        w.into_inner().context("a CSV in memory")
    }
}

/// The sweep's tables: `sim` and `mrc` in one, each study's by name
/// (`<study>-<table>`).
#[derive(Debug, Default)]
pub struct Tables {
    pub main: Table,
    pub studies: BTreeMap<String, Table>,
}

/// The columns every row of `job` starts with.
fn axes(job: &Job) -> Vec<(String, Cell)> {
    let f = &job.frame;
    let words = |w: &[String]| {
        if w.is_empty() {
            Cell::Empty
        } else {
            Cell::text(w.join(" "))
        }
    };
    [
        ("study", Cell::text(job.kind.study().name())),
        ("scene", Cell::text(&f.scene)),
        ("mode", Cell::text(f.mode.name())),
        ("width", Cell::Int(f.width.into())),
        ("height", Cell::Int(f.height.into())),
        ("frames", Cell::Int(f.frames.into())),
        ("warmup", Cell::Int(f.warmup.into())),
        (
            "preset",
            f.preset.as_deref().map_or(Cell::Empty, Cell::text),
        ),
        ("render_flags", words(&f.render_flags)),
        ("flags", words(&job.flags)),
        ("job", Cell::text(job.slug())),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

/// Counts of a policy's (or curve point's) total or one stream.
const COUNTS: [&str; 7] = [
    "accesses",
    "hits",
    "misses",
    "fills",
    "bypasses",
    "evictions",
    "writebacks",
];

fn counts(v: &Value) -> Vec<(String, Cell)> {
    let mut row: Vec<(String, Cell)> = COUNTS
        .iter()
        .filter_map(|&k| Some((k.to_string(), Cell::of_json(v.get(k)?))))
        .collect();
    let n = |k: &str| v.get(k).and_then(Value::as_f64);
    let ratio = v
        .get("miss_ratio")
        .and_then(Value::as_f64)
        .or_else(|| Some(n("misses")? / n("accesses")?).filter(|x| x.is_finite()));
    row.push(("miss_ratio".into(), ratio.map_or(Cell::Empty, Cell::Num)));
    row
}

fn with(mut row: Vec<(String, Cell)>, more: Vec<(String, Cell)>) -> Vec<(String, Cell)> {
    row.extend(more);
    row
}

fn named(pairs: &[(&str, Cell)]) -> Vec<(String, Cell)> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect()
}

/// `sim`'s rows: per policy, its total then each stream.
fn sim_rows(job: &Job, result: &Value, out: &mut Table) {
    let JobKind::Sim { geometry: g, .. } = &job.kind else {
        return;
    };
    let geometry = named(&[
        ("size_bytes", Cell::Int(g.size_bytes as i64)),
        ("ways", Cell::Int(g.ways.into())),
        ("block_bytes", Cell::Int(g.block_bytes.into())),
        ("banks", Cell::Int(g.banks.into())),
        ("index", Cell::text(&g.index)),
    ]);
    let policies = result.get("results").and_then(Value::as_array);
    for p in policies.into_iter().flatten() {
        let policy = p.get("policy").map_or(Cell::Empty, Cell::of_json);
        let head = with(axes(job), geometry.clone());
        let head = with(head, vec![("policy".into(), policy)]);
        out.push(with(
            with(head.clone(), vec![("stream".into(), Cell::text("all"))]),
            counts(p),
        ));
        if let Some(streams) = p.get("per_stream").and_then(Value::as_object) {
            for (name, s) in streams {
                out.push(with(
                    with(head.clone(), vec![("stream".into(), Cell::text(name))]),
                    counts(s),
                ));
            }
        }
    }
}

/// `mrc`'s rows: per curve point (LRU at one capacity), its total then
/// each stream.
fn mrc_rows(job: &Job, result: &Value, out: &mut Table) {
    let block = result.get("block").map_or(Cell::Empty, Cell::of_json);
    let points = result.get("curve").and_then(Value::as_array);
    for p in points.into_iter().flatten() {
        let head = with(
            axes(job),
            vec![
                (
                    "size_bytes".into(),
                    p.get("size").map_or(Cell::Empty, Cell::of_json),
                ),
                (
                    "ways".into(),
                    p.get("ways").map_or(Cell::Empty, Cell::of_json),
                ),
                ("block_bytes".into(), block.clone()),
                ("policy".into(), Cell::text("lru")),
            ],
        );
        // A point's total counts block accesses, as its per-stream ones do.
        let mut total = p.clone();
        if let Some(acc) = result.get("block_accesses") {
            total["accesses"] = acc.clone();
        }
        out.push(with(
            with(head.clone(), vec![("stream".into(), Cell::text("all"))]),
            counts(&total),
        ));
        for s in p
            .get("per_stream")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let name = s.get("stream").map_or(Cell::Empty, Cell::of_json);
            out.push(with(
                with(head.clone(), vec![("stream".into(), name)]),
                counts(s),
            ));
        }
    }
}

/// The study whose report a study job wrote: its own, or the composed
/// study's for a job that runs on the composed machine (`nuca --l1`,
/// `nbtc --placements`), so that its tables are not taken for its own.
fn report_study(job: &Job, report: &Path) -> &'static str {
    let own = job.kind.study().name();
    let composed = "compose";
    if own != composed
        && !report.join(format!("{own}.json")).is_file()
        && report.join(format!("{composed}.json")).is_file()
    {
        return composed;
    }
    own
}

/// Each CSV table of a study job's report, its rows under the job's axes,
/// in a table named by the study that wrote it ([`report_study`]).
fn study_rows(job: &Job, dir: &Path, out: &mut BTreeMap<String, Table>) -> Result<()> {
    let report = dir.join(REPORT);
    let study = report_study(job, &report);
    let mut files: Vec<_> = std::fs::read_dir(&report)
        .with_context(|| format!("cannot read {}", report.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "csv"))
        .collect();
    files.sort();
    for file in files {
        let stem = file.file_stem().expect("a .csv file").to_string_lossy();
        let table = out.entry(format!("{study}-{stem}")).or_default();
        let mut r = csv::Reader::from_path(&file)
            .with_context(|| format!("cannot read {}", file.display()))?;
        let head: Vec<String> = r.headers()?.iter().map(String::from).collect();
        for rec in r.records() {
            let rec = rec.with_context(|| format!("{}", file.display()))?;
            let fields = head.iter().cloned().zip(rec.iter().map(Cell::parse));
            table.push(with(axes(job), fields.collect()));
        }
    }
    Ok(())
}

/// The tables of every job of `jobs` with a result in `store`, in the
/// jobs' order.
pub fn tidy(jobs: &[Job], store: &Store) -> Result<Tables> {
    let mut t = Tables::default();
    for job in jobs {
        let Some(result) = store.load(job) else {
            continue;
        };
        match &job.kind {
            JobKind::Sim { .. } => sim_rows(job, &result, &mut t.main),
            JobKind::Mrc => mrc_rows(job, &result, &mut t.main),
            JobKind::Study(_) => study_rows(job, &store.job_dir(job), &mut t.studies)?,
        }
    }
    Ok(t)
}
