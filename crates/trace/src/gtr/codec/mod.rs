//! Chunk payloads: records to the columnar form described in [`super`] and back.
//!
//! The decoder is the trace's hot loop: every access of every simulation
//! passes through it. So everything variable-length (templates, explicit
//! address deltas, markers) is decoded and checked apart from the main
//! loop: the explicit deltas in a pass of their own, which knows every
//! delta's length from the length column, so that no delta waits for the
//! one before it to be decoded; and a histogram of the tag column, counted
//! as the main loop goes, proves afterwards that every tag names a
//! template and that the explicit deltas are exactly as many as the tags
//! that use them. The main loop is one straight pass over the tag column:
//! copy the tag's template, add the tag's delta to its lane's previous
//! address, write the access into the batch; no branches, no errors, no
//! per-record counting (the totals come from the histogram).
//!
//! `encode.rs` builds a chunk's payload ([`ChunkEncoder`]); `decode.rs`
//! reads it back ([`decode`]). The formats they share (marker kinds,
//! template entries, length bytes, lanes, zigzag) are here.

mod decode;
mod encode;

pub(crate) use decode::{decode, Scratch};
pub(crate) use encode::ChunkEncoder;

use crate::record::{Marker, Op, Stream};

use super::DELTA_UNIT_SHIFT;

/// Marker kinds.
const FRAME_BEGIN: u8 = 0;
const FRAME_END: u8 = 1;
const PASS_BEGIN: u8 = 2;
const PASS_END: u8 = 3;
const DRAW_BEGIN: u8 = 4;
const TILE_BEGIN: u8 = 5;
const TILE_END: u8 = 6;

/// Most templates a chunk can have: the tag's template field is 7 bits.
pub(crate) const MAX_TEMPLATES: usize = 128;

/// Template entry byte: bits 0-3 stream id, bit 4 write.
const ENTRY_STREAM: u8 = 0x0f;
const ENTRY_WRITE: u8 = 0x10;

/// Most bytes one access can add to the payload: its tag, an explicit
/// delta's length byte and eight data bytes, and a new template of an
/// entry byte and two varints.
pub(crate) const MAX_ACCESS_BYTES: usize = 1 + 1 + 8 + 1 + 3 + 5;

/// Most bytes a marker can take, given its pass name's length.
pub(crate) fn max_marker_bytes(m: &Marker) -> usize {
    let values = match m {
        Marker::PassBegin { name, .. } => 5 + name.len() + 1,
        _ => 5,
    };
    3 + 1 + values
}

/// Bytes of the section directory that follows the tag column.
pub(crate) const DIRECTORY_LEN: usize = 12;

/// Zero bytes kept after a payload in the decode buffer, so that the decoder
/// can load eight bytes at any position of a section without first checking
/// for its end.
pub(crate) const PADDING: usize = 16;

/// The delta of an access whose tag does not take an explicit one: the
/// next block of its lane.
const IMPLICIT_DELTA: u64 = 1 << DELTA_UNIT_SHIFT;

/// Explicit delta length byte: bits 0-3 the number of data bytes (0 to 8),
/// bit 4 set when the delta is in bytes rather than blocks.
const LEN_BYTES: u8 = 0x0f;
const LEN_IN_BYTES: u8 = 0x10;

/// The lane of an access: its stream and op, each with its own previous
/// address, because streams interleave but each walks its own surface,
/// and a stream's reads and writes (a read-modify-write's, say) walk apart.
fn lane(stream: Stream, op: Op) -> usize {
    stream.index() * 2 + op as usize
}

/// The number of lanes.
const LANES: usize = Stream::COUNT * 2;

/// Zigzag: small magnitudes of either sign to small unsigned values.
fn zigzag(x: i64) -> u64 {
    ((x << 1) ^ (x >> 63)) as u64
}

fn unzigzag(z: u64) -> i64 {
    (z >> 1) as i64 ^ -((z & 1) as i64)
}
