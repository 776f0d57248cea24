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

use crate::batch::Batch;
use crate::meta::Totals;
use crate::record::{Access, Marker, Op, PassKind, Stream};
use crate::varint;

use super::{DELTA_UNIT_SHIFT, MAX_PASS_NAME, TAG_EXPLICIT, TAG_TEMPLATE};

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
    /// The explicit deltas: one length byte each, and their data bytes.
    lens: Vec<u8>,
    data: Vec<u8>,
    marks: Vec<u8>,
    /// Accesses since the last marker (or the chunk start).
    gap: u64,
    markers: usize,
    /// Previous address per lane.
    prev: [u64; LANES],
    /// The template each lane used last, to skip the search.
    last: [u8; LANES],
}

impl ChunkEncoder {
    pub(crate) fn new() -> ChunkEncoder {
        ChunkEncoder {
            tags: Vec::with_capacity(crate::BATCH_RECORDS),
            templates: Vec::new(),
            template_bytes: Vec::new(),
            lens: Vec::new(),
            data: Vec::new(),
            marks: Vec::new(),
            gap: 0,
            markers: 0,
            prev: [0; LANES],
            last: [0; LANES],
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
            + self.lens.len()
            + self.data.len()
            + self.marks.len()
    }

    /// Appends the payload: tags, directory, then the sections.
    pub(crate) fn payload_into(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.tags);
        let sections = [&self.template_bytes, &self.lens, &self.data];
        for section in sections {
            out.extend_from_slice(&(section.len() as u32).to_le_bytes());
        }
        for section in sections {
            out.extend_from_slice(section);
        }
        out.extend_from_slice(&self.marks);
    }

    /// Starts the next chunk: empty sections, predictors as a decoder starts them.
    pub(crate) fn reset(&mut self) {
        self.tags.clear();
        self.templates.clear();
        self.template_bytes.clear();
        self.lens.clear();
        self.data.clear();
        self.marks.clear();
        self.gap = 0;
        self.markers = 0;
        self.prev = [0; LANES];
        self.last = [0; LANES];
    }

    /// The index of `t` among the chunk's templates, adding it if new;
    /// `None` when it is new and the chunk has [`MAX_TEMPLATES`] already.
    fn template(&mut self, t: Template) -> Option<u8> {
        let last = &mut self.last[lane(t.stream, t.op)];
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
        let prev = &mut self.prev[lane(a.stream, a.op)];
        let delta = a.addr.wrapping_sub(*prev);
        *prev = a.addr;
        if delta == IMPLICIT_DELTA {
            self.tags.push(index);
        } else {
            self.push_delta(delta as i64);
            self.tags.push(index | TAG_EXPLICIT);
        }
        self.gap += 1;
        true
    }

    /// Appends an explicit delta: in blocks when it is a whole number of
    /// them, else in bytes; zigzagged, in as few bytes as hold it.
    fn push_delta(&mut self, delta: i64) {
        let unit = (1i64 << DELTA_UNIT_SHIFT) - 1;
        let (z, flag) = if delta & unit == 0 {
            (zigzag(delta >> DELTA_UNIT_SHIFT), 0)
        } else {
            (zigzag(delta), LEN_IN_BYTES)
        };
        let n = (u64::BITS - z.leading_zeros()).div_ceil(8) as usize;
        self.lens.push(n as u8 | flag);
        self.data.extend_from_slice(&z.to_le_bytes()[..n]);
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

/// Decodes the explicit deltas, one per byte of `lens`, from the data
/// bytes in `buf[start..end]` (a padded buffer) into byte deltas at the
/// front of `out`.
///
/// Each delta's length is its length byte's, so where the next one starts
/// is one add away, not a decode away. The length bytes are checked
/// first; the loop then runs with no check but a clamp that keeps its
/// eight-byte loads inside the padded section, and the check after it
/// refuses data bytes not used to the last (which a clamped load implies).
fn decode_deltas(
    lens: &[u8],
    buf: &[u8],
    start: usize,
    end: usize,
    out: &mut Deltas,
) -> Result<(), String> {
    const _: () = assert!(PADDING >= 8);
    let Some(data) = end.checked_add(PADDING).and_then(|e| buf.get(start..e)) else {
        return Err("delta data section does not fit the payload".into());
    };
    let Some(out) = out.get_mut(..lens.len()) else {
        return Err(format!("more than {} explicit deltas", out.len()));
    };
    // Checked first, in a pass with no early exit (so the compiler can
    // vectorize it), so that the decoding loop can take a length byte's
    // whole meaning from a table.
    let bad = |l: u8| (l & !(LEN_BYTES | LEN_IN_BYTES)) != 0 || l & LEN_BYTES > 8;
    if lens.iter().fold(false, |any, &l| any | bad(l)) {
        let (i, l) = lens
            .iter()
            .enumerate()
            .find(|(_, &l)| bad(l))
            .map_or((0, 0), |(i, &l)| (i, l));
        return Err(format!("explicit delta {i}: bad length byte {l:#04x}"));
    }
    let limit = end - start;
    let mut at = 0usize;
    for (slot, &l) in out.iter_mut().zip(lens) {
        let e = LEN_TABLE[usize::from(l) % LEN_TABLE.len()];
        let from = at.min(limit);
        let word = data
            .get(from..from + 8)
            .and_then(|w| w.first_chunk::<8>())
            .map_or(0, |w| u64::from_le_bytes(*w));
        at += e.bytes;
        *slot = unzigzag(word & e.keep).wrapping_shl(e.shift);
    }
    if at != limit {
        return Err(format!(
            "the delta lengths add up to {at} data bytes, the section has {limit}"
        ));
    }
    Ok(())
}

/// What an explicit delta's length byte means: how many data bytes, the
/// mask that keeps them of an eight-byte load, and the shift from blocks
/// to bytes (0 for a delta in bytes).
#[derive(Clone, Copy)]
struct LenEntry {
    keep: u64,
    bytes: usize,
    shift: u32,
}

/// [`LenEntry`] by length byte, for every byte that passes the check.
const LEN_TABLE: [LenEntry; 32] = {
    let mut t = [LenEntry {
        keep: 0,
        bytes: 0,
        shift: 0,
    }; 32];
    let mut l = 0;
    while l < 32 {
        let n = l & LEN_BYTES as usize;
        if n <= 8 {
            t[l] = LenEntry {
                keep: if n == 8 {
                    u64::MAX
                } else {
                    (1u64 << (8 * n)) - 1
                },
                bytes: n,
                shift: if l & LEN_IN_BYTES as usize != 0 {
                    0
                } else {
                    DELTA_UNIT_SHIFT
                },
            };
        }
        l += 1;
    }
    t
};

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
/// with its implicit delta in `addr` (0 when it takes an explicit one),
/// and whether it takes the next explicit delta (all ones) or not (zero).
#[derive(Clone, Copy)]
struct TagEntry {
    access: Access,
    explicit: u64,
    /// The access's lane, indexing [`Lanes::prev`] with no mask or check.
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
/// Built once per chunk (256 entries, against up to 65536 accesses), it
/// turns the main loop's explicit test and select into a mask and an add.
fn tag_table(templates: &[Access; MAX_TEMPLATES], defined: usize, out: &mut [TagEntry; 256]) {
    for (tag, e) in out.iter_mut().enumerate() {
        let template = tag & usize::from(TAG_TEMPLATE);
        if template >= defined {
            *e = NO_TAG;
            continue;
        }
        let mut access = templates[template];
        let explicit = tag & usize::from(TAG_EXPLICIT) != 0;
        access.addr = if explicit { 0 } else { IMPLICIT_DELTA };
        *e = TagEntry {
            access,
            explicit: if explicit { u64::MAX } else { 0 },
            lane: lane(access.stream, access.op) as u8,
        };
    }
}

/// The main loop's state: the previous address of each lane, and the
/// next explicit delta.
///
/// The last access's lane and address stay in registers, and its store to
/// `prev` waits one access: in a run of one lane (two thirds of `city`'s
/// LLC trace) each address is then the last one plus a delta, not a load
/// of the store just made, whose forwarding made every address of a run
/// wait about five cycles for the one before.
struct Lanes {
    /// Indexed by lane; as many entries as a `u8` has values, the last
    /// ([`UNUSED_LANE`]) never written.
    prev: [u64; 256],
    next: usize,
    last_addr: u64,
    last_lane: u8,
}

/// The `prev` entry a step loads when its lane is the last one: never
/// stored, so that the load waits for no store.
const UNUSED_LANE: u8 = u8::MAX;
const _: () = assert!(LANES <= UNUSED_LANE as usize);

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
        // Selects, not branches: which lane comes next follows no pattern
        // a predictor learns.
        let same = e.lane == self.last_lane;
        let loaded =
            self.prev[usize::from(std::hint::select_unpredictable(same, UNUSED_LANE, e.lane))];
        // The last access's lane entry is brought up to date only now: a
        // step of that lane took `last_addr` instead, and a step of
        // another lane loads another entry.
        self.prev[usize::from(self.last_lane)] = self.last_addr;
        let base = std::hint::select_unpredictable(same, self.last_addr, loaded);
        let addr = base.wrapping_add(delta);
        self.last_addr = addr;
        self.last_lane = e.lane;
        *slot = Access { addr, ..e.access };
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
    let lens_start = templates_start + dir_len(0);
    let data_start = lens_start + dir_len(1);
    let deltas_end = data_start + dir_len(2);
    if deltas_end > len {
        return Err(DecodeError::new(
            0,
            format!(
                "section directory ({}, {}, {} bytes) does not fit a {len}-byte payload",
                dir_len(0),
                dir_len(1),
                dir_len(2),
            ),
        ));
    }
    let mut templates = [Access::default(); MAX_TEMPLATES];
    let defined = decode_templates(&payload[templates_start..lens_start], &mut templates)
        .map_err(|e| DecodeError::new(0, e))?;
    let deltas = scratch
        .deltas
        .get_or_insert_with(|| Box::new([0; crate::BATCH_RECORDS]));
    let lens = &payload[lens_start..data_start];
    decode_deltas(lens, buf, data_start, deltas_end, deltas).map_err(|e| DecodeError::new(0, e))?;
    let n_deltas = lens.len();
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
        last_addr: 0,
        last_lane: 0,
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
        if tag & usize::from(TAG_EXPLICIT) != 0 {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every explicit delta length, in blocks and in bytes, decodes back;
    /// the length byte says how many data bytes follow.
    #[test]
    fn explicit_deltas_round_trip_at_every_length() {
        let mut deltas = vec![0i64, 64, -64, 1, -1, 63, i64::MIN, i64::MAX, -(1 << 62) + 7];
        for bits in 0..63 {
            let b = 1i64 << bits;
            deltas.extend([b.wrapping_mul(64), b.wrapping_mul(-64), b + 1]);
        }
        let mut enc = ChunkEncoder::new();
        for &d in &deltas {
            enc.push_delta(d);
        }
        let lens_bytes: Vec<usize> = enc
            .lens
            .iter()
            .map(|l| usize::from(l & LEN_BYTES))
            .collect();
        assert!(lens_bytes.iter().all(|&n| n <= 8));
        for n in 0..=8 {
            assert!(lens_bytes.contains(&n), "no delta of {n} bytes");
        }
        assert!(enc.lens.iter().any(|l| l & LEN_IN_BYTES != 0));
        assert_eq!(lens_bytes.iter().sum::<usize>(), enc.data.len());
        let mut buf = enc.data.clone();
        buf.resize(buf.len() + PADDING, 0xAA);
        let mut out = Box::new([0i64; crate::BATCH_RECORDS]);
        decode_deltas(&enc.lens, &buf, 0, enc.data.len(), &mut out).expect("decodes");
        assert_eq!(&out[..deltas.len()], &deltas[..]);
    }

    /// Length bytes that claim more or fewer data bytes than the section
    /// holds, or more than eight, are refused.
    #[test]
    fn explicit_delta_lengths_must_match_the_data() {
        let mut out = Box::new([0i64; crate::BATCH_RECORDS]);
        let buf = [0u8; 4 + PADDING];
        assert!(decode_deltas(&[2, 2], &buf, 0, 4, &mut out).is_ok());
        assert!(decode_deltas(&[2, 1], &buf, 0, 4, &mut out).is_err());
        assert!(decode_deltas(&[2, 3], &buf, 0, 4, &mut out).is_err());
        assert!(decode_deltas(&[9], &buf, 0, 4, &mut out).is_err());
        assert!(decode_deltas(&[0x24], &buf, 0, 4, &mut out).is_err());
        assert!(decode_deltas(&[8, 8, 8, 8], &buf, 0, 4, &mut out).is_err());
    }
}
