//! The streaming `.gtq` writer.

use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::io::FileSink;
use crate::TraceError;

use super::*;

/// Bytes of records gathered before they are checksummed and written
/// (record by record, the checksum of a few dozen bytes and the write
/// call cost as much as the encoding).
const FLUSH_BYTES: usize = 1 << 16;

/// The longest record: a request of every tap.
const MAX_RECORD_BYTES: usize = 1 + 6 + 4 + 24 + 8 * MAX_TAPS;

/// The file a [`TexReqWriter::create`] writes: a temporary beside its
/// target (zstd-compressed for a `.zst` name) until finished.
pub struct TexReqFile(FileSink);

impl Write for TexReqFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.0.write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

/// Writes texture request records to a file (or any `Write`), whole or
/// not at all: the file appears under its name at [`TexReqWriter::finish`],
/// its footer last. A record its header rules out is an error (the
/// reader would refuse it).
pub struct TexReqWriter<W: Write = TexReqFile> {
    out: BufWriter<W>,
    path: PathBuf,
    buf: Vec<u8>,
    header: TexReqHeader,
    /// Counts so far; its checksum is unused until the end.
    footer: TexReqFooter,
    /// Of every byte written.
    crc: crc32fast::Hasher,
    /// As a [`TexReqSink`]: the first error, returned at the end.
    failed: Option<TraceError>,
}

impl TexReqWriter<TexReqFile> {
    /// A writer of `path` (a temporary beside it until finished),
    /// zstd-compressed when the name ends in `.zst`, its header `header`.
    pub fn create(path: &Path, header: &TexReqHeader) -> Result<Self, TraceError> {
        let zstd = path.extension().is_some_and(|e| e == "zst");
        Self::new(TexReqFile(FileSink::create(path, zstd)?), path, header)
    }

    /// Write the footer, flush, and put the file in place.
    pub fn finish(self) -> Result<(), TraceError> {
        self.into_inner()?.0.commit()
    }
}

impl TexReqSink for TexReqWriter<TexReqFile> {
    fn records(&mut self, records: &[TexReqRecord]) {
        if self.failed.is_some() {
            return;
        }
        for r in records {
            if let Err(e) = self.write(r) {
                self.failed = Some(e);
                return;
            }
        }
    }

    fn finish(self: Box<Self>) -> Result<(), TraceError> {
        TexReqWriter::finish(*self)
    }
}

impl<W: Write> TexReqWriter<W> {
    /// A writer to `out` (named `path` in errors); writes the header,
    /// which must pass [`TexReqHeader::check`].
    pub fn new(out: W, path: &Path, header: &TexReqHeader) -> Result<Self, TraceError> {
        if let Err((offset, what)) = header.check() {
            return Err(TraceError::unsupported(
                path,
                format!("cannot write a texture request header (byte {offset}): {what}"),
            ));
        }
        let mut w = TexReqWriter {
            out: BufWriter::with_capacity(1 << 16, out),
            path: path.to_path_buf(),
            buf: Vec::with_capacity(FLUSH_BYTES + MAX_RECORD_BYTES),
            header: *header,
            footer: TexReqFooter::default(),
            crc: crc32fast::Hasher::new(),
            failed: None,
        };
        let b = &mut w.buf;
        b.extend_from_slice(&MAGIC);
        b.extend_from_slice(&VERSION.to_le_bytes());
        b.extend_from_slice(&header.fps.to_le_bytes());
        for v in [header.width, header.height]
            .into_iter()
            .chain(header.extent)
            .chain([header.tile_size, header.frames])
        {
            b.extend_from_slice(&v.to_le_bytes());
        }
        debug_assert_eq!(b.len() as u64, HEADER_BYTES);
        w.flush_buf()?;
        Ok(w)
    }

    /// The header it writes.
    pub fn header(&self) -> &TexReqHeader {
        &self.header
    }

    /// Append one record: an error, writing nothing, for one the header
    /// rules out (a processor, pixel, tile or frame beyond it, a texel
    /// size or tap count out of range).
    pub fn write(&mut self, r: &TexReqRecord) -> Result<(), TraceError> {
        if let Err((_, what)) = self.header.check_record(r) {
            return Err(TraceError::unsupported(
                &self.path,
                format!(
                    "cannot write texture request record {}: {what}",
                    self.footer.records
                ),
            ));
        }
        self.footer.count(r);
        let b = &mut self.buf;
        match *r {
            TexReqRecord::PassBegin { pass } => tagged_u32(b, TAG_PASS_BEGIN, pass),
            TexReqRecord::TileBegin { tile } => tagged_u32(b, TAG_TILE_BEGIN, tile),
            TexReqRecord::TileEnd { tile } => tagged_u32(b, TAG_TILE_END, tile),
            TexReqRecord::FrameEnd { frame } => tagged_u32(b, TAG_FRAME_END, frame),
            TexReqRecord::Request(q) => {
                b.push(TAG_REQUEST);
                pixel(b, q.fp, q.x, q.y);
                b.extend_from_slice(&[q.index, q.filter.code(), q.texel_bytes, q.len]);
                ops(b, &q.ops);
                for a in q.addresses() {
                    b.extend_from_slice(&a.to_le_bytes());
                }
            }
            TexReqRecord::FragmentEnd { fp, x, y, ops: o } => {
                b.push(TAG_FRAGMENT_END);
                pixel(b, fp, x, y);
                ops(b, &o);
            }
        }
        if self.buf.len() >= FLUSH_BYTES {
            self.flush_buf()?;
        }
        Ok(())
    }

    /// Write the footer, flush and hand back the output (or the first
    /// error the writer met as a [`TexReqSink`]).
    pub fn into_inner(mut self) -> Result<W, TraceError> {
        if let Some(e) = self.failed {
            return Err(e);
        }
        // The records gathered are in the checksum before it is taken.
        self.flush_buf()?;
        let f = self.footer;
        let crc = std::mem::take(&mut self.crc).finalize();
        self.buf.push(TAG_FOOTER);
        for v in [f.records, f.tiles, f.requests, f.fragments] {
            self.buf.extend_from_slice(&v.to_le_bytes());
        }
        self.buf.extend_from_slice(&crc.to_le_bytes());
        self.flush_buf()?;
        let path = self.path;
        self.out
            .into_inner()
            .map_err(|e| TraceError::io(path, e.into_error()))
    }

    fn flush_buf(&mut self) -> Result<(), TraceError> {
        self.crc.update(&self.buf);
        let r = self.out.write_all(&self.buf);
        self.buf.clear();
        r.map_err(|e| TraceError::io(&self.path, e))
    }
}

fn tagged_u32(b: &mut Vec<u8>, tag: u8, v: u32) {
    b.push(tag);
    b.extend_from_slice(&v.to_le_bytes());
}

/// ALU operations of width 1 to 4, special functions, branches.
fn ops(b: &mut Vec<u8>, o: &ShaderOps) {
    for v in o.alu.iter().chain([&o.special, &o.branch]) {
        b.extend_from_slice(&v.to_le_bytes());
    }
}

fn pixel(b: &mut Vec<u8>, fp: u16, x: u16, y: u16) {
    for v in [fp, x, y] {
        b.extend_from_slice(&v.to_le_bytes());
    }
}
