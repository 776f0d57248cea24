//! A sweep's `index.html`: what ran, the miss ratio against capacity per
//! policy for each frame (one figure per frame, a panel per cache shape,
//! LRU's fully associative curve from `mrc` as a dashed bound), and each
//! study's report per frame side by side, with the frame's picture.
//! Made from the tidy table and the store, so it follows the data.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::Result;
use gfxcache_sweep::{Experiment, FramePoint, Job, JobKind, RunSummary, Store};

use super::table::{Cell, Table};
use super::{PICTURE, REPORT};
use crate::report::curves::{CurvePanel, Stroke};
use crate::report::figure::{render, Plot};
use crate::report::page::{Context, OutCell, OutSection};
use gfxcache_report::Page;

fn text(c: &Cell) -> String {
    c.to_field()
}

fn num(c: &Cell) -> Option<f64> {
    match c {
        Cell::Int(i) => Some(*i as f64),
        Cell::Num(x) => Some(*x),
        _ => None,
    }
}

/// One figure per frame point (its `job` slug's frame part), panels per
/// cache shape: (frame label, shape label) -> policy -> (bytes, miss ratio).
type Curves = BTreeMap<(String, String), BTreeMap<String, Vec<(u64, f64)>>>;

/// The `all`-stream rows of `main`, grouped for [`Curves`].
fn curves(main: &Table, frame_of: &BTreeMap<String, String>) -> (Curves, Curves) {
    let col = |name: &str| main.columns.iter().position(|c| c == name);
    let (mut sim, mut mrc) = (Curves::new(), Curves::new());
    let need = [
        "study",
        "job",
        "stream",
        "policy",
        "size_bytes",
        "miss_ratio",
    ];
    let Some(ix) = need.iter().map(|n| col(n)).collect::<Option<Vec<_>>>() else {
        return (sim, mrc);
    };
    let shape_cols = ["ways", "block_bytes", "banks", "index"].map(col);
    for r in &main.rows {
        if text(&r[ix[2]]) != "all" {
            continue;
        }
        let Some(frame) = frame_of.get(&text(&r[ix[1]])) else {
            continue;
        };
        let (Some(size), Some(ratio)) = (num(&r[ix[4]]), num(&r[ix[5]])) else {
            continue;
        };
        let study = text(&r[ix[0]]);
        let shape = if study == "mrc" {
            String::new()
        } else {
            let at = |i: usize| shape_cols[i].map(|c| text(&r[c]));
            let mut parts = Vec::new();
            if let Some(w) = at(0) {
                parts.push(format!("{w} ways"));
            }
            if let Some(b) = at(1) {
                parts.push(format!("{b} B blocks"));
            }
            if let Some(k) = at(2) {
                parts.push(format!("{k} bank{}", if k == "1" { "" } else { "s" }));
            }
            if let Some(i) = at(3) {
                parts.push(format!("{i} index"));
            }
            parts.join(", ")
        };
        let target = if study == "mrc" { &mut mrc } else { &mut sim };
        target
            .entry((frame.clone(), shape))
            .or_default()
            .entry(text(&r[ix[3]]))
            .or_default()
            .push((size as u64, ratio));
    }
    (sim, mrc)
}

/// A readable name of a frame point.
fn frame_label(f: &FramePoint) -> String {
    let mut s = format!(
        "{} {}x{} {} ({} frame{}",
        f.scene,
        f.width,
        f.height,
        f.mode.name(),
        f.frames,
        if f.frames == 1 { "" } else { "s" }
    );
    if f.warmup > 0 {
        s.push_str(&format!(", {} warm-up", f.warmup));
    }
    s.push(')');
    if let Some(p) = &f.preset {
        s.push_str(&format!(" {p}"));
    }
    s
}

/// A path relative to the sweep's directory, for a link.
fn rel(out: &Path, p: &Path) -> String {
    p.strip_prefix(out)
        .unwrap_or(p)
        .to_string_lossy()
        .replace('\\', "/")
}

/// Writes the figures and `index.html` into `out`; returns the figures.
pub fn write(
    out: &Path,
    exp: &Experiment,
    jobs: &[Job],
    store: &Store,
    main: &Table,
    summary: &RunSummary,
) -> Result<Vec<PathBuf>> {
    let frame_of: BTreeMap<String, String> = jobs
        .iter()
        .map(|j| (j.slug(), frame_label(&j.frame)))
        .collect();
    let (sim, mrc) = curves(main, &frame_of);
    let intro = format!(
        "{} jobs: {} run now, {} kept from before, {} failed; {} frames rendered now.",
        summary.jobs,
        summary.ran,
        summary.already_done,
        summary.failed.len(),
        summary.frames_rendered
    );
    let warnings: Vec<String> = summary
        .failed
        .iter()
        .map(|f| format!("{}: {}", f.job, f.error))
        .collect();
    let mut figures = Vec::new();
    let mut frames: Vec<&String> = Vec::new();
    for (f, _) in sim.keys().chain(mrc.keys()) {
        if !frames.contains(&f) {
            frames.push(f);
        }
    }
    let mut capacity = OutSection::new("Miss ratio against capacity");
    if let Some(svg) = mean_figure(&sim, frames.len())? {
        let file = "miss-ratio-mean.svg";
        crate::output::write_bytes(&out.join(file), svg.as_bytes())?;
        let words = format!(
            "The mean over the {} frames of each policy's miss ratio (sim), at the \
             capacities every frame ran.",
            frames.len()
        );
        capacity = capacity.figure(file, "Mean over the frames", &words);
        figures.push(out.join(file));
    }
    // A frame to a row, each figure at its own size: two side by side
    // drew its text at about 8 px.
    for (k, frame) in frames.iter().enumerate() {
        let Some(panels) = frame_panels(frame, &sim, &mrc) else {
            continue;
        };
        let file = format!("miss-ratio-{}.svg", k + 1);
        let svg = render(frame, &panels)?;
        crate::output::write_bytes(&out.join(&file), svg.as_bytes())?;
        let words = "Each policy's miss ratio (sim) at each capacity.";
        capacity = capacity.figure(&file, frame, words);
        figures.push(out.join(&file));
    }
    let mut sections = vec![tables_section()];
    if !figures.is_empty() {
        sections.push(capacity);
    }
    sections.push(studies_section(out, exp, jobs, store));
    let page = Page {
        title: format!("Sweep {}", exp.name),
        intro: vec![intro],
        picture: None,
        sections: Vec::new(),
    };
    let cx = Context {
        dir: out,
        written: &[],
        warnings: &warnings,
        extra: sections,
    };
    let html = crate::report::page::render(&page, &[], &[], cx)?;
    crate::output::write_bytes(&out.join("index.html"), html.as_bytes())?;
    Ok(figures)
}

/// Where the sweep's tables are.
fn tables_section() -> OutSection {
    let row = |file: &str, what: &str| {
        vec![
            OutCell::link(file.into(), file.into()),
            OutCell::text(what.into()),
        ]
    };
    OutSection::new("Tables").table(
        vec!["file".into(), "what".into()],
        vec![
            row("sweep.csv", "every job's rows, one table"),
            row(
                "sweep.parquet",
                "the same as Parquet, each column's unit and mean rule as metadata",
            ),
            row("tables/", "the studies' own tables, a file each"),
        ],
    )
}

/// `frame`'s panels: one per cache shape `sim` ran, LRU's fully
/// associative curve (`mrc`) as a bound on each, or alone without `sim`.
fn frame_panels(frame: &str, sim: &Curves, mrc: &Curves) -> Option<Vec<CurvePanel>> {
    let lru = mrc
        .iter()
        .find(|((f, _), _)| f == frame)
        .and_then(|(_, by)| by.get("lru").cloned());
    let mut panels: Vec<CurvePanel> = Vec::new();
    for ((_, shape), by_policy) in sim.iter().filter(|((f, _), _)| f == frame) {
        let mut p = CurvePanel::new(shape, "miss ratio");
        for (i, (policy, points)) in by_policy.iter().enumerate() {
            p = p.line(policy.clone(), i, Stroke::Solid, points.clone());
        }
        if let Some(points) = &lru {
            p = p.bound("LRU fully associative (mrc)", points.clone());
        }
        panels.push(p);
    }
    if panels.is_empty() {
        if let Some(points) = lru {
            panels.push(CurvePanel::new("fully associative", "miss ratio").line(
                "LRU (mrc)",
                0,
                Stroke::Solid,
                points,
            ));
        }
    }
    let panels: Vec<CurvePanel> = panels
        .into_iter()
        .filter_map(|mut p| p.prune().then_some(p))
        .collect();
    (!panels.is_empty()).then_some(panels)
}

/// Per cache shape and policy, the mean miss ratio over the frames at each
/// capacity every frame ran; `None` with fewer than two frames.
fn mean_figure(sim: &Curves, frames: usize) -> Result<Option<String>> {
    if frames < 2 {
        return Ok(None);
    }
    /// Capacity -> (sum of miss ratios, frames).
    type Sums = BTreeMap<u64, (f64, usize)>;
    // shape -> policy -> sums
    let mut acc: BTreeMap<&str, BTreeMap<&str, Sums>> = BTreeMap::new();
    for ((_, shape), by_policy) in sim {
        for (policy, points) in by_policy {
            for &(size, ratio) in points {
                let e = acc
                    .entry(shape)
                    .or_default()
                    .entry(policy)
                    .or_default()
                    .entry(size)
                    .or_default();
                e.0 += ratio;
                e.1 += 1;
            }
        }
    }
    let mut panels = Vec::new();
    for (shape, by_policy) in acc {
        let mut p = CurvePanel::new(shape, "mean miss ratio");
        for (i, (policy, by_size)) in by_policy.into_iter().enumerate() {
            let points: Vec<(u64, f64)> = by_size
                .into_iter()
                .filter(|(_, (_, n))| *n == frames)
                .map(|(size, (sum, n))| (size, sum / n as f64))
                .collect();
            p = p.line(policy.to_string(), i, Stroke::Solid, points);
        }
        if p.prune() {
            panels.push(p);
        }
    }
    if panels.is_empty() {
        return Ok(None);
    }
    Ok(Some(render(
        &format!("Mean over {frames} frames"),
        &panels,
    )?))
}

/// Per frame point: its picture, and a link to each study's report.
fn studies_section(out: &Path, exp: &Experiment, jobs: &[Job], store: &Store) -> OutSection {
    let studies: Vec<_> = exp
        .studies
        .iter()
        .filter(|k| {
            jobs.iter()
                .any(|j| matches!(j.kind, JobKind::Study(s) if s == **k))
        })
        .copied()
        .collect();
    let mut head = vec!["frame".to_string(), "picture".to_string()];
    head.extend(studies.iter().map(|k| format!("{} report", k.name())));
    let rows = exp
        .frames
        .iter()
        .map(|f| {
            let mut row = vec![OutCell::text(frame_label(f))];
            let picture = store.frame_dir(f).join(PICTURE);
            row.push(if picture.is_file() {
                OutCell::image(rel(out, &picture), frame_label(f))
            } else {
                OutCell::none()
            });
            for k in &studies {
                let job = jobs
                    .iter()
                    .find(|j| j.frame == *f && matches!(j.kind, JobKind::Study(s) if s == *k));
                let index = job
                    .filter(|j| store.done(j))
                    .map(|j| store.job_dir(j).join(REPORT).join("index.html"));
                row.push(match index {
                    Some(p) => OutCell::link(rel(out, &p), "index.html".into()),
                    None => OutCell::none(),
                });
            }
            row
        })
        .collect();
    let title = if studies.is_empty() {
        "Frames"
    } else {
        "Studies by frame"
    };
    OutSection::new(title).table(head, rows)
}
