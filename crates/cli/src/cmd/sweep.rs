//! `gfxcache sweep EXP.toml`: every job of a sweep file, in parallel, each
//! result kept in `--out` as it finishes; then the tidy table (CSV and
//! Parquet), the studies' tables and a page comparing across the axes.
//! Started again on the same `--out`, it runs only what has no result.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use gfxcache_cache::Progress;
use gfxcache_sweep::{Experiment, Store};
use serde_json::Value;

use super::print_json;
use crate::sweep as exec;
use crate::sweep::pace::Pace;
use crate::table::Table as TextTable;

#[derive(clap::Args)]
#[command(
    after_help = "Example:\n  gfxcache sweep examples/sweeps/two-scenes.toml --out two-scenes\n\n\
The sweep file's format is in examples/sweeps/README.md."
)]
pub struct Args {
    /// The sweep file (TOML): its frames, cache geometries, policies and
    /// studies, and any study's own flags.
    pub experiment: PathBuf,
    /// The sweep's directory: rendered frames, each job's result (and a
    /// study's report), the tables and index.html. A sweep started again on
    /// it runs only the jobs without a result.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Jobs run side by side (default: one per core; at most one per core
    /// unless --oversubscribe). Each job also uses the cores it is given
    /// for its own work.
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Allow --jobs above the machine's cores.
    #[arg(long)]
    pub oversubscribe: bool,
    /// Refuse, before anything runs, a sweep file whose axes make more jobs
    /// than this.
    #[arg(long, default_value_t = exec::DEFAULT_MAX_JOBS)]
    pub max_jobs: u64,
    /// Print what ran and where the tables are as one JSON document on
    /// stdout, instead of a table.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args) -> Result<()> {
    let json = args.json;
    let (shown, failed) = execute(args)?;
    if json {
        print_json(&shown)?;
    } else {
        print!("{}", text(&shown));
    }
    failed.map_or(Ok(()), Err)
}

/// What `--json` prints; an error naming the failed jobs (after the
/// tables of every other one are written) if any failed.
pub fn output(args: Args) -> Result<Value> {
    let (shown, failed) = execute(args)?;
    failed.map_or(Ok(shown), Err)
}

/// The most jobs side by side even with `--oversubscribe`: each is a
/// thread waiting on a worker process, whose work takes memory of its own.
const MAX_JOB_THREADS: usize = 1024;

/// `--jobs`: at least 1, and at most the machine's cores unless
/// `--oversubscribe` (then at most [`MAX_JOB_THREADS`]).
fn check_jobs(jobs: Option<usize>, oversubscribe: bool) -> Result<()> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    match jobs {
        Some(0) => bail!("--jobs 0: give at least 1"),
        Some(n) if n > cores && !oversubscribe => bail!(
            "--jobs {n}: more than this machine's {cores} cores; give at most {cores}, \
             or --oversubscribe to run more side by side"
        ),
        Some(n) if n > MAX_JOB_THREADS => {
            bail!("--jobs {n}: expected at most {MAX_JOB_THREADS}, even with --oversubscribe")
        }
        _ => Ok(()),
    }
}

/// Runs the sweep and writes its tables: what `--json` prints, and the
/// error to end with if a job failed.
///
/// The store is locked first (a second sweep on it waits, naming this
/// one), and what killed runs left in it is removed. Each frame and each
/// job runs in a worker process of its own ([`exec::worker`]), so one that
/// aborts or is killed fails alone.
fn execute(args: Args) -> Result<(Value, Option<anyhow::Error>)> {
    check_jobs(args.jobs, args.oversubscribe)?;
    let exp = Experiment::read(&args.experiment)?;
    exec::check_size(&exp, args.max_jobs)?;
    exec::check(&exp)?;
    let out = args.out.clone().unwrap_or_else(|| PathBuf::from(&exp.name));
    let store = Store::open(&out)
        .with_context(|| format!("cannot open the sweep directory {}", out.display()))?;
    let _lock = lock(&store, &args.experiment)?;
    let jobs = exp.jobs();
    let threads = args.jobs.unwrap_or_else(rayon::current_num_threads);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("cannot start the job threads")?;
    // Jobs side by side would draw their bars over each other: each
    // finished job is a line on stderr instead.
    crate::progress::hide_bars(true);
    let pending = store.pending(&jobs);
    let lines = ProgressLines::new(Pace::new(&pending, threads));
    let summary = pool.install(|| {
        gfxcache_sweep::run_pending(
            &jobs,
            &pending,
            &store,
            exec::worker::render,
            |job| {
                lines.pace.start(job);
                let ended = exec::worker::job(&store, job);
                lines.pace.end(job);
                ended
            },
            &|p| lines.show(p),
        )
    });
    crate::progress::hide_bars(false);
    if gfxcache_cache::progress::stop_requested() {
        // Asked to stop (a Python caller's Ctrl-C): every finished job is
        // kept in the store; the tables wait for a run that ends.
        return Err(gfxcache_cache::progress::interrupted().into());
    }
    let failed = (!summary.failed.is_empty()).then(|| {
        format!(
            "{} of {} jobs failed ({})",
            summary.failed.len(),
            summary.jobs,
            summary
                .failed
                .iter()
                .map(|f| format!("{}: {}", f.job, f.error))
                .collect::<Vec<_>>()
                .join("; "),
        )
    });
    let shown = match exec::finish(&out, &exp, &store, &summary) {
        Ok(shown) => shown,
        Err(e) => {
            let Some(failed) = failed else { return Err(e) };
            return Err(e.context(format!(
                "{failed}; every other result is kept in {}, but the tables could not be written",
                out.display()
            )));
        }
    };
    let failed =
        failed.map(|f| anyhow::anyhow!("{f}; every other result is kept in {}", out.display()));
    Ok((shown, failed))
}

/// Takes `store`'s lock for the sweep of `experiment` (waiting, with a
/// word on stderr, while another sweep holds it) and removes what killed
/// runs left in it.
fn lock(store: &Store, experiment: &Path) -> Result<gfxcache_sweep::StoreLock> {
    let root = store.root();
    let held = store
        .lock(
            &format!("gfxcache sweep {}", experiment.display()),
            |owner| {
                let who = owner.map_or("another sweep".to_string(), |o| o.to_string());
                eprintln!(
                    "sweep: {} is in use by {who}; waiting for it to end",
                    root.display()
                );
            },
        )
        .with_context(|| format!("cannot lock the sweep directory {}", root.display()))?;
    let removed = store.remove_leftovers().with_context(|| {
        format!(
            "cannot remove what an interrupted run left in {}",
            root.display()
        )
    })?;
    if removed > 0 {
        eprintln!(
            "sweep: removed {removed} unfinished files and directories left by an interrupted run"
        );
    }
    Ok(held)
}

/// `sweep: 3/8 jobs ended, 1 failed, about 1m 20s left` lines on stderr, the time
/// left from the times this run's jobs took ([`Pace`]).
struct ProgressLines {
    start: Instant,
    pace: Pace,
    failed: Mutex<u64>,
}

impl ProgressLines {
    fn new(pace: Pace) -> ProgressLines {
        ProgressLines {
            start: Instant::now(),
            pace,
            failed: Mutex::new(0),
        }
    }

    fn show(&self, p: Progress) {
        match p.phase {
            gfxcache_sweep::FRAMES => {
                if p.done < p.total {
                    eprintln!("sweep: rendering frame {}/{}", p.done + 1, p.total);
                }
                return;
            }
            gfxcache_sweep::JOBS_FAILED => {
                if let Ok(mut failed) = self.failed.lock() {
                    *failed = p.done;
                }
                return;
            }
            _ => {}
        }
        let failed = self.failed.lock().map_or(0, |f| *f);
        let eta = match self.pace.left() {
            Some(left) if p.done < p.total => {
                format!(", about {} left", duration(left.as_secs_f64()))
            }
            _ => String::new(),
        };
        let failed = match failed {
            0 => String::new(),
            n => format!(", {n} failed"),
        };
        eprintln!(
            "sweep: {}/{} jobs ended{failed}{eta} ({} elapsed)",
            p.done,
            p.total,
            duration(self.start.elapsed().as_secs_f64())
        );
    }
}

fn duration(seconds: f64) -> String {
    let s = seconds.round() as u64;
    match s {
        0..=59 => format!("{s}s"),
        60..=3599 => format!("{}m {:02}s", s / 60, s % 60),
        _ => format!("{}h {:02}m", s / 3600, (s % 3600) / 60),
    }
}

/// The summary of [`exec::finish`]'s document as a table.
fn text(o: &Value) -> String {
    let n = |k: &str| o[k].as_u64().unwrap_or(0).to_string();
    let s = |k: &str| o[k].as_str().unwrap_or("").to_string();
    let failed = o["failed"].as_array().cloned().unwrap_or_default();
    let mut t = TextTable::new([
        "jobs",
        "run now",
        "kept from before",
        "failed",
        "frames rendered",
    ]);
    t.row([
        n("jobs"),
        n("ran"),
        n("already_done"),
        failed.len().to_string(),
        n("frames_rendered"),
    ]);
    let mut text = format!("sweep {} in {}\n\n{}", s("sweep"), s("out"), t.render());
    for f in &failed {
        text.push_str(&format!(
            "failed: {}: {}\n",
            f["job"].as_str().unwrap_or(""),
            f["error"].as_str().unwrap_or("")
        ));
    }
    let tables: Vec<&str> = o["tables"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| t.as_str())
        .collect();
    text.push_str(&format!(
        "\nTables: {}\nPage: {}\n",
        tables.join(", "),
        Path::new(&s("out")).join(s("page")).display()
    ));
    text
}
