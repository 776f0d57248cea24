//! `terrain`: an open landscape. A 512 m fbm heightfield (grass valleys,
//! rock slopes, snowy peaks behind), a reflective lake at the mirror
//! height, hundreds of instanced conifers (trunk + needle cones) and
//! broadleaf trees (alpha-masked leaf cards), scattered rocks, a wooden
//! hut with glass windows and mist over the water (blended).

use super::kit::Kit;
use super::noise::{fbm, Rng};
use super::props;
use super::shapes::MeshBuilder;
use super::texgen;
use crate::graph::Preset;
use crate::math::{Vec2, Vec3};
use crate::scene::{AlphaMode, Light, Material, Mirror, Scene};

const SEED: u32 = 0x7e44_a1d0;
const SIZE: f32 = 512.0;
const CELLS: u32 = 256;
/// The lake surface (and the mirror plane).
const WATER: f32 = 0.0;
const LAKE: (f32, f32, f32) = (10.0, -40.0, 75.0);
/// Camera keys `(x, z, target)`: along the south shore, looking north
/// across the lake at the peaks.
const PATH: [(f32, f32, f32, f32, f32); 4] = [
    (-60.0, 40.0, 10.0, 6.0, -160.0),
    (-25.0, 30.0, 30.0, 6.0, -150.0),
    (15.0, 28.0, 0.0, 5.0, -160.0),
    (55.0, 20.0, -40.0, 5.0, -130.0),
];

/// Horizontal distance from `(x, z)` to the camera path, so nothing is
/// planted in the camera's face.
fn path_distance(x: f32, z: f32) -> f32 {
    PATH.windows(2)
        .map(|w| {
            let (ax, az, bx, bz) = (w[0].0, w[0].1, w[1].0, w[1].1);
            let (dx, dz) = (bx - ax, bz - az);
            let t = (((x - ax) * dx + (z - az) * dz) / (dx * dx + dz * dz)).clamp(0.0, 1.0);
            let (px, pz) = (ax + dx * t - x, az + dz * t - z);
            (px * px + pz * pz).sqrt()
        })
        .fold(f32::INFINITY, f32::min)
}

fn smooth(a: f32, b: f32, x: f32) -> f32 {
    texgen::step(a, b, x)
}

/// Ground height at `(x, z)`: rolling hills, a lake basin, and a mountain
/// range rising towards -z so the camera looks at peaks across the water.
pub fn height(x: f32, z: f32) -> f32 {
    let (u, v) = ((x + SIZE * 0.5) / SIZE, (z + SIZE * 0.5) / SIZE);
    let (dx, dz) = (x - LAKE.0, (z - LAKE.1) * 1.4);
    let d = (dx * dx + dz * dz).sqrt() / LAKE.2;
    // Hills fade out around the lake so its shore is a gentle meadow.
    let hills = (fbm(u, v, 4, 5, SEED) - 0.5) * 40.0 * smooth(0.7, 1.6, d);
    let ridge = smooth(-60.0, -230.0, z) * fbm(u, v, 4, 5, SEED ^ 0x55) * 170.0;
    let bowl = -8.0 * (1.0 - smooth(0.3, 1.0, d));
    3.0 + hills + ridge + bowl
}

/// Surface class of a triangle: 0 grass, 1 rock, 2 snow.
fn class(y: f32, up: f32, jitter: f32) -> usize {
    if y > 75.0 + jitter * 20.0 {
        2
    } else if up < 0.80 + jitter * 0.08 || y > 55.0 + jitter * 15.0 || y < WATER + 0.6 {
        1
    } else {
        0
    }
}

pub fn build() -> Scene {
    let mut k = Kit::new("terrain");
    let grass = k.image(texgen::grass(2048, SEED));
    let rock = k.image(texgen::rock(1024, SEED + 1));
    let snow = k.image(texgen::snow(1024, SEED + 2));
    let water = k.image(texgen::water(1024, SEED + 3));
    let bark = k.image(texgen::bark(512, SEED + 4));
    let needles = k.image(texgen::leaves(1024, SEED + 5, [0.10, 0.22, 0.12]));
    let foliage = k.image(texgen::leaves(1024, SEED + 6, [0.25, 0.40, 0.12]));
    let planks = k.image(texgen::planks(512, SEED + 7));
    let glass = k.image(texgen::glass(256, SEED + 8, [0.6, 0.75, 0.8]));
    let mist = k.image(texgen::puff(256, SEED + 9, [0.92, 0.94, 0.97]));
    let blades = k.image(texgen::blades(512, SEED + 10, 24));

    let m_ground = [
        k.textured("grass", grass),
        k.textured("rock", rock),
        k.textured("snow", snow),
    ];
    let m_water = k.material(Material {
        name: "water".into(),
        texture: Some(water),
        reflective: true,
        ..Material::default()
    });
    let m_bark = k.textured("bark", bark);
    // Needle cones are solid geometry: the texture's alpha is ignored.
    let m_needles = k.textured("needles", needles);
    let m_leaves = k.alpha("leaves", foliage, AlphaMode::Mask);
    let m_rock = k.textured("boulder", rock);
    let m_planks = k.textured("planks", planks);
    let m_glass = k.alpha("glass", glass, AlphaMode::Blend);
    let m_mist = k.particle("mist", mist, [0.0; 3]);
    let m_tufts = k.alpha("grass_tufts", blades, AlphaMode::Mask);

    ground(&mut k, m_ground);
    lake(&mut k, m_water, m_mist);
    trees(&mut k, m_bark, m_needles, m_leaves);
    rocks(&mut k, m_rock);
    hut(&mut k, m_planks, m_glass);
    tufts(&mut k, m_tufts);

    let keys: Vec<(Vec3, Vec3)> = PATH
        .iter()
        .map(|&(x, z, tx, ty, tz)| {
            let eye = Vec3::new(x, height(x, z).max(WATER) + 1.8, z);
            (eye, Vec3::new(tx, ty, tz))
        })
        .collect();
    k.camera_path(&keys, 900.0);
    k.scene.light = Light {
        direction: Vec3::new(-0.45, -0.55, -0.70).normalize(),
        color: [1.0, 0.95, 0.85],
        ambient: 0.3,
    };
    k.scene.mirror = Some(Mirror { height: WATER });
    k.scene.sky = [0.45, 0.62, 0.88];
    // An open world of the DX10/11 era (Stalker CoP, Lost Planet 2, Unigine
    // Heaven): a deferred engine.
    k.preset(Preset::Dx11Deferred);
    k.finish()
}

/// The heightfield, split into grass / rock / snow meshes by height and
/// slope (one material each), with noise on the thresholds so the borders
/// wander instead of following contour lines.
fn ground(k: &mut Kit, mats: [usize; 3]) {
    let mut all = MeshBuilder::new();
    all.heightfield((-SIZE * 0.5, -SIZE * 0.5), SIZE, CELLS, 0.125, height);
    let mut parts: [Vec<u32>; 3] = Default::default();
    for t in all.indices.chunks_exact(3) {
        let p = [0, 1, 2].map(|i| all.positions[t[i] as usize]);
        let n = (p[1] - p[0]).cross(p[2] - p[0]).normalize();
        let y = (p[0].y + p[1].y + p[2].y) / 3.0;
        let (u, v) = (p[0].x / SIZE + 0.5, p[0].z / SIZE + 0.5);
        let jitter = fbm(u, v, 32, 2, SEED ^ 0x99) * 2.0 - 1.0;
        parts[class(y, n.y.abs(), jitter)].extend_from_slice(t);
    }
    let names = ["ground_grass", "ground_rock", "ground_snow"];
    for (i, idx) in parts.into_iter().enumerate() {
        let b = MeshBuilder {
            positions: all.positions.clone(),
            normals: all.normals.clone(),
            uvs: all.uvs.clone(),
            indices: idx,
        };
        let m = k.mesh(names[i], b, mats[i]);
        k.place(m, crate::math::Mat4::IDENTITY);
    }
}

/// The water plane over the basin and mist cards drifting above it.
fn lake(k: &mut Kit, m_water: usize, m_mist: usize) {
    let mut w = MeshBuilder::new();
    let r = LAKE.2 * 1.1;
    w.grid(
        Vec3::new(LAKE.0 - r, WATER, LAKE.1 + r),
        Vec3::new(2.0 * r, 0.0, 0.0),
        Vec3::new(0.0, 0.0, -2.0 * r),
        32,
        32,
        Vec2::new(12.0, 12.0),
    );
    let m = k.mesh("lake", w, m_water);
    k.place(m, crate::math::Mat4::IDENTITY);

    let mut mist = MeshBuilder::new();
    let mut rng = Rng::new(SEED ^ 0x3157);
    for _ in 0..40 {
        let (x, z) = (rng.range(-50.0, 70.0), rng.range(-90.0, 10.0));
        let (w, h) = (rng.range(14.0, 28.0), rng.range(4.0, 8.0));
        let a = rng.range(-0.4, 0.4);
        let d = Vec3::new(a.cos(), 0.0, a.sin()) * w;
        let base = Vec3::new(x, WATER + rng.range(-0.5, 1.5), z);
        mist.quad(
            base - d * 0.5,
            d,
            Vec3::new(0.0, h, 0.0),
            Vec2::new(1.0, 1.0),
        );
    }
    let m = k.mesh("mist", mist, m_mist);
    k.place(m, crate::math::Mat4::IDENTITY);
}

/// A spot on dry, gentle ground away from the lake shore.
fn spot(rng: &mut Rng, max_y: f32) -> Option<Vec3> {
    let (x, z) = (rng.range(-240.0, 240.0), rng.range(-200.0, 240.0));
    let y = height(x, z);
    let slope = (height(x + 1.0, z) - y).abs() + (height(x, z + 1.0) - y).abs();
    (y > WATER + 1.0 && y < max_y && slope < 0.8 && path_distance(x, z) > 9.0).then_some(Vec3::new(
        x,
        y - 0.2,
        z,
    ))
}

fn trees(k: &mut Kit, m_bark: usize, m_needles: usize, m_leaves: usize) {
    // Conifer: a trunk and four stacked needle cones, 10 m tall at scale 1.
    let trunk = k.mesh("conifer_trunk", props::conifer_trunk(8), m_bark);
    let cones = k.mesh("conifer_needles", props::conifer_needles(16, 3), m_needles);

    // Broadleaf: a thicker trunk and a crown of crossed leaf cards.
    let mut bt = MeshBuilder::new();
    bt.cone(Vec3::new(0.0, 0.0, 0.0), 0.35, 0.2, 5.0, 8, 2);
    let bt = k.mesh("broadleaf_trunk", bt, m_bark);
    let crown = props::leaf_crown(&mut Rng::new(SEED ^ 0xc20), 14, 1.8, (3.5, 6.5), 3.2);
    let crown = k.mesh("broadleaf_crown", crown, m_leaves);

    let mut rng = Rng::new(SEED ^ 0x7733);
    let (mut conifers, mut broad, mut tries) = (0, 0, 0);
    while (conifers < 320 || broad < 160) && tries < 20_000 {
        tries += 1;
        let Some(p) = spot(&mut rng, 58.0) else {
            continue;
        };
        let (yaw, s) = (rng.range(0.0, std::f32::consts::TAU), rng.range(0.75, 1.35));
        // Conifers higher up, broadleaves in the valley.
        if p.y > 12.0 && conifers < 320 || broad >= 160 {
            k.put(trunk, p, yaw, s);
            k.put(cones, p, yaw, s);
            conifers += 1;
        } else {
            k.put(bt, p, yaw, s);
            k.put(crown, p, yaw, s);
            broad += 1;
        }
    }
}

fn rocks(k: &mut Kit, m_rock: usize) {
    let mut meshes = Vec::new();
    for v in 0..3u32 {
        meshes.push(k.mesh(&format!("rock{v}"), props::boulder(SEED + v), m_rock));
    }
    let mut rng = Rng::new(SEED ^ 0xb01d);
    let mut n = 0;
    while n < 140 {
        let Some(p) = spot(&mut rng, 80.0) else {
            continue;
        };
        let m = meshes[rng.below(3) as usize];
        k.put(
            m,
            p,
            rng.range(0.0, std::f32::consts::TAU),
            rng.range(0.5, 2.2),
        );
        n += 1;
    }
}

/// A plank hut on the near shore with glass windows.
fn hut(k: &mut Kit, m_planks: usize, m_glass: usize) {
    let (x, z) = (-62.0, 8.0);
    let y = height(x, z) - 0.3;
    let o = Vec3::new(x, y, z);
    let (w, d, h) = (6.0, 4.0, 3.0);
    let b = props::gabled_house(o, Vec3::new(w, h, d), 1.8, 0.5);
    let m = k.mesh("hut", b, m_planks);
    k.place(m, crate::math::Mat4::IDENTITY);

    let mut g = MeshBuilder::new();
    for wx in [-1.6f32, 1.6] {
        g.quad(
            o + Vec3::new(wx - 0.6, 1.1, d / 2.0 + 0.03),
            Vec3::new(1.2, 0.0, 0.0),
            Vec3::new(0.0, 1.0, 0.0),
            Vec2::new(1.0, 1.0),
        );
    }
    let m = k.mesh("hut_windows", g, m_glass);
    k.place(m, crate::math::Mat4::IDENTITY);
}

/// Grass tufts (alpha-masked crossed cards) on the meadow along the camera
/// path, where the ground is seen up close.
fn tufts(k: &mut Kit, m: usize) {
    let mut tuft = MeshBuilder::new();
    for i in 0..3 {
        tuft.cross_cards(Vec3::new(0.0, -0.05, 0.0), 0.9, 0.55, i as f32 * 0.5);
    }
    let tuft = k.mesh("grass_tuft", tuft, m);
    let mut rng = Rng::new(SEED ^ 0x70f7);
    let mut n = 0;
    while n < 900 {
        let (x, z) = (rng.range(-110.0, 100.0), rng.range(-10.0, 75.0));
        let y = height(x, z);
        let d = path_distance(x, z);
        if y > WATER + 0.8 && y < 40.0 && d > 1.5 && d < 45.0 {
            k.put(
                tuft,
                Vec3::new(x, y, z),
                rng.range(0.0, 3.2),
                rng.range(0.7, 1.4),
            );
            n += 1;
        }
    }
}
