//! `atrium`: a Sponza-like courtyard. A polished marble floor (reflective,
//! the mirror at floor height), two storeys of columns and round arches
//! around an open court, galleries with brick walls and plaster ceilings,
//! banners hanging from the upper arcade (double-sided, alpha masked),
//! terracotta vases with plants, glass lanterns and a glass balustrade
//! (blended).

use super::kit::Kit;
use super::noise::Rng;
use super::shapes::MeshBuilder;
use super::texgen;
use crate::graph::Preset;
use crate::math::{Mat4, Vec2, Vec3};
use crate::scene::{AlphaMode, Light, Material, Mirror, Scene};
use std::f32::consts::FRAC_PI_2;

const SEED: u32 = 0xa781_0c5e;
/// Half extents of the open court (column centres) and of the outer walls.
const COURT: (f32, f32) = (6.0, 12.0);
const OUTER: (f32, f32) = (10.5, 16.5);
/// Column spacing along the arcade.
const BAY: f32 = 4.0;
/// Storey floor heights and column heights.
const STOREYS: [(f32, f32); 2] = [(0.0, 4.5), (6.5, 3.5)];
const SLAB: f32 = 0.4;

fn v3(x: f32, y: f32, z: f32) -> Vec3 {
    Vec3::new(x, y, z)
}

pub fn build() -> Scene {
    let mut k = Kit::new("atrium");
    let marble = k.image(texgen::marble_tiles(2048, SEED, 8));
    let ashlar = k.image(texgen::ashlar(1024, SEED + 1, [0.80, 0.74, 0.62]));
    let bricks = k.image(texgen::bricks(1024, SEED + 2, 16, [0.62, 0.33, 0.22]));
    let plaster = k.image(texgen::plaster(1024, SEED + 3, [0.85, 0.80, 0.70]));
    let red = k.image(texgen::banner(
        1024,
        SEED + 4,
        [0.55, 0.08, 0.08],
        [0.85, 0.70, 0.25],
    ));
    let blue = k.image(texgen::banner(
        1024,
        SEED + 5,
        [0.10, 0.18, 0.45],
        [0.85, 0.85, 0.80],
    ));
    let clay = k.image(texgen::terracotta(512, SEED + 6));
    let leaves = k.image(texgen::leaves(1024, SEED + 7, [0.18, 0.38, 0.12]));
    let glass = k.image(texgen::glass(256, SEED + 8, [0.75, 0.85, 0.80]));

    let m_floor = k.material(Material {
        name: "marble_floor".into(),
        texture: Some(marble),
        reflective: true,
        ..Material::default()
    });
    let m_stone = k.textured("ashlar", ashlar);
    let m_brick = k.textured("bricks", bricks);
    let m_plaster = k.textured("plaster", plaster);
    let m_banner = [
        k.alpha("banner_red", red, AlphaMode::Mask),
        k.alpha("banner_blue", blue, AlphaMode::Mask),
    ];
    let m_clay = k.textured("terracotta", clay);
    let m_leaves = k.alpha("plant_leaves", leaves, AlphaMode::Mask);
    let m_glass = k.alpha("glass", glass, AlphaMode::Blend);
    let m_lantern = k.material(Material {
        name: "lantern_glass".into(),
        texture: Some(glass),
        alpha: AlphaMode::Blend,
        emissive: [0.9, 0.6, 0.25],
        ..Material::default()
    });

    floor(&mut k, m_floor);
    arcade(&mut k, m_stone);
    shell(&mut k, m_brick, m_plaster, m_stone);
    banners(&mut k, m_banner);
    vases(&mut k, m_clay, m_leaves);
    glassware(&mut k, m_glass, m_lantern);

    k.camera_path(
        &[
            (v3(0.0, 1.7, 10.5), v3(0.0, 4.5, -16.0)),
            (v3(-3.0, 1.7, 5.0), v3(6.0, 5.0, -12.0)),
            (v3(8.2, 1.7, -2.0), v3(8.0, 3.0, -16.0)),
            (v3(2.0, 1.7, -10.0), v3(-6.0, 6.0, 14.0)),
        ],
        200.0,
    );
    k.scene.light = Light {
        direction: v3(-0.35, -1.0, -0.45).normalize(),
        color: [1.0, 0.95, 0.85],
        ambient: 0.35,
    };
    k.scene.mirror = Some(Mirror { height: 0.0 });
    k.scene.sky = [0.50, 0.68, 0.95];
    // An Assassin's Creed-like interior: the class of forward-lit DX9/DX10
    // engines (lighting in the main pass, MSAA-friendly), one sun, few
    // local lights.
    k.preset(Preset::Dx9Forward);
    k.finish()
}

/// The floor: one finely divided grid over the whole building (1 m tiles,
/// 8 per texture repeat).
fn floor(k: &mut Kit, m: usize) {
    let mut b = MeshBuilder::new();
    let (w, d) = (OUTER.0 * 2.0, OUTER.1 * 2.0);
    b.grid(
        v3(-OUTER.0, 0.0, OUTER.1),
        v3(w, 0.0, 0.0),
        v3(0.0, 0.0, -d),
        168,
        264,
        Vec2::new(w / 8.0, d / 8.0),
    );
    let f = k.mesh("floor", b, m);
    k.place(f, Mat4::IDENTITY);
}

/// Column centres around the court: the rectangle's perimeter every `BAY`.
fn column_spots() -> Vec<(f32, f32)> {
    let (cx, cz) = COURT;
    let mut v = Vec::new();
    let nz = (2.0 * cz / BAY) as i32;
    let nx = (2.0 * cx / BAY) as i32;
    for i in 0..=nz {
        let z = -cz + i as f32 * BAY;
        v.push((-cx, z));
        v.push((cx, z));
    }
    for i in 1..nx {
        let x = -cx + i as f32 * BAY;
        v.push((x, -cz));
        v.push((x, cz));
    }
    v
}

/// A column `4.5 * s` m tall: square plinth, moulded base, tapering shaft
/// with entasis, flared capital and a square abacus. Heights are scaled in
/// the geometry (not by the instance transform) so instances stay
/// rigid and normals exact.
fn column(s: f32) -> MeshBuilder {
    let mut b = MeshBuilder::new();
    b.cuboid(v3(-0.5, 0.0, -0.5), v3(0.5, 0.2 * s, 0.5), 0.5);
    let mut profile = vec![(0.46, 0.2), (0.48, 0.28), (0.44, 0.38), (0.38, 0.45)];
    for i in 0..=24 {
        let t = i as f32 / 24.0;
        // Entasis: a slight swell below mid-height, then taper.
        let r = 0.36 - 0.05 * t + 0.012 * (t * std::f32::consts::PI).sin();
        profile.push((r, 0.5 + t * 3.3));
    }
    profile.extend([(0.34, 3.85), (0.40, 3.95), (0.50, 4.15), (0.56, 4.25)]);
    for p in &mut profile {
        p.1 *= s;
    }
    b.lathe(v3(0.0, 0.0, 0.0), &profile, 48);
    b.cuboid(v3(-0.6, 4.25 * s, -0.6), v3(0.6, 4.5 * s, 0.6), 0.5);
    b
}

fn arcade(k: &mut Kit, m_stone: usize) {
    let mut arch = MeshBuilder::new();
    // Spans BAY between column centres, resting on the abaci.
    arch.arch(BAY * 0.5, 0.0, 2.0, 0.9, BAY * 0.5 - 0.45, 24);
    let arch = k.mesh("arch", arch, m_stone);
    let (cx, cz) = COURT;
    for (i, &(base, h)) in STOREYS.iter().enumerate() {
        let col = k.mesh(&format!("column_storey{i}"), column(h / 4.5), m_stone);
        for &(x, z) in &column_spots() {
            k.put(col, v3(x, base, z), 0.0, 1.0);
        }
        let top = base + h;
        // Arches along the long sides (facing x) and the short ends.
        for i in 0..(2.0 * cz / BAY) as i32 {
            let z = -cz + (i as f32 + 0.5) * BAY;
            for x in [-cx, cx] {
                k.put(arch, v3(x, top, z), FRAC_PI_2, 1.0);
            }
        }
        for i in 0..(2.0 * cx / BAY) as i32 {
            let x = -cx + (i as f32 + 0.5) * BAY;
            for z in [-cz, cz] {
                k.put(arch, v3(x, top, z), 0.0, 1.0);
            }
        }
    }
}

/// Outer brick walls, gallery floor slab and ceilings, a parapet and a
/// cornice around the court.
fn shell(k: &mut Kit, m_brick: usize, m_plaster: usize, m_stone: usize) {
    let (ox, oz) = OUTER;
    let h = 14.0;
    let mut walls = MeshBuilder::new();
    let uv = 1.0 / 3.0;
    // Inward-facing walls: x = -ox faces +x, etc.
    walls.grid(
        v3(-ox, 0.0, oz),
        v3(0.0, 0.0, -2.0 * oz),
        v3(0.0, h, 0.0),
        66,
        28,
        Vec2::new(2.0 * oz * uv, h * uv),
    );
    walls.grid(
        v3(ox, 0.0, -oz),
        v3(0.0, 0.0, 2.0 * oz),
        v3(0.0, h, 0.0),
        66,
        28,
        Vec2::new(2.0 * oz * uv, h * uv),
    );
    walls.grid(
        v3(-ox, 0.0, -oz),
        v3(2.0 * ox, 0.0, 0.0),
        v3(0.0, h, 0.0),
        42,
        28,
        Vec2::new(2.0 * ox * uv, h * uv),
    );
    walls.grid(
        v3(ox, 0.0, oz),
        v3(-2.0 * ox, 0.0, 0.0),
        v3(0.0, h, 0.0),
        42,
        28,
        Vec2::new(2.0 * ox * uv, h * uv),
    );
    let w = k.mesh("walls", walls, m_brick);
    k.place(w, Mat4::IDENTITY);

    // Gallery slabs: a ring between the arcade line and the outer walls,
    // as four boxes, at the upper floor and the roof.
    let (cx, cz) = COURT;
    let e = 0.45;
    let mut slabs = MeshBuilder::new();
    for y in [STOREYS[1].0 - SLAB, 12.4] {
        let (y0, y1) = (y, y + SLAB);
        slabs.cuboid(v3(-ox, y0, -oz), v3(-cx + e, y1, oz), 0.25);
        slabs.cuboid(v3(cx - e, y0, -oz), v3(ox, y1, oz), 0.25);
        slabs.cuboid(v3(-cx + e, y0, -oz), v3(cx - e, y1, -cz + e), 0.25);
        slabs.cuboid(v3(-cx + e, y0, cz - e), v3(cx - e, y1, oz), 0.25);
    }
    let s = k.mesh("slabs", slabs, m_plaster);
    k.place(s, Mat4::IDENTITY);

    // Cornices over each arcade and a parapet around the roof.
    let mut trim = MeshBuilder::new();
    for y in [6.1, 12.0, 12.8] {
        let t = if y > 12.5 { 1.2 } else { 0.4 };
        trim.cuboid(
            v3(-cx - e - 0.1, y, -cz - e - 0.1),
            v3(-cx + e + 0.1, y + t, cz + e + 0.1),
            0.5,
        );
        trim.cuboid(
            v3(cx - e - 0.1, y, -cz - e - 0.1),
            v3(cx + e + 0.1, y + t, cz + e + 0.1),
            0.5,
        );
        trim.cuboid(
            v3(-cx + e + 0.1, y, -cz - e - 0.1),
            v3(cx - e - 0.1, y + t, -cz + e + 0.1),
            0.5,
        );
        trim.cuboid(
            v3(-cx + e + 0.1, y, cz - e - 0.1),
            v3(cx - e - 0.1, y + t, cz + e + 0.1),
            0.5,
        );
    }
    let t = k.mesh("cornices", trim, m_stone);
    k.place(t, Mat4::IDENTITY);
}

/// Banners hanging in the upper arches of the long sides, gently waving.
fn banners(k: &mut Kit, mats: [usize; 2]) {
    let (w, h) = (1.5, 3.6);
    for (v, &m) in mats.iter().enumerate() {
        let mut b = MeshBuilder::new();
        // Hang from y = 0 down to -h in the local XY plane, waving in z.
        let (nu, nv) = (8, 24);
        let base = b.positions.len() as u32;
        for j in 0..=nv {
            for i in 0..=nu {
                let (s, t) = (i as f32 / nu as f32, j as f32 / nv as f32);
                let phase = v as f32 * 1.3;
                let z = 0.12 * (t * 5.0 + phase).sin() * t;
                let dz = 0.12 * ((t * 5.0 + phase).cos() * 5.0 * t + (t * 5.0 + phase).sin()) / h;
                let n = v3(0.0, dz, 1.0);
                b.vertex(v3((s - 0.5) * w, -t * h, z), n, (s, t));
            }
        }
        let row = nu + 1;
        for j in 0..nv {
            for i in 0..nu {
                let a = base + j * row + i;
                b.tri(a, a + row + 1, a + 1);
                b.tri(a, a + row, a + row + 1);
            }
        }
        // The rod it hangs from.
        b.cuboid(v3(-w * 0.55, 0.0, -0.04), v3(w * 0.55, 0.08, 0.04), 1.0);
        let mesh = k.mesh(&format!("banner{v}"), b, m);
        let (cx, cz) = COURT;
        let top = STOREYS[1].0 - SLAB - 0.1;
        for i in 0..(2.0 * cz / BAY) as i32 {
            if i % 2 != v as i32 {
                continue;
            }
            let z = -cz + (i as f32 + 0.5) * BAY;
            for x in [-cx, cx] {
                k.put(mesh, v3(x, top, z), FRAC_PI_2, 1.0);
            }
        }
    }
}

/// Terracotta vases along the galleries and big planters in the court,
/// with leafy plants of crossed cards.
fn vases(k: &mut Kit, m_clay: usize, m_leaves: usize) {
    let mut vase = MeshBuilder::new();
    let mut profile = vec![(0.0, 0.0)];
    for i in 0..=40 {
        let t = i as f32 / 40.0;
        let r = 0.22
            + 0.2 * (t * 3.0).sin() * (1.0 - t * 0.6)
            + 0.06 * t * t * 4.0 * (t - 0.5).max(0.0);
        profile.push((r, t * 1.1));
    }
    profile.push((0.16, 1.1));
    vase.lathe(v3(0.0, 0.0, 0.0), &profile, 48);
    let vase = k.mesh("vase", vase, m_clay);

    let mut plant = MeshBuilder::new();
    let mut rng = Rng::new(SEED ^ 0x91a7);
    for _ in 0..10 {
        let c = v3(
            rng.range(-0.3, 0.3),
            rng.range(0.9, 1.5),
            rng.range(-0.3, 0.3),
        );
        plant.cross_cards(c, 1.0, 1.0, rng.range(0.0, 3.1));
    }
    let plant = k.mesh("plant", plant, m_leaves);

    let (ox, oz) = OUTER;
    let mut rng = Rng::new(SEED ^ 0x0a5e);
    // Along the outer walls of both galleries.
    for &(base, _) in &STOREYS {
        for i in 0..8 {
            let z = -oz + 2.0 + i as f32 * 4.2;
            for x in [-ox + 0.8, ox - 0.8] {
                let yaw = rng.range(0.0, std::f32::consts::TAU);
                k.put(vase, v3(x, base, z), yaw, 1.0);
                if i % 2 == 0 {
                    k.put(plant, v3(x, base, z), yaw, 1.0);
                }
            }
        }
    }
    // Big planters at the court corners.
    let (cx, cz) = COURT;
    for (x, z) in [
        (-cx + 1.8, -cz + 1.8),
        (cx - 1.8, -cz + 1.8),
        (-cx + 1.8, cz - 1.8),
        (cx - 1.8, cz - 1.8),
    ] {
        k.put(vase, v3(x, 0.0, z), 0.0, 1.6);
        k.put(plant, v3(x, 0.0, z), 0.7, 1.9);
    }
}

/// Glass lanterns hanging in the lower galleries and a glass balustrade
/// along the upper arcade.
fn glassware(k: &mut Kit, m_glass: usize, m_lantern: usize) {
    let mut lantern = MeshBuilder::new();
    lantern.sphere(v3(0.0, 0.0, 0.0), 0.35, 24, 16);
    lantern.cylinder(v3(0.0, 0.3, 0.0), 0.02, 1.2, 6, 1);
    let lantern = k.mesh("lantern", lantern, m_lantern);
    let (cx, cz) = COURT;
    let gx = (cx + OUTER.0) * 0.5;
    for i in 0..6 {
        let z = -cz + 2.0 + i as f32 * BAY;
        for x in [-gx, gx] {
            k.put(lantern, v3(x, 4.6, z), 0.0, 1.0);
        }
    }

    let mut rail = MeshBuilder::new();
    let y = STOREYS[1].0;
    let e = 0.5;
    for x in [-cx, cx] {
        rail.quad(
            v3(x, y, cz - e),
            v3(0.0, 0.0, -2.0 * (cz - e)),
            v3(0.0, 1.0, 0.0),
            Vec2::new(6.0, 0.5),
        );
    }
    for z in [-cz, cz] {
        rail.quad(
            v3(-cx + e, y, z),
            v3(2.0 * (cx - e), 0.0, 0.0),
            v3(0.0, 1.0, 0.0),
            Vec2::new(3.0, 0.5),
        );
    }
    let rail = k.mesh("balustrade", rail, m_glass);
    k.place(rail, Mat4::IDENTITY);
}
