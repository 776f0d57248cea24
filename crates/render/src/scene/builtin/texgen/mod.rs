//! Procedural texture generators for the built-in scenes.
//!
//! Each generator fills a square, power-of-two, tileable sRGB RGBA8 image
//! with per-texel float math on seeded noise ([`super::noise`]): no
//! allocation per texel, so even 2048x2048 images build in tens of
//! milliseconds in release. Colours are authored in sRGB `[0, 1]`.
//!
//! This file holds the image loop and the colour helpers; the generators
//! live in one file per concept, all re-exported here: `nature.rs` (grass,
//! rock, snow, water, bark, leaves, blades), `built.rs` (masonry, plaster,
//! roads, facades, paint, pottery, wood), `industrial.rs` (riveted
//! plates, art-deco panels, rusty paint, worn metal, grates),
//! `effects.rs` (banners, puffs, sparks, glass), `printed.rs` (crowds,
//! sponsor boards, liveries).

mod built;
mod effects;
mod industrial;
mod nature;
mod printed;
mod track;

pub use built::*;
pub use effects::*;
pub use industrial::*;
pub use nature::*;
pub use printed::*;
pub use track::*;

use crate::scene::Image;
use crate::texture::TexFormat;

pub type Rgb = [f32; 3];

/// An image of `size` x `size` whose texel `(x, y)` is `f(u, v)` with
/// `u, v` the texel centre in `[0, 1)`. The result is RGBA in `[0, 1]`.
///
/// Texture generation is a large part of building a scene (seconds for the
/// atrium), so rows are split into contiguous bands computed on scoped
/// threads, one per available core (at most [`MAX_GEN_THREADS`]). Every
/// texel is a pure function of its own coordinates and the bands are joined
/// in row order, so the image is the same for any thread count.
pub fn image(name: &str, size: u32, f: impl Fn(f32, f32) -> [f32; 4] + Sync) -> Image {
    let inv = 1.0 / size as f32;
    let rows = |y0: u32, y1: u32, texels: &mut Vec<[u8; 4]>| {
        for y in y0..y1 {
            let v = (y as f32 + 0.5) * inv;
            for x in 0..size {
                let u = (x as f32 + 0.5) * inv;
                texels.push(f(u, v).map(|c| (c.clamp(0.0, 1.0) * 255.0 + 0.5) as u8));
            }
        }
    };
    let threads = gen_threads(size);
    let mut texels = Vec::with_capacity(size as usize * size as usize);
    if threads <= 1 {
        rows(0, size, &mut texels);
    } else {
        let band = size.div_ceil(threads as u32);
        let parts: Vec<Vec<[u8; 4]>> = std::thread::scope(|sc| {
            let handles: Vec<_> = (1..threads as u32)
                .map(|t| {
                    let rows = &rows;
                    sc.spawn(move || {
                        let (y0, y1) = ((t * band).min(size), ((t + 1) * band).min(size));
                        let mut v = Vec::with_capacity(((y1 - y0) * size) as usize);
                        rows(y0, y1, &mut v);
                        v
                    })
                })
                .collect();
            // Band 0 on this thread, straight into the result.
            rows(0, band.min(size), &mut texels);
            handles
                .into_iter()
                .map(|h| h.join().expect("texture generator thread panicked"))
                .collect()
        });
        for p in parts {
            texels.extend_from_slice(&p);
        }
    }
    Image {
        name: name.to_string(),
        width: size,
        height: size,
        format: TexFormat::Rgba8,
        texels,
    }
}

/// Most threads one generated image is split over.
pub const MAX_GEN_THREADS: usize = 8;

/// Threads for an image of side `size`: small images are not worth a
/// thread start.
fn gen_threads(size: u32) -> usize {
    if size < 128 {
        return 1;
    }
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, MAX_GEN_THREADS)
}

pub fn mix(a: Rgb, b: Rgb, t: f32) -> Rgb {
    let t = t.clamp(0.0, 1.0);
    [
        a[0] + (b[0] - a[0]) * t,
        a[1] + (b[1] - a[1]) * t,
        a[2] + (b[2] - a[2]) * t,
    ]
}

pub fn scale(c: Rgb, s: f32) -> Rgb {
    [c[0] * s, c[1] * s, c[2] * s]
}

pub fn opaque(c: Rgb) -> [f32; 4] {
    [c[0], c[1], c[2], 1.0]
}

/// `0` below `a`, `1` above `b`, smooth between.
pub fn step(a: f32, b: f32, x: f32) -> f32 {
    let t = ((x - a) / (b - a)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}
