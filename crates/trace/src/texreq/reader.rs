//! The streaming `.gtq` reader.

use std::fs::File;
use std::io::{self, BufReader, ErrorKind, Read};
use std::path::{Path, PathBuf};

use crate::io::{read_error, Consumed, Counted, Unzstd};
use crate::TraceError;

use super::*;

/// The bytes of a `.gtq` file as [`TexReqReader::open`] reads them:
/// decompressed when the name ends in `.zst`.
pub struct TexReqSource(Source);

enum Source {
    Plain(File),
    /// The reader takes the decompressed bytes a buffer at a time.
    Zstd(
        Box<Unzstd<BufReader<File>>>,
        /// Compressed bytes taken from the file so far.
        Consumed,
    ),
}

impl Read for TexReqSource {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match &mut self.0 {
            Source::Plain(r) => r.read(buf),
            Source::Zstd(r, _) => r.read(buf),
        }
    }
}

/// Bytes the reader takes from its input at a time.
pub(crate) const BUFFER_BYTES: usize = 1 << 16;

/// Reads texture request records one by one from a file or any `Read`,
/// each checked against the header, and says the file ended (`None`)
/// only after checking its footer: the counts of the records read and
/// the checksum of the bytes. Every error names the byte offset and what
/// was expected there; after an error the reader yields nothing more.
///
/// It reads its input a buffer at a time and takes each record's fields
/// from the buffer; the checksum is updated a buffer at a time too, over
/// the bytes consumed, up to the footer's tag (a record's few bytes at a
/// time, the checksum and the reads cost as much as the rest).
pub struct TexReqReader<R: Read = TexReqSource> {
    input: R,
    path: PathBuf,
    /// Bytes read from the input and not yet consumed are `buf[pos..end]`.
    buf: Box<[u8]>,
    pos: usize,
    end: usize,
    /// `buf[..hashed]` is in the checksum (`hashed <= pos`).
    hashed: usize,
    /// The file offset of `buf[0]`.
    base: u64,
    /// The footer's tag was met: no byte after it is hashed.
    at_footer: bool,
    failed: bool,
    header: TexReqHeader,
    /// Counts of the records read so far.
    counts: TexReqFooter,
    /// Of every byte read so far.
    crc: crc32fast::Hasher,
    /// The footer, once read and checked.
    footer: Option<TexReqFooter>,
}

impl TexReqReader<TexReqSource> {
    /// A reader of the file at `path` (decompressed when the name ends in
    /// `.zst`), its header checked.
    pub fn open(path: &Path) -> Result<Self, TraceError> {
        let f = File::open(path).map_err(|e| TraceError::io(path, e))?;
        let source = if path.extension().is_some_and(|e| e == "zst") {
            let (counted, consumed) = Counted::new(BufReader::with_capacity(1 << 16, f));
            let unzstd = Unzstd::new(counted, consumed.clone()).map_err(|e| read_error(path, e))?;
            TexReqSource(Source::Zstd(Box::new(unzstd), consumed))
        } else {
            TexReqSource(Source::Plain(f))
        };
        Self::new(source, path)
    }

    /// Bytes of the file read so far (compressed bytes for a `.zst` file),
    /// for progress against the file's length; read ahead by a buffer.
    pub fn file_bytes_read(&self) -> u64 {
        match &self.input.0 {
            Source::Plain(_) => self.base + self.end as u64,
            Source::Zstd(_, consumed) => consumed.get(),
        }
    }
}

impl<R: Read> TexReqReader<R> {
    /// A reader of `input` (named `path` in errors), its header checked.
    pub fn new(input: R, path: &Path) -> Result<Self, TraceError> {
        let mut r = TexReqReader {
            input,
            path: path.to_path_buf(),
            buf: vec![0; BUFFER_BYTES].into_boxed_slice(),
            pos: 0,
            end: 0,
            hashed: 0,
            base: 0,
            at_footer: false,
            failed: false,
            header: TexReqHeader::new(1, 1, 1, 1),
            counts: TexReqFooter::default(),
            crc: crc32fast::Hasher::new(),
            footer: None,
        };
        let magic: [u8; 8] = r.bytes("the magic GFXTEXRQ")?;
        if magic != MAGIC {
            return Err(TraceError::corrupt(
                &r.path,
                0,
                "expected the magic GFXTEXRQ of a texture request file",
            ));
        }
        let version = r.u32("the format version")?;
        if version != VERSION {
            return Err(TraceError::corrupt(
                &r.path,
                8,
                format!("format version {version}: expected {VERSION} (render the frame again)"),
            ));
        }
        let fps: [u8; 2] = r.bytes("the header's fragment processors")?;
        let width = r.u32("the header's width")?;
        let height = r.u32("the header's height")?;
        let extent = [r.u32("the header's extent")?, r.u32("the header's extent")?];
        let tile_size = r.u32("the header's tile size")?;
        let frames = r.u32("the header's frames")?;
        r.header = TexReqHeader {
            fps: u16::from_le_bytes(fps),
            width,
            height,
            extent,
            tile_size,
            frames,
        };
        if let Err((offset, what)) = r.header.check() {
            return Err(TraceError::corrupt(&r.path, offset, what));
        }
        Ok(r)
    }

    /// What the file says about its frame.
    pub fn header(&self) -> &TexReqHeader {
        &self.header
    }

    /// The footer, once the reader has read and checked it (after it
    /// returned `None`).
    pub fn footer(&self) -> Option<&TexReqFooter> {
        self.footer.as_ref()
    }

    /// The next record, `None` at the end of the file once its footer is
    /// checked, or what is wrong.
    pub fn read_record(&mut self) -> Result<Option<TexReqRecord>, TraceError> {
        if self.failed || self.footer.is_some() {
            return Ok(None);
        }
        let r = self.record();
        self.failed = r.is_err();
        r
    }

    fn record(&mut self) -> Result<Option<TexReqRecord>, TraceError> {
        let start = self.offset();
        let tag = self.bytes::<1>("a record or the footer (tag 1 to 7)")?[0];
        if tag == TAG_FOOTER {
            self.read_footer(start)?;
            return Ok(None);
        }
        let record = self.record_of(tag, start)?;
        if let Err((at, what)) = self.header.check_record(&record) {
            return Err(TraceError::corrupt(&self.path, start + at, what));
        }
        self.counts.count(&record);
        Ok(Some(record))
    }

    /// The footer whose tag is at `start`, checked against what was read;
    /// then the end of the input.
    fn read_footer(&mut self, start: u64) -> Result<(), TraceError> {
        // The checksum covers every byte before the footer's tag.
        self.hash_through(self.pos - 1);
        self.at_footer = true;
        let crc = std::mem::take(&mut self.crc).finalize();
        let mut counts = [0u64; 4];
        let names = ["records", "tiles", "requests", "fragments"];
        for (v, name) in counts.iter_mut().zip(names) {
            *v = u64::from_le_bytes(self.bytes(&format!("the footer's count of {name}"))?);
        }
        let stored = u32::from_le_bytes(self.bytes("the footer's checksum")?);
        let read = [
            self.counts.records,
            self.counts.tiles,
            self.counts.requests,
            self.counts.fragments,
        ];
        for (k, ((want, got), name)) in counts.iter().zip(read).zip(names).enumerate() {
            if *want != got {
                return Err(TraceError::corrupt(
                    &self.path,
                    start + 1 + 8 * k as u64,
                    format!("the footer says {want} {name}: the file holds {got} (expected the footer of these records)"),
                ));
            }
        }
        if !cfg!(fuzzing) && stored != crc {
            return Err(TraceError::corrupt(
                &self.path,
                start + 33,
                format!(
                    "footer checksum {stored:08x}: the bytes before the footer have {crc:08x} (expected them unchanged)"
                ),
            ));
        }
        if self.pos < self.end || self.refill()? {
            return Err(TraceError::corrupt(
                &self.path,
                self.offset(),
                "a byte after the footer: expected the end of the file",
            ));
        }
        self.footer = Some(TexReqFooter {
            crc32: stored,
            ..self.counts
        });
        Ok(())
    }

    fn record_of(&mut self, tag: u8, start: u64) -> Result<TexReqRecord, TraceError> {
        Ok(match tag {
            TAG_PASS_BEGIN => TexReqRecord::PassBegin {
                pass: self.u32("a PassBegin's pass")?,
            },
            TAG_TILE_BEGIN => TexReqRecord::TileBegin {
                tile: self.u32("a TileBegin's tile")?,
            },
            TAG_TILE_END => TexReqRecord::TileEnd {
                tile: self.u32("a TileEnd's tile")?,
            },
            TAG_FRAME_END => TexReqRecord::FrameEnd {
                frame: self.u32("a FrameEnd's frame")?,
            },
            TAG_FRAGMENT_END => {
                let [fp, x, y] = self.pixel("a FragmentEnd's processor and pixel")?;
                let ops = self.ops("a FragmentEnd's operations")?;
                TexReqRecord::FragmentEnd { fp, x, y, ops }
            }
            TAG_REQUEST => TexReqRecord::Request(self.request()?),
            t => {
                return Err(TraceError::corrupt(
                    &self.path,
                    start,
                    format!("record tag {t}: expected 1 to 6, or 7 for the footer"),
                ))
            }
        })
    }

    fn request(&mut self) -> Result<TexRequest, TraceError> {
        let [fp, x, y] = self.pixel("a request's processor and pixel")?;
        let at = self.offset();
        let [index, filter, texel_bytes, len] =
            self.bytes("a request's index, filter, texel size and taps")?;
        let filter = FilterKind::from_code(filter).ok_or_else(|| {
            TraceError::corrupt(
                &self.path,
                at + 1,
                format!(
                    "filter {filter}: expected 0 (nearest), 1 (bilinear), 2 (trilinear) or 3 (fetch)"
                ),
            )
        })?;
        if !(1..=16).contains(&texel_bytes) {
            return Err(TraceError::corrupt(
                &self.path,
                at + 2,
                format!("texel size {texel_bytes}: expected 1 to 16 bytes"),
            ));
        }
        if !(1..=MAX_TAPS as u8).contains(&len) {
            return Err(TraceError::corrupt(
                &self.path,
                at + 3,
                format!("{len} taps: expected 1 to {MAX_TAPS}"),
            ));
        }
        let ops = self.ops("a request's operations")?;
        let mut taps = [0u64; MAX_TAPS];
        for t in taps.iter_mut().take(len as usize) {
            *t = u64::from_le_bytes(self.bytes("a request's texel address")?);
        }
        Ok(TexRequest {
            fp,
            x,
            y,
            index,
            filter,
            texel_bytes,
            ops,
            taps,
            len,
        })
    }

    fn pixel(&mut self, what: &str) -> Result<[u16; 3], TraceError> {
        let b: [u8; 6] = self.bytes(what)?;
        Ok([0, 2, 4].map(|i| u16::from_le_bytes([b[i], b[i + 1]])))
    }

    /// ALU operations of width 1 to 4, special functions, branches.
    fn ops(&mut self, what: &str) -> Result<ShaderOps, TraceError> {
        let b: [u8; 24] = self.bytes(what)?;
        let v = |k: usize| u32::from_le_bytes([b[4 * k], b[4 * k + 1], b[4 * k + 2], b[4 * k + 3]]);
        Ok(ShaderOps {
            alu: [v(0), v(1), v(2), v(3)],
            special: v(4),
            branch: v(5),
        })
    }

    fn u32(&mut self, what: &str) -> Result<u32, TraceError> {
        Ok(u32::from_le_bytes(self.bytes(what)?))
    }

    /// The file offset of the next byte to consume.
    fn offset(&self) -> u64 {
        self.base + self.pos as u64
    }

    /// The next `N` bytes, consumed, or say the file ended where `what`
    /// was expected (at the end of the file).
    #[inline]
    fn bytes<const N: usize>(&mut self, what: &str) -> Result<[u8; N], TraceError> {
        while self.end - self.pos < N {
            if !self.refill()? {
                return Err(TraceError::truncated(
                    &self.path,
                    self.base + self.end as u64,
                    format!("expected {what}"),
                ));
            }
        }
        let mut b = [0u8; N];
        b.copy_from_slice(&self.buf[self.pos..self.pos + N]);
        self.pos += N;
        Ok(b)
    }

    /// Puts the bytes consumed and not yet hashed into the checksum, up
    /// to `buf[..to]`.
    fn hash_through(&mut self, to: usize) {
        if !self.at_footer && to > self.hashed {
            self.crc.update(&self.buf[self.hashed..to]);
        }
        self.hashed = self.hashed.max(to);
    }

    /// Moves the bytes not yet consumed to the front of the buffer (the
    /// consumed ones hashed first) and reads more after them; false at
    /// the end of the input.
    fn refill(&mut self) -> Result<bool, TraceError> {
        self.hash_through(self.pos);
        self.buf.copy_within(self.pos..self.end, 0);
        self.base += self.pos as u64;
        (self.end, self.pos, self.hashed) = (self.end - self.pos, 0, 0);
        loop {
            match self.input.read(&mut self.buf[self.end..]) {
                Ok(0) => return Ok(false),
                Ok(n) => {
                    self.end += n;
                    return Ok(true);
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => return Err(read_error(&self.path, e)),
            }
        }
    }
}

impl<R: Read> Iterator for TexReqReader<R> {
    type Item = Result<TexReqRecord, TraceError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.read_record().transpose()
    }
}
