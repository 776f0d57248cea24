//! `kingdom`: the world map of a 2D strategy game (the class of Rise of
//! Kingdoms' map view and its kin), seen from straight above. A map of
//! textured tiles from one tile set (water, shores, grass, forest, rock,
//! snow, fields, roads between cities), trees and mountains standing on
//! it, cities of a castle, houses, farms and towers, armies of soldiers
//! and riders with their banners and health bars, camps and gold heaps,
//! clouds of the fog of war over the unexplored edge, and the interface:
//! a resource bar, a minimap, action buttons. The camera scrolls slowly
//! across the map; the interface stands where the middle of that scroll
//! puts it.
//!
//! Sizes from the class, not from any measurement: a map of 64 x 32 tiles
//! in chunks of 16 x 16 (one draw each, as tile maps are batched), about
//! 30 x 12 tiles on screen; a few sprites per forest tile; units in
//! formations of nine; sprites meshed as tight convex outlines (5-8
//! sides); a tile set and a sheet of pieces of 512 texels a side and
//! interface sheets of 256, block-compressed.

use super::atlas::{self, UI};
use super::kit::{self, Kit};
use super::noise::{fbm, hash01, Rng};
use super::shapes::{outline_ngon, MeshBuilder, OUTLINE_QUAD};
use super::sheets::{self, PIECES, TILES};
use crate::graph::Preset;
use crate::math::{Mat4, Vec2, Vec3};
use crate::scene::{AlphaMode, Scene};

const SEED: u32 = 0x5ea7_0f4d;
/// Map size in tiles (a tile is 1 m) and the chunk side.
const W: u32 = 64;
const H: u32 = 32;
const CHUNK: u32 = 16;
/// Sprite layers' heights above the tiles.
const DECOR: f32 = 0.2;
const BUILDINGS: f32 = 0.3;
const UNITS: f32 = 0.4;
const BARS: f32 = 0.5;
const CLOUDS: f32 = 0.6;
const PANEL: f32 = 0.8;
const ICONS: f32 = 0.9;
const TEXT: f32 = 1.0;
/// Camera: half the visible height, and the middle of the scroll.
const HALF_H: f32 = 6.0;
const MIDDLE: (f32, f32) = (2.0, 1.0);
/// Cities, in tiles.
const CITIES: [(u32, u32); 3] = [(20, 10), (40, 22), (50, 8)];

fn v3(x: f32, y: f32, z: f32) -> Vec3 {
    Vec3::new(x, y, z)
}

/// World centre of tile `(i, j)` at height `y` (row `j` grows towards +z,
/// down the screen).
fn at(i: u32, j: u32, y: f32) -> Vec3 {
    v3(
        i as f32 - W as f32 * 0.5 + 0.5,
        y,
        j as f32 - H as f32 * 0.5 + 0.5,
    )
}

struct Map {
    tiles: Vec<u32>,
}

impl Map {
    fn get(&self, i: u32, j: u32) -> u32 {
        self.tiles[(j * W + i) as usize]
    }

    fn set(&mut self, i: u32, j: u32, t: u32) {
        self.tiles[(j * W + i) as usize] = t;
    }

    fn is_water(&self, i: u32, j: u32) -> bool {
        matches!(self.get(i, j), sheets::TILE_DEEP | sheets::TILE_SHALLOW)
    }
}

/// Terrain from two noise fields (height, moisture), then fields around
/// the cities and roads between them.
fn generate() -> Map {
    let mut tiles = Vec::with_capacity((W * H) as usize);
    for j in 0..H {
        for i in 0..W {
            let (u, v) = (i as f32 / W as f32, j as f32 / W as f32);
            let h = fbm(u, v, 4, 4, SEED);
            let wet = fbm(u, v, 8, 3, SEED ^ 0x77);
            let t = if h < 0.36 {
                sheets::TILE_DEEP
            } else if h < 0.40 {
                sheets::TILE_SHALLOW
            } else if h < 0.43 {
                sheets::TILE_SAND
            } else if h > 0.70 {
                sheets::TILE_SNOW
            } else if h > 0.63 {
                sheets::TILE_ROCK
            } else if wet > 0.55 {
                sheets::TILE_FOREST
            } else if wet > 0.47 {
                sheets::TILE_MEADOW
            } else {
                sheets::TILE_GRASS
            };
            tiles.push(t);
        }
    }
    let mut map = Map { tiles };
    for &(ci, cj) in &CITIES {
        for j in cj - 3..=cj + 3 {
            for i in ci - 4..=ci + 4 {
                let edge = i.abs_diff(ci) > 2 || j.abs_diff(cj) > 1;
                let t = if edge {
                    sheets::TILE_FIELD
                } else {
                    sheets::TILE_PAVED
                };
                map.set(i, j, t);
            }
        }
    }
    // Roads: along the row of one city, then the column of the next.
    for w in CITIES.windows(2) {
        let ((a, b), (c, d)) = (w[0], w[1]);
        for i in a.min(c)..=a.max(c) {
            if !map.is_water(i, b) && map.get(i, b) != sheets::TILE_PAVED {
                map.set(i, b, sheets::TILE_ROAD_EW);
            }
        }
        for j in b.min(d)..=b.max(d) {
            if !map.is_water(c, j) && map.get(c, j) != sheets::TILE_PAVED {
                map.set(c, j, sheets::TILE_ROAD_NS);
            }
        }
    }
    map
}

pub fn build() -> Scene {
    let mut k = Kit::new("kingdom");
    let tiles = k.image_bc(sheets::tile_set(512, SEED));
    let pieces = k.image_bc(sheets::map_pieces(512, SEED + 1));
    let ui = k.image_bc(atlas::ui_sheet(256));
    let font = k.image_bc(atlas::glyph_sheet(256));
    let m_tiles = k.textured("tiles", tiles);
    let m_pieces = k.alpha("pieces", pieces, AlphaMode::Blend);
    let m_clouds = k.particle("fog_clouds", pieces, [0.0; 3]);
    let m_ui = k.alpha("ui", ui, AlphaMode::Blend);
    let m_interface = k.interface("ui_panels", ui);
    let m_font = k.interface("ui_font", font);
    let m_minimap = k.interface("minimap", tiles);

    let map = generate();
    ground(&mut k, &map, m_tiles);
    decor(&mut k, &map, m_pieces);
    cities_and_armies(&mut k, m_pieces, m_ui);
    fog(&mut k, m_clouds);
    interface(&mut k, &map, m_interface, m_font, m_minimap);

    let c = |dx: f32, dz: f32| kit::overhead(v3(MIDDLE.0 + dx, 0.0, MIDDLE.1 + dz), HALF_H);
    k.cameras(vec![c(-1.0, 0.3), c(-0.3, 0.1), c(0.3, -0.1), c(1.0, -0.3)]);
    k.unlit_sprites();
    k.mobile_frame(Preset::MobileForward);
    k.scene.sky = [0.0, 0.0, 0.0];
    k.finish()
}

/// The tiles, one opaque mesh per chunk.
fn ground(k: &mut Kit, map: &Map, m: usize) {
    for cj in 0..H / CHUNK {
        for ci in 0..W / CHUNK {
            let mut b = MeshBuilder::new();
            for j in cj * CHUNK..(cj + 1) * CHUNK {
                for i in ci * CHUNK..(ci + 1) * CHUNK {
                    let uv = TILES.cell_inset(map.get(i, j), 512, 1.0);
                    b.sprite(at(i, j, 0.0), Vec2::new(1.0, 1.0), &OUTLINE_QUAD, uv);
                }
            }
            let mesh = k.mesh(&format!("tiles_{ci}_{cj}"), b, m);
            k.place(mesh, Mat4::IDENTITY);
        }
    }
}

/// Trees on forest tiles (three or four each), a few on grass, mountains
/// on rock and snow, boulders on meadows: one draw.
fn decor(k: &mut Kit, map: &Map, m: usize) {
    let mut b = MeshBuilder::new();
    let tree = outline_ngon(7, 0.36, 0.3);
    let mountain = outline_ngon(6, 0.42, 0.0);
    let rock = outline_ngon(6, 0.3, 0.4);
    let mut rng = Rng::new(SEED ^ 0xdec0);
    for j in 0..H {
        for i in 0..W {
            let (count, piece, size, outline) = match map.get(i, j) {
                sheets::TILE_FOREST => (3 + rng.below(2), PIECES_TREE, 0.75, &tree),
                sheets::TILE_GRASS if rng.unit() < 0.12 => (1, PIECES_TREE, 0.7, &tree),
                sheets::TILE_ROCK | sheets::TILE_SNOW => {
                    (1, sheets::PIECE_MOUNTAIN, 1.3, &mountain)
                }
                sheets::TILE_MEADOW if rng.unit() < 0.08 => (1, sheets::PIECE_ROCK, 0.6, &rock),
                _ => (0, 0, 0.0, &tree),
            };
            for n in 0..count {
                let p = at(i, j, DECOR + 0.001 * n as f32)
                    + v3(rng.range(-0.3, 0.3), 0.0, rng.range(-0.3, 0.3));
                let piece = if piece == PIECES_TREE {
                    if hash01(i, j, SEED) < 0.6 {
                        sheets::PIECE_PINE
                    } else {
                        sheets::PIECE_OAK
                    }
                } else {
                    piece
                };
                let s = size * rng.range(0.85, 1.15);
                b.sprite(p, Vec2::new(s, s), outline, PIECES.cell(piece));
            }
        }
    }
    let mesh = k.mesh("map_decor", b, m);
    k.place(mesh, Mat4::IDENTITY);
}

/// Any tree: pine or oak is chosen per tile.
const PIECES_TREE: u32 = u32::MAX;

/// Each city's castle, houses, farms and towers; armies of two sides in
/// formations of nine with banners and health bars; camps and gold.
fn cities_and_armies(k: &mut Kit, m_pieces: usize, m_ui: usize) {
    let mut b = MeshBuilder::new();
    let mut units = MeshBuilder::new();
    let mut bars = MeshBuilder::new();
    let square = outline_ngon(8, 0.45, 0.0);
    let small = outline_ngon(6, 0.4, 0.0);
    let mut rng = Rng::new(SEED ^ 0xc17);
    for &(ci, cj) in &CITIES {
        b.sprite(
            at(ci, cj, BUILDINGS),
            Vec2::new(2.6, 2.6),
            &square,
            PIECES.cell(sheets::PIECE_CASTLE),
        );
        for n in 0..10 {
            let (di, dj) = (rng.below(7) as i32 - 3, rng.below(5) as i32 - 2);
            if di.abs() <= 1 && dj.abs() <= 1 {
                continue;
            }
            let p = at(
                (ci as i32 + di) as u32,
                (cj as i32 + dj) as u32,
                BUILDINGS + 0.001 * n as f32,
            );
            let piece = [sheets::PIECE_HOUSE, sheets::PIECE_FARM, sheets::PIECE_TOWER][n % 3];
            b.sprite(p, Vec2::new(1.0, 1.0), &square, PIECES.cell(piece));
        }
    }
    // Armies: (tile, side, riders?).
    let armies = [
        ((24u32, 12u32), true, false),
        ((28, 14), true, true),
        ((33, 18), false, false),
        ((36, 16), false, true),
        ((14, 20), true, false),
        ((46, 12), false, false),
    ];
    for (n, &((ai, aj), blue, riders)) in armies.iter().enumerate() {
        let piece = match (blue, riders) {
            (true, false) => sheets::PIECE_SOLDIER_BLUE,
            (false, false) => sheets::PIECE_SOLDIER_RED,
            (true, true) => sheets::PIECE_RIDER_BLUE,
            (false, true) => sheets::PIECE_RIDER_RED,
        };
        let c = at(ai, aj, UNITS);
        for f in 0..9 {
            let p = c + v3((f % 3) as f32 * 0.6 - 0.6, 0.0, (f / 3) as f32 * 0.6 - 0.6);
            units.sprite(p, Vec2::new(0.8, 0.8), &small, PIECES.cell(piece));
        }
        units.sprite(
            c + v3(1.2, 0.01, -1.0),
            Vec2::new(0.9, 0.9),
            &small,
            PIECES.cell(sheets::PIECE_FLAG),
        );
        // A health bar above the formation, its fill by a seeded share.
        let bar = c + v3(0.0, BARS - UNITS, -1.3);
        let share = 0.4 + 0.6 * hash01(n as u32, 1, SEED);
        bars.sprite(
            bar,
            Vec2::new(1.6, 0.5),
            &OUTLINE_QUAD,
            UI.cell(atlas::UI_BAR),
        );
        let fill = if blue {
            atlas::UI_FILL_GREEN
        } else {
            atlas::UI_FILL_RED
        };
        bars.sprite(
            bar + v3(-0.8 * (1.0 - share), -0.01, 0.0),
            Vec2::new(1.6 * share, 0.5),
            &OUTLINE_QUAD,
            UI.cell(fill),
        );
    }
    for (i, j, piece) in [
        (17, 4, sheets::PIECE_TENT),
        (18, 5, sheets::PIECE_TENT),
        (31, 6, sheets::PIECE_GOLD),
        (9, 14, sheets::PIECE_GOLD),
        (44, 27, sheets::PIECE_TENT),
    ] {
        b.sprite(
            at(i, j, BUILDINGS),
            Vec2::new(1.0, 1.0),
            &small,
            PIECES.cell(piece),
        );
    }
    for (name, mesh, mat) in [
        ("buildings", b, m_pieces),
        ("units", units, m_pieces),
        ("health_bars", bars, m_ui),
    ] {
        let m = k.mesh(name, mesh, mat);
        k.place(m, Mat4::IDENTITY);
    }
}

/// Clouds over the unexplored east of the map: large soft sprites, drawn
/// as particles.
fn fog(k: &mut Kit, m: usize) {
    let mut b = MeshBuilder::new();
    let mut rng = Rng::new(SEED ^ 0xf09);
    for n in 0..70 {
        let x = W as f32 * 0.5 - rng.range(0.0, 14.0).powf(1.2) * 0.8;
        let z = rng.range(-(H as f32) * 0.5, H as f32 * 0.5);
        let s = rng.range(2.5, 5.0);
        let outline = outline_ngon(8, 0.45, 0.0);
        b.sprite(
            v3(x, CLOUDS + 0.001 * n as f32, z),
            Vec2::new(s, s),
            &outline,
            PIECES.cell(sheets::PIECE_CLOUD),
        );
    }
    let mesh = k.mesh("fog_of_war", b, m);
    k.place(mesh, Mat4::IDENTITY);
}

/// The interface, placed for the middle of the scroll: a resource bar
/// along the top, a minimap (the tile set's colours) in the lower left,
/// action buttons in the lower right.
fn interface(k: &mut Kit, map: &Map, m_ui: usize, m_font: usize, m_minimap: usize) {
    let (cx, cz) = MIDDLE;
    let half_w = HALF_H * 1960.0 / 768.0;
    let (top, bottom, left, right) = (cz - HALF_H, cz + HALF_H, cx - half_w, cx + half_w);
    let mut panels = MeshBuilder::new();
    let mut icons = MeshBuilder::new();
    let mut text = MeshBuilder::new();
    let panel = UI.cell(atlas::UI_PANEL);
    atlas::nine_slice(
        &mut panels,
        v3(cx, PANEL, top + 1.1),
        Vec2::new(22.0, 1.3),
        0.4,
        panel,
        0.2,
    );
    let round = outline_ngon(12, 0.44, 0.0);
    for (n, (icon, amount)) in [
        (atlas::UI_COIN, "1250K"),
        (atlas::UI_SHIELD, "85K"),
        (atlas::UI_STAR, "420"),
        (atlas::UI_HEART, "9800"),
    ]
    .iter()
    .enumerate()
    {
        let x = cx - 9.0 + 5.0 * n as f32;
        icons.sprite(
            v3(x, ICONS, top + 1.1),
            Vec2::new(0.9, 0.9),
            &round,
            UI.cell(*icon),
        );
        atlas::text(&mut text, amount, v3(x + 0.9, TEXT, top + 1.1), 0.6);
    }
    // The minimap: every other tile's colour, in a frame.
    let mm = v3(left + 4.6, PANEL, bottom - 2.5);
    atlas::nine_slice(&mut panels, mm, Vec2::new(6.8, 3.8), 0.4, panel, 0.2);
    let mut mini = MeshBuilder::new();
    for j in (0..H).step_by(2) {
        for i in (0..W).step_by(2) {
            let p = mm
                + v3(
                    (i as f32 - W as f32 * 0.5) * 0.1,
                    ICONS - PANEL,
                    (j as f32 - H as f32 * 0.5) * 0.1,
                );
            let [u0, v0, u1, v1] = TILES.cell(map.get(i, j));
            let c = [(u0 + u1) * 0.5, (v0 + v1) * 0.5];
            mini.sprite(
                p,
                Vec2::new(0.2, 0.2),
                &OUTLINE_QUAD,
                [c[0], c[1], c[0], c[1]],
            );
        }
    }
    for (n, button) in [
        atlas::UI_BUTTON_RED,
        atlas::UI_BUTTON_BLUE,
        atlas::UI_BUTTON_BLUE,
    ]
    .iter()
    .enumerate()
    {
        let c = v3(right - 2.3 - 2.1 * n as f32, ICONS, bottom - 1.6);
        panels.sprite(c, Vec2::new(1.8, 1.8), &round, UI.cell(*button));
        let icon = [atlas::UI_ARROW, atlas::UI_SHIELD, atlas::UI_GEAR][n];
        icons.sprite(
            c + v3(0.0, 0.05, 0.0),
            Vec2::new(1.0, 1.0),
            &round,
            UI.cell(icon),
        );
    }
    atlas::text(
        &mut text,
        "KINGDOM 1024",
        v3(cx - 2.2, TEXT, bottom - 0.6),
        0.5,
    );
    for (name, mesh, mat) in [
        ("ui_panels", panels, m_ui),
        ("ui_icons", icons, m_ui),
        ("ui_text", text, m_font),
        ("minimap", mini, m_minimap),
    ] {
        let m = k.mesh(name, mesh, mat);
        k.place(m, Mat4::IDENTITY);
    }
}
