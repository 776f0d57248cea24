//! Reading `.gtr`: header, then one chunk per batch, then the footer check.

use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use crate::batch::Batch;
use crate::error::TraceError;
use crate::footprint::Footprint;
use crate::format::{TraceRead, BATCH_RECORDS};
use crate::io::{read_error, read_full, Consumed};
use crate::meta::{Totals, TraceMeta};

use super::codec;
use super::footer::FooterJson;
use super::{
    max_compressed, CHUNK_HEADER_LEN, CHUNK_MAGIC, END_MAGIC, FOOTER_MAGIC, MAGIC, MAX_FOOTER,
    MAX_HEADER, MAX_PAYLOAD, OLDEST_READ, PREAMBLE_LEN, TAIL_LEN, VERSION,
};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Chunks,
    Done,
    Failed,
}

/// Streams a `.gtr` trace from any [`Read`], one chunk per [`Batch`], in
/// constant memory: the compressed and decompressed buffers of one chunk are
/// reused for the whole file.
///
/// Byte offsets in errors count from the start of the `.gtr` bytes (of the
/// decompressed stream when the file is `.gtr.zst`).
pub struct GtrReader<R> {
    src: R,
    path: PathBuf,
    /// Offset of the next byte `src` will give.
    pos: u64,
    meta: TraceMeta,
    header_crc32: u32,
    /// Where the footer is and what it says, when it was read first.
    footer_at: Option<u64>,
    announced: Option<Totals>,
    announced_chunks: Option<u64>,
    announced_footprint: Option<Footprint>,
    decoded: Totals,
    chunks: u64,
    compressed: Vec<u8>,
    payload: Vec<u8>,
    zstd: zstd::bulk::Decompressor<'static>,
    scratch: codec::Scratch,
    state: State,
    len: Option<u64>,
    progress: Option<(Consumed, u64)>,
}

impl<R: Read> GtrReader<R> {
    /// Reads the header of a stream that cannot seek; the footer is checked
    /// when reached. `path` only names the source in errors.
    pub fn new(src: R, path: &Path) -> Result<GtrReader<R>, TraceError> {
        let zstd = zstd::bulk::Decompressor::new().map_err(|e| TraceError::io(path, e))?;
        let mut r = GtrReader {
            src,
            path: path.to_path_buf(),
            pos: 0,
            meta: TraceMeta::default(),
            header_crc32: 0,
            footer_at: None,
            announced: None,
            announced_chunks: None,
            announced_footprint: None,
            decoded: Totals::default(),
            chunks: 0,
            compressed: Vec::new(),
            payload: Vec::new(),
            zstd,
            scratch: codec::Scratch::default(),
            state: State::Chunks,
            len: None,
            progress: None,
        };
        r.meta = r.read_header()?;
        Ok(r)
    }

    /// Report progress from a shared counter of file bytes instead of from
    /// this reader's position (used when a decompressor sits in between).
    pub(crate) fn with_progress(mut self, consumed: Consumed, total: u64) -> GtrReader<R> {
        self.progress = Some((consumed, total));
        self
    }

    fn corrupt(&self, offset: u64, what: impl Into<String>) -> TraceError {
        TraceError::corrupt(&self.path, offset, what)
    }

    /// Fills `buf` or says where the data ran out.
    fn read_exact(&mut self, buf: &mut [u8], what: &str) -> Result<(), TraceError> {
        let n = read_full(&mut self.src, buf).map_err(|e| read_error(&self.path, e))?;
        self.pos += n as u64;
        if n < buf.len() {
            return Err(TraceError::truncated(
                &self.path,
                self.pos,
                format!("file ends inside {what}"),
            ));
        }
        Ok(())
    }

    fn read_array<const N: usize>(&mut self, what: &str) -> Result<[u8; N], TraceError> {
        let mut b = [0u8; N];
        self.read_exact(&mut b, what)?;
        Ok(b)
    }

    fn read_u32(&mut self, what: &str) -> Result<u32, TraceError> {
        Ok(u32::from_le_bytes(self.read_array(what)?))
    }

    /// Reads `n` bytes into `buf` (cleared first). Grows `buf` only as data
    /// actually arrives, so a lying length field cannot make it allocate.
    fn read_vec(&mut self, n: u64, buf: &mut Vec<u8>, what: &str) -> Result<(), TraceError> {
        buf.clear();
        let got = (&mut self.src)
            .take(n)
            .read_to_end(buf)
            .map_err(|e| read_error(&self.path, e))?;
        self.pos += got as u64;
        if (got as u64) < n {
            return Err(TraceError::truncated(
                &self.path,
                self.pos,
                format!("file ends inside {what}"),
            ));
        }
        Ok(())
    }

    fn read_header(&mut self) -> Result<TraceMeta, TraceError> {
        let magic: [u8; 8] = self.read_array("the magic number")?;
        if &magic != MAGIC {
            return Err(self.corrupt(
                0,
                format!(
                    "not a .gtr trace: starts with {:?}, expected \"GFXTRACE\"",
                    String::from_utf8_lossy(&magic)
                ),
            ));
        }
        let version = self.read_u32("the format version")?;
        if !(OLDEST_READ..=VERSION).contains(&version) {
            return Err(self.corrupt(
                8,
                format!(
                    "format version {version}; this build reads versions {OLDEST_READ} to {VERSION}"
                ),
            ));
        }
        let len = self.read_u32("the header length")?;
        if len > MAX_HEADER {
            return Err(self.corrupt(12, format!("header length {len} (at most {MAX_HEADER})")));
        }
        let mut json = Vec::new();
        self.read_vec(u64::from(len), &mut json, "the header")?;
        self.header_crc32 = crc32fast::hash(&json);
        serde_json::from_slice(&json).map_err(|e| {
            self.corrupt(
                PREAMBLE_LEN,
                format!("header is not trace metadata JSON: {e}"),
            )
        })
    }

    /// Reads a footer whose "FOOT" magic started at `at` and has been
    /// consumed, up to and including the end magic.
    fn read_footer(&mut self, at: u64) -> Result<FooterJson, TraceError> {
        let len = self.read_u32("the footer length")?;
        if len > MAX_FOOTER {
            return Err(self.corrupt(
                at + 4,
                format!("footer length {len} (at most {MAX_FOOTER})"),
            ));
        }
        let mut json = Vec::new();
        self.read_vec(u64::from(len), &mut json, "the footer")?;
        let crc = self.read_u32("the footer checksum")?;
        let json_at = at + 8;
        let crc_at = json_at + u64::from(len);
        if !cfg!(fuzzing) && crc != crc32fast::hash(&json) {
            return Err(self.corrupt(crc_at, "footer checksum mismatch"));
        }
        let back = u64::from_le_bytes(self.read_array("the footer offset")?);
        if back != at {
            return Err(self.corrupt(
                crc_at + 4,
                format!("end marker points to a footer at byte {back}, but it is at byte {at}"),
            ));
        }
        let end: [u8; 8] = self.read_array("the end marker")?;
        if &end != END_MAGIC {
            return Err(self.corrupt(crc_at + 12, "bad end marker"));
        }
        let footer: FooterJson = serde_json::from_slice(&json)
            .map_err(|e| self.corrupt(json_at, format!("footer is not totals JSON: {e}")))?;
        if !cfg!(fuzzing) && footer.header_crc32 != self.header_crc32 {
            return Err(self.corrupt(
                PREAMBLE_LEN,
                "header checksum mismatch: the header was altered after writing",
            ));
        }
        Ok(footer)
    }

    /// The next chunk into `batch`, or the footer and `false`.
    fn next(&mut self, batch: &mut Batch) -> Result<bool, TraceError> {
        let at = self.pos;
        let mut magic = [0u8; 4];
        let n = read_full(&mut self.src, &mut magic).map_err(|e| read_error(&self.path, e))?;
        self.pos += n as u64;
        if n == 0 {
            return Err(TraceError::truncated(
                &self.path,
                at,
                format!("no footer: the trace ends after {} chunks", self.chunks),
            ));
        }
        if n < 4 {
            return Err(TraceError::truncated(
                &self.path,
                self.pos,
                "file ends inside a chunk magic",
            ));
        }
        match &magic {
            m if m == CHUNK_MAGIC => {
                if self.footer_at == Some(at) {
                    return Err(self.corrupt(at, "chunk where the end marker says the footer is"));
                }
                self.chunk(at, batch)?;
                Ok(true)
            }
            m if m == FOOTER_MAGIC => {
                self.end(at)?;
                Ok(false)
            }
            _ => Err(self.corrupt(
                at,
                format!("expected a chunk (\"CHNK\") or the footer (\"FOOT\"), found {magic:02x?}"),
            )),
        }
    }

    fn chunk(&mut self, at: u64, batch: &mut Batch) -> Result<(), TraceError> {
        let h: [u8; 20] = self.read_array("a chunk header")?;
        let field =
            |i: usize| u32::from_le_bytes([h[4 * i], h[4 * i + 1], h[4 * i + 2], h[4 * i + 3]]);
        let (records, accesses, ulen, clen, crc) =
            (field(0), field(1), field(2), field(3), field(4));
        if records == 0 || records as usize > BATCH_RECORDS {
            return Err(self.corrupt(
                at + 4,
                format!("chunk of {records} records (1 to {BATCH_RECORDS})"),
            ));
        }
        if accesses > records {
            return Err(self.corrupt(
                at + 8,
                format!("chunk of {records} records announces {accesses} accesses"),
            ));
        }
        // Tags, directory, and at least a position and a kind per marker.
        let least =
            u64::from(accesses) + codec::DIRECTORY_LEN as u64 + 2 * u64::from(records - accesses);
        if ulen > MAX_PAYLOAD || u64::from(ulen) < least {
            return Err(self.corrupt(
                at + 12,
                format!("payload of {ulen} bytes for {records} records ({accesses} accesses)"),
            ));
        }
        let data_at = at + CHUNK_HEADER_LEN;
        if u64::from(clen) > max_compressed() {
            return Err(self.corrupt(at + 16, format!("compressed length {clen} is too large")));
        }
        if let Some(footer_at) = self.footer_at {
            if data_at + u64::from(clen) > footer_at {
                return Err(self.corrupt(
                    at + 16,
                    format!("chunk of {clen} bytes runs past the footer at byte {footer_at}"),
                ));
            }
        }
        let mut compressed = std::mem::take(&mut self.compressed);
        let r = self.read_vec(u64::from(clen), &mut compressed, "chunk data");
        self.compressed = compressed;
        r?;
        if !cfg!(fuzzing) {
            let actual = crc32fast::hash(&self.compressed);
            if actual != crc {
                return Err(self.corrupt(
                    at + 20,
                    format!("chunk checksum mismatch: stored {crc:08x}, data has {actual:08x}"),
                ));
            }
        }
        // Reserve only what the frame itself confirms; zstd checks it is true.
        match zstd::zstd_safe::get_frame_content_size(&self.compressed) {
            Ok(Some(n)) if n == u64::from(ulen) => {}
            _ => {
                return Err(self.corrupt(
                    data_at,
                    format!("zstd frame does not declare the chunk's {ulen} payload bytes"),
                ))
            }
        }
        self.payload.clear();
        self.payload.reserve(ulen as usize + codec::PADDING);
        let n = self
            .zstd
            .decompress_to_buffer(&self.compressed[..], &mut self.payload)
            .map_err(|e| self.corrupt(data_at, format!("zstd: {e}")))?;
        if n != ulen as usize {
            return Err(self.corrupt(
                data_at,
                format!("payload decompresses to {n} bytes, header says {ulen}"),
            ));
        }
        self.payload.resize(ulen as usize + codec::PADDING, 0);
        codec::decode(
            &self.payload,
            ulen as usize,
            records as usize,
            accesses as usize,
            batch,
            &mut self.decoded,
            &mut self.scratch,
        )
        .map_err(|e| {
            TraceError::corrupt(
                &self.path,
                at,
                format!("chunk {}: record {}: {}", self.chunks, e.record, e.what),
            )
        })?;
        self.chunks += 1;
        Ok(())
    }

    /// The footer met in the stream: it must be the announced one, agree
    /// with what was decoded, and be the last thing in the file.
    fn end(&mut self, at: u64) -> Result<(), TraceError> {
        if let Some(f) = self.footer_at {
            if f != at {
                return Err(self.corrupt(
                    at,
                    format!("footer at byte {at}, but the end marker points to byte {f}"),
                ));
            }
        }
        let footer = self.read_footer(at)?;
        let announced = footer.totals().map_err(|e| self.corrupt(at + 8, e))?;
        if footer.chunks != self.chunks {
            return Err(self.corrupt(
                at,
                format!(
                    "footer announces {} chunks, the trace has {}",
                    footer.chunks, self.chunks
                ),
            ));
        }
        if announced != self.decoded {
            return Err(self.corrupt(
                at,
                format!(
                    "footer announces {} accesses and {} markers, the chunks hold {} and {}{}",
                    announced.accesses,
                    announced.markers,
                    self.decoded.accesses,
                    self.decoded.markers,
                    if announced.accesses == self.decoded.accesses {
                        " (per-stream totals differ)"
                    } else {
                        ""
                    }
                ),
            ));
        }
        let mut extra = [0u8; 1];
        let n = read_full(&mut self.src, &mut extra).map_err(|e| read_error(&self.path, e))?;
        if n != 0 {
            return Err(self.corrupt(self.pos, "data after the end marker"));
        }
        self.announced = Some(announced);
        self.announced_chunks = Some(footer.chunks);
        Ok(())
    }

    pub fn meta(&self) -> &TraceMeta {
        &self.meta
    }

    /// Totals decoded so far.
    pub fn decoded(&self) -> &Totals {
        &self.decoded
    }

    /// Chunks the footer announces, once it is known.
    pub fn announced_chunks(&self) -> Option<u64> {
        self.announced_chunks
    }

    pub fn read_batch(&mut self, batch: &mut Batch) -> Result<bool, TraceError> {
        // Not cleared before a chunk: the decoder overwrites the accesses
        // in place, sparing a batch-sized memset.
        match self.state {
            State::Done => {
                batch.clear();
                return Ok(false);
            }
            State::Failed => {
                batch.clear();
                return Err(self.corrupt(self.pos, "reading past an earlier error"));
            }
            State::Chunks => {}
        }
        match self.next(batch) {
            Ok(true) => Ok(true),
            Ok(false) => {
                batch.clear();
                self.state = State::Done;
                Ok(false)
            }
            Err(e) => {
                batch.clear();
                self.state = State::Failed;
                Err(e)
            }
        }
    }
}

impl<R: Read + Seek> GtrReader<R> {
    /// Reads the header and then the footer, so that the totals are known
    /// before the first chunk, and damage at the end of the file is found
    /// before anything is simulated. The whole of `src`, from its first
    /// byte, is the trace.
    pub fn new_seekable(mut src: R, path: &Path) -> Result<GtrReader<R>, TraceError> {
        src.seek(SeekFrom::Start(0))
            .map_err(|e| TraceError::io(path, e))?;
        let mut r = GtrReader::new(src, path)?;
        let data_at = r.pos;
        let len = r
            .src
            .seek(SeekFrom::End(0))
            .map_err(|e| TraceError::io(path, e))?;
        r.len = Some(len);
        r.pos = len;
        // The smallest footer: "FOOT", length, "{}"-sized JSON at least, tail.
        if len < data_at + 8 + TAIL_LEN {
            return Err(TraceError::truncated(
                path,
                len,
                "file too short to hold a footer",
            ));
        }
        r.seek(len - 16)?;
        let tail: [u8; 16] = r.read_array("the end marker")?;
        if &tail[8..] != END_MAGIC {
            return Err(r.missing_end(data_at, len));
        }
        let footer_at = u64::from_le_bytes([
            tail[0], tail[1], tail[2], tail[3], tail[4], tail[5], tail[6], tail[7],
        ]);
        if footer_at < data_at || footer_at > len - 8 - TAIL_LEN {
            return Err(r.corrupt(
                len - 16,
                format!("end marker points to a footer at byte {footer_at}, outside the data"),
            ));
        }
        r.seek(footer_at)?;
        let magic: [u8; 4] = r.read_array("the footer magic")?;
        if &magic != FOOTER_MAGIC {
            return Err(r.corrupt(
                footer_at,
                format!("end marker points to byte {footer_at}, which is not a footer"),
            ));
        }
        let footer = r.read_footer(footer_at)?;
        if r.pos != len {
            return Err(r.corrupt(r.pos, "footer length disagrees with where the file ends"));
        }
        let totals = footer.totals().map_err(|e| r.corrupt(footer_at + 8, e))?;
        r.footer_at = Some(footer_at);
        r.announced = Some(totals);
        r.announced_chunks = Some(footer.chunks);
        r.announced_footprint = footer.footprint;
        r.seek(data_at)?;
        Ok(r)
    }

    /// The error for a file whose last bytes are not the end marker: data
    /// appended after an end marker found near the end, or else truncation.
    fn missing_end(&mut self, data_at: u64, len: u64) -> TraceError {
        const LOOK_BACK: u64 = 64 << 10;
        let from = len.saturating_sub(LOOK_BACK).max(data_at);
        let mut window = Vec::new();
        let found = self
            .seek(from)
            .and_then(|_| self.read_vec(len - from, &mut window, "the end of the file"))
            .ok()
            .and_then(|_| {
                window
                    .windows(END_MAGIC.len())
                    .rposition(|w| w == END_MAGIC)
            });
        match found {
            Some(p) => {
                let end = from + (p + END_MAGIC.len()) as u64;
                self.corrupt(
                    end,
                    format!("{} bytes of data after the end marker", len - end),
                )
            }
            None => TraceError::truncated(&self.path, len, "no end marker: the file was cut short"),
        }
    }

    fn seek(&mut self, to: u64) -> Result<(), TraceError> {
        self.src
            .seek(SeekFrom::Start(to))
            .map_err(|e| TraceError::io(&self.path, e))?;
        self.pos = to;
        Ok(())
    }
}

impl<R: Read + Send> TraceRead for GtrReader<R> {
    fn meta(&self) -> &TraceMeta {
        &self.meta
    }

    fn read_batch(&mut self, batch: &mut Batch) -> Result<bool, TraceError> {
        GtrReader::read_batch(self, batch)
    }

    fn announced_totals(&self) -> Option<&Totals> {
        self.announced.as_ref()
    }

    fn announced_footprint(&self) -> Option<Footprint> {
        self.announced_footprint
    }

    fn progress(&self) -> (u64, u64) {
        match &self.progress {
            Some((consumed, total)) => (consumed.get().min(*total), *total),
            None => (self.pos, self.len.unwrap_or(0)),
        }
    }
}
