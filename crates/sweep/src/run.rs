//! Runs a sweep's pending jobs: each frame they need rendered once (into
//! the store, shared by every job on it), then the jobs in parallel, each
//! result kept the moment its job finishes. A job that fails is reported
//! and the others go on; a sweep started again runs only what has no
//! result. What renders a frame and what runs a job are given (the
//! command line composes them from the design crates, and runs each in a
//! worker process of its own, so that a job that aborts or is killed
//! fails alone), so this module is the schedule and nothing else.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use gfxcache_cache::progress::{interrupted, stop_requested, Progress, ProgressFn};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::exp::FramePoint;
use crate::jobs::Job;
use crate::store::Store;

/// A job that did not finish: its directory's name and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Failure {
    pub job: String,
    pub error: String,
}

/// What a run did.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunSummary {
    pub jobs: usize,
    /// Jobs that had a result already (a resumed sweep).
    pub already_done: usize,
    pub ran: usize,
    pub frames_rendered: usize,
    pub failed: Vec<Failure>,
}

impl Store {
    /// The directory of `frame`'s rendered files.
    pub fn frame_dir(&self, frame: &FramePoint) -> PathBuf {
        self.root()
            .join("frames")
            .join(format!("{}-{}", frame.slug(), frame.key()))
    }
}

/// Renders `frame` into its directory unless it is there whole: into a
/// fresh directory first, renamed into place when `render` succeeded.
/// True if it rendered. (Two processes rendering one frame at once, as
/// workers of a cluster may, each stage their own; the first rename wins
/// and the other's copy is dropped.)
pub fn ensure_frame<R>(store: &Store, frame: &FramePoint, render: &R) -> Result<bool, String>
where
    R: Fn(&FramePoint, &Path) -> Result<(), String>,
{
    let dir = store.frame_dir(frame);
    if dir.is_dir() {
        return Ok(false);
    }
    let parent = dir.parent().expect("a frame directory has a parent");
    std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    let staged = tempfile::Builder::new()
        .prefix(".render-")
        .tempdir_in(parent)
        .map_err(|e| format!("{}: {e}", parent.display()))?;
    render(frame, staged.path())?;
    match std::fs::rename(staged.path(), &dir) {
        Ok(()) => {
            let _ = staged.keep();
            Ok(true)
        }
        // Another process put the frame in place first.
        Err(_) if dir.is_dir() => Ok(false),
        Err(e) => Err(format!("{}: {e}", dir.display())),
    }
}

/// Runs `job` on its frame (which must be in place) and keeps its result:
/// the one step of [`run`] a worker of a cluster runs.
pub fn run_one<E>(store: &Store, job: &Job, exec: E) -> Result<(), String>
where
    E: Fn(&Job, &Path, &Path) -> Result<Value, String>,
{
    let dir = store.job_dir(job);
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let result = exec(job, &store.frame_dir(&job.frame), &dir)?;
    store
        .save(job, &result)
        .map_err(|e| format!("cannot keep its result {e}"))
}

/// The phase of [`run`]'s reports that counts the jobs ended so far
/// (finished or failed), of all the sweep's.
pub const JOBS_ENDED: &str = "sweep jobs";
/// The phase of [`run`]'s reports that counts the jobs failed so far, of
/// all the sweep's: reported before the [`JOBS_ENDED`] report of the same
/// job.
pub const JOBS_FAILED: &str = "sweep jobs failed";
/// The phase of [`run`]'s reports that counts the frames rendered (or
/// found in place) so far, of those the pending jobs need.
pub const FRAMES: &str = "sweep frames";

/// Runs every job of `jobs` without a result in `store`:
/// [`run_pending`] of [`Store::pending`].
pub fn run<R, E>(
    jobs: &[Job],
    store: &Store,
    render: R,
    exec: E,
    progress: ProgressFn<'_>,
) -> RunSummary
where
    R: Fn(&FramePoint, &Path) -> Result<(), String>,
    E: Fn(&Job) -> Result<(), String> + Sync,
{
    run_pending(jobs, &store.pending(jobs), store, render, exec, progress)
}

/// Runs `pending`, the jobs of `jobs` without a result in `store`
/// ([`Store::pending`], computed by a caller that also wants them, for a
/// time left): their frames first (each once, in order), then the jobs in
/// parallel. `exec` runs a
/// job on its frame and keeps its result in `store` ([`run_one`], here or
/// in a worker process); a job whose `exec` succeeds without leaving a
/// whole result fails. Once asked to stop
/// ([`gfxcache_cache::progress::request_stop`]) it starts no frame and no
/// job: those left are failed as interrupted.
pub fn run_pending<R, E>(
    jobs: &[Job],
    pending: &[&Job],
    store: &Store,
    render: R,
    exec: E,
    progress: ProgressFn<'_>,
) -> RunSummary
where
    R: Fn(&FramePoint, &Path) -> Result<(), String>,
    E: Fn(&Job) -> Result<(), String> + Sync,
{
    let mut summary = RunSummary {
        jobs: jobs.len(),
        already_done: jobs.len() - pending.len(),
        ..RunSummary::default()
    };
    // Each frame not yet in place once, in order (a set: linear in the
    // jobs), so that progress counts only what renders.
    let mut seen = std::collections::HashSet::new();
    let frames: Vec<&FramePoint> = pending
        .iter()
        .filter(|j| j.kind.reads_frame())
        .map(|j| &j.frame)
        .filter(|f| seen.insert(*f) && !store.frame_dir(f).is_dir())
        .collect();
    let mut broken: std::collections::HashMap<&FramePoint, String> =
        std::collections::HashMap::new();
    for (i, frame) in frames.iter().enumerate() {
        progress(Progress::items(FRAMES, i as u64, frames.len() as u64));
        if stop_requested() {
            broken.insert(frame, interrupted().to_string());
            continue;
        }
        match ensure_frame(store, frame, &render) {
            Ok(rendered) => summary.frames_rendered += usize::from(rendered),
            Err(e) => {
                broken.insert(frame, e);
            }
        }
    }
    progress(Progress::items(
        FRAMES,
        frames.len() as u64,
        frames.len() as u64,
    ));
    let total = jobs.len() as u64;
    // Reported under the lock, so the counts arrive in order.
    let counts = Mutex::new((summary.already_done as u64, 0u64));
    progress(Progress::items(
        JOBS_ENDED,
        summary.already_done as u64,
        total,
    ));
    let outcomes: Vec<Option<Failure>> = pending
        .par_iter()
        .with_max_len(1)
        .map(|job| {
            let failed = |error: String| {
                Some(Failure {
                    job: job.slug(),
                    error,
                })
            };
            let outcome = if let Some(e) = broken.get(&job.frame) {
                failed(format!("rendering its frame: {e}"))
            } else if stop_requested() {
                failed(interrupted().to_string())
            } else {
                match exec(job) {
                    Ok(()) if store.done(job) => None,
                    Ok(()) => failed("it ended without keeping a whole result".to_string()),
                    Err(e) => failed(e),
                }
            };
            let mut n = counts.lock().expect("no job panics holding it");
            n.0 += 1;
            if outcome.is_some() {
                n.1 += 1;
                progress(Progress::items(JOBS_FAILED, n.1, total));
            }
            progress(Progress::items(JOBS_ENDED, n.0, total));
            outcome
        })
        .collect();
    summary.ran = outcomes.iter().filter(|o| o.is_none()).count();
    summary.failed = outcomes.into_iter().flatten().collect();
    summary
}
