//! Race and rail tracks of the mobile games: stripes and kerbs, a rail
//! track bed, a grandstand crowd, checkerboards.

use super::{image, mix, opaque, scale, step, Rgb};
use crate::scene::builtin::noise::{hash01, Field};
use crate::scene::Image;

/// Stripes of `a` and `b`, `n` of each per tile across u (barrier
/// boards, hazard tape; across v: [`kerb`]), with a little wear.
pub fn stripes(size: u32, seed: u32, n: u32, a: Rgb, b: Rgb) -> Image {
    let f0 = Field::fbm(256, 8, 3, seed);
    image("stripes", size, |u, v| {
        let c = if (u * n as f32).fract() < 0.5 { a } else { b };
        opaque(scale(c, 0.85 + 0.25 * f0.at(u, v)))
    })
}

/// A race track's kerb: `n` red and white blocks per tile along v, with
/// a darker outer edge at `u = 1`.
pub fn kerb(size: u32, seed: u32, n: u32) -> Image {
    let f0 = Field::fbm(256, 8, 3, seed);
    image("kerb", size, |u, v| {
        let c = if (v * n as f32).fract() < 0.5 {
            [0.85, 0.10, 0.08]
        } else {
            [0.95, 0.95, 0.93]
        };
        let c = if u > 0.85 { scale(c, 0.6) } else { c };
        opaque(scale(c, 0.85 + 0.25 * f0.at(u, v)))
    })
}

/// A rail track bed: grey gravel with `sleepers` wooden sleepers across
/// (along v) per tile.
pub fn track_bed(size: u32, seed: u32, sleepers: u32) -> Image {
    let f0 = Field::fbm(256, 16, 3, seed);
    image("track_bed", size, |u, v| {
        let grit = hash01((u * size as f32) as u32, (v * size as f32) as u32, seed);
        let gravel = scale([0.45, 0.43, 0.40], 0.7 + 0.3 * f0.at(u, v) + 0.25 * grit);
        let s = (v * sleepers as f32).fract();
        let wood = scale([0.36, 0.25, 0.16], 0.8 + 0.3 * f0.at(u * 4.0, v));
        opaque(if (0.1..0.9).contains(&u) && s < 0.35 {
            wood
        } else {
            gravel
        })
    })
}

/// A grandstand crowd: rows of spectators as dots of random shirt
/// colours over dark seats.
pub fn grandstand(size: u32, seed: u32, rows: u32) -> Image {
    image("grandstand", size, |u, v| {
        let (x, y) = (u * rows as f32 * 2.0, v * rows as f32);
        let (cx, cy) = (x.floor(), y.floor());
        let id = hash01(cx as u32, cy as u32, seed);
        let (fx, fy) = (x - cx - 0.5, y - cy - 0.45);
        let person = fx * fx + fy * fy < 0.12 && id > 0.15;
        let shirt = [
            hash01(cx as u32, cy as u32, seed ^ 1),
            hash01(cx as u32, cy as u32, seed ^ 2),
            hash01(cx as u32, cy as u32, seed ^ 3),
        ];
        opaque(if person {
            mix(shirt, [0.9, 0.75, 0.6], step(-0.3, -0.1, fy))
        } else {
            [0.12, 0.12, 0.15]
        })
    })
}

/// A checkerboard of `n` x `n` squares of `a` and `b` per tile.
pub fn checker(size: u32, n: u32, a: Rgb, b: Rgb) -> Image {
    image("checker", size, |u, v| {
        let odd = ((u * n as f32) as u32 + (v * n as f32) as u32) % 2 == 1;
        opaque(if odd { b } else { a })
    })
}
