//! The native `.gtr` format: compact, checksummed, fast to decode, and
//! streamable in constant memory in both directions.
//!
//! # Byte layout (format version 1)
//!
//! All integers are little-endian. Offsets are from the start of the file
//! (of the decompressed stream for `.gtr.zst`).
//!
//! ```text
//! file   := header chunk* footer
//!
//! header := "GFXTRACE"            8 bytes magic
//!           version       u32    = 1
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
//!                                  "streams":{"<name>":{"reads","writes","bytes"}}}
//!                                (streams with no access left out)
//!           crc           u32    CRC-32 of the J JSON bytes
//!           at            u64    offset of this footer's "FOOT"
//!           "GTR-END\0"           8 bytes magic; the file ends here
//! ```
//!
//! ## Chunk payload
//!
//! Columnar, because a column of like values compresses better and decodes
//! faster than interleaved records: the tag column (one byte per record),
//! a directory, then one section per kind of value.
//!
//! ```text
//! payload := tags       R bytes, one per record
//!            N          u32   length of the near section
//!            F          u32   length of the far section
//!            T          u32   length of the attribute section
//!            near       N bytes
//!            far        F bytes
//!            attrs      T bytes
//!            marks      the rest: marker values
//!
//! access tag:  bits 0-3  stream id (0..=11, the `Stream` discriminant)
//!              bit 4     write
//!              bit 5     the stream's size or unit changes: next attribute entry
//!              bits 6-7  address class:
//!                        0  same block: delta 0
//!                        1  next block: delta +64
//!                        2  near: next byte of `near` is the delta in 64-byte
//!                           blocks, as i8
//!                        3  far: next entry of `far`
//! marker tag:  bits 0-3 = 15, bits 4-7 kind (stream ids 12..=14 are invalid)
//!
//! far entry:   varint v; v even: delta = unzigzag(v >> 1) * 64
//!                        v odd:  delta = unzigzag(varint) * 64 + (v >> 1),
//!                                with 1 <= v >> 1 <= 63
//! attr entry:  varint v; unit = v >> 1; if v & 1, varint size follows
//!              (else the stream keeps its size)
//!
//! marker values by kind:  0 FrameBegin  varint frame
//!                         1 FrameEnd    varint frame
//!                         2 PassBegin   varint n, n bytes UTF-8 name (n <= 64 KiB),
//!                                       1 byte PassKind discriminant
//!                         3 PassEnd     -
//!                         4 DrawBegin   varint draw
//!                         5 TileBegin   varint tile
//!                         6 TileEnd     varint tile
//! ```
//!
//! Varints are unsigned LEB128 of at most 10 bytes; `zigzag(v) = (v << 1) ^
//! (v >> 63)`. `delta = addr - prev[stream]`, wrapping, read as `i64`. Each
//! stream has its own predictors (previous address, size and unit) because
//! streams interleave but each walks its own surface with its own access
//! size and issuing unit. At every chunk start the predictors of every
//! stream reset to address 0, size 64, unit 0, so each chunk decodes on its
//! own into one [`crate::Batch`].
//!
//! Why this shape: block-granular deltas of 0 and +64 dominate real traffic
//! and cost no value bytes at all; the class bits tell the decoder how far
//! every section advances before it reads any value, so its loop has no
//! data-dependent branch and no position waiting on a load; and the
//! variable-length sections (far deltas, attributes) are decoded in a tight
//! pass of their own before the main loop.
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
pub const VERSION: u32 = 1;
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

/// zstd level of chunk payloads. Decode speed barely depends on the level;
/// 3 is zstd's default trade of write speed for size.
pub const LEVEL: i32 = 3;

/// Access tag bits.
pub(crate) const TAG_STREAM: u8 = 0x0f;
pub(crate) const TAG_WRITE: u8 = 0x10;
pub(crate) const TAG_ATTR: u8 = 0x20;
/// Low nibble of a marker's tag.
pub(crate) const TAG_MARKER: u8 = 0x0f;
/// Address classes count deltas in blocks of `1 << DELTA_UNIT_SHIFT` bytes.
pub(crate) const DELTA_UNIT_SHIFT: u32 = 6;
/// Predicted size of each stream's first access in a chunk.
pub(crate) const INITIAL_SIZE: u32 = 64;

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
    /// Decodes `payload` (which must not include padding) into `batch`.
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
