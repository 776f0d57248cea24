//! Render targets and depth/stencil buffers with their pixels.
//!
//! The pipeline needs real values (depth tests, stencil masks, blending and
//! the final picture), not only addresses, so each target pairs a tiled
//! [`Surface`] (where its bytes live) with host-side storage in row-major
//! order (what they hold):
//!
//! - [`ColorTarget`]: RGBA8 (unorm, rounded to nearest) or RGBA16F (IEEE
//!   half floats, rounded to nearest even, converted by hand so no crate is
//!   needed), and the one-channel R8 and R16F (ambient occlusion,
//!   luminance) kept host-side in the four-channel storage of their
//!   precision with green and blue 0 and alpha 1, so they read back as a
//!   one-channel target would. [`ColorTarget::to_rgba8`] exports the
//!   picture.
//! - [`DepthTarget`]: D32F, or D24S8 whose depth is 24-bit unorm. Incoming
//!   depths are converted to the buffer's format before they are compared
//!   or stored, as hardware does. The stencil of D24S8 lives in its own
//!   8-bit plane (a separate [`PixelFormat::S8`] surface, as current GPUs
//!   lay it out), so `stc` accesses have their own addresses. The target
//!   owns its [`Hiz`], which every depth store keeps conservative.

use std::collections::TryReserveError;

use gfxcache_trace::Stream;

use crate::hiz::{Hiz, HizRows};
use crate::storage::{filled, TooLarge};
use crate::surface::{Allocator, PixelFormat, Surface};

/// Colour target formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ColorFormat {
    Rgba8,
    Rgba16F,
    /// One 8-bit unorm channel.
    R8,
    /// One half-float channel.
    R16F,
}

impl ColorFormat {
    /// Channels other than red are not stored.
    fn one_channel(self) -> bool {
        matches!(self, ColorFormat::R8 | ColorFormat::R16F)
    }

    fn masked(self, c: [f32; 4]) -> [f32; 4] {
        if self.one_channel() {
            [c[0], 0.0, 0.0, 1.0]
        } else {
            c
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
enum ColorData {
    Rgba8(Vec<[u8; 4]>),
    Rgba16F(Vec<[u16; 4]>),
}

/// A colour render target.
#[derive(Clone, Debug, PartialEq)]
pub struct ColorTarget {
    pub surface: Surface,
    data: ColorData,
    format: ColorFormat,
    stream: Stream,
}

fn unorm8(c: f32) -> u8 {
    (c.clamp(0.0, 1.0) * 255.0).round() as u8
}

impl ColorTarget {
    /// A `width` x `height` target cleared to transparent black. Panics
    /// where [`ColorTarget::try_new`] fails.
    pub fn new(width: u32, height: u32, format: ColorFormat, alloc: &mut Allocator) -> ColorTarget {
        Self::try_new(width, height, format, alloc).expect("memory for the target's pixels")
    }

    /// [`ColorTarget::new`], or the size of the pixels when the memory for
    /// them is not there.
    pub fn try_new(
        width: u32,
        height: u32,
        format: ColorFormat,
        alloc: &mut Allocator,
    ) -> Result<ColorTarget, TooLarge> {
        let n = width as usize * height as usize;
        let eight = |pf| Ok::<_, TooLarge>((pf, ColorData::Rgba8(filled(n, [0; 4])?)));
        let half = |pf| Ok::<_, TooLarge>((pf, ColorData::Rgba16F(filled(n, [0; 4])?)));
        let (pf, data) = match format {
            ColorFormat::Rgba8 => eight(PixelFormat::Rgba8)?,
            ColorFormat::Rgba16F => half(PixelFormat::Rgba16F)?,
            ColorFormat::R8 => eight(PixelFormat::R8)?,
            ColorFormat::R16F => half(PixelFormat::R16F)?,
        };
        Ok(ColorTarget {
            surface: Surface::new(width, height, pf, alloc),
            data,
            format,
            stream: Stream::Rt,
        })
    }

    /// The same target tagged as the displayable surface: its writes (and
    /// clears) are [`Stream::Display`] accesses instead of `rt`.
    pub fn displayable(mut self) -> ColorTarget {
        self.stream = Stream::Display;
        self
    }

    /// The stream the pipeline tags this target's accesses with.
    pub fn stream(&self) -> Stream {
        self.stream
    }

    pub fn width(&self) -> u32 {
        self.surface.width
    }

    pub fn height(&self) -> u32 {
        self.surface.height
    }

    pub fn format(&self) -> ColorFormat {
        self.format
    }

    fn idx(&self, x: u32, y: u32) -> usize {
        assert!(
            x < self.width() && y < self.height(),
            "pixel ({x}, {y}) outside"
        );
        y as usize * self.width() as usize + x as usize
    }

    /// Every pixel set to `c` (as stored in the format).
    pub fn clear(&mut self, c: [f32; 4]) {
        let c = self.format.masked(c);
        match &mut self.data {
            ColorData::Rgba8(d) => d.fill(c.map(unorm8)),
            ColorData::Rgba16F(d) => d.fill(c.map(f32_to_f16)),
        }
    }

    /// The stored colour of `(x, y)`.
    pub fn read(&self, x: u32, y: u32) -> [f32; 4] {
        let i = self.idx(x, y);
        match &self.data {
            ColorData::Rgba8(d) => unorm8x4(d[i]),
            ColorData::Rgba16F(d) => f16x4_to_f32(d[i]),
        }
    }

    /// Store `c` at `(x, y)`, converted to the format.
    pub fn write(&mut self, x: u32, y: u32, c: [f32; 4]) {
        let i = self.idx(x, y);
        let c = self.format.masked(c);
        match &mut self.data {
            ColorData::Rgba8(d) => d[i] = [unorm8(c[0]), unorm8(c[1]), unorm8(c[2]), unorm8(c[3])],
            ColorData::Rgba16F(d) => {
                d[i] = [
                    f32_to_f16(c[0]),
                    f32_to_f16(c[1]),
                    f32_to_f16(c[2]),
                    f32_to_f16(c[3]),
                ]
            }
        }
    }

    /// The stored pixels, row-major (what the sampler reads).
    pub(crate) fn pixels(&self) -> ColorPixels<'_> {
        match &self.data {
            ColorData::Rgba8(d) => ColorPixels::Rgba8(d),
            ColorData::Rgba16F(d) => ColorPixels::Rgba16F(d),
        }
    }

    /// The pixels of each band of rows `cuts[k]..cuts[k + 1]`, top to
    /// bottom (`cuts` ascending from 0 to the height): what the back end of
    /// one band of the screen may change, while other bands change theirs.
    pub(crate) fn rows_mut<'a>(
        &'a mut self,
        cuts: &'a [u32],
    ) -> impl Iterator<Item = ColorRows<'a>> {
        let (width, format) = (self.width(), self.format);
        let mut rest = match &mut self.data {
            ColorData::Rgba8(d) => RowsData::Rgba8(&mut d[..]),
            ColorData::Rgba16F(d) => RowsData::Rgba16F(&mut d[..]),
        };
        cuts.windows(2).map(move |w| {
            let n = (w[1] - w[0]) as usize * width as usize;
            let data = match std::mem::replace(&mut rest, RowsData::Rgba8(&mut [])) {
                RowsData::Rgba8(d) => {
                    let (band, tail) = d.split_at_mut(n);
                    rest = RowsData::Rgba8(tail);
                    RowsData::Rgba8(band)
                }
                RowsData::Rgba16F(d) => {
                    let (band, tail) = d.split_at_mut(n);
                    rest = RowsData::Rgba16F(tail);
                    RowsData::Rgba16F(band)
                }
            };
            ColorRows {
                width,
                y0: w[0],
                format,
                data,
            }
        })
    }

    /// The picture as row-major RGBA8 pixels (RGBA16F clamped to `[0, 1]`).
    pub fn to_rgba8(&self) -> Vec<[u8; 4]> {
        match &self.data {
            ColorData::Rgba8(d) => d.clone(),
            ColorData::Rgba16F(d) => d.iter().map(|p| p.map(rgba8_of)).collect(),
        }
    }

    /// [`ColorTarget::to_rgba8`] as bytes, 4 a pixel, or an error when
    /// there is no memory for them.
    pub fn try_rgba8_bytes(&self) -> Result<Vec<u8>, TryReserveError> {
        let mut out = Vec::new();
        out.try_reserve_exact(4 * self.width() as usize * self.height() as usize)?;
        match &self.data {
            ColorData::Rgba8(d) => out.extend(d.iter().flatten()),
            ColorData::Rgba16F(d) => out.extend(d.iter().flat_map(|p| p.map(rgba8_of))),
        }
        Ok(out)
    }
}

fn rgba8_of(h: u16) -> u8 {
    unorm8(f16_to_f32(h))
}

/// Four unorm8 channels in `[0, 1]`, written out so that no call to an
/// array map is left in a per-texel loop.
#[inline(always)]
pub(crate) fn unorm8x4([r, g, b, a]: [u8; 4]) -> [f32; 4] {
    [
        r as f32 / 255.0,
        g as f32 / 255.0,
        b as f32 / 255.0,
        a as f32 / 255.0,
    ]
}

/// A colour target's stored pixels (see [`ColorTarget::pixels`]).
pub(crate) enum ColorPixels<'a> {
    Rgba8(&'a [[u8; 4]]),
    Rgba16F(&'a [[u16; 4]]),
}

enum RowsData<'a> {
    Rgba8(&'a mut [[u8; 4]]),
    Rgba16F(&'a mut [[u16; 4]]),
}

/// The pixels of a band of rows of a [`ColorTarget`] (see
/// [`ColorTarget::rows_mut`]).
pub(crate) struct ColorRows<'a> {
    width: u32,
    /// The band's first row.
    y0: u32,
    format: ColorFormat,
    data: RowsData<'a>,
}

impl ColorRows<'_> {
    fn idx(&self, x: u32, y: u32) -> usize {
        assert!(x < self.width && y >= self.y0, "pixel ({x}, {y}) outside");
        (y - self.y0) as usize * self.width as usize + x as usize
    }

    /// [`ColorTarget::read`] for a pixel of the band.
    pub(crate) fn read(&self, x: u32, y: u32) -> [f32; 4] {
        let i = self.idx(x, y);
        match &self.data {
            RowsData::Rgba8(d) => unorm8x4(d[i]),
            RowsData::Rgba16F(d) => f16x4_to_f32(d[i]),
        }
    }

    /// [`ColorTarget::write`] for a pixel of the band.
    pub(crate) fn write(&mut self, x: u32, y: u32, c: [f32; 4]) {
        let i = self.idx(x, y);
        let c = self.format.masked(c);
        match &mut self.data {
            RowsData::Rgba8(d) => d[i] = [unorm8(c[0]), unorm8(c[1]), unorm8(c[2]), unorm8(c[3])],
            RowsData::Rgba16F(d) => {
                d[i] = [
                    f32_to_f16(c[0]),
                    f32_to_f16(c[1]),
                    f32_to_f16(c[2]),
                    f32_to_f16(c[3]),
                ]
            }
        }
    }
}

/// Depth buffer formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DepthFormat {
    D32F,
    D24S8,
}

/// A depth (and maybe stencil) buffer with its HiZ.
#[derive(Clone, Debug, PartialEq)]
pub struct DepthTarget {
    pub surface: Surface,
    /// The stencil plane (D24S8 only).
    pub stencil_surface: Option<Surface>,
    pub hiz: Hiz,
    depth: Vec<f32>,
    stencil: Vec<u8>,
}

const D24_MAX: f64 = 16_777_215.0;

impl DepthTarget {
    /// A `width` x `height` buffer cleared to depth 1, stencil 0. Allocates
    /// the depth surface, then the stencil plane, then the HiZ. Panics
    /// where [`DepthTarget::try_new`] fails.
    pub fn new(width: u32, height: u32, format: DepthFormat, alloc: &mut Allocator) -> DepthTarget {
        Self::try_new(width, height, format, alloc).expect("memory for the depth buffer")
    }

    /// [`DepthTarget::new`], or the size of the first table (depth,
    /// stencil, HiZ) the memory is not there for.
    pub fn try_new(
        width: u32,
        height: u32,
        format: DepthFormat,
        alloc: &mut Allocator,
    ) -> Result<DepthTarget, TooLarge> {
        let pf = match format {
            DepthFormat::D32F => PixelFormat::D32F,
            DepthFormat::D24S8 => PixelFormat::D24S8,
        };
        let surface = Surface::new(width, height, pf, alloc);
        let stencil_surface = (format == DepthFormat::D24S8)
            .then(|| Surface::new(width, height, PixelFormat::S8, alloc));
        let n = width as usize * height as usize;
        let depth = filled(n, 1.0)?;
        let stencil = filled(if stencil_surface.is_some() { n } else { 0 }, 0)?;
        Ok(DepthTarget {
            surface,
            stencil_surface,
            hiz: Hiz::try_new(width, height, alloc)?,
            depth,
            stencil,
        })
    }

    pub fn width(&self) -> u32 {
        self.surface.width
    }

    pub fn height(&self) -> u32 {
        self.surface.height
    }

    pub fn format(&self) -> DepthFormat {
        match self.surface.format {
            PixelFormat::D24S8 => DepthFormat::D24S8,
            _ => DepthFormat::D32F,
        }
    }

    pub fn has_stencil(&self) -> bool {
        self.stencil_surface.is_some()
    }

    /// `d` as this buffer stores it: clamped to `[0, 1]`, and rounded to
    /// 24-bit unorm for D24S8.
    pub fn convert(&self, d: f32) -> f32 {
        convert_depth(self.format(), d)
    }

    fn idx(&self, x: u32, y: u32) -> usize {
        assert!(
            x < self.width() && y < self.height(),
            "pixel ({x}, {y}) outside"
        );
        y as usize * self.width() as usize + x as usize
    }

    /// Depth set to `depth` (converted), stencil to `stencil`, HiZ to match.
    pub fn clear(&mut self, depth: f32, stencil: u8) {
        let d = self.convert(depth);
        self.depth.fill(d);
        self.stencil.fill(stencil);
        self.hiz.clear(d);
    }

    pub fn depth(&self, x: u32, y: u32) -> f32 {
        self.depth[self.idx(x, y)]
    }

    /// The stored depths, row-major (what the sampler reads).
    pub(crate) fn depths(&self) -> &[f32] {
        &self.depth
    }

    /// Store `d` (converted) at `(x, y)`; true when the HiZ bound of its
    /// tile changed.
    pub fn set_depth(&mut self, x: u32, y: u32, d: f32) -> bool {
        let d = self.convert(d);
        let i = self.idx(x, y);
        self.depth[i] = d;
        self.hiz.note_write(x, y, d)
    }

    /// The stencil value (0 without a stencil plane).
    pub fn stencil(&self, x: u32, y: u32) -> u8 {
        if self.has_stencil() {
            self.stencil[self.idx(x, y)]
        } else {
            0
        }
    }

    /// Store stencil `s`; panics without a stencil plane.
    pub fn set_stencil(&mut self, x: u32, y: u32, s: u8) {
        assert!(self.has_stencil(), "depth buffer has no stencil");
        let i = self.idx(x, y);
        self.stencil[i] = s;
    }

    /// Depth, stencil and HiZ of each band of rows `cuts[k]..cuts[k + 1]`,
    /// top to bottom (`cuts` ascending from 0 to the height, each inner
    /// cut a multiple of the HiZ tile): what the back end of one band of
    /// the screen may change, while other bands change theirs.
    pub(crate) fn rows_mut<'a>(
        &'a mut self,
        cuts: &'a [u32],
    ) -> impl Iterator<Item = DepthRows<'a>> {
        let (width, format) = (self.width(), self.format());
        let stencil_rows = if self.stencil.is_empty() { 0 } else { width };
        let mut rest = (&mut self.depth[..], &mut self.stencil[..]);
        let hiz = self.hiz.rows_mut(cuts);
        cuts.windows(2).zip(hiz).map(move |(w, hiz)| {
            let rows = (w[1] - w[0]) as usize;
            let (depth, d) = std::mem::take(&mut rest.0).split_at_mut(rows * width as usize);
            let (stencil, s) =
                std::mem::take(&mut rest.1).split_at_mut(rows * stencil_rows as usize);
            rest = (d, s);
            DepthRows {
                width,
                y0: w[0],
                format,
                depth,
                stencil,
                hiz,
            }
        })
    }
}

/// `d` as a buffer of `format` stores it (see [`DepthTarget::convert`]).
fn convert_depth(format: DepthFormat, d: f32) -> f32 {
    let d = d.clamp(0.0, 1.0);
    match format {
        DepthFormat::D32F => d,
        DepthFormat::D24S8 => ((d as f64 * D24_MAX).round() / D24_MAX) as f32,
    }
}

/// Depth, stencil and HiZ of a band of rows of a [`DepthTarget`] (see
/// [`DepthTarget::rows_mut`]).
pub(crate) struct DepthRows<'a> {
    width: u32,
    /// The band's first row.
    y0: u32,
    format: DepthFormat,
    depth: &'a mut [f32],
    /// Empty without a stencil plane.
    stencil: &'a mut [u8],
    pub(crate) hiz: HizRows<'a>,
}

impl DepthRows<'_> {
    fn idx(&self, x: u32, y: u32) -> usize {
        assert!(x < self.width && y >= self.y0, "pixel ({x}, {y}) outside");
        (y - self.y0) as usize * self.width as usize + x as usize
    }

    /// [`DepthTarget::convert`].
    pub(crate) fn convert(&self, d: f32) -> f32 {
        convert_depth(self.format, d)
    }

    /// [`DepthTarget::depth`] for a pixel of the band.
    pub(crate) fn depth(&self, x: u32, y: u32) -> f32 {
        self.depth[self.idx(x, y)]
    }

    /// [`DepthTarget::set_depth`] for a pixel of the band.
    pub(crate) fn set_depth(&mut self, x: u32, y: u32, d: f32) -> bool {
        let d = self.convert(d);
        let i = self.idx(x, y);
        self.depth[i] = d;
        self.hiz.note_write(x, y, d)
    }

    /// [`DepthTarget::stencil`] for a pixel of the band.
    pub(crate) fn stencil(&self, x: u32, y: u32) -> u8 {
        if self.stencil.is_empty() {
            0
        } else {
            self.stencil[self.idx(x, y)]
        }
    }

    /// [`DepthTarget::set_stencil`] for a pixel of the band.
    pub(crate) fn set_stencil(&mut self, x: u32, y: u32, s: u8) {
        assert!(!self.stencil.is_empty(), "depth buffer has no stencil");
        let i = self.idx(x, y);
        self.stencil[i] = s;
    }
}

/// `v` as an IEEE 754 half float, rounded to nearest even.
pub fn f32_to_f16(v: f32) -> u16 {
    let b = v.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let exp = ((b >> 23) & 0xff) as i32;
    let man = b & 0x7f_ffff;
    if exp == 0xff {
        return sign | 0x7c00 | if man != 0 { 0x200 } else { 0 };
    }
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    if e <= 0 {
        if e < -10 {
            return sign;
        }
        let m = man | 0x80_0000;
        let shift = (14 - e) as u32;
        let half = 1u32 << (shift - 1);
        let rem = m & ((1 << shift) - 1);
        let mut h = m >> shift;
        if rem > half || (rem == half && h & 1 != 0) {
            h += 1;
        }
        return sign | h as u16;
    }
    let mut h = ((e as u32) << 10) | (man >> 13);
    let rem = man & 0x1fff;
    if rem > 0x1000 || (rem == 0x1000 && h & 1 != 0) {
        h += 1; // a carry into the exponent is the correct rounding
    }
    sign | h as u16
}

/// The value of half float `h` (exact; built from bits, as it is on every
/// texel a pass reads back).
pub fn f16_to_f32(h: u16) -> f32 {
    let sign = ((h as u32) & 0x8000) << 16;
    let e = ((h >> 10) & 0x1f) as u32;
    let m = (h & 0x3ff) as u32;
    match e {
        // Subnormal or zero: m * 2^-24, exact in f32.
        0 => {
            let v = m as f32 * (1.0 / 16_777_216.0);
            f32::from_bits(v.to_bits() | sign)
        }
        31 if m == 0 => f32::from_bits(sign | 0x7f80_0000),
        31 => f32::NAN,
        _ => f32::from_bits(sign | ((e + 127 - 15) << 23) | (m << 13)),
    }
}

/// [`f16_to_f32`] of four halves at once, to the bit (NaNs included), with
/// selects instead of branches so that it stays in registers: the
/// sampler converts four channels of every RGBA16F texel it reads.
#[inline(always)]
pub(crate) fn f16x4_to_f32([r, g, b, a]: [u16; 4]) -> [f32; 4] {
    // Written out: an array `map` is a call the compiler may leave in the
    // loop, its result passed through memory.
    [f16_select(r), f16_select(g), f16_select(b), f16_select(a)]
}

/// [`f16_to_f32`] with selects instead of branches.
#[inline(always)]
fn f16_select(h: u16) -> f32 {
    let h = u32::from(h);
    let sign = (h & 0x8000) << 16;
    let e = (h >> 10) & 0x1f;
    let m = h & 0x3ff;
    let normal = sign | ((e + 127 - 15) << 23) | (m << 13);
    let subnormal = (m as f32 * (1.0 / 16_777_216.0)).to_bits() | sign;
    let special = if m == 0 {
        sign | 0x7f80_0000
    } else {
        f32::NAN.to_bits()
    };
    let bits = if e == 0 { subnormal } else { normal };
    f32::from_bits(if e == 31 { special } else { bits })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_halves_at_once_convert_as_one_at_a_time_to_the_bit() {
        for h in 0..=u16::MAX {
            let one = f16_to_f32(h).to_bits();
            let four = f16x4_to_f32([h, h ^ 0x8000, !h, h.rotate_left(5)]);
            assert_eq!(four[0].to_bits(), one, "{h:#06x}");
            assert_eq!(four[1].to_bits(), f16_to_f32(h ^ 0x8000).to_bits());
            assert_eq!(four[2].to_bits(), f16_to_f32(!h).to_bits());
            assert_eq!(four[3].to_bits(), f16_to_f32(h.rotate_left(5)).to_bits());
        }
    }

    #[test]
    fn half_floats_round_trip_and_round() {
        for v in [
            0.0f32,
            1.0,
            -2.5,
            0.5,
            65504.0,
            6.103_515_6e-5,
            5.960_464_5e-8,
        ] {
            assert_eq!(f16_to_f32(f32_to_f16(v)), v, "{v}");
        }
        assert_eq!(f32_to_f16(1.0), 0x3c00);
        assert_eq!(f32_to_f16(70000.0), 0x7c00);
        assert_eq!(f32_to_f16(1e-9), 0);
        // 1 + 2^-11 is halfway between 1 and the next half: ties to even.
        assert_eq!(f32_to_f16(1.0 + 1.0 / 2048.0), 0x3c00);
        assert_eq!(f32_to_f16(1.0 + 3.0 / 2048.0), 0x3c02);
        assert!((f16_to_f32(f32_to_f16(1.0 / 3.0)) - 1.0 / 3.0).abs() < 1e-4);
        // Every half converts to the value its fields define.
        for h in 0..=u16::MAX {
            let sign = if h & 0x8000 != 0 { -1.0f64 } else { 1.0 };
            let e = ((h >> 10) & 0x1f) as i32;
            let m = (h & 0x3ff) as f64;
            let want = match e {
                0 => sign * m * 2f64.powi(-24),
                31 if m == 0.0 => sign * f64::INFINITY,
                31 => f64::NAN,
                _ => sign * (1.0 + m / 1024.0) * 2f64.powi(e - 15),
            };
            let got = f16_to_f32(h) as f64;
            assert!(got == want || (got.is_nan() && want.is_nan()), "{h:#x}");
        }
    }

    #[test]
    fn targets_store_and_export() {
        let mut alloc = Allocator::default();
        let mut c = ColorTarget::new(5, 3, ColorFormat::Rgba8, &mut alloc);
        c.clear([1.0, 0.0, 0.5, 1.0]);
        c.write(4, 2, [0.2, 2.0, -1.0, 0.0]);
        let img = c.to_rgba8();
        assert_eq!(img[0], [255, 0, 128, 255]);
        assert_eq!(img[14], [51, 255, 0, 0]);
        let mut h = ColorTarget::new(4, 4, ColorFormat::Rgba16F, &mut alloc);
        h.write(1, 1, [0.25, 3.0, 0.0, 1.0]);
        assert_eq!(h.read(1, 1), [0.25, 3.0, 0.0, 1.0]);
        assert_eq!(h.to_rgba8()[5], [64, 255, 0, 255]);
        let mut d = DepthTarget::new(8, 8, DepthFormat::D24S8, &mut alloc);
        assert!(d.has_stencil());
        d.clear(0.3, 7);
        assert_eq!(d.stencil(2, 2), 7);
        assert_eq!(d.depth(0, 0), d.convert(0.3));
        assert_ne!(d.convert(0.3), 0.3);
        let s = d.stencil_surface.as_ref().expect("stencil plane");
        assert!(s.base >= d.surface.base + d.surface.size_bytes());
        assert!(d.hiz.surface.base >= s.base + s.size_bytes());
    }
}
