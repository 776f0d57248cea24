//! The result store: each finished job's result kept on disk the moment it
//! completes, whole or not at all, so that a sweep killed at any point and
//! started again runs only the jobs without a result, and a changed point
//! (a new key) runs again while unchanged ones do not.
//!
//! Layout: `ROOT/jobs/<slug>/result.json`, the slug ending in the job's
//! key. A result is written to a temporary file in the job's directory
//! and renamed over `result.json`: a kill leaves at most a temporary file,
//! which does not count. A result counts as done when it parses and
//! carries the job's key, and (a study's job) its report directory is in
//! place, with its manifest: a study's report is the job's files, and a
//! result without them would stop the tables for good.
//!
//! One sweep at a time: [`Store::lock`] takes `ROOT/.lock` (an advisory
//! `flock`, released when its holder ends however it ends) and writes the
//! holder's process id, host and command into it, so that a second sweep
//! on the store waits, naming the one it waits for. A sweep that holds the
//! lock removes what killed runs left behind ([`Store::remove_leftovers`]).

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value;

use crate::jobs::{Job, JobKind};

/// A study job's report directory, inside the job's directory; the study
/// writes it (`--out`) whole, with [`REPORT_MANIFEST`] last.
pub const REPORT: &str = "report";
/// The file a whole report directory holds.
pub const REPORT_MANIFEST: &str = "manifest.json";

/// The lock file of a store, in its root.
const LOCK: &str = ".lock";
/// How often a sweep waiting for a store's lock tries again.
const LOCK_POLL: std::time::Duration = std::time::Duration::from_millis(100);

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
    /// The store at `root`, made if missing. A directory that is neither
    /// empty nor a store (no `jobs/`) is refused: a sweep writes its
    /// tables and page there and would mix them with what it holds.
    pub fn open(root: &Path) -> std::io::Result<Store> {
        if let Ok(mut entries) = std::fs::read_dir(root) {
            if entries.next().is_some() && !root.join("jobs").is_dir() {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::AlreadyExists,
                    "it holds files and is no sweep directory (it has no jobs/): give a new or empty directory",
                ));
            }
        }
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

    /// The directory of a study `job`'s report.
    pub fn report_dir(&self, job: &Job) -> PathBuf {
        self.job_dir(job).join(REPORT)
    }

    /// `job`'s stored result, if it has a whole one (and, a study's job,
    /// its report).
    pub fn load(&self, job: &Job) -> Option<Value> {
        if matches!(job.kind, JobKind::Study(_))
            && !self.report_dir(job).join(REPORT_MANIFEST).is_file()
        {
            return None;
        }
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
    /// Errors name `result.json` (not the temporary file).
    pub fn save<T: Serialize>(&self, job: &Job, result: &T) -> std::io::Result<()> {
        let path = self.result_path(job);
        let write = || -> std::io::Result<()> {
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
            tmp.persist(&path).map_err(|e| e.error)?;
            Ok(())
        };
        write().map_err(|e| {
            // tempfile's errors add "at path <the temporary>": say the
            // operating system's error once, after the result's path.
            let text = e.to_string();
            let bare = text.split(" at path ").next().unwrap_or(&text);
            std::io::Error::new(e.kind(), format!("{}: {bare}", path.display()))
        })
    }
}

/// Who holds a store's lock, as its lock file says.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Owner {
    pub pid: u32,
    pub host: String,
    pub command: String,
    /// Seconds since the Unix epoch.
    pub since: u64,
}

impl std::fmt::Display for Owner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "process {} on {} ({})",
            self.pid, self.host, self.command
        )
    }
}

/// A held store lock: released when dropped (or when its process ends).
pub struct StoreLock {
    file: std::fs::File,
}

impl StoreLock {
    /// The lock file, held; its contents name this process.
    pub fn file(&self) -> &std::fs::File {
        &self.file
    }
}

impl Store {
    /// Takes the store's lock for this process (`command` names it to a
    /// sweep that must wait). If another process holds it, `waiting` is
    /// told who (the lock file's contents; `None` if unreadable) and the
    /// call waits for it to end, or for this process to be asked to stop
    /// ([`gfxcache_cache::progress::request_stop`]: an `Interrupted` error).
    pub fn lock(
        &self,
        command: &str,
        waiting: impl FnOnce(Option<Owner>),
    ) -> std::io::Result<StoreLock> {
        let path = self.root.join(LOCK);
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)?;
        let mut waiting = Some(waiting);
        loop {
            match file.try_lock() {
                Ok(()) => break,
                Err(std::fs::TryLockError::WouldBlock) => {}
                Err(std::fs::TryLockError::Error(e)) => return Err(e),
            }
            if let Some(tell) = waiting.take() {
                let owner = std::fs::read_to_string(&path)
                    .ok()
                    .and_then(|t| serde_json::from_str(&t).ok());
                tell(owner);
            }
            // Polled, not blocked on, so that a caller asked to stop (a
            // Python caller's Ctrl-C) stops waiting.
            if gfxcache_cache::progress::stop_requested() {
                return Err(gfxcache_cache::progress::interrupted());
            }
            std::thread::sleep(LOCK_POLL);
        }
        let owner = Owner {
            pid: std::process::id(),
            host: host_name(),
            command: command.to_string(),
            since: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs()),
        };
        file.set_len(0)?;
        let mut w = &file;
        serde_json::to_writer(&mut w, &owner)?;
        w.write_all(b"\n")?;
        Ok(StoreLock { file })
    }

    /// Removes what runs killed part way left in the store (call it holding
    /// [`Store::lock`], so that nothing removed is another run's): frames
    /// staged but never put in place (`frames/.render-*`), results being
    /// written (`jobs/*/.tmp*`), reports being staged or swapped
    /// (`jobs/*/report.*.partial`, `report.*.old`) and tables and pages
    /// being written (`*.partial` in the root and `tables/`). The number
    /// removed.
    pub fn remove_leftovers(&self) -> std::io::Result<usize> {
        let mut removed = 0;
        let mut sweep = |dir: &Path, is_leftover: &dyn Fn(&str) -> bool| -> std::io::Result<()> {
            let Ok(entries) = std::fs::read_dir(dir) else {
                return Ok(());
            };
            for entry in entries {
                let entry = entry?;
                let name = entry.file_name().to_string_lossy().into_owned();
                if !is_leftover(&name) {
                    continue;
                }
                let path = entry.path();
                if entry.file_type()?.is_dir() {
                    std::fs::remove_dir_all(&path)?;
                } else {
                    std::fs::remove_file(&path)?;
                }
                removed += 1;
            }
            Ok(())
        };
        let partial = |n: &str| n.ends_with(".partial");
        sweep(&self.root, &partial)?;
        sweep(&self.root.join("tables"), &partial)?;
        sweep(&self.root.join("frames"), &|n| {
            n.starts_with(".render-") || n.ends_with(".partial")
        })?;
        let staged_report = format!("{REPORT}.");
        for entry in std::fs::read_dir(self.root.join("jobs"))? {
            let entry = entry?;
            if entry.file_type()?.is_dir() {
                sweep(&entry.path(), &|n| {
                    n.starts_with(".tmp")
                        || n.ends_with(".partial")
                        || (n.starts_with(&staged_report) && n.ends_with(".old"))
                })?;
            }
        }
        Ok(removed)
    }
}

/// This machine's name, for a lock's owner (`?` if unknown).
fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "?".to_string())
}
