//! A chunk's payload, built record by record.

use crate::record::{Access, Marker, Op, Stream};
use crate::varint;

use super::super::{DELTA_UNIT_SHIFT, TAG_EXPLICIT};
use super::*;

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

#[cfg(test)]
mod tests {
    use super::super::decode::decode_deltas;
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
