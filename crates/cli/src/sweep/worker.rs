//! Each frame and each job of a local sweep in a worker process of its
//! own, so that one that aborts, panics, or is killed (the kernel's
//! out-of-memory killer, a user) fails alone: its frame's or job's failure
//! names how it ended, and the sweep goes on and writes the tables of every
//! other job. Snakemake and Ray isolate their tasks the same way.
//!
//! The parent side ([`render`], [`job`]) starts the worker command
//! ([`set_command`]; by default this executable's hidden `sweep-worker`
//! subcommand), hands it the frame point or the job as JSON on its standard
//! input, forwards what it prints on stderr (its warnings), and keeps its
//! last `error:` line as the failure's reason. The worker side
//! ([`serve`]) renders the frame into the staged directory it is given, or
//! runs the job and keeps its result in the store ([`gfxcache_sweep::run_one`]),
//! exactly as the in-process executor did.
//!
//! A worker ends with its parent: it is started with `PR_SET_PDEATHSIG`
//! (Linux), so a parent killed in any way sends it SIGTERM, on which it
//! removes its unfinished outputs and exits. A parent asked to stop
//! ([`gfxcache_cache::progress::request_stop`]: a Python caller's Ctrl-C)
//! sends SIGTERM to its workers itself.
//!
//! Test hook: a worker whose job's directory name contains the value of
//! `GFXCACHE_TEST_ABORT_JOB` calls `abort()` before it runs the job (the
//! isolation test's failing job).

use std::ffi::OsString;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ExitStatus, Stdio};
use std::sync::Mutex;
use std::time::Duration;

use anyhow::{Context, Result};
use gfxcache_cache::progress::stop_requested;
use gfxcache_sweep::{FramePoint, Job, Store};
use serde::Serialize;

/// The hidden subcommand a worker runs as.
pub const SUBCOMMAND: &str = "sweep-worker";

/// The environment variable of the abort test hook.
pub const TEST_ABORT_JOB: &str = "GFXCACHE_TEST_ABORT_JOB";

/// How often a parent looks at its worker (ended? asked to stop?).
const POLL: Duration = Duration::from_millis(20);

/// The last lines of a worker's stderr kept for a failure's reason when it
/// printed no `error:` line (an abort's `memory allocation failed`).
const TAIL_LINES: usize = 4;

/// The worker command set by [`set_command`], if any.
static COMMAND: Mutex<Option<Vec<OsString>>> = Mutex::new(None);

/// Sets the command a worker runs as: a program and the words before the
/// worker's own (`render DIR` or `job STORE`). The Python package sets
/// `python gfxcache/_worker.py NATIVE`, its interpreter being no `gfxcache`.
pub fn set_command(words: Vec<OsString>) {
    *COMMAND.lock().unwrap_or_else(|e| e.into_inner()) = Some(words);
}

/// The worker command: the one set, else this executable's `sweep-worker`.
fn command() -> Result<Vec<OsString>, String> {
    if let Some(words) = COMMAND
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone()
        .filter(|w| !w.is_empty())
    {
        return Ok(words);
    }
    let exe = std::env::current_exe()
        .map_err(|e| format!("cannot find this program to start a worker: {e}"))?;
    Ok(vec![exe.into(), SUBCOMMAND.into()])
}

/// Renders `frame` into the staged directory `dir`, in a worker.
pub fn render(frame: &FramePoint, dir: &Path) -> Result<(), String> {
    run_worker(&["render".into(), dir.into()], frame)
}

/// Runs `job` on its frame in `store` and keeps its result there, in a
/// worker.
pub fn job(store: &Store, job: &Job) -> Result<(), String> {
    run_worker(&["job".into(), store.root().into()], job)
}

/// Starts the worker with `args`, `what` as JSON on its stdin, and waits
/// for it: `Ok` if it exited with success, else why not.
fn run_worker(args: &[OsString], what: &impl Serialize) -> Result<(), String> {
    let words = command()?;
    let input = serde_json::to_vec(what).map_err(|e| format!("cannot describe the work: {e}"))?;
    let mut cmd = std::process::Command::new(&words[0]);
    cmd.args(&words[1..])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    end_with_parent(&mut cmd);
    let mut child = cmd.spawn().map_err(|e| {
        format!(
            "cannot start a worker ({}): {e}",
            Path::new(&words[0]).display()
        )
    })?;
    // A worker that died before reading it all closes the pipe: its exit
    // status says why, so a failed write is not the reason.
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(&input);
    }
    let stderr = child.stderr.take().expect("stderr is piped");
    let said = std::thread::scope(|scope| {
        let reader = scope.spawn(move || Said::read(stderr));
        let status = wait(&mut child);
        (status, reader.join())
    });
    match said {
        (Ok(status), Ok(_)) if status.success() => Ok(()),
        (Ok(status), Ok(said)) => Err(said.reason(status)),
        (Ok(status), Err(_)) => Err(describe(status)),
        (Err(e), _) => Err(format!("cannot wait for a worker: {e}")),
    }
}

/// Waits for `child`; once the sweep is asked to stop, tells it to stop
/// too (SIGTERM: it removes its unfinished outputs) and waits for that.
fn wait(child: &mut Child) -> std::io::Result<ExitStatus> {
    let mut told = false;
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(status);
        }
        if stop_requested() && !told {
            terminate(child);
            told = true;
        }
        std::thread::sleep(POLL);
    }
}

#[cfg(unix)]
fn terminate(child: &Child) {
    if let Ok(pid) = libc::pid_t::try_from(child.id()) {
        // SAFETY: kill(2) on our own child's pid, which stays reserved
        // until we reap it.
        unsafe {
            libc::kill(pid, libc::SIGTERM);
        }
    }
}

#[cfg(not(unix))]
fn terminate(child: &mut Child) {
    let _ = child.kill();
}

/// A worker gets SIGTERM when the thread that started it ends (its parent
/// killed, however).
#[cfg(target_os = "linux")]
fn end_with_parent(cmd: &mut std::process::Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: prctl is async-signal-safe; the closure allocates nothing.
    unsafe {
        cmd.pre_exec(|| {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM) == -1 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

#[cfg(not(target_os = "linux"))]
fn end_with_parent(_cmd: &mut std::process::Command) {}

/// What a worker said on stderr: its `error:` line, if any, and its last
/// lines. Every other line is passed on to ours as it comes.
#[derive(Default)]
struct Said {
    error: Option<String>,
    tail: std::collections::VecDeque<String>,
}

impl Said {
    fn read(stderr: impl Read) -> Said {
        let mut said = Said::default();
        for line in BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            if let Some(e) = line.strip_prefix("error: ") {
                said.error = Some(e.to_string());
                continue;
            }
            eprintln!("{line}");
            if said.tail.len() == TAIL_LINES {
                said.tail.pop_front();
            }
            said.tail.push_back(line);
        }
        said
    }

    /// Why the worker failed: its error, or how it ended and what it said
    /// last.
    fn reason(self, status: ExitStatus) -> String {
        if let Some(e) = self.error {
            return e;
        }
        let how = describe(status);
        let last: Vec<String> = self.tail.into_iter().filter(|l| !l.is_empty()).collect();
        if last.is_empty() {
            how
        } else {
            format!("{how}; its last words: {}", last.join(" / "))
        }
    }
}

/// How a worker ended, in words.
fn describe(status: ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            let what = match signal {
                libc::SIGABRT => "aborted (SIGABRT)",
                libc::SIGKILL => "killed (SIGKILL: out of memory, or by a user)",
                libc::SIGSEGV => "crashed (SIGSEGV)",
                libc::SIGBUS => "crashed (SIGBUS)",
                libc::SIGTERM => "terminated (SIGTERM)",
                libc::SIGINT => "interrupted (SIGINT)",
                _ => return format!("its worker ended on signal {signal}"),
            };
            return format!("its worker was {what}");
        }
    }
    match status.code() {
        Some(code) => format!("its worker exited with status {code}"),
        None => "its worker ended without a status".to_string(),
    }
}

/// The worker side: what the hidden `sweep-worker` subcommand runs.
#[derive(clap::Args)]
pub struct WorkerArgs {
    #[command(subcommand)]
    work: Work,
}

#[derive(clap::Subcommand)]
enum Work {
    /// Render the frame point on stdin (JSON) into DIR.
    Render { dir: PathBuf },
    /// Run the job on stdin (JSON) and keep its result in the store STORE.
    Job { store: PathBuf },
}

/// Does the work of `args`, with what the parent wrote on stdin.
pub fn serve(args: WorkerArgs) -> Result<()> {
    // Workers run side by side: no bars drawn over each other.
    crate::progress::hide_bars(true);
    let mut input = Vec::new();
    std::io::stdin()
        .read_to_end(&mut input)
        .context("cannot read the work from stdin")?;
    match args.work {
        Work::Render { dir } => {
            let frame: FramePoint =
                serde_json::from_slice(&input).context("the frame point on stdin")?;
            super::render_frame(&frame, &dir)
        }
        Work::Job { store } => {
            let job: Job = serde_json::from_slice(&input).context("the job on stdin")?;
            if let Some(marker) = std::env::var_os(TEST_ABORT_JOB) {
                if job.slug().contains(&*marker.to_string_lossy()) {
                    std::process::abort();
                }
            }
            let store = Store::open(&store)
                .with_context(|| format!("cannot open the sweep directory {}", store.display()))?;
            gfxcache_sweep::run_one(&store, &job, |j, f, d| {
                super::run_job(j, f, d).map_err(|e| format!("{e:#}"))
            })
            .map_err(anyhow::Error::msg)
        }
    }
}
