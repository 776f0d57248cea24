//! The record model: accesses and markers.

use std::fmt;
use std::str::FromStr;

/// Read or write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[repr(u8)]
pub enum Op {
    #[default]
    Read = 0,
    Write = 1,
}

impl Op {
    pub fn is_write(self) -> bool {
        self == Op::Write
    }
}

/// The graphics stream an access belongs to, in the GSPC paper's terms.
///
/// The discriminants are part of the `.gtr` format: never reorder them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[repr(u8)]
pub enum Stream {
    /// Vertex indices.
    Vidx = 0,
    /// Vertex attributes.
    Vtx = 1,
    /// Hierarchical Z.
    Hiz = 2,
    /// Depth.
    Z = 3,
    /// Stencil.
    Stc = 4,
    /// Render target colour (including render-to-texture targets).
    Rt = 5,
    /// Texture sampler.
    Tex = 6,
    /// Final displayable colour.
    Display = 7,
    /// Parameter Buffer primitive lists (tile-based rendering).
    PbList = 8,
    /// Parameter Buffer primitive attributes (tile-based rendering).
    PbAttr = 9,
    /// Shader code and constants.
    Shader = 10,
    /// Anything else.
    #[default]
    Other = 11,
}

impl Stream {
    /// How many streams there are; arrays indexed by stream have this length.
    pub const COUNT: usize = 12;

    /// Every stream, in discriminant order.
    pub const ALL: [Stream; Stream::COUNT] = [
        Stream::Vidx,
        Stream::Vtx,
        Stream::Hiz,
        Stream::Z,
        Stream::Stc,
        Stream::Rt,
        Stream::Tex,
        Stream::Display,
        Stream::PbList,
        Stream::PbAttr,
        Stream::Shader,
        Stream::Other,
    ];

    /// The short name used on the command line and in JSON, CSV and plots.
    pub const fn name(self) -> &'static str {
        match self {
            Stream::Vidx => "vidx",
            Stream::Vtx => "vtx",
            Stream::Hiz => "hiz",
            Stream::Z => "z",
            Stream::Stc => "stc",
            Stream::Rt => "rt",
            Stream::Tex => "tex",
            Stream::Display => "display",
            Stream::PbList => "pb-list",
            Stream::PbAttr => "pb-attr",
            Stream::Shader => "shader",
            Stream::Other => "other",
        }
    }

    /// The stream with discriminant `id`, if any.
    pub fn from_id(id: u8) -> Option<Stream> {
        Stream::ALL.get(id as usize).copied()
    }

    pub const fn id(self) -> u8 {
        self as u8
    }

    pub const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Stream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A stream name that is not one of [`Stream::ALL`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown stream '{0}' (expected one of vidx, vtx, hiz, z, stc, rt, tex, display, pb-list, pb-attr, shader, other)")]
pub struct UnknownStream(pub String);

impl FromStr for Stream {
    type Err = UnknownStream;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Stream::ALL
            .iter()
            .copied()
            .find(|st| st.name() == s)
            .ok_or_else(|| UnknownStream(s.to_string()))
    }
}

/// One memory access. 16 bytes, `Copy`: batches of these are the simulator's diet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Access {
    /// Byte address.
    pub addr: u64,
    /// Size in bytes; consumers split or align it to their block size. 0 is
    /// treated as 1 (the access touches the block holding `addr`).
    pub size: u32,
    /// Issuing sampler, fragment processor or core; 0 where none.
    pub unit: u16,
    pub stream: Stream,
    pub op: Op,
}

impl Access {
    pub fn read(addr: u64, stream: Stream) -> Access {
        Access {
            addr,
            size: 1,
            unit: 0,
            stream,
            op: Op::Read,
        }
    }

    pub fn write(addr: u64, stream: Stream) -> Access {
        Access {
            addr,
            size: 1,
            unit: 0,
            stream,
            op: Op::Write,
        }
    }

    /// The first and last block the access touches, blocks being
    /// `1 << shift` bytes. A size of 0 counts as 1; an access running past
    /// the top of the address space stops there.
    #[inline(always)]
    pub fn block_range(&self, shift: u32) -> (u64, u64) {
        let end = self.addr.saturating_add(u64::from(self.size.max(1)) - 1);
        (self.addr >> shift, end >> shift)
    }
}

/// What a pass does; carried by pass markers so that models can tell passes apart.
///
/// The discriminants are part of the `.gtr` format: never reorder them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum PassKind {
    #[default]
    Other = 0,
    Shadow = 1,
    RenderToTexture = 2,
    Forward = 3,
    GBuffer = 4,
    Lighting = 5,
    Transparent = 6,
    Post = 7,
    Display = 8,
    Binning = 9,
}

impl PassKind {
    pub const ALL: [PassKind; 10] = [
        PassKind::Other,
        PassKind::Shadow,
        PassKind::RenderToTexture,
        PassKind::Forward,
        PassKind::GBuffer,
        PassKind::Lighting,
        PassKind::Transparent,
        PassKind::Post,
        PassKind::Display,
        PassKind::Binning,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            PassKind::Other => "other",
            PassKind::Shadow => "shadow",
            PassKind::RenderToTexture => "render-to-texture",
            PassKind::Forward => "forward",
            PassKind::GBuffer => "gbuffer",
            PassKind::Lighting => "lighting",
            PassKind::Transparent => "transparent",
            PassKind::Post => "post",
            PassKind::Display => "display",
            PassKind::Binning => "binning",
        }
    }

    pub fn from_id(id: u8) -> Option<PassKind> {
        PassKind::ALL.get(id as usize).copied()
    }
}

/// Structure in the access stream that models need: frames, passes, draws, tiles.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Marker {
    FrameBegin { frame: u32 },
    FrameEnd { frame: u32 },
    PassBegin { name: String, kind: PassKind },
    PassEnd,
    DrawBegin { draw: u32 },
    TileBegin { tile: u32 },
    TileEnd { tile: u32 },
}

/// A record is either an access or a marker.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Record {
    Access(Access),
    Marker(Marker),
}
