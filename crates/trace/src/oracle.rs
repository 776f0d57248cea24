//! libCacheSim's `oracleGeneral` binary traces (`.oracleGeneral`,
//! `.oracleGeneral.bin`, optionally `.zst`), so that one trace runs in
//! both tools.
//!
//! A file is 24-byte little-endian records and nothing else:
//! `u32 clock_time, u64 obj_id, u32 obj_size, i64 next_access_vtime`,
//! where `next_access_vtime` is the 1-based position of the next request
//! to the same object, or -1 if there is none (as libCacheSim's
//! `traceConv` writes it).
//!
//! Our caches hold blocks, libCacheSim's objects: an object is one
//! [`ORACLE_BLOCK`]-byte block. The writer emits one record per 64-byte
//! block an access touches (`obj_id` = address / 64, `obj_size` = 64,
//! `clock_time` = the frame the access belongs to, from the frame
//! markers), so a libCacheSim cache of N x 64 bytes is our fully
//! associative cache of N blocks. The format has no streams, units,
//! writes, sizes or markers: the writer counts what it loses
//! ([`crate::TraceWrite::dropped`]). The reader gives each record as a
//! 64-byte read of stream `other` at `obj_id x 64`; `obj_size` and
//! `next_access_vtime` are read but not used (our OPT computes its own next
//! uses), and a file that is not whole records is an error naming the
//! byte offset of the partial one.
//!
//! Next uses need the future: the writer keeps `obj_id` and clock per
//! record in a temporary file (12 bytes each), then at `finish` reads it
//! backwards in chunks to fill in each record's next use (a map of the
//! objects seen, the trace's footprint) into a second temporary file, and
//! reads that backwards to write the records in order, as libCacheSim's
//! converter does.

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use crate::batch::Batch;
use crate::error::TraceError;
use crate::format::{Dropped, TraceRead, TraceWrite, BATCH_RECORDS};
use crate::io::{read_error, read_full, Consumed, FileSink};
use crate::meta::{Totals, TraceMeta};
use crate::record::{Access, Marker, Op, Stream};

/// Bytes of one record.
pub const RECORD: usize = 24;
/// Bytes of the block one object stands for.
pub const ORACLE_BLOCK: u64 = 64;

/// Streams `oracleGeneral` records as accesses.
pub struct OracleReader<R: Read> {
    src: R,
    path: PathBuf,
    meta: TraceMeta,
    buf: Vec<u8>,
    offset: u64,
    done: bool,
    failed: bool,
    progress: Option<(Consumed, u64)>,
}

impl<R: Read> OracleReader<R> {
    /// `path` only names the source in errors.
    pub fn new(src: R, path: &Path) -> OracleReader<R> {
        OracleReader {
            src,
            path: path.to_path_buf(),
            meta: TraceMeta {
                generator: "oracleGeneral".to_string(),
                block_size: Some(ORACLE_BLOCK as u32),
                ..TraceMeta::default()
            },
            buf: vec![0; RECORD * 4096],
            offset: 0,
            done: false,
            failed: false,
            progress: None,
        }
    }

    pub(crate) fn with_progress(mut self, consumed: Consumed, total: u64) -> OracleReader<R> {
        self.progress = Some((consumed, total));
        self
    }

    pub fn read_batch(&mut self, batch: &mut Batch) -> Result<bool, TraceError> {
        batch.clear();
        if self.failed {
            return Err(TraceError::corrupt(
                &self.path,
                self.offset,
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
        while !self.done && batch.accesses.len() + self.buf.len() / RECORD <= BATCH_RECORDS {
            let n =
                read_full(&mut self.src, &mut self.buf).map_err(|e| read_error(&self.path, e))?;
            if n < self.buf.len() {
                self.done = true;
            }
            let whole = n / RECORD * RECORD;
            for rec in self.buf[..whole].chunks_exact(RECORD) {
                let obj = u64::from_le_bytes(rec[4..12].try_into().expect("8 bytes"));
                let addr = obj.checked_mul(ORACLE_BLOCK).ok_or_else(|| {
                    TraceError::corrupt(
                        &self.path,
                        self.offset,
                        format!(
                            "obj_id {obj} is past the last 64-byte block of a 64-bit address space"
                        ),
                    )
                })?;
                batch.accesses.push(Access {
                    addr,
                    size: ORACLE_BLOCK as u32,
                    unit: 0,
                    stream: Stream::Other,
                    op: Op::Read,
                });
                self.offset += RECORD as u64;
            }
            if n != whole {
                return Err(TraceError::corrupt(
                    &self.path,
                    self.offset,
                    format!(
                        "a partial record of {} bytes: expected whole {RECORD}-byte records (u32 time, u64 obj_id, u32 size, i64 next access)",
                        n - whole
                    ),
                ));
            }
        }
        Ok(!batch.accesses.is_empty())
    }
}

impl<R: Read + Send> TraceRead for OracleReader<R> {
    fn meta(&self) -> &TraceMeta {
        &self.meta
    }

    fn read_batch(&mut self, batch: &mut Batch) -> Result<bool, TraceError> {
        OracleReader::read_batch(self, batch)
    }

    fn announced_totals(&self) -> Option<&Totals> {
        None
    }

    fn progress(&self) -> (u64, u64) {
        match &self.progress {
            Some((c, total)) => (c.get().min(*total), *total),
            None => (self.offset, 0),
        }
    }
}

/// Bytes per record of the forward temporary file: `obj_id`, clock.
const FORWARD: usize = 12;
/// Records per chunk of the backward passes.
const CHUNK: usize = 1 << 16;

/// Writes `oracleGeneral` records: forward into a temporary file, then,
/// at [`TraceWrite::finish`], with their next uses into the output.
pub struct OracleWriter {
    out: Option<FileSink>,
    path: PathBuf,
    /// `None` once finished.
    forward: Option<BufWriter<File>>,
    records: u64,
    /// The frame the next accesses belong to (`FrameBegin`).
    clock: u32,
    totals: Totals,
    dropped: Dropped,
}

impl OracleWriter {
    /// `path` only names the output in errors.
    pub(crate) fn new(out: FileSink, path: &Path) -> Result<OracleWriter, TraceError> {
        let tmp = tempfile::tempfile().map_err(|e| TraceError::io(path, e))?;
        Ok(OracleWriter {
            out: Some(out),
            path: path.to_path_buf(),
            forward: Some(BufWriter::with_capacity(256 << 10, tmp)),
            records: 0,
            clock: 0,
            totals: Totals::default(),
            dropped: Dropped::default(),
        })
    }

    fn io(&self, e: std::io::Error) -> TraceError {
        TraceError::io(&self.path, e)
    }
}

/// The 64-byte blocks `a` touches (one for a size of 0 or 1).
fn blocks(a: &Access) -> std::ops::RangeInclusive<u64> {
    let first = a.addr / ORACLE_BLOCK;
    let last = a.addr.saturating_add(u64::from(a.size.max(1)) - 1) / ORACLE_BLOCK;
    first..=last
}

impl TraceWrite for OracleWriter {
    fn write_access(&mut self, a: &Access) -> Result<(), TraceError> {
        self.totals.add_access(a);
        let blocks = blocks(a);
        if a.stream != Stream::Other {
            self.dropped.streams[a.stream.index()] += 1;
        }
        if a.unit != 0 {
            self.dropped.units += 1;
        }
        if a.op == Op::Write {
            self.dropped.writes += 1;
        }
        if a.size != ORACLE_BLOCK as u32 || !a.addr.is_multiple_of(ORACLE_BLOCK) {
            self.dropped.sizes += 1;
        }
        let forward = self.forward.as_mut().expect("not finished");
        for obj in blocks {
            let mut rec = [0u8; FORWARD];
            rec[..8].copy_from_slice(&obj.to_le_bytes());
            rec[8..].copy_from_slice(&self.clock.to_le_bytes());
            forward
                .write_all(&rec)
                .map_err(|e| TraceError::io(&self.path, e))?;
            self.records += 1;
        }
        Ok(())
    }

    fn write_marker(&mut self, m: &Marker) -> Result<(), TraceError> {
        self.totals.markers += 1;
        self.dropped.markers += 1;
        if let Marker::FrameBegin { frame } = m {
            self.clock = *frame;
        }
        Ok(())
    }

    fn write_batch(&mut self, batch: &Batch) -> Result<(), TraceError> {
        let mut markers = batch.markers.iter().peekable();
        for (i, a) in batch.accesses.iter().enumerate() {
            while let Some((_, m)) = markers.next_if(|(at, _)| *at == i) {
                self.write_marker(m)?;
            }
            self.write_access(a)?;
        }
        for (_, m) in markers {
            self.write_marker(m)?;
        }
        Ok(())
    }

    fn dropped(&self) -> Dropped {
        self.dropped
    }

    fn finish(mut self: Box<Self>) -> Result<Totals, TraceError> {
        let forward = self.forward.take().expect("finished once");
        let mut forward = forward.into_inner().map_err(|e| self.io(e.into_error()))?;
        let backward = with_next_uses(&mut forward, self.records).map_err(|e| self.io(e))?;
        let mut out = self.out.take().expect("finished once");
        reversed(backward, self.records, &mut out).map_err(|e| self.io(e))?;
        out.commit()?;
        Ok(self.totals)
    }
}

/// Reads `n` forward records from `forward` backwards, in chunks, and
/// writes the output records (next uses filled in) to a new temporary
/// file in reverse order.
fn with_next_uses(forward: &mut File, n: u64) -> std::io::Result<File> {
    let mut next: HashMap<u64, u64> = HashMap::new();
    let mut backward = BufWriter::with_capacity(256 << 10, tempfile::tempfile()?);
    let mut chunk = vec![0u8; CHUNK * FORWARD];
    let mut end = n;
    while end > 0 {
        let start = end.saturating_sub(CHUNK as u64);
        let len = (end - start) as usize * FORWARD;
        forward.seek(SeekFrom::Start(start * FORWARD as u64))?;
        forward.read_exact(&mut chunk[..len])?;
        for (k, rec) in chunk[..len].chunks_exact(FORWARD).enumerate().rev() {
            let position = start + k as u64 + 1;
            let obj = u64::from_le_bytes(rec[..8].try_into().expect("8 bytes"));
            let clock = u32::from_le_bytes(rec[8..].try_into().expect("4 bytes"));
            let next_use = next.insert(obj, position).map_or(-1, |p| p as i64);
            let mut out = [0u8; RECORD];
            out[..4].copy_from_slice(&clock.to_le_bytes());
            out[4..12].copy_from_slice(&obj.to_le_bytes());
            out[12..16].copy_from_slice(&(ORACLE_BLOCK as u32).to_le_bytes());
            out[16..].copy_from_slice(&next_use.to_le_bytes());
            backward.write_all(&out)?;
        }
        end = start;
    }
    backward.into_inner().map_err(|e| e.into_error())
}

/// Writes the `n` records of `backward` (last first) to `out` in order.
fn reversed(mut backward: File, n: u64, out: &mut impl Write) -> std::io::Result<()> {
    let mut chunk = vec![0u8; CHUNK * RECORD];
    let mut end = n;
    while end > 0 {
        let start = end.saturating_sub(CHUNK as u64);
        let len = (end - start) as usize * RECORD;
        backward.seek(SeekFrom::Start(start * RECORD as u64))?;
        backward.read_exact(&mut chunk[..len])?;
        for rec in chunk[..len].chunks_exact(RECORD).rev() {
            out.write_all(rec)?;
        }
        end = start;
    }
    Ok(())
}
