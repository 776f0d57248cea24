//! Industrial and art-deco surfaces: riveted plates, decorated wall
//! panels, painted metal rusting through, worn gun metal, grates.

use super::{image, mix, opaque, scale, step, Rgb};
use crate::scene::builtin::noise::{cells, hash01, value, Field};
use crate::scene::Image;

/// Riveted steel plates, `plates` x `plates` per tile: seams, a rivet
/// near each corner, grime and rust blooms from fbm.
pub fn metal_plates(size: u32, seed: u32, plates: u32, color: Rgb) -> Image {
    let f0 = Field::fbm(256, 8, 5, seed);
    let f1 = Field::fbm(256, 4, 4, seed ^ 0x51);
    image("metal_plates", size, |u, v| {
        let (x, y) = (u * plates as f32, v * plates as f32);
        let (fx, fy) = (x % 1.0, y % 1.0);
        let id = hash01(x as u32, y as u32, seed);
        let n = f0.at(u, v);
        let mut c = scale(color, 0.8 + 0.15 * id + 0.3 * (n - 0.5));
        let rust = step(0.62, 0.75, f1.at(u, v) + 0.2 * (n - 0.5));
        c = mix(c, [0.42, 0.22, 0.10], rust * 0.8);
        let seam = fx.min(1.0 - fx).min(fy.min(1.0 - fy));
        if seam < 0.012 {
            c = scale(c, 0.35);
        } else if seam < 0.03 {
            c = scale(c, 1.15);
        }
        // Rivets: small bright domes 6 % in from each corner.
        let (rx, ry) = ((fx - 0.5).abs() - 0.44, (fy - 0.5).abs() - 0.44);
        let r = (rx * rx + ry * ry).sqrt();
        if r < 0.018 {
            c = scale(c, 1.3 - r * 20.0);
        }
        opaque(c)
    })
}

/// Art-deco wall panels (`v` up the wall, 0 at the bottom): a dark wainscot below, fluted
/// panels in `wall` colour between `trim` (gilt) pilaster strips, a
/// chevron frieze and a sunburst fan at the top of each of the `panels`
/// panels across the tile.
pub fn deco_panels(size: u32, seed: u32, panels: u32, wall: Rgb, trim: Rgb) -> Image {
    let f0 = Field::fbm(256, 8, 4, seed);
    image("deco_panels", size, |u, v| {
        let n = f0.at(u, v);
        let x = u * panels as f32;
        let fx = x % 1.0;
        let up = v;
        let grime = 0.85 + 0.3 * (n - 0.5);
        let c = if up < 0.28 {
            // Wainscot: dark wood with a moulding at its top.
            let grain = ((x * 40.0 + n * 6.0).sin() * 0.5 + 0.5) * 0.25;
            let rail = (0.25..0.28).contains(&up);
            if rail {
                trim
            } else {
                scale([0.22, 0.13, 0.08], 0.8 + grain)
            }
        } else if !(0.06..=0.94).contains(&fx) {
            scale(trim, 0.8 + 0.3 * ((fx * 60.0).sin() * 0.5 + 0.5))
        } else if up > 0.86 {
            // Frieze: gilt chevrons on black.
            let chev = ((fx * 8.0 + (up - 0.93).abs() * 14.0) % 1.0) < 0.5;
            if chev {
                trim
            } else {
                [0.05, 0.05, 0.06]
            }
        } else {
            // Fluted field with a sunburst fan below the frieze.
            let (dx, dy) = (fx - 0.5, up - 0.86);
            let r = (dx * dx + dy * dy).sqrt();
            let ray = ((dx.atan2(-dy) * 14.0).cos() > 0.6) && r < 0.32 && r > 0.05;
            let flute = ((fx * 10.0 * std::f32::consts::TAU).cos() * 0.5 + 0.5) * 0.15;
            if ray {
                scale(trim, 0.9)
            } else {
                scale(wall, 0.9 + flute)
            }
        };
        opaque(scale(c, grime))
    })
}

/// Paint over steel, chipped and rusting through where fbm and cell
/// edges say (pipes, tanks, barrels).
pub fn rusty_paint(size: u32, seed: u32, paint: Rgb) -> Image {
    let f0 = Field::fbm(256, 8, 5, seed);
    image("rusty_paint", size, |u, v| {
        let n = f0.at(u, v);
        let (d, id) = cells(u, v, 16, seed ^ 0x77);
        let chip = n > 0.58 || (d > 0.55 && (id & 7) == 0);
        let rust = mix([0.35, 0.16, 0.07], [0.55, 0.30, 0.12], n);
        let c = if chip {
            rust
        } else {
            scale(paint, 0.8 + 0.3 * n)
        };
        let streak = value(u * 64.0, v * 4.0, 64, seed ^ 3) * 0.15;
        opaque(scale(c, 0.9 + streak))
    })
}

/// Worn dark metal (gun metal, machinery): brushed streaks along u,
/// scratches, lighter wear where fbm is high.
pub fn worn_metal(size: u32, seed: u32, color: Rgb) -> Image {
    let f0 = Field::fbm(256, 4, 4, seed);
    image("worn_metal", size, |u, v| {
        let n = f0.at(u, v);
        let brush = value(u * 4.0, v * 256.0, 256, seed ^ 5);
        let px = ((u * size as f32) as u32, (v * size as f32) as u32);
        let scratch = hash01(px.0 / 8, px.1, seed ^ 9) > 0.995;
        let c = scale(color, 0.75 + 0.2 * brush + 0.3 * step(0.6, 0.8, n));
        opaque(if scratch { scale(c, 1.8) } else { c })
    })
}

/// A metal grate with alpha-masked holes: `holes` x `holes` square holes
/// per tile between bars `bar` (fraction of a cell) wide; `diagonal`
/// turns the mesh 45 degrees (a chain-link fence).
pub fn grate(size: u32, seed: u32, holes: u32, bar: f32, diagonal: bool, color: Rgb) -> Image {
    let f0 = Field::fbm(256, 8, 3, seed);
    image("grate", size, |u, v| {
        let (a, b) = if diagonal {
            (u + v, u - v + 1.0)
        } else {
            (u, v)
        };
        let (fx, fy) = ((a * holes as f32) % 1.0, (b * holes as f32) % 1.0);
        let hole = fx > bar && fy > bar;
        let c = scale(color, 0.8 + 0.4 * f0.at(u, v));
        [c[0], c[1], c[2], if hole { 0.0 } else { 1.0 }]
    })
}
