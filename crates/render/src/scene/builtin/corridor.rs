//! `corridor`: a corridor shooter in the manner of BioShock or Stalker:
//! a 104 m art-deco service corridor with six side rooms, pipe runs along
//! the ceiling, fluted pilasters, sconces and neon over the doors
//! (emissive), crates and drums, a skylight of masked iron grating under
//! blended glass, wet floor puddles (the mirror), steam, sparks and dust
//! (particles), and the player's weapon and glove close to the camera,
//! which walks the corridor and looks into a room.
//!
//! Sizes are those of the class, a DirectX 10/11 first-person shooter of
//! 2007-2011: a few hundred thousand triangles per view spent on near
//! detail (pipes, pilasters, props; a first-person weapon with its hand
//! is on the order of ten thousand triangles), one draw per prop instance
//! (hundreds per pass), and block-compressed material textures of
//! 512-2048 texels a side (BC1 opaque, BC3 with alpha), as such games
//! ship them. The weapon is placed in front of the path's first camera
//! key (the frame a one-frame render draws): a scene's instances are in
//! world space, so in later frames of a walk it stays behind.

use super::kit::Kit;
use super::noise::Rng;
use super::props;
use super::shapes::{MeshBuilder, Wall};
use super::texgen;
use crate::graph::Preset;
use crate::math::{Mat4, Vec2, Vec3};
use crate::scene::{AlphaMode, Light, Mirror, Scene};
use std::f32::consts::{FRAC_PI_2, PI, TAU};

const SEED: u32 = 0xc0dd_1d0e;
/// Corridor half width, height, wall thickness; it runs from `Z0` down
/// to `Z1` along -z.
const HALF: f32 = 2.0;
const H: f32 = 4.2;
const T: f32 = 0.3;
const Z0: f32 = 4.0;
const Z1: f32 = -100.0;
/// Door opening width and height.
const DOOR: (f32, f32) = (1.8, 2.5);
/// Side rooms: side (-1 left, +1 right) and the z of the door's centre.
const ROOMS: [(f32, f32); 6] = [
    (-1.0, -12.0),
    (1.0, -26.0),
    (-1.0, -42.0),
    (1.0, -56.0),
    (-1.0, -72.0),
    (1.0, -86.0),
];
/// Room depth (x, away from the corridor), length (z) and height.
const ROOM: (f32, f32, f32) = (7.0, 10.0, 4.2);
/// Half width of the skylight along the ceiling's centre.
const SKY: f32 = 0.8;
/// Pilasters and sconces stand every `BAY` metres (sconces half a bay on).
const BAY: f32 = 4.0;
/// Puddle surface: the mirror plane.
const WET: f32 = 0.01;
/// Camera keys (eye, target).
const PATH: [([f32; 3], [f32; 3]); 4] = [
    ([0.4, 1.7, 1.0], [0.0, 1.9, -30.0]),
    ([-0.5, 1.7, -24.0], [1.2, 1.8, -50.0]),
    ([0.5, 1.7, -50.0], [6.0, 1.4, -57.0]),
    ([0.0, 1.7, -78.0], [0.0, 2.2, -110.0]),
];

fn v3(x: f32, y: f32, z: f32) -> Vec3 {
    Vec3::new(x, y, z)
}

/// The materials the corridor's parts share.
struct Mats {
    floor: usize,
    deco: usize,
    ceiling: usize,
    trim: usize,
    room_wall: usize,
    room_floor: usize,
    pipe: usize,
    iron: usize,
    wood: usize,
    drum: usize,
    grate: usize,
    glass: usize,
    lamp: usize,
    neon: [usize; 2],
    water: usize,
    steam: usize,
    sparks: usize,
    dust: usize,
    glove: usize,
}

pub fn build() -> Scene {
    let mut k = Kit::new("corridor");
    let m = materials(&mut k);
    shell(&mut k, &m);
    rooms(&mut k, &m);
    skylight(&mut k, &m);
    pipes(&mut k, &m);
    pilasters_and_lamps(&mut k, &m);
    doors(&mut k, &m);
    furniture(&mut k, &m);
    wet_floor_and_effects(&mut k, &m);
    weapon(&mut k, &m);

    let keys: Vec<(Vec3, Vec3)> = PATH
        .iter()
        .map(|&(e, t)| (v3(e[0], e[1], e[2]), v3(t[0], t[1], t[2])))
        .collect();
    k.camera_path(&keys, 160.0);
    // Daylight filtered through water above the skylight.
    k.scene.light = Light {
        direction: v3(0.2, -1.0, -0.3).normalize(),
        color: [0.75, 0.92, 0.95],
        ambient: 0.35,
    };
    k.scene.mirror = Some(Mirror { height: WET });
    k.scene.sky = [0.04, 0.22, 0.28];
    // Stalker CoP's X-Ray 1.6 and the DX10/11 shooters of its day shade
    // deferred.
    k.preset(Preset::Dx11Deferred);
    k.finish()
}

fn materials(k: &mut Kit) -> Mats {
    let plates = k.image_bc(texgen::metal_plates(2048, SEED, 4, [0.42, 0.42, 0.40]));
    let deco = k.image_bc(texgen::deco_panels(
        2048,
        SEED + 1,
        2,
        [0.55, 0.62, 0.58],
        [0.80, 0.62, 0.28],
    ));
    let plaster = k.image_bc(texgen::plaster(1024, SEED + 2, [0.70, 0.68, 0.62]));
    let bricks = k.image_bc(texgen::bricks(1024, SEED + 3, 16, [0.45, 0.30, 0.24]));
    let tiles = k.image_bc(texgen::marble_tiles(1024, SEED + 4, 8));
    let rusty = k.image_bc(texgen::rusty_paint(1024, SEED + 5, [0.30, 0.42, 0.38]));
    let drum = k.image_bc(texgen::rusty_paint(512, SEED + 6, [0.55, 0.18, 0.10]));
    let metal = k.image_bc(texgen::worn_metal(1024, SEED + 7, [0.22, 0.23, 0.25]));
    let planks = k.image_bc(texgen::planks(1024, SEED + 8));
    let grate = k.image_bc(texgen::grate(
        512,
        SEED + 9,
        8,
        0.18,
        false,
        [0.25, 0.24, 0.22],
    ));
    let glass = k.image_bc(texgen::glass(512, SEED + 10, [0.55, 0.75, 0.75]));
    let water = k.image_bc(texgen::water(512, SEED + 11));
    let puff = k.image_bc(texgen::puff(512, SEED + 12, [0.85, 0.88, 0.90]));
    let spark = k.image_bc(texgen::spark(256, [1.0, 0.6, 0.2]));
    let glove = k.image_bc(texgen::painted(512, SEED + 13, [0.30, 0.20, 0.12]));
    Mats {
        floor: k.textured("floor_plates", plates),
        deco: k.textured("deco_walls", deco),
        ceiling: k.textured("ceiling", plaster),
        trim: k.tinted("gilt_trim", metal, [2.6, 2.1, 1.1]),
        room_wall: k.textured("room_bricks", bricks),
        room_floor: k.textured("room_tiles", tiles),
        pipe: k.textured("pipes", rusty),
        iron: k.textured("iron", metal),
        wood: k.textured("crate_wood", planks),
        drum: k.textured("drums", drum),
        grate: k.alpha("grate", grate, AlphaMode::Mask),
        glass: k.alpha("glass", glass, AlphaMode::Blend),
        lamp: k.emissive("lamp_shade", Some(glass), [2.2, 1.7, 1.0]),
        neon: [
            k.emissive("neon_pink", None, [3.0, 0.6, 1.6]),
            k.emissive("neon_teal", None, [0.4, 2.4, 2.6]),
        ],
        water: k.reflective("puddle", water, [0.5, 0.55, 0.6]),
        steam: k.particle("steam", puff, [0.0; 3]),
        sparks: k.particle("sparks", spark, [3.0, 1.6, 0.5]),
        dust: {
            let d = k.particle("dust", puff, [0.0; 3]);
            k.scene.materials[d].base_color = [0.8, 0.85, 0.8, 0.25];
            d
        },
        glove: k.textured("glove", glove),
    }
}

/// A wall of the corridor or a room from `start` along `along` for
/// `len` metres, full height, with doors at the distances `doors`.
fn face<'a>(start: Vec3, along: Vec3, len: f32, doors: &'a [f32], uv: Vec2) -> Wall<'a> {
    Wall {
        start,
        along,
        len,
        height: H,
        doors,
        door: v3(DOOR.0, DOOR.1, T),
        cell: 0.5,
        uv_per_m: uv,
    }
}

/// The corridor: floor, ceiling either side of the skylight, both walls
/// with the rooms' doors, and the two end walls.
fn shell(k: &mut Kit, m: &Mats) {
    let len = Z0 - Z1;
    let mut floor = MeshBuilder::new();
    floor.grid(
        v3(-HALF, 0.0, Z0),
        v3(2.0 * HALF, 0.0, 0.0),
        v3(0.0, 0.0, -len),
        8,
        208,
        Vec2::new(2.0 * HALF / 4.0, len / 4.0),
    );
    let f = k.mesh("corridor_floor", floor, m.floor);
    k.place(f, Mat4::IDENTITY);

    let mut ceil = MeshBuilder::new();
    for (x0, x1) in [(-HALF, -SKY), (SKY, HALF)] {
        ceil.grid(
            v3(x0, H, Z0),
            v3(0.0, 0.0, -len),
            v3(x1 - x0, 0.0, 0.0),
            104,
            2,
            Vec2::new(len / 3.0, (x1 - x0) / 3.0),
        );
    }
    let c = k.mesh("corridor_ceiling", ceil, m.ceiling);
    k.place(c, Mat4::IDENTITY);

    let mut walls = MeshBuilder::new();
    let uv = Vec2::new(0.25, 1.0 / H);
    // Doors as distances from each wall's start.
    let left: Vec<f32> = doors_on(-1.0).iter().map(|z| Z0 - z).collect();
    let right: Vec<f32> = doors_on(1.0).iter().rev().map(|z| z - Z1).collect();
    let (along_l, along_r) = (v3(0.0, 0.0, -1.0), v3(0.0, 0.0, 1.0));
    let across = v3(1.0, 0.0, 0.0);
    walls.wall(&face(v3(-HALF, 0.0, Z0), along_l, len, &left, uv));
    walls.wall(&face(v3(HALF, 0.0, Z1), along_r, len, &right, uv));
    walls.wall(&face(v3(-HALF, 0.0, Z1), across, 2.0 * HALF, &[], uv));
    walls.wall(&face(v3(HALF, 0.0, Z0), -across, 2.0 * HALF, &[], uv));
    let w = k.mesh("corridor_walls", walls, m.deco);
    k.place(w, Mat4::IDENTITY);

    // A round porthole onto the water at the far end, in an iron ring.
    let mut port = MeshBuilder::new();
    port.lathe(
        v3(0.0, 0.0, 0.0),
        &[(1.5, 0.0), (1.5, 0.12), (1.3, 0.12), (1.3, 0.0)],
        64,
    );
    let ring = k.mesh("porthole_ring", port, m.iron);
    k.place(
        ring,
        Mat4::translation(v3(0.0, 2.1, Z1)) * Mat4::rotation_x(FRAC_PI_2),
    );
    let mut pane = MeshBuilder::new();
    pane.disc(v3(0.0, 0.0, 0.0), 1.3, 64, true);
    let pane = k.mesh("porthole_glass", pane, m.glass);
    k.place(
        pane,
        Mat4::translation(v3(0.0, 2.1, Z1 + 0.05)) * Mat4::rotation_x(FRAC_PI_2),
    );
}

/// The z of the door centres on `side`.
fn doors_on(side: f32) -> Vec<f32> {
    ROOMS.iter().filter(|r| r.0 == side).map(|r| r.1).collect()
}

/// Each room: an inward-facing box behind its door (brick walls, tiled
/// floor, plaster ceiling), its corridor-side wall with the door.
fn rooms(k: &mut Kit, m: &Mats) {
    let (depth, len, h) = ROOM;
    let (mut walls, mut floors, mut ceils) =
        (MeshBuilder::new(), MeshBuilder::new(), MeshBuilder::new());
    let uv = Vec2::new(1.0 / 3.0, 1.0 / 3.0);
    for &(side, zc) in &ROOMS {
        // Inner x of the corridor-side wall and of the far wall.
        let (xn, xf) = (side * (HALF + T), side * (HALF + T + depth));
        let (za, zb) = (zc + len * 0.5, zc - len * 0.5);
        let (x0, x1) = (xn.min(xf), xn.max(xf));
        floors.grid(
            v3(x0, 0.0, za),
            v3(x1 - x0, 0.0, 0.0),
            v3(0.0, 0.0, -len),
            14,
            20,
            Vec2::new(depth / 4.0, len / 4.0),
        );
        ceils.grid(
            v3(x0, h, za),
            v3(0.0, 0.0, -len),
            v3(x1 - x0, 0.0, 0.0),
            10,
            7,
            Vec2::new(len / 3.0, depth / 3.0),
        );
        let z = v3(0.0, 0.0, 1.0);
        let x = v3(1.0, 0.0, 0.0);
        // Walls facing in: the door wall, the far wall, the two ends.
        let door = [len * 0.5];
        let (near, far) = if side < 0.0 {
            (
                face(v3(xn, 0.0, zb), z, len, &door, uv),
                face(v3(xf, 0.0, za), -z, len, &[], uv),
            )
        } else {
            (
                face(v3(xn, 0.0, za), -z, len, &door, uv),
                face(v3(xf, 0.0, zb), z, len, &[], uv),
            )
        };
        walls.wall(&near);
        walls.wall(&far);
        walls.wall(&face(v3(x1, 0.0, za), -x, depth, &[], uv));
        walls.wall(&face(v3(x0, 0.0, zb), x, depth, &[], uv));
    }
    for (name, b, mat) in [
        ("room_walls", walls, m.room_wall),
        ("room_floors", floors, m.room_floor),
        ("room_ceilings", ceils, m.ceiling),
    ] {
        let r = k.mesh(name, b, mat);
        k.place(r, Mat4::IDENTITY);
    }
}

/// The skylight: iron grating (alpha-masked, so the sun casts its
/// lattice on the floor) in the ceiling's slot, ribs across it every
/// two metres and blended glass panes above.
fn skylight(k: &mut Kit, m: &Mats) {
    let len = Z0 - Z1;
    let mut grate = MeshBuilder::new();
    grate.grid(
        v3(-SKY, H, Z0),
        v3(0.0, 0.0, -len),
        v3(2.0 * SKY, 0.0, 0.0),
        52,
        1,
        Vec2::new(len / 1.6, 1.0),
    );
    let g = k.mesh("skylight_grate", grate, m.grate);
    k.place(g, Mat4::IDENTITY);
    let mut ribs = MeshBuilder::new();
    let mut z = Z0 - 1.0;
    while z > Z1 {
        ribs.cuboid(v3(-SKY, H, z - 0.06), v3(SKY, H + 0.5, z + 0.06), 1.0);
        z -= 2.0;
    }
    for x in [-SKY, SKY] {
        ribs.cuboid(v3(x - 0.08, H, Z1), v3(x + 0.08, H + 0.6, Z0), 1.0);
    }
    let r = k.mesh("skylight_ribs", ribs, m.iron);
    k.place(r, Mat4::IDENTITY);
    let mut glass = MeshBuilder::new();
    glass.grid(
        v3(-SKY, H + 0.5, Z0),
        v3(0.0, 0.0, -len),
        v3(2.0 * SKY, 0.0, 0.0),
        26,
        1,
        Vec2::new(len / 4.0, 1.0),
    );
    let gl = k.mesh("skylight_glass", glass, m.glass);
    k.place(gl, Mat4::IDENTITY);
}

/// One four-metre length of pipe along -z with a bolted flange and a
/// hanger `hang` metres up to the ceiling, `r` in radius.
fn pipe_length(r: f32, hang: f32) -> MeshBuilder {
    let mut b = MeshBuilder::new();
    b.tube(v3(0.0, 0.0, 0.0), v3(0.0, 0.0, -BAY), r, 32, 4);
    b.tube(v3(0.0, 0.0, 0.06), v3(0.0, 0.0, -0.06), r * 1.45, 32, 1);
    for i in 0..8 {
        let a = i as f32 / 8.0 * TAU;
        let p = v3(a.cos(), a.sin(), 0.0) * (r * 1.25);
        b.tube(p + v3(0.0, 0.0, 0.09), p - v3(0.0, 0.0, 0.09), 0.012, 8, 1);
    }
    b.cuboid(v3(-0.02, r, -2.02), v3(0.02, hang, -1.98), 1.0);
    b
}

/// Five pipe runs along the upper corners, in four-metre lengths (one
/// draw each), with valve wheels here and there.
fn pipes(k: &mut Kit, m: &Mats) {
    let runs = [
        (-1.72, 3.85, 0.14),
        (-1.42, 3.92, 0.10),
        (-1.75, 3.45, 0.09),
        (1.62, 3.70, 0.22),
        (1.80, 3.30, 0.06),
    ];
    let mut valve = MeshBuilder::new();
    valve.tube(v3(0.0, 0.0, 0.0), v3(0.0, -0.35, 0.0), 0.03, 12, 1);
    let rim: Vec<(f32, f32)> = (0..=12)
        .map(|i| {
            let a = i as f32 / 12.0 * TAU;
            (0.16 + 0.025 * a.cos(), 0.025 * a.sin())
        })
        .collect();
    valve.lathe(v3(0.0, -0.38, 0.0), &rim, 48);
    for s in 0..4 {
        let a = s as f32 * FRAC_PI_2;
        let d = v3(a.cos(), 0.0, a.sin()) * 0.16;
        valve.tube(v3(0.0, -0.38, 0.0), v3(0.0, -0.38, 0.0) + d, 0.012, 8, 1);
    }
    let valve = k.mesh("valve", valve, m.iron);
    let mut rng = Rng::new(SEED ^ 0x919e);
    for (i, &(x, y, r)) in runs.iter().enumerate() {
        let mesh = k.mesh(&format!("pipe{i}"), pipe_length(r, H - y), m.pipe);
        let mut z = Z0;
        while z > Z1 + 0.1 {
            k.place(mesh, Mat4::translation(v3(x, y, z)));
            if rng.unit() < 0.12 {
                k.put(valve, v3(x, y - r, z - 1.0), rng.range(0.0, TAU), 1.0);
            }
            z -= BAY;
        }
    }
}

/// Distance of `z` to the nearest door on `side`.
fn door_clearance(side: f32, z: f32) -> f32 {
    doors_on(side)
        .iter()
        .map(|d| (z - d).abs())
        .fold(f32::INFINITY, f32::min)
}

/// Fluted half-embedded pilasters every bay (gilt capitals), sconces
/// between them, neon frames over the room doors.
fn pilasters_and_lamps(k: &mut Kit, m: &Mats) {
    let mut shaft = MeshBuilder::new();
    let profile: Vec<(f32, f32)> = (0..=12).map(|i| (0.17, 0.3 + i as f32 * 0.28)).collect();
    shaft.lathe(v3(0.0, 0.0, 0.0), &profile, 48);
    // Flutes: twelve grooves cut into the shaft.
    shaft.displace(|p| -0.018 * (p.z.atan2(p.x) * 12.0).cos().abs());
    let shaft = k.mesh("pilaster_shaft", shaft, m.trim);
    let mut cap = MeshBuilder::new();
    cap.cuboid(v3(-0.26, 0.0, -0.26), v3(0.26, 0.3, 0.26), 2.0);
    for (i, w) in [0.24f32, 0.28, 0.32].iter().enumerate() {
        let y = 3.66 + i as f32 * 0.1;
        cap.cuboid(v3(-w, y, -w), v3(*w, y + 0.1, *w), 2.0);
    }
    cap.cone(v3(0.0, 3.96, 0.0), 0.32, 0.12, 0.24, 24, 2);
    let cap = k.mesh("pilaster_cap", cap, m.iron);
    let mut sconce = MeshBuilder::new();
    sconce.cuboid(v3(-0.05, -0.1, -0.08), v3(0.12, 0.1, 0.08), 4.0);
    sconce.cuboid(v3(0.1, -0.03, -0.03), v3(0.3, 0.03, 0.03), 4.0);
    let sconce = k.mesh("sconce_arm", sconce, m.iron);
    let mut shade = MeshBuilder::new();
    shade.sphere(v3(0.32, 0.0, 0.0), 0.14, 24, 12);
    let shade = k.mesh("sconce_shade", shade, m.lamp);
    for side in [-1.0f32, 1.0] {
        // Turned so local +x points away from the wall.
        let yaw = if side < 0.0 { 0.0 } else { PI };
        let mut z = Z0 - 2.0;
        while z > Z1 + 1.0 {
            let x = side * HALF;
            if door_clearance(side, z) > 1.3 {
                k.put(shaft, v3(x, 0.0, z), 0.0, 1.0);
                k.put(cap, v3(x, 0.0, z), 0.0, 1.0);
            }
            let zs = z - BAY * 0.5;
            if door_clearance(side, zs) > 1.3 && zs > Z1 + 1.0 {
                k.put(sconce, v3(x, 2.6, zs), yaw, 1.0);
                k.put(shade, v3(x, 2.6, zs), yaw, 1.0);
            }
            z -= BAY;
        }
    }
    // Neon: a stepped art-deco frame of emissive tubes over each door.
    for (i, &(side, zc)) in ROOMS.iter().enumerate() {
        let x = side * (HALF - 0.05);
        let mut tubes = MeshBuilder::new();
        let pts = [
            (-1.1, 2.6),
            (-1.1, 2.9),
            (-0.6, 2.9),
            (-0.6, 3.2),
            (0.6, 3.2),
            (0.6, 2.9),
            (1.1, 2.9),
            (1.1, 2.6),
        ];
        for w in pts.windows(2) {
            let (a, b) = (v3(x, w[0].1, zc + w[0].0), v3(x, w[1].1, zc + w[1].0));
            tubes.tube(a, b, 0.025, 12, 1);
        }
        let t = k.mesh(&format!("neon{i}"), tubes, m.neon[i % 2]);
        k.place(t, Mat4::IDENTITY);
    }
}

/// Iron frames round the room doors with their leaves swung open into
/// the rooms, and closed doors with portholes along the bare walls.
fn doors(k: &mut Kit, m: &Mats) {
    let mut frame = MeshBuilder::new();
    let (w, h) = (DOOR.0 * 0.5, DOOR.1);
    frame.cuboid(v3(-0.06, 0.0, -w - 0.14), v3(0.04, h + 0.12, -w), 4.0);
    frame.cuboid(v3(-0.06, 0.0, w), v3(0.04, h + 0.12, w + 0.14), 4.0);
    frame.cuboid(v3(-0.06, h, -w), v3(0.04, h + 0.12, w), 4.0);
    let frame = k.mesh("door_frame", frame, m.iron);
    let mut leaf = MeshBuilder::new();
    leaf.cuboid(v3(0.0, 0.0, -0.03), v3(DOOR.0 - 0.05, h - 0.05, 0.03), 1.0);
    leaf.sphere(v3(DOOR.0 - 0.2, 1.05, 0.05), 0.035, 16, 8);
    leaf.sphere(v3(DOOR.0 - 0.2, 1.05, -0.05), 0.035, 16, 8);
    let leaf = k.mesh("door_leaf", leaf, m.wood);
    let mut port = MeshBuilder::new();
    for s in [1.0f32, -1.0] {
        let mut d = MeshBuilder::new();
        d.disc(v3(0.0, 0.0, 0.0), 0.22, 32, true);
        let turn = Mat4::rotation_x(s * FRAC_PI_2);
        port.append(&d, Mat4::translation(v3(0.85, 1.7, s * 0.035)) * turn);
    }
    let port = k.mesh("door_porthole", port, m.glass);
    for &(side, zc) in &ROOMS {
        // Local +x of the frame faces into the corridor.
        let yaw = if side < 0.0 { 0.0 } else { PI };
        k.put(frame, v3(side * HALF, 0.0, zc), yaw, 1.0);
        // Hinged at the opening's -z edge, swung into the room.
        let hinge = v3(side * (HALF + T), 0.0, zc - w);
        let open = if side < 0.0 { PI + 0.35 } else { -0.35 };
        k.put(leaf, hinge, open, 1.0);
        k.put(port, hinge, open, 1.0);
    }
    for &(side, zc) in &[(-1.0f32, -28.0f32), (1.0, -40.0), (-1.0, -88.0)] {
        let yaw = if side < 0.0 { 0.0 } else { PI };
        k.put(frame, v3(side * HALF, 0.0, zc), yaw, 1.0);
        // Closed: the leaf lies in the opening, face on to the corridor.
        let closed = if side < 0.0 { FRAC_PI_2 } else { -FRAC_PI_2 };
        let at = v3(side * (HALF - 0.03), 0.0, zc - side * w);
        k.put(leaf, at, closed, 1.0);
        k.put(port, at, closed, 1.0);
    }
}

/// Crates, drums, tables, shelves with bottles in the rooms; a few crate
/// stacks and drums along the corridor walls.
fn furniture(k: &mut Kit, m: &Mats) {
    let crates = [
        k.mesh("crate_big", props::crate_box(0.9), m.wood),
        k.mesh("crate_small", props::crate_box(0.6), m.wood),
    ];
    let drum = k.mesh("drum", props::barrel(32), m.drum);
    let table = k.mesh("table_set", props::table_and_chairs(), m.wood);
    let shelf = k.mesh("shelf", props::shelf(), m.iron);
    let mut bottle = props::bottles(9);
    bottle.positions.iter_mut().for_each(|p| p.y += 0.73);
    let bottles = k.mesh("bottles", bottle, m.glass);
    let mut rng = Rng::new(SEED ^ 0xf00d);
    for &(side, zc) in &ROOMS {
        let x = |d: f32| side * (HALF + T + d);
        k.put(
            table,
            v3(x(3.8), 0.0, zc + rng.range(-1.0, 1.0)),
            rng.range(-0.3, 0.3),
            1.0,
        );
        let sy = if side < 0.0 { FRAC_PI_2 } else { -FRAC_PI_2 };
        k.put(shelf, v3(x(6.7), 0.0, zc + 1.5), sy, 1.0);
        k.put(bottles, v3(x(6.7), 0.0, zc + 1.5), sy, 1.0);
        // Crate stacks in the corners away from the door.
        for corner in [-1.0f32, 1.0] {
            let base = v3(x(rng.range(5.0, 6.0)), 0.0, zc + corner * 3.8);
            let n = 2 + rng.below(3);
            for i in 0..n {
                let big = i < 2;
                let off = v3(rng.range(-0.5, 0.5), 0.0, rng.range(-0.3, 0.3));
                let y = if i < 2 { 0.0 } else { 0.9 };
                k.put(
                    crates[usize::from(!big)],
                    base + off * (i as f32) + v3(0.0, y, 0.0),
                    rng.range(-0.2, 0.2),
                    1.0,
                );
            }
            for _ in 0..2 {
                let p = v3(
                    x(rng.range(1.5, 3.0)),
                    0.0,
                    zc + corner * rng.range(2.5, 4.5),
                );
                k.put(drum, p, rng.range(0.0, TAU), 1.0);
            }
        }
    }
    // Along the corridor, at sconce positions away from the doors.
    let mut z = Z0 - 4.0;
    while z > Z1 + 4.0 {
        let side = if rng.unit() < 0.5 { -1.0 } else { 1.0 };
        if door_clearance(side, z) > 2.5 && rng.unit() < 0.45 {
            let p = v3(side * 1.3, 0.0, z);
            k.put(crates[0], p, rng.range(-0.2, 0.2), 1.0);
            if rng.unit() < 0.5 {
                k.put(crates[1], p + v3(0.0, 0.9, 0.0), rng.range(-0.4, 0.4), 1.0);
            }
            k.put(drum, p + v3(0.0, 0.0, -0.9), rng.range(0.0, TAU), 1.0);
        }
        z -= BAY;
    }
}

/// Puddles on the corridor and room floors (reflective, the mirror),
/// steam from a burst pipe, sparks from a broken sconce and dust in the
/// skylight's light: one particle system (one draw) each.
fn wet_floor_and_effects(k: &mut Kit, m: &Mats) {
    let mut pools = MeshBuilder::new();
    let mut rng = Rng::new(SEED ^ 0x9dd1);
    for i in 0..18 {
        let (x, z) = if i < 12 {
            (rng.range(-1.4, 1.4), rng.range(Z1 + 4.0, Z0 - 4.0))
        } else {
            let (side, zc) = ROOMS[i - 12];
            let d = rng.range(1.5, 5.5);
            (side * (HALF + T + d), zc + rng.range(-3.0, 3.0))
        };
        let s = rng.range(0.5, 1.3);
        let turn = Mat4::rotation_y(rng.range(0.0, PI));
        pools.append(
            &props::puddle(24, s * 1.7, s),
            Mat4::translation(v3(x, WET, z)) * turn,
        );
    }
    let pm = k.mesh("puddles", pools, m.water);
    k.place(pm, Mat4::IDENTITY);

    // Steam falls from a burst joint on the right, spreading.
    let steam = props::sprites(&mut rng, 24, |rng, i| {
        let t = i as f32 / 24.0;
        let z = -34.0 + rng.range(-0.5, 0.5) * (1.0 + t);
        (v3(1.5 - 1.2 * t, 3.7 - 2.2 * t, z), 0.4 + 1.6 * t)
    });
    let sparks = props::sprites(&mut rng, 30, |rng, _| {
        let (x, y) = (-HALF + 0.4 + rng.range(-0.3, 0.6), rng.range(0.2, 2.6));
        (v3(x, y, -62.0 + rng.range(-0.6, 0.6)), 0.14)
    });
    let dust = props::sprites(&mut rng, 60, |rng, _| {
        let (x, y) = (rng.range(-1.2, 1.4), rng.range(0.6, 3.8));
        (v3(x, y, rng.range(Z1 + 2.0, Z0 - 6.0)), 0.2)
    });
    for (name, b, mat) in [
        ("steam", steam, m.steam),
        ("sparks", sparks, m.sparks),
        ("dust", dust, m.dust),
    ] {
        let e = k.mesh(name, b, mat);
        k.place(e, Mat4::IDENTITY);
    }
}

/// The view model: gun and gloved hand in front of the first camera
/// key, low and to the right as a shooter holds them.
fn weapon(k: &mut Kit, m: &Mats) {
    let (e, t) = PATH[0];
    let (eye, target) = (v3(e[0], e[1], e[2]), v3(t[0], t[1], t[2]));
    let f = (target - eye).normalize();
    let r = f.cross(v3(0.0, 1.0, 0.0)).normalize();
    let u = r.cross(f);
    let view = Mat4::from_cols(
        r.extend(0.0),
        u.extend(0.0),
        (-f).extend(0.0),
        eye.extend(1.0),
    );
    let hold = view * Mat4::translation(v3(0.16, -0.19, -0.3)) * Mat4::rotation_y(0.06);
    let (metal, wood) = props::submachine_gun();
    let gm = k.mesh("gun_metal", metal, m.iron);
    let gw = k.mesh("gun_wood", wood, m.wood);
    let hand = k.mesh("glove", props::gloved_hand(), m.glove);
    k.place(gm, hold);
    k.place(gw, hold);
    // The left hand on the fore grip.
    k.place(hand, hold * Mat4::translation(v3(-0.01, -0.07, -0.16)));
}
