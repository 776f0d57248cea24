//! The native `.gtr` format: compact, checksummed, fast to decode, and
//! streamable in constant memory in both directions.
//!
//! # Byte layout (format version 4)
//!
//! All integers are little-endian. Offsets are from the start of the file
//! (of the decompressed stream for `.gtr.zst`).
//!
//! ```text
//! file   := header chunk* footer
//!
//! header := "GFXTRACE"            8 bytes magic
//!           version       u32    = 4 (3 is read too: no footprint)
//!           H             u32    header length, <= 1 MiB
//!           meta          H bytes TraceMeta as JSON (serde_json, fields in
//!                                declaration order, `extra` sorted)
//!
//! chunk  := "CHNK"                4 bytes magic
//!           R             u32    records, 1 ..= 65536 (BATCH_RECORDS)
//!           A             u32    accesses among them, <= R
//!           U             u32    payload length, <= 64 MiB
//!           C             u32    compressed length
//!           crc           u32    CRC-32 (IEEE) of the C compressed bytes
//!           data          C bytes one zstd frame, content size recorded,
//!                                holding the U payload bytes
//!
//! footer := "FOOT"                4 bytes magic
//!           J             u32    JSON length, <= 1 MiB
//!           totals        J bytes {"records","accesses","markers","chunks",
//!                                  "streams":{"<name>":{"reads","writes","bytes"}},
//!                                  "footprint":{"block":64,"blocks"},
//!                                  "header_crc32"}
//!                                (streams with no access left out; the
//!                                footprint is the estimated distinct
//!                                64-byte blocks, see `crate::footprint`)
//!           crc           u32    CRC-32 of the J JSON bytes
//!           at            u64    offset of this footer's "FOOT"
//!           "GTR-END\0"           8 bytes magic; the file ends here
//! ```
//!
//! ## Chunk payload
//!
//! Columnar, because a column of like values compresses better and decodes
//! faster than interleaved records: the tag column (one byte per access),
//! a directory, then one section per kind of value. Markers are not in the
//! tag column; their section places them between accesses.
//!
//! ```text
//! payload := tags       A bytes, one per access
//!            T          u32   length of the template section
//!            L          u32   length of the delta length section
//!            D          u32   length of the delta data section
//!            templates  T bytes, at most 128 entries
//!            lens       L bytes, one per explicit delta
//!            data       D bytes, the explicit deltas' bytes, end to end
//!            marks      the rest: exactly R - A markers
//!
//! template:    1 byte   bits 0-3 stream id (0..=11, the `Stream`
//!                       discriminant), bit 4 write, bits 5-7 zero
//!              varint   unit (<= 65535)
//!              varint   size (< 2^32)
//!
//! access tag:  bits 0-6  template index (< the number of templates): the
//!                        access's stream, op, unit and size
//!              bit 7     0: delta +64 (the lane's next block)
//!                        1: the next explicit delta
//!
//! explicit delta: length byte, bits 0-3 n (0..=8), bit 4 u, bits 5-7 zero;
//!                 z = the next n data bytes, little-endian (0 when n = 0);
//!                 x = (z >> 1) XOR -(z & 1) (zigzag);
//!                 delta = x bytes when u is set, else x * 64 bytes
//!
//! marker:      varint   accesses between the previous marker (or the chunk
//!                       start) and this one; all of them add up to <= A
//!              1 byte   kind, then the kind's values:
//!                         0 FrameBegin  varint frame
//!                         1 FrameEnd    varint frame
//!                         2 PassBegin   varint n, n bytes UTF-8 name (n <= 64 KiB),
//!                                       1 byte PassKind discriminant
//!                         3 PassEnd     -
//!                         4 DrawBegin   varint draw
//!                         5 TileBegin   varint tile
//!                         6 TileEnd     varint tile
//! ```
//!
//! Varints are unsigned LEB128 of at most 10 bytes.
//! `delta = addr - prev[lane]`, wrapping, read as `i64`, where an access's
//! lane is its stream and op (`2 * stream id + write`): each lane has its
//! own previous address, because streams interleave but each walks its
//! own surface, and a read-modify-write's reads and writes walk apart. At
//! every chunk start every lane's previous address is 0, so each chunk
//! decodes on its own into one [`crate::Batch`]. A writer ends a chunk
//! early when an access needs a 129th template.
//!
//! Why this shape: a lane's next block (+64) is the most common delta of
//! real traffic and costs no value bytes at all; an access's size, unit,
//! stream and op change often (samplers interleave), but few combinations
//! occur in a chunk (123 in a whole 1080p frame of `city`, whose 12
//! fragment processors are units), so the tag names the whole combination
//! and decoding an access is copying a 16-byte template and adding one
//! delta. An explicit delta's length is in a column of its own, so the
//! decoder finds where each delta starts with one add, without decoding
//! the one before; it reads the templates and explicit deltas into tables
//! before its main loop, which is then branch-free and cannot fail, and
//! counts the tag column as it goes (a histogram that checks every tag
//! afterwards and gives the chunk's totals). Version 2 had 64 templates,
//! classes 0/+64/+128 and self-delimiting varint deltas: real frames'
//! chunks ended every few thousand accesses for want of templates, and
//! decoding a delta had to wait for the one before.
//!
//! ## Reading
//!
//! A seekable reader reads the footer first (so consumers can size things
//! from [`crate::TraceRead::announced_totals`]), then streams the chunks, and
//! at the end checks that it met exactly that footer and that the totals it
//! announces are the ones decoded. Every length field is capped before it
//! sizes an allocation.

pub(crate) mod codec;
pub(crate) mod footer;
pub mod reader;
pub mod writer;

pub use reader::GtrReader;
pub use writer::GtrWriter;

pub const MAGIC: &[u8; 8] = b"GFXTRACE";
/// Version 1 was the first, per-stream-predictor payload layout; version 2
/// the template layout; version 3 has 128 templates, lanes of stream and
/// op, and a length column for explicit deltas; version 4 adds the
/// footprint estimate to the footer. Readers accept the versions from
/// [`OLDEST_READ`] to their own, whose payloads they decode alike, and
/// refuse others instead of decoding them wrongly.
pub const VERSION: u32 = 4;
/// The oldest version this build reads: version 3's payload is version
/// 4's; its footer only lacks the footprint.
pub const OLDEST_READ: u32 = 3;
pub const CHUNK_MAGIC: &[u8; 4] = b"CHNK";
pub const FOOTER_MAGIC: &[u8; 4] = b"FOOT";
pub const END_MAGIC: &[u8; 8] = b"GTR-END\0";

/// Bytes before the header JSON: magic, version, length.
pub const PREAMBLE_LEN: u64 = 16;
/// Bytes of a chunk before its compressed data.
pub const CHUNK_HEADER_LEN: u64 = 24;
/// Bytes after the footer JSON: CRC, footer offset, end magic.
pub const TAIL_LEN: u64 = 4 + 8 + 8;

pub const MAX_HEADER: u32 = 1 << 20;
pub const MAX_FOOTER: u32 = 1 << 20;
pub const MAX_PAYLOAD: u32 = 64 << 20;
pub const MAX_PASS_NAME: usize = 64 << 10;

/// zstd level of chunk payloads. Measured against zstd's default of 3 on
/// a 10M-access synthetic frame and a 1080p frame of `city`: files 12 and
/// 7 % smaller, decoding 3 to 5 % faster (fewer, longer matches), writing
/// about twice as slow (0.5 s per 10M accesses, a small part of rendering
/// them). Level 15 saves another 10 % of size at four times the write time
/// and no faster decoding of `city`.
pub const LEVEL: i32 = 9;

/// Access tag fields: the template index, and above it whether the access
/// takes the next explicit delta.
pub(crate) const TAG_TEMPLATE: u8 = 0x7f;
pub(crate) const TAG_EXPLICIT: u8 = 0x80;
/// Deltas in blocks count blocks of `1 << DELTA_UNIT_SHIFT` bytes.
pub(crate) const DELTA_UNIT_SHIFT: u32 = 6;

/// The most compressed bytes a valid chunk can have: zstd's bound for the
/// largest payload.
pub(crate) fn max_compressed() -> u64 {
    zstd::zstd_safe::compress_bound(MAX_PAYLOAD as usize) as u64
}

/// Decodes raw chunk payloads, for fuzzing the decoder past the checksum
/// and zstd layers and for profiling it alone. Not a stable API.
#[doc(hidden)]
#[derive(Default)]
pub struct PayloadDecoder {
    padded: Vec<u8>,
    scratch: codec::Scratch,
    pub totals: crate::Totals,
}

#[doc(hidden)]
impl PayloadDecoder {
    /// Decodes `payload` (which must not include padding) into `batch`,
    /// replacing what it held.
    pub fn decode(
        &mut self,
        payload: &[u8],
        records: usize,
        accesses: usize,
        batch: &mut crate::Batch,
    ) -> Result<(), String> {
        self.padded.clear();
        self.padded.extend_from_slice(payload);
        self.padded.resize(payload.len() + codec::PADDING, 0);
        self.decode_padded(payload.len(), records, accesses, batch)
    }

    /// Decodes a payload already in [`Self::buffer`], padding included.
    pub fn decode_padded(
        &mut self,
        len: usize,
        records: usize,
        accesses: usize,
        batch: &mut crate::Batch,
    ) -> Result<(), String> {
        codec::decode(
            &self.padded,
            len,
            records,
            accesses,
            batch,
            &mut self.totals,
            &mut self.scratch,
        )
        .map_err(|e| format!("record {}: {}", e.record, e.what))
    }

    pub fn buffer(&mut self) -> &mut Vec<u8> {
        &mut self.padded
    }

    pub const PADDING: usize = codec::PADDING;
}
