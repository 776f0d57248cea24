//! A chunk's payload read back into a batch: the trace's hot loop (see
//! [`super`]).

use crate::batch::Batch;
use crate::meta::Totals;
use crate::record::{Access, Marker, Op, PassKind, Stream};
use crate::varint;

use super::super::{DELTA_UNIT_SHIFT, MAX_PASS_NAME, TAG_EXPLICIT, TAG_TEMPLATE};
use super::*;

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
pub(super) fn decode_deltas(
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
