//! Memory-access traces of graphics frames: the project's lingua franca.
//!
//! A trace is a sequence of [`Record`]s, each an [`Access`] (address, op,
//! stream, unit, size) or a [`Marker`] (frame, pass, draw, tile). This crate
//! defines that model and reads and writes it in the native `.gtr` format,
//! in `.csv`, in Dinero's `.din` and in libCacheSim's binary
//! `oracleGeneral` ([`oracle`]), each optionally zstd-compressed (`.zst`). Readers stream in constant memory and hand out [`Batch`]es;
//! damaged input is a [`TraceError`] naming the file and the byte offset or
//! line, never a panic and never a silently shortened trace.
//!
//! Entry points: [`open`] and [`create`] choose the format from the file
//! name; [`read_from`] and [`read_stream`] read any byte source (tests,
//! fuzzing, pipes). The format modules ([`gtr`], [`csv`], [`din`]) hold the
//! concrete readers and writers, generic over `Read`/`Write`, and document
//! their syntax; [`gtr`] has the exact byte layout of the native format.
//! [`synth`] generates deterministic, graphics-like traces for other crates'
//! tests and benchmarks; [`footprint`] estimates the distinct blocks a trace
//! touches as it is written (the `.gtr` footer announces it). [`atomic`]
//! is how every output file of the project is written: under a unique
//! temporary name beside it, renamed into place only when complete.
//!
//! Streams as they are made: [`RecordSink`] (records one by one, with a
//! tile-based frame's binned render passes in their place) and
//! [`RecordStage`] (a stage that passes on what it makes of a stream), in
//! [`sink`]; [`binned`] has the binned render passes themselves
//! ([`binned::BinnedFrame`], the tile orders) and their JSON file, which
//! the renderer writes and the Tiling Engine models read; [`texreq`] is
//! the `.gtq` file of texture requests before the texture caches, with the
//! shader work between them, for texture cache timing models; [`ops`] the
//! classes shader work is counted in ([`ShaderOps`]).
//!
//! The crate has no `unsafe`: it parses untrusted files, and the `.gtr`
//! decoder gets its speed from the format's layout instead.
//!
//! This crate depends on nothing else of gfxcache, and never may: every
//! other crate speaks through it.

#![forbid(unsafe_code)]

pub mod atomic;
pub mod batch;
pub mod binned;
pub mod csv;
pub mod din;
mod dispatch;
pub mod error;
pub mod footprint;
pub mod format;
pub mod gtr;
mod io;
pub mod meta;
pub mod ops;
pub mod oracle;
pub mod record;
pub mod sink;
pub mod synth;
pub mod texreq;
mod text;
pub mod text_writer;
mod varint;

pub use batch::Batch;
pub use csv::CsvColumns;
pub use dispatch::{create, open, open_with, read_all, read_from, read_stream, ReadOptions};
pub use error::TraceError;
pub use footprint::{Footprint, FootprintSketch};
pub use format::{Dropped, Format, TraceRead, TraceWrite, BATCH_RECORDS};
pub use meta::{StreamTotals, Totals, TraceMeta};
pub use ops::{OpCounts, ShaderOps};
pub use record::{Access, Marker, Op, PassKind, Record, Stream, UnknownStream};
pub use sink::{PassThrough, RecordSink, RecordStage, Staged};
