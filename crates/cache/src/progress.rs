//! How far a long computation has come, told to whoever runs it.
//!
//! Studies and passes over traces take seconds to minutes; the library
//! code doing the work reports [`Progress`] through a callback and never
//! draws anything itself, so the command line can show bars on a
//! terminal, a notebook can show its own, and a test can ignore it.
//!
//! Whoever runs a computation may also ask it to stop early
//! ([`request_stop`]): a Python caller on Ctrl-C, for instance. The passes
//! over traces ([`crate::run::for_each_batch`]) and the sweep executor
//! check [`stop_requested`] after each batch or job, and the renderer
//! (`gfxcache-render`) at every draw and every round of its back end, and
//! they end with an error of kind [`std::io::ErrorKind::Interrupted`]
//! ([`interrupted`]).

use std::sync::atomic::{AtomicBool, Ordering};

/// What [`Progress::done`] and [`Progress::total`] count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProgressUnit {
    /// Bytes of a file read so far, of its length.
    Bytes,
    /// Pieces of work finished (frames, sweep points, runs).
    Items,
}

/// One report: `done` of `total` in the phase named `phase`. A phase's
/// reports arrive with `done` never decreasing; a new phase starts when
/// the name changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// A short name people read, e.g. `next uses`, `simulating`.
    pub phase: &'static str,
    pub done: u64,
    pub total: u64,
    pub unit: ProgressUnit,
}

impl Progress {
    pub fn bytes(phase: &'static str, done: u64, total: u64) -> Progress {
        Progress {
            phase,
            done,
            total,
            unit: ProgressUnit::Bytes,
        }
    }

    pub fn items(phase: &'static str, done: u64, total: u64) -> Progress {
        Progress {
            phase,
            done,
            total,
            unit: ProgressUnit::Items,
        }
    }
}

/// The callback a long computation reports to. `Sync`, because parallel
/// work reports from several threads.
pub type ProgressFn<'a> = &'a (dyn Fn(Progress) + Sync);

/// A callback that ignores every report.
pub fn quiet(_: Progress) {}

/// Set while the computations of this process are asked to stop.
static STOP: AtomicBool = AtomicBool::new(false);

/// Asks every computation running in this process to stop at its next
/// check (`true`), or lets computations run again (`false`, once the
/// stopped ones have returned).
pub fn request_stop(stop: bool) {
    STOP.store(stop, Ordering::SeqCst);
}

/// Whether [`request_stop`] asked the computations to stop.
pub fn stop_requested() -> bool {
    STOP.load(Ordering::Relaxed)
}

/// The error a computation stopped by [`request_stop`] ends with.
pub fn interrupted() -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::Interrupted,
        "interrupted: asked to stop",
    )
}
