//! The texture request record of a quad (`.gtq`,
//! [`gfxcache_trace::texreq`]): what [`super::Fragments`] writes when
//! tile-based rendering records texture requests
//! ([`super::Pipeline::set_texture_requests`]).
//!
//! Per request the shader makes (a `sample`, `sample_view` or `load`
//! call), one [`TexRequest`](gfxcache_trace::texreq::TexRequest) per pixel of the call's mask, in pixel order:
//! the order of the quad's `tex` records. A sample's taps are the texels
//! the sampler reads, in its order, not de-duplicated; a `load` is one
//! tap ([`FilterKind::Fetch`]). An anisotropic sample is several
//! trilinear probes: one `Trilinear` request per probe, all with the
//! shader request's index, the first carrying the operations before it
//! and the others none (a texture unit issues the probes back to back).
//!
//! **Work.** Each request carries the shader operations its pixel ran
//! since its previous request, on the path it took (`path.rs`), and the
//! pixel's [`TexReqRecord::FragmentEnd`](gfxcache_trace::texreq::TexReqRecord::FragmentEnd)
//! those after its last. The request index counts the requests a pixel
//! made.

use gfxcache_trace::texreq::{FilterKind, MAX_TAPS};
use gfxcache_trace::ShaderOps;

use crate::sampler::{Filter, TapRecorder, TexView, MAX_TAPS as MAX_SAMPLE_TAPS};

use super::path::QuadPath;

/// The texels of one sample call, pixel by pixel, turned into requests.
pub(super) struct SampleTaps<'r, 'a, 'v> {
    path: &'r mut QuadPath<'a>,
    view: TexView<'v>,
    filter: FilterKind,
    bytes: u8,
    probes: u32,
    addrs: [u64; MAX_SAMPLE_TAPS],
    n: usize,
}

impl<'r, 'a, 'v> SampleTaps<'r, 'a, 'v> {
    pub(super) fn new(
        path: &'r mut QuadPath<'a>,
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
            path,
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
        let (index, ops) = self.path.request(pixel, false);
        for (k, taps) in self.addrs[..n].chunks(per).enumerate() {
            let ops = if k == 0 { ops } else { ShaderOps::NONE };
            let (filter, bytes) = (self.filter, self.bytes);
            self.path.record(pixel, index, ops, filter, bytes, taps);
        }
    }
}
