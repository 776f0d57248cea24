//! The result store: each finished job's result kept on disk the moment it
//! completes, whole or not at all, so that a sweep killed at any point and
//! started again runs only the jobs without a result, and a changed point
//! (a new key) runs again while unchanged ones do not.
//!
//! Layout: `ROOT/jobs/<slug>/result.json`, the slug ending in the job's
//! key. A result is written to a temporary file in the job's directory
//! and renamed over `result.json`: a kill leaves at most a temporary file,
//! which does not count. A result counts as done when it parses and
//! carries the job's key.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value;

use crate::jobs::Job;

/// A sweep's results on disk.
pub struct Store {
    root: PathBuf,
}

/// A stored result: the job it answers (and its key), and the result.
#[derive(Serialize)]
struct Stored<'a, T: Serialize> {
    key: String,
    job: &'a Job,
    result: &'a T,
}

impl Store {
    /// The store at `root`, made if missing.
    pub fn open(root: &Path) -> std::io::Result<Store> {
        std::fs::create_dir_all(root.join("jobs"))?;
        Ok(Store {
            root: root.to_path_buf(),
        })
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The directory of `job`'s files.
    pub fn job_dir(&self, job: &Job) -> PathBuf {
        self.root.join("jobs").join(job.slug())
    }

    fn result_path(&self, job: &Job) -> PathBuf {
        self.job_dir(job).join("result.json")
    }

    /// `job`'s stored result, if it has a whole one.
    pub fn load(&self, job: &Job) -> Option<Value> {
        let text = std::fs::read_to_string(self.result_path(job)).ok()?;
        let mut v: Value = serde_json::from_str(&text).ok()?;
        if v.get("key")?.as_str()? != job.key() {
            return None;
        }
        Some(v.get_mut("result")?.take())
    }

    /// Whether `job` has a whole result.
    pub fn done(&self, job: &Job) -> bool {
        self.load(job).is_some()
    }

    /// The jobs of `jobs` without a result, in order.
    pub fn pending<'a>(&self, jobs: &'a [Job]) -> Vec<&'a Job> {
        jobs.iter().filter(|j| !self.done(j)).collect()
    }

    /// Keeps `result` as `job`'s, atomically: after a kill at any moment
    /// the job has its whole result or none.
    pub fn save<T: Serialize>(&self, job: &Job, result: &T) -> std::io::Result<()> {
        let dir = self.job_dir(job);
        std::fs::create_dir_all(&dir)?;
        let stored = Stored {
            key: job.key(),
            job,
            result,
        };
        let mut tmp = tempfile::NamedTempFile::new_in(&dir)?;
        serde_json::to_writer_pretty(&mut tmp, &stored)?;
        tmp.write_all(b"\n")?;
        tmp.as_file().sync_all()?;
        tmp.persist(self.result_path(job)).map_err(|e| e.error)?;
        Ok(())
    }
}
