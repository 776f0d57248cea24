//! Texture requests before the texture caches (`.gtq`): what a model of a
//! texture cache with its own miss handling (a non-blocking texture cache,
//! DTM-NUCA's per-processor caches) replays, with the shader work between
//! requests so that the time between them comes from the frame.
//!
//! Per texture request: the fragment processor, the pixel, the request's
//! index within its fragment, the filter as the sampler applied it (or a
//! texel fetch, which filters nothing), the texel size and the 1-8 texel
//! byte addresses in tap order (not de-duplicated), and the shader
//! operations the fragment ran since its previous request (or its start),
//! by class ([`ShaderOps`]: ALU operations by width, special functions,
//! branches), on the path the fragment took. Per fragment, the operations
//! after its last request ([`TexReqRecord::FragmentEnd`]). What they cost
//! in cycles is a machine's business (its issue model). Markers: `PassBegin`,
//! `TileBegin`/`TileEnd`, `FrameEnd`. Records are in the order the
//! processors' requests occur (trace order).
//!
//! **Byte layout**, all integers little-endian, no padding:
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `GFXTEXRQ` |
//! | 4 | version, u32 = 2 |
//!
//! then records, each a tag byte and its fields:
//!
//! | tag | record | fields |
//! |---|---|---|
//! | 1 | `PassBegin` | pass u32 (index within the frame) |
//! | 2 | `TileBegin` | tile u32 |
//! | 3 | `TileEnd` | tile u32 |
//! | 4 | `Request` | fp u16, x u16, y u16, index u8, filter u8 (0 nearest, 1 bilinear, 2 trilinear, 3 fetch), texel bytes u8 (1-16), taps u8 (1-8), ops, taps x address u64 |
//! | 5 | `FragmentEnd` | fp u16, x u16, y u16, ops |
//!
//! where ops are six u32: ALU operations of width 1, 2, 3 and 4, special
//! functions, branches ([`ShaderOps`]). Version 1 had one u32 of
//! instructions in their place; it is refused (render the frame again).
//! | 6 | `FrameEnd` | frame u32 |
//!
//! The file ends after a whole record. A path ending in `.zst` holds
//! these bytes zstd-compressed (a frame at 2160x1080 makes some ten
//! million requests): [`TexReqWriter::create`] compresses and
//! [`TexReqReader::open`] decompresses by the name, and the byte offsets
//! of errors are then offsets in the decompressed bytes (damage to the
//! zstd stream itself is named at its compressed offset).
//! [`TexReqWriter`] writes under a temporary name and renames it into
//! place when finished ([`crate::atomic`]); [`TexReqReader`] streams it
//! back, and damaged input is a [`crate::TraceError`] naming the byte
//! offset and what was expected there, never a panic.
//!
//! A producer hands its records to a [`TexReqSink`] (a writer is one), a
//! run at a time.

mod behind;
mod reader;
pub mod synth;
mod writer;

pub use behind::TexReqBehind;
pub use reader::{TexReqReader, TexReqSource};
pub use writer::{TexReqFile, TexReqWriter};

use crate::{ShaderOps, TraceError};

/// The file's first 8 bytes.
pub const MAGIC: [u8; 8] = *b"GFXTEXRQ";
/// The format version this crate reads and writes.
pub const VERSION: u32 = 2;
/// Most texel addresses of one request (a trilinear footprint: 2 x 4).
pub const MAX_TAPS: usize = 8;

/// How the sampler filtered a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FilterKind {
    Nearest,
    Bilinear,
    Trilinear,
    /// A texel fetch (a shader's `load` of texel `(x, y)`): no LOD, no
    /// filtering, one tap.
    Fetch,
}

impl FilterKind {
    pub fn code(self) -> u8 {
        match self {
            FilterKind::Nearest => 0,
            FilterKind::Bilinear => 1,
            FilterKind::Trilinear => 2,
            FilterKind::Fetch => 3,
        }
    }

    pub fn from_code(c: u8) -> Option<FilterKind> {
        match c {
            0 => Some(FilterKind::Nearest),
            1 => Some(FilterKind::Bilinear),
            2 => Some(FilterKind::Trilinear),
            3 => Some(FilterKind::Fetch),
            _ => None,
        }
    }
}

/// One texture request of one fragment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TexRequest {
    /// The fragment processor that issued it.
    pub fp: u16,
    /// The fragment's pixel.
    pub x: u16,
    pub y: u16,
    /// Its index among its fragment's requests, from 0.
    pub index: u8,
    pub filter: FilterKind,
    /// Bytes of one texel (of one BC block for block-compressed textures).
    pub texel_bytes: u8,
    /// Shader operations the fragment ran since its previous request
    /// (since its start for the first).
    pub ops: ShaderOps,
    /// Texel byte addresses in tap order; `taps[..len]` hold them.
    pub taps: [u64; MAX_TAPS],
    pub len: u8,
}

impl TexRequest {
    /// The request's texel addresses, in tap order.
    pub fn addresses(&self) -> &[u64] {
        &self.taps[..self.len as usize]
    }
}

/// A record of a `.gtq` file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TexReqRecord {
    PassBegin {
        pass: u32,
    },
    TileBegin {
        tile: u32,
    },
    TileEnd {
        tile: u32,
    },
    Request(TexRequest),
    /// A fragment's ALU instructions after its last request (all of them
    /// for a fragment that made none).
    FragmentEnd {
        fp: u16,
        x: u16,
        y: u16,
        ops: ShaderOps,
    },
    FrameEnd {
        frame: u32,
    },
}

/// Where a producer of texture requests puts them: a run of records at a
/// time, in order. Writing cannot fail here: a sink keeps its first error
/// and [`TexReqSink::finish`] returns it.
pub trait TexReqSink: Send {
    fn records(&mut self, records: &[TexReqRecord]);
    /// Completes the output (a file is put in place), or the first error.
    fn finish(self: Box<Self>) -> Result<(), TraceError>;
}

pub(crate) const TAG_PASS_BEGIN: u8 = 1;
pub(crate) const TAG_TILE_BEGIN: u8 = 2;
pub(crate) const TAG_TILE_END: u8 = 3;
pub(crate) const TAG_REQUEST: u8 = 4;
pub(crate) const TAG_FRAGMENT_END: u8 = 5;
pub(crate) const TAG_FRAME_END: u8 = 6;

#[cfg(test)]
mod tests;
