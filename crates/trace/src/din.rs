//! `.din` traces, the classic Dinero IV input: `label address [size]` per line.
//!
//! Labels: `0` data read and `1` data write (stream `other`), `2`
//! instruction fetch (stream `shader`, a read). The address is hex, with or
//! without `0x`; the optional size is decimal bytes (default 1: the access
//! touches the block holding the address). Dinero's other labels (`3`
//! escape, `4` cache flush) have no meaning here and are errors, as is any
//! other text; blank lines are allowed.
//!
//! Dinero knows nothing of graphics streams or units: the writer emits
//! `shader` reads as `2`, every other read as `0`, every write as `1`, and
//! drops units; it counts the accesses whose stream or unit is so lost
//! ([`crate::TraceWrite::dropped`]). Its output (`label hexaddr`, size appended only when it is
//! not 1) is canonical: reading and rewriting reproduces it byte for byte.
//! Markers are counted and skipped ([`crate::TraceWrite::skipped_markers`]).

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use crate::batch::Batch;
use crate::error::TraceError;
use crate::format::{TraceRead, BATCH_RECORDS};
use crate::io::{read_error, Consumed};
use crate::meta::{Totals, TraceMeta};
use crate::record::{Access, Op, Stream};
use crate::text::{parse_addr, parse_dec, put_dec, put_hex, show};
use crate::text_writer::{LineFormat, TextWriter};

/// Longest line accepted. A valid one is under 50 bytes; the cap keeps a
/// file without newlines from being read into memory whole.
const MAX_LINE: u64 = 4096;

/// Streams accesses from Dinero text.
pub struct DinReader<R: Read> {
    src: BufReader<R>,
    path: PathBuf,
    meta: TraceMeta,
    line: Vec<u8>,
    line_no: u64,
    bytes: u64,
    done: bool,
    failed: bool,
    progress: Option<(Consumed, u64)>,
}

impl<R: Read> DinReader<R> {
    /// `path` only names the source in errors.
    pub fn new(src: R, path: &Path) -> DinReader<R> {
        DinReader {
            src: BufReader::with_capacity(256 << 10, src),
            path: path.to_path_buf(),
            meta: TraceMeta {
                generator: "din".to_string(),
                ..TraceMeta::default()
            },
            line: Vec::with_capacity(64),
            line_no: 0,
            bytes: 0,
            done: false,
            failed: false,
            progress: None,
        }
    }

    pub(crate) fn with_progress(mut self, consumed: Consumed, total: u64) -> DinReader<R> {
        self.progress = Some((consumed, total));
        self
    }

    /// The next line into `self.line`, without its terminator; `false` at the end.
    fn next_line(&mut self) -> Result<bool, TraceError> {
        self.line.clear();
        let n = (&mut self.src)
            .take(MAX_LINE + 1)
            .read_until(b'\n', &mut self.line)
            .map_err(|e| read_error(&self.path, e))?;
        if n == 0 {
            return Ok(false);
        }
        self.line_no += 1;
        self.bytes += n as u64;
        if self.line.last() == Some(&b'\n') {
            self.line.pop();
        } else if n as u64 > MAX_LINE {
            return Err(TraceError::parse(
                &self.path,
                self.line_no,
                format!("line longer than {MAX_LINE} bytes"),
            ));
        }
        if self.line.last() == Some(&b'\r') {
            self.line.pop();
        }
        Ok(true)
    }

    /// The access on the current line, or `None` for a blank line.
    fn parse(&self) -> Result<Option<Access>, TraceError> {
        let err = |what: String| TraceError::parse(&self.path, self.line_no, what);
        let mut fields = self
            .line
            .split(|b| b.is_ascii_whitespace())
            .filter(|f| !f.is_empty());
        let Some(label) = fields.next() else {
            return Ok(None);
        };
        let (op, stream) = match label {
            b"0" => (Op::Read, Stream::Other),
            b"1" => (Op::Write, Stream::Other),
            b"2" => (Op::Read, Stream::Shader),
            b"3" | b"4" => {
                return Err(err(format!(
                    "label {} ({}) is not supported: expected 0 (read), 1 (write) or 2 (instruction fetch)",
                    show(label),
                    if label == b"3" { "escape" } else { "cache flush" }
                )))
            }
            _ => {
                return Err(err(format!(
                    "label '{}': expected 0 (read), 1 (write) or 2 (instruction fetch)",
                    show(label)
                )))
            }
        };
        let Some(addr) = fields.next() else {
            return Err(err(
                "expected 'label address [size]', found no address".to_string()
            ));
        };
        let addr = parse_addr(addr, true).ok_or_else(|| {
            err(format!(
                "address '{}': expected a hex number below 2^64 (0x optional)",
                show(addr)
            ))
        })?;
        let size = match fields.next() {
            None => 1,
            Some(s) => parse_dec(s)
                .and_then(|v| u32::try_from(v).ok())
                .ok_or_else(|| {
                    err(format!(
                        "size '{}': expected a decimal number of bytes from 0 to 4294967295",
                        show(s)
                    ))
                })?,
        };
        if let Some(extra) = fields.next() {
            return Err(err(format!(
                "unexpected '{}': expected 'label address [size]'",
                show(extra)
            )));
        }
        Ok(Some(Access {
            addr,
            size,
            unit: 0,
            stream,
            op,
        }))
    }

    pub fn read_batch(&mut self, batch: &mut Batch) -> Result<bool, TraceError> {
        batch.clear();
        if self.failed {
            return Err(TraceError::parse(
                &self.path,
                self.line_no,
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
            if !self.next_line()? {
                self.done = true;
            } else if let Some(a) = self.parse()? {
                batch.accesses.push(a);
            }
        }
        Ok(!batch.accesses.is_empty())
    }
}

impl<R: Read + Send> TraceRead for DinReader<R> {
    fn meta(&self) -> &TraceMeta {
        &self.meta
    }

    fn read_batch(&mut self, batch: &mut Batch) -> Result<bool, TraceError> {
        DinReader::read_batch(self, batch)
    }

    fn announced_totals(&self) -> Option<&Totals> {
        None
    }

    fn progress(&self) -> (u64, u64) {
        match &self.progress {
            Some((c, total)) => (c.get().min(*total), *total),
            None => (self.bytes, 0),
        }
    }
}

/// The canonical Dinero line: `label addr` in bare lowercase hex, then the
/// size only when it is not 1.
pub struct DinLine;

impl LineFormat for DinLine {
    const HEADER: &'static [u8] = b"";

    fn put_line(a: &Access, l: &mut Vec<u8>) {
        l.extend_from_slice(match (a.op, a.stream) {
            (Op::Write, _) => b"1 ",
            (Op::Read, Stream::Shader) => b"2 ",
            (Op::Read, _) => b"0 ",
        });
        put_hex(l, a.addr);
        if a.size != 1 {
            l.push(b' ');
            put_dec(l, u64::from(a.size));
        }
        l.push(b'\n');
    }

    /// Only `other` and instruction fetches (`shader` reads) have labels.
    fn loses_stream(a: &Access) -> bool {
        !matches!(
            (a.stream, a.op),
            (Stream::Other, _) | (Stream::Shader, Op::Read)
        )
    }

    fn loses_unit(a: &Access) -> bool {
        a.unit != 0
    }
}

/// Writes accesses as canonical Dinero lines; markers are counted, not written.
pub type DinWriter<W> = TextWriter<W, DinLine>;
