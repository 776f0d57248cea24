//! Textures of built things: masonry, plaster, roads, paving, facades,
//! painted metal, pottery, wood, roof tiles.

use super::{image, mix, opaque, scale, step, Rgb};
use crate::scene::builtin::noise::{hash01, value, Field};
use crate::scene::Image;

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

/// Clay roof tiles in rows along u (v up the roof's slope), each course
/// overlapping the one below, tiles of slightly varied tone.
pub fn roof_tiles(size: u32, seed: u32, color: Rgb) -> Image {
    let f0 = Field::fbm(256, 8, 4, seed);
    image("roof_tiles", size, |u, v| {
        let (x, y) = (u * 16.0, v * 16.0);
        let row = y.floor();
        let x = x + if row as u32 % 2 == 1 { 0.5 } else { 0.0 };
        let (fx, fy) = (x % 1.0, y - row);
        let id = hash01(x as u32 % 16, row as u32, seed);
        // Round tiles: darker at their edges and at the overlap.
        let curve = 1.0 - (fx - 0.5).abs() * 0.8;
        let lap = step(0.0, 0.25, fy);
        let c = scale(color, (0.7 + 0.3 * id) * curve * (0.6 + 0.4 * lap));
        opaque(scale(c, 0.9 + 0.2 * f0.at(u, v)))
    })
}
