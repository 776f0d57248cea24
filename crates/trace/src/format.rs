//! Opening and creating traces by file name, whatever the format.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use crate::batch::Batch;
use crate::csv::{CsvReader, CsvWriter};
use crate::din::{DinReader, DinWriter};
use crate::error::TraceError;
use crate::footprint::Footprint;
use crate::gtr::{GtrReader, GtrWriter};
use crate::io::{read_error, Counted, FileSink, Unzstd};
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
        } else {
            return Err(TraceError::unsupported(
                path,
                "unknown trace format: expected a name ending in .gtr, .csv or .din, \
                 optionally followed by .zst",
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
        }
    }

    /// Whether the format holds markers; the text formats drop them.
    pub fn holds_markers(self) -> bool {
        self == Format::Gtr
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

/// A streaming trace writer. Output goes to a temporary file beside the
/// target that [`TraceWrite::finish`] renames into place, so a failed run
/// never leaves a partial file under the requested name.
pub trait TraceWrite {
    fn write_access(&mut self, access: &Access) -> Result<(), TraceError>;
    fn write_marker(&mut self, marker: &Marker) -> Result<(), TraceError>;
    fn write_batch(&mut self, batch: &Batch) -> Result<(), TraceError>;
    /// Markers received so far that the format cannot hold and so did not
    /// write (`.csv`, `.din`); callers should warn when this is not 0.
    fn skipped_markers(&self) -> u64 {
        0
    }
    /// Flushes, writes any footer, renames into place; returns the totals written.
    fn finish(self: Box<Self>) -> Result<Totals, TraceError>;
}

/// Opens a trace for reading; the format comes from the extension.
pub fn open(path: &Path) -> Result<Box<dyn TraceRead>, TraceError> {
    let (format, zstd) = Format::from_path(path)?;
    let file = File::open(path).map_err(|e| TraceError::io(path, e))?;
    read_from(file, path, format, zstd)
}

/// Opens a trace over any seekable source, e.g. a `Cursor` over bytes in
/// memory; the whole source, from its first byte, is the trace. `name` only
/// names the source in errors. A plain `.gtr` source has its footer read
/// first; everything else streams.
pub fn read_from<R: Read + Seek + Send + 'static>(
    mut source: R,
    name: &Path,
    format: Format,
    zstd: bool,
) -> Result<Box<dyn TraceRead>, TraceError> {
    let io = |e| TraceError::io(name, e);
    let len = source.seek(SeekFrom::End(0)).map_err(io)?;
    source.seek(SeekFrom::Start(0)).map_err(io)?;
    if format == Format::Gtr && !zstd {
        let (counted, consumed) = Counted::new(source);
        let r = GtrReader::new_seekable(counted, name)?.with_progress(consumed, len);
        return Ok(Box::new(r));
    }
    read_stream(source, len, name, format, zstd)
}

/// Opens a trace over a source that cannot seek. `len` is its length in
/// bytes if known (0 if not), for [`TraceRead::progress`].
pub fn read_stream<R: Read + Send + 'static>(
    source: R,
    len: u64,
    name: &Path,
    format: Format,
    zstd: bool,
) -> Result<Box<dyn TraceRead>, TraceError> {
    let (counted, consumed) = Counted::new(source);
    if !zstd {
        return Ok(match format {
            Format::Gtr => Box::new(GtrReader::new(counted, name)?.with_progress(consumed, len)),
            Format::Csv => Box::new(CsvReader::new(counted, name)?.with_progress(consumed, len)),
            Format::Din => Box::new(DinReader::new(counted, name).with_progress(consumed, len)),
        });
    }
    let src = Unzstd::new(counted, consumed.clone()).map_err(|e| read_error(name, e))?;
    Ok(match format {
        Format::Gtr => Box::new(GtrReader::new(src, name)?.with_progress(consumed, len)),
        Format::Csv => Box::new(CsvReader::new(src, name)?.with_progress(consumed, len)),
        Format::Din => Box::new(DinReader::new(src, name).with_progress(consumed, len)),
    })
}

/// Creates a trace for writing; the format comes from the extension.
///
/// The text formats cannot hold `meta` (nor markers) and ignore it.
pub fn create(path: &Path, meta: &TraceMeta) -> Result<Box<dyn TraceWrite>, TraceError> {
    let (format, zstd) = Format::from_path(path)?;
    let sink = FileSink::create(path, zstd)?;
    Ok(match format {
        Format::Gtr => Box::new(GtrWriter::new(sink, meta, path)?),
        Format::Csv => Box::new(CsvWriter::new(sink, path)?),
        Format::Din => Box::new(DinWriter::new(sink, path)?),
    })
}

/// Reads a whole trace into memory, for tests and small tools; the
/// simulator itself should stream with [`TraceRead::read_batch`].
pub fn read_all(reader: &mut dyn TraceRead) -> Result<Vec<crate::record::Record>, TraceError> {
    let mut batch = Batch::with_capacity(BATCH_RECORDS);
    let mut out = Vec::new();
    while reader.read_batch(&mut batch)? {
        out.extend(batch.records());
    }
    Ok(out)
}
