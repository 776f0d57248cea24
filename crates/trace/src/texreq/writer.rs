//! The streaming `.gtq` writer.

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::atomic::AtomicFile;
use crate::TraceError;

use super::*;

/// Writes texture request records to a file (or any `Write`), whole or
/// not at all: the file appears under its name at [`TexReqWriter::finish`].
pub struct TexReqWriter<W: Write = AtomicFile> {
    out: BufWriter<W>,
    path: PathBuf,
    buf: Vec<u8>,
}

impl TexReqWriter<AtomicFile> {
    /// A writer of `path` (a temporary beside it until finished).
    pub fn create(path: &Path) -> Result<Self, TraceError> {
        let file = AtomicFile::create(path).map_err(|e| TraceError::io(path, e))?;
        Self::new(file, path)
    }

    /// Flush, and put the file in place.
    pub fn finish(self) -> Result<(), TraceError> {
        let path = self.path.clone();
        let file = self.into_inner()?;
        file.commit().map_err(|e| TraceError::io(path, e))
    }
}

impl<W: Write> TexReqWriter<W> {
    /// A writer to `out` (named `path` in errors); writes the header.
    pub fn new(out: W, path: &Path) -> Result<Self, TraceError> {
        let mut w = TexReqWriter {
            out: BufWriter::with_capacity(1 << 16, out),
            path: path.to_path_buf(),
            buf: Vec::with_capacity(96),
        };
        w.buf.extend_from_slice(&MAGIC);
        w.buf.extend_from_slice(&VERSION.to_le_bytes());
        w.flush_buf()?;
        Ok(w)
    }

    /// Append one record. A request's taps must number 1 to
    /// [`MAX_TAPS`] (a programming error otherwise: it panics).
    pub fn write(&mut self, r: &TexReqRecord) -> Result<(), TraceError> {
        let b = &mut self.buf;
        match *r {
            TexReqRecord::PassBegin { pass } => tagged_u32(b, TAG_PASS_BEGIN, pass),
            TexReqRecord::TileBegin { tile } => tagged_u32(b, TAG_TILE_BEGIN, tile),
            TexReqRecord::TileEnd { tile } => tagged_u32(b, TAG_TILE_END, tile),
            TexReqRecord::FrameEnd { frame } => tagged_u32(b, TAG_FRAME_END, frame),
            TexReqRecord::Request(q) => {
                assert!(
                    (1..=MAX_TAPS).contains(&(q.len as usize)),
                    "a texture request has 1 to {MAX_TAPS} taps"
                );
                b.push(TAG_REQUEST);
                pixel(b, q.fp, q.x, q.y);
                b.extend_from_slice(&[q.index, q.filter.code(), q.texel_bytes, q.len]);
                b.extend_from_slice(&q.alu.to_le_bytes());
                for a in q.addresses() {
                    b.extend_from_slice(&a.to_le_bytes());
                }
            }
            TexReqRecord::FragmentEnd { fp, x, y, alu } => {
                b.push(TAG_FRAGMENT_END);
                pixel(b, fp, x, y);
                b.extend_from_slice(&alu.to_le_bytes());
            }
        }
        self.flush_buf()
    }

    /// Flush and hand back the output.
    pub fn into_inner(self) -> Result<W, TraceError> {
        let path = self.path;
        self.out
            .into_inner()
            .map_err(|e| TraceError::io(path, e.into_error()))
    }

    fn flush_buf(&mut self) -> Result<(), TraceError> {
        let r = self.out.write_all(&self.buf);
        self.buf.clear();
        r.map_err(|e| TraceError::io(&self.path, e))
    }
}

fn tagged_u32(b: &mut Vec<u8>, tag: u8, v: u32) {
    b.push(tag);
    b.extend_from_slice(&v.to_le_bytes());
}

fn pixel(b: &mut Vec<u8>, fp: u16, x: u16, y: u16) {
    for v in [fp, x, y] {
        b.extend_from_slice(&v.to_le_bytes());
    }
}
