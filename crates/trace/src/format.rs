//! What every format module implements and every consumer sees: the
//! [`Format`]s, the [`TraceRead`] and [`TraceWrite`] interfaces and the batch
//! size. It names no format module; `dispatch.rs` picks one by file name.

use std::path::Path;

use crate::batch::Batch;
use crate::error::TraceError;
use crate::footprint::Footprint;
use crate::meta::{Totals, TraceMeta};
use crate::record::{Access, Marker, Stream};

/// How many records a reader puts in one batch (at most).
pub const BATCH_RECORDS: usize = 1 << 16;

/// The on-disk formats, chosen by extension (`.gtr`, `.csv`, `.din`,
/// `.oracleGeneral` or `.oracleGeneral.bin`, each optionally followed by
/// `.zst`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Gtr,
    Csv,
    Din,
    /// libCacheSim's binary `oracleGeneral` (`oracle.rs`).
    OracleGeneral,
}

impl Format {
    /// The format and whether the file is zstd-compressed, from its name.
    pub fn from_path(path: &Path) -> Result<(Format, bool), TraceError> {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().to_ascii_lowercase())
            .unwrap_or_default();
        let (stem, zstd) = match name.strip_suffix(".zst") {
            Some(stem) => (stem, true),
            None => (name.as_str(), false),
        };
        let format = if stem.ends_with(".gtr") {
            Format::Gtr
        } else if stem.ends_with(".csv") {
            Format::Csv
        } else if stem.ends_with(".din") {
            Format::Din
        } else if stem.ends_with(".oraclegeneral") || stem.ends_with(".oraclegeneral.bin") {
            Format::OracleGeneral
        } else {
            return Err(TraceError::unsupported(
                path,
                "unknown trace format: expected a name ending in .gtr, .csv, .din, \
                 .oracleGeneral or .oracleGeneral.bin, optionally followed by .zst",
            ));
        };
        Ok((format, zstd))
    }

    /// The extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Gtr => "gtr",
            Format::Csv => "csv",
            Format::Din => "din",
            Format::OracleGeneral => "oracleGeneral",
        }
    }

    /// Whether the format holds markers; the text formats drop them.
    pub fn holds_markers(self) -> bool {
        self == Format::Gtr
    }

    /// Whether the format holds the header ([`TraceMeta`]: scene,
    /// resolution, ...); the text formats drop it.
    pub fn holds_meta(self) -> bool {
        self == Format::Gtr
    }
}

/// What a writer was given that its format cannot hold, and so left out or
/// wrote as something else; callers should warn when it is not
/// [`Dropped::is_empty`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Dropped {
    /// Markers (`.csv`, `.din`): left out.
    pub markers: u64,
    /// Accesses whose stream the format cannot name, by [`Stream::index`]
    /// (`.din`: every stream but `other`, and `shader` but for reads, which
    /// are instruction fetches): they read back as `other`.
    pub streams: [u64; Stream::COUNT],
    /// Accesses with a unit other than 0 (`.din`, `oracleGeneral`): they
    /// read back as unit 0.
    pub units: u64,
    /// Writes (`oracleGeneral`): they read back as reads.
    pub writes: u64,
    /// Accesses that are not one aligned 64-byte block (`oracleGeneral`):
    /// written as one record per block they touch, they read back as
    /// 64-byte reads of those blocks.
    pub sizes: u64,
}

impl Dropped {
    pub fn is_empty(&self) -> bool {
        *self == Dropped::default()
    }

    /// Accesses that lost their stream, of every stream.
    pub fn stream_total(&self) -> u64 {
        self.streams.iter().sum()
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

    /// The footprint estimate the file announces before it is read (the
    /// `.gtr` footer, from format version 4 on), if any: a hint for sizing
    /// tables, never checked against the records.
    fn announced_footprint(&self) -> Option<Footprint> {
        None
    }

    /// `(bytes read so far, file length)`, for progress bars.
    fn progress(&self) -> (u64, u64);
}

/// A streaming trace writer. Output goes to a temporary file of its own
/// beside the target ([`crate::atomic::AtomicFile`]) that
/// [`TraceWrite::finish`] syncs and renames into place, so a failed or
/// interrupted run never leaves a partial file under the requested name,
/// and two writers of one name leave one whole trace.
pub trait TraceWrite {
    fn write_access(&mut self, access: &Access) -> Result<(), TraceError>;
    fn write_marker(&mut self, marker: &Marker) -> Result<(), TraceError>;
    fn write_batch(&mut self, batch: &Batch) -> Result<(), TraceError>;
    /// Markers received so far that the format cannot hold and so did not
    /// write (`.csv`, `.din`); callers should warn when this is not 0.
    fn skipped_markers(&self) -> u64 {
        0
    }
    /// Everything received so far that the format cannot hold: markers,
    /// and for `.din` streams and units.
    fn dropped(&self) -> Dropped {
        Dropped {
            markers: self.skipped_markers(),
            ..Dropped::default()
        }
    }
    /// Flushes, writes any footer, renames into place; returns the totals written.
    fn finish(self: Box<Self>) -> Result<Totals, TraceError>;
}
