//! `gfxcache sweep`'s work, composed from the commands themselves: a
//! frame point is rendered as `gfxcache render` renders it, and each job
//! runs as its command runs, from the words of a command line built from
//! the job. So a study's `[flags.<study>]` in a sweep file are that
//! command's own flags, checked by its own parser, and a job gives what
//! the command's `--json` gives.
//!
//! The schedule, the jobs' keys and the result store are `gfxcache-sweep`'s;
//! this module gives it the renderer and the executor ([`render_frame`],
//! [`run_job`]) and turns the store into the tidy table ([`table`]), its
//! Parquet form ([`parquet`]) and the comparison page ([`page`]).

pub mod pace;
pub mod page;
pub mod parquet;
pub mod table;
pub mod worker;

use std::collections::HashSet;
use std::path::Path;

use anyhow::{anyhow, bail, Context, Result};
use clap::Parser;
use gfxcache_sweep::{Experiment, FramePoint, Job, JobKind, StudyKind};
use serde_json::Value;

use crate::{cmd, Cli, Command};
use gfxcache_sweep::{RunSummary, Store};
use serde::Serialize;

/// A frame directory's files: the LLC (or, tile by tile, L2) trace, the
/// last frame's picture and the renderer's summary.
pub const TRACE: &str = "frame.gtr";
pub const PICTURE: &str = "frame.png";
pub const SUMMARY: &str = "render.json";
/// A study job's report directory, inside the job's directory.
pub use gfxcache_sweep::REPORT;

fn path(p: &Path) -> String {
    p.display().to_string()
}

/// `gfxcache render --scene S --mode M --width W --height H`: the words
/// of `frame`'s scene and screen, before any file or flag.
pub fn frame_words(frame: &FramePoint) -> Vec<String> {
    [
        "gfxcache",
        "render",
        "--scene",
        &frame.scene,
        "--mode",
        frame.mode.name(),
        "--width",
        &frame.width.to_string(),
        "--height",
        &frame.height.to_string(),
    ]
    .map(String::from)
    .into()
}

/// `gfxcache render`'s command line for `frame`, into `dir`.
pub fn render_words(frame: &FramePoint, dir: &Path) -> Vec<String> {
    let mut w = frame_words(frame);
    w.extend(
        [
            "--frames",
            &frame.frames.to_string(),
            "--out",
            &path(&dir.join(TRACE)),
            "--png",
            &path(&dir.join(PICTURE)),
        ]
        .map(String::from),
    );
    if let Some(p) = &frame.preset {
        w.extend(["--preset".to_string(), p.clone()]);
    }
    w.extend(frame.render_flags.iter().cloned());
    w
}

/// The command line that runs `job` on the frame in `frame_dir`, keeping
/// its files (a study's report) in `job_dir`.
///
/// `sim`, `mrc` and `gspc` read the shared frame's trace. `tcor`, `nuca`
/// and `nbtc` render the frames of their own machine (binned passes,
/// texture requests, other processor counts and filters) from the frame
/// point's scene, size and preset, as their `--scene` form does.
pub fn job_words(job: &Job, frame_dir: &Path, job_dir: &Path) -> Vec<String> {
    let f = &job.frame;
    let trace = path(&frame_dir.join(TRACE));
    let report = path(&job_dir.join(REPORT));
    let mut w: Vec<String> = vec!["gfxcache".into(), job.kind.study().name().into()];
    let mut push = |words: &[&str]| w.extend(words.iter().map(|s| s.to_string()));
    match &job.kind {
        JobKind::Sim {
            geometry: g,
            policies,
        } => {
            push(&[
                &trace,
                "--size",
                &g.size_bytes.to_string(),
                "--ways",
                &g.ways.to_string(),
                "--block",
                &g.block_bytes.to_string(),
                "--banks",
                &g.banks.to_string(),
                "--index",
                &g.index,
            ]);
            for p in policies {
                push(&["--policy", p]);
            }
        }
        JobKind::Mrc => push(&[&trace]),
        JobKind::Study(StudyKind::Gspc) => {
            push(&[&trace, "--warmup", &f.warmup.to_string(), "--out", &report]);
        }
        JobKind::Study(kind) => {
            let (width, height) = (f.width.to_string(), f.height.to_string());
            push(&["--scene", &f.scene, "--width", &width, "--height", &height]);
            if *kind == StudyKind::Tcor {
                push(&["--frames", &f.frames.to_string()]);
                push(&["--warmup", &f.warmup.to_string()]);
            }
            if let Some(p) = &f.preset {
                push(&["--preset", p]);
            }
            push(&["--out", &report]);
        }
    }
    w.extend(job.flags.iter().cloned());
    w
}

/// The command `words` name, parsed as the command line parses it.
pub(crate) fn parse(words: &[String]) -> Result<Command> {
    Cli::try_parse_from(words)
        .map(|c| c.command)
        .map_err(|e| anyhow!("{}", e.render().to_string().trim_end()))
}

/// The most jobs `gfxcache sweep` runs unless `--max-jobs` says more.
pub const DEFAULT_MAX_JOBS: u64 = 200_000;

/// Refuses a sweep of more than `max` jobs, counted without making them
/// ([`Experiment::job_count`]), naming the count and `--max-jobs`.
pub fn check_size(exp: &Experiment, max: u64) -> Result<()> {
    let jobs = exp.job_count();
    if jobs > max {
        bail!(
            "the sweep {} has {jobs} jobs ({} frame points): more than --max-jobs {max}; \
             give fewer axis values, or a larger --max-jobs",
            exp.name,
            exp.frame_count()
        );
    }
    Ok(())
}

/// Refuses, before anything runs, a sweep one of whose commands would
/// refuse its arguments: every distinct command line of its frames
/// (`render`) and of its jobs, parsed as the command line parses it and
/// checked as the command checks it before its work ([`Command::check`]:
/// settings, policy specs, the machine and config files it names, the
/// frames a study would render), rendering and running nothing. The
/// frame's and the job's directories are fixed placeholders (nothing is
/// read there), so jobs that differ only in their frame (`sim`, `mrc`,
/// `gspc` on the shared trace) are one command line, checked once. Each
/// error names the frame or job and the `[flags.*]` table its command
/// takes. Call [`check_size`] first: this makes every job.
///
/// A deprecated flag in a `[flags.*]` table (`fps`) still works, as it
/// does on the command line, and is said once on stderr, naming the
/// table; the sweep passes it on as written, so that its frames and jobs
/// keep the keys they had.
pub fn check(exp: &Experiment) -> Result<()> {
    let dir = Path::new("sweep-check");
    let mut seen: HashSet<Vec<String>> = HashSet::new();
    let mut warned: HashSet<String> = HashSet::new();
    let mut checked = |words: Vec<String>, table: &str| -> Result<()> {
        if seen.contains(&words) {
            return Ok(());
        }
        let command = parse(&words)?;
        command.check()?;
        for warning in command.deprecations() {
            let line = format!("[{table}]: {warning}");
            if warned.insert(line.clone()) {
                eprintln!("warning: {line}");
            }
        }
        seen.insert(words);
        Ok(())
    };
    for frame in &exp.frames {
        checked(render_words(frame, dir), "flags.render")
            .with_context(|| format!("frame {}, [flags.render]", frame.slug()))?;
    }
    for job in &exp.jobs() {
        let study = job.kind.study().name();
        let axes = match job.kind {
            JobKind::Sim { .. } => "policies or ",
            _ => "",
        };
        checked(job_words(job, dir, dir), &format!("flags.{study}"))
            .with_context(|| format!("job {}, {axes}[flags.{study}]", job.slug()))?;
    }
    Ok(())
}

/// Renders `frame` into `dir`: its trace, its picture and the summary.
pub fn render_frame(frame: &FramePoint, dir: &Path) -> Result<()> {
    let Command::Render(args) = parse(&render_words(frame, dir))? else {
        unreachable!("render words parse as render");
    };
    let summary = cmd::render::summary(&args)?;
    let text = serde_json::to_string_pretty(&summary).context("the render summary")?;
    crate::output::write_bytes(&dir.join(SUMMARY), text.as_bytes())
}

/// Runs `job`: what its command's `--json` gives (a study's whole report,
/// also kept as its report directory in `job_dir`).
pub fn run_job(job: &Job, frame_dir: &Path, job_dir: &Path) -> Result<Value> {
    parse(&job_words(job, frame_dir, job_dir))?.output()
}

/// A study's report (`<dir>/<name>.json`) as plain data.
pub fn read_report(dir: &Path, name: &str) -> Result<Value> {
    let file = dir.join(format!("{name}.json"));
    let text = std::fs::read_to_string(&file)
        .with_context(|| format!("cannot read {}", file.display()))?;
    serde_json::from_str(&text).with_context(|| format!("{} is not JSON", file.display()))
}

/// The directory of the studies' tables, in a sweep's directory.
pub const STUDY_TABLES: &str = "tables";

/// Removes from `dir` (the studies' tables) every table this run did not
/// write (`written`, relative to `out`): the tables of jobs no longer in
/// the sweep (a study dropped, its flags changed, another sweep file run
/// into the same directory) would otherwise stand beside the new ones.
fn remove_stale_tables(out: &Path, dir: &Path, written: &[String]) -> Result<()> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(());
    };
    for entry in entries {
        let path = entry
            .with_context(|| format!("cannot list {}", dir.display()))?
            .path();
        let table = matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("csv" | "parquet")
        );
        let name = path
            .strip_prefix(out)
            .unwrap_or(&path)
            .display()
            .to_string();
        if table && !written.contains(&name) {
            std::fs::remove_file(&path)
                .with_context(|| format!("cannot remove the old table {}", path.display()))?;
        }
    }
    Ok(())
}

/// What a sweep made, as `gfxcache sweep --json` prints it: the run's
/// counts and the tables' paths, relative to its directory.
#[derive(Serialize)]
pub struct Finished<'a> {
    pub sweep: &'a str,
    pub out: String,
    #[serde(flatten)]
    pub summary: &'a RunSummary,
    pub tables: Vec<String>,
    pub page: &'static str,
}

/// The tidy table, the studies' tables (CSV and Parquet) and the page of
/// the sweep in `store` at `out`, from every result it holds; `summary`
/// is what the run did. The same whoever ran the jobs (this machine, Ray).
pub fn finish(out: &Path, exp: &Experiment, store: &Store, summary: &RunSummary) -> Result<Value> {
    let jobs = exp.jobs();
    let tables = table::tidy(&jobs, store)?;
    let mut written = Vec::new();
    let mut write = |stem: &Path, t: &table::Table| -> Result<()> {
        let csv = stem.with_extension("csv");
        crate::output::write_bytes(&csv, &t.to_csv()?)?;
        let pq = stem.with_extension("parquet");
        crate::output::write_bytes(&pq, &parquet::to_parquet(t)?)?;
        for p in [csv, pq] {
            written.push(p.strip_prefix(out).unwrap_or(&p).display().to_string());
        }
        Ok(())
    };
    write(&out.join("sweep"), &tables.main)?;
    let dir = out.join(STUDY_TABLES);
    if !tables.studies.is_empty() {
        std::fs::create_dir_all(&dir)
            .with_context(|| format!("cannot create {}", dir.display()))?;
        // A table no job filled (a study's sweep turned off) is left out.
        for (name, t) in tables.studies.iter().filter(|(_, t)| !t.rows.is_empty()) {
            write(&dir.join(name), t)?;
        }
    }
    remove_stale_tables(out, &dir, &written)?;
    page::write(out, exp, &jobs, store, &tables.main, summary)?;
    let done = Finished {
        sweep: &exp.name,
        out: out.display().to_string(),
        summary,
        tables: written,
        page: "index.html",
    };
    Ok(serde_json::to_value(done)?)
}
