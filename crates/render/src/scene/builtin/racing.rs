//! `racing`: a rally stage at speed in the manner of Dirt 2. A 1.5 km
//! gravel road winds down a dry valley between rising rocky slopes (18
//! terrain chunks split into sand, scrub and rock), past a lake (the
//! mirror); concrete barriers with sponsor boards, tyre stacks,
//! chain-link fences (alpha-masked) and crowds (alpha-masked cards) line
//! the spectator stages; trees, bushes and boulders dot the slopes; six
//! rally cars race down the road, each trailing a dust plume (particles).
//! The camera chases the pack: each camera key sits behind a car, 130-200
//! m from the last, so consecutive frames of a path of six frames share
//! little of what they see, as at racing speed.
//!
//! Sizes are those of the class, a DirectX 10/11 racing game of
//! 2009-2011: a few hundred thousand triangles per view, most in the
//! terrain chunks and the cars (a player-class car in the tens of
//! thousands of triangles, opponents alike here), a draw per chunk and
//! per prop instance, and block-compressed textures of 512-2048 texels a
//! side (BC1 opaque, BC3 for the masked crowds and fences and the
//! particles), as such games ship them.

use super::kit::Kit;
use super::noise::{fbm, Rng};
use super::props;
use super::shapes::MeshBuilder;
use super::texgen;
use crate::graph::Preset;
use crate::math::{Mat4, Vec2, Vec3};
use crate::scene::{AlphaMode, Light, Mirror, Scene};
use std::f32::consts::{PI, TAU};

const SEED: u32 = 0x4a11_7e55;
/// Terrain chunks: `PATCH` metres and `CELLS` cells a side, `COLS` across
/// x from `-X_HALF`, `ROWS` along z down from `Z_TOP`.
const PATCH: f32 = 256.0;
const CELLS: u32 = 64;
const COLS: u32 = 3;
const ROWS: u32 = 6;
const X_HALF: f32 = PATCH * COLS as f32 * 0.5;
const Z_TOP: f32 = 512.0;
/// The road: half width, and where it starts and ends along z.
const ROAD: f32 = 6.0;
const ROAD_Z: (f32, f32) = (500.0, -1000.0);
/// The cars' z along the road, first to last; a camera key behind each.
const CARS: [f32; 6] = [430.0, 300.0, 150.0, 20.0, -170.0, -360.0];
/// The lake: z of its centre, distance of its centre from the road's
/// centre line, radius.
const LAKE: (f32, f32, f32) = (-40.0, 48.0, 30.0);

fn v3(x: f32, y: f32, z: f32) -> Vec3 {
    Vec3::new(x, y, z)
}

fn smooth(a: f32, b: f32, x: f32) -> f32 {
    texgen::step(a, b, x)
}

/// The road's centre line: x and height at `z`.
fn centre(z: f32) -> (f32, f32) {
    let x = 70.0 * (z / 180.0).sin() + 25.0 * (z / 67.0 + 1.0).sin();
    let y = 6.0 * (z / 230.0).sin() + 3.0 * (z / 91.0).sin();
    (x, y)
}

/// A point on the centre line and the unit direction of travel (-z).
fn frame_at(z: f32) -> (Vec3, Vec3) {
    let (x, y) = centre(z);
    let (x1, y1) = centre(z - 1.0);
    (v3(x, y, z), v3(x1 - x, y1 - y, -1.0).normalize())
}

/// Signed distance across the road from its centre line (right of the
/// direction of travel is positive), measured square to the road.
fn across(x: f32, z: f32) -> f32 {
    let (cx, _) = centre(z);
    let (cx1, _) = centre(z - 1.0);
    let slope = cx1 - cx;
    (x - cx) / (1.0 + slope * slope).sqrt()
}

fn lake_centre() -> (f32, f32) {
    (centre(LAKE.0).0 + LAKE.1, LAKE.0)
}

/// The lake surface, the mirror plane.
fn water() -> f32 {
    centre(LAKE.0).1 - 0.8
}

/// Ground height: the road's bed near it, rolling scrub beyond, rocky
/// slopes rising to the valley's sides, and the lake's basin.
pub fn height(x: f32, z: f32) -> f32 {
    let d = across(x, z).abs();
    let (u, v) = (
        (x + X_HALF) / (2.0 * X_HALF),
        (Z_TOP - z) / (PATCH * ROWS as f32),
    );
    let near = smooth(9.0, 40.0, d);
    let hills = (fbm(u, v * 2.0, 4, 5, SEED) - 0.5) * 36.0 * near;
    let slopes = smooth(25.0, 220.0, d) * 70.0 * (0.4 + fbm(u, v, 4, 4, SEED ^ 1));
    let h = centre(z).1 - 0.15 + hills + slopes;
    let (lx, lz) = lake_centre();
    let r = ((x - lx).powi(2) + (z - lz).powi(2)).sqrt() / LAKE.2;
    let basin = water() - 2.0 + 2.0 * r * r;
    let t = smooth(0.7, 1.5, r);
    basin + (h - basin) * t
}

struct Mats {
    ground: [usize; 3],
    road: usize,
    water: usize,
    concrete: usize,
    boards: usize,
    fence: usize,
    crowd: usize,
    tyre: usize,
    bark: usize,
    leaves: usize,
    rock: usize,
    dust: usize,
    glass: usize,
    chrome: usize,
    liveries: [usize; 6],
}

pub fn build() -> Scene {
    let mut k = Kit::new("racing");
    let m = materials(&mut k);
    terrain(&mut k, &m);
    road_and_lake(&mut k, &m);
    spectator_stages(&mut k, &m);
    scenery(&mut k, &m);
    cars(&mut k, &m);

    let keys: Vec<(Vec3, Vec3)> = CARS
        .iter()
        .map(|&z| {
            let (c, dir) = frame_at(z);
            (
                c - dir * 7.5 + v3(0.0, 2.3, 0.0),
                c + dir * 30.0 + v3(0.0, 0.6, 0.0),
            )
        })
        .collect();
    k.camera_path(&keys, 1500.0);
    k.scene.light = Light {
        direction: v3(-0.5, -0.6, -0.45).normalize(),
        color: [1.0, 0.93, 0.8],
        ambient: 0.35,
    };
    k.scene.mirror = Some(Mirror { height: water() });
    k.scene.sky = [0.55, 0.70, 0.90];
    // Codemasters' EGO engine lit forward (Dirt Showdown later added
    // Forward+ lighting): a forward engine fits the class.
    k.preset(Preset::Dx9Forward);
    k.finish()
}

fn materials(k: &mut Kit) -> Mats {
    let sand = k.image_bc(texgen::ground(
        2048,
        SEED,
        [0.62, 0.48, 0.32],
        [0.80, 0.66, 0.47],
    ));
    let scrub = k.image_bc(texgen::ground(
        1024,
        SEED + 1,
        [0.40, 0.38, 0.20],
        [0.62, 0.55, 0.32],
    ));
    let rock = k.image_bc(texgen::rock(1024, SEED + 2));
    let gravel = k.image_bc(texgen::gravel_track(2048, SEED + 3));
    let water = k.image_bc(texgen::water(512, SEED + 4));
    let concrete = k.image_bc(texgen::pavement(512, SEED + 5, 2));
    let boards = k.image_bc(texgen::sponsor_boards(1024, SEED + 6, 4));
    let fence = k.image_bc(texgen::grate(
        512,
        SEED + 7,
        16,
        0.12,
        true,
        [0.6, 0.62, 0.6],
    ));
    let crowd = k.image_bc(texgen::crowd(1024, SEED + 8, 10));
    let paint = k.image_bc(texgen::painted(512, SEED + 9, [0.9, 0.9, 0.9]));
    let bark = k.image_bc(texgen::bark(512, SEED + 10));
    let leaves = k.image_bc(texgen::leaves(1024, SEED + 11, [0.28, 0.36, 0.14]));
    let dust = k.image_bc(texgen::puff(512, SEED + 12, [0.86, 0.78, 0.64]));
    let schemes: [([f32; 3], [f32; 3]); 6] = [
        ([0.10, 0.20, 0.60], [0.95, 0.80, 0.10]),
        ([0.85, 0.10, 0.08], [0.95, 0.95, 0.95]),
        ([0.95, 0.95, 0.95], [0.10, 0.40, 0.80]),
        ([0.10, 0.10, 0.10], [0.95, 0.45, 0.05]),
        ([0.15, 0.55, 0.25], [0.95, 0.95, 0.95]),
        ([0.95, 0.75, 0.05], [0.10, 0.10, 0.10]),
    ];
    let liveries = std::array::from_fn(|i| {
        let (base, stripe) = schemes[i];
        let img = k.image_bc(texgen::livery(1024, SEED + 20 + i as u32, base, stripe));
        k.textured(&format!("livery{i}"), img)
    });
    let dust = {
        let d = k.particle("dust", dust, [0.0; 3]);
        k.scene.materials[d].base_color = [1.0, 1.0, 1.0, 0.8];
        d
    };
    Mats {
        ground: [
            k.textured("sand", sand),
            k.textured("scrub", scrub),
            k.textured("rock", rock),
        ],
        road: k.textured("gravel_road", gravel),
        water: k.reflective("lake", water, [0.6, 0.7, 0.75]),
        concrete: k.textured("concrete", concrete),
        boards: k.textured("sponsor_boards", boards),
        fence: k.alpha("fence", fence, AlphaMode::Mask),
        crowd: k.alpha("crowd", crowd, AlphaMode::Mask),
        tyre: k.tinted("tyres", paint, [0.06, 0.06, 0.06]),
        bark: k.textured("bark", bark),
        leaves: k.alpha("leaves", leaves, AlphaMode::Mask),
        rock: k.textured("boulders", rock),
        dust,
        glass: k.tinted("car_glass", paint, [0.08, 0.10, 0.12]),
        chrome: k.tinted("rims", paint, [0.75, 0.75, 0.78]),
        liveries,
    }
}

/// The terrain in chunks (one draw each), each split into sand near the
/// road, scrub, and rock on steep or high ground.
fn terrain(k: &mut Kit, m: &Mats) {
    for row in 0..ROWS {
        for col in 0..COLS {
            let x0 = -X_HALF + col as f32 * PATCH;
            let z0 = Z_TOP - (row + 1) as f32 * PATCH;
            let mut b = MeshBuilder::new();
            b.heightfield((x0, z0), PATCH, CELLS, 0.1, height);
            let parts = b.split(3, |p| {
                let n = (p[1] - p[0]).cross(p[2] - p[0]).normalize();
                let c = (p[0] + p[1] + p[2]) * (1.0 / 3.0);
                let d = across(c.x, c.z).abs();
                let rise = c.y - centre(c.z).1;
                if n.y.abs() < 0.82 || rise > 22.0 {
                    2
                } else if d < 26.0 + 10.0 * fbm(c.x / 64.0, c.z / 64.0, 4, 2, SEED ^ 7) {
                    0
                } else {
                    1
                }
            });
            for (i, part) in parts.into_iter().enumerate() {
                if part.indices.is_empty() {
                    continue;
                }
                let name = format!("terrain_{row}_{col}_{i}");
                let mesh = k.mesh(&name, part, m.ground[i]);
                k.place(mesh, Mat4::IDENTITY);
            }
        }
    }
}

/// The gravel road (a ribbon a little above its bed, one draw per 250 m
/// stretch), and the lake.
fn road_and_lake(k: &mut Kit, m: &Mats) {
    let stretch = 250.0;
    let mut z = ROAD_Z.0;
    let mut part = 0;
    while z > ROAD_Z.1 {
        let end = (z - stretch).max(ROAD_Z.1);
        let rows: Vec<(Vec3, Vec3)> = (0..=((z - end) / 2.0) as u32)
            .map(|i| {
                let (c, dir) = frame_at(z - i as f32 * 2.0);
                let right = dir.cross(v3(0.0, 1.0, 0.0)).normalize() * ROAD;
                let c = c + v3(0.0, 0.05, 0.0);
                (c - right, c + right)
            })
            .collect();
        let mut b = MeshBuilder::new();
        b.strip(&rows, 8, 1.0 / 24.0);
        let mesh = k.mesh(&format!("road{part}"), b, m.road);
        k.place(mesh, Mat4::IDENTITY);
        z = end;
        part += 1;
    }
    let (lx, lz) = lake_centre();
    let mut lake = MeshBuilder::new();
    lake.disc(v3(lx, water(), lz), LAKE.2 * 1.3, 64, true);
    let mesh = k.mesh("lake", lake, m.water);
    k.place(mesh, Mat4::IDENTITY);
}

/// A place on the ground `d` metres across the road at `z`.
fn beside(z: f32, d: f32) -> Vec3 {
    let (c, dir) = frame_at(z);
    let right = dir.cross(v3(0.0, 1.0, 0.0)).normalize();
    let p = c + right * d;
    v3(p.x, height(p.x, p.z), p.z)
}

/// The yaw that turns local +x along the road at `z`.
fn yaw_along(z: f32) -> f32 {
    let (_, dir) = frame_at(z);
    (-dir.z).atan2(dir.x)
}

/// Where the cars pass the crowds: concrete blocks with sponsor boards
/// at the road's edges, tyre stacks, chain-link fences and rows of
/// spectators behind them, on both sides ahead of each camera key.
fn spectator_stages(k: &mut Kit, m: &Mats) {
    let mut block = MeshBuilder::new();
    block.cuboid(v3(-1.45, 0.0, -0.3), v3(1.45, 0.5, 0.3), 0.5);
    block.cuboid(v3(-1.45, 0.5, -0.15), v3(1.45, 0.8, 0.15), 0.5);
    let block = k.mesh("barrier_block", block, m.concrete);
    let mut board = MeshBuilder::new();
    board.quad(
        v3(-1.45, 0.05, 0.31),
        v3(2.9, 0.0, 0.0),
        v3(0.0, 0.42, 0.0),
        Vec2::new(0.25, 1.0),
    );
    let board = k.mesh("sponsor_board", board, m.boards);
    let mut stack = MeshBuilder::new();
    for i in 0..4 {
        let y = i as f32 * 0.24;
        stack.tube(v3(0.0, y, 0.0), v3(0.0, y + 0.24, 0.0), 0.33, 32, 1);
    }
    let stack = k.mesh("tyre_stack", stack, m.tyre);
    let mut fence = MeshBuilder::new();
    fence.quad(
        v3(-2.0, 0.0, 0.0),
        v3(4.0, 0.0, 0.0),
        v3(0.0, 2.0, 0.0),
        Vec2::new(1.0, 0.5),
    );
    fence.tube(v3(-2.0, 0.0, 0.0), v3(-2.0, 2.1, 0.0), 0.03, 8, 1);
    let fence = k.mesh("fence", fence, m.fence);
    let mut crowd = MeshBuilder::new();
    // The texture's v runs down the card.
    crowd.grid_at(
        v3(-4.0, 0.0, 0.0),
        v3(8.0, 0.0, 0.0),
        v3(0.0, 2.0, 0.0),
        (1, 1),
        Vec2::new(0.0, 1.0),
        Vec2::new(1.0, -1.0),
    );
    let crowd = k.mesh("crowd", crowd, m.crowd);
    let mut rng = Rng::new(SEED ^ 0x5ec7);
    for &car in &CARS {
        for side in [-1.0f32, 1.0] {
            // Local +z of a block faces the road.
            let face = if side < 0.0 { 0.0 } else { PI };
            let mut z = car - 12.0;
            while z > car - 90.0 {
                let yaw = yaw_along(z) + face;
                k.put(block, beside(z, side * (ROAD + 1.2)), yaw, 1.0);
                k.put(board, beside(z, side * (ROAD + 1.2)), yaw, 1.0);
                if rng.unit() < 0.3 {
                    k.put(stack, beside(z, side * (ROAD + 2.4)), 0.0, 1.0);
                }
                z -= 3.0;
            }
            let mut z = car - 16.0;
            while z > car - 88.0 {
                let yaw = yaw_along(z) + face;
                k.put(fence, beside(z, side * (ROAD + 5.0)), yaw, 1.0);
                for row in 0..3 {
                    let d = side * (ROAD + 7.0 + row as f32 * 2.5);
                    let p = beside(z + rng.range(-1.0, 1.0), d) + v3(0.0, row as f32 * 0.4, 0.0);
                    k.put(crowd, p, yaw, 1.0);
                }
                z -= 8.0;
            }
        }
    }
}

/// Trees, bushes and boulders off the road, on the nearer slopes.
fn scenery(k: &mut Kit, m: &Mats) {
    let mut trunk = MeshBuilder::new();
    trunk.cone(v3(0.0, 0.0, 0.0), 0.3, 0.15, 4.5, 8, 2);
    let trunk = k.mesh("tree_trunk", trunk, m.bark);
    let crown = props::leaf_crown(&mut Rng::new(SEED ^ 0xc20), 12, 2.0, (3.0, 5.5), 3.4);
    let crown = k.mesh("tree_crown", crown, m.leaves);
    let bush = props::leaf_crown(&mut Rng::new(SEED ^ 0xb05), 5, 0.6, (0.0, 0.5), 1.6);
    let bush = k.mesh("bush", bush, m.leaves);
    let rocks: Vec<usize> = (0..3)
        .map(|v| k.mesh(&format!("boulder{v}"), props::boulder(SEED + v), m.rock))
        .collect();
    let mut rng = Rng::new(SEED ^ 0x7733);
    let (mut trees, mut bushes, mut stones) = (0, 0, 0);
    while trees < 160 || bushes < 420 || stones < 160 {
        let z = rng.range(ROAD_Z.1 + 20.0, ROAD_Z.0);
        let d = rng.range(10.0, 160.0) * if rng.unit() < 0.5 { -1.0 } else { 1.0 };
        let p = beside(z, d);
        let (lx, lz) = lake_centre();
        if ((p.x - lx).powi(2) + (p.z - lz).powi(2)).sqrt() < LAKE.2 * 1.4 {
            continue;
        }
        let (yaw, s) = (rng.range(0.0, TAU), rng.range(0.7, 1.3));
        match rng.below(3) {
            0 if trees < 160 => {
                k.put(trunk, p, yaw, s);
                k.put(crown, p, yaw, s);
                trees += 1;
            }
            1 if bushes < 420 => {
                k.put(bush, p, yaw, s);
                bushes += 1;
            }
            2 if stones < 160 => {
                let r = rocks[rng.below(3) as usize];
                k.put(r, p - v3(0.0, 0.2, 0.0), yaw, s * 1.4);
                stones += 1;
            }
            _ => {}
        }
    }
}

/// The six rally cars, one at each camera key's place on the road, each
/// with its dust plume drifting back and downwind.
fn cars(k: &mut Kit, m: &Mats) {
    let (body, glass, tyres, rims) = props::rally_car();
    let bodies: Vec<usize> = (0..6)
        .map(|i| k.mesh(&format!("car_body{i}"), body.clone(), m.liveries[i]))
        .collect();
    let glass = k.mesh("car_glass", glass, m.glass);
    let tyres = k.mesh("car_tyres", tyres, m.tyre);
    let rims = k.mesh("car_rims", rims, m.chrome);
    let mut rng = Rng::new(SEED ^ 0xca5);
    for (i, &z) in CARS.iter().enumerate() {
        let (c, dir) = frame_at(z);
        // A little off the centre line, on the racing line.
        let p = c + dir.cross(v3(0.0, 1.0, 0.0)).normalize() * rng.range(-1.5, 1.5);
        let at = Mat4::translation(p + v3(0.0, 0.05, 0.0)) * Mat4::rotation_y(yaw_along(z));
        for mesh in [bodies[i], glass, tyres, rims] {
            k.place(mesh, at);
        }
        let wind = v3(0.35, 0.0, 0.0);
        let plume = props::sprites(&mut rng, 36, |rng, j| {
            let back = 2.5 + j as f32 * 0.7;
            let spread = rng.range(-0.8, 0.8) * (0.3 + back * 0.08);
            let q = p - dir * back + wind * back + v3(spread, 0.3 + back * 0.07, 0.0);
            (q, 0.8 + back * 0.18)
        });
        let dust = k.mesh(&format!("dust{i}"), plume, m.dust);
        k.place(dust, Mat4::IDENTITY);
    }
}
