//! The texture request record of a quad (`.gtq`,
//! [`gfxcache_trace::texreq`]): what [`super::Fragments`] writes when
//! tile-based rendering records texture requests
//! ([`super::Pipeline::set_texture_requests`]).
//!
//! Per request the shader makes (a `sample`, `sample_view` or `load`
//! call), one [`TexRequest`] per pixel of the call's mask, in pixel order:
//! the order of the quad's `tex` records. A sample's taps are the texels
//! the sampler reads, in its order, not de-duplicated; a `load` is one
//! tap ([`FilterKind::Fetch`]). An anisotropic sample is several
//! trilinear probes: one `Trilinear` request per probe, all with the
//! shader request's index, the first carrying the ALU work before it and
//! the others 0 (a texture unit issues the probes back to back).
//!
//! **Work.** Each pixel walks its draw's [`ShaderWork`] segments: a
//! request made takes the next segment's instructions (plus those of the
//! segments of requests it skipped, [`super::Fragments::skip_request`]),
//! and the pixel's [`TexReqRecord::FragmentEnd`] takes the rest, so a
//! fragment's instructions always sum to its program's
//! ([`ShaderWork::instructions`]), whatever it skipped. The request index
//! counts the requests a pixel made.

use gfxcache_trace::texreq::{FilterKind, TexReqRecord, TexRequest, MAX_TAPS};

use crate::raster::Quad;
use crate::sampler::{Filter, TapRecorder, TexView, MAX_TAPS as MAX_SAMPLE_TAPS};

use super::ShaderWork;

/// Where one quad's requests go, and where each of its pixels is in its
/// draw's work.
pub(super) struct QuadRequests<'a> {
    out: &'a mut Vec<TexReqRecord>,
    work: ShaderWork,
    fp: u16,
    pixels: [[u16; 2]; 4],
    /// Per pixel: segments passed (requests made or skipped), requests
    /// made, and instructions of skipped segments not yet counted.
    passed: [u32; 4],
    made: [u8; 4],
    carried: [u32; 4],
}

impl<'a> QuadRequests<'a> {
    pub(super) fn new(
        out: &'a mut Vec<TexReqRecord>,
        work: ShaderWork,
        fp: u16,
        quad: &Quad,
    ) -> QuadRequests<'a> {
        QuadRequests {
            out,
            work,
            fp,
            pixels: std::array::from_fn(|i| {
                let (x, y) = quad.pixel(i);
                [x as u16, y as u16]
            }),
            passed: [0; 4],
            made: [0; 4],
            carried: [0; 4],
        }
    }

    /// Pixel `i` makes a request: its index and the instructions since
    /// its previous one.
    fn advance(&mut self, i: usize) -> (u8, u32) {
        let alu = self.carried[i] + self.work.segment(self.passed[i]);
        let index = self.made[i];
        self.carried[i] = 0;
        self.passed[i] += 1;
        self.made[i] = index.saturating_add(1);
        (index, alu)
    }

    /// The pixels of `mask` skip their next request: its work counts
    /// toward the one after.
    pub(super) fn skip(&mut self, mask: u8) {
        for i in 0..4 {
            if mask & (1 << i) != 0 {
                self.carried[i] += self.work.segment(self.passed[i]);
                self.passed[i] += 1;
            }
        }
    }

    fn request(
        &mut self,
        i: usize,
        index: u8,
        alu: u32,
        filter: FilterKind,
        bytes: u8,
        taps: &[u64],
    ) {
        let mut t = [0u64; MAX_TAPS];
        t[..taps.len()].copy_from_slice(taps);
        let [x, y] = self.pixels[i];
        self.out.push(TexReqRecord::Request(TexRequest {
            fp: self.fp,
            x,
            y,
            index,
            filter,
            texel_bytes: bytes,
            alu,
            taps: t,
            len: taps.len() as u8,
        }));
    }

    /// Pixel `i` fetches the texel at `addr` (a `load`).
    pub(super) fn fetch(&mut self, i: usize, addr: u64, bytes: u32) {
        let (index, alu) = self.advance(i);
        self.request(i, index, alu, FilterKind::Fetch, bytes as u8, &[addr]);
    }

    /// The shader is done: each pixel of `mask` (those shaded) ends with
    /// the instructions of the segments it has not passed.
    pub(super) fn end(self, mask: u8) {
        let all = self.work.segments();
        for i in 0..4 {
            if mask & (1 << i) != 0 {
                let rest: u32 = (self.passed[i]..all).map(|k| self.work.segment(k)).sum();
                let [x, y] = self.pixels[i];
                self.out.push(TexReqRecord::FragmentEnd {
                    fp: self.fp,
                    x,
                    y,
                    alu: self.carried[i] + rest,
                });
            }
        }
    }
}

/// The texels of one sample call, pixel by pixel, turned into requests.
pub(super) struct SampleTaps<'r, 'a, 'v> {
    requests: &'r mut QuadRequests<'a>,
    view: TexView<'v>,
    filter: FilterKind,
    bytes: u8,
    probes: u32,
    addrs: [u64; MAX_SAMPLE_TAPS],
    n: usize,
}

impl<'r, 'a, 'v> SampleTaps<'r, 'a, 'v> {
    pub(super) fn new(
        requests: &'r mut QuadRequests<'a>,
        view: TexView<'v>,
        filter: Filter,
        probes: u32,
    ) -> Self {
        let (filter, probes) = match filter {
            Filter::Point => (FilterKind::Nearest, 1),
            Filter::Bilinear => (FilterKind::Bilinear, 1),
            Filter::Trilinear => (FilterKind::Trilinear, 1),
            Filter::Anisotropic => (FilterKind::Trilinear, probes.max(1)),
        };
        SampleTaps {
            requests,
            view,
            filter,
            bytes: view.texel_bytes() as u8,
            probes,
            addrs: [0; MAX_SAMPLE_TAPS],
            n: 0,
        }
    }
}

impl TapRecorder for SampleTaps<'_, '_, '_> {
    const ON: bool = true;

    #[inline]
    fn tap(&mut self, level: u32, x: u32, y: u32) {
        self.addrs[self.n] = self.view.texel_addr(level, x, y);
        self.n += 1;
    }

    fn pixel_done(&mut self, pixel: usize) {
        let n = std::mem::take(&mut self.n);
        let per = n / self.probes as usize;
        debug_assert!(per * self.probes as usize == n && (1..=MAX_TAPS).contains(&per));
        let (index, alu) = self.requests.advance(pixel);
        for (k, taps) in self.addrs[..n].chunks(per).enumerate() {
            let alu = if k == 0 { alu } else { 0 };
            let (filter, bytes) = (self.filter, self.bytes);
            self.requests
                .request(pixel, index, alu, filter, bytes, taps);
        }
    }
}
