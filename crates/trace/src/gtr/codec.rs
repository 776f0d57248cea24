//! Chunk payloads: records to the columnar form described in [`super`] and back.
//!
//! The decoder is the trace's hot loop: every access of every simulation
//! passes through it. So it decodes the variable-length sections (far
//! deltas, attributes) into small tables first, then runs over the tag
//! column in marker-free runs with a loop that has no calls, no
//! data-dependent branches and no position that waits on a load, appending
//! to a `Vec` whose capacity was reserved once from the chunk header.

use crate::batch::Batch;
use crate::meta::Totals;
use crate::record::{Access, Marker, Op, PassKind, Stream};
use crate::varint;

use super::{
    DELTA_UNIT_SHIFT, INITIAL_SIZE, MAX_PASS_NAME, TAG_ATTR, TAG_MARKER, TAG_STREAM, TAG_WRITE,
};

/// Marker kinds, the high nibble of a marker's tag.
const FRAME_BEGIN: u8 = 0;
const FRAME_END: u8 = 1;
const PASS_BEGIN: u8 = 2;
const PASS_END: u8 = 3;
const DRAW_BEGIN: u8 = 4;
const TILE_BEGIN: u8 = 5;
const TILE_END: u8 = 6;

/// Most bytes one access can take in the payload: tag, a far delta of two
/// varints, an attribute entry of a unit and a size varint.
pub(crate) const MAX_ACCESS_BYTES: usize = 1 + 2 * varint::MAX_LEN + 3 + 5;

/// Most bytes a marker can take, given its pass name's length.
pub(crate) fn max_marker_bytes(m: &Marker) -> usize {
    match m {
        Marker::PassBegin { name, .. } => 1 + 5 + name.len() + 1,
        _ => 1 + 5,
    }
}

/// Bytes of the section directory that follows the tag column.
pub(crate) const DIRECTORY_LEN: usize = 12;

/// Zero bytes kept after a payload in the decode buffer, so that the decoder
/// can load the next byte of a section without first checking for its end.
pub(crate) const PADDING: usize = 16;

/// Address classes, the top two bits of an access tag.
const CLASS_SAME: u8 = 0;
const CLASS_NEXT: u8 = 1;
const CLASS_NEAR: u8 = 2;
const CLASS_FAR: u8 = 3;

/// What the decoder remembers per stream, and what it counts there.
#[derive(Clone, Copy, Debug)]
struct Lane {
    prev: u64,
    size: u32,
    unit: u16,
    bytes: u64,
    ops: [u64; 2],
}

impl Lane {
    const START: Lane = Lane {
        prev: 0,
        size: INITIAL_SIZE,
        unit: 0,
        bytes: 0,
        ops: [0; 2],
    };
}

/// One chunk being built: the payload's sections and the predictors.
pub(crate) struct ChunkEncoder {
    tags: Vec<u8>,
    near: Vec<u8>,
    far: Vec<u8>,
    attrs: Vec<u8>,
    marks: Vec<u8>,
    pub(crate) accesses: u32,
    lanes: [Lane; 16],
}

impl ChunkEncoder {
    pub(crate) fn new() -> ChunkEncoder {
        ChunkEncoder {
            tags: Vec::with_capacity(crate::BATCH_RECORDS),
            near: Vec::new(),
            far: Vec::new(),
            attrs: Vec::new(),
            marks: Vec::new(),
            accesses: 0,
            lanes: [Lane::START; 16],
        }
    }

    pub(crate) fn records(&self) -> usize {
        self.tags.len()
    }

    pub(crate) fn payload_len(&self) -> usize {
        self.tags.len()
            + DIRECTORY_LEN
            + self.near.len()
            + self.far.len()
            + self.attrs.len()
            + self.marks.len()
    }

    /// Appends the payload: tags, directory, then the sections.
    pub(crate) fn payload_into(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.tags);
        for section in [&self.near, &self.far, &self.attrs] {
            out.extend_from_slice(&(section.len() as u32).to_le_bytes());
        }
        out.extend_from_slice(&self.near);
        out.extend_from_slice(&self.far);
        out.extend_from_slice(&self.attrs);
        out.extend_from_slice(&self.marks);
    }

    /// Starts the next chunk: empty sections, predictors as a decoder starts them.
    pub(crate) fn reset(&mut self) {
        self.tags.clear();
        self.near.clear();
        self.far.clear();
        self.attrs.clear();
        self.marks.clear();
        self.accesses = 0;
        self.lanes = [Lane::START; 16];
    }

    #[inline]
    pub(crate) fn push_access(&mut self, a: &Access) {
        let s = a.stream.id();
        let lane = &mut self.lanes[usize::from(s & TAG_STREAM)];
        let delta = a.addr.wrapping_sub(lane.prev) as i64;
        lane.prev = a.addr;
        let mut tag = s;
        if a.op.is_write() {
            tag |= TAG_WRITE;
        }
        let blocks = delta >> DELTA_UNIT_SHIFT;
        let aligned = delta & ((1 << DELTA_UNIT_SHIFT) - 1) == 0;
        let class = if delta == 0 {
            CLASS_SAME
        } else if delta == 1 << DELTA_UNIT_SHIFT {
            CLASS_NEXT
        } else if aligned && (-128..128).contains(&blocks) {
            self.near.push(blocks as i8 as u8);
            CLASS_NEAR
        } else if aligned {
            varint::put(&mut self.far, varint::zigzag(blocks) << 1);
            CLASS_FAR
        } else {
            let low = (delta & ((1 << DELTA_UNIT_SHIFT) - 1)) as u64;
            varint::put(&mut self.far, (low << 1) | 1);
            varint::put(&mut self.far, varint::zigzag(blocks));
            CLASS_FAR
        };
        tag |= class << 6;
        if a.size != lane.size || a.unit != lane.unit {
            tag |= TAG_ATTR;
            let has_size = a.size != lane.size;
            varint::put(
                &mut self.attrs,
                (u64::from(a.unit) << 1) | u64::from(has_size),
            );
            if has_size {
                varint::put(&mut self.attrs, u64::from(a.size));
            }
            lane.size = a.size;
            lane.unit = a.unit;
        }
        self.tags.push(tag);
        self.accesses += 1;
    }

    /// Pass names must be at most [`MAX_PASS_NAME`] bytes (the writer checks).
    pub(crate) fn push_marker(&mut self, m: &Marker) {
        let (kind, value) = match m {
            Marker::FrameBegin { frame } => (FRAME_BEGIN, Some(*frame)),
            Marker::FrameEnd { frame } => (FRAME_END, Some(*frame)),
            Marker::PassBegin { name, kind } => {
                varint::put(&mut self.marks, name.len() as u64);
                self.marks.extend_from_slice(name.as_bytes());
                self.marks.push(*kind as u8);
                (PASS_BEGIN, None)
            }
            Marker::PassEnd => (PASS_END, None),
            Marker::DrawBegin { draw } => (DRAW_BEGIN, Some(*draw)),
            Marker::TileBegin { tile } => (TILE_BEGIN, Some(*tile)),
            Marker::TileEnd { tile } => (TILE_END, Some(*tile)),
        };
        if let Some(v) = value {
            varint::put(&mut self.marks, u64::from(v));
        }
        self.tags.push(TAG_MARKER | (kind << 4));
    }
}

/// Why a payload did not decode: which record, and what was wrong.
#[derive(Debug)]
pub(crate) struct DecodeError {
    pub(crate) record: usize,
    pub(crate) what: String,
}

impl DecodeError {
    #[cold]
    fn new(record: usize, what: impl Into<String>) -> DecodeError {
        DecodeError {
            record,
            what: what.into(),
        }
    }
}

/// A size/unit change, decoded from the attribute section ahead of the main loop.
#[derive(Clone, Copy, Debug, Default)]
struct Attr {
    size: u32,
    unit: u16,
    /// 0 or all ones: whether `size` replaces the stream's size.
    size_mask: u32,
}

/// Buffers the decoder reuses from chunk to chunk.
#[derive(Default)]
pub(crate) struct Scratch {
    far: Vec<i64>,
    attrs: Vec<Attr>,
}

/// Streams by tag nibble; the entries past 11 are never used (those nibbles
/// are rejected first) and exist so the lookup needs no bounds check.
const STREAM_OF: [Stream; 16] = [
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
    Stream::Other,
    Stream::Other,
    Stream::Other,
    Stream::Other,
];

/// Where the main loop is in the sections it reads.
struct Cursor {
    /// Byte offset of the next near delta in the decode buffer.
    near: usize,
    /// Entries of the far and attribute tables used so far (index 0 is a sentinel).
    far: usize,
    attr: usize,
}

/// Decodes a run of access tags (no markers). Everything here is branch-free
/// but for bounds checks that never fail on valid input: the class and
/// attribute bits of the tag say how far each section advances, so no
/// position waits for a load, and data-dependent choices are selects.
///
/// On failure, returns the index in `tags` and the section that ran out.
#[inline(always)]
fn decode_run(
    tags: &[u8],
    buf: &[u8],
    far: &[i64],
    attrs: &[Attr],
    lanes: &mut [Lane; 16],
    cur: &mut Cursor,
    out: &mut Vec<Access>,
) -> Result<(), (usize, &'static str)> {
    let (mut near, mut kf, mut ka) = (cur.near, cur.far, cur.attr);
    for (k, &tag) in tags.iter().enumerate() {
        let s = usize::from(tag & TAG_STREAM);
        let class = tag >> 6;
        let Some(&b) = buf.get(near) else {
            return Err((k, "near address"));
        };
        near += usize::from(class == CLASS_NEAR);
        kf += usize::from(class == CLASS_FAR);
        let Some(&f) = far.get(kf) else {
            return Err((k, "far address"));
        };
        let small = if class == CLASS_NEAR {
            i64::from(b as i8) << DELTA_UNIT_SHIFT
        } else {
            i64::from(class) << DELTA_UNIT_SHIFT
        };
        let delta = if class == CLASS_FAR { f } else { small };

        let fa = usize::from(tag >> 5 & 1);
        ka += fa;
        let Some(e) = attrs.get(ka) else {
            return Err((k, "attribute"));
        };
        let lane = &mut lanes[s];
        let addr = lane.prev.wrapping_add(delta as u64);
        lane.prev = addr;
        let unit = if fa != 0 { e.unit } else { lane.unit };
        let size_mask = 0u32.wrapping_sub(fa as u32) & e.size_mask;
        let size = (e.size & size_mask) | (lane.size & !size_mask);
        lane.unit = unit;
        lane.size = size;
        let w = usize::from(tag >> 4 & 1);
        lane.ops[w] += 1;
        lane.bytes += u64::from(size);
        out.push(Access {
            addr,
            size,
            unit,
            stream: STREAM_OF[s],
            op: if w != 0 { Op::Write } else { Op::Read },
        });
    }
    *cur = Cursor {
        near,
        far: kf,
        attr: ka,
    };
    Ok(())
}

/// Decodes the far-delta section into byte deltas, after a 0 sentinel.
fn decode_far(mut sec: &[u8], out: &mut Vec<i64>) -> Result<(), String> {
    out.clear();
    out.push(0);
    while !sec.is_empty() {
        let v = varint::get(&mut sec).ok_or("far address section ends inside a varint")?;
        let delta = if v & 1 == 0 {
            varint::unzigzag(v >> 1).wrapping_shl(DELTA_UNIT_SHIFT)
        } else {
            let low = v >> 1;
            if low == 0 || low >> DELTA_UNIT_SHIFT != 0 {
                return Err(format!("far address low bits {low} out of range"));
            }
            let hi = varint::get(&mut sec).ok_or("far address section ends inside a varint")?;
            varint::unzigzag(hi).wrapping_shl(DELTA_UNIT_SHIFT) | low as i64
        };
        out.push(delta);
    }
    Ok(())
}

/// Decodes the attribute section, after a sentinel.
fn decode_attrs(mut sec: &[u8], out: &mut Vec<Attr>) -> Result<(), String> {
    out.clear();
    out.push(Attr::default());
    while !sec.is_empty() {
        let v = varint::get(&mut sec).ok_or("attribute section ends inside a varint")?;
        let unit = u16::try_from(v >> 1).map_err(|_| format!("unit {} over 65535", v >> 1))?;
        let (size, size_mask) = if v & 1 != 0 {
            let s = varint::get(&mut sec).ok_or("attribute section ends inside a varint")?;
            let s = u32::try_from(s).map_err(|_| format!("size {s} over 2^32 - 1"))?;
            (s, u32::MAX)
        } else {
            (0, 0)
        };
        out.push(Attr {
            size,
            unit,
            size_mask,
        });
    }
    Ok(())
}

/// Decodes one chunk payload of `records` records, `accesses` of them
/// accesses, appending to `batch` and adding the accesses to `totals`.
/// `buf` holds the payload in its first `len` bytes, then at least
/// [`PADDING`] more bytes of any value.
///
/// Succeeds only if the payload holds exactly that: the tag column has
/// `records` entries of which `accesses` are accesses, and every section is
/// used to its last byte.
pub(crate) fn decode(
    buf: &[u8],
    len: usize,
    records: usize,
    accesses: usize,
    batch: &mut Batch,
    totals: &mut Totals,
    scratch: &mut Scratch,
) -> Result<(), DecodeError> {
    if buf.len() < len + PADDING {
        return Err(DecodeError::new(0, "decode buffer lacks its padding"));
    }
    let payload = &buf[..len];
    let Some((tags, rest)) = payload.split_at_checked(records) else {
        return Err(DecodeError::new(
            0,
            format!("payload of {len} bytes cannot hold {records} tags"),
        ));
    };
    let Some(dir) = rest.first_chunk::<DIRECTORY_LEN>() else {
        return Err(DecodeError::new(
            0,
            "payload ends inside the section directory",
        ));
    };
    let dir_len = |i: usize| {
        u32::from_le_bytes([dir[4 * i], dir[4 * i + 1], dir[4 * i + 2], dir[4 * i + 3]]) as usize
    };
    let near_start = records + DIRECTORY_LEN;
    let near_end = near_start + dir_len(0);
    let far_end = near_end + dir_len(1);
    let attr_end = far_end + dir_len(2);
    if attr_end > len {
        return Err(DecodeError::new(
            0,
            format!(
                "section directory ({}, {}, {} bytes) does not fit a {len}-byte payload",
                dir_len(0),
                dir_len(1),
                dir_len(2)
            ),
        ));
    }
    decode_far(&payload[near_end..far_end], &mut scratch.far)
        .map_err(|e| DecodeError::new(0, e))?;
    decode_attrs(&payload[far_end..attr_end], &mut scratch.attrs)
        .map_err(|e| DecodeError::new(0, e))?;
    let far = &scratch.far[..];
    let attrs = &scratch.attrs[..];
    let mut marks = &payload[attr_end..];

    let out = &mut batch.accesses;
    let base = out.len();
    out.reserve(accesses);

    let mut lanes = [Lane::START; 16];
    let mut cur = Cursor {
        near: near_start,
        far: 0,
        attr: 0,
    };
    let mut i = 0;
    while i < records {
        // A run of accesses up to the next marker (or bad tag), decoded by a
        // loop that has no calls in it, then that one record the slow way.
        let run = tags[i..]
            .iter()
            .position(|&t| usize::from(t & TAG_STREAM) >= Stream::COUNT)
            .unwrap_or(records - i);
        decode_run(
            &tags[i..i + run],
            buf,
            far,
            attrs,
            &mut lanes,
            &mut cur,
            out,
        )
        .map_err(|(k, what)| overrun(i + k, what))?;
        i += run;
        if let Some(&tag) = tags.get(i) {
            decode_marker(tag, &mut marks, i, &mut batch.markers, out.len())?;
            i += 1;
        }
    }
    let (near, kf, ka) = (cur.near, cur.far, cur.attr);

    for (used, have, what) in [
        (near - near_start, near_end - near_start, "near address"),
        (kf, far.len() - 1, "far address"),
        (ka, attrs.len() - 1, "attribute"),
    ] {
        if used != have {
            return Err(DecodeError::new(
                records,
                format!("the {what} section has {have} entries, the records use {used}"),
            ));
        }
    }
    if !marks.is_empty() {
        return Err(DecodeError::new(
            records,
            format!("{} bytes left over in the marker section", marks.len()),
        ));
    }
    let got = out.len() - base;
    if got != accesses {
        return Err(DecodeError::new(
            records,
            format!("chunk header announces {accesses} accesses, payload holds {got}"),
        ));
    }
    totals.accesses += got as u64;
    totals.markers += (records - got) as u64;
    for (t, lane) in totals.per_stream.iter_mut().zip(lanes.iter()) {
        t.reads += lane.ops[0];
        t.writes += lane.ops[1];
        t.bytes += lane.bytes;
    }
    Ok(())
}

#[cold]
fn overrun(record: usize, what: &str) -> DecodeError {
    DecodeError::new(
        record,
        format!("value section ends inside the {what} varint"),
    )
}

#[cold]
#[inline(never)]
fn decode_marker(
    tag: u8,
    vals: &mut &[u8],
    i: usize,
    markers: &mut Vec<(usize, Marker)>,
    at: usize,
) -> Result<(), DecodeError> {
    if tag & TAG_STREAM != TAG_MARKER {
        return Err(DecodeError::new(
            i,
            format!("unknown stream id {} in tag {tag:#04x}", tag & TAG_STREAM),
        ));
    }
    let mut u32_value = |what: &str| -> Result<u32, DecodeError> {
        let v = varint::get(vals).ok_or_else(|| overrun(i, what))?;
        u32::try_from(v)
            .map_err(|_| DecodeError::new(i, format!("{what} {v} does not fit in 32 bits")))
    };
    let marker = match tag >> 4 {
        FRAME_BEGIN => Marker::FrameBegin {
            frame: u32_value("frame")?,
        },
        FRAME_END => Marker::FrameEnd {
            frame: u32_value("frame")?,
        },
        DRAW_BEGIN => Marker::DrawBegin {
            draw: u32_value("draw")?,
        },
        TILE_BEGIN => Marker::TileBegin {
            tile: u32_value("tile")?,
        },
        TILE_END => Marker::TileEnd {
            tile: u32_value("tile")?,
        },
        PASS_END => Marker::PassEnd,
        PASS_BEGIN => {
            let n = varint::get(vals).ok_or_else(|| overrun(i, "pass name length"))?;
            let n = usize::try_from(n)
                .ok()
                .filter(|&n| n <= MAX_PASS_NAME)
                .ok_or_else(|| {
                    DecodeError::new(
                        i,
                        format!("pass name of {n} bytes (at most {MAX_PASS_NAME})"),
                    )
                })?;
            let Some((name, rest)) = vals.split_at_checked(n) else {
                return Err(DecodeError::new(i, "value section ends inside a pass name"));
            };
            let name = std::str::from_utf8(name)
                .map_err(|e| DecodeError::new(i, format!("pass name is not UTF-8: {e}")))?;
            let Some((&k, rest)) = rest.split_first() else {
                return Err(DecodeError::new(i, "value section ends before a pass kind"));
            };
            let kind = PassKind::from_id(k)
                .ok_or_else(|| DecodeError::new(i, format!("unknown pass kind {k}")))?;
            *vals = rest;
            Marker::PassBegin {
                name: name.to_string(),
                kind,
            }
        }
        k => return Err(DecodeError::new(i, format!("unknown marker kind {k}"))),
    };
    markers.push((at, marker));
    Ok(())
}
