//! Opening and creating traces by file name or over any byte source: the
//! one module that knows every format, and dispatches to their readers and
//! writers.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use crate::batch::Batch;
use crate::csv::{CsvColumns, CsvReader, CsvWriter};
use crate::din::{DinReader, DinWriter};
use crate::error::TraceError;
use crate::format::{Format, TraceRead, TraceWrite, BATCH_RECORDS};
use crate::gtr::{GtrReader, GtrWriter};
use crate::io::{read_error, Counted, FileSink, Unzstd};
use crate::meta::TraceMeta;
use crate::oracle::{OracleReader, OracleWriter};

/// Opens a trace for reading; the format comes from the extension.
pub fn open(path: &Path) -> Result<Box<dyn TraceRead>, TraceError> {
    let (format, zstd) = Format::from_path(path)?;
    let file = File::open(path).map_err(|e| TraceError::io(path, e))?;
    read_from(file, path, format, zstd)
}

/// How to read a trace from elsewhere.
#[derive(Clone, Debug, Default)]
pub struct ReadOptions {
    /// A `.csv` file's own column names ([`CsvColumns`]).
    pub csv_columns: Option<CsvColumns>,
}

/// [`open`], with `options`; a CSV mapping given for a file that is not
/// `.csv` is an error.
pub fn open_with(path: &Path, options: &ReadOptions) -> Result<Box<dyn TraceRead>, TraceError> {
    let Some(mapping) = &options.csv_columns else {
        return open(path);
    };
    let (format, zstd) = Format::from_path(path)?;
    if format != Format::Csv {
        return Err(TraceError::unsupported(
            path,
            "a CSV column mapping applies to .csv traces only",
        ));
    }
    let file = File::open(path).map_err(|e| TraceError::io(path, e))?;
    let len = file.metadata().map_err(|e| TraceError::io(path, e))?.len();
    let (counted, consumed) = Counted::new(file);
    if zstd {
        let src = Unzstd::new(counted, consumed.clone()).map_err(|e| read_error(path, e))?;
        let r = CsvReader::with_columns(src, path, Some(mapping))?;
        return Ok(Box::new(r.with_progress(consumed, len)));
    }
    let r = CsvReader::with_columns(counted, path, Some(mapping))?;
    Ok(Box::new(r.with_progress(consumed, len)))
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
            Format::OracleGeneral => {
                Box::new(OracleReader::new(counted, name).with_progress(consumed, len))
            }
        });
    }
    let src = Unzstd::new(counted, consumed.clone()).map_err(|e| read_error(name, e))?;
    Ok(match format {
        Format::Gtr => Box::new(GtrReader::new(src, name)?.with_progress(consumed, len)),
        Format::Csv => Box::new(CsvReader::new(src, name)?.with_progress(consumed, len)),
        Format::Din => Box::new(DinReader::new(src, name).with_progress(consumed, len)),
        Format::OracleGeneral => {
            Box::new(OracleReader::new(src, name).with_progress(consumed, len))
        }
    })
}

/// Creates a trace for writing; the format comes from the extension.
///
/// The text formats and `oracleGeneral` cannot hold `meta` (nor markers)
/// and ignore it.
pub fn create(path: &Path, meta: &TraceMeta) -> Result<Box<dyn TraceWrite>, TraceError> {
    let (format, zstd) = Format::from_path(path)?;
    let sink = FileSink::create(path, zstd)?;
    Ok(match format {
        Format::Gtr => Box::new(GtrWriter::new(sink, meta, path)?),
        Format::Csv => Box::new(CsvWriter::new(sink, path)?),
        Format::Din => Box::new(DinWriter::new(sink, path)?),
        Format::OracleGeneral => Box::new(OracleWriter::new(sink, path)?),
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
