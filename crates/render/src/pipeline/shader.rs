//! The fragment shader's side of the pipeline: what a shader sees of one
//! quad ([`Fragments`]: attributes, texture sampling and texel loads that
//! report their `tex` accesses), what it returns ([`FragmentOutput`]), and
//! the [`FragmentShader`] trait with its closure forms.

use gfxcache_trace::texreq::FilterKind;
use gfxcache_trace::{Access, Op, Stream};

use crate::buffers::MAX_ATTRS;
use crate::raster::Quad;
use crate::sampler::{Derivs, NoTaps, Sampler, TexView};
use crate::state::MAX_TARGETS;
use crate::surface::BLOCK_BYTES;
use crate::texture::Texture;

use super::path::QuadPath;
use super::requests::SampleTaps;
use super::work::Options;

/// What the fragment shader sees of one quad.
pub struct Fragments<'a> {
    pub quad: &'a Quad,
    /// Perspective-correct attributes per pixel (helper pixels included).
    pub attrs: [[f32; MAX_ATTRS]; 4],
    /// Pixels that are shaded (covered and not killed before shading).
    pub mask: u8,
    pub unit: u16,
    pub(super) tex: &'a mut Vec<Access>,
    pub(super) texels: &'a mut u64,
    /// Where each pixel is in its draw's program (and the quad's texture
    /// request record, when one is kept).
    pub(super) path: QuadPath<'a>,
}

impl Fragments<'_> {
    /// Attributes `k` and `k + 1` of the four pixels, e.g. a uv.
    pub fn uv(&self, k: usize) -> [[f32; 2]; 4] {
        std::array::from_fn(|i| [self.attrs[i][k], self.attrs[i][k + 1]])
    }

    /// Sample `tex` at `uv` for every live pixel (derivatives from the
    /// whole quad); dead pixels get zero. Reads go to the sink as `tex`
    /// accesses of this quad's unit.
    pub fn sample(
        &mut self,
        tex: &Texture,
        sampler: &Sampler,
        uv: &[[f32; 2]; 4],
    ) -> [[f32; 4]; 4] {
        self.sample_view(TexView::Texture(tex), sampler, uv)
    }

    /// [`Fragments::sample`] on any [`TexView`] (render-to-texture).
    pub fn sample_view(
        &mut self,
        tex: TexView<'_>,
        sampler: &Sampler,
        uv: &[[f32; 2]; 4],
    ) -> [[f32; 4]; 4] {
        // One LOD for the quad: its pixels share their derivatives.
        let lod = sampler.quad_lod(tex, &Derivs::from_quad(uv));
        let (mask, unit) = (self.mask, self.unit);
        let (out, texels) = if self.path.records() {
            let mut taps = SampleTaps::new(&mut self.path, tex, sampler.filter, lod.probes);
            sampler.sample_quad(tex, &lod, uv, mask, unit, self.tex, &mut taps)
        } else {
            self.path.request_all(mask, false);
            sampler.sample_quad(tex, &lod, uv, mask, unit, self.tex, &mut NoTaps)
        };
        *self.texels += texels;
        out
    }

    /// The live pixels skip the shader's next optional texture request
    /// (no texture, no reflection, no cascade holding the pixel): its
    /// block of the program costs them nothing (`work.rs`).
    pub fn skip_request(&mut self) {
        self.path.skip(self.mask);
    }

    /// The live pixels of `mask` are discarded here: they stop (no more
    /// work, no more requests; they leave [`Fragments::mask`]) at the
    /// program's discard. Returns the pixels discarded, for
    /// [`FragmentOutput::kill`].
    pub fn discard(&mut self, mask: u8) -> u8 {
        let gone = mask & self.mask;
        self.path.discard(gone);
        self.mask &= !gone;
        gone
    }

    /// Fetch texel `(x, y)` of level 0 of `tex` for every live pixel (no
    /// filtering, as a full-screen pass reads a same-size target); each
    /// distinct 64 B block is reported once for the quad. Coordinates are
    /// clamped to the view; dead pixels get zero.
    pub fn load(&mut self, tex: TexView<'_>, xy: &[[u32; 2]; 4]) -> [[f32; 4]; 4] {
        let (w, h) = tex.level_size(0);
        let mut out = [[0.0; 4]; 4];
        let mut blocks = [0u64; 4];
        let mut n = 0;
        for (i, o) in out.iter_mut().enumerate() {
            if self.mask & (1 << i) != 0 {
                let (x, y) = (xy[i][0].min(w - 1), xy[i][1].min(h - 1));
                *o = tex.fetch(0, x, y);
                *self.texels += 1;
                let a = tex.texel_addr(0, x, y);
                let (index, ops) = self.path.request(i, true);
                let bytes = tex.texel_bytes() as u8;
                self.path
                    .record(i, index, ops, FilterKind::Fetch, bytes, &[a]);
                let b = a & !(BLOCK_BYTES - 1);
                if !blocks[..n].contains(&b) {
                    blocks[n] = b;
                    n += 1;
                }
            }
        }
        for &b in &blocks[..n] {
            self.tex.push(Access {
                addr: b,
                size: BLOCK_BYTES as u32,
                unit: self.unit,
                stream: Stream::Tex,
                op: Op::Read,
            });
        }
        out
    }

    /// Screen positions of the quad's four pixels.
    pub fn pixels(&self) -> [[u32; 2]; 4] {
        std::array::from_fn(|i| {
            let (x, y) = self.quad.pixel(i);
            [x, y]
        })
    }
}

/// What the fragment shader returns for one quad.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FragmentOutput {
    /// `color[target][pixel]`.
    pub color: [[[f32; 4]; 4]; MAX_TARGETS],
    /// Per-pixel depth; starts as the interpolated depth and is used only
    /// when [`FragmentShader::writes_depth`].
    pub depth: [f32; 4],
    /// Pixels the shader discards (bit `i` for pixel `i`); honoured only
    /// when [`FragmentShader::discards`].
    pub kill: u8,
}

/// A fragment shader: called once per quad, from whichever thread runs
/// the quad's band of the screen (hence `Sync`: a shader reads what it
/// samples and keeps no state between quads).
pub trait FragmentShader: Sync {
    fn shade(&self, frag: &mut Fragments<'_>, out: &mut FragmentOutput);
    /// Whether `out.depth` replaces the interpolated depth (forces late Z).
    fn writes_depth(&self) -> bool {
        false
    }
    /// Whether the shader may set [`FragmentOutput::kill`] (forces late Z).
    fn discards(&self) -> bool {
        false
    }
    /// The variant of its draw's program it runs (asked once per draw):
    /// the options its blocks under `When::Option` test (`work.rs`).
    fn options(&self) -> Options {
        Options::NONE
    }
}

impl<F: Fn(&mut Fragments<'_>, &mut FragmentOutput) + Sync> FragmentShader for F {
    fn shade(&self, frag: &mut Fragments<'_>, out: &mut FragmentOutput) {
        self(frag, out)
    }
}

/// A shader closure running the variant of its program that `.0` names
/// ([`FragmentShader::options`]).
pub struct Variant<F>(pub Options, pub F);

impl<F: Fn(&mut Fragments<'_>, &mut FragmentOutput) + Sync> FragmentShader for Variant<F> {
    fn shade(&self, frag: &mut Fragments<'_>, out: &mut FragmentOutput) {
        (self.1)(frag, out)
    }
    fn options(&self) -> Options {
        self.0
    }
}

/// A shader closure that writes depth.
pub struct WritesDepth<F>(pub F);

impl<F: Fn(&mut Fragments<'_>, &mut FragmentOutput) + Sync> FragmentShader for WritesDepth<F> {
    fn shade(&self, frag: &mut Fragments<'_>, out: &mut FragmentOutput) {
        (self.0)(frag, out)
    }
    fn writes_depth(&self) -> bool {
        true
    }
}
