//! The 2D games' sprite sheets, drawn with [`super::atlas`]'s signed
//! distances: a match-3 game's gems and board cells, a strategy map's tile
//! set and pieces, a painted backdrop and a mascot.
//!
//! Cell-local coordinates as in [`super::atlas`]: `x, y` in `[-0.5, 0.5]`,
//! `y` up, the cell's centre at 0.

use super::atlas::{cover, over, rgba, sd_box, sd_circle, sd_ngon, shadow, Atlas};
use super::noise::{hash01, Field};
use super::texgen::{image, mix, scale, step, Rgb};
use crate::scene::Image;

/// A glossy gem: `base` shaded like a dome lit from the top left, a rim
/// and a highlight, on the shape of signed distance `d` (`r` its inner
/// radius).
fn gem_shade(x: f32, y: f32, d: f32, r: f32, base: Rgb) -> Rgb {
    let depth = (-d / r).clamp(0.0, 1.0);
    let light = 0.7 + 0.45 * (-0.5 * x + 0.8 * y) / r * 0.5 + 0.25 * depth.sqrt();
    let c = scale(base, light);
    let rim = step(0.0, 0.12, depth);
    let c = mix(scale(base, 0.55), c, rim);
    let spot = 1.0 - step(0.0, 0.07, sd_circle(x + 0.12, y - 0.13, 0.05));
    mix(c, [1.0, 1.0, 1.0], spot * 0.85)
}

/// Cells of [`gem_sheet`] (4 x 4).
pub const GEMS: Atlas = Atlas { cols: 4, rows: 4 };
/// The six plain gems are cells 0-5; then these.
pub const GEM_STRIPED: u32 = 6;
pub const GEM_BOMB: u32 = 7;
pub const CELL_LIGHT: u32 = 8;
pub const CELL_DARK: u32 = 9;
pub const SELECT_RING: u32 = 10;
pub const SPARKLE: u32 = 11;
/// Sides of the outline each plain gem's shape has (0: round).
pub const GEM_SIDES: [u32; 6] = [0, 6, 4, 4, 8, 3];
const GEM_TURN: [f32; 6] = [0.0, 0.0, 0.785, 0.0, 0.39, 1.571];
const GEM_COLOURS: [Rgb; 6] = [
    [0.90, 0.12, 0.15],
    [0.98, 0.55, 0.10],
    [0.98, 0.85, 0.15],
    [0.20, 0.78, 0.25],
    [0.15, 0.45, 0.95],
    [0.65, 0.25, 0.85],
];

/// A match-3 sprite sheet: six gems of distinct shapes and colours, a
/// striped and a bomb special, board cells (translucent light and dark),
/// a selection ring and a sparkle; cells 12-15 are empty.
pub fn gem_sheet(size: u32, seed: u32) -> Image {
    let aa = GEMS.aa(size);
    image("gem_sheet", size, |u, v| {
        let (i, x, y) = GEMS.locate(u, v);
        let r = 0.38;
        let out = match i {
            0..=5 => {
                let k = i as usize;
                let d = gem_distance(k, x, y, r);
                let sh = shadow(gem_distance(k, x - 0.03, y + 0.04, r), 0.06);
                over((gem_shade(x, y, d, r, GEM_COLOURS[k]), cover(d, aa)), sh)
            }
            GEM_STRIPED => {
                let d = sd_circle(x, y, r);
                let stripe = ((y * 22.0).sin() > 0.3) as u32 as f32;
                let base = mix(GEM_COLOURS[0], [1.0, 0.95, 0.9], stripe * 0.8);
                (gem_shade(x, y, d, r, base), cover(d, aa))
            }
            GEM_BOMB => {
                let d = sd_circle(x, y, r);
                let (cx, cy) = ((x * 9.0).floor(), (y * 9.0).floor());
                let h = hash01(cx as i32 as u32, cy as i32 as u32, seed);
                let dot = sd_circle(x * 9.0 - cx - 0.5, y * 9.0 - cy - 0.5, 0.22) < 0.0;
                let base = if dot && h > 0.45 {
                    GEM_COLOURS[(h * 60.0) as usize % 6]
                } else {
                    [0.35, 0.22, 0.15]
                };
                (gem_shade(x, y, d, r, base), cover(d, aa))
            }
            CELL_LIGHT | CELL_DARK => {
                let d = sd_box(x, y, 0.49, 0.49, 0.08);
                let a = if i == CELL_LIGHT { 0.55 } else { 0.72 };
                let c = if i == CELL_LIGHT {
                    [0.55, 0.62, 0.90]
                } else {
                    [0.25, 0.28, 0.55]
                };
                (c, a * cover(d, aa))
            }
            SELECT_RING => {
                let d = sd_circle(x, y, 0.44).abs() - 0.035;
                ([1.0, 0.95, 0.6], cover(d, aa))
            }
            SPARKLE => {
                let star = (x.abs() * y.abs()).sqrt() * 6.0 + (x * x + y * y).sqrt() * 1.2;
                let a = (1.0 - star).clamp(0.0, 1.0);
                ([1.0, 0.97, 0.8], a * a)
            }
            _ => ([0.0; 3], 0.0),
        };
        rgba(out)
    })
}

/// Signed distance to plain gem `k`'s shape.
fn gem_distance(k: usize, x: f32, y: f32, r: f32) -> f32 {
    match GEM_SIDES[k] {
        0 => sd_circle(x, y, r),
        n => sd_ngon(x, y, r * if n == 3 { 0.75 } else { 0.95 }, n, GEM_TURN[k]),
    }
}

/// The outline a plain gem's sprite is meshed with: its shape's polygon
/// grown to hold the shadow and antialiasing (12 sides for the round one).
pub fn gem_outline(k: usize) -> Vec<(f32, f32)> {
    let (n, turn) = match GEM_SIDES[k] {
        0 => (12, 0.0),
        // The triangle's corners reach farther than its flats: an octagon
        // around it keeps the mesh tight without clipping a corner.
        3 => (8, 0.0),
        n => (n, GEM_TURN[k] + std::f32::consts::PI / n as f32),
    };
    super::shapes::outline_ngon(n, 0.45, turn)
}

/// Cells of [`tile_set`] (4 x 4).
pub const TILES: Atlas = Atlas { cols: 4, rows: 4 };
pub const TILE_GRASS: u32 = 0;
pub const TILE_MEADOW: u32 = 1;
pub const TILE_FOREST: u32 = 2;
pub const TILE_SAND: u32 = 3;
pub const TILE_DEEP: u32 = 4;
pub const TILE_SHALLOW: u32 = 5;
pub const TILE_ROCK: u32 = 6;
pub const TILE_DIRT: u32 = 7;
pub const TILE_FIELD: u32 = 8;
pub const TILE_SNOW: u32 = 9;
pub const TILE_ROAD_EW: u32 = 10;
pub const TILE_ROAD_NS: u32 = 11;
pub const TILE_PAVED: u32 = 12;

/// A strategy map's tile set: grass, meadow, forest floor, sand, deep and
/// shallow water, rock, dirt, a ploughed field, snow, dirt roads east-west
/// and north-south, paving; each cell tiles with itself.
pub fn tile_set(size: u32, seed: u32) -> Image {
    let n = Field::fbm(64, 4, 3, seed);
    let fine = Field::fbm(128, 16, 2, seed ^ 7);
    image("tile_set", size, |u, v| {
        let (i, x, y) = TILES.locate(u, v);
        let (fu, fv) = (x + 0.5, 0.5 - y);
        let a = n.at(fu, fv);
        let f = fine.at(fu, fv);
        let road = |across: f32| {
            let edge = step(0.16, 0.22, across.abs());
            mix([0.55, 0.42, 0.28], [0.33, 0.55, 0.20], edge)
        };
        let c: Rgb = match i {
            TILE_GRASS => mix([0.30, 0.55, 0.18], [0.42, 0.65, 0.22], a),
            TILE_MEADOW => {
                let flower = hash01((fu * 32.0) as u32, (fv * 32.0) as u32, seed) > 0.93;
                if flower {
                    [0.95, 0.90, 0.40]
                } else {
                    mix([0.38, 0.62, 0.22], [0.50, 0.70, 0.28], a)
                }
            }
            TILE_FOREST => mix([0.16, 0.32, 0.12], [0.26, 0.42, 0.16], a),
            TILE_SAND => mix([0.86, 0.76, 0.52], [0.94, 0.86, 0.62], a),
            TILE_DEEP => mix([0.08, 0.22, 0.50], [0.12, 0.30, 0.60], a),
            TILE_SHALLOW => mix([0.20, 0.50, 0.70], [0.35, 0.65, 0.80], a),
            TILE_ROCK => mix([0.42, 0.40, 0.38], [0.62, 0.60, 0.56], a),
            TILE_DIRT => mix([0.45, 0.34, 0.22], [0.58, 0.45, 0.30], a),
            TILE_FIELD => {
                let furrow = ((fv * 12.0).fract() < 0.5) as u32 as f32;
                mix(
                    [0.62, 0.52, 0.22],
                    [0.78, 0.68, 0.30],
                    0.6 * furrow + 0.4 * a,
                )
            }
            TILE_SNOW => mix([0.85, 0.88, 0.95], [0.98, 0.98, 1.0], a),
            TILE_ROAD_EW => road(y),
            TILE_ROAD_NS => road(x),
            TILE_PAVED => {
                let joint = (fu * 4.0).fract() < 0.06 || (fv * 4.0).fract() < 0.06;
                if joint {
                    [0.40, 0.38, 0.35]
                } else {
                    mix([0.62, 0.60, 0.55], [0.72, 0.70, 0.65], a)
                }
            }
            _ => [0.5; 3],
        };
        let c = scale(c, 0.88 + 0.24 * f);
        [c[0], c[1], c[2], 1.0]
    })
}

/// Cells of [`map_pieces`] (4 x 4).
pub const PIECES: Atlas = Atlas { cols: 4, rows: 4 };
pub const PIECE_PINE: u32 = 0;
pub const PIECE_OAK: u32 = 1;
pub const PIECE_MOUNTAIN: u32 = 2;
pub const PIECE_ROCK: u32 = 3;
pub const PIECE_CASTLE: u32 = 4;
pub const PIECE_HOUSE: u32 = 5;
pub const PIECE_FARM: u32 = 6;
pub const PIECE_TOWER: u32 = 7;
pub const PIECE_SOLDIER_BLUE: u32 = 8;
pub const PIECE_SOLDIER_RED: u32 = 9;
pub const PIECE_RIDER_BLUE: u32 = 10;
pub const PIECE_RIDER_RED: u32 = 11;
pub const PIECE_FLAG: u32 = 12;
pub const PIECE_TENT: u32 = 13;
pub const PIECE_GOLD: u32 = 14;
pub const PIECE_CLOUD: u32 = 15;

/// A strategy map's pieces seen from above: trees, a mountain, a rock,
/// castle, house, farm, tower, soldiers and riders of two sides, a flag,
/// a tent, a gold heap and a cloud of the fog of war, each with a soft
/// shadow to the lower right.
pub fn map_pieces(size: u32, seed: u32) -> Image {
    let aa = PIECES.aa(size);
    let n = Field::fbm(64, 8, 3, seed);
    image("map_pieces", size, |u, v| {
        let (i, x, y) = PIECES.locate(u, v);
        let d = piece_distance(i, x, y, n.at(u, v));
        let sh = shadow(piece_distance(i, x - 0.04, y + 0.05, 0.5), 0.08);
        let c = piece_colour(i, x, y, d, n.at(u * 4.0, v * 4.0));
        let top = (c, cover(d, aa));
        rgba(if i == PIECE_CLOUD {
            (
                [0.92, 0.93, 0.96],
                (1.0 - (d + 0.25) / 0.3).clamp(0.0, 1.0) * 0.9,
            )
        } else {
            over(top, sh)
        })
    })
}

fn piece_distance(i: u32, x: f32, y: f32, noise: f32) -> f32 {
    match i {
        PIECE_PINE => sd_ngon(x, y, 0.3, 7, 0.3).min(sd_circle(x, y, 0.28)),
        PIECE_OAK => sd_circle(x, y, 0.3 + 0.05 * (noise - 0.5)),
        PIECE_MOUNTAIN => sd_ngon(x, y + 0.08, 0.2, 3, 0.0).max(-(y + 0.32)),
        PIECE_ROCK => sd_ngon(x, y, 0.2, 6, 0.4),
        PIECE_CASTLE => {
            let towers = [(-0.3, -0.3), (0.3, -0.3), (-0.3, 0.3), (0.3, 0.3)]
                .iter()
                .map(|&(tx, ty)| sd_circle(x - tx, y - ty, 0.1))
                .fold(f32::INFINITY, f32::min);
            sd_box(x, y, 0.3, 0.3, 0.02).min(towers)
        }
        PIECE_HOUSE => sd_box(x, y, 0.3, 0.2, 0.02),
        PIECE_FARM => sd_box(x, y, 0.4, 0.3, 0.04),
        PIECE_TOWER => sd_circle(x, y, 0.2),
        PIECE_SOLDIER_BLUE | PIECE_SOLDIER_RED => {
            sd_circle(x, y, 0.24).min(sd_box(x + 0.27, y, 0.025, 0.36, 0.0))
        }
        PIECE_RIDER_BLUE | PIECE_RIDER_RED => {
            sd_box(x, y, 0.14, 0.34, 0.12).min(sd_circle(x, y - 0.34, 0.1))
        }
        PIECE_FLAG => {
            sd_box(x + 0.15, y, 0.02, 0.38, 0.0).min(sd_box(x - 0.05, y - 0.22, 0.2, 0.12, 0.0))
        }
        PIECE_TENT => sd_ngon(x, y, 0.22, 4, 0.785),
        PIECE_GOLD => sd_circle(x, y + 0.05, 0.26).max(-(y + 0.2)),
        _ => sd_circle(x, y, 0.22 + 0.12 * noise),
    }
}

fn piece_colour(i: u32, x: f32, y: f32, d: f32, noise: f32) -> Rgb {
    let lit = 0.8 + 0.35 * (-0.5 * x + 0.8 * y) + 0.2 * noise;
    let team = |blue: bool| {
        if blue {
            [0.15, 0.35, 0.85]
        } else {
            [0.85, 0.15, 0.12]
        }
    };
    let c: Rgb = match i {
        PIECE_PINE => mix([0.08, 0.30, 0.12], [0.18, 0.45, 0.18], -d * 4.0),
        PIECE_OAK => mix([0.16, 0.40, 0.12], [0.38, 0.62, 0.20], noise),
        PIECE_MOUNTAIN => {
            if y > 0.12 {
                [0.95, 0.95, 0.98]
            } else if x < 0.0 {
                [0.55, 0.52, 0.50]
            } else {
                [0.40, 0.38, 0.36]
            }
        }
        PIECE_ROCK => [0.50, 0.48, 0.45],
        PIECE_CASTLE => {
            if d < -0.05 && x.abs() < 0.18 && y.abs() < 0.18 {
                [0.30, 0.28, 0.30]
            } else {
                [0.70, 0.68, 0.62]
            }
        }
        PIECE_HOUSE => {
            if y > 0.0 {
                [0.75, 0.30, 0.18]
            } else {
                [0.58, 0.22, 0.12]
            }
        }
        PIECE_FARM => {
            let furrow = ((x * 16.0).fract() < 0.5) as u32 as f32;
            mix([0.70, 0.60, 0.25], [0.85, 0.75, 0.35], furrow)
        }
        PIECE_TOWER => mix([0.45, 0.40, 0.38], [0.70, 0.66, 0.60], -d * 6.0),
        PIECE_SOLDIER_BLUE | PIECE_RIDER_BLUE | PIECE_SOLDIER_RED | PIECE_RIDER_RED => {
            let blue = i == PIECE_SOLDIER_BLUE || i == PIECE_RIDER_BLUE;
            if sd_circle(x, y, 0.1) < 0.0 {
                [0.75, 0.75, 0.78]
            } else if d < -0.05 {
                team(blue)
            } else {
                [0.45, 0.32, 0.20]
            }
        }
        PIECE_FLAG => {
            if x > 0.11 {
                [0.4, 0.3, 0.2]
            } else {
                team(true)
            }
        }
        PIECE_TENT => mix(
            [0.80, 0.75, 0.60],
            [0.95, 0.90, 0.75],
            (x + y > 0.0) as u32 as f32,
        ),
        PIECE_GOLD => mix([0.85, 0.65, 0.10], [1.0, 0.90, 0.40], noise),
        _ => [0.92, 0.93, 0.96],
    };
    scale(c, lit)
}

/// A 2D game's backdrop: a vertical gradient from `top` to `bottom`,
/// soft hills and out-of-focus light discs (bokeh). Opaque.
pub fn backdrop(size: u32, seed: u32, top: Rgb, bottom: Rgb) -> Image {
    let n = Field::fbm(64, 4, 3, seed);
    image("backdrop", size, |u, v| {
        let mut c = mix(top, bottom, v);
        let hill = 0.72 + 0.08 * (u * 12.0).sin() + 0.06 * n.at(u, 0.0);
        if v > hill {
            c = mix(c, scale(bottom, 0.7), 0.6);
        }
        for k in 0..14u32 {
            let (bx, by) = (hash01(k, 0, seed), hash01(k, 1, seed) * 0.7);
            let r = 0.03 + 0.05 * hash01(k, 2, seed);
            let d = sd_circle(u - bx, v - by, r);
            c = mix(c, [1.0, 1.0, 1.0], 0.25 * (1.0 - step(-0.01, 0.01, d)));
        }
        [c[0], c[1], c[2], 1.0]
    })
}

/// A game's mascot: a round, furry character with big eyes, a smile,
/// waving arms and an antenna, on a transparent ground (the image a 2D
/// skeletal animation bends).
pub fn mascot(size: u32, seed: u32, fur: Rgb) -> Image {
    let aa = 1.5 / size as f32;
    let n = Field::fbm(128, 16, 3, seed);
    image("mascot", size, |u, v| {
        let (x, y) = (u - 0.5, 0.5 - v);
        let body = sd_circle(x, y + 0.08, 0.3 + 0.01 * (n.at(u, v) - 0.5));
        let arms = sd_box(x - 0.33, y + 0.02, 0.05, 0.14, 0.05).min(sd_box(
            x + 0.33,
            y + 0.1,
            0.05,
            0.12,
            0.05,
        ));
        let stalk = sd_box(x, y - 0.3, 0.015, 0.1, 0.0).min(sd_circle(x, y - 0.41, 0.045));
        let shape = body.min(arms).min(stalk);
        let mut c = scale(
            fur,
            0.75 + 0.4 * n.at(u, v) + 0.3 * (y - x) * (body < 0.0) as u32 as f32,
        );
        for ex in [-0.1f32, 0.1] {
            let eye = sd_circle(x - ex, y - 0.02, 0.075);
            let pupil = sd_circle(x - ex - 0.015, y - 0.0, 0.035);
            c = mix(c, [1.0, 1.0, 1.0], cover(eye, aa));
            c = mix(c, [0.05, 0.05, 0.1], cover(pupil, aa));
        }
        let smile = sd_circle(x, y + 0.08, 0.12).abs() - 0.015;
        c = mix(c, [0.35, 0.05, 0.08], cover(smile.max(y + 0.08), aa));
        let outline = cover(shape.abs() - 0.006, aa);
        rgba(over(([0.15, 0.08, 0.05], outline), (c, cover(shape, aa))))
    })
}
