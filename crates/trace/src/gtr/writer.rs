//! Writing `.gtr`: one chunk buffered at a time, compressed when full.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::batch::Batch;
use crate::error::TraceError;
use crate::footprint::FootprintSketch;
use crate::format::{TraceWrite, BATCH_RECORDS};
use crate::io::FileSink;
use crate::meta::{Totals, TraceMeta};
use crate::record::{Access, Marker};

use super::codec::{max_marker_bytes, ChunkEncoder, MAX_ACCESS_BYTES};
use super::footer::FooterJson;
use super::{
    CHUNK_MAGIC, END_MAGIC, FOOTER_MAGIC, LEVEL, MAGIC, MAX_HEADER, MAX_PASS_NAME, MAX_PAYLOAD,
    VERSION,
};

/// Streams records into `.gtr` form on any [`Write`]. Memory stays at one
/// chunk's buffers whatever the trace length; after the first chunk nothing
/// is allocated.
///
/// Written through [`crate::create`] it goes to a unique
/// `<name>.<random>.partial` beside the target ([`crate::atomic`]) and only
/// [`TraceWrite::finish`] gives it its name.
pub struct GtrWriter<W: Write> {
    out: W,
    path: PathBuf,
    pos: u64,
    chunk: ChunkEncoder,
    payload: Vec<u8>,
    compressed: Vec<u8>,
    zstd: zstd::bulk::Compressor<'static>,
    totals: Totals,
    footprint: FootprintSketch,
    chunks: u64,
    header_crc32: u32,
}

impl<W: Write> GtrWriter<W> {
    /// Writes the header at once. `path` only names the output in errors.
    pub fn new(out: W, meta: &TraceMeta, path: &Path) -> Result<GtrWriter<W>, TraceError> {
        let header = serde_json::to_vec(meta)
            .map_err(|e| TraceError::unsupported(path, format!("header metadata: {e}")))?;
        if header.len() > MAX_HEADER as usize {
            return Err(TraceError::unsupported(
                path,
                format!(
                    "header metadata of {} bytes (at most {MAX_HEADER})",
                    header.len()
                ),
            ));
        }
        let mut zstd = zstd::bulk::Compressor::new(LEVEL).map_err(|e| TraceError::io(path, e))?;
        // The reader relies on the frame recording its size to bound its allocation.
        zstd.include_contentsize(true)
            .map_err(|e| TraceError::io(path, e))?;
        let mut w = GtrWriter {
            out,
            path: path.to_path_buf(),
            pos: 0,
            chunk: ChunkEncoder::new(),
            payload: Vec::new(),
            compressed: Vec::new(),
            zstd,
            totals: Totals::default(),
            footprint: FootprintSketch::default(),
            chunks: 0,
            header_crc32: crc32fast::hash(&header),
        };
        w.put(MAGIC)?;
        w.put(&VERSION.to_le_bytes())?;
        w.put(&(header.len() as u32).to_le_bytes())?;
        w.put(&header)?;
        Ok(w)
    }

    fn put(&mut self, bytes: &[u8]) -> Result<(), TraceError> {
        self.out
            .write_all(bytes)
            .map_err(|e| TraceError::io(&self.path, e))?;
        self.pos += bytes.len() as u64;
        Ok(())
    }

    #[inline]
    pub fn write_access(&mut self, access: &Access) -> Result<(), TraceError> {
        if self.chunk.records() >= BATCH_RECORDS
            || self.chunk.payload_len() + MAX_ACCESS_BYTES > MAX_PAYLOAD as usize
        {
            self.flush_chunk()?;
        }
        if !self.chunk.push_access(access) {
            // A new size, unit, stream or op past the chunk's last template.
            self.flush_chunk()?;
            let added = self.chunk.push_access(access);
            debug_assert!(added, "an empty chunk takes any access");
        }
        self.totals.add_access(access);
        self.footprint.add_access(access);
        Ok(())
    }

    pub fn write_marker(&mut self, marker: &Marker) -> Result<(), TraceError> {
        if let Marker::PassBegin { name, .. } = marker {
            if name.len() > MAX_PASS_NAME {
                return Err(TraceError::unsupported(
                    &self.path,
                    format!(
                        "pass name of {} bytes (.gtr holds at most {MAX_PASS_NAME})",
                        name.len()
                    ),
                ));
            }
        }
        if self.chunk.records() >= BATCH_RECORDS
            || self.chunk.payload_len() + max_marker_bytes(marker) > MAX_PAYLOAD as usize
        {
            self.flush_chunk()?;
        }
        self.chunk.push_marker(marker);
        self.totals.markers += 1;
        Ok(())
    }

    pub fn write_batch(&mut self, batch: &Batch) -> Result<(), TraceError> {
        let mut done = 0;
        for (at, marker) in &batch.markers {
            let upto = (*at).min(batch.accesses.len());
            for a in batch.accesses.get(done..upto).unwrap_or_default() {
                self.write_access(a)?;
            }
            done = done.max(upto);
            self.write_marker(marker)?;
        }
        for a in batch.accesses.get(done..).unwrap_or_default() {
            self.write_access(a)?;
        }
        Ok(())
    }

    fn flush_chunk(&mut self) -> Result<(), TraceError> {
        if self.chunk.records() == 0 {
            return Ok(());
        }
        self.payload.clear();
        self.chunk.payload_into(&mut self.payload);
        self.compressed.clear();
        self.compressed
            .reserve(zstd::zstd_safe::compress_bound(self.payload.len()));
        self.zstd
            .compress_to_buffer(&self.payload[..], &mut self.compressed)
            .map_err(|e| TraceError::io(&self.path, e))?;
        let crc = crc32fast::hash(&self.compressed);
        let mut header = [0u8; 24];
        header[0..4].copy_from_slice(CHUNK_MAGIC);
        for (i, v) in [
            self.chunk.records() as u32,
            self.chunk.accesses(),
            self.payload.len() as u32,
            self.compressed.len() as u32,
            crc,
        ]
        .into_iter()
        .enumerate()
        {
            header[4 + 4 * i..8 + 4 * i].copy_from_slice(&v.to_le_bytes());
        }
        self.put(&header)?;
        let data = std::mem::take(&mut self.compressed);
        let r = self.put(&data);
        self.compressed = data;
        r?;
        self.chunks += 1;
        self.chunk.reset();
        Ok(())
    }

    /// Writes the last chunk and the footer; hands back the totals and the sink.
    pub fn finish_into_inner(mut self) -> Result<(Totals, W), TraceError> {
        self.flush_chunk()?;
        let footer_at = self.pos;
        let json = serde_json::to_vec(&FooterJson::new(
            &self.totals,
            self.chunks,
            self.footprint.footprint(),
            self.header_crc32,
        ))
        .map_err(|e| TraceError::io(&self.path, std::io::Error::other(e)))?;
        self.put(FOOTER_MAGIC)?;
        self.put(&(json.len() as u32).to_le_bytes())?;
        self.put(&json)?;
        self.put(&crc32fast::hash(&json).to_le_bytes())?;
        self.put(&footer_at.to_le_bytes())?;
        self.put(END_MAGIC)?;
        self.out
            .flush()
            .map_err(|e| TraceError::io(&self.path, e))?;
        Ok((self.totals, self.out))
    }

    /// Totals of what was written so far.
    pub fn totals(&self) -> &Totals {
        &self.totals
    }
}

impl TraceWrite for GtrWriter<FileSink> {
    fn write_access(&mut self, access: &Access) -> Result<(), TraceError> {
        GtrWriter::write_access(self, access)
    }

    fn write_marker(&mut self, marker: &Marker) -> Result<(), TraceError> {
        GtrWriter::write_marker(self, marker)
    }

    fn write_batch(&mut self, batch: &Batch) -> Result<(), TraceError> {
        GtrWriter::write_batch(self, batch)
    }

    fn finish(self: Box<Self>) -> Result<Totals, TraceError> {
        let (totals, sink) = self.finish_into_inner()?;
        sink.commit()?;
        Ok(totals)
    }
}
