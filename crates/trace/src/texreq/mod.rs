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
//! **Byte layout** (version 3), all integers little-endian, no padding:
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `GFXTEXRQ` |
//! | 4 | version, u32 = 3 |
//! | 2 | fragment processors, u16 (1 to [`MAX_FPS`]) |
//! | 8 | the frame's resolution: width, height, u32 each (1 to 65536) |
//! | 8 | extent: width, height of the largest render target, u32 each (1 to 65536, at least the resolution) |
//! | 4 | tile size, u32 (pixels a side, 1 to 65536) |
//! | 4 | frames, u32 (at least 1) |
//!
//! ([`TexReqHeader`]), then records, each a tag byte and its fields:
//!
//! | tag | record | fields |
//! |---|---|---|
//! | 1 | `PassBegin` | pass u32 (index within the frame) |
//! | 2 | `TileBegin` | tile u32 |
//! | 3 | `TileEnd` | tile u32 |
//! | 4 | `Request` | fp u16, x u16, y u16, index u8, filter u8 (0 nearest, 1 bilinear, 2 trilinear, 3 fetch), texel bytes u8 (1-16), taps u8 (1-8), ops, taps x address u64 |
//! | 5 | `FragmentEnd` | fp u16, x u16, y u16, ops |
//! | 6 | `FrameEnd` | frame u32 |
//!
//! where ops are six u32: ALU operations of width 1, 2, 3 and 4, special
//! functions, branches ([`ShaderOps`]); then the footer
//! ([`TexReqFooter`]), and nothing after it:
//!
//! | bytes | field |
//! |---|---|
//! | 1 | tag 7 |
//! | 8 | records before the footer, u64 |
//! | 8 | tiles (`TileBegin` records), u64 |
//! | 8 | requests, u64 |
//! | 8 | fragments (`FragmentEnd` records), u64 |
//! | 4 | CRC-32 (IEEE, `crc32fast`) of every byte before the footer, header included |
//!
//! **Checks.** Every reader checks every field as it comes: a processor
//! below the header's count, a pixel inside the extent, a tile inside the
//! extent's grid of tiles, a frame below the header's count, a known
//! filter, 1-16 texel bytes, 1-[`MAX_TAPS`] taps; and at the end, the
//! footer: its counts against the records read and its checksum against
//! the bytes (which it counts and hashes as it streams, holding nothing).
//! A file without its footer (cut anywhere, even at a record or tile
//! boundary, or header only), a footer whose counts or checksum disagree,
//! or bytes after it are errors naming the file, the byte offset and what
//! was expected there; a reader says the file ended (`None`) only once
//! the footer is checked, so a consumer that reads to `None` never takes
//! part of a frame for the whole. Versions 1 (one u32 of instructions in
//! place of ops) and 2 (no header fields, no footer) are refused (render
//! the frame again).
//!
//! A path ending in `.zst` holds
//! these bytes zstd-compressed (a frame at 2160x1080 makes some ten
//! million requests): [`TexReqWriter::create`] compresses and
//! [`TexReqReader::open`] decompresses by the name, and the byte offsets
//! of errors are then offsets in the decompressed bytes (damage to the
//! zstd stream itself is named at its compressed offset).
//! [`TexReqWriter`] writes under a temporary name and renames it into
//! place when finished ([`crate::atomic`]), the footer last; it refuses a
//! record the reader would refuse. [`TexReqReader`] streams it
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
pub const VERSION: u32 = 3;
/// Most fragment processors a file may name.
pub const MAX_FPS: u16 = 4096;
/// Longest side of a frame or render target (a pixel coordinate is a u16).
pub const MAX_SIDE: u32 = 1 << 16;
/// Bytes of the header: magic, version and [`TexReqHeader`].
pub const HEADER_BYTES: u64 = 8 + 4 + 2 + 8 + 8 + 4 + 4;
/// Bytes of the footer: its tag, four u64 counts and the CRC-32.
pub const FOOTER_BYTES: u64 = 1 + 4 * 8 + 4;
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

/// What a `.gtq` file says about its frame, after its magic and version:
/// the bounds every record is checked against, and the fields a `.gtr`
/// of the same frame shares (its `resolution`, `frames` and, as extra
/// fields, `fps` and `tile_size`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TexReqHeader {
    /// Fragment processors: every record's processor is below it.
    pub fps: u16,
    /// The frame's resolution in pixels.
    pub width: u32,
    pub height: u32,
    /// The largest render target the frame draws (at least the
    /// resolution; a shadow map or an upscaled target can be larger):
    /// every pixel is inside it, every tile inside its grid of tiles.
    pub extent: [u32; 2],
    /// Tile side in pixels.
    pub tile_size: u32,
    /// Frames rendered: every `FrameEnd`'s frame is below it.
    pub frames: u32,
}

impl TexReqHeader {
    /// One frame of `width` x `height` (also the extent) on `fps`
    /// fragment processors in tiles of `tile_size`.
    pub fn new(fps: u16, width: u32, height: u32, tile_size: u32) -> TexReqHeader {
        TexReqHeader {
            fps,
            width,
            height,
            extent: [width, height],
            tile_size,
            frames: 1,
        }
    }

    /// Tiles of the extent's grid: every tile number is below it.
    pub fn tiles(&self) -> u64 {
        let ts = u64::from(self.tile_size.max(1));
        let [w, h] = self.extent.map(u64::from);
        w.div_ceil(ts) * h.div_ceil(ts)
    }

    /// What is wrong with the header, if anything: the field's offset in
    /// the file and what was expected.
    pub fn check(&self) -> Result<(), (u64, String)> {
        let side = |v: u32| (1..=MAX_SIDE).contains(&v);
        if !(1..=MAX_FPS).contains(&self.fps) {
            return Err((
                12,
                format!("{} fragment processors: expected 1 to {MAX_FPS}", self.fps),
            ));
        }
        if !side(self.width) || !side(self.height) {
            return Err((
                14,
                format!(
                    "resolution {}x{}: expected 1 to {MAX_SIDE} pixels a side",
                    self.width, self.height
                ),
            ));
        }
        let [ew, eh] = self.extent;
        if !side(ew) || !side(eh) || ew < self.width || eh < self.height {
            return Err((
                22,
                format!(
                    "extent {ew}x{eh}: expected 1 to {MAX_SIDE} pixels a side and at least the resolution {}x{}",
                    self.width, self.height
                ),
            ));
        }
        if !side(self.tile_size) {
            return Err((
                30,
                format!(
                    "tile size {}: expected 1 to {MAX_SIDE} pixels",
                    self.tile_size
                ),
            ));
        }
        if self.frames == 0 {
            return Err((34, "0 frames: expected at least 1".into()));
        }
        Ok(())
    }

    /// What is wrong with `r` under this header, if anything: the offset
    /// of the field from the record's tag and what was expected.
    pub fn check_record(&self, r: &TexReqRecord) -> Result<(), (u64, String)> {
        let pixel = |fp: u16, x: u16, y: u16| {
            if fp >= self.fps {
                return Err((
                    1,
                    format!(
                        "fragment processor {fp}: expected 0 to {} (the header's {} processors)",
                        self.fps - 1,
                        self.fps
                    ),
                ));
            }
            let [ew, eh] = self.extent;
            if u32::from(x) >= ew || u32::from(y) >= eh {
                return Err((
                    3,
                    format!("pixel ({x}, {y}): expected one inside the header's extent {ew}x{eh}"),
                ));
            }
            Ok(())
        };
        let tile = |t: u32| {
            if u64::from(t) >= self.tiles() {
                let [ew, eh] = self.extent;
                return Err((
                    1,
                    format!(
                        "tile {t}: expected 0 to {} (the {ew}x{eh} extent in tiles of {})",
                        self.tiles() - 1,
                        self.tile_size
                    ),
                ));
            }
            Ok(())
        };
        match *r {
            TexReqRecord::PassBegin { .. } => Ok(()),
            TexReqRecord::TileBegin { tile: t } | TexReqRecord::TileEnd { tile: t } => tile(t),
            TexReqRecord::FrameEnd { frame } if frame >= self.frames => Err((
                1,
                format!(
                    "frame {frame}: expected 0 to {} (the header's {} frames)",
                    self.frames - 1,
                    self.frames
                ),
            )),
            TexReqRecord::FrameEnd { .. } => Ok(()),
            TexReqRecord::FragmentEnd { fp, x, y, .. } => pixel(fp, x, y),
            TexReqRecord::Request(q) => {
                pixel(q.fp, q.x, q.y)?;
                if !(1..=16).contains(&q.texel_bytes) {
                    return Err((
                        9,
                        format!("texel size {}: expected 1 to 16 bytes", q.texel_bytes),
                    ));
                }
                if !(1..=MAX_TAPS as u8).contains(&q.len) {
                    return Err((10, format!("{} taps: expected 1 to {MAX_TAPS}", q.len)));
                }
                Ok(())
            }
        }
    }
}

/// What a `.gtq` file's footer says: the counts of what is before it and
/// its checksum.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TexReqFooter {
    /// Records before the footer.
    pub records: u64,
    /// `TileBegin` records.
    pub tiles: u64,
    /// `Request` records.
    pub requests: u64,
    /// `FragmentEnd` records.
    pub fragments: u64,
    /// CRC-32 of every byte before the footer.
    pub crc32: u32,
}

impl TexReqFooter {
    /// Counts `r`.
    pub(crate) fn count(&mut self, r: &TexReqRecord) {
        self.records += 1;
        match r {
            TexReqRecord::TileBegin { .. } => self.tiles += 1,
            TexReqRecord::Request(_) => self.requests += 1,
            TexReqRecord::FragmentEnd { .. } => self.fragments += 1,
            _ => {}
        }
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
pub(crate) const TAG_FOOTER: u8 = 7;

#[cfg(test)]
mod tests;
