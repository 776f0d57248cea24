//! How far a long computation has come, told to whoever runs it.
//!
//! Studies and passes over traces take seconds to minutes; the library
//! code doing the work reports [`Progress`] through a callback and never
//! draws anything itself, so the command line can show bars on a
//! terminal, a notebook can show its own, and a test can ignore it.

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
