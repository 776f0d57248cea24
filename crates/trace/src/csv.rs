//! `.csv` traces: one access per line under a header naming the columns.
//!
//! Columns `op`, `addr` and `stream` are required; `unit` (default 0) and
//! `size` (default 1: the access touches the block holding `addr`) are
//! optional; order is free. `op` is `R` or `W` (either case), `addr` decimal
//! or `0x` hex, `stream` a short name such as `tex`. The writer's form,
//! `op,addr,stream,unit,size` with lowercase `0x` hex addresses, is the
//! canonical one: reading and rewriting it reproduces it byte for byte.
//!
//! CSV cannot hold markers: the writer skips them and counts them
//! ([`crate::TraceWrite::skipped_markers`]) so the caller can say so.
//!
//! CSV files from elsewhere name their columns otherwise and carry others:
//! a [`CsvColumns`] mapping (`addr=obj_id,size=bytes,op=type`) says which
//! header names hold our columns. With a mapping, columns it does not name
//! are ignored, `op` may be absent (every access a read) and so may
//! `stream` (every access `other`); `addr` is required.

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::batch::Batch;
use crate::error::TraceError;
use crate::format::{TraceRead, BATCH_RECORDS};
use crate::io::{read_error, Consumed};
use crate::meta::{Totals, TraceMeta};
use crate::record::{Access, Op, Stream, UnknownStream};
use crate::text::{parse_addr, parse_dec, put_dec, put_hex, show};
use crate::text_writer::{LineFormat, TextWriter};

/// The writer's header, and the column names a reader knows.
pub const HEADER: &str = "op,addr,stream,unit,size";

/// Where each known column sits in a line (`None`: absent, its default).
#[derive(Clone, Copy, Debug)]
struct Columns {
    op: Option<usize>,
    addr: usize,
    stream: Option<usize>,
    unit: Option<usize>,
    size: Option<usize>,
}

/// Our column names, in [`CsvColumns`]' order.
const NAMES: [&str; 5] = ["op", "addr", "stream", "unit", "size"];

/// Which header names hold our columns in a CSV file from elsewhere:
/// `addr=obj_id,size=bytes` (our name `=` the file's).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CsvColumns {
    /// The file's name for each of [`NAMES`], if mapped.
    names: [Option<String>; 5],
}

impl std::str::FromStr for CsvColumns {
    type Err = String;

    fn from_str(s: &str) -> Result<CsvColumns, String> {
        let mut names: [Option<String>; 5] = Default::default();
        for pair in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (ours, theirs) = pair
                .split_once('=')
                .ok_or_else(|| format!("'{pair}': expected OURS=THEIRS, e.g. addr=obj_id"))?;
            let (ours, theirs) = (ours.trim(), theirs.trim());
            let k = NAMES.iter().position(|n| *n == ours).ok_or_else(|| {
                format!("'{ours}' is none of our columns: op, addr, stream, unit, size")
            })?;
            if theirs.is_empty() {
                return Err(format!("'{pair}': the file's column name is empty"));
            }
            if names[k].replace(theirs.to_string()).is_some() {
                return Err(format!("column '{ours}' is mapped twice"));
            }
        }
        if names[1].is_none() {
            return Err("the mapping must name the file's addr column (addr=...)".into());
        }
        Ok(CsvColumns { names })
    }
}

/// The source with a newline appended: every record then ends in a line
/// terminator, so the reader's position after a record is always the line
/// after it. (The csv crate's own record position points before any blank
/// lines that precede the record.)
type Terminated<R> = std::io::Chain<R, &'static [u8]>;

/// Streams accesses from CSV text. Memory is one line's fields.
pub struct CsvReader<R: Read> {
    rdr: ::csv::Reader<Terminated<R>>,
    path: PathBuf,
    meta: TraceMeta,
    cols: Columns,
    record: ::csv::ByteRecord,
    done: bool,
    failed: bool,
    progress: Option<(Consumed, u64)>,
}

impl<R: Read> CsvReader<R> {
    /// Reads the header line. `path` only names the source in errors.
    pub fn new(src: R, path: &Path) -> Result<CsvReader<R>, TraceError> {
        CsvReader::with_columns(src, path, None)
    }

    /// As [`CsvReader::new`], the columns found by `mapping` if given.
    pub fn with_columns(
        src: R,
        path: &Path,
        mapping: Option<&CsvColumns>,
    ) -> Result<CsvReader<R>, TraceError> {
        let mut rdr = ::csv::ReaderBuilder::new()
            .has_headers(true)
            .trim(::csv::Trim::All)
            .buffer_capacity(256 << 10)
            .from_reader(src.chain(&b"\n"[..]));
        let header = rdr.byte_headers().cloned();
        let line = rdr.position().line().saturating_sub(1).max(1);
        let header = header.map_err(|e| csv_error(path, e, line))?;
        let cols = match mapping {
            None => columns(&header),
            Some(m) => mapped_columns(&header, m),
        }
        .map_err(|what| TraceError::parse(path, line, what))?;
        Ok(CsvReader {
            rdr,
            path: path.to_path_buf(),
            meta: TraceMeta {
                generator: "csv".to_string(),
                ..TraceMeta::default()
            },
            cols,
            record: ::csv::ByteRecord::new(),
            done: false,
            failed: false,
            progress: None,
        })
    }

    pub(crate) fn with_progress(mut self, consumed: Consumed, total: u64) -> CsvReader<R> {
        self.progress = Some((consumed, total));
        self
    }

    fn parse(&self) -> Result<Access, TraceError> {
        let r = &self.record;
        let line = self.rdr.position().line().saturating_sub(1);
        let err = |what: String| TraceError::parse(&self.path, line, what);
        let field = |i: usize| r.get(i).unwrap_or_default();
        let c = self.cols;
        let op = match c.op.map(field) {
            None | Some(b"R" | b"r") => Op::Read,
            Some(b"W" | b"w") => Op::Write,
            Some(f) => return Err(err(format!("op '{}': expected R or W", show(f)))),
        };
        let addr = parse_addr(field(c.addr), false).ok_or_else(|| {
            err(format!(
                "addr '{}': expected a decimal or 0x-prefixed hex number below 2^64",
                show(field(c.addr))
            ))
        })?;
        let stream = match c.stream {
            None => Stream::Other,
            Some(i) => std::str::from_utf8(field(i))
                .map_err(|_| UnknownStream(show(field(i))))
                .and_then(|s| s.parse::<Stream>())
                .map_err(|e| err(e.to_string()))?,
        };
        let unit = match c.unit {
            None => 0,
            Some(i) => parse_dec(field(i))
                .and_then(|v| u16::try_from(v).ok())
                .ok_or_else(|| {
                    err(format!(
                        "unit '{}': expected a number from 0 to 65535",
                        show(field(i))
                    ))
                })?,
        };
        let size = match c.size {
            None => 1,
            Some(i) => parse_dec(field(i))
                .and_then(|v| u32::try_from(v).ok())
                .ok_or_else(|| {
                    err(format!(
                        "size '{}': expected a number of bytes from 0 to 4294967295",
                        show(field(i))
                    ))
                })?,
        };
        Ok(Access {
            addr,
            size,
            unit,
            stream,
            op,
        })
    }

    pub fn read_batch(&mut self, batch: &mut Batch) -> Result<bool, TraceError> {
        batch.clear();
        if self.failed {
            let line = self.rdr.position().line().saturating_sub(1);
            return Err(TraceError::parse(
                &self.path,
                line,
                "reading past an earlier error",
            ));
        }
        let r = self.fill(batch);
        if r.is_err() {
            batch.clear();
            self.failed = true;
        }
        r
    }

    fn fill(&mut self, batch: &mut Batch) -> Result<bool, TraceError> {
        while !self.done && batch.accesses.len() < BATCH_RECORDS {
            let more = self.rdr.read_byte_record(&mut self.record);
            let line = self.rdr.position().line().saturating_sub(1);
            if more.map_err(|e| csv_error(&self.path, e, line))? {
                let a = self.parse()?;
                batch.accesses.push(a);
            } else {
                self.done = true;
            }
        }
        Ok(!batch.accesses.is_empty())
    }
}

fn columns(header: &::csv::ByteRecord) -> Result<Columns, String> {
    let mut found: [Option<usize>; 5] = [None; 5];
    if header.is_empty() || (header.len() == 1 && header[0].is_empty()) {
        return Err(format!(
            "expected a header line naming the columns, like '{HEADER}'"
        ));
    }
    for (i, name) in header.iter().enumerate() {
        let Some(k) = NAMES.iter().position(|n| n.as_bytes() == name) else {
            return Err(format!(
                "unknown column '{}' (expected op, addr, stream and optionally unit, size)",
                show(name)
            ));
        };
        if found[k].replace(i).is_some() {
            return Err(format!("column '{}' appears twice", NAMES[k]));
        }
    }
    let required = |k: usize| found[k].ok_or_else(|| format!("missing column '{}'", NAMES[k]));
    Ok(Columns {
        op: Some(required(0)?),
        addr: required(1)?,
        stream: Some(required(2)?),
        unit: found[3],
        size: found[4],
    })
}

/// The columns `mapping` names, by the file's header; others ignored.
fn mapped_columns(header: &::csv::ByteRecord, mapping: &CsvColumns) -> Result<Columns, String> {
    let mut found: [Option<usize>; 5] = [None; 5];
    for (k, theirs) in mapping.names.iter().enumerate() {
        let Some(theirs) = theirs else { continue };
        let at: Vec<usize> = header
            .iter()
            .enumerate()
            .filter(|(_, h)| *h == theirs.as_bytes())
            .map(|(i, _)| i)
            .collect();
        match at[..] {
            [i] => found[k] = Some(i),
            [] => {
                let names: Vec<String> = header.iter().map(show).collect();
                return Err(format!(
                    "no column '{theirs}' (mapped to {}) in the header: {}",
                    NAMES[k],
                    names.join(",")
                ));
            }
            _ => return Err(format!("column '{theirs}' appears twice")),
        }
    }
    Ok(Columns {
        op: found[0],
        addr: found[1].expect("a mapping names addr"),
        stream: found[2],
        unit: found[3],
        size: found[4],
    })
}

/// `line` is the line the reader was on, which the csv crate's own error
/// position can miss by the blank lines before the record.
fn csv_error(path: &Path, e: ::csv::Error, line: u64) -> TraceError {
    match e.into_kind() {
        ::csv::ErrorKind::Io(io) => read_error(path, io),
        ::csv::ErrorKind::UnequalLengths {
            expected_len, len, ..
        } => TraceError::parse(
            path,
            line,
            format!("expected {expected_len} fields like the header, found {len}"),
        ),
        other => TraceError::parse(path, line, format!("{other:?}")),
    }
}

impl<R: Read + Send> TraceRead for CsvReader<R> {
    fn meta(&self) -> &TraceMeta {
        &self.meta
    }

    fn read_batch(&mut self, batch: &mut Batch) -> Result<bool, TraceError> {
        CsvReader::read_batch(self, batch)
    }

    fn announced_totals(&self) -> Option<&Totals> {
        None
    }

    fn progress(&self) -> (u64, u64) {
        match &self.progress {
            Some((c, total)) => (c.get().min(*total), *total),
            None => (self.rdr.position().byte(), 0),
        }
    }
}

/// The canonical CSV line: `op,0xaddr,stream,unit,size`.
pub struct CsvLine;

impl LineFormat for CsvLine {
    const HEADER: &'static [u8] = b"op,addr,stream,unit,size\n";

    fn put_line(a: &Access, l: &mut Vec<u8>) {
        l.extend_from_slice(if a.op.is_write() { b"W,0x" } else { b"R,0x" });
        put_hex(l, a.addr);
        l.push(b',');
        l.extend_from_slice(a.stream.name().as_bytes());
        l.push(b',');
        put_dec(l, u64::from(a.unit));
        l.push(b',');
        put_dec(l, u64::from(a.size));
        l.push(b'\n');
    }
}

/// Writes accesses as canonical CSV; markers are counted, not written.
pub type CsvWriter<W> = TextWriter<W, CsvLine>;
