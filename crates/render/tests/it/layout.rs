//! Addresses: Morton-ordered textures (a 4x4 RGBA8 footprint per 64-byte
//! block, BC blocks likewise), non-overlapping mip levels and resources,
//! tiled surfaces and the HiZ layout; and the mip chain's contents.

use std::collections::{BTreeMap, BTreeSet};

use gfxcache_render::surface::{align_up, HIZ_TILE};
use gfxcache_render::texture::{morton2, LEVEL_ALIGN};
use gfxcache_render::{Allocator, HizSurface, PixelFormat, Surface, TexFormat, Texture};
use proptest::prelude::*;

fn solid(w: u32, h: u32, format: TexFormat, alloc: &mut Allocator) -> Texture {
    Texture::from_fn(w, h, format, alloc, |x, y| [x as u8, y as u8, 0, 255])
}

#[test]
fn morton_interleaves_bits() {
    assert_eq!(morton2(0, 0), 0);
    assert_eq!(morton2(1, 0), 1);
    assert_eq!(morton2(0, 1), 2);
    assert_eq!(morton2(3, 3), 15);
    assert_eq!(morton2(2, 1), 6);
    assert_eq!(morton2(0xffff_ffff, 0), 0x5555_5555_5555_5555);
    assert_eq!(morton2(0, 0xffff_ffff), 0xaaaa_aaaa_aaaa_aaaa);
}

/// Every element of every level has a unique address inside its level,
/// and the elements of each aligned footprint of `fw` x `fh` texels share
/// one 64-byte block that no other footprint uses (where the level is at
/// least a footprint in both directions).
fn check_texture(tex: &Texture, fw: u32, fh: u32) {
    let bd = tex.format.block_dim();
    let mut prev_end = tex.base;
    for (li, l) in tex.levels().iter().enumerate() {
        let li = li as u32;
        assert!(l.base >= prev_end, "level {li} overlaps the one before");
        assert_eq!(l.base % LEVEL_ALIGN, 0);
        prev_end = l.base + l.bytes;
        let mut seen = BTreeSet::new();
        let mut block_of_fp = BTreeMap::new();
        for y in (0..l.height).step_by(bd as usize) {
            for x in (0..l.width).step_by(bd as usize) {
                let a = tex.texel_addr(li, x, y);
                assert!(a >= l.base && a + tex.format.block_bytes() as u64 <= l.base + l.bytes);
                assert_eq!(a % tex.format.block_bytes() as u64, 0);
                assert!(
                    seen.insert(a),
                    "level {li} element ({x}, {y}) shares an address"
                );
                // Every texel of the element maps to the element's address.
                assert_eq!(
                    tex.texel_addr(
                        li,
                        (x + bd - 1).min(l.width - 1),
                        (y + bd - 1).min(l.height - 1)
                    ),
                    a
                );
                let fp = (x / fw, y / fh);
                let block = a / 64;
                let prev = block_of_fp.insert(fp, block);
                assert!(
                    prev.is_none() || prev == Some(block),
                    "footprint {fp:?} spans blocks at level {li}"
                );
            }
        }
        // A level narrower or shorter than a footprint packs several
        // (clipped) footprints into a block; otherwise each has its own.
        let padded = |n: u32| n.div_ceil(bd).next_power_of_two() * bd;
        if padded(l.width) >= fw && padded(l.height) >= fh {
            let blocks: BTreeSet<_> = block_of_fp.values().collect();
            assert_eq!(
                blocks.len(),
                block_of_fp.len(),
                "two footprints share a block at level {li}"
            );
        }
    }
    assert_eq!(prev_end, tex.base + tex.size_bytes());
}

#[test]
fn rgba8_4x4_footprints_share_one_block() {
    let mut alloc = Allocator::default();
    for (w, h) in [
        (64, 64),
        (64, 16),
        (16, 64),
        (24, 10),
        (1, 1),
        (3, 7),
        (256, 4),
    ] {
        check_texture(&solid(w, h, TexFormat::Rgba8, &mut alloc), 4, 4);
    }
}

#[test]
fn bc_blocks_and_their_footprints() {
    let mut alloc = Allocator::default();
    for (w, h) in [(64, 64), (128, 32), (20, 12)] {
        // BC1: eight 8-byte blocks per 64 B = 16x8 texels.
        let bc1 = solid(w, h, TexFormat::Bc1, &mut alloc);
        check_texture(&bc1, 16, 8);
        assert_eq!(
            bc1.level(0).bytes,
            (w.div_ceil(4).next_power_of_two() * h.div_ceil(4).next_power_of_two() * 8) as u64
        );
        // BC3: four 16-byte blocks per 64 B = 8x8 texels.
        let bc3 = solid(w, h, TexFormat::Bc3, &mut alloc);
        check_texture(&bc3, 8, 8);
    }
    // Down the chain a level smaller than a block is still one block.
    let t = solid(64, 64, TexFormat::Bc1, &mut alloc);
    assert_eq!(t.level_count(), 7);
    assert_eq!(t.level(6).bytes, 8);
    assert_eq!(t.texel_addr(6, 0, 0), t.level(6).base);
}

#[test]
fn textures_and_surfaces_do_not_overlap() {
    let mut alloc = Allocator::default();
    let mut ranges = vec![];
    for i in 0..6u32 {
        let t = solid(8 << i, 4 << i, TexFormat::Rgba8, &mut alloc);
        assert_eq!(t.base % Allocator::PAGE, 0);
        ranges.push((t.base, t.base + t.size_bytes()));
        let s = Surface::new(33 + i, 17, PixelFormat::Rgba8, &mut alloc);
        ranges.push((s.base, s.base + s.size_bytes()));
        let h = HizSurface::new(100, 50 + i, &mut alloc);
        ranges.push((h.base, h.base + h.size_bytes()));
    }
    ranges.sort();
    for w in ranges.windows(2) {
        assert!(w[0].1 <= w[1].0, "{:x?} overlaps {:x?}", w[0], w[1]);
        assert_eq!(w[1].0 % Allocator::PAGE, 0);
    }
}

#[test]
fn allocator_is_page_aligned_and_deterministic() {
    let run = || {
        let mut a = Allocator::new(0x1234);
        [
            a.alloc(1, 1),
            a.alloc(4097, 64),
            a.alloc(10, 65536),
            a.alloc(0, 1),
            a.next_free(),
        ]
    };
    let r = run();
    assert_eq!(r, run());
    assert_eq!(r, [0x2000, 0x3000, 0x10000, 0x11000, 0x12000]);
    assert_eq!(align_up(5, 4), 8);
}

#[test]
fn mip_chain_sizes_and_box_filter() {
    let mut alloc = Allocator::default();
    let t = Texture::from_fn(24, 10, TexFormat::Rgba8, &mut alloc, |x, y| {
        let v = if (x + y) % 2 == 0 { 200 } else { 100 };
        [v, (x * 10) as u8, (y * 20) as u8, 255]
    });
    let dims: Vec<_> = t.levels().iter().map(|l| (l.width, l.height)).collect();
    assert_eq!(dims, vec![(24, 10), (12, 5), (6, 2), (3, 1), (1, 1)]);
    // Level 1 texel (x, y) is the rounded mean of the 2x2 box above it.
    for y in 0..5 {
        for x in 0..12 {
            let got = t.texel(1, x, y);
            let xs = [2 * x, 2 * x + 1];
            let ys = [2 * y, 2 * y + 1];
            for (c, &g) in got.iter().enumerate() {
                let mut sum = 0u32;
                for &sy in &ys {
                    for &sx in &xs {
                        sum += t.texel(0, sx, sy)[c] as u32;
                    }
                }
                assert_eq!(g as u32, (sum + 2) / 4);
            }
            assert_eq!(got[0], 150, "checkerboard averages to grey");
        }
    }
    // A side of 1 averages with itself: level 4 from level 3 (3x1).
    let (a, b) = (t.texel(3, 0, 0), t.texel(3, 1, 0));
    for (c, &g) in t.texel(4, 0, 0).iter().enumerate() {
        let want = (2 * a[c] as u32 + 2 * b[c] as u32 + 2) / 4;
        assert_eq!(g as u32, want);
    }
    // A constant texture stays constant all the way down.
    let c = Texture::from_fn(37, 11, TexFormat::Rgba8, &mut alloc, |_, _| {
        [9, 99, 199, 42]
    });
    for (li, l) in c.levels().iter().enumerate() {
        assert!(
            l.texels().iter().all(|&p| p == [9, 99, 199, 42]),
            "level {li}"
        );
    }
}

#[test]
fn surface_tiles_hold_one_block_each() {
    let mut alloc = Allocator::default();
    for (format, shape) in [
        (PixelFormat::S8, (8, 8)),
        (PixelFormat::D16, (8, 4)),
        (PixelFormat::Rgba8, (4, 4)),
        (PixelFormat::D32F, (4, 4)),
        (PixelFormat::D24S8, (4, 4)),
        (PixelFormat::Rgba16F, (4, 2)),
        (PixelFormat::Rgba32F, (2, 2)),
    ] {
        assert_eq!(format.tile_shape(), shape);
        assert_eq!(shape.0 * shape.1 * format.bytes(), 64);
        let s = Surface::new(100, 70, format, &mut alloc);
        assert_eq!(s.base % 4096, 0);
        let mut addrs = BTreeSet::new();
        let mut tiles = BTreeMap::new();
        let mut pages = BTreeMap::new();
        for y in 0..70 {
            for x in 0..100 {
                let a = s.addr_of(x, y);
                assert!(a >= s.base && a + format.bytes() as u64 <= s.base + s.size_bytes());
                assert_eq!(a % format.bytes() as u64, 0);
                assert!(addrs.insert(a), "{format:?} ({x}, {y}) shares an address");
                assert_eq!(s.block_of(x, y), a & !63);
                let prev = tiles.insert((x / shape.0, y / shape.1), a / 64);
                assert!(
                    prev.is_none() || prev == Some(a / 64),
                    "{format:?} micro-tile spans blocks"
                );
                // 8x8 micro-tiles make one 4 KiB page.
                let prev = pages.insert((x / (8 * shape.0), y / (8 * shape.1)), a / 4096);
                assert!(
                    prev.is_none() || prev == Some(a / 4096),
                    "{format:?} macro-tile spans pages"
                );
            }
        }
        let distinct: BTreeSet<_> = tiles.values().collect();
        assert_eq!(distinct.len(), tiles.len());
        // Row-major pixels inside a micro-tile.
        assert_eq!(s.addr_of(1, 0) - s.addr_of(0, 0), format.bytes() as u64);
        assert_eq!(
            s.addr_of(0, 1) - s.addr_of(0, 0),
            (shape.0 * format.bytes()) as u64
        );
    }
}

#[test]
fn hiz_layout() {
    let mut alloc = Allocator::default();
    let h = HizSurface::new(200, 100, &mut alloc);
    assert_eq!((h.tiles_x, h.tiles_y), (25, 13));
    let mut seen = BTreeSet::new();
    for ty in 0..13 {
        for tx in 0..25 {
            let a = h.addr_of_tile(tx, ty);
            assert_eq!(a % 2, 0);
            assert!(a >= h.base && a + 2 <= h.base + h.size_bytes());
            assert!(seen.insert(a));
            // 8x4 tiles = 64x32 pixels per 64-byte block.
            assert_eq!(a / 64, h.addr_of_tile(tx / 8 * 8, ty / 4 * 4) / 64);
        }
    }
    for (x, y) in [(0, 0), (7, 7), (8, 0), (199, 99), (63, 31), (64, 32)] {
        assert_eq!(
            h.addr_of_pixel(x, y),
            h.addr_of_tile(x / HIZ_TILE, y / HIZ_TILE)
        );
    }
    assert_eq!(HizSurface::quantize_up(0.0), 0);
    assert_eq!(HizSurface::quantize_up(1.0), 65535);
    assert_eq!(HizSurface::quantize_down(1.0), 65535);
}

proptest! {
    /// HiZ quantization is conservative both ways.
    #[test]
    fn hiz_quantization_is_conservative(d in 0.0f32..=1.0) {
        let up = HizSurface::quantize_up(d);
        let down = HizSurface::quantize_down(d);
        prop_assert!(HizSurface::dequantize(up) >= d);
        prop_assert!(HizSurface::dequantize(down) <= d);
        prop_assert!(up - down <= 1);
    }

    /// Texel addresses are a bijection onto the level's Morton range for
    /// power-of-two RGBA8 textures.
    #[test]
    fn pow2_levels_are_dense(lw in 0u32..7, lh in 0u32..7) {
        let mut alloc = Allocator::default();
        let t = solid(1 << lw, 1 << lh, TexFormat::Rgba8, &mut alloc);
        let l = t.level(0);
        let mut all: Vec<u64> = (0..l.height).flat_map(|y| (0..l.width).map(move |x| (x, y))).map(|(x, y)| (t.texel_addr(0, x, y) - l.base) / 4).collect();
        all.sort();
        prop_assert_eq!(all, (0..(l.width * l.height) as u64).collect::<Vec<_>>());
    }
}
