//! Texture sampling on a screen-aligned textured quad, where every texel
//! position, weight and mip level is known analytically: the texel:pixel
//! ratio picks the LOD, filters read exactly the expected texels, and
//! anisotropic filtering takes the expected number of probes.

use crate::common::clip_at;
use gfxcache_render::sampler::Lod;
use gfxcache_render::surface::BLOCK_BYTES;
use gfxcache_render::{
    Allocator, Derivs, Filter, Rasterizer, Sampler, Tap, TexFormat, Texture, Viewport, Wrap,
};
use gfxcache_trace::{Access, Op, Stream};

const SIZE: u32 = 16;

fn texture(w: u32, h: u32) -> Texture {
    let mut alloc = Allocator::default();
    Texture::from_fn(w, h, TexFormat::Rgba8, &mut alloc, |x, y| {
        [(x * 7 + y) as u8, (y * 5 + x * 3) as u8, (x ^ y) as u8, 255]
    })
}

/// What one covered pixel of the quad sampled.
struct Pixel {
    x: u32,
    y: u32,
    taps: Vec<Tap>,
    lod: Lod,
}

/// Draw a 16x16-pixel quad with uv (0,0) at the top-left and (1,1) at the
/// bottom-right, and list the footprint of every pixel.
fn footprints(sampler: &Sampler, tex: &Texture) -> Vec<Pixel> {
    let vp = Viewport::new(SIZE, SIZE);
    let r = Rasterizer::new(vp);
    let s = SIZE as f64;
    let corners = [(0.0, 0.0), (s, 0.0), (s, s), (0.0, s)];
    let pos = corners.map(|(x, y)| clip_at(&vp, x, y, 0.5, 1.0));
    let uv = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0f32]];
    let mut out = vec![];
    for (a, b, c) in [(0, 1, 2), (0, 2, 3)] {
        let attrs = [uv[a], uv[b], uv[c]];
        r.draw([pos[a], pos[b], pos[c]], |q| {
            let quv: [[f32; 2]; 4] = std::array::from_fn(|i| q.interpolate(i, &attrs));
            let d = Derivs::from_quad(&quv);
            for (i, [u, v]) in quv.iter().enumerate() {
                if q.covered(i) {
                    let mut taps = vec![];
                    let lod = sampler.footprint(tex, *u, *v, &d, |t| taps.push(t));
                    let (x, y) = q.pixel(i);
                    out.push(Pixel { x, y, taps, lod });
                }
            }
        });
    }
    assert_eq!(
        out.len(),
        (SIZE * SIZE) as usize,
        "quad covers every pixel once"
    );
    out
}

fn positive(taps: &[Tap]) -> Vec<(u32, u32, u32)> {
    let mut v: Vec<_> = taps
        .iter()
        .filter(|t| t.weight > 1e-6)
        .map(|t| (t.level, t.x, t.y))
        .collect();
    v.sort();
    v.dedup();
    v
}

fn weight_sum(taps: &[Tap]) -> f32 {
    taps.iter().map(|t| t.weight).sum()
}

/// Texel:pixel ratios 1, 2 and 4 select LOD 0, 1 and 2; point sampling
/// then reads exactly texel (x, y) of that level (which is 16x16).
#[test]
fn point_sampling_picks_lod_from_ratio() {
    for (size, level) in [(16, 0), (32, 1), (64, 2)] {
        let tex = texture(size, size);
        for p in footprints(&Sampler::new(Filter::Point), &tex) {
            assert_eq!(
                p.lod.lod,
                level as f32,
                "ratio {} pixel ({}, {})",
                size / 16,
                p.x,
                p.y
            );
            assert_eq!(p.lod.probes, 1);
            assert_eq!(p.taps.len(), 1);
            let t = p.taps[0];
            assert_eq!((t.level, t.x, t.y, t.weight), (level, p.x, p.y, 1.0));
        }
    }
}

/// Bilinear reads the 2x2 whose top-left texel sits under the pixel centre,
/// with all the weight on that texel.
#[test]
fn bilinear_reads_the_expected_2x2() {
    for (size, level) in [(16u32, 0u32), (32, 1), (64, 2)] {
        let tex = texture(size, size);
        for p in footprints(&Sampler::new(Filter::Bilinear), &tex) {
            assert_eq!(p.lod.lod, level as f32);
            let (x1, y1) = ((p.x + 1) % 16, (p.y + 1) % 16);
            let mut got: Vec<_> = p.taps.iter().map(|t| (t.level, t.x, t.y)).collect();
            got.sort();
            let mut want = vec![
                (level, p.x, p.y),
                (level, x1, p.y),
                (level, p.x, y1),
                (level, x1, y1),
            ];
            want.sort();
            assert_eq!(got, want);
            assert_eq!(positive(&p.taps), vec![(level, p.x, p.y)]);
            assert!((weight_sum(&p.taps) - 1.0).abs() < 1e-6);
        }
    }
}

/// Bilinear taps and weights of texture-space position `s` in a level of
/// `n` texels (repeat addressing), as in the sampler's definition.
fn axis_taps(s: f64, n: u32) -> [(u32, f64); 2] {
    let s = (s * 256.0).round() / 256.0;
    let s0 = s.floor();
    let f = s - s0;
    let wrap = |i: i64| i.rem_euclid(n as i64) as u32;
    [(wrap(s0 as i64), 1.0 - f), (wrap(s0 as i64 + 1), f)]
}

/// Trilinear at ratio 1.5 blends levels 0 and 1 by the LOD's fraction, at
/// exactly the texels and weights the texel-space positions give; at ratio
/// 2 it reads level 1 alone.
#[test]
fn trilinear_blends_two_levels() {
    let tex = texture(24, 24);
    let lod = (1.5f64.log2() * 256.0).round() / 256.0;
    let frac = lod;
    for p in footprints(&Sampler::new(Filter::Trilinear), &tex) {
        assert_eq!(p.lod.lod as f64, lod);
        let mut want = vec![];
        for (level, n, lw) in [(0u32, 24u32, 1.0 - frac), (1, 12, frac)] {
            let sx = (p.x as f64 + 0.5) / 16.0 * n as f64 - 0.5;
            let sy = (p.y as f64 + 0.5) / 16.0 * n as f64 - 0.5;
            for (ty, wy) in axis_taps(sy, n) {
                for (tx, wx) in axis_taps(sx, n) {
                    want.push((level, tx, ty, lw * wx * wy));
                }
            }
        }
        assert_eq!(p.taps.len(), 8);
        for (t, w) in p.taps.iter().zip(&want) {
            assert_eq!(
                (t.level, t.x, t.y),
                (w.0, w.1, w.2),
                "pixel ({}, {})",
                p.x,
                p.y
            );
            assert!(
                (t.weight as f64 - w.3).abs() < 1e-5,
                "weight {} vs {}",
                t.weight,
                w.3
            );
        }
    }
    let tex = texture(32, 32);
    for p in footprints(&Sampler::new(Filter::Trilinear), &tex) {
        assert_eq!(p.lod.lod, 1.0);
        assert_eq!(p.taps.len(), 4);
        assert!(p.taps.iter().all(|t| t.level == 1));
        assert_eq!(positive(&p.taps), vec![(1, p.x, p.y)]);
    }
}

/// Anisotropy 2:1 and 8:1 take 2 and 8 probes at LOD 0, each landing on one
/// texel of the pixel's footprint; 32:1 is clamped to 16 probes at LOD 1;
/// a vertical major axis probes along v.
#[test]
fn anisotropic_probe_counts() {
    let aniso = Sampler::new(Filter::Anisotropic);
    for (w, probes, level) in [(32u32, 2u32, 0u32), (128, 8, 0), (512, 16, 1)] {
        let tex = texture(w, 16);
        for p in footprints(&aniso, &tex) {
            assert_eq!(p.lod.probes, probes, "{w}x16");
            assert_eq!(p.lod.lod, level as f32);
            assert_eq!(p.taps.len() as u32, probes * 4);
            assert!(p.taps.iter().all(|t| t.level == level));
            assert!((weight_sum(&p.taps) - 1.0).abs() < 1e-5);
            // Probe i lands on texel column (pixel x) * probes + i of its level.
            let mut cols: Vec<u32> = positive(&p.taps).iter().map(|t| t.1).collect();
            cols.dedup();
            let want: Vec<u32> = (0..probes).map(|i| p.x * probes + i).collect();
            assert_eq!(cols, want, "{w}x16 pixel ({}, {})", p.x, p.y);
        }
    }
    let tex = texture(16, 128);
    for p in footprints(&aniso, &tex) {
        assert_eq!(p.lod.probes, 8);
        assert_eq!(p.lod.axis[0], 0.0);
        let mut rows: Vec<u32> = positive(&p.taps).iter().map(|t| t.2).collect();
        rows.sort();
        rows.dedup();
        assert_eq!(rows, (0..8).map(|i| p.y * 8 + i).collect::<Vec<_>>());
    }
    // A square footprint needs one probe; max_aniso caps the count.
    let tex = texture(16, 16);
    for p in footprints(&aniso, &tex) {
        assert_eq!((p.lod.probes, p.taps.len()), (1, 4));
    }
    let tex = texture(128, 16);
    for p in footprints(&aniso.with_max_aniso(4), &tex) {
        assert_eq!(p.lod.probes, 4);
        assert_eq!(p.lod.lod, 1.0);
    }
}

/// `sample` blends the footprint's colours and reports each distinct
/// 64-byte block once, as texture reads of the given unit.
#[test]
fn sample_reports_deduplicated_blocks_and_blends() {
    let tex = texture(128, 16);
    for filter in [
        Filter::Point,
        Filter::Bilinear,
        Filter::Trilinear,
        Filter::Anisotropic,
    ] {
        let sampler = Sampler::new(filter);
        let d = Derivs {
            dudx: 3.0 / 128.0,
            dvdx: 0.5 / 16.0,
            dudy: -0.25 / 128.0,
            dvdy: 1.25 / 16.0,
        };
        let (u, v) = (0.37, 0.81);
        let mut taps = vec![];
        sampler.footprint(&tex, u, v, &d, |t| taps.push(t));
        let mut accesses = vec![];
        let s = sampler.sample(&tex, u, v, &d, 7, |a| accesses.push(a));
        let mut want_blocks = vec![];
        let mut want_color = [0.0f32; 4];
        for t in &taps {
            let b = tex.texel_addr(t.level, t.x, t.y) & !(BLOCK_BYTES - 1);
            if !want_blocks.contains(&b) {
                want_blocks.push(b);
            }
            let c = tex.texel(t.level, t.x, t.y);
            for k in 0..4 {
                want_color[k] += t.weight * (c[k] as f32 / 255.0);
            }
        }
        let want: Vec<Access> = want_blocks
            .iter()
            .map(|&addr| Access {
                addr,
                size: 64,
                unit: 7,
                stream: Stream::Tex,
                op: Op::Read,
            })
            .collect();
        assert_eq!(accesses, want, "{filter:?}");
        assert_eq!(s.blocks as usize, want.len());
        assert_eq!(s.taps as usize, taps.len());
        assert_eq!(s.color, want_color);
    }
}

/// At ratio 1 with point sampling each 4x4 block of pixels reads one 64-byte
/// block, and the 16x16 texture is read as exactly its 16 blocks.
#[test]
fn point_sampling_reads_one_block_per_4x4_pixels() {
    let tex = texture(16, 16);
    let sampler = Sampler::new(Filter::Point);
    let mut blocks = std::collections::BTreeMap::new();
    for p in footprints(&sampler, &tex) {
        let t = p.taps[0];
        let b = tex.texel_addr(t.level, t.x, t.y) / 64;
        let prev = blocks.insert((p.x / 4, p.y / 4), b);
        assert!(prev.is_none() || prev == Some(b));
        let colour = sampler
            .sample(
                &tex,
                (p.x as f32 + 0.5) / 16.0,
                (p.y as f32 + 0.5) / 16.0,
                &Derivs {
                    dudx: 1.0 / 16.0,
                    dvdx: 0.0,
                    dudy: 0.0,
                    dvdy: 1.0 / 16.0,
                },
                0,
                |_| {},
            )
            .color;
        let c = tex.texel(0, p.x, p.y);
        assert_eq!(colour, c.map(|v| v as f32 / 255.0));
    }
    let distinct: std::collections::BTreeSet<_> = blocks.values().collect();
    assert_eq!(distinct.len(), 16);
}

/// Addressing modes on a footprint that straddles the texture's edge.
#[test]
fn wrap_modes() {
    let tex = texture(16, 16);
    let d = Derivs {
        dudx: 1.0 / 16.0,
        dvdx: 0.0,
        dudy: 0.0,
        dvdy: 1.0 / 16.0,
    };
    let cols = |wrap: Wrap, u: f32| {
        let mut xs = vec![];
        Sampler::new(Filter::Bilinear)
            .with_wrap(wrap, wrap)
            .footprint(&tex, u, 0.5, &d, |t| xs.push(t.x));
        xs.dedup();
        xs
    };
    // u = 0.25 / 16 puts the sample between texel -1 and 0.
    let u = 0.25 / 16.0;
    assert_eq!(cols(Wrap::Repeat, u), vec![15, 0, 15, 0]);
    assert_eq!(cols(Wrap::Clamp, u), vec![0]);
    assert_eq!(cols(Wrap::MirroredRepeat, u), vec![0]);
    let u = 1.0 + 0.25 / 16.0;
    assert_eq!(cols(Wrap::Repeat, u), vec![15, 0, 15, 0]);
    assert_eq!(cols(Wrap::Clamp, u), vec![15]);
    assert_eq!(cols(Wrap::MirroredRepeat, u), vec![15]);
}

/// Magnification clamps the LOD at 0, and the bias shifts it.
#[test]
fn lod_clamps_and_bias() {
    let tex = texture(16, 16);
    let mag = Derivs {
        dudx: 0.25 / 16.0,
        dvdx: 0.0,
        dudy: 0.0,
        dvdy: 0.25 / 16.0,
    };
    assert_eq!(Sampler::new(Filter::Trilinear).lod(&tex, &mag).lod, 0.0);
    let mut biased = Sampler::new(Filter::Trilinear);
    biased.lod_bias = 3.0;
    assert_eq!(biased.lod(&tex, &mag).lod, 1.0);
    let huge = Derivs {
        dudx: 100.0,
        dvdx: 0.0,
        dudy: 0.0,
        dvdy: 100.0,
    };
    assert_eq!(Sampler::new(Filter::Trilinear).lod(&tex, &huge).lod, 4.0);
    assert_eq!(
        Sampler::new(Filter::Trilinear)
            .lod(&tex, &Derivs::default())
            .lod,
        0.0
    );
}
