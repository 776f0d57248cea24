//! Opening and creating traces by file name, whatever the format.

use std::path::Path;

use crate::batch::Batch;
use crate::error::TraceError;
use crate::meta::{Totals, TraceMeta};
use crate::record::{Access, Marker};

/// How many records a reader puts in one batch (at most).
pub const BATCH_RECORDS: usize = 1 << 16;

/// The on-disk formats, chosen by extension (`.gtr`, `.csv`, `.din`, each
/// optionally followed by `.zst`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Gtr,
    Csv,
    Din,
}

impl Format {
    /// The format and whether the file is zstd-compressed, from its name.
    pub fn from_path(path: &Path) -> Result<(Format, bool), TraceError> {
        todo!("{path:?}")
    }
}

/// A streaming trace reader.
pub trait TraceRead: Send {
    fn meta(&self) -> &TraceMeta;

    /// Clears `batch` and fills it with the next records (at most about
    /// [`BATCH_RECORDS`]). Returns `Ok(false)` once the trace is exhausted,
    /// and only after checking that it ended where the format says it ends.
    fn read_batch(&mut self, batch: &mut Batch) -> Result<bool, TraceError>;

    /// Totals the file announces before it is read (the `.gtr` footer), if any.
    fn announced_totals(&self) -> Option<&Totals>;

    /// `(bytes read so far, file length)`, for progress bars.
    fn progress(&self) -> (u64, u64);
}

/// A streaming trace writer. Output goes to a temporary file beside the
/// target that [`TraceWrite::finish`] renames into place, so a failed run
/// never leaves a partial file under the requested name.
pub trait TraceWrite {
    fn write_access(&mut self, access: &Access) -> Result<(), TraceError>;
    fn write_marker(&mut self, marker: &Marker) -> Result<(), TraceError>;
    fn write_batch(&mut self, batch: &Batch) -> Result<(), TraceError>;
    /// Flushes, writes any footer, renames into place; returns the totals written.
    fn finish(self: Box<Self>) -> Result<Totals, TraceError>;
}

/// Opens a trace for reading; the format comes from the extension.
pub fn open(path: &Path) -> Result<Box<dyn TraceRead>, TraceError> {
    todo!("{path:?}")
}

/// Creates a trace for writing; the format comes from the extension.
pub fn create(path: &Path, meta: &TraceMeta) -> Result<Box<dyn TraceWrite>, TraceError> {
    todo!("{path:?} {meta:?}")
}
