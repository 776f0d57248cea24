//! Cloth, glass and effects: banners, smoke and mist puffs, sparks, glass
//! panes.

use super::{image, mix, scale, step, Rgb};
use crate::scene::builtin::noise::{value, Field};
use crate::scene::Image;

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

/// A spark: a white-hot core fading to `color`, four thin rays and a
/// glow, alpha from the glow (emissive particle sprites).
pub fn spark(size: u32, color: Rgb) -> Image {
    image("spark", size, |u, v| {
        let (dx, dy) = (u - 0.5, v - 0.5);
        let r = (dx * dx + dy * dy).sqrt() * 2.0;
        let rays = (1.0 - dx.abs().min(dy.abs()) * 40.0).max(0.0) * (1.0 - r).max(0.0);
        let core = (1.0 - r * 3.0).max(0.0);
        let glow = (1.0 - r).max(0.0).powi(3);
        let c = mix(color, [1.0, 1.0, 0.95], core * 2.0);
        [c[0], c[1], c[2], (core + rays * 0.8 + glow * 0.6).min(1.0)]
    })
}
