//! Texture atlases for the mobile scenes: the [`Atlas`] grid, the signed
//! distances sheets are drawn with, an interface sheet, a bitmap font (and
//! text made of its quads), a colour palette, and nine-slice panels. A
//! mobile game packs its small images into a few atlases so that a whole
//! layer of sprites is one draw with one texture; the 2D games' own sprite
//! sheets are in [`super::sheets`].
//!
//! Cell-local coordinates: `x, y` in `[-0.5, 0.5]`, `y` up, the cell's
//! centre at 0 (the unit square of [`super::shapes::MeshBuilder::sprite`]'s
//! outlines). Alpha is antialiased over about one and a half texels.

use super::shapes::{MeshBuilder, OUTLINE_QUAD};
use super::texgen::{image, mix, scale, step, Rgb};
use crate::math::{Vec2, Vec3};
use crate::scene::Image;

/// A grid of `cols` x `rows` equal cells over one square image.
#[derive(Clone, Copy, Debug)]
pub struct Atlas {
    pub cols: u32,
    pub rows: u32,
}

impl Atlas {
    /// The uv rectangle `[u0, v0, u1, v1]` of cell `i` (row-major from the
    /// top left).
    pub fn cell(&self, i: u32) -> [f32; 4] {
        let (c, r) = ((i % self.cols) as f32, (i / self.cols) as f32);
        let (w, h) = (1.0 / self.cols as f32, 1.0 / self.rows as f32);
        [c * w, r * h, (c + 1.0) * w, (r + 1.0) * h]
    }

    /// Cell `i` shrunk by `texels` of an image `size` texels wide on every
    /// side, so bilinear filtering does not reach the neighbours (tiles
    /// that fill their cell).
    pub fn cell_inset(&self, i: u32, size: u32, texels: f32) -> [f32; 4] {
        let [u0, v0, u1, v1] = self.cell(i);
        let e = texels / size as f32;
        [u0 + e, v0 + e, u1 - e, v1 - e]
    }

    /// The centre of cell `i`: a palette swatch's uv.
    pub fn swatch(&self, i: u32) -> Vec2 {
        let [u0, v0, u1, v1] = self.cell(i);
        Vec2::new((u0 + u1) * 0.5, (v0 + v1) * 0.5)
    }

    /// Which cell `(u, v)` falls in, and where in it.
    pub(super) fn locate(&self, u: f32, v: f32) -> (u32, f32, f32) {
        let (x, y) = (u * self.cols as f32, v * self.rows as f32);
        let (c, r) = (x.floor(), y.floor());
        let i = r as u32 * self.cols + c as u32;
        (i, x - c - 0.5, 0.5 - (y - r))
    }

    /// Antialiasing width in cell units for an image `size` texels wide.
    pub(super) fn aa(&self, size: u32) -> f32 {
        1.5 * self.cols as f32 / size as f32
    }
}

/// Signed distance to a circle of radius `r` at the origin.
pub fn sd_circle(x: f32, y: f32, r: f32) -> f32 {
    (x * x + y * y).sqrt() - r
}

/// Signed distance to a box of half extents `(hx, hy)` with corners
/// rounded by `round`.
pub fn sd_box(x: f32, y: f32, hx: f32, hy: f32, round: f32) -> f32 {
    let (qx, qy) = (x.abs() - hx + round, y.abs() - hy + round);
    let outside = (qx.max(0.0).powi(2) + qy.max(0.0).powi(2)).sqrt();
    outside + qx.max(qy).min(0.0) - round
}

/// Signed distance (exact inside, close outside) to a regular polygon of
/// `n` sides whose flats are `r` from the centre, turned by `turn`.
pub fn sd_ngon(x: f32, y: f32, r: f32, n: u32, turn: f32) -> f32 {
    let step = std::f32::consts::TAU / n as f32;
    (0..n)
        .map(|i| {
            let a = turn + (i as f32 + 0.5) * step;
            x * a.cos() + y * a.sin() - r
        })
        .fold(f32::NEG_INFINITY, f32::max)
}

/// Signed distance (close to it) to a five-pointed star pointing up, its
/// tips `outer` and its inner corners `inner` from the centre.
pub fn sd_star(x: f32, y: f32, outer: f32, inner: f32) -> f32 {
    use std::f32::consts::{FRAC_PI_2, TAU};
    let sector = TAU / 5.0;
    let a = (y.atan2(x) - FRAC_PI_2).rem_euclid(sector) / sector;
    // 0 at a tip, 1 halfway between two tips.
    let t = 1.0 - (2.0 * a - 1.0).abs();
    let r = (x * x + y * y).sqrt();
    (r - (outer + (inner - outer) * t)) * (1.0 - 0.5 * t)
}

/// Coverage of a shape at signed distance `d` with edge width `aa`.
pub(super) fn cover(d: f32, aa: f32) -> f32 {
    (0.5 - d / aa).clamp(0.0, 1.0)
}

/// A colour over another with coverage `a`: `(rgb, alpha)` pairs.
pub(super) fn over(top: (Rgb, f32), under: (Rgb, f32)) -> (Rgb, f32) {
    let a = top.1 + under.1 * (1.0 - top.1);
    if a <= 0.0 {
        return ([0.0; 3], 0.0);
    }
    let c = std::array::from_fn(|k| (top.0[k] * top.1 + under.0[k] * under.1 * (1.0 - top.1)) / a);
    (c, a)
}

pub(super) fn rgba((c, a): (Rgb, f32)) -> [f32; 4] {
    [c[0], c[1], c[2], a]
}

/// A soft drop shadow under a sprite: the shape's distance `d` moved,
/// faded over `soft`.
pub(super) fn shadow(d: f32, soft: f32) -> (Rgb, f32) {
    ([0.0; 3], 0.35 * (1.0 - (d / soft).clamp(0.0, 1.0)))
}

/// Cells of [`ui_sheet`] (4 x 4).
pub const UI: Atlas = Atlas { cols: 4, rows: 4 };
pub const UI_PANEL: u32 = 0;
pub const UI_BUTTON_RED: u32 = 1;
pub const UI_BUTTON_BLUE: u32 = 2;
pub const UI_RING: u32 = 3;
pub const UI_KNOB: u32 = 4;
pub const UI_CROSSHAIR: u32 = 5;
pub const UI_STAR: u32 = 6;
pub const UI_HEART: u32 = 7;
pub const UI_COIN: u32 = 8;
pub const UI_BAR: u32 = 9;
pub const UI_FILL_GREEN: u32 = 10;
pub const UI_FILL_RED: u32 = 11;
pub const UI_GEAR: u32 = 12;
pub const UI_BULLET: u32 = 13;
pub const UI_SHIELD: u32 = 14;
pub const UI_ARROW: u32 = 15;

/// A game's interface sheet: a translucent panel, round buttons, a
/// joystick ring and knob, a crosshair, star, heart, coin, bar frame and
/// fills, and icons (gear, bullet, shield, arrow).
pub fn ui_sheet(size: u32) -> Image {
    let aa = UI.aa(size);
    image("ui_sheet", size, |u, v| {
        let (i, x, y) = UI.locate(u, v);
        let white = [1.0, 1.0, 1.0];
        let out = match i {
            UI_PANEL => {
                let d = sd_box(x, y, 0.48, 0.48, 0.1);
                let border = cover(d.abs() - 0.015, aa);
                over(
                    (white, border * 0.9),
                    ([0.08, 0.10, 0.20], 0.65 * cover(d, aa)),
                )
            }
            UI_BUTTON_RED | UI_BUTTON_BLUE => {
                let d = sd_circle(x, y, 0.42);
                let base = if i == UI_BUTTON_RED {
                    [0.85, 0.15, 0.12]
                } else {
                    [0.15, 0.45, 0.90]
                };
                let c = scale(base, 0.8 + 0.4 * y);
                let ring = cover(d.abs() - 0.02, aa);
                over((white, ring), (c, 0.9 * cover(d, aa)))
            }
            UI_RING => (white, 0.6 * cover(sd_circle(x, y, 0.44).abs() - 0.02, aa)),
            UI_KNOB => (white, 0.5 * cover(sd_circle(x, y, 0.3), aa)),
            UI_CROSSHAIR => {
                let ring = sd_circle(x, y, 0.2).abs() - 0.01;
                let bars = sd_box(x, y, 0.4, 0.012, 0.0)
                    .min(sd_box(x, y, 0.012, 0.4, 0.0))
                    .max(-sd_circle(x, y, 0.1));
                (white, cover(ring.min(bars), aa))
            }
            UI_STAR => {
                let d = sd_star(x, y, 0.42, 0.18);
                let c = mix([0.85, 0.55, 0.05], [1.0, 0.9, 0.3], step(-0.1, 0.0, -d));
                (c, cover(d, aa))
            }
            UI_HEART => {
                let d = sd_circle(x + 0.12, y - 0.08, 0.16)
                    .min(sd_circle(x - 0.12, y - 0.08, 0.16))
                    .min(sd_ngon(x, y + 0.02, 0.2, 4, 0.0).max(-y - 0.34));
                ([0.92, 0.15, 0.30], cover(d, aa))
            }
            UI_COIN => {
                let d = sd_circle(x, y, 0.38);
                let inner = step(-0.02, 0.02, sd_circle(x, y, 0.28).abs() - 0.02);
                ([1.0, 0.78 * (0.8 + 0.2 * inner), 0.2], cover(d, aa))
            }
            UI_BAR => (white, cover(sd_box(x, y, 0.48, 0.2, 0.08).abs() - 0.02, aa)),
            UI_FILL_GREEN => ([0.2, 0.85, 0.3], cover(sd_box(x, y, 0.46, 0.17, 0.06), aa)),
            UI_FILL_RED => ([0.9, 0.2, 0.15], cover(sd_box(x, y, 0.46, 0.17, 0.06), aa)),
            UI_GEAR => {
                let a = y.atan2(x);
                let r = (x * x + y * y).sqrt();
                let teeth = 0.32 + 0.06 * ((8.0 * a).sin() > 0.0) as u32 as f32;
                (white, cover((r - teeth).max(-(r - 0.12)), aa))
            }
            UI_BULLET => {
                let d = sd_box(x, y + 0.08, 0.08, 0.25, 0.0).min(sd_circle(x, y - 0.17, 0.08));
                ([0.95, 0.75, 0.3], cover(d, aa))
            }
            UI_SHIELD => {
                let d = sd_box(x, y - 0.08, 0.28, 0.22, 0.05).min(sd_ngon(x, y + 0.1, 0.2, 4, 0.0));
                ([0.6, 0.7, 0.85], cover(d, aa))
            }
            _ => {
                // UI_ARROW: a play triangle.
                (white, cover(sd_ngon(x + 0.05, y, 0.2, 3, 0.0), aa))
            }
        };
        rgba(out)
    })
}

/// Characters of [`glyph_sheet`], in cell order.
pub const GLYPHS: &str = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ:+-/%";
pub const FONT: Atlas = Atlas { cols: 8, rows: 8 };

/// A 3x5 bitmap font, rows from the top, three bits a row (left bit
/// first), in [`GLYPHS`] order.
const FONT_BITS: [u16; 41] = [
    0o75557, 0o26227, 0o71747, 0o71717, 0o55711, 0o74717, 0o74757, 0o71111, 0o75757, 0o75717,
    0o25755, 0o65656, 0o34443, 0o65556, 0o74647, 0o74644, 0o34553, 0o55755, 0o72227, 0o11152,
    0o55655, 0o44447, 0o57755, 0o65555, 0o25552, 0o65644, 0o25563, 0o65655, 0o34216, 0o72222,
    0o55557, 0o55552, 0o55775, 0o55255, 0o55222, 0o71247, 0o02020, 0o02720, 0o00700, 0o11244,
    0o51245,
];

/// A bitmap font sheet: [`GLYPHS`] in white with a dark outline.
pub fn glyph_sheet(size: u32) -> Image {
    let aa = FONT.aa(size);
    image("glyph_sheet", size, |u, v| {
        let (i, x, y) = FONT.locate(u, v);
        let Some(&bits) = FONT_BITS.get(i as usize) else {
            return [0.0; 4];
        };
        // Pixel (col, row) is 0.2 x 0.16 of the cell, centred on (-0.2 +
        // 0.2 col, 0.32 - 0.16 row). Inside a set pixel is inside the
        // glyph (no seams between pixels); outside, the distance to the
        // nearest set pixel.
        let set = |col: i32, row: i32| {
            (0..3).contains(&col)
                && (0..5).contains(&row)
                && bits >> (14 - (row * 3 + col)) & 1 == 1
        };
        let (col, row) = (
            ((x + 0.3) / 0.2).floor() as i32,
            ((0.4 - y) / 0.16).floor() as i32,
        );
        let mut d = if set(col, row) { -1.0 } else { f32::INFINITY };
        for row in 0..5 {
            for col in 0..3 {
                if set(col, row) {
                    let (cx, cy) = (-0.2 + 0.2 * col as f32, 0.32 - 0.16 * row as f32);
                    d = d.min(sd_box(x - cx, y - cy, 0.1, 0.08, 0.0));
                }
            }
        }
        let fill = cover(d, aa);
        let edge = cover(d - 0.06, aa);
        rgba(over(([1.0, 1.0, 1.0], fill), ([0.05, 0.05, 0.1], edge)))
    })
}

/// Quads spelling `text` (characters of [`GLYPHS`]; others are spaces)
/// on the ground from `at` (the first character's centre) along +x,
/// characters `h` metres tall, for an overhead camera, in the cells of
/// [`glyph_sheet`].
pub fn text(b: &mut MeshBuilder, text: &str, at: Vec3, h: f32) {
    let w = h * 0.8;
    for (n, ch) in text.chars().enumerate() {
        if let Some(i) = GLYPHS.find(ch.to_ascii_uppercase()) {
            let c = at + Vec3::new(n as f32 * w, 0.0, 0.0);
            b.sprite(c, Vec2::new(h, h), &OUTLINE_QUAD, FONT.cell(i as u32));
        }
    }
}

/// Cells of [`palette`] (8 x 8 swatches).
pub const PALETTE: Atlas = Atlas { cols: 8, rows: 8 };

/// A palette texture of up to 64 flat swatches, `colours` in cell order
/// (the rest grey): what low-poly art samples instead of painted textures.
pub fn palette(size: u32, colours: &[Rgb]) -> Image {
    image("palette", size, |u, v| {
        let (i, _, _) = PALETTE.locate(u, v);
        let c = colours.get(i as usize).copied().unwrap_or([0.5; 3]);
        [c[0], c[1], c[2], 1.0]
    })
}

/// A panel `size` metres across on the ground centred on `center`, cut in
/// nine (corners `corner` metres square, edges and middle stretched), the
/// way 2D interfaces scale one panel image to any size. `uv` is the
/// image's cell and `corner_frac` the fraction of it a corner takes.
pub fn nine_slice(
    b: &mut MeshBuilder,
    center: Vec3,
    size: Vec2,
    corner: f32,
    uv: [f32; 4],
    corner_frac: f32,
) {
    let (w, h) = (size.x * 0.5, size.y * 0.5);
    let xs = [-w, -w + corner, w - corner, w];
    // Screen up is -z: rows from the top.
    let zs = [-h, -h + corner, h - corner, h];
    let (du, dv) = ((uv[2] - uv[0]) * corner_frac, (uv[3] - uv[1]) * corner_frac);
    let us = [uv[0], uv[0] + du, uv[2] - du, uv[2]];
    let vs = [uv[1], uv[1] + dv, uv[3] - dv, uv[3]];
    for j in 0..3 {
        for i in 0..3 {
            let c = center + Vec3::new((xs[i] + xs[i + 1]) * 0.5, 0.0, (zs[j] + zs[j + 1]) * 0.5);
            let s = Vec2::new(xs[i + 1] - xs[i], zs[j + 1] - zs[j]);
            b.sprite(c, s, &OUTLINE_QUAD, [us[i], vs[j], us[i + 1], vs[j + 1]]);
        }
    }
}
