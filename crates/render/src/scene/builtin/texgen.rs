//! Procedural texture generators for the built-in scenes.
//!
//! Each generator fills a square, power-of-two, tileable sRGB RGBA8 image
//! with per-texel float math on seeded noise ([`super::noise`]): no
//! allocation per texel, so even 2048x2048 images build in tens of
//! milliseconds in release. Colours are authored in sRGB `[0, 1]`.

use super::noise::{cells, hash01, value, Field};
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

/// Running-bond bricks with mortar; `rows` courses per tile.
pub fn bricks(size: u32, seed: u32, rows: u32, color: Rgb) -> Image {
    let f0 = Field::fbm(256, 16, 3, seed ^ 5);
    image("bricks", size, |u, v| {
        let y = v * rows as f32;
        let row = y.floor();
        let cols = rows / 2;
        let x = u * cols as f32 + if row as u32 % 2 == 1 { 0.5 } else { 0.0 };
        let (fx, fy) = (x - x.floor(), y - row);
        let id = hash01(x.floor() as u32 % cols, row as u32, seed);
        let mortar = !(0.03..=0.97).contains(&fx) || !(0.06..=0.94).contains(&fy);
        let n = f0.at(u, v);
        if mortar {
            opaque(scale([0.62, 0.60, 0.56], 0.8 + 0.3 * n))
        } else {
            let c = scale(color, 0.75 + 0.45 * id);
            opaque(scale(c, 0.8 + 0.35 * n))
        }
    })
}

/// Dressed stone blocks (ashlar): large light blocks, thin joints.
pub fn ashlar(size: u32, seed: u32, color: Rgb) -> Image {
    let f0 = Field::fbm(512, 8, 5, seed);
    image("ashlar", size, |u, v| {
        let rows = 4.0;
        let y = v * rows;
        let row = y.floor();
        let x = u * 2.0 + if row as u32 % 2 == 1 { 0.5 } else { 0.0 };
        let (fx, fy) = (x - x.floor(), y - row);
        let joint = !(0.012..=0.988).contains(&fx) || !(0.02..=0.98).contains(&fy);
        let n = f0.at(u, v);
        let id = hash01(x.floor() as u32 % 2, row as u32, seed);
        let c = scale(color, 0.82 + 0.18 * id + 0.25 * (n - 0.5));
        opaque(if joint { scale(c, 0.55) } else { c })
    })
}

/// Polished marble tiles in a checker of two stones with veins.
pub fn marble_tiles(size: u32, seed: u32, tiles: u32) -> Image {
    let f0 = Field::fbm(512, 4, 6, seed);
    image("marble", size, |u, v| {
        let (tx, ty) = ((u * tiles as f32) as u32, (v * tiles as f32) as u32);
        let (fx, fy) = (u * tiles as f32 % 1.0, v * tiles as f32 % 1.0);
        let n = f0.at(u, v);
        let vein = ((u * 6.0 + v * 4.0 + n * 5.0) * std::f32::consts::PI)
            .sin()
            .abs();
        let vein = step(0.0, 0.12, vein);
        let dark = (tx + ty) % 2 == 1;
        let (a, b): (Rgb, Rgb) = if dark {
            ([0.30, 0.24, 0.20], [0.55, 0.47, 0.40])
        } else {
            ([0.72, 0.70, 0.66], [0.92, 0.90, 0.86])
        };
        let c = mix(a, b, vein * 0.8 + n * 0.2);
        let grout = fx < 0.01 || fy < 0.01;
        opaque(if grout { [0.25, 0.24, 0.22] } else { c })
    })
}

/// Plaster / sandstone: warm, softly mottled.
pub fn plaster(size: u32, seed: u32, color: Rgb) -> Image {
    let f0 = Field::fbm(512, 8, 5, seed);
    image("plaster", size, |u, v| {
        let n = f0.at(u, v);
        let fine = value(u * 128.0, v * 128.0, 128, seed ^ 2);
        opaque(scale(color, 0.8 + 0.3 * n + 0.08 * fine))
    })
}

/// A cloth banner with a border and an emblem; the bottom edge is cut
/// into a swallowtail that the alpha mask removes.
pub fn banner(size: u32, seed: u32, cloth: Rgb, trim: Rgb) -> Image {
    image("banner", size, |u, v| {
        let weave = value(u * 256.0, v * 256.0, 256, seed) * 0.12;
        let border = !(0.06..=0.94).contains(&u) || v < 0.04;
        let (dx, dy) = (u - 0.5, v - 0.42);
        let r = (dx * dx + dy * dy).sqrt();
        let ang = dy.atan2(dx);
        let star = r < 0.13 + 0.06 * (ang * 5.0).cos();
        let ring = (0.20..0.23).contains(&r);
        let c = if border || star || ring { trim } else { cloth };
        let cut = v > 0.85 && (u - 0.5).abs() < (v - 0.85) * 3.5;
        let alpha = if cut { 0.0 } else { 1.0 };
        let c = scale(c, 0.9 + weave);
        [c[0], c[1], c[2], alpha]
    })
}

/// A soft round puff (smoke, mist): alpha falls off from the centre,
/// broken up by noise.
pub fn puff(size: u32, seed: u32, color: Rgb) -> Image {
    let f0 = Field::fbm(256, 4, 4, seed);
    image("puff", size, |u, v| {
        let (dx, dy) = (u - 0.5, v - 0.5);
        let r = (dx * dx + dy * dy).sqrt() * 2.0;
        let n = f0.at(u, v);
        let a = (1.0 - r).max(0.0) * (0.5 + 0.8 * n);
        [color[0], color[1], color[2], (a * a).min(1.0)]
    })
}

/// Glass: faint tint, mostly transparent, with a brighter streak.
pub fn glass(size: u32, seed: u32, tint: Rgb) -> Image {
    image("glass", size, |u, v| {
        let streak = step(0.0, 0.05, ((u + v) * 3.0 % 1.0 - 0.5).abs() - 0.38);
        let n = value(u * 8.0, v * 8.0, 8, seed);
        let c = mix(tint, [0.95, 0.97, 1.0], streak * 0.6);
        [c[0], c[1], c[2], 0.30 + 0.25 * streak + 0.05 * n]
    })
}

/// Asphalt: dark speckled aggregate with a dashed centre line along v at
/// `u = 0.5` and solid edge lines (road texture, one lane pair per tile
/// across, `dashes` dashes along).
pub fn asphalt(size: u32, seed: u32, dashes: u32) -> Image {
    let f0 = Field::fbm(512, 16, 4, seed);
    let f1 = Field::fbm(256, 4, 3, seed ^ 8);
    image("asphalt", size, |u, v| {
        let n = f0.at(u, v);
        let grit = hash01((u * size as f32) as u32, (v * size as f32) as u32, seed);
        let mut c = scale([0.20, 0.20, 0.21], 0.75 + 0.35 * n + 0.25 * grit);
        let dash = (v * dashes as f32) % 1.0 < 0.5;
        if (u - 0.5).abs() < 0.008 && dash {
            c = [0.85, 0.75, 0.30];
        }
        if (u - 0.06).abs() < 0.006 || (u - 0.94).abs() < 0.006 {
            c = [0.80, 0.80, 0.78];
        }
        let patch = step(0.70, 0.72, f1.at(u, v));
        opaque(mix(c, scale(c, 0.7), patch))
    })
}

/// Concrete paving slabs.
pub fn pavement(size: u32, seed: u32, slabs: u32) -> Image {
    let f0 = Field::fbm(512, 16, 4, seed ^ 4);
    image("pavement", size, |u, v| {
        let (fx, fy) = (u * slabs as f32 % 1.0, v * slabs as f32 % 1.0);
        let id = hash01((u * slabs as f32) as u32, (v * slabs as f32) as u32, seed);
        let n = f0.at(u, v);
        let joint = fx < 0.02 || fy < 0.02;
        let c = scale([0.62, 0.61, 0.58], 0.85 + 0.15 * id + 0.2 * (n - 0.5));
        opaque(if joint { scale(c, 0.6) } else { c })
    })
}

/// A building facade: `cols` x `rows` windows per tile in a wall of
/// `wall` colour; windows are dark glass with frames, some curtained.
/// `v` runs up the wall (walls map `v = 0` to their bottom), so "below"
/// means smaller `v`.
pub fn facade(size: u32, seed: u32, cols: u32, rows: u32, wall: Rgb) -> Image {
    let f0 = Field::fbm(256, 8, 4, seed ^ 6);
    image("facade", size, |u, v| {
        let (x, y) = (u * cols as f32, v * rows as f32);
        let (fx, fy) = (x % 1.0, y % 1.0);
        let id = hash01(x as u32, y as u32, seed);
        let n = f0.at(u, v);
        let wallc = scale(wall, 0.85 + 0.25 * n);
        let inx = (WINDOW.0..WINDOW.1).contains(&fx);
        let iny = (WINDOW.2..WINDOW.3).contains(&fy);
        let frame = (0.15..0.85).contains(&fx) && (0.19..0.81).contains(&fy);
        let sill = (0.15..0.85).contains(&fx) && (0.14..0.19).contains(&fy);
        let c = if inx && iny {
            let mullion = (fx - 0.5).abs() < 0.015;
            let glass = mix([0.10, 0.13, 0.17], [0.35, 0.45, 0.55], 0.3 * fy + 0.3 * id);
            let curtain = id > 0.7 && fy > 0.55;
            if mullion {
                [0.2, 0.2, 0.2]
            } else if curtain {
                [0.55, 0.45, 0.35]
            } else {
                glass
            }
        } else if frame {
            [0.25, 0.25, 0.27]
        } else if sill {
            scale(wallc, 1.2)
        } else {
            wallc
        };
        opaque(c)
    })
}

/// The glass of a facade window cell: `(x0, x1, y0, y1)` as fractions of
/// the cell, so geometry (lit panes, sills) can line up with the texture.
pub const WINDOW: (f32, f32, f32, f32) = (0.18, 0.82, 0.22, 0.78);

/// Warm lit window panes (emissive quads over some facade windows).
pub fn lit_window(size: u32, seed: u32) -> Image {
    let f0 = Field::fbm(256, 4, 3, seed);
    image("lit_window", size, |u, v| {
        let n = f0.at(u, v);
        let mullion = (u - 0.5).abs() < 0.02;
        let c = mix([0.95, 0.75, 0.40], [1.0, 0.92, 0.70], n);
        opaque(if mullion { [0.15, 0.12, 0.10] } else { c })
    })
}

/// Car paint / metal: a flat colour with a faint sheen gradient, used for
/// small props that mostly need a distinct colour.
pub fn painted(size: u32, seed: u32, color: Rgb) -> Image {
    let f0 = Field::fbm(256, 4, 3, seed);
    image("painted", size, |u, v| {
        let n = f0.at(u, v);
        opaque(scale(color, 0.85 + 0.2 * n + 0.1 * (1.0 - v)))
    })
}

/// Terracotta with horizontal glaze bands (vases, pots).
pub fn terracotta(size: u32, seed: u32) -> Image {
    let f0 = Field::fbm(256, 8, 4, seed);
    image("terracotta", size, |u, v| {
        let n = f0.at(u, v);
        let band = (v * 10.0) % 1.0 < 0.12;
        let c = if band {
            [0.18, 0.22, 0.35]
        } else {
            [0.70, 0.38, 0.22]
        };
        opaque(scale(c, 0.85 + 0.3 * n))
    })
}

/// Wood planks along u (doors, beams, the hut).
pub fn planks(size: u32, seed: u32) -> Image {
    let f0 = Field::fbm(256, 8, 4, seed);
    image("planks", size, |u, v| {
        let plank = (v * 8.0).floor();
        let id = hash01(plank as u32, 0, seed);
        let n = f0.at(u + id, v);
        let grain = ((v * 8.0 % 1.0) * 30.0 + n * 10.0).sin() * 0.5 + 0.5;
        let gap = v * 8.0 % 1.0 < 0.04;
        let c = mix(
            [0.35, 0.22, 0.12],
            [0.55, 0.38, 0.22],
            grain * 0.5 + id * 0.5,
        );
        opaque(if gap { scale(c, 0.4) } else { c })
    })
}

/// Grass blades for alpha-masked tuft cards: `blades` tapered, leaning
/// blades of random height across the tile. They grow from `v = 1`, the
/// edge [`super::shapes::MeshBuilder::cross_cards`] puts on the ground.
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
pub fn crowd(size: u32, seed: u32, rows: u32) -> Image {
    image("crowd", size, |u, v| {
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
