//! The writer shared by the text formats: a line per access, markers counted
//! and dropped (neither CSV nor Dinero can hold them), and so are the
//! streams and units a format cannot hold (Dinero's).

use std::io::Write;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};

use crate::batch::Batch;
use crate::error::TraceError;
use crate::format::{Dropped, TraceWrite};
use crate::io::FileSink;
use crate::meta::Totals;
use crate::record::{Access, Marker};

/// How one text format spells a file: its header and one line per access.
pub trait LineFormat {
    /// Written once at the start, newline included; empty for none.
    const HEADER: &'static [u8];
    /// Appends the line of `a`, newline included.
    fn put_line(a: &Access, out: &mut Vec<u8>);
    /// Whether the line of `a` loses its stream (it reads back as another).
    fn loses_stream(_a: &Access) -> bool {
        false
    }
    /// Whether the line of `a` loses its unit (it reads back as unit 0).
    fn loses_unit(_a: &Access) -> bool {
        false
    }
}

/// Writes accesses in format `F`; markers are counted, not written.
pub struct TextWriter<W: Write, F: LineFormat> {
    out: W,
    path: PathBuf,
    totals: Totals,
    dropped: Dropped,
    line: Vec<u8>,
    format: PhantomData<F>,
}

impl<W: Write, F: LineFormat> TextWriter<W, F> {
    /// Writes the header at once. `path` only names the output in errors.
    pub fn new(mut out: W, path: &Path) -> Result<TextWriter<W, F>, TraceError> {
        out.write_all(F::HEADER)
            .map_err(|e| TraceError::io(path, e))?;
        Ok(TextWriter {
            out,
            path: path.to_path_buf(),
            totals: Totals::default(),
            dropped: Dropped::default(),
            line: Vec::with_capacity(64),
            format: PhantomData,
        })
    }

    pub fn write_access(&mut self, a: &Access) -> Result<(), TraceError> {
        self.line.clear();
        F::put_line(a, &mut self.line);
        self.out
            .write_all(&self.line)
            .map_err(|e| TraceError::io(&self.path, e))?;
        self.totals.add_access(a);
        if F::loses_stream(a) {
            self.dropped.streams[a.stream.index()] += 1;
        }
        self.dropped.units += u64::from(F::loses_unit(a));
        Ok(())
    }

    /// The format has no way to hold a marker: it is counted and dropped.
    pub fn write_marker(&mut self, _marker: &Marker) -> Result<(), TraceError> {
        self.dropped.markers += 1;
        Ok(())
    }

    pub fn write_batch(&mut self, batch: &Batch) -> Result<(), TraceError> {
        for a in &batch.accesses {
            self.write_access(a)?;
        }
        self.dropped.markers += batch.markers.len() as u64;
        Ok(())
    }

    pub fn skipped_markers(&self) -> u64 {
        self.dropped.markers
    }

    /// What was left out or written as something else so far.
    pub fn dropped(&self) -> Dropped {
        self.dropped
    }

    /// Flushes; hands back the totals written (no markers) and the sink.
    pub fn finish_into_inner(mut self) -> Result<(Totals, W), TraceError> {
        self.out
            .flush()
            .map_err(|e| TraceError::io(&self.path, e))?;
        Ok((self.totals, self.out))
    }
}

impl<F: LineFormat> TraceWrite for TextWriter<FileSink, F> {
    fn write_access(&mut self, access: &Access) -> Result<(), TraceError> {
        TextWriter::write_access(self, access)
    }

    fn write_marker(&mut self, marker: &Marker) -> Result<(), TraceError> {
        TextWriter::write_marker(self, marker)
    }

    fn write_batch(&mut self, batch: &Batch) -> Result<(), TraceError> {
        TextWriter::write_batch(self, batch)
    }

    fn skipped_markers(&self) -> u64 {
        self.dropped.markers
    }

    fn dropped(&self) -> Dropped {
        self.dropped
    }

    fn finish(self: Box<Self>) -> Result<Totals, TraceError> {
        let (totals, sink) = self.finish_into_inner()?;
        sink.commit()?;
        Ok(totals)
    }
}
