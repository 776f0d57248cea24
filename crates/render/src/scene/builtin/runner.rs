//! `runner`: a 3D endless runner (the class of Subway Surfers, Sonic Dash
//! and Temple Run). A three-lane rail track built of 24 m segments, each
//! with its side dressing (low-poly buildings of three kinds, walls, lamp
//! posts, trees), obstacles in the lanes (barriers, parked trains,
//! traffic cones), rows of coins, the runner mid-stride with a blob
//! shadow and dust behind, and low-poly hills on the horizon. The camera
//! follows behind and above the runner as it changes lane.
//!
//! Sizes from the class, not from any measurement: as far ahead as such a
//! game spawns its track (a dozen segments, about 250 m, the far plane
//! just past them); low-poly props of tens to a few hundred triangles,
//! each a draw of its own as prefabs are; a player character of about a
//! thousand triangles; coins of 12 sides; most props coloured from one
//! 64-texel palette as low-poly art is, the rest from textures of 128-256
//! texels, block-compressed; no shadow map (a blob under the runner).

use super::atlas::{self, PALETTE};
use super::kit::{self, Kit};
use super::noise::Rng;
use super::props::{self, Pose};
use super::shapes::MeshBuilder;
use super::texgen;
use crate::graph::Preset;
use crate::math::{Mat4, Vec2, Vec3};
use crate::scene::{AlphaMode, Light, Material, Scene};

const SEED: u32 = 0x2b17_90aa;
/// Segment length, segment count, lane centres and the track's half width.
const SEG: f32 = 24.0;
const SEGMENTS: u32 = 12;
const LANES: [f32; 3] = [-2.5, 0.0, 2.5];
const HALF: f32 = 3.95;
/// Where the runner is (middle lane).
const RUNNER_Z: f32 = -1.0;

/// Palette swatches.
const STEEL: u32 = 0;
const LEAF: u32 = 1;
const LEAF_LIGHT: u32 = 2;
const TRUNK: u32 = 3;
const GOLD: u32 = 4;
const SKIN: u32 = 5;
const HOODIE: u32 = 6;
const JEANS: u32 = 7;
const POST: u32 = 8;
const LAMP: u32 = 9;
const HILL: u32 = 10;
const HILL_FAR: u32 = 11;
const CONE: u32 = 12;
const TRAIN_NOSE: u32 = 13;
const COLOURS: [[f32; 3]; 14] = [
    [0.55, 0.55, 0.58],
    [0.16, 0.40, 0.16],
    [0.30, 0.55, 0.20],
    [0.40, 0.26, 0.14],
    [1.00, 0.80, 0.20],
    [0.85, 0.62, 0.45],
    [0.90, 0.30, 0.15],
    [0.20, 0.30, 0.60],
    [0.20, 0.22, 0.24],
    [1.00, 0.95, 0.70],
    [0.35, 0.55, 0.28],
    [0.45, 0.60, 0.55],
    [1.00, 0.45, 0.05],
    [0.80, 0.18, 0.12],
];

fn v3(x: f32, y: f32, z: f32) -> Vec3 {
    Vec3::new(x, y, z)
}

/// A builder's geometry in one palette swatch.
fn painted(mut b: MeshBuilder, swatch: u32) -> MeshBuilder {
    b.flat_uv(PALETTE.swatch(swatch));
    b
}

struct Mats {
    palette: usize,
    bed: usize,
    grass: usize,
    facades: [usize; 3],
    concrete: usize,
    stripes: usize,
    train: usize,
}

pub fn build() -> Scene {
    let mut k = Kit::new("runner");
    let palette = k.image_bc(atlas::palette(64, &COLOURS));
    let bed = k.image_bc(texgen::track_bed(256, SEED, 4));
    let grass = k.image_bc(texgen::grass(256, SEED + 1));
    let walls: [(u32, [f32; 3]); 3] = [
        (4, [0.75, 0.55, 0.40]),
        (4, [0.55, 0.65, 0.75]),
        (2, [0.85, 0.80, 0.65]),
    ];
    let facades =
        walls.map(|(cols, c)| k.image_bc(texgen::facade(256, SEED + 2 + cols, cols, 4, c)));
    let concrete = k.image_bc(texgen::pavement(256, SEED + 6, 4));
    let stripes = k.image_bc(texgen::stripes(
        128,
        SEED + 7,
        4,
        [0.9, 0.1, 0.1],
        [0.95, 0.95, 0.95],
    ));
    let train = k.image_bc(texgen::facade(256, SEED + 8, 4, 1, [0.85, 0.82, 0.75]));
    let dust = k.image_bc(texgen::puff(128, SEED + 9, [0.75, 0.70, 0.62]));
    let blob = k.image_bc(texgen::puff(64, SEED + 10, [0.0, 0.0, 0.0]));
    let m = Mats {
        palette: k.textured("palette", palette),
        bed: k.textured("track_bed", bed),
        grass: k.textured("grass", grass),
        facades: std::array::from_fn(|i| k.textured(&format!("facade{i}"), facades[i])),
        concrete: k.textured("concrete", concrete),
        stripes: k.textured("barrier_stripes", stripes),
        train: k.textured("train", train),
    };
    let m_dust = k.particle("dust", dust, [0.0; 3]);
    let m_blob = k.alpha("blob_shadow", blob, AlphaMode::Blend);
    let m_coin = k.material(Material {
        name: "coin".into(),
        texture: Some(palette),
        emissive: [0.25, 0.18, 0.02],
        ..Material::default()
    });

    track(&mut k, &m);
    dressing(&mut k, &m);
    obstacles(&mut k, &m, m_coin);
    runner(&mut k, m.palette, m_blob, m_dust);
    horizon(&mut k, m.palette);

    k.cameras(vec![
        kit::look(
            v3(0.5, 3.3, RUNNER_Z + 6.5),
            v3(0.2, 1.2, -14.0),
            62.0,
            0.3,
            260.0,
        ),
        kit::look(
            v3(0.0, 3.1, RUNNER_Z + 5.2),
            v3(0.0, 1.1, -14.0),
            62.0,
            0.3,
            260.0,
        ),
        kit::look(
            v3(-0.4, 3.0, RUNNER_Z + 4.2),
            v3(-0.2, 1.1, -15.0),
            62.0,
            0.3,
            260.0,
        ),
    ]);
    k.scene.light = Light {
        direction: v3(0.35, -0.8, -0.45).normalize(),
        color: [1.0, 0.96, 0.88],
        ambient: 0.4,
    };
    k.mobile_frame(Preset::MobileForward);
    k.scene.sky = [0.55, 0.78, 0.98];
    k.finish()
}

/// Start of segment `n` (segments run towards -z from z = SEG).
fn seg_z(n: u32) -> f32 {
    SEG - n as f32 * SEG
}

/// The track: one segment's bed, rails and verges, placed once per
/// segment.
fn track(k: &mut Kit, m: &Mats) {
    let mut bed = MeshBuilder::new();
    for x in LANES {
        bed.grid(
            v3(x - 1.4, 0.05, 0.0),
            v3(2.8, 0.0, 0.0),
            v3(0.0, 0.0, -SEG),
            1,
            4,
            Vec2::new(1.0, SEG / 2.4),
        );
    }
    let mut rails = MeshBuilder::new();
    for x in LANES {
        for dx in [-0.72, 0.72] {
            rails.cuboid(
                v3(x + dx - 0.04, 0.05, -SEG),
                v3(x + dx + 0.04, 0.17, 0.0),
                1.0,
            );
        }
    }
    // Low concrete kerbs between the bed and the verges.
    for sx in [-1.0f32, 1.0] {
        let x = sx * HALF;
        rails.cuboid(v3(x - 0.15, 0.0, -SEG), v3(x + 0.15, 0.35, 0.0), 1.0);
    }
    let mut verge = MeshBuilder::new();
    for (x0, x1) in [(-16.0, -HALF), (HALF, 16.0)] {
        verge.grid(
            v3(x0, 0.0, 0.0),
            v3(x1 - x0, 0.0, 0.0),
            v3(0.0, 0.0, -SEG),
            2,
            4,
            Vec2::new((x1 - x0) / 4.0, SEG / 4.0),
        );
    }
    let bed = k.mesh("track_bed", bed, m.bed);
    let rails = k.mesh("rails", painted(rails, STEEL), m.palette);
    let verge = k.mesh("verges", verge, m.grass);
    for n in 0..SEGMENTS {
        for mesh in [bed, rails, verge] {
            k.place(mesh, Mat4::translation(v3(0.0, 0.0, seg_z(n))));
        }
    }
}

/// A low-poly building `w` wide (along z), `d` deep, `floors` high, its
/// street face at `x = 0` facing +x: (walls, roof).
fn building(w: f32, d: f32, floors: u32) -> (MeshBuilder, MeshBuilder) {
    let h = floors as f32 * 3.5;
    let (ut, vt) = (1.0 / 12.0, 1.0 / 14.0);
    let mut walls = MeshBuilder::new();
    let faces = [
        (v3(0.0, 0.0, 0.0), v3(0.0, 0.0, -w)),
        (v3(0.0, 0.0, -w), v3(-d, 0.0, 0.0)),
        (v3(-d, 0.0, -w), v3(0.0, 0.0, w)),
        (v3(-d, 0.0, 0.0), v3(d, 0.0, 0.0)),
    ];
    for (o, du) in faces {
        let len = du.length();
        walls.grid(o, du, v3(0.0, h, 0.0), 1, 1, Vec2::new(len * ut, h * vt));
    }
    let mut roof = MeshBuilder::new();
    roof.quad(
        v3(0.0, h, 0.0),
        v3(0.0, 0.0, -w),
        v3(-d, 0.0, 0.0),
        Vec2::new(w / 6.0, d / 6.0),
    );
    roof.cuboid(v3(-d, h, -w), v3(0.0, h + 0.6, -w + 0.3), 0.5);
    roof.cuboid(
        v3(-d * 0.6, h, -w * 0.6),
        v3(-d * 0.3, h + 1.5, -w * 0.3),
        0.5,
    );
    (walls, roof)
}

/// Each segment's side dressing: buildings (three kinds), lamp posts and
/// trees, each a draw.
fn dressing(k: &mut Kit, m: &Mats) {
    let mut rng = Rng::new(SEED ^ 0xd7e5);
    let (trunk, crown) = props::pine(6.0, 6, 3);
    let trunk = k.mesh("pine_trunk", painted(trunk, TRUNK), m.palette);
    let crown = k.mesh("pine_crown", painted(crown, LEAF), m.palette);
    let mut bush = MeshBuilder::new();
    bush.sphere(v3(0.0, 0.6, 0.0), 1.0, 8, 5);
    let bush = k.mesh("bush", painted(bush, LEAF_LIGHT), m.palette);
    let mut post = MeshBuilder::new();
    post.cylinder(v3(0.0, 0.0, 0.0), 0.08, 5.5, 6, 1);
    post.cuboid(v3(-0.9, 5.4, -0.12), v3(0.05, 5.55, 0.12), 1.0);
    let post = k.mesh("lamp_post", painted(post, POST), m.palette);
    let mut head = MeshBuilder::new();
    head.cuboid(v3(-1.0, 5.25, -0.18), v3(-0.6, 5.4, 0.18), 1.0);
    let head = k.mesh("lamp_head", painted(head, LAMP), m.palette);
    let kinds: Vec<[usize; 2]> = (0..3)
        .map(|i| {
            let (w, d, f) = [(14.0, 10.0, 3), (10.0, 9.0, 5), (18.0, 12.0, 2)][i];
            let (walls, roof) = building(w, d, f);
            [
                k.mesh(&format!("building{i}"), walls, m.facades[i]),
                k.mesh(&format!("building{i}_roof"), roof, m.concrete),
            ]
        })
        .collect();
    for n in 0..SEGMENTS {
        let z0 = seg_z(n);
        for sx in [-1.0f32, 1.0] {
            // Buildings stand back from the track, facing it.
            let kind = rng.below(3) as usize;
            let x = sx * rng.range(9.0, 11.0);
            let yaw = if sx < 0.0 { 0.0 } else { std::f32::consts::PI };
            let z = if sx < 0.0 { z0 - 2.0 } else { z0 - 20.0 };
            for mesh in kinds[kind] {
                k.put(mesh, v3(x, 0.0, z), yaw, 1.0);
            }
            k.put(
                post,
                v3(sx * 5.0, 0.0, z0 - 6.0),
                if sx < 0.0 { std::f32::consts::PI } else { 0.0 },
                1.0,
            );
            k.put(
                head,
                v3(sx * 5.0, 0.0, z0 - 6.0),
                if sx < 0.0 { std::f32::consts::PI } else { 0.0 },
                1.0,
            );
            for _ in 0..2 {
                let p = v3(sx * rng.range(6.0, 7.5), 0.0, z0 - rng.range(0.0, SEG));
                let s = rng.range(0.8, 1.2);
                if rng.unit() < 0.6 {
                    k.put(trunk, p, rng.range(0.0, 3.0), s);
                    k.put(crown, p, rng.range(0.0, 3.0), s);
                } else {
                    k.put(bush, p, 0.0, s);
                }
            }
        }
    }
}

/// Barriers, parked trains and cones in the lanes, and rows of coins in
/// the free ones, from the second segment on.
fn obstacles(k: &mut Kit, m: &Mats, m_coin: usize) {
    let mut board = MeshBuilder::new();
    board.quad(
        v3(-1.1, 0.6, 0.0),
        v3(2.2, 0.0, 0.0),
        v3(0.0, 0.5, 0.0),
        Vec2::new(2.0, 0.5),
    );
    board.quad(
        v3(1.1, 0.6, -0.06),
        v3(-2.2, 0.0, 0.0),
        v3(0.0, 0.5, 0.0),
        Vec2::new(2.0, 0.5),
    );
    let board = k.mesh("barrier_board", board, m.stripes);
    let mut legs = MeshBuilder::new();
    for x in [-1.0, 1.0] {
        legs.cuboid(v3(x - 0.05, 0.0, -0.2), v3(x + 0.05, 1.15, 0.1), 1.0);
        legs.cuboid(v3(x - 0.2, 0.0, -0.3), v3(x + 0.2, 0.08, 0.2), 1.0);
    }
    let legs = k.mesh("barrier_legs", painted(legs, STEEL), m.palette);
    // A carriage 2.4 wide, 3.6 tall, 16 long, windows along its sides.
    let mut car = MeshBuilder::new();
    car.grid(
        v3(1.2, 0.4, 8.0),
        v3(0.0, 0.0, -16.0),
        v3(0.0, 3.2, 0.0),
        8,
        1,
        Vec2::new(4.0, 1.0),
    );
    car.grid(
        v3(-1.2, 0.4, -8.0),
        v3(0.0, 0.0, 16.0),
        v3(0.0, 3.2, 0.0),
        8,
        1,
        Vec2::new(4.0, 1.0),
    );
    let car_sides = k.mesh("train_sides", car, m.train);
    let mut shell = MeshBuilder::new();
    shell.cuboid(v3(-1.2, 3.6, -8.0), v3(1.2, 3.8, 8.0), 1.0);
    shell.cuboid(v3(-1.15, 0.4, 7.9), v3(1.15, 3.6, 8.1), 1.0);
    shell.cuboid(v3(-1.15, 0.4, -8.1), v3(1.15, 3.6, -7.9), 1.0);
    // Bogies under both ends.
    for z in [-5.5, 5.5] {
        shell.cuboid(v3(-1.0, 0.0, z - 1.2), v3(1.0, 0.4, z + 1.2), 1.0);
    }
    let shell = k.mesh("train_shell", painted(shell, TRAIN_NOSE), m.palette);
    let mut cone = MeshBuilder::new();
    cone.cone(v3(0.0, 0.0, 0.0), 0.25, 0.03, 0.75, 8, 2);
    cone.cuboid(v3(-0.3, 0.0, -0.3), v3(0.3, 0.05, 0.3), 1.0);
    let cone = k.mesh("traffic_cone", painted(cone, CONE), m.palette);
    let coin = props::coin(0.35, 12);
    let mut row = MeshBuilder::new();
    for i in 0..6 {
        row.append(&coin, Mat4::translation(v3(0.0, 1.0, -1.6 * i as f32)));
    }
    let coins = k.mesh("coin_row", painted(row, GOLD), m_coin);

    let mut rng = Rng::new(SEED ^ 0x0b57);
    for n in 1..SEGMENTS {
        let z0 = seg_z(n);
        let blocked = rng.below(3) as usize;
        let x = LANES[blocked];
        match rng.below(3) {
            0 => {
                k.put(board, v3(x, 0.0, z0 - 10.0), 0.0, 1.0);
                k.put(legs, v3(x, 0.0, z0 - 10.0), 0.0, 1.0);
            }
            1 => {
                k.put(car_sides, v3(x, 0.0, z0 - 12.0), 0.0, 1.0);
                k.put(shell, v3(x, 0.0, z0 - 12.0), 0.0, 1.0);
            }
            _ => {
                for dz in [0.0, 1.2, 2.4] {
                    k.put(
                        cone,
                        v3(x + rng.range(-0.5, 0.5), 0.05, z0 - 8.0 - dz),
                        0.0,
                        1.0,
                    );
                }
            }
        }
        let free = (blocked + 1 + rng.below(2) as usize) % 3;
        k.put(coins, v3(LANES[free], 0.0, z0 - 4.0), 0.0, 1.0);
    }
    // The trains the runner is dodging, one on each side of it.
    for x in [LANES[0], LANES[2]] {
        k.put(car_sides, v3(x, 0.0, RUNNER_Z - 14.0), 0.0, 1.0);
        k.put(shell, v3(x, 0.0, RUNNER_Z - 14.0), 0.0, 1.0);
    }
    k.put(coins, v3(0.0, 0.0, RUNNER_Z - 5.0), 0.0, 1.0);
}

/// The runner mid-stride in the middle lane, its blob shadow and a trail
/// of dust.
fn runner(k: &mut Kit, m_palette: usize, m_blob: usize, m_dust: usize) {
    let (skin, cloth) = props::humanoid(16, Pose::RUNNING);
    let mut body = painted(skin, SKIN);
    body.append(&painted(cloth, HOODIE), Mat4::IDENTITY);
    let mut cap = MeshBuilder::new();
    cap.sphere(v3(0.0, 1.66, 0.0), 0.14, 12, 6);
    cap.cuboid(v3(-0.1, 1.68, 0.08), v3(0.1, 1.7, 0.26), 4.0);
    let mut legs = MeshBuilder::new();
    legs.cuboid(v3(-0.2, 0.8, -0.12), v3(0.2, 1.0, 0.12), 4.0);
    body.append(&painted(cap, JEANS), Mat4::rotation_x(Pose::RUNNING.lean));
    body.append(&painted(legs, JEANS), Mat4::rotation_x(Pose::RUNNING.lean));
    let mesh = k.mesh("runner", body, m_palette);
    // Facing away from the camera (-z).
    k.put(mesh, v3(0.0, 0.15, RUNNER_Z), std::f32::consts::PI, 1.0);
    let mut blob = MeshBuilder::new();
    blob.quad(
        v3(-0.6, 0.0, 0.6),
        v3(1.2, 0.0, 0.0),
        v3(0.0, 0.0, -1.2),
        Vec2::new(1.0, 1.0),
    );
    let blob = k.mesh("blob_shadow", blob, m_blob);
    k.put(blob, v3(0.0, 0.2, RUNNER_Z), 0.0, 1.0);
    let mut dust = MeshBuilder::new();
    let mut rng = Rng::new(SEED ^ 0xd057);
    for i in 0..16 {
        let z = RUNNER_Z + 0.3 + i as f32 * 0.25;
        let s = 0.3 + 0.06 * i as f32;
        let c = v3(rng.range(-0.4, 0.4), 0.2 + rng.range(0.0, 0.3), z);
        dust.cross_cards(c - v3(0.0, s * 0.5, 0.0), s, s, rng.range(0.0, 3.0));
    }
    let dust = k.mesh("dust", dust, m_dust);
    k.place(dust, Mat4::IDENTITY);
}

/// Low-poly hills along the horizon on both sides and ahead.
fn horizon(k: &mut Kit, m: usize) {
    let mut near = MeshBuilder::new();
    let mut far = MeshBuilder::new();
    let mut rng = Rng::new(SEED ^ 0x4111);
    for i in 0..24 {
        let z = 20.0 - i as f32 * 14.0;
        for sx in [-1.0f32, 1.0] {
            let r = rng.range(18.0, 30.0);
            near.cone(
                v3(sx * rng.range(40.0, 55.0), 0.0, z),
                r,
                0.0,
                rng.range(12.0, 24.0),
                7,
                1,
            );
        }
    }
    for i in 0..9 {
        let x = -100.0 + i as f32 * 25.0;
        far.cone(v3(x, -2.0, -240.0), 30.0, 0.0, rng.range(25.0, 45.0), 7, 1);
    }
    let near = k.mesh("hills", painted(near, HILL), m);
    let far = k.mesh("far_hills", painted(far, HILL_FAR), m);
    k.place(near, Mat4::IDENTITY);
    k.place(far, Mat4::IDENTITY);
}
