//! `city`: a downtown crossing at dusk. An asphalt main street and a cross
//! street with sidewalks and curbs, rows of buildings with window facades
//! (sills and ledges as geometry, some windows lit and emissive), street
//! lamps, parked and driving cars, street trees (alpha-masked crowns),
//! reflective puddles (the mirror at road height), glass bus shelters and
//! steam rising from manholes (blended).

use super::kit::Kit;
use super::noise::{hash01, Rng};
use super::props;
use super::shapes::MeshBuilder;
use super::texgen::{self, WINDOW};
use crate::math::{Mat4, Vec2, Vec3};
use crate::scene::{AlphaMode, Light, Material, Mirror, Scene};
use std::f32::consts::{FRAC_PI_2, PI};

const SEED: u32 = 0xc17e_5eed;
/// Main street along z: road half width, sidewalk outer edge.
const ROAD: f32 = 6.0;
const WALK: f32 = 10.0;
/// The cross street's centre line (along x).
const CROSS: f32 = -60.0;
/// Length of the main street (z from +Z_END to -Z_END) and cross street.
const Z_END: f32 = 200.0;
const X_END: f32 = 160.0;
/// Window cell of the facades: metres per window across and per floor.
const CELL: (f32, f32) = (3.0, 3.5);
/// Puddles lie just above the road; the mirror is their surface.
const PUDDLE_Y: f32 = 0.02;

fn v3(x: f32, y: f32, z: f32) -> Vec3 {
    Vec3::new(x, y, z)
}

struct Mats {
    facades: [usize; 4],
    lit: usize,
    roof: usize,
}

pub fn build() -> Scene {
    let mut k = Kit::new("city");
    let asphalt = k.image(texgen::asphalt(2048, SEED, 4));
    let pave = k.image(texgen::pavement(1024, SEED + 1, 4));
    let walls: [(u32, u32, [f32; 3]); 4] = [
        (4, 4, [0.62, 0.38, 0.30]),
        (4, 4, [0.75, 0.70, 0.60]),
        (6, 4, [0.45, 0.47, 0.50]),
        (8, 4, [0.30, 0.38, 0.45]),
    ];
    let facade_imgs: Vec<usize> = walls
        .iter()
        .enumerate()
        .map(|(i, &(c, r, w))| {
            let size = if i == 0 { 2048 } else { 1024 };
            k.image(texgen::facade(size, SEED + 10 + i as u32, c, r, w))
        })
        .collect();
    let lit = k.image(texgen::lit_window(256, SEED + 2));
    let roof = k.image(texgen::plaster(512, SEED + 3, [0.45, 0.44, 0.42]));
    let paint = k.image(texgen::painted(256, SEED + 4, [0.9, 0.9, 0.9]));
    let bark = k.image(texgen::bark(512, SEED + 5));
    let leaves = k.image(texgen::leaves(1024, SEED + 6, [0.20, 0.36, 0.12]));
    let glass = k.image(texgen::glass(256, SEED + 7, [0.70, 0.80, 0.85]));
    let steam = k.image(texgen::puff(256, SEED + 8, [0.85, 0.85, 0.88]));
    let water = k.image(texgen::water(512, SEED + 9));

    let m_road = k.textured("asphalt", asphalt);
    let m_walk = k.textured("pavement", pave);
    let mats = Mats {
        facades: std::array::from_fn(|i| k.textured(&format!("facade{i}"), facade_imgs[i])),
        lit: k.material(Material {
            name: "lit_window".into(),
            texture: Some(lit),
            emissive: [0.9, 0.65, 0.3],
            ..Material::default()
        }),
        roof: k.textured("roof", roof),
    };
    let m_puddle = k.material(Material {
        name: "puddle".into(),
        texture: Some(water),
        reflective: true,
        base_color: [0.4, 0.45, 0.5, 1.0],
        ..Material::default()
    });

    streets(&mut k, m_road, m_walk, mats.roof);
    puddles(&mut k, m_puddle);
    buildings(&mut k, &mats);
    cars(&mut k, paint);
    lamps(&mut k, paint);
    trees(&mut k, bark, leaves);
    shelters_and_steam(&mut k, glass, steam, paint);

    k.camera_path(
        &[
            (v3(0.0, 1.7, 40.0), v3(0.0, 6.0, -40.0)),
            (v3(0.0, 1.7, 0.0), v3(-3.0, 6.0, -80.0)),
            (v3(0.0, 1.7, -40.0), v3(2.0, 8.0, -120.0)),
            (v3(4.0, 1.7, CROSS), v3(100.0, 8.0, CROSS)),
        ],
        600.0,
    );
    k.scene.light = Light {
        direction: v3(0.55, -0.45, -0.70).normalize(),
        color: [1.0, 0.78, 0.55],
        ambient: 0.3,
    };
    k.scene.mirror = Some(Mirror { height: PUDDLE_Y });
    k.scene.sky = [0.55, 0.50, 0.62];
    k.finish()
}

/// Roads (textured across: u spans the road width), sidewalk slabs with
/// curbs, and a ground plane under the blocks.
fn streets(k: &mut Kit, m_road: usize, m_walk: usize, m_ground: usize) {
    let mut road = MeshBuilder::new();
    let w = 2.0 * ROAD;
    // Main street: u across (x), v along (-z), one texture repeat per 24 m.
    road.grid(
        v3(-ROAD, 0.0, Z_END),
        v3(w, 0.0, 0.0),
        v3(0.0, 0.0, -2.0 * Z_END),
        24,
        400,
        Vec2::new(1.0, 2.0 * Z_END / 24.0),
    );
    // Cross street, both arms, up to the main street's edges.
    for (x0, x1) in [(ROAD, X_END), (-X_END, -ROAD)] {
        let len = x1 - x0;
        let mut arm = MeshBuilder::new();
        arm.grid(
            v3(x0, 0.0, CROSS - ROAD),
            v3(0.0, 0.0, w),
            v3(len, 0.0, 0.0),
            24,
            (len / 1.0) as u32,
            Vec2::new(1.0, len / 24.0),
        );
        road.append(&arm, Mat4::IDENTITY);
    }
    let r = k.mesh("roads", road, m_road);
    k.place(r, Mat4::IDENTITY);

    let mut walk = MeshBuilder::new();
    let curb = 0.15;
    let slab = |b: &mut MeshBuilder, lo: Vec3, hi: Vec3| {
        let mut s = MeshBuilder::new();
        let (nx, nz) = (
            ((hi.x - lo.x) / 2.0).ceil() as u32,
            ((hi.z - lo.z) / 2.0).ceil() as u32,
        );
        s.grid(
            v3(lo.x, curb, hi.z),
            v3(hi.x - lo.x, 0.0, 0.0),
            v3(0.0, 0.0, lo.z - hi.z),
            nx,
            nz,
            Vec2::new((hi.x - lo.x) / 8.0, (hi.z - lo.z) / 8.0),
        );
        s.cuboid(v3(lo.x, 0.0, lo.z), v3(hi.x, curb - 0.01, hi.z), 0.5);
        b.append(&s, Mat4::IDENTITY);
    };
    let (cn, cs) = (CROSS - ROAD, CROSS + ROAD);
    for sx in [1.0f32, -1.0] {
        let (a, b) = (sx * ROAD, sx * WALK);
        let (x0, x1) = (a.min(b), a.max(b));
        slab(&mut walk, v3(x0, 0.0, cs + 4.0), v3(x1, 0.0, Z_END));
        slab(&mut walk, v3(x0, 0.0, -Z_END), v3(x1, 0.0, cn - 4.0));
        let (c0, c1) = if sx > 0.0 {
            (ROAD, X_END)
        } else {
            (-X_END, -ROAD)
        };
        slab(&mut walk, v3(c0, 0.0, cs), v3(c1, 0.0, cs + 4.0));
        slab(&mut walk, v3(c0, 0.0, cn - 4.0), v3(c1, 0.0, cn));
    }
    let wm = k.mesh("sidewalks", walk, m_walk);
    k.place(wm, Mat4::IDENTITY);

    let mut ground = MeshBuilder::new();
    ground.quad(
        v3(-X_END, -0.05, Z_END),
        v3(2.0 * X_END, 0.0, 0.0),
        v3(0.0, 0.0, -2.0 * Z_END),
        Vec2::new(40.0, 40.0),
    );
    let g = k.mesh("ground", ground, m_ground);
    k.place(g, Mat4::IDENTITY);
}

fn puddles(k: &mut Kit, m: usize) {
    let mut b = MeshBuilder::new();
    let mut rng = Rng::new(SEED ^ 0x9dd1e);
    for i in 0..16 {
        let (x, z) = if i < 11 {
            (
                rng.range(-ROAD + 1.0, ROAD - 1.0),
                rng.range(-Z_END * 0.5, 45.0),
            )
        } else {
            (rng.range(15.0, 100.0), CROSS + rng.range(-4.0, 4.0))
        };
        let mut p = MeshBuilder::new();
        p.disc(v3(0.0, 0.0, 0.0), 1.0, 20, true);
        let s = rng.range(0.8, 2.2);
        // Squash one axis for an oval; normals stay +y.
        for q in &mut p.positions {
            q.x *= s * 1.6;
            q.z *= s;
        }
        b.append(
            &p,
            Mat4::translation(v3(x, PUDDLE_Y, z)) * Mat4::rotation_y(rng.range(0.0, PI)),
        );
    }
    let pm = k.mesh("puddles", b, m);
    k.place(pm, Mat4::IDENTITY);
}

/// Buildings along both streets. Each is a box whose street facade has
/// window sills and floor ledges as geometry and lit panes on a quarter of
/// its windows; built in local space with the facade on `z = 0` facing +z,
/// then turned to face its street.
fn buildings(k: &mut Kit, m: &Mats) {
    let mut rng = Rng::new(SEED ^ 0xb1d9);
    // (start, end along the street, facade line, yaw, along sign)
    let mut rows: Vec<(f32, f32, Vec3, Vec3, f32)> = Vec::new();
    for sx in [1.0f32, -1.0] {
        // Main street blocks: facade at x = ±WALK facing the road.
        let yaw = -sx * FRAC_PI_2;
        rows.push((
            CROSS + ROAD + 4.0,
            Z_END - 10.0,
            v3(sx * WALK, 0.0, 0.0),
            v3(0.0, 0.0, 1.0),
            yaw,
        ));
        rows.push((
            -Z_END + 10.0,
            CROSS - ROAD - 4.0,
            v3(sx * WALK, 0.0, 0.0),
            v3(0.0, 0.0, 1.0),
            yaw,
        ));
    }
    for (sz, yaw) in [(1.0f32, PI), (-1.0, 0.0)] {
        let line = v3(0.0, 0.0, CROSS + sz * (ROAD + 4.0));
        rows.push((WALK + 16.0, X_END - 10.0, line, v3(1.0, 0.0, 0.0), yaw));
        rows.push((-X_END + 10.0, -WALK - 16.0, line, v3(1.0, 0.0, 0.0), yaw));
    }
    let mut n = 0;
    for (start, end, line, along, yaw) in rows {
        let mut s = start;
        while s < end - 8.0 {
            let cols = 3 + rng.below(4);
            let width = (cols as f32 * CELL.0).min(end - s);
            let floors = 4 + rng.below(10);
            let variant = rng.below(4) as usize;
            let b = building(width, floors, 16.0, &mut rng);
            let meshes = [
                k.mesh(&format!("building{n}"), b.0, m.facades[variant]),
                k.mesh(&format!("building{n}_lit"), b.1, m.lit),
                k.mesh(&format!("building{n}_roof"), b.2, m.roof),
            ];
            let centre = line + along * (s + width * 0.5);
            for mesh in meshes {
                k.put(mesh, centre, yaw, 1.0);
            }
            s += width + 0.3;
            n += 1;
        }
    }
}

/// One building centred on x = 0, facade at z = 0 facing +z, extending to
/// z = -depth: (walls with sills and ledges, lit panes, roof).
fn building(
    width: f32,
    floors: u32,
    depth: f32,
    rng: &mut Rng,
) -> (MeshBuilder, MeshBuilder, MeshBuilder) {
    let h = floors as f32 * CELL.1 + 1.0;
    let (x0, x1) = (-width * 0.5, width * 0.5);
    let cols = (width / CELL.0).round().max(1.0) as u32;
    let (ut, vt) = (1.0 / (4.0 * CELL.0), 1.0 / (4.0 * CELL.1));
    let mut walls = MeshBuilder::new();
    // Front and back facades and side walls, one grid cell per window so
    // the facade's vertices follow the windows.
    walls.grid(
        v3(x0, 0.0, 0.0),
        v3(width, 0.0, 0.0),
        v3(0.0, h, 0.0),
        cols,
        floors,
        Vec2::new(width * ut, h * vt),
    );
    walls.grid(
        v3(x1, 0.0, -depth),
        v3(-width, 0.0, 0.0),
        v3(0.0, h, 0.0),
        cols,
        floors,
        Vec2::new(width * ut, h * vt),
    );
    walls.grid(
        v3(x1, 0.0, 0.0),
        v3(0.0, 0.0, -depth),
        v3(0.0, h, 0.0),
        5,
        floors,
        Vec2::new(depth * ut, h * vt),
    );
    walls.grid(
        v3(x0, 0.0, -depth),
        v3(0.0, 0.0, depth),
        v3(0.0, h, 0.0),
        5,
        floors,
        Vec2::new(depth * ut, h * vt),
    );
    let mut lit = MeshBuilder::new();
    let seed = rng.below(1 << 20);
    for f in 0..floors {
        let y = f as f32 * CELL.1;
        // A ledge along each floor and a sill under each window.
        walls.cuboid(
            v3(x0, y + CELL.1 - 0.12, -0.01),
            v3(x1, y + CELL.1, 0.22),
            0.5,
        );
        for c in 0..cols {
            let x = x0 + c as f32 * CELL.0;
            walls.cuboid(
                v3(x + 0.15 * CELL.0, y + 0.14 * CELL.1, 0.0),
                v3(x + 0.85 * CELL.0, y + 0.19 * CELL.1, 0.12),
                0.5,
            );
            if hash01(c, f, seed) < 0.27 {
                lit.quad(
                    v3(x + WINDOW.0 * CELL.0, y + WINDOW.2 * CELL.1, 0.02),
                    v3((WINDOW.1 - WINDOW.0) * CELL.0, 0.0, 0.0),
                    v3(0.0, (WINDOW.3 - WINDOW.2) * CELL.1, 0.0),
                    Vec2::new(1.0, 1.0),
                );
            }
        }
    }
    if lit.indices.is_empty() {
        lit.quad(
            v3(x0 + 0.54, 0.77, 0.02),
            v3(1.92, 0.0, 0.0),
            v3(0.0, 1.96, 0.0),
            Vec2::new(1.0, 1.0),
        );
    }
    let mut roof = MeshBuilder::new();
    roof.grid(
        v3(x0, h, 0.0),
        v3(width, 0.0, 0.0),
        v3(0.0, 0.0, -depth),
        4,
        4,
        Vec2::new(width / 8.0, depth / 8.0),
    );
    // A parapet and a rooftop unit.
    roof.cuboid(v3(x0, h, -0.3), v3(x1, h + 0.8, 0.0), 0.5);
    roof.cuboid(
        v3(x0 + 1.0, h, -depth * 0.6),
        v3(x0 + 4.0, h + 2.0, -depth * 0.3),
        0.5,
    );
    (walls, lit, roof)
}

fn cars(k: &mut Kit, paint: usize) {
    let colours = [
        [0.7, 0.08, 0.06],
        [0.1, 0.2, 0.55],
        [0.85, 0.85, 0.82],
        [0.12, 0.12, 0.13],
        [0.85, 0.65, 0.1],
    ];
    let bodies: Vec<usize> = colours
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let m = k.material(Material {
                name: format!("car_paint{i}"),
                texture: Some(paint),
                base_color: [c[0], c[1], c[2], 1.0],
                ..Material::default()
            });
            k.mesh(&format!("car_body{i}"), props::car_body(16), m)
        })
        .collect();
    let tyre = k.material(Material {
        name: "tyre".into(),
        base_color: [0.05, 0.05, 0.05, 1.0],
        ..Material::default()
    });
    let wheels = k.mesh("wheels", props::wheels(20), tyre);
    let mut rng = Rng::new(SEED ^ 0xca5);
    let put = |k: &mut Kit, pos: Vec3, yaw: f32, rng: &mut Rng| {
        let body = bodies[rng.below(bodies.len() as u32) as usize];
        k.put(body, pos, yaw, 1.0);
        k.put(wheels, pos, yaw, 1.0);
    };
    // Parked along the curbs of the main street, a few driving in the lanes.
    let mut z = Z_END - 20.0;
    while z > -Z_END + 20.0 {
        if (z - CROSS).abs() > 14.0 {
            for sx in [1.0f32, -1.0] {
                if rng.unit() < 0.7 {
                    put(
                        k,
                        v3(sx * (ROAD - 1.2), 0.0, z + rng.range(-0.5, 0.5)),
                        FRAC_PI_2,
                        &mut rng,
                    );
                }
            }
            // Driving cars, but none right where the camera path starts.
            if rng.unit() < 0.25 && z < 25.0 {
                let sx = if rng.unit() < 0.5 { 1.0 } else { -1.0 };
                put(
                    k,
                    v3(sx * 2.4, 0.0, z),
                    FRAC_PI_2 + if sx > 0.0 { PI } else { 0.0 },
                    &mut rng,
                );
            }
        }
        z -= 5.6;
    }
    let mut x = 16.0;
    while x < X_END - 10.0 {
        for (sx, sz) in [(1.0f32, 1.0f32), (1.0, -1.0), (-1.0, 1.0), (-1.0, -1.0)] {
            if rng.unit() < 0.6 {
                put(k, v3(sx * x, 0.0, CROSS + sz * (ROAD - 1.2)), 0.0, &mut rng);
            }
        }
        x += 5.6;
    }
}

/// Street lamps on both sidewalks: pole, arm, head and an emissive bulb.
fn lamps(k: &mut Kit, paint: usize) {
    let metal = k.material(Material {
        name: "lamp_metal".into(),
        texture: Some(paint),
        base_color: [0.18, 0.2, 0.2, 1.0],
        ..Material::default()
    });
    let bulb_m = k.material(Material {
        name: "lamp_bulb".into(),
        base_color: [1.0, 0.9, 0.7, 1.0],
        emissive: [2.0, 1.6, 1.0],
        ..Material::default()
    });
    let mut pole = MeshBuilder::new();
    pole.cone(v3(0.0, 0.0, 0.0), 0.16, 0.12, 0.6, 16, 2);
    pole.cylinder(v3(0.0, 0.6, 0.0), 0.08, 6.0, 16, 8);
    pole.cuboid(v3(-0.05, 6.3, -0.05), v3(1.8, 6.4, 0.05), 1.0);
    pole.cone(v3(1.6, 6.0, 0.0), 0.35, 0.1, 0.4, 16, 2);
    let pole = k.mesh("lamp_post", pole, metal);
    let mut bulb = MeshBuilder::new();
    bulb.sphere(v3(1.6, 6.0, 0.0), 0.18, 16, 10);
    let bulb = k.mesh("lamp_bulb", bulb, bulb_m);
    let mut z = Z_END - 10.0;
    while z > -Z_END {
        if (z - CROSS).abs() > 12.0 {
            for sx in [1.0f32, -1.0] {
                // The arm reaches over the road.
                let yaw = if sx > 0.0 { PI } else { 0.0 };
                let p = v3(sx * (ROAD + 0.6), 0.15, z);
                k.put(pole, p, yaw, 1.0);
                k.put(bulb, p, yaw, 1.0);
            }
        }
        z -= 18.0;
    }
    // Along the cross street, arms reaching over it.
    let mut x = 20.0;
    while x < X_END {
        for sx in [1.0f32, -1.0] {
            for (sz, yaw) in [(1.0f32, FRAC_PI_2), (-1.0, -FRAC_PI_2)] {
                let p = v3(sx * x, 0.15, CROSS + sz * (ROAD + 0.6));
                k.put(pole, p, yaw, 1.0);
                k.put(bulb, p, yaw, 1.0);
            }
        }
        x += 18.0;
    }
}

fn trees(k: &mut Kit, bark: usize, leaves: usize) {
    let m_bark = k.textured("bark", bark);
    let m_leaves = k.alpha("street_leaves", leaves, AlphaMode::Mask);
    let mut trunk = MeshBuilder::new();
    trunk.cone(v3(0.0, 0.0, 0.0), 0.2, 0.1, 4.5, 10, 4);
    // A grate around the trunk.
    trunk.cuboid(v3(-0.7, 0.0, -0.7), v3(0.7, 0.03, 0.7), 1.0);
    let trunk = k.mesh("street_tree_trunk", trunk, m_bark);
    let mut crown = MeshBuilder::new();
    let mut rng = Rng::new(SEED ^ 0x7ee);
    for _ in 0..24 {
        let c = v3(
            rng.range(-1.3, 1.3),
            rng.range(3.0, 5.8),
            rng.range(-1.3, 1.3),
        );
        crown.cross_cards(c, 2.2, 2.2, rng.range(0.0, 3.1));
    }
    let crown = k.mesh("street_tree_crown", crown, m_leaves);
    let mut z = Z_END - 19.0;
    while z > -Z_END {
        if (z - CROSS).abs() > 14.0 {
            for sx in [1.0f32, -1.0] {
                let p = v3(sx * (WALK - 1.6), 0.15, z);
                let yaw = rng.range(0.0, std::f32::consts::TAU);
                k.put(trunk, p, yaw, 1.0);
                k.put(crown, p, yaw, 1.0);
            }
        }
        z -= 18.0;
    }
    let mut x = 29.0;
    while x < X_END {
        for sx in [1.0f32, -1.0] {
            for sz in [1.0f32, -1.0] {
                let p = v3(sx * x, 0.15, CROSS + sz * (WALK - 1.6));
                let yaw = rng.range(0.0, std::f32::consts::TAU);
                k.put(trunk, p, yaw, 1.0);
                k.put(crown, p, yaw, 1.0);
            }
        }
        x += 18.0;
    }
}

/// Two glass bus shelters and steam puffs over manholes.
fn shelters_and_steam(k: &mut Kit, glass: usize, steam: usize, paint: usize) {
    let m_glass = k.alpha("shelter_glass", glass, AlphaMode::Blend);
    let m_frame = k.material(Material {
        name: "shelter_frame".into(),
        texture: Some(paint),
        base_color: [0.25, 0.3, 0.3, 1.0],
        ..Material::default()
    });
    let m_steam = k.alpha("steam", steam, AlphaMode::Blend);
    let mut panes = MeshBuilder::new();
    panes.quad(
        v3(-2.0, 0.1, -0.8),
        v3(4.0, 0.0, 0.0),
        v3(0.0, 2.2, 0.0),
        Vec2::new(2.0, 1.0),
    );
    panes.quad(
        v3(-2.0, 0.1, 0.6),
        v3(0.0, 0.0, -1.4),
        v3(0.0, 2.2, 0.0),
        Vec2::new(1.0, 1.0),
    );
    panes.quad(
        v3(2.0, 0.1, -0.8),
        v3(0.0, 0.0, 1.4),
        v3(0.0, 2.2, 0.0),
        Vec2::new(1.0, 1.0),
    );
    let panes = k.mesh("shelter_glass", panes, m_glass);
    let mut frame = MeshBuilder::new();
    frame.cuboid(v3(-2.1, 2.3, -0.9), v3(2.1, 2.45, 0.8), 1.0);
    for (x, z) in [(-2.05, -0.85), (2.05, -0.85), (-2.05, 0.6), (2.05, 0.6)] {
        frame.cylinder(v3(x, 0.0, z), 0.05, 2.3, 8, 1);
    }
    frame.cuboid(v3(-1.6, 0.45, -0.7), v3(1.6, 0.55, -0.3), 1.0);
    let frame = k.mesh("shelter_frame", frame, m_frame);
    for (z, sx) in [(22.0f32, 1.0f32), (-95.0, -1.0)] {
        let p = v3(sx * (WALK - 2.0), 0.15, z);
        let yaw = if sx > 0.0 { -FRAC_PI_2 } else { FRAC_PI_2 };
        k.put(frame, p, yaw, 1.0);
        k.put(panes, p, yaw, 1.0);
    }

    let mut puffs = MeshBuilder::new();
    let mut rng = Rng::new(SEED ^ 0x57ea);
    for (x, z) in [(1.0f32, -18.0f32), (-2.0, -75.0), (30.0, CROSS + 2.0)] {
        for i in 0..14 {
            let y = i as f32 * 0.45;
            let s = 1.2 + y * 0.5;
            let c = v3(
                x + rng.range(-0.4, 0.4) * (1.0 + y),
                y,
                z + rng.range(-0.4, 0.4),
            );
            let a = rng.range(0.0, PI);
            let d = v3(a.cos(), 0.0, a.sin()) * s;
            puffs.quad(c - d * 0.5, d, v3(0.0, s, 0.0), Vec2::new(1.0, 1.0));
        }
    }
    let pm = k.mesh("steam", puffs, m_steam);
    k.place(pm, Mat4::IDENTITY);
}
