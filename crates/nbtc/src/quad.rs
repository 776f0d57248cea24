//! What a texture unit takes as one request ([`RequestUnit`]): each of
//! the renderer's records (a pixel's sample or texel fetch), the NBTC
//! study's reading, or a quad's texture instruction, DTM-NUCA's replay's
//! ([`QuadGatherer`]).
//!
//! A fragment processor that shades a 2x2 quad's pixels in lockstep
//! (ours on DTM-NUCA's machine, as `gfxcache nuca --request-unit quad`)
//! runs the quad as one fragment of its unit:
//!
//! - its request k asks, once each, for every distinct block its pixels'
//!   request k touches (a maximal run of consecutive records of one
//!   fragment processor, request index, quad and kind, sample or fetch:
//!   the rule of DTM-NUCA's replay, so both see the same accesses);
//! - the work before it is four lanes of the slowest pixel's (the
//!   pixel whose operations take the most cycles under the machine's
//!   issue model, times four), and so is the work after its last request;
//! - a request of more than [`MAX_TEXELS`] distinct blocks (a quad's
//!   trilinear or anisotropic footprint across many blocks) goes to the
//!   unit as several requests back to back, each of up to that many, the
//!   first with the work, as the unit takes an anisotropic sample's
//!   probes: its buffers hold a request of at most 8 texels.
//!
//! A quad's records are consecutive in a `.gtq` (the renderer writes a
//! quad whole): its requests, then a `FragmentEnd` per shaded pixel. A
//! request after a `FragmentEnd`, a record of another processor or quad,
//! or a pixel that ends twice starts the next quad.

use gfxcache_machine::IssueModel;
use gfxcache_trace::texreq::{FilterKind, TexReqRecord, TexRequest};
use gfxcache_trace::ShaderOps;

use crate::config::MAX_TEXELS;
use crate::event::{UnitEvent, UnitRequest, Work};

/// What a texture unit takes as one request: the machine's
/// (`fragment.request_unit`).
pub use gfxcache_machine::RequestUnit;

/// The request being gathered.
#[derive(Clone, Copy, Debug)]
struct Gathering {
    index: u8,
    fetch: bool,
    /// The slowest pixel's operations so far, and their cycles.
    ops: ShaderOps,
    cycles: u64,
}

/// The quad being gathered: its processor, its place, the pixels that
/// ended, its finished requests' events and the request being gathered.
struct Quad {
    fp: u16,
    at: (u16, u16),
    /// Bit i: pixel i of the quad (x & 1 | (y & 1) << 1) ended.
    ended: u8,
    gathering: Option<Gathering>,
    /// The slowest pixel's work after its last request, and its cycles.
    tail: (ShaderOps, u64),
}

impl Quad {
    /// Quad `at` of processor `fp`, nothing gathered yet.
    fn new(fp: u16, at: (u16, u16)) -> Quad {
        Quad {
            fp,
            at,
            ended: 0,
            gathering: None,
            tail: (ShaderOps::NONE, 0),
        }
    }
}

/// Turns a stream of `.gtq` records into quad fragments' events, each
/// with its fragment processor.
pub struct QuadGatherer {
    issue: Option<IssueModel>,
    block_mask: u64,
    quad: Option<Quad>,
    /// The distinct blocks of the request being gathered (kept, so that
    /// nothing is allocated per request).
    blocks: Vec<u64>,
}

impl QuadGatherer {
    /// Quads on a machine of `issue` (`None`: shading takes no time),
    /// whose caches move blocks of `block_bytes` (a power of two).
    pub fn new(issue: Option<IssueModel>, block_bytes: u32) -> QuadGatherer {
        QuadGatherer {
            issue,
            block_mask: !(u64::from(block_bytes) - 1),
            quad: None,
            blocks: Vec::with_capacity(4 * MAX_TEXELS),
        }
    }

    /// The cycles of four lanes of `ops`.
    fn cycles(&self, ops: &ShaderOps) -> u64 {
        self.issue.map_or(0, |m| m.cycles(&ops.times(4)))
    }

    /// The next record; every event it completes goes to `out`, with its
    /// fragment processor.
    pub fn record(&mut self, record: &TexReqRecord, out: &mut impl FnMut(usize, UnitEvent)) {
        match record {
            TexReqRecord::Request(r) => self.request(r, out),
            &TexReqRecord::FragmentEnd { fp, x, y, ops } => self.fragment_end(fp, x, y, ops, out),
            _ => self.flush(out),
        }
    }

    fn request(&mut self, r: &TexRequest, out: &mut impl FnMut(usize, UnitEvent)) {
        let at = (r.x / 2, r.y / 2);
        let same_quad = self
            .quad
            .as_ref()
            .is_some_and(|q| q.fp == r.fp && q.at == at && q.ended == 0);
        if !same_quad {
            self.flush(out);
            self.quad = Some(Quad::new(r.fp, at));
        }
        let fetch = r.filter == FilterKind::Fetch;
        let cycles = self.cycles(&r.ops);
        let joins = self
            .quad
            .as_ref()
            .and_then(|q| q.gathering)
            .is_some_and(|g| g.index == r.index && g.fetch == fetch);
        if !joins {
            self.end_request(out);
        }
        let mask = self.block_mask;
        let q = self.quad.as_mut().expect("a quad is open");
        let g = q.gathering.get_or_insert(Gathering {
            index: r.index,
            fetch,
            ops: r.ops,
            cycles,
        });
        if cycles > g.cycles {
            g.ops = r.ops;
            g.cycles = cycles;
        }
        for &addr in r.addresses() {
            let block = addr & mask;
            if !self.blocks.contains(&block) {
                self.blocks.push(block);
            }
        }
    }

    fn fragment_end(
        &mut self,
        fp: u16,
        x: u16,
        y: u16,
        ops: ShaderOps,
        out: &mut impl FnMut(usize, UnitEvent),
    ) {
        let at = (x / 2, y / 2);
        let pixel = 1u8 << ((x & 1) | ((y & 1) << 1));
        let same_quad = self
            .quad
            .as_ref()
            .is_some_and(|q| q.fp == fp && q.at == at && q.ended & pixel == 0);
        if same_quad {
            self.end_request(out);
        } else {
            self.flush(out);
            self.quad = Some(Quad::new(fp, at));
        }
        let cycles = self.cycles(&ops);
        let q = self.quad.as_mut().expect("a quad is open");
        q.ended |= pixel;
        if cycles > q.tail.1 || q.ended == pixel {
            q.tail = (ops, cycles);
        }
    }

    /// The request being gathered goes to the unit, as one request or,
    /// past [`MAX_TEXELS`] blocks, several back to back.
    fn end_request(&mut self, out: &mut impl FnMut(usize, UnitEvent)) {
        let Some(q) = self.quad.as_mut() else { return };
        let Some(g) = q.gathering.take() else { return };
        let (x, y) = q.at;
        let fp = usize::from(q.fp);
        let mut ops_before = g.ops.times(4);
        for chunk in self.blocks.chunks(MAX_TEXELS) {
            let mut taps = [0; MAX_TEXELS];
            taps[..chunk.len()].copy_from_slice(chunk);
            out(
                fp,
                UnitEvent::Request(UnitRequest {
                    x,
                    y,
                    taps,
                    len: chunk.len() as u8,
                    ops_before,
                }),
            );
            ops_before = ShaderOps::NONE;
        }
        self.blocks.clear();
    }

    /// The quad being gathered, if any, goes to the unit whole.
    pub fn flush(&mut self, out: &mut impl FnMut(usize, UnitEvent)) {
        self.end_request(out);
        if let Some(q) = self.quad.take() {
            out(
                usize::from(q.fp),
                UnitEvent::FragmentEnd(Work {
                    ops: q.tail.0.times(4),
                }),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gfxcache_trace::texreq::MAX_TAPS;

    fn request(fp: u16, x: u16, y: u16, index: u8, alu: u32, taps: &[u64]) -> TexReqRecord {
        let mut t = [0; MAX_TAPS];
        t[..taps.len()].copy_from_slice(taps);
        TexReqRecord::Request(TexRequest {
            fp,
            x,
            y,
            index,
            filter: FilterKind::Bilinear,
            texel_bytes: 4,
            ops: ShaderOps::alu(1, alu),
            taps: t,
            len: taps.len() as u8,
        })
    }

    fn end(fp: u16, x: u16, y: u16, alu: u32) -> TexReqRecord {
        TexReqRecord::FragmentEnd {
            fp,
            x,
            y,
            ops: ShaderOps::alu(1, alu),
        }
    }

    /// The events of `records`, each with its processor.
    fn gathered(records: &[TexReqRecord]) -> Vec<(usize, UnitEvent)> {
        let mut g = QuadGatherer::new(Some(IssueModel::SCALAR), 64);
        let mut out = Vec::new();
        for r in records {
            g.record(r, &mut |fp, e| out.push((fp, e)));
        }
        g.flush(&mut |fp, e| out.push((fp, e)));
        out
    }

    fn req(x: u16, y: u16, blocks: &[u64], alu: u32) -> UnitEvent {
        let mut taps = [0; MAX_TEXELS];
        taps[..blocks.len()].copy_from_slice(blocks);
        UnitEvent::Request(UnitRequest {
            x,
            y,
            taps,
            len: blocks.len() as u8,
            ops_before: ShaderOps::alu(1, alu),
        })
    }

    fn work(alu: u32) -> UnitEvent {
        UnitEvent::FragmentEnd(Work {
            ops: ShaderOps::alu(1, alu),
        })
    }

    /// A quad at (2..4, 0..2) on processor 1, two requests a pixel: each
    /// request's blocks once (64-byte blocks), four lanes of the slowest
    /// pixel's work before it and after the last.
    #[test]
    fn a_quad_is_one_fragment_of_its_pixels_distinct_blocks() {
        let records = [
            request(1, 2, 0, 0, 3, &[0, 4, 64, 68]),
            request(1, 3, 0, 0, 5, &[8, 12, 72, 76]),
            request(1, 2, 1, 0, 2, &[128, 132]),
            request(1, 3, 1, 0, 5, &[136]),
            request(1, 2, 0, 1, 1, &[4096]),
            request(1, 3, 0, 1, 7, &[4100]),
            end(1, 2, 0, 1),
            end(1, 3, 0, 6),
            end(1, 2, 1, 2),
            end(1, 3, 1, 0),
        ];
        assert_eq!(
            gathered(&records),
            vec![
                (1, req(1, 0, &[0, 64, 128], 20)),
                (1, req(1, 0, &[4096], 28)),
                (1, work(24)),
            ]
        );
    }

    /// The next quad starts at another processor or place, at a request
    /// after a pixel ended, at a pixel that ends twice, and at a marker;
    /// a quad without requests is its work alone.
    #[test]
    fn quads_are_told_apart() {
        let records = [
            request(0, 0, 0, 0, 1, &[0]),
            request(1, 0, 0, 0, 1, &[0]),
            end(1, 0, 0, 0),
            // Another quad at the same place: a request after an end.
            request(1, 1, 1, 0, 2, &[64]),
            end(1, 1, 1, 0),
            // A quad with no request, at the same place: pixel (1, 1)
            // ends twice.
            end(1, 1, 1, 3),
            TexReqRecord::TileEnd { tile: 0 },
            end(1, 1, 0, 4),
        ];
        assert_eq!(
            gathered(&records),
            vec![
                (0, req(0, 0, &[0], 4)),
                (0, work(0)),
                (1, req(0, 0, &[0], 4)),
                (1, work(0)),
                (1, req(0, 0, &[64], 8)),
                (1, work(0)),
                (1, work(12)),
                (1, work(16)),
            ]
        );
    }

    /// Consecutive records of one request index join (an anisotropic
    /// sample's probes); past 8 distinct blocks the request goes as
    /// several, the work with the first; a fetch and a sample of one
    /// index stay apart.
    #[test]
    fn a_request_of_many_blocks_goes_in_pieces() {
        let blocks: Vec<u64> = (0..11).map(|b| b * 64).collect();
        let mut fetch = request(2, 0, 0, 0, 0, &[9000]);
        if let TexReqRecord::Request(r) = &mut fetch {
            r.filter = FilterKind::Fetch;
        }
        let records = [
            request(2, 0, 0, 0, 1, &blocks[..6]),
            request(2, 0, 0, 0, 0, &blocks[4..8]),
            request(2, 1, 0, 0, 2, &blocks[7..]),
            fetch,
            end(2, 0, 0, 0),
        ];
        assert_eq!(
            gathered(&records),
            vec![
                (2, req(0, 0, &blocks[..8], 8)),
                (2, req(0, 0, &blocks[8..], 0)),
                (2, req(0, 0, &[8960], 0)),
                (2, work(0)),
            ]
        );
    }
}
