//! Where surfaces live: a driver-like address allocator and the tiled
//! layouts of colour, depth, stencil and hierarchical-Z surfaces.
//!
//! Cache behaviour depends on addresses, so surfaces get them the way a
//! driver would hand them out, and pixels are laid out the way GPUs tile
//! them rather than in scanlines:
//!
//! - [`Allocator`]: a bump allocator over a GPU virtual address space.
//!   Every allocation starts on a page boundary (4 KiB by default, or a
//!   larger alignment when asked), so two resources never share a page and
//!   the same sequence of allocations always yields the same addresses.
//! - [`Surface`]: one 64-byte block holds a small rectangle of pixels (a
//!   *micro-tile*) whose shape depends on the pixel size: 8x8 for 8-bit
//!   stencil, 8x4 for 16-bit, 4x4 for 32-bit colour and depth, 4x2 for
//!   64-bit, 2x2 for 128-bit. Pixels are row-major inside a micro-tile.
//!   Micro-tiles are grouped 8x8 into 4 KiB *macro-tiles* (one page, so a
//!   page covers a square-ish screen region, as GPU tiling modes do),
//!   micro-tiles row-major inside a macro-tile, macro-tiles row-major over
//!   the surface, whose size is padded up to whole macro-tiles.
//! - [`HizSurface`]: one 16-bit entry per 8x8-pixel tile holding a
//!   conservatively quantized depth bound; a 64-byte block holds 32 entries
//!   covering 8x4 tiles (64x32 pixels); blocks are row-major.

/// The unit of memory traffic the layouts are designed around.
pub const BLOCK_BYTES: u64 = 64;
/// Micro-tiles per macro-tile side: 8x8 blocks of 64 B = one 4 KiB page.
pub const MACRO_TILE_BLOCKS: u32 = 8;

/// A deterministic bump allocator of page-aligned GPU addresses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Allocator {
    next: u64,
    page: u64,
}

impl Default for Allocator {
    fn default() -> Allocator {
        Allocator::new(Allocator::DEFAULT_BASE)
    }
}

impl Allocator {
    /// Where allocation starts by default: 4 GiB, clear of address 0 and of
    /// anything a CPU-side trace might put in the low range.
    pub const DEFAULT_BASE: u64 = 0x1_0000_0000;
    /// Default page size.
    pub const PAGE: u64 = 4096;

    /// Allocate from `base` (rounded up to a page) with 4 KiB pages.
    pub fn new(base: u64) -> Allocator {
        Allocator::with_page(base, Allocator::PAGE)
    }

    /// Allocate from `base` with pages of `page` bytes (a power of two).
    pub fn with_page(base: u64, page: u64) -> Allocator {
        assert!(
            page.is_power_of_two(),
            "page size {page} is not a power of two"
        );
        Allocator {
            next: align_up(base, page),
            page,
        }
    }

    /// Reserve `bytes` bytes aligned to `align` (a power of two; at least a
    /// page is used) and return the base address.
    pub fn alloc(&mut self, bytes: u64, align: u64) -> u64 {
        assert!(
            align.is_power_of_two(),
            "alignment {align} is not a power of two"
        );
        let base = align_up(self.next, align.max(self.page));
        self.next = align_up(base + bytes.max(1), self.page);
        base
    }

    /// The address the next allocation would start from (page-aligned).
    pub fn next_free(&self) -> u64 {
        self.next
    }

    pub fn page(&self) -> u64 {
        self.page
    }
}

/// Round `v` up to a multiple of `align` (a power of two).
pub fn align_up(v: u64, align: u64) -> u64 {
    (v + align - 1) & !(align - 1)
}

/// Pixel formats of render targets, depth and stencil surfaces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PixelFormat {
    /// 8-bit stencil.
    S8,
    /// 16-bit depth.
    D16,
    /// 8-bit RGBA colour.
    Rgba8,
    /// 32-bit float depth.
    D32F,
    /// 24-bit depth + 8-bit stencil.
    D24S8,
    /// 16-bit float RGBA (HDR colour, G-buffer).
    Rgba16F,
    /// 32-bit float RGBA.
    Rgba32F,
    /// One 8-bit colour channel (ambient occlusion).
    R8,
    /// One 16-bit float colour channel (luminance).
    R16F,
}

impl PixelFormat {
    /// Bytes per pixel.
    pub const fn bytes(self) -> u32 {
        match self {
            PixelFormat::S8 | PixelFormat::R8 => 1,
            PixelFormat::D16 | PixelFormat::R16F => 2,
            PixelFormat::Rgba8 | PixelFormat::D32F | PixelFormat::D24S8 => 4,
            PixelFormat::Rgba16F => 8,
            PixelFormat::Rgba32F => 16,
        }
    }

    /// Width and height of the pixel rectangle one 64-byte block holds.
    pub const fn tile_shape(self) -> (u32, u32) {
        match self.bytes() {
            1 => (8, 8),
            2 => (8, 4),
            4 => (4, 4),
            8 => (4, 2),
            _ => (2, 2),
        }
    }
}

/// A colour, depth or stencil surface: its base address and tiled layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Surface {
    pub base: u64,
    pub width: u32,
    pub height: u32,
    pub format: PixelFormat,
    /// Micro-tiles per row and column, padded to whole macro-tiles.
    tiles_x: u32,
    tiles_y: u32,
}

impl Surface {
    /// Lay out a `width` x `height` surface of `format` and give it an address.
    pub fn new(width: u32, height: u32, format: PixelFormat, alloc: &mut Allocator) -> Surface {
        assert!(width > 0 && height > 0, "empty surface");
        let (tw, th) = format.tile_shape();
        let m = MACRO_TILE_BLOCKS;
        let tiles_x = width.div_ceil(tw).div_ceil(m) * m;
        let tiles_y = height.div_ceil(th).div_ceil(m) * m;
        let bytes = tiles_x as u64 * tiles_y as u64 * BLOCK_BYTES;
        let base = alloc.alloc(bytes, BLOCK_BYTES * (m * m) as u64);
        Surface {
            base,
            width,
            height,
            format,
            tiles_x,
            tiles_y,
        }
    }

    /// Bytes the surface occupies (including the padding to macro-tiles).
    pub fn size_bytes(&self) -> u64 {
        self.tiles_x as u64 * self.tiles_y as u64 * BLOCK_BYTES
    }

    /// Address of the first byte of pixel `(x, y)`.
    pub fn addr_of(&self, x: u32, y: u32) -> u64 {
        debug_assert!(
            x < self.width && y < self.height,
            "pixel ({x}, {y}) outside"
        );
        // Tile sides are powers of two: shifts and masks, not divisions
        // by a side known only at run time.
        let (tw, th) = self.format.tile_shape();
        let (sw, sh) = (tw.trailing_zeros(), th.trailing_zeros());
        let m = MACRO_TILE_BLOCKS;
        let (tx, ty) = (x >> sw, y >> sh);
        let macro_index = (ty / m) as u64 * (self.tiles_x / m) as u64 + (tx / m) as u64;
        let block = macro_index * (m * m) as u64 + ((ty % m) * m + tx % m) as u64;
        let inner = (((y & (th - 1)) << sw) + (x & (tw - 1))) * self.format.bytes();
        self.base + block * BLOCK_BYTES + inner as u64
    }

    /// Address of the 64-byte block holding pixel `(x, y)`.
    pub fn block_of(&self, x: u32, y: u32) -> u64 {
        self.addr_of(x, y) & !(BLOCK_BYTES - 1)
    }

    /// The parts of its blocks' addresses a texel's column and row give:
    /// [`Surface::block_of`]`(x, y)` is `base + column(x) + row(y)`, so a
    /// sampler reading two columns of two rows computes two of each; the
    /// format's tile shape and the macro-tile row are worked out once
    /// (shifts and a product, no division per texel).
    pub(crate) fn block_parts(&self) -> BlockParts {
        let (tw, th) = self.format.tile_shape();
        let m = MACRO_TILE_BLOCKS;
        BlockParts {
            column_shift: tw.trailing_zeros(),
            row_shift: th.trailing_zeros(),
            macro_row: (self.tiles_x / m) as u64 * (m * m) as u64 * BLOCK_BYTES,
        }
    }
}

/// A surface's block address parts (see [`Surface::block_parts`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct BlockParts {
    column_shift: u32,
    row_shift: u32,
    /// Bytes of one row of macro-tiles.
    macro_row: u64,
}

impl BlockParts {
    /// Column `x`'s part of its blocks' offsets.
    #[inline(always)]
    pub(crate) fn column(&self, x: u32) -> u64 {
        let tx = x >> self.column_shift;
        let m = MACRO_TILE_BLOCKS;
        ((tx / m) as u64 * (m * m) as u64 + (tx % m) as u64) * BLOCK_BYTES
    }

    /// Row `y`'s part of its blocks' offsets.
    #[inline(always)]
    pub(crate) fn row(&self, y: u32) -> u64 {
        let ty = y >> self.row_shift;
        let m = MACRO_TILE_BLOCKS;
        (ty / m) as u64 * self.macro_row + ((ty % m) * m) as u64 * BLOCK_BYTES
    }
}

/// Pixels per side of the screen tile one HiZ entry summarizes.
pub const HIZ_TILE: u32 = 8;
/// HiZ entries per 64-byte block along x and y (32 entries of 2 bytes).
pub const HIZ_BLOCK_SHAPE: (u32, u32) = (8, 4);

/// A hierarchical-Z surface: one 16-bit depth bound per 8x8 pixels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HizSurface {
    pub base: u64,
    /// HiZ tiles per row and column (screen size / 8, rounded up).
    pub tiles_x: u32,
    pub tiles_y: u32,
    blocks_x: u32,
    blocks_y: u32,
}

impl HizSurface {
    /// The HiZ surface for a `width` x `height` depth surface.
    pub fn new(width: u32, height: u32, alloc: &mut Allocator) -> HizSurface {
        assert!(width > 0 && height > 0, "empty surface");
        let tiles_x = width.div_ceil(HIZ_TILE);
        let tiles_y = height.div_ceil(HIZ_TILE);
        let blocks_x = tiles_x.div_ceil(HIZ_BLOCK_SHAPE.0);
        let blocks_y = tiles_y.div_ceil(HIZ_BLOCK_SHAPE.1);
        let base = alloc.alloc(blocks_x as u64 * blocks_y as u64 * BLOCK_BYTES, BLOCK_BYTES);
        HizSurface {
            base,
            tiles_x,
            tiles_y,
            blocks_x,
            blocks_y,
        }
    }

    pub fn size_bytes(&self) -> u64 {
        self.blocks_x as u64 * self.blocks_y as u64 * BLOCK_BYTES
    }

    /// Address of the entry of HiZ tile `(tx, ty)`.
    pub fn addr_of_tile(&self, tx: u32, ty: u32) -> u64 {
        debug_assert!(
            tx < self.tiles_x && ty < self.tiles_y,
            "HiZ tile ({tx}, {ty}) outside"
        );
        let (bw, bh) = HIZ_BLOCK_SHAPE;
        let block = (ty / bh) as u64 * self.blocks_x as u64 + (tx / bw) as u64;
        self.base + block * BLOCK_BYTES + (((ty % bh) * bw + tx % bw) * 2) as u64
    }

    /// Address of the entry covering pixel `(x, y)`.
    pub fn addr_of_pixel(&self, x: u32, y: u32) -> u64 {
        self.addr_of_tile(x / HIZ_TILE, y / HIZ_TILE)
    }

    /// `depth` in `[0, 1]` as a 16-bit bound never below it: the value to
    /// store for a tile's farthest depth (a less-than test may reject a
    /// fragment against it without ever rejecting a visible one).
    pub fn quantize_up(depth: f32) -> u16 {
        (depth.clamp(0.0, 1.0) as f64 * 65535.0).ceil() as u16
    }

    /// `depth` in `[0, 1]` as a 16-bit bound never above it: the value to
    /// compare for a primitive's nearest depth.
    pub fn quantize_down(depth: f32) -> u16 {
        (depth.clamp(0.0, 1.0) as f64 * 65535.0).floor() as u16
    }

    /// The depth a stored entry stands for.
    pub fn dequantize(q: u16) -> f32 {
        (q as f64 / 65535.0) as f32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_is_its_column_part_plus_its_row_part() {
        let mut alloc = Allocator::default();
        for format in [
            PixelFormat::S8,
            PixelFormat::D16,
            PixelFormat::Rgba8,
            PixelFormat::Rgba16F,
            PixelFormat::Rgba32F,
            PixelFormat::R8,
            PixelFormat::R16F,
            PixelFormat::D32F,
        ] {
            let s = Surface::new(77, 45, format, &mut alloc);
            for y in 0..45 {
                for x in 0..77 {
                    let parts = s.block_parts();
                    let b = s.base + parts.column(x) + parts.row(y);
                    assert_eq!(b, s.block_of(x, y), "{format:?} ({x}, {y})");
                    // The layout written with divisions by the tile sides.
                    let (tw, th) = format.tile_shape();
                    let (tx, ty, m) = (x / tw, y / th, MACRO_TILE_BLOCKS);
                    let macro_index = (ty / m) * (s.tiles_x / m) + tx / m;
                    let block = macro_index * m * m + (ty % m) * m + tx % m;
                    let inner = ((y % th) * tw + x % tw) * format.bytes();
                    let want = s.base + block as u64 * BLOCK_BYTES + inner as u64;
                    assert_eq!(s.addr_of(x, y), want, "{format:?} ({x}, {y})");
                }
            }
        }
    }
}
