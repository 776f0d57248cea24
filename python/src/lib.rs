//! `gfxcache._native`: the Python package's native module. It runs the
//! very code the `gfxcache` command line runs (`gfxcache_cli`), in
//! process, and hands back JSON text, raw little-endian arrays and paths;
//! the Python side (`gfxcache/__init__.py`) makes NumPy arrays and pandas
//! DataFrames of them. Long work releases the GIL and runs on a thread of
//! its own while the caller's thread checks for signals ([`interruptible`]):
//! Ctrl-C stops the work and raises `KeyboardInterrupt` within a second.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::time::Duration;

use clap::error::ErrorKind;
use clap::Parser;
use gfxcache_cache::progress::request_stop;
use gfxcache_cli::{Cli, Command};
use gfxcache_sweep::{Experiment, RunSummary, Store};
use gfxcache_trace::{Access, Batch, Op, Stream, TraceMeta};
use pyo3::exceptions::{PyFileNotFoundError, PyPermissionError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// An error of the work as Python's own kind where there is one: a file
/// that is not there is a `FileNotFoundError`, one that may not be read a
/// `PermissionError` (each with `errno` set and the whole message, which
/// names the file); anything else a `RuntimeError`.
fn runtime(e: anyhow::Error) -> PyErr {
    io_error(&e).unwrap_or_else(|| PyRuntimeError::new_err(format!("{e:#}")))
}

/// An error of a command's checks of its arguments ([`Command::check`],
/// before any work): a `ValueError`, or an I/O error's own kind as
/// [`runtime`] gives it.
fn invalid(e: anyhow::Error) -> PyErr {
    io_error(&e).unwrap_or_else(|| PyValueError::new_err(format!("{e:#}")))
}

/// `FileNotFoundError` or `PermissionError` for an error caused by a
/// missing or unreadable file.
fn io_error(e: &anyhow::Error) -> Option<PyErr> {
    let text = format!("{e:#}");
    let io = e.chain().find_map(|c| c.downcast_ref::<std::io::Error>())?;
    match io.kind() {
        std::io::ErrorKind::NotFound => Some(PyFileNotFoundError::new_err((
            io.raw_os_error().unwrap_or(libc_errno::ENOENT),
            text,
        ))),
        std::io::ErrorKind::PermissionDenied => Some(PyPermissionError::new_err((
            io.raw_os_error().unwrap_or(libc_errno::EACCES),
            text,
        ))),
        _ => None,
    }
}

/// The two errno values a wrapped I/O error may lack (Linux's numbers).
mod libc_errno {
    pub const ENOENT: i32 = 2;
    pub const EACCES: i32 = 13;
}

/// How often a waiting caller checks for signals (Ctrl-C).
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// The stack of the thread the work runs on: as large as a main thread's
/// could be (a deep scene hierarchy recurses), reserved, not used.
const WORK_STACK: usize = 64 << 20;

/// Runs `work` without the GIL, on a thread of its own, while the caller's
/// thread waits and checks for signals every [`SIGNAL_POLL`]. On a signal
/// whose handler raises (Ctrl-C's `KeyboardInterrupt`), the work is asked
/// to stop ([`request_stop`]: the passes over traces check it after each
/// batch, the renderer at every draw and round of its back end, a sweep
/// before each frame and job), its end awaited, and the
/// handler's exception raised; whatever the work returned is dropped.
/// Outputs still being written when it stops are removed as they are on
/// any error (written whole or not at all).
///
/// Signals are handled on Python's main thread only, so work called from
/// another thread runs to its end. The stop applies to every call running
/// in the process (Ctrl-C means all of them), until the stopped one ends.
fn interruptible<T, F>(py: Python<'_>, work: F) -> PyResult<T>
where
    F: FnOnce() -> T + Send,
    T: Send,
{
    std::thread::scope(|scope| {
        let (done_tx, done_rx) = channel::<()>();
        let handle = std::thread::Builder::new()
            .name("gfxcache".into())
            .stack_size(WORK_STACK)
            .spawn_scoped(scope, move || {
                let out = work();
                let _ = done_tx.send(());
                out
            })
            .map_err(|e| PyRuntimeError::new_err(format!("cannot start a thread: {e}")))?;
        let joined = py.detach(move || loop {
            match done_rx.recv_timeout(SIGNAL_POLL) {
                // Finished, or panicked (the sender dropped unsent).
                Ok(()) | Err(RecvTimeoutError::Disconnected) => return Ok(handle.join()),
                Err(RecvTimeoutError::Timeout) => {}
            }
            if let Err(e) = Python::attach(|py| py.check_signals()) {
                request_stop(true);
                let _ = handle.join();
                request_stop(false);
                return Err(e);
            }
        })?;
        joined.map_err(|panic| std::panic::resume_unwind(panic))
    })
}

/// The command `argv` names (without the program's name), parsed as the
/// command line parses it; a usage error is a `ValueError` with clap's text.
fn parse(argv: Vec<String>) -> PyResult<Command> {
    let words = std::iter::once("gfxcache".to_string()).chain(argv);
    let command = Cli::try_parse_from(words)
        .map(|c| c.command)
        .map_err(usage)?;
    warn_deprecated(&command);
    Ok(command)
}

/// The warnings of the deprecated flags `command` was given (`fps=`), on
/// stderr as the command line prints them.
fn warn_deprecated(command: &Command) {
    for warning in command.deprecations() {
        eprintln!("warning: {warning}");
    }
}

/// A usage error as a `ValueError` with clap's text.
fn usage(e: clap::Error) -> PyErr {
    PyValueError::new_err(e.render().to_string().trim_end().to_string())
}

/// Runs a command line as `gfxcache` would: results on stdout, progress
/// on stderr; `--version` and `--help` print what they print there.
#[pyfunction]
fn run(py: Python<'_>, argv: Vec<String>) -> PyResult<()> {
    let words = std::iter::once("gfxcache".to_string()).chain(argv);
    let command = match Cli::try_parse_from(words) {
        Ok(cli) => cli.command,
        Err(e) if matches!(e.kind(), ErrorKind::DisplayVersion | ErrorKind::DisplayHelp) => {
            e.print()
                .map_err(|e| PyRuntimeError::new_err(format!("cannot print: {e}")))?;
            return Ok(());
        }
        Err(e) => return Err(usage(e)),
    };
    warn_deprecated(&command);
    interruptible(py, || command.run())?.map_err(runtime)
}

/// Runs a command that has a result (sim, mrc, render, a study, sweep)
/// and gives what its `--json` prints, as JSON text, printing nothing.
/// Its arguments are checked first as the command checks them, so that a
/// bad value is a `ValueError` before any work.
#[pyfunction]
fn output(py: Python<'_>, argv: Vec<String>) -> PyResult<String> {
    let command = parse(argv)?;
    if command.has_check() {
        command.check().map_err(invalid)?;
    }
    let value = interruptible(py, || command.output())?.map_err(runtime)?;
    Ok(value.to_string())
}

/// A command's flags (`gfxcache NAME --help`), as JSON: each with its
/// keyword (`fetcher_mshrs` for `--fetcher-mshrs`), its help text, its
/// default and possible values, whether it takes a value and whether the
/// help hides it (a deprecated name, still taken). The Python
/// side checks keyword arguments against it and writes it into the
/// functions' docstrings.
#[pyfunction]
fn command_flags(name: &str) -> PyResult<String> {
    use clap::CommandFactory;
    let cli = Cli::command();
    let sub = cli
        .find_subcommand(name)
        .ok_or_else(|| PyValueError::new_err(format!("no command {name:?}")))?;
    let flags: Vec<serde_json::Value> = sub
        .get_arguments()
        .filter_map(|a| {
            let long = a.get_long()?;
            if long == "help" || long == "version" {
                return None;
            }
            let text = |s: Option<&clap::builder::StyledStr>| s.map(|s| s.to_string());
            Some(serde_json::json!({
                "keyword": long.replace('-', "_"),
                "flag": format!("--{long}"),
                "help": text(a.get_help()),
                "long_help": text(a.get_long_help()),
                "default": a
                    .get_default_values()
                    .iter()
                    .map(|v| v.to_string_lossy().into_owned())
                    .collect::<Vec<_>>(),
                "values": a
                    .get_possible_values()
                    .iter()
                    .filter(|v| !v.is_hide_set())
                    .map(|v| v.get_name().to_string())
                    .collect::<Vec<_>>(),
                "takes_value": a.get_action().takes_values(),
                // Not in the help: a deprecated name (`fps`), still taken.
                "hidden": a.is_hide_set(),
            }))
        })
        .collect();
    Ok(serde_json::Value::Array(flags).to_string())
}

/// The built-in scenes' names (`gfxcache scenes`).
#[pyfunction]
fn builtin_scenes() -> Vec<&'static str> {
    gfxcache_render::scene::builtin::BUILTINS
        .iter()
        .map(|b| b.name)
        .collect()
}

/// The streams' names, by their ids.
#[pyfunction]
fn stream_names() -> Vec<&'static str> {
    Stream::ALL.iter().map(|s| s.name()).collect()
}

/// A trace's accesses as little-endian arrays (`addr` u64, `size` u32,
/// `unit` u16, `stream` u8, `op` u8) and its header as JSON.
#[pyfunction]
fn read_trace<'py>(py: Python<'py>, path: PathBuf) -> PyResult<(Vec<Bound<'py, PyBytes>>, String)> {
    let (cols, meta) = interruptible(py, || -> anyhow::Result<_> {
        let mut reader = gfxcache_trace::open(&path)?;
        let meta = serde_json::to_string(reader.meta())?;
        let mut cols: [Vec<u8>; 5] = Default::default();
        let mut batch = Batch::default();
        while reader.read_batch(&mut batch)? {
            for a in &batch.accesses {
                cols[0].extend_from_slice(&a.addr.to_le_bytes());
                cols[1].extend_from_slice(&a.size.to_le_bytes());
                cols[2].extend_from_slice(&a.unit.to_le_bytes());
                cols[3].push(a.stream.id());
                cols[4].push(u8::from(a.op.is_write()));
            }
        }
        Ok((cols, meta))
    })?
    .map_err(runtime)?;
    let arrays = cols.iter().map(|c| PyBytes::new(py, c)).collect();
    Ok((arrays, meta))
}

/// Writes a trace (format by extension) from little-endian arrays of one
/// length: `addr` u64, `size` u32, `unit` u16, `stream` u8 (ids), `op` u8
/// (0 read, 1 write). Written whole or not at all.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn write_trace(
    py: Python<'_>,
    path: PathBuf,
    addr: &[u8],
    size: &[u8],
    unit: &[u8],
    stream: &[u8],
    op: &[u8],
    generator: String,
) -> PyResult<u64> {
    let n = addr.len() / 8;
    if addr.len() != n * 8
        || size.len() != n * 4
        || unit.len() != n * 2
        || stream.len() != n
        || op.len() != n
    {
        return Err(PyValueError::new_err(
            "addr, size, unit, stream and op must have one length",
        ));
    }
    if let Some(i) = stream.iter().position(|&s| Stream::from_id(s).is_none()) {
        return Err(PyValueError::new_err(format!(
            "stream id {} at index {i} names no stream (0 to {})",
            stream[i],
            Stream::ALL.len() - 1
        )));
    }
    if let Some(i) = op.iter().position(|&o| o > 1) {
        return Err(PyValueError::new_err(format!(
            "op {} at index {i}: expected 0 (read) or 1 (write)",
            op[i]
        )));
    }
    interruptible(py, || -> anyhow::Result<u64> {
        let meta = TraceMeta {
            generator,
            ..TraceMeta::default()
        };
        let mut w = gfxcache_trace::create(&path, &meta)?;
        fn le<const W: usize>(b: &[u8], i: usize) -> [u8; W] {
            b[i * W..(i + 1) * W].try_into().expect("checked lengths")
        }
        for i in 0..n {
            w.write_access(&Access {
                addr: u64::from_le_bytes(le(addr, i)),
                size: u32::from_le_bytes(le(size, i)),
                unit: u16::from_le_bytes(le(unit, i)),
                stream: Stream::from_id(stream[i]).expect("checked"),
                op: if op[i] == 1 { Op::Write } else { Op::Read },
            })?;
        }
        Ok(w.finish()?.accesses)
    })?
    .map_err(runtime)
}

/// A PNG's pixels: `(width, height, RGBA bytes)`.
#[pyfunction]
fn read_png<'py>(py: Python<'py>, path: PathBuf) -> PyResult<(u32, u32, Bound<'py, PyBytes>)> {
    let img = image::open(&path)
        .map_err(|e| runtime(anyhow::Error::new(e).context(path.display().to_string())))?
        .into_rgba8();
    let (w, h) = img.dimensions();
    Ok((w, h, PyBytes::new(py, img.as_raw())))
}

/// A sweep's frames and jobs for a scheduler of its own (Ray): JSON with
/// each frame's and job's index, name, directory and whether it is done.
#[pyfunction]
fn sweep_plan(exp: PathBuf, out: PathBuf) -> PyResult<String> {
    let (exp, store) = open_sweep(&exp, &out, true)?;
    let jobs = exp.jobs();
    let frames: Vec<serde_json::Value> = exp
        .frames
        .iter()
        .enumerate()
        .map(|(i, f)| {
            serde_json::json!({
                "index": i,
                "dir": store.frame_dir(f),
                "done": store.frame_dir(f).is_dir(),
            })
        })
        .collect();
    let frame_index: std::collections::HashMap<&gfxcache_sweep::FramePoint, usize> =
        exp.frames.iter().enumerate().map(|(i, f)| (f, i)).collect();
    let jobs: Vec<serde_json::Value> = jobs
        .iter()
        .enumerate()
        .map(|(i, j)| {
            serde_json::json!({
                "index": i,
                "job": j.slug(),
                "frame": frame_index.get(&j.frame),
                "done": store.done(j),
            })
        })
        .collect();
    Ok(serde_json::json!({ "name": exp.name, "frames": frames, "jobs": jobs }).to_string())
}

/// The sweep file at `exp`, no larger than `gfxcache sweep`'s default
/// `--max-jobs`, and its store. With `check_jobs` (the plan, once per
/// sweep) every job's command line is checked before anything runs
/// (`gfxcache_cli::sweep::check`); a task of one frame or job leaves that
/// to its own command, so that a sweep of n jobs is checked once, not n
/// times.
fn open_sweep(exp: &Path, out: &Path, check_jobs: bool) -> PyResult<(Experiment, Store)> {
    let exp = Experiment::read(exp).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let refused = |e: anyhow::Error| PyValueError::new_err(format!("{e:#}"));
    gfxcache_cli::sweep::check_size(&exp, gfxcache_cli::sweep::DEFAULT_MAX_JOBS)
        .map_err(refused)?;
    if check_jobs {
        gfxcache_cli::sweep::check(&exp).map_err(refused)?;
    }
    let store =
        Store::open(out).map_err(|e| PyRuntimeError::new_err(format!("{}: {e}", out.display())))?;
    Ok((exp, store))
}

/// Renders frame `index` of the sweep into its store unless it is there;
/// true if it rendered.
#[pyfunction]
fn sweep_render(py: Python<'_>, exp: PathBuf, out: PathBuf, index: usize) -> PyResult<bool> {
    let (exp, store) = open_sweep(&exp, &out, false)?;
    let frame = exp
        .frames
        .get(index)
        .ok_or_else(|| PyValueError::new_err(format!("no frame {index}")))?;
    interruptible(py, || {
        gfxcache_sweep::ensure_frame(&store, frame, &|f, d| {
            gfxcache_cli::sweep::render_frame(f, d).map_err(|e| format!("{e:#}"))
        })
    })?
    .map_err(PyRuntimeError::new_err)
}

/// Runs job `index` of the sweep on its frame (rendered first) and keeps
/// its result in the store.
#[pyfunction]
fn sweep_job(py: Python<'_>, exp: PathBuf, out: PathBuf, index: usize) -> PyResult<()> {
    let (exp, store) = open_sweep(&exp, &out, false)?;
    let jobs = exp.jobs();
    let job = jobs
        .get(index)
        .ok_or_else(|| PyValueError::new_err(format!("no job {index}")))?;
    interruptible(py, || {
        gfxcache_sweep::run_one(&store, job, |j, f, d| {
            gfxcache_cli::sweep::run_job(j, f, d).map_err(|e| format!("{e:#}"))
        })
    })?
    .map_err(|e| PyRuntimeError::new_err(format!("{}: {e}", job.slug())))
}

/// The sweep's tables and page from its store, after a run `summary`
/// (JSON, as `gfxcache sweep --json` gives); what `--json` prints.
#[pyfunction]
fn sweep_finish(py: Python<'_>, exp: PathBuf, out: PathBuf, summary: String) -> PyResult<String> {
    let (exp, store) = open_sweep(&exp, &out, false)?;
    let summary: RunSummary =
        serde_json::from_str(&summary).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let value = interruptible(py, || {
        gfxcache_cli::sweep::finish(&out, &exp, &store, &summary)
    })?
    .map_err(runtime)?;
    Ok(value.to_string())
}

/// A sweep directory's lock, held by a Python driver (Ray's) for its run:
/// another sweep on the directory waits until [`SweepLock::release`] (or
/// this process's end).
#[pyclass]
struct SweepLock(Option<gfxcache_sweep::StoreLock>);

#[pymethods]
impl SweepLock {
    /// Lets another sweep have the directory.
    fn release(&mut self) {
        self.0 = None;
    }
}

/// Takes the lock of the sweep directory `out` for the sweep of `exp`
/// (waiting, with a word on stderr, while another sweep holds it; Ctrl-C
/// stops the wait) and removes what killed runs left in it.
#[pyfunction]
fn sweep_lock(py: Python<'_>, exp: PathBuf, out: PathBuf) -> PyResult<SweepLock> {
    let store = Store::open(&out)
        .map_err(|e| PyRuntimeError::new_err(format!("{}: {e}", out.display())))?;
    let held = interruptible(py, || -> std::io::Result<gfxcache_sweep::StoreLock> {
        let held = store.lock(
            &format!("gfxcache.sweep {} (ray)", exp.display()),
            |owner| {
                let who = owner.map_or("another sweep".to_string(), |o| o.to_string());
                eprintln!("sweep: {} is in use by {who}; waiting for it to end", out.display());
            },
        )?;
        let removed = store.remove_leftovers()?;
        if removed > 0 {
            eprintln!("sweep: removed {removed} unfinished files and directories left by an interrupted run");
        }
        Ok(held)
    })?
    .map_err(|e| PyRuntimeError::new_err(format!("cannot lock the sweep directory {}: {e}", out.display())))?;
    Ok(SweepLock(Some(held)))
}

/// Sets the command a local sweep's worker processes run as: `python`
/// with the package's worker `script` (`gfxcache/_worker.py`), which loads
/// this module from its file (`native`) alone. The package calls it on
/// import; a sweep started before that would run `python` itself.
#[pyfunction]
fn set_worker_command(python: PathBuf, script: PathBuf, native: PathBuf) {
    gfxcache_cli::sweep::worker::set_command(vec![python.into(), script.into(), native.into()]);
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(output, m)?)?;
    m.add_function(wrap_pyfunction!(stream_names, m)?)?;
    m.add_function(wrap_pyfunction!(command_flags, m)?)?;
    m.add_function(wrap_pyfunction!(builtin_scenes, m)?)?;
    m.add_function(wrap_pyfunction!(read_trace, m)?)?;
    m.add_function(wrap_pyfunction!(write_trace, m)?)?;
    m.add_function(wrap_pyfunction!(read_png, m)?)?;
    m.add_function(wrap_pyfunction!(sweep_plan, m)?)?;
    m.add_function(wrap_pyfunction!(sweep_render, m)?)?;
    m.add_function(wrap_pyfunction!(sweep_job, m)?)?;
    m.add_function(wrap_pyfunction!(sweep_finish, m)?)?;
    m.add_function(wrap_pyfunction!(sweep_lock, m)?)?;
    m.add_function(wrap_pyfunction!(set_worker_command, m)?)?;
    m.add_class::<SweepLock>()?;
    Ok(())
}
