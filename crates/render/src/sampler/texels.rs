//! One level of a [`TexView`](super::TexView) as the filters' inner loop
//! reads it: the view's kind is decided once per sample, not once per
//! texel, and a texel's block is a column part plus a row part, so the
//! four texels of a bilinear footprint cost two of each.

use crate::surface::{BlockParts, Surface, BLOCK_BYTES};
use crate::target::{f16x4_to_f32, unorm8x4, ColorTarget, DepthTarget};
use crate::texture::{MipLevel, Texture};

/// One level of a view: its size, its texels' values and their blocks.
pub(super) trait LevelTexels {
    fn size(&self) -> (u32, u32);
    /// The value of texel `(x, y)`, as [`super::TexView::fetch`] gives it.
    fn fetch(&self, x: u32, y: u32) -> [f32; 4];
    /// The part of texel column `x` in its block's address.
    fn column(&self, x: u32) -> u64;
    /// The part of texel row `y` in its block's address.
    fn row(&self, y: u32) -> u64;
    /// The 64 B block of the texel of column part `column` and row part
    /// `row`: `texel_addr(x, y) & !63`.
    fn block(&self, column: u64, row: u64) -> u64;
}

/// A mip level of a [`Texture`] (Morton-ordered elements).
pub(super) struct TextureLevel<'a> {
    level: &'a MipLevel,
    /// log2 of the texels per element side (0, or 2 for BC formats).
    element_shift: u32,
    /// log2 of the bytes per element.
    bytes_shift: u32,
}

impl<'a> TextureLevel<'a> {
    pub(super) fn new(t: &'a Texture, level: u32) -> TextureLevel<'a> {
        TextureLevel {
            level: t.level(level),
            element_shift: t.format.block_dim().trailing_zeros(),
            bytes_shift: t.format.block_bytes().trailing_zeros(),
        }
    }
}

impl LevelTexels for TextureLevel<'_> {
    fn size(&self) -> (u32, u32) {
        (self.level.width, self.level.height)
    }

    #[inline(always)]
    fn fetch(&self, x: u32, y: u32) -> [f32; 4] {
        let i = y as usize * self.level.width as usize + x as usize;
        unorm8x4(self.level.texels()[i])
    }

    #[inline]
    fn column(&self, x: u32) -> u64 {
        self.level.element_column(x >> self.element_shift) << self.bytes_shift
    }

    #[inline]
    fn row(&self, y: u32) -> u64 {
        self.level.element_row(y >> self.element_shift) << self.bytes_shift
    }

    #[inline]
    fn block(&self, column: u64, row: u64) -> u64 {
        // The two parts have no bit in common, and a level starts on a
        // block boundary.
        self.level.base + ((column | row) & !(BLOCK_BYTES - 1))
    }
}

/// A render target's pixels at its surface's addresses: a colour
/// target's RGBA8 or RGBA16F pixels, or a depth target's depths.
pub(super) struct TargetLevel<'a, P> {
    pixels: &'a [P],
    width: u32,
    height: u32,
    base: u64,
    parts: BlockParts,
}

impl<'a, P> TargetLevel<'a, P> {
    /// Colour target `t`, whose pixels are `pixels`.
    pub(super) fn color(t: &'a ColorTarget, pixels: &'a [P]) -> TargetLevel<'a, P> {
        TargetLevel::of(pixels, &t.surface, t.width(), t.height())
    }

    fn of(pixels: &'a [P], surface: &Surface, width: u32, height: u32) -> TargetLevel<'a, P> {
        TargetLevel {
            pixels,
            width,
            height,
            base: surface.base,
            parts: surface.block_parts(),
        }
    }
}

impl<'a> TargetLevel<'a, f32> {
    /// Depth target `t`.
    pub(super) fn depth(t: &'a DepthTarget) -> TargetLevel<'a, f32> {
        TargetLevel::of(t.depths(), &t.surface, t.width(), t.height())
    }
}

/// A stored pixel's value: unorm in `[0, 1]`, a half float as stored, or
/// a depth as `[z, z, z, 1]`.
pub(super) trait Pixel: Copy {
    fn value(self) -> [f32; 4];
}

impl Pixel for [u8; 4] {
    #[inline(always)]
    fn value(self) -> [f32; 4] {
        unorm8x4(self)
    }
}

impl Pixel for [u16; 4] {
    #[inline(always)]
    fn value(self) -> [f32; 4] {
        f16x4_to_f32(self)
    }
}

impl Pixel for f32 {
    #[inline(always)]
    fn value(self) -> [f32; 4] {
        [self, self, self, 1.0]
    }
}

impl<P: Pixel> LevelTexels for TargetLevel<'_, P> {
    fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    #[inline(always)]
    fn fetch(&self, x: u32, y: u32) -> [f32; 4] {
        self.pixels[y as usize * self.width as usize + x as usize].value()
    }

    #[inline(always)]
    fn column(&self, x: u32) -> u64 {
        self.parts.column(x)
    }

    #[inline(always)]
    fn row(&self, y: u32) -> u64 {
        self.parts.row(y)
    }

    #[inline(always)]
    fn block(&self, column: u64, row: u64) -> u64 {
        self.base + column + row
    }
}
