//! Byte plumbing shared by the formats: counting what was read (for progress
//! bars, also through a decompressor), transparent zstd, and the sink of the
//! writers, which only appears under its name once complete
//! ([`crate::atomic`]).

use std::io::{self, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use crate::atomic::AtomicFile;
use crate::error::TraceError;

/// zstd level for `.zst` files. Text traces compress very well even at low
/// levels; the level mostly buys write speed.
const STREAM_LEVEL: i32 = 3;

/// Bytes consumed from the underlying file. Shared, so that a reader can
/// report progress in file bytes even when a decompressor sits in between.
#[derive(Clone, Debug, Default)]
pub(crate) struct Consumed(Arc<AtomicU64>);

impl Consumed {
    pub(crate) fn get(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }
    fn add(&self, n: u64) {
        self.0.fetch_add(n, Ordering::Relaxed);
    }
    fn set(&self, n: u64) {
        self.0.store(n, Ordering::Relaxed);
    }
}

/// A source that keeps [`Consumed`] equal to its read position.
pub(crate) struct Counted<R> {
    inner: R,
    consumed: Consumed,
}

impl<R> Counted<R> {
    pub(crate) fn new(inner: R) -> (Counted<R>, Consumed) {
        let consumed = Consumed::default();
        (
            Counted {
                inner,
                consumed: consumed.clone(),
            },
            consumed,
        )
    }
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.consumed.add(n as u64);
        Ok(n)
    }
}

impl<R: Seek> Seek for Counted<R> {
    fn seek(&mut self, pos: SeekFrom) -> io::Result<u64> {
        let p = self.inner.seek(pos)?;
        self.consumed.set(p);
        Ok(p)
    }
}

/// What went wrong inside a zstd stream, carried through `io::Error` so that
/// the format readers can report it as damage at a file offset rather than as
/// an opaque I/O failure.
#[derive(Debug)]
pub(crate) struct ZstdDamage {
    /// Compressed bytes consumed when the decoder gave up.
    pub(crate) offset: u64,
    pub(crate) truncated: bool,
    pub(crate) what: String,
}

impl std::fmt::Display for ZstdDamage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.what)
    }
}

impl std::error::Error for ZstdDamage {}

/// A zstd-decompressing source whose errors are [`ZstdDamage`].
pub(crate) struct Unzstd<R: Read> {
    inner: zstd::stream::read::Decoder<'static, io::BufReader<Counted<R>>>,
    consumed: Consumed,
}

impl<R: Read> Unzstd<R> {
    pub(crate) fn new(inner: Counted<R>, consumed: Consumed) -> io::Result<Unzstd<R>> {
        Ok(Unzstd {
            inner: zstd::stream::read::Decoder::new(inner)?,
            consumed,
        })
    }
}

impl<R: Read> Read for Unzstd<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner.read(buf).map_err(|e| {
            // Failures of the file itself stay I/O errors; the rest is the data.
            if e.get_ref().is_some_and(|inner| inner.is::<ZstdDamage>()) {
                return e;
            }
            let truncated = e.kind() == io::ErrorKind::UnexpectedEof;
            let what = if truncated {
                "zstd stream ends inside a frame".to_string()
            } else {
                format!("zstd: {e}")
            };
            io::Error::new(
                e.kind(),
                ZstdDamage {
                    offset: self.consumed.get(),
                    truncated,
                    what,
                },
            )
        })
    }
}

/// Turns an I/O error met while reading into a [`TraceError`]: damage inside
/// a `.zst` stream becomes `Truncated`/`Corrupt` at its compressed offset.
pub(crate) fn read_error(path: &Path, e: io::Error) -> TraceError {
    if let Some(d) = e
        .get_ref()
        .and_then(|inner| inner.downcast_ref::<ZstdDamage>())
    {
        let what = format!("{} (offset in the compressed file)", d.what);
        return if d.truncated {
            TraceError::truncated(path, d.offset, what)
        } else {
            TraceError::corrupt(path, d.offset, what)
        };
    }
    TraceError::io(path, e)
}

/// Reads until `buf` is full or the source ends; returns how much was read.
/// Unlike `read_exact`, it says where the data stopped.
pub(crate) fn read_full<R: Read + ?Sized>(src: &mut R, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match src.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// The file a writer builds: an [`AtomicFile`] (`<target>.<random>.partial`
/// beside the target) behind a buffer and, for `.zst`, an encoder. Renamed
/// to `<target>` by [`FileSink::commit`] and removed if dropped before, so
/// that an interrupted or failed run never leaves a plausible-looking short
/// trace behind, and two writers of one name never mix their records.
pub(crate) struct FileSink {
    out: Option<SinkInner>,
    target: PathBuf,
}

enum SinkInner {
    Plain(BufWriter<AtomicFile>),
    Zstd(zstd::stream::write::Encoder<'static, BufWriter<AtomicFile>>),
}

/// Big enough that the writers' many small writes become few system calls.
const WRITE_BUFFER: usize = 256 << 10;

impl FileSink {
    pub(crate) fn create(target: &Path, zstd: bool) -> Result<FileSink, TraceError> {
        let file = AtomicFile::create(target).map_err(|e| TraceError::io(target, e))?;
        let buffered = BufWriter::with_capacity(WRITE_BUFFER, file);
        let out = if zstd {
            // On error the buffer and its file are dropped: no temporary stays.
            let enc = zstd::stream::write::Encoder::new(buffered, STREAM_LEVEL)
                .map_err(|e| TraceError::io(target, e))?;
            SinkInner::Zstd(enc)
        } else {
            SinkInner::Plain(buffered)
        };
        Ok(FileSink {
            out: Some(out),
            target: target.to_path_buf(),
        })
    }

    /// Completes the file (zstd epilogue, flush) and commits it: synced,
    /// renamed into place.
    pub(crate) fn commit(mut self) -> Result<(), TraceError> {
        let out = self.out.take();
        let result = (|| -> io::Result<()> {
            let buffered = match out {
                Some(SinkInner::Plain(b)) => b,
                Some(SinkInner::Zstd(enc)) => enc.finish()?,
                None => return Err(io::Error::other("trace file already committed")),
            };
            buffered.into_inner().map_err(|e| e.into_error())?.commit()
        })();
        result.map_err(|e| TraceError::io(&self.target, e))
    }
}

impl Write for FileSink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.out {
            Some(SinkInner::Plain(w)) => w.write(buf),
            Some(SinkInner::Zstd(w)) => w.write(buf),
            None => Err(io::Error::other("trace file already committed")),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match &mut self.out {
            Some(SinkInner::Plain(w)) => w.write_all(buf),
            Some(SinkInner::Zstd(w)) => w.write_all(buf),
            None => Err(io::Error::other("trace file already committed")),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.out {
            Some(SinkInner::Plain(w)) => w.flush(),
            Some(SinkInner::Zstd(w)) => w.flush(),
            None => Ok(()),
        }
    }
}
