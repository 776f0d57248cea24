//! Textures of nature: grass, rock, snow, water, bark, leaves, grass
//! blades, bare ground, a gravel road, farmland.

use super::{image, mix, opaque, scale, step, Rgb};
use crate::scene::builtin::noise::{cells, hash01, value, Field};
use crate::scene::Image;

/// Grass: two greens mixed by fbm with fine blade speckle.
pub fn grass(size: u32, seed: u32) -> Image {
    let f0 = Field::fbm(256, 8, 4, seed);
    image("grass", size, |u, v| {
        let n = f0.at(u, v);
        let fine = hash01(
            (u * size as f32) as u32 / 2,
            (v * size as f32) as u32 / 2,
            seed ^ 9,
        );
        let c = mix([0.22, 0.36, 0.10], [0.42, 0.52, 0.18], n * 1.4 - 0.2);
        let c = mix(c, [0.50, 0.45, 0.25], step(0.62, 0.75, n) * 0.5);
        opaque(scale(c, 0.8 + 0.35 * fine))
    })
}

/// Rock: grey strata bent by noise, cracks from cell edges.
pub fn rock(size: u32, seed: u32) -> Image {
    let f0 = Field::fbm(256, 4, 5, seed);
    image("rock", size, |u, v| {
        let n = f0.at(u, v);
        let strata = ((v * 24.0 + n * 6.0) * std::f32::consts::PI).sin() * 0.5 + 0.5;
        let (d, _) = cells(u, v, 16, seed ^ 3);
        let crack = step(0.08, 0.18, d);
        let c = mix(
            [0.33, 0.31, 0.29],
            [0.55, 0.52, 0.48],
            n * 0.7 + strata * 0.3,
        );
        opaque(scale(c, 0.55 + 0.45 * crack))
    })
}

/// Snow: near-white with soft blue-grey drifts.
pub fn snow(size: u32, seed: u32) -> Image {
    let f0 = Field::fbm(256, 8, 4, seed);
    image("snow", size, |u, v| {
        let n = f0.at(u, v);
        let sparkle = hash01((u * size as f32) as u32, (v * size as f32) as u32, seed);
        let c = mix([0.78, 0.82, 0.90], [0.97, 0.97, 0.99], n * 1.3);
        let s = if sparkle > 0.995 { 1.05 } else { 1.0 };
        opaque(scale(c, s))
    })
}

/// Water: dark blue-green with ripple bands (the reflection carries most
/// of the look).
pub fn water(size: u32, seed: u32) -> Image {
    let f0 = Field::fbm(256, 8, 4, seed);
    image("water", size, |u, v| {
        let n = f0.at(u, v);
        let r = ((u * 40.0 + n * 8.0) * std::f32::consts::TAU).sin() * 0.5 + 0.5;
        let c = mix([0.10, 0.22, 0.28], [0.20, 0.36, 0.42], n * 0.6 + r * 0.4);
        [c[0], c[1], c[2], 0.85]
    })
}

/// Bark: vertical furrows (u around the trunk, v along it).
pub fn bark(size: u32, seed: u32) -> Image {
    let f0 = Field::fbm(256, 8, 4, seed);
    image("bark", size, |u, v| {
        let n = f0.at(u, v);
        let furrow = ((u * 16.0 + n * 3.0) * std::f32::consts::TAU).sin().abs();
        let c = mix(
            [0.18, 0.12, 0.08],
            [0.40, 0.30, 0.20],
            furrow * 0.7 + n * 0.3,
        );
        opaque(c)
    })
}

/// Leaf clusters with alpha: opaque leaves, transparent gaps (alpha-mask
/// foliage cards). Cells give the individual leaves.
pub fn leaves(size: u32, seed: u32, tint: Rgb) -> Image {
    let f0 = Field::fbm(256, 4, 3, seed ^ 77);
    image("leaves", size, |u, v| {
        let (d, id) = cells(u, v, 32, seed);
        let shade = (id & 0xff) as f32 / 255.0;
        let density = f0.at(u, v);
        let leaf = d < 0.30 + 0.25 * density;
        let vein = step(0.0, 0.06, d);
        let c = scale(mix(tint, scale(tint, 1.6), shade), 0.6 + 0.4 * vein);
        [c[0], c[1], c[2], if leaf { 1.0 } else { 0.0 }]
    })
}

/// Grass blades for alpha-masked tuft cards: `blades` tapered, leaning
/// blades of random height across the tile. They grow from `v = 1`, the
/// edge [`crate::scene::builtin::shapes::MeshBuilder::cross_cards`] puts on the ground.
pub fn blades(size: u32, seed: u32, blades: u32) -> Image {
    image("blades", size, |u, v| {
        let x = u * blades as f32;
        let i = x as u32;
        let h = 0.45 + 0.55 * hash01(i, 0, seed);
        let lean = (hash01(i, 1, seed) - 0.5) * 0.6;
        // Height above the card's bottom edge, 0..1.
        let up = 1.0 - v;
        let centre = 0.5 + lean * up;
        let half = 0.45 * (1.0 - up / h);
        let on = up < h && (x - i as f32 - centre).abs() < half;
        let tone = hash01(i, 2, seed);
        let c = mix(
            [0.20, 0.34, 0.08],
            [0.45, 0.55, 0.18],
            tone * 0.6 + up * 0.6,
        );
        [c[0], c[1], c[2], if on { 1.0 } else { 0.0 }]
    })
}

/// Bare ground (sand, dry earth, fields): two tones mixed by fbm with
/// fine grit and darker pebbles from cells.
pub fn ground(size: u32, seed: u32, dark: Rgb, light: Rgb) -> Image {
    let f0 = Field::fbm(256, 8, 5, seed);
    image("ground", size, |u, v| {
        let n = f0.at(u, v);
        let px = ((u * size as f32) as u32, (v * size as f32) as u32);
        let grit = hash01(px.0, px.1, seed ^ 3);
        let (d, id) = cells(u, v, 64, seed ^ 5);
        let pebble = d < 0.22 && id & 3 == 0;
        let c = mix(dark, light, n * 1.3 - 0.15);
        let c = scale(c, 0.88 + 0.2 * grit);
        opaque(if pebble { scale(c, 0.7) } else { c })
    })
}

/// A gravel rally road, u across it (`[0, 1]` is the width) and v along:
/// loose stones on the shoulders, two packed wheel ruts, tyre streaks
/// along v.
pub fn gravel_track(size: u32, seed: u32) -> Image {
    let f0 = Field::fbm(256, 8, 4, seed);
    image("gravel_track", size, |u, v| {
        let n = f0.at(u, v);
        let px = ((u * size as f32) as u32, (v * size as f32) as u32);
        let grit = hash01(px.0 / 2, px.1 / 2, seed ^ 7);
        let rut = step(0.08, 0.0, (u - 0.3).abs().min((u - 0.7).abs()));
        let shoulder = step(0.12, 0.02, u.min(1.0 - u));
        let streak = value(u * 256.0, v * 4.0, 256, seed ^ 9) * rut;
        let base = mix([0.55, 0.43, 0.30], [0.70, 0.58, 0.42], n);
        let c = mix(base, [0.40, 0.31, 0.22], rut * 0.6 + streak * 0.3);
        let c = mix(c, [0.62, 0.58, 0.52], shoulder * 0.6);
        let stones = shoulder > 0.3 && grit > 0.8;
        opaque(if stones {
            scale(c, 1.3)
        } else {
            scale(c, 0.9 + 0.15 * grit)
        })
    })
}

/// Farmland: `plots` x `plots` fields per tile, each ploughed in rows
/// along u or v and sown with one of four crops, with paths between.
pub fn fields(size: u32, seed: u32, plots: u32) -> Image {
    const CROPS: [Rgb; 4] = [
        [0.55, 0.50, 0.22],
        [0.35, 0.45, 0.15],
        [0.62, 0.55, 0.30],
        [0.40, 0.30, 0.18],
    ];
    let f0 = Field::fbm(256, 8, 3, seed);
    image("fields", size, |u, v| {
        let (x, y) = (u * plots as f32, v * plots as f32);
        let id = hash01(x as u32, y as u32, seed);
        let (fx, fy) = (x % 1.0, y % 1.0);
        let along = if id < 0.5 { fx } else { fy };
        let furrow = ((along * 24.0 * std::f32::consts::TAU).sin() * 0.5 + 0.5) * 0.25;
        let crop = CROPS[(id * 4.0) as usize % 4];
        let path = fx < 0.03 || fy < 0.03;
        let c = scale(crop, 0.85 + furrow + 0.2 * (f0.at(u, v) - 0.5));
        opaque(if path { [0.55, 0.47, 0.35] } else { c })
    })
}
