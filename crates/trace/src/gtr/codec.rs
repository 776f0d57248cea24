//! Chunk payloads: records to the columnar form described in [`super`] and back.
//!
//! The decoder is the trace's hot loop: every access of every simulation
//! passes through it. So everything variable-length (templates, explicit
//! address deltas, markers) is decoded and checked ahead of the main loop,
//! and a histogram of the tag column proves before it runs that every tag
//! names a template and that the explicit deltas are exactly as many as the
//! tags that use them. The main loop is then one straight pass over the tag
//! column: copy the tag's template, add the tag's delta to its stream's
//! previous address, write the access into the batch; no branches, no
//! errors, no per-record counting (the totals come from the histogram).

use crate::batch::Batch;
use crate::meta::Totals;
use crate::record::{Access, Marker, Op, PassKind, Stream};
use crate::varint;

use super::{DELTA_UNIT_SHIFT, MAX_PASS_NAME, TAG_CLASS_SHIFT, TAG_TEMPLATE};

/// Marker kinds.
const FRAME_BEGIN: u8 = 0;
const FRAME_END: u8 = 1;
const PASS_BEGIN: u8 = 2;
const PASS_END: u8 = 3;
const DRAW_BEGIN: u8 = 4;
const TILE_BEGIN: u8 = 5;
const TILE_END: u8 = 6;

/// Most templates a chunk can have: the tag's template field is 6 bits.
pub(crate) const MAX_TEMPLATES: usize = 64;

/// Template entry byte: bits 0-3 stream id, bit 4 write.
const ENTRY_STREAM: u8 = 0x0f;
const ENTRY_WRITE: u8 = 0x10;

/// Most bytes one access can add to the payload: its tag, an explicit
/// delta of two prefix varints, and a new template of an entry byte and
/// two varints.
pub(crate) const MAX_ACCESS_BYTES: usize = 1 + 2 * varint::PREFIX_MAX_LEN + 1 + 3 + 5;

/// Most bytes a marker can take, given its pass name's length.
pub(crate) fn max_marker_bytes(m: &Marker) -> usize {
    let values = match m {
        Marker::PassBegin { name, .. } => 5 + name.len() + 1,
        _ => 5,
    };
    3 + 1 + values
}

/// Bytes of the section directory that follows the tag column.
pub(crate) const DIRECTORY_LEN: usize = 8;

/// Zero bytes kept after a payload in the decode buffer, so that the decoder
/// can load eight bytes at any position of a section without first checking
/// for its end.
pub(crate) const PADDING: usize = 16;

/// Address classes, the top two bits of an access tag: deltas of 0, 1 and 2
/// blocks, or the next explicit delta.
const CLASS_EXPLICIT: u8 = 3;

/// The address class of `delta`.
fn class_of(delta: i64) -> u8 {
    match delta {
        0 => 0,
        d if d == 1 << DELTA_UNIT_SHIFT => 1,
        d if d == 2 << DELTA_UNIT_SHIFT => 2,
        _ => CLASS_EXPLICIT,
    }
}

/// What a template says of an access: everything but its address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Template {
    stream: Stream,
    op: Op,
    size: u32,
    unit: u16,
}

/// One chunk being built: the payload's sections and the predictors.
pub(crate) struct ChunkEncoder {
    tags: Vec<u8>,
    templates: Vec<Template>,
    /// The templates section as it will be written.
    template_bytes: Vec<u8>,
    deltas: Vec<u8>,
    marks: Vec<u8>,
    /// Accesses since the last marker (or the chunk start).
    gap: u64,
    markers: usize,
    /// Previous address per stream.
    prev: [u64; Stream::COUNT],
    /// The template each stream and op used last, to skip the search.
    last: [[u8; 2]; Stream::COUNT],
}

impl ChunkEncoder {
    pub(crate) fn new() -> ChunkEncoder {
        ChunkEncoder {
            tags: Vec::with_capacity(crate::BATCH_RECORDS),
            templates: Vec::new(),
            template_bytes: Vec::new(),
            deltas: Vec::new(),
            marks: Vec::new(),
            gap: 0,
            markers: 0,
            prev: [0; Stream::COUNT],
            last: [[0; 2]; Stream::COUNT],
        }
    }

    pub(crate) fn records(&self) -> usize {
        self.tags.len() + self.markers
    }

    pub(crate) fn accesses(&self) -> u32 {
        self.tags.len() as u32
    }

    pub(crate) fn payload_len(&self) -> usize {
        self.tags.len()
            + DIRECTORY_LEN
            + self.template_bytes.len()
            + self.deltas.len()
            + self.marks.len()
    }

    /// Appends the payload: tags, directory, then the sections.
    pub(crate) fn payload_into(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.tags);
        for section in [&self.template_bytes, &self.deltas] {
            out.extend_from_slice(&(section.len() as u32).to_le_bytes());
        }
        out.extend_from_slice(&self.template_bytes);
        out.extend_from_slice(&self.deltas);
        out.extend_from_slice(&self.marks);
    }

    /// Starts the next chunk: empty sections, predictors as a decoder starts them.
    pub(crate) fn reset(&mut self) {
        self.tags.clear();
        self.templates.clear();
        self.template_bytes.clear();
        self.deltas.clear();
        self.marks.clear();
        self.gap = 0;
        self.markers = 0;
        self.prev = [0; Stream::COUNT];
        self.last = [[0; 2]; Stream::COUNT];
    }

    /// The index of `t` among the chunk's templates, adding it if new;
    /// `None` when it is new and the chunk has [`MAX_TEMPLATES`] already.
    fn template(&mut self, t: Template) -> Option<u8> {
        let last = &mut self.last[t.stream.index()][t.op as usize];
        if self.templates.get(usize::from(*last)) == Some(&t) {
            return Some(*last);
        }
        let i = match self.templates.iter().position(|&u| u == t) {
            Some(i) => i,
            None if self.templates.len() < MAX_TEMPLATES => {
                self.templates.push(t);
                let mut entry = t.stream.id();
                if t.op.is_write() {
                    entry |= ENTRY_WRITE;
                }
                self.template_bytes.push(entry);
                varint::put(&mut self.template_bytes, u64::from(t.unit));
                varint::put(&mut self.template_bytes, u64::from(t.size));
                self.templates.len() - 1
            }
            None => return None,
        };
        *last = i as u8;
        Some(i as u8)
    }

    /// Adds `a`, or returns `false` and changes nothing when it needs a
    /// new template and the chunk has no room for one.
    #[inline]
    pub(crate) fn push_access(&mut self, a: &Access) -> bool {
        let Some(index) = self.template(Template {
            stream: a.stream,
            op: a.op,
            size: a.size,
            unit: a.unit,
        }) else {
            return false;
        };
        let prev = &mut self.prev[a.stream.index()];
        let delta = a.addr.wrapping_sub(*prev) as i64;
        *prev = a.addr;
        let class = class_of(delta);
        if class == CLASS_EXPLICIT {
            let blocks = delta >> DELTA_UNIT_SHIFT;
            let low = delta & ((1 << DELTA_UNIT_SHIFT) - 1);
            if low == 0 {
                varint::put_prefix(&mut self.deltas, blocks << 1);
            } else {
                varint::put_prefix(&mut self.deltas, (low << 1) | 1);
                varint::put_prefix(&mut self.deltas, blocks);
            }
        }
        self.tags.push(index | (class << TAG_CLASS_SHIFT));
        self.gap += 1;
        true
    }

    /// Pass names must be at most [`MAX_PASS_NAME`] bytes (the writer checks).
    pub(crate) fn push_marker(&mut self, m: &Marker) {
        varint::put(&mut self.marks, self.gap);
        self.gap = 0;
        self.markers += 1;
        let (kind, value) = match m {
            Marker::FrameBegin { frame } => (FRAME_BEGIN, Some(*frame)),
            Marker::FrameEnd { frame } => (FRAME_END, Some(*frame)),
            Marker::PassBegin { .. } => (PASS_BEGIN, None),
            Marker::PassEnd => (PASS_END, None),
            Marker::DrawBegin { draw } => (DRAW_BEGIN, Some(*draw)),
            Marker::TileBegin { tile } => (TILE_BEGIN, Some(*tile)),
            Marker::TileEnd { tile } => (TILE_END, Some(*tile)),
        };
        self.marks.push(kind);
        if let Marker::PassBegin { name, kind } = m {
            varint::put(&mut self.marks, name.len() as u64);
            self.marks.extend_from_slice(name.as_bytes());
            self.marks.push(*kind as u8);
        }
        if let Some(v) = value {
            varint::put(&mut self.marks, u64::from(v));
        }
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

/// Buffers the decoder reuses from chunk to chunk.
#[derive(Default)]
pub(crate) struct Scratch {
    deltas: Option<Box<Deltas>>,
    tags: Option<Box<[TagEntry; 256]>>,
}

/// A chunk's explicit deltas, at most one per access. A fixed power-of-two
/// size lets the main loop index it with a mask instead of a bounds check.
type Deltas = [i64; crate::BATCH_RECORDS];
const DELTAS_MASK: usize = crate::BATCH_RECORDS - 1;
const _: () = assert!(crate::BATCH_RECORDS.is_power_of_two());

/// Decodes the template section into `out`; returns how many there are.
fn decode_templates(mut sec: &[u8], out: &mut [Access; MAX_TEMPLATES]) -> Result<usize, String> {
    let mut n = 0;
    while let Some((&entry, rest)) = sec.split_first() {
        sec = rest;
        let Some(slot) = out.get_mut(n) else {
            return Err(format!("more than {MAX_TEMPLATES} templates"));
        };
        if entry & !(ENTRY_STREAM | ENTRY_WRITE) != 0 {
            return Err(format!("template {n}: unknown bits in entry {entry:#04x}"));
        }
        let stream = Stream::from_id(entry & ENTRY_STREAM)
            .ok_or_else(|| format!("template {n}: unknown stream id {}", entry & ENTRY_STREAM))?;
        let unit = varint::get(&mut sec).ok_or("template section ends inside a varint")?;
        let unit =
            u16::try_from(unit).map_err(|_| format!("template {n}: unit {unit} over 65535"))?;
        let size = varint::get(&mut sec).ok_or("template section ends inside a varint")?;
        let size =
            u32::try_from(size).map_err(|_| format!("template {n}: size {size} over 2^32 - 1"))?;
        *slot = Access {
            addr: 0,
            size,
            unit,
            stream,
            op: if entry & ENTRY_WRITE != 0 {
                Op::Write
            } else {
                Op::Read
            },
        };
        n += 1;
    }
    Ok(n)
}

/// Decodes the explicit deltas in `buf[start..end]` (a padded buffer) into
/// byte deltas at the front of `out`; returns how many there are.
///
/// Works on `buf[start..end + PADDING]`, checked once: while more than
/// [`PADDING`] bytes are left, a varint starts inside the section and its
/// longest encoding is in the slice, so each varint is read with no bounds
/// check of its own. An entry that runs past `end` leaves fewer than
/// [`PADDING`] bytes, which the checks after the loop (and before an
/// entry's second varint) report.
fn decode_deltas(buf: &[u8], start: usize, end: usize, out: &mut Deltas) -> Result<usize, String> {
    const OVERRUN: &str = "delta section ends inside a varint";
    const _: () = assert!(PADDING > varint::PREFIX_MAX_LEN);
    let Some(mut sec) = end.checked_add(PADDING).and_then(|e| buf.get(start..e)) else {
        return Err(OVERRUN.into());
    };
    // One varint from the front of `sec`. Callers first check that `sec`
    // holds more than PADDING bytes, so the fallbacks never run (and the
    // compiler drops them): they only keep this free of panics.
    let next = |sec: &mut &[u8]| -> i64 {
        let (head, _) = sec
            .split_first_chunk::<{ varint::PREFIX_MAX_LEN }>()
            .unwrap_or((&[0xff; varint::PREFIX_MAX_LEN], &[]));
        let (x, len) = varint::prefix_at(head);
        *sec = sec.get(len..).unwrap_or_default();
        x
    };
    let mut n = 0;
    while sec.len() > PADDING {
        let x = next(&mut sec);
        // Even: a whole number of blocks, doubled. Odd: the low bits,
        // doubled plus one, then the blocks in the next varint.
        let delta = if x & 1 == 0 {
            x.wrapping_shl(DELTA_UNIT_SHIFT - 1)
        } else {
            let low = x >> 1;
            if !(1..1 << DELTA_UNIT_SHIFT).contains(&low) {
                return Err(format!("address low bits {low} out of range"));
            }
            if sec.len() <= PADDING {
                return Err(OVERRUN.into());
            }
            let blocks = next(&mut sec);
            blocks.wrapping_shl(DELTA_UNIT_SHIFT) | low
        };
        let Some(slot) = out.get_mut(n) else {
            return Err(format!("more than {} explicit deltas", out.len()));
        };
        *slot = delta;
        n += 1;
    }
    if sec.len() != PADDING {
        return Err(OVERRUN.into());
    }
    Ok(n)
}

/// The tag histogram of the main loop, its four tables summed into one
/// (four so that repeats of one tag do not wait on each other's
/// increments).
fn sum_histograms(h: &[[u32; 256]; 4]) -> [u32; 256] {
    let mut sum = [0u32; 256];
    for (i, s) in sum.iter_mut().enumerate() {
        *s = h[0][i] + h[1][i] + h[2][i] + h[3][i];
    }
    sum
}

/// An access of all zero bytes, so that filling a `Vec` with it is a memset.
const ZEROED: Access = Access {
    addr: 0,
    size: 0,
    unit: 0,
    stream: Stream::Vidx,
    op: Op::Read,
};

/// What the main loop needs of one tag value: the access it decodes to,
/// with its class's delta in `addr`, and whether it takes the next
/// explicit delta (all ones) or not (zero).
#[derive(Clone, Copy)]
struct TagEntry {
    access: Access,
    explicit: u64,
    /// The access's stream id, indexing [`Lanes::prev`] with no mask or check.
    lane: u8,
}

const NO_TAG: TagEntry = TagEntry {
    access: ZEROED,
    explicit: 0,
    lane: 0,
};

/// Builds the table of every tag value from the chunk's templates; tags
/// naming undefined templates get a zero entry (the histogram has
/// already refused them).
///
/// Built once per chunk (256 entries, against 65536 accesses), it turns
/// the main loop's class test and select into a mask and an add.
fn tag_table(templates: &[Access; MAX_TEMPLATES], defined: usize, out: &mut [TagEntry; 256]) {
    for (tag, e) in out.iter_mut().enumerate() {
        let template = tag & usize::from(TAG_TEMPLATE);
        if template >= defined {
            *e = NO_TAG;
            continue;
        }
        let class = (tag >> TAG_CLASS_SHIFT) as u8;
        let mut access = templates[template];
        let explicit = class == CLASS_EXPLICIT;
        access.addr = if explicit {
            0
        } else {
            u64::from(class) << DELTA_UNIT_SHIFT
        };
        *e = TagEntry {
            access,
            explicit: if explicit { u64::MAX } else { 0 },
            lane: access.stream.id(),
        };
    }
}

/// The main loop's state: the previous address of each stream, and the
/// next explicit delta.
struct Lanes {
    /// Indexed by stream id; as many entries as a `u8` has values.
    prev: [u64; 256],
    next: usize,
}

impl Lanes {
    /// Decodes one access into `slot`. When `deltas` holds an entry for
    /// every explicit-class tag, `next` stays below its length wherever the
    /// entry is used, so the mask never changes an index that matters;
    /// when it does not, the accesses are wrong but the indices still in
    /// bounds, and the caller, which counts the tags as it goes, refuses
    /// the chunk.
    #[inline(always)]
    fn step(&mut self, slot: &mut Access, tag: u8, table: &[TagEntry; 256], deltas: &Deltas) {
        let e = &table[usize::from(tag)];
        let explicit = deltas[self.next & DELTAS_MASK] as u64;
        self.next = self.next.wrapping_sub(e.explicit as usize);
        let delta = e.access.addr.wrapping_add(explicit & e.explicit);
        *slot = e.access;
        let p = &mut self.prev[usize::from(e.lane)];
        let addr = p.wrapping_add(delta);
        *p = addr;
        slot.addr = addr;
    }
}

/// Decodes one chunk payload of `records` records, `accesses` of them
/// accesses, into `batch` (replacing what it held) and adding the accesses
/// to `totals`. `buf` holds the payload in its first `len` bytes, then at
/// least [`PADDING`] more bytes of any value.
///
/// Succeeds only if the payload holds exactly that: every tag names a
/// template, every section is used to its last byte, and the marker
/// section holds `records - accesses` markers. On failure, what `batch`
/// holds is unspecified.
pub(crate) fn decode(
    buf: &[u8],
    len: usize,
    records: usize,
    accesses: usize,
    batch: &mut Batch,
    totals: &mut Totals,
    scratch: &mut Scratch,
) -> Result<(), DecodeError> {
    batch.markers.clear();
    if buf.len() < len + PADDING {
        return Err(DecodeError::new(0, "decode buffer lacks its padding"));
    }
    let Some(markers) = records.checked_sub(accesses) else {
        return Err(DecodeError::new(
            0,
            format!("{accesses} accesses among {records} records"),
        ));
    };
    let payload = &buf[..len];
    let Some((tags, rest)) = payload.split_at_checked(accesses) else {
        return Err(DecodeError::new(
            0,
            format!("payload of {len} bytes cannot hold {accesses} tags"),
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
    let templates_start = accesses + DIRECTORY_LEN;
    let deltas_start = templates_start + dir_len(0);
    let deltas_end = deltas_start + dir_len(1);
    if deltas_end > len {
        return Err(DecodeError::new(
            0,
            format!(
                "section directory ({}, {} bytes) does not fit a {len}-byte payload",
                dir_len(0),
                dir_len(1),
            ),
        ));
    }
    let mut templates = [Access::default(); MAX_TEMPLATES];
    let defined = decode_templates(&payload[templates_start..deltas_start], &mut templates)
        .map_err(|e| DecodeError::new(0, e))?;
    let deltas = scratch
        .deltas
        .get_or_insert_with(|| Box::new([0; crate::BATCH_RECORDS]));
    let n_deltas =
        decode_deltas(buf, deltas_start, deltas_end, deltas).map_err(|e| DecodeError::new(0, e))?;
    let deltas: &Deltas = deltas;

    // The main loop. Sizing the batch once (all-zero accesses, so a
    // memset) and writing through `&mut` lets each access be a 16-byte
    // copy of its template plus the address; four at a time to spread the
    // loop's own cost. It cannot fail: it counts the tags as it goes
    // (undefined templates decode to zero accesses, missing deltas to wrong
    // addresses), and the checks after it refuse the chunk.
    let table = scratch.tags.get_or_insert_with(|| Box::new([NO_TAG; 256]));
    tag_table(&templates, defined, table);
    let table: &[TagEntry; 256] = table;
    let out = &mut batch.accesses;
    // Resized, not cleared: a batch as long as the last one (most are
    // BATCH_RECORDS long) is overwritten without being zeroed first.
    out.resize(accesses, ZEROED);
    let mut lanes = Lanes {
        prev: [0; 256],
        next: 0,
    };
    let mut h = [[0u32; 256]; 4];
    let mut slots = out.chunks_exact_mut(4);
    let mut quads = tags.chunks_exact(4);
    for (s, q) in (&mut slots).zip(&mut quads) {
        for k in 0..4 {
            h[k][usize::from(q[k])] += 1;
            lanes.step(&mut s[k], q[k], table, deltas);
        }
    }
    for (slot, &tag) in slots.into_remainder().iter_mut().zip(quads.remainder()) {
        h[0][usize::from(tag)] += 1;
        lanes.step(slot, tag, table, deltas);
    }
    let hist = sum_histograms(&h);
    if let Err(e) = check_tags(tags, &hist, defined, n_deltas) {
        out.clear();
        return Err(e);
    }
    let mut per_template = [0u64; MAX_TEMPLATES];
    for (tag, &n) in hist.iter().enumerate() {
        per_template[tag & usize::from(TAG_TEMPLATE)] += u64::from(n);
    }

    let mut marks = &payload[deltas_end..];
    let mut at = 0usize;
    for m in 0..markers {
        let record = at + m;
        let gap = varint::get(&mut marks).ok_or_else(|| overrun(record, "marker position"))?;
        at = usize::try_from(gap)
            .ok()
            .and_then(|g| at.checked_add(g))
            .filter(|&a| a <= accesses)
            .ok_or_else(|| {
                DecodeError::new(
                    record,
                    format!("marker {gap} accesses on runs past the chunk's {accesses}"),
                )
            })?;
        decode_marker(&mut marks, at + m, &mut batch.markers, at)?;
    }
    if !marks.is_empty() {
        return Err(DecodeError::new(
            records,
            format!("{} bytes left over in the marker section", marks.len()),
        ));
    }

    totals.accesses += accesses as u64;
    totals.markers += markers as u64;
    for (t, &n) in templates[..defined].iter().zip(&per_template) {
        let s = &mut totals.per_stream[t.stream.index()];
        match t.op {
            Op::Read => s.reads += n,
            Op::Write => s.writes += n,
        }
        s.bytes += n * u64::from(t.size);
    }
    Ok(())
}

/// Refuses a chunk whose tags (of histogram `hist`) name a template beyond
/// the `defined` ones, or use other than `n_deltas` explicit deltas.
fn check_tags(
    tags: &[u8],
    hist: &[u32; 256],
    defined: usize,
    n_deltas: usize,
) -> Result<(), DecodeError> {
    let mut explicit = 0u64;
    for (tag, &n) in hist.iter().enumerate() {
        let template = tag & usize::from(TAG_TEMPLATE);
        if n != 0 && template >= defined {
            let at = tags
                .iter()
                .position(|&t| usize::from(t) == tag)
                .unwrap_or(0);
            return Err(DecodeError::new(
                at,
                format!("tag {tag:#04x} names template {template}, the chunk has {defined}"),
            ));
        }
        if tag >> TAG_CLASS_SHIFT == usize::from(CLASS_EXPLICIT) {
            explicit += u64::from(n);
        }
    }
    if explicit != n_deltas as u64 {
        return Err(DecodeError::new(
            tags.len(),
            format!("the delta section has {n_deltas} entries, the tags use {explicit}"),
        ));
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
    vals: &mut &[u8],
    i: usize,
    markers: &mut Vec<(usize, Marker)>,
    at: usize,
) -> Result<(), DecodeError> {
    let Some((&kind, rest)) = vals.split_first() else {
        return Err(DecodeError::new(
            i,
            "marker section ends before a marker kind",
        ));
    };
    *vals = rest;
    let mut u32_value = |what: &str| -> Result<u32, DecodeError> {
        let v = varint::get(vals).ok_or_else(|| overrun(i, what))?;
        u32::try_from(v)
            .map_err(|_| DecodeError::new(i, format!("{what} {v} does not fit in 32 bits")))
    };
    let marker = match kind {
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
