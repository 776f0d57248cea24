//! Texture sampling as a GPU's texture unit does it, reporting every 64-byte
//! block it reads.
//!
//! - **Derivatives** come from the 2x2 quad ([`Derivs::from_quad`]): coarse
//!   differences between pixel 0 and its right and lower neighbours, in
//!   normalized texture coordinates, the same for all four pixels.
//! - **LOD.** With the footprint's axes in texels `px = |d(u,v)/dx|` and
//!   `py = |d(u,v)/dy|`, isotropic filters use `log2(max(px, py))`.
//!   Anisotropic filtering takes `N = ceil(max / min)` probes (at most
//!   `max_aniso`, at most 16) and `log2(max / N)`, as
//!   `EXT_texture_filter_anisotropic` describes. The LOD gets the bias, is
//!   quantized to 8 fractional bits as hardware does (so results do not
//!   hinge on the last bit of a float), and is clamped to the mip chain.
//! - **Filters.** [`Filter::Point`]: nearest level (`floor(lod + 0.5)`),
//!   nearest texel. [`Filter::Bilinear`]: nearest level, 2x2 texels.
//!   [`Filter::Trilinear`]: bilinear in the two levels around the LOD,
//!   blended by its fraction; a zero fraction reads one level only.
//!   [`Filter::Anisotropic`]: `N` trilinear probes spaced evenly along the
//!   footprint's major axis, averaged.
//! - **Texel positions** are quantized to 8 sub-texel bits before the
//!   bilinear weights are taken. A bilinear footprint always reads its four
//!   texels even when some weights are zero, as a texture unit fetches the
//!   whole 2x2.
//! - **Addresses.** [`Sampler::footprint`] lists every texel a sample reads
//!   with its weight; [`Sampler::sample`] fetches them, blends the colour
//!   and reports each distinct 64-byte block once per sample, in the order
//!   first touched, as a 64-byte [`Stream::Tex`] read tagged with the
//!   caller's `unit`. No allocation per sample.
//! - **Render-to-texture.** Everything above works on a [`TexView`]: a
//!   mipmapped [`Texture`] (Morton layout), or a colour or depth render
//!   target read at its own tiled surface addresses (one level), so the
//!   blocks a pass wrote as `rt` (or `z`) are the blocks a later pass reads
//!   as `tex`. The view is an enum matched per texel (a branch, no dynamic
//!   dispatch). RGBA16F targets return their stored floats (HDR values keep
//!   their range); depth targets return the stored depth in every channel.

use gfxcache_trace::{Access, Op, Stream};

use crate::surface::BLOCK_BYTES;
use crate::target::ColorPixels;
use crate::texture::Texture;

mod rounding;
mod texels;
mod view;

use rounding::{floor, quantize};
use texels::{LevelTexels, TargetLevel, TextureLevel};
pub use view::TexView;

/// What [`Sampler::sample_quad`] tells of each texel it reads, in tap
/// order, pixel by pixel: the texture request record's taps
/// (`pipeline::Fragments`). [`NoTaps`] (`ON` false) compiles the calls
/// away, so the ordinary path does not change.
pub(crate) trait TapRecorder {
    const ON: bool;
    /// The next texel the pixel being sampled reads.
    fn tap(&mut self, level: u32, x: u32, y: u32);
    /// Pixel `pixel` (of the quad) has read all its texels.
    fn pixel_done(&mut self, pixel: usize);
}

/// No taps recorded.
pub(crate) struct NoTaps;

impl TapRecorder for NoTaps {
    const ON: bool = false;
    #[inline(always)]
    fn tap(&mut self, _: u32, _: u32, _: u32) {}
    #[inline(always)]
    fn pixel_done(&mut self, _: usize) {}
}

/// Most probes of an anisotropic sample.
pub const MAX_ANISO: u32 = 16;
/// Fractional bits of the LOD and of texel positions.
pub const FRAC_BITS: u32 = 8;
/// Most texels one sample reads: every probe trilinear.
pub(crate) const MAX_TAPS: usize = MAX_ANISO as usize * 8;

/// Minification/magnification filter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Filter {
    Point,
    Bilinear,
    #[default]
    Trilinear,
    Anisotropic,
}

/// What happens to coordinates outside `[0, 1)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Wrap {
    #[default]
    Repeat,
    MirroredRepeat,
    Clamp,
}

impl Wrap {
    #[inline]
    fn apply(self, i: i64, n: u32) -> u32 {
        let n = n as i64;
        // Every mode leaves a coordinate inside the level as it is (and
        // most taps are inside): no division for those.
        if (0..n).contains(&i) {
            return i as u32;
        }
        (match self {
            Wrap::Repeat => i.rem_euclid(n),
            Wrap::MirroredRepeat => {
                let m = i.rem_euclid(2 * n);
                if m >= n {
                    2 * n - 1 - m
                } else {
                    m
                }
            }
            Wrap::Clamp => i.clamp(0, n - 1),
        }) as u32
    }
}

/// Screen-space derivatives of the texture coordinates (normalized units
/// per pixel).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Derivs {
    pub dudx: f32,
    pub dvdx: f32,
    pub dudy: f32,
    pub dvdy: f32,
}

impl Derivs {
    /// Coarse derivatives of a quad's per-pixel `(u, v)` (pixel order as in
    /// [`crate::Quad`]: top-left, top-right, bottom-left, bottom-right).
    pub fn from_quad(uv: &[[f32; 2]; 4]) -> Derivs {
        Derivs {
            dudx: uv[1][0] - uv[0][0],
            dvdx: uv[1][1] - uv[0][1],
            dudy: uv[2][0] - uv[0][0],
            dvdy: uv[2][1] - uv[0][1],
        }
    }
}

/// Sampler state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sampler {
    pub filter: Filter,
    pub wrap_u: Wrap,
    pub wrap_v: Wrap,
    /// Most anisotropic probes (1..=16); used by [`Filter::Anisotropic`].
    pub max_aniso: u32,
    /// Added to the computed LOD.
    pub lod_bias: f32,
}

impl Default for Sampler {
    fn default() -> Sampler {
        Sampler::new(Filter::default())
    }
}

/// One texel a sample reads.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tap {
    pub level: u32,
    pub x: u32,
    pub y: u32,
    /// Its share of the result; a sample's weights sum to 1.
    pub weight: f32,
}

/// The level of detail chosen for a sample.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lod {
    /// Quantized and clamped to `[0, levels - 1]`.
    pub lod: f32,
    /// Probes taken: 1 unless anisotropic.
    pub probes: u32,
    /// Step between probes in normalized coordinates (the major axis's
    /// derivative); zero unless anisotropic.
    pub axis: [f32; 2],
}

/// The result of a sample.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// Filtered RGBA (in `[0, 1]` for unorm formats).
    pub color: [f32; 4],
    pub lod: Lod,
    /// Texels read (with repeats across probes and levels).
    pub taps: u32,
    /// Distinct 64-byte blocks reported.
    pub blocks: u32,
}

/// One texel a sample reads, with its block.
#[derive(Clone, Copy)]
struct TapAt {
    level: u32,
    x: u32,
    y: u32,
    weight: f32,
    block: u64,
}

impl Sampler {
    /// A sampler with `filter`, repeat addressing, 16x anisotropy and no bias.
    pub fn new(filter: Filter) -> Sampler {
        Sampler {
            filter,
            wrap_u: Wrap::Repeat,
            wrap_v: Wrap::Repeat,
            max_aniso: MAX_ANISO,
            lod_bias: 0.0,
        }
    }

    pub fn with_wrap(mut self, wrap_u: Wrap, wrap_v: Wrap) -> Sampler {
        self.wrap_u = wrap_u;
        self.wrap_v = wrap_v;
        self
    }

    pub fn with_max_aniso(mut self, max_aniso: u32) -> Sampler {
        self.max_aniso = max_aniso;
        self
    }

    /// The LOD and probe count for derivatives `d` on `tex`.
    pub fn lod(&self, tex: &Texture, d: &Derivs) -> Lod {
        self.lod_view(TexView::Texture(tex), d)
    }

    /// [`Sampler::lod`] on any [`TexView`].
    pub fn lod_view(&self, tex: TexView<'_>, d: &Derivs) -> Lod {
        let w = tex.width() as f32;
        let h = tex.height() as f32;
        let px = ((d.dudx * w) * (d.dudx * w) + (d.dvdx * h) * (d.dvdx * h)).sqrt();
        let py = ((d.dudy * w) * (d.dudy * w) + (d.dvdy * h) * (d.dvdy * h)).sqrt();
        let (pmax, pmin, axis) = if px >= py {
            (px, py, [d.dudx, d.dvdx])
        } else {
            (py, px, [d.dudy, d.dvdy])
        };
        let max_aniso = self.max_aniso.clamp(1, MAX_ANISO);
        let (rho, probes, axis) = if self.filter == Filter::Anisotropic && max_aniso > 1 {
            let n = if pmax <= 0.0 {
                1
            } else if pmin <= 0.0 {
                max_aniso
            } else {
                // The small allowance keeps an exact 2:1 from becoming 3 probes
                // through rounding in the derivatives.
                let ratio = (pmax / pmin - 1.0 / 1024.0).ceil();
                if ratio >= max_aniso as f32 {
                    max_aniso
                } else {
                    (ratio as u32).max(1)
                }
            };
            (pmax / n as f32, n, if n > 1 { axis } else { [0.0; 2] })
        } else {
            (pmax, 1, [0.0; 2])
        };
        let raw = rho.log2() + self.lod_bias;
        let max_lod = (tex.level_count() - 1) as f32;
        let lod = if raw.is_nan() {
            0.0
        } else {
            quantize(raw.clamp(-1.0e4, 1.0e4)).clamp(0.0, max_lod)
        };
        Lod { lod, probes, axis }
    }

    /// The LOD a quad's pixels share, from the quad's derivatives `d`
    /// ([`Sampler::lod_view`]). On a view of one level (a render target)
    /// an isotropic filter reads that level whatever the LOD, and takes
    /// one probe, so the derivatives are not looked at.
    pub(crate) fn quad_lod(&self, tex: TexView<'_>, d: &Derivs) -> Lod {
        if tex.level_count() == 1 && self.filter != Filter::Anisotropic {
            return Lod {
                lod: 0.0,
                probes: 1,
                axis: [0.0; 2],
            };
        }
        self.lod_view(tex, d)
    }

    /// Call `tap` for every texel sampling `tex` at `(u, v)` with
    /// derivatives `d` reads, in a fixed order, and return the LOD used.
    pub fn footprint(
        &self,
        tex: &Texture,
        u: f32,
        v: f32,
        d: &Derivs,
        tap: impl FnMut(Tap),
    ) -> Lod {
        self.footprint_view(TexView::Texture(tex), u, v, d, tap)
    }

    /// [`Sampler::footprint`] on any [`TexView`].
    pub fn footprint_view(
        &self,
        tex: TexView<'_>,
        u: f32,
        v: f32,
        d: &Derivs,
        mut tap: impl FnMut(Tap),
    ) -> Lod {
        let lod = self.lod_view(tex, d);
        self.each_tap(tex, &lod, u, v, |t, _| {
            tap(Tap {
                level: t.level,
                x: t.x,
                y: t.y,
                weight: t.weight,
            })
        });
        lod
    }

    /// Every texel sampling `tex` at `(u, v)` with `lod` reads, in a fixed
    /// order, with its value: the view's kind chosen once, then the
    /// filter's loop on it.
    fn each_tap(
        &self,
        tex: TexView<'_>,
        lod: &Lod,
        u: f32,
        v: f32,
        tap: impl FnMut(TapAt, [f32; 4]),
    ) {
        match tex {
            TexView::Texture(t) => {
                let levels = self.levels(|l| TextureLevel::new(t, l), t.level_count(), lod);
                self.taps(&levels, lod, u, v, tap)
            }
            TexView::Color(c) => match c.pixels() {
                ColorPixels::Rgba8(p) => {
                    let levels = self.levels(|_| TargetLevel::color(c, p), 1, lod);
                    self.taps(&levels, lod, u, v, tap)
                }
                ColorPixels::Rgba16F(p) => {
                    let levels = self.levels(|_| TargetLevel::color(c, p), 1, lod);
                    self.taps(&levels, lod, u, v, tap)
                }
            },
            TexView::Depth(d) => {
                let levels = self.levels(|_| TargetLevel::depth(d), 1, lod);
                self.taps(&levels, lod, u, v, tap)
            }
        }
    }

    /// The levels the filter reads at `lod`, of those `level_at` gives
    /// (`levels` of them).
    #[inline(always)]
    fn levels<L: LevelTexels>(
        &self,
        level_at: impl Fn(u32) -> L,
        levels: u32,
        lod: &Lod,
    ) -> Levels<L> {
        match self.filter {
            Filter::Point | Filter::Bilinear => {
                let level = floor(lod.lod + 0.5) as u32;
                Levels::Nearest {
                    level,
                    l: level_at(level),
                }
            }
            Filter::Trilinear | Filter::Anisotropic => {
                let base = floor(lod.lod);
                let frac = lod.lod - base;
                let level = base as u32;
                Levels::Two {
                    level,
                    near: level_at(level),
                    far: (frac != 0.0 && level + 1 < levels).then(|| level_at(level + 1)),
                    frac,
                }
            }
        }
    }

    /// The filter's taps on `levels`.
    #[inline(always)]
    fn taps<L: LevelTexels>(
        &self,
        levels: &Levels<L>,
        lod: &Lod,
        u: f32,
        v: f32,
        mut tap: impl FnMut(TapAt, [f32; 4]),
    ) {
        match *levels {
            Levels::Nearest { level, ref l } if self.filter == Filter::Point => {
                let (lw, lh) = l.size();
                let x = self.wrap_u.apply(floor(u * lw as f32) as i64, lw);
                let y = self.wrap_v.apply(floor(v * lh as f32) as i64, lh);
                let block = l.block(l.column(x), l.row(y));
                let weight = 1.0;
                tap(
                    TapAt {
                        level,
                        x,
                        y,
                        weight,
                        block,
                    },
                    l.fetch(x, y),
                );
            }
            Levels::Nearest { level, ref l } => self.bilinear(l, level, u, v, 1.0, &mut tap),
            Levels::Two {
                level,
                ref near,
                ref far,
                frac,
            } => {
                let mut trilinear = |u: f32, v: f32, weight: f32| match far {
                    None => self.bilinear(near, level, u, v, weight, &mut tap),
                    Some(far) => {
                        self.bilinear(near, level, u, v, weight * (1.0 - frac), &mut tap);
                        self.bilinear(far, level + 1, u, v, weight * frac, &mut tap);
                    }
                };
                if self.filter == Filter::Trilinear {
                    trilinear(u, v, 1.0);
                } else {
                    let n = lod.probes;
                    let weight = 1.0 / n as f32;
                    for i in 0..n {
                        let t = (i as f32 + 0.5) / n as f32 - 0.5;
                        trilinear(u + lod.axis[0] * t, v + lod.axis[1] * t, weight);
                    }
                }
            }
        }
    }

    /// The 2x2 texels around `(u, v)` on level `level` (`l`), row by row.
    #[inline(always)]
    fn bilinear<L: LevelTexels>(
        &self,
        l: &L,
        level: u32,
        u: f32,
        v: f32,
        weight: f32,
        tap: &mut impl FnMut(TapAt, [f32; 4]),
    ) {
        let (lw, lh) = l.size();
        let s = quantize(u * lw as f32 - 0.5);
        let t = quantize(v * lh as f32 - 0.5);
        let (s0, t0) = (floor(s), floor(t));
        let (fs, ft) = (s - s0, t - t0);
        let (x0, y0) = (s0 as i64, t0 as i64);
        let xs = [self.wrap_u.apply(x0, lw), self.wrap_u.apply(x0 + 1, lw)];
        let ys = [self.wrap_v.apply(y0, lh), self.wrap_v.apply(y0 + 1, lh)];
        let columns = [l.column(xs[0]), l.column(xs[1])];
        let rows = [l.row(ys[0]), l.row(ys[1])];
        let wx = [1.0 - fs, fs];
        let wy = [1.0 - ft, ft];
        for j in 0..2 {
            for i in 0..2 {
                let at = TapAt {
                    level,
                    x: xs[i],
                    y: ys[j],
                    weight: weight * wx[i] * wy[j],
                    block: l.block(columns[i], rows[j]),
                };
                tap(at, l.fetch(xs[i], ys[j]));
            }
        }
    }

    /// Sample `tex` at `(u, v)` with derivatives `d`: the filtered colour,
    /// with each distinct 64-byte block read reported once to `sink` as a
    /// [`Stream::Tex`] read by `unit`.
    pub fn sample(
        &self,
        tex: &Texture,
        u: f32,
        v: f32,
        d: &Derivs,
        unit: u16,
        sink: impl FnMut(Access),
    ) -> Sample {
        self.sample_view(TexView::Texture(tex), u, v, d, unit, sink)
    }

    /// [`Sampler::sample`] on any [`TexView`]: a render target is read at
    /// its surface's addresses, and RGBA16F colours keep their range.
    pub fn sample_view(
        &self,
        tex: TexView<'_>,
        u: f32,
        v: f32,
        d: &Derivs,
        unit: u16,
        mut sink: impl FnMut(Access),
    ) -> Sample {
        let lod = self.lod_view(tex, d);
        let mut color = [0.0f32; 4];
        let mut taps = 0u32;
        let mut blocks = [0u64; MAX_TAPS];
        let mut n = 0usize;
        self.each_tap(tex, &lod, u, v, |t, texel| {
            taps += 1;
            accumulate(&mut color, t.weight, texel);
            let repeat = n > 0 && blocks[n - 1] == t.block;
            if !repeat && !blocks[..n].contains(&t.block) {
                blocks[n] = t.block;
                n += 1;
            }
        });
        for &addr in &blocks[..n] {
            sink(tex_read(addr, unit));
        }
        Sample {
            color,
            lod,
            taps,
            blocks: n as u32,
        }
    }

    /// The filtered colours of `tex` at the four `uv` of a quad's pixels
    /// with `lod` (chosen once for the quad, whose pixels share their
    /// derivatives), for the pixels in `mask` (the others get zero), and
    /// the texels read. Each distinct block a pixel reads is appended to
    /// `out` once for that pixel, in the order first touched, as a
    /// [`Stream::Tex`] read by `unit`; `rec` is told every texel read. The
    /// view's kind and the filter's levels are chosen once for the quad.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn sample_quad(
        &self,
        tex: TexView<'_>,
        lod: &Lod,
        uv: &[[f32; 2]; 4],
        mask: u8,
        unit: u16,
        out: &mut Vec<Access>,
        rec: &mut impl TapRecorder,
    ) -> ([[f32; 4]; 4], u64) {
        match tex {
            TexView::Texture(t) => {
                let levels = self.levels(|l| TextureLevel::new(t, l), t.level_count(), lod);
                self.quad(&levels, lod, uv, mask, unit, out, rec)
            }
            TexView::Color(c) => match c.pixels() {
                ColorPixels::Rgba8(p) => {
                    let levels = self.levels(|_| TargetLevel::color(c, p), 1, lod);
                    self.quad(&levels, lod, uv, mask, unit, out, rec)
                }
                ColorPixels::Rgba16F(p) => {
                    let levels = self.levels(|_| TargetLevel::color(c, p), 1, lod);
                    self.quad(&levels, lod, uv, mask, unit, out, rec)
                }
            },
            TexView::Depth(d) => {
                let levels = self.levels(|_| TargetLevel::depth(d), 1, lod);
                self.quad(&levels, lod, uv, mask, unit, out, rec)
            }
        }
    }

    /// [`Sampler::sample_quad`] on the levels chosen.
    #[allow(clippy::too_many_arguments)]
    fn quad<L: LevelTexels, R: TapRecorder>(
        &self,
        levels: &Levels<L>,
        lod: &Lod,
        uv: &[[f32; 2]; 4],
        mask: u8,
        unit: u16,
        out: &mut Vec<Access>,
        rec: &mut R,
    ) -> ([[f32; 4]; 4], u64) {
        let mut colors = [[0.0f32; 4]; 4];
        let mut texels = 0u64;
        for (i, color) in colors.iter_mut().enumerate() {
            if mask & (1 << i) == 0 {
                continue;
            }
            let start = out.len();
            // The last block seen on each of the two levels a trilinear tap
            // alternates between (already reported): neighbouring taps
            // mostly share it, and it needs no search. `u64::MAX` is no
            // block.
            let mut recent = [u64::MAX; 2];
            self.taps(levels, lod, uv[i][0], uv[i][1], |t, texel| {
                texels += 1;
                if R::ON {
                    rec.tap(t.level, t.x, t.y);
                }
                accumulate(color, t.weight, texel);
                let last = &mut recent[(t.level & 1) as usize];
                if *last != t.block {
                    if !out[start..].iter().any(|a| a.addr == t.block) {
                        out.push(tex_read(t.block, unit));
                    }
                    *last = t.block;
                }
            });
            if R::ON {
                rec.pixel_done(i);
            }
        }
        (colors, texels)
    }
}

/// The levels a filter reads at one LOD: the nearest (point, bilinear),
/// or two (trilinear and anisotropic: `near` at `level`, `far` at `level
/// + 1` blended in by `frac`, when there is a fraction and a next level).
enum Levels<L> {
    Nearest {
        level: u32,
        l: L,
    },
    Two {
        level: u32,
        near: L,
        far: Option<L>,
        frac: f32,
    },
}

/// `color += weight * texel`, channel by channel.
#[inline]
fn accumulate(color: &mut [f32; 4], weight: f32, texel: [f32; 4]) {
    for (c, v) in color.iter_mut().zip(texel) {
        *c += weight * v;
    }
}

/// A 64 B `tex` read of `block` by `unit`.
fn tex_read(block: u64, unit: u16) -> Access {
    Access {
        addr: block,
        size: BLOCK_BYTES as u32,
        unit,
        stream: Stream::Tex,
        op: Op::Read,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping_inside_a_level_keeps_the_coordinate_and_outside_follows_the_mode() {
        for n in [1u32, 3, 8, 13] {
            for i in -40i64..40 {
                let n64 = n as i64;
                let m = i.rem_euclid(2 * n64);
                let mirrored = if m >= n64 { 2 * n64 - 1 - m } else { m };
                assert_eq!(Wrap::Repeat.apply(i, n) as i64, i.rem_euclid(n64));
                assert_eq!(Wrap::MirroredRepeat.apply(i, n) as i64, mirrored);
                assert_eq!(Wrap::Clamp.apply(i, n) as i64, i.clamp(0, n64 - 1));
            }
        }
    }
}
