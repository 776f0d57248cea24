//! Printed and painted things seen at a distance: crowds on spectator
//! cards, sponsor boards, car liveries, map banners.

use super::{image, mix, opaque, scale, Rgb};
use crate::scene::builtin::noise::{hash, hash01, Field};
use crate::scene::Image;

/// A crowd on an alpha-masked card: two rows of `per_row` people (head,
/// shirt, arms at the sides, trousers and legs, in random clothes and
/// skin tones), the back row standing higher; the gaps and the sky above
/// them are transparent. `v` runs down the card.
pub fn crowd(size: u32, seed: u32, per_row: u32) -> Image {
    image("crowd", size, |u, v| {
        let up = 1.0 - v;
        // The front row (0) is tested first: it hides the back row.
        for row in [0u32, 1] {
            let y = up - row as f32 * 0.22;
            let x = u * per_row as f32 + row as f32 * 0.5;
            let i = x.floor() as u32 % per_row;
            let id = hash(i, row, seed);
            let fx = x - x.floor() - 0.5 + ((id & 0xff) as f32 / 255.0 - 0.5) * 0.2;
            // Height of the shoulders, as a fraction of the card.
            let tall = 0.50 + 0.1 * ((id >> 8 & 0xff) as f32 / 255.0);
            let hips = tall * 0.5;
            let head = fx * fx * 2.5 + (y - tall - 0.06).powi(2) * 14.0 < 0.004;
            let torso = (hips..tall).contains(&y) && fx.abs() < 0.2;
            let arm = (hips * 0.9..tall).contains(&y) && (0.2..0.28).contains(&fx.abs());
            let leg = (0.0..hips).contains(&y) && (0.03..0.16).contains(&fx.abs());
            let shade = 0.6 + 0.4 * (y / tall).min(1.0);
            if head {
                return skin_tone(hash01(i, row + 7, seed));
            }
            if torso || arm {
                let h = hash(i, row + 3, seed);
                let c = [
                    (h & 0xff) as f32 / 255.0,
                    (h >> 8 & 0xff) as f32 / 255.0,
                    (h >> 16 & 0xff) as f32 / 255.0,
                ];
                let c = scale(c, shade);
                return [c[0], c[1], c[2], 1.0];
            }
            if leg {
                let t = hash01(i, row + 5, seed);
                let c = scale(mix([0.12, 0.14, 0.25], [0.55, 0.48, 0.35], t), shade);
                return [c[0], c[1], c[2], 1.0];
            }
        }
        [0.0, 0.0, 0.0, 0.0]
    })
}

fn skin_tone(t: f32) -> [f32; 4] {
    let c = mix([0.93, 0.76, 0.62], [0.36, 0.24, 0.16], t);
    [c[0], c[1], c[2], 1.0]
}

/// Sponsor boards: `boards` panels across the tile, each a bright ground
/// with a border, a band and blocky "lettering".
pub fn sponsor_boards(size: u32, seed: u32, boards: u32) -> Image {
    const COLOURS: [Rgb; 6] = [
        [0.85, 0.10, 0.08],
        [0.05, 0.25, 0.65],
        [0.95, 0.75, 0.05],
        [0.10, 0.55, 0.20],
        [0.95, 0.95, 0.95],
        [0.08, 0.08, 0.08],
    ];
    image("sponsor_boards", size, |u, v| {
        let x = u * boards as f32;
        let (i, fx) = (x.floor() as u32, x - x.floor());
        let id = hash(i, 0, seed);
        let ground = COLOURS[(id % 6) as usize];
        let ink = COLOURS[((id / 6 + 1 + id % 6) % 6) as usize];
        let border = !(0.02..=0.98).contains(&fx) || !(0.06..=0.94).contains(&v);
        let band = (0.70..0.80).contains(&v);
        let letters = (0.12..0.88).contains(&fx) && (0.25..0.62).contains(&v) && {
            let col = ((fx - 0.12) / 0.76 * 7.0) as u32;
            let (gx, gy) = (
                ((fx - 0.12) / 0.76 * 7.0 % 1.0 * 3.0) as u32,
                ((v - 0.25) / 0.37 * 5.0) as u32,
            );
            hash(col * 16 + gx * 5 + gy, i, seed) & 3 != 0 && gx != 2
        };
        opaque(if border {
            [0.9, 0.9, 0.9]
        } else if letters || band {
            ink
        } else {
            ground
        })
    })
}

/// A rally car's livery, wrapped round the body (u along it, v round
/// it): `base` paint, two `stripe` bands, a white number roundel and
/// sponsor patches, a little dirt towards the sills.
pub fn livery(size: u32, seed: u32, base: Rgb, stripe: Rgb) -> Image {
    let f0 = Field::fbm(256, 8, 4, seed);
    image("livery", size, |u, v| {
        let n = f0.at(u, v);
        let side = (v * 2.0) % 1.0;
        let mut c = base;
        if (0.35..0.42).contains(&side) || (0.46..0.5).contains(&side) {
            c = stripe;
        }
        let (dx, dy) = (u - 0.45, side - 0.2);
        if dx * dx + dy * dy < 0.006 {
            c = [0.95, 0.95, 0.95];
        }
        if (0.7..0.85).contains(&u) && (0.15..0.25).contains(&side) {
            c = mix(stripe, [0.1, 0.1, 0.1], 0.5);
        }
        let dirt = ((side - 0.05).abs() * 6.0).min(1.0);
        let c = mix([0.45, 0.36, 0.26], c, dirt * 0.7 + 0.3 + 0.2 * n);
        opaque(scale(c, 0.9 + 0.15 * n))
    })
}
