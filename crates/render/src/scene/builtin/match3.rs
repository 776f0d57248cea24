//! `match3`: a level of a match-3 puzzle (the 2D puzzle class of Candy
//! Crush Saga and its kin) in landscape. A painted backdrop, a board of
//! translucent cells with a shaped outline, gems of six kinds and two
//! specials, a selection ring, sparkle particles and score pop-ups over a
//! match just made, interface panels (level, moves, targets, a star bar,
//! the score, booster buttons) and a mascot bent by a 2D skeletal
//! animation; all alpha-blended sprites but the backdrop, seen by an
//! overhead camera that settles on the board as a level starts.
//!
//! Sizes from the class, not from any measurement: a board of at most 9 x
//! 9 cells (the largest such games use), its corners cut as levels shape
//! their boards; sprites meshed as tight convex outlines (4-12 sides)
//! rather than quads, as 2D engines mesh sprites by default to shade fewer
//! blended pixels; a skeletal character's mesh of a few hundred
//! triangles; tens of particles per burst; each layer one draw from one
//! atlas (sprite batching); atlases of 256-512 texels a side,
//! block-compressed.

use super::atlas::{self, UI};
use super::kit::{self, Kit};
use super::noise::{hash, Rng};
use super::shapes::{outline_ngon, MeshBuilder, OUTLINE_QUAD};
use super::sheets::{self, GEMS};
use crate::graph::Preset;
use crate::math::{Mat4, Vec2, Vec3};
use crate::scene::{AlphaMode, Scene};

const SEED: u32 = 0x3a7c_4e11;
/// Cells per board side; a cell is 1 m.
const N: u32 = 9;
/// Sprite layers' heights above the backdrop, bottom to top.
const BOARD: f32 = 0.1;
const CELLS: f32 = 0.2;
const GEM: f32 = 0.3;
const RING: f32 = 0.35;
const SPARKS: f32 = 0.45;
const PANEL: f32 = 0.5;
const ICONS: f32 = 0.6;
const TEXT: f32 = 0.7;
/// Centres of the interface columns left and right of the board.
const LEFT: f32 = -8.6;
const RIGHT: f32 = 8.6;

fn v3(x: f32, y: f32, z: f32) -> Vec3 {
    Vec3::new(x, y, z)
}

struct Mats {
    gems: usize,
    ui: usize,
    font: usize,
    /// The same three sheets as interface materials, for the panels
    /// beside the board.
    interface_gems: usize,
    interface_ui: usize,
    interface_font: usize,
}

pub fn build() -> Scene {
    let mut k = Kit::new("match3");
    let backdrop = k.image_bc(sheets::backdrop(
        512,
        SEED,
        [0.45, 0.75, 0.95],
        [0.95, 0.65, 0.80],
    ));
    let gems = k.image_bc(sheets::gem_sheet(512, SEED + 1));
    let ui = k.image_bc(atlas::ui_sheet(256));
    let font = k.image_bc(atlas::glyph_sheet(256));
    let mascot = k.image_bc(sheets::mascot(256, SEED + 2, [0.95, 0.55, 0.20]));
    let m_backdrop = k.textured("backdrop", backdrop);
    let m = Mats {
        gems: k.alpha("gems", gems, AlphaMode::Blend),
        ui: k.alpha("ui", ui, AlphaMode::Blend),
        font: k.alpha("font", font, AlphaMode::Blend),
        interface_gems: k.interface("ui_gems", gems),
        interface_ui: k.interface("ui", ui),
        interface_font: k.interface("ui_font", font),
    };
    let m_sparks = k.particle("sparkles", gems, [0.0; 3]);
    let m_mascot = k.alpha("mascot", mascot, AlphaMode::Blend);

    let mut bg = MeshBuilder::new();
    bg.sprite(
        v3(0.0, 0.0, 0.0),
        Vec2::new(30.0, 12.0),
        &OUTLINE_QUAD,
        [0.0, 0.0, 1.0, 1.0],
    );
    let bg = k.mesh("backdrop", bg, m_backdrop);
    k.place(bg, Mat4::IDENTITY);

    board(&mut k, &m);
    sparkles(&mut k, m_sparks, m.font);
    interface(&mut k, &m);
    character(&mut k, m_mascot);

    k.cameras(vec![
        kit::overhead(v3(0.6, 0.0, 0.25), 5.3),
        kit::overhead(v3(0.2, 0.0, 0.08), 5.1),
        kit::overhead(v3(0.0, 0.0, 0.0), 5.0),
    ]);
    k.unlit_sprites();
    k.mobile_frame(Preset::MobileForward);
    k.scene.sky = [0.0, 0.0, 0.0];
    k.finish()
}

/// Whether board cell `(i, j)` exists: three cells are cut at each corner.
fn on_board(i: u32, j: u32) -> bool {
    i.min(N - 1 - i) + j.min(N - 1 - j) > 1
}

/// Centre of board cell `(i, j)`, row `j` from the top, at height `y`.
fn cell_centre(i: u32, j: u32, y: f32) -> Vec3 {
    let h = (N as f32 - 1.0) * 0.5;
    v3(i as f32 - h, y, j as f32 - h)
}

/// The board panel, its cells in a checker of two tones, the gems and a
/// selection ring: one draw each.
fn board(k: &mut Kit, m: &Mats) {
    let mut panel = MeshBuilder::new();
    atlas::nine_slice(
        &mut panel,
        v3(0.0, BOARD, 0.0),
        Vec2::new(N as f32 + 0.6, N as f32 + 0.6),
        0.6,
        UI.cell(atlas::UI_PANEL),
        0.2,
    );
    let mut cells = MeshBuilder::new();
    let mut gems = MeshBuilder::new();
    let outlines: Vec<Vec<(f32, f32)>> = (0..6).map(sheets::gem_outline).collect();
    let round = outline_ngon(12, 0.45, 0.0);
    for j in 0..N {
        for i in 0..N {
            if !on_board(i, j) {
                continue;
            }
            let tone = if (i + j) % 2 == 0 {
                sheets::CELL_LIGHT
            } else {
                sheets::CELL_DARK
            };
            cells.sprite(
                cell_centre(i, j, CELLS),
                Vec2::new(1.0, 1.0),
                &OUTLINE_QUAD,
                GEMS.cell(tone),
            );
            let h = hash(i, j, SEED);
            let (cell, outline) = match h % 40 {
                0 => (sheets::GEM_STRIPED, &round),
                1 => (sheets::GEM_BOMB, &round),
                _ => {
                    let kind = (h >> 8) % 6;
                    (kind, &outlines[kind as usize])
                }
            };
            gems.sprite(
                cell_centre(i, j, GEM),
                Vec2::new(0.95, 0.95),
                outline,
                GEMS.cell(cell),
            );
        }
    }
    let mut ring = MeshBuilder::new();
    ring.sprite(
        cell_centre(4, 5, RING),
        Vec2::new(1.1, 1.1),
        &outline_ngon(16, 0.47, 0.0),
        GEMS.cell(sheets::SELECT_RING),
    );
    for (name, b, mat) in [
        ("board", panel, m.ui),
        ("cells", cells, m.gems),
        ("gems", gems, m.gems),
        ("selection", ring, m.gems),
    ] {
        let mesh = k.mesh(name, b, mat);
        k.place(mesh, Mat4::IDENTITY);
    }
}

/// Two bursts of sparkles where matches were just made, with the points
/// they scored floating up.
fn sparkles(k: &mut Kit, m_sparks: usize, m_font: usize) {
    let mut rng = Rng::new(SEED ^ 0x5a5a);
    let mut sparks = MeshBuilder::new();
    let mut score = MeshBuilder::new();
    for (n, &(i, j)) in [(2u32, 3u32), (6, 6)].iter().enumerate() {
        let c = cell_centre(i, j, SPARKS);
        for _ in 0..60 {
            let a = rng.range(0.0, std::f32::consts::TAU);
            let r = rng.range(0.0, 1.6).powf(0.7);
            let s = rng.range(0.15, 0.55);
            sparks.sprite(
                c + v3(r * a.cos(), 0.0, r * a.sin()),
                Vec2::new(s, s),
                &OUTLINE_QUAD,
                GEMS.cell(sheets::SPARKLE),
            );
        }
        let points = ["+60", "+120"][n];
        atlas::text(&mut score, points, c + v3(-0.4, TEXT - SPARKS, -0.9), 0.55);
    }
    let s = k.mesh("sparkles", sparks, m_sparks);
    k.place(s, Mat4::IDENTITY);
    let s = k.mesh("score_popups", score, m_font);
    k.place(s, Mat4::IDENTITY);
}

/// Text centred on `x` at depth `z` in the text layer.
fn label(b: &mut MeshBuilder, s: &str, x: f32, z: f32, h: f32) {
    let w = h * 0.8 * (s.chars().count() as f32 - 1.0);
    atlas::text(b, s, v3(x - w * 0.5, TEXT, z), h);
}

/// The interface: the level, moves and targets on the left; the score,
/// a star bar and boosters on the right; a settings button.
fn interface(k: &mut Kit, m: &Mats) {
    let mut panels = MeshBuilder::new();
    let mut icons = MeshBuilder::new();
    let mut targets = MeshBuilder::new();
    let mut text = MeshBuilder::new();
    let panel = UI.cell(atlas::UI_PANEL);
    atlas::nine_slice(
        &mut panels,
        v3(LEFT, PANEL, -0.6),
        Vec2::new(6.4, 8.2),
        0.6,
        panel,
        0.2,
    );
    atlas::nine_slice(
        &mut panels,
        v3(RIGHT, PANEL, -2.3),
        Vec2::new(6.4, 4.8),
        0.6,
        panel,
        0.2,
    );
    label(&mut text, "LEVEL 127", LEFT, -4.0, 0.7);
    label(&mut text, "MOVES", LEFT, -2.6, 0.55);
    label(&mut text, "18", LEFT, -1.5, 1.1);
    label(&mut text, "TARGETS", LEFT, 0.1, 0.5);
    for (n, (kind, left)) in [(0u32, "12"), (3, "8"), (4, "20")].iter().enumerate() {
        let x = LEFT - 1.9 + 1.9 * n as f32;
        let outline = sheets::gem_outline(*kind as usize);
        targets.sprite(
            v3(x, ICONS, 1.4),
            Vec2::new(1.2, 1.2),
            &outline,
            GEMS.cell(*kind),
        );
        label(&mut text, left, x, 2.5, 0.5);
    }
    label(&mut text, "SCORE", RIGHT, -4.0, 0.55);
    label(&mut text, "12450", RIGHT, -3.0, 0.9);
    // The star bar: frame, fill to 60 %, three stars.
    let bar = v3(RIGHT, ICONS, -1.4);
    icons.sprite(
        bar,
        Vec2::new(5.2, 1.2),
        &OUTLINE_QUAD,
        UI.cell(atlas::UI_BAR),
    );
    icons.sprite(
        bar + v3(-1.04, -0.05, 0.0),
        Vec2::new(3.12, 1.2),
        &OUTLINE_QUAD,
        UI.cell(atlas::UI_FILL_GREEN),
    );
    let star = outline_ngon(10, 0.42, 0.0);
    for n in 0..3 {
        let x = RIGHT - 1.0 + 1.5 * n as f32;
        icons.sprite(
            v3(x, TEXT, -0.6),
            Vec2::new(0.9, 0.9),
            &star,
            UI.cell(atlas::UI_STAR),
        );
    }
    // Boosters under the score, each a button with an icon and a count.
    let round = outline_ngon(16, 0.44, 0.0);
    let boosters = [
        (atlas::UI_HEART, "3"),
        (atlas::UI_STAR, "5"),
        (atlas::UI_ARROW, "2"),
    ];
    for (n, &(icon, count)) in boosters.iter().enumerate() {
        let c = v3(RIGHT - 2.2 + 2.2 * n as f32, ICONS, 1.3);
        let button = if n == 1 {
            atlas::UI_BUTTON_RED
        } else {
            atlas::UI_BUTTON_BLUE
        };
        panels.sprite(c, Vec2::new(1.7, 1.7), &round, UI.cell(button));
        icons.sprite(
            c + v3(0.0, 0.1, 0.0),
            Vec2::new(1.0, 1.0),
            &round,
            UI.cell(icon),
        );
        label(&mut text, count, c.x + 0.6, 1.9, 0.45);
    }
    icons.sprite(
        v3(-11.8, ICONS, -4.3),
        Vec2::new(0.9, 0.9),
        &round,
        UI.cell(atlas::UI_GEAR),
    );
    for (name, b, mat) in [
        ("ui_panels", panels, m.interface_ui),
        ("ui_targets", targets, m.interface_gems),
        ("ui_icons", icons, m.interface_ui),
        ("ui_text", text, m.interface_font),
    ] {
        let mesh = k.mesh(name, b, mat);
        k.place(mesh, Mat4::IDENTITY);
    }
}

/// The mascot below the score, mid-wave: its grid mesh bent as a skeletal
/// animation would (the top leans and the body squashes).
fn character(k: &mut Kit, m: usize) {
    let mut b = MeshBuilder::new();
    let (c, s) = (v3(RIGHT, PANEL, 2.9), 3.6);
    b.sprite_grid(c, Vec2::new(s, s), (10, 14), [0.0, 0.0, 1.0, 1.0]);
    for p in &mut b.positions {
        // Height above the feet as a fraction of the sprite (screen up is -z).
        let f = ((c.z + s * 0.5 - p.z) / s).clamp(0.0, 1.0);
        p.x += 0.35 * f * f;
        p.z += 0.12 * s * (1.0 - f) * f;
    }
    let mesh = k.mesh("mascot", b, m);
    k.place(mesh, Mat4::IDENTITY);
}
