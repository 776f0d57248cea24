//! Memory-access traces of graphics frames: the project's lingua franca.
//!
//! A trace is a sequence of [`Record`]s, each an [`Access`] (address, op,
//! stream, unit, size) or a [`Marker`] (frame, pass, draw, tile). This crate
//! defines that model and reads and writes it in the native `.gtr` format,
//! in `.csv` and in Dinero's `.din`, each optionally zstd-compressed
//! (`.zst`). Readers stream in constant memory and hand out [`Batch`]es;
//! damaged input is a [`TraceError`] naming the file and the byte offset or
//! line, never a panic and never a silently shortened trace.
//!
//! This crate depends on nothing else of gfxcache, and never may: every
//! other crate speaks through it.

pub mod batch;
pub mod error;
pub mod format;
pub mod meta;
pub mod record;

pub use batch::Batch;
pub use error::TraceError;
pub use format::{create, open, Format, TraceRead, TraceWrite, BATCH_RECORDS};
pub use meta::{StreamTotals, Totals, TraceMeta};
pub use record::{Access, Marker, Op, PassKind, Record, Stream, UnknownStream};
